//! `[SYCL/implicit local arg]` and `[SYCL/work group dynamic local mem]`, per kernel: carried from
//! the input's property file, else read from the SPIR-V ([`source_local_memory`]).
//!
//! * implicit local arg: the index of the Workgroup-pointer parameter DPC++'s
//!   `LowerWGLocalMemory` appends to every kernel that reaches work-group local memory
//!   (`__sycl_allocateLocalMemory`: `group_local_memory*`; `__sycl_dynamicLocalMemoryPlaceholder`:
//!   `work_group_scratch_memory`) when the module uses the placeholder; −1 (4294967295) for such
//!   a kernel of a module that does not.
//! * work group dynamic local mem: 1 for the kernels whose code reads that argument — the
//!   placeholder's memory.

use super::{non_empty, ImageContext, PropertySet, Value};
use super::{IMPLICIT_LOCAL_ARG, WORK_GROUP_DYNAMIC_LOCAL_MEM};
use crate::module::idhash::{IdMap, IdSet};
use crate::module::index::Index;
use crate::module::{inst, Module};
use spirv::Op;

/// What a kernel's work-group local memory shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LocalMemory {
    /// `[SYCL/implicit local arg]`: the parameter's index, or `u32::MAX` (DPC++'s −1) for a kernel
    /// that reaches `group_local_memory` in a module without the placeholder.
    pub implicit_arg: u32,
    /// `[SYCL/work group dynamic local mem]`: the kernel reads the placeholder's memory.
    pub dynamic: bool,
}

/// The variable `LowerWGLocalMemory` stores the appended parameter in, at the start of each
/// kernel, for the placeholder's readers to load.
const PLACEHOLDER: &[u8] = b"__sycl_dynamicLocalMemoryPlaceholder_GV";
/// The prefix of the variables `LowerWGLocalMemory` makes for `__sycl_allocateLocalMemory`.
const ALLOCATED: &[u8] = b"WGLocalMem";

/// The work-group local memory of each kernel (by function id) of the module split, as DPC++'s
/// `LowerWGLocalMemory` left its traces: a kernel that stores one of its parameters into
/// `__sycl_dynamicLocalMemoryPlaceholder_GV` has that parameter for implicit local argument, and
/// dynamic local memory when it uses the parameter otherwise (debug records aside) or a function
/// it reaches (through calls) loads the variable; a kernel without such a store that reaches a
/// use of a `WGLocalMem*` variable has −1. Empty (without a walk of the functions) when the
/// module has neither variable. On the 844 `off` images of the reference and campaign cases (141
/// with these sets), every kernel gets DPC++'s values.
pub(crate) fn source_local_memory(module: &Module, index: &Index) -> IdMap<u32, LocalMemory> {
    let mut out = IdMap::default();
    let (mut placeholder, mut allocated) = (IdSet::default(), IdSet::default());
    for i in 0..index.names_end.min(module.len()) {
        let Some(w) = module.inst(i) else { continue };
        if inst::opcode(w) != Op::Name as u32 || w.len() < 3 {
            continue;
        }
        let Some((name, _)) = inst::read_string(&w[2..]) else {
            continue;
        };
        if name == PLACEHOLDER {
            placeholder.insert(w[1]);
        } else if name.starts_with(ALLOCATED) {
            allocated.insert(w[1]);
        }
    }
    for (&id, linkage) in &index.linkage {
        if linkage.name == PLACEHOLDER {
            placeholder.insert(id);
        }
    }
    if placeholder.is_empty() && allocated.is_empty() {
        return out;
    }
    // Per function: whether it loads the placeholder, whether it uses an allocated variable,
    // and whom it calls.
    let functions = &index.functions;
    let mut loads = vec![false; functions.len()];
    let mut allocates = vec![false; functions.len()];
    for (k, f) in functions.iter().enumerate() {
        for i in f.start..=f.end.min(module.len().saturating_sub(1)) {
            let Some(w) = module.inst(i) else { continue };
            if inst::opcode(w) == Op::Load as u32
                && w.get(3).is_some_and(|p| placeholder.contains(p))
            {
                loads[k] = true;
            }
            if !allocated.is_empty() && !allocates[k] {
                index.visit_use_ids(module, w, |id| allocates[k] |= allocated.contains(&id));
            }
        }
    }
    // Whether a function reaches such code, itself or through the functions it calls: each flag
    // goes from a function to its callers (a walk of the call graph backwards, once).
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); functions.len()];
    for call in &index.calls {
        if let (Some(&callee), Ok(caller)) = (
            index.function_by_id.get(&call.callee),
            usize::try_from(call.function),
        ) {
            if let Some(list) = callers.get_mut(callee) {
                list.push(caller);
            }
        }
    }
    for flags in [&mut loads, &mut allocates] {
        let mut stack: Vec<usize> = (0..flags.len()).filter(|&j| flags[j]).collect();
        while let Some(j) = stack.pop() {
            for &c in callers.get(j).into_iter().flatten() {
                if let Some(flag) = flags.get_mut(c) {
                    if !std::mem::replace(flag, true) {
                        stack.push(c);
                    }
                }
            }
        }
    }
    for &e in &index.entry_points {
        let Some(w) = module.inst(e) else { continue };
        let (Some(&model), Some(&id)) = (w.get(1), w.get(2)) else {
            continue;
        };
        let Some(&k) = index.function_by_id.get(&id) else {
            continue;
        };
        let Some(f) = functions.get(k) else { continue };
        if model != spirv::ExecutionModel::Kernel as u32 || out.contains_key(&id) {
            continue;
        }
        let body = f.start..=f.end.min(module.len().saturating_sub(1));
        // The store of the appended parameter into the placeholder: (instruction, parameter,
        // its position).
        let stored = body.clone().find_map(|i| {
            let w = module.inst(i)?;
            let into_placeholder =
                inst::opcode(w) == Op::Store as u32 && w.len() >= 3 && placeholder.contains(&w[1]);
            let position = f
                .params
                .iter()
                .position(|&p| into_placeholder && p == w[2])?;
            Some((i, w[2], position))
        });
        let memory = match stored {
            Some((store, param, position)) => {
                let mut used = false;
                // (A debug record of the parameter is no use of the memory.)
                for i in body.filter(|&i| i != store) {
                    if let Some(w) = module.inst(i).filter(|w| !index.is_debug_record(w)) {
                        index.visit_use_ids(module, w, |u| used |= u == param);
                    }
                }
                LocalMemory {
                    implicit_arg: u32::try_from(position).unwrap_or(u32::MAX),
                    dynamic: used || loads[k],
                }
            }
            None if allocates[k] => LocalMemory {
                implicit_arg: u32::MAX,
                dynamic: false,
            },
            None => continue,
        };
        out.insert(id, memory);
    }
    out
}

