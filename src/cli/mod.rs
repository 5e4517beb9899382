//! The `napsim` command line: clap definitions (`args.rs`), turning arguments into the library's
//! jobs ([`crate::commands`]), writing what they return, and errors into exit codes. No game,
//! run or report logic.
//!
//! Exit codes: 0 success, 1 runtime failure (I/O), 2 bad input or usage, 130 interrupted.

mod args;
mod flags;

pub use args::{
    Cli, Command, HAND_DEFAULT_PLAY, HAND_DEFAULT_WORLDS, HandWorlds, parse_count, parse_points,
    parse_threads, parse_whole,
};

use std::ffi::OsString;

use clap::{CommandFactory, FromArgMatches};
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::analysis::bid_table::{BidTable, BidTableJob};
use crate::analysis::equity::Equity;
use crate::analysis::hand::{Hand, HandJob};
use crate::analysis::simulate::{Simulate, SimulateJob};
use crate::analysis::thresholds::{Thresholds, ThresholdsJob};
use crate::analysis::tournament::{Tournament, TournamentJob};
use crate::bots::ext::BotPool;
use crate::commands::{self, DealJob, LongRun, Outputs, Render, SolveJob};
use crate::error::Error;
use crate::files::WriteGate;
use crate::report::{Rendered, TerminalProgress};
use crate::rules::{self, Profile, load_profile};
use crate::run::Controls;
use crate::stderr;
use args::{LongArgs, RulesAction};

/// Exit status after an interruption by SIGINT, SIGTERM or SIGHUP alike (128 + SIGINT, as
/// shells report a Ctrl-C): one status for "stopped, progress saved, resumable".
pub const INTERRUPTED: i32 = 130;

/// The exit status for `error`: the one place kinds of error become numbers.
fn exit_code(error: &Error) -> i32 {
    match error {
        _ if error.is_input() => 2,
        Error::Stdout(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Error::Interrupted(_) => INTERRUPTED,
        _ => 1,
    }
}

/// Runs napsim with `args` (the program name first) and returns the exit code. Errors are
/// printed to stderr as one `error: ...` line.
pub fn main_with_args(args: impl IntoIterator<Item = OsString>) -> i32 {
    let parsed = Cli::command()
        .try_get_matches_from(args)
        .and_then(|matches| Ok((Cli::from_arg_matches(&matches)?, matches)));
    let (mut cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    cli.rules_given = given(&matches, "rules");
    // The command's external bots: one pool for the whole command, which the signal handlers
    // can end.
    let process = Process {
        bots: BotPool::new(std::time::Duration::from_secs_f64(cli.move_time)),
        writes: WriteGate::default(),
        plain_handlers: std::sync::Mutex::new(Vec::new()),
    };
    let bots = &process.bots;
    end_bots_on_signals(&process);
    // A bot that failed is a failure of the command like any other: one error line, exit 1
    // (the commands that show results as they go check before each).
    let result = run(cli, &process).and_then(|()| Error::bots_held(bots));
    // Every external bot ends with napsim, whatever the outcome.
    bots.shutdown();
    match result {
        Ok(()) => 0,
        Err(e) => {
            let code = exit_code(&e);
            if code != 0 {
                stderr::line(&format!("error: {}", flags::in_flags(&e.to_string())));
            }
            code
        }
    }
}

/// Whether the global option `id` was given on the command line (before or after the
/// subcommand), not left at its default.
fn given(matches: &clap::ArgMatches, id: &str) -> bool {
    let here = matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
    here || matches.subcommand().is_some_and(|(_, sub)| given(sub, id))
}

/// Every core.
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The replay flags as the library reads them.
fn replay_text(a: args::ReplayArgs) -> commands::ReplayText {
    commands::ReplayText {
        calls: a.calls,
        plays: a.plays,
        kitty: a.kitty,
        floater: a.floater,
        peeks: a.peeks,
        discard: a.discard,
        trump: a.trump,
        buy: a.buy,
        spare: a.spare,
        keep: a.keep,
    }
}

/// `napsim serve`: prints the page's address on the first line of stdout and serves until
/// SIGINT or SIGTERM (a second one quits at once).
fn serve(a: args::ServeArgs, process: &Process) -> Result<(), Error> {
    let stop = stop_on_signals(process)?;
    if !a.host.is_loopback() {
        stderr::line(&format!(
            "warning: listening on {}: anyone who can reach this machine on that network can              use the page and its API",
            a.host
        ));
    }
    let config = crate::serve::ServeConfig {
        addr: std::net::SocketAddr::new(a.host, a.port),
        threads: a.threads.unwrap_or_else(default_threads),
        evaluations: a.evaluations as usize,
        waiting: a.waiting,
        max_worlds: a.max_worlds,
        max_sessions: a.max_sessions,
        ..crate::serve::ServeConfig::default()
    };
    let ready = |addr: std::net::SocketAddr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "http://{addr}/");
        let _ = out.flush();
        stderr::line("napsim serve: open the address above in a browser; Ctrl-C stops the server");
    };
    crate::serve::serve(config, ready, stop)?;
    stderr::line("napsim serve: stopped");
    Ok(())
}

