//! The command line, as clap definitions only.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// napsim: Monte Carlo bidding-strategy simulator for the British card game Nap.
#[derive(Debug, Parser)]
#[command(name = "napsim", version = crate::napsim_version(), about, long_about = None)]
pub struct Cli {
    /// Rule profile: a built-in name (see `napsim rules list`) or a path to a .toml file.
    #[arg(long, global = true, value_name = "NAME|FILE.toml", default_value = crate::rules::DEFAULT_PROFILE)]
    pub rules: String,
    /// Whether `--rules` was given (set after parsing).
    #[arg(skip)]
    pub rules_given: bool,
    /// Seconds an external bot (`ext:cmd=(...)`) may take to answer one request (fractions
    /// allowed); a bot that takes longer ends the run.
    #[arg(long, global = true, value_name = "SECS", default_value = "10", value_parser = parse_seconds)]
    pub move_time: f64,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The names of the subcommands, as typed (for the tests of completions and the manual).
    pub fn command_names() -> Vec<String> {
        use clap::CommandFactory;
        Cli::command()
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect()
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List or print rule profiles.
    Rules {
        /// `list` or `show`.
        #[command(subcommand)]
        action: RulesAction,
    },
    /// Play complete deals and narrate them (or print one JSON record per deal).
    Deal(Box<DealArgs>),
    /// Play many deals and tabulate, per bid, how often it is declared and made and what it earns.
    Simulate(SimulateArgs),
    /// Double-dummy values (every card visible) of a deal's opening leads, or of random deals.
    Solve(SolveArgs),
    /// What a hand is worth as declarer, bid by bid: P(make), expected units, the best bid.
    Hand(HandArgs),
    /// Per-bid success rates and expected values by hand class and seat, for strategy guides.
    BidTable(BidTableArgs),
    /// Sweep the threshold bid policy: the expected units per deal of bidding each bid from
    /// each hand strength, and the best strength to bid it from.
    Thresholds(ThresholdsArgs),
    /// Find a bidding strategy by iterated best response on common random deals, and measure
    /// how much one seat could gain by deviating from it (its exploitability).
    Optimize(OptimizeArgs),
    /// The session equity table: each player's chance of winning the session by lead and deals
    /// to come, from the measured payments of one deal at a table of the given policies.
    Equity(EquityArgs),
    /// Entrants (bid and play policies) play sessions against each other, duplicate by default:
    /// means, win shares and paired differences with their intervals.
    Tournament(TournamentArgs),
    /// Play a session at the table against napsim's bots, with hints from the coach: one line
    /// per answer on stdin, so it can be scripted.
    Play(PlayArgs),
    /// Judge played deals card by card (double-dummy cost, the best cards, PIMC's choice) and
    /// call by call (the hand evaluator's EV of every bid): a game's analysis.
    Review(Box<ReviewArgs>),
    /// Serve a web page (and its JSON API) that evaluates a hand, plays a session against the
    /// bots and reviews a game, on this machine's loopback address; open the URL it prints.
    Serve(ServeArgs),
    /// Add the partial results of a run's shards (`--shard I/N --out PART`) and write what the
    /// single run would have written.
    Merge(MergeArgs),
    /// Print a completion script for a shell (for example `napsim completions bash >
    /// ~/.local/share/bash-completion/completions/napsim`).
    Completions {
        /// The shell: bash, zsh, fish, powershell or elvish.
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the manual page, in roff (for example `napsim man > napsim.1 && man ./napsim.1`).
    Man,
}

/// How a long run is split over processes, saved and resumed (every long-running command).
#[derive(Debug, Args)]
pub struct RunControl {
    /// Run only shard I of N (I from 0 to N-1; needs --seed) and write its partial result to
    /// --out, for `napsim merge`.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<crate::sim::Shard>,
    /// Save progress to FILE at block boundaries, at least every --checkpoint-every seconds,
    /// and on SIGINT or SIGTERM.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue the run saved in FILE: give the original command plus --resume FILE.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Seconds between checkpoints.
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_seconds)]
    pub checkpoint_every: f64,
}

/// What every long-running command takes besides its own arguments.
#[derive(Debug, Args)]
pub struct LongArgs {
    /// Seed (chosen, printed to stderr and recorded when omitted).
    #[arg(long, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Shards, checkpoints.
    #[command(flatten)]
    pub control: RunControl,
}

