//! An exact oracle for Slime Trail, independent of the engine's search code.
//!
//! It is written straight from the rules of the contract on its own grid of
//! cells: the snail steps to a neighbouring (king step) square that is not
//! slimed, the square it leaves is slimed, entering a goal corner wins for the
//! corner's owner whoever moves there, and a player with no legal move loses.
//! Values are computed by plain memoized negamax over the whole game tree, keyed
//! on (the open squares the snail can still reach, snail, side to move); nothing is
//! pruned, so the distance under best play (the winner hurries, the loser delays) is
//! exact. The test `oracle_region_key_changes_no_value` checks the key against a
//! negamax without any memo.
//!
//! The engine's `board::Position` is only used to translate to and from position
//! strings, and the translation goes through the position string itself.

pub mod check;
pub mod positions;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use slimetrail::board::Position;

/// A value for the side to move: who wins, and in how many plies under best play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value {
    /// The side to move wins in exactly this many plies.
    Win(u32),
    /// The side to move loses in exactly this many plies.
    Loss(u32),
}

impl Value {
    /// Whether the side to move wins.
    pub fn is_win(self) -> bool {
        matches!(self, Value::Win(_))
    }

    /// Plies to the end of the game under best play.
    pub fn distance(self) -> u32 {
        match self {
            Value::Win(d) | Value::Loss(d) => d,
        }
    }

    /// The value one ply earlier, for the player who moved into this position.
    pub fn parent(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// Whether `self` is better than `other` for the side to move.
    pub fn better_than(self, other: Value) -> bool {
        match (self, other) {
            (Value::Win(a), Value::Win(b)) => a < b,
            (Value::Loss(a), Value::Loss(b)) => a > b,
            (Value::Win(_), Value::Loss(_)) => true,
            (Value::Loss(_), Value::Win(_)) => false,
        }
    }

    fn encode(self) -> i8 {
        match self {
            Value::Win(d) => d as i8,
            Value::Loss(d) => -(d as i8),
        }
    }

    fn decode(code: i8) -> Value {
        if code > 0 {
            Value::Win(code as u32)
        } else {
            Value::Loss(code.unsigned_abs() as u32)
        }
    }
}

/// The board: its size and the king-step neighbours of every cell.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Number of files.
    pub width: usize,
    /// Number of ranks.
    pub height: usize,
    neighbours: Vec<u64>,
}

impl Grid {
    /// A grid of `width` × `height` cells (at most 56, so a state packs into one word).
    pub fn new(width: usize, height: usize) -> Grid {
        assert!(
            width * height <= 56,
            "the oracle handles boards of up to 56 cells"
        );
        let mut neighbours = vec![0u64; width * height];
        for rank in 0..height {
            for file in 0..width {
                for dr in -1i32..=1 {
                    for df in -1i32..=1 {
                        let (r, f) = (rank as i32 + dr, file as i32 + df);
                        if (dr, df) != (0, 0)
                            && (0..height as i32).contains(&r)
                            && (0..width as i32).contains(&f)
                        {
                            neighbours[rank * width + file] |=
                                1 << (r as usize * width + f as usize);
                        }
                    }
                }
            }
        }
        Grid {
            width,
            height,
            neighbours,
        }
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The cell on `file` and `rank`, counted from zero at a1.
    pub fn cell(&self, file: usize, rank: usize) -> usize {
        rank * self.width + file
    }

    /// The goal corner of `side` (0: player 1 owns a1, 1: player 2 the top-right corner).
    pub fn goal(&self, side: usize) -> usize {
        if side == 0 { 0 } else { self.cells() - 1 }
    }

    /// The owner of a goal corner.
    pub fn goal_owner(&self, cell: usize) -> Option<usize> {
        (0..2).find(|&side| self.goal(side) == cell)
    }

    /// King-step neighbours of a cell.
    pub fn neighbours(&self, cell: usize) -> u64 {
        self.neighbours[cell]
    }

    /// The name of a cell, such as `d4`.
    pub fn name(&self, cell: usize) -> String {
        format!(
            "{}{}",
            (b'a' + (cell % self.width) as u8) as char,
            cell / self.width + 1
        )
    }

    /// Open cells reachable from the snail by king steps through open cells;
    /// goal corners count but are not passed through (entering one ends the game).
    pub fn region(&self, state: &State) -> u64 {
        let goals = (1u64 << self.goal(0)) | (1u64 << self.goal(1));
        let mut seen = self.neighbours(state.snail) & state.open;
        let mut frontier = seen & !goals;
        while frontier != 0 {
            let cell = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let fresh = self.neighbours(cell) & state.open & !seen;
            seen |= fresh;
            frontier |= fresh & !goals;
        }
        seen
    }
}

/// A state of the game on a [`Grid`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct State {
    /// Cells neither slimed nor under the snail.
    pub open: u64,
    /// The snail's cell.
    pub snail: usize,
    /// Side to move: 0 for player 1, 1 for player 2.
    pub side: usize,
}