/// What one run of the command line owns: its external bots, its writes (which an exit on a
/// signal waits for) and the plain signal handlers until a command installs its own.
struct Process {
    bots: BotPool,
    writes: WriteGate,
    plain_handlers: std::sync::Mutex<Vec<signal_hook::SigId>>,
}

/// Runs the parsed command line in `process`.
fn run(cli: Cli, process: &Process) -> Result<(), Error> {
    let bots = &process.bots;
    let rules = cli.rules.as_str();
    match cli.command {
        Command::Rules { action } => emit(
            match action {
                RulesAction::List => commands::rules_list()?,
                RulesAction::Show { name } => {
                    commands::rules_show(name.as_deref().unwrap_or(rules))?
                }
            }
            .as_bytes(),
        ),
        Command::Deal(a) => {
            let job = DealJob {
                players: a.players,
                seed: a.seed,
                count: a.count,
                dealer: a.dealer,
                hands: a.hands,
                replay: replay_text(a.replay),
                bid: a.policies.bid,
                play: a.policies.play,
                json: a.json,
                bot_pool: bots.clone(),
            };
            commands::deal(rules, &job, fresh_seed, &mut std::io::stdout().lock())
        }
        Command::Play(a) => {
            let color = !a.json
                && std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            let job = commands::PlayJob {
                players: a.players,
                seat: a.seat,
                bots: a.bots,
                seed: a.seed,
                deals: a.deals,
                json: a.json,
                color,
                echo: a.input.is_some() || !std::io::stdin().is_terminal(),
                save: a.save,
                force: a.force,
                hint_worlds: a.hint_worlds,
                threads: a.threads.unwrap_or_else(default_threads),
                bot_pool: bots.clone(),
            };
            let mut input: Box<dyn std::io::BufRead> = match &a.input {
                Some(path) => {
                    Box::new(std::io::BufReader::new(std::fs::File::open(path).map_err(
                        |e| Error::input(format!("cannot read {}: {e}", path.display())),
                    )?))
                }
                None => Box::new(std::io::stdin().lock()),
            };
            let file = commands::SessionFile::new();
            report_on_signals(file.clone(), process)?;
            commands::play_session(
                &load_profile(rules)?,
                &job,
                fresh_seed,
                (&mut input, &mut std::io::stdout().lock()),
                &file,
            )
        }
        Command::Review(a) => {
            let job = commands::ReviewJob {
                input: a.input,
                hands: a.hands,
                dealer: a.dealer,
                replay: replay_text(a.replay),
                choice: a.choice,
                eval_play: a.eval_play,
                others_bid: a.others_bid,
                worlds: a.worlds,
                seed: a.seed,
                threads: a.threads.unwrap_or_else(default_threads),
                json: a.json,
                summary: a.summary,
                rules_given: cli.rules_given,
                bot_pool: bots.clone(),
            };
            let progress = TerminalProgress::new(a.quiet, flags::in_flags);
            commands::review_deals(
                &load_profile(rules)?,
                &job,
                &mut std::io::stdin().lock(),
                &mut std::io::stdout().lock(),
                &progress,
            )
        }
        Command::Serve(a) => serve(a, process),
        Command::Solve(a) => {
            let job = SolveJob {
                deal: a.deal,
                random: a.random,
                players: a.players,
                seed: a.seed,
                misere: a.misere,
                bid: a.bid,
                trump: a.trump,
                plays: a.plays,
                json: a.json,
            };
            emit(commands::solve(&load_profile(rules)?, &job, fresh_seed)?.as_bytes())
        }
        Command::Equity(a) => {
            let profile = load_profile(rules)?;
            let job = simulate_job(a.players, a.deals, a.policies);
            let outputs = Outputs {
                out: a.out,
                markdown: a.markdown,
                plot: a.plot,
                outcomes: a.outcomes,
                breakeven: a.breakeven,
                ..Outputs::default()
            };
            long::<Equity>(&profile, job, (&a.long, process), outputs)
        }
        Command::Simulate(a) => {
            let profile = load_profile(rules)?;
            let job = simulate_job(a.players, a.deals, a.policies);
            let outputs = Outputs {
                out: a.out,
                ..Outputs::default()
            };
            long::<Simulate>(&profile, job, (&a.long, process), outputs)
        }
        Command::Hand(a) => {
            let profile = load_profile(rules)?;
            let job = hand_job(&a)?;
            let outputs = Outputs {
                out: a.out,
                ..Outputs::default()
            };
            long::<Hand>(&profile, job, (&a.long, process), outputs)
        }
        Command::BidTable(a) => {
            let profile = load_profile(rules)?;
            let job = bid_table_job(&a)?;
            let outputs = Outputs {
                out: a.out,
                markdown: a.markdown,
                plot: a.plot,
                ..Outputs::default()
            };
            long::<BidTable>(&profile, job, (&a.run.long, process), outputs)
        }
        Command::Thresholds(a) => {
            let profile = load_profile(rules)?;
            let job = ThresholdsJob {
                seat: a.seat,
                play: a.run.play,
                auction: a.auction,
                ..ThresholdsJob::new(a.run.players, a.run.deals)
            };
            let outputs = Outputs {
                out: a.out,
                ..Outputs::default()
            };
            long::<Thresholds>(&profile, job, (&a.run.long, process), outputs)
        }
        Command::Optimize(a) => {
            let profile = load_profile(rules)?;
            let control = &a.long.control;
            let seed = match (a.long.seed, &control.resume) {
                (Some(seed), _) => seed,
                (None, Some(path)) => commands::saved_seed(path).ok_or_else(|| {
                    Error::input(format!(
                        "--resume {}: not a napsim optimize checkpoint (a shard resumes with \
                         --seed given)",
                        path.display()
                    ))
                })?,
                (None, None) if control.shard.is_some() => {
                    return Err(Error::input(
                        "--shard needs --seed: every shard of a run must use the same seed",
                    ));
                }
                (None, None) => fresh_seed(),
            };
            let rating_deals = if a.by == "classes-rated" {
                a.rating_deals
            } else {
                0
            };
            let settings = crate::analysis::optimize::OptimizeSettings {
                players: a.players,
                play: a.play,
                by: a.by,
                history: a.history,
                deals: a.deals,
                rounds: a.rounds,
                level: a.level,
                min_hands: a.min_hands,
                held_out: a.held_out.unwrap_or(a.deals),
                rating_deals,
                deviation_level: a.deviation_level,
                seed,
                start: a.start.clone(),
                input_files: Default::default(),
            };
            let outputs = Outputs {
                out: a.out,
                markdown: a.markdown,
                ..Outputs::default()
            };
            let controls = controls_of(&a.long, process)?;
            let progress = TerminalProgress::new(a.long.quiet, flags::in_flags);
            let run = LongRun {
                seed: Some(seed),
                controls: &controls,
                outputs,
                progress: &progress,
            };
            deliver(
                commands::optimize(&profile, settings, &a.start, run)?,
                process,
            )
        }
        Command::Tournament(a) => {
            let profile = load_profile(rules)?;
            let job = TournamentJob {
                duplicate: !a.no_duplicate,
                forfeit: a.forfeit,
                sprt_wins: a.sprt.is_some() && a.sprt_on == "wins",
                sprt: a.sprt.map(|(d0, d1)| crate::stats::sprt::Sprt {
                    d0,
                    d1,
                    alpha: a.alpha,
                    beta: a.beta,
                }),
                ..TournamentJob::new(a.players, a.entrants, a.sessions)
            };
            let outputs = Outputs {
                out: a.out,
                pairs: a.pairs,
                markdown: a.markdown,
                ..Outputs::default()
            };
            long::<Tournament>(&profile, job, (&a.long, process), outputs)
        }
        Command::Merge(a) => {
            // The profile comes from the parts; a --rules other than the default must match it.
            let expected = (rules != rules::DEFAULT_PROFILE).then_some(rules);
            let outputs = Outputs {
                out: a.out,
                pairs: a.pairs,
                markdown: a.markdown,
                plot: a.plot,
                outcomes: a.outcomes,
                breakeven: a.breakeven,
            };
            deliver(commands::merge(&a.parts, expected, outputs)?, process)
        }
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "napsim", &mut script);
            emit(&script)
        }
        Command::Man => {
            let mut page = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut page)
                .map_err(Error::Stdout)?;
            emit(&page)
        }
    }
}

