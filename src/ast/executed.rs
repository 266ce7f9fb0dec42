//! What generated code executes, read back from the code itself: each
//! statement instance's execution time, from the loops, guards and
//! sequences that `Ast` holds, as isl sets. The schedule tree was checked
//! against every dependence (`valid`); this checks the code printed from
//! it, since isl's AST generator can contradict its tree: it orders the
//! statements of one schedule dimension by splitting their domains, and
//! has emitted those pieces under guards that put one statement's
//! instance before another's that the tree runs first (differential seed
//! 67, case 269: `tests/schedule_property.rs`). A failed check is an
//! internal error, so the ladder falls back to a simpler version.
//!
//! A device version is read back with its launches: a launch runs its
//! kernel's body for every block and thread of the grid the host code
//! computes; its instances must each run once, the dependences between
//! launches (and host statements) follow the host code's order, and none
//! joins two blocks of one launch.
//!
//! The time of an instance is the path to its call: the position of each
//! item in its block, and the value of each loop's iterator. A loop's
//! iterations are `init <= i`, its test, and `i ≡ init` modulo its step;
//! a `Let`'s iterator equals its value; a guard holds on the `then`
//! branch and fails on `else`.

use super::{AExpr, AOp, Ast, GpuAst, Launch, STAGE};
use crate::deps::DependenceGraph;
use crate::diag::{Code, Diagnostic, Result};
use crate::front::affine::isl_name;
use crate::front::int_type::IntTy;
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use isl_rs::{DimType, LocalSpace, Map, PwAff, Set, UnionMap, UnionSet, Val};
use std::collections::BTreeMap;

/// isl operations that reading back one version's code may take. Most
/// regions' code reads back in a small part of this (PolyBench's, the
/// differential tests'); a wavefront-tiled stencil's loop bounds (floors
/// of sums of parameters, in every bound) cost minutes at any budget, and
/// there the check is left out (`ReadBack::TooCostly`).
pub const READ_BACK_OPERATIONS: u64 = 3_000_000;

/// isl operations that reading back a device version's launches may take.
/// Fewer than `READ_BACK_OPERATIONS`: the instances of a launch are a
/// projection of its kernel's loops, and on a wavefront-tiled stencil's
/// (seidel-2d) one operation on them can take a tenth of a second (its
/// check took 16 s within a million operations; it stops in under one
/// second at this budget, where PolyBench's other launches read back).
pub const LAUNCH_READ_BACK_OPERATIONS: u64 = 300_000;

/// Begins every message of a failed check: the driver does not keep a
/// device version made from the same schedule as code that failed it.
pub const CODE_CONTRADICTS: &str = "isl's AST generator printed code that";

/// Begins the message of code the read back does not model.
const UNREADABLE: &str = "cannot read back the generated code";

/// How far the generated code was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadBack {
    /// Every instance runs once, and every dependence in order.
    Checked,
    /// The check ran out of its budget (`READ_BACK_OPERATIONS`): the code
    /// is as isl generated it from the checked tree.
    TooCostly,
    /// Kernel code with what the read back does not model (named).
    Unreadable(String),
}

impl ReadBack {
    /// The `-v` line for a region's host code.
    pub fn note(self, scop: &Scop) -> String {
        self.line(
            scop,
            "the host code",
            "every instance runs once, every dependence in order",
            &format!(
                "more than {} isl operations); as isl generated it from the checked schedule",
                READ_BACK_OPERATIONS
            ),
        )
    }

    /// The `-v` line for a device version's host code and launches.
    pub fn launch_note(self, scop: &Scop) -> String {
        self.line(
            scop,
            "the device version's launches",
            "every instance runs once, in one thread of one launch or on the host, and every dependence between launches and host statements is in order",
            "over the budget)",
        )
    }

    /// The `-v` line for a region's kernels.
    pub fn kernel_note(self, scop: &Scop) -> String {
        self.line(
            scop,
            "the kernel code",
            "each thread runs its instances once, every dependence between them in order",
            "over the budget)",
        )
    }

    /// "lines a-b: `code` is read back: `checked`", or why it is not.
    fn line(self, scop: &Scop, code: &str, checked: &str, too_costly: &str) -> String {
        let what = match self {
            ReadBack::Checked => format!("read back: {}", checked),
            ReadBack::TooCostly => format!("not read back ({}", too_costly),
            ReadBack::Unreadable(what) => format!("not read back ({})", what),
        };
        format!(
            "lines {}-{}: {} {} {}",
            scop.begin_line,
            scop.end_line,
            code,
            if code.ends_with('s') { "are" } else { "is" },
            what
        )
    }
}

/// Checks that `ast` (sequential code: loops, guards, `Let`s, calls; an
/// OpenMP loop read as the loop it wraps) runs every instance of the
/// region's statements once, where the context holds, and orders every
/// dependence as the schedule does. A failed check is an internal error.
pub fn check_sequential_code(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    ast: &Ast,
) -> Result<ReadBack> {
    within_budget(isl, READ_BACK_OPERATIONS, false, || {
        check_within_budget(isl, scop, deps, ast)
    })
}

/// Checks each kernel's code as one thread runs it: with its block and
/// thread ids and host values fixed, every instance runs once and every
/// dependence between two of them in order. Dependences between threads
/// are the schedule's (`valid` checked the mapped members), and are not
/// read here.
pub fn check_kernels(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    gpu: &super::GpuAst,
) -> Result<ReadBack> {
    within_budget(isl, READ_BACK_OPERATIONS, true, || {
        check_kernels_within_budget(isl, scop, deps, gpu)
    })
}

/// Runs a read back `check` within `READ_BACK_OPERATIONS` (a fresh
/// operation count for it, and for the caller after it). Out of that
/// budget the code is `TooCostly`; with `unmodelled_ok`, code with what
/// the read back does not model is `Unreadable`, not an error. The
/// region's own time running out stays an error.
fn within_budget(
    isl: &Isl,
    limit: u64,
    unmodelled_ok: bool,
    check: impl FnOnce() -> Result<()>,
) -> Result<ReadBack> {
    match isl.within_operations(limit, check) {
        Ok(Some(())) => Ok(ReadBack::Checked),
        Ok(None) => Ok(ReadBack::TooCostly),
        Err(e) if unmodelled_ok && e.code == Code::Internal && e.message.contains(UNREADABLE) => {
            let at = e.message.find(UNREADABLE).unwrap_or(0);
            Ok(ReadBack::Unreadable(e.message[at..].to_string()))
        }
        Err(e) => Err(e),
    }
}

