//! Reading and building single instructions.
//!
//! Fixed-layout reads (result id, result type, a literal string) work on words directly; anything
//! that needs the grammar (where are the id operands of this instruction?) decodes that one
//! instruction with rspirv's binary parser and grammar. Unknown opcodes are never decoded: callers
//! treat them conservatively.

use rspirv::binary::{Assemble, Consumer, ParseAction};
use rspirv::dr;
use rspirv::grammar::{OperandKind, INSTRUCTION_TABLE};
use spirv::Op;
use std::sync::OnceLock;

/// Builds the first word of an instruction.
pub fn head(op: Op, word_count: usize) -> u32 {
    ((word_count as u32) << 16) | op as u32
}

/// The most words one instruction can have (its word count is 16 bits).
pub const MAX_WORDS: usize = 0xFFFF;

/// [`build`] for operand lists that input data sizes (a composite per element, a parameter
/// more): an error when the instruction would not fit [`MAX_WORDS`].
pub fn try_build(op: Op, operands: &[u32]) -> crate::Result<Vec<u32>> {
    if operands.len() + 1 > MAX_WORDS {
        return Err(crate::Error::Lower(format!(
            "an Op{op:?} of {} operands does not fit one SPIR-V instruction (at most {} words)",
            operands.len(),
            MAX_WORDS
        )));
    }
    Ok(build(op, operands))
}

/// Builds an instruction from its opcode and operand words.
pub fn build(op: Op, operands: &[u32]) -> Vec<u32> {
    let mut w = Vec::with_capacity(operands.len() + 1);
    w.push(head(op, operands.len() + 1));
    w.extend_from_slice(operands);
    w
}

/// Encodes a literal string as SPIR-V words (NUL-terminated, zero-padded).
pub fn string_words(s: &[u8]) -> Vec<u32> {
    let mut bytes = s.to_vec();
    bytes.push(0);
    while bytes.len() % 4 != 0 {
        bytes.push(0);
    }
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Number of words of the nul-terminated string at the start of `words` (`None` if unterminated),
/// without copying it.
pub fn string_len(words: &[u32]) -> Option<usize> {
    words
        .iter()
        // (A word has a zero byte iff this is non-zero: the exact "has zero byte" test.)
        .position(|&w| w.wrapping_sub(0x0101_0101) & !w & 0x8080_8080 != 0)
        .map(|i| i + 1)
}

/// Reads a literal string starting at `words[0]`; returns the bytes (without NUL) and the number of
/// words it occupies, or `None` when no NUL terminates it inside `words`.
pub fn read_string(words: &[u32]) -> Option<(Vec<u8>, usize)> {
    let len = string_len(words)?;
    let mut out = Vec::with_capacity(len * 4);
    for w in &words[..len] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    // The nul is in the last word.
    let nul = out[(len - 1) * 4..].iter().position(|&b| b == 0)?;
    out.truncate((len - 1) * 4 + nul);
    Some((out, len))
}

/// `(has result type, has result id)` of the Intel instructions rspirv's grammar lacks that the
/// SPIR-V/LLVM translator writes (its "internal" opcodes): SPV_INTEL_joint_matrix's for DPC++'s
/// `joint_matrix_prefetch` and checked loads, stores and fills, SPV_INTEL_token_type's and
/// SPV_INTEL_complex_float_mul_div's (their operands: [`fixed_use_positions`]).
const GRAMMARLESS_RESULTS: &[(u32, (bool, bool))] = &[
    // OpTypeTokenINTEL
    (6113, (false, true)),
    // OpCooperativeMatrixLoadCheckedINTEL, OpCooperativeMatrixStoreCheckedINTEL,
    // OpCooperativeMatrixConstructCheckedINTEL
    (6193, (true, true)),
    (6194, (false, false)),
    (6195, (true, true)),
    // OpComplexFMulINTEL, OpComplexFDivINTEL
    (6415, (true, true)),
    (6416, (true, true)),
    // OpCooperativeMatrixGetElementCoordINTEL, OpCooperativeMatrixPrefetchINTEL
    (6440, (true, true)),
    (6449, (false, false)),
];

/// `(has result type, has result id)` of an opcode, from rspirv's grammar (and
/// [`GRAMMARLESS_RESULTS`]); `None` if unknown.
pub fn result_info(op: u32) -> Option<(bool, bool)> {
    static TABLE: OnceLock<Vec<Option<(bool, bool)>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = vec![None; 1 << 16];
        for g in INSTRUCTION_TABLE.iter() {
            let kinds: Vec<OperandKind> = g.operands.iter().take(2).map(|o| o.kind).collect();
            let has_type = kinds.first() == Some(&OperandKind::IdResultType);
            let has_result = if has_type {
                kinds.get(1) == Some(&OperandKind::IdResult)
            } else {
                kinds.first() == Some(&OperandKind::IdResult)
            };
            t[g.opcode as u32 as usize] = Some((has_type, has_result));
        }
        for &(op, info) in GRAMMARLESS_RESULTS {
            t[op as usize] = Some(info);
        }
        t
    });
    table.get(op as usize).copied().flatten()
}

/// The opcode of an instruction (the low half of its first word), known to the grammar or not.
#[inline]
pub fn opcode(words: &[u32]) -> u32 {
    words[0] & 0xffff
}

/// Whether the instruction `words` is an `op`.
#[inline]
pub fn is(words: &[u32], op: Op) -> bool {
    opcode(words) == op as u32
}

/// The instruction's opcode as [`Op`], `None` when the grammar does not know it.
#[inline]
pub fn op_of(words: &[u32]) -> Option<Op> {
    Op::from_u32(opcode(words))
}

/// Opcode name of an instruction for messages (see [`op_name`]).
pub fn name_of(words: &[u32]) -> String {
    op_name(opcode(words))
}

/// Opcode name for messages (`OpFoo`, or `opcode N` when unknown).
pub fn op_name(op: u32) -> String {
    match INSTRUCTION_TABLE.lookup_opcode(op) {
        Some(g) => format!("Op{}", g.opname),
        None => format!("opcode {op}"),
    }
}

/// The instructions of `words` (one or several: lowering replaces a call by a sequence), each
/// as its words; a word count of 0 is taken as 1 and one running past the end is cut there.
pub fn instructions(words: &[u32]) -> impl Iterator<Item = &[u32]> {
    let mut rest = words;
    std::iter::from_fn(move || {
        let head = *rest.first()?;
        let (one, tail) = rest.split_at(((head >> 16) as usize).clamp(1, rest.len()));
        rest = tail;
        Some(one)
    })
}

/// The result id of an instruction, if its opcode is known and has one.
pub fn result_id(words: &[u32]) -> Option<u32> {
    let (has_type, has_result) = result_info(words[0] & 0xffff)?;
    if !has_result {
        return None;
    }
    words.get(if has_type { 2 } else { 1 }).copied()
}

/// The result type id of an instruction, if it has one.
pub fn result_type(words: &[u32]) -> Option<u32> {
    let (has_type, _) = result_info(words[0] & 0xffff)?;
    if has_type {
        words.get(1).copied()
    } else {
        None
    }
}

struct Capture(Option<dr::Instruction>);

impl Consumer for Capture {
    fn initialize(&mut self) -> ParseAction {
        ParseAction::Continue
    }
    fn finalize(&mut self) -> ParseAction {
        ParseAction::Continue
    }
    fn consume_header(&mut self, _: dr::ModuleHeader) -> ParseAction {
        ParseAction::Continue
    }
    fn consume_instruction(&mut self, inst: dr::Instruction) -> ParseAction {
        self.0 = Some(inst);
        ParseAction::Stop
    }
}

