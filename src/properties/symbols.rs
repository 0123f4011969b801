//! `[SYCL/exported symbols]`, `[SYCL/kernel names]` and `[SYCL/imported symbols]`.
//!
//! * exported: SYCL_EXTERNAL entry points (device-image dependencies allowed), then device
//!   globals defined with `Export` linkage that are not `device_image_scope` (by linkage name).
//! * kernel names (`--emit-kernel-names`): the kernels, in module order.
//! * imported (dependencies allowed): functions declared with `Import` linkage that are not
//!   builtins (names starting `__`, `_Z<n>__spirv_`, `_Z<n>__sycl_`, `_Z<n>__esimd_`) nor
//!   virtual functions.

use super::device_globals::device_globals;
use super::{non_empty, EntryKind, ImageContext, PropertySet, Value};
use super::{EXPORTED_SYMBOLS, IMPORTED_SYMBOLS, KERNEL_NAMES};

pub(crate) fn exported(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let mut props: Vec<(String, Value)> = ctx
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::Exported)
        .map(|e| (e.name.clone(), Value::Uint32(1)))
        .collect();
    for g in device_globals(ctx.module, ctx.index) {
        if let (Some(name), false) = (g.export_name, g.image_scope) {
            props.push((name, Value::Uint32(1)));
        }
    }
    non_empty(EXPORTED_SYMBOLS, props)
}

pub(crate) fn kernel_names(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    if !ctx.emit.kernel_names {
        return None;
    }
    non_empty(
        KERNEL_NAMES,
        ctx.kernels()
            .map(|e| (e.name.clone(), Value::Uint32(1)))
            .collect(),
    )
}

/// Whether DPC++ counts a function name as a builtin (never imported).
pub(crate) fn is_builtin(name: &str) -> bool {
    if name.starts_with("__") {
        return true;
    }
    let Some(rest) = name.strip_prefix("_Z") else {
        return false;
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    rest.starts_with("__spirv_") || rest.starts_with("__sycl_") || rest.starts_with("__esimd_")
}

pub(crate) fn imported(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    if !ctx.emit.allow_dependencies {
        return None;
    }
    let index = ctx.index;
    let called: crate::module::idhash::IdSet<u32> = index.calls.iter().map(|c| c.callee).collect();
    let mut props = Vec::new();
    for f in index.functions.iter().filter(|f| f.is_declaration) {
        let Some(l) = index.linkage.get(&f.id).filter(|l| l.kind == 1) else {
            continue;
        };
        let name = String::from_utf8_lossy(&l.name).into_owned();
        if !is_builtin(&name) && called.contains(&f.id) {
            props.push((name, Value::Uint32(1)));
        }
    }
    non_empty(IMPORTED_SYMBOLS, props)
}
