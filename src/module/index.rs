//! What the passes look up, recorded by walking the instruction stream: where the sections end,
//! which instruction defines each id, names and linkage, functions and their parameters, calls,
//! entry points, the SpecIds the input already uses, and the names and decorations (as runs of
//! instructions: [`Index::remove_annotations_of`] handles a whole set of ids in one pass).
//!
//! Algorithm: three passes, `check_ids` (the id checks, [`IdCheck`]), `scan_defs` (definitions,
//! the runs of annotations) and `scan_rest` (everything else); on modules of at least 200,000
//! instructions the id checks run on one thread and the two others, one after the other, on a
//! second, which then takes what is left of the id checks from the back (the id checks decode
//! every operand: they take longer than the two others together). When several find an error,
//! the first in instruction order is reported (an id check's first at one instruction; an id
//! never defined, at its first use, only when neither the id checks nor `scan_defs` found
//! anything else). On a module that gives its input back ([`Module::release_input`]: a small
//! one), `scan_defs` goes along `scan_rest`'s walk, and each walk gives back the pages behind
//! itself (a page another walk still needs is mapped again by it).
//!
//! Precondition: a [`Module`] (instruction boundaries already checked).
//! Postcondition: every recorded instruction index is < `module.len()`; ids defined twice are
//! an error.

use super::idcheck::IdCheck;
use super::idhash::{IdBits, IdMap, IdSet};
use super::{inst, Module};
use crate::error::{Error, Result};
use spirv::{Decoration, Op};
use std::collections::BTreeSet;

/// A function of the module: `OpFunction` … `OpFunctionEnd`.
#[derive(Clone, Debug)]
pub struct Function {
    /// Result id of the `OpFunction`.
    pub id: u32,
    /// `OpTypeFunction` id.
    pub fn_type: u32,
    /// Index of the `OpFunction` instruction.
    pub start: usize,
    /// Index of the `OpFunctionEnd` instruction.
    pub end: usize,
    /// Parameter ids, in order.
    pub params: Vec<u32>,
    /// No body (no `OpLabel`): an import or a declaration.
    pub is_declaration: bool,
}

/// An `OpFunctionCall` (recorded by the index so that no pass scans every function for calls).
#[derive(Clone, Copy, Debug)]
pub struct Call {
    /// Instruction index of the call.
    pub inst: u32,
    /// The called function's id.
    pub callee: u32,
    /// Index (in [`Index::functions`]) of the function containing the call.
    pub function: u32,
}

/// Linkage of a symbol, from `OpDecorate … LinkageAttributes`.
#[derive(Clone, Debug)]
pub struct Linkage {
    pub name: Vec<u8>,
    /// 0 = Export, 1 = Import, 2 = LinkOnceODR.
    pub kind: u32,
    /// The decoration instruction.
    pub inst: usize,
}

/// Which instruction defines each id: a table indexed by id when the bound is small relative to
/// the module (the normal case), a hash map otherwise (a hostile bound never sizes an allocation).
#[derive(Default)]
pub struct Defs {
    dense: Vec<u32>,
    sparse: IdMap<u32, u32>,
}

/// Writes one word of each page of fresh zeroed memory, so that its pages are mapped writable
/// at once. A zeroed allocation read before it is written maps the shared zero page first; the
/// write after it then replaces that page and flushes every core's TLB (an interrupt to each
/// core running this process), which cost ~10% of indexing a 100 MB module (perf:
/// `do_wp_page` under `scan_defs`).
pub(crate) fn touch_for_writing(words: &mut [u32]) {
    for page in words.chunks_mut(1024) {
        // (Volatile: a store of zero to zeroed memory is otherwise elided.)
        // SAFETY: `page` is a valid, aligned, non-empty slice of initialised u32s.
        unsafe { std::ptr::write_volatile(page.as_mut_ptr(), 0) };
    }
}

impl Defs {
    /// A table for a module of `module_words` words whose ids are below `bound`: indexed by id
    /// when the bound is small next to the module, or `trusted` ([`Module::trust_bound`]); a
    /// hash map otherwise.
    pub(crate) fn with_bound(bound: u32, module_words: usize, trusted: bool) -> Self {
        let dense = if (bound as usize) <= module_words / 2 + 64 {
            // Nearly every slot gets written (the module's own ids): map the pages now.
            let mut dense = vec![0; bound as usize];
            touch_for_writing(&mut dense);
            dense
        } else if trusted {
            // (A split image: its few ids among its source's; only their pages are touched.)
            vec![0; bound as usize]
        } else {
            Vec::new()
        };
        Defs {
            dense,
            sparse: IdMap::default(),
        }
    }

    /// Whether the table is indexed by id.
    pub(crate) fn is_dense(&self) -> bool {
        !self.dense.is_empty()
    }

    /// Records `id` as defined by instruction `i`; false if it was already defined.
    pub(crate) fn insert(&mut self, id: u32, i: usize) -> bool {
        match self.dense.get_mut(id as usize) {
            Some(slot) if *slot == 0 => {
                *slot = i as u32 + 1;
                true
            }
            Some(_) => false,
            None => self.sparse.insert(id, i as u32).is_none(),
        }
    }

    /// The instruction defining `id`.
    #[inline]
    pub fn get(&self, id: &u32) -> Option<usize> {
        match self.dense.get(*id as usize) {
            Some(&i) if i != 0 => Some(i as usize - 1),
            Some(_) => None,
            None => self.sparse.get(id).map(|&i| i as usize),
        }
    }
}

