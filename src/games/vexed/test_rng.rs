//! A tiny seeded generator (SplitMix64) for the randomized tests of this game's modules: the
//! same seed gives the same boards on every machine, without a dependency.

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
