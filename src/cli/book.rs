//! `slimetrail book`: writes an opening book of the positions whose proofs are too
//! long for a move's time, or proves every move of a book.
//!
//! Generation walks every position reachable within `--plies` plies of the start
//! squares (transpositions and mirror images once). Each is proven from an empty
//! table within `--hard-nodes` nodes, the work a search of a short move time can be
//! sure to do; a position that needs more and is won goes into the book, with the
//! winning move and game length of an unlimited proof.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use clap::Args;

use super::book_error::BookCommandError;
use crate::board::{Position, Size};
use crate::book_builder::{self, BookSource, LeavesFirst, VerifyLimits};

/// Arguments of `slimetrail book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    /// Board size as WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH", default_value = "7x7")]
    pub size: Size,
    /// Start squares to walk from, comma-separated (default: the default start and
    /// the square one up and right of it, d4 and e5 on 7x7).
    #[arg(long, value_name = "SQ,SQ", value_delimiter = ',')]
    pub starts: Vec<String>,
    /// Plies to walk from each start.
    #[arg(long, default_value_t = 6)]
    pub plies: u32,
    /// Proof nodes, from an empty table, above which a won position goes into the book.
    #[arg(long, value_name = "N", default_value_t = 50_000)]
    pub hard_nodes: u64,
    /// Prove only the positions at the last ply, keeping their results in
    /// DIR/leaves.tsv (safe to kill and run again), and give the shallower ones
    /// their values by minimax: for boards where each proof is long (8x8).
    #[arg(long, value_name = "DIR")]
    pub leaves_first: Option<String>,
    /// With --leaves-first: threads proving leaves, each with its own table.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "leaves_first")]
    pub jobs: usize,
    /// With --leaves-first: the table of each thread, in MiB.
    #[arg(
        long,
        value_name = "MB",
        default_value_t = 1024,
        requires = "leaves_first"
    )]
    pub hash: usize,
    /// Write the book to FILE (default: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<String>,
    /// Instead of writing a book, prove every move of the book in FILE (`builtin`:
    /// the book built into this binary) and name every move that does not win.
    /// Every column is checked: the size (--size), the side to move, the move
    /// (proven to win again) and the plies (odd, and at least solve's length).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "starts", "plies", "hard_nodes"])]
    pub verify: Option<String>,
    /// With --verify: give up on an entry after this many proof nodes (it then
    /// counts as not proven).
    #[arg(long, value_name = "N", requires = "verify",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// With --verify: give up on an entry after this many seconds (it then counts
    /// as not proven).
    #[arg(long, value_name = "SECONDS", requires = "verify")]
    pub time: Option<f64>,
}

/// Runs `slimetrail book`.
pub fn run(args: &BookArgs) -> Result<(), BookCommandError> {
    if let Some(path) = &args.verify {
        let time = match args.time {
            Some(s) if !(s > 0.0 && s.is_finite()) => return Err(BookCommandError::Time(s)),
            Some(s) => Some(std::time::Duration::from_secs_f64(s)),
            None => None,
        };
        let limits = VerifyLimits {
            nodes: args.nodes,
            time,
        };
        return verify(path, args.size, limits);
    }
    let starts = start_positions(args)?;
    let started = Instant::now();
    let lines = match &args.leaves_first {
        Some(dir) => {
            let how = LeavesFirst {
                plies: args.plies,
                hard_nodes: args.hard_nodes,
                jobs: args.jobs,
                hash_mb: args.hash,
            };
            let progress = |line: book_builder::LeafProgress| eprintln!("{line}");
            book_builder::leaves_first(&starts, &how, Path::new(dir), &progress).map_err(
                |error| BookCommandError::LeavesFirst {
                    dir: dir.clone(),
                    error: Box::new(error),
                },
            )?
        }
        None => book_builder::generate(&starts, args.plies, args.hard_nodes, &mut |report| {
            eprintln!("{report}");
        }),
    };
    let how = match &args.leaves_first {
        Some(_) => format!(
            " --leaves-first DIR --jobs {} --hash {}` (scripts/make-book-8x8.sh): the \
             positions at ply {} proven, the others valued by minimax; PLIES are the \
             proofs' bounds",
            args.jobs, args.hash, args.plies
        ),
        None => "` (scripts/make-book.sh)".to_string(),
    };
    let mut text = format!(
        "# Slimetrail opening book, {size}: won positions within {plies} plies of {starts} \
         whose proof needs more than {hard} nodes from an empty table.\n# Written by \
         `slimetrail book --size {size} --starts {starts} --plies {plies} --hard-nodes \
         {hard}{how}.\n# POSITION<TAB>WINNING MOVE<TAB>PLIES TO THE END AT MOST\n",
        size = args.size,
        plies = args.plies,
        starts = start_names(&starts),
        hard = args.hard_nodes,
    );
    for line in &lines {
        text.push_str(&format!("{line}\n"));
    }
    match &args.out {
        Some(path) => std::fs::write(path, text).map_err(|error| BookCommandError::Out {
            path: path.clone(),
            error,
        })?,
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(BookCommandError::Stdout)?,
    }
    eprintln!(
        "{} entries in {:.1} s",
        lines.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn start_names(starts: &[Position]) -> String {
    starts
        .iter()
        .map(|p| p.name(p.snail()))
        .collect::<Vec<_>>()
        .join(",")
}

fn start_positions(args: &BookArgs) -> Result<Vec<Position>, BookCommandError> {
    let size = args.size;
    let names: Vec<String> = if args.starts.is_empty() {
        size.usual_starts()
            .iter()
            .map(|&s| size.name(s).to_string())
            .collect()
    } else {
        args.starts.clone()
    };
    names
        .iter()
        .map(|name| {
            Position::start_named(size, name.trim()).map_err(|error| BookCommandError::Start {
                name: name.clone(),
                error,
            })
        })
        .collect()
}

/// Proves every move of the book at `path` (`builtin` for the built-in one).
fn verify(path: &str, size: Size, limits: VerifyLimits) -> Result<(), BookCommandError> {
    let lines = book_builder::load(&BookSource::named(path), size).map_err(|error| {
        BookCommandError::Verify {
            path: path.to_string(),
            error,
        }
    })?;
    let verification = book_builder::verify(&lines, size, limits, &mut |p| {
        eprintln!(
            "entry {} of {}: {:.1} M nodes, {:.1} s in all",
            p.entry,
            p.total,
            p.nodes as f64 / 1e6,
            p.elapsed.as_secs_f64()
        );
    });
    for failure in &verification.failures {
        eprintln!("not verified: {failure}");
    }
    println!("{verification}");
    if verification.failures.is_empty() {
        Ok(())
    } else {
        Err(BookCommandError::NotProven {
            path: path.to_string(),
            failures: verification.failures.len(),
            entries: lines.len(),
        })
    }
}
