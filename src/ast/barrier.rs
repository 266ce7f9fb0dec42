//! Barriers out of conditionals. isl guards a kernel's code with
//! conditions on block ids, parameters and outer loop iterators (for
//! instance `if (b0 == 0 && b1 == 0)` when the array fits in one tile), and
//! the memory copies put barriers inside them. Such a barrier is legal
//! OpenCL and CUDA (every thread of a block takes the same branch), but
//! PoCL up to at least 3.1 miscompiles it: its barrier tail replication
//! gives a parallel region several exits and its work-item loops then
//! follow the exit of the first work-item only, so a copy-out loop that
//! thread 0 skips (`for (m0 = t0; m0 < t1; ...)`) is skipped by all
//! threads (correlation with shared write-back lost its upper triangle).
//!
//! The guards are uniform over a block, so they can be distributed over
//! the barriers: `if (c) { A; barrier; B; }` becomes `if (c) { A; }
//! barrier; if (c) { B; }`, and `if (c) for (...; e; ...) S` becomes
//! `for (...; c && e; ...) S`. Every thread then runs the same barriers as
//! before, or extra ones all together, and the same statements. Guards
//! are pure integer expressions, so evaluating one more often changes
//! nothing. A barrier under a guard that mentions a thread id would be
//! divergent: that is an internal error, never emitted code.

use super::{AExpr, AOp, Ast};
use crate::diag::{Diagnostic, Result};
use std::collections::BTreeSet;

const STAGE: &str = "ast-barrier";

/// `ast` with no barrier inside an `if`; `thread_ids` name the threads.
pub fn hoist_barriers(ast: Ast, thread_ids: &[String]) -> Result<Ast> {
    if !has_barrier(&ast) {
        return Ok(ast);
    }
    match ast {
        Ast::Block(items) => Ok(Ast::Block(
            items
                .into_iter()
                .map(|i| hoist_barriers(i, thread_ids))
                .collect::<Result<_>>()?,
        )),
        Ast::For {
            iter,
            init,
            cond,
            inc,
            body,
        } => {
            check_uniform(&[&init, &cond, &inc], thread_ids)?;
            Ok(Ast::For {
                iter,
                init,
                cond,
                inc,
                body: Box::new(hoist_barriers(*body, thread_ids)?),
            })
        }
        Ast::Let { iter, value, body } => Ok(Ast::Let {
            iter,
            value,
            body: Box::new(hoist_barriers(*body, thread_ids)?),
        }),
        Ast::If { cond, then_, else_ } => {
            check_uniform(&[&cond], thread_ids)?;
            let mut out = guard(cond.clone(), *then_, thread_ids)?;
            if let Some(e) = else_ {
                let not = AExpr::op(AOp::Eq, vec![cond, AExpr::Int(0)]);
                out.extend(guard(not, *e, thread_ids)?);
            }
            Ok(block(out))
        }
        Ast::Site { index, body } => Ok(Ast::Site {
            index,
            body: Box::new(hoist_barriers(*body, thread_ids)?),
        }),
        other => Ok(other),
    }
}

/// `if (c) body` as statements without a barrier under an `if`.
fn guard(c: AExpr, body: Ast, thread_ids: &[String]) -> Result<Vec<Ast>> {
    if !has_barrier(&body) {
        return Ok(vec![Ast::If {
            cond: c,
            then_: Box::new(body),
            else_: None,
        }]);
    }
    let mut ids = BTreeSet::new();
    c.ids(&mut ids);
    match body {
        Ast::Barrier => Ok(vec![Ast::Barrier]),
        Ast::Block(items) => {
            // Consecutive statements without barriers share one guard.
            let mut out = Vec::new();
            let mut run: Vec<Ast> = Vec::new();
            for item in items {
                if has_barrier(&item) {
                    if !run.is_empty() {
                        out.extend(guard(
                            c.clone(),
                            block(std::mem::take(&mut run)),
                            thread_ids,
                        )?);
                    }
                    out.extend(guard(c.clone(), item, thread_ids)?);
                } else {
                    run.push(item);
                }
            }
            if !run.is_empty() {
                out.extend(guard(c, block(run), thread_ids)?);
            }
            Ok(out)
        }
        Ast::For {
            iter,
            init,
            cond,
            inc,
            body,
        } => {
            check_uniform(&[&init, &cond, &inc], thread_ids)?;
            not_shadowed(&ids, &iter)?;
            // Inside the loop the guard holds: the body needs none.
            Ok(vec![Ast::For {
                iter,
                init,
                cond: AExpr::op(AOp::And, vec![c, cond]),
                inc,
                body: Box::new(hoist_barriers(*body, thread_ids)?),
            }])
        }
        Ast::Let { iter, value, body } => {
            not_shadowed(&ids, &iter)?;
            Ok(vec![Ast::Let {
                iter,
                value,
                body: Box::new(block(guard(c, *body, thread_ids)?)),
            }])
        }
        Ast::If { cond, then_, else_ } => {
            check_uniform(&[&cond], thread_ids)?;
            let both = AExpr::op(AOp::And, vec![c.clone(), cond.clone()]);
            let mut out = guard(both, *then_, thread_ids)?;
            if let Some(e) = else_ {
                let not = AExpr::op(AOp::Eq, vec![cond, AExpr::Int(0)]);
                out.extend(guard(AExpr::op(AOp::And, vec![c, not]), *e, thread_ids)?);
            }
            Ok(out)
        }
        Ast::Site { index, body } => Ok(vec![Ast::Site {
            index,
            body: Box::new(block(guard(c, *body, thread_ids)?)),
        }]),
        other => Err(Diagnostic::internal(
            STAGE,
            format!("barrier inside an unexpected node: {:?}", other),
        )),
    }
}

