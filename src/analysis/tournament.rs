//! `napsim tournament`: entrants (a bid policy and a play policy each) play sessions against
//! each other; which is better, by how much, and how sure we are.
//!
//! **Seats.** Entrant `e` of `E` holds the seats `s` with `s % E == e` in the first rotation; in
//! rotation `r` the seat `s` goes to entrant `((s + r) % P) % E` (P seats), so over the P
//! rotations every entrant sits in every seat. An entrant's result in a session is the mean over
//! the seats it held.
//!
//! **Duplicate** (the default): card set `k` is replayed once per rotation from the same card
//! and policy streams, so every entrant plays every seat on the same cards (under profiles that
//! shuffle every deal; with limited shuffling the pack carries each session's play into the next
//! deal, so only the first deal of a set repeats exactly). Without duplicate, card set `k` is
//! one session in the first rotation.
//!
//! **Results.** An entrant's result in a card set is its balance per seat-session (summed over
//! the seats it held and the set's sessions, divided by their number, which is the same for
//! every set): with as many seats per session for every entrant, the mean over the seats it held,
//! averaged over the set's sessions. Standard errors come from the spread over card sets, and
//! differences between entrants are paired by card set.
//!
//! **Tallies** are integers per card set, so blocks merge exactly: an entrant's balance summed
//! over its seats and the set's sessions (the divisor, its seat-sessions per set, is the same for
//! every set), its sum of squares, the same for win shares (in 420ths), the paired differences of
//! every two entrants scaled to integers, and per bid how often the entrant declared and made it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::bots::ext::BotPool;
use crate::bots::{bid_policy_in, input_files, play_policy_in};
use crate::error::{Error, InputError};
use crate::game::{Shuffler, play_session};
use crate::policy::{BidPolicy, PlayPolicy, SpecError};
use crate::policy::{Table, run_deal};
use crate::rng::SimRng;
use crate::rules::{MAX_PLAYERS, Profile};
use crate::run::LongCommand;
use crate::sim::{Block, Tally, TallyError};
use crate::stats::sprt::{Decision, Sprt, Standing};

/// Card sets per block. Part of the determinism contract: changing it changes the results.
pub const BLOCK_SIZE: u64 = 64;

/// One entrant: a name and its two policies.
pub struct Entrant {
    /// The name it is reported under.
    pub name: String,
    /// The bid policy spec.
    pub bid_spec: String,
    /// The play policy spec.
    pub play_spec: String,
    /// The bid policy.
    pub bid: Box<dyn BidPolicy>,
    /// The play policy.
    pub play: Box<dyn PlayPolicy>,
}

/// Why an entrant, or the set of them, was refused.
#[derive(Debug, thiserror::Error)]
pub enum EntrantError {
    /// Not `NAME=BID/PLAY`.
    #[error("`entrant` '{text}' is not NAME=BID/PLAY (e.g. pimc=threshold/pimc:worlds=16)")]
    Syntax {
        /// The entrant as written.
        text: String,
    },
    /// A name with other characters than letters, digits, `-`, `_` and `.`, or none.
    #[error("`entrant` '{text}': the name must be letters, digits, '-', '_' or '.'")]
    Name {
        /// The entrant as written.
        text: String,
    },
    /// No `/` between the two policies.
    #[error("`entrant` '{text}': no '/' between the bid and play policies (NAME=BID/PLAY)")]
    NoSlash {
        /// The entrant as written.
        text: String,
    },
    /// A policy spec that cannot be used.
    #[error("`entrant` '{name}': {source}")]
    Spec {
        /// The entrant's name.
        name: String,
        /// What is wrong with the spec.
        #[source]
        source: SpecError,
    },
    /// Fewer than two entrants, or more than seats.
    #[error("a tournament needs 2 to {players} entrants at {players} players; {given} given")]
    Count {
        /// Seats at the table.
        players: usize,
        /// Entrants given.
        given: usize,
    },
    /// An entrant's bid policy cannot bid at this table (a strategy for another table size).
    #[error("`entrant` '{name}': {reason}")]
    Table {
        /// The entrant's name.
        name: String,
        /// Why not.
        reason: String,
    },
    /// Two entrants of one name.
    #[error("two entrants are named '{name}'")]
    SameName {
        /// The name.
        name: String,
    },
}

