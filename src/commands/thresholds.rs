//! `napsim thresholds`' outputs.

use std::path::Path;

use super::{Finished, Render, Rows, csv_of};
use crate::analysis::bid_table::{self, BidTableTally};
use crate::analysis::thresholds::{self, Thresholds};
use crate::error::Error;
use crate::report::{self, Rendered};
use crate::run::LongCommand;

impl Rows for Thresholds {
    type Row = thresholds::ThresholdRow;

    fn rows(&self, tally: &BidTableTally, _seed: u64) -> Result<Vec<Self::Row>, Error> {
        let job = self.job();
        bid_table::check_seats(tally, job.players)?;
        Ok(thresholds::sweep(tally, self.profile(), job.players, job.seat).0)
    }
}

impl Render for Thresholds {
    /// The CSV (to `--out` with its manifest, or to stdout for `-`) and the table of best
    /// thresholds.
    fn render(&self, tally: &BidTableTally, finished: &Finished) -> Result<Rendered, Error> {
        let job = self.job();
        let profile = self.profile();
        bid_table::check_seats(tally, job.players)?;
        let seed = finished.identity.seed;
        let (rows, bests) = thresholds::sweep(tally, profile, job.players, job.seat);
        let text = report::thresholds_text(profile, job, seed, &bests);
        let csv = csv_of(&rows)?;
        let mut rendered = Rendered::default();
        match finished.outputs.out.as_deref() {
            Some(path) if path == Path::new("-") => {
                rendered.stderr = text;
                rendered.stdout = csv;
            }
            Some(path) => {
                rendered.add_with_meta(path, csv, &finished.meta(None));
                rendered.stdout = text.into_bytes();
            }
            None => rendered.stdout = text.into_bytes(),
        }
        Ok(rendered)
    }
}
