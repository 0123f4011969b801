//! The id checks of an instruction stream, the same for every way a module is read (indexed,
//! loaded and passed through, or streamed through): every result id is below the id bound and
//! defined once; every id an instruction uses or names is below the bound and defined somewhere
//! in the module.
//!
//! Algorithm: one forward walk, fed an instruction at a time ([`IdCheck::inst`]). Result ids go
//! into a set. A used id not yet in it is a forward reference — legal in SPIR-V for names,
//! decorations, entry points, execution modes, forward pointers, branches, phis and calls — and
//! is noted once, with the first instruction that used it; [`IdCheck::finish`] reports the first
//! noted use (in instruction order) whose id the walk never saw defined. An id at or above the
//! bound is reported at once, at the instruction that holds it.
//!
//! Which words are ids comes from the grammar: [`inst::visit_use_positions`] (fixed layouts,
//! else rspirv's grammar); an `OpExtInst`'s operands from its set's grammar
//! ([`inst::ext_inst_use_positions`]; an unknown set: only its result type and set). An
//! instruction that cannot be decoded (an unknown opcode, operands that do not fit the grammar)
//! has its operands left unchecked, as every pass treats it conservatively.
//!
//! Memory: the set of ids is a bitset that grows with the ids met, up to one bit per 4 bytes of
//! module walked so far (plus 64 Ki ids); larger ids go to a hash set, so a hostile bound or id
//! never sizes an allocation. Forward references cost one entry each (at most one per id).

use super::idhash::{IdBits, IdMap};
use super::inst;
use crate::error::{Error, Result};
use spirv::Op;

/// The first use of an id not defined before it: `[id, word offset]` (8 bytes: real modules
/// name and decorate most ids before defining them); the opcodes are kept as runs.
type Forward = [u32; 2];

/// The id checks of one module (see the module docs).
pub struct IdCheck {
    bound: u32,
    /// The header's generator word.
    generator: u32,
    defined: IdBits,
    /// Ids used before their definition (each in `forward` too when `where_noted`).
    noted: IdBits,
    /// Whether `forward` keeps where each id in `noted` was first used (for the error).
    where_noted: bool,
    forward: Vec<Forward>,
    /// `(first entry of forward, opcode)` of each run of entries of one opcode.
    forward_ops: Vec<(u32, u32)>,
    ext_sets: IdMap<u32, inst::ExtSet>,
    /// Limit of the bitsets (grows with the words walked).
    limit_bits: usize,
    /// Id operands of an instruction without a fixed layout.
    scratch: Vec<u32>,
    /// The first id at or above the bound met in the current instruction.
    above: Option<u32>,
    /// [`layouts`], looked up once.
    layouts: &'static [u8],
    /// How the last `OpExtInst`'s set tells its operands apart.
    last_set: inst::ExtIdsCache,
}

const OP_EXT_INST: u32 = Op::ExtInst as u32;
const OP_EXT_INST_IMPORT: u32 = Op::ExtInstImport as u32;
const OP_NAME: u32 = Op::Name as u32;
const OP_DECORATE: u32 = Op::Decorate as u32;

fn error(offset: usize, opcode: u32, message: String) -> Error {
    Error::Malformed {
        offset,
        opcode: inst::op_name(opcode),
        message,
    }
}

/// Per opcode: has a result type, has a result id, has operands after them and every one is an
/// id. (An opcode without such operands is left to [`inst::visit_use_positions`], which takes
/// the extra words of a malformed `OpReturn` or `OpTypeVoid` for no ids: the id positions are
/// exactly those every pass, the linker's renumbering included, sees.)
const HAS_TYPE: u8 = 1;
const HAS_RESULT: u8 = 2;
const ALL_IDS: u8 = 4;

fn layouts() -> &'static [u8] {
    static TABLE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..1u32 << 16)
            .map(|op| match inst::result_info(op) {
                None => 0,
                Some((t, r)) => {
                    let operands = rspirv::grammar::INSTRUCTION_TABLE
                        .lookup_opcode(op)
                        .map_or(0, |g| g.operands.len());
                    let all_ids =
                        inst::all_operands_are_ids(op) && operands > t as usize + r as usize;
                    HAS_TYPE * t as u8 + HAS_RESULT * r as u8 + ALL_IDS * all_ids as u8
                }
            })
            .collect()
    })
}

