//! A fast hasher for integer keys (ids, instruction indices): SipHash's DoS resistance buys
//! nothing here and costs most of the time of the id maps. Multiplicative (Fibonacci) hashing.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use super::bits::BitSet;

#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        // The product's high bits are the well-mixed ones; fold them into the low bits the
        // table indexes by.
        self.0 ^ (self.0 >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes a step (keys such as instruction words hash as byte slices).
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut a = [0u8; 8];
            a.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(a));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut a = [0u8; 8];
            a[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(a) ^ ((rest.len() as u64) << 56));
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0.rotate_left(5) ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

pub type IdBuild = BuildHasherDefault<IdHasher>;
/// A map keyed by ids or instruction indices.
pub type IdMap<K, V> = HashMap<K, V, IdBuild>;
/// A set of ids.
pub type IdSet<K> = HashSet<K, IdBuild>;

/// A set of ids: a [`BitSet`] when the id bound is small enough to be cheap, a hash set
/// otherwise (a hostile bound never sizes an allocation).
///
/// Invariant: an id below the bitset's capacity is never in the hash set (growing the bitset
/// moves the ids it now covers into it), so one place answers for each id.
#[derive(Clone, Default)]
pub struct IdBits {
    dense: BitSet,
    sparse: IdSet<u32>,
}

impl IdBits {
    /// A set for ids below `bound`; dense when that costs at most `budget_bytes`.
    pub fn new(bound: u32, budget_bytes: usize) -> Self {
        let dense_len = if (bound as usize).div_ceil(64) * 8 <= budget_bytes {
            bound as usize
        } else {
            0
        };
        IdBits {
            dense: BitSet::new(dense_len),
            sparse: IdSet::default(),
        }
    }

    /// Adds `id`; false if it was there.
    #[inline]
    pub fn insert(&mut self, id: u32) -> bool {
        match self.dense.try_insert(id as usize) {
            Some(new) => new,
            None => self.sparse.insert(id),
        }
    }

    /// Adds `id` when the bitset has room for it and it was not there; false otherwise (nothing
    /// changed then but a bit already set).
    #[inline(always)]
    pub fn insert_new_dense(&mut self, id: u32) -> bool {
        self.dense.try_insert(id as usize) == Some(true)
    }

    /// [`IdBits::insert`], first growing the bitset to hold `id` if that keeps it at most
    /// `limit_bits` long (by doubling: amortised for ids met in increasing order).
    #[inline]
    pub fn insert_growing(&mut self, id: u32, limit_bits: usize) -> bool {
        let i = id as usize;
        if i >= self.dense.capacity() && i < limit_bits {
            self.grow((i + 1).max(self.dense.capacity() * 2).min(limit_bits));
        }
        self.insert(id)
    }

    /// Grows the bitset to hold the ids below `len` and moves those of the hash set into it.
    #[cold]
    fn grow(&mut self, len: usize) {
        self.dense.grow(len);
        if !self.sparse.is_empty() {
            let dense = &mut self.dense;
            let capacity = dense.capacity();
            self.sparse.retain(|&id| {
                let moved = (id as usize) < capacity;
                if moved {
                    dense.insert(id as usize);
                }
                !moved
            });
        }
    }

    /// Whether the set holds no id and has no room yet (as made by `Default`).
    pub fn is_empty_set(&self) -> bool {
        self.dense.capacity() == 0 && self.sparse.is_empty()
    }

    /// Adds every id of `other`; false if the two sets had an id in common.
    pub fn union_disjoint(&mut self, other: IdBits) -> bool {
        if other.dense.capacity() > self.dense.capacity() {
            self.grow(other.dense.capacity());
        }
        let mut disjoint = self.dense.union_disjoint(&other.dense);
        for id in other.sparse {
            disjoint &= self.insert(id);
        }
        disjoint
    }

    /// Whether `f` holds for every id in the set.
    pub fn all(&self, mut f: impl FnMut(u32) -> bool) -> bool {
        self.dense.iter().all(|i| f(i as u32)) && self.sparse.iter().all(|&id| f(id))
    }

    /// Takes `id` out.
    pub fn remove(&mut self, id: u32) {
        if (id as usize) < self.dense.capacity() {
            self.dense.remove(id as usize);
        } else {
            self.sparse.remove(&id);
        }
    }

    /// Whether `id` is in the set.
    #[inline]
    pub fn contains(&self, id: u32) -> bool {
        match self.dense.get(id as usize) {
            Some(bit) => bit,
            None => !self.sparse.is_empty() && self.sparse.contains(&id),
        }
    }
}

/// A map from ids to small values: an array indexed by id when the bound is cheap enough, a hash
/// map otherwise. `V::default()` means absent.
pub struct IdTable<V: Copy + Default + PartialEq> {
    dense: Vec<V>,
    sparse: IdMap<u32, V>,
}

impl<V: Copy + Default + PartialEq> IdTable<V> {
    /// A table for ids below `bound`; dense when that costs at most `budget_bytes`.
    pub fn new(bound: u32, budget_bytes: usize) -> Self {
        let dense = if (bound as usize).saturating_mul(std::mem::size_of::<V>()) <= budget_bytes {
            vec![V::default(); bound as usize]
        } else {
            Vec::new()
        };
        IdTable {
            dense,
            sparse: IdMap::default(),
        }
    }

    #[inline]
    pub fn get(&self, id: u32) -> V {
        match self.dense.get(id as usize) {
            Some(&v) => v,
            None => self.sparse.get(&id).copied().unwrap_or_default(),
        }
    }

    #[inline]
    pub fn get_mut(&mut self, id: u32) -> &mut V {
        match self.dense.get_mut(id as usize) {
            Some(v) => v,
            None => self.sparse.entry(id).or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::IdBits;

    #[test]
    fn a_bound_over_the_budget_keeps_the_ids_in_the_hash_set() {
        let mut ids = IdBits::new(1 << 30, 1024);
        assert_eq!(ids.dense.capacity(), 0);
        assert!(ids.insert(7) && !ids.insert(7));
        assert!(ids.contains(7) && !ids.contains(8));
        ids.remove(7);
        assert!(!ids.contains(7));
        let small = IdBits::new(1000, 1024);
        assert_eq!(small.dense.capacity(), 1024);
    }

    #[test]
    fn growing_stays_within_the_limit_and_moves_the_ids_it_covers() {
        let mut ids = IdBits::default();
        // Beyond the limit: hashed, nothing allocated for the bitset.
        assert!(ids.insert_growing(u32::MAX - 1, 1 << 16));
        assert!(ids.insert_growing(100_000, 1 << 16));
        assert_eq!(ids.dense.capacity(), 0);
        // Within: the bitset grows to hold it, no further than the limit.
        assert!(ids.insert_growing(5, 1 << 16));
        assert!(ids.dense.capacity() <= 1 << 16);
        assert!(ids.contains(5) && !ids.contains(6));
        // A larger limit covers 100,000: it moves from the hash set into the bitset, once.
        assert!(!ids.insert_growing(100_001 - 1, 1 << 20));
        assert!(ids.dense.capacity() > 100_000 && ids.dense.capacity() <= 1 << 20);
        assert!(!ids.sparse.contains(&100_000));
        assert!(ids.contains(100_000) && ids.contains(u32::MAX - 1));
        assert!(!ids.insert_growing(100_000, 1 << 20));
        assert!(ids.insert_growing(100_002, 1 << 20));
    }
}
