//! Scalars that a loop assigns only under a condition and never reads
//! (`for (i = 0; i < n; i++) if (A[i][0] > t) { u = A[i][1]; last = i; }`,
//! a search for the last match): after the loop each holds what the last
//! iteration whose condition held assigned. Where the assigned values read
//! nothing the loop writes, that is a function of the iteration alone, so
//! the loop only has to find the iteration, an integer maximum (a
//! reduction, the same in any order), and the assignments run once after
//! it, at that iteration:
//!
//! ```c
//! pencilc_last_0 = (long) (0) - 1;
//! for (i = 0; i < n; i++)
//!     if (A[i][0] > t)
//!         pencilc_last_0 = pencilc_last_0 > (long) i ? pencilc_last_0 : (long) i;
//! if (pencilc_last_0 >= (long) (0)) {
//!     u = A[(int) pencilc_last_0][1];
//!     last = (int) pencilc_last_0;
//! }
//! ```
//!
//! (a minimum for a loop that counts down). Before, every iteration's
//! write of `u` had to follow the previous one's, and the loop ran on one
//! GPU thread.
//!
//! What the rewrite needs, each checked on the syntax: the loop's iterator
//! is an `int` and its start an `int` expression (the start less one is
//! then a `long` below every iteration), which the loop does not write;
//! the `if` has no `else`, lies in the loop's body outside any inner loop
//! (so each iteration runs it at most once), and assigns (`=`) scalars,
//! each once; nothing else in the loop mentions those scalars (neither
//! reads nor writes them: no other iteration sees their values); the
//! assigned expressions read only the iterator and names the loop neither
//! writes nor declares, and call only pure functions; the loop calls no
//! function (a call may write what an expression reads).

use crate::diag::Loc;
use crate::front::arith::{self, Arith};
use crate::front::parse::Region;
use crate::front::syntax::{subst_expr, AssignOp, BinOp, Expr, ExprKind, Stmt, Storage, VarDecl};
use std::collections::{BTreeMap, BTreeSet};

/// The prefix of the variables that hold each loop's last matching
/// iteration (a reserved prefix: no user name starts with it).
const LAST: &str = "pencilc_last_";

/// The region with every such loop rewritten, if it has any.
pub fn rewritten(region: &Region) -> Option<Region> {
    let mut body = region.body.clone();
    let mut made: Vec<Made> = Vec::new();
    let mut region_writes = BTreeSet::new();
    writes(&region.body, &mut region_writes);
    let cx = Cx {
        region,
        loop_types: loop_types(&region.body),
    };
    block(&mut body, &cx, Some(&region_writes), &mut made);
    if made.is_empty() {
        return None;
    }
    // Declared at the region's top (a declaration in a loop's body would
    // make the body one statement), not among `symbols`, which are the
    // function's variables the region sees (`frame`).
    let mut out: Vec<Stmt> = Vec::new();
    for m in made {
        out.push(Stmt::Decl {
            loc: m.var.loc.clone(),
            var: m.var,
            init: m.init,
        });
    }
    out.extend(body);
    Some(Region {
        body: out,
        ..region.clone()
    })
}

/// Inner loops first: the statement a rewrite adds after an inner loop
/// reads that loop's variable, which the outer loop writes, so the outer
/// loop does not take it for one of its own.
/// What the rewrite looks names up in.
struct Cx<'r> {
    region: &'r Region,
    /// The iterators that loops of the region declare (`for (int j =
    /// ...)`), which `symbols` does not hold, each with its type (where
    /// all its loops give it the same).
    loop_types: BTreeMap<String, String>,
}

fn loop_types(body: &[Stmt]) -> BTreeMap<String, String> {
    fn walk(body: &[Stmt], out: &mut BTreeMap<String, Option<String>>) {
        for s in body {
            match s {
                Stmt::For {
                    iter,
                    iter_type,
                    body,
                    ..
                } => {
                    if let Some(t) = iter_type {
                        let e = out.entry(iter.clone()).or_insert_with(|| Some(t.clone()));
                        if e.as_deref() != Some(t.as_str()) {
                            *e = None;
                        }
                    }
                    walk(body, out);
                }
                Stmt::While { body, .. } => walk(body, out),
                Stmt::If { then_, else_, .. } => {
                    walk(then_, out);
                    walk(else_, out);
                }
                _ => {}
            }
        }
    }
    let mut all = BTreeMap::new();
    walk(body, &mut all);
    all.into_iter().filter_map(|(k, v)| Some((k, v?))).collect()
}

