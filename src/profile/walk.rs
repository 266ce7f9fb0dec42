//! The mapped program run as an interpreter at concrete parameter values:
//! the host code's loops and conditions down to each launch, then, for a
//! few blocks and threads of each launch, the kernel body one thread runs.
//! Loops with many iterations are sampled (a few iterations spread over
//! the range, each weighted by the iterations it stands for), so a region
//! of 10^10 instances is profiled in milliseconds; a loop of a few
//! iterations runs them all.

use super::eval::{eval, Env};
use super::stmts::StmtCost;
use super::Work;
use crate::ast::{AExpr, Ast, Launch};
use std::collections::HashMap;

/// How densely the interpreter samples.
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    /// Iterations of a host loop (each runs its launches).
    pub host: usize,
    /// Iterations of a loop inside a kernel.
    pub kernel: usize,
    /// Blocks per grid dimension.
    pub blocks: usize,
    /// Threads per block dimension.
    pub threads: usize,
}

impl Default for Sampling {
    fn default() -> Self {
        Sampling {
            host: 9,
            kernel: 7,
            blocks: 9,
            threads: 3,
        }
    }
}

/// What one launch does.
#[derive(Clone, Debug, Default)]
pub struct LaunchWork {
    pub blocks: f64,
    pub threads_per_block: f64,
    /// All its threads together.
    pub total: Work,
    /// The sampled thread with the longest chain (`Work::chain`).
    pub busiest: Work,
}

/// Sample points of `0..n`: every point where `n <= 2 s` (too few to
/// stratify evenly), else the first
/// and the last (which partial tiles and boundary conditions make unlike
/// the others) each for itself, and `s - 2` points at the centres of equal
/// strata of the rest, each weighted by its stratum's size. The weights
/// sum to `n`, and work linear in the position (a triangular loop) is
/// counted exactly up to rounding.
pub fn sample_points(n: i64, s: usize) -> Vec<(i64, f64)> {
    if n <= 0 {
        return Vec::new();
    }
    let s = s.max(3) as i64;
    if n <= 2 * s {
        return (0..n).map(|i| (i, 1.0)).collect();
    }
    let inner = n - 2;
    let strata = s - 2;
    let w = inner as f64 / strata as f64;
    let mut out = vec![(0, 1.0)];
    for k in 0..strata {
        let centre = 1 + (((k as f64 + 0.5) * w - 0.5).round() as i64).clamp(0, inner - 1);
        out.push((centre, w));
    }
    out.push((n - 1, 1.0));
    out
}

/// The iterations a `for (v = init; cond; v += inc)` loop runs from `env`:
/// their number, found by doubling then bisection on `cond` (isl's loop
/// conditions are upper bounds: true up to some iteration, false after).
/// `None` if the loop cannot be evaluated.
fn trip_count(iter: &str, init: i64, inc: i64, cond: &AExpr, env: &mut Env) -> Option<i64> {
    if inc <= 0 {
        return None;
    }
    let holds = |j: i64, env: &mut Env| -> Option<bool> {
        let v = init.checked_add(j.checked_mul(inc)?)?;
        env.set(iter, v);
        Some(eval(cond, env)? != 0)
    };
    if !holds(0, env)? {
        return Some(0);
    }
    // holds(lo) is true, holds(hi) false.
    let (mut lo, mut hi) = (0i64, 1i64);
    while holds(hi, env)? {
        lo = hi;
        hi = hi.checked_mul(2)?;
        if hi > 1 << 40 {
            return None;
        }
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if holds(mid, env)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo + 1)
}

/// Ties the interpreter to one region.
pub struct Region<'a> {
    pub costs: &'a [StmtCost],
    /// Variables a thread keeps in registers (privatised temporaries):
    /// array → the statements whose accesses to it are private.
    pub private: &'a [(String, Vec<usize>)],
    /// Per array: element bytes and row-major strides (copy addresses).
    pub arrays: HashMap<String, (f64, Option<Vec<i64>>)>,
    pub block_ids: &'a [String],
    pub thread_ids: &'a [String],
    pub sampling: Sampling,
    /// Expressions that could not be evaluated (a guard taken as true, a
    /// loop taken as empty).
    pub unknown: usize,
}

/// One thread's run through a kernel body.
struct ThreadRun<'r, 'a> {
    region: &'r mut Region<'a>,
    work: Work,
    /// First global address of each access site, while probing.
    record: Option<HashMap<usize, i64>>,
    /// Bytes one thread's access costs, per access site (a warp's
    /// sectors shared among its threads).
    bytes: &'r HashMap<usize, f64>,
    /// Threads of a block along x: 1 means one active lane per warp.
    lone: bool,
}

