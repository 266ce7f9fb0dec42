//! The PolyBench harness: for each kernel, compile it with pencilc, build
//! the OpenCL program (and the CUDA one where a GPU is present) and the
//! sequential program, run them, compare every dumped array and time both
//! with PolyBench's timer. `report` prints the table, the JSON and the SVG.
//!
//! Building happens in parallel (`jobs`); the programs run one at a time, so
//! that the timings do not disturb each other.

pub mod calibrate;
pub mod compare;
pub mod emulate;
pub mod gpu_model;
pub mod profile;
pub mod report;

use compare::{compare_dumps, Comparison};
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

fn build(opts: &HarnessOptions, k: &Kernel) -> Built {
    let dir = opts.work_dir.join(&k.name);
    let _ = std::fs::remove_dir_all(&dir);
    let mut b = Built {
        result: KernelResult {
            name: k.name.clone(),
            ..KernelResult::default()
        },
        sequential: None,
        opencl: None,
        cuda: None,
        dir: dir.clone(),
        reference: None,
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        b.result.error = Some(format!("cannot create {}: {}", dir.display(), e));
        return b;
    }
    if let Err(e) = build_programs(opts, k, &mut b) {
        b.result.error = Some(e);
    }
    b
}

fn build_programs(opts: &HarnessOptions, k: &Kernel, b: &mut Built) -> Result<(), String> {
    let fl = flags(opts, k);
    let polybench_c = utilities(&opts.polybench).join("polybench.c");
    let host = b.dir.join(format!("{}_host.c", k.name));
    if opts.opencl {
        run_pencilc(opts, k, &fl, "opencl", &host, Some(&mut *b))?;
    }

    let seq = b.dir.join("sequential");
    check(
        Command::new(&opts.cc)
            .args(&opts.cflags)
            .args(&fl)
            .arg(&polybench_c)
            .arg(&k.source)
            .arg("-lm")
            .arg("-o")
            .arg(&seq),
        "building the sequential program",
    )?;
    b.sequential = Some(seq);

    if opts.opencl {
        let ocl = b.dir.join("opencl");
        check(
            Command::new(&opts.cc)
                .args(&opts.cflags)
                .args(&fl)
                .arg("-DPENCILC_TIME_SETUP")
                .arg("-fopenmp")
                .arg(&polybench_c)
                .arg(&host)
                .args(["-lOpenCL", "-lm", "-o"])
                .arg(&ocl),
            "building the OpenCL program",
        )?;
        b.opencl = Some(ocl);
    }

    if opts.cuda != CudaRun::Off {
        // `_cuda_host.c` beside the OpenCL program's `_host.c`; the
        // kernels go to `_cuda_kernel.cu`.
        let host_c = b.dir.join(format!("{}_cuda_host.c", k.name));
        // The report (kernels, parallel dims, compile time) comes from the
        // OpenCL run when there is one.
        let report = (!opts.opencl).then_some(&mut *b);
        run_pencilc(opts, k, &fl, "cuda", &host_c, report)?;
        let kernel_cu = b.dir.join(format!("{}_cuda_kernel.cu", k.name));
        let exe = b.dir.join("cuda");
        match &opts.cuda {
            CudaRun::Gpu { nvcc, flags } => {
                // nvcc contracts to FMA by default; --fmad=false keeps the
                // results comparable with the sequential program's, as for
                // OpenCL.
                let mut nvcc = Command::new(nvcc);
                nvcc.arg("-O3").args(flags);
                if !opts.fp_contract {
                    nvcc.arg("--fmad=false");
                }
                check(
                    nvcc.args(&fl)
                        .arg("-DPENCILC_TIME_SETUP")
                        .arg(&host_c)
                        .arg(&kernel_cu)
                        .arg(&polybench_c)
                        .arg("-o")
                        .arg(&exe),
                    "nvcc",
                )?;
            }
            CudaRun::Emulated { cxx, runtime } => {
                let pb_o = b.dir.join("polybench.o");
                check(
                    Command::new(&opts.cc)
                        .args(&opts.cflags)
                        .args(&fl)
                        .arg("-c")
                        .arg(&polybench_c)
                        .arg("-o")
                        .arg(&pb_o),
                    "building polybench.c",
                )?;
                let compilers = emulate::Compilers {
                    cc: Path::new(&opts.cc),
                    cxx,
                };
                emulate::build(&compilers, runtime, &host_c, &kernel_cu, &fl, &[pb_o], &exe)?;
            }
            CudaRun::Off => unreachable!(),
        }
        b.cuda = Some(exe);
    }
    Ok(())
}

