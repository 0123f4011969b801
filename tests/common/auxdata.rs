//! Adds `NonSemantic.AuxData` to a module the way the SPIRV-LLVM-Translator writes it with
//! `--spirv-preserve-auxdata` (`transAuxDataInst`): `OpExtension "SPV_KHR_non_semantic_info"`
//! (below SPIR-V 1.6), `OpExtInstImport "NonSemantic.AuxData"`, the names and values as
//! `OpString`s in the debug section, integer and boolean values as constants, and one
//! `OpExtInst %void %_ %set N %function %name [values…]` per entry after the global
//! declarations, before the first function (`N` = 0 FunctionMetadata, 1 FunctionAttribute).
//!
//! Works on words (spirv-dis rejects DPC++'s capability 6146). Functions are named by their
//! `OpEntryPoint` name, `OpName` or linkage name; `*` stands for every function definition.

/// A metadata value.
#[derive(Clone, Debug)]
pub enum Md {
    I32(i32),
    Bool(bool),
    Str(&'static str),
}

/// One AuxData entry.
#[derive(Clone, Debug)]
pub enum Aux {
    /// `FunctionAttribute`: name and value (`""`: none).
    Attr(&'static str, &'static str, &'static str),
    /// `FunctionMetadata`: name and values.
    Meta(&'static str, &'static str, Vec<Md>),
    /// A raw `OpExtInst` of the set with these operands after the instruction number (for
    /// entries that do not decode).
    Raw(u32, Vec<RawOp>),
}

/// An operand of [`Aux::Raw`].
#[derive(Clone, Debug)]
pub enum RawOp {
    /// The first function definition.
    Function,
    /// The `OpTypeVoid` (an id that is not a function).
    Void,
    /// A string.
    Str(&'static str),
    /// An integer constant.
    I32(i32),
    /// An id below the bound that nothing defines.
    Undefined,
}

fn string_words(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while bytes.len() % 4 != 0 {
        bytes.push(0);
    }
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn read_string(words: &[u32]) -> String {
    let mut out = Vec::new();
    'w: for w in words {
        for b in w.to_le_bytes() {
            if b == 0 {
                break 'w;
            }
            out.push(b);
        }
    }
    String::from_utf8(out).unwrap()
}

fn inst(op: u32, operands: &[u32]) -> Vec<u32> {
    let mut v = vec![((operands.len() as u32 + 1) << 16) | op];
    v.extend_from_slice(operands);
    v
}

/// `words` with `entries` added as AuxData.
pub fn add(words: &[u32], entries: &[Aux]) -> Vec<u32> {
    let header = &words[..5];
    let mut insts: Vec<Vec<u32>> = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        assert!(n > 0, "zero word count at {i}");
        insts.push(words[i..i + n].to_vec());
        i += n;
    }
    let mut bound = header[3];
    let mut fresh = || {
        bound += 1;
        bound - 1
    };
    let mut names: std::collections::HashMap<String, u32> = Default::default();
    let mut definitions = Vec::new();
    let (mut void, mut int32, mut boolean): (Option<u32>, Option<u32>, Option<u32>) =
        (None, None, None);
    for (k, w) in insts.iter().enumerate() {
        match w[0] & 0xffff {
            15 => {
                names.insert(read_string(&w[3..]), w[2]);
            }
            5 => {
                names.entry(read_string(&w[2..])).or_insert(w[1]);
            }
            71 if w[2] == 41 => {
                names.entry(read_string(&w[3..])).or_insert(w[1]);
            }
            19 => void = Some(w[1]),
            21 if w[2] == 32 && w[3] == 0 => int32 = int32.or(Some(w[1])),
            20 => boolean = Some(w[1]),
            54 => {
                let declaration = insts[k + 1..]
                    .iter()
                    .find(|n| n[0] & 0xffff != 55)
                    .is_some_and(|n| n[0] & 0xffff == 56);
                if !declaration {
                    definitions.push(w[2]);
                }
            }
            _ => {}
        }
    }
    let function = |name: &str| -> u32 {
        *names
            .get(name)
            .unwrap_or_else(|| panic!("no function named {name}"))
    };
    let first_function = insts.iter().position(|w| w[0] & 0xffff == 54).unwrap();
    let mut types = Vec::new();
    let void = void.unwrap_or_else(|| {
        let id = fresh();
        types.push(inst(19, &[id]));
        id
    });
    let set = fresh();
    let mut strings: Vec<(String, u32)> = Vec::new();
    let mut string = |s: &str, fresh: &mut dyn FnMut() -> u32| -> u32 {
        if let Some((_, id)) = strings.iter().find(|(t, _)| t == s) {
            return *id;
        }
        let id = fresh();
        strings.push((s.to_string(), id));
        id
    };
    let mut constants = Vec::new();
    let mut ext_insts = Vec::new();
    for e in entries {
        let (targets, number, mut operands): (Vec<u32>, u32, Vec<u32>) = match e {
            Aux::Attr(f, name, value) => {
                let mut ops = vec![string(name, &mut fresh)];
                if !value.is_empty() {
                    ops.push(string(value, &mut fresh));
                }
                (targets(f, &definitions, &function), 1, ops)
            }
            Aux::Meta(f, name, values) => {
                let mut ops = vec![string(name, &mut fresh)];
                for v in values {
                    ops.push(match v {
                        Md::Str(s) => string(s, &mut fresh),
                        Md::I32(x) => {
                            let t = *int32.get_or_insert_with(|| {
                                let id = fresh();
                                types.push(inst(21, &[id, 32, 0]));
                                id
                            });
                            let id = fresh();
                            constants.push(inst(43, &[t, id, *x as u32]));
                            id
                        }
                        Md::Bool(b) => {
                            let t = *boolean.get_or_insert_with(|| {
                                let id = fresh();
                                types.push(inst(20, &[id]));
                                id
                            });
                            let id = fresh();
                            constants.push(inst(if *b { 41 } else { 42 }, &[t, id]));
                            id
                        }
                    });
                }
                (targets(f, &definitions, &function), 0, ops)
            }
            Aux::Raw(number, ops) => {
                let mut words = Vec::new();
                for o in ops {
                    words.push(match o {
                        RawOp::Function => definitions[0],
                        RawOp::Void => void,
                        RawOp::Str(s) => string(s, &mut fresh),
                        RawOp::I32(x) => {
                            let t = *int32.get_or_insert_with(|| {
                                let id = fresh();
                                types.push(inst(21, &[id, 32, 0]));
                                id
                            });
                            let id = fresh();
                            constants.push(inst(43, &[t, id, *x as u32]));
                            id
                        }
                        RawOp::Undefined => fresh(),
                    });
                }
                (vec![u32::MAX], *number, words)
            }
        };
        for t in targets {
            let id = fresh();
            let mut ops = vec![void, id, set, number];
            if t != u32::MAX {
                ops.push(t);
            }
            ops.append(&mut operands.clone());
            ext_insts.push(inst(12, &ops));
        }
        operands.clear();
    }
    // Assemble: header, preamble (+ extension, + import), strings, the rest, new types and
    // constants and the AuxData before the first function.
    let version = header[1];
    let mut out: Vec<Vec<u32>> = Vec::new();
    let preamble_end = insts
        .iter()
        .position(|w| !matches!(w[0] & 0xffff, 17 | 10 | 11 | 14 | 15 | 16 | 331))
        .unwrap();
    let import_at = insts[..preamble_end]
        .iter()
        .position(|w| w[0] & 0xffff == 14)
        .unwrap();
    let extension_at = insts[..preamble_end]
        .iter()
        .position(|w| matches!(w[0] & 0xffff, 11 | 14))
        .unwrap();
    for (k, w) in insts.iter().enumerate() {
        if k == extension_at && version < 0x0001_0600 {
            let mut ops = Vec::new();
            ops.extend(string_words("SPV_KHR_non_semantic_info"));
            out.push(inst(10, &ops));
        }
        if k == import_at {
            let mut ops = vec![set];
            ops.extend(string_words("NonSemantic.AuxData"));
            out.push(inst(11, &ops));
        }
        if k == preamble_end {
            for (s, id) in &strings {
                let mut ops = vec![*id];
                ops.extend(string_words(s));
                out.push(inst(7, &ops));
            }
        }
        if k == first_function {
            out.append(&mut types);
            out.append(&mut constants);
            out.append(&mut ext_insts);
        }
        out.push(w.clone());
    }
    let mut words_out = header.to_vec();
    words_out[3] = bound;
    for w in out {
        words_out.extend(w);
    }
    words_out
}

fn targets(f: &str, definitions: &[u32], function: &dyn Fn(&str) -> u32) -> Vec<u32> {
    if f == "*" {
        definitions.to_vec()
    } else {
        vec![function(f)]
    }
}
