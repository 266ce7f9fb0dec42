//! PENCIL's and pet's builtins known without their header.
//!
//! pet reads `__pencil_assume`, `__pencil_kill`, the summary functions'
//! `__pencil_use`/`__pencil_def`/`__pencil_maybe`, and the integer
//! operations `min`, `max`, `imin`, `imax`, `umin`, `umax`, `floord`,
//! `ceild` (and Omega's `intFloor`, `intCeil`, `intMod`) as builtins whether or not
//! the file declares them (PPCG's and pet's own test programs call them
//! without `#include`). pencilc does the same: a builtin the file calls
//! but never declares is known by its meaning here, the C compiler's check
//! does not count its implicit declaration against the region, and every
//! host file pencilc writes defines it in its prelude, so that the
//! original code kept in the output builds. A file that declares or
//! defines one of these names (or makes it a macro, which the
//! preprocessor has expanded before pencilc reads the file) keeps its own.

use std::collections::BTreeSet;
use tree_sitter::Node;

/// A builtin and its plain-C definition for the host prelude.
pub struct Builtin {
    pub name: &'static str,
    /// The name the model and the generated code give its calls, where
    /// that is another (`floord` is `pencilc_floord`, which every
    /// generated file defines); `None`: the name is kept.
    pub model_name: Option<&'static str>,
    pub definition: &'static str,
    /// How many arguments a call takes; `None`: any number.
    pub arity: Option<usize>,
}

/// The builtins, in the order their definitions are printed.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "__pencil_assume",
        model_name: None,
        definition: "#define __pencil_assume(e) ((void)sizeof((e) ? 1 : 0))",
        arity: Some(1),
    },
    Builtin {
        name: "__pencil_kill",
        model_name: None,
        definition: "#define __pencil_kill(...) ((void)0)",
        arity: None,
    },
    Builtin {
        name: "__pencil_use",
        model_name: None,
        definition: "#define __pencil_use(...) ((void)0)",
        arity: None,
    },
    Builtin {
        name: "__pencil_def",
        model_name: None,
        definition: "#define __pencil_def(...) ((void)0)",
        arity: None,
    },
    Builtin {
        name: "__pencil_maybe",
        model_name: None,
        definition: "#define __pencil_maybe() 1",
        arity: Some(0),
    },
    // PENCIL's `min` and `max` are the `int` ones (pencil.h), as pencilc's
    // model and its OpenCL kernels take them.
    Builtin {
        name: "min",
        model_name: None,
        definition: "static inline int min(int a, int b) { return a < b ? a : b; }",
        arity: Some(2),
    },
    Builtin {
        name: "max",
        model_name: None,
        definition: "static inline int max(int a, int b) { return a > b ? a : b; }",
        arity: Some(2),
    },
    Builtin {
        name: "imin",
        model_name: None,
        definition: "static inline int imin(int a, int b) { return a < b ? a : b; }",
        arity: Some(2),
    },
    Builtin {
        name: "imax",
        model_name: None,
        definition: "static inline int imax(int a, int b) { return a > b ? a : b; }",
        arity: Some(2),
    },
    Builtin {
        name: "umin",
        model_name: None,
        definition: "static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }",
        arity: Some(2),
    },
    Builtin {
        name: "umax",
        model_name: None,
        definition: "static inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }",
        arity: Some(2),
    },
    // pet's divisions round down and up for a positive divisor, whatever
    // the dividend's sign, in the dividend's type.
    Builtin {
        name: "floord",
        model_name: Some("pencilc_floord"),
        definition: "#define floord(n, d) pencilc_floord(n, d)",
        arity: Some(2),
    },
    Builtin {
        name: "ceild",
        model_name: Some("pencilc_ceild"),
        definition: "#define ceild(n, d) pencilc_ceild(n, d)",
        arity: Some(2),
    },
    // The same divisions under the names of the Omega library, which
    // pet knows too.
    Builtin {
        name: "intFloor",
        model_name: Some("pencilc_floord"),
        definition: "#define intFloor(n, d) pencilc_floord(n, d)",
        arity: Some(2),
    },
    Builtin {
        name: "intCeil",
        model_name: Some("pencilc_ceild"),
        definition: "#define intCeil(n, d) pencilc_ceild(n, d)",
        arity: Some(2),
    },
    // And the remainder of that division (never negative).
    Builtin {
        name: "intMod",
        model_name: Some("pencilc_intmod"),
        definition: "#define intMod(n, d) pencilc_intmod(n, d)",
        arity: Some(2),
    },
];

