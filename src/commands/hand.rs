//! `napsim hand`'s outputs.

use super::{Finished, Render};
use crate::analysis::hand::Hand;
use crate::error::Error;
use crate::eval::hand::HandTally;
use crate::report::{self, Rendered};
use crate::run::LongCommand;

impl Render for Hand {
    /// The report (text, JSON or CSV as the job asked) to `--out` with its manifest, or to
    /// stdout.
    fn render(&self, tally: &HandTally, finished: &Finished) -> Result<Rendered, Error> {
        let format = self.job().format.as_str();
        let bytes = hand_report(self, tally, (finished.identity.seed, true), format)?;
        let mut rendered = Rendered::default();
        match &finished.outputs.out {
            Some(path) => rendered.add_with_meta(path, bytes, &finished.meta(None)),
            None => rendered.stdout = bytes,
        }
        Ok(rendered)
    }
}

/// `napsim hand --json`'s document, without its newline, for `tally` of the run with `seed`:
/// the whole run's (`finished`), or the worlds played so far in a watched run
/// ([`Hand::watch`]), whose document has no `stopping` (the run has not stopped).
pub fn hand_json(
    hand: &Hand,
    tally: &HandTally,
    seed: u64,
    finished: bool,
) -> Result<String, Error> {
    let bytes = hand_report(hand, tally, (seed, finished), "json")?;
    let text = String::from_utf8(bytes).map_err(|e| Error::runtime(e.to_string()))?;
    Ok(text.trim_end().to_string())
}

/// The report in `format` (`json`, `csv`, else text) of the run with `seed`, finished or not.
fn hand_report(
    hand: &Hand,
    tally: &HandTally,
    (seed, finished): (u64, bool),
    format: &str,
) -> Result<Vec<u8>, Error> {
    let job = hand.job();
    let summary = hand.summary(tally)?;
    let report = report::HandReport {
        profile: hand.profile(),
        hand: hand.hand(),
        players: job.players,
        seat: job.seat,
        play: &job.play,
        after: &job.after,
        others_bid: &job.others_bid,
        seed,
        summary: &summary,
        stopping: hand
            .stop_rule()
            .zip(hand.stop_reason(tally))
            .filter(|_| finished),
        session: job.session.as_deref(),
        by_wins: hand.by_wins(),
        verbose: job.verbose,
    };
    Ok(match format {
        "json" => (report.json() + "\n").into_bytes(),
        "csv" => report
            .csv()
            .map_err(|e| Error::runtime(format!("cannot format CSV: {e}")))?,
        _ => report.text().into_bytes(),
    })
}
