//! Extraction of one image: its entry points, everything they reach, and the module's roots,
//! reassembled as a module of their own.
//!
//! Algorithm: a worklist over ids from the entry points, their interfaces and execution-mode
//! operands and the graph's roots ([`ModuleGraph::roots`]); a function brings the ids its body
//! uses ([`ModuleGraph::deps`]), a global definition the ids its instruction uses, a decoration
//! with id operands (`OpDecorateId`) those ids. A debug record brings no code: where it names a
//! function, or an id defined in one, the image holds its set's `DebugInfoNone` in that place
//! unless the image holds the function anyway (in LLVM, debug metadata is no use). A function
//! the plan declares only ([`ImagePlan::declared`]) brings its type and is written as a
//! declaration with `Import` linkage. The image's instructions — those kept of the sections
//! before the functions (names and decorations of kept ids only, `OpGroupDecorate` with the
//! targets kept, non-semantic global `OpExtInst`s whose operands are all kept), then the kept
//! functions, in module order — are written by the reassembly engine
//! ([`crate::module::assemble`]) under the module's header: the logical layout, the functions
//! without a body first. The Intel alias declarations (`OpAlias*DeclINTEL`, which llvm-spirv
//! writes after the names) are global definitions wherever they are, and stay in the section
//! the module has them in ([`Section::in_module`]). Ids are not renumbered: the bound stays the
//! module's.
//!
//! The last image of a split ([`ImagePlan::last`]) that would hold every instruction of the
//! module, unchanged and in the module's order, is not written: [`Extracted::Whole`] says the
//! module is the image (the check reads the worklist's result and the index, not the words).
//!
//! Cost: proportional to what the image holds (marks are generation-stamped, so nothing sized
//! by the module is cleared per image), plus a sort of the kept instructions.
//!
//! Precondition: `graph` was built from `module` and `index`. Postcondition: every id the image
//! uses is defined in it, except ids of functions the plan excludes from it entirely.

use super::graph::{defines_global, ModuleGraph, LINKAGE};
use crate::module::assemble::{assemble_placing, Header, Section, Slots};
use crate::module::idhash::{IdSet, IdTable};
use crate::module::index::Index;
use crate::module::inst;
use crate::module::Module;
use spirv::{LinkageType, Op};

