//! Maximum matching on king graphs, and the exact solution of sealed regions.
//!
//! Once the snail's region reaches no goal, the rest of the game is undirected
//! vertex geography on the region's squares plus the snail's square `v`: the player
//! to move wins if and only if every maximum matching covers `v`
//! (Fraenkel, Scheinerman & Ullman, "Undirected edge geography", TCS 112, 1993).
//! King graphs have triangles, so this needs matching on general graphs: Edmonds'
//! blossom algorithm, here on bitboard vertex sets of up to `MAX_SQUARES` squares.

use crate::board::{Bitboard, Geometry, MAX_SQUARES, Square, Word};

const NONE: u8 = u8::MAX;

/// Reusable working memory for matchings on one board geometry.
pub struct Matcher<W: Word> {
    geometry: &'static Geometry<W>,
    mate: [u8; MAX_SQUARES],
    parent: [u8; MAX_SQUARES],
    base: [u8; MAX_SQUARES],
    queue: [u8; MAX_SQUARES],
}

impl<W: Word> Matcher<W> {
    /// A matcher for graphs on the squares of `geometry`.
    pub fn new(geometry: &'static Geometry<W>) -> Self {
        Matcher {
            geometry,
            mate: [NONE; MAX_SQUARES],
            parent: [NONE; MAX_SQUARES],
            base: [NONE; MAX_SQUARES],
            queue: [0; MAX_SQUARES],
        }
    }

    /// Whether every maximum matching of the king graph on `region ∪ {v}` covers `v`,
    /// that is ν(G − v) < ν(G). With no goal reachable, this is exactly whether the
    /// player to move with the snail on `v` wins.
    ///
    /// Most regions are settled by parity alone: with an even number of squares
    /// and a perfect matching, every maximum matching covers `v`; with an odd number
    /// and a perfect matching of the rest, one misses it. Only otherwise does the
    /// full test run.
    pub fn covers_in_every_maximum(&mut self, v: Square, region: Bitboard<W>) -> bool {
        let region = region - Bitboard::from_square(v);
        let graph = region | Bitboard::from_square(v);
        if graph.len() % 2 == 0 {
            if self.has_perfect_matching(graph) {
                return true;
            }
        } else if self.has_perfect_matching(region) {
            return false;
        }
        let unmatched = self.maximum_matching(region);
        // ν(G) = ν(G − v) + 1 exactly when an augmenting path starts at v; it must
        // end at a square left unmatched.
        if unmatched.is_empty() {
            return false;
        }
        if self.geometry.neighbours(v).intersects(unmatched) {
            return true;
        }
        let graph = region | Bitboard::from_square(v);
        self.augment_from(v.index(), graph)
    }

    /// The size of a maximum matching of the king graph on `vertices`.
    #[cfg(test)]
    pub fn maximum_matching_size(&mut self, vertices: Bitboard<W>) -> u32 {
        self.maximum_matching(vertices);
        let matched = vertices
            .iter()
            .filter(|s| self.mate[s.index() as usize] != NONE)
            .count();
        matched as u32 / 2
    }

    /// A square `u` next to `v` in `region` such that the opponent, with the snail on
    /// `u` and `v` slimed, loses: `u` is missed by some maximum matching of `region`.
    /// Returns `None` when the player to move loses.
    pub fn winning_step(&mut self, v: Square, region: Bitboard<W>) -> Option<Square> {
        let region = region - Bitboard::from_square(v);
        let candidates = self.geometry.neighbours(v) & region;
        candidates
            .iter()
            .find(|&u| !self.covers_in_every_maximum(u, region))
    }

    /// Whether the king graph on `vertices` has a perfect matching: a greedy start,
    /// then augmenting paths, giving up at the first square that has none.
    fn has_perfect_matching(&mut self, vertices: Bitboard<W>) -> bool {
        let free = self.greedy(vertices);
        for s in free {
            if self.mate[s.index() as usize] == NONE && !self.augment_from(s.index(), vertices) {
                return false;
            }
        }
        true
    }

