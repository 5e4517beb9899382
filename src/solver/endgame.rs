//! A plain search for small endings: [`endgame_can_make`].
//!
//! With a few tricks left the game tree is small, and the full solver's machinery (sure-trick
//! bounds, a transposition table keyed on winning ranks, move ordering) costs more than the
//! nodes it saves. This search keeps only what is free: boolean alpha-beta on a target, one
//! card per run of equivalent cards, and the trivial cut-offs (target reached, or more than the
//! tricks left). It answers exactly what [`Solver::can_make`](super::Solver::can_make) answers;
//! a test compares the two on random endings.

use super::order::run_bottoms;
use super::position::Position;
use crate::cards::bits;
use crate::rules::MAX_PLAYERS;

/// Whether the declarer can reach `tricks` more tricks from `position` whatever the defenders
/// do (at most that many in a misère), like [`Solver::can_make`](super::Solver::can_make), by a
/// plain search. Meant for endings of up to three tricks: its cost grows fast with more.
pub fn endgame_can_make(position: &Position, tricks: u8) -> bool {
    let mut ending = Ending::new(position);
    let left = i32::from(position.tricks_left());
    let credited = if position.misere {
        left - i32::from(tricks)
    } else {
        i32::from(tricks)
    };
    ending.reach(credited)
}

/// The search state: hands as card bits, the trick in progress.
struct Ending {
    hands: [u64; MAX_PLAYERS],
    players: usize,
    declarer: usize,
    misere: bool,
    trumps: u64,
    live: u64,
    leader: usize,
    trick_len: usize,
    led: u64,
    win_card: u32,
    win_seat: usize,
}

impl Ending {
    fn new(position: &Position) -> Ending {
        let players = position.players;
        let mut hands = [0u64; MAX_PLAYERS];
        for (h, set) in hands.iter_mut().zip(&position.hands[..players]) {
            *h = set.bits();
        }
        let mut ending = Ending {
            hands,
            players,
            declarer: position.declarer,
            misere: position.misere,
            trumps: position
                .trump
                .map_or(0, |t| bits::lane_mask(u32::from(t as u8))),
            live: hands.iter().fold(0, |a, h| a | h),
            leader: position.leader,
            trick_len: 0,
            led: 0,
            win_card: 0,
            win_seat: 0,
        };
        for (i, card) in position.trick().iter().enumerate() {
            let seat = (position.leader + i) % players;
            ending.live |= card.set().bits();
            ending.place(seat, u32::from(card.index()));
        }
        ending
    }

    /// Whether the declarer's side can take `target` more credited tricks (taken in a trump
    /// contract, lost in a misère).
    fn reach(&mut self, target: i32) -> bool {
        if self.trick_len == 0 {
            if target <= 0 {
                return true;
            }
            let left = self.hands[self.leader].count_ones() as i32;
            if target > left {
                return false;
            }
            if !self.misere && self.trumps != 0 {
                let (sure, lost) = self.top_trumps();
                if target <= sure {
                    return true;
                }
                if target > left - lost {
                    return false;
                }
            }
        }
        let mut seat = self.leader + self.trick_len;
        if seat >= self.players {
            seat -= self.players;
        }
        let hand = self.hands[seat];
        let follow = hand & self.led;
        let legal = if self.trick_len > 0 && follow != 0 {
            follow
        } else {
            hand
        };
        let maximising = seat == self.declarer;
        let candidates = run_bottoms(legal, self.live);
        let (first, descending) = self.first_tries(seat, candidates);
        for (set, down) in [(first, descending), (candidates & !first, false)] {
            let mut set = set;
            while set != 0 {
                let card = if down {
                    63 - set.leading_zeros()
                } else {
                    set.trailing_zeros()
                };
                set &= !(1u64 << card);
                if self.try_card(seat, card, target) == maximising {
                    return maximising;
                }
            }
        }
        !maximising
    }

    /// The cards to try first, likely to settle the node, and whether highest first. A
    /// seat whose side wants the trick leads high, or beats the winning card as cheaply as it
    /// can; a seat whose side has the trick already, or wants to lose it, plays low.
    fn first_tries(&self, seat: usize, candidates: u64) -> (u64, bool) {
        // The declarer's side wants credited tricks: tricks the declarer takes (in a misère,
        // tricks it loses); "wants the trick" below is from the seat's side.
        let declarers = seat == self.declarer;
        let wants_win = declarers != self.misere;
        if self.trick_len == 0 {
            return (candidates, wants_win);
        }
        let declarer_winning = self.win_seat == self.declarer;
        let side_has_it = declarer_winning == declarers;
        if side_has_it != wants_win {
            let winners = candidates & self.beating(self.win_card);
            (winners, false)
        } else {
            (candidates & !self.beating(self.win_card), false)
        }
    }

    /// The cards (of any hand) that would beat `card` if played now.
    fn beating(&self, card: u32) -> u64 {
        let lane = bits::lane_of_bit(card);
        let above = lane & bits::above(card);
        if self.trumps & lane != 0 {
            above
        } else {
            above | self.trumps
        }
    }

    /// Tricks the declarer surely takes and surely loses, from trumps no other side's trump
    /// beats: each such declarer trump wins the trick it is played to, whoever leads; so does
    /// each such trump of one defender (one card a trick, so the most any one defender holds).
    fn top_trumps(&self) -> (i32, i32) {
        let mine = self.hands[self.declarer] & self.trumps;
        let mut theirs = 0;
        for (seat, hand) in self.hands[..self.players].iter().enumerate() {
            if seat != self.declarer {
                theirs |= hand & self.trumps;
            }
        }
        let above = |cards: u64, other: u64| -> u64 {
            // The cards of `cards` above the highest of `other` (all of them when `other` is
            // empty).
            if other == 0 {
                cards
            } else {
                cards & bits::above(63 - other.leading_zeros())
            }
        };
        let sure = above(mine, theirs).count_ones() as i32;
        let mut lost = 0;
        for (seat, hand) in self.hands[..self.players].iter().enumerate() {
            if seat != self.declarer {
                lost = lost.max(above(hand & self.trumps, mine).count_ones() as i32);
            }
        }
        (sure, lost)
    }

    #[inline]
    fn beats(&self, card: u32, best: u32) -> bool {
        let same = card >> 4 == best >> 4;
        (same && card > best) || (!same && self.trumps >> card & 1 != 0)
    }

    fn place(&mut self, seat: usize, card: u32) {
        self.hands[seat] &= !(1u64 << card);
        if self.trick_len == 0 {
            self.led = bits::lane_of_bit(card);
            self.win_card = card;
            self.win_seat = seat;
        } else if self.beats(card, self.win_card) {
            self.win_card = card;
            self.win_seat = seat;
        }
        self.trick_len += 1;
    }

    /// Plays `card` for `seat`, searches on, and takes the card back.
    fn try_card(&mut self, seat: usize, card: u32, target: i32) -> bool {
        let saved = (self.led, self.win_card, self.win_seat);
        self.place(seat, card);
        let reached = if self.trick_len < self.players {
            self.reach(target)
        } else {
            let (leader, live) = (self.leader, self.live);
            let credit = i32::from((self.win_seat == self.declarer) != self.misere);
            self.live = self.hands[..self.players].iter().fold(0, |a, h| a | h);
            self.leader = self.win_seat;
            self.trick_len = 0;
            let reached = self.reach(target - credit);
            self.trick_len = self.players;
            self.leader = leader;
            self.live = live;
            reached
        };
        self.trick_len -= 1;
        self.hands[seat] |= 1u64 << card;
        (self.led, self.win_card, self.win_seat) = saved;
        reached
    }
}
