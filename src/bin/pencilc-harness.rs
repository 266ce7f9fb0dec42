//! The PolyBench harness: compiles each kernel with pencilc, runs the
//! OpenCL program (and the CUDA one where nvcc and a GPU exist) and the
//! sequential program, compares every dumped array, and prints a table of
//! kernels, parallel dimensions, times and speedups; optionally writes the
//! same as JSON and an SVG bar chart of the speedups.
//!
//! cargo run --release --bin pencilc-harness -- --dataset SMALL [--kernels gemm,2mm] [--json out.json] [--svg out.svg]

use clap::Parser;
use pencilc::harness::{self, report, CudaRun, HarnessOptions};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(name = "pencilc-harness", version, about)]
struct Args {
    /// PolyBench dataset: MINI, SMALL, MEDIUM, LARGE or EXTRALARGE.
    #[arg(long, default_value = "SMALL")]
    dataset: String,
    /// Comma-separated kernel names from polybench/kernels.txt (default: all).
    #[arg(long, value_delimiter = ',')]
    kernels: Vec<String>,
    /// Write the results as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write an SVG bar chart of the speedups.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Timed runs of each program (the median is reported).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Kernels compiled and built at once (default: all cores). Programs
    /// always run one at a time.
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// With --no-opencl: run the sequential programs (the references) this
    /// many at a time, once each, before the others: a GPU lease's minutes
    /// saved; their times are then measured side by side, so less exact.
    #[arg(long, default_value_t = 1)]
    reference_jobs: usize,
    /// Relative tolerance for kernels whose floating-point sums or products
    /// pencilc reassociated (`pencilc -v` names them; `--reductions exact`
    /// keeps their order).
    #[arg(long, default_value_t = 1e-6)]
    reassociation_tolerance: f64,
    /// Relative tolerance of the comparison.
    #[arg(long, default_value_t = 1e-9)]
    tolerance: f64,
    /// Let the OpenCL compiler fuse multiply-adds (OpenCL's default); results
    /// then differ from the sequential program's by rounding, a lot for
    /// ill-conditioned kernels such as gramschmidt.
    #[arg(long)]
    fp_contract: bool,
    /// PENCILC_OPENCL_DEVICE for the OpenCL programs (gpu, cpu, accelerator, default).
    #[arg(long, default_value = "cpu")]
    device: String,
    /// Run the CUDA versions: auto (on when nvcc and nvidia-smi work), on,
    /// off, or emulate (build them against tests/fakecuda, the host file
    /// with cc and the kernels with --cxx, and run them on the CPU:
    /// results only, no timings).
    #[arg(long, default_value = "auto")]
    cuda: String,
    /// The CUDA runtime emulation for --cuda emulate (default: the source
    /// tree's tests/fakecuda).
    #[arg(long)]
    fakecuda: Option<PathBuf>,
    /// Do not build or run the OpenCL programs (a GPU machine without an
    /// OpenCL runtime); the CUDA results then decide correctness.
    #[arg(long)]
    no_opencl: bool,
    /// The C++ compiler for --cuda emulate (the kernel file and the
    /// emulation; the host file is C, built with cc).
    #[arg(long, default_value = "c++")]
    cxx: PathBuf,
    /// The CUDA compiler.
    #[arg(long, default_value = "nvcc")]
    nvcc: PathBuf,
    /// nvcc flags besides -O3 (and --fmad=false without --fp-contract).
    /// The default builds for the GPU of this machine, so that no PTX is
    /// compiled at run time inside the timed region.
    #[arg(long, default_value = "-arch=native", allow_hyphen_values = true)]
    nvcc_flags: String,
    /// The folder with kernels.txt and utilities/ (default: ./polybench, else the source tree's).
    #[arg(long)]
    polybench: Option<PathBuf>,
    /// The pencilc executable (default: the one beside this program).
    #[arg(long)]
    pencilc: Option<PathBuf>,
    /// Where generated code, programs and outputs go.
    #[arg(long, default_value = "target/harness")]
    work_dir: PathBuf,
    /// C compiler flags for both programs (their -D, -U and -I reach
    /// pencilc too).
    #[arg(long, default_value = "-O3", allow_hyphen_values = true)]
    cflags: String,
    /// PolyBench's build mode: default (loops bounded by the run-time
    /// sizes, as PolyBench/C 4.2.1 without -D), scalar-lb
    /// (-DPOLYBENCH_USE_SCALAR_LB: constant bounds) or c99-proto
    /// (-DPOLYBENCH_USE_C99_PROTO: variable-length array parameters).
    #[arg(long, default_value = "default")]
    mode: String,
    /// Seconds any one program may run.
    #[arg(long, default_value_t = 600)]
    timeout: u64,
    /// Which version of each region the programs run: chosen (each
    /// program's own run-time choice, reported in the `ran` column),
    /// device, host or seq (forced with PENCILC_RUN), or all (each in
    /// turn, each compared; the times shown are the device version's).
    #[arg(long, default_value = "chosen")]
    versions: String,
    /// With --versions chosen: also time each program with its device
    /// version forced, interleaved with the other runs, and report the
    /// geometric mean of always running the device version beside the
    /// choice's (the JSON has each kernel's `always_device_speedup`).
    #[arg(long)]
    against_device: bool,
    /// Measure the cost model of the run-time choice between versions on
    /// this machine (every kernel at --calibrate-datasets, each version
    /// forced) and write a device description with it to FILE; compile
    /// with `pencilc --device FILE` to use it.
    #[arg(long, value_name = "FILE")]
    calibrate: Option<PathBuf>,
    /// The datasets --calibrate runs.
    #[arg(long, value_delimiter = ',', default_value = "MINI,SMALL,MEDIUM,LARGE")]
    calibrate_datasets: Vec<String>,
    /// Run only this version in --calibrate (device, host, host1: the host
    /// version on one thread, seq), to add runs to an earlier calibration.
    #[arg(long, hide = true)]
    calibrate_only: Option<String>,
    /// Fit --calibrate's costs to the runs of an earlier calibration (the
    /// `.samples.tsv` written beside its description) instead of running.
    #[arg(long, value_name = "TSV", value_delimiter = ',')]
    calibrate_from: Vec<PathBuf>,
    /// The description --calibrate adds its costs to (default: the
    /// built-in generic-opencl-cpu).
    #[arg(long, value_name = "FILE")]
    calibrate_base: Option<PathBuf>,
    /// Report the GPU cost model's estimates for every kernel at
    /// --dataset instead of running anything (no GPU needed): region,
    /// copies, kernels, launches, the slowest kernel and its bound, and
    /// kernels that run loops on one thread.
    #[arg(long)]
    gpu_model: bool,
    /// The device description whose [gpu_model] --gpu-model uses.
    #[arg(long, default_value = "nvidia-h100")]
    gpu_device: String,
    /// Reference times for --gpu-model (NAME<TAB>MS per line, `-` for
    /// none), e.g. tests/data/ppcg-h100-2026-11-26.tsv: PPCG's measured
    /// region times on an H100.
    #[arg(long, value_name = "TSV")]
    against: Option<PathBuf>,
    /// Extra pencilc arguments, e.g. --pencilc-args "--scheduler isl".
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pencilc_args: String,
}

