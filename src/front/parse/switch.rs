//! `switch` in a region, as a chain of `if`s: each group of labels with
//! its statements is `if (x == c1 || x == c2) { ... } else ...`, the
//! `default` group the last `else`. A group's `break`s that leave the
//! switch go: at its end, or inside its `if`s, where the statements after
//! such an `if` move into the branches that come out of it
//! (`syntax::without_jumps`). A group that may run on into the next label
//! (C's fall-through) is refused with the reason, as is a `break` after
//! which too much would need copying. Reading the controlling expression
//! once per comparison is what C does with it: the model's expressions
//! have no side effects, and no group runs before the comparisons that
//! pick it.

use super::*;

/// Labels (`None`: `default`) and the statements under them.
struct Group<'t> {
    labels: Vec<Option<Node<'t>>>,
    body: Vec<Node<'t>>,
    at: Node<'t>,
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
        for &item in &items {
            if item.kind() != "case_statement" {
                return Err(refuse(
                    item,
                    "a statement of a `switch` before its first label",
                ));
            }
            let label = item.child_by_field_name("value");
            let mut ic = item.walk();
            let stmts: Vec<Node> = item
                .named_children(&mut ic)
                .filter(|s| Some(*s) != label && s.kind() != "comment")
                .collect();
            pending.push(label);
            if stmts.is_empty() {
                // Labels with nothing under them share the next group.
                continue;
            }
            groups.push(Group {
                labels: std::mem::take(&mut pending),
                body: stmts,
                at: item,
            });
        }
        if let Some(&last) = items.last() {
            if !pending.is_empty() {
                groups.push(Group {
                    labels: pending,
                    body: Vec::new(),
                    at: last,
                });
            }
        }
        let loc = self.loc(n);
        let mut default: Vec<Stmt> = Vec::new();
        let mut chain: Vec<(Expr, Vec<Stmt>)> = Vec::new();
        for (k, g) in groups.iter().enumerate() {
            let mut stmts = Vec::new();
            {
                let _scope = self.enter_scope([]);
                self.stmt_list(&g.body, &mut stmts, ignored)?;
            }
            // The case's own `break`s leave the switch; a `continue`
            // leaves it for the loop around it, and stays.
            let kind = |j: &Stmt| match j {
                Stmt::Break(_) => Jump::Drop,
                _ => Jump::Keep,
            };
            let Some((stmts, falls)) = without_jumps(&stmts, &kind) else {
                return Err(refuse(
                    g.at,
                    "a `break` that leaves the `switch` before the end of its case",
                ));
            };
            if falls && k + 1 < groups.len() {
                return Err(refuse(
                    g.at,
                    "a case that falls through into the next label",
                ));
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
