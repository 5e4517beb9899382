//! `lookahead[:worlds=K,play=SPEC,others=SPEC,auction=off|on]`: bids by evaluating its own hand.
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

use rand_core::SeedableRng;

use super::{bid_policy, play_policy};
use crate::eval::hand::{HandQuery, TooRare};
use crate::game::Call;
use crate::policy::{BidPolicy, BidView, PlayPolicy, Spec, SpecError};
use crate::rng::{SimRng, next_u64};
use crate::rules::Profile;

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
}

impl Lookahead {
    /// Builds the policy from its spec (worlds default 64).
    pub fn from_spec(spec: &Spec, profile: &Profile) -> Result<Lookahead, SpecError> {
        spec.check_keys(&["worlds", "play", "others", "auction"])?;
        let worlds = spec.count("worlds", 64, MAX_WORLDS, "a whole number of worlds")?;
        let play_spec = spec.get("play").unwrap_or("heuristic");
        let others_spec = spec.get("others").unwrap_or("threshold");
        Ok(Lookahead {
            worlds,
            play: play_policy(play_spec, profile)?,
            others: bid_policy(others_spec, profile)?,
            auction: spec.switch("auction", false)?,
        })
    }
}

impl BidPolicy for Lookahead {
    fn check_table(&self, players: usize) -> Result<(), String> {
        self.others.check_table(players)
    }

    fn call(&self, view: &BidView, rng: &mut SimRng) -> Call {
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
