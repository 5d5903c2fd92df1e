//! The values of the shallower positions of a leaves-first walk, by minimax over
//! their children's, and the book entries among them: the won positions whose
//! proof from an empty table is too long for a move's time.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::leaves::{GameValue, Leaf, Leaves};
use crate::board::{Position, Square};
use crate::search::{BookKey, BookLine, Engine, EngineOptions, Limits, book_key};

/// The value of `position` and its winning move from its children's values in
/// `values`; `None` if a child needed for it is not known.
pub fn minimax(
    position: &Position,
    values: &HashMap<BookKey, GameValue>,
) -> Option<(GameValue, Option<Square>)> {
    let mover = position.side_to_move();
    let mut best_win: Option<(u32, Square)> = None;
    let mut longest_loss = 0;
    let mut unknown = false;
    for square in position.moves() {
        let child = position.after(square);
        let (child_won, child_plies) = if child.outcome().is_over() {
            (child.outcome().winner() != Some(mover), 0)
        } else {
            match values.get(&book_key(&child).0) {
                Some(value) => (value.won, value.plies),
                None => {
                    unknown = true;
                    continue;
                }
            }
        };
        let plies = child_plies + 1;
        if child_won {
            longest_loss = longest_loss.max(plies);
        } else if best_win.is_none_or(|(best, _)| plies < best) {
            best_win = Some((plies, square));
        }
    }
    match best_win {
        Some((plies, square)) => Some((GameValue { won: true, plies }, Some(square))),
        None if unknown => None,
        None => Some((
            GameValue {
                won: false,
                plies: longest_loss,
            },
            None,
        )),
    }
}

/// The book entries of `layers`, the leaves' results given: every won position
/// whose proof from an empty table needs more than `hard_nodes` nodes (tried on
/// `jobs` threads), shallowest first. The second result counts the positions whose
/// value is not known yet.
pub fn book_lines(
    layers: &[Vec<Position>],
    leaves: &Leaves,
    hard_nodes: u64,
    jobs: usize,
) -> (Vec<BookLine>, usize) {
    let (candidates, unknown) = won_lines(layers, leaves);
    (keep_hard(candidates, hard_nodes, jobs), unknown)
}

/// The won positions of `layers` with their winning moves and plies, the leaves'
/// results given and the shallower positions valued by [`minimax`]: shallowest
/// first, each ply in walk order. The second result counts the positions whose
/// value is not known yet.
pub fn won_lines(layers: &[Vec<Position>], leaves: &Leaves) -> (Vec<BookLine>, usize) {
    let mut values: HashMap<BookKey, GameValue> = leaves
        .iter()
        .map(|(key, leaf)| (*key, leaf.value))
        .collect();
    let mut won: Vec<(usize, usize, BookLine)> = Vec::new();
    let leaf_layer = layers.len().saturating_sub(1);
    for (i, position) in layers.last().into_iter().flatten().enumerate() {
        if let Some(Leaf {
            position,
            value: value @ GameValue { won: true, .. },
            square: Some(square),
        }) = leaves.get(&book_key(position).0)
        {
            won.push((leaf_layer, i, line_of(*position, *square, *value)));
        }
    }
    // Deepest first, again and again: a child may share its key with a position of
    // a shallower ply, whose value comes later in the pass.
    let mut pending: Vec<(usize, usize)> = (0..leaf_layer)
        .rev()
        .flat_map(|ply| (0..layers[ply].len()).map(move |i| (ply, i)))
        .collect();
    loop {
        let before = pending.len();
        pending.retain(|&(ply, i)| {
            let position = &layers[ply][i];
            let Some((value, square)) = minimax(position, &values) else {
                return true;
            };
            values.insert(book_key(position).0, value);
            if let Some(square) = square {
                won.push((ply, i, line_of(*position, square, value)));
            }
            false
        });
        if pending.len() == before {
            break;
        }
    }
    won.sort_by_key(|&(ply, i, _)| (ply, i));
    let candidates: Vec<BookLine> = won.into_iter().map(|(_, _, line)| line).collect();
    let unknown = pending.len()
        + layers
            .last()
            .into_iter()
            .flatten()
            .filter(|p| !leaves.contains_key(&book_key(*p).0))
            .count();
    (candidates, unknown)
}

/// A book line for a won position.
fn line_of(position: Position, square: Square, value: GameValue) -> BookLine {
    BookLine {
        position,
        square,
        plies: value.plies.min(u32::from(u16::MAX)) as u16,
    }
}

