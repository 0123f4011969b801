//! `spec-link specialize`: the named spec constants of a native image become ordinary constants;
//! the others stay spec constants with their SpecIds.
//!
//! Algorithm:
//! 1. Each name is looked up in the names ([`SymbolNames`]: the image's property sets) and its
//!    constant found in the module (`crate::info::constants::named`); its value is parsed by
//!    the constant's tree ([`parse`]): one scalar per SpecId.
//! 2. Every `OpSpecConstant`/`OpSpecConstantTrue`/`OpSpecConstantFalse` decorated with one of those
//!    SpecIds becomes `OpConstant`/`OpConstantTrue`/`OpConstantFalse` of the value, and its
//!    `SpecId` decoration goes.
//! 3. Folding, in module order (an operand is defined before it is used): an
//!    `OpSpecConstantComposite` whose constituents are all constants becomes
//!    `OpConstantComposite`; an `OpSpecConstantOp` whose operands are all constants and whose
//!    operation is a scalar integer or boolean one (`fold`) becomes the constant it computes.
//!    Other `OpSpecConstantOp`s stay (still valid: their value is fixed).
//! 4. The names left, and the default-values blob cut to theirs, describe what stays
//!    specializable.
//!
//! Preconditions: the module is native (spec constants with SpecIds) and the names are its
//! property sets. Postcondition: nothing is changed when an error is returned; no SpecId of a
//! specialized name is left in the module.

pub(crate) mod fold;
pub mod parse;

use crate::error::{Error, Result};
use crate::info::constants::{self, ConstNode, Decorations, Trees};
use crate::info::names::SymbolNames;
use crate::info::value::Value;
use crate::module::idhash::IdMap;
use crate::module::index::Index;
use crate::module::inst;
use crate::module::inst::build;
use crate::module::Module;
use parse::Given;
use spirv::{Decoration, Op};

/// What specializing made.
#[non_exhaustive]
pub struct Specialized {
    /// The output module's bytes (in the input's byte order).
    pub bytes: Vec<u8>,
    /// The names left, with their part of the default blob.
    pub remaining: SymbolNames,
    /// How many `OpSpecConstant*` became constants.
    pub replaced: usize,
    /// How many `OpSpecConstantOp`s were folded into constants.
    pub folded: usize,
    /// `OpSpecConstantOp`s with constant operands left as they are (an operation not folded).
    pub not_folded: Vec<String>,
}

/// Specializes `module` (see the module docs). Errors name the constant.
pub(crate) fn specialize(
    module: &mut Module,
    names: &SymbolNames,
    values: &[(String, Given)],
) -> Result<Specialized> {
    let index = Index::build(module)?;
    let decorations = Decorations::scan(module, &index);
    let mut trees = Trees::new(module, &index, &decorations);
    let roots = trees.roots();
    let named = constants::named(&mut trees, &roots, names);
    drop(trees);
    // 1. The value of each SpecId.
    let mut chosen: IdMap<u32, Value> = IdMap::default();
    let mut errors = Vec::new();
    for (name, given) in values {
        let Some(c) = named.iter().find(|c| &c.name == name) else {
            errors.push(format!(
                "unknown spec constant '{name}' (not in {})",
                names.source
            ));
            continue;
        };
        let Some(tree) = &c.tree else {
            errors.push(format!(
                "spec constant '{name}' (SpecIds {:?}) is not in the module",
                c.spec_ids
            ));
            continue;
        };
        if let Some(m) = &c.mismatch {
            errors.push(format!(
                "spec constant '{name}': {} does not describe this module's constant ({m})",
                names.source
            ));
            continue;
        }
        if let Err(e) = values_of(tree, given, &mut chosen) {
            errors.push(format!("spec constant '{name}' ({}): {e}", tree.ty));
        }
    }
    if !errors.is_empty() {
        return Err(Error::Specialize(errors));
    }
    // 2. Scalars become constants.
    let mut replaced = 0;
    let mut fixed: IdMap<u32, Value> = IdMap::default();
    for i in 0..index.annotation_end.min(module.len()) {
        let w = module.original(i);
        if inst::is(w, Op::Decorate)
            && w.len() >= 4
            && w[2] == Decoration::SpecId as u32
            && chosen.contains_key(&w[3])
        {
            module.remove(i);
        }
    }
    for i in 0..index.globals_end.min(module.len()) {
        let w = module.original(i).to_vec();
        let op = inst::opcode(&w);
        let is_scalar_spec = op == Op::SpecConstant as u32
            || op == Op::SpecConstantTrue as u32
            || op == Op::SpecConstantFalse as u32;
        if !is_scalar_spec || w.len() < 3 {
            continue;
        }
        let Some(v) = decorations.spec_id.get(&w[2]).and_then(|s| chosen.get(s)) else {
            continue;
        };
        module.replace(i, constant_words(w[1], w[2], v));
        fixed.insert(w[2], *v);
        replaced += 1;
    }
    // 3. Folding.
    let report = fold::fold(module, &index, &decorations)?;
    let bytes = module.to_bytes(index.names_end, index.annotation_end, index.globals_end);
    // 4. What is left.
    let remaining = remaining_names(names, values);
    Ok(Specialized {
        bytes,
        remaining,
        replaced,
        folded: report.folded,
        not_folded: report.not_folded,
    })
}

