//! The state the link phases share: every input's instructions in one arena, and the tables
//! the phases fill in and read. Each phase is a function over [`State`] (see `mod.rs` for the
//! order); the invariants below hold between phases.

// Slots are addressed by index in several parallel arrays (words, sections, drop marks).
#![allow(clippy::needless_range_loop)]

use super::error::LinkError;
use super::LinkReport;
use crate::error::{Error, Result};
use crate::module::assemble::Section;
use crate::module::bits::BitSet;
use crate::module::idhash::{IdMap, IdSet, IdTable};
use crate::module::ids::IdAllocator;
use crate::module::index::Defs;
use crate::module::inst;
use spirv::{Decoration, Op};

/// A link in progress, between phases.
///
/// Invariants:
/// - `insts` and `sections` have one entry per slot: `sections[n]` is slot `n`'s section in the
///   logical layout. The slots of one input are contiguous and in input order; a function's
///   slots are contiguous, from `OpFunction` to `OpFunctionEnd`. Slots are only appended (new
///   globals) or rewritten in place, never removed: [`State::drop`] marks what is not written.
/// - The ids of different inputs are disjoint ([`super::input`] shifts each input into its own
///   range), and below `ids.bound()` when each input's ids are below its own bound. Only `ids`
///   hands out new ids.
/// - `replace` holds every id replacement decided so far (a chain is followed by [`resolve`]);
///   operands still name the replaced ids until the prune phase applies it everywhere (the dedup
///   phase applies it to the types and constants it compares).
/// - A slot in `drop` stays dropped. A whole function is dropped or kept.
/// - `removed_symbols` holds the ids whose definitions go (resolved imports, merged duplicates,
///   and, once the symbols phase is done, every id defined inside a removed function).
/// - `defs` maps each result id to its defining slot; filled by the symbols phase (slots appended
///   later, the adaptations' bitcasts, are not in it).
pub(super) struct State {
    pub insts: Insts,
    pub sections: Vec<Section>,
    pub ids: IdAllocator,
    /// Input names, for messages, in input order.
    pub inputs: Vec<String>,
    /// SPIR-V version of each input.
    pub versions: Vec<(u8, u8)>,
    /// The first input's generator word.
    pub generator: u32,
    pub replace: Replacements,
    pub drop: BitSet,
    pub removed_symbols: IdSet<u32>,
    pub defs: Defs,
    pub adapted: Adaptations,
    pub report: LinkReport,
}

impl State {
    /// The state after every input was added (phase 1).
    pub fn new(
        insts: Insts,
        sections: Vec<Section>,
        ids: IdAllocator,
        inputs: Vec<String>,
        versions: Vec<(u8, u8)>,
        generator: u32,
    ) -> Self {
        let replace = Replacements::new(ids.bound(), insts.word_count());
        State {
            insts,
            sections,
            ids,
            inputs,
            versions,
            generator,
            replace,
            drop: BitSet::default(),
            removed_symbols: IdSet::default(),
            defs: Defs::default(),
            adapted: Adaptations::default(),
            report: LinkReport::default(),
        }
    }

    /// The output's SPIR-V version: the highest of the inputs'.
    pub fn version(&self) -> (u8, u8) {
        self.versions.iter().copied().max().unwrap_or((1, 0))
    }

    /// Whether inputs below SPIR-V 1.4 are linked into a module at 1.4 or later.
    pub fn crosses_1_4(&self) -> bool {
        self.version() >= (1, 4) && self.versions.iter().any(|&v| v < (1, 4))
    }

    /// The name of the input slot `n` comes from.
    pub fn input_name(&self, n: usize) -> &str {
        &self.inputs[self.insts.input(n)]
    }
}

/// Imports bound to an export whose type differs only in pointee types (symbols phase), made
/// to fit by the adapt phase.
#[derive(Default)]
pub(super) struct Adaptations {
    /// Imported functions: their calls bitcast the arguments and result.
    pub calls: Vec<AdaptedCall>,
    /// Imported variables: each becomes a bitcast of its export.
    pub variables: Vec<AdaptedVariable>,
}

/// An imported function whose type differs from its export's only in pointee types.
pub(super) struct AdaptedCall {
    pub import: u32,
    pub import_type: u32,
    pub export_type: u32,
}

/// An imported variable whose pointer type differs from its export's only in the pointee.
pub(super) struct AdaptedVariable {
    pub import: u32,
    pub import_type: u32,
    pub export: u32,
}

