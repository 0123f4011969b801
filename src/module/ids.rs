//! The only place that allocates ids and raises the module's id bound.

use super::Module;
use crate::error::{Error, Result};

/// Hands out fresh ids above the module's bound and writes the new bound back.
///
/// Invariant: every id it returns is ≥ the input bound and < the bound it writes back; the bound
/// never exceeds `u32::MAX` (a 32-bit overflow is an [`Error::IdOverflow`]). Ids are handed out
/// one at a time ([`IdAllocator::alloc`]) or as a block ([`IdAllocator::reserve`]: a linked
/// input's id range). The default allocator is that of an empty module (bound 1).
#[derive(Debug)]
pub struct IdAllocator {
    next: u32,
}

impl Default for IdAllocator {
    fn default() -> Self {
        IdAllocator { next: 1 }
    }
}

impl IdAllocator {
    pub fn new(module: &Module) -> Self {
        IdAllocator::above(module.bound)
    }

    /// An allocator for a module under construction whose ids are below `bound`.
    pub fn above(bound: u32) -> Self {
        IdAllocator { next: bound.max(1) }
    }

    /// The bound so far: one more than the largest id handed out (or the starting bound).
    pub fn bound(&self) -> u32 {
        self.next
    }

    /// A block of `count` fresh ids; returns the first. The bound afterwards may be `u32::MAX`.
    pub fn reserve(&mut self, count: u32) -> Result<u32> {
        let first = self.next;
        self.next = first
            .checked_add(count)
            .ok_or(Error::IdOverflow(u32::MAX))?;
        Ok(first)
    }

    /// A fresh id.
    pub fn alloc(&mut self) -> Result<u32> {
        if self.next == u32::MAX {
            return Err(Error::IdOverflow(u32::MAX));
        }
        let id = self.next;
        self.next += 1;
        Ok(id)
    }

    /// Writes the new bound into the module. Call once, after the last `alloc`.
    pub fn finish(self, module: &mut Module) {
        module.bound = module.bound.max(self.next);
    }
}
