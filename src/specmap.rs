//! SpecId numbering, descriptors and default bytes: what each symbolic ID becomes.
//!
//! Algorithm (dpcpp-reference §2, §10):
//! - symbolic IDs are numbered in the order of their first marker call, the calls taken in module
//!   order or, with [`SpecIdOrder::Dpcpp`], by marker declaration and each declaration's calls
//!   last first (`numbering_order`); a symbolic ID seen again reuses its SpecIds and must
//!   have the same type;
//! - one SpecId per scalar leaf, depth-first over struct members, array elements and vector
//!   components, after every SpecId the input already uses, skipping 0xFF747469;
//! - the default value's scalars are matched to the type's leaves by byte offset; an element of a
//!   composite whose offset holds no defined scalar (explicit padding, or the undefined rest of a
//!   union) uses up a SpecId but gets no descriptor and becomes an `OpConstantNull` constituent —
//!   but for a scalar first element, which DPC++ describes all the same
//!   (`first_element_counts`): a zero leaf;
//! - default bytes: the whole value, zero-filled gaps and tail padding; a leaf's default is
//!   these bytes where it lies;
//! - descriptors `{SpecId, offset, size}` in offset order; after every struct level, tail padding
//!   gets `{0xFFFFFFFF, offset, size}`, from where DPC++ puts it (`describe`).
//!
//! The result, [`SpecMap`], is pure data: the lowering passes and the sidecar writers read it.

use crate::error::{Error, Result};
use crate::layout::{Layout, TypeKind, MAX_DEPTH};
use crate::markers::{DefaultValue, MarkerCall, Markers, SymbolicId};
use crate::module::idhash::IdMap;
use crate::module::index::Index;
use crate::module::inst;
use crate::module::Module;
use crate::SpecIdOrder;
use spirv::Op;
use std::collections::{BTreeMap, BTreeSet};

/// The SpecId the DPC++ runtime reserves for ITT annotations.
pub const ITT_SPEC_ID: u32 = 0xFF74_7469;
/// The SpecId of padding descriptors.
pub const PADDING_SPEC_ID: u32 = 0xFFFF_FFFF;
/// Most scalar leaves one spec constant may have.
pub const MAX_LEAVES: usize = 1 << 16;
/// Largest spec constant, in bytes.
pub const MAX_SIZE: u64 = 1 << 24;

/// A numeric SPIR-V specialization-constant id.
pub type SpecId = u32;

/// `{SpecId, offset, size}` as the runtime reads it; `spec_id == PADDING_SPEC_ID` for padding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Descriptor {
    /// The SpecId (`0xFFFFFFFF`: padding).
    pub spec_id: SpecId,
    /// Byte offset of the element (or padding) within the constant's value.
    pub offset: u32,
    /// Size of the element (or padding) in bytes.
    pub size: u32,
}

/// A run of one of [`SpecMap`]'s arrays (its SpecIds, descriptors, default bytes or tree nodes):
/// the per-constant data lives in four arrays, not in a few small allocations per constant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub len: u32,
}

impl Span {
    /// The span's items in `items` (empty if out of range: a span of another map).
    fn get<T>(self, items: &[T]) -> &[T] {
        items
            .get(self.start as usize..)
            .and_then(|rest| rest.get(..self.len as usize))
            .unwrap_or(&[])
    }

    /// The span of `items[start..]`.
    fn since<T>(items: &[T], start: usize) -> Result<Span> {
        let too_many = || Error::SpecMap("the spec constants need more than 2^32 entries".into());
        Ok(Span {
            start: u32::try_from(start).map_err(|_| too_many())?,
            len: u32::try_from(items.len() - start).map_err(|_| too_many())?,
        })
    }
}

/// A scalar leaf type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    Bool,
    Int { bits: u32, signed: bool },
    Float { bits: u32 },
}

/// The flattened shape of a spec constant, with its SpecIds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpecNode {
    /// A scalar: one `OpSpecConstant*` with this SpecId and default value. A leaf is held
    /// inline (no allocation): scalars are at most 64 bits wide (`Layout` refuses wider ones).
    Leaf {
        ty: u32,
        scalar: Scalar,
        spec_id: SpecId,
        offset: u64,
        /// Size of the value in bytes (1 for a boolean; at most 8).
        size: u32,
        /// The default value's bytes, little-endian; only the first `size` of them count (a
        /// boolean: 0 or 1).
        default: [u8; 8],
    },
    /// Explicit padding: uses up a SpecId, becomes an `OpConstantNull` of `ty`.
    Padding {
        ty: u32,
        spec_id: SpecId,
        offset: u64,
    },
    /// A struct, array or vector: one `OpSpecConstantComposite`. Its children are
    /// [`SpecMap::children`].
    Composite {
        ty: u32,
        offset: u64,
        size: u64,
        is_struct: bool,
        children: Span,
    },
}

