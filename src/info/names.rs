//! Symbolic names of the spec constants of an image that is already lowered: the runtime's view,
//! read from DPC++'s or spec-link's property sets (`[SYCL/specialization constants]`: name →
//! descriptors `{SpecId, offset, size}`; `[SYCL/specialization constants default values]`: the
//! `all` blob) or from spec-link's JSON sidecar (`spec_constants`, `default_values`).
//!
//! Postcondition: every name's descriptors are as given (padding descriptors included), in the
//! order given; each constant's place in the blob is computed the way the runtime computes it
//! (`updateSpecConstSymMap`, dpcpp-reference §5.6): constants follow each other in property
//! order, each spanning `last.offset + last.size` bytes.

use crate::error::{Error, Result};
use crate::properties::{PropertySet, Value};
use crate::sidecar::{SPEC_CONSTANTS, SPEC_CONSTANTS_DEFAULT_VALUES};
use crate::specmap::{Descriptor, PADDING_SPEC_ID};

/// One symbolic name and what the runtime does with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedConstant {
    /// The symbolic name (the `.prop` property name).
    pub name: String,
    /// Descriptors in the order given (offset order), padding ones included.
    pub descriptors: Vec<Descriptor>,
    /// Where its value starts in the default-values blob.
    pub blob_offset: u64,
}

impl NamedConstant {
    /// Bytes the value spans: `last.offset + last.size` (0 without descriptors).
    pub(crate) fn size(&self) -> u64 {
        self.descriptors
            .last()
            .map_or(0, |d| d.offset as u64 + d.size as u64)
    }

    /// Whether a module whose SpecIds are `spec_ids` holds it: it has a SpecId, and every one
    /// is there.
    pub(crate) fn held_by(&self, spec_ids: &std::collections::BTreeSet<u32>) -> bool {
        self.spec_ids().next().is_some() && self.spec_ids().all(|s| spec_ids.contains(&s))
    }

    /// SpecIds of its non-padding descriptors, in order.
    pub(crate) fn spec_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.descriptors
            .iter()
            .map(|d| d.spec_id)
            .filter(|&s| s != PADDING_SPEC_ID)
    }
}

/// The names of an image's spec constants, with the default blob when it was given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymbolNames {
    /// Where they were read (for messages).
    pub source: String,
    /// The names, in the order read.
    pub constants: Vec<NamedConstant>,
    /// The `all` default-values blob.
    pub default_blob: Option<Vec<u8>>,
    /// Every property set they were read with (a `.prop` or a sidecar's `property_sets`: its
    /// other sets describe the image too); lowering's own sets when made by lowering.
    pub sets: Vec<PropertySet>,
}

impl SymbolNames {
    /// The default bytes of a constant, when the blob was given and holds them.
    pub(crate) fn default_bytes(&self, c: &NamedConstant) -> Option<&[u8]> {
        let blob = self.default_blob.as_deref()?;
        blob.get(c.blob_offset as usize..(c.blob_offset + c.size()) as usize)
    }

    fn place(source: String, named: Vec<(String, Vec<Descriptor>)>, blob: Option<Vec<u8>>) -> Self {
        let mut offset = 0u64;
        let constants = named
            .into_iter()
            .map(|(name, descriptors)| {
                let c = NamedConstant {
                    name,
                    descriptors,
                    blob_offset: offset,
                };
                offset += c.size();
                c
            })
            .collect();
        SymbolNames {
            source,
            constants,
            default_blob: blob,
            sets: Vec::new(),
        }
    }

    /// From `.prop` text (DPC++'s or spec-link's; read by [`crate::properties::text::read`]).
    pub fn from_prop_text(source: &str, text: &[u8]) -> Result<Self> {
        let sets = crate::properties::text::read(text)
            .map_err(|e| Error::Unsupported(format!("{source}: {e}")))?;
        let mut names = Self::from_property_sets(source, &sets)?;
        names.sets = sets;
        Ok(names)
    }

    /// From property sets. Sets other than the two spec-constant ones are not read; an image
    /// without them has no names.
    pub(crate) fn from_property_sets(source: &str, sets: &[PropertySet]) -> Result<Self> {
        let bad = |what: String| Error::Unsupported(format!("{source}: {what}"));
        let mut named = Vec::new();
        let mut blob = None;
        for set in sets {
            if set.name == SPEC_CONSTANTS {
                for (name, value) in &set.properties {
                    let name = name.clone();
                    let Value::Bytes { data: payload, .. } = value else {
                        return Err(bad(format!(
                            "[{SPEC_CONSTANTS}] {name} is not a byte array"
                        )));
                    };
                    if payload.len() % 12 != 0 {
                        return Err(bad(format!(
                            "[{SPEC_CONSTANTS}] {name}: {} bytes are not {{SpecId, offset, size}} triples",
                            payload.len()
                        )));
                    }
                    let word = |k: usize| {
                        u32::from_le_bytes([
                            payload[k],
                            payload[k + 1],
                            payload[k + 2],
                            payload[k + 3],
                        ])
                    };
                    let descriptors = (0..payload.len())
                        .step_by(12)
                        .map(|k| Descriptor {
                            spec_id: word(k),
                            offset: word(k + 4),
                            size: word(k + 8),
                        })
                        .collect();
                    named.push((name, descriptors));
                }
            } else if set.name == SPEC_CONSTANTS_DEFAULT_VALUES {
                for (name, value) in &set.properties {
                    if let ("all", Value::Bytes { data, .. }) = (name.as_str(), value) {
                        blob = Some(data.clone());
                    }
                }
            }
        }
        Ok(Self::place(source.to_string(), named, blob))
    }

