//! The JSON sidecar as data: types that read (and write) format `spec-link-sidecar/1`, for
//! programs that consume what spec-link wrote. The writer in [`super::json`] streams the same
//! shape without building these values; `docs/schema/spec-link-sidecar-1.schema.json` is the
//! JSON Schema of the format, and a test checks every golden sidecar against both.
//!
//! ```
//! let text = r#"{"format": "spec-link-sidecar/1", "mode": "native", "spec_constants": [],
//!                "default_values": "", "property_sets": {}}"#;
//! let sidecar: spec_link::sidecar::contract::Sidecar = serde_json::from_str(text).unwrap();
//! assert!(sidecar.spec_constants.is_empty());
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The whole sidecar.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Sidecar {
    /// Always `spec-link-sidecar/1`.
    pub format: String,
    /// `native`, `emulation` or `default-values`.
    pub mode: String,
    /// Emulation and default-values modes: the size in bytes of the spec-constant buffer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_size: Option<u64>,
    /// Every spec constant, in SpecId order.
    pub spec_constants: Vec<SpecConstant>,
    /// Hex of the default-values blob (every constant's default at its place).
    pub default_values: String,
    /// Emulation mode: which parameter of each kernel takes the buffer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernels: Option<Vec<Kernel>>,
    /// Linking several inputs: imports no input exports (kept with `--allow-partial`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unresolved_imports: Option<Vec<String>>,
    /// Linking with `--renumber-spec-ids`: the SpecIds that were renumbered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renumbered_spec_ids: Option<Vec<Renumbered>>,
    /// Set name → property name → value: the `.prop` file's content.
    pub property_sets: BTreeMap<String, BTreeMap<String, Property>>,
}

/// One spec constant (one symbolic ID).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct SpecConstant {
    /// The symbolic ID (the `specialization_id`'s unique name).
    pub symbolic_id: String,
    /// A readable spelling of its type (`i32`, `struct.Pair { i32, i8 }`).
    #[serde(rename = "type")]
    pub type_name: String,
    /// Its size in bytes.
    pub size: u32,
    /// The SpecIds of its scalar leaves, in member order.
    pub spec_ids: Vec<u32>,
    /// DPC++'s descriptors: one per leaf, plus `spec_id` 4294967295 for padding.
    pub descriptors: Vec<Descriptor>,
    /// Hex of its default value's bytes.
    pub default: String,
    /// Emulation and default-values modes: its offset in the buffer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_offset: Option<u32>,
}

/// Where one leaf of a spec constant lives in its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Descriptor {
    /// The SpecId (4294967295 for padding).
    pub spec_id: u32,
    /// Byte offset in the constant's value.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
}

/// A kernel of an emulation-mode module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kernel {
    /// The entry point's name.
    pub name: String,
    /// The index of its spec-constant buffer parameter; `null` when it reaches no marker.
    pub spec_constants_buffer_arg: Option<u32>,
}

/// A SpecId a link renumbered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Renumbered {
    /// The input file whose SpecId moved.
    pub input: String,
    /// Its SpecId in that input.
    pub from: u32,
    /// Its SpecId in the output.
    pub to: u32,
}

/// A property value, as DPC++'s `PropertySetIO` types them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Property {
    /// Type 1.
    Uint32 {
        /// The value.
        value: u32,
    },
    /// Type 2: hex of the raw bytes, the 8-byte little-endian bit count first (as the runtime
    /// receives them).
    ByteArray {
        /// The bytes, in lowercase hex.
        hex: String,
    },
}