impl InputError for EntrantError {}

/// Parses `NAME=BID/PLAY` (a spec containing `/` is wrapped in parentheses).
pub fn parse_entrant(
    text: &str,
    profile: &Profile,
    bots: &BotPool,
) -> Result<Entrant, EntrantError> {
    let (name, specs) = text.split_once('=').ok_or_else(|| EntrantError::Syntax {
        text: text.to_string(),
    })?;
    let name = name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err(EntrantError::Name {
            text: text.to_string(),
        });
    }
    let slash = top_level_slash(specs).ok_or_else(|| EntrantError::NoSlash {
        text: text.to_string(),
    })?;
    let unwrap = |s: &str| {
        let s = s.trim();
        if s.starts_with('(') && s.ends_with(')') {
            s[1..s.len() - 1].to_string()
        } else {
            s.to_string()
        }
    };
    let (bid_spec, play_spec) = (unwrap(&specs[..slash]), unwrap(&specs[slash + 1..]));
    let spec_error = |source| EntrantError::Spec {
        name: name.to_string(),
        source,
    };
    let bid = bid_policy_in(&bid_spec, profile, bots).map_err(spec_error)?;
    let play = play_policy_in(&play_spec, profile, bots).map_err(spec_error)?;
    Ok(Entrant {
        name: name.to_string(),
        bid_spec,
        play_spec,
        bid,
        play,
    })
}

/// The position of the first `/` outside parentheses.
fn top_level_slash(text: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '/' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// What to play.
pub struct TournamentConfig<'a> {
    /// The rules.
    pub profile: &'a Profile,
    /// Table size.
    pub players: usize,
    /// The entrants (at least two, at most the table size).
    pub entrants: &'a [Entrant],
    /// Card sets (with duplicate) or sessions.
    pub sets: u64,
    /// The seed.
    pub seed: u64,
    /// Replay every card set in every rotation.
    pub duplicate: bool,
    /// With `--forfeit`, the pool of the entrants' external bots: a failing bot there forfeits
    /// its deal instead of ending the run. None: a failing bot ends the run.
    pub forfeit: Option<&'a BotPool>,
    /// Also tally the first two entrants' paired win shares, for a sequential test on them
    /// (`--sprt-on wins`).
    pub win_test: bool,
}

impl TournamentConfig<'_> {
    /// The rotations a card set is played in.
    pub fn rotations(&self) -> usize {
        if self.duplicate { self.players } else { 1 }
    }

    /// The entrant at `seat` in rotation `rotation`.
    pub fn entrant_at(&self, seat: usize, rotation: usize) -> usize {
        ((seat + rotation) % self.players) % self.entrants.len()
    }

    /// Seat-sessions entrant `e` plays per card set (the same for every set).
    pub fn seat_sessions(&self, e: usize) -> u64 {
        let mut count = 0;
        for r in 0..self.rotations() {
            for seat in 0..self.players {
                count += u64::from(self.entrant_at(seat, r) == e);
            }
        }
        count
    }
}

/// Per entrant: integer sums over card sets.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EntrantTally {
    /// Balances over its seats and the set's sessions, summed over sets.
    pub balance: i64,
    /// Their squares, summed over sets.
    pub balance_sq: u128,
    /// Win shares (420ths) over its seats and the set's sessions, summed over sets.
    pub wins_420: u64,
    /// Their squares.
    pub wins_420_sq: u128,
    /// Deals played in its seats.
    pub deals: u64,
    /// Per bid: deals it declared it, and made it.
    pub declared: Vec<(u64, u64)>,
    /// Deals it forfeited: its external bot failed in them (`--forfeit`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub forfeits: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The tallies of a tournament.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TournamentTally {
    /// Card sets played.
    pub sets: u64,
    /// Per entrant.
    pub entrants: Vec<EntrantTally>,
    /// Per ordered pair (a, b), a != b, at `a * E + b`: the sum over sets of
    /// `N_a * c_b - N_b * c_a` (N: balance sums, c: seat-sessions per set) and its square.
    pub pairs: Vec<(i64, u128)>,
    /// Every session's balances summed over all seats (should be zero, or minus the kitty).
    pub balance_total: i64,
    /// Every session's kitty at the end, summed.
    pub kitty_total: i64,
    /// With a sequential test on the win share: the sum over sets of `W_0 * c_1 - W_1 * c_0`
    /// (W: the first two entrants' wins in 420ths, c: their seat-sessions per set) and its
    /// square. None otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_pair: Option<(i64, u128)>,
}

