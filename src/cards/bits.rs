//! Lane-wise bit tricks on the raw `u64` of a [`CardSet`](super::CardSet), written once.
//!
//! The layout is the one of [`CardSet`](super::CardSet): four 16-bit lanes (clubs lowest), bit
//! `r` of a lane standing for rank `r`, so bits 0, 1 and 15 of a lane never hold a card. The
//! helpers treat the four lanes as four independent 16-bit words (SWAR): no bit moves from one
//! suit into another. They work on any `u64` (the solver keeps its hands as raw words) and are
//! `const fn`s that compile to a few instructions each, for the inner loops of the play and of
//! the search. [`CardSet`](super::CardSet) offers the same vocabulary on sets where it is needed.
//!
//! ```
//! use napsim::cards::bits;
//! // The club 4, 9 and ace; the spade 3.
//! let cards = 1 << 4 | 1 << 9 | 1 << 14 | 1 << 51;
//! assert_eq!(bits::suit_tops(cards), 1 << 14 | 1 << 51);
//! assert_eq!(bits::lane_bits(cards, 3), 1 << 3);
//! assert_eq!(bits::whole_lanes(cards), 0xffff_0000_0000_ffff);
//! ```

/// Every bit of a lane (its 16 bits), in the lowest lane.
pub const LANE: u64 = 0xffff;

/// The bits of a lane that hold cards (ranks 2 to ace: bits 2 ..= 14), in the lowest lane.
pub const LANE_CARDS: u64 = 0x7ffc;

/// Every card bit of every lane: the full 52-card pack.
pub const CARDS: u64 = LANE_CARDS * LANE_ONES;

/// Bit 0 of every lane: multiplying a one-lane pattern by it repeats the pattern in all four.
pub const LANE_ONES: u64 = 0x0001_0001_0001_0001;

/// Bit 15 of every lane (never a card).
pub const LANE_TOPS: u64 = 0x8000_8000_8000_8000;

/// The whole lane number `lane` (0 for clubs .. 3 for spades).
#[inline]
pub const fn lane_mask(lane: u32) -> u64 {
    LANE << (16 * lane)
}

/// The whole lane holding bit `bit` (a card's index).
#[inline]
pub const fn lane_of_bit(bit: u32) -> u64 {
    LANE << (bit & !15)
}

/// Lane number `lane` of `bits`, shifted down to the lowest 16 bits.
#[inline]
pub const fn lane_bits(bits: u64, lane: u32) -> u64 {
    bits >> (16 * lane) & LANE
}

/// The four lanes of `bits` OR-ed into the lowest: the ranks present in some suit.
#[inline]
pub const fn fold_lanes(bits: u64) -> u64 {
    (bits | bits >> 16 | bits >> 32 | bits >> 48) & LANE
}

/// The lowest set bit of `bits` alone (0 for 0).
#[inline]
pub const fn lowest_bit(bits: u64) -> u64 {
    bits & bits.wrapping_neg()
}

/// `bits` without its lowest set bit (0 for 0).
#[inline]
pub const fn clear_lowest(bits: u64) -> u64 {
    bits & bits.wrapping_sub(1)
}

/// Every bit above `bit` (a card's index, at most 62), whatever its lane.
#[inline]
pub const fn above(bit: u32) -> u64 {
    !((2u64 << bit) - 1)
}

/// Every bit below `bit` (at most 63), whatever its lane.
#[inline]
pub const fn below(bit: u32) -> u64 {
    (1u64 << bit) - 1
}

/// In each lane, every bit at or below the lane's highest set bit (a shift-and-or smear; each
/// shift is masked so that no bit crosses into the lane below).
#[inline]
pub const fn smear_down(bits: u64) -> u64 {
    let mut x = bits;
    x |= x >> 1 & 0x7fff_7fff_7fff_7fff;
    x |= x >> 2 & 0x3fff_3fff_3fff_3fff;
    x |= x >> 4 & 0x0fff_0fff_0fff_0fff;
    x |= x >> 8 & 0x00ff_00ff_00ff_00ff;
    x
}

/// In each lane, every bit at or above the lane's lowest set bit (the mirror of
/// [`smear_down`]).
#[inline]
pub const fn smear_up(bits: u64) -> u64 {
    let mut x = bits;
    x |= x << 1 & 0xfffe_fffe_fffe_fffe;
    x |= x << 2 & 0xfffc_fffc_fffc_fffc;
    x |= x << 4 & 0xfff0_fff0_fff0_fff0;
    x |= x << 8 & 0xff00_ff00_ff00_ff00;
    x
}

/// In each lane, every bit strictly below the lane's highest set bit.
#[inline]
pub const fn below_tops(bits: u64) -> u64 {
    smear_down(bits) >> 1 & 0x7fff_7fff_7fff_7fff
}

/// The highest set bit of each lane of `bits` (in card terms: the top card of each suit).
#[inline]
pub const fn suit_tops(bits: u64) -> u64 {
    let below = smear_down(bits);
    below & !(below >> 1 & 0x7fff_7fff_7fff_7fff)
}

