//! The structure-aware target: a real module (one of [`crate::seeds::SEEDS`]) edited by a program the
//! fuzzer writes, so that inputs get past the loader and reach marker discovery, numbering and
//! lowering.
//!
//! Input: `[seed, flags, (second seed if flags bit 3), program…]`.
//! - `seed % SEEDS.len()` picks the module;
//! - `flags` bits 0–1: mode (see [`crate::options`]); bit 2: write the result big-endian; bit 3:
//!   link the result with a second, unmutated seed (the next byte picks it; it comes second);
//! - the program is a sequence of records `op, args…` (at most [`MAX_MUTATIONS`]), each reading its
//!   arguments from the bytes that follow (missing bytes read as 0). Instruction and id choices are
//!   indices taken modulo the number of candidates, so every byte string is a valid program.
//!
//! The module is walked as an instruction stream (word count in the high 16 bits); the mutations:
//!
//! | op % 16 | mutation |
//! |---|---|
//! | 0 | flip one bit of a word of an instruction |
//! | 1 | set a word of an instruction to an interesting value or another id |
//! | 2 | truncate the module (at a word, then 0–3 bytes off the end) |
//! | 3 | duplicate an instruction (copy inserted at another position) |
//! | 4 | drop an instruction |
//! | 5 | swap two instructions |
//! | 6 | change a marker call's argument to another id |
//! | 7 | change the type id of an `OpVariable` / `OpFunctionCall` to another type |
//! | 8 | set the id bound |
//! | 9 | replace an id operand of any instruction by another id |
//! | 10 | marker call with the wrong number of arguments (drop the last / append one) |
//! | 11 | set an instruction's word count |
//! | 12 | change an instruction's opcode to another one present in the module |
//! | 13 | change the storage class of an `OpVariable` / `OpTypePointer` |
//! | 14 | retarget an `OpFunctionCall` to another function (a marker, or not) |
//! | 15 | duplicate a marker call in place with a fresh result id (a second call site) |

use rspirv::grammar::{OperandKind, OperandQuantifier, INSTRUCTION_TABLE};
use spec_link::Input;
use std::sync::OnceLock;

/// At most this many records of a program are applied.
pub const MAX_MUTATIONS: usize = 32;

const OP_NAME: u32 = 5;
const OP_DECORATE: u32 = 71;
const OP_FUNCTION: u32 = 54;
const OP_FUNCTION_CALL: u32 = 57;
const OP_VARIABLE: u32 = 59;
const OP_TYPE_POINTER: u32 = 32;
const DECORATION_LINKAGE_ATTRIBUTES: u32 = 41;
const MARKER_PREFIXES: [&str; 2] =
    ["_Z37__sycl_getScalar2020SpecConstantValue", "_Z40__sycl_getComposite2020SpecConstantValue"];

/// What a `mutate` input stands for.
pub struct Decoded {
    pub mode: u8,
    /// The mutated module (first), and the second seed when linking.
    pub inputs: Vec<Input>,
    /// Names of the seeds used.
    pub seeds: Vec<&'static str>,
    /// The mutations applied, in order (for reports).
    pub log: Vec<String>,
}

/// Decodes (and applies) a `mutate` input.
pub fn decode(data: &[u8]) -> Option<Decoded> {
    let seeds = crate::seeds::SEEDS;
    if seeds.is_empty() || data.len() < 2 {
        return None;
    }
    let (name, bytes) = seeds[data[0] as usize % seeds.len()];
    let flags = data[1];
    let mut rest = &data[2..];
    let second = if flags & 8 != 0 {
        let (&b, r) = rest.split_first().unwrap_or((&0, &[]));
        rest = r;
        Some(seeds[b as usize % seeds.len()])
    } else {
        None
    };
    let mut spv = Spv::parse(bytes)?;
    spv.big_endian = flags & 4 != 0;
    let mut cur = Cursor(rest);
    let mut log = Vec::new();
    for _ in 0..MAX_MUTATIONS {
        if cur.0.is_empty() {
            break;
        }
        if let Some(what) = spv.mutate(&mut cur) {
            log.push(what);
        }
    }
    let mut inputs = vec![Input::from_bytes("mutated.spv", spv.to_bytes())];
    let mut names = vec![name];
    if let Some((n2, b2)) = second {
        inputs.push(Input::from_bytes("second.spv", b2.to_vec()));
        names.push(n2);
    }
    Some(Decoded { mode: flags & 3, inputs, seeds: names, log })
}

