//! The pipeline, top to bottom, for one input file. Each stage takes the
//! previous stage's output; nothing here decides anything itself.

use crate::ast;
use crate::back::{self, OutputPaths, RegionCode, Target};
use crate::deps;
use crate::diag::{Code, Diagnostic, Result};
use crate::front::{self, CppOptions, SourceFile};
use crate::isl::Isl;
use crate::map::{self, MapOptions};
use crate::sched;
use crate::scop;
use crate::valid;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Scop,
    Deps,
    Schedule,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub target: Target,
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
    /// The command line, for the header of generated files.
    pub command: String,
    /// Device code for the functions regions call (`--opencl-include-file`,
    /// `--cuda-include-file`).
    pub opencl_include: Vec<PathBuf>,
    pub cuda_include: Vec<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target: Target::OpenCl,
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
            opencl_include: Vec::new(),
            cuda_include: Vec::new(),
        }
    }
}

/// What compiling one file produced.
#[derive(Debug, Default)]
pub struct FileReport {
    pub regions: usize,
    pub kernels: usize,
    /// Per kernel launch: the number of parallel dimensions mapped.
    pub parallel_dims: Vec<usize>,
    pub written: Vec<PathBuf>,
    /// Text dumps requested with `--emit`.
    pub dump: String,
    pub warnings: Vec<Diagnostic>,
    /// Which scheduler produced each region's schedule.
    pub schedulers: Vec<&'static str>,
    /// Integer programs pencilc's scheduler solved.
    pub ilp_solves: usize,
    /// Milliseconds per stage, for `-v`.
    pub timings: Vec<(&'static str, f64)>,
    /// `--dump-sizes` entries (`kernel[0] -> tile[32, 32]`), in kernel order.
    pub sizes: Vec<String>,
    /// Where each array reference group went and why, for `-v`.
    pub placements: Vec<String>,
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

pub fn compile_file(
    path: &Path,
    opts: &Options,
) -> std::result::Result<FileReport, Vec<Diagnostic>> {
    compile(path, opts).map_err(|e| vec![e])
}

fn compile(path: &Path, opts: &Options) -> Result<FileReport> {
    let mut report = FileReport::default();
    let mut t = Instant::now();
    let mut lap = |report: &mut FileReport, stage: &'static str| {
        report
            .timings
            .push((stage, t.elapsed().as_secs_f64() * 1e3));
        t = Instant::now();
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        Diagnostic::error(
            Code::Usage,
            None,
            format!("cannot read {}: {}", path.display(), e),
        )
    })?;
    let source = SourceFile {
        path: path.to_path_buf(),
        text,
    };
    let headers = pencil_headers_dir();
    let pp = front::preprocess(path, &opts.cpp, headers.as_deref())?;
    lap(&mut report, "preprocess");
    let regions = front::parse_regions(&pp)?;
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
    struct Compiled {
        scop: scop::Scop,
        deps: deps::DependenceGraph,
        ast: ast::GpuAst,
    }
    let mut compiled = Vec::new();
    for region in &regions {
        let scop = scop::build_scop(region)?;
        report.warnings.extend(scop.warnings.iter().cloned());
        lap(&mut report, "scop");
        if opts.emit == Some(Emit::Scop) {
            report.dump.push_str(&scop.dump());
            continue;
        }
        let deps = deps::analyze(&isl, &scop).map_err(|e| at_region(e, &scop))?;
        lap(&mut report, "deps");
        if opts.emit == Some(Emit::Deps) {
            report.dump.push_str(&format!(
                "# region in `{}` at lines {}-{}\n",
                scop.function, scop.begin_line, scop.end_line
            ));
            report.dump.push_str(&deps.dump());
            continue;
        }
        let region_index = compiled_count;
        compiled_count += 1;
        let schedule = match &loaded {
            Some(trees) => {
                let text = trees.get(region_index).ok_or_else(|| {
                    Diagnostic::error(
                        Code::Usage,
                        Some(scop.loc.clone()),
                        format!(
                            "--load-schedule: the file has {} schedule(s), this is region {}",
                            trees.len(),
                            region_index + 1
                        ),
                    )
                })?;
                sched::load(&isl, &scop, text).map_err(|why| {
                    Diagnostic::error(
                        Code::Usage,
                        Some(scop.loc.clone()),
                        format!("--load-schedule: {}", why),
                    )
                    .with_hint("save a schedule of this file with --save-schedule and edit it")
                })?
            }
            None => {
                let scheduled = sched::schedule(&isl, &scop, &deps, &opts.sched)
                    .map_err(|e| at_region(e, &scop))?;
                if let Some(why) = &scheduled.fallback {
                    report.warnings.push(
                        Diagnostic::warning(
                            Code::Budget,
                            Some(scop.loc.clone()),
                            format!("{}; this region uses the {} schedule", why, scheduled.by),
                        )
                        .with_hint("raise --schedule-timeout, try the other --scheduler, or split the region"),
                    );
                }
                report.schedulers.push(scheduled.by);
                report.ilp_solves += scheduled.ilp_solves;
                scheduled.schedule
            }
        };
        saved.push_str(&format!(
            "# region in `{}` at lines {}-{}\n{}\n",
            scop.function, scop.begin_line, scop.end_line, schedule.tree
        ));
        lap(&mut report, "sched");
        valid::check_schedule(&isl, &deps, &schedule.tree).map_err(|e| at_region(e, &scop))?;
        lap(&mut report, "valid");
        let (mapped, mapped_trees) =
            map::map_to_gpu(&isl, &scop, &deps, &schedule, &map_opts, kernels_so_far)
                .map_err(|e| at_region(e, &scop))?;
        kernels_so_far += mapped.kernels.len();
        for k in &mapped.kernels {
            report.sizes.extend(map::sizes::dump_entry(
                k.number,
                &k.tile_sizes,
                &k.block_sizes,
                &k.grid_cap,
            ));
            for g in &k.memory.groups {
                report
                    .placements
                    .push(format!("kernel[{}] {}: {}", k.number, g.array, g.reason));
            }
        }
        lap(&mut report, "map");
        if opts.emit == Some(Emit::Schedule) {
            report.dump.push_str(&format!(
                "# region in `{}` at lines {}-{}\n",
                scop.function, scop.begin_line, scop.end_line
            ));
            report
                .dump
                .push_str(&format!("schedule: {}", schedule.dump()));
            report.dump.push_str(&format!("mapped: {}", mapped.dump()));
            continue;
        }
        let gpu_ast =
            ast::generate(&isl, &scop, &mapped, mapped_trees).map_err(|e| at_region(e, &scop))?;
        lap(&mut report, "ast");
        compiled.push(Compiled {
            scop,
            deps,
            ast: gpu_ast,
        });
    }
    report.regions = regions.len();
    if let Some(p) = &opts.save_schedule {
        std::fs::write(p, &saved).map_err(|e| io_error(p, e))?;
    }
    if opts.emit.is_some() {
        return Ok(report);
    }
    let codes: Vec<RegionCode> = compiled
        .iter()
        .map(|c| RegionCode {
            scop: &c.scop,
            deps: &c.deps,
            ast: &c.ast,
        })
        .collect();
    for c in &compiled {
        report.kernels += c.ast.launches.len();
        report
            .parallel_dims
            .extend(c.ast.launches.iter().map(|l| l.plan.block_sizes.len()));
    }
    let paths = output_paths(path, opts);
    let device_code = device_includes(opts)?;
    let emitted = back::emit(
        &source,
        &codes,
        opts.target,
        &paths,
        &opts.command,
        &device_code,
    )?;
    lap(&mut report, "back");
    report.placements.extend(emitted.notes);
    report.warnings.extend(emitted.warnings);
    for f in emitted.files {
        if let Some(parent) = f.path.parent() {
            if !parent.as_os_str().is_empty() {
                std::fs::create_dir_all(parent).map_err(|e| io_error(&f.path, e))?;
            }
        }
        std::fs::write(&f.path, &f.contents).map_err(|e| io_error(&f.path, e))?;
        report.written.push(f.path);
    }
    Ok(report)
}

