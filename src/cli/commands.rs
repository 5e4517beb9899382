//! Dispatch: each subcommand resolves its arguments, calls the library and writes the output.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::Failure;
use super::args::{
    BidTableArgs, Cli, Command, DealArgs, HandArgs, RulesAction, SimulateArgs, SolveArgs,
    ThresholdsArgs, TournamentArgs,
};
use crate::analysis::bid_table::{self, BidTableConfig, Scheme};
use crate::analysis::deals::{DealsConfig, play_deals};
use crate::analysis::hand::{self, HandQuery};
use crate::analysis::replay::{Replay, ReplayExtras, parse_calls, parse_plays, replay};
use crate::analysis::simulate::{self, SimulateConfig};
use crate::analysis::solve;
use crate::analysis::thresholds;
use crate::analysis::tournament;
use crate::cards::{Suit, parse_deal};
use crate::game::Table;
use crate::policy::{bid_policy, play_policy};
use crate::report::{self, DealRecord, Meta};
use crate::rules::{self, BUILTIN, Profile, load_profile};
use crate::sim::Progress;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Rules { action } => rules_command(action, &cli.rules),
        Command::Deal(args) => deal_command(&cli.rules, *args),
        Command::Simulate(args) => simulate_command(&cli.rules, args),
        Command::Solve(args) => solve_command(&cli.rules, args),
        Command::Hand(args) => hand_command(&cli.rules, args),
        Command::BidTable(args) => bid_table_command(&cli.rules, args),
        Command::Thresholds(args) => thresholds_command(&cli.rules, args),
        Command::Tournament(args) => tournament_command(&cli.rules, args),
    }
}

