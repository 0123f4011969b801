//! Entry points and their grouping into images, as DPC++'s `ModuleSplitter` does.
//!
//! Entry points: the kernels (`OpEntryPoint`); with device-image dependencies allowed, the
//! SYCL_EXTERNAL functions (`Export` definitions that are not builtins, nor named as a kernel);
//! always the virtual functions (`Export` definitions whose address a global constant takes).
//! Module order, but for the virtual functions' source order where debug information gives it.
//!
//! Grouping: `off` one group; `per-kernel` one group per entry point, keyed by its name;
//! `per-source` (= `auto`) keyed by DPC++'s category string, `<input>-<virtual set>-<register
//! alloc mode>-<grf size>-<aspects>-<reqd work-group size>-<work-group dims>-<reqd sub-group
//! size>-<opt level>-<joint matrix>-<joint matrix mad>-`, where the module id DPC++ puts first is
//! replaced by the input's position (so that the first input's images come first). What the
//! SPIR-V does not hold comes from `--input-prop`, else from `NonSemantic.AuxData` (the virtual
//! set, register alloc mode, GRF size, the entry point's own `sycl_used_aspects`, work-group
//! dimensions, opt level). Groups come
//! out in descending key order (DPC++ pops the back of a `std::map`), each then split into its
//! ESIMD entry points (first) and the others.

use super::graph::ModuleGraph;
use crate::module::idhash::{IdMap, IdSet};
use crate::module::index::Index;
use crate::module::inst;
use crate::module::Module;
use crate::properties::device_requirements::{
    bits_to_aspects, function_aspects, TypeAspects, ESIMD,
};
use crate::properties::{
    Carried, EntryKind, FunctionMetadata, DEVICE_REQUIREMENTS, MISC_PROPERTIES,
};
use std::collections::BTreeMap;

/// How kernels are grouped into images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitMode {
    /// One image with every kernel (ESIMD kernels in their own).
    Off,
    /// One image per kernel.
    PerKernel,
    /// One image per input module (translation unit).
    PerSource,
}

/// An entry point of the split module.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub id: u32,
    /// Index in [`Index::functions`].
    pub function: usize,
    pub name: String,
    pub kind: EntryKind,
    pub esimd: bool,
    /// The input it came from.
    pub input: usize,
}

/// One group's half: the entry points of one image.
#[derive(Clone, Debug)]
pub(crate) struct Planned {
    /// Indices into the entry list.
    pub entries: Vec<usize>,
    pub esimd: bool,
    /// `N` of the image's files (the ESIMD and SYCL halves of one group share it).
    pub number: usize,
}

/// Finds the entry points. `input_of` names the input each kernel or export came from.
pub(crate) fn entries(
    module: &Module,
    index: &Index,
    graph: &ModuleGraph,
    allow_dependencies: bool,
    input_of: &dyn Fn(&str) -> usize,
) -> Vec<Entry> {
    let mut kernel_names: IdMap<u32, String> = IdMap::default();
    for &e in &index.entry_points {
        let Some(w) = module.inst(e) else { continue };
        if let Some((name, _)) = w.get(3..).and_then(crate::module::inst::read_string) {
            kernel_names
                .entry(w[2])
                .or_insert_with(|| String::from_utf8_lossy(&name).into_owned());
        }
    }
    let kernel_name_set: std::collections::HashSet<&str> =
        kernel_names.values().map(String::as_str).collect();
    let mut out = Vec::new();
    for (k, f) in index.functions.iter().enumerate() {
        if f.is_declaration {
            continue;
        }
        let (name, kind) = if let Some(n) = kernel_names.get(&f.id) {
            (n.clone(), EntryKind::Kernel)
        } else {
            let Some(l) = index.linkage.get(&f.id).filter(|l| l.kind == 0) else {
                continue;
            };
            let name = String::from_utf8_lossy(&l.name).into_owned();
            if graph.virtual_functions.contains(&f.id) {
                (name, EntryKind::Virtual)
            } else if allow_dependencies
                && !crate::properties::symbols::is_builtin(&name)
                && !kernel_name_set.contains(name.as_str())
            {
                // (A function exported under a kernel's name is that kernel's body, as the
                // SPIR-V/LLVM translator wraps kernels: not a symbol of its own.)
                (name, EntryKind::Exported)
            } else {
                continue;
            }
        };
        out.push(Entry {
            id: f.id,
            function: k,
            input: input_of(&name),
            esimd: graph.esimd.contains(&f.id),
            name,
            kind,
        });
    }
    virtual_functions_in_source_order(module, index, &mut out);
    out
}

