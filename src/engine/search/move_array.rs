//! A node's list of moves on the stack: room for every move a board can have
//! ([`MAX_MOVES`]) without paying, at every node, to initialise the room it does not use.

use crate::board::MAX_MOVES;
use std::mem::MaybeUninit;

/// Up to [`MAX_MOVES`] values of `T`, pushed one after the other.
pub(crate) struct MoveArray<T> {
    items: [MaybeUninit<T>; MAX_MOVES],
    n: usize,
}

impl<T: Copy> MoveArray<T> {
    /// An empty list: only the stack pointer moves (a zeroed 32-entry list cost the exact
    /// search 4% of its samples).
    #[inline(always)]
    pub fn new() -> Self {
        MoveArray {
            items: [const { MaybeUninit::uninit() }; MAX_MOVES],
            n: 0,
        }
    }

    /// Appends `x`; a node has at most [`MAX_MOVES`] moves, one a square.
    #[inline(always)]
    pub fn push(&mut self, x: T) {
        self.items[self.n].write(x);
        self.n += 1;
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.n
    }

    /// The values pushed so far.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: `items[..n]` were written by `push` (`n` only grows there, after the
        // write), and `n <= MAX_MOVES` because `push` indexes with bounds checks.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<T>(), self.n) }
    }

    /// The values pushed so far, to reorder in place.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`; the borrow of `self` is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<T>(), self.n) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_a_move_for_every_square() {
        let mut a = MoveArray::<(u8, u64)>::new();
        assert!(a.as_slice().is_empty());
        for k in 0..MAX_MOVES {
            a.push((k as u8, 1u64 << k));
        }
        assert_eq!(a.len(), MAX_MOVES);
        a.as_mut_slice().reverse();
        assert_eq!(a.as_slice()[0], (63, 1 << 63));
        assert_eq!(a.as_slice()[63], (0, 1));
    }
}
