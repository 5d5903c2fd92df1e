//! The precomputed geometry of a board: neighbours, goal zones, edges, mirror images.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::bitboard::{Bitboard, Word};
use super::coords::{MAX_SQUARES, Side, Size, Square};

/// Everything about a board size that never changes during a game, precomputed.
pub struct Geometry<W: Word> {
    size: Size,
    all: Bitboard<W>,
    neighbours: [Bitboard<W>; MAX_SQUARES],
    /// Per square, the squares within two king steps of it, itself included.
    within_two: [Bitboard<W>; MAX_SQUARES],
    not_first_file: Bitboard<W>,
    not_last_file: Bitboard<W>,
    /// Per player: the squares that player must never enter, because the opponent
    /// would win at once (the opponent's goal and the squares next to it).
    deadly: [Bitboard<W>; 2],
    goals: Bitboard<W>,
    /// Per square, the square mirrored in the a1 diagonal (square boards only).
    mirror: [u8; MAX_SQUARES],
    /// Square boards: per rank `r` and pattern `p` of that rank's squares, the
    /// pattern mirrored into file `r`, at index `r << width | p`. Empty otherwise.
    mirror_rows: Vec<Bitboard<W>>,
}

/// Ring patterns: bit i set for the i-th neighbour in the order SW, S, SE, W, E, NW, N, NE.
/// Entry p says whether the squares of pattern p are king-connected among themselves.
const RING_CONNECTED: [bool; 256] = ring_connectivity();

const fn ring_connectivity() -> [bool; 256] {
    // Coordinates of the ring squares, in pattern bit order.
    const AT: [(i32, i32); 8] = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];
    let mut table = [false; 256];
    let mut pattern: usize = 1;
    while pattern < 256 {
        // Grow a component from the lowest set bit.
        let mut reached = pattern & pattern.wrapping_neg();
        loop {
            let mut grown = reached;
            let mut i = 0;
            while i < 8 {
                if reached & (1 << i) != 0 {
                    let mut j = 0;
                    while j < 8 {
                        let (dx, dy) = (AT[i].0 - AT[j].0, AT[i].1 - AT[j].1);
                        if pattern & (1 << j) != 0 && dx * dx <= 1 && dy * dy <= 1 {
                            grown |= 1 << j;
                        }
                        j += 1;
                    }
                }
                i += 1;
            }
            if grown == reached {
                break;
            }
            reached = grown;
        }
        table[pattern] = reached == pattern;
        pattern += 1;
    }
    table
}