fn block(mut items: Vec<Ast>) -> Ast {
    if items.len() == 1 {
        items.pop().expect("one item")
    } else {
        Ast::Block(items)
    }
}

pub fn has_barrier(ast: &Ast) -> bool {
    let mut found = false;
    ast.walk(&mut |n| found |= matches!(n, Ast::Barrier));
    found
}

fn check_uniform(exprs: &[&AExpr], thread_ids: &[String]) -> Result<()> {
    let mut ids = BTreeSet::new();
    for e in exprs {
        e.ids(&mut ids);
    }
    match thread_ids.iter().find(|t| ids.contains(*t)) {
        Some(t) => Err(Diagnostic::internal(
            STAGE,
            format!(
                "a barrier under control flow that depends on thread id {}",
                t
            ),
        )),
        None => Ok(()),
    }
}

fn not_shadowed(ids: &BTreeSet<String>, iter: &str) -> Result<()> {
    if ids.contains(iter) {
        return Err(Diagnostic::internal(
            STAGE,
            format!(
                "moving a guard below `{}` would change what it refers to",
                iter
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> AExpr {
        AExpr::Id(s.into())
    }

    fn copy(local: &str) -> Ast {
        Ast::Copy {
            into_local: false,
            local: local.into(),
            local_idx: vec![id("t0")],
            array: "A".into(),
            subs: vec![id("t0")],
        }
    }

    fn count_ifs_with_barrier(a: &Ast) -> usize {
        let mut n = 0;
        a.walk(&mut |x| {
            if let Ast::If { then_, else_, .. } = x {
                if has_barrier(then_) || else_.as_deref().is_some_and(has_barrier) {
                    n += 1;
                }
            }
        });
        n
    }

    #[test]
    fn guard_is_distributed_over_barriers() {
        let b0 = AExpr::op(AOp::Eq, vec![id("b0"), AExpr::Int(0)]);
        let ast = Ast::If {
            cond: b0.clone(),
            then_: Box::new(Ast::Block(vec![
                copy("x"),
                Ast::Barrier,
                Ast::For {
                    iter: "c1".into(),
                    init: AExpr::Int(0),
                    cond: AExpr::op(AOp::Lt, vec![id("c1"), id("n")]),
                    inc: AExpr::Int(32),
                    body: Box::new(Ast::Block(vec![copy("y"), Ast::Barrier])),
                },
                copy("z"),
            ])),
            else_: None,
        };
        let out = hoist_barriers(ast, &["t0".into()]).unwrap();
        assert_eq!(count_ifs_with_barrier(&out), 0, "{:?}", out);
        let Ast::Block(items) = &out else {
            panic!("{:?}", out)
        };
        assert_eq!(items.len(), 4, "{:?}", out);
        assert!(matches!(&items[0], Ast::If { cond, .. } if *cond == b0));
        assert_eq!(items[1], Ast::Barrier);
        match &items[2] {
            Ast::For { cond, .. } => assert_eq!(
                *cond,
                AExpr::op(
                    AOp::And,
                    vec![b0.clone(), AExpr::op(AOp::Lt, vec![id("c1"), id("n")])]
                )
            ),
            other => panic!("{:?}", other),
        }
        assert!(matches!(&items[3], Ast::If { cond, .. } if *cond == b0));
    }

    #[test]
    fn divergent_barrier_is_an_internal_error() {
        let ast = Ast::If {
            cond: AExpr::op(AOp::Eq, vec![id("t0"), AExpr::Int(0)]),
            then_: Box::new(Ast::Barrier),
            else_: None,
        };
        assert!(hoist_barriers(ast, &["t0".into()]).is_err());
    }
}
