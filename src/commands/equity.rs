//! `napsim equity`'s outputs: the table (CSV, with its manifest), its Markdown and chart, and
//! the measured payments of one deal that bidders read (`--outcomes`).

use std::path::Path;

use super::{Finished, Render, shell_word};
use crate::analysis::equity::{self, Equity, EquityJob, OutcomeTally};
use crate::error::Error;
use crate::report::{self, EquityDoc, Rendered};
use crate::rules::Profile;
use crate::run::LongCommand;

/// The leads of the table: every other unit up to 40 in the CSV and chart, every fourth in
/// the Markdown.
const LEAD_MAX: i64 = 40;
const LEAD_STEP: i64 = 2;
const SHOWN_STEP: i64 = 8;
/// The leads of the break-even table: every other unit up to 24, beyond what a Three moves the
/// lead at seven players (+18 against -3: 21) and a Four at four (+12 against -4: 16).
const BREAKEVEN_LEAD_MAX: i64 = 24;

impl Render for Equity {
    const EXTRA_OUTPUTS: &'static [&'static str] =
        &["`markdown`", "`plot`", "`outcomes`", "`breakeven`"];

    /// The CSV (with its manifest), the Markdown, the chart and the outcomes where asked; with
    /// none of them, the Markdown on stdout.
    fn render(&self, tally: &OutcomeTally, finished: &Finished) -> Result<Rendered, Error> {
        let job = self.job();
        let profile = self.profile();
        let seed = finished.identity.seed;
        let session = equity::session_equity(profile, job.players, tally);
        let rows = equity::rows(
            profile,
            job.players,
            &session,
            &equity::leads(LEAD_MAX, LEAD_STEP),
        );
        let command = reproduce(profile, job, seed);
        let shown = equity::leads(LEAD_MAX, SHOWN_STEP);
        let doc = EquityDoc {
            command: &command,
            profile: profile.name(),
            players: job.players,
            session: profile.session_deals(),
            deals: tally.deals,
            bid: &job.bid,
            play: &job.play,
            outcomes: tally.outcomes.len(),
            shown: &shown,
        };
        let markdown = report::equity_markdown(&doc, &rows);
        let outputs = &finished.outputs;
        let mut rendered = Rendered::default();
        let named = [
            &outputs.out,
            &outputs.markdown,
            &outputs.plot,
            &outputs.outcomes,
            &outputs.breakeven,
        ];
        if named.iter().all(|o| o.is_none()) {
            rendered.stdout = markdown.into_bytes();
            return Ok(rendered);
        }
        if let Some(path) = &outputs.out {
            let csv = report::csv_bytes(&rows)
                .map_err(|e| Error::runtime(format!("cannot format CSV: {e}")))?;
            if path == Path::new("-") {
                rendered.stdout = csv;
            } else {
                rendered.add_with_meta(path, csv, &finished.meta(Some(command.clone())));
            }
        }
        if let Some(path) = &outputs.markdown {
            rendered.add(path, markdown.into_bytes());
        }
        if let Some(path) = &outputs.plot {
            let svg = report::equity_chart_svg(&doc, &rows).map_err(Error::runtime)?;
            rendered.add(path, svg.into_bytes());
        }
        if let Some(path) = &outputs.outcomes {
            rendered.add(path, tally.measured(job.players).to_csv().into_bytes());
        }
        if let Some(path) = &outputs.breakeven {
            let leads = equity::leads(BREAKEVEN_LEAD_MAX, LEAD_STEP);
            let rows = equity::breakeven_rows(profile, job.players, &session, &leads);
            let csv = report::csv_bytes(&rows)
                .map_err(|e| Error::runtime(format!("cannot format CSV: {e}")))?;
            rendered.add(path, csv);
        }
        rendered.stderr += &format!(
            "{} deals measured in {:.2} s; {} distinct payments\n",
            tally.deals,
            finished.run.elapsed_seconds,
            tally.outcomes.len()
        );
        Ok(rendered)
    }
}

/// The command line that reproduces the tables: resolved arguments, no thread count.
fn reproduce(profile: &Profile, job: &EquityJob, seed: u64) -> String {
    format!(
        "napsim --rules {} equity --players {} --deals {} --bid {} --play {} --seed {seed}",
        profile.name(),
        job.players,
        job.deals,
        shell_word(&job.bid),
        shell_word(&job.play),
    )
}
