//! The boolean alpha-beta search: can the declarer's side reach a target?
//!
//! The search counts *credited* tricks: tricks the declarer takes in a trump contract, tricks
//! it loses in a misère. Either way the declarer wants more of them and the defenders fewer, so
//! one search serves both. It works card by card with make/unmake on a small mutable state,
//! stops at the first card that settles a node (an OR node for the declarer, an AND node for a
//! defender), searches one card of each run of equivalent cards, and at trick starts consults
//! sure-trick bounds ([`super::bounds`]) and the transposition table ([`super::table`]); the move
//! ordering and the equivalent cards are in [`super::order`]. The last two tricks of a trump
//! contract at up to five players are searched plainly ([`Search::last_two_tricks`]); at six
//! and seven, those the bounds and the table leave open are solved at once
//! ([`super::two_tricks`]).
//!
//! Every result comes with its *relevant* cards: live cards such that the result holds for
//! every position that agrees on the owners of the live cards from the lowest relevant card
//! of each suit up, and otherwise only on each seat's suit lengths (see [`super::table`]). A
//! rank comparison the result relied on is kept by marking either card of the pair, since a
//! marked card sits above every card treated as small. So a trick winner that beat a card of
//! its own suit is marked, a bound that settled a node marks the cards it compared, and a node
//! that had to refute every card marks the bottom of a run of equivalent cards that reaches up
//! among its relevant cards (below them any small card of a seat stands for any other).
//!
//! The same fact prunes a node's own cards: once a card has been refuted, and its result
//! relied on no card of its suit at or below it, every other card of the seat in that suit
//! below the lowest card the result relied on is refuted too (the two positions differ only in
//! which of two small cards of one seat and suit is on the table), so it is not searched. A
//! solver with exact keys ([`super::Solver::with_exact_keys`], the tests' reference) skips
//! nothing this way.

use super::order::{run_bottoms, straddling_runs};
use super::position::Position;
use super::table::{KeyContext, Table};
use crate::cards::bits;
use crate::rules::MAX_PLAYERS;

/// The largest table whose last two tricks of a trump contract are searched plainly
/// ([`Search::last_two_tricks`]). There the bounds and the table cost more than the nodes they
/// save (four players: PIMC 12% less time, five 10%); with six or seven the defenders' discards
/// multiply and the bounds are what keep those tricks small (three to seven times slower
/// without them), and a misère's bounds pay for themselves at five (solves 50% slower).
const PLAIN_LAST_TWO_UP_TO: usize = 5;

/// The smallest table whose last two tricks of a trump contract, when the bounds and the table
/// leave them open, are solved at once ([`super::two_tricks`]) rather than card by card: at six
/// and seven players a searched two-trick position cost about 3,600 instructions, solving it at
/// once about 1,350 (a close seven-player `hand` 15% fewer instructions, 26% less time). Not in
/// a misère, whose search there leans on the table: solved at once, a seven-player misère hand
/// took 35% more instructions (its table found fewer entries).
const TWO_AT_ONCE_FROM: usize = 6;

/// The table sizes whose trump contracts check the sure-trick bounds at only some cards of a
/// trick ([`Search::bounds_mid_trick`]).
const CHECKS_SOME_CARDS: std::ops::RangeInclusive<usize> = 4..=5;

/// The mutable state of one search.
pub(super) struct Search<'t> {
    pub(super) table: &'t mut Table,
    pub(super) ctx: KeyContext,
    pub(super) hands: [u64; MAX_PLAYERS],
    pub(super) players: usize,
    pub(super) declarer: usize,
    pub(super) misere: bool,
    /// The trump lane (empty in no-trump).
    pub(super) trumps: u64,
    /// Cards not yet gathered in a completed trick: the hands and the trick in progress.
    pub(super) live: u64,
    pub(super) leader: usize,
    pub(super) trick_len: usize,
    /// The lane of the suit led (valid while a trick is in progress).
    pub(super) led: u64,
    /// The cards played to the trick in progress.
    pub(super) trick_cards: u64,
    /// The card winning the trick in progress (its bit index) and its seat.
    pub(super) win_card: u32,
    pub(super) win_seat: usize,
    /// Nodes visited, for measurements and budgets.
    pub(super) nodes: u64,
    /// The node count at which the search gives up (see [`Search::aborted`]).
    pub(super) limit: u64,
    /// Set when the search gave up on reaching `limit`: its answer means nothing then.
    pub(super) aborted: bool,
}

