//! Notation -> Rust values -> bytes written by the Fory Rust runtime.
//!
//! Rust is statically typed, so every root is serialized with a concrete Rust
//! type chosen from its notation node:
//!
//! * scalars: their Rust type (`i64`, `String`, `Date`, ...); the fixed and
//!   tagged integer encodings through the runtime's own field codecs
//!   (`I32Codec<4,..>` & co., the serializers `#[derive(ForyStruct)]` uses for
//!   fields declared with those encodings);
//! * dense arrays: `Vec<bool>`, `Vec<i8>`, ... (`uint8_array` through the
//!   runtime's dense `VecCodec`, since `Vec<u8>` is binary);
//! * lists of scalars: `Vec<Option<Box<dyn Any>>>` (the runtime computes the
//!   element header from the dynamic element types); lists of binaries:
//!   `Vec<Vec<u8>>` / `Vec<Option<Vec<u8>>>`; lists of such lists: `Vec<Vec<..>>`;
//! * maps: `BTreeMap<K, Option<Box<dyn Any>>>` (or `BTreeMap<K, Vec<..>>`) for a
//!   key type K shared by all keys; sets: `BTreeSet<K>`. A BTreeMap/BTreeSet
//!   writes its entries in key order, so the notation order must be that order.

use fory::__private::serializer::codec::{
    I32Codec, I64Codec, SerializerCodec, U32Codec, U64Codec, VecCodec,
};
use fory::{BFloat16, Date, Decimal, Duration, Float16, Fory, Serializer, Timestamp};
use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};

use crate::notation::{Array, IntWire, Node, Scalar};
use crate::PeerError;

type OB = Option<Box<dyn Any>>;

fn unsupported<T>(msg: impl Into<String>) -> Result<T, PeerError> {
    Err(PeerError::Unsupported(msg.into()))
}

fn run<T: Serializer<Target = T>>(f: &Fory, v: &T) -> Result<Vec<u8>, PeerError> {
    f.serialize(v).map_err(PeerError::Runtime)
}

fn run_with<S: Serializer>(f: &Fory, v: &S::Target) -> Result<Vec<u8>, PeerError> {
    f.serialize_with::<S>(v).map_err(PeerError::Runtime)
}

fn timestamp(s: i64, n: u32) -> Result<Timestamp, PeerError> {
    Timestamp::new(s, n).map_err(PeerError::Runtime)
}

fn duration(s: i64, n: u32) -> Result<Duration, PeerError> {
    Duration::from_normalized(s, n).map_err(PeerError::Runtime)
}

pub fn encode_root(f: &Fory, node: &Node) -> Result<Vec<u8>, PeerError> {
    match node {
        Node::Scalar(s) => encode_scalar(f, s),
        Node::Array(a) => encode_array(f, a),
        Node::List(items) => encode_list(f, items),
        Node::Set(items) => encode_set(f, items),
        Node::Map(entries) => encode_map(f, entries),
    }
}

fn encode_scalar(f: &Fory, s: &Scalar) -> Result<Vec<u8>, PeerError> {
    use IntWire::*;
    match s {
        Scalar::Null => run(f, &None::<String>),
        Scalar::Bool(v) => run(f, v),
        Scalar::I8(v) => run(f, v),
        Scalar::I16(v) => run(f, v),
        Scalar::I32(v, Var) => run(f, v),
        Scalar::I32(v, _) => run_with::<I32Codec<4, false, false>>(f, v),
        Scalar::I64(v, Var) => run(f, v),
        Scalar::I64(v, Fixed) => run_with::<I64Codec<6, false, false>>(f, v),
        Scalar::I64(v, Tagged) => run_with::<I64Codec<8, false, false>>(f, v),
        Scalar::U8(v) => run(f, v),
        Scalar::U16(v) => run(f, v),
        Scalar::U32(v, Var) => run(f, v),
        Scalar::U32(v, _) => run_with::<U32Codec<11, false, false>>(f, v),
        Scalar::U64(v, Var) => run(f, v),
        Scalar::U64(v, Fixed) => run_with::<U64Codec<13, false, false>>(f, v),
        Scalar::U64(v, Tagged) => run_with::<U64Codec<15, false, false>>(f, v),
        Scalar::F16(b) => run(f, &Float16::from_bits(*b)),
        Scalar::BF16(b) => run(f, &BFloat16::from_bits(*b)),
        Scalar::F32(b) => run(f, &f32::from_bits(*b)),
        Scalar::F64(b) => run(f, &f64::from_bits(*b)),
        Scalar::Str(v) => run(f, v),
        Scalar::Bin(v) => run(f, v),
        Scalar::Date(d) => run(f, &Date::from_epoch_days(*d)),
        Scalar::Timestamp(sec, n) => run(f, &timestamp(*sec, *n)?),
        Scalar::Duration(sec, n) => run(f, &duration(*sec, *n)?),
        Scalar::Decimal(u, sc) => run(f, &Decimal::new(u.clone(), *sc)),
    }
}

