//! Killer steps by local pattern: for each node, the step that last won at a node
//! with the same snail square, side to move and region around the snail.
//!
//! Nodes that agree within two steps of the snail usually share their winning step,
//! however the far parts of their regions differ, so the step that last won such a
//! node is tried first. Keyed on the whole region (the table's key) it would never
//! be asked twice; keyed on the snail's neighbours alone (radius 1) it is too
//! coarse, and radius 3 too fine (README, ablation table).

use crate::board::{Bitboard, Geometry, Side, Square, Word};

/// log2 of the slots of [`Killers::small`].
const SMALL_BITS: u32 = 18;

/// log2 of the slots of [`Killers::for_game`]: on 9×9 positions `go` proved as
/// fast with 2²⁰ slots as with 2²⁴ (README, "Killers kept for the game").
const GAME_BITS: u32 = 20;

/// The steps that won last, by pattern; one byte a slot (0 for none).
pub(super) struct Killers {
    steps: Vec<u8>,
    /// 64 less the bits of a slot number: slots are the top bits of a hash, the
    /// bits that every bit of the pattern reaches.
    shift: u32,
}

/// A node's slot in [`Killers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Slot(usize);

impl Killers {
    /// Killers for a long proof on a board of `squares` squares: more slots on
    /// larger boards, whose proofs are longer (256 KiB up to 7×7, small enough for
    /// the second-level cache; 4 MiB up to 8×8, 16 MiB above).
    pub(super) fn for_board(squares: u32) -> Killers {
        Killers::with_bits(match squares {
            0..=49 => SMALL_BITS,
            50..=64 => 22,
            _ => 24,
        })
    }

    /// Killers for a short proof, such as a slice of `go` or a step of a line:
    /// 256 KiB, quick to allocate and to fill.
    pub(super) fn small() -> Killers {
        Killers::with_bits(SMALL_BITS)
    }

    /// Killers for the proof slices of `go`, kept from slice to slice and from
    /// move to move of a game: 1 MiB.
    pub(super) fn for_game() -> Killers {
        Killers::with_bits(GAME_BITS)
    }

    fn with_bits(bits: u32) -> Killers {
        Killers {
            steps: vec![0; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// The slot of a node: its snail, side to move and region within two steps.
    #[inline]
    pub(super) fn slot<W: Word>(
        &self,
        geometry: &Geometry<W>,
        snail: Square,
        side: Side,
        region: Bitboard<W>,
    ) -> Slot {
        let window = geometry.within_two(snail);
        let local = (region & window).0.to_u128();
        let node = u64::from(snail.index()) << 1 | u64::from(side == Side::Two);
        let h = (local as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ ((local >> 64) as u64).wrapping_mul(0xA076_1D64_78BD_642F)
            ^ node.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        Slot((h >> self.shift) as usize)
    }

    /// The step that last won at `slot`'s pattern, if any.
    #[inline]
    pub(super) fn get(&self, slot: Slot) -> Option<Square> {
        match self.steps[slot.0] {
            0 => None,
            code => Some(Square::from_index(code - 1)),
        }
    }

    /// Forgets every step recorded.
    pub(super) fn clear(&mut self) {
        self.steps.fill(0);
    }

    /// How many patterns have a step recorded.
    #[cfg(test)]
    pub(super) fn recorded(&self) -> usize {
        self.steps.iter().filter(|&&step| step != 0).count()
    }

    /// Records that `step` won at `slot`'s pattern.
    #[inline]
    pub(super) fn set(&mut self, slot: Slot, step: Square) {
        self.steps[slot.0] = step.index() + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Size;

    fn geometry() -> &'static Geometry<u64> {
        Geometry::of(Size::new(7, 7).expect("7x7 is a valid size"))
    }

    fn square(index: u8) -> Square {
        Square::from_index(index)
    }

    #[test]
    fn a_step_recorded_is_found_again_and_only_for_its_own_pattern() {
        let geo = geometry();
        let mut killers = Killers::for_board(49);
        let region = geo.all() - Bitboard::from_square(square(24));
        let slot = killers.slot(geo, square(24), Side::One, region);
        assert_eq!(killers.get(slot), None);
        killers.set(slot, square(25));
        assert_eq!(killers.get(slot), Some(square(25)));
        let other_side = killers.slot(geo, square(24), Side::Two, region);
        let other_snail = killers.slot(geo, square(17), Side::One, region);
        assert_ne!(slot, other_side);
        assert_ne!(slot, other_snail);
    }

    #[test]
    fn squares_beyond_two_steps_do_not_change_the_slot() {
        let geo = geometry();
        let killers = Killers::for_board(49);
        let snail = square(8); // b2
        let region = geo.all() - Bitboard::from_square(snail);
        let far = region - Bitboard::from_square(square(48)); // g7 slimed
        let near = region - Bitboard::from_square(square(10)); // d2 slimed
        let slot = killers.slot(geo, snail, Side::One, region);
        assert_eq!(killers.slot(geo, snail, Side::One, far), slot);
        assert_ne!(killers.slot(geo, snail, Side::One, near), slot);
    }
}
