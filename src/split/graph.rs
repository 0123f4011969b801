//! The module's dependency graph, built once for every image a split extracts.
//!
//! Algorithm: one pass over the instructions. Each function gets the list of ids it uses that
//! are functions or global-section definitions (types, constants, variables) — calls, function
//! pointers and uses of globals alike, deduplicated. Names and decorations are listed by the id
//! they name, execution modes by their entry point; the preamble (capabilities, extensions,
//! imports, memory model, debug strings and sources) is listed whole. Global variables that are
//! not discardable (an `Export` linkage or a `HostAccessINTEL` decoration: every device global)
//! are the roots every image starts from.
//!
//! Precondition: an indexed module ([`Index`]). Postcondition: every listed instruction index is
//! `< module.len()`; building costs one visit of each instruction.

use crate::module::assemble::Section;
use crate::module::idhash::{IdBits, IdMap, IdSet};
use crate::module::index::Index;
use crate::module::{inst, Module};

/// `HostAccessINTEL` (Khronos number and the internal one DPC++ 2026.2 writes).
pub(crate) const HOST_ACCESS: [u32; 2] = [6188, 6147];
/// `VectorComputeFunctionINTEL`: the decoration of ESIMD functions.
pub(crate) const VECTOR_COMPUTE_FUNCTION: u32 = 5626;
/// `LinkageAttributes`.
pub(crate) const LINKAGE: u32 = 41;

/// What the extraction of any image looks up.
pub(crate) struct ModuleGraph {
    /// Per function (as in [`Index::functions`]): the functions and global definitions it uses.
    pub deps: Vec<Vec<u32>>,
    /// Names and decorations (`OpName`, `OpDecorate`, …) as `(id they name, instruction)`,
    /// sorted (see [`ModuleGraph::annotations_of`]).
    annotations: Vec<(u32, u32)>,
    /// `OpExecutionMode(Id)` by entry-point function.
    pub execution_modes: IdMap<u32, Vec<u32>>,
    /// `OpEntryPoint` instructions by function.
    pub entry_point_of: IdMap<u32, Vec<u32>>,
    /// Instructions every image keeps as they are: capabilities, extensions, imports, memory
    /// model, debug strings and sources, `OpModuleProcessed`, decoration groups.
    pub always: Vec<u32>,
    /// `OpGroupDecorate` / `OpGroupMemberDecorate` (kept with the targets an image holds).
    pub group_decorations: Vec<u32>,
    /// Global-section instructions without a result of their own that go with the ids they use:
    /// `OpTypeForwardPointer`, non-semantic `OpExtInst`s.
    pub global_extras: Vec<u32>,
    /// Non-discardable global variables (every image keeps them).
    pub roots: Vec<u32>,
    /// The first `DebugInfoNone` of each debug-information set that has one (by import): what
    /// a debug record's reference to a function an image does not hold becomes (see
    /// [`crate::split::extract`]).
    pub debug_info_none: IdMap<u32, u32>,
    /// `OpDecorationGroup` ids (their decorations are kept with them).
    pub decoration_groups: Vec<u32>,
    /// Functions decorated `VectorComputeFunctionINTEL` (ESIMD).
    pub esimd: IdSet<u32>,
    /// Virtual functions: those a vtable holds (see
    /// [`crate::properties::virtual_functions::PointerTargets`]).
    pub virtual_functions: IdSet<u32>,
    /// Per function: the names and decorations of the ids it defines inside (its parameters,
    /// values and labels), which go with it.
    pub local_annotations: Vec<Vec<u32>>,
}

/// Whether the debug-information set imported under `name` is one whose instruction 0 is
/// `DebugInfoNone` (`OpenCL.DebugInfo.100` and its older name, `NonSemantic.Shader.DebugInfo.*`).
fn has_debug_info_none(name: &[u8]) -> bool {
    matches!(
        name,
        b"OpenCL.DebugInfo.100" | b"SPIRV.debug" | b"DebugInfo"
    ) || name.starts_with(b"NonSemantic.Shader.DebugInfo.")
}

/// Whether instruction `i` of `module` is a definition of the global section: between the
/// annotations and the first function, or an Intel alias declaration ([`Section::floats`])
/// anywhere before the functions (llvm-spirv writes those after the names).
pub(super) fn defines_global(module: &Module, index: &Index, i: usize) -> bool {
    i < index.globals_end && (i >= index.annotation_end || Section::floats(module.opcode(i)))
}