/// Whether rspirv's parser can read `op`'s operands when it is the operation of an
/// `OpSpecConstantOp` (its operand parser panics on the kinds only the top level handles).
fn safe_inside_spec_constant_op(op: u32) -> bool {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = vec![false; 1 << 16];
        for g in INSTRUCTION_TABLE.iter() {
            t[g.opcode as u32 as usize] = g.operands.iter().all(|o| {
                !matches!(
                    o.kind,
                    OperandKind::LiteralContextDependentNumber
                        | OperandKind::LiteralSpecConstantOpInteger
                        | OperandKind::PairLiteralIntegerIdRef
                        | OperandKind::Debuginfo(_)
                        | OperandKind::NonsemanticClspvreflection(_)
                        | OperandKind::NonsemanticShaderDebuginfo100(_)
                        | OperandKind::OpenclDebuginfo100(_)
                )
            });
        }
        t
    });
    table.get(op as usize).copied().unwrap_or(false)
}

/// Decodes one instruction with rspirv. `None` for unknown opcodes, malformed operands, and the
/// instructions whose literals depend on a type rspirv would need the whole module for
/// (`OpConstant`, `OpSpecConstant`, `OpSwitch`): callers read those by their fixed layout. An
/// `OpSpecConstantOp` is decoded only when its operation's operands are safe for rspirv's parser.
pub fn decode(words: &[u32]) -> Option<dr::Instruction> {
    let op = words[0] & 0xffff;
    if result_info(op).is_none()
        || op == Op::Constant as u32
        || op == Op::SpecConstant as u32
        || op == Op::Switch as u32
    {
        return None;
    }
    if op == Op::SpecConstantOp as u32
        && !words
            .get(3)
            .is_some_and(|&inner| safe_inside_spec_constant_op(inner))
    {
        return None;
    }
    let mut bin = Vec::with_capacity(words.len() + 5);
    bin.extend_from_slice(&[super::MAGIC, 0x0001_0600, 0, u32::MAX, 0]);
    bin.extend_from_slice(words);
    let mut cap = Capture(None);
    // A Stop action surfaces as an error from the parser; the captured instruction is what counts.
    let _ = rspirv::binary::parse_words(&bin, &mut cap);
    cap.0
}

/// Whether every operand of `op` after its result is an id (`IdRef`, id pairs, scope, semantics):
/// then the id positions follow from the word count alone, without decoding.
pub fn all_operands_are_ids(op: u32) -> bool {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = vec![false; 1 << 16];
        for g in INSTRUCTION_TABLE.iter() {
            t[g.opcode as u32 as usize] = g.operands.iter().all(|o| {
                matches!(
                    o.kind,
                    OperandKind::IdResultType
                        | OperandKind::IdResult
                        | OperandKind::IdRef
                        | OperandKind::IdScope
                        | OperandKind::IdMemorySemantics
                        | OperandKind::PairIdRefIdRef
                )
            });
        }
        t
    });
    table.get(op as usize).copied().unwrap_or(false)
}

/// Ids that `output` uses and `input` defines but `output` does not: a definition removed while
/// still in use. Both are whole modules as words in host order, header included (an input that
/// is not one gives no ids). A check for tests and the fuzzer; the operands of `OpExtInst` are not
/// looked at (their kinds depend on the instruction set).
pub fn dangling_uses(input: &[u32], output: &[u32]) -> Vec<u32> {
    fn instructions(m: &[u32]) -> impl Iterator<Item = &[u32]> {
        let mut at = 5;
        std::iter::from_fn(move || {
            let n = (*m.get(at)? >> 16) as usize;
            let w = m.get(at..at + n).filter(|_| n > 0)?;
            at += n;
            Some(w)
        })
    }
    let defined = |m: &[u32]| -> std::collections::HashSet<u32> {
        instructions(m).filter_map(result_id).collect()
    };
    let (before, after) = (defined(input), defined(output));
    let mut dangling = Vec::new();
    for w in instructions(output).filter(|w| w[0] & 0xffff != Op::ExtInst as u32) {
        visit_use_positions(w, |p| {
            if before.contains(&w[p]) && !after.contains(&w[p]) {
                dangling.push(w[p]);
            }
        });
    }
    dangling.sort_unstable();
    dangling.dedup();
    dangling
}

/// Calls `f` with the word position of every id this instruction uses, without allocating for
/// the common fixed-layout instructions. Returns false (having called nothing) when the
/// instruction cannot be decoded exactly.
#[inline]
pub fn visit_use_positions(words: &[u32], mut f: impl FnMut(usize)) -> bool {
    if fixed_use_positions(words, &mut f) {
        return true;
    }
    match id_use_positions(words) {
        Some(p) => {
            p.into_iter().for_each(f);
            true
        }
        None => false,
    }
}

/// Calls `f` with the word position of every id this instruction uses when its layout is fixed
/// (the common instructions: loads, stores, arithmetic, …); returns false, having called
/// nothing, when it needs decoding.
#[inline]
pub fn visit_fixed_use_positions(words: &[u32], mut f: impl FnMut(usize)) -> bool {
    fixed_use_positions(words, &mut f)
}

/// Id positions of the common instructions whose layout is fixed, without decoding.
fn fast_use_positions(words: &[u32]) -> Option<Vec<usize>> {
    let mut v = Vec::with_capacity(words.len());
    fixed_use_positions(words, &mut |p| v.push(p)).then_some(v)
}