fn encode_array(f: &Fory, a: &Array) -> Result<Vec<u8>, PeerError> {
    match a {
        Array::Bool(v) => run(f, v),
        Array::I8(v) => run(f, v),
        Array::I16(v) => run(f, v),
        Array::I32(v) => run(f, v),
        Array::I64(v) => run(f, v),
        Array::U8(v) => run_with::<
            VecCodec<u8, SerializerCodec<u8, false, false>, false, true, false, false>,
        >(f, v),
        Array::U16(v) => run(f, v),
        Array::U32(v) => run(f, v),
        Array::U64(v) => run(f, v),
        Array::F16(v) => run(
            f,
            &v.iter().map(|b| Float16::from_bits(*b)).collect::<Vec<_>>(),
        ),
        Array::BF16(v) => run(
            f,
            &v.iter()
                .map(|b| BFloat16::from_bits(*b))
                .collect::<Vec<_>>(),
        ),
        Array::F32(v) => run(f, &v.iter().map(|b| f32::from_bits(*b)).collect::<Vec<_>>()),
        Array::F64(v) => run(f, &v.iter().map(|b| f64::from_bits(*b)).collect::<Vec<_>>()),
    }
}

/// A scalar as an erased element (None for null). Binary and the pinned
/// integer encodings cannot be erased elements.
fn erased(s: &Scalar) -> Result<OB, PeerError> {
    use IntWire::*;
    Ok(Some(match s {
        Scalar::Null => return Ok(None),
        Scalar::Bool(v) => Box::new(*v),
        Scalar::I8(v) => Box::new(*v),
        Scalar::I16(v) => Box::new(*v),
        Scalar::I32(v, Var) => Box::new(*v),
        Scalar::I64(v, Var) => Box::new(*v),
        Scalar::U8(v) => Box::new(*v),
        Scalar::U16(v) => Box::new(*v),
        Scalar::U32(v, Var) => Box::new(*v),
        Scalar::U64(v, Var) => Box::new(*v),
        Scalar::I32(..) | Scalar::I64(..) | Scalar::U32(..) | Scalar::U64(..) => {
            return unsupported("fixed/tagged integers inside a collection: the Rust runtime selects those encodings only for declared struct fields")
        }
        Scalar::F16(b) => Box::new(Float16::from_bits(*b)),
        Scalar::BF16(b) => Box::new(BFloat16::from_bits(*b)),
        Scalar::F32(b) => Box::new(f32::from_bits(*b)),
        Scalar::F64(b) => Box::new(f64::from_bits(*b)),
        Scalar::Str(v) => Box::new(v.clone()),
        Scalar::Bin(_) => return unsupported("binary mixed with other element types: the Rust runtime cannot erase Vec<u8> to dyn Any"),
        Scalar::Date(d) => Box::new(Date::from_epoch_days(*d)),
        Scalar::Timestamp(sec, n) => Box::new(timestamp(*sec, *n)?),
        Scalar::Duration(sec, n) => Box::new(duration(*sec, *n)?),
        Scalar::Decimal(u, sc) => Box::new(Decimal::new(u.clone(), *sc)),
    }))
}

/// The Rust carrier chosen for a list.
enum ListValue {
    Erased(Vec<OB>),
    Binary(Vec<Vec<u8>>),
    NullableBinary(Vec<Option<Vec<u8>>>),
    Nested(Vec<ListValue>),
}

fn list_value(items: &[Node]) -> Result<ListValue, PeerError> {
    let scalars: Option<Vec<&Scalar>> = items
        .iter()
        .map(|n| match n {
            Node::Scalar(s) => Some(s),
            _ => None,
        })
        .collect();
    if let Some(scalars) = scalars {
        let has_bin = scalars.iter().any(|s| matches!(s, Scalar::Bin(_)));
        if has_bin {
            if !scalars
                .iter()
                .all(|s| matches!(s, Scalar::Bin(_) | Scalar::Null))
            {
                return unsupported("binary mixed with other element types: the Rust runtime cannot erase Vec<u8> to dyn Any");
            }
            let bins = scalars.iter().map(|s| match s {
                Scalar::Bin(b) => Some(b.clone()),
                _ => None,
            });
            if scalars.iter().any(|s| matches!(s, Scalar::Null)) {
                return Ok(ListValue::NullableBinary(bins.collect()));
            }
            return Ok(ListValue::Binary(bins.map(|b| b.unwrap()).collect()));
        }
        return Ok(ListValue::Erased(
            scalars.into_iter().map(erased).collect::<Result<_, _>>()?,
        ));
    }
    let mut inner = Vec::new();
    for n in items {
        match n {
            Node::List(xs) => inner.push(list_value(xs)?),
            _ => return unsupported("a list mixing lists with other nodes: Rust needs one element type (dyn Any cannot hold a collection)"),
        }
    }
    // All inner lists must have the same Rust type.
    let depth_kind = |l: &ListValue| -> String { kind_name(l) };
    if let Some(first) = inner.first() {
        let k = depth_kind(first);
        if inner.iter().any(|l| depth_kind(l) != k) {
            return unsupported("inner lists need different Rust carriers (Vec<Option<Box<dyn Any>>>, Vec<Vec<u8>>, ...)");
        }
    }
    Ok(ListValue::Nested(inner))
}