/// The index of a module.
#[derive(Default)]
pub struct Index {
    /// Instruction index defining each id.
    pub defs: Defs,
    /// First `OpName` of each function and type.
    pub names: IdMap<u32, Vec<u8>>,
    pub linkage: IdMap<u32, Linkage>,
    pub functions: Vec<Function>,
    /// Function index by function id.
    pub function_by_id: IdMap<u32, usize>,
    pub entry_points: Vec<usize>,
    /// SpecId decoration values present in the input.
    pub spec_ids: BTreeSet<u32>,
    /// Every `OpFunctionCall` inside a function, in order.
    pub calls: Vec<Call>,
    /// Index of the first instruction after the debug-name section (where new names go).
    pub names_end: usize,
    /// Index of the first instruction after the annotation section (where new decorations go).
    pub annotation_end: usize,
    /// Index of the first `OpFunction` (or `len()`): the end of the global section.
    pub globals_end: usize,
    /// Addressing model operand of `OpMemoryModel` (0 Logical, 1 Physical32, 2 Physical64, …).
    pub addressing_model: Option<u32>,
    /// Capabilities declared, with the instruction index of each.
    pub capabilities: Vec<(u32, usize)>,
    /// Entry-point name of each entry-point function.
    pub entry_names: IdMap<u32, Vec<u8>>,
    /// Extended instruction sets imported, by result id.
    pub ext_sets: IdMap<u32, inst::ExtSet>,
    /// The imports of debug-information sets ([`inst::is_debug_info_set`]): their instructions
    /// use nothing in LLVM's sense (debug metadata is no use).
    pub debug_sets: IdSet<u32>,
    /// The module imports a set of source debug information
    /// ([`inst::is_source_debug_info_set`]): it was compiled with `-g`.
    pub source_debug_information: bool,
    /// Every instruction that names or decorates an id (debug names, annotations), in order, as
    /// runs `start..end` of consecutive instructions (a handful in a valid module, where they
    /// form two sections; see [`Index::remove_annotations_of`]).
    annotations: Runs,
    /// Ids decorated `CPacked`.
    pub packed: IdSet<u32>,
}

/// Preamble, debug and annotation opcodes (sections 1–9 of the logical layout).
fn is_preamble_or_annotation(op: u32) -> bool {
    // Capability 17, Extension 10, ExtInstImport 11, MemoryModel 14, EntryPoint 15,
    // ExecutionMode 16, ExecutionModeId 331, String 7, SourceExtension 4, Source 3,
    // SourceContinued 2, Name 5, MemberName 6, ModuleProcessed 330.
    matches!(op, 2..=7 | 10 | 11 | 14..=17 | 330 | 331) || is_annotation(op)
}

/// Annotation opcodes: Decorate 71, MemberDecorate 72, DecorationGroup 73, GroupDecorate 74,
/// GroupMemberDecorate 75, DecorateId 332, DecorateString 5632, MemberDecorateString 5633.
fn is_annotation(op: u32) -> bool {
    matches!(op, 71..=75 | 332 | 5632 | 5633)
}

// Opcodes the index dispatches on (matched as numbers: this runs for every instruction).
const OP_CAPABILITY: u32 = Op::Capability as u32;
const OP_EXT_INST_IMPORT: u32 = Op::ExtInstImport as u32;
const OP_MEMORY_MODEL: u32 = Op::MemoryModel as u32;
const OP_ENTRY_POINT: u32 = Op::EntryPoint as u32;
const OP_NAME: u32 = Op::Name as u32;
const OP_MEMBER_NAME: u32 = Op::MemberName as u32;
const OP_MEMBER_DECORATE: u32 = Op::MemberDecorate as u32;
const OP_MEMBER_DECORATE_STRING: u32 = Op::MemberDecorateString as u32;
const OP_DECORATE_ID: u32 = Op::DecorateId as u32;
const OP_DECORATE_STRING: u32 = Op::DecorateString as u32;
const OP_DECORATE: u32 = Op::Decorate as u32;
const OP_FUNCTION: u32 = Op::Function as u32;
const OP_FUNCTION_PARAMETER: u32 = Op::FunctionParameter as u32;
const OP_LABEL: u32 = Op::Label as u32;
const OP_FUNCTION_CALL: u32 = Op::FunctionCall as u32;
const OP_FUNCTION_END: u32 = Op::FunctionEnd as u32;

fn malformed(module: &Module, i: usize, message: impl Into<String>) -> Error {
    Error::Malformed {
        offset: module.offset_of(i),
        opcode: inst::op_name(module.opcode(i)),
        message: message.into(),
    }
}

/// Modules with at least this many instructions are indexed on two threads.
const PARALLEL_INDEX_MIN: usize = 200_000;

/// `OpFunction` or a type declaration: the ids whose names the index keeps (for messages and
/// marker matching).
fn is_function_or_type(op: u32) -> bool {
    op == Op::Function as u32 || (Op::TypeVoid as u32..=Op::TypeForwardPointer as u32).contains(&op)
}

/// Instructions between [`scan_rest`]'s looks at what it can give back behind itself.
const RELEASE_EVERY: usize = 1 << 12;

/// The definitions and everything else ([`scan_defs`], [`scan_rest`]): in one
/// walk when the module gives its input back (its pages can then go behind that walk: two walks
/// kept it all resident while the index's tables were built, 2.2 times an 8.5 MB module), else
/// in two (two smaller loops: at 100 MB they took 38–42 ms, one walk doing both 44–54 ms).
fn scan_defs_and_rest(module: &Module) -> DefsAndRest {
    if !module.releases_input() {
        let defs = scan_defs(module);
        return (defs, scan_rest(module, &mut ()));
    }
    let mut along = DefsAlong::new(module);
    let mut rest = scan_rest(module, &mut along);
    match &mut rest {
        Ok((_, scan)) => {
            scan.functions_and_types = Some(std::mem::take(&mut along.functions_and_types));
        }
        Err((i, _)) => {
            // (It stopped at its error: the definitions go on, as in a walk of their own.)
            for (i, w) in instructions_in(module, (*i + 1).min(module.len())..module.len()) {
                along.step(module, i, w);
            }
        }
    }
    (along.finish(), rest)
}

/// What a pass of the index found, or its first error (at the instruction it names).
type Scanned<T> = std::result::Result<T, (usize, Error)>;

/// What [`scan_defs`] and [`scan_rest`] found.
type DefsAndRest = (Scanned<(Defs, Runs)>, Scanned<(Index, Scan)>);

/// The word offset of instruction `i` (the module's end for `len()`).
fn word_of(module: &Module, i: usize) -> usize {
    if i < module.len() {
        module.offset_of(i)
    } else {
        module.word_count()
    }
}

/// What [`scan_rest`] gathers besides the [`Index`] fields.
struct Scan {
    /// (target, instruction) of each OpName.
    name_insts: Vec<(u32, u32)>,
    /// The ids defined as functions or types, when the definitions went along the walk
    /// ([`DefsAlong`]).
    functions_and_types: Option<IdBits>,
    last_preamble: Option<usize>,
    last_before_annotations: Option<usize>,
}

/// Runs `start..end` of instruction indices.
type Runs = Vec<(u32, u32)>;

