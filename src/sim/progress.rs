//! A progress bar on stderr, hidden when stderr is not a terminal or the user asked for quiet.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress of a long run, shown as a bar with rate and ETA.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar for `total` units named `unit` (e.g. "deals"); hidden if `quiet` or stderr is not
    /// a terminal.
    pub fn new(total: u64, unit: &str, quiet: bool) -> Progress {
        if quiet || !std::io::stderr().is_terminal() {
            return Progress::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let template =
            format!("{{bar:40}} {{human_pos}}/{{human_len}} {unit} {{per_sec}} ETA {{eta}}");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        Progress { bar: Some(bar) }
    }

    /// No bar at all.
    pub fn hidden() -> Progress {
        Progress { bar: None }
    }

    /// Adds `n` finished units.
    pub fn advance(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Prints a line on stderr above the bar (or alone, with no bar).
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| crate::stderr::line(line)),
            None => crate::stderr::line(line),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
