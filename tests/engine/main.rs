//! The engine, rules and parsers through the library API: worked examples, property tests of the
//! deal's invariants, the rules checker, stratified sampling and every text parser.
//!
//! One test binary for several files: every test binary links the whole crate, so a few of
//! them build much faster than one per file.

#[path = "../common/mod.rs"]
mod common;

mod engine_tests;
mod flag_names;
mod parsers;
mod properties;
mod rules_checker;
mod statics;
mod stratified;
