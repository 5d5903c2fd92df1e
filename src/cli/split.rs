//! `slimetrail solve --split`, `--positions` and `--merge`: the sharded proof of
//! [`crate::proof`], its progress and reports printed, and its errors told with the
//! flags that lead out of them.

use std::fmt;
use std::fs;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::board::Position;
use crate::proof::{
    self, MergeReport, POSITIONS_FILE, PositionsError, ProofError, ProofSettings, Results, Split,
};
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

/// `solve --merge DIR [--certificate FILE]`: the merge report, and the certificate
/// of its verdict written to `certificate` (with its size, leaves and time told on
/// stderr).
pub fn merge(dir: &Path, certificate: Option<&Path>) -> Result<MergeReport, FlaggedProofError> {
    let started = Instant::now();
    let split = Split::read(&dir.join(POSITIONS_FILE)).map_err(ProofError::from)?;
    let results = Results::read(dir).map_err(ProofError::from)?;
    let report = MergeReport::new(&split, &results);
    if let Some(path) = certificate {
        let checked = proof::check(&split, &results);
        let cert =
            proof::certificate(&split, &results, &checked).map_err(ProofError::Certificate)?;
        fs::write(path, &cert.text).map_err(|error| ProofError::WriteCertificate {
            path: path.to_path_buf(),
            error,
        })?;
        eprintln!(
            "certificate {}: {} bytes, {} nodes, {} leaves, written in {:.3} s",
            path.display(),
            cert.text.len(),
            cert.nodes,
            cert.leaves,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(report)
}

/// `solve --verify-certificate FILE [--shard K/N]`: checks the tree under the rules,
/// proves the shard's share of the leaves again, and prints each step.
pub fn verify(
    path: &Path,
    shard: Shard,
    settings: &ProofSettings,
    stop: &AtomicBool,
) -> Result<(), FlaggedProofError> {
    let started = Instant::now();
    let failed = |error| ProofError::Verify {
        path: path.to_path_buf(),
        error,
    };
    let text = fs::read_to_string(path).map_err(|error| ProofError::ReadCertificate {
        path: path.to_path_buf(),
        error,
    })?;
    let tree = proof::check_tree(&text).map_err(failed)?;
    println!(
        "certificate {}: {} {} for player {} to move; the tree holds under the rules ({} nodes, {} distinct leaves)",
        path.display(),
        tree.root,
        proof::verdict_name(tree.verdict),
        tree.root.side_to_move().number(),
        tree.nodes,
        tree.leaves.len()
    );
    let mut nodes = 0;
    let proved = proof::prove_leaves(&tree, shard, settings, stop, &mut |leaf| {
        nodes += leaf.nodes;
        println!(
            "leaf {}: {}, {} nodes in {:.3} s",
            leaf.position,
            match leaf.found {
                Some(v) if v == leaf.claimed => format!("{} confirmed", proof::verdict_name(v)),
                Some(v) => format!(
                    "{} (the certificate says {})",
                    proof::verdict_name(v),
                    proof::verdict_name(leaf.claimed)
                ),
                None => "not proven within the limits".to_string(),
            },
            leaf.nodes,
            leaf.time.as_secs_f64()
        );
    })
    .map_err(failed)?;
    println!(
        "shard {shard}: {} leaves proved again, all confirmed; {nodes} nodes in {:.3} s",
        proved.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
