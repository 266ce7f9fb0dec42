//! Barriers that order nothing. A barrier orders the memory accesses of
//! a block's threads before it against those after it; one with no
//! access between it and the kernel's start (or an earlier barrier) on
//! every path that reaches it, or none between it and the kernel's end
//! (or a later barrier) on every path that leaves it, can go. The memory
//! sites put a barrier on both sides of every copy, so a tile loop's
//! leading barrier often follows the kernel's start or the previous
//! iteration's trailing barrier. Keeping only barriers that separate
//! accesses also keeps the emulators' "drop a barrier, the results
//! change" tests meaningful.

use std::collections::{BTreeMap, BTreeSet};

use super::Ast;

/// `ast`, a whole kernel body, without the barriers that order no two
/// conflicting accesses; `shared` names the kernel's shared tiles (the
/// other local tiles are each thread's own).
pub fn drop_redundant_barriers(mut ast: Ast, shared: &BTreeSet<String>) -> Ast {
    // One at a time: two barriers in a row each look redundant while the
    // other stands.
    while let Some(i) = first_redundant(&ast, shared) {
        ast = remove_barrier(ast, i);
    }
    ast
}

/// The accesses to memory other threads see (global arrays, shared
/// tiles) on some path of a stretch of code.
#[derive(Clone, Debug, Default, PartialEq)]
struct Effects {
    reads: BTreeSet<String>,
    writes: BTreeSet<String>,
    /// A statement instance: what it touches is not tracked here.
    any: bool,
}

impl Effects {
    fn is_empty(&self) -> bool {
        !self.any && self.reads.is_empty() && self.writes.is_empty()
    }

    fn union(&mut self, o: &Effects) {
        self.reads.extend(o.reads.iter().cloned());
        self.writes.extend(o.writes.iter().cloned());
        self.any |= o.any;
    }

    /// Whether an access of `self` and one of `later` must not overlap.
    fn conflicts(&self, later: &Effects) -> bool {
        if (self.any && !later.is_empty()) || (later.any && !self.is_empty()) {
            return true;
        }
        let touched_later = |a: &String| later.reads.contains(a) || later.writes.contains(a);
        self.writes.iter().any(touched_later) || self.reads.iter().any(|a| later.writes.contains(a))
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Direction {
    Forward,
    Backward,
}

/// Per barrier (numbered in walk order), the accesses since the barrier
/// before it (or the kernel's start) in `dir`, on any path.
struct Flow<'a> {
    shared: &'a BTreeSet<String>,
    dir: Direction,
    next: usize,
    at_barrier: BTreeMap<usize, Effects>,
}

impl Flow<'_> {
    fn visit(&mut self, ast: &Ast, mut state: Effects) -> Effects {
        match ast {
            Ast::Barrier => {
                let i = self.next;
                self.next += 1;
                self.at_barrier.entry(i).or_default().union(&state);
                Effects::default()
            }
            Ast::Block(items) => {
                // Barriers are numbered in walk order whatever the
                // direction: number this block's from its first.
                let first = self.next;
                let counts: Vec<usize> = items.iter().map(count_barriers).collect();
                let order: Vec<usize> = match self.dir {
                    Direction::Forward => (0..items.len()).collect(),
                    Direction::Backward => (0..items.len()).rev().collect(),
                };
                for k in order {
                    self.next = first + counts[..k].iter().sum::<usize>();
                    state = self.visit(&items[k], state);
                }
                self.next = first + counts.iter().sum::<usize>();
                state
            }
            Ast::Let { body, .. } => self.visit(body, state),
            Ast::If { then_, else_, .. } => {
                let mut out = self.visit(then_, state.clone());
                match else_ {
                    Some(e) => out.union(&self.visit(e, state)),
                    None => out.union(&state),
                }
                out
            }
            Ast::For { body, .. } => {
                // An iteration starts after the code before the loop or
                // after the previous iteration; the loop may run none.
                let first = self.next;
                let mut entry = state.clone();
                loop {
                    self.next = first;
                    let exit = self.visit(body, entry.clone());
                    let mut again = state.clone();
                    again.union(&exit);
                    if again == entry {
                        let mut out = state;
                        out.union(&exit);
                        return out;
                    }
                    entry = again;
                }
            }
            Ast::Copy {
                into_local,
                local,
                array,
                ..
            } => {
                let local_seen = self.shared.contains(local);
                if *into_local {
                    state.reads.insert(array.clone());
                    if local_seen {
                        state.writes.insert(local.clone());
                    }
                } else {
                    state.writes.insert(array.clone());
                    if local_seen {
                        state.reads.insert(local.clone());
                    }
                }
                state
            }
            _ => {
                state.any = true;
                state
            }
        }
    }
}

fn count_barriers(a: &Ast) -> usize {
    let mut n = 0;
    a.walk(&mut |x| n += matches!(x, Ast::Barrier) as usize);
    n
}

fn flow(ast: &Ast, shared: &BTreeSet<String>, dir: Direction) -> BTreeMap<usize, Effects> {
    let mut f = Flow {
        shared,
        dir,
        next: 0,
        at_barrier: BTreeMap::new(),
    };
    f.visit(ast, Effects::default());
    f.at_barrier
}

