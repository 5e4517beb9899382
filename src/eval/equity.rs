//! The session's equity: each seat's chance of winning the session from where it stands.
//!
//! A session is a fixed number of deals, and the highest balance at the end wins (tied balances
//! share the win). From the start of a deal, the chance of winning depends on the balances, the
//! deals left and what a deal pays: the table's policies decide who declares and how often it
//! is made, so the payments of one deal are *measured* ([`DealOutcomes`]: every payment vector
//! that the measured deals produced, by position in the auction, and how often), and the deals
//! still to come are taken as independent draws from that distribution (the dealer passing
//! left each time). That is exact for a table whose policies ignore the score, as every policy
//! but `lookahead:objective=wins` does, under a profile without a kitty. With a kitty it is an
//! approximation: the deal being valued is settled with the kitty it holds
//! ([`SessionQuery`]), but the deals to come are drawn from the measured ones, whose kitty is
//! the one the measuring table carried from deal to deal, not this session's.
//!
//! [`SessionEquity`] values a state by backward induction over that distribution: exactly, by
//! enumerating every sequence of outcomes, where the deals left are few enough
//! ([`SessionEquity::is_exact`]); otherwise exactly over the last deal and by a fixed sample of
//! the deals before it (common futures: every query uses the same sampled sequences, so two
//! states compare on the same futures and their difference is far more precise than either).

use std::sync::{Arc, OnceLock};

use crate::game::{DealState, SessionState, Shuffler, contract_payments};
use crate::policy::{BidPolicy, PlayPolicy, Table, run_deal};
use crate::rng::{SimRng, base_rng, below};
use crate::rules::{BidId, MAX_BIDS, MAX_PLAYERS, Profile};

/// A payment vector by position in the auction: index 0 the eldest, the dealer last.
pub type ByPosition = [i64; MAX_PLAYERS];

/// The measured payments of one deal: each distinct payment vector (by position) and how many
/// deals produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealOutcomes {
    players: usize,
    outcomes: Vec<(ByPosition, u64)>,
}

impl DealOutcomes {
    /// No deals yet, at a table of `players`.
    pub fn new(players: usize) -> DealOutcomes {
        assert!((2..=MAX_PLAYERS).contains(&players), "a table size");
        DealOutcomes {
            players,
            outcomes: Vec::new(),
        }
    }

    /// The table size.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Counts `count` deals that paid `payments` (by position).
    pub fn add(&mut self, payments: ByPosition, count: u64) {
        if count == 0 {
            return;
        }
        match self.outcomes.iter_mut().find(|(p, _)| *p == payments) {
            Some((_, n)) => *n += count,
            None => self.outcomes.push((payments, count)),
        }
    }

    /// Adds every deal of `other` (same table size).
    pub fn merge(&mut self, other: &DealOutcomes) {
        assert_eq!(self.players, other.players, "one table size");
        for &(payments, count) in &other.outcomes {
            self.add(payments, count);
        }
    }

    /// The deals counted.
    pub fn deals(&self) -> u64 {
        self.outcomes.iter().map(|(_, n)| n).sum()
    }

    /// The distinct outcomes and their counts, in a fixed order (by payments), so that equal
    /// measurements are equal whatever order their deals were counted in.
    pub fn outcomes(&self) -> Vec<(ByPosition, u64)> {
        let mut sorted = self.outcomes.clone();
        sorted.sort_unstable();
        sorted
    }

    /// The counts as CSV: a header `count,p0,p1,...` (p0 the eldest's payment, the dealer's
    /// last), then one row per distinct payment vector, in a fixed order.
    pub fn to_csv(&self) -> String {
        let n = self.players;
        let mut out = String::from("count");
        for p in 0..n {
            out += &format!(",p{p}");
        }
        out.push('\n');
        for (payments, count) in self.outcomes() {
            out += &count.to_string();
            for amount in &payments[..n] {
                out += &format!(",{amount}");
            }
            out.push('\n');
        }
        out
    }

