//! The boolean alpha-beta search: can the declarer's side reach a target?
//!
//! The search counts *credited* tricks: tricks the declarer takes in a trump contract, tricks
//! it loses in a misère. Either way the declarer wants more of them and the defenders fewer, so
//! one search serves both. It works card by card with make/unmake on a small mutable state,
//! stops at the first card that settles a node (an OR node for the declarer, an AND node for a
//! defender), searches one card of each run of equivalent cards, and at trick starts consults
//! quick-trick bounds and the transposition table.
//!
//! Every result comes with its *relevant* cards: live cards such that the result holds for
//! every position that agrees on the owners of the live cards from the lowest relevant card
//! of each suit up, and otherwise only on each seat's suit lengths (see [`super::table`]). A
//! rank comparison the result relied on is kept by marking either card of the pair, since a
//! marked card sits above every card treated as small. So a trick winner that beat a card of
//! its own suit is marked, a bound that settled a node marks the cards it compared, and a node
//! that had to refute every card marks the bottom of a run of equivalent cards that reaches up
//! among its relevant cards (below them any small card of a seat stands for any other).

use super::position::Position;
use super::table::{KeyContext, Table, run_bottoms};
use crate::rules::MAX_PLAYERS;

/// The mutable state of one search.
pub(super) struct Search<'t> {
    table: &'t mut Table,
    ctx: KeyContext,
    hands: [u64; MAX_PLAYERS],
    players: usize,
    declarer: usize,
    misere: bool,
    /// The trump lane (empty in no-trump).
    trumps: u64,
    /// Cards not yet gathered in a completed trick: the hands and the trick in progress.
    live: u64,
    leader: usize,
    trick_len: usize,
    /// The lane of the suit led (valid while a trick is in progress).
    led: u64,
    /// The cards played to the trick in progress.
    trick_cards: u64,
    /// The card winning the trick in progress (its bit index) and its seat.
    win_card: u32,
    win_seat: usize,
    /// Nodes visited, for measurements and budgets.
    pub(super) nodes: u64,
    /// The node count at which the search gives up (see [`Search::aborted`]).
    pub(super) limit: u64,
    /// Set when the search gave up on reaching `limit`: its answer means nothing then.
    pub(super) aborted: bool,
}