/// One variable the rewrite adds, and its value at the region's start
/// where it can be set there.
struct Made {
    var: VarDecl,
    init: Option<Expr>,
}

/// `top`: the region's own block, with every name the region writes
/// (a loop there whose start reads none of them has its variable set at
/// the region's start, where the host can do it before any kernel).
fn block(body: &mut Vec<Stmt>, cx: &Cx, top: Option<&BTreeSet<String>>, made: &mut Vec<Made>) {
    let mut k = 0;
    while k < body.len() {
        match &mut body[k] {
            Stmt::For { body: inner, .. } | Stmt::While { body: inner, .. } => {
                block(inner, cx, None, made)
            }
            Stmt::If { then_, else_, .. } => {
                block(then_, cx, None, made);
                block(else_, cx, None, made);
            }
            _ => {}
        }
        let (before, after) = rewrite_loop(&mut body[k], cx, top, made);
        let step = before.len() + 1 + after.len();
        let tail = body.split_off(k + 1);
        body.splice(k..k, before);
        body.extend(after);
        body.extend(tail);
        k += step;
    }
}

/// The loop's iterator, start and direction, where the rewrite applies to
/// it.
struct Shape<'s> {
    iter: &'s str,
    init: &'s Expr,
    up: bool,
}

fn shape<'s>(s: &'s Stmt, cx: &Cx) -> Option<Shape<'s>> {
    let Stmt::For {
        iter,
        iter_type,
        init,
        step,
        body,
        ..
    } = s
    else {
        return None;
    };
    let ty = iter_type
        .clone()
        .or_else(|| cx.region.symbols.get(iter).map(|v| v.base_type.clone()))?;
    if ty.trim() != "int" || *step == 0 || calls(body) {
        return None;
    }
    let var = |n: &str| {
        cx.region
            .symbols
            .get(n)
            .map(|v| v.base_type.clone())
            .or_else(|| cx.loop_types.get(n).cloned())
    };
    if arith::type_of(init, &var) != Some(Arith::Int) {
        return None;
    }
    let mut used = Vec::new();
    init.idents(&mut used);
    let mut written = BTreeSet::new();
    writes(std::slice::from_ref(s), &mut written);
    if used.iter().any(|n| written.contains(n)) {
        return None;
    }
    Some(Shape {
        iter,
        init,
        up: *step > 0,
    })
}

/// The statements to put before and after the loop `s` (empty where
/// nothing is rewritten); `s` itself is rewritten in place.
fn rewrite_loop(
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
        let var = VarDecl {
            name: name.clone(),
            base_type: "long".into(),
            dims: Vec::new(),
            pointer: false,
            pencil_array: false,
            restrict: false,
            read_only: false,
            volatile_or_register: false,
            storage: Storage::Local,
            automatic: true,
            members: Vec::new(),
            struct_type: None,
            loc: if_loc.clone(),
        };
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
        let i = long(mk(ExprKind::Ident(iter.clone())));
        let keep = if up { BinOp::Gt } else { BinOp::Lt };
        let update = Stmt::Assign {
            lhs: last(),
            op: AssignOp::Assign,
            rhs: mk(ExprKind::Cond(
                Box::new(bin(keep, last(), i.clone())),
                Box::new(last()),
                Box::new(i),
            )),
            loc: if_loc.clone(),
            atomic: false,
        };
        let at = mk(ExprKind::Cast("int".into(), Box::new(last())));
        let map = |n: &str| (n == iter).then(|| at.clone());
        let assignments: Vec<Stmt> = branch
            .iter()
            .map(|a| match a {
                Stmt::Assign {
                    lhs,
                    op,
                    rhs,
                    loc,
                    atomic,
                } => Stmt::Assign {
                    lhs: lhs.clone(),
                    op: *op,
                    rhs: subst_expr(rhs, &map),
                    loc: loc.clone(),
                    atomic: *atomic,
                },
                other => other.clone(),
            })
            .collect();
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
        idents_except(body, candidate, &mut names);
        if names.iter().any(|n| targets.contains(&n.as_str())) {
            return;
        }
        out.insert(n);
    });
    out
}

