//! The registry: every puzzle family, once. Adding a family is its own file in
//! [`crate::puzzle`] (its puzzle and its [`crate::puzzle::family::Family`]) plus one line
//! here.

use crate::job::{AnyFamily, Job};
use crate::puzzle::{coin_lines, flip_k, lights_out, nine_tails, perm, rules, sliding};

/// Every family, in `--list` and `--all` order.
pub static FAMILIES: &[&dyn AnyFamily] = &[
    &sliding::EightFamily,
    &sliding::SlidingFamily,
    &nine_tails::NINE_TAILS,
    &nine_tails::WEIGHTED_NINE_TAILS,
    &lights_out::LIGHTS_OUT,
    &coin_lines::CoinLinesFamily,
    &flip_k::FlipKFamily,
    &rules::RulesFamily,
    &perm::family::PermFamily,
];

/// The family whose kind of file `path` is: the one claiming its extension, else the first
/// that recognises its first line (see [`Family::recognises`](crate::puzzle::family::Family)).
pub fn for_file(path: &std::path::Path, text: &str) -> Option<&'static dyn AnyFamily> {
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let first = crate::puzzle::family::first_line(text);
    FAMILIES
        .iter()
        .find(|f| extension.as_deref().is_some_and(|e| f.extensions().contains(&e)))
        .or_else(|| FAMILIES.iter().find(|f| first.is_some_and(|l| f.recognises(l))))
        .copied()
}

/// The families `--puzzle` takes, by name.
pub fn names() -> Vec<&'static str> {
    FAMILIES
        .iter()
        .filter(|f| f.about().is_some())
        .map(|f| f.name())
        .collect()
}

/// The family `--puzzle NAME` names.
pub fn by_name(name: &str) -> Option<&'static dyn AnyFamily> {
    FAMILIES
        .iter()
        .copied()
        .find(|f| f.about().is_some() && f.name() == name)
}

/// The default sizes and a few instructive generalisations, for `--all`.
pub fn all() -> Vec<Job> {
    FAMILIES.iter().flat_map(|f| f.all()).collect()
}
