//! Which projections make the estimate, chosen to fit a memory budget.
//!
//! First each set that the moves change gets a share of the budget, the smallest sets
//! first (what they leave passes on to the next): a set whose whole table fits its share is
//! kept whole (the 3x3x3's corners); otherwise as many of its pieces as fit are told
//! apart, the others made identical, and further groups of at most that many cover the
//! rest while the share lasts (the 3x3x3's edges: 7 in one table, the other 5 with one more
//! in a second); where not even one piece fits, the set's orientations alone (the
//! megaminx's 30 edges and 20 corners). Larger tables prune more: time times table size
//! stays about constant for the dedicated 3x3x3 solvers.
//!
//! Then what is left of the budget grows the tables ([`grow`]): a table takes one more
//! piece (or class of identical pieces) of a set it keeps, or of another set, joining
//! them (the octahedron's corners with some of its centres), the growth that gains the
//! most per byte first, while the grown table fits beside the others and its build (its
//! table and the search's planes, as large again) fits too. A grown projection keeps all
//! its old one told apart, so it estimates at least as much, and replaces it.

use super::projection::{Projection, View, table_bytes};
use crate::puzzle::perm::structure::Structure;
use crate::puzzle::perm::{Definition, Metric};
use std::collections::HashMap;

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

/// Whether a table of `bytes` is built within `room`: the build holds the table's codes
/// and the search's two bit planes, as large again (the 3x3x3's 324.8 MiB edge tables
/// peak at 650 MiB), beside the tables built before it.
fn builds_within(bytes: u64, room: u64) -> bool {
    bytes.checked_mul(2).is_some_and(|b| b <= room)
}

/// Whether tables of `sizes` bytes, built one after another, the largest first (as the
/// solver builds them), each fit within `budget` beside those built before
/// ([`builds_within`]). The largest first peaks lowest: its build (twice its bytes) comes
/// while nothing else is held, and each later one adds at most its own bytes twice to
/// fewer; the 3x3x3 at 4 GiB builds EDGES 1-7 (1.9 GiB, 3.8 GiB with its planes) first,
/// which smallest first would have built beside 346 MiB of others, past 4 GiB.
pub fn builds_fit(sizes: impl Iterator<Item = u64>, budget: u64) -> bool {
    let mut sizes: Vec<u64> = sizes.collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let mut built = 0u64;
    sizes.into_iter().all(|bytes| {
        let fits = builds_within(bytes, budget.saturating_sub(built));
        built = built.saturating_add(bytes);
        fits
    })
}

/// The projections of `def` under `metric` whose tables fit `budget` bytes together, each
/// built in turn beside those before it ([`builds_within`]).
pub fn choose(def: &Definition, metric: Metric, s: &Structure, budget: u64) -> Vec<Choice> {
    let moved: Vec<usize> = (0..def.sets.len())
        .filter(|&set| {
            let offset = s.layout.offset[set];
            (offset..offset + def.sets[set].size).any(|p| !s.still.contains(&p))
        })
        .collect();
    // Each table's build is checked where it is chosen; built one after another, the
    // largest first, the later ones are built beside those before: a choice whose builds
    // would pass the budget is made again within a tenth less.
    let mut within = budget;
    loop {
        let mut chosen = shares(def, metric, &moved, within);
        grow(def, metric, &moved, &mut chosen, within);
        if within == 0 || builds_fit(chosen.iter().map(|c| c.bytes), budget) {
            return chosen;
        }
        within -= within / 10 + 1;
    }
}

