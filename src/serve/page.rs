//! The page: one HTML file, its script and its style sheet, compiled into the binary (no build
//! step, nothing fetched at run time: it works offline).

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The page.
const INDEX: &str = include_str!("page/index.html");
/// Its script (plain JavaScript, no framework).
const SCRIPT: &str = include_str!("page/app.js");
/// Its style sheet.
const STYLE: &str = include_str!("page/style.css");

/// `GET /`.
pub(super) async fn index() -> Response {
    file("text/html; charset=utf-8", INDEX)
}

/// `GET /app.js`.
pub(super) async fn script() -> Response {
    file("text/javascript; charset=utf-8", SCRIPT)
}

/// `GET /style.css`.
pub(super) async fn style() -> Response {
    file("text/css; charset=utf-8", STYLE)
}

/// A file of the page; never cached, so that a new napsim's page is the one shown.
fn file(content_type: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}
