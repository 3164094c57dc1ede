//! Which projections make the estimate, chosen to fit a memory budget.
//!
//! Each set that the moves change gets a share of the budget, the smallest sets first
//! (what they leave passes on to the next): a set whose whole table fits its share is
//! kept whole (the 3x3x3's corners); otherwise as many of its pieces as fit are told
//! apart, the others made identical, and further groups of at most that many cover the
//! rest while the share lasts (the 3x3x3's edges: 7 in one table, the other 5 with one more
//! in a second). Larger tables prune more: time times table size stays about constant for
//! the dedicated 3x3x3 solvers.

use super::projection::{Projection, table_bytes};
use crate::puzzle::perm::structure::Structure;
use crate::puzzle::perm::{Definition, Metric};

/// A projection chosen, with its ranks and table bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The projection.
    pub projection: Projection,
    /// Its rank space.
    pub ranks: u64,
    /// Bytes of its table.
    pub bytes: u64,
}

/// The projections of `def` under `metric` whose tables fit `budget` bytes together.
pub fn choose(def: &Definition, metric: Metric, s: &Structure, budget: u64) -> Vec<Choice> {
    let moved: Vec<usize> = (0..def.sets.len())
        .filter(|&set| {
            let offset = s.layout.offset[set];
            (offset..offset + def.sets[set].size).any(|p| !s.still.contains(&p))
        })
        .collect();
    let mut sized: Vec<(usize, Option<u64>)> = moved
        .iter()
        .map(|&set| (set, Projection::whole(set).ranks(def, metric)))
        .collect();
    sized.sort_by_key(|&(set, ranks)| (ranks.unwrap_or(u64::MAX), set));
    let mut chosen = Vec::new();
    let mut left = budget;
    for (i, &(set, ranks)) in sized.iter().enumerate() {
        let share = left / (sized.len() - i) as u64;
        let whole = ranks.and_then(table_bytes).filter(|&(bytes, _)| bytes <= share);
        let picked = match (whole, ranks) {
            (Some((bytes, _)), Some(ranks)) => vec![Choice {
                projection: Projection::whole(set),
                ranks,
                bytes,
            }],
            _ => groups(def, metric, set, share),
        };
        left -= picked.iter().map(|c| c.bytes).sum::<u64>();
        chosen.extend(picked);
    }
    chosen
}

/// Groups of pieces of `set` told apart, each table within what is left of `share`: the
/// largest group first, then groups covering the pieces not yet told apart (filled up with
/// the first pieces), until all are covered or nothing more fits.
fn groups(def: &Definition, metric: Metric, set: usize, share: u64) -> Vec<Choice> {
    let mut labels: Vec<u8> = def.solved.pieces[set].clone();
    labels.sort_unstable();
    labels.dedup();
    // Tables of k pieces told apart: a group's size only depends on k (its pieces' counts
    // and orientations aside, which the first k stand for).
    let sizes: Vec<Option<(u64, u64)>> = (0..labels.len())
        .map(|k| {
            let ranks = Projection::pieces(set, labels[..k].to_vec()).ranks(def, metric)?;
            Some((ranks, table_bytes(ranks)?.0))
        })
        .collect();
    let largest = |room: u64| {
        (1..labels.len())
            .rev()
            .find(|&k| sizes[k].is_some_and(|(_, b)| b <= room))
    };
    let mut chosen: Vec<Choice> = Vec::new();
    let mut covered = 0;
    let mut left = share;
    while covered < labels.len() {
        let Some(k) = largest(left) else { break };
        let Some((ranks, bytes)) = sizes[k] else { break };
        let mut group: Vec<u8> = labels[covered..labels.len().min(covered + k)].to_vec();
        let fill = k - group.len();
        group.extend(&labels[..fill]);
        group.sort_unstable();
        covered += k - fill;
        left -= bytes;
        chosen.push(Choice {
            projection: Projection::pieces(set, group),
            ranks,
            bytes,
        });
    }
    chosen
}
