//! The heuristic atlas in the reports: `heuristics.csv`, `astar.csv`, the `heuristics`
//! object of `summary.json` and the *Heuristics* section of `report.md`.

use super::thousands;
use crate::atlas::astar::BUDGET;
use crate::atlas::{Atlas, Joint};
use crate::puzzle::sliding::draw_tiles;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::io::{self, Write};

/// One row of `heuristics.csv`.
#[derive(Debug, Serialize)]
struct JointRow {
    heuristic: &'static str,
    distance: usize,
    value: usize,
    states: u64,
}

/// One row of `astar.csv`.
#[derive(Debug, Serialize)]
struct EffortRow {
    distance: usize,
    states: usize,
    heuristic: &'static str,
    mean_nodes: Option<String>,
    max_nodes: Option<u64>,
}

/// Writes `heuristic,distance,value,states`: one row per non-empty cell of each joint
/// distribution, by heuristic, then distance, then value.
pub fn write_heuristics(atlas: &Atlas, out: impl Write) -> csv::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    for joint in &atlas.joints {
        for (distance, row) in joint.states.iter().enumerate() {
            for (value, &states) in row.iter().enumerate() {
                if states > 0 {
                    writer.serialize(JointRow {
                        heuristic: joint.kind.name(),
                        distance,
                        value,
                        states,
                    })?;
                }
            }
        }
    }
    writer.flush()?;
    Ok(())
}

/// Writes `distance,states,heuristic,mean_nodes,max_nodes`; the node columns are empty
/// where a sampled search exceeded the budget.
pub fn write_astar(atlas: &Atlas, out: impl Write) -> csv::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    for row in &atlas.effort.rows {
        writer.serialize(EffortRow {
            distance: row.distance,
            states: row.positions,
            heuristic: row.kind.name(),
            mean_nodes: row.nodes.map(|(mean, _)| format!("{mean:.2}")),
            max_nodes: row.nodes.map(|(_, max)| max),
        })?;
    }
    writer.flush()?;
    Ok(())
}

/// The `heuristics` object of `summary.json`: the figures of the report's table by name.
pub fn summary(atlas: &Atlas) -> Value {
    let mut map = Map::new();
    for joint in &atlas.joints {
        map.insert(
            joint.kind.name().into(),
            json!({
                "mean_value": round6(joint.mean_value()),
                "mean_distance": round6(joint.mean_distance()),
                "mean_ratio": round6(joint.mean_ratio()),
                "exact_share": round6(joint.exact_share()),
                "largest_gap": joint.worst.gap,
                "largest_gap_distance": joint.worst.distance,
                "largest_gap_value": joint.worst.value,
                "largest_gap_example": line(&joint.worst.tiles),
            }),
        );
    }
    Value::Object(map)
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn line(tiles: &[u8]) -> String {
    tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// The *Heuristics* section of `report.md`.
pub fn write_section(atlas: &Atlas, reachable: u64, cols: usize, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "## Heuristics\n")?;
    writeln!(
        w,
        "How good are the estimates A* searches with? Each one was computed on every one of the {} states and compared with its true distance (the joint distribution is in `heuristics.csv`). **hamming** counts the tiles off their goal cell, **manhattan** adds up each tile's rows and columns from its goal cell, **linear-conflict** adds to Manhattan two moves for each tile of a row (column) that sits in its goal row (column) outside a longest run already in goal order. No estimate exceeds the true distance anywhere: that is checked on every run, not assumed.\n",
        thousands(reachable)
    )?;
    writeln!(
        w,
        "| heuristic | mean value | mean distance | mean value / distance | exact | largest gap |\n|---|---:|---:|---:|---:|---:|"
    )?;
    for j in &atlas.joints {
        writeln!(
            w,
            "| {} | {:.4} | {:.4} | {:.4} | {:.2}% | {} |",
            j.kind.name(),
            j.mean_value(),
            j.mean_distance(),
            j.mean_ratio(),
            100.0 * j.exact_share(),
            j.worst.gap
        )?;
    }
    writeln!(
        w,
        "\n*mean value / distance* is taken over every state but the goal; *exact* is the share of states where the estimate equals the distance; the *largest gap* is distance minus estimate.\n"
    )?;
    for j in &atlas.joints {
        write_gap(j, cols, w)?;
    }
    writeln!(w, "![each estimate against the true distance](heuristics.png)\n")?;
    let [hamming, manhattan, conflict] = [0, 1, 2].map(|k| atlas.joints[k].mean_ratio());
    writeln!(
        w,
        "What it means for A*: with an admissible estimate A* must look at every state whose moves so far plus estimate stay below the solution's length, so every move an estimate falls short widens the search. On average Hamming sees {:.0}% of the true distance, Manhattan {:.0}% and linear conflicts {:.0}%; the search effort grows with the missing share, exponentially in the distance (measured below).\n",
        100.0 * hamming,
        100.0 * manhattan,
        100.0 * conflict,
    )?;
    writeln!(w, "### A* search effort\n")?;
    writeln!(
        w,
        "A* as the classic 8-puzzle programming assignment runs it (priority = moves + estimate, no closed set, never enqueueing the board of the dequeued node's previous search node) on up to 100 states per distance, sampled with a fixed seed (all of them where fewer). Counts are search nodes dequeued, the goal included. Ties among equal priorities go to the smaller estimate (more moves made), then to the node enqueued first; neighbours are enqueued blank up, down, left, right. A search stops after {} dequeued nodes: from the first distance where a sampled state needs more, that estimate's cells in `astar.csv` are empty.\n",
        thousands(BUDGET)
    )?;
    writeln!(w, "![A* effort by distance](astar.png)\n")?;
    writeln!(
        w,
        "| distance | states | hamming | manhattan | linear-conflict |\n|---:|---:|---:|---:|---:|"
    )?;
    for chunk in atlas.effort.rows.chunks(3) {
        let cell = |k: usize| {
            chunk
                .get(k)
                .and_then(|r| r.nodes)
                .map_or_else(|| "-".to_string(), |(mean, _)| format!("{mean:.1}"))
        };
        writeln!(
            w,
            "| {} | {} | {} | {} | {} |",
            chunk[0].distance,
            chunk[0].positions,
            cell(0),
            cell(1),
            cell(2)
        )?;
    }
    writeln!(w, "\nMean nodes dequeued; `-`: beyond the budget.\n")?;
    Ok(())
}

fn write_gap(j: &Joint, cols: usize, w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "**{}** falls short by {} moves at most: it estimates {} for this state, which is {} moves from the goal:\n",
        j.kind.name(),
        j.worst.gap,
        j.worst.value,
        j.worst.distance
    )?;
    writeln!(w, "```text\n{}\n```\n", draw_tiles(&j.worst.tiles, cols))
}
