//! fory-bench: the Fory Rust (crate `fory` 1.7.7) side of libwire's
//! benchmark of Fory's six workloads (bench/README.md).
//!
//!   fory-bench bytes OUTDIR        write OUTDIR/<Workload>.bin, check sizes
//!   fory-bench read DIR            read DIR/<Workload>.bin (another writer's
//!                                  bytes) as the Rust types, compare values
//!   fory-bench callgrind N1 N2     instruction-count loops (under callgrind)
//!   fory-bench ns ROUNDS           thread-CPU time of interleaved batches
//!
//! Writer and reader: Fory::builder().xlang(true).compatible(true), no
//! reference tracking (the default); serialize = `serialize_to` into a
//! reused Vec (cleared, capacity kept); deserialize = `deserialize::<T>` of
//! the bytes, the value dropped inside the loop. The mismatch read
//! (`fory-rust:v2`) deserializes the same bytes with a second Fory whose
//! types widen one int32 field to int64.

mod model;

use fory::{Fory, Serializer};
use model::*;
use std::ffi::CString;
use std::fmt::Debug;
use std::hint::black_box;

extern "C" {
    fn cgmark_start();
    fn cgmark_stop();
    fn cgmark_zero();
    fn cgmark_dump(label: *const std::os::raw::c_char);
    fn cgmark_thread_ns() -> u64;
}

const IMPL: &str = "fory-rust";
const IMPL_V2: &str = "fory-rust:v2";

/// Sizes of Fory Rust 1.7.7's bytes for the six workloads (issue 10).
const EXPECTED: [(&str, usize); 6] = [
    ("NumericStruct", 78),
    ("Sample", 445),
    ("MediaContent", 362),
    ("NumericStructList", 255),
    ("SampleList", 1978),
    ("MediaContentList", 1531),
];

struct Peers {
    writer: Fory,
    reader: Fory,
    reader_v2: Fory,
}

fn new_fory() -> Fory {
    Fory::builder().xlang(true).compatible(true).build()
}

impl Peers {
    fn new() -> Peers {
        let mut writer = new_fory();
        let mut reader = new_fory();
        let mut reader_v2 = new_fory();
        register(&mut writer).expect("register writer types");
        register(&mut reader).expect("register reader types");
        register_v2(&mut reader_v2).expect("register v2 reader types");
        Peers { writer, reader, reader_v2 }
    }
}

fn die(msg: String) -> ! {
    eprintln!("fory-bench: {}", msg);
    std::process::exit(1);
}

trait Case: Serializer<Target = Self> + Widened + PartialEq + Debug + Sized + 'static
where
    Self::V2: Serializer<Target = Self::V2>,
{
}
impl<T> Case for T
where
    T: Serializer<Target = T> + Widened + PartialEq + Debug + 'static,
    T::V2: Serializer<Target = T::V2>,
{
}

fn encode<T: Case>(p: &Peers, v: &T, buf: &mut Vec<u8>)
where
    T::V2: Serializer<Target = T::V2>,
{
    buf.clear();
    if let Err(e) = p.writer.serialize_to(buf, v) {
        die(format!("serialize_to: {}", e));
    }
}

fn mark(label: String) {
    let c = CString::new(label).unwrap();
    unsafe { cgmark_dump(c.as_ptr()) }
}

