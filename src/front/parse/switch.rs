//! `switch` in a region, as a chain of `if`s: each group of labels with
//! its statements is `if (x == c1 || x == c2) { ... } else ...`, the
//! `default` group the last `else`. Only switches whose groups end in
//! `break` (or end the switch) are lowered: a group that falls through
//! into the next, or leaves the switch from inside with a `break`, is
//! refused with the reason. Reading the controlling expression once per
//! comparison is what C does with it: the model's expressions have no
//! side effects, and no group runs before the comparisons that pick it.

use super::*;

/// Labels (`None`: `default`) and the statements under them, without
/// the `break` that ends them.
struct Group<'t> {
    labels: Vec<Option<Node<'t>>>,
    body: Vec<Node<'t>>,
}

impl<'a> Cx<'a> {
    pub(super) fn switch(
        &self,
        n: Node<'a>,
        out: &mut Vec<Stmt>,
        ignored: &mut Vec<Loc>,
    ) -> Result<()> {
        let refuse = |at: Node, why: &str| {
            self.err(Code::UnsupportedControl, at, why.to_string())
                .with_hint("end each case with `break` (or write the cases as `if`/`else if`)")
        };
        let value = n
            .child_by_field_name("condition")
            .ok_or_else(|| self.syntax(n))?;
        let value = self.expr(value)?;
        let body = n
            .child_by_field_name("body")
            .ok_or_else(|| self.syntax(n))?;
        let mut c = body.walk();
        let items: Vec<Node> = body
            .named_children(&mut c)
            .filter(|k| k.kind() != "comment")
            .collect();
        let mut groups: Vec<Group> = Vec::new();
        let mut pending: Vec<Option<Node>> = Vec::new();
        for (k, &item) in items.iter().enumerate() {
            if item.kind() != "case_statement" {
                return Err(refuse(
                    item,
                    "a statement of a `switch` before its first label",
                ));
            }
            let label = item.child_by_field_name("value");
            let mut ic = item.walk();
            let mut stmts: Vec<Node> = item
                .named_children(&mut ic)
                .filter(|s| Some(*s) != label && s.kind() != "comment")
                .collect();
            pending.push(label);
            if stmts.is_empty() {
                // Labels with nothing under them share the next group.
                continue;
            }
            if !without_last_break(&mut stmts) && k + 1 < items.len() {
                return Err(refuse(
                    item,
                    "a case that falls through into the next label",
                ));
            }
            if let Some(b) = stmts.iter().find_map(|s| switch_break(*s)) {
                return Err(refuse(
                    b,
                    "a `break` that leaves the `switch` before the end of its case",
                ));
            }
            groups.push(Group {
                labels: std::mem::take(&mut pending),
                body: stmts,
            });
        }
        if !pending.is_empty() {
            groups.push(Group {
                labels: pending,
                body: Vec::new(),
            });
        }
        let loc = self.loc(n);
        let mut default: Vec<Stmt> = Vec::new();
        let mut chain: Vec<(Expr, Vec<Stmt>)> = Vec::new();
        for g in &groups {
            let mut stmts = Vec::new();
            {
                let _scope = self.enter_scope([]);
                self.stmt_list(&g.body, &mut stmts, ignored)?;
            }
            if g.labels.iter().any(Option::is_none) {
                default = stmts;
                continue;
            }
            let mut cond: Option<Expr> = None;
            for &label in g.labels.iter().flatten() {
                let eq = Expr {
                    kind: ExprKind::Binary(
                        BinOp::Eq,
                        Box::new(value.clone()),
                        Box::new(self.expr(label)?),
                    ),
                    loc: self.loc(label),
                };
                cond = Some(match cond {
                    None => eq,
                    Some(prev) => Expr {
                        kind: ExprKind::Binary(BinOp::Or, Box::new(prev), Box::new(eq)),
                        loc: loc.clone(),
                    },
                });
            }
            chain.push((cond.expect("a case label"), stmts));
        }
        let mut rest = default;
        for (cond, then_) in chain.into_iter().rev() {
            rest = vec![Stmt::If {
                cond,
                then_,
                else_: rest,
                loc: loc.clone(),
            }];
        }
        out.extend(rest);
        Ok(())
    }
}

/// A `break` inside `n` that leaves the `switch` around `n` (not one of a
/// loop or a `switch` nested in it).
fn switch_break(n: Node) -> Option<Node> {
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        match x.kind() {
            "break_statement" => return Some(x),
            "for_statement" | "while_statement" | "do_statement" | "switch_statement" => {}
            _ => {
                let mut c = x.walk();
                stack.extend(x.named_children(&mut c));
            }
        }
    }
    None
}

/// Drops the `break` that ends `stmts`, where they end in one: as the
/// last statement, or as the last of a block that is (`case 1: { ...;
/// break; }`), whose statements then stand for it (the group has a scope
/// of its own).
fn without_last_break(stmts: &mut Vec<Node>) -> bool {
    let Some(&last) = stmts.last() else {
        return false;
    };
    match last.kind() {
        "break_statement" => {
            stmts.pop();
            true
        }
        "compound_statement" => {
            let mut c = last.walk();
            let mut inner: Vec<Node> = last
                .named_children(&mut c)
                .filter(|k| k.kind() != "comment")
                .collect();
            if !without_last_break(&mut inner) {
                return false;
            }
            stmts.pop();
            stmts.extend(inner);
            true
        }
        _ => false,
    }
}
