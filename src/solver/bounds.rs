//! Sure-trick bounds: what settles a query of the search without searching on.
//!
//! The bounds (trump contracts only) are floors on the declarer's tricks and on the defenders'
//! trumps. They are checked at trick starts and at every card of a trick, before the declarer
//! has played as well as after: the defenders' discards multiply with six of them (seven
//! players), so settling a trick early is what keeps the slowest deals fast (at four and five
//! players, where they cost more than they save in most of a trick, only after its first card
//! and, in the third-last trick, before its last: `Search::bounds_mid_trick`). A floor for the
//! tricks after the one in progress assumes the worst of what is still to come in it: a
//! defender that must follow suit plays its lowest card of the suit, one that cannot keeps all
//! its cards, and the declarer spends the card it can best spare, or wins the trick with a
//! card nothing to come can beat and leads next.
//!
//! At trick starts a ceiling joins them: the declarer's side cards that defenders holding
//! higher cards of the suit are sure to capture ([`Search::side_captures`]). Most of the
//! search's nodes prove that the declarer cannot reach a target, and the defenders' trumps
//! alone settle few of those (PIMC at four players: 15% fewer nodes with the ceiling). In the
//! middle of a trick it settled too few nodes to pay for itself.

use super::search::Search;
use crate::cards::bits;
use crate::rules::MAX_PLAYERS;

