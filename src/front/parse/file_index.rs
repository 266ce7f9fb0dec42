//! The file's tree walked once for the questions that `call_values` and
//! `dead_memory` ask for every region: the calls of each function by name,
//! how often each name is used, and each function's identifiers and jumps
//! (on first use). Walking the tree for each region and array made a file
//! of 300 kernels, called from one `main`, take 30 s to parse.

use super::dead_after::jumps;
use crate::front::names::for_each_identifier;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use tree_sitter::Node;

pub(super) struct FileIndex<'t> {
    pub src: &'t [u8],
    /// The file's function definitions by name.
    pub defined: BTreeMap<String, Node<'t>>,
    /// No other file calls the file's functions (`--whole-program`).
    pub whole_program: bool,
    /// Callee name → the file's calls of it by name.
    calls: HashMap<&'t str, Vec<Node<'t>>>,
    /// Identifier → how often the file names it as an expression (not as
    /// the declarator of a function).
    named: HashMap<&'t str, usize>,
    /// Function definition (node id) → its identifiers by name.
    idents: RefCell<HashMap<usize, Rc<HashMap<&'t str, Vec<Node<'t>>>>>>,
    /// Function definition (node id) → whether it has jumps.
    jumpy: RefCell<HashMap<usize, bool>>,
}

impl<'t> FileIndex<'t> {
    /// The index of tree `root` over `src`, with the file's function
    /// definitions by name.
    pub fn new(
        src: &'t [u8],
        root: Node<'t>,
        defined: BTreeMap<String, Node<'t>>,
        whole_program: bool,
    ) -> Self {
        let mut calls: HashMap<&'t str, Vec<Node<'t>>> = HashMap::new();
        let mut named: HashMap<&'t str, usize> = HashMap::new();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "identifier" => {
                    let declarator = n
                        .parent()
                        .is_some_and(|p| p.kind() == "function_declarator");
                    if !declarator {
                        *named.entry(n.utf8_text(src).unwrap_or("")).or_default() += 1;
                    }
                }
                "call_expression" => {
                    if let Some(f) = n
                        .child_by_field_name("function")
                        .filter(|f| f.kind() == "identifier")
                    {
                        calls
                            .entry(f.utf8_text(src).unwrap_or(""))
                            .or_default()
                            .push(n);
                    }
                }
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
        // The walk is last child first: calls in the file's order.
        for list in calls.values_mut() {
            list.sort_by_key(|n| n.start_byte());
        }
        FileIndex {
            src,
            defined,
            whole_program,
            calls,
            named,
            idents: RefCell::new(HashMap::new()),
            jumpy: RefCell::new(HashMap::new()),
        }
    }

    pub fn text(&self, n: Node) -> &'t str {
        n.utf8_text(self.src).unwrap_or("")
    }

    /// The file's calls of `function` by name, in order.
    pub fn calls_of(&self, function: &str) -> &[Node<'t>] {
        self.calls.get(function).map_or(&[], |c| c.as_slice())
    }

    /// How often the file names `name` as an expression.
    pub fn named(&self, name: &str) -> usize {
        self.named.get(name).copied().unwrap_or(0)
    }

    /// Whether only the file calls function `name` (defined as `f`), by
    /// name: it is `static` or the file is the whole program (but for
    /// `main`, which C's start-up calls), and the file takes no pointer
    /// to it (every use of its name is a call).
    pub fn file_only(&self, f: Node, name: &str) -> bool {
        let mut c = f.walk();
        let is_static = f
            .children(&mut c)
            .any(|n| n.kind() == "storage_class_specifier" && self.text(n) == "static");
        (is_static || (self.whole_program && name != "main")) && self.called_by_name_only(name)
    }

    /// Whether the file calls function `name` and uses its name for
    /// nothing else: no pointer to it escapes.
    pub fn called_by_name_only(&self, name: &str) -> bool {
        let calls = self.calls_of(name).len();
        calls > 0 && self.named(name) == calls
    }

    /// The identifiers spelled `name` in function definition `f`.
    pub fn mentions(&self, f: Node<'t>, name: &str) -> Vec<Node<'t>> {
        let index = self
            .idents
            .borrow_mut()
            .entry(f.id())
            .or_insert_with(|| {
                let mut by_name: HashMap<&'t str, Vec<Node<'t>>> = HashMap::new();
                let mut stack = vec![f];
                while let Some(x) = stack.pop() {
                    if x.kind() == "identifier" {
                        by_name.entry(self.text(x)).or_default().push(x);
                    }
                    let mut c = x.walk();
                    stack.extend(x.children(&mut c));
                }
                Rc::new(by_name)
            })
            .clone();
        index.get(name).cloned().unwrap_or_default()
    }

    /// Whether function `f` has a jump (`front::parse::dead_after::jumps`).
    pub fn has_jumps(&self, f: Node) -> bool {
        *self.jumpy.borrow_mut().entry(f.id()).or_insert_with(|| {
            let mut jumped = false;
            for_each_identifier(self.text(f), |w, _| jumped |= jumps(w));
            jumped
        })
    }
}