/// `napsim bid-table`'s job: the library's defaults ([`BidTableJob::new`]) with the flags given.
fn bid_table_job(a: &args::BidTableArgs) -> Result<BidTableJob, Error> {
    let classes = match &a.classes {
        Some(path) => crate::analysis::bid_table::read_class_file(path)
            .map_err(|e| Error::input(format!("--classes {e}")))?,
        None => Vec::new(),
    };
    Ok(BidTableJob {
        by: a.by.clone(),
        play: a.run.play.clone(),
        classes_file: a.classes.as_ref().map(|p| p.display().to_string()),
        classes,
        class_labels: a.class.clone(),
        auction: a.auction,
        ..BidTableJob::new(a.run.players, a.run.deals)
    }
    .with_sampling(a.per_class, a.dd_deals, a.min_hands))
}

/// `napsim hand`'s job: the library's defaults ([`HandJob::new`]) with the flags given.
fn hand_job(a: &args::HandArgs) -> Result<HandJob, Error> {
    if a.session.is_some() && a.precision.is_some() {
        return Err(Error::input(
            "--session plays every world: leave out --precision (give --worlds K)",
        ));
    }
    let run = match a.session {
        // A session's calls are compared by their chances of winning, which the early stop
        // (on units) does not watch: every world is played.
        Some(_) => HandWorlds::resolve(Some(a.worlds.unwrap_or(HAND_DEFAULT_WORLDS.worlds)), None),
        None => HandWorlds::resolve(a.worlds, a.precision),
    };
    let format = if a.json {
        "json"
    } else if a.csv {
        "csv"
    } else {
        "text"
    };
    Ok(HandJob {
        players: a.players,
        seat: a.seat,
        after: a
            .after
            .as_deref()
            .map_or(Vec::new(), |t| t.split(',').map(String::from).collect()),
        dd: !a.no_dd,
        auction: !a.as_declarer,
        format: format.to_string(),
        verbose: a.verbose,
        play: a.play.clone(),
        others_bid: a.others_bid.clone(),
        session: a.session.clone(),
        objective: a.objective.clone(),
        ..HandJob::new(a.hand.clone())
    }
    .with_worlds(run))
}

