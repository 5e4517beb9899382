//! The last two tricks solved at once, every follower's choice evaluated side by side.
//!
//! At a trick start two tricks from the end every seat holds two cards, and once the first of
//! the two is played the last is forced. So the game is the first trick's choices alone: the
//! leader's card, then each follower's (at most two legal cards). For one lead, a *profile*
//! fixes every follower's choice, one bit each: bit `j` of a profile's index is the choice of
//! the follower `j` seats before the trick's last (set: its higher card). With at most seven
//! players a lead's profiles fit the bits of one `u64`, so the profiles in which a card is
//! played are a mask, and so are those in which a seat wins a trick: one pass over the cards
//! that could win each trick, highest first, finds both tricks' winners in every profile. The
//! search over the followers is then one shift and combine per follower, from the last up.
//!
//! The answer and the relevant cards are exactly those of the plain search that tries every
//! legal card, lowest first, and stops at the first that settles a node
//! (`Search::plain_reference`, which the tests compare with): the relevant cards are the
//! marks of that search's proof (each trick's winner that beat a card of its suit), which the
//! same masks give once the proof's profiles are known. At six and seven players it replaces
//! the card-by-card search of a trump contract's last two tricks where the bounds and the table
//! leave them open (`TWO_AT_ONCE_FROM` in `search.rs`): that search's cost grows with the
//! defenders' discards, this one's is fixed.

use super::search::{Search, wrap};
use crate::cards::bits;

/// The profiles in which the follower of bit `j` plays its higher card.
const CHOICE: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

/// The cards that win a trick in some profiles, each with those profiles.
#[derive(Default)]
struct Winners {
    cards: [u8; 16],
    wins: [u64; 16],
    len: usize,
}

impl Winners {
    #[inline(always)]
    fn push(&mut self, card: u32, wins: u64) {
        self.cards[self.len] = card as u8;
        self.wins[self.len] = wins;
        self.len += 1;
    }

    /// The winning cards that beat a card of their own suit in some profile of `profiles`
    /// (their rank mattered there), card `c` of `live` being in the trick in the profiles
    /// `in_trick(c)`. A winner is the highest card of its suit in the trick, so the cards it
    /// beat are its suit's lower ones.
    #[inline(always)]
    fn marks(&self, profiles: u64, live: u64, in_trick: impl Fn(u32) -> u64) -> u64 {
        let mut marks = 0;
        for i in 0..self.len {
            let card = u32::from(self.cards[i]);
            let wins = self.wins[i] & profiles;
            if wins == 0 {
                continue;
            }
            let mut lower = live & bits::lane_of_bit(card) & bits::below(card);
            while lower != 0 {
                let rival = lower.trailing_zeros();
                lower &= lower - 1;
                if wins & in_trick(rival) != 0 {
                    marks |= 1u64 << card;
                    break;
                }
            }
        }
        marks
    }
}

/// One two-trick position, seen from the leader: what both of its leads share.
struct Layout {
    /// The hands in playing order, the leader's first.
    hands: [u64; 7],
    /// The profile bit of the declarer's choice (none when it leads).
    declarer_bit: Option<usize>,
    declarer_hand: u64,
    trumps: u64,
    /// Every card of the hands.
    live: u64,
    target: i32,
    /// By card (bit index): the profiles in which it is played to the first trick (a card
    /// not played there is played to the last), and the other card of its hand.
    played: [u64; 64],
    partner: [u8; 64],
}

impl Search<'_> {
    /// Whether the declarer takes `target` (1 or 2) of the last two tricks, from their trick
    /// start, and the relevant cards of that answer; any contract but a misère (with a trump
    /// suit or none). One node.
    pub(super) fn two_tricks(&mut self, target: i32) -> (bool, u64) {
        // One copy per table size, so that the loops over the followers unroll.
        match self.players {
            3 => self.two_tricks_of::<2>(target),
            4 => self.two_tricks_of::<3>(target),
            5 => self.two_tricks_of::<4>(target),
            6 => self.two_tricks_of::<5>(target),
            _ => self.two_tricks_of::<6>(target),
        }
    }

    /// [`Search::two_tricks`] with `F` followers.
    fn two_tricks_of<const F: usize>(&mut self, target: i32) -> (bool, u64) {
        debug_assert_eq!(self.trick_len, 0);
        debug_assert!(!self.misere);
        debug_assert_eq!(self.players, F + 1);
        debug_assert!((1..=2).contains(&target));
        self.nodes += 1;
        let mut layout = Layout {
            hands: [0; 7],
            declarer_bit: None,
            declarer_hand: self.hands[self.declarer],
            trumps: self.trumps,
            live: self.live,
            target,
            played: [0; 64],
            partner: [0; 64],
        };
        for k in 0..=F {
            let seat = wrap(self.leader + k, F + 1);
            let hand = self.hands[seat];
            layout.hands[k] = hand;
            let (low, high) = (hand.trailing_zeros(), 63 - hand.leading_zeros());
            layout.partner[low as usize] = high as u8;
            layout.partner[high as usize] = low as u8;
            if seat == self.declarer && k > 0 {
                layout.declarer_bit = Some(F - k);
            }
        }
        let hand = layout.hands[0];
        let maximising = self.leader == self.declarer;
        let (reached, marks) = layout.after_lead::<F>(hand.trailing_zeros());
        if reached == maximising {
            return (reached, marks);
        }
        let (reached, more) = layout.after_lead::<F>(63 - hand.leading_zeros());
        if reached == maximising {
            return (reached, more);
        }
        (!maximising, marks | more)
    }
}

