//! Phase 7: apply the id replacements, and drop what no longer names anything.
//!
//! Algorithm: every operand of every slot is looked up in the replacements once (chains
//! followed), targets of names and decorations included: the name of a replaced id now names
//! its replacement. Then, in slot order, a debug name or annotation whose target is still
//! replaced (a chain longer than [`resolve`](super::state::resolve) follows) or removed is
//! dropped, as is a second `OpName` of one id (the first, in input order, stays) and an
//! annotation identical to an earlier one. When no `LinkageAttributes` decoration is left, the
//! `Linkage` capability goes.
//!
//! Preconditions: phases 2–6 done (every replacement is decided). Postconditions: no operand
//! names a replaced id; no kept name or decoration targets a removed id; an id has one `OpName`.

// Slots are addressed by index in several parallel arrays (words, sections, drop marks).
#![allow(clippy::needless_range_loop)]

use super::state::{FirstSeen, State};
use crate::module::assemble::Section;
use crate::module::idhash::IdSet;
use crate::module::inst;
use spirv::{Capability, Decoration, Op};

/// Applies the replacements and drops stale names, decorations and the `Linkage` capability
/// (see the module docs).
pub(super) fn apply_replacements_and_prune(state: &mut State) {
    let mut scratch = Vec::new();
    for n in 0..state.insts.len() {
        state.insts.resolve_uses(n, &state.replace, &mut scratch);
    }
    drop_stale_names_and_annotations(state);
    drop_linkage_capability_if_unused(state);
}

/// Names and decorations of ids that no longer exist go; identical ones collapse.
fn drop_stale_names_and_annotations(state: &mut State) {
    let State {
        insts,
        sections,
        replace,
        drop,
        removed_symbols,
        ..
    } = state;
    let mut seen_annotations = FirstSeen::default();
    let mut named: IdSet<u32> = IdSet::default();
    for n in 0..insts.len() {
        if drop.contains(n) {
            continue;
        }
        let section = sections[n];
        if section != Section::DebugName && section != Section::Annotation {
            continue;
        }
        let w = insts.words(n);
        let target = w.get(1).copied().unwrap_or(0);
        let target_gone = replace.get(target).is_some() || removed_symbols.contains(&target);
        let dup = if section == Section::DebugName && inst::is(w, Op::Name) {
            !named.insert(target)
        } else {
            seen_annotations
                .first(n, w, |m| insts.words(m) == w)
                .is_some()
        };
        if target_gone || dup {
            drop.insert(n);
        }
    }
}

/// No linkage left (everything resolved, no library): the `Linkage` capability goes too.
fn drop_linkage_capability_if_unused(state: &mut State) {
    let State {
        insts,
        sections,
        drop,
        ..
    } = state;
    let linkage_left = (0..insts.len()).any(|n| {
        !drop.contains(n)
            && sections[n] == Section::Annotation
            && inst::is(insts.words(n), Op::Decorate)
            && insts.words(n).get(2) == Some(&(Decoration::LinkageAttributes as u32))
    });
    if linkage_left {
        return;
    }
    for n in 0..insts.len() {
        if sections[n] == Section::Capability
            && insts.words(n).get(1) == Some(&(Capability::Linkage as u32))
        {
            drop.insert(n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{kept, named, state_of, TestResult, G_EXPORTED, KERNEL_CALLING_G};
    use super::super::LinkOptions;
    use super::*;

    #[test]
    fn names_of_replaced_ids_and_the_linkage_capability_go() -> TestResult {
        let mut state = state_of(&[("a", KERNEL_CALLING_G), ("b", G_EXPORTED)])?;
        super::super::merge::merge_module_level(&mut state)?;
        super::super::dedup::deduplicate_types_and_constants(&mut state);
        super::super::symbols::resolve_symbols(&mut state, &LinkOptions::default())?;
        apply_replacements_and_prune(&mut state);
        let export = named(&state, 1, "g");
        // a's name of its import now names the export, and is the first of that id: b's goes.
        let names: Vec<u32> = kept(&state, Op::Name).iter().map(|w| w[1]).collect();
        assert_eq!(
            names,
            vec![export.unwrap_or(0), named(&state, 0, "k").unwrap_or(0)]
        );
        // The call names the export.
        let call = kept(&state, Op::FunctionCall);
        assert_eq!(call.len(), 1);
        assert_eq!(Some(call[0][3]), export);
        let caps: Vec<u32> = kept(&state, Op::Capability).iter().map(|w| w[1]).collect();
        assert!(!caps.contains(&(Capability::Linkage as u32)));
        assert_eq!(caps.len(), 2);
        Ok(())
    }
}
