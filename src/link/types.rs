//! Types of the linked module as the symbols phase compares and spells them: the type of a
//! symbol, whether two types differ only in pointee types (an import the adapt phase can make
//! fit), and a readable spelling for messages. Reads the state, never edits it.
//!
//! Preconditions: `defs` is filled (symbols phase); ids are looked up through the replacements
//! so far.

use super::state::{resolve, Insts, Replacements, State};
use crate::module::index::Defs;
use crate::module::inst;
use spirv::Op;

/// The (replaced) type of a symbol: a function's function type, a variable's pointer type.
pub(super) fn type_of(state: &State, id: u32) -> Option<u32> {
    let n = state.defs.get(&id)?;
    let w = state.insts.words(n);
    let op = inst::opcode(w);
    let ty = if op == Op::Function as u32 {
        *w.get(4)?
    } else {
        *w.get(1)?
    };
    Some(resolve(&state.replace, ty))
}

/// The words of the definition of type `t` (after the replacements made so far).
fn type_words(state: &State, t: u32) -> Option<&[u32]> {
    let n = state.defs.get(&resolve(&state.replace, t))?;
    Some(state.insts.words(n))
}

/// Whether two types are pointers of the same storage class (to different pointees).
pub(super) fn same_storage_pointers(state: &State, a: u32, b: u32) -> bool {
    let words = |t: u32| type_words(state, t);
    match (words(a), words(b)) {
        (Some(x), Some(y)) => {
            inst::is(x, Op::TypePointer) && inst::is(y, Op::TypePointer) && x.get(2) == y.get(2)
        }
        _ => false,
    }
}

/// Whether two function types differ only in the pointee types of pointers (same storage
/// classes, same everything else).
pub(super) fn differ_only_in_pointees(state: &State, a: u32, b: u32) -> bool {
    let words = |t: u32| type_words(state, t);
    let (Some(wa), Some(wb)) = (words(a), words(b)) else {
        return false;
    };
    let op = inst::opcode;
    if op(wa) != Op::TypeFunction as u32
        || op(wb) != Op::TypeFunction as u32
        || wa.len() != wb.len()
    {
        return false;
    }
    wa[2..].iter().zip(&wb[2..]).all(|(&x, &y)| {
        resolve(&state.replace, x) == resolve(&state.replace, y)
            || same_storage_pointers(state, x, y)
    })
}

/// A readable spelling of a type of the linked module, for messages.
pub(super) fn describe_type(state: &State, ty: Option<u32>) -> String {
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
        match inst::op_of(w) {
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
            go(&state.insts, &state.defs, &state.replace, t, 0, &mut out);
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
