//! Which uses of a variable are reduction updates: a reduction variable
//! may be privatized (a device's per-thread copies, an OpenMP `reduction`
//! clause) only where a loop does nothing else with it, and a declared
//! `reduction` clause is wrong where its loop does something else with
//! it (`Builder::check_reduction_uses`): what another iteration reads
//! would depend on the order in which the updates ran.

use super::{reduction_value, StmtBody};
use crate::diag::Loc;
use crate::front::syntax::{AssignOp, Expr, ExprKind, RedOp, Stmt};

/// A use of a reduction variable that is not an update of it.
#[derive(Clone, Debug, PartialEq)]
pub struct OtherUse {
    pub loc: Loc,
    /// It writes the variable (other than by an update with the
    /// reduction's operator); otherwise it reads it.
    pub writes: bool,
}

/// Whether every use of `var` in `body` is a reduction update of it with
/// operator `op` whose subscripts do not mention `var`. The update's value
/// may read other elements of an array `var` (lu's `A[i][j] -= A[i][k] *
/// A[k][j]`): a device's per-thread copy is of the updated element alone;
/// see [`update_values_read`] for what an OpenMP clause needs.
pub fn only_reduction_uses(body: &StmtBody, var: &str, op: RedOp) -> bool {
    other_use(body, var, op, None, false).is_none()
}

/// The first use of `var` in `body` that is not a reduction update of it
/// with operator `op`; `at` is where the statement is (a call's own
/// location, where no argument names `var`).
/// An update's value that reads `var` counts: the user's clause promises
/// that the loop does nothing else with it.
pub fn first_other_use(
    body: &StmtBody,
    var: &str,
    op: RedOp,
    at: Option<&Loc>,
) -> Option<OtherUse> {
    other_use(body, var, op, at, true)
}

/// `first_other_use`, where `values` says whether an update's value that
/// reads `var` is another use.
fn other_use(
    body: &StmtBody,
    var: &str,
    op: RedOp,
    at: Option<&Loc>,
    values: bool,
) -> Option<OtherUse> {
    match body {
        StmtBody::Assign { lhs, op: aop, rhs } => {
            if base(lhs) == Some(var) {
                update_use(lhs, reduction_value(lhs, *aop, rhs, op), var, values)
            } else {
                read_in(lhs, var).or_else(|| read_in(rhs, var))
            }
        }
        StmtBody::Compound(stmts) => stmts.iter().find_map(|s| stmt_use(s, var, op, values)),
        StmtBody::Call { args, .. } => args
            .iter()
            .find_map(|a| read_in(a, var))
            .or_else(|| at.map(|l| read_at(l.clone()))),
    }
}

/// The update `lhs op= ...` of `var` whose combined value is `value`: a
/// use other than the update where it is not one, or where its value or
/// its subscripts read `var`.
fn update_use(lhs: &Expr, value: Option<Expr>, var: &str, values: bool) -> Option<OtherUse> {
    let Some(value) = value else {
        return Some(OtherUse {
            loc: lhs.loc.clone(),
            writes: true,
        });
    };
    subscripts_read(lhs, var).or_else(|| values.then(|| read_in(&value, var)).flatten())
}

fn stmt_use(s: &Stmt, var: &str, op: RedOp, values: bool) -> Option<OtherUse> {
    let all = |b: &[Stmt]| b.iter().find_map(|s| stmt_use(s, var, op, values));
    match s {
        Stmt::For {
            iter,
            init,
            cond,
            body,
            loc,
            ..
        } => {
            if iter == var {
                return Some(OtherUse {
                    loc: loc.clone(),
                    writes: true,
                });
            }
            read_in(init, var)
                .or_else(|| read_in(cond, var))
                .or_else(|| all(body))
        }
        Stmt::If {
            cond, then_, else_, ..
        } => read_in(cond, var)
            .or_else(|| all(then_))
            .or_else(|| all(else_)),
        Stmt::While { cond, body, .. } => read_in(cond, var).or_else(|| all(body)),
        Stmt::Assign {
            lhs, op: aop, rhs, ..
        } => {
            if base(lhs) == Some(var) {
                update_use(lhs, reduction_value(lhs, *aop, rhs, op), var, values)
            } else {
                read_in(lhs, var).or_else(|| read_in(rhs, var))
            }
        }
        Stmt::Decl { var: d, init, loc } => {
            if d.name == var {
                return Some(OtherUse {
                    loc: loc.clone(),
                    writes: true,
                });
            }
            d.dims
                .iter()
                .flatten()
                .find_map(|e| read_in(e, var))
                .or_else(|| init.as_ref().and_then(|e| read_in(e, var)))
        }
        Stmt::Call { args, .. } | Stmt::Kill { targets: args, .. } => {
            args.iter().find_map(|a| read_in(a, var))
        }
        Stmt::Assume { .. } | Stmt::Break(_) | Stmt::Continue(_) => None,
    }
}