    /// From spec-link's JSON sidecar (`spec-link-sidecar/1`).
    pub fn from_sidecar_json(source: &str, text: &[u8]) -> Result<Self> {
        let bad = |what: String| Error::Unsupported(format!("{source}: {what}"));
        let doc: serde_json::Value =
            serde_json::from_slice(text).map_err(|e| bad(format!("not a JSON document: {e}")))?;
        if doc.get("format").and_then(|f| f.as_str()) != Some(crate::sidecar::json::FORMAT) {
            return Err(bad(format!(
                "not a spec-link sidecar (\"format\": \"{}\" expected)",
                crate::sidecar::json::FORMAT
            )));
        }
        if doc.get("mode").and_then(|m| m.as_str()) != Some("native") {
            return Err(bad(
                "the sidecar is not of a native-mode image (its names map to no SpecId)".into(),
            ));
        }
        let u32_of = |v: &serde_json::Value, key: &str| {
            v.get(key)
                .and_then(|x| x.as_u64())
                .and_then(|x| u32::try_from(x).ok())
                .ok_or_else(|| bad(format!("a descriptor has no 32-bit \"{key}\"")))
        };
        let mut named = Vec::new();
        let constants = doc
            .get("spec_constants")
            .and_then(|c| c.as_array())
            .ok_or_else(|| bad("no \"spec_constants\" array".into()))?;
        for c in constants {
            let name = c
                .get("symbolic_id")
                .and_then(|s| s.as_str())
                .ok_or_else(|| bad("a constant has no \"symbolic_id\"".into()))?;
            let mut descriptors = Vec::new();
            for d in c
                .get("descriptors")
                .and_then(|d| d.as_array())
                .ok_or_else(|| bad(format!("{name} has no \"descriptors\"")))?
            {
                descriptors.push(Descriptor {
                    spec_id: u32_of(d, "spec_id")?,
                    offset: u32_of(d, "offset")?,
                    size: u32_of(d, "size")?,
                });
            }
            named.push((name.to_string(), descriptors));
        }
        let blob = match doc.get("default_values").and_then(|b| b.as_str()) {
            Some(hex) => {
                Some(parse_hex(hex).ok_or_else(|| bad("\"default_values\" is not hex".into()))?)
            }
            None => None,
        };
        let mut names = Self::place(source.to_string(), named, blob);
        names.sets = sidecar_property_sets(&doc).map_err(bad)?;
        Ok(names)
    }
}

/// The `property_sets` object of a sidecar (set name → property name → `{"type": "uint32",
/// "value": N}` or `{"type": "byte_array", "hex": H}`, H the raw bytes: the 64-bit bit count,
/// then the data), in the order the document holds them; none when it has no such object.
fn sidecar_property_sets(doc: &serde_json::Value) -> std::result::Result<Vec<PropertySet>, String> {
    let Some(sets) = doc.get("property_sets") else {
        return Ok(Vec::new());
    };
    let sets = sets
        .as_object()
        .ok_or("\"property_sets\" is not an object")?;
    let mut out = Vec::new();
    for (set_name, properties) in sets {
        let properties = properties
            .as_object()
            .ok_or_else(|| format!("property set [{set_name}] is not an object"))?;
        let mut set = PropertySet::new(set_name);
        for (name, value) in properties {
            let bad = || format!("[{set_name}] {name}: not a uint32 or byte_array value");
            let value = match value.get("type").and_then(|t| t.as_str()) {
                Some("uint32") => Value::Uint32(
                    value
                        .get("value")
                        .and_then(|v| v.as_u64())
                        .and_then(|v| u32::try_from(v).ok())
                        .ok_or_else(bad)?,
                ),
                Some("byte_array") => {
                    let raw = value
                        .get("hex")
                        .and_then(|h| h.as_str())
                        .and_then(parse_hex)
                        .ok_or_else(bad)?;
                    let (count, data) = raw.split_at_checked(8).ok_or_else(bad)?;
                    let bits = u64::from_le_bytes(count.try_into().map_err(|_| bad())?);
                    if bits.div_ceil(8) != data.len() as u64 {
                        return Err(format!(
                            "[{set_name}] {name}: {bits} bits in {} bytes",
                            data.len()
                        ));
                    }
                    Value::Bytes {
                        bits,
                        data: data.to_vec(),
                    }
                }
                _ => return Err(bad()),
            };
            set.insert(name, value);
        }
        out.push(set);
    }
    Ok(out)
}

/// Bytes of a hex string (`None` if it is not one).
pub(crate) fn parse_hex(hex: &str) -> Option<Vec<u8>> {
    if hex.len() % 2 != 0 {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(hex.get(k..k + 2)?, 16).ok())
        .collect()
}