impl<'t> Search<'t> {
    /// The state of `position`, its trick in progress replayed. Built in locals and returned
    /// as one struct expression, so that it is written in place rather than copied out (a
    /// memcpy per query in PIMC).
    pub(super) fn new(table: &'t mut Table, position: &Position) -> Search<'t> {
        let players = position.players;
        // A position's seats beyond its table hold no cards: all seven copied as they are.
        let hands = position.hands.map(|h| h.bits());
        debug_assert!(hands[players..].iter().all(|&h| h == 0));
        let trump = position.trump.map(|s| s as u8);
        let trumps = trump.map_or(0, |t| bits::lane_mask(u32::from(t)));
        // The trick in progress, as `place` would leave it (its cards are in no hand).
        let mut live = hands.iter().fold(0, |a, h| a | h);
        let (mut led, mut trick_cards, mut win_card, mut win_seat) = (0, 0, 0, 0);
        for (i, card) in position.trick().iter().enumerate() {
            let seat = wrap(position.leader + i, players);
            let index = u32::from(card.index());
            live |= card.set().bits();
            trick_cards |= card.set().bits();
            if i == 0 {
                led = bits::lane_of_bit(index);
                (win_card, win_seat) = (index, seat);
            } else if beats(trumps, index, win_card) {
                (win_card, win_seat) = (index, seat);
            }
        }
        Search {
            table,
            ctx: KeyContext::new(players, position.declarer, position.misere, trump),
            hands,
            players,
            declarer: position.declarer,
            misere: position.misere,
            trumps,
            live,
            leader: position.leader,
            trick_len: position.trick_len,
            led,
            trick_cards,
            win_card,
            win_seat,
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
        }
    }

    /// Whether the declarer's side can take at least `target` more credited tricks.
    pub(super) fn reach(&mut self, target: i32) -> bool {
        self.node(target).0
    }

    /// Whether the declarer's side can take at least `target` more credited tricks, and the
    /// relevant cards of that answer.
    fn node(&mut self, target: i32) -> (bool, u64) {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
            return (false, 0);
        }
        if self.trick_len == 0 {
            return self.trick_start(target);
        }
        let settled = if self.misere {
            self.misere_mid_trick(target)
        } else if self.bounds_mid_trick() {
            self.settled_mid_trick(target)
        } else {
            None
        };
        if let Some(settled) = settled {
            return settled;
        }
        self.card_node(target)
    }

    /// Whether a trump contract's sure-trick bounds are checked at this card of the trick in
    /// progress. At four and five players only after the lead, and before the last card of
    /// the third-last trick: elsewhere the checks cost more than they save (PIMC at four
    /// players, against checking at every card: the middle of a trick 4% fewer instructions
    /// and 7-8% less time, the last card of the earlier tricks 2.5% fewer instructions more;
    /// at five 6% and 2.3%; at three players the third card is the last, where they pay). At
    /// six and seven, where the defenders' discards multiply, every card keeps them. A query's
    /// first node always checks them: settling there saves the whole search (1% fewer
    /// instructions).
    #[inline]
    fn bounds_mid_trick(&self) -> bool {
        if self.nodes == 1 || !CHECKS_SOME_CARDS.contains(&self.players) {
            return true;
        }
        // The leader has played: its hand counts the tricks after this one.
        let later = self.hands[self.leader].count_ones();
        self.trick_len == 1 || (self.trick_len == self.players - 1 && later < 3)
    }

