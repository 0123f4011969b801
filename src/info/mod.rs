//! `spec-link info`: what is in a module, without changing or writing anything (format
//! `spec-link-info/1`, documented in docs/info.md).
//!
//! Algorithm: index the module (`Index::build`); read its header, memory model, capabilities,
//! extensions, imports and linkage; list every spec constant of the global section as a tree
//! ([`constants`]); with names ([`names::SymbolNames`]), find each name's constant; list the
//! kernels and what each reaches (`kernels`); and, when the module has marker calls, run the
//! first two steps of lowering (`markers::find_markers`, `specmap::build` in both SpecId
//! orders) to tell what lowering would produce.
//!
//! Precondition: a module's bytes (read into words, instruction boundaries checked: bytes that
//! are not a module are an error). Postcondition: nothing is changed. A module that cannot be
//! indexed is described, not refused ([`Info::error`]); a lowering step that fails is reported
//! in [`Lowering::error`], not as an error (`info` is for looking at modules spec-link refuses,
//! too).

pub mod constants;
pub(crate) mod kernels;
pub use kernels::{Kernel, Mode, Param};
pub mod names;
pub(crate) mod value;
pub use value::Value;

use crate::error::Result;
use crate::module::index::Index;
use crate::module::inst;
use crate::module::Module;
use crate::specmap::{self, Descriptor, Numbering, SpecMap, SpecNode};
use crate::{markers, SpecIdOrder};
use constants::{ConstNode, Decorations, NamedConstInfo, Trees};
use names::SymbolNames;
use serde::Serialize;
use spirv::Op;

/// Name and version of the JSON format.
pub(crate) const FORMAT: &str = "spec-link-info/1";

/// A descriptor `{spec_id, offset, size}` as JSON.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct DescriptorJson {
    /// The SpecId.
    pub spec_id: u32,
    /// Byte offset in the composite (or the emulation buffer).
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
}

impl From<&Descriptor> for DescriptorJson {
    fn from(d: &Descriptor) -> Self {
        DescriptorJson {
            spec_id: d.spec_id,
            offset: d.offset,
            size: d.size,
        }
    }
}

/// An import or export.
#[derive(Clone, Debug, Serialize)]
pub struct Symbol {
    /// The linkage name.
    pub name: String,
    /// The id of its definition or declaration.
    pub id: u32,
    /// `function` or `variable` (or the defining instruction's name).
    pub kind: String,
}

/// Facts about the module as a whole.
#[derive(Clone, Debug, Serialize)]
pub struct ModuleFacts {
    /// The SPIR-V version, `major.minor`.
    pub version: String,
    /// The header's generator word.
    pub generator: u32,
    /// The header's id bound.
    pub id_bound: u32,
    /// `little` or `big`: the byte order of the words.
    pub byte_order: &'static str,
    /// Size of the module in bytes.
    pub size_bytes: u64,
    /// Number of instructions.
    pub instruction_count: usize,
    /// The `OpMemoryModel` addressing model.
    pub addressing_model: Option<String>,
    /// The `OpMemoryModel` memory model.
    pub memory_model: Option<String>,
    /// `OpCapability` names, in module order.
    pub capabilities: Vec<String>,
    /// `OpExtension` names, in module order.
    pub extensions: Vec<String>,
    /// `OpExtInstImport` set names, in module order.
    pub ext_inst_imports: Vec<String>,
    /// Number of functions (definitions and declarations).
    pub functions: usize,
    /// Imported symbols (`Import` linkage).
    pub imports: Vec<Symbol>,
    /// Exported symbols (`Export` linkage).
    pub exports: Vec<Symbol>,
}

/// A `HostAccessINTEL`-decorated variable.
#[derive(Clone, Debug, Serialize)]
pub struct DeviceGlobal {
    /// Its `OpName`.
    pub name: String,
    /// The variable's id.
    pub id: u32,
    /// Its type, disassembled.
    #[serde(rename = "type")]
    pub ty: String,
}

