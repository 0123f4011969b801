//! Phase 6: make the imports the symbols phase bound to an export of another pointee type fit.
//!
//! Algorithm:
//! - an adapted variable becomes `%import = OpSpecConstantOp %import_type Bitcast %export`,
//!   appended after every global (the export may come from a later input); entry-point
//!   interfaces list variables only, so an interface naming the import names the export instead
//!   (once);
//! - each call to an adapted function bitcasts the arguments whose pointer types differ from the
//!   export's parameters, and, when the return types differ, the result back to the import's
//!   return type. The call's slot becomes the bitcasts, the call, and the result's bitcast; the
//!   new ids come from the link's allocator.
//!
//! Preconditions: phase 4 recorded the adaptations (`state.adapted`); `defs` is filled.
//! Postconditions: every use of an adapted import has a value of the type it expects; the
//! appended slots are `Global`; the id bound covers the new ids.

use super::error::LinkError;
use super::state::{resolve, AdaptedCall, State};
use crate::error::{Error, Result};
use crate::module::assemble::Section;
use crate::module::idhash::IdMap;
use crate::module::inst;
use spirv::Op;

/// Adapts the recorded imports (see the module docs).
pub(super) fn adapt_imports(state: &mut State) -> Result<()> {
    bitcast_variables(state)?;
    list_exports_in_interfaces(state)?;
    let calls = std::mem::take(&mut state.adapted.calls);
    for call in &calls {
        bitcast_calls(state, call)?;
    }
    state.adapted.calls = calls;
    Ok(())
}

/// Adapted variables: `%import = OpSpecConstantOp %import_type Bitcast %export`, after every
/// global.
fn bitcast_variables(state: &mut State) -> Result<()> {
    for v in &state.adapted.variables {
        state.insts.push(
            &inst::build(
                Op::SpecConstantOp,
                &[v.import_type, v.import, Op::Bitcast as u32, v.export],
            ),
            &[1, 4],
            0,
            false,
        )?;
        state.sections.push(Section::Global);
    }
    Ok(())
}

/// Interfaces list variables only: an adapted import (a bitcast now) is listed as its export.
fn list_exports_in_interfaces(state: &mut State) -> Result<()> {
    if state.adapted.variables.is_empty() {
        return Ok(());
    }
    let gone: IdMap<u32, u32> = state
        .adapted
        .variables
        .iter()
        .map(|v| (v.import, v.export))
        .collect();
    for n in 0..state.insts.len() {
        if state.sections[n] != Section::EntryPoint {
            continue;
        }
        let old = state.insts.words(n);
        let Some((_, len)) = old.get(3..).and_then(inst::read_string) else {
            continue;
        };
        let head = 3 + len;
        let mut words: Vec<u32> = old[..head].to_vec();
        for &x in &old[head..] {
            let x = gone.get(&x).copied().unwrap_or(x);
            if !words[head..].contains(&x) {
                words.push(x);
            }
        }
        words[0] = inst::head(Op::EntryPoint, words.len());
        let n_words = words.len();
        state
            .insts
            .set(n, &words, std::iter::once(2).chain(head..n_words))?;
    }
    Ok(())
}

/// Calls to one adapted import: bitcast the arguments (and the result) whose pointer types
/// differ.
fn bitcast_calls(state: &mut State, call: &AdaptedCall) -> Result<()> {
    // [return, params…] of a function type.
    let sig = |state: &State, t: u32| -> Vec<u32> {
        state.defs.get(&t).map_or(Vec::new(), |n| {
            state.insts.words(n)[2..]
                .iter()
                .map(|&x| resolve(&state.replace, x))
                .collect()
        })
    };
    let (want, have) = (sig(state, call.export_type), sig(state, call.import_type));
    for n in 0..state.insts.len() {
        let w = state.insts.words(n).to_vec();
        if state.sections[n] != Section::Function
            || !inst::is(&w, Op::FunctionCall)
            || w.get(3) != Some(&call.import)
        {
            continue;
        }
        let mut words = Vec::new();
        let mut uses = Vec::new();
        let mut new_call = w.clone();
        for (k, arg) in w[4..].iter().enumerate() {
            let (Some(&to), Some(&from)) = (want.get(k + 1), have.get(k + 1)) else {
                continue;
            };
            if to != from {
                let id = fresh_id(state)?;
                uses.extend([words.len() + 1, words.len() + 3]);
                words.extend(inst::build(Op::Bitcast, &[to, id, *arg]));
                new_call[4 + k] = id;
            }
        }
        let ret_differs = want.first() != have.first();
        let old_result = new_call[2];
        if ret_differs {
            new_call[1] = want[0];
            new_call[2] = fresh_id(state)?;
        }
        let at = words.len();
        uses.push(at + 1);
        uses.extend(at + 3..at + new_call.len());
        words.extend_from_slice(&new_call);
        if ret_differs {
            let at = words.len();
            uses.extend([at + 1, at + 3]);
            words.extend(inst::build(
                Op::Bitcast,
                &[have[0], old_result, new_call[2]],
            ));
        }
        state.insts.set(n, &words, uses)?;
    }
    Ok(())
}

