//! Hand classes for the bid tables.
//!
//! - **Classes** (`--by classes`), for guides: the suit the hand would lead as trump (its
//!   longest, ties to the one with the higher cards), the trump length, which of the trump
//!   honours A K Q J T it holds, its side aces, side kings and voids. Label: `4 trumps A-Q-x-x,
//!   1 side ace, 1 void`.
//! - **Exact** (`--by exact`), for bots: the hand up to a renaming of the suits (the declarer's
//!   lead chooses trump, so suits are interchangeable before the play). Label: the ranks of each
//!   suit, longest suit first, suits separated by dots: `AK9.7.2`.
//! - **Classes with misère** (`--by classes-misere`, for `optimize` under profiles with a
//!   Misère): the guide classes, and for hands with a Misère's prospects (misère strength 9 or
//!   more) how many of their cards are 2-5, 6-8 and 9-T, which the guide classes lump together
//!   as `x`. Label: `2 trumps x-x, 1 void; low cards 3 of 2-5, 1 of 6-8, 1 of 9-T`.
//! - **Classes with a Misère rating** (`--by classes-rated`, for `optimize` under profiles with a
//!   Misère): the guide classes, and every hand's band of a fitted Misère rating
//!   ([`crate::eval::rating`]), in tenths. Label: `3 trumps T-x-x, 1 side ace, 1 void; Misère
//!   rated 60-70%`. A rating belongs to a strategy, so the band comes from
//!   [`Scheme::class_with`].

use std::cmp::Reverse;

use crate::cards::{CardSet, Rank, Suit};
use crate::eval::rating::{BANDS, MisereRating};
use crate::policy::strength;

/// How hands are grouped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Guide-friendly feature classes.
    Classes,
    /// Exact hands up to exchange of suits.
    Exact,
    /// Coarse feature classes for small samples: trump length, which of the trump A K Q the
    /// hand holds, and side aces.
    Coarse,
    /// The threshold policy's scores: trick strength and misère strength (`napsim thresholds`).
    Strength,
    /// Guide-friendly feature classes, hands with a Misère's prospects split by their low cards.
    ClassesMisere,
    /// Guide-friendly feature classes split by a fitted Misère rating's band.
    ClassesRated,
}

/// [`Scheme::ClassesMisere`] splits hands of at least this misère strength by their low cards:
/// the threshold bidder calls Misère from 12, and a later seat or a cheap Misère may call it
/// from less.
const MISERE_PROSPECT: u32 = 9;

/// The rank bands of a [`Scheme::ClassesMisere`] class's low cards, lowest first: the
/// bands of [`strength::misere_strength`].
const LOW_BANDS: [(u8, u8, &str); 3] = [(2, 5, "2-5"), (6, 8, "6-8"), (9, 10, "9-T")];

/// The trump honours a class tracks, highest first.
const HONOURS: [Rank; 5] = [Rank::Ace, Rank::King, Rank::Queen, Rank::Jack, Rank::Ten];

/// [`Scheme::trump_length_and_top`]: the trump ace is held.
pub const TOP_ACE: u8 = 4;
/// [`Scheme::trump_length_and_top`]: the trump king is held.
pub const TOP_KING: u8 = 2;
/// [`Scheme::trump_length_and_top`]: the trump queen is held.
pub const TOP_QUEEN: u8 = 1;

/// A hand's class: a key that sorts and compares, with a readable label.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Class(pub u64);

impl Scheme {
    /// The class of `hand`.
    pub fn class(self, hand: CardSet) -> Class {
        match self {
            Scheme::Classes => feature_class(hand),
            Scheme::Exact => exact_class(hand),
            Scheme::Coarse => coarse_class(hand),
            Scheme::Strength => Class(
                u64::from(strength::strength(hand).0)
                    | u64::from(strength::misere_strength(hand)) << 8,
            ),
            Scheme::ClassesMisere => Class(feature_class(hand).0 | low_cards_key(hand) << 16),
            // Without its rating, the guide class alone.
            Scheme::ClassesRated => feature_class(hand),
        }
    }