    /// Reads [`DealOutcomes::to_csv`]'s text back, or says what is wrong with it.
    pub fn from_csv(text: &str) -> Result<DealOutcomes, String> {
        let mut lines = text.lines();
        let header = lines.next().ok_or("it is empty")?;
        let columns: Vec<&str> = header.split(',').collect();
        let players = columns.len().saturating_sub(1);
        let expected: Vec<String> = std::iter::once("count".to_string())
            .chain((0..players).map(|p| format!("p{p}")))
            .collect();
        if !(2..=MAX_PLAYERS).contains(&players) || columns != expected {
            return Err(format!(
                "its header is not count,p0,p1,... for 2 to {MAX_PLAYERS} players: {header}"
            ));
        }
        let mut measured = DealOutcomes::new(players);
        for (i, line) in lines.enumerate() {
            let bad = |why: &str| format!("line {}: {why}: {line}", i + 2);
            let fields: Vec<&str> = line.split(',').collect();
            if fields.len() != players + 1 {
                return Err(bad(&format!(
                    "{} fields, not {}",
                    fields.len(),
                    players + 1
                )));
            }
            let count: u64 = fields[0]
                .parse()
                .map_err(|_| bad("the count is not a count"))?;
            let mut payments = [0; MAX_PLAYERS];
            for (slot, field) in payments.iter_mut().zip(&fields[1..]) {
                *slot = field
                    .parse()
                    .map_err(|_| bad("a payment is not a whole number"))?;
            }
            measured.add(payments, count);
        }
        if measured.deals() == 0 {
            return Err("it counts no deals".to_string());
        }
        Ok(measured)
    }

    /// `payments` by seat turned to positions of a deal dealt by `dealer`.
    pub fn by_position(payments: &[i64], dealer: usize, players: usize) -> ByPosition {
        let mut out = [0; MAX_PLAYERS];
        for (position, slot) in out.iter_mut().enumerate().take(players) {
            *slot = payments[(dealer + 1 + position) % players];
        }
        out
    }
}

/// Deals measured for a session equity made on the spot (the `lookahead` bidder's, `napsim
/// hand --session`'s): enough for the payments of every common contract, and quick even with
/// `expert` play.
pub const MEASURED_DEALS: u64 = 50_000;

/// The seed of that measurement and of its sampled futures: fixed, so that the same table
/// always gets the same equity.
pub const MEASURE_SEED: u64 = 0x6571_7569_7479;

/// Measures what one deal pays at a table of `players` where every seat bids by `bid` and
/// plays by `play`: `deals` deals from `seed`, the dealer passing left (the kitty carried, where
/// the profile has one).
pub fn measure(
    profile: &Profile,
    players: usize,
    (bid, play): (&dyn BidPolicy, &dyn PlayPolicy),
    deals: u64,
    seed: u64,
) -> DealOutcomes {
    let (mut deal_rng, mut policy_rng) = crate::rng::block_streams(seed, 0);
    let table = Table::uniform(bid, play);
    let mut shuffler = Shuffler::new(profile, players);
    let mut measured = DealOutcomes::new(players);
    let (mut dealer, mut kitty) = (0, 0);
    for _ in 0..deals {
        let dealt = shuffler.deal(dealer, &mut deal_rng);
        let mut state = DealState::from_dealt(profile, dealer, &dealt, players);
        state.set_kitty(kitty);
        run_deal(&mut state, &table, &mut policy_rng);
        shuffler.collect(&state);
        measured.add(
            DealOutcomes::by_position(&state.payments(), dealer, players),
            1,
        );
        kitty = state.kitty_after();
        dealer = (dealer + 1) % players;
    }
    measured
}

/// The largest balance (either sign) and kitty a session's state may hold: beyond any real
/// session, and far from overflowing when the deals to come are added.
pub const MAX_BALANCE: i64 = 1_000_000_000_000;

