//! The pipeline, top to bottom, for one input file. Each stage takes the
//! previous stage's output; nothing here decides anything itself.

use crate::ast;
use crate::back::{self, OutputPaths, RegionCode, Target};
use crate::depfile;
use crate::deps;
use crate::diag::{Code, Diagnostic, Loc, Result, WarningPolicy};
use crate::front::{self, CppOptions, SourceFile};
use crate::isl::{Isl, IslResultExt};
use crate::ladder::{Rung, RungOptions};
use crate::map::{self, MapOptions};
use crate::sched;
use crate::scop;
use crate::valid;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a compile worker announces the rung it starts on a region, so that
/// the process watching it knows what to demote if it has to stop it:
/// `<prefix> <region index> <rung name> <milliseconds allowed> <line> <column>`.
pub const PROGRESS_PREFIX: &str = "pencilc-progress:";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Scop,
    Deps,
    Schedule,
    /// Each region's GPU profile and estimate (`profile::text::records`).
    GpuModel,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub target: Target,
    /// `--openmp`: the C target prints each region's CPU version (tiled,
    /// OpenMP `parallel for` on parallel loops) instead of the mapped
    /// program's blocks and threads as loops.
    pub openmp: bool,
    /// OpenCL and CUDA programs choose, each time a region runs, between
    /// its device version, its host version and the original code
    /// (`back::choice`); `--no-versioning` turns it off (device always).
    pub versioning: bool,
    /// The cost model of that choice, and the device it describes.
    pub costs: crate::device::CostModel,
    pub device_name: String,
    /// The device's GPU model (`[gpu_model]`): where set, `-v` and `--emit
    /// gpu-model` report each region's GPU profile and estimate.
    pub gpu_model: Option<crate::device::GpuModel>,
    /// `--gpu-model-params`: parameter values for that report.
    pub gpu_model_params: Vec<(String, i64)>,
    /// The host output file (single input only).
    pub output: Option<PathBuf>,
    pub output_dir: Option<PathBuf>,
    pub cpp: CppOptions,
    pub emit: Option<Emit>,
    pub verbose: bool,
    pub map: MapOptions,
    pub max_operations: u64,
    /// Scheduler, fusion, budget (`sched.worker`: the pencilc executable
    /// that runs isl's scheduler, default this one).
    pub sched: sched::SchedOptions,
    /// Write each region's schedule tree here (`--save-schedule`).
    pub save_schedule: Option<PathBuf>,
    /// Use the schedule trees in this file instead of scheduling.
    pub load_schedule: Option<PathBuf>,
    /// The command line, for the header of generated files, without the
    /// inputs (`cmdline::recorded`): the file compiled is added to it.
    pub command: String,
    /// What warnings count for (`-w`, `-Werror`).
    pub warnings: WarningPolicy,
    /// `--device FILE`: the description file read (an input, for `-MD`).
    pub device_file: Option<PathBuf>,
    /// `--write-if-changed`: leave an output whose contents would not
    /// change untouched, so that its time stamp stays (Ninja's `restat`).
    pub write_if_changed: bool,
    /// Device code for the functions regions call (`--opencl-include-file`,
    /// `--cuda-include-file`).
    pub opencl_include: Vec<PathBuf>,
    pub cuda_include: Vec<PathBuf>,
    /// How long one region's compilation may take, all its rungs together
    /// (`--schedule-timeout`).
    pub region_timeout: Duration,
    /// Where every region starts on the ladder (`--ladder-start`).
    pub first_rung: Rung,
    /// Regions (by index in the file) to start lower on the ladder.
    pub start_rungs: BTreeMap<usize, Rung>,
    /// Regions (by index) with less than `region_timeout` left (the
    /// watchdog's restarts).
    pub region_budgets: BTreeMap<usize, Duration>,
    /// Announce each rung started on stderr (`PROGRESS_PREFIX`).
    pub progress: bool,
    /// `--debug-fault` (see `debug_fault`).
    pub debug_fault: Option<String>,
    /// Which accumulations become reductions (`--reductions`).
    pub reductions: scop::ReductionMode,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target: Target::OpenCl,
            openmp: false,
            versioning: true,
            costs: crate::device::Device::default_for_opencl().cost_model(),
            device_name: crate::device::Device::default_for_opencl().name,
            gpu_model: None,
            gpu_model_params: Vec::new(),
            output: None,
            output_dir: None,
            cpp: CppOptions::default(),
            emit: None,
            verbose: false,
            map: MapOptions::default(),
            max_operations: crate::isl::DEFAULT_MAX_OPERATIONS,
            sched: sched::SchedOptions::default(),
            save_schedule: None,
            load_schedule: None,
            command: String::new(),
            warnings: WarningPolicy::default(),
            device_file: None,
            write_if_changed: false,
            opencl_include: Vec::new(),
            cuda_include: Vec::new(),
            region_timeout: Duration::from_secs(sched::DEFAULT_TIMEOUT_SECS),
            first_rung: Rung::Full,
            start_rungs: BTreeMap::new(),
            region_budgets: BTreeMap::new(),
            progress: false,
            debug_fault: None,
            reductions: scop::ReductionMode::default(),
        }
    }
}

