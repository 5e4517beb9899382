//! `napsim tournament`'s outputs.

use super::{Finished, Render, Rows, csv_of, shell_word};
use crate::analysis::tournament::TournamentJob;
use crate::analysis::tournament::{self, Tournament, TournamentTally};
use crate::error::Error;
use crate::report::{self, Rendered};
use crate::rules::Profile;
use crate::run::LongCommand;

impl Rows for Tournament {
    type Row = tournament::EntrantRow;

    /// The entrant rows (the pairs are the `--pairs` CSV's).
    fn rows(&self, tally: &TournamentTally, seed: u64) -> Result<Vec<Self::Row>, Error> {
        self.check_tally(tally)?;
        Ok(tournament::rows(tally, &self.config(seed)).0)
    }
}

impl Tournament {
    /// Checks that the tally counts this tournament's entrants.
    fn check_tally(&self, tally: &TournamentTally) -> Result<(), Error> {
        let n = self.entrants().len();
        if tally.sets > 0 && (tally.entrants.len() != n || tally.pairs.len() != n * n) {
            return Err(Error::input(format!(
                "the tallies count {} entrants, the tournament has {n}",
                tally.entrants.len()
            )));
        }
        Ok(())
    }
}

impl Render for Tournament {
    const EXTRA_OUTPUTS: &'static [&'static str] = &["`pairs`", "`markdown`"];

    /// The entrant CSV (with its manifest), the pairs CSV and the Markdown where asked, and
    /// the tables on stdout.
    fn render(&self, tally: &TournamentTally, finished: &Finished) -> Result<Rendered, Error> {
        let job = self.job();
        let profile = self.profile();
        let seed = finished.identity.seed;
        self.check_tally(tally)?;
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
        let command = reproduce(profile, job, seed);
        // Deals lost by each entrant's failing bot, with --forfeit.
        let forfeits: Vec<(String, u64)> = if job.forfeit {
            self.entrants()
                .iter()
                .zip(&tally.entrants)
                .map(|(e, t)| (e.name.clone(), t.forfeits))
                .collect()
        } else {
            Vec::new()
        };
        let text = if job.forfeit {
            let counts: Vec<String> = forfeits.iter().map(|(n, f)| format!("{n} {f}")).collect();
            format!(
                "{text}forfeits (deals lost to a failing bot): {}\n",
                counts.join(", ")
            )
        } else {
            text
        };
        let sprt = self.sprt_decision(tally);
        let text = match sprt {
            Some((decision, s)) => format!(
                "{text}sprt{}: {} (LLR {:.3}, bounds {:.3} and {:.3}, {} card sets played)\n",
                if job.sprt_wins {
                    " on the win share"
                } else {
                    ""
                },
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
        if outputs.out.as_deref() == Some(std::path::Path::new("-")) {
            // The CSV on stdout, as `simulate --out -` writes it; the tables go to stderr.
            rendered.stdout = csv_of(&rows)?;
            rendered.stderr = text.clone();
        } else if let Some(path) = &outputs.out {
            let mut meta = finished.meta(Some(command.clone()));
            let mut outcome = serde_json::Map::new();
            if let Some((decision, standing)) = sprt {
                let mut test = serde_json::json!({
                    "decision": decision,
                    "llr": standing.llr,
                    "lower_bound": standing.lower,
                    "upper_bound": standing.upper,
                    "card_sets": standing.sets,
                });
                if job.sprt_wins {
                    test["on"] = "wins".into();
                }
                outcome.insert("sprt".into(), test);
            }
            if job.forfeit {
                let counts: serde_json::Map<String, serde_json::Value> = forfeits
                    .iter()
                    .map(|(name, f)| (name.clone(), (*f).into()))
                    .collect();
                outcome.insert("forfeits".into(), counts.into());
            }
            meta.outcome = (!outcome.is_empty()).then(|| outcome.into());
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
        if rendered.stdout.is_empty() {
            rendered.stdout = text.into_bytes();
        }
        Ok(rendered)
    }
}

/// The command line that reproduces the tournament: resolved arguments, no thread count.
fn reproduce(profile: &Profile, job: &TournamentJob, seed: u64) -> String {
    let sprt_flags = job.sprt.map_or(String::new(), |t| {
        let on = if job.sprt_wins { " --sprt-on wins" } else { "" };
        format!(
            " --sprt {},{}{on} --alpha {} --beta {}",
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
    let forfeit_flag = if job.forfeit { " --forfeit" } else { "" };
    format!("{command}{forfeit_flag}")
}
