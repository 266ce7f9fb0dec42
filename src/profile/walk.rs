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
use crate::ast::{AExpr, AOp, Ast, Launch};
use std::collections::{BTreeSet, HashMap};

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
    // isl's usual conditions have a closed form: the profile takes a trip
    // count at every loop entry of every sampled thread, and bisection
    // evaluates the condition some 2 log n times.
    if let Some(most) = upper_bound(cond, iter, env) {
        if most < init {
            return Some(0);
        }
        let n = (most.checked_sub(init)? / inc).checked_add(1)?;
        return (n <= 1 << 40).then_some(n);
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

/// The largest value of `iter` that `cond` allows, where `cond` bounds
/// it from above by expressions without it (`iter <= e`, `iter < e`,
/// `e >= iter`, `e > iter`, and conjunctions of those and of conditions
/// without `iter`: isl's loop conditions); `i64::MIN` where a condition
/// without `iter` is false. `None` for any other shape, or where an
/// expression cannot be evaluated (`trip_count` then bisects).
fn upper_bound(cond: &AExpr, iter: &str, env: &Env) -> Option<i64> {
    let is_iter = |e: &AExpr| matches!(e, AExpr::Id(n) if n == iter);
    let bound = |e: &AExpr| -> Option<i64> {
        if mentions(e, iter) {
            None
        } else {
            eval(e, env)
        }
    };
    match cond {
        AExpr::Op(AOp::Le, a) if a.len() == 2 && is_iter(&a[0]) => bound(&a[1]),
        AExpr::Op(AOp::Lt, a) if a.len() == 2 && is_iter(&a[0]) => bound(&a[1])?.checked_sub(1),
        AExpr::Op(AOp::Ge, a) if a.len() == 2 && is_iter(&a[1]) => bound(&a[0]),
        AExpr::Op(AOp::Gt, a) if a.len() == 2 && is_iter(&a[1]) => bound(&a[0])?.checked_sub(1),
        AExpr::Op(AOp::And, a) => {
            let mut most = i64::MAX;
            for c in a {
                most = most.min(upper_bound(c, iter, env)?);
            }
            Some(most)
        }
        c if !mentions(c, iter) => match eval(c, env)? {
            0 => Some(i64::MIN),
            _ => Some(i64::MAX),
        },
        _ => None,
    }
}

/// Whether `e` names `iter`.
fn mentions(e: &AExpr, iter: &str) -> bool {
    match e {
        AExpr::Int(_) => false,
        AExpr::Id(n) => n == iter,
        AExpr::Op(_, a) => a.iter().any(|x| mentions(x, iter)),
    }
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
    /// Per launch (`Launch::index`), the statements whose updates are
    /// atomic and all at one address (`serial_updates`).
    pub serial: Vec<BTreeSet<usize>>,
    /// Expressions that could not be evaluated (a guard taken as true, a
    /// loop taken as empty).
    pub unknown: usize,
}

/// What the probe learns of one access site (a statement's access, or a
/// copy) the first time a thread reaches it: the steps, in elements, to
/// the same access one iteration of the innermost enclosing loop later,
/// and in the neighbouring thread along x (`None`: no loop, a block one
/// thread wide, or not evaluated).
#[derive(Clone, Copy, Debug, Default)]
struct Probe {
    iteration_step: Option<i64>,
    thread_step: Option<i64>,
    /// An access of the same iteration of the innermost loop reached the
    /// element before: the compiler keeps it in a register (`y1[i] = ..;
    /// ym1 = y1[i];`; arrays are `restrict`). Reuse across iterations (a
    /// stencil's neighbours) is not counted: compilers do not keep array
    /// elements in registers from one iteration to the next.
    repeated: bool,
}

/// How many of an iteration's accesses a repeated one may follow.
const RECENT: usize = 64;

/// What one execution of an access site costs a thread.
#[derive(Clone, Copy, Debug)]
struct SiteCost {
    /// Bytes of memory traffic: the thread's share of its warp's 32-byte
    /// sectors, less what the next iterations reuse of them.
    bytes: f64,
    /// Whether it reaches past the cache line the previous iteration's
    /// access used (a latency a thread's chain pays, near ones hit L1).
    far: bool,
}

/// Whether a thread run probes sites or measures with what was probed.
enum Mode<'r> {
    Probe(HashMap<usize, Probe>),
    Measure(&'r HashMap<usize, SiteCost>),
}

/// One thread's run through a kernel body.
struct ThreadRun<'r, 'a> {
    region: &'r mut Region<'a>,
    work: Work,
    mode: Mode<'r>,
    /// The kernel loops around the current node, innermost last: their
    /// iterators, steps, and whether they start from the thread's x id
    /// (a copy loop `m = t_x; m < n; m += 32`: the next thread's iterator
    /// is one more at the same iteration).
    loops: Vec<(String, i64, bool)>,
    /// The thread id along x, where a block has more than one thread.
    x: Option<&'r str>,
    /// The probe's accesses in the current iteration of the innermost
    /// loop: array and element.
    recent: std::collections::VecDeque<(String, i64)>,
    /// The launch's statements whose updates wait for each other.
    serial: BTreeSet<usize>,
}

const SECTOR: f64 = 32.0;
/// A cache line of L1 (and the granule of an L2 access), bytes.
const LINE: f64 = 128.0;

/// An access site: the node (by address, stable while the AST lives) and
/// the access's position in its statement.
fn site(node: &Ast, k: usize) -> usize {
    (node as *const Ast as usize)
        .wrapping_mul(64)
        .wrapping_add(k)
}

/// The address `subs` reach with `strides` at `env`, evaluated by `value`.
fn address<T>(
    subs: &[T],
    strides: &[i64],
    env: &Env,
    value: impl Fn(&T, &Env) -> Option<i64>,
) -> Option<i64> {
    let mut at = 0i64;
    for (s, st) in subs.iter().zip(strides) {
        at = at.checked_add(value(s, env)?.checked_mul(*st)?)?;
    }
    Some(at)
}

impl ThreadRun<'_, '_> {
    /// One access at site `key`; `addr` gives its address at an
    /// environment (the probe also asks one iteration later).
    fn access(
        &mut self,
        key: usize,
        array: &str,
        env: &mut Env,
        addr: &dyn Fn(&Env) -> Option<i64>,
        copy: bool,
        write: bool,
        w: f64,
    ) {
        if copy {
            self.work.copies += w;
        } else {
            self.work.global_accesses += w;
        }
        match &mut self.mode {
            Mode::Probe(sites) => {
                let here = addr(env);
                let repeated =
                    here.is_some_and(|a| self.recent.iter().any(|(n, e)| n == array && *e == a));
                if let Some(a) = here {
                    if self.recent.len() == RECENT {
                        self.recent.pop_front();
                    }
                    self.recent.push_back((array.to_string(), a));
                }
                if !sites.contains_key(&key) {
                    let mut moved = env.clone();
                    let next = self.loops.last().and_then(|(it, step, _)| {
                        moved.set(it, env.get(it)?.checked_add(*step)?);
                        addr(&moved)
                    });
                    let neighbour = self.x.and_then(|x| {
                        let mut n = env.clone();
                        n.set(x, env.get(x)? + 1);
                        for (it, _, follows) in &self.loops {
                            if *follows {
                                n.set(it, env.get(it)? + 1);
                            }
                        }
                        addr(&n)
                    });
                    let step = |other: Option<i64>| here.zip(other).map(|(a, b)| (b - a).abs());
                    sites.insert(
                        key,
                        Probe {
                            iteration_step: step(next),
                            thread_step: step(neighbour),
                            repeated,
                        },
                    );
                }
            }
            Mode::Measure(costs) => {
                let c = costs.get(&key).copied().unwrap_or(SiteCost {
                    bytes: SECTOR,
                    far: true,
                });
                self.work.global_bytes += w * c.bytes;
                // A thread waits for its loads only.
                if c.far && !copy && !write {
                    self.work.far_accesses += w;
                }
            }
        }
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
                let follows = match (self.x, &self.mode) {
                    (Some(x), Mode::Probe(_)) => {
                        let mut ids = std::collections::BTreeSet::new();
                        init.ids(&mut ids);
                        ids.contains(x)
                    }
                    _ => false,
                };
                self.loops.push((iter.clone(), step, follows));
                for (j, wj) in sample_points(n, self.region.sampling.kernel) {
                    env.set(iter, v0 + j * step);
                    self.recent.clear();
                    self.run(body, env, w * wj);
                }
                self.recent.clear();
                self.loops.pop();
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
                let costs = self.region.costs;
                let Some(c) = costs.get(stmt.0) else {
                    self.region.unknown += 1;
                    return;
                };
                self.work.instances += w;
                if self.serial.contains(&stmt.0) {
                    self.work.atomics += w;
                }
                self.work.flops64 += w * c.flops64;
                self.work.flops32 += w * c.flops32;
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
                    // The statement's iterators are its arguments' values.
                    let addr = |e: &Env| -> Option<i64> {
                        let (subs, strides) = (acc.subscripts.as_ref()?, acc.strides.as_ref()?);
                        let mut inner = e.clone();
                        for (name, a) in c.iterators.iter().zip(args) {
                            inner.push(name, eval(a, e)?);
                        }
                        address(subs, strides, &inner, super::eval::eval_c)
                    };
                    self.access(site(ast, k), &acc.array, env, &addr, false, acc.write, w);
                }
            }
            Ast::Copy { array, subs, .. } => {
                let strides = self.region.arrays.get(array).and_then(|a| a.1.clone());
                let addr = |e: &Env| address(subs, strides.as_ref()?, e, eval);
                self.access(site(ast, 63), array, env, &addr, true, false, w);
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
        let serial = self.serial.get(l.index).cloned().unwrap_or_default();
        let mut out = LaunchWork {
            blocks: grid.iter().map(|&g| g as f64).product(),
            threads_per_block: threads.iter().map(|&t| t as f64).product(),
            ..Default::default()
        };
        if out.blocks == 0.0 {
            return out;
        }
        // One active lane per warp where blocks are one thread wide.
        let lone = threads.last().is_none_or(|&x| x <= 1);
        // Block ids start at the launch's first tiles.
        let first: Vec<i64> = (0..grid.len())
            .map(|j| l.block_offset_name(j).and_then(|n| env.get(n)).unwrap_or(0))
            .collect();
        let blocks: Vec<(Vec<i64>, f64)> = grid_samples(&grid, self.sampling.blocks)
            .into_iter()
            .map(|(b, w)| (b.iter().zip(&first).map(|(b, f)| b + f).collect(), w))
            .collect();
        let thread_samples = grid_samples(&threads, self.sampling.threads);
        // Probe: a thread at the start and one in the middle of a middle
        // block find each access site's steps between iterations and
        // between neighbouring threads.
        let probe_block = blocks[blocks.len() / 2].0.clone();
        let x = (!lone)
            .then(|| self.thread_ids.get(threads.len().wrapping_sub(1)))
            .flatten()
            .cloned();
        let mut probes = HashMap::new();
        for middle in [false, true] {
            let ids: Vec<i64> = threads
                .iter()
                .map(|&t| if middle { t / 2 } else { 0 })
                .collect();
            let mut e = env.clone();
            bind(&mut e, self.block_ids, &probe_block);
            bind(&mut e, self.thread_ids, &ids);
            let mut run = ThreadRun {
                region: self,
                work: Work::default(),
                mode: Mode::Probe(std::mem::take(&mut probes)),
                loops: Vec::new(),
                x: x.as_deref(),
                recent: Default::default(),
                serial: serial.clone(),
            };
            run.run(&l.body, &mut e, 1.0);
            if let Mode::Probe(p) = run.mode {
                probes = p;
            }
        }
        let costs = self.site_costs(&l.body, &probes, lone);
        for (b, wb) in &blocks {
            for (t, wt) in &thread_samples {
                let mut e = env.clone();
                bind(&mut e, self.block_ids, b);
                bind(&mut e, self.thread_ids, t);
                let mut run = ThreadRun {
                    region: self,
                    work: Work::default(),
                    mode: Mode::Measure(&costs),
                    loops: Vec::new(),
                    x: None,
                    recent: Default::default(),
                    serial: serial.clone(),
                };
                run.run(&l.body, &mut e, 1.0);
                let mut work = run.work;
                // One block that plays launches one after another
                // (`ast::one_block`): after each barrier its threads read
                // what others wrote, a round trip beyond their L1.
                if l.plays_launches {
                    work.far_accesses += work.barriers;
                    work.global_accesses += work.barriers;
                }
                out.total.add_scaled(&work, wb * wt);
                if work.chain() > out.busiest.chain() {
                    out.busiest = work;
                }
            }
        }
        out
    }

    /// Each probed site's cost. A warp reads whole 32-byte sectors:
    /// consecutive threads a step of `s` elements apart share a sector
    /// when `s * elem < 32`, threads on one element share one sector
    /// among the warp, and a lone lane pays a sector per access. What the
    /// next iteration reuses costs nothing more: an access that steps by
    /// `i` elements per iteration moves at most `i * elem` new bytes, none
    /// where it stays on its element.
    fn site_costs(
        &self,
        body: &Ast,
        probes: &HashMap<usize, Probe>,
        lone: bool,
    ) -> HashMap<usize, SiteCost> {
        let mut out = HashMap::new();
        let mut cost_of = |key: usize, elem: f64| {
            let Some(p) = probes.get(&key) else {
                return;
            };
            let across = match p.thread_step {
                _ if lone => SECTOR,
                Some(0) => SECTOR / 32.0,
                Some(t) => (t as f64 * elem).min(SECTOR),
                None => elem,
            };
            let (along, far) = match p.iteration_step {
                _ if p.repeated => (0.0, false),
                Some(0) => (0.0, false),
                Some(i) => ((i as f64 * elem).min(SECTOR), i as f64 * elem >= LINE),
                None => (SECTOR, true),
            };
            out.insert(
                key,
                SiteCost {
                    bytes: across.min(along),
                    far,
                },
            );
        };
        body.walk(&mut |n| match n {
            Ast::User { stmt, .. } => {
                if let Some(c) = self.costs.get(stmt.0) {
                    for (k, a) in c.accesses.iter().enumerate() {
                        cost_of(site(n, k), a.elem_bytes);
                    }
                }
            }
            Ast::Copy { array, .. } => {
                let elem = self.arrays.get(array).map(|a| a.0).unwrap_or(8.0);
                cost_of(site(n, 63), elem);
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
        on_launch: &mut dyn FnMut(usize, &LaunchWork, f64, &Env),
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
                    on_launch(*i, &lw, w, env);
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
            assert!(
                (tri - exact).abs() / exact < 0.01,
                "n {}: {} vs {}",
                n,
                tri,
                exact
            );
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

    /// The closed form of isl's conditions counts what bisection counts,
    /// and shapes it does not know (the iterator on both sides, inside an
    /// expression, an `or`) still bisect.
    #[test]
    fn closed_trip_counts_agree_with_bisection() {
        use crate::ast::AOp;
        let id = |n: &str| AExpr::Id(n.into());
        let op = |o: AOp, a: Vec<AExpr>| AExpr::Op(o, a);
        let int = AExpr::Int;
        let bisect = |init: i64, inc: i64, cond: &AExpr, env: &mut Env| -> Option<i64> {
            // The same condition with the iterator written `c + 0`: no
            // closed form, so `trip_count` bisects.
            let hidden = cond.substitute(&[("c".to_string(), op(AOp::Add, vec![id("c"), int(0)]))]);
            assert!(upper_bound(&hidden, "c", env).is_none());
            trip_count("c", init, inc, &hidden, env)
        };
        let conds = [
            op(AOp::Lt, vec![id("c"), id("n")]),
            op(AOp::Ge, vec![op(AOp::Sub, vec![id("n"), int(3)]), id("c")]),
            op(AOp::Gt, vec![id("n"), id("c")]),
            op(
                AOp::And,
                vec![
                    op(AOp::Ge, vec![id("n"), int(1)]),
                    op(AOp::Le, vec![id("c"), op(AOp::Min, vec![id("n"), int(37)])]),
                    op(AOp::Lt, vec![id("c"), op(AOp::Add, vec![id("m"), int(5)])]),
                ],
            ),
            op(
                AOp::And,
                vec![
                    op(AOp::Ge, vec![id("m"), int(100)]),
                    op(AOp::Lt, vec![id("c"), id("n")]),
                ],
            ),
        ];
        for n in [-5, 0, 1, 31, 32, 33, 1000] {
            for m in [-3, 0, 7, 64] {
                let mut env = Env::new();
                env.push("n", n);
                env.push("m", m);
                env.push("c", 0);
                for cond in &conds {
                    assert!(upper_bound(cond, "c", &env).is_some(), "{:?}", cond);
                    for (init, inc) in [(0, 1), (-4, 3), (5, 32), (40, 1)] {
                        let closed = trip_count("c", init, inc, cond, &mut env);
                        let bisected = bisect(init, inc, cond, &mut env);
                        assert_eq!(
                            closed, bisected,
                            "{:?} from {} by {} at n={} m={}",
                            cond, init, inc, n, m
                        );
                    }
                }
            }
        }
        // A condition with no bound on the iterator: as before, none.
        let mut env = Env::new();
        env.push("c", 0);
        let unbounded = op(AOp::Ge, vec![id("c"), int(0)]);
        assert_eq!(trip_count("c", 0, 1, &unbounded, &mut env), None);
    }
}
