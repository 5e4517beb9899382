//! `napsim optimize`: a bidding strategy found by iterated best response on common random
//! deals, and its exploitability.
//!
//! A strategy ([`crate::bots::tuned`]) maps a cell, (seat, calls before, hand class), to a call,
//! the threshold bidder standing in for cells it lacks. Each **round** deals fresh deals; on
//! each deal every seat with a call to make is valued call by call against the current
//! strategy of the others ([`deal`]: the same deal, the same later seats' streams and the same
//! contract plays for every call), and the gains of each call over the strategy's call are
//! tallied per cell ([`tally`]). The round then sets each cell to its best call where the lead
//! is significant ([`improve::Rule`]) and records what changed; the optimiser stops when a round
//! changes no cell's play or after its rounds. The **exploitability** phase values held-out
//! deals by exact class: a best response chosen on their first half is measured on the second
//! ([`improve::exploitability`]).
//!
//! Each phase is an ordinary long command ([`OptimizePhase`]): blocks of deals, integer
//! tallies, shards, checkpoints. Its job holds the strategy file it starts from, so a phase run
//! on one machine or as Slurm shards and `napsim merge` gives the same next file.

pub mod deal;
pub mod improve;
pub mod tally;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::bots::ext::BotPool;
use crate::bots::input_files;
use crate::bots::tuned::{History, STRATEGY_FORMAT, Strategy, StrategyBody, Tuned, scheme_named};
use crate::error::Error;
use crate::eval::classes::Scheme;
use crate::game::Shuffler;
use crate::policy::PlayPolicy;
use crate::rng::next_u64;
use crate::rules::{BidId, Profile};
use crate::run::LongCommand;
use crate::sim::Block;
use crate::stats::normal_quantile;
use deal::Valuer;
use improve::{Change, Exploitability, Rule};
pub use tally::OptimizeTally;

/// Deals per block. Part of the determinism contract: changing it changes the results.
pub const BLOCK_SIZE: u64 = 256;

/// The arguments that decide an optimiser run's outputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptimizeSettings {
    /// Table size.
    pub players: usize,
    /// Every seat's play policy (a spec).
    pub play: String,
    /// The strategy's class scheme (`classes`, `classes-misere`, `coarse`, `exact`,
    /// `strength`).
    pub by: String,
    /// What the strategy's cells know of the earlier calls (`calls`, left out of files, or
    /// `highest`).
    #[serde(
        default = "crate::bots::tuned::calls_history",
        skip_serializing_if = "crate::bots::tuned::is_calls_history"
    )]
    pub history: String,
    /// Deals per round.
    pub deals: u64,
    /// The most rounds.
    pub rounds: u32,
    /// The one-sided confidence a change needs (0.99: a lead of 2.33 standard errors).
    pub level: f64,
    /// Cells reached by fewer hands in a round keep their call.
    pub min_hands: u64,
    /// Held-out deals for the exploitability (each half chooses a best response that the
    /// other half measures).
    pub held_out: u64,
    /// Deals whose Misères (one declared from each seat) fit the rating of `classes-rated`
    /// before the first round (0, and left out, for the other schemes).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rating_deals: u64,
    /// The one-sided confidence at which the exploitability's best response deviates from the
    /// strategy (in cells reached by at least [`DEVIATION_MIN_HANDS`] hands).
    pub deviation_level: f64,
    /// The run's seed: round `r` deals from [`phase_seed`]`(seed, r)`.
    pub seed: u64,
    /// Where the run started: `threshold`, or the strategy file given.
    pub start: String,
    /// Files the play policy reads, with a digest of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub input_files: BTreeMap<String, String>,
}

impl OptimizeSettings {
    /// The rule that decides a round's changes.
    pub fn rule(&self) -> Rule {
        Rule {
            z: normal_quantile(self.level).unwrap_or(f64::INFINITY),
            min_hands: self.min_hands,
        }
    }

    /// The rule by which the exploitability's best response deviates.
    pub fn deviation_rule(&self) -> Rule {
        Rule {
            z: normal_quantile(self.deviation_level).unwrap_or(f64::INFINITY),
            min_hands: DEVIATION_MIN_HANDS,
        }
    }