impl IdCheck {
    /// A check for a module whose header declares id bound `bound` and names `generator` (which
    /// decides how some extended instruction sets are laid out: [`inst::ext_set`]).
    pub fn new(bound: u32, generator: u32) -> Self {
        IdCheck {
            bound,
            generator,
            defined: IdBits::default(),
            noted: IdBits::default(),
            where_noted: true,
            forward: Vec::new(),
            forward_ops: Vec::new(),
            ext_sets: IdMap::default(),
            limit_bits: 1 << 16,
            scratch: Vec::new(),
            above: None,
            layouts: layouts(),
            last_set: inst::ExtIdsCache::default(),
        }
    }

    /// Lets the sets hold every id below the bound as bits from the start (for a module whose
    /// bound is trusted, see [`super::Module::trust_bound`]), not only up to one bit per 4 bytes
    /// of the module walked so far.
    pub fn allow_dense_to_bound(&mut self) {
        self.limit_bits = self.limit_bits.max(self.bound as usize);
        // Made at their full size at once (zeroed pages, touched only where ids are), not grown
        // by doubling (each growth copies and zero-fills).
        let budget = (self.bound as usize).div_ceil(8) + 8;
        if self.defined.is_empty_set() {
            self.defined = IdBits::new(self.bound, budget);
        }
        if self.noted.is_empty_set() {
            self.noted = IdBits::new(self.bound, budget);
        }
    }

    /// One used id of the instruction at `offset`.
    #[inline(always)]
    fn used(&mut self, id: u32, offset: usize, op: u32) {
        if id >= self.bound {
            self.above.get_or_insert(id);
        } else if !self.defined.contains(id)
            && self.noted.insert_growing(id, self.limit_bits)
            && self.where_noted
        {
            if self.forward_ops.last().is_none_or(|&(_, o)| o != op) {
                self.forward_ops.push((self.forward.len() as u32, op));
            }
            self.forward.push([id, offset as u32]);
        }
    }

    /// Checks the instruction `words` (host order, whole: its word count is its length) at word
    /// `offset` of the module. Instructions come in module order.
    pub fn inst(&mut self, words: &[u32], offset: usize) -> Result<()> {
        let op = inst::opcode(words);
        let n = words.len();
        self.limit_bits = self.limit_bits.max(offset + n + (1 << 16));
        // An extended instruction that takes ids only (OpenCL.std's math: the most common
        // instruction of real device code) without a position list, which allocates (~15% of
        // indexing an OpenCL.std-heavy module, by callgrind): result type, result, set,
        // operands. The same ids, in the same order, as that list gives.
        if op == OP_EXT_INST
            && n >= 5
            && self
                .last_set
                .operands_are_ids(words, |set| self.ext_sets.get(&set).copied())
        {
            self.defined_here(words[2], words, offset, op)?;
            self.used(words[1], offset, op);
            self.used(words[3], offset, op);
            for &id in &words[5..] {
                self.used(id, offset, op);
            }
            return self.ended(offset, op);
        }
        let layout = self.layouts[op as usize];
        let mut at = 1;
        if layout & HAS_TYPE != 0 {
            at = 2;
        }
        if layout & HAS_RESULT != 0 {
            if let Some(&id) = words.get(at) {
                self.defined_here(id, words, offset, op)?;
            }
            at += 1;
        }
        if layout & ALL_IDS != 0 && n >= at {
            if layout & HAS_TYPE != 0 {
                self.used(words[1], offset, op);
            }
            for &id in &words[at..] {
                self.used(id, offset, op);
            }
        } else if op == OP_NAME && n >= 3 && inst::string_len(&words[2..]) == Some(n - 2)
            || op == OP_DECORATE
                && n >= 3
                && inst::decoration_parameters_are_literals(words[2], &words[3..])
        {
            // `OpName` / `OpDecorate` with literal parameters: the target only (as
            // [`inst::visit_use_positions`] gives them).
            self.used(words[1], offset, op);
        } else {
            let mut scratch = std::mem::take(&mut self.scratch);
            scratch.clear();
            if op == OP_EXT_INST {
                let set = words
                    .get(3)
                    .and_then(|s| self.ext_sets.get(s))
                    .copied()
                    .unwrap_or(inst::ExtSet::Unknown);
                // (One whose operands are all ids took the fast path above.)
                match inst::ext_inst_use_positions(words, set) {
                    Some(positions) => scratch.extend(positions.into_iter().map(|p| words[p])),
                    None if n >= 5 => scratch.extend([words[1], words[3]]),
                    None => {}
                }
            } else {
                inst::visit_use_positions(words, |p| scratch.push(words[p]));
            }
            for &id in &scratch {
                self.used(id, offset, op);
            }
            self.scratch = scratch;
        }
        self.ended(offset, op)
    }

