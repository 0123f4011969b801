//! Lowering: the only stage that rewrites function bodies.
//!
//! Each mode replaces every marker call; results that other instructions use are collected in
//! one id-replacement map that [`apply_replacements`] applies once.

pub mod emulation;
pub mod native;

use crate::error::{Error, Result};
use crate::module::idhash::{IdBits, IdMap, IdSet};
use crate::module::index::Index;
use crate::module::{inst, Module, ReleaseBehind};

/// Call result id → the id that replaces it.
pub type Replacements = IdMap<u32, u32>;

/// Rewrites every use of a replaced id inside the functions in `callers` (SSA values are only used
/// in their own function). The replaced ids' names and decorations stay: cleanup removes them
/// with those of everything else that leaves the module (a replaced id is the result of a
/// removed call), in its one pass over the annotations.
pub fn apply_replacements(
    module: &mut Module,
    index: &Index,
    callers: &IdSet<u32>,
    map: &Replacements,
) -> Result<()> {
    if map.is_empty() {
        return Ok(());
    }
    let mut replaced = IdBits::new(module.bound(), module.word_count());
    for &id in map.keys() {
        replaced.insert(id);
    }
    // The input's pages go behind this pass (the functions come in order).
    let mut behind = ReleaseBehind::default();
    for f in index.functions.iter().filter(|f| callers.contains(&f.id)) {
        for i in f.start..=f.end {
            behind.passed(module, module.offset_of(i));
            let w = if module.is_edited(i) {
                let Some(w) = module.inst(i) else { continue };
                w
            } else {
                module.original(i)
            };
            if !w[1..].iter().any(|&x| replaced.contains(x)) {
                continue;
            }
            let positions = index.id_use_positions(module, w).ok_or_else(|| {
                Error::Lower(format!(
                    "cannot rewrite {} at word {} that uses a marker call result: the instruction cannot be decoded{}",
                    inst::name_of(w),
                    module.offset_of(i),
                    index.undecodable_because(module, w)
                ))
            })?;
            let mut new = w.to_vec();
            let mut changed = false;
            for p in positions {
                if let Some(&to) = map.get(&new[p]) {
                    new[p] = to;
                    changed = true;
                }
            }
            if changed {
                module.replace(i, new);
            }
        }
    }
    Ok(())
}
