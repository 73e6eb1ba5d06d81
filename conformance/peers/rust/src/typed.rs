//! User types: notation <-> the Rust types foryc 1.7.7 generated (--rust_out)
//! for the fixtures' schemas. Rust has no reflection, so
//! conformance/peers/usertypes (rust) writes `impl Conv` for every generated
//! struct, enum and union (the glue) and a table of units; the conversions of
//! the field types (integers, strings, Vec, Option, HashMap, Arc, ...) are
//! here. Every conversion gets the schema's descriptor of the value (a
//! notation key such as "varint32", or {"list": D}, {"map": [K, V]},
//! {"array": "int32_array"}, {"struct"|"enum"|"union": name}) so that a value
//! prints with the node kind the schema gives it.

use fory::{ArcWeak, BFloat16, Date, Decimal, Duration, Float16, Fory, RcWeak, Reader, Timestamp};
use num_bigint::BigInt;
use serde_json::{json, Map, Value};
use std::any::Any;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::rc::Rc;
use std::sync::Arc;

use crate::floats::{self, approx, half_value, BF16, F16, F32, F64};
use crate::PeerError;

pub type R<T> = Result<T, PeerError>;

pub fn unsupported<T>(msg: impl Into<String>) -> R<T> {
    Err(PeerError::Unsupported(msg.into()))
}

pub fn request<T>(msg: impl Into<String>) -> R<T> {
    Err(PeerError::Request(msg.into()))
}

/// One schema set of the fixtures, as the glue lists it.
pub struct UnitFns {
    pub key: &'static str,
    pub err: Option<&'static str>,
    pub register: fn(&mut Fory) -> Result<(), fory::Error>,
    /// Builds the root of a struct/enum/union node of the named type and
    /// serializes it; None if the unit has no such type.
    pub encode: fn(&str, &Value, &mut Cx, &Fory) -> Option<R<Vec<u8>>>,
    /// A value of one of the unit's types as a Box<dyn Any> (an element of a
    /// list of dynamic values); None if the unit has no such type.
    pub boxed: fn(&str, &Value, &mut Cx) -> Option<R<Box<dyn Any>>>,
    /// Prints a decoded value if it is one of the unit's types.
    pub print: fn(&dyn Any, &mut Cx) -> Option<R<Value>>,
    /// A value of one of the unit's types for an `any` field.
    pub arc: fn(&str, &Value, &mut Cx) -> Option<R<Arc<dyn Any + Send + Sync>>>,
}

/// State of one conversion: the unit's descriptions, anchors (encode) and
/// shared pointers (decode).
pub struct Cx<'a> {
    pub types: &'a Map<String, Value>,
    pub unit: &'a UnitFns,
    anchors: HashMap<String, Box<dyn Any>>,
    building: HashSet<String>,
    /// Weak pointers to anchors still being built, updated when they are.
    pending: HashMap<String, Vec<Box<dyn Any>>>,
    counts: HashMap<usize, usize>,
    names: HashMap<usize, String>,
    pub allow_unordered: bool,
}

const NULL_DESC: Value = Value::Null;

impl<'a> Cx<'a> {
    pub fn new(types: &'a Map<String, Value>, unit: &'a UnitFns, allow_unordered: bool) -> Self {
        Cx {
            types,
            unit,
            anchors: HashMap::new(),
            building: HashSet::new(),
            pending: HashMap::new(),
            counts: HashMap::new(),
            names: HashMap::new(),
            allow_unordered,
        }
    }