    /// The end of the instruction at `offset`: the error for an id at or above the bound it used.
    #[inline]
    fn ended(&mut self, offset: usize, op: u32) -> Result<()> {
        match self.above.take() {
            Some(id) => Err(error(
                offset,
                op,
                format!("id %{id} is not below the module's id bound {}", self.bound),
            )),
            None => Ok(()),
        }
    }

    /// The result id `id` of the instruction `words` at `offset`.
    #[inline(always)]
    fn defined_here(&mut self, id: u32, words: &[u32], offset: usize, op: u32) -> Result<()> {
        // The common case: below the bound, in the bitset's room, new, not a set's import.
        if id < self.bound && op != OP_EXT_INST_IMPORT && self.defined.insert_new_dense(id) {
            return Ok(());
        }
        self.defined_here_slowly(id, words, offset, op)
    }

    /// [`IdCheck::defined_here`] in every case (an id the fast path set is seen as there).
    #[cold]
    fn defined_here_slowly(
        &mut self,
        id: u32,
        words: &[u32],
        offset: usize,
        op: u32,
    ) -> Result<()> {
        if !self.defined.insert_growing(id, self.limit_bits) {
            return Err(error(offset, op, format!("id %{id} is defined twice")));
        }
        if id >= self.bound {
            return Err(error(
                offset,
                op,
                format!("id %{id} is not below the module's id bound {}", self.bound),
            ));
        }
        if op == OP_EXT_INST_IMPORT {
            if let Some((name, _)) = words.get(2..).and_then(inst::read_string) {
                self.ext_sets
                    .insert(id, inst::ext_set(&name, self.generator));
                self.last_set = inst::ExtIdsCache::default();
            }
        }
        Ok(())
    }

    /// A check that starts at an instruction after the first: `ext_sets` are the extended
    /// instruction sets the instructions before it import (as they decode its `OpExtInst`s).
    /// It notes which ids are used before their definition, not where (only
    /// [`IdCheck::joins`] reads it: nearly every id the instructions before it define is such,
    /// and a position each came to ~0.8 MB on a 10 MB module).
    pub fn continuing(bound: u32, generator: u32, ext_sets: IdMap<u32, inst::ExtSet>) -> Self {
        IdCheck {
            ext_sets,
            ..IdCheck::new(bound, generator)
        }
        .without_positions()
    }

    /// Notes which ids are used before their definition, not where: for a check whose errors
    /// a check of the whole says again ([`IdCheck::joins`] reads only which). A position each
    /// is 8 bytes an id: on real modules nearly every named or decorated one.
    pub fn without_positions(mut self) -> Self {
        self.where_noted = false;
        self
    }

    /// Whether the checks of a module's instructions in two parts — `self` ([`IdCheck::new`])
    /// from the first instruction, `other` ([`IdCheck::continuing`]) of the rest, in any order
    /// of its own — neither of which failed, pass as one check of the whole would: no id
    /// defined in both, and every id either used before defining it defined in one of them. (On
    /// a module that passes, the order of the walk does not matter: every result below the
    /// bound and defined once, every used id below the bound and defined somewhere. Which error
    /// a module that fails has is for a check of the whole to say.)
    pub fn joins(mut self, other: IdCheck) -> bool {
        if !self.defined.union_disjoint(other.defined) {
            return false;
        }
        let defined = &self.defined;
        self.noted.all(|id| defined.contains(id)) && other.noted.all(|id| defined.contains(id))
    }

    /// After the last instruction: the first use of an id the module never defines (its
    /// instruction's word offset, and the error).
    pub fn finish(self) -> std::result::Result<(), (usize, Error)> {
        let Some(k) = self
            .forward
            .iter()
            .position(|&[id, _]| !self.defined.contains(id))
        else {
            return Ok(());
        };
        let [id, offset] = self.forward[k];
        let run = self
            .forward_ops
            .partition_point(|&(start, _)| start as usize <= k);
        let op = run
            .checked_sub(1)
            .and_then(|r| self.forward_ops.get(r))
            .map_or(0, |&(_, op)| op);
        Err((
            offset as usize,
            error(
                offset as usize,
                op,
                format!("id %{id} is never defined in the module"),
            ),
        ))
    }
}