/// Whether some update of `var` in `body` with operator `op` combines a
/// value that reads `var` (lu's `A[i][j] -= A[i][k] * A[k][j]`). An
/// OpenMP `reduction` clause on an array makes a private copy of the
/// whole array, starting at the operator's identity: such reads would
/// see that copy, not the array.
pub fn update_values_read(body: &StmtBody, var: &str, op: RedOp) -> bool {
    let reads = |lhs: &Expr, aop: AssignOp, rhs: &Expr| {
        base(lhs) == Some(var)
            && match reduction_value(lhs, aop, rhs, op) {
                Some(v) => read_in(&v, var).is_some(),
                None => read_in(rhs, var).is_some(),
            }
    };
    fn stmt(s: &Stmt, reads: &dyn Fn(&Expr, AssignOp, &Expr) -> bool) -> bool {
        let any = |b: &[Stmt]| b.iter().any(|s| stmt(s, reads));
        match s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => any(body),
            Stmt::If { then_, else_, .. } => any(then_) || any(else_),
            Stmt::Assign { lhs, op, rhs, .. } => reads(lhs, *op, rhs),
            _ => false,
        }
    }
    match body {
        StmtBody::Assign { lhs, op: aop, rhs } => reads(lhs, *aop, rhs),
        StmtBody::Compound(stmts) => stmts.iter().any(|s| stmt(s, &reads)),
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

fn read_at(loc: Loc) -> OtherUse {
    OtherUse { loc, writes: false }
}

/// The first place `e` names `var`.
fn read_in(e: &Expr, var: &str) -> Option<OtherUse> {
    match &e.kind {
        ExprKind::Ident(n) if n == var => Some(read_at(e.loc.clone())),
        _ => e.children().into_iter().find_map(|c| read_in(c, var)),
    }
}

fn subscripts_read(lhs: &Expr, var: &str) -> Option<OtherUse> {
    match &lhs.kind {
        ExprKind::Index(b, i) => subscripts_read(b, var).or_else(|| read_in(i, var)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scop::test_support::scop_of;

    fn body_writing<'s>(scop: &'s crate::scop::Scop, var: &str) -> &'s StmtBody {
        &scop
            .stmts
            .iter()
            .find(|s| s.writes.iter().any(|a| a.array == var))
            .unwrap()
            .body
    }

    /// lu's update reads other elements of `A`: no OpenMP clause on `A`.
    /// `hi = fmax(hi, x)` and `s += x` read only themselves, through the
    /// update, and `p ^= x` (spelled out as `p = p ^ x`) neither.
    #[test]
    fn update_values_that_read_their_array() {
        let src = "#include <math.h>\nvoid f(int n, double A[50][50], double x[50], double out[3], unsigned u[50]) {\n double hi = 0, s = 0; unsigned p = 0;\n#pragma scop\n for (int i = 0; i < n; i++)\n  for (int k = 0; k < i; k++)\n   A[i][5] -= A[i][k] * A[k][5];\n for (int i = 0; i < n; i++) {\n  hi = fmax(hi, x[i]);\n  s += x[i];\n  p ^= u[i];\n }\n#pragma endscop\n out[0] = hi; out[1] = s; out[2] = p;\n}\n";
        let scop = scop_of("lu", src);
        assert!(update_values_read(
            body_writing(&scop, "A"),
            "A",
            RedOp::Add
        ));
        assert!(only_reduction_uses(
            body_writing(&scop, "A"),
            "A",
            RedOp::Add
        ));
        assert!(!update_values_read(
            body_writing(&scop, "hi"),
            "hi",
            RedOp::Max
        ));
        assert!(!update_values_read(
            body_writing(&scop, "s"),
            "s",
            RedOp::Add
        ));
        assert!(!update_values_read(
            body_writing(&scop, "p"),
            "p",
            RedOp::BitXor
        ));
        assert!(only_reduction_uses(
            body_writing(&scop, "p"),
            "p",
            RedOp::BitXor
        ));
    }
}