/// Each instruction of `module` with its index, as it is now (removed ones left out); read without
/// the edit lookups when nothing was edited (the index is normally built on an unedited module).
fn instructions_of(module: &Module) -> impl Iterator<Item = (usize, &[u32])> {
    instructions_in(module, 0..module.len())
}

/// [`instructions_of`] for the instructions `range` (within the module).
fn instructions_in(
    module: &Module,
    range: std::ops::Range<usize>,
) -> impl Iterator<Item = (usize, &[u32])> {
    let unedited = !module.has_edits();
    range.filter_map(move |i| {
        if unedited {
            Some((i, module.original(i)))
        } else {
            module.inst(i).map(|w| (i, w))
        }
    })
}

/// The id checks ([`IdCheck`]): `Err((i, e))` for the first error found at instruction `i` (the
/// walk stops there); `Ok(Err(..))` when every instruction passes but an id used is never
/// defined ([`IdCheck::finish`]), which a single pass reports only after the others found
/// nothing.
type IdChecks = std::result::Result<std::result::Result<(), (usize, Error)>, (usize, Error)>;

fn check_ids(module: &Module) -> IdChecks {
    let mut ids = check_from_start(module);
    for (i, w) in instructions_of(module) {
        ids.inst(w, module.offset_of(i)).map_err(|e| (i, e))?;
    }
    Ok(ids.finish().map_err(|(offset, e)| {
        (
            module.inst_at_offset(offset),
            noting_unknown_opcode(module, e),
        )
    }))
}

/// `e` (an id used but never defined) with the first instruction of `module` whose opcode
/// spec-link does not know, when there is one: its result, if it has one, is not seen.
fn noting_unknown_opcode(module: &Module, e: Error) -> Error {
    let unknown = instructions_of(module).find_map(|(i, w)| {
        let op = inst::opcode(w);
        inst::result_info(op).is_none().then_some((i, op))
    });
    match (unknown, e) {
        (
            Some((i, op)),
            Error::Malformed {
                offset,
                opcode,
                message,
            },
        ) => Error::Malformed {
            offset,
            opcode,
            message: format!(
                "{message} (the module holds opcode {op}, at word {}, which spec-link does not \
                 know: an instruction of it may be the definition)",
                module.offset_of(i)
            ),
        },
        (_, e) => e,
    }
}

/// Instructions per chunk of the id checks shared by the index's two threads.
const CHECK_CHUNK: usize = 1 << 14;

/// The chunks of the id checks not taken yet: `front..back` (chunk `c` is the instructions
/// `c * CHECK_CHUNK..`). The first thread takes them from the front; the second, done with
/// its own passes, from the back.
type Claims = std::sync::Mutex<(usize, usize)>;

/// The instructions of chunk `c` of `module`.
fn chunk_range(module: &Module, c: usize) -> (usize, usize) {
    let start = c.saturating_mul(CHECK_CHUNK).min(module.len());
    (start, start.saturating_add(CHECK_CHUNK).min(module.len()))
}

/// Checks chunk `c` of `module` with `ids`: false at the first error.
fn check_chunk(ids: &mut IdCheck, module: &Module, c: usize) -> bool {
    let (start, end) = chunk_range(module, c);
    instructions_in(module, start..end).all(|(i, w)| ids.inst(w, module.offset_of(i)).is_ok())
}

/// A check from the first instruction of `module`.
fn check_from_start(module: &Module) -> IdCheck {
    let mut ids = IdCheck::new(module.bound(), module.generator());
    if module.bound_is_trusted() {
        ids.allow_dense_to_bound();
    }
    ids
}

/// The id checks of the chunks taken from the front, in order, from the first instruction:
/// `None` at the first error.
fn check_front(module: &Module, claims: &Claims) -> Option<IdCheck> {
    // (Where an id is used before its definition is for the check of the whole to say, when
    // the shared checks do not join.)
    let mut ids = check_from_start(module).without_positions();
    // (Each pass gives back the pages behind itself, when the module gives its input back: one
    // that comes after another maps them again, which costs less than keeping them.)
    let mut behind = super::ReleaseBehind::default();
    loop {
        let c = {
            let mut claims = claims.lock().ok()?;
            if claims.0 >= claims.1 {
                return Some(ids);
            }
            claims.0 += 1;
            claims.0 - 1
        };
        if !check_chunk(&mut ids, module, c) {
            return None;
        }
        behind.passed(module, word_of(module, chunk_range(module, c).1));
    }
}

/// The id checks of the chunks taken from the back, last chunk first (after `scan_defs` and
/// `scan_rest`, whose `defs` and `ext_sets` it reads): `None` at the first error. A chunk is
/// taken only when every extended instruction set is imported before it, so that it decodes
/// `OpExtInst`s as a walk from the start would.
fn check_back(
    module: &Module,
    claims: &Claims,
    defs: &Defs,
    ext_sets: &IdMap<u32, inst::ExtSet>,
) -> Option<IdCheck> {
    let last_import = ext_sets
        .keys()
        .map(|id| defs.get(id).map_or(usize::MAX, |i| i + 1))
        .max()
        .unwrap_or(0);
    let mut ids = IdCheck::continuing(module.bound(), module.generator(), ext_sets.clone());
    // (Its sets at their full size at once when the definitions table is: the bound is sane.
    // Grown by doubling from the back's first ids, they left spare copies behind.)
    if module.bound_is_trusted() || defs.is_dense() {
        ids.allow_dense_to_bound();
    }
    loop {
        let c = {
            let mut claims = claims.lock().ok()?;
            let c = claims.1.checked_sub(1)?;
            if c < claims.0 || c.saturating_mul(CHECK_CHUNK) < last_import {
                return Some(ids);
            }
            claims.1 = c;
            c
        };
        if !check_chunk(&mut ids, module, c) {
            return None;
        }
        // (The first thread never comes here, and this thread's scan is done: its pages go.)
        let (start, end) = chunk_range(module, c);
        if start < end {
            module.release_input(module.offset_of(start)..word_of(module, end) & !1023);
        }
    }
}

/// Which instruction defines each id (ids defined twice, above the bound or missing are errors,
/// with the instruction index they were found at), and the runs of instructions that name or
/// decorate.
fn scan_defs(module: &Module) -> Scanned<(Defs, Runs)> {
    let mut defs = new_defs(module);
    let mut annotations: Runs = Vec::new();
    for (i, w) in instructions_of(module) {
        define(module, &mut defs, &mut annotations, i, w)?;
    }
    Ok((defs, annotations))
}