/// Each kernel of the image with a value: from its input's property file when it has one, else
/// from what [`source_local_memory`] read.
fn per_kernel(
    ctx: &ImageContext<'_>,
    set: &str,
    read: impl Fn(&LocalMemory) -> Option<Value>,
) -> Vec<(String, Value)> {
    ctx.kernels()
        .filter_map(|e| {
            let value = if ctx.carried.has(e.input) {
                ctx.carried_for(e, set, &e.name).cloned()
            } else {
                ctx.carried.local_memory.get(&e.id).and_then(&read)
            };
            Some((e.name.clone(), value?))
        })
        .collect()
}

pub(crate) fn implicit_local_arg(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    non_empty(
        IMPLICIT_LOCAL_ARG,
        per_kernel(ctx, IMPLICIT_LOCAL_ARG, |m| {
            Some(Value::Uint32(m.implicit_arg))
        }),
    )
}

pub(crate) fn work_group_dynamic_local_mem(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    non_empty(
        WORK_GROUP_DYNAMIC_LOCAL_MEM,
        per_kernel(ctx, WORK_GROUP_DYNAMIC_LOCAL_MEM, |m| {
            m.dynamic.then_some(Value::Uint32(1))
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::testing::{assemble, TestResult};

    /// Kernel `a` stores its second parameter into the placeholder and calls `h`, which loads it
    /// (dynamic); `b` stores its only parameter and nothing reads it; `c` reaches a `WGLocalMem`
    /// variable through two helpers that call each other; `d` has none of these. The module uses
    /// both kinds of local memory at once (DPC++ would give `c` an argument too): each rule is
    /// read on its own.
    #[test]
    fn kernels_local_memory_from_their_code() -> TestResult {
        let module = assemble(
            r#"
OpEntryPoint Kernel %a "a"
OpEntryPoint Kernel %b "b"
OpEntryPoint Kernel %c "c"
OpEntryPoint Kernel %d "d"
OpName %gv "__sycl_dynamicLocalMemoryPlaceholder_GV"
OpName %wg "WGLocalMem.1"
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%void = OpTypeVoid
%one = OpConstant %uint 1
%p_wg = OpTypePointer Workgroup %uchar
%pp_wg = OpTypePointer Workgroup %p_wg
%p_cw = OpTypePointer CrossWorkgroup %uint
%arr = OpTypeArray %uchar %one
%p_arr = OpTypePointer Workgroup %arr
%gv = OpVariable %pp_wg Workgroup
%wg = OpVariable %p_arr Workgroup
%fn = OpTypeFunction %void
%fa = OpTypeFunction %void %p_cw %p_wg
%fb = OpTypeFunction %void %p_wg
%h = OpFunction %void None %fn
%hl = OpLabel
%v = OpLoad %p_wg %gv
OpReturn
OpFunctionEnd
%h2 = OpFunction %void None %fn
%h2l = OpLabel
%r2 = OpFunctionCall %void %h3
OpReturn
OpFunctionEnd
%h3 = OpFunction %void None %fn
%h3l = OpLabel
%cast = OpBitcast %p_wg %wg
%r3 = OpFunctionCall %void %h2
OpReturn
OpFunctionEnd
%a = OpFunction %void None %fa
%out = OpFunctionParameter %p_cw
%la = OpFunctionParameter %p_wg
%al = OpLabel
OpStore %gv %la
%ra = OpFunctionCall %void %h
OpReturn
OpFunctionEnd
%b = OpFunction %void None %fb
%lb = OpFunctionParameter %p_wg
%bl = OpLabel
OpStore %gv %lb
OpReturn
OpFunctionEnd
%c = OpFunction %void None %fn
%cl = OpLabel
%rc = OpFunctionCall %void %h2
OpReturn
OpFunctionEnd
%d = OpFunction %void None %fn
%dl = OpLabel
OpReturn
OpFunctionEnd
"#,
        )?;
        let index = Index::build(&module)?;
        let memory = source_local_memory(&module, &index);
        let of = |name: &str| {
            let id = index
                .entry_names
                .iter()
                .find(|(_, n)| n.as_slice() == name.as_bytes())
                .map(|(&id, _)| id)?;
            memory.get(&id).copied()
        };
        let local = |implicit_arg, dynamic| {
            Some(LocalMemory {
                implicit_arg,
                dynamic,
            })
        };
        assert_eq!(of("a"), local(1, true));
        assert_eq!(of("b"), local(0, false));
        assert_eq!(of("c"), local(u32::MAX, false));
        assert_eq!(of("d"), None);
        assert_eq!(memory.len(), 3);
        Ok(())
    }
}