/// The lowest set bit of each lane of `bits` (in card terms: the bottom card of each suit).
#[inline]
pub const fn suit_bottoms(bits: u64) -> u64 {
    // With bit 15 of every lane set, subtracting one from each lane borrows within the lane
    // only, clearing its lowest set bit.
    bits & !((bits | LANE_TOPS).wrapping_sub(LANE_ONES))
}

/// The bits below the one set bit of each lane of `bits` (lanes with no bit: every bit but
/// bit 15).
#[inline]
pub const fn below_each(bits: u64) -> u64 {
    (bits | LANE_TOPS).wrapping_sub(LANE_ONES) & !LANE_TOPS
}

/// The number of set bits of each lane of `bits`, in that lane.
#[inline]
pub const fn lane_lengths(bits: u64) -> u64 {
    let x = bits - (bits >> 1 & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + (x >> 2 & 0x3333_3333_3333_3333);
    let x = (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    (x + (x >> 8)) & 0x001f_001f_001f_001f
}

/// Bit 15 of each lane where `bits` has a bit (a flag per suit held).
#[inline]
pub const fn lane_flags(bits: u64) -> u64 {
    // Adding 0x7fff to the low 15 bits of a lane carries into bit 15 unless they are all 0.
    ((bits & !LANE_TOPS).wrapping_add(!LANE_TOPS) | bits) & LANE_TOPS
}

/// The whole lanes (all 16 bits) of the lanes where `bits` has a bit: the suits of the cards.
#[inline]
pub const fn whole_lanes(bits: u64) -> u64 {
    (lane_flags(bits) >> 15) * LANE
}

/// The bits of `mine` above every bit of `theirs` in the same lane: in card terms, the cards
/// of `mine` that no card of `theirs` of the same suit beats (every card of a suit `theirs`
/// is void in).
#[inline]
pub const fn masters(mine: u64, theirs: u64) -> u64 {
    mine & !smear_down(theirs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Clubs 4, 9 and ace; diamonds 2; no heart; spades 3 and king.
    const CARDS_SEEN: u64 = 1 << 4 | 1 << 9 | 1 << 14 | 1 << 18 | 1 << 51 | 1 << 61;

    #[test]
    fn lanes_and_tops_stay_within_their_suits() {
        assert_eq!(smear_down(1 << 16), 1 << 16);
        assert_eq!(smear_down(1 << 20), 0x1f << 16);
        assert_eq!(smear_up(1 << 16), 0xffff << 16);
        assert_eq!(smear_up(1 << 15 | 1 << 20), 1 << 15 | 0xfff0 << 16);
        assert_eq!(smear_up(CARDS_SEEN), 0xfff0 | 0xfffc << 16 | 0xfff8 << 48);
        assert_eq!(whole_lanes(CARDS_SEEN), 0xffff_0000_ffff_ffff);
        assert_eq!(suit_tops(CARDS_SEEN), 1 << 14 | 1 << 18 | 1 << 61);
        assert_eq!(suit_bottoms(CARDS_SEEN), 1 << 4 | 1 << 18 | 1 << 51);
        assert_eq!(suit_bottoms(0x8000_0000_0000_8004), 0x8000_0000_0000_0004);
        assert_eq!(
            below_each(1 << 4 | 1 << 51),
            0xf | 0x7fff << 16 | 0x7fff << 32 | 0x7 << 48
        );
        assert_eq!(whole_lanes(1 << 15 | 1 << 49), 0xffff_0000_0000_ffff);
        assert_eq!(lane_lengths(CARDS_SEEN), 3 | 1 << 16 | 2 << 48);
        assert_eq!(lane_lengths(u64::MAX), 16 * LANE_ONES);
        assert_eq!(whole_lanes(0) | suit_tops(0), 0);
        assert_eq!(
            below_tops(CARDS_SEEN),
            below(14) | below(2) << 16 | below(13) << 48
        );
        assert_eq!(
            fold_lanes(CARDS_SEEN),
            1 << 2 | 1 << 3 | 1 << 4 | 1 << 9 | 1 << 13 | 1 << 14
        );
        assert_eq!(lane_bits(CARDS_SEEN, 1), 1 << 2);
        assert_eq!(lane_of_bit(18), lane_mask(1));
        assert_eq!(CARDS, 0x7ffc_7ffc_7ffc_7ffc);
    }

    #[test]
    fn masters_beat_every_card_of_their_suit() {
        // Against the queen of clubs and the five of spades: the club ace, the two of
        // diamonds (no diamond is out) and the spade king, not the three.
        let theirs = 1 << 12 | 1 << 53;
        assert_eq!(masters(CARDS_SEEN, theirs), 1 << 14 | 1 << 18 | 1 << 61);
    }

    #[test]
    fn above_and_below_split_at_the_bit() {
        for bit in 0..63 {
            assert_eq!(above(bit) | below(bit) | 1 << bit, u64::MAX);
            assert_eq!(above(bit) & below(bit), 0);
            assert_eq!(lowest_bit(above(bit)), 2 << bit);
        }
    }
}
