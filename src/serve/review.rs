//! `POST /api/review` and `/api/solve`: `napsim review --json`'s lines for deal records, and
//! `napsim solve --json`'s document for a deal.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::Shared;
use super::api::{self, ApiError, JSON_LINES};
use super::request::{self, StopOnDrop};
use crate::commands::{ReviewJob, SolveJob, StoppableOutput, review_deals, solve as solve_deal};
use crate::error::Error;

/// The most deal records one review request may hold.
pub(super) const MAX_REVIEW_DEALS: usize = 64;

/// Deals to review: `napsim review - --json`'s arguments, the records as text.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReviewRequest {
    /// `deal --json` records (a saved `napsim play` session is some), one per line.
    records: String,
    /// The profile the records were played under, when not built in (else their own).
    #[serde(default)]
    rules: Option<String>,
    /// Worlds per call judged (0: the calls are not judged).
    #[serde(default)]
    worlds: Option<u64>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    choice: Option<String>,
    #[serde(default)]
    eval_play: Option<String>,
    #[serde(default)]
    others_bid: Option<String>,
}

/// A deal to solve: `napsim solve`'s arguments (one deal, not random ones).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SolveRequest {
    /// The hands, `h0/h1/...`, the opening leader's first.
    deal: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    misere: bool,
    #[serde(default)]
    bid: Option<String>,
    #[serde(default)]
    trump: Option<String>,
    /// The cards played so far.
    #[serde(default)]
    plays: Option<String>,
}

/// `POST /api/review`: the review's JSON lines, one per card in play order then one per call,
/// for each deal.
pub(super) async fn review(
    State(shared): State<Arc<Shared>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let asked: ReviewRequest = api::parse(&body)?;
    let deals = asked
        .records
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count();
    if deals > MAX_REVIEW_DEALS {
        return Err(ApiError::bad(format!(
            "`records`: {deals} deals; a request reviews at most {MAX_REVIEW_DEALS}"
        )));
    }
    let profile = request::profile(asked.rules.as_deref())?;
    let mut job = ReviewJob::new(Some("-".into()), shared.config.threads);
    job.json = true;
    job.rules_given = asked.rules.is_some();
    if let Some(worlds) = asked.worlds {
        job.worlds = worlds;
    }
    request::within_cap("worlds", job.worlds, shared.config.max_worlds)?;
    if let Some(seed) = asked.seed {
        job.seed = seed;
    }
    for (field, spec, given) in [
        ("choice", &mut job.choice, asked.choice),
        ("eval_play", &mut job.eval_play, asked.eval_play),
        ("others_bid", &mut job.others_bid, asked.others_bid),
    ] {
        if let Some(given) = given {
            *spec = given;
        }
        request::sealed(field, spec)?;
    }
    let place = shared.gate.enter().await?;
    let stop = Arc::new(AtomicBool::new(false));
    let _stop = StopOnDrop(Arc::clone(&stop));
    let records = asked.records;
    let text = tokio::task::spawn_blocking(move || {
        let _place = place;
        let mut out = StoppableOutput::new(stop);
        let mut input = records.as_bytes();
        review_deals(&profile, &job, &mut input, &mut out, &crate::sim::Silent)?;
        out.into_text()
    })
    .await
    .map_err(|e| Error::runtime(format!("the review failed: {e}")))??;
    Ok(([(header::CONTENT_TYPE, JSON_LINES)], text).into_response())
}

/// `POST /api/solve`: the double-dummy values of the next seat's cards.
pub(super) async fn solve(
    State(shared): State<Arc<Shared>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let asked: SolveRequest = api::parse(&body)?;
    request::one_line("deal", &asked.deal)?;
    let profile = request::profile(asked.rules.as_deref())?;
    let job = SolveJob {
        players: asked.deal.split('/').count(),
        deal: Some(asked.deal),
        random: None,
        seed: None,
        misere: asked.misere,
        bid: asked.bid,
        trump: asked.trump,
        plays: asked.plays,
        json: true,
    };
    let place = shared.gate.enter().await?;
    let text = tokio::task::spawn_blocking(move || {
        let _place = place;
        solve_deal(&profile, &job, || 0)
    })
    .await
    .map_err(|e| Error::runtime(format!("the solve failed: {e}")))??;
    Ok(api::json_answer(text.trim_end().to_string() + "\n"))
}