impl<W: Word> Geometry<W> {
    /// The shared, precomputed geometry of `size`.
    ///
    /// # Panics
    /// If the board does not fit in the word `W` (check with [`Size::fits`]).
    pub fn of(size: Size) -> &'static Geometry<W> {
        type Cache = HashMap<(TypeId, Size), &'static (dyn Any + Send + Sync)>;
        static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
        assert!(
            size.fits::<W>(),
            "a {size} board does not fit in {} bits",
            W::BITS
        );
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
        let entry = cache
            .entry((TypeId::of::<W>(), size))
            .or_insert_with(|| Box::leak(Box::new(Geometry::<W>::build(size))));
        entry
            .downcast_ref::<Geometry<W>>()
            .expect("geometry cache holds the type it was keyed by")
    }

    fn build(size: Size) -> Geometry<W> {
        let mut all = Bitboard::EMPTY;
        let mut not_first_file = Bitboard::EMPTY;
        let mut not_last_file = Bitboard::EMPTY;
        let mut neighbours = [Bitboard::EMPTY; MAX_SQUARES];
        for rank in 0..size.height() {
            for file in 0..size.width() {
                let square = size.square(file, rank).expect("square on board");
                all.insert(square);
                if file > 0 {
                    not_first_file.insert(square);
                }
                if file + 1 < size.width() {
                    not_last_file.insert(square);
                }
                let mut around = Bitboard::EMPTY;
                for df in -1i32..=1 {
                    for dr in -1i32..=1 {
                        if df == 0 && dr == 0 {
                            continue;
                        }
                        let (f, r) = (file as i32 + df, rank as i32 + dr);
                        if f >= 0 && r >= 0 {
                            if let Some(n) = size.square(f as usize, r as usize) {
                                around.insert(n);
                            }
                        }
                    }
                }
                neighbours[square.index() as usize] = around;
            }
        }
        let mut within_two = [Bitboard::EMPTY; MAX_SQUARES];
        for square in all {
            let near = neighbours[square.index() as usize] | Bitboard::from_square(square);
            within_two[square.index() as usize] = near
                .into_iter()
                .fold(near, |set, n| set | neighbours[n.index() as usize]);
        }
        let zone = |goal: Square| neighbours[goal.index() as usize] | Bitboard::from_square(goal);
        let deadly = [zone(size.goal(Side::Two)), zone(size.goal(Side::One))];
        let mut mirror = [0u8; MAX_SQUARES];
        for square in all {
            let (file, rank) = (size.file(square), size.rank(square));
            mirror[square.index() as usize] = size
                .square(rank, file)
                .map_or(square.index(), Square::index);
        }
        let goals = Bitboard::from_square(size.goal(Side::One))
            | Bitboard::from_square(size.goal(Side::Two));
        let mut mirror_rows = Vec::new();
        if size.width() == size.height() {
            let width = size.width();
            for rank in 0..width {
                for pattern in 0..1usize << width {
                    let mut column = Bitboard::EMPTY;
                    for file in (0..width).filter(|f| pattern >> f & 1 == 1) {
                        column.insert(size.square(rank, file).expect("square on board"));
                    }
                    mirror_rows.push(column);
                }
            }
        }
        Geometry {
            size,
            goals,
            mirror,
            mirror_rows,
            all,
            neighbours,
            within_two,
            not_first_file,
            not_last_file,
            deadly,
        }
    }

    /// The board size.
    #[inline(always)]
    pub fn size(&self) -> Size {
        self.size
    }

    /// Every square of the board.
    #[inline(always)]
    pub fn all(&self) -> Bitboard<W> {
        self.all
    }

    /// Both goal corners.
    #[inline(always)]
    pub fn goals(&self) -> Bitboard<W> {
        self.goals
    }

    /// The up to 8 squares a king step from `square`.
    #[inline(always)]
    pub fn neighbours(&self, square: Square) -> Bitboard<W> {
        self.neighbours[square.index() as usize & 127]
    }

    /// The squares within two king steps of `square`, `square` included.
    #[inline(always)]
    pub fn within_two(&self, square: Square) -> Bitboard<W> {
        self.within_two[square.index() as usize & 127]
    }

    /// The goal corner and its neighbours that `player` must never enter: the opponent wins at once.
    #[inline(always)]
    pub fn deadly(&self, player: Side) -> Bitboard<W> {
        self.deadly[player.index()]
    }

    /// `set` together with every square a king step from it, kept on the board.
    #[inline(always)]
    pub fn dilate(&self, set: Bitboard<W>) -> Bitboard<W> {
        let width = self.size.width() as u32;
        let row = set | ((set << 1) & self.not_first_file) | ((set >> 1) & self.not_last_file);
        (row | (row << width) | (row >> width)) & self.all
    }

    /// The squares next to at least one, at least two and at least three squares of
    /// `set`, counting every square a king step away (a square is not next to itself).
    #[inline(always)]
    pub fn neighbour_counts(&self, set: Bitboard<W>) -> [Bitboard<W>; 3] {
        let width = self.size.width() as u32;
        let east = (set << 1) & self.not_first_file;
        let west = (set >> 1) & self.not_last_file;
        let steps = [
            east,
            west,
            set << width,
            set >> width,
            east << width,
            east >> width,
            west << width,
            west >> width,
        ];
        let mut at_least = [Bitboard::EMPTY; 3];
        for shifted in steps {
            at_least[2] |= at_least[1] & shifted;
            at_least[1] |= at_least[0] & shifted;
            at_least[0] |= shifted;
        }
        at_least.map(|counted| counted & self.all)
    }

    /// The squares a king step from some square of `set`; a square of `set` is one
    /// of them only if another square of `set` is next to it.
    #[inline(always)]
    pub fn adjacent(&self, set: Bitboard<W>) -> Bitboard<W> {
        let width = self.size.width() as u32;
        let row = ((set << 1) & self.not_first_file) | ((set >> 1) & self.not_last_file);
        (row | (row << width) | (row >> width) | (set << width) | (set >> width)) & self.all
    }

    /// Whether the squares of `set` next to `square` are king-connected among
    /// themselves, so that removing `square` cannot split a region of `set`.
    /// An empty neighbourhood counts as not connected.
    #[inline(always)]
    pub fn ring_connected(&self, set: Bitboard<W>, square: Square) -> bool {
        let ring = (set & self.neighbours(square)).0;
        let width = self.size.width() as i32;
        let south_west = square.index() as i32 - width - 1;
        let aligned = if south_west >= 0 {
            ring >> south_west as u32
        } else {
            ring << (-south_west) as u32
        };
        let w = width as u32;
        let low = aligned.low_u64() & 7;
        let middle = (aligned >> w).low_u64() & 5;
        let high = (aligned >> (2 * w)).low_u64() & 7;
        let pattern = low | (middle & 1) << 3 | (middle >> 2) << 4 | high << 5;
        RING_CONNECTED[pattern as usize]
    }

    /// The squares whose neighbours in `set` fall into two or more groups that are
    /// not king-connected among themselves: the squares whose removal may split a
    /// region of `set`, all found at once. (Around a square the four orthogonal
    /// neighbours form a cycle, each next to the following one, and each diagonal
    /// neighbour touches only the two orthogonal ones beside it; so the groups are
    /// the runs of orthogonal neighbours and the diagonal ones with neither
    /// orthogonal neighbour beside them.)
    #[inline(always)]
    pub fn ring_split(&self, set: Bitboard<W>) -> Bitboard<W> {
        let width = self.size.width() as u32;
        let west = (set << 1) & self.not_first_file;
        let east = (set >> 1) & self.not_last_file;
        let (south, north) = (set << width, set >> width);
        let (south_west, north_west) = (west << width, west >> width);
        let (south_east, north_east) = (east << width, east >> width);
        // The start of each run of orthogonal neighbours (going N, E, S, W), and
        // each lone diagonal neighbour.
        let groups = [
            north - west,
            east - north,
            south - east,
            west - south,
            north_east - north - east,
            south_east - south - east,
            south_west - south - west,
            north_west - north - west,
        ];
        let (mut one, mut two) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for group in groups {
            two |= one & group;
            one |= group;
        }
        two & self.all
    }

    /// Whether the board is square, so that mirroring in the a1 diagonal is a symmetry.
    #[inline(always)]
    pub fn is_square(&self) -> bool {
        self.size.width() == self.size.height()
    }

    /// The square mirrored in the a1 diagonal (file and rank swapped); on boards
    /// that are not square, the square itself.
    #[inline(always)]
    pub fn mirror_square(&self, square: Square) -> Square {
        Square::from_index(self.mirror[square.index() as usize & 127])
    }

    /// The set mirrored in the a1 diagonal (square boards only; on other boards
    /// each square goes where [`Geometry::mirror_square`] sends it).
    #[inline]
    pub fn mirror(&self, set: Bitboard<W>) -> Bitboard<W> {
        if self.mirror_rows.is_empty() {
            return set.iter().map(|s| self.mirror_square(s)).collect();
        }
        let width = self.size.width() as u32;
        let row = (1u64 << width) - 1;
        let mut mirrored = Bitboard::EMPTY;
        for rank in 0..width {
            let pattern = (set.0 >> (rank * width)).low_u64() & row;
            mirrored |= self.mirror_rows[((rank as usize) << width) | pattern as usize];
        }
        mirrored
    }

    /// The squares of `within` connected to `seed` by king steps inside `within`
    /// (the seed itself counts only where it lies in `within`).
    #[inline]
    pub fn flood(&self, seed: Bitboard<W>, within: Bitboard<W>) -> Bitboard<W> {
        let mut region = seed & within;
        loop {
            let grown = self.dilate(region) & within;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry_checks<W: Word>(size: Size) {
        let geo = Geometry::<W>::of(size);
        assert_eq!(geo.all().len() as usize, size.squares());
        for square in geo.all() {
            let brute: Bitboard<W> = geo
                .all()
                .iter()
                .filter(|&o| size.adjacent(square, o))
                .collect();
            assert_eq!(geo.neighbours(square), brute);
            assert_eq!(
                geo.dilate(Bitboard::from_square(square)),
                brute | Bitboard::from_square(square)
            );
            let within_two: Bitboard<W> = geo
                .all()
                .iter()
                .filter(|&o| {
                    let (df, dr) = (
                        size.file(square).abs_diff(size.file(o)),
                        size.rank(square).abs_diff(size.rank(o)),
                    );
                    df <= 2 && dr <= 2
                })
                .collect();
            assert_eq!(geo.within_two(square), within_two, "{size:?} {square:?}");
        }
    }

    #[test]
    fn neighbours_and_dilation_agree_with_brute_force() {
        for w in 3..=11 {
            for h in 3..=11 {
                let size = Size::new(w, h).unwrap();
                if size.fits::<u64>() {
                    geometry_checks::<u64>(size);
                }
                geometry_checks::<u128>(size);
            }
        }
    }

    #[test]
    fn ring_split_finds_the_squares_whose_neighbours_fall_apart() {
        let mut rng = crate::rng::Rng::new(5);
        for name in ["3x3", "7x7", "8x8", "11x11", "4x9", "9x4"] {
            let size: Size = name.parse().unwrap();
            let geo = Geometry::<u128>::of(size);
            for _ in 0..500 {
                let set: Bitboard<u128> = geo.all().iter().filter(|_| rng.below(2) == 0).collect();
                let split = geo.ring_split(set);
                for square in geo.all() {
                    let ring = set & geo.neighbours(square);
                    let expected = ring.any() && !geo.ring_connected(set, square);
                    assert_eq!(
                        split.contains(square),
                        expected,
                        "{name} {square:?} {ring:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn ring_connectivity_agrees_with_flood_fill() {
        let mut rng = crate::rng::Rng::new(3);
        for name in ["3x3", "7x7", "8x8", "11x11", "4x9"] {
            let size: Size = name.parse().unwrap();
            let geo = Geometry::<u128>::of(size);
            for _ in 0..3000 {
                let set: Bitboard<u128> = geo.all().iter().filter(|_| rng.below(2) == 0).collect();
                let square = Square::from_index(rng.below(size.squares() as u64) as u8);
                let ring = set & geo.neighbours(square);
                let expected = ring.any()
                    && geo.flood(Bitboard::from_square(ring.first().unwrap()), ring) == ring;
                assert_eq!(
                    geo.ring_connected(set, square),
                    expected,
                    "{name} {square:?} {ring:?}"
                );
            }
        }
    }

    #[test]
    fn mirroring_swaps_files_and_ranks() {
        let size = Size::DEFAULT;
        let geo = Geometry::<u64>::of(size);
        let c2 = size.parse_square("c2").unwrap();
        assert_eq!(size.name(geo.mirror_square(c2)).to_string(), "b3");
        assert_eq!(
            geo.mirror(geo.mirror(geo.neighbours(c2))),
            geo.neighbours(c2)
        );
        assert_eq!(geo.mirror(geo.deadly(Side::One)), geo.deadly(Side::One));
        assert!(!Geometry::<u64>::of("5x4".parse().unwrap()).is_square());
    }

    #[test]
    fn fast_mirroring_agrees_with_square_by_square_mirroring() {
        fn check<W: Word>(size: Size, rng: &mut crate::rng::Rng) {
            let geo = Geometry::<W>::of(size);
            for _ in 0..500 {
                let set: Bitboard<W> = geo.all().iter().filter(|_| rng.below(2) == 0).collect();
                let slow: Bitboard<W> = set.iter().map(|s| geo.mirror_square(s)).collect();
                assert_eq!(geo.mirror(set), slow, "{size}");
            }
        }
        let mut rng = crate::rng::Rng::new(5);
        for n in 3..=11 {
            let size = Size::new(n, n).unwrap();
            if size.fits::<u64>() {
                check::<u64>(size, &mut rng);
            }
            check::<u128>(size, &mut rng);
        }
    }

    #[test]
    fn neighbour_counts_and_adjacency_agree_with_counting_square_by_square() {
        fn check<W: Word>(size: Size, rng: &mut crate::rng::Rng) {
            let geo = Geometry::<W>::of(size);
            for _ in 0..200 {
                let set: Bitboard<W> = geo.all().iter().filter(|_| rng.below(3) == 0).collect();
                let [one, two, three] = geo.neighbour_counts(set);
                let adjacent = geo.adjacent(set);
                for s in geo.all() {
                    let n = (geo.neighbours(s) & set).len();
                    let at = [one.contains(s), two.contains(s), three.contains(s)];
                    assert_eq!(at, [n >= 1, n >= 2, n >= 3], "{size} {}", size.name(s));
                    assert_eq!(adjacent.contains(s), n >= 1, "{size} {}", size.name(s));
                }
            }
        }
        let mut rng = crate::rng::Rng::new(9);
        for (w, h) in [(3, 3), (7, 7), (8, 8), (5, 9), (11, 11), (11, 4)] {
            let size = Size::new(w, h).unwrap();
            if size.fits::<u64>() {
                check::<u64>(size, &mut rng);
            }
            check::<u128>(size, &mut rng);
        }
    }

    #[test]
    fn deadly_zones_surround_the_opponent_goal() {
        let size = Size::DEFAULT;
        let geo = Geometry::<u64>::of(size);
        let names = |set: Bitboard<u64>| -> Vec<String> {
            set.iter().map(|s| size.name(s).to_string()).collect()
        };
        assert_eq!(names(geo.deadly(Side::One)), ["f6", "g6", "f7", "g7"]);
        assert_eq!(names(geo.deadly(Side::Two)), ["a1", "b1", "a2", "b2"]);
    }
}