    /// The class of `hand` under `rating` where the scheme bands hands by one
    /// ([`Scheme::ClassesRated`]); [`Scheme::class`] otherwise.
    pub fn class_with(self, hand: CardSet, rating: Option<&MisereRating>) -> Class {
        match (self, rating) {
            (Scheme::ClassesRated, Some(rating)) => {
                Class(feature_class(hand).0 | (rating.band(hand) + 1) << 16)
            }
            _ => self.class(hand),
        }
    }

    /// The label of `class`.
    pub fn label(self, class: Class) -> String {
        match self {
            Scheme::Classes => feature_label(class),
            Scheme::Exact => exact_label(class),
            Scheme::Coarse => coarse_label(class),
            Scheme::Strength => format!(
                "strength {}, misère strength {}",
                Scheme::trick_score(class),
                Scheme::misere_score(class)
            ),
            Scheme::ClassesMisere => {
                let base = feature_label(Class(class.0 & 0xffff));
                match low_cards_label(class.0 >> 16) {
                    Some(low) => format!("{base}; low cards {low}"),
                    None => base,
                }
            }
            Scheme::ClassesRated => {
                let base = feature_label(Class(class.0 & 0xffff));
                match class.0 >> 16 {
                    0 => base,
                    band => format!(
                        "{base}; Misère rated {}-{}%",
                        (band - 1) * 100 / BANDS,
                        band * 100 / BANDS
                    ),
                }
            }
        }
    }

    /// The trick strength of a [`Scheme::Strength`] class.
    pub fn trick_score(class: Class) -> u32 {
        (class.0 & 0xff) as u32
    }

    /// The misère strength of a [`Scheme::Strength`] class.
    pub fn misere_score(class: Class) -> u32 {
        (class.0 >> 8 & 0xff) as u32
    }

    /// The trump length of `class` and which of the trump ace, king and queen it holds
    /// ([`TOP_ACE`], [`TOP_KING`], [`TOP_QUEEN`] bits): the same under both schemes, since both
    /// take the longest suit, ties to the higher cards, as trump.
    pub fn trump_length_and_top(self, class: Class) -> (u8, u8) {
        match self {
            // Length in bits 0-2; honours A K Q J T in bits 7 6 5 4 3.
            Scheme::Classes | Scheme::ClassesMisere | Scheme::ClassesRated => {
                ((class.0 & 7) as u8, ((class.0 >> 5) & 7) as u8)
            }
            // The trump lane is the highest 16 bits; A K Q are rank values 14 13 12.
            Scheme::Exact => {
                let lane = class.0 >> 48;
                (lane.count_ones() as u8, ((lane >> 12) & 7) as u8)
            }
            // Length in bits 0-2, A K Q in bits 5 4 3.
            Scheme::Coarse => ((class.0 & 7) as u8, ((class.0 >> 3) & 7) as u8),
            // Strength classes keep no suit: no trump length to report.
            Scheme::Strength => (0, 0),
        }
    }

    /// The name used on the command line and in manifests.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Classes => "classes",
            Scheme::Exact => "exact",
            Scheme::Coarse => "coarse",
            Scheme::Strength => "strength",
            Scheme::ClassesMisere => "classes-misere",
            Scheme::ClassesRated => "classes-rated",
        }
    }
}

/// The suit a hand would lead as trump: the longest, ties to the higher cards.
pub fn trump_suit(hand: CardSet) -> Suit {
    Suit::ALL
        .into_iter()
        .max_by_key(|&s| (hand.suit_len(s), lane(hand, s)))
        .expect("four suits")
}

/// The 16-bit lane of `suit` (bit = rank value).
fn lane(hand: CardSet, suit: Suit) -> u64 {
    u64::from(hand.lane(suit))
}

// Feature key layout: trump length (3 bits), honours held (5 bits, A = bit 4), side aces
// (2 bits), side kings (2 bits), voids (2 bits).
fn feature_class(hand: CardSet) -> Class {
    let trump = trump_suit(hand);
    let trumps = hand.of_suit(trump);
    let mut honours = 0u64;
    for (i, rank) in HONOURS.iter().enumerate() {
        if trumps.contains(crate::cards::Card::new(*rank, trump)) {
            honours |= 1 << (4 - i);
        }
    }
    let side = hand - trumps;
    let count = |rank: Rank| side.into_iter().filter(|c| c.rank() == rank).count() as u64;
    let voids = Suit::ALL.iter().filter(|&&s| hand.suit_len(s) == 0).count() as u64;
    let len = u64::from(trumps.count());
    Class(len | honours << 3 | count(Rank::Ace) << 8 | count(Rank::King) << 10 | voids << 12)
}

