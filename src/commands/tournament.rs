//! `napsim tournament`'s outputs.

use super::{Finished, Render, csv_of, shell_word};
use crate::analysis::tournament::{self, Tournament, TournamentTally};
use crate::error::Error;
use crate::report::{self, Rendered};
use crate::run::LongCommand;

impl Render for Tournament {
    const EXTRA_OUTPUTS: &'static [&'static str] = &["--pairs", "--markdown"];

    /// The entrant CSV (with its manifest), the pairs CSV and the Markdown where asked, and
    /// the tables on stdout.
    fn render(&self, tally: &TournamentTally, finished: &Finished) -> Result<Rendered, Error> {
        let job = self.job();
        let profile = self.profile();
        let seed = finished.identity.seed;
        let n = self.entrants().len();
        if tally.sets > 0 && (tally.entrants.len() != n || tally.pairs.len() != n * n) {
            return Err(Error::input(format!(
                "the tallies count {} entrants, the tournament has {n}",
                tally.entrants.len()
            )));
        }
        let config = self.config(seed);
        let (rows, pairs) = tournament::rows(tally, &config);
        let text = report::tournament_text(
            profile,
            job,
            seed,
            finished.run.elapsed_seconds,
            self.entrants(),
            &rows,
            &pairs,
        );
        let sprt_flags = job.sprt.map_or(String::new(), |t| {
            format!(
                " --sprt {},{} --alpha {} --beta {}",
                t.d0, t.d1, t.alpha, t.beta
            )
        });
        let command = format!(
            "napsim --rules {} tournament --players {} {} --sessions {} --seed {seed}{}{sprt_flags}",
            profile.name(),
            job.players,
            job.entrants
                .iter()
                .map(|e| format!("--entrant {}", shell_word(e)))
                .collect::<Vec<_>>()
                .join(" "),
            job.sessions,
            if job.duplicate { "" } else { " --no-duplicate" }
        );
        let sprt = self.sprt_decision(tally);
        let text = match sprt {
            Some((decision, s)) => format!(
                "{text}sprt: {} (LLR {:.3}, bounds {:.3} and {:.3}, {} card sets played)\n",
                decision.words(),
                s.llr,
                s.lower,
                s.upper,
                s.sets
            ),
            None => text,
        };
        let outputs = &finished.outputs;
        let mut rendered = Rendered::default();
        if let Some(path) = &outputs.out {
            let mut meta = finished.meta(Some(command.clone()));
            meta.outcome = sprt.map(|(decision, standing)| {
                serde_json::json!({"sprt": {
                    "decision": decision,
                    "llr": standing.llr,
                    "lower_bound": standing.lower,
                    "upper_bound": standing.upper,
                    "card_sets": standing.sets,
                }})
            });
            rendered.add_with_meta(path, csv_of(&rows)?, &meta);
        }
        if let Some(path) = &outputs.pairs {
            rendered.add(path, csv_of(&pairs)?);
        }
        if let Some(path) = &outputs.markdown {
            rendered.add(
                path,
                report::tournament_markdown(&command, &rows, &pairs).into_bytes(),
            );
        }
        rendered.stdout = text.into_bytes();
        Ok(rendered)
    }
}
