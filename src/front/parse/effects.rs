//! What a call of a function of the file may touch, read from the
//! function's syntax (whether or not its body reads as region code): the
//! model sees a call's arguments only, so a callee that reaches further
//! (a variable of the file, a `static` local kept between calls, a
//! function with effects of its own such as `printf`) cannot be ordered
//! against the region's other statements, and one that indexes past the
//! element whose address it gets (`p[1]` of `&A[i][j]`) reaches more of
//! the array than that element.

use super::called::CallFacts;
use super::Cx;
use crate::front::syntax::VarDecl;
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

/// The functions of the file, as far as a callee's calls need them.
pub(super) struct FileFunctions {
    /// Defined in the file: their calls are followed (`CallFacts::calls`).
    pub defined: BTreeSet<String>,
    /// Declared in the user's own file (not a system header) without a
    /// body: a call statement of one touches what its arguments pass, as
    /// PENCIL's rule for functions without code says, as in a region.
    pub declared: BTreeSet<String>,
    /// Of those, the ones that return a number and get no writable
    /// pointer: taken as pure where an expression calls them, as in a
    /// region.
    pub pure_declared: BTreeSet<String>,
    /// Declared only in system headers (`putchar`, `printf`, `free`), other
    /// than C's math functions and those that touch nothing but what their
    /// pointer arguments point to (`memset`): a region that calls one as a
    /// statement may do input or output or change state no argument shows.
    pub library: BTreeSet<String>,
}

/// Library functions whose only effects are on what their arguments point
/// to, as PENCIL's rule for functions without code says.
const ARGUMENTS_ONLY: [&str; 3] = ["memcpy", "memmove", "memset"];

/// Whether a function declared only in a system header may have effects
/// beyond its arguments (`FileFunctions::library`).
pub(super) fn library_effects(name: &str) -> bool {
    !known_pure(name) && !ARGUMENTS_ONLY.contains(&name)
}

impl Cx<'_> {
    /// The facts of function `f` (a definition). A call of any other
    /// function (`printf`, a function pointer) may have effects of its
    /// own.
    pub(super) fn call_facts(
        &self,
        f: Node,
        globals: &BTreeMap<String, VarDecl>,
        functions: &FileFunctions,
    ) -> CallFacts {
        let params = self.param_names(f);
        let Some(body) = f.child_by_field_name("body") else {
            return CallFacts::unseen("it has no body".into());
        };
        let mut scan = Scan {
            cx: self,
            params: &params,
            globals,
            functions,
            unseen: None,
            calls: BTreeSet::new(),
            beyond_first: BTreeSet::new(),
            reads: BTreeSet::new(),
            written_through: BTreeSet::new(),
        };
        scan.node(body);
        CallFacts::new(
            params
                .iter()
                .map(|p| !scan.beyond_first.contains(p))
                .collect(),
            params
                .iter()
                .map(|p| !scan.written_through.contains(p))
                .collect(),
            scan.unseen,
            scan.reads,
            scan.calls,
        )
    }

    /// The names of `f`'s parameters, in order.
    pub(super) fn param_names(&self, f: Node) -> Vec<String> {
        super::file_index::param_names(f, self.src)
    }
}

struct Scan<'c, 'a> {
    cx: &'c Cx<'a>,
    params: &'c [String],
    globals: &'c BTreeMap<String, VarDecl>,
    functions: &'c FileFunctions,
    unseen: Option<String>,
    calls: BTreeSet<String>,
    /// Parameters used otherwise than as their first element.
    beyond_first: BTreeSet<String>,
    /// Variables of the file it only reads.
    reads: BTreeSet<String>,
    /// Parameters it may write through (or pass on, or take apart).
    written_through: BTreeSet<String>,
}