    fn desc(&self, name: &str) -> R<&'a Value> {
        match self.types.get(name) {
            Some(d) => Ok(d),
            None => request(format!("type {name:?} is not in the request's schemas")),
        }
    }

    /// The fields of a struct node of type `name` (checked), for the glue.
    pub fn struct_fields<'n>(&self, n: &'n Value, name: &str) -> R<&'n Map<String, Value>> {
        let (key, body) = kind(n)?;
        if key != "struct" {
            return request(format!("{key} node for the struct {name}"));
        }
        if body.get("type").and_then(Value::as_str) != Some(name) {
            return request(format!("struct {:?} where the schema has {name}", body.get("type")));
        }
        let fields = match body.get("fields") {
            Some(Value::Object(m)) => m,
            None => return Ok(empty_map()),
            _ => return request("struct fields must be an object"),
        };
        let d = self.desc(name)?;
        for k in fields.keys() {
            let known = d["fields"]
                .as_array()
                .map(|fs| fs.iter().any(|f| f["name"] == *k || f["decl"] == *k))
                .unwrap_or(false);
            if !known {
                return request(format!("{name} (foryc's type) has no field {k:?}"));
            }
        }
        Ok(fields)
    }

    /// The node of field `decl` of struct `name` in `fields`, and its descriptor.
    pub fn field<'n>(
        &self,
        fields: &'n Map<String, Value>,
        name: &str,
        decl: &str,
    ) -> Option<(&'n Value, &'a Value)> {
        let d = self.types.get(name)?;
        let f = d["fields"].as_array()?.iter().find(|f| f["decl"] == decl)?;
        let n = fields.get(f["name"].as_str()?).or_else(|| fields.get(decl))?;
        Some((n, &f["type"]))
    }

    /// The descriptor and wire name of field `decl` of struct `name`.
    pub fn fdesc(&self, name: &str, decl: &str) -> (&'a Value, String) {
        if let Some(f) = self.types.get(name).and_then(|d| d["fields"].as_array()).and_then(|fs| {
            fs.iter().find(|f| f["decl"] == decl)
        }) {
            return (&f["type"], f["name"].as_str().unwrap_or(decl).to_string());
        }
        (&NULL_DESC, decl.to_string())
    }

    /// Field names (declared) of struct `name` in the schema's wire order.
    pub fn order(&self, name: &str) -> Vec<String> {
        self.types
            .get(name)
            .and_then(|d| d["fields"].as_array())
            .map(|fs| fs.iter().filter_map(|f| f["decl"].as_str().map(String::from)).collect())
            .unwrap_or_default()
    }

    pub fn enum_value(&self, n: &Value, name: &str) -> R<i64> {
        let (key, body) = kind(n)?;
        if key != "enum" || body.get("type").and_then(Value::as_str) != Some(name) {
            return request(format!("{n} for the enum {name}"));
        }
        body.get("value").and_then(Value::as_i64).map_or_else(|| request("enum value must be an integer"), Ok)
    }

    pub fn union_parts<'n>(&self, n: &'n Value, name: &str) -> R<(u32, &'n Value)> {
        let (key, body) = kind(n)?;
        if key != "union" || body.get("type").and_then(Value::as_str) != Some(name) {
            return request(format!("{n} for the union {name}"));
        }
        let c = body.get("case").and_then(Value::as_u64).ok_or_else(|| PeerError::Request("union case".into()))?;
        Ok((c as u32, body.get("value").unwrap_or(&Value::Null)))
    }

    pub fn case_desc(&self, name: &str, case: u32) -> &'a Value {
        self.types
            .get(name)
            .and_then(|d| d["cases"].as_array())
            .and_then(|cs| cs.iter().find(|c| c["id"] == case))
            .map(|c| &c["type"])
            .unwrap_or(&NULL_DESC)
    }

    /// Serializes the root built from `n` (glue: one instantiation per type).
    pub fn encode_root<T: Conv + fory::Serializer<Target = T>>(&mut self, n: &Value, f: &Fory) -> R<Vec<u8>> {
        let v = T::from_node(n, &NULL_DESC, self)?;
        f.serialize(&v).map_err(PeerError::Runtime)
    }

    pub fn boxed<T: Conv + 'static>(&mut self, n: &Value) -> R<Box<dyn Any>> {
        Ok(Box::new(T::from_node(n, &NULL_DESC, self)?))
    }

    pub fn arced<T: Conv + Send + Sync + 'static>(&mut self, n: &Value) -> R<Arc<dyn Any + Send + Sync>> {
        Ok(Arc::new(T::from_node(n, &NULL_DESC, self)?))
    }

    /// Prints a decoded root (glue: one instantiation per type).
    pub fn print_root<T: Conv>(&mut self, v: &T) -> R<Value> {
        v.visit(self);
        v.to_node(&NULL_DESC, self)
    }

    fn shared<T: Conv>(&mut self, ptr: usize, inner: &T, d: &Value) -> R<Value> {
        if self.counts.get(&ptr).copied().unwrap_or(0) > 1 {
            if let Some(name) = self.names.get(&ptr) {
                return Ok(json!({ "ref": name }));
            }
            let name = format!("a{}", self.names.len() + 1);
            self.names.insert(ptr, name.clone());
            let mut n = inner.to_node(d, self)?;
            if let Value::Object(m) = &mut n {
                m.insert("anchor".into(), Value::String(name));
            }
            return Ok(n);
        }
        inner.to_node(d, self)
    }

    /// Counts a pointer; true the first time (the caller visits the target).
    fn count(&mut self, ptr: usize) -> bool {
        let c = self.counts.entry(ptr).or_insert(0);
        *c += 1;
        *c == 1
    }
}

