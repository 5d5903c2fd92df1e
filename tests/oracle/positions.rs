//! Seeded random positions from every phase of the game, on the oracle's grid.

use slimetrail::rng::Rng;

use super::{Grid, State};

/// How a test position was made.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Origin {
    /// The start of a game.
    Start,
    /// A random walk from a start square.
    Walk,
    /// Random slime on the board, the snail on a random square, a random side to move.
    Slime,
}

/// The phase of a position, by how much of the board is still open.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Phase {
    /// More than two thirds of the squares are open.
    Opening,
    /// Between one third and two thirds are open.
    Middle,
    /// At most a third of the squares are open.
    Ending,
}

/// The phase of a state on a grid.
pub fn phase(grid: &Grid, state: &State) -> Phase {
    let open = state.open.count_ones() as usize * 3;
    if open > 2 * grid.cells() {
        Phase::Opening
    } else if open > grid.cells() {
        Phase::Middle
    } else {
        Phase::Ending
    }
}

/// The default start cell: file ⌊W/2⌋, rank ⌊H/2⌋.
pub fn default_start(grid: &Grid) -> usize {
    grid.cell(grid.width / 2, grid.height / 2)
}

fn pick(rng: &mut Rng, set: u64) -> Option<usize> {
    let count = set.count_ones() as u64;
    if count == 0 {
        return None;
    }
    let mut rest = set;
    for _ in 0..rng.below(count) {
        rest &= rest - 1;
    }
    Some(rest.trailing_zeros() as usize)
}

/// A random walk of up to `plies` moves from the start on `start`. With `careful`,
/// it avoids moves that end the game while it can, reaching later phases; the walk
/// stops early when every move ends the game. `None` if the game is over at the end.
pub fn walk(
    grid: &Grid,
    start: usize,
    plies: usize,
    careful: bool,
    rng: &mut Rng,
) -> Option<State> {
    let mut state = State::start(grid, start);
    for _ in 0..plies {
        let moves = state.moves(grid);
        let mut quiet = 0u64;
        let mut rest = moves;
        while rest != 0 {
            let to = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if state.after(to).winner(grid).is_none() {
                quiet |= 1 << to;
            }
        }
        let choices = if careful { quiet } else { moves };
        let Some(to) = pick(rng, choices) else { break };
        state = state.after(to);
        if state.winner(grid).is_some() {
            return None;
        }
    }
    state.winner(grid).is_none().then_some(state)
}

/// Random slime with density `slime` over the squares that are neither goal
/// corners nor the snail's; the snail on a random non-goal square; a random side.
/// `None` if the game is over in the result.
pub fn slime(grid: &Grid, slime: f64, rng: &mut Rng) -> Option<State> {
    let goals = (1u64 << grid.goal(0)) | (1u64 << grid.goal(1));
    let all = (1u64 << grid.cells()) - 1;
    let snail = pick(rng, all & !goals)?;
    let mut open = all & !(1u64 << snail);
    for cell in 0..grid.cells() {
        if (1u64 << cell) & (goals | (1u64 << snail)) == 0 && rng.unit() < slime {
            open &= !(1u64 << cell);
        }
    }
    let state = State {
        open,
        snail,
        side: rng.below(2) as usize,
    };
    state.winner(grid).is_none().then_some(state)
}

/// Number of open squares the snail can still reach (goal corners included).
pub fn region_size(grid: &Grid, state: &State) -> u32 {
    grid.region(state).count_ones()
}
