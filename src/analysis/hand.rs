//! `napsim hand`: what one hand is worth as declarer, bid by bid, at its seat, over many worlds
//! (the evaluator itself is [`crate::eval::hand`]).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::bots::ext::BotPool;
use crate::bots::{bid_policy_at, input_files, play_policy, play_policy_in};
use crate::cards::CardSet;
use crate::error::Error;
use crate::eval::equity::{self, SessionQuery};
use crate::eval::hand::{self, HandQuery, HandSummary, HandTally, Skip, StopReason, StopRule};
use crate::game::Call;
use crate::policy::{BidPolicy, PlayPolicy};
use crate::rules::Profile;
use crate::run::LongCommand;
use crate::sim::Block;

/// The arguments that decide a hand evaluation's output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandJob {
    /// The hand (resolved: in the card notation, lowest card first).
    pub hand: String,
    /// Table size.
    pub players: usize,
    /// The hand's place in the auction, 0 for eldest.
    pub seat: usize,
    /// The play policy of every seat (a spec).
    pub play: String,
    /// Worlds to evaluate; with `precision`, at most.
    pub worlds: u64,
    /// Stop early, at the first check at which every bid's 95% P(make) interval is within
    /// this many percentage points or the best call is settled ([`StopRule`]); `None`: every
    /// world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// The earlier seats' calls, by name, in speaking order.
    pub after: Vec<String>,
    /// The other seats' bid policy (a spec): the worlds kept are those where it makes the
    /// earlier calls, and in the auction view the later seats bid with it.
    pub others_bid: String,
    /// Whether to count the double-dummy makes too.
    pub dd: bool,
    /// Whether to value every call, passing included, in the whole auction (the later seats
    /// bidding with `others_bid`) and recommend by it; `false`: the hand as declarer only, as
    /// before the auction view (absent from files written before it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auction: bool,
    /// The report's format: `text`, `json` or `csv`.
    pub format: String,
    /// The text names the play policy by its spec even when it is the default strong play.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub verbose: bool,
    /// Files the policies read (`table:file=`), with a digest of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub input_files: BTreeMap<String, String>,
    /// The session the deal is part of (`--session D/N:B1,...`), as given; None: the deal on
    /// its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// What the recommendation follows (`--objective`): `units` or `wins`; None: units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<String>,
}

/// How many worlds a hand evaluation plays: at most `worlds` with a precision, else exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandWorlds {
    /// Worlds; at most, with a precision.
    pub worlds: u64,
    /// Stop early at this precision (percentage points), or `None`: exactly `worlds`.
    pub precision: Option<f64>,
}

/// The default run: at most 4,000 worlds, stopping early once every P(make) is known within
/// ±1.55 points (the widest interval 4,000 worlds give, at P(make) = 1/2) or the
/// recommendation is settled. `precision: None` would make it exactly 4,000 worlds (the
/// default before adaptive stopping). `napsim hand --help` says which.
pub const DEFAULT_WORLDS: HandWorlds = HandWorlds {
    worlds: 4000,
    precision: Some(1.55),
};

/// The bid policy assumed for the other seats unless told otherwise.
pub const DEFAULT_OTHERS_BID: &str = "threshold";

impl HandWorlds {
    /// The run asked for: a world count alone plays exactly that many worlds; a precision
    /// stops early, at most at the count, or where the precision is reached whatever P(make)
    /// is; neither, [`DEFAULT_WORLDS`].
    pub fn resolve(worlds: Option<u64>, precision: Option<f64>) -> HandWorlds {
        match (worlds, precision) {
            (Some(worlds), None) => HandWorlds {
                worlds,
                precision: None,
            },
            (worlds, Some(points)) => HandWorlds {
                worlds: worlds.unwrap_or_else(|| StopRule::worlds_for(points)),
                precision: Some(points),
            },
            (None, None) => DEFAULT_WORLDS,
        }
    }
}

impl HandJob {
    /// The evaluation of `hand` (five cards in the card notation) as `napsim hand HAND` runs
    /// it: four players, the eldest seat, no earlier calls, every call valued in the whole
    /// auction with the double-dummy figure, the evaluator's default play
    /// ([`hand::DEFAULT_PLAY`]), the others bidding [`DEFAULT_OTHERS_BID`], the
    /// [`DEFAULT_WORLDS`] run, a text report. Change the fields for anything else.
    pub fn new(hand: impl Into<String>) -> HandJob {
        HandJob {
            hand: hand.into(),
            players: 4,
            seat: 0,
            play: hand::DEFAULT_PLAY.to_string(),
            worlds: DEFAULT_WORLDS.worlds,
            precision: DEFAULT_WORLDS.precision,
            after: Vec::new(),
            others_bid: DEFAULT_OTHERS_BID.to_string(),
            dd: true,
            auction: true,
            format: "text".to_string(),
            verbose: false,
            input_files: BTreeMap::new(),
            session: None,
            objective: None,
        }
    }

    /// The same job with the run `worlds` asks for.
    pub fn with_worlds(self, worlds: HandWorlds) -> HandJob {
        HandJob {
            worlds: worlds.worlds,
            precision: worlds.precision,
            ..self
        }
    }
}

