//! A tiny seeded generator (SplitMix64) for the randomized tests of this game's modules: the
//! same seed gives the same boards on every machine, without a dependency. And the random
//! boards the engines' tests share ([`random_grid`]).

use super::MAX_CELLS;
use super::grid::{EMPTY, Grid, WALL};

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (the modulo bias is irrelevant here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of the items of `weights`, each drawn with probability proportional to its weight.
    pub fn pick<T: Copy>(&mut self, weights: &[(T, u64)]) -> T {
        let total: u64 = weights.iter().map(|w| w.1).sum();
        let mut pick = self.next() % total;
        for &(item, weight) in weights {
            if pick < weight {
                return item;
            }
            pick -= weight;
        }
        unreachable!("pick < total")
    }
}

/// A random board, not settled: one of `shapes` half the time, else any size up to
/// [`MAX_CELLS`] cells (at most 16 a side); `letters(rng)` letters, drawn after the shape;
/// random wall and block densities (dense boards give stacks and chains, walls give ledges).
pub fn random_grid(
    rng: &mut Rng,
    shapes: &[(usize, usize)],
    letters: impl FnOnce(&mut Rng) -> usize,
) -> Grid {
    const SIDE: usize = 16;
    let (rows, cols) = if rng.below(2) == 0 {
        shapes[rng.below(shapes.len())]
    } else {
        let rows = 1 + rng.below(SIDE);
        (rows, 1 + rng.below((MAX_CELLS / rows).min(SIDE)))
    };
    let letters = letters(rng);
    let wall_percent = [0, 5, 15, 30][rng.below(4)];
    let block_percent = [15, 35, 55, 80][rng.below(4)];
    let cells = (0..rows * cols)
        .map(|_| {
            let roll = rng.below(100);
            if roll < wall_percent {
                WALL
            } else if roll < wall_percent + block_percent {
                b'A' + rng.below(letters) as u8
            } else {
                EMPTY
            }
        })
        .collect();
    Grid::new(rows, cols, cells)
}