/// Runs `pencilc -v --target TARGET` on the kernel; with `report`, times
/// it and reads what it says (kernels, parallel dimensions, warnings) into
/// that result.
fn run_pencilc(
    opts: &HarnessOptions,
    k: &Kernel,
    fl: &[String],
    target: &str,
    out_file: &Path,
    report: Option<&mut Built>,
) -> Result<(), String> {
    let t = Instant::now();
    let out = check(
        Command::new(&opts.pencilc)
            .args(["-v", "--target", target])
            .args(&opts.pencilc_args)
            .args(&k.flags)
            .args(fl)
            .arg("-o")
            .arg(out_file)
            .arg(&k.source),
        &format!("pencilc --target {}", target),
    )?;
    let Some(b) = report else {
        return Ok(());
    };
    b.result.compile_ms = t.elapsed().as_secs_f64() * 1e3;
    if target == "opencl" {
        let name = out_file.file_name().unwrap_or_default().to_string_lossy();
        let kernel = out_file.with_file_name(name.replace("_host.c", "_kernel.cl"));
        if let Ok(text) = std::fs::read_to_string(&kernel) {
            b.result.kernel_lines = text.lines().count();
            b.result.barriers = text.matches("barrier(CLK").count();
        }
    }
    let log = String::from_utf8_lossy(&out.stderr);
    std::fs::write(b.dir.join("pencilc.log"), log.as_bytes()).ok();
    read_verbose_report(&log, &mut b.result);
    Ok(())
}

/// Reads what `pencilc -v` says of the file: kernels and parallel
/// dimensions, and the first line of each warning.
/// The relative tolerance `r`'s results are compared with.
fn tolerance(opts: &HarnessOptions, r: &KernelResult) -> f64 {
    if r.reassociated {
        opts.tolerance.max(opts.reassociation_tolerance)
    } else {
        opts.tolerance
    }
}

fn read_verbose_report(log: &str, r: &mut KernelResult) {
    for line in log.lines() {
        if let Some(i) = line.find(" kernel(s), parallel dims [") {
            let before = &line[..i];
            r.kernels = before
                .rsplit(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            let rest = &line[i + " kernel(s), parallel dims [".len()..];
            if let Some(end) = rest.find(']') {
                r.parallel_dims = rest[..end]
                    .split(',')
                    .filter_map(|d| d.trim().parse().ok())
                    .collect();
            }
        } else if line.contains(": warning: ") {
            r.warnings.push(line.trim().to_string());
        } else if line.contains(crate::scop::reductions::REASSOCIATED) {
            r.reassociated = true;
        }
    }
}

/// One run of a program: its stdout and stderr, or why it failed.
struct Run {
    stdout: String,
    stderr: String,
    /// The whole run, start to exit (initialisation and dump included).
    wall: Duration,
}

fn run_program(
    exe: &Path,
    dir: &Path,
    envs: &[(&str, &str)],
    timeout: Duration,
    what: &str,
) -> Result<Run, String> {
    // Output goes to files: a pipe could fill up while we wait.
    let out_path = dir.join(format!("{}.stdout", what));
    let err_path = dir.join(format!("{}.stderr", what));
    let io = |p: &Path| {
        std::fs::File::create(p).map_err(|e| format!("cannot create {}: {}", p.display(), e))
    };
    let mut child = Command::new(exe)
        .current_dir(dir)
        .envs(envs.iter().copied())
        .stdout(io(&out_path)?)
        .stderr(io(&err_path)?)
        .spawn()
        .map_err(|e| format!("{}: cannot run {}: {}", what, exe.display(), e))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{}: still running after {:?}; stopped",
                    what, timeout
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("{}: {}", what, e)),
        }
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr =
        String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned();
    if !status.success() {
        return Err(format!(
            "{} failed ({}): {}",
            what,
            status,
            tail(&stderr, 600)
        ));
    }
    Ok(Run {
        stdout,
        stderr,
        wall: start.elapsed(),
    })
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