impl SpecNode {
    /// A leaf's default value as its `size` little-endian bytes (empty for other nodes).
    pub fn default_bytes(&self) -> &[u8] {
        match self {
            SpecNode::Leaf { size, default, .. } => &default[..(*size as usize).min(8)],
            _ => &[],
        }
    }
}

/// How SpecIds and the default blob are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbering {
    /// One SpecId per scalar leaf; constants follow each other in the blob without padding.
    Native,
    /// One SpecId per symbolic ID; each constant at the next multiple of its alignment in the
    /// buffer (DPC++ today), the padding recorded as `{0xFFFFFFFF, prev size, pad}` on the previous
    /// constant and as zero bytes in the blob.
    EmulationAligned,
    /// One SpecId per symbolic ID; constants packed without padding (seed 000's layout).
    EmulationPacked,
}

impl Numbering {
    pub fn is_emulation(self) -> bool {
        self != Numbering::Native
    }
}

/// Everything known about one symbolic ID.
#[derive(Clone, Debug)]
pub struct SpecConstant {
    /// The symbolic ID (the property name in the `.prop` sets).
    pub symbolic_id: SymbolicId,
    /// The value type id.
    pub ty: u32,
    /// Readable spelling of the type.
    pub type_name: std::sync::Arc<str>,
    /// Size of the value in bytes.
    pub size: u64,
    /// Alignment of the value in bytes.
    pub align: u64,
    /// The root of its flattened shape (a composite's children are [`SpecMap::children`]).
    pub(crate) tree: SpecNode,
    /// Every SpecId it uses (leaves and padding), in order: [`SpecMap::spec_ids`].
    pub(crate) spec_ids: Span,
    /// [`SpecMap::descriptors`].
    pub(crate) descriptors: Span,
    /// The whole default value (`size` bytes): [`SpecMap::default_bytes`].
    pub(crate) default_bytes: Span,
    /// Where the value starts in the runtime's blob (emulation: in the spec-constant buffer).
    pub blob_offset: u64,
    /// Result id of the first call (for messages).
    pub first_call: u32,
    /// Function of the first call (for messages).
    pub first_caller: u32,
    /// The first call's default value (the one the map holds).
    pub(crate) first_default: DefaultValue,
}

/// A symbolic ID whose marker calls pass two different default values (an ODR violation across
/// linked inputs): the map holds the first call's.
#[derive(Clone, Debug)]
pub(crate) struct DefaultConflict {
    pub symbolic_id: String,
    /// The first call and the one whose default differs, as `call %R in F`.
    pub calls: [String; 2],
}

/// All spec constants of a module, in SpecId (first-seen) order.
///
/// Invariant: every `Span` of its constants and tree nodes lies inside the array it indexes
/// (the accessors below read them), and a constant's runs come after the previous constant's.
#[derive(Clone, Debug, Default)]
pub struct SpecMap {
    /// How SpecIds and the blob are laid out (`None` for a default-constructed map).
    pub(crate) numbering: Option<Numbering>,
    /// The constants, in SpecId order.
    pub constants: Vec<SpecConstant>,
    /// Index into `constants` of each symbol of the [`Markers`] it was built from
    /// ([`SpecMap::constant_index`]; `u32::MAX`: none).
    of_symbol: Vec<u32>,
    /// Size of the blob (emulation: of the spec-constant buffer).
    pub blob_size: u64,
    spec_ids: Vec<SpecId>,
    descriptors: Vec<Descriptor>,
    default_bytes: Vec<u8>,
    nodes: Vec<SpecNode>,
    /// The symbolic IDs given two different default values, each once.
    pub(crate) default_conflicts: Vec<DefaultConflict>,
}

impl SpecMap {
    /// A map without constants, numbered as `numbering` says.
    pub(crate) fn new(numbering: Numbering) -> SpecMap {
        SpecMap {
            numbering: Some(numbering),
            ..SpecMap::default()
        }
    }

    /// Index into `constants` of the constant of a marker call's `symbol` (`None`: the symbol is
    /// not one of the markers the map was built from).
    pub(crate) fn constant_index(&self, symbol: u32) -> Option<usize> {
        match self.of_symbol.get(symbol as usize) {
            Some(&k) if k != u32::MAX => Some(k as usize),
            _ => None,
        }
    }