    /// Clears the matching on `vertices` and matches each square, in index order,
    /// to its first free neighbour; returns the squares left free.
    fn greedy(&mut self, vertices: Bitboard<W>) -> Bitboard<W> {
        for s in vertices {
            self.mate[s.index() as usize] = NONE;
        }
        let mut free = vertices;
        for s in vertices {
            if !free.contains(s) {
                continue;
            }
            if let Some(t) = (self.geometry.neighbours(s) & free).first() {
                self.mate[s.index() as usize] = t.index();
                self.mate[t.index() as usize] = s.index();
                free.remove(s);
                free.remove(t);
            }
        }
        free
    }

    /// Leaves `self.mate` holding a maximum matching of `vertices`; returns the
    /// vertices it leaves unmatched.
    fn maximum_matching(&mut self, vertices: Bitboard<W>) -> Bitboard<W> {
        let free = self.greedy(vertices);
        let mut unmatched = Bitboard::EMPTY;
        for s in free {
            if self.mate[s.index() as usize] == NONE && !self.augment_from(s.index(), vertices) {
                unmatched.insert(s);
            }
        }
        unmatched
    }

    /// Searches an augmenting path from the unmatched `root` within `vertices` and
    /// flips it if found. Edmonds' algorithm: BFS over alternating trees, shrinking
    /// odd cycles (blossoms) into their base.
    fn augment_from(&mut self, root: u8, vertices: Bitboard<W>) -> bool {
        self.mate[root as usize] = NONE;
        for s in vertices {
            let i = s.index() as usize;
            self.parent[i] = NONE;
            self.base[i] = s.index();
        }
        let mut used = Bitboard::<W>::from_square(Square::from_index(root));
        let (mut head, mut tail) = (0usize, 1usize);
        self.queue[0] = root;
        while head < tail {
            let v = self.queue[head];
            head += 1;
            let around = self.geometry.neighbours(Square::from_index(v)) & vertices;
            for to in around {
                let to = to.index();
                if self.base[v as usize] == self.base[to as usize] || self.mate[v as usize] == to {
                    continue;
                }
                let to_mate = self.mate[to as usize];
                if to == root || (to_mate != NONE && self.parent[to_mate as usize] != NONE) {
                    let shared = self.lowest_common_base(v, to, root);
                    let mut blossom = Bitboard::<W>::EMPTY;
                    self.mark_path(v, shared, to, &mut blossom);
                    self.mark_path(to, shared, v, &mut blossom);
                    for s in vertices {
                        let i = s.index() as usize;
                        let b = Square::from_index(self.base[i]);
                        if blossom.contains(b) {
                            self.base[i] = shared;
                            if !used.contains(s) {
                                used.insert(s);
                                self.queue[tail] = s.index();
                                tail += 1;
                            }
                        }
                    }
                } else if self.parent[to as usize] == NONE {
                    self.parent[to as usize] = v;
                    if to_mate == NONE {
                        self.flip_path(to);
                        return true;
                    }
                    let m = Square::from_index(to_mate);
                    if !used.contains(m) {
                        used.insert(m);
                        self.queue[tail] = to_mate;
                        tail += 1;
                    }
                }
            }
        }
        false
    }

    fn lowest_common_base(&self, mut a: u8, mut b: u8, root: u8) -> u8 {
        let mut seen = Bitboard::<W>::EMPTY;
        loop {
            a = self.base[a as usize];
            seen.insert(Square::from_index(a));
            if a == root {
                break;
            }
            a = self.parent[self.mate[a as usize] as usize];
        }
        loop {
            b = self.base[b as usize];
            if seen.contains(Square::from_index(b)) {
                return b;
            }
            b = self.parent[self.mate[b as usize] as usize];
        }
    }

    fn mark_path(&mut self, mut v: u8, shared: u8, mut child: u8, blossom: &mut Bitboard<W>) {
        while self.base[v as usize] != shared {
            let m = self.mate[v as usize];
            blossom.insert(Square::from_index(self.base[v as usize]));
            blossom.insert(Square::from_index(self.base[m as usize]));
            self.parent[v as usize] = child;
            child = m;
            v = self.parent[m as usize];
        }
    }

