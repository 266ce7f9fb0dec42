//! The PolyBench harness: for each kernel, compile it with pencilc, build
//! the OpenCL program (and the CUDA one where a GPU is present) and the
//! sequential program, run them, compare every dumped array and time both
//! with PolyBench's timer. `report` prints the table, the JSON and the SVG.
//!
//! Building happens in parallel (`jobs`); the programs run one at a time, so
//! that the timings do not disturb each other.

mod build;
pub mod calibrate;
pub mod compare;
pub mod dataset;
pub mod emulate;
pub mod gpu_model;
pub mod profile;
pub mod report;
mod runs;
use build::*;
use runs::*;

use compare::{compare_dumps_with, Comparison};
use rayon::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A kernel of `polybench/kernels.txt`.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub source: PathBuf,
    /// pencilc options the kernel is compiled with besides the run's.
    pub flags: Vec<String>,
}

/// Reads `kernels.txt` ("NAME PATH [PENCILC OPTIONS...]" per line, the
/// path relative to `polybench_dir`).
pub fn polybench_kernels(polybench_dir: &Path) -> Result<Vec<Kernel>, String> {
    let list = polybench_dir.join("kernels.txt");
    let text = std::fs::read_to_string(&list)
        .map_err(|e| format!("cannot read {}: {}", list.display(), e))?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            match (it.next(), it.next()) {
                (Some(n), Some(p)) if !n.starts_with('#') => Some(Kernel {
                    name: n.to_string(),
                    source: polybench_dir.join(p),
                    flags: it.map(str::to_string).collect(),
                }),
                _ => None,
            }
        })
        .collect())
}

#[derive(Clone, Debug)]
pub struct HarnessOptions {
    /// The folder holding `kernels.txt` and `utilities/`.
    pub polybench: PathBuf,
    /// MINI, SMALL, MEDIUM, LARGE or EXTRALARGE.
    pub dataset: String,
    /// Kernels to run (names in kernels.txt); empty: all.
    pub kernels: Vec<String>,
    /// The pencilc executable.
    pub pencilc: PathBuf,
    /// Where each kernel's generated code, programs and outputs go.
    pub work_dir: PathBuf,
    /// The C compiler, and its flags for both programs.
    pub cc: String,
    pub cflags: Vec<String>,
    /// Kernels compiled and built at once.
    pub jobs: usize,
    /// Timed runs of each program; the median is reported.
    pub runs: usize,
    /// Relative tolerance of the comparison.
    pub tolerance: f64,
    /// Let the OpenCL compiler contract `a * b + c` into fused multiply-adds
    /// (OpenCL's default). Off, the kernels are built with
    /// `-DPENCILC_NO_FP_CONTRACT` and compute what the sequential program
    /// computes, operation for operation.
    pub fp_contract: bool,
    /// `PENCILC_OPENCL_DEVICE` for the OpenCL programs.
    pub opencl_device: String,
    /// Whether and how the CUDA output is built, run and compared.
    pub cuda: CudaRun,
    /// Build, run and compare the OpenCL output (off on a GPU machine
    /// without an OpenCL runtime; then CUDA decides `correct`).
    pub opencl: bool,
    /// The longest any one program may run.
    pub run_timeout: Duration,
    /// Extra pencilc arguments (e.g. `--scheduler isl`, `--fuse min`).
    pub pencilc_args: Vec<String>,
    /// How PolyBench's macros are configured, for pencilc and both builds.
    pub mode: Mode,
    /// Which version of each region the generated programs run
    /// (`back::choice`).
    pub versions: Versions,
    /// With `Versions::Chosen`: also time the device version forced
    /// (`PENCILC_RUN=device`), interleaved with the other runs, so that the
    /// choice is compared with always running the device version on the
    /// same runs (`KernelResult::always_device_speedup`).
    pub against_device: bool,
    /// Without OpenCL: run the sequential programs (the references every
    /// result is compared with) this many at a time, before the others.
    /// On a lent GPU their minutes of CPU time then cost seconds; their
    /// times are measured side by side, so less exact. 1: one at a time,
    /// each run beside nothing else.
    pub reference_jobs: usize,
    /// The relative tolerance for kernels whose floating-point sums or
    /// products pencilc reassociated (`-v` says so): their terms are added
    /// in another order, so the last digits may differ, more so in
    /// ill-conditioned recurrences such as durbin's.
    pub reassociation_tolerance: f64,
    /// Time a cold first run of each OpenCL program (PoCL's kernel cache
    /// off, every kernel built afresh: what a user's first run costs).
    /// It builds every kernel once more than the other runs need, so the
    /// tests that only compare results leave it out.
    pub first_run: bool,
}

