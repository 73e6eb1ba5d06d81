//! Bytes -> Rust values (read by the Fory Rust runtime) -> notation.
//!
//! The runtime reads a root only into a Rust type named by the caller, so the
//! peer looks at the root's type id (the byte after the header and the ref
//! flag) and, for collections, at the element / key type id in the list or
//! map header, and then calls `deserialize::<T>()` for the matching T.

use fory::__private::serializer::codec::{
    I32Codec, I64Codec, SerializerCodec, U32Codec, U64Codec, VecCodec,
};
use fory::{BFloat16, Date, Decimal, Duration, Float16, Fory, Reader, Serializer, Timestamp};
use serde_json::{json, Value};
use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};

use crate::floats::{approx, half_value, BF16, F16};
use crate::PeerError;

type OB = Option<Box<dyn Any>>;

fn unsupported<T>(msg: impl Into<String>) -> Result<T, PeerError> {
    Err(PeerError::Unsupported(msg.into()))
}

/// Reads one root of type T at `data[start..]`; returns it and its length.
fn read<S: Serializer>(
    f: &Fory,
    data: &[u8],
    start: usize,
) -> Result<(S::Target, usize), PeerError> {
    let mut reader = Reader::new(&data[start..]);
    let v = f
        .deserialize_from_with::<S>(&mut reader)
        .map_err(PeerError::Runtime)?;
    Ok((v, reader.get_cursor()))
}

fn read_t<T: Serializer<Target = T>>(
    f: &Fory,
    data: &[u8],
    start: usize,
) -> Result<(T, usize), PeerError> {
    read::<T>(f, data, start)
}

fn num(key: &str, v: impl ToString) -> Value {
    json!({ key: v.to_string() })
}

fn f32_node(v: f32) -> Value {
    json!({"float32": format!("0x{:08x}", v.to_bits()), "approx": approx(v as f64)})
}

fn f64_node(v: f64) -> Value {
    json!({"float64": format!("0x{:016x}", v.to_bits()), "approx": approx(v)})
}

fn f16_node(v: Float16) -> Value {
    let b = v.to_bits();
    json!({"float16": format!("0x{b:04x}"), "approx": approx(half_value(b, &F16))})
}

fn bf16_node(v: BFloat16) -> Value {
    let b = v.to_bits();
    json!({"bfloat16": format!("0x{b:04x}"), "approx": approx(half_value(b, &BF16))})
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn civil(days: i64) -> String {
    // Howard Hinnant's civil_from_days.
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z.rem_euclid(146097);
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}-{m:02}-{d:02}")
}

fn date_node(d: Date) -> Value {
    json!({"date": d.epoch_days().to_string(), "iso": civil(d.epoch_days())})
}

fn timestamp_node(t: Timestamp) -> Value {
    let (s, n) = (t.seconds(), t.subsec_nanos());
    let day = s.div_euclid(86400);
    let sod = s.rem_euclid(86400);
    let iso = format!(
        "{}T{:02}:{:02}:{:02}.{:09}Z",
        civil(day),
        sod / 3600,
        sod / 60 % 60,
        sod % 60,
        n
    );
    json!({"timestamp": {"seconds": s.to_string(), "nanos": n}, "iso": iso})
}

fn duration_node(d: Duration) -> Value {
    json!({"duration": {"seconds": d.seconds().to_string(), "nanos": d.subsec_nanos()}})
}

fn decimal_node(d: &Decimal) -> Value {
    json!({"decimal": {"unscaled": d.unscaled.to_string(), "scale": d.scale}})
}

/// Notation of an erased element (the Rust type names the wire type).
fn erased_node(v: &OB) -> Result<Value, PeerError> {
    let b = match v {
        None => return Ok(json!({"null": null})),
        Some(b) => b,
    };
    macro_rules! try_num {
        ($($ty:ty => $key:expr),*) => {
            $(if let Some(x) = b.downcast_ref::<$ty>() { return Ok(num($key, x)); })*
        };
    }
    try_num!(i8 => "int8", i16 => "int16", i32 => "varint32", i64 => "varint64",
             u8 => "uint8", u16 => "uint16", u32 => "var_uint32", u64 => "var_uint64");
    if let Some(x) = b.downcast_ref::<bool>() {
        return Ok(json!({"bool": x}));
    }
    if let Some(x) = b.downcast_ref::<f32>() {
        return Ok(f32_node(*x));
    }
    if let Some(x) = b.downcast_ref::<f64>() {
        return Ok(f64_node(*x));
    }
    if let Some(x) = b.downcast_ref::<Float16>() {
        return Ok(f16_node(*x));
    }
    if let Some(x) = b.downcast_ref::<BFloat16>() {
        return Ok(bf16_node(*x));
    }
    if let Some(x) = b.downcast_ref::<String>() {
        return Ok(json!({"string": x}));
    }
    if let Some(x) = b.downcast_ref::<Date>() {
        return Ok(date_node(*x));
    }
    if let Some(x) = b.downcast_ref::<Timestamp>() {
        return Ok(timestamp_node(*x));
    }
    if let Some(x) = b.downcast_ref::<Duration>() {
        return Ok(duration_node(*x));
    }
    if let Some(x) = b.downcast_ref::<Decimal>() {
        return Ok(decimal_node(x));
    }
    if let Some(r) = crate::typed::print_erased(b.as_ref()) {
        return r;
    }
    unsupported("decoded an element of a Rust type the peer cannot print")
}