fn rules_command(action: RulesAction, rules_arg: &str) -> Result<(), Failure> {
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

fn deal_command(rules_arg: &str, args: DealArgs) -> Result<(), Failure> {
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

fn solve_command(rules_arg: &str, args: SolveArgs) -> Result<(), Failure> {
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

fn hand_command(rules_arg: &str, args: HandArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    profile.check_players(args.players)?;
    let hand = hand::parse_hand_for(&args.hand, &profile, args.players).map_err(Failure::input)?;
    if args.seat >= args.players {
        return Err(Failure::input(format!(
            "--seat {} is not a position in the auction: 0 (eldest) to {}",
            args.seat,
            args.players - 1
        )));
    }
    let after = match &args.after {
        Some(text) => {
            hand::parse_after(text, &profile, args.players, args.seat).map_err(Failure::input)?
        }
        None => Vec::new(),
    };
    let others = bid_policy(&args.others_bid, &profile)?;
    let play = play_policy(&args.play, &profile)?;
    if let Some(path) = &args.out {
        check_writable_dir(path)?;
    }
    let seed = resolve_seed(args.seed);
    let threads = thread_count(args.threads);
    let query = HandQuery {
        profile: &profile,
        players: args.players,
        seat: args.seat,
        hand,
        after: &after,
        others: others.as_ref(),
        play: play.as_ref(),
        play_dd: hand::is_dd_spec(&args.play),
        dd_column: !args.no_dd,
    };
    if !after.is_empty() {
        let kept = query.pilot(hand::PILOT_DRAWS, seed);
        if kept < hand::PILOT_MIN_KEPT {
            return Err(Failure::input(format!(
                "the calls --after {} are impossible or too rare to sample: {kept} of {} \
                 random deals had the earlier seats (bidding {}) make them",
                args.after.as_deref().unwrap_or(""),
                hand::PILOT_DRAWS,
                args.others_bid
            )));
        }
    }
    let progress = Progress::new(args.worlds, "worlds", args.quiet);
    let start = Instant::now();
    let tally = query
        .run(args.worlds, seed, threads, &progress)
        .map_err(Failure::runtime)?
        .ok_or_else(|| {
            Failure::input(format!(
                "the calls --after {} are too rare to sample: a world needed over {} deals",
                args.after.as_deref().unwrap_or(""),
                hand::MAX_DRAWS_PER_WORLD
            ))
        })?;
    let summary = query.summarise(&tally);
    let after_names: Vec<String> = after.iter().map(|c| c.name(&profile).to_string()).collect();
    let report = report::HandReport {
        profile: &profile,
        hand,
        players: args.players,
        seat: args.seat,
        play: &args.play,
        after: &after_names,
        others_bid: &args.others_bid,
        seed,
        summary: &summary,
    };
    let bytes = if args.json {
        (report.json() + "\n").into_bytes()
    } else if args.csv {
        report
            .csv()
            .map_err(|e| Failure::runtime(format!("cannot format CSV: {e}")))?
    } else {
        report.text().into_bytes()
    };
    let Some(path) = &args.out else {
        return emit_bytes(&bytes);
    };
    let mut meta = Meta::new(
        "hand",
        &profile,
        serde_json::json!({
            "rules": rules_arg,
            "hand": hand.to_string(),
            "players": args.players,
            "seat": args.seat,
            "play": args.play,
            "worlds": args.worlds,
            "seed": seed,
            "threads": threads,
            "after": after_names,
            "others_bid": args.others_bid,
            "dd": !args.no_dd,
            "format": if args.json { "json" } else if args.csv { "csv" } else { "text" },
            "out": path,
        }),
    );
    meta.record_run(
        seed,
        args.worlds,
        hand::BLOCK_SIZE,
        start.elapsed().as_secs_f64(),
    );
    write_with_meta(path, &bytes, &meta)
}

fn bid_table_command(rules_arg: &str, args: BidTableArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    profile.check_players(args.run.players)?;
    let play = play_policy(&args.run.play, &profile)?;
    let opener = bid_policy("threshold", &profile)?;
    for path in [&args.out, &args.markdown, &args.plot]
        .into_iter()
        .flatten()
    {
        check_writable_dir(path)?;
    }
    let seed = resolve_seed(args.run.seed);
    let threads = thread_count(args.run.threads);
    let scheme = match args.by.as_str() {
        "exact" => Scheme::Exact,
        "coarse" => Scheme::Coarse,
        _ => Scheme::Classes,
    };
    let dd_deals = args.dd_deals.unwrap_or(args.run.deals).min(args.run.deals);
    let config = BidTableConfig {
        profile: &profile,
        players: args.run.players,
        deals: args.run.deals,
        seed,
        play: play.as_ref(),
        play_dd: hand::is_dd_spec(&args.run.play),
        dd_deals,
        scheme,
        opener: opener.as_ref(),
    };
    let progress = Progress::new(args.run.deals, "deals", args.quiet);
    let start = Instant::now();
    let tally = bid_table::bid_table(&config, threads, &progress).map_err(Failure::runtime)?;
    let elapsed = start.elapsed().as_secs_f64();
    let rows = bid_table::rows(&tally, &config, args.min_hands);
    // The command that reproduces the tables: resolved arguments, no paths or thread count.
    let command = format!(
        "napsim --rules {} bid-table --players {} --deals {} --play {} --seed {seed} --by {} \
         --dd-deals {dd_deals} --min-hands {}",
        profile.name(),
        args.run.players,
        args.run.deals,
        shell_word(&args.run.play),
        args.by,
        args.min_hands
    );
    let doc = report::BidTableDoc {
        command: &command,
        profile: profile.name(),
        play: &args.run.play,
        deals: args.run.deals,
        dd_deals,
        min_hands: args.min_hands,
        coverage: [(
            args.run.players,
            bid_table::coverage(&tally, args.run.players, args.min_hands),
        )]
        .into(),
        bids: profile
            .bids()
            .iter()
            .map(|b| (b.name().to_string(), b.label().to_string()))
            .collect(),
    };
    let markdown = report::bid_table_markdown(&doc, &rows);
    // Drawn before any file is written, so that a drawing error leaves no partial outputs.
    let svg = match &args.plot {
        Some(_) => {
            let chart = bid_table::chart::chart(&tally, &config, 0, &args.run.play, args.min_hands);
            Some(report::bid_chart_svg(&chart).map_err(Failure::runtime)?)
        }
        None => None,
    };
    if let Some(path) = &args.out {
        let csv = csv_of(&rows)?;
        let mut meta = Meta::new(
            "bid-table",
            &profile,
            serde_json::json!({
                "rules": rules_arg,
                "players": args.run.players,
                "deals": args.run.deals,
                "seed": seed,
                "threads": threads,
                "play": args.run.play,
                "by": args.by,
                "dd_deals": dd_deals,
                "min_hands": args.min_hands,
                "command": command,
                "out": path,
            }),
        );
        meta.record_run(seed, args.run.deals, bid_table::BLOCK_SIZE, elapsed);
        write_with_meta(path, &csv, &meta)?;
    }
    if let Some(path) = &args.markdown {
        write_file(path, markdown.as_bytes())?;
    }
    if let (Some(path), Some(svg)) = (&args.plot, &svg) {
        write_file(path, svg.as_bytes())?;
    }
    if args.out.is_none() && args.markdown.is_none() && args.plot.is_none() {
        return emit(&markdown);
    }
    let shown = rows.len() / profile.bids().len().max(1);
    eprintln!(
        "{} deals in {elapsed:.2} s; {shown} (seat, class) rows shown",
        args.run.deals
    );
    Ok(())
}

fn thresholds_command(rules_arg: &str, args: ThresholdsArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    profile.check_players(args.run.players)?;
    if args.seat >= args.run.players {
        return Err(Failure::input(format!(
            "--seat {} is not a position in the auction: 0 (eldest) to {}",
            args.seat,
            args.run.players - 1
        )));
    }
    let play = play_policy(&args.run.play, &profile)?;
    let opener = bid_policy("threshold", &profile)?;
    if let Some(path) = args.out.as_deref().filter(|p| *p != Path::new("-")) {
        check_writable_dir(path)?;
    }
    let seed = resolve_seed(args.run.seed);
    let threads = thread_count(args.run.threads);
    let config = BidTableConfig {
        profile: &profile,
        players: args.run.players,
        deals: args.run.deals,
        seed,
        play: play.as_ref(),
        play_dd: hand::is_dd_spec(&args.run.play),
        dd_deals: 0,
        scheme: Scheme::Strength,
        opener: opener.as_ref(),
    };
    let progress = Progress::new(args.run.deals, "deals", args.quiet);
    let start = Instant::now();
    let tally = bid_table::bid_table(&config, threads, &progress).map_err(Failure::runtime)?;
    let elapsed = start.elapsed().as_secs_f64();
    let (rows, bests) = thresholds::sweep(&tally, &profile, args.run.players, args.seat);
    let mut text = format!(
        "{} | {} players | seat {} | play {} | seed {seed} | {} deals\n\n",
        profile.name(),
        args.run.players,
        args.seat,
        args.run.play,
        args.run.deals
    );
    text += &format!(
        "{:<28} {:>9} {:>13} {:>20}\n",
        "bid", "bid from", "95% range", "EV/deal ± se"
    );
    for best in &bests {
        let label = profile
            .bid_by_name(&best.bid)
            .map_or(best.bid.as_str(), |b| b.label());
        let from = if best.never {
            "never".to_string()
        } else {
            format!(
                "{} {}",
                best.score.replace("strength", "").trim(),
                best.threshold
            )
            .trim()
            .to_string()
        };
        text += &format!(
            "{:<28} {:>9} {:>13} {:>+12.4} ± {:.4}\n",
            label,
            from,
            format!("{}-{}", best.interval.0, best.interval.1),
            best.ev.0,
            best.ev.1
        );
    }
    text += "\nScores: the threshold policy's trick strength (2 per trump, trump A 4, K 3, Q 2, \
             J 1, side A 3, side K 1;\nbest suit as trump), its misère strength for misère bids. \
             Each bid is swept alone: bid it when the\nscore reaches the threshold, else pass. \
             'bid from' maximises expected units per deal reaching the\nseat; the range holds \
             every threshold not significantly worse (paired on the same deals, 95%).\n";
    let csv = csv_of(&rows)?;
    if args.out.as_deref() == Some(Path::new("-")) {
        eprint!("{text}");
        return emit_bytes(&csv);
    }
    if let Some(path) = &args.out {
        let mut meta = Meta::new(
            "thresholds",
            &profile,
            serde_json::json!({
                "rules": rules_arg,
                "players": args.run.players,
                "deals": args.run.deals,
                "seed": seed,
                "threads": threads,
                "play": args.run.play,
                "seat": args.seat,
                "out": path,
            }),
        );
        meta.record_run(seed, args.run.deals, bid_table::BLOCK_SIZE, elapsed);
        write_with_meta(path, &csv, &meta)?;
    }
    emit(&text)
}

/// `text` as one shell word (single-quoted when it holds anything but plain characters).
fn shell_word(text: &str) -> String {
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_=:.,/".contains(c))
    {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

fn simulate_command(rules_arg: &str, args: SimulateArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    profile.check_players(args.players)?;
    let bid = bid_policy(&args.policies.bid, &profile)?;
    let play = play_policy(&args.policies.play, &profile)?;
    let to_stdout = args.out.as_deref() == Some(Path::new("-"));
    let file = args.out.as_deref().filter(|_| !to_stdout);
    if let Some(path) = file {
        check_writable_dir(path)?;
    }
    let seed = resolve_seed(args.seed);
    let threads = thread_count(args.threads);
    let config = SimulateConfig {
        profile: &profile,
        players: args.players,
        deals: args.deals,
        seed,
        bid: bid.as_ref(),
        play: play.as_ref(),
    };
    let progress = Progress::new(args.deals, "deals", args.quiet);
    let start = Instant::now();
    let tally = simulate::simulate(&config, threads, &progress).map_err(Failure::runtime)?;
    let elapsed = start.elapsed().as_secs_f64();
    let rows = simulate::rows(
        &tally,
        &profile,
        args.players,
        &args.policies.bid,
        &args.policies.play,
        seed,
    );
    let csv = csv_of(&rows)?;
    let summary = report::simulate_summary(&rows, &tally, elapsed);
    if to_stdout {
        eprint!("{summary}");
        return emit_bytes(&csv);
    }
    if let Some(path) = file {
        let mut meta = Meta::new(
            "simulate",
            &profile,
            serde_json::json!({
                "rules": rules_arg,
                "players": args.players,
                "deals": args.deals,
                "seed": seed,
                "threads": threads,
                "bid": args.policies.bid,
                "play": args.policies.play,
                "out": path,
            }),
        );
        meta.record_run(seed, args.deals, simulate::BLOCK_SIZE, elapsed);
        write_with_meta(path, &csv, &meta)?;
    }
    emit(&summary)
}

fn tournament_command(rules_arg: &str, args: TournamentArgs) -> Result<(), Failure> {
    let profile = load_profile(rules_arg)?;
    profile.check_players(args.players)?;
    let entrants = args
        .entrants
        .iter()
        .map(|text| tournament::parse_entrant(text, &profile))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::input)?;
    if entrants.len() < 2 || entrants.len() > args.players {
        return Err(Failure::input(format!(
            "a tournament needs 2 to {} entrants at {} players; {} given",
            args.players,
            args.players,
            entrants.len()
        )));
    }
    for (i, e) in entrants.iter().enumerate() {
        if entrants[..i].iter().any(|o| o.name == e.name) {
            return Err(Failure::input(format!(
                "two entrants are named '{}'",
                e.name
            )));
        }
    }
    for path in [&args.out, &args.pairs, &args.markdown]
        .into_iter()
        .flatten()
    {
        check_writable_dir(path)?;
    }
    let seed = resolve_seed(args.seed);
    let threads = thread_count(args.threads);
    let config = tournament::TournamentConfig {
        profile: &profile,
        players: args.players,
        entrants: &entrants,
        sets: args.sessions,
        seed,
        duplicate: !args.no_duplicate,
    };
    let progress = Progress::new(args.sessions, "card sets", args.quiet);
    let start = Instant::now();
    let tally = tournament::tournament(&config, threads, &progress).map_err(Failure::runtime)?;
    let elapsed = start.elapsed().as_secs_f64();
    let (rows, pairs) = tournament::rows(&tally, &config);
    let mut text = format!(
        "{} | {} players | {} card sets{} | seed {seed} | {:.1} s\n\n",
        profile.name(),
        args.players,
        args.sessions,
        if config.duplicate { ", duplicate" } else { "" },
        elapsed
    );
    text += &format!(
        "{:<14} {:>10} {:>17} {:>10} {:>23}\n",
        "entrant", "sessions", "balance ± se", "units/deal", "win share (95%)"
    );
    for r in &rows {
        text += &format!(
            "{:<14} {:>10} {:>9.3} ± {:<5.3} {:>+10.4} {:>7.3} ({:.3}-{:.3})\n",
            r.entrant,
            r.sessions,
            r.mean_balance,
            r.mean_balance_se,
            r.units_per_deal,
            r.win_share,
            r.win_share_ci95_low,
            r.win_share_ci95_high
        );
    }
    text += "\npaired differences per session (row minus column, ± se; * significant at 95%):\n";
    text += &format!("{:<14}", "");
    for e in &entrants {
        text += &format!(" {:>18}", e.name);
    }
    text += "\n";
    for a in &entrants {
        text += &format!("{:<14}", a.name);
        for b in &entrants {
            let cell = pairs
                .iter()
                .find(|p| p.entrant_a == a.name && p.entrant_b == b.name)
                .map_or("-".to_string(), |p| {
                    format!(
                        "{:+.3}±{:.3}{}",
                        p.mean_diff,
                        p.mean_diff_se,
                        if p.significant { "*" } else { " " }
                    )
                });
            text += &format!(" {cell:>18}");
        }
        text += "\n";
    }
    let arguments = serde_json::json!({
        "rules": rules_arg,
        "players": args.players,
        "entrants": args.entrants,
        "sessions": args.sessions,
        "seed": seed,
        "threads": threads,
        "duplicate": config.duplicate,
    });
    if let Some(path) = &args.out {
        let mut meta = Meta::new("tournament", &profile, arguments.clone());
        meta.record_run(seed, args.sessions, tournament::BLOCK_SIZE, elapsed);
        write_with_meta(path, &csv_of(&rows)?, &meta)?;
    }
    if let Some(path) = &args.pairs {
        write_file(path, &csv_of(&pairs)?)?;
    }
    if let Some(path) = &args.markdown {
        let command = format!(
            "napsim --rules {} tournament --players {} {} --sessions {} --seed {seed}{}",
            profile.name(),
            args.players,
            args.entrants
                .iter()
                .map(|e| format!("--entrant {}", shell_word(e)))
                .collect::<Vec<_>>()
                .join(" "),
            args.sessions,
            if config.duplicate {
                ""
            } else {
                " --no-duplicate"
            }
        );
        write_file(
            path,
            report::tournament_markdown(&command, &rows, &pairs).as_bytes(),
        )?;
    }
    emit(&text)
}

/// The thread count asked for, or every core.
fn thread_count(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Rows as CSV bytes (a header and one line per row).
fn csv_of<T: serde::Serialize>(rows: &[T]) -> Result<Vec<u8>, Failure> {
    report::csv_bytes(rows).map_err(|e| Failure::runtime(format!("cannot format CSV: {e}")))
}

/// Writes `bytes` to `path` and the run's manifest beside it (`FILE.meta.json`), except beside
/// a device or pipe.
fn write_with_meta(path: &Path, bytes: &[u8], meta: &Meta) -> Result<(), Failure> {
    write_file(path, bytes)?;
    if report::is_special_file(path) {
        eprintln!(
            "note: {} is not a regular file; no manifest written beside it",
            path.display()
        );
        return Ok(());
    }
    write_file(&report::meta_path(path), meta.to_json().as_bytes())
}

/// The seed given, or a fresh one printed to stderr so the run can be repeated.
fn resolve_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let seed = rand::random::<u64>();
        eprintln!("seed: {seed} (pass --seed {seed} to repeat this run)");
        seed
    })
}

fn check_writable_dir(path: &Path) -> Result<(), Failure> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(Failure::runtime(format!(
            "cannot write {}: directory {} does not exist",
            path.display(),
            dir.display()
        )))
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    report::write_atomic(path, bytes)
        .map_err(|e| Failure::runtime(format!("cannot write {}: {e}", path.display())))
}

fn emit(text: &str) -> Result<(), Failure> {
    emit_bytes(text.as_bytes())
}

fn emit_bytes(bytes: &[u8]) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(stdout_failure)
}

/// A closed pipe (`napsim ... | head`) is a clean exit; other write errors are failures.
fn stdout_failure(e: std::io::Error) -> Failure {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Failure {
            code: 0,
            message: String::new(),
        }
    } else {
        Failure::runtime(format!("cannot write to stdout: {e}"))
    }
}
