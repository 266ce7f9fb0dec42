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

/// Whether `name` is a variable (an object or a pointer, a function
/// pointer included) where node `at` stands: declared by a declaration
/// before it in a block around it, by the initialiser of a `for` around
/// it, as a parameter of its function, or at file scope before it; or a
/// GCC nested function defined before it in a block around it. A call by
/// that name then goes there, not to the file's function.
pub(super) fn variable_visible_at(at: Node, name: &str, src: &[u8]) -> bool {
    let before = at.start_byte();
    let mut n = at;
    while let Some(p) = n.parent() {
        let hit = match p.kind() {
            // In a block, a GCC nested function of that name hides the
            // file's function as a variable does.
            "compound_statement" => {
                let mut c = p.walk();
                let found = p
                    .named_children(&mut c)
                    .filter(|d| d.end_byte() <= before)
                    .any(|d| {
                        (d.kind() == "declaration" && declares_variable(d, name, src))
                            || (d.kind() == "function_definition"
                                && function_declarator(d)
                                    .and_then(|f| f.child_by_field_name("declarator"))
                                    .is_some_and(|i| i.utf8_text(src).is_ok_and(|t| t == name)))
                    });
                found
            }
            "translation_unit" => {
                let mut c = p.walk();
                let found = p
                    .named_children(&mut c)
                    .filter(|d| d.end_byte() <= before && d.kind() == "declaration")
                    .any(|d| declares_variable(d, name, src));
                found
            }
            "for_statement" => p
                .child_by_field_name("initializer")
                .is_some_and(|d| d.kind() == "declaration" && declares_variable(d, name, src)),
            "function_definition" => function_declarator(p)
                .and_then(|d| d.child_by_field_name("parameters"))
                .is_some_and(|list| {
                    let mut c = list.walk();
                    let found = list
                        .named_children(&mut c)
                        .filter(|d| d.kind() == "parameter_declaration")
                        .any(|d| declares_variable(d, name, src));
                    found
                }),
            _ => false,
        };
        if hit {
            return true;
        }
        n = p;
    }
    false
}

/// Whether declaration (or parameter declaration) `decl` declares `name`
/// as a variable rather than as a function: `void (*put)(int)` declares a
/// pointer, `void put(int)` a function. Names in a size, an initial value
/// or a prototype's parameters declare nothing here.
fn declares_variable(decl: Node, name: &str, src: &[u8]) -> bool {
    let mut c = decl.walk();
    let found = decl
        .children_by_field_name("declarator", &mut c)
        .any(|d| declarator_names_variable(d, name, src));
    found
}

/// Whether declarator `d` declares `name` as a variable.
fn declarator_names_variable(d: Node, name: &str, src: &[u8]) -> bool {
    let mut d = d;
    // Whether what the name declares is an object (a pointer, an array,
    // a plain variable) rather than a function: `(*put)(int)` is one,
    // `put(int)` is not.
    let mut object = true;
    loop {
        match d.kind() {
            "identifier" => return object && d.utf8_text(src).is_ok_and(|t| t == name),
            "function_declarator" => {
                let Some(inner) = d.child_by_field_name("declarator") else {
                    return false;
                };
                object = inner.kind() != "identifier";
                d = inner;
            }
            "parenthesized_declarator" => match d.named_child(0) {
                Some(inner) => d = inner,
                None => return false,
            },
            "pointer_declarator" | "array_declarator" => {
                match d.child_by_field_name("declarator") {
                    Some(inner) => {
                        object = true;
                        d = inner;
                    }
                    None => return false,
                }
            }
            "init_declarator" | "attributed_declarator" => {
                match d.child_by_field_name("declarator") {
                    Some(inner) => d = inner,
                    None => return false,
                }
            }
            _ => return false,
        }
    }
}

impl super::Cx<'_> {
    /// Whether the identifier `f` (a callee's name) is a variable where
    /// it stands (`variable_visible_at`).
    pub(super) fn names_a_variable(&self, f: Node) -> bool {
        variable_visible_at(f, self.text(f), self.src)
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
