//! Arg-max and arg-min: `if (E > m) { m = E; at = i; }` in a loop leaves
//! `m` the largest value of `E` (or its value before the loop) and `at`
//! what the iteration that first reached it assigned (with `>=`: the last
//! one). The maximum is a reduction once the `if` assigns `m` alone
//! (`scop::reductions` takes `if (E > m) m = E;`); the iteration is found
//! after the loop by a second one over the same iterations, which looks
//! for `E == m` (the maximum is one of the values, exactly) as a search
//! for the first (last) match does, and the other assignments run once
//! at it:
//!
//! ```c
//! pencilc_init_1 = m;                      // strict comparisons only
//! for (i = lo; i < n; i++) { ...; if (E > m) m = E; ... }
//! pencilc_last_0 = (long) 2147483647 + 1;  // above every iteration
//! for (i = lo; i < n; i++)
//!     if (m > pencilc_init_1 && E == m)    // some E beat the start
//!         pencilc_last_0 = pencilc_last_0 < (long) i ? pencilc_last_0 : (long) i;
//! if (pencilc_last_0 <= (long) 2147483647) at = (int) pencilc_last_0;
//! ```
//!
//! What it needs besides what a search needs (the module's comment): the
//! `if` is a statement of the loop's body itself, and the body has no
//! `break` or `continue` (the second loop meets the same iterations);
//! `E` has `m`'s type (the comparison then compares what the assignment
//! stores) and, like the other values, gives after the loop what it gave
//! in its iteration; the loop's bounds read nothing it writes; nothing
//! else in the loop mentions `m` or the other variables.

use super::reads::{idents_but, replayable, sized_where_found, Writes};
use super::{at_iteration, keep_iteration, local, shape, Cx, Made, LAST};
use crate::front::arith::{self, Arith};
use crate::front::cexpr::plain;
use crate::front::syntax::{AssignOp, BinOp, Expr, ExprKind, Stmt, UnOp};

/// The prefix of the copies of `m` before the loop.
const INIT: &str = "pencilc_init_";

/// One arg-max (arg-min) `if` of a loop's body.
struct Extreme {
    /// Its position in the body.
    pos: usize,
    /// The compared value, the variable, and the other assignments.
    value: Expr,
    var: String,
    others: Vec<Stmt>,
    largest: bool,
    strict: bool,
}