fn empty_map() -> &'static Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

const ANNOTATIONS: &[&str] = &[
    "anchor", "enc", "header", "chunks", "approx", "iso", "tracked", "typedef", "ns_enc",
    "name_enc", "ns_hash", "name_hash", "ns_xref", "name_xref", "ns_again", "name_again",
];

/// The type key of a node and its value.
pub fn kind(n: &Value) -> R<(&str, &Value)> {
    let obj = match n {
        Value::Object(o) => o,
        _ => return request(format!("a node must be a JSON object, got {n}")),
    };
    let mut found = None;
    for (k, v) in obj {
        if ANNOTATIONS.contains(&k.as_str()) {
            continue;
        }
        if found.is_some() {
            return request(format!("node has two type keys: {n}"));
        }
        found = Some((k.as_str(), v));
    }
    found.ok_or_else(|| PeerError::Request(format!("node has no type key: {n}")))
}

fn anchor(n: &Value) -> Option<&str> {
    n.get("anchor").and_then(Value::as_str)
}

/// A value of a generated type's field, element, key or case.
pub trait Conv: Sized {
    fn from_node(n: &Value, d: &Value, cx: &mut Cx) -> R<Self>;
    fn to_node(&self, d: &Value, cx: &mut Cx) -> R<Value>;
    /// The value of a field the notation leaves out (its type's zero value).
    fn absent() -> R<Self> {
        unsupported("a field left out whose Rust type has no zero value")
    }
    /// Counts the shared pointers below (before printing).
    fn visit(&self, _cx: &mut Cx) {}
}

fn int_text(n: &Value) -> R<(&str, i128)> {
    let (key, v) = kind(n)?;
    let s = match v {
        Value::String(s) => s,
        _ => return request(format!("{key} value must be a decimal string")),
    };
    match s.parse::<i128>() {
        Ok(x) => Ok((key, x)),
        Err(_) => request(format!("bad {key} value {s:?}")),
    }
}

const INT_KEYS: &[&str] = &[
    "int8", "int16", "int32", "varint32", "int64", "varint64", "tagged_int64", "uint8", "uint16",
    "uint32", "var_uint32", "uint64", "var_uint64", "tagged_uint64",
];

macro_rules! int_conv {
    ($t:ty, $default:expr) => {
        impl Conv for $t {
            fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
                let (key, x) = int_text(n)?;
                if !INT_KEYS.contains(&key) {
                    return unsupported(format!("{key} for a Rust {}", stringify!($t)));
                }
                <$t>::try_from(x).or_else(|_| request(format!("{key} {x} does not fit a Rust {}", stringify!($t))))
            }
            fn to_node(&self, d: &Value, _cx: &mut Cx) -> R<Value> {
                let key = d.as_str().filter(|k| INT_KEYS.contains(k)).unwrap_or($default);
                Ok(json!({ key: self.to_string() }))
            }
            fn absent() -> R<Self> {
                Ok(0)
            }
        }
    };
}

int_conv!(i8, "int8");
int_conv!(i16, "int16");
int_conv!(i32, "varint32");
int_conv!(i64, "varint64");
int_conv!(u8, "uint8");
int_conv!(u16, "uint16");
int_conv!(u32, "var_uint32");
int_conv!(u64, "var_uint64");

fn float_bits(n: &Value, f: &floats::Format) -> R<u64> {
    let (key, v) = kind(n)?;
    if !matches!(key, "float16" | "bfloat16" | "float32" | "float64") {
        return unsupported(format!("{key} for a Rust {}", f.name));
    }
    let text = v.as_str().ok_or_else(|| PeerError::Request(format!("{key} value must be a string")))?;
    if key == f.name {
        return floats::parse(text, f);
    }
    // another width: through its value (exact when narrower)
    let fmt = match key {
        "float16" => &F16,
        "bfloat16" => &BF16,
        "float32" => &F32,
        _ => &F64,
    };
    let bits = floats::parse(text, fmt)?;
    let x = match key {
        "float32" => f32::from_bits(bits as u32) as f64,
        "float64" => f64::from_bits(bits),
        _ => half_value(bits as u16, fmt),
    };
    Ok(floats::round(x, f))
}

impl Conv for f32 {
    fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
        Ok(f32::from_bits(float_bits(n, &F32)? as u32))
    }
    fn to_node(&self, d: &Value, _cx: &mut Cx) -> R<Value> {
        if d == "float64" {
            return Ok(json!({"float64": format!("0x{:016x}", (*self as f64).to_bits()), "approx": approx(*self as f64)}));
        }
        Ok(json!({"float32": format!("0x{:08x}", self.to_bits()), "approx": approx(*self as f64)}))
    }
    fn absent() -> R<Self> {
        Ok(0.0)
    }
}

