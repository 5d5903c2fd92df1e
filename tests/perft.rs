//! Perft against published tables and against a naive reference written here,
//! independent of the library's move generation.

use slimetrail::board::{Position, Side, Size, divide, perft};
use slimetrail::rng::Rng;

/// A deliberately plain model of the rules: a grid of cells and explicit checks.
#[derive(Clone)]
struct Reference {
    width: i32,
    height: i32,
    slimed: Vec<bool>,
    snail: (i32, i32),
}

impl Reference {
    fn from_position(pos: &Position) -> Reference {
        let size = pos.size();
        let (w, h) = (size.width() as i32, size.height() as i32);
        let mut slimed = vec![false; (w * h) as usize];
        for sq in pos.slimed() {
            slimed[sq.index() as usize] = true;
        }
        let s = pos.snail();
        Reference {
            width: w,
            height: h,
            slimed,
            snail: (size.file(s) as i32, size.rank(s) as i32),
        }
    }

    fn is_goal(&self, (f, r): (i32, i32)) -> bool {
        (f, r) == (0, 0) || (f, r) == (self.width - 1, self.height - 1)
    }

    fn moves(&self) -> Vec<(i32, i32)> {
        if self.is_goal(self.snail) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for df in -1..=1 {
            for dr in -1..=1 {
                let (f, r) = (self.snail.0 + df, self.snail.1 + dr);
                if (df, dr) == (0, 0) || f < 0 || r < 0 || f >= self.width || r >= self.height {
                    continue;
                }
                if !self.slimed[(r * self.width + f) as usize] {
                    out.push((f, r));
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for to in self.moves() {
            let mut next = self.clone();
            next.slimed[(self.snail.1 * self.width + self.snail.0) as usize] = true;
            next.snail = to;
            if next.is_goal(to) {
                // The game ends: a leaf only if this was the last ply.
                total += u64::from(depth == 1);
            } else {
                total += next.perft(depth - 1);
            }
        }
        total
    }
}

#[test]
fn centre_start_matches_the_published_table() {
    let start: Position = Position::start(Size::DEFAULT);
    let expected = [8, 56, 368, 2012, 9832, 44252, 190100, 795152];
    for (depth, &count) in (1..).zip(expected.iter()) {
        assert_eq!(perft(&start, depth), count, "depth {depth}");
    }
}

#[test]
fn centre_start_deep_values_from_the_solver_notes() {
    let start: Position = Position::start(Size::DEFAULT);
    assert_eq!(perft(&start, 9), 3_282_668);
    assert_eq!(perft(&start, 10), 13_445_060);
}

#[test]
fn e5_start_matches_the_published_table() {
    let start: Position = Position::start_named(Size::DEFAULT, "e5").unwrap();
    let expected = [8, 56, 313, 1649, 8162, 38712];
    for (depth, &count) in (1..).zip(expected.iter()) {
        assert_eq!(perft(&start, depth), count, "depth {depth}");
    }
}

#[test]
fn divide_sums_to_perft() {
    let start: Position = Position::start_named(Size::DEFAULT, "e5").unwrap();
    let parts = divide(&start, 5);
    assert_eq!(parts.len(), 8);
    assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u64>(), 8162);
}

#[test]
fn depth_zero_is_one_and_finished_games_have_no_moves() {
    let size = Size::DEFAULT;
    let mut pos: Position = Position::start_named(size, "b2").unwrap();
    assert_eq!(perft(&pos, 0), 1);
    pos.play(size.parse_square("a1").unwrap());
    assert_eq!(perft(&pos, 1), 0);
    assert_eq!(perft(&pos, 3), 0);
}

/// A random position: a random walk from a random start, stopped before the game ends.
fn random_position(rng: &mut Rng, size: Size) -> Position {
    loop {
        let start = rng.below(size.squares() as u64) as u8;
        let Ok(mut pos) = Position::start_at(size, slimetrail::board::Square::from_index(start))
        else {
            continue;
        };
        let plies = rng.below(size.squares() as u64);
        for _ in 0..plies {
            let moves: Vec<_> = pos.moves().iter().collect();
            let Some(&to) = rng.choose(&moves) else { break };
            let next = pos.after(to);
            if next.outcome().is_over() {
                break;
            }
            pos = next;
        }
        if rng.below(2) == 1 {
            // Also exercise positions whose side to move does not follow from the slime count.
            let flipped = pos
                .to_string()
                .replace(" 1", " x")
                .replace(" 2", " 1")
                .replace(" x", " 2");
            pos = flipped
                .parse()
                .expect("flipping the side keeps a valid position");
        }
        return pos;
    }
}

#[test]
fn random_positions_on_many_sizes_agree_with_the_reference() {
    let mut rng = Rng::new(2026);
    let sizes = [
        "3x3", "3x7", "4x4", "5x3", "6x6", "7x7", "8x8", "9x5", "9x9", "11x11", "11x3",
    ];
    for name in sizes {
        let size: Size = name.parse().unwrap();
        for _ in 0..12 {
            let pos = random_position(&mut rng, size);
            let reference = Reference::from_position(&pos);
            for depth in 0..=5 {
                assert_eq!(
                    perft(&pos, depth),
                    reference.perft(depth),
                    "{name} position {pos} depth {depth}"
                );
            }
        }
    }
}

#[test]
fn the_sides_own_and_each_others_goals_are_leaves() {
    // 3x3 from b2: every square is next to the snail, both goals included.
    let pos: Position = Position::start(Size::new(3, 3).unwrap());
    assert_eq!(pos.side_to_move(), Side::One);
    let reference = Reference::from_position(&pos);
    for depth in 1..=8 {
        assert_eq!(perft(&pos, depth), reference.perft(depth), "depth {depth}");
    }
}
