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

mod extremes;
mod reads;
mod search;

use crate::diag::Loc;
use crate::front::arith::{self, Arith};
use crate::front::parse::Region;
use crate::front::syntax::{subst_expr, AssignOp, BinOp, Expr, ExprKind, Stmt, Storage, VarDecl};
use reads::{calls, writes};
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

/// A scalar local of the region the rewrites add.
fn local(name: &str, ty: &str, loc: &Loc) -> VarDecl {
    VarDecl {
        name: name.to_string(),
        base_type: ty.to_string(),
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
        loc: loc.clone(),
    }
}

/// The assignments `stmts` (of an `if` in a loop over `iter`) as they run
/// after the loop, at the iteration that `last` (a `long`) holds: the
/// iterator read as `(int) last`.
fn at_iteration(stmts: &[Stmt], iter: &str, last: &Expr) -> Vec<Stmt> {
    let at = Expr {
        kind: ExprKind::Cast("int".into(), Box::new(last.clone())),
        loc: last.loc.clone(),
    };
    let map = |n: &str| (n == iter).then(|| at.clone());
    stmts
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
        .collect()
}

/// `last = last > (long) iter ? last : (long) iter` (`<` where not
/// `largest`): the update that keeps the largest (smallest) iteration.
fn keep_iteration(last: &Expr, iter: &str, largest: bool) -> Stmt {
    let mk = |kind| Expr {
        kind,
        loc: last.loc.clone(),
    };
    let i = mk(ExprKind::Cast(
        "long".into(),
        Box::new(mk(ExprKind::Ident(iter.to_string()))),
    ));
    let keep = if largest { BinOp::Gt } else { BinOp::Lt };
    Stmt::Assign {
        lhs: last.clone(),
        op: AssignOp::Assign,
        rhs: mk(ExprKind::Cond(
            Box::new(mk(ExprKind::Binary(
                keep,
                Box::new(last.clone()),
                Box::new(i.clone()),
            ))),
            Box::new(last.clone()),
            Box::new(i),
        )),
        loc: last.loc.clone(),
        atomic: false,
    }
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
        let (mut before, extremes_after) = extremes::rewrite_loop(&mut body[k], cx, made);
        let (search_before, mut after) = search::rewrite_loop(&mut body[k], cx, top, made);
        before.extend(search_before);
        after.extend(extremes_after);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scop::test_support::region_of;

    /// The region of a function with arrays `A[100][4]`, `p` (a pointer)
    /// and scalars `u`, `w`, `k`, whose body is `code`.
    fn rewrite(name: &str, code: &str) -> Option<Region> {
        let src = format!(
            "double A[100][4], u, w; float v; int k;\nvoid g(double *r);\nvoid f(int n, double *p, long m) {{\n#pragma scop\n{}\n#pragma endscop\n}}\n",
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

    #[test]
    fn an_arg_max_keeps_its_maximum_and_finds_its_iteration_after() {
        let r = rewrite(
            "argmax",
            "for (int i = 0; i < n; i++) if (A[i][0] > u) { u = A[i][0]; k = i; }",
        )
        .expect("rewritten");
        // The copy of `u` before (a strict comparison), the loop, the
        // search's start, the second loop, the assignment.
        let [Stmt::Decl { var: init, .. }, Stmt::Decl { var: last, .. }, Stmt::Assign { lhs, .. }, Stmt::For { body, .. }, Stmt::Assign { .. }, Stmt::For { body: second, .. }, Stmt::If { then_, .. }] =
            r.body.as_slice()
        else {
            panic!("{:#?}", r.body);
        };
        assert_eq!(init.name, "pencilc_init_0");
        assert_eq!(init.base_type, "double");
        assert_eq!(last.name, "pencilc_last_1");
        assert_eq!(crate::front::cexpr::plain(lhs), "pencilc_init_0");
        let [Stmt::If { then_: kept, .. }] = body.as_slice() else {
            panic!("{:#?}", body);
        };
        assert_eq!(kept.len(), 1, "{:#?}", kept);
        let [Stmt::If { cond, .. }] = second.as_slice() else {
            panic!("{:#?}", second);
        };
        let cond = crate::front::cexpr::plain(cond);
        assert!(
            cond.contains("u > pencilc_init_0") && cond.contains("== u"),
            "{}",
            cond
        );
        assert_eq!(then_.len(), 1);
        // `>=` needs no copy: the last iteration that reaches the maximum.
        let r = rewrite(
            "argmax-ge",
            "for (int i = 0; i < n; i++) if (u <= A[i][1]) { u = A[i][1]; k = i; }",
        )
        .expect("rewritten");
        assert!(!names(&r).iter().any(|n| n.starts_with("pencilc_init_")));
    }

    #[test]
    fn arg_maxima_the_loop_changes_are_left_alone() {
        for (name, code) in [
            // The compared value changes after the `if`.
            ("after", "for (int i = 0; i < n; i++) { if (A[i][0] > u) { u = A[i][0]; k = i; } A[i][0] = 0; }"),
            // A `double` value kept in a `float`.
            ("narrow", "for (int i = 0; i < n; i++) if (A[i][0] > v) { v = A[i][0]; k = i; }"),
            // `continue`: the second loop would meet other iterations.
            ("continue", "for (int i = 0; i < n; i++) { if (A[i][1] < 0) continue; if (A[i][0] > u) { u = A[i][0]; k = i; } }"),
            // The maximum read elsewhere in the loop.
            ("read", "for (int i = 0; i < n; i++) { if (A[i][0] > u) { u = A[i][0]; k = i; } A[i][2] = u; }"),
            // Assigned another value than the compared one.
            ("other", "for (int i = 0; i < n; i++) if (A[i][0] > u) { u = A[i][1]; k = i; }"),
        ] {
            let r = rewrite(name, code);
            assert!(
                r.as_ref().is_none_or(|r| !names(r).iter().any(|n| n.starts_with("pencilc_init_") || n.starts_with("pencilc_last_"))),
                "{} rewritten: {:#?}",
                name,
                r.map(|r| r.body)
            );
        }
    }
}
