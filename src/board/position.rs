//! The game state: where the snail is, which squares are slimed, whose turn it is.

use std::fmt;

use super::bitboard::{Bitboard, Word};
use super::coords::{Side, Size, Square, SquareError, SquareName};
use super::geometry::Geometry;

/// How a finished game was decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum WinReason {
    /// The snail entered a goal corner; its owner wins whoever moved it there.
    GoalReached,
    /// The player to move had no legal move.
    NoLegalMove,
}

impl fmt::Display for WinReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WinReason::GoalReached => "goal reached",
            WinReason::NoLegalMove => "no legal move",
        })
    }
}

/// Whether the game goes on, or who won and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// The player to move has a legal move.
    Ongoing,
    /// The game is over.
    Decided {
        /// The winner.
        winner: Side,
        /// Why the game ended.
        reason: WinReason,
    },
}

impl Outcome {
    /// The winner, if the game is over.
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Ongoing => None,
            Outcome::Decided { winner, .. } => Some(winner),
        }
    }

    /// Whether the game is over.
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }
}

/// Why a move cannot be played in a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The game has ended; no move can be played.
    GameOver,
    /// The target square is slimed.
    Slimed(SquareName),
    /// The target square is where the snail already is.
    SnailSquare(SquareName),
    /// The target square is not a king step from the snail.
    NotAdjacent {
        /// The requested square.
        target: SquareName,
        /// Where the snail is.
        snail: SquareName,
    },
    /// The target square index lies outside the board.
    OffBoard {
        /// The square's index in the board's bit layout.
        index: u8,
        /// Where the snail is.
        snail: SquareName,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::Slimed(sq) => write!(f, "{sq} is slimed"),
            IllegalMove::SnailSquare(sq) => write!(
                f,
                "{sq} is the snail's own square: a move steps to a neighbouring square"
            ),
            IllegalMove::NotAdjacent { target, snail } => {
                write!(f, "{target} is not next to the snail on {snail}")
            }
            IllegalMove::OffBoard { index, snail } => {
                write!(f, "square {index} is not next to the snail on {snail}")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why a move given as text was rejected: unreadable, or readable but illegal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// The text does not name a square of this board.
    Unparsable(SquareError),
    /// The square exists but the move is not legal here.
    Illegal(IllegalMove),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Unparsable(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a start square was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StartError {
    /// The name is not a square of the board.
    Square(SquareError),
    /// The square is a goal corner.
    OnGoal(String),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Square(e) => write!(f, "bad start square: {e}"),
            StartError::OnGoal(sq) => write!(
                f,
                "the start square {sq} is a goal corner: expected any other square"
            ),
        }
    }
}

impl std::error::Error for StartError {}

/// A position: the snail's square, the squares still open, and the side to move.
///
/// `W` is the storage word; the default `u128` holds every board size, while
/// search code narrows to `u64` whenever the board fits.
#[derive(Clone, Copy)]
pub struct Position<W: Word = u128> {
    geometry: &'static Geometry<W>,
    /// Squares the snail may still enter: neither slimed nor under the snail.
    open: Bitboard<W>,
    snail: Square,
    side: Side,
}

impl<W: Word> PartialEq for Position<W> {
    fn eq(&self, other: &Self) -> bool {
        self.size() == other.size()
            && self.open == other.open
            && self.snail == other.snail
            && self.side == other.side
    }
}

impl<W: Word> Eq for Position<W> {}

impl<W: Word> std::hash::Hash for Position<W> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.size().hash(state);
        self.open.hash(state);
        self.snail.hash(state);
        self.side.hash(state);
    }
}

impl<W: Word> fmt::Debug for Position<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl<W: Word> Position<W> {
    /// The starting position on `size` with the snail on the default start square.
    pub fn start(size: Size) -> Self {
        Self::from_parts(size, Bitboard::EMPTY, size.default_start(), Side::One)
    }

    /// The starting position with the snail on `start`, which must not be a goal corner.
    pub fn start_at(size: Size, start: Square) -> Result<Self, StartError> {
        if size.goal_owner(start).is_some() {
            return Err(StartError::OnGoal(size.name(start).to_string()));
        }
        Ok(Self::from_parts(size, Bitboard::EMPTY, start, Side::One))
    }

    /// The starting position with the snail on the named square.
    pub fn start_named(size: Size, start: &str) -> Result<Self, StartError> {
        let square = size.parse_square(start).map_err(StartError::Square)?;
        Self::start_at(size, square)
    }