/// What a loop's body writes: every name, and where each array element
/// it assigns is.
#[derive(Default)]
struct Writes {
    names: BTreeSet<String>,
    /// Each element assignment: the array, its subscripts outermost
    /// first, and the position in the loop's body of the statement that
    /// holds it.
    elements: Vec<(String, Vec<Expr>, usize)>,
    /// Names written otherwise too (assigned whole, declared, killed,
    /// passed to a call).
    whole: BTreeSet<String>,
}

impl Writes {
    fn collect(&mut self, body: &[Stmt], pos: usize) {
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
fn sized_where_found(e: &Expr, iter: &str, cx: &Cx) -> bool {
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
fn element(e: &Expr) -> Option<(String, Vec<Expr>)> {
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
fn replayable(e: &Expr, iter: &str, w: &Writes, pos: usize) -> bool {
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
            super::build::is_pure_function(f) && args.iter().all(|a| replayable(a, iter, w, pos))
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
fn visit_ifs<'s>(body: &'s [Stmt], f: &mut dyn FnMut(&'s Stmt, usize)) {
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
fn visit_ifs_mut(body: &mut [Stmt], f: &mut dyn FnMut(&mut Vec<Stmt>, &Loc)) {
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

/// Every name the statements mention, but the left-hand sides of the
/// assignments in the `then` branch of `skip`.
fn idents_except(body: &[Stmt], skip: &Stmt, out: &mut Vec<String>) {
    for s in body {
        if std::ptr::eq(s, skip) {
            let Stmt::If { cond, then_, .. } = s else {
                continue;
            };
            cond.idents(out);
            for a in then_ {
                if let Stmt::Assign { rhs, .. } = a {
                    rhs.idents(out);
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
                idents_except(body, skip, out);
            }
            Stmt::While { cond, body, .. } => {
                cond.idents(out);
                idents_except(body, skip, out);
            }
            Stmt::If {
                cond, then_, else_, ..
            } => {
                cond.idents(out);
                idents_except(then_, skip, out);
                idents_except(else_, skip, out);
            }
            other => other.idents(out),
        }
    }
}

/// Names the statements may write: assigned variables and arrays, loop
/// iterators, declared locals, killed values.
fn writes(body: &[Stmt], out: &mut BTreeSet<String>) {
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
fn calls(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Call { .. } => true,
        Stmt::For { body, .. } | Stmt::While { body, .. } => calls(body),
        Stmt::If { then_, else_, .. } => calls(then_) || calls(else_),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scop::test_support::region_of;

    /// The region of a function with arrays `A[100][4]`, `p` (a pointer)
    /// and scalars `u`, `w`, `k`, whose body is `code`.
    fn rewrite(name: &str, code: &str) -> Option<Region> {
        let src = format!(
            "double A[100][4], u, w; int k;\nvoid g(double *r);\nvoid f(int n, double *p, long m) {{\n#pragma scop\n{}\n#pragma endscop\n}}\n",
            code
        );
        rewritten(&region_of(&format!("last-{}", name), &src))
    }

    fn names(r: &Region) -> Vec<String> {
        let mut out = Vec::new();
        r.body.iter().for_each(|s| s.idents(&mut out));
        out
    }

    #[test]
    fn a_search_becomes_a_maximum_and_assignments_after_the_loop() {
        let r = rewrite(
            "plain",
            "for (int i = 0; i < n; i++) { A[i][3] = A[i][0] + 1; if (A[i][3] > 2) { u = A[i][1] + A[i][3]; k = i; } }",
        )
        .expect("rewritten");
        // The variable set at the region's start (the start reads no
        // name the region writes), the loop, then the assignments.
        let [Stmt::Decl {
            var, init: Some(_), ..
        }, Stmt::For { body, .. }, Stmt::If { then_, .. }] = r.body.as_slice()
        else {
            panic!("{:#?}", r.body);
        };
        assert_eq!(var.name, "pencilc_last_0");
        assert_eq!(var.base_type, "long");
        assert_eq!(then_.len(), 2);
        let mut in_loop = Vec::new();
        body.iter().for_each(|s| s.idents(&mut in_loop));
        assert!(!in_loop.contains(&"u".to_string()) && !in_loop.contains(&"k".to_string()));
        // Counting down: a minimum; a start that the region writes keeps
        // its assignment before the loop.
        let r = rewrite(
            "down",
            "k = n / 2; for (int i = k; i >= 0; i -= 2) if (A[i][0] > 2) u = A[i][1];",
        )
        .expect("rewritten");
        let [Stmt::Decl { init: None, .. }, Stmt::Assign { .. }, Stmt::Assign { rhs, .. }, Stmt::For { body, .. }, Stmt::If { .. }] =
            r.body.as_slice()
        else {
            panic!("{:#?}", r.body);
        };
        assert_eq!(crate::front::cexpr::plain(rhs), "(long)k + 1");
        let [Stmt::If { then_, .. }] = body.as_slice() else {
            panic!("{:#?}", body);
        };
        let [Stmt::Assign { rhs, .. }] = then_.as_slice() else {
            panic!("{:#?}", then_);
        };
        assert!(crate::front::cexpr::plain(rhs).contains('<'), "{:#?}", rhs);
    }

    #[test]
    fn a_search_in_a_loop_nest_is_reset_before_each_inner_loop() {
        let r = rewrite(
            "nest",
            "for (int j = 0; j < 4; j++) { for (int i = j; i < n; i++) if (A[i][j] > 2) k = i; A[j][0] = k; }",
        )
        .expect("rewritten");
        let [Stmt::Decl { init: None, .. }, Stmt::For { body, .. }] = r.body.as_slice() else {
            panic!("{:#?}", r.body);
        };
        assert!(
            matches!(
                body.as_slice(),
                [
                    Stmt::Assign { .. },
                    Stmt::For { .. },
                    Stmt::If { .. },
                    Stmt::Assign { .. }
                ]
            ),
            "{:#?}",
            body
        );
    }

    #[test]
    fn what_the_loop_reads_or_changes_is_left_alone() {
        for (name, code) in [
            // The scalar read in the loop.
            (
                "read",
                "for (int i = 0; i < n; i++) if (A[i][0] > u) u = A[i][0];",
            ),
            // Written elsewhere in the loop too.
            (
                "twice",
                "for (int i = 0; i < n; i++) { if (A[i][0] > 2) u = 1; if (A[i][1] > 2) u = 2; }",
            ),
            // An `else`, a compound assignment, an element.
            (
                "else",
                "for (int i = 0; i < n; i++) if (A[i][0] > 2) u = 1; else w = 2;",
            ),
            (
                "compound",
                "for (int i = 0; i < n; i++) if (A[i][0] > 2) u += 1;",
            ),
            (
                "element",
                "for (int i = 0; i < n; i++) if (A[i][0] > 2) A[0][1] = i;",
            ),
            // The value reads an element that changes after the `if`, or
            // one another iteration writes, or a scalar the loop writes.
            (
                "after",
                "for (int i = 0; i < n; i++) { if (A[i][0] > 2) u = A[i][1]; A[i][1] = 0; }",
            ),
            (
                "other",
                "for (int i = 1; i < n; i++) { A[i - 1][1] = 0; if (A[i][0] > 2) u = A[i][1]; }",
            ),
            (
                "scalar",
                "for (int i = 0; i < n; i++) { w = A[i][2]; if (A[i][0] > 2) u = w; }",
            ),
            // A pointer indexed by the iterator: no extent to bound it.
            (
                "pointer",
                "for (int i = 0; i < n; i++) if (p[i] > 2) u = p[i];",
            ),
            // Not an `int` iterator; a call statement in the loop.
            (
                "long",
                "for (long i = 0; i < m; i++) if (A[i][0] > 2) u = 1;",
            ),
            (
                "call",
                "for (int i = 0; i < n; i++) { if (A[i][0] > 2) u = 1; g(A[i]); }",
            ),
        ] {
            assert!(rewrite(name, code).is_none(), "{} rewritten", name);
        }
        // In a nest, the loop right around the `if` finds the match; the
        // outer loop does not take the assignments after it for its own
        // (their value reads the inner loop's variable, which it writes).
        let r = rewrite(
            "inner",
            "for (int i = 0; i < n; i++) for (int j = 0; j < 4; j++) if (A[i][j] > 2) u = j;",
        )
        .expect("rewritten");
        let found = names(&r);
        assert!(found.contains(&"pencilc_last_0".to_string()));
        assert!(
            !found.contains(&"pencilc_last_1".to_string()),
            "{:#?}",
            r.body
        );
    }
}
