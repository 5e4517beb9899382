//! The one trait every long command implements, and the identity of a run of one.

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::partial::Identity;
use crate::bots::ext::BotPool;
use crate::error::Error;
use crate::rules::Profile;
use crate::sim::{Block, Tally};

/// A command whose work is cut into blocks (`simulate`, `hand`, `bid-table`, `thresholds`,
/// `tournament`, each phase of `optimize`): what [`super::Execution`] runs under shards,
/// checkpoints and stops, and what [`super::merge_parts`] adds back together.
///
/// A value of the type is a *prepared* command: its job's inputs parsed and checked against the
/// profile (policies built, hands read), ready to run blocks.
pub trait LongCommand: Sized + Sync {
    /// The subcommand's name, as partial files record it (`simulate`).
    const NAME: &'static str;
    /// What a unit of work is called in progress and messages (`deals`).
    const UNIT: &'static str;
    /// Units per block. Part of the determinism contract: changing it changes the results.
    const BLOCK_SIZE: u64;
    /// The resolved arguments that decide the result, recorded in every partial file and
    /// manifest.
    type Job: Serialize + DeserializeOwned;
    /// The integer tally of some blocks.
    type Tally: Tally + Default + Serialize + DeserializeOwned;

    /// Parses and checks `job`'s inputs for `profile`, its policies' external bots running in
    /// `bots`; the job kept is the resolved one (a hand in its canonical notation...). Errors
    /// name the input at fault.
    fn prepare(profile: &Profile, job: Self::Job, bots: &BotPool) -> Result<Self, Error>;

    /// The rules.
    fn profile(&self) -> &Profile;

    /// The resolved job.
    fn job(&self) -> &Self::Job;

    /// Units in the whole run.
    fn units(&self) -> u64;

    /// Checks that need the seed, made before any block runs (`hand`: that the earlier calls can
    /// be sampled). The default has none.
    fn check_seed(&self, _seed: u64) -> Result<(), Error> {
        Ok(())
    }

    /// The tally of one block of the run with `seed`: a pure function of the block.
    fn block(&self, seed: u64, block: Block) -> Self::Tally;

    /// For a run that may stop early, every how many blocks it asks [`LongCommand::may_stop`]
    /// (and at its last block): it then runs its blocks in order and stops at the first check
    /// at which the rule holds ([`crate::sim::run_adaptive`]). The default, `None`, runs every
    /// block.
    fn check_every(&self) -> Option<u64> {
        None
    }

    /// Whether a run that may stop early stops with `tally`, the tally of its first blocks.
    /// It may record in `tally` what the rest of the run need not compute (`hand`: the bids
    /// it drops), as long as asking again at the same check changes nothing more: a run
    /// resumed there asks again.
    fn may_stop(&self, _tally: &mut Self::Tally) -> bool {
        false
    }

    /// Sees the tally a resumed run starts from, before any block runs (`hand`: which bids
    /// its blocks may skip). The default ignores it.
    fn resuming(&self, _tally: &Self::Tally) {}

    /// The identity of this command's run with `seed`: every input that decides its outputs.
    fn identity(&self, seed: u64) -> Identity {
        let profile = self.profile();
        Identity {
            napsim_version: crate::napsim_version().to_string(),
            command: Self::NAME.to_string(),
            profile: profile.name().to_string(),
            profile_toml: profile.toml().to_string(),
            arguments: serde_json::to_value(self.job()).expect("a job serialises"),
            seed,
            units: self.units(),
            block_size: Self::BLOCK_SIZE,
        }
    }
}