/// The definitions table of `module`, empty.
fn new_defs(module: &Module) -> Defs {
    Defs::with_bound(
        module.bound(),
        module.word_count(),
        module.bound_is_trusted(),
    )
}

/// [`scan_defs`]'s work on instruction `i`, `w` (after every one before it).
#[inline(always)]
fn define(
    module: &Module,
    defs: &mut Defs,
    annotations: &mut Runs,
    i: usize,
    w: &[u32],
) -> Scanned<()> {
    let op = inst::opcode(w);
    if let Some(id) = inst::result_id(w) {
        if !defs.insert(id, i) {
            return Err((
                i,
                malformed(module, i, format!("id %{id} is defined twice")),
            ));
        }
        if id >= module.bound() {
            return Err((
                i,
                malformed(
                    module,
                    i,
                    format!(
                        "id %{id} is not below the module's id bound {}",
                        module.bound()
                    ),
                ),
            ));
        }
    } else if inst::result_info(op).is_some_and(|(t, r)| r && w.len() < 2 + t as usize) {
        return Err((i, malformed(module, i, "missing result id")));
    }
    if matches!(
        op,
        OP_NAME
            | OP_MEMBER_NAME
            | OP_DECORATE
            | OP_MEMBER_DECORATE
            | OP_DECORATE_ID
            | OP_DECORATE_STRING
            | OP_MEMBER_DECORATE_STRING
    ) {
        let i = i as u32;
        match annotations.last_mut() {
            Some((_, end)) if *end == i => *end = i + 1,
            _ => annotations.push((i, i + 1)),
        }
    }
    Ok(())
}

/// What [`scan_rest`] takes along its walk, an instruction at a time: nothing, or the
/// definitions ([`DefsAlong`]).
trait Along {
    fn step(&mut self, module: &Module, i: usize, w: &[u32]);
}

impl Along for () {
    #[inline(always)]
    fn step(&mut self, _: &Module, _: usize, _: &[u32]) {}
}

/// [`scan_defs`] along [`scan_rest`]'s walk (one walk for both, behind which the input's pages
/// can go), and the ids defined as functions or types (whose names the index keeps: told
/// without reading their definitions again, when the input's pages are given back).
struct DefsAlong {
    defs: Defs,
    annotations: Runs,
    functions_and_types: IdBits,
    /// The first error; nothing is looked at after it.
    error: Option<(usize, Error)>,
}

impl DefsAlong {
    fn new(module: &Module) -> Self {
        DefsAlong {
            defs: new_defs(module),
            annotations: Vec::new(),
            functions_and_types: IdBits::new(module.bound(), module.word_count()),
            error: None,
        }
    }

    fn finish(self) -> Scanned<(Defs, Runs)> {
        match self.error {
            Some(e) => Err(e),
            None => Ok((self.defs, self.annotations)),
        }
    }
}

impl Along for DefsAlong {
    #[inline(always)]
    fn step(&mut self, module: &Module, i: usize, w: &[u32]) {
        if self.error.is_some() {
            return;
        }
        if let Err(e) = define(module, &mut self.defs, &mut self.annotations, i, w) {
            self.error = Some(e);
            return;
        }
        if is_function_or_type(inst::opcode(w)) {
            if let Some(id) = inst::result_id(w) {
                self.functions_and_types.insert(id);
            }
        }
    }
}

/// The error of the id checks and `scan_defs` together, as one pass doing both in order would
/// report it: the first in instruction order, the id checks' first at one instruction; an id
/// never defined (at the instruction of its first use) only when that pass found nothing else.
fn first_of(
    ids: IdChecks,
    defs: std::result::Result<(Defs, Runs), (usize, Error)>,
) -> std::result::Result<(Defs, Runs), (usize, Error)> {
    match (ids, defs) {
        (Err((a, e)), Err((b, f))) => Err(if a <= b { (a, e) } else { (b, f) }),
        (Err(e), Ok(_)) | (Ok(_), Err(e)) | (Ok(Err(e)), Ok(_)) => Err(e),
        (Ok(Ok(())), Ok(d)) => Ok(d),
    }
}