/// The job of deals played by `policies` at every seat (`simulate`, and `equity` measuring them).
fn simulate_job(players: usize, deals: u64, policies: args::PolicyArgs) -> SimulateJob {
    SimulateJob {
        players,
        deals,
        input_files: Default::default(),
        bid: policies.bid,
        play: policies.play,
    }
}

/// Runs a long command under the user's controls, stopping cleanly on SIGINT, SIGTERM or
/// SIGHUP.
fn long<C: Render>(
    profile: &Profile,
    job: C::Job,
    (args, process): (&LongArgs, &Process),
    outputs: Outputs,
) -> Result<(), Error> {
    let controls = controls_of(args, process)?;
    let progress = TerminalProgress::new(args.quiet, flags::in_flags);
    let run = LongRun {
        seed: args.seed,
        controls: &controls,
        outputs,
        progress: &progress,
    };
    deliver(
        commands::run_long::<C>(profile, job, run, fresh_seed)?,
        process,
    )
}

/// The run controls the long flags ask for, stopping cleanly on SIGINT, SIGTERM or SIGHUP.
fn controls_of(args: &LongArgs, process: &Process) -> Result<Controls, Error> {
    let control = &args.control;
    let mut controls = Controls {
        shard: control.shard,
        checkpoint: control.checkpoint.clone(),
        resume: control.resume.clone(),
        checkpoint_every: control.checkpoint_every,
        stop: stop_on_signals(process)?,
        bot_pool: process.bots.clone(),
        writes: process.writes.clone(),
        ..Controls::default()
    };
    if let Some(threads) = args.threads {
        controls.threads = threads;
    }
    Ok(controls)
}

