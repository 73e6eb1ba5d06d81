//! Conformance testee that drives the Apache Fory Rust runtime (crate `fory`)
//! over the JSON-lines protocol of conformance/PROTOCOL.md. See README.md.

mod decode;
mod encode;
mod floats;
mod notation;
#[cfg_attr(not(lw_usertypes), allow(dead_code))]
mod typed;

/// foryc's types for the fixtures' schemas and their glue (build.rs).
#[cfg(lw_usertypes)]
#[allow(clippy::all)]
mod usertypes {
    include!(env!("LW_USERTYPES_RS"));
}

#[cfg(not(lw_usertypes))]
mod usertypes {
    pub static UNITS: &[crate::typed::UnitFns] = &[];
    pub const UNITS_JSON: &str = "{}";
}

use fory::Fory;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Version of the `fory` crate this peer is built against (Cargo.toml pins it).
const FORY_VERSION: &str = "1.7.7";

#[derive(Debug)]
pub enum PeerError {
    /// The request cannot be expressed with Rust values the runtime writes,
    /// or the decoded value has no Rust carrier / notation in the peer.
    Unsupported(String),
    /// Malformed request or notation.
    Request(String),
    /// The runtime returned an error.
    Runtime(fory::Error),
    /// foryc rejected the request's schemas (or its code does not compile).
    Idl(String),
    /// Any of the above, located in a multi-root payload.
    At(Box<PeerError>, usize, usize),
}

impl PeerError {
    fn at(self, root: usize, offset: usize) -> PeerError {
        PeerError::At(Box::new(self), root, offset)
    }

    fn class(&self) -> &'static str {
        match self {
            PeerError::Unsupported(_) => "unsupported",
            PeerError::Request(_) => "error",
            PeerError::Idl(_) => "idl",
            PeerError::Runtime(e) => runtime_class(e),
            PeerError::At(e, _, _) => e.class(),
        }
    }

    fn message(&self) -> String {
        match self {
            PeerError::Unsupported(m) | PeerError::Request(m) | PeerError::Idl(m) => m.clone(),
            PeerError::Runtime(e) => format!("{e:?}"),
            PeerError::At(e, root, offset) => {
                format!("{} (root {root} at byte {offset})", e.message())
            }
        }
    }
}

/// A runtime error that says the Rust carrier chosen by the peer does not fit
/// (rather than that the bytes are bad) is reported as "unsupported".
fn runtime_class(e: &fory::Error) -> &'static str {
    let text = format!("{e:?}");
    let markers = [
        "harness not found",
        "is not registered",
        "cannot be top-level erased",
        "not supported in cross-language mode",
        "Type inconsistent",
    ];
    if markers.iter().any(|m| text.contains(m)) {
        "unsupported"
    } else {
        "error"
    }
}

struct Peer {
    cache: HashMap<(bool, bool), Fory>,
    allow_unordered: bool,
    /// The repository root: request schema paths are relative to it.
    root: Option<std::path::PathBuf>,
    /// Unit key -> its glue and its descriptions (units.json).
    units: HashMap<&'static str, (&'static typed::UnitFns, Map<String, Value>)>,
    /// One instance per (unit, ref, compatible) with the unit's types registered.
    typed_cache: HashMap<(&'static str, bool, bool), Fory>,
}

impl Peer {
    fn fory(&mut self, cfg: (bool, bool)) -> &Fory {
        self.cache.entry(cfg).or_insert_with(|| {
            Fory::builder()
                .xlang(true)
                .track_ref(cfg.0)
                .compatible(cfg.1)
                .build()
        })
    }

    fn unit_key(&self, schemas: &[Value]) -> Result<String, PeerError> {
        let mut keys = Vec::new();
        for s in schemas {
            let s = s.as_str().ok_or_else(|| PeerError::Request("schemas must be strings".into()))?;
            let p = std::path::Path::new(s);
            let rel = match &self.root {
                Some(r) if p.is_absolute() => p.strip_prefix(r).map(|x| x.to_string_lossy().into_owned()).unwrap_or(s.into()),
                _ => s.to_string(),
            };
            keys.push(rel);
        }
        Ok(keys.join("\n"))
    }

