//! The routes of `napsim serve` and how an answer goes wrong: every failure is a JSON object
//! `{"error": MESSAGE}` with a status that says whose fault it is.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use serde_json::json;

use super::{Shared, hand, page, play, review};
use crate::error::Error;

/// A request that failed: its status and the message the body carries.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The message, in the library's words (the command line prints the same after `error:`,
    /// with the request's field names as its flags).
    pub message: String,
}

impl ApiError {
    /// A bad request (400).
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// The server is too busy to take the request now (503).
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }

    /// Nothing there (404).
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }
}

impl From<Error> for ApiError {
    /// Bad input is the client's (400); anything else the server's (500).
    fn from(error: Error) -> ApiError {
        let status = if error.is_input() {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::INTERNAL_SERVER_ERROR
        };
        ApiError {
            status,
            message: error.to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": self.message }).to_string() + "\n";
        (self.status, [(header::CONTENT_TYPE, JSON)], body).into_response()
    }
}

/// The content type of a JSON answer.
pub(super) const JSON: &str = "application/json";

/// The content type of an answer of JSON lines (streamed or not).
pub(super) const JSON_LINES: &str = "application/x-ndjson";

/// A JSON answer of `text` (a document the library wrote).
pub(super) fn json_answer(text: String) -> Response {
    ([(header::CONTENT_TYPE, JSON)], text).into_response()
}

/// The request body read as `T`: unknown fields, wrong types and bad JSON are refused with
/// serde's own words.
pub(super) fn parse<T: serde::de::DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("the request's JSON: {e}")))
}

/// Every route: the page and its files, and the API.
pub(super) fn router(shared: Arc<Shared>) -> Router {
    let max_body = shared.config.max_body;
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/api/profiles", get(profiles))
        .route("/api/hand", post(hand::evaluate))
        .route("/api/hand/stream", post(hand::stream))
        .route("/api/solve", post(review::solve))
        .route("/api/review", post(review::review))
        .route("/api/play", post(play::start))
        .route("/api/play/{id}/answer", post(play::answer))
        .route("/api/play/{id}", delete(play::end))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(shared)
}

/// Every built-in profile: its name, description, table sizes and bids, the default first.
async fn profiles() -> Result<Response, ApiError> {
    let mut list = Vec::new();
    for name in crate::rules::builtin_names() {
        let profile = crate::rules::Profile::builtin(name).map_err(Error::from)?;
        let bids: Vec<_> = profile
            .bids()
            .iter()
            .map(|b| json!({"name": b.name(), "label": b.label(), "misere": b.is_misere()}))
            .collect();
        list.push(json!({
            "name": profile.name(),
            "description": profile.description(),
            "default": name == crate::rules::DEFAULT_PROFILE,
            "min_players": profile.min_players(),
            "max_players": profile.max_players(),
            "session_deals": profile.session_deals(),
            "bids": bids,
        }));
    }
    Ok(json_answer(
        serde_json::Value::from(list).to_string() + "\n",
    ))
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such page or endpoint: the API is described in docs/api.md")
}
