//! DPC++'s `.prop` text format (`PropertySetRegistry::write`, dpcpp-reference §5.7):
//! `[set name]` lines, then `name=type|value` lines; byte arrays as LLVM's base64 variant of
//! (8-byte little-endian bit count ++ payload).

use super::{PropertySet, PropertyValue};

const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// LLVM's `Base64::encode` as used for property sets: the standard alphabet, bits taken
/// least-significant first, no `=` padding.
pub fn base64_encode(src: &[u8]) -> String {
    let t = |x: u32| TABLE[(x & 63) as usize] as char;
    let mut out = String::with_capacity(src.len().div_ceil(3) * 4);
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
    out
}

/// The raw bytes of a byte-array property: bit count (u64 LE) followed by the payload.
pub fn raw_byte_array(payload: &[u8]) -> Vec<u8> {
    let mut raw = ((payload.len() as u64) * 8).to_le_bytes().to_vec();
    raw.extend_from_slice(payload);
    raw
}

/// Serialises property sets as `.prop` text.
pub fn write(sets: &[PropertySet]) -> Vec<u8> {
    let mut out = Vec::new();
    for set in sets {
        out.extend_from_slice(format!("[{}]\n", set.name).as_bytes());
        for (name, value) in &set.properties {
            out.extend_from_slice(name);
            match value {
                PropertyValue::Uint32(v) => out.extend_from_slice(format!("=1|{v}\n").as_bytes()),
                PropertyValue::ByteArray(p) => out.extend_from_slice(
                    format!("=2|{}\n", base64_encode(&raw_byte_array(p))).as_bytes(),
                ),
            }
        }
    }
    out
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