/// The versions a generated program ran, from its `PENCILC_VERBOSE`
/// lines (`pencilc: REGION: VERSION (why...)`), in order, repeats left
/// out; `None` where it said nothing (no region ran, or no versions).
fn chosen_version(stderr: &str) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix("pencilc: ") else {
            continue;
        };
        let Some((_, after)) = rest.split_once("): ") else {
            continue;
        };
        let v = after.split(' ').next().unwrap_or("");
        if VERSIONS.contains(&v) && !seen.contains(&v) {
            seen.push(v);
        }
    }
    (!seen.is_empty()).then(|| seen.join("+"))
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    Some(v[v.len() / 2])
}

/// Runs a program `runs` times; returns the first run's dump and the median
/// of `time(run)` in milliseconds.
fn timed_runs(
    opts: &HarnessOptions,
    count: usize,
    exe: &Path,
    dir: &Path,
    envs: &[(&str, &str)],
    what: &str,
    time: fn(&Run) -> Option<f64>,
) -> Result<(String, f64, Vec<Run>), String> {
    let timed = Timed {
        exe,
        dir,
        envs,
        what,
        time,
    };
    let mut all = interleaved_runs(opts, count, &[timed])?;
    Ok(all.remove(0))
}

/// A program to time: what `interleaved_runs` needs of it.
struct Timed<'a> {
    exe: &'a Path,
    dir: &'a Path,
    envs: &'a [(&'a str, &'a str)],
    what: &'a str,
    time: fn(&Run) -> Option<f64>,
}

/// Runs each program `count` times, one run of each in turn, so that
/// whatever else the machine does in the meantime (another tenant, the
/// clock) falls on all of them alike rather than on one block of runs;
/// returns for each its first run's dump, the median of `time(run)` in
/// milliseconds, and its runs.
fn interleaved_runs(
    opts: &HarnessOptions,
    count: usize,
    programs: &[Timed],
) -> Result<Vec<(String, f64, Vec<Run>)>, String> {
    let mut times: Vec<Vec<f64>> = programs.iter().map(|_| Vec::new()).collect();
    let mut runs: Vec<Vec<Run>> = programs.iter().map(|_| Vec::new()).collect();
    for _ in 0..count.max(1) {
        for (k, p) in programs.iter().enumerate() {
            let r = run_program(p.exe, p.dir, p.envs, opts.run_timeout, p.what)?;
            let t =
                (p.time)(&r).ok_or_else(|| format!("{}: no PolyBench time on stdout", p.what))?;
            times[k].push(t * 1e3);
            runs[k].push(r);
        }
    }
    Ok(runs
        .into_iter()
        .zip(times)
        .map(|(runs, times)| (runs[0].stderr.clone(), median(times).unwrap_or(0.0), runs))
        .collect())
}