    fn flip_path(&mut self, mut v: u8) {
        while v != NONE {
            let pv = self.parent[v as usize];
            let ppv = self.mate[pv as usize];
            self.mate[v as usize] = pv;
            self.mate[pv as usize] = v;
            v = ppv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;
    use crate::rng::Rng;

    /// Maximum matching by exhaustive search, for small graphs.
    fn brute_matching<W: Word>(geo: &Geometry<W>, vertices: Bitboard<W>) -> u32 {
        let Some(v) = vertices.first() else { return 0 };
        let rest = vertices - Bitboard::from_square(v);
        let mut best = brute_matching(geo, rest);
        for u in geo.neighbours(v) & rest {
            best = best.max(1 + brute_matching(geo, rest - Bitboard::from_square(u)));
        }
        best
    }

    /// Vertex geography by exhaustive search: does the player to move on `v` win?
    fn brute_geography<W: Word>(geo: &Geometry<W>, v: Square, region: Bitboard<W>) -> bool {
        (geo.neighbours(v) & region)
            .iter()
            .any(|u| !brute_geography(geo, u, region - Bitboard::from_square(u)))
    }

    fn random_set(rng: &mut Rng, size: Size, density: u64) -> Bitboard<u64> {
        (0..size.squares() as u8)
            .map(Square::from_index)
            .filter(|_| rng.below(100) < density)
            .collect()
    }

    #[test]
    fn matching_size_agrees_with_brute_force() {
        let size: Size = "5x4".parse().unwrap();
        let geo = Geometry::<u64>::of(size);
        let mut matcher = Matcher::new(geo);
        let mut rng = Rng::new(11);
        for _ in 0..400 {
            let density = 20 + rng.below(60);
            let set = random_set(&mut rng, size, density);
            assert_eq!(
                matcher.maximum_matching_size(set),
                brute_matching(geo, set),
                "{set:?}"
            );
        }
    }

    #[test]
    fn sealed_geography_agrees_with_brute_force() {
        let mut rng = Rng::new(5);
        for name in ["4x4", "5x5", "6x3", "7x7"] {
            let size: Size = name.parse().unwrap();
            let geo = Geometry::<u64>::of(size);
            let mut matcher = Matcher::new(geo);
            let mut wins = 0;
            for _ in 0..500 {
                let v = Square::from_index(rng.below(size.squares() as u64) as u8);
                let density = 30 + rng.below(40);
                let mut region = random_set(&mut rng, size, density);
                region.remove(v);
                // Keep brute force affordable.
                while region.len() > 14 {
                    region.remove(region.first().expect("non-empty"));
                }
                let expected = brute_geography(geo, v, region);
                wins += u32::from(expected);
                assert_eq!(
                    matcher.covers_in_every_maximum(v, region),
                    expected,
                    "{name} v={v:?} region={region:?}"
                );
                let step = matcher.winning_step(v, region);
                assert_eq!(step.is_some(), expected);
                if let Some(u) = step {
                    assert!(geo.neighbours(v).contains(u) && region.contains(u));
                    assert!(!brute_geography(geo, u, region - Bitboard::from_square(u)));
                }
            }
            assert!(
                wins > 50 && wins < 450,
                "{name}: a mix of wins and losses, got {wins}"
            );
        }
    }

    #[test]
    fn wide_boards_use_the_wide_word() {
        let size: Size = "11x11".parse().unwrap();
        let geo = Geometry::<u128>::of(size);
        let mut matcher = Matcher::new(geo);
        // The whole empty board has 121 squares: a maximum matching leaves one out.
        assert_eq!(matcher.maximum_matching_size(geo.all()), 60);
        // A 2x1 domino: the snail on one end wins by stepping to the other.
        let a = size.parse_square("a1").unwrap();
        let b = size.parse_square("b1").unwrap();
        assert!(matcher.covers_in_every_maximum(a, Bitboard::from_square(b)));
        assert!(!matcher.covers_in_every_maximum(a, Bitboard::EMPTY));
    }
}