impl Conv for f64 {
    fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
        Ok(f64::from_bits(float_bits(n, &F64)?))
    }
    fn to_node(&self, _d: &Value, _cx: &mut Cx) -> R<Value> {
        Ok(json!({"float64": format!("0x{:016x}", self.to_bits()), "approx": approx(*self)}))
    }
    fn absent() -> R<Self> {
        Ok(0.0)
    }
}

impl Conv for Float16 {
    fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
        Ok(Float16::from_bits(float_bits(n, &F16)? as u16))
    }
    fn to_node(&self, _d: &Value, _cx: &mut Cx) -> R<Value> {
        let b = self.to_bits();
        Ok(json!({"float16": format!("0x{b:04x}"), "approx": approx(half_value(b, &F16))}))
    }
    fn absent() -> R<Self> {
        Ok(Float16::from_bits(0))
    }
}

impl Conv for BFloat16 {
    fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
        Ok(BFloat16::from_bits(float_bits(n, &BF16)? as u16))
    }
    fn to_node(&self, _d: &Value, _cx: &mut Cx) -> R<Value> {
        let b = self.to_bits();
        Ok(json!({"bfloat16": format!("0x{b:04x}"), "approx": approx(half_value(b, &BF16))}))
    }
    fn absent() -> R<Self> {
        Ok(BFloat16::from_bits(0))
    }
}

impl Conv for bool {
    fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
        match kind(n)? {
            ("bool", Value::Bool(b)) => Ok(*b),
            (k, _) => unsupported(format!("{k} for a Rust bool")),
        }
    }
    fn to_node(&self, _d: &Value, _cx: &mut Cx) -> R<Value> {
        Ok(json!({ "bool": self }))
    }
    fn absent() -> R<Self> {
        Ok(false)
    }
}

impl Conv for String {
    fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
        match kind(n)? {
            ("string", Value::String(s)) => Ok(s.clone()),
            (k, _) => unsupported(format!("{k} for a Rust String")),
        }
    }
    fn to_node(&self, _d: &Value, _cx: &mut Cx) -> R<Value> {
        Ok(json!({ "string": self }))
    }
    fn absent() -> R<Self> {
        Ok(String::new())
    }
}

fn seconds_nanos(v: &Value, key: &str) -> R<(i64, u32)> {
    let s = v.get("seconds").and_then(Value::as_str).and_then(|s| s.parse::<i64>().ok());
    let n = v.get("nanos").and_then(Value::as_u64);
    match (s, n) {
        (Some(s), Some(n)) if n < 1_000_000_000 => Ok((s, n as u32)),
        _ => request(format!("{key} value must be {{seconds, nanos}}")),
    }
}

impl Conv for Date {
    fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
        match kind(n)? {
            ("date", Value::String(s)) => s
                .parse::<i64>()
                .map(Date::from_epoch_days)
                .or_else(|_| request(format!("bad date {s:?}"))),
            (k, _) => unsupported(format!("{k} for a fory::Date")),
        }
    }
    fn to_node(&self, _d: &Value, _cx: &mut Cx) -> R<Value> {
        Ok(json!({"date": self.epoch_days().to_string()}))
    }
    fn absent() -> R<Self> {
        Ok(Date::from_epoch_days(0))
    }
}

impl Conv for Timestamp {
    fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
        match kind(n)? {
            ("timestamp", v) => {
                let (s, ns) = seconds_nanos(v, "timestamp")?;
                Timestamp::new(s, ns).map_err(PeerError::Runtime)
            }
            (k, _) => unsupported(format!("{k} for a fory::Timestamp")),
        }
    }
    fn to_node(&self, _d: &Value, _cx: &mut Cx) -> R<Value> {
        Ok(json!({"timestamp": {"seconds": self.seconds().to_string(), "nanos": self.subsec_nanos()}}))
    }
    fn absent() -> R<Self> {
        Ok(Timestamp::from_epoch_seconds(0))
    }
}

impl Conv for Duration {
    fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
        match kind(n)? {
            ("duration", v) => {
                let (s, ns) = seconds_nanos(v, "duration")?;
                Duration::from_normalized(s, ns).map_err(PeerError::Runtime)
            }
            (k, _) => unsupported(format!("{k} for a fory::Duration")),
        }
    }
    fn to_node(&self, _d: &Value, _cx: &mut Cx) -> R<Value> {
        Ok(json!({"duration": {"seconds": self.seconds().to_string(), "nanos": self.subsec_nanos()}}))
    }
    fn absent() -> R<Self> {
        Ok(Duration::from_secs(0))
    }
}