impl State {
    /// The start of a game with the snail on `snail`.
    pub fn start(grid: &Grid, snail: usize) -> State {
        let all = (1u64 << grid.cells()) - 1;
        State {
            open: all & !(1u64 << snail),
            snail,
            side: 0,
        }
    }

    /// The legal destinations (none once the snail stands on a goal corner).
    pub fn moves(&self, grid: &Grid) -> u64 {
        if grid.goal_owner(self.snail).is_some() {
            0
        } else {
            grid.neighbours(self.snail) & self.open
        }
    }

    /// The state after moving to `to`: the square left is slimed.
    pub fn after(&self, to: usize) -> State {
        State {
            open: self.open & !(1u64 << to),
            snail: to,
            side: 1 - self.side,
        }
    }

    /// The winner if the game is over: the owner of an entered goal, or the
    /// opponent of a side with no legal move.
    pub fn winner(&self, grid: &Grid) -> Option<usize> {
        if let Some(owner) = grid.goal_owner(self.snail) {
            Some(owner)
        } else if self.moves(grid) == 0 {
            Some(1 - self.side)
        } else {
            None
        }
    }

    /// The position string: rows from the top, runs of free cells as counts,
    /// `x` slime, `s` the snail, then the side to move.
    pub fn to_fen(self, grid: &Grid) -> String {
        let mut rows = Vec::new();
        for rank in (0..grid.height).rev() {
            let mut row = String::new();
            let mut run = 0;
            for file in 0..grid.width {
                let cell = grid.cell(file, rank);
                if cell != self.snail && self.open & (1u64 << cell) != 0 {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    row += &run.to_string();
                    run = 0;
                }
                row.push(if cell == self.snail { 's' } else { 'x' });
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        format!("{} {}", rows.join("/"), self.side + 1)
    }

    /// The engine's position for this state, checked to print back the same string.
    pub fn to_position(self, grid: &Grid) -> Position {
        let fen = self.to_fen(grid);
        let position: Position = fen
            .parse()
            .unwrap_or_else(|e| panic!("the position string {fen} is rejected: {e}"));
        assert_eq!(position.to_string(), fen, "position string round trip");
        position
    }
}

/// A hasher for the memo table: the keys are already well mixed by a multiply.
#[derive(Default)]
pub struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0xD6E8_FEB8_6659_FD93)
            .rotate_left(23);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type Memo<V> = HashMap<u64, V, BuildHasherDefault<MixHasher>>;

/// The memo key of a state: its region (the open cells the snail can still reach,
/// [`Grid::region`]), snail and side packed in one word. Open cells outside the region
/// can never be entered, so states that differ only there have the same value.
fn key(grid: &Grid, state: &State) -> u64 {
    grid.region(state) | (state.snail as u64) << 56 | (state.side as u64) << 63
}

/// The memoized exact solver of one grid.
pub struct Oracle {
    /// The board.
    pub grid: Grid,
    exact: Memo<i8>,
    verdicts: Memo<bool>,
}

impl Oracle {
    /// An oracle for the given board.
    pub fn new(grid: Grid) -> Oracle {
        Oracle {
            grid,
            exact: Memo::default(),
            verdicts: Memo::default(),
        }
    }

