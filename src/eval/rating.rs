//! A hand's Misère prospects, rated by a model fitted to played Misères.
//!
//! How often a Misère is made depends on the play as much as on the cards: under `expert` play
//! at six players a hand with an ace makes it more often than its low-card count suggests,
//! because the defence does not always find the lead that beats it. So the rating is fitted
//! rather than reasoned: each suit the hand holds contributes by its length (one card, or two
//! and more) and its top two cards ([`FEATURES`] in all), and the contributions add up to the
//! chance of making the Misère (a linear probability model, least squares over made = 1 and
//! lost = 0, fitted to Misères played from random deals). `napsim optimize --by classes-rated`
//! fits one on its own deals and play before its first round; the strategy file keeps it.

use serde::{Deserialize, Serialize};

use crate::cards::{CardSet, Suit};

/// Features of a hand: 13 singleton suits by their card, then 78 suits of two or more cards by
/// their top two cards.
pub const FEATURES: usize = 13 + 78;

/// Weights of a rating: one per feature, then the constant.
pub const WEIGHTS: usize = FEATURES + 1;

/// Rating bands a class tells apart: tenths of the chance of making the Misère.
pub const BANDS: u64 = 10;

/// The ridge penalty of the fit, in hands: it keeps a feature that no played hand had at 0
/// and barely moves one that thousands had.
const RIDGE: f64 = 1.0;

/// The features of `hand`: one per suit it holds (at most four, `count` of them).
pub fn features(hand: CardSet) -> ([usize; 4], usize) {
    let mut out = [0; 4];
    let mut count = 0;
    for suit in Suit::ALL {
        let lane = hand.lane(suit);
        if lane == 0 {
            continue;
        }
        // Rank values 2..=14 are the lane's bits.
        let top = 15 - lane.leading_zeros() as usize;
        let rest = lane & !(1 << top);
        out[count] = if rest == 0 {
            top - 2
        } else {
            let second = 15 - rest.leading_zeros() as usize;
            13 + (top - 2) * (top - 3) / 2 + (second - 2)
        };
        count += 1;
    }
    (out, count)
}

/// A fitted rating: the chance of making a Misère from a hand's suits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MisereRating {
    /// The Misères it was fitted to.
    pub hands: u64,
    /// How many of them were made.
    pub made: u64,
    /// [`WEIGHTS`] weights: each feature's, then the constant.
    pub weights: Vec<f64>,
}

impl MisereRating {
    /// The rated chance of making a Misère with `hand`, between 0 and 1.
    pub fn rate(&self, hand: CardSet) -> f64 {
        let (mut features, count) = features(hand);
        // Summed in feature order, so that renaming the suits gives the same bits.
        features[..count].sort_unstable();
        let sum: f64 = features[..count].iter().map(|&f| self.weights[f]).sum();
        (sum + self.weights[FEATURES]).clamp(0.0, 1.0)
    }

    /// The band of `hand`'s rating: 0 for under 10%, up to [`BANDS`] - 1 for 90% or more.
    pub fn band(&self, hand: CardSet) -> u64 {
        ((self.rate(hand) * BANDS as f64) as u64).min(BANDS - 1)
    }

    /// Checks a rating read from a file.
    pub fn check(&self) -> Result<(), String> {
        if self.weights.len() != WEIGHTS {
            return Err(format!(
                "the misère rating needs {WEIGHTS} weights, not {}",
                self.weights.len()
            ));
        }
        if self.weights.iter().any(|w| !w.is_finite()) {
            return Err("the misère rating's weights must be finite numbers".into());
        }
        Ok(())
    }
}

/// The sums a rating is fitted from: per pair of features how many hands had both, per feature
/// how many made their Misère. Integers, so shards add up exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingTally {
    /// Misères played.
    pub hands: u64,
    /// Misères made.
    pub made: u64,
    /// The upper triangle of the features' co-occurrence counts, row by row
    /// ([`WEIGHTS`] × [`WEIGHTS`], the constant last); empty until a hand is added.
    pub pairs: Vec<u64>,
    /// Per feature (the constant last), the made Misères of the hands that had it.
    pub made_by: Vec<u64>,
}