    fn tricks_left(&self) -> i32 {
        self.hands[self.leader].count_ones() as i32
    }

    fn trick_start(&mut self, target: i32) -> (bool, u64) {
        if target <= 0 {
            return (true, 0);
        }
        let left = self.tricks_left();
        if target > left {
            return (false, 0);
        }
        if left == 1 {
            let (credit, winner) = self.last_trick();
            return (credit >= target, winner);
        }
        if left == 2 && !self.misere && self.players <= PLAIN_LAST_TWO_UP_TO {
            return self.last_two_tricks(target);
        }
        // In a misère at up to five players the bounds cost more than a probe, so the table
        // comes first (4p instructions 7% fewer, 5p 11%). With more players a hit's marks
        // (every live card from its lowest relevant one of a suit up) generalise less than
        // the bounds' own, and the slowest deals grow (7p: most nodes a deal 0.4M to 1.6M).
        // Except two tricks from the end, where the bounds settled 0.3% of the starts and the
        // table 87% (7p instructions 6-8% fewer, the slowest deals faster too).
        let probe_first = self.misere && (self.players <= 5 || left <= 2);
        let early = probe_first.then(|| self.ctx.key(&self.hands, self.live, self.leader));
        if let Some(key) = &early
            && let Some(hit) = self.table.probe(key, target)
        {
            return hit;
        }
        let settled = if self.misere {
            self.misere_trick_start(target, left)
        } else {
            self.sure_tricks(target, left)
        };
        if let Some(settled) = settled {
            return settled;
        }
        let key = match early {
            Some(key) => key,
            None => {
                let key = self.ctx.key(&self.hands, self.live, self.leader);
                if let Some(hit) = self.table.probe(&key, target) {
                    return hit;
                }
                key
            }
        };
        let (reached, relevant) = if left == 2 && !self.misere && self.players >= TWO_AT_ONCE_FROM {
            self.two_tricks(target)
        } else {
            self.card_node(target)
        };
        if self.aborted {
            return (false, 0);
        }
        if reached {
            self.table.store(&key, relevant, target as u8, left as u8);
        } else {
            self.table.store(&key, relevant, 0, (target - 1) as u8);
        }
        (reached, relevant)
    }

    /// The last two tricks by a plain search from their trick start: every legal card tried,
    /// lowest first, no bounds, no table, no equivalent cards skipped (see [`PlainLastTwo`]).
    /// The relevant cards are gathered as [`Search::card_node`] gathers them (a settling
    /// card's, else every card's, and each trick's winner that beat a card of its suit), which
    /// needs no correction since every card is tried. Each card node of the first trick counts
    /// as a node.
    fn last_two_tricks(&mut self, target: i32) -> (bool, u64) {
        debug_assert_eq!(self.trick_len, 0);
        let mut plain = PlainLastTwo {
            hands: &self.hands,
            players: self.players,
            leader: self.leader,
            second_last: wrap(self.leader + self.players - 2, self.players),
            declarer: self.declarer,
            declarer_hand: self.hands[self.declarer],
            trumps: self.trumps,
            live: self.live,
            target,
            led: 0,
            nodes: 0,
        };
        let outcome = plain.lead();
        self.nodes += plain.nodes;
        outcome
    }

