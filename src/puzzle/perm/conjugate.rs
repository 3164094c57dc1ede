//! The lower coordinates' images under a class ranking's symmetries, as tables (Kociemba's
//! conjugation tables), so that a position's class index is a few look-ups a coordinate
//! rather than a pass over its pieces and a ranking.
//!
//! A set's arrangement is closed: its image under an element is a table's entry. A set's
//! twists are not: a symmetry turns a piece by its place and by its label, so the image of
//! the twists depends on the arrangement too. Per position the image's twist is the place's
//! part less the label's, so the image is the twists' image with the arrangement at zero
//! ([`Lower::image`]) plus, digit by digit modulo the orientations, what the arrangement
//! changes ([`Part`]): a table of sums over the halves of the twists' digits.
//!
//! The tables are built from images of positions and kept only if they index sampled ranks
//! as the pass over the pieces does (`classes.rs`).

/// Most lower coordinates the tables take (the digits are kept in an array).
pub const MAX_LOWER: usize = 8;

/// Most entries of all the tables together: 64 MiB of `u32`.
pub const MAX_ENTRIES: u64 = 1 << 24;

/// Most entries of one half's table of digit sums.
const MAX_HALF: u64 = 1 << 20;

/// Each lower coordinate's images under each element of the group (the identity first).
#[derive(Debug, Clone)]
pub struct Conjugation {
    /// The lower coordinates, fastest first.
    pub lower: Vec<Lower>,
}

/// One lower coordinate's images.
#[derive(Debug, Clone)]
pub struct Lower {
    /// Place value and values.
    pub stride: u64,
    pub size: u64,
    /// `image[e * size + d]`: value `d` under element `e` (for twists, with their
    /// arrangement at zero).
    pub image: Vec<u32>,
    /// What the arrangement adds to a twists' image.
    pub part: Part,
}

/// Where a twists' image finds its arrangement's part.
#[derive(Debug, Clone)]
pub enum Part {
    /// A closed coordinate (an arrangement, or twists whose pieces never move).
    None,
    /// The arrangement is lower coordinate `by`: `part[e * size_of_by + a]`.
    Lower { by: usize, part: Vec<u32>, digits: Digits },
    /// The arrangement is the highest coordinate: `part[v]` under the element taking `v`
    /// to its representative, then `part[values + j]` under the `j`-th stabilising element
    /// (of a representative's).
    Top { part: Vec<u32>, digits: Digits },
}

/// Sums of twists' ranks digit by digit modulo their orientations, in two tables of halves.
#[derive(Debug, Clone)]
pub struct Digits {
    o: u64,
    n: u32,
    /// The lower half's values, `o^(n / 2)`, and the upper's.
    low: u64,
    high: u64,
    sum_low: Vec<u32>,
    sum_high: Vec<u32>,
}

impl Digits {
    /// The sums of ranks of `size` values, `n` digits of `o` (`None` if `size` is not a power
    /// of `o`, as twists whose radix follows the pieces, or the halves' tables are too big).
    pub fn new(o: u8, size: u64) -> Option<Self> {
        let o = u64::from(o);
        if o < 2 {
            return None;
        }
        let mut n = 0u32;
        while o.checked_pow(n)? < size {
            n += 1;
        }
        if o.pow(n) != size {
            return None;
        }
        let (low, high) = (o.pow(n / 2), o.pow(n - n / 2));
        if high * high > MAX_HALF {
            return None;
        }
        let table = |m: u32, values: u64| {
            let mut t = Vec::with_capacity((values * values) as usize);
            for a in 0..values {
                for b in 0..values {
                    t.push(sum_slow(o, m, a, b) as u32);
                }
            }
            t
        };
        Some(Digits {
            o,
            n,
            low,
            high,
            sum_low: table(n / 2, low),
            sum_high: table(n - n / 2, high),
        })
    }

    /// `a` plus `b`, digit by digit.
    #[inline]
    pub fn add(&self, a: u32, b: u32) -> u32 {
        let (a, b) = (u64::from(a), u64::from(b));
        let lo = self.sum_low[((a % self.low) * self.low + b % self.low) as usize];
        let hi = self.sum_high[((a / self.low) * self.high + b / self.low) as usize];
        hi * self.low as u32 + lo
    }

    /// `a` less `b`, digit by digit (building only).
    pub fn sub(&self, a: u64, b: u64) -> u64 {
        let mut negated = 0;
        let (mut b, mut place) = (b, 1);
        for _ in 0..self.n {
            negated += (self.o - b % self.o) % self.o * place;
            b /= self.o;
            place *= self.o;
        }
        sum_slow(self.o, self.n, a, negated)
    }
}

/// `a` plus `b`, `n` digits of `o`, digit by digit.
fn sum_slow(o: u64, n: u32, mut a: u64, mut b: u64) -> u64 {
    let (mut sum, mut place) = (0, 1);
    for _ in 0..n {
        sum += (a % o + b % o) % o * place;
        a /= o;
        b /= o;
        place *= o;
    }
    sum
}

impl Conjugation {
    /// The lower digits `d` moved by element `e`, into `out`; `top` is the index of the
    /// highest coordinate's part ([`Part::Top`]) for this element.
    #[inline]
    pub fn moved(&self, e: usize, top: usize, d: &[u32; MAX_LOWER], out: &mut [u32; MAX_LOWER]) {
        for (i, c) in self.lower.iter().enumerate() {
            let image = c.image[e * c.size as usize + d[i] as usize];
            out[i] = match &c.part {
                Part::None => image,
                Part::Lower { by, part, digits } => {
                    let size = self.lower[*by].size as usize;
                    digits.add(image, part[e * size + d[*by] as usize])
                }
                Part::Top { part, digits } => digits.add(image, part[top]),
            };
        }
    }

    /// The lower digits of rank `full`.
    #[inline]
    pub fn digits(&self, full: u64) -> [u32; MAX_LOWER] {
        let mut d = [0u32; MAX_LOWER];
        for (slot, c) in d.iter_mut().zip(&self.lower) {
            *slot = (full / c.stride % c.size) as u32;
        }
        d
    }

    /// The rank part of lower digits `d`.
    #[inline]
    pub fn rank(&self, d: &[u32; MAX_LOWER]) -> u64 {
        self.lower.iter().zip(d).map(|(c, &x)| u64::from(x) * c.stride).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_add_and_subtract_each_digit_modulo_the_orientations() {
        let d = Digits::new(3, 2187).expect("seven digits of 3");
        for (a, b) in [(0u64, 0u64), (1, 2), (2186, 1), (1000, 1234), (728, 1458)] {
            let sum = u64::from(d.add(a as u32, b as u32));
            assert_eq!(sum, sum_slow(3, 7, a, b), "{a} + {b}");
            assert_eq!(d.sub(sum, b), a, "{sum} - {b}");
        }
        assert!(Digits::new(3, 100).is_none());
    }
}
