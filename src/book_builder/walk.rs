//! The walk: every position within some plies of the starts, by ply.

use std::collections::HashSet;

use crate::board::Position;
use crate::search::book_key;

/// The positions of the walk, by ply, each once up to transposition and mirror
/// image; finished games are left out.
pub fn walk(starts: &[Position], plies: u32) -> Vec<Vec<Position>> {
    let mut seen = HashSet::new();
    let mut layers = vec![Vec::new()];
    for start in starts {
        if !start.outcome().is_over() && seen.insert(book_key(start).0) {
            layers[0].push(*start);
        }
    }
    for _ in 0..plies {
        let mut next = Vec::new();
        for position in layers.last().into_iter().flatten() {
            for square in position.moves() {
                let child = position.after(square);
                if !child.outcome().is_over() && seen.insert(book_key(&child).0) {
                    next.push(child);
                }
            }
        }
        layers.push(next);
    }
    layers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    fn start(size: &str, square: &str) -> Position {
        let size: Size = size.parse().unwrap();
        Position::start_named(size, square).unwrap()
    }

    #[test]
    fn the_walk_lists_each_position_once_by_ply() {
        // 3x3 from b2: a1 and c3 end the game; the six other moves make three
        // mirror pairs.
        let layers = walk(&[start("3x3", "b2")], 1);
        assert_eq!(layers.len(), 2);
        assert_eq!(layers[0].len(), 1);
        assert_eq!(layers[1].len(), 3);
        // Off the diagonal, no two moves are mirror images: all eight come.
        let layers = walk(&[start("7x7", "b4")], 1);
        assert_eq!(layers[1].len(), 8);
        // Two starts and no plies: the starts; a start met twice comes once.
        let layers = walk(
            &[start("7x7", "d4"), start("7x7", "e5"), start("7x7", "d4")],
            0,
        );
        assert_eq!(layers.len(), 1);
        assert_eq!(layers[0].len(), 2);
        // Every position of a layer is that many plies deep, and none twice.
        let layers = walk(&[start("5x5", "c3")], 3);
        for (ply, layer) in layers.iter().enumerate() {
            let keys: HashSet<_> = layer.iter().map(|p| book_key(p).0).collect();
            assert_eq!(keys.len(), layer.len(), "ply {ply}");
            for position in layer {
                assert_eq!(position.slimed().len() as usize, ply, "{position}");
            }
        }
    }
}