    /// The plain search of the last two tricks by make/unmake, as it was before
    /// [`PlainLastTwo`]: the reference its test compares with (answers, relevant cards and node
    /// counts), from a trick start or a card of the first of the two tricks.
    #[cfg(test)]
    pub(super) fn plain_reference(&mut self, target: i32) -> (bool, u64) {
        self.nodes += 1;
        let seat = self.to_play();
        let mut cards = self.legal(self.hands[seat]);
        let maximising = seat == self.declarer;
        let mut relevant = 0;
        while cards != 0 {
            let card = cards.trailing_zeros();
            cards &= cards - 1;
            let saved = (self.led, self.win_card, self.win_seat, self.trick_cards);
            self.place(seat, card);
            let (reached, below) = if self.trick_len < self.players {
                self.plain_reference(target)
            } else {
                self.after_first_of_two(target)
            };
            self.trick_len -= 1;
            self.hands[seat] |= 1u64 << card;
            (self.led, self.win_card, self.win_seat, self.trick_cards) = saved;
            if reached == maximising {
                return (reached, below);
            }
            relevant |= below;
        }
        (!maximising, relevant)
    }

    /// The first of the last two tricks complete: its credit, then the last trick, with the
    /// cards whose ranks decided them.
    #[cfg(test)]
    fn after_first_of_two(&mut self, target: i32) -> (bool, u64) {
        let winner = self.ranked_winner();
        let rest = target - self.credit(self.win_seat);
        if rest <= 0 {
            return (true, winner);
        }
        if rest > 1 {
            return (false, winner);
        }
        let (leader, live) = (self.leader, self.live);
        self.live &= !self.trick_cards;
        self.leader = self.win_seat;
        let (credit, last) = self.last_trick();
        self.leader = leader;
        self.live = live;
        (credit >= rest, winner | last)
    }

    /// The credit of the last trick, every seat holding one card, and its winning card if that
    /// beat a card of its own suit (the one rank compared).
    fn last_trick(&self) -> (i32, u64) {
        let mut best = self.hands[self.leader].trailing_zeros();
        let mut winner = self.leader;
        let mut seat = self.leader;
        for _ in 1..self.players {
            // The next seat round the table, without a division.
            seat = wrap(seat + 1, self.players);
            let card = self.hands[seat].trailing_zeros();
            if self.beats(card, best) {
                best = card;
                winner = seat;
            }
        }
        let lane = bits::lane_of_bit(best);
        let ranked = (self.live & lane).count_ones() > 1;
        (self.credit(winner), u64::from(ranked) << best)
    }

    #[inline]
    pub(super) fn credit(&self, winner: usize) -> i32 {
        i32::from((winner == self.declarer) != self.misere)
    }

    #[inline]
    fn beats(&self, card: u32, best: u32) -> bool {
        beats(self.trumps, card, best)
    }

    /// Puts `card` (a bit index) from `seat` on the table.
    #[inline]
    fn place(&mut self, seat: usize, card: u32) {
        self.hands[seat] &= !(1u64 << card);
        self.trick_cards |= 1u64 << card;
        if self.trick_len == 0 {
            self.trick_cards = 1u64 << card;
            self.led = bits::lane_of_bit(card);
            self.win_card = card;
            self.win_seat = seat;
        } else if self.beats(card, self.win_card) {
            self.win_card = card;
            self.win_seat = seat;
        }
        self.trick_len += 1;
    }

    fn card_node(&mut self, target: i32) -> (bool, u64) {
        let seat = self.to_play();
        let hand = self.hands[seat];
        let legal = self.legal(hand);
        let candidates = run_bottoms(legal, self.live);
        let (moves, count) = self.order(seat, candidates);
        let maximising = seat == self.declarer;
        let mut relevant = 0;
        // The cards a refuted card stands for: of its suit, below the lowest card its result
        // relied on, as it is (see the module's note).
        let mut covered = 0u64;
        let small_cards_alike = self.table.generalises();
        for &card in &moves[..count] {
            let bit = 1u64 << card;
            if covered & bit != 0 {
                continue;
            }
            let (reached, below) = self.try_card(seat, u32::from(card), target);
            if self.aborted {
                return (false, 0);
            }
            if reached == maximising {
                return (reached, below);
            }
            relevant |= below;
            if small_cards_alike {
                covered |= alike_below(u32::from(card), below);
            }
        }
        let skipped = legal & !candidates != 0;
        if skipped {
            relevant |= straddling_runs(candidates, hand, self.live, relevant);
        }
        (!maximising, relevant)
    }

