//! Reassembly: the kept instructions of a module written in SPIR-V's logical layout.
//!
//! Algorithm: a counting sort. Each instruction (a *slot*: one instruction, or several that stay
//! together) belongs to a [`Section`]; functions are split into declarations (no `OpLabel`) and
//! definitions, declarations first (SPIR-V's layout requires it). The words of each group are
//! counted, then every kept slot is copied to its place in one pass: no list of the order is
//! built, so peak memory is the slots, one byte a slot (its group) and the output.
//!
//! Preconditions: every slot's words are complete instructions; a function's slots are
//! contiguous and in order (`OpFunction` … `OpFunctionEnd`), and are all kept or all dropped.
//! Postconditions: the output is a header (`MAGIC`, the version, the generator, the bound, 0)
//! followed by the kept slots, grouped by section in [`Section`]'s order, in their own order
//! within a group; nothing else is changed (no id is renumbered, the bound is the caller's).
//!
//! Used by the linker (its arena of every input's instructions), by split's extractor (the
//! instructions of one image, some of them adapted to it) and by anything that keeps part of a
//! module ([`assemble_module`]).

use super::{Module, HEADER_WORDS, MAGIC};
use spirv::Op;

/// Sections of the logical layout, in order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Section {
    Capability,
    Extension,
    ExtInstImport,
    MemoryModel,
    EntryPoint,
    ExecutionMode,
    DebugSource,
    DebugName,
    DebugModuleProcessed,
    Annotation,
    Global,
    Function,
}

impl Section {
    /// The section of an instruction with opcode `op`; `in_functions`: it comes after the
    /// module's first `OpFunction`.
    pub fn of(op: u32, in_functions: bool) -> Section {
        if in_functions {
            return Section::Function;
        }
        match Op::from_u32(op) {
            Some(Op::Capability) => Section::Capability,
            Some(Op::Extension) => Section::Extension,
            Some(Op::ExtInstImport) => Section::ExtInstImport,
            Some(Op::MemoryModel) => Section::MemoryModel,
            Some(Op::EntryPoint) => Section::EntryPoint,
            Some(Op::ExecutionMode | Op::ExecutionModeId) => Section::ExecutionMode,
            Some(Op::String | Op::SourceExtension | Op::Source | Op::SourceContinued) => {
                Section::DebugSource
            }
            Some(Op::Name | Op::MemberName) => Section::DebugName,
            Some(Op::ModuleProcessed) => Section::DebugModuleProcessed,
            Some(
                Op::Decorate
                | Op::MemberDecorate
                | Op::DecorationGroup
                | Op::GroupDecorate
                | Op::GroupMemberDecorate
                | Op::DecorateId
                | Op::DecorateString
                | Op::MemberDecorateString,
            ) => Section::Annotation,
            _ => Section::Global,
        }
    }
}

impl Section {
    /// Whether the compilers write instructions with opcode `op` in more than one section
    /// before the functions: the Intel alias declarations (`SPV_INTEL_memory_access_aliasing`:
    /// `OpAliasDomainDeclINTEL`, `OpAliasScopeDeclINTEL`, `OpAliasScopeListDeclINTEL`), which
    /// llvm-spirv writes after the debug names and LLVM's SPIR-V backend among the types. Such
    /// an instruction stays in the section of the one before it ([`Section::in_module`]).
    pub fn floats(op: u32) -> bool {
        (5911..=5913).contains(&op)
    }

    /// The section of `module`'s instruction `i` (`in_functions`: it comes after the module's
    /// first `OpFunction`): [`Section::of`], but one that [`Section::floats`] takes the section
    /// of the instruction before it (the global section when it is the first).
    pub fn in_module(module: &Module, i: usize, in_functions: bool) -> Section {
        if in_functions {
            return Section::Function;
        }
        let mut j = i;
        while j > 0 && Section::floats(module.opcode(j)) {
            j -= 1;
        }
        let op = module.opcode(j);
        if Section::floats(op) {
            Section::Global
        } else {
            Section::of(op, false)
        }
    }
}

/// The header words of the assembled module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    words: [u32; HEADER_WORDS],
}

impl Header {
    /// `MAGIC`, SPIR-V version (major, minor), the generator, the id bound (every id of the
    /// kept slots is below it), schema 0.
    pub fn new(version: (u8, u8), generator: u32, bound: u32) -> Self {
        let (major, minor) = version;
        Header {
            words: [
                MAGIC,
                (major as u32) << 16 | (minor as u32) << 8,
                generator,
                bound,
                0,
            ],
        }
    }

    /// `module`'s header as its input held it (the version word as it was, the input's bound).
    pub fn original(module: &Module) -> Self {
        let mut header = Header::new(module.version(), module.generator(), module.bound());
        if let Some(words) = module.original_words().get(..HEADER_WORDS) {
            header.words.copy_from_slice(words);
        }
        header
    }
}