/// Reads a session's state as `napsim hand --session` takes it: `D/N:B1,B2,...,Bn`, this deal
/// the D-th of N and the balances before it, one per seat in auction order from the eldest
/// (`+` signs allowed); a profile with a kitty (`has_kitty`) adds `;kitty=K`. The balances and
/// the kitty hold every unit that has changed hands, so they sum to zero. The state is by
/// position (the dealer last) and the kitty 0 without one.
pub fn parse_session(
    text: &str,
    players: usize,
    has_kitty: bool,
) -> Result<(SessionState, i64), String> {
    let form = "write it D/N:B1,B2,... (this deal the D-th of N, then each seat's balance from \
                the eldest)";
    let (main, kitty) = match text.split_once(';') {
        None => (text, None),
        Some((main, extra)) => {
            let value = extra
                .trim()
                .strip_prefix("kitty=")
                .ok_or_else(|| format!("'{extra}' is not kitty=K"))?;
            let kitty: i64 = value
                .parse()
                .ok()
                .filter(|k| (0..=MAX_BALANCE).contains(k))
                .ok_or_else(|| {
                    format!("kitty={value}: not a whole number of units from 0 to {MAX_BALANCE}")
                })?;
            if !has_kitty {
                return Err("the profile has no kitty: leave out ;kitty=".to_string());
            }
            (main, Some(kitty))
        }
    };
    let (when, balances) = main.split_once(':').ok_or(form)?;
    let (deal, deals) = when.split_once('/').ok_or(form)?;
    let number = |what: &str, text: &str| -> Result<u32, String> {
        text.trim()
            .parse::<u32>()
            .map_err(|_| format!("{what} '{text}' is not a whole number; {form}"))
    };
    let (deal, deals) = (number("the deal", deal)?, number("the deals", deals)?);
    if deals == 0 || deal == 0 || deal > deals {
        return Err(format!(
            "deal {deal} of {deals}: the deal is numbered from 1 to the session's deals"
        ));
    }
    if deals > MAX_SESSION_DEALS {
        return Err(format!(
            "a session of {deals} deals: napsim values sessions of at most {MAX_SESSION_DEALS}"
        ));
    }
    let values: Vec<&str> = balances.split(',').collect();
    if values.len() != players {
        return Err(format!(
            "{} balances for {players} players: give one per seat, the eldest first",
            values.len()
        ));
    }
    let mut by_position = [0; MAX_PLAYERS];
    for (slot, value) in by_position.iter_mut().zip(&values) {
        *slot = value
            .trim()
            .parse()
            .ok()
            .filter(|b: &i64| b.abs() <= MAX_BALANCE)
            .ok_or_else(|| {
                format!("balance '{value}' is not a whole number of units within ±{MAX_BALANCE}")
            })?;
    }
    let kitty = kitty.unwrap_or(0);
    let total: i64 = by_position.iter().sum();
    if total + kitty != 0 {
        let held = if has_kitty { " and the kitty" } else { "" };
        return Err(format!(
            "the balances{held} sum to {}: every unit won is another's loss, so they sum to 0",
            total + kitty
        ));
    }
    let state = SessionState {
        deal,
        deals,
        balances: by_position,
    };
    Ok((state, kitty))
}

/// Each seat's share of the win for final `balances` (tied highest balances share it).
pub fn shares(balances: &[i64]) -> [f64; MAX_PLAYERS] {
    let top = balances.iter().copied().max().unwrap_or(0);
    let winners = balances.iter().filter(|&&b| b == top).count() as f64;
    let mut out = [0.0; MAX_PLAYERS];
    for (slot, &b) in out.iter_mut().zip(balances) {
        if b == top {
            *slot = 1.0 / winners;
        }
    }
    out
}

/// How many sampled futures value a state whose deals before the last cannot all be
/// enumerated within the same budget.
pub const FUTURES: usize = 2048;

/// The longest session a [`SessionEquity`] values, and so the most deals `napsim hand
/// --session` takes: the longest session a profile may have.
pub use crate::rules::MAX_SESSION_DEALS;

/// Values session states from measured deal outcomes (see the module doc).
#[derive(Clone, Debug)]
pub struct SessionEquity {
    players: usize,
    /// The outcomes with their probabilities.
    outcomes: Vec<(ByPosition, f64)>,
    /// `draws[f]`: sampled sequence `f`, the outcome (an index into `outcomes`) of each deal
    /// after the first, one fewer than the longest session valued; deal `i` of it is summed
    /// into the positions of the first shifted by `i`, as the deal passes left.
    draws: Vec<Vec<u32>>,
    /// The longest session valued.
    max_deals: usize,
}

impl SessionEquity {
    /// The equity of sessions of up to `max_deals` deals (at most [`MAX_SESSION_DEALS`]) whose
    /// deals pay as `measured`; the futures are sampled from `seed`.
    pub fn new(measured: &DealOutcomes, max_deals: usize, seed: u64) -> SessionEquity {
        assert!(
            max_deals <= MAX_SESSION_DEALS as usize,
            "a session of at most {MAX_SESSION_DEALS} deals"
        );
        let players = measured.players;
        let counted = measured.outcomes();
        let total = measured.deals();
        assert!(total > 0, "measured deals");
        let outcomes: Vec<(ByPosition, f64)> = counted
            .iter()
            .map(|&(p, n)| (p, n as f64 / total as f64))
            .collect();
        // Cumulative counts, to draw an outcome in proportion to how often it was measured.
        let cumulative: Vec<u64> = counted
            .iter()
            .scan(0, |sum, &(_, n)| {
                *sum += n;
                Some(*sum)
            })
            .collect();
        let mut rng: SimRng = base_rng(seed);
        let longest = max_deals.saturating_sub(1);
        let draws = (0..FUTURES)
            .map(|_| {
                (0..longest)
                    .map(|_| {
                        let draw = below(&mut rng, total);
                        cumulative.partition_point(|&c| c <= draw) as u32
                    })
                    .collect()
            })
            .collect();
        SessionEquity {
            players,
            outcomes,
            draws,
            max_deals: longest + 1,
        }
    }