    /// The seat whose card is next in the trick in progress.
    #[inline]
    fn to_play(&self) -> usize {
        wrap(self.leader + self.trick_len, self.players)
    }

    /// The cards of `hand` (the seat to play's) that it may play: the suit led if it holds any.
    #[inline]
    fn legal(&self, hand: u64) -> u64 {
        let follow = hand & self.led;
        if self.trick_len > 0 && follow != 0 {
            follow
        } else {
            hand
        }
    }

    /// The completed trick's winning card if its rank mattered (it beat a card of its own
    /// suit), as a relevant card; else nothing.
    #[inline]
    fn ranked_winner(&self) -> u64 {
        let lane = bits::lane_of_bit(self.win_card);
        let ranked = (self.trick_cards & lane).count_ones() > 1;
        u64::from(ranked) << self.win_card
    }

    /// Plays `card` for `seat`, searches on, and takes the card back. Inlined into the card
    /// loop, so the recursion saves registers once a node rather than also once a card
    /// (PIMC 3.5% fewer instructions).
    #[inline(always)]
    pub(super) fn try_card(&mut self, seat: usize, card: u32, target: i32) -> (bool, u64) {
        let saved = (self.led, self.win_card, self.win_seat, self.trick_cards);
        self.place(seat, card);
        let outcome = if self.trick_len < self.players {
            self.node(target)
        } else {
            let (leader, live) = (self.leader, self.live);
            let credit = self.credit(self.win_seat);
            let winner = self.ranked_winner();
            self.live &= !self.trick_cards;
            self.leader = self.win_seat;
            self.trick_len = 0;
            let (reached, relevant) = self.node(target - credit);
            self.trick_len = self.players;
            self.leader = leader;
            self.live = live;
            (reached, relevant | winner)
        };
        self.trick_len -= 1;
        self.hands[seat] |= 1u64 << card;
        (self.led, self.win_card, self.win_seat, self.trick_cards) = saved;
        outcome
    }

    /// The cards (of any hand) that would beat `card` if played now.
    pub(super) fn beating(&self, card: u32) -> u64 {
        let lane = bits::lane_of_bit(card);
        let above = lane & bits::above(card);
        if self.trumps & lane != 0 {
            above
        } else {
            above | self.trumps
        }
    }
}

/// `seat` (below twice `players`) brought round the table: a compare instead of a division.
#[inline]
pub(super) fn wrap(seat: usize, players: usize) -> usize {
    if seat >= players {
        seat - players
    } else {
        seat
    }
}

/// Whether `card` beats `best`, the card winning a trick so far, with the trump lane `trumps`.
#[inline]
fn beats(trumps: u64, card: u32, best: u32) -> bool {
    let same = card >> 4 == best >> 4;
    let trump = trumps >> card & 1 != 0;
    (same && card > best) || (!same && trump)
}

/// The plain search of a trump contract's last two tricks ([`Search::last_two_tricks`]), every
/// seat holding two cards at the first trick's start. The first trick's cards so far are all
/// its state, passed by value (nothing to restore); the nodes of its last three seats are
/// expanded in place (no calls up to four players, one level at five); and both tricks are read
/// off the cards, with no play: a trick's winner is its highest trump, else its highest card of
/// the suit led, and the last trick's cards are those the first left.
struct PlainLastTwo<'h> {
    /// The hands by seat at the first trick's start, two cards each.
    hands: &'h [u64; MAX_PLAYERS],
    players: usize,
    /// The first trick's leader and the seat before its last.
    leader: usize,
    second_last: usize,
    declarer: usize,
    declarer_hand: u64,
    /// The trump lane (empty in no-trump).
    trumps: u64,
    /// Every card of the hands.
    live: u64,
    /// The credited tricks the declarer needs of the two (1 or 2).
    target: i32,
    /// The lane of the card led to the first trick (empty until it is led).
    led: u64,
    /// The card nodes visited.
    nodes: u64,
}