impl Tally for TournamentTally {
    fn units(&self) -> Option<u64> {
        Some(self.sets)
    }

    fn check(&self, bids: usize) -> Result<(), TallyError> {
        let n = self.entrants.len();
        let fits = self.sets == 0
            || (self.pairs.len() == n * n
                && self
                    .entrants
                    .iter()
                    .all(|e| e.declared.len() == bids && e.declared.iter().all(|(d, m)| m <= d)));
        if fits {
            Ok(())
        } else {
            Err(TallyError::EntrantCounts)
        }
    }

    fn merge(&mut self, other: TournamentTally) {
        self.sets += other.sets;
        self.balance_total += other.balance_total;
        self.kitty_total += other.kitty_total;
        if let Some((sum, sq)) = other.win_pair {
            let mine = self.win_pair.get_or_insert((0, 0));
            mine.0 += sum;
            mine.1 += sq;
        }
        if self.entrants.is_empty() {
            self.entrants = other.entrants;
            self.pairs = other.pairs;
            return;
        }
        for (a, b) in self.entrants.iter_mut().zip(other.entrants) {
            a.balance += b.balance;
            a.balance_sq += b.balance_sq;
            a.wins_420 += b.wins_420;
            a.wins_420_sq += b.wins_420_sq;
            a.deals += b.deals;
            a.forfeits += b.forfeits;
            for (x, y) in a.declared.iter_mut().zip(b.declared) {
                x.0 += y.0;
                x.1 += y.1;
            }
        }
        for (a, b) in self.pairs.iter_mut().zip(other.pairs) {
            a.0 += b.0;
            a.1 += b.1;
        }
    }
}

/// The card sets of one block.
pub fn tournament_block(config: &TournamentConfig, block: Block) -> TournamentTally {
    let profile = config.profile;
    let players = config.players;
    let n = config.entrants.len();
    let bids = profile.bids().len();
    let mut tally = TournamentTally {
        sets: block.len,
        entrants: vec![
            EntrantTally {
                declared: vec![(0, 0); bids],
                ..EntrantTally::default()
            };
            n
        ],
        pairs: vec![(0, 0); n * n],
        ..TournamentTally::default()
    };
    let counts: Vec<i64> = (0..n).map(|e| config.seat_sessions(e) as i64).collect();
    let mut shuffler = Shuffler::new(profile, players);
    let (mut deal_rng, mut policy_rng) = (block.deal_rng, block.policy_rng);
    for _ in 0..block.len {
        // Every rotation of the set starts from the same streams and the same pack (a shuffle
        // permutes the pack as it lies, so the same draws on another order deal other cards);
        // the next set continues from where the first rotation left them.
        let (set_deal, set_policy) = (deal_rng.clone(), policy_rng.clone());
        let set_shuffler = shuffler.clone();
        let mut sums = vec![0i64; n];
        let mut wins = vec![0u64; n];
        for r in 0..config.rotations() {
            let seat_of: Vec<usize> = (0..players).map(|s| config.entrant_at(s, r)).collect();
            let bid_refs: Vec<&dyn BidPolicy> = seat_of
                .iter()
                .map(|&e| config.entrants[e].bid.as_ref())
                .collect();
            let play_refs: Vec<&dyn PlayPolicy> = seat_of
                .iter()
                .map(|&e| config.entrants[e].play.as_ref())
                .collect();
            let table = Table::per_seat(&bid_refs, &play_refs);
            let (mut d, mut p): (SimRng, SimRng) = (set_deal.clone(), set_policy.clone());
            let mut pack = set_shuffler.clone();
            let entrants = &mut tally.entrants;
            let result = play_session(profile, &mut pack, players, &mut d, |state| {
                if let Some(bots) = config.forfeit {
                    let ((), mut seats) = bots.record_forfeits(|| run_deal(state, &table, &mut p));
                    if let Some(&first) = seats.first() {
                        state.forfeit(first);
                    }
                    seats.sort_unstable();
                    seats.dedup();
                    for seat in seats {
                        entrants[seat_of[seat]].forfeits += 1;
                    }
                } else {
                    run_deal(state, &table, &mut p);
                }
                {
                    if let Some(s) = state.settlement() {
                        let e = seat_of[s.declarer];
                        let slot = &mut entrants[e].declared[s.bid.index()];
                        slot.0 += 1;
                        slot.1 += u64::from(s.made);
                    }
                }
            });
            if r == 0 {
                (deal_rng, policy_rng, shuffler) = (d, p, pack);
            }
            for (seat, &e) in seat_of.iter().enumerate() {
                sums[e] += result.balances[seat];
                wins[e] += u64::from(result.win_share_420[seat]);
                tally.entrants[e].deals += result.deals as u64;
            }
            tally.balance_total += result.balances[..players].iter().sum::<i64>();
            tally.kitty_total += result.kitty;
        }
        if config.win_test {
            let d = wins[0] as i64 * counts[1] - wins[1] as i64 * counts[0];
            let pair = tally.win_pair.get_or_insert((0, 0));
            pair.0 += d;
            pair.1 += (d as i128 * d as i128) as u128;
        }
        for e in 0..n {
            let t = &mut tally.entrants[e];
            t.balance += sums[e];
            t.balance_sq += (sums[e] as i128 * sums[e] as i128) as u128;
            t.wins_420 += wins[e];
            t.wins_420_sq += u128::from(wins[e]) * u128::from(wins[e]);
        }
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    let d = sums[a] * counts[b] - sums[b] * counts[a];
                    let pair = &mut tally.pairs[a * n + b];
                    pair.0 += d;
                    pair.1 += (d as i128 * d as i128) as u128;
                }
            }
        }
    }
    tally
}

