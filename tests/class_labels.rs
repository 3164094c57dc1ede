//! `report.md` explains how to read a coin board's class label (a GF(2) syndrome): the
//! pivot coins turned heads up, the label is what is left on the other coins, read row by
//! row, 1 for tails, and a class's example without a goal is that configuration. These
//! tests check the explanation against the classes the analysis produces.

use crate::util::{analysis, job};
use analyze::analysis::Analysis;
use analyze::report::markdown;

fn report(a: &Analysis) -> String {
    let mut page = Vec::new();
    markdown::write_report(a, &mut page).expect("report");
    String::from_utf8(page).expect("UTF-8")
}

#[test]
fn coin_reports_explain_their_class_labels_and_the_examples_spell_them() {
    for spec in [
        job("lights-out", &[("rows", 4), ("cols", 4)]),
        job("lights-out", &[("rows", 5), ("cols", 5)]),
        job("nine-tails", &[("rows", 4), ("cols", 4)]),
        job("coin-lines", &[("size", 3)]),
        job("coin-lines", &[("size", 4)]),
    ] {
        let a = analysis(spec.clone());
        let rank = a.gf2_rank.expect("coin boards have a rank") as usize;
        let coins = a.rows * a.cols;
        let page = report(&a);
        assert!(
            page.contains(&format!(
                "turn the {rank} pivot coins (one per independent move) heads up; the label is what is then left on the other {} coins",
                coins - rank
            )),
            "{spec}: no explanation of the class labels"
        );
        // The non-pivot coins, found from the examples alone: where the classes whose
        // label has a single 1 put their one tails.
        let mut free = Vec::new();
        for c in a
            .classes
            .iter()
            .filter(|c| !c.solvable && c.class.matches('1').count() == 1)
        {
            let tails: Vec<usize> = c.example.match_indices('T').map(|(i, _)| i).collect();
            assert_eq!(tails.len(), 1, "{spec}: class {} example {}", c.class, c.example);
            free.push((c.class.find('1').expect("a 1"), tails[0]));
        }
        free.sort_unstable();
        let free: Vec<usize> = free.into_iter().map(|(_, coin)| coin).collect();
        assert_eq!(free.len(), coins - rank, "{spec}: one class per non-pivot coin");
        assert!(free.windows(2).all(|w| w[0] < w[1]), "{spec}: label read row by row");
        for c in a.classes.iter().filter(|c| !c.solvable) {
            let spelled: String = free
                .iter()
                .map(|&i| if c.example.as_bytes()[i] == b'T' { '1' } else { '0' })
                .collect();
            assert_eq!(spelled, c.class, "{spec}: example {} spells another label", c.example);
            let pivot_tails = c
                .example
                .char_indices()
                .filter(|&(i, ch)| ch == 'T' && !free.contains(&i))
                .count();
            assert_eq!(pivot_tails, 0, "{spec}: example {} has a pivot coin tails", c.example);
        }
    }
}

#[test]
fn reports_without_syndromes_do_not_explain_them() {
    for spec in [
        job("eight", &[]),
        job("flip-k", &[("coins", 7), ("flip", 5)]),
        job("lights-out", &[("rows", 4), ("cols", 3)]),
    ] {
        let page = report(&analysis(spec.clone()));
        assert!(!page.contains("How to read a class label"), "{spec}");
    }
}
