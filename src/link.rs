//! Link several modules into one, as `spirv-link` does, before lowering.
//!
//! Algorithm (spirv-link's order of steps):
//! 1. give each module a disjoint id range (error when the 32-bit bound overflows) and shift
//!    every id, including those inside extended instructions (decoded with their set's grammar);
//! 2. merge capabilities, extensions and extended-instruction imports; the addressing and memory
//!    models must agree; the highest SPIR-V version wins;
//! 3. deduplicate types and constants (structs only when their decorations agree);
//! 4. resolve each `Import` to the one `Export` of the same name and type and replace its uses;
//!    `LinkOnceODR` duplicates are merged, and so are exports of one name whose definitions are
//!    copies of one another (two different ones are an error); marker imports are left for
//!    lowering; with `allow_partial` other unresolved imports are kept; without `create_library`
//!    the resolved exports lose their linkage;
//! 5. check that no SpecId is used by two inputs (or renumber the later input's);
//! 6. at SPIR-V 1.4 and later, extend entry-point interfaces to list every global variable the
//!    entry point's call tree uses (it may now reach into other inputs);
//! 7. write the sections in SPIR-V's logical order, function declarations before definitions.
//!
//! All id replacements are collected in one map and applied once. Errors of a kind are gathered
//! and reported together, naming the symbols and the files.
//!
//! Preconditions: every input is a [`Module`] with its [`Index`]. Postcondition: the returned
//! words are one module whose ids are below its bound.

// Slots are addressed by index in several parallel arrays (words, sections, drop marks).
#![allow(clippy::needless_range_loop)]

use crate::error::{Error, Result};
use crate::markers::is_marker_name;
use crate::module::idhash::{IdBits, IdMap, IdSet, IdTable};
use crate::module::index::{Defs, Index};
use crate::module::{inst, Module, MAGIC};
use crate::specmap::ITT_SPEC_ID;
use spirv::{Decoration, Op, StorageClass};
use std::collections::{BTreeMap, BTreeSet};

/// Linking options.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinkOptions {
    /// Keep unresolved imports (other than markers) instead of failing.
    pub allow_partial: bool,
    /// Keep exports (the result is a library).
    pub create_library: bool,
    /// Give the later input's colliding SpecIds fresh numbers instead of failing.
    pub renumber_spec_ids: bool,
}

/// A SpecId that was renumbered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renumbered {
    pub input: String,
    pub from: u32,
    pub to: u32,
}

/// What linking did besides producing the module.
#[derive(Clone, Debug, Default)]
pub struct LinkReport {
    /// Imports kept unresolved (`allow_partial`), by name.
    pub unresolved: Vec<String>,
    pub renumbered: Vec<Renumbered>,
    pub notes: Vec<String>,
}

/// One input to link.
pub struct LinkInput<'a> {
    pub name: &'a str,
    pub module: &'a Module,
    pub index: &'a Index,
}

/// The instructions of every input, ids already shifted into the output's range, in one word
/// arena (no allocation per instruction: 8 bytes of bookkeeping each). An instruction rewritten
/// to other words (or to several instructions) gets them appended to the arena and its slot
/// repointed; the old words stay unused until the arena is dropped.
///
/// The id positions of an instruction are recomputed from its words when needed (the fixed
/// layouts and the grammar, [`inst::visit_use_positions`]); they are stored only for the
/// instructions whose positions need more than their own words (`OpExtInst`, whose layout
/// depends on its set; `OpSwitch`, on its selector's type).
#[derive(Default)]
struct Insts {
    words: Vec<u32>,
    slots: Vec<Slot>,
    /// Stored id positions (within their slot's words) of the slots in `stored`.
    uses: Vec<u16>,
    stored: IdMap<u32, (u32, u32)>,
    /// `(first slot, input)` of each run of slots from one input, in slot order.
    input_runs: Vec<(u32, u32)>,
}

#[derive(Clone, Copy)]
struct Slot {
    start: u32,
    len: u32,
}

/// Calls `f` with the id positions of the instructions in `words` (one or several), recomputed
/// from the words; false if one of them cannot be decoded that way.
fn recomputed_uses(words: &[u32], mut f: impl FnMut(usize)) -> bool {
    let mut at = 0;
    while at < words.len() {
        let n = (words[at] >> 16) as usize;
        if n == 0 || at + n > words.len() {
            return false;
        }
        let op = words[at] & 0xffff;
        if op == Op::ExtInst as u32
            || op == Op::Switch as u32
            || !inst::visit_use_positions(&words[at..at + n], |p| f(at + p))
        {
            return false;
        }
        at += n;
    }
    true
}

/// A set of instruction slots (one bit each; grows as slots are added).
#[derive(Default)]
struct SlotSet(Vec<u64>);

impl SlotSet {
    fn insert(&mut self, n: usize) -> bool {
        if self.0.len() <= n / 64 {
            self.0.resize(n / 64 + 1, 0);
        }
        let (w, b) = (&mut self.0[n / 64], 1u64 << (n % 64));
        let new = *w & b == 0;
        *w |= b;
        new
    }
    fn contains(&self, n: &usize) -> bool {
        self.0.get(n / 64).is_some_and(|w| w & (1 << (n % 64)) != 0)
    }
}

/// Finds instructions equal to an earlier one without a copy of each: the first slot seen with
/// each hash, compared word by word; hash collisions between different contents (rare) fall back
/// to a set of copies.
#[derive(Default)]
struct FirstSeen {
    by_hash: IdMap<u64, u32>,
    collided: IdMap<Vec<u32>, u32>,
}

impl FirstSeen {
    /// The first slot whose `key` equals slot `n`'s, or `None` (and `n` is recorded);
    /// `has_key(m)` tells whether slot `m`'s key is `key`.
    fn first(
        &mut self,
        n: usize,
        key: &[u32],
        mut has_key: impl FnMut(usize) -> bool,
    ) -> Option<usize> {
        use std::hash::BuildHasher;
        let h = crate::module::idhash::IdBuild::default().hash_one(key);
        match self.by_hash.get(&h) {
            None => {
                self.by_hash.insert(h, n as u32);
                None
            }
            Some(&m) if has_key(m as usize) => Some(m as usize),
            Some(_) => match self.collided.get(key) {
                Some(&m) => Some(m as usize),
                None => {
                    self.collided.insert(key.to_vec(), n as u32);
                    None
                }
            },
        }
    }
}

fn arena_overflow() -> Error {
    Error::Link(vec![
        "the linked module is too large (more than 2^32 words)".into(),
    ])
}

impl Insts {
    fn len(&self) -> usize {
        self.slots.len()
    }

    fn words(&self, n: usize) -> &[u32] {
        let s = self.slots[n];
        &self.words[s.start as usize..(s.start + s.len) as usize]
    }

    fn words_mut(&mut self, n: usize) -> &mut [u32] {
        let s = self.slots[n];
        &mut self.words[s.start as usize..(s.start + s.len) as usize]
    }

    /// The id positions (within [`Insts::words`]) of slot `n`, into `out` (cleared first).
    fn uses(&self, n: usize, out: &mut Vec<usize>) {
        self.uses_known(n, out);
    }