/// `napsim merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The partial results: one file per shard of the same run.
    #[arg(value_name = "PART", required = true)]
    pub parts: Vec<PathBuf>,
    /// Where the run's main output goes (its CSV, or the format the run asked for, with the
    /// manifest beside it); without it, what the run prints goes to stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Tournaments: one CSV row per ordered pair of entrants here.
    #[arg(long, value_name = "FILE.csv")]
    pub pairs: Option<PathBuf>,
    /// Bid tables and tournaments: the Markdown tables here.
    #[arg(long, value_name = "FILE.md")]
    pub markdown: Option<PathBuf>,
    /// Bid tables and equity tables: the chart here (SVG).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Equity tables: the measured payments of one deal here (CSV).
    #[arg(long, value_name = "FILE.csv")]
    pub outcomes: Option<PathBuf>,
    /// Equity tables: the make rate worth each bid by lead and deals to come here (CSV).
    #[arg(long, value_name = "FILE.csv")]
    pub breakeven: Option<PathBuf>,
}

/// `napsim rules ...`.
#[derive(Debug, Subcommand)]
pub enum RulesAction {
    /// List the built-in profiles.
    List,
    /// Print a profile's TOML (a built-in name, or the --rules profile when NAME is omitted).
    Show {
        /// The profile's name.
        name: Option<String>,
    },
}

/// Policies, shared by the commands that play.
#[derive(Debug, Args)]
pub struct PolicyArgs {
    /// Bid policy spec for every seat: pass, threshold[:three=11,...], always:bid=BID,
    /// lookahead[:worlds=K,play=SPEC,others=SPEC,auction=off|on,objective=units|wins],
    /// table:file=(FILE.csv).
    #[arg(long, value_name = "SPEC", default_value = "threshold")]
    pub bid: String,
    /// Play policy spec for every seat: random, heuristic, expert[:worlds=K], pimc[:worlds=K],
    /// ismcts[:iterations=K], split:declarer=SPEC,defence=SPEC, dd.
    #[arg(long, value_name = "SPEC", default_value = "heuristic")]
    pub play: String,
}

/// `napsim deal`.
#[derive(Debug, Args)]
pub struct DealArgs {
    /// Table size.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Seed (chosen, printed to stderr and used when omitted).
    #[arg(long, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Number of deals, one continuous sequence with the deal passing left.
    #[arg(long, default_value = "1", value_parser = parse_count)]
    pub count: u64,
    /// The first dealer's seat (drawn at random when omitted).
    #[arg(long)]
    pub dealer: Option<usize>,
    /// Fixed hands for every deal: "h0/h1/...", seat 0 first, e.g. "AS KS QS JS TS/2H 3H 4H 5H 6H/...".
    #[arg(long)]
    pub hands: Option<String>,
    /// The replay of a real game.
    #[command(flatten)]
    pub replay: ReplayArgs,
    /// Policies.
    #[command(flatten)]
    pub policies: PolicyArgs,
    /// One JSON object per deal on stdout instead of the narration.
    #[arg(long)]
    pub json: bool,
}

/// The flags that describe a real game to replay (`deal`, `review`), beside `--hands` and
/// `--dealer`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// Replay a real game: every seat's call in speaking order (`pass,three,pass,pass`); needs
    /// --hands and --plays. The dealer defaults to the last seat, so that seat 0 speaks first.
    #[arg(long, requires = "hands", requires = "plays")]
    pub calls: Option<String>,
    /// With --calls: every card played, in order (`"AS 3S 7S KS ..."`).
    #[arg(long, requires = "calls")]
    pub plays: Option<String>,
    /// Replay, kitty profiles: the kitty before the deal.
    #[arg(long, requires = "calls", default_value_t = 0, value_parser = clap::value_parser!(i64).range(0..=1_000_000_000))]
    pub kitty: i64,
    /// Replay, Peep Nap: the floater.
    #[arg(long, requires = "calls")]
    pub floater: Option<String>,
    /// Replay, Peep Nap: the seats that paid to look at the floater (`1,3`).
    #[arg(long, requires = "calls")]
    pub peeks: Option<String>,
    /// Replay, Peep Nap: the card the declarer of a bid with the floater discarded.
    #[arg(long, requires = "calls")]
    pub discard: Option<String>,
    /// Replay: the trump suit the declarer named (C, D, H or S), where the contract says so.
    #[arg(long, requires = "calls")]
    pub trump: Option<String>,
    /// Replay, Purchase Nap: one purchase, `SEAT:GIVEN>RECEIVED` (`2:3C 4D>AS KS`); repeat per seat.
    #[arg(long, requires = "calls")]
    pub buy: Vec<String>,
    /// Replay, Sir Garnet: the spare hand.
    #[arg(long, requires = "calls")]
    pub spare: Option<String>,
    /// Replay, Sir Garnet: the five cards the taker of the spare hand kept.
    #[arg(long, requires = "calls")]
    pub keep: Option<String>,
}