fn feature_label(class: Class) -> String {
    let key = class.0;
    let len = (key & 7) as usize;
    let honours = (key >> 3) & 31;
    let mut cards: Vec<String> = HONOURS
        .iter()
        .enumerate()
        .filter(|(i, _)| honours & (1 << (4 - i)) != 0)
        .map(|(_, r)| r.letter().to_string())
        .collect();
    while cards.len() < len {
        cards.push("x".into());
    }
    let mut label = format!(
        "{len} trump{} {}",
        if len == 1 { "" } else { "s" },
        cards.join("-")
    );
    for (count, one, many) in [
        ((key >> 8) & 3, "side ace", "side aces"),
        ((key >> 10) & 3, "side king", "side kings"),
        ((key >> 12) & 3, "void", "voids"),
    ] {
        if count > 0 {
            label += &format!(", {count} {}", if count == 1 { one } else { many });
        }
    }
    label
}

// Low-cards key: 0 below the misère prospect, else the count of each band (3 bits each, the
// lowest band lowest). Such a hand has at least three low cards, so the key is never 0.
fn low_cards_key(hand: CardSet) -> u64 {
    if strength::misere_strength(hand) < MISERE_PROSPECT {
        return 0;
    }
    LOW_BANDS
        .iter()
        .enumerate()
        .map(|(i, &(low, high, _))| {
            let count = hand
                .into_iter()
                .filter(|c| (low..=high).contains(&c.rank().value()))
                .count() as u64;
            count << (3 * i)
        })
        .sum()
}

