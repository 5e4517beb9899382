//! `napsim review`: played deals judged card by card and call by call
//! ([`crate::analysis::review`]), from `deal --json` records or the replay flags.

use std::io::{Read, Write};
use std::path::PathBuf;

use super::replay_text::ReplayText;
use crate::analysis::replay::{Replay, replay};
use crate::analysis::review::{CallSettings, DealReview, ReviewSettings, review};
use crate::bots::ext::BotPool;
use crate::bots::{bid_policy_in, play_policy_in};
use crate::cards::parse_deal;
use crate::error::Error;
use crate::report::{self, read_records};
use crate::rules::{self, Profile};
use crate::sim::Progress;

/// The play policy whose card `napsim review` shows beside each card played (its column is
/// headed PIMC).
pub const REVIEW_CHOICE_PLAY: &str = "pimc:worlds=16";

/// The worlds the hand evaluator plays for each call a review judges.
pub const REVIEW_DEFAULT_WORLDS: u64 = 1024;

/// The seed of a review's worlds and choices: a review is the same every time.
pub const REVIEW_DEFAULT_SEED: u64 = 1;

/// What `napsim review` judges and how.
#[derive(Clone, Debug)]
pub struct ReviewJob {
    /// A file of `deal --json` records (`-`: stdin); None: the replay flags give one deal.
    pub input: Option<PathBuf>,
    /// With the replay flags: the hands, `h0/h1/...`.
    pub hands: Option<String>,
    /// With the replay flags: the dealer's seat (default the last seat).
    pub dealer: Option<usize>,
    /// The replay flags.
    pub replay: ReplayText,
    /// The policy whose choice is shown beside each card.
    pub choice: String,
    /// The evaluator's play policy for the calls.
    pub eval_play: String,
    /// The bid policy the evaluator assumes for the earlier seats.
    pub others_bid: String,
    /// Worlds per call (0: calls are not judged).
    pub worlds: u64,
    /// The review's seed.
    pub seed: u64,
    /// Worker threads for the calls.
    pub threads: usize,
    /// JSON Lines instead of the text report.
    pub json: bool,
    /// The per-seat summary instead of each deal.
    pub summary: bool,
    /// Whether `--rules` was given: records of another profile are then refused, not read
    /// under their own.
    pub rules_given: bool,
    /// Where external bots run.
    pub bot_pool: BotPool,
}

impl ReviewJob {
    /// The review of the `deal --json` records in `input` (`-`: stdin) as `napsim review`
    /// makes it by default: the text report of each deal, every call judged over
    /// [`REVIEW_DEFAULT_WORLDS`] worlds of the hand evaluator's default play with the earlier
    /// seats assumed to bid `threshold`, the [`REVIEW_CHOICE_PLAY`] card beside each card,
    /// seed [`REVIEW_DEFAULT_SEED`], on `threads` worker threads.
    pub fn new(input: Option<PathBuf>, threads: usize) -> ReviewJob {
        ReviewJob {
            input,
            hands: None,
            dealer: None,
            replay: ReplayText::default(),
            choice: REVIEW_CHOICE_PLAY.to_string(),
            eval_play: crate::eval::hand::DEFAULT_PLAY.to_string(),
            others_bid: crate::analysis::hand::DEFAULT_OTHERS_BID.to_string(),
            worlds: REVIEW_DEFAULT_WORLDS,
            seed: REVIEW_DEFAULT_SEED,
            threads,
            json: false,
            summary: false,
            rules_given: false,
            bot_pool: BotPool::default(),
        }
    }
}

