//! Extraction of one image: its entry points, everything they reach, and the module's roots,
//! reassembled as a module of their own.
//!
//! Algorithm: a worklist over ids from the entry points, their interfaces and execution-mode
//! operands and the graph's roots ([`ModuleGraph::roots`]); a function brings the ids its body
//! uses ([`ModuleGraph::deps`]), a global definition the ids its instruction uses, a decoration
//! with id operands (`OpDecorateId`) those ids. A function the plan declares only
//! ([`ImagePlan::declared`]) brings its type and is written as a declaration with `Import`
//! linkage. Then the kept instructions of the sections before the functions are written in their
//! original order (names and decorations of kept ids only, `OpGroupDecorate` with the targets
//! kept, non-semantic global `OpExtInst`s whose operands are all kept), then the kept functions
//! in module order. Ids are not renumbered: the bound stays the module's.
//!
//! Cost: proportional to what the image holds (marks are generation-stamped, so nothing sized
//! by the module is cleared per image), plus a sort of the kept instructions.
//!
//! Precondition: `graph` was built from `module` and `index`. Postcondition: every id the image
//! uses is defined in it, except ids of functions the plan excludes from it entirely.

use super::graph::{ModuleGraph, LINKAGE};
use crate::module::idhash::{IdSet, IdTable};
use crate::module::index::Index;
use crate::module::inst;
use crate::module::{Module, HEADER_WORDS};
use spirv::Op;

/// Marks an [`Extracted::origin`] entry whose instruction the image holds changed.
pub(crate) const CHANGED: u32 = 1 << 31;

/// What one image is made of.
pub(crate) struct ImagePlan<'a> {
    /// Entry-point functions of the image, in module order.
    pub entries: &'a [u32],
    /// Functions that must be in the image although nothing in it reaches them.
    pub extra: &'a [u32],
    /// Whether a function is written as a declaration (body left out, `Export` linkage becomes
    /// `Import`).
    pub declared: &'a dyn Fn(u32) -> bool,
    /// The module is not read again after this image: give its pages back behind the copy (a
    /// mapped module whose releasing is on, see [`Module::release_input`]).
    pub last: bool,
}

/// An image's module and what it holds.
pub(crate) struct Extracted {
    pub words: Vec<u32>,
    /// For each instruction of the image, in order: the module's instruction it was copied
    /// from, with [`CHANGED`] set when it was not copied unchanged.
    pub origin: Vec<u32>,
}

/// Extracts images from one module; keeps its marks between images.
pub(crate) struct Extractor<'a> {
    module: &'a Module,
    index: &'a Index,
    graph: &'a ModuleGraph,
    marks: IdTable<u32>,
    generation: u32,
}

impl<'a> Extractor<'a> {
    pub(crate) fn new(module: &'a Module, index: &'a Index, graph: &'a ModuleGraph) -> Self {
        let bound = module.bound();
        Extractor {
            module,
            index,
            graph,
            marks: IdTable::new(bound, (bound as usize).saturating_mul(4).max(1 << 20)),
            generation: 0,
        }
    }

    fn marked(&self, id: u32) -> bool {
        self.marks.get(id) == self.generation
    }