/// The fixed layouts: calls `f` with each id position and returns true, or returns false having
/// called nothing (the instruction needs decoding).
#[inline]
fn fixed_use_positions(words: &[u32], f: &mut impl FnMut(usize)) -> bool {
    let op = words[0] & 0xffff;
    let n = words.len();
    // Memory operands whose bits take no id parameter: Volatile, Aligned (a literal),
    // Nontemporal, NonPrivatePointer. The others (MakePointerAvailable/Visible: a scope id;
    // AliasScopeINTELMask/NoAliasINTELMask: an alias scope list id; any bit to come) are
    // decoded.
    let plain_memory = |mask_at: usize| words.get(mask_at).is_none_or(|m| m & !0x27 == 0);
    // Fixed layouts of the common instructions with literal operands (opcodes as numbers: this
    // runs for every instruction of a module).
    match op {
        // OpLoad: type, pointer (memory operands without scope ids)
        61 if n >= 4 && plain_memory(4) => {
            f(1);
            f(3);
            return true;
        }
        // OpStore: pointer, object
        62 if n >= 3 && plain_memory(3) => {
            f(1);
            f(2);
            return true;
        }
        // OpVariable: type, storage class, [initializer]
        59 if n >= 4 => {
            f(1);
            if n > 4 {
                f(4);
            }
            return true;
        }
        // OpConstant / OpSpecConstant: type, literal value
        43 | 50 if n >= 3 => {
            f(1);
            return true;
        }
        // OpLifetimeStart / OpLifetimeStop: pointer, literal size
        256 | 257 if n == 3 => {
            f(1);
            return true;
        }
        // OpTypePointer: storage class, pointee
        32 if n == 4 => {
            f(3);
            return true;
        }
        // OpTypeInt / OpTypeFloat / OpTypeVoid / OpTypeBool: no ids
        19..=22 => return true,
        // OpTypeVector / OpTypeMatrix: component type, literal count
        23 | 24 if n == 4 => {
            f(2);
            return true;
        }
        // OpFunction: type, control mask, function type
        54 if n == 5 => {
            f(1);
            f(4);
            return true;
        }
        // OpCompositeExtract: type, composite, literal indices
        81 if n >= 4 => {
            f(1);
            f(3);
            return true;
        }
        // OpCompositeInsert: type, object, composite, literal indices
        82 if n >= 5 => {
            f(1);
            f(3);
            f(4);
            return true;
        }
        // OpVectorShuffle: type, vector 1, vector 2, literal components
        79 if n >= 5 => {
            f(1);
            f(3);
            f(4);
            return true;
        }
        // OpSelectionMerge: merge block, control mask
        247 if n == 3 => {
            f(1);
            return true;
        }
        // OpLoopMerge: merge block, continue target, control mask (without parameters)
        246 if n == 4 => {
            f(1);
            f(2);
            return true;
        }
        // OpBranchConditional: condition, true label, false label, [literal weights]
        250 if n >= 4 => {
            f(1);
            f(2);
            f(3);
            return true;
        }
        // OpExecutionMode: entry point, mode, literals
        16 if n >= 3 => {
            f(1);
            return true;
        }
        // OpLine: file (OpString id), literals
        8 if n == 4 => {
            f(1);
            return true;
        }
        // OpNoLine, OpNop, OpFunctionEnd, OpReturn, OpUnreachable, OpKill: nothing
        0 | 56 | 253 | 255 | 252 | 317 => return true,
        // OpCapability: literal; OpMemoryModel: two literals
        17 if n == 2 => return true,
        14 if n == 3 => return true,
        // OpExtension: string
        10 if n >= 2 && string_len(&words[1..]) == Some(n - 1) => return true,
        // OpExtInstImport, OpString: result, string
        11 | 7 if n >= 3 && string_len(&words[2..]) == Some(n - 2) => return true,
        // OpSourceContinued, OpSourceExtension, OpModuleProcessed: string
        2 | 4 | 330 if n >= 2 && string_len(&words[1..]) == Some(n - 1) => return true,
        // OpName: target, string
        5 if n >= 3 && string_len(&words[2..]) == Some(n - 2) => {
            f(1);
            return true;
        }
        // OpMemberName: type, literal member, string
        6 if n >= 4 && string_len(&words[3..]) == Some(n - 3) => {
            f(1);
            return true;
        }
        // OpSource: language, version, [file (an OpString id), [source string]]
        3 if n >= 3
            && spirv::SourceLanguage::from_u32(words[1]).is_some()
            && (n <= 4 || string_len(&words[4..]) == Some(n - 4)) =>
        {
            if n >= 4 {
                f(3);
            }
            return true;
        }
        // OpEntryPoint: execution model, function, name, interface ids
        15 if n >= 4 && spirv::ExecutionModel::from_u32(words[1]).is_some() => {
            if let Some(len) = string_len(&words[3..]) {
                f(2);
                (3 + len..n).for_each(&mut *f);
                return true;
            }
        }
        // OpCooperativeMatrixMulAddKHR: type, A, B, C, [literal operands mask]. The mask's bits
        // take no parameters; DPC++'s joint_matrix sets Intel ones the grammar's enumeration
        // lacks (0x40, MatrixAAndBBFloat16ComponentsINTEL, for bfloat16 A and B), which rspirv's
        // decoder refuses.
        4459 if n == 6 || n == 7 => {
            f(1);
            f(3);
            f(4);
            f(5);
            return true;
        }
        // SPV_INTEL_joint_matrix, which rspirv's grammar lacks (see [`GRAMMARLESS_RESULTS`]).
        // OpCooperativeMatrixPrefetchINTEL: pointer, rows, columns, literal cache level,
        // layout, [stride, [memory operands]]
        6449 if n >= 6 && plain_memory(7) => {
            [1, 2, 3, 5].into_iter().for_each(&mut *f);
            if n >= 7 {
                f(6);
            }
            return true;
        }
        // OpCooperativeMatrixLoadCheckedINTEL: type, result, pointer, x offset, y offset,
        // layout, height, width, [stride, [memory operands]]
        6193 if n >= 9 && plain_memory(10) => {
            f(1);
            (3..=8).for_each(&mut *f);
            if n >= 10 {
                f(9);
            }
            return true;
        }
        // OpCooperativeMatrixStoreCheckedINTEL: pointer, x offset, y offset, object, layout,
        // height, width, [stride, [memory operands]]
        6194 if n >= 8 && plain_memory(9) => {
            (1..=7).for_each(&mut *f);
            if n >= 9 {
                f(8);
            }
            return true;
        }
        // OpCooperativeMatrixConstructCheckedINTEL: type, result, x offset, y offset, height,
        // width, value; OpCooperativeMatrixGetElementCoordINTEL: type, result, matrix, index
        6195 if n == 8 => {
            f(1);
            (3..8).for_each(&mut *f);
            return true;
        }
        // OpComplexFMulINTEL, OpComplexFDivINTEL: type, result, two operands
        6440 | 6415 | 6416 if n == 5 => {
            f(1);
            f(3);
            f(4);
            return true;
        }
        // OpTypeTokenINTEL: result
        6113 if n == 2 => return true,
        // OpDecorate: target, then a core decoration whose parameters are all literals
        71 if n >= 3 && decoration_literals_fit(words) => {
            f(1);
            return true;
        }
        _ => {}
    }
    if all_operands_are_ids(op) {
        if let Some((has_type, has_result)) = result_info(op) {
            let operands = 1 + has_type as usize + has_result as usize;
            // (Too short to hold its result: left to the decoder, which refuses it.)
            if n >= operands {
                if has_type {
                    f(1);
                }
                (operands..n).for_each(f);
                return true;
            }
        }
    }
    false
}

/// Whether `OpDecorate`'s decoration is one whose parameters are literals only (see
/// [`decoration_parameters_are_literals`]) and they fill the instruction exactly.
fn decoration_literals_fit(words: &[u32]) -> bool {
    decoration_parameters_are_literals(words[2], &words[3..])
}

/// Whether `decoration` is one whose parameters are literals only (the core ones 0..=45 but
/// `UniformId`, 12 is unassigned; 4469, 4470; the Intel ones llvm-spirv writes on ESIMD and
/// other device code) and `parameters` are exactly such parameters, as rspirv's grammar decodes
/// them. (`false` for any other: the grammar then tells.)
pub fn decoration_parameters_are_literals(decoration: u32, parameters: &[u32]) -> bool {
    let n = parameters.len();
    match decoration {
        // no parameter (4469, 4470: NoSignedWrap, NoUnsignedWrap, on every integer operation of
        // an LLVM-translated module; 5624, 5626, 5627: VectorComputeVariableINTEL,
        // VectorComputeFunctionINTEL, StackCallINTEL)
        0 | 2..=5 | 8..=10 | 13..=26 | 28 | 42 | 4469 | 4470 | 5624 | 5626 | 5627 => n == 0,
        // one number (5599, 5625, 5628: SIMTCallINTEL, FuncParamIOKindINTEL,
        // GlobalVariableOffsetINTEL)
        1 | 6 | 7 | 29..=37 | 43..=45 | 5599 | 5625 | 5628 => n == 1,
        // one enumerant the grammar knows (BuiltIn, FuncParamAttr, FPRoundingMode, FPFastMathMode
        // bits)
        11 => n == 1 && spirv::BuiltIn::from_u32(parameters[0]).is_some(),
        38 => n == 1 && parameters[0] <= 7,
        39 => n == 1 && parameters[0] <= 3,
        40 => n == 1 && spirv::FPFastMathMode::from_bits(parameters[0]).is_some(),
        // LinkageAttributes: name, linkage type (Export, Import, LinkOnceODR)
        41 => n >= 2 && parameters[n - 1] <= 2 && string_len(&parameters[..n - 1]) == Some(n - 1),
        // DPC++'s HostAccessINTEL before SPV_INTEL_global_variable_host_access numbered it 6188
        // (llvm-spirv's internal 6147, on every device global): access, name
        6147 => n >= 2 && string_len(&parameters[1..]) == Some(n - 1),
        _ => false,
    }
}

