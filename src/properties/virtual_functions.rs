//! `[SYCL/virtual functions]`. The set names (`indirectly-callable` attribute values) are not in
//! SPIR-V. An unsplit image (split `off`) carries its input's set as it is. DPC++'s unsplit
//! image names only the set of its first virtual function (module order), so a split image that
//! defines that function gets `virtual-functions-set` from the file; other split images with
//! virtual functions or calls through them get no set, with a note.

use super::{EntryKind, ImageContext, PropertySet, VIRTUAL_FUNCTIONS};

pub(crate) fn set(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let (input, carried) = ctx
        .inputs
        .iter()
        .find_map(|&k| Some((k, ctx.carried.set(k, VIRTUAL_FUNCTIONS)?)))?;
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
    ctx.note(crate::Diagnostic::VirtualFunctionSetsUnknown);
    None
}
