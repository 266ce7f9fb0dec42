//! Casts to a typedef name written `(pixel)(x)`: tree-sitter, which knows
//! no typedef names, reads them as calls of `(pixel)`.

use super::Cx;
use crate::diag::{Code, Result};
use crate::front::syntax::{Expr, ExprKind};
use tree_sitter::Node;

impl Cx<'_> {
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
