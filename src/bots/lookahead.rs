//! `lookahead[:worlds=K,play=SPEC,others=SPEC,auction=off|on,objective=units|wins,equity=(FILE)]`:
//! bids by evaluating its own hand.
//!
//! At its turn the seat runs the hand evaluator ([`crate::eval::hand`]) on its hand: K
//! worlds dealt from the cards it cannot see, kept when the earlier seats, bidding with
//! `others` (default `threshold`), would have made the calls they made; each world played out
//! once per bid by `play` (default `heuristic`; `dd` solves instead). It then calls the legal
//! bid with the highest expected units as declarer, or passes when none is positive; with
//! `auction=on`, the legal call (passing included) worth the most in the whole auction, the
//! later seats bidding with `others` too. Expected units count the bid's payouts only, not the
//! kitty. A world that the earlier calls keep rejecting (1,000 draws) is kept anyway, so the bot
//! always answers. Worlds come from the RNG handed in.
//!
//! `objective=` values the calls in the whole auction (it implies `auction=on`): `units`, the
//! expected units, as above; `wins`, in a session, the chance of winning the session after the
//! deal (ties to the higher units), from the session equity
//! ([`crate::eval::equity`]) of the table as the bidder assumes it: `others` bidding, `play`
//! playing, measured on [`MEASURED_DEALS`] deals the first time it bids at a table size, or read
//! from `equity=(FILE)` (the `--outcomes` of `napsim equity`); the deal's endings are settled
//! with the kitty it holds, where the profile has one. Outside a session (or in one longer than
//! [`MAX_SESSION_DEALS`]), `wins` bids as `units` does.

use rand_core::SeedableRng;

use std::sync::{Arc, Mutex, OnceLock};

use super::ext::BotPool;
use super::{bid_policy_in, play_policy_in};
use crate::eval::equity::{
    DealOutcomes, MAX_SESSION_DEALS, MEASURE_SEED, MEASURED_DEALS, SessionEquity, SessionQuery,
    measure,
};
use crate::eval::hand::{HandQuery, TooRare, call_at};
use crate::game::Call;
use crate::policy::{BidPolicy, BidView, PlayPolicy, Spec, SpecError};
use crate::rng::{SimRng, next_u64};
use crate::rules::{MAX_PLAYERS, Profile};

/// Largest world count accepted.
pub const MAX_WORLDS: u64 = 1_000_000;

/// Draws allowed per kept world before a world is kept regardless of the earlier calls.
const MAX_DRAWS: u64 = 1_000;

/// The lookahead bidder.
pub struct Lookahead {
    worlds: u64,
    play: Box<dyn PlayPolicy>,
    others: Box<dyn BidPolicy>,
    /// Whether it calls by the values in the whole auction.
    auction: bool,
    /// Whether, in a session, it calls for the chance of winning it (`objective=wins`).
    wins: bool,
    /// The payments of one deal read from `equity=`, if given.
    measured: Option<DealOutcomes>,
    /// The payments of one deal by table size, measured the first time they are needed.
    measured_at: [OnceLock<DealOutcomes>; MAX_PLAYERS + 1],
    /// The session equities made so far, by table size and the longest session each values.
    equity: Mutex<Vec<(usize, usize, Arc<SessionEquity>)>>,
    /// The profile's session length: every equity values sessions at least this long.
    session_deals: usize,
}

impl Lookahead {
    /// Builds the policy from its spec (worlds default 64).
    pub fn from_spec(
        spec: &Spec,
        profile: &Profile,
        bots: &BotPool,
    ) -> Result<Lookahead, SpecError> {
        spec.check_keys(&["worlds", "play", "others", "auction", "objective", "equity"])?;
        let worlds = spec.count("worlds", 64, MAX_WORLDS, "a whole number of worlds")?;
        let play_spec = spec.get("play").unwrap_or("heuristic");
        let others_spec = spec.get("others").unwrap_or("threshold");
        let bad = |key: &str, reason: &str| SpecError::BadValue {
            policy: "lookahead".into(),
            key: key.into(),
            value: spec.get(key).unwrap_or_default().into(),
            reason: reason.into(),
        };
        let objective = spec.get("objective");
        let wins = match objective {
            None | Some("units") => false,
            Some("wins") => true,
            Some(_) => return Err(bad("objective", "units or wins")),
        };
        // An objective compares calls in the whole auction, whichever it is.
        let auction = spec.switch("auction", objective.is_some())?;
        if objective.is_some() && !auction {
            return Err(bad(
                "auction",
                "objective= values calls in the whole auction: leave out auction=off",
            ));
        }
        let measured = match spec.get("equity") {
            None => None,
            Some(_) if !wins => return Err(bad("equity", "an equity file is for objective=wins")),
            Some(file) => {
                let text = std::fs::read_to_string(file)
                    .map_err(|e| bad("equity", &format!("cannot read it: {e}")))?;
                Some(DealOutcomes::from_csv(&text).map_err(|e| {
                    bad(
                        "equity",
                        &format!("not the `outcomes` of napsim equity: {e}"),
                    )
                })?)
            }
        };
        Ok(Lookahead {
            worlds,
            play: play_policy_in(play_spec, profile, bots)?,
            others: bid_policy_in(others_spec, profile, bots)?,
            auction,
            wins,
            measured,
            measured_at: std::array::from_fn(|_| OnceLock::new()),
            equity: Mutex::new(Vec::new()),
            session_deals: profile.session_deals(),
        })
    }

