//! The spec constants of a lowered module as trees: every `OpSpecConstant*`, with its SpecId,
//! type and default value; an `OpSpecConstantComposite` with its constituents as children (at
//! their byte offsets, by the layout rules of `crate::layout`); and, given the names
//! ([`SymbolNames`]), each symbolic name's constant: the composite whose leaves carry exactly the
//! name's SpecIds (or the one scalar), its default bytes assembled from the leaves.
//!
//! Precondition: an index of the module (`module::index::Index`). Nothing is changed. An instruction that cannot be
//! read as a constant (too few operands, a type it does not know) becomes a node without a
//! value, never an error: `info` describes any module spec-link would process.

use super::names::SymbolNames;
use super::value::{scalar_bytes, Value};
use crate::layout::{Layout, TypeKind};
use crate::module::idhash::IdMap;
use crate::module::index::Index;
use crate::module::inst;
use crate::module::Module;
use crate::split::graph::HOST_ACCESS;
use serde::Serialize;
use spirv::{Decoration, Op};

/// Deepest composite nesting followed.
const MAX_DEPTH: usize = 64;

/// One node of a constant's tree.
#[derive(Clone, Debug, Serialize)]
pub struct ConstNode {
    /// Result id.
    pub id: u32,
    /// The defining instruction, e.g. `OpSpecConstant`, `OpConstantNull`.
    pub op: String,
    /// The `SpecId` decoration, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec_id: Option<u32>,
    /// The type, disassembled.
    #[serde(rename = "type")]
    pub ty: String,
    /// Byte offset inside the root constant.
    pub offset: u64,
    /// Size in bytes (store size; 1 for a boolean).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// A scalar's default value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// A scalar's default value as its little-endian bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_hex: Option<String>,
    /// `OpSpecConstantOp`: the operation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// `OpSpecConstantOp`: its operands (ids, or literals where the operation takes them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub operands: Vec<u32>,
    /// A composite's constituents, in member order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<ConstNode>,
}

impl ConstNode {
    /// Visits the node and its descendants, depth first.
    pub(crate) fn walk<'a>(&'a self, f: &mut impl FnMut(&'a ConstNode)) {
        f(self);
        for m in &self.members {
            m.walk(f);
        }
    }

    /// SpecIds of its leaves, depth first.
    pub fn leaf_spec_ids(&self) -> Vec<u32> {
        let mut out = Vec::new();
        self.walk(&mut |n| {
            if n.members.is_empty() {
                if let Some(s) = n.spec_id {
                    out.push(s);
                }
            }
        });
        out
    }

    /// Writes the defaults of its scalar leaves into `bytes` at their offsets (growing it, to at
    /// most `limit` bytes: a leaf past it is left out).
    fn write_default(&self, bytes: &mut Vec<u8>, limit: usize) {
        self.walk(&mut |n| {
            if let (Some(v), true) = (&n.default, n.members.is_empty()) {
                let b = scalar_bytes(v);
                let Some(end) = usize::try_from(n.offset)
                    .ok()
                    .and_then(|at| at.checked_add(b.len()))
                    .filter(|&end| end <= limit)
                else {
                    return;
                };
                let at = end - b.len();
                if bytes.len() < end {
                    bytes.resize(end, 0);
                }
                bytes[at..end].copy_from_slice(&b);
            }
        });
    }
}

