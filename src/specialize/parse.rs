//! Values given for spec constants, parsed by the constant's type.
//!
//! Scalars: integers in decimal or hex (`0x…`), negative ones as two's complement of the type's
//! width, which must hold them (as signed or as unsigned); floats in decimal (`1` is 1.0), hex
//! float (`0x1.8p1`), `inf`, `-inf`, `nan`, rounded to the type (half: to nearest even); booleans
//! `true`/`false`/`1`/`0` (an 8-bit integer, DPC++'s form of a C++ `bool`, takes them too).
//! Composites: a JSON array, one entry per member in member order (padding members, which hold
//! no SpecId, are not given).

use crate::info::value::Value;

/// A value as given: the text of `--set NAME=VALUE`, or a JSON value of `--set-file`.
#[derive(Clone, Debug, PartialEq)]
pub enum Given {
    /// The text of `--set NAME=VALUE`.
    Text(String),
    /// A JSON value from `--set-file`.
    Json(serde_json::Value),
}

impl Given {
    /// The members of a composite value (`Ok(None)`: not an array); an error for text that
    /// starts as an array but is not valid JSON.
    pub(crate) fn members(&self) -> Result<Option<Vec<Given>>, String> {
        let json = match self {
            Given::Json(j) => j.clone(),
            Given::Text(t) if t.trim_start().starts_with('[') => {
                serde_json::from_str(t).map_err(|e| format!("'{t}' is not a JSON array: {e}"))?
            }
            Given::Text(_) => return Ok(None),
        };
        Ok(match json {
            serde_json::Value::Array(items) => Some(items.into_iter().map(Given::Json).collect()),
            _ => None,
        })
    }

    /// The value as scalar text; else what was given instead (an array, an object, null).
    pub(crate) fn scalar_text(&self) -> Result<String, &'static str> {
        match self {
            Given::Text(t) => Ok(t.trim().to_string()),
            Given::Json(serde_json::Value::String(s)) => Ok(s.trim().to_string()),
            Given::Json(serde_json::Value::Bool(b)) => Ok(b.to_string()),
            Given::Json(serde_json::Value::Number(n)) => Ok(n.to_string()),
            Given::Json(serde_json::Value::Array(_)) => Err("an array"),
            Given::Json(serde_json::Value::Object(_)) => Err("an object"),
            Given::Json(serde_json::Value::Null) => Err("null"),
        }
    }
}

/// Parses scalar text as a value of the shape of `like` (a value of the constant's type).
pub(crate) fn parse_scalar(text: &str, like: &Value) -> Result<Value, String> {
    match *like {
        Value::Bool(_) => match text {
            "true" | "1" => Ok(Value::Bool(true)),
            "false" | "0" => Ok(Value::Bool(false)),
            _ => Err(format!("'{text}' is not a bool (true, false, 1 or 0)")),
        },
        Value::Int { bits, signed, .. } => {
            let as_bool = match text {
                "true" if bits == 8 => Some(1),
                "false" if bits == 8 => Some(0),
                _ => None,
            };
            let v = match as_bool {
                Some(b) => b,
                None => parse_int(text, bits)?,
            };
            Ok(Value::int(v, bits, signed))
        }
        Value::Float { bits, .. } => {
            let v = parse_float(text)?;
            let raw = match bits {
                16 => f64_to_half(v) as u64,
                32 => (v as f32).to_bits() as u64,
                _ => v.to_bits(),
            };
            if v.is_finite() && bits == 32 && (v as f32).is_infinite() {
                return Err(format!("{text} is out of range for f32"));
            }
            if v.is_finite() && bits == 16 && raw & 0x7c00 == 0x7c00 {
                return Err(format!("{text} is out of range for f16"));
            }
            Ok(Value::Float { raw, bits })
        }
    }
}

/// An integer of `bits` bits: its two's-complement bits.
fn parse_int(text: &str, bits: u32) -> Result<u64, String> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => u128::from_str_radix(&hex.replace('_', ""), 16),
        None => digits.replace('_', "").parse::<u128>(),
    }
    .map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow => {
            format!("{text} is out of range for a {bits}-bit integer")
        }
        _ => format!("'{text}' is not an integer (decimal or 0x hex)"),
    })?;
    let range = || {
        format!(
            "{text} is out of range for a {bits}-bit integer ({} to {})",
            -(1i128 << (bits - 1)),
            (1u128 << bits) - 1
        )
    };
    if bits == 0 || bits > 64 {
        return Err(format!("{bits}-bit integers are not supported"));
    }
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    if negative {
        if magnitude > 1u128 << (bits - 1) {
            return Err(range());
        }
        Ok((magnitude as u64).wrapping_neg() & mask)
    } else {
        if magnitude > mask as u128 {
            return Err(range());
        }
        Ok(magnitude as u64)
    }
}