/// One workload's checks and measurements.
fn workload<T: Case>(name: &str, value: T, mode: &Mode, p: &Peers)
where
    T::V2: Serializer<Target = T::V2>,
{
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    encode(p, &value, &mut buf);
    let bytes = buf.clone();
    // Round trips checked before anything is measured.
    let back: T = p.reader.deserialize(&bytes).unwrap_or_else(|e| die(format!("{}: deserialize: {}", name, e)));
    if back != value {
        die(format!("{}: the value read back differs", name));
    }
    let v2: T::V2 = p.reader_v2.deserialize(&bytes).unwrap_or_else(|e| die(format!("{}: v2 read: {}", name, e)));
    if !T::widened_ok(&v2, &value) {
        die(format!("{}: the v2 reader got other values", name));
    }

    match mode {
        Mode::Bytes(dir) => {
            let path = format!("{}/{}.bin", dir, name);
            std::fs::write(&path, &bytes).unwrap_or_else(|e| die(format!("{}: {}", path, e)));
            let want = EXPECTED.iter().find(|(n, _)| *n == name).unwrap().1;
            let verdict = if bytes.len() == want { "ok" } else { "MISMATCH" };
            println!("SIZE {} {} {} expected={} {}", name, IMPL, bytes.len(), want, verdict);
            if bytes.len() != want {
                die(format!("{}: {} bytes, expected {}", name, bytes.len(), want));
            }
        }
        Mode::Read(dir) => {
            let path = format!("{}/{}.bin", dir, name);
            let other = std::fs::read(&path).unwrap_or_else(|e| die(format!("{}: {}", path, e)));
            let got: T = p.reader.deserialize(&other).unwrap_or_else(|e| die(format!("{}: read {}: {}", name, path, e)));
            if got != value {
                die(format!("{}: {} holds other values:\n{:?}", name, path, got));
            }
            println!("READ {} {} {} bytes ok", name, path, other.len());
        }
        Mode::Callgrind(n1, n2) => {
            let ser = |buf: &mut Vec<u8>| encode(p, black_box(&value), buf);
            let de = || {
                let v: T = p.reader.deserialize(black_box(&bytes)).unwrap();
                drop(black_box(v));
            };
            let de2 = || {
                let v: T::V2 = p.reader_v2.deserialize(black_box(&bytes)).unwrap();
                drop(black_box(v));
            };
            // A warm-up call, then loops of N1 and N2 calls, each its own
            // callgrind dump; report.py takes the difference.
            for (op, imp) in [("ser", IMPL), ("de", IMPL), ("de", IMPL_V2)] {
                for n in [1, *n1, *n2] {
                    unsafe { cgmark_zero() };
                    for _ in 0..n {
                        match (op, imp) {
                            ("ser", _) => ser(&mut buf),
                            (_, IMPL) => de(),
                            _ => de2(),
                        }
                    }
                    let label = if n == 1 { "warmup 1".to_string() } else { format!("{} {} {} {}", name, op, imp, n) };
                    mark(label);
                }
            }
        }
        Mode::Ns(rounds) => {
            // Batches of about 1 ms, the three operations interleaved round
            // after round; the median batch gives ns per op.
            let mut ops: Vec<(&str, &str, Box<dyn FnMut() + '_>)> = Vec::new();
            let mut b2 = buf.clone();
            let vref = &value;
            ops.push(("ser", IMPL, Box::new(move || encode(p, black_box(vref), &mut b2))));
            let bref = &bytes;
            ops.push(("de", IMPL, Box::new(move || {
                let v: T = p.reader.deserialize(black_box(bref)).unwrap();
                drop(black_box(v));
            })));
            ops.push(("de", IMPL_V2, Box::new(move || {
                let v: T::V2 = p.reader_v2.deserialize(black_box(bref)).unwrap();
                drop(black_box(v));
            })));
            let mut batch = Vec::new();
            for (_, _, f) in ops.iter_mut() {
                let mut k: u64 = 1;
                loop {
                    let t0 = unsafe { cgmark_thread_ns() };
                    for _ in 0..k {
                        f();
                    }
                    let dt = unsafe { cgmark_thread_ns() } - t0;
                    if dt >= 1_000_000 || k >= 1 << 24 {
                        break;
                    }
                    k *= 2;
                }
                batch.push(k);
            }
            let mut samples: Vec<Vec<f64>> = vec![Vec::new(); ops.len()];
            for _ in 0..*rounds {
                for (i, (_, _, f)) in ops.iter_mut().enumerate() {
                    let k = batch[i];
                    let t0 = unsafe { cgmark_thread_ns() };
                    for _ in 0..k {
                        f();
                    }
                    let dt = unsafe { cgmark_thread_ns() } - t0;
                    samples[i].push(dt as f64 / k as f64);
                }
            }
            for (i, (op, imp, _)) in ops.iter().enumerate() {
                let s = &mut samples[i];
                s.sort_by(|a, b| a.partial_cmp(b).unwrap());
                println!("NS {} {} {} {:.1}", name, op, imp, s[s.len() / 2]);
            }
        }
    }
}

enum Mode {
    Bytes(String),
    Read(String),
    Callgrind(u64, u64),
    Ns(u32),
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    fn usage() -> ! {
        die("usage: fory-bench bytes OUTDIR | read DIR | callgrind N1 N2 | ns ROUNDS".into())
    }
    let num = |i: usize| -> u64 { args.get(i).and_then(|s| s.parse().ok()).unwrap_or_else(|| usage()) };
    let mode = match args.get(1).map(String::as_str) {
        Some("bytes") if args.len() == 3 => Mode::Bytes(args[2].clone()),
        Some("read") if args.len() == 3 => Mode::Read(args[2].clone()),
        Some("callgrind") if args.len() == 4 => {
            let (n1, n2) = (num(2), num(3));
            if n1 < 2 || n2 <= n1 {
                die("need 2 <= N1 < N2".into());
            }
            Mode::Callgrind(n1, n2)
        }
        Some("ns") if args.len() == 3 => Mode::Ns(num(2).max(1) as u32),
        _ => usage(),
    };
    let peers = Peers::new();
    let cg = matches!(mode, Mode::Callgrind(..));
    if cg {
        unsafe { cgmark_start() };
    }
    workload("NumericStruct", numeric_struct(), &mode, &peers);
    workload("Sample", sample(), &mode, &peers);
    workload("MediaContent", media_content(), &mode, &peers);
    workload("NumericStructList", numeric_struct_list(), &mode, &peers);
    workload("SampleList", sample_list(), &mode, &peers);
    workload("MediaContentList", media_content_list(), &mode, &peers);
    if cg {
        unsafe { cgmark_stop() };
    }
}