    /// The session equity at a table of `players` for sessions of `deals` deals: made the
    /// first time (sessions no longer than the profile's share one, so that a session's value
    /// does not depend on the sessions played before it).
    fn equity(&self, profile: &Profile, players: usize, deals: usize) -> Arc<SessionEquity> {
        let longest = self.session_deals.max(deals);
        let made = |equities: &[(usize, usize, Arc<SessionEquity>)]| {
            equities
                .iter()
                .find(|(p, d, _)| (*p, *d) == (players, longest))
                .map(|(_, _, e)| e.clone())
        };
        if let Some(equity) = made(&self.equity.lock().expect("not poisoned")) {
            return equity;
        }
        let measured = self.measured.as_ref().unwrap_or_else(|| {
            self.measured_at[players].get_or_init(|| {
                let table = (self.others.as_ref(), self.play.as_ref());
                measure(profile, players, table, MEASURED_DEALS, MEASURE_SEED)
            })
        });
        // Built outside the lock: two threads may both build it, and build the same.
        let equity = Arc::new(SessionEquity::new(measured, longest, MEASURE_SEED));
        let mut equities = self.equity.lock().expect("not poisoned");
        if let Some(first) = made(&equities) {
            return first;
        }
        equities.push((players, longest, equity.clone()));
        equity
    }
}

impl BidPolicy for Lookahead {
    fn check_table(&self, players: usize) -> Result<(), String> {
        if let Some(measured) = &self.measured
            && measured.players() != players
        {
            return Err(format!(
                "the equity file was measured at {} players, the table has {players}",
                measured.players()
            ));
        }
        self.others.check_table(players)
    }

    fn call(&self, view: &BidView, rng: &mut SimRng) -> Call {
        // In a session (of a length the equity can value), the chance of winning it.
        let session = view
            .session()
            .filter(|s| self.wins && s.deals <= MAX_SESSION_DEALS)
            .map(|s| {
                let equity = self.equity(view.profile(), view.players(), s.deals as usize);
                let at = (s, view.dealer(), view.kitty());
                SessionQuery::new(equity, view.profile(), at, view.position())
            });
        let query = HandQuery {
            profile: view.profile(),
            players: view.players(),
            seat: view.position(),
            hand: view.hand(),
            after: view.calls(),
            others: self.others.as_ref(),
            play: self.play.as_ref(),
            dd_column: false,
            auction: self.auction,
            session: session.as_ref(),
        };
        let mut deal_rng = SimRng::seed_from_u64(next_u64(rng));
        let mut policy_rng = SimRng::seed_from_u64(next_u64(rng));
        let tally = query.evaluate(
            self.worlds,
            &mut deal_rng,
            &mut policy_rng,
            MAX_DRAWS,
            TooRare::KeepLast,
        );
        if let Some(auction) = tally.auction.as_ref().filter(|_| session.is_some()) {
            let legal = (0..auction.calls.len()).filter(|&c| view.is_legal(call_at(c)));
            return auction.best_chance(legal).map_or(Call::Pass, call_at);
        }
        let summary = query.summarise(&tally);
        if self.auction {
            // The calls valued are the legal ones: the earlier calls are the view's own.
            return summary.recommended.map_or(Call::Pass, Call::Bid);
        }
        summary
            .bids
            .iter()
            .filter(|b| b.ev > 0.0 && view.is_legal(Call::Bid(b.id)))
            .fold(
                None::<&crate::eval::hand::BidSummary>,
                |best, b| match best {
                    Some(x) if x.ev >= b.ev => Some(x),
                    _ => Some(b),
                },
            )
            .map_or(Call::Pass, |b| Call::Bid(b.id))
    }
}