/// Word positions (indices into `words`) of every id this instruction *uses*: its result type
/// and id operands, not its result id. `None` when the instruction cannot be decoded exactly —
/// callers must then assume any word may be an id.
pub fn id_use_positions(words: &[u32]) -> Option<Vec<usize>> {
    if let Some(p) = fast_use_positions(words) {
        return Some(p);
    }
    let op = words[0] & 0xffff;
    if op == Op::Constant as u32 || op == Op::SpecConstant as u32 {
        // (The fixed layouts took the well-formed ones.)
        return (words.len() >= 3).then(|| vec![1]);
    }
    if op == Op::Switch as u32 {
        // Selector and default label are at fixed places; the case labels follow literals whose
        // width depends on the selector type. Labels are never values we rewrite.
        return (words.len() >= 3).then(|| vec![1, 2]);
    }
    // A decoration the grammar does not know (a vendor's or a compiler's internal one, as
    // llvm-spirv writes): `OpDecorate` and `OpMemberDecorate` take literal parameters only (ids
    // go with `OpDecorateId`), so the target is the one id.
    let decoration_at = match op {
        x if x == Op::Decorate as u32 => Some(2),
        x if x == Op::MemberDecorate as u32 => Some(3),
        _ => None,
    };
    if let Some(at) = decoration_at {
        if words
            .get(at)
            .is_some_and(|&d| spirv::Decoration::from_u32(d).is_none())
        {
            return Some(vec![1]);
        }
    }
    decoded_use_positions(words)
}

/// [`id_use_positions`] by decoding the instruction with rspirv's grammar (no shortcut).
fn decoded_use_positions(words: &[u32]) -> Option<Vec<usize>> {
    let inst = decode(words)?;
    let mut pos = 1;
    let mut out = Vec::new();
    if inst.result_type.is_some() {
        out.push(pos);
        pos += 1;
    }
    if inst.result_id.is_some() {
        pos += 1;
    }
    let mut scratch = Vec::new();
    for operand in &inst.operands {
        scratch.clear();
        operand.assemble_into(&mut scratch);
        if matches!(
            operand,
            dr::Operand::IdRef(_) | dr::Operand::IdScope(_) | dr::Operand::IdMemorySemantics(_)
        ) {
            out.push(pos);
        }
        pos += scratch.len();
    }
    // Only trust the decode when it accounts for every word.
    (pos == words.len()).then_some(out)
}

/// How the operands of an extended instruction set are laid out.
#[derive(Clone, Copy)]
pub enum ExtSet {
    /// Every operand is an id (`NonSemantic.*` sets by definition, `GLSL.std.450`).
    AllIds,
    /// `NonSemantic.Shader.DebugInfo.100` or `.200` in a module the LLVM/SPIR-V Translator wrote
    /// (DPC++, llvm-spirv: [`TRANSLATOR_GENERATOR`]): every operand is an id but a
    /// `DebugLocalVariable`'s argument number, which the translator writes, and reads back, as
    /// a literal (the set's specification makes it an id).
    TranslatorShaderDebugInfo,
    /// Operands as rspirv's grammar table of the set says.
    Table(&'static rspirv::grammar::InstructionTable<rspirv::grammar::ExtInstOp>),
    /// A set spec-link does not know: its operands cannot be told apart.
    Unknown,
}

/// Whether the extended instruction set imported under `name` holds debug information only
/// (`NonSemantic.*`, `OpenCL.DebugInfo.100` and its older name `SPIRV.debug`, `DebugInfo`): its
/// instructions describe the code and use nothing in LLVM's sense (debug metadata is no use).
pub fn is_debug_info_set(name: &[u8]) -> bool {
    name.starts_with(b"NonSemantic.") || is_source_debug_info_set(name)
}

/// Whether the extended instruction set imported under `name` describes the source
/// (`NonSemantic.Shader.DebugInfo.*`, `OpenCL.DebugInfo.100`, `SPIRV.debug`, `DebugInfo`): what
/// compiling with `-g` adds.
pub fn is_source_debug_info_set(name: &[u8]) -> bool {
    name.starts_with(b"NonSemantic.Shader.DebugInfo.")
        || matches!(
            name,
            b"OpenCL.DebugInfo.100" | b"SPIRV.debug" | b"DebugInfo"
        )
}

/// The generator id (the high half of the header's generator word) of the LLVM/SPIR-V
/// Translator, which DPC++ and llvm-spirv write.
pub const TRANSLATOR_GENERATOR: u32 = 6;

/// `DebugLocalVariable`'s number in the `NonSemantic.Shader.DebugInfo` sets.
const DEBUG_LOCAL_VARIABLE: u32 = 26;

/// The word of a `DebugLocalVariable` `OpExtInst` holding its argument number (its 8th operand,
/// after Name, Type, Source, Line, Column, Parent and Flags).
const ARG_NUMBER_WORD: usize = 12;

/// The layout of the extended instruction set imported under `name` in a module whose header
/// names `generator` (see [`ExtSet::TranslatorShaderDebugInfo`]).
pub fn ext_set(name: &[u8], generator: u32) -> ExtSet {
    use rspirv::grammar as g;
    match name {
        b"OpenCL.std" => ExtSet::Table(&g::OPENCL_STD_100_INSTRUCTION_TABLE),
        // "SPIRV.debug": the SPIR-V/LLVM translator's name for the same debug information before
        // OpenCL.DebugInfo.100 was published (`--spirv-debug-info-version=legacy`); its writer
        // emits the same instructions and operands under either name (the modules differ only
        // in the import, see testdata/clang-debuginfo), and Intel's graphics compiler reads
        // both with one decoder. SPIRV-Tools does not know the name.
        b"OpenCL.DebugInfo.100" | b"SPIRV.debug" => {
            ExtSet::Table(&g::OPENCL_DEBUGINFO_100_INSTRUCTION_TABLE)
        }
        b"DebugInfo" => ExtSet::Table(&g::DEBUGINFO_INSTRUCTION_TABLE),
        b"GLSL.std.450" => ExtSet::AllIds,
        b"NonSemantic.Shader.DebugInfo.100" | b"NonSemantic.Shader.DebugInfo.200"
            if generator >> 16 == TRANSLATOR_GENERATOR =>
        {
            ExtSet::TranslatorShaderDebugInfo
        }
        n if n.starts_with(b"NonSemantic.") => ExtSet::AllIds,
        _ => ExtSet::Unknown,
    }
}

/// Calls `f` with the word positions of the ids an `OpExtInst` uses, as
/// [`ext_inst_use_positions`] finds them, without allocating, when the set takes only ids
/// (`AllIds`) or the set's grammar gives this instruction only id operands (nearly all of
/// OpenCL.std: `sin`, `fma`, `mad`…) and the words fit it. Returns false, having called
/// nothing, otherwise (the caller then decodes).
#[inline]
pub fn visit_ext_inst_id_positions(words: &[u32], set: ExtSet, f: &mut impl FnMut(usize)) -> bool {
    let n = words.len();
    if n < 5 {
        return false;
    }
    let fits = match set {
        ExtSet::AllIds => true,
        ExtSet::TranslatorShaderDebugInfo => {
            if words[4] == DEBUG_LOCAL_VARIABLE && n > ARG_NUMBER_WORD {
                f(1);
                f(3);
                (5..n).filter(|&p| p != ARG_NUMBER_WORD).for_each(f);
                return true;
            }
            true
        }
        ExtSet::Unknown => false,
        ExtSet::Table(table) => id_only_operands(table, words[4]).is_some_and(|max| n - 5 <= max),
    };
    if fits {
        f(1);
        f(3);
        (5..n).for_each(f);
    }
    fits
}

/// When every operand of extended instruction `ext_op` of `table` is an id: how many operand
/// words its grammar takes at most (`usize::MAX` when the last repeats).
fn id_only_operands(
    table: &'static rspirv::grammar::InstructionTable<rspirv::grammar::ExtInstOp>,
    ext_op: u32,
) -> Option<usize> {
    id_only_layouts(table)?
        .get(ext_op as usize)
        .copied()
        .flatten()
}

/// Per extended instruction of `table` (indexed by its number): `Some(max operand words)` when
/// every operand is an id, as [`id_only_operands`] gives it. A table per set, made once from the
/// grammar (a lookup is then an index, not a search of the grammar); `None` for a table without
/// one.
pub fn id_only_layouts(
    table: &'static rspirv::grammar::InstructionTable<rspirv::grammar::ExtInstOp>,
) -> Option<&'static [Option<usize>]> {
    use rspirv::grammar as g;
    type Layouts = OnceLock<Vec<Option<usize>>>;
    static OPENCL_STD: Layouts = OnceLock::new();
    static OPENCL_DEBUGINFO: Layouts = OnceLock::new();
    static DEBUGINFO: Layouts = OnceLock::new();
    let cell = if std::ptr::eq(table, &g::OPENCL_STD_100_INSTRUCTION_TABLE) {
        &OPENCL_STD
    } else if std::ptr::eq(table, &g::OPENCL_DEBUGINFO_100_INSTRUCTION_TABLE) {
        &OPENCL_DEBUGINFO
    } else if std::ptr::eq(table, &g::DEBUGINFO_INSTRUCTION_TABLE) {
        &DEBUGINFO
    } else {
        return None;
    };
    let layouts = cell.get_or_init(|| {
        let top = (0..1024u32)
            .filter(|&op| table.lookup_opcode(op).is_some())
            .max()
            .map_or(0, |op| op as usize + 1);
        (0..top as u32)
            .map(|op| {
                let g = table.lookup_opcode(op)?;
                let ids = g.operands.iter().all(|o| {
                    matches!(
                        o.kind,
                        OperandKind::IdRef
                            | OperandKind::IdResultType
                            | OperandKind::IdScope
                            | OperandKind::IdMemorySemantics
                    )
                });
                let repeats = g
                    .operands
                    .iter()
                    .any(|o| o.quantifier == rspirv::grammar::OperandQuantifier::ZeroOrMore);
                ids.then_some(if repeats {
                    usize::MAX
                } else {
                    g.operands.len()
                })
            })
            .collect()
    });
    Some(layouts)
}

