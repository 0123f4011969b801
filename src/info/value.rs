//! Scalar constant values: their bits, how they print (JSON and tables) and their bytes.

use serde::{Serialize, Serializer};

/// A scalar value with its type's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// An integer: its `bits` low bits (`signed`: the SPIR-V type's signedness, which only
    /// changes how it prints).
    Int {
        /// The bits (only the low `bits` are set).
        raw: u64,
        /// Width in bits.
        bits: u32,
        /// Whether the type is signed.
        signed: bool,
    },
    /// A float of 16, 32 or 64 bits: its bit pattern.
    Float {
        /// The bit pattern.
        raw: u64,
        /// Width in bits.
        bits: u32,
    },
}

impl Value {
    /// An integer value, its bits above `bits` cleared.
    pub(crate) fn int(raw: u64, bits: u32, signed: bool) -> Value {
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        Value::Int {
            raw: raw & mask,
            bits,
            signed,
        }
    }

    /// Size in bytes (1 for a boolean).
    pub(crate) fn size(&self) -> usize {
        match *self {
            Value::Bool(_) => 1,
            Value::Int { bits, .. } | Value::Float { bits, .. } => bits.div_ceil(8) as usize,
        }
    }

    /// The value as a float (floats only).
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Float { raw, bits: 16 } => Some(half_to_f64(raw as u16)),
            Value::Float { raw, bits: 32 } => Some(f32::from_bits(raw as u32) as f64),
            Value::Float { raw, bits: 64 } => Some(f64::from_bits(raw)),
            _ => None,
        }
    }

    /// An integer's value read as signed (two's complement of `bits`).
    pub(crate) fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int { raw, bits, .. } if bits > 0 && bits < 64 => {
                let shift = 64 - bits;
                Some(((raw << shift) as i64) >> shift)
            }
            Value::Int { raw, .. } => Some(raw as i64),
            _ => None,
        }
    }
}

impl std::fmt::Display for Value {
    /// Booleans as `true`/`false`; integers in decimal (signed types as signed; a signless one
    /// with its top bit set also shows its signed reading: `4294967291 (-5)`); floats as Rust
    /// prints them (`inf`, `NaN`), hex bits added for a NaN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int {
                raw, signed: true, ..
            } => {
                write!(f, "{}", Value::as_i64(self).unwrap_or(raw as i64))
            }
            Value::Int { raw, bits, .. } => {
                let negative = bits > 0 && bits <= 64 && (raw >> (bits - 1)) & 1 == 1;
                match (negative, self.as_i64()) {
                    (true, Some(s)) if bits > 1 => write!(f, "{raw} ({s})"),
                    _ => write!(f, "{raw}"),
                }
            }
            Value::Float { raw, bits } => {
                let v = self.as_f64().unwrap_or(f64::NAN);
                if v.is_nan() {
                    write!(f, "nan (0x{raw:0w$x})", w = (bits / 4) as usize)
                } else {
                    write!(f, "{v:?}")
                }
            }
        }
    }
}

impl Serialize for Value {
    /// Booleans as JSON booleans, integers as numbers (signed types as signed), finite floats
    /// as numbers, and `"inf"`, `"-inf"`, `"nan"` as strings.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Value::Bool(b) => s.serialize_bool(b),
            Value::Int { signed: true, .. } => s.serialize_i64(self.as_i64().unwrap_or(0)),
            Value::Int { raw, .. } => s.serialize_u64(raw),
            Value::Float { .. } => {
                let v = self.as_f64().unwrap_or(f64::NAN);
                if v.is_nan() {
                    s.serialize_str("nan")
                } else if v.is_infinite() {
                    s.serialize_str(if v > 0.0 { "inf" } else { "-inf" })
                } else {
                    s.serialize_f64(v)
                }
            }
        }
    }
}

/// The value's bytes as the runtime holds it: little-endian, its size (a boolean: one byte 0/1).
pub(crate) fn scalar_bytes(v: &Value) -> Vec<u8> {
    match *v {
        Value::Bool(b) => vec![b as u8],
        Value::Int { raw, .. } | Value::Float { raw, .. } => {
            raw.to_le_bytes()[..v.size().min(8)].to_vec()
        }
    }
}

/// An IEEE binary16 bit pattern as a double (exact).
pub(crate) fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let frac = (h & 0x3ff) as f64;
    match exp {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        e => sign * (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}