    /// Extracts the image `plan` describes.
    pub(crate) fn extract(&mut self, plan: &ImagePlan<'_>) -> Extracted {
        self.generation += 1;
        let (module, index, graph) = (self.module, self.index, self.graph);
        let mut stack: Vec<u32> = Vec::new();
        let mut insts: Vec<u32> = graph.always.clone();
        for f in plan.entries {
            stack.push(*f);
            for &e in graph.entry_point_of.get(f).into_iter().flatten() {
                insts.push(e);
                if let Some(w) = module.inst(e as usize) {
                    // Interface ids follow the name.
                    let name_words = w.get(3..).and_then(crate::module::inst::string_len);
                    if let Some(n) = name_words {
                        stack.extend(w.iter().skip(3 + n));
                    }
                }
            }
            for &m in graph.execution_modes.get(f).into_iter().flatten() {
                insts.push(m);
                if let Some(w) = module.inst(m as usize) {
                    if inst::is(w, Op::ExecutionModeId) {
                        stack.extend(w.iter().skip(3));
                    }
                }
            }
        }
        stack.extend(plan.extra);
        stack.extend(&graph.roots);
        stack.extend(&graph.decoration_groups);
        let mut functions = Vec::new();
        let mut declared_kept = Vec::new();
        let mut globals_kept: Vec<u32> = Vec::new();
        while let Some(id) = stack.pop() {
            if self.marked(id) {
                continue;
            }
            *self.marks.get_mut(id) = self.generation;
            if let Some(&k) = index.function_by_id.get(&id) {
                let f = &index.functions[k];
                if (plan.declared)(id) && !f.is_declaration {
                    declared_kept.push(k);
                    for i in f.start..=f.end {
                        let Some(w) = module.inst(i) else { continue };
                        let op = inst::opcode(w);
                        if op == Op::Function as u32 || op == Op::FunctionParameter as u32 {
                            index.visit_use_ids(module, w, |u| stack.push(u));
                        } else {
                            break;
                        }
                    }
                } else {
                    functions.push(k);
                    stack.extend(&graph.deps[k]);
                    for &a in &graph.local_annotations[k] {
                        insts.push(a);
                        push_decoration_ids(module, a, &mut stack);
                    }
                }
            } else if let Some(d) = index.defs.get(&id) {
                if d >= index.annotation_end && d < index.globals_end {
                    globals_kept.push(d as u32);
                    if let Some(w) = module.inst(d) {
                        index.visit_use_ids(module, w, |u| stack.push(u));
                    }
                }
            }
            for a in graph.annotations_of(id) {
                insts.push(a);
                push_decoration_ids(module, a, &mut stack);
            }
        }
        insts.extend(&globals_kept);
        insts.sort_unstable();
        insts.dedup();
        // Non-semantic instructions and forward pointers whose operands are all kept (or
        // defined before the annotations: strings, imports).
        let mut extras = Vec::new();
        for &x in &graph.global_extras {
            let Some(w) = module.inst(x as usize) else {
                continue;
            };
            // Reached already (something the image holds uses it): kept with the globals.
            if crate::module::inst::result_id(w).is_some_and(|r| self.marked(r)) {
                continue;
            }
            let mut all = true;
            index.visit_use_ids(module, w, |u| {
                all &=
                    self.marked(u) || index.defs.get(&u).is_some_and(|d| d < index.annotation_end);
            });
            if all {
                if let Some(r) = crate::module::inst::result_id(w) {
                    *self.marks.get_mut(r) = self.generation;
                }
                extras.push(x);
            }
        }
        let mut words: Vec<u32> = module.original_words()[..HEADER_WORDS].to_vec();
        let declared_ids: IdSet<u32> = declared_kept
            .iter()
            .map(|&k| index.functions[k].id)
            .collect();
        let mut origin: Vec<u32> = Vec::new();
        let mut globals = insts.into_iter().peekable();
        let mut extras = extras.into_iter().peekable();
        // Merge the two ordered lists.
        loop {
            let next = match (globals.peek(), extras.peek()) {
                (Some(&g), Some(&x)) if x < g => extras.next(),
                (Some(_), _) => globals.next(),
                (None, Some(_)) => extras.next(),
                (None, None) => break,
            };
            let Some(i) = next else { break };
            if let Some(verbatim) = self.write_global(i as usize, &declared_ids, &mut words) {
                origin.push(if verbatim { i } else { i | CHANGED });
            }
        }
        let mut all_functions: Vec<usize> =
            functions.iter().chain(&declared_kept).copied().collect();
        // Declarations (bodies left out, or none to begin with) before definitions, as SPIR-V
        // requires; module order within each.
        all_functions.sort_unstable_by_key(|&k| {
            let bodiless =
                declared_ids.contains(&index.functions[k].id) || index.functions[k].is_declaration;
            (!bodiless, k)
        });
        let mut behind = crate::module::ReleaseBehind::default();
        for &k in &all_functions {
            let f = &index.functions[k];
            if plan.last {
                behind.passed(module, module.offset_of(f.start));
            }
            if declared_ids.contains(&f.id) {
                for i in f.start..=f.end {
                    let Some(w) = module.inst(i) else { continue };
                    let op = inst::opcode(w);
                    if op == Op::Function as u32 || op == Op::FunctionParameter as u32 {
                        words.extend_from_slice(w);
                        origin.push(i as u32);
                    } else {
                        break;
                    }
                }
                words.extend(crate::module::inst::build(Op::FunctionEnd, &[]));
                origin.push(f.end as u32);
            } else {
                for i in f.start..=f.end {
                    if let Some(w) = module.inst(i) {
                        words.extend_from_slice(w);
                        origin.push(i as u32);
                    }
                }
            }
        }
        Extracted { words, origin }
    }

    /// Writes a kept instruction of the sections before the functions, adapted to the image;
    /// whether it was written unchanged (`None`: not written).
    fn write_global(&self, i: usize, declared: &IdSet<u32>, out: &mut Vec<u32>) -> Option<bool> {
        let w = self.module.inst(i)?;
        let op = inst::opcode(w);
        if op == Op::GroupDecorate as u32 || op == Op::GroupMemberDecorate as u32 {
            let step = if op == Op::GroupDecorate as u32 { 1 } else { 2 };
            let kept: Vec<u32> = w[2..]
                .chunks(step)
                .filter(|c| self.marked(c[0]))
                .flatten()
                .copied()
                .collect();
            if kept.is_empty() {
                return None;
            }
            let unchanged = kept.len() == w.len() - 2;
            let mut operands = vec![w[1]];
            operands.extend(kept);
            out.extend(crate::module::inst::build(
                if step == 1 {
                    Op::GroupDecorate
                } else {
                    Op::GroupMemberDecorate
                },
                &operands,
            ));
            return Some(unchanged);
        }
        out.extend_from_slice(w);
        // A body left out: the definition's Export becomes an Import.
        if op == Op::Decorate as u32 && w.len() >= 4 && w[2] == LINKAGE && declared.contains(&w[1])
        {
            if let Some(last) = out.last_mut() {
                if *last == 0 {
                    *last = 1;
                    return Some(false);
                }
            }
        }
        Some(true)
    }
}

/// Pushes the id operands of an `OpDecorateId`.
fn push_decoration_ids(module: &Module, a: u32, stack: &mut Vec<u32>) {
    if let Some(w) = module.inst(a as usize) {
        if inst::is(w, Op::DecorateId) {
            stack.extend(w.iter().skip(3));
        }
    }
}
