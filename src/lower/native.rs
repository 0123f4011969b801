//! Native lowering: marker calls become SPIR-V specialization constants — or, in
//! default-values mode, ordinary constants holding the defaults.
//!
//! Algorithm: for each symbolic ID (in SpecId order) emit, once per module, one `OpSpecConstant`
//! (`OpSpecConstantTrue/False` for booleans) per leaf with its default bits and an
//! `OpDecorate … SpecId`, an `OpConstantNull` per padding element, and an
//! `OpSpecConstantComposite` per aggregate level. Each call is then removed and its result
//! replaced by the spec constant; a call through an sret pointer becomes an `OpStore` of the
//! composite into that pointer.
//!
//! Preconditions: `markers` and `map` come from this module. Postconditions: no marker call is
//! left; the returned map lists every call result to replace; nothing else is removed (that is
//! cleanup's job).

use super::Replacements;
use crate::error::{Error, Result};
use crate::markers::Markers;
use crate::module::ids::IdAllocator;
use crate::module::inst::{self, build};
use crate::module::intern::Intern;
use crate::module::Module;
use crate::specmap::{Scalar, SpecMap, SpecNode};
use spirv::{Decoration, Op};

/// What the marker calls become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstKind {
    /// `OpSpecConstant*` + `SpecId` (native mode).
    Spec,
    /// `OpConstant*` with the default values, interned (default-values mode).
    Default,
}

/// Lowers every marker call of `markers` to constants (see the module docs).
pub fn lower_native(
    module: &mut Module,
    markers: &Markers,
    map: &SpecMap,
    ids: &mut IdAllocator,
    intern: &mut Intern,
    kind: ConstKind,
) -> Result<Replacements> {
    let mut roots = Vec::with_capacity(map.constants.len());
    for c in &map.constants {
        let root = match kind {
            ConstKind::Spec => emit(module, map, ids, intern, &c.tree),
            ConstKind::Default => emit_default(module, map, ids, intern, &c.tree),
        };
        roots.push(root.map_err(|e| match e {
            // (An instruction too wide: say which constant.)
            Error::Lower(m) => Error::Lower(format!(
                "spec constant \"{}\" ({}): {m}",
                c.symbolic_id, c.type_name
            )),
            e => e,
        })?);
    }
    let mut repl = Replacements::default();
    for call in &markers.calls {
        let Some(k) = map.constant_index(call.symbol) else {
            continue;
        };
        let root = roots[k];
        match call.sret {
            None => {
                repl.insert(call.result, root);
                module.remove(call.inst as usize);
            }
            Some(ptr) => module.replace(call.inst as usize, build(Op::Store, &[ptr, root])),
        }
    }
    Ok(repl)
}

/// Literal words of a scalar default (little-endian bytes; narrower signed integers are
/// sign-extended as SPIR-V requires).
pub fn literal_words(scalar: Scalar, bytes: &[u8]) -> Vec<u32> {
    let mut b = [0u8; 8];
    b[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
    let v = u64::from_le_bytes(b);
    let bits = bytes.len() as u32 * 8;
    let v = match scalar {
        Scalar::Int { signed: true, .. } if bits < 32 && bits > 0 && (v >> (bits - 1)) & 1 == 1 => {
            v | (u32::MAX as u64 & !((1u64 << bits) - 1))
        }
        _ => v,
    };
    if bytes.len() > 4 {
        vec![v as u32, (v >> 32) as u32]
    } else {
        vec![v as u32]
    }
}

fn emit(
    module: &mut Module,
    map: &SpecMap,
    ids: &mut IdAllocator,
    intern: &mut Intern,
    node: &SpecNode,
) -> Result<u32> {
    Ok(match node {
        SpecNode::Leaf {
            ty,
            scalar,
            spec_id,
            default,
            ..
        } => {
            let id = ids.alloc()?;
            let words = match scalar {
                Scalar::Bool if default[0] != 0 => build(Op::SpecConstantTrue, &[*ty, id]),
                Scalar::Bool => build(Op::SpecConstantFalse, &[*ty, id]),
                _ => {
                    let mut ops = vec![*ty, id];
                    ops.extend(literal_words(*scalar, node.default_bytes()));
                    build(Op::SpecConstant, &ops)
                }
            };
            module.append_global(&words);
            module.append_annotation(&build(
                Op::Decorate,
                &[id, Decoration::SpecId as u32, *spec_id],
            ));
            id
        }
        SpecNode::Padding { ty, .. } => {
            intern.get(module, ids, Op::ConstantNull, Some(*ty), &[])?
        }
        SpecNode::Composite { ty, .. } => {
            let mut ops = vec![*ty, 0];
            for c in map.children(node) {
                ops.push(emit(module, map, ids, intern, c)?);
            }
            let mut words = inst::try_build(Op::SpecConstantComposite, &ops)?;
            let id = ids.alloc()?;
            words[2] = id;
            module.append_global(&words);
            id
        }
    })
}

/// Emits `node` as ordinary constants with its default values (interned: equal values share ids).
fn emit_default(
    module: &mut Module,
    map: &SpecMap,
    ids: &mut IdAllocator,
    intern: &mut Intern,
    node: &SpecNode,
) -> Result<u32> {
    match node {
        SpecNode::Leaf {
            ty,
            scalar: Scalar::Bool,
            default,
            ..
        } => {
            let op = if default[0] != 0 {
                Op::ConstantTrue
            } else {
                Op::ConstantFalse
            };
            intern.get(module, ids, op, Some(*ty), &[])
        }
        SpecNode::Leaf { ty, scalar, .. } => intern.get(
            module,
            ids,
            Op::Constant,
            Some(*ty),
            &literal_words(*scalar, node.default_bytes()),
        ),
        SpecNode::Padding { ty, .. } => intern.get(module, ids, Op::ConstantNull, Some(*ty), &[]),
        SpecNode::Composite { ty, .. } => {
            let children = map.children(node);
            let mut parts = Vec::with_capacity(children.len());
            for c in children {
                parts.push(emit_default(module, map, ids, intern, c)?);
            }
            intern.get(module, ids, Op::ConstantComposite, Some(*ty), &parts)
        }
    }
}
