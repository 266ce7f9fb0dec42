//! One region through the stages: its model and dependences, the schedule
//! loaded or the fallback ladder, and what the file keeps of it (the saved
//! schedule, the compiled region).

use super::outputs::{estimate, faster_by, under_half};
use super::rung::{compile_rung, cpu_version, reduction_statements, RegionOutcome, RungCompile};
use super::saved::{read_schedules, saved_for, SavedSchedule, SAVED_NO_COPY, SAVED_REDUCTIONS};
use super::{at_region, debug_fault, progress, Emit, FileReport, HoistPolicy, Lap, Options};
use crate::back::Target;
use crate::clock::Deadline;
use crate::diag::{Code, Diagnostic, Result};
use crate::front::parse::Region;
use crate::isl::Isl;
use crate::ladder::Rung;
use crate::map::MapOptions;
use crate::{ast, deps, scop};

/// A region compiled down to its device version's AST.
pub(super) struct Compiled {
    pub scop: scop::Scop,
    pub deps: deps::DependenceGraph,
    pub ast: ast::GpuAst,
    pub cpu: Option<ast::Ast>,
    pub write_backs: Vec<ast::WriteBack>,
}

/// What the regions of a file share as they are compiled in turn.
pub(super) struct FileState {
    /// `--load-schedule`'s schedules, one per region scheduled.
    loaded: Option<Vec<SavedSchedule>>,
    /// `--save-schedule`'s text so far.
    pub saved: String,
    /// Regions that reached scheduling so far: the index of the next one
    /// among the loaded schedules.
    scheduled: usize,
    /// Kernels of the regions before (the next kernel's number).
    kernels_so_far: usize,
    /// The C target runs the threads of a block one after the other, so
    /// nothing may be shared between them.
    map_opts: MapOptions,
    pub compiled: Vec<Compiled>,
}

impl FileState {
    pub fn new(opts: &Options) -> Result<FileState> {
        let loaded = match &opts.load_schedule {
            Some(p) => Some(read_schedules(p)?),
            None => None,
        };
        let mut map_opts = opts.map.clone();
        if opts.target == Target::C {
            map_opts.mem.shared = false;
            map_opts.mem.private = false;
        }
        Ok(FileState {
            loaded,
            saved: String::new(),
            scheduled: 0,
            kernels_so_far: 0,
            map_opts,
            compiled: Vec::new(),
        })
    }
}

/// A region on its way: its model, its dependences, where it starts on the
/// ladder and by when it must be done, and what its schedule was made
/// with (the reductions applied, the private copies done without).
struct Work {
    scop: scop::Scop,
    deps: deps::DependenceGraph,
    first: Rung,
    deadline: Deadline,
    applied: Vec<String>,
    excluded: Vec<String>,
    /// The region's model without its searches rewritten, where they are
    /// and the GPU model may prefer it (`with_as_written`).
    as_written: Option<scop::Scop>,
    /// Private copies the GPU model priced out (`without_conditional_copies`):
    /// models derived from this one do without them too.
    kept_shared: Vec<String>,
}