/// Everything else of the index, in one pass.
/// `along`: what it takes along its walk (the definitions, on a module that gives its input back).
/// The input's pages go behind the walk (when the module gives its input back: another walk
/// that still needs them maps them again).
fn scan_rest(module: &Module, along: &mut impl Along) -> Scanned<(Index, Scan)> {
    let mut behind = super::ReleaseBehind::default();
    let mut ix = Index {
        globals_end: module.len(),
        ..Default::default()
    };
    let mut last_preamble: Option<usize> = None;
    let mut last_before_annotations: Option<usize> = None;
    let mut seen_annotation = false;
    let mut current: Option<Function> = None;
    // (target, instruction) of each OpName.
    let mut name_insts: Vec<(u32, u32)> = Vec::new();
    for (i, w) in instructions_of(module) {
        if i % RELEASE_EVERY == 0 {
            behind.passed(module, module.offset_of(i));
        }
        along.step(module, i, w);
        let op = inst::opcode(w);
        let need = |n: usize| -> std::result::Result<(), (usize, Error)> {
            if w.len() < n {
                Err((
                    i,
                    malformed(
                        module,
                        i,
                        format!("expected at least {n} words, found {}", w.len()),
                    ),
                ))
            } else {
                Ok(())
            }
        };
        if ix.globals_end == module.len() && is_preamble_or_annotation(op) {
            last_preamble = Some(i);
            if is_annotation(op) || op == Op::ModuleProcessed as u32 {
                // Names go before OpModuleProcessed (debug subsection 7c) and annotations.
                seen_annotation = true;
            } else if !seen_annotation {
                last_before_annotations = Some(i);
            }
        }
        match op {
            OP_CAPABILITY => {
                need(2)?;
                ix.capabilities.push((w[1], i));
            }
            OP_EXT_INST_IMPORT => {
                need(3)?;
                let (name, _) = inst::read_string(&w[2..])
                    .ok_or_else(|| (i, malformed(module, i, "unterminated string")))?;
                ix.ext_sets
                    .insert(w[1], inst::ext_set(&name, module.generator()));
                if inst::is_debug_info_set(&name) {
                    ix.debug_sets.insert(w[1]);
                }
                if inst::is_source_debug_info_set(&name) {
                    ix.source_debug_information = true;
                }
            }
            OP_MEMORY_MODEL => {
                need(3)?;
                ix.addressing_model = Some(w[1]);
            }
            OP_ENTRY_POINT => {
                need(4)?;
                ix.entry_points.push(i);
                if let Some((name, _)) = inst::read_string(&w[3..]) {
                    ix.entry_names.entry(w[2]).or_insert(name);
                }
            }
            OP_NAME => {
                need(3)?;
                if !w[2..].iter().any(|x| x.to_le_bytes().contains(&0)) {
                    return Err((i, malformed(module, i, "unterminated string")));
                }
                name_insts.push((w[1], i as u32));
            }
            OP_MEMBER_NAME
            | OP_MEMBER_DECORATE
            | OP_MEMBER_DECORATE_STRING
            | OP_DECORATE_ID
            | OP_DECORATE_STRING => {
                need(2)?;
            }
            OP_DECORATE => {
                need(3)?;
                if w[2] == Decoration::CPacked as u32 {
                    ix.packed.insert(w[1]);
                }
                if w[2] == Decoration::SpecId as u32 {
                    need(4)?;
                    ix.spec_ids.insert(w[3]);
                } else if w[2] == Decoration::LinkageAttributes as u32 {
                    let (name, n) = inst::read_string(&w[3..])
                        .ok_or_else(|| (i, malformed(module, i, "unterminated linkage name")))?;
                    let kind = *w
                        .get(3 + n)
                        .ok_or_else(|| (i, malformed(module, i, "missing linkage type")))?;
                    ix.linkage.insert(
                        w[1],
                        Linkage {
                            name,
                            kind,
                            inst: i,
                        },
                    );
                }
            }
            OP_FUNCTION => {
                need(5)?;
                if current.is_some() {
                    return Err((i, malformed(module, i, "OpFunction inside a function")));
                }
                if ix.globals_end == module.len() {
                    ix.globals_end = i;
                }
                current = Some(Function {
                    id: w[2],
                    fn_type: w[4],
                    start: i,
                    end: i,
                    params: Vec::new(),
                    is_declaration: true,
                });
            }
            OP_FUNCTION_PARAMETER => {
                need(3)?;
                match current.as_mut() {
                    Some(f) if f.is_declaration => f.params.push(w[2]),
                    _ => {
                        return Err((
                            i,
                            malformed(module, i, "parameter outside a function header"),
                        ))
                    }
                }
            }
            OP_LABEL => match current.as_mut() {
                Some(f) => f.is_declaration = false,
                None => return Err((i, malformed(module, i, "OpLabel outside a function"))),
            },
            OP_FUNCTION_CALL if current.is_some() && w.len() >= 4 => {
                ix.calls.push(Call {
                    inst: i as u32,
                    callee: w[3],
                    function: ix.functions.len() as u32,
                });
            }
            OP_FUNCTION_END => {
                let Some(mut f) = current.take() else {
                    return Err((i, malformed(module, i, "OpFunctionEnd without OpFunction")));
                };
                f.end = i;
                ix.function_by_id.insert(f.id, ix.functions.len());
                ix.functions.push(f);
            }
            _ => {}
        }
    }
    behind.passed(module, module.word_count());
    if current.is_some() {
        return Err((
            module.len(),
            Error::Binary("malformed module: the last function has no OpFunctionEnd".into()),
        ));
    }
    Ok((
        ix,
        Scan {
            name_insts,
            functions_and_types: None,
            last_preamble,
            last_before_annotations,
        },
    ))
}

impl Index {
    /// Builds the index of `module`.
    pub fn build(module: &Module) -> Result<Index> {
        Self::build_on(module, module.len() >= PARALLEL_INDEX_MIN)
    }

    /// [`Index::build`] of a module spec-link assembled from the instructions of a module it
    /// indexed (a split image), without the id checks: its ids are that module's, checked when
    /// it was indexed, and it defines every id it uses (the split's closure; the split tests pass
    /// every image through `spirv-val`). The id checks were 12% of a per-kernel split's
    /// instructions (callgrind, 304 images of a 10 MB real-shaped module).
    pub fn build_assembled(module: &Module) -> Result<Index> {
        Self::build_checking(module, false, false)
    }

    /// [`Index::build`], on two threads or one.
    fn build_on(module: &Module, two_threads: bool) -> Result<Index> {
        Self::build_checking(module, two_threads, true)
    }

    /// [`Index::build_on`], with the id checks or without.
    fn build_checking(module: &Module, two_threads: bool, check: bool) -> Result<Index> {
        // Three passes over the instructions: the id checks, which instruction defines each id,
        // and everything else. On big modules they run on two threads: the id checks on the
        // first, the other two on the second, which then takes its share of the id checks from
        // the back (the id checks take about as long as the two others together; how much
        // longer depends on the module). The first error in instruction order wins: a module
        // whose shared checks do not pass as one is checked again by one walk, which says
        // which error comes first. A module that gives its input back has it given back behind
        // each walk (see `scan_defs_and_rest`).
        let (ids, defs, rest) = if !check {
            let (defs, rest) = scan_defs_and_rest(module);
            (Ok(Ok(())), defs, rest)
        } else if two_threads {
            let chunks = module.len().div_ceil(CHECK_CHUNK);
            let claims: Claims = std::sync::Mutex::new((0, chunks));
            let (front, back, defs, rest) = std::thread::scope(|scope| {
                let front = scope.spawn(|| check_front(module, &claims));
                let (defs, rest) = scan_defs_and_rest(module);
                let back = match (&defs, &rest) {
                    (Ok((d, _)), Ok((ix, _))) => check_back(module, &claims, d, &ix.ext_sets),
                    _ => None,
                };
                (front.join(), back, defs, rest)
            });
            let front =
                front.map_err(|_| Error::PostCondition("the indexing thread failed".into()))?;
            let passed = match (front, back) {
                (Some(front), Some(back)) => front.joins(back),
                _ => false,
            };
            let ids = if passed {
                Ok(Ok(()))
            } else {
                check_ids(module)
            };
            (ids, defs, rest)
        } else {
            let ids = check_ids(module);
            let (defs, rest) = scan_defs_and_rest(module);
            (ids, defs, rest)
        };
        let defs = first_of(ids, defs);
        let (mut ix, scan) = match (defs, rest) {
            (Ok((d, a)), Ok((mut ix, scan))) => {
                ix.defs = d;
                ix.annotations = a;
                (ix, scan)
            }
            (Err((a, e)), Err((b, f))) => return Err(if a <= b { e } else { f }),
            (Err((_, e)), _) | (_, Err((_, e))) => return Err(e),
        };
        // Names are only read for functions and types (messages, marker matching): keep those,
        // the first of each.
        for (target, i) in scan.name_insts {
            let keep = match &scan.functions_and_types {
                Some(set) => set.contains(target),
                None => ix
                    .defs
                    .get(&target)
                    .is_some_and(|d| is_function_or_type(module.opcode(d))),
            };
            if !keep {
                continue;
            }
            if let std::collections::hash_map::Entry::Vacant(slot) = ix.names.entry(target) {
                if let Some((s, _)) = module
                    .inst(i as usize)
                    .and_then(|w| inst::read_string(&w[2..]))
                {
                    slot.insert(s);
                }
            }
        }
        ix.annotation_end = scan.last_preamble.map_or(0, |i| i + 1).min(ix.globals_end);
        ix.names_end = scan
            .last_before_annotations
            .map_or(0, |i| i + 1)
            .min(ix.annotation_end);
        Ok(ix)
    }