fn kind_name(l: &ListValue) -> String {
    match l {
        ListValue::Erased(_) => "e".into(),
        ListValue::Binary(_) => "b".into(),
        ListValue::NullableBinary(_) => "nb".into(),
        ListValue::Nested(xs) => format!("n({})", xs.first().map(kind_name).unwrap_or_default()),
    }
}

fn encode_list(f: &Fory, items: &[Node]) -> Result<Vec<u8>, PeerError> {
    match list_value(items)? {
        ListValue::Erased(v) => run(f, &v),
        ListValue::Binary(v) => run(f, &v),
        ListValue::NullableBinary(v) => run(f, &v),
        ListValue::Nested(v) => encode_nested(f, v),
    }
}

fn encode_nested(f: &Fory, v: Vec<ListValue>) -> Result<Vec<u8>, PeerError> {
    let kind = v.first().map(kind_name).unwrap_or_else(|| "e".into());
    macro_rules! collect {
        ($pat:ident) => {
            v.into_iter()
                .map(|l| match l {
                    ListValue::$pat(x) => x,
                    _ => unreachable!(),
                })
                .collect::<Vec<_>>()
        };
    }
    match kind.as_str() {
        "e" => run(f, &collect!(Erased)),
        "b" => run(f, &collect!(Binary)),
        "nb" => run(f, &collect!(NullableBinary)),
        "n(e)" => {
            let outer: Vec<Vec<Vec<OB>>> = v
                .into_iter()
                .map(|l| match l {
                    ListValue::Nested(xs) => xs
                        .into_iter()
                        .map(|x| match x {
                            ListValue::Erased(e) => e,
                            _ => unreachable!(),
                        })
                        .collect(),
                    _ => unreachable!(),
                })
                .collect();
            run(f, &outer)
        }
        _ => unsupported("lists nested more than three deep (or of nested binary lists) are not mapped to Rust types by the peer"),
    }
}

// ---------------------------------------------------------------------------
// Maps and sets.
// ---------------------------------------------------------------------------

/// Rust key types for BTreeMap / BTreeSet, chosen from the notation key kind.
macro_rules! key_types {
    ($m:ident) => {
        $m!(Bool, bool, |s| match s {
            Scalar::Bool(v) => Some(*v),
            _ => None,
        });
        $m!(I8, i8, |s| match s {
            Scalar::I8(v) => Some(*v),
            _ => None,
        });
        $m!(I16, i16, |s| match s {
            Scalar::I16(v) => Some(*v),
            _ => None,
        });
        $m!(I32, i32, |s| match s {
            Scalar::I32(v, IntWire::Var) => Some(*v),
            _ => None,
        });
        $m!(I64, i64, |s| match s {
            Scalar::I64(v, IntWire::Var) => Some(*v),
            _ => None,
        });
        $m!(U8, u8, |s| match s {
            Scalar::U8(v) => Some(*v),
            _ => None,
        });
        $m!(U16, u16, |s| match s {
            Scalar::U16(v) => Some(*v),
            _ => None,
        });
        $m!(U32, u32, |s| match s {
            Scalar::U32(v, IntWire::Var) => Some(*v),
            _ => None,
        });
        $m!(U64, u64, |s| match s {
            Scalar::U64(v, IntWire::Var) => Some(*v),
            _ => None,
        });
        $m!(Str, String, |s| match s {
            Scalar::Str(v) => Some(v.clone()),
            _ => None,
        });
        $m!(Date, Date, |s| match s {
            Scalar::Date(d) => Some(Date::from_epoch_days(*d)),
            _ => None,
        });
        $m!(Timestamp, Timestamp, |s| match s {
            Scalar::Timestamp(a, b) => Timestamp::new(*a, *b).ok(),
            _ => None,
        });
        $m!(Duration, Duration, |s| match s {
            Scalar::Duration(a, b) => Duration::from_normalized(*a, *b).ok(),
            _ => None,
        });
    };
}

