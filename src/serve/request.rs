//! What every request may name, checked before any work: a profile (a built-in name or TOML
//! text, never a file), policy specs that run no program and read no file, and worlds within
//! the server's cap.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::api::ApiError;
use crate::rules::Profile;

/// The profile `rules` gives: a built-in name, TOML text (validated as `--rules` validates a
/// file), or the default profile when absent.
pub(super) fn profile(rules: Option<&str>) -> Result<Profile, ApiError> {
    let Some(text) = rules else {
        return Ok(Profile::default_profile());
    };
    let is_toml = text.contains('\n') || text.contains('=');
    let loaded = if is_toml {
        Profile::from_toml(text, "the request's `rules`")
    } else {
        Profile::builtin(text.trim())
    };
    loaded.map_err(|e| ApiError::bad(e.to_string()))
}

/// The table size a request gets when it names none, as the command line's.
pub(super) fn four_players() -> usize {
    4
}

/// Refuses a policy spec (in the request's field `field`) that runs a program or reads a file.
pub(super) fn sealed(field: &str, spec: &str) -> Result<(), ApiError> {
    match crate::bots::reaches_outside(spec) {
        None => Ok(()),
        Some(why) => Err(ApiError::bad(format!(
            "`{field}`: {why}, which a request to napsim serve may not: use a built-in policy"
        ))),
    }
}

/// Refuses more than the server's cap of worlds in the field `field`.
pub(super) fn within_cap(field: &str, worlds: u64, cap: u64) -> Result<(), ApiError> {
    if worlds > cap {
        return Err(ApiError::bad(format!(
            "`{field}` {worlds}: this server plays at most {cap} worlds a request"
        )));
    }
    Ok(())
}

/// A text field that is one line (an answer, a card list): no line break.
pub(super) fn one_line(field: &str, text: &str) -> Result<(), ApiError> {
    if text.contains(['\n', '\r']) {
        return Err(ApiError::bad(format!("`{field}`: one line, please")));
    }
    Ok(())
}

/// Sets a run's stop flag when dropped: held by a request's handler or its streamed body, which
/// the server drops when the client goes away.
pub(super) struct StopOnDrop(pub(super) Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