/// The statements to put before and after the loop `s`, whose arg-max
/// `if` statements are rewritten in place (empty where it has none).
pub(super) fn rewrite_loop(s: &mut Stmt, cx: &Cx, made: &mut Vec<Made>) -> (Vec<Stmt>, Vec<Stmt>) {
    let Some(up) = shape(s, cx).map(|sh| sh.up) else {
        return (Vec::new(), Vec::new());
    };
    let Stmt::For {
        iter,
        iter_type,
        init,
        cond,
        step,
        body,
        loc,
        ..
    } = s
    else {
        return (Vec::new(), Vec::new());
    };
    if jumps(body) {
        return (Vec::new(), Vec::new());
    }
    let iter_name = iter.clone();
    let mut loop_writes = Writes::default();
    for (pos, st) in body.iter().enumerate() {
        loop_writes.collect(std::slice::from_ref(st), pos);
    }
    let mut bound_reads = Vec::new();
    init.idents(&mut bound_reads);
    cond.idents(&mut bound_reads);
    if bound_reads.iter().any(|n| loop_writes.names.contains(n)) {
        return (Vec::new(), Vec::new());
    }
    let found: Vec<Extreme> = (0..body.len())
        .filter_map(|pos| extreme(body, pos, &iter_name, &loop_writes, cx))
        // A maximum alone is a reduction already.
        .filter(|x| !x.others.is_empty())
        .filter(|x| {
            let mut outside = Vec::new();
            init.idents(&mut outside);
            cond.idents(&mut outside);
            idents_but(body, &body[x.pos], false, &mut outside);
            let mut mine: Vec<&str> = vec![x.var.as_str()];
            mine.extend(x.others.iter().filter_map(target));
            !outside.iter().any(|n| mine.contains(&n.as_str()))
        })
        .collect();
    let mut before = Vec::new();
    let mut after = Vec::new();
    for x in found {
        let Stmt::If {
            then_, loc: if_loc, ..
        } = &mut body[x.pos]
        else {
            continue;
        };
        let if_loc = if_loc.clone();
        let mk = |kind| Expr {
            kind,
            loc: if_loc.clone(),
        };
        let bin = |op, a: Expr, b: Expr| mk(ExprKind::Binary(op, Box::new(a), Box::new(b)));
        let var = || mk(ExprKind::Ident(x.var.clone()));
        let int = |v: i64| mk(ExprKind::Int(v, v.to_string()));
        // `-2147483647`, `INT_MIN + 1`, written as C writes it.
        let int_min_plus_one = || mk(ExprKind::Unary(UnOp::Neg, Box::new(int(2147483647))));
        let long = |e: Expr| mk(ExprKind::Cast("long".into(), Box::new(e)));
        // The `if` keeps the maximum alone.
        then_.retain(|a| target(a) == Some(x.var.as_str()));
        // Whether some value beat the variable's start: a strict
        // comparison leaves the other variables alone where none did,
        // even where one equals it.
        let beat = if x.strict {
            let init_name = format!("{}{}", INIT, made.len());
            let ty = cx.region.symbols[&x.var].base_type.clone();
            made.push(Made {
                var: local(&init_name, &ty, &if_loc),
                init: None,
            });
            let copy = || mk(ExprKind::Ident(init_name.clone()));
            before.push(Stmt::Assign {
                lhs: copy(),
                op: AssignOp::Assign,
                rhs: var(),
                loc: if_loc.clone(),
                atomic: false,
            });
            Some(bin(
                if x.largest { BinOp::Gt } else { BinOp::Lt },
                var(),
                copy(),
            ))
        } else {
            None
        };
        // The first match in the loop's order for a strict comparison,
        // the last one otherwise: the largest iteration where the loop
        // counts up and takes the last, or counts down and takes the
        // first.
        let take_largest = up != x.strict;
        let last_name = format!("{}{}", LAST, made.len());
        made.push(Made {
            var: local(&last_name, "long", &if_loc),
            init: None,
        });
        let last = || mk(ExprKind::Ident(last_name.clone()));
        // Below (above) every `int` iteration.
        let none = if take_largest {
            bin(BinOp::Sub, long(int_min_plus_one()), int(2))
        } else {
            bin(BinOp::Add, long(int(2147483647)), int(1))
        };
        after.push(Stmt::Assign {
            lhs: last(),
            op: AssignOp::Assign,
            rhs: none,
            loc: if_loc.clone(),
            atomic: false,
        });
        let matches = bin(BinOp::Eq, x.value.clone(), var());
        let matches = match beat {
            Some(b) => bin(BinOp::And, b, matches),
            None => matches,
        };
        after.push(Stmt::For {
            iter: iter.clone(),
            iter_type: iter_type.clone(),
            init: init.clone(),
            cond: cond.clone(),
            step: *step,
            body: vec![Stmt::If {
                cond: matches,
                then_: vec![keep_iteration(&last(), iter, take_largest)],
                else_: Vec::new(),
                loc: if_loc.clone(),
            }],
            independent: None,
            loc: loc.clone(),
        });
        let assignments = at_iteration(&x.others, iter, &last());
        let found = if take_largest {
            bin(
                BinOp::Ge,
                last(),
                bin(BinOp::Sub, long(int_min_plus_one()), int(1)),
            )
        } else {
            bin(BinOp::Le, last(), long(int(2147483647)))
        };
        after.push(Stmt::If {
            cond: found,
            then_: assignments,
            else_: Vec::new(),
            loc: if_loc.clone(),
        });
    }
    (before, after)
}

/// The scalar an assignment statement assigns (`=`), if it is one.
fn target(s: &Stmt) -> Option<&str> {
    match s {
        Stmt::Assign {
            lhs,
            op: AssignOp::Assign,
            atomic: false,
            ..
        } => match &lhs.kind {
            ExprKind::Ident(x) => Some(x),
            _ => None,
        },
        _ => None,
    }
}