/// A node of a constant lowering would make.
#[derive(Clone, Debug, Serialize)]
pub struct PreviewNode {
    /// `leaf`, `padding` or `composite`.
    pub kind: &'static str,
    /// The type, disassembled.
    #[serde(rename = "type")]
    pub ty: String,
    /// Byte offset inside the root constant.
    pub offset: u64,
    /// The SpecId (leaves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec_id: Option<u32>,
    /// Size in bytes (leaves and padding).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// The default value's bytes in hex (leaves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_hex: Option<String>,
    /// Member nodes (composites).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<PreviewNode>,
}

/// A constant lowering would make, numbered both ways.
#[derive(Clone, Debug, Serialize)]
pub struct PreviewConstant {
    /// The symbolic ID (the `.prop` property name).
    pub symbolic_id: String,
    /// The type, disassembled.
    #[serde(rename = "type")]
    pub ty: String,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// The default value's bytes, in hex.
    pub default_hex: String,
    /// SpecIds and descriptors in first-use order (`--spec-id-order first-use`).
    pub spec_ids_first_use: Vec<u32>,
    /// The descriptors in first-use order.
    pub descriptors_first_use: Vec<DescriptorJson>,
    /// The same in DPC++'s order (`--spec-id-order dpcpp`).
    pub spec_ids_dpcpp: Vec<u32>,
    /// The descriptors in DPC++'s order.
    pub descriptors_dpcpp: Vec<DescriptorJson>,
    /// The tree in first-use numbering.
    pub tree: PreviewNode,
}

