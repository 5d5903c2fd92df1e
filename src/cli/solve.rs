//! `slimetrail solve`: proves who wins, and says what is known when it cannot; or
//! shares a proof out (`--split`, `--positions`, `--merge`, in [`super::split`]).

use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::interrupt::{self, INTERRUPTED, INTERRUPTED_EXIT_CODE};
use super::split::{self, FlaggedProofError};
use super::{JsonError, PositionArgError, PositionArgs, print_json};
use crate::board::Side;
use crate::proof::{self, ProofSettings, Status};
use crate::search::{HASH_MB, Hindsight, MemoryError, SearchInfo, THREADS, Verdict, hindsight};
use crate::shard::Shard;

/// Arguments of `slimetrail solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The position to prove.
    #[command(flatten)]
    pub from: PositionArgs,
    /// Transposition-table size in MiB; an upper bound: boards of up to 49 squares
    /// use at most 4, which holds every proof there. Larger is not always faster: a
    /// table beyond the cache the processor really has for it slows every node, and
    /// on some machines that is far less than the last-level cache it reports
    /// (scripts/bench-hash.sh measures it).
    #[arg(long, value_name = "MB", default_value_t = 256,
          value_parser = clap::value_parser!(u64).range(HASH_MB.min as u64..=HASH_MB.max as u64))]
    pub hash: u64,
    /// Give up after this many seconds, and report what is known.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Give up after this many proof nodes, and report what is known.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Proof-search threads sharing the table.
    #[arg(long, default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(THREADS.min as u64..=THREADS.max as u64))]
    pub threads: u64,
    /// Print one JSON object instead of the text report (no progress lines). Its fields:
    ///   position       the position proven, as a position string
    ///   side_to_move   1 or 2
    ///   status         "proven"; or why the proof did not finish: "time_limit",
    ///                  "node_limit", "interrupted" (Ctrl-C; the exit status is 130)
    ///   verdict        "win" or "loss" for the side to move; null if not proven
    ///   winner         1 or 2; null if not proven
    ///   best_move      a square: the winning move, the longest resistance of a
    ///                  loss, or without a proof the best guess; null if none
    ///   best_move_basis  "winning", "longest_resistance", "proven_winning" (a move
    ///                  proven to win after the limit), "slowest_loss" (every move
    ///                  is proven to lose) or "guess"; null if no move
    ///   length         plies of the game under best play; null if not computed
    ///   length_exact   true if `length` is exact, false if an upper bound
    ///   line           squares of a line to the end of the game under best play
    ///                  (may stop early); empty without a proof
    ///   seldepth       deepest ply the proof search reached
    ///   hashfull       table fill in parts per thousand
    ///   table_mb       table size in MiB (the hash, or less on small boards)
    ///   proof          the proof search: {"nodes", "time_ms", "nps"}
    ///   total          everything, with the line, the length or the summary of an
    ///                  unfinished proof: {"nodes", "time_ms", "nps"}
    ///   unfinished     null when the proof finished; otherwise what is known:
    ///                  {"losing": [{"move", "within_plies"}], "winning": [same],
    ///                   "undecided": [squares], "guess": null or
    ///                   {"move", "depth", "score"} (score as "cp N" or "mate N")}
    #[arg(long, verbatim_doc_comment)]
    pub json: bool,
    /// Share the proof out: write the sub-problems DEPTH plies below the position to
    /// DIR/positions.txt (with --out DIR), after short proofs (--split-nodes) that
    /// settle the easy nodes into DIR/results-split.jsonl.
    #[arg(long, value_name = "DEPTH", requires = "out",
          conflicts_with_all = ["positions", "merge"],
          value_parser = clap::value_parser!(u32).range(1..=12))]
    pub split: Option<u32>,
    /// Nodes of the short proof --split tries on each node below the position
    /// before it expands or lists it; 0 for none.
    #[arg(long, value_name = "N", default_value_t = proof::SPLIT_PROOF_NODES, requires = "split")]
    pub split_nodes: u64,
    /// The directory of --split.
    #[arg(long, value_name = "DIR", requires = "split")]
    pub out: Option<PathBuf>,
    /// Prove the sub-problems of a positions file written by --split (with --shard,
    /// a share of them), appending each result to results-K-of-N.jsonl beside it;
    /// --time and --nodes limit each sub-problem. Safe to kill and run again: proven
    /// positions are never proved twice, and no longer needed ones are skipped.
    #[arg(long, value_name = "FILE", conflicts_with = "merge")]
    pub positions: Option<PathBuf>,
    /// With --positions: prove every N-th sub-problem from the K-th (1 <= K <= N),
    /// e.g. one share per Slurm array task.
    /// With --verify-certificate: prove again every N-th distinct leaf from the
    /// K-th (the tree is checked whole by every shard).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// With --positions: first prove every sub-problem within N nodes, then again
    /// within 8 times as many, and so on up to --nodes (or no limit), so that easy
    /// sub-problems settle their neighbours before hard ones are taken on.
    #[arg(long, value_name = "N", requires = "positions",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub first_nodes: Option<u64>,
    /// Combine the results files of a split directory into the verdict of its root,
    /// by minimax over the split tree, and list the sub-problems still open.
    #[arg(long, value_name = "DIR")]
    pub merge: Option<PathBuf>,
    /// With --merge: exit with success even when records are set aside,
    /// conflict or contradict each other (the merge counts what they name as open).
    #[arg(long, requires = "merge")]
    pub ignore_conflicts: bool,
    /// With --merge: write the proof tree the verdict rests on to FILE (plain
    /// text, one node a line; see README), for --verify-certificate.
    #[arg(long, value_name = "FILE", requires = "merge")]
    pub certificate: Option<PathBuf>,
    /// Check a certificate written by --merge --certificate, independently of the
    /// merge: the tree under the rules (every legal reply at each and node), and
    /// every leaf proved again by the solver (with --shard K/N, a share of them;
    /// --hash, --threads, --nodes and --time apply to each leaf).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["merge", "positions", "split"])]
    pub verify_certificate: Option<PathBuf>,
    /// A measuring aid: prove the position twice on one thread, the second time
    /// with a fresh table and the first proof's winning moves tried first at every
    /// node whose region has at least MIN_REGION squares, and print both node counts
    /// (a bound on what a perfect move order would save; README, ablation table).
    #[arg(long, value_name = "MIN_REGION",
          conflicts_with_all = ["merge", "positions", "split", "verify_certificate", "json"])]
    pub hindsight: Option<u32>,
}

