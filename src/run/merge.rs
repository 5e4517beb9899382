//! Adding a run's partial results (its shards) back together.

use std::path::PathBuf;

use super::partial::{self, Identity, RawPartial};
use super::{Done, LongCommand};
use crate::error::Error;
use crate::rules::Profile;

/// A run's parts, read and checked to form exactly one complete run.
pub struct Merged {
    /// The run.
    pub identity: Identity,
    /// Its profile, as the parts record it.
    pub profile: Profile,
    /// The parts, in the order given, each with its file.
    pub parts: Vec<(PathBuf, RawPartial)>,
    /// Seconds of computing, summed over the parts.
    pub elapsed_seconds: f64,
    /// CPU seconds of computing, summed over the parts.
    pub cpu_seconds: f64,
}

/// Reads the partial files `paths` and checks that they form one complete run of this
/// version of napsim; the error names the first part or field at fault.
pub fn read_parts(paths: &[PathBuf]) -> Result<Merged, Error> {
    let mut parts: Vec<(PathBuf, RawPartial)> = Vec::with_capacity(paths.len());
    for path in paths {
        let part = partial::read_partial(path)?;
        parts.push((path.clone(), part));
    }
    let named: Vec<(String, &RawPartial)> = parts
        .iter()
        .map(|(n, p)| (n.display().to_string(), p))
        .collect();
    partial::check_complete_set(&named)?;
    let identity = parts[0].1.identity.clone();
    let ours = crate::napsim_version();
    if identity.napsim_version != ours {
        return Err(Error::input(format!(
            "the parts were written by napsim {}, this is napsim {ours}: merge them with the \
             version that wrote them",
            identity.napsim_version
        )));
    }
    let profile = Profile::from_toml(&identity.profile_toml, &identity.profile)?;
    let elapsed_seconds = parts.iter().map(|(_, p)| p.elapsed_seconds).sum();
    let cpu_seconds = parts.iter().map(|(_, p)| p.cpu_seconds).sum();
    Ok(Merged {
        identity,
        profile,
        parts,
        elapsed_seconds,
        cpu_seconds,
    })
}

/// Decodes the parts' job as `C`'s, adds their tallies and prepares the command: what the
/// single run would hold once its blocks were done.
pub fn merge_parts<C: LongCommand>(merged: Merged) -> Result<(C, Done<C::Tally>), Error> {
    let job = decode_job::<C>(&merged.identity)?;
    let tally: C::Tally = partial::merge_tallies(merged.parts, merged.profile.bids().len())?;
    // Merging renders tallies: no policy plays, so no bot is started.
    let command = C::prepare(&merged.profile, job, &crate::bots::ext::BotPool::default())?;
    let done = Done {
        identity: merged.identity,
        tally,
        elapsed_seconds: merged.elapsed_seconds,
        cpu_seconds: merged.cpu_seconds,
    };
    Ok((command, done))
}

/// The job recorded in a run's identity, as `C`'s; it must serialise back to exactly the
/// recorded arguments (nothing unknown, nothing missing).
pub fn decode_job<C: LongCommand>(identity: &Identity) -> Result<C::Job, Error> {
    let damaged = |detail: String| {
        Error::input(format!(
            "the parts' {} arguments do not decode ({detail})",
            identity.command
        ))
    };
    let job: C::Job =
        serde_json::from_value(identity.arguments.clone()).map_err(|e| damaged(e.to_string()))?;
    if serde_json::to_value(&job).ok().as_ref() != Some(&identity.arguments) {
        return Err(damaged("unexpected fields".into()));
    }
    Ok(job)
}
