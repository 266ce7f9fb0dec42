//! Host loops of small launches as one kernel of one block.
//!
//! A sequential host loop around kernels (jacobi-1d's time loop, 500
//! steps of two launches over 2,000 points) pays a launch per kernel and
//! step: some 5 us each on an H100 or H200, where the kernels themselves
//! take a fraction of that. When every launch in the loop is small (a few
//! rounds of one block's threads), one block can run the whole loop: its
//! threads play each launch's blocks in turn ("virtual blocks", as many at
//! once as the block holds), and a barrier between launches stands where
//! the end of one kernel and the start of the next stood. One launch
//! instead of 1,000, and a barrier (well under a microsecond) instead of
//! each.
//!
//! Why the result is the program the launches were: the loops and guards
//! of host code are the same on every thread (host values only), so every
//! thread reaches every barrier; within one launch the blocks ran in no
//! order and shared nothing (the read-back checked that every dependence
//! inside a launch stays in one block, and the launches fused here have no
//! barrier, tile or reduction of their own), so running some of them at
//! once, or one thread's share one after another, orders nothing that was
//! not ordered; each barrier orders all of one launch before all of the
//! next, as the kernel boundary did (`__syncthreads` makes a block's
//! global-memory writes visible to the block).
//!
//! The choice is made when the program runs: the fused kernel where each
//! launch's threads are at most `MAX_ROUNDS` times the block's, the loop
//! of launches as before elsewhere (a block is one multiprocessor: large
//! launches need the whole GPU).

use super::{AExpr, AOp, Ast, GpuAst, Launch};
use crate::deps::DependenceGraph;
use crate::map::{KernelPlan, OneBlockLoops};
use crate::scop::{Scop, StmtBody};
use std::collections::BTreeSet;

/// Rounds of the block's threads each fused launch may take: a round
/// costs about a global-memory latency and a barrier, a launch about ten
/// of them.
pub const MAX_ROUNDS: i64 = 4;

/// Replaces each outermost eligible host loop of `gpu` by a launch of one
/// block of `threads` threads that runs it (under the run-time condition
/// unless `policy` is `Always`). With `fallback`, the loop stays in the
/// `else` of a condition even where that is always true: a back end
/// whose device may refuse the block when the program runs (OpenCL)
/// adds its own test to it. Returns how many loops it fused.
pub fn one_block_loops(
    scop: &Scop,
    deps: &DependenceGraph,
    gpu: &mut GpuAst,
    policy: OneBlockLoops,
    threads: i64,
    fallback: bool,
) -> usize {
    if policy == OneBlockLoops::Never || threads < 1 || gpu.thread_ids.is_empty() {
        return 0;
    }
    let names = Names::new(scop, gpu);
    let mut depths = vec![None; gpu.launches.len()];
    host_depths(&gpu.host, 0, &mut depths);
    let eligible: Vec<bool> = gpu
        .launches
        .iter()
        .zip(&depths)
        .map(|(l, depth)| {
            l.plan.n_block <= gpu.block_ids.len()
                && l.plan.block_sizes.len() <= gpu.thread_ids.len()
                && depth.is_some_and(|d| launch_is_eligible(scop, deps, l, d, threads))
        })
        .collect();
    let mut host = std::mem::replace(&mut gpu.host, Ast::Block(vec![]));
    let mut fused = 0;
    rewrite(&mut host, &mut |node: &Ast| -> Option<Ast> {
        let inner = loop_launches(node, &gpu.launches, &eligible)?;
        let cond = match policy {
            OneBlockLoops::Always => AExpr::Int(1),
            _ => small_enough(&inner, &gpu.launches, threads),
        };
        if cond == AExpr::Int(0) {
            return None;
        }
        let index = gpu.launches.len();
        let first = &gpu.launches[inner[0]].plan;
        let launch = fused_launch(node, first, &gpu.launches, &names, index, threads);
        gpu.launches.push(launch);
        fused += 1;
        let run = Ast::Launch(index);
        Some(match cond {
            AExpr::Int(1) if !fallback => run,
            cond => Ast::If {
                cond,
                then_: Box::new(run),
                else_: Some(Box::new(node.clone())),
            },
        })
    });
    gpu.host = host;
    fused
}