/// What compiling one file produced.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct FileReport {
    pub regions: usize,
    pub kernels: usize,
    /// Per kernel launch: the number of parallel dimensions mapped.
    pub parallel_dims: Vec<usize>,
    #[serde(with = "crate::path_serde::many")]
    pub written: Vec<PathBuf>,
    /// Every file read: the input, the headers the preprocessor entered,
    /// and pencilc's own inputs (for `-MD`).
    #[serde(default)]
    pub inputs: Vec<depfile::Input>,
    /// Text dumps requested with `--emit`.
    pub dump: String,
    pub warnings: Vec<Diagnostic>,
    /// Which scheduler produced each region's schedule.
    pub schedulers: Vec<String>,
    /// Integer programs pencilc's scheduler solved.
    pub ilp_solves: usize,
    /// Milliseconds per stage, for `-v`.
    pub timings: Vec<(String, f64)>,
    /// `--dump-sizes` entries (`kernel[0] -> tile[32, 32]`), in kernel order.
    pub sizes: Vec<String>,
    /// Where each array reference group went and why, for `-v`.
    pub placements: Vec<String>,
    /// Each region's GPU profile and estimate, for `-v`.
    #[serde(default)]
    pub gpu_model: Vec<String>,
}

impl FileReport {
    /// The files the compilation read (`inputs`), as paths.
    pub fn input_paths(&self) -> Vec<PathBuf> {
        self.inputs.iter().map(|i| i.path.clone()).collect()
    }
}

const PENCIL_HEADERS: &[(&str, &str)] = &[
    ("pencil.h", include_str!("../pencil-headers/pencil.h")),
    (
        "pencil_compat.h",
        include_str!("../pencil-headers/pencil_compat.h"),
    ),
    (
        "pencil_prototypes.h",
        include_str!("../pencil-headers/pencil_prototypes.h"),
    ),
];

/// Writes the embedded PENCIL headers once per version into a temporary
/// directory, so that `#include <pencil.h>` works without installation.
pub fn pencil_headers_dir() -> Option<PathBuf> {
    let dir = std::env::temp_dir().join(format!("pencilc-{}-headers", env!("CARGO_PKG_VERSION")));
    for (name, text) in PENCIL_HEADERS {
        let p = dir.join(name);
        if std::fs::read_to_string(&p).ok().as_deref() != Some(*text) {
            std::fs::create_dir_all(&dir).ok()?;
            // Write then rename, so concurrent runs never read a partial file.
            let tmp = dir.join(format!("{}.{}.tmp", name, std::process::id()));
            std::fs::write(&tmp, text).ok()?;
            std::fs::rename(&tmp, &p).ok()?;
        }
    }
    Some(dir)
}

/// The stack a thread that runs `compile_file` should have: every stage
/// after the parser recurses over the syntax (expressions, statements,
/// isl's parser), and `front::parse::MAX_NESTING` is what this holds. It
/// is reserved, not used: the pages a shallow program never touches cost
/// nothing.
pub const COMPILE_STACK_BYTES: usize = 1 << 30;

/// Compiles one file. Run it on a thread with `COMPILE_STACK_BYTES` of
/// stack (`main` does), or deeply nested input may overflow the stack.
pub fn compile_file(
    path: &Path,
    opts: &Options,
) -> std::result::Result<FileReport, Vec<Diagnostic>> {
    let (mut report, outputs) = compile(path, opts).map_err(|e| vec![e])?;
    // Under -Werror a warning fails the file before anything is written.
    report.warnings = opts.warnings.apply(std::mem::take(&mut report.warnings))?;
    // The CLI refused outputs over the files it was given before any
    // work; the headers the input includes are known only now (`X.c`
    // including its own `X_kernel.cl` would lose it), and nothing is
    // written over any of them either.
    let named = output_paths(path, opts).all(opts.target);
    let planned: Vec<(PathBuf, String)> = outputs
        .iter()
        .map(|(p, _)| {
            let what = named.iter().find(|(n, _)| n == p).map(|(_, w)| w.clone());
            (p.clone(), what.unwrap_or_else(|| "output".to_string()))
        })
        .collect();
    crate::files::check_outputs(&report.input_paths(), &planned).map_err(|e| vec![e])?;
    for (p, bytes) in outputs {
        let unchanged = opts.write_if_changed && std::fs::read(&p).is_ok_and(|old| old == bytes);
        if !unchanged {
            crate::files::write_atomic(&p, &bytes).map_err(|e| vec![e])?;
        }
        report.written.push(p);
    }
    Ok(report)
}

/// The files of one compilation, written by `compile_file` once the
/// warnings allow it.
type Outputs = Vec<(PathBuf, Vec<u8>)>;

