//! `[SYCL/misc properties]`: `isEsimdImage` (the ESIMD half of a split), `sycl-grf-size` (the first
//! entry point decorated `UserSemantic "num-thread-per-eu N"`: 4 → 256, 8 → 128, 0 → 0, the
//! automatic size; other sizes leave no trace in SPIR-V), `optLevel` (the front end's -O level,
//! which SPIR-V does not name: from `--input-prop`, else the first entry point's `sycl-optlevel` attribute in
//! `NonSemantic.AuxData`, else the level the module split shows, [`source_opt_level`]; none for an
//! image without entry points), `idQueriesRange` (the range of id queries the front end was told,
//! only when not the default: from `--input-prop`, else `uint` where the module split shows it,
//! [`source_id_queries_range`]); `sycl-register-alloc-mode`, and
//! `sycl-grf-size` where the SPIR-V has no trace of it, from the first entry point's attribute in
//! AuxData; and, placed after the device globals when the set does not exist yet,
//! `specConstsReplacedWithDefault` for an image whose spec constants were replaced by their
//! defaults.

use super::{ImageContext, PropertySet, Value, MISC_PROPERTIES};
use crate::module::index::Index;
use crate::module::inst;
use crate::module::Module;

/// `UserSemantic`.
const USER_SEMANTIC: u32 = 5635;

pub(crate) fn early(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let mut set = PropertySet::new(MISC_PROPERTIES);
    if ctx.esimd {
        set.insert("isEsimdImage", Value::Uint32(1));
    }
    if let Some(v) = first_integer_attribute(ctx, "sycl-register-alloc-mode") {
        set.insert("sycl-register-alloc-mode", Value::Uint32(v));
    }
    let grf = ctx
        .entries
        .iter()
        .find_map(|e| ctx.facts.grf_sizes.get(&e.id).copied())
        .or_else(|| first_integer_attribute(ctx, "sycl-grf-size"));
    if let Some(v) = grf {
        set.insert("sycl-grf-size", Value::Uint32(v));
    }
    let opt_level = ctx
        .carried_image_wide(MISC_PROPERTIES, "optLevel")
        .cloned()
        .or_else(|| first_integer_attribute(ctx, "sycl-optlevel").map(Value::Uint32))
        .or_else(|| (!ctx.entries.is_empty()).then_some(Value::Uint32(ctx.carried.opt_level)));
    if let Some(v) = opt_level {
        set.insert("optLevel", v);
    }
    // (Set by `-fsycl-id-queries-range` / `-fno-sycl-id-queries-fit-in-int`, written only when
    // not the default. A property file without it says the default.)
    let id_queries_range = if ctx.has_carried() {
        ctx.carried_image_wide(MISC_PROPERTIES, "idQueriesRange")
            .cloned()
    } else {
        ctx.carried.id_queries_range.map(Value::Uint32)
    };
    if let Some(v) = id_queries_range {
        set.insert("idQueriesRange", v);
    }
    if !ctx.has_carried() && !ctx.aux_describes_entries() {
        ctx.note(crate::Diagnostic::ImagePropertiesLeftOut);
    }
    (!set.properties.is_empty()).then_some(set)
}

/// `OptNoneEXT` (`OptNoneINTEL`), a function-control bit.
const OPT_NONE: u32 = 0x1_0000;

/// The `-O` level a module to split shows, for `optLevel` where neither the input's property
/// file nor AuxData gives it. DPC++ takes the first entry point's `sycl-optlevel`, the level the
/// front end compiled at: 0 at `-O0` and with `-g` (whatever `-O` goes with it), else 2. At 0
/// the front end makes the kernels `optnone`, which the translator writes as `OptNone` (not the
/// ESIMD ones, which DPC++'s ESIMD lowering inlines; their source's SYCL kernels keep it), and
/// with `-g` the module imports a debug-information set. So: 0 when an entry point is `OptNone`
/// or the module has debug information, else 2. (Not every function: DPC++'s ITT wrappers
/// are `OptNone` at every level.) On the 11,845 DPC++ 2026.2 images with an `optLevel` of the
/// reference and campaign cases, the level of their source's `off` images gives theirs.
pub(crate) fn source_opt_level(module: &Module, index: &Index) -> u32 {
    let opt_none = |id: &u32| {
        index
            .defs
            .get(id)
            .and_then(|d| module.inst(d)?.get(3).copied())
            .is_some_and(|control| control & OPT_NONE != 0)
    };
    let entry_opt_none = index
        .entry_points
        .iter()
        .filter_map(|&e| module.inst(e)?.get(2))
        .any(opt_none);
    if entry_opt_none || index.source_debug_information {
        0
    } else {
        2
    }
}