/// Why `slimetrail solve` cannot run.
#[derive(Debug)]
pub enum SolveError {
    /// The position arguments are wrong.
    Position(PositionArgError),
    /// The position is a finished game, won by this side.
    GameOver(Side),
    /// `--time` is not a positive, finite number of seconds.
    Time(f64),
    /// The split, a shard or the merge failed.
    Proof(FlaggedProofError),
    /// The report cannot be written as JSON.
    Json(JsonError),
    /// The merge found records it does not trust.
    Untrusted(usize),
    /// `--shard` without a list to share.
    ShardAlone,
    /// The tables of `--hindsight` do not fit in memory.
    Memory(MemoryError),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Position(e) => e.fmt(f),
            SolveError::GameOver(winner) => write!(
                f,
                "the game is already over: {winner} has won; expected a position with a move to play"
            ),
            SolveError::Time(s) => write!(
                f,
                "--time: expected a positive number of seconds, found {s}"
            ),
            SolveError::Proof(e) => e.fmt(f),
            SolveError::Json(e) => e.fmt(f),
            SolveError::Memory(e) => write!(f, "--hindsight: {e}"),
            SolveError::ShardAlone => {
                f.write_str("--shard: expected --positions or --verify-certificate with it")
            }
            SolveError::Untrusted(n) => write!(
                f,
                "the merge set aside {n} records, conflicts or contradictions (listed in its \
                 report); expected results files that agree with the split and each other: \
                 remove the lines named, or give --ignore-conflicts to accept the merge without them"
            ),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<FlaggedProofError> for SolveError {
    fn from(e: FlaggedProofError) -> SolveError {
        SolveError::Proof(e)
    }
}

/// Proves a position and prints the verdict, a winning move, the game's length and
/// the speed; or, when a limit or Ctrl-C ends the proof first, what is known.
pub fn run(args: &SolveArgs) -> Result<ExitCode, SolveError> {
    if args.shard.is_some() && args.positions.is_none() && args.verify_certificate.is_none() {
        return Err(SolveError::ShardAlone);
    }
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    if let Some(dir) = &args.merge {
        let report = split::merge(dir, args.certificate.as_deref())?;
        if args.json {
            print_json(&report).map_err(SolveError::Json)?;
        } else {
            print!("{report}");
        }
        if !report.problems.is_empty() && !args.ignore_conflicts {
            return Err(SolveError::Untrusted(report.problems.len()));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let settings = ProofSettings {
        hash_mb: args.hash,
        threads: args.threads,
        nodes: args.nodes,
        time: seconds(args.time)?,
        first_nodes: args.first_nodes,
    };
    if let Some(file) = &args.positions {
        interrupt::install();
        split::shard(file, shard, &settings, &INTERRUPTED)?;
        return Ok(interrupt::exit_code());
    }
    if let Some(file) = &args.verify_certificate {
        interrupt::install();
        split::verify(file, shard, &settings, &INTERRUPTED)?;
        return Ok(interrupt::exit_code());
    }
    let position = args.from.position().map_err(SolveError::Position)?;
    if let Some(winner) = position.outcome().winner() {
        return Err(SolveError::GameOver(winner));
    }
    if let (Some(depth), Some(dir)) = (args.split, &args.out) {
        split::split(&position, depth, args.split_nodes, dir, &settings)?;
        return Ok(ExitCode::SUCCESS);
    }
    interrupt::install();
    if let Some(min_region) = args.hindsight {
        let megabytes = usize::try_from(args.hash).unwrap_or(usize::MAX);
        let h = hindsight(&position, megabytes, min_region, &INTERRUPTED)
            .map_err(SolveError::Memory)?;
        println!("{}", hindsight_report(&h, min_region));
        return Ok(interrupt::exit_code());
    }
    let json = args.json;
    if !json {
        println!(
            "solving {position}, {} to move (Ctrl-C stops and reports what is known)",
            position.side_to_move()
        );
    }
    let mut progress = |info: &SearchInfo| {
        if info.score.is_none() && !json {
            println!(
                "... {:.1} M nodes in {:.1} s ({:.2} M nodes/s), table {:.1}% full",
                info.nodes as f64 / 1e6,
                info.time.as_secs_f64(),
                info.nps() as f64 / 1e6,
                f64::from(info.hashfull) / 10.0
            );
        }
    };
    let report = proof::solve(&position, &settings, &INTERRUPTED, &mut progress);
    if json {
        print_json(&report).map_err(SolveError::Json)?;
    } else {
        print!("{report}");
    }
    Ok(if report.status() == Status::Interrupted {
        ExitCode::from(INTERRUPTED_EXIT_CODE)
    } else {
        ExitCode::SUCCESS
    })
}

/// The two lines `--hindsight` prints.
fn hindsight_report(h: &Hindsight, min_region: u32) -> String {
    let verdict = |v: Option<Verdict>| match v {
        Some(Verdict::Win) => "win",
        Some(Verdict::Loss) => "loss",
        None => "interrupted",
    };
    format!(
        "default order: {} ({} nodes)\nhindsight order at regions of {min_region}+ squares: {} ({} nodes, {:.2}x fewer)",
        verdict(h.verdict),
        h.default_nodes,
        verdict(h.hinted_verdict),
        h.hinted_nodes,
        h.default_nodes as f64 / h.hinted_nodes.max(1) as f64
    )
}

/// The `--time` limit: a positive, finite number of seconds.
fn seconds(time: Option<f64>) -> Result<Option<Duration>, SolveError> {
    match time {
        Some(s) if !(s > 0.0 && s.is_finite()) => Err(SolveError::Time(s)),
        Some(s) => Ok(Some(Duration::from_secs_f64(s))),
        None => Ok(None),
    }
}