impl Search<'_> {
    /// In a trump contract, bounds on the tricks still to come may settle the query in the
    /// middle of a trick without playing the rest of it (whose discards would otherwise
    /// multiply), with the cards whose ranks they compared.
    pub(super) fn settled_mid_trick(&self, target: i32) -> Option<(bool, u64)> {
        if self.trumps == 0 {
            return None;
        }
        let n = self.players;
        let mine = self.hands[self.declarer];
        // The defenders' cards after this trick: one that follows suit spends its lowest card
        // of the suit led, at worst for the declarer; one that cannot (`discarding`) may
        // spend any card, so the floors keep all of them.
        let mut theirs = self.live & !mine & !self.trick_cards;
        let mut spending = 0u64;
        let mut discarding = 0u64;
        // The cards the defenders still to play may play to this trick.
        let mut to_come = 0u64;
        let mut to_play = false;
        let mut seat = self.leader + self.trick_len;
        for _ in self.trick_len..n {
            if seat >= n {
                seat -= n;
            }
            if seat == self.declarer {
                to_play = true;
            } else {
                spending |= 1 << seat;
                let hand = self.hands[seat];
                let follow = hand & self.led;
                if follow == 0 {
                    discarding |= 1 << seat;
                    to_come |= hand;
                } else {
                    to_come |= follow;
                    theirs &= !bits::lowest_bit(follow);
                }
            }
            seat += 1;
        }
        let can_win = if to_play {
            let legal = match mine & self.led {
                0 => mine,
                follow => follow,
            };
            if let Some(compared) =
                self.floor_before_play(target, legal, to_come, theirs, discarding)
            {
                return Some((true, compared));
            }
            legal & self.beating(self.win_card) != 0
        } else {
            // The declarer takes this trick for sure only if no card to come beats its card
            // (the winning card keeps those comparisons), and then leads to the next.
            let winning = self.win_seat == self.declarer;
            if winning && self.beating(self.win_card) & to_come == 0 {
                if let Some(compared) = self.floor(target - 1, mine, theirs, discarding, true) {
                    return Some((true, 1 << self.win_card | compared));
                }
            } else if let Some(compared) = self.floor(target, mine, theirs, discarding, false) {
                return Some((true, compared));
            }
            winning
        };
        // The leader has played to this trick, so its hand counts the tricks after it.
        let later = self.hands[self.leader].count_ones() as i32;
        if self.defenders_sure_of_more(spending, i32::from(can_win) + later - target) {
            // The defenders' floor compared trumps; the declarer's losing this trick, the
            // winning card with its cards.
            let lost = u64::from(!can_win) << self.win_card;
            return Some((false, lost | mine & self.trumps));
        }
        None
    }

    /// Whether the declarer, still to play to the trick with `legal` the cards it may play,
    /// is sure of `target` tricks from this one on, and the cards whose ranks that compared:
    /// it can spend the card that costs its later floors least, or win the trick with a card
    /// that beats the winning one and every card to come, and lead to the next.
    fn floor_before_play(
        &self,
        target: i32,
        legal: u64,
        to_come: u64,
        theirs: u64,
        discarding: u64,
    ) -> Option<u64> {
        let mine = self.hands[self.declarer];
        let side = legal & !self.trumps;
        let masters = bits::masters(side, theirs & !self.trumps);
        // The cheapest card: a side card that is no master, else a master, else the lowest
        // trump (the floors count only trumps and masters).
        let spare = if side & !masters != 0 {
            0
        } else if masters != 0 {
            bits::lowest_bit(masters)
        } else {
            bits::lowest_bit(legal)
        };
        if let Some(compared) = self.floor(target, mine & !spare, theirs, discarding, false) {
            return Some(compared);
        }
        let mut beating = legal & self.beating(self.win_card);
        let mut winners = 0;
        while beating != 0 {
            let card = beating.trailing_zeros();
            beating = bits::clear_lowest(beating);
            if self.beating(card) & to_come == 0 {
                winners |= 1 << card;
            }
        }
        if winners == 0 {
            return None;
        }
        // A side-suit winner costs the floors least, else the lowest trump.
        let side_winners = winners & !self.trumps;
        let pick = if side_winners != 0 {
            side_winners
        } else {
            winners
        };
        let card = pick.trailing_zeros();
        let compared = self.floor(target - 1, mine & !(1 << card), theirs, discarding, true)?;
        // The winner beat the winning card and every card to come: marking it keeps those
        // comparisons, and so does marking the defenders' top card of its suit if lower.
        let top = bits::suit_tops(theirs & bits::lane_of_bit(card));
        let mark = if top != 0 && top < 1 << card {
            top
        } else {
            1 << card
        };
        Some(compared | mark)
    }

    /// In a trump contract at a trick start, whether sure-trick bounds settle the query, with
    /// the cards whose ranks they compared.
    pub(super) fn sure_tricks(&self, target: i32, left: i32) -> Option<(bool, u64)> {
        let mine = self.hands[self.declarer];
        if self.defenders_sure_of_more(0, left - target) {
            return Some((false, mine & self.trumps));
        }
        if let Some(compared) = self.capped_below(target) {
            return Some((false, compared));
        }
        let theirs = self.live & !mine;
        let on_lead = self.leader == self.declarer;
        let compared = self.floor(target, mine, theirs, 0, on_lead)?;
        Some((true, compared))
    }

    /// Whether the declarer, holding `mine`, is sure of `target` tricks from the next trick
    /// start on (`theirs`: the defenders' cards then, but the seats of `discarding` spend a
    /// card of their choice on the trick in progress first), leading there if `on_lead`, and
    /// if so the cards whose ranks the floor compared. The floors are tried from the one that
    /// compares fewest cards, so that table entries above generalise most.
    ///
    /// Inlined, with the floors on lead apart: most calls settle or fail on the cheap checks
    /// first, and a call's setup cost more than they do.
    #[inline(always)]
    fn floor(
        &self,
        target: i32,
        mine: u64,
        theirs: u64,
        discarding: u64,
        on_lead: bool,
    ) -> Option<u64> {
        if target <= 0 {
            return Some(0);
        }
        if let Some(compared) = self.any_leader_floor(target, mine, theirs) {
            return Some(compared);
        }
        if !on_lead {
            return None;
        }
        self.lead_floor(target, mine, theirs, discarding)
    }

    /// [`Search::floor`]'s floors for a declarer on lead, once the floor for any leader has
    /// failed.
    #[inline(never)]
    fn lead_floor(&self, target: i32, mine: u64, theirs: u64, discarding: u64) -> Option<u64> {
        let my_trumps = mine & self.trumps;
        let their_trumps = theirs & self.trumps;
        let masters = bits::masters(mine & !self.trumps, theirs & !self.trumps);
        if ((my_trumps | masters).count_ones() as i32) < target {
            return None;
        }
        // Masters compared with the defenders' top card of their suits.
        let compared = bits::suit_tops(theirs & bits::whole_lanes(masters));
        if their_trumps == 0 {
            // Every master wins when led.
            return Some(compared);
        }
        // Trumps above every defender's trump win whenever they are led, and leading them
        // draws the defenders' trumps if there are enough of them; then every trump and
        // master wins. Otherwise a master is safe to lead as long as every defender holding a
        // trump still holds a card of its suit.
        let top = 63 - their_trumps.leading_zeros();
        let sure = (my_trumps >> top).count_ones() as i32;
        let mut longest = 0;
        // The fewest cards of each suit a defender holding a trump is sure to keep, and the
        // defenders' trumps after each has followed to a trump lead with its lowest.
        let mut shortest = [u32::MAX; 4];
        let mut drawn = theirs;
        for seat in 0..self.players {
            let hand = self.hands[seat] & theirs;
            let trumps = hand & self.trumps;
            if seat == self.declarer || trumps == 0 {
                continue;
            }
            drawn &= !bits::lowest_bit(trumps);
            longest = longest.max(trumps.count_ones() as i32);
            let spent = (discarding >> seat & 1) as u32;
            for (lane, short) in shortest.iter_mut().enumerate() {
                let length = bits::lane_bits(hand, lane as u32).count_ones();
                *short = (*short).min(length.saturating_sub(spent));
            }
        }
        if sure >= longest {
            return Some(compared | 1 << top);
        }
        let mut safe = sure;
        for (lane, short) in shortest.iter().enumerate() {
            let cashing = bits::lane_bits(masters, lane as u32).count_ones();
            safe += cashing.min(*short) as i32;
        }
        if safe >= target {
            return Some(compared | 1 << top);
        }
        // Leading its lowest trump makes every defender holding a trump follow with one
        // (keeping its higher ones, at worst for the declarer); whoever leads next, the
        // floors then hold. The discards of the others only help, and a seat that spends a
        // trump on the trick in progress first only has fewer.
        if my_trumps.count_ones() >= 2 {
            let led = bits::lowest_bit(my_trumps);
            return self.any_leader_floor(target, mine & !led, drawn);
        }
        None
    }

    /// Whether the declarer, holding `mine`, is sure of `target` tricks from the next trick
    /// start on whoever leads there (`theirs`: the defenders' cards then), and if so the cards
    /// whose ranks the floor compared. Inlined: it runs at nearly every node, and mostly fails
    /// at once.
    #[inline(always)]
    fn any_leader_floor(&self, target: i32, mine: u64, theirs: u64) -> Option<u64> {
        let my_trumps = mine & self.trumps;
        let their_trumps = theirs & self.trumps;
        // Every card is played before the deal ends, and a declarer trump loses only to a
        // higher defender trump played to the same trick, each of which beats one at most.
        // (Too few trumps fall short whatever they lose: the matching is skipped.)
        let count = my_trumps.count_ones() as i32;
        if count >= target && count - beatable(my_trumps, their_trumps) >= target {
            return Some(my_trumps);
        }
        if my_trumps == 0 || their_trumps != 0 {
            return None;
        }
        // With no defender trump: until it first wins a trick it follows suit (with a master
        // of the suit led if it holds one, which wins) or ruffs (and wins), so it spends no
        // trump or master without winning; once on lead every trump and master wins.
        let masters = bits::masters(mine & !self.trumps, theirs & !self.trumps);
        let floor = (my_trumps | masters).count_ones() as i32;
        (floor >= target).then(|| bits::suit_tops(theirs & bits::whole_lanes(masters)))
    }

    /// At a trick start (not in a misère; at no trump every card is a side card), whether the
    /// declarer is sure to take fewer than `target` tricks because defenders capture its side
    /// cards, and if so the cards whose
    /// ranks that compared (see [`Search::side_captures`]).
    fn capped_below(&self, target: i32) -> Option<u64> {
        let mine = self.hands[self.declarer];
        let side = mine & !self.trumps;
        // The cards above the declarer's highest in each side suit it holds.
        let above = bits::whole_lanes(side) & !bits::smear_down(side);
        // Each card takes one trick at most, and only side cards of suits where a defender
        // holds a higher card can be captured: often too few to matter.
        let spare = mine.count_ones() as i32 - target;
        let exposed = side & bits::whole_lanes(self.live & !mine & above);
        if exposed.count_ones() as i32 <= spare {
            return None;
        }
        let (captured, compared) = self.side_captures(side, above);
        (captured > spare).then_some(compared)
    }

    /// How many of the declarer's side cards `side` the defenders are sure to capture, and the
    /// cards whose ranks that compared; `above` is the cards above the declarer's highest in
    /// each of those suits.
    ///
    /// A defender holding `h` cards of a side suit above the declarer's highest there, `n`
    /// cards, captures `min(h, n)` of them: it plays its highest card of the suit whenever the
    /// suit is led, and spends those cards no other way while it holds any other card. A side
    /// card wins only a trick of its own suit, so before one of the declarer's can win, the
    /// defender must have spent all `h` on earlier leads of the suit, to each of which the
    /// declarer, still holding the suit, played a card of it and lost. Should the defender
    /// hold nothing but such cards and have to discard one, it holds as many as there are
    /// tricks left, at least the declarer's cards of the suit, and from then on beats every
    /// one of them. That argument is for a defender holding high cards of one suit, so each
    /// defender is given one suit (greedily, the largest capture first): one given two could
    /// have to discard from either. The comparisons kept: the declarer's highest card of each
    /// suit counted (the defender's cards above it then stay its own).
    fn side_captures(&self, side: u64, above: u64) -> (i32, u64) {
        let lengths = bits::lane_lengths(side);
        // Each defender's captures, four 16-bit lanes packed as the lengths are.
        let mut captures = [0u64; MAX_PLAYERS];
        for (seat, slot) in captures.iter_mut().enumerate().take(self.players) {
            if seat != self.declarer {
                *slot = lane_min(bits::lane_lengths(self.hands[seat] & above), lengths);
            }
        }
        let (mut captured, mut compared) = (0, 0);
        let mut lanes_free = u64::MAX;
        loop {
            let mut best = (0, 0, 0);
            for (seat, &lanes) in captures.iter().enumerate().take(self.players) {
                // Only the seat's nonzero lanes, from the lowest (most are zero): the same first
                // largest as a scan of every lane.
                let mut lanes = lanes & lanes_free;
                while lanes != 0 {
                    let lane = lanes.trailing_zeros() / 16;
                    let count = (lanes >> (16 * lane) & bits::LANE) as i32;
                    lanes &= !bits::lane_mask(lane);
                    if count > best.0 {
                        best = (count, seat, lane);
                    }
                }
            }
            let (count, seat, lane) = best;
            if count == 0 {
                return (captured, compared);
            }
            captured += count;
            compared |= bits::suit_tops(side & bits::lane_mask(lane));
            captures[seat] = 0;
            lanes_free &= !bits::lane_mask(lane);
        }
    }

    /// Whether the defenders are sure of more than `spare` tricks ([`Search::defender_floor`]),
    /// seen at once when they hold too few trumps (most calls). Inlined, the floor apart: the
    /// cheap check then costs no call and no saved registers (1% fewer instructions in PIMC).
    #[inline(always)]
    fn defenders_sure_of_more(&self, spending: u64, spare: i32) -> bool {
        if spare < 0 {
            return true;
        }
        // Their floor counts one defender's trumps: never more than all of theirs.
        let theirs = self.live & !self.hands[self.declarer] & self.trumps;
        theirs.count_ones() as i32 > spare && self.defender_floor(spending) > spare
    }

    /// Tricks the defenders are sure of in a trump contract: the trumps of one defender each
    /// take the trick they are played to unless a higher declarer trump beats them there (each
    /// declarer trump can beat one); a seat still to play to the trick in progress (`spending`)
    /// spends a card on it first.
    #[inline(never)]
    fn defender_floor(&self, spending: u64) -> i32 {
        let mine = self.hands[self.declarer] & self.trumps;
        let mut most = 0;
        for seat in 0..self.players {
            let theirs = self.hands[seat] & self.trumps;
            if seat != self.declarer && theirs != 0 {
                let spent = (spending >> seat & 1) as i32;
                // The matching only lowers the count: skipped when the count cannot beat `most`.
                let count = theirs.count_ones() as i32 - spent;
                if count > most {
                    most = most.max(count - beatable(theirs, mine));
                }
            }
        }
        most
    }
}

