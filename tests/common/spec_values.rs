//! Spec-constant values as the tests hand them to `spec-link specialize`: from the bytes a
//! `run.json` gives (hex, the whole constant, little-endian) and the constant's tree in
//! `info --json`.

use serde_json::{json, Value as Json};

/// The bytes of a hex string.
pub fn bytes_of(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(&hex[k..k + 2], 16).unwrap())
        .collect()
}

/// An IEEE binary16 value as a double.
pub fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (exp, frac) = (((h >> 10) & 0x1f) as i32, (h & 0x3ff) as f64);
    match exp {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        e => sign * (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Whether a tree node holds a SpecId (itself or a member).
pub fn has_spec_id(n: &Json) -> bool {
    n.get("spec_id").is_some()
        || n.get("members")
            .and_then(Json::as_array)
            .is_some_and(|m| m.iter().any(has_spec_id))
}

/// The value `bytes` (the whole constant) as specialize takes it, from the constant's tree:
/// scalars as JSON numbers or strings, composites as arrays of their members that hold SpecIds.
pub fn typed(node: &Json, bytes: &[u8]) -> Json {
    if let Some(members) = node.get("members").and_then(Json::as_array) {
        return Json::Array(
            members
                .iter()
                .filter(|m| has_spec_id(m))
                .map(|m| typed(m, bytes))
                .collect(),
        );
    }
    let at = node["offset"].as_u64().unwrap() as usize;
    let size = node["size"].as_u64().unwrap() as usize;
    let mut raw = [0u8; 8];
    raw[..size].copy_from_slice(&bytes[at..at + size]);
    let raw = u64::from_le_bytes(raw);
    match node["type"].as_str().unwrap() {
        "bool" => json!(raw != 0),
        "f16" => json!(format!("{:?}", half_to_f64(raw as u16))),
        "f32" => json!(format!("{:?}", f32::from_bits(raw as u32))),
        "f64" => json!(format!("{:?}", f64::from_bits(raw))),
        ty if ty.starts_with('i') => json!(raw),
        ty => panic!("unexpected leaf type {ty}"),
    }
}