fn compile(path: &Path, opts: &Options) -> Result<(FileReport, Outputs)> {
    let mut report = FileReport::default();
    let mut t = Instant::now();
    let mut lap = |report: &mut FileReport, stage: &'static str| {
        report
            .timings
            .push((stage.to_string(), t.elapsed().as_secs_f64() * 1e3));
        t = Instant::now();
    };
    let bytes = crate::files::read_limited(path, "input")?;
    let source = SourceFile::from_bytes(path, &bytes)?;
    let headers = pencil_headers_dir();
    let cc_check = front::cc_check::start(path, &opts.cpp, headers.as_deref());
    let pp = front::preprocess(path, &opts.cpp, headers.as_deref())?;
    report.inputs = files_read(path, &pp, headers.as_deref(), opts);
    lap(&mut report, "preprocess");
    // What is done once per file (the parse, the C compiler's check) has
    // the region's time, at least 5 s: a normal file parses and checks in
    // milliseconds, and a tiny --schedule-timeout asks only for fallbacks.
    let file_limit = opts.region_timeout.max(Duration::from_secs(5));
    // Generated names keep apart from every name of the file and of the
    // user's device code; the user's names keep off pencilc's prefixes.
    front::names::check_reserved(&pp, headers.as_deref())?;
    let names = std::sync::Arc::new(front::names::FileNames::collect(
        &pp,
        &device_code_text(opts)?,
    ));
    let parsed = front::parse_file_with(&pp, file_limit, names)?;
    let syntax_warned = parsed.warnings.iter().any(|w| w.code == Code::Syntax);
    report.warnings.extend(parsed.warnings);
    let mut regions = parsed.regions;
    for r in regions.iter_mut().filter(|r| r.inclusion.is_none()) {
        r.begin_line = source.directive_start(r.begin_line);
        r.end_line = source.directive_end(r.end_line);
    }
    lap(&mut report, "parse");
    if regions.is_empty() {
        report.warnings.push(
            Diagnostic::warning(
                Code::UnbalancedRegion,
                None,
                format!(
                    "{}: no `#pragma scop` region; the output is the input unchanged",
                    path.display()
                ),
            )
            .with_hint(
                "mark the loop nest to parallelize with `#pragma scop` and `#pragma endscop`",
            ),
        );
    }
    for r in &regions {
        for p in &r.ignored_pragmas {
            report.warnings.push(Diagnostic::warning(
                Code::UnsupportedStatement,
                Some(p.clone()),
                "pragma inside the region is ignored",
            ));
        }
    }
    let isl = Isl::new(opts.max_operations);
    let loaded = match &opts.load_schedule {
        Some(p) => Some(read_schedules(p)?),
        None => None,
    };
    let mut saved = String::new();
    let mut compiled_count = 0usize;
    let mut kernels_so_far = 0usize;
    // The C target runs the threads of a block one after the other, so
    // nothing may be shared between them.
    let mut map_opts = opts.map.clone();
    if opts.target == Target::C {
        map_opts.mem.shared = false;
        map_opts.mem.private = false;
    }
    let mut compiled = Vec::new();
    for (region_no, region) in regions.iter().enumerate() {
        // The region's time starts here: building its model, dependence
        // analysis and every rung of the ladder share it.
        let region_deadline = Instant::now()
            + opts
                .region_budgets
                .get(&region_no)
                .copied()
                .unwrap_or(opts.region_timeout)
                .min(opts.region_timeout);
        let first = opts
            .start_rungs
            .get(&region_no)
            .copied()
            .unwrap_or(opts.first_rung)
            .max(opts.first_rung);
        if opts.start_rungs.get(&region_no) == Some(&Rung::Host) && opts.emit.is_none() {
            // The watchdog stopped this region before (its model or its
            // dependences did not end in time): it stays the user's code,
            // and nothing of it is analysed again.
            continue;
        }
        progress(opts, &region.loc, region_no, "scop", region_deadline);
        debug_fault(opts, "scop");
        let mut scop = scop::build_scop(region)?;
        progress(opts, &region.loc, region_no, "done", Instant::now());
        report.warnings.extend(scop.warnings.iter().cloned());
        report.placements.extend(scop.notes.iter().cloned());
        lap(&mut report, "scop");
        if opts.emit == Some(Emit::Scop) {
            report.dump.push_str(&scop.dump());
            continue;
        }
        if (first == Rung::Host || scop.host_only) && opts.emit.is_none() {
            // Nothing to analyse: the region stays the user's code.
            continue;
        }
        progress(opts, &scop.loc, region_no, "deps", region_deadline);
        debug_fault(opts, "deps");
        isl.set_deadline(Some(region_deadline));
        let analyzed = deps::analyze(&isl, &scop);
        isl.set_deadline(None);
        let mut deps = match analyzed {
            Ok(d) => d,
            Err(e) if opts.emit.is_none() && Rung::Full.may_fall_back(&e) => {
                // Without dependences nothing can be reordered: the region
                // stays the user's code.
                report.warnings.push(Rung::Host.fallback_warning(
                    Rung::Full,
                    &at_region(e, &scop),
                    &scop,
                ));
                progress(opts, &scop.loc, region_no, "done", Instant::now());
                continue;
            }
            Err(e) => return Err(at_region(e, &scop)),
        };
        lap(&mut report, "deps");
        if opts.emit == Some(Emit::Deps) {
            report.dump.push_str(&scop.heading());
            report.dump.push_str(&deps.dump());
            continue;
        }
        let region_index = compiled_count;
        compiled_count += 1;
        let loaded_entry = match &loaded {
            Some(saved) => saved_for(saved, &scop, region_index),
            None => None,
        };
        let loaded_tree = match &loaded {
            Some(saved) => match saved_for(saved, &scop, region_index) {
                Some(SavedSchedule { tree: Some(t), .. }) => Some(t),
                Some(SavedSchedule { tree: None, .. }) => {
                    report.warnings.push(Diagnostic::warning(
                        Code::Usage,
                        Some(scop.loc.clone()),
                        "--load-schedule: the file has no schedule for this region (it was kept on the host when the file was saved); pencilc schedules it",
                    ));
                    None
                }
                None => {
                    return Err(Diagnostic::error(
                        Code::Usage,
                        Some(scop.loc.clone()),
                        format!(
                            "--load-schedule: the file has {} schedule(s) and none for this region, region {}",
                            saved.len(),
                            region_index + 1
                        ),
                    ))
                }
            },
            None => None,
        };
        // What the loaded schedule was made for: its reductions and the
        // private copies it does without.
        let mut applied: Vec<String> = Vec::new();
        let mut excluded: Vec<String> = Vec::new();
        if let Some(entry) = loaded_entry.filter(|e| e.tree.is_some()) {
            if !entry.reductions.is_empty() || !entry.no_copies.is_empty() {
                let chosen: Vec<scop::reductions::Candidate> =
                    scop::reductions::candidates(&scop, opts.reductions)
                        .map_err(|e| at_region(e, &scop))?
                        .into_iter()
                        .filter(|c| {
                            c.stmts
                                .iter()
                                .any(|&s| entry.reductions.contains(&scop.stmts[s].name))
                        })
                        .collect();
                scop::reductions::apply(&mut scop, &chosen).map_err(|e| at_region(e, &scop))?;
                applied = reduction_statements(&scop, &chosen);
                excluded = entry.no_copies.clone();
                deps =
                    deps::analyze_with(&isl, &scop, &excluded).map_err(|e| at_region(e, &scop))?;
            }
        }
        // The ladder: each rung a simpler choice than the last, tried when
        // the one before runs out of its isl budget or its time.
        let mut outcome = None;
        let mut previous: Option<(Rung, Diagnostic)> = None;
        for rung in Rung::from(first, opts) {
            if let Some((from, why)) = previous.take() {
                report
                    .warnings
                    .push(rung.fallback_warning(from, &why, &scop));
            }
            if rung == Rung::Host {
                break;
            }
            let deadline = rung.deadline(region_deadline);
            progress(opts, &scop.loc, region_no, rung.name(), deadline);
            debug_fault(opts, rung.name());
            isl.set_deadline(Some(deadline));
            let rung_opts = RungCompile {
                options: rung.options(opts, &map_opts),
                cpu: cpu_version(opts),
                loaded: loaded_tree.filter(|_| rung <= Rung::NoPromotion),
                emit: opts.emit,
                kernels_so_far,
            };
            let before = report.clone();
            let mut tried = compile_rung(
                &isl,
                &scop,
                &mut deps,
                &mut excluded,
                &rung_opts,
                &mut report,
                &mut lap,
            );
            // Accumulations left in kernels of one thread (or outside every
            // OpenMP loop) run as reductions, if the region then compiles.
            if let (Ok(o), None) = (&tried, &opts.load_schedule) {
                let chosen: Vec<scop::reductions::Candidate> =
                    scop::reductions::candidates(&scop, opts.reductions)
                        .map_err(|e| at_region(e, &scop))?
                        .into_iter()
                        .filter(|c| c.stmts.iter().any(|s| o.sequential.contains(s)))
                        .collect();
                if !chosen.is_empty() {
                    let mut with = scop.clone();
                    scop::reductions::apply(&mut with, &chosen).map_err(|e| at_region(e, &scop))?;
                    let mut again = before.clone();
                    let mut none_excluded = Vec::new();
                    let redone = deps::analyze(&isl, &with).and_then(|mut d| {
                        compile_rung(
                            &isl,
                            &with,
                            &mut d,
                            &mut none_excluded,
                            &rung_opts,
                            &mut again,
                            &mut lap,
                        )
                        .map(|o| (d, o))
                    });
                    if let Ok((d, o)) = redone {
                        applied = reduction_statements(&with, &chosen);
                        excluded = none_excluded;
                        again.placements.extend(
                            with.notes
                                .iter()
                                .filter(|n| n.contains("a reduction"))
                                .cloned(),
                        );
                        scop = with;
                        deps = d;
                        report = again;
                        tried = Ok(o);
                    }
                }
            }
            isl.set_deadline(None);
            match tried {
                Ok(o) => {
                    outcome = Some(o);
                    break;
                }
                Err(e) if rung.may_fall_back(&e) => previous = Some((rung, at_region(e, &scop))),
                Err(e) => return Err(at_region(e, &scop)),
            }
        }
        progress(opts, &scop.loc, region_no, "done", Instant::now());
        let Some(o) = outcome else {
            // The region keeps the user's code, on the host. Its heading
            // stays in the saved file, so that a later --load-schedule
            // finds every other region's schedule in its place.
            saved.push_str(&format!(
                "{}# kept on the host: no schedule\n",
                scop.heading()
            ));
            continue;
        };
        kernels_so_far += o.kernels;
        saved.push_str(&scop.heading());
        if !applied.is_empty() {
            saved.push_str(&format!("{} {}\n", SAVED_REDUCTIONS, applied.join(" ")));
        }
        if !excluded.is_empty() {
            saved.push_str(&format!("{} {}\n", SAVED_NO_COPY, excluded.join(" ")));
        }
        saved.push_str(&format!("{}\n", o.schedule));
        report.dump.push_str(&o.dump);
        let Some(gpu_ast) = o.ast else {
            continue;
        };
        let write_backs = ast::write_backs(&isl, &scop, &deps).map_err(|e| at_region(e, &scop))?;
        compiled.push(Compiled {
            scop,
            deps,
            ast: gpu_ast,
            cpu: o.cpu,
            write_backs,
        });
    }
    report.regions = regions.len();
    // The C compiler's verdict comes after pencilc's own, more specific
    // diagnostics, and before anything is written.
    if let Some(check) = cc_check {
        // Functions inlined into a region are translated with it.
        let ranges: Vec<(u32, u32)> = regions
            .iter()
            .filter(|r| r.inclusion.is_none())
            .flat_map(|r| {
                let inlined = r
                    .inlined
                    .iter()
                    .filter(|(at, _)| at.file == r.loc.file)
                    .map(|(at, end)| (at.line, *end));
                std::iter::once((r.begin_line, r.end_line)).chain(inlined)
            })
            .collect();
        match check.finish(&ranges, file_limit)? {
            front::cc_check::Verdict::Checked(outside) => {
                if !syntax_warned {
                    report.warnings.extend(outside);
                }
            }
            front::cc_check::Verdict::Unchecked(why) => {
                report.warnings.push(why);
                compiled.clear();
            }
        }
    }
    if let Some(model) = &opts.gpu_model {
        if opts.target != Target::C && (opts.verbose || opts.emit == Some(Emit::GpuModel)) {
            let mut first_kernel = 0;
            for c in &compiled {
                let p =
                    gpu_profile(&isl, c, first_kernel, opts).map_err(|e| at_region(e, &c.scop))?;
                first_kernel += c.ast.launches.len();
                let e = crate::profile::estimate(&p, model);
                if opts.emit == Some(Emit::GpuModel) {
                    report
                        .dump
                        .push_str(&crate::profile::text::records(&p, Some(&e)));
                }
                report.gpu_model.extend(crate::profile::text::verbose_lines(
                    &p,
                    &e,
                    &opts.device_name,
                ));
            }
            if let Some(w) = unused_params(&compiled, &opts.gpu_model_params) {
                report.warnings.push(w);
            }
        }
    }
    let mut outputs: Outputs = Vec::new();
    if let Some(p) = &opts.save_schedule {
        outputs.push((p.clone(), saved.into_bytes()));
    }
    if opts.emit.is_some() {
        return Ok((report, outputs));
    }
    let codes: Vec<RegionCode> = compiled
        .iter()
        .map(|c| RegionCode {
            scop: &c.scop,
            deps: &c.deps,
            ast: &c.ast,
            cpu: c.cpu.as_ref(),
            write_backs: &c.write_backs,
        })
        .collect();
    for c in &compiled {
        report.kernels += c.ast.launches.len();
        report
            .parallel_dims
            .extend(c.ast.launches.iter().map(|l| l.plan.block_sizes.len()));
    }
    let paths = output_paths(path, opts);
    let device_code = device_includes(opts, &paths)?;
    let command = format!(
        "{}{} {}",
        opts.command,
        if path.to_string_lossy().starts_with('-') {
            " --"
        } else {
            ""
        },
        crate::cmdline::shell_word(&path.to_string_lossy())
    );
    // Headers with regions are pasted into the output (`back::emit`).
    let mut header_texts = std::collections::BTreeMap::new();
    for c in &compiled {
        if let Some(inc) = &c.scop.inclusion {
            if !header_texts.contains_key(&inc.header) {
                let bytes = crate::files::read_limited(&inc.header, "header")?;
                header_texts.insert(
                    inc.header.clone(),
                    SourceFile::from_bytes(&inc.header, &bytes)?,
                );
            }
        }
    }
    let emitted = back::emit(
        &source,
        &header_texts,
        &codes,
        opts.target,
        &paths,
        command.trim_start(),
        &device_code,
        opts.openmp,
        opts.versioning
            .then(|| back::Versioning {
                costs: opts.costs,
                device: opts.device_name.clone(),
            })
            .as_ref(),
    )?;
    lap(&mut report, "back");
    report.placements.extend(emitted.notes);
    report.warnings.extend(emitted.warnings);
    for f in emitted.files {
        let bytes = source.encode(&f.contents);
        outputs.push((f.path, bytes));
    }
    Ok((report, outputs))
}