    /// Removes every name and decoration (`OpName`, `OpDecorate`, …) of the ids in `ids`: one
    /// pass over those instructions, for any number of ids.
    pub fn remove_annotations_of(&self, module: &mut Module, ids: &IdBits) {
        let instructions = self
            .annotations
            .iter()
            .flat_map(|&(s, e)| s as usize..e as usize);
        let mut behind = super::ReleaseBehind::default();
        for i in instructions {
            behind.passed(module, module.offset_of(i));
            if module
                .inst(i)
                .and_then(|w| w.get(1))
                .is_some_and(|&t| ids.contains(t))
            {
                module.remove(i);
            }
        }
    }

    /// Word positions of the ids `words` uses (see [`inst::id_use_positions`]), extended
    /// instructions decoded with the grammar of their set. `None` when undecodable.
    /// `OpSwitch` case labels are found through the selector's integer width (its definition
    /// as indexed, so also once lowering replaced it).
    pub fn id_use_positions(&self, module: &Module, words: &[u32]) -> Option<Vec<usize>> {
        let op = inst::opcode(words);
        if op == Op::ExtInst as u32 {
            let set = words
                .get(3)
                .map_or(inst::ExtSet::Unknown, |&s| self.ext_set_of(s));
            return inst::ext_inst_use_positions(words, set);
        }
        if op == Op::Switch as u32 {
            // The selector's definition as indexed: lowering may have replaced it (a marker
            // call whose value the switch selects on) but never changes its type.
            let selector = *words.get(1)?;
            let Some(def) = self.defs.get(&selector) else {
                // A selector spec-link made (the spec constant that replaced such a call, in
                // a switch lowering rewrote): its case labels are never ids spec-link rewrites
                // or removes, so selector and default label are all, as `inst` reads switches.
                let made = selector >= *module.original_words().get(3)?;
                return (made && words.len() >= 3).then(|| vec![1, 2]);
            };
            let selector_type = *module.original(def).get(1)?;
            let ty = module.original(self.defs.get(&selector_type)?);
            if !inst::is(ty, Op::TypeInt) {
                return None;
            }
            let width = (*ty.get(2)? as usize).div_ceil(32);
            let mut out = vec![1, 2];
            let mut p = 3 + width;
            while p < words.len() {
                out.push(p);
                p += width + 1;
            }
            return (p == words.len() + width).then_some(out);
        }
        inst::id_use_positions(words)
    }

    /// The layout of the extended instruction set imported as `set` (`Unknown` when `set` is
    /// not an `OpExtInstImport` of the module).
    #[inline]
    pub fn ext_set_of(&self, set: u32) -> inst::ExtSet {
        self.ext_sets
            .get(&set)
            .copied()
            .unwrap_or(inst::ExtSet::Unknown)
    }

    /// Calls `f` with the word position of every id `words` uses, as [`Index::id_use_positions`]
    /// finds them, when that needs no decoding (the fixed layouts of [`inst`], and extended
    /// instructions that take ids only); returns false, having called nothing, otherwise.
    #[inline]
    pub fn visit_use_positions_undecoded(&self, words: &[u32], mut f: impl FnMut(usize)) -> bool {
        let op = inst::opcode(words);
        if op == Op::ExtInst as u32 {
            return words.len() >= 5
                && inst::visit_ext_inst_id_positions(words, self.ext_set_of(words[3]), &mut f);
        }
        op != Op::Switch as u32 && inst::visit_fixed_use_positions(words, f)
    }

    /// Calls `f` with every id `words` uses (see [`Index::id_use_positions`]); when the
    /// instruction cannot be decoded, with every word after the opcode (conservative).
    #[inline]
    pub fn visit_use_ids(&self, module: &Module, words: &[u32], mut f: impl FnMut(u32)) {
        let op = inst::opcode(words);
        if op == Op::ExtInst as u32 && words.len() >= 5 {
            let set = self.ext_set_of(words[3]);
            if inst::visit_ext_inst_id_positions(words, set, &mut |p| f(words[p])) {
                return;
            }
        }
        if op != Op::ExtInst as u32
            && op != Op::Switch as u32
            && inst::visit_use_positions(words, |p| f(words[p]))
        {
            return;
        }
        match self.id_use_positions(module, words) {
            Some(p) => p.into_iter().for_each(|k| f(words[k])),
            None => words[1..].iter().for_each(|&x| f(x)),
        }
    }

    /// Why `words` (an instruction [`Index::id_use_positions`] cannot decode) cannot be decoded,
    /// for messages: the extended instruction set of an `OpExtInst` that spec-link does not know,
    /// else nothing.
    pub fn undecodable_because(&self, module: &Module, words: &[u32]) -> String {
        if !inst::is(words, Op::ExtInst) {
            return String::new();
        }
        let known = words
            .get(3)
            .and_then(|s| self.ext_sets.get(s))
            .is_some_and(|s| !matches!(s, inst::ExtSet::Unknown));
        if known {
            return String::new();
        }
        let name = words
            .get(3)
            .and_then(|s| module.inst(self.defs.get(s)?))
            .and_then(|d| inst::read_string(d.get(2..)?))
            .map(|(name, _)| String::from_utf8_lossy(&name).into_owned());
        format!(
            " (an instruction of the extended instruction set \"{}\", which spec-link cannot decode: every operand is taken for an id)",
            name.as_deref().unwrap_or("?")
        )
    }