fn check_kernels_within_budget(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    gpu: &super::GpuAst,
) -> Result<()> {
    let all = deps.all(isl)?;
    for launch in &gpu.launches {
        isl.check_deadline(STAGE)?;
        let threads = launch.plan.block_sizes.iter().copied().max().unwrap_or(1);
        let blocks = launch
            .plan
            .grid_cap
            .iter()
            .copied()
            .max()
            .unwrap_or(i32::MAX as i64);
        let ids: Vec<(String, i64)> = gpu
            .block_ids
            .iter()
            .map(|b| (b.clone(), blocks - 1))
            .chain(gpu.thread_ids.iter().map(|t| (t.clone(), threads - 1)))
            .collect();
        let extra: Vec<String> = ids
            .iter()
            .map(|(n, _)| n.clone())
            .chain(launch.host_values.iter().map(|(n, _)| n.clone()))
            .collect();
        let times = read(isl, scop, &launch.body, &extra, Some(&ids), None)?.executed;
        let what = format!("kernel {}", launch.plan.id);
        if !times.is_single_valued().isl(isl, STAGE)? {
            return Err(Diagnostic::internal(
                STAGE,
                format!(
                    "{} {}'s code, where one thread runs some statement instance more than once",
                    CODE_CONTRADICTS, what
                ),
            ));
        }
        // The dependences between instances of one thread.
        let ran = times.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
        let within = all
            .copy()
            .isl(isl, STAGE)?
            .intersect_domain(ran.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .intersect_range(ran)
            .isl(isl, STAGE)?;
        crate::valid::check_order(isl, within, times).map_err(|e| contradiction(e, &what))?;
    }
    Ok(())
}

/// A failed order check, as an error of the code isl printed.
fn contradiction(e: Diagnostic, what: &str) -> Diagnostic {
    if e.code == Code::Budget {
        return e;
    }
    Diagnostic::internal(
        STAGE,
        format!(
            "{} contradicts its schedule ({}): {}",
            CODE_CONTRADICTS,
            what,
            e.message
                .trim_start_matches("internal error in stage `valid`: ")
                .replace("the schedule violates", "the code violates")
        ),
    )
}

fn check_within_budget(isl: &Isl, scop: &Scop, deps: &DependenceGraph, ast: &Ast) -> Result<()> {
    let executed = executed_times(isl, scop, ast)?;
    let ran = runs_each_once(isl, scop, &executed, "")?;
    crate::valid::check_order(isl, deps_between(isl, deps, ran)?, executed)
        .map_err(|e| contradiction(e, "host code"))
}

/// Checks that `executed` (instance → time) runs every instance of the
/// region once where its context holds (and the entry check, which the
/// generated code runs behind); the instances it runs. `what` names the
/// code in messages.
fn runs_each_once(isl: &Isl, scop: &Scop, executed: &UnionMap, what: &str) -> Result<UnionSet> {
    let context = runs_where(isl, scop)?;
    let domain = isl
        .union_set(&scop.domain_text())
        .isl(isl, STAGE)?
        .intersect_params(context.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let ran = executed
        .copy()
        .isl(isl, STAGE)?
        .domain()
        .isl(isl, STAGE)?
        .intersect_params(context)
        .isl(isl, STAGE)?;
    if !ran.is_equal(&domain).isl(isl, STAGE)? {
        let missing = domain
            .copy()
            .isl(isl, STAGE)?
            .subtract(ran.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let extra = ran.subtract(domain).isl(isl, STAGE)?;
        return Err(Diagnostic::internal(
            STAGE,
            format!(
                "{}{} does not run the region's instances: it misses {} and runs {}",
                CODE_CONTRADICTS,
                what,
                missing.text(isl, STAGE)?,
                extra.text(isl, STAGE)?
            ),
        ));
    }
    if !executed.is_single_valued().isl(isl, STAGE)? {
        return Err(Diagnostic::internal(
            STAGE,
            format!(
                "{}{} runs some statement instance more than once",
                CODE_CONTRADICTS, what
            ),
        ));
    }
    // The same instances as `ran`, in the domain's simpler terms.
    Ok(domain)
}

/// Checks that the dependences `deps` between instances of one execution
/// of a launch stay within one block: blocks run in no order, and nothing
/// orders two of them within one launch.
fn in_one_block(isl: &Isl, deps: &UnionMap, blocks: LaunchBlocks) -> Result<()> {
    let InLaunch {
        host_len, n_block, ..
    } = blocks.at;
    let by_block = blocks.times;
    if n_block == 0 {
        return Ok(());
    }
    let in_time = deps
        .copy()
        .isl(isl, STAGE)?
        .apply_domain(by_block.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .apply_range(by_block.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    if in_time.is_empty().isl(isl, STAGE)? {
        return Ok(());
    }
    let mut same_launch = Map::from_union_map(in_time).isl(isl, STAGE)?;
    for d in 0..host_len {
        same_launch = same_launch
            .equate(DimType::In, d as i32, DimType::Out, d as i32)
            .isl(isl, STAGE)?;
    }
    let space = same_launch.get_space().isl(isl, STAGE)?;
    for d in host_len..host_len + n_block {
        for before in [true, false] {
            let universe = Map::universe(space.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
            let apart = if before {
                universe.order_lt(DimType::In, d as i32, DimType::Out, d as i32)
            } else {
                universe.order_gt(DimType::In, d as i32, DimType::Out, d as i32)
            }
            .isl(isl, STAGE)?;
            let across = same_launch
                .copy()
                .isl(isl, STAGE)?
                .intersect(apart)
                .isl(isl, STAGE)?;
            if across.is_empty().isl(isl, STAGE)? {
                continue;
            }
            let pairs = crate::valid::dependences_at(
                isl,
                deps,
                &by_block,
                UnionMap::from_map(across).isl(isl, STAGE)?,
            )?;
            return Err(Diagnostic::internal(
                STAGE,
                format!(
                    "the schedule violates the dependences {} (their instances run in different blocks of one launch)",
                    pairs.text(isl, STAGE)?
                ),
            ));
        }
    }
    Ok(())
}

/// The parameter values for which generated code runs: the region's
/// context, its entry check, and each parameter within its C type's range
/// (the index type's where the scop records none). isl generates code for
/// the context alone, and may leave values the type cannot hold without
/// a piece (an `int n` above 2^31 - 1, where a grid counts the tiles of
/// `(unsigned) n`: tests/programs/cast_bound_grid.c).
fn runs_where(isl: &Isl, scop: &Scop) -> Result<Set> {
    let index = IntTy::of(&scop.index_type).unwrap_or(IntTy::INT);
    let ranges: Vec<String> = scop
        .params
        .iter()
        .map(|p| {
            let (lo, hi) = scop.own_int_type(p).unwrap_or(index).range();
            format!("{} <= {} <= {}", lo, p, hi)
        })
        .collect();
    let mut context = isl
        .set(&format!(
            "{} -> {{ : {} }}",
            scop.param_prefix(),
            if ranges.is_empty() {
                "true".to_string()
            } else {
                ranges.join(" and ")
            }
        ))
        .isl(isl, STAGE)?
        .intersect(isl.set(&scop.context).isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    if let Some(checked) = &scop.checked {
        context = context
            .intersect(isl.set(checked).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
    }
    Ok(context)
}

/// The dependences between instances the code runs: the dependence
/// analysis may also relate instances at parameter values where a domain
/// is empty (`(int)(n - 1) + 3` overflowing: tests/programs/
/// unsigned_bounds.c), which no code runs.
fn deps_between(isl: &Isl, deps: &DependenceGraph, ran: UnionSet) -> Result<UnionMap> {
    deps.all(isl)?
        .intersect_domain(ran.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .intersect_range(ran)
        .isl(isl, STAGE)
}

/// Checks a device version's host code with its launches: every instance
/// runs once, in one thread of one launch or on the host, and every
/// dependence between instances of different launches, or with the host's
/// own statements, is in the order the host code runs them, and no
/// dependence within one execution of a launch joins two of its blocks
/// (`in_one_block`). (Within one launch, a thread's order is
/// `check_kernels`'s; between threads of one block, the mapping's, which
/// `valid` checked.)
pub fn check_launches(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    gpu: &GpuAst,
) -> Result<ReadBack> {
    within_budget(isl, LAUNCH_READ_BACK_OPERATIONS, true, || {
        let timed = read(isl, scop, &gpu.host, &[], None, Some(gpu))?;
        let ran = runs_each_once(isl, scop, &timed.executed, " (a device version's launches)")?;
        let deps = deps_between(isl, deps, ran)?;
        // Instances at the same time of the host code run in the same
        // execution of one launch.
        crate::valid::check_order_or_together(isl, deps.copy().isl(isl, STAGE)?, timed.on_host)
            .map_err(|e| contradiction(e, "the order of the launches"))?;
        for (launch, blocks) in timed.by_block {
            in_one_block(isl, &deps, blocks)
                .map_err(|e| contradiction(e, &format!("launch {}", launch)))?;
        }
        Ok(())
    })
}

/// Statement instance → time, as the code runs them where the region's
/// context holds (times of different lengths: `valid::check_schedule_map`
/// pads them).
pub fn executed_times(isl: &Isl, scop: &Scop, ast: &Ast) -> Result<UnionMap> {
    Ok(read(isl, scop, ast, &[], None, None)?.executed)
}

/// The loop and `Let` iterators of `ast`, each once.
fn iterators(ast: &Ast) -> Vec<String> {
    let mut iters: Vec<String> = Vec::new();
    ast.walk(&mut |n| {
        if let Ast::For { iter, .. } | Ast::Let { iter, .. } = n {
            if !iters.contains(iter) {
                iters.push(iter.clone());
            }
        }
    });
    iters
}

/// The dimensions reading a launch's body takes beside the host code's:
/// its block and thread ids, the host values it is given, and its
/// iterators (a scope of their own: a kernel may reuse the host's names).
fn launch_scope(l: &Launch, gpu: &GpuAst) -> Vec<String> {
    gpu.block_ids
        .iter()
        .take(l.plan.n_block)
        .chain(gpu.thread_ids.iter().take(l.plan.block_sizes.len()))
        .chain(l.host_values.iter().map(|(n, _)| n))
        .cloned()
        .chain(iterators(&l.body))
        .collect()
}

/// The instances `ast` runs → their times. `extra` names more parameters
/// (a kernel's block and thread ids and host values); `kernel` reads a
/// kernel's body (copies and barriers run no instances), with the ids
/// in `0..` their largest value. With `device`, `ast` is that version's
/// host code and its launches run their kernels' instances (for every
/// block and thread the launch has), at the time of the launch followed
/// by the block and thread ids and the time within the thread; the second
/// map holds the times of the host code alone (a launch's instances all
/// at the launch's).
fn read(
    isl: &Isl,
    scop: &Scop,
    ast: &Ast,
    extra: &[String],
    kernel: Option<&[(String, i64)]>,
    device: Option<&GpuAst>,
) -> Result<Timed> {
    let iters = iterators(ast);
    let kernel_dims = device
        .map(|g| {
            g.launches
                .iter()
                .map(|l| launch_scope(l, g).len())
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(0);
    let dims: Vec<String> = (0..iters.len() + kernel_dims)
        .map(|k| format!("d{}", k))
        .collect();
    let params: Vec<String> = scop
        .params
        .iter()
        .cloned()
        .chain(extra.iter().filter(|e| !scop.params.contains(e)).cloned())
        .collect();
    let prefix = format!("[{}]", params.join(", "));
    let ids: Vec<String> = kernel
        .unwrap_or(&[])
        .iter()
        .map(|(id, max)| format!("0 <= {} <= {}", id, max))
        .collect();
    let universe = isl
        .set(&format!(
            "{} -> {{ [{}] : {} }}",
            prefix,
            dims.join(", "),
            if ids.is_empty() {
                "true".to_string()
            } else {
                ids.join(" and ")
            }
        ))
        .isl(isl, STAGE)?;
    let mut names = BTreeMap::new();
    for p in &params {
        names.insert(p.clone(), Name::Param(p.clone()));
        names.insert(isl_name(p), Name::Param(p.clone()));
    }
    for (k, it) in iters.iter().enumerate() {
        names.insert(it.clone(), Name::Dim(k));
    }
    let mut r = Reader {
        isl,
        scop,
        names,
        universe: universe.copy().isl(isl, STAGE)?,
        no_values: isl
            .map(&format!("{} -> {{ [{}] -> [] }}", prefix, dims.join(", ")))
            .isl(isl, STAGE)?,
        out: isl.union_map("{ }").isl(isl, STAGE)?,
        host_out: isl.union_map("{ }").isl(isl, STAGE)?,
        kernel: kernel.is_some(),
        device: device.map(|gpu| (gpu, iters.len())),
        in_launch: None,
        by_block: BTreeMap::new(),
    };
    // isl generated the code for the context's parameter values only.
    // (Not `runs_where`'s: type ranges in every set made the read of
    // seidel-2d's wavefront-tiled launches take longer than its rung.)
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    let mut time = vec![Time::Const(0)];
    r.node(
        ast,
        universe.intersect_params(context).isl(isl, STAGE)?,
        &mut time,
    )?;
    Ok(Timed {
        executed: r.out,
        on_host: r.host_out,
        by_block: r.by_block,
    })
}

#[derive(Clone, Debug)]
enum Name {
    Param(String),
    Dim(usize),
}

#[derive(Clone, Copy, Debug)]
enum Time {
    Const(i64),
    Dim(usize),
}

/// Whether the loop test `cond` holds on an interval of `iter` that
/// starts at the loop's start: a conjunction of `iter < e`, `iter <= e`
/// and conditions free of `iter` (the iterations are then the values
/// from the start where it holds).
fn upper_bounds(cond: &AExpr, iter: &str) -> bool {
    match cond {
        AExpr::Op(AOp::And, args) => args.iter().all(|a| upper_bounds(a, iter)),
        AExpr::Op(AOp::Le | AOp::Lt, args)
            if args.len() == 2 && args[0] == AExpr::Id(iter.to_string()) =>
        {
            !args[1].mentions(iter)
        }
        other => !other.mentions(iter),
    }
}

struct Reader<'a> {
    isl: &'a Isl,
    scop: &'a Scop,
    names: BTreeMap<String, Name>,
    universe: Set,
    /// The map from the iterators to the empty tuple.
    no_values: Map,
    out: UnionMap,
    /// With `device`: instance → the time of the host code alone.
    host_out: UnionMap,
    /// Reading a kernel's body: copies and barriers are no instances.
    kernel: bool,
    /// A device version's host code, whose launches are read, and the
    /// first dimension of a launch's own scope (`launch_scope`).
    device: Option<(&'a GpuAst, usize)>,
    /// In a launch's body: which launch, and where its times stand.
    in_launch: Option<InLaunch>,
    /// Per launch: its instances' times by block.
    by_block: BTreeMap<usize, LaunchBlocks>,
}

/// A launch being read: its index, the length of its time in the host
/// code, and the number of its block ids (which follow that time).
#[derive(Clone, Copy, Debug)]
struct InLaunch {
    launch: usize,
    host_len: usize,
    n_block: usize,
}

/// One launch's instances → the launch's time in the host code followed
/// by the block ids of the thread that runs each.
struct LaunchBlocks {
    at: InLaunch,
    times: UnionMap,
}

/// What `read` found: instance → time (for device code, the host code's
/// time followed by the block and thread ids and the time in the thread),
/// instance → the host code's time alone, and per launch `by_block`.
struct Timed {
    executed: UnionMap,
    on_host: UnionMap,
    by_block: BTreeMap<usize, LaunchBlocks>,
}

impl Reader<'_> {
    /// Adds the instances `ast` runs where `path` holds, at times that
    /// start with `time`.
    fn node(&mut self, ast: &Ast, path: Set, time: &mut Vec<Time>) -> Result<()> {
        let isl = self.isl;
        isl.check_deadline(STAGE)?;
        if path.is_empty().isl(isl, STAGE)? {
            return Ok(());
        }
        match ast {
            Ast::Block(items) => {
                for (k, a) in items.iter().enumerate() {
                    time.push(Time::Const(k as i64));
                    self.node(a, path.copy().isl(isl, STAGE)?, time)?;
                    time.pop();
                }
                Ok(())
            }
            Ast::For {
                iter,
                init,
                cond,
                inc,
                body,
            } => {
                let k = self.dim(iter)?;
                let step = match inc {
                    AExpr::Int(s) if *s > 0 => *s,
                    _ => {
                        return Err(self.unsupported("a loop step that is not a positive constant"))
                    }
                };
                if !upper_bounds(cond, iter) {
                    return Err(self.unsupported(&format!(
                        "a loop test other than bounds `i < e`, `i <= e` and conditions free of `i`: {:?}",
                        cond
                    )));
                }
                let bound = cond;
                let i = self.var(k)?;
                let start = self.value(init)?;
                let mut iterations = i
                    .copy()
                    .isl(isl, STAGE)?
                    .ge_set(start.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?
                    .intersect(self.condition(bound)?)
                    .isl(isl, STAGE)?;
                if step > 1 {
                    let on_stride = i
                        .sub(start)
                        .isl(isl, STAGE)?
                        .mod_val(Val::int_from_si(&isl.ctx, step).isl(isl, STAGE)?)
                        .isl(isl, STAGE)?
                        .eq_set(self.constant(0)?)
                        .isl(isl, STAGE)?;
                    iterations = iterations.intersect(on_stride).isl(isl, STAGE)?;
                }
                time.push(Time::Dim(k));
                let path = path
                    .intersect(iterations)
                    .isl(isl, STAGE)?
                    .coalesce()
                    .isl(isl, STAGE)?;
                let r = self.node(body, path, time);
                time.pop();
                r
            }
            Ast::Let { iter, value, body } => {
                let k = self.dim(iter)?;
                let is = self.var(k)?.eq_set(self.value(value)?).isl(isl, STAGE)?;
                self.node(body, path.intersect(is).isl(isl, STAGE)?, time)
            }
            Ast::If { cond, then_, else_ } => {
                let holds = self.condition(cond)?;
                if let Some(e) = else_ {
                    let fails = holds.copy().isl(isl, STAGE)?.complement().isl(isl, STAGE)?;
                    time.push(Time::Const(0));
                    self.node(
                        then_,
                        path.copy()
                            .isl(isl, STAGE)?
                            .intersect(holds)
                            .isl(isl, STAGE)?,
                        time,
                    )?;
                    time.pop();
                    time.push(Time::Const(1));
                    let r = self.node(e, path.intersect(fails).isl(isl, STAGE)?, time);
                    time.pop();
                    r
                } else {
                    self.node(then_, path.intersect(holds).isl(isl, STAGE)?, time)
                }
            }
            Ast::Parallel { body, .. } | Ast::Atomic(body) => self.node(body, path, time),
            Ast::User { stmt, args, .. } => self.user(stmt.0, args, path, time),
            Ast::Barrier | Ast::Copy { .. } if self.kernel => Ok(()),
            Ast::Site { body, .. } if self.kernel => self.node(body, path, time),
            Ast::Launch(i) if !self.kernel && self.device.is_some() => self.launch(*i, path, time),
            Ast::Barrier | Ast::Copy { .. } | Ast::Site { .. } | Ast::Launch(_) => {
                Err(self.unsupported("device code"))
            }
        }
    }

    /// The instances launch `i` runs where `path` holds: its body, for
    /// every block (`0 <= b < grid`) and thread (`0 <= t < block size`),
    /// with its host values equal to what the host passes, read in a scope
    /// of its own.
    fn launch(&mut self, i: usize, path: Set, time: &mut Vec<Time>) -> Result<()> {
        let isl = self.isl;
        let Some((gpu, base)) = self.device else {
            return Err(self.unsupported("a launch outside a device version"));
        };
        let l = gpu
            .launches
            .get(i)
            .ok_or_else(|| Diagnostic::internal(STAGE, format!("unknown launch {}", i)))?;
        let scope = launch_scope(l, gpu);
        let mut names: BTreeMap<String, Name> = self
            .names
            .iter()
            .filter(|(_, n)| matches!(n, Name::Param(_)))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (k, n) in scope.iter().enumerate() {
            names.insert(n.clone(), Name::Dim(base + k));
        }
        // Bounds of the ids and the host values, in the host's names.
        let mut within = path;
        let (n_block, n_thread) = (l.plan.n_block, l.plan.block_sizes.len());
        if l.grid.len() < n_block {
            return Err(self.unsupported("a launch with fewer grid sizes than block ids"));
        }
        let ids = (0..n_block + n_thread).map(|k| base + k);
        for (k, dim) in ids.clone().enumerate() {
            // A grid that starts at the launch's first tile runs ids
            // `first .. first + grid`.
            let first = match l.block_offset(k) {
                Some(v) if k < n_block => self.value(v)?,
                _ => self.constant(0)?,
            };
            let end = if k < n_block {
                first
                    .copy()
                    .isl(isl, STAGE)?
                    .add(self.value(&l.grid[k])?)
                    .isl(isl, STAGE)?
            } else {
                self.constant(l.plan.block_sizes[k - n_block])?
            };
            let id = self.var(dim)?;
            let runs = id
                .copy()
                .isl(isl, STAGE)?
                .ge_set(first)
                .isl(isl, STAGE)?
                .intersect(id.lt_set(end).isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            within = within.intersect(runs).isl(isl, STAGE)?;
        }
        for (k, (_, v)) in l.host_values.iter().enumerate() {
            let is = self
                .var(base + n_block + n_thread + k)?
                .eq_set(self.value(v)?)
                .isl(isl, STAGE)?;
            within = within.intersect(is).isl(isl, STAGE)?;
        }
        let host_names = std::mem::replace(&mut self.names, names);
        let host_len = time.len();
        time.extend(ids.map(Time::Dim));
        self.kernel = true;
        self.in_launch = Some(InLaunch {
            launch: i,
            host_len,
            n_block,
        });
        let r = self.node(&l.body, within, time);
        self.kernel = false;
        self.in_launch = None;
        time.truncate(host_len);
        self.names = host_names;
        r
    }

    /// Statement `stmt`'s instance `args` → `time`, where `path` holds.
    fn user(&mut self, stmt: usize, args: &[AExpr], path: Set, time: &[Time]) -> Result<()> {
        let isl = self.isl;
        let st =
            self.scop.stmts.get(stmt).ok_or_else(|| {
                Diagnostic::internal(STAGE, format!("unknown statement {}", stmt))
            })?;
        if args.len() != st.iterators.len() {
            return Err(Diagnostic::internal(
                STAGE,
                format!(
                    "a call of {} with {} arguments for {} iterators",
                    st.name,
                    args.len(),
                    st.iterators.len()
                ),
            ));
        }
        let mut instance = self.tuple(args.iter().map(|a| self.value(a)))?;
        instance = instance
            .set_tuple_name(DimType::Out, &st.name)
            .isl(isl, STAGE)?;
        // Instance → the iterators' values where it runs.
        let reached = instance
            .intersect_domain(path)
            .isl(isl, STAGE)?
            .reverse()
            .isl(isl, STAGE)?;
        if self.device.is_some() {
            let host_len = self.in_launch.map_or(time.len(), |l| l.host_len);
            let at = self.timed(&reached, &time[..host_len])?;
            let host = std::mem::replace(&mut self.host_out, isl.union_map("{ }").isl(isl, STAGE)?);
            self.host_out = host.union(at).isl(isl, STAGE)?;
            if let Some(l) = self.in_launch {
                let at = self.timed(&reached, &time[..l.host_len + l.n_block])?;
                let times = match self.by_block.remove(&l.launch) {
                    Some(b) => b.times.union(at).isl(isl, STAGE)?,
                    None => at,
                };
                self.by_block
                    .insert(l.launch, LaunchBlocks { at: l, times });
            }
        }
        let timed = reached
            .apply_range(self.at(time)?)
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        let out = std::mem::replace(&mut self.out, isl.union_map("{ }").isl(isl, STAGE)?);
        self.out = out
            .union(UnionMap::from_map(timed).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        Ok(())
    }

    /// `reached` (instance → iterators) at `time`.
    fn timed(&self, reached: &Map, time: &[Time]) -> Result<UnionMap> {
        let isl = self.isl;
        let m = reached
            .copy()
            .isl(isl, STAGE)?
            .apply_range(self.at(time)?)
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        UnionMap::from_map(m).isl(isl, STAGE)
    }

    /// The map from the iterators to `time`.
    fn at(&self, time: &[Time]) -> Result<Map> {
        self.tuple(time.iter().map(|t| match t {
            Time::Const(c) => self.constant(*c),
            Time::Dim(k) => self.var(*k),
        }))
    }

    /// The map from the iterators to the values `parts`.
    fn tuple(&self, parts: impl Iterator<Item = Result<PwAff>>) -> Result<Map> {
        let isl = self.isl;
        let mut m = self.no_values.copy().isl(isl, STAGE)?;
        for p in parts {
            m = m
                .flat_range_product(Map::from_pw_aff(p?).isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
        }
        Ok(m)
    }

    fn dim(&self, name: &str) -> Result<usize> {
        match self.names.get(name) {
            Some(Name::Dim(k)) => Ok(*k),
            _ => Err(Diagnostic::internal(
                STAGE,
                format!("`{}` is not an iterator of the generated code", name),
            )),
        }
    }

    fn var(&self, k: usize) -> Result<PwAff> {
        let isl = self.isl;
        let ls =
            LocalSpace::from_space(self.universe.get_space().isl(isl, STAGE)?).isl(isl, STAGE)?;
        PwAff::var_on_domain(ls, DimType::Set, k as u32).isl(isl, STAGE)
    }

    fn constant(&self, c: i64) -> Result<PwAff> {
        let isl = self.isl;
        PwAff::val_on_domain(
            self.universe.copy().isl(isl, STAGE)?,
            Val::int_from_si(&isl.ctx, c).isl(isl, STAGE)?,
        )
        .isl(isl, STAGE)
    }

    fn unsupported(&self, what: &str) -> Diagnostic {
        Diagnostic::internal(STAGE, format!("{}: {}", UNREADABLE, what))
    }

    /// The value of an integer expression, as C computes it.
    fn value(&self, e: &AExpr) -> Result<PwAff> {
        let isl = self.isl;
        let bin = |args: &[AExpr], f: &dyn Fn(PwAff, PwAff) -> Result<PwAff>| -> Result<PwAff> {
            let mut it = args.iter();
            let first = it
                .next()
                .ok_or_else(|| self.unsupported("an operator without operands"))?;
            let mut acc = self.value(first)?;
            for a in it {
                acc = f(acc, self.value(a)?)?;
            }
            Ok(acc)
        };
        match e {
            AExpr::Int(c) => self.constant(*c),
            AExpr::Id(name) => match self.names.get(name) {
                Some(Name::Dim(k)) => self.var(*k),
                Some(Name::Param(p)) => PwAff::param_on_domain_id(
                    self.universe.copy().isl(isl, STAGE)?,
                    isl.id(&isl_name(p)).isl(isl, STAGE)?,
                )
                .isl(isl, STAGE),
                None => Err(self.unsupported(&format!("the name `{}`", name))),
            },
            // A cast of a parameter: the same value (the context bounds it).
            AExpr::Op(AOp::Call, args) if args.len() == 2 => self.value(&args[1]),
            AExpr::Op(AOp::Neg, args) if args.len() == 1 => {
                self.value(&args[0])?.neg().isl(isl, STAGE)
            }
            AExpr::Op(AOp::Add, args) => bin(args, &|a, b| a.add(b).isl(isl, STAGE)),
            AExpr::Op(AOp::Sub, args) => bin(args, &|a, b| a.sub(b).isl(isl, STAGE)),
            AExpr::Op(AOp::Mul, args) => bin(args, &|a, b| a.mul(b).isl(isl, STAGE)),
            AExpr::Op(AOp::Min, args) => bin(args, &|a, b| a.min(b).isl(isl, STAGE)),
            AExpr::Op(AOp::Max, args) => bin(args, &|a, b| a.max(b).isl(isl, STAGE)),
            // isl prints `/` and `%` only where the dividend is not
            // negative, or (`%`) compared with zero: where C's truncation
            // agrees with floor division and modulo, which keep one piece.
            AExpr::Op(AOp::Div | AOp::FloorDiv, args) => bin(args, &|a, b| {
                a.div(b).isl(isl, STAGE)?.floor().isl(isl, STAGE)
            }),
            AExpr::Op(AOp::Rem, args) => bin(args, &|a, b| {
                let q = a
                    .copy()
                    .isl(isl, STAGE)?
                    .div(b.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?;
                a.sub(q.floor().isl(isl, STAGE)?.mul(b).isl(isl, STAGE)?)
                    .isl(isl, STAGE)
            }),
            AExpr::Op(AOp::Cond, args) if args.len() == 3 => self.select(
                self.condition(&args[0])?,
                self.value(&args[1])?,
                self.value(&args[2])?,
            ),
            // A condition's value: 1 where it holds, 0 elsewhere.
            AExpr::Op(AOp::And | AOp::Or | AOp::Eq | AOp::Le | AOp::Lt | AOp::Ge | AOp::Gt, _) => {
                self.select(self.condition(e)?, self.constant(1)?, self.constant(0)?)
            }
            _ => Err(self.unsupported(&format!("the expression {:?}", e))),
        }
    }

    /// `then` where `holds`, `otherwise` elsewhere.
    fn select(&self, holds: Set, then: PwAff, otherwise: PwAff) -> Result<PwAff> {
        let isl = self.isl;
        let fails = holds.copy().isl(isl, STAGE)?.complement().isl(isl, STAGE)?;
        then.intersect_domain(holds)
            .isl(isl, STAGE)?
            .union_add(otherwise.intersect_domain(fails).isl(isl, STAGE)?)
            .isl(isl, STAGE)
    }

    /// Where a condition holds. Comparisons with a minimum or maximum
    /// become conjunctions or disjunctions of comparisons with their
    /// operands (`i <= min(a, b)` is `i <= a and i <= b`), which keeps
    /// loop bounds single convex pieces instead of a piece per operand.
    fn condition(&self, e: &AExpr) -> Result<Set> {
        let isl = self.isl;
        match e {
            AExpr::Op(AOp::And, args) => {
                let mut acc = self.universe.copy().isl(isl, STAGE)?;
                for a in args {
                    acc = acc.intersect(self.condition(a)?).isl(isl, STAGE)?;
                }
                Ok(acc)
            }
            AExpr::Op(AOp::Or, args) => {
                let mut acc =
                    Set::empty(self.universe.get_space().isl(isl, STAGE)?).isl(isl, STAGE)?;
                for a in args {
                    acc = acc.union(self.condition(a)?).isl(isl, STAGE)?;
                }
                Ok(acc)
            }
            AExpr::Op(op @ (AOp::Eq | AOp::Le | AOp::Lt | AOp::Ge | AOp::Gt), args) => {
                let [a, b] = args.as_slice() else {
                    return Err(self.unsupported("a comparison of other than two operands"));
                };
                match op {
                    AOp::Le => self.at_most(a, b, false),
                    AOp::Lt => self.at_most(a, b, true),
                    AOp::Ge => self.at_most(b, a, false),
                    AOp::Gt => self.at_most(b, a, true),
                    _ => self.value(a)?.eq_set(self.value(b)?).isl(isl, STAGE),
                }
            }
            // C's truth of any other value: where it is not zero (a
            // constant the simplifier left, `if (1)`, included).
            _ => self
                .value(e)
                .map_err(|_| self.unsupported(&format!("the condition {:?}", e)))?
                .ne_set(self.constant(0)?)
                .isl(isl, STAGE),
        }
    }

    /// Where `a <= b` (`a < b` if `strict`).
    fn at_most(&self, a: &AExpr, b: &AExpr, strict: bool) -> Result<Set> {
        let isl = self.isl;
        let each = |xs: &[AExpr], all: bool, f: &dyn Fn(&AExpr) -> Result<Set>| -> Result<Set> {
            let mut acc: Option<Set> = None;
            for x in xs {
                let s = f(x)?;
                acc = Some(match acc {
                    None => s,
                    Some(a) if all => a.intersect(s).isl(isl, STAGE)?,
                    Some(a) => a.union(s).isl(isl, STAGE)?,
                });
            }
            acc.ok_or_else(|| self.unsupported("a minimum or maximum of nothing"))
        };
        match (a, b) {
            (_, AExpr::Op(AOp::Min, xs)) => each(xs, true, &|x| self.at_most(a, x, strict)),
            (AExpr::Op(AOp::Max, xs), _) => each(xs, true, &|x| self.at_most(x, b, strict)),
            (_, AExpr::Op(AOp::Max, xs)) => each(xs, false, &|x| self.at_most(a, x, strict)),
            (AExpr::Op(AOp::Min, xs), _) => each(xs, false, &|x| self.at_most(x, b, strict)),
            _ => {
                let (a, b) = (self.value(a)?, self.value(b)?);
                if strict {
                    a.lt_set(b).isl(isl, STAGE)
                } else {
                    a.le_set(b).isl(isl, STAGE)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scop::StmtId;

    const SRC: &str = "double A[100], B[100];\nvoid f(int n)\n{\n#pragma scop\n  for (int i = 0; i < n; i++) {\n    A[i] = i;\n    B[i] = A[i] + 1.0;\n  }\n#pragma endscop\n}\n";

    fn call(stmt: usize) -> Ast {
        Ast::User {
            stmt: StmtId(stmt),
            args: vec![AExpr::Id("c0".into())],
            promoted: vec![],
        }
    }

    /// `for (c0 = 0; c0 < n; c0 += step) body`
    fn loop_over(step: i64, body: Vec<Ast>) -> Ast {
        Ast::For {
            iter: "c0".into(),
            init: AExpr::Int(0),
            cond: AExpr::Op(AOp::Lt, vec![AExpr::Id("c0".into()), AExpr::Id("n".into())]),
            inc: AExpr::Int(step),
            body: Box::new(Ast::Block(body)),
        }
    }

    fn check(name: &str, ast: &Ast) -> Result<ReadBack> {
        let scop = crate::scop::test_support::scop_of(name, SRC);
        let isl = Isl::new(0);
        let deps = crate::deps::analyze(&isl, &scop).unwrap();
        check_sequential_code(&isl, &scop, &deps, ast)
    }

    fn message(r: Result<ReadBack>) -> String {
        r.expect_err("the check passed").message
    }

    #[test]
    fn code_in_the_programs_order_passes() {
        let ast = loop_over(1, vec![call(0), call(1)]);
        assert_eq!(check("rb-ok", &ast).unwrap(), ReadBack::Checked);
    }

    #[test]
    fn a_read_before_its_write_is_an_error() {
        let m = message(check("rb-order", &loop_over(1, vec![call(1), call(0)])));
        assert!(m.contains("contradicts its schedule"), "{}", m);
        assert!(m.contains("S_0[") && m.contains("S_1["), "{}", m);
    }

    #[test]
    fn missing_and_repeated_instances_are_errors() {
        let m = message(check("rb-missing", &loop_over(1, vec![call(0)])));
        assert!(m.contains("misses") && m.contains("S_1["), "{}", m);
        let m = message(check("rb-stride", &loop_over(2, vec![call(0), call(1)])));
        assert!(m.contains("misses"), "{}", m);
        let m = message(check(
            "rb-twice",
            &loop_over(1, vec![call(0), call(0), call(1)]),
        ));
        assert!(m.contains("more than once"), "{}", m);
    }

    #[test]
    fn guards_and_their_else_branches_are_read() {
        // `if (c0 < 5) S_0 else S_0` runs S_0 once per iteration.
        let guard = AExpr::Op(AOp::Lt, vec![AExpr::Id("c0".into()), AExpr::Int(5)]);
        let split = Ast::If {
            cond: guard,
            then_: Box::new(call(0)),
            else_: Some(Box::new(call(0))),
        };
        assert_eq!(
            check("rb-else", &loop_over(1, vec![split, call(1)])).unwrap(),
            ReadBack::Checked
        );
        // A guard that drops instances: `c0 <= min(n, 5)` is `c0 <= n and c0 <= 5`.
        let capped = Ast::If {
            cond: AExpr::Op(
                AOp::Le,
                vec![
                    AExpr::Id("c0".into()),
                    AExpr::Op(AOp::Min, vec![AExpr::Id("n".into()), AExpr::Int(5)]),
                ],
            ),
            then_: Box::new(call(1)),
            else_: None,
        };
        let m = message(check("rb-min", &loop_over(1, vec![call(0), capped])));
        assert!(m.contains("misses") && m.contains("S_1["), "{}", m);
    }

    /// A launch over `32 * b0 + t0 < n` on `grid` blocks of 32 threads,
    /// each thread running `order`.
    fn launch_of(order: &[usize], grid: AExpr) -> crate::ast::Launch {
        let calls = order.iter().map(|s| (*s, thread_index())).collect();
        launch_with(calls, grid)
    }

    /// `32 * b0 + t0`
    fn thread_index() -> AExpr {
        AExpr::Op(
            AOp::Add,
            vec![
                AExpr::Op(AOp::Mul, vec![AExpr::Int(32), AExpr::Id("b0".into())]),
                AExpr::Id("t0".into()),
            ],
        )
    }

    /// `launch_of` whose thread runs each statement of `calls` at its
    /// instance.
    fn launch_with(calls: Vec<(usize, AExpr)>, grid: AExpr) -> crate::ast::Launch {
        let index = thread_index();
        let calls = calls
            .into_iter()
            .map(|(s, at)| Ast::User {
                stmt: StmtId(s),
                args: vec![at],
                promoted: vec![],
            })
            .collect();
        let body = Ast::If {
            cond: AExpr::Op(AOp::Lt, vec![index.clone(), AExpr::Id("n".into())]),
            then_: Box::new(Ast::Block(calls)),
            else_: None,
        };
        let plan = crate::map::KernelPlan {
            id: 0,
            n_block: 1,
            block_sizes: vec![32],
            grid_cap: vec![32768],
            wavefront: false,
            wraps: vec![false],
            tile_index: vec![],
            tile_max: vec![],
            band_members: 1,
            parallel_members: 1,
            number: 0,
            tile_sizes: vec![32],
            memory: Default::default(),
        };
        crate::ast::Launch {
            index: 0,
            plan,
            grid: vec![grid],
            host_values: vec![],
            block_offsets: vec![],
            body,
            locals: vec![],
            updated_elements: vec![],
            plays_launches: false,
        }
    }

    /// A device version of `launches`, run by `host`.
    fn device(host: Ast, launches: Vec<crate::ast::Launch>) -> crate::ast::GpuAst {
        crate::ast::GpuAst {
            entry_check: None,
            host,
            launches,
            block_ids: vec!["b0".into()],
            thread_ids: vec!["t0".into()],
            live_out: vec![],
            instances: vec![],
            footprints: vec![],
            copy_in_when: Default::default(),
        }
    }

    /// One kernel over `32 * b0 + t0 < n`, whose thread runs `order`.
    fn kernel(order: &[usize]) -> crate::ast::GpuAst {
        device(
            Ast::Launch(0),
            vec![launch_of(order, AExpr::Id("n".into()))],
        )
    }

    fn check_kernel(name: &str, gpu: &crate::ast::GpuAst) -> Result<ReadBack> {
        let scop = crate::scop::test_support::scop_of(name, SRC);
        let isl = Isl::new(0);
        let deps = crate::deps::analyze(&isl, &scop).unwrap();
        check_kernels(&isl, &scop, &deps, gpu)
    }

    #[test]
    fn a_thread_that_reads_before_it_writes_is_an_error() {
        assert_eq!(
            check_kernel("rb-kernel-ok", &kernel(&[0, 1])).unwrap(),
            ReadBack::Checked
        );
        let m = message(check_kernel("rb-kernel-order", &kernel(&[1, 0])));
        assert!(m.contains("contradicts its schedule (kernel 0)"), "{}", m);
        let m = message(check_kernel("rb-kernel-twice", &kernel(&[0, 0, 1])));
        assert!(m.contains("more than once"), "{}", m);
    }

    fn check_device(name: &str, gpu: &crate::ast::GpuAst) -> Result<ReadBack> {
        let scop = crate::scop::test_support::scop_of(name, SRC);
        let isl = Isl::new(0);
        let deps = crate::deps::analyze(&isl, &scop).unwrap();
        check_launches(&isl, &scop, &deps, gpu)
    }

    /// `(n + 31) / 32` blocks: enough for `n` threads.
    fn blocks_for_n() -> AExpr {
        AExpr::Op(
            AOp::Div,
            vec![
                AExpr::Op(AOp::Add, vec![AExpr::Id("n".into()), AExpr::Int(31)]),
                AExpr::Int(32),
            ],
        )
    }

    #[test]
    fn launches_are_read_in_the_host_codes_order() {
        let two = |first: usize, second: usize| {
            device(
                Ast::Block(vec![Ast::Launch(0), Ast::Launch(1)]),
                vec![
                    launch_of(&[first], blocks_for_n()),
                    launch_of(&[second], blocks_for_n()),
                ],
            )
        };
        // The write of A[i] (S_0) in the first launch, its read (S_1) in
        // the second: in order. One launch running both per thread too.
        assert_eq!(
            check_device("rb-launch-ok", &two(0, 1)).unwrap(),
            ReadBack::Checked
        );
        assert_eq!(
            check_device("rb-launch-one", &kernel(&[0, 1])).unwrap(),
            ReadBack::Checked
        );
        let m = message(check_device("rb-launch-order", &two(1, 0)));
        assert!(
            m.contains("contradicts its schedule (the order of the launches)"),
            "{}",
            m
        );
        assert!(m.contains("S_0[") && m.contains("S_1["), "{}", m);
    }

    #[test]
    fn a_grid_too_small_or_a_launch_run_twice_is_an_error() {
        // `n / 32` blocks leave the last partial block's instances out.
        let short = AExpr::Op(AOp::Div, vec![AExpr::Id("n".into()), AExpr::Int(32)]);
        let m = message(check_device(
            "rb-launch-short",
            &device(Ast::Launch(0), vec![launch_of(&[0, 1], short)]),
        ));
        assert!(m.contains("misses"), "{}", m);
        let m = message(check_device(
            "rb-launch-twice",
            &device(
                Ast::Block(vec![Ast::Launch(0), Ast::Launch(0)]),
                vec![launch_of(&[0, 1], blocks_for_n())],
            ),
        ));
        assert!(m.contains("more than once"), "{}", m);
    }

    #[test]
    fn a_grid_is_read_from_its_first_tile() {
        // Block k runs tile `h9 + k`: from 0, every instance once; from
        // 1, the first tile's instances are missed (read from 0, the same
        // grid would run them all).
        let from = |first: i64, grid: AExpr| {
            let mut l = launch_of(&[0, 1], grid);
            l.host_values.push(("h9".into(), AExpr::Int(first)));
            l.block_offsets = vec![Some("h9".into())];
            device(Ast::Launch(0), vec![l])
        };
        assert_eq!(
            check_device("rb-launch-first", &from(0, blocks_for_n())).unwrap(),
            ReadBack::Checked
        );
        let m = message(check_device("rb-launch-first-1", &from(1, blocks_for_n())));
        assert!(m.contains("misses"), "{}", m);
    }

    #[test]
    fn a_dependence_between_blocks_of_one_launch_is_an_error() {
        // Each thread writes A[i] (S_0) at its index and reads A[n - 1 - i]
        // (S_1): the value another block writes, in the same launch.
        let reversed = AExpr::Op(
            AOp::Sub,
            vec![
                AExpr::Op(AOp::Sub, vec![AExpr::Id("n".into()), AExpr::Int(1)]),
                thread_index(),
            ],
        );
        let m = message(check_device(
            "rb-launch-blocks",
            &device(
                Ast::Launch(0),
                vec![launch_with(
                    vec![(0, thread_index()), (1, reversed)],
                    blocks_for_n(),
                )],
            ),
        ));
        assert!(
            m.contains("contradicts its schedule (launch 0)")
                && m.contains("different blocks of one launch"),
            "{}",
            m
        );
    }
}