/// The function declarator of definition `f`.
fn function_declarator(f: Node) -> Option<Node> {
    let mut d = f.child_by_field_name("declarator");
    while let Some(n) = d {
        if n.kind() == "function_declarator" {
            return Some(n);
        }
        d = n.child_by_field_name("declarator");
    }
    None
}

/// Definition `f`'s parameter declarations, in order.
pub(super) fn param_decls(f: Node) -> Vec<Node> {
    let Some(list) = function_declarator(f).and_then(|d| d.child_by_field_name("parameters"))
    else {
        return Vec::new();
    };
    let mut c = list.walk();
    let decls = list
        .named_children(&mut c)
        .filter(|p| p.kind() == "parameter_declaration")
        .collect();
    decls
}

/// The names of definition `f`'s parameters, in order (empty for one
/// without a name).
pub(super) fn param_names(f: Node, src: &[u8]) -> Vec<String> {
    param_decls(f)
        .into_iter()
        .map(|p| {
            p.child_by_field_name("declarator")
                .and_then(|d| super::declared_name(d, src))
                .unwrap_or_default()
        })
        .collect()
}

/// Whether a declaration in `scope` declares `name` as a variable (an
/// object or a pointer, a function pointer included) rather than as a
/// function: in a function definition, its parameters and every
/// declaration of its body, whatever the block; in a translation unit,
/// its file-scope declarations. A call by that name then goes where the
/// variable points, not to a function of the file.
pub(super) fn declares_variable(scope: Node, name: &str, src: &[u8]) -> bool {
    fn walk(n: Node, name: &str, src: &[u8], deep: bool) -> bool {
        if n.kind() == "identifier" && n.utf8_text(src).is_ok_and(|t| t == name) && in_declarator(n)
        {
            return true;
        }
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        kids.into_iter()
            .any(|k| (deep || k.kind() != "function_definition") && walk(k, name, src, deep))
    }
    // The identifier names what a declaration or parameter declares, and
    // not as a function's name: its way up to the declaration passes no
    // expression, and its parent is no function declarator (`void
    // put(int)` declares a function, `void (*put)(int)` a pointer).
    fn in_declarator(id: Node) -> bool {
        let Some(parent) = id.parent() else {
            return false;
        };
        if parent.kind() == "function_declarator" {
            return false;
        }
        let mut n = id;
        while let Some(p) = n.parent() {
            match p.kind() {
                "declaration" | "parameter_declaration" => {
                    return p
                        .child_by_field_name("declarator")
                        .is_some_and(|_| is_declarator_of(p, n));
                }
                // `(*put)`: the parentheses hold nothing but a declarator.
                "parenthesized_declarator" => {}
                "pointer_declarator"
                | "array_declarator"
                | "function_declarator"
                | "init_declarator"
                | "attributed_declarator" => {
                    // Only down a declarator's own `declarator` field: a
                    // size or an initial value is an expression.
                    if p.child_by_field_name("declarator") != Some(n) {
                        return false;
                    }
                }
                _ => return false,
            }
            n = p;
        }
        false
    }
    fn is_declarator_of(decl: Node, d: Node) -> bool {
        let mut c = decl.walk();
        let found = decl
            .children_by_field_name("declarator", &mut c)
            .any(|x| x == d);
        found
    }
    match scope.kind() {
        "function_definition" => walk(scope, name, src, true),
        _ => walk(scope, name, src, false),
    }
}

impl super::Cx<'_> {
    /// Whether the identifier `f` (a callee's name) is a variable where
    /// it stands: declared as one in its function (any block: the check
    /// is by name) or at file scope.
    pub(super) fn names_a_variable(&self, f: Node) -> bool {
        let name = self.text(f);
        let Some(function) = enclosing_function(f) else {
            return false;
        };
        let mut root = function;
        while let Some(p) = root.parent() {
            root = p;
        }
        declares_variable(function, name, self.src) || declares_variable(root, name, self.src)
    }
}

/// Whether definition `f` defines a function inside its body (GCC's
/// nested functions): such a function reads `f`'s variables, by name
/// but wherever it is called from.
pub(super) fn has_nested_function(f: Node) -> bool {
    let Some(body) = f.child_by_field_name("body") else {
        return false;
    };
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.kind() == "function_definition" {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.named_children(&mut c));
    }
    false
}

/// The function definition around `n`.
pub(super) fn enclosing_function(n: Node) -> Option<Node> {
    let mut n = n;
    while n.kind() != "function_definition" {
        n = n.parent()?;
    }
    Some(n)
}

/// The function definitions at the top of a tree, by name: the tests'
/// stand-in for the parser's own.
#[cfg(test)]
pub(super) fn definitions<'t>(root: Node<'t>, src: &[u8]) -> BTreeMap<String, Node<'t>> {
    let mut c = root.walk();
    let defs = root
        .children(&mut c)
        .filter(|n| n.kind() == "function_definition")
        .filter_map(|f| {
            let name = function_declarator(f)?.child_by_field_name("declarator")?;
            Some((name.utf8_text(src).ok()?.to_string(), f))
        })
        .collect();
    defs
}