fn erased_list(v: &[OB]) -> Result<Value, PeerError> {
    Ok(json!({"list": v.iter().map(erased_node).collect::<Result<Vec<_>, _>>()?}))
}

fn read_varuint(data: &[u8], pos: &mut usize) -> Option<u64> {
    let mut out = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *data.get(*pos)?;
        *pos += 1;
        out |= ((b & 0x7f) as u64) << shift;
        if b & 0x80 == 0 {
            return Some(out);
        }
    }
    None
}

/// Decodes every root of `data`.
pub fn decode_all(f: &Fory, data: &[u8], allow_unordered: bool) -> Result<Vec<Value>, PeerError> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let (node, used) =
            decode_root(f, data, pos, allow_unordered).map_err(|e| e.at(out.len(), pos))?;
        if used == 0 {
            return Err(PeerError::Request(format!(
                "the runtime made no progress at byte {pos}"
            )));
        }
        out.push(node);
        pos += used;
    }
    Ok(out)
}

/// One root at `start` (no user types): its notation and its length.
pub fn decode_one(f: &Fory, data: &[u8], start: usize, allow_unordered: bool) -> Result<(Value, usize), PeerError> {
    decode_root(f, data, start, allow_unordered)
}

fn decode_root(
    f: &Fory,
    data: &[u8],
    start: usize,
    allow_unordered: bool,
) -> Result<(Value, usize), PeerError> {
    // data[start] is the header bitmap, data[start+1] the root ref flag.
    let flag = data.get(start + 1).copied();
    let type_id = match flag {
        Some(0xff) | Some(0x00) => data.get(start + 2).copied(),
        _ => None,
    };
    let type_id = match type_id {
        // Null (0xfd), a reference, or too short: let the runtime tell.
        None => {
            let (v, n) = read_t::<Option<String>>(f, data, start)?;
            return match v {
                None => Ok((json!({"null": null}), n)),
                Some(s) => Ok((json!({"string": s}), n)),
            };
        }
        Some(t) => t,
    };
    macro_rules! scalar {
        ($ty:ty, $conv:expr) => {{
            let (v, n) = read_t::<$ty>(f, data, start)?;
            Ok(($conv(v), n))
        }};
    }
    macro_rules! codec {
        ($s:ty, $key:expr) => {{
            let (v, n) = read::<$s>(f, data, start)?;
            Ok((num($key, v), n))
        }};
    }
    match type_id {
        1 => scalar!(bool, |v: bool| json!({"bool": v})),
        2 => scalar!(i8, |v: i8| num("int8", v)),
        3 => scalar!(i16, |v: i16| num("int16", v)),
        4 => codec!(I32Codec<4, false, false>, "int32"),
        5 => scalar!(i32, |v: i32| num("varint32", v)),
        6 => codec!(I64Codec<6, false, false>, "int64"),
        7 => scalar!(i64, |v: i64| num("varint64", v)),
        8 => codec!(I64Codec<8, false, false>, "tagged_int64"),
        9 => scalar!(u8, |v: u8| num("uint8", v)),
        10 => scalar!(u16, |v: u16| num("uint16", v)),
        11 => codec!(U32Codec<11, false, false>, "uint32"),
        12 => scalar!(u32, |v: u32| num("var_uint32", v)),
        13 => codec!(U64Codec<13, false, false>, "uint64"),
        14 => scalar!(u64, |v: u64| num("var_uint64", v)),
        15 => codec!(U64Codec<15, false, false>, "tagged_uint64"),
        17 => scalar!(Float16, f16_node),
        18 => scalar!(BFloat16, bf16_node),
        19 => scalar!(f32, f32_node),
        20 => scalar!(f64, f64_node),
        21 => scalar!(String, |v: String| json!({"string": v})),
        37 => scalar!(Duration, duration_node),
        38 => scalar!(Timestamp, timestamp_node),
        39 => scalar!(Date, date_node),
        40 => scalar!(Decimal, |v: Decimal| decimal_node(&v)),
        41 => scalar!(Vec<u8>, |v: Vec<u8>| json!({"binary": hex(&v)})),
        43 => scalar!(Vec<bool>, |v: Vec<bool>| json!({"bool_array": v})),
        44 => scalar!(Vec<i8>, |v: Vec<i8>| json!({"int8_array": strs(&v)})),
        45 => scalar!(Vec<i16>, |v: Vec<i16>| json!({"int16_array": strs(&v)})),
        46 => scalar!(Vec<i32>, |v: Vec<i32>| json!({"int32_array": strs(&v)})),
        47 => scalar!(Vec<i64>, |v: Vec<i64>| json!({"int64_array": strs(&v)})),
        48 => {
            let (v, n) = read::<VecCodec<u8, SerializerCodec<u8, false, false>, false, true, false, false>>(f, data, start)?;
            Ok((json!({"uint8_array": strs(&v)}), n))
        }
        49 => scalar!(Vec<u16>, |v: Vec<u16>| json!({"uint16_array": strs(&v)})),
        50 => scalar!(Vec<u32>, |v: Vec<u32>| json!({"uint32_array": strs(&v)})),
        51 => scalar!(Vec<u64>, |v: Vec<u64>| json!({"uint64_array": strs(&v)})),
        53 => scalar!(Vec<Float16>, |v: Vec<Float16>| json!({
            "float16_array": v.iter().map(|x| format!("0x{:04x}", x.to_bits())).collect::<Vec<_>>()})),
        54 => scalar!(Vec<BFloat16>, |v: Vec<BFloat16>| json!({
            "bfloat16_array": v.iter().map(|x| format!("0x{:04x}", x.to_bits())).collect::<Vec<_>>()})),
        55 => scalar!(Vec<f32>, |v: Vec<f32>| json!({
            "float32_array": v.iter().map(|x| format!("0x{:08x}", x.to_bits())).collect::<Vec<_>>()})),
        56 => scalar!(Vec<f64>, |v: Vec<f64>| json!({
            "float64_array": v.iter().map(|x| format!("0x{:016x}", x.to_bits())).collect::<Vec<_>>()})),
        22 => decode_list(f, data, start),
        23 => decode_set(f, data, start, allow_unordered),
        24 => decode_map(f, data, start, allow_unordered),
        25..=36 => unsupported(format!(
            "type id {type_id}: enums, structs, ext, unions and NONE need registered Rust types; the peer registers none"
        )),
        _ => {
            // Let the runtime report what it makes of an unknown id.
            read_t::<Option<String>>(f, data, start)?;
            unsupported(format!("type id {type_id} has no Rust carrier in the peer"))
        }
    }
}

