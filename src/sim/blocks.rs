//! Which blocks a process runs (`Shard`) and which it has finished (`BlockSet`).

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One of `count` equal shares of a run: shard `index` (from 0) runs a contiguous range of the
/// blocks, so `count` processes together run every block exactly once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u64,
    /// How many shards the run is cut into.
    pub count: u64,
}

impl Shard {
    /// The whole run as a single shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// The blocks of shard `index` among `blocks`: `[blocks * index / count, blocks * (index +
    /// 1) / count)`, so shard sizes differ by at most one block.
    pub fn blocks(&self, blocks: u64) -> Range<u64> {
        let cut = |i: u64| (u128::from(blocks) * u128::from(i) / u128::from(self.count)) as u64;
        cut(self.index)..cut(self.index + 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why a shard (`I/N`) was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ShardError {
    /// Not two whole numbers separated by `/`.
    #[error("'{text}' is not a shard: use I/N with I from 0 to N-1, e.g. 0/4")]
    Syntax {
        /// The shard as written.
        text: String,
    },
    /// `N` is 0.
    #[error("'{text}' is not a shard: N must be at least 1")]
    NoShards {
        /// The shard as written.
        text: String,
    },
    /// `I` is not below `N`.
    #[error("'{text}' is not a shard: shards of {count} are numbered 0 to {}", .count - 1)]
    OutOfRange {
        /// The shard as written.
        text: String,
        /// `N`.
        count: u64,
    },
}

impl FromStr for Shard {
    type Err = ShardError;

    /// Parses `I/N` with `0 <= I < N`.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let usage = || ShardError::Syntax {
            text: text.to_string(),
        };
        let (index, count) = text.trim().split_once('/').ok_or_else(usage)?;
        let index: u64 = index.trim().parse().map_err(|_| usage())?;
        let count: u64 = count.trim().parse().map_err(|_| usage())?;
        if count == 0 {
            return Err(ShardError::NoShards {
                text: text.to_string(),
            });
        }
        if index >= count {
            return Err(ShardError::OutOfRange {
                text: text.to_string(),
                count,
            });
        }
        Ok(Shard { index, count })
    }
}

/// A set of block indices, kept as sorted, disjoint, non-adjacent half-open ranges (blocks
/// finish roughly in order, so there are few ranges). Serialised as `[[start, end], ...]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<[u64; 2]>", into = "Vec<[u64; 2]>")]
pub struct BlockSet {
    ranges: Vec<Range<u64>>,
}

impl BlockSet {
    /// No blocks.
    pub fn new() -> BlockSet {
        BlockSet::default()
    }

    /// Adds block `k` (no change if it is already in).
    pub fn insert(&mut self, k: u64) {
        // The first range that ends at or after k (it may touch or hold k).
        let i = self.ranges.partition_point(|r| r.end < k);
        match self.ranges.get_mut(i) {
            Some(r) if r.contains(&k) => {}
            Some(r) if r.end == k => {
                r.end = k + 1;
                // Now it may touch the next range.
                if self.ranges.get(i + 1).is_some_and(|n| n.start == k + 1) {
                    let next = self.ranges.remove(i + 1);
                    self.ranges[i].end = next.end;
                }
            }
            Some(r) if r.start == k + 1 => r.start = k,
            _ => self.ranges.insert(i, k..k + 1),
        }
    }

    /// Whether block `k` is in.
    pub fn contains(&self, k: u64) -> bool {
        let i = self.ranges.partition_point(|r| r.end <= k);
        self.ranges.get(i).is_some_and(|r| r.contains(&k))
    }