const U_LESS_THAN: u32 = spirv::Op::ULessThan as u32;
const ASSUME_TRUE: u32 = spirv::Op::AssumeTrueKHR as u32;
const TYPE_INT: u32 = spirv::Op::TypeInt as u32;
const CONSTANT: u32 = spirv::Op::Constant as u32;

/// `idQueriesRange` as the module split shows it: 1 (`-fsycl-id-queries-range=uint`) when a
/// function assumes a value below a 64-bit bound above 2^31 and at most 2^32, else none. The
/// front end bounds every id query it lowers by an assumption (`OpAssumeTrueKHR` of an
/// `OpULessThan`): by 2^31 at the default range (the optimiser may fold an offset into the bound,
/// lowering it: 2^31 − 10, …), by 2^32 with `uint`, by nothing with `size_t` (which is so not told
/// from a default build, nor a `uint` build whose assumptions the optimiser dropped — `-O0`,
/// `-g`, ESIMD kernels — from a default one; those get no `idQueriesRange`, the default's). Only
/// a module that declares such a bound is walked.
pub(crate) fn source_id_queries_range(module: &Module, index: &Index) -> Option<u32> {
    let mut int64 = Vec::new();
    let mut bounds = Vec::new();
    for i in index.annotation_end..index.globals_end.min(module.len()) {
        let Some(w) = module.inst(i) else { continue };
        match (inst::opcode(w), w) {
            (TYPE_INT, &[_, id, 64, _]) => int64.push(id),
            (CONSTANT, &[_, ty, id, low, high]) if int64.contains(&ty) => {
                let value = u64::from(low) | (u64::from(high) << 32);
                if value > 1 << 31 && value <= 1 << 32 {
                    bounds.push(id);
                }
            }
            _ => {}
        }
    }
    if bounds.is_empty() {
        return None;
    }
    let mut bounded = Vec::new();
    for i in index.globals_end..module.len() {
        let Some(w) = module.inst(i) else { continue };
        match (inst::opcode(w), w) {
            (U_LESS_THAN, &[_, _, result, _, bound]) if bounds.contains(&bound) => {
                bounded.push(result);
            }
            (ASSUME_TRUE, &[_, condition]) if bounded.contains(&condition) => return Some(1),
            _ => {}
        }
    }
    None
}

/// DPC++'s rule for an image-wide attribute: the value of the first entry point (in order) whose
/// `NonSemantic.AuxData` attribute `name` reads as an integer.
fn first_integer_attribute(ctx: &ImageContext<'_>, name: &str) -> Option<u32> {
    ctx.entries
        .iter()
        .find_map(|e| ctx.aux_attribute(e, name)?.parse::<u32>().ok())
}

/// The GRF size a decoration instruction stands for, if it is a `UserSemantic
/// "num-thread-per-eu N"`.
pub(crate) fn grf_size_of(w: &[u32]) -> Option<u32> {
    let op = inst::opcode(w);
    if !(op == 71 || op == 5632) || w.get(2) != Some(&USER_SEMANTIC) {
        return None;
    }
    let (s, _) = inst::read_string(w.get(3..)?)?;
    match s.as_slice() {
        b"num-thread-per-eu 4" => Some(256),
        b"num-thread-per-eu 8" => Some(128),
        b"num-thread-per-eu 0" => Some(0),
        _ => None,
    }
}

pub(crate) fn late(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let (map, replaced) = ctx.spec?;
    (replaced && !map.constants.is_empty()).then(|| {
        let mut set = PropertySet::new(MISC_PROPERTIES);
        set.insert("specConstsReplacedWithDefault", Value::Uint32(1));
        set
    })
}
