//! A rewriting walk over a region's code that visits every array access
//! (a maximal `Index` chain, or a name on its own) with the iterators of
//! the loops around it.

use crate::diag::Result;
use crate::front::syntax::{Expr, ExprKind, Stmt};

/// What the walk calls at each access: the access (its subscripts already
/// rewritten) and the enclosing loops' iterators, innermost last; `None`
/// keeps it.
pub type Visit<'a> = dyn FnMut(&Expr, &[String]) -> Result<Option<Expr>> + 'a;

pub fn stmts(body: &[Stmt], iters: &mut Vec<String>, f: &mut Visit) -> Result<Vec<Stmt>> {
    body.iter().map(|s| stmt(s, iters, f)).collect()
}

pub fn stmt(s: &Stmt, iters: &mut Vec<String>, f: &mut Visit) -> Result<Stmt> {
    Ok(match s {
        Stmt::For {
            iter,
            iter_type,
            init,
            cond,
            step,
            body,
            independent,
            loc,
        } => {
            let init = expr(init, iters, f)?;
            iters.push(iter.clone());
            let inner = match expr(cond, iters, f) {
                Ok(c) => stmts(body, iters, f).map(|b| (c, b)),
                Err(e) => Err(e),
            };
            iters.pop();
            let (cond, body) = inner?;
            Stmt::For {
                iter: iter.clone(),
                iter_type: iter_type.clone(),
                init,
                cond,
                step: *step,
                body,
                independent: independent.clone(),
                loc: loc.clone(),
            }
        }
        Stmt::If {
            cond,
            then_,
            else_,
            loc,
        } => Stmt::If {
            cond: expr(cond, iters, f)?,
            then_: stmts(then_, iters, f)?,
            else_: stmts(else_, iters, f)?,
            loc: loc.clone(),
        },
        Stmt::Assign {
            lhs,
            op,
            rhs,
            loc,
            atomic,
        } => Stmt::Assign {
            lhs: expr(lhs, iters, f)?,
            op: *op,
            rhs: expr(rhs, iters, f)?,
            loc: loc.clone(),
            atomic: *atomic,
        },
        Stmt::While { cond, body, loc } => Stmt::While {
            cond: expr(cond, iters, f)?,
            body: stmts(body, iters, f)?,
            loc: loc.clone(),
        },
        Stmt::Decl { var, init, loc } => {
            let mut var = var.clone();
            for d in var.dims.iter_mut().flatten() {
                *d = expr(d, iters, f)?;
            }
            Stmt::Decl {
                var,
                init: init.as_ref().map(|i| expr(i, iters, f)).transpose()?,
                loc: loc.clone(),
            }
        }
        Stmt::Assume { cond, loc } => Stmt::Assume {
            cond: expr(cond, iters, f)?,
            loc: loc.clone(),
        },
        Stmt::Kill { targets, loc } => Stmt::Kill {
            targets: targets
                .iter()
                .map(|t| expr(t, iters, f))
                .collect::<Result<_>>()?,
            loc: loc.clone(),
        },
        Stmt::Call { name, args, loc } => Stmt::Call {
            name: name.clone(),
            args: args
                .iter()
                .map(|a| expr(a, iters, f))
                .collect::<Result<_>>()?,
            loc: loc.clone(),
        },
        Stmt::Break(l) => Stmt::Break(l.clone()),
        Stmt::Continue(l) => Stmt::Continue(l.clone()),
    })
}

pub fn expr(e: &Expr, iters: &[String], f: &mut Visit) -> Result<Expr> {
    let b = |x: &Expr, f: &mut Visit| -> Result<Box<Expr>> { Ok(Box::new(expr(x, iters, f)?)) };
    let kind = match &e.kind {
        ExprKind::Index(..) => {
            // The subscripts first (they may hold accesses themselves),
            // then the access.
            let mut subs = Vec::new();
            let mut cur = e;
            while let ExprKind::Index(base, idx) = &cur.kind {
                subs.push((expr(idx, iters, f)?, cur.loc.clone()));
                cur = base;
            }
            let mut rebuilt = cur.clone();
            for (idx, loc) in subs.into_iter().rev() {
                rebuilt = Expr {
                    kind: ExprKind::Index(Box::new(rebuilt), Box::new(idx)),
                    loc,
                };
            }
            return Ok(f(&rebuilt, iters)?.unwrap_or(rebuilt));
        }
        ExprKind::Ident(_) => return Ok(f(e, iters)?.unwrap_or_else(|| e.clone())),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, b(a, f)?),
        ExprKind::Cast(t, a) => ExprKind::Cast(t.clone(), b(a, f)?),
        ExprKind::Binary(op, x, y) => ExprKind::Binary(*op, b(x, f)?, b(y, f)?),
        ExprKind::Cond(c, t, x) => ExprKind::Cond(b(c, f)?, b(t, f)?, b(x, f)?),
        ExprKind::Call(name, args) => ExprKind::Call(
            name.clone(),
            args.iter()
                .map(|a| expr(a, iters, f))
                .collect::<Result<_>>()?,
        ),
        k @ (ExprKind::Int(..) | ExprKind::Float(_)) => k.clone(),
    };
    Ok(Expr {
        kind,
        loc: e.loc.clone(),
    })
}

/// The name an access chain starts from, and its subscripts outermost
/// first.
pub fn chain(e: &Expr) -> Option<(&str, Vec<&Expr>)> {
    let mut subs = Vec::new();
    let mut cur = e;
    while let ExprKind::Index(base, idx) = &cur.kind {
        subs.push(idx.as_ref());
        cur = base;
    }
    subs.reverse();
    match &cur.kind {
        ExprKind::Ident(n) => Some((n, subs)),
        _ => None,
    }
}