/// Reads the program's bytes; missing bytes read as 0.
struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, r)) => {
                self.0 = r;
                b
            }
            None => 0,
        }
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    /// An index below `n` (`n > 0`).
    fn index(&mut self, n: usize) -> usize {
        self.u16() as usize % n.max(1)
    }
}

/// Where the ids of an opcode's instructions are (fixed leading operands only).
#[derive(Default)]
struct Shape {
    result_type: Option<usize>,
    result: Option<usize>,
    /// Word positions (1 = first operand) of id operands.
    ids: Vec<usize>,
    /// From this word position on, every word is an id.
    rest_ids_from: Option<usize>,
    is_type: bool,
}

/// Shapes by opcode (dense).
struct Shapes(Vec<Option<Shape>>);

impl Shapes {
    fn get(&self, op: &u32) -> Option<&Shape> {
        self.0.get(*op as usize).and_then(Option::as_ref)
    }
}

fn shapes() -> &'static Shapes {
    static SHAPES: OnceLock<Shapes> = OnceLock::new();
    SHAPES.get_or_init(|| {
        let mut m: Vec<Option<Shape>> = Vec::new();
        for inst in INSTRUCTION_TABLE.iter() {
            let mut s = Shape { is_type: inst.opname.starts_with("OpType"), ..Shape::default() };
            for (k, op) in inst.operands.iter().enumerate() {
                let pos = k + 1;
                let id = matches!(op.kind, OperandKind::IdRef | OperandKind::IdScope | OperandKind::IdMemorySemantics);
                match op.quantifier {
                    OperandQuantifier::One => match op.kind {
                        OperandKind::IdResultType => s.result_type = Some(pos),
                        OperandKind::IdResult => s.result = Some(pos),
                        _ if id => s.ids.push(pos),
                        OperandKind::StorageClass
                        | OperandKind::LiteralInteger
                        | OperandKind::FunctionControl
                        | OperandKind::Capability
                        | OperandKind::AddressingModel
                        | OperandKind::MemoryModel
                        | OperandKind::ExecutionModel
                        | OperandKind::Dim
                        | OperandKind::ImageFormat
                        | OperandKind::AccessQualifier
                        | OperandKind::SourceLanguage
                        | OperandKind::LiteralExtInstInteger
                        | OperandKind::LiteralSpecConstantOpInteger => {}
                        _ => break,
                    },
                    _ => {
                        if id {
                            s.rest_ids_from = Some(pos);
                        }
                        break;
                    }
                }
            }
            let op = inst.opcode as usize;
            if m.len() <= op {
                m.resize_with(op + 1, || None);
            }
            m[op] = Some(s);
        }
        Shapes(m)
    })
}

/// A module as header + instructions (+ the words after the last whole instruction).
#[derive(Clone)]
pub struct Spv {
    pub header: [u32; 5],
    pub insts: Vec<Vec<u32>>,
    pub tail: Vec<u32>,
    /// Keep only this many words.
    pub cut_words: Option<usize>,
    /// Then drop this many bytes off the end.
    pub trim_bytes: usize,
    pub big_endian: bool,
}

/// What the mutations look at, recomputed before each one that needs it.
#[derive(Default)]
struct Facts {
    defined: Vec<u32>,
    types: Vec<u32>,
    functions: Vec<u32>,
    markers: Vec<u32>,
    /// Instruction indices of marker calls.
    marker_calls: Vec<usize>,
    /// Instruction indices of `OpVariable`s and `OpFunctionCall`s.
    typed: Vec<usize>,
    calls: Vec<usize>,
    opcodes: Vec<u32>,
}

