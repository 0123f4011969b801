//! Phase 2: merge the module-level instructions of the inputs.
//!
//! Algorithm, one pass over the slots: a capability or extension seen before is dropped; an
//! extended-instruction import of a set imported before is dropped and its id replaced by the
//! first import's; the first `OpMemoryModel` is kept and every later one must be the same
//! (dropped); an entry point's (execution model, name) must be new.
//!
//! Preconditions: phase 1 done for every input. Postconditions: one instruction per capability,
//! extension, instruction set and memory model remains; the mismatching memory models and the
//! entry points defined twice are errors, reported together.

use super::error::{Definers, LinkError};
use super::state::State;
use crate::error::{Error, Result};
use crate::module::assemble::Section;
use crate::module::idhash::{IdMap, IdSet};
use crate::module::inst;
use std::collections::BTreeMap;

/// Merges capabilities, extensions, instruction-set imports and memory models; checks entry
/// points (see the module docs).
pub(super) fn merge_module_level(state: &mut State) -> Result<()> {
    let mut seen_caps = IdSet::default();
    let mut seen_exts: IdMap<Vec<u32>, ()> = IdMap::default();
    let mut seen_imports: IdMap<Vec<u32>, u32> = IdMap::default();
    let mut memory_model: Option<(Vec<u32>, usize)> = None;
    let mut errors = Vec::new();
    // Entry points by execution model and name: a second one is an error (as in spirv-link; the
    // module would be invalid).
    let mut entry_points: BTreeMap<(u32, Vec<u8>), usize> = BTreeMap::new();
    for n in 0..state.insts.len() {
        let w = state.insts.words(n);
        match state.sections[n] {
            Section::EntryPoint => {
                let Some((name, _)) = w.get(3..).and_then(inst::read_string) else {
                    continue;
                };
                let model = w.get(1).copied().unwrap_or(u32::MAX);
                let k = state.insts.input(n);
                if let Some(&first) = entry_points.get(&(model, name.clone())) {
                    errors.push(LinkError::DuplicateEntryPoint {
                        name: String::from_utf8_lossy(&name).into_owned(),
                        model: spirv::ExecutionModel::from_u32(model).map_or_else(
                            || format!("execution model {model}"),
                            |m| format!("{m:?}"),
                        ),
                        by: definers(&state.inputs, first, k),
                    });
                } else {
                    entry_points.insert((model, name), k);
                }
            }
            Section::Capability if !seen_caps.insert(w.get(1).copied()) => {
                state.drop.insert(n);
            }
            Section::Extension if seen_exts.insert(w[1..].to_vec(), ()).is_some() => {
                state.drop.insert(n);
            }
            Section::ExtInstImport => {
                if let Some(&first) = seen_imports.get(&w[2..]) {
                    state.replace.insert(w[1], first);
                    state.drop.insert(n);
                } else {
                    seen_imports.insert(w[2..].to_vec(), w[1]);
                }
            }
            Section::MemoryModel => match &memory_model {
                None => memory_model = Some((w.to_vec(), state.insts.input(n))),
                Some((m, k)) => {
                    if m.as_slice() != w {
                        errors.push(LinkError::ModelMismatch {
                            first_input: state.inputs[*k].clone(),
                            first_model: model_name(m),
                            input: state.input_name(n).to_string(),
                            model: model_name(w),
                        });
                    }
                    state.drop.insert(n);
                }
            },
            _ => {}
        }
    }
    if !errors.is_empty() {
        return Err(Error::Link(errors));
    }
    Ok(())
}

/// Who defines an entry point twice: inputs `first` and `second` (possibly the same).
fn definers(inputs: &[String], first: usize, second: usize) -> Definers {
    let (a, b) = (&inputs[first], &inputs[second]);
    if first == second {
        Definers::Twice { input: a.clone() }
    } else if a == b {
        Definers::SameName {
            input: a.clone(),
            first: first + 1,
            second: second + 1,
        }
    } else {
        Definers::Two {
            first: a.clone(),
            second: b.clone(),
        }
    }
}

/// The addressing and memory model of an `OpMemoryModel`, spelled for messages.
fn model_name(w: &[u32]) -> String {
    let a = match w.get(1) {
        Some(0) => "Logical",
        Some(1) => "Physical32",
        Some(2) => "Physical64",
        Some(5348) => "PhysicalStorageBuffer64",
        _ => "?",
    };
    let m = match w.get(2) {
        Some(0) => "Simple",
        Some(1) => "GLSL450",
        Some(2) => "OpenCL",
        Some(3) => "Vulkan",
        _ => "?",
    };
    format!("{a} {m}")
}

#[cfg(test)]
mod tests {
    use super::super::state::resolve;
    use super::super::testing::{kept, link_errors, named, state_of, TestResult, PREAMBLE};
    use super::*;
    use spirv::Op;

    const KERNEL_K: &str = r#"
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#;

    #[test]
    fn module_level_instructions_merge() -> TestResult {
        let set = "%std = OpExtInstImport \"OpenCL.std\"\nOpName %std \"std\"\n";
        let mut state = state_of(&[("a", set), ("b", set)])?;
        merge_module_level(&mut state)?;
        assert_eq!(kept(&state, Op::Capability).len(), 3);
        assert_eq!(kept(&state, Op::MemoryModel).len(), 1);
        assert_eq!(kept(&state, Op::ExtInstImport).len(), 1);
        let (a, b) = (named(&state, 0, "std"), named(&state, 1, "std"));
        assert!(a.is_some() && a != b);
        assert_eq!(b.map(|b| resolve(&state.replace, b)), a);
        Ok(())
    }

    #[test]
    fn different_memory_models_are_an_error() -> TestResult {
        let physical32 = PREAMBLE.replace("Physical64", "Physical32");
        let mut state = state_of(&[("a", ""), ("b", &physical32)])?;
        let errors = link_errors(merge_module_level(&mut state));
        assert_eq!(
            errors,
            vec![LinkError::ModelMismatch {
                first_input: "a".into(),
                first_model: "Physical64 OpenCL".into(),
                input: "b".into(),
                model: "Physical32 OpenCL".into(),
            }]
        );
        assert_eq!(
            errors[0].to_string(),
            "addressing or memory model mismatch: a uses Physical64 OpenCL, b uses Physical32 OpenCL"
        );
        Ok(())
    }

    #[test]
    fn an_entry_point_defined_twice_is_an_error() -> TestResult {
        let mut state = state_of(&[("a", KERNEL_K), ("b", KERNEL_K)])?;
        let errors = link_errors(merge_module_level(&mut state));
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0].to_string(),
            "entry point \"k\" (Kernel) is defined by a and by b"
        );
        let mut state = state_of(&[("x", KERNEL_K), ("x", KERNEL_K)])?;
        let errors = link_errors(merge_module_level(&mut state));
        assert_eq!(
            errors,
            vec![LinkError::DuplicateEntryPoint {
                name: "k".into(),
                model: "Kernel".into(),
                by: Definers::SameName {
                    input: "x".into(),
                    first: 1,
                    second: 2
                },
            }]
        );
        assert_eq!(
            errors[0].to_string(),
            "entry point \"k\" (Kernel) is defined by inputs 1 and 2 (both x)"
        );
        Ok(())
    }
}