/// A region compiled down to its device version's AST.
struct Compiled {
    scop: scop::Scop,
    deps: deps::DependenceGraph,
    ast: ast::GpuAst,
    cpu: Option<ast::Ast>,
    write_backs: Vec<ast::WriteBack>,
}

/// The GPU profile of a compiled region's device version, at the values
/// `--gpu-model-params` gives or the context bounds.
fn gpu_profile(
    isl: &Isl,
    c: &Compiled,
    first_kernel: usize,
    opts: &Options,
) -> Result<crate::profile::RegionProfile> {
    let params = crate::profile::params::values(isl, &c.scop, &opts.gpu_model_params)?;
    let private: Vec<(String, Vec<usize>)> = c
        .deps
        .privatised
        .iter()
        .map(|p| (p.array.clone(), p.stmts.clone()))
        .collect();
    let live_in = crate::profile::live_in_arrays(isl, &c.deps.live_in)?;
    let input = crate::profile::Inputs {
        scop: &c.scop,
        ast: &c.ast,
        copy_in: &c.deps.copy_in,
        copy_out: &c.deps.copy_out,
        live_in: &live_in,
        private: &private,
        first_kernel,
    };
    Ok(crate::profile::profile_region(
        &input,
        &params,
        crate::profile::Sampling::default(),
    ))
}

