//! Entry points and their grouping into images, as DPC++'s `ModuleSplitter` does.
//!
//! Entry points: the kernels (`OpEntryPoint`); with device-image dependencies allowed, the
//! SYCL_EXTERNAL functions (`Export` definitions that are not builtins, nor named as a kernel);
//! always the virtual functions (`Export` definitions whose address a global constant takes).
//! Module order.
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
