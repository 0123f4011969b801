//! `[SYCL/device requirements]` (DPC++'s `computeDeviceRequirements`, keys sorted by name).
//!
//! * `aspects` (always written): fp16 (5) and fp64 (6) when a function of the image uses a type
//!   holding a 16- or 64-bit float (through pointers too: half is reached only through pointers
//!   under `Float16Buffer`), atomic64 (27) for an atomic instruction on a 64-bit integer or
//!   float (DPC++'s `atomic_ref` asks for atomic64 for every 8-byte type),
//!   ext_oneapi_atomic16 (73) for one on a 16-bit float or integer (`atomic_ref<half>`, whose
//!   2-byte specialisation asks for it), ext_oneapi_clock_sub_group / work_group / device (84,
//!   85, 86) for an `OpReadClockKHR` of that scope (the `clock<scope>()` specialisations ask
//!   for them), ext_intel_esimd (49) for an ESIMD image; u32 each, ascending. With split `off` the input's
//!   own `aspects` (from `--input-prop`) are added. A function `NonSemantic.AuxData` describes
//!   gives its `sycl_used_aspects` metadata instead of what its code shows (DPC++'s own source:
//!   it also holds `device_has` aspects and a `half` the optimiser folded away). Without
//!   AuxData those are not known and are left out.
//! * `fixed_target`, `joint_matrix`, `joint_matrix_mad`: from `NonSemantic.AuxData` (the
//!   functions' `sycl_fixed_targets`, `sycl_joint_matrix(_mad)` metadata; see [`metadata_only`]).
//! * `reqd_sub_group_size`: the `SubgroupSize` of the first entry point that has one.
//! * `reqd_work_group_size_uint64_t`: the `LocalSize` of the first entry point (module order)
//!   that has one, as 3 u64s; not written when the split mode is `off`.
//! * `work_group_num_dim`: from the carried `<kernel>@work_group_num_dim` program metadata (else
//!   the kernel's `work_group_num_dim` metadata in AuxData) of a function met before any
//!   function with a required work-group size.

use super::{FunctionMetadata, ImageContext, PropertySet, Value, DEVICE_REQUIREMENTS};
use crate::module::idhash::{IdBits, IdTable};
use crate::module::index::Index;
use crate::module::{inst, Module};
use spirv::Op;

pub(crate) const FP16: u32 = 5;
pub(crate) const FP64: u32 = 6;
pub(crate) const ATOMIC64: u32 = 27;
pub(crate) const ESIMD: u32 = 49;
pub(crate) const ATOMIC16: u32 = 73;
pub(crate) const CLOCK_SUB_GROUP: u32 = 84;
pub(crate) const CLOCK_WORK_GROUP: u32 = 85;
pub(crate) const CLOCK_DEVICE: u32 = 86;

/// Aspect bits of a function's code ([`function_aspects`]).
const BIT_FP16: u8 = 1;
const BIT_FP64: u8 = 2;
const BIT_ATOMIC64: u8 = 4;
const BIT_ATOMIC16: u8 = 8;
const BIT_CLOCK_SUB_GROUP: u8 = 16;
const BIT_CLOCK_WORK_GROUP: u8 = 32;
const BIT_CLOCK_DEVICE: u8 = 64;

/// Type bits ([`TypeAspects`]): a 16-bit float, a 64-bit float (the aspect bits of the same
/// name), a 64-bit integer, a 16-bit integer.
const TYPE_INT64: u8 = 8;
const TYPE_INT16: u8 = 16;
/// `OpReadClockKHR` (SPV_KHR_shader_clock).
const OP_READ_CLOCK: u32 = 5056;