/// How the operands of the `OpExtInst`s of one imported set are told apart.
#[derive(Clone, Copy)]
enum ExtIds {
    /// Every operand is an id.
    All,
    /// Every operand is an id but a `DebugLocalVariable`'s argument number
    /// ([`ExtSet::TranslatorShaderDebugInfo`]).
    AllButArgNumber,
    /// Per instruction number: `Some(max operand words)` when every operand is an id
    /// ([`id_only_layouts`]).
    Layouts(&'static [Option<usize>]),
    /// Decoded instruction by instruction (or not at all: an unknown set).
    Decode,
}

/// The set of the last `OpExtInst` a pass met and how it tells its operands apart: one lookup
/// of the set a run of instructions of one set, not one an instruction (real device code is
/// mostly OpenCL.std instructions, all of one set).
#[derive(Clone, Copy, Default)]
pub struct ExtIdsCache {
    last: Option<(u32, ExtIds)>,
}

impl ExtIdsCache {
    /// Whether every operand of the `OpExtInst` `words` is an id, as
    /// [`visit_ext_inst_id_positions`] decides (its ids are then words 1 and 3 and 5 on);
    /// `set_of` gives the layout of an imported set (`None`: not imported).
    #[inline]
    pub fn operands_are_ids(
        &mut self,
        words: &[u32],
        set_of: impl FnOnce(u32) -> Option<ExtSet>,
    ) -> bool {
        let [_, _, _, set, ext_op, ..] = *words else {
            return false;
        };
        let ids = match self.last {
            Some((s, ids)) if s == set => ids,
            _ => {
                let ids = match set_of(set) {
                    Some(ExtSet::AllIds) => ExtIds::All,
                    Some(ExtSet::TranslatorShaderDebugInfo) => ExtIds::AllButArgNumber,
                    Some(ExtSet::Table(table)) => {
                        id_only_layouts(table).map_or(ExtIds::Decode, ExtIds::Layouts)
                    }
                    Some(ExtSet::Unknown) | None => ExtIds::Decode,
                };
                self.last = Some((set, ids));
                ids
            }
        };
        match ids {
            ExtIds::All => true,
            ExtIds::AllButArgNumber => {
                ext_op != DEBUG_LOCAL_VARIABLE || words.len() <= ARG_NUMBER_WORD
            }
            ExtIds::Layouts(layouts) => layouts
                .get(ext_op as usize)
                .copied()
                .flatten()
                .is_some_and(|max| words.len() - 5 <= max),
            ExtIds::Decode => false,
        }
    }
}

/// Word positions of the ids an `OpExtInst` uses (result type, set, id operands), or `None` when
/// the set or the instruction is unknown or the words do not match its grammar.
pub fn ext_inst_use_positions(words: &[u32], set: ExtSet) -> Option<Vec<usize>> {
    if words.len() < 5 {
        return None;
    }
    let mut out = Vec::with_capacity(words.len());
    if visit_ext_inst_id_positions(words, set, &mut |p| out.push(p)) {
        return Some(out);
    }
    ext_inst_use_positions_by_grammar(words, set)
}

/// [`ext_inst_use_positions`] by walking the set's grammar (no shortcut).
fn ext_inst_use_positions_by_grammar(words: &[u32], set: ExtSet) -> Option<Vec<usize>> {
    if words.len() < 5 {
        return None;
    }
    let mut out = vec![1, 3];
    match set {
        ExtSet::AllIds => out.extend(5..words.len()),
        ExtSet::TranslatorShaderDebugInfo => {
            let literal = words[4] == DEBUG_LOCAL_VARIABLE;
            out.extend((5..words.len()).filter(|&p| !(literal && p == ARG_NUMBER_WORD)));
        }
        ExtSet::Unknown => return None,
        ExtSet::Table(table) => {
            let g = table.lookup_opcode(words[4])?;
            let mut pos = 5;
            let mut k = 0;
            while pos < words.len() {
                let operand = g.operands.get(k)?;
                match operand.kind {
                    OperandKind::IdRef
                    | OperandKind::IdResultType
                    | OperandKind::IdScope
                    | OperandKind::IdMemorySemantics => {
                        out.push(pos);
                        pos += 1;
                    }
                    OperandKind::LiteralString => pos += read_string(&words[pos..])?.1,
                    _ => pos += 1,
                }
                if operand.quantifier != rspirv::grammar::OperandQuantifier::ZeroOrMore {
                    k += 1;
                }
            }
        }
    }
    Some(out)
}

impl std::fmt::Debug for ExtSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ExtSet::AllIds => "AllIds",
            ExtSet::TranslatorShaderDebugInfo => "TranslatorShaderDebugInfo",
            ExtSet::Table(_) => "Table",
            ExtSet::Unknown => "Unknown",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A decoration no grammar knows takes literal parameters only, as `OpDecorate` and
    /// `OpMemberDecorate` do: the target is the one id, whatever the words after it hold.
    /// DPC++'s internal `HostAccessINTEL` (6147: access, name) takes the fixed layout.
    /// Every instruction of every testdata module (those up to 256 KiB) that a fixed layout
    /// takes gives the id positions rspirv's grammar decodes, where the grammar decodes it (an
    /// instruction it does not know is left to the fixed layout: a decoration of literals). The
    /// corpus can be checked so too: `SPEC_LINK_LAYOUT_MODULES='/path/**/*.spv'`.
    #[test]
    fn fixed_layouts_agree_with_the_grammar_on_real_modules() -> crate::link::testing::TestResult {
        let given = std::env::var("SPEC_LINK_LAYOUT_MODULES").ok();
        let pattern = given
            .clone()
            .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/**/*.spv").into());
        let (mut modules, mut checked, mut wrong) = (0, 0usize, Vec::new());
        for path in glob::glob(&pattern)? {
            let path = path?;
            if std::fs::metadata(&path)?.len() > 256 << 10 {
                continue;
            }
            let Ok(module) = crate::module::Module::from_bytes(&std::fs::read(&path)?) else {
                continue;
            };
            modules += 1;
            for i in 0..module.len() {
                let words = module.original(i);
                let mut fixed = Vec::new();
                if !visit_fixed_use_positions(words, |p| fixed.push(p)) {
                    continue;
                }
                let Some(decoded) = decoded_use_positions(words) else {
                    continue;
                };
                checked += 1;
                if fixed != decoded && wrong.len() < 10 {
                    wrong.push(format!(
                        "{}: {words:?}: {fixed:?}, grammar {decoded:?}",
                        path.display()
                    ));
                }
            }
        }
        let (least_modules, least_checked) = if given.is_some() {
            (1, 1)
        } else {
            (1000, 100_000)
        };
        assert!(
            modules >= least_modules && checked >= least_checked,
            "{modules} modules, {checked} instructions"
        );
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        Ok(())
    }