fn strs<T: ToString>(v: &[T]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// Element type id announced by a list/set header at `pos` (after the type
/// id): Some(id) when the header says all elements share one type, None when
/// elements carry their own types, Err for an empty collection.
fn collection_elem_type(data: &[u8], mut pos: usize) -> Option<Option<u32>> {
    let len = read_varuint(data, &mut pos)?;
    if len == 0 {
        return Some(None);
    }
    let header = *data.get(pos)?;
    pos += 1;
    if header & 0x08 != 0 && header & 0x04 == 0 {
        return read_varuint(data, &mut pos).map(|t| Some(t as u32));
    }
    Some(None)
}

fn decode_list(f: &Fory, data: &[u8], start: usize) -> Result<(Value, usize), PeerError> {
    let elem = collection_elem_type(data, start + 3).flatten();
    match elem {
        Some(22) => {
            let (v, n) = read_t::<Vec<Vec<OB>>>(f, data, start)?;
            let lists = v.iter().map(|l| erased_list(l)).collect::<Result<Vec<_>, _>>()?;
            Ok((json!({ "list": lists }), n))
        }
        Some(41) => {
            let (v, n) = read_t::<Vec<Option<Vec<u8>>>>(f, data, start)?;
            let items: Vec<Value> = v
                .iter()
                .map(|b| match b {
                    Some(b) => json!({"binary": hex(b)}),
                    None => json!({"null": null}),
                })
                .collect();
            Ok((json!({ "list": items }), n))
        }
        Some(t) if t == 23 || t == 24 || (42..=56).contains(&t) => unsupported(format!(
            "a list of type-{t} elements: the peer maps only lists of scalars, binaries and lists of scalars to Rust types"
        )),
        _ => {
            let (v, n) = read_t::<Vec<OB>>(f, data, start)?;
            Ok((erased_list(&v)?, n))
        }
    }
}

/// Reads a root with a BTreeSet/BTreeMap of key type chosen by `key_id`.
macro_rules! by_key_type {
    ($key_id:expr, $body:ident) => {
        match $key_id {
            1 => $body!(bool, |k: &bool| json!({"bool": k})),
            2 => $body!(i8, |k: &i8| num("int8", k)),
            3 => $body!(i16, |k: &i16| num("int16", k)),
            5 => $body!(i32, |k: &i32| num("varint32", k)),
            7 => $body!(i64, |k: &i64| num("varint64", k)),
            9 => $body!(u8, |k: &u8| num("uint8", k)),
            10 => $body!(u16, |k: &u16| num("uint16", k)),
            12 => $body!(u32, |k: &u32| num("var_uint32", k)),
            14 => $body!(u64, |k: &u64| num("var_uint64", k)),
            21 => $body!(String, |k: &String| json!({"string": k})),
            37 => $body!(Duration, |k: &Duration| duration_node(*k)),
            38 => $body!(Timestamp, |k: &Timestamp| timestamp_node(*k)),
            39 => $body!(Date, |k: &Date| date_node(*k)),
            other => unsupported(format!(
                "key/element type id {other}: the peer has no ordered Rust key type for it"
            )),
        }
    };
}

fn decode_set(
    f: &Fory,
    data: &[u8],
    start: usize,
    allow_unordered: bool,
) -> Result<(Value, usize), PeerError> {
    let elem = match collection_elem_type(data, start + 3) {
        Some(Some(t)) => t,
        Some(None) => {
            let mut p = start + 3;
            if read_varuint(data, &mut p) == Some(0) {
                let (_, n) = read_t::<BTreeSet<String>>(f, data, start)?;
                return Ok((json!({"set": []}), n));
            }
            return unsupported("a set whose elements carry their own types (mixed or nullable): the peer reads sets only into BTreeSet<K>");
        }
        None => 21,
    };
    macro_rules! body {
        ($ty:ty, $print:expr) => {{
            let (v, n) = read_t::<BTreeSet<$ty>>(f, data, start)?;
            if v.len() > 1 && !allow_unordered {
                return unsupported(format!(
                    "decoded a set of {} elements into a BTreeSet, which does not keep the wire order",
                    v.len()
                ));
            }
            let print = $print;
            Ok((json!({"set": v.iter().map(|k| print(k)).collect::<Vec<_>>()}), n))
        }};
    }
    by_key_type!(elem, body)
}

fn decode_map(
    f: &Fory,
    data: &[u8],
    start: usize,
    allow_unordered: bool,
) -> Result<(Value, usize), PeerError> {
    let mut pos = start + 3;
    let size = read_varuint(data, &mut pos).unwrap_or(0);
    if size == 0 {
        let (_, n) = read_t::<BTreeMap<String, OB>>(f, data, start)?;
        return Ok((json!({"map": []}), n));
    }
    let header = data.get(pos).copied().unwrap_or(0);
    pos += 1;
    if header & 0x02 != 0 {
        return unsupported("a map with a null key: the peer reads maps only into BTreeMap<K, V>");
    }
    if header & 0x04 != 0 {
        return unsupported("a map chunk with a declared key type");
    }
    if header & 0x10 == 0 {
        pos += 1; // chunk size
    } else if data.get(pos) == Some(&0xff) {
        pos += 1; // the key's own ref flag in a null-value chunk (pyfory's form)
    }
    let key_id = read_varuint(data, &mut pos).unwrap_or(0);
    let value_id = if header & 0x10 == 0 && header & 0x20 == 0 {
        read_varuint(data, &mut pos).map(|v| v as u32)
    } else {
        None
    };
    let check = |len: usize| -> Result<(), PeerError> {
        if len > 1 && !allow_unordered {
            return unsupported(format!(
                "decoded a map of {len} entries into a BTreeMap, which does not keep the wire order"
            ));
        }
        Ok(())
    };
    macro_rules! body {
        ($ty:ty, $print:expr) => {{
            let print = $print;
            match value_id {
                Some(22) => {
                    let (v, n) = read_t::<BTreeMap<$ty, Vec<OB>>>(f, data, start)?;
                    check(v.len())?;
                    let entries = v
                        .iter()
                        .map(|(k, l)| Ok(json!([print(k), erased_list(l)?])))
                        .collect::<Result<Vec<_>, PeerError>>()?;
                    Ok((json!({ "map": entries }), n))
                }
                Some(41) => {
                    let (v, n) = read_t::<BTreeMap<$ty, Vec<u8>>>(f, data, start)?;
                    check(v.len())?;
                    let entries: Vec<Value> =
                        v.iter().map(|(k, b)| json!([print(k), {"binary": hex(b)}])).collect();
                    Ok((json!({ "map": entries }), n))
                }
                _ => {
                    let (v, n) = read_t::<BTreeMap<$ty, OB>>(f, data, start)?;
                    check(v.len())?;
                    let entries = v
                        .iter()
                        .map(|(k, x)| Ok(json!([print(k), erased_node(x)?])))
                        .collect::<Result<Vec<_>, PeerError>>()?;
                    Ok((json!({ "map": entries }), n))
                }
            }
        }};
    }
    by_key_type!(key_id, body)
}