pub(crate) fn set(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let mut aspects = aspects_with_auxdata(ctx);
    if ctx.esimd {
        aspects.push(ESIMD);
    }
    // An unsplit image holds all its input's kernels: the input's own aspects are its (they
    // include those the code no longer shows, such as a `device_has` attribute's).
    if ctx.emit.split_off {
        for &k in ctx.inputs {
            if let Some(Value::Bytes { data, .. }) =
                ctx.carried.get(k, DEVICE_REQUIREMENTS, "aspects")
            {
                aspects.extend(
                    data.chunks_exact(4)
                        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                );
            }
        }
    }
    aspects.sort_unstable();
    aspects.dedup();
    let mut set = PropertySet::new(DEVICE_REQUIREMENTS);
    set.insert("aspects", Value::u32s(&aspects));
    for (name, value) in metadata_only(ctx) {
        set.insert(name, value);
    }
    // The sub-group size of the first entry point that has one; the work-group size of the
    // first function (any function: a helper's attribute counts) that has one, and the
    // dimensions of the functions seen until then (DPC++'s `computeDeviceRequirements`).
    if let Some(n) = (ctx.entries.iter()).find_map(|e| {
        ctx.function_metadata(e.id, &e.name, Some(e), FunctionMetadata::ReqdSubGroupSize)
    }) {
        set.insert("reqd_sub_group_size", n);
    }
    let mut reqd: Option<Vec<u32>> = None;
    let mut num_dim = None;
    for (f, name, entry) in ctx.named_functions() {
        if reqd.is_some() {
            break;
        }
        if let Some(Value::Uint32(d)) =
            ctx.function_metadata(f, &name, entry, FunctionMetadata::WorkGroupNumDim)
        {
            num_dim = Some(d);
        }
        reqd = ctx
            .function_metadata(f, &name, entry, FunctionMetadata::ReqdWorkGroupSize)
            .map(|size| size.to_u32s());
    }
    if let Some(size) = reqd.filter(|_| !ctx.emit.split_off) {
        let wide: Vec<u64> = size.iter().map(|&v| v as u64).collect();
        set.insert("reqd_work_group_size_uint64_t", Value::u64s(&wide));
    }
    if let Some(d) = num_dim {
        set.insert("work_group_num_dim", Value::Uint32(d));
    }
    Some(set)
}

/// `fixed_target`, `joint_matrix` and `joint_matrix_mad`, in that (DPC++'s key) order: metadata
/// SPIR-V has no place for. `fixed_target`: the union of every image function's
/// `sycl_fixed_targets` in `NonSemantic.AuxData`, ascending, written only when not empty;
/// `joint_matrix(_mad)`: the last non-empty `sycl_joint_matrix(_mad)` string, in function order
/// (DPC++'s `computeDeviceRequirements`). With split `off`, the input's own values (from
/// `--input-prop`) come first, as for every property; AuxData gives what its file lacks.
fn metadata_only(ctx: &ImageContext<'_>) -> Vec<(&'static str, Value)> {
    let aux = &ctx.carried.aux;
    let mut fixed: Vec<u32> = Vec::new();
    let (mut joint, mut joint_mad) = (None, None);
    let last_string = |f: u32, name: &str| match aux.metadata(f, name)?.first()? {
        super::auxdata::MdValue::String(s) if !s.is_empty() => Some(s.clone()),
        _ => None,
    };
    for f in &ctx.index.functions {
        if let Some(values) = aux.integers(f.id, "sycl_fixed_targets") {
            fixed.extend(values.iter().filter_map(|v| v.zext()).map(|v| v as u32));
        }
        joint = last_string(f.id, "sycl_joint_matrix").or(joint);
        joint_mad = last_string(f.id, "sycl_joint_matrix_mad").or(joint_mad);
    }
    fixed.sort_unstable();
    fixed.dedup();
    let mut found = Vec::new();
    if !fixed.is_empty() {
        found.push(("fixed_target", Value::u32s(&fixed)));
    }
    found.extend(joint.map(|s| ("joint_matrix", Value::bytes(s.into_bytes()))));
    found.extend(joint_mad.map(|s| ("joint_matrix_mad", Value::bytes(s.into_bytes()))));
    // The input's own values come first: with `off`, all three, from the file of the image's
    // input; in a split image holding its input's one matrix kernel (which AuxData does not
    // describe), the joint-matrix strings of that input's file, which are the kernel's.
    let matrix_kernel = ctx.kernels().find(|e| {
        !aux.describes(e.id)
            && ctx.carried.matrix_kernel.get(e.input).copied().flatten() == Some(e.id)
    });
    let (inputs, names): (&[usize], &[&str]) = match matrix_kernel {
        _ if ctx.emit.split_off => (
            ctx.inputs,
            &["fixed_target", "joint_matrix", "joint_matrix_mad"],
        ),
        Some(e) => (
            std::slice::from_ref(&e.input),
            &["joint_matrix", "joint_matrix_mad"],
        ),
        None => (&[], &[]),
    };
    for &name in names {
        let carried = (inputs.iter()).find_map(|&k| ctx.carried.get(k, DEVICE_REQUIREMENTS, name));
        if let Some(v) = carried {
            found.retain(|(n, _)| *n != name);
            found.push((name, v.clone()));
        }
    }
    found.sort_by_key(|(n, _)| *n);
    found
}