/// The arguments that decide a tournament's outputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentJob {
    /// Table size.
    pub players: usize,
    /// The entrants, `NAME=BID/PLAY`, as given.
    pub entrants: Vec<String>,
    /// Card sets (sessions) to play.
    pub sessions: u64,
    /// Whether each card set is replayed with the entrants rotated through the seats.
    pub duplicate: bool,
    /// Files the policies read (`table:file=`), with a digest of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub input_files: BTreeMap<String, String>,
    /// Stop at the first block boundary where this test on the first two entrants decides
    /// (`--sprt`); `sessions` is then the most card sets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<Sprt>,
    /// A failing external bot forfeits its deal and the run goes on (`--forfeit`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forfeit: bool,
    /// The sequential test is on the win share (`--sprt-on wins`), not the units.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sprt_wins: bool,
}

impl TournamentJob {
    /// The tournament of `entrants` (`NAME=BID/PLAY`) over `sessions` card sets at `players`
    /// seats as `napsim tournament` plays it by default: duplicate (every card set replayed with
    /// the entrants rotated through the seats), no sequential test, a failing bot ending the run.
    pub fn new(players: usize, entrants: Vec<String>, sessions: u64) -> TournamentJob {
        TournamentJob {
            players,
            entrants,
            sessions,
            duplicate: true,
            input_files: BTreeMap::new(),
            sprt: None,
            forfeit: false,
            sprt_wins: false,
        }
    }
}

/// `napsim tournament`, prepared: the entrants parsed and checked.
pub struct Tournament {
    profile: Profile,
    job: TournamentJob,
    entrants: Vec<Entrant>,
    /// Where the entrants' external bots run.
    bots: BotPool,
}

impl Tournament {
    /// The entrants.
    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    /// Where the sequential test (`--sprt`) stands with `tally`: the paired differences of
    /// the first entrant minus the second, per card set, in units per session (with
    /// `--sprt-on wins`, in win share per session).
    pub fn sprt_standing(&self, tally: &TournamentTally) -> Option<Standing> {
        let sprt = self.job.sprt?;
        let n = self.entrants.len();
        let (sum, sq) = if self.job.sprt_wins {
            tally.win_pair.unwrap_or((0, 0))
        } else {
            tally.pairs.get(1).copied().unwrap_or((0, 0))
        };
        debug_assert!(tally.sets == 0 || tally.pairs.len() == n * n);
        // The integers are c_a c_b times the differences (see `rows`), the wins in 420ths.
        let unit = if self.job.sprt_wins { 420.0 } else { 1.0 };
        let scale = unit * (self.seat_sessions(0) * self.seat_sessions(1)) as f64;
        let (sum, sq) = (sum as f64 / scale, sq as f64 / (scale * scale));
        Some(sprt.standing(tally.sets, sum, sq))
    }