    /// How many blocks are in.
    pub fn len(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether no block is in.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The ranges, in order.
    pub fn ranges(&self) -> &[Range<u64>] {
        &self.ranges
    }

    /// Whether the set is exactly `range` (every block of it, nothing else).
    pub fn is_exactly(&self, range: &Range<u64>) -> bool {
        if range.is_empty() {
            return self.is_empty();
        }
        self.ranges == [range.clone()]
    }

    /// The blocks of `range` not in the set, as sorted disjoint ranges (at most one more than
    /// the set has): what a resumed run has left to do, without enumerating the blocks.
    pub fn gaps(&self, range: &Range<u64>) -> Vec<Range<u64>> {
        let mut gaps = Vec::new();
        let mut next = range.start;
        for r in &self.ranges {
            if r.start >= range.end {
                break;
            }
            if r.start > next {
                gaps.push(next..r.start);
            }
            next = next.max(r.end);
        }
        if next < range.end {
            gaps.push(next..range.end);
        }
        gaps
    }

    /// Whether every block in the set lies in `range`.
    pub fn within(&self, range: &Range<u64>) -> bool {
        self.ranges
            .iter()
            .all(|r| r.start >= range.start && r.end <= range.end)
    }
}

/// Why a list of block ranges (read from a file) is not a [`BlockSet`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BlockRangeError {
    /// A range with no blocks, or its end before its start.
    #[error("block range [{start}, {end}] is empty or reversed")]
    Empty {
        /// Its first block.
        start: u64,
        /// Its end (exclusive).
        end: u64,
    },
    /// A range not strictly after the one before, with a gap.
    #[error("block range [{start}, {end}] overlaps, touches or precedes the one before")]
    OutOfOrder {
        /// Its first block.
        start: u64,
        /// Its end (exclusive).
        end: u64,
    },
}

impl TryFrom<Vec<[u64; 2]>> for BlockSet {
    type Error = BlockRangeError;

    fn try_from(pairs: Vec<[u64; 2]>) -> Result<BlockSet, BlockRangeError> {
        let mut ranges: Vec<Range<u64>> = Vec::with_capacity(pairs.len());
        for [start, end] in pairs {
            if start >= end {
                return Err(BlockRangeError::Empty { start, end });
            }
            if ranges.last().is_some_and(|last| last.end >= start) {
                return Err(BlockRangeError::OutOfOrder { start, end });
            }
            ranges.push(start..end);
        }
        Ok(BlockSet { ranges })
    }
}

impl From<BlockSet> for Vec<[u64; 2]> {
    fn from(set: BlockSet) -> Vec<[u64; 2]> {
        set.ranges.iter().map(|r| [r.start, r.end]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn shards_cover_every_block_once() {
        for blocks in [0, 1, 3, 10, 977] {
            for count in 1..=12 {
                let mut next = 0;
                for index in 0..count {
                    let r = Shard { index, count }.blocks(blocks);
                    assert_eq!(r.start, next);
                    next = r.end;
                }
                assert_eq!(next, blocks);
            }
        }
    }

    #[test]
    fn shard_specs() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(" 0 / 1 ".parse(), Ok(Shard::WHOLE));
        for bad in ["4/4", "1/0", "-1/4", "1", "a/b", "1/4/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn block_set_matches_a_plain_set(ks in proptest::collection::vec(0u64..64, 0..80)) {
            let mut set = BlockSet::new();
            let mut plain = std::collections::BTreeSet::new();
            for &k in &ks {
                set.insert(k);
                plain.insert(k);
            }
            prop_assert_eq!(set.len(), plain.len() as u64);
            for range in [0..70, 5..40, 63..64, 20..20] {
                let missing: Vec<u64> = set.gaps(&range).into_iter().flatten().collect();
                let expected: Vec<u64> = range.filter(|k| !plain.contains(k)).collect();
                prop_assert_eq!(missing, expected);
            }
            for k in 0..70 {
                prop_assert_eq!(set.contains(k), plain.contains(&k));
            }
            // Normalised: the serialised form parses back to the same set.
            let pairs: Vec<[u64; 2]> = set.clone().into();
            prop_assert_eq!(BlockSet::try_from(pairs).unwrap(), set.clone());
        }
    }
}
