//! `[SYCL/virtual functions]`. The set names are the `indirectly-callable` and
//! `calls-indirectly` attribute values: not in SPIR-V.
//!
//! * From `--input-prop`: an unsplit image (split `off`) carries its input's set as it is.
//! * Where `NonSemantic.AuxData` holds the attributes, DPC++'s rule (`computeModuleProperties`):
//!   the first function definition of the image (module order) with `indirectly-callable` gives
//!   `virtual-functions-set` = its value; without one, the comma-separated `calls-indirectly`
//!   values of every definition, as a set, give `uses-virtual-functions-set`, joined by commas
//!   in the order LLVM's `StringSet` iterates them, as DPC++ joins them ([`string_set_order`]).
//! * Otherwise, from `--input-prop`, for a split image: DPC++'s unsplit image names one set (that
//!   of its first virtual function; `uses-virtual-functions-set`, all the sets its kernels use,
//!   when it defines none), and every virtual function of the input is taken to be in it. An
//!   image that defines a virtual function gets `virtual-functions-set` = that set; one whose
//!   code calls through a function pointer (`OpFunctionPointerCallINTEL`) or takes a virtual
//!   table's address gets `uses-virtual-functions-set` = it (DPC++'s
//!   `SYCLVirtualFunctionsAnalysis` gives a kernel that uses a virtual table the sets of the
//!   table's functions). Exact for a module of one set (the default set, or one named set); in
//!   a module of several, every virtual function and every kernel using one is named by the
//!   one set, so the SYCL runtime links every virtual function's image with every kernel that
//!   uses one (where naming none would link none). With a note.

use super::hash_order::string_set_order;
use super::{EntryKind, ImageContext, PropertySet, Value, VIRTUAL_FUNCTIONS};
use crate::module::idhash::{IdMap, IdSet};
use crate::module::index::Index;
use crate::module::{inst, Module};

/// The functions whose address a global constant takes (`OpConstantFunctionPointerINTEL`).
pub(crate) struct PointerTargets {
    /// Every such function.
    pub address_taken: IdSet<u32>,
    /// The virtual tables: the variables whose initializer reaches a virtual function.
    pub vtables: IdSet<u32>,
    /// Those a virtual table holds: the virtual functions. A pointer constant reaches a global
    /// variable's initializer (through constant composites and spec-constant operations) and
    /// the variable is a vtable — its linkage name or `OpName` starts with `_ZTV`, the Itanium
    /// ABI's prefix. A function whose address is only taken in code (a function pointer) is
    /// not virtual: DPC++ tells them apart by the `indirectly-callable` attribute, which only
    /// virtual functions carry.
    pub virtual_functions: IdSet<u32>,
}

