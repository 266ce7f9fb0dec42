//! Casts the parser resolves itself: to a typedef name written
//! `(pixel)(x)`, which tree-sitter, knowing no typedef names, reads as a
//! call of `(pixel)`; and to a pointer type that a call's argument already
//! has (`foo((int *) &s)` of an `int s`, pet's call7), which changes
//! nothing and is dropped. Any other cast to a pointer type stays an
//! error: the model could not tell which elements the new type reaches.

use super::exprs::const_value;
use super::Cx;
use crate::diag::{Code, Result};
use crate::front::syntax::{Expr, ExprKind, Storage, VarDecl};
use tree_sitter::Node;

/// A variable's type as far as a pointer cast of its address needs it:
/// the element type (typedefs resolved, qualifiers dropped) and its shape.
/// Struct variables, which the model holds as arrays of their members,
/// have none: a pointer cast of their address is refused.
#[derive(Clone, Debug)]
pub(super) struct Declared {
    pub(super) element: String,
    pub(super) pointer: bool,
    /// A parameter: its outermost extent is a pointer's (C adjusts
    /// `double A[n][m]` to `double (*A)[m]`).
    pub(super) param: bool,
    /// The extents as written (`None` where open).
    pub(super) extents: Vec<Option<Expr>>,
}

impl Declared {
    /// Each extent's value where it is a constant (`sizeof`).
    pub(super) fn extent_values(&self) -> Vec<Option<i64>> {
        self.extents
            .iter()
            .map(|e| e.as_ref().and_then(const_value))
            .collect()
    }
}

