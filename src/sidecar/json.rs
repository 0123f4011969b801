//! spec-link's JSON sidecar, format `spec-link-sidecar/1` (documented in docs/formats.md).

use super::{prop, PropertyRef, Sets};
use crate::link::LinkReport;
use crate::lower::emulation::KernelBuffer;
use crate::specmap::{SpecConstant, SpecMap};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, SerializeStruct, Serializer};
use std::io::Write;

pub(crate) const FORMAT: &str = "spec-link-sidecar/1";

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

/// The sidecar's top-level object, serialised field by field from the spec map (no copy of the
/// constants or property sets is built).
struct Sidecar<'a> {
    map: &'a SpecMap,
    mode: &'a str,
    sets: &'a Sets<'a>,
    kernels: Option<&'a [KernelBuffer]>,
    link: Option<&'a LinkReport>,
}

impl Serialize for Sidecar<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let emulation = self.kernels.is_some();
        let mut o = s.serialize_struct("Sidecar", 9)?;
        o.serialize_field("format", FORMAT)?;
        o.serialize_field("mode", self.mode)?;
        if emulation {
            o.serialize_field("buffer_size", &self.map.blob_size)?;
        }
        o.serialize_field(
            "spec_constants",
            &Constants {
                map: self.map,
                emulation,
            },
        )?;
        o.serialize_field("default_values", &hex(&self.map.default_blob()))?;
        if let Some(ks) = self.kernels {
            let ks: Vec<Kernel> = ks
                .iter()
                .map(|k| Kernel {
                    name: k.name.clone(),
                    spec_constants_buffer_arg: k.arg,
                })
                .collect();
            o.serialize_field("kernels", &ks)?;
        }
        if let Some(l) = self.link {
            o.serialize_field("unresolved_imports", &l.unresolved)?;
            let renumbered: Vec<Renumbered> = l
                .renumbered
                .iter()
                .map(|r| Renumbered {
                    input: r.input.clone(),
                    from: r.from,
                    to: r.to,
                })
                .collect();
            o.serialize_field("renumbered_spec_ids", &renumbered)?;
        }
        o.serialize_field("property_sets", &PropertySets(self.sets))?;
        o.end()
    }
}

/// The `spec_constants` array, one object per constant, made as it is written.
struct Constants<'a> {
    map: &'a SpecMap,
    emulation: bool,
}

impl Serialize for Constants<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let map = self.map;
        let mut seq = s.serialize_seq(Some(map.constants.len()))?;
        for c in &map.constants {
            seq.serialize_element(&Constant {
                map,
                c,
                emulation: self.emulation,
            })?;
        }
        seq.end()
    }
}

struct Constant<'a> {
    map: &'a SpecMap,
    c: &'a SpecConstant,
    emulation: bool,
}

impl Serialize for Constant<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (map, c) = (self.map, self.c);
        let mut o = s.serialize_struct("Constant", 7)?;
        o.serialize_field("symbolic_id", &c.symbolic_id.to_string())?;
        o.serialize_field("type", &*c.type_name)?;
        o.serialize_field("size", &c.size)?;
        o.serialize_field("spec_ids", map.spec_ids(c))?;
        let descriptors: Vec<Descriptor> = map
            .descriptors(c)
            .iter()
            .map(|d| Descriptor {
                spec_id: d.spec_id,
                offset: d.offset,
                size: d.size,
            })
            .collect();
        o.serialize_field("descriptors", &descriptors)?;
        o.serialize_field("default", &hex(map.default_bytes(c)))?;
        if self.emulation {
            o.serialize_field("buffer_offset", &c.blob_offset)?;
        }
        o.end()
    }
}

/// The `property_sets` object: set name → property name → value.
struct PropertySets<'a>(&'a Sets<'a>);

impl Serialize for PropertySets<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let names = self.0.names();
        let mut m = s.serialize_map(Some(names.len()))?;
        for &name in names {
            m.serialize_entry(name, &PropertySet(self.0, name))?;
        }
        m.end()
    }
}

struct PropertySet<'a>(&'a Sets<'a>, &'a str);

impl Serialize for PropertySet<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        self.0.for_each(self.1, |name, v| {
            let v = match v {
                PropertyRef::Uint32(x) => Value::Uint32 { value: x },
                PropertyRef::ByteArray(p) => Value::ByteArray {
                    hex: hex(&prop::raw_byte_array(p)),
                },
            };
            m.serialize_entry(&*String::from_utf8_lossy(name), &v)
        })?;
        m.end()
    }
}

/// Writes the sidecar (pretty-printed, trailing newline), one constant and property at a time.
/// Property byte arrays are given as the hex of their raw bytes, bit-count prefix included,
/// exactly as the runtime receives them. `kernels` is given in emulation mode (it adds
/// `buffer_size`, `buffer_offset`s and `kernels`). `link` is given when several inputs were
/// linked (it adds `unresolved_imports` and `renumbered_spec_ids`).
pub(crate) fn write_to<W: Write>(
    w: &mut W,
    map: &SpecMap,
    mode: &str,
    sets: &Sets<'_>,
    kernels: Option<&[KernelBuffer]>,
    link: Option<&LinkReport>,
) -> std::io::Result<()> {
    let sidecar = Sidecar {
        map,
        mode,
        sets,
        kernels,
        link,
    };
    serde_json::to_writer_pretty(&mut *w, &sidecar)?;
    w.write_all(b"\n")
}
