//! Atomic updates as users write them in PENCIL code for GPUs:
//! `atomic_add(&hist[p], 1)`. The address of an element passed to one of
//! these functions is an update of that element, so the call becomes the
//! assignment `hist[p] += 1` marked atomic: the model lets atomic updates
//! of one array run in any order (they commute), and device code performs
//! them with the target's atomics (`back::stmt`).

use super::Cx;
use crate::diag::{Code, Result};
use crate::front::syntax::{AssignOp, Expr, ExprKind, Stmt};
use tree_sitter::Node;

impl Cx<'_> {
    /// The atomic update a call statement `call` makes, `None` if it calls
    /// no known atomic function.
    pub(super) fn atomic_update(&self, call: Node, stmt: Node) -> Result<Option<Stmt>> {
        let Some(f) = call.child_by_field_name("function") else {
            return Ok(None);
        };
        let name = self.text(f);
        let (op, with_value) = match name {
            "atomic_add" | "atomicAdd" => (AssignOp::Add, true),
            "atomic_sub" | "atomicSub" => (AssignOp::Sub, true),
            "atomic_inc" => (AssignOp::Add, false),
            "atomic_dec" => (AssignOp::Sub, false),
            "atomic_min" | "atomic_max" | "atomicMin" | "atomicMax" => {
                return Err(self
                    .err(
                        Code::UnsupportedStatement,
                        call,
                        format!("`{}` is not supported in a region yet", name),
                    )
                    .with_hint("use `atomic_add`/`atomic_sub`/`atomic_inc`/`atomic_dec`, or `v = min(v, e)` in a loop with `#pragma pencil independent reduction(min: v)`"));
            }
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
            return Err(self.err(
                Code::UnsupportedStatement,
                call,
                format!(
                    "`{}` takes {} argument(s) here, not {}",
                    name,
                    want,
                    args.len()
                ),
            ));
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
        let rhs = if with_value {
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