impl ModuleGraph {
    /// The names and decorations of `id`, in module order.
    pub(crate) fn annotations_of(&self, id: u32) -> impl Iterator<Item = u32> + '_ {
        let start = self.annotations.partition_point(|&(t, _)| t < id);
        self.annotations[start..]
            .iter()
            .take_while(move |&&(t, _)| t == id)
            .map(|&(_, i)| i)
    }

    /// Leaves the instructions at `positions` (sorted) out of every image: they are neither
    /// always kept nor kept as extras.
    pub(crate) fn leave_out(&mut self, positions: &[u32]) {
        if positions.is_empty() {
            return;
        }
        let keep = |p: &u32| positions.binary_search(p).is_err();
        self.always.retain(keep);
        self.global_extras.retain(keep);
    }

    pub(crate) fn build(module: &Module, index: &Index) -> ModuleGraph {
        let mut g = ModuleGraph {
            deps: Vec::with_capacity(index.functions.len()),
            annotations: Vec::new(),
            execution_modes: IdMap::default(),
            entry_point_of: IdMap::default(),
            always: Vec::new(),
            group_decorations: Vec::new(),
            global_extras: Vec::new(),
            roots: Vec::new(),
            debug_info_none: IdMap::default(),
            decoration_groups: Vec::new(),
            esimd: IdSet::default(),
            virtual_functions: crate::properties::virtual_functions::pointer_targets(module, index)
                .virtual_functions,
            local_annotations: Vec::with_capacity(index.functions.len()),
        };
        let mut nonsemantic_sets: IdSet<u32> = IdSet::default();
        let mut debug_info_sets: IdSet<u32> = IdSet::default();
        let globals_start = index.annotation_end;
        for i in 0..index.globals_end.min(module.len()) {
            let Some(w) = module.inst(i) else { continue };
            let op = inst::opcode(w);
            let at = i as u32;
            // (`DebugInfoNone`: instruction 0 of those sets, without operands.)
            if op == 12 && w.len() == 5 && w[4] == 0 && debug_info_sets.contains(&w[3]) {
                g.debug_info_none.entry(w[3]).or_insert(w[2]);
            }
            match op {
                // Capability, Extension, MemoryModel, String, SourceExtension, Source,
                // SourceContinued, ModuleProcessed, DecorationGroup.
                17 | 10 | 14 | 7 | 4 | 3 | 2 | 330 => g.always.push(at),
                73 => {
                    g.always.push(at);
                    g.decoration_groups.extend(w.get(1));
                }
                11 => {
                    g.always.push(at);
                    let named = w.get(2..).and_then(inst::read_string);
                    if named
                        .as_ref()
                        .is_some_and(|(n, _)| n.starts_with(b"NonSemantic."))
                    {
                        nonsemantic_sets.insert(w[1]);
                    }
                    if named.is_some_and(|(n, _)| has_debug_info_none(&n)) {
                        debug_info_sets.insert(w[1]);
                    }
                }
                15 => {
                    if let Some(&f) = w.get(2) {
                        g.entry_point_of.entry(f).or_default().push(at);
                    }
                }
                16 | 331 => {
                    if let Some(&f) = w.get(1) {
                        g.execution_modes.entry(f).or_default().push(at);
                    }
                }
                74 | 75 => g.group_decorations.push(at),
                5 | 6 | 71 | 72 | 332 | 5632 | 5633 => {
                    let Some(&target) = w.get(1) else { continue };
                    g.annotations.push((target, at));
                    if op == 71 && w.len() >= 3 {
                        if HOST_ACCESS.contains(&w[2]) {
                            g.roots.push(target);
                        } else if w[2] == VECTOR_COMPUTE_FUNCTION {
                            g.esimd.insert(target);
                        }
                    }
                }
                // OpLine / OpNoLine in the global section: not kept (they describe nothing an
                // image needs).
                8 | 317 => {}
                39 => g.global_extras.push(at),
                12 if i >= globals_start
                    && w.get(3).is_some_and(|s| nonsemantic_sets.contains(s)) =>
                {
                    g.global_extras.push(at)
                }
                _ => {}
            }
        }
        g.annotations.sort_unstable();
        // Exported global variables are not discardable either.
        for (&id, l) in &index.linkage {
            let is_variable = index
                .defs
                .get(&id)
                .and_then(|d| module.inst(d))
                .is_some_and(|w| inst::is(w, spirv::Op::Variable));
            if l.kind == 0 && is_variable {
                g.roots.push(id);
            }
        }
        g.roots.sort_unstable();
        g.roots.dedup();
        // The functions and global-section definitions, as a set of ids (a bit each: every use
        // of every instruction is looked up in it).
        let budget = module.word_count();
        let mut global = IdBits::new(module.bound(), budget);
        for i in (0..module.len()).filter(|&i| defines_global(module, index, i)) {
            if let Some(r) = module.inst(i).and_then(inst::result_id) {
                global.insert(r);
            }
        }
        for f in &index.functions {
            global.insert(f.id);
        }
        // The ids names or decorations name (most of a function's results have none: the
        // search in `annotations` is skipped for those).
        let mut annotated = IdBits::new(module.bound(), budget);
        for &(target, _) in &g.annotations {
            annotated.insert(target);
        }
        // The ids a function's list already holds (emptied after each function).
        let mut seen = IdBits::new(module.bound(), budget);
        for f in &index.functions {
            let mut deps = Vec::new();
            let mut local = Vec::new();
            for i in f.start..=f.end.min(module.len().saturating_sub(1)) {
                let Some(w) = module.inst(i) else { continue };
                if i > f.start {
                    if let Some(r) = inst::result_id(w).filter(|&r| annotated.contains(r)) {
                        local.extend(g.annotations_of(r));
                    }
                }
                index.visit_use_ids(module, w, |id| {
                    if id != f.id && global.contains(id) && seen.insert(id) {
                        deps.push(id);
                    }
                });
            }
            for &id in &deps {
                seen.remove(id);
            }
            g.deps.push(deps);
            g.local_annotations.push(local);
        }
        g
    }
}