/// The words of a constant `result` of `ty` holding `v`.
pub(crate) fn constant_words(ty: u32, result: u32, v: &Value) -> Vec<u32> {
    match *v {
        Value::Bool(true) => build(Op::ConstantTrue, &[ty, result]),
        Value::Bool(false) => build(Op::ConstantFalse, &[ty, result]),
        Value::Int { raw, bits, .. } | Value::Float { raw, bits } => {
            let mut ops = vec![ty, result];
            if bits > 32 {
                ops.extend([raw as u32, (raw >> 32) as u32]);
            } else if let Value::Int { .. } = v {
                // Narrow integers are sign-extended into their word when the type is signed,
                // zero-extended otherwise (SPIR-V's rule for literals).
                ops.push(match v.as_i64() {
                    Some(s) if matches!(v, Value::Int { signed: true, .. }) => s as u32,
                    _ => raw as u32,
                });
            } else {
                ops.push(raw as u32);
            }
            build(Op::Constant, &ops)
        }
    }
}

/// Whether a node holds no SpecId (a padding member: not given by the user).
fn is_padding(n: &ConstNode) -> bool {
    n.leaf_spec_ids().is_empty()
}

/// Records the value of every SpecId of `tree` from `given`.
fn values_of(
    tree: &ConstNode,
    given: &Given,
    out: &mut IdMap<u32, Value>,
) -> std::result::Result<(), String> {
    if tree.members.is_empty() {
        let (Some(spec_id), Some(like)) = (tree.spec_id, &tree.default) else {
            return Err(format!(
                "%{} ({}) cannot be given a value",
                tree.id, tree.op
            ));
        };
        let text = given
            .scalar_text()
            .map_err(|what| format!("a scalar ({}) is expected, not {what}", tree.ty))?;
        out.insert(spec_id, parse::parse_scalar(&text, like)?);
        return Ok(());
    }
    let members: Vec<&ConstNode> = tree.members.iter().filter(|m| !is_padding(m)).collect();
    // A wrapper of one member (`sycl::vec` is a class holding a base holding the array) takes
    // its member's value unless it is given as an array of one.
    let given_members = given.members()?;
    if let [only] = members.as_slice() {
        if given_members.as_ref().is_none_or(|items| items.len() != 1) {
            return values_of(only, given, out);
        }
    }
    let items = given_members.ok_or_else(|| {
        format!(
            "a composite is given as a JSON array of its {} members",
            members.len()
        )
    })?;
    if items.len() != members.len() {
        return Err(format!(
            "the composite has {} members ({}), {} given",
            members.len(),
            members
                .iter()
                .map(|m| m.ty.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            items.len()
        ));
    }
    for (k, (m, item)) in members.iter().zip(&items).enumerate() {
        values_of(m, item, out).map_err(|e| format!("member {k}: {e}"))?;
    }
    Ok(())
}

/// The names minus the specialized ones; the blob keeps the others' bytes, in order.
fn remaining_names(names: &SymbolNames, values: &[(String, Given)]) -> SymbolNames {
    let gone = |n: &str| values.iter().any(|(v, _)| v == n);
    let mut blob = Vec::new();
    let mut constants = Vec::new();
    let mut offset = 0u64;
    for c in &names.constants {
        if gone(&c.name) {
            continue;
        }
        if let Some(b) = names.default_bytes(c) {
            blob.extend_from_slice(b);
        }
        let mut kept = c.clone();
        kept.blob_offset = offset;
        offset += c.size();
        constants.push(kept);
    }
    SymbolNames {
        source: names.source.clone(),
        constants,
        default_blob: names.default_blob.as_ref().map(|_| blob),
        sets: names.sets.clone(),
    }
}

/// The property sets of what is left: the sets `names` were read with, the two spec-constant
/// sets made from `names` (in their place; both dropped when no constant is left, as DPC++ writes
/// none for an image without spec constants; where DPC++ puts them when the sets had none: after
/// `[SYCL/device requirements]`, else first).
pub fn property_sets(names: &SymbolNames) -> Vec<crate::properties::PropertySet> {
    use crate::properties::{PropertySet, Value};
    use crate::sidecar::{SPEC_CONSTANTS, SPEC_CONSTANTS_DEFAULT_VALUES};
    let mut descriptors = PropertySet::new(SPEC_CONSTANTS);
    for c in &names.constants {
        let payload: Vec<u8> = c
            .descriptors
            .iter()
            .flat_map(|d| [d.spec_id, d.offset, d.size])
            .flat_map(u32::to_le_bytes)
            .collect();
        descriptors.insert(&c.name, Value::bytes(payload));
    }
    let mut defaults = PropertySet::new(SPEC_CONSTANTS_DEFAULT_VALUES);
    defaults.insert(
        "all",
        Value::bytes(names.default_blob.clone().unwrap_or_default()),
    );
    let mut made = Some(vec![descriptors, defaults]);
    let keep = !names.constants.is_empty();
    let mut out = Vec::new();
    for set in &names.sets {
        if set.name == SPEC_CONSTANTS || set.name == SPEC_CONSTANTS_DEFAULT_VALUES {
            if let (true, Some(sets)) = (keep, made.take()) {
                out.extend(sets);
            }
        } else {
            out.push(set.clone());
        }
    }
    if let (true, Some(sets)) = (keep, made) {
        let at = out
            .iter()
            .position(|s| s.name == crate::properties::DEVICE_REQUIREMENTS)
            .map_or(0, |k| k + 1);
        out.splice(at..at, sets);
    }
    out
}

/// A spec-link JSON sidecar (`spec-link-sidecar/1`, native mode) of `names`.
pub fn sidecar_json(names: &SymbolNames) -> Vec<u8> {
    use crate::sidecar::json::hex;
    let constants: Vec<serde_json::Value> = names
        .constants
        .iter()
        .map(|c| {
            serde_json::json!({
                "symbolic_id": c.name,
                "size": c.size(),
                "spec_ids": c.spec_ids().collect::<Vec<_>>(),
                "descriptors": c.descriptors.iter().map(|d| serde_json::json!({
                    "spec_id": d.spec_id, "offset": d.offset, "size": d.size
                })).collect::<Vec<_>>(),
                "default": names.default_bytes(c).map(hex).unwrap_or_default(),
            })
        })
        .collect();
    let mut sets = serde_json::Map::new();
    for set in property_sets(names) {
        let mut props = serde_json::Map::new();
        for (n, v) in &set.properties {
            let value = match v {
                crate::properties::Value::Bytes { bits, data } => {
                    let mut raw = bits.to_le_bytes().to_vec();
                    raw.extend_from_slice(data);
                    serde_json::json!({ "type": "byte_array", "hex": hex(&raw) })
                }
                crate::properties::Value::Uint32(x) => {
                    serde_json::json!({"type": "uint32", "value": x})
                }
            };
            props.insert(n.clone(), value);
        }
        sets.insert(set.name.clone(), serde_json::Value::Object(props));
    }
    let doc = serde_json::json!({
        "format": crate::sidecar::json::FORMAT,
        "mode": "native",
        "spec_constants": constants,
        "default_values": hex(names.default_blob.as_deref().unwrap_or_default()),
        "property_sets": sets,
    });
    let mut out = serde_json::to_vec_pretty(&doc).unwrap_or_default();
    out.push(b'\n');
    out
}

/// Options of [`run`].
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// When to run `spirv-val` on the output.
    pub validation: crate::Validation,
    /// `--target-env` for spirv-val; derived from the module when `None`.
    pub target_env: Option<String>,
}

