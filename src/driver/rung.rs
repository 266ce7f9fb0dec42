//! One region at one rung of the fallback ladder: schedule, check, map
//! and build the ASTs of its device version and its CPU version.

use super::{Emit, FileReport, Options};
use crate::ast;
use crate::back::Target;
use crate::deps;
use crate::diag::{Code, Diagnostic, Result};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use crate::ladder::RungOptions;
use crate::map;
use crate::sched::{self, SchedulerKind};
use crate::scop;
use crate::valid;

/// What one region's compilation produced at the rung that succeeded.
pub(super) struct RegionOutcome {
    /// The schedule tree, for `--save-schedule`.
    pub schedule: String,
    /// `--emit schedule`'s text.
    pub dump: String,
    pub kernels: usize,
    /// None with `--emit`.
    pub ast: Option<ast::GpuAst>,
    /// The CPU version, where asked for (`cpu_version`).
    pub cpu: Option<ast::Ast>,
    /// Statements (indices) that run in no parallel loop: in kernels of
    /// one thread (device versions), outside every OpenMP loop (the
    /// OpenMP C target). Their accumulations are worth running as
    /// reductions.
    pub sequential: std::collections::BTreeSet<usize>,
    /// The options it was compiled with (the rung's, or an alternative's:
    /// isl's scheduler, a hoisted schedule), for a compilation of the same
    /// schedule with other memory choices (`region::with_global_tiles`).
    pub options: RungOptions,
}

/// Whether a region gets a CPU version (`map::cpu`), beside its device
/// version or alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CpuVersion {
    No,
    Also,
    Only,
}

pub(super) fn cpu_version(opts: &Options) -> CpuVersion {
    match (opts.target, opts.openmp) {
        (Target::C, true) => CpuVersion::Only,
        (Target::C, false) => CpuVersion::No,
        _ if opts.versioning => CpuVersion::Also,
        _ => CpuVersion::No,
    }
}

/// What one rung of a region compiles with.
pub(super) struct RungCompile<'a> {
    pub options: RungOptions,
    pub cpu: CpuVersion,
    pub loaded: Option<&'a String>,
    /// What the scheduler already made of these options and dependences
    /// (`region::with_alternative` schedules before it compiles): the
    /// first compilation takes it instead of scheduling again.
    pub scheduled: Option<sched::Scheduled>,
    pub emit: Option<Emit>,
    pub kernels_so_far: usize,
}

