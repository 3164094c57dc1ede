//! `summary.json` read as JavaScript reads it: counts above 2^53 are also strings.

use crate::util::{Sandbox, summary};

#[test]
fn counts_above_2_to_the_53_are_also_given_as_strings() {
    let sandbox = Sandbox::new();
    let args = [
        "--puzzle", "flip-k", "--coins", "60", "--flip", "31", "--out", "out", "--quiet",
    ];
    sandbox.run(&args).success();
    let json = summary(&sandbox.path("out/flip-k-60-31/summary.json"));
    assert_eq!(json["configurations"], serde_json::json!(1u64 << 60));
    assert_eq!(json["configurations_string"], "1152921504606846976");
    assert_eq!(json["reachable_string"], "1152921504606846976");
    // Small counts are numbers only.
    assert!(json.get("antipodes_string").is_none(), "{json}");
    sandbox.run(&["--puzzle", "eight", "--out", "out", "--quiet"]).success();
    let eight = summary(&sandbox.path("out/eight/summary.json"));
    assert!(eight.get("configurations_string").is_none(), "{eight}");
}
