//! The boolean alpha-beta search: can the declarer's side reach a target?
//!
//! The search counts *credited* tricks: tricks the declarer takes in a trump contract, tricks
//! it loses in a misère. Either way the declarer wants more of them and the defenders fewer, so
//! one search serves both. It works card by card with make/unmake on a small mutable state,
//! stops at the first card that settles a node (an OR node for the declarer, an AND node for a
//! defender), searches one card of each run of equivalent cards, and at trick starts consults
//! sure-trick bounds and the transposition table.
//!
//! The bounds (trump contracts only) are floors on the declarer's tricks and on the defenders'
//! trumps. They are checked at trick starts and at every card of a trick, before the declarer
//! has played as well as after: the defenders' discards multiply with six of them (seven
//! players), so settling a trick early is what keeps the slowest deals fast. A floor for the
//! tricks after the one in progress assumes the worst of what is still to come in it: a
//! defender that must follow suit plays its lowest card of the suit, one that cannot keeps all
//! its cards, and the declarer spends the card it can best spare, or wins the trick with a
//! card nothing to come can beat and leads next.
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
use crate::cards::bits;
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
            *h = card_set.bits();
        }
        let trump = position.trump.map(|s| s as u8);
        let mut search = Search {
            table,
            ctx: KeyContext::new(players, position.declarer, position.misere, trump),
            hands,
            players,
            declarer: position.declarer,
            misere: position.misere,
            trumps: trump.map_or(0, |t| bits::lane_mask(u32::from(t))),
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
            search.live |= card.set().bits();
            search.hands[seat] |= card.set().bits();
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
            return settled;
        }
        self.card_node(target)
    }

    /// In a trump contract, bounds on the tricks still to come may settle the query in the
    /// middle of a trick without playing the rest of it (whose discards would otherwise
    /// multiply), with the cards whose ranks they compared.
    fn settled_mid_trick(&self, target: i32) -> Option<(bool, u64)> {
        if self.misere || self.trumps == 0 {
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
        if i32::from(can_win) + later - self.defender_floor(spending) < target {
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
    /// the cards whose ranks they compared.
    fn sure_tricks(&self, target: i32, left: i32) -> Option<(bool, u64)> {
        let mine = self.hands[self.declarer];
        if left - self.defender_floor(0) < target {
            return Some((false, mine & self.trumps));
        }
        let theirs = self.live & !mine;
        let on_lead = self.leader == self.declarer;
        let compared = self.floor(target, mine, theirs, 0, on_lead)?;
        Some((true, compared))
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
        let lane = bits::lane_of_bit(best);
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
            self.led = bits::lane_of_bit(card);
            self.win_card = card;
            self.win_seat = seat;
        } else if self.beats(card, self.win_card) {
            self.win_card = card;
            self.win_seat = seat;
        }
        self.trick_len += 1;
    }

    /// Whether the declarer, holding `mine`, is sure of `target` tricks from the next trick
    /// start on (`theirs`: the defenders' cards then, but the seats of `discarding` spend a
    /// card of their choice on the trick in progress first), leading there if `on_lead`, and
    /// if so the cards whose ranks the floor compared. The floors are tried from the one that
    /// compares fewest cards, so that table entries above generalise most.
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
    /// whose ranks the floor compared.
    fn any_leader_floor(&self, target: i32, mine: u64, theirs: u64) -> Option<u64> {
        let my_trumps = mine & self.trumps;
        let their_trumps = theirs & self.trumps;
        // Every card is played before the deal ends, and a declarer trump loses only to a
        // higher defender trump played to the same trick, each of which beats one at most.
        let sure = my_trumps.count_ones() as i32 - beatable(my_trumps, their_trumps);
        if sure >= target {
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

    /// Tricks the defenders are sure of in a trump contract: the trumps of one defender each
    /// take the trick they are played to unless a higher declarer trump beats them there (each
    /// declarer trump can beat one); a seat still to play to the trick in progress (`spending`)
    /// spends a card on it first.
    fn defender_floor(&self, spending: u64) -> i32 {
        let mine = self.hands[self.declarer] & self.trumps;
        let mut most = 0;
        for seat in 0..self.players {
            let theirs = self.hands[seat] & self.trumps;
            if seat != self.declarer && theirs != 0 {
                let spent = (spending >> seat & 1) as i32;
                let sure = theirs.count_ones() as i32 - beatable(theirs, mine) - spent;
                most = most.max(sure);
            }
        }
        most
    }

    fn card_node(&mut self, target: i32) -> (bool, u64) {
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
            let lane = bits::lane_of_bit(self.win_card);
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
        let lane = bits::lane_of_bit(card);
        let above = lane & bits::above(card);
        if self.trumps & lane != 0 {
            above
        } else {
            above | self.trumps
        }
    }

    /// The cards of `seat`'s hand that some other live card of the same suit outranks.
    fn beaten_by_others(&self, seat: usize) -> u64 {
        let others = self.live & !self.hands[seat];
        self.hands[seat] & bits::below_tops(others)
    }
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
