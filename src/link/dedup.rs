//! Phase 3: deduplicate types and constants.
//!
//! Algorithm: the candidates are the global types (but `OpTypeForwardPointer`), the constants,
//! `OpSpecConstantOp` and `OpSpecConstantComposite` (pure functions of their operands), `OpUndef`,
//! and the scalar spec constants of DPC++'s ITT instrumentation flag (SpecId
//! 0xFF747469, set by the runtime: every DPC++ image may hold it, and identical copies merge like
//! constants). In slot order, each candidate's operands are resolved through the replacements so
//! far, then it is keyed by its words with the result id zeroed followed by its sorted
//! decorations (targets masked; every part starts with its word count, so the concatenation is
//! unambiguous). A key seen before replaces the candidate's id by the first one's and drops it.
//!
//! Preconditions: phase 2 done (its instruction-set replacements are in `replace`); types are
//! defined before use (SPIR-V's rule), so a type's operands are final when it is keyed.
//! Postconditions: no two kept candidates have the same key; every dropped one is replaced by
//! the kept one (its decorations stay until the prune phase removes those of replaced ids).

// Slots are addressed by index in several parallel arrays (words, sections, drop marks).
#![allow(clippy::needless_range_loop)]

use super::state::{is_decoration, FirstSeen, Insts, State};
use crate::module::assemble::Section;
use crate::module::idhash::{IdBits, IdMap, IdSet};
use crate::module::inst;
use crate::specmap::ITT_SPEC_ID;
use spirv::{Decoration, Op};

/// Merges identical types and constants (see the module docs).
pub(super) fn deduplicate_types_and_constants(state: &mut State) {
    let State {
        insts,
        sections,
        replace,
        drop,
        ids,
        ..
    } = state;
    let itt_flags: IdSet<u32> = (0..insts.len())
        .filter(|&n| sections[n] == Section::Annotation)
        .map(|n| insts.words(n))
        .filter(|w| is_decoration(w, Decoration::SpecId) && w[3] == ITT_SPEC_ID)
        .map(|w| w[1])
        .collect();
    let is_candidate = |insts: &Insts, n: usize| {
        let op = inst::opcode(insts.words(n));
        sections[n] == Section::Global
            && (is_dedupable_global(op)
                || is_scalar_spec_constant(op)
                    && insts.result(n).is_some_and(|r| itt_flags.contains(&r)))
    };
    let decorations_of = candidate_decorations(insts, sections, ids.bound(), is_candidate);
    let key_into = |insts: &Insts, n: usize, key: &mut Vec<u32>| {
        key.clear();
        key.extend_from_slice(insts.words(n));
        if let Some(rpos) = insts.result_pos(n) {
            key[rpos] = 0;
        }
        if let Some(decos) = insts.result(n).and_then(|id| decorations_of.get(&id)) {
            for d in decos {
                key.extend_from_slice(d);
            }
        }
    };
    let mut canon = FirstSeen::default();
    let (mut key, mut other, mut scratch) = (Vec::new(), Vec::new(), Vec::new());
    for n in 0..insts.len() {
        if !is_candidate(insts, n) {
            continue;
        }
        insts.resolve_uses(n, replace, &mut scratch);
        let Some(id) = insts.result(n) else { continue };
        key_into(insts, n, &mut key);
        let has_key = |m: usize| {
            key_into(insts, m, &mut other);
            other == key
        };
        if let Some(first) = canon.first(n, &key, has_key) {
            if let Some(first_id) = insts.result(first) {
                replace.insert(id, first_id);
                drop.insert(n);
            }
        }
    }
}

/// The decorations (target masked, sorted) of each candidate's result id: two candidates that
/// differ only in their decorations stay apart. Only the candidates' ids are collected.
fn candidate_decorations(
    insts: &Insts,
    sections: &[Section],
    bound: u32,
    is_candidate: impl Fn(&Insts, usize) -> bool,
) -> IdMap<u32, Vec<Vec<u32>>> {
    let mut candidates = IdBits::new(bound, insts.word_count());
    for n in 0..insts.len() {
        if let Some(id) = insts.result(n).filter(|_| is_candidate(insts, n)) {
            candidates.insert(id);
        }
    }
    let mut decorations_of: IdMap<u32, Vec<Vec<u32>>> = IdMap::default();
    for n in 0..insts.len() {
        let w = insts.words(n);
        if sections[n] == Section::Annotation && w.len() > 1 && candidates.contains(w[1]) {
            let mut d = w.to_vec();
            let target = d[1];
            d[1] = 0;
            decorations_of.entry(target).or_default().push(d);
        }
    }
    for d in decorations_of.values_mut() {
        d.sort();
    }
    decorations_of
}

fn is_scalar_spec_constant(op: u32) -> bool {
    op == Op::SpecConstant as u32
        || op == Op::SpecConstantTrue as u32
        || op == Op::SpecConstantFalse as u32
}

fn is_dedupable_global(op: u32) -> bool {
    (Op::TypeVoid as u32..=Op::TypePipe as u32).contains(&op) && op != Op::TypeForwardPointer as u32
        || [
            Op::Constant,
            Op::ConstantTrue,
            Op::ConstantFalse,
            Op::ConstantNull,
            Op::ConstantComposite,
            // Pure functions of their operands, carrying no SpecId of their own: identical ones
            // are one value (DPC++'s device globals are initialised through `GenericCastToPtr`
            // spec-constant operations, so two images' copies of a global are equal only if
            // these merge).
            Op::SpecConstantOp,
            Op::SpecConstantComposite,
            // Undefined values of one type are interchangeable (any value will do for either).
            Op::Undef,
        ]
        .iter()
        .any(|&o| o as u32 == op)
}

#[cfg(test)]
mod tests {
    use super::super::state::resolve;
    use super::super::testing::{kept, named, state_of, TestResult};
    use super::*;

    const TYPES: &str = r#"
OpName %int "int"
OpName %five "five"
OpName %s "s"
%int = OpTypeInt 32 0
%five = OpConstant %int 5
%s = OpTypeStruct %int
"#;

    #[test]
    fn identical_types_and_constants_merge_and_decorated_ones_stay_apart() -> TestResult {
        let packed = format!("OpDecorate %s CPacked\n{TYPES}");
        let mut state = state_of(&[("a", TYPES), ("b", &packed)])?;
        super::super::merge::merge_module_level(&mut state)?;
        deduplicate_types_and_constants(&mut state);
        assert_eq!(kept(&state, Op::TypeInt).len(), 1);
        assert_eq!(kept(&state, Op::Constant).len(), 1);
        assert_eq!(kept(&state, Op::TypeStruct).len(), 2);
        for name in ["int", "five"] {
            let (a, b) = (named(&state, 0, name), named(&state, 1, name));
            assert!(a.is_some() && a != b);
            assert_eq!(b.map(|b| resolve(&state.replace, b)), a, "{name}");
        }
        // The kept struct of b names a's int.
        let structs = kept(&state, Op::TypeStruct);
        assert_eq!(Some(structs[1][2]), named(&state, 0, "int"));
        Ok(())
    }
}
