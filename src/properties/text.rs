//! DPC++'s `.prop` text (`PropertySetRegistry::read`/`write`), both ways.
//!
//! Reading follows LLVM's `PropertySetRegistry::read`: blank lines are skipped; `[name]` opens a
//! set (a name seen before continues that set); every other line is `name=type|value`, split at
//! the first `=` and the first `|`; type 1 is a decimal uint32, type 2 LLVM's base64 variant of
//! an 8-byte little-endian bit count followed by the data. A property named twice in one set
//! keeps its first place and its last value (a `MapVector`).
//! Postcondition: [`write()`]`(`[`read`]`(x))` is `x` for every file DPC++ writes (tested on every
//! `.prop` under `testdata/`).

use super::{PropertySet, Value};
use crate::sidecar::prop::base64_append;

/// Why a text is not a property file.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum PropError {
    /// A line that is not UTF-8.
    #[error("line {line}: not valid UTF-8")]
    NotText {
        /// Line number (from 1).
        line: usize,
    },
    /// A property line before the first `[set]` line.
    #[error("line {line}: a property before any [set] line")]
    NoSet {
        /// Line number (from 1).
        line: usize,
    },
    /// A `[` line without its `]`.
    #[error("line {line}: '[' without a closing ']'")]
    UnclosedSet {
        /// Line number (from 1).
        line: usize,
    },
    /// A line that is not `name=type|value`.
    #[error("line {line}: expected name=type|value")]
    NotAProperty {
        /// Line number (from 1).
        line: usize,
    },
    /// A type other than 1 (uint32) or 2 (byte array).
    #[error("line {line}: unknown property type '{ty}' (1 = uint32, 2 = byte array)")]
    UnknownType {
        /// Line number (from 1).
        line: usize,
        /// The type as written.
        ty: String,
    },
    /// A type-1 value that is not a uint32.
    #[error("line {line}: '{value}' is not a uint32")]
    NotUint32 {
        /// Line number (from 1).
        line: usize,
        /// The value as written.
        value: String,
    },
    /// A type-2 value that is not LLVM's base64.
    #[error("line {line}: invalid base64 (LLVM's variant) byte array")]
    BadBase64 {
        /// Line number (from 1).
        line: usize,
    },
    /// A byte array with fewer bytes than its bit count needs.
    #[error("line {line}: byte array shorter than its bit count says")]
    ShortByteArray {
        /// Line number (from 1).
        line: usize,
    },
}

/// Reads `.prop` text into sets, in file order.
pub fn read(text: &[u8]) -> Result<Vec<PropertySet>, PropError> {
    let mut sets: Vec<PropertySet> = Vec::new();
    let mut current: Option<usize> = None;
    for (k, raw) in text.split(|&b| b == b'\n').enumerate() {
        let line = k + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.is_empty() {
            continue;
        }
        let s = std::str::from_utf8(raw).map_err(|_| PropError::NotText { line })?;
        if let Some(rest) = s.strip_prefix('[') {
            let end = rest.rfind(']').ok_or(PropError::UnclosedSet { line })?;
            let name = &rest[..end];
            current = Some(match sets.iter().position(|set| set.name == name) {
                Some(p) => p,
                None => {
                    sets.push(PropertySet::new(name));
                    sets.len() - 1
                }
            });
            continue;
        }
        let set = current.ok_or(PropError::NoSet { line })?;
        let (name, typed) = s.split_once('=').ok_or(PropError::NotAProperty { line })?;
        let (ty, value) = typed
            .split_once('|')
            .ok_or(PropError::NotAProperty { line })?;
        if name.is_empty() || ty.is_empty() || value.is_empty() {
            return Err(PropError::NotAProperty { line });
        }
        let value = match ty {
            "1" => Value::Uint32(value.parse().map_err(|_| PropError::NotUint32 {
                line,
                value: value.into(),
            })?),
            "2" => {
                let raw = base64_decode(value.as_bytes()).ok_or(PropError::BadBase64 { line })?;
                let (count, data) = raw
                    .split_first_chunk::<8>()
                    .ok_or(PropError::ShortByteArray { line })?;
                let bits = u64::from_le_bytes(*count);
                if bits.div_ceil(8) > data.len() as u64 {
                    return Err(PropError::ShortByteArray { line });
                }
                Value::Bytes {
                    bits,
                    data: data.to_vec(),
                }
            }
            other => {
                return Err(PropError::UnknownType {
                    line,
                    ty: other.into(),
                })
            }
        };
        sets[set].insert(name, value);
    }
    Ok(sets)
}