fn run(opts: &HarnessOptions, b: Built) -> KernelResult {
    let mut r = b.result;
    if r.error.is_some() {
        return r;
    }
    if let Some((dump, ms)) = &b.reference {
        r.sequential_ms = Some(*ms);
        // The limit is on the generated code: the program's own
        // initialisation and dump (PolyBench's cholesky, lu and ludcmp
        // initialise in O(n^3)) come on top, as long as the sequential
        // program took for them side by side with the others.
        let mut opts = opts.clone();
        opts.run_timeout += Duration::from_secs_f64(r.sequential_wall_ms.unwrap_or(0.0) / 1e3);
        if let Err(e) = run_cuda(&opts, &b.dir, &b.cuda, dump, *ms, false, &mut r) {
            r.error = Some(e);
        }
        return r;
    }
    if let Err(e) = run_programs(opts, &b.dir, &b.sequential, &b.opencl, &b.cuda, &mut r) {
        r.error = Some(e);
    }
    r
}

fn run_programs(
    opts: &HarnessOptions,
    dir: &Path,
    sequential: &Option<PathBuf>,
    opencl: &Option<PathBuf>,
    cuda: &Option<PathBuf>,
    r: &mut KernelResult,
) -> Result<(), String> {
    let Some(seq) = sequential else {
        return Err("not built".into());
    };
    let sequential_run = Timed {
        exe: seq,
        dir,
        envs: &[],
        what: "sequential",
        time: |run| polybench_seconds(&run.stdout),
    };
    let Some(ocl) = opencl else {
        let (seq_dump, seq_ms, _) = interleaved_runs(opts, opts.runs, &[sequential_run])?.remove(0);
        r.sequential_ms = Some(seq_ms);
        return run_cuda(opts, dir, cuda, &seq_dump, seq_ms, false, r);
    };
    let cl_options = if opts.fp_contract {
        ""
    } else {
        "-DPENCILC_NO_FP_CONTRACT"
    };
    let forced = match &opts.versions {
        Versions::Chosen => None,
        Versions::Forced(v) => Some(v.as_str()),
        Versions::All => Some("device"),
    };
    let mut envs = vec![
        ("PENCILC_OPENCL_DEVICE", opts.opencl_device.as_str()),
        ("PENCILC_OPENCL_OPTIONS", cl_options),
    ];
    envs.extend(forced.map(|v| ("PENCILC_RUN", v)));
    // A cold first run: PoCL builds every kernel afresh (on the device
    // version, whatever the program would choose).
    let mut cold = envs.clone();
    cold.retain(|(k, _)| *k != "PENCILC_RUN");
    cold.push(("PENCILC_RUN", "device"));
    cold.push(("POCL_KERNEL_CACHE", "0"));
    let t = Instant::now();
    run_program(ocl, dir, &cold, opts.run_timeout, "opencl-first")?;
    r.opencl_first_run_ms = Some(t.elapsed().as_secs_f64() * 1e3);
    let opencl_run = Timed {
        exe: ocl,
        dir,
        envs: &envs,
        what: "opencl",
        time: region_seconds,
    };
    let mut forced_device = envs.clone();
    forced_device.push(("PENCILC_RUN", "device"));
    let mut programs = vec![sequential_run, opencl_run];
    if opts.against_device && opts.versions == Versions::Chosen {
        programs.push(Timed {
            exe: ocl,
            dir,
            envs: &forced_device,
            what: "opencl-device",
            time: region_seconds,
        });
    }
    let mut timed = interleaved_runs(opts, opts.runs, &programs)?;
    if timed.len() == 3 {
        let (dump, ms, _) = timed.remove(2);
        let c = compare_dumps(&timed[0].0, &dump, tolerance(opts, r));
        r.always_device_ms = Some(ms);
        r.always_device_speedup = (ms > 0.0).then(|| timed[0].1 / ms);
        r.versions.push(VersionRun {
            version: "device".to_string(),
            ms,
            correct: c.ok(),
        });
    }
    let (ocl_dump, ocl_ms, runs) = timed.remove(1);
    let (seq_dump, seq_ms, _) = timed.remove(0);
    r.sequential_ms = Some(seq_ms);
    // What ran, from one more run that says it (PENCILC_VERBOSE): the
    // message is printed inside the timed call (45 us on a 0.2 ms
    // kernel), so the timed runs are quiet.
    let mut verbose = envs.clone();
    verbose.push(("PENCILC_VERBOSE", "1"));
    verbose.push(("PENCILC_PROFILE", "1"));
    let said = run_program(ocl, dir, &verbose, opts.run_timeout, "opencl-verbose")?;
    r.chosen = chosen_version(&said.stderr);
    r.opencl_profile = profile::parse(&said.stderr);
    r.opencl_setup_ms = median(
        runs.iter()
            .map(|run| setup_seconds(&run.stderr) * 1e3)
            .collect(),
    );
    r.opencl_ms = Some(ocl_ms);
    r.speedup = (ocl_ms > 0.0).then(|| seq_ms / ocl_ms);
    let c = compare_dumps(&seq_dump, &ocl_dump, tolerance(opts, r));
    r.correct = c.ok();
    r.comparison = Some(c);
    if opts.versions == Versions::All {
        for v in VERSIONS {
            let ms = if v == "device" {
                ocl_ms
            } else {
                let mut envs = envs.clone();
                envs.retain(|(k, _)| *k != "PENCILC_RUN");
                envs.push(("PENCILC_RUN", v));
                let (dump, ms, _) = timed_runs(
                    opts,
                    opts.runs,
                    ocl,
                    dir,
                    &envs,
                    &format!("opencl-{}", v),
                    region_seconds,
                )?;
                let c = compare_dumps(&seq_dump, &dump, tolerance(opts, r));
                if !c.ok() {
                    r.correct = false;
                    r.comparison = Some(c.clone());
                }
                r.versions.push(VersionRun {
                    version: v.to_string(),
                    ms,
                    correct: c.ok(),
                });
                continue;
            };
            r.versions.push(VersionRun {
                version: v.to_string(),
                ms,
                correct: r.comparison.as_ref().is_some_and(|c| c.ok()),
            });
        }
    }

    run_cuda(opts, dir, cuda, &seq_dump, seq_ms, true, r)
}

