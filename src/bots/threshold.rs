//! `threshold[:BID=SCORE,...]`: bid from a hand-strength score with one threshold per bid.
//!
//! **Trick bids** use [`strength`], **misère** uses [`misere_strength`] (both documented in
//! [`crate::policy::strength`]).
//!
//! A seat calls the highest legal bid whose threshold its score reaches, and passes when there is
//! none. Parameters name the profile's bids (`threshold:three=9,nap=17`); the value `off` disables
//! a bid. The defaults ([`default_threshold`]: Three 11, Four 16, Nap 19, Wellington 19) come from
//! `examples/threshold_calibration.rs`: with heuristic play at four players under `heather-1875`,
//! each is the lowest score from which that bid has the best expected value of the ladder (Three
//! turns positive at 11, Four overtakes Three at 16, Nap needs a near-certain five tricks since it
//! pays only 5 against Four's 4).

use crate::cards::CardSet;
use crate::game::Call;
use crate::policy::strength::{best_five, misere_strength, strength};
use crate::policy::{BidPolicy, BidView, Spec, SpecError};
use crate::rng::SimRng;
use crate::rules::{BidId, BidKind, Profile};

/// The threshold bidder: per bid, the score needed (None: never bid it).
#[derive(Clone, Debug)]
pub struct Threshold {
    thresholds: Vec<Option<f64>>,
    /// The score from which the seat takes the spare hand, where the profile deals one.
    spare: Option<f64>,
}

/// The default threshold for bid `id` of `profile`, by the bid's name where it is a standard
/// one and by its tricks otherwise (later five-trick bids of a ladder need more).
pub fn default_threshold(profile: &Profile, id: BidId) -> Option<f64> {
    let bid = profile.bid(id);
    let by_name = match bid.name() {
        "two" => Some(8.0),
        "three" => Some(11.0),
        "four" => Some(16.0),
        "nap" => Some(19.0),
        "wellington" => Some(19.0),
        "blucher" => Some(21.0),
        "misere" => Some(12.0),
        _ => None,
    };
    by_name.or(match bid.kind() {
        BidKind::Misere => Some(12.0),
        BidKind::Tricks(n) => {
            // Each five-trick level above the first needs one point more (a bid with the
            // floater and the one without it are the same level); the strongest hand scores 21.
            let earlier_levels = profile
                .bid_ids()
                .take_while(|&b| b < id)
                .filter(|&b| {
                    let bid = profile.bid(b);
                    bid.kind() == BidKind::Tricks(5) && !bid.with_floater()
                })
                .count();
            let base = [0.0, 5.0, 8.0, 11.0, 16.0, 19.0][n as usize];
            let extra = if n == 5 { earlier_levels as f64 } else { 0.0 };
            Some((base + extra).min(21.0))
        }
    })
}

impl Threshold {
    /// Builds the policy from `threshold[:BID=SCORE,...]`.
    pub fn from_spec(spec: &Spec, profile: &Profile) -> Result<Threshold, SpecError> {
        let mut names: Vec<&str> = profile.bids().iter().map(|b| b.name()).collect();
        if profile.spare_hand().is_some() {
            names.push("spare");
        }
        spec.check_keys(&names)?;
        let mut thresholds: Vec<Option<f64>> = profile
            .bid_ids()
            .map(|id| default_threshold(profile, id))
            .collect();
        let mut spare = profile.spare_hand().map(|_| DEFAULT_SPARE);
        for (key, value) in &spec.params {
            let parsed = if value == "off" {
                None
            } else {
                Some(
                    value
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| SpecError::BadValue {
                            policy: "threshold".into(),
                            key: key.clone(),
                            value: value.clone(),
                            reason: "use a number (a hand-strength score) or 'off'".into(),
                        })?,
                )
            };
            match profile.bid_id(key) {
                Some(id) => thresholds[id.index()] = parsed,
                None => spare = parsed,
            }
        }
        Ok(Threshold { thresholds, spare })
    }

    /// The threshold of each bid, lowest bid first.
    pub fn thresholds(&self) -> &[Option<f64>] {
        &self.thresholds
    }
}