    /// The table size.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The longest session it values: one more deal than its longest sampled future.
    pub fn max_deals(&self) -> usize {
        self.max_deals
    }

    /// Whether states with `deals` deals to come are valued exactly (every sequence of outcomes
    /// enumerated) rather than over sampled futures.
    pub fn is_exact(&self, deals: usize) -> bool {
        deals <= 1 || self.enumerated(deals - 1).is_some()
    }

    /// How many sequences of `m` outcomes there are, where that is no more than [`FUTURES`].
    fn enumerated(&self, m: usize) -> Option<usize> {
        let mut count = 1usize;
        for _ in 0..m {
            count = count.checked_mul(self.outcomes.len())?;
            if count > FUTURES {
                return None;
            }
        }
        Some(count)
    }

    /// Each position's chance of winning the session from the start of a deal, with `deals`
    /// deals to come (this one included) and `balances` by position in this deal.
    pub fn win_chances(&self, balances: &ByPosition, deals: usize) -> [f64; MAX_PLAYERS] {
        let n = self.players;
        if deals == 0 {
            return shares(&balances[..n]);
        }
        let before_last = deals - 1;
        let mut total = [0.0; MAX_PLAYERS];
        let mut add = |start: &ByPosition, weight: f64| {
            for &(pay, p) in &self.outcomes {
                let mut end = *start;
                add_shifted(&mut end, &pay, before_last, n);
                let won = shares(&end[..n]);
                for (t, w) in total.iter_mut().zip(won) {
                    *t += weight * p * w;
                }
            }
        };
        if let Some(count) = self.enumerated(before_last) {
            // Every sequence of outcomes of the deals before the last, with its probability.
            for index in 0..count {
                let (mut start, mut weight, mut rest) = (*balances, 1.0, index);
                for m in 0..before_last {
                    let (pay, p) = self.outcomes[rest % self.outcomes.len()];
                    rest /= self.outcomes.len();
                    add_shifted(&mut start, &pay, m, n);
                    weight *= p;
                }
                add(&start, weight);
            }
        } else {
            assert!(
                deals <= self.max_deals,
                "a session longer than the equity was built for"
            );
            let weight = 1.0 / FUTURES as f64;
            for draws in &self.draws {
                let mut start = *balances;
                for (m, &pick) in draws[..before_last].iter().enumerate() {
                    add_shifted(&mut start, &self.outcomes[pick as usize].0, m, n);
                }
                add(&start, weight);
            }
        }
        total
    }

    /// The chance that the seat at `position` wins the session after a deal that began with
    /// `balances` and paid `payments` (both by position in that deal), `deals_after` deals
    /// still to come after it.
    pub fn chance_after(
        &self,
        balances: &ByPosition,
        payments: &ByPosition,
        deals_after: usize,
        position: usize,
    ) -> f64 {
        let n = self.players;
        // The next deal is dealt by this deal's eldest: its position p is this deal's p + 1.
        let mut next = [0; MAX_PLAYERS];
        for (p, slot) in next.iter_mut().enumerate().take(n) {
            let here = (p + 1) % n;
            *slot = balances[here] + payments[here];
        }
        self.win_chances(&next, deals_after)[(position + n - 1) % n]
    }
}

/// One seat's view of its session while it values its calls: what each way this deal can end
/// leaves it of the chance of winning the session. The ways are few (nobody declares, or a
/// seat declares a bid and makes or loses it), so each is valued once, when first needed.
/// The endings are settled by the contract alone: a deal's peeks, purchases and spare-hand
/// costs, which depend on the play of that deal, are left out of the balances it ends with.
pub struct SessionQuery {
    equity: Arc<SessionEquity>,
    /// Balances before this deal, by position in it.
    balances: ByPosition,
    deals_after: usize,
    /// The seat's position in this deal.
    position: usize,
    /// What each ending pays, by position: passed out first, then per declarer, bid and made.
    payments: Vec<ByPosition>,
    /// The chance after each ending, in the same order.
    chances: Vec<OnceLock<f64>>,
}