/// Which of a region's versions the harness runs (`PENCILC_RUN`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Versions {
    /// The program's own choice, read from what it says
    /// (`PENCILC_VERBOSE`) and reported per kernel.
    Chosen,
    /// `device`, `host` or `seq`, forced.
    Forced(String),
    /// The device version (the timed one), then the host version and the
    /// original code, each compared with the sequential program.
    All,
}

/// The versions `PENCILC_RUN` can force, in the order `Versions::All` runs them.
pub const VERSIONS: [&str; 3] = ["device", "host", "seq"];

/// PolyBench/C 4.2.1's build modes, as its users compile it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// No extra `-D`: loops bounded by the run-time sizes (the kernel
    /// function's parameters), arrays declared with the constant sizes.
    Default,
    /// `-DPOLYBENCH_USE_SCALAR_LB`: loops bounded by the constants.
    ScalarLb,
    /// `-DPOLYBENCH_USE_C99_PROTO`: array parameters declared with the
    /// run-time sizes (C99 variable-length arrays), run-time bounds.
    C99Proto,
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Default, Mode::ScalarLb, Mode::C99Proto];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::ScalarLb => "scalar-lb",
            Mode::C99Proto => "c99-proto",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == s)
    }

    /// The `-D` flags of the mode.
    pub fn defines(self) -> &'static [&'static str] {
        match self {
            Mode::Default => &[],
            Mode::ScalarLb => &["-DPOLYBENCH_USE_SCALAR_LB"],
            Mode::C99Proto => &["-DPOLYBENCH_USE_C99_PROTO"],
        }
    }
}

impl HarnessOptions {
    pub fn new(polybench: PathBuf, pencilc: PathBuf, work_dir: PathBuf) -> Self {
        HarnessOptions {
            polybench,
            dataset: "MINI".into(),
            kernels: Vec::new(),
            pencilc,
            work_dir,
            cc: "cc".into(),
            cflags: vec!["-O3".into()],
            jobs: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            runs: 1,
            tolerance: 1e-9,
            fp_contract: false,
            opencl_device: "cpu".into(),
            cuda: CudaRun::Off,
            opencl: true,
            run_timeout: Duration::from_secs(600),
            pencilc_args: Vec::new(),
            mode: Mode::Default,
            versions: Versions::Chosen,
            against_device: false,
            reference_jobs: 1,
            reassociation_tolerance: 1e-6,
            first_run: true,
        }
    }
}

/// How the harness treats pencilc's CUDA output.
#[derive(Clone, Debug, PartialEq)]
pub enum CudaRun {
    /// Not generated.
    Off,
    /// Built with this nvcc (and these flags, e.g. `-arch=native`) and run
    /// on the GPU: results and timings.
    Gpu { nvcc: PathBuf, flags: Vec<String> },
    /// Built against the CUDA runtime emulation in `runtime`
    /// (tests/fakecuda), the host file with the C compiler (`cc`), the
    /// kernels with the C++ compiler `cxx`, and run on the CPU: results
    /// only, the timings are not reported (see `emulate`).
    Emulated { cxx: PathBuf, runtime: PathBuf },
}

