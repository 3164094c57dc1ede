//! Every route of the search honours what a definition constrains: its `Illegal` lines, its
//! `MoveSequence` lines and another goal. The ranks in memory (`--route dense`), the packed
//! states (`--route sparse`), the planes on disk and two processes sharing the search each
//! give the distance table of a plain search over explicit states
//! ([`PermModel`](crate::util::PermModel)); a route that cannot take a definition refuses
//! it in one line before any work.

use crate::cluster::hostfile;
use crate::util::{Ended, PermModel, PermMove, PermSet, PermState, Sandbox, states, wait};
use std::time::Duration;

/// How long a process of a shared search may take.
const LIMIT: Duration = Duration::from_secs(60);

/// Five distinct pieces in a ring and three twisting ones.
fn sets() -> Vec<PermSet> {
    vec![
        PermSet {
            name: "RING",
            size: 5,
            orientations: 1,
        },
        PermSet {
            name: "TWIST",
            size: 3,
            orientations: 3,
        },
    ]
}

/// A move turning the ring by `ring` and the twisting pieces by `twist`, which gain `gain`.
fn turn(name: &'static str, ring: [u8; 5], twist: [u8; 3], gain: [u8; 3]) -> PermMove {
    PermMove {
        name,
        from: vec![ring.to_vec(), twist.to_vec()],
        twist: vec![vec![0; 5], gain.to_vec()],
    }
}

/// The moves: `A` turns the ring, `B` swaps two of its pieces and cycles the twisting ones,
/// `C` swaps two twisting ones.
fn moves() -> Vec<PermMove> {
    vec![
        turn("A", [5, 1, 2, 3, 4], [1, 2, 3], [0, 0, 0]),
        turn("B", [2, 1, 3, 4, 5], [3, 1, 2], [1, 1, 1]),
        turn("C", [1, 2, 3, 4, 5], [2, 1, 3], [0, 1, 2]),
    ]
}

/// The puzzle with two `Illegal` lines: pieces 3 and 4 never at the ring's first
/// position, piece 1 never at the second twisting one.
fn guarded() -> PermModel {
    PermModel {
        name: "Guarded",
        sets: sets(),
        moves: moves(),
        sequences: Vec::new(),
        illegal: vec![(0, 1, vec![3, 4]), (1, 2, vec![1])],
    }
}

/// The puzzle with a sequence of the moves as a move of its own: `S` is `B A2 C`.
fn sequenced() -> PermModel {
    PermModel {
        name: "Sequenced",
        sets: sets(),
        moves: moves(),
        sequences: vec![("S", vec![(1, 1), (0, 2), (2, 1)])],
        illegal: Vec::new(),
    }
}

/// The same puzzle with no line that constrains it.
fn free() -> PermModel {
    PermModel {
        name: "Free",
        sets: sets(),
        moves: moves(),
        sequences: Vec::new(),
        illegal: Vec::new(),
    }
}

/// The distance table the binary writes for `args` into the one report folder of `out`.
fn table(sandbox: &Sandbox, out: &str) -> Vec<u64> {
    let folders = sandbox.list(out);
    assert_eq!(folders.len(), 1, "{folders:?}");
    states(&sandbox.read(&format!("{out}/{}/distances.csv", folders[0])))
}

/// The distance table of `args` searched by `route`: `dense`, `sparse`, `disk` (with a
/// memory small enough for several parts) or `hosts` (two processes on this machine).
fn by_route(sandbox: &Sandbox, args: &[&str], route: &str) -> Vec<u64> {
    let out = format!("out-{route}-{}", sandbox.list(".").len());
    let mut all = args.to_vec();
    all.extend(["--out", &out, "--quiet"]);
    match route {
        "dense" | "sparse" => {
            all.extend(["--route", route]);
            sandbox.run(&all).success();
        }
        "disk" => {
            let planes = format!("{out}-planes");
            all.extend(["--disk", &planes, "--memory", "1KiB"]);
            sandbox.run(&all).success();
        }
        _ => {
            let hosts = format!("{out}-hosts");
            hostfile(sandbox, &hosts, 2);
            let children: Vec<_> = ["0", "1"]
                .iter()
                .map(|i| {
                    let mut one = all.clone();
                    one.extend(["--hosts", &hosts, "--process", i]);
                    sandbox.spawn(&one)
                })
                .collect();
            for ended in children.into_iter().map(|c| wait(c, LIMIT)) {
                assert_eq!(ended.code, Some(0), "{args:?} on {route}: {}", ended.stderr);
            }
        }
    }
    table(sandbox, &out)
}

