//! A loop's own `continue` as an `else`: `for (...) { if (c) { X;
//! continue; } Y; }` is `for (...) { if (c) { X; } else { Y; } }`. A loop
//! with a jump of its own is dynamic control to the model, one statement
//! that runs as written: the guard made a parallel loop run on one GPU
//! thread. Rewritten only where each `continue` ends every path through
//! its branch and the other branch has no jump of the loop's, so that the
//! statements after the `if` run exactly where the branch without the
//! `continue` runs. Where both branches have a `continue` on some path, a
//! few statements after the `if` are copied to the end of each branch,
//! and the rewrite goes on in each. A `break` of the loop, or more to
//! copy, and the loop keeps its body as written.

use crate::front::parse::Region;
use crate::front::syntax::{stmt_count, Stmt};

/// The region with such loops rewritten, if it has any.
pub fn restructured(region: &Region) -> Option<Region> {
    let mut changed = false;
    let body = stmts(&region.body, &mut changed);
    changed.then(|| Region {
        body,
        ..region.clone()
    })
}

fn stmts(list: &[Stmt], changed: &mut bool) -> Vec<Stmt> {
    list.iter().map(|s| stmt(s, changed)).collect()
}

fn stmt(s: &Stmt, changed: &mut bool) -> Stmt {
    let mut s = s.map_bodies(&mut |b| stmts(b, changed));
    if let Stmt::For { body, .. } = &mut s {
        if has_jump(body) {
            if let Some(without) = without_continues(body) {
                if !has_jump(&without) {
                    *body = without;
                    *changed = true;
                }
            }
        }
    }
    s
}

/// `list` (statements of the loop's body at its own level) without its
/// `continue`s, where each is of the form the module describes.
fn without_continues(list: &[Stmt]) -> Option<Vec<Stmt>> {
    let mut out = Vec::new();
    for (k, s) in list.iter().enumerate() {
        match s {
            // What follows never runs.
            Stmt::Continue(_) => return Some(out),
            Stmt::Break(_) => return None,
            Stmt::If {
                cond,
                then_,
                else_,
                loc,
            } if has_jump(then_) || has_jump(else_) => {
                let rest = &list[k + 1..];
                let (then_, else_) = if always_continues(then_) && !has_jump(else_) {
                    let else_: Vec<Stmt> = else_.iter().chain(rest).cloned().collect();
                    (without_continues(then_)?, without_continues(&else_)?)
                } else if always_continues(else_) && !has_jump(then_) {
                    let then_: Vec<Stmt> = then_.iter().chain(rest).cloned().collect();
                    (without_continues(&then_)?, without_continues(else_)?)
                } else if stmt_count(rest) <= MAX_COPIED {
                    // A `continue` on some paths of both branches: what
                    // follows the `if` goes to the end of each, copied.
                    let then_: Vec<Stmt> = then_.iter().chain(rest).cloned().collect();
                    let else_: Vec<Stmt> = else_.iter().chain(rest).cloned().collect();
                    (without_continues(&then_)?, without_continues(&else_)?)
                } else {
                    return None;
                };
                out.push(Stmt::If {
                    cond: cond.clone(),
                    then_,
                    else_,
                    loc: loc.clone(),
                });
                return Some(out);
            }
            other => out.push(other.clone()),
        }
    }
    Some(out)
}

/// At most this many statements after an `if` are copied into both of
/// its branches.
const MAX_COPIED: usize = 16;

/// Every path through `list` ends in a `continue` of the loop (and none
/// has a `break` of it).
fn always_continues(list: &[Stmt]) -> bool {
    let mut rest = list;
    while let Some((last, before)) = rest.split_last() {
        if has_break(before) {
            return false;
        }
        match last {
            Stmt::Continue(_) => return true,
            Stmt::If { then_, else_, .. } => {
                return always_continues(then_) && always_continues(else_)
            }
            _ if has_jump(std::slice::from_ref(last)) => return false,
            _ => rest = before,
        }
    }
    false
}

/// A `break` or `continue` of the loop whose body `list` is at its own
/// level (not one of an inner loop).
fn has_jump(list: &[Stmt]) -> bool {
    list.iter().any(|s| match s {
        Stmt::Break(_) | Stmt::Continue(_) => true,
        Stmt::If { then_, else_, .. } => has_jump(then_) || has_jump(else_),
        _ => false,
    })
}

fn has_break(list: &[Stmt]) -> bool {
    list.iter().any(|s| match s {
        Stmt::Break(_) => true,
        Stmt::If { then_, else_, .. } => has_break(then_) || has_break(else_),
        _ => false,
    })
}
