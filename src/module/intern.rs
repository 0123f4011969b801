//! A hash-map cache of types and constants, so that a pass asking twice for the same `OpType*`
//! or `OpConstant*` gets the same id (SPIR-V requires unique non-aggregate types), without a
//! linear scan per request.

use super::ids::IdAllocator;
use super::index::Index;
use super::{inst, Module};
use crate::error::Result;
use spirv::Op;
use std::collections::HashMap;

/// Key: opcode and every operand word except the result id.
type Key = (u32, Vec<u32>);

/// Types and constants of the global section, keyed by their content.
pub struct Intern {
    map: HashMap<Key, u32>,
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

fn key(words: &[u32]) -> Option<(Key, u32)> {
    let op = words[0] & 0xffff;
    if !is_internable(op) {
        return None;
    }
    let (has_type, has_result) = inst::result_info(op)?;
    if !has_result {
        return None;
    }
    let rpos = if has_type { 2 } else { 1 };
    let id = *words.get(rpos)?;
    let mut rest = Vec::with_capacity(words.len().saturating_sub(2));
    rest.extend_from_slice(&words[1..rpos]);
    rest.extend_from_slice(&words[rpos + 1..]);
    Some(((op, rest), id))
}

impl Intern {
    /// Seeds the cache with the module's global types and constants (first definition wins).
    pub fn new(module: &Module, index: &Index) -> Self {
        let mut map = HashMap::new();
        for i in 0..index.globals_end {
            if let Some(w) = module.inst(i) {
                if let Some((k, id)) = key(w) {
                    map.entry(k).or_insert(id);
                }
            }
        }
        Intern { map }
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
        let mut rest: Vec<u32> = result_type.into_iter().collect();
        rest.extend_from_slice(operands);
        let k = (op as u32, rest);
        if let Some(&id) = self.map.get(&k) {
            return Ok(id);
        }
        let id = ids.alloc()?;
        let mut ops: Vec<u32> = result_type.into_iter().collect();
        ops.push(id);
        ops.extend_from_slice(operands);
        module.append_global(&inst::build(op, &ops));
        self.map.insert(k, id);
        Ok(id)
    }
}