/// A warning for `--gpu-model-params` names that are no parameter of any
/// region compiled (a misspelling would otherwise go unnoticed).
fn unused_params(compiled: &[Compiled], given: &[(String, i64)]) -> Option<Diagnostic> {
    let unused: Vec<&str> = given
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| {
            !compiled
                .iter()
                .any(|c| c.scop.params.contains(&crate::front::affine::isl_name(n)))
        })
        .collect();
    (!unused.is_empty() && !compiled.is_empty()).then(|| {
        Diagnostic::warning(
            Code::Usage,
            None,
            format!(
                "--gpu-model-params: {} is no parameter of a region of this file",
                unused.join(", ")
            ),
        )
    })
}

/// What the compilation of `path` reads, for its dependency file: the
/// file, the headers the preprocessor entered (not pencilc's own PENCIL
/// headers, which are part of pencilc and live in a temporary folder),
/// the schedules loaded, the device description and the device code of
/// the target.
fn files_read(
    path: &Path,
    pp: &front::Preprocessed,
    pencil_headers: Option<&Path>,
    opts: &Options,
) -> Vec<depfile::Input> {
    let user = |p: &PathBuf| depfile::Input {
        path: p.clone(),
        system: false,
    };
    let mut read = vec![user(&path.to_path_buf())];
    read.extend(
        pp.included
            .iter()
            .filter(|f| pencil_headers.is_none_or(|h| !f.path.starts_with(h)))
            .map(|f| depfile::Input {
                path: f.path.clone(),
                system: f.system,
            }),
    );
    read.extend(opts.load_schedule.iter().map(user));
    read.extend(opts.device_file.iter().map(user));
    match opts.target {
        Target::OpenCl => read.extend(opts.opencl_include.iter().map(user)),
        Target::Cuda => read.extend(opts.cuda_include.iter().map(user)),
        Target::C => {}
    }
    read
}