const SECTOR: f64 = 32.0;

/// An access site: the node (by address, stable while the AST lives) and
/// the access's position in its statement.
fn site(node: &Ast, k: usize) -> usize {
    (node as *const Ast as usize).wrapping_mul(64).wrapping_add(k)
}

impl ThreadRun<'_, '_> {
    fn access(&mut self, key: usize, elem: f64, addr: impl FnOnce() -> Option<i64>, w: f64) {
        self.work.global_accesses += w;
        if let Some(rec) = &mut self.record {
            if !rec.contains_key(&key) {
                if let Some(a) = addr() {
                    rec.insert(key, a);
                }
            }
        }
        let b = if self.lone {
            SECTOR
        } else {
            self.bytes.get(&key).copied().unwrap_or(elem)
        };
        self.work.global_bytes += w * b;
    }

    fn run(&mut self, ast: &Ast, env: &mut Env, w: f64) {
        match ast {
            Ast::Block(items) => items.iter().for_each(|i| self.run(i, env, w)),
            Ast::For {
                iter,
                init,
                cond,
                inc,
                body,
            } => {
                let (Some(v0), Some(step)) = (eval(init, env), eval(inc, env)) else {
                    self.region.unknown += 1;
                    return;
                };
                let mark = env.mark();
                env.push(iter, v0);
                let Some(n) = trip_count(iter, v0, step, cond, env) else {
                    self.region.unknown += 1;
                    env.truncate(mark);
                    return;
                };
                for (j, wj) in sample_points(n, self.region.sampling.kernel) {
                    env.set(iter, v0 + j * step);
                    self.run(body, env, w * wj);
                }
                env.truncate(mark);
            }
            Ast::Let { iter, value, body } => {
                let Some(v) = eval(value, env) else {
                    self.region.unknown += 1;
                    return;
                };
                let mark = env.mark();
                env.push(iter, v);
                self.run(body, env, w);
                env.truncate(mark);
            }
            Ast::If { cond, then_, else_ } => match eval(cond, env) {
                Some(0) => {
                    if let Some(e) = else_ {
                        self.run(e, env, w);
                    }
                }
                Some(_) => self.run(then_, env, w),
                None => {
                    self.region.unknown += 1;
                    self.run(then_, env, w);
                }
            },
            Ast::User {
                stmt,
                args,
                promoted,
            } => {
                let Some(c) = self.region.costs.get(stmt.0) else {
                    self.region.unknown += 1;
                    return;
                };
                self.work.instances += w;
                self.work.flops64 += w * c.flops64;
                self.work.flops32 += w * c.flops32;
                let mark = env.mark();
                for (name, a) in c.iterators.iter().zip(args) {
                    if let Some(v) = eval(a, env) {
                        env.push(name, v);
                    }
                }
                for (k, acc) in c.accesses.iter().enumerate() {
                    let local = acc.is_argument
                        || promoted.iter().any(|p| p.array == acc.array)
                        || self
                            .region
                            .private
                            .iter()
                            .any(|(a, s)| *a == acc.array && s.contains(&stmt.0));
                    if local {
                        continue;
                    }
                    let addr = || {
                        let (subs, strides) = (acc.subscripts.as_ref()?, acc.strides.as_ref()?);
                        let mut at = 0i64;
                        for (s, st) in subs.iter().zip(strides) {
                            at = at.checked_add(super::eval::eval_c(s, env)?.checked_mul(*st)?)?;
                        }
                        Some(at)
                    };
                    self.access(site(ast, k), acc.elem_bytes, addr, w);
                }
                env.truncate(mark);
            }
            Ast::Copy { array, subs, .. } => {
                self.work.copies += w;
                let (elem, strides) = self
                    .region
                    .arrays
                    .get(array)
                    .cloned()
                    .unwrap_or((8.0, None));
                let addr = || {
                    let strides = strides.as_ref()?;
                    let mut at = 0i64;
                    for (s, st) in subs.iter().zip(strides) {
                        at = at.checked_add(eval(s, env)?.checked_mul(*st)?)?;
                    }
                    Some(at)
                };
                self.access(site(ast, 63), elem, addr, w);
            }
            Ast::Barrier => self.work.barriers += w,
            Ast::Site { body, .. } | Ast::Parallel { body, .. } | Ast::Atomic(body) => {
                self.run(body, env, w)
            }
            Ast::Launch(_) => self.region.unknown += 1,
        }
    }
}