/// Marks an `origin` entry of [`Extracted::Assembled`] whose instruction the image holds changed.
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
pub(crate) enum Extracted {
    /// The image's own module.
    Assembled {
        words: Vec<u32>,
        /// For each instruction of the image, in order: the module's instruction it was copied
        /// from, with [`CHANGED`] set when it was not copied unchanged.
        origin: Vec<u32>,
    },
    /// The last image holds every instruction of the module, unchanged, and the logical layout
    /// keeps their order: its module would be the module's words under the module's header,
    /// that is, the module itself (nothing was copied).
    Whole,
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
            // (Indexed by id when that costs at most four bytes per word of the module: a hostile
            // bound never sizes it.)
            marks: IdTable::new(bound, module.word_count().saturating_mul(4).max(1 << 20)),
            generation: 0,
        }
    }

    fn marked(&self, id: u32) -> bool {
        self.marks.get(id) == self.generation
    }

    /// The function `id` is, or the one it is defined in (`None` for an id of the sections
    /// before the functions).
    fn function_of(&self, id: u32) -> Option<u32> {
        let index = self.index;
        if index.function_by_id.contains_key(&id) {
            return Some(id);
        }
        let d = index.defs.get(&id)?;
        if d < index.globals_end {
            return None;
        }
        index.function_of(d).map(|f| f.id)
    }

    /// For an instruction of a debug-information set that has a `DebugInfoNone`: that id.
    fn debug_info_none(&self, w: &[u32]) -> Option<u32> {
        if !inst::is(w, Op::ExtInst) {
            return None;
        }
        self.graph.debug_info_none.get(w.get(3)?).copied()
    }

    /// Extracts the image `plan` describes.
    pub(crate) fn extract(&mut self, plan: &ImagePlan<'_>) -> Extracted {
        self.generation += 1;
        let module = self.module;
        let reached = self.reach(plan);
        let extras = self.global_extras();
        if plan.last && self.holds_whole_module(&reached, &extras) {
            return Extracted::Whole;
        }
        let declared_ids: IdSet<u32> = reached
            .declared
            .iter()
            .map(|&k| self.index.functions[k].id)
            .collect();
        let mut image = ImageSlots {
            module,
            pieces: Vec::with_capacity(reached.globals.len() + extras.len()),
            scratch: Vec::new(),
        };
        for i in merged(&reached.globals, &extras) {
            self.push_global(i as usize, &declared_ids, &mut image);
        }
        let mut functions: Vec<usize> = reached
            .functions
            .iter()
            .chain(&reached.declared)
            .copied()
            .collect();
        functions.sort_unstable();
        let function_insts: usize = functions
            .iter()
            .map(|&k| {
                (self.index.functions[k].end + 1).saturating_sub(self.index.functions[k].start)
            })
            .sum();
        image.pieces.reserve(function_insts);
        for &k in &functions {
            let f = &self.index.functions[k];
            if declared_ids.contains(&f.id) {
                image.push_declaration(f.start..=f.end);
            } else {
                for i in f.start..=f.end {
                    image.push_module(i as u32, Section::Function);
                }
            }
        }
        let mut origin = vec![0u32; image.pieces.len()];
        let mut behind = crate::module::ReleaseBehind::default();
        let words = assemble_placing(
            &Header::original(module),
            &image,
            |_| true,
            |n, rank| {
                let piece = &image.pieces[n];
                if let Some(o) = origin.get_mut(rank) {
                    *o = piece.origin;
                }
                if plan.last && piece.section == Section::Function {
                    behind.passed(module, module.offset_of((piece.origin & !CHANGED) as usize));
                }
            },
        );
        Extracted::Assembled { words, origin }
    }

    /// The worklist (see the module docs): the instructions before the functions the image
    /// holds, its functions and its functions written as declarations.
    fn reach(&mut self, plan: &ImagePlan<'_>) -> Reached {
        let (module, index, graph) = (self.module, self.index, self.graph);
        let mut stack: Vec<u32> = Vec::new();
        let mut insts: Vec<u32> = graph.always.clone();
        for f in plan.entries {
            stack.push(*f);
            for &e in graph.entry_point_of.get(f).into_iter().flatten() {
                insts.push(e);
                if let Some(w) = module.inst(e as usize) {
                    // Interface ids follow the name.
                    let name_words = w.get(3..).and_then(inst::string_len);
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
        let mut declared = Vec::new();
        let mut globals_kept: Vec<u32> = Vec::new();
        while let Some(id) = stack.pop() {
            if self.marked(id) {
                continue;
            }
            *self.marks.get_mut(id) = self.generation;
            if let Some(&k) = index.function_by_id.get(&id) {
                let f = &index.functions[k];
                if (plan.declared)(id) && !f.is_declaration {
                    declared.push(k);
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
                if defines_global(module, index, d) {
                    globals_kept.push(d as u32);
                    if let Some(w) = module.inst(d) {
                        match self.debug_info_none(w) {
                            // A debug record brings no function, nor anything of one (see
                            // `push_global`).
                            Some(none) => index.visit_use_ids(module, w, |u| {
                                let code = self.function_of(u).is_some();
                                stack.push(if code { none } else { u });
                            }),
                            None => index.visit_use_ids(module, w, |u| stack.push(u)),
                        }
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
        Reached {
            globals: insts,
            functions,
            declared,
        }
    }

    /// The non-semantic instructions and forward pointers of the global section the image
    /// holds although nothing in it uses them: those whose operands are all kept (or defined
    /// before the annotations: strings, imports); in module order. Marks their results.
    fn global_extras(&mut self) -> Vec<u32> {
        let (module, index) = (self.module, self.index);
        let mut extras = Vec::new();
        for &x in &self.graph.global_extras {
            let Some(w) = module.inst(x as usize) else {
                continue;
            };
            // Reached already (something the image holds uses it): kept with the globals.
            if inst::result_id(w).is_some_and(|r| self.marked(r)) {
                continue;
            }
            let mut all = true;
            index.visit_use_ids(module, w, |u| {
                all &= self.marked(u)
                    || index.defs.get(&u).is_some_and(|d| {
                        d < index.annotation_end && !defines_global(module, index, d)
                    });
            });
            if all {
                if let Some(r) = inst::result_id(w) {
                    *self.marks.get_mut(r) = self.generation;
                }
                extras.push(x);
            }
        }
        extras
    }

    /// Whether the image `reached` and `extras` describe holds every instruction of the module,
    /// unchanged, in an order the logical layout keeps: then it would be the module itself.
    /// (What [`Extractor::extract`] would make of them, without making it: every function
    /// whole, each instruction before them kept as it is, once, in order.)
    fn holds_whole_module(&self, reached: &Reached, extras: &[u32]) -> bool {
        let (module, index) = (self.module, self.index);
        let functions = &index.functions;
        if !reached.declared.is_empty() || reached.functions.len() != functions.len() {
            return false;
        }
        // The functions, one after another, are every instruction after the global section.
        let mut next = index.globals_end;
        for f in functions {
            if f.start != next {
                return false;
            }
            next = f.end + 1;
        }
        if next != module.len() {
            return false;
        }
        // The kept instructions before them, as `extract` merges them: every one, unchanged.
        let mut kept = merged(&reached.globals, extras);
        let every =
            (0..index.globals_end).all(|i| kept.next() == Some(i as u32) && self.kept_unchanged(i));
        // The logical layout keeps them in order (see `assemble`): the sections of the
        // instructions before the functions never go back, and the functions without a body
        // come first.
        let section = |i: usize| Section::in_module(module, i, false);
        every
            && kept.next().is_none()
            && (1..index.globals_end).all(|i| section(i - 1) <= section(i))
            && functions
                .windows(2)
                .all(|f| f[0].is_declaration || !f[1].is_declaration)
    }

    /// Whether [`Extractor::push_global`] keeps instruction `i` as it is (with no function
    /// written as a declaration).
    fn kept_unchanged(&self, i: usize) -> bool {
        let Some(w) = self.module.inst(i) else {
            return false;
        };
        match group_decoration_step(inst::opcode(w)) {
            Some(step) => w[2..].chunks(step).all(|c| self.marked(c[0])),
            None => true,
        }
    }

    /// Adds a kept instruction of the sections before the functions to the image, adapted to
    /// it (not at all if nothing of it is left).
    fn push_global(&self, i: usize, declared: &IdSet<u32>, image: &mut ImageSlots<'_>) {
        let Some(w) = self.module.inst(i) else { return };
        let op = inst::opcode(w);
        let section = Section::in_module(self.module, i, false);
        if let Some(step) = group_decoration_step(op) {
            let kept: Vec<u32> = w[2..]
                .chunks(step)
                .filter(|c| self.marked(c[0]))
                .flatten()
                .copied()
                .collect();
            if kept.is_empty() {
                return;
            }
            let unchanged = kept.len() == w.len() - 2;
            let mut operands = vec![w[1]];
            operands.extend(kept);
            let built = inst::build(
                if step == 1 {
                    Op::GroupDecorate
                } else {
                    Op::GroupMemberDecorate
                },
                &operands,
            );
            let origin = if unchanged {
                i as u32
            } else {
                i as u32 | CHANGED
            };
            image.push_built(origin, section, &built);
            return;
        }
        // A debug record naming a function the image does not hold: that operand becomes the
        // set's `DebugInfoNone` (debug information keeps no code in an image; in LLVM it is
        // metadata, no use). llvm-spirv writes some numbers as literals where the set has ids
        // (a parameter's number in `DebugLocalVariable`), which can equal a function's id.
        if let Some(none) = self.debug_info_none(w) {
            let index = self.index;
            let absent = |u: u32| self.function_of(u).is_some_and(|f| !self.marked(f));
            // (Nearly every record names only debug records, strings and constants: one visit
            // without allocating; the positions only for the rare one that names code.)
            let mut any = false;
            index.visit_use_ids(self.module, w, |u| any |= absent(u));
            let mut absent_at = Vec::new();
            if any {
                if let Some(positions) = index.id_use_positions(self.module, w) {
                    absent_at.extend(positions.into_iter().filter(|&p| absent(w[p])));
                }
            }
            if !absent_at.is_empty() {
                let mut built = w.to_vec();
                for p in absent_at {
                    built[p] = none;
                }
                image.push_built(i as u32 | CHANGED, section, &built);
                return;
            }
        }
        // A body left out: the definition's Export becomes an Import.
        if op == Op::Decorate as u32
            && w.len() >= 4
            && w[2] == LINKAGE
            && declared.contains(&w[1])
            && w.last() == Some(&(LinkageType::Export as u32))
        {
            let mut import = w.to_vec();
            if let Some(last) = import.last_mut() {
                *last = LinkageType::Import as u32;
            }
            image.push_built(i as u32 | CHANGED, section, &import);
            return;
        }
        image.push_module(i as u32, section);
    }
}

/// The instruction indices of two ascending lists, in one ascending order.
fn merged<'a>(a: &'a [u32], b: &'a [u32]) -> impl Iterator<Item = u32> + 'a {
    let (mut a, mut b) = (a.iter().copied().peekable(), b.iter().copied().peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(&x), Some(&y)) if y < x => b.next(),
        (Some(_), _) => a.next(),
        (None, _) => b.next(),
    })
}

/// The words per target of a group decoration (`OpGroupDecorate`: an id;
/// `OpGroupMemberDecorate`: an id and a member), `None` for any other opcode.
fn group_decoration_step(op: u32) -> Option<usize> {
    match op {
        _ if op == Op::GroupDecorate as u32 => Some(1),
        _ if op == Op::GroupMemberDecorate as u32 => Some(2),
        _ => None,
    }
}

/// What the worklist reached for one image (instruction indices and function numbers of the
/// module, in no particular order but `globals`, which is sorted).
struct Reached {
    /// The kept instructions before the functions, sorted, without repeats.
    globals: Vec<u32>,
    /// Functions kept whole (declarations of the module included).
    functions: Vec<usize>,
    /// Function definitions written as declarations.
    declared: Vec<usize>,
}

/// One instruction of an image.
struct Piece {
    /// See `origin` of [`Extracted::Assembled`].
    origin: u32,
    /// The module's instruction it is (`built` false), or where its words start in
    /// [`ImageSlots::scratch`] (`built` true).
    source: u32,
    /// Its word count (an instruction's word count is the high half of its first word, so it
    /// fits in 16 bits), read once when the piece is made. The piece is 12 bytes: an image of
    /// a big module holds one per instruction, beside the module's own tables.
    len: u16,
    built: bool,
    section: Section,
}

const _: () = assert!(std::mem::size_of::<Piece>() == 12);

/// The instructions of one image, in module order, for [`assemble_placing`].
struct ImageSlots<'a> {
    module: &'a Module,
    pieces: Vec<Piece>,
    /// The words of the instructions built for the image.
    scratch: Vec<u32>,
}

impl ImageSlots<'_> {
    /// The module's instruction `i` as it is (nothing if it was removed).
    fn push_module(&mut self, i: u32, section: Section) {
        let Some(w) = self.module.inst(i as usize) else {
            return;
        };
        self.pieces.push(Piece {
            origin: i,
            source: i,
            len: w.len() as u16,
            built: false,
            section,
        });
    }

    /// An instruction built for the image.
    fn push_built(&mut self, origin: u32, section: Section, words: &[u32]) {
        let start = self.scratch.len() as u32;
        self.scratch.extend_from_slice(words);
        self.pieces.push(Piece {
            origin,
            source: start,
            len: words.len() as u16,
            built: true,
            section,
        });
    }

    /// A function written as a declaration: its `OpFunction` and parameters, then an
    /// `OpFunctionEnd` (whose origin is the function's).
    fn push_declaration(&mut self, range: std::ops::RangeInclusive<usize>) {
        let end = *range.end() as u32;
        for i in range {
            let Some(w) = self.module.inst(i) else {
                continue;
            };
            let op = inst::opcode(w);
            if op == Op::Function as u32 || op == Op::FunctionParameter as u32 {
                self.push_module(i as u32, Section::Function);
            } else {
                break;
            }
        }
        self.push_built(end, Section::Function, &inst::build(Op::FunctionEnd, &[]));
    }
}

impl Slots for ImageSlots<'_> {
    fn len(&self) -> usize {
        self.pieces.len()
    }
    #[inline]
    fn words(&self, n: usize) -> &[u32] {
        let Some(p) = self.pieces.get(n) else {
            return &[];
        };
        if p.built {
            let start = p.source as usize;
            self.scratch
                .get(start..start + p.len as usize)
                .unwrap_or(&[])
        } else {
            self.module.inst(p.source as usize).unwrap_or(&[])
        }
    }
    #[inline]
    fn section(&self, n: usize) -> Section {
        self.pieces.get(n).map_or(Section::Function, |p| p.section)
    }
    #[inline]
    fn word_count(&self, n: usize) -> usize {
        self.pieces.get(n).map_or(0, |p| p.len as usize)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::testing::TestResult;
    use crate::module::index::Index;
    use crate::split::graph::ModuleGraph;
    use crate::split::group;

    /// The modules under testdata/ that index (the bad inputs left out), up to 256 KiB.
    fn testdata_modules() -> TestResult<Vec<(std::path::PathBuf, Module)>> {
        let pattern = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/**/*.spv");
        Ok(glob::glob(pattern)?
            .filter_map(|p| {
                let p = p.ok()?;
                if std::fs::metadata(&p).ok()?.len() > 256 << 10 {
                    return None;
                }
                let module = Module::from_bytes(&std::fs::read(&p).ok()?).ok()?;
                Index::build(&module).ok()?;
                Some((p, module))
            })
            .collect())
    }

    /// Whether the last image of `module`'s every entry point, and of all but its last one, is
    /// taken whole exactly when the image assembled from the same plan is the module's own
    /// words; `(whole, assembled)`: how many of the two were taken whole and how many not.
    fn whole_exactly_when_the_module(module: &Module) -> TestResult<(usize, usize)> {
        let index = Index::build(module)?;
        let graph = ModuleGraph::build(module, &index);
        let entries = group::entries(module, &index, &graph, true, &|_| 0);
        let ids: Vec<u32> = entries.iter().map(|e| e.id).collect();
        let mut extractor = Extractor::new(module, &index, &graph);
        let mut extract = |entries: &[u32], last: bool| {
            extractor.extract(&ImagePlan {
                entries,
                extra: &[],
                declared: &|_| false,
                last,
            })
        };
        let (mut whole, mut assembled) = (0, 0);
        for plan in [&ids[..], &ids[..ids.len().saturating_sub(1)]] {
            let Extracted::Assembled { words, .. } = extract(plan, false) else {
                return Err("an image before the last taken whole".into());
            };
            let is_module = words == module.original_words();
            let taken_whole = matches!(extract(plan, true), Extracted::Whole);
            if taken_whole != is_module {
                return Err(format!(
                    "{} entry points: taken whole {taken_whole}, the module's words {is_module}",
                    plan.len()
                )
                .into());
            }
            match taken_whole {
                true => whole += 1,
                false => assembled += 1,
            }
        }
        Ok((whole, assembled))
    }

    /// [`whole_exactly_when_the_module`] on every testdata module.
    #[test]
    fn an_image_is_taken_whole_exactly_when_it_would_be_the_module() -> TestResult {
        let (mut whole, mut assembled) = (0, 0);
        for (path, module) in testdata_modules()? {
            let (w, a) = whole_exactly_when_the_module(&module)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            (whole, assembled) = (whole + w, assembled + a);
        }
        // (Both ways are met: the check is not vacuous.)
        assert!(
            whole > 50 && assembled > 50,
            "{whole} whole, {assembled} assembled"
        );
        Ok(())
    }

    /// A module whose every instruction an image holds, but out of the logical layout (a name
    /// after a type; a declaration after a definition), is not taken whole: its image is in the
    /// layout.
    #[test]
    fn an_image_out_of_the_layout_is_assembled() -> TestResult {
        let kernel = "OpEntryPoint Kernel %k \"k\"\n";
        let void = "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n";
        let body = "%k = OpFunction %void None %fn\n%l = OpLabel\n\
                    %c = OpFunctionCall %void %d\nOpReturn\nOpFunctionEnd\n";
        let mode = "OpExecutionMode %k ContractionOff\n";
        let declaration = "OpDecorate %d LinkageAttributes \"d\" Import\n";
        let declared = "%d = OpFunction %void None %fn\nOpFunctionEnd\n";
        for (text, in_layout) in [
            (
                format!("{kernel}OpName %k \"k\"\n{declaration}{void}{declared}{body}"),
                true,
            ),
            (
                format!("{kernel}{declaration}{void}OpName %k \"k\"\n{declared}{body}"),
                false,
            ),
            (format!("{kernel}{declaration}{void}{declared}{body}"), true),
            (
                format!("{kernel}{mode}{declaration}{void}{declared}{body}"),
                true,
            ),
            (
                format!("{kernel}{declaration}{void}{mode}{declared}{body}"),
                false,
            ),
            (
                format!("{kernel}{declaration}{void}{body}{declared}"),
                false,
            ),
        ] {
            let module = crate::link::testing::assemble(&text)?;
            let (whole, _) =
                whole_exactly_when_the_module(&module).map_err(|e| format!("{text}: {e}"))?;
            // (Of the image of its one kernel and the image of none, the first is whole.)
            assert_eq!(whole, in_layout as usize, "{text}");
        }
        Ok(())
    }
}