/// The lines of `candidates` whose proof from an empty table does not finish
/// within `hard_nodes` nodes, in their order.
fn keep_hard(candidates: Vec<BookLine>, hard_nodes: u64, jobs: usize) -> Vec<BookLine> {
    let next = AtomicUsize::new(0);
    let hard = Mutex::new(vec![false; candidates.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                let mut trial = Engine::new(EngineOptions::default());
                let stop = AtomicBool::new(false);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(line) = candidates.get(i) else { break };
                    trial.new_game();
                    let limits = Limits::nodes(hard_nodes);
                    let quick = trial.prove(&line.position, &limits, &stop, &mut |_| {});
                    if quick.verdict.is_none() {
                        hard.lock().unwrap_or_else(|e| e.into_inner())[i] = true;
                    }
                }
            });
        }
    });
    let hard = hard.into_inner().unwrap_or_else(|e| e.into_inner());
    candidates
        .into_iter()
        .zip(hard)
        .filter_map(|(line, hard)| hard.then_some(line))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    fn start(size: &str, square: &str) -> Position {
        let size: Size = size.parse().expect("a size");
        Position::start_named(size, square).expect("a start")
    }

    /// A move into the mover's own goal wins in one ply; otherwise the fastest win.
    #[test]
    fn minimax_takes_a_win_at_once_and_needs_every_child_for_a_loss() {
        // Player 2 on g6 next to its goal g7: stepping there wins.
        let position: Position = "7/6s/7/7/7/7/7 2".parse().unwrap();
        let (value, square) = minimax(&position, &HashMap::new()).unwrap();
        assert_eq!(
            value,
            GameValue {
                won: true,
                plies: 1
            }
        );
        assert_eq!(
            square.map(|s| position.name(s).to_string()),
            Some("g7".into())
        );
        // Far from both goals, nothing is known without the children. (Off the
        // diagonal, so that no two children are mirror images sharing a key.)
        let start = start("7x7", "b4");
        assert_eq!(minimax(&start, &HashMap::new()), None);
        // Every child lost for the opponent but one: still a win, by the fastest.
        let mut values = HashMap::new();
        for (i, square) in start.moves().into_iter().enumerate() {
            let child = start.after(square);
            let value = GameValue {
                won: i != 3,
                plies: 10 + i as u32,
            };
            values.insert(book_key(&child).0, value);
        }
        let (value, square) = minimax(&start, &values).unwrap();
        assert_eq!(
            value,
            GameValue {
                won: true,
                plies: 14
            }
        );
        assert_eq!(square, start.moves().into_iter().nth(3));
        // Every child won for the opponent: lost, as slowly as possible.
        for value in values.values_mut() {
            value.won = true;
        }
        let (value, square) = minimax(&start, &values).unwrap();
        assert_eq!((value.won, value.plies, square), (false, 18, None));
    }

    /// The 5x5 start walked one ply deep, with hand-made values for its five
    /// children: the child at `lost` lost for its side to move, the others won.
    fn five_with(lost: Option<usize>) -> (Vec<Vec<Position>>, Leaves) {
        let layers = super::super::walk(&[start("5x5", "c3")], 1);
        assert_eq!(layers[1].len(), 5);
        let mut leaves = Leaves::new();
        for (i, child) in layers[1].iter().enumerate() {
            let won = Some(i) != lost;
            let leaf = Leaf {
                position: *child,
                value: GameValue {
                    won,
                    plies: 7 + i as u32,
                },
                square: won.then(|| child.moves().into_iter().next().unwrap()),
            };
            leaves.insert(book_key(child).0, leaf);
        }
        (layers, leaves)
    }

    #[test]
    fn the_won_positions_of_a_hand_made_tree_come_shallowest_first() {
        let (layers, leaves) = five_with(Some(2));
        let (lines, unknown) = won_lines(&layers, &leaves);
        assert_eq!(unknown, 0);
        let root = layers[0][0];
        // The root wins by the move to the lost child (the first such move), in
        // one ply more than the child's 9.
        let winning = root
            .moves()
            .into_iter()
            .find(|&to| book_key(&root.after(to)).0 == book_key(&layers[1][2]).0)
            .unwrap();
        let mut expected = vec![BookLine {
            position: root,
            square: winning,
            plies: 10,
        }];
        for i in [0, 1, 3, 4] {
            let leaf = leaves[&book_key(&layers[1][i]).0];
            expected.push(BookLine {
                position: leaf.position,
                square: leaf.square.unwrap(),
                plies: 7 + i as u16,
            });
        }
        assert_eq!(lines, expected);
    }

    #[test]
    fn a_root_whose_children_all_win_is_lost_and_not_in_the_book() {
        let (layers, leaves) = five_with(None);
        let (lines, unknown) = won_lines(&layers, &leaves);
        assert_eq!(unknown, 0);
        assert_eq!(lines.len(), 5);
        assert!(lines.iter().all(|l| l.position != layers[0][0]));
    }

    #[test]
    fn missing_leaves_are_counted_and_block_only_the_values_they_decide() {
        // Missing a won child: the root still wins through the lost one.
        let (layers, mut leaves) = five_with(Some(2));
        leaves.remove(&book_key(&layers[1][0]).0);
        let (lines, unknown) = won_lines(&layers, &leaves);
        assert_eq!(unknown, 1);
        assert_eq!(lines[0].position, layers[0][0]);
        assert_eq!(lines.len(), 4);
        // Missing the lost child: the root's value is not known either.
        let (layers, mut leaves) = five_with(Some(2));
        leaves.remove(&book_key(&layers[1][2]).0);
        let (lines, unknown) = won_lines(&layers, &leaves);
        assert_eq!(unknown, 2);
        assert_eq!(lines.len(), 4);
        assert!(lines.iter().all(|l| l.position != layers[0][0]));
        // No leaves at all: everything unknown, nothing won.
        let (lines, unknown) = won_lines(&layers, &Leaves::new());
        assert_eq!((lines.len(), unknown), (0, 6));
    }
}