/// [`Specialized`] with what validation said.
#[non_exhaustive]
pub struct Run {
    /// The specialized module and the names left.
    pub specialized: Specialized,
    /// Whether the input had marker calls (it was lowered first).
    pub lowered_first: bool,
    /// The target environment `spirv-val` ran with, if it ran.
    pub validated_with: Option<String>,
    /// Notes and warnings (e.g. a validation error inherited from the input).
    pub diagnostics: Vec<crate::Diagnostic>,
}

/// Specializes one module given as bytes: a native image with its names, or a module with
/// marker calls, lowered (native mode, first-use SpecIds) and specialized in one step (its names
/// are lowering's). The output is validated with lowering's policy against the module it was
/// specialized from.
pub fn run(
    name: &str,
    bytes: Vec<u8>,
    names: Option<SymbolNames>,
    values: &[(String, Given)],
    options: &RunOptions,
) -> Result<Run> {
    let in_file = |e: Error| Error::InFile {
        file: name.to_string(),
        source: Box::new(e),
    };
    let module = Module::from_bytes(&bytes).map_err(in_file)?;
    let has_markers = crate::markers::may_have_markers(&module) && {
        let index = Index::build(&module).map_err(in_file)?;
        !crate::markers::find_markers(&module, &index)
            .map_err(in_file)?
            .calls
            .is_empty()
    };
    let mut diagnostics = Vec::new();
    let (mut module, names) = if has_markers {
        // The input's other property sets (a DPC++ image with its markers: device requirements,
        // symbols, …) describe the lowered image too; spec constants it names would not.
        let carried = match names {
            Some(n) if !n.constants.is_empty() => {
                return Err(Error::Unsupported(format!(
                    "{name} has marker calls: its spec constants are named by lowering, not by {}",
                    n.source
                )))
            }
            Some(n) => Some(n.sets),
            None => None,
        };
        let lowering = crate::Options {
            validation: options.validation,
            target_env: options.target_env.clone(),
            sidecars: false,
            pass_through: false,
            ..crate::Options::default()
        };
        let out = crate::process_owned(vec![crate::Input::from_bytes(name, bytes)], &lowering)?;
        diagnostics.extend(out.diagnostics.iter().cloned());
        let mut prop = Vec::new();
        out.write_prop(&mut prop).map_err(Error::Write)?;
        let mut names = SymbolNames::from_prop_text(&format!("{name} (lowered)"), &prop)?;
        if let Some(sets) = carried {
            names.sets = sets;
        }
        let lowered = out.module.to_bytes()?;
        (Module::from_bytes(&lowered).map_err(in_file)?, names)
    } else {
        let names = names.ok_or_else(|| {
            Error::Unsupported(format!(
                "{name} has no marker calls: give its property sets (--input-prop) to name its spec constants"
            ))
        })?;
        (module, names)
    };
    let specialized = specialize(&mut module, &names, values).map_err(in_file)?;
    let validated_with = validate(&module, &specialized.bytes, options, &mut diagnostics)?;
    Ok(Run {
        specialized,
        lowered_first: has_markers,
        validated_with,
        diagnostics,
    })
}