/// [`PointerTargets`] of a module: one walk of its global section (definitions come before
/// their uses there) noting, for each constant that reaches a function, the operands it reaches
/// it through (a graph as large as those operands), then, when a variable's initializer reaches
/// one, its debug names and a walk of that graph from the vtables' initializers.
pub(crate) fn pointer_targets(module: &Module, index: &Index) -> PointerTargets {
    const CONSTANT_FUNCTION_POINTER: u32 = 5600;
    const VARIABLE: u32 = 59;
    let mut address_taken = IdSet::default();
    // The constants that reach a function: a pointer constant its function (`Err`), any other
    // the operands it reaches one through (`Ok`).
    let mut reaches: IdMap<u32, std::result::Result<Vec<u32>, u32>> = IdMap::default();
    // Variables whose initializer reaches a function, with the initializer.
    let mut initialized: Vec<(u32, u32)> = Vec::new();
    for i in index.annotation_end..index.globals_end.min(module.len()) {
        let Some(w) = module.inst(i) else { continue };
        let op = inst::opcode(w);
        if op == CONSTANT_FUNCTION_POINTER {
            if let (Some(&result), Some(&f)) = (w.get(2), w.get(3)) {
                address_taken.insert(f);
                reaches.insert(result, Err(f));
            }
            continue;
        }
        if reaches.is_empty() {
            continue;
        }
        let Some(result) = inst::result_id(w) else {
            continue;
        };
        if op == VARIABLE {
            if let Some(&init) = w.get(4).filter(|init| reaches.contains_key(init)) {
                initialized.push((result, init));
            }
            continue;
        }
        let mut through: Vec<u32> = Vec::new();
        index.visit_use_ids(module, w, |id| {
            if reaches.contains_key(&id) {
                through.push(id);
            }
        });
        if !through.is_empty() {
            reaches.insert(result, Ok(through));
        }
    }
    let mut virtual_functions = IdSet::default();
    let mut vtables = IdSet::default();
    if !initialized.is_empty() {
        let vtable = |name: &[u8]| name.starts_with(b"_ZTV");
        let mut named: IdSet<u32> = initialized
            .iter()
            .map(|&(v, _)| v)
            .filter(|v| index.linkage.get(v).is_some_and(|l| vtable(&l.name)))
            .collect();
        for i in 0..index.names_end.min(module.len()) {
            let Some(w) = module.inst(i) else { continue };
            // (OpName)
            if inst::opcode(w) == 5
                && w.len() > 2
                && inst::read_string(&w[2..]).is_some_and(|(n, _)| vtable(&n))
            {
                named.insert(w[1]);
            }
        }
        // Each constant visited once, however many paths reach it.
        let mut seen: IdSet<u32> = IdSet::default();
        let mut stack: Vec<u32> = initialized
            .iter()
            .filter(|(v, _)| named.contains(v))
            .map(|&(_, init)| init)
            .collect();
        vtables.extend(
            initialized
                .iter()
                .map(|&(v, _)| v)
                .filter(|v| named.contains(v)),
        );
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            match reaches.get(&id) {
                Some(Err(f)) => {
                    virtual_functions.insert(*f);
                }
                Some(Ok(through)) => stack.extend(through),
                None => {}
            }
        }
    }
    PointerTargets {
        address_taken,
        vtables,
        virtual_functions,
    }
}

/// Whether a module's code uses virtual functions: a function calls through a function pointer
/// (`OpFunctionPointerCallINTEL`) or uses a virtual table ([`PointerTargets::vtables`]), directly
/// or through constants of the global section built on its address.
pub(crate) fn code_uses_virtual_functions(module: &Module, index: &Index) -> bool {
    const FUNCTION_POINTER_CALL: u32 = 5601;
    let mut based: IdSet<u32> = pointer_targets(module, index).vtables;
    if !based.is_empty() {
        for i in index.annotation_end..index.globals_end.min(module.len()) {
            let Some(w) = module.inst(i) else { continue };
            let Some(result) = inst::result_id(w) else {
                continue;
            };
            let mut on_a_table = false;
            index.visit_use_ids(module, w, |id| on_a_table |= based.contains(&id));
            if on_a_table {
                based.insert(result);
            }
        }
    }
    index
        .functions
        .iter()
        .filter(|f| !f.is_declaration)
        .any(|f| {
            (f.start..f.end.min(module.len()))
                .filter_map(|i| module.inst(i))
                .any(|w| {
                    if inst::opcode(w) == FUNCTION_POINTER_CALL {
                        return true;
                    }
                    let mut uses = false;
                    if !based.is_empty() {
                        index.visit_use_ids(module, w, |id| uses |= based.contains(&id));
                    }
                    uses
                })
        })
}

pub(crate) fn set(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let carried = ctx
        .inputs
        .iter()
        .find_map(|&k| Some((k, ctx.carried.set(k, VIRTUAL_FUNCTIONS)?)));
    if let Some((_, carried)) = carried.filter(|_| ctx.emit.split_off) {
        return Some(carried.clone());
    }
    if ctx.aux_describes_entries() {
        return from_auxdata(ctx);
    }
    let (_, carried) = carried?;
    let defined = carried.get("virtual-functions-set");
    let (name, value) = if ctx.entries.iter().any(|e| e.kind == EntryKind::Virtual) {
        ("virtual-functions-set", defined?)
    } else if code_uses_virtual_functions(ctx.module, ctx.index) {
        let used = defined.or_else(|| carried.get("uses-virtual-functions-set"));
        ("uses-virtual-functions-set", used?)
    } else {
        return None;
    };
    ctx.note(crate::Diagnostic::VirtualFunctionSetsUnknown);
    let mut set = PropertySet::new(VIRTUAL_FUNCTIONS);
    set.insert(name, value.clone());
    Some(set)
}