    /// A position from its parts. The slime set must not hold the snail's square;
    /// validation of user input happens in the position-string parser.
    pub(crate) fn from_parts(size: Size, slimed: Bitboard<W>, snail: Square, side: Side) -> Self {
        let geometry = Geometry::of(size);
        let open = geometry.all() - slimed - Bitboard::from_square(snail);
        Position {
            geometry,
            open,
            snail,
            side,
        }
    }

    /// The board size.
    #[inline(always)]
    pub fn size(&self) -> Size {
        self.geometry.size()
    }

    /// The precomputed geometry of the board.
    #[inline(always)]
    pub fn geometry(&self) -> &'static Geometry<W> {
        self.geometry
    }

    /// The snail's square.
    #[inline(always)]
    pub fn snail(&self) -> Square {
        self.snail
    }

    /// The player to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The squares the snail may still enter: not slimed and not under the snail.
    #[inline(always)]
    pub fn open(&self) -> Bitboard<W> {
        self.open
    }

    /// The slimed squares.
    #[inline(always)]
    pub fn slimed(&self) -> Bitboard<W> {
        self.geometry.all() - self.open - Bitboard::from_square(self.snail)
    }

    /// The player whose goal the snail stands on, if any.
    #[inline(always)]
    pub fn goal_reached(&self) -> Option<Side> {
        self.size().goal_owner(self.snail)
    }

    /// The legal moves, as the set of destination squares (empty once the game is over).
    #[inline(always)]
    pub fn moves(&self) -> Bitboard<W> {
        if self.goal_reached().is_some() {
            return Bitboard::EMPTY;
        }
        self.geometry.neighbours(self.snail) & self.open
    }

    /// Whether the game goes on, or who won and why.
    pub fn outcome(&self) -> Outcome {
        if let Some(owner) = self.goal_reached() {
            Outcome::Decided {
                winner: owner,
                reason: WinReason::GoalReached,
            }
        } else if self.moves().is_empty() {
            Outcome::Decided {
                winner: !self.side,
                reason: WinReason::NoLegalMove,
            }
        } else {
            Outcome::Ongoing
        }
    }

    /// Plays a legal move to `to` in place and returns the square the snail left,
    /// which [`Position::undo`] needs. The move must be legal (checked in debug builds).
    #[inline(always)]
    pub fn play(&mut self, to: Square) -> Square {
        debug_assert!(self.moves().contains(to), "illegal move in play()");
        let from = self.snail;
        self.open ^= Bitboard::from_square(to);
        self.snail = to;
        self.side = !self.side;
        from
    }

    /// Takes back the last move, which left `from`.
    #[inline(always)]
    pub fn undo(&mut self, from: Square) {
        self.open |= Bitboard::from_square(self.snail);
        self.snail = from;
        self.side = !self.side;
    }

    /// The position after a legal move to `to`.
    #[inline(always)]
    pub fn after(&self, to: Square) -> Self {
        let mut next = *self;
        next.play(to);
        next
    }

    /// Checks that a move to `to` is legal here, and says why not otherwise.
    pub fn check_move(&self, to: Square) -> Result<(), IllegalMove> {
        let size = self.size();
        let name = |sq: Square| size.name(sq);
        if self.outcome().is_over() {
            Err(IllegalMove::GameOver)
        } else if !size.contains(to) {
            Err(IllegalMove::OffBoard {
                index: to.index(),
                snail: name(self.snail),
            })
        } else if to == self.snail {
            Err(IllegalMove::SnailSquare(name(to)))
        } else if !self.geometry.neighbours(self.snail).contains(to) {
            Err(IllegalMove::NotAdjacent {
                target: name(to),
                snail: name(self.snail),
            })
        } else if !self.open.contains(to) {
            Err(IllegalMove::Slimed(name(to)))
        } else {
            Ok(())
        }
    }

    /// Plays `to` after checking that it is legal.
    pub fn try_play(&mut self, to: Square) -> Result<Square, IllegalMove> {
        self.check_move(to)?;
        Ok(self.play(to))
    }

    /// Reads a move written as its destination square and checks that it is legal.
    pub fn parse_move(&self, text: &str) -> Result<Square, MoveError> {
        let to = self
            .size()
            .parse_square(text)
            .map_err(MoveError::Unparsable)?;
        self.check_move(to).map_err(MoveError::Illegal)?;
        Ok(to)
    }

    /// The name of a square of this board, such as `d4`.
    pub fn name(&self, square: Square) -> String {
        self.size().name(square).to_string()
    }

    /// The position mirrored in the a1 diagonal (files and ranks swapped), which has
    /// the same value: the mirror keeps both goal corners. On a board that is not
    /// square, the position itself.
    pub fn mirrored(&self) -> Self {
        if !self.geometry.is_square() {
            return *self;
        }
        Position {
            geometry: self.geometry,
            open: self.geometry.mirror(self.open),
            snail: self.geometry.mirror_square(self.snail),
            side: self.side,
        }
    }

    /// The same position stored in another word, if the board fits in it.
    pub fn convert<V: Word>(&self) -> Option<Position<V>> {
        self.size().fits::<V>().then(|| Position {
            geometry: Geometry::of(self.size()),
            open: self.open.convert(),
            snail: self.snail,
            side: self.side,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(size: Size, name: &str) -> Square {
        size.parse_square(name).unwrap()
    }

    #[test]
    fn start_position_has_eight_moves() {
        let pos: Position = Position::start(Size::DEFAULT);
        assert_eq!(pos.moves().len(), 8);
        assert_eq!(pos.side_to_move(), Side::One);
        assert_eq!(pos.outcome(), Outcome::Ongoing);
        assert!(pos.slimed().is_empty());
    }

    #[test]
    fn play_and_undo_restore_the_position() {
        let size = Size::DEFAULT;
        let start: Position<u64> = Position::start(size);
        let mut pos = start;
        let from = pos.play(square(size, "c3"));
        assert_eq!(pos.side_to_move(), Side::Two);
        assert!(pos.slimed().contains(square(size, "d4")));
        assert!(!pos.moves().contains(square(size, "d4")));
        pos.undo(from);
        assert_eq!(pos, start);
    }

    #[test]
    fn entering_a_goal_wins_for_its_owner_whoever_moves() {
        let size = Size::DEFAULT;
        let mut pos: Position = Position::start_at(size, square(size, "b2")).unwrap();
        // Side 1 steps into its own corner and wins.
        pos.play(square(size, "a1"));
        assert_eq!(
            pos.outcome(),
            Outcome::Decided {
                winner: Side::One,
                reason: WinReason::GoalReached
            }
        );
        assert!(pos.moves().is_empty());
        let mut pos: Position = Position::start_at(size, square(size, "f6")).unwrap();
        pos.play(square(size, "g7"));
        assert_eq!(pos.outcome().winner(), Some(Side::Two));
    }

    #[test]
    fn illegal_moves_say_why() {
        let size = Size::DEFAULT;
        let mut pos: Position = Position::start(size);
        pos.play(square(size, "c3"));
        let err = |pos: &Position, text: &str| pos.parse_move(text).unwrap_err().to_string();
        assert_eq!(err(&pos, "d4"), "d4 is slimed");
        assert_eq!(err(&pos, "f6"), "f6 is not next to the snail on c3");
        assert_eq!(err(&pos, "e9"), "e9 is off the 7x7 board");
        assert!(err(&pos, "c3").contains("snail's own square"));
        assert!(matches!(
            pos.parse_move("zz"),
            Err(MoveError::Unparsable(_))
        ));
        pos.play(square(size, "b2"));
        pos.play(square(size, "a1"));
        assert_eq!(err(&pos, "b1"), "the game is over");
    }

    #[test]
    fn a_boxed_in_snail_loses_for_the_side_to_move() {
        let size = Size::new(3, 3).unwrap();
        // Snail on a3 (file 0, rank 2) with a2, b2, b3 slimed: no move left.
        let slimed: Bitboard = ["a2", "b2", "b3"].iter().map(|n| square(size, n)).collect();
        let pos: Position = Position::from_parts(size, slimed, square(size, "a3"), Side::Two);
        assert_eq!(
            pos.outcome(),
            Outcome::Decided {
                winner: Side::One,
                reason: WinReason::NoLegalMove
            }
        );
    }

    #[test]
    fn start_on_a_goal_corner_is_rejected() {
        let size = Size::DEFAULT;
        assert!(matches!(
            Position::<u128>::start_named(size, "g7"),
            Err(StartError::OnGoal(_))
        ));
        assert!(matches!(
            Position::<u128>::start_named(size, "z1"),
            Err(StartError::Square(_))
        ));
        assert!(Position::<u128>::start_named(size, "e5").is_ok());
    }

    #[test]
    fn conversion_between_words_keeps_the_position() {
        let size = Size::DEFAULT;
        let mut wide: Position = Position::start(size);
        wide.play(square(size, "e5"));
        let narrow = wide.convert::<u64>().unwrap();
        assert_eq!(narrow.convert::<u128>().unwrap(), wide);
        assert!(
            Position::<u128>::start(Size::new(9, 9).unwrap())
                .convert::<u64>()
                .is_none()
        );
    }
}
