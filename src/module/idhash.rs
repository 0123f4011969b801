//! A fast hasher for integer keys (ids, instruction indices): SipHash's DoS resistance buys
//! nothing here and costs most of the time of the id maps. Multiplicative (Fibonacci) hashing.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

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

/// A set of ids: a bitset when the id bound is small enough to be cheap, a hash set otherwise (a
/// hostile bound never sizes an allocation).
#[derive(Clone)]
pub struct IdBits {
    dense: Vec<u64>,
    sparse: IdSet<u32>,
}

impl IdBits {
    /// A set for ids below `bound`; dense when that costs at most `budget_bytes`.
    pub fn new(bound: u32, budget_bytes: usize) -> Self {
        let words = (bound as usize).div_ceil(64);
        let dense = if words * 8 <= budget_bytes {
            vec![0u64; words]
        } else {
            Vec::new()
        };
        IdBits {
            dense,
            sparse: IdSet::default(),
        }
    }

    pub fn insert(&mut self, id: u32) -> bool {
        let (w, b) = ((id / 64) as usize, id % 64);
        match self.dense.get_mut(w) {
            Some(word) => {
                let had = *word & (1 << b) != 0;
                *word |= 1 << b;
                !had
            }
            None => self.sparse.insert(id),
        }
    }

    pub fn remove(&mut self, id: u32) {
        match self.dense.get_mut((id / 64) as usize) {
            Some(word) => *word &= !(1 << (id % 64)),
            None => {
                self.sparse.remove(&id);
            }
        }
    }

    #[inline]
    pub fn contains(&self, id: u32) -> bool {
        match self.dense.get((id / 64) as usize) {
            Some(word) => word & (1 << (id % 64)) != 0,
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