    /// The memory operands that take ids (`MakePointerAvailable`'s scope, the Intel alias
    /// scope lists of llvm-spirv's `SPV_INTEL_memory_access_aliasing`) are ids used; `Aligned`'s
    /// alignment is not.
    #[test]
    fn memory_operand_ids_are_uses() {
        // %363 = OpLoad %t %p Aligned|NoAliasINTELMask 8 %list
        let load = [61 | 7 << 16, 5, 363, 6, 0x20002, 8, 362];
        assert_eq!(id_use_positions(&load), Some(vec![1, 3, 6]));
        // OpStore %p %v Aligned|AliasScopeINTELMask|NoAliasINTELMask 4 %scopes %list
        let store = [62 | 7 << 16, 6, 7, 0x30002, 4, 360, 362];
        assert_eq!(id_use_positions(&store), Some(vec![1, 2, 5, 6]));
        // OpStore %p %v MakePointerAvailable %scope
        let available = [62 | 5 << 16, 6, 7, 0x8, 9];
        assert_eq!(id_use_positions(&available), Some(vec![1, 2, 4]));
        // The literal-only bits keep the fixed layout.
        let plain = [61 | 6 << 16, 5, 363, 6, 0x27, 16];
        assert_eq!(id_use_positions(&plain), Some(vec![1, 3]));
        assert!(visit_fixed_use_positions(&plain, |_| {}));
        assert!(!visit_fixed_use_positions(&load, |_| {}));
    }

    #[test]
    fn an_unknown_decoration_uses_its_target_only() {
        let name = [u32::from_le_bytes(*b"dg_x"), 0];
        let host_access = [71 | 6 << 16, 7, 6147, 2, name[0], name[1]];
        assert_eq!(id_use_positions(&host_access), Some(vec![1]));
        assert!(decoration_parameters_are_literals(6147, &host_access[3..]));
        // (Its name not terminated: not the fixed layout, still a decoration of literals.)
        assert!(!decoration_parameters_are_literals(
            6147,
            &host_access[3..5]
        ));
        let unknown = [71 | 5 << 16, 9, 60000, 11, 12];
        assert_eq!(id_use_positions(&unknown), Some(vec![1]));
        let member = [72 | 5 << 16, 9, 0, 60000, 13];
        assert_eq!(id_use_positions(&member), Some(vec![1]));
        // A known decoration still goes through the grammar: `OpDecorate %x Alignment 4`.
        assert_eq!(id_use_positions(&[71 | 4 << 16, 9, 44, 4]), Some(vec![1]));
    }

    /// DPC++'s bfloat16 joint_matrix multiply-add (seed 1619 of the post-link campaign: its ESIMD
    /// and SYCL images could not be linked): `OpCooperativeMatrixMulAddKHR` with the Intel
    /// operand bit `MatrixAAndBBFloat16ComponentsINTEL` (0x40), which the grammar's enumeration
    /// lacks, uses its type and its three matrices; so without the mask, and with known bits.
    #[test]
    fn cooperative_matrix_mul_add_with_intel_operand_bits_decodes() {
        let mad = |mask: &[u32]| {
            let mut w = vec![
                4459 | (6 + mask.len() as u32) << 16,
                492,
                504,
                496,
                503,
                493,
            ];
            w.extend_from_slice(mask);
            w
        };
        assert_eq!(decode(&mad(&[0x40])).map(|_| ()), None);
        for mask in [&[0x40][..], &[], &[0x3]] {
            assert_eq!(
                id_use_positions(&mad(mask)),
                Some(vec![1, 3, 4, 5]),
                "{mask:?}"
            );
        }
        assert_eq!(decoded_use_positions(&mad(&[0x3])), Some(vec![1, 3, 4, 5]));
    }

    /// DPC++'s joint_matrix prefetch and checked load, store and fill (seeds 1730, 1733… of the
    /// post-link campaign: images holding a prefetch could not be linked with their ESIMD or
    /// device-library images), words as the translator wrote them: the grammar knows none of
    /// them; their ids and results are found, the literals (cache level, memory operands) left.
    /// So for the translator's other grammarless instructions (complex multiply, token type).
    #[test]
    fn intel_instructions_the_grammar_lacks_decode() {
        let prefetch = [6449 | 7 << 16, 617, 588, 589, 0, 45, 618];
        assert_eq!(decode(&prefetch).map(|_| ()), None);
        assert_eq!(id_use_positions(&prefetch), Some(vec![1, 2, 3, 5, 6]));
        assert_eq!(id_use_positions(&prefetch[..6]), Some(vec![1, 2, 3, 5]));
        let with_memory = [6449 | 9 << 16, 617, 588, 589, 0, 45, 618, 0x2, 16];
        assert_eq!(id_use_positions(&with_memory), Some(vec![1, 2, 3, 5, 6]));
        assert_eq!(result_id(&prefetch), None);
        let load = [6193 | 11 << 16, 114, 115, 109, 74, 74, 74, 54, 55, 100, 0];
        assert_eq!(id_use_positions(&load), Some(vec![1, 3, 4, 5, 6, 7, 8, 9]));
        assert_eq!(
            (result_type(&load), result_id(&load)),
            (Some(114), Some(115))
        );
        let store = [6194 | 10 << 16, 116, 74, 74, 112, 74, 54, 55, 100, 0];
        assert_eq!(id_use_positions(&store), Some(vec![1, 2, 3, 4, 5, 6, 7, 8]));
        assert_eq!(result_id(&store), None);
        let fill = [6195 | 8 << 16, 57, 112, 74, 74, 54, 55, 111];
        assert_eq!(id_use_positions(&fill), Some(vec![1, 3, 4, 5, 6, 7]));
        assert_eq!(result_id(&fill), Some(112));
        let coord = [6440 | 5 << 16, 30, 31, 32, 33];
        assert_eq!(id_use_positions(&coord), Some(vec![1, 3, 4]));
        let complex_mul = [6415 | 5 << 16, 30, 31, 32, 33];
        assert_eq!(id_use_positions(&complex_mul), Some(vec![1, 3, 4]));
        assert_eq!(result_id(&complex_mul), Some(31));
        let token = [6113 | 2 << 16, 40];
        assert_eq!(
            (id_use_positions(&token), result_id(&token)),
            (Some(vec![]), Some(40))
        );
        // (A memory operand whose bits take an id parameter is not guessed at.)
        let scoped = [6194 | 11 << 16, 116, 74, 74, 112, 74, 54, 55, 100, 0x8, 9];
        assert_eq!(id_use_positions(&scoped), None);
    }

