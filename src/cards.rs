//! Cards, suits, ranks and [`CardSet`], a 64-bit bitboard of cards.
//!
//! # Layout
//!
//! A [`CardSet`] is a `u64` with one 16-bit lane per suit, clubs in the lowest lane, then
//! diamonds, hearts and spades. Inside a lane, bit `r` stands for the rank with value `r`
//! (2 for a two up to 14 for an ace), so bits 0, 1 and 15 of every lane are always clear. With
//! this layout "the cards of the led suit" is one AND with a lane mask, "the highest card" is a
//! leading-zero count, and stripped packs are just smaller masks.
//!
//! # Notation
//!
//! A card is written rank then suit: ranks `2`-`9`, `T` (or `10`), `J`, `Q`, `K`, `A`; suits
//! `C D H S` or `♣ ♦ ♥ ♠`, case-insensitive. Cards are separated by spaces or commas:
//!
//! ```
//! use napsim::cards::{CardSet, parse_cards};
//! let cards = parse_cards("AS KS 10h 7♥, 2d").unwrap();
//! let hand: CardSet = cards.iter().copied().collect();
//! assert_eq!(hand.to_string(), "AS KS TH 7H 2D");
//! ```
//!
//! Display writes the canonical form (upper case, `T` for ten) in *display order*: spades, hearts,
//! diamonds, clubs, each from the ace down.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub, SubAssign};
use std::str::FromStr;

use thiserror::Error;

pub mod bits;

/// One of the four suits. The discriminant is the suit's lane in a [`CardSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    /// ♣, lane 0.
    Clubs = 0,
    /// ♦, lane 1.
    Diamonds = 1,
    /// ♥, lane 2.
    Hearts = 2,
    /// ♠, lane 3.
    Spades = 3,
}

