//! The value vocabulary shared by the search and the wire format: a [`Score`] from the
//! side to move's point of view and the [`Bound`] that says how it relates to the true
//! value. One type each, so the engine core and the protocol need no conversions.

use std::fmt;

/// A score from the point of view of the side to move, as `score cp N` or `score mate N`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Score {
    /// A proven result: `Mate(n)` with `n > 0` wins in `n` plies, `n < 0` loses in `-n` plies.
    Mate(i32),
    /// A heuristic estimate in centipoints; positive favours the side to move.
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
    /// No qualifier: the score is the value (for mates: the exact distance under best play).
    #[default]
    Exact,
    /// `lowerbound`: the true value is at least the score (a win may be faster than reported).
    Lower,
    /// `upperbound`: the true value is at most the score.
    Upper,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_in_their_wire_form() {
        assert_eq!(Score::Mate(-3).to_string(), "mate -3");
        assert_eq!(Score::Cp(12).to_string(), "cp 12");
        assert_eq!(Bound::default(), Bound::Exact);
    }
}