/// Calls `f` on each node, outermost first; where it returns a
/// replacement, puts that in and does not descend.
fn rewrite(node: &mut Ast, f: &mut dyn FnMut(&Ast) -> Option<Ast>) {
    if matches!(node, Ast::For { .. }) {
        if let Some(new) = f(node) {
            *node = new;
            return;
        }
    }
    match node {
        Ast::Block(items) => items.iter_mut().for_each(|i| rewrite(i, f)),
        Ast::For { body, .. } | Ast::Let { body, .. } => rewrite(body, f),
        Ast::If { then_, else_, .. } => {
            rewrite(then_, f);
            if let Some(e) = else_ {
                rewrite(e, f);
            }
        }
        _ => {}
    }
}

/// The host loops around each launch (`None`: a launch the host code
/// does not start).
fn host_depths(node: &Ast, depth: usize, out: &mut [Option<usize>]) {
    match node {
        Ast::Block(items) => items.iter().for_each(|i| host_depths(i, depth, out)),
        Ast::For { body, .. } | Ast::Let { body, .. } => host_depths(body, depth + 1, out),
        Ast::If { then_, else_, .. } => {
            host_depths(then_, depth, out);
            if let Some(e) = else_ {
                host_depths(e, depth, out);
            }
        }
        Ast::Launch(i) => {
            if let Some(d) = out.get_mut(*i) {
                *d = Some(depth);
            }
        }
        _ => {}
    }
}

/// A launch one block can play: blocks that share nothing (no tile, no
/// barrier, no reduction combined across them, no privatised variable
/// with a write-back), threads that divide the fused block, and little
/// work per thread: every loop of its statements is one of the `depth`
/// host loops around it or a member of its kernel's band, so a thread
/// runs a tile's share of each, not a loop of its own (adi's sweeps, a
/// thread each along a row of 2,000, would run two rows per thread on one
/// multiprocessor instead of one on many).
fn launch_is_eligible(
    scop: &Scop,
    deps: &DependenceGraph,
    l: &Launch,
    depth: usize,
    threads: i64,
) -> bool {
    let per_block: i64 = l.plan.block_sizes.iter().product();
    if l.plan.wavefront
        || !l.locals.is_empty()
        || !l.updated_elements.is_empty()
        || per_block < 1
        || threads % per_block != 0
        || l.grid.len() < l.plan.n_block
    {
        return false;
    }
    let mut ok = true;
    let mut stmts = BTreeSet::new();
    l.body.walk(&mut |n| match n {
        Ast::User { stmt, promoted, .. } => {
            stmts.insert(stmt.0);
            ok &= promoted.is_empty();
        }
        Ast::For { .. } | Ast::Let { .. } | Ast::If { .. } | Ast::Block(_) => {}
        _ => ok = false,
    });
    ok && stmts.iter().all(|&s| {
        let st = &scop.stmts[s];
        st.iterators.len() <= depth + l.plan.band_members
            && st.reductions.is_empty()
            && st.local_names.is_empty()
            && !matches!(st.body, StmtBody::Compound(_))
            && !deps.privatised.iter().any(|p| p.stmts.contains(&s))
    })
}

/// The launches of a host loop that is only loops, guards and eligible
/// launches whose grids do not change inside it (the run-time condition
/// is evaluated before it); `None` otherwise.
fn loop_launches(node: &Ast, launches: &[Launch], eligible: &[bool]) -> Option<Vec<usize>> {
    let mut inner = Vec::new();
    let mut ok = true;
    node.walk(&mut |n| match n {
        Ast::Launch(i) if eligible.get(*i) == Some(&true) => inner.push(*i),
        Ast::For { .. } | Ast::Let { .. } | Ast::If { .. } | Ast::Block(_) => {}
        _ => ok = false,
    });
    if !ok || inner.is_empty() {
        return None;
    }
    let mut bound = BTreeSet::new();
    node.declared_ids(&mut bound);
    let grids_fixed = inner.iter().all(|&i| {
        let mut ids = BTreeSet::new();
        launches[i].grid.iter().for_each(|g| g.ids(&mut ids));
        ids.is_disjoint(&bound)
    });
    grids_fixed.then_some(inner)
}

/// Each launch's threads at most `MAX_ROUNDS` times the fused block's.
fn small_enough(inner: &[usize], launches: &[Launch], threads: i64) -> AExpr {
    // Sizes known when pencilc runs (constant bounds) decide now; the
    // same launch twice is one condition.
    let mut terms: Vec<AExpr> = Vec::new();
    let mut known = true;
    let mut bound = |size: AExpr, most: i64| match size {
        AExpr::Int(v) => known &= v <= most,
        size => {
            let t = AExpr::Op(AOp::Le, vec![size, AExpr::Int(most)]);
            if !terms.contains(&t) {
                terms.push(t);
            }
        }
    };
    for &i in inner {
        let l = &launches[i];
        let per_block: i64 = l.plan.block_sizes.iter().product::<i64>().max(1);
        let most_blocks = MAX_ROUNDS * threads / per_block;
        // Each dimension first, so that the product cannot overflow.
        let grid = &l.grid[..l.plan.n_block];
        for g in grid {
            bound(g.clone(), most_blocks);
        }
        if grid.len() > 1 {
            bound(product(grid), most_blocks);
        }
    }
    if !known {
        return AExpr::Int(0);
    }
    match terms.len() {
        0 => AExpr::Int(1),
        1 => terms.pop().unwrap().simplify(),
        _ => AExpr::Op(AOp::And, terms).simplify(),
    }
}

