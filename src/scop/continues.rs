//! A loop's own `continue` as an `else`: `for (...) { if (c) { X;
//! continue; } Y; }` is `for (...) { if (c) { X; } else { Y; } }`. A loop
//! with a jump of its own is dynamic control to the model, one statement
//! that runs as written: the guard made a parallel loop run on one GPU
//! thread. Rewritten only where each `continue` ends every path through
//! its branch and the other branch has no jump of the loop's, so that the
//! statements after the `if` run exactly where the branch without the
//! `continue` runs. Where both branches have a `continue` on some path, a
//! few statements after the `if` are copied to the end of each branch,
//! and the rewrite goes on in each (`syntax::without_jumps`, which
//! `parse::switch` uses for a `switch`'s `break`s). A `break` of the
//! loop, or more to copy, and the loop keeps its body as written.

use crate::front::parse::Region;
use crate::front::syntax::{has_own_jump, without_jumps, Jump, Stmt};

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
        if has_own_jump(body) {
            let kind = |j: &Stmt| match j {
                Stmt::Continue(_) => Jump::Drop,
                _ => Jump::Refuse,
            };
            if let Some((without, _)) = without_jumps(body, &kind) {
                *body = without;
                *changed = true;
            }
        }
    }
    s
}
