//! The progress bar on stderr, hidden when stderr is not a terminal or the user asked for quiet.

use std::io::IsTerminal;
use std::sync::OnceLock;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::sim::Progress;

/// Progress of a long run on stderr: a bar with rate and ETA on a terminal, and the run's
/// notes as lines.
pub struct TerminalProgress {
    bar: OnceLock<ProgressBar>,
    quiet: bool,
    /// Rewords a note for its reader (the command line names the library's inputs as flags).
    wording: fn(&str) -> String,
}

impl TerminalProgress {
    /// The progress of a run; `quiet` shows no bar (notes are still shown, each as `wording`
    /// words it).
    pub fn new(quiet: bool, wording: fn(&str) -> String) -> TerminalProgress {
        TerminalProgress {
            bar: OnceLock::new(),
            quiet,
            wording,
        }
    }
}

impl Progress for TerminalProgress {
    fn start(&self, total: u64, done: u64, unit: &str) {
        if self.quiet || !std::io::stderr().is_terminal() {
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let template =
            format!("{{bar:40}} {{human_pos}}/{{human_len}} {unit} {{per_sec}} ETA {{eta}}");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style);
        }
        bar.inc(done);
        let _ = self.bar.set(bar);
    }

    fn advance(&self, n: u64) {
        if let Some(bar) = self.bar.get() {
            bar.inc(n);
        }
    }

    fn note(&self, line: &str) {
        let line = &(self.wording)(line);
        match self.bar.get() {
            Some(bar) => bar.suspend(|| crate::stderr::line(line)),
            None => crate::stderr::line(line),
        }
    }

    fn info(&self, line: &str) {
        if !self.quiet {
            self.note(line);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}