/// DPC++'s rule on the attributes `NonSemantic.AuxData` holds.
fn from_auxdata(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let aux = &ctx.carried.aux;
    // (In the order they are met: the set's order depends on it only through collisions.)
    let mut used: Vec<&str> = Vec::new();
    for f in ctx.index.functions.iter().filter(|f| !f.is_declaration) {
        if let Some(v) = aux.attribute(f.id, "indirectly-callable") {
            let mut set = PropertySet::new(VIRTUAL_FUNCTIONS);
            set.insert("virtual-functions-set", Value::bytes(v.as_bytes().to_vec()));
            return Some(set);
        }
        if let Some(v) = aux.attribute(f.id, "calls-indirectly") {
            used.extend(v.split(',').filter(|s| !s.is_empty()));
        }
    }
    if used.is_empty() {
        return None;
    }
    let joined = string_set_order(&used).join(",");
    let mut set = PropertySet::new(VIRTUAL_FUNCTIONS);
    set.insert(
        "uses-virtual-functions-set",
        Value::bytes(joined.into_bytes()),
    );
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::testing::{assemble, TestResult};

    /// `f` is held by a vtable named only by `OpName` (through a composite and a spec-constant
    /// cast); `g` by a function-pointer table that is no vtable, and `h` in code only: all three
    /// have their address taken, only `f` is virtual.
    #[test]
    fn only_what_a_vtable_holds_is_virtual() -> TestResult {
        let module = assemble(
            r#"
OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpCapability Int64
OpCapability FunctionPointersINTEL
OpExtension "SPV_INTEL_function_pointers"
OpMemoryModel Physical64 OpenCL
OpName %vt "_ZTV4Base"
OpName %table "table"
OpDecorate %f LinkageAttributes "f" Export
OpDecorate %g LinkageAttributes "g" Export
OpDecorate %h LinkageAttributes "h" Export
%void = OpTypeVoid
%fn = OpTypeFunction %void
%fp = OpTypePointer CodeSectionINTEL %fn
%ulong = OpTypeInt 64 0
%ulong_1 = OpConstant %ulong 1
%arr = OpTypeArray %fp %ulong_1
%parr = OpTypePointer CrossWorkgroup %arr
%pfp = OpTypePointer Function %fp
%f_ptr = OpConstantFunctionPointerINTEL %fp %f
%g_ptr = OpConstantFunctionPointerINTEL %fp %g
%h_ptr = OpConstantFunctionPointerINTEL %fp %h
%f_cast = OpSpecConstantOp %fp Bitcast %f_ptr
%f_arr = OpConstantComposite %arr %f_cast
%g_arr = OpConstantComposite %arr %g_ptr
%vt = OpVariable %parr CrossWorkgroup %f_arr
%table = OpVariable %parr CrossWorkgroup %g_arr
%f = OpFunction %void None %fn
%fl = OpLabel
OpReturn
OpFunctionEnd
%g = OpFunction %void None %fn
%gl = OpLabel
OpReturn
OpFunctionEnd
%h = OpFunction %void None %fn
%hl = OpLabel
%v = OpVariable %pfp Function
OpStore %v %h_ptr
OpReturn
OpFunctionEnd
"#,
        )?;
        let index = Index::build(&module)?;
        let id = |name: &str| {
            index
                .linkage
                .iter()
                .find(|(_, l)| l.name == name.as_bytes())
                .map(|(&id, _)| id)
        };
        let (f, g, h) = (id("f"), id("g"), id("h"));
        let targets = pointer_targets(&module, &index);
        for x in [f, g, h] {
            assert!(targets.address_taken.contains(&x.ok_or("no id")?));
        }
        let virtuals: Vec<u32> = targets.virtual_functions.iter().copied().collect();
        assert_eq!(virtuals, vec![f.ok_or("no f")?]);
        Ok(())
    }
}