fn main() -> ExitCode {
    let a = Args::parse();
    let polybench = a.polybench.unwrap_or_else(|| {
        let here = PathBuf::from("polybench");
        if here.join("kernels.txt").exists() {
            here
        } else {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("polybench")
        }
    });
    let pencilc = a.pencilc.unwrap_or_else(|| {
        std::env::current_exe()
            .ok()
            .and_then(|p| p.parent().map(|d| d.join("pencilc")))
            .unwrap_or_else(|| PathBuf::from("pencilc"))
    });
    let mut opts = HarnessOptions::new(polybench, pencilc, a.work_dir);
    opts.dataset = a.dataset.to_uppercase();
    // PolyBench falls back to its default sizes for a dataset it does not
    // know: the results would be labelled with one name and be of another.
    if !["MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE"].contains(&opts.dataset.as_str()) {
        eprintln!(
            "pencilc-harness: --dataset {}: expected MINI, SMALL, MEDIUM, LARGE or EXTRALARGE",
            a.dataset
        );
        return ExitCode::from(2);
    }
    opts.mode = match harness::Mode::parse(&a.mode) {
        Some(m) => m,
        None => {
            eprintln!(
                "pencilc-harness: --mode {}: expected default, scalar-lb or c99-proto",
                a.mode
            );
            return ExitCode::from(2);
        }
    };
    opts.versions = match a.versions.as_str() {
        "chosen" => harness::Versions::Chosen,
        "all" => harness::Versions::All,
        v if harness::VERSIONS.contains(&v) => harness::Versions::Forced(v.to_string()),
        v => {
            eprintln!(
                "pencilc-harness: --versions {}: expected chosen, device, host, seq or all",
                v
            );
            return ExitCode::from(2);
        }
    };
    opts.kernels = a.kernels;
    opts.runs = a.runs.max(1);
    opts.against_device = a.against_device;
    opts.reference_jobs = a.reference_jobs.max(1);
    if let Some(j) = a.jobs {
        opts.jobs = j.max(1);
    }
    opts.tolerance = a.tolerance;
    opts.reassociation_tolerance = a.reassociation_tolerance;
    opts.fp_contract = a.fp_contract;
    opts.opencl_device = a.device;
    opts.cflags = a.cflags.split_whitespace().map(String::from).collect();
    opts.pencilc_args = a
        .pencilc_args
        .split_whitespace()
        .map(String::from)
        .collect();
    opts.run_timeout = Duration::from_secs(a.timeout);
    opts.opencl = !a.no_opencl;
    let gpu = CudaRun::Gpu {
        nvcc: a.nvcc.clone(),
        flags: a.nvcc_flags.split_whitespace().map(String::from).collect(),
    };
    opts.cuda = match a.cuda.as_str() {
        "on" => gpu,
        "off" => CudaRun::Off,
        "emulate" => CudaRun::Emulated {
            cxx: a.cxx.clone(),
            runtime: a.fakecuda.clone().unwrap_or_else(|| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fakecuda")
            }),
        },
        "auto" if harness::cuda_available(&a.nvcc) => gpu,
        "auto" => CudaRun::Off,
        other => {
            eprintln!(
                "pencilc-harness: --cuda {}: expected auto, on, off or emulate",
                other
            );
            return ExitCode::from(2);
        }
    };
    if a.gpu_model {
        return gpu_model(
            &opts,
            &a.gpu_device,
            a.against.as_deref(),
            a.json.as_deref(),
        );
    }
    if !opts.opencl && opts.cuda == CudaRun::Off {
        eprintln!(
            "pencilc-harness: --no-opencl needs CUDA (--cuda on or emulate): nothing would run"
        );
        return ExitCode::from(2);
    }
    eprintln!(
        "pencilc-harness: {} dataset, {} mode, OpenCL device {}, CUDA {}",
        opts.dataset,
        opts.mode.name(),
        opts.opencl_device,
        match &opts.cuda {
            CudaRun::Gpu { .. } => "on",
            CudaRun::Emulated { .. } => "emulated on the CPU (results only)",
            CudaRun::Off if a.cuda == "off" => "off",
            CudaRun::Off => "off (no nvcc or no GPU)",
        }
    );
    if let Some(out) = &a.calibrate {
        return calibrate(
            &opts,
            out,
            &a.calibrate_datasets,
            a.calibrate_base.as_deref(),
            &a.calibrate_from,
            a.calibrate_only.as_deref(),
        );
    }
    let progress = |r: &harness::KernelResult| {
        eprintln!(
            "pencilc-harness: {:<15} {}",
            r.name,
            match (&r.error, r.correct) {
                (Some(e), _) => format!("FAILED: {}", e.lines().next().unwrap_or("")),
                (None, false) => "WRONG".into(),
                (None, true) if r.cuda_correct == Some(false) => "WRONG (CUDA)".into(),
                (None, true) => "correct".into(),
            }
        )
    };
    let results = match harness::run_suite(&opts, &progress) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pencilc-harness: {}", e);
            return ExitCode::from(2);
        }
    };
    print!("{}", report::table(&results, &opts));
    for (path, text) in [
        (&a.json, report::json(&results, &opts)),
        (&a.svg, report::svg(&results, &opts)),
    ] {
        if let Some(p) = path {
            if let Err(e) = std::fs::write(p, text) {
                eprintln!("pencilc-harness: cannot write {}: {}", p.display(), e);
                return ExitCode::from(2);
            }
        }
    }
    if results.iter().all(|r| r.correct && r.error.is_none()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `--calibrate`: measures, fits and writes the description.
fn calibrate(
    opts: &HarnessOptions,
    out: &std::path::Path,
    datasets: &[String],
    base: Option<&std::path::Path>,
    from: &[PathBuf],
    only: Option<&str>,
) -> ExitCode {
    use pencilc::harness::calibrate;
    let base = match base {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("pencilc-harness: cannot read {}: {}", p.display(), e);
                return ExitCode::from(2);
            }
        },
        None => include_str!("../../devices/generic-opencl-cpu.toml").to_string(),
    };
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into());
    let ds: Vec<String> = datasets.iter().map(|d| d.to_uppercase()).collect();
    let ds_ref: Vec<&str> = ds.iter().map(String::as_str).collect();
    let tsv = out.with_extension("samples.tsv");
    let measured = match from {
        [_, ..] => from.iter().try_fold(Vec::new(), |mut all, p| {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read {}: {}", p.display(), e))?;
            all.extend(calibrate::read_samples(&text)?);
            Ok(all)
        }),
        [] => {
            let only: Vec<(&str, Option<&str>)> = match only {
                None => calibrate::RUNS.to_vec(),
                Some(v) => calibrate::RUNS
                    .iter()
                    .copied()
                    .filter(|(name, t)| match (v, t) {
                        ("host1", Some("1")) => true,
                        (v, None) => *name == v,
                        _ => false,
                    })
                    .collect(),
            };
            // The runs go to FILE.samples.tsv as they come.
            let _ = std::fs::remove_file(&tsv);
            calibrate::measure(opts, &ds_ref, &only, Some(&tsv), &|line| {
                eprintln!("pencilc-harness: {}", line)
            })
        }
    };
    let samples = match measured {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pencilc-harness: {}", e);
            return ExitCode::from(2);
        }
    };
    let datasets_seen: std::collections::BTreeSet<&str> =
        samples.iter().map(|s| s.dataset.as_str()).collect();
    let device = match pencilc::device::Device::parse(&base, "the --calibrate base") {
        Ok(d) => d,
        Err(e) => {
            eprintln!("pencilc-harness: {}", e.message);
            return ExitCode::from(2);
        }
    };
    let costs = match calibrate::fit_costs(&samples, &device) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pencilc-harness: {}", e);
            return ExitCode::from(2);
        }
    };
    let kernels: std::collections::BTreeSet<&str> =
        samples.iter().map(|s| s.kernel.as_str()).collect();
    let datasets_seen = datasets_seen.into_iter().collect::<Vec<_>>().join(", ");
    let how = if from.is_empty() {
        format!(
            "{} kernels at {}, {} runs fitted, the median of {} per version; load average {} when it started",
            kernels.len(),
            datasets_seen,
            samples.len(),
            opts.runs,
            load
        )
    } else {
        format!(
            "{} kernels at {}, {} runs fitted, from {}",
            kernels.len(),
            datasets_seen,
            samples.len(),
            from.iter()
                .map(|p| p
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let text = calibrate::device_file(&base, &costs, &how);
    if let Err(e) = std::fs::write(out, &text) {
        eprintln!("pencilc-harness: cannot write {}: {}", out.display(), e);
        return ExitCode::from(2);
    }
    print!("{}", text);
    ExitCode::SUCCESS
}

/// `--gpu-model`: the model's estimates, no program run.
fn gpu_model(
    opts: &HarnessOptions,
    device: &str,
    against: Option<&std::path::Path>,
    json: Option<&std::path::Path>,
) -> ExitCode {
    use pencilc::harness::gpu_model as gm;
    let fail = |e: String| {
        eprintln!("pencilc-harness: {}", e);
        ExitCode::from(2)
    };
    let m = match gm::model_of(device) {
        Ok(m) => m,
        Err(e) => return fail(e),
    };
    let reference = match against {
        None => None,
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| format!("cannot read {}: {}", p.display(), e))
            .and_then(|t| gm::read_reference(&t).map_err(|e| format!("{}: {}", p.display(), e)))
        {
            Ok(r) => Some(r),
            Err(e) => return fail(e),
        },
    };
    let rows = match gm::profiles(opts) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    print!(
        "{}",
        gm::table(&rows, &m, device, &opts.dataset, reference.as_ref())
    );
    if let Some(p) = json {
        if let Err(e) = std::fs::write(p, gm::json(&rows, &m, device, &opts.dataset)) {
            return fail(format!("cannot write {}: {}", p.display(), e));
        }
    }
    if rows.iter().all(|r| r.regions.is_ok()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
