//! The committed `include/othbook.h` is the one cbindgen makes from the sources now: a
//! changed function or struct without a regenerated header fails here.
//! `OTHBOOK_WRITE_HEADER=1 cargo test --release -p othbook-c --test header` rewrites it.

use std::path::Path;

#[test]
fn the_committed_header_is_current() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("config");
    let mut made = Vec::new();
    cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads the sources")
        .write(&mut made);
    let made = String::from_utf8(made).expect("UTF-8 header");
    let path = crate_dir.join("include/othbook.h");
    if std::env::var_os("OTHBOOK_WRITE_HEADER").is_some() {
        std::fs::write(&path, &made).expect("header written");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == made,
        "{} is not what cbindgen makes from capi/src: regenerate it with \
         `OTHBOOK_WRITE_HEADER=1 cargo test --release -p othbook-c --test header`",
        path.display()
    );
}