    /// Whether `words` is an instruction of a debug-information set ([`Index::debug_sets`]).
    pub fn is_debug_record(&self, words: &[u32]) -> bool {
        inst::is(words, Op::ExtInst) && words.get(3).is_some_and(|s| self.debug_sets.contains(s))
    }

    /// The function that contains instruction `i`, if any.
    pub fn function_of(&self, i: usize) -> Option<&Function> {
        let k = self.functions.partition_point(|f| f.start <= i);
        let f = self.functions.get(k.checked_sub(1)?)?;
        (i <= f.end).then_some(f)
    }

    /// Name of an id for messages: its linkage name, else its `OpName`, else its entry-point
    /// name, else `%id`.
    pub fn display_name(&self, id: u32) -> String {
        if let Some(l) = self.linkage.get(&id) {
            return String::from_utf8_lossy(&l.name).into_owned();
        }
        match self.names.get(&id).or_else(|| self.entry_names.get(&id)) {
            Some(n) => String::from_utf8_lossy(n).into_owned(),
            None => format!("%{id}"),
        }
    }

    /// Makes sure the module declares `cap`, adding `OpCapability cap` after the first one.
    pub fn ensure_capability(&self, module: &mut Module, cap: spirv::Capability) {
        if self.capabilities.iter().any(|&(c, _)| c == cap as u32) {
            return;
        }
        if let Some(&(_, i)) = self.capabilities.first() {
            if let Some(w) = module.inst(i) {
                let mut words = w.to_vec();
                words.extend(inst::build(Op::Capability, &[cap as u32]));
                module.replace(i, words);
            }
        }
    }