/// Whether `nvcc` runs and `nvidia-smi` sees a GPU.
pub fn cuda_available(nvcc: &Path) -> bool {
    let ok = |cmd: &Path, arg: &str| {
        Command::new(cmd)
            .arg(arg)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    ok(nvcc, "--version") && ok(Path::new("nvidia-smi"), "-L")
}

/// What the harness found for one kernel.
#[derive(Clone, Debug, Default, Serialize)]
pub struct KernelResult {
    pub name: String,
    /// Kernel launch sites in the generated host code.
    pub kernels: usize,
    /// Per kernel: the number of parallel (block/thread) dimensions; 0 for a
    /// kernel that runs one thread in the original order.
    pub parallel_dims: Vec<usize>,
    /// pencilc's warnings, first line of each.
    pub warnings: Vec<String>,
    /// Wall-clock time of the pencilc process.
    pub compile_ms: f64,
    /// PolyBench's timer around the kernel call, median of the runs.
    pub sequential_ms: Option<f64>,
    /// PolyBench's timer minus the one-time OpenCL setup (device, context,
    /// queue, program build) that the generated code does on its first
    /// region: buffers, transfers and kernels.
    pub opencl_ms: Option<f64>,
    /// The one-time OpenCL setup.
    pub opencl_setup_ms: Option<f64>,
    /// Wall-clock time of the OpenCL program's first run with PoCL's kernel
    /// cache off: what a user's first run costs, the OpenCL compiler's
    /// build of every kernel (at `clBuildProgram` and, in PoCL, at each
    /// kernel's first launch) included.
    pub opencl_first_run_ms: Option<f64>,
    /// Lines of the generated OpenCL kernel file, and the barriers in it:
    /// what the OpenCL compiler has to build.
    pub kernel_lines: usize,
    pub barriers: usize,
    /// `sequential_ms / opencl_ms`.
    pub speedup: Option<f64>,
    /// The OpenCL program's arrays match the sequential program's.
    pub correct: bool,
    pub comparison: Option<Comparison>,
    /// The CUDA program's time on a GPU (emulated runs are not timed),
    /// its one-time setup (context creation) left out.
    pub cuda_ms: Option<f64>,
    /// `sequential_ms / cuda_ms`.
    pub cuda_speedup: Option<f64>,
    /// With `HarnessOptions::against_device`: the OpenCL program's time
    /// with the device version forced, and the speedup that gives.
    pub always_device_ms: Option<f64>,
    pub always_device_speedup: Option<f64>,
    pub cuda_correct: Option<bool>,
    /// The version the OpenCL program ran (`device`, `host`, `seq`; one
    /// per region execution, joined with `+` where they differ), as it
    /// said with `PENCILC_VERBOSE`.
    pub chosen: Option<String>,
    /// With `Versions::All`: each version's time and whether its arrays
    /// match the sequential program's.
    pub versions: Vec<VersionRun>,
    /// The step that failed and its message, if one did.
    pub error: Option<String>,
    /// With `reference_jobs`: the sequential program's whole run
    /// (initialisation, kernel, dump), run side by side with the others.
    pub sequential_wall_ms: Option<f64>,
    /// pencilc reassociated a floating-point accumulation (`-v`): the
    /// results are compared with `reassociation_tolerance`.
    pub reassociated: bool,
    /// The same of the CUDA program, whose GPU model may split
    /// accumulations that the OpenCL program (for the CPU) keeps whole.
    pub cuda_reassociated: bool,
    /// Where the device version's time went (`PENCILC_PROFILE=1`), in the
    /// run that says which version ran (where that was the device's) and
    /// in the CUDA program's first run.
    pub opencl_profile: Option<profile::RegionProfile>,
    pub cuda_profile: Option<profile::RegionProfile>,
}

/// One forced version's run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct VersionRun {
    pub version: String,
    pub ms: f64,
    pub correct: bool,
}

impl KernelResult {
    /// True when no kernel has a parallel dimension: the region runs as
    /// sequential kernels (no parallelism found, or the scheduler fallback).
    pub fn sequential_only(&self) -> bool {
        self.kernels > 0 && self.parallel_dims.iter().all(|&d| d == 0)
    }

    /// pencilc's budget warning (E0201) when a scheduler ran out of time or
    /// operations and pencilc fell back to another schedule.
    pub fn schedule_fallback(&self) -> Option<&str> {
        self.warnings
            .iter()
            .find(|w| w.contains("[E0201]"))
            .map(|w| w.split_once(": warning: ").map_or(w.as_str(), |p| p.1))
    }
}

/// Runs the harness over the selected kernels, calling `progress` as each
/// kernel finishes. Results are in kernels.txt order.
pub fn run_suite(
    opts: &HarnessOptions,
    progress: &(dyn Fn(&KernelResult) + Sync),
) -> Result<Vec<KernelResult>, String> {
    let chosen = selected_kernels(opts)?;
    std::fs::create_dir_all(&opts.work_dir)
        .map_err(|e| format!("cannot create {}: {}", opts.work_dir.display(), e))?;
    // The programs run in their kernel's folder, so every path they are
    // given must be absolute.
    let mut opts = opts.clone();
    opts.work_dir = std::path::absolute(&opts.work_dir).map_err(|e| e.to_string())?;
    let opts = &opts;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let mut built: Vec<Built> =
        pool.install(|| chosen.par_iter().map(|k| build(opts, k)).collect());
    if opts.reference_jobs > 1 && !opts.opencl {
        run_references(opts, &mut built)?;
    }
    Ok(built
        .into_iter()
        .map(|b| {
            let r = run(opts, b);
            progress(&r);
            r
        })
        .collect())
}