/// Puts each run of consecutive virtual functions in `entries` in the order of their lines in
/// the source, when the debug information places each of them, all in one file.
///
/// The SPIR-V/LLVM translator writes the functions a global's initializer names (a vtable's)
/// before all others of its module, in the order of those globals; DPC++ lists entry points in
/// its LLVM module's order, where the front end put the virtual functions in source order (base
/// before derived). Without debug information, the constructors an unoptimised module keeps give
/// the classes' order ([`in_class_order`]); optimised code holds neither, and the module's stays.
fn virtual_functions_in_source_order(module: &Module, index: &Index, entries: &mut [Entry]) {
    let mut start = 0;
    while start < entries.len() {
        let run = entries[start..]
            .iter()
            .take_while(|e| e.kind == EntryKind::Virtual)
            .count();
        if run >= 2 {
            in_source_order(module, index, &mut entries[start..start + run]);
        }
        start += run.max(1);
    }
}

/// Sorts `run` by source line (see [`virtual_functions_in_source_order`]), else, without a line
/// for each, by class ([`in_class_order`]).
fn in_source_order(module: &Module, index: &Index, run: &mut [Entry]) {
    let functions: Vec<usize> = run.iter().map(|e| e.function).collect();
    let positions = source_positions(module, index, &functions);
    let Some(placed) = run
        .iter()
        .map(|e| positions.get(&e.id).copied())
        .collect::<Option<Vec<(u32, u32)>>>()
    else {
        in_class_order(index, run);
        return;
    };
    if placed.iter().any(|&(source, _)| source != placed[0].0) {
        return;
    }
    run.sort_by_key(|e| positions.get(&e.id).map(|&(_, line)| line));
}

