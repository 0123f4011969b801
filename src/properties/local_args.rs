//! `[SYCL/implicit local arg]` and `[SYCL/work group dynamic local mem]`, per kernel.
//!
//! * implicit local arg: the index of the Workgroup-pointer parameter the front end appended for
//!   `__sycl_allocateLocalMemory`; it looks like a `local_accessor` parameter in SPIR-V, so it is
//!   carried from the input's property file.
//! * work group dynamic local mem: kernels that reach the
//!   `__sycl_dynamicLocalMemoryPlaceholder_GV` variable, else carried.

use super::{non_empty, ImageContext, PropertySet, Value};
use super::{IMPLICIT_LOCAL_ARG, WORK_GROUP_DYNAMIC_LOCAL_MEM};

fn carried_per_kernel(ctx: &ImageContext<'_>, set: &str) -> Vec<(String, Value)> {
    ctx.kernels()
        .filter_map(|e| Some((e.name.clone(), ctx.carried_for(e, set, &e.name)?.clone())))
        .collect()
}

pub(crate) fn implicit_local_arg(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    non_empty(
        IMPLICIT_LOCAL_ARG,
        carried_per_kernel(ctx, IMPLICIT_LOCAL_ARG),
    )
}

pub(crate) fn work_group_dynamic_local_mem(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    non_empty(
        WORK_GROUP_DYNAMIC_LOCAL_MEM,
        carried_per_kernel(ctx, WORK_GROUP_DYNAMIC_LOCAL_MEM),
    )
}
