//! `NonSemantic.AuxData`: the LLVM function attributes and metadata the SPIRV-LLVM-Translator
//! keeps with `--spirv-preserve-auxdata` (DPC++'s `-fsycl-device-obj=spirv` writes its device
//! objects that way), read back for the properties the SPIR-V itself does not hold.
//!
//! Encoding (SPIRV-LLVM-Translator `LLVMToSPIRVBase::transAuxDataInst`, instruction numbers from
//! `lib/SPIRV/libSPIRV/NonSemantic.AuxData.h`): the module imports the set
//! (`OpExtInstImport "NonSemantic.AuxData"`; extension `SPV_KHR_non_semantic_info` below SPIR-V
//! 1.6), and after the global declarations, before the first function, holds one
//! `OpExtInst %void %_ %set N operands…` per entry, every operand an id:
//!
//! * 0 `FunctionMetadata %function %name %values…`: one LLVM metadata node of the function
//!   (`!spirv.Decorations`, `!spirv.ParameterDecorations` and `!dbg` are not written); `%name`
//!   an `OpString`; each value an `OpString` (an `MDString`) or the translated constant (a
//!   `ValueAsMetadata`: `OpConstant`, `OpConstantTrue`/`False`…). Node operands are not written.
//! * 1 `FunctionAttribute %function %name [%value]`: a string attribute `"name"="value"` (the
//!   value left out when empty), or an enum attribute as one string (`nounwind`).
//! * 2 `GlobalVariableMetadata`, 3 `GlobalVariableAttribute` (the same for a variable), 4
//!   `Linkage`, 5 `InstructionMetadata`: not read (no property comes from them).
//!
//! [`AuxData::read`] collects instructions 0 and 1 of the global section by function id.
//! Postcondition: an entry's target is a function of the module, its name a string. An entry
//! that does not decode (too few operands, a target that is not a function, a name or
//! attribute value that is not an `OpString`, a value that is not defined) is skipped with a
//! warning ([`Diagnostic::AuxDataIgnored`]): the properties it would have given are then left out as without
//! AuxData, never guessed.
//!
//! The split (`crate::split`) reads the linked module once, before extracting images (function
//! ids are kept by the extraction), and leaves the AuxData instructions of the global section
//! out of the images, with the set's import and the strings only they use, as DPC++'s post-link
//! images have none unless `-fsycl-preserve-device-nonsemantic-metadata` is given
//! ([`AuxData::dropped`]); an AuxData instruction in a function body (`InstructionMetadata`)
//! stays, and the import with it.

use crate::diagnostic::Diagnostic;
use crate::module::idhash::{IdMap, IdSet};
use crate::module::index::Index;
use crate::module::{inst, Module};
use spirv::Op;

/// The instruction set's name.
pub(crate) const SET_NAME: &[u8] = b"NonSemantic.AuxData";
const FUNCTION_METADATA: u32 = 0;
const FUNCTION_ATTRIBUTE: u32 = 1;

/// A metadata value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MdValue {
    /// An `MDString`.
    String(String),
    /// An integer constant: its value sign-extended from `bits`, and `bits`.
    Int { value: i64, bits: u32 },
    /// A boolean constant.
    Bool(bool),
    /// Any other value (its id).
    Other(u32),
}

impl MdValue {
    /// The value as LLVM's `getZExtValue` gives it.
    pub(crate) fn zext(&self) -> Option<u64> {
        match *self {
            MdValue::Int { value, bits } if bits < 64 => Some(value as u64 & ((1u64 << bits) - 1)),
            MdValue::Int { value, .. } => Some(value as u64),
            MdValue::Bool(b) => Some(b as u64),
            _ => None,
        }
    }

    /// The value as LLVM's `getSExtValue` gives it.
    pub(crate) fn sext(&self) -> Option<i64> {
        match *self {
            MdValue::Int { value, .. } => Some(value),
            MdValue::Bool(b) => Some(-(b as i64)),
            _ => None,
        }
    }
}

/// The AuxData of a module, by function id.
#[derive(Clone, Debug, Default)]
pub(crate) struct AuxData {
    /// Function attributes `(name, value)` in the module's order (value empty when none).
    attributes: IdMap<u32, Vec<(String, String)>>,
    /// Function metadata `(name, values)` in the module's order.
    metadata: IdMap<u32, Vec<(String, Vec<MdValue>)>>,
    /// Positions of the instructions an image leaves out: the AuxData `OpExtInst`s, the set's
    /// import and the `OpString`s nothing else uses.
    dropped: Vec<u32>,
}

