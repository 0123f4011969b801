//! Phase 8: entry-point interfaces under the SPIR-V 1.4 rules.
//!
//! From SPIR-V 1.4 on, an entry point lists every global variable (other than `Function`
//! storage) that its call tree uses, and linking can extend that tree into another input's
//! functions (and their variables). Algorithm: per kept function, the globals it uses and the
//! functions it calls; per entry point, a walk of its call tree; the variables it reaches that
//! are not listed are appended, in id order. Interfaces are only extended: a variable listed
//! stays listed.
//!
//! Preconditions: phase 7 done (operands final, dropped slots marked). Postconditions: at 1.4
//! and later every entry point lists the globals its call tree uses; below 1.4 nothing changes;
//! a note says when inputs below 1.4 were linked into 1.4 or later.

// Slots are addressed by index in several parallel arrays (words, sections, drop marks).
#![allow(clippy::needless_range_loop)]

use super::state::State;
use crate::error::Result;
use crate::module::assemble::Section;
use crate::module::idhash::{IdBits, IdMap, IdSet};
use crate::module::inst;
use spirv::{Op, StorageClass};
use std::collections::BTreeSet;

/// Extends the entry-point interfaces at SPIR-V 1.4 and later (see the module docs).
pub(super) fn extend_interfaces(state: &mut State) -> Result<()> {
    let version = state.version();
    if version < (1, 4) {
        return Ok(());
    }
    rewrite_interfaces(state)?;
    if state.crosses_1_4() {
        state
            .report
            .notes
            .push(crate::Diagnostic::InterfacesExtended { version });
    }
    Ok(())
}

/// Under SPIR-V 1.4, an entry point's interface lists every global variable (other than
/// `Function` storage) that its call tree uses.
fn rewrite_interfaces(state: &mut State) -> Result<()> {
    let bound = state.ids.bound();
    let State {
        insts,
        sections,
        drop,
        ..
    } = state;
    let mut scratch: Vec<usize> = Vec::new();
    let mut globals = IdBits::new(bound, insts.word_count());
    for n in 0..insts.len() {
        let w = insts.words(n);
        if sections[n] == Section::Global
            && !drop.contains(n)
            && inst::is(w, Op::Variable)
            && w.get(3) != Some(&(StorageClass::Function as u32))
        {
            if let Some(id) = insts.result(n) {
                globals.insert(id);
            }
        }
    }
    // Per function: globals used and functions called.
    let mut uses: IdMap<u32, (BTreeSet<u32>, BTreeSet<u32>)> = IdMap::default();
    let mut current = None;
    for n in 0..insts.len() {
        if sections[n] != Section::Function || drop.contains(n) {
            continue;
        }
        let w = insts.words(n);
        let op = inst::opcode(w);
        if op == Op::Function as u32 {
            current = insts.result(n);
        }
        let Some(f) = current else { continue };
        let entry = uses.entry(f).or_default();
        insts.uses(n, &mut scratch);
        for &p in &scratch {
            let id = w[p];
            if globals.contains(id) {
                entry.0.insert(id);
            }
        }
        if op == Op::FunctionCall as u32 {
            if let Some(&callee) = w.get(3) {
                entry.1.insert(callee);
            }
        }
    }
    for n in 0..insts.len() {
        if sections[n] != Section::EntryPoint || drop.contains(n) {
            continue;
        }
        let w = insts.words(n);
        let Some((_, len)) = w.get(3..).and_then(inst::read_string) else {
            continue;
        };
        let head_len = 3 + len;
        let mut seen = IdSet::default();
        let mut stack = vec![w[2]];
        let mut vars: BTreeSet<u32> = BTreeSet::new();
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            if let Some((g, calls)) = uses.get(&f) {
                vars.extend(g.iter().copied());
                stack.extend(calls.iter().copied());
            }
        }
        let mut new: Vec<u32> = w[..head_len].to_vec();
        let mut listed: Vec<u32> = w[head_len..].to_vec();
        let already: IdSet<u32> = listed.iter().copied().collect();
        listed.extend(vars.into_iter().filter(|v| !already.contains(v)));
        let first_use = new.len();
        new.extend(listed);
        new[0] = inst::head(Op::EntryPoint, new.len());
        let n_words = new.len();
        insts.set(n, &new, std::iter::once(2).chain(first_use..n_words))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{linked, named, state_of, TestResult, KERNEL_CALLING_G};
    use super::super::LinkOptions;
    use crate::module::inst;
    use crate::module::Module;

    /// `g` stores to the global `v`, exported.
    const G_STORES_V: &str = r#"
OpName %v "v"
OpDecorate %g LinkageAttributes "g" Export
%void = OpTypeVoid
%i32 = OpTypeInt 32 0
%p32 = OpTypePointer CrossWorkgroup %i32
%fn = OpTypeFunction %void
%zero = OpConstant %i32 0
%v = OpVariable %p32 CrossWorkgroup %zero
%g = OpFunction %void None %fn
%l = OpLabel
OpStore %v %zero
OpReturn
OpFunctionEnd
"#;

    #[test]
    fn an_entry_point_lists_the_variables_of_functions_it_reaches_in_another_input() -> TestResult {
        let v = named(
            &state_of(&[("a", KERNEL_CALLING_G), ("b", G_STORES_V)])?,
            1,
            "v",
        );
        let (words, report) = linked(
            &[("a", KERNEL_CALLING_G), ("b", G_STORES_V)],
            &LinkOptions::default(),
        )?;
        assert!(report.notes.is_empty());
        let out = Module::from_words(words, false)?;
        let entry = (0..out.len())
            .filter_map(|i| out.inst(i))
            .find(|w| inst::is(w, spirv::Op::EntryPoint))
            .ok_or("no entry point")?;
        // OpEntryPoint Kernel %k "k" %v
        assert_eq!(entry.len(), 5);
        assert_eq!(entry.last().copied(), v);
        Ok(())
    }
}
