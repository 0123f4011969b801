//! Folding spec-constant instructions whose operands are all constants.
//!
//! Algorithm: one pass over the global section in order (operands are defined before use).
//! A constant is an `OpConstant`, `OpConstantTrue/False`, `OpConstantNull`, `OpConstantComposite`
//! or `OpUndef` (after the edits so far). An `OpSpecConstantComposite` of constants becomes
//! `OpConstantComposite`. An `OpSpecConstantOp` of constants becomes the `OpConstant*` it
//! computes when its operation is one of: `IAdd ISub IMul UDiv SDiv UMod SRem SMod
//! ShiftRightLogical ShiftRightArithmetic ShiftLeftLogical BitwiseOr BitwiseXor BitwiseAnd Not
//! SNegate UConvert SConvert LogicalOr LogicalAnd LogicalNot LogicalEqual LogicalNotEqual Select
//! IEqual INotEqual ULessThan SLessThan UGreaterThan SGreaterThan ULessThanEqual
//! SLessThanEqual UGreaterThanEqual SGreaterThanEqual`, on scalar integers and booleans of at
//! most 64 bits, and is defined (no division by zero, no shift by the width or more). Every
//! other one stays as it is (listed in the report).
//!
//! Precondition: `index` and `decorations` are of the module before the edits. Postcondition:
//! only spec-constant instructions of the global section are replaced; ids and types keep.

use super::constant_words;
use crate::error::Result;
use crate::info::constants::Decorations;
use crate::info::value::Value;
use crate::layout::{Layout, TypeKind};
use crate::module::idhash::IdMap;
use crate::module::index::Index;
use crate::module::inst::{self, build};
use crate::module::Module;
use spirv::Op;

/// What folding did.
#[derive(Default)]
pub(crate) struct Report {
    pub folded: usize,
    /// `name = OpOperation` of each `OpSpecConstantOp` of constants left as it is (its `OpName`,
    /// else `%id`).
    pub not_folded: Vec<String>,
}

/// Folds the module's spec-constant instructions (see the module docs).
pub(crate) fn fold(
    module: &mut Module,
    index: &Index,
    decorations: &Decorations,
) -> Result<Report> {
    let mut report = Report::default();
    // Scalar values of the constants met so far; ids known to be constants.
    let mut values: IdMap<u32, Value> = IdMap::default();
    let mut constant: crate::module::idhash::IdSet<u32> = Default::default();
    let mut not_folded = Vec::new();
    let end = index.globals_end.min(module.len());
    for i in 0..end {
        let Some(w) = module.inst(i).map(<[u32]>::to_vec) else {
            continue;
        };
        let op = inst::opcode(&w);
        let (Some(ty), Some(id)) = (inst::result_type(&w), inst::result_id(&w)) else {
            continue;
        };
        match Op::from_u32(op) {
            Some(Op::ConstantTrue) => {
                values.insert(id, Value::Bool(true));
                constant.insert(id);
            }
            Some(Op::ConstantFalse) => {
                values.insert(id, Value::Bool(false));
                constant.insert(id);
            }
            Some(Op::Constant | Op::ConstantNull) => {
                if let Some(v) = scalar(module, index, ty, w.get(3..).unwrap_or(&[])) {
                    values.insert(id, v);
                }
                constant.insert(id);
            }
            Some(Op::ConstantComposite | Op::Undef) => {
                constant.insert(id);
            }
            Some(Op::SpecConstantComposite)
                if !decorations.spec_id.contains_key(&id)
                    && w[3..].iter().all(|m| constant.contains(m)) =>
            {
                let mut ops = vec![ty, id];
                ops.extend_from_slice(&w[3..]);
                module.replace(i, build(Op::ConstantComposite, &ops));
                constant.insert(id);
            }
            Some(Op::SpecConstantOp) if w.len() > 4 => {
                let operands = &w[4..];
                let operation = w[3];
                // Only operations of ids (Select included); others are left.
                if !operands.iter().all(|o| constant.contains(o)) {
                    continue;
                }
                let args: Option<Vec<Value>> =
                    operands.iter().map(|o| values.get(o).copied()).collect();
                let like = scalar(module, index, ty, &[]);
                match (args, like) {
                    (Some(args), Some(like)) => match evaluate(operation, &args, &like) {
                        Some(v) => {
                            module.replace(i, constant_words(ty, id, &v));
                            values.insert(id, v);
                            constant.insert(id);
                            report.folded += 1;
                        }
                        None => not_folded.push((id, operation)),
                    },
                    _ => not_folded.push((id, operation)),
                }
            }
            _ => {}
        }
    }
    let names = debug_names(module, index, &not_folded);
    report.not_folded = not_folded
        .iter()
        .map(|(id, operation)| {
            let name = names.get(id).cloned().unwrap_or_else(|| format!("%{id}"));
            format!("{name} = {}", inst::op_name(*operation))
        })
        .collect();
    Ok(report)
}

