//! Names of the user's file that the generated host file's own headers
//! also declare.
//!
//! The host file puts pencilc's prelude, with its system headers
//! (`<stdlib.h>`, `<string.h>`, `<sys/time.h>`, ...), in front of the
//! user's code. A file that defines `select`, `index`, `time` or `random`
//! compiles alone, but not after those headers, which declare them (glibc
//! declares `select` in `<sys/select.h>`, which `<stdlib.h>` includes).
//! The back end renames such names while the prelude's headers are read
//! (`#define select pencilc_libc_select` ... `#undef select`), so the
//! user's own declarations are the only ones of the name.

use super::preprocess::CppOptions;
use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};
use tree_sitter::{Node, Parser};

/// Every system header a generated prelude includes (OpenCL's, CUDA's
/// and OpenMP's own names all have prefixes of their own).
const PRELUDE_HEADERS: &[&str] = &[
    "stddef.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "pthread.h",
    "sys/time.h",
    "time.h",
];

/// The preprocessor reading the prelude's headers, started early so that
/// it runs beside the user file's own preprocessing.
pub struct Probe(Option<std::process::Child>);

/// Starts the user's preprocessor on the prelude's headers.
pub fn start(cpp: &CppOptions) -> Probe {
    let command = cpp.cpp.clone().unwrap_or_else(|| "cc -E".to_string());
    let mut words = command.split_whitespace();
    let Some(program) = words.next() else {
        return Probe(None);
    };
    let mut cmd = Command::new(program);
    cmd.args(words)
        .args(["-P", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    crate::process::die_with_parent(&mut cmd);
    let Ok(mut child) = cmd.spawn() else {
        return Probe(None);
    };
    let input: String = PRELUDE_HEADERS
        .iter()
        .map(|h| format!("#include <{}>\n", h))
        .collect();
    let written = child
        .stdin
        .take()
        .is_some_and(|mut stdin| stdin.write_all(input.as_bytes()).is_ok());
    let mut probe = Probe(Some(child));
    if !written {
        probe.stop();
    }
    probe
}

impl Probe {
    /// The names `text` (the user's file as written) declares at file
    /// scope, also under `#if` blocks, that the prelude's headers declare
    /// too; none where the preprocessor could not read them.
    pub fn clashes(mut self, text: &str) -> BTreeSet<String> {
        let Some(child) = self.0.take() else {
            return BTreeSet::new();
        };
        let mine = file_scope_names(text);
        let Ok(output) = child.wait_with_output() else {
            return BTreeSet::new();
        };
        if !output.status.success() {
            return BTreeSet::new();
        }
        let mut found = BTreeSet::new();
        super::names::for_each_identifier(&String::from_utf8_lossy(&output.stdout), |w, _| {
            if mine.contains(w) {
                found.insert(w.to_string());
            }
        });
        found
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Probe {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The functions, variables and types `text` declares at file scope.
pub fn file_scope_names(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .is_err()
    {
        return out;
    }
    let Some(tree) = parser.parse(text, None) else {
        return out;
    };
    top_level(tree.root_node(), text.as_bytes(), &mut out);
    out
}

fn top_level(n: Node, src: &[u8], out: &mut BTreeSet<String>) {
    let mut cursor = n.walk();
    for child in n.named_children(&mut cursor) {
        match child.kind() {
            "function_definition" => {
                if let Some(d) = child.child_by_field_name("declarator") {
                    declared(d, src, out);
                }
            }
            // A prototype or an `extern` declaration of a library
            // function agrees with the header's; a definition of the name
            // as something else is what clashes.
            "type_definition" => {
                let mut c = child.walk();
                for d in child.children_by_field_name("declarator", &mut c) {
                    declared(d, src, out);
                }
            }
            "declaration" if !has_storage(child, src, "extern") => {
                // A `static` prototype gives the name internal linkage,
                // which the header's external declaration contradicts.
                let internal = has_storage(child, src, "static");
                let mut c = child.walk();
                for d in child.children_by_field_name("declarator", &mut c) {
                    if internal || !is_function_declarator(d) {
                        declared(d, src, out);
                    }
                }
            }
            k if k.starts_with("preproc_if")
                || k.starts_with("preproc_else")
                || k.starts_with("preproc_elif") =>
            {
                top_level(child, src, out)
            }
            _ => {}
        }
    }
}

/// Whether `decl` has the storage class `word` (`extern`, `static`).
fn has_storage(decl: Node, src: &[u8], word: &str) -> bool {
    let mut c = decl.walk();
    let found = decl
        .children(&mut c)
        .any(|k| k.kind() == "storage_class_specifier" && k.utf8_text(src) == Ok(word));
    found
}

/// `f(...)` or `*f(...)`: a function's prototype, not a variable.
fn is_function_declarator(d: Node) -> bool {
    let mut cur = d;
    loop {
        match cur.kind() {
            "function_declarator" => return true,
            "pointer_declarator" => match cur.child_by_field_name("declarator") {
                Some(inner) => cur = inner,
                None => return false,
            },
            _ => return false,
        }
    }
}

/// The name a declarator declares: the innermost identifier through
/// pointers, arrays, functions, parentheses and initialisers.
fn declared(d: Node, src: &[u8], out: &mut BTreeSet<String>) {
    let mut cur = d;
    loop {
        match cur.kind() {
            "identifier" | "type_identifier" => {
                if let Ok(name) = cur.utf8_text(src) {
                    out.insert(name.to_string());
                }
                return;
            }
            _ => match cur.child_by_field_name("declarator") {
                Some(inner) => cur = inner,
                None => return,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_scope_names_are_declarations_not_uses() {
        // A `static` prototype (the fuzzer's `static int puts(...)`) gives
        // the name internal linkage, against the header's declaration.
        let text = "#include <stdio.h>\nint printf(const char *, ...);\nstatic int puts(const char *);\nextern int errno_like;\nint select(int a) { return a; }\nstatic double index[10], *time;\ntypedef struct { int x; } timer_t;\n#ifdef X\nlong random = 3;\n#endif\nint main(void) { int local = select(1); return local; }\n";
        let names = file_scope_names(text);
        for n in [
            "select", "index", "time", "timer_t", "random", "main", "puts",
        ] {
            assert!(names.contains(n), "{} in {:?}", n, names);
        }
        for n in ["local", "printf", "errno_like"] {
            assert!(!names.contains(n), "{} in {:?}", n, names);
        }
    }

    #[test]
    fn the_system_headers_declare_select_on_glibc() {
        let text = "int select(int a) { return a; }\nint mine(void);\n";
        let found = start(&CppOptions::default()).clashes(text);
        if cfg!(target_env = "gnu") {
            assert!(found.contains("select"), "{:?}", found);
        }
        assert!(!found.contains("mine"), "{:?}", found);
    }

    /// Every header the host preludes include is probed: a header added to
    /// a template and not here would let its names clash unseen. The
    /// runtimes' own headers (CUDA's, OpenCL's, OpenMP's) are left out: the
    /// probe cannot count on finding them, and their names are prefixed.
    #[test]
    fn every_prelude_header_of_the_templates_is_probed() {
        const RUNTIMES: [&str; 5] = [
            "cuda_runtime.h",
            "cuda_runtime_api.h",
            "CL/cl.h",
            "OpenCL/opencl.h",
            "omp.h",
        ];
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
        let mut dirs = vec![root];
        let mut seen = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                for line in text.lines() {
                    let Some(rest) = line.trim_start().strip_prefix("#include <") else {
                        continue;
                    };
                    let header = rest.split('>').next().unwrap();
                    seen += 1;
                    assert!(
                        PRELUDE_HEADERS.contains(&header) || RUNTIMES.contains(&header),
                        "{} includes <{}>, which host_clashes does not probe",
                        path.display(),
                        header
                    );
                }
            }
        }
        assert!(seen >= 10, "{} includes found", seen);
    }
}