impl Layout {
    /// The two tricks after the leader leads `lead` (a bit index): the answer and the
    /// relevant cards of the plain search from there.
    fn after_lead<const F: usize>(&mut self, lead: u32) -> (bool, u64) {
        let all = every_profile(F);
        let led = bits::lane_of_bit(lead);
        self.played[lead as usize] = all;
        self.played[self.partner[lead as usize] as usize] = 0;
        for k in 1..=F {
            let hand = self.hands[k];
            let follow = hand & led;
            if follow != 0 && follow != hand {
                self.played[follow.trailing_zeros() as usize] = all;
                self.played[(hand ^ follow).trailing_zeros() as usize] = 0;
            } else {
                let higher = CHOICE[F - k] & all;
                self.played[hand.trailing_zeros() as usize] = all & !higher;
                self.played[63 - hand.leading_zeros() as usize] = higher;
            }
        }
        let played = &self.played;
        let mine = self.declarer_hand;

        // The first trick: its highest trump, else its highest card of the suit led.
        let mut first = Winners::default();
        let mut declarer_first = 0u64;
        // The profiles in which the last trick is led from each suit (the first's winner's
        // other card).
        let mut last_led = [0u64; 4];
        let mut taken = 0u64;
        for lane in [self.trumps, led & !self.trumps] {
            let mut rest = self.live & lane;
            while rest != 0 && taken != all {
                let card = 63 - rest.leading_zeros();
                rest ^= 1u64 << card;
                let here = played[card as usize];
                let wins = here & !taken;
                taken |= here;
                if wins != 0 {
                    if mine >> card & 1 != 0 {
                        declarer_first |= wins;
                    }
                    last_led[usize::from(self.partner[card as usize] >> 4)] |= wins;
                    first.push(card, wins);
                }
            }
        }

        // The last trick: every seat's other card; its highest trump, else its highest card
        // of the suit led.
        let kept = |c: u32| all & !played[c as usize];
        let mut last = Winners::default();
        let mut declarer_last = 0u64;
        let mut pass = |cards: u64, region: u64| {
            let mut settled = !region;
            let mut rest = cards;
            while rest != 0 && settled != u64::MAX {
                let card = 63 - rest.leading_zeros();
                rest ^= 1u64 << card;
                let here = kept(card);
                let wins = here & !settled;
                settled |= here;
                if wins != 0 {
                    if mine >> card & 1 != 0 {
                        declarer_last |= wins;
                    }
                    last.push(card, wins);
                }
            }
            !settled
        };
        // Profiles in which no trump is left: the suit led decides.
        let no_trump = if self.trumps != 0 {
            pass(self.live & self.trumps, all)
        } else {
            all
        };
        for (lane, &profiles) in last_led.iter().enumerate() {
            let region = profiles & no_trump;
            if region != 0 {
                pass(self.live & bits::lane_mask(lane as u32), region);
            }
        }

        let reached = if self.target == 1 {
            declarer_first | declarer_last
        } else {
            declarer_first & declarer_last
        };

        // The followers from the last up: the declarer takes the better of its two choices,
        // a defender the worse. `values[j]` holds the values before follower `j` chooses.
        let declarer_bit = self.declarer_bit.unwrap_or(usize::MAX);
        let mut values = [0u64; 7];
        let mut value = reached;
        for (j, slot) in values.iter_mut().enumerate().take(F) {
            *slot = value;
            value = if j == declarer_bit {
                value | value >> (1 << j)
            } else {
                value & value >> (1 << j)
            };
        }
        values[F] = value;

        // The proof of the plain search: at a node that settles, its first child that does;
        // else every child. Its profiles are where the marks are read. From the first follower
        // down, a node of the proof goes on to its lower card's child where `lower` is set and
        // to its higher card's (`j` bits on) where `higher` is.
        let mut proof = 1u64;
        for j in (0..F).rev() {
            let (node, child) = (values[j + 1], values[j]);
            let (lower, higher) = if j == declarer_bit {
                (!node | child, !node | !child)
            } else {
                (node | !child, node | child)
            };
            proof = (proof & lower) | (proof & higher) << (1 << j);
        }
        // The last trick was played only where the first left it to decide.
        let deciding = if self.target == 1 {
            !declarer_first
        } else {
            declarer_first
        };
        let marks = first.marks(proof, self.live, |c| played[c as usize])
            | last.marks(proof & deciding, self.live, kept);
        (value & 1 != 0, marks)
    }
}

/// Every profile of `followers` followers' choices.
const fn every_profile(followers: usize) -> u64 {
    if followers == 6 {
        u64::MAX
    } else {
        (1u64 << (1 << followers)) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::base_rng;
    use crate::solver::search::tests::two_trick_position;
    use crate::solver::table::Table;
    use rand_core::Rng;

    /// The two tricks solved at once give the plain search's answer and relevant cards, on
    /// random positions at three to seven players, any trump or none, either target.
    #[test]
    fn two_tricks_match_the_plain_search() {
        let mut rng = base_rng(45);
        let mut table = Table::new(10, true);
        for _ in 0..40_000 {
            let players = 3 + (rng.next_u64() % 5) as usize;
            let Some(position) = two_trick_position(&mut rng, players) else {
                continue;
            };
            let mut search = Search::new(&mut table, &position);
            for target in 1..=2 {
                let at_once = search.two_tricks(target);
                let reference = search.plain_reference(target);
                assert_eq!(at_once, reference, "{position:?}, target {target}");
            }
        }
    }
}