/// `t` with its qualifiers dropped and its spaces normalised.
pub(super) fn unqualified(t: &str) -> String {
    t.split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "restrict"))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Cx<'_> {
    /// Records the types of variables now visible under these (their
    /// region) names: parameters and globals where a region or a function
    /// body starts, a declaration statement's variable.
    pub(super) fn note_declared<'v>(&self, vars: impl IntoIterator<Item = &'v VarDecl>) {
        let mut declared = self.declared.borrow_mut();
        for v in vars {
            if v.members.is_empty() {
                declared.insert(
                    v.name.clone(),
                    Declared {
                        element: unqualified(&v.base_type),
                        pointer: v.pointer,
                        param: v.storage == Storage::Param,
                        extents: v.dims.clone(),
                    },
                );
            } else {
                declared.remove(&v.name);
            }
        }
    }

    /// A name declared without a type this module records (a loop's
    /// iterator): a cast of its address is refused.
    pub(super) fn forget_declared(&self, name: &str) {
        self.declared.borrow_mut().remove(name);
    }

    /// A call's argument without a cast to the pointer type it already
    /// has: `(int *) &s` of an `int s` is `&s`, `(double *) a` of a
    /// `double a[n]` or `double *a` is `a`, `(float *) &A[i][j]` of a
    /// `float A[n][m]` is `&A[i][j]` (adding `const` changes nothing the
    /// model reads). Other arguments are returned as they are; a cast to
    /// a pointer type that changes the type, or of something whose type
    /// the parser does not know, is an error at the cast.
    pub(super) fn without_pointer_cast<'t>(&self, a: Node<'t>) -> Result<Node<'t>> {
        if a.kind() != "cast_expression" {
            return Ok(a);
        }
        let (Some(t), Some(v)) = (
            a.child_by_field_name("type"),
            a.child_by_field_name("value"),
        ) else {
            return Ok(a);
        };
        let written = self
            .text(t)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let ty = self
            .typedefs
            .borrow()
            .get(&written)
            .cloned()
            .unwrap_or(written);
        if !ty.contains('*') {
            return Ok(a);
        }
        let refuse = |why: String| {
            self.err(Code::PointerArithmetic, t, why)
                .with_hint("pass the variable's address or the array without a cast, or declare the variable with the type the function takes")
        };
        let pointee = match ty.strip_suffix('*') {
            Some(p) if !p.contains('*') => {
                let p = unqualified(p);
                let resolved = self.typedefs.borrow().get(&p).cloned().unwrap_or(p);
                unqualified(&resolved)
            }
            _ => {
                return Err(refuse(format!(
                    "a cast to `{}` is not allowed: PENCIL regions use arrays, not pointers",
                    ty
                )))
            }
        };
        let value = strip_parentheses(v);
        let Some(has) = self.pointed_to(value) else {
            return Err(refuse(format!(
                "a cast to `{}` is not allowed: pencilc cannot tell that `{}` already is a `{}`",
                ty,
                self.text(value),
                ty
            )));
        };
        if has != pointee {
            return Err(refuse(format!(
                "a cast to `{}` of `{}`, which points to `{}`, is not allowed: the model could not tell which elements the new type reaches",
                ty,
                self.text(value),
                has
            )));
        }
        Ok(value)
    }

    /// The element type `x` points to, where it is a pointer the parser
    /// can type: `&s` of a scalar, `&A[i][j]` with every subscript, a
    /// one-dimensional array or a pointer by name, a row `A[i]` of a
    /// two-dimensional array.
    fn pointed_to(&self, x: Node) -> Option<String> {
        // An array or pointer by name, or a row of an array (`y[i]` of a
        // `double y[n][m]`), has one dimension left; an element's address
        // none, below the element it points to.
        let (x, left) = match x.kind() {
            "pointer_expression"
                if x.child_by_field_name("operator")
                    .is_some_and(|o| self.text(o) == "&") =>
            {
                (strip_parentheses(x.child_by_field_name("argument")?), 0)
            }
            "identifier" | "subscript_expression" => (x, 1),
            _ => return None,
        };
        let mut name = x;
        let mut subscripts = 0;
        while name.kind() == "subscript_expression" {
            subscripts += 1;
            name = strip_parentheses(name.child_by_field_name("argument")?);
        }
        if name.kind() != "identifier" {
            return None;
        }
        let spelled = self.resolve(self.text(name))?;
        let d = self.declared.borrow().get(&spelled).cloned()?;
        (d.extents.len() + usize::from(d.pointer) == subscripts + left).then_some(d.element)
    }

    /// `(pixel)(x)` with `pixel` a typedef: tree-sitter, which knows no
    /// typedef names, reads it as a call of `(pixel)`; it is a cast to the
    /// type `pixel` stands for.
    pub(super) fn typedef_cast(&self, call: Node, f: Node) -> Result<Option<Expr>> {
        if f.kind() != "parenthesized_expression" || f.named_child_count() != 1 {
            return Ok(None);
        }
        let Some(name) = f.named_child(0).filter(|k| k.kind() == "identifier") else {
            return Ok(None);
        };
        if let Some(e) = self.local_typedef(name, self.text(name)) {
            return Err(e);
        }
        let Some(ty) = self.typedefs.borrow().get(self.text(name)).cloned() else {
            return Ok(None);
        };
        let args: Vec<Node> = match call.child_by_field_name("arguments") {
            Some(a) => {
                let mut c = a.walk();
                a.named_children(&mut c)
                    .filter(|k| k.kind() != "comment")
                    .collect()
            }
            None => Vec::new(),
        };
        let [arg] = args.as_slice() else {
            return Ok(None);
        };
        if ty.contains('*') {
            return Err(self
                .err(
                    Code::PointerArithmetic,
                    f,
                    "casts to pointer types are not allowed",
                )
                .with_hint("PENCIL regions use arrays, not pointers"));
        }
        Ok(Some(Expr {
            kind: ExprKind::Cast(ty, Box::new(self.expr(*arg)?)),
            loc: self.loc(call),
        }))
    }
}

/// `x` without the parentheses around it.
pub(super) fn strip_parentheses(mut x: Node) -> Node {
    while x.kind() == "parenthesized_expression" && x.named_child_count() == 1 {
        match x.named_child(0) {
            Some(inner) => x = inner,
            None => break,
        }
    }
    x
}