/// `napsim play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Table size.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Your seat (0 to players - 1).
    #[arg(long, default_value_t = 0)]
    pub seat: usize,
    /// The other seats' bid and play policies, BID/PLAY.
    #[arg(long, value_name = "BID/PLAY", default_value = crate::commands::DEFAULT_BOTS)]
    pub bots: String,
    /// Seed of the cards and the bots (chosen and printed when omitted).
    #[arg(long, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Deals to play (default: the profile's session, eight deals).
    #[arg(long, value_parser = parse_count)]
    pub deals: Option<u64>,
    /// A line protocol for a graphical front end: JSON objects out (the bot protocol's `bid`
    /// and `play` requests when it is your turn), one answer per line in.
    #[arg(long)]
    pub json: bool,
    /// Save the session's deals here as `deal --json` records (default
    /// napsim-session-SEED.jsonl), written anew as each deal ends; a session that finishes no
    /// deal writes nothing. An existing file is refused unless --force.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Replace an existing --save file (once a deal is finished).
    #[arg(long)]
    pub force: bool,
    /// Read the answers from FILE instead of stdin (one per line; a scripted session).
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Worlds the coach's evaluator plays for a hint at a call.
    #[arg(long, value_name = "K", default_value_t = crate::analysis::game::DEFAULT_HINT_WORLDS, value_parser = parse_count)]
    pub hint_worlds: u64,
    /// Worker threads for hints (default: every core).
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
}

/// `napsim serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on (0, the default: a free port, printed on the first line).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// The address to listen on: the loopback address by default, so that only this machine
    /// reaches the page; another (0.0.0.0: every network) opens it to the network, with a
    /// warning.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// Worker threads of each evaluation [default: every core].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Evaluations (a hand, a review, a session's step) that run at once; more wait.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub evaluations: u64,
    /// Requests that may wait for an evaluation; beyond them the answer is "busy" (503).
    #[arg(long, default_value_t = 8)]
    pub waiting: usize,
    /// The most worlds a request may ask for (a hand's, a review's calls', a hint's).
    #[arg(long, default_value_t = 20_000, value_parser = parse_count)]
    pub max_worlds: u64,
    /// Sessions against the bots held at once (each ends after an idle hour).
    #[arg(long, default_value_t = 64)]
    pub max_sessions: usize,
}

