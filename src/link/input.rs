//! Phase 1: add one input to the link.
//!
//! Algorithm: reserve the input's id range (`1..bound` of the input becomes `base+1..base+bound`
//! of the output) from the link's [`IdAllocator`](crate::module::ids::IdAllocator); copy every
//! instruction into the arena with its result id and every id operand shifted by `base`. The id
//! positions come from the fixed layouts and the grammar; for `OpExtInst` and `OpSwitch` (whose
//! layout depends on another instruction) from the input's index.
//!
//! Preconditions: the input's [`Index`](crate::module::index::Index) was built from its module.
//! Postconditions: the input's instructions are the arena's next slots, each with its section;
//! an instruction whose operands cannot be decoded is left out and recorded as an error for
//! `finish` (all inputs' are reported together); an id range past `u32::MAX` is an
//! error at once.

use super::error::LinkError;
use super::{LinkInput, Linker};
use crate::error::{Error, Result};
use crate::module::assemble::Section;
use crate::module::inst;
use spirv::Op;

/// Adds `input`'s instructions, ids shifted into a fresh range, to `linker`.
pub(super) fn add_input(linker: &mut Linker, input: &LinkInput) -> Result<()> {
    let k = linker.names.len();
    let first = linker
        .ids
        .reserve(input.module.bound().max(1) - 1)
        .map_err(|_| {
            Error::Link(vec![LinkError::TooManyIds {
                input: input.name.to_string(),
            }])
        })?;
    let base = first - 1;
    linker.names.push(input.name.to_string());
    linker.versions.push(input.module.version());
    linker.generator.get_or_insert(input.module.generator());
    let first_function = input.index.globals_end;
    let mut uses: Vec<usize> = Vec::new();
    for i in 0..input.module.len() {
        let Some(w) = input.module.inst(i) else {
            continue;
        };
        let op = inst::opcode(w);
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
            linker.errors.push(LinkError::Undecodable {
                input: input.name.to_string(),
                opcode: inst::op_name(op),
                offset: input.module.offset_of(i),
            });
            continue;
        };
        let result_pos =
            inst::result_info(op).and_then(|(t, r)| r.then_some(if t { 2 } else { 1 }));
        let n = linker.insts.push(w, &uses, k, true)?;
        let words = linker.insts.words_mut(n);
        for &p in uses.iter().chain(result_pos.iter()) {
            words[p] = words[p].wrapping_add(base);
        }
        linker
            .sections
            .push(Section::in_module(input.module, i, i >= first_function));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::testing::{assemble, link_errors, linker_of, named, state_of, TestResult};
    use super::super::LinkOptions;
    use super::*;
    use crate::module::{Module, MAGIC};

    const INT: &str = "OpName %int \"int\"\n%int = OpTypeInt 32 0\n";

    #[test]
    fn each_input_gets_its_own_id_range() -> TestResult {
        let bound = assemble(INT)?.bound();
        let state = state_of(&[("a", INT), ("b", INT)])?;
        assert_eq!(named(&state, 0, "int"), Some(1));
        assert_eq!(named(&state, 1, "int"), Some(1 + bound - 1));
        assert_eq!(state.ids.bound(), 2 * bound - 1);
        Ok(())
    }

    #[test]
    fn ids_past_32_bits_are_an_error_naming_the_input() -> TestResult {
        let mut big = assemble(INT)?;
        big.bound = u32::MAX;
        let small = assemble(INT)?;
        let mut linker = linker_of(&[("a", &big)])?;
        let index = crate::module::index::Index::build(&small)?;
        let added = linker.add(&LinkInput {
            name: "b",
            module: &small,
            index: &index,
        });
        let errors = link_errors(added);
        assert_eq!(errors, vec![LinkError::TooManyIds { input: "b".into() }]);
        assert_eq!(
            errors[0].to_string(),
            "the linked module needs more than 4294967295 ids (id bound overflow at b)"
        );
        Ok(())
    }

    #[test]
    fn an_undecodable_instruction_is_reported_by_finish() -> TestResult {
        // A 1-word instruction of an opcode no grammar knows, after the memory model.
        let mut words = vec![MAGIC, 0x0001_0400, 0, 1, 0];
        words.extend(inst::build(
            Op::Capability,
            &[spirv::Capability::Kernel as u32],
        ));
        words.extend(inst::build(Op::MemoryModel, &[2, 2]));
        words.push((1 << 16) | 0x7ff0);
        let m = Module::from_words(words, false)?;
        let linker = linker_of(&[("a", &m)])?;
        let errors = link_errors(linker.finish(&LinkOptions::default()));
        assert_eq!(
            errors,
            vec![LinkError::Undecodable {
                input: "a".into(),
                opcode: inst::op_name(0x7ff0),
                offset: 10,
            }]
        );
        Ok(())
    }
}
