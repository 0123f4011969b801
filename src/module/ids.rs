//! The only place that allocates ids and raises the module's id bound.

use super::Module;
use crate::error::{Error, Result};

/// Hands out fresh ids above the module's bound and writes the new bound back.
///
/// Invariant: every id it returns is ≥ the input bound and < the bound it writes back; the bound
/// never exceeds `u32::MAX` (a 32-bit overflow is an [`Error::IdOverflow`]).
pub struct IdAllocator {
    next: u32,
}

impl IdAllocator {
    pub fn new(module: &Module) -> Self {
        IdAllocator {
            next: module.bound.max(1),
        }
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