    /// [`Insts::uses`], and whether the positions are all known (false: an instruction that
    /// cannot be decoded; `out` then holds the positions found before it).
    fn uses_known(&self, n: usize, out: &mut Vec<usize>) -> bool {
        out.clear();
        if let Some(&(start, len)) = self.stored.get(&(n as u32)) {
            out.extend(
                self.uses[start as usize..(start + len) as usize]
                    .iter()
                    .map(|&p| p as usize),
            );
            true
        } else {
            recomputed_uses(self.words(n), |p| out.push(p))
        }
    }

    fn input(&self, n: usize) -> usize {
        let k = self
            .input_runs
            .partition_point(|&(first, _)| first as usize <= n);
        k.checked_sub(1)
            .map_or(0, |k| self.input_runs[k].1 as usize)
    }

    /// Position of the result id of the (first) instruction of slot `n`.
    fn result_pos(&self, n: usize) -> Option<usize> {
        let op = self.words(n)[0] & 0xffff;
        inst::result_info(op).and_then(|(t, r)| r.then_some(if t { 2 } else { 1 }))
    }

    fn result(&self, n: usize) -> Option<u32> {
        self.result_pos(n)
            .and_then(|p| self.words(n).get(p).copied())
    }

    /// Appends words to the arena, and the use positions unless they are the recomputed ones
    /// (`recomputable`: the caller knows they are); returns the slot.
    fn store(
        &mut self,
        n: usize,
        words: &[u32],
        uses: &[usize],
        recomputable: bool,
    ) -> Result<Slot> {
        let start = u32::try_from(self.words.len()).map_err(|_| arena_overflow())?;
        self.words.extend_from_slice(words);
        u32::try_from(self.words.len()).map_err(|_| arena_overflow())?;
        let same = recomputable || {
            let (mut k, mut equal) = (0, true);
            let decodable = recomputed_uses(words, |p| {
                equal &= uses.get(k) == Some(&p);
                k += 1;
            });
            decodable && equal && k == uses.len()
        };
        if same {
            self.stored.remove(&(n as u32));
        } else {
            let uses_start = u32::try_from(self.uses.len()).map_err(|_| arena_overflow())?;
            self.uses.extend(uses.iter().map(|&p| p as u16));
            self.stored
                .insert(n as u32, (uses_start, uses.len() as u32));
        }
        Ok(Slot {
            start,
            len: words.len() as u32,
        })
    }

    /// Appends an instruction of input `input` with the id positions `uses`.
    /// `decoded`: `uses` are the positions the module's index decoded (they are the recomputed
    /// ones but for `OpExtInst` and `OpSwitch`); otherwise they are compared.
    fn push(
        &mut self,
        words: &[u32],
        uses: &[usize],
        input: usize,
        decoded: bool,
    ) -> Result<usize> {
        let n = self.slots.len();
        let op = words[0] & 0xffff;
        let recomputable = decoded && op != Op::ExtInst as u32 && op != Op::Switch as u32;
        let slot = self.store(n, words, uses, recomputable)?;
        if self
            .input_runs
            .last()
            .is_none_or(|&(_, k)| k as usize != input)
        {
            self.input_runs.push((n as u32, input as u32));
        }
        self.slots.push(slot);
        Ok(n)
    }

    /// Replaces the words (one or several instructions) and use positions of slot `n`.
    fn set(
        &mut self,
        n: usize,
        words: &[u32],
        uses: impl IntoIterator<Item = usize>,
    ) -> Result<()> {
        let uses: Vec<usize> = uses.into_iter().collect();
        self.slots[n] = self.store(n, words, &uses, false)?;
        Ok(())
    }

    /// Applies the replacements to the ids slot `n` uses (`scratch`: a buffer for the positions).
    fn resolve_uses(&mut self, n: usize, replace: &Replacements, scratch: &mut Vec<usize>) {
        self.uses(n, scratch);
        let s = self.slots[n];
        let words = &mut self.words[s.start as usize..(s.start + s.len) as usize];
        for &p in scratch.iter() {
            if let Some(w) = words.get_mut(p) {
                *w = resolve(replace, *w);
            }
        }
    }
}

/// Sections of the logical layout, in order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Section {
    Capability,
    Extension,
    ExtInstImport,
    MemoryModel,
    EntryPoint,
    ExecutionMode,
    DebugSource,
    DebugName,
    DebugModuleProcessed,
    Annotation,
    Global,
    Function,
}

fn section_of(op: u32, in_functions: bool) -> Section {
    if in_functions {
        return Section::Function;
    }
    match Op::from_u32(op) {
        Some(Op::Capability) => Section::Capability,
        Some(Op::Extension) => Section::Extension,
        Some(Op::ExtInstImport) => Section::ExtInstImport,
        Some(Op::MemoryModel) => Section::MemoryModel,
        Some(Op::EntryPoint) => Section::EntryPoint,
        Some(Op::ExecutionMode | Op::ExecutionModeId) => Section::ExecutionMode,
        Some(Op::String | Op::SourceExtension | Op::Source | Op::SourceContinued) => {
            Section::DebugSource
        }
        Some(Op::Name | Op::MemberName) => Section::DebugName,
        Some(Op::ModuleProcessed) => Section::DebugModuleProcessed,
        Some(
            Op::Decorate
            | Op::MemberDecorate
            | Op::DecorationGroup
            | Op::GroupDecorate
            | Op::GroupMemberDecorate
            | Op::DecorateId
            | Op::DecorateString
            | Op::MemberDecorateString,
        ) => Section::Annotation,
        _ => Section::Global,
    }
}

/// Whether `w` is `OpDecorate <target> <d> <operand>…` (at least one operand).
fn is_decoration(w: &[u32], d: Decoration) -> bool {
    w[0] & 0xffff == Op::Decorate as u32 && w.len() > 3 && w[2] == d as u32
}

fn is_scalar_spec_constant(op: u32) -> bool {
    op == Op::SpecConstant as u32
        || op == Op::SpecConstantTrue as u32
        || op == Op::SpecConstantFalse as u32
}

fn is_dedupable_global(op: u32) -> bool {
    (Op::TypeVoid as u32..=Op::TypePipe as u32).contains(&op) && op != Op::TypeForwardPointer as u32
        || [
            Op::Constant,
            Op::ConstantTrue,
            Op::ConstantFalse,
            Op::ConstantNull,
            Op::ConstantComposite,
            // Undefined values of one type are interchangeable (any value will do for either).
            Op::Undef,
        ]
        .iter()
        .any(|&o| o as u32 == op)
}

/// The id replacements of a link, collected by every step and applied once (every operand of
/// every instruction is looked up here): indexed by id when that costs at most 4 bytes a word of
/// the module (the bound is sane), hashed otherwise. A replacement may name an id replaced later:
/// [`resolve`] follows the chain.
struct Replacements(
    /// `id + 1` of each replacement (`0`: not replaced), so that an invalid input's id 0 can be
    /// replaced and be a replacement. Ids are below the bound, a `u32`: `id + 1` does not wrap
    /// (only an id beyond every bound, `u32::MAX`, would be lost as a replacement).
    IdTable<u32>,
);

impl Replacements {
    fn new(bound: u32, module_words: usize) -> Self {
        Replacements(IdTable::new(bound, module_words.saturating_mul(4)))
    }

    fn insert(&mut self, id: u32, to: u32) {
        *self.0.get_mut(id) = to.wrapping_add(1);
    }

