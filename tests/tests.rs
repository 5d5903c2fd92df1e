//! The integration tests, compiled into one test binary (as ripgrep does), so that a
//! change to the library links one test executable instead of sixteen.
//!
//! Shared helpers are modules of this crate: [`common`] drives the engine binary over
//! pipes, [`arena_support`] runs the arena and its mock engines, [`markdown`] reads the
//! fenced blocks of the README and protocol.md, and [`oracle`] is an exact solver
//! written independently of the engine's search.

mod arena_support;
mod common;
mod markdown;
mod oracle;

mod arena_cli;
mod arena_config;
mod arena_engines;
mod arena_faults;
mod arena_formats;
mod arena_openings;
mod arena_records;
mod arena_resume;
mod arena_stats;
mod cli_bench;
mod cli_book_verify;
mod cli_merge_trust;
mod cli_perft;
mod cli_solve;
mod cli_split;
mod gui;
mod gui_limits;
mod gui_pages;
mod known_values;
mod opening_book;
mod perft;
mod play;
mod protocol_doc;
mod protocol_errors;
mod protocol_fuzz;
mod protocol_latency;
mod protocol_robustness;
mod protocol_session;
mod readme_certificates;
mod readme_examples;
mod search_limits;
mod search_oracle;
mod search_regressions;