/// The smaller of each pair of 16-bit lanes of `a` and `b` (values below 2^15).
#[inline]
fn lane_min(a: u64, b: u64) -> u64 {
    // Bit 15 of each lane of (a | top) - b says whether a >= b there.
    let a_ge = ((a | bits::LANE_TOPS).wrapping_sub(b) & bits::LANE_TOPS) >> 15;
    let pick_b = a_ge * bits::LANE;
    (b & pick_b) | (a & !pick_b)
}

/// The most cards of `victims` that `killers` can beat one for one, each killer beating one
/// lower victim (both sets within one suit): greedily, each victim from the lowest up takes
/// the lowest killer above it still free.
fn beatable(victims: u64, killers: u64) -> i32 {
    let mut free = killers;
    let mut victims = victims;
    let mut beaten = 0;
    while victims != 0 && free != 0 {
        let victim = victims.trailing_zeros();
        victims = bits::clear_lowest(victims);
        let above = free & bits::above(victim);
        if above != 0 {
            free &= !bits::lowest_bit(above);
            beaten += 1;
        }
    }
    beaten
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_min_takes_the_smaller_of_each_lane() {
        // Lanes from the lowest: 3, 7, 0, 13 and 5, 2, 4, 13.
        let a = 3 | 7 << 16 | 13 << 48;
        let b = 5 | 2 << 16 | 4 << 32 | 13 << 48;
        assert_eq!(lane_min(a, b), 3 | 2 << 16 | 13 << 48);
        assert_eq!(lane_min(b, a), lane_min(a, b));
        assert_eq!(lane_min(0, b), 0);
    }
}
