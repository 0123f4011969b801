//! DPC++'s `.prop` text format (`PropertySetRegistry::write`, dpcpp-reference §5.7):
//! `[set name]` lines, then `name=type|value` lines; byte arrays as LLVM's base64 variant of
//! (8-byte little-endian bit count ++ payload).

use super::{PropertyRef, Sets};
use std::io::Write;

const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// LLVM's `Base64::encode` as used for property sets: the standard alphabet, bits taken
/// least-significant first, no `=` padding.
pub fn base64_encode(src: &[u8]) -> String {
    let mut out = Vec::with_capacity(src.len().div_ceil(3) * 4);
    base64_append(src, &mut out);
    // (The alphabet is ASCII.)
    String::from_utf8(out).unwrap_or_default()
}

/// [`base64_encode`] appended to `out`.
pub(crate) fn base64_append(src: &[u8], out: &mut Vec<u8>) {
    let t = |x: u32| TABLE[(x & 63) as usize];
    out.reserve(src.len().div_ceil(3) * 4);
    for chunk in src.chunks(3) {
        let b0 = chunk[0] as u32;
        match *chunk {
            [_, b1, b2] => {
                let (b1, b2) = (b1 as u32, b2 as u32);
                out.push(t(b0));
                out.push(t((b1 << 2) | (b0 >> 6)));
                out.push(t((b2 << 4) | (b1 >> 4)));
                out.push(t(b2 >> 2));
            }
            [_, b1] => {
                let b1 = b1 as u32;
                out.push(t(b0));
                out.push(t((b1 << 2) | (b0 >> 6)));
                out.push(t(b1 >> 4));
            }
            _ => {
                out.push(t(b0));
                out.push(t(b0 >> 6));
            }
        }
    }
}

/// The raw bytes of a byte-array property: bit count (u64 LE) followed by the payload.
pub fn raw_byte_array(payload: &[u8]) -> Vec<u8> {
    let mut raw = ((payload.len() as u64) * 8).to_le_bytes().to_vec();
    raw.extend_from_slice(payload);
    raw
}

/// One `name=type|value` line, built in `line` (a reused buffer) and written to `w`.
fn write_property<W: Write>(
    w: &mut W,
    line: &mut Vec<u8>,
    name: &[u8],
    value: PropertyRef<'_>,
) -> std::io::Result<()> {
    line.clear();
    line.extend_from_slice(name);
    match value {
        PropertyRef::Uint32(v) => {
            line.extend_from_slice(b"=1|");
            line.extend_from_slice(v.to_string().as_bytes());
        }
        PropertyRef::ByteArray(p) => {
            line.extend_from_slice(b"=2|");
            base64_append(&raw_byte_array(p), line);
        }
    }
    line.push(b'\n');
    w.write_all(line)
}

/// Writes the property sets as `.prop` text, one property at a time.
pub(crate) fn write_sets<W: Write>(w: &mut W, sets: &Sets<'_>) -> std::io::Result<()> {
    let mut line = Vec::new();
    for &name in sets.names() {
        writeln!(w, "[{name}]")?;
        sets.for_each(name, |n, v| write_property(w, &mut line, n, v))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_reference_examples() {
        // dpcpp-reference §5.7 / §5.8.
        assert_eq!(base64_encode(&[0; 8]), "AAAAAAAAAAA");
        let desc: Vec<u8> = [0u32, 0, 8].iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(
            base64_encode(&raw_byte_array(&desc)),
            "gBAAAAAAAAAAAAAAAAAAAgAAAAA"
        );
        let all = [0x14, 0, 0, 0, 0x63, 0, 0, 0, 1];
        assert_eq!(
            base64_encode(&raw_byte_array(&all)),
            "IBAAAAAAAAAFAAAAjBAAAEA"
        );
    }
}
