//! Part of phase 4: exports of one name whose definitions are copies of one another merge.
//!
//! Such exports (the translator's `spirv.llvm_fshl_i32` in two device libraries; the ITT
//! wrappers every DPC++ image carries) are no conflict: the first copy is kept, as for
//! `LinkOnceODR`. Algorithm: a work queue of the names exported more than once. A name's copies
//! are compared with the first ([`same_definition`]); when they are all the same, the others are
//! replaced by the first and their linkage decorations dropped. A copy that calls another copy
//! matches once the callee's copies are one: a name whose copies differ first where they name two
//! exports of another such name waits for that name, and is compared again only if it merges
//! (each name is compared once, plus once per name it waited on that merged).
//!
//! Preconditions: `defs` is filled; the built-in imports are merged. Postconditions: the merged
//! exports are in `removed_symbols` and `replace`; a note lists the merged names; names whose
//! copies differ are left for the symbols phase to report.

use super::state::{resolve, State};
use super::symbols::{Sym, EXPORT};
use crate::module::idhash::IdMap;
use crate::module::inst;
use spirv::Op;
use std::collections::{BTreeMap, VecDeque};

/// Merges the exports of one name that are copies of one another (see the module docs).
pub(super) fn merge_copies(state: &mut State, symbols: &BTreeMap<Vec<u8>, Vec<Sym>>) {
    let groups: Vec<&Vec<u8>> = symbols
        .iter()
        .filter(|(_, syms)| syms.iter().filter(|s| s.kind == EXPORT).count() > 1)
        .map(|(name, _)| name)
        .collect();
    let exports_of = |g: usize| -> Vec<&Sym> {
        symbols[groups[g]]
            .iter()
            .filter(|s| s.kind == EXPORT)
            .collect()
    };
    let group_of: IdMap<u32, usize> = (0..groups.len())
        .flat_map(|g| exports_of(g).into_iter().map(move |s| (s.id, g)))
        .collect();
    let mut waiting: Vec<Vec<usize>> = vec![Vec::new(); groups.len()];
    let mut queue: VecDeque<usize> = (0..groups.len()).collect();
    let mut merged_copies: Vec<String> = Vec::new();
    while let Some(g) = queue.pop_front() {
        let exports = exports_of(g);
        let first = exports[0];
        let mut verdict = Comparison::Same;
        for e in &exports[1..] {
            verdict = same_definition(state, &group_of, first.id, e.id);
            if verdict != Comparison::Same {
                break;
            }
        }
        match verdict {
            Comparison::Same => {
                for dup in &exports[1..] {
                    state.replace.insert(dup.id, first.id);
                    state.removed_symbols.insert(dup.id);
                    state.drop.insert(dup.decoration);
                }
                merged_copies.push(String::from_utf8_lossy(groups[g]).into_owned());
                queue.extend(std::mem::take(&mut waiting[g]));
            }
            Comparison::WaitsOn(h) if h != g => waiting[h].push(g),
            _ => {}
        }
    }
    if !merged_copies.is_empty() {
        merged_copies.sort();
        let note = crate::Diagnostic::CopiesMerged {
            symbols: merged_copies,
        };
        state.report.notes.push(note);
    }
}

/// Whether the definitions of `a` and `b` (two exports of one name) are copies of one another:
/// variables whose words match apart from the result id, or functions whose instructions match one
/// for one — the same opcodes and literals, the same global ids (after the replacements so far),
/// and the ids they define themselves in the same places. Anything that cannot be decoded differs.
/// Where they first differ by naming two exports of one copy group of `group_of` that have not
/// merged yet, the answer is to wait for that group.
fn same_definition(state: &State, group_of: &IdMap<u32, usize>, a: u32, b: u32) -> Comparison {
    let State {
        insts,
        defs: def_of,
        replace,
        ..
    } = state;
    use Comparison::{Differs, Same, WaitsOn};
    let (Some(na), Some(nb)) = (def_of.get(&a), def_of.get(&b)) else {
        return Differs;
    };
    // The slots of a definition: the variable's, or OpFunction … OpFunctionEnd.
    let slots = |n: usize| -> Option<Vec<usize>> {
        let op = inst::opcode(insts.words(n));
        if op == Op::Variable as u32 {
            return Some(vec![n]);
        }
        if op != Op::Function as u32 {
            return None;
        }
        let mut v = Vec::new();
        for m in n..insts.len() {
            v.push(m);
            if inst::is(insts.words(m), Op::FunctionEnd) {
                return Some(v);
            }
        }
        None
    };
    let (Some(sa), Some(sb)) = (slots(na), slots(nb)) else {
        return Differs;
    };
    if sa.len() != sb.len() {
        return Differs;
    }
    // The ids each defines, numbered in order of definition.
    let locals = |slots: &[usize]| -> IdMap<u32, usize> {
        slots
            .iter()
            .filter_map(|&m| insts.result(m))
            .enumerate()
            .map(|(k, id)| (id, k))
            .collect()
    };
    let (la, lb) = (locals(&sa), locals(&sb));
    if la.len() != lb.len() {
        return Differs;
    }
    let mut uses = Vec::new();
    let mut is_id = Vec::new();
    for (&ma, &mb) in sa.iter().zip(&sb) {
        let (wa, wb) = (insts.words(ma), insts.words(mb));
        // One instruction per slot (a slot rewritten to several is not compared).
        if wa.len() != wb.len() || wa[0] != wb[0] || (wa[0] >> 16) as usize != wa.len() {
            return Differs;
        }
        if !insts.uses_known(ma, &mut uses) {
            return Differs;
        }
        uses.extend(insts.result_pos(ma));
        is_id.clear();
        is_id.resize(wa.len(), false);
        for &p in &uses {
            if let Some(f) = is_id.get_mut(p) {
                *f = true;
            }
        }
        for k in 1..wa.len() {
            let same = if is_id[k] {
                match (la.get(&wa[k]), lb.get(&wb[k])) {
                    (Some(x), Some(y)) => x == y,
                    (None, None) => {
                        let (x, y) = (resolve(replace, wa[k]), resolve(replace, wb[k]));
                        if x != y {
                            // Two exports of one name not merged (yet).
                            return match (group_of.get(&x), group_of.get(&y)) {
                                (Some(&g), Some(&h)) if g == h => WaitsOn(g),
                                _ => Differs,
                            };
                        }
                        true
                    }
                    _ => false,
                }
            } else {
                wa[k] == wb[k]
            };
            if !same {
                return Differs;
            }
        }
    }
    Same
}

/// How two definitions compare ([`same_definition`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Comparison {
    Same,
    Differs,
    /// Alike up to their first difference, where they name two exports of copy group `g` that
    /// have not merged.
    WaitsOn(usize),
}