    /// The constant of a symbolic ID (a linear search: for tests and tools, not for every call).
    pub fn find(&self, symbolic_id: &[u8]) -> Option<&SpecConstant> {
        self.constants
            .iter()
            .find(|c| &*c.symbolic_id.0 == symbolic_id)
    }

    /// Every SpecId constant `c` uses (leaves and padding), in order.
    pub fn spec_ids(&self, c: &SpecConstant) -> &[SpecId] {
        c.spec_ids.get(&self.spec_ids)
    }

    /// The descriptors of constant `c`, in offset order.
    pub fn descriptors(&self, c: &SpecConstant) -> &[Descriptor] {
        c.descriptors.get(&self.descriptors)
    }

    /// The default value of constant `c` (`c.size` bytes).
    pub fn default_bytes(&self, c: &SpecConstant) -> &[u8] {
        c.default_bytes.get(&self.default_bytes)
    }

    /// The children of a composite node (none for a leaf or padding).
    pub(crate) fn children(&self, node: &SpecNode) -> &[SpecNode] {
        match node {
            SpecNode::Composite { children, .. } => children.get(&self.nodes),
            _ => &[],
        }
    }

    /// The default-values blob (the `all` property): every constant's default at its blob
    /// offset, zero-filled alignment padding.
    pub fn default_blob(&self) -> Vec<u8> {
        let mut blob = vec![0u8; self.blob_size as usize];
        for c in &self.constants {
            let at = c.blob_offset as usize;
            let bytes = self.default_bytes(c);
            if let Some(dst) = blob.get_mut(at..at + bytes.len()) {
                dst.copy_from_slice(bytes);
            }
        }
        blob
    }
}

/// Hands out SpecIds in increasing order, skipping the input's and the reserved ones.
struct SpecIds<'a> {
    next: u64,
    used: &'a BTreeSet<u32>,
    /// Hands out `PADDING_SPEC_ID` for every request (trees whose leaves take no SpecIds).
    placeholder: bool,
}

impl SpecIds<'_> {
    fn next(&mut self) -> Result<SpecId> {
        if self.placeholder {
            return Ok(PADDING_SPEC_ID);
        }
        while self.next < PADDING_SPEC_ID as u64 {
            let id = self.next as u32;
            self.next += 1;
            if id != ITT_SPEC_ID && !self.used.contains(&id) {
                return Ok(id);
            }
        }
        Err(Error::SpecMap(
            "ran out of SpecIds (all 32-bit values are in use)".into(),
        ))
    }
}

/// The marker calls in the order that numbers their symbolic IDs.
///
/// `FirstUse`: module order. `Dpcpp`: DPC++'s `SpecConstantsPass` walks the marker declarations
/// in module order and each one's users in LLVM use-list order, which is the reverse of the order
/// the calls were read in (a new use goes to the front of the list); llvm-spirv keeps both
/// orders, so in SPIR-V that is: declarations in module order, each one's calls last first.
fn numbering_order(
    markers: &Markers,
    order: SpecIdOrder,
) -> Box<dyn Iterator<Item = &MarkerCall> + '_> {
    match order {
        SpecIdOrder::FirstUse => Box::new(markers.calls.iter()),
        SpecIdOrder::Dpcpp => {
            let declaration: IdMap<u32, usize> = markers
                .functions
                .iter()
                .enumerate()
                .map(|(k, &f)| (f, k))
                .collect();
            let mut calls: Vec<&MarkerCall> = markers.calls.iter().collect();
            calls.sort_by_key(|c| {
                (
                    declaration.get(&c.callee).copied().unwrap_or(usize::MAX),
                    std::cmp::Reverse(c.inst),
                )
            });
            Box::new(calls.into_iter())
        }
    }
}

