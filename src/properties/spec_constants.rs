//! `[SYCL/specialization constants]` and `[SYCL/specialization constants default values]`: the
//! spec-constant sets of [`crate::sidecar`] (the same bytes the unsplit `.prop` has), for the
//! spec constants lowering found in the image (numbered from 0 per image).

use super::{ImageContext, PropertySet};
use crate::sidecar;

fn spec_set(ctx: &ImageContext<'_>, name: &str) -> Option<PropertySet> {
    let (map, replaced) = ctx.spec?;
    sidecar::property_sets(map, replaced)
        .into_iter()
        .find(|s| s.name == name)
}

pub(crate) fn constants(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    spec_set(ctx, sidecar::SPEC_CONSTANTS)
}

pub(crate) fn default_values(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    spec_set(ctx, sidecar::SPEC_CONSTANTS_DEFAULT_VALUES)
}