    /// Checks the numbers a run needs.
    pub fn check(&self, profile: &Profile) -> Result<Scheme, Error> {
        profile.check_players(self.players)?;
        for (flag, level) in [
            ("`level`", self.level),
            ("`deviation_level`", self.deviation_level),
        ] {
            if !(level > 0.5 && level < 1.0) {
                return Err(Error::input(format!(
                    "{flag} {level}: give a confidence between 0.5 and 1, such as 0.99"
                )));
            }
        }
        if self.deals == 0 || self.held_out < 2 {
            return Err(Error::input(
                "`deals` must be at least 1 and `held_out` at least 2 (half choose the best \
                 response, half measure it)",
            ));
        }
        if History::named(&self.history).is_none() {
            return Err(Error::input(format!(
                "`history` {}: use calls or highest",
                self.history
            )));
        }
        let scheme = scheme_named(&self.by).ok_or_else(|| {
            Error::input(format!(
                "`by` {}: use classes, classes-misere, classes-rated, coarse, exact or strength",
                self.by
            ))
        })?;
        if scheme == Scheme::ClassesRated {
            if misere_bid(profile).is_none() {
                return Err(Error::input(format!(
                    "`by` classes-rated rates hands for a Misère, which profile {} does not \
                     have: use classes",
                    profile.name()
                )));
            }
            if self.rating_deals == 0 {
                return Err(Error::input(
                    "`rating_deals` must be at least 1 with `by` classes-rated",
                ));
            }
        }
        Ok(scheme)
    }
}

/// Whether a count is 0 (then left out of files).
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The profile's Misère: its first bid that the declarer makes by taking no trick.
pub fn misere_bid(profile: &Profile) -> Option<BidId> {
    profile.bid_ids().find(|&id| profile.bid(id).is_misere())
}

/// One round as the strategy file records it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundReport {
    /// The round, from 1.
    pub round: u32,
    /// The deals' seed ([`phase_seed`]).
    pub seed: u64,
    /// Deals valued.
    pub deals: u64,
    /// Cells reached.
    pub cells_reached: usize,
    /// Cells whose play changed.
    pub changed: usize,
    /// Each seat's mean units per deal under the strategy the round started from, with its
    /// standard error.
    pub seat_values: Vec<(f64, f64)>,
    /// The changes' mean lead per hand that reached them (weighted by those hands).
    pub mean_gain: f64,
    /// The changes' summed leads per deal: what the round's changes add, each against the
    /// strategy it started from.
    pub gain_per_deal: f64,
    /// The changes, largest lead times hands first (at most [`REPORTED_CHANGES`]).
    pub largest_changes: Vec<ChangeNote>,
}

/// The fewest hands in a cell at which the exploitability's best response may deviate (the
/// normal approximation of its test wants about this many).
pub const DEVIATION_MIN_HANDS: u64 = 30;

/// How many changes a round report lists.
pub const REPORTED_CHANGES: usize = 12;

/// A change as the file shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChangeNote {
    /// The seat.
    pub seat: usize,
    /// The calls before, by name.
    pub calls: Vec<String>,
    /// The class label.
    pub class: String,
    /// The call before (`fallback` for the threshold bidder's).
    pub from: String,
    /// The call now.
    pub to: String,
    /// Hands that reached the cell.
    pub hands: u64,
    /// The lead per hand and its standard error.
    pub gain: (f64, f64),
}

/// How a strategy was found: the strategy file's record of its run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Found {
    /// The run's settings.
    pub settings: OptimizeSettings,
    /// The rounds so far.
    pub rounds: Vec<RoundReport>,
    /// Whether the last round changed nothing.
    pub converged: bool,
    /// The exploitability, once measured (the run is then finished).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exploitability: Option<Exploitability>,
}

/// A strategy file with its record: what `napsim optimize` writes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyFile {
    /// The playable strategy.
    #[serde(flatten)]
    pub body: StrategyBody,
    /// How it was found.
    pub found: Found,
}

impl StrategyFile {
    /// The start of a run: no cells, nothing found yet.
    pub fn start(profile: &Profile, settings: &OptimizeSettings) -> StrategyFile {
        StrategyFile {
            body: StrategyBody {
                format: STRATEGY_FORMAT.to_string(),
                profile: profile.name().to_string(),
                players: settings.players,
                by: settings.by.clone(),
                history: settings.history.clone(),
                play: settings.play.clone(),
                fallback: "threshold".to_string(),
                rating: None,
                cells: Vec::new(),
            },
            found: Found {
                settings: settings.clone(),
                rounds: Vec::new(),
                converged: false,
                exploitability: None,
            },
        }
    }