/// Builds the spec map from the marker calls.
pub fn build(
    module: &Module,
    index: &Index,
    markers: &Markers,
    numbering: Numbering,
    order: SpecIdOrder,
) -> Result<SpecMap> {
    let mut layout = Layout::new(module, index);
    // New SpecIds come after every SpecId the input already uses.
    let first = index
        .spec_ids
        .iter()
        .rev()
        .find(|&&s| s != ITT_SPEC_ID)
        .map_or(0, |&m| m as u64 + 1);
    let mut ids = SpecIds {
        next: first,
        used: &index.spec_ids,
        placeholder: false,
    };
    let mut map = SpecMap {
        numbering: Some(numbering),
        of_symbol: vec![u32::MAX; markers.symbols.len()],
        ..SpecMap::default()
    };
    // One readable type name per type, shared by its constants.
    let mut type_names: IdMap<u32, std::sync::Arc<str>> = IdMap::default();
    let mut errors = Vec::new();
    // One constant's SpecIds, descriptors and default bytes, before they join the map's arrays
    // (after `place`, which may first give the previous constant a padding descriptor).
    let mut parts = Parts::default();
    for call in numbering_order(markers, order) {
        let Some(symbolic_id) = markers.symbolic_id(call) else {
            return Err(Error::SpecMap(format!(
                "marker call %{} names symbol {} of {}",
                call.result,
                call.symbol,
                markers.symbols.len()
            )));
        };
        if let Some(k) = map.constant_index(call.symbol) {
            let first = &map.constants[k];
            if first.ty != call.value_type {
                errors.push(format!(
                    "symbolic ID \"{}\" is used with two types: {} (call %{} in {}) and {} (call %{} in {})",
                    symbolic_id,
                    first.type_name,
                    first.first_call,
                    index.display_name(first.first_caller),
                    layout.display(call.value_type),
                    call.result,
                    index.display_name(call.caller)
                ));
            } else if call.default != first.first_default
                && default_bytes_differ(
                    &mut layout,
                    first.size,
                    &first.first_default,
                    &call.default,
                )
                && !(map.default_conflicts.iter()).any(|c| c.symbolic_id == symbolic_id.to_string())
            {
                let at = |result: u32, caller: u32| {
                    format!("call %{result} in {}", index.display_name(caller))
                };
                let conflict = DefaultConflict {
                    symbolic_id: symbolic_id.to_string(),
                    calls: [
                        at(first.first_call, first.first_caller),
                        at(call.result, call.caller),
                    ],
                };
                map.default_conflicts.push(conflict);
            }
            continue;
        }
        let nodes = map.nodes.len();
        let placed = constant(
            &mut layout,
            &mut ids,
            call,
            symbolic_id,
            index,
            numbering,
            &mut type_names,
            &mut map.nodes,
            &mut parts,
        )
        .and_then(|mut c| {
            place(&mut map, &mut c, numbering)?;
            c.spec_ids = append(&mut map.spec_ids, &parts.spec_ids)?;
            c.descriptors = append(&mut map.descriptors, &parts.descriptors)?;
            c.default_bytes = append(&mut map.default_bytes, &parts.default_bytes)?;
            Ok(c)
        });
        match placed {
            Ok(c) => {
                // (Fewer constants than marker calls, whose count fits in u32.)
                map.of_symbol[call.symbol as usize] = map.constants.len() as u32;
                map.constants.push(c);
            }
            Err(e) => {
                // (The map is not returned; its tree nodes are kept consistent all the same.)
                map.nodes.truncate(nodes);
                errors.push(e.to_string());
            }
        }
    }
    if !errors.is_empty() {
        return Err(Error::Markers(errors));
    }
    // (Grown by doubling: give back the spare room, on a module with many constants.)
    map.constants.shrink_to_fit();
    map.spec_ids.shrink_to_fit();
    map.descriptors.shrink_to_fit();
    map.default_bytes.shrink_to_fit();
    map.nodes.shrink_to_fit();
    check_runtime_view(&map)?;
    Ok(map)
}

/// Scratch buffers for one constant's runs (reused: no allocation per constant).
#[derive(Default)]
struct Parts {
    spec_ids: Vec<SpecId>,
    descriptors: Vec<Descriptor>,
    default_bytes: Vec<u8>,
}

/// Appends `items` to one of the map's arrays; their span there.
fn append<T: Copy>(array: &mut Vec<T>, items: &[T]) -> Result<Span> {
    let start = array.len();
    array.extend_from_slice(items);
    Span::since(array, start)
}

/// Post-condition: the DPC++ runtime, walking the descriptors (dpcpp-reference §5.6), finds each
/// constant at its blob offset with its size, and the blob as long as the default values.
fn check_runtime_view(map: &SpecMap) -> Result<()> {
    let mut blob_offset = 0u64;
    for c in &map.constants {
        let mut local = 0u64;
        let start = blob_offset;
        for d in map.descriptors(c) {
            let gap = (d.offset as u64).checked_sub(local).ok_or_else(|| {
                Error::PostCondition(format!(
                    "descriptors of \"{}\" are not sorted by offset",
                    c.symbolic_id
                ))
            })?;
            blob_offset += gap + d.size as u64;
            local += gap + d.size as u64;
        }
        let expected_start = c.blob_offset;
        let own = if map.numbering == Some(Numbering::Native) {
            local
        } else {
            c.size.min(local)
        };
        if start != expected_start || own != c.size {
            return Err(Error::PostCondition(format!(
                "the runtime would place \"{}\" at blob offset {start} with {own} bytes, but its value is at {expected_start} with {} bytes",
                c.symbolic_id, c.size
            )));
        }
    }
    if blob_offset != map.blob_size {
        return Err(Error::PostCondition(format!(
            "the runtime would size the default blob {blob_offset} bytes, but it has {}",
            map.blob_size
        )));
    }
    Ok(())
}

