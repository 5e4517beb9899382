//! `napsim simulate`'s outputs.

use std::path::Path;

use super::{Finished, Render, Rows, csv_of};
use crate::analysis::simulate::{self, Simulate, SimulateTally};
use crate::error::Error;
use crate::report::{self, Rendered};
use crate::run::LongCommand;

impl Rows for Simulate {
    type Row = simulate::SimulateRow;

    fn rows(&self, tally: &SimulateTally, seed: u64) -> Result<Vec<Self::Row>, Error> {
        let job = self.job();
        let profile = self.profile();
        Ok(simulate::rows(
            tally,
            profile,
            job.players,
            &job.bid,
            &job.play,
            seed,
        ))
    }
}

impl Render for Simulate {
    /// The CSV (to `--out`, with its manifest, or to stdout for `-`) and the summary.
    fn render(&self, tally: &SimulateTally, finished: &Finished) -> Result<Rendered, Error> {
        let rows = self.rows(tally, finished.identity.seed)?;
        let csv = csv_of(&rows)?;
        let summary = report::simulate_summary(&rows, tally, finished.run.elapsed_seconds);
        let mut rendered = Rendered::default();
        match finished.outputs.out.as_deref() {
            Some(path) if path == Path::new("-") => {
                rendered.stderr = summary;
                rendered.stdout = csv;
            }
            Some(path) => {
                rendered.add_with_meta(path, csv, &finished.meta(None));
                rendered.stdout = summary.into_bytes();
            }
            None => rendered.stdout = summary.into_bytes(),
        }
        Ok(rendered)
    }
}