    /// The sequential test's conclusion with the whole run's `tally` (`None` without `--sprt`).
    pub fn sprt_decision(&self, tally: &TournamentTally) -> Option<(Decision, Standing)> {
        let standing = self.sprt_standing(tally)?;
        Some((
            Sprt::crossed(&standing).unwrap_or(Decision::NoDecision),
            standing,
        ))
    }

    fn seat_sessions(&self, e: usize) -> u64 {
        self.config(0).seat_sessions(e)
    }

    /// The tournament's configuration with `seed`.
    pub fn config(&self, seed: u64) -> TournamentConfig<'_> {
        TournamentConfig {
            profile: &self.profile,
            players: self.job.players,
            entrants: &self.entrants,
            sets: self.job.sessions,
            seed,
            duplicate: self.job.duplicate,
            forfeit: self.job.forfeit.then_some(&self.bots),
            win_test: self.job.sprt.is_some() && self.job.sprt_wins,
        }
    }
}

/// Parses and checks the entrants of `job`: two to one per seat, distinct names; their
/// external bots run in `bots`.
pub fn parse_entrants(
    profile: &Profile,
    job: &TournamentJob,
    bots: &BotPool,
) -> Result<Vec<Entrant>, Error> {
    profile.check_players(job.players)?;
    let entrants = job
        .entrants
        .iter()
        .map(|text| {
            let entrant = parse_entrant(text, profile, bots)?;
            entrant
                .bid
                .check_table(job.players)
                .map_err(|reason| EntrantError::Table {
                    name: entrant.name.clone(),
                    reason,
                })?;
            Ok(entrant)
        })
        .collect::<Result<Vec<_>, EntrantError>>()?;
    if entrants.len() < 2 || entrants.len() > job.players {
        return Err(EntrantError::Count {
            players: job.players,
            given: entrants.len(),
        }
        .into());
    }
    for (i, e) in entrants.iter().enumerate() {
        if entrants[..i].iter().any(|o| o.name == e.name) {
            return Err(EntrantError::SameName {
                name: e.name.clone(),
            }
            .into());
        }
    }
    Ok(entrants)
}

impl LongCommand for Tournament {
    const NAME: &'static str = "tournament";
    const UNIT: &'static str = "card sets";
    const BLOCK_SIZE: u64 = BLOCK_SIZE;
    type Job = TournamentJob;
    type Tally = TournamentTally;

    fn prepare(
        profile: &Profile,
        mut job: TournamentJob,
        bots: &BotPool,
    ) -> Result<Tournament, Error> {
        let entrants = parse_entrants(profile, &job, bots)?;
        if let Some(sprt) = &job.sprt {
            sprt.check().map_err(Error::input)?;
        }
        if job.input_files.is_empty() {
            let specs: Vec<&str> = entrants
                .iter()
                .flat_map(|e| [e.bid_spec.as_str(), e.play_spec.as_str()])
                .collect();
            job.input_files = input_files(&specs)?;
        }
        Ok(Tournament {
            entrants,
            profile: profile.clone(),
            job,
            bots: bots.clone(),
        })
    }

    fn profile(&self) -> &Profile {
        &self.profile
    }

    fn job(&self) -> &TournamentJob {
        &self.job
    }

    fn units(&self) -> u64 {
        self.job.sessions
    }

    fn block(&self, seed: u64, block: Block) -> TournamentTally {
        tournament_block(&self.config(seed), block)
    }

    /// With `--sprt`, the test is looked at after every block, in block order.
    fn check_every(&self) -> Option<u64> {
        self.job.sprt.map(|_| 1)
    }

    fn may_stop(&self, tally: &mut TournamentTally) -> bool {
        self.sprt_standing(tally)
            .is_some_and(|standing| Sprt::crossed(&standing).is_some())
    }
}

/// Mean and standard error of `x / scale` over `n` samples, from the sums of `x` and `x^2`.
fn scaled_mean_se(n: u64, sum: i64, sum_sq: u128, scale: f64) -> (f64, f64) {
    let (m, se) = crate::stats::mean_se(n, sum, sum_sq).unwrap_or((0.0, 0.0));
    (m / scale, se / scale)
}