/// A flag that the first SIGINT, SIGTERM or SIGHUP (a closed terminal) sets; a second one,
/// while the run is still stopping, exits at once (its bots killed), unless a file is being
/// written: then the write is finished first, so that no finished result is lost and no
/// temporary file is left ([`files::exit_after_writes`]). A signal that arrives during a write
/// says so. SIGHUP is left alone when it was ignored at the start: `nohup napsim ...` asks to
/// outlive the terminal.
fn stop_on_signals(process: &Process) -> Result<Arc<AtomicBool>, Error> {
    let stop = Arc::new(AtomicBool::new(false));
    let bots = process.bots.killer();
    let deferred = bots.clone();
    process.writes.set_exit(move || {
        deferred.kill();
        std::process::exit(INTERRUPTED)
    });
    drop_plain_handlers(process);
    for signal in stop_signals() {
        let stop = Arc::clone(&stop);
        let bots = bots.clone();
        let writes = process.writes.clone();
        let handler = move || {
            if !stop.swap(true, Ordering::SeqCst) {
                if writes.writes_under_way() {
                    say_in_handler(b"napsim: finishing the file being written\n");
                }
            } else if writes.exit_after_writes() {
                say_in_handler(
                    b"napsim: finishing the file being written, then quitting (another Ctrl-C \
                      quits at once)\n",
                );
            } else {
                bots.kill();
                signal_hook::low_level::exit(INTERRUPTED);
            }
        };
        // SAFETY: the handler only reads and writes atomics and calls kill(2), write(2) and
        // _exit(2), which are async-signal-safe.
        unsafe { signal_hook::low_level::register(signal, handler) }
            .map_err(|e| Error::runtime(format!("cannot install the signal handlers: {e}")))?;
    }
    Ok(stop)
}

/// For every command: SIGINT, SIGTERM or SIGHUP (unless ignored) kills the bots' process groups
/// (which a terminal's signal no longer reaches) and exits, as the default action would. The
/// long commands and `play` replace these with their own ([`drop_plain_handlers`]).
fn end_bots_on_signals(process: &Process) {
    let mut ids = process
        .plain_handlers
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    for signal in stop_signals() {
        let bots = process.bots.killer();
        let handler = move || {
            bots.kill();
            signal_hook::low_level::exit(INTERRUPTED);
        };
        // SAFETY: the handler reads atomics and calls kill(2) and _exit(2), which are
        // async-signal-safe.
        if let Ok(id) = unsafe { signal_hook::low_level::register(signal, handler) } {
            ids.push(id);
        }
    }
}

/// Removes the handlers of [`end_bots_on_signals`].
fn drop_plain_handlers(process: &Process) {
    let ids = std::mem::take(
        &mut *process
            .plain_handlers
            .lock()
            .unwrap_or_else(|e| e.into_inner()),
    );
    for id in ids {
        signal_hook::low_level::unregister(id);
    }
}

/// Writes `text` to stderr from a signal handler (`write(2)` alone: no lock, no allocation).
#[cfg(unix)]
fn say_in_handler(text: &[u8]) {
    // SAFETY: write(2) on the stderr descriptor with a valid buffer and its length.
    unsafe {
        libc::write(2, text.as_ptr().cast(), text.len());
    }
}

/// Elsewhere a handler says nothing.
#[cfg(not(unix))]
fn say_in_handler(_: &[u8]) {}

/// The signals that stop napsim: SIGINT, SIGTERM, and SIGHUP (a closed terminal) unless it
/// was ignored at the start (`nohup napsim ...` asks to outlive the terminal).
#[cfg(unix)]
fn stop_signals() -> Vec<i32> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let hangup = (!ignored(SIGHUP)).then_some(SIGHUP);
    [SIGINT, SIGTERM].into_iter().chain(hangup).collect()
}

/// The signals that stop napsim where there is no SIGHUP: SIGINT and SIGTERM.
#[cfg(not(unix))]
fn stop_signals() -> Vec<i32> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    vec![SIGINT, SIGTERM]
}