/// Tells a watching process (`watchdog`) what the region starts and by
/// when it must be done.
fn progress(opts: &Options, at: &Loc, region: usize, what: &str, deadline: Instant) {
    if opts.progress {
        eprintln!(
            "{} {} {} {} {} {}",
            PROGRESS_PREFIX,
            region,
            what,
            deadline
                .saturating_duration_since(Instant::now())
                .as_millis(),
            at.line,
            at.col
        );
    }
}

/// For the watchdog's tests (`--debug-fault`): `stall:<stage>` makes
/// `stage` (`deps` or a rung's name) never return, as isl sometimes does,
/// and `crash:<stage>` makes it abort.
fn debug_fault(opts: &Options, stage: &str) {
    match opts.debug_fault.as_deref().and_then(|v| v.split_once(':')) {
        Some(("stall", s)) if s == stage => loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        },
        Some(("crash", s)) if s == stage => std::process::abort(),
        _ => {}
    }
}

/// What one region's compilation produced at the rung that succeeded.
struct RegionOutcome {
    /// The schedule tree, for `--save-schedule`.
    schedule: String,
    /// `--emit schedule`'s text.
    dump: String,
    kernels: usize,
    /// None with `--emit`.
    ast: Option<ast::GpuAst>,
    /// The CPU version, where asked for (`cpu_version`).
    cpu: Option<ast::Ast>,
    /// Statements (indices) that run in no parallel loop: in kernels of
    /// one thread (device versions), outside every OpenMP loop (the
    /// OpenMP C target). Their accumulations are worth running as
    /// reductions.
    sequential: std::collections::BTreeSet<usize>,
}

/// Whether a region gets a CPU version (`map::cpu`), beside its device
/// version or alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CpuVersion {
    No,
    Also,
    Only,
}

fn cpu_version(opts: &Options) -> CpuVersion {
    match (opts.target, opts.openmp) {
        (Target::C, true) => CpuVersion::Only,
        (Target::C, false) => CpuVersion::No,
        _ if opts.versioning => CpuVersion::Also,
        _ => CpuVersion::No,
    }
}

/// What one rung of a region compiles with.
struct RungCompile<'a> {
    options: RungOptions,
    cpu: CpuVersion,
    loaded: Option<&'a String>,
    emit: Option<Emit>,
    kernels_so_far: usize,
}

