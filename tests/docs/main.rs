//! Documents that are run or rendered: the README's examples, the guide, the play-policy comparison
//! and the protocol document.
//!
//! One test binary for several files: every test binary links the whole crate, so a few of
//! them build much faster than one per file.

#[path = "../common/mod.rs"]
mod common;

mod guide;
mod play_policies_doc;
mod protocol_doc;
mod readme;