/// The index of the pair `(i, j)`, `i <= j`, in [`RatingTally::pairs`].
fn pair_index(i: usize, j: usize) -> usize {
    i * WEIGHTS - i * (i + 1) / 2 + j
}

impl RatingTally {
    /// Whether no Misère was added (then the tally is left out of files).
    pub fn is_empty(&self) -> bool {
        self.hands == 0
    }

    /// Adds a Misère played with `hand`, `made` or not.
    pub fn add(&mut self, hand: CardSet, made: bool) {
        if self.pairs.is_empty() {
            self.pairs = vec![0; WEIGHTS * (WEIGHTS + 1) / 2];
            self.made_by = vec![0; WEIGHTS];
        }
        let (mut features, count) = features(hand);
        features[..count].sort_unstable();
        let mut active = [FEATURES; 5];
        active[..count].copy_from_slice(&features[..count]);
        let active = &active[..=count];
        // Two suits may share a feature (two singleton deuces): every ordered pair counts, so
        // a feature held twice adds 4 to its own square.
        for &i in active {
            for &j in active.iter().filter(|&&j| j >= i) {
                self.pairs[pair_index(i, j)] += 1;
            }
            self.made_by[i] += u64::from(made);
        }
        self.hands += 1;
        self.made += u64::from(made);
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &RatingTally) {
        if other.is_empty() {
            return;
        }
        if self.is_empty() {
            *self = other.clone();
            return;
        }
        for (ours, theirs) in self.pairs.iter_mut().zip(&other.pairs) {
            *ours += theirs;
        }
        for (ours, theirs) in self.made_by.iter_mut().zip(&other.made_by) {
            *ours += theirs;
        }
        self.hands += other.hands;
        self.made += other.made;
    }

    /// Whether the counts are consistent (read from a checkpoint or a shard).
    pub fn is_consistent(&self) -> bool {
        self.is_empty()
            || (self.pairs.len() == WEIGHTS * (WEIGHTS + 1) / 2
                && self.made_by.len() == WEIGHTS
                && self.pairs[pair_index(FEATURES, FEATURES)] == self.hands
                && self.made_by[FEATURES] == self.made
                && self.made <= self.hands)
    }

    /// The least-squares rating (the constant unpenalised, every feature by [`RIDGE`]).
    pub fn fit(&self) -> MisereRating {
        let mut matrix = vec![0.0; WEIGHTS * WEIGHTS];
        let mut rhs = vec![0.0; WEIGHTS];
        if !self.is_empty() {
            for i in 0..WEIGHTS {
                for j in i..WEIGHTS {
                    let count = self.pairs[pair_index(i, j)] as f64;
                    matrix[i * WEIGHTS + j] = count;
                    matrix[j * WEIGHTS + i] = count;
                }
                rhs[i] = self.made_by[i] as f64;
            }
        }
        for i in 0..WEIGHTS {
            matrix[i * WEIGHTS + i] += if i == FEATURES { 1e-9 } else { RIDGE };
        }
        MisereRating {
            hands: self.hands,
            made: self.made,
            weights: solve_symmetric(matrix, rhs),
        }
    }
}