/// Runs the CUDA program (on a GPU, `runs` timed runs; emulated, one run for
/// its results) and compares it with the sequential dump; without an
/// OpenCL program its result decides correctness.
fn run_cuda(
    opts: &HarnessOptions,
    dir: &Path,
    cuda: &Option<PathBuf>,
    seq_dump: &str,
    seq_ms: f64,
    opencl_ran: bool,
    r: &mut KernelResult,
) -> Result<(), String> {
    let Some(exe) = cuda else {
        if !opencl_ran {
            return Err("neither OpenCL nor CUDA was built".into());
        }
        return Ok(());
    };
    let gpu = matches!(opts.cuda, CudaRun::Gpu { .. });
    // An emulated run's time means nothing: run it once, for its results.
    let runs = if gpu { opts.runs } else { 1 };
    // The device version unless another is forced (an emulated run
    // stands for the device).
    let version = match &opts.versions {
        Versions::Forced(v) => v.as_str(),
        Versions::Chosen if gpu => "",
        _ => "device",
    };
    // The profile's synchronisations are the region's own (its copies are
    // synchronous, its kernels waited for): timing it costs a clock read
    // per phase.
    let mut envs: Vec<(&str, &str)> = vec![("PENCILC_PROFILE", "1")];
    if !version.is_empty() {
        envs.push(("PENCILC_RUN", version));
    }
    let (dump, ms, cuda_runs) = timed_runs(opts, runs, exe, dir, &envs, "cuda", region_seconds)?;
    r.cuda_profile = cuda_runs
        .first()
        .and_then(|run| profile::parse(&run.stderr));
    r.cuda_ms = gpu.then_some(ms);
    r.cuda_speedup = r.cuda_ms.filter(|&m| m > 0.0).map(|m| seq_ms / m);
    let c = compare_dumps(seq_dump, &dump, tolerance(opts, r));
    r.cuda_correct = Some(c.ok());
    if !opencl_ran {
        r.correct = c.ok();
        r.comparison = Some(c);
    }
    Ok(())
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