    /// The file's bytes: pretty JSON and a final newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).expect("a strategy serialises");
        bytes.push(b'\n');
        bytes
    }

    /// The next phase of the run `settings` describes, from this file: another round while the
    /// strategy has not settled and rounds remain, then the exploitability; None when finished.
    pub fn next_phase(&self, settings: &OptimizeSettings) -> Option<Phase> {
        let done = self.found.rounds.len() as u32;
        let scheme = scheme_named(&self.body.by);
        if scheme == Some(Scheme::ClassesRated) && self.body.rating.is_none() {
            Some(Phase::Rating)
        } else if !self.found.converged && done < settings.rounds {
            Some(Phase::Round(done + 1))
        } else if self.found.exploitability.is_none() {
            Some(Phase::Exploitability)
        } else {
            None
        }
    }
}

/// A phase of an optimiser run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The Misère rating of `classes-rated`, fitted before the first round.
    Rating,
    /// Round `r` (from 1).
    Round(u32),
    /// The exploitability on held-out deals.
    Exploitability,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Phase::Rating => f.write_str("misère rating"),
            Phase::Round(r) => write!(f, "round {r}"),
            Phase::Exploitability => f.write_str("exploitability"),
        }
    }
}

/// Mixed into the run's seed for the held-out deals.
const HELD_OUT_STREAM: u64 = 0x6865_6c64_2d6f_7574;
/// Mixed into the run's seed for the Misère rating's deals.
const RATING_STREAM: u64 = 0x7261_7469_6e67_2d6d;

/// The seed of `phase`'s deals in the run of `seed`: each round deals fresh deals, and the
/// held-out deals are none of them.
pub fn phase_seed(seed: u64, phase: Phase) -> u64 {
    let mix = match phase {
        Phase::Round(r) => u64::from(r).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        Phase::Exploitability => HELD_OUT_STREAM,
        Phase::Rating => RATING_STREAM,
    };
    let mut z = seed ^ mix;
    // SplitMix64's finaliser: neighbouring seeds and rounds give unrelated streams.
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The job of one phase: the run's settings, the file it starts from, which phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseJob {
    /// Which phase.
    pub phase: Phase,
    /// The strategy file the phase starts from.
    pub strategy: StrategyFile,
}

/// One phase of `napsim optimize`, prepared.
pub struct OptimizePhase {
    profile: Profile,
    job: PhaseJob,
    strategy: Tuned,
    play: Box<dyn PlayPolicy>,
    /// The classes of the tallied cells: the strategy's, or exact for the exploitability.
    scheme: Scheme,
}

impl OptimizePhase {
    /// The run's settings.
    pub fn settings(&self) -> &OptimizeSettings {
        &self.job.strategy.found.settings
    }

    /// The strategy the phase starts from.
    pub fn strategy(&self) -> &Strategy {
        self.strategy.strategy()
    }

    /// The strategy file after this phase, from the phase's whole tally.
    pub fn next_file(&self, tally: &OptimizeTally) -> StrategyFile {
        let profile = &self.profile;
        let settings = self.settings();
        let rule = settings.rule();
        let mut file = self.job.strategy.clone();
        match self.job.phase {
            Phase::Round(round) => {
                let (next, changes) = improve::improve(self.strategy(), tally, &rule);
                let reached: BTreeMap<_, u64> = tally
                    .cells
                    .iter()
                    .map(|(id, c)| (id.key(), c.hands()))
                    .collect();
                file.body.cells =
                    next.entries(profile, |key| reached.get(key).copied().unwrap_or(0));
                file.found.converged = changes.is_empty();
                file.found.rounds.push(self.report(round, tally, &changes));
            }
            Phase::Rating => file.body.rating = Some(tally.rating.fit()),
            Phase::Exploitability => {
                file.found.exploitability = Some(improve::exploitability(
                    self.strategy(),
                    tally,
                    &settings.deviation_rule(),
                    profile.session_deals(),
                ));
            }
        }
        file
    }

