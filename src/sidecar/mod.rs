//! Property sets and their two serialisations: DPC++'s `.prop` text ([`prop`]) and spec-link's
//! JSON sidecar ([`json`]). Both are written from a [`SpecMap`] through
//! [`property_sets`].

pub mod json;
pub mod prop;

use crate::specmap::SpecMap;

/// Name of the set holding one property per symbolic ID.
pub const SPEC_CONSTANTS: &str = "SYCL/specialization constants";
/// Name of the set holding the `all` default-values blob.
pub const SPEC_CONSTANTS_DEFAULT_VALUES: &str = "SYCL/specialization constants default values";

/// A property value as DPC++'s `PropertySetIO` knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropertyValue {
    /// Type 1.
    Uint32(u32),
    /// Type 2: the payload (the 8-byte bit-count prefix is added when serialised).
    ByteArray(Vec<u8>),
}

/// A named, ordered list of properties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertySet {
    pub name: String,
    /// `(property name bytes, value)` in insertion order.
    pub properties: Vec<(Vec<u8>, PropertyValue)>,
}

/// Name of the set holding miscellaneous image properties.
pub const MISC_PROPERTIES: &str = "SYCL/misc properties";

/// The spec-constant property sets of a module (none when it has no spec constants). An image
/// whose markers were replaced by their defaults also gets
/// `[SYCL/misc properties] specConstsReplacedWithDefault=1|1`.
pub fn property_sets(map: &SpecMap, replaced_with_default: bool) -> Vec<PropertySet> {
    if map.constants.is_empty() {
        return Vec::new();
    }
    let consts = map
        .constants
        .iter()
        .map(|c| {
            let payload = map
                .descriptors(c)
                .iter()
                .flat_map(|d| [d.spec_id, d.offset, d.size])
                .flat_map(u32::to_le_bytes)
                .collect();
            (c.symbolic_id.0.to_vec(), PropertyValue::ByteArray(payload))
        })
        .collect();
    let mut sets = vec![
        PropertySet {
            name: SPEC_CONSTANTS.into(),
            properties: consts,
        },
        PropertySet {
            name: SPEC_CONSTANTS_DEFAULT_VALUES.into(),
            properties: vec![(
                b"all".to_vec(),
                PropertyValue::ByteArray(map.default_blob()),
            )],
        },
    ];
    if replaced_with_default {
        sets.push(PropertySet {
            name: MISC_PROPERTIES.into(),
            properties: vec![(
                b"specConstsReplacedWithDefault".to_vec(),
                PropertyValue::Uint32(1),
            )],
        });
    }
    sets
}
