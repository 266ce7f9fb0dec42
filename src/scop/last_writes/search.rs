//! Searches for the last match: the `if` statements whose assignments
//! run once after the loop, at the iteration an integer maximum finds.

use super::reads::{idents_but, replayable, sized_where_found, visit_ifs, visit_ifs_mut, Writes};
use super::{at_iteration, keep_iteration, local, shape, Cx, Made, Shape, LAST};
use crate::diag::Loc;
use crate::front::syntax::{AssignOp, BinOp, Expr, ExprKind, Stmt};
use std::collections::BTreeSet;

/// The statements to put before and after the loop `s` (empty where
/// nothing is rewritten); `s` itself is rewritten in place.
pub(super) fn rewrite_loop(
    s: &mut Stmt,
    cx: &Cx,
    top: Option<&BTreeSet<String>>,
    made: &mut Vec<Made>,
) -> (Vec<Stmt>, Vec<Stmt>) {
    let Some(shape) = shape(s, cx) else {
        return (Vec::new(), Vec::new());
    };
    let chosen = eligible(s, &shape, cx);
    if chosen.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let (iter, init, up) = (shape.iter.to_string(), shape.init.clone(), shape.up);
    let mut start_reads = Vec::new();
    init.idents(&mut start_reads);
    let hoist = top.is_some_and(|w| start_reads.iter().all(|n| !w.contains(n)));
    let Stmt::For { body, loc, .. } = s else {
        unreachable!("shape() takes loops only")
    };
    let loc = loc.clone();
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut ordinal = 0;
    let mut replace = |branch: &mut Vec<Stmt>, if_loc: &Loc, made: &mut Vec<Made>| {
        let name = format!("{}{}", LAST, made.len());
        let var = local(&name, "long", if_loc);
        let mk = |kind| Expr {
            kind,
            loc: if_loc.clone(),
        };
        let last = || mk(ExprKind::Ident(name.clone()));
        let long = |e: Expr| mk(ExprKind::Cast("long".into(), Box::new(e)));
        let bin = |op, a: Expr, b: Expr| mk(ExprKind::Binary(op, Box::new(a), Box::new(b)));
        let one = mk(ExprKind::Int(1, "1".into()));
        let start = long(init.clone());
        // Below (above) every iteration: the start less (plus) one, in
        // `long`, where an `int` start cannot overflow.
        let none = if up {
            bin(BinOp::Sub, start.clone(), one)
        } else {
            bin(BinOp::Add, start.clone(), one)
        };
        if hoist {
            made.push(Made {
                var,
                init: Some(none),
            });
        } else {
            made.push(Made { var, init: None });
            before.push(Stmt::Assign {
                lhs: last(),
                op: AssignOp::Assign,
                rhs: none,
                loc: loc.clone(),
                atomic: false,
            });
        }
        let update = keep_iteration(&last(), &iter, up);
        let assignments = at_iteration(branch, &iter, &last());
        let found = if up { BinOp::Ge } else { BinOp::Le };
        after.push(Stmt::If {
            cond: bin(found, last(), start),
            then_: assignments,
            else_: Vec::new(),
            loc: if_loc.clone(),
        });
        *branch = vec![update];
    };
    visit_ifs_mut(body, &mut |then_, if_loc| {
        if chosen.contains(&ordinal) {
            replace(then_, if_loc, made);
        }
        ordinal += 1;
    });
    (before, after)
}

/// The ordinals (in `visit_ifs` order) of the loop's `if` statements that
/// the rewrite may take.
fn eligible(s: &Stmt, shape: &Shape, cx: &Cx) -> BTreeSet<usize> {
    let Stmt::For {
        init, cond, body, ..
    } = s
    else {
        return BTreeSet::new();
    };
    let mut loop_writes = Writes::default();
    for (pos, st) in body.iter().enumerate() {
        loop_writes.collect(std::slice::from_ref(st), pos);
    }
    let mut out = BTreeSet::new();
    let mut ordinal = 0;
    visit_ifs(body, &mut |candidate, pos| {
        let n = ordinal;
        ordinal += 1;
        let Stmt::If { then_, else_, .. } = candidate else {
            return;
        };
        if !else_.is_empty() || then_.is_empty() {
            return;
        }
        let mut targets: Vec<&str> = Vec::new();
        for a in then_ {
            let Stmt::Assign {
                lhs,
                op: AssignOp::Assign,
                rhs,
                atomic: false,
                ..
            } = a
            else {
                return;
            };
            let ExprKind::Ident(x) = &lhs.kind else {
                return;
            };
            let scalar =
                cx.region.symbols.get(x).is_some_and(|v| {
                    v.rank() == 0 && v.members.is_empty() && !v.volatile_or_register
                });
            if !scalar || x == shape.iter || targets.contains(&x.as_str()) {
                return;
            }
            if !replayable(rhs, shape.iter, &loop_writes, pos)
                || !sized_where_found(rhs, shape.iter, cx)
            {
                return;
            }
            targets.push(x);
        }
        // Nothing else in the loop (its bounds included) mentions them:
        // every name but the assignments' own left-hand sides.
        let mut names = Vec::new();
        init.idents(&mut names);
        cond.idents(&mut names);
        idents_but(body, candidate, true, &mut names);
        if names.iter().any(|n| targets.contains(&n.as_str())) {
            return;
        }
        out.insert(n);
    });
    out
}
