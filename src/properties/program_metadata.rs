//! `[SYCL/program metadata]` (`--emit-program-metadata`): per function in module order (every
//! function, as DPC++'s `computeModuleProperties` writes it, not only entry points)
//! `<name>@reqd_work_group_size` (`LocalSize`, u32 ×3), `@reqd_sub_group_size` (`SubgroupSize`),
//! `@work_group_num_dim`, `@max_work_group_size` (`MaxWorkgroupSizeINTEL`, u32 ×3),
//! `@max_linear_work_group_size`; what SPIR-V does not hold (every key of a function that is not
//! an entry point) carried from the inputs' files, else from AuxData metadata
//! ([`ImageContext::function_metadata`]). Then per device global `<unique id>@global_id_mapping`
//! = its IR name.

use super::device_globals::device_globals;
use super::{non_empty, FunctionMetadata, ImageContext, PropertySet, Value, PROGRAM_METADATA};

pub(crate) fn set(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    if !ctx.emit.program_metadata {
        return None;
    }
    let (module, index) = (ctx.module, ctx.index);
    let mut props = Vec::new();
    for (f, name, entry) in ctx.named_functions() {
        for what in FunctionMetadata::ALL {
            if let Some(v) = ctx.function_metadata(f, &name, entry, what) {
                props.push((format!("{name}@{}", what.key()), v));
            }
        }
    }
    for g in device_globals(module, index) {
        props.push((
            format!("{}@global_id_mapping", g.unique_id),
            Value::bytes(g.name.into_bytes()),
        ));
    }
    non_empty(PROGRAM_METADATA, props)
}