impl Suit {
    /// All suits in lane order (clubs first).
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];
    /// Number of suits.
    pub const NUM: usize = 4;

    /// The suit in lane `index`, if `index < 4`.
    pub const fn try_from_index(index: usize) -> Option<Suit> {
        match index {
            0 => Some(Suit::Clubs),
            1 => Some(Suit::Diamonds),
            2 => Some(Suit::Hearts),
            3 => Some(Suit::Spades),
            _ => None,
        }
    }

    /// The suit's lane index (0 for clubs .. 3 for spades).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The ASCII letter used in the notation: `C`, `D`, `H` or `S`.
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    /// The suit symbol: `♣`, `♦`, `♥` or `♠`.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }

    /// Parses a suit letter or symbol, case-insensitive.
    pub fn from_char(c: char) -> Option<Suit> {
        match c {
            'c' | 'C' | '♣' | '♧' => Some(Suit::Clubs),
            'd' | 'D' | '♦' | '♢' => Some(Suit::Diamonds),
            'h' | 'H' | '♥' | '♡' => Some(Suit::Hearts),
            's' | 'S' | '♠' | '♤' => Some(Suit::Spades),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A card rank. The discriminant is the rank's bit inside its suit lane (2 ..= 14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)] // the variant names are the documentation
pub enum Rank {
    Two = 2,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// All ranks from the two up to the ace.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];
    /// Number of ranks.
    pub const NUM: usize = 13;

    /// The rank whose value is `value` (2 for a two .. 14 for an ace).
    pub const fn try_from_value(value: u8) -> Option<Rank> {
        if value >= 2 && value <= 14 {
            Some(Rank::ALL[(value - 2) as usize])
        } else {
            None
        }
    }

    /// The rank's value: 2 for a two .. 14 for an ace.
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// The ASCII character used in the canonical notation (`T` for ten).
    pub const fn letter(self) -> char {
        match self {
            Rank::Two => '2',
            Rank::Three => '3',
            Rank::Four => '4',
            Rank::Five => '5',
            Rank::Six => '6',
            Rank::Seven => '7',
            Rank::Eight => '8',
            Rank::Nine => '9',
            Rank::Ten => 'T',
            Rank::Jack => 'J',
            Rank::Queen => 'Q',
            Rank::King => 'K',
            Rank::Ace => 'A',
        }
    }

    /// Parses a rank token: `2`-`9`, `T` or `10`, `J`, `Q`, `K`, `A`, case-insensitive.
    pub fn parse(token: &str) -> Option<Rank> {
        let rank = match token {
            "10" | "t" | "T" => Rank::Ten,
            "j" | "J" => Rank::Jack,
            "q" | "Q" => Rank::Queen,
            "k" | "K" => Rank::King,
            "a" | "A" => Rank::Ace,
            _ => {
                let mut chars = token.chars();
                let digit = chars.next()?.to_digit(10)?;
                if chars.next().is_some() {
                    return None;
                }
                return Rank::try_from_value(digit as u8);
            }
        };
        Some(rank)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// By rank value; entries 0, 1 and 15 are never read (no card has those bits).
static RANKS: [Rank; 16] = {
    let mut table = [Rank::Two; 16];
    let mut i = 0;
    while i < 13 {
        table[i + 2] = Rank::ALL[i];
        i += 1;
    }
    table
};

/// One playing card: its index in the bitboard layout (`16 * suit + rank`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of `rank` in `suit`.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card((suit as u8) * 16 + rank as u8)
    }

    /// The card at bit `index` of a [`CardSet`], if that bit is a card.
    pub const fn try_from_index(index: u8) -> Option<Card> {
        let rank = index % 16;
        if index < 64 && rank >= 2 && rank <= 14 {
            Some(Card(index))
        } else {
            None
        }
    }

    /// The card's bit index in a [`CardSet`].
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card's suit.
    #[inline]
    pub const fn suit(self) -> Suit {
        // The match compiles to the shift itself: the discriminants are the lane numbers (the
        // mask, a no-op for a card, tells the compiler there is no fifth case).
        match (self.0 >> 4) & 3 {
            0 => Suit::Clubs,
            1 => Suit::Diamonds,
            2 => Suit::Hearts,
            _ => Suit::Spades,
        }
    }

    /// Whether two cards are of the same suit (one comparison of lane numbers).
    #[inline]
    pub const fn same_suit(self, other: Card) -> bool {
        (self.0 ^ other.0) < 16
    }

    /// The card's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        RANKS[(self.0 & 15) as usize]
    }

    /// The one-card set holding this card.
    pub const fn set(self) -> CardSet {
        CardSet(1 << self.0)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

impl Card {
    /// The card for people, its suit as a symbol (`A♠`): what `napsim play` and `napsim
    /// review` show. Files, JSON and input use the ASCII notation ([`Card`]'s `Display`, `AS`).
    pub fn for_people(self) -> String {
        format!("{}{}", self.rank().letter(), self.suit().symbol())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Card {
    type Err = CardError;

    /// Parses one card token such as `AS`, `10h`, `T♥` or `7♥`.
    fn from_str(token: &str) -> Result<Card, CardError> {
        let unknown = || CardError::UnknownToken(token.to_string());
        let suit_char = token.chars().next_back().ok_or_else(unknown)?;
        let suit = Suit::from_char(suit_char).ok_or_else(unknown)?;
        let rank_part = &token[..token.len() - suit_char.len_utf8()];
        let rank = Rank::parse(rank_part).ok_or_else(unknown)?;
        Ok(Card::new(rank, suit))
    }
}

/// Why a card, hand or deal could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CardError {
    /// A token that is not a card.
    #[error(
        "'{0}' is not a card (write rank then suit, e.g. AS, 10h, 7♥; ranks 2-9 T J Q K A, suits C D H S)"
    )]
    UnknownToken(String),
    /// The same card twice.
    #[error("card {0} appears more than once")]
    Duplicate(String),
    /// A hand with the wrong number of cards.
    #[error("a hand needs {expected} cards, '{hand}' has {got}")]
    WrongCount {
        /// The hand as written.
        hand: String,
        /// Cards required.
        expected: usize,
        /// Cards found.
        got: usize,
    },
    /// A deal with the wrong number of hands.
    #[error("the deal has {got} hands separated by '/', {expected} are needed (one per player)")]
    WrongHandCount {
        /// Hands required.
        expected: usize,
        /// Hands found.
        got: usize,
    },
    /// A card that the rule profile's pack does not contain.
    #[error("card {card} is not in the pack of this profile ({pack})")]
    OutsidePack {
        /// The card.
        card: String,
        /// A description of the pack.
        pack: String,
    },
}

/// Parses cards separated by spaces and/or commas. Duplicates are errors naming the card.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardError> {
    let mut seen = CardSet::EMPTY;
    let mut cards = Vec::new();
    for token in text.split([' ', ',', '\t', '\n']).filter(|t| !t.is_empty()) {
        let card: Card = token.parse()?;
        if seen.contains(card) {
            return Err(CardError::Duplicate(token.to_string()));
        }
        seen.insert(card);
        cards.push(card);
    }
    Ok(cards)
}

/// Parses a hand of exactly `size` cards.
pub fn parse_hand(text: &str, size: usize) -> Result<CardSet, CardError> {
    let cards = parse_cards(text)?;
    if cards.len() != size {
        return Err(CardError::WrongCount {
            hand: text.trim().to_string(),
            expected: size,
            got: cards.len(),
        });
    }
    Ok(cards.into_iter().collect())
}

/// Parses a deal: `players` hands of `hand_size` cards separated by `/`, seat 0 first, with no
/// card in two hands and every card inside `pack`.
pub fn parse_deal(
    text: &str,
    players: usize,
    hand_size: usize,
    pack: CardSet,
    pack_name: &str,
) -> Result<Vec<CardSet>, CardError> {
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() != players {
        return Err(CardError::WrongHandCount {
            expected: players,
            got: parts.len(),
        });
    }
    let mut seen = CardSet::EMPTY;
    let mut hands = Vec::with_capacity(players);
    for part in parts {
        let hand = parse_hand(part, hand_size)?;
        if let Some(card) = (hand & seen).first() {
            return Err(CardError::Duplicate(card.to_string()));
        }
        if let Some(card) = (hand - pack).first() {
            return Err(CardError::OutsidePack {
                card: card.to_string(),
                pack: pack_name.to_string(),
            });
        }
        seen |= hand;
        hands.push(hand);
    }
    Ok(hands)
}

/// A set of cards as a 64-bit bitboard (see the module documentation for the layout).
///
/// The bits are private, so that every set holds only cards: bits 0, 1 and 15 of each lane are
/// always clear. [`CardSet::bits`] reads them; [`CardSet::from_bits`] (checked) and
/// [`CardSet::from_bits_truncate`] (dropping the non-card bits) make a set from a `u64`, and
/// [`CardSet::lane`] and [`CardSet::from_lane`] do the same suit by suit.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardSet(u64);

/// The bits of one suit lane that hold real ranks (2 ..= 14).
const LANE: u64 = bits::LANE_CARDS;

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// The full 52-card pack.
    pub const FULL: CardSet = CardSet(bits::CARDS);

    /// The set whose bits are `bits`, if every set bit is a card (see the module documentation
    /// for the layout); None if `bits` has a bit 0, 1 or 15 of some lane set.
    ///
    /// ```
    /// use napsim::cards::CardSet;
    /// assert_eq!(CardSet::from_bits(1 << 14).map(|s| s.to_string()), Some("AC".to_string()));
    /// assert_eq!(CardSet::from_bits(1 << 15), None);
    /// ```
    #[inline]
    pub const fn from_bits(bits: u64) -> Option<CardSet> {
        if bits & !bits::CARDS == 0 {
            Some(CardSet(bits))
        } else {
            None
        }
    }

    /// The cards among `bits`: the set of its bits that are cards, every other bit dropped.
    ///
    /// ```
    /// use napsim::cards::CardSet;
    /// assert_eq!(CardSet::from_bits_truncate(u64::MAX), CardSet::FULL);
    /// assert_eq!(CardSet::from_bits_truncate(0b111).to_string(), "2C");
    /// ```
    #[inline]
    pub const fn from_bits_truncate(bits: u64) -> CardSet {
        CardSet(bits & bits::CARDS)
    }

    /// The set's bits: one 16-bit lane per suit, clubs lowest, bit `r` of a lane for rank `r`.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The lane of `suit`: bit `r` set for each card of rank value `r` of that suit in the set.
    #[inline]
    pub const fn lane(self, suit: Suit) -> u16 {
        bits::lane_bits(self.0, suit as u32) as u16
    }

    /// The cards of `suit` whose rank values are the set bits of `lane`; bits 0, 1 and 15 (no
    /// rank) are dropped.
    #[inline]
    pub const fn from_lane(suit: Suit, lane: u16) -> CardSet {
        CardSet((lane as u64 & LANE) << (16 * suit as u32))
    }

    /// All cards of `suit`, ranks 2 to ace.
    pub const fn suit_mask(suit: Suit) -> CardSet {
        CardSet(LANE << (16 * suit as u32))
    }

    /// All cards of the suits in `suits`, a bit per suit (bit 0 clubs .. bit 3 spades).
    #[inline]
    pub const fn suits_mask(suits: u8) -> CardSet {
        // Spread bit `s` to bit `16 * s`, then fill each lane with a multiply.
        let s = suits as u64;
        let spread = (s & 1) | (s & 2) << 15 | (s & 4) << 30 | (s & 8) << 45;
        CardSet(spread * LANE)
    }

    /// All cards (of every suit) from `lowest` up to the ace: a stripped pack.
    pub const fn from_lowest_rank(lowest: Rank) -> CardSet {
        let lane = LANE & !bits::below(lowest as u32);
        CardSet(lane * bits::LANE_ONES)
    }

    /// Whether `card` is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// Adds `card`.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes `card`.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// The set with `card` added.
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.0)
    }

    /// The set with `card` removed.
    pub const fn without(self, card: Card) -> CardSet {
        CardSet(self.0 & !(1 << card.0))
    }

    /// Number of cards.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds one card or none (one test of the bits, without counting them).
    #[inline]
    pub const fn at_most_one(self) -> bool {
        bits::clear_lowest(self.0) == 0
    }

    /// Whether the set is non-empty.
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The cards of `suit` in the set.
    pub const fn of_suit(self, suit: Suit) -> CardSet {
        CardSet(self.0 & CardSet::suit_mask(suit).0)
    }

    /// The number of cards of `suit` in the set.
    pub const fn suit_len(self, suit: Suit) -> u32 {
        self.of_suit(suit).count()
    }

    /// The cards a player holding this set may play to a trick led in `led`: the cards of that
    /// suit if there are any, otherwise every card (follow suit; no obligation to trump).
    pub const fn follow(self, led: Suit) -> CardSet {
        let same = self.of_suit(led);
        if same.0 != 0 { same } else { self }
    }

    /// The lowest card by bit index (clubs before diamonds .. spades; two before ace).
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest card by bit index (the spade ace is the highest of all).
    pub const fn last(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(63 - self.0.leading_zeros() as u8))
        }
    }

    /// Removes and returns the lowest card by bit index.
    pub fn pop_front(&mut self) -> Option<Card> {
        let card = self.first()?;
        self.0 = bits::clear_lowest(self.0);
        Some(card)
    }

    /// Removes and returns the highest card by bit index.
    pub fn pop_back(&mut self) -> Option<Card> {
        let card = self.last()?;
        self.remove(card);
        Some(card)
    }

    /// The lowest card by bit index as a set of at most one card, computed without a branch
    /// (empty for the empty set).
    #[inline]
    pub const fn first_set(self) -> CardSet {
        CardSet(bits::lowest_bit(self.0))
    }

    /// The cards of the set that no card of `others` of the same suit beats (every card of a
    /// suit `others` is void in).
    ///
    /// ```
    /// use napsim::cards::{CardSet, parse_cards};
    /// let mine: CardSet = parse_cards("AS QS 2H 9D 5C").unwrap().into_iter().collect();
    /// let others: CardSet = parse_cards("KS 3H TD").unwrap().into_iter().collect();
    /// assert_eq!(mine.masters_over(others).to_string(), "AS 5C");
    /// ```
    #[inline]
    pub const fn masters_over(self, others: CardSet) -> CardSet {
        CardSet(bits::masters(self.0, others.0))
    }

    /// The card of lowest rank, whatever its suit; among equal ranks the lowest suit (clubs).
    #[inline]
    pub const fn lowest_rank(self) -> Option<Card> {
        let ranks = bits::fold_lanes(self.0);
        if ranks == 0 {
            return None;
        }
        let rank = ranks.trailing_zeros();
        let suits = (self.0 >> rank) & bits::LANE_ONES;
        Some(Card((suits.trailing_zeros() + rank) as u8))
    }

    /// Like [`CardSet::lowest_rank`] but as a set of at most one card, computed without branches
    /// (empty for the empty set), for hot code whose choices are random data.
    #[inline]
    pub const fn lowest_rank_set(self) -> CardSet {
        let ranks = bits::fold_lanes(self.0);
        let rank = bits::lowest_bit(ranks);
        let suits = self.0 & rank.wrapping_mul(bits::LANE_ONES);
        CardSet(bits::lowest_bit(suits))
    }

    /// `if_true` when `condition` holds, else `if_false`, without a branch.
    #[inline]
    pub const fn select(condition: bool, if_true: CardSet, if_false: CardSet) -> CardSet {
        let mask = (condition as u64).wrapping_neg();
        CardSet((if_true.0 & mask) | (if_false.0 & !mask))
    }

    /// The card of highest rank, whatever its suit; among equal ranks the highest suit (spades).
    #[inline]
    pub const fn highest_rank(self) -> Option<Card> {
        let ranks = bits::fold_lanes(self.0);
        if ranks == 0 {
            return None;
        }
        let rank = 63 - ranks.leading_zeros();
        let suits = (self.0 >> rank) & bits::LANE_ONES;
        Some(Card((63 - suits.leading_zeros() + rank) as u8))
    }

    /// The cards of the set that rank above `card` in `card`'s suit.
    pub const fn above_in_suit(self, card: Card) -> CardSet {
        let suit = CardSet::suit_mask(card.suit()).0;
        CardSet(self.0 & suit & bits::above(card.0 as u32))
    }

    /// The suits with at least one card in the set.
    pub fn suits(self) -> impl Iterator<Item = Suit> {
        Suit::ALL
            .into_iter()
            .filter(move |&s| self.of_suit(s).any())
    }

    /// Iterates from the highest card to the lowest in display order (spades, hearts, diamonds,
    /// clubs; ace first in each suit).
    pub fn iter_desc(self) -> impl Iterator<Item = Card> {
        let mut rest = self;
        std::iter::from_fn(move || rest.pop_back())
    }

    /// The cards in a vector, in iteration order (ascending bit index).
    pub fn to_vec(self) -> Vec<Card> {
        self.into_iter().collect()
    }
}