/// `napsim hand`, prepared: the hand and the calls read, the policies built.
pub struct Hand {
    profile: Profile,
    job: HandJob,
    /// The calls as the job gave them, for messages.
    after_text: String,
    hand: CardSet,
    after: Vec<Call>,
    others: Box<dyn BidPolicy>,
    play: Box<dyn PlayPolicy>,
    /// The bids an adaptive run has dropped so far (bit `i`: bid `i`), which the blocks
    /// started from now on need not play: set at each check, read as blocks start.
    skip: AtomicU64,
    /// Whether it has dropped passing (in the auction view), likewise.
    skip_pass: AtomicBool,
    /// The session seen from the hand's seat (`--session`).
    session: Option<SessionQuery>,
    /// Hears of the tally so far as the run goes ([`Hand::watch`]).
    watcher: Option<Watcher>,
}

/// What hears of a hand evaluation's tally as its run goes (with the evaluation, to read it).
pub type Watcher = Box<dyn Fn(&Hand, &HandTally) + Send + Sync>;

/// Worlds between the tallies a watched run with no stopping rule shows (a run with one shows
/// them at its checks).
pub const WATCH_EVERY: u64 = 4 * hand::BLOCK_SIZE;

impl Hand {
    /// The evaluator's question.
    pub fn query(&self) -> HandQuery<'_> {
        HandQuery {
            profile: &self.profile,
            players: self.job.players,
            seat: self.job.seat,
            hand: self.hand,
            after: &self.after,
            others: self.others.as_ref(),
            play: self.play.as_ref(),
            dd_column: self.job.dd,
            auction: self.job.auction,
            session: self.session.as_ref(),
        }
    }

    /// The hand.
    pub fn hand(&self) -> CardSet {
        self.hand
    }

    /// The rule of a run that stops early, if it is one.
    pub fn stop_rule(&self) -> Option<StopRule> {
        self.job
            .precision
            .map(|points| StopRule::new(points, self.job.worlds, self.job.players))
    }

    /// Why a run that stops early stopped with `tally` (its whole tally).
    pub fn stop_reason(&self, tally: &HandTally) -> Option<StopReason> {
        let rule = self.stop_rule()?;
        Some(
            rule.reason(&self.query(), tally)
                .unwrap_or(StopReason::MaxWorlds),
        )
    }

    /// The answer, from the whole run's tally; an error when the earlier calls proved too rare
    /// to sample.
    pub fn summary(&self, tally: &HandTally) -> Result<HandSummary, Error> {
        if tally.too_rare {
            return Err(Error::input(format!(
                "the calls `after` {} are too rare to sample: a world needed over {} deals",
                self.job.after.join(","),
                hand::MAX_DRAWS_PER_WORLD
            )));
        }
        let mut summary = self.query().summarise(tally);
        if self.job.objective.as_deref() == Some("wins")
            && let Some(auction) = &tally.auction
        {
            let valued = summary.calls.iter().map(|c| call_index_of(c.call));
            let best = auction.best_chance(valued).map(hand::call_at);
            summary.recommended = match best {
                Some(Call::Bid(id)) => Some(id),
                _ => None,
            };
        }
        Ok(summary)
    }

    /// Whether the recommendation follows the chance of winning the session.
    pub fn by_wins(&self) -> bool {
        self.job.objective.as_deref() == Some("wins")
    }

    /// Has `watcher` hear of the tally of the worlds played so far, at every check of a run
    /// that may stop early and every [`WATCH_EVERY`] worlds of one that does not (a page that
    /// shows the figures as they come). The worlds played and the answer are the same as
    /// without it.
    pub fn watch(&mut self, watcher: Watcher) {
        self.watcher = Some(watcher);
    }
}

/// The index of `call` among the evaluator's calls.
fn call_index_of(call: Call) -> usize {
    match call {
        Call::Bid(id) => hand::call_index(id),
        _ => hand::PASS_INDEX,
    }
}

impl Hand {
    fn store_skip(&self, skip: Skip) {
        self.skip.store(skip.bids, Ordering::Relaxed);
        self.skip_pass.store(skip.pass, Ordering::Relaxed);
    }
}

impl LongCommand for Hand {
    const NAME: &'static str = "hand";
    const UNIT: &'static str = "worlds";
    const BLOCK_SIZE: u64 = hand::BLOCK_SIZE;
    type Job = HandJob;
    type Tally = HandTally;

