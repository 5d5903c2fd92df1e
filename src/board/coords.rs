//! Board sizes, squares, square names and players.

use std::fmt;
use std::str::FromStr;

use super::bitboard::Word;

/// Smallest board width or height.
pub const MIN_SIDE: u8 = 3;
/// Largest board width or height.
pub const MAX_SIDE: u8 = 11;
/// Largest number of squares on any board (11×11).
pub const MAX_SQUARES: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// A square, as its index `rank * width + file` on a board of known width.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// The square with the given index.
    #[inline(always)]
    pub const fn from_index(index: u8) -> Self {
        Square(index)
    }

    /// The index of the square.
    #[inline(always)]
    pub const fn index(self) -> u8 {
        self.0
    }
}

/// One of the two players.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Side {
    /// Moves first and owns the bottom-left corner.
    One,
    /// Moves second and owns the top-right corner.
    Two,
}

impl Side {
    /// Both players, in turn order.
    pub const BOTH: [Side; 2] = [Side::One, Side::Two];

    /// 0 for player 1, 1 for player 2.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other player.
    #[inline(always)]
    pub const fn opponent(self) -> Side {
        match self {
            Side::One => Side::Two,
            Side::Two => Side::One,
        }
    }

    /// The player's number as written in positions and results: 1 or 2.
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }
}

impl std::ops::Not for Side {
    type Output = Side;
    #[inline(always)]
    fn not(self) -> Side {
        self.opponent()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}

/// The dimensions of a board: `width` files by `height` ranks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Size {
    width: u8,
    height: u8,
}

/// Why a board size was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SizeError {
    /// The text is not of the form `WxH`.
    Malformed(String),
    /// A side is outside 3..=11.
    OutOfRange {
        /// The requested width.
        width: usize,
        /// The requested height.
        height: usize,
    },
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::Malformed(text) => write!(
                f,
                "board size '{text}' is malformed: expected WIDTHxHEIGHT such as 7x7"
            ),
            SizeError::OutOfRange { width, height } => write!(
                f,
                "board size {width}x{height} is out of range: width and height must each be from {MIN_SIDE} to {MAX_SIDE}"
            ),
        }
    }
}

impl std::error::Error for SizeError {}

/// Why a square name was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SquareError {
    /// The text is not a file letter followed by a rank number.
    Malformed(String),
    /// The name is well formed but lies outside the board.
    OffBoard {
        /// The square as written.
        name: String,
        /// The board it was read against.
        size: Size,
    },
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Malformed(text) => write!(
                f,
                "'{text}' is not a square: expected a file letter and a rank number such as d4"
            ),
            SquareError::OffBoard { name, size } => {
                write!(f, "{name} is off the {size} board")
            }
        }
    }
}

impl std::error::Error for SquareError {}

impl Size {
    /// The default board, 7×7.
    pub const DEFAULT: Size = Size {
        width: 7,
        height: 7,
    };

    /// A board of `width` × `height`, both from 3 to 11.
    pub fn new(width: usize, height: usize) -> Result<Size, SizeError> {
        let range = MIN_SIDE as usize..=MAX_SIDE as usize;
        if range.contains(&width) && range.contains(&height) {
            Ok(Size {
                width: width as u8,
                height: height as u8,
            })
        } else {
            Err(SizeError::OutOfRange { width, height })
        }
    }

    /// Number of files.
    #[inline(always)]
    pub const fn width(self) -> usize {
        self.width as usize
    }

    /// Number of ranks.
    #[inline(always)]
    pub const fn height(self) -> usize {
        self.height as usize
    }

