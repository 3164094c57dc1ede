//! What a researcher cites: the licence file and `CITATION.cff` agree with `Cargo.toml`,
//! where the version and the licence are written first.

use std::path::Path;

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn citation_names_the_crate_version() {
    let cff = read("CITATION.cff");
    let versions: Vec<&str> = cff.lines().filter_map(|line| line.strip_prefix("version: ")).collect();
    assert_eq!(
        versions,
        [env!("CARGO_PKG_VERSION")],
        "CITATION.cff must name Cargo.toml's version once"
    );
    assert!(cff.contains("license: MIT"), "{cff}");
}

#[test]
fn licence_file_is_the_licence_cargo_toml_names() {
    let manifest = read("Cargo.toml");
    assert!(
        manifest.lines().any(|line| line == "license = \"MIT\""),
        "Cargo.toml names another licence"
    );
    assert_eq!(read("LICENSE").lines().next(), Some("MIT License"));
}