/// Writes sets as `.prop` text (the byte layout DPC++ writes).
pub fn write(sets: &[PropertySet]) -> Vec<u8> {
    let mut out = Vec::new();
    for set in sets {
        out.push(b'[');
        out.extend_from_slice(set.name.as_bytes());
        out.extend_from_slice(b"]\n");
        for (name, value) in &set.properties {
            out.extend_from_slice(name.as_bytes());
            match value {
                Value::Uint32(v) => {
                    out.extend_from_slice(b"=1|");
                    out.extend_from_slice(v.to_string().as_bytes());
                }
                Value::Bytes { bits, data } => {
                    out.extend_from_slice(b"=2|");
                    let mut raw = bits.to_le_bytes().to_vec();
                    raw.extend_from_slice(data);
                    base64_append(&raw, &mut out);
                }
            }
            out.push(b'\n');
        }
    }
    out
}

/// LLVM's base64 variant decoded (the inverse of `base64_append`); `None` on a character outside
/// the alphabet or a length of 1 mod 4.
fn base64_decode(src: &[u8]) -> Option<Vec<u8>> {
    let digit = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(src.len() / 4 * 3 + 2);
    for chunk in src.chunks(4) {
        let c: Vec<u32> = chunk.iter().map(|&c| digit(c)).collect::<Option<_>>()?;
        match c.as_slice() {
            [c0, c1, c2, c3] => {
                out.push((c0 | (c1 << 6)) as u8);
                out.push(((c1 >> 2) | (c2 << 4)) as u8);
                out.push(((c2 >> 4) | (c3 << 2)) as u8);
            }
            [c0, c1, c2] => {
                out.push((c0 | (c1 << 6)) as u8);
                out.push(((c1 >> 2) | (c2 << 4)) as u8);
            }
            [c0, c1] => out.push((c0 | (c1 << 6)) as u8),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_types_and_round_trips() -> Result<(), PropError> {
        let text = b"[SYCL/kernel param opt]\n_ZTS4KScB=2|DAAAAAAAAAAB\n[SYCL/misc properties]\noptLevel=1|2\n";
        let sets = read(text)?;
        assert_eq!(sets.len(), 2);
        assert_eq!(
            sets[0].properties[0].1,
            Value::Bytes {
                bits: 3,
                data: vec![4]
            }
        );
        assert_eq!(sets[1].properties[0].1, Value::Uint32(2));
        assert_eq!(write(&sets), text);
        Ok(())
    }

    #[test]
    fn rejects_what_is_not_a_property_file() {
        assert_eq!(read(b"x=1|2\n"), Err(PropError::NoSet { line: 1 }));
        assert_eq!(read(b"[a]\nx\n"), Err(PropError::NotAProperty { line: 2 }));
        assert!(matches!(
            read(b"[a]\nx=3|2\n"),
            Err(PropError::UnknownType { .. })
        ));
        assert!(matches!(
            read(b"[a]\nx=2|A\n"),
            Err(PropError::BadBase64 { .. })
        ));
        assert!(matches!(
            read(b"[a]\nx=2|gAAAAAAAAAA\n"),
            Err(PropError::ShortByteArray { .. })
        ));
        assert!(matches!(
            read(&[0x03, 0x02, 0x23, 0x07, 0xff]),
            Err(PropError::NotText { .. } | PropError::NoSet { .. })
        ));
    }
}