    /// A request with schemas: foryc's generated types (typed.rs, usertypes).
    fn typed(&mut self, req: &Map<String, Value>, schemas: &[Value], cfg: (bool, bool)) -> Result<Map<String, Value>, PeerError> {
        if self.units.is_empty() {
            return Err(PeerError::Unsupported("the Rust peer was built without user types".into()));
        }
        let key = self.unit_key(schemas)?;
        let (unit, types) = match self.units.get(key.as_str()) {
            Some((u, t)) => (*u, t as *const Map<String, Value>),
            None => {
                return Err(PeerError::Unsupported(format!(
                    "no foryc types for the schemas {key:?} (conformance/peers/usertypes compiles the sets the fixtures name)"
                )))
            }
        };
        if let Some(e) = unit.err {
            return Err(PeerError::Idl(e.to_string()));
        }
        // SAFETY: the descriptions live in self.units, which is not changed below.
        let types = unsafe { &*types };
        let allow = self.allow_unordered;
        if !self.typed_cache.contains_key(&(unit.key, cfg.0, cfg.1)) {
            let mut f = Fory::builder().xlang(true).track_ref(cfg.0).compatible(cfg.1).build();
            (unit.register)(&mut f).map_err(PeerError::Runtime)?;
            self.typed_cache.insert((unit.key, cfg.0, cfg.1), f);
        }
        let f = &self.typed_cache[&(unit.key, cfg.0, cfg.1)];
        let mut out = Map::new();
        match req.get("op").and_then(Value::as_str) {
            Some("encode") => {
                let values = match req.get("values") {
                    Some(Value::Array(a)) => a,
                    _ => return Err(PeerError::Request("encode needs a values array".into())),
                };
                let mut bytes = Vec::new();
                for (i, n) in values.iter().enumerate() {
                    let b = typed::encode_root(f, n, unit, types, allow).map_err(|e| match e {
                        PeerError::Runtime(_) => e.at(i, bytes.len()),
                        e => e,
                    })?;
                    bytes.extend_from_slice(&b);
                }
                out.insert("hex".into(), Value::String(bytes.iter().map(|x| format!("{x:02x}")).collect()));
            }
            Some("decode") => {
                let text = match req.get("hex") {
                    Some(Value::String(s)) => s,
                    _ => return Err(PeerError::Request("decode needs a hex string".into())),
                };
                let data = notation::parse_hex(text).ok_or_else(|| PeerError::Request("bad hex input".into()))?;
                let project = matches!(req.get("project"), Some(Value::Bool(true)));
                let values = typed::decode_all(f, &data, unit, types, allow, project)?;
                out.insert("values".into(), Value::Array(values));
            }
            other => return Err(PeerError::Request(format!("unknown op {other:?}"))),
        }
        Ok(out)
    }

    fn handle(&mut self, req: &Map<String, Value>) -> Result<Map<String, Value>, PeerError> {
        let cfg = parse_config(req.get("config"))?;
        if let Some(Value::Array(schemas)) = req.get("schemas") {
            if !schemas.is_empty() {
                let schemas = schemas.clone();
                return self.typed(req, &schemas, cfg);
            }
        }
        let op = match req.get("op") {
            Some(Value::String(s)) => s.as_str(),
            _ => return Err(PeerError::Request("request has no op".into())),
        };
        let mut out = Map::new();
        match op {
            "encode" => {
                let values = match req.get("values") {
                    Some(Value::Array(a)) => a,
                    _ => return Err(PeerError::Request("encode needs a values array".into())),
                };
                let nodes = values
                    .iter()
                    .map(notation::parse)
                    .collect::<Result<Vec<_>, _>>()?;
                let f = self.fory(cfg);
                let mut bytes = Vec::new();
                for (i, n) in nodes.iter().enumerate() {
                    let b = encode::encode_root(f, n).map_err(|e| match e {
                        PeerError::Runtime(_) => e.at(i, bytes.len()),
                        e => e,
                    })?;
                    bytes.extend_from_slice(&b);
                }
                out.insert(
                    "hex".into(),
                    Value::String(bytes.iter().map(|x| format!("{x:02x}")).collect()),
                );
            }
            "decode" => {
                let text = match req.get("hex") {
                    Some(Value::String(s)) => s,
                    _ => return Err(PeerError::Request("decode needs a hex string".into())),
                };
                let data = notation::parse_hex(text)
                    .ok_or_else(|| PeerError::Request("bad hex input".into()))?;
                let allow = self.allow_unordered;
                let f = self.fory(cfg);
                let values = decode::decode_all(f, &data, allow)?;
                out.insert("values".into(), Value::Array(values));
            }
            other => return Err(PeerError::Request(format!("unknown op {other:?}"))),
        }
        Ok(out)
    }
}