impl Conv for Decimal {
    fn from_node(n: &Value, _d: &Value, _cx: &mut Cx) -> R<Self> {
        match kind(n)? {
            ("decimal", v) => {
                let u = v.get("unscaled").and_then(Value::as_str).and_then(|s| s.parse::<BigInt>().ok());
                let s = v.get("scale").and_then(Value::as_i64).and_then(|s| i32::try_from(s).ok());
                match (u, s) {
                    (Some(u), Some(s)) => Ok(Decimal::new(u, s)),
                    _ => request("decimal value must be {unscaled, scale}"),
                }
            }
            (k, _) => unsupported(format!("{k} for a fory::Decimal")),
        }
    }
    fn to_node(&self, _d: &Value, _cx: &mut Cx) -> R<Value> {
        Ok(json!({"decimal": {"unscaled": self.unscaled.to_string(), "scale": self.scale}}))
    }
    fn absent() -> R<Self> {
        Ok(Decimal::new(BigInt::from(0), 0))
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn list_desc(d: &Value) -> &Value {
    d.get("list").unwrap_or(&NULL_DESC)
}

impl<T: Conv> Conv for Vec<T> {
    fn from_node(n: &Value, d: &Value, cx: &mut Cx) -> R<Self> {
        let (key, v) = kind(n)?;
        match (key, v) {
            ("binary", Value::String(h)) => {
                let bytes = crate::notation::parse_hex(h).ok_or_else(|| PeerError::Request("bad binary hex".into()))?;
                bytes
                    .iter()
                    .map(|b| T::from_node(&json!({"uint8": b.to_string()}), &json!("uint8"), cx))
                    .collect()
            }
            ("list", Value::Array(items)) | ("set", Value::Array(items)) => {
                let ed = list_desc(d);
                items.iter().map(|e| T::from_node(e, ed, cx)).collect()
            }
            (k, Value::Array(items)) if k.ends_with("_array") => {
                let ek = &k[..k.len() - "_array".len()];
                items
                    .iter()
                    .map(|e| T::from_node(&json!({ ek: e }), &json!(ek), cx))
                    .collect()
            }
            (k, _) => unsupported(format!("{k} for a Rust Vec")),
        }
    }
    fn to_node(&self, d: &Value, cx: &mut Cx) -> R<Value> {
        if d == "binary" {
            let mut bytes = Vec::with_capacity(self.len());
            for e in self {
                let n = e.to_node(&json!("uint8"), cx)?;
                let b = n["uint8"].as_str().and_then(|s| s.parse::<u8>().ok());
                bytes.push(b.ok_or_else(|| PeerError::Unsupported("binary of non-bytes".into()))?);
            }
            return Ok(json!({"binary": hex(&bytes)}));
        }
        if let Some(ak) = d.get("array").and_then(Value::as_str) {
            let ek = &ak[..ak.len() - "_array".len()];
            let ed = json!(ek);
            let mut items = Vec::with_capacity(self.len());
            for e in self {
                let n = e.to_node(&ed, cx)?;
                items.push(n.get(ek).cloned().ok_or_else(|| PeerError::Unsupported(format!("{ak} element")))?);
            }
            return Ok(json!({ ak: items }));
        }
        let ed = list_desc(d);
        let items = self.iter().map(|e| e.to_node(ed, cx)).collect::<R<Vec<_>>>()?;
        Ok(json!({ "list": items }))
    }
    fn visit(&self, cx: &mut Cx) {
        for e in self {
            e.visit(cx);
        }
    }
    fn absent() -> R<Self> {
        Ok(Vec::new())
    }
}

impl<T: Conv> Conv for Option<T> {
    fn from_node(n: &Value, d: &Value, cx: &mut Cx) -> R<Self> {
        if kind(n)?.0 == "null" {
            return Ok(None);
        }
        T::from_node(n, d, cx).map(Some)
    }
    fn to_node(&self, d: &Value, cx: &mut Cx) -> R<Value> {
        match self {
            None => Ok(json!({"null": null})),
            Some(v) => v.to_node(d, cx),
        }
    }
    fn visit(&self, cx: &mut Cx) {
        if let Some(v) = self {
            v.visit(cx);
        }
    }
    fn absent() -> R<Self> {
        Ok(None)
    }
}

impl<T: Conv> Conv for Box<T> {
    fn from_node(n: &Value, d: &Value, cx: &mut Cx) -> R<Self> {
        T::from_node(n, d, cx).map(Box::new)
    }
    fn absent() -> R<Self> {
        T::absent().map(Box::new)
    }
    fn to_node(&self, d: &Value, cx: &mut Cx) -> R<Value> {
        (**self).to_node(d, cx)
    }
    fn visit(&self, cx: &mut Cx) {
        (**self).visit(cx)
    }
}

fn map_desc(d: &Value) -> (&Value, &Value) {
    match d.get("map").and_then(Value::as_array) {
        Some(kv) if kv.len() == 2 => (&kv[0], &kv[1]),
        _ => (&NULL_DESC, &NULL_DESC),
    }
}

impl<K: Conv + Eq + Hash, V: Conv> Conv for HashMap<K, V> {
    fn from_node(n: &Value, d: &Value, cx: &mut Cx) -> R<Self> {
        let entries = match kind(n)? {
            ("map", Value::Array(e)) => e,
            (k, _) => return unsupported(format!("{k} for a Rust HashMap")),
        };
        if entries.len() > 1 && !cx.allow_unordered {
            return unsupported(format!(
                "a map of {} entries in a Rust HashMap: its iteration order is not the given order",
                entries.len()
            ));
        }
        let (kd, vd) = map_desc(d);
        let mut m = HashMap::new();
        for e in entries {
            let pair = e.as_array().filter(|p| p.len() == 2).ok_or_else(|| PeerError::Request("map entry".into()))?;
            m.insert(K::from_node(&pair[0], kd, cx)?, V::from_node(&pair[1], vd, cx)?);
        }
        Ok(m)
    }
    fn to_node(&self, d: &Value, cx: &mut Cx) -> R<Value> {
        if self.len() > 1 && !cx.allow_unordered {
            return unsupported(format!(
                "decoded a map of {} entries into a Rust HashMap, which does not keep the wire order",
                self.len()
            ));
        }
        let (kd, vd) = map_desc(d);
        let mut out = Vec::new();
        for (k, v) in self {
            out.push(json!([k.to_node(kd, cx)?, v.to_node(vd, cx)?]));
        }
        Ok(json!({ "map": out }))
    }
    fn visit(&self, cx: &mut Cx) {
        for (k, v) in self {
            k.visit(cx);
            v.visit(cx);
        }
    }
    fn absent() -> R<Self> {
        Ok(HashMap::new())
    }
}

impl<T: Conv + Eq + Hash> Conv for HashSet<T> {
    fn from_node(n: &Value, d: &Value, cx: &mut Cx) -> R<Self> {
        let items = match kind(n)? {
            ("set", Value::Array(e)) | ("list", Value::Array(e)) => e,
            (k, _) => return unsupported(format!("{k} for a Rust HashSet")),
        };
        if items.len() > 1 && !cx.allow_unordered {
            return unsupported(format!("a set of {} elements in a Rust HashSet: its iteration order is not the given order", items.len()));
        }
        let ed = list_desc(d);
        items.iter().map(|e| T::from_node(e, ed, cx)).collect()
    }
    fn to_node(&self, d: &Value, cx: &mut Cx) -> R<Value> {
        if self.len() > 1 && !cx.allow_unordered {
            return unsupported(format!("decoded a set of {} elements into a Rust HashSet, which does not keep the wire order", self.len()));
        }
        let ed = list_desc(d);
        let items = self.iter().map(|e| e.to_node(ed, cx)).collect::<R<Vec<_>>>()?;
        Ok(json!({ "set": items }))
    }
    fn absent() -> R<Self> {
        Ok(HashSet::new())
    }
}

macro_rules! shared_conv {
    ($ptr:ident, $weak:ident) => {
        impl<T: Conv + 'static> Conv for $ptr<T> {
            fn from_node(n: &Value, d: &Value, cx: &mut Cx) -> R<Self> {
                if let ("ref", Value::String(name)) = kind(n)? {
                    if cx.building.contains(name.as_str()) {
                        return unsupported(format!(
                            "a cycle through {}<T>: Rust builds it only with interior mutability, which foryc's types do not have",
                            stringify!($ptr)
                        ));
                    }
                    return match cx.anchors.get(name.as_str()).and_then(|b| b.downcast_ref::<$ptr<T>>()) {
                        Some(p) => Ok(p.clone()),
                        None => unsupported(format!("ref {name:?} to a value that is not a shared {}<T> here", stringify!($ptr))),
                    };
                }
                let a = anchor(n).map(String::from);
                if let Some(a) = &a {
                    cx.building.insert(a.clone());
                }
                let v = $ptr::new(T::from_node(n, d, cx)?);
                if let Some(a) = a {
                    cx.building.remove(&a);
                    // weak pointers to it that were built before it (a child's parent)
                    for w in cx.pending.remove(&a).unwrap_or_default() {
                        if let Some(w) = w.downcast_ref::<$weak<T>>() {
                            w.update($ptr::downgrade(&v));
                        }
                    }
                    cx.anchors.insert(a, Box::new(v.clone()));
                }
                Ok(v)
            }
            fn absent() -> R<Self> {
                T::absent().map($ptr::new)
            }
            fn to_node(&self, d: &Value, cx: &mut Cx) -> R<Value> {
                let ptr = $ptr::as_ptr(self) as *const () as usize;
                cx.shared(ptr, &**self, d)
            }
            fn visit(&self, cx: &mut Cx) {
                if cx.count($ptr::as_ptr(self) as *const () as usize) {
                    (**self).visit(cx);
                }
            }
        }
    };
}

shared_conv!(Arc, ArcWeak);
shared_conv!(Rc, RcWeak);

/// Weak pointers (FDL `ref(weak=true)`): a ref to an anchored Arc/Rc, also
/// to one still being built (the parent of a child); printed as the target.
macro_rules! weak_conv {
    ($weak:ident, $ptr:ident) => {
        impl<T: Conv + 'static> Conv for $weak<T> {
            fn from_node(n: &Value, d: &Value, cx: &mut Cx) -> R<Self> {
                match kind(n)? {
                    ("ref", Value::String(name)) => {
                        let w = $weak::new();
                        if cx.building.contains(name.as_str()) {
                            cx.pending.entry(name.clone()).or_default().push(Box::new(w.clone()));
                            return Ok(w);
                        }
                        let strong: Option<$weak<T>> = cx
                            .anchors
                            .get(name.as_str())
                            .and_then(|b| b.downcast_ref::<$ptr<T>>().map($weak::from));
                        let _ = d;
                        match strong {
                            Some(w) => Ok(w),
                            None => unsupported(format!("weak ref {name:?} to a value that is not shared here")),
                        }
                    }
                    (k, _) => unsupported(format!("{k} for a weak pointer (only a ref to a shared value)")),
                }
            }
            fn to_node(&self, d: &Value, cx: &mut Cx) -> R<Value> {
                match self.upgrade() {
                    None => Ok(json!({"null": null})),
                    Some(p) => p.to_node(d, cx),
                }
            }
            fn visit(&self, cx: &mut Cx) {
                if let Some(p) = self.upgrade() {
                    p.visit(cx);
                }
            }
            fn absent() -> R<Self> {
                Ok($weak::new())
            }
        }
    };
}