/// `napsim review`.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// A file of `napsim deal --json` records, one deal per line (`-` for stdin); or describe
    /// one deal with --hands, --calls and --plays instead.
    #[arg(conflicts_with_all = ["hands", "calls"])]
    pub input: Option<PathBuf>,
    /// The hands of the deal to review: "h0/h1/...", seat 0 first.
    #[arg(long, requires = "calls")]
    pub hands: Option<String>,
    /// The dealer's seat (default: the last seat, so that seat 0 speaks first).
    #[arg(long, requires = "calls")]
    pub dealer: Option<usize>,
    /// The game: calls, cards and the profiles' extras.
    #[command(flatten)]
    pub replay: ReplayArgs,
    /// Worlds the hand evaluator plays for each call (0: judge the cards only).
    #[arg(long, value_name = "K", default_value_t = REVIEW_DEFAULT_WORLDS, value_parser = parse_whole)]
    pub worlds: u64,
    /// The evaluator's play policy for the calls.
    #[arg(long, value_name = "SPEC", default_value = HAND_DEFAULT_PLAY)]
    pub eval_play: String,
    /// The bid policy the evaluator assumes for the seats that called before.
    #[arg(long, value_name = "SPEC", default_value = crate::analysis::hand::DEFAULT_OTHERS_BID)]
    pub others_bid: String,
    /// The play policy whose choice is shown beside each card, from that seat's view.
    #[arg(long, value_name = "SPEC", default_value = REVIEW_CHOICE_PLAY)]
    pub choice: String,
    /// Seed of the evaluator's worlds and the choices (a review is the same every time).
    #[arg(long, default_value_t = REVIEW_DEFAULT_SEED, value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: u64,
    /// Worker threads for the calls (default: every core).
    #[arg(long, value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// JSON Lines: one object per card in play order, then one per call (with --summary, one
    /// object).
    #[arg(long)]
    pub json: bool,
    /// Only the summary over every deal: tricks lost per seat by double-dummy cost, contract
    /// swings, the calls' EV loss.
    #[arg(long)]
    pub summary: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `napsim simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Table size.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Number of deals: 1000000, 1_000_000 or 1e6.
    #[arg(long, default_value = "100000", value_parser = parse_count)]
    pub deals: u64,
    /// Policies.
    #[command(flatten)]
    pub policies: PolicyArgs,
    /// Write the per-bid CSV here (and its manifest to FILE.meta.json); `-` for stdout.
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// Seed, threads, progress, shards and checkpoints.
    #[command(flatten)]
    pub long: LongArgs,
}

/// `napsim equity`.
#[derive(Debug, Args)]
pub struct EquityArgs {
    /// Table size.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Deals to measure: 1000000, 1_000_000 or 1e6.
    #[arg(long, default_value = "1000000", value_parser = parse_count)]
    pub deals: u64,
    /// The policies of every seat: what a deal pays at the table.
    #[command(flatten)]
    pub policies: PolicyArgs,
    /// Write the table's CSV here (and its manifest to FILE.meta.json); `-` for stdout.
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// Write the table as Markdown here (without any output flag it goes to stdout).
    #[arg(long, value_name = "FILE.md")]
    pub markdown: Option<PathBuf>,
    /// Draw the chart (SVG): the chance of winning by lead, a line per number of deals to come.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Write the measured payments of one deal here (CSV: count, then each position's
    /// payment, the eldest first), which `lookahead:objective=wins,equity=(FILE)` reads.
    #[arg(long, value_name = "FILE.csv")]
    pub outcomes: Option<PathBuf>,
    /// Write the break-even table here (CSV): for every bid, lead and number of deals to come,
    /// the make rate at which calling it gives the chance of winning that nobody declaring
    /// gives, beside the profile's break-even in units.
    #[arg(long, value_name = "FILE.csv")]
    pub breakeven: Option<PathBuf>,
    /// Seed, threads, progress, shards and checkpoints.
    #[command(flatten)]
    pub long: LongArgs,
}

/// What the commands that evaluate every hand of many deals share.
#[derive(Debug, Args)]
pub struct DealRun {
    /// Table size.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Deals: 1000000, 1_000_000 or 1e6.
    #[arg(long, default_value = "1000000", value_parser = parse_count)]
    pub deals: u64,
    /// Play policy of every seat.
    #[arg(long, value_name = "SPEC", default_value = "heuristic")]
    pub play: String,
    /// Seed, threads, progress, shards and checkpoints.
    #[command(flatten)]
    pub long: LongArgs,
}

/// `napsim bid-table`.
#[derive(Debug, Args)]
pub struct BidTableArgs {
    /// The deals and their play.
    #[command(flatten)]
    pub run: DealRun,
    /// Hand classes: `classes` (guide-friendly features), `coarse` (trump length, trump A K Q
    /// and side aces only: for small samples such as PIMC tables) or `exact` (hands up to a
    /// renaming of the suits, for the `table` bid policy).
    #[arg(long, value_name = "SCHEME", default_value = "classes", value_parser = ["classes", "coarse", "exact"])]
    pub by: String,
    /// Count the double-dummy P(make) on the first M deals only (default: all of them); with
    /// --per-class, on the first M hands of each class and seat.
    #[arg(long, value_name = "M", value_parser = parse_whole)]
    pub dd_deals: Option<u64>,
    /// Class-targeted sampling: play N hands of every shown class at every seat, each drawn
    /// uniformly within its class (the rest of the deal at random, redrawn until the earlier
    /// seats pass), instead of --deals random deals. The CSV gains `class_share`: the class's
    /// share of the hands reaching the seat (exact at seat 0, estimated at later seats).
    /// Pooled groups would weigh every class alike, so --plot is left to random deals.
    #[arg(long, value_name = "N", value_parser = parse_count, conflicts_with = "plot")]
    pub per_class: Option<u64>,
    /// With --per-class: the classes to play, from a bid table's CSV (its seat and class
    /// columns: the rows it shows) or a file of class labels, one per line (every seat).
    /// Default: every class of --by.
    #[arg(long, value_name = "FILE", requires = "per_class")]
    pub classes: Option<PathBuf>,
    /// With --per-class: one class to play at every seat, by its label (`"4 trumps A-K-x-x, 1
    /// side ace, 2 voids"`); repeat for more, alone or with --classes.
    #[arg(long, value_name = "LABEL", requires = "per_class")]
    pub class: Vec<String>,
    /// Leave out classes with fewer hands than this (at a seat) [default: 1000, with
    /// --per-class its N].
    #[arg(long, value_name = "N", value_parser = parse_whole)]
    pub min_hands: Option<u64>,
    /// Also value every call, passing included, in the whole auction: the later seats still to
    /// speak bid with the threshold policy, and whoever wins plays. Adds per row the bid's
    /// value in the auction, passing's, the bid's gain over passing, and the best call.
    #[arg(long)]
    pub auction: bool,
    /// Write the CSV here (and its manifest to FILE.csv.meta.json); `-` for stdout.
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// Write the Markdown tables here.
    #[arg(long, value_name = "FILE.md")]
    pub markdown: Option<PathBuf>,
    /// Draw P(make) against trump length and honours here (SVG).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

