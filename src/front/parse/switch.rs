//! `switch` in a region, as a chain of `if`s: each group of labels with
//! its statements is `if (x == c1 || x == c2) { ... } else ...`, the
//! `default` group the last `else`. A group's `break`s that leave the
//! switch go: at its end, or inside its `if`s, where the statements after
//! such an `if` move into the branches that come out of it (copied into
//! both where both may, at most 16). A group that may run on into the
//! next label (C's fall-through) is refused with the reason, as is a
//! `break` after which too much would need copying. Reading the controlling expression once per
//! comparison is what C does with it: the model's expressions have no
//! side effects, and no group runs before the comparisons that pick it.

use super::*;

/// Labels (`None`: `default`) and the statements under them, without
/// the `break` that ends them.
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
            let Some((stmts, falls)) = without_switch_breaks(&stmts) else {
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

/// A case's statements without the `break`s that leave the `switch`
/// (those of the case's own level and of its `if`s, not of its loops),
/// and whether a path may still reach the end of the case (and fall into
/// the next label). `None` where such a `break` is followed by statements
/// that other paths run and that are too many to copy.
fn without_switch_breaks(list: &[Stmt]) -> Option<(Vec<Stmt>, bool)> {
    let mut out = Vec::new();
    for (k, s) in list.iter().enumerate() {
        match s {
            // What follows never runs.
            Stmt::Break(_) => return Some((out, false)),
            Stmt::Continue(_) => {
                out.push(s.clone());
                return Some((out, false));
            }
            Stmt::If {
                cond,
                then_,
                else_,
                loc,
            } if has_break(then_) || has_break(else_) => {
                // Statements after the `if` run on the paths that come
                // out of it: each branch such a path leaves gets them (a
                // copy for each where both may), before its `break`s go.
                let rest = &list[k + 1..];
                let then_falls = without_switch_breaks(then_)?.1;
                let else_falls = without_switch_breaks(else_)?.1;
                if then_falls && else_falls && stmt_count(rest) > MAX_COPIED {
                    return None;
                }
                let with_rest = |branch: &[Stmt], falls: bool| -> Vec<Stmt> {
                    let mut b = branch.to_vec();
                    if falls {
                        b.extend(rest.iter().cloned());
                    }
                    b
                };
                let (then_, then_falls) = without_switch_breaks(&with_rest(then_, then_falls))?;
                let (else_, else_falls) = without_switch_breaks(&with_rest(else_, else_falls))?;
                out.push(Stmt::If {
                    cond: cond.clone(),
                    then_,
                    else_,
                    loc: loc.clone(),
                });
                return Some((out, then_falls || else_falls));
            }
            other => out.push(other.clone()),
        }
    }
    Some((out, true))
}

/// At most this many statements after an `if` are copied into both of
/// its branches.
const MAX_COPIED: usize = 16;

/// A `break` of the `switch` around `list` (not one of a loop in it).
fn has_break(list: &[Stmt]) -> bool {
    list.iter().any(|s| match s {
        Stmt::Break(_) => true,
        Stmt::If { then_, else_, .. } => has_break(then_) || has_break(else_),
        _ => false,
    })
}