fn parse_config(v: Option<&Value>) -> Result<(bool, bool), PeerError> {
    let obj = match v {
        None | Some(Value::Null) => return Ok((false, false)),
        Some(Value::Object(o)) => o,
        _ => return Err(PeerError::Request("config must be an object".into())),
    };
    let flag = |k: &str| match obj.get(k) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        _ => Err(PeerError::Request(format!("config.{k} must be a boolean"))),
    };
    Ok((flag("ref")?, flag("compatible")?))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = args
        .iter()
        .position(|a| a == "--root")
        .and_then(|i| args.get(i + 1))
        .map(std::path::PathBuf::from);
    let descs: Value = serde_json::from_str(usertypes::UNITS_JSON).unwrap_or(Value::Null);
    let mut units = HashMap::new();
    for u in usertypes::UNITS {
        let types = descs["units"]
            .as_array()
            .and_then(|us| us.iter().find(|x| x["key"] == u.key))
            .and_then(|x| x["types"].as_object().cloned())
            .unwrap_or_default();
        units.insert(u.key, (u, types));
    }
    let mut caps = vec!["ref_tracking", "compatible", "decimal", "temporal", "dense_array", "unsigned",
                        "float16", "bfloat16", "meta_string"];
    if !units.is_empty() {
        caps.extend(["schema", "struct", "enum", "union", "named_types", "typedef", "evolution", "peer"]);
    }
    let mut peer = Peer {
        cache: HashMap::new(),
        allow_unordered: args.iter().any(|a| a == "--allow-unordered"),
        root,
        units,
        typed_cache: HashMap::new(),
    };
    // Panics are answered as errors; keep the default hook quiet on stdout.
    std::panic::set_hook(Box::new(|info| eprintln!("fory-rust-peer: panic: {info}")));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let hello = json!({"hello": {
        "name": "rust",
        "runtime": "fory (crates.io)",
        "version": FORY_VERSION,
        "capabilities": caps,
    }});
    writeln!(out, "{hello}").unwrap();
    out.flush().unwrap();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("fory-rust-peer: read: {e}");
                std::process::exit(1);
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let resp = match serde_json::from_str::<Value>(&line) {
            Ok(Value::Object(req)) => {
                let id = req.get("id").cloned().unwrap_or(Value::Null);
                let result = catch_unwind(AssertUnwindSafe(|| peer.handle(&req)));
                let mut resp = Map::new();
                resp.insert("id".into(), id);
                match result {
                    Ok(Ok(body)) => {
                        resp.insert("ok".into(), Value::Bool(true));
                        resp.extend(body);
                    }
                    Ok(Err(e)) => {
                        if matches!(e, PeerError::Runtime(_) | PeerError::At(..)) {
                            peer.cache.clear(); // do not reuse an instance after a failure
                            peer.typed_cache.clear();
                        }
                        resp.insert("ok".into(), Value::Bool(false));
                        resp.insert("class".into(), Value::String(e.class().into()));
                        resp.insert("message".into(), Value::String(e.message()));
                    }
                    Err(p) => {
                        peer.cache.clear();
                        peer.typed_cache.clear();
                        let msg = p
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_else(|| "unknown panic".into());
                        resp.insert("ok".into(), Value::Bool(false));
                        resp.insert("class".into(), Value::String("error".into()));
                        resp.insert("message".into(), Value::String(format!("panic: {msg}")));
                    }
                }
                Value::Object(resp)
            }
            Ok(_) => {
                json!({"id": null, "ok": false, "class": "error", "message": "bad request: not a JSON object"})
            }
            Err(e) => {
                // serde_json refuses lone surrogate escapes (the notation only
                // carries Unicode scalar values); still echo the request id.
                let id = serde_json::from_str::<Value>(&without_surrogates(&line))
                    .ok()
                    .and_then(|v| v.get("id").cloned())
                    .unwrap_or(Value::Null);
                json!({"id": id, "ok": false, "class": "error", "message": format!("bad request: {e}")})
            }
        };
        writeln!(out, "{resp}").unwrap();
        out.flush().unwrap();
    }
}

/// Replaces every \uD800-\uDFFF escape by \uFFFD (only to recover the id of
/// a request that serde_json refused).
fn without_surrogates(line: &str) -> String {
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            if b[i + 1] == b'u' && i + 6 <= b.len() {
                if let Some(Ok(u)) = line.get(i + 2..i + 6).map(|h| u16::from_str_radix(h, 16)) {
                    if (0xd800..=0xdfff).contains(&u) {
                        out.push_str("\\ufffd");
                        i += 6;
                        continue;
                    }
                }
            }
            if let Some(pair) = line.get(i..i + 2) {
                out.push_str(pair);
                i += 2;
                continue;
            }
        }
        let ch = line[i..].chars().next().unwrap();
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}