/// One CSV row per entrant.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct EntrantRow {
    /// Its name.
    pub entrant: String,
    /// Its bid policy spec.
    pub bid_policy: String,
    /// Its play policy spec.
    pub play_policy: String,
    /// Sessions played (card sets times rotations).
    pub sessions: u64,
    /// Mean balance per session.
    pub mean_balance: f64,
    /// Its standard error (over card sets).
    pub mean_balance_se: f64,
    /// Mean units per deal.
    pub units_per_deal: f64,
    /// Share of sessions won per seat it held (ties shared): with N seats, an entrant no
    /// better than the others wins 1/N.
    pub win_share: f64,
    /// Normal 95% interval of the win share.
    pub win_share_ci95_low: f64,
    /// Normal 95% interval of the win share.
    pub win_share_ci95_high: f64,
    /// Made / declared per bid, over every seat it held: `three:90/120 four:...` (a bid it
    /// never declared is left out).
    pub declarer: String,
}

/// One CSV row per ordered pair of entrants.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PairRow {
    /// The first entrant.
    pub entrant_a: String,
    /// The second entrant.
    pub entrant_b: String,
    /// a's mean balance per session minus b's, paired by card set.
    pub mean_diff: f64,
    /// Its standard error.
    pub mean_diff_se: f64,
    /// 95% interval.
    pub ci95_low: f64,
    /// 95% interval.
    pub ci95_high: f64,
    /// Whether the interval excludes zero.
    pub significant: bool,
}

/// The rows of a finished tournament.
pub fn rows(tally: &TournamentTally, config: &TournamentConfig) -> (Vec<EntrantRow>, Vec<PairRow>) {
    let n = config.entrants.len();
    let sets = tally.sets;
    let entrants = (0..n)
        .map(|e| {
            let t = &tally.entrants[e];
            let entrant = &config.entrants[e];
            let c = config.seat_sessions(e) as f64;
            let (mean, se) = scaled_mean_se(sets, t.balance, t.balance_sq, c);
            // Per seat it held, like the balance: comparable between entrants holding different
            // numbers of seats (the shares of all the seats of a session add up to one).
            let (w, w_se) = scaled_mean_se(sets, t.wins_420 as i64, t.wins_420_sq, 420.0 * c);
            let declarer = config
                .profile
                .bid_ids()
                .zip(&t.declared)
                .filter(|(_, d)| d.0 > 0)
                .map(|(id, d)| format!("{}:{}/{}", config.profile.bid(id).name(), d.1, d.0))
                .collect::<Vec<_>>()
                .join(" ");
            EntrantRow {
                entrant: entrant.name.clone(),
                bid_policy: entrant.bid_spec.clone(),
                play_policy: entrant.play_spec.clone(),
                sessions: sets * config.rotations() as u64,
                mean_balance: mean,
                mean_balance_se: se,
                units_per_deal: t.balance as f64 / t.deals.max(1) as f64,
                win_share: w,
                win_share_ci95_low: w - 1.96 * w_se,
                win_share_ci95_high: w + 1.96 * w_se,
                declarer,
            }
        })
        .collect();
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            let (ca, cb) = (
                config.seat_sessions(a) as f64,
                config.seat_sessions(b) as f64,
            );
            let (sum, sq) = tally.pairs[a * n + b];
            // The integer is N_a c_b - N_b c_a = c_a c_b (N_a / c_a - N_b / c_b).
            let scale = ca * cb;
            let (mean, se) = scaled_mean_se(sets, sum, sq, scale);
            pairs.push(PairRow {
                entrant_a: config.entrants[a].name.clone(),
                entrant_b: config.entrants[b].name.clone(),
                mean_diff: mean,
                mean_diff_se: se,
                ci95_low: mean - 1.96 * se,
                ci95_high: mean + 1.96 * se,
                significant: (mean - 1.96 * se) > 0.0 || (mean + 1.96 * se) < 0.0,
            });
        }
    }
    (entrants, pairs)
}

/// The largest table: entrants beyond the seats could not all play.
pub const MAX_ENTRANTS: usize = MAX_PLAYERS;
