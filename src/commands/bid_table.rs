//! `napsim bid-table`'s outputs.

use std::path::Path;

use super::{Finished, Render, Rows, shell_word};
use crate::analysis::bid_table::BidTableJob;
use crate::analysis::bid_table::{self, BidTable, BidTableTally};
use crate::error::Error;
use crate::report::{self, Rendered};
use crate::rules::Profile;
use crate::run::LongCommand;

impl Rows for BidTable {
    type Row = bid_table::BidTableRow;

    /// The rows of the table, its counts first checked against the job's seats and classes.
    fn rows(&self, tally: &BidTableTally, seed: u64) -> Result<Vec<Self::Row>, Error> {
        let job = self.job();
        bid_table::check_seats(tally, job.players)?;
        let config = self.config(seed);
        if let Some(strata) = &config.strata {
            bid_table::check_strata(tally, strata, config.scheme)?;
        }
        Ok(bid_table::rows(tally, &config, job.min_hands))
    }
}

impl Render for BidTable {
    const EXTRA_OUTPUTS: &'static [&'static str] = &["`markdown`", "`plot`"];

    /// The CSV (with its manifest), the Markdown and the chart where asked; with none of them,
    /// the Markdown on stdout.
    fn render(&self, tally: &BidTableTally, finished: &Finished) -> Result<Rendered, Error> {
        let job = self.job();
        let profile = self.profile();
        let seed = finished.identity.seed;
        let config = self.config(seed);
        let rows = self.rows(tally, seed)?;
        let command = reproduce(profile, job, seed);
        let doc = report::BidTableDoc {
            command: &command,
            profile: profile.name(),
            play: &job.play,
            deals: job.deals,
            per_class: job.per_class,
            dd_deals: job.dd_deals,
            min_hands: job.min_hands,
            coverage: [(
                job.players,
                bid_table::coverage(tally, job.players, job.min_hands),
            )]
            .into(),
            bids: profile
                .bids()
                .iter()
                .map(|b| (b.name().to_string(), b.label().to_string()))
                .collect(),
        };
        let markdown = report::bid_table_markdown(&doc, &rows);
        let outputs = &finished.outputs;
        let mut rendered = Rendered::default();
        if outputs.out.is_none() && outputs.markdown.is_none() && outputs.plot.is_none() {
            rendered.stdout = markdown.into_bytes();
            return Ok(rendered);
        }
        if let Some(path) = &outputs.out {
            let csv = report::csv_bytes_with_header(&rows)
                .map_err(|e| Error::runtime(format!("cannot format CSV: {e}")))?;
            if path == Path::new("-") {
                rendered.stdout = csv;
            } else {
                rendered.add_with_meta(path, csv, &finished.meta(Some(command)));
            }
        }
        if let Some(path) = &outputs.markdown {
            rendered.add(path, markdown.into_bytes());
        }
        if let Some(path) = &outputs.plot {
            let chart = bid_table::chart::chart(tally, &config, 0, &job.play, job.min_hands);
            let svg = report::bid_chart_svg(&chart).map_err(Error::runtime)?;
            rendered.add(path, svg.into_bytes());
        }
        let shown = rows.len() / profile.bids().len().max(1);
        rendered.stderr += &format!(
            "{} {} in {:.2} s; {shown} (seat, class) rows shown\n",
            tally.deals,
            if job.per_class.is_some() {
                "hands"
            } else {
                "deals"
            },
            finished.run.elapsed_seconds
        );
        Ok(rendered)
    }
}

/// The command line that reproduces the tables: resolved arguments, no thread count.
fn reproduce(profile: &Profile, job: &BidTableJob, seed: u64) -> String {
    let sampling = match job.per_class {
        Some(n) => {
            let mut flags = format!("--per-class {n}");
            if let Some(file) = &job.classes_file {
                flags += &format!(" --classes {}", shell_word(file));
            }
            for label in &job.class_labels {
                flags += &format!(" --class {}", shell_word(label));
            }
            flags
        }
        None => format!("--deals {}", job.deals),
    };
    format!(
        "napsim --rules {} bid-table --players {} {sampling} --play {} --seed {seed} --by {} \
         --dd-deals {} --min-hands {}{}",
        profile.name(),
        job.players,
        shell_word(&job.play),
        job.by,
        job.dd_deals,
        job.min_hands,
        if job.auction { " --auction" } else { "" }
    )
}
