//! Atomic updates as users write them in PENCIL code for GPUs:
//! `atomic_add(&hist[p], 1)`. The address of an element passed to one of
//! these functions is an update of that element, so the call becomes the
//! assignment `hist[p] += 1` marked atomic: the model lets atomic updates
//! of one array run in any order (they commute), and device code performs
//! them with the target's atomics (`back::stmt`).

use super::Cx;
use crate::diag::{Code, Result};
use crate::front::syntax::{AssignOp, BinOp, Expr, ExprKind, Stmt};
use tree_sitter::Node;

impl Cx<'_> {
    /// The atomic update a call statement `call` makes, `None` if it calls
    /// no known atomic function.
    pub(super) fn atomic_update(&self, call: Node, stmt: Node) -> Result<Option<Stmt>> {
        let Some(f) = call.child_by_field_name("function") else {
            return Ok(None);
        };
        let name = self.text(f);
        // `atomic_min(&x, v)` is `x = v < x ? v : x`, a `min` update.
        let (op, with_value, extremum) = match name {
            "atomic_add" | "atomicAdd" => (AssignOp::Add, true, None),
            "atomic_sub" | "atomicSub" => (AssignOp::Sub, true, None),
            "atomic_inc" => (AssignOp::Add, false, None),
            "atomic_dec" => (AssignOp::Sub, false, None),
            "atomic_min" | "atomicMin" => (AssignOp::Assign, true, Some(BinOp::Lt)),
            "atomic_max" | "atomicMax" => (AssignOp::Assign, true, Some(BinOp::Gt)),
            _ => return Ok(None),
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
        let want = if with_value { 2 } else { 1 };
        if args.len() != want {
            return Err(self
                .err(
                    Code::UnsupportedStatement,
                    call,
                    format!(
                        "`{}` takes {} argument(s) here, not {}",
                        name,
                        want,
                        args.len()
                    ),
                )
                .with_hint(if with_value {
                    format!("write `{}(&A[i], value)`", name)
                } else {
                    format!("write `{}(&A[i])`", name)
                }));
        }
        let target = args[0];
        let address_of = target.kind() == "pointer_expression"
            && target
                .child_by_field_name("operator")
                .is_some_and(|o| self.text(o) == "&");
        let Some(arg) = target
            .child_by_field_name("argument")
            .filter(|_| address_of)
        else {
            return Err(self
                .err(
                    Code::PointerArithmetic,
                    target,
                    format!("the first argument of `{}` must be the address of an array element or a variable", name),
                )
                .with_hint("write `&A[i]` or `&v`"));
        };
        let lhs = self.expr(arg)?;
        if !matches!(lhs.kind, ExprKind::Ident(_) | ExprKind::Index(..)) {
            return Err(self.err(
                Code::PointerArithmetic,
                arg,
                "only an array element or a variable can be updated atomically",
            ));
        }
        let rhs = if let Some(cmp) = extremum {
            let v = self.expr(args[1])?;
            let loc = v.loc.clone();
            let boxed = |e: &Expr| Box::new(e.clone());
            Expr {
                kind: ExprKind::Cond(
                    Box::new(Expr {
                        kind: ExprKind::Binary(cmp, boxed(&v), boxed(&lhs)),
                        loc: loc.clone(),
                    }),
                    boxed(&v),
                    boxed(&lhs),
                ),
                loc,
            }
        } else if with_value {
            self.expr(args[1])?
        } else {
            Expr {
                kind: ExprKind::Int(1, "1".into()),
                loc: lhs.loc.clone(),
            }
        };
        Ok(Some(Stmt::Assign {
            lhs,
            op,
            rhs,
            loc: self.loc(stmt),
            atomic: true,
        }))
    }
}