/// Puts the functions of base and member classes before those of the classes built on them,
/// as the source defines them (a base or a member must be complete where a class is defined),
/// when the module keeps the constructors (`-O0`): a constructor of class `A` calling one of
/// class `B` means `B` comes first. Each function of `run` goes by its class's depth in that
/// order (a class no constructor relates has depth 0), stable; nothing moves unless every
/// function's class is read from its Itanium name.
fn in_class_order(index: &Index, run: &mut [Entry]) {
    let name_of = |id: u32| {
        index
            .linkage
            .get(&id)
            .map(|l| l.name.as_slice())
            .or_else(|| index.names.get(&id).map(Vec::as_slice))
    };
    // Class A -> the classes its constructors construct.
    let mut built_on: std::collections::HashMap<Vec<&[u8]>, Vec<Vec<&[u8]>>> = Default::default();
    for call in &index.calls {
        let caller = index.functions.get(call.function as usize).map(|f| f.id);
        let classes = (
            caller.and_then(name_of).and_then(constructor_class),
            name_of(call.callee).and_then(constructor_class),
        );
        if let (Some(a), Some(b)) = classes {
            if a != b {
                built_on.entry(a).or_default().push(b);
            }
        }
    }
    if built_on.is_empty() {
        return;
    }
    if run
        .iter()
        .any(|e| method_class(e.name.as_bytes()).is_none())
    {
        return;
    }
    // (Depth by repeated relaxation, bounded: a cycle, which C++ does not allow, stops it.)
    let mut depth: std::collections::HashMap<&Vec<&[u8]>, usize> = Default::default();
    for _ in 0..=built_on.len() {
        let mut changed = false;
        for (a, bs) in &built_on {
            let d = bs
                .iter()
                .map(|b| depth.get(b).copied().unwrap_or(0) + 1)
                .max()
                .unwrap_or(0);
            if depth.get(a).copied().unwrap_or(0) < d {
                depth.insert(a, d);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // (Stable: equal depths keep the module's order.)
    run.sort_by_cached_key(|e| {
        method_class(e.name.as_bytes())
            .and_then(|c| depth.get(&c).copied())
            .unwrap_or(0)
    });
}

/// The components of an Itanium nested name (`_ZN` [`K`/`r`/`V`…] `<length><name>`…) and what
/// follows them; `None` for another kind of name.
fn nested_name(name: &[u8]) -> Option<(Vec<&[u8]>, &[u8])> {
    let mut rest = name.strip_prefix(b"_ZN")?;
    while let [b'K' | b'r' | b'V', tail @ ..] = rest {
        rest = tail;
    }
    let mut parts = Vec::new();
    loop {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            break;
        }
        let len: usize = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
        let part = rest.get(digits..digits + len)?;
        parts.push(part);
        rest = &rest[digits + len..];
    }
    Some((parts, rest))
}

/// The class of a constructor's Itanium name (`_ZN…C1`/`C2`/`C3…`).
fn constructor_class(name: &[u8]) -> Option<Vec<&[u8]>> {
    let (parts, rest) = nested_name(name)?;
    (!parts.is_empty() && matches!(rest, [b'C', b'1'..=b'3', ..])).then_some(parts)
}

/// The class of a member function's Itanium name (`_ZN[K]…<class>…<function>E…`).
fn method_class(name: &[u8]) -> Option<Vec<&[u8]>> {
    let (mut parts, rest) = nested_name(name)?;
    (parts.len() >= 2 && rest.first() == Some(&b'E')).then_some(())?;
    parts.pop();
    Some(parts)
}

/// The source position (`DebugSource` id, line) of each of `functions` (indices into
/// [`Index::functions`]) that the module's debug information gives: the `DebugFunction` named by
/// a `DebugFunctionDefinition` in its body (`NonSemantic.Shader.DebugInfo.*`, the line an
/// `OpConstant`), or the `DebugFunction` naming it (`OpenCL.DebugInfo.100` and its older name
/// `SPIRV.debug`, the line a literal). Keyed by function id.
fn source_positions(module: &Module, index: &Index, functions: &[usize]) -> IdMap<u32, (u32, u32)> {
    const EXT_INST: u32 = 12;
    const CONSTANT: u32 = 43;
    const DEBUG_FUNCTION: u32 = 20;
    const DEBUG_FUNCTION_DEFINITION: u32 = 101;
    // Debug-information sets by import id: whether the line is an id (the Shader sets).
    let mut sets: IdMap<u32, bool> = IdMap::default();
    for &set in index.ext_sets.keys() {
        let Some(w) = index.defs.get(&set).and_then(|i| module.inst(i)) else {
            continue;
        };
        let Some((name, _)) = w.get(2..).and_then(inst::read_string) else {
            continue;
        };
        if name.starts_with(b"NonSemantic.Shader.DebugInfo.") {
            sets.insert(set, true);
        } else if matches!(name.as_slice(), b"OpenCL.DebugInfo.100" | b"SPIRV.debug") {
            sets.insert(set, false);
        }
    }
    let mut out = IdMap::default();
    if sets.is_empty() {
        return out;
    }
    let position = |w: &[u32]| -> Option<(u32, u32)> {
        let (&set, &source, &line) = (w.get(3)?, w.get(7)?, w.get(8)?);
        if inst::opcode(w) != EXT_INST || w.get(4) != Some(&DEBUG_FUNCTION) {
            return None;
        }
        if *sets.get(&set)? {
            let c = index.defs.get(&line).and_then(|i| module.inst(i))?;
            (inst::opcode(c) == CONSTANT).then_some(())?;
            Some((source, *c.get(3)?))
        } else {
            Some((source, line))
        }
    };
    let wanted: IdSet<u32> = functions
        .iter()
        .filter_map(|&k| index.functions.get(k).map(|f| f.id))
        .collect();
    // OpenCL.DebugInfo.100: the DebugFunction's 10th operand is the function.
    if sets.values().any(|&shader| !shader) {
        for i in index.annotation_end..index.globals_end.min(module.len()) {
            let Some(w) = module.inst(i) else { continue };
            if let (Some(f), Some(p)) = (w.get(14).filter(|f| wanted.contains(f)), position(w)) {
                if sets.get(&w[3]) == Some(&false) {
                    out.entry(*f).or_insert(p);
                }
            }
        }
    }
    // The Shader sets: a DebugFunctionDefinition in the function's body names it.
    for &k in functions {
        let Some(f) = index.functions.get(k) else {
            continue;
        };
        if out.contains_key(&f.id) {
            continue;
        }
        for i in f.start..f.end.min(module.len()) {
            let Some(w) = module.inst(i) else { continue };
            if inst::opcode(w) == EXT_INST
                && w.get(4) == Some(&DEBUG_FUNCTION_DEFINITION)
                && w.get(6) == Some(&f.id)
                && sets.get(&w[3]) == Some(&true)
            {
                if let Some(p) = w
                    .get(5)
                    .and_then(|d| index.defs.get(d))
                    .and_then(|d| module.inst(d))
                    .and_then(position)
                {
                    out.insert(f.id, p);
                }
                break;
            }
        }
    }
    out
}

/// The functions `start` reaches through calls and function pointers (itself included).
pub(crate) fn reached_functions(index: &Index, graph: &ModuleGraph, start: usize) -> Vec<usize> {
    let mut seen: IdSet<usize> = IdSet::default();
    let mut stack = vec![start];
    let mut out = Vec::new();
    while let Some(k) = stack.pop() {
        if !seen.insert(k) {
            continue;
        }
        out.push(k);
        for d in &graph.deps[k] {
            if let Some(&j) = index.function_by_id.get(d) {
                if !index.functions[j].is_declaration {
                    stack.push(j);
                }
            }
        }
    }
    out
}

/// Each input's one kernel whose code uses cooperative (joint) matrices, when exactly one of
/// its kernels does. DPC++'s unsplit image holds the last non-empty `joint_matrix` and
/// `joint_matrix_mad` strings of its kernels, so with one such kernel the strings of the
/// input's property file are that kernel's: its split images (and its per-source category)
/// take them from there. With several, which string is whose is not in the SPIR-V.
/// A function uses them when it holds a value of a cooperative-matrix type
/// (`OpTypeCooperativeMatrixKHR`, the older `OpTypeJointMatrixINTEL`) or stores one.
pub(crate) fn single_matrix_kernels(
    module: &Module,
    index: &Index,
    graph: &ModuleGraph,
    entries: &[Entry],
    inputs: usize,
) -> Vec<Option<u32>> {
    const TYPE_COOPERATIVE_MATRIX: u32 = 4456;
    const COOPERATIVE_MATRIX_STORE: u32 = 4458;
    const TYPE_JOINT_MATRIX: u32 = 6119;
    const JOINT_MATRIX_STORE: u32 = 6121;
    let mut kernels: Vec<(usize, Option<u32>)> = vec![(0, None); inputs];
    let types: IdSet<u32> = (index.annotation_end..index.globals_end.min(module.len()))
        .filter_map(|i| module.inst(i))
        .filter(|w| matches!(inst::opcode(w), TYPE_COOPERATIVE_MATRIX | TYPE_JOINT_MATRIX))
        .filter_map(|w| w.get(1).copied())
        .collect();
    if types.is_empty() {
        return vec![None; inputs];
    }
    let mut memo: IdMap<usize, bool> = IdMap::default();
    let mut uses = |f: usize| {
        *memo.entry(f).or_insert_with(|| {
            let function = &index.functions[f];
            (function.start..function.end.min(module.len()))
                .filter_map(|i| module.inst(i))
                .any(|w| {
                    matches!(
                        inst::opcode(w),
                        COOPERATIVE_MATRIX_STORE | JOINT_MATRIX_STORE
                    ) || inst::result_type(w).is_some_and(|t| types.contains(&t))
                })
        })
    };
    for e in entries.iter().filter(|e| e.kind == EntryKind::Kernel) {
        if reached_functions(index, graph, e.function)
            .into_iter()
            .any(&mut uses)
        {
            if let Some(slot) = kernels.get_mut(e.input) {
                *slot = (slot.0 + 1, Some(e.id));
            }
        }
    }
    kernels
        .into_iter()
        .map(|(n, id)| id.filter(|_| n == 1))
        .collect()
}

/// The literal operands of `OpExecutionMode %id mode …` (looked up in the graph).
fn mode_of(module: &Module, graph: &ModuleGraph, id: u32, mode: u32) -> Option<Vec<u32>> {
    graph
        .execution_modes
        .get(&id)?
        .iter()
        .filter_map(|&m| module.inst(m as usize))
        .find(|w| inst::is(w, spirv::Op::ExecutionMode) && w.get(2) == Some(&mode))
        .map(|w| w[3..].to_vec())
}

/// The source each input stands for in the per-source key (DPC++'s starts with the source's
/// `sycl-module-id`, which the SPIR-V does not hold): its own number, but an input whose entry
/// points are all ESIMD followed by one with none stand for one source, the first's. That is
/// the layout of DPC++'s `off` output of a source with ESIMD kernels: the ESIMD image, then the
/// SYCL image; keyed as one source, their groups come in DPC++'s order (an ESIMD group between
/// SYCL ones where its key falls) instead of the ESIMD input's first. Only the order of the
/// images depends on it: an ESIMD and a SYCL entry point never share a group.
fn sources(entries: &[Entry]) -> Vec<usize> {
    let inputs = entries.iter().map(|e| e.input + 1).max().unwrap_or(0);
    let (mut esimd, mut sycl) = (vec![false; inputs], vec![false; inputs]);
    for e in entries {
        match e.esimd {
            true => esimd[e.input] = true,
            false => sycl[e.input] = true,
        }
    }
    let mut source: Vec<usize> = (0..inputs).collect();
    for k in 1..inputs {
        if esimd[k - 1] && !sycl[k - 1] && !esimd[k] {
            source[k] = k - 1;
        }
    }
    source
}

/// DPC++'s per-source category of an entry point (`source`: see [`sources`]).
fn category(
    module: &Module,
    index: &Index,
    graph: &ModuleGraph,
    carried: &Carried,
    entry: &Entry,
    source: usize,
    aspects_memo: &mut (TypeAspects, IdMap<usize, u8>),
) -> String {
    use std::fmt::Write;
    let mut key = format!("{:08x}-", u32::MAX - source as u32);
    if entry.kind == EntryKind::Virtual {
        // The set name is not in SPIR-V: AuxData's, else the one the input's file names (see
        // `properties::virtual_functions`), else the function's own name (a set of its own).
        let set = carried.get(
            entry.input,
            crate::properties::VIRTUAL_FUNCTIONS,
            "virtual-functions-set",
        );
        match (carried.aux.attribute(entry.id, "indirectly-callable"), set) {
            (Some(from_aux), _) => key.push_str(from_aux),
            (None, Some(crate::properties::Value::Bytes { data, .. })) => {
                key.push_str(&String::from_utf8_lossy(data))
            }
            _ => key.push_str(&entry.name),
        }
    }
    key.push('-');
    if let Some(mode) = carried.aux.attribute(entry.id, "sycl-register-alloc-mode") {
        key.push_str(mode);
    }
    key.push('-');
    let grf = graph
        .annotations_of(entry.id)
        .filter_map(|a| module.inst(a as usize))
        .find_map(crate::properties::misc::grf_size_of);
    match (grf, carried.aux.attribute(entry.id, "sycl-grf-size")) {
        (Some(grf), _) => {
            let _ = write!(key, "{grf}");
        }
        (None, Some(from_aux)) => key.push_str(from_aux),
        (None, None) => {}
    }
    key.push('-');
    let mut aspects: Vec<u64> = if carried.aux.describes(entry.id) {
        // The entry point's own list (the front end propagates its callees' into it), as
        // DPC++'s `registerAspectListRule` reads it: zero-extended, internal aspects too.
        carried
            .aux
            .integers(entry.id, "sycl_used_aspects")
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v.zext())
            .collect()
    } else {
        let mut bits = 0u8;
        for f in reached_functions(index, graph, entry.function) {
            bits |= *aspects_memo.1.entry(f).or_insert_with(|| {
                function_aspects(module, index, &index.functions[f], &mut aspects_memo.0)
            });
        }
        bits_to_aspects(bits).into_iter().map(u64::from).collect()
    };
    if entry.esimd && !aspects.contains(&u64::from(ESIMD)) {
        aspects.push(u64::from(ESIMD));
    }
    aspects.sort_unstable();
    for a in aspects {
        let _ = write!(key, "-{a}");
    }
    key.push('-');
    // Work-group metadata: the entry point's execution mode, else its input's file or AuxData
    // (an exported function has no execution mode).
    let metadata = |what: FunctionMetadata| {
        what.mode()
            .and_then(|m| mode_of(module, graph, entry.id, m))
            .or_else(|| {
                let input = std::slice::from_ref(&entry.input);
                let value = carried.function_metadata(input, entry.id, &entry.name, what);
                value.map(|v| v.to_u32s())
            })
            .unwrap_or_default()
    };
    for what in [
        FunctionMetadata::ReqdWorkGroupSize,
        FunctionMetadata::WorkGroupNumDim,
        FunctionMetadata::ReqdSubGroupSize,
    ] {
        for v in metadata(what) {
            let _ = write!(key, "-{v}");
        }
        key.push('-');
    }
    if let Some(crate::properties::Value::Uint32(o)) =
        carried.get(entry.input, MISC_PROPERTIES, "optLevel")
    {
        let _ = write!(key, "{o}");
    } else if let Some(o) = carried.aux.attribute(entry.id, "sycl-optlevel") {
        key.push_str(o);
    }
    key.push('-');
    // The entry point's joint-matrix strings (metadata only: from AuxData, else, for its
    // input's one matrix kernel, from the input's file), each `-`-prefixed.
    let from_file = !carried.aux.describes(entry.id)
        && carried.matrix_kernel.get(entry.input).copied().flatten() == Some(entry.id);
    for (name, property) in [
        ("sycl_joint_matrix", "joint_matrix"),
        ("sycl_joint_matrix_mad", "joint_matrix_mad"),
    ] {
        if from_file {
            if let Some(crate::properties::Value::Bytes { data, .. }) =
                carried.get(entry.input, DEVICE_REQUIREMENTS, property)
            {
                key.push('-');
                key.push_str(&String::from_utf8_lossy(data));
            }
        } else {
            for value in carried.aux.metadata(entry.id, name).unwrap_or_default() {
                if let crate::properties::auxdata::MdValue::String(s) = value {
                    key.push('-');
                    key.push_str(s);
                }
            }
        }
        key.push('-');
    }
    key
}

/// Groups the entry points into images, in DPC++'s order.
pub(crate) fn plan(
    module: &Module,
    index: &Index,
    graph: &ModuleGraph,
    carried: &Carried,
    entries: &[Entry],
    mode: SplitMode,
) -> (Vec<Vec<usize>>, Vec<Planned>) {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut memo = (TypeAspects::new(module, index), IdMap::default());
    let source = sources(entries);
    for (k, e) in entries.iter().enumerate() {
        let key = match mode {
            SplitMode::Off => String::new(),
            SplitMode::PerKernel => e.name.clone(),
            SplitMode::PerSource => {
                let source = source.get(e.input).copied().unwrap_or(e.input);
                category(module, index, graph, carried, e, source, &mut memo)
            }
        };
        groups.entry(key).or_default().push(k);
    }
    let groups: Vec<Vec<usize>> = groups.into_values().rev().collect();
    let mut images = Vec::new();
    for (number, group) in groups.iter().enumerate() {
        let (esimd, sycl): (Vec<usize>, Vec<usize>) =
            group.iter().partition(|&&k| entries[k].esimd);
        if !esimd.is_empty() {
            images.push(Planned {
                entries: esimd,
                esimd: true,
                number,
            });
        }
        if !sycl.is_empty() || group.is_empty() {
            images.push(Planned {
                entries: sycl,
                esimd: false,
                number,
            });
        }
    }
    if images.is_empty() {
        images.push(Planned {
            entries: Vec::new(),
            esimd: false,
            number: 0,
        });
    }
    (groups, images)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(input: usize, esimd: bool) -> Entry {
        Entry {
            id: 1,
            function: 0,
            name: String::new(),
            kind: EntryKind::Kernel,
            esimd,
            input,
        }
    }

    /// Two exported functions `g` (line 12) and `f` (line 7), in that module order, described by
    /// the debug-information set `set` (`debug_function_f`/`_g`: each one's `DebugFunction`;
    /// `definition_f`/`_g`: what its body holds).
    fn two_described_functions(
        set: &str,
        constants: &str,
        debug_functions: &str,
        definitions: [&str; 2],
    ) -> String {
        format!(
            r#"
OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "{set}"
OpMemoryModel Physical64 OpenCL
%file = OpString "a.cpp"
%nf = OpString "f"
%ng = OpString "g"
OpDecorate %f LinkageAttributes "f" Export
OpDecorate %g LinkageAttributes "g" Export
%void = OpTypeVoid
%u32 = OpTypeInt 32 0
{constants}
%fn = OpTypeFunction %void
{debug_functions}
%g = OpFunction %void None %fn
%l1 = OpLabel
{}
OpReturn
OpFunctionEnd
%f = OpFunction %void None %fn
%l2 = OpLabel
{}
OpReturn
OpFunctionEnd
"#,
            definitions[0], definitions[1]
        )
    }

    fn virtual_entries(index: &Index) -> Vec<Entry> {
        index
            .functions
            .iter()
            .enumerate()
            .map(|(k, f)| Entry {
                id: f.id,
                function: k,
                name: index
                    .linkage
                    .get(&f.id)
                    .map(|l| String::from_utf8_lossy(&l.name).into_owned())
                    .unwrap_or_default(),
                kind: EntryKind::Virtual,
                esimd: false,
                input: 0,
            })
            .collect()
    }

    /// Virtual functions in a module's order (`g`, `f`) go in their source lines' order (`f`
    /// at 7, `g` at 12) with either debug-information layout; without a line for each, or with
    /// their lines in two files, they keep the module's order.
    #[test]
    fn virtual_functions_go_in_source_line_order() -> crate::link::testing::TestResult {
        let opencl = two_described_functions(
            "OpenCL.DebugInfo.100",
            "",
            "%src = OpExtInst %void %dbg DebugSource %file
%cu = OpExtInst %void %dbg DebugCompilationUnit 65536 4 %src OpenCL_CPP
%ty = OpExtInst %void %dbg DebugTypeFunction FlagIsPublic %void
%dg = OpExtInst %void %dbg DebugFunction %ng %ty %src 12 0 %cu %ng FlagIsDefinition 12 %g
%df = OpExtInst %void %dbg DebugFunction %nf %ty %src 7 0 %cu %nf FlagIsDefinition 7 %f",
            ["", ""],
        );
        let shader_functions = "%src = OpExtInst %void %dbg DebugSource %file
%src2 = OpExtInst %void %dbg DebugSource %nf
%cu = OpExtInst %void %dbg DebugCompilationUnit %c100 %c4 %src %c3
%ty = OpExtInst %void %dbg DebugTypeFunction %c0 %void
%dg = OpExtInst %void %dbg DebugFunction %ng %ty %src %c12 %c0 %cu %ng %c0 %c12
%df = OpExtInst %void %dbg DebugFunction %nf %ty %src %c7 %c0 %cu %nf %c0 %c7
%df2 = OpExtInst %void %dbg DebugFunction %nf %ty %src2 %c7 %c0 %cu %nf %c0 %c7";
        let constants = "%c0 = OpConstant %u32 0
%c3 = OpConstant %u32 3
%c4 = OpConstant %u32 4
%c7 = OpConstant %u32 7
%c12 = OpConstant %u32 12
%c100 = OpConstant %u32 100";
        let definition = |d: &str, f: &str| {
            format!("%x{f} = OpExtInst %void %dbg DebugFunctionDefinition {d} %{f}")
        };
        let shader = |f_described_by: &str| {
            two_described_functions(
                "NonSemantic.Shader.DebugInfo.100",
                constants,
                shader_functions,
                [&definition("%dg", "g"), &definition(f_described_by, "f")],
            )
        };
        let order = |text: &str| -> crate::link::testing::TestResult<Vec<String>> {
            let module = crate::link::testing::assemble(text)?;
            let index = Index::build(&module)?;
            let mut entries = virtual_entries(&index);
            virtual_functions_in_source_order(&module, &index, &mut entries);
            Ok(entries.into_iter().map(|e| e.name).collect())
        };
        assert_eq!(order(&opencl)?, ["f", "g"]);
        assert_eq!(order(&shader("%df"))?, ["f", "g"]);
        // (`f` described in another file: the lines do not compare.)
        assert_eq!(order(&shader("%df2"))?, ["g", "f"]);
        let only_g = two_described_functions(
            "NonSemantic.Shader.DebugInfo.100",
            constants,
            shader_functions,
            [&definition("%dg", "g"), ""],
        );
        assert_eq!(order(&only_g)?, ["g", "f"]);
        Ok(())
    }

    /// Without debug information, at `-O0`: the derived class's virtual function (first in the
    /// module, as its vtable is) goes after the base's when the derived class's constructor
    /// calls the base's; without the constructors nothing moves.
    #[test]
    fn virtual_functions_go_in_class_order_by_constructors() -> crate::link::testing::TestResult {
        let module_with = |constructors: bool| {
            let calls = if constructors {
                "%cvd = OpFunction %void None %fn\n%l3 = OpLabel\n%r = OpFunctionCall %void %cvb\nOpReturn\nOpFunctionEnd\n\
                 %cvb = OpFunction %void None %fn\n%l4 = OpLabel\nOpReturn\nOpFunctionEnd\n"
            } else {
                ""
            };
            let names = if constructors {
                "OpName %cvd \"_ZN2VDC2Ev\"\nOpName %cvb \"_ZN2VBC2Ev\"\n"
            } else {
                ""
            };
            format!(
                "{names}OpDecorate %vd LinkageAttributes \"_ZNK2VD3getEi\" Export
OpDecorate %vb LinkageAttributes \"_ZNK2VB3getEi\" Export
%void = OpTypeVoid
%fn = OpTypeFunction %void
%vd = OpFunction %void None %fn
%l1 = OpLabel
OpReturn
OpFunctionEnd
%vb = OpFunction %void None %fn
%l2 = OpLabel
OpReturn
OpFunctionEnd
{calls}"
            )
        };
        let order = |text: &str| -> crate::link::testing::TestResult<Vec<String>> {
            let module = crate::link::testing::assemble(text)?;
            let index = Index::build(&module)?;
            let mut entries: Vec<Entry> = virtual_entries(&index).into_iter().take(2).collect();
            virtual_functions_in_source_order(&module, &index, &mut entries);
            Ok(entries.into_iter().map(|e| e.name).collect())
        };
        assert_eq!(
            order(&module_with(true))?,
            ["_ZNK2VB3getEi", "_ZNK2VD3getEi"]
        );
        assert_eq!(
            order(&module_with(false))?,
            ["_ZNK2VD3getEi", "_ZNK2VB3getEi"]
        );
        assert_eq!(
            method_class(b"_ZNK2ns2VB3getEi"),
            Some(vec![&b"ns"[..], b"VB"])
        );
        assert_eq!(
            constructor_class(b"_ZN2ns2VBC1Ev"),
            Some(vec![&b"ns"[..], b"VB"])
        );
        assert_eq!(method_class(b"_Z3getv"), None);
        assert_eq!(nested_name(b"_ZN99x"), None);
        Ok(())
    }

    /// DPC++'s `off` images of a source with ESIMD kernels (ESIMD, then SYCL) are one source;
    /// other layouts keep a source per input.
    #[test]
    fn an_esimd_input_and_the_sycl_input_after_it_are_one_source() {
        let esimd_then_sycl = [entry(0, true), entry(0, true), entry(1, false)];
        assert_eq!(sources(&esimd_then_sycl), [0, 0]);
        let sycl_then_esimd = [entry(0, false), entry(1, true)];
        assert_eq!(sources(&sycl_then_esimd), [0, 1]);
        let mixed_first = [entry(0, true), entry(0, false), entry(1, false)];
        assert_eq!(sources(&mixed_first), [0, 1]);
        let two_esimd = [entry(0, true), entry(1, true), entry(2, false)];
        assert_eq!(sources(&two_esimd), [0, 1, 1]);
        let two_sources = [
            entry(0, true),
            entry(1, false),
            entry(2, true),
            entry(3, false),
        ];
        assert_eq!(sources(&two_sources), [0, 0, 2, 2]);
        let sycl_only = [entry(0, false), entry(1, false)];
        assert_eq!(sources(&sycl_only), [0, 1]);
    }
}
