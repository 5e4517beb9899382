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
        let job = self.job();
        let summary = self.summary(tally)?;
        let report = report::HandReport {
            profile: self.profile(),
            hand: self.hand(),
            players: job.players,
            seat: job.seat,
            play: &job.play,
            after: &job.after,
            others_bid: &job.others_bid,
            seed: finished.identity.seed,
            summary: &summary,
            stopping: self.stop_rule().zip(self.stop_reason(tally)),
            session: job.session.as_deref(),
            by_wins: self.by_wins(),
            verbose: job.verbose,
        };
        let bytes = match job.format.as_str() {
            "json" => (report.json() + "\n").into_bytes(),
            "csv" => report
                .csv()
                .map_err(|e| Error::runtime(format!("cannot format CSV: {e}")))?,
            _ => report.text().into_bytes(),
        };
        let mut rendered = Rendered::default();
        match &finished.outputs.out {
            Some(path) => rendered.add_with_meta(path, bytes, &finished.meta(None)),
            None => rendered.stdout = bytes,
        }
        Ok(rendered)
    }
}