/// The kernels of `kernels.txt` that `opts.kernels` names (all where it
/// names none), in the file's order; an unknown name is an error.
pub fn selected_kernels(opts: &HarnessOptions) -> Result<Vec<Kernel>, String> {
    let all = polybench_kernels(&opts.polybench)?;
    for k in &opts.kernels {
        if !all.iter().any(|a| &a.name == k) {
            return Err(format!(
                "unknown kernel `{}` (see polybench/kernels.txt)",
                k
            ));
        }
    }
    Ok(all
        .into_iter()
        .filter(|k| opts.kernels.is_empty() || opts.kernels.contains(&k.name))
        .collect())
}

/// A kernel compiled and built, ready to run.
struct Built {
    result: KernelResult,
    dir: PathBuf,
    sequential: Option<PathBuf>,
    opencl: Option<PathBuf>,
    cuda: Option<PathBuf>,
    /// The sequential program's dump and time, where `run_references` ran
    /// it ahead of the others.
    reference: Option<(String, f64)>,
}

/// The least time a sequential reference may run for.
const REFERENCE_TIMEOUT: Duration = Duration::from_secs(600);

/// Runs the sequential programs `reference_jobs` at a time (one run each:
/// they are references, not measurements) and keeps their dumps.
fn run_references(opts: &HarnessOptions, built: &mut [Built]) -> Result<(), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.reference_jobs)
        .build()
        .map_err(|e| e.to_string())?;
    // The per-program limit guards the lease against slow generated code;
    // a reference run side by side with others may well take longer.
    let mut opts = opts.clone();
    opts.run_timeout = opts.run_timeout.max(REFERENCE_TIMEOUT);
    let opts = &opts;
    pool.install(|| {
        built.par_iter_mut().for_each(|b| {
            let Some(seq) = b.sequential.clone().filter(|_| b.result.error.is_none()) else {
                return;
            };
            let time: fn(&Run) -> Option<f64> = |run| polybench_seconds(&run.stdout);
            match timed_runs(opts, 1, &seq, &b.dir, &[], "sequential", time) {
                Ok((dump, ms, runs)) => {
                    b.reference = Some((dump, ms));
                    b.result.sequential_wall_ms = runs.first().map(|r| r.wall.as_secs_f64() * 1e3);
                }
                Err(e) => b.result.error = Some(e),
            }
        })
    });
    Ok(())
}

/// Preprocessor flags for pencilc and both builds: PolyBench's includes,
/// dataset and mode, and the `-D`, `-U` and `-I` of `--cflags` (a macro
/// must mean the same to pencilc as to the C compiler).
fn flags(opts: &HarnessOptions, k: &Kernel) -> Vec<String> {
    let mut fl: Vec<String> = vec![
        "-I".into(),
        utilities(&opts.polybench).display().to_string(),
        "-I".into(),
        k.source
            .parent()
            .unwrap_or(Path::new("."))
            .display()
            .to_string(),
        format!("-D{}_DATASET", opts.dataset),
        "-DPOLYBENCH_DUMP_ARRAYS".into(),
        "-DPOLYBENCH_TIME".into(),
    ];
    fl.extend(opts.mode.defines().iter().map(|d| d.to_string()));
    let mut cflags = opts.cflags.iter();
    while let Some(f) = cflags.next() {
        if ["-D", "-U", "-I"].contains(&f.as_str()) {
            if let Some(v) = cflags.next() {
                fl.push(f.clone());
                fl.push(v.clone());
            }
        } else if f.starts_with("-D") || f.starts_with("-U") || f.starts_with("-I") {
            fl.push(f.clone());
        }
    }
    fl
}

/// `--gpu-model-params` with the sizes of the kernel's dataset (see
/// `dataset`), for every pencilc run of the harness: the model then prices
/// the time steps that run, and its choices are made for them.
fn model_params(opts: &HarnessOptions, k: &Kernel) -> Vec<String> {
    let fl = flags(opts, k);
    let sizes = dataset::sizes(&k.source, &opts.dataset, &fl);
    dataset::model_params_args(&sizes, &[&opts.pencilc_args, &k.flags])
}

/// PolyBench's `utilities/`: beside `kernels.txt`, or one folder up (a
/// generated suite such as `polybench/flat` shares the original's).
fn utilities(polybench: &Path) -> PathBuf {
    let here = polybench.join("utilities");
    match polybench.parent() {
        Some(up) if !here.exists() && up.join("utilities").exists() => up.join("utilities"),
        _ => here,
    }
}

/// Runs a command to completion; Err carries the tail of its stderr.
fn check(cmd: &mut Command, what: &str) -> Result<std::process::Output, String> {
    let out = cmd
        .output()
        .map_err(|e| format!("{}: cannot run: {}", what, e))?;
    if out.status.success() {
        Ok(out)
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(format!(
            "{} failed ({}): {}",
            what,
            out.status,
            tail(&err, 600)
        ))
    }
}

