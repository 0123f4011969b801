//! `[SYCL/virtual functions]`. The set names are the `indirectly-callable` and
//! `calls-indirectly` attribute values: not in SPIR-V.
//!
//! * From `--input-prop`: an unsplit image (split `off`) carries its input's set as it is.
//!   DPC++'s unsplit image names only the set of its first virtual function (module order), so
//!   a split image that defines that function gets `virtual-functions-set` from the file.
//! * Otherwise, where `NonSemantic.AuxData` holds the attributes, DPC++'s rule
//!   (`computeModuleProperties`): the first function definition of the image (module order)
//!   with `indirectly-callable` gives `virtual-functions-set` = its value; without one, the
//!   comma-separated `calls-indirectly` values of every definition, as a set, give
//!   `uses-virtual-functions-set` (joined by commas in byte order; DPC++ joins a `StringSet` in
//!   hash order, which the runtime reads as a set too).
//! * Otherwise an image with virtual functions gets no set, with a note.

use super::{EntryKind, ImageContext, PropertySet, Value, VIRTUAL_FUNCTIONS};
use std::collections::BTreeSet;

pub(crate) fn set(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let carried = ctx
        .inputs
        .iter()
        .find_map(|&k| Some((k, ctx.carried.set(k, VIRTUAL_FUNCTIONS)?)));
    if let Some((input, carried)) = carried {
        if ctx.emit.split_off {
            return Some(carried.clone());
        }
        let first = ctx.carried.first_virtual.get(input).cloned().flatten();
        let holds_first = ctx
            .entries
            .iter()
            .any(|e| e.kind == EntryKind::Virtual && Some(&e.name) == first.as_ref());
        if let (true, Some(v)) = (holds_first, carried.get("virtual-functions-set")) {
            let mut set = PropertySet::new(VIRTUAL_FUNCTIONS);
            set.insert("virtual-functions-set", v.clone());
            return Some(set);
        }
    }
    if ctx.aux_describes_entries() {
        return from_auxdata(ctx);
    }
    if carried.is_some() {
        ctx.note(crate::Diagnostic::VirtualFunctionSetsUnknown);
    }
    None
}

/// DPC++'s rule on the attributes `NonSemantic.AuxData` holds.
fn from_auxdata(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let aux = &ctx.carried.aux;
    let mut used: BTreeSet<&str> = BTreeSet::new();
    for f in ctx.index.functions.iter().filter(|f| !f.is_declaration) {
        if let Some(v) = aux.attribute(f.id, "indirectly-callable") {
            let mut set = PropertySet::new(VIRTUAL_FUNCTIONS);
            set.insert("virtual-functions-set", Value::bytes(v.as_bytes().to_vec()));
            return Some(set);
        }
        if let Some(v) = aux.attribute(f.id, "calls-indirectly") {
            used.extend(v.split(',').filter(|s| !s.is_empty()));
        }
    }
    if used.is_empty() {
        return None;
    }
    let joined = used.into_iter().collect::<Vec<_>>().join(",");
    let mut set = PropertySet::new(VIRTUAL_FUNCTIONS);
    set.insert(
        "uses-virtual-functions-set",
        Value::bytes(joined.into_bytes()),
    );
    Some(set)
}