    /// Forgets the memo tables, to bound memory.
    pub fn clear(&mut self) {
        self.exact = Memo::default();
        self.verdicts = Memo::default();
    }

    /// The value of moving to `to` from `state`, for the side that moves.
    pub fn move_value(&mut self, state: &State, to: usize) -> Value {
        let child = state.after(to);
        match child.winner(&self.grid) {
            Some(winner) if winner == state.side => Value::Win(1),
            Some(_) => Value::Loss(1),
            None => self.value(&child).parent(),
        }
    }

    /// The exact value of an ongoing state: who wins and in how many plies.
    pub fn value(&mut self, state: &State) -> Value {
        assert!(
            state.winner(&self.grid).is_none(),
            "value() is for ongoing games"
        );
        let key = key(&self.grid, state);
        if let Some(&code) = self.exact.get(&key) {
            return Value::decode(code);
        }
        let mut best: Option<Value> = None;
        let mut moves = state.moves(&self.grid);
        while moves != 0 {
            let to = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let value = self.move_value(state, to);
            if best.is_none_or(|b| value.better_than(b)) {
                best = Some(value);
            }
        }
        let best = best.expect("an ongoing state has a move");
        self.exact.insert(key, best.encode());
        best
    }

    /// The value of every legal move, in cell order.
    pub fn move_values(&mut self, state: &State) -> Vec<(usize, Value)> {
        let mut out = Vec::new();
        let mut moves = state.moves(&self.grid);
        while moves != 0 {
            let to = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            out.push((to, self.move_value(state, to)));
        }
        out
    }

    /// Whether the side to move wins an ongoing state. Cheaper than [`Oracle::value`]
    /// on large regions: it stops at the first winning move and knows no distances.
    pub fn wins(&mut self, state: &State) -> bool {
        let key = key(&self.grid, state);
        if let Some(&win) = self.verdicts.get(&key) {
            return win;
        }
        let own_goal = self.grid.goal(state.side);
        let moves = state.moves(&self.grid);
        let mut win = moves & (1u64 << own_goal) != 0;
        let mut rest = moves & !(1u64 << own_goal);
        while rest != 0 && !win {
            let to = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let child = state.after(to);
            win = match child.winner(&self.grid) {
                Some(winner) => winner == state.side,
                None => !self.wins(&child),
            };
        }
        self.verdicts.insert(key, win);
        win
    }

    /// Whether moving to `to` wins for the side that moves.
    pub fn move_wins(&mut self, state: &State, to: usize) -> bool {
        let child = state.after(to);
        match child.winner(&self.grid) {
            Some(winner) => winner == state.side,
            None => !self.wins(&child),
        }
    }
}

/// Reads a position string on `grid` without the engine's parser.
pub fn state_from_fen(grid: &Grid, fen: &str) -> State {
    let (rows, side) = fen.split_once(' ').expect("rows, then the side to move");
    let side = match side.trim() {
        "1" => 0,
        "2" => 1,
        other => panic!("bad side {other:?} in {fen}"),
    };
    let mut open = 0u64;
    let mut snail = None;
    for (i, row) in rows.split('/').enumerate() {
        let rank = grid.height - 1 - i;
        let mut file = 0;
        for c in row.chars() {
            match c {
                '1'..='9' => {
                    for _ in 0..c.to_digit(10).unwrap_or(0) {
                        open |= 1u64 << grid.cell(file, rank);
                        file += 1;
                    }
                }
                'x' => file += 1,
                's' => {
                    snail = Some(grid.cell(file, rank));
                    file += 1;
                }
                other => panic!("bad character {other:?} in {fen}"),
            }
        }
        assert_eq!(file, grid.width, "row {row} of {fen}");
    }
    State {
        open,
        snail: snail.expect("a snail"),
        side,
    }
}
