//! The one random number generator of napsim and how its streams are derived.
//!
//! Every random draw flows from the user's seed through [`SimRng`] (xoshiro256++):
//!
//! - the *base* generator is `Xoshiro256PlusPlus::seed_from_u64(seed)` (SplitMix64 expansion);
//! - block `k` of a run deals from the base advanced by `k * 2^128` steps ([`block_streams`]);
//! - the policies of block `k` draw from that stream advanced by a further `2^192` steps, so the
//!   deals of a block do not depend on what the policies drew: two runs that differ only in
//!   their policies see the same cards.
//!
//! Streams `2^128` apart cannot overlap for fewer than `2^64` blocks of fewer than `2^128` draws.

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator used everywhere: xoshiro256++.
pub type SimRng = Xoshiro256PlusPlus;

/// The base generator for `seed`.
pub fn base_rng(seed: u64) -> SimRng {
    SimRng::seed_from_u64(seed)
}

/// The two streams of block `block`: one for dealing, one for the policies.
pub fn block_streams(seed: u64, block: u64) -> (SimRng, SimRng) {
    let mut deal = base_rng(seed);
    deal.jump_ce(block, 128);
    let mut policy = deal.clone();
    policy.long_jump();
    (deal, policy)
}

/// The deal streams of successive blocks, cheaply: [`block_streams`] for any block, but a block
/// that follows the one asked for last is reached by one `jump` (`2^128` steps, a few thousand
/// instructions) instead of the general `jump_ce` (which squares polynomials: about 750,000
/// instructions, 1.5% of a simulation at 2^16 deals a block). Both give the same state, so the
/// streams still depend only on the seed and the block.
#[derive(Clone, Debug)]
pub struct StreamCursor {
    seed: u64,
    /// The last block asked for and its deal stream.
    last: Option<(u64, SimRng)>,
}

impl StreamCursor {
    /// A cursor over the blocks of `seed`'s run.
    pub fn new(seed: u64) -> StreamCursor {
        StreamCursor { seed, last: None }
    }

    /// The two streams of block `block`, as [`block_streams`] gives them.
    pub fn streams(&mut self, block: u64) -> (SimRng, SimRng) {
        let deal = match self.last.take() {
            Some((prev, mut rng)) if prev + 1 == block => {
                rng.jump();
                rng
            }
            _ => block_streams(self.seed, block).0,
        };
        self.last = Some((block, deal.clone()));
        let mut policy = deal.clone();
        policy.long_jump();
        (deal, policy)
    }
}

/// A seed for a run given none, from the operating system's randomness (the caller says which
/// it was, so that the run can be repeated).
pub fn fresh_seed() -> u64 {
    rand::random::<u64>()
}

/// A uniform integer in `0..n` (`n > 0`), exact (Lemire's multiply-and-reject method).
#[inline]
pub fn below(rng: &mut SimRng, n: u64) -> u64 {
    debug_assert!(n > 0);
    let mut m = (rng.next_u64() as u128) * (n as u128);
    if (m as u64) < n {
        // Reject the few low products that would bias the result (-n mod n).
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = (rng.next_u64() as u128) * (n as u128);
        }
    }
    (m >> 64) as u64
}

/// A raw 64-bit draw.
#[inline]
pub fn next_u64(rng: &mut SimRng) -> u64 {
    rng.next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_depend_only_on_seed_and_block() {
        let (mut a, _) = block_streams(7, 3);
        let (mut b, _) = block_streams(7, 3);
        let (mut c, _) = block_streams(7, 4);
        let x = a.next_u64();
        assert_eq!(x, b.next_u64());
        assert_ne!(x, c.next_u64());
    }

    #[test]
    fn cursor_matches_block_streams() {
        let mut cursor = StreamCursor::new(11);
        for block in [0, 1, 2, 3, 7, 8, 5, 6, 100, 101] {
            let (mut a, mut b) = cursor.streams(block);
            let (mut c, mut d) = block_streams(11, block);
            assert_eq!(a.next_u64(), c.next_u64(), "deal stream of block {block}");
            assert_eq!(b.next_u64(), d.next_u64(), "policy stream of block {block}");
        }
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = base_rng(1);
        let mut seen = [0u32; 5];
        for _ in 0..10_000 {
            seen[below(&mut rng, 5) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 1800 && n < 2200), "{seen:?}");
    }
}