/// Gives constant `c` its blob offset (and, in aligned emulation, pads the previous constant).
fn place(map: &mut SpecMap, c: &mut SpecConstant, numbering: Numbering) -> Result<()> {
    let mut offset = map.blob_size;
    if numbering == Numbering::EmulationAligned && offset % c.align != 0 {
        let pad = c.align - offset % c.align;
        if let Some(prev) = map.constants.last_mut() {
            let to_u32 = |v: u64| {
                u32::try_from(v).map_err(|_| {
                    Error::SpecMap(format!("buffer offset {v} does not fit in 32 bits"))
                })
            };
            // The previous constant's descriptors end the array (constants join in order).
            if (prev.descriptors.start + prev.descriptors.len) as usize != map.descriptors.len() {
                return Err(Error::PostCondition(
                    "the previous constant's descriptors do not end the descriptor array".into(),
                ));
            }
            map.descriptors.push(Descriptor {
                spec_id: PADDING_SPEC_ID,
                offset: to_u32(prev.size)?,
                size: to_u32(pad)?,
            });
            prev.descriptors.len += 1;
        }
        offset += pad;
    }
    c.blob_offset = offset;
    map.blob_size = offset
        .checked_add(c.size)
        .filter(|&s| s <= MAX_SIZE)
        .ok_or_else(|| {
            Error::SpecMap(format!(
                "the spec constants take more than {MAX_SIZE} bytes"
            ))
        })?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn constant(
    layout: &mut Layout,
    ids: &mut SpecIds,
    call: &MarkerCall,
    symbolic_id: &SymbolicId,
    index: &Index,
    numbering: Numbering,
    names: &mut IdMap<u32, std::sync::Arc<str>>,
    nodes: &mut Vec<SpecNode>,
    parts: &mut Parts,
) -> Result<SpecConstant> {
    let at = || {
        format!(
            "spec constant \"{}\" (call %{} in {})",
            symbolic_id,
            call.result,
            index.display_name(call.caller)
        )
    };
    let wrap = |e: Error| Error::SpecMap(format!("{}: {e}", at()));
    let mut sa = layout.size_align(call.value_type).map_err(wrap)?;
    // A spec constant's own size is its store size (a lone 3-element vector takes 3 elements).
    sa.size = layout.store_size(call.value_type).map_err(wrap)?;
    if sa.size > MAX_SIZE {
        return Err(wrap(Error::SpecMap(format!(
            "the value is {} bytes, more than the {MAX_SIZE} supported",
            sa.size
        ))));
    }
    let mut defined = BTreeMap::new();
    collect_default(layout, &call.default, &mut defined).map_err(wrap)?;
    first_element_counts(layout, call.value_type, &mut defined).map_err(wrap)?;
    let Parts {
        spec_ids,
        descriptors,
        default_bytes,
    } = parts;
    default_bytes.clear();
    default_bytes.resize(sa.size as usize, 0);
    place_defined(&defined, default_bytes);
    let mut leaves = 0usize;
    // In emulation the tree only shapes the value (default-values mode emits it as constants):
    // its leaves take no SpecIds.
    let mut no_ids = SpecIds {
        next: 0,
        used: ids.used,
        placeholder: true,
    };
    let tree_ids = if numbering.is_emulation() {
        &mut no_ids
    } else {
        &mut *ids
    };
    let tree = flatten(
        layout,
        tree_ids,
        call.value_type,
        0,
        &defined,
        default_bytes,
        0,
        true,
        &mut leaves,
        nodes,
    )
    .map_err(wrap)?;
    spec_ids.clear();
    descriptors.clear();
    if numbering.is_emulation() {
        let id = ids.next().map_err(wrap)?;
        let size = u32::try_from(sa.size)
            .map_err(|_| wrap(Error::SpecMap("size does not fit in 32 bits".into())))?;
        spec_ids.push(id);
        descriptors.push(Descriptor {
            spec_id: id,
            offset: 0,
            size,
        });
    } else {
        let mut end = 0;
        describe(&tree, nodes, spec_ids, descriptors, &mut end, true).map_err(wrap)?;
    }
    Ok(SpecConstant {
        symbolic_id: symbolic_id.clone(),
        ty: call.value_type,
        type_name: names
            .entry(call.value_type)
            .or_insert_with(|| layout.display(call.value_type).into())
            .clone(),
        size: sa.size,
        align: sa.align,
        tree,
        // (Set when the constant joins the map.)
        spec_ids: Span::default(),
        descriptors: Span::default(),
        default_bytes: Span::default(),
        blob_offset: 0,
        first_call: call.result,
        first_caller: call.caller,
        first_default: call.default.clone(),
    })
}

/// The defined bytes of default value `default`, by byte offset, into `out`.
fn collect_default(
    layout: &mut Layout,
    default: &DefaultValue,
    out: &mut BTreeMap<u64, Vec<u8>>,
) -> Result<()> {
    match *default {
        DefaultValue::Constant(c) => collect_defined(layout, c, 0, 0, &mut 0, out),
        DefaultValue::Zero(t) => collect_zero(layout, t, 0, 0, &mut 0, out),
        DefaultValue::Undefined => Ok(()),
    }
}

/// Writes the `defined` bytes at their offsets into `bytes` (those past its end left out).
fn place_defined(defined: &BTreeMap<u64, Vec<u8>>, bytes: &mut [u8]) {
    for (&off, value) in defined {
        for (k, &b) in value.iter().enumerate() {
            if let Some(slot) = (off as usize)
                .checked_add(k)
                .and_then(|at| bytes.get_mut(at))
            {
                *slot = b;
            }
        }
    }
}

/// Whether two default values of `size` bytes give different bytes (false when either has no
/// defined byte or does not decode: the map's own reading of the first reports that).
fn default_bytes_differ(
    layout: &mut Layout,
    size: u64,
    a: &DefaultValue,
    b: &DefaultValue,
) -> bool {
    let mut bytes = |d: &DefaultValue| {
        if *d == DefaultValue::Undefined {
            return None;
        }
        let mut defined = BTreeMap::new();
        collect_default(layout, d, &mut defined).ok()?;
        let mut out = vec![0; size as usize];
        place_defined(&defined, &mut out);
        Some(out)
    };
    match (bytes(a), bytes(b)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

fn scalar_of(kind: &TypeKind) -> Option<Scalar> {
    match *kind {
        TypeKind::Bool => Some(Scalar::Bool),
        TypeKind::Int { bits, signed } => Some(Scalar::Int { bits, signed }),
        TypeKind::Float { bits } => Some(Scalar::Float { bits }),
        _ => None,
    }
}

/// DPC++ never flags a constant's first SpecId as padding (`SpecConstantsPass` pushes it before
/// looking at the default): when the default leaves the first element of a composite undefined
/// and that element is a scalar — an empty C++ class, `{ i8 }` with an `undef` byte — it still
/// gets a descriptor, with a zero default. So it is defined here as zero: a leaf, an
/// `OpSpecConstant` for its SpecId (DPC++'s image has none, though its descriptor names it), and
/// the property sets DPC++ writes. (An undefined first element that is itself a composite makes
/// DPC++ read past its list of SpecIds; it stays padding here.)
fn first_element_counts(
    layout: &mut Layout,
    ty: u32,
    defined: &mut BTreeMap<u64, Vec<u8>>,
) -> Result<()> {
    let composite = matches!(
        layout.kind(ty)?,
        TypeKind::Struct { .. } | TypeKind::Array { .. } | TypeKind::Vector { .. }
    );
    if defined.contains_key(&0) || !composite {
        return Ok(());
    }
    let Some(&(first, 0)) = layout.elements(ty, MAX_LEAVES as u64)?.first() else {
        return Ok(());
    };
    if scalar_of(&layout.kind(first)?).is_some() {
        let size = layout.size_align(first)?.size.min(8) as usize;
        defined.insert(0, vec![0; size]);
    }
    Ok(())
}

/// Most constituents (and zero-filled elements) visited while reading one default value: a
/// constant may share its parts, which could otherwise be visited exponentially often (parts
/// without scalars, like empty structs, count towards no other limit).
const MAX_VISITS: usize = 4 * MAX_LEAVES;

/// Records `(offset → little-endian bytes)` of every defined scalar of constant `c`, laid out
/// with the constant's own type. `OpUndef` parts record nothing. `visits` counts the calls
/// ([`MAX_VISITS`]).
fn collect_defined(
    layout: &mut Layout,
    c: u32,
    base: u64,
    depth: usize,
    visits: &mut usize,
    out: &mut BTreeMap<u64, Vec<u8>>,
) -> Result<()> {
    *visits += 1;
    if depth > MAX_DEPTH || out.len() > MAX_LEAVES || *visits > MAX_VISITS {
        return Err(Error::SpecMap(format!(
            "default value %{c} is nested too deeply or too large"
        )));
    }
    let (w, ty) = layout_const(layout, c)?;
    match inst::op_of(w) {
        Some(Op::Undef) => {}
        Some(Op::ConstantNull) => collect_zero(layout, ty, base, depth, visits, out)?,
        Some(Op::ConstantTrue) => {
            out.insert(base, vec![1]);
        }
        Some(Op::ConstantFalse) => {
            out.insert(base, vec![0]);
        }
        Some(Op::Constant) => {
            let size = layout.size_align(ty)?.size as usize;
            let bytes: Vec<u8> = w[3..]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .take(size)
                .collect();
            out.insert(base, bytes);
        }
        Some(Op::ConstantComposite) => {
            let elems = layout.elements(ty, MAX_LEAVES as u64)?;
            if elems.len() != w.len() - 3 {
                return Err(Error::SpecMap(format!(
                    "default value %{c} has {} constituents but its type has {} elements",
                    w.len() - 3,
                    elems.len()
                )));
            }
            let constituents = w[3..].to_vec();
            for ((_, off), k) in elems.into_iter().zip(constituents) {
                collect_defined(layout, k, base + off, depth + 1, visits, out)?;
            }
        }
        _ => {
            return Err(Error::SpecMap(format!(
                "default value %{c} is not a constant ({})",
                inst::name_of(w)
            )))
        }
    }
    Ok(())
}

fn layout_const<'a>(layout: &Layout<'a>, c: u32) -> Result<(&'a [u32], u32)> {
    let w = layout_words(layout, c)?;
    if w.len() < 3 {
        return Err(Error::SpecMap(format!("default value %{c} is malformed")));
    }
    Ok((w, w[1]))
}

fn layout_words<'a>(layout: &Layout<'a>, id: u32) -> Result<&'a [u32]> {
    layout
        .words_of(id)
        .ok_or_else(|| Error::SpecMap(format!("default value %{id} is not defined")))
}