fn scalar_of(n: &Node) -> Option<&Scalar> {
    match n {
        Node::Scalar(s) => Some(s),
        _ => None,
    }
}

/// Converts all nodes to K with `conv`, checking that the notation order is
/// the Rust Ord order (the order BTreeMap / BTreeSet write).
fn ordered_keys<K: Ord + Clone>(
    nodes: &[&Node],
    conv: fn(&Scalar) -> Option<K>,
) -> Result<Option<Vec<K>>, PeerError> {
    let mut keys = Vec::with_capacity(nodes.len());
    for n in nodes {
        match scalar_of(n).and_then(conv) {
            Some(k) => keys.push(k),
            None => return Ok(None),
        }
    }
    for w in keys.windows(2) {
        if w[0] >= w[1] {
            return unsupported("the Rust runtime writes BTreeMap/BTreeSet entries in ascending key order (Rust HashMap/HashSet order is random); the notation order is not that order, or keys repeat");
        }
    }
    Ok(Some(keys))
}

/// The Rust carrier of a map value column.
enum Values {
    Erased(Vec<OB>),
    Lists(Vec<Vec<OB>>),
    Binary(Vec<Vec<u8>>),
}

fn map_values(nodes: &[&Node]) -> Result<Values, PeerError> {
    if nodes
        .iter()
        .all(|n| matches!(n, Node::Scalar(Scalar::Bin(_))))
        && !nodes.is_empty()
    {
        return Ok(Values::Binary(
            nodes
                .iter()
                .map(|n| match n {
                    Node::Scalar(Scalar::Bin(b)) => b.clone(),
                    _ => unreachable!(),
                })
                .collect(),
        ));
    }
    if nodes.iter().all(|n| matches!(n, Node::Scalar(_))) {
        return Ok(Values::Erased(
            nodes
                .iter()
                .map(|n| erased(scalar_of(n).unwrap()))
                .collect::<Result<_, _>>()?,
        ));
    }
    let mut lists = Vec::new();
    for n in nodes {
        match n {
            Node::List(xs) => match list_value(xs)? {
                ListValue::Erased(e) => lists.push(e),
                _ => return unsupported("map values that are lists of binaries or nested lists are not mapped to Rust types by the peer"),
            },
            _ => return unsupported("map values mixing collections with other nodes: Rust needs one value type (dyn Any cannot hold a collection)"),
        }
    }
    Ok(Values::Lists(lists))
}

fn encode_map(f: &Fory, entries: &[(Node, Node)]) -> Result<Vec<u8>, PeerError> {
    if entries.is_empty() {
        return run(f, &BTreeMap::<String, OB>::new());
    }
    let keys: Vec<&Node> = entries.iter().map(|e| &e.0).collect();
    let vals: Vec<&Node> = entries.iter().map(|e| &e.1).collect();
    let values = map_values(&vals)?;
    macro_rules! try_key {
        ($tag:ident, $ty:ty, $conv:expr) => {
            if let Some(ks) = ordered_keys::<$ty>(&keys, $conv)? {
                return match values {
                    Values::Erased(vs) => {
                        run(f, &ks.into_iter().zip(vs).collect::<BTreeMap<$ty, OB>>())
                    }
                    Values::Lists(vs) => run(
                        f,
                        &ks.into_iter().zip(vs).collect::<BTreeMap<$ty, Vec<OB>>>(),
                    ),
                    Values::Binary(vs) => run(
                        f,
                        &ks.into_iter().zip(vs).collect::<BTreeMap<$ty, Vec<u8>>>(),
                    ),
                };
            }
        };
    }
    key_types!(try_key);
    unsupported("map keys are not all of one Rust key type (bool, int8/16, varint32/64, uint8/16, var_uint32/64, string, date, timestamp, duration; no null keys)")
}

fn encode_set(f: &Fory, items: &[Node]) -> Result<Vec<u8>, PeerError> {
    if items.is_empty() {
        return run(f, &BTreeSet::<String>::new());
    }
    let nodes: Vec<&Node> = items.iter().collect();
    macro_rules! try_key {
        ($tag:ident, $ty:ty, $conv:expr) => {
            if let Some(ks) = ordered_keys::<$ty>(&nodes, $conv)? {
                return run(f, &ks.into_iter().collect::<BTreeSet<$ty>>());
            }
        };
    }
    key_types!(try_key);
    unsupported("set elements are not all of one Rust key type (bool, int8/16, varint32/64, uint8/16, var_uint32/64, string, date, timestamp, duration; no nulls)")
}