/// What native lowering would produce for a module with marker calls.
#[derive(Clone, Debug, Serialize)]
pub struct Lowering {
    /// Number of marker calls.
    pub marker_calls: usize,
    /// In first-use order (the order of the `.prop` properties lowering writes by default).
    pub constants: Vec<PreviewConstant>,
    /// Symbolic IDs in DPC++'s order (that of `--spec-id-order dpcpp`'s properties).
    pub order_dpcpp: Vec<String>,
    /// The `all` default-values blob in first-use order, in hex.
    pub default_blob_first_use: String,
    /// The same in DPC++'s order.
    pub default_blob_dpcpp: String,
    /// Why lowering would refuse the module.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Everything `info` tells about one module.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Info {
    /// Name and version of the JSON format (`spec-link-info/1`).
    pub format: &'static str,
    /// The file's name.
    pub file: String,
    /// Facts about the module as a whole.
    pub module: ModuleFacts,
    /// The entry points.
    pub kernels: Vec<Kernel>,
    /// Every spec constant of the module that no spec composite holds, as trees.
    pub spec_constants: Vec<ConstNode>,
    /// Where the names came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub names_source: Option<String>,
    /// Each name's constant (with names).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub named_constants: Option<Vec<NamedConstInfo>>,
    /// `HostAccessINTEL`-decorated variables (device globals).
    pub device_globals: Vec<DeviceGlobal>,
    /// What lowering would produce (a module with marker calls).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lowering: Option<Lowering>,
    /// Why the module could not be indexed (then only `module` is filled, from its preamble):
    /// lowering would refuse it, but a module without markers is still passed through.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Analyses one module given as its bytes, either byte order (see the module docs). Errors: bytes
/// that are not a SPIR-V module (no header, an instruction running past the end); a module that
/// cannot be indexed is described, not refused ([`Info::error`]).
pub fn analyse(file: &str, bytes: &[u8], names: Option<&SymbolNames>) -> Result<Info> {
    analyse_module(file, &Module::from_bytes(bytes)?, names)
}

/// [`analyse`] of a module already read.
fn analyse_module(file: &str, module: &Module, names: Option<&SymbolNames>) -> Result<Info> {
    let index = match Index::build(module) {
        Ok(index) => index,
        Err(e) => {
            return Ok(Info {
                format: FORMAT,
                file: file.to_string(),
                module: facts(module, None),
                kernels: Vec::new(),
                spec_constants: Vec::new(),
                names_source: names.map(|n| n.source.clone()),
                named_constants: None,
                device_globals: Vec::new(),
                lowering: None,
                error: Some(e.messages().join("; ")),
            })
        }
    };
    let decorations = Decorations::scan(module, &index);
    let mut trees = Trees::new(module, &index, &decorations);
    let spec_constants = trees.roots();
    let named_constants = names.map(|n| constants::named(&mut trees, &spec_constants, n));
    let lowering = markers::may_have_markers(module).then(|| preview(module, &index));
    let marker_calls: Vec<(u32, String)> = match markers::find_markers(module, &index) {
        Ok(m) if !m.calls.is_empty() => m
            .calls
            .iter()
            .filter_map(|c| Some((c.caller, m.symbolic_id(c)?.to_string())))
            .collect(),
        _ => Vec::new(),
    };
    let cx = kernels::Context {
        decorations: &decorations,
        layout: &trees.layout,
        marker_calls: &marker_calls,
    };
    let mut kernels = kernels::kernels(module, &index, &cx);
    if let Some(named) = &named_constants {
        for k in &mut kernels {
            k.spec_constants = named
                .iter()
                .filter(|c| {
                    c.spec_ids
                        .iter()
                        .any(|s| k.spec_ids.binary_search(s).is_ok())
                })
                .map(|c| c.name.clone())
                .collect();
        }
    }
    let mut device_globals: Vec<DeviceGlobal> = decorations
        .host_access
        .iter()
        .map(|(&id, name)| DeviceGlobal {
            name: name.clone(),
            id,
            ty: index
                .defs
                .get(&id)
                .and_then(|i| inst::result_type(module.original(i)))
                .map(|t| kernels::type_spelling(&trees.layout, t))
                .unwrap_or_default(),
        })
        .collect();
    device_globals.sort_by(|a, b| (&a.name, a.id).cmp(&(&b.name, b.id)));
    Ok(Info {
        format: FORMAT,
        file: file.to_string(),
        module: facts(module, Some(&index)),
        kernels,
        spec_constants,
        names_source: names.map(|n| n.source.clone()),
        named_constants,
        device_globals,
        lowering,
        error: None,
    })
}

fn string_operand(words: &[u32]) -> String {
    inst::read_string(words)
        .map(|(s, _)| String::from_utf8_lossy(&s).into_owned())
        .unwrap_or_default()
}

/// The module's facts; without an index, only those of its preamble (no linkage, no count of
/// functions).
fn facts(module: &Module, index: Option<&Index>) -> ModuleFacts {
    let (major, minor) = module.version();
    let mut f = ModuleFacts {
        version: format!("{major}.{minor}"),
        generator: module.generator(),
        id_bound: module.bound(),
        byte_order: if module.big_endian { "big" } else { "little" },
        size_bytes: module.word_count() as u64 * 4,
        instruction_count: module.len(),
        addressing_model: None,
        memory_model: None,
        capabilities: Vec::new(),
        extensions: Vec::new(),
        ext_inst_imports: Vec::new(),
        functions: index.map_or(0, |x| x.functions.len()),
        imports: Vec::new(),
        exports: Vec::new(),
    };
    for i in 0..module.len() {
        let w = module.original(i);
        match Op::from_u32(w[0] & 0xffff) {
            Some(Op::Capability) if w.len() > 1 => f.capabilities.push(
                spirv::Capability::from_u32(w[1])
                    .map_or_else(|| w[1].to_string(), |c| format!("{c:?}")),
            ),
            Some(Op::Extension) => f.extensions.push(string_operand(&w[1..])),
            Some(Op::ExtInstImport) if w.len() > 2 => {
                f.ext_inst_imports.push(string_operand(&w[2..]))
            }
            Some(Op::MemoryModel) if w.len() >= 3 => {
                f.addressing_model = Some(
                    spirv::AddressingModel::from_u32(w[1])
                        .map_or_else(|| w[1].to_string(), |m| format!("{m:?}")),
                );
                f.memory_model = Some(
                    spirv::MemoryModel::from_u32(w[2])
                        .map_or_else(|| w[2].to_string(), |m| format!("{m:?}")),
                );
            }
            // The preamble ends at the first debug instruction, annotation or type.
            Some(
                Op::Capability
                | Op::ExtInstImport
                | Op::MemoryModel
                | Op::EntryPoint
                | Op::ExecutionMode
                | Op::ExecutionModeId,
            ) => {}
            _ => break,
        }
    }
    let Some(index) = index else {
        return f;
    };
    let mut linkage: Vec<(usize, u32, &crate::module::index::Linkage)> = index
        .linkage
        .iter()
        .map(|(&id, l)| (l.inst, id, l))
        .collect();
    linkage.sort_by_key(|&(i, id, _)| (i, id));
    for (_, id, l) in linkage {
        let kind = match index.defs.get(&id).map(|i| module.opcode(i)) {
            Some(op) if op == Op::Function as u32 => "function".to_string(),
            Some(op) if op == Op::Variable as u32 => "variable".to_string(),
            Some(op) => inst::op_name(op),
            None => "undefined".to_string(),
        };
        let symbol = Symbol {
            name: String::from_utf8_lossy(&l.name).into_owned(),
            id,
            kind,
        };
        match l.kind {
            1 => f.imports.push(symbol),
            _ => f.exports.push(symbol),
        }
    }
    f
}

/// What native lowering would make (see [`Lowering`]).
fn preview(module: &Module, index: &Index) -> Lowering {
    let mut out = Lowering {
        marker_calls: 0,
        constants: Vec::new(),
        order_dpcpp: Vec::new(),
        default_blob_first_use: String::new(),
        default_blob_dpcpp: String::new(),
        error: None,
    };
    let built = markers::find_markers(module, index).and_then(|m| {
        let first = specmap::build(module, index, &m, Numbering::Native, SpecIdOrder::FirstUse)?;
        let dpcpp = specmap::build(module, index, &m, Numbering::Native, SpecIdOrder::Dpcpp)?;
        Ok((m.calls.len(), first, dpcpp))
    });
    let (calls, first, dpcpp) = match built {
        Ok(b) => b,
        Err(e) => {
            out.error = Some(e.messages().join("; "));
            return out;
        }
    };
    out.marker_calls = calls;
    let layout = crate::layout::Layout::new(module, index);
    out.default_blob_first_use = crate::sidecar::json::hex(&first.default_blob());
    out.default_blob_dpcpp = crate::sidecar::json::hex(&dpcpp.default_blob());
    out.order_dpcpp = dpcpp
        .constants
        .iter()
        .map(|c| c.symbolic_id.to_string())
        .collect();
    for c in &first.constants {
        let other = dpcpp.find(&c.symbolic_id.0);
        out.constants.push(PreviewConstant {
            symbolic_id: c.symbolic_id.to_string(),
            ty: c.type_name.to_string(),
            size: c.size,
            align: c.align,
            default_hex: crate::sidecar::json::hex(first.default_bytes(c)),
            spec_ids_first_use: first.spec_ids(c).to_vec(),
            descriptors_first_use: first.descriptors(c).iter().map(Into::into).collect(),
            spec_ids_dpcpp: other
                .map(|o| dpcpp.spec_ids(o).to_vec())
                .unwrap_or_default(),
            descriptors_dpcpp: other
                .map(|o| dpcpp.descriptors(o).iter().map(Into::into).collect())
                .unwrap_or_default(),
            tree: preview_node(&first, &layout, &c.tree, 0),
        });
    }
    out
}

fn preview_node(
    map: &SpecMap,
    layout: &crate::layout::Layout<'_>,
    node: &SpecNode,
    depth: usize,
) -> PreviewNode {
    match *node {
        SpecNode::Leaf {
            ty,
            spec_id,
            offset,
            size,
            ..
        } => PreviewNode {
            kind: "leaf",
            ty: layout.display(ty),
            offset,
            spec_id: Some(spec_id),
            size: Some(size as u64),
            default_hex: Some(crate::sidecar::json::hex(node.default_bytes())),
            members: Vec::new(),
        },
        SpecNode::Padding {
            ty,
            spec_id,
            offset,
        } => PreviewNode {
            kind: "padding",
            ty: layout.display(ty),
            offset,
            spec_id: Some(spec_id),
            size: None,
            default_hex: None,
            members: Vec::new(),
        },
        SpecNode::Composite {
            ty, offset, size, ..
        } => PreviewNode {
            kind: "composite",
            ty: layout.display(ty),
            offset,
            spec_id: None,
            size: Some(size),
            default_hex: None,
            members: if depth < crate::layout::MAX_DEPTH {
                map.children(node)
                    .iter()
                    .map(|n| preview_node(map, layout, n, depth + 1))
                    .collect()
            } else {
                Vec::new()
            },
        },
    }
}