impl SessionQuery {
    /// The seat at `position` of a deal of `session` dealt by `dealer` (by seat), the kitty
    /// holding `kitty` before it (0 without one), valued by `equity`; each ending settled by
    /// [`contract_payments`]: the bid's stakes, and the ante and the kitty where the profile
    /// has one.
    pub fn new(
        equity: Arc<SessionEquity>,
        profile: &Profile,
        (session, dealer, kitty): (&SessionState, usize, i64),
        position: usize,
    ) -> SessionQuery {
        let n = equity.players;
        let mut balances = [0; MAX_PLAYERS];
        for (p, slot) in balances.iter_mut().enumerate().take(n) {
            *slot = session.balances[(dealer + 1 + p) % n];
        }
        let mut payments = vec![[0; MAX_PLAYERS]; 1 + n * MAX_BIDS * 2];
        payments[0] = contract_payments(profile, n, kitty, None).0;
        for declarer in 0..n {
            for id in profile.bid_ids() {
                for made in [false, true] {
                    let contract = Some((declarer, id, made));
                    payments[Self::slot(contract)] =
                        contract_payments(profile, n, kitty, contract).0;
                }
            }
        }
        SessionQuery {
            equity,
            balances,
            deals_after: session.deals_after() as usize,
            position,
            chances: payments.iter().map(|_| OnceLock::new()).collect(),
            payments,
        }
    }

    /// Where an ending's payments and chance are kept.
    fn slot(contract: Option<(usize, BidId, bool)>) -> usize {
        match contract {
            None => 0,
            Some((declarer, bid, made)) => {
                1 + (declarer * MAX_BIDS + bid.index()) * 2 + usize::from(made)
            }
        }
    }

    /// The seat's chance of winning the session when this deal ends with `contract` (the
    /// declarer's position, the bid and whether it was made; None: passed out).
    pub fn chance(&self, contract: Option<(usize, BidId, bool)>) -> f64 {
        let slot = Self::slot(contract);
        *self.chances[slot].get_or_init(|| {
            let payments = &self.payments[slot];
            self.equity
                .chance_after(&self.balances, payments, self.deals_after, self.position)
        })
    }
}