/// `napsim tournament`.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// Table size.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// An entrant, NAME=BID/PLAY (e.g. pimc=threshold/pimc:worlds=16); two or more, at most one
    /// per seat. Seat s of rotation r goes to entrant ((s + r) mod players) mod entrants.
    #[arg(long = "entrant", value_name = "NAME=BID/PLAY", required = true)]
    pub entrants: Vec<String>,
    /// Card sets (duplicate: each replayed in every rotation) or sessions: 2000, 2e3.
    #[arg(long, default_value = "1000", value_parser = parse_count)]
    pub sessions: u64,
    /// Replay every card set with the entrants rotated through all seats (the default).
    #[arg(long, overrides_with = "no_duplicate")]
    pub duplicate: bool,
    /// Every card set is one session in the first rotation.
    #[arg(long)]
    pub no_duplicate: bool,
    /// One CSV row per entrant here (and the manifest beside it); `-` for stdout (the tables
    /// then go to stderr).
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
    /// One CSV row per ordered pair of entrants here.
    #[arg(long, value_name = "FILE.csv")]
    pub pairs: Option<PathBuf>,
    /// The entrant table and the cross-table of paired differences as Markdown here.
    #[arg(long, value_name = "FILE.md")]
    pub markdown: Option<PathBuf>,
    /// Stop as soon as a sequential probability ratio test on the first entrant minus the
    /// second (mean paired difference per card set, units per session) accepts H0: difference
    /// <= D0 or H1: difference >= D1; --sessions is then the most card sets.
    #[arg(long, value_name = "D0,D1", value_parser = parse_sprt, allow_hyphen_values = true)]
    pub sprt: Option<(f64, f64)>,
    /// An external bot that fails (exits, hangs, answers badly) forfeits the deal, settled as
    /// a revoke by its seat (a declarer loses, a defender alone pays for a made contract), and
    /// the tournament goes on; the forfeits are counted.
    #[arg(long)]
    pub forfeit: bool,
    /// With --sprt: what the test is on: units (the mean paired difference in units per
    /// session) or wins (in win share per session: D0,D1 as 0,0.02).
    #[arg(long, value_name = "units|wins", default_value = "units", value_parser = ["units", "wins"], requires = "sprt")]
    pub sprt_on: String,
    /// With --sprt: the probability of accepting H1 when H0 holds.
    #[arg(long, default_value = "0.05", requires = "sprt")]
    pub alpha: f64,
    /// With --sprt: the probability of accepting H0 when H1 holds.
    #[arg(long, default_value = "0.05", requires = "sprt")]
    pub beta: f64,
    /// Seed, threads, progress, shards and checkpoints.
    #[command(flatten)]
    pub long: LongArgs,
}

/// Parses `D0,D1`, two numbers (`0,1.5`; `-0.5,0.5`).
fn parse_sprt(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("expected two numbers D0,D1 with D0 < D1, e.g. 0,1: got '{text}'");
    let (d0, d1) = text.split_once(',').ok_or_else(bad)?;
    let d0: f64 = d0.trim().parse().map_err(|_| bad())?;
    let d1: f64 = d1.trim().parse().map_err(|_| bad())?;
    if !(d0.is_finite() && d1.is_finite() && d0 < d1) {
        return Err(bad());
    }
    crate::stats::sprt::Sprt::check_bounds(d0, d1).map(|()| (d0, d1))
}

/// `napsim thresholds`.
#[derive(Debug, Args)]
pub struct ThresholdsArgs {
    /// The deals and their play.
    #[command(flatten)]
    pub run: DealRun,
    /// The bidder's position in the auction (0 = eldest); later seats count the deals in which
    /// every earlier seat passed under the threshold bidder.
    #[arg(long, default_value_t = 0)]
    pub seat: usize,
    /// Value each bid and passing in the whole auction (the later seats still speak, by the
    /// threshold bidder): the best threshold when passing has its true value, not 0. Bids that
    /// may only overcall are left out.
    #[arg(long)]
    pub auction: bool,
    /// Write one CSV row per bid and threshold here (and the manifest to FILE.csv.meta.json).
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
}