/// Iterates in ascending bit index: clubs, diamonds, hearts, spades, each from the two up.
impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        CardSetIter(self)
    }
}

/// Iterator over a [`CardSet`] in ascending bit index.
#[derive(Clone, Debug)]
pub struct CardSetIter(CardSet);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        self.0.pop_front()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl From<Card> for CardSet {
    fn from(card: Card) -> CardSet {
        card.set()
    }
}

impl BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & rhs.0)
    }
}

impl BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 | rhs.0)
    }
}

impl BitXor for CardSet {
    type Output = CardSet;
    fn bitxor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 ^ rhs.0)
    }
}

/// Set difference.
impl Sub for CardSet {
    type Output = CardSet;
    fn sub(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & !rhs.0)
    }
}

/// The complement within the full 52-card pack.
impl Not for CardSet {
    type Output = CardSet;
    fn not(self) -> CardSet {
        CardSet(!self.0 & CardSet::FULL.0)
    }
}

impl BitAndAssign for CardSet {
    fn bitand_assign(&mut self, rhs: CardSet) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for CardSet {
    fn bitor_assign(&mut self, rhs: CardSet) {
        self.0 |= rhs.0;
    }
}

impl SubAssign for CardSet {
    fn sub_assign(&mut self, rhs: CardSet) {
        self.0 &= !rhs.0;
    }
}

/// Canonical notation in display order, e.g. `AS TS 7H 4D 2C`.
impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.iter_desc().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

/// Suit by suit for people, e.g. `♠AK ♥- ♦7 ♣Q2`.
impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, suit) in Suit::ALL.iter().rev().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", suit.symbol())?;
            let cards = self.of_suit(*suit);
            if cards.is_empty() {
                f.write_str("-")?;
            }
            for card in cards.iter_desc() {
                write!(f, "{}", card.rank())?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_pack_has_52_cards_and_stripped_packs_shrink() {
        assert_eq!(CardSet::FULL.count(), 52);
        assert_eq!(CardSet::from_lowest_rank(Rank::Two), CardSet::FULL);
        assert_eq!(CardSet::from_lowest_rank(Rank::Nine).count(), 24);
        assert_eq!(CardSet::from_lowest_rank(Rank::Eight).count(), 28);
        assert_eq!(CardSet::from_lowest_rank(Rank::Seven).count(), 32);
    }

    #[test]
    fn parses_every_notation() {
        let cards = parse_cards("AS,KS 10h 7♥ 2d ♠").unwrap_err();
        assert_eq!(cards, CardError::UnknownToken("♠".into()));
        let cards = parse_cards("AS,KS 10h 7♥ 2d").unwrap();
        let text: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
        assert_eq!(text, ["AS", "KS", "TH", "7H", "2D"]);
    }

    #[test]
    fn errors_name_the_bad_token() {
        assert_eq!(
            parse_cards("AS ZZ").unwrap_err(),
            CardError::UnknownToken("ZZ".into())
        );
        assert_eq!(
            parse_cards("AS as").unwrap_err(),
            CardError::Duplicate("as".into())
        );
        assert!(matches!(
            parse_hand("AS KS QS JS", 5).unwrap_err(),
            CardError::WrongCount { got: 4, .. }
        ));
        for bad in ["1S", "11S", "S", "A", "AX", "0H", ""] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn lowest_and_highest_rank_across_suits() {
        let hand: CardSet = parse_cards("AS 4S 3H 3D KC").unwrap().into_iter().collect();
        assert_eq!(hand.lowest_rank(), Some("3D".parse().unwrap()));
        assert_eq!(hand.highest_rank(), Some("AS".parse().unwrap()));
        assert_eq!(CardSet::EMPTY.lowest_rank(), None);
        let hand: CardSet = parse_cards("KS KH 2C").unwrap().into_iter().collect();
        assert_eq!(hand.highest_rank(), Some("KS".parse().unwrap()));
    }

    #[test]
    fn branch_free_lowest_rank_agrees() {
        for bits in [
            0u64,
            0x4,
            0x8000_0000_0004_0000,
            0x7ffc_7ffc_7ffc_7ffc,
            0x0010_0008_0100_2000,
        ] {
            let set = CardSet(bits) & CardSet::FULL;
            let expected = set.lowest_rank().map_or(CardSet::EMPTY, Card::set);
            assert_eq!(set.lowest_rank_set(), expected, "{set:?}");
        }
        let a = CardSet(0x4);
        let b = CardSet(0x8);
        assert_eq!(
            (CardSet::select(true, a, b), CardSet::select(false, a, b)),
            (a, b)
        );
    }

    #[test]
    fn follow_suit_mask() {
        let hand: CardSet = parse_cards("AS 2S 3H 4D").unwrap().into_iter().collect();
        assert_eq!(hand.follow(Suit::Spades).count(), 2);
        assert_eq!(hand.follow(Suit::Clubs), hand);
    }

    #[test]
    fn debug_is_readable() {
        let hand: CardSet = parse_cards("AS KS 7D QC 2C").unwrap().into_iter().collect();
        assert_eq!(format!("{hand:?}"), "♠AK ♥- ♦7 ♣Q2");
        assert_eq!(hand.to_string(), "AS KS 7D QC 2C");
    }

    #[test]
    fn deal_errors() {
        let pack = CardSet::from_lowest_rank(Rank::Nine);
        let err = parse_deal("AS KS QS JS TS/2H 3H 4H 5H 6H", 2, 5, pack, "24 cards").unwrap_err();
        assert!(matches!(err, CardError::OutsidePack { ref card, .. } if card == "2H"));
        let err =
            parse_deal("AS KS QS JS TS/AS 3H 4H 5H 6H", 2, 5, CardSet::FULL, "52").unwrap_err();
        assert_eq!(err, CardError::Duplicate("AS".into()));
    }
}
