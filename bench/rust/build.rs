// Builds ../cgmark.c (callgrind client requests, thread CPU clock) into a
// static library with the system C compiler and links it: no crates beyond
// fory are needed. Needs the valgrind headers (<valgrind/callgrind.h>).
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn run(cmd: &mut Command) {
    let status = cmd.status().unwrap_or_else(|e| panic!("cannot run {:?}: {}", cmd, e));
    assert!(status.success(), "{:?} failed", cmd);
}

fn main() {
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let src = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap()).join("../cgmark.c");
    let obj = out.join("cgmark.o");
    let lib = out.join("libcgmark.a");
    let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
    run(Command::new(&cc)
        .args(["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-fPIC", "-c"])
        .arg(&src)
        .arg("-o")
        .arg(&obj));
    let _ = std::fs::remove_file(&lib);
    run(Command::new("ar").arg("crs").arg(&lib).arg(&obj));
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=static=cgmark");
    println!("cargo:rerun-if-changed={}", src.display());
}