    #[inline]
    fn get(&self, id: u32) -> Option<u32> {
        self.0.get(id).checked_sub(1)
    }
}

/// Follows replacement chains to the final id.
fn resolve(map: &Replacements, mut id: u32) -> u32 {
    for _ in 0..64 {
        match map.get(id) {
            Some(n) if n != id => id = n,
            _ => break,
        }
    }
    id
}

/// Links the inputs (see the module docs); returns the module's words.
pub fn link(inputs: &[LinkInput], options: &LinkOptions) -> Result<(Vec<u32>, LinkReport)> {
    let mut linker = Linker::default();
    for input in inputs {
        linker.add(input)?;
    }
    linker.finish(options)
}

/// A link in progress: [`Linker::add`] copies each input's instructions (ids shifted into the
/// output's range) so that the caller can drop the input before reading the next one; then
/// [`Linker::finish`] runs steps 2–7.
#[derive(Default)]
pub struct Linker {
    insts: Insts,
    sections: Vec<Section>,
    /// One more than the largest id handed out so far.
    total: u64,
    names: Vec<String>,
    versions: Vec<(u8, u8)>,
    generator: Option<u32>,
    /// Instructions that cannot be decoded (reported together by `finish`).
    errors: Vec<String>,
}

impl Linker {
    /// Step 1 for one input: its id range, and its instructions shifted into it.
    pub fn add(&mut self, input: &LinkInput) -> Result<()> {
        let k = self.names.len();
        let base = self.total.max(1) - 1;
        self.total = base + 1 + (input.module.bound().max(1) as u64 - 1);
        if self.total > u32::MAX as u64 {
            return Err(Error::Link(vec![format!(
                "the linked module needs more than {} ids (id bound overflow at {})",
                u32::MAX,
                input.name
            )]));
        }
        let base = base as u32;
        self.names.push(input.name.to_string());
        self.versions.push(input.module.version());
        self.generator.get_or_insert(input.module.generator());
        let first_function = input.index.globals_end;
        let mut uses: Vec<usize> = Vec::new();
        for i in 0..input.module.len() {
            let Some(w) = input.module.inst(i) else {
                continue;
            };
            let op = w[0] & 0xffff;
            // The positions, decoded as `Insts` recomputes them (the index only for the two
            // instructions that need more than their words).
            uses.clear();
            let decodable = if op == Op::ExtInst as u32 || op == Op::Switch as u32 {
                match input.index.id_use_positions(input.module, w) {
                    Some(p) => {
                        uses.extend(p);
                        true
                    }
                    None => false,
                }
            } else {
                inst::visit_use_positions(w, |p| uses.push(p))
            };
            if !decodable {
                self.errors.push(format!(
                    "{}: cannot link {} at word {}: its operands cannot be decoded (unknown opcode or extended instruction set)",
                    input.name,
                    inst::op_name(op),
                    input.module.offset_of(i)
                ));
                continue;
            };
            let result_pos =
                inst::result_info(op).and_then(|(t, r)| r.then_some(if t { 2 } else { 1 }));
            let n = self.insts.push(w, &uses, k, true)?;
            let words = self.insts.words_mut(n);
            for &p in uses.iter().chain(result_pos.iter()) {
                words[p] = words[p].wrapping_add(base);
            }
            self.sections.push(section_of(op, i >= first_function));
        }
        Ok(())
    }

    /// Steps 2–7 (see the module docs); returns the module's words.
    pub fn finish(self, options: &LinkOptions) -> Result<(Vec<u32>, LinkReport)> {
        let Linker {
            mut insts,
            mut sections,
            total,
            names,
            versions,
            generator,
            errors,
        } = self;
        if !errors.is_empty() {
            return Err(Error::Link(errors));
        }
        let inputs: Vec<Named> = names.iter().map(|n| Named { name: n }).collect();
        finish(
            &mut insts,
            &mut sections,
            total.max(1) as u32,
            &inputs,
            &versions,
            generator.unwrap_or(0),
            options,
        )
    }
}

/// An input's name, for messages.
struct Named<'a> {
    name: &'a str,
}

