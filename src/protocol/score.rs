//! The score of an `info` line as the wire carries it, independent of any engine.

use std::fmt;

/// A score from the point of view of the side to move, as `score cp N` or `score mate N`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Score {
    /// `mate N`: a proven result; `N > 0` wins in `N` plies, `N < 0` loses in `-N` plies.
    Mate(i32),
    /// `cp N`: a heuristic estimate in centipoints; positive favours the side to move.
    Cp(i32),
}

impl fmt::Display for Score {
    /// Wire form: `mate N` or `cp N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Mate(n) => write!(f, "mate {n}"),
            Score::Cp(n) => write!(f, "cp {n}"),
        }
    }
}

/// How a reported score relates to the true value: nothing, `lowerbound` or `upperbound`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum Bound {
    /// No qualifier: the score is the value.
    #[default]
    Exact,
    /// `lowerbound`: the true value is at least the score.
    Lower,
    /// `upperbound`: the true value is at most the score.
    Upper,
}