/// Compiles region `no` of the file into `file`: a `Compiled` region, or
/// nothing where it keeps the user's code or `--emit` asks only for a dump.
pub(super) fn compile(
    isl: &Isl,
    no: usize,
    region: &Region,
    opts: &Options,
    file: &mut FileState,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<()> {
    let Some(mut w) = analyse(isl, no, region, opts, report, lap)? else {
        return Ok(());
    };
    let index = file.scheduled;
    file.scheduled += 1;
    let loaded = file.loaded.as_deref();
    let entry = loaded.and_then(|saved| saved_for(saved, &w.scop, index));
    let tree = match (loaded, entry) {
        (None, _) => None,
        (Some(_), Some(SavedSchedule { tree: Some(t), .. })) => Some(t),
        (Some(_), Some(SavedSchedule { tree: None, .. })) => {
            report.warnings.push(Diagnostic::warning(
                Code::Usage,
                Some(w.scop.loc.clone()),
                "--load-schedule: the file has no schedule for this region (it was kept on the host when the file was saved); pencilc schedules it",
            ));
            None
        }
        (Some(saved), None) => {
            return Err(Diagnostic::error(
                Code::Usage,
                Some(w.scop.loc.clone()),
                format!(
                "--load-schedule: the file has {} schedule(s) and none for this region, region {}",
                saved.len(),
                index + 1
            ),
            ))
        }
    };
    if let Some(entry) = entry.filter(|e| e.tree.is_some()) {
        as_loaded(isl, &mut w, entry, opts)?;
    }
    let outcome = climb_ladder(
        isl,
        no,
        &mut w,
        tree,
        (&file.map_opts, file.kernels_so_far),
        opts,
        report,
        lap,
    )?;
    progress(opts, &w.scop.loc, no, "done", None);
    record(isl, file, w, outcome, report)
}

/// The region's model and dependences; `None` where the region keeps the
/// user's code or `--emit` asks for no more than these.
fn analyse(
    isl: &Isl,
    no: usize,
    region: &Region,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Option<Work>> {
    // The region's time starts here: building its model, dependence
    // analysis and every rung of the ladder share it.
    let deadline = Deadline::after(
        opts.region_budgets
            .get(&no)
            .copied()
            .unwrap_or(opts.region_timeout)
            .min(opts.region_timeout),
    );
    let first = opts
        .start_rungs
        .get(&no)
        .copied()
        .unwrap_or(opts.first_rung)
        .max(opts.first_rung);
    if opts.start_rungs.get(&no) == Some(&Rung::Host) && opts.emit.is_none() {
        // The watchdog stopped this region before (its model or its
        // dependences did not end in time): it stays the user's code, and
        // nothing of it is analysed again.
        return Ok(None);
    }
    progress(opts, &region.loc, no, "scop", Some(&deadline));
    debug_fault(opts, "scop");
    let mut scop = scop::build_scop(region)?;
    // Saved and loaded schedules name the statements of the model they
    // were made for: the rewritten one, always, with either.
    let as_written = if scop.searches_rewritten
        && opts.target != Target::C
        && opts.gpu_model.is_some()
        && opts.save_schedule.is_none()
        && opts.load_schedule.is_none()
    {
        scop::build_scop_as_written(region).ok()
    } else {
        None
    };
    progress(opts, &region.loc, no, "done", None);
    report.warnings.extend(scop.warnings.iter().cloned());
    report.placements.extend(scop.notes.iter().cloned());
    // A region that stays the user's code anyway needs no device copies
    // (and no second warning).
    let device_needed = !(scop.host_only && opts.emit.is_none());
    // `region.called` holds the functions with a body only: a statement
    // call of one the file only declares needs the check too (external
    // inputs of 2026-12-06: `g(&b[i])` made a kernel that did not build).
    let mut statement_calls = std::collections::BTreeSet::new();
    crate::front::parse::called::statement_calls(&region.body, &mut statement_calls);
    if device_needed
        && opts.target != Target::C
        && (!region.called.is_empty()
            || !scop.assumed_pure.is_empty()
            || !statement_calls.is_empty())
    {
        let mut device = std::collections::BTreeSet::new();
        crate::front::names::for_each_identifier(&super::input::device_code_text(opts)?, |w, _| {
            device.insert(w.to_string());
        });
        // What the user's device code defines is not copied.
        scop.called.retain(|n, _| !device.contains(n));
        let missing = without_device_copy(region, &device, opts.target)
            .or_else(|| without_device_definition(&scop, &device, opts.target));
        if let Some(w) = missing {
            if opts.emit.is_none() {
                // A kernel could not call the function: the region keeps
                // the user's code, which can.
                report.warnings.push(w);
                return Ok(None);
            }
        }
    }
    lap(report, "scop");
    if opts.emit == Some(Emit::Scop) {
        report.dump.push_str(&scop.dump());
        return Ok(None);
    }
    if (first == Rung::Host || scop.host_only) && opts.emit.is_none() {
        // Nothing to analyse: the region stays the user's code.
        return Ok(None);
    }
    if scop.stmts.is_empty() && opts.emit.is_none() {
        // `#pragma scop` around nothing, or around `;` (pet's empty
        // regions): there is nothing to run elsewhere.
        // A region of loops that only count (`while (k > 0) k -= 3;`)
        // has statements, but none the model keeps apart from loop
        // control.
        let what = if region
            .body
            .iter()
            .all(|s| matches!(s, crate::front::syntax::Stmt::Decl { .. }))
        {
            "no statement to compile"
        } else {
            "no statement besides the control of its loops"
        };
        report.warnings.push(
            Diagnostic::warning(
                Code::UnsupportedStatement,
                Some(region.loc.clone()),
                format!(
                    "the region in `{}` has {}; it stays as it is",
                    region.function, what
                ),
            )
            .with_hint("put the loops to parallelise between `#pragma scop` and `#pragma endscop`"),
        );
        return Ok(None);
    }
    progress(opts, &scop.loc, no, "deps", Some(&deadline));
    debug_fault(opts, "deps");
    // `--emit` asks for dumps that need the dependences, which have no
    // fallback there: their analysis runs to its end (the watchdog still
    // bounds it), where a region's compilation stops it at its time.
    isl.set_deadline(opts.emit.is_none().then(|| deadline.clone()));
    let analyzed = deps::analyze(isl, &scop);
    isl.set_deadline(None);
    let deps = match analyzed {
        Ok(d) => d,
        Err(e) if opts.emit.is_none() && Rung::Full.may_fall_back(&e) => {
            // Without dependences nothing can be reordered: the region
            // stays the user's code.
            report.warnings.push(Rung::Host.fallback_warning(
                Rung::Full,
                &at_region(e, &scop),
                &scop,
            ));
            progress(opts, &scop.loc, no, "done", None);
            return Ok(None);
        }
        Err(e) => return Err(at_region(e, &scop)),
    };
    lap(report, "deps");
    if opts.emit == Some(Emit::Deps) {
        report.dump.push_str(&scop.heading());
        report.dump.push_str(&deps.dump());
        return Ok(None);
    }
    let (scop, deps) = with_host_prologue(isl, scop, deps, opts, report);
    Ok(Some(Work {
        scop,
        deps,
        first,
        deadline,
        applied: Vec::new(),
        excluded: Vec::new(),
        as_written,
        kept_shared: Vec::new(),
    }))
}

/// The region with its set-up statements run by the host
/// (`scop::prologue`) where the target has a device and that moves
/// nothing more between host and device; else the region as it was.
/// Saved and loaded schedules name every statement of the user's code:
/// none moves with either.
fn with_host_prologue(
    isl: &Isl,
    scop: scop::Scop,
    deps: deps::DependenceGraph,
    opts: &Options,
    report: &mut FileReport,
) -> (scop::Scop, deps::DependenceGraph) {
    if opts.target == Target::C || opts.load_schedule.is_some() || opts.save_schedule.is_some() {
        return (scop, deps);
    }
    // A copy to the device against the launch it saves, where the device
    // has a GPU cost model: the bytes a copy moves in the time a launch
    // takes beyond a copy's own (GB/s times microseconds: thousands of
    // bytes).
    let moves = scop::prologue::Moves {
        copy_bytes: opts.gpu_model.as_ref().map_or(0.0, |m| {
            (m.launch_us - m.copy_us).max(0.0) * m.transfer_gbs * 1e3
        }),
    };
    // Copies in that some sizes skip (`copy_in_where`) are not sure to
    // happen: a set-up statement moved to the host would make them happen.
    let copied: std::collections::BTreeSet<String> = deps
        .copy_in
        .iter()
        .filter(|a| !deps.copy_in_where.contains_key(*a))
        .cloned()
        .collect();
    let Ok(Some((peeled, notes))) = scop::prologue::peel(isl, &scop, &copied, moves) else {
        return (scop, deps);
    };
    // Dependences of what is left; where they cannot be had, the region
    // as it was, whose were.
    match deps::analyze(isl, &peeled) {
        Ok(d) => {
            report.placements.extend(notes);
            (peeled, d)
        }
        Err(_) => (scop, deps),
    }
}

/// What the loaded schedule was made for: its reductions and the private
/// copies it does without.
fn as_loaded(isl: &Isl, w: &mut Work, entry: &SavedSchedule, opts: &Options) -> Result<()> {
    if entry.reductions.is_empty() && entry.no_copies.is_empty() {
        return Ok(());
    }
    let chosen: Vec<scop::reductions::Candidate> =
        scop::reductions::candidates(&w.scop, opts.reductions)
            .map_err(|e| at_region(e, &w.scop))?
            .into_iter()
            .filter(|c| {
                c.stmts
                    .iter()
                    .any(|&s| entry.reductions.contains(&w.scop.stmts[s].name))
            })
            .collect();
    scop::reductions::apply(&mut w.scop, &chosen).map_err(|e| at_region(e, &w.scop))?;
    w.applied = reduction_statements(&w.scop, &chosen);
    w.excluded = entry.no_copies.clone();
    w.deps = deps::analyze_with(isl, &w.scop, &w.excluded).map_err(|e| at_region(e, &w.scop))?;
    Ok(())
}

/// The ladder: each rung a simpler choice than the last, tried when the
/// one before runs out of its isl budget or its time. `None`: no rung
/// compiled the region, which keeps the user's code.
#[allow(clippy::too_many_arguments)]
fn climb_ladder(
    isl: &Isl,
    no: usize,
    w: &mut Work,
    loaded: Option<&String>,
    (map_opts, kernels_so_far): (&MapOptions, usize),
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Option<RegionOutcome>> {
    let mut previous: Option<(Rung, Diagnostic)> = None;
    // Schedules of earlier rungs, by their options and the copies left
    // out of the dependences: a rung that differs only in its mapping
    // (no shared-memory tiles) takes the schedule the rung before made
    // (Pluto's ILP took 3-5 s of each of them, tests/programs/
    // degenerate_launch.c).
    let mut schedules: Vec<(
        crate::sched::SchedOptions,
        Vec<String>,
        crate::sched::Scheduled,
    )> = Vec::new();
    for rung in Rung::from(w.first, opts.target, &opts.map, &opts.sched) {
        if let Some((from, why)) = previous.take() {
            report
                .warnings
                .push(rung.fallback_warning(from, &why, &w.scop));
        }
        if rung == Rung::Host {
            break;
        }
        let deadline = rung.deadline(&w.deadline);
        progress(opts, &w.scop.loc, no, rung.name(), Some(&deadline));
        debug_fault(opts, rung.name());
        isl.set_deadline(Some(deadline));
        let mut options = rung.options(&opts.sched, map_opts);
        options.misorder_launches =
            opts.debug_fault.as_deref() == Some(&format!("misorder:{}", rung.name()));
        let loaded = loaded.filter(|_| rung <= Rung::NoPromotion);
        let scheduled = if loaded.is_none() && !options.original {
            match schedules
                .iter()
                .find(|(k, ex, _)| *k == options.sched && *ex == w.excluded)
            {
                Some((_, _, s)) => Some(Ok(s.clone())),
                None => {
                    let made = crate::sched::schedule(isl, &w.scop, &w.deps, &options.sched);
                    if let Ok(s) = &made {
                        schedules.push((options.sched.clone(), w.excluded.clone(), s.clone()));
                    }
                    Some(made)
                }
            }
        } else {
            None
        };
        // A schedule that failed is the rung's failure (compiling would
        // only schedule again).
        let (scheduled, failed) = match scheduled {
            Some(Err(e)) => (None, Some(e)),
            Some(Ok(s)) => (Some(s), None),
            None => (None, None),
        };
        // The schedule is this model's: the rung's compilation takes it,
        // the models derived from it below (reductions, splits) schedule
        // their own.
        let first = RungCompile {
            options: options.clone(),
            cpu: cpu_version(opts),
            loaded,
            scheduled,
            emit: opts.emit,
            kernels_so_far,
        };
        let rung_opts = RungCompile {
            scheduled: None,
            options,
            ..first
        };
        let mut before = report.clone();
        let mut tried = match failed {
            Some(e) => Err(e),
            None => compile_rung(
                isl,
                &w.scop,
                &mut w.deps,
                &mut w.excluded,
                &first,
                report,
                lap,
            ),
        };
        // What follows improves a compiled outcome and is optional: a step
        // that runs out of its isl budget, or of the rung's time (isl's
        // alarm, `isl::alarm`), leaves the outcome as it was, where the
        // whole rung failed before; out of time, the steps after it are
        // skipped.
        let mut steps = Optional::default();
        if let Ok(o) = &tried {
            if let Some(split) = steps.run(isl, || {
                with_splits(isl, w, o, &rung_opts, &before, opts, report, lap)
            })? {
                before.placements.extend(split.1);
                tried = Ok(split.0);
            }
        }
        let mut by_isl = false;
        for alt in [Alternative::Hoisted, Alternative::IslScheduler] {
            if let Ok(o) = &tried {
                if let Some(other) = steps.run(isl, || {
                    with_alternative(alt, isl, w, o, &rung_opts, &before, opts, report, lap)
                })? {
                    before.placements.push(other.1);
                    tried = Ok(other.0);
                    by_isl |= alt == Alternative::IslScheduler;
                    // `--hoist always` keeps what it asked for, which the
                    // GPU model may like less than isl's schedule.
                    if alt.policy(opts) == HoistPolicy::Always {
                        break;
                    }
                }
            }
        }
        if let Ok(o) = &tried {
            if let Some(other) = steps.run(isl, || {
                with_forwarding(isl, w, o, &rung_opts, &before, opts, report, lap)
            })? {
                before.placements.extend(other.1);
                tried = Ok(other.0);
            }
        }
        for (derive, policy) in [
            (with_expansion as Derive, opts.expand),
            (with_partials, opts.split_reductions),
        ] {
            // A region that isl's scheduler schedules (pencilc's found too
            // little parallelism) is not derived further unless asked:
            // the derived model would go to pencilc's scheduler, which
            // failed on the original already (nussinov's split maximum:
            // 30 s to schedule, then a launch per element).
            if by_isl && policy != HoistPolicy::Always {
                continue;
            }
            if let Ok(o) = &tried {
                if let Some(other) = steps.run(isl, || {
                    derive(isl, w, o, &rung_opts, &before, opts, report, lap)
                })? {
                    before.placements.extend(other.1);
                    tried = Ok(other.0);
                }
            }
        }
        if let (Ok(o), None) = (&tried, &opts.load_schedule) {
            if let Some(again) = steps.run(isl, || {
                with_reductions(isl, w, o, &rung_opts, &mut before, opts, report, lap)
            })? {
                tried = Ok(again);
            }
        }
        if let (Ok(o), None) = (&tried, &opts.load_schedule) {
            if let Some(other) = steps.run(isl, || {
                Ok(without_conditional_copies(
                    isl,
                    w,
                    o,
                    &rung_opts,
                    &mut before,
                    opts,
                    report,
                    lap,
                ))
            })? {
                tried = Ok(other);
            }
        }
        if let Ok(o) = &tried {
            if let Some(other) = steps.run(isl, || {
                Ok(with_as_written(
                    isl,
                    w,
                    o,
                    &rung_opts,
                    &mut before,
                    opts,
                    report,
                    lap,
                ))
            })? {
                tried = Ok(other);
            }
        }
        if let Ok(o) = &tried {
            if let Some(other) = steps.run(isl, || {
                with_global_tiles(isl, w, o, &rung_opts, &before, opts, report, lap)
            })? {
                tried = Ok(other);
            }
        }
        if steps.out_of_time && tried.is_ok() {
            report.placements.push(format!(
                "{}: the rung's time ran out while the GPU model compared other versions of the region (splits, schedules, reductions, tiles); the version compiled first is kept (raise --schedule-timeout to compare them all)",
                w.scop.heading().trim_end()
            ));
        }
        isl.set_deadline(None);
        match tried {
            Ok(o) => return Ok(Some(o)),
            Err(e) if rung.may_fall_back(&e) => previous = Some((rung, at_region(e, &w.scop))),
            Err(e) => return Err(at_region(e, &w.scop)),
        }
    }
    Ok(None)
}

/// The optional steps after a rung's compilation (`climb_ladder`).
#[derive(Default)]
struct Optional {
    /// The rung's time ran out in one of them.
    out_of_time: bool,
}

impl Optional {
    /// `step`'s improvement, or none where it ran out of its isl budget
    /// or of the rung's time, or where an earlier one ran out of time.
    fn run<T>(&mut self, isl: &Isl, step: impl FnOnce() -> Result<Option<T>>) -> Result<Option<T>> {
        if self.out_of_time || isl.time_left() == Some(std::time::Duration::ZERO) {
            self.out_of_time = true;
            return Ok(None);
        }
        match step() {
            Err(e) if e.code == crate::diag::Code::Budget => {
                self.out_of_time = isl.time_left() == Some(std::time::Duration::ZERO);
                Ok(None)
            }
            r => r,
        }
    }
}

/// A model derived from the region's (reductions applied, statements
/// split) through its own dependences and this rung: its dependences,
/// outcome and the private copies it did without; `None` where it does
/// not compile, which leaves the region as it was.
fn compile_derived(
    isl: &Isl,
    derived: &scop::Scop,
    kept_shared: &[String],
    rung_opts: &RungCompile,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Option<(deps::DependenceGraph, RegionOutcome, Vec<String>)> {
    let mut excluded = kept_shared.to_vec();
    let mut d = deps::analyze_with(isl, derived, &excluded).ok()?;
    let o = compile_rung(isl, derived, &mut d, &mut excluded, rung_opts, report, lap).ok()?;
    Some((d, o, excluded))
}

/// Index-set splitting (`scop::split`), where the GPU model estimates the
/// split region's device version at under half the whole one's: the
/// outcome with it (the region, its dependences and the report replaced)
/// and the notes for `-v`. Saved and loaded schedules name the
/// statements as the user's code has them: no split with either.
#[allow(clippy::too_many_arguments)]
fn with_splits(
    isl: &Isl,
    w: &mut Work,
    o: &RegionOutcome,
    rung_opts: &RungCompile,
    before: &FileReport,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Option<(RegionOutcome, Vec<String>)>> {
    if opts.load_schedule.is_some() || opts.save_schedule.is_some() || !w.excluded.is_empty() {
        return Ok(None);
    }
    let Some(ast) = &o.ast else {
        return Ok(None);
    };
    let Some(whole) = estimate(isl, &w.scop, &w.deps, ast, opts) else {
        return Ok(None);
    };
    let Some((split, notes)) =
        scop::split::split(isl, &w.scop).map_err(|e| at_region(e, &w.scop))?
    else {
        return Ok(None);
    };
    let mut again = before.clone();
    // A split that does not compile (an isl budget, a check) leaves the
    // whole statements, which did.
    let Some((d, o, none_excluded)) =
        compile_derived(isl, &split, &w.kept_shared, rung_opts, &mut again, lap)
    else {
        return Ok(None);
    };
    let Some(parts) = estimate_of(isl, &split, &d, &o, opts) else {
        return Ok(None);
    };
    if !under_half(&whole, &parts) {
        return Ok(None);
    }
    let notes: Vec<String> = notes
        .into_iter()
        .map(|n| {
            format!(
                "{} (GPU model: {:.3} ms against {:.3} ms whole)",
                n, parts.0.total_ms, whole.0.total_ms
            )
        })
        .collect();
    again.placements.extend(notes.iter().cloned());
    adopt(w, split, d, none_excluded, again, report);
    Ok(Some((o, notes)))
}

/// A step that derives another model of the region and keeps it where
/// the GPU model prefers it (`with_expansion`, `with_partials`).
type Derive = fn(
    &Isl,
    &mut Work,
    &RegionOutcome,
    &RungCompile,
    &FileReport,
    &Options,
    &mut FileReport,
    &mut Lap<'_>,
) -> Result<Option<(RegionOutcome, Vec<String>)>>;

/// Another schedule where pencilc's is bound by launches or by one
/// thread's chain of work (`mostly_serial`), kept where the GPU model
/// estimates its version at under `Alternative::margin` of the first's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Alternative {
    /// isl's scheduler (nussinov: pencilc's scheduler carries the outer
    /// dependences on `i` and `j` and finds only the `k` reduction
    /// parallel, 3.1M launches at LARGE; isl's wavefront `j - i` leaves
    /// `i` parallel, 2,499 launches).
    IslScheduler,
    /// pencilc's scheduler with a band's sequential row outside where
    /// that leaves more parallel rows inside (`SchedOptions::hoist`;
    /// trmm: `k` on the host around `(i, j)` parallel, where `j` alone
    /// left 1,200 threads).
    Hoisted,
}

impl Alternative {
    /// When the alternative replaces the region's schedule: isl's where
    /// the GPU model prefers it, the hoisted one as `--hoist` says.
    fn policy(self, opts: &Options) -> HoistPolicy {
        match self {
            Alternative::IslScheduler => HoistPolicy::Model,
            Alternative::Hoisted => opts.hoist,
        }
    }

    fn options(self, sched: &mut crate::sched::SchedOptions) {
        match self {
            Alternative::IslScheduler => sched.kind = crate::sched::SchedulerKind::Isl,
            Alternative::Hoisted => sched.hoist = true,
        }
    }

    /// The share of the first estimate the other must be under. A new
    /// scheduler's schedule differs throughout, and the model's error
    /// with it; a hoisted row changes one band.
    fn margin(self) -> f64 {
        match self {
            Alternative::IslScheduler => 0.5,
            Alternative::Hoisted => 0.75,
        }
    }

    /// The note where `--hoist always` took it without the model.
    fn forced_note(self, line: u32) -> String {
        format!(
            "line {}: a sequential loop runs outside the parallel ones it was inside (--hoist always)",
            line
        )
    }

    fn note(self, line: u32, theirs: f64, ours: f64) -> String {
        match self {
            Alternative::IslScheduler => format!(
                "line {}: the region is scheduled by isl's scheduler: pencilc's schedule is bound by launches or by one thread's work (GPU model: {:.3} ms against {:.3} ms)",
                line, theirs, ours
            ),
            Alternative::Hoisted => format!(
                "line {}: a sequential loop runs outside the parallel ones it was inside, on the host around kernels: one thread's chain of work bound the schedule (GPU model: {:.3} ms against {:.3} ms)",
                line, theirs, ours
            ),
        }
    }
}

/// The region compiled with `alt`'s schedule where the GPU model prefers
/// it (`Alternative`): the outcome with it and the note for `-v`.
#[allow(clippy::too_many_arguments)]
fn with_alternative(
    alt: Alternative,
    isl: &Isl,
    w: &mut Work,
    o: &RegionOutcome,
    rung_opts: &RungCompile,
    before: &FileReport,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Option<(RegionOutcome, String)>> {
    let policy = alt.policy(opts);
    if policy == HoistPolicy::Never
        || opts.load_schedule.is_some()
        || rung_opts.options.original
        || rung_opts.options.sched.kind != crate::sched::SchedulerKind::Pluto
    {
        return Ok(None);
    }
    let ours = estimate_of(isl, &w.scop, &w.deps, o, opts);
    if policy == HoistPolicy::Model && !ours.as_ref().is_some_and(|e| mostly_serial(&e.0)) {
        return Ok(None);
    }
    let mut options = rung_opts.options.clone();
    alt.options(&mut options.sched);
    // A hoisted schedule is mostly the same schedule: scheduling alone
    // (milliseconds) says whether mapping and code generation (seconds,
    // within the region's time) have anything new to compile.
    let mut scheduled = None;
    if alt == Alternative::Hoisted {
        let Ok(s) = crate::sched::schedule(isl, &w.scop, &w.deps, &options.sched) else {
            return Ok(None);
        };
        if s.by != "pluto" || s.schedule.tree == o.schedule {
            return Ok(None);
        }
        scheduled = Some(s);
    }
    let other_opts = RungCompile {
        options,
        cpu: rung_opts.cpu,
        loaded: None,
        scheduled,
        emit: rung_opts.emit,
        kernels_so_far: rung_opts.kernels_so_far,
    };
    let mut again = before.clone();
    let mut d = w.deps.clone();
    let mut excluded = w.excluded.clone();
    let Ok(other) = compile_rung(
        isl,
        &w.scop,
        &mut d,
        &mut excluded,
        &other_opts,
        &mut again,
        lap,
    ) else {
        return Ok(None);
    };
    if other.schedule == o.schedule {
        return Ok(None);
    }
    let theirs = estimate_of(isl, &w.scop, &d, &other, opts);
    let note = match (&ours, &theirs) {
        (Some(ours), Some(theirs)) if faster_by(ours, theirs, alt.margin()) => {
            alt.note(w.scop.begin_line, theirs.0.total_ms, ours.0.total_ms)
        }
        _ if policy == HoistPolicy::Always => alt.forced_note(w.scop.begin_line),
        _ => return Ok(None),
    };
    again.placements.push(note.clone());
    w.deps = d;
    w.excluded = excluded;
    *report = again;
    Ok(Some((other, note)))
}

/// Scalar forwarding (`scop::forward`) where the device version is bound
/// by launches or by one thread's chain of work and the GPU model
/// estimates the forwarded one at under half (ludcmp: `w`, shared by
/// every `(i, j)`, orders them all; kept in `A[i][j]`, the rows are lu's):
/// the outcome with it and the notes for `-v`. Saved schedules name the
/// model's accesses as the user's code has them: none with one.
#[allow(clippy::too_many_arguments)]
fn with_forwarding(
    isl: &Isl,
    w: &mut Work,
    o: &RegionOutcome,
    rung_opts: &RungCompile,
    before: &FileReport,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Option<(RegionOutcome, Vec<String>)>> {
    // `PENCILC_FORWARD=always` forwards wherever the model allows it, on
    // every target, and `never` nowhere: for testing the transformation
    // itself, which the GPU model chooses rarely on small programs.
    let forced = std::env::var("PENCILC_FORWARD").ok();
    let always = forced.as_deref() == Some("always");
    if forced.as_deref() == Some("never")
        || opts.load_schedule.is_some()
        || opts.save_schedule.is_some()
        || rung_opts.options.original
    {
        return Ok(None);
    }
    let ours = estimate_of(isl, &w.scop, &w.deps, o, opts);
    if !always && !ours.as_ref().is_some_and(|e| mostly_serial(&e.0)) {
        return Ok(None);
    }
    let Some(derived) = scop::forward::forward(isl, &w.scop).map_err(|e| at_region(e, &w.scop))?
    else {
        return Ok(None);
    };
    // Forwarding changes where values live, not what is computed: a
    // smaller margin than a new schedule's suffices.
    let forced = always.then_some("PENCILC_FORWARD=always");
    let gate = Gate {
        ours: ours.as_ref(),
        margin: FORWARDING_MARGIN,
        forced,
    };
    Ok(adopt_derived(
        isl, w, derived, gate, rung_opts, before, opts, report, lap,
    ))
}

/// When a derived model replaces the region's: where the GPU model
/// estimates it under `margin` of `ours`, or where an option forces it.
struct Gate<'a> {
    ours: Option<&'a (crate::profile::Estimate, usize)>,
    margin: f64,
    /// The option that asks for the model whatever the estimates.
    forced: Option<&'a str>,
}

/// A model derived from the region's (forwarded scalars, expanded
/// arrays, split accumulations; with its notes for `-v`), compiled at
/// this rung, adopted where `gate` lets it through: the outcome and the
/// notes, each saying why.
#[allow(clippy::too_many_arguments)]
fn adopt_derived(
    isl: &Isl,
    w: &mut Work,
    (derived, notes): (scop::Scop, Vec<String>),
    gate: Gate<'_>,
    rung_opts: &RungCompile,
    before: &FileReport,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Option<(RegionOutcome, Vec<String>)> {
    let mut again = before.clone();
    let (d, o, none_excluded) =
        compile_derived(isl, &derived, &w.kept_shared, rung_opts, &mut again, lap)?;
    let theirs = estimate_of(isl, &derived, &d, &o, opts);
    let why = match (gate.ours, &theirs) {
        (Some(ours), Some(theirs)) if faster_by(ours, theirs, gate.margin) => format!(
            "GPU model: {:.3} ms against {:.3} ms",
            theirs.0.total_ms, ours.0.total_ms
        ),
        _ => gate.forced?.to_string(),
    };
    let notes: Vec<String> = notes
        .into_iter()
        .map(|n| format!("{} ({})", n, why))
        .collect();
    again.placements.extend(notes.iter().cloned());
    adopt(w, derived, d, none_excluded, again, report);
    Some((o, notes))
}

/// Privatised arrays expanded (`scop::expand`: a copy per iteration in
/// device memory, where a copy per thread keeps the loops inside each
/// live range on one thread; doitgen's `sum`), where the GPU model
/// estimates the region at under `EXPANSION_MARGIN` of the original:
/// the outcome with them and the notes for `-v`. Saved schedules name
/// the model's statements as the user's code has them: none with one.
#[allow(clippy::too_many_arguments)]
fn with_expansion(
    isl: &Isl,
    w: &mut Work,
    o: &RegionOutcome,
    rung_opts: &RungCompile,
    before: &FileReport,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Option<(RegionOutcome, Vec<String>)>> {
    // `--expand-private always` expands wherever the model allows it, on
    // every target with a device: for testing the transformation, which
    // the GPU model takes rarely on small programs.
    let always = opts.expand == HoistPolicy::Always;
    let Some(ours) = chain_trial(isl, w, o, rung_opts, opts, opts.expand) else {
        return Ok(None);
    };
    // Every privatisable array: also those the first compilation did
    // without, because its schedule interleaved their live ranges
    // (`compile_rung`), and those too large for a copy per thread.
    let Ok(privatised) = deps::expansion_candidates(isl, &w.scop, &w.kept_shared) else {
        return Ok(None);
    };
    let cands: Vec<scop::expand::Candidate> = privatised
        .iter()
        .filter(|p| w.scop.array(&p.array).is_some_and(|a| !a.is_scalar()))
        .map(|p| scop::expand::Candidate {
            array: p.array.clone(),
            stmts: p.stmts.clone(),
            depth: p.depth,
            last_writers: p.last_writers.clone(),
        })
        .collect();
    if cands.is_empty() {
        return Ok(None);
    }
    let Some(derived) =
        scop::expand::expand(isl, &w.scop, &cands).map_err(|e| at_region(e, &w.scop))?
    else {
        return Ok(None);
    };
    let gate = Gate {
        ours: ours.as_ref(),
        margin: EXPANSION_MARGIN,
        forced: always.then_some("--expand-private always"),
    };
    Ok(adopt_derived(
        isl, w, derived, gate, rung_opts, before, opts, report, lap,
    ))
}

/// Accumulations with a parallel loop of their own split in partial
/// results (`scop::partials`: gramschmidt's `R[k][j] += Q[i][k] *
/// A[i][j]`, where each thread of `j` ran all of `i`), where the GPU
/// model estimates the region at under `PARTIALS_MARGIN` of the
/// original: the outcome with them and the notes for `-v`. Saved
/// schedules name the model's statements as the user's code has them:
/// none with one.
#[allow(clippy::too_many_arguments)]
fn with_partials(
    isl: &Isl,
    w: &mut Work,
    o: &RegionOutcome,
    rung_opts: &RungCompile,
    before: &FileReport,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Option<(RegionOutcome, Vec<String>)>> {
    // `--split-reductions always` splits wherever the model allows it,
    // on every target with a device: for testing the transformation.
    let always = opts.split_reductions == HoistPolicy::Always;
    let Some(ours) = chain_trial(isl, w, o, rung_opts, opts, opts.split_reductions) else {
        return Ok(None);
    };
    // Accumulations that are no reduction here: those left in kernels of
    // one thread become reductions later (`with_reductions`), a tree
    // rather than lanes. (nussinov's maximum, which a tree per element
    // does not pay for either, split: its wavefront was not found again
    // in the region's time, and 32 lanes per element left a launch per
    // element with `--split-reductions always`.)
    let cands: Vec<scop::reductions::Candidate> =
        scop::reductions::candidates(&w.scop, opts.reductions)
            .map_err(|e| at_region(e, &w.scop))?
            .into_iter()
            .filter(|c| !c.stmts.iter().any(|s| o.sequential.contains(s)))
            .collect();
    if cands.is_empty() {
        return Ok(None);
    }
    let Some(derived) =
        scop::partials::split(isl, &w.scop, &cands).map_err(|e| at_region(e, &w.scop))?
    else {
        return Ok(None);
    };
    let gate = Gate {
        ours: ours.as_ref(),
        margin: PARTIALS_MARGIN,
        forced: always.then_some("--split-reductions always"),
    };
    Ok(adopt_derived(
        isl, w, derived, gate, rung_opts, before, opts, report, lap,
    ))
}

/// Whether a model derived to shorten threads' chains of work (arrays
/// expanded, accumulations split) is worth compiling under `policy`, with
/// the region's estimate to compare it with; `None` where it is not. It
/// runs on targets with a device only, never with saved schedules (they
/// name the statements as the user's code has them), and, unless forced,
/// only where kernels bound by one thread's chain are a good part of the
/// estimate (doitgen at LARGE: 46%, copies the rest), not where launches
/// are (small sizes): a derived model costs a compilation, seconds at
/// LARGE.
fn chain_trial(
    isl: &Isl,
    w: &Work,
    o: &RegionOutcome,
    rung_opts: &RungCompile,
    opts: &Options,
    policy: HoistPolicy,
) -> Option<Option<(crate::profile::Estimate, usize)>> {
    if policy == HoistPolicy::Never
        || opts.target == Target::C
        || opts.load_schedule.is_some()
        || opts.save_schedule.is_some()
        || rung_opts.options.original
    {
        return None;
    }
    let ours = estimate_of(isl, &w.scop, &w.deps, o, opts);
    let chains = ours
        .as_ref()
        .is_some_and(|e| span_share(&e.0) >= EXPANSION_SERIAL_SHARE);
    (policy == HoistPolicy::Always || chains).then_some(ours)
}

/// The GPU model's estimate of a region with split accumulations must be
/// under this share of the original's (`with_partials`): the partials
/// take a launch more per execution of the loops around.
const PARTIALS_MARGIN: f64 = 0.75;

/// The GPU model's estimate of a region with expanded arrays must be
/// under this share of the original's (`with_expansion`): the copies
/// move to device memory, and the schedule changes.
const EXPANSION_MARGIN: f64 = 0.75;

/// The share of the region's estimate that kernels bound by a thread's
/// chain must have for `with_expansion` to try.
const EXPANSION_SERIAL_SHARE: f64 = 0.25;

/// The GPU model's estimate of a forwarded region must be under this
/// share of the original's (`with_forwarding`).
const FORWARDING_MARGIN: f64 = 0.75;

/// Whether at least half of an estimate is kernels bound by their
/// launches or by one thread's chain of work: what a schedule with more
/// parallelism could remove.
fn mostly_serial(e: &crate::profile::Estimate) -> bool {
    serial_share(e) >= 0.5
}

/// The share of an estimate that is kernels bound by their launches or
/// by one thread's chain of work.
fn serial_share(e: &crate::profile::Estimate) -> f64 {
    use crate::profile::estimate::Bound;
    share_of(e, |b| matches!(b, Bound::Launches | Bound::Span))
}

/// The share of an estimate that is kernels bound by one thread's chain
/// of work: what more threads could shorten (launches stay).
fn span_share(e: &crate::profile::Estimate) -> f64 {
    use crate::profile::estimate::Bound;
    share_of(e, |b| matches!(b, Bound::Span))
}

fn share_of(
    e: &crate::profile::Estimate,
    counts: impl Fn(&crate::profile::estimate::Bound) -> bool,
) -> f64 {
    let part: f64 = e
        .kernels
        .iter()
        .filter(|k| counts(&k.bound))
        .map(|k| k.ms)
        .sum();
    if e.total_ms > 0.0 {
        part / e.total_ms
    } else {
        0.0
    }
}

/// Accumulations left in kernels of one thread (or outside every OpenMP
/// loop) run as reductions, if the region then compiles at this rung:
/// the outcome with them, the region, its dependences and the report
/// (from `before` the rung) replaced.
#[allow(clippy::too_many_arguments)]
fn with_reductions(
    isl: &Isl,
    w: &mut Work,
    o: &RegionOutcome,
    rung_opts: &RungCompile,
    before: &mut FileReport,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Option<RegionOutcome>> {
    let chosen: Vec<scop::reductions::Candidate> =
        scop::reductions::candidates(&w.scop, opts.reductions)
            .map_err(|e| at_region(e, &w.scop))?
            .into_iter()
            .filter(|c| c.stmts.iter().any(|s| o.sequential.contains(s)))
            .collect();
    if chosen.is_empty() {
        return Ok(None);
    }
    let mut with = w.scop.clone();
    scop::reductions::apply(&mut with, &chosen).map_err(|e| at_region(e, &w.scop))?;
    let mut again = before.clone();
    let Some((d, with_o, none_excluded)) =
        compile_derived(isl, &with, &w.kept_shared, rung_opts, &mut again, lap)
    else {
        return Ok(None);
    };
    // Where the GPU model can price both, the reductions must pay: a
    // reduction per element of a sequential loop is a launch or two per
    // instance, which at small sizes costs more than the one thread did.
    if let (Some(ours), Some(theirs)) = (
        estimate_of(isl, &w.scop, &w.deps, o, opts),
        estimate_of(isl, &with, &d, &with_o, opts),
    ) {
        if !faster_by(&ours, &theirs, 1.0) {
            let note = format!(
                "line {}: no reductions: the GPU model estimates the region at {:.3} ms with them against {:.3} ms without",
                w.scop.begin_line, theirs.0.total_ms, ours.0.total_ms
            );
            note_in_both(report, before, note);
            return Ok(None);
        }
    }
    w.applied = reduction_statements(&with, &chosen);
    let notes: Vec<String> = with
        .notes
        .iter()
        .filter(|n| n.contains("a reduction"))
        .cloned()
        .collect();
    again.placements.extend(notes.iter().cloned());
    before.placements.extend(notes);
    adopt(w, with, d, none_excluded, again, report);
    Ok(Some(with_o))
}

/// The region without its private copies of variables written under
/// conditions on the data, and with the reductions that then pay, where
/// the GPU model prices it lower: a search per row with its own copy runs
/// the rows on threads, each thread through its whole row, which for a
/// few long rows costs more than the rows in order with each search a
/// parallel reduction (`deps::Privatised::conditional`). The outcome
/// with it, the region's dependences and the report replaced.
#[allow(clippy::too_many_arguments)]
fn without_conditional_copies(
    isl: &Isl,
    w: &mut Work,
    o: &RegionOutcome,
    rung_opts: &RungCompile,
    before: &mut FileReport,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Option<RegionOutcome> {
    let conditional: Vec<&deps::Privatised> =
        w.deps.privatised.iter().filter(|p| p.conditional).collect();
    if conditional.is_empty() {
        return None;
    }
    let names: Vec<String> = conditional.iter().map(|p| p.name.clone()).collect();
    // The user's variables: a search's own (`pencilc_last_0`) goes with them.
    let mut vars: Vec<String> = conditional
        .iter()
        .filter(|p| !crate::front::names::is_reserved(&p.array))
        .map(|p| format!("`{}`", p.array))
        .collect();
    vars.dedup();
    let ours = estimate_of(isl, &w.scop, &w.deps, o, opts)?;
    let mut excluded = w.excluded.clone();
    excluded.extend(names.iter().cloned());
    let mut trial = Work {
        scop: w.scop.clone(),
        deps: deps::analyze_with(isl, &w.scop, &excluded).ok()?,
        first: w.first,
        deadline: w.deadline.clone(),
        applied: w.applied.clone(),
        excluded,
        as_written: None,
        kept_shared: names.clone(),
    };
    let mut again = before.clone();
    let plain = compile_rung(
        isl,
        &trial.scop,
        &mut trial.deps,
        &mut trial.excluded,
        rung_opts,
        &mut again,
        lap,
    )
    .ok()?;
    let mut trial_before = before.clone();
    let other = match with_reductions(
        isl,
        &mut trial,
        &plain,
        rung_opts,
        &mut trial_before,
        opts,
        &mut again,
        lap,
    ) {
        Ok(Some(reduced)) => reduced,
        Ok(None) => plain,
        Err(_) => return None,
    };
    let theirs = estimate_of(isl, &trial.scop, &trial.deps, &other, opts)?;
    if !faster_by(&ours, &theirs, 1.0) {
        return None;
    }
    let what = if vars.is_empty() {
        "a search's variables".to_string()
    } else {
        vars.join(", ")
    };
    let note = format!(
        "line {}: no copy per thread of {}: the GPU model estimates the region at {:.3} ms without them against {:.3} ms with them",
        w.scop.begin_line,
        what,
        theirs.0.total_ms,
        ours.0.total_ms
    );
    note_in_both(&mut again, &mut trial_before, note);
    *before = trial_before;
    w.applied = trial.applied;
    w.kept_shared = trial.kept_shared;
    adopt(w, trial.scop, trial.deps, trial.excluded, again, report);
    Some(other)
}

/// Adds a `-v` note to the report a step leaves and to `before`, from
/// which the later steps start again, so that it stays.
fn note_in_both(report: &mut FileReport, before: &mut FileReport, note: String) {
    report.placements.push(note.clone());
    before.placements.push(note);
}

/// The region as written (no search or arg-max rewritten:
/// `scop::last_writes`) where the GPU model prices it below the rewritten
/// one with its reductions: a search in a short inner loop of a long
/// sequential one costs launches at every step where, as written, one
/// thread ran the whole nest. The outcome with it, the region, its
/// dependences and the report replaced.
#[allow(clippy::too_many_arguments)]
fn with_as_written(
    isl: &Isl,
    w: &mut Work,
    o: &RegionOutcome,
    rung_opts: &RungCompile,
    before: &mut FileReport,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Option<RegionOutcome> {
    let plain = w.as_written.take()?;
    let ours = estimate_of(isl, &w.scop, &w.deps, o, opts)?;
    let mut again = before.clone();
    let d = deps::analyze(isl, &plain).ok()?;
    let (plain, mut d) = with_host_prologue(isl, plain, d, opts, &mut again);
    let mut excluded = Vec::new();
    let other = compile_rung(
        isl,
        &plain,
        &mut d,
        &mut excluded,
        rung_opts,
        &mut again,
        lap,
    )
    .ok()?;
    let theirs = estimate_of(isl, &plain, &d, &other, opts)?;
    if !faster_by(&ours, &theirs, 1.0) {
        return None;
    }
    let note = format!(
        "line {}: searches as written: the GPU model estimates the region at {:.3} ms so against {:.3} ms with them rewritten",
        plain.begin_line, theirs.0.total_ms, ours.0.total_ms
    );
    note_in_both(&mut again, before, note);
    w.applied.clear();
    adopt(w, plain, d, excluded, again, report);
    Some(other)
}

/// A kernel keeps its shared tiles only where the GPU model prices it
/// lower with them: their copies into shared memory and the barriers
/// around them against the global accesses they replace (issue 30: a
/// mat-vec kernel's row tile, read once per element, costs each thread
/// 32 copies and two barriers per 32 products; adi's column sweep
/// stages its rows through tiles it reads once). The region is compiled
/// again with the same options and schedule and every kernel's groups
/// out of shared memory; the kernels whose estimate falls under
/// `GLOBAL_TILES_MARGIN` of their own keep that, the others their tiles
/// (a third compilation where some do and some do not), and the result
/// is kept where the whole region's estimate is lower. Only with a
/// device that has a `[gpu_model]`. `PENCILC_MODEL_TILES=never` keeps
/// every tile the placement rules make (to measure the choice on a GPU:
/// `scripts/gpu-measure.sh` step 6).
#[allow(clippy::too_many_arguments)]
fn with_global_tiles(
    isl: &Isl,
    w: &mut Work,
    o: &RegionOutcome,
    rung_opts: &RungCompile,
    before: &FileReport,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Option<RegionOutcome>> {
    if std::env::var("PENCILC_MODEL_TILES").as_deref() == Ok("never") {
        return Ok(None);
    }
    let Some(ast) = &o.ast else {
        return Ok(None);
    };
    let tiled: Vec<(usize, usize)> = ast
        .launches
        .iter()
        .enumerate()
        .filter(|(_, l)| l.locals.iter().any(|a| a.shared))
        .map(|(i, l)| (i, l.plan.number))
        .collect();
    if tiled.is_empty() || !o.options.map.mem.shared {
        return Ok(None);
    }
    let Some((ours, _)) = estimate_of(isl, &w.scop, &w.deps, o, opts) else {
        return Ok(None);
    };
    // Without its tiles a kernel's threads lose the copies and barriers
    // from their chains and read global memory instead: only a kernel
    // bound by its threads' chains can gain. One bound by memory keeps
    // at least its bytes (the tiles' reuse is what spares them), one by
    // arithmetic its operations; neither is worth another compilation.
    use crate::profile::estimate::Bound;
    if !tiled.iter().any(|&(i, _)| {
        ours.kernels
            .get(i)
            .is_some_and(|k| matches!(k.bound, Bound::Span | Bound::Throughput))
    }) {
        return Ok(None);
    }
    let compile = |global: &std::collections::BTreeSet<usize>,
                   report: &mut FileReport,
                   lap: &mut Lap<'_>|
     -> Option<(RegionOutcome, deps::DependenceGraph, Vec<String>)> {
        let mut options = o.options.clone();
        options
            .map
            .mem
            .global_kernels
            .extend(global.iter().copied());
        // A loaded schedule is the rung's, and alternatives are not
        // tried with one: `o` was compiled from it.
        let again_opts = RungCompile {
            options,
            cpu: rung_opts.cpu,
            loaded: rung_opts.loaded,
            scheduled: None,
            emit: rung_opts.emit,
            kernels_so_far: rung_opts.kernels_so_far,
        };
        let mut d = w.deps.clone();
        let mut excluded = w.excluded.clone();
        let other = compile_rung(
            isl,
            &w.scop,
            &mut d,
            &mut excluded,
            &again_opts,
            report,
            lap,
        )
        .ok()?;
        // The same kernels of the same schedule, or nothing to compare.
        let same = other.schedule == o.schedule
            && other.ast.as_ref().is_some_and(|a| {
                a.launches.len() == ast.launches.len()
                    && a.launches
                        .iter()
                        .zip(&ast.launches)
                        .all(|(x, y)| x.plan.number == y.plan.number)
            });
        same.then_some((other, d, excluded))
    };
    let all: std::collections::BTreeSet<usize> = tiled.iter().map(|&(_, n)| n).collect();
    let mut again = before.clone();
    let Some((mut other, mut d, mut excluded)) = compile(&all, &mut again, lap) else {
        return Ok(None);
    };
    let Some((mut theirs, _)) = estimate_of(isl, &w.scop, &d, &other, opts) else {
        return Ok(None);
    };
    let pays: Vec<(usize, usize)> = tiled
        .iter()
        .copied()
        .filter(
            |&(i, _)| match (ours.kernels.get(i), theirs.kernels.get(i)) {
                (Some(a), Some(b)) => b.ms < GLOBAL_TILES_MARGIN * a.ms,
                _ => false,
            },
        )
        .collect();
    if pays.is_empty() {
        return Ok(None);
    }
    let chosen: std::collections::BTreeSet<usize> = pays.iter().map(|&(_, n)| n).collect();
    if chosen != all {
        again = before.clone();
        let Some(third) = compile(&chosen, &mut again, lap) else {
            return Ok(None);
        };
        (other, d, excluded) = third;
        let Some((e, _)) = estimate_of(isl, &w.scop, &d, &other, opts) else {
            return Ok(None);
        };
        theirs = e;
    }
    if theirs.total_ms >= ours.total_ms {
        return Ok(None);
    }
    for &(i, n) in &pays {
        again.placements.push(format!(
            "line {}: kernel[{}]: groups in global memory, not shared tiles: the GPU model estimates the kernel at {:.3} ms without them against {:.3} ms with them",
            w.scop.begin_line, n, theirs.kernels[i].ms, ours.kernels[i].ms
        ));
    }
    w.deps = d;
    w.excluded = excluded;
    *report = again;
    Ok(Some(other))
}

/// A kernel's estimate without its shared tiles must be under this share
/// of its estimate with them (`with_global_tiles`): the model's error on
/// one kernel is larger than on a region.
const GLOBAL_TILES_MARGIN: f64 = 0.75;

/// The GPU model's estimate of an outcome's device version, where it has
/// one (`outputs::estimate`).
fn estimate_of(
    isl: &Isl,
    scop: &scop::Scop,
    deps: &deps::DependenceGraph,
    o: &RegionOutcome,
    opts: &Options,
) -> Option<(crate::profile::Estimate, usize)> {
    o.ast
        .as_ref()
        .and_then(|a| estimate(isl, scop, deps, a, opts))
}

/// A derived model becomes the region's: its dependences, the private
/// copies it did without, and the report of its compilation with it.
fn adopt(
    w: &mut Work,
    scop: scop::Scop,
    deps: deps::DependenceGraph,
    excluded: Vec<String>,
    again: FileReport,
    report: &mut FileReport,
) {
    w.scop = scop;
    w.deps = deps;
    w.excluded = excluded;
    *report = again;
}

/// What the file keeps of the region: its schedule in the saved file
/// (a region kept on the host keeps its heading there, so that a later
/// --load-schedule finds every other region's schedule in its place), and
/// the compiled region for the back end.
fn record(
    isl: &Isl,
    file: &mut FileState,
    w: Work,
    outcome: Option<RegionOutcome>,
    report: &mut FileReport,
) -> Result<()> {
    let Some(o) = outcome else {
        file.saved.push_str(&format!(
            "{}# kept on the host: no schedule\n",
            w.scop.heading()
        ));
        return Ok(());
    };
    file.kernels_so_far += o.kernels;
    file.saved.push_str(&w.scop.heading());
    if !w.applied.is_empty() {
        file.saved
            .push_str(&format!("{} {}\n", SAVED_REDUCTIONS, w.applied.join(" ")));
    }
    if !w.excluded.is_empty() {
        file.saved
            .push_str(&format!("{} {}\n", SAVED_NO_COPY, w.excluded.join(" ")));
    }
    file.saved.push_str(&format!("{}\n", o.schedule));
    report.dump.push_str(&o.dump);
    let Some(gpu_ast) = o.ast else {
        return Ok(());
    };
    let write_backs = ast::write_backs(isl, &w.scop, &w.deps).map_err(|e| at_region(e, &w.scop))?;
    file.compiled.push(Compiled {
        scop: w.scop,
        deps: w.deps,
        ast: gpu_ast,
        cpu: o.cpu,
        write_backs,
    });
    Ok(())
}

/// Why a kernel of `region` could not call a function the region calls
/// as a statement: the file defines it in a way no device copy can be
/// made of (`front::parse::called`), or only declares it, and the user's
/// device code (`--opencl-include-file`, `--cuda-include-file`) does not
/// define it either.
fn without_device_copy(
    region: &Region,
    device: &std::collections::BTreeSet<String>,
    target: Target,
) -> Option<Diagnostic> {
    use crate::front::parse::called::statement_calls;
    let mut names = std::collections::BTreeSet::new();
    statement_calls(&region.body, &mut names);
    if target == Target::OpenCl {
        // A device copy's array parameters are `__global`: OpenCL C has no
        // pointer that also reaches a kernel's own (private) variables.
        let bodies = std::iter::once((&region.body[..], true)).chain(
            region
                .called
                .values()
                .flatten()
                .map(|f| (&f.body[..], false)),
        );
        for (body, top) in bodies {
            if let Some((f, local)) = passes_local(body, &mut Vec::new(), top) {
                if !device.contains(&f) {
                    return Some(
                        Diagnostic::warning(
                            Code::UnsupportedStatement,
                            Some(region.loc.clone()),
                            format!(
                                "{}: the region passes `{}`, a variable of its own code, to `{}`, whose OpenCL copy takes `__global` memory; the region keeps the original code",
                                region.function, local, f
                            ),
                        )
                        .with_hint(format!(
                            "declare `{}` before `#pragma scop`, or define `{}` for the device with --opencl-include-file",
                            local, f
                        )),
                    );
                }
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    while let Some(name) = names.pop_first() {
        if !seen.insert(name.clone()) || device.contains(&name) {
            continue;
        }
        let why = match region.called.get(&name) {
            None => "this file declares it without a body".to_string(),
            Some(Err(why)) => why.clone(),
            Some(Ok(f)) => {
                names.extend(f.calls.iter().cloned());
                match f.expr_calls.iter().find(|c| !scop::is_pure_function(c)) {
                    Some(c) => format!("its body calls `{}` in an expression", c),
                    None => continue,
                }
            }
        };
        let include = match target {
            Target::Cuda => "--cuda-include-file",
            _ => "--opencl-include-file",
        };
        return Some(
            Diagnostic::warning(
                Code::UnsupportedStatement,
                Some(region.loc.clone()),
                format!(
                    "{}: the region calls `{}`, of which pencilc can make no device copy ({}); the region keeps the original code",
                    region.function, name, why
                ),
            )
            .with_hint(format!(
                "define `{}` for the device in a file given with {}, or make it a function without a return value whose body uses only its parameters and locals",
                name, include
            )),
        );
    }
    None
}

/// A function without a body that the region calls in an expression
/// (`Scop::assumed_pure`) and that the user's device code does not define:
/// no kernel can call it.
fn without_device_definition(
    scop: &scop::Scop,
    device: &std::collections::BTreeSet<String>,
    target: Target,
) -> Option<Diagnostic> {
    let name = scop.assumed_pure.iter().find(|f| !device.contains(*f))?;
    let include = match target {
        Target::Cuda => "--cuda-include-file",
        _ => "--opencl-include-file",
    };
    Some(
        Diagnostic::warning(
            Code::ImpureCall,
            Some(scop.loc.clone()),
            format!(
                "{}: the region calls `{}`, which has no body in this file, so kernels cannot call it; the region keeps the original code",
                scop.function, name
            ),
        )
        .with_hint(format!(
            "define `{}` for the device in a file given with {}, or compile with --target c",
            name, include
        )),
    )
}

/// A call statement of `body` that passes memory of a variable declared
/// in `body` (its address, the array, or a row of it): the callee and the
/// variable. `locals` are the names declared so far, with their ranks;
/// declarations at the region's top level (`top`) are not counted: they
/// are device buffers of their own, in `__global` memory.
fn passes_local(
    body: &[crate::front::syntax::Stmt],
    locals: &mut Vec<(String, usize)>,
    top: bool,
) -> Option<(String, String)> {
    use crate::front::syntax::{ExprKind, Stmt, UnOp};
    let outer = locals.len();
    let mut found = None;
    for s in body {
        found = match s {
            Stmt::Decl { var, .. } => {
                if !top {
                    locals.push((var.name.clone(), var.rank()));
                }
                None
            }
            Stmt::Call { name, args, .. } => args.iter().find_map(|a| {
                let address = matches!(a.kind, ExprKind::Unary(UnOp::AddrOf, _));
                let mut e = a;
                let mut subs = 0;
                while let ExprKind::Unary(UnOp::AddrOf, x) | ExprKind::Index(x, _) = &e.kind {
                    subs += usize::from(matches!(e.kind, ExprKind::Index(..)));
                    e = x;
                }
                let ExprKind::Ident(n) = &e.kind else {
                    return None;
                };
                let rank = locals.iter().rev().find(|(l, _)| l == n)?.1;
                (address || subs < rank).then(|| (name.clone(), n.clone()))
            }),
            Stmt::For { body, .. } | Stmt::While { body, .. } => passes_local(body, locals, false),
            Stmt::If { then_, else_, .. } => {
                passes_local(then_, locals, false).or_else(|| passes_local(else_, locals, false))
            }
            _ => None,
        };
        if found.is_some() {
            break;
        }
    }
    locals.truncate(outer);
    found
}
