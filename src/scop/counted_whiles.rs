//! A `while` loop that counts: `i = e; while (c) { B; i += s; }` (or `T i
//! = e;` before it) with a constant step `s`, `B` leaving `i` alone and
//! having no `continue` of the loop, is `for (i = e; c; i += s) B` as C
//! defines `for`: the same tests, the same body, the same increments,
//! and `i` left at the first value where `c` fails. Generated C and
//! hand-written ports of Fortran write loops so; as a `while` they were
//! dynamic control to the model, one statement, and ran on one GPU
//! thread. As a `for` they are whatever the model makes of that `for`
//! (an affine loop, or dynamic control where `c` is not affine).
//!
//! The assignment before the loop becomes the loop's initialiser (a
//! declaration keeps its name without its value), so that nothing else
//! writes the iterator outside its loop. Only integer variables that are
//! not `_Bool` or `volatile` and whose address the region never takes;
//! `e` must not read `i`.

use crate::front::parse::{linear, signed_const_value, Region};
use crate::front::syntax::{integer_kind, local_decls, AssignOp, ExprKind, Stmt};
use std::collections::BTreeSet;

/// The region with such loops rewritten, if it has any.
pub fn rewritten(region: &Region) -> Option<Region> {
    let mut address_taken = BTreeSet::new();
    region
        .body
        .iter()
        .for_each(|s| super::index_values::addresses(s, &mut address_taken));
    // The front end gives every local a name of its own, so one set
    // serves the whole region.
    let counters: BTreeSet<String> = region
        .symbols
        .iter()
        .chain(local_decls(&region.body).iter())
        .filter(|(_, v)| counts(v))
        .map(|(n, _)| n.clone())
        .collect();
    let cx = Cx {
        counters,
        address_taken,
    };
    let mut changed = false;
    let body = cx.list(&region.body, &mut changed);
    changed.then(|| Region {
        body,
        ..region.clone()
    })
}

/// Whether the variable may count a loop: an integer scalar, not
/// `volatile` (each of whose reads the program may observe).
fn counts(v: &crate::front::syntax::VarDecl) -> bool {
    v.rank() == 0
        && !v.pointer
        && v.is_integer()
        && !v.volatile_or_register
        // A `_Bool` counts 0 and 1 only (`b += 2` stores 1), which a
        // loop of the model, stepping by integers, does not.
        && integer_kind(v.base_type.trim()) != Some((1, false))
}

struct Cx {
    counters: BTreeSet<String>,
    address_taken: BTreeSet<String>,
}

impl Cx {
    fn list(&self, list: &[Stmt], changed: &mut bool) -> Vec<Stmt> {
        let mut out: Vec<Stmt> = Vec::with_capacity(list.len());
        for s in list {
            let s = s.map_bodies(&mut |b| self.list(b, changed));
            match out.last().and_then(|prev| self.counted(prev, &s)) {
                Some((prev, for_loop)) => {
                    out.pop();
                    out.extend(prev);
                    out.push(for_loop);
                    *changed = true;
                }
                None => out.push(s),
            }
        }
        out
    }

    /// `prev` (what stays of it) and the `for` loop, where `prev; s` is
    /// a counted `while` loop with its first value.
    fn counted(&self, prev: &Stmt, s: &Stmt) -> Option<(Option<Stmt>, Stmt)> {
        let Stmt::While { cond, body, loc } = s else {
            return None;
        };
        let (last, rest) = body.split_last()?;
        let Stmt::Assign {
            lhs,
            op,
            rhs,
            atomic: false,
            ..
        } = last
        else {
            return None;
        };
        let ExprKind::Ident(iter) = &lhs.kind else {
            return None;
        };
        if !self.counters.contains(iter) || self.address_taken.contains(iter) {
            return None;
        }
        let step = match op {
            // Unsigned constants wrap in the counter's type (`a +=
            // 0xFFFFFFFFu` counts an `int` down).
            AssignOp::Add => signed_const_value(rhs)?,
            AssignOp::Sub => signed_const_value(rhs)?.checked_neg()?,
            AssignOp::Assign => match linear(rhs, iter)? {
                (1, c) => c,
                _ => return None,
            },
            _ => return None,
        };
        if step == 0 || continues(rest) {
            return None;
        }
        let mut written = Vec::new();
        rest.iter().for_each(|s| s.may_write(&mut written));
        if written.contains(iter) {
            return None;
        }
        // The first value, and what stays of its statement.
        let (kept, init) = match prev {
            Stmt::Assign {
                lhs: l,
                op: AssignOp::Assign,
                rhs: e,
                atomic: false,
                ..
            } if matches!(&l.kind, ExprKind::Ident(n) if n == iter) => (None, e),
            Stmt::Decl {
                var,
                init: Some(e),
                loc,
            } if var.name == *iter => (
                Some(Stmt::Decl {
                    var: var.clone(),
                    init: None,
                    loc: loc.clone(),
                }),
                e,
            ),
            _ => return None,
        };
        let mut read = Vec::new();
        init.idents(&mut read);
        if read.contains(iter) {
            return None;
        }
        Some((
            kept,
            Stmt::For {
                iter: iter.clone(),
                iter_type: None,
                init: init.clone(),
                cond: cond.clone(),
                step,
                body: rest.to_vec(),
                independent: None,
                loc: loc.clone(),
            },
        ))
    }
}

/// Whether a `continue` of this loop is in `body`: it would skip the
/// increment, which a `for` loop's `continue` runs.
fn continues(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Continue(_) => true,
        Stmt::If { then_, else_, .. } => continues(then_) || continues(else_),
        _ => false,
    })
}