/// A symbolic name's constant, as the module holds it.
#[derive(Clone, Debug, Serialize)]
pub struct NamedConstInfo {
    /// The symbolic name.
    pub name: String,
    /// Its SpecIds (the non-padding descriptors').
    pub spec_ids: Vec<u32>,
    /// The descriptors as given with the names.
    pub descriptors: Vec<super::DescriptorJson>,
    /// The value type (the root's), when the module holds the constant.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    /// Bytes the value spans.
    pub size: u64,
    /// The default value, assembled from the module's `OpSpecConstant*` literals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_hex: Option<String>,
    /// The default as the names' default-values blob gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob_default_hex: Option<String>,
    /// SpecIds of the name that no `OpSpecConstant*` of the module carries.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub undefined_spec_ids: Vec<u32>,
    /// Where the name's descriptors and the module's constant disagree: a descriptor whose
    /// SpecId is a leaf of the constant at another offset or of another size (names read for
    /// another image, e.g. a sibling split image's, whose SpecIds are numbered from 0 too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mismatch: Option<String>,
    /// The constant's tree (the composite, or the one scalar).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<ConstNode>,
}

/// What the module's annotations say about ids.
#[derive(Default)]
pub(crate) struct Decorations {
    /// `SpecId` of each decorated id.
    pub spec_id: IdMap<u32, u32>,
    /// `HostAccessINTEL` name of each decorated id (device globals).
    pub host_access: IdMap<u32, String>,
}

impl Decorations {
    pub(crate) fn scan(module: &Module, index: &Index) -> Self {
        let mut d = Decorations::default();
        for i in 0..index.annotation_end.min(module.len()) {
            let w = module.original(i);
            if !inst::is(w, Op::Decorate) || w.len() < 4 {
                continue;
            }
            if w[2] == Decoration::SpecId as u32 {
                d.spec_id.insert(w[1], w[3]);
            } else if HOST_ACCESS.contains(&w[2]) && w.len() >= 5 {
                let name = inst::read_string(&w[4..])
                    .map(|(s, _)| s)
                    .unwrap_or_default();
                d.host_access
                    .insert(w[1], String::from_utf8_lossy(&name).into_owned());
            }
        }
        d
    }
}

pub(crate) fn is_spec_op(op: u32) -> bool {
    (Op::SpecConstantTrue as u32..=Op::SpecConstantOp as u32).contains(&op)
        || op == Op::SpecConstantCompositeReplicateEXT as u32
}

/// Builds trees of constants.
pub(crate) struct Trees<'m> {
    module: &'m Module,
    index: &'m Index,
    pub layout: Layout<'m>,
    pub decorations: &'m Decorations,
}

impl<'m> Trees<'m> {
    pub(crate) fn new(module: &'m Module, index: &'m Index, decorations: &'m Decorations) -> Self {
        Trees {
            module,
            index,
            layout: Layout::new(module, index),
            decorations,
        }
    }

    /// Every spec constant of the global section that no spec composite holds, as a tree.
    pub(crate) fn roots(&mut self) -> Vec<ConstNode> {
        let mut held = crate::module::idhash::IdSet::default();
        let mut spec = Vec::new();
        for i in 0..self.index.globals_end.min(self.module.len()) {
            let w = self.module.original(i);
            let op = inst::opcode(w);
            if !is_spec_op(op) {
                continue;
            }
            if let Some(id) = inst::result_id(w) {
                spec.push(id);
            }
            if op == Op::SpecConstantComposite as u32 {
                held.extend(w.get(3..).unwrap_or(&[]).iter().copied());
            }
        }
        spec.into_iter()
            .filter(|id| !held.contains(id))
            .map(|id| self.node(id, 0, 0))
            .collect()
    }