/// The id checks over a whole module (its input words, edits ignored).
pub fn check_module(module: &super::Module) -> Result<()> {
    let mut check = IdCheck::new(module.bound(), module.generator());
    for i in 0..module.len() {
        check.inst(module.original(i), module.offset_of(i))?;
    }
    check.finish().map_err(|(_, e)| e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::inst::{build, string_words};

    fn run(bound: u32, insts: &[Vec<u32>]) -> std::result::Result<(), String> {
        let mut check = IdCheck::new(bound, 0);
        let mut offset = 5;
        for w in insts {
            check.inst(w, offset).map_err(|e| e.to_string())?;
            offset += w.len();
        }
        check.finish().map_err(|(_, e)| e.to_string())
    }

    fn name(id: u32, s: &str) -> Vec<u32> {
        let mut ops = vec![id];
        ops.extend(string_words(s.as_bytes()));
        build(Op::Name, &ops)
    }

    #[test]
    fn forward_references_are_legal_and_missing_ids_are_not() {
        let int = build(Op::TypeInt, &[1, 32, 0]);
        let ptr = build(Op::TypePointer, &[2, 7, 1]);
        // Named before it is defined: fine.
        assert_eq!(
            run(
                10,
                &[
                    name(3, "x"),
                    int.clone(),
                    ptr.clone(),
                    build(Op::Variable, &[2, 3, 7])
                ]
            ),
            Ok(())
        );
        // Named, never defined.
        let e = run(10, &[name(4, "x"), int.clone(), ptr.clone()]);
        assert_eq!(
            e,
            Err(
                "malformed instruction at word 5 (OpName): id %4 is never defined in the module"
                    .into()
            )
        );
        // An operand at the bound.
        let e = run(10, &[int.clone(), ptr.clone(), build(Op::Store, &[2, 10])]);
        assert_eq!(
            e,
            Err("malformed instruction at word 13 (OpStore): id %10 is not below the module's id bound 10".into())
        );
        // A result at the bound; one defined twice.
        assert!(
            run(2, &[int.clone(), ptr.clone()]).is_err_and(|e| e.contains("id %2 is not below"))
        );
        assert!(run(10, &[int.clone(), int]).is_err_and(|e| e.contains("id %1 is defined twice")));
    }

    /// The fast path reads exactly the ids [`inst::visit_use_positions`] gives, for every opcode
    /// with 1 to 6 words (extra words of an instruction without operands are no ids).
    #[test]
    fn the_ids_checked_are_those_every_pass_sees() {
        for op in 0..=u16::MAX as u32 {
            if op == OP_EXT_INST {
                continue;
            }
            for n in 1..=6u32 {
                // Every word an id of its own, all below the bound and undefined: each use is
                // noted once, in order.
                let words: Vec<u32> = (0..n)
                    .map(|k| if k == 0 { n << 16 | op } else { 100 + k })
                    .collect();
                let mut check = IdCheck::new(1000, 0);
                if check.inst(&words, 5).is_err() {
                    continue;
                }
                let mut noted: Vec<u32> = check.forward.iter().map(|&[id, _]| id).collect();
                let mut expected = Vec::new();
                inst::visit_use_positions(&words, |p| expected.push(words[p]));
                let result = inst::result_id(&words);
                expected.retain(|&id| Some(id) != result);
                noted.sort_unstable();
                expected.sort_unstable();
                expected.dedup();
                assert_eq!(noted, expected, "{} with {n} words", inst::op_name(op));
            }
        }
    }

    #[test]
    fn huge_ids_do_not_size_the_sets() {
        let mut ids = IdBits::default();
        assert!(ids.insert_growing(u32::MAX - 1, 1 << 16));
        assert!(!ids.insert_growing(u32::MAX - 1, 1 << 16));
        assert!(ids.contains(u32::MAX - 1));
        assert!(ids.insert_growing(5, 1 << 16));
        assert!(ids.contains(5) && !ids.contains(6));
        assert!(!ids.contains(u32::MAX - 2));
    }
}