fn tail(s: &str, n: usize) -> String {
    let s = s.trim();
    match s.char_indices().rev().nth(n) {
        Some((i, _)) => format!("...{}", &s[i..]),
        None => s.to_string(),
    }
}

/// Reads what `pencilc -v` says of the file: kernels and parallel
/// dimensions, and the first line of each warning.
/// The relative tolerance `r`'s results are compared with.
fn tolerance(opts: &HarnessOptions, r: &KernelResult) -> f64 {
    tolerance_of(opts, r.reassociated)
}

/// The relative tolerance of a program whose accumulations pencilc did,
/// or did not, reassociate.
fn tolerance_of(opts: &HarnessOptions, reassociated: bool) -> f64 {
    if reassociated {
        opts.tolerance.max(opts.reassociation_tolerance)
    } else {
        opts.tolerance
    }
}

/// One run of a program: its stdout and stderr, or why it failed.
struct Run {
    stdout: String,
    stderr: String,
    /// The whole run, start to exit (initialisation and dump included).
    wall: Duration,
}

/// The seconds that `polybench_timer_print` wrote: the last number on stdout.
fn polybench_seconds(stdout: &str) -> Option<f64> {
    stdout
        .lines()
        .rev()
        .find_map(|l| l.trim().parse::<f64>().ok())
}

/// The seconds the generated host code reported for the one-time OpenCL
/// setup (built with `-DPENCILC_TIME_SETUP`).
/// PolyBench's time of a generated program without the one-time OpenCL or
/// CUDA setup it printed.
fn region_seconds(run: &Run) -> Option<f64> {
    polybench_seconds(&run.stdout).map(|t| (t - setup_seconds(&run.stderr)).max(0.0))
}

fn setup_seconds(stderr: &str) -> f64 {
    stderr
        .lines()
        .filter_map(|l| {
            l.strip_prefix("pencilc: OpenCL setup ")
                .or_else(|| l.strip_prefix("pencilc: CUDA setup "))
                .or_else(|| l.strip_prefix("pencilc: OpenMP setup "))
        })
        .filter_map(|l| l.trim_end_matches(" s").trim().parse::<f64>().ok())
        .sum()
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    Some(v[v.len() / 2])
}

/// A program to time: what `interleaved_runs` needs of it.
struct Timed<'a> {
    exe: &'a Path,
    dir: &'a Path,
    envs: &'a [(&'a str, &'a str)],
    what: &'a str,
    time: fn(&Run) -> Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_verbose_line() {
        let mut r = KernelResult::default();
        read_verbose_report(
            "x.c:3:1: warning: isl's scheduler did not finish; this region keeps its original order [E0201]\n  = help: raise\npencilc: a/b.c: 1 region(s), 6 kernel(s), parallel dims [2, 0, 1], 402.7 ms [parse 1ms]\n",
            &mut r,
        );
        assert_eq!(r.kernels, 6);
        assert_eq!(r.parallel_dims, vec![2, 0, 1]);
        assert_eq!(r.warnings.len(), 1);
        assert_eq!(
            r.schedule_fallback(),
            Some("isl's scheduler did not finish; this region keeps its original order [E0201]")
        );
        assert!(!r.sequential_only());
    }

    #[test]
    fn reads_the_chosen_versions() {
        let err = "pencilc: OpenCL setup 0.1 s\npencilc: kernel_x (x.c:3-9): host (least estimated time): estimated seq 1 s\nbegin dump: A\npencilc: kernel_x (x.c:3-9): device (PENCILC_RUN=device): ...\npencilc: kernel_x (x.c:3-9): host (least estimated time): ...\n";
        assert_eq!(chosen_version(err).as_deref(), Some("host+device"));
        assert_eq!(chosen_version("begin dump: A\n"), None);
    }

    #[test]
    fn reads_polybench_and_setup_times() {
        assert_eq!(polybench_seconds("0.001500\n"), Some(0.0015));
        assert_eq!(polybench_seconds(""), None);
        assert_eq!(
            setup_seconds("pencilc: OpenCL setup 0.250000 s\nbegin dump: A\n"),
            0.25
        );
        // The start of OpenMP's threads is a setup too, as each program
        // build is.
        assert_eq!(
            setup_seconds(
                "pencilc: OpenMP setup 0.005000 s\npencilc: OpenCL setup 0.250000 s\npencilc: OpenCL setup 0.125000 s\n"
            ),
            0.38
        );
    }
}