weak_conv!(ArcWeak, Arc);
weak_conv!(RcWeak, Rc);

/// `any` fields: a user type of the unit or a built-in scalar.
impl Conv for Arc<dyn Any + Send + Sync> {
    fn from_node(n: &Value, _d: &Value, cx: &mut Cx) -> R<Self> {
        let (key, v) = kind(n)?;
        if matches!(key, "struct" | "enum" | "union") {
            let name = v.get("type").and_then(Value::as_str).unwrap_or("");
            return match (cx.unit.arc)(name, n, cx) {
                Some(r) => r,
                None => unsupported(format!("{name} in an `any` field (no Send + Sync Rust type)")),
            };
        }
        Ok(match (key, v) {
            ("string", Value::String(s)) => Arc::new(s.clone()),
            ("bool", Value::Bool(b)) => Arc::new(*b),
            _ => return unsupported(format!("{key} in an `any` field (Arc<dyn Any + Send + Sync>)")),
        })
    }
    fn to_node(&self, _d: &Value, cx: &mut Cx) -> R<Value> {
        let a: &dyn Any = &**self;
        if let Some(r) = (cx.unit.print)(a, cx) {
            return r;
        }
        if let Some(s) = a.downcast_ref::<String>() {
            return Ok(json!({ "string": s }));
        }
        if let Some(b) = a.downcast_ref::<bool>() {
            return Ok(json!({ "bool": b }));
        }
        unsupported("an `any` field of a Rust type the peer cannot print")
    }
}