/// The instructions to assemble, addressed by slot number `0..len()`.
pub trait Slots {
    fn len(&self) -> usize;
    /// The words of slot `n` (empty for a slot that holds nothing).
    fn words(&self, n: usize) -> &[u32];
    fn section(&self, n: usize) -> Section;
    /// `words(n).len()`, for a slot list that knows it without reading the words.
    fn word_count(&self, n: usize) -> usize {
        self.words(n).len()
    }
    /// The opcode of slot `n`'s first instruction (`None`: it holds nothing), for a slot list
    /// that knows it without reading the words.
    fn opcode(&self, n: usize) -> Option<u32> {
        self.words(n).first().map(|w| w & 0xffff)
    }
}

/// The module's words: `header`, then the slots `keep` accepts in the logical layout (see the
/// module docs).
pub fn assemble(header: &Header, slots: &impl Slots, keep: impl Fn(usize) -> bool) -> Vec<u32> {
    assemble_placing(header, slots, keep, |_, _| {})
}

/// [`assemble`], calling `placed(n, rank)` once each kept slot `n` is copied, in slot order:
/// `rank` is its place among the kept slots of the output (0: the first after the header).
pub fn assemble_placing(
    header: &Header,
    slots: &impl Slots,
    keep: impl Fn(usize) -> bool,
    mut placed: impl FnMut(usize, usize),
) -> Vec<u32> {
    let group = slot_groups(slots);
    // Per group: words and slots.
    let mut size = [0usize; GROUPS];
    let mut count = [0usize; GROUPS];
    for (n, &g) in group.iter().enumerate() {
        if keep(n) {
            let g = g as usize;
            size[g] += slots.word_count(n);
            count[g] += 1;
        }
    }
    let header = header.words;
    let mut cursor = [0usize; GROUPS];
    let mut rank = [0usize; GROUPS];
    let (mut at, mut kept) = (header.len(), 0);
    for g in 0..GROUPS {
        (cursor[g], rank[g]) = (at, kept);
        at += size[g];
        kept += count[g];
    }
    let mut out = vec![0u32; at];
    out[..header.len()].copy_from_slice(&header);
    for (n, &g) in group.iter().enumerate() {
        if !keep(n) {
            continue;
        }
        let w = slots.words(n);
        let g = g as usize;
        let c = &mut cursor[g];
        out[*c..*c + w.len()].copy_from_slice(w);
        *c += w.len();
        placed(n, rank[g]);
        rank[g] += 1;
    }
    out
}

/// A [`Module`]'s instructions (as [`Module::inst`] gives them: removals and replacements
/// applied; instructions appended with `append_*` are not included) with their sections.
pub struct ModuleSlots<'a> {
    module: &'a Module,
    sections: Vec<Section>,
}

impl<'a> ModuleSlots<'a> {
    pub fn new(module: &'a Module) -> Self {
        let mut in_functions = false;
        let sections = (0..module.len())
            .map(|i| {
                in_functions |= module.opcode(i) == Op::Function as u32;
                Section::in_module(module, i, in_functions)
            })
            .collect();
        ModuleSlots { module, sections }
    }
}

impl Slots for ModuleSlots<'_> {
    fn len(&self) -> usize {
        self.module.len()
    }
    fn words(&self, n: usize) -> &[u32] {
        self.module.inst(n).unwrap_or(&[])
    }
    fn section(&self, n: usize) -> Section {
        self.sections[n]
    }
}

/// A module of the instructions `keep` accepts (by instruction index of `module`), in the
/// logical layout, with `module`'s header (version, generator, bound). To keep a function, keep
/// every instruction from its `OpFunction` to its `OpFunctionEnd`. Removed instructions are
/// never written.
#[cfg_attr(
    not(test),
    expect(
        dead_code,
        reason = "the entry point for reassembling part of one module; the pipeline reassembles \
                  only linked modules (through `assemble`)"
    )
)]
pub fn assemble_module(module: &Module, keep: impl Fn(usize) -> bool) -> Vec<u32> {
    let header = Header::new(module.version(), module.generator(), module.bound());
    let slots = ModuleSlots::new(module);
    assemble(&header, &slots, |n| keep(n) && !module.is_removed(n))
}

/// Groups of the output, in order: one per section, the functions' split in two (those without
/// a body first).
const GROUPS: usize = (Section::Function as usize + 1) * 2;
/// The group of a slot of a function definition; the one before it holds declarations.
const DEFINITION: u8 = Section::Function as u8 * 2 + 1;