/// Runs spirv-val on the output with lowering's policy (see [`crate::validate`]): an error the
/// module had before specializing, or that shows once the instructions specializing rewrote
/// are set aside, is a warning; any other fails the run.
fn validate(
    module: &Module,
    output: &[u8],
    options: &RunOptions,
    diagnostics: &mut Vec<crate::Diagnostic>,
) -> Result<Option<String>> {
    use crate::validate as val;
    use crate::Validation;
    if options.validation == Validation::Never {
        return Ok(None);
    }
    if let Some(why) = val::unavailable() {
        diagnostics.push(val::when_unavailable(
            options.validation,
            why,
            crate::diagnostic::Validated::Specialized,
        )?);
        return Ok(None);
    }
    let kernel = module.declares_capability(spirv::Capability::Kernel);
    let env = options
        .target_env
        .clone()
        .unwrap_or_else(|| val::default_target_env(module.version(), kernel));
    let input = module.original_bytes();
    let mut lowered = |_: usize| {
        Some(val::Lowered {
            gone: (0..module.len()).map(|i| !module.survives(i)).collect(),
            same_ids: true,
        })
    };
    let verdict = val::check(output, &[&input], &env, &mut lowered)?;
    diagnostics.extend(verdict.warning(crate::diagnostic::Validated::Specialized, &env));
    Ok(Some(env))
}
