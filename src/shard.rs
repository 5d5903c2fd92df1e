//! [`Shard`]: the `K`-th of `N` shares of a list of work, counted from 1, as a
//! tournament schedule or the sub-problems of a proof are shared out between
//! processes (one per batch-scheduler array task, for example).
//!
//! Written `K/N`; parsed once, here, with a typed error.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// What a shard is written as, for error messages.
const EXPECTED: &str = "expected K/N with 1 <= K <= N, such as 2/8";

/// The `K`-th of `N` shares of a list (`K` from 1): the items whose index `i`
/// (from 0) leaves `K - 1` when divided by `N`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Shard {
    /// Which share, from 1 to `count`.
    pub index: usize,
    /// How many shares.
    pub count: usize,
}

impl Shard {
    /// The whole list: the first and only share.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// The `index`-th of `count` shares, if `1 <= index <= count`.
    pub fn new(index: usize, count: usize) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }

    /// Whether item number `item` (from 0) of the list belongs to this share.
    pub fn owns(self, item: usize) -> bool {
        item % self.count == self.index - 1
    }
}

/// Why a text is not a shard.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ShardError {
    /// The text is not two whole numbers separated by `/`.
    NotAShard(String),
    /// Two numbers, but not `1 <= K <= N`.
    OutOfRange(String),
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::NotAShard(text) => write!(f, "`{text}` is not a shard: {EXPECTED}"),
            ShardError::OutOfRange(text) => write!(f, "shard {text} is out of range: {EXPECTED}"),
        }
    }
}

impl std::error::Error for ShardError {}

impl FromStr for Shard {
    type Err = ShardError;

    /// Reads `K/N`; white space around either number is allowed.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let not_a_shard = || ShardError::NotAShard(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(not_a_shard)?;
        let k: usize = k.trim().parse().map_err(|_| not_a_shard())?;
        let n: usize = n.trim().parse().map_err(|_| not_a_shard())?;
        Shard::new(k, n).ok_or_else(|| ShardError::OutOfRange(text.to_string()))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_reads_and_prints_as_k_of_n() {
        assert_eq!("2/8".parse(), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(" 3 / 4 ".parse(), Ok(Shard { index: 3, count: 4 }));
        assert_eq!("1/1".parse(), Ok(Shard::WHOLE));
        assert_eq!(Shard { index: 2, count: 8 }.to_string(), "2/8");
        for text in ["1/1", "1/2", "2/2", "7/11", "11/11"] {
            let shard: Shard = text.parse().unwrap();
            assert_eq!(shard.to_string(), text);
        }
    }

    #[test]
    fn a_bad_shard_says_what_was_found_and_what_was_expected() {
        for bad in [
            "x", "1-3", "/3", "3/", "", "1/2/3", "a/b", "-1/2", "1.0/2", "1",
        ] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ShardError::NotAShard(bad.to_string())),
                "{bad:?}"
            );
            let message = bad.parse::<Shard>().unwrap_err().to_string();
            assert_eq!(
                message,
                format!("`{bad}` is not a shard: expected K/N with 1 <= K <= N, such as 2/8")
            );
        }
        for bad in ["0/3", "4/3", "1/0", "0/0", "3/2"] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(ShardError::OutOfRange(bad.to_string())),
                "{bad:?}"
            );
            let message = bad.parse::<Shard>().unwrap_err().to_string();
            assert_eq!(
                message,
                format!("shard {bad} is out of range: expected K/N with 1 <= K <= N, such as 2/8")
            );
        }
    }

    #[test]
    fn the_shares_of_a_list_are_disjoint_and_cover_it() {
        let owners = |shard: Shard| -> Vec<usize> { (0..10).filter(|&i| shard.owns(i)).collect() };
        assert_eq!(owners(Shard::WHOLE), (0..10).collect::<Vec<_>>());
        assert_eq!(owners(Shard::new(1, 3).unwrap()), [0, 3, 6, 9]);
        assert_eq!(owners(Shard::new(2, 3).unwrap()), [1, 4, 7]);
        assert_eq!(owners(Shard::new(3, 3).unwrap()), [2, 5, 8]);
        assert_eq!(owners(Shard::new(12, 12).unwrap()), Vec::<usize>::new());
        assert_eq!(Shard::new(0, 3), None);
        assert_eq!(Shard::new(4, 3), None);
    }

    #[test]
    fn a_shard_is_stored_as_its_index_and_count() {
        let shard = Shard { index: 2, count: 5 };
        let json = serde_json::to_string(&shard).unwrap();
        assert_eq!(json, r#"{"index":2,"count":5}"#);
        assert_eq!(serde_json::from_str::<Shard>(&json).unwrap(), shard);
    }
}
