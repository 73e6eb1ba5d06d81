//! The value notation (spec/notation.md) as a small Rust tree.

use num_bigint::BigInt;
use serde_json::{Map, Value};
use std::str::FromStr;

use crate::PeerError;

/// Integer wire types that share a Rust carrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntWire {
    Fixed,
    Var,
    Tagged,
}

#[derive(Clone, Debug)]
pub enum Scalar {
    Null,
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32, IntWire),
    I64(i64, IntWire),
    U8(u8),
    U16(u16),
    U32(u32, IntWire),
    U64(u64, IntWire),
    F16(u16),
    BF16(u16),
    F32(u32),
    F64(u64),
    Str(String),
    Bin(Vec<u8>),
    Date(i64),
    Timestamp(i64, u32),
    Duration(i64, u32),
    Decimal(BigInt, i32),
}

#[derive(Clone, Debug)]
pub enum Array {
    Bool(Vec<bool>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F16(Vec<u16>),
    BF16(Vec<u16>),
    F32(Vec<u32>),
    F64(Vec<u64>),
}

#[derive(Clone, Debug)]
pub enum Node {
    Scalar(Scalar),
    Array(Array),
    List(Vec<Node>),
    Set(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

const TYPE_KEYS: &[&str] = &[
    "null",
    "none",
    "bool",
    "int8",
    "int16",
    "int32",
    "varint32",
    "int64",
    "varint64",
    "tagged_int64",
    "uint8",
    "uint16",
    "uint32",
    "var_uint32",
    "uint64",
    "var_uint64",
    "tagged_uint64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "string",
    "binary",
    "date",
    "timestamp",
    "duration",
    "decimal",
    "enum",
    "named_enum",
    "bool_array",
    "int8_array",
    "int16_array",
    "int32_array",
    "int64_array",
    "uint8_array",
    "uint16_array",
    "uint32_array",
    "uint64_array",
    "float16_array",
    "bfloat16_array",
    "float32_array",
    "float64_array",
    "list",
    "set",
    "map",
    "struct",
    "union",
    "ext",
    "ref",
];

const ANNOTATION_KEYS: &[&str] = &[
    "anchor",
    "enc",
    "header",
    "chunks",
    "approx",
    "iso",
    "tracked",
    "typedef",
    "ns_enc",
    "name_enc",
    "ns_hash",
    "name_hash",
    "ns_xref",
    "name_xref",
];

fn req<T>(msg: impl Into<String>) -> Result<T, PeerError> {
    Err(PeerError::Request(msg.into()))
}

fn unsupported<T>(msg: impl Into<String>) -> Result<T, PeerError> {
    Err(PeerError::Unsupported(msg.into()))
}

fn node_kind(obj: &Map<String, Value>) -> Result<&str, PeerError> {
    let mut kind: Option<&str> = None;
    for k in obj.keys() {
        if TYPE_KEYS.contains(&k.as_str()) {
            if let Some(prev) = kind {
                return req(format!("node has two type keys ({prev}, {k})"));
            }
            kind = Some(k.as_str());
        } else if !ANNOTATION_KEYS.contains(&k.as_str()) {
            return req(format!("unknown key {k:?} in node"));
        }
    }
    match kind {
        None => req("node has no type key"),
        Some("ref") if obj.len() != 1 => req("a ref node takes no other keys"),
        Some(k) => Ok(k),
    }
}

fn big(value: &Value, key: &str) -> Result<BigInt, PeerError> {
    match value {
        Value::String(s) => match BigInt::from_str(s) {
            Ok(n) if !s.starts_with('+') => Ok(n),
            _ => req(format!("bad {key} value {s:?}")),
        },
        _ => req(format!("{key} value must be a decimal string")),
    }
}

fn int<T: TryFrom<BigInt>>(value: &Value, key: &str) -> Result<T, PeerError> {
    let n = big(value, key)?;
    T::try_from(n.clone()).or_else(|_| req(format!("{key} value {n} out of range")))
}

fn small_int(value: &Value, key: &str) -> Result<i64, PeerError> {
    match value {
        Value::Number(n) => n
            .as_i64()
            .map_or_else(|| req(format!("{key} must be an integer")), Ok),
        Value::String(_) => int::<i64>(value, key),
        _ => req(format!("{key} must be an integer")),
    }
}

fn seconds_nanos(value: &Value, key: &str) -> Result<(i64, u32), PeerError> {
    let obj = match value {
        Value::Object(o)
            if o.len() == 2 && o.contains_key("seconds") && o.contains_key("nanos") =>
        {
            o
        }
        _ => return req(format!("{key} value must be {{seconds, nanos}}")),
    };
    let seconds = int::<i64>(&obj["seconds"], &format!("{key}.seconds"))?;
    let nanos = small_int(&obj["nanos"], &format!("{key}.nanos"))?;
    if !(0..=999_999_999).contains(&nanos) {
        return req(format!("{key} nanos must be in 0..999999999"));
    }
    Ok((seconds, nanos as u32))
}

fn text<'a>(value: &'a Value, key: &str) -> Result<&'a str, PeerError> {
    match value {
        Value::String(s) => Ok(s),
        _ => req(format!("{key} value must be a string")),
    }
}

fn items<'a>(value: &'a Value, key: &str) -> Result<&'a Vec<Value>, PeerError> {
    match value {
        Value::Array(a) => Ok(a),
        _ => req(format!("{key} value must be an array")),
    }
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

