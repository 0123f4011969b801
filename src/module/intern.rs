//! A hash-map cache of types and constants, so that a pass asking twice for the same `OpType*`
//! or `OpConstant*` gets the same id (SPIR-V requires unique non-aggregate types), without a
//! linear scan per request. The module's own definitions of an opcode are added the first time
//! that opcode is asked for (every type at once), or together with the others a pass announces
//! ([`Intern::prepare`]): one pass over the global section per request that brings something new,
//! and the large constant tables of big modules are not hashed when nothing asks for them.

use super::idhash::IdMap;
use super::ids::IdAllocator;
use super::index::Index;
use super::{inst, Module};
use crate::error::Result;
use spirv::Op;

/// Key: opcode and every operand word except the result id.
type Key = (u32, Operands);

/// The operand words of a [`Key`]: up to four inline (a scalar constant or type: no allocation
/// per constant when a big module's constants are brought in), else on the heap. Which variant
/// holds given words depends only on their number, so equal words make equal keys.
#[derive(PartialEq, Eq, Hash)]
enum Operands {
    Inline(u8, [u32; 4]),
    Heap(Vec<u32>),
}

impl Operands {
    /// The words of `parts`, one after another.
    fn of(parts: &[&[u32]]) -> Operands {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        if len <= 4 {
            let mut words = [0u32; 4];
            let mut at = 0;
            for p in parts {
                words[at..at + p.len()].copy_from_slice(p);
                at += p.len();
            }
            // (len ≤ 4 fits in a u8.)
            Operands::Inline(len as u8, words)
        } else {
            Operands::Heap(parts.concat())
        }
    }
}

/// Types and constants of the global section, keyed by their content.
pub struct Intern {
    /// (With the ids' multiplicative hasher: SipHash took 1,200 instructions a constant when a
    /// module's 26,000 constants were brought in, 20% of lowering an 8.5 MB module to its
    /// defaults.)
    map: IdMap<Key, u32>,
    /// Opcodes whose definitions in the module are in `map` already (bit `op`: internable
    /// opcodes are below 64).
    seeded: u64,
    /// End of the module's global section (instruction index).
    globals_end: usize,
}

fn is_internable(op: u32) -> bool {
    (Op::TypeVoid as u32..=Op::TypeForwardPointer as u32).contains(&op)
        && op != Op::TypeForwardPointer as u32
        && op != Op::TypeStruct as u32 // structs are nominal (names, decorations)
        || op == Op::ConstantTrue as u32
        || op == Op::ConstantFalse as u32
        || op == Op::Constant as u32
        || op == Op::ConstantNull as u32
        || op == Op::ConstantComposite as u32
}

/// An internable type opcode (the types of [`is_internable`]).
fn is_type(op: u32) -> bool {
    is_internable(op) && (Op::TypeVoid as u32..=Op::TypeForwardPointer as u32).contains(&op)
}

fn key(words: &[u32]) -> Option<(Key, u32)> {
    let op = inst::opcode(words);
    if !is_internable(op) {
        return None;
    }
    let (has_type, has_result) = inst::result_info(op)?;
    if !has_result {
        return None;
    }
    let rpos = if has_type { 2 } else { 1 };
    let id = *words.get(rpos)?;
    let rest = Operands::of(&[&words[1..rpos], &words[rpos + 1..]]);
    Some(((op, rest), id))
}

impl Intern {
    /// An empty cache for the module's global section.
    pub fn new(_module: &Module, index: &Index) -> Self {
        Intern {
            map: IdMap::default(),
            seeded: 0,
            globals_end: index.globals_end,
        }
    }

    /// Brings the module's definitions of the opcodes in `ops` into the cache in one pass over the
    /// global section (first definition wins): a pass that will ask for several kinds says so
    /// first. [`Intern::get`] brings in what it is asked for itself: a type brings in every type
    /// (types are few, even in big modules), a constant its own opcode only (big modules have
    /// many constants, which are not hashed unless asked for).
    pub fn prepare(&mut self, module: &Module, ops: &[Op]) {
        let want = ops.iter().fold(0, |m, &op| m | Self::kinds(op as u32)) & !self.seeded;
        if want == 0 {
            return;
        }
        self.seeded |= want;
        let mut behind = super::ReleaseBehind::default();
        for i in 0..self.globals_end {
            behind.passed(module, module.offset_of(i));
            let o = module.opcode(i);
            if o >= 64 || want & (1 << o) == 0 {
                continue;
            }
            if let Some(w) = module.inst(i) {
                if let Some((k, id)) = key(w) {
                    self.map.entry(k).or_insert(id);
                }
            }
        }
    }

    /// The opcodes (a bit each: all internable opcodes are below 64) that asking for `op` brings
    /// in: every internable type for a type, else `op` itself.
    fn kinds(op: u32) -> u64 {
        if is_type(op) {
            (0..64).filter(|&o| is_type(o)).fold(0, |m, o| m | 1 << o)
        } else if op < 64 && is_internable(op) {
            1 << op
        } else {
            0
        }
    }

    /// The id of the global instruction `op` with these operands (result type first, if any,
    /// then the operands after the result id), creating it at the end of the global section.
    pub fn get(
        &mut self,
        module: &mut Module,
        ids: &mut IdAllocator,
        op: Op,
        result_type: Option<u32>,
        operands: &[u32],
    ) -> Result<u32> {
        let k = (op as u32, Operands::of(&[result_type.as_slice(), operands]));
        if op as u32 >= 64 || self.seeded & (1 << op as u32) == 0 {
            self.prepare(module, &[op]);
        }
        if let Some(&id) = self.map.get(&k) {
            return Ok(id);
        }
        let mut ops: Vec<u32> = result_type.into_iter().collect();
        ops.push(0);
        ops.extend_from_slice(operands);
        let mut words = inst::try_build(op, &ops)?;
        let id = ids.alloc()?;
        words[1 + result_type.is_some() as usize] = id;
        module.append_global(&words);
        self.map.insert(k, id);
        Ok(id)
    }
}
