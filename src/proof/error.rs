//! [`ProofError`]: why a split, a shard or a merge cannot go on.

use std::fmt;
use std::io;
use std::path::PathBuf;

use super::certificate::CertificateError;
use super::positions::PositionsError;
use super::results::ResultsError;
use super::verify::VerifyError;

/// Why a split, a shard or a merge cannot go on.
#[derive(Debug)]
pub enum ProofError {
    /// The positions file cannot be read.
    Positions(PositionsError),
    /// The results files cannot be read or written.
    Results(ResultsError),
    /// The split directory cannot be created.
    CreateDir {
        /// The directory.
        dir: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The split directory holds a split already.
    SplitExists {
        /// Its positions file.
        positions: PathBuf,
    },
    /// The positions file cannot be written.
    WritePositions {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// No certificate can be written for the merge.
    Certificate(CertificateError),
    /// The certificate file cannot be written.
    WriteCertificate {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The certificate file cannot be read.
    ReadCertificate {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The certificate does not hold.
    Verify {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: VerifyError,
    },
}

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofError::Positions(e) => e.fmt(f),
            ProofError::Results(e) => e.fmt(f),
            ProofError::CreateDir { dir, error } => write!(
                f,
                "cannot create the split directory {}: {error}",
                dir.display()
            ),
            ProofError::SplitExists { positions } => write!(
                f,
                "{} exists already; expected a new or empty directory for the split",
                positions.display()
            ),
            ProofError::WritePositions { path, error } => write!(
                f,
                "cannot write the positions file {}: {error}",
                path.display()
            ),
            ProofError::Certificate(e) => e.fmt(f),
            ProofError::WriteCertificate { path, error } => write!(
                f,
                "cannot write the certificate {}: {error}",
                path.display()
            ),
            ProofError::ReadCertificate { path, error } => {
                write!(f, "cannot read the certificate {}: {error}", path.display())
            }
            ProofError::Verify { path, error } => {
                write!(
                    f,
                    "the certificate {} does not hold: {error}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for ProofError {}

impl From<PositionsError> for ProofError {
    fn from(e: PositionsError) -> ProofError {
        ProofError::Positions(e)
    }
}

impl From<ResultsError> for ProofError {
    fn from(e: ResultsError) -> ProofError {
        ProofError::Results(e)
    }
}
