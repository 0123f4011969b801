//! `[SYCL/misc properties]`: `isEsimdImage` (the ESIMD half of a split), `sycl-grf-size` (the
//! first entry point decorated `UserSemantic "num-thread-per-eu N"`: 4 → 256, 8 → 128, 0 → 0,
//! the automatic size; other sizes leave no trace in SPIR-V), `optLevel` (the front end's -O
//! level is not in SPIR-V: from `--input-prop`, else the first entry point's `sycl-optlevel`
//! attribute in `NonSemantic.AuxData`), `idQueriesRange` (the range of id queries the front end
//! was told, only when not the default: from `--input-prop` only); `sycl-register-alloc-mode`,
//! and `sycl-grf-size` where
//! the SPIR-V has no trace of it, from the first entry point's attribute in AuxData; and, placed
//! after
//! the device globals when the set does not exist yet, `specConstsReplacedWithDefault` for an
//! image whose spec constants were replaced by their defaults.

use super::{ImageContext, PropertySet, Value, MISC_PROPERTIES};
use crate::module::inst;

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
        .or_else(|| first_integer_attribute(ctx, "sycl-optlevel").map(Value::Uint32));
    if let Some(v) = opt_level {
        set.insert("optLevel", v);
    }
    // (Set by `-fsycl-id-queries-range` / `-fno-sycl-id-queries-fit-in-int`, written only when
    // not the default: the SPIR-V keeps no trace of it.)
    if let Some(v) = ctx.carried_image_wide(MISC_PROPERTIES, "idQueriesRange") {
        set.insert("idQueriesRange", v.clone());
    }
    if !ctx.has_carried() {
        ctx.note(if ctx.aux_describes_entries() {
            crate::Diagnostic::ImplicitLocalArgsLeftOut
        } else {
            crate::Diagnostic::ImagePropertiesLeftOut
        });
    }
    (!set.properties.is_empty()).then_some(set)
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
