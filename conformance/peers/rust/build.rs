// Compiles the user types in when LIBWIRE_RUST_USERTYPES names the file that
// conformance/peers/usertypes (rust) writes (foryc's code for the fixtures'
// schemas and the peer's glue); without it the peer claims no user types.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(lw_usertypes)");
    println!("cargo::rerun-if-env-changed=LIBWIRE_RUST_USERTYPES");
    if let Ok(path) = std::env::var("LIBWIRE_RUST_USERTYPES") {
        if std::path::Path::new(&path).is_file() {
            println!("cargo::rustc-cfg=lw_usertypes");
            println!("cargo::rustc-env=LW_USERTYPES_RS={path}");
            println!("cargo::rerun-if-changed={path}");
        }
    }
}