fn product(factors: &[AExpr]) -> AExpr {
    factors
        .iter()
        .fold(AExpr::Int(1), |p, f| fold(AOp::Mul, p, f.clone()))
}

/// `a op b` for `*`, `/` and `%`, with constants and ones folded (a grid
/// of one block along a dimension plays no part in the ids).
fn fold(op: AOp, a: AExpr, b: AExpr) -> AExpr {
    match (op, &a, &b) {
        (AOp::Mul, AExpr::Int(x), AExpr::Int(y)) => AExpr::Int(x * y),
        (AOp::Mul, AExpr::Int(1), _) => b,
        (AOp::Mul | AOp::Div, _, AExpr::Int(1)) => a,
        (AOp::Rem, _, AExpr::Int(1)) => AExpr::Int(0),
        _ => AExpr::Op(op, vec![a, b]),
    }
}

/// Generated names of the fused kernel that are no name of the region,
/// its file or the mapping: the block's thread id and the virtual block.
struct Names {
    thread: String,
    virtual_block: String,
    /// The mapping's thread id that the kernel declares (`threadIdx.x`).
    real_thread: String,
    /// The mapping's block and thread ids, which the launches' bodies use.
    block_ids: Vec<String>,
    thread_ids: Vec<String>,
}

impl Names {
    fn new(scop: &Scop, gpu: &GpuAst) -> Names {
        let mut others: Vec<&str> = gpu
            .block_ids
            .iter()
            .chain(gpu.thread_ids.iter())
            .map(String::as_str)
            .collect();
        let mut host_names = BTreeSet::new();
        gpu.host.declared_ids(&mut host_names);
        for l in &gpu.launches {
            l.body.declared_ids(&mut host_names);
            host_names.extend(l.host_values.iter().map(|(n, _)| n.clone()));
        }
        others.extend(host_names.iter().map(String::as_str));
        let thread = super::fresh_prefix_beside(scop, &others, "ft");
        let virtual_block = super::fresh_prefix_beside(scop, &others, "fv");
        Names {
            thread: format!("{}0", thread),
            virtual_block: format!("{}0", virtual_block),
            real_thread: gpu.thread_ids[0].clone(),
            block_ids: gpu.block_ids.clone(),
            thread_ids: gpu.thread_ids.clone(),
        }
    }
}

/// The launch of one block that runs host loop `node`: its body is the
/// loop with each launch in it played by the block (`played`) and a
/// barrier after it.
/// `first`: the plan of its first launch, whose numbers it keeps.
fn fused_launch(
    node: &Ast,
    first: &KernelPlan,
    launches: &[Launch],
    names: &Names,
    index: usize,
    threads: i64,
) -> Launch {
    let mut body = node.clone();
    body.walk_mut(&mut |n| {
        if let Ast::Launch(i) = n {
            *n = Ast::Block(vec![played(&launches[*i], names, threads), Ast::Barrier]);
        }
    });
    let body = Ast::Let {
        iter: names.thread.clone(),
        value: AExpr::Id(names.real_thread.clone()),
        body: Box::new(body),
    };
    Launch {
        index,
        plan: KernelPlan {
            id: first.id,
            n_block: 0,
            block_sizes: vec![threads],
            grid_cap: vec![],
            wavefront: false,
            wraps: vec![],
            tile_index: vec![],
            tile_max: vec![],
            band_members: 0,
            parallel_members: 0,
            number: first.number,
            tile_sizes: vec![],
            memory: Default::default(),
        },
        grid: vec![],
        host_values: vec![],
        block_offsets: vec![],
        body,
        locals: vec![],
        updated_elements: vec![],
        plays_launches: true,
    }
}