/// Whether the literal string in `words` starts with `prefix` (no NUL in `prefix`).
fn starts_with(words: &[u32], prefix: &str) -> bool {
    let p = prefix.as_bytes();
    if words.len() * 4 < p.len() {
        return false;
    }
    p.iter().enumerate().all(|(k, &b)| (words[k / 4] >> (8 * (k % 4))) as u8 == b)
}

impl Spv {
    /// Parses a module of either byte order; `None` without a whole header.
    pub fn parse(bytes: &[u8]) -> Option<Spv> {
        if bytes.len() < 20 {
            return None;
        }
        let mut words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        if words[0] == 0x0302_2307 {
            for w in &mut words {
                *w = w.swap_bytes();
            }
        }
        let header = [words[0], words[1], words[2], words[3], words[4]];
        let mut insts = Vec::new();
        let mut at = 5;
        while at < words.len() {
            let wc = (words[at] >> 16) as usize;
            if wc == 0 || at + wc > words.len() {
                break;
            }
            insts.push(words[at..at + wc].to_vec());
            at += wc;
        }
        let tail = words[at..].to_vec();
        Some(Spv { header, insts, tail, cut_words: None, trim_bytes: 0, big_endian: false })
    }

    /// The module's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut words: Vec<u32> = self.header.to_vec();
        for i in &self.insts {
            words.extend_from_slice(i);
        }
        words.extend_from_slice(&self.tail);
        if let Some(n) = self.cut_words {
            words.truncate(n);
        }
        let mut bytes: Vec<u8> = Vec::with_capacity(words.len() * 4);
        for w in words {
            bytes.extend_from_slice(&if self.big_endian { w.to_be_bytes() } else { w.to_le_bytes() });
        }
        bytes.truncate(bytes.len().saturating_sub(self.trim_bytes));
        bytes
    }

    fn facts(&self) -> Facts {
        let shapes = shapes();
        let mut f = Facts::default();
        for inst in &self.insts {
            let op = inst[0] & 0xffff;
            f.opcodes.push(op);
            let name = match op {
                OP_NAME if inst.len() > 2 => Some((inst[1], &inst[2..])),
                OP_DECORATE if inst.len() > 3 && inst[2] == DECORATION_LINKAGE_ATTRIBUTES => {
                    Some((inst[1], &inst[3..]))
                }
                _ => None,
            };
            if let Some((id, name)) = name {
                if MARKER_PREFIXES.iter().any(|p| starts_with(name, p)) && !f.markers.contains(&id) {
                    f.markers.push(id);
                }
            }
            if let Some(s) = shapes.get(&op) {
                if let Some(&id) = s.result.and_then(|p| inst.get(p)) {
                    f.defined.push(id);
                    if s.is_type {
                        f.types.push(id);
                    }
                    if op == OP_FUNCTION {
                        f.functions.push(id);
                    }
                }
            }
        }
        f.opcodes.sort_unstable();
        f.opcodes.dedup();
        for (k, inst) in self.insts.iter().enumerate() {
            let op = inst[0] & 0xffff;
            if op == OP_FUNCTION_CALL && inst.len() >= 4 {
                f.calls.push(k);
                f.typed.push(k);
                if f.markers.contains(&inst[3]) {
                    f.marker_calls.push(k);
                }
            }
            if op == OP_VARIABLE && inst.len() >= 4 {
                f.typed.push(k);
            }
        }
        f
    }

    /// Another id: usually one the module defines, sometimes an odd one.
    fn pick_id(&self, c: &mut Cursor, pool: &[u32]) -> u32 {
        let sel = c.u8();
        if sel >= 0xf0 || pool.is_empty() {
            let bound = self.header[3];
            return match sel & 7 {
                0 => 0,
                1 => bound,
                2 => bound.wrapping_sub(1),
                3 => bound.wrapping_add(1),
                4 => u32::MAX,
                5 => 1,
                6 => c.u8() as u32,
                _ => c.u32(),
            };
        }
        pool[c.index(pool.len())]
    }

    fn interesting(&self, c: &mut Cursor, f: &Facts) -> u32 {
        match c.u8() % 12 {
            0 => 0,
            1 => 1,
            2 => u32::MAX,
            3 => 0x8000_0000,
            4 => 0x7fff_ffff,
            5 => self.header[3],
            6 => self.header[3].wrapping_add(1),
            7 => c.u8() as u32,
            8 => c.u32(),
            9 => 0x0001_0000 | (c.u8() as u32), // word count 1, some opcode
            10 => self.pick_id(c, &f.types),
            _ => self.pick_id(c, &f.defined),
        }
    }

    fn word_count(&self) -> usize {
        5 + self.insts.iter().map(Vec::len).sum::<usize>() + self.tail.len()
    }

    /// Applies one record; returns what it did (`None` when it had no target).
    fn mutate(&mut self, c: &mut Cursor) -> Option<String> {
        let op = c.u8() % 16;
        let f = if matches!(op, 1 | 6 | 7 | 9 | 10 | 12 | 14 | 15) { self.facts() } else { Facts::default() };
        let n = self.insts.len();
        match op {
            0 => {
                let i = c.index(n);
                let inst = self.insts.get_mut(i)?;
                let w = c.u8() as usize % inst.len();
                let bit = c.u8() % 32;
                inst[w] ^= 1 << bit;
                if w == 0 && inst[0] >> 16 == 0 {
                    inst[0] |= (inst.len() as u32) << 16; // keep the stream walkable unless op 11 says so
                }
                Some(format!("flip bit {bit} of word {w} of instruction {i}"))
            }
            1 => {
                let i = c.index(n);
                let len = self.insts.get(i)?.len();
                let w = 1 + c.u8() as usize % len.saturating_sub(1).max(1);
                let v = self.interesting(c, &f);
                let inst = self.insts.get_mut(i)?;
                let slot = inst.get_mut(w)?;
                *slot = v;
                Some(format!("set word {w} of instruction {i} to {v:#x}"))
            }
            2 => {
                let total = self.word_count();
                let at = c.u16() as usize % (total + 1);
                self.cut_words = Some(self.cut_words.map_or(at, |x| x.min(at)));
                self.trim_bytes = (c.u8() % 4) as usize;
                Some(format!("truncate to {at} words minus {} bytes", self.trim_bytes))
            }
            3 => {
                let i = c.index(n);
                let j = c.index(n + 1);
                let copy = self.insts.get(i)?.clone();
                self.insts.insert(j, copy);
                Some(format!("duplicate instruction {i} at {j}"))
            }
            4 => {
                let i = c.index(n);
                if i < n {
                    self.insts.remove(i);
                    Some(format!("drop instruction {i}"))
                } else {
                    None
                }
            }
            5 => {
                let (i, j) = (c.index(n), c.index(n));
                if i < n && j < n {
                    self.insts.swap(i, j);
                    Some(format!("swap instructions {i} and {j}"))
                } else {
                    None
                }
            }
            6 => {
                let k = *f.marker_calls.get(c.index(f.marker_calls.len()))?;
                let argc = self.insts[k].len().saturating_sub(4);
                if argc == 0 {
                    return None;
                }
                let a = c.u8() as usize % argc;
                let id = self.pick_id(c, &f.defined);
                self.insts[k][4 + a] = id;
                Some(format!("marker call {k}: argument {a} := %{id}"))
            }
            7 => {
                let k = *f.typed.get(c.index(f.typed.len()))?;
                let t = self.pick_id(c, &f.types);
                self.insts[k][1] = t;
                Some(format!("instruction {k}: type := %{t}"))
            }
            8 => {
                let b = self.header[3];
                let v = match c.u8() % 8 {
                    0 => 0,
                    1 => b.wrapping_sub(1),
                    2 => b.wrapping_add(1),
                    3 => u32::MAX,
                    4 => 0x0040_0000,
                    5 => b / 2,
                    6 => c.u16() as u32,
                    _ => c.u32(),
                };
                self.header[3] = v;
                Some(format!("id bound := {v:#x}"))
            }
            9 => {
                let i = c.index(n);
                let inst = self.insts.get(i)?;
                let s = shapes().get(&(inst[0] & 0xffff))?;
                let mut pos: Vec<usize> = s.ids.iter().copied().filter(|&p| p < inst.len()).collect();
                if let Some(r) = s.rest_ids_from {
                    pos.extend(r..inst.len());
                }
                if pos.is_empty() {
                    return None;
                }
                let p = pos[c.index(pos.len())];
                let id = self.pick_id(c, &f.defined);
                self.insts[i][p] = id;
                Some(format!("instruction {i}: id operand at word {p} := %{id}"))
            }
            10 => {
                let k = *f.marker_calls.get(c.index(f.marker_calls.len()))?;
                let add = c.u8() & 1 == 1;
                if add {
                    let id = self.pick_id(c, &f.defined);
                    self.insts[k].push(id);
                } else if self.insts[k].len() > 4 {
                    self.insts[k].pop();
                } else {
                    return None;
                }
                let inst = &mut self.insts[k];
                inst[0] = (inst[0] & 0xffff) | ((inst.len() as u32) << 16);
                Some(format!("marker call {k}: {} argument", if add { "extra" } else { "one fewer" }))
            }
            11 => {
                let i = c.index(n);
                let wc = c.u8() as u32;
                let inst = self.insts.get_mut(i)?;
                inst[0] = (inst[0] & 0xffff) | (wc << 16);
                Some(format!("instruction {i}: word count := {wc}"))
            }
            12 => {
                let i = c.index(n);
                let op = *f.opcodes.get(c.index(f.opcodes.len()))?;
                let inst = self.insts.get_mut(i)?;
                inst[0] = (inst[0] & 0xffff_0000) | op;
                Some(format!("instruction {i}: opcode := {op}"))
            }
            13 => {
                let cands: Vec<usize> = (0..n)
                    .filter(|&k| {
                        let i = &self.insts[k];
                        (i[0] & 0xffff == OP_VARIABLE && i.len() >= 4)
                            || (i[0] & 0xffff == OP_TYPE_POINTER && i.len() >= 3)
                    })
                    .collect();
                let k = *cands.get(c.index(cands.len()))?;
                let sc = match c.u8() % 16 {
                    x @ 0..=12 => x as u32,
                    13 => 5936, // CodeSectionINTEL
                    14 => 5940, // DeviceOnlyINTEL
                    _ => c.u32(),
                };
                let p = if self.insts[k][0] & 0xffff == OP_VARIABLE { 3 } else { 2 };
                self.insts[k][p] = sc;
                Some(format!("instruction {k}: storage class := {sc}"))
            }
            14 => {
                let k = *f.calls.get(c.index(f.calls.len()))?;
                let target = if c.u8() & 1 == 0 && !f.markers.is_empty() {
                    f.markers[c.index(f.markers.len())]
                } else {
                    self.pick_id(c, &f.functions)
                };
                self.insts[k][3] = target;
                Some(format!("call {k}: callee := %{target}"))
            }
            _ => {
                let k = *f.marker_calls.get(c.index(f.marker_calls.len()))?;
                let mut copy = self.insts[k].clone();
                let fresh = self.header[3];
                self.header[3] = fresh.wrapping_add(1);
                copy[2] = fresh;
                self.insts.insert(k + 1, copy);
                Some(format!("marker call {k} duplicated as %{fresh}"))
            }
        }
    }
}