    /// Every decoration the literal fast path accepts is one the grammar decodes to the target
    /// alone, with those parameters, and the fast path refuses what the grammar refuses (the
    /// FPFastMathMode bits it does not know, a parameter too many or too few).
    #[test]
    fn the_literal_fast_path_agrees_with_the_grammar() {
        let samples: &[&[u32]] = &[
            &[],
            &[0],
            &[3],
            &[0x1f],
            &[0x10000],
            &[0x30000],
            &[0x40000],
            &[0x80000],
            &[0x20],
            &[1, 2],
        ];
        let decorations = (0..=46).chain([4469, 4470, 5599, 5624, 5625, 5626, 5627, 5628]);
        for d in decorations {
            for &params in samples {
                let mut words = vec![71 | ((3 + params.len() as u32) << 16), 9, d];
                words.extend_from_slice(params);
                let fast = decoration_parameters_are_literals(d, params);
                let decoded = decoded_use_positions(&words);
                if fast {
                    assert_eq!(decoded, Some(vec![1]), "decoration {d} {params:?}");
                } else if matches!(d, 5599 | 5624..=5628) || d == 40 {
                    assert_ne!(decoded, Some(vec![1]), "decoration {d} {params:?}");
                }
            }
        }
    }
    /// `string_len`'s zero-byte test agrees with looking at each byte.
    #[test]
    fn string_len_finds_the_word_with_the_nul() {
        let bytes = [0u8, 1, 0x7f, 0x80, 0x81, 0xfe, 0xff];
        for &a in &bytes {
            for &b in &bytes {
                for &c in &bytes {
                    for &d in &bytes {
                        let w = u32::from_le_bytes([a, b, c, d]);
                        let has_nul = [a, b, c, d].contains(&0);
                        assert_eq!(string_len(&[w]), has_nul.then_some(1), "{w:#010x}");
                        assert_eq!(
                            string_len(&[0x6161_6161, w]),
                            has_nul.then_some(2),
                            "{w:#010x}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn debug_info_literals_are_not_ids() {
        // %r = OpExtInst %void %set DebugCompilationUnit <version> <dwarf> %source <language>
        let words = [head(Op::ExtInst, 9), 2, 10, 3, 1, 65536, 4, 11, 3];
        let set = ext_set(b"OpenCL.DebugInfo.100", 0);
        assert_eq!(ext_inst_use_positions(&words, set), Some(vec![1, 3, 7]));
        // NonSemantic sets only have id operands.
        let ns = ext_set(b"NonSemantic.Shader.DebugInfo.100", 0);
        assert_eq!(
            ext_inst_use_positions(&words, ns),
            Some(vec![1, 3, 5, 6, 7, 8])
        );
        assert!(ext_inst_use_positions(&words, ext_set(b"Vendor.Unknown", 0)).is_none());
        // The translator's legacy name for OpenCL.DebugInfo.100: its literals are not ids either
        // (a DebugFunction's Flags may equal an id, as 136 does here).
        // %r = OpExtInst %void %set DebugFunction %name %type %source <line> <column> %parent
        //      %linkage <flags> <scope line> %function %declaration
        let function = [
            head(Op::ExtInst, 16),
            2,
            10,
            3,
            20,
            501,
            500,
            391,
            65,
            0,
            392,
            400,
            136,
            65,
            177,
            202,
        ];
        let legacy = ext_inst_use_positions(&function, ext_set(b"SPIRV.debug", 0));
        assert_eq!(legacy, Some(vec![1, 3, 5, 6, 7, 10, 11, 14, 15]));
        assert_eq!(
            legacy,
            ext_inst_use_positions(&function, ext_set(b"OpenCL.DebugInfo.100", 0))
        );
    }

    #[test]
    fn the_translators_debug_argument_numbers_are_literals() {
        // %r = OpExtInst %void %set DebugLocalVariable %name %type %source %line %column %parent
        //      %flags <arg number>
        let words = [
            head(Op::ExtInst, 13),
            2,
            30,
            3,
            26,
            4,
            5,
            6,
            7,
            8,
            9,
            10,
            25,
        ];
        let all: Vec<usize> = [1, 3].into_iter().chain(5..13).collect();
        let translator = (TRANSLATOR_GENERATOR << 16) | 14;
        for name in [
            &b"NonSemantic.Shader.DebugInfo.100"[..],
            b"NonSemantic.Shader.DebugInfo.200",
        ] {
            let set = ext_set(name, translator);
            let mut visited = Vec::new();
            assert!(visit_ext_inst_id_positions(&words, set, &mut |p| {
                visited.push(p)
            }));
            assert_eq!(visited, all[..all.len() - 1]);
            assert_eq!(
                ext_inst_use_positions_by_grammar(&words, set),
                Some(visited)
            );
            let mut cache = ExtIdsCache::default();
            assert!(!cache.operands_are_ids(&words, |_| Some(set)));
            // Without the argument number (a local variable), and another instruction: ids.
            assert!(cache.operands_are_ids(&words[..12], |_| Some(set)));
            let mut other = words;
            other[4] = 11;
            assert!(cache.operands_are_ids(&other, |_| Some(set)));
            // Another generator's module (LLVM's SPIR-V backend: 43) writes an id there.
            let backend = ext_set(name, 43 << 16);
            assert_eq!(ext_inst_use_positions(&words, backend), Some(all.clone()));
        }
    }

    /// Every position `visit_use_positions` reports is inside the instruction, whatever its
    /// opcode and however short it is (callers index the words with it).
    #[test]
    fn use_positions_stay_inside_short_instructions() {
        for op in 0..=u16::MAX as u32 {
            for n in 1..=4usize {
                let mut w = vec![1u32; n];
                w[0] = (n as u32) << 16 | op;
                let mut outside = Vec::new();
                visit_use_positions(&w, |p| {
                    if p >= n {
                        outside.push(p)
                    }
                });
                assert!(
                    outside.is_empty(),
                    "opcode {op}, {n} words: positions {outside:?}"
                );
                if let Some(p) = id_use_positions(&w) {
                    assert!(p.iter().all(|&p| p < n), "opcode {op}, {n} words: {p:?}");
                }
            }
        }
    }

    /// The allocation-free layouts of `visit_use_positions` agree with rspirv's grammar.
    #[test]
    fn extended_instructions_without_decoding_agree_with_the_grammar() {
        use rspirv::grammar as g;
        let tables = [
            &g::OPENCL_STD_100_INSTRUCTION_TABLE,
            &g::OPENCL_DEBUGINFO_100_INSTRUCTION_TABLE,
            &g::DEBUGINFO_INSTRUCTION_TABLE,
        ];
        let mut fast = 0;
        for table in tables {
            for ext_op in 0..1024u32 {
                for n in 5..14usize {
                    // (Operand words that read as ids, literals or strings alike: 0 is a valid
                    // empty string and a valid enumerant.)
                    let mut words = vec![0u32; n];
                    words[0] = ((n as u32) << 16) | Op::ExtInst as u32;
                    words[4] = ext_op;
                    let set = ExtSet::Table(table);
                    let mut got = Vec::new();
                    let took = visit_ext_inst_id_positions(&words, set, &mut |p| got.push(p));
                    let expected = ext_inst_use_positions_by_grammar(&words, set);
                    if took {
                        fast += 1;
                        assert_eq!(Some(got), expected, "ext op {ext_op}, {n} words");
                    } else {
                        assert!(got.is_empty(), "ext op {ext_op}: called f and declined");
                    }
                    assert_eq!(ext_inst_use_positions(&words, set), expected);
                }
            }
        }
        assert!(fast > 300, "the fast path took only {fast} cases");
    }

    #[test]
    fn fast_layouts_agree_with_the_grammar() {
        let mut cases: Vec<Vec<u32>> = vec![
            vec![head(Op::Load, 4), 1, 2, 3],
            vec![head(Op::Load, 6), 1, 2, 3, 2, 4], // Aligned 4
            vec![head(Op::Store, 3), 1, 2],
            vec![head(Op::Store, 5), 1, 2, 2, 4],
            vec![head(Op::Variable, 4), 1, 2, 7],
            vec![head(Op::Variable, 5), 1, 2, 5, 9],
            vec![head(Op::Constant, 4), 1, 2, 7],
            vec![head(Op::Constant, 5), 1, 2, 7, 8], // 64-bit
            vec![head(Op::SpecConstant, 4), 1, 2, 7],
            vec![head(Op::LifetimeStart, 3), 1, 8],
            vec![head(Op::LifetimeStop, 3), 1, 8],
            vec![head(Op::TypePointer, 4), 1, 7, 3],
            vec![head(Op::TypeInt, 4), 1, 32, 0],
            vec![head(Op::TypeFloat, 3), 1, 32],
            vec![head(Op::TypeVoid, 2), 1],
            vec![head(Op::TypeBool, 2), 1],
            vec![head(Op::TypeVector, 4), 1, 2, 4],
            vec![head(Op::TypeMatrix, 4), 1, 2, 4],
            vec![head(Op::Function, 5), 1, 2, 0, 3],
            vec![head(Op::CompositeExtract, 5), 1, 2, 3, 0],
            vec![head(Op::CompositeInsert, 6), 1, 2, 3, 4, 1],
            vec![head(Op::VectorShuffle, 7), 1, 2, 3, 4, 0, 1],
            vec![head(Op::SelectionMerge, 3), 1, 0],
            vec![head(Op::LoopMerge, 4), 1, 2, 0],
            vec![head(Op::BranchConditional, 4), 1, 2, 3],
            vec![head(Op::BranchConditional, 6), 1, 2, 3, 10, 20],
            vec![head(Op::ExecutionMode, 6), 1, 17, 1, 1, 1], // LocalSize
            vec![head(Op::Line, 4), 1, 10, 2],
            vec![head(Op::NoLine, 1)],
            vec![head(Op::Nop, 1)],
            vec![head(Op::FunctionEnd, 1)],
            vec![head(Op::Return, 1)],
            vec![head(Op::Unreachable, 1)],
            vec![head(Op::Kill, 1)],
            vec![head(Op::FunctionCall, 6), 1, 2, 3, 4, 5],
            vec![head(Op::AccessChain, 6), 1, 2, 3, 4, 5],
            vec![head(Op::ConstantComposite, 5), 1, 2, 3, 4],
            vec![head(Op::Capability, 2), 6],
            vec![head(Op::MemoryModel, 3), 2, 2],
            vec![
                head(Op::Extension, 3),
                u32::from_le_bytes(*b"SPV_"),
                u32::from_le_bytes(*b"x\0\0\0"),
            ],
            vec![
                head(Op::ExtInstImport, 4),
                1,
                u32::from_le_bytes(*b"Open"),
                u32::from_le_bytes(*b"CL\0\0"),
            ],
            vec![head(Op::Name, 3), 1, 0],
            vec![head(Op::Name, 4), 1, u32::from_le_bytes(*b"abcd"), 0],
            vec![
                head(Op::MemberName, 4),
                1,
                2,
                u32::from_le_bytes(*b"ab\0\0"),
            ],
            vec![
                head(Op::Decorate, 6),
                1,
                41,
                u32::from_le_bytes(*b"abcd"),
                0,
                1,
            ],
            vec![
                head(Op::Decorate, 5),
                1,
                41,
                u32::from_le_bytes(*b"abc\0"),
                0,
            ],
        ];
        let glsl = u32::from_le_bytes(*b"a.cl");
        cases.extend([
            vec![head(Op::Source, 3), 3, 200000],
            vec![head(Op::Source, 4), 4, 100, 7],
            vec![head(Op::Source, 6), 3, 102000, 7, glsl, 0],
            vec![head(Op::EntryPoint, 4), 6, 5, 0],
            vec![head(Op::EntryPoint, 7), 6, 5, glsl, 0, 8, 9],
            vec![
                head(Op::EntryPoint, 6),
                6,
                5,
                u32::from_le_bytes(*b"k\0\0\0"),
                8,
                9,
            ],
            vec![head(Op::Decorate, 4), 1, 11, 28],
            vec![head(Op::Decorate, 3), 1, 4469],
            vec![head(Op::Decorate, 3), 1, 4470],
        ]);
        for w in cases {
            let mut fast = Vec::new();
            assert!(
                visit_use_positions(&w, |p| fast.push(p)),
                "{}",
                op_name(w[0] & 0xffff)
            );
            // rspirv cannot decode constants alone (their literal's width is their type's).
            let is_constant =
                [Op::Constant as u32, Op::SpecConstant as u32].contains(&(w[0] & 0xffff));
            let reference = if is_constant {
                Some(vec![1])
            } else {
                decoded_use_positions(&w)
            };
            assert_eq!(Some(fast), reference, "{}", op_name(w[0] & 0xffff));
        }
        // Every decoration and length: where the fast layout answers, the grammar agrees; every
        // decoration it covers is covered at the length the grammar decodes.
        let mut covered = BTreeSet::new();
        for dec in (0..=50u32).chain([4469, 4470, 4471]) {
            for n in 3..=6 {
                for value in [0, 2, 3, 7, 8, 0x20, 0x6161_6161] {
                    // LinkageAttributes: a string ending in the word before the last
                    let w: Vec<u32> = [head(Op::Decorate, n), 1, dec]
                        .into_iter()
                        .chain((3..n).map(|k| match (dec, k + 2 == n, k + 1 == n) {
                            (41, true, _) => 0,
                            (_, _, true) => value,
                            _ => 0x6161_6161,
                        }))
                        .collect();
                    let mut fast = Vec::new();
                    if fixed_use_positions(&w, &mut |p| fast.push(p)) {
                        assert_eq!(
                            Some(fast),
                            decoded_use_positions(&w),
                            "decoration {dec}, {n} words: {w:?}"
                        );
                        covered.insert(dec);
                    }
                }
            }
        }
        let expected: BTreeSet<u32> = (0..=45)
            .filter(|d| ![12, 27].contains(d))
            .chain([4469, 4470])
            .collect();
        assert_eq!(covered, expected);
    }
}