/// For `napsim play`: the first SIGINT, SIGTERM or SIGHUP (unless ignored, as under `nohup`)
/// says where the session's finished deals are saved, ends the bots and exits
/// ([`INTERRUPTED`]). A session waits on its reader, so a flag would not be seen: a thread of
/// its own waits for the signal.
#[cfg(unix)]
fn report_on_signals(file: commands::SessionFile, process: &Process) -> Result<(), Error> {
    drop_plain_handlers(process);
    let bots = process.bots.clone();
    let mut signals = signal_hook::iterator::Signals::new(stop_signals())
        .map_err(|e| Error::runtime(format!("cannot install the signal handlers: {e}")))?;
    std::thread::spawn(move || {
        if signals.forever().next().is_some() {
            stderr::line(&format!("interrupted: {}", file.close()));
            bots.shutdown();
            std::process::exit(INTERRUPTED);
        }
    });
    Ok(())
}

/// Where signals cannot be waited for on a thread, a session keeps the plain handlers: the
/// finished deals are saved as each ends.
#[cfg(not(unix))]
fn report_on_signals(_: commands::SessionFile, _: &Process) -> Result<(), Error> {
    Ok(())
}

/// Whether `signal` is ignored (as `nohup` leaves SIGHUP).
#[cfg(unix)]
fn ignored(signal: i32) -> bool {
    // SAFETY: with a null new action, sigaction only reads the current one into `old`.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// Writes a command's files, then its stderr and stdout.
fn deliver(rendered: Rendered, process: &Process) -> Result<(), Error> {
    Error::bots_held(&process.bots)?;
    rendered
        .write_files(&process.writes)
        .map_err(|(path, e)| Error::runtime(format!("cannot write {}: {e}", path.display())))?;
    stderr::write(&flags::in_flags(&rendered.stderr));
    emit(&rendered.stdout)
}

/// Writes `bytes` to stdout.
fn emit(bytes: &[u8]) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(Error::Stdout)
}

/// A fresh seed, said on stderr so the run can be repeated.
fn fresh_seed() -> u64 {
    let seed = crate::rng::fresh_seed();
    stderr::line(&format!(
        "seed: {seed} (pass --seed {seed} to repeat this run)"
    ));
    seed
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The command line adds nothing to the library's defaults: `napsim hand HAND` with no
    /// flags runs the job a library caller gets from the hand alone.
    #[test]
    fn a_bare_hand_command_runs_the_librarys_default_job() {
        let cli = Cli::try_parse_from(["napsim", "hand", "AH KH 9H 7D 2C"]).unwrap();
        let Command::Hand(a) = cli.command else {
            panic!("not hand")
        };
        assert_eq!(hand_job(&a).unwrap(), HandJob::new("AH KH 9H 7D 2C"));
        let cli =
            Cli::try_parse_from(["napsim", "hand", "AH KH 9H 7D 2C", "--worlds", "500"]).unwrap();
        let Command::Hand(a) = cli.command else {
            panic!("not hand")
        };
        let job = hand_job(&a).unwrap();
        assert_eq!((job.worlds, job.precision), (500, None));
    }

    /// The same for `napsim bid-table`: the bare command is the library's default job, and
    /// class-targeted sampling counts each class's hands where the flags leave it open.
    #[test]
    fn a_bare_bid_table_command_runs_the_librarys_default_job() {
        let job = |args: &[&str]| {
            let cli = Cli::try_parse_from(args).unwrap();
            let Command::BidTable(a) = cli.command else {
                panic!("not bid-table")
            };
            bid_table_job(&a).unwrap()
        };
        assert_eq!(
            job(&["napsim", "bid-table"]),
            BidTableJob::new(4, 1_000_000)
        );
        let targeted = job(&["napsim", "bid-table", "--per-class", "300", "--class", "x"]);
        assert_eq!(
            (targeted.per_class, targeted.dd_deals, targeted.min_hands),
            (Some(300), 300, 300)
        );
        let capped = job(&[
            "napsim",
            "bid-table",
            "--deals",
            "5000",
            "--dd-deals",
            "9000",
        ]);
        assert_eq!((capped.dd_deals, capped.min_hands), (5000, 1000));
    }
}
