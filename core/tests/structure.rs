//! The engine's shape, checked on its source text: the layers depend one way
//! (lib.rs states the order) and no function outside tests is longer than
//! [`MAX_FN_LINES`]. Test code is exempt: a scheme's tests may build a whole
//! simulation, and a scenario test may be long.

use std::path::{Path, PathBuf};

/// The longest a non-test function may be, signature to closing brace.
const MAX_FN_LINES: usize = 80;

/// Each top-level module with its layer: code may use `crate::m` only for a
/// module of a lower layer (or its own). Modules on one layer do not use
/// each other.
const LAYERS: &[(&str, u32)] = &[
    ("kernel", 0),
    ("net", 1),
    ("queue", 2),
    ("transport", 2),
    ("metrics", 3),
    ("scenario", 4),
    ("sim", 5),
    ("reproduce", 6),
    ("wasm_panic", 7),
    ("wasm", 7),
    ("bin", 7),
    ("testing", 7),
];

struct Source {
    /// Top-level module: the first path component under src/ ("lib" for lib.rs).
    module: String,
    path: PathBuf,
    /// Lines outside `#[cfg(test)]` modules, with their 1-based numbers.
    lines: Vec<(usize, String)>,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("read src").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Files that are whole test modules: declared `#[cfg(test)] mod name;`.
fn test_module_files(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut test_files = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        for pair in lines.windows(2) {
            if pair[0].trim() != "#[cfg(test)]" {
                continue;
            }
            let decl = pair[1].trim().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
            if let Some(name) = decl.strip_prefix("mod ").and_then(|d| d.strip_suffix(';')) {
                let dir = if file.ends_with("mod.rs") || file.ends_with("lib.rs") {
                    file.parent().expect("dir").to_path_buf()
                } else {
                    file.with_extension("")
                };
                test_files.push(dir.join(format!("{name}.rs")));
            }
        }
    }
    test_files
}

/// The lines of `text` outside inline `#[cfg(test)] mod … { … }` blocks.
fn non_test_lines(text: &str) -> Vec<(usize, String)> {
    let mut kept = Vec::new();
    let mut skip_until: Option<String> = None;
    let mut after_cfg_test = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(end) = &skip_until {
            if line == end {
                skip_until = None;
            }
            continue;
        }
        let trimmed = line.trim_start();
        if after_cfg_test && trimmed.contains("mod ") && trimmed.ends_with('{') {
            let indent = &line[..line.len() - trimmed.len()];
            skip_until = Some(format!("{indent}}}"));
            after_cfg_test = false;
            continue;
        }
        after_cfg_test = trimmed == "#[cfg(test)]";
        kept.push((i + 1, line.to_string()));
    }
    kept
}

fn sources() -> Vec<Source> {
    let src = src_dir();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let test_files = test_module_files(&files);
    files
        .into_iter()
        .filter(|f| !test_files.contains(f))
        .map(|path| {
            let rel = path.strip_prefix(&src).expect("under src");
            let first = rel.components().next().expect("component").as_os_str().to_string_lossy().to_string();
            let module = first.trim_end_matches(".rs").to_string();
            let text = std::fs::read_to_string(&path).expect("read");
            Source { module, lines: non_test_lines(&text), path }
        })
        .collect()
}

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// Every `crate::m` a line names.
fn crate_uses(line: &str) -> Vec<String> {
    line.match_indices("crate::")
        .filter(|(i, _)| !line[..*i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(i, m)| line[i + m.len()..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect())
        .collect()
}

#[test]
fn layers_depend_one_way() {
    let mut violations = Vec::new();
    for source in sources() {
        if source.module == "lib" {
            continue;
        }
        let own = layer(&source.module).unwrap_or_else(|| panic!("{}: add its module to LAYERS", source.module));
        for (n, line) in &source.lines {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for used in crate_uses(line) {
                let Some(theirs) = layer(&used) else { continue };
                if used != source.module && theirs >= own {
                    violations.push(format!("{}:{n}: {} uses crate::{used}", source.path.display(), source.module));
                }
            }
        }
    }
    assert!(violations.is_empty(), "dependencies against the layer order:\n{}", violations.join("\n"));
}

#[test]
fn no_function_is_too_long() {
    let mut long = Vec::new();
    for source in sources() {
        let lines = &source.lines;
        for (k, (n, line)) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let is_fn = ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn ", "const fn ", "pub const fn "]
                .iter()
                .any(|p| trimmed.starts_with(p));
            if !is_fn || trimmed.ends_with(';') || trimmed.ends_with('}') {
                continue;
            }
            let indent = &line[..line.len() - trimmed.len()];
            let end = format!("{indent}}}");
            let Some((last, _)) = lines[k + 1..].iter().find(|(_, l)| *l == end) else { continue };
            let length = last - n + 1;
            if length > MAX_FN_LINES {
                long.push(format!("{}:{n}: {length} lines", source.path.display()));
            }
        }
    }
    assert!(long.is_empty(), "functions over {MAX_FN_LINES} lines (split them):\n{}", long.join("\n"));
}

#[test]
fn the_checks_see_what_they_should() {
    assert_eq!(
        crate_uses("use crate::queue::Qdisc; my_crate::no; crate::net::Packet"),
        ["queue", "net"].map(String::from).to_vec()
    );
    let text = "fn a() {}\n#[cfg(test)]\nmod tests {\n    use crate::sim::Simulation;\n}\nfn b() {}";
    let kept: Vec<_> = non_test_lines(text).into_iter().map(|(n, _)| n).collect();
    assert_eq!(kept, [1, 2, 6]);
    let all = sources();
    assert!(all.iter().any(|s| s.path.ends_with("queue/red.rs")));
    assert!(!all.iter().any(|s| s.path.ends_with("sim/tests.rs")), "sim/tests.rs is a test module");
}