/// The trees of a `--save-schedule` file: one per region, each after a
/// `# region` comment line (a file with one bare tree also works).
fn read_schedules(p: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(p).map_err(|e| {
        Diagnostic::error(
            Code::Usage,
            None,
            format!("cannot read {}: {}", p.display(), e),
        )
    })?;
    let mut trees = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        if line.starts_with('#') {
            if !cur.trim().is_empty() {
                trees.push(std::mem::take(&mut cur));
            }
            cur.clear();
        } else {
            cur.push_str(line);
            cur.push('\n');
        }
    }
    if !cur.trim().is_empty() {
        trees.push(cur);
    }
    Ok(trees)
}

/// What the generated kernels get from the user: the OpenCL files' text
/// (the kernel source is embedded in the host program), `#include` lines
/// for CUDA.
fn device_includes(opts: &Options) -> Result<String> {
    let mut out = String::new();
    match opts.target {
        back::Target::OpenCl => {
            for p in &opts.opencl_include {
                let text = std::fs::read_to_string(p).map_err(|e| {
                    Diagnostic::error(
                        Code::Usage,
                        None,
                        format!("cannot read --opencl-include-file {}: {}", p.display(), e),
                    )
                })?;
                out.push_str(&format!("/* from {} */\n{}\n", p.display(), text));
            }
        }
        back::Target::Cuda => {
            for p in &opts.cuda_include {
                let abs = std::fs::canonicalize(p).map_err(|e| {
                    Diagnostic::error(
                        Code::Usage,
                        None,
                        format!("cannot read --cuda-include-file {}: {}", p.display(), e),
                    )
                })?;
                out.push_str(&format!("#include \"{}\"\n", abs.display()));
            }
        }
        back::Target::C => {}
    }
    Ok(out)
}

fn io_error(p: &Path, e: std::io::Error) -> Diagnostic {
    Diagnostic::error(
        Code::Usage,
        None,
        format!("cannot write {}: {}", p.display(), e),
    )
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
            let dir = opts
                .output_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from("."));
            OutputPaths::default_for(input, &dir, opts.target)
        }
    }
}
