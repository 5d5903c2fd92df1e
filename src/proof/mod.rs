//! Proofs outside the protocol.
//!
//! - The direct proof of one position and its report: [`solve`], [`SolveReport`].
//! - A proof shared out as independent sub-problems, proven by shards run as
//!   separate processes (by a batch scheduler, GNU parallel, or by hand) and merged
//!   back into the root's verdict:
//!   - [`split`] lists the sub-problems some plies below the root in a positions
//!     file ([`Split`]), after short proofs that settle the easy nodes;
//!   - [`run_shard`] proves a [`Shard`](crate::shard::Shard) of them, appending a
//!     [`Record`] a line to its own results file, and skips what is proven
//!     already, tried within the same limits, or no longer needed ([`skip_reason`]);
//!   - [`MergeReport`] is the minimax of the records over the split tree
//!     ([`merge`], [`SplitTree`]): the root's verdict, each first move's value, and
//!     the open sub-problems that still matter.
//!
//! [`Results`] reads every record with the file and line it came from, and counts
//! the lines a kill cut short or that are damaged; [`check`] sets aside the records
//! that do not fit the split or each other, before a shard or a merge trusts them.
//! [`certificate`] writes the proof tree a merged verdict rests on, and
//! [`check_tree`] and [`prove_leaves`] verify one independently of the merge.
//! Nothing here names a command-line flag.

mod certificate;
mod check;
mod error;
mod merge_report;
mod positions;
mod results;
mod runner;
mod settings;
mod skip;
mod solve;
mod solve_report;
mod split;
mod sub_problems;
#[cfg(test)]
mod testing;
mod tree;
mod verify;
mod watch;

pub use certificate::{CERTIFICATE_HEADER, Certificate, CertificateError, certificate};
pub use check::{Checked, Issue, RecordProblem, check};
pub use error::ProofError;
pub use merge_report::{MergeReport, MoveReport};
pub use positions::{LineProblem, POSITIONS_FILE, PositionsError, Split};
pub use results::{
    Appender, Entry, Record, Results, ResultsError, Source, shard_file, split_file, verdict_name,
};
pub use runner::{ShardEvent, ShardSummary, run_shard};
pub use settings::ProofSettings;
pub use skip::{Skip, skip_reason};
pub use solve::solve;
pub use solve_report::{Basis, Figures, Guess, MoveProof, SolveReport, Status, Unfinished};
pub use split::{SPLIT_PROOF_NODES, SplitSummary, split};
pub use sub_problems::sub_problems;
pub use tree::{
    Known, Merged, NodeValue, SplitTree, canonical, canonical_position, game_over, merge,
};
pub use verify::{CheckedTree, LeafProof, VerifyError, check_tree, prove_leaves};
pub use watch::WATCH_INTERVAL;