impl Scan<'_, '_> {
    fn node(&mut self, n: Node) {
        match n.kind() {
            "declaration" => {
                let mut c = n.walk();
                let storage: Vec<&str> = n
                    .children(&mut c)
                    .filter(|k| k.kind() == "storage_class_specifier")
                    .map(|k| self.cx.text(k))
                    .collect();
                if storage.contains(&"static") {
                    self.say(format!(
                        "it keeps `{}` between calls (a `static` local)",
                        self.cx.text(n).trim()
                    ));
                } else if storage.contains(&"extern") {
                    self.say(format!(
                        "it declares `{}`, a variable of the program",
                        self.cx.text(n).trim()
                    ));
                }
            }
            "gnu_asm_expression" => {
                self.say("it runs inline assembly".into());
                return;
            }
            "call_expression" => {
                if let Some(f) = n.child_by_field_name("function") {
                    if f.kind() == "identifier" {
                        let name = self.cx.text(f);
                        let in_expression = n
                            .parent()
                            .is_some_and(|p| p.kind() != "expression_statement");
                        let f = self.functions;
                        if f.defined.contains(name) {
                            self.calls.insert(name.to_string());
                        } else {
                            // Pure by the region's rules: math, PENCIL's
                            // builtins, a declared function of numbers in
                            // an expression; a declared function called
                            // as a statement follows PENCIL's rule.
                            let known = known_pure(name)
                                || if in_expression {
                                    f.pure_declared.contains(name)
                                } else {
                                    f.declared.contains(name)
                                };
                            if known {
                                return self.args(n);
                            }
                            self.say(format!(
                                "it calls `{}`, which this file does not define",
                                name
                            ));
                        }
                        return self.args(n);
                    }
                }
            }
            "identifier" => {
                let name = self.cx.text(n);
                if self.params.iter().any(|p| p == name) {
                    if !first_element_use(self.cx, n) {
                        self.beyond_first.insert(name.to_string());
                    }
                    if !read_through(self.cx, n) {
                        self.written_through.insert(name.to_string());
                    }
                } else if let Some(g) = self.globals.get(name) {
                    // A constant's value is fixed; a pointer may point to
                    // what the region writes.
                    let pointer = g.pointer || g.dims.first() == Some(&None);
                    if pointer {
                        self.say(format!(
                            "its body uses `{}`, a pointer of the file, which may point to what the region writes",
                            name
                        ));
                    } else if !only_read(self.cx, n) {
                        self.say(format!(
                            "its body writes or passes on `{}`, a variable of the file",
                            name
                        ));
                    } else if !g.read_only {
                        self.reads.insert(name.to_string());
                    }
                }
                return;
            }
            _ => {}
        }
        let mut c = n.walk();
        for k in n.children(&mut c) {
            self.node(k);
        }
    }

    /// The arguments of call `n`.
    fn args(&mut self, n: Node) {
        if let Some(args) = n.child_by_field_name("arguments") {
            self.node(args);
        }
    }

    fn say(&mut self, why: String) {
        self.unseen.get_or_insert(why);
    }
}

/// Functions whose calls touch nothing but their arguments' values: C's
/// math functions and PENCIL's builtins.
fn known_pure(name: &str) -> bool {
    crate::front::arith::PURE_FUNCTIONS.contains(&name) || name.starts_with("__pencil_")
}

/// Whether identifier `n` (a variable, or an element or member of it) is
/// only read where it stands: not assigned, incremented, taken the address
/// of, or passed to a call (an array would decay to a pointer).
fn only_read(cx: &Cx, n: Node) -> bool {
    let mut cur = n;
    while let Some(p) = cur.parent() {
        let through = match p.kind() {
            "subscript_expression" => p.child_by_field_name("argument") == Some(cur),
            "field_expression" | "parenthesized_expression" => true,
            _ => false,
        };
        if !through {
            return match p.kind() {
                "assignment_expression" => p.child_by_field_name("left") != Some(cur),
                "update_expression" | "argument_list" => false,
                "pointer_expression" => p
                    .child_by_field_name("operator")
                    .is_some_and(|o| cx.text(o) == "*"),
                _ => true,
            };
        }
        cur = p;
    }
    true
}

/// The expression through which identifier `n` (a pointer or array)
/// reaches an element, with its subscript where it is one: `p[i]`, `*p`,
/// `p->m`; `None` where `n` is used otherwise (as a value, passed on).
fn element_through<'t>(cx: &Cx, n: Node<'t>) -> Option<(Node<'t>, Option<Node<'t>>)> {
    let parent = n.parent()?;
    let through = match parent.kind() {
        "subscript_expression" => {
            return (parent.child_by_field_name("argument") == Some(n))
                .then(|| (parent, parent.child_by_field_name("index")));
        }
        "pointer_expression" => "*",
        "field_expression" => "->",
        _ => return None,
    };
    parent
        .child_by_field_name("operator")
        .is_some_and(|o| cx.text(o) == through)
        .then_some((parent, None))
}

/// Whether identifier `n` (a parameter) is used as the element it points
/// to: `*p`, `p[0]` (and `p[0][k]`), `p->m`.
fn first_element_use(cx: &Cx, n: Node) -> bool {
    element_through(cx, n).is_some_and(|(_, index)| index.is_none_or(|i| cx.text(i).trim() == "0"))
}

/// Whether identifier `n` (a pointer or array parameter) is used to read
/// what it points to and for nothing else: `p[i]`, `p[i][j]`, `*p`,
/// `p->m` read, never written, passed on, or used as a value (`p + 1`).
fn read_through(cx: &Cx, n: Node) -> bool {
    element_through(cx, n).is_some_and(|(at, _)| only_read(cx, at))
}