/// A fresh id from the link's allocator.
fn fresh_id(state: &mut State) -> Result<u32> {
    state
        .ids
        .alloc()
        .map_err(|_| Error::Link(vec![LinkError::IdBoundOverflow]))
}

#[cfg(test)]
mod tests {
    use super::super::testing::{kept, linked, state_of, TestResult};
    use super::super::LinkOptions;
    use super::*;

    /// `k` calls the imported `g(float addrspace(1)*)`.
    const CALLS_G_F32: &str = r#"
OpEntryPoint Kernel %k "k"
OpDecorate %g LinkageAttributes "g" Import
%void = OpTypeVoid
%f32 = OpTypeFloat 32
%pf = OpTypePointer CrossWorkgroup %f32
%fn = OpTypeFunction %void %pf
%g = OpFunction %void None %fn
%gp = OpFunctionParameter %pf
OpFunctionEnd
%k = OpFunction %void None %fn
%kp = OpFunctionParameter %pf
%l = OpLabel
%r = OpFunctionCall %void %g %kp
OpReturn
OpFunctionEnd
"#;

    /// `g(i32 addrspace(1)*)`, exported.
    const G_I32: &str = r#"
OpDecorate %g LinkageAttributes "g" Export
%void = OpTypeVoid
%i32 = OpTypeInt 32 0
%p32 = OpTypePointer CrossWorkgroup %i32
%fn = OpTypeFunction %void %p32
%g = OpFunction %void None %fn
%gp = OpFunctionParameter %p32
%l = OpLabel
OpReturn
OpFunctionEnd
"#;

    #[test]
    fn a_call_to_an_import_of_other_pointees_bitcasts_its_argument() -> TestResult {
        let mut state = state_of(&[("a", CALLS_G_F32), ("b", G_I32)])?;
        super::super::merge::merge_module_level(&mut state)?;
        super::super::dedup::deduplicate_types_and_constants(&mut state);
        super::super::symbols::resolve_symbols(&mut state, &LinkOptions::default())?;
        assert_eq!(state.adapted.calls.len(), 1);
        let bound = state.ids.bound();
        adapt_imports(&mut state)?;
        // One new id, from the allocator: the bitcast's result, passed to the call.
        assert_eq!(state.ids.bound(), bound + 1);
        let call = kept(&state, Op::Bitcast);
        assert_eq!(call.len(), 1);
        let (bitcast, rest) = call[0].split_at(4);
        assert_eq!(bitcast[2], bound);
        assert_eq!(rest[0] & 0xffff, Op::FunctionCall as u32);
        assert_eq!(rest[4], bound);
        // The whole link passes spirv-val, and says what it did.
        let (_, report) = linked(&[("a", CALLS_G_F32), ("b", G_I32)], &LinkOptions::default())?;
        assert!(matches!(
            report.notes[..],
            [crate::Diagnostic::CallsAdapted(_)]
        ));
        assert_eq!(
            report
                .notes
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            vec![
                "\"g\": imported by a as void (f32* (CrossWorkgroup)), exported by b as void (i32* \
                 (CrossWorkgroup)): the types differ only in pointer pointee types; calls are \
                 adapted with OpBitcast"
            ]
        );
        Ok(())
    }
}