/// The image's aspects, unsorted: for a function `NonSemantic.AuxData` describes, its
/// `sycl_used_aspects` metadata (the front end's own list, which also holds `device_has`
/// aspects and those of code the optimiser removed; negative values are internal and left
/// out, as in DPC++'s `computeDeviceRequirements`); for the other function definitions, what
/// their code shows ([`function_aspects`]).
fn aspects_with_auxdata(ctx: &ImageContext<'_>) -> Vec<u32> {
    let aux = &ctx.carried.aux;
    if aux.is_empty() {
        return image_aspects(ctx.module, ctx.index);
    }
    let mut types = TypeAspects::new(ctx.module, ctx.index);
    let mut found = 0u8;
    let mut listed = Vec::new();
    for f in &ctx.index.functions {
        if aux.describes(f.id) {
            let values = aux.integers(f.id, "sycl_used_aspects").unwrap_or_default();
            listed.extend(
                values
                    .iter()
                    .filter_map(|v| v.sext())
                    .filter_map(|a| u32::try_from(a).ok()),
            );
        } else if !f.is_declaration {
            found |= function_aspects(ctx.module, ctx.index, f, &mut types);
        }
    }
    listed.extend(bits_to_aspects(found));
    listed
}

/// Aspects the functions of `module` show (fp16, fp64, atomic64), unsorted.
pub(crate) fn image_aspects(module: &Module, index: &Index) -> Vec<u32> {
    let mut types = TypeAspects::new(module, index);
    let mut found = 0u8;
    for f in index.functions.iter().filter(|f| !f.is_declaration) {
        found |= function_aspects(module, index, f, &mut types);
    }
    bits_to_aspects(found)
}

/// Aspect bits ([`function_aspects`]) as aspect values.
pub(crate) fn bits_to_aspects(bits: u8) -> Vec<u32> {
    [
        (BIT_FP16, FP16),
        (BIT_FP64, FP64),
        (BIT_ATOMIC64, ATOMIC64),
        (BIT_ATOMIC16, ATOMIC16),
        (BIT_CLOCK_SUB_GROUP, CLOCK_SUB_GROUP),
        (BIT_CLOCK_WORK_GROUP, CLOCK_WORK_GROUP),
        (BIT_CLOCK_DEVICE, CLOCK_DEVICE),
    ]
    .into_iter()
    .filter(|&(b, _)| bits & b != 0)
    .map(|(_, a)| a)
    .collect()
}

/// Memo of which aspects a type holds ([`BIT_FP16`], [`BIT_FP64`], [`TYPE_INT64`], [`TYPE_INT16`]) and of the
/// fp16/fp64 bits of the global-section values functions use, for one module: arrays indexed by
/// id (hash maps when the bound is too large for the module), so that the per-instruction
/// lookups of [`function_aspects`] are an array read each.
pub(crate) struct TypeAspects {
    /// Per type: its bits + 1 (0: not worked out yet).
    types: IdTable<u8>,
    /// Per global-section value: the fp16/fp64 bits of its type + 1 (0: not worked out yet).
    values: IdTable<u8>,
    /// The ids the global section defines (types, constants, variables, …).
    globals: IdBits,
    /// The global-section values whose type may hold a 16- or 64-bit float: a superset of those
    /// [`TypeAspects::global_value`] finds (every type a type reaches counted, whatever order
    /// the memo is filled in), so that an instruction none of whose words is one of them needs
    /// no decoding of its operands.
    maybe_float: IdBits,
}

