//! Sets of squares as machine words, with set operators.
//!
//! A [`Bitboard`] is generic over its storage [`Word`]: `u64` holds every board of
//! at most 64 squares (7×7 and 8×8 among them), `u128` every board up to 11×11.
//! Code that must be fast is generic over the word, so the small boards never pay
//! for the large ones.

use std::fmt;
use std::hash::Hash;
use std::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

use super::Square;

/// An unsigned machine word used as the storage of a [`Bitboard`].
pub trait Word:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// Number of bits in the word, that is the largest board it can hold.
    const BITS: u32;
    /// The word with no bit set.
    const ZERO: Self;
    /// The word with only bit 0 set.
    const ONE: Self;
    /// Number of set bits.
    fn count_ones(self) -> u32;
    /// Index of the lowest set bit (`BITS` for zero).
    fn trailing_zeros(self) -> u32;
    /// The word with its lowest set bit cleared.
    fn clear_lowest(self) -> Self;
    /// The word with the bit order reversed.
    fn reverse_bits(self) -> Self;
    /// The low 64 bits of the word.
    fn low_u64(self) -> u64;
    /// The word as a `u128`.
    fn to_u128(self) -> u128;
    /// The low `BITS` bits of a `u128`.
    fn from_u128(value: u128) -> Self;
}

macro_rules! impl_word {
    ($t:ty) => {
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn reverse_bits(self) -> Self {
                <$t>::reverse_bits(self)
            }
            #[inline(always)]
            fn low_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(value: u128) -> Self {
                value as $t
            }
        }
    };
}

impl_word!(u64);
impl_word!(u128);

/// A set of squares, one bit per square index.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard<W: Word = u128>(pub W);

impl<W: Word> Bitboard<W> {
    /// The empty set.
    pub const EMPTY: Self = Bitboard(W::ZERO);

    /// The set holding one square.
    #[inline(always)]
    pub fn from_square(square: Square) -> Self {
        Bitboard(W::ONE << square.index() as u32)
    }

    /// Whether the set holds `square`.
    #[inline(always)]
    pub fn contains(self, square: Square) -> bool {
        (self.0 >> square.index() as u32) & W::ONE != W::ZERO
    }

    /// Adds `square` to the set.
    #[inline(always)]
    pub fn insert(&mut self, square: Square) {
        *self |= Self::from_square(square);
    }

    /// Removes `square` from the set.
    #[inline(always)]
    pub fn remove(&mut self, square: Square) {
        *self &= !Self::from_square(square);
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }

    /// Whether the set is not empty.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0 != W::ZERO
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square of the set, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as u8))
        }
    }

    /// Whether the two sets share a square.
    #[inline(always)]
    pub fn intersects(self, other: Self) -> bool {
        (self & other).any()
    }

    /// Whether every square of `self` is in `other`.
    #[inline(always)]
    pub fn is_subset(self, other: Self) -> bool {
        (self & !other).is_empty()
    }

    /// The squares of the set, lowest index first.
    #[inline(always)]
    pub fn iter(self) -> Squares<W> {
        Squares(self.0)
    }

    /// The same squares in another storage word (the caller guarantees they fit).
    #[inline(always)]
    pub fn convert<V: Word>(self) -> Bitboard<V> {
        Bitboard(V::from_u128(self.0.to_u128()))
    }
}

impl<W: Word> FromIterator<Square> for Bitboard<W> {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut set = Self::EMPTY;
        for square in iter {
            set.insert(square);
        }
        set
    }
}