/// Every combination of one sample point per dimension, with the product
/// of their weights.
fn grid_samples(sizes: &[i64], s: usize) -> Vec<(Vec<i64>, f64)> {
    let mut out = vec![(Vec::new(), 1.0)];
    for &n in sizes {
        let points = sample_points(n, s);
        out = out
            .into_iter()
            .flat_map(|(ids, w)| {
                points.iter().map(move |&(p, pw)| {
                    let mut ids = ids.clone();
                    ids.push(p);
                    (ids, w * pw)
                })
            })
            .collect();
    }
    out
}

impl Region<'_> {
    /// One launch of `l` from the host values in `env`.
    pub fn launch(&mut self, l: &Launch, host: &Env) -> LaunchWork {
        let mut grid = Vec::new();
        for g in l.grid.iter().take(l.plan.n_block) {
            match eval(g, host) {
                Some(v) => grid.push(v.max(0)),
                None => {
                    self.unknown += 1;
                    grid.push(1);
                }
            }
        }
        let mut env = host.clone();
        for (n, v) in &l.host_values {
            match eval(v, host) {
                Some(x) => env.push(n, x),
                None => self.unknown += 1,
            }
        }
        let threads: Vec<i64> = l.plan.block_sizes.clone();
        let mut out = LaunchWork {
            blocks: grid.iter().map(|&g| g as f64).product(),
            threads_per_block: threads.iter().map(|&t| t as f64).product(),
            ..Default::default()
        };
        if out.blocks == 0.0 {
            return out;
        }
        let lone = threads.last().is_none_or(|&x| x <= 1);
        let blocks = grid_samples(&grid, self.sampling.blocks);
        let thread_samples = grid_samples(&threads, self.sampling.threads);
        // Probe: thread 0 and its neighbour along x in a middle block give
        // each access site's step between consecutive threads.
        let mut bytes = HashMap::new();
        if !lone {
            let probe_block = &blocks[blocks.len() / 2].0;
            let mut firsts = Vec::new();
            for x in [0, 1] {
                let mut ids = vec![0; threads.len()];
                if let Some(last) = ids.last_mut() {
                    *last = x;
                }
                let mut e = env.clone();
                bind(&mut e, self.block_ids, probe_block);
                bind(&mut e, self.thread_ids, &ids);
                let none = HashMap::new();
                let mut run = ThreadRun {
                    region: self,
                    work: Work::default(),
                    record: Some(HashMap::new()),
                    bytes: &none,
                    lone,
                };
                run.run(&l.body, &mut e, 1.0);
                firsts.push(run.record.unwrap_or_default());
            }
            for (key, a0) in &firsts[0] {
                if let Some(a1) = firsts[1].get(key) {
                    let step = (a1 - a0).unsigned_abs() as f64;
                    bytes.insert(*key, step);
                }
            }
        }
        // Steps become bytes once the element size is known: it is the
        // access's, which the run supplies; store steps and convert there.
        let sized = self.sized_bytes(&l.body, &bytes);
        for (b, wb) in &blocks {
            for (t, wt) in &thread_samples {
                let mut e = env.clone();
                bind(&mut e, self.block_ids, b);
                bind(&mut e, self.thread_ids, t);
                let mut run = ThreadRun {
                    region: self,
                    work: Work::default(),
                    record: None,
                    bytes: &sized,
                    lone,
                };
                run.run(&l.body, &mut e, 1.0);
                let work = run.work;
                out.total.add_scaled(&work, wb * wt);
                if work.chain() > out.busiest.chain() {
                    out.busiest = work;
                }
            }
        }
        out
    }

    /// Bytes per thread access of each probed site: a warp reads whole
    /// 32-byte sectors, so consecutive threads a step of `s` elements
    /// apart share a sector when `s * elem < 32`, and threads on the same
    /// element (a step of 0) share one sector among the warp.
    fn sized_bytes(&self, body: &Ast, steps: &HashMap<usize, f64>) -> HashMap<usize, f64> {
        let mut out = HashMap::new();
        let mut elem_of = |key: usize, elem: f64| {
            if let Some(&s) = steps.get(&key) {
                let b = if s == 0.0 {
                    SECTOR / 32.0
                } else {
                    (s * elem).min(SECTOR)
                };
                out.insert(key, b);
            }
        };
        body.walk(&mut |n| match n {
            Ast::User { stmt, .. } => {
                if let Some(c) = self.costs.get(stmt.0) {
                    for (k, a) in c.accesses.iter().enumerate() {
                        elem_of(site(n, k), a.elem_bytes);
                    }
                }
            }
            Ast::Copy { array, .. } => {
                let elem = self.arrays.get(array).map(|a| a.0).unwrap_or(8.0);
                elem_of(site(n, 63), elem);
            }
            _ => {}
        });
        out
    }

    /// Runs the host code from `env`, calling `on_launch` with each launch
    /// reached (its index in `launches`), its work and its weight (the
    /// launches it stands for).
    pub fn host(
        &mut self,
        ast: &Ast,
        launches: &[Launch],
        env: &mut Env,
        w: f64,
        on_launch: &mut dyn FnMut(usize, &LaunchWork, f64),
    ) {
        match ast {
            Ast::Block(items) => {
                for i in items {
                    self.host(i, launches, env, w, on_launch);
                }
            }
            Ast::For {
                iter,
                init,
                cond,
                inc,
                body,
            } => {
                let (Some(v0), Some(step)) = (eval(init, env), eval(inc, env)) else {
                    self.unknown += 1;
                    return;
                };
                let mark = env.mark();
                env.push(iter, v0);
                let Some(n) = trip_count(iter, v0, step, cond, env) else {
                    self.unknown += 1;
                    env.truncate(mark);
                    return;
                };
                for (j, wj) in sample_points(n, self.sampling.host) {
                    env.set(iter, v0 + j * step);
                    self.host(body, launches, env, w * wj, on_launch);
                }
                env.truncate(mark);
            }
            Ast::Let { iter, value, body } => {
                let Some(v) = eval(value, env) else {
                    self.unknown += 1;
                    return;
                };
                let mark = env.mark();
                env.push(iter, v);
                self.host(body, launches, env, w, on_launch);
                env.truncate(mark);
            }
            Ast::If { cond, then_, else_ } => match eval(cond, env) {
                Some(0) => {
                    if let Some(e) = else_ {
                        self.host(e, launches, env, w, on_launch);
                    }
                }
                Some(_) => self.host(then_, launches, env, w, on_launch),
                None => {
                    self.unknown += 1;
                    self.host(then_, launches, env, w, on_launch);
                }
            },
            Ast::Launch(i) => match launches.get(*i) {
                Some(l) => {
                    let lw = self.launch(l, env);
                    on_launch(*i, &lw, w);
                }
                None => self.unknown += 1,
            },
            Ast::Site { body, .. } | Ast::Parallel { body, .. } | Ast::Atomic(body) => {
                self.host(body, launches, env, w, on_launch)
            }
            // Host code of a device version runs no statement itself.
            Ast::User { .. } | Ast::Barrier | Ast::Copy { .. } => self.unknown += 1,
        }
    }
}