fn low_cards_label(key: u64) -> Option<String> {
    (key != 0).then(|| {
        LOW_BANDS
            .iter()
            .enumerate()
            .map(|(i, &(_, _, name))| ((key >> (3 * i)) & 7, name))
            .filter(|&(count, _)| count > 0)
            .map(|(count, name)| format!("{count} of {name}"))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

// Coarse key: the feature key's trump length, its A K Q bits, and its side aces.
fn coarse_class(hand: CardSet) -> Class {
    let key = feature_class(hand).0;
    Class((key & 7) | ((key >> 5) & 7) << 3 | ((key >> 8) & 3) << 6)
}

fn coarse_label(class: Class) -> String {
    let key = class.0;
    let len = (key & 7) as usize;
    let top = (key >> 3) & 7;
    let mut cards: Vec<&str> = [(4, "A"), (2, "K"), (1, "Q")]
        .iter()
        .filter(|(bit, _)| top & bit != 0)
        .map(|&(_, name)| name)
        .collect();
    while cards.len() < len {
        cards.push("x");
    }
    let aces = (key >> 6) & 3;
    let mut label = format!(
        "{len} trump{} {}",
        if len == 1 { "" } else { "s" },
        cards.join("-")
    );
    if aces > 0 {
        label += &format!(", {aces} side ace{}", if aces == 1 { "" } else { "s" });
    }
    label
}

// Exact key: the four suit lanes sorted (longest first, then higher cards), packed.
fn exact_class(hand: CardSet) -> Class {
    let mut lanes: Vec<u64> = Suit::ALL.iter().map(|&s| lane(hand, s)).collect();
    lanes.sort_by_key(|&l| Reverse((l.count_ones(), l)));
    Class(lanes.iter().fold(0, |key, &l| key << 16 | l))
}

fn exact_label(class: Class) -> String {
    let suits: Vec<String> = (0..4)
        .rev()
        .map(|i| (class.0 >> (16 * i)) & 0xffff)
        .filter(|&l| l != 0)
        .map(|l| {
            (2..=14u8)
                .rev()
                .filter(|v| l & (1 << v) != 0)
                .map(|v| Rank::try_from_value(v).expect("a rank").letter())
                .collect()
        })
        .collect();
    suits.join(".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_hand;

    fn hand(text: &str) -> CardSet {
        parse_hand(text, 5).unwrap()
    }

    #[test]
    fn feature_labels_read_as_a_guide_writes_them() {
        let label = |t: &str| Scheme::Classes.label(Scheme::Classes.class(hand(t)));
        assert_eq!(
            label("AS QS 7S 3S AD"),
            "4 trumps A-Q-x-x, 1 side ace, 2 voids"
        );
        assert_eq!(
            label("AH JH TH KC 2D"),
            "3 trumps A-J-T, 1 side king, 1 void"
        );
        assert_eq!(label("9S 7S 5H 3D 2C"), "2 trumps x-x");
        // Ties between equally long suits go to the higher cards.
        assert_eq!(label("KS 2S AH 3H 5C"), "2 trumps A-x, 1 side king, 1 void");
        let coarse = |t: &str| Scheme::Coarse.label(Scheme::Coarse.class(hand(t)));
        assert_eq!(coarse("AS QS 7S 3S AD"), "4 trumps A-Q-x-x, 1 side ace");
        assert_eq!(coarse("AH JH TH KC 2D"), "3 trumps A-x-x");
        for t in ["AS QS 7S 3S AD", "KH JH 4H AC AD", "9S 7S 5H 3D 2C"] {
            let h = hand(t);
            assert_eq!(
                Scheme::Coarse.trump_length_and_top(Scheme::Coarse.class(h)),
                Scheme::Classes.trump_length_and_top(Scheme::Classes.class(h))
            );
        }
    }

    #[test]
    fn misere_classes_split_only_hands_with_misere_prospects() {
        let label = |t: &str| Scheme::ClassesMisere.label(Scheme::ClassesMisere.class(hand(t)));
        assert_eq!(
            label("9S 7S 5H 3D 2C"),
            "2 trumps x-x; low cards 3 of 2-5, 1 of 6-8, 1 of 9-T"
        );
        assert_eq!(
            label("AS QS 7S 3S AD"),
            "4 trumps A-Q-x-x, 1 side ace, 2 voids"
        );
        // Guide classes that lump a good Misère with a poor one, and a hand just short of the
        // prospect (misère strength 8) that keeps its guide class.
        let class = |t: &str| Scheme::ClassesMisere.class(hand(t));
        assert_eq!(
            Scheme::Classes.class(hand("2S 3S 4H 5H 2D")),
            Scheme::Classes.class(hand("9S 8S 9H 8H 9D"))
        );
        assert_ne!(class("2S 3S 4H 5H 2D"), class("9S 8S 9H 8H 9D"));
        assert_eq!(
            label("9S 8S 9H 8H QD"),
            Scheme::Classes.label(Scheme::Classes.class(hand("9S 8S 9H 8H QD")))
        );
        for t in ["AS QS 7S 3S AD", "2S 3S 4H 5H 2D", "9S 8S 9H 8H QD"] {
            assert_eq!(
                Scheme::ClassesMisere.trump_length_and_top(class(t)),
                Scheme::Classes.trump_length_and_top(Scheme::Classes.class(hand(t)))
            );
        }
    }

    #[test]
    fn both_schemes_agree_on_trump_length_and_top_honours() {
        for (text, expected) in [
            ("AS QS 7S 3S AD", (4, TOP_ACE | TOP_QUEEN)),
            ("AH JH TH KC 2D", (3, TOP_ACE)),
            ("9S 7S 5H 3D 2C", (2, 0)),
            ("KS 2S AH 3H 5C", (2, TOP_ACE)),
            ("KS QS 2S AH 3H", (3, TOP_KING | TOP_QUEEN)),
            ("AS KS QS JS TS", (5, TOP_ACE | TOP_KING | TOP_QUEEN)),
        ] {
            for scheme in [Scheme::Classes, Scheme::Exact] {
                let class = scheme.class(hand(text));
                assert_eq!(scheme.trump_length_and_top(class), expected, "{text}");
            }
        }
    }

    #[test]
    fn exact_classes_ignore_suit_names_only() {
        let class = |t: &str| Scheme::Exact.class(hand(t));
        assert_eq!(class("AS KS 9S 7H 2C"), class("AD KD 9D 7C 2S"));
        assert_ne!(class("AS KS 9S 7H 2C"), class("AS KS 9S 7H 3C"));
        assert_eq!(Scheme::Exact.label(class("2C AS 7H KS 9S")), "AK9.7.2");
        assert_eq!(Scheme::Exact.label(class("AS KS QS JS TS")), "AKQJT");
    }
}