/// Records zero bytes for every scalar leaf of type `ty`.
fn collect_zero(
    layout: &mut Layout,
    ty: u32,
    base: u64,
    depth: usize,
    visits: &mut usize,
    out: &mut BTreeMap<u64, Vec<u8>>,
) -> Result<()> {
    *visits += 1;
    if depth > MAX_DEPTH || out.len() > MAX_LEAVES || *visits > MAX_VISITS {
        return Err(Error::SpecMap(format!(
            "zero default of type %{ty} is nested too deeply or too large"
        )));
    }
    let kind = layout.kind(ty)?;
    if scalar_of(&kind).is_some() || matches!(kind, TypeKind::Pointer { .. }) {
        let size = layout.size_align(ty)?.size as usize;
        out.insert(base, vec![0; size]);
        return Ok(());
    }
    for (t, off) in layout.elements(ty, MAX_LEAVES as u64)? {
        collect_zero(layout, t, base + off, depth + 1, visits, out)?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn flatten(
    layout: &mut Layout,
    ids: &mut SpecIds,
    ty: u32,
    offset: u64,
    defined: &BTreeMap<u64, Vec<u8>>,
    blob: &[u8],
    depth: usize,
    top: bool,
    leaves: &mut usize,
    nodes: &mut Vec<SpecNode>,
) -> Result<SpecNode> {
    if depth > MAX_DEPTH {
        return Err(Error::SpecMap(format!(
            "type is nested more than {MAX_DEPTH} levels deep"
        )));
    }
    *leaves += 1;
    if *leaves > MAX_LEAVES {
        return Err(Error::SpecMap(format!(
            "type has more than {MAX_LEAVES} scalar leaves"
        )));
    }
    let kind = layout.kind(ty)?;
    if let Some(scalar) = scalar_of(&kind) {
        let size = layout.size_align(ty)?.size as usize;
        if !defined.contains_key(&offset) && !top {
            return Ok(SpecNode::Padding {
                ty,
                spec_id: ids.next()?,
                offset,
            });
        }
        // The default value's bytes where the leaf lies, as the default blob (and so emulation)
        // has them: the same as the scalar defined at this offset when the default has the
        // leaf's type; when it does not (a union initialised through another member), the bytes
        // of every scalar the leaf covers. (`Layout` sizes scalars at 1 to 8 bytes.)
        let defined = blob
            .get(offset as usize..)
            .map_or(&[][..], |b| &b[..b.len().min(size)]);
        let mut default = [0u8; 8];
        let n = defined.len().min(size).min(8);
        default[..n].copy_from_slice(&defined[..n]);
        let size = if scalar == Scalar::Bool {
            default = [0; 8];
            default[0] = defined.iter().take(size).any(|&b| b != 0) as u8;
            1
        } else {
            size.min(8) as u32
        };
        return Ok(SpecNode::Leaf {
            ty,
            scalar,
            spec_id: ids.next()?,
            offset,
            size,
            default,
        });
    }
    let is_struct = matches!(kind, TypeKind::Struct { .. });
    match kind {
        TypeKind::Struct { .. } | TypeKind::Array { .. } | TypeKind::Vector { .. } => {}
        _ => {
            return Err(Error::SpecMap(format!(
                "unsupported leaf type {} (a spec constant may only hold booleans, integers, floats and aggregates of them)",
                layout.display(ty)
            )))
        }
    }
    let size = layout.size_align(ty)?.size;
    let elements = layout.elements(ty, MAX_LEAVES as u64)?;
    let mut children = Vec::with_capacity(elements.len());
    for (t, off) in elements {
        let abs = offset + off;
        if defined.contains_key(&abs) {
            children.push(flatten(
                layout,
                ids,
                t,
                abs,
                defined,
                blob,
                depth + 1,
                false,
                leaves,
                nodes,
            )?);
        } else {
            // Validate that the element has a layout even though it is padding.
            layout.size_align(t)?;
            *leaves += 1;
            children.push(SpecNode::Padding {
                ty: t,
                spec_id: ids.next()?,
                offset: abs,
            });
        }
    }
    Ok(SpecNode::Composite {
        ty,
        offset,
        size,
        is_struct,
        children: append(nodes, &children)?,
    })
}

/// Collects SpecIds and descriptors in DFS order. `end` is where a struct's tail-padding
/// descriptor starts if nothing more is described, tracked as DPC++'s
/// `collectCompositeElementsInfoRecursive` tracks its offset: a leaf or a struct moves it to its
/// own end; a padding element (an undefined part of the default) moves it to its own start when
/// it is a struct member, and leaves it where it was when it is an array or vector element (an
/// array's trailing undefined elements fall into the enclosing struct's tail padding, from the
/// end of the last defined element). `in_struct`: `node` is a struct member (or the whole
/// constant).
///
/// Leaves are described at their own offsets. DPC++ instead keeps counting on from the end of
/// the previous element inside an array, which misplaces a defined element that follows an
/// undefined one (and the second element of an array of 3-element vectors): the runtime would
/// then read the wrong bytes for it. There the descriptors differ from DPC++'s and are right.
fn describe(
    node: &SpecNode,
    nodes: &[SpecNode],
    spec_ids: &mut Vec<SpecId>,
    out: &mut Vec<Descriptor>,
    end: &mut u64,
    in_struct: bool,
) -> Result<()> {
    let u32_of = |v: u64| {
        u32::try_from(v)
            .map_err(|_| Error::SpecMap(format!("offset or size {v} does not fit in 32 bits")))
    };
    match node {
        SpecNode::Leaf {
            spec_id,
            offset,
            size,
            ..
        } => {
            spec_ids.push(*spec_id);
            out.push(Descriptor {
                spec_id: *spec_id,
                offset: u32_of(*offset)?,
                size: *size,
            });
            *end = offset + *size as u64;
        }
        SpecNode::Padding {
            spec_id, offset, ..
        } => {
            spec_ids.push(*spec_id);
            if in_struct {
                *end = *offset;
            }
        }
        SpecNode::Composite {
            offset,
            size,
            is_struct,
            children,
            ..
        } => {
            for c in children.get(nodes) {
                describe(c, nodes, spec_ids, out, end, *is_struct)?;
            }
            let struct_end = offset + size;
            if *is_struct && struct_end > *end {
                out.push(Descriptor {
                    spec_id: PADDING_SPEC_ID,
                    offset: u32_of(*end)?,
                    size: u32_of(struct_end - *end)?,
                });
                *end = struct_end;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_reads_its_run_and_nothing_out_of_range() {
        let items = [1u32, 2, 3, 4];
        assert_eq!(Span { start: 1, len: 2 }.get(&items), &[2, 3]);
        assert_eq!(Span { start: 4, len: 0 }.get(&items), &[] as &[u32]);
        // A span of another (longer) map reads nothing rather than a wrong run or a panic.
        assert_eq!(Span { start: 3, len: 2 }.get(&items), &[] as &[u32]);
        let far = Span {
            start: u32::MAX,
            len: u32::MAX,
        };
        assert_eq!(far.get(&items), &[] as &[u32]);
        let mut array = vec![9u32];
        let span = append(&mut array, &[5, 6]).ok();
        assert_eq!(span, Some(Span { start: 1, len: 2 }));
        assert_eq!(span.map(|s| s.get(&array)), Some(&[5, 6][..]));
    }
}
