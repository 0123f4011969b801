//! Entry points and what each reaches.
//!
//! Algorithm: the functions an entry point reaches are its function and, transitively, every
//! callee of an `OpFunctionCall` in a reached function ([`Index::calls`]). The ids a reached
//! function uses are followed through the global section (a constant's constituents, an
//! `OpSpecConstantOp`'s operands, a variable's initializer) to the spec constants
//! (`SpecId`-decorated), device globals (`HostAccessINTEL`-decorated variables) and marker calls'
//! symbols they lead to.
//!
//! Precondition: an [`Index`] of the module. Nothing is changed.

use super::constants::Decorations;
use crate::module::idhash::IdSet;
use crate::module::index::Index;
use crate::module::inst;
use crate::module::Module;
use serde::Serialize;
use spirv::Op;

/// One parameter of a kernel.
#[derive(Clone, Debug, Serialize)]
pub struct Param {
    /// The `OpFunctionParameter` result id.
    pub id: u32,
    /// Its type, disassembled.
    #[serde(rename = "type")]
    pub ty: String,
    /// Its `OpName`, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// One execution mode of an entry point.
#[derive(Clone, Debug, Serialize)]
pub struct Mode {
    /// The execution mode's name.
    pub mode: String,
    /// Its literal operands (ids for `OpExecutionModeId`).
    pub operands: Vec<u32>,
}

/// One entry point.
#[derive(Clone, Debug, Serialize)]
pub struct Kernel {
    /// The entry point's name.
    pub name: String,
    /// Its execution model's name (`Kernel`, `GLCompute`, ...).
    pub execution_model: String,
    /// The id of its function.
    pub function: u32,
    /// The function's parameters, in order.
    pub parameters: Vec<Param>,
    /// Its execution modes, in module order.
    pub execution_modes: Vec<Mode>,
    /// SpecIds of the spec constants it reaches, ascending.
    pub spec_ids: Vec<u32>,
    /// The symbolic names of those, when names were given (in the names' order).
    pub spec_constants: Vec<String>,
    /// Symbolic IDs of the marker calls it reaches (a module not lowered yet).
    pub marker_constants: Vec<String>,
    /// `HostAccessINTEL` names of the device globals it reaches.
    pub device_globals: Vec<String>,
}

/// What the kernels are computed from besides the module.
pub(crate) struct Context<'a> {
    pub decorations: &'a Decorations,
    pub layout: &'a crate::layout::Layout<'a>,
    /// Each marker call's `(caller function id, symbolic ID)`.
    pub marker_calls: &'a [(u32, String)],
}