thread_local! {
    /// The unit of the request being decoded, for elements the plain decoder
    /// reads as Box<dyn Any> (a list of structs): (unit, descriptions, allow_unordered).
    static ACTIVE: std::cell::Cell<Option<(&'static UnitFns, *const Map<String, Value>, bool)>> =
        const { std::cell::Cell::new(None) };
}

/// Prints an erased element with the active unit's types (decode.rs).
pub fn print_erased(v: &dyn Any) -> Option<R<Value>> {
    let (unit, types, allow) = ACTIVE.with(|a| a.get())?;
    // SAFETY: set by decode_all for the duration of the call, from a live reference.
    let types = unsafe { &*types };
    let mut cx = Cx::new(types, unit, allow);
    (unit.print)(v, &mut cx)
}

struct Active;
impl Drop for Active {
    fn drop(&mut self) {
        ACTIVE.with(|a| a.set(None));
    }
}

/// Decodes every root of `data` with the unit's types: a user-type root is
/// read as Box<dyn Any> and printed by the glue; other roots as without
/// schemas.
pub fn decode_all(
    f: &Fory,
    data: &[u8],
    unit: &'static UnitFns,
    types: &Map<String, Value>,
    allow_unordered: bool,
    project: bool,
) -> R<Vec<Value>> {
    ACTIVE.with(|a| a.set(Some((unit, types as *const _, allow_unordered))));
    let _active = Active;
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let type_id = match data.get(pos + 1) {
            Some(0xff) | Some(0x00) => data.get(pos + 2).copied(),
            _ => None,
        };
        let (node, used, user) = if matches!(type_id, Some(25..=35)) {
            let mut reader = Reader::new(&data[pos..]);
            // Rc<dyn Any>: also a root with the ref flag 00 (Box<dyn Any> takes ff only)
            let v = f
                .deserialize_from::<Rc<dyn Any>>(&mut reader)
                .map_err(|e| PeerError::Runtime(e).at(out.len(), pos))?;
            let mut cx = Cx::new(types, unit, allow_unordered);
            let node = match (unit.print)(&*v, &mut cx) {
                Some(r) => r.map_err(|e| e.at(out.len(), pos))?,
                None => return unsupported("the runtime decoded a root of a type outside the schemas"),
            };
            (node, reader.get_cursor(), true)
        } else {
            let (node, used) = crate::decode::decode_one(f, data, pos, allow_unordered).map_err(|e| e.at(out.len(), pos))?;
            (node, used, false)
        };
        if used == 0 {
            return request(format!("the runtime made no progress at byte {pos}"));
        }
        if user || !project {
            out.push(node);
        }
        pos += used;
    }
    Ok(out)
}