/// `compile_region` at one rung; where its schedule interleaves the values
/// of a private copy (`valid::check_private_copies`), again with the
/// dependences of that variable as it is (each round drops one copy, so
/// this ends). `deps` is the dependences the result was compiled with.
fn compile_rung(
    isl: &Isl,
    scop: &scop::Scop,
    deps: &mut deps::DependenceGraph,
    excluded: &mut Vec<String>,
    r: &RungCompile,
    report: &mut FileReport,
    lap: &mut dyn FnMut(&mut FileReport, &'static str),
) -> Result<RegionOutcome> {
    let compile = |deps: &deps::DependenceGraph,
                   report: &mut FileReport,
                   lap: &mut dyn FnMut(&mut FileReport, &'static str)| {
        compile_region(
            isl,
            scop,
            deps,
            r.options.clone(),
            r.cpu,
            r.loaded,
            r.emit,
            r.kernels_so_far,
            report,
            lap,
        )
    };
    let mut tried = compile(deps, report, lap);
    while let Err(e) = &tried {
        let Some(name) = e
            .message
            .split_once(valid::PRIVATE_COPIES_INTERLEAVE)
            .and_then(|(_, rest)| rest.split('`').nth(1))
            .map(str::to_string)
        else {
            break;
        };
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
            compile(deps, report, lap)
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
    emit: Option<Emit>,
    kernels_so_far: usize,
    report: &mut FileReport,
    lap: &mut dyn FnMut(&mut FileReport, &'static str),
) -> Result<RegionOutcome> {
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
            let scheduled = sched::schedule(isl, scop, deps, &opts.sched)?;
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
    valid::check_schedule(isl, deps, &schedule.tree).map_err(|e| {
        // A schedule the user gave is the user's error, not pencilc's: no
        // fallback replaces it silently.
        if loaded.is_some() && e.code == Code::Internal {
            Diagnostic::error(
                Code::Usage,
                Some(scop.loc.clone()),
                format!("--load-schedule: {}", e.message),
            )
            .with_hint("the loaded schedule must respect every dependence; see --emit deps")
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
                sched::pretty_tree(m.tree.to_str().isl(isl, "map-cpu")?)
            ));
            (None, None)
        } else {
            let a = ast::cpu::generate_cpu(isl, scop, m)?;
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
        });
    }
    // The host version needs nothing of the device mapping: it is made
    // on another thread, in a context of its own (isl contexts are not
    // shared between threads), while this one maps the device version.
    let want_cpu = cpu == CpuVersion::Also && emit != Some(Emit::Schedule);
    let (device, made) = std::thread::scope(|s| {
        let cpu_thread = want_cpu.then(|| {
            let (deadline, max_operations) = (isl.deadline(), isl.max_operations());
            let (schedule, sched_opts, tile_size) = (&schedule, &opts.sched, opts.map.tile_size);
            s.spawn(move || {
                let isl = Isl::new(max_operations);
                isl.set_deadline(deadline);
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
    let cpu = match (&mut ast, made) {
        (Some(device), Some(made)) => match made {
            Ok((a, instances)) => {
                device.instances = instances;
                Some(a)
            }
            // The device version stands without it, unless the region is
            // to be compiled again without privatisation.
            Err(e)
                if matches!(e.code, Code::Budget | Code::Internal)
                    && !e.message.contains(valid::PRIVATE_COPIES_INTERLEAVE) =>
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
    Ok(RegionOutcome {
        schedule: schedule.tree,
        dump,
        kernels: mapped_kernels,
        ast,
        cpu,
        sequential,
    })
}

/// The names of the statements of `chosen` reductions.
fn reduction_statements(scop: &scop::Scop, chosen: &[scop::reductions::Candidate]) -> Vec<String> {
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
        let a = ast::generate(isl, scop, &mapped, mapped_trees)?;
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

/// The host version of a region (`map::cpu`, `ast::cpu`) and the boxes
/// around its statements' instances that the run-time choice counts.
fn host_version(
    isl: &Isl,
    scop: &scop::Scop,
    deps: &deps::DependenceGraph,
    schedule: &sched::Schedule,
    sched_opts: &sched::SchedOptions,
    tile_size: i64,
) -> Result<(ast::Ast, Vec<ast::InstanceBox>)> {
    let m = host_mapping(isl, scop, deps, schedule, sched_opts, tile_size)?;
    let a = ast::cpu::generate_cpu(isl, scop, m)?;
    Ok((a, ast::instance_boxes(isl, scop)?))
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
/// runs a band as a wavefront of tiles. isl's code generation for such a
/// wavefront in one piece takes minutes (the device version generates
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
    if !schedule.tree.contains(sched::pluto::WAVEFRONT_MARK) {
        return Ok(schedule.clone());
    }
    let mut opts = opts.clone();
    opts.wavefront = false;
    let mut s = sched::schedule(isl, scop, deps, &opts)?.schedule;
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

/// The trees of a `--save-schedule` file: one per region, each after a
/// `# region` comment line (a file with one bare tree also works).
fn read_schedules(p: &Path) -> Result<Vec<SavedSchedule>> {
    let text = crate::files::read_text(p, "--load-schedule file")?;
    Ok(parse_schedules(&text))
}

/// One region's part of a `--save-schedule` file.
#[derive(Debug, PartialEq)]
struct SavedSchedule {
    /// The region's `Scop::heading` line, without its newline; none in a
    /// file written by hand.
    heading: Option<String>,
    /// None for a region that was kept on the host when the file was saved.
    tree: Option<String>,
    /// The statements whose accumulations the schedule runs as reductions
    /// (`# pencilc: reductions S_3 S_5`), and the private copies it does
    /// without (`# pencilc: no private copy NAME`): the dependences the
    /// schedule was made for.
    reductions: Vec<String>,
    no_copies: Vec<String>,
}

/// The comment lines of a saved schedule that say what it was made for.
const SAVED_REDUCTIONS: &str = "# pencilc: reductions";
const SAVED_NO_COPY: &str = "# pencilc: no private copy";

/// Splits a schedule file into its regions: a heading line starts one; in
/// a file without headings, any comment line ends a schedule tree.
fn parse_schedules(text: &str) -> Vec<SavedSchedule> {
    let mut out = Vec::new();
    let mut heading: Option<String> = None;
    let mut tree = String::new();
    let mut reductions: Vec<String> = Vec::new();
    let mut no_copies: Vec<String> = Vec::new();
    let mut flush = |heading: &mut Option<String>,
                     tree: &mut String,
                     reductions: &mut Vec<String>,
                     no_copies: &mut Vec<String>| {
        if heading.is_some() || !tree.trim().is_empty() {
            out.push(SavedSchedule {
                heading: heading.take(),
                tree: (!tree.trim().is_empty()).then(|| std::mem::take(tree)),
                reductions: std::mem::take(reductions),
                no_copies: std::mem::take(no_copies),
            });
        }
        tree.clear();
    };
    for line in text.lines() {
        if line.starts_with(scop::Scop::HEADING_PREFIX) {
            flush(&mut heading, &mut tree, &mut reductions, &mut no_copies);
            heading = Some(line.trim_end().to_string());
        } else if let Some(rest) = line.strip_prefix(SAVED_REDUCTIONS) {
            reductions.extend(rest.split_whitespace().map(str::to_string));
        } else if let Some(rest) = line.strip_prefix(SAVED_NO_COPY) {
            no_copies.extend(rest.split_whitespace().map(str::to_string));
        } else if line.starts_with('#') {
            if !tree.trim().is_empty() {
                flush(&mut heading, &mut tree, &mut reductions, &mut no_copies);
            }
        } else {
            tree.push_str(line);
            tree.push('\n');
        }
    }
    flush(&mut heading, &mut tree, &mut reductions, &mut no_copies);
    out
}

/// The saved schedule of a region: the one under its heading, else the
/// one in its place (files written by hand have no headings).
fn saved_for<'a>(
    saved: &'a [SavedSchedule],
    scop: &scop::Scop,
    index: usize,
) -> Option<&'a SavedSchedule> {
    let heading = scop.heading();
    let heading = heading.trim_end();
    saved
        .iter()
        .find(|s| s.heading.as_deref() == Some(heading))
        .or_else(|| saved.get(index))
}

/// The text of the user's device code for the target
/// (`--opencl-include-file`, `--cuda-include-file`), for its names.
fn device_code_text(opts: &Options) -> Result<String> {
    let mut out = String::new();
    match opts.target {
        back::Target::OpenCl => {
            for p in &opts.opencl_include {
                out.push_str(&crate::files::read_text(p, "--opencl-include-file")?);
                out.push('\n');
            }
        }
        back::Target::Cuda => {
            for p in &opts.cuda_include {
                let bytes = crate::files::read_limited(p, "--cuda-include-file")?;
                out.push_str(&String::from_utf8_lossy(&bytes));
                out.push('\n');
            }
        }
        back::Target::C => {}
    }
    Ok(out)
}

/// What the generated kernels get from the user: the OpenCL files' text
/// (the kernel source is embedded in the host program), `#include` lines
/// for CUDA. A CUDA file named by a relative path is included by its path
/// relative to the kernel file (where nvcc looks first), so that the
/// output names no folder of this machine the user did not name.
fn device_includes(opts: &Options, paths: &OutputPaths) -> Result<String> {
    let mut out = String::new();
    match opts.target {
        back::Target::OpenCl => {
            for p in &opts.opencl_include {
                let text = crate::files::read_text(p, "--opencl-include-file")?;
                out.push_str(&format!(
                    "/* from {} */\n{}\n",
                    back::comment_text(&p.display().to_string()),
                    text
                ));
            }
        }
        back::Target::Cuda => {
            let kernel = paths.kernel("cu");
            let kernel_dir = kernel.parent().unwrap_or(Path::new(""));
            for p in &opts.cuda_include {
                crate::files::read_limited(p, "--cuda-include-file")?;
                let named = if p.is_absolute() {
                    p.clone()
                } else {
                    crate::files::relative_path(kernel_dir, p).ok_or_else(|| {
                        Diagnostic::error(
                            Code::Usage,
                            None,
                            format!(
                                "--cuda-include-file {}: cannot name it from the folder of {}",
                                p.display(),
                                kernel.display()
                            ),
                        )
                        .with_hint("name the file by its absolute path")
                    })?
                };
                out.push_str(&format!(
                    "#include \"{}\"\n",
                    back::c_string(&named.display().to_string())
                ));
            }
        }
        back::Target::C => {}
    }
    Ok(out)
}

/// Every file a run with `opts` over `inputs` would write, with what it
/// is (for `files::check_outputs`).
pub fn planned_outputs(inputs: &[PathBuf], opts: &Options) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    if opts.emit.is_none() {
        for i in inputs {
            out.extend(
                output_paths(i, opts)
                    .all(opts.target)
                    .into_iter()
                    .map(|(p, what)| (p, format!("{} for {}", what, i.display()))),
            );
        }
    }
    if let Some(p) = &opts.save_schedule {
        out.push((p.clone(), "--save-schedule file".into()));
    }
    out
}

/// Budget and internal errors from isl carry no location; point them at the region.
fn at_region(mut e: Diagnostic, scop: &scop::Scop) -> Diagnostic {
    if e.loc.is_none() {
        e.loc = Some(scop.loc.clone());
        e.message = format!("{} (region in `{}`)", e.message, scop.function);
    }
    e
}

pub fn output_paths(input: &Path, opts: &Options) -> OutputPaths {
    match &opts.output {
        Some(o) => OutputPaths { host: o.clone() },
        None => {
            // The current folder as an empty path, so that names read
            // `foo_host.c`, not `./foo_host.c` (a different name to Make).
            let dir = opts.output_dir.clone().unwrap_or_default();
            OutputPaths::default_for(input, &dir, opts.target)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_files_split_at_headings_and_keep_host_regions() {
        let text = "# region in `f` at lines 3-9\n{ a }\n# region in `g` at lines 12-20\n# kept on the host: no schedule\n# region in `h` at lines 22-30\n{ b }\n{ c }\n";
        let s = parse_schedules(text);
        assert_eq!(s.len(), 3);
        assert_eq!(
            s[0].heading.as_deref(),
            Some("# region in `f` at lines 3-9")
        );
        assert_eq!(s[0].tree.as_deref(), Some("{ a }\n"));
        assert_eq!(s[1].tree, None);
        assert_eq!(s[2].tree.as_deref(), Some("{ b }\n{ c }\n"));
    }

    #[test]
    fn hand_written_schedule_files_split_at_comments() {
        let s = parse_schedules("# first\n{ a }\n# second\n{ b }\n");
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|x| x.heading.is_none()));
        assert_eq!(s[1].tree.as_deref(), Some("{ b }\n"));
    }
}
