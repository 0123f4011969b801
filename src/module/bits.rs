//! [`BitSet`]: the one dense set of small integers (instruction indices, arena slots, ids), one
//! bit each in 64-bit words.
//!
//! Every bitset of the crate is this type: the module's edit marks, the linker's dropped slots,
//! cleanup's instructions whose removal decrements counts, and the dense part of
//! [`super::idhash::IdBits`] (the id sets that fall back to a hash set when a hostile bound
//! would size the bitset).

/// A set of integers below its [capacity](BitSet::capacity), one bit each.
///
/// Invariants: the capacity is a multiple of 64 (whole words); it is fixed at creation
/// ([`BitSet::new`]) and changes only when [`BitSet::insert`] or [`BitSet::grow`] needs room,
/// never shrinking. Every index at or above the capacity is absent: reads of one
/// ([`BitSet::contains`], [`BitSet::remove`]) are answered without growing the set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
}

/// The word and the mask of index `i`.
#[inline]
fn place(i: usize) -> (usize, u64) {
    (i / 64, 1u64 << (i % 64))
}

impl BitSet {
    /// An empty set with room for the indices below `len` (rounded up to whole words).
    pub fn new(len: usize) -> Self {
        BitSet {
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// Number of indices the set holds without growing (a multiple of 64).
    #[inline]
    pub fn capacity(&self) -> usize {
        self.words.len() * 64
    }

    /// Makes room for the indices below `len` (rounded up to whole words); never shrinks.
    pub fn grow(&mut self, len: usize) {
        let words = len.div_ceil(64);
        if words > self.words.len() {
            self.words.resize(words, 0);
        }
    }

    /// Adds every index of `other` (growing to its capacity, a word at a time); false if the two
    /// sets had an index in common.
    pub fn union_disjoint(&mut self, other: &BitSet) -> bool {
        self.grow(other.capacity());
        let mut disjoint = true;
        for (a, &b) in self.words.iter_mut().zip(&other.words) {
            disjoint &= *a & b == 0;
            *a |= b;
        }
        disjoint
    }

    /// Whether `i` is in the set (false at or above the capacity).
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        let (w, mask) = place(i);
        self.words.get(w).is_some_and(|word| word & mask != 0)
    }

    /// Whether `i` is in the set; `None` when `i` is at or above the capacity (for a caller that
    /// keeps such indices elsewhere).
    #[inline]
    pub fn get(&self, i: usize) -> Option<bool> {
        let (w, mask) = place(i);
        self.words.get(w).map(|word| word & mask != 0)
    }

    /// Adds `i`, growing the set to hold it; false if it was there.
    #[inline]
    pub fn insert(&mut self, i: usize) -> bool {
        let (w, mask) = place(i);
        if w >= self.words.len() {
            self.grow(i + 1);
        }
        match self.words.get_mut(w) {
            Some(word) => {
                let new = *word & mask == 0;
                *word |= mask;
                new
            }
            None => false,
        }
    }

    /// Adds `i` if it is below the capacity (the set does not grow): whether it was new, or
    /// `None` when `i` is at or above the capacity (for a caller that keeps such indices
    /// elsewhere).
    #[inline]
    pub fn try_insert(&mut self, i: usize) -> Option<bool> {
        let (w, mask) = place(i);
        let word = self.words.get_mut(w)?;
        let new = *word & mask == 0;
        *word |= mask;
        Some(new)
    }

    /// Takes `i` out; false if it was not there.
    #[inline]
    pub fn remove(&mut self, i: usize) -> bool {
        let (w, mask) = place(i);
        match self.words.get_mut(w) {
            Some(word) => {
                let had = *word & mask != 0;
                *word &= !mask;
                had
            }
            None => false,
        }
    }

    /// Whether the set holds nothing.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Number of indices in the set.
    #[cfg(test)]
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The indices in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(k * 64 + b)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::BitSet;

    #[test]
    fn a_new_set_is_empty_with_room_rounded_to_whole_words() {
        let s = BitSet::new(65);
        assert_eq!(s.capacity(), 128);
        assert!(s.is_empty());
        assert_eq!(s.count(), 0);
        assert_eq!(s.iter().next(), None);
        assert_eq!(BitSet::new(0).capacity(), 0);
        assert_eq!(BitSet::new(64).capacity(), 64);
        assert_eq!(BitSet::default().capacity(), 0);
    }

    #[test]
    fn insert_contains_and_remove_agree_at_word_edges() {
        let mut s = BitSet::new(200);
        for i in [0, 63, 64, 127, 128, 199] {
            assert!(!s.contains(i));
            assert!(s.insert(i), "{i} was new");
            assert!(!s.insert(i), "{i} was there");
            assert!(s.contains(i));
            assert_eq!(s.get(i), Some(true));
        }
        assert!(!s.contains(1) && !s.contains(62) && !s.contains(65));
        assert_eq!(s.count(), 6);
        assert!(s.remove(64));
        assert!(!s.remove(64));
        assert!(!s.contains(64));
        assert!(s.contains(63) && s.contains(127), "neighbours stay");
        assert_eq!(s.iter().collect::<Vec<_>>(), [0, 63, 127, 128, 199]);
    }

    #[test]
    fn reads_beyond_the_capacity_are_absent_and_do_not_grow() {
        let mut s = BitSet::new(64);
        assert!(!s.contains(64));
        assert!(!s.contains(usize::MAX));
        assert_eq!(s.get(64), None);
        assert_eq!(s.get(63), Some(false));
        assert!(!s.remove(1000));
        assert_eq!(s.capacity(), 64);
    }

    #[test]
    fn insert_grows_to_hold_the_index_and_keeps_what_was_there() {
        let mut s = BitSet::default();
        assert!(s.insert(5));
        assert_eq!(s.capacity(), 64);
        assert!(s.insert(300));
        assert_eq!(s.capacity(), 320);
        assert!(s.contains(5) && s.contains(300));
        assert_eq!(s.iter().collect::<Vec<_>>(), [5, 300]);
    }

    #[test]
    fn try_insert_stays_within_the_capacity() {
        let mut s = BitSet::new(64);
        assert_eq!(s.try_insert(63), Some(true));
        assert_eq!(s.try_insert(63), Some(false));
        assert_eq!(s.try_insert(64), None);
        assert_eq!(s.capacity(), 64);
        assert_eq!(s.iter().collect::<Vec<_>>(), [63]);
    }

    #[test]
    fn grow_never_shrinks() {
        let mut s = BitSet::new(256);
        s.insert(255);
        s.grow(10);
        assert_eq!(s.capacity(), 256);
        assert!(s.contains(255));
        s.grow(257);
        assert_eq!(s.capacity(), 320);
        assert!(s.contains(255));
    }

    #[test]
    fn iter_counts_and_orders_like_a_sorted_set() {
        // A pseudo-random set against a sorted list.
        let mut s = BitSet::new(1000);
        let mut want = std::collections::BTreeSet::new();
        let mut x = 12345u32;
        for _ in 0..400 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let i = (x >> 8) as usize % 1000;
            assert_eq!(s.insert(i), want.insert(i));
        }
        assert_eq!(s.count(), want.len());
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            want.iter().copied().collect::<Vec<_>>()
        );
        for i in 0..1000 {
            assert_eq!(s.contains(i), want.contains(&i));
        }
    }
}