fn first_redundant(ast: &Ast, shared: &BTreeSet<String>) -> Option<usize> {
    let before = flow(ast, shared, Direction::Forward);
    let after = flow(ast, shared, Direction::Backward);
    (0..count_barriers(ast)).find(|i| {
        let (b, a) = (before.get(i), after.get(i));
        // One the flow did not reach (under a node it does not follow)
        // stays.
        matches!((b, a), (Some(b), Some(a)) if !b.conflicts(a))
    })
}

/// `ast` without its barrier number `i` in walk order.
fn remove_barrier(mut ast: Ast, i: usize) -> Ast {
    let mut seen = 0;
    ast.walk_mut(&mut |x| {
        if *x == Ast::Barrier {
            if seen == i {
                *x = Ast::Block(vec![]);
            }
            seen += 1;
        }
    });
    ast.walk_mut(&mut |x| {
        if let Ast::Block(items) = x {
            items.retain(|i| *i != Ast::Block(vec![]));
        }
    });
    ast
}

#[cfg(test)]
mod tests {
    use super::super::AExpr;
    use super::*;

    fn copy(into_local: bool, local: &str, array: &str) -> Ast {
        Ast::Copy {
            into_local,
            local: local.into(),
            local_idx: vec![],
            array: array.into(),
            subs: vec![],
        }
    }

    /// A shared tile of A copied in.
    fn tile_in() -> Ast {
        copy(true, "shared_A", "A")
    }

    fn stmt() -> Ast {
        Ast::User {
            stmt: crate::scop::StmtId(0),
            args: vec![],
            promoted: vec![],
        }
    }

    fn for_(body: Vec<Ast>) -> Ast {
        Ast::For {
            iter: "k".into(),
            init: AExpr::Int(0),
            cond: AExpr::Id("c".into()),
            inc: AExpr::Int(1),
            body: Box::new(Ast::Block(body)),
        }
    }

    /// for k { barrier; copy-in; barrier; compute; barrier }
    fn tile_loop() -> Ast {
        for_(vec![
            Ast::Barrier,
            tile_in(),
            Ast::Barrier,
            stmt(),
            Ast::Barrier,
        ])
    }

    fn pruned(items: Vec<Ast>) -> usize {
        let shared = ["shared_A".to_string()].into_iter().collect();
        count_barriers(&drop_redundant_barriers(Ast::Block(items), &shared))
    }

    #[test]
    fn a_tile_loop_keeps_the_barriers_around_its_uses() {
        // for k { barrier; copy-in; barrier; compute; barrier }: the
        // leading barrier follows the start or the trailing one.
        let k = tile_loop();
        assert_eq!(pruned(vec![k]), 2);
    }

    #[test]
    fn a_private_copy_of_another_array_needs_no_barrier() {
        // gemm: C's registers read from global memory, then A's tiles.
        let k = tile_loop();
        assert_eq!(pruned(vec![copy(true, "private_C", "C"), k]), 2);
    }

    #[test]
    fn a_write_before_a_copy_in_keeps_its_barrier() {
        // Another thread's statement may write what the tile reads; that
        // barrier then also keeps the next iteration's copy-in from
        // overwriting a tile still read, so the trailing one goes.
        let k = tile_loop();
        let shared = ["shared_A".to_string()].into_iter().collect();
        for before in [stmt(), copy(false, "private_A", "A")] {
            let out = drop_redundant_barriers(Ast::Block(vec![before, k.clone()]), &shared);
            let Ast::Block(items) = &out else { panic!() };
            let Ast::For { body, .. } = &items[1] else {
                panic!()
            };
            assert_eq!(
                **body,
                Ast::Block(vec![Ast::Barrier, tile_in(), Ast::Barrier, stmt()])
            );
        }
    }

    #[test]
    fn a_loop_whose_body_ends_with_an_access_keeps_its_leading_barrier() {
        // Iteration 2's copy-in follows iteration 1's statement.
        let k = for_(vec![Ast::Barrier, tile_in(), Ast::Barrier, stmt()]);
        assert_eq!(pruned(vec![k]), 2);
    }

    #[test]
    fn of_two_barriers_in_a_row_one_stays() {
        assert_eq!(pruned(vec![stmt(), Ast::Barrier, Ast::Barrier, stmt()]), 1);
    }

    #[test]
    fn a_barrier_at_the_end_goes() {
        assert_eq!(pruned(vec![stmt(), Ast::Barrier, stmt(), Ast::Barrier]), 1);
    }

    #[test]
    fn a_conditional_access_counts() {
        let guarded = Ast::If {
            cond: AExpr::Id("c".into()),
            then_: Box::new(stmt()),
            else_: None,
        };
        assert_eq!(pruned(vec![guarded.clone(), Ast::Barrier, guarded]), 1);
    }

    #[test]
    fn reads_of_one_array_on_both_sides_need_no_barrier() {
        let read = || copy(true, "private_A", "A");
        assert_eq!(pruned(vec![read(), Ast::Barrier, read()]), 0);
        assert_eq!(pruned(vec![read(), Ast::Barrier, tile_in()]), 0);
        assert_eq!(pruned(vec![tile_in(), Ast::Barrier, tile_in()]), 1);
    }
}
