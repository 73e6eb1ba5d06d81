//! Notation floats (spec/notation.md N-1.2): bit patterns and decimal strings.

use crate::PeerError;

pub struct Format {
    pub name: &'static str,
    pub ebits: u32,
    pub mbits: u32,
}

pub const F16: Format = Format {
    name: "float16",
    ebits: 5,
    mbits: 10,
};
pub const BF16: Format = Format {
    name: "bfloat16",
    ebits: 8,
    mbits: 7,
};
pub const F32: Format = Format {
    name: "float32",
    ebits: 8,
    mbits: 23,
};
pub const F64: Format = Format {
    name: "float64",
    ebits: 11,
    mbits: 52,
};

impl Format {
    fn width(&self) -> u32 {
        1 + self.ebits + self.mbits
    }
    fn sign(&self) -> u64 {
        1u64 << (self.ebits + self.mbits)
    }
    fn exp_ones(&self) -> u64 {
        (1u64 << self.ebits) - 1
    }
}

fn bad<T>(f: &Format, text: &str) -> Result<T, PeerError> {
    Err(PeerError::Request(format!("bad {} value {text:?}", f.name)))
}

/// Bit pattern of the format for a notation float string: "0x..." is exact;
/// otherwise a decimal number, "nan", "inf" or "-inf", read as the nearest
/// float64 and rounded to the format (round half to even).
pub fn parse(text: &str, f: &Format) -> Result<u64, PeerError> {
    let s = text.trim().to_ascii_lowercase();
    if let Some(h) = s.strip_prefix("0x") {
        return match u64::from_str_radix(h, 16) {
            Ok(bits) if f.width() == 64 || bits >> f.width() == 0 => Ok(bits),
            _ => bad(f, text),
        };
    }
    let negative = s.starts_with('-');
    let body = s.strip_prefix(['-', '+']).unwrap_or(&s);
    let sign = if negative { f.sign() } else { 0 };
    match body {
        "nan" => return Ok(sign | f.exp_ones() << f.mbits | 1 << (f.mbits - 1)),
        "inf" | "infinity" => return Ok(sign | f.exp_ones() << f.mbits),
        _ => {}
    }
    if body.is_empty()
        || !body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '+' | '-'))
    {
        return bad(f, text);
    }
    let v: f64 = match body.parse::<f64>() {
        Ok(v) => v,
        Err(_) => return bad(f, text),
    };
    Ok(round(if negative { -v } else { v }, f))
}

/// Rounds a float64 to the format (round half to even); returns its bits.
pub fn round(v: f64, f: &Format) -> u64 {
    if f.width() == 64 {
        return v.to_bits();
    }
    if f.width() == 32 {
        return (v as f32).to_bits() as u64; // `as` rounds to nearest even
    }
    let sign = if v.is_sign_negative() { f.sign() } else { 0 };
    let v = v.abs();
    if v.is_nan() {
        return sign | f.exp_ones() << f.mbits | 1 << (f.mbits - 1);
    }
    if v.is_infinite() {
        return sign | f.exp_ones() << f.mbits;
    }
    if v == 0.0 {
        return sign;
    }
    let bias = (1i32 << (f.ebits - 1)) - 1;
    let emin = 1 - bias;
    let mbits = f.mbits as i32;
    // Exponent of the leading bit: v = 1.xxx * 2^e (v is normal in float64
    // whenever it matters here; subnormal float64 values round to zero).
    let e = ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    if e < emin {
        let n = round_even(v * pow2(mbits - emin));
        return sign | n; // n == 1 << mbits is the smallest normal
    }
    let mut e = e;
    let mut n = round_even(v * pow2(mbits - e));
    if n == 1u64 << (f.mbits + 1) {
        n >>= 1;
        e += 1;
    }
    if e > bias {
        return sign | f.exp_ones() << f.mbits;
    }
    sign | ((e + bias) as u64) << f.mbits | (n - (1u64 << f.mbits))
}

fn pow2(k: i32) -> f64 {
    2f64.powi(k)
}

fn round_even(x: f64) -> u64 {
    let fl = x.floor();
    let diff = x - fl;
    let n = fl as u64;
    if diff > 0.5 || (diff == 0.5 && !n.is_multiple_of(2)) {
        n + 1
    } else {
        n
    }
}

/// Readable decimal for the "approx" annotation.
pub fn approx(v: f64) -> String {
    if v.is_nan() {
        "nan".into()
    } else if v.is_infinite() {
        if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{v}")
    }
}

/// The value of a float16 / bfloat16 bit pattern, for "approx".
pub fn half_value(bits: u16, f: &Format) -> f64 {
    let sign = if bits >> 15 != 0 { -1.0 } else { 1.0 };
    let e = ((bits as u64 >> f.mbits) & f.exp_ones()) as i32;
    let m = (bits as u64 & ((1 << f.mbits) - 1)) as f64;
    let bias = (1i32 << (f.ebits - 1)) - 1;
    if e as u64 == f.exp_ones() {
        return if m == 0.0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        };
    }
    if e == 0 {
        return sign * m * pow2(1 - bias - f.mbits as i32);
    }
    sign * (1.0 + m / pow2(f.mbits as i32)) * pow2(e - bias)
}