pub fn builtin(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// The builtins the file rooted at `root` calls without declaring them
/// anywhere (a prototype, a definition, a local declaration, a macro).
pub fn undeclared(root: Node, src: &[u8]) -> BTreeSet<String> {
    let (mut called, declared) = calls_and_declarations(root, src);
    called.retain(|n| !declared.contains(n));
    called
}

/// Of the builtins `found` that the preprocessed file calls without
/// declaring them, those that the file as written (`raw`, every branch of
/// its conditionals) declares nowhere either: definitions for the
/// program's own build under `#ifndef __PENCIL__` stay the program's, and
/// the host file does not define them a second time.
pub fn undeclared_as_written(found: &BTreeSet<String>, raw: &str) -> BTreeSet<String> {
    let mut parser = tree_sitter::Parser::new();
    let mut found = found.clone();
    if found.is_empty()
        || parser
            .set_language(&tree_sitter_c::LANGUAGE.into())
            .is_err()
    {
        return found;
    }
    if let Some(tree) = parser.parse(raw, None) {
        let (_, declared) = calls_and_declarations(tree.root_node(), raw.as_bytes());
        found.retain(|n| !declared.contains(n));
    }
    found
}

/// The builtins called, and every name declared or defined as a macro.
fn calls_and_declarations(root: Node, src: &[u8]) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut called = BTreeSet::new();
    let mut declared = BTreeSet::new();
    let text = |n: Node| n.utf8_text(src).unwrap_or("").to_string();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "call_expression" => {
                if let Some(f) = n.child_by_field_name("function") {
                    if f.kind() == "identifier" && builtin(&text(f)).is_some() {
                        called.insert(text(f));
                    }
                }
            }
            "preproc_def" | "preproc_function_def" => {
                if let Some(d) = n.child_by_field_name("name") {
                    declared.insert(text(d));
                }
            }
            "function_declarator" | "init_declarator" | "declaration" | "parameter_declaration" => {
                if let Some(d) = n.child_by_field_name("declarator") {
                    if d.kind() == "identifier" {
                        declared.insert(text(d));
                    }
                }
            }
            _ => {}
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    (called, declared)
}

/// The function an implicit-declaration error of gcc or clang names
/// (`implicit declaration of function ‘floord’`, `call to undeclared
/// function 'floord'`), if the message is one.
pub fn implicitly_declared(message: &str) -> Option<&str> {
    // gcc reads an implicit declaration in a `for` loop's initialiser as
    // a declaration of the loop's (`declaration of non-variable ‘max’ in
    // ‘for’ loop initial declaration`).
    if !message.contains("implicit declaration of function")
        && !message.contains("call to undeclared function")
        && !message.contains("declaration of non-variable")
    {
        return None;
    }
    let quotes: &[char] = &['\'', '‘', '’', '`', '"'];
    let start = message.find(quotes)?;
    let rest = &message[start..];
    let rest = &rest[rest.chars().next()?.len_utf8()..];
    let end = rest.find(quotes)?;
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> tree_sitter::Tree {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&tree_sitter_c::LANGUAGE.into()).unwrap();
        p.parse(src, None).unwrap()
    }

    #[test]
    fn calls_without_a_declaration_are_the_builtins() {
        let src = "int floord(int, int);\nvoid f(int n) { int min = 2; n = floord(n, 2) + ceild(n, 3) + imax(n, min); __pencil_assume(n > 0); }";
        let t = parse(src);
        let found: Vec<String> = undeclared(t.root_node(), src.as_bytes())
            .into_iter()
            .collect();
        assert_eq!(found, ["__pencil_assume", "ceild", "imax"]);
    }

    #[test]
    fn definitions_for_the_programs_own_build_count() {
        let raw = "#ifndef __PENCIL__\nstatic int imax(int a, int b) { return a > b ? a : b; }\n#define ceild(n, d) ((n + d - 1) / d)\n#endif\nvoid f(int n) { n = ceild(n, 3) + imax(n, 2) + floord(n, 2); }";
        let pp = "void f(int n) { n = ceild(n, 3) + imax(n, 2) + floord(n, 2); }";
        let t = parse(pp);
        let known = undeclared(t.root_node(), pp.as_bytes());
        assert_eq!(known.len(), 3);
        let found: Vec<String> = undeclared_as_written(&known, raw).into_iter().collect();
        assert_eq!(found, ["floord"]);
    }

    #[test]
    fn compiler_messages_name_the_function() {
        assert_eq!(
            implicitly_declared(
                "implicit declaration of function ‘floord’ [-Werror=implicit-function-declaration]"
            ),
            Some("floord")
        );
        assert_eq!(
            implicitly_declared("call to undeclared function 'ceild'; ISO C99 and later do not support implicit function declarations"),
            Some("ceild")
        );
        assert_eq!(
            implicitly_declared(
                "declaration of non-variable ‘max’ in ‘for’ loop initial declaration"
            ),
            Some("max")
        );
        assert_eq!(implicitly_declared("expected ';' before '}' token"), None);
    }
}
