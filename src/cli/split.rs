//! `slimetrail solve --split`, `--positions` and `--merge`: the sharded proof of
//! [`crate::proof`], its progress and reports printed, and its errors told with the
//! flags that lead out of them.

use std::fmt;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use crate::board::Position;
use crate::proof::{self, PositionsError, ProofError, ProofSettings};
use crate::shard::Shard;

/// A [`ProofError`] told to the user of `solve`: with the flags that resume or
/// merge an existing split, or that write a positions file.
#[derive(Debug)]
pub struct FlaggedProofError(pub ProofError);

impl fmt::Display for FlaggedProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            e @ ProofError::SplitExists { .. } => write!(
                f,
                "{e} (merge or resume that split with --merge or --positions instead)"
            ),
            ProofError::Positions(PositionsError::MissingHeader { path, header }) => write!(
                f,
                "{}: no {header:?} header; expected a positions file written by `solve --split`",
                path.display()
            ),
            e => e.fmt(f),
        }
    }
}

impl std::error::Error for FlaggedProofError {}

impl From<ProofError> for FlaggedProofError {
    fn from(e: ProofError) -> FlaggedProofError {
        FlaggedProofError(e)
    }
}

/// `solve --split DEPTH --out DIR`: splits and prints what it did.
pub fn split(
    root: &Position,
    depth: u32,
    short_proof_nodes: u64,
    dir: &Path,
    settings: &ProofSettings,
) -> Result<(), FlaggedProofError> {
    let summary = proof::split(root, depth, short_proof_nodes, dir, settings)?;
    println!("{summary}");
    Ok(())
}

/// `solve --positions FILE --shard K/N`: proves the share, a line for each step.
pub fn shard(
    file: &Path,
    shard: Shard,
    settings: &ProofSettings,
    stop: &AtomicBool,
) -> Result<(), FlaggedProofError> {
    let summary = proof::run_shard(file, shard, settings, stop, &mut |event| {
        println!("{event}");
    })?;
    println!("{summary}");
    Ok(())
}
