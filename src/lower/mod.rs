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
use crate::module::replaced::Replaced;
use crate::module::{inst, Module};

/// Call result id → the id that replaces it.
pub type Replacements = IdMap<u32, u32>;

/// Instructions rewritten by [`rewrite_uses`]: their new words one after another in one arena
/// (no allocation per instruction), applied to the module at once.
#[derive(Default)]
pub struct Rewrites {
    words: Vec<u32>,
    /// (instruction index, end of its words in `words`), in the order they were rewritten.
    insts: Vec<(usize, usize)>,
}

impl Rewrites {
    /// The words of the last rewritten instruction.
    pub fn last(&self) -> &[u32] {
        let start = self
            .insts
            .len()
            .checked_sub(2)
            .map_or(0, |k| self.insts[k].1);
        &self.words[start..]
    }

    /// Replaces each rewritten instruction of `module` by its new words: the arena becomes the
    /// module's replacements when it has none yet (native lowering's first half), else it is
    /// copied in (see [`Module::absorb_replacements`]).
    pub fn apply(self, module: &mut Module) {
        module.absorb_replacements(Replaced::from_ordered(self.words, self.insts));
    }
}

/// Rewrites every use of a replaced id in instruction `i` (`words`, one or several
/// instructions) into `out`; false (and `out` unchanged) when it uses none. An instruction that
/// holds a replaced id's value among its words but cannot be decoded is an error (its ids
/// cannot be told from its literals). Callers look only at the instructions of the functions
/// that call markers (SSA values are only used in their own function); cleanup's use count,
/// which reads every instruction anyway, applies the replacements as it counts (see
/// [`crate::cleanup`]): the cost is per use, not per instruction.
pub fn rewrite_uses(
    module: &Module,
    index: &Index,
    i: usize,
    words: &[u32],
    replaced: &IdBits,
    map: &Replacements,
    out: &mut Rewrites,
) -> Result<bool> {
    let start = out.words.len();
    out.words.extend_from_slice(words);
    let mut changed = false;
    let mut at = start;
    for one in inst::instructions(words) {
        let new = &mut out.words[at..at + one.len()];
        let mut rewrite = |p: usize| {
            if replaced.contains(one[p]) {
                if let Some(&to) = map.get(&one[p]) {
                    new[p] = to;
                    changed = true;
                }
            }
        };
        if !index.visit_use_positions_undecoded(one, &mut rewrite)
            && one[1..].iter().any(|&x| replaced.contains(x))
        {
            let positions = index.id_use_positions(module, one).ok_or_else(|| {
                Error::Lower(format!(
                    "cannot rewrite {} at word {} that uses a marker call result: the instruction cannot be decoded{}",
                    inst::name_of(one),
                    module.offset_of(i),
                    index.undecodable_because(module, one)
                ))
            })?;
            positions.into_iter().for_each(&mut rewrite);
        }
        at += one.len();
    }
    if changed {
        out.insts.push((i, out.words.len()));
    } else {
        out.words.truncate(start);
    }
    Ok(changed)
}
