//! A loop iterator read after its loop inside the region (`for (i = 0; i
//! < n; i++) ...; A[0] = i;`, as PPCG's and pet's test programs do): C
//! leaves the iterator at its final value, which for a loop without
//! `break` whose bounds the body does not change is a function of the
//! bounds: `lb < ub ? lb + s * ceild(ub - lb, s) : lb` for `i < ub` and a
//! step `s > 0`. Reads of the iterator in the statements that follow the
//! loop in its block become that expression, up to the first statement
//! that runs another loop over the variable or assigns it; the model then
//! sees an affine value where it would otherwise have refused the read.

use crate::front::arith::{self, Arith};
use crate::front::parse::Region;
use crate::front::syntax::{local_decls, subst_stmts, BinOp, Expr, ExprKind, Stmt, VarDecl};
use std::collections::{BTreeMap, BTreeSet};

/// The region with such reads replaced, if it has any; not for the
/// iterators `wrapping`, whose loops may take them around their type's
/// end, where the formula does not hold.
pub fn substituted(region: &Region, wrapping: &BTreeSet<String>) -> Option<Region> {
    let mut body = region.body.clone();
    let mut changed = false;
    // The region's locals beside the variables it sees: a local's loop
    // leaves a value of the local's type too (`int k; for (k = x * 0.5;
    // ...)` starts at the truncated value).
    let mut decls = region.symbols.clone();
    decls.extend(local_decls(&region.body));
    process(&mut body, &decls, wrapping, &mut changed);
    changed.then(|| Region {
        body,
        ..region.clone()
    })
}

fn process(
    body: &mut [Stmt],
    decls: &BTreeMap<String, VarDecl>,
    wrapping: &BTreeSet<String>,
    changed: &mut bool,
) {
    // Inner blocks first: a read after an inner loop is that loop's.
    for s in body.iter_mut() {
        match s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => {
                process(body, decls, wrapping, changed)
            }
            Stmt::If { then_, else_, .. } => {
                process(then_, decls, wrapping, changed);
                process(else_, decls, wrapping, changed);
            }
            _ => {}
        }
    }
    for k in 0..body.len() {
        let Some((iter, value)) = final_value(&body[k], decls) else {
            continue;
        };
        if wrapping.contains(&iter) {
            continue;
        }
        // The names the value is computed from: a statement that may
        // change one (`m = 5;` after `for (i = 0; i < m; i++)`) ends the
        // reads the formula stands for.
        let mut inputs = Vec::new();
        value.idents(&mut inputs);
        inputs.retain(|n| n != &iter);
        for s in body[k + 1..].iter_mut() {
            // A statement that may write the variable (`if (c) i = 2;`)
            // ends the reads of the loop's value, its own included.
            let mut written = Vec::new();
            s.may_write(&mut written);
            if written.contains(&iter) {
                // A loop's initialiser runs before anything in the loop
                // writes (`for (i = i - 10; ...)` reads the value left).
                if let Stmt::For { init, .. } = s {
                    let map = |n: &str| (n == iter).then(|| value.clone());
                    let new = crate::front::syntax::subst_expr(init, &map);
                    *changed |= new != *init;
                    *init = new;
                }
                break;
            }
            if written.iter().any(|w| inputs.contains(w)) {
                break;
            }
            let mut names = Vec::new();
            s.idents(&mut names);
            if names.contains(&iter) {
                let map = |n: &str| (n == iter).then(|| value.clone());
                *s = subst_stmts(std::slice::from_ref(s), &map).remove(0);
                *changed = true;
            }
            if loops_over(s, &iter) {
                break;
            }
        }
    }
}