impl TypeAspects {
    pub(crate) fn new(module: &Module, index: &Index) -> TypeAspects {
        let budget = module.word_count();
        let (globals, maybe_float) = global_values(module, index, budget);
        TypeAspects {
            types: IdTable::new(module.bound(), budget),
            values: IdTable::new(module.bound(), budget),
            globals,
            maybe_float,
        }
    }

    /// Whether some word after the opcode of `words` may be a value [`TypeAspects::global_value`]
    /// gives bits for.
    #[inline]
    fn may_use_float_global(&self, words: &[u32]) -> bool {
        !self.maybe_float.is_empty_set() && words[1..].iter().any(|&x| self.maybe_float.contains(x))
    }

    fn of(&mut self, module: &Module, index: &Index, ty: u32) -> u8 {
        let known = self.types.get(ty);
        if known != 0 {
            return known - 1;
        }
        *self.types.get_mut(ty) = 1; // cycles through forward pointers end here (bits 0)
        let Some(w) = index.defs.get(&ty).and_then(|d| module.inst(d)) else {
            return 0;
        };
        let op = inst::opcode(w);
        let bits = match op {
            x if x == Op::TypeFloat as u32 => match w.get(2) {
                Some(16) => 1,
                Some(64) => 2,
                _ => 0,
            },
            x if x == Op::TypeInt as u32 => match w.get(2) {
                Some(64) => TYPE_INT64,
                Some(16) => TYPE_INT16,
                _ => 0,
            },
            x if x == Op::TypeVector as u32
                || x == Op::TypeMatrix as u32
                || x == Op::TypeArray as u32
                || x == Op::TypeRuntimeArray as u32 =>
            {
                w.get(2).map_or(0, |&t| self.of(module, index, t))
            }
            x if x == Op::TypeStruct as u32 => {
                w[2..].iter().fold(0, |b, &t| b | self.of(module, index, t))
            }
            x if x == Op::TypePointer as u32 => {
                w.get(3).map_or(0, |&t| self.of(module, index, t) & 3)
            }
            _ => 0,
        };
        *self.types.get_mut(ty) = bits + 1;
        bits
    }

    /// The fp16/fp64 bits of the type of `id` when the global section defines it (a constant or
    /// variable a function uses), else 0.
    #[inline]
    fn global_value(&mut self, module: &Module, index: &Index, id: u32) -> u8 {
        if !self.globals.contains(id) {
            return 0;
        }
        let known = self.values.get(id);
        if known != 0 {
            return known - 1;
        }
        let bits = match index
            .defs
            .get(&id)
            .and_then(|d| module.inst(d))
            .and_then(inst::result_type)
        {
            Some(t) => self.of(module, index, t) & 3,
            None => 0,
        };
        *self.values.get_mut(id) = bits + 1;
        bits
    }
}

