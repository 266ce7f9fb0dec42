//! Which uses of a variable are reduction updates: a reduction variable
//! may be privatized (a device's per-thread copies, an OpenMP `reduction`
//! clause) only where a loop does nothing else with it.

use super::{reduction_value, StmtBody};
use crate::front::syntax::{Expr, ExprKind, RedOp, Stmt};

/// Whether every use of `var` in `body` is a reduction update of it with
/// operator `op` (whose value and subscripts do not mention `var`).
pub fn only_reduction_uses(body: &StmtBody, var: &str, op: RedOp) -> bool {
    match body {
        StmtBody::Assign { lhs, op: aop, rhs } => {
            base(lhs) == Some(var)
                && reduction_value(lhs, *aop, rhs, op).is_some()
                && !subscripts_mention(lhs, var)
        }
        StmtBody::Compound(stmts) => stmts.iter().all(|s| stmt_ok(s, var, op)),
        StmtBody::Call { args, .. } => !args.iter().any(|a| mentions(a, var)),
    }
}

fn stmt_ok(s: &Stmt, var: &str, op: RedOp) -> bool {
    let all = |b: &[Stmt]| b.iter().all(|s| stmt_ok(s, var, op));
    match s {
        Stmt::For {
            iter,
            init,
            cond,
            body,
            ..
        } => iter != var && !mentions(init, var) && !mentions(cond, var) && all(body),
        Stmt::If {
            cond, then_, else_, ..
        } => !mentions(cond, var) && all(then_) && all(else_),
        Stmt::While { cond, body, .. } => !mentions(cond, var) && all(body),
        Stmt::Assign {
            lhs, op: aop, rhs, ..
        } => {
            if base(lhs) == Some(var) {
                reduction_value(lhs, *aop, rhs, op).is_some() && !subscripts_mention(lhs, var)
            } else {
                !mentions(lhs, var) && !mentions(rhs, var)
            }
        }
        Stmt::Decl { var: d, init, .. } => {
            d.name != var
                && !d.dims.iter().flatten().any(|e| mentions(e, var))
                && !init.as_ref().is_some_and(|e| mentions(e, var))
        }
        Stmt::Call { args, .. } | Stmt::Kill { targets: args, .. } => {
            !args.iter().any(|a| mentions(a, var))
        }
        Stmt::Assume { .. } | Stmt::Break(_) | Stmt::Continue(_) => true,
    }
}

fn base(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        ExprKind::Index(b, _) => base(b),
        _ => None,
    }
}

fn mentions(e: &Expr, var: &str) -> bool {
    let mut ids = Vec::new();
    e.idents(&mut ids);
    ids.iter().any(|i| i == var)
}

fn subscripts_mention(lhs: &Expr, var: &str) -> bool {
    match &lhs.kind {
        ExprKind::Index(b, i) => mentions(i, var) || subscripts_mention(b, var),
        _ => false,
    }
}
