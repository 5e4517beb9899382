//! `napsim merge`: adds the partial results of a run's shards and writes what the single run
//! would have written, through the same `render` step.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{
    Failure, Finished, Outputs, Render, bid_table, hand, simulate, thresholds, tournament,
};
use crate::cli::args::MergeArgs;
use crate::report::RunInfo;
use crate::rules::Profile;
use crate::sim::Tally;
use crate::sim::partial::{self, Identity, RawPartial};

pub(super) fn command(rules_arg: &str, args: MergeArgs) -> Result<(), Failure> {
    let mut parts: Vec<(String, RawPartial)> = Vec::with_capacity(args.parts.len());
    for path in &args.parts {
        let part = partial::read_partial(path).map_err(Failure::input)?;
        parts.push((path.display().to_string(), part));
    }
    let named: Vec<(String, &RawPartial)> = parts.iter().map(|(n, p)| (n.clone(), p)).collect();
    partial::check_complete_set(&named).map_err(Failure::input)?;
    let identity = parts[0].1.identity.clone();
    let ours = crate::napsim_version();
    if identity.napsim_version != ours {
        return Err(Failure::input(format!(
            "the parts were written by napsim {}, this is napsim {ours}: merge them with the \
             version that wrote them",
            identity.napsim_version
        )));
    }
    let profile = Profile::from_toml(&identity.profile_toml, &identity.profile)?;
    // The profile comes from the parts; a --rules that names another is a mistake to report.
    if rules_arg != crate::rules::DEFAULT_PROFILE
        && crate::rules::load_profile(rules_arg)?.toml() != profile.toml()
    {
        return Err(Failure::input(format!(
            "--rules {rules_arg}: the parts were made with profile {} (merge takes the profile \
             from the parts; leave out --rules)",
            profile.name()
        )));
    }
    let outputs = Outputs {
        out: args.out.clone(),
        pairs: args.pairs.clone(),
        markdown: args.markdown.clone(),
        plot: args.plot.clone(),
    };
    let accepted: &[&str] = match identity.command.as_str() {
        bid_table::COMMAND => &["--markdown", "--plot"],
        tournament::COMMAND => &["--pairs", "--markdown"],
        _ => &[],
    };
    for (flag, path) in [
        ("--pairs", &outputs.pairs),
        ("--markdown", &outputs.markdown),
        ("--plot", &outputs.plot),
    ] {
        if path.is_some() && !accepted.contains(&flag) {
            return Err(Failure::input(format!(
                "{flag} does not apply to {} results",
                identity.command
            )));
        }
    }
    outputs.check(None)?;
    let inputs: Vec<&Path> = args.parts.iter().map(PathBuf::as_path).collect();
    outputs.check_distinct(&inputs)?;
    let elapsed: f64 = parts.iter().map(|(_, p)| p.elapsed_seconds).sum();
    let finished = Finished {
        identity: identity.clone(),
        run: RunInfo {
            merged_parts: args.parts.iter().map(|p| p.display().to_string()).collect(),
            ..RunInfo::here(None, elapsed)
        },
        outputs,
    };
    let parts: Vec<RawPartial> = parts.into_iter().map(|(_, p)| p).collect();
    match identity.command.as_str() {
        simulate::COMMAND => merge_as(&profile, parts, &finished, simulate::render),
        hand::COMMAND => merge_as(&profile, parts, &finished, hand::render),
        bid_table::COMMAND => merge_as(&profile, parts, &finished, bid_table::render),
        thresholds::COMMAND => merge_as(&profile, parts, &finished, thresholds::render),
        tournament::COMMAND => merge_as(&profile, parts, &finished, tournament::render),
        other => Err(Failure::input(format!(
            "the parts are from `napsim {other}`, which this napsim cannot merge"
        ))),
    }
}

/// Decodes the parts' tallies and job as a command's, adds the tallies and renders them.
fn merge_as<J, T>(
    profile: &Profile,
    parts: Vec<RawPartial>,
    finished: &Finished,
    render: Render<J, T>,
) -> Result<(), Failure>
where
    J: DeserializeOwned + Serialize,
    T: Tally + Default + DeserializeOwned,
{
    let job = decode_job::<J>(&finished.identity)?;
    let tally: T = partial::merge_tallies(parts, profile.bids().len()).map_err(Failure::input)?;
    render(profile, &job, &tally, finished)
}

/// The job recorded in a run's identity; it must serialise back to exactly the recorded
/// arguments (nothing unknown, nothing missing).
fn decode_job<J: DeserializeOwned + Serialize>(identity: &Identity) -> Result<J, Failure> {
    let damaged = |detail: String| {
        Failure::input(format!(
            "the parts' {} arguments do not decode ({detail})",
            identity.command
        ))
    };
    let job: J =
        serde_json::from_value(identity.arguments.clone()).map_err(|e| damaged(e.to_string()))?;
    if serde_json::to_value(&job).ok().as_ref() != Some(&identity.arguments) {
        return Err(damaged("unexpected fields".into()));
    }
    Ok(job)
}
