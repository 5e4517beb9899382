//! The quick commands: `rules`, `deal` (and replays) and `solve`.

use std::io::Write;

use super::replay_text::{ReplayText, parse_suit_arg};
use crate::analysis::deals::{DealsConfig, play_deals};
use crate::analysis::replay::replay;
use crate::analysis::solve;
use crate::bots::ext::BotPool;
use crate::bots::{bid_policy_at, play_policy_in};
use crate::cards::parse_deal;
use crate::error::Error;
use crate::policy::Table;
use crate::report::{self, DealRecord};
use crate::rules::{self, BUILTIN, Profile, load_profile};

/// `napsim rules list`: one line per built-in profile, the default marked.
pub fn rules_list() -> Result<String, Error> {
    let mut text = String::new();
    for (name, _) in BUILTIN {
        let profile = Profile::builtin(name)?;
        let default = if *name == rules::DEFAULT_PROFILE {
            " (default)"
        } else {
            ""
        };
        text += &format!("{name:<16} {}{default}\n", profile.description());
    }
    Ok(text)
}

/// `napsim rules show`: the TOML of the profile `rules` names.
pub fn rules_show(rules: &str) -> Result<String, Error> {
    Ok(load_profile(rules)?.toml().to_string())
}

/// What `napsim deal` plays: a sequence of deals by the policies, or the replay of one real
/// game.
#[derive(Clone, Debug, Default)]
pub struct DealJob {
    /// Table size.
    pub players: usize,
    /// The seed given, if any.
    pub seed: Option<u64>,
    /// Number of deals, one continuous sequence with the deal passing left.
    pub count: u64,
    /// The first dealer's seat (drawn at random when omitted).
    pub dealer: Option<usize>,
    /// Fixed hands for every deal, `h0/h1/...`.
    pub hands: Option<String>,
    /// The replay of a real game (with `calls`, instead of policies).
    pub replay: ReplayText,
    /// Every seat's bid policy (a spec).
    pub bid: String,
    /// Every seat's play policy (a spec).
    pub play: String,
    /// One JSON record per deal instead of the narration.
    pub json: bool,
    /// Where external bots run.
    pub bot_pool: BotPool,
}

/// `napsim deal`: plays `args`' deals on `rules`' profile and writes each, narrated or as a
/// JSON record, to `out` as it finishes (so memory does not grow with the count). Without a
/// seed, `fresh_seed` chooses one.
pub fn deal(
    rules: &str,
    args: &DealJob,
    fresh_seed: impl FnOnce() -> u64,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let profile = load_profile(rules)?;
    profile.check_players(args.players)?;
    if let Some(dealer) = args.dealer
        && dealer >= args.players
    {
        return Err(Error::input(format!(
            "`dealer` {dealer} is not a seat: seats are 0 to {}",
            args.players - 1
        )));
    }
    let hands = match &args.hands {
        Some(text) => Some(parse_deal(
            text,
            args.players,
            rules::HAND_SIZE,
            profile.pack(args.players),
            &profile.pack_description(args.players),
        )?),
        None => None,
    };
    if let (Some(_), Some(hands)) = (&args.replay.calls, &hands) {
        return replay_command(&profile, args, hands.clone(), out);
    }
    let bid = bid_policy_at(&args.bid, &profile, args.players, &args.bot_pool)?;
    let play = play_policy_in(&args.play, &profile, &args.bot_pool)?;
    let table = Table::uniform(bid.as_ref(), play.as_ref());
    let config = DealsConfig {
        profile: &profile,
        players: args.players,
        count: args.count,
        seed: args.seed.unwrap_or_else(fresh_seed),
        first_dealer: args.dealer,
        hands,
    };
    let mut out = std::io::BufWriter::new(out);
    play_deals(&config, &table, |state, number| {
        Error::bots_held(&args.bot_pool)?;
        let text = if args.json {
            let mut line = serde_json::to_string(&DealRecord::from_state(state))
                .map_err(|e| Error::runtime(format!("cannot write a record: {e}")))?;
            line.push('\n');
            line
        } else {
            report::narrate(state, number) + "\n"
        };
        out.write_all(text.as_bytes()).map_err(Error::Stdout)
    })?;
    out.flush().map_err(Error::Stdout)
}

fn replay_command(
    profile: &Profile,
    args: &DealJob,
    hands: Vec<crate::cards::CardSet>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    if args.count != 1 {
        return Err(Error::input(
            "a replay (`calls`) is one deal: leave out `count`",
        ));
    }
    let game = args.replay.game(profile, args.dealer, hands)?;
    let state = replay(profile, &game)?;
    if args.json {
        let line = serde_json::to_string(&DealRecord::from_state(&state))
            .map_err(|e| Error::runtime(format!("cannot write a record: {e}")))?;
        out.write_all((line + "\n").as_bytes())
    } else {
        out.write_all(report::narrate(&state, 1).as_bytes())
    }
    .and_then(|()| out.flush())
    .map_err(Error::Stdout)
}

/// What `napsim solve` solves: one deal, or random deals.
#[derive(Clone, Debug, Default)]
pub struct SolveJob {
    /// The deal, `h0/h1/...`, seat 0 declaring (when not random).
    pub deal: Option<String>,
    /// Solve this many random deals instead.
    pub random: Option<u64>,
    /// Table size for random deals.
    pub players: usize,
    /// The seed for random deals, if given.
    pub seed: Option<u64>,
    /// The declarer plays a misère.
    pub misere: bool,
    /// The bid whose opening rules apply.
    pub bid: Option<String>,
    /// The named trump suit (C, D, H or S).
    pub trump: Option<String>,
    /// The cards played so far: value the next seat's cards instead of the opening leads.
    pub plays: Option<String>,
    /// JSON instead of the table.
    pub json: bool,
}

/// `napsim solve`: the double-dummy values of a deal's opening leads, or the distribution over
/// random deals, as text or JSON. Without a seed, `fresh_seed` chooses one.
pub fn solve(
    profile: &Profile,
    args: &SolveJob,
    fresh_seed: impl FnOnce() -> u64,
) -> Result<String, Error> {
    let trump = args.trump.as_deref().map(parse_suit_arg).transpose()?;
    let opening = solve::opening_for(profile, args.bid.as_deref(), args.misere, trump)?;
    if let Some(deals) = args.random {
        profile.check_players(args.players)?;
        let seed = args.seed.unwrap_or_else(fresh_seed);
        let solved = solve::solve_random(profile, args.players, deals, seed, &opening);
        let report = report::RandomSolveReport {
            profile: profile.name(),
            players: args.players,
            seed,
            misere: opening.misere,
            solved: &solved,
        };
        return Ok(if args.json {
            report.json()
        } else {
            report.text()
        });
    }
    let Some(text) = args.deal.as_deref() else {
        return Err(Error::input("solve needs a deal or `random` N"));
    };
    let hands = solve::parse_solve_deal(text, profile)?;
    if let Some(plays) = &args.plays {
        let plays = crate::cards::parse_cards(plays)?;
        let values = solve::solve_after(&hands, &opening, &plays)?;
        return Ok(if args.json {
            report::solve_after_json(&values) + "\n"
        } else {
            report::solve_after_text(&plays, &opening, &values)
        });
    }
    let values = solve::solve_deal(&hands, &opening);
    Ok(if args.json {
        report::solve_json(&values) + "\n"
    } else {
        report::solve_text(&hands, &opening, &values)
    })
}
