//! What a loop reads and writes, as the rewrites of the module need it:
//! whether an expression gives after the loop what it gave in an
//! iteration.

use super::Cx;
use crate::diag::Loc;
use crate::front::syntax::{Expr, ExprKind, Stmt};
use std::collections::BTreeSet;

/// What a loop's body writes: every name, and where each array element
/// it assigns is.
#[derive(Default)]
pub(super) struct Writes {
    pub(super) names: BTreeSet<String>,
    /// Each element assignment: the array, its subscripts outermost
    /// first, and the position in the loop's body of the statement that
    /// holds it.
    elements: Vec<(String, Vec<Expr>, usize)>,
    /// Names written otherwise too (assigned whole, declared, killed,
    /// passed to a call).
    whole: BTreeSet<String>,
}

impl Writes {
    pub(super) fn collect(&mut self, body: &[Stmt], pos: usize) {
        let mut names = BTreeSet::new();
        writes(body, &mut names);
        let mut assigned = BTreeSet::new();
        self.elements_of(body, pos, &mut assigned);
        let mut whole_names = BTreeSet::new();
        whole_writes(body, &mut whole_names);
        self.whole.extend(whole_names);
        for n in names.iter().filter(|n| !assigned.contains(*n)) {
            self.whole.insert(n.clone());
        }
        self.names.extend(names);
    }

    fn elements_of(&mut self, body: &[Stmt], pos: usize, assigned: &mut BTreeSet<String>) {
        for s in body {
            match s {
                Stmt::For { body, .. } | Stmt::While { body, .. } => {
                    self.elements_of(body, pos, assigned)
                }
                Stmt::If { then_, else_, .. } => {
                    self.elements_of(then_, pos, assigned);
                    self.elements_of(else_, pos, assigned);
                }
                Stmt::Assign { lhs, .. } => {
                    if let Some((base, subs)) = element(lhs) {
                        assigned.insert(base.clone());
                        self.elements.push((base, subs, pos));
                    }
                }
                _ => {}
            }
        }
    }
}

/// Names the statements write other than by element assignments.
fn whole_writes(body: &[Stmt], out: &mut BTreeSet<String>) {
    for s in body {
        match s {
            Stmt::For { iter, body, .. } => {
                out.insert(iter.clone());
                whole_writes(body, out);
            }
            Stmt::While { body, .. } => whole_writes(body, out),
            Stmt::If { then_, else_, .. } => {
                whole_writes(then_, out);
                whole_writes(else_, out);
            }
            Stmt::Assign { lhs, .. } => {
                if element(lhs).is_none() {
                    let mut names = Vec::new();
                    lhs.idents(&mut names);
                    out.extend(names);
                }
            }
            other => {
                let mut names = BTreeSet::new();
                writes(std::slice::from_ref(other), &mut names);
                out.extend(names);
            }
        }
    }
}

/// Whether every array that `e` indexes with the iterator has all its
/// extents declared: after the rewrite the subscript is the variable the
/// loop leaves, which says nothing of which elements it reaches, and
/// only a declared extent lets the model bound them (a pointer's would
/// keep the whole region on the host).
pub(super) fn sized_where_found(e: &Expr, iter: &str, cx: &Cx) -> bool {
    if let Some((x, subs)) = element(e) {
        let mut names = Vec::new();
        subs.iter().for_each(|s| s.idents(&mut names));
        let sized = cx
            .region
            .symbols
            .get(&x)
            .is_some_and(|v| !v.pointer && v.dims.iter().all(|d| d.is_some()));
        if names.iter().any(|n| n == iter) && !sized {
            return false;
        }
    }
    e.children()
        .into_iter()
        .all(|c| sized_where_found(c, iter, cx))
}

/// An element access `x[a][b]...`: `x` and its subscripts, outermost first.
pub(super) fn element(e: &Expr) -> Option<(String, Vec<Expr>)> {
    let mut subs = Vec::new();
    let mut cur = e;
    while let ExprKind::Index(b, i) = &cur.kind {
        subs.push((**i).clone());
        cur = b;
    }
    let ExprKind::Ident(x) = &cur.kind else {
        return None;
    };
    if subs.is_empty() {
        return None;
    }
    subs.reverse();
    Some((x.clone(), subs))
}

/// Whether `e` evaluated after the loop at an iteration gives what it gave
/// in that iteration (whose `if` is in the statement at `pos` of the
/// loop's body): it reads the iterator, names the loop does not write,
/// and elements of arrays that the loop writes only elsewhere (`apart`),
/// and calls pure functions only.
pub(super) fn replayable(e: &Expr, iter: &str, w: &Writes, pos: usize) -> bool {
    match &e.kind {
        ExprKind::Ident(n) => n == iter || !w.names.contains(n),
        ExprKind::Index(..) => {
            let Some((x, subs)) = element(e) else {
                return false;
            };
            let safe = !w.names.contains(&x)
                || (!w.whole.contains(&x)
                    && w.elements
                        .iter()
                        .filter(|(y, _, _)| *y == x)
                        .all(|(_, ws, wpos)| apart(&subs, ws, *wpos, iter, pos)));
            safe && subs.iter().all(|s| replayable(s, iter, w, pos))
        }
        ExprKind::Call(f, args) => {
            crate::scop::build::is_pure_function(f)
                && args.iter().all(|a| replayable(a, iter, w, pos))
        }
        _ => e
            .children()
            .into_iter()
            .all(|c| replayable(c, iter, w, pos)),
    }
}