impl<'t> Search<'t> {
    pub(super) fn new(table: &'t mut Table, position: &Position) -> Search<'t> {
        let players = position.players;
        let mut hands = [0u64; MAX_PLAYERS];
        for (h, card_set) in hands.iter_mut().zip(&position.hands[..players]) {
            *h = card_set.0;
        }
        let trump = position.trump.map(|s| s as u8);
        let mut search = Search {
            table,
            ctx: KeyContext::new(players, position.declarer, position.misere, trump),
            hands,
            players,
            declarer: position.declarer,
            misere: position.misere,
            trumps: trump.map_or(0, |t| 0xffff << (16 * t)),
            live: hands.iter().fold(0, |a, h| a | h),
            leader: position.leader,
            trick_len: 0,
            led: 0,
            trick_cards: 0,
            win_card: 0,
            win_seat: 0,
            nodes: 0,
            limit: u64::MAX,
            aborted: false,
        };
        // Replay the trick in progress onto the state.
        for (i, card) in position.trick().iter().enumerate() {
            let seat = (position.leader + i) % players;
            search.live |= card.set().0;
            search.hands[seat] |= card.set().0;
            search.place(seat, u32::from(card.index()));
        }
        search
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
        if let Some(settled) = self.settled_mid_trick(target) {
            // It compared the winning card with the cards to come, and the declarer's trumps
            // with the defenders' (see `sure_tricks`).
            let mine = self.hands[self.declarer] & self.trumps;
            return (settled, 1 << self.win_card | mine);
        }
        self.card_node(target)
    }

    /// In a trump contract, once the declarer has played to the trick in progress, bounds on
    /// the tricks after it may settle the query without playing the rest of the trick (whose
    /// discards would otherwise multiply). The declarer takes this trick only if it wins it
    /// now, and for sure only if no card to come beats its card.
    fn settled_mid_trick(&self, target: i32) -> Option<bool> {
        let n = self.players;
        let declarer_offset = (self.declarer + n - self.leader) % n;
        if self.misere || self.trumps == 0 || declarer_offset >= self.trick_len {
            return None;
        }
        // The seats still to play to this trick, and their cards.
        let mut spending = 0u64;
        let mut to_come = 0u64;
        for offset in self.trick_len..n {
            let seat = (self.leader + offset) % n;
            spending |= 1 << seat;
            to_come |= self.hands[seat];
        }
        let winning = self.win_seat == self.declarer;
        let sealed = winning && self.beating(self.win_card) & to_come == 0;
        let theirs = self.live & !self.hands[self.declarer] & !self.trick_cards;
        if i32::from(sealed) + self.trump_floor(theirs) >= target {
            return Some(true);
        }
        // The leader has played to this trick, so its hand counts the tricks after it.
        let later = self.hands[self.leader].count_ones() as i32;
        if i32::from(winning) + later - self.defender_floor(spending) < target {
            return Some(false);
        }
        None
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
        if !self.misere
            && let Some(settled) = self.sure_tricks(target, left)
        {
            return settled;
        }
        let key = self.ctx.key(&self.hands, self.live, self.leader);
        if let Some(hit) = self.table.probe(&key, target) {
            return hit;
        }
        let (reached, relevant) = self.card_node(target);
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

    /// In a trump contract at a trick start, whether sure-trick bounds settle the query, with
    /// the cards whose ranks they compared. The floors compare only declarer trumps with
    /// defender trumps, so the declarer's trumps keep every such comparison; the quick tricks
    /// compare the declarer's cards with the defenders' top card of each suit.
    fn sure_tricks(&self, target: i32, left: i32) -> Option<(bool, u64)> {
        let mine = self.hands[self.declarer] & self.trumps;
        if left - self.defender_floor(0) < target {
            return Some((false, mine));
        }
        let theirs = self.live & !self.hands[self.declarer];
        if self.trump_floor(theirs) >= target {
            return Some((true, mine));
        }
        if self.leader == self.declarer && self.quick_tricks() >= target {
            return Some((true, suit_tops(theirs)));
        }
        None
    }

    /// The credit of the last trick, every seat holding one card, and its winning card if that
    /// beat a card of its own suit (the one rank compared).
    fn last_trick(&self) -> (i32, u64) {
        let mut best = self.hands[self.leader].trailing_zeros();
        let mut winner = self.leader;
        for offset in 1..self.players {
            let seat = (self.leader + offset) % self.players;
            let card = self.hands[seat].trailing_zeros();
            if self.beats(card, best) {
                best = card;
                winner = seat;
            }
        }
        let lane = 0xffffu64 << (best & !15);
        let ranked = (self.live & lane).count_ones() > 1;
        (self.credit(winner), u64::from(ranked) << best)
    }

    #[inline]
    fn credit(&self, winner: usize) -> i32 {
        i32::from((winner == self.declarer) != self.misere)
    }

    #[inline]
    fn beats(&self, card: u32, best: u32) -> bool {
        let same = card >> 4 == best >> 4;
        let trump = self.trumps >> card & 1 != 0;
        (same && card > best) || (!same && trump)
    }

    /// Puts `card` (a bit index) from `seat` on the table.
    #[inline]
    fn place(&mut self, seat: usize, card: u32) {
        self.hands[seat] &= !(1u64 << card);
        self.trick_cards |= 1u64 << card;
        if self.trick_len == 0 {
            self.trick_cards = 1u64 << card;
            self.led = 0xffff << (card & !15);
            self.win_card = card;
            self.win_seat = seat;
        } else if self.beats(card, self.win_card) {
            self.win_card = card;
            self.win_seat = seat;
        }
        self.trick_len += 1;
    }

    /// Tricks the declarer, on lead in a trump contract, can cash without giving up the lead.
    fn quick_tricks(&self) -> i32 {
        let mine = self.hands[self.declarer];
        let theirs = self.live & !mine;
        let masters = side_masters(mine & !self.trumps, theirs & !self.trumps);
        if self.trumps == 0 {
            return masters;
        }
        let my_trumps = mine & self.trumps;
        let their_trumps = theirs & self.trumps;
        if their_trumps == 0 {
            return my_trumps.count_ones() as i32 + masters;
        }
        // Trumps above every defender's trump win whenever they are led.
        let top = 63 - their_trumps.leading_zeros();
        let sure = (my_trumps >> top).count_ones() as i32;
        let longest = (0..self.players)
            .filter(|&s| s != self.declarer)
            .map(|s| (self.hands[s] & self.trumps).count_ones() as i32)
            .max()
            .unwrap_or(0);
        if sure >= longest {
            // Leading them draws every defender's trump; then every trump and master wins.
            my_trumps.count_ones() as i32 + masters
        } else {
            sure
        }
    }

    /// Tricks the declarer's trumps are sure of, whoever leads: every card is played before
    /// the deal ends, and a declarer trump loses only to a higher defender trump played to the
    /// same trick, each of which can beat one of them at most.
    fn trump_floor(&self, theirs: u64) -> i32 {
        let mine = self.hands[self.declarer] & self.trumps;
        mine.count_ones() as i32 - beatable(mine, theirs & self.trumps)
    }

    /// Tricks the defenders are sure of in a trump contract: the trumps of one defender each
    /// take the trick they are played to unless a higher declarer trump beats them there (each
    /// declarer trump can beat one); a seat still to play to the trick in progress (`spending`)
    /// spends a card on it first.
    fn defender_floor(&self, spending: u64) -> i32 {
        let mine = self.hands[self.declarer] & self.trumps;
        let mut most = 0;
        for seat in 0..self.players {
            if seat != self.declarer {
                let theirs = self.hands[seat] & self.trumps;
                let spent = (spending >> seat & 1) as i32;
                let sure = theirs.count_ones() as i32 - beatable(theirs, mine) - spent;
                most = most.max(sure);
            }
        }
        most
    }

    fn card_node(&mut self, target: i32) -> (bool, u64) {
        let seat = (self.leader + self.trick_len) % self.players;
        let hand = self.hands[seat];
        let follow = hand & self.led;
        let legal = if self.trick_len > 0 && follow != 0 {
            follow
        } else {
            hand
        };
        let candidates = run_bottoms(legal, self.live);
        let (moves, count) = self.order(seat, candidates);
        let maximising = seat == self.declarer;
        let mut relevant = 0;
        for &card in &moves[..count] {
            let (reached, below) = self.try_card(seat, u32::from(card), target);
            if self.aborted {
                return (false, 0);
            }
            if reached == maximising {
                return (reached, below);
            }
            relevant |= below;
        }
        let skipped = legal & !candidates != 0;
        if skipped {
            relevant |= straddling_runs(candidates, hand, self.live, relevant);
        }
        (!maximising, relevant)
    }

    /// Plays `card` for `seat`, searches on, and takes the card back.
    fn try_card(&mut self, seat: usize, card: u32, target: i32) -> (bool, u64) {
        let saved = (self.led, self.win_card, self.win_seat, self.trick_cards);
        self.place(seat, card);
        let outcome = if self.trick_len < self.players {
            self.node(target)
        } else {
            let (leader, live) = (self.leader, self.live);
            let credit = self.credit(self.win_seat);
            // The winner's rank mattered if it beat a card of its own suit.
            let lane = 0xffffu64 << (self.win_card & !15);
            let ranked = (self.trick_cards & lane).count_ones() > 1;
            let winner = u64::from(ranked) << self.win_card;
            self.live &= self.hands[..self.players].iter().fold(0, |a, h| a | h);
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

    /// The candidate cards in the order to try them: cards likely to settle the node first.
    fn order(&self, seat: usize, candidates: u64) -> ([u8; 8], usize) {
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

    /// The cards (of any hand) that would beat `card` if played now.
    fn beating(&self, card: u32) -> u64 {
        let lane = 0xffffu64 << (card & !15);
        let above = lane & !((2u64 << card) - 1);
        if self.trumps & lane != 0 {
            above
        } else {
            above | self.trumps
        }
    }

    /// The cards of `seat`'s hand that some other live card of the same suit outranks.
    fn beaten_by_others(&self, seat: usize) -> u64 {
        let others = self.live & !self.hands[seat];
        let mut beaten = 0;
        for lane in 0..4 {
            let theirs = others >> (16 * lane) & 0xffff;
            if theirs != 0 {
                let top = 63 - theirs.leading_zeros();
                beaten |= ((1u64 << top) - 1) << (16 * lane);
            }
        }
        self.hands[seat] & beaten
    }
}

/// The highest card of each suit of `cards`.
fn suit_tops(cards: u64) -> u64 {
    let mut tops = 0;
    for lane in 0..4 {
        let suit = cards >> (16 * lane) & 0xffff;
        if suit != 0 {
            tops |= 1u64 << (63 - suit.leading_zeros() + 16 * lane);
        }
    }
    tops
}

/// The bottoms (of `bottoms`, the searched cards of `hand`) of the runs that reach from below
/// the lowest card of `relevant` in their suit up to it. Such a run's cards are equivalent
/// only while the cards between them are exactly as now, so its bottom becomes relevant too;
/// a run wholly below stays small, and wholly above is kept exactly.
fn straddling_runs(bottoms: u64, hand: u64, live: u64, relevant: u64) -> u64 {
    let others = live & !hand;
    let mut marked = 0;
    for lane in 0..4 {
        let shift = 16 * lane;
        let rel = relevant >> shift & 0xffff;
        if rel == 0 {
            continue;
        }
        let lowest = rel.trailing_zeros();
        let mut below = bottoms >> shift & ((1u64 << lowest) - 1);
        while below != 0 {
            let bottom = below.trailing_zeros();
            below &= below - 1;
            // The run reaches the lowest relevant card if no other seat's card lies between.
            let between = (1u64 << (lowest + 1)) - (1u64 << bottom);
            if others >> shift & between == 0 {
                marked |= 1u64 << (bottom + shift);
            }
        }
    }
    marked
}

/// Side-suit cards of `mine` above every card of `theirs` in the same suit.
fn side_masters(mine: u64, theirs: u64) -> i32 {
    let mut count = 0;
    for lane in 0..4 {
        let shift = 16 * lane;
        let m = mine >> shift & 0xffff;
        let t = theirs >> shift & 0xffff;
        let above = if t == 0 {
            m
        } else {
            m >> (64 - t.leading_zeros())
        };
        count += above.count_ones() as i32;
    }
    count
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
        victims &= victims - 1;
        let above = free & !((2u64 << victim) - 1);
        if above != 0 {
            free &= !(above & above.wrapping_neg());
            beaten += 1;
        }
    }
    beaten
}
