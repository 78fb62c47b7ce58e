//! The engine's integration tests, linked as one test binary: each file in
//! this directory is a module here rather than a binary of its own, which
//! saves a compile and a link per file (Cargo.toml sets `autotests = false`).
//! A new test file needs its `mod` line below; `every_test_file_is_a_module`
//! fails until it has one. The CLI's tests live here too: the `aqm-sim`
//! binary's own test harness is not built (`test = false`), so
//! `no_tests_in_the_cli_binary` keeps `#[test]`s out of it.

mod capture;
mod cli_decisions;
mod cli_sweep;
mod fuzz;
mod structure;

use std::fs;
use std::path::Path;

fn rust_files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_test_file_is_a_module() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = fs::read_to_string(dir.join("main.rs")).unwrap();
    for name in rust_files_in(&dir) {
        let module = name.trim_end_matches(".rs");
        if module != "main" {
            assert!(
                main.contains(&format!("\nmod {module};\n")),
                "core/tests/{name} is not compiled: add `mod {module};` to core/tests/main.rs"
            );
        }
    }
}

#[test]
fn no_tests_in_the_cli_binary() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin");
    for name in rust_files_in(&dir) {
        let text = fs::read_to_string(dir.join(&name)).unwrap();
        assert!(
            !text.contains("#[test]"),
            "src/bin/{name} has a #[test], which `cargo test` does not build (test = false): move it to core/tests/"
        );
    }
}
