//! Which uses of a variable are reduction updates: a reduction variable
//! may be privatized (a device's per-thread copies, an OpenMP `reduction`
//! clause) only where a loop does nothing else with it.

use super::{reduction_value, StmtBody};
use crate::front::syntax::{Expr, ExprKind, RedOp, Stmt};

/// Whether every use of `var` in `body` is a reduction update of it with
/// operator `op` whose subscripts do not mention `var`. The update's value
/// may read other elements of an array `var` (lu's `A[i][j] -= A[i][k] *
/// A[k][j]`): a device's per-thread copy is of the updated element alone;
/// see [`update_values_read`] for what an OpenMP clause needs.
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

/// Whether some assignment in `body` to an element of `var` computes a
/// value that reads `var`. An OpenMP `reduction` clause on an array makes
/// a private copy of the whole array, starting at the operator's identity:
/// such reads would see that copy's zeros, not the array.
pub fn update_values_read(body: &StmtBody, var: &str) -> bool {
    fn stmt(s: &Stmt, var: &str) -> bool {
        let any = |b: &[Stmt]| b.iter().any(|s| stmt(s, var));
        match s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => any(body),
            Stmt::If { then_, else_, .. } => any(then_) || any(else_),
            Stmt::Assign { lhs, rhs, .. } => base(lhs) == Some(var) && mentions(rhs, var),
            _ => false,
        }
    }
    match body {
        StmtBody::Assign { lhs, rhs, .. } => base(lhs) == Some(var) && mentions(rhs, var),
        StmtBody::Compound(stmts) => stmts.iter().any(|s| stmt(s, var)),
        StmtBody::Call { .. } => false,
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
