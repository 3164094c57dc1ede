//! Published distance tables the reports name: where a search's table of configurations by
//! distance equals an OEIS sequence, the report says which, with its link, so a reader can
//! compare. A table is recognised by its numbers, never by the puzzle's name, so a rules
//! or definition file of the same puzzle is named too, and one that only shares a name is
//! not.

/// An OEIS sequence of configurations by distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sequence {
    /// Its A-number, e.g. `A089473`.
    pub id: &'static str,
    /// What it counts, in a few words.
    pub name: &'static str,
    /// Its first terms, from distance 0 on (all of them where `length` equals their count).
    terms: &'static [u64],
    /// How many terms it has (the maximum distance + 1).
    length: usize,
    /// The sum of all its terms (the positions reachable).
    total: u64,
}

impl Sequence {
    /// The sequence's page.
    pub fn url(&self) -> String {
        format!("https://oeis.org/{}", self.id)
    }

    /// Whether `levels` (configurations at each distance) is this sequence: the same first
    /// terms, as many terms, and the same total.
    fn is(&self, levels: &[u64]) -> bool {
        levels.len() == self.length
            && levels.starts_with(self.terms)
            && levels.iter().map(|&n| u128::from(n)).sum::<u128>() == u128::from(self.total)
    }
}

/// The sequences known here: their terms as published (OEIS, shared/REFERENCES.md). The
/// tests find each one a search of the suite's size reaches in that search's table; a
/// larger one (3x4, 2x7, the cube's subgroups) is named only where a table agrees with
/// its published terms, length and total.
pub const KNOWN: &[Sequence] = &[
    Sequence {
        id: "A089473",
        name: "the 8-puzzle's states by distance from the goal with the blank in a corner",
        terms: &[
            1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878, 16993,
            17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
        ],
        length: 32,
        total: 181_440,
    },
    Sequence {
        id: "A089474",
        name: "the 8-puzzle's states by distance from the goal with the blank in the centre",
        terms: &[
            1, 4, 8, 8, 16, 32, 60, 72, 136, 200, 376, 512, 964, 1296, 2368, 3084, 5482, 6736, 11132, 12208, 18612,
            18444, 24968, 19632, 22289, 13600, 11842, 4340, 2398, 472, 148,
        ],
        length: 31,
        total: 181_440,
    },
    Sequence {
        id: "A090034",
        name: "the 3 x 2 sliding puzzle's states by distance (blank in a corner)",
        terms: &[
            1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1,
        ],
        length: 22,
        total: 360,
    },
    Sequence {
        id: "A090035",
        name: "the 4 x 2 sliding puzzle's states by distance (blank in a corner)",
        terms: &[
            1, 2, 3, 6, 10, 14, 19, 28, 42, 61, 85, 119, 161, 215, 293, 396, 506, 632, 788, 985, 1194, 1414, 1664,
            1884, 1999, 1958, 1770, 1463, 1076, 667, 361, 190, 88, 39, 19, 7, 1,
        ],
        length: 37,
        total: 20_160,
    },
    Sequence {
        id: "A090036",
        name: "the 5 x 2 sliding puzzle's states by distance (blank in a corner)",
        terms: &[
            1, 2, 3, 6, 11, 19, 30, 44, 68, 112, 176, 271, 411, 602, 851, 1232, 1783, 2530, 3567, 4996, 6838, 9279,
            12463, 16597, 21848, 28227, 35682, 44464, 54597, 65966, 78433, 91725, 104896, 116966, 126335, 131998,
            133107, 128720, 119332, 106335, 91545, 75742, 60119, 45840, 33422, 23223, 15140, 9094, 5073, 2605, 1224,
            528, 225, 75, 20, 2,
        ],
        length: 56,
        total: 1_814_400,
    },
    Sequence {
        id: "A090166",
        name: "the 4 x 3 sliding puzzle's states by distance (blank in a corner)",
        terms: &[
            1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215, 41802, 71167, 119888,
            198363, 323206, 515778, 811000, 1248011, 1885279, 2782396, 4009722, 5621354, 7647872, 10065800, 12760413,
            15570786, 18171606, 20299876, 21587248, 21841159, 20906905, 18899357, 16058335, 12772603, 9515217, 6583181,
            4242753, 2503873, 1350268, 643245, 270303, 92311, 27116, 5390, 1115, 86, 18,
        ],
        length: 54,
        total: 239_500_800,
    },
    Sequence {
        id: "A346736",
        name: "the 7 x 2 sliding puzzle's states by distance (blank in a corner)",
        terms: &[
            1, 2, 3, 6, 11, 20, 37, 67, 117, 198, 329, 557, 942, 1575, 2597, 4241, 6724, 10535, 16396, 25515, 39362,
            60532, 92089, 138969, 207274, 307725, 453000, 664240, 964874, 1392975, 1992353, 2832063, 3988528, 5586275,
            7756511, 10698721, 14621717, 19840724, 26676629,
        ],
        length: 109,
        total: 43_589_145_600,
    },
    Sequence {
        id: "A079761",
        name: "the pocket cube's states by distance, a half turn one move",
        terms: &[1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644],
        length: 12,
        total: 3_674_160,
    },
    Sequence {
        id: "A079762",
        name: "the pocket cube's states by distance in quarter turns",
        terms: &[
            1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
        ],
        length: 15,
        total: 3_674_160,
    },
    Sequence {
        id: "A080627",
        name: "the Rubik's cube's squares group <U2, D2, F2, B2, L2, R2> by distance",
        terms: &[
            1, 6, 27, 120, 519, 1932, 6484, 20310, 55034, 113892, 178495, 179196, 89728, 16176, 1488, 144,
        ],
        length: 16,
        total: 663_552,
    },
    Sequence {
        id: "A080628",
        name: "the Rubik's cube's group <U, R> by distance in quarter turns",
        terms: &[
            1, 4, 10, 24, 58, 140, 338, 816, 1970, 4756, 11448, 27448, 65260, 154192, 360692, 827540, 1851345, 3968840,
            7891990, 13659821, 18471682, 16586822, 8039455, 1511110, 47351, 87,
        ],
        length: 26,
        total: 73_483_200,
    },
];

/// The known sequence `levels` equals, if any.
pub fn find(levels: &[u64]) -> Option<&'static Sequence> {
    KNOWN.iter().find(|s| s.is(levels))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sequence_is_consistent() {
        for s in KNOWN {
            assert!(s.terms.len() <= s.length, "{}", s.id);
            let sum: u64 = s.terms.iter().sum();
            assert!(sum <= s.total, "{}", s.id);
            if s.terms.len() == s.length {
                assert_eq!(sum, s.total, "{}", s.id);
            }
            assert_eq!(find(s.terms).map(|f| f.id), (s.terms.len() == s.length).then_some(s.id));
        }
    }

    #[test]
    fn a_table_is_named_only_when_all_of_it_agrees() {
        let eight = find(KNOWN[0].terms).expect("the 8-puzzle");
        assert_eq!(eight.id, "A089473");
        assert_eq!(eight.url(), "https://oeis.org/A089473");
        let mut other = KNOWN[0].terms.to_vec();
        other[5] += 1;
        other[6] -= 1;
        assert_eq!(find(&other), None);
        assert_eq!(find(&KNOWN[0].terms[..31]), None);
        assert_eq!(find(&[]), None);
    }
}