const ROUTES: [&str; 4] = ["dense", "sparse", "disk", "hosts"];

/// The state `moves` (by index) make from the goal, one after the other.
fn after(model: &PermModel, moves: &[usize]) -> PermState {
    moves
        .iter()
        .fold(model.solved(), |state, &m| model.apply(&model.moves[m], &state))
}

#[test]
fn every_route_honours_illegal_lines_sequences_and_another_goal() {
    let sandbox = Sandbox::new();
    let unconstrained = free().levels(&free().solved(), true);
    // `B2 A`: a goal whose table differs from the solved state's.
    let goal = after(&guarded(), &[1, 1, 0]);
    assert!(guarded().legal(&goal), "the test's goal is legal");
    let cases = [
        ("guarded.tws", guarded(), None),
        ("sequenced.tws", sequenced(), None),
        ("guarded-goal.tws", guarded(), Some(goal)),
    ];
    for (file, model, goal) in cases {
        std::fs::write(sandbox.path(file), model.text()).expect("written");
        let start = goal.clone().unwrap_or_else(|| model.solved());
        let plain = model.levels(&start, true);
        // Each constraint changes the table, so a route ignoring it would fail here.
        assert_ne!(plain, unconstrained, "{file}");
        if goal.is_some() {
            assert_ne!(plain, model.levels(&model.solved(), true), "{file}");
        }
        let position = goal.as_ref().map(|g| model.position(g));
        let mut args = vec!["--rules", file];
        if let Some(position) = &position {
            args.extend(["--goal", position]);
        }
        for route in ROUTES {
            assert_eq!(by_route(&sandbox, &args, route), plain, "{file} on {route}");
        }
    }
}

/// Twenty-one distinct pieces on a ring, more than a rank numbers (20): turned by one
/// place, or reflected about the first position.
fn wide_ring() -> PermModel {
    let cycle: Vec<u8> = (0..21).map(|i| if i == 0 { 21 } else { i }).collect();
    let mirror: Vec<u8> = (0..21u8).map(|i| (21 - i) % 21 + 1).collect();
    PermModel {
        name: "WideRing",
        sets: vec![PermSet {
            name: "POINTS",
            size: 21,
            orientations: 1,
        }],
        moves: vec![
            PermMove {
                name: "T",
                from: vec![cycle],
                twist: vec![vec![0; 21]],
            },
            PermMove {
                name: "M",
                from: vec![mirror],
                twist: vec![vec![0; 21]],
            },
        ],
        sequences: Vec::new(),
        illegal: vec![(0, 1, vec![5, 6]), (0, 2, vec![7])],
    }
}

#[test]
fn packed_states_too_wide_to_rank_honour_illegal_lines_and_other_routes_refuse_them() {
    let sandbox = Sandbox::new();
    let model = wide_ring();
    std::fs::write(sandbox.path("wide.tws"), model.text()).expect("written");
    let args = ["--rules", "wide.tws", "--metric", "quarter"];
    let plain = model.levels(&model.solved(), false);
    let without = PermModel {
        illegal: Vec::new(),
        ..wide_ring()
    };
    assert_ne!(plain, without.levels(&without.solved(), false));
    // Taken by itself: the pieces cannot be ranked.
    sandbox
        .run(&[&args[..], &["--out", "out", "--quiet"]].concat())
        .success();
    assert_eq!(table(&sandbox, "out"), plain);
    hostfile(&sandbox, "hosts", 2);
    for (extra, refusal) in [
        (&["--route", "dense"][..], "cannot be ranked"),
        (&["--disk", "planes", "--memory", "1MiB"], "cannot be ranked"),
        (&["--hosts", "hosts", "--process", "0"], "cannot be ranked"),
    ] {
        let ended: Ended = sandbox.output(&[&args[..], extra, &["--out", "refused"]].concat());
        assert_eq!(ended.code, Some(2), "{extra:?}: {}", ended.stderr);
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
        assert!(ended.stderr.contains(refusal), "{extra:?}: {}", ended.stderr);
        assert!(!sandbox.path("refused").exists());
    }
}
