//! `[SYCL/specialization constants]` and `[SYCL/specialization constants default values]`: the
//! spec-constant sets of [`crate::sidecar`] (the same bytes the unsplit `.prop` has), for the
//! spec constants lowering found in the image (numbered from 0 per image).
//!
//! Before lowering ([`ImageContext::spec`] is `None`), the sets are those the image's inputs'
//! property files (`--input-prop`) describe for a module lowered before (DPC++'s `*.native.spv`:
//! its `OpSpecConstant`s are in the image): each constant all of whose SpecIds the image holds,
//! in the file's order, with its descriptors as given and its default bytes cut from the file's
//! `all` blob where the runtime reads them (dpcpp-reference §5.6). The default-values set is
//! written only when every file that gives constants gives their default bytes.

use super::{ImageContext, PropertySet, Value};
use crate::sidecar;

fn spec_set(ctx: &ImageContext<'_>, name: &str) -> Option<PropertySet> {
    let sets = match ctx.spec {
        Some((map, replaced)) => sidecar::property_sets(map, replaced),
        None => carried(ctx),
    };
    sets.into_iter().find(|s| s.name == name)
}

pub(crate) fn constants(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    spec_set(ctx, sidecar::SPEC_CONSTANTS)
}

pub(crate) fn default_values(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    spec_set(ctx, sidecar::SPEC_CONSTANTS_DEFAULT_VALUES)
}

/// The spec-constant sets the image's inputs' files give for the constants it holds (see the
/// module docs); none when they give none.
fn carried(ctx: &ImageContext<'_>) -> Vec<PropertySet> {
    let mut constants: Vec<(String, Value)> = Vec::new();
    let mut blob = Vec::new();
    let mut blob_whole = true;
    let mut named = std::collections::HashSet::new();
    for &k in ctx.inputs {
        // (A file whose sets do not parse as spec constants gives none.)
        let Some(names) = ctx.carried.spec_names(k) else {
            continue;
        };
        for c in &names.constants {
            if !c.held_by(&ctx.index.spec_ids) || named.contains(&c.name) {
                continue;
            }
            let Some(value) = ctx.carried.get(k, sidecar::SPEC_CONSTANTS, &c.name) else {
                continue;
            };
            named.insert(c.name.clone());
            constants.push((c.name.clone(), value.clone()));
            match names.default_bytes(c) {
                Some(bytes) => blob.extend_from_slice(bytes),
                None => blob_whole = false,
            }
        }
    }
    if constants.is_empty() {
        return Vec::new();
    }
    let mut sets = vec![PropertySet {
        name: sidecar::SPEC_CONSTANTS.into(),
        properties: constants,
    }];
    if blob_whole {
        sets.push(PropertySet {
            name: sidecar::SPEC_CONSTANTS_DEFAULT_VALUES.into(),
            properties: vec![(
                "all".into(),
                Value::Bytes {
                    bits: (blob.len() as u64).saturating_mul(8),
                    data: blob,
                },
            )],
        });
    }
    sets
}
