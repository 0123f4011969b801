//! `[SYCL/program metadata]` (`--emit-program-metadata`): per entry point in module order
//! `<name>@reqd_work_group_size` (`LocalSize`, u32 ×3), `@reqd_sub_group_size` (`SubgroupSize`),
//! `@work_group_num_dim` (not in SPIR-V: carried, else AuxData metadata), `@max_work_group_size`
//! (`MaxWorkgroupSizeINTEL`, u32 ×3), `@max_linear_work_group_size` (carried); then per device
//! global `<unique id>@global_id_mapping` = its IR name.

use super::device_globals::device_globals;
use super::{non_empty, ImageContext, PropertySet, Value, PROGRAM_METADATA};
use spirv::ExecutionMode;

/// `MaxWorkgroupSizeINTEL`.
const MAX_WORKGROUP_SIZE: u32 = 5893;

pub(crate) fn set(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    if !ctx.emit.program_metadata {
        return None;
    }
    let (module, index) = (ctx.module, ctx.index);
    let mut props = Vec::new();
    for e in ctx.entries {
        if let Some(v) = ctx.facts.mode(e.id, ExecutionMode::LocalSize) {
            props.push((format!("{}@reqd_work_group_size", e.name), Value::u32s(v)));
        }
        if let Some(v) = ctx.facts.mode(e.id, ExecutionMode::SubgroupSize) {
            let n = v.first().copied().unwrap_or(0);
            props.push((format!("{}@reqd_sub_group_size", e.name), Value::Uint32(n)));
        }
        if let Some(d) = super::device_requirements::work_group_num_dim(ctx, e) {
            props.push((format!("{}@work_group_num_dim", e.name), Value::Uint32(d)));
        }
        if let Some(v) = ctx.facts.mode_number(e.id, MAX_WORKGROUP_SIZE) {
            props.push((format!("{}@max_work_group_size", e.name), Value::u32s(v)));
        }
        let key = format!("{}@max_linear_work_group_size", e.name);
        if let Some(v) = ctx.carried_for(e, PROGRAM_METADATA, &key) {
            props.push((key, v.clone()));
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