impl PlainLastTwo<'_> {
    /// A node of the first trick: `seat`, after the cards `trick`, tries its legal cards lowest
    /// first, each one's outcome given by `child` (from the cards with it), and stops at the
    /// first that settles the node.
    #[inline(always)]
    fn node(
        &mut self,
        seat: usize,
        trick: u64,
        mut child: impl FnMut(&mut Self, u64) -> (bool, u64),
    ) -> (bool, u64) {
        self.nodes += 1;
        let maximising = seat == self.declarer;
        let mut cards = self.legal(seat);
        let mut relevant = 0;
        while cards != 0 {
            let bit = bits::lowest_bit(cards);
            cards ^= bit;
            let (reached, below) = child(self, trick | bit);
            if reached == maximising {
                return (reached, below);
            }
            relevant |= below;
        }
        (!maximising, relevant)
    }

    /// The leader's node: either card may lead.
    #[inline]
    fn lead(&mut self) -> (bool, u64) {
        let next = self.next(self.leader);
        self.node(self.leader, 0, |this, trick| {
            this.led = bits::lane_of_bit(trick.trailing_zeros());
            this.from(next, trick)
        })
    }

    /// The node of `seat`, neither the leader nor one of the last three seats of the first
    /// trick (six or more players), after the cards `trick`.
    fn follow(&mut self, seat: usize, trick: u64) -> (bool, u64) {
        let next = self.next(seat);
        self.node(seat, trick, |this, trick| this.from(next, trick))
    }

    /// The node of `seat`, not the leader, after the cards `trick`: in place if it is one of
    /// the first trick's last three seats, else by a call.
    #[inline(always)]
    fn from(&mut self, seat: usize, trick: u64) -> (bool, u64) {
        if seat == self.second_last {
            self.second_last(seat, trick)
        } else if self.next(seat) == self.second_last {
            let next = self.second_last;
            self.node(seat, trick, |this, trick| this.second_last(next, trick))
        } else {
            self.follow(seat, trick)
        }
    }

    /// The node of the seat before the first trick's last, `seat`, and the last's below it.
    #[inline(always)]
    fn second_last(&mut self, seat: usize, trick: u64) -> (bool, u64) {
        let last = self.next(seat);
        self.node(seat, trick, |this, trick| {
            this.node(last, trick, |this, trick| this.settle(trick))
        })
    }

    /// The seat after `seat`.
    #[inline]
    fn next(&self, seat: usize) -> usize {
        wrap(seat + 1, self.players)
    }

    /// The cards `seat` may play to the first trick after its lead.
    #[inline]
    fn legal(&self, seat: usize) -> u64 {
        let hand = self.hands[seat];
        if hand & self.led != 0 {
            hand & self.led
        } else {
            hand
        }
    }

    /// The first trick complete, its cards `trick`: whether the declarer reaches the target,
    /// with the first trick's winner if it beat a card of its suit and, when the last trick
    /// decides, that trick's likewise.
    #[inline]
    fn settle(&self, trick: u64) -> (bool, u64) {
        // The cards that could win the first trick: its trumps, else its cards of the suit
        // led. Its winner beat a card of its suit exactly when it had a rival among them.
        let trumps = trick & self.trumps;
        let contenders = if trumps != 0 {
            trumps
        } else {
            trick & self.led
        };
        let win = 63 - contenders.leading_zeros();
        let first = u64::from(contenders & (contenders - 1) != 0) << win;
        let rest = self.target - (self.declarer_hand >> win & 1) as i32;
        if rest != 1 {
            return (rest <= 0, first);
        }
        // The last trick: the cards the first left, led by the first's winner.
        let left = self.live ^ trick;
        let trumps = left & self.trumps;
        let contenders = if trumps != 0 {
            trumps
        } else {
            let winner = self.hands.iter().find(|&&hand| hand >> win & 1 != 0);
            let lead = winner.map_or(0, |&hand| hand ^ 1u64 << win);
            left & bits::lane_of_bit(lead.trailing_zeros())
        };
        let best = 63 - contenders.leading_zeros();
        let ranked = contenders & (contenders - 1) != 0;
        let takes = self.declarer_hand >> best & 1 != 0;
        (takes, first | u64::from(ranked) << best)
    }
}

