//! spec-link's JSON sidecar, format `spec-link-sidecar/1` (documented in the README).

use super::{prop, PropertySet, PropertyValue};
use crate::link::LinkReport;
use crate::lower::emulation::KernelBuffer;
use crate::specmap::SpecMap;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// A JSON object that keeps insertion order (property order is meaningful to the runtime).
struct Ordered<V>(Vec<(String, V)>);

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

pub const FORMAT: &str = "spec-link-sidecar/1";

#[derive(serde::Serialize)]
struct Sidecar<'a> {
    format: &'a str,
    mode: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    buffer_size: Option<u64>,
    spec_constants: Vec<Constant>,
    default_values: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    kernels: Option<Vec<Kernel>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unresolved_imports: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    renumbered_spec_ids: Option<Vec<Renumbered>>,
    property_sets: Ordered<Ordered<Value>>,
}

#[derive(serde::Serialize)]
struct Renumbered {
    input: String,
    from: u32,
    to: u32,
}

#[derive(serde::Serialize)]
struct Kernel {
    name: String,
    spec_constants_buffer_arg: Option<u32>,
}

#[derive(serde::Serialize)]
struct Constant {
    symbolic_id: String,
    #[serde(rename = "type")]
    ty: String,
    size: u64,
    spec_ids: Vec<u32>,
    descriptors: Vec<Descriptor>,
    default: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    buffer_offset: Option<u64>,
}

#[derive(serde::Serialize)]
struct Descriptor {
    spec_id: u32,
    offset: u32,
    size: u32,
}

#[derive(serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Value {
    ByteArray { hex: String },
    Uint32 { value: u32 },
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Serialises the sidecar (pretty-printed, trailing newline). Property byte arrays are given as
/// the hex of their raw bytes, bit-count prefix included, exactly as the runtime receives them.
/// `kernels` is given in emulation mode (it adds `buffer_size`, `buffer_offset`s and `kernels`).
/// `link` is given when several inputs were linked (it adds `unresolved_imports` and
/// `renumbered_spec_ids`).
pub fn write(
    map: &SpecMap,
    mode: &str,
    sets: &[PropertySet],
    kernels: Option<&[KernelBuffer]>,
    link: Option<&LinkReport>,
) -> Vec<u8> {
    let emulation = kernels.is_some();
    let sidecar = Sidecar {
        format: FORMAT,
        mode,
        buffer_size: emulation.then_some(map.blob_size),
        unresolved_imports: link.map(|l| l.unresolved.clone()),
        renumbered_spec_ids: link.map(|l| {
            l.renumbered
                .iter()
                .map(|r| Renumbered {
                    input: r.input.clone(),
                    from: r.from,
                    to: r.to,
                })
                .collect()
        }),
        kernels: kernels.map(|ks| {
            ks.iter()
                .map(|k| Kernel {
                    name: k.name.clone(),
                    spec_constants_buffer_arg: k.arg,
                })
                .collect()
        }),
        spec_constants: map
            .constants
            .iter()
            .map(|c| Constant {
                symbolic_id: c.symbolic_id.to_string(),
                ty: c.type_name.to_string(),
                size: c.size,
                spec_ids: map.spec_ids(c).to_vec(),
                descriptors: map
                    .descriptors(c)
                    .iter()
                    .map(|d| Descriptor {
                        spec_id: d.spec_id,
                        offset: d.offset,
                        size: d.size,
                    })
                    .collect(),
                default: hex(map.default_bytes(c)),
                buffer_offset: emulation.then_some(c.blob_offset),
            })
            .collect(),
        default_values: hex(&map.default_blob()),
        property_sets: Ordered(
            sets.iter()
                .map(|s| {
                    let props = s
                        .properties
                        .iter()
                        .map(|(n, v)| {
                            let v = match v {
                                PropertyValue::Uint32(x) => Value::Uint32 { value: *x },
                                PropertyValue::ByteArray(p) => Value::ByteArray {
                                    hex: hex(&prop::raw_byte_array(p)),
                                },
                            };
                            (String::from_utf8_lossy(n).into_owned(), v)
                        })
                        .collect();
                    (s.name.clone(), Ordered(props))
                })
                .collect(),
        ),
    };
    // Serialising plain data cannot fail.
    let mut out = serde_json::to_vec_pretty(&sidecar).unwrap_or_default();
    out.push(b'\n');
    out
}