pub(crate) fn kernels(module: &Module, index: &Index, cx: &Context<'_>) -> Vec<Kernel> {
    let modes = execution_modes(module, index);
    let mut out = Vec::new();
    for &e in &index.entry_points {
        let w = module.original(e);
        if w.len() < 3 {
            continue;
        }
        let function = w[2];
        let name = inst::read_string(w.get(3..).unwrap_or(&[]))
            .map(|(s, _)| String::from_utf8_lossy(&s).into_owned())
            .unwrap_or_default();
        let execution_model = spirv::ExecutionModel::from_u32(w[1])
            .map_or_else(|| w[1].to_string(), |m| format!("{m:?}"));
        let parameters = index
            .function_by_id
            .get(&function)
            .and_then(|&k| index.functions.get(k))
            .map(|f| {
                f.params
                    .iter()
                    .map(|&p| Param {
                        id: p,
                        ty: index
                            .defs
                            .get(&p)
                            .and_then(|i| inst::result_type(module.original(i)))
                            .map(|t| type_spelling(cx.layout, t))
                            .unwrap_or_default(),
                        name: index
                            .names
                            .get(&p)
                            .map(|n| String::from_utf8_lossy(n).into_owned()),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let reached = reached_functions(index, function);
        let (spec_ids, device_globals) = reached_globals(module, index, cx.decorations, &reached);
        let marker_constants: std::collections::BTreeSet<String> = cx
            .marker_calls
            .iter()
            .filter(|(caller, _)| reached.contains(caller))
            .map(|(_, s)| s.clone())
            .collect();
        out.push(Kernel {
            name,
            execution_model,
            function,
            parameters,
            execution_modes: modes
                .iter()
                .filter(|(f, _)| *f == function)
                .map(|(_, m)| m.clone())
                .collect(),
            spec_ids,
            spec_constants: Vec::new(),
            marker_constants: marker_constants.into_iter().collect(),
            device_globals,
        });
    }
    out
}

/// A type's spelling, pointers with their storage class: `CrossWorkgroup i32*`.
pub(crate) fn type_spelling(layout: &crate::layout::Layout<'_>, ty: u32) -> String {
    match layout.kind(ty) {
        Ok(crate::layout::TypeKind::Pointer { storage, .. }) => {
            let class = spirv::StorageClass::from_u32(storage)
                .map_or_else(|| storage.to_string(), |s| format!("{s:?}"));
            format!("{class} {}", layout.display(ty))
        }
        _ => layout.display(ty),
    }
}

/// `(entry function, mode)` of every `OpExecutionMode` and `OpExecutionModeId`.
fn execution_modes(module: &Module, index: &Index) -> Vec<(u32, Mode)> {
    let mut out = Vec::new();
    for i in 0..index.names_end.min(module.len()) {
        let w = module.original(i);
        let op = inst::opcode(w);
        if (op != Op::ExecutionMode as u32 && op != Op::ExecutionModeId as u32) || w.len() < 3 {
            continue;
        }
        let mode = spirv::ExecutionMode::from_u32(w[2])
            .map_or_else(|| w[2].to_string(), |m| format!("{m:?}"));
        out.push((
            w[1],
            Mode {
                mode,
                operands: w[3..].to_vec(),
            },
        ));
    }
    out
}

/// The ids of the functions `entry` reaches (itself included).
fn reached_functions(index: &Index, entry: u32) -> IdSet<u32> {
    let mut callees: Vec<Vec<u32>> = vec![Vec::new(); index.functions.len()];
    for c in &index.calls {
        if let Some(v) = callees.get_mut(c.function as usize) {
            v.push(c.callee);
        }
    }
    let mut seen = IdSet::default();
    let mut stack = vec![entry];
    while let Some(f) = stack.pop() {
        if !seen.insert(f) {
            continue;
        }
        if let Some(&k) = index.function_by_id.get(&f) {
            stack.extend(callees.get(k).into_iter().flatten().copied());
        }
    }
    seen
}

/// SpecIds (ascending) and device-global names (sorted) the reached functions lead to.
fn reached_globals(
    module: &Module,
    index: &Index,
    decorations: &Decorations,
    reached: &IdSet<u32>,
) -> (Vec<u32>, Vec<String>) {
    let mut seen = IdSet::default();
    let mut stack = Vec::new();
    for f in &index.functions {
        if !reached.contains(&f.id) || f.is_declaration {
            continue;
        }
        for i in f.start..=f.end.min(module.len().saturating_sub(1)) {
            index.visit_use_ids(module, module.original(i), |id| {
                if seen.insert(id) {
                    stack.push(id);
                }
            });
        }
    }
    // Through the global section: what a global id is made of.
    while let Some(id) = stack.pop() {
        let Some(i) = index.defs.get(&id) else {
            continue;
        };
        if i >= index.globals_end || i >= module.len() {
            continue;
        }
        let w = module.original(i);
        let op = inst::opcode(w);
        // Types are not followed (an array length is a constant, not a use), nor debug records
        // (no use either; llvm-spirv writes numbers among their ids).
        if (Op::TypeVoid as u32..=Op::TypeForwardPointer as u32).contains(&op)
            || index.is_debug_record(w)
        {
            continue;
        }
        index.visit_use_ids(module, w, |u| {
            if seen.insert(u) {
                stack.push(u);
            }
        });
    }
    let mut spec_ids: Vec<u32> = seen
        .iter()
        .filter_map(|id| decorations.spec_id.get(id).copied())
        .collect();
    spec_ids.sort_unstable();
    spec_ids.dedup();
    let mut globals: Vec<String> = seen
        .iter()
        .filter_map(|id| decorations.host_access.get(id).cloned())
        .collect();
    globals.sort();
    globals.dedup();
    (spec_ids, globals)
}