/// `napsim optimize`.
#[derive(Debug, Args)]
pub struct OptimizeArgs {
    /// Table size.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Play policy of every seat.
    #[arg(long, value_name = "SPEC", default_value = "expert")]
    pub play: String,
    /// Fresh deals each round: 1000000, 1_000_000 or 1e6.
    #[arg(long, default_value = "1000000", value_parser = parse_count)]
    pub deals: u64,
    /// The most rounds (the run stops earlier once a round changes no cell's play).
    #[arg(long, default_value_t = 10)]
    pub rounds: u32,
    /// How the strategy groups hands: `classes` (trump length and honours, side aces and
    /// kings, voids), `classes-misere` (the same, hands with a Misère's prospects split by
    /// their low cards: for profiles with a Misère), `classes-rated` (the guide classes, every
    /// hand banded by a Misère rating fitted to the run's own play: for profiles with a
    /// Misère), `coarse`, `strength` (the threshold bidder's scores) or `exact`.
    #[arg(long, value_name = "SCHEME", default_value = "classes", value_parser = ["classes", "classes-misere", "classes-rated", "coarse", "exact", "strength"])]
    pub by: String,
    /// What a cell knows of the calls before its seat: every call (`calls`) or only the bid to
    /// beat (`highest`: at a seat, auctions that leave the same bid to beat share a cell, so
    /// each cell has more hands).
    #[arg(long, value_name = "KIND", default_value = "calls", value_parser = ["calls", "highest"])]
    pub history: String,
    /// Where to start: `threshold` (no cells: the threshold bidder everywhere) or a strategy
    /// file (one of this same run continues it, as the Slurm rounds do).
    #[arg(long, value_name = "FILE|threshold", default_value = "threshold")]
    pub start: String,
    /// The one-sided confidence that a call's lead over a cell's call must reach to replace it.
    #[arg(long, default_value_t = 0.99)]
    pub level: f64,
    /// Cells reached by fewer hands in a round keep their call.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub min_hands: u64,
    /// Held-out deals for the exploitability (default: --deals): a best response by exact
    /// class is chosen on each half of them and measured on the other half.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub held_out: Option<u64>,
    /// With --by classes-rated: deals whose Misères (one declared from each seat, played out)
    /// fit the rating before the first round.
    #[arg(long, value_name = "N", value_parser = parse_count, default_value_t = 250_000)]
    pub rating_deals: u64,
    /// The one-sided confidence at which the exploitability's best response deviates from the
    /// strategy in a cell (reached by at least 30 hands).
    #[arg(long, default_value_t = 0.9)]
    pub deviation_level: f64,
    /// The strategy file (JSON) here, its manifest beside it (FILE.meta.json).
    #[arg(long, value_name = "FILE.json", required = true)]
    pub out: Option<PathBuf>,
    /// The strategy as Markdown here (default: --out with the extension .md).
    #[arg(long, value_name = "FILE.md")]
    pub markdown: Option<PathBuf>,
    /// Seed, threads, progress, shards and checkpoints.
    #[command(flatten)]
    pub long: LongArgs,
}

/// Parses a whole number (0 allowed): `1000`, `1_000` or `1e3`.
pub fn parse_whole(text: &str) -> Result<u64, String> {
    whole_number(text)
        .ok_or_else(|| "expected a whole number such as 1000000, 1_000_000 or 1e6".to_string())
}

/// A seed: a whole number from 0 to 2^64-1, written in digits.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| {
        format!(
            "the seed is a whole number from 0 to 2^64-1 ({}), written in digits",
            u64::MAX
        )
    })
}

/// The play policy `napsim hand` uses unless told otherwise: the evaluator's own default.
pub const HAND_DEFAULT_PLAY: &str = crate::eval::hand::DEFAULT_PLAY;

/// The play policy whose card `napsim review` shows beside each card played, and its worlds
/// per call (the library's).
pub use crate::commands::{REVIEW_CHOICE_PLAY, REVIEW_DEFAULT_SEED, REVIEW_DEFAULT_WORLDS};

/// How many worlds `napsim hand` plays, and its default run (the library's).
pub use crate::analysis::hand::{DEFAULT_WORLDS as HAND_DEFAULT_WORLDS, HandWorlds};