/// Launch `l` as the fused block plays it: its host values bound, then
/// each thread of the block runs, from virtual block `thread / size` in
/// steps of the blocks the block holds, the launch's body with its block
/// and thread ids those of that virtual block and thread.
fn played(l: &Launch, names: &Names, threads: i64) -> Ast {
    let sizes = &l.plan.block_sizes;
    let per_block: i64 = sizes.iter().product::<i64>().max(1);
    let id = |s: &str| AExpr::Id(s.to_string());
    let op = |o: AOp, a: AExpr, b: AExpr| match o {
        AOp::Mul | AOp::Div | AOp::Rem => fold(o, a, b),
        _ => AExpr::Op(o, vec![a, b]),
    };
    let grid = &l.grid[..l.plan.n_block];
    // Innermost ids vary fastest: thread x, block x.
    let mut lets: Vec<(String, AExpr)> = Vec::new();
    let mut rest = id(&names.virtual_block);
    for j in (0..grid.len()).rev() {
        let mut b = if j == 0 {
            rest.clone()
        } else {
            op(AOp::Rem, rest.clone(), grid[j].clone())
        };
        if let Some(first) = l.block_offset_name(j) {
            b = op(AOp::Add, b, id(first));
        }
        lets.push((names.block_ids[j].clone(), b));
        rest = op(AOp::Div, rest, grid[j].clone());
    }
    let mut rest = id(&names.thread);
    for (j, &size) in sizes.iter().enumerate().rev() {
        let t = if j == 0 && per_block == threads {
            rest.clone()
        } else {
            op(AOp::Rem, rest.clone(), AExpr::Int(size))
        };
        lets.push((names.thread_ids[j].clone(), t));
        rest = op(AOp::Div, rest, AExpr::Int(size));
    }
    let mut body = l.body.clone();
    for (name, value) in lets.into_iter().rev() {
        body = Ast::Let {
            iter: name,
            value: value.simplify(),
            body: Box::new(body),
        };
    }
    let blocks = product(grid);
    let mut out = Ast::For {
        iter: names.virtual_block.clone(),
        init: op(AOp::Div, id(&names.thread), AExpr::Int(per_block)),
        cond: op(AOp::Lt, id(&names.virtual_block), blocks).simplify(),
        inc: AExpr::Int(threads / per_block),
        body: Box::new(body),
    };
    // Host values the body reads (the first tiles among them).
    let mut used = BTreeSet::new();
    l.body.used_ids(&mut used);
    used.extend(l.block_offsets.iter().flatten().cloned());
    for (name, value) in l.host_values.iter().rev().filter(|(n, _)| used.contains(n)) {
        out = Ast::Let {
            iter: name.clone(),
            value: value.clone(),
            body: Box::new(out),
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn eval(e: &AExpr, env: &BTreeMap<String, i64>) -> i64 {
        match e {
            AExpr::Int(v) => *v,
            AExpr::Id(n) => env[n],
            AExpr::Op(op, a) => {
                let v: Vec<i64> = a.iter().map(|x| eval(x, env)).collect();
                match op {
                    AOp::Add => v.iter().sum(),
                    AOp::Mul => v.iter().product(),
                    AOp::Div => v[0] / v[1],
                    AOp::Rem => v[0] % v[1],
                    AOp::Lt => (v[0] < v[1]) as i64,
                    AOp::Le => (v[0] <= v[1]) as i64,
                    AOp::And => v.iter().all(|&x| x != 0) as i64,
                    other => panic!("{:?}", other),
                }
            }
        }
    }

    /// Runs `ast` as one thread would, recording the ids at each `User`.
    fn run(ast: &Ast, env: &mut BTreeMap<String, i64>, ids: &[&str], out: &mut Vec<Vec<i64>>) {
        match ast {
            Ast::Block(items) => items.iter().for_each(|i| run(i, env, ids, out)),
            Ast::Let { iter, value, body } => {
                let old = env.insert(iter.clone(), eval(value, env));
                run(body, env, ids, out);
                match old {
                    Some(v) => env.insert(iter.clone(), v),
                    None => env.remove(iter),
                };
            }
            Ast::For {
                iter,
                init,
                cond,
                inc,
                body,
            } => {
                env.insert(iter.clone(), eval(init, env));
                while eval(cond, env) != 0 {
                    run(body, env, ids, out);
                    let next = env[iter] + eval(inc, env);
                    env.insert(iter.clone(), next);
                }
                env.remove(iter);
            }
            Ast::User { .. } => out.push(ids.iter().map(|i| env[*i]).collect()),
            other => panic!("{:?}", other),
        }
    }

    fn launch(grid: &[i64], sizes: &[i64], offsets: Vec<Option<String>>) -> Launch {
        Launch {
            index: 0,
            plan: KernelPlan {
                id: 0,
                n_block: grid.len(),
                block_sizes: sizes.to_vec(),
                grid_cap: vec![],
                wavefront: false,
                wraps: vec![],
                tile_index: vec![],
                tile_max: vec![],
                band_members: 0,
                parallel_members: 0,
                number: 0,
                tile_sizes: vec![],
                memory: Default::default(),
            },
            grid: grid.iter().map(|&g| AExpr::Int(g)).collect(),
            host_values: vec![("h1".into(), AExpr::Int(7))],
            block_offsets: offsets,
            body: Ast::User {
                stmt: crate::scop::StmtId(0),
                args: vec![],
                promoted: vec![],
            },
            locals: vec![],
            updated_elements: vec![],
            plays_launches: false,
        }
    }

    /// Every block and thread of the launch, each once, over the threads
    /// of the one block, whatever the shapes.
    #[test]
    fn one_block_plays_every_block_and_thread_of_a_launch_once() {
        let names = Names {
            thread: "ft".into(),
            virtual_block: "fv".into(),
            real_thread: "t0".into(),
            block_ids: vec!["b0".into(), "b1".into()],
            thread_ids: vec!["t0".into(), "t1".into()],
        };
        let cases: Vec<(Vec<i64>, Vec<i64>, Vec<Option<String>>, i64)> = vec![
            // Two virtual blocks a round; a grid along x from block 7.
            (
                vec![3, 5],
                vec![16, 32],
                vec![None, Some("h1".into())],
                1024,
            ),
            // The block's own shape: one a round.
            (vec![4], vec![1024], vec![None], 1024),
            // More blocks than rounds of the block hold, and fewer.
            (vec![70], vec![32], vec![Some("h1".into())], 1024),
            (vec![1], vec![32], vec![None], 256),
            // Blocks of one thread.
            (vec![2000], vec![], vec![None], 1024),
        ];
        for (grid, sizes, offsets, threads) in cases {
            let l = launch(&grid, &sizes, offsets.clone());
            let ast = played(&l, &names, threads);
            let ids: Vec<&str> = ["b0", "b1"][..grid.len()]
                .iter()
                .chain(["t0", "t1"][..sizes.len()].iter())
                .copied()
                .collect();
            let mut seen = Vec::new();
            for ft in 0..threads {
                let mut env = BTreeMap::from([("ft".to_string(), ft)]);
                run(&ast, &mut env, &ids, &mut seen);
            }
            let total = seen.len();
            let distinct: BTreeSet<Vec<i64>> = seen.into_iter().collect();
            let want: i64 = grid.iter().product::<i64>() * sizes.iter().product::<i64>();
            assert_eq!(total as i64, want, "{:?} {:?}", grid, sizes);
            assert_eq!(
                distinct.len(),
                total,
                "{:?} {:?}: a pair ran twice",
                grid,
                sizes
            );
            for ids in &distinct {
                for (j, g) in grid.iter().enumerate() {
                    let first = if offsets[j].is_some() { 7 } else { 0 };
                    assert!(ids[j] >= first && ids[j] < first + g, "{:?}", ids);
                }
                for (j, s) in sizes.iter().enumerate() {
                    assert!(
                        ids[grid.len() + j] >= 0 && ids[grid.len() + j] < *s,
                        "{:?}",
                        ids
                    );
                }
            }
        }
    }

    #[test]
    fn the_run_time_condition_holds_up_to_four_rounds_of_the_block() {
        // 4 rounds of 1024 threads: 8 blocks of 512.
        let holds = |grid: &[i64]| {
            let l = launch(grid, &[16, 32], vec![None; grid.len()]);
            eval(&small_enough(&[0, 0], &[l], 1024), &BTreeMap::new()) != 0
        };
        assert!(holds(&[2, 4]));
        assert!(holds(&[8, 1]));
        assert!(!holds(&[3, 3]));
        assert!(!holds(&[9, 1]));
        // Grids known only when the program runs: each dimension, then
        // the product; the same launch twice is one condition per bound.
        let mut l = launch(&[1, 1], &[16, 32], vec![None, None]);
        l.grid = vec![AExpr::Id("m".into()), AExpr::Id("n".into())];
        let c = small_enough(&[0, 0], &[l], 1024);
        assert_eq!(format!("{:?}", c).matches("Le").count(), 3, "{:?}", c);
        let at = |m: i64, n: i64| {
            let env = BTreeMap::from([("m".to_string(), m), ("n".to_string(), n)]);
            eval(&c, &env) != 0
        };
        assert!(at(2, 4) && at(1, 8) && !at(3, 3) && !at(1, 9));
    }
}
