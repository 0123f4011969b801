//! Property sets and their two serialisations: DPC++'s `.prop` text ([`prop`]) and spec-link's
//! JSON sidecar ([`json`]). Both are written from a [`SpecMap`] through
//! [`property_sets`].

pub mod contract;
pub mod json;
pub mod prop;

use crate::properties::{PropertySet, Value};
use crate::specmap::SpecMap;

/// Name of the set holding one property per symbolic ID.
pub(crate) const SPEC_CONSTANTS: &str = "SYCL/specialization constants";
/// Name of the set holding the `all` default-values blob.
pub(crate) const SPEC_CONSTANTS_DEFAULT_VALUES: &str =
    "SYCL/specialization constants default values";

/// Name of the set holding miscellaneous image properties.
pub(crate) const MISC_PROPERTIES: &str = "SYCL/misc properties";

/// A property value borrowed from where it is computed (see [`Sets::for_each`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PropertyRef<'a> {
    Uint32(u32),
    ByteArray(&'a [u8]),
}

impl PropertyRef<'_> {
    fn to_value(self) -> Value {
        match self {
            PropertyRef::Uint32(v) => Value::Uint32(v),
            PropertyRef::ByteArray(p) => Value::bytes(p.to_vec()),
        }
    }
}

/// The spec-constant property sets of a spec map, produced one property at a time: a writer
/// never holds a copy of them (a module may have hundreds of thousands of spec constants).
///
/// The sets: none when there is no spec constant; otherwise [`SPEC_CONSTANTS`] (one property
/// per symbolic ID: its descriptors), [`SPEC_CONSTANTS_DEFAULT_VALUES`] (`all`: the default
/// blob), and, for an image whose markers were replaced by their defaults, [`MISC_PROPERTIES`]
/// (`specConstsReplacedWithDefault=1|1`).
#[derive(Clone, Copy)]
pub(crate) struct Sets<'a> {
    map: &'a SpecMap,
    replaced_with_default: bool,
}

impl<'a> Sets<'a> {
    pub(crate) fn new(map: &'a SpecMap, replaced_with_default: bool) -> Self {
        Sets {
            map,
            replaced_with_default,
        }
    }

    /// The names of the sets, in order.
    pub(crate) fn names(&self) -> &'static [&'static str] {
        match (self.map.constants.is_empty(), self.replaced_with_default) {
            (true, _) => &[],
            (false, false) => &[SPEC_CONSTANTS, SPEC_CONSTANTS_DEFAULT_VALUES],
            (false, true) => &[
                SPEC_CONSTANTS,
                SPEC_CONSTANTS_DEFAULT_VALUES,
                MISC_PROPERTIES,
            ],
        }
    }

    /// Calls `f` with each property of set `name` (one of [`Sets::names`]), in order; stops at
    /// the first error.
    pub(crate) fn for_each<E>(
        &self,
        name: &str,
        mut f: impl FnMut(&[u8], PropertyRef<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        match name {
            SPEC_CONSTANTS => {
                let mut payload = Vec::new();
                for c in &self.map.constants {
                    payload.clear();
                    payload.extend(
                        self.map
                            .descriptors(c)
                            .iter()
                            .flat_map(|d| [d.spec_id, d.offset, d.size])
                            .flat_map(u32::to_le_bytes),
                    );
                    f(&c.symbolic_id.0, PropertyRef::ByteArray(&payload))?;
                }
                Ok(())
            }
            SPEC_CONSTANTS_DEFAULT_VALUES => {
                f(b"all", PropertyRef::ByteArray(&self.map.default_blob()))
            }
            MISC_PROPERTIES => f(b"specConstsReplacedWithDefault", PropertyRef::Uint32(1)),
            _ => Ok(()),
        }
    }
}

/// The spec-constant property sets of a module, as values (see `Sets`, which writers use).
/// Property names are the symbolic IDs as text: a byte of one that is not UTF-8 becomes U+FFFD
/// here, while the `.prop` and JSON writers keep the bytes.
pub fn property_sets(map: &SpecMap, replaced_with_default: bool) -> Vec<PropertySet> {
    let sets = Sets::new(map, replaced_with_default);
    sets.names()
        .iter()
        .map(|&name| {
            let mut properties = Vec::new();
            let _ = sets.for_each(name, |n, v| {
                properties.push((String::from_utf8_lossy(n).into_owned(), v.to_value()));
                Ok::<(), std::convert::Infallible>(())
            });
            PropertySet {
                name: name.into(),
                properties,
            }
        })
        .collect()
}
