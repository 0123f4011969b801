//! Phase 5: SpecIds used by more than one input.
//!
//! Algorithm: gather the kept `SpecId` decorations by SpecId, in slot order. A SpecId decorated
//! in more than one input (but DPC++'s ITT flag, the runtime's, one meaning in every input) is a
//! collision: an error, or with `renumber_spec_ids` each later input gets one fresh SpecId for it
//! (above every SpecId in use, skipping the ITT flag's), shared by that input's constants.
//!
//! Preconditions: phase 4 done (the decorations of dropped symbols do not count).
//! Postconditions: no SpecId (but the ITT flag) is used by two inputs; every renumbering is in
//! the report; without renumbering, all collisions are one error.

use super::error::{LinkError, SpecIdCollision};
use super::state::{is_decoration, State};
use super::{LinkOptions, Renumbered};
use crate::error::{Error, Result};
use crate::module::assemble::Section;
use crate::specmap::ITT_SPEC_ID;
use spirv::Decoration;
use std::collections::{BTreeMap, BTreeSet};

/// Checks (or renumbers) SpecIds used by several inputs (see the module docs).
pub(super) fn check_spec_ids(state: &mut State, options: &LinkOptions) -> Result<()> {
    // SpecId → (input, slot) of each decoration.
    let mut spec_users: BTreeMap<u32, Vec<(usize, usize)>> = BTreeMap::new();
    for n in 0..state.insts.len() {
        let w = state.insts.words(n);
        if state.sections[n] == Section::Annotation
            && is_decoration(w, Decoration::SpecId)
            && !state.drop.contains(n)
        {
            spec_users
                .entry(w[3])
                .or_default()
                .push((state.insts.input(n), n));
        }
    }
    let mut used: BTreeSet<u32> = spec_users.keys().copied().collect();
    let mut collisions = Vec::new();
    for (&id, users) in &spec_users {
        if id == ITT_SPEC_ID {
            continue;
        }
        let first_input = users[0].0;
        let later: Vec<(usize, usize)> = users
            .iter()
            .copied()
            .filter(|(k, _)| *k != first_input)
            .collect();
        if later.is_empty() {
            continue;
        }
        if !options.renumber_spec_ids {
            let mut inputs: Vec<String> = users
                .iter()
                .map(|(k, _)| state.inputs[*k].clone())
                .collect();
            inputs.dedup();
            collisions.push(SpecIdCollision {
                spec_id: id,
                inputs,
            });
            continue;
        }
        renumber(state, id, &later, &mut used);
    }
    if !collisions.is_empty() {
        return Err(Error::Link(vec![LinkError::SpecIdCollisions(collisions)]));
    }
    Ok(())
}

/// Gives each later input of SpecId `id` (its decorations `later`: (input, slot)) one fresh
/// SpecId, above every one in `used`.
fn renumber(state: &mut State, id: u32, later: &[(usize, usize)], used: &mut BTreeSet<u32>) {
    let mut fresh_of: BTreeMap<usize, u32> = BTreeMap::new();
    for &(k, n) in later {
        let to = match fresh_of.get(&k) {
            Some(&t) => t,
            None => {
                let mut t = used.iter().next_back().map_or(0, |m| m + 1);
                if t == ITT_SPEC_ID {
                    t += 1;
                }
                used.insert(t);
                fresh_of.insert(k, t);
                state.report.renumbered.push(Renumbered {
                    input: state.inputs[k].clone(),
                    from: id,
                    to: t,
                });
                t
            }
        };
        state.insts.words_mut(n)[3] = to;
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{kept, link_errors, state_of, TestResult};
    use super::*;
    use spirv::Op;

    const SPEC_3: &str = r#"
OpDecorate %x SpecId 3
%int = OpTypeInt 32 0
%x = OpSpecConstant %int 1
"#;

    #[test]
    fn a_spec_id_of_two_inputs_is_an_error() -> TestResult {
        let mut state = state_of(&[("a", SPEC_3), ("b", SPEC_3)])?;
        let errors = link_errors(check_spec_ids(&mut state, &LinkOptions::default()));
        assert_eq!(
            errors,
            vec![LinkError::SpecIdCollisions(vec![SpecIdCollision {
                spec_id: 3,
                inputs: vec!["a".into(), "b".into()]
            }])]
        );
        assert_eq!(
            errors[0].to_string(),
            "SpecId 3 is used by a and b (pass --renumber-spec-ids to renumber the later inputs' SpecIds)"
        );
        Ok(())
    }

    #[test]
    fn the_later_input_is_renumbered() -> TestResult {
        let mut state = state_of(&[("a", SPEC_3), ("b", SPEC_3), ("c", SPEC_3)])?;
        let options = LinkOptions {
            renumber_spec_ids: true,
            ..LinkOptions::default()
        };
        check_spec_ids(&mut state, &options)?;
        let renumbered = |input: &str, to| Renumbered {
            input: input.into(),
            from: 3,
            to,
        };
        assert_eq!(
            state.report.renumbered,
            vec![renumbered("b", 4), renumbered("c", 5)]
        );
        let spec_ids: Vec<u32> = kept(&state, Op::Decorate).iter().map(|w| w[3]).collect();
        assert_eq!(spec_ids, vec![3, 4, 5]);
        Ok(())
    }
}