    /// Round `round`'s report.
    fn report(&self, round: u32, tally: &OptimizeTally, changes: &[Change]) -> RoundReport {
        let profile = &self.profile;
        let hands: u64 = changes.iter().map(|c| c.hands).sum();
        let weighted: f64 = changes.iter().map(|c| c.gain.0 * c.hands as f64).sum();
        let mut largest: Vec<&Change> = changes.iter().collect();
        largest.sort_by(|a, b| {
            let size = |c: &Change| c.gain.0 * c.hands as f64;
            size(b).total_cmp(&size(a)).then(a.key.cmp(&b.key))
        });
        let name = |c: usize| crate::eval::hand::call_at(c).name(profile).to_string();
        RoundReport {
            round,
            seed: phase_seed(self.settings().seed, Phase::Round(round)),
            deals: tally.deals,
            cells_reached: tally.cells.len(),
            changed: changes.len(),
            seat_values: (0..self.settings().players)
                .map(|s| tally.seat_value(s).unwrap_or((0.0, 0.0)))
                .collect(),
            mean_gain: if hands == 0 {
                0.0
            } else {
                weighted / hands as f64
            },
            gain_per_deal: weighted / tally.deals.max(1) as f64,
            largest_changes: largest
                .into_iter()
                .take(REPORTED_CHANGES)
                .map(|c| ChangeNote {
                    seat: c.key.seat as usize,
                    calls: self
                        .strategy()
                        .history
                        .calls(c.key.history, c.key.seat as usize)
                        .into_iter()
                        .map(|call| call.name(profile).to_string())
                        .collect(),
                    class: self.strategy().scheme.label(c.key.class),
                    from: c.from.map_or("fallback".to_string(), name),
                    to: name(c.to),
                    hands: c.hands,
                    gain: c.gain,
                })
                .collect(),
        }
    }
}

impl LongCommand for OptimizePhase {
    const NAME: &'static str = "optimize";
    const UNIT: &'static str = "deals";
    const BLOCK_SIZE: u64 = BLOCK_SIZE;
    type Job = PhaseJob;
    type Tally = OptimizeTally;

    fn prepare(
        profile: &Profile,
        mut job: PhaseJob,
        bots: &BotPool,
    ) -> Result<OptimizePhase, Error> {
        let settings = &mut job.strategy.found.settings;
        settings.check(profile)?;
        if settings.input_files.is_empty() {
            settings.input_files = input_files(&[&settings.play])?;
        }
        let play = crate::bots::play_policy_in(&settings.play, profile, bots)?;
        let strategy = Strategy::from_body(&job.strategy.body, profile)
            .map_err(|e| Error::input(format!("the strategy: {e}")))?;
        let scheme = match job.phase {
            Phase::Round(_) | Phase::Rating => strategy.scheme,
            Phase::Exploitability => Scheme::Exact,
        };
        Ok(OptimizePhase {
            strategy: Tuned::new(strategy, profile),
            profile: profile.clone(),
            job,
            play,
            scheme,
        })
    }

    fn profile(&self) -> &Profile {
        &self.profile
    }

    fn job(&self) -> &PhaseJob {
        &self.job
    }

    fn units(&self) -> u64 {
        match self.job.phase {
            Phase::Round(_) => self.settings().deals,
            Phase::Exploitability => self.settings().held_out,
            Phase::Rating => self.settings().rating_deals,
        }
    }

    fn block(&self, _seed: u64, mut block: Block) -> OptimizeTally {
        let players = self.settings().players;
        let valuer = Valuer {
            profile: &self.profile,
            players,
            strategy: &self.strategy,
            play: self.play.as_ref(),
            scheme: self.scheme,
        };
        let mut tally = OptimizeTally {
            seats: vec![(0, 0); players],
            ..OptimizeTally::default()
        };
        let mut shuffler = Shuffler::new(&self.profile, players);
        for i in 0..block.len {
            let number = block.index * BLOCK_SIZE + i;
            shuffler.reset();
            let dealt = shuffler.deal(valuer.dealer(), &mut block.deal_rng);
            let seed = next_u64(&mut block.policy_rng);
            if self.job.phase == Phase::Rating {
                let misere = misere_bid(&self.profile).expect("checked by the settings");
                tally.deals += 1;
                for (hand, made) in valuer.misere_outcomes(&dealt, seed, misere) {
                    tally.rating.add(hand, made);
                }
                continue;
            }
            let values = valuer.value(&dealt, seed);
            // The exploitability's halves: even deals choose, odd deals measure.
            let half = match self.job.phase {
                Phase::Exploitability => (number % 2) as u8,
                _ => 0,
            };
            tally.add_deal(&values, players, half);
        }
        tally
    }
}