    /// Checks the hand, the seat, the calls and the policies, in the order a user reads them.
    fn prepare(profile: &Profile, mut job: HandJob, bots: &BotPool) -> Result<Hand, Error> {
        profile.check_players(job.players)?;
        if let Some(points) = job.precision
            && !(points > 0.0 && points <= 50.0)
        {
            return Err(Error::input(format!(
                "precision {points}: expected percentage points above 0, at most 50"
            )));
        }
        let hand = hand::parse_hand_for(&job.hand, profile, job.players)?;
        super::check_seat(job.seat, job.players)?;
        let after_text = job.after.join(",");
        let after = if job.after.is_empty() {
            Vec::new()
        } else {
            hand::parse_after(&after_text, profile, job.players, job.seat)?
        };
        let others = bid_policy_at(&job.others_bid, profile, job.players, bots)?;
        let play = play_policy_in(&job.play, profile, bots)?;
        if job.objective.as_deref() == Some("wins") && job.session.is_none() {
            return Err(Error::input(
                "`objective` wins needs `session`: the chance of winning is a session's",
            ));
        }
        let session = match &job.session {
            None => None,
            Some(text) => {
                if !job.auction {
                    return Err(Error::input(
                        "`session` values the calls in the whole auction: leave out `as_declarer`",
                    ));
                }
                let (state, kitty) = equity::parse_session(text, job.players, profile.has_kitty())
                    .map_err(|e| Error::input(format!("`session` {text}: {e}")))?;
                // The deals to come are measured with `expert` play whatever the hand's own:
                // the strong play policies cost far too much for a measurement made on the spot,
                // and pay much as expert does.
                let expert = play_policy("expert", profile)?;
                let table = (others.as_ref(), expert.as_ref());
                let measured = equity::measure(
                    profile,
                    job.players,
                    table,
                    equity::MEASURED_DEALS,
                    equity::MEASURE_SEED,
                );
                let longest = profile.session_deals().max(state.deals as usize);
                let session_equity =
                    equity::SessionEquity::new(&measured, longest, equity::MEASURE_SEED);
                // The hand's dealer is the last seat, so seats are positions.
                let dealer = job.players - 1;
                Some(SessionQuery::new(
                    Arc::new(session_equity),
                    profile,
                    (&state, dealer, kitty),
                    job.seat,
                ))
            }
        };
        if job.input_files.is_empty() {
            job.input_files = input_files(&[&job.play, &job.others_bid])?;
        }
        job.hand = hand.to_string();
        job.after = after.iter().map(|c| c.name(profile).to_string()).collect();
        Ok(Hand {
            profile: profile.clone(),
            job,
            after_text,
            hand,
            after,
            others,
            play,
            skip: AtomicU64::new(0),
            skip_pass: AtomicBool::new(false),
            session,
            watcher: None,
        })
    }

    fn profile(&self) -> &Profile {
        &self.profile
    }

    fn job(&self) -> &HandJob {
        &self.job
    }

    fn units(&self) -> u64 {
        self.job.worlds
    }

    /// Refuses earlier calls that a pilot sample shows impossible or too rare.
    fn check_seed(&self, seed: u64) -> Result<(), Error> {
        if self.after.is_empty() {
            return Ok(());
        }
        let kept = self.query().pilot(hand::PILOT_DRAWS, seed);
        if kept < hand::PILOT_MIN_KEPT {
            return Err(Error::input(format!(
                "the calls `after` {} are impossible or too rare to sample: {kept} of {} \
                 random deals had the earlier seats (bidding {}) make them",
                self.after_text,
                hand::PILOT_DRAWS,
                self.job.others_bid
            )));
        }
        Ok(())
    }

    /// Skips the bids dropped so far: a block started after a check saw them dropped may
    /// skip them, as the merge leaves them out of every block after that check anyway.
    fn block(&self, _seed: u64, block: Block) -> HandTally {
        let skip = Skip {
            bids: self.skip.load(Ordering::Relaxed),
            pass: self.skip_pass.load(Ordering::Relaxed),
        };
        self.query().evaluate_block_skipping(block, skip)
    }

    fn check_every(&self) -> Option<u64> {
        let rule = self.stop_rule().map(|rule| rule.check_step());
        let watched = self.watcher.as_ref().map(|_| WATCH_EVERY);
        rule.or(watched).map(|worlds| worlds / hand::BLOCK_SIZE)
    }

    /// The rule holds, or the earlier calls proved too rare (the run fails at once). Where it
    /// goes on, the bids that trail the best call are dropped for the worlds to come; the rule
    /// at this check still counts them, so asking twice here (as a run resumed here does)
    /// decides the same.
    fn may_stop(&self, tally: &mut HandTally) -> bool {
        if tally.too_rare {
            return true;
        }
        if let Some(watcher) = &self.watcher {
            watcher(self, tally);
        }
        let Some(rule) = self.stop_rule() else {
            return false;
        };
        let query = self.query();
        if rule.reason(&query, tally).is_some() {
            return true;
        }
        self.store_skip(rule.drop_trailing(&query, tally));
        false
    }

    fn resuming(&self, tally: &HandTally) {
        self.store_skip(tally.skipped());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_asked_for() {
        let fixed = HandWorlds::resolve(Some(500), None);
        assert_eq!((fixed.worlds, fixed.precision), (500, None));
        let capped = HandWorlds::resolve(Some(700), Some(2.0));
        assert_eq!((capped.worlds, capped.precision), (700, Some(2.0)));
        let precise = HandWorlds::resolve(None, Some(1.0));
        assert_eq!((precise.worlds, precise.precision), (9728, Some(1.0)));
        assert_eq!(HandWorlds::resolve(None, None), DEFAULT_WORLDS);
    }
}
