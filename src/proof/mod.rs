//! Proofs outside the protocol: a proof shared out as independent sub-problems,
//! proven by shards run as separate processes (by a batch scheduler, GNU parallel,
//! or by hand) and merged back into the root's verdict; and the report of a direct
//! proof.

mod merge_report;
mod results;
mod runner;
mod solve_report;
mod tree;

pub use merge_report::{MergeReport, MoveReport, merge_dir, text as merge_text};
pub use runner::{ProofSettings, SPLIT_PROOF_NODES, shard, split};
pub use solve_report::{Basis, Figures, Guess, MoveProof, SolveReport, Status, Unfinished};