/// Each set of `moved` in its share of `budget`, the smallest sets first.
fn shares(def: &Definition, metric: Metric, moved: &[usize], budget: u64) -> Vec<Choice> {
    let mut sized: Vec<(usize, Option<u64>)> = moved
        .iter()
        .map(|&set| (set, Projection::whole(set).ranks(def, metric)))
        .collect();
    sized.sort_by_key(|&(set, ranks)| (ranks.unwrap_or(u64::MAX), set));
    let mut chosen = Vec::new();
    let mut left = budget;
    for (i, &(set, ranks)) in sized.iter().enumerate() {
        let share = left / (sized.len() - i) as u64;
        let whole = ranks
            .and_then(table_bytes)
            .filter(|&(bytes, _)| builds_within(bytes, share));
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

/// The distinct labels of `set`'s pieces, ascending.
fn labels(def: &Definition, set: usize) -> Vec<u8> {
    let mut labels: Vec<u8> = def.solved.pieces[set].clone();
    labels.sort_unstable();
    labels.dedup();
    labels
}

/// Groups of pieces of `set` told apart, each table within what is left of `share`: the
/// largest group first, then groups covering the pieces not yet told apart (filled up with
/// the first pieces), until all are covered or nothing more fits. Where no piece fits,
/// the set's orientations alone (no piece told apart), if they fit.
fn groups(def: &Definition, metric: Metric, set: usize, share: u64) -> Vec<Choice> {
    let labels = labels(def, set);
    // Tables of k pieces told apart: a group's size only depends on k (its pieces' counts
    // and orientations aside, which the first k stand for). They grow with k, so they are
    // found only up to the first that does not fit (30 look-ups on the megaminx's edges
    // would each find the structure of a projection).
    let mut sizes: Vec<Option<(u64, u64)>> = Vec::new();
    for k in 0..labels.len() {
        let ranks = Projection::pieces(set, labels[..k].to_vec()).ranks(def, metric);
        let size = ranks
            .and_then(|r| Some((r, table_bytes(r)?.0)))
            .filter(|&(_, b)| builds_within(b, share));
        if size.is_none() && k > 0 {
            break;
        }
        sizes.push(size);
    }
    let largest = |room: u64| {
        (1..sizes.len())
            .rev()
            .find(|&k| sizes[k].is_some_and(|(_, b)| builds_within(b, room)))
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
    match (chosen.is_empty(), sizes.first().copied().flatten()) {
        (true, Some((ranks, bytes))) if ranks > 1 => vec![Choice {
            projection: Projection::pieces(set, Vec::new()),
            ranks,
            bytes,
        }],
        _ => chosen,
    }
}

/// Grows the tables of `chosen` within `budget` ([the module's doc](self)): each step
/// takes, of every table's growths that fit, the one that gains the most of the log of its
/// ranks per byte added, until none fits. Tables another one's projection now contains
/// are dropped, freeing their bytes.
fn grow(def: &Definition, metric: Metric, moved: &[usize], chosen: &mut Vec<Choice>, budget: u64) {
    // A step sees mostly the growths the step before saw: each projection's structure is
    // found once.
    let mut known: HashMap<Projection, Option<u64>> = HashMap::new();
    loop {
        let mut best: Option<(f64, usize, Choice)> = None;
        for (i, old) in chosen.iter().enumerate() {
            for projection in growths(def, moved, &old.projection) {
                let ranks = *known
                    .entry(projection.clone())
                    .or_insert_with(|| projection.ranks(def, metric));
                let Some(ranks) = ranks else { continue };
                let Some((bytes, _)) = table_bytes(ranks) else { continue };
                // Every table built in turn, the grown one in its place.
                let sizes = chosen
                    .iter()
                    .enumerate()
                    .map(|(j, c)| if j == i { bytes } else { c.bytes });
                let fits = builds_fit(sizes, budget);
                if !fits || ranks <= old.ranks {
                    continue;
                }
                let gain = ((ranks as f64).ln() - (old.ranks.max(1) as f64).ln())
                    / (bytes.saturating_sub(old.bytes).max(1) as f64);
                if best.as_ref().is_none_or(|(g, _, _)| gain > *g) {
                    best = Some((
                        gain,
                        i,
                        Choice {
                            projection,
                            ranks,
                            bytes,
                        },
                    ));
                }
            }
        }
        let Some((_, i, grown)) = best else { return };
        chosen[i] = grown;
        let kept = chosen[i].projection.clone();
        let mut j = 0;
        chosen.retain(|c| {
            j += 1;
            j - 1 == i || !kept.contains(&c.projection)
        });
    }
}

/// The projections one step larger than `p`: one more label of a set it tells pieces of
/// apart (all of them: the set whole), or another moved set joined, whole, by its
/// orientations alone, or by one label. Only the first label not yet told apart is tried:
/// as in [`groups`], a table's size depends on how many labels it tells apart, not on
/// which (their counts and orientations aside), and trying each would find the structure
/// of dozens of projections a step.
fn growths(def: &Definition, moved: &[usize], p: &Projection) -> Vec<Projection> {
    let mut out = Vec::new();
    let with = |set: usize, view: View| {
        let mut sets: Vec<(usize, View)> = p.sets.iter().filter(|(s, _)| *s != set).cloned().collect();
        sets.push((set, view));
        sets.sort_by_key(|(s, _)| *s);
        Projection { sets }
    };
    for &set in moved {
        let labels = labels(def, set);
        match p.sets.iter().find(|(s, _)| *s == set) {
            Some((_, View::Whole)) => {}
            Some((_, View::Pieces(kept))) => {
                if let Some(&l) = labels.iter().find(|l| !kept.contains(l)) {
                    let mut more = kept.clone();
                    more.push(l);
                    more.sort_unstable();
                    let view = if more.len() == labels.len() {
                        View::Whole
                    } else {
                        View::Pieces(more)
                    };
                    out.push(with(set, view));
                }
            }
            None => {
                out.push(with(set, View::Whole));
                if labels.len() > 1 {
                    out.push(with(set, View::Pieces(Vec::new())));
                    out.push(with(set, View::Pieces(vec![labels[0]])));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::perm::parse_definition;

    /// The choice for an example at `budget`, as names and bytes.
    fn chosen(text: &str, budget: u64) -> Vec<(String, u64)> {
        let def = parse_definition(text).expect("the example parses");
        let s = Structure::for_reading(&def, Metric::Face).expect("its structure");
        (choose(&def, Metric::Face, &s, budget).into_iter())
            .map(|c| (c.projection.describe(&def, 1), c.bytes))
            .collect()
    }

    const CUBE: &str = include_str!("../../../examples/3x3x3.tws");
    const FTO: &str = include_str!("../../../examples/fto-corners-edges.tws");

    /// At 1 GiB the 3x3x3 keeps its choice: nothing grows past it within the memory.
    #[test]
    fn keeps_the_3x3x3s_choice_at_1_gib() {
        let names: Vec<String> = chosen(CUBE, 1 << 30).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["CORNERS", "EDGES 1-6", "EDGES 7-12"]);
    }

    /// At 4 GiB the 3x3x3 tells more edges apart than at 1 GiB (a table of more than 2^32
    /// ranks), and its largest table is larger.
    #[test]
    fn chooses_larger_3x3x3_tables_at_4_gib() {
        let largest = |budget: u64| chosen(CUBE, budget).into_iter().map(|(_, b)| b).max();
        let (small, large) = (largest(1 << 30), largest(4 << 30));
        assert!(large > small, "{large:?} at 4 GiB, {small:?} at 1 GiB");
        assert!(large.is_some_and(|b| b > (1 << 32) / 4), "{:?}", chosen(CUBE, 4 << 30));
    }

    /// Whatever the budget, the tables fit it together, and each, built in turn, has room
    /// for its build (its table and planes as large again) beside those built before it.
    #[test]
    fn the_choice_and_its_builds_stay_within_the_budget() {
        for text in [CUBE, FTO] {
            for budget in [
                64 << 10,
                1 << 20,
                5 << 20,
                48 << 20,
                512 << 20,
                1 << 30,
                4 << 30,
                16 << 30,
            ] {
                let choice = chosen(text, budget);
                let total: u64 = choice.iter().map(|(_, b)| b).sum();
                assert!(!choice.is_empty() && total <= budget, "{choice:?} past {budget}");
                // Built the largest first, as the solver does.
                let mut sizes: Vec<u64> = choice.iter().map(|(_, b)| *b).collect();
                sizes.sort_unstable_by(|a, b| b.cmp(a));
                let mut built = 0;
                for bytes in sizes {
                    assert!(built + 2 * bytes <= budget, "{bytes} of {choice:?} built past {budget}");
                    built += bytes;
                }
            }
        }
    }

    /// Memory left after each set's share grows the tables: on the octahedron's corners and
    /// edges at 5 MiB, a table joins the corners with edges told apart, more than the
    /// shares alone used.
    #[test]
    fn grows_tables_into_the_memory_left() {
        let def = parse_definition(FTO).expect("the example parses");
        let s = Structure::for_reading(&def, Metric::Face).expect("its structure");
        let moved = [0, 1];
        let shares: u64 = shares(&def, Metric::Face, &moved, 5 << 20)
            .iter()
            .map(|c| c.bytes)
            .sum();
        let choice = chosen(FTO, 5 << 20);
        let grown: u64 = choice.iter().map(|(_, b)| b).sum();
        assert!(grown > shares, "{choice:?}: {grown} bytes, the shares {shares}");
        assert!(choice.iter().any(|(name, _)| name.contains(" + ")), "{choice:?}");
        assert_eq!(choose(&def, Metric::Face, &s, 5 << 20).len(), choice.len());
    }
}