/// A float in decimal, hex float, `inf` or `nan`.
fn parse_float(text: &str) -> Result<f64, String> {
    let bad = || format!("'{text}' is not a number (decimal, hex float 0x1.8p1, inf or nan)");
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let lower = body.to_ascii_lowercase();
    let v = if lower == "inf" || lower == "infinity" {
        f64::INFINITY
    } else if lower == "nan" {
        f64::NAN
    } else if let Some(hex) = lower.strip_prefix("0x") {
        parse_hex_float(hex).ok_or_else(bad)?
    } else {
        // (Rust's parser also takes "inf"/"nan" spellings, handled above.)
        if !lower
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '-' | '+'))
        {
            return Err(bad());
        }
        lower.parse::<f64>().map_err(|_| bad())?
    };
    // (A literal past the largest double reads as infinity: out of range for every type.)
    if v.is_infinite() && lower != "inf" && lower != "infinity" {
        return Err(format!("{text} is out of range for f64"));
    }
    Ok(if negative { -v } else { v })
}

/// `h.hhhp±d` (after `0x`), exactly when the mantissa has at most 53 significant bits.
fn parse_hex_float(hex: &str) -> Option<f64> {
    let (mantissa, exponent) = match hex.split_once('p') {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (hex, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in int.chars() {
        value = value * 16.0 + c.to_digit(16)? as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in frac.chars() {
        value += c.to_digit(16)? as f64 * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exponent))
}

/// A double rounded to IEEE binary16 (to nearest, ties to even).
pub(crate) fn f64_to_half(v: f64) -> u16 {
    let sign = if v.is_sign_negative() { 0x8000u16 } else { 0 };
    if v.is_nan() {
        return sign | 0x7e00;
    }
    let a = v.abs();
    if a.is_infinite() || a >= 65520.0 {
        return sign | 0x7c00;
    }
    // Subnormals and normals: scale to units of the last place and round to even.
    let exp = if a < 2f64.powi(-14) {
        -14
    } else {
        a.log2().floor() as i32
    };
    let ulp = 2f64.powi(exp - 10);
    let units = (a / ulp).round_ties_even();
    let (units, exp) = if units >= 2048.0 {
        (units / 2.0, exp + 1)
    } else {
        (units, exp)
    };
    if a < 2f64.powi(-14) || units < 1024.0 {
        // Subnormal (or rounded from one): exponent field 0.
        return sign | units as u16;
    }
    let field = (exp + 15) as u16;
    if field >= 31 {
        return sign | 0x7c00;
    }
    sign | (field << 10) | ((units as u16) & 0x3ff)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(bits: u32, signed: bool) -> Value {
        Value::int(0, bits, signed)
    }

    #[test]
    fn half_rounding() {
        for (v, h) in [
            (1.0, 0x3c00u16),
            (-2.0, 0xc000),
            (65504.0, 0x7bff),
            (65520.0, 0x7c00),
            (2f64.powi(-24), 0x0001),
            (2f64.powi(-25), 0x0000),
            (2f64.powi(-14), 0x0400),
            (0.1, 0x2e66),
            (f64::INFINITY, 0x7c00),
        ] {
            assert_eq!(f64_to_half(v), h, "{v}");
            if h & 0x7c00 != 0x7c00 {
                // (Exactly representable values come back.)
                let back = crate::info::value::half_to_f64(h);
                assert!((back - v).abs() <= v.abs() * 1e-3 + 1e-7, "{v} {back}");
            }
        }
    }

    #[test]
    fn integers_by_width() {
        assert_eq!(
            parse_scalar("-1", &int(8, false)),
            Ok(Value::int(0xff, 8, false))
        );
        assert_eq!(
            parse_scalar("255", &int(8, true)),
            Ok(Value::int(0xff, 8, true))
        );
        assert!(parse_scalar("256", &int(8, false)).is_err());
        assert!(parse_scalar("-129", &int(8, false)).is_err());
        assert_eq!(
            parse_scalar("0x7fff", &int(16, false)),
            Ok(Value::int(0x7fff, 16, false))
        );
        assert_eq!(
            parse_scalar("-9223372036854775808", &int(64, true)),
            Ok(Value::int(1 << 63, 64, true))
        );
        assert!(parse_scalar("1.0", &int(32, false)).is_err());
        assert_eq!(
            parse_scalar("true", &int(8, false)),
            Ok(Value::int(1, 8, false))
        );
        assert!(parse_scalar("true", &int(32, false)).is_err());
    }

    #[test]
    fn floats_and_bools() {
        let f32_ = Value::Float { raw: 0, bits: 32 };
        let f64_ = Value::Float { raw: 0, bits: 64 };
        let get =
            |t: &str, like: &Value| parse_scalar(t, like).map(|v| v.as_f64().unwrap_or(f64::NAN));
        assert_eq!(get("1", &f32_), Ok(1.0));
        assert_eq!(get("0x1.8p1", &f64_), Ok(3.0));
        assert_eq!(get("-0x10", &f64_), Ok(-16.0));
        assert_eq!(get("-inf", &f32_), Ok(f64::NEG_INFINITY));
        // A NaN keeps its sign in every width.
        assert_eq!(f64_to_half(-f64::NAN), 0xfe00);
        assert_eq!(f64_to_half(f64::NAN), 0x7e00);
        assert!(get("nan", &f64_).is_ok_and(f64::is_nan));
        assert!(get("1e39", &f32_).is_err());
        assert!(get("one", &f32_).is_err());
        assert_eq!(
            parse_scalar("0", &Value::Bool(true)),
            Ok(Value::Bool(false))
        );
        assert!(parse_scalar("yes", &Value::Bool(true)).is_err());
    }
}