/// The warning for an AuxData entry that does not decode.
fn malformed(position: usize, reason: &'static str) -> Diagnostic {
    Diagnostic::AuxDataIgnored { position, reason }
}

impl AuxData {
    /// Whether the module carried any function attribute or metadata.
    pub(crate) fn is_empty(&self) -> bool {
        self.attributes.is_empty() && self.metadata.is_empty()
    }

    /// Whether AuxData describes function `f` (the translator wrote at least one entry for it:
    /// clang gives every function definition attributes).
    pub(crate) fn describes(&self, f: u32) -> bool {
        self.attributes.contains_key(&f) || self.metadata.contains_key(&f)
    }

    /// The value of string attribute `name` of function `f` (empty when it has no value).
    pub(crate) fn attribute(&self, f: u32, name: &str) -> Option<&str> {
        self.attributes
            .get(&f)?
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The values of metadata `name` of function `f`.
    pub(crate) fn metadata(&self, f: u32, name: &str) -> Option<&[MdValue]> {
        self.metadata
            .get(&f)?
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }

    /// The integers of metadata `name` of function `f` (`None` when it has none, or a value is
    /// not an integer).
    pub(crate) fn integers(&self, f: u32, name: &str) -> Option<Vec<&MdValue>> {
        let values = self.metadata(f, name)?;
        values
            .iter()
            .all(|v| v.zext().is_some())
            .then(|| values.iter().collect())
    }

    /// Gives each kernel the entries of its body where the translator wrapped it (the
    /// `OpEntryPoint` function calls a function exported under the kernel's name, and the LLVM
    /// function's attributes and metadata went to that one).
    pub(crate) fn follow_kernel_bodies(&mut self, index: &Index) {
        let exported: std::collections::HashMap<&[u8], u32> = index
            .linkage
            .iter()
            .filter(|(id, l)| l.kind == 0 && index.function_by_id.contains_key(id))
            .map(|(&id, l)| (l.name.as_slice(), id))
            .collect();
        for (&kernel, name) in &index.entry_names {
            let Some(&body) = exported.get(name.as_slice()) else {
                continue;
            };
            if body == kernel || self.describes(kernel) {
                continue;
            }
            if let Some(a) = self.attributes.get(&body).cloned() {
                self.attributes.insert(kernel, a);
            }
            if let Some(m) = self.metadata.get(&body).cloned() {
                self.metadata.insert(kernel, m);
            }
        }
    }

    /// Instruction positions the split's images leave out.
    pub(crate) fn dropped(&self) -> &[u32] {
        &self.dropped
    }

    /// Reads the module's AuxData; returns it and a warning per entry that does not decode.
    pub(crate) fn read(module: &Module, index: &Index) -> (AuxData, Vec<Diagnostic>) {
        let mut aux = AuxData::default();
        let mut warnings = Vec::new();
        let mut sets: IdSet<u32> = IdSet::default();
        let mut set_imports = Vec::new();
        let mut strings: IdMap<u32, (usize, String)> = IdMap::default();
        let end = index.globals_end.min(module.len());
        for i in 0..end {
            let Some(w) = module.inst(i) else { continue };
            if inst::is(w, Op::ExtInstImport)
                && w.get(2..).and_then(inst::read_string).map(|(n, _)| n) == Some(SET_NAME.to_vec())
            {
                sets.insert(w[1]);
                set_imports.push(i as u32);
            } else if inst::is(w, Op::String) && w.len() >= 3 {
                if let Some((s, _)) = inst::read_string(&w[2..]) {
                    strings.insert(w[1], (i, String::from_utf8_lossy(&s).into_owned()));
                }
            }
        }
        if sets.is_empty() {
            return (aux, warnings);
        }
        let mut aux_strings: IdSet<u32> = IdSet::default();
        for i in index.annotation_end.min(end)..end {
            let Some(w) = module.inst(i) else { continue };
            if !inst::is(w, Op::ExtInst) || !w.get(3).is_some_and(|s| sets.contains(s)) {
                continue;
            }
            aux.dropped.push(i as u32);
            let (number, operands) = (w.get(4).copied(), w.get(5..).unwrap_or(&[]));
            if !matches!(number, Some(FUNCTION_METADATA | FUNCTION_ATTRIBUTE)) {
                continue;
            }
            aux_strings.extend(operands.iter().copied().filter(|o| strings.contains_key(o)));
            let decoded = decode(
                module,
                index,
                &strings,
                number == Some(FUNCTION_ATTRIBUTE),
                operands,
            );
            match decoded {
                Ok((f, Entry::Attribute(name, value))) => {
                    aux.attributes.entry(f).or_default().push((name, value))
                }
                Ok((f, Entry::Metadata(name, values))) => {
                    aux.metadata.entry(f).or_default().push((name, values))
                }
                Err(why) => warnings.push(malformed(i, why)),
            }
        }
        // What else uses the set (an `InstructionMetadata` entry in a function body stays, and
        // so does the import then) and the strings (those only AuxData uses go with it).
        let dropped: IdSet<u32> = aux.dropped.iter().copied().collect();
        let mut set_used = false;
        for i in 0..module.len() {
            if dropped.contains(&(i as u32)) {
                continue;
            }
            let Some(w) = module.inst(i) else { continue };
            if inst::is(w, Op::String) || inst::is(w, Op::ExtInstImport) {
                continue;
            }
            set_used |= inst::is(w, Op::ExtInst) && w.get(3).is_some_and(|s| sets.contains(s));
            if !aux_strings.is_empty() {
                index.visit_use_ids(module, w, |u| {
                    aux_strings.remove(&u);
                });
            }
        }
        if !set_used {
            aux.dropped.extend(set_imports);
        }
        aux.dropped.extend(
            aux_strings
                .iter()
                .filter_map(|s| strings.get(s).map(|&(p, _)| p as u32)),
        );
        aux.dropped.sort_unstable();
        (aux, warnings)
    }
}

/// One decoded entry.
enum Entry {
    Attribute(String, String),
    Metadata(String, Vec<MdValue>),
}

/// Decodes the operands of a `FunctionAttribute` (`attribute`) or `FunctionMetadata` entry.
fn decode(
    module: &Module,
    index: &Index,
    strings: &IdMap<u32, (usize, String)>,
    attribute: bool,
    operands: &[u32],
) -> Result<(u32, Entry), &'static str> {
    let [target, name, rest @ ..] = operands else {
        return Err("fewer than two operands");
    };
    if !index.function_by_id.contains_key(target) {
        return Err("its target is not a function");
    }
    let string = |id: &u32| strings.get(id).map(|(_, s)| s.clone());
    let name = string(name).ok_or("its name is not an OpString")?;
    if attribute {
        let value = match rest {
            [] => String::new(),
            [v] => string(v).ok_or("the attribute value is not an OpString")?,
            _ => return Err("a function attribute has more than one value"),
        };
        return Ok((*target, Entry::Attribute(name, value)));
    }
    let mut values = Vec::with_capacity(rest.len());
    for v in rest {
        if let Some(s) = string(v) {
            values.push(MdValue::String(s));
            continue;
        }
        let w = index
            .defs
            .get(v)
            .and_then(|d| module.inst(d))
            .ok_or("a metadata value is not defined")?;
        values.push(constant_value(module, index, w).unwrap_or(MdValue::Other(*v)));
    }
    Ok((*target, Entry::Metadata(name, values)))
}