    /// Pointer size in bytes from the addressing model (Physical32 → 4, otherwise 8).
    pub fn pointer_size(&self) -> u64 {
        if self.addressing_model == Some(spirv::AddressingModel::Physical32 as u32) {
            4
        } else {
            8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::inst::build;

    /// The error of indexing a module of these instructions (id bound 20).
    fn error_of(insts: &[Vec<u32>]) -> String {
        let mut words = vec![super::super::MAGIC, 0x0001_0000, 0, 20, 0];
        for w in insts {
            words.extend_from_slice(w);
        }
        let module = match Module::from_words(words, false) {
            Ok(m) => m,
            Err(e) => return format!("load: {e}"),
        };
        match Index::build(&module) {
            Ok(_) => "ok".into(),
            Err(e) => e.to_string(),
        }
    }

    /// The id checks, the definitions and the rest of the index run as separate passes (on two
    /// threads for big modules); the error is the one they gave as two passes, id checks with
    /// definitions and the rest: the first in instruction order, an id check's first at one
    /// instruction, and an id never defined (at its first use) only when neither the id checks
    /// nor the definitions found anything else.
    #[test]
    fn the_error_is_the_one_a_single_pass_reports() {
        let int = build(Op::TypeInt, &[1, 32, 0]);
        let ptr = build(Op::TypePointer, &[2, 7, 1]);
        // Uses %9, never defined: the id checks' last step.
        let never = build(Op::Variable, &[2, 3, 7, 9]);
        // %1 again: the id checks and the definitions both see it.
        let twice = build(Op::TypeInt, &[1, 16, 0]);
        // A use at the bound: an id check at its instruction.
        let above = build(Op::Variable, &[2, 4, 7, 20]);
        // A parameter outside a function: the rest's.
        let param = build(Op::FunctionParameter, &[1, 5]);
        let e = error_of(&[int.clone(), ptr.clone(), never.clone(), twice.clone()]);
        assert!(e.contains("id %1 is defined twice"), "{e}");
        let e = error_of(&[int.clone(), ptr.clone(), never.clone()]);
        assert!(e.contains("id %9 is never defined"), "{e}");
        let e = error_of(&[int.clone(), ptr.clone(), above.clone(), twice.clone()]);
        assert!(e.contains("id %20 is not below"), "{e}");
        let e = error_of(&[int.clone(), ptr.clone(), param.clone(), above.clone()]);
        assert!(e.contains("parameter outside a function header"), "{e}");
        // (The id never defined is reported at its first use, before the parameter.)
        let e = error_of(&[int.clone(), ptr.clone(), never, param]);
        assert!(e.contains("id %9 is never defined"), "{e}");
        let e = error_of(&[int, ptr, above, twice]);
        assert!(e.contains("id %20 is not below"), "{e}");
    }

    /// An id never defined in a module holding an instruction spec-link does not know (whose
    /// result it cannot see) is reported with that instruction.
    #[test]
    fn an_id_never_defined_names_an_unknown_instruction() {
        let int = build(Op::TypeInt, &[1, 32, 0]);
        let ptr = build(Op::TypePointer, &[2, 7, 1]);
        // (Opcode 65000 defining %9 as far as its author knows.)
        let unknown = vec![65000 | 3 << 16, 1, 9];
        let never = build(Op::Variable, &[2, 3, 7, 9]);
        let e = error_of(&[int.clone(), ptr.clone(), unknown, never.clone()]);
        assert!(
            e.contains(
                "id %9 is never defined in the module (the module holds opcode 65000, at word 13,"
            ),
            "{e}"
        );
        let e = error_of(&[int, ptr, never]);
        assert!(!e.contains("opcode"), "{e}");
    }

    /// On two threads, the id checks are shared: the first thread walks chunks from the front,
    /// the second (after its passes) from the back. Every module gives what one thread gives:
    /// the same index or the same error, wherever in the module the ids are defined, used,
    /// defined twice, never defined or above the bound, and wherever the extended instruction
    /// sets are imported.
    /// What an index says of a module, for comparing two.
    fn summary(module: &Module, ix: &Index) -> String {
        let defs: Vec<Option<usize>> = (0..module.bound()).map(|id| ix.defs.get(&id)).collect();
        let mut names: Vec<(u32, String)> = ix
            .names
            .iter()
            .map(|(&id, s)| (id, String::from_utf8_lossy(s).into_owned()))
            .collect();
        names.sort();
        format!(
            "{defs:?} {names:?} {:?} {:?} {:?} {} {} {} {:?}",
            ix.calls,
            ix.functions,
            ix.entry_points,
            ix.globals_end,
            ix.names_end,
            ix.annotation_end,
            ix.annotations,
        )
    }

    #[test]
    fn an_input_given_back_as_it_is_indexed_indexes_the_same() {
        // Functions each calling the one before, every one named up front: ~400 KiB, so that
        // the last pass gives pages back behind itself.
        const FUNCTIONS: u32 = 8_000;
        let id = |k: u32, part: u32| 10 + 3 * k + part;
        let mut insts = vec![
            build(Op::Capability, &[spirv::Capability::Addresses as u32]),
            build(Op::Capability, &[spirv::Capability::Kernel as u32]),
            build(Op::MemoryModel, &[2, 2]),
        ];
        for k in 0..FUNCTIONS {
            let mut ops = vec![id(k, 0)];
            ops.extend(inst::string_words(format!("f{k}").as_bytes()));
            insts.push(build(Op::Name, &ops));
        }
        insts.push(build(Op::TypeVoid, &[1]));
        insts.push(build(Op::TypeFunction, &[2, 1]));
        for k in 0..FUNCTIONS {
            insts.push(build(Op::Function, &[1, id(k, 0), 0, 2]));
            insts.push(build(Op::Label, &[id(k, 1)]));
            if k > 0 {
                insts.push(build(Op::FunctionCall, &[1, id(k, 2), id(k - 1, 0)]));
            }
            insts.push(build(Op::Return, &[]));
            insts.push(build(Op::FunctionEnd, &[]));
        }
        let mut words = vec![super::super::MAGIC, 0x0001_0000, 0, id(FUNCTIONS, 0), 0];
        insts.iter().for_each(|w| words.extend_from_slice(w));
        let loaded = (
            super::super::mapped_for_test(&words, "index"),
            Module::from_words(words, false),
        );
        assert!(
            matches!(loaded, (Some(_), Ok(_))),
            "the test module does not map or load"
        );
        let (Some(mut given_back), Ok(kept)) = loaded else {
            return;
        };
        given_back.set_releasing(true);
        assert!(
            given_back.releases_input(),
            "a mapped module does not give its input back"
        );
        let expected = Index::build_on(&kept, false)
            .map(|ix| summary(&kept, &ix))
            .map_err(|e| e.to_string());
        assert!(
            expected.is_ok(),
            "the test module does not index: {expected:?}"
        );
        assert!(expected.as_ref().is_ok_and(|s| s.contains("\"f7999\"")));
        for two_threads in [false, true] {
            let got = Index::build_on(&given_back, two_threads)
                .map(|ix| summary(&given_back, &ix))
                .map_err(|e| e.to_string());
            assert!(got == expected, "two threads: {two_threads}");
        }
    }

    #[test]
    fn two_threads_give_what_one_gives() {
        const N: usize = 3 * CHECK_CHUNK + 100;
        let int = build(Op::TypeInt, &[1, 32, 0]);
        let ptr = build(Op::TypePointer, &[2, 7, 1]);
        let import = |id: u32| {
            let mut ops = vec![id];
            ops.extend(inst::string_words(b"OpenCL.std"));
            build(Op::ExtInstImport, &ops)
        };
        // fabs (OpenCL.std 23) of %11 from set %5: ids at words 1, 3 and 5 only.
        let ext = |result: u32| build(Op::ExtInst, &[1, result, 5, 23, 11]);
        let constant = |id: u32| build(Op::Constant, &[1, id, 7]);
        let run = |placed: &[(usize, Vec<u32>)]| {
            let mut insts: Vec<Vec<u32>> = vec![build(Op::Nop, &[]); N];
            for (at, w) in placed {
                insts[*at] = w.clone();
            }
            let mut words = vec![super::super::MAGIC, 0x0001_0000, 0, 30, 0];
            for w in &insts {
                words.extend_from_slice(w);
            }
            let module = Module::from_words(words, false).map_err(|e| e.to_string())?;
            let one = Index::build_on(&module, false).map(|ix| ix.defs.get(&12));
            let two = Index::build_on(&module, true).map(|ix| ix.defs.get(&12));
            let (one, two) = (
                one.map_err(|e| e.to_string()),
                two.map_err(|e| e.to_string()),
            );
            assert_eq!(one, two, "{placed:?}");
            one
        };
        let (front, back) = (5, N - 10);
        let base = [(0, int.clone()), (1, ptr.clone()), (2, import(5))];
        let with = |more: &[(usize, Vec<u32>)]| {
            let mut all = base.to_vec();
            all.extend_from_slice(more);
            run(&all)
        };
        // Defined in front, used at the back, and the other way round: fine.
        assert_eq!(
            with(&[(front, constant(11)), (back, ext(12))]),
            Ok(Some(back))
        );
        assert_eq!(
            with(&[(front, ext(12)), (back, constant(11))]),
            Ok(Some(front))
        );
        // Defined in front and again at the back.
        let e = with(&[(front, constant(11)), (back, constant(11))]);
        assert!(e.is_err_and(|e| e.contains("id %11 is defined twice")));
        // Never defined, used at the back; with an id above the bound in front too.
        let e = with(&[(back, ext(12))]);
        assert!(e.is_err_and(|e| e.contains("id %11 is never defined")));
        let e = with(&[
            (front, build(Op::Variable, &[2, 4, 7, 40])),
            (back, ext(12)),
        ]);
        assert!(e.is_err_and(|e| e.contains("id %40 is not below")));
        // (An id never defined is reported only when nothing else is wrong.)
        let e = with(&[
            (back, build(Op::Variable, &[2, 4, 7, 40])),
            (front + 1, ext(12)),
        ]);
        assert!(e.is_err_and(|e| e.contains("id %40 is not below")));
        // The set imported at the back: extended instructions before it are decoded as an
        // unknown set's (result type and set only), those after it by OpenCL.std.
        let late = [
            (0, int.clone()),
            (1, ptr.clone()),
            (front, ext(12)),
            (back, import(5)),
        ];
        assert_eq!(run(&late), Ok(Some(front)));
        let mut after = late.to_vec();
        after.push((back + 2, ext(13)));
        let e = run(&after);
        assert!(e.is_err_and(|e| e.contains("id %11 is never defined")));
    }
}