    /// Number of squares.
    #[inline(always)]
    pub const fn squares(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Whether a bitboard of word `W` can hold this board.
    pub fn fits<W: Word>(self) -> bool {
        self.squares() <= W::BITS as usize
    }

    /// The square on `file` and `rank`, both counted from zero.
    pub fn square(self, file: usize, rank: usize) -> Option<Square> {
        (file < self.width() && rank < self.height())
            .then(|| Square::from_index((rank * self.width() + file) as u8))
    }

    /// The file of a square, counted from zero.
    #[inline(always)]
    pub const fn file(self, square: Square) -> usize {
        square.index() as usize % self.width as usize
    }

    /// The rank of a square, counted from zero.
    #[inline(always)]
    pub const fn rank(self, square: Square) -> usize {
        square.index() as usize / self.width as usize
    }

    /// Whether the square index lies on this board.
    pub fn contains(self, square: Square) -> bool {
        (square.index() as usize) < self.squares()
    }

    /// The default start square: file ⌊W/2⌋, rank ⌊H/2⌋.
    pub fn default_start(self) -> Square {
        Square::from_index((self.height() / 2 * self.width() + self.width() / 2) as u8)
    }

    /// The two starts that benchmarks and the opening book cover: the default start
    /// and the square one up and right of it (d4 and e5, the Portuguese custom, on
    /// 7×7), or the default twice where that square is off the board.
    pub fn usual_starts(self) -> [Square; 2] {
        let up_right = self
            .square(self.width() / 2 + 1, self.height() / 2 + 1)
            .unwrap_or(self.default_start());
        [self.default_start(), up_right]
    }

    /// The goal corner owned by `player`: a1 for player 1, the top-right corner for player 2.
    #[inline(always)]
    pub const fn goal(self, player: Side) -> Square {
        match player {
            Side::One => Square::from_index(0),
            Side::Two => Square::from_index((self.width as usize * self.height as usize - 1) as u8),
        }
    }

    /// The player owning `square` if it is a goal corner.
    #[inline(always)]
    pub fn goal_owner(self, square: Square) -> Option<Side> {
        if square == self.goal(Side::One) {
            Some(Side::One)
        } else if square == self.goal(Side::Two) {
            Some(Side::Two)
        } else {
            None
        }
    }

    /// Whether two squares are a king step apart.
    pub fn adjacent(self, a: Square, b: Square) -> bool {
        a != b
            && self.file(a).abs_diff(self.file(b)) <= 1
            && self.rank(a).abs_diff(self.rank(b)) <= 1
    }

    /// A displayable name for the square, such as `d4`.
    pub fn name(self, square: Square) -> SquareName {
        SquareName {
            file: self.file(square) as u8,
            rank: self.rank(square) as u8,
        }
    }

    /// Reads a square name such as `d4` or `k11` against this board.
    pub fn parse_square(self, text: &str) -> Result<Square, SquareError> {
        self.resolve(text.parse()?)
    }

    /// The square a name refers to on this board, or why it is not on it.
    pub fn resolve(self, name: SquareName) -> Result<Square, SquareError> {
        self.square(name.file as usize, name.rank as usize)
            .ok_or(SquareError::OffBoard {
                name: name.to_string(),
                size: self,
            })
    }
}

impl Default for Size {
    fn default() -> Self {
        Size::DEFAULT
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Size {
    type Err = SizeError;

    /// Reads `WxH` (also `W×H` or `WXH`); a single number `N` means N×N.
    fn from_str(text: &str) -> Result<Size, SizeError> {
        let malformed = || SizeError::Malformed(text.to_string());
        let number = |part: &str| -> Result<usize, SizeError> {
            if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(malformed());
            }
            part.parse().map_err(|_| malformed())
        };
        let trimmed = text.trim();
        let parts: Vec<&str> = trimmed.split(['x', 'X', '×']).collect();
        match parts.as_slice() {
            [side] => {
                let n = number(side)?;
                Size::new(n, n)
            }
            [w, h] => Size::new(number(w)?, number(h)?),
            _ => Err(malformed()),
        }
    }
}

/// The name of a square, such as `d4`, independent of any board size.
///
/// A file letter `a`–`z` and a rank number 1–99 without leading zeros; whether the
/// square exists is a question for a [`Size`] ([`Size::resolve`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SquareName {
    file: u8,
    rank: u8,
}

impl SquareName {
    /// The name of the square on `file` and `rank`, both counted from zero.
    pub fn new(file: u8, rank: u8) -> Self {
        SquareName { file, rank }
    }

    /// The file, counted from zero.
    pub fn file(self) -> u8 {
        self.file
    }

    /// The rank, counted from zero.
    pub fn rank(self) -> u8 {
        self.rank
    }
}

impl FromStr for SquareName {
    type Err = SquareError;

    fn from_str(text: &str) -> Result<SquareName, SquareError> {
        let malformed = || SquareError::Malformed(text.chars().take(24).collect());
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or_else(malformed)?;
        if !letter.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.iter().all(u8::is_ascii_digit)
            || digits[0] == b'0'
        {
            return Err(malformed());
        }
        let rank = digits.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        Ok(SquareName {
            file: letter - b'a',
            rank: rank - 1,
        })
    }
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file) as char,
            u16::from(self.rank) + 1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_validate() {
        assert_eq!("7x7".parse::<Size>(), Ok(Size::DEFAULT));
        assert_eq!(
            "8×6".parse::<Size>().map(|s| (s.width(), s.height())),
            Ok((8, 6))
        );
        assert_eq!("9".parse::<Size>().map(|s| s.squares()), Ok(81));
        assert_eq!(
            "2x7".parse::<Size>(),
            Err(SizeError::OutOfRange {
                width: 2,
                height: 7
            })
        );
        assert_eq!(
            "12x3".parse::<Size>(),
            Err(SizeError::OutOfRange {
                width: 12,
                height: 3
            })
        );
        for bad in ["", "x", "7x", "7x7x7", "-7x7", "seven", "7 x7"] {
            assert!(
                matches!(bad.parse::<Size>(), Err(SizeError::Malformed(_))),
                "{bad:?}"
            );
        }
        assert!(
            SizeError::OutOfRange {
                width: 2,
                height: 7
            }
            .to_string()
            .contains("from 3 to 11")
        );
    }

    #[test]
    fn squares_are_named_from_a1() {
        let size = Size::DEFAULT;
        assert_eq!(size.default_start(), size.parse_square("d4").unwrap());
        assert_eq!(size.name(size.goal(Side::Two)).to_string(), "g7");
        assert_eq!(size.name(size.goal(Side::One)).to_string(), "a1");
        let big = Size::new(11, 11).unwrap();
        assert_eq!(big.name(big.goal(Side::Two)).to_string(), "k11");
        assert_eq!(big.parse_square("k11"), Ok(big.goal(Side::Two)));
        assert_eq!(
            Size::new(8, 8).unwrap().default_start(),
            Size::new(8, 8).unwrap().parse_square("e5").unwrap()
        );
    }

    #[test]
    fn bad_square_names_say_why() {
        let size = Size::DEFAULT;
        assert_eq!(
            size.parse_square("e9").unwrap_err().to_string(),
            "e9 is off the 7x7 board"
        );
        assert!(matches!(
            size.parse_square("h1"),
            Err(SquareError::OffBoard { .. })
        ));
        assert_eq!(
            size.parse_square("z99").unwrap_err().to_string(),
            "z99 is off the 7x7 board"
        );
        for bad in [
            "", "4d", "d", "d0", "D4", "d04", "d-1", "dd", "d4x", "a100", "é4",
        ] {
            assert!(
                matches!(size.parse_square(bad), Err(SquareError::Malformed(_))),
                "{bad:?}"
            );
        }
    }
}
