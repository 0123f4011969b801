//! `[SYCL/kernel param opt]`: one byte array per kernel whose front end eliminated arguments
//! (bit i set = original argument i eliminated). The SPIR-V keeps only the remaining parameters,
//! so the masks are carried from the input's property file, for the kernels of this image, in
//! the file's order (DPC++'s own order is a hash order). The set is written for every image,
//! empty when no kernel has a mask, as DPC++ does.

use super::{EntryKind, ImageContext, PropertySet, KERNEL_PARAM_OPT};

pub(crate) fn set(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let mut set = PropertySet::new(KERNEL_PARAM_OPT);
    let kernels: std::collections::HashSet<(usize, &str)> = ctx
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::Kernel)
        .map(|e| (e.input, e.name.as_str()))
        .collect();
    let mut missing = false;
    for &k in ctx.inputs {
        let Some(carried) = ctx.carried.set(k, KERNEL_PARAM_OPT) else {
            missing = true;
            continue;
        };
        for (name, value) in &carried.properties {
            if kernels.contains(&(k, name.as_str())) {
                set.insert(name, value.clone());
            }
        }
    }
    if missing && ctx.kernels().next().is_some() {
        ctx.note(crate::Diagnostic::KernelParamOptUnknown);
    }
    Some(set)
}