    /// The tree of constant `id` at byte `offset`.
    pub(crate) fn node(&mut self, id: u32, offset: u64, depth: usize) -> ConstNode {
        let words = self
            .index
            .defs
            .get(&id)
            .filter(|&i| i < self.module.len())
            .map(|i| self.module.original(i));
        let mut node = ConstNode {
            id,
            op: String::new(),
            spec_id: self.decorations.spec_id.get(&id).copied(),
            ty: String::new(),
            offset,
            size: None,
            default: None,
            default_hex: None,
            operation: None,
            operands: Vec::new(),
            members: Vec::new(),
        };
        let Some(w) = words else {
            node.op = "undefined".into();
            return node;
        };
        let op = inst::opcode(w);
        node.op = inst::op_name(op);
        let Some(ty) = inst::result_type(w) else {
            return node;
        };
        node.ty = self.layout.display(ty);
        node.size = self.layout.store_size(ty).ok();
        match Op::from_u32(op) {
            Some(Op::SpecConstantTrue | Op::ConstantTrue) => {
                node.default = Some(Value::Bool(true));
                node.size = Some(1);
            }
            Some(Op::SpecConstantFalse | Op::ConstantFalse) => {
                node.default = Some(Value::Bool(false));
                node.size = Some(1);
            }
            Some(Op::SpecConstant | Op::Constant) => {
                node.default = self.scalar(ty, w.get(3..).unwrap_or(&[]));
            }
            Some(Op::ConstantNull) => {
                node.default = self.zero(ty);
            }
            Some(Op::SpecConstantOp) => {
                node.operation = w.get(3).map(|&o| inst::op_name(o));
                node.operands = w.get(4..).unwrap_or(&[]).to_vec();
            }
            Some(Op::SpecConstantComposite | Op::ConstantComposite) if depth < MAX_DEPTH => {
                let offsets: Vec<u64> = self
                    .layout
                    .elements(ty, crate::specmap::MAX_LEAVES as u64)
                    .map(|e| e.into_iter().map(|(_, o)| o).collect())
                    .unwrap_or_default();
                for (k, &m) in w.get(3..).unwrap_or(&[]).iter().enumerate() {
                    let at = offset + offsets.get(k).copied().unwrap_or(0);
                    node.members.push(self.node(m, at, depth + 1));
                }
            }
            _ => {}
        }
        node.default_hex = node
            .default
            .as_ref()
            .map(|v| crate::sidecar::json::hex(&scalar_bytes(v)));
        node
    }

    /// A scalar constant's value from its literal words.
    fn scalar(&self, ty: u32, literal: &[u32]) -> Option<Value> {
        let raw = literal.first().copied().unwrap_or(0) as u64
            | (literal.get(1).copied().unwrap_or(0) as u64) << 32;
        match self.layout.kind(ty).ok()? {
            TypeKind::Int { bits, signed } if bits <= 64 => Some(Value::int(raw, bits, signed)),
            TypeKind::Float { bits } if matches!(bits, 16 | 32 | 64) => {
                Some(Value::Float { raw, bits })
            }
            _ => None,
        }
    }

    /// The zero of a scalar type (`OpConstantNull`).
    fn zero(&self, ty: u32) -> Option<Value> {
        match self.layout.kind(ty).ok()? {
            TypeKind::Bool => Some(Value::Bool(false)),
            _ => self.scalar(ty, &[]),
        }
    }
}

