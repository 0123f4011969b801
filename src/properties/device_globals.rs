//! `[SYCL/device globals]`: one property per device global (a variable decorated
//! `HostAccessINTEL`), keyed by its unique id (the decoration's string), in module order; value
//! `{u32 size; u32 device_image_scope}`. Both come from the layout of the 2026.2 `device_global`
//! header: a struct of two members (a USM pointer, then the value) is not image-scope and its size
//! is the second member's; a struct of one member is image-scope, sized by that member.

use super::{non_empty, ImageContext, PropertySet, Value, DEVICE_GLOBALS};
use crate::layout::Layout;
use crate::module::index::Index;
use crate::module::{inst, Module};
use crate::split::graph::HOST_ACCESS;
use spirv::Op;

/// A device global of a module.
#[derive(Clone, Debug)]
pub(crate) struct DeviceGlobal {
    pub id: u32,
    /// The `HostAccessINTEL` string (`sycl-unique-id`).
    pub unique_id: String,
    /// The variable's IR name (its `OpName`, else its linkage name).
    pub name: String,
    /// Its linkage name when defined with `Export` linkage.
    pub export_name: Option<String>,
    pub size: u32,
    pub image_scope: bool,
}

/// The device globals of `module`, in the order of their variables.
pub(crate) fn device_globals(module: &Module, index: &Index) -> Vec<DeviceGlobal> {
    let mut decorated: Vec<(u32, String)> = Vec::new();
    for i in 0..index.annotation_end.min(module.len()) {
        let Some(w) = module.inst(i) else { continue };
        if inst::is(w, Op::Decorate) && w.len() >= 5 && HOST_ACCESS.contains(&w[2]) {
            if let Some((s, _)) = inst::read_string(&w[4..]) {
                decorated.push((w[1], String::from_utf8_lossy(&s).into_owned()));
            }
        }
    }
    if decorated.is_empty() {
        return Vec::new();
    }
    // The first name of each decorated id (a module names many more ids than it has device
    // globals: only those names are read).
    let targets: crate::module::idhash::IdSet<u32> = decorated.iter().map(|&(id, _)| id).collect();
    let mut names: crate::module::idhash::IdMap<u32, Vec<u8>> = Default::default();
    for i in 0..index.annotation_end.min(module.len()) {
        let Some(w) = module.inst(i) else { continue };
        if inst::is(w, Op::Name) && w.len() >= 3 && targets.contains(&w[1]) {
            if let Some((s, _)) = inst::read_string(&w[2..]) {
                names.entry(w[1]).or_insert(s);
            }
        }
    }
    let mut layout = Layout::new(module, index);
    let mut out: Vec<(usize, DeviceGlobal)> = Vec::new();
    for (id, unique_id) in decorated {
        let Some(def) = index.defs.get(&id) else {
            continue;
        };
        let Some(w) = module.inst(def) else { continue };
        if !inst::is(w, Op::Variable) {
            continue;
        }
        let pointee = layout
            .words_of(w[1])
            .filter(|p| inst::is(p, Op::TypePointer))
            .and_then(|p| p.get(3).copied());
        let members: Vec<u32> = pointee
            .and_then(|t| layout.words_of(t))
            .filter(|s| inst::is(s, Op::TypeStruct))
            .map(|s| s[2..].to_vec())
            .unwrap_or_default();
        let (value_type, image_scope) = match members.as_slice() {
            [only] => (Some(*only), true),
            [_, value] => (Some(*value), false),
            _ => (pointee, false),
        };
        let size = value_type
            .and_then(|t| layout.size_align(t).ok())
            .map_or(0, |s| s.size as u32);
        let linkage = index.linkage.get(&id);
        let export_name = linkage
            .filter(|l| l.kind == 0)
            .map(|l| String::from_utf8_lossy(&l.name).into_owned());
        let name = names
            .get(&id)
            .or(linkage.map(|l| &l.name))
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_else(|| format!("%{id}"));
        out.push((
            def,
            DeviceGlobal {
                id,
                unique_id,
                name,
                export_name,
                size,
                image_scope,
            },
        ));
    }
    out.sort_by_key(|(d, _)| *d);
    out.into_iter().map(|(_, g)| g).collect()
}

pub(crate) fn set(ctx: &ImageContext<'_>) -> Option<PropertySet> {
    non_empty(
        DEVICE_GLOBALS,
        device_globals(ctx.module, ctx.index)
            .into_iter()
            .map(|g| (g.unique_id, Value::u32s(&[g.size, g.image_scope as u32])))
            .collect(),
    )
}