/// The output of a review that a caller may stop (a Python Ctrl-C, a web client gone away):
/// it keeps what is written until `stop` is set, then refuses every write, so that the review
/// ends after the deal under way.
pub struct StoppableOutput {
    text: Vec<u8>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl StoppableOutput {
    /// An empty output that `stop` ends.
    pub fn new(stop: std::sync::Arc<std::sync::atomic::AtomicBool>) -> StoppableOutput {
        StoppableOutput {
            text: Vec::new(),
            stop,
        }
    }

    /// What was written, as text.
    pub fn into_text(self) -> Result<String, Error> {
        String::from_utf8(self.text).map_err(|e| Error::runtime(e.to_string()))
    }
}

impl Write for StoppableOutput {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Interrupted,
                "stopped",
            ));
        }
        self.text.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `napsim review`: reads the deals (`stdin` for `-`), checks that every one replays, then
/// reviews them in turn and writes each report to `out` (or the summary at the end).
pub fn review_deals(
    default: &Profile,
    job: &ReviewJob,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    progress: &dyn Progress,
) -> Result<(), Error> {
    let games = read_games(default, job, stdin)?;
    let choice_policies = games
        .iter()
        .map(|(profile, _)| play_policy_in(&job.choice, profile, &job.bot_pool))
        .collect::<Result<Vec<_>, _>>()?;
    let judges = games
        .iter()
        .map(|(profile, _)| {
            Ok((
                play_policy_in(&job.eval_play, profile, &job.bot_pool)?,
                bid_policy_in(&job.others_bid, profile, &job.bot_pool)?,
            ))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let players = games.iter().map(|(_, g)| g.hands.len()).max().unwrap_or(0);
    // A unit per call judged and one per deal's cards: calls take the time.
    let judged = |game: &Replay| {
        if job.worlds > 0 {
            game.calls.len() as u64
        } else {
            0
        }
    };
    let units = games.iter().map(|(_, game)| judged(game) + 1).sum();
    progress.start(units, 0, "steps");
    let mut reviews: Vec<DealReview> = Vec::new();
    for (i, ((profile, game), choice)) in games.iter().zip(&choice_policies).enumerate() {
        let (play, others) = &judges[i];
        let settings = ReviewSettings {
            choice: choice.as_ref(),
            calls: (job.worlds > 0).then(|| CallSettings {
                play: play.as_ref(),
                others: others.as_ref(),
                worlds: job.worlds,
                threads: job.threads,
            }),
            // Each deal of a file has its own streams.
            seed: job.seed.wrapping_add(i as u64),
            progress,
        };
        let deal = review(profile, game, &settings).map_err(|e| match e {
            crate::analysis::review::ReviewError::Replay(e) => Error::from(e),
            other => Error::runtime(other),
        })?;
        Error::bots_held(&job.bot_pool)?;
        if !job.summary {
            let text = if job.json {
                report::review_json_lines(&deal, i + 1, profile)
            } else {
                let gap = if i == 0 { "" } else { "\n" };
                format!("{gap}{}", report::review_text(&deal, i + 1, profile))
            };
            out.write_all(text.as_bytes()).map_err(Error::Stdout)?;
            out.flush().map_err(Error::Stdout)?;
        }
        reviews.push(deal);
    }
    progress.finish();
    if job.summary {
        let seats = report::review_summary(&reviews, players);
        let text = if job.json {
            report::summary_json(&seats, reviews.len())
        } else {
            report::summary_text(&seats, reviews.len())
        };
        out.write_all(text.as_bytes()).map_err(Error::Stdout)?;
    }
    out.flush().map_err(Error::Stdout)
}

/// The profile `record` was played under: `default` (the `--rules` profile) when it is that
/// profile, rules and all, else the built-in profile the record names. Refused: a record of an
/// edited or unknown profile whose file is not given, a `--rules` profile of the record's name
/// whose rules differ, and (`rules_given`) a record of another profile than `--rules`.
fn record_profile(
    record: &crate::report::DealRecord,
    default: &Profile,
    rules_given: bool,
) -> Result<Profile, String> {
    let name = &record.profile;
    if rules_given && name != default.name() {
        return Err(format!(
            "played under profile '{name}', but `rules` gives '{}': give the profile it was \
             played under",
            default.name()
        ));
    }
    let builtin = Profile::builtin(name).ok();
    match &record.profile_digest {
        // Edited rules, or a profile of a file: only the same rules will do.
        Some(digest) if name == default.name() && *digest == default.digest() => {
            Ok(default.clone())
        }
        Some(_) if builtin.is_none() && !rules_given => Err(format!(
            "profile '{name}' is not built in: give its file with `rules`"
        )),
        Some(digest) => Err(format!(
            "played under a profile '{name}' whose rules (digest {digest}) are not {}: give \
             its file with `rules`",
            if rules_given {
                "those of `rules`".to_string()
            } else {
                format!("the built-in {name}'s")
            }
        )),
        // The built-in rules of that name (or a record from before digests, of a file's
        // profile that --rules gives).
        None => match builtin {
            Some(_) if name == default.name() && default.record_digest().is_some() => Err(format!(
                "played under the built-in profile '{name}', but `rules` gives an edited \
                     '{name}' (digest {}): leave `rules` out",
                default.digest()
            )),
            Some(builtin) => Ok(builtin),
            None if name == default.name() => Ok(default.clone()),
            None => Err(format!(
                "profile '{name}' is not built in: give its file with `rules`"
            )),
        },
    }
}

/// The games to review with their profiles, every one checked to replay before any is
/// reviewed (so that a bad deal stops the command before it writes anything).
fn read_games(
    default: &Profile,
    job: &ReviewJob,
    stdin: &mut dyn Read,
) -> Result<Vec<(Profile, Replay)>, Error> {
    let mut games = Vec::new();
    match &job.input {
        Some(path) => {
            if job.replay.calls.is_some() || job.hands.is_some() {
                return Err(Error::input(
                    "give the deals as a file of records or as `hands`/`calls`/`plays`, not both",
                ));
            }
            let (text, source) = read_input(path, stdin)?;
            let records = read_records(&text, &source)?;
            if records.is_empty() {
                return Err(Error::input(format!("{source} holds no deal record")));
            }
            for (i, record) in records.iter().enumerate() {
                let profile = record_profile(record, default, job.rules_given)
                    .map_err(|why| Error::input(format!("{source} record {}: {why}", i + 1)))?;
                let game = record
                    .to_replay(&profile)
                    .map_err(|e| Error::input(format!("{source} record {}: {e}", i + 1)))?;
                replay(&profile, &game)
                    .map_err(|e| Error::input(format!("{source} record {}: {e}", i + 1)))?;
                games.push((profile, game));
            }
        }
        None => {
            let (Some(hands), Some(_)) = (&job.hands, &job.replay.calls) else {
                return Err(Error::input(
                    "review needs deals: a file of deal records (the JSON Lines of `napsim deal`; - for \
                     stdin), or `hands`, `calls` and `plays`",
                ));
            };
            let players = hands.split('/').count();
            default.check_players(players)?;
            let hands = parse_deal(
                hands,
                players,
                rules::HAND_SIZE,
                default.pack(players),
                &default.pack_description(players),
            )?;
            if let Some(dealer) = job.dealer
                && dealer >= players
            {
                return Err(Error::input(format!(
                    "`dealer` {dealer} is not a seat: seats are 0 to {}",
                    players - 1
                )));
            }
            let game = job.replay.game(default, job.dealer, hands)?;
            replay(default, &game)?;
            games.push((default.clone(), game));
        }
    }
    Ok(games)
}

/// The text of `path` (`-`: all of `stdin`) and its name for errors.
fn read_input(path: &PathBuf, stdin: &mut dyn Read) -> Result<(String, String), Error> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        stdin
            .read_to_string(&mut text)
            .map_err(|e| Error::input(format!("cannot read stdin: {e}")))?;
        return Ok((text, "stdin".to_string()));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::input(format!("cannot read {}: {e}", path.display())))?;
    Ok((text, path.display().to_string()))
}