/// `compile_region` at one rung; where its schedule interleaves the values
/// of a private copy (`valid::check_private_copies`), again with the
/// dependences of that variable as it is (each round drops one copy, so
/// this ends). `deps` is the dependences the result was compiled with.
pub(super) fn compile_rung(
    isl: &Isl,
    scop: &scop::Scop,
    deps: &mut deps::DependenceGraph,
    excluded: &mut Vec<String>,
    r: &RungCompile,
    report: &mut FileReport,
    lap: &mut dyn FnMut(&mut FileReport, &'static str),
) -> Result<RegionOutcome> {
    let compile = |deps: &deps::DependenceGraph,
                   options: RungOptions,
                   scheduled: Option<sched::Scheduled>,
                   report: &mut FileReport,
                   lap: &mut dyn FnMut(&mut FileReport, &'static str)| {
        compile_region(
            isl,
            scop,
            deps,
            options,
            r.cpu,
            r.loaded,
            scheduled,
            r.emit,
            r.kernels_so_far,
            report,
            lap,
        )
    };
    let mut tried = compile(deps, r.options.clone(), r.scheduled.clone(), report, lap);
    // isl's scheduler keeps live ranges whole (conditional validity, the
    // way PPCG reorders them); pencilc's may interleave them. So before a
    // copy is given up, isl's scheduler gets its turn with every copy.
    let mut isl_tried =
        r.loaded.is_some() || r.options.original || r.options.sched.kind == SchedulerKind::Isl;
    while let Err(e) = &tried {
        let Some(name) = e
            .message
            .split_once(valid::PRIVATE_COPIES_INTERLEAVE)
            .and_then(|(_, rest)| rest.split('`').nth(1))
            .map(str::to_string)
        else {
            break;
        };
        if !isl_tried {
            isl_tried = true;
            let mut options = r.options.clone();
            options.sched.kind = SchedulerKind::Isl;
            tried = compile(deps, options, None, report, lap);
            if tried.is_ok() {
                report.placements.push(format!(
                    "{}: isl's scheduler keeps the live ranges of the private copies whole ({})",
                    scop.heading().trim_end(),
                    valid::PRIVATE_COPIES_INTERLEAVE
                ));
            }
            continue;
        }
        if excluded.contains(&name) {
            break;
        }
        report.placements.push(format!(
            "{}: no private copy `{}` ({})",
            scop.heading().trim_end(),
            name,
            valid::PRIVATE_COPIES_INTERLEAVE
        ));
        excluded.push(name);
        tried = deps::analyze_with(isl, scop, excluded).and_then(|d| {
            *deps = d;
            compile(deps, r.options.clone(), None, report, lap)
        });
    }
    tried
}

/// Schedules, checks, maps and generates the code of one region with the
/// options of one rung. The report gets what it says only on success (a
/// failed rung's notes would describe code that is not generated).
#[allow(clippy::too_many_arguments)]
fn compile_region(
    isl: &Isl,
    scop: &scop::Scop,
    deps: &deps::DependenceGraph,
    opts: RungOptions,
    cpu: CpuVersion,
    loaded: Option<&String>,
    scheduled: Option<sched::Scheduled>,
    emit: Option<Emit>,
    kernels_so_far: usize,
    report: &mut FileReport,
    lap: &mut dyn FnMut(&mut FileReport, &'static str),
) -> Result<RegionOutcome> {
    let compiled_with = opts.clone();
    let mut warnings = Vec::new();
    let mut scheduler = None;
    let mut solves = 0;
    let schedule = match loaded {
        Some(text) => sched::load(isl, scop, text).map_err(|why| {
            Diagnostic::error(
                Code::Usage,
                Some(scop.loc.clone()),
                format!("--load-schedule: {}", why),
            )
            .with_hint("save a schedule of this file with --save-schedule and edit it")
        })?,
        None if opts.original => sched::original_tree(isl, scop, deps)?,
        None => {
            let scheduled = match scheduled {
                Some(s) => s,
                None => sched::schedule(isl, scop, deps, &opts.sched)?,
            };
            if let Some(why) = &scheduled.fallback {
                warnings.push(
                    Diagnostic::warning(
                        Code::Budget,
                        Some(scop.loc.clone()),
                        format!("{}; this region uses the {} schedule", why, scheduled.by),
                    )
                    .with_hint(
                        "raise --schedule-timeout, try the other --scheduler, or split the region",
                    ),
                );
            }
            scheduler = Some(scheduled.by);
            solves = scheduled.ilp_solves;
            scheduled.schedule
        }
    };
    lap(report, "sched");
    isl.check_deadline("valid")?;
    // A schedule the user gave is the user's error, not pencilc's: no
    // fallback replaces it silently. Its `coincident` flags, which the
    // mappers trust, are checked too (red team of 2026-12-06: a false
    // one was an internal error of the host mapping, and isl's schedule
    // replaced the loaded one).
    let checked = valid::check_schedule(isl, deps, &schedule.tree).and_then(|()| match loaded {
        Some(_) => valid::check_coincident(isl, deps, &schedule.tree),
        None => Ok(()),
    });
    checked.map_err(|e| {
        if loaded.is_some() && matches!(e.code, Code::Internal | Code::Budget) {
            let why = match e.message.strip_prefix("internal error in stage `valid`: ") {
                Some(why) => format!("the loaded schedule is not legal: {}", why),
                None => e.message.clone(),
            };
            Diagnostic::error(
                Code::Usage,
                Some(scop.loc.clone()),
                format!("--load-schedule: {}", why),
            )
            .with_hint("the loaded schedule must respect every dependence, and mark `coincident` only members that carry none; see --emit deps")
        } else {
            e
        }
    })?;
    lap(report, "valid");
    if cpu == CpuVersion::Only {
        // Nothing runs on a device: no GPU mapping.
        let m = host_mapping(isl, scop, deps, &schedule, &opts.sched, opts.map.tile_size)?;
        let mut sequential: std::collections::BTreeSet<usize> = (0..scop.stmts.len()).collect();
        for p in map::cpu::parallel_iterations(isl, &m)? {
            for s in statements_of(isl, scop, &p.domain().isl(isl, "map-cpu")?)? {
                sequential.remove(&s);
            }
        }
        let mut dump = String::new();
        let (ast, cpu) = if emit == Some(Emit::Schedule) {
            dump.push_str(&scop.heading());
            dump.push_str(&format!("schedule: {}", schedule.dump()));
            dump.push_str(&format!(
                "cpu: {}\n",
                sched::pretty_tree(&m.tree.text(isl, "map-cpu")?)
            ));
            (None, None)
        } else {
            let (a, read_back) = ast::cpu::generate_cpu(isl, scop, deps, m)?;
            report.placements.push(read_back.note(scop));
            (Some(ast::frame(isl, scop)?), Some(a))
        };
        lap(report, "cpu");
        report.warnings.extend(warnings);
        report.schedulers.extend(scheduler.map(str::to_string));
        report.ilp_solves += solves;
        return Ok(RegionOutcome {
            schedule: schedule.tree,
            dump,
            kernels: 0,
            ast,
            cpu,
            sequential,
            options: compiled_with,
        });
    }
    // The host version needs nothing of the device mapping: it is made
    // on another thread, in a context of its own (isl contexts are not
    // shared between threads), while this one maps the device version.
    let want_cpu = cpu == CpuVersion::Also && emit != Some(Emit::Schedule);
    let (device, made) = std::thread::scope(|s| {
        let cpu_thread = want_cpu.then(|| {
            // The same time left, on the new thread's own clock.
            let (left, max_operations) = (isl.time_left(), isl.max_operations());
            let (schedule, sched_opts, tile_size) = (&schedule, &opts.sched, opts.map.tile_size);
            s.spawn(move || {
                let isl = Isl::new(max_operations);
                isl.set_deadline(left.map(crate::clock::Deadline::after));
                host_version(&isl, scop, deps, schedule, sched_opts, tile_size)
            })
        });
        let device = device_version(
            isl,
            scop,
            deps,
            &schedule,
            &opts,
            emit,
            kernels_so_far,
            report,
            lap,
        );
        let made = cpu_thread.map(|t| {
            t.join().unwrap_or_else(|_| {
                Err(Diagnostic::internal(
                    "map-cpu",
                    "the host version's thread panicked".to_string(),
                ))
            })
        });
        (device, made)
    });
    let DeviceVersion {
        kernels: mapped_kernels,
        sizes,
        placements,
        dump,
        mut ast,
        sequential,
    } = device?;
    if want_cpu {
        lap(report, "cpu");
    }
    let mut host_note = None;
    let cpu = match (&mut ast, made) {
        (Some(device), Some(made)) => match made {
            Ok((a, read_back, instances)) => {
                device.instances = instances;
                host_note = Some(read_back.note(scop));
                Some(a)
            }
            // The device version stands without it, unless the region is
            // to be compiled again without privatisation, or isl printed
            // the host version's code wrong: the device version's code
            // comes from the same schedule through the same generator,
            // and is not read back itself.
            Err(e)
                if matches!(e.code, Code::Budget | Code::Internal)
                    && !e.message.contains(valid::PRIVATE_COPIES_INTERLEAVE)
                    && !e.message.contains(ast::executed::CODE_CONTRADICTS) =>
            {
                warnings.push(
                    Diagnostic::warning(
                        Code::Budget,
                        Some(scop.loc.clone()),
                        format!(
                            "no host version of this region ({}); it runs its device version at every size",
                            e.message
                        ),
                    )
                    .with_hint("raise --schedule-timeout, or split the region"),
                );
                None
            }
            Err(e) => return Err(e),
        },
        _ => None,
    };
    report.warnings.extend(warnings);
    report.schedulers.extend(scheduler.map(str::to_string));
    report.ilp_solves += solves;
    report.sizes.extend(sizes);
    report.placements.extend(placements);
    report.placements.extend(host_note);
    Ok(RegionOutcome {
        schedule: schedule.tree,
        dump,
        kernels: mapped_kernels,
        ast,
        cpu,
        sequential,
        options: compiled_with,
    })
}

/// The names of the statements of `chosen` reductions.
pub(super) fn reduction_statements(
    scop: &scop::Scop,
    chosen: &[scop::reductions::Candidate],
) -> Vec<String> {
    chosen
        .iter()
        .flat_map(|c| c.stmts.iter().map(|&s| scop.stmts[s].name.clone()))
        .collect()
}

/// The statements (indices) with instances in `set`.
fn statements_of(
    isl: &Isl,
    scop: &scop::Scop,
    set: &isl_rs::UnionSet,
) -> Result<std::collections::BTreeSet<usize>> {
    let mut out = std::collections::BTreeSet::new();
    let list = set.get_set_list().isl(isl, "map")?;
    for i in 0..list.size().isl(isl, "map")? {
        let name = list
            .get_at(i)
            .isl(isl, "map")?
            .get_tuple_name()
            .isl(isl, "map")?
            .to_string();
        if let Some(k) = scop.stmts.iter().position(|st| st.name == name) {
            out.insert(k);
        }
    }
    Ok(out)
}

/// The device version of a region: its AST (none with `--emit schedule`,
/// which dumps the mapping instead), and what the report gets of it.
struct DeviceVersion {
    kernels: usize,
    /// `--dump-sizes` entries and memory placements, per kernel.
    sizes: Vec<String>,
    placements: Vec<String>,
    dump: String,
    ast: Option<ast::GpuAst>,
    /// Statements of kernels that run on one thread.
    sequential: std::collections::BTreeSet<usize>,
}

#[allow(clippy::too_many_arguments)]
fn device_version(
    isl: &Isl,
    scop: &scop::Scop,
    deps: &deps::DependenceGraph,
    schedule: &sched::Schedule,
    opts: &RungOptions,
    emit: Option<Emit>,
    kernels_so_far: usize,
    report: &mut FileReport,
    lap: &mut dyn FnMut(&mut FileReport, &'static str),
) -> Result<DeviceVersion> {
    isl.check_deadline("map")?;
    let (mapped, mapped_trees) =
        map::map_to_gpu(isl, scop, deps, schedule, &opts.map, kernels_so_far)?;
    valid::check_private_copies(
        isl,
        scop,
        deps,
        mapped_trees.device.get_map().isl(isl, "valid")?,
        valid::CopyOwners::Device {
            launches: &mapped_trees.launch_prefix,
        },
    )?;
    lap(report, "map");
    let mut sequential = std::collections::BTreeSet::new();
    for (k, plan) in mapped.kernels.iter().enumerate() {
        if !plan.block_sizes.is_empty() {
            continue;
        }
        if let Some(Some(l)) = mapped_trees.launch_prefix.get(k) {
            sequential.extend(statements_of(
                isl,
                scop,
                &l.copy().isl(isl, "map")?.domain().isl(isl, "map")?,
            )?);
        }
    }
    let mut sizes = Vec::new();
    let mut placements = Vec::new();
    for k in &mapped.kernels {
        sizes.extend(map::sizes::dump_entry(
            k.number,
            &k.tile_sizes,
            &k.block_sizes,
            &k.grid_cap,
        ));
        for g in &k.memory.groups {
            placements.push(format!("kernel[{}] {}: {}", k.number, g.array, g.reason));
        }
    }
    let mut dump = String::new();
    let ast = if emit == Some(Emit::Schedule) {
        dump.push_str(&scop.heading());
        dump.push_str(&format!("schedule: {}", schedule.dump()));
        dump.push_str(&format!("mapped: {}", mapped.dump()));
        None
    } else {
        isl.check_deadline("ast")?;
        let mut a = ast::generate(isl, scop, deps, &mapped, mapped_trees)?;
        if opts.misorder_launches {
            misorder_launches(&mut a.host);
        }
        let read_back = ast::executed::check_kernels(isl, scop, deps, &a)?;
        placements.push(read_back.kernel_note(scop));
        let read_back = ast::executed::check_launches(isl, scop, deps, &a)?;
        placements.push(read_back.launch_note(scop));
        // After the checks, which passed the launches as they were: a
        // loop run as one block runs the same launches in the same order
        // (`ast::one_block`).
        let fused = ast::one_block::one_block_loops(
            scop,
            deps,
            &mut a,
            opts.map.one_block_loops,
            opts.map.one_block_threads,
            opts.map.one_block_fallback,
        );
        if fused > 0 {
            placements.push(format!(
                "{} host loop(s) of small launches run as one block of {} threads where their launches are small (--one-block-loops)",
                fused, opts.map.one_block_threads
            ));
        }
        lap(report, "ast");
        Some(a)
    };
    Ok(DeviceVersion {
        kernels: mapped.kernels.len(),
        sizes,
        placements,
        dump,
        ast,
        sequential,
    })
}

/// `--debug-fault misorder:<rung>`: swaps the first two launches that
/// follow each other in one block of the host code.
fn misorder_launches(host: &mut ast::Ast) {
    let mut done = false;
    host.walk_mut(&mut |n| {
        if let ast::Ast::Block(items) = n {
            let at = items
                .windows(2)
                .position(|w| matches!(w, [ast::Ast::Launch(_), ast::Ast::Launch(_)]));
            if let (Some(k), false) = (at, done) {
                items.swap(k, k + 1);
                done = true;
            }
        }
    });
}

/// The host version of a region (`map::cpu`, `ast::cpu`) and the boxes
/// around its statements' instances that the run-time choice counts.
fn host_version(
    isl: &Isl,
    scop: &scop::Scop,
    deps: &deps::DependenceGraph,
    schedule: &sched::Schedule,
    sched_opts: &sched::SchedOptions,
    tile_size: i64,
) -> Result<(ast::Ast, ast::executed::ReadBack, Vec<ast::InstanceBox>)> {
    let m = host_mapping(isl, scop, deps, schedule, sched_opts, tile_size)?;
    let (a, read_back) = ast::cpu::generate_cpu(isl, scop, deps, m)?;
    Ok((a, read_back, ast::instance_boxes(isl, scop)?))
}

/// The CPU mapping of a region (tiles, parallel loops) from its schedule.
fn host_mapping(
    isl: &Isl,
    scop: &scop::Scop,
    deps: &deps::DependenceGraph,
    schedule: &sched::Schedule,
    sched_opts: &sched::SchedOptions,
    tile_size: i64,
) -> Result<map::cpu::CpuMapping> {
    isl.check_deadline("map-cpu")?;
    let cpu_schedule = schedule_for_cpu(isl, scop, deps, schedule, sched_opts)?;
    let m = map::cpu::map_to_cpu(isl, scop, deps, &cpu_schedule, tile_size)?;
    valid::check_private_copies(
        isl,
        scop,
        deps,
        m.tree.get_map().isl(isl, "valid")?,
        valid::CopyOwners::Host {
            parallel: map::cpu::parallel_iterations(isl, &m)?,
        },
    )?;
    Ok(m)
}

/// The schedule of a region's CPU version: the region's own, unless it
/// hoists sequential rows out of bands (`SchedOptions::hoist`: the CPU
/// version is scheduled without) or runs a band as a wavefront of tiles.
/// isl's code generation for such a wavefront in one piece takes minutes (the device version generates
/// each launch apart, with the tile indices as parameters); the CPU
/// version then runs the band's time loop on the host around parallel
/// loops, as the schedulers make it for a GPU.
fn schedule_for_cpu(
    isl: &Isl,
    scop: &scop::Scop,
    deps: &deps::DependenceGraph,
    schedule: &sched::Schedule,
    opts: &sched::SchedOptions,
) -> Result<sched::Schedule> {
    if !schedule.tree.contains(sched::pluto::WAVEFRONT_MARK) && !opts.hoist {
        return Ok(schedule.clone());
    }
    let mut opts = opts.clone();
    // Sequential rows hoisted out of a band serve a GPU's wide kernels; a
    // CPU's few threads want the band's parallel row outermost, one
    // parallel loop instead of one per step of the hoisted row.
    let mut s = if opts.hoist {
        opts.hoist = false;
        sched::schedule(isl, scop, deps, &opts)?.schedule
    } else {
        schedule.clone()
    };
    if s.tree.contains(sched::pluto::WAVEFRONT_MARK) {
        opts.wavefront = false;
        s = sched::schedule(isl, scop, deps, &opts)?.schedule;
    }
    if s.tree.contains(sched::pluto::WAVEFRONT_MARK) {
        // A band without any parallel row (seidel-2d) stays a wavefront
        // in pencilc's scheduler; isl's skews it into an outer sequential
        // loop around parallel ones.
        opts.kind = sched::SchedulerKind::Isl;
        s = sched::schedule(isl, scop, deps, &opts)?.schedule;
    }
    valid::check_schedule(isl, deps, &s.tree)?;
    Ok(s)
}
