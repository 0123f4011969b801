//! Lowering: the only stage that rewrites function bodies.
//!
//! Each mode replaces every marker call; results that other instructions use are collected in
//! one id-replacement map, which cleanup's use count applies as it reads each instruction (with
//! [`rewrite_uses`]): finding the uses costs no pass of its own, and rewriting costs per use.

pub mod emulation;
pub mod native;

use crate::error::{Error, Result};
use crate::module::idhash::{IdBits, IdMap};
use crate::module::index::Index;
use crate::module::{inst, Module};

/// Call result id → the id that replaces it.
pub type Replacements = IdMap<u32, u32>;

/// The words of instruction `i` (`words`, one or several instructions) with every use of a
/// replaced id rewritten, or `None` when it uses none. An instruction that holds a replaced id's
/// value among its words but cannot be decoded is an error (its ids cannot be told from its
/// literals). Callers look only at the instructions of the functions that call markers (SSA
/// values are only used in their own function); cleanup's use count, which reads every
/// instruction anyway, applies the replacements as it counts (see [`crate::cleanup`]).
pub fn rewrite_uses(
    module: &Module,
    index: &Index,
    i: usize,
    words: &[u32],
    replaced: &IdBits,
    map: &Replacements,
) -> Result<Option<Vec<u32>>> {
    let mut new: Option<Vec<u32>> = None;
    let mut at = 0;
    for one in inst::instructions(words) {
        let mut uses = false;
        if !index.visit_use_ids_undecoded(one, |id| uses |= replaced.contains(id)) {
            uses = one[1..].iter().any(|&x| replaced.contains(x));
        }
        if uses {
            let positions = index.id_use_positions(module, one).ok_or_else(|| {
                Error::Lower(format!(
                    "cannot rewrite {} at word {} that uses a marker call result: the instruction cannot be decoded{}",
                    inst::name_of(one),
                    module.offset_of(i),
                    index.undecodable_because(module, one)
                ))
            })?;
            for p in positions {
                if let Some(&to) = map.get(&one[p]) {
                    let new = new.get_or_insert_with(|| words.to_vec());
                    new[at + p] = to;
                }
            }
        }
        at += one.len();
    }
    Ok(new)
}