/// Whether no write `ws` (in the statement at `wpos` of the loop's body),
/// of any iteration, changes the element `read` after the iteration whose
/// `if` (at `pos`) reads it: some dimension where both are different
/// constants, or one where both are the iterator itself and the write
/// comes first in the body (each iteration writes its own element before
/// it reads it, and no other iteration touches it).
fn apart(read: &[Expr], ws: &[Expr], wpos: usize, iter: &str, pos: usize) -> bool {
    if read.len() != ws.len() {
        return false;
    }
    read.iter().zip(ws).any(|(r, w)| match (&r.kind, &w.kind) {
        (ExprKind::Int(a, _), ExprKind::Int(b, _)) => a != b,
        (ExprKind::Ident(a), ExprKind::Ident(b)) => a == iter && b == iter && wpos < pos,
        _ => false,
    })
}

/// The `if` statements of a loop's body that each iteration reaches at
/// most once: through other `if`s, not inside inner loops. Pre-order, each
/// with the position in the body of the statement that holds it.
pub(super) fn visit_ifs<'s>(body: &'s [Stmt], f: &mut dyn FnMut(&'s Stmt, usize)) {
    for (pos, s) in body.iter().enumerate() {
        visit_ifs_at(s, pos, f);
    }
}

fn visit_ifs_at<'s>(s: &'s Stmt, pos: usize, f: &mut dyn FnMut(&'s Stmt, usize)) {
    if let Stmt::If { then_, else_, .. } = s {
        f(s, pos);
        for t in then_.iter().chain(else_.iter()) {
            visit_ifs_at(t, pos, f);
        }
    }
}

/// `visit_ifs`, in the same order, giving each one's `then` branch.
pub(super) fn visit_ifs_mut(body: &mut [Stmt], f: &mut dyn FnMut(&mut Vec<Stmt>, &Loc)) {
    for s in body {
        if let Stmt::If {
            then_, else_, loc, ..
        } = s
        {
            f(then_, loc);
            visit_ifs_mut(then_, f);
            visit_ifs_mut(else_, f);
        }
    }
}

/// Every name the statements mention but those of `skip`, an `if`: of it,
/// with `values`, its condition and the right-hand sides of its `then`
/// branch's assignments (all but the names they assign).
pub(super) fn idents_but(body: &[Stmt], skip: &Stmt, values: bool, out: &mut Vec<String>) {
    for s in body {
        if std::ptr::eq(s, skip) {
            if let (true, Stmt::If { cond, then_, .. }) = (values, s) {
                cond.idents(out);
                for a in then_ {
                    if let Stmt::Assign { rhs, .. } = a {
                        rhs.idents(out);
                    }
                }
            }
            continue;
        }
        match s {
            Stmt::For {
                iter,
                init,
                cond,
                body,
                ..
            } => {
                out.push(iter.clone());
                init.idents(out);
                cond.idents(out);
                idents_but(body, skip, values, out);
            }
            Stmt::While { cond, body, .. } => {
                cond.idents(out);
                idents_but(body, skip, values, out);
            }
            Stmt::If {
                cond, then_, else_, ..
            } => {
                cond.idents(out);
                idents_but(then_, skip, values, out);
                idents_but(else_, skip, values, out);
            }
            other => other.idents(out),
        }
    }
}

/// Names the statements may write: assigned variables and arrays, loop
/// iterators, declared locals, killed values.
pub(super) fn writes(body: &[Stmt], out: &mut BTreeSet<String>) {
    for s in body {
        match s {
            Stmt::For { iter, body, .. } => {
                out.insert(iter.clone());
                writes(body, out);
            }
            Stmt::While { body, .. } => writes(body, out),
            Stmt::If { then_, else_, .. } => {
                writes(then_, out);
                writes(else_, out);
            }
            Stmt::Assign { lhs, .. } => {
                let mut cur = lhs;
                while let ExprKind::Index(b, _) = &cur.kind {
                    cur = b;
                }
                let mut names = Vec::new();
                cur.idents(&mut names);
                out.extend(names);
            }
            Stmt::Decl { var, .. } => {
                out.insert(var.name.clone());
            }
            Stmt::Kill { targets, .. } => {
                for t in targets {
                    let mut names = Vec::new();
                    t.idents(&mut names);
                    out.extend(names);
                }
            }
            Stmt::Call { args, .. } => {
                for a in args {
                    let mut names = Vec::new();
                    a.idents(&mut names);
                    out.extend(names);
                }
            }
            Stmt::Assume { .. } | Stmt::Break(_) | Stmt::Continue(_) => {}
        }
    }
}

/// Whether the statements call a function (a call statement: expressions'
/// calls are pure or inlined by now).
pub(super) fn calls(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Call { .. } => true,
        Stmt::For { body, .. } | Stmt::While { body, .. } => calls(body),
        Stmt::If { then_, else_, .. } => calls(then_) || calls(else_),
        _ => false,
    })
}