/// Adds `pay`, the payments of the deal `shift` deals after the first (by its own positions),
/// to `sum` (by positions of the first deal): the deal passes left, so position p of that deal
/// is position p + shift of the first.
fn add_shifted(sum: &mut ByPosition, pay: &ByPosition, shift: usize, players: usize) {
    for (p, &amount) in pay.iter().enumerate().take(players) {
        sum[(p + shift) % players] += amount;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At three players: eldest declares and wins or loses 3 from each, or nobody declares.
    fn eldest_threes() -> DealOutcomes {
        let mut m = DealOutcomes::new(3);
        m.add([6, -3, -3, 0, 0, 0, 0], 2);
        m.add([-6, 3, 3, 0, 0, 0, 0], 1);
        m.add([0; MAX_PLAYERS], 1);
        m
    }

    #[test]
    fn outcomes_read_back_from_their_csv_and_bad_files_are_named() {
        let measured = eldest_threes();
        let text = measured.to_csv();
        assert!(text.starts_with("count,p0,p1,p2\n"), "{text}");
        assert_eq!(
            DealOutcomes::from_csv(&text).unwrap().outcomes(),
            measured.outcomes()
        );
        for (bad, why) in [
            ("", "empty"),
            ("count,p0\n1,0\n", "header"),
            ("count,p1,p0,p2\n1,0,0,0\n", "header"),
            ("count,p0,p1,p2\n1,0,0\n", "line 2: 3 fields"),
            ("count,p0,p1,p2\nx,0,0,0\n", "count"),
            ("count,p0,p1,p2\n1,0,0.5,0\n", "whole number"),
            ("count,p0,p1,p2\n", "no deals"),
        ] {
            let error = DealOutcomes::from_csv(bad).unwrap_err();
            assert!(error.contains(why), "{bad:?}: {error}");
        }
    }

    #[test]
    fn sessions_are_read_or_refused_with_the_reason() {
        let (state, kitty) = parse_session("8/8:-9,+9,0,0", 4, false).unwrap();
        assert_eq!((state.deal, state.deals, kitty), (8, 8, 0));
        assert_eq!(state.balances[..4], [-9, 9, 0, 0]);
        let (state, kitty) = parse_session("2/8:-3,-1,0;kitty=4", 3, true).unwrap();
        assert_eq!((state.balances[..3].to_vec(), kitty), (vec![-3, -1, 0], 4));
        for (bad, players, has_kitty, why) in [
            ("8/8:-9,9,0", 4, false, "3 balances for 4 players"),
            ("8/8:-9,9,1,0", 4, false, "sum to 1"),
            ("9/8:0,0,0,0", 4, false, "deal 9 of 8"),
            ("0/8:0,0,0,0", 4, false, "numbered from 1"),
            ("8:0,0,0,0", 4, false, "D/N:B1"),
            ("8/8", 4, false, "D/N:B1"),
            ("x/8:0,0,0,0", 4, false, "'x' is not a whole number"),
            ("1/8:0,a,0,0", 4, false, "balance 'a'"),
            ("1/8:0,0,0,0;kitty=2", 4, false, "no kitty"),
            ("1/8:0,0,0;kitty=2", 3, true, "and the kitty sum to 2"),
            ("1/8:0,0,0;pot=2", 3, true, "not kitty=K"),
            ("1/8:2,0,0;kitty=-2", 3, true, "from 0 to"),
            ("1/1001:0,0,0,0", 4, false, "at most 1000"),
            ("1/8:-1000000000001,1000000000001,0,0", 4, false, "within ±"),
        ] {
            let error = parse_session(bad, players, has_kitty).unwrap_err();
            assert!(error.contains(why), "{bad}: {error}");
        }
    }

    #[test]
    fn shares_split_the_win_between_tied_leaders() {
        assert_eq!(shares(&[3, 5, 5, -13])[..4], [0.0, 0.5, 0.5, 0.0]);
        assert_eq!(shares(&[0, 0, 0])[..3], [1.0 / 3.0; 3]);
    }

    #[test]
    fn a_lead_no_deal_can_close_wins_for_certain_with_one_deal_left() {
        let equity = SessionEquity::new(&eldest_threes(), 8, 1);
        // The most one deal moves two balances apart is 9 (6 up, 3 down).
        let chances = equity.win_chances(&[10, 0, -10, 0, 0, 0, 0], 1);
        assert_eq!(chances[..3], [1.0, 0.0, 0.0]);
        assert!(equity.is_exact(1));
    }

    #[test]
    fn one_deal_left_is_the_outcomes_weighted() {
        let equity = SessionEquity::new(&eldest_threes(), 8, 1);
        // Level: eldest wins alone when it makes (1/2), the other two share when it fails
        // (1/4), all three share when nobody declares (1/4).
        let chances = equity.win_chances(&[0; MAX_PLAYERS], 1);
        assert!(
            (chances[0] - (0.5 + 0.25 / 3.0)).abs() < 1e-12,
            "{chances:?}"
        );
        assert!(
            (chances[1] - (0.125 + 0.25 / 3.0)).abs() < 1e-12,
            "{chances:?}"
        );
        assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn enumeration_and_sampled_futures_agree() {
        // Two deals left at three players: 4 outcomes, enumerated; a table with many outcomes
        // samples, and the two agree where both can be computed.
        let measured = eldest_threes();
        let equity = SessionEquity::new(&measured, 8, 1);
        assert!(equity.is_exact(6));
        let start = [3, -3, 0, 0, 0, 0, 0];
        let exact = equity.win_chances(&start, 6);
        let mut sampled = equity.clone();
        sampled
            .outcomes
            .extend((0..FUTURES).map(|_| ([0; MAX_PLAYERS], 0.0)));
        assert!(!sampled.is_exact(6));
        let estimate = sampled.win_chances(&start, 6);
        for seat in 0..3 {
            assert!(
                (exact[seat] - estimate[seat]).abs() < 0.03,
                "{exact:?} {estimate:?}"
            );
        }
    }

    #[test]
    fn a_level_session_is_fair_over_the_first_dealer() {
        // Every seat deals equally often over a session of six at three players: level at the
        // start, the chances averaged over who deals first are a third each.
        let equity = SessionEquity::new(&eldest_threes(), 6, 1);
        let chances = equity.win_chances(&[0; MAX_PLAYERS], 6);
        let mean = (chances[0] + chances[1] + chances[2]) / 3.0;
        assert!((mean - 1.0 / 3.0).abs() < 1e-12);
        // And by position too: each is eldest in two of the six deals, and the final balances
        // do not depend on the order of the deals, so rotating the positions changes nothing.
        for seat in 0..3 {
            assert!((chances[seat] - 1.0 / 3.0).abs() < 1e-9, "{chances:?}");
        }
    }

    #[test]
    fn the_state_after_a_deal_is_read_from_the_next_dealers_left() {
        let equity = SessionEquity::new(&eldest_threes(), 8, 1);
        let balances = [4, -2, -2, 0, 0, 0, 0];
        // The last deal: the chance is the share of the final balances.
        let pay = [-3, 6, -3, 0, 0, 0, 0];
        assert_eq!(equity.chance_after(&balances, &pay, 0, 1), 1.0);
        assert_eq!(equity.chance_after(&balances, &pay, 0, 0), 0.0);
        let level = [-4, 2, 2, 0, 0, 0, 0];
        assert_eq!(equity.chance_after(&balances, &level, 0, 2), 1.0 / 3.0);
        // With a deal to come, the next deal's eldest is this deal's position 1: level
        // balances, and eldest only declares, so position 1 has the eldest's chance.
        let zero = [0; MAX_PLAYERS];
        let next = equity.win_chances(&zero, 1);
        assert_eq!(equity.chance_after(&zero, &zero, 1, 1), next[0]);
        assert_eq!(equity.chance_after(&zero, &zero, 1, 0), next[2]);
    }

    #[test]
    fn a_seat_s_query_settles_with_the_ante_and_the_kitty_where_the_profile_has_them() {
        let profile = Profile::builtin("peep-nap").unwrap();
        let mut measured = DealOutcomes::new(4);
        measured.add([0; MAX_PLAYERS], 1);
        let equity = Arc::new(SessionEquity::new(&measured, 8, 1));
        let mut balances = [0; MAX_PLAYERS];
        balances[..4].copy_from_slice(&[-20, 10, -1, -1]);
        let last = SessionState {
            deal: 8,
            deals: 8,
            balances,
        };
        let nap = profile
            .bid_ids()
            .find(|&id| profile.bid(id).name() == "nap-without-floater")
            .unwrap();
        // With 12 in the kitty and four antes of 1, a made Nap takes 15 from the others and 16
        // from the kitty: -20 + 31 - 1 = +10 against the leader's 10 - 5 - 1 = +4.
        let query = SessionQuery::new(equity.clone(), &profile, (&last, 3, 12), 0);
        assert_eq!(query.chance(Some((0, nap, true))), 1.0);
        // With an empty kitty the same Nap leaves it at -2, behind.
        let query = SessionQuery::new(equity, &profile, (&last, 3, 0), 0);
        assert_eq!(query.chance(Some((0, nap, true))), 0.0);
        // Nobody declaring: everyone antes, and the leader stays ahead.
        assert_eq!(query.chance(None), 0.0);
    }

    #[test]
    fn a_seat_s_query_values_each_ending_by_the_profile_s_payouts() {
        let profile = Profile::default_profile();
        let mut measured = DealOutcomes::new(4);
        measured.add([0; MAX_PLAYERS], 1);
        let equity = SessionEquity::new(&measured, 8, 1);
        let mut balances = [0; MAX_PLAYERS];
        balances[..4].copy_from_slice(&[-9, 9, 0, 0]);
        let last = SessionState {
            deal: 8,
            deals: 8,
            balances,
        };
        // Dealer seat 3: seat 0 is eldest (position 0), at -9; seat 1 leads at +9. Only a
        // made Nap (5 from each of three, to +6 against seat 1's +4) lifts seat 0 past it; a
        // made Four (4 from each) leaves it at +3 against +5.
        let query = SessionQuery::new(Arc::new(equity), &profile, (&last, 3, 0), 0);
        let bid = |name: &str| {
            profile
                .bid_ids()
                .find(|&id| profile.bid(id).name() == name)
                .unwrap()
        };
        assert_eq!(query.chance(None), 0.0);
        assert_eq!(query.chance(Some((0, bid("four"), true))), 0.0);
        assert_eq!(query.chance(Some((0, bid("nap"), true))), 1.0);
        assert_eq!(query.chance(Some((0, bid("nap"), false))), 0.0);
    }
}
