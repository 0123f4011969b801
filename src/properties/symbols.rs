//! `[SYCL/exported symbols]`, `[SYCL/kernel names]` and `[SYCL/imported symbols]`.
//!
//! * exported: SYCL_EXTERNAL entry points (device-image dependencies allowed), then device
//!   globals defined with `Export` linkage that are not `device_image_scope` (by linkage name).
//! * kernel names (`--emit-kernel-names`): the kernels, in module order.
//! * imported: the functions declared with `Import` linkage that the image calls or takes the
//!   address of, in module order, but virtual functions (another mechanism links those): with
//!   device-image dependencies allowed, those that are not builtins (names starting `__`,
//!   `_Z<n>__spirv_`, `_Z<n>__sycl_`, `_Z<n>__esimd_`); always, the bfloat16 conversions of the
//!   device library (`__devicelib_ConvertFToBF16INTEL` and the like: DPC++'s
//!   `isBF16DeviceLibFuncDecl`), which DPC++ links from images of their own.

use super::device_globals::device_globals;
use super::virtual_functions::pointer_targets;
use super::{non_empty, EntryKind, ImageContext, PropertySet, Value};
use super::{EXPORTED_SYMBOLS, IMPORTED_SYMBOLS, KERNEL_NAMES};
use crate::module::idhash::IdSet;

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

/// The device library's bfloat16 conversions (DPC++'s `BF16DeviceLibFuncs`).
const BF16_DEVICELIB: [&str; 14] = [
    "__devicelib_ConvertFToBF16INTEL",
    "__devicelib_ConvertBF16ToFINTEL",
    "__devicelib_ConvertFToBF16INTELVec1",
    "__devicelib_ConvertBF16ToFINTELVec1",
    "__devicelib_ConvertFToBF16INTELVec2",
    "__devicelib_ConvertBF16ToFINTELVec2",
    "__devicelib_ConvertFToBF16INTELVec3",
    "__devicelib_ConvertBF16ToFINTELVec3",
    "__devicelib_ConvertFToBF16INTELVec4",
    "__devicelib_ConvertBF16ToFINTELVec4",
    "__devicelib_ConvertFToBF16INTELVec8",
    "__devicelib_ConvertBF16ToFINTELVec8",
    "__devicelib_ConvertFToBF16INTELVec16",
    "__devicelib_ConvertBF16ToFINTELVec16",
];

/// Whether `name` is one of [`BF16_DEVICELIB`].
pub(crate) fn is_bf16_devicelib(name: &[u8]) -> bool {
    BF16_DEVICELIB.iter().any(|f| f.as_bytes() == name)
}

pub(crate) fn imported(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let index = ctx.index;
    let importable = |name: &str| {
        is_bf16_devicelib(name.as_bytes()) || (ctx.emit.allow_dependencies && !is_builtin(name))
    };
    let declared: Vec<(u32, String)> = index
        .functions
        .iter()
        .filter(|f| f.is_declaration)
        .filter_map(|f| {
            let l = index.linkage.get(&f.id).filter(|l| l.kind == 1)?;
            let name = String::from_utf8_lossy(&l.name).into_owned();
            importable(&name).then_some((f.id, name))
        })
        .collect();
    if declared.is_empty() {
        return None;
    }
    let called: IdSet<u32> = index.calls.iter().map(|c| c.callee).collect();
    let pointers = pointer_targets(ctx.module, index);
    let props = declared
        .into_iter()
        .filter(|(f, _)| {
            (called.contains(f) || pointers.address_taken.contains(f))
                && !pointers.virtual_functions.contains(f)
        })
        .map(|(_, name)| (name, Value::Uint32(1)))
        .collect();
    non_empty(IMPORTED_SYMBOLS, props)
}