/// The ids the global section defines, and those of its values whose type reaches a 16- or
/// 64-bit float (through vectors, matrices, arrays, struct members and pointees): the types'
/// bits are joined until nothing changes (forward pointers make cycles), then each value's type
/// is looked up.
fn global_values(module: &Module, index: &Index, budget: usize) -> (IdBits, IdBits) {
    let range = index.annotation_end..index.globals_end.min(module.len());
    let mut float_types = IdBits::new(module.bound(), budget);
    let mut changed = true;
    while changed {
        changed = false;
        for i in range.clone() {
            let Some(w) = module.inst(i) else { continue };
            let op = inst::opcode(w);
            let reaches = match op {
                x if x == Op::TypeFloat as u32 => matches!(w.get(2), Some(16 | 64)),
                x if x == Op::TypeVector as u32
                    || x == Op::TypeMatrix as u32
                    || x == Op::TypeArray as u32
                    || x == Op::TypeRuntimeArray as u32 =>
                {
                    w.get(2).is_some_and(|&t| float_types.contains(t))
                }
                x if x == Op::TypeStruct as u32 => w
                    .get(2..)
                    .is_some_and(|m| m.iter().any(|&t| float_types.contains(t))),
                x if x == Op::TypePointer as u32 => {
                    w.get(3).is_some_and(|&t| float_types.contains(t))
                }
                _ => false,
            };
            if reaches {
                if let Some(&r) = w.get(1) {
                    changed |= float_types.insert(r);
                }
            }
        }
    }
    let mut globals = IdBits::new(module.bound(), budget);
    let mut values = IdBits::new(module.bound(), budget);
    for i in range {
        let Some(w) = module.inst(i) else { continue };
        let Some(r) = inst::result_id(w) else {
            continue;
        };
        globals.insert(r);
        if inst::result_type(w).is_some_and(|t| float_types.contains(t)) {
            values.insert(r);
        }
    }
    (globals, values)
}

/// Aspect bits of one function's own instructions ([`BIT_FP16`] …).
pub(crate) fn function_aspects(
    module: &Module,
    index: &Index,
    f: &crate::module::index::Function,
    types: &mut TypeAspects,
) -> u8 {
    let mut found = 0u8;
    for i in f.start..=f.end {
        let Some(w) = module.inst(i) else { continue };
        let op = inst::opcode(w);
        if let Some(t) = inst::result_type(w) {
            let b = types.of(module, index, t);
            found |= b & 3;
            if is_atomic(op) {
                found |= atomic_bits(b);
            }
        }
        if op == Op::AtomicStore as u32 {
            if let Some(t) = w
                .get(4)
                .and_then(|v| index.defs.get(v))
                .and_then(|d| module.inst(d))
                .and_then(inst::result_type)
            {
                found |= atomic_bits(types.of(module, index, t));
            }
        }
        if op == OP_READ_CLOCK {
            found |= clock_bits(module, index, w);
        }
        // Constants and variables the function uses.
        if types.may_use_float_global(w) {
            index.visit_use_ids(module, w, |u| found |= types.global_value(module, index, u));
        }
    }
    found
}

/// The aspect bits of an atomic instruction on a value of type bits `b`: atomic64 for an 8-byte
/// type (64-bit integer or float), atomic16 for a 2-byte one.
fn atomic_bits(b: u8) -> u8 {
    let mut bits = 0;
    if b & (BIT_FP64 | TYPE_INT64) != 0 {
        bits |= BIT_ATOMIC64;
    }
    if b & (BIT_FP16 | TYPE_INT16) != 0 {
        bits |= BIT_ATOMIC16;
    }
    bits
}

/// The clock aspect bit of `OpReadClockKHR %type %scope` (`words`): by its scope constant,
/// Device (1), Workgroup (2) or Subgroup (3); none for another scope or one not a constant.
fn clock_bits(module: &Module, index: &Index, words: &[u32]) -> u8 {
    let scope = words
        .get(3)
        .and_then(|s| index.defs.get(s))
        .and_then(|d| module.inst(d))
        .filter(|c| inst::is(c, Op::Constant))
        .and_then(|c| c.get(3).copied());
    match scope {
        Some(1) => BIT_CLOCK_DEVICE,
        Some(2) => BIT_CLOCK_WORK_GROUP,
        Some(3) => BIT_CLOCK_SUB_GROUP,
        _ => 0,
    }
}

fn is_atomic(op: u32) -> bool {
    // OpAtomicLoad 227 … OpAtomicXor 242, OpAtomicFlagTestAndSet 318, OpAtomicFMinEXT 5614,
    // OpAtomicFMaxEXT 5615, OpAtomicFAddEXT 6035.
    matches!(op, 227..=242 | 318 | 5614 | 5615 | 6035)
}
