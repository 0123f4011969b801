//! `[SYCL/kernel param opt]`: one byte array per function whose front end eliminated arguments
//! (bit i set = original argument i eliminated): the kernels, and other functions the front end
//! marked (`sycl_kernel_omit_args`: a kernel body the translator keeps as a function, a helper
//! of `-g` or `-O0` code). The SPIR-V keeps only the remaining parameters, so the masks come from
//! the input's property file, for the kernels of this image and the other functions it defines
//! (by their linkage name or `OpName`); for an input without that set, from the functions'
//! `sycl_kernel_omit_args` metadata in `NonSemantic.AuxData` (one boolean per original argument,
//! as DPC++'s `SYCLKernelParamOptInfoAnalysis` reads it; an empty list gives no property). An
//! unsplit image keeps its file's order (DPC++'s own); a split image's masks come in the order
//! of DPC++'s analysis result, an LLVM `DenseMap` filled in function order
//! ([`in_dense_map_order`]). The set is written for every image, empty when no function has a
//! mask, as DPC++ does.

use super::{hash_order, EntryKind, ImageContext, PropertySet, Value, KERNEL_PARAM_OPT};

pub(crate) fn set(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    let mut set = PropertySet::new(KERNEL_PARAM_OPT);
    let kernels: std::collections::HashSet<(usize, &str)> = ctx
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::Kernel)
        .map(|e| (e.input, e.name.as_str()))
        .collect();
    // The other functions the image defines, by name (a kernel's name is its input's).
    let index = ctx.index;
    let defined: std::collections::HashSet<&[u8]> = index
        .functions
        .iter()
        .filter(|f| !f.is_declaration)
        .filter_map(|f| {
            index
                .linkage
                .get(&f.id)
                .map(|l| l.name.as_slice())
                .or_else(|| index.names.get(&f.id).map(Vec::as_slice))
        })
        .collect();
    let kernel_names: std::collections::HashSet<&str> = kernels.iter().map(|&(_, n)| n).collect();
    let mut without_file = Vec::new();
    for &k in ctx.inputs {
        let Some(carried) = ctx.carried.set(k, KERNEL_PARAM_OPT) else {
            without_file.push(k);
            continue;
        };
        for (name, value) in &carried.properties {
            let kernel = kernels.contains(&(k, name.as_str()));
            let other = !kernel_names.contains(name.as_str()) && defined.contains(name.as_bytes());
            if kernel || other {
                set.insert(name, value.clone());
            }
        }
    }
    let mut missing = false;
    for e in ctx.kernels().filter(|e| without_file.contains(&e.input)) {
        if !ctx.carried.aux.describes(e.id) {
            missing = true;
            continue;
        }
        if let Some(mask) = omit_args_mask(ctx, e.id) {
            set.insert(&e.name, mask);
        }
    }
    // The other functions AuxData gives a mask, in module order.
    if !without_file.is_empty() {
        let kernel_ids: std::collections::HashSet<u32> = ctx.kernels().map(|e| e.id).collect();
        for f in index.functions.iter().filter(|f| !f.is_declaration) {
            if kernel_ids.contains(&f.id) {
                continue;
            }
            let Some(name) = index
                .linkage
                .get(&f.id)
                .map(|l| &l.name)
                .or(index.names.get(&f.id))
            else {
                continue;
            };
            if let Some(mask) = omit_args_mask(ctx, f.id) {
                set.insert(&String::from_utf8_lossy(name), mask);
            }
        }
    }
    if missing {
        ctx.note(crate::Diagnostic::KernelParamOptUnknown);
    }
    if !ctx.emit.split_off {
        in_dense_map_order(ctx, &mut set);
    }
    Some(set)
}

/// Puts a split image's masks in the order DPC++ writes them: its analysis result is an LLVM
/// `DenseMap` keyed by function name, filled in the image's function order, and the set is
/// written in the map's order ([`hash_order::dense_map_order`]). (An unsplit image keeps its
/// input's file order, which is DPC++'s own.) On DPC++'s split images of the reference and
/// campaign cases this gives DPC++'s order for 98% of those with two masks or more; the input
/// file's order, filtered, for 90%. Masks of functions the image does not name keep their place
/// at the end.
fn in_dense_map_order(ctx: &ImageContext<'_>, set: &mut PropertySet) {
    if set.properties.len() < 2 {
        return;
    }
    let has: std::collections::HashSet<&str> =
        set.properties.iter().map(|(n, _)| n.as_str()).collect();
    let names: Vec<String> = (ctx.named_functions().into_iter())
        .map(|(_, name, _)| name)
        .filter(|n| has.contains(n.as_str()))
        .collect();
    let placed: Vec<&str> = names.iter().map(String::as_str).collect();
    let order = hash_order::dense_map_order(&placed);
    let rank: std::collections::HashMap<&str, usize> =
        order.iter().enumerate().map(|(k, &n)| (n, k)).collect();
    // (A stable sort: the masks the image does not name stay in their order, last.)
    set.properties
        .sort_by_key(|(n, _)| rank.get(n.as_str()).copied().unwrap_or(usize::MAX));
}

/// The mask of a kernel's `sycl_kernel_omit_args` metadata: bit i of byte i/8 for argument i
/// (an LLVM `BitVector`'s words, little-endian), `bits` = the argument count.
fn omit_args_mask(ctx: &ImageContext<'_>, kernel: u32) -> Option<Value> {
    let values = ctx.carried.aux.integers(kernel, "sycl_kernel_omit_args")?;
    if values.is_empty() {
        return None;
    }
    let mut data = vec![0u8; values.len().div_ceil(8)];
    for (i, v) in values.iter().enumerate() {
        if v.zext().is_some_and(|x| x & 1 != 0) {
            data[i / 8] |= 1 << (i % 8);
        }
    }
    Some(Value::Bytes {
        bits: values.len() as u64,
        data,
    })
}