fn finish(
    insts: &mut Insts,
    sections: &mut Vec<Section>,
    mut bound: u32,
    inputs: &[Named],
    versions: &[(u8, u8)],
    generator: u32,
    options: &LinkOptions,
) -> Result<(Vec<u32>, LinkReport)> {
    let mut scratch: Vec<usize> = Vec::new();
    let mut report = LinkReport::default();
    // 2. Header-level merges.
    let version = versions.iter().copied().max().unwrap_or((1, 0));
    let crosses_1_4 = version >= (1, 4) && versions.iter().any(|&v| v < (1, 4));
    let mut replace = Replacements::new(bound, insts.words.len());
    let mut drop = SlotSet::default();
    let mut seen_caps = IdSet::default();
    let mut seen_exts: IdMap<Vec<u32>, ()> = IdMap::default();
    let mut seen_imports: IdMap<Vec<u32>, u32> = IdMap::default();
    let mut memory_model: Option<(Vec<u32>, usize)> = None;
    let mut model_errors = Vec::new();
    // Entry points by execution model and name: a second one is an error (as in spirv-link; the
    // module would be invalid).
    let mut entry_points: BTreeMap<(u32, Vec<u8>), usize> = BTreeMap::new();
    for n in 0..insts.len() {
        let w = insts.words(n);
        match sections[n] {
            Section::EntryPoint => {
                let Some((name, _)) = w.get(3..).and_then(inst::read_string) else {
                    continue;
                };
                let model = w.get(1).copied().unwrap_or(u32::MAX);
                let k = insts.input(n);
                if let Some(&first) = entry_points.get(&(model, name.clone())) {
                    let (a, b) = (inputs[first].name, inputs[k].name);
                    let by = if first == k {
                        format!("twice by {a}")
                    } else if a == b {
                        format!("by inputs {} and {} (both {a})", first + 1, k + 1)
                    } else {
                        format!("by {a} and by {b}")
                    };
                    model_errors.push(format!(
                        "entry point \"{}\" ({}) is defined {by}",
                        String::from_utf8_lossy(&name),
                        spirv::ExecutionModel::from_u32(model).map_or_else(
                            || format!("execution model {model}"),
                            |m| format!("{m:?}")
                        )
                    ));
                } else {
                    entry_points.insert((model, name), k);
                }
            }
            Section::Capability if !seen_caps.insert(w.get(1).copied()) => {
                drop.insert(n);
            }
            Section::Extension if seen_exts.insert(w[1..].to_vec(), ()).is_some() => {
                drop.insert(n);
            }
            Section::ExtInstImport => {
                if let Some(&first) = seen_imports.get(&w[2..]) {
                    replace.insert(w[1], first);
                    drop.insert(n);
                } else {
                    seen_imports.insert(w[2..].to_vec(), w[1]);
                }
            }
            Section::MemoryModel => match &memory_model {
                None => memory_model = Some((w.to_vec(), insts.input(n))),
                Some((m, k)) => {
                    if m.as_slice() != w {
                        model_errors.push(format!(
                            "addressing or memory model mismatch: {} uses {}, {} uses {}",
                            inputs[*k].name,
                            model_name(m),
                            inputs[insts.input(n)].name,
                            model_name(w)
                        ));
                    }
                    drop.insert(n);
                }
            },
            _ => {}
        }
    }
    if !model_errors.is_empty() {
        return Err(Error::Link(model_errors));
    }

    // Decorations (target masked) of the types and constants that may be deduplicated, to tell
    // apart those that only differ in decorations. Only those ids are collected.
    // DPC++'s ITT instrumentation flag (SpecId 0xFF747469, set by the runtime) is a spec constant
    // every DPC++ image may hold, several times: identical copies of it merge like constants.
    let itt_flags: IdSet<u32> = (0..insts.len())
        .filter(|&n| sections[n] == Section::Annotation)
        .map(|n| insts.words(n))
        .filter(|w| is_decoration(w, Decoration::SpecId) && w[3] == ITT_SPEC_ID)
        .map(|w| w[1])
        .collect();
    let is_dedupable = |insts: &Insts, n: usize| {
        let op = insts.words(n)[0] & 0xffff;
        sections[n] == Section::Global
            && (is_dedupable_global(op)
                || is_scalar_spec_constant(op)
                    && insts.result(n).is_some_and(|r| itt_flags.contains(&r)))
    };
    let mut dedupable = IdBits::new(bound, insts.words.len());
    for n in 0..insts.len() {
        if let Some(id) = insts.result(n).filter(|_| is_dedupable(insts, n)) {
            dedupable.insert(id);
        }
    }
    let mut decorations_of: IdMap<u32, Vec<Vec<u32>>> = IdMap::default();
    for n in 0..insts.len() {
        let w = insts.words(n);
        if sections[n] == Section::Annotation && w.len() > 1 && dedupable.contains(w[1]) {
            let mut d = w.to_vec();
            let target = d[1];
            d[1] = 0;
            decorations_of.entry(target).or_default().push(d);
        }
    }
    for d in decorations_of.values_mut() {
        d.sort();
    }

    // 3. Deduplicate types and constants, in order (operands already replaced).
    // Key: the words with the result id zeroed, then the sorted decorations (targets masked);
    // every part starts with its word count, so the concatenation is unambiguous.
    let key_into = |insts: &Insts, n: usize, key: &mut Vec<u32>| {
        key.clear();
        key.extend_from_slice(insts.words(n));
        if let Some(rpos) = insts.result_pos(n) {
            key[rpos] = 0;
        }
        if let Some(decos) = insts.result(n).and_then(|id| decorations_of.get(&id)) {
            for d in decos {
                key.extend_from_slice(d);
            }
        }
    };
    let mut canon = FirstSeen::default();
    let (mut key, mut other) = (Vec::new(), Vec::new());
    for n in 0..insts.len() {
        if !is_dedupable(insts, n) {
            continue;
        }
        insts.resolve_uses(n, &replace, &mut scratch);
        let Some(id) = insts.result(n) else { continue };
        key_into(insts, n, &mut key);
        let has_key = |m: usize| {
            key_into(insts, m, &mut other);
            other == key
        };
        if let Some(first) = canon.first(n, &key, has_key) {
            if let Some(first_id) = insts.result(first) {
                replace.insert(id, first_id);
                drop.insert(n);
            }
        }
    }
    // Memory: the dedup tables are done with (the module is assembled later, beside the arena).
    std::mem::drop((canon, decorations_of, dedupable));

    // 4. Imports and exports.
    // Imports of built-in variables (decorated `BuiltIn`: `__spirv_BuiltInGlobalInvocationId`
    // in every DPC++ image and device library) name no symbol another module defines: the
    // environment provides them. As in spirv-link, they are not resolved and never unresolved;
    // they are set apart here, keyed by name and built-in.
    let builtin_of: IdMap<u32, u32> = (0..insts.len())
        .filter(|&n| sections[n] == Section::Annotation)
        .map(|n| insts.words(n))
        .filter(|w| is_decoration(w, Decoration::BuiltIn))
        .map(|w| (w[1], w[3]))
        .collect();
    let mut symbols: BTreeMap<Vec<u8>, Vec<Sym>> = BTreeMap::new();
    let mut builtin_imports: BTreeMap<(Vec<u8>, u32), Vec<Sym>> = BTreeMap::new();
    for n in 0..insts.len() {
        let w = insts.words(n);
        if sections[n] == Section::Annotation && is_decoration(w, Decoration::LinkageAttributes) {
            if let Some((name, len)) = inst::read_string(&w[3..]) {
                let kind = w.get(3 + len).copied().unwrap_or(0);
                let sym = Sym {
                    id: w[1],
                    input: insts.input(n),
                    kind,
                    decoration: n,
                };
                match builtin_of.get(&w[1]) {
                    Some(&builtin) if kind == 1 => builtin_imports
                        .entry((name, builtin))
                        .or_default()
                        .push(sym),
                    _ => symbols.entry(name).or_default().push(sym),
                }
            }
        }
    }
    std::mem::drop(builtin_of);
    let mut def_of = Defs::with_bound(bound, insts.words.len());
    for n in 0..insts.len() {
        if let Some(r) = insts.result(n) {
            def_of.insert(r, n);
        }
    }
    let type_of = |id: u32, replace: &Replacements| -> Option<u32> {
        let n = def_of.get(&id)?;
        let w = insts.words(n);
        let op = w[0] & 0xffff;
        let ty = if op == Op::Function as u32 {
            *w.get(4)?
        } else {
            *w.get(1)?
        };
        Some(resolve(replace, ty))
    };
    let mut removed_symbols: IdSet<u32> = IdSet::default();
    let mut link_errors = Vec::new();
    // Imported functions whose type differs from the export's only in pointee types:
    // (import id, import function type, export function type).
    let mut adapt: Vec<(u32, u32, u32)> = Vec::new();
    // Imported variables whose pointer type differs from the export's only in the pointee type:
    // (import id, import pointer type, export id); the import becomes a bitcast of the export.
    let mut adapt_vars: Vec<(u32, u32, u32)> = Vec::new();
    // Built-in imports: one variable per name, built-in and type; without `allow_partial` the
    // output keeps no import, so they lose their linkage too (spirv-link does the same). First,
    // so that copies of one function using them compare equal below.
    for syms in builtin_imports.values() {
        let imports: Vec<&Sym> = syms.iter().collect();
        merge_same_type_imports(
            &imports,
            &type_of,
            &mut replace,
            &mut removed_symbols,
            &mut drop,
        );
        if !options.allow_partial {
            for s in syms {
                drop.insert(s.decoration);
            }
        }
    }
    // Exports of one name whose definitions are copies of one another (the translator's
    // `spirv.llvm_fshl_i32` in two device libraries; the ITT wrappers every DPC++ image carries)
    // are no conflict: the first copy is kept, as for LinkOnceODR. A copy that calls another
    // copy matches once the callee's copies are one: a name whose copies differ first where they
    // name two exports of another such name waits for that name, and is compared again only if
    // it merges (each name is compared once, plus once per name it waited on that merged).
    let groups: Vec<&Vec<u8>> = symbols
        .iter()
        .filter(|(_, syms)| syms.iter().filter(|s| s.kind == 0).count() > 1)
        .map(|(name, _)| name)
        .collect();
    let exports_of =
        |g: usize| -> Vec<&Sym> { symbols[groups[g]].iter().filter(|s| s.kind == 0).collect() };
    let group_of: IdMap<u32, usize> = (0..groups.len())
        .flat_map(|g| exports_of(g).into_iter().map(move |s| (s.id, g)))
        .collect();
    let mut waiting: Vec<Vec<usize>> = vec![Vec::new(); groups.len()];
    let mut queue: std::collections::VecDeque<usize> = (0..groups.len()).collect();
    let mut merged_copies: Vec<String> = Vec::new();
    while let Some(g) = queue.pop_front() {
        let exports = exports_of(g);
        let first = exports[0];
        let mut verdict = Comparison::Same;
        for e in &exports[1..] {
            verdict = same_definition(insts, &def_of, &replace, &group_of, first.id, e.id);
            if verdict != Comparison::Same {
                break;
            }
        }
        match verdict {
            Comparison::Same => {
                for dup in &exports[1..] {
                    replace.insert(dup.id, first.id);
                    removed_symbols.insert(dup.id);
                    drop.insert(dup.decoration);
                }
                merged_copies.push(String::from_utf8_lossy(groups[g]).into_owned());
                queue.extend(std::mem::take(&mut waiting[g]));
            }
            Comparison::WaitsOn(h) if h != g => waiting[h].push(g),
            _ => {}
        }
    }
    if !merged_copies.is_empty() {
        merged_copies.sort();
        let shown: Vec<String> = merged_copies
            .iter()
            .take(4)
            .map(|n| format!("\"{n}\""))
            .collect();
        let more = merged_copies.len().saturating_sub(4);
        report.notes.push(format!(
            "{} symbol(s) exported by several inputs with the same definition, one copy kept: {}{}",
            merged_copies.len(),
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    for (name, syms) in &symbols {
        let shown = String::from_utf8_lossy(name);
        // (Copies merged above are gone.)
        let exports: Vec<&Sym> = syms
            .iter()
            .filter(|s| s.kind == 0 && !removed_symbols.contains(&s.id))
            .collect();
        let odr: Vec<&Sym> = syms.iter().filter(|s| s.kind == 2).collect();
        let imports: Vec<&Sym> = syms.iter().filter(|s| s.kind == 1).collect();
        if exports.len() > 1 {
            let files: Vec<&str> = exports.iter().map(|s| inputs[s.input].name).collect();
            link_errors.push(format!(
                "symbol \"{shown}\" is exported by {}",
                files.join(" and ")
            ));
            continue;
        }
        // The definition imports resolve to: the Export, else the first LinkOnceODR.
        let definition = exports.first().copied().or(odr.first().copied());
        for dup in odr
            .iter()
            .filter(|s| Some(s.id) != definition.map(|d| d.id))
        {
            replace.insert(dup.id, definition.map_or(dup.id, |d| d.id));
            removed_symbols.insert(dup.id);
            drop.insert(dup.decoration);
        }
        let Some(def) = definition else {
            // Marker imports are consumed by lowering; other imports stay only with
            // --allow-partial (and are reported). Either way repeated declarations merge.
            let consumed = is_marker_name(name) || imports.is_empty();
            if consumed || options.allow_partial {
                merge_same_type_imports(
                    &imports,
                    &type_of,
                    &mut replace,
                    &mut removed_symbols,
                    &mut drop,
                );
                if !consumed {
                    report.unresolved.push(shown.into_owned());
                }
                continue;
            }
            let files: Vec<&str> = imports.iter().map(|s| inputs[s.input].name).collect();
            link_errors.push(format!(
                "unresolved symbol \"{shown}\" (imported by {})",
                files.join(", ")
            ));
            continue;
        };
        let def_ty = type_of(def.id, &replace);
        for imp in &imports {
            let imp_ty = type_of(imp.id, &replace);
            if imp_ty != def_ty {
                // "imported by a.spv as T, exported by b.spv as U" for messages.
                let both = format!(
                    "\"{shown}\": imported by {} as {}, exported by {} as {}",
                    inputs[imp.input].name,
                    describe_type(insts, &def_of, &replace, imp_ty),
                    inputs[def.input].name,
                    describe_type(insts, &def_of, &replace, def_ty)
                );
                if let (Some(it), Some(dt)) = (imp_ty, def_ty) {
                    if same_storage_pointers(insts, &def_of, &replace, it, dt) {
                        report.notes.push(format!(
                            "{both}: the pointers differ only in pointee type; the import is a bitcast of the export"
                        ));
                        adapt_vars.push((imp.id, it, def.id));
                        if let Some(n) = def_of.get(&imp.id) {
                            drop.insert(n);
                        }
                        drop.insert(imp.decoration);
                        continue;
                    }
                    if differ_only_in_pointees(insts, &def_of, &replace, it, dt) {
                        report.notes.push(format!(
                            "{both}: the types differ only in pointer pointee types; calls are adapted with OpBitcast"
                        ));
                        adapt.push((imp.id, it, dt));
                        replace.insert(imp.id, def.id);
                        removed_symbols.insert(imp.id);
                        drop.insert(imp.decoration);
                        continue;
                    }
                }
                link_errors.push(format!("type mismatch for {both}"));
                continue;
            }
            replace.insert(imp.id, def.id);
            removed_symbols.insert(imp.id);
            drop.insert(imp.decoration);
        }
        if !options.create_library && !imports.is_empty() {
            drop.insert(def.decoration);
        }
    }
    if !link_errors.is_empty() {
        let unresolved = link_errors
            .iter()
            .filter(|e| e.starts_with("unresolved symbol"))
            .count();
        if unresolved > 0 {
            // The way out, once, after the list.
            link_errors.push(format!(
                "{unresolved} unresolved symbol{}: add the inputs that export {}, or pass \
                 --allow-partial to keep unresolved imports in the output (for a library linked \
                 again later, or `llvm.*` intrinsics a driver provides)",
                if unresolved == 1 { "" } else { "s" },
                if unresolved == 1 { "it" } else { "them" }
            ));
        }
        return Err(Error::Link(link_errors));
    }
    if !options.create_library {
        // Exports nobody imports lose their linkage too (spirv-link's behaviour).
        for syms in symbols.values() {
            for s in syms
                .iter()
                .filter(|s| s.kind != 1 && !removed_symbols.contains(&s.id))
            {
                drop.insert(s.decoration);
            }
        }
    }
    // Remove the resolved imports' and merged duplicates' definitions (whole functions).
    let mut n = 0;
    while n < insts.len() {
        let op = insts.words(n)[0] & 0xffff;
        if let Some(r) = insts.result(n) {
            if removed_symbols.contains(&r) {
                if op == Op::Function as u32 {
                    while n < insts.len() {
                        let end = insts.words(n)[0] & 0xffff == Op::FunctionEnd as u32;
                        if let Some(p) = insts.result(n) {
                            removed_symbols.insert(p);
                        }
                        drop.insert(n);
                        n += 1;
                        if end {
                            break;
                        }
                    }
                    continue;
                }
                drop.insert(n);
            }
        }
        n += 1;
    }

    // 5. SpecIds used by more than one input.
    let mut spec_users: BTreeMap<u32, Vec<(usize, usize)>> = BTreeMap::new(); // SpecId → (input, inst)
    for n in 0..insts.len() {
        let w = insts.words(n);
        if sections[n] == Section::Annotation
            && is_decoration(w, Decoration::SpecId)
            && !drop.contains(&n)
        {
            spec_users
                .entry(w[3])
                .or_default()
                .push((insts.input(n), n));
        }
    }
    let mut used: BTreeSet<u32> = spec_users.keys().copied().collect();
    let mut collisions = Vec::new();
    for (&id, users) in &spec_users {
        // The ITT flag is the runtime's, one meaning in every input: never a collision.
        if id == ITT_SPEC_ID {
            continue;
        }
        let first_input = users[0].0;
        let later: Vec<&(usize, usize)> = users.iter().filter(|(k, _)| *k != first_input).collect();
        if later.is_empty() {
            continue;
        }
        if !options.renumber_spec_ids {
            let mut files: Vec<&str> = users.iter().map(|(k, _)| inputs[*k].name).collect();
            files.dedup();
            collisions.push(format!("SpecId {id} is used by {}", files.join(" and ")));
            continue;
        }
        // Each later input gets one fresh id for this SpecId (its own constants keep sharing it).
        let mut fresh_of: BTreeMap<usize, u32> = BTreeMap::new();
        for &&(k, n) in &later {
            let to = match fresh_of.get(&k) {
                Some(&t) => t,
                None => {
                    let mut t = used.iter().next_back().map_or(0, |m| m + 1);
                    if t == ITT_SPEC_ID {
                        t += 1;
                    }
                    used.insert(t);
                    fresh_of.insert(k, t);
                    report.renumbered.push(Renumbered {
                        input: inputs[k].name.to_string(),
                        from: id,
                        to: t,
                    });
                    t
                }
            };
            insts.words_mut(n)[3] = to;
        }
    }
    if !collisions.is_empty() {
        return Err(Error::Link(vec![format!(
            "{} (pass --renumber-spec-ids to renumber the later inputs' SpecIds)",
            collisions.join("; ")
        )]));
    }

    // Adapted variables: `%import = OpSpecConstantOp %import_type Bitcast %export`, after every
    // global (the export may come from a later input).
    for &(imp, ty, def) in &adapt_vars {
        insts.push(
            &inst::build(Op::SpecConstantOp, &[ty, imp, Op::Bitcast as u32, def]),
            &[1, 4],
            0,
            false,
        )?;
        sections.push(Section::Global);
    }

    // Interfaces list variables only: an adapted import (a bitcast now) is listed as its export.
    if !adapt_vars.is_empty() {
        let gone: IdMap<u32, u32> = adapt_vars.iter().map(|a| (a.0, a.2)).collect();
        for n in 0..insts.len() {
            if sections[n] != Section::EntryPoint {
                continue;
            }
            let old = insts.words(n);
            let Some((_, len)) = old.get(3..).and_then(inst::read_string) else {
                continue;
            };
            let head = 3 + len;
            let mut words: Vec<u32> = old[..head].to_vec();
            for &x in &old[head..] {
                let x = gone.get(&x).copied().unwrap_or(x);
                if !words[head..].contains(&x) {
                    words.push(x);
                }
            }
            words[0] = inst::head(Op::EntryPoint, words.len());
            let n_words = words.len();
            insts.set(n, &words, std::iter::once(2).chain(head..n_words))?;
        }
    }

    // Calls to adapted imports: bitcast the arguments (and the result) whose pointer types differ.
    for &(imp, imp_ty, def_ty) in &adapt {
        let sig = |t: u32| -> Vec<u32> {
            def_of.get(&t).map_or(Vec::new(), |n| {
                insts.words(n)[2..]
                    .iter()
                    .map(|&x| resolve(&replace, x))
                    .collect()
            })
        };
        let (want, have) = (sig(def_ty), sig(imp_ty)); // [return, params…]
        for n in 0..insts.len() {
            let w = insts.words(n).to_vec();
            if sections[n] != Section::Function
                || w[0] & 0xffff != Op::FunctionCall as u32
                || w.get(3) != Some(&imp)
            {
                continue;
            }
            let mut words = Vec::new();
            let mut uses = Vec::new();
            let mut call = w.clone();
            for (k, arg) in w[4..].iter().enumerate() {
                let (Some(&to), Some(&from)) = (want.get(k + 1), have.get(k + 1)) else {
                    continue;
                };
                if to != from {
                    let id = bound;
                    bound = bound
                        .checked_add(1)
                        .ok_or_else(|| Error::Link(vec!["id bound overflow".into()]))?;
                    uses.extend([words.len() + 1, words.len() + 3]);
                    words.extend(inst::build(Op::Bitcast, &[to, id, *arg]));
                    call[4 + k] = id;
                }
            }
            let ret_differs = want.first() != have.first();
            let old_result = call[2];
            if ret_differs {
                call[1] = want[0];
                call[2] = bound;
                bound = bound
                    .checked_add(1)
                    .ok_or_else(|| Error::Link(vec!["id bound overflow".into()]))?;
            }
            let at = words.len();
            uses.push(at + 1);
            uses.extend(at + 3..at + call.len());
            words.extend_from_slice(&call);
            if ret_differs {
                let at = words.len();
                uses.extend([at + 1, at + 3]);
                words.extend(inst::build(Op::Bitcast, &[have[0], old_result, call[2]]));
            }
            insts.set(n, &words, uses)?;
        }
    }

    // Apply the replacements once, everywhere.
    for n in 0..insts.len() {
        insts.resolve_uses(n, &replace, &mut scratch);
    }
    // Names and decorations of ids that no longer exist go; identical ones collapse.
    let mut seen_annotations = FirstSeen::default();
    let mut named: IdSet<u32> = IdSet::default();
    for n in 0..insts.len() {
        if drop.contains(&n) {
            continue;
        }
        let w = insts.words(n);
        match sections[n] {
            Section::DebugName | Section::Annotation => {
                let target = w.get(1).copied().unwrap_or(0);
                let original_target_gone =
                    replace.get(target).is_some() || removed_symbols.contains(&target);
                let dup = if sections[n] == Section::DebugName && w[0] & 0xffff == Op::Name as u32 {
                    !named.insert(target)
                } else {
                    seen_annotations
                        .first(n, w, |m| insts.words(m) == w)
                        .is_some()
                };
                if original_target_gone || dup {
                    drop.insert(n);
                }
            }
            Section::EntryPoint => {}
            _ => {}
        }
    }

    // No linkage left (everything resolved, no library): the Linkage capability goes too.
    let linkage_left = (0..insts.len()).any(|n| {
        !drop.contains(&n)
            && sections[n] == Section::Annotation
            && insts.words(n)[0] & 0xffff == Op::Decorate as u32
            && insts.words(n).get(2) == Some(&(Decoration::LinkageAttributes as u32))
    });
    if !linkage_left {
        for n in 0..insts.len() {
            if sections[n] == Section::Capability
                && insts.words(n).get(1) == Some(&(spirv::Capability::Linkage as u32))
            {
                drop.insert(n);
            }
        }
    }

    // 6. Entry-point interfaces under the 1.4 rules: an entry point lists every global variable
    // its call tree uses, and linking can extend that tree into another input's functions (and
    // their variables). Interfaces are only extended: a variable listed stays listed.
    if version >= (1, 4) {
        rewrite_interfaces(insts, sections, &drop, bound)?;
        if crosses_1_4 {
            report.notes.push(format!(
                "inputs of SPIR-V versions below and at or above 1.4 were linked into {}.{}: entry-point interfaces now list every global variable their entry point uses",
                version.0, version.1
            ));
        }
    }

    // Memory: only the arena and the drop marks are needed to assemble.
    std::mem::drop((
        replace,
        seen_annotations,
        named,
        def_of,
        symbols,
        builtin_imports,
        removed_symbols,
    ));
    // 7. Assemble: sections in order, function declarations before definitions. A counting
    // sort: the size of each (section, declaration or not) group, then every kept instruction
    // copied to its place in one pass (no list of the order: peak memory is the arena + the output).
    let is_decl = function_is_declaration(insts, sections);
    let group = |n: usize| -> usize {
        let s = sections[n];
        s as usize * 2 + usize::from(s == Section::Function && !is_decl[n])
    };
    const GROUPS: usize = (Section::Function as usize + 1) * 2;
    let mut size = [0usize; GROUPS];
    for n in 0..insts.len() {
        if !drop.contains(&n) {
            size[group(n)] += insts.words(n).len();
        }
    }
    let header = [
        MAGIC,
        (version.0 as u32) << 16 | (version.1 as u32) << 8,
        generator,
        bound,
        0,
    ];
    let mut cursor = [0usize; GROUPS];
    let mut at = header.len();
    for (c, &len) in cursor.iter_mut().zip(&size) {
        *c = at;
        at += len;
    }
    let mut out = vec![0u32; at];
    out[..header.len()].copy_from_slice(&header);
    for n in 0..insts.len() {
        if drop.contains(&n) {
            continue;
        }
        let w = insts.words(n);
        let c = &mut cursor[group(n)];
        out[*c..*c + w.len()].copy_from_slice(w);
        *c += w.len();
    }
    Ok((out, report))
}

/// Looks up the (replaced) type of a symbol.
type TypeOf<'a> = dyn Fn(u32, &Replacements) -> Option<u32> + 'a;

/// A linkage decoration: the symbol's id, its input, its kind (0 Export, 1 Import, 2
/// LinkOnceODR) and the decoration instruction.
struct Sym {
    id: u32,
    input: usize,
    kind: u32,
    decoration: usize,
}

/// Whether the definitions of `a` and `b` (two exports of one name) are copies of one another:
/// variables whose words match apart from the result id, or functions whose instructions match one
/// for one — the same opcodes and literals, the same global ids (after the replacements so far),
/// and the ids they define themselves in the same places. Anything that cannot be decoded differs.
/// Where they first differ by naming two exports of one copy group of `group_of` that have not
/// merged yet, the answer is to wait for that group.
fn same_definition(
    insts: &Insts,
    def_of: &Defs,
    replace: &Replacements,
    group_of: &IdMap<u32, usize>,
    a: u32,
    b: u32,
) -> Comparison {
    use Comparison::{Differs, Same, WaitsOn};
    let (Some(na), Some(nb)) = (def_of.get(&a), def_of.get(&b)) else {
        return Differs;
    };
    // The slots of a definition: the variable's, or OpFunction … OpFunctionEnd.
    let slots = |n: usize| -> Option<Vec<usize>> {
        let op = insts.words(n)[0] & 0xffff;
        if op == Op::Variable as u32 {
            return Some(vec![n]);
        }
        if op != Op::Function as u32 {
            return None;
        }
        let mut v = Vec::new();
        for m in n..insts.len() {
            v.push(m);
            if insts.words(m)[0] & 0xffff == Op::FunctionEnd as u32 {
                return Some(v);
            }
        }
        None
    };
    let (Some(sa), Some(sb)) = (slots(na), slots(nb)) else {
        return Differs;
    };
    if sa.len() != sb.len() {
        return Differs;
    }
    // The ids each defines, numbered in order of definition.
    let locals = |slots: &[usize]| -> IdMap<u32, usize> {
        slots
            .iter()
            .filter_map(|&m| insts.result(m))
            .enumerate()
            .map(|(k, id)| (id, k))
            .collect()
    };
    let (la, lb) = (locals(&sa), locals(&sb));
    if la.len() != lb.len() {
        return Differs;
    }
    let mut uses = Vec::new();
    let mut is_id = Vec::new();
    for (&ma, &mb) in sa.iter().zip(&sb) {
        let (wa, wb) = (insts.words(ma), insts.words(mb));
        // One instruction per slot (a slot rewritten to several is not compared).
        if wa.len() != wb.len() || wa[0] != wb[0] || (wa[0] >> 16) as usize != wa.len() {
            return Differs;
        }
        if !insts.uses_known(ma, &mut uses) {
            return Differs;
        }
        uses.extend(insts.result_pos(ma));
        is_id.clear();
        is_id.resize(wa.len(), false);
        for &p in &uses {
            if let Some(f) = is_id.get_mut(p) {
                *f = true;
            }
        }
        for k in 1..wa.len() {
            let same = if is_id[k] {
                match (la.get(&wa[k]), lb.get(&wb[k])) {
                    (Some(x), Some(y)) => x == y,
                    (None, None) => {
                        let (x, y) = (resolve(replace, wa[k]), resolve(replace, wb[k]));
                        if x != y {
                            // Two exports of one name not merged (yet).
                            return match (group_of.get(&x), group_of.get(&y)) {
                                (Some(&g), Some(&h)) if g == h => WaitsOn(g),
                                _ => Differs,
                            };
                        }
                        true
                    }
                    _ => false,
                }
            } else {
                wa[k] == wb[k]
            };
            if !same {
                return Differs;
            }
        }
    }
    Same
}

/// How two definitions compare ([`same_definition`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Comparison {
    Same,
    Differs,
    /// Alike up to their first difference, where they name two exports of copy group `g` that
    /// have not merged.
    WaitsOn(usize),
}

/// Repeated imports of one name with one type become one declaration.
fn merge_same_type_imports(
    imports: &[&Sym],
    type_of: &TypeOf,
    replace: &mut Replacements,
    removed: &mut IdSet<u32>,
    drop: &mut SlotSet,
) {
    let Some(first) = imports.first() else { return };
    let first_ty = type_of(first.id, replace);
    for imp in &imports[1..] {
        if type_of(imp.id, replace) == first_ty {
            replace.insert(imp.id, first.id);
            removed.insert(imp.id);
            drop.insert(imp.decoration);
        }
    }
}

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

/// Whether two types are pointers of the same storage class (to different pointees).
fn same_storage_pointers(
    insts: &Insts,
    def_of: &Defs,
    replace: &Replacements,
    a: u32,
    b: u32,
) -> bool {
    let words = |t: u32| def_of.get(&resolve(replace, t)).map(|n| insts.words(n));
    match (words(a), words(b)) {
        (Some(x), Some(y)) => {
            x[0] & 0xffff == Op::TypePointer as u32
                && y[0] & 0xffff == Op::TypePointer as u32
                && x.get(2) == y.get(2)
        }
        _ => false,
    }
}

/// Whether two function types differ only in the pointee types of pointers (same storage
/// classes, same everything else).
fn differ_only_in_pointees(
    insts: &Insts,
    def_of: &Defs,
    replace: &Replacements,
    a: u32,
    b: u32,
) -> bool {
    let words = |t: u32| def_of.get(&resolve(replace, t)).map(|n| insts.words(n));
    let (Some(wa), Some(wb)) = (words(a), words(b)) else {
        return false;
    };
    let op = |w: &[u32]| w[0] & 0xffff;
    if op(wa) != Op::TypeFunction as u32
        || op(wb) != Op::TypeFunction as u32
        || wa.len() != wb.len()
    {
        return false;
    }
    wa[2..].iter().zip(&wb[2..]).all(|(&x, &y)| {
        resolve(replace, x) == resolve(replace, y)
            || same_storage_pointers(insts, def_of, replace, x, y)
    })
}

/// A readable spelling of a type of the linked module, for messages.
fn describe_type(insts: &Insts, def_of: &Defs, replace: &Replacements, ty: Option<u32>) -> String {
    /// Longest spelling (then "…"): members are shared, so a spelling could grow exponentially.
    const MAX_LEN: usize = 1024;
    fn go(
        insts: &Insts,
        def_of: &Defs,
        replace: &Replacements,
        id: u32,
        depth: usize,
        out: &mut String,
    ) {
        use std::fmt::Write;
        let id = resolve(replace, id);
        if depth > 8 || out.len() > MAX_LEN {
            out.push('…');
            return;
        }
        let Some(n) = def_of.get(&id) else {
            let _ = write!(out, "%{id}");
            return;
        };
        let w = insts.words(n);
        let sub = |k: usize, out: &mut String| match w.get(k) {
            Some(&t) => go(insts, def_of, replace, t, depth + 1, out),
            None => out.push('?'),
        };
        // The operands from word `from` on, separated by ", " (and cut short past MAX_LEN).
        let list = |from: usize, out: &mut String| {
            for k in from..w.len() {
                if k > from {
                    out.push_str(", ");
                }
                if out.len() > MAX_LEN {
                    out.push('…');
                    break;
                }
                sub(k, out);
            }
        };
        // (Writing to a String cannot fail.)
        match Op::from_u32(w[0] & 0xffff) {
            Some(Op::TypeVoid) => out.push_str("void"),
            Some(Op::TypeBool) => out.push_str("bool"),
            Some(Op::TypeInt) => {
                let _ = write!(out, "i{}", w.get(2).copied().unwrap_or(0));
            }
            Some(Op::TypeFloat) => {
                let _ = write!(out, "f{}", w.get(2).copied().unwrap_or(0));
            }
            Some(Op::TypeVector) => {
                let _ = write!(out, "<{} x ", w.get(3).copied().unwrap_or(0));
                sub(2, out);
                out.push('>');
            }
            Some(Op::TypeArray) => {
                out.push('[');
                sub(2, out);
                out.push(']');
            }
            Some(Op::TypeStruct) => {
                out.push_str("{ ");
                list(2, out);
                out.push_str(" }");
            }
            Some(Op::TypePointer) => {
                sub(3, out);
                let _ = write!(
                    out,
                    "* ({})",
                    storage_name(w.get(2).copied().unwrap_or(u32::MAX))
                );
            }
            Some(Op::TypeFunction) => {
                sub(2, out);
                out.push_str(" (");
                list(3, out);
                out.push(')');
            }
            _ => {
                let _ = write!(out, "%{id}");
            }
        }
    }
    match ty {
        Some(t) => {
            let mut out = String::new();
            go(insts, def_of, replace, t, 0, &mut out);
            out
        }
        None => "an unknown type".into(),
    }
}

fn storage_name(sc: u32) -> &'static str {
    match sc {
        0 => "UniformConstant",
        4 => "Workgroup",
        5 => "CrossWorkgroup",
        7 => "Function",
        8 => "Generic",
        _ => "other storage",
    }
}

/// Marks the instructions of functions that have no body.
fn function_is_declaration(insts: &Insts, sections: &[Section]) -> Vec<bool> {
    let mut out = vec![false; insts.len()];
    let mut start = None;
    let mut has_body = false;
    for n in 0..insts.len() {
        if sections[n] != Section::Function {
            continue;
        }
        let op = insts.words(n)[0] & 0xffff;
        if op == Op::Function as u32 {
            start = Some(n);
            has_body = false;
        } else if op == Op::Label as u32 {
            has_body = true;
        } else if op == Op::FunctionEnd as u32 {
            if let Some(s) = start.take() {
                if !has_body {
                    for flag in &mut out[s..=n] {
                        *flag = true;
                    }
                }
            }
        }
    }
    out
}

/// Under SPIR-V 1.4, an entry point's interface lists every global variable (other than
/// `Function` storage) that its call tree uses.
fn rewrite_interfaces(
    insts: &mut Insts,
    sections: &[Section],
    drop: &SlotSet,
    bound: u32,
) -> Result<()> {
    let mut scratch: Vec<usize> = Vec::new();
    let mut globals = IdBits::new(bound, insts.words.len());
    for n in 0..insts.len() {
        let w = insts.words(n);
        if sections[n] == Section::Global
            && !drop.contains(&n)
            && w[0] & 0xffff == Op::Variable as u32
            && w.get(3) != Some(&(StorageClass::Function as u32))
        {
            if let Some(id) = insts.result(n) {
                globals.insert(id);
            }
        }
    }
    // Per function: globals used and functions called.
    let mut uses: IdMap<u32, (BTreeSet<u32>, BTreeSet<u32>)> = IdMap::default();
    let mut current = None;
    for n in 0..insts.len() {
        if sections[n] != Section::Function || drop.contains(&n) {
            continue;
        }
        let w = insts.words(n);
        let op = w[0] & 0xffff;
        if op == Op::Function as u32 {
            current = insts.result(n);
        }
        let Some(f) = current else { continue };
        let entry = uses.entry(f).or_default();
        insts.uses(n, &mut scratch);
        for &p in &scratch {
            let id = w[p];
            if globals.contains(id) {
                entry.0.insert(id);
            }
        }
        if op == Op::FunctionCall as u32 {
            if let Some(&callee) = w.get(3) {
                entry.1.insert(callee);
            }
        }
    }
    for n in 0..insts.len() {
        if sections[n] != Section::EntryPoint || drop.contains(&n) {
            continue;
        }
        let w = insts.words(n);
        let Some((_, len)) = w.get(3..).and_then(inst::read_string) else {
            continue;
        };
        let head_len = 3 + len;
        let mut seen = IdSet::default();
        let mut stack = vec![w[2]];
        let mut vars: BTreeSet<u32> = BTreeSet::new();
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            if let Some((g, calls)) = uses.get(&f) {
                vars.extend(g.iter().copied());
                stack.extend(calls.iter().copied());
            }
        }
        let mut new: Vec<u32> = w[..head_len].to_vec();
        let mut listed: Vec<u32> = w[head_len..].to_vec();
        let already: IdSet<u32> = listed.iter().copied().collect();
        listed.extend(vars.into_iter().filter(|v| !already.contains(v)));
        let first_use = new.len();
        new.extend(listed);
        new[0] = inst::head(Op::EntryPoint, new.len());
        let n_words = new.len();
        insts.set(n, &new, std::iter::once(2).chain(first_use..n_words))?;
    }
    Ok(())
}
