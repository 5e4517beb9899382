//! Move ordering and equivalent cards: which of a seat's cards the search tries, and in which
//! order.
//!
//! Cards adjacent among the live cards (those gone from play between them do not separate
//! them) are equivalent in play, so the search tries the lowest of each run only
//! ([`run_bottoms`]); when that shortcut made a node's result depend on the cards between a
//! run's cards, [`straddling_runs`] marks them. The cards tried come cheapest-first for the
//! side to play: leads no live card beats first, a cheap winner when the trick goes the other
//! side's way, a low card when it goes this side's way.

use super::search::Search;
use crate::cards::bits;

impl Search<'_> {
    /// The candidate cards in the order to try them: cards likely to settle the node first.
    pub(super) fn order(&self, seat: usize, candidates: u64) -> ([u8; 8], usize) {
        let mut moves = [0u8; 8];
        let mut count = 0;
        let mut push = |set: u64, descending: bool| {
            let mut set = set;
            while set != 0 {
                let card = if descending {
                    63 - set.leading_zeros()
                } else {
                    set.trailing_zeros()
                };
                set &= !(1u64 << card);
                moves[count] = card as u8;
                count += 1;
            }
        };
        if self.misere {
            return self.misere_order(seat, candidates);
        }
        let wants_credit = seat == self.declarer;
        if self.trick_len == 0 {
            // Leading: cards no live card of their suit beats first, then the rest (high
            // first for the declarer, low first for a defender).
            let masters = candidates & !self.beaten_by_others(seat);
            push(masters, true);
            push(candidates & !masters, wants_credit);
            return (moves, count);
        }
        let credited_now = self.credit(self.win_seat) == 1;
        let winners = candidates & self.beating(self.win_card);
        if credited_now == wants_credit {
            // The trick is going this seat's way: play low.
            push(candidates & !winners, false);
            push(winners, false);
        } else {
            // Win as cheaply as possible, else play low.
            push(winners, false);
            push(candidates & !winners, false);
        }
        (moves, count)
    }

    /// The order in a misère: the declarer tries the cards likeliest to lose the trick (and
    /// sheds its high cards while it can), a defender the cards likeliest to leave the
    /// declarer winning.
    fn misere_order(&self, seat: usize, candidates: u64) -> ([u8; 8], usize) {
        let mut moves = [0u8; 8];
        let mut count = 0;
        let mut push = |set: u64, by_rank_desc: bool| {
            let start = count;
            let mut set = set;
            while set != 0 {
                let card = set.trailing_zeros();
                set &= set - 1;
                moves[count] = card as u8;
                count += 1;
            }
            let key = |c: u8| (c & 15, c >> 4);
            let part = &mut moves[start..count];
            if by_rank_desc {
                part.sort_unstable_by_key(|&c| std::cmp::Reverse(key(c)));
            } else {
                part.sort_unstable_by_key(|&c| key(c));
            }
        };
        let declarer = seat == self.declarer;
        if self.trick_len == 0 {
            let masters = candidates & !self.beaten_by_others(seat);
            let mine = self.hands[self.declarer];
            let held = bits::whole_lanes(mine);
            let floors = self.forced_floors(self.live & !mine);
            if declarer {
                // Cards a defender must beat, the highest of each suit first (it sheds most);
                // then low cards; masters (which win the trick) last.
                let exits = candidates & bits::below_each(floors) & bits::whole_lanes(floors);
                push(exits & !masters, true);
                push(candidates & !masters & !exits, false);
                push(masters, false);
            } else {
                // Suits the declarer must win a trick of, low first; then high cards of the
                // suits it must follow, and of the others; masters of suits it lacks last.
                let stuck = held & !bits::whole_lanes(floors & bits::smear_up(mine));
                let forcing = candidates & stuck & !masters;
                push(forcing, false);
                push(candidates & held & !forcing, true);
                push(candidates & !held & !masters, true);
                push(masters & !held, false);
            }
            return (moves, count);
        }
        let winners = candidates & self.beating(self.win_card);
        if declarer {
            // Duck with the highest card that loses, else win with the highest.
            push(candidates & !winners, true);
            push(winners, true);
        } else if candidates & self.led == 0 {
            // A discard: shed high cards first, keeping the low ones that may go under the
            // declarer's later (4p instructions 15% fewer than low first, 7p 13%).
            push(candidates, true);
        } else if self.win_seat == self.declarer {
            // Keep the declarer's card winning, shedding the highest card under it (4p
            // instructions 5% fewer than the lowest first).
            push(candidates & !winners, true);
            push(winners, false);
        } else if !self.declarer_played() {
            // Keep low the card the declarer must duck: play low.
            push(candidates & !winners, false);
            push(winners, false);
        } else {
            // The trick is lost to the declarer: shed high cards.
            push(candidates, true);
        }
        (moves, count)
    }

    /// Whether the declarer has played to the trick in progress.
    fn declarer_played(&self) -> bool {
        let offset = (self.declarer + self.players - self.leader) % self.players;
        offset < self.trick_len
    }

    /// The cards of `seat`'s hand that some other live card of the same suit outranks.
    fn beaten_by_others(&self, seat: usize) -> u64 {
        let others = self.live & !self.hands[seat];
        self.hands[seat] & bits::below_tops(others)
    }
}

/// The lowest card of each run of `hand`'s cards that are adjacent among the `live` cards
/// (gone cards between them do not count). The cards of a run are equivalent, so searching one
/// of them is enough.
#[inline]
pub(super) fn run_bottoms(hand: u64, live: u64) -> u64 {
    // Adding the dead cards to each card's upper neighbour carries through the dead run above
    // it and lands on the next live card up; bit 15 of a lane is never dead, so no carry
    // crosses into the next suit.
    let dead = bits::CARDS & !live;
    let landing = ((hand << 1).wrapping_add(dead)) & !dead;
    hand & !landing
}

/// The bottoms (of `bottoms`, the searched cards of `hand`) of the runs that reach from below
/// the lowest card of `relevant` in their suit up to it. Such a run's cards are equivalent
/// only while the cards between them are exactly as now, so its bottom becomes relevant too;
/// a run wholly below stays small, and wholly above is kept exactly.
pub(super) fn straddling_runs(bottoms: u64, hand: u64, live: u64, relevant: u64) -> u64 {
    let others = live & !hand;
    let mut marked = 0;
    for lane in 0..4 {
        let shift = 16 * lane;
        let rel = bits::lane_bits(relevant, lane);
        if rel == 0 {
            continue;
        }
        let lowest = rel.trailing_zeros();
        let mut below = bottoms >> shift & bits::below(lowest);
        while below != 0 {
            let bottom = below.trailing_zeros();
            below = bits::clear_lowest(below);
            // The run reaches the lowest relevant card if no other seat's card lies between.
            let between = (1u64 << (lowest + 1)) - (1u64 << bottom);
            if others >> shift & between == 0 {
                marked |= 1u64 << (bottom + shift);
            }
        }
    }
    marked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_keep_their_lowest_card() {
        // Hand 4, 6, 9 of clubs; 5 is gone, 7 and 8 are live elsewhere: {4, 6} are one run.
        let hand = 1 << 4 | 1 << 6 | 1 << 9;
        let live = hand | 1 << 7 | 1 << 8 | 1 << 12;
        assert_eq!(run_bottoms(hand, live), 1 << 4 | 1 << 9);
        // The ace of clubs and the two of diamonds are not a run.
        let hand = 1 << 14 | 1 << 18;
        assert_eq!(run_bottoms(hand, hand), hand);
    }
}