/// Encodes one root node: user types through the glue, lists of them as a
/// Vec<Box<dyn Any>>, everything else as without schemas.
pub fn encode_root(f: &Fory, n: &Value, unit: &UnitFns, types: &Map<String, Value>, allow_unordered: bool) -> R<Vec<u8>> {
    let (key, body) = kind(n)?;
    let mut cx = Cx::new(types, unit, allow_unordered);
    match key {
        "struct" | "enum" | "union" => {
            let name = body.get("type").and_then(Value::as_str).unwrap_or("");
            match (unit.encode)(name, n, &mut cx, f) {
                Some(r) => r,
                None => request(format!("type {name:?} is not in the request's schemas")),
            }
        }
        "ext" => unsupported("ext types: foryc generates no Rust carrier for them"),
        "list" if has_user(n) => {
            let items = body.as_array().ok_or_else(|| PeerError::Request("list value must be an array".into()))?;
            let mut v: Vec<Option<Box<dyn Any>>> = Vec::new();
            for e in items {
                let (k, b) = kind(e)?;
                if k == "null" {
                    v.push(None);
                    continue;
                }
                let name = b.get("type").and_then(Value::as_str).unwrap_or("");
                if !matches!(k, "struct" | "enum" | "union") {
                    return unsupported(format!("a {k} beside user types in a list (Vec<Box<dyn Any>>)"));
                }
                match (unit.boxed)(name, e, &mut cx) {
                    Some(r) => v.push(Some(r?)),
                    None => return request(format!("type {name:?} is not in the request's schemas")),
                }
            }
            if v.iter().all(Option::is_some) {
                let v: Vec<Box<dyn Any>> = v.into_iter().flatten().collect();
                return f.serialize(&v).map_err(PeerError::Runtime);
            }
            f.serialize(&v).map_err(PeerError::Runtime)
        }
        _ if has_user(n) => unsupported(format!("user types inside a root {key}")),
        _ => {
            let node = crate::notation::parse(n)?;
            crate::encode::encode_root(f, &node)
        }
    }
}

fn has_user(n: &Value) -> bool {
    match n {
        Value::Object(o) => o.iter().any(|(k, v)| matches!(k.as_str(), "struct" | "enum" | "union" | "ext") || has_user(v)),
        Value::Array(a) => a.iter().any(has_user),
        _ => false,
    }
}