/// Solves `matrix · x = rhs` for a symmetric positive definite `matrix` (row-major, n × n) by
/// Cholesky's method: the same operations in the same order every time.
fn solve_symmetric(mut matrix: Vec<f64>, mut rhs: Vec<f64>) -> Vec<f64> {
    let n = rhs.len();
    // Factor in place: the lower triangle becomes L with L·Lᵀ = matrix.
    for j in 0..n {
        let mut diagonal = matrix[j * n + j];
        for k in 0..j {
            diagonal -= matrix[j * n + k] * matrix[j * n + k];
        }
        let diagonal = diagonal.max(f64::MIN_POSITIVE).sqrt();
        matrix[j * n + j] = diagonal;
        for i in j + 1..n {
            let mut value = matrix[i * n + j];
            for k in 0..j {
                value -= matrix[i * n + k] * matrix[j * n + k];
            }
            matrix[i * n + j] = value / diagonal;
        }
    }
    // L·y = rhs, then Lᵀ·x = y.
    for i in 0..n {
        for k in 0..i {
            rhs[i] -= matrix[i * n + k] * rhs[k];
        }
        rhs[i] /= matrix[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            rhs[i] -= matrix[k * n + i] * rhs[k];
        }
        rhs[i] /= matrix[i * n + i];
    }
    rhs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_hand;
    use crate::rng::{base_rng, below, next_u64};

    fn hand(text: &str) -> CardSet {
        parse_hand(text, 5).unwrap()
    }

    #[test]
    fn features_are_a_suits_length_and_top_two_cards() {
        let (f, n) = features(hand("2S AH 3D KD 9D"));
        let mut f = f[..n].to_vec();
        f.sort();
        // 2 alone, A alone, K over 9 (the 3 below them does not count).
        assert_eq!(f, vec![0, 12, 13 + 11 * 10 / 2 + 7]);
        // Every feature number is below FEATURES, the largest being A over K.
        let (f, n) = features(hand("AS KS 2H 3H 4H"));
        assert_eq!(f[..n].iter().max(), Some(&(FEATURES - 1)));
        // Renaming the suits keeps the features.
        let mut a = features(hand("AS KS 9S 7H 2C")).0;
        let mut b = features(hand("AD KD 9D 7C 2S")).0;
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }

    #[test]
    fn the_fit_recovers_a_rating_that_made_the_outcomes() {
        // Outcomes drawn from a known additive chance: 0.9 less 0.02 per singleton's rank
        // above 2, less 0.2 for a suit of two or more headed by an ace (never below 0).
        let truth = |h: CardSet| {
            let mut p = 0.9;
            for s in Suit::ALL {
                let lane = h.lane(s);
                if lane.count_ones() == 1 {
                    p -= 0.02 * f64::from(lane.trailing_zeros() - 2);
                } else if lane.count_ones() > 1 && lane & (1 << 14) != 0 {
                    p -= 0.2;
                }
            }
            p.clamp(0.0, 1.0)
        };
        let mut rng = base_rng(5);
        let mut tally = RatingTally::default();
        let mut halves = [RatingTally::default(), RatingTally::default()];
        let deck: Vec<_> = CardSet::FULL.into_iter().collect();
        for n in 0..200_000 {
            let mut h = CardSet::EMPTY;
            while h.count() < 5 {
                h |= deck[below(&mut rng, deck.len() as u64) as usize].set();
            }
            let made = ((next_u64(&mut rng) >> 11) as f64 / (1u64 << 53) as f64) < truth(h);
            tally.add(h, made);
            halves[n % 2].add(h, made);
        }
        assert!(tally.is_consistent());
        let mut merged = halves[0].clone();
        merged.merge(&halves[1]);
        assert_eq!(merged, tally);
        let rating = tally.fit();
        for text in [
            "2S 3S 4H 5H 2D",
            "AS KS 2H 3D 4C",
            "7S 8H 9D TC 2C",
            "AS 2S AH 2H 5C",
        ] {
            let h = hand(text);
            assert!(
                (rating.rate(h) - truth(h)).abs() < 0.03,
                "{text}: {} against {}",
                rating.rate(h),
                truth(h)
            );
        }
        assert!(rating.band(hand("2S 3S 4H 5H 2D")) >= 8);
        assert!(rating.band(hand("AS KS AH QH 5C")) <= 5);
        // The same counts give the same weights, bit for bit.
        assert_eq!(merged.fit(), rating);
    }

    #[test]
    fn a_rating_with_the_wrong_weights_is_refused() {
        let mut r = RatingTally::default().fit();
        assert!(r.check().is_ok());
        r.weights.pop();
        assert!(r.check().is_err());
    }
}