fn bind(env: &mut Env, names: &[String], values: &[i64]) {
    for (n, v) in names.iter().zip(values) {
        env.push(n, *v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_weights_sum_to_the_range_and_count_linear_work_exactly() {
        for n in [1, 2, 7, 8, 9, 100, 2000, 123457] {
            let p = sample_points(n, 7);
            let total: f64 = p.iter().map(|(_, w)| w).sum();
            assert!((total - n as f64).abs() < 1e-6, "n {}", n);
            // A triangle: sum of (i + 1) over 0..n.
            let tri: f64 = p.iter().map(|(i, w)| (*i as f64 + 1.0) * w).sum();
            let exact = (n * (n + 1) / 2) as f64;
            assert!((tri - exact).abs() / exact < 0.01, "n {}: {} vs {}", n, tri, exact);
            assert!(p.iter().all(|(i, _)| *i >= 0 && *i < n));
        }
        assert!(sample_points(0, 7).is_empty());
    }

    #[test]
    fn trip_counts_of_isl_loops() {
        use crate::ast::AOp;
        let mut env = Env::new();
        env.push("n", 1000);
        // for (c = 5; c <= min(n - 1, 900); c += 32)
        let cond = AExpr::Op(
            AOp::Le,
            vec![
                AExpr::Id("c".into()),
                AExpr::Op(
                    AOp::Min,
                    vec![
                        AExpr::Op(AOp::Sub, vec![AExpr::Id("n".into()), AExpr::Int(1)]),
                        AExpr::Int(900),
                    ],
                ),
            ],
        );
        let m = env.mark();
        env.push("c", 0);
        assert_eq!(trip_count("c", 5, 32, &cond, &mut env), Some(28));
        assert_eq!(trip_count("c", 901, 1, &cond, &mut env), Some(0));
        assert_eq!(trip_count("c", 0, 0, &cond, &mut env), None);
        env.truncate(m);
    }
}