/// The iterator of the loop `s` and its value after the loop, where the
/// loop has the form described above.
fn final_value(s: &Stmt, decls: &BTreeMap<String, VarDecl>) -> Option<(String, Expr)> {
    let Stmt::For {
        iter,
        iter_type: None,
        init,
        cond,
        step,
        body,
        ..
    } = s
    else {
        return None;
    };
    if has_break(body) {
        return None;
    }
    let is_iter = |e: &Expr| matches!(&e.kind, ExprKind::Ident(n) if n == iter);
    let ExprKind::Binary(op, a, b) = &cond.kind else {
        return None;
    };
    // `i op bound`, or `bound op' i` flipped.
    let (op, bound) = if is_iter(a) {
        (*op, b.as_ref())
    } else if is_iter(b) {
        let flipped = match op {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            _ => return None,
        };
        (flipped, a.as_ref())
    } else {
        return None;
    };
    let mut used = Vec::new();
    init.idents(&mut used);
    bound.idents(&mut used);
    if used.contains(iter) {
        return None;
    }
    // The bounds keep their values while the loop runs.
    let mut written = Vec::new();
    body.iter().for_each(|s| s.may_write(&mut written));
    if used.iter().any(|u| written.contains(u)) {
        return None;
    }
    // The comparison in the iterator's own type, the formula's arithmetic
    // too: a bound of a wider or floating type (`i < x` of a `double`
    // x stops at the first integer at or above it; `j < sizeof B` compares
    // in `size_t`) is not this formula's.
    let var = |n: &str| decls.get(n).map(|v| v.base_type.clone());
    let iter_type = decls.get(iter)?.base_type.trim();
    let iter_arith = Arith::of_c_type(iter_type)?;
    let integer = |a: Arith| matches!(a, Arith::Int | Arith::UInt | Arith::Long | Arith::ULong);
    let bound_arith = arith::type_of(bound, &var)?;
    if !integer(iter_arith)
        || !integer(bound_arith)
        || Arith::common(iter_arith, bound_arith) != iter_arith
    {
        return None;
    }
    let loc = &cond.loc;
    let mk = |kind| Expr {
        kind,
        loc: loc.clone(),
    };
    let bin = |op, x: Expr, y: Expr| mk(ExprKind::Binary(op, Box::new(x), Box::new(y)));
    let int = |v: i64| mk(ExprKind::Int(v, v.to_string()));
    // The start as the iterator holds it: `k = alpha + 1` of a `double`
    // alpha stores its conversion, which the loop then compares; in a
    // type wider than `int` the formula's arithmetic is done in it (`lb +
    // s * ceild(...)` of a `long long` passes `int`'s range).
    let lb = match arith::type_of(init, &var) {
        Some(Arith::Int) if iter_arith == Arith::Int => init.clone(),
        _ => mk(ExprKind::Cast(
            iter_type.to_string(),
            Box::new(init.clone()),
        )),
    };
    // `n + 1` of an `int` n below a `long` iterator is done in the
    // iterator's type (n may be INT_MAX).
    let bound = &if iter_arith == Arith::Int {
        bound.clone()
    } else {
        mk(ExprKind::Cast(
            iter_type.to_string(),
            Box::new(bound.clone()),
        ))
    };
    // The first value the loop does not run: `end`, approached upwards
    // (`up`) or downwards.
    let (end, up) = match (op, *step > 0) {
        (BinOp::Lt, true) => (bound.clone(), true),
        (BinOp::Le, true) => (bin(BinOp::Add, bound.clone(), int(1)), true),
        (BinOp::Gt, false) => (bound.clone(), false),
        (BinOp::Ge, false) => (bin(BinOp::Sub, bound.clone(), int(1)), false),
        _ => return None,
    };
    // Upwards: `lb < end ? lb + s * ceild(end - lb, s) : lb`; downwards
    // the same with the operators turned round.
    let (before, toward) = if up {
        (BinOp::Lt, BinOp::Add)
    } else {
        (BinOp::Gt, BinOp::Sub)
    };
    let s = step.abs();
    let last = if s == 1 {
        end.clone()
    } else {
        let distance = if up {
            bin(BinOp::Sub, end.clone(), lb.clone())
        } else {
            bin(BinOp::Sub, lb.clone(), end.clone())
        };
        let steps = mk(ExprKind::Call(
            "pencilc_ceild".into(),
            vec![distance, int(s)],
        ));
        bin(toward, lb.clone(), bin(BinOp::Mul, int(s), steps))
    };
    let runs = bin(before, lb.clone(), end.clone());
    let value = mk(ExprKind::Cond(Box::new(runs), Box::new(last), Box::new(lb)));
    // In the variable's own type, as C leaves it.
    let value = match decls.get(iter).filter(|v| v.rank() == 0) {
        Some(v) if v.base_type.trim() != "int" => {
            let t = v.base_type.trim();
            mk(ExprKind::Cast(t.to_string(), Box::new(value)))
        }
        _ => value,
    };
    Some((iter.clone(), value))
}

/// A `break` of this loop (not of a loop inside it).
fn has_break(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Break(_) => true,
        Stmt::If { then_, else_, .. } => has_break(then_) || has_break(else_),
        _ => false,
    })
}

/// Whether the statement runs a loop over `var` (at any depth).
fn loops_over(s: &Stmt, var: &str) -> bool {
    match s {
        Stmt::For { iter, body, .. } => iter == var || body.iter().any(|s| loops_over(s, var)),
        Stmt::While { body, .. } => body.iter().any(|s| loops_over(s, var)),
        Stmt::If { then_, else_, .. } => then_.iter().chain(else_).any(|s| loops_over(s, var)),
        _ => false,
    }
}
