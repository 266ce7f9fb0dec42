//! A name declared at the top of a region and used after it:
//!
//! ```c
//! #pragma scop
//! int i;
//! for (i = 0; i < n; i++) A[i] = 0;
//! #pragma endscop
//! A[0] = i;
//! ```
//!
//! C's scope of `i` is the rest of the enclosing block, but every output
//! of pencilc puts the region's versions in a block of their own (the
//! original code inside `if (...) { ... }`), where the scope ends with
//! the region: the host file did not build. Such a region keeps the
//! user's code, saying why.

use super::{declared_name, Cx};
use crate::diag::Loc;
use tree_sitter::Node;

/// The first name that a declaration among `region` (the statements
/// between the pragmas) declares and that `after` (the rest of the
/// block) names: where it is declared and where it is named. A name
/// that `after` declares again hides it for the rest of that block or
/// loop; otherwise the check is by the identifiers' text (a macro's
/// use counts), so it errs on the side of the user's code.
#[derive(Clone, Debug)]
pub struct Outlived {
    pub name: String,
    pub declared: Loc,
    pub used: Loc,
}

impl Cx<'_> {
    pub(super) fn outlived(&self, region: &[Node], after: &[Node]) -> Option<Outlived> {
        let mut declared = Vec::new();
        for n in region {
            if matches!(n.kind(), "declaration" | "type_definition") {
                self.names_declared(*n, &mut declared);
            }
        }
        for (name, at) in declared {
            for a in after {
                if let Some(used) = named_in(*a, &name, self.src) {
                    return Some(Outlived {
                        name,
                        declared: at,
                        used: self.loc(used),
                    });
                }
            }
        }
        None
    }

    /// The variables, typedefs, enumerators and tags that `decl` declares.
    fn names_declared(&self, decl: Node, out: &mut Vec<(String, Loc)>) {
        let mut c = decl.walk();
        for d in decl.children_by_field_name("declarator", &mut c) {
            if let Some(name) = declared_name(d, self.src) {
                out.push((name, self.loc(d)));
            }
        }
        let mut stack = vec![decl];
        while let Some(n) = stack.pop() {
            let named = match n.kind() {
                "enumerator" => n.child_by_field_name("name"),
                "struct_specifier" | "union_specifier" | "enum_specifier"
                    if n.child_by_field_name("body").is_some() =>
                {
                    n.child_by_field_name("name")
                }
                _ => None,
            };
            if let Some(name) = named {
                out.push((self.text(name).to_string(), self.loc(name)));
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }
}

/// The first identifier (of a variable, type or tag) in `n` spelled
/// `name` that refers to the region's declaration: not a member after `.`
/// or `->` (`field_identifier`), nor a use in a block after a declaration
/// of its own of that name hides it (`{ int t = 9; ... }`, `for (int k =
/// 0; ...)`).
fn named_in<'t>(n: Node<'t>, name: &str, src: &[u8]) -> Option<Node<'t>> {
    if matches!(n.kind(), "identifier" | "type_identifier") && n.utf8_text(src).ok() == Some(name) {
        return Some(n);
    }
    if n.kind() == "for_statement" {
        if let Some(i) = n
            .child_by_field_name("initializer")
            .filter(|i| i.kind() == "declaration" && declares(*i, name, src))
        {
            return used_before_declared(i, name, src);
        }
    }
    let mut c = n.walk();
    let children: Vec<Node<'t>> = n.named_children(&mut c).collect();
    for ch in children {
        if n.kind() == "compound_statement" && ch.kind() == "declaration" && declares(ch, name, src)
        {
            // The rest of the block sees the new declaration; the
            // declarators before it still see the region's (`int a = t,
            // t = 5;`).
            return used_before_declared(ch, name, src);
        }
        if let Some(u) = named_in(ch, name, src) {
            return Some(u);
        }
    }
    None
}

/// In a declaration that declares `name` again, a use of the region's
/// `name` before the declarator that hides it: in an earlier declarator
/// (its initialiser, its extents), or in the hiding declarator's own
/// extents (`int t[t]`: the name's scope starts after its declarator).
fn used_before_declared<'t>(d: Node<'t>, name: &str, src: &[u8]) -> Option<Node<'t>> {
    let mut c = d.walk();
    let declarators: Vec<Node<'t>> = d.children_by_field_name("declarator", &mut c).collect();
    for x in declarators {
        if declared_name(x, src).as_deref() == Some(name) {
            // `int t = t` reads the new `t`; `int t[t]` the region's.
            let shape = x
                .child_by_field_name("declarator")
                .filter(|_| x.kind() == "init_declarator");
            return match shape {
                Some(inner) => extents_use(inner, name, src),
                None => extents_use(x, name, src),
            };
        }
        if let Some(u) = named_in(x, name, src) {
            return Some(u);
        }
    }
    None
}

/// A use of `name` in the extents of a declarator (`t[n]`), not its own
/// identifier.
fn extents_use<'t>(x: Node<'t>, name: &str, src: &[u8]) -> Option<Node<'t>> {
    let mut c = x.walk();
    let children: Vec<Node<'t>> = x.named_children(&mut c).collect();
    for ch in children {
        let found = if ch.kind() == "identifier" {
            None
        } else if ch.kind().ends_with("declarator") {
            extents_use(ch, name, src)
        } else {
            named_in(ch, name, src)
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Whether the declaration `d` declares a variable `name`.
fn declares(d: Node, name: &str, src: &[u8]) -> bool {
    let mut c = d.walk();
    let found = d
        .children_by_field_name("declarator", &mut c)
        .any(|x| declared_name(x, src).as_deref() == Some(name));
    found
}
