//! The quick commands: `rules`, `deal` (and replays) and `solve`.

use std::io::Write;

use super::{Failure, emit, resolve_seed, stdout_failure};
use crate::analysis::deals::{DealsConfig, play_deals};
use crate::analysis::replay::{Replay, ReplayExtras, parse_calls, parse_plays, replay};
use crate::analysis::solve;
use crate::cards::{Suit, parse_deal};
use crate::cli::args::{DealArgs, RulesAction, SolveArgs};
use crate::policy::Table;
use crate::bots::{bid_policy, play_policy};
use crate::report::{self, DealRecord};
use crate::rules::{self, BUILTIN, Profile, load_profile};

pub(super) fn rules_command(action: RulesAction, rules_arg: &str) -> Result<(), Failure> {
    match action {
        RulesAction::List => {
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
            emit(&text)
        }
        RulesAction::Show { name } => {
            let profile = load_profile(name.as_deref().unwrap_or(rules_arg))?;
            emit(profile.toml())
        }
    }
}

pub(super) fn deal_command(rules_arg: &str, args: DealArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    profile.check_players(args.players)?;
    if let Some(dealer) = args.dealer
        && dealer >= args.players
    {
        return Err(Failure::input(format!(
            "--dealer {dealer} is not a seat: seats are 0 to {}",
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
    if let (Some(calls), Some(hands)) = (&args.calls, &hands) {
        return replay_command(&profile, &args, calls, hands.clone());
    }
    let bid = bid_policy(&args.policies.bid, &profile)?;
    let play = play_policy(&args.policies.play, &profile)?;
    let table = Table::uniform(bid.as_ref(), play.as_ref());
    let config = DealsConfig {
        profile: &profile,
        players: args.players,
        count: args.count,
        seed: resolve_seed(args.seed),
        first_dealer: args.dealer,
        hands,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    play_deals(&config, &table, |state, number| {
        let text = if args.json {
            let mut line = serde_json::to_string(&DealRecord::from_state(state))
                .map_err(|e| Failure::runtime(format!("cannot write a record: {e}")))?;
            line.push('\n');
            line
        } else {
            report::narrate(state, number) + "\n"
        };
        out.write_all(text.as_bytes()).map_err(stdout_failure)
    })?;
    out.flush().map_err(stdout_failure)
}

fn replay_command(
    profile: &Profile,
    args: &DealArgs,
    calls: &str,
    hands: Vec<crate::cards::CardSet>,
) -> Result<(), Failure> {
    if args.count != 1 {
        return Err(Failure::input(
            "a replay (--calls) is one deal: leave out --count",
        ));
    }
    let game = Replay {
        dealer: args.dealer.unwrap_or(args.players - 1),
        hands,
        calls: parse_calls(calls, profile).map_err(Failure::input)?,
        plays: parse_plays(args.plays.as_deref().unwrap_or("")).map_err(Failure::input)?,
        extras: replay_extras(args)?,
    };
    let state = replay(profile, &game).map_err(Failure::input)?;
    if args.json {
        let line = serde_json::to_string(&DealRecord::from_state(&state))
            .map_err(|e| Failure::runtime(format!("cannot write a record: {e}")))?;
        emit(&(line + "\n"))
    } else {
        emit(&report::narrate(&state, 1))
    }
}

/// The replay flags for the profiles' extra features, parsed.
fn replay_extras(args: &DealArgs) -> Result<ReplayExtras, Failure> {
    let card = |text: &str| -> Result<crate::cards::Card, Failure> {
        text.trim().parse().map_err(Failure::input)
    };
    let cards = |text: &str, n: usize| crate::cards::parse_hand(text, n).map_err(Failure::input);
    let mut extras = ReplayExtras {
        kitty: args.kitty,
        ..ReplayExtras::default()
    };
    extras.floater = args.floater.as_deref().map(card).transpose()?;
    extras.discard = args.discard.as_deref().map(card).transpose()?;
    extras.spare = args
        .spare
        .as_deref()
        .map(|t| cards(t, rules::HAND_SIZE))
        .transpose()?;
    extras.keep = args
        .keep
        .as_deref()
        .map(|t| cards(t, rules::HAND_SIZE))
        .transpose()?;
    extras.trump = args.trump.as_deref().map(parse_suit_arg).transpose()?;
    if let Some(text) = &args.peeks {
        for word in text.split(',').filter(|w| !w.trim().is_empty()) {
            let seat: usize = word
                .trim()
                .parse()
                .ok()
                .filter(|&s| s < args.players)
                .ok_or_else(|| {
                    Failure::input(format!(
                        "--peeks: '{word}' is not a seat (0 to {})",
                        args.players - 1
                    ))
                })?;
            extras.peeks.push(seat);
        }
    }
    for text in &args.buy {
        let parsed = text.split_once(':').and_then(|(seat, rest)| {
            let (given, received) = rest.split_once('>')?;
            Some((seat.trim().parse::<usize>().ok()?, given, received))
        });
        let Some((seat, given, received)) = parsed.filter(|(s, _, _)| *s < args.players) else {
            return Err(Failure::input(format!(
                "--buy '{text}' is not SEAT:GIVEN>RECEIVED (e.g. 2:3C 4D>AS KS)"
            )));
        };
        let given: crate::cards::CardSet = crate::cards::parse_cards(given)
            .map_err(Failure::input)?
            .into_iter()
            .collect();
        let received = crate::cards::parse_cards(received).map_err(Failure::input)?;
        extras.buys.push((seat, given, received));
    }
    Ok(extras)
}

/// Parses `--trump`: one suit letter or symbol.
fn parse_suit_arg(text: &str) -> Result<Suit, Failure> {
    let mut chars = text.trim().chars();
    match (chars.next().and_then(Suit::from_char), chars.next()) {
        (Some(suit), None) => Ok(suit),
        _ => Err(Failure::input(format!(
            "--trump '{text}' is not a suit: use C, D, H or S"
        ))),
    }
}

pub(super) fn solve_command(rules_arg: &str, args: SolveArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    let trump = args.trump.as_deref().map(parse_suit_arg).transpose()?;
    let opening = solve::opening_for(&profile, args.bid.as_deref(), args.misere, trump)
        .map_err(Failure::input)?;
    if let Some(deals) = args.random {
        profile.check_players(args.players)?;
        let seed = resolve_seed(args.seed);
        let solved = solve::solve_random(&profile, args.players, deals, seed, &opening);
        let report = report::RandomSolveReport {
            profile: profile.name(),
            players: args.players,
            seed,
            misere: opening.misere,
            solved: &solved,
        };
        return emit(&if args.json {
            report.json()
        } else {
            report.text()
        });
    }
    let text = args
        .deal
        .as_deref()
        .expect("clap requires a deal or --random");
    let hands = solve::parse_solve_deal(text, &profile).map_err(Failure::input)?;
    let values = solve::solve_deal(&hands, &opening);
    if args.json {
        emit(&(report::solve_json(&values) + "\n"))
    } else {
        emit(&report::solve_text(&hands, &opening, &values))
    }
}