/// The group of each slot: its section's number × 2, plus 1 for a slot of the function section
/// that is not part of a function without a body (`OpFunction` … `OpFunctionEnd` with no
/// `OpLabel`).
fn slot_groups(slots: &impl Slots) -> Vec<u8> {
    let mut out = Vec::with_capacity(slots.len());
    let mut start = None;
    let mut has_body = false;
    for n in 0..slots.len() {
        let section = slots.section(n);
        if section != Section::Function {
            out.push(section as u8 * 2);
            continue;
        }
        out.push(DEFINITION);
        let Some(op) = slots.opcode(n) else {
            continue;
        };
        if op == Op::Function as u32 {
            start = Some(n);
            has_body = false;
        } else if op == Op::Label as u32 {
            has_body = true;
        } else if op == Op::FunctionEnd as u32 {
            if let Some(s) = start.take() {
                if !has_body {
                    for g in out[s..=n].iter_mut().filter(|g| **g == DEFINITION) {
                        *g = DEFINITION - 1;
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::testing::{validate, TestResult};
    use crate::module::inst::build;
    use spirv::{AddressingModel, Capability, Decoration, LinkageType, MemoryModel};

    /// `"f"` as a literal string operand.
    const F: u32 = u32::from_le_bytes(*b"f\0\0\0");
    /// `"g"` as a literal string operand.
    const G: u32 = u32::from_le_bytes(*b"g\0\0\0");

    /// The instructions of a small library module, out of the logical layout: its name and
    /// decoration after the types, a function definition (`%3`, instructions 8–11) before a
    /// declaration (`%5`, 12–13).
    fn instructions() -> Vec<Vec<u32>> {
        vec![
            build(Op::Capability, &[Capability::Addresses as u32]),
            build(Op::Capability, &[Capability::Linkage as u32]),
            build(Op::Capability, &[Capability::Kernel as u32]),
            build(
                Op::MemoryModel,
                &[
                    AddressingModel::Physical64 as u32,
                    MemoryModel::OpenCL as u32,
                ],
            ),
            build(Op::TypeVoid, &[1]),
            build(Op::TypeFunction, &[2, 1]),
            build(Op::Name, &[3, F]),
            build(
                Op::Decorate,
                &[
                    5,
                    Decoration::LinkageAttributes as u32,
                    G,
                    LinkageType::Import as u32,
                ],
            ),
            build(Op::Function, &[1, 3, 0, 2]),
            build(Op::Label, &[4]),
            build(Op::Return, &[]),
            build(Op::FunctionEnd, &[]),
            build(Op::Function, &[1, 5, 0, 2]),
            build(Op::FunctionEnd, &[]),
        ]
    }

    /// A module of the instructions `order` picks, under a SPIR-V 1.4 header of bound 6.
    fn module_of(order: &[usize]) -> Vec<u32> {
        let insts = instructions();
        let mut w = vec![MAGIC, 0x0001_0400, 7, 6, 0];
        for &i in order {
            w.extend(&insts[i]);
        }
        w
    }

    #[test]
    fn the_kept_instructions_are_written_in_the_logical_layout() -> TestResult {
        let all: Vec<usize> = (0..14).collect();
        let m = Module::from_words(module_of(&all), false)?;
        let out = assemble_module(&m, |_| true);
        // Name, decoration, types; the declaration before the definition.
        let want = module_of(&[0, 1, 2, 3, 6, 7, 4, 5, 12, 13, 8, 9, 10, 11]);
        assert_eq!(out, want);
        validate(&out)?;
        Ok(())
    }

    #[test]
    fn dropped_and_removed_instructions_are_not_written() -> TestResult {
        let all: Vec<usize> = (0..14).collect();
        let mut m = Module::from_words(module_of(&all), false)?;
        // The definition goes with keep, its name as a removed instruction.
        m.remove(6);
        let out = assemble_module(&m, |i| !(8..=11).contains(&i));
        assert_eq!(out, module_of(&[0, 1, 2, 3, 7, 4, 5, 12, 13]));
        validate(&out)?;
        Ok(())
    }

    #[test]
    fn placing_tells_each_kept_slot_its_rank_in_the_output() -> TestResult {
        let all: Vec<usize> = (0..14).collect();
        let m = Module::from_words(module_of(&all), false)?;
        let slots = ModuleSlots::new(&m);
        let header = Header::new(m.version(), m.generator(), m.bound());
        let mut order = vec![usize::MAX; 13];
        let mut calls = Vec::new();
        let out = assemble_placing(
            &header,
            &slots,
            |n| n != 6,
            |n, rank| {
                calls.push(n);
                order[rank] = n;
            },
        );
        // Called in slot order, once per kept slot; the ranks give the output's order.
        assert_eq!(calls, [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13]);
        assert_eq!(order, [0, 1, 2, 3, 7, 4, 5, 12, 13, 8, 9, 10, 11]);
        assert_eq!(out, module_of(&order));
        Ok(())
    }

    #[test]
    fn the_original_header_is_the_input_s_words() -> TestResult {
        let all: Vec<usize> = (0..14).collect();
        let mut words = module_of(&all);
        // A version word with its reserved bytes set, and a generator.
        words[1] = 0x0001_0405;
        words[2] = 0x000e_0001;
        let m = Module::from_words(words.clone(), false)?;
        let out = assemble(&Header::original(&m), &ModuleSlots::new(&m), |_| true);
        assert_eq!(out[..HEADER_WORDS], words[..HEADER_WORDS]);
        let rebuilt = assemble(
            &Header::new(m.version(), m.generator(), m.bound()),
            &ModuleSlots::new(&m),
            |_| true,
        );
        assert_eq!(rebuilt[1], 0x0001_0400);
        Ok(())
    }
}