/// Whether `w` is `OpDecorate <target> <d> <operand>…` (at least one operand).
pub(super) fn is_decoration(w: &[u32], d: Decoration) -> bool {
    inst::is(w, Op::Decorate) && w.len() > 3 && w[2] == d as u32
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
pub(super) struct Insts {
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

/// Finds instructions equal to an earlier one without a copy of each: the first slot seen with
/// each hash, compared word by word; hash collisions between different contents (rare) fall back
/// to a set of copies.
#[derive(Default)]
pub(super) struct FirstSeen {
    by_hash: IdMap<u64, u32>,
    collided: IdMap<Vec<u32>, u32>,
}

impl FirstSeen {
    /// The first slot whose `key` equals slot `n`'s, or `None` (and `n` is recorded);
    /// `has_key(m)` tells whether slot `m`'s key is `key`.
    pub(super) fn first(
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
    Error::Link(vec![LinkError::TooLarge])
}

impl Insts {
    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Words in the arena (a measure of the module's size, for sizing id tables).
    pub(super) fn word_count(&self) -> usize {
        self.words.len()
    }

    pub(super) fn words(&self, n: usize) -> &[u32] {
        let s = self.slots[n];
        &self.words[s.start as usize..(s.start + s.len) as usize]
    }

    pub(super) fn words_mut(&mut self, n: usize) -> &mut [u32] {
        let s = self.slots[n];
        &mut self.words[s.start as usize..(s.start + s.len) as usize]
    }

    /// The id positions (within [`Insts::words`]) of slot `n`, into `out` (cleared first).
    pub(super) fn uses(&self, n: usize, out: &mut Vec<usize>) {
        self.uses_known(n, out);
    }

    /// [`Insts::uses`], and whether the positions are all known (false: an instruction that
    /// cannot be decoded; `out` then holds the positions found before it).
    pub(super) fn uses_known(&self, n: usize, out: &mut Vec<usize>) -> bool {
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

    pub(super) fn input(&self, n: usize) -> usize {
        let k = self
            .input_runs
            .partition_point(|&(first, _)| first as usize <= n);
        k.checked_sub(1)
            .map_or(0, |k| self.input_runs[k].1 as usize)
    }

    /// Position of the result id of the (first) instruction of slot `n`.
    pub(super) fn result_pos(&self, n: usize) -> Option<usize> {
        let op = inst::opcode(self.words(n));
        inst::result_info(op).and_then(|(t, r)| r.then_some(if t { 2 } else { 1 }))
    }

    pub(super) fn result(&self, n: usize) -> Option<u32> {
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
    pub(super) fn push(
        &mut self,
        words: &[u32],
        uses: &[usize],
        input: usize,
        decoded: bool,
    ) -> Result<usize> {
        let n = self.slots.len();
        let op = inst::opcode(words);
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
    pub(super) fn set(
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
    pub(super) fn resolve_uses(
        &mut self,
        n: usize,
        replace: &Replacements,
        scratch: &mut Vec<usize>,
    ) {
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

/// The id replacements of a link, collected by the phases and applied once (every operand of
/// every instruction is looked up here): indexed by id when that costs at most 4 bytes a word of
/// the module (the bound is sane), hashed otherwise. A replacement may name an id replaced later:
/// [`resolve`] follows the chain.
pub(super) struct Replacements(
    /// `id + 1` of each replacement (`0`: not replaced), so that an invalid input's id 0 can be
    /// replaced and be a replacement. Ids are below the bound, a `u32`: `id + 1` does not wrap
    /// (only an id beyond every bound, `u32::MAX`, would be lost as a replacement).
    IdTable<u32>,
);

impl Replacements {
    pub(super) fn new(bound: u32, module_words: usize) -> Self {
        Replacements(IdTable::new(bound, module_words.saturating_mul(4)))
    }

    pub(super) fn insert(&mut self, id: u32, to: u32) {
        *self.0.get_mut(id) = to.wrapping_add(1);
    }

    #[inline]
    pub(super) fn get(&self, id: u32) -> Option<u32> {
        self.0.get(id).checked_sub(1)
    }
}

/// Follows replacement chains to the final id.
pub(super) fn resolve(map: &Replacements, mut id: u32) -> u32 {
    for _ in 0..64 {
        match map.get(id) {
            Some(n) if n != id => id = n,
            _ => break,
        }
    }
    id
}