impl<W: Word> IntoIterator for Bitboard<W> {
    type Item = Square;
    type IntoIter = Squares<W>;
    fn into_iter(self) -> Squares<W> {
        self.iter()
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<W: Word>(W);

impl<W: Word> Iterator for Squares<W> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == W::ZERO {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 = self.0.clear_lowest();
        Some(Square::from_index(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl<W: Word> ExactSizeIterator for Squares<W> {}

macro_rules! binary_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl<W: Word> $trait for Bitboard<W> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, rhs: Self) -> Self {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl<W: Word> $assign_trait for Bitboard<W> {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<W: Word> Sub for Bitboard<W> {
    type Output = Self;
    /// Set difference: the squares of `self` that are not in `rhs`.
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        Bitboard(self.0 & !rhs.0)
    }
}

impl<W: Word> Not for Bitboard<W> {
    type Output = Self;
    /// Complement within the whole word; mask with the board to stay on it.
    #[inline(always)]
    fn not(self) -> Self {
        Bitboard(!self.0)
    }
}

/// The count of a bitboard shift, which is under 64 (checked in debug builds) and
/// taken modulo 64, so that on 128-bit words the compiler needs no test of whether
/// the shift crosses the word's middle.
#[inline(always)]
fn short_shift(rhs: u32) -> u32 {
    debug_assert!(
        rhs < 64,
        "a bitboard shifts by less than 64 squares, not by {rhs}"
    );
    rhs & 63
}

/// A shift up the square indices by fewer than 64: a file or a rank at most, on any
/// board (see `short_shift`).
impl<W: Word> Shl<u32> for Bitboard<W> {
    type Output = Self;
    #[inline(always)]
    fn shl(self, rhs: u32) -> Self {
        Bitboard(self.0 << short_shift(rhs))
    }
}

/// A shift down the square indices, by fewer than 64 as for `Shl`.
impl<W: Word> Shr<u32> for Bitboard<W> {
    type Output = Self;
    #[inline(always)]
    fn shr(self, rhs: u32) -> Self {
        Bitboard(self.0 >> short_shift(rhs))
    }
}

impl<W: Word> fmt::Debug for Bitboard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|s| s.index()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set<W: Word>(indices: &[u8]) -> Bitboard<W> {
        indices.iter().map(|&i| Square::from_index(i)).collect()
    }

    fn exercise<W: Word>() {
        let a: Bitboard<W> = set(&[0, 5, 63]);
        let b: Bitboard<W> = set(&[5, 7]);
        assert_eq!(a & b, set(&[5]));
        assert_eq!(a | b, set(&[0, 5, 7, 63]));
        assert_eq!(a ^ b, set(&[0, 7, 63]));
        assert_eq!(a - b, set(&[0, 63]));
        assert_eq!(a.len(), 3);
        assert!(a.contains(Square::from_index(63)));
        assert!(!a.contains(Square::from_index(62)));
        assert_eq!(a.first(), Some(Square::from_index(0)));
        assert_eq!(Bitboard::<W>::EMPTY.first(), None);
        assert!(set::<W>(&[5]).is_subset(a));
        assert!(!b.is_subset(a));
        assert!(a.intersects(b));
        let collected: Vec<u8> = a.iter().map(|s| s.index()).collect();
        assert_eq!(collected, vec![0, 5, 63]);
        let mut c = a;
        c.remove(Square::from_index(5));
        c.insert(Square::from_index(9));
        assert_eq!(c, set(&[0, 9, 63]));
        assert_eq!(c.convert::<u128>().convert::<W>(), c);
    }

    #[test]
    fn set_operations_agree_for_both_words() {
        exercise::<u64>();
        exercise::<u128>();
    }

    #[test]
    fn shifts_carry_squares_across_the_middle_of_the_wide_word() {
        // A rank up and down on 11×11 and 9×9, and a file across bits 63 and 64.
        let low: Bitboard<u128> = set(&[60, 63]);
        assert_eq!(low << 11, set(&[71, 74]));
        assert_eq!((low << 11) >> 11, low);
        assert_eq!(set::<u128>(&[70, 64]) >> 9, set(&[61, 55]));
        assert_eq!(set::<u128>(&[63]) << 1, set(&[64]));
        assert_eq!(set::<u128>(&[64]) >> 1, set(&[63]));
        assert_eq!(set::<u64>(&[52]) << 11, set(&[63]));
    }

    #[test]
    fn wide_word_holds_the_largest_board() {
        let top: Bitboard<u128> = set(&[120]);
        assert_eq!(top.first(), Some(Square::from_index(120)));
        assert_eq!(top.len(), 1);
    }
}