pub fn parse_hex(s: &str) -> Option<Vec<u8>> {
    unhex(s)
}

/// Parses one root document. Anchors and refs are refused: the Rust runtime
/// tracks references only through Rc/Arc owners, which the peer does not build.
pub fn parse(value: &Value) -> Result<Node, PeerError> {
    let obj = match value {
        Value::Object(o) => o,
        other => return req(format!("node must be a JSON object, got {other}")),
    };
    let kind = node_kind(obj)?;
    if kind == "ref" {
        return unsupported("shared references (anchor/ref): the Rust runtime tracks references only for Rc/Arc values, which the peer does not build");
    }
    if obj.contains_key("anchor") {
        return unsupported("anchored node: the Rust runtime tracks references only for Rc/Arc values, which the peer does not build");
    }
    let v = &obj[kind];
    let s = |x| Ok(Node::Scalar(x));
    match kind {
        "null" => {
            if !v.is_null() {
                return unsupported(format!(
                    "typed null ({v}): the Rust peer writes None::<String> for a null"
                ));
            }
            s(Scalar::Null)
        }
        "none" => unsupported("the Rust runtime writes no value as NONE (36)"),
        "bool" => match v {
            Value::Bool(b) => s(Scalar::Bool(*b)),
            _ => req("bool value must be true/false"),
        },
        "int8" => s(Scalar::I8(int(v, kind)?)),
        "int16" => s(Scalar::I16(int(v, kind)?)),
        "int32" => s(Scalar::I32(int(v, kind)?, IntWire::Fixed)),
        "varint32" => s(Scalar::I32(int(v, kind)?, IntWire::Var)),
        "int64" => s(Scalar::I64(int(v, kind)?, IntWire::Fixed)),
        "varint64" => s(Scalar::I64(int(v, kind)?, IntWire::Var)),
        "tagged_int64" => s(Scalar::I64(int(v, kind)?, IntWire::Tagged)),
        "uint8" => s(Scalar::U8(int(v, kind)?)),
        "uint16" => s(Scalar::U16(int(v, kind)?)),
        "uint32" => s(Scalar::U32(int(v, kind)?, IntWire::Fixed)),
        "var_uint32" => s(Scalar::U32(int(v, kind)?, IntWire::Var)),
        "uint64" => s(Scalar::U64(int(v, kind)?, IntWire::Fixed)),
        "var_uint64" => s(Scalar::U64(int(v, kind)?, IntWire::Var)),
        "tagged_uint64" => s(Scalar::U64(int(v, kind)?, IntWire::Tagged)),
        "float16" => s(Scalar::F16(
            crate::floats::parse(text(v, kind)?, &crate::floats::F16)? as u16,
        )),
        "bfloat16" => s(Scalar::BF16(
            crate::floats::parse(text(v, kind)?, &crate::floats::BF16)? as u16,
        )),
        "float32" => s(Scalar::F32(
            crate::floats::parse(text(v, kind)?, &crate::floats::F32)? as u32,
        )),
        "float64" => s(Scalar::F64(crate::floats::parse(
            text(v, kind)?,
            &crate::floats::F64,
        )?)),
        "string" => s(Scalar::Str(text(v, kind)?.to_string())),
        "binary" => {
            let t = text(v, kind)?;
            match unhex(t) {
                Some(b) => s(Scalar::Bin(b)),
                None => req(format!("bad binary hex {t:?}")),
            }
        }
        "date" => s(Scalar::Date(int(v, kind)?)),
        "timestamp" => {
            let (sec, n) = seconds_nanos(v, kind)?;
            s(Scalar::Timestamp(sec, n))
        }
        "duration" => {
            let (sec, n) = seconds_nanos(v, kind)?;
            s(Scalar::Duration(sec, n))
        }
        "decimal" => {
            let o = match v {
                Value::Object(o)
                    if o.len() == 2 && o.contains_key("unscaled") && o.contains_key("scale") =>
                {
                    o
                }
                _ => return req("decimal value must be {unscaled, scale}"),
            };
            let unscaled = big(&o["unscaled"], "decimal.unscaled")?;
            let scale = small_int(&o["scale"], "decimal.scale")?;
            let scale = i32::try_from(scale)
                .or_else(|_| req(format!("decimal scale {scale} is not an int32")))?;
            s(Scalar::Decimal(unscaled, scale))
        }
        "enum" | "named_enum" => unsupported(format!(
            "{kind} values need a registered Rust enum type; the peer registers none"
        )),
        "struct" | "union" | "ext" => unsupported(format!(
            "{kind} values need registered Rust types; the peer registers none"
        )),
        "list" => Ok(Node::List(
            items(v, kind)?
                .iter()
                .map(parse)
                .collect::<Result<_, _>>()?,
        )),
        "set" => Ok(Node::Set(
            items(v, kind)?
                .iter()
                .map(parse)
                .collect::<Result<_, _>>()?,
        )),
        "map" => {
            let mut out = Vec::new();
            for e in items(v, kind)? {
                match e {
                    Value::Array(p) if p.len() == 2 => out.push((parse(&p[0])?, parse(&p[1])?)),
                    _ => return req("map entry must be [key, value]"),
                }
            }
            Ok(Node::Map(out))
        }
        _ => parse_array(kind, items(v, kind)?).map(Node::Array),
    }
}