/// Each name's constant in the module (see the module docs).
pub(crate) fn named(
    trees: &mut Trees<'_>,
    roots: &[ConstNode],
    names: &SymbolNames,
) -> Vec<NamedConstInfo> {
    let module_bytes = (trees.module.word_count() as u64).saturating_mul(4);
    // Every spec composite and spec scalar, by the SpecIds of its leaves.
    let mut candidates: Vec<&ConstNode> = Vec::new();
    for r in roots {
        r.walk(&mut |n| {
            if n.spec_id.is_some() || n.op == "OpSpecConstantComposite" {
                candidates.push(n);
            }
        });
    }
    let defined: std::collections::BTreeSet<u32> =
        trees.decorations.spec_id.values().copied().collect();
    // Candidates by their sorted leaf SpecIds; of several with the same leaves the preferred
    // ([`rank`]) and, of equals, the outermost (the first met: roots are walked depth first).
    let mut by_leaves: std::collections::BTreeMap<Vec<u32>, Vec<&ConstNode>> = Default::default();
    for n in candidates {
        let mut leaves = n.leaf_spec_ids();
        leaves.sort_unstable();
        leaves.dedup();
        if !leaves.is_empty() {
            by_leaves.entry(leaves).or_default().push(n);
        }
    }
    for nodes in by_leaves.values_mut() {
        // (A stable sort: equals keep their order.)
        nodes.sort_by_key(|n| std::cmp::Reverse(rank(n)));
    }
    names
        .constants
        .iter()
        .map(|c| {
            let wanted: Vec<u32> = c.spec_ids().collect();
            let wanted_defined: std::collections::BTreeSet<u32> = wanted
                .iter()
                .copied()
                .filter(|s| defined.contains(s))
                .collect();
            // The candidate whose leaves are the name's SpecIds the module defines.
            let key: Vec<u32> = wanted_defined.iter().copied().collect();
            let root = by_leaves
                .get(&key)
                .and_then(|nodes| nodes.first())
                .map(|n| rebase(n, 0));
            let size = c.size();
            // (Sized by what both the names and the module's constant span, and by the module:
            // neither a file's descriptor nor a type's layout sizes an allocation alone.)
            let limit = module_bytes.saturating_mul(16).saturating_add(1 << 16);
            let default_hex = root.as_ref().and_then(|r| {
                let span = size.min(r.size.unwrap_or(size));
                (span <= limit).then(|| {
                    let mut bytes = vec![0u8; span as usize];
                    r.write_default(&mut bytes, span as usize);
                    crate::sidecar::json::hex(&bytes)
                })
            });
            NamedConstInfo {
                name: c.name.clone(),
                spec_ids: wanted.clone(),
                descriptors: c.descriptors.iter().map(Into::into).collect(),
                ty: root.as_ref().map(|r| r.ty.clone()),
                size,
                default_hex,
                blob_default_hex: names.default_bytes(c).map(crate::sidecar::json::hex),
                undefined_spec_ids: wanted
                    .iter()
                    .copied()
                    .filter(|s| !defined.contains(s))
                    .collect(),
                mismatch: root.as_ref().and_then(|r| layout_mismatch(r, c)),
                tree: root,
            }
        })
        .collect()
}

/// The first descriptor of `c` that no leaf of `root` (offsets relative to it) matches in SpecId,
/// offset and size, when one of its leaves has that SpecId; described for messages.
fn layout_mismatch(root: &ConstNode, c: &crate::info::names::NamedConstant) -> Option<String> {
    let mut leaves: Vec<(u32, u64, Option<u64>)> = Vec::new();
    root.walk(&mut |n| {
        if let (Some(s), true) = (n.spec_id, n.members.is_empty()) {
            leaves.push((s, n.offset, n.size));
        }
    });
    c.descriptors.iter().find_map(|d| {
        let same_id: Vec<_> = leaves.iter().filter(|l| l.0 == d.spec_id).collect();
        let fits = same_id
            .iter()
            .any(|l| l.1 == u64::from(d.offset) && l.2 == Some(u64::from(d.size)));
        (!same_id.is_empty() && !fits).then(|| {
            let (_, offset, size) = same_id[0];
            format!(
                "SpecId {} is {} byte(s) at offset {} for the names, {} at offset {offset} in the module",
                d.spec_id,
                d.size,
                d.offset,
                size.map_or("?".to_string(), |z| format!("{z} byte(s)")),
            )
        })
    })
}

/// Which of two candidate roots is preferred: a composite over a scalar, then the larger.
fn rank(n: &ConstNode) -> (bool, u64) {
    (!n.members.is_empty(), n.size.unwrap_or(0))
}

/// A copy of `n` with offsets relative to `n` (a composite found inside another).
fn rebase(n: &ConstNode, base: u64) -> ConstNode {
    let mut copy = n.clone();
    let shift = n.offset - base;
    fn shift_all(n: &mut ConstNode, by: u64) {
        n.offset -= by;
        for m in &mut n.members {
            shift_all(m, by);
        }
    }
    shift_all(&mut copy, shift);
    copy
}
