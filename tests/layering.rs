//! Imports run only downstream along the pipeline (issue 35): a stage may
//! use the shared utilities and the stages before it, never a stage after
//! it, so that each stage can be read and changed alone. Shared utilities
//! (diagnostics, isl helpers, process control, files, the device
//! description) sit below every stage; the driver and what runs it sit
//! above.

mod common;
use common::root;
use std::path::Path;

/// Each top-level module of `src/` and its layer: a module may use modules
/// of lower layers, and its own.
const LAYERS: &[(&str, u32)] = &[
    ("path_serde", 0),
    ("process", 0),
    ("clock", 0),
    ("diag", 1),
    ("files", 2),
    ("cmdline", 2),
    ("depfile", 2),
    ("isl", 2),
    ("device", 3),
    ("front", 10),
    ("scop", 11),
    ("deps", 12),
    ("sched", 13),
    ("valid", 14),
    ("map", 15),
    ("ast", 16),
    ("back", 17),
    ("profile", 18),
    ("ladder", 20),
    ("driver", 21),
    ("batch", 22),
    ("build_step", 22),
    ("watchdog", 23),
    ("harness", 23),
];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// The top-level modules `text` names as `crate::<module>`.
fn uses(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push((k + 1, name));
            }
            rest = after;
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn imports_run_only_downstream() {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    let mut unknown = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let top = rel
            .iter()
            .next()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if matches!(top.as_str(), "lib" | "main" | "bin") {
            continue;
        }
        let Some(mine) = layer(&top) else {
            unknown.push(top);
            continue;
        };
        let text = std::fs::read_to_string(f).unwrap();
        for (line, used) in uses(&text) {
            match layer(&used) {
                Some(l) if used == top || l < mine => {}
                Some(_) => wrong.push(format!(
                    "src/{}:{}: {} uses {}",
                    rel.display(),
                    line,
                    top,
                    used
                )),
                None => unknown.push(used),
            }
        }
    }
    unknown.sort();
    unknown.dedup();
    assert!(
        unknown.is_empty(),
        "modules missing from LAYERS: {:?}",
        unknown
    );
    assert!(
        wrong.is_empty(),
        "imports against the pipeline:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_checker_sees_an_upstream_import() {
    let found =
        uses("use crate::back::cexpr::plain; // crate::driver\nlet x = crate::isl::Isl::new(1);");
    assert_eq!(found, vec![(1, "back".to_string()), (2, "isl".to_string())]);
}