/// `napsim hand`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("format").args(["json", "csv"])))]
pub struct HandArgs {
    /// The hand: five cards, e.g. "AS KS QS 7D 2C" (in Purchase Nap, the hand after buying:
    /// purchases are not modelled).
    pub hand: String,
    /// Table size.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// The hand's position in the auction: 0 = eldest (the dealer's left), up to players - 1.
    #[arg(long, default_value_t = 0)]
    pub seat: usize,
    /// Play policy of every seat. The default is PIMC with 16 worlds a decision (as the strong
    /// bid tables play), but the declarer's opening lead, the same in every world, is decided
    /// once over 256 worlds, and the defenders of a misère play `expert` (a stronger defence
    /// there than PIMC's, and far cheaper). At four players on two cores a clear hand stops at
    /// 512 worlds, under half a second; a close call plays all 4,000 worlds in about half a
    /// second. `heuristic` is hundreds of times faster; `dd` (every seat sees every card) gives
    /// the double-dummy P(make).
    #[arg(long, value_name = "SPEC", default_value = HAND_DEFAULT_PLAY)]
    pub play: String,
    /// Worlds (deals of the unseen cards) to play: exactly K (4000, 4_000 or 4e3); with
    /// --precision, at most K. The default plays at most 4000 and stops early as
    /// `--precision 1.55` does.
    #[arg(long, value_name = "K", value_parser = parse_count)]
    pub worlds: Option<u64>,
    /// Stop early: at the first multiple of 512 worlds at which every 95% P(make) interval
    /// (of the bids not dropped) is within ±POINTS percentage points, or the recommendation
    /// is settled (the best call ahead of every other callable bid and of passing, on the
    /// same worlds, by over 2.53 standard errors). At six and seven players also after 128
    /// and 256 worlds, where settling takes 3.29 standard errors. A bid trailing the best
    /// call by as much at a check where the run goes on is dropped (no longer played, nor
    /// recommended). Each bid's numbers are those of `--worlds N` for the N worlds it was
    /// played in. At most --worlds K (default: the worlds that reach POINTS whatever P(make)
    /// is).
    #[arg(long, value_name = "POINTS", value_parser = parse_points, allow_negative_numbers = true)]
    pub precision: Option<f64>,
    /// The calls of the SEAT earlier seats, in speaking order (`pass,three`): only worlds in
    /// which those seats, bidding with --others-bid, would have made them are kept. Without
    /// it the earlier seats' calls are unknown: the worlds are not conditioned, and in the
    /// auction values those seats call in each world as --others-bid would (a bid they have
    /// outbid counts as a pass).
    #[arg(long, value_name = "CALLS")]
    pub after: Option<String>,
    /// The bid policy of the other seats: the earlier seats' (the worlds kept with --after
    /// are those in which it makes their calls) and the later seats', who still speak after
    /// the hand in the auction values.
    #[arg(long, value_name = "SPEC", default_value = crate::analysis::hand::DEFAULT_OTHERS_BID)]
    pub others_bid: String,
    /// Value the hand as declarer only, as if no later seat could speak and passing were worth
    /// 0: no per-call auction values, and the recommendation is the best bid by its declarer
    /// EV (napsim's answer before the auction values).
    #[arg(long)]
    pub as_declarer: bool,
    /// The session this deal is part of: "D/N:B1,B2,...,Bn", this deal the D-th of N and the
    /// balances before it, one per seat in auction order from the eldest (the hand's own is
    /// the (SEAT+1)-th); a profile with a kitty adds ";kitty=K". Each call is also valued by
    /// its chance of winning the session, from the session equity of a table of
    /// --others-bid bidders playing expert (every world is played: no --precision).
    #[arg(long, value_name = "D/N:BALANCES")]
    pub session: Option<String>,
    /// What the recommendation follows: units (expected units, the default) or wins (the
    /// chance of winning the session; needs --session).
    #[arg(long, value_name = "units|wins", value_parser = ["units", "wins"])]
    pub objective: Option<String>,
    /// Leave out the double-dummy P(make) column.
    #[arg(long)]
    pub no_dd: bool,
    /// JSON instead of the table (stdout holds only the JSON).
    #[arg(long)]
    pub json: bool,
    /// CSV instead of the table: a header and one row per bid.
    #[arg(long)]
    pub csv: bool,
    /// The table names the play policy by its spec even when it is the default strong play
    /// (the JSON and the CSV always do).
    #[arg(long, conflicts_with_all = ["json", "csv"])]
    pub verbose: bool,
    /// Write the output to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Seed, threads, progress, shards and checkpoints.
    #[command(flatten)]
    pub long: LongArgs,
}

/// `napsim solve`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["deal", "random"])))]
pub struct SolveArgs {
    /// The deal: hands separated by `/`, seat 0 first ("AS KS QS JS TS/2H 3H 4H 5H 6H/...");
    /// seat 0 declares and leads. Hands of fewer than five cards (all of one size) are endings.
    pub deal: Option<String>,
    /// Solve N random deals instead and report the distribution of the best value and the
    /// solve time per deal.
    #[arg(long, value_name = "N", value_parser = parse_count, conflicts_with = "deal")]
    pub random: Option<u64>,
    /// Table size for --random.
    // `conflicts_with`, not `requires = "random"`: clap counts a requirement as met by any
    // member of the required group `what`, so a DEAL satisfied it and the flag was ignored.
    #[arg(long, default_value_t = 4, conflicts_with = "deal")]
    pub players: usize,
    /// Seed for --random (chosen and printed to stderr when omitted).
    #[arg(long, conflicts_with = "deal", value_parser = parse_seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// The declarer plays a misère: no trump, it wants to take no trick (any profile).
    #[arg(long)]
    pub misere: bool,
    /// The bid whose opening rules apply (trump chosen by the lead or named, lead constraints);
    /// default: the profile's lowest trick-taking bid.
    #[arg(long, value_name = "NAME")]
    pub bid: Option<String>,
    /// The trump suit, for a bid whose declarer names trump (C, D, H or S).
    #[arg(long, value_name = "SUIT")]
    pub trump: Option<String>,
    /// The cards played so far, from the opening lead (`"AS 3S 7S"`): value the cards the
    /// seat to play next may play, instead of the opening leads.
    #[arg(long, value_name = "CARDS", conflicts_with = "random")]
    pub plays: Option<String>,
    /// JSON on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Parses a shard, `I/N`.
pub fn parse_shard(text: &str) -> Result<crate::sim::Shard, String> {
    text.parse()
        .map_err(|e: crate::sim::ShardError| e.to_string())
}

/// Parses a positive number of seconds (`10`, `0.5`).
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Ok(s),
        _ => Err("expected a positive number of seconds, e.g. 10 or 0.5".to_string()),
    }
}