fn parse_array(kind: &str, xs: &[Value]) -> Result<Array, PeerError> {
    fn ints<T: TryFrom<BigInt>>(xs: &[Value], kind: &str) -> Result<Vec<T>, PeerError> {
        xs.iter().map(|x| int::<T>(x, kind)).collect()
    }
    fn floats(xs: &[Value], kind: &str, f: &crate::floats::Format) -> Result<Vec<u64>, PeerError> {
        xs.iter()
            .map(|x| crate::floats::parse(text(x, kind)?, f))
            .collect()
    }
    use crate::floats::{BF16, F16, F32, F64};
    Ok(match kind {
        "bool_array" => Array::Bool(
            xs.iter()
                .map(|x| {
                    x.as_bool()
                        .map_or_else(|| req("bool_array elements must be booleans"), Ok)
                })
                .collect::<Result<_, _>>()?,
        ),
        "int8_array" => Array::I8(ints(xs, kind)?),
        "int16_array" => Array::I16(ints(xs, kind)?),
        "int32_array" => Array::I32(ints(xs, kind)?),
        "int64_array" => Array::I64(ints(xs, kind)?),
        "uint8_array" => Array::U8(ints(xs, kind)?),
        "uint16_array" => Array::U16(ints(xs, kind)?),
        "uint32_array" => Array::U32(ints(xs, kind)?),
        "uint64_array" => Array::U64(ints(xs, kind)?),
        "float16_array" => Array::F16(
            floats(xs, kind, &F16)?
                .into_iter()
                .map(|b| b as u16)
                .collect(),
        ),
        "bfloat16_array" => Array::BF16(
            floats(xs, kind, &BF16)?
                .into_iter()
                .map(|b| b as u16)
                .collect(),
        ),
        "float32_array" => Array::F32(
            floats(xs, kind, &F32)?
                .into_iter()
                .map(|b| b as u32)
                .collect(),
        ),
        "float64_array" => Array::F64(floats(xs, kind, &F64)?),
        _ => return req(format!("unhandled type key {kind}")),
    })
}