/// The `OpName` of each of `ids` that has one.
fn debug_names(module: &Module, index: &Index, ids: &[(u32, u32)]) -> IdMap<u32, String> {
    let wanted: crate::module::idhash::IdSet<u32> = ids.iter().map(|&(id, _)| id).collect();
    let mut names = IdMap::default();
    for i in 0..index.names_end.min(module.len()) {
        let w = module.original(i);
        if inst::is(w, Op::Name) && w.len() > 2 && wanted.contains(&w[1]) {
            if let Some((s, _)) = inst::read_string(&w[2..]) {
                names
                    .entry(w[1])
                    .or_insert_with(|| String::from_utf8_lossy(&s).into_owned());
            }
        }
    }
    names
}

/// A scalar integer, float or bool value of type `ty` from literal words (none: zero).
fn scalar(module: &Module, index: &Index, ty: u32, literal: &[u32]) -> Option<Value> {
    let layout = Layout::new(module, index);
    let raw = literal.first().copied().unwrap_or(0) as u64
        | (literal.get(1).copied().unwrap_or(0) as u64) << 32;
    match layout.kind(ty).ok()? {
        TypeKind::Bool => Some(Value::Bool(false)),
        TypeKind::Int { bits, signed } if (1..=64).contains(&bits) => {
            Some(Value::int(raw, bits, signed))
        }
        TypeKind::Float { bits } if matches!(bits, 16 | 32 | 64) => {
            Some(Value::Float { raw, bits })
        }
        _ => None,
    }
}

/// The result of `operation` on `args`, shaped as `like` (the result type's zero); `None`
/// when it is not folded.
fn evaluate(operation: u32, args: &[Value], like: &Value) -> Option<Value> {
    let op = Op::from_u32(operation)?;
    let bool_of = |v: &Value| match v {
        Value::Bool(b) => Some(*b),
        _ => None,
    };
    let int_of = |v: &Value| match *v {
        Value::Int { raw, bits, .. } => Some((raw, bits, v.as_i64()?)),
        _ => None,
    };
    let result_int = |raw: u64| match *like {
        Value::Int { bits, signed, .. } => Some(Value::int(raw, bits, signed)),
        _ => None,
    };
    let boolean = |b: bool| match like {
        Value::Bool(_) => Some(Value::Bool(b)),
        _ => None,
    };
    match (op, args) {
        (Op::Select, [c, a, b]) => {
            let pick = if bool_of(c)? { a } else { b };
            // (The operands have the result's type.)
            (std::mem::discriminant(pick) == std::mem::discriminant(like)).then_some(*pick)
        }
        (Op::LogicalNot, [a]) => boolean(!bool_of(a)?),
        (Op::LogicalOr | Op::LogicalAnd | Op::LogicalEqual | Op::LogicalNotEqual, [a, b]) => {
            let (a, b) = (bool_of(a)?, bool_of(b)?);
            boolean(match op {
                Op::LogicalOr => a || b,
                Op::LogicalAnd => a && b,
                Op::LogicalEqual => a == b,
                _ => a != b,
            })
        }
        (Op::Not, [a]) => result_int(!int_of(a)?.0),
        (Op::SNegate, [a]) => result_int(int_of(a)?.0.wrapping_neg()),
        (Op::UConvert, [a]) => result_int(int_of(a)?.0),
        (Op::SConvert, [a]) => result_int(int_of(a)?.2 as u64),
        (_, [a, b]) => {
            let ((ua, bits, sa), (ub, _, sb)) = (int_of(a)?, int_of(b)?);
            let compare = |r: bool| boolean(r);
            match op {
                Op::IAdd => result_int(ua.wrapping_add(ub)),
                Op::ISub => result_int(ua.wrapping_sub(ub)),
                Op::IMul => result_int(ua.wrapping_mul(ub)),
                Op::UDiv => result_int(ua.checked_div(ub)?),
                Op::UMod => result_int(ua.checked_rem(ub)?),
                Op::SDiv => result_int(sa.checked_div(sb)? as u64),
                Op::SRem => result_int(sa.checked_rem(sb)? as u64),
                Op::SMod => {
                    let r = sa.checked_rem(sb)?;
                    result_int(
                        (if r != 0 && (r < 0) != (sb < 0) {
                            r + sb
                        } else {
                            r
                        }) as u64,
                    )
                }
                Op::ShiftLeftLogical if ub < bits as u64 => result_int(ua << ub),
                Op::ShiftRightLogical if ub < bits as u64 => result_int(ua >> ub),
                Op::ShiftRightArithmetic if ub < bits as u64 => result_int((sa >> ub) as u64),
                Op::BitwiseOr => result_int(ua | ub),
                Op::BitwiseXor => result_int(ua ^ ub),
                Op::BitwiseAnd => result_int(ua & ub),
                Op::IEqual => compare(ua == ub),
                Op::INotEqual => compare(ua != ub),
                Op::ULessThan => compare(ua < ub),
                Op::UGreaterThan => compare(ua > ub),
                Op::ULessThanEqual => compare(ua <= ub),
                Op::UGreaterThanEqual => compare(ua >= ub),
                Op::SLessThan => compare(sa < sb),
                Op::SGreaterThan => compare(sa > sb),
                Op::SLessThanEqual => compare(sa <= sb),
                Op::SGreaterThanEqual => compare(sa >= sb),
                _ => None,
            }
        }
        _ => None,
    }
}