/// Parses a precision in percentage points: above 0, at most 50 (`1.5`).
pub fn parse_points(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if p.is_finite() && p > 0.0 && p <= 50.0 => Ok(p),
        _ => Err("expected percentage points above 0 and at most 50, e.g. 1.5".to_string()),
    }
}

/// Parses a positive count: `1000000`, `1_000_000` or `1e6`.
pub fn parse_count(text: &str) -> Result<u64, String> {
    match parse_whole(text)? {
        0 => Err("must be at least 1".to_string()),
        n => Ok(n),
    }
}

/// The value of `text` if it is exactly a whole number that fits in a u64: digits with `_`
/// anywhere (`1_000_000`), or a decimal with an exponent (`1e6`, `2.5e3`). Computed on the
/// digits, not through a float, so that `12345678901234567e1` is read exactly and
/// `30000000000000000.1e0` is not a whole number.
fn whole_number(text: &str) -> Option<u64> {
    let clean: String = text.trim().chars().filter(|&c| c != '_').collect();
    if let Ok(n) = clean.parse::<u64>() {
        return Some(n);
    }
    let (mantissa, exponent) = clean.split_once(['e', 'E'])?;
    let exponent: i64 = exponent.parse().ok()?;
    let mantissa = mantissa.strip_prefix('+').unwrap_or(mantissa);
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    // The value is digits * 10^scale.
    let scale = exponent.checked_sub(frac.len() as i64)?;
    if digits.is_empty() {
        return Some(0);
    }
    if scale >= 0 {
        if digits.len() as i64 + scale > 20 {
            return None;
        }
        format!("{digits}{}", "0".repeat(scale as usize))
            .parse()
            .ok()
    } else {
        let kept = digits.len().checked_sub(scale.unsigned_abs() as usize)?;
        if !digits[kept..].bytes().all(|b| b == b'0') {
            return None;
        }
        digits[..kept].parse().ok()
    }
}

/// Parses a thread count of at least 1.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) if n > 1024 => Err("must be at most 1024".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err("expected a whole number of threads, e.g. 2".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::hand::{CHECK_EVERY, Z_SETTLED};
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn solve_refuses_random_only_flags_with_a_deal() {
        let deal = "AC KC QC JC TC/AS KS QS JS TS/AH KH QH JH TH/AD KD QD JD TD";
        for flag in ["--players", "--seed"] {
            let args = ["napsim", "solve", deal, flag, "5"];
            assert!(Cli::try_parse_from(args).is_err(), "{flag}");
        }
        assert!(
            Cli::try_parse_from(["napsim", "solve", "--random", "5", "--players", "5"]).is_ok()
        );
    }

    #[test]
    fn hand_help_says_what_the_default_run_is() {
        let command = Cli::command();
        let hand = command.find_subcommand("hand").unwrap();
        let help = |name: &str| {
            let arg = hand.get_arguments().find(|a| a.get_id() == name).unwrap();
            arg.get_help().unwrap().to_string()
        };
        let worlds = help("worlds");
        let default = HAND_DEFAULT_WORLDS;
        assert!(
            worlds.contains(&format!("at most {}", default.worlds)),
            "{worlds}"
        );
        match default.precision {
            Some(points) => assert!(
                worlds.contains(&format!("--precision {points}")),
                "{worlds}"
            ),
            None => assert!(!worlds.contains("--precision"), "{worlds}"),
        }
        assert!(help("precision").contains(&format!("multiple of {}", CHECK_EVERY)));
        assert!(help("precision").contains(&format!("{Z_SETTLED} standard errors")));
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count("1000000"), Ok(1_000_000));
        assert_eq!(parse_count("1_000_000"), Ok(1_000_000));
        assert_eq!(parse_count("1e6"), Ok(1_000_000));
        assert_eq!(parse_count("2.5e3"), Ok(2500));
        assert!(parse_count("0").is_err());
        assert!(parse_count("1.5").is_err());
        assert!(parse_count("-3").is_err());
        assert!(parse_count("1e-3").is_err());
        assert!(parse_count("lots").is_err());
        // Read exactly, not through a float (found by tests/engine/parsers.rs).
        assert_eq!(
            parse_count("1801440000000007e1"),
            Ok(18_014_400_000_000_070)
        );
        assert!(parse_count("30000000000000000.1E0").is_err());
        assert_eq!(parse_count("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_count("1.8446744073709551615e19"), Ok(u64::MAX));
        assert!(parse_count("1.8446744073709551616e19").is_err());
        // Zero in any spelling is zero.
        for zero in ["0", "00", "0_000", "0e3", "0.0e1"] {
            assert_eq!(parse_whole(zero), Ok(0), "{zero}");
            assert_eq!(
                parse_count(zero),
                Err("must be at least 1".into()),
                "{zero}"
            );
        }
    }
}