/// The cards sure to give the same result as `card` (a bit index) whose result relied on the
/// cards `relevant`: when no card of its suit at or below it mattered, every card of the suit
/// below the lowest one that did (see the module's note); otherwise none.
#[inline]
pub(super) fn alike_below(card: u32, relevant: u64) -> u64 {
    let lane = bits::lane_of_bit(card);
    let threshold = lowest_or_top(relevant & lane, lane);
    if 1u64 << card < threshold {
        lane & (threshold - 1)
    } else {
        0
    }
}

/// The lowest of `cards` (cards of one lane), or the lane's bit 15, above its every card,
/// when `cards` is empty.
#[inline]
fn lowest_or_top(cards: u64, lane: u64) -> u64 {
    if cards == 0 {
        lane & bits::LANE_TOPS
    } else {
        bits::lowest_bit(cards)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::cards::{CardSet, Suit};
    use crate::rng::base_rng;
    use rand_core::Rng;

    /// A random position (no misère) at a trick start two tricks from the end, at `players`
    /// seats: few suits among the cards (so that seats follow, ruff and discard), any trump or
    /// none, any declarer and leader. None when the suits drawn hold too few cards.
    pub(in crate::solver) fn two_trick_position(
        rng: &mut crate::rng::SimRng,
        players: usize,
    ) -> Option<Position> {
        let lanes = 1 + rng.next_u64() % 15;
        let pack = (0..4)
            .filter(|lane| lanes >> lane & 1 != 0)
            .fold(0, |pack, lane| pack | bits::lane_mask(lane))
            & bits::CARDS;
        if (pack.count_ones() as usize) < 2 * players {
            return None;
        }
        let mut dealt = 0u64;
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        for hand in &mut hands[..players] {
            let mut cards = 0u64;
            while cards.count_ones() < 2 {
                let bit = 1u64 << (rng.next_u64() % 64);
                if pack & bit != 0 && dealt & bit == 0 {
                    cards |= bit;
                    dealt |= bit;
                }
            }
            *hand = CardSet::from_bits(cards).unwrap();
        }
        let trump = Suit::ALL.get((rng.next_u64() % 5) as usize).copied();
        let declarer = (rng.next_u64() % players as u64) as usize;
        let leader = (rng.next_u64() % players as u64) as usize;
        Some(Position::new(&hands[..players], declarer, trump, false, leader, &[]).unwrap())
    }

    /// The plain search of the last two tricks gives its reference's answer, relevant cards
    /// and node count, on random positions at three to five players, either target.
    #[test]
    fn plain_last_two_tricks_match_the_reference() {
        let mut rng = base_rng(44);
        let mut table = Table::new(10, true);
        for _ in 0..20_000 {
            let players = 3 + (rng.next_u64() % 3) as usize;
            let Some(position) = two_trick_position(&mut rng, players) else {
                continue;
            };
            let mut search = Search::new(&mut table, &position);
            for target in 1..=2 {
                search.nodes = 0;
                let plain = search.last_two_tricks(target);
                let plain_nodes = search.nodes;
                search.nodes = 0;
                let reference = search.plain_reference(target);
                assert_eq!(plain, reference, "{position:?}, target {target}");
                assert_eq!(plain_nodes, search.nodes, "{position:?}, target {target}");
            }
        }
    }
}
