//! The pipeline, top to bottom, for one input file. Each stage takes the
//! previous stage's output; nothing here decides anything itself.
//!
//! `compile` reads as the pipeline: the input (`input`), each region
//! through the stages (`region`, one rung of the fallback ladder at a time
//! in `rung`), the C compiler's verdict, and the outputs (`outputs`).
//! `saved` reads and writes `--save-schedule` files.

mod input;
mod options;
mod outputs;
mod region;
mod rung;
mod saved;

pub use options::{Emit, HoistPolicy, Options};

use crate::back::OutputPaths;
use crate::clock::Deadline;
use crate::depfile;
use crate::diag::{Diagnostic, Loc};
use crate::isl::Isl;
use crate::scop;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How a compile worker announces the rung it starts on a region, so that
/// the process watching it knows what to demote if it has to stop it:
/// `<prefix> <region index> <rung name> <milliseconds allowed> <line> <column>`.
pub const PROGRESS_PREFIX: &str = "pencilc-progress:";

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
    ("pencil.h", include_str!("../../pencil-headers/pencil.h")),
    (
        "pencil_compat.h",
        include_str!("../../pencil-headers/pencil_compat.h"),
    ),
    (
        "pencil_prototypes.h",
        include_str!("../../pencil-headers/pencil_prototypes.h"),
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

/// Records a stage's time in the report (`-v`): the time since the last
/// lap.
type Lap<'a> = dyn FnMut(&mut FileReport, &'static str) + 'a;

fn compile(path: &Path, opts: &Options) -> crate::diag::Result<(FileReport, Outputs)> {
    let mut report = FileReport::default();
    let mut t = Instant::now();
    let mut lap = |report: &mut FileReport, stage: &'static str| {
        report
            .timings
            .push((stage.to_string(), t.elapsed().as_secs_f64() * 1e3));
        t = Instant::now();
    };
    let mut input = input::read(path, opts, &mut report, &mut lap)?;
    let isl = Isl::new(opts.max_operations);
    let mut file = region::FileState::new(opts)?;
    for (no, r) in input.regions.iter().enumerate() {
        region::compile(&isl, no, r, opts, &mut file, &mut report, &mut lap)?;
    }
    report.regions = input.regions.len();
    // The C compiler's verdict comes after pencilc's own, more specific
    // diagnostics, and before anything is written.
    input.c_compiler_verdict(&mut file.compiled, &mut report)?;
    outputs::gpu_model_report(&isl, &file.compiled, opts, &mut report)?;
    let mut outputs: Outputs = Vec::new();
    if let Some(p) = &opts.save_schedule {
        outputs.push((p.clone(), file.saved.into_bytes()));
    }
    if opts.emit.is_some() {
        return Ok((report, outputs));
    }
    outputs.extend(outputs::generate(
        &isl,
        path,
        &input.source,
        &input.names,
        &file.compiled,
        opts,
        &mut report,
        &mut lap,
    )?);
    Ok((report, outputs))
}

/// Tells a watching process (`watchdog`) what the region starts and by
/// when it must be done.
fn progress(opts: &Options, at: &Loc, region: usize, what: &str, deadline: Option<&Deadline>) {
    if opts.progress {
        eprintln!(
            "{} {} {} {} {} {} {}",
            PROGRESS_PREFIX,
            region,
            what,
            deadline.map_or(0, |d| d.left().as_millis()),
            at.line,
            at.col,
            crate::clock::thread_id().unwrap_or(0)
        );
    }
}

/// For the watchdog's tests (`--debug-fault`): `stall:<stage>` makes
/// `stage` (`deps` or a rung's name) never return, spinning as isl
/// sometimes does,
/// and `crash:<stage>` makes it abort.
fn debug_fault(opts: &Options, stage: &str) {
    match opts.debug_fault.as_deref().and_then(|v| v.split_once(':')) {
        // Spinning, as isl does when it does not return (a basis
        // reduction on huge coefficients): budgets count CPU time.
        Some(("stall", s)) if s == stage => {
            let mut x = 0u64;
            loop {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        }
        Some(("crash", s)) if s == stage => std::process::abort(),
        _ => {}
    }
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