/// The value of a scalar integer or boolean constant.
fn constant_value(module: &Module, index: &Index, w: &[u32]) -> Option<MdValue> {
    let op = inst::opcode(w);
    if op == Op::ConstantTrue as u32 {
        return Some(MdValue::Bool(true));
    }
    if op == Op::ConstantFalse as u32 {
        return Some(MdValue::Bool(false));
    }
    if op == Op::ConstantNull as u32 {
        let t = index.defs.get(w.get(1)?).and_then(|d| module.inst(d))?;
        return if inst::is(t, Op::TypeBool) {
            Some(MdValue::Bool(false))
        } else if inst::is(t, Op::TypeInt) {
            Some(MdValue::Int {
                value: 0,
                bits: *t.get(2)?,
            })
        } else {
            None
        };
    }
    if op != Op::Constant as u32 {
        return None;
    }
    let t = index.defs.get(w.get(1)?).and_then(|d| module.inst(d))?;
    if !inst::is(t, Op::TypeInt) {
        return None;
    }
    let bits = *t.get(2)?;
    let raw = match (bits, w.get(3..)?) {
        (1..=32, [lo, ..]) => *lo as u64,
        (33..=64, [lo, hi, ..]) => (*hi as u64) << 32 | *lo as u64,
        _ => return None,
    };
    let shift = 64 - bits;
    Some(MdValue::Int {
        value: ((raw << shift) as i64) >> shift,
        bits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zext_and_sext_of_a_negative_i32() {
        let v = MdValue::Int {
            value: -1,
            bits: 32,
        };
        assert_eq!(v.zext(), Some(0xffff_ffff));
        assert_eq!(v.sext(), Some(-1));
    }
}