/// The statement at `pos` of the body as an arg-max (arg-min) `if`.
fn extreme(body: &[Stmt], pos: usize, iter: &str, w: &Writes, cx: &Cx) -> Option<Extreme> {
    let Stmt::If {
        cond, then_, else_, ..
    } = &body[pos]
    else {
        return None;
    };
    if !else_.is_empty() {
        return None;
    }
    let ExprKind::Binary(op, a, b) = &cond.kind else {
        return None;
    };
    let mut targets: Vec<&str> = Vec::new();
    for s in then_ {
        let t = target(s)?;
        let scalar = cx
            .region
            .symbols
            .get(t)
            .is_some_and(|v| v.rank() == 0 && v.members.is_empty() && !v.volatile_or_register);
        if !scalar || t == iter || targets.contains(&t) {
            return None;
        }
        targets.push(t);
    }
    let is_target = |e: &Expr| match &e.kind {
        ExprKind::Ident(x) => targets.contains(&x.as_str()),
        _ => false,
    };
    // `E > m` or `m < E` (and the other three comparisons).
    let (value, var, largest, strict) = match (is_target(a), is_target(b)) {
        (false, true) => (
            a,
            b,
            matches!(op, BinOp::Gt | BinOp::Ge),
            matches!(op, BinOp::Gt | BinOp::Lt),
        ),
        (true, false) => (
            b,
            a,
            matches!(op, BinOp::Lt | BinOp::Le),
            matches!(op, BinOp::Gt | BinOp::Lt),
        ),
        _ => return None,
    };
    if !matches!(op, BinOp::Gt | BinOp::Ge | BinOp::Lt | BinOp::Le) {
        return None;
    }
    let ExprKind::Ident(var) = &var.kind else {
        return None;
    };
    // `m = E`, with the compared value.
    let assigns_value = then_.iter().any(|s| match s {
        Stmt::Assign { lhs, rhs, .. } => {
            matches!(&lhs.kind, ExprKind::Ident(x) if x == var) && plain(rhs) == plain(value)
        }
        _ => false,
    });
    if !assigns_value {
        return None;
    }
    let ty = |n: &str| {
        cx.region
            .symbols
            .get(n)
            .map(|v| v.base_type.clone())
            .or_else(|| cx.loop_types.get(n).cloned())
    };
    // `m = E` stores `E` unchanged: `m`'s type is the compared value's,
    // and not one that C promotes (a `short` keeps `40000` as `-25536`,
    // which no iteration's value then equals).
    let declared = &cx.region.symbols[var].base_type;
    let var_type = Arith::of_c_type(declared);
    if var_type.is_none() || arith::type_of(value, &ty) != var_type || promoted(declared) {
        return None;
    }
    // The values read none of the variables, and give after the loop
    // what they gave in their iteration.
    let mut values = vec![value.as_ref()];
    for s in then_ {
        if let Stmt::Assign { lhs, rhs, .. } = s {
            if !matches!(&lhs.kind, ExprKind::Ident(x) if x == var) {
                values.push(rhs);
            }
        }
    }
    for v in &values {
        let mut names = Vec::new();
        v.idents(&mut names);
        if names.iter().any(|n| targets.contains(&n.as_str()))
            || !replayable(v, iter, w, pos)
            || !sized_where_found(v, iter, cx)
        {
            return None;
        }
    }
    let others: Vec<Stmt> = then_
        .iter()
        .filter(|s| target(s) != Some(var.as_str()))
        .cloned()
        .collect();
    Some(Extreme {
        pos,
        value: (**value).clone(),
        var: var.clone(),
        others,
        largest,
        strict,
    })
}

/// Whether C computes with a wider type than `t` (`char`, `short`,
/// `_Bool` and their `<stdint.h>` names, after typedefs).
fn promoted(t: &str) -> bool {
    t.split_whitespace()
        .any(|w| matches!(w, "char" | "short" | "_Bool" | "bool"))
}

/// A `break` or `continue` of the loop itself (not of a loop inside it).
fn jumps(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Break(_) | Stmt::Continue(_) => true,
        Stmt::If { then_, else_, .. } => jumps(then_) || jumps(else_),
        _ => false,
    })
}
