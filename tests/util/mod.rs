//! Helpers shared by the integration tests.
//!
//! The reference searches here are deliberately plain: explicit boards and coin vectors in
//! hash maps, a queue, and each puzzle's rules written out again from its published
//! description. They share nothing with the library's ranking or engine, so when the two
//! agree it is evidence rather than the same code run twice.
//!
//! - [`run`]: the one way to start the binary ([`Sandbox`]), and reading what it wrote.
//! - [`sliding`], [`coins`], [`perm`]: the reference models and searches of the puzzles.
//! - [`engine`]: the library's engine seen through small helpers, and several
//!   thread-processes sharing one search.
//! - [`Rng`]: the one random generator; [`A089473`]: the 8-puzzle's published table.

pub mod coins;
pub mod engine;
pub mod perm;
pub mod run;
pub mod sliding;

pub use coins::*;
pub use engine::*;
pub use perm::*;
pub use run::*;
pub use sliding::*;

/// OEIS A089473: the 8-puzzle, states at each distance from `1 2 3 / 4 5 6 / 7 8 0`.
pub const A089473: [u64; 32] = [
    1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878, 16993, 17110,
    23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
];

/// A small deterministic generator (xorshift64), so samples are the same on every run and
/// failures reproduce. Seeded with any non-zero value: `Rng(7)`.
pub struct Rng(pub u64);

impl Rng {
    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    /// The tiles `0..cells` in a random order (Fisher-Yates): a board of either class.
    pub fn board(&mut self, cells: usize) -> Vec<u8> {
        let mut tiles: Vec<u8> = (0..cells as u8).collect();
        for i in (1..cells).rev() {
            tiles.swap(i, self.below(i as u64 + 1) as usize);
        }
        tiles
    }
}
