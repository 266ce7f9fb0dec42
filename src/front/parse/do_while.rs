//! `do ... while` in a region. `do { B } while (0)`, the macro idiom
//! (`#define SWAP(a, b) do { ... } while (0)`), is `B` once; a `break` or
//! `continue` of its own leaves it, so what follows such a jump moves into
//! the branches that come out of it (`syntax::without_jumps`). Any other
//! condition makes `while (1) { B; if (!c) break; }`, where `B`'s own
//! `continue`s go to the test as C's do and its `break`s stay.

use super::*;
use crate::front::parse::exprs::const_value;
use crate::front::syntax::{without_jumps, Jump, UnOp};

impl Cx<'_> {
    pub(super) fn do_while(
        &self,
        n: Node,
        out: &mut Vec<Stmt>,
        ignored: &mut Vec<Loc>,
    ) -> Result<()> {
        let (Some(body_node), Some(cond_node)) = (
            n.child_by_field_name("body"),
            n.child_by_field_name("condition"),
        ) else {
            return Err(self.syntax(n));
        };
        let loc = self.loc(n);
        let cond = self.expr(cond_node)?;
        let refuse = |why: &str| {
            self.err(Code::UnsupportedControl, n, format!("this `do ... while` {}", why))
                .with_hint("move the statements after the `break` or `continue` into an `else`, or write the loop as `while`")
        };
        match const_value(&cond) {
            // The macro idiom: the body once.
            Some(0) => {
                let mut body = Vec::new();
                self.stmt(body_node, &mut body, ignored)?;
                let Some((body, _)) = without_jumps(&body, &|_| Jump::Drop) else {
                    return Err(refuse(
                        "leaves by a `break` or `continue` with too much after it to move into branches",
                    ));
                };
                out.extend(body);
            }
            _ => {
                let _loop = self.enter_loop(n)?;
                let mut body = Vec::new();
                self.stmt(body_node, &mut body, ignored)?;
                let to_the_test = |s: &Stmt| match s {
                    Stmt::Continue(_) => Jump::Drop,
                    _ => Jump::Keep,
                };
                let Some((mut body, _)) = without_jumps(&body, &to_the_test) else {
                    return Err(refuse(
                        "has a `continue` with too much after it to move into branches",
                    ));
                };
                let cond_loc = cond.loc.clone();
                body.push(Stmt::If {
                    cond: Expr {
                        kind: ExprKind::Unary(UnOp::Not, Box::new(cond)),
                        loc: cond_loc,
                    },
                    then_: vec![Stmt::Break(loc.clone())],
                    else_: Vec::new(),
                    loc: loc.clone(),
                });
                out.push(Stmt::While {
                    cond: Expr {
                        kind: ExprKind::Int(1, "1".into()),
                        loc: loc.clone(),
                    },
                    body,
                    loc,
                });
            }
        }
        Ok(())
    }
}