impl BidPolicy for Threshold {
    /// Buys when the hand has a suit worth building (two or more cards) and weak side cards:
    /// gives up every side card below a king, if the stock has enough left.
    fn purchase(&self, view: &BidView, _rng: &mut SimRng) -> CardSet {
        let hand = view.hand();
        let Some(trump) = strength(hand).1 else {
            return CardSet::EMPTY;
        };
        if hand.suit_len(trump) < 2 {
            return CardSet::EMPTY;
        }
        let weak: CardSet = (hand - CardSet::suit_mask(trump))
            .into_iter()
            .filter(|c| c.rank() < crate::cards::Rank::King)
            .collect();
        if weak.count() as usize <= view.stock_left() {
            weak
        } else {
            CardSet::EMPTY
        }
    }

    /// Looks at the floater when the hand is within reach of a bid (score 12 or more).
    fn peek(&self, view: &BidView, _rng: &mut SimRng) -> bool {
        strength(view.hand()).0 as f64 >= PEEK_FROM
    }

    fn take_spare(&self, view: &BidView, _rng: &mut SimRng) -> bool {
        self.spare
            .is_some_and(|needed| strength(view.hand()).0 as f64 >= needed)
    }

    fn call(&self, view: &BidView, _rng: &mut SimRng) -> Call {
        let profile = view.profile();
        let hand = view.hand();
        let (tricks_score, misere_score) = (strength(hand).0 as f64, misere_strength(hand) as f64);
        // With the floater: the best five of six if this seat has seen it, else a small bonus
        // for the exchange to come.
        let floater_score = match view.floater() {
            Some(card) => strength(best_five(hand.with(card))).0 as f64,
            None => tricks_score + FLOATER_BONUS,
        };
        for id in profile.bid_ids().rev() {
            let Some(needed) = self.thresholds[id.index()] else {
                continue;
            };
            let bid = profile.bid(id);
            let score = if bid.is_misere() {
                misere_score
            } else if bid.with_floater() {
                floater_score
            } else {
                tricks_score
            };
            if score >= needed && view.is_legal(Call::Bid(id)) {
                return Call::Bid(id);
            }
        }
        Call::Pass
    }
}

/// Peep Nap: the score from which the threshold bidder pays to look at the floater.
pub const PEEK_FROM: f64 = 12.0;
/// Peep Nap: what an unseen floater is taken to add to the score of a bid with the floater.
pub const FLOATER_BONUS: f64 = 1.0;

/// The default score from which the threshold bidder takes a spare hand (Sir Garnet).
pub const DEFAULT_SPARE: f64 = 14.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Suit, parse_cards};

    fn hand(text: &str) -> CardSet {
        parse_cards(text).unwrap().into_iter().collect()
    }

    #[test]
    fn best_five_matches_an_exhaustive_search() {
        let mut rng = crate::rng::base_rng(5);
        for _ in 0..300 {
            let mut ten = CardSet::EMPTY;
            while ten.count() < 10 {
                let index = crate::rng::below(&mut rng, 64) as u8;
                if let Some(card) = crate::cards::Card::try_from_index(index) {
                    ten.insert(card);
                }
            }
            let cards = ten.to_vec();
            let mut best = 0;
            for mask in 0u32..1 << 10 {
                if mask.count_ones() == 5 {
                    let five: CardSet = (0..10)
                        .filter(|i| mask & 1 << i != 0)
                        .map(|i| cards[i])
                        .collect();
                    best = best.max(strength(five).0);
                }
            }
            let chosen = best_five(ten);
            assert_eq!((chosen.count(), (chosen - ten).count()), (5, 0));
            assert_eq!(strength(chosen).0, best, "{ten:?}");
        }
    }

    #[test]
    fn documented_examples() {
        assert_eq!(strength(hand("AS KS QS JS 2S")), (20, Some(Suit::Spades)));
        assert_eq!(strength(hand("AS KS QS 3H 2D")).0, 15);
        assert_eq!(strength(hand("4S 3S 2S AH AD")).0, 12);
        assert_eq!(misere_strength(hand("2S 3H 4D 5C 5S")), 15);
        let ten = hand("AS KS 2S 3H AD 4C 5C 6C 7C 8C");
        assert_eq!(
            strength(best_five(ten)).0,
            16,
            "AS KS 2S of trumps and the side AD"
        );
        assert_eq!(
            best_five(hand("AS KS QS JS 2S 3H 4D AH KH QH")),
            hand("AS KS QS JS AH")
        );
    }
}
