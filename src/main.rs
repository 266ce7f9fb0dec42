use clap::{CommandFactory, Parser, ValueEnum};
use pencilc::back::Target;
use pencilc::depfile::DepOptions;
use pencilc::diag::{Code, Diagnostic, MessageFormat, WarningPolicy};
use pencilc::driver::{self, Emit, Options};
use pencilc::front::CppOptions;
use rayon::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;

/// isl allocates and frees small objects all the time (a tenth of the
/// compile time went to glibc's malloc and free on adi): mimalloc serves
/// Rust and, through its `override` feature, isl's C allocations too.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TargetArg {
    Opencl,
    Cuda,
    C,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ReductionsArg {
    /// Every accumulation found in the code (`v += e`, `v *= e`, `v =
    /// min(v, e)`, ...) where nothing else touches `v` in the loop:
    /// floating-point sums then add their terms in another order, and
    /// minima written with `?:` meet NaNs and signed zeros in another one.
    Auto,
    /// Only those whose result does not depend on the order: integer
    /// sums, products and bitwise operations, integer `min`/`max`
    /// (`fmin`/`fmax` return either zero of `-0.0` and `+0.0`).
    Exact,
    /// Only the variables of `reduction` clauses.
    Declared,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum HoistArg {
    /// Where the device's GPU model estimates it under 3/4 of the time.
    Auto,
    /// Wherever the scheduler finds such a loop (for testing).
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ExpandArg {
    /// Where the device's GPU model estimates it under 3/4 of the time.
    Auto,
    /// Wherever the array can be expanded (for testing).
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum SplitArg {
    /// Where the device's GPU model estimates it under 3/4 of the time.
    Auto,
    /// Wherever the accumulation can be split (for testing).
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum OneBlockArg {
    /// Where each launch in the loop is small when the program runs (at
    /// most 4 rounds of the block's threads): CUDA, and OpenCL on a GPU's
    /// description.
    Auto,
    /// Whatever the launches' sizes (for testing; OpenCL still runs the
    /// launches where the device refuses the work-group).
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum SchedulerArg {
    /// pencilc's Pluto-style ILP scheduler.
    Pluto,
    /// isl's scheduler (the reference, as in PPCG).
    Isl,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FuseArg {
    /// Fuse as much as dependences allow (PPCG's `max`).
    Max,
    /// Fuse unless it costs a parallel loop.
    Smart,
    /// One loop nest per strongly connected component (PPCG's `min`).
    Min,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum MessageFormatArg {
    /// `file:line:col: error: message [code]`, the line and a caret.
    Human,
    /// One JSON object per diagnostic, one per line.
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EmitArg {
    Scop,
    Deps,
    Schedule,
    /// Each region's GPU profile and estimated time, one record per region
    /// and per kernel (CUDA and OpenCL targets).
    GpuModel,
}

/// pencilc: a polyhedral parallelizer from C99/PENCIL to OpenCL and CUDA.
#[derive(Parser, Debug)]
// As in gcc, an option given twice is no error: the last one counts
// (build systems assemble command lines from several places).
#[command(
    name = "pencilc",
    version = version_string(),
    about,
    long_about = None,
    args_override_self = true
)]
struct Cli {
    /// Input C files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output language.
    #[arg(long, value_enum, default_value = "opencl")]
    target: TargetArg,
    /// With --target c: run each region's tiled schedule with OpenMP
    /// `parallel for` on its parallel loops (build with -fopenmp).
    #[arg(long)]
    openmp: bool,
    /// OpenCL and CUDA: always run each region's device version, instead
    /// of choosing, each time it runs, between it, its host version
    /// (OpenMP) and the original code.
    #[arg(long = "no-versioning")]
    no_versioning: bool,
    /// Which accumulations run in parallel (tree or atomic combining on a
    /// device, OpenMP `reduction` clauses on the host).
    #[arg(long, value_enum, default_value = "auto")]
    reductions: ReductionsArg,
    /// CUDA and OpenCL for a GPU: whether a loop nest whose only parallel
    /// loop leaves each thread a long sequential loop runs that loop on the
    /// host instead, around kernels of the parallel loops inside it.
    #[arg(long, value_enum, default_value = "auto")]
    hoist: HoistArg,
    /// CUDA and OpenCL for a GPU: whether a small array written before it
    /// is read in each iteration of the loops around it (doitgen's `sum`)
    /// gets a copy per iteration in device memory instead of one per
    /// thread, so that the loops inside those iterations run on threads.
    #[arg(long = "expand-private", value_enum, default_value = "auto")]
    expand_private: ExpandArg,
    /// CUDA and OpenCL for a GPU: whether an accumulation inside a
    /// parallel loop (gramschmidt's `R[k][j] += Q[i][k] * A[i][j]` over
    /// `i`, for each `j`) is split in 32 partial results that run on
    /// threads of their own, then combine in order, instead of one thread
    /// running the whole accumulation (sums, products, minima and
    /// maxima).
    #[arg(long = "split-reductions", value_enum, default_value = "auto")]
    split_reductions: SplitArg,
    /// Whether a sequential host loop around small kernels (a time loop
    /// over a short stencil) runs as one kernel of one block, its threads
    /// taking each launch in turn with a barrier between them, instead of
    /// a launch per kernel and iteration. `auto`: CUDA, and OpenCL with a
    /// GPU's description (`--device nvidia-h100`, `generic-gpu`); OpenCL
    /// programs run the launches where the device or the kernel allows
    /// fewer work-items in a group than the description's block.
    #[arg(long = "one-block-loops", value_enum, default_value = "auto")]
    one_block_loops: OneBlockArg,
    /// The input is the whole program, as GCC's -fwhole-program says: no
    /// other file calls its functions (main aside), so each is read as
    /// `static` is: the sizes its calls pass size the GPU model, and an
    /// array every call's caller frees unread is not copied back.
    #[arg(long = "whole-program")]
    whole_program: bool,
    /// Host output file (one input only); kernel files are named after it.
    #[arg(short = 'o', long = "output", conflicts_with = "output_dir")]
    output: Option<PathBuf>,
    /// Directory for the output files (default: the current directory).
    #[arg(long = "output-dir")]
    output_dir: Option<PathBuf>,
    /// Add a directory to the preprocessor's include path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Define a preprocessor macro.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// The C preprocessor command.
    #[arg(long, value_name = "CMD", default_value = "cc -E")]
    cpp: String,
    /// Print a stage's result in isl notation instead of generating code.
    #[arg(long, value_enum)]
    emit: Option<EmitArg>,
    /// Tile size in every tiled dimension.
    #[arg(short = 'S', long = "tile-size", default_value_t = 32)]
    tile_size: i64,
    /// Per-kernel tile, block and grid sizes (PPCG's syntax), e.g.
    /// '{ kernel[0] -> tile[64, 64]; kernel[i] -> block[16, 16] }'.
    #[arg(long, value_name = "ISL UNION MAP")]
    sizes: Option<String>,
    /// Print the tile, block and grid sizes used, in --sizes syntax.
    #[arg(long = "dump-sizes")]
    dump_sizes: bool,
    /// The device to generate code for: a built-in name (nvidia-h100,
    /// nvidia-h200, generic-opencl-cpu, generic-gpu) or a TOML description
    /// file.
    /// Default: nvidia-h100 for CUDA, generic-opencl-cpu otherwise.
    #[arg(long, value_name = "NAME|FILE")]
    device: Option<String>,
    /// Parameter values at which `-v` and `--emit gpu-model` profile each
    /// region for the GPU (default: the largest values the region's context
    /// allows, else 1000), e.g. n=2800,tsteps=500.
    #[arg(long = "gpu-model-params", value_name = "NAME=VALUE,...")]
    gpu_model_params: Option<String>,
    /// Keep every array in global memory (no shared/local memory tiles).
    #[arg(long = "no-shared-memory")]
    no_shared_memory: bool,
    /// Keep every array out of registers (no private tiles).
    #[arg(long = "no-private-memory")]
    no_private_memory: bool,
    /// Let written arrays use shared-memory tiles with write-back even
    /// where the device description turns it off (the OpenCL CPU one:
    /// PoCL 3.1 miscompiles such kernels).
    #[arg(long = "shared-write-back")]
    shared_write_back: bool,
    /// Shared memory per block that tiles may use, in bytes (-1: unlimited;
    /// default: the device's shared memory per block).
    #[arg(
        long = "max-shared-memory",
        value_name = "BYTES",
        allow_hyphen_values = true
    )]
    max_shared_memory: Option<i64>,
    /// Budget of isl operations per stage.
    #[arg(long = "isl-max-operations", default_value_t = pencilc::isl::DEFAULT_MAX_OPERATIONS)]
    isl_max_operations: u64,
    /// CPU seconds one region's compilation may take (fractions allowed):
    /// a busy machine compiles slower, not to other code. When it runs
    /// out, pencilc falls back to simpler choices, down to the region's
    /// own code on the host, each with a warning.
    #[arg(
        long = "schedule-timeout",
        value_name = "SECONDS",
        default_value_t = pencilc::sched::DEFAULT_TIMEOUT_SECS as f64,
        value_parser = parse_seconds
    )]
    schedule_timeout: f64,
    /// Start every region this far down the fallback ladder (full,
    /// no-promotion, no-wavefront, isl-scheduler, original-order, host):
    /// for testing the fallbacks.
    #[arg(long = "ladder-start", value_name = "RUNG", hide = true, value_parser = parse_rung)]
    ladder_start: Option<pencilc::ladder::Rung>,
    /// `stall:<stage>` or `crash:<stage>` (stage: deps or a rung): makes
    /// that stage hang or abort, to test the watchdog.
    #[arg(long = "debug-fault", hide = true)]
    debug_fault: Option<String>,
    /// Compile only the input at this index and print the result as JSON
    /// (the watchdog's child process).
    #[arg(long = "internal-file-worker", hide = true)]
    internal_file_worker: Option<usize>,
    /// `<region>=<rung>`: where the watchdog restarts a region.
    #[arg(long = "internal-region-rung", hide = true, value_parser = parse_region_rung)]
    internal_region_rung: Vec<(usize, pencilc::ladder::Rung, Option<std::time::Duration>)>,
    /// Which scheduler computes the new execution order.
    #[arg(long, value_enum, default_value = "pluto")]
    scheduler: SchedulerArg,
    /// Loop fusion (Pluto's vocabulary; PPCG's --isl-schedule-fuse=max|min
    /// is accepted as an alias).
    #[arg(long, value_enum, default_value = "smart", alias = "isl-schedule-fuse")]
    fuse: FuseArg,
    /// Write each region's schedule tree (isl notation) to FILE.
    #[arg(long = "save-schedule", value_name = "FILE")]
    save_schedule: Option<PathBuf>,
    /// Use the schedule trees in FILE (as written by --save-schedule)
    /// instead of scheduling; they are checked against the dependences.
    #[arg(long = "load-schedule", value_name = "FILE")]
    load_schedule: Option<PathBuf>,
    /// A file of OpenCL C pasted into the generated kernels: the device
    /// implementations of functions called in regions (summary functions).
    #[arg(long = "opencl-include-file", value_name = "FILE")]
    opencl_include_file: Vec<PathBuf>,
    /// A file `#include`d by the generated CUDA kernels (the CUDA
    /// counterpart of --opencl-include-file).
    #[arg(long = "cuda-include-file", value_name = "FILE")]
    cuda_include_file: Vec<PathBuf>,
    /// Number of files compiled in parallel (default: all cores).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Report what each file produced and how long each stage took.
    #[arg(short, long)]
    verbose: bool,
    /// -MD: write a dependency file in Make syntax (by default the host
    /// output with `.d`) naming every file read: the input, its headers,
    /// schedules, device descriptions and device code.
    #[arg(long = "MD")]
    md: bool,
    /// -MMD: -MD without headers from system directories.
    #[arg(long = "MMD")]
    mmd: bool,
    /// -MF FILE: where -MD/-MMD write the dependency file.
    #[arg(long = "MF", value_name = "FILE")]
    mf: Option<PathBuf>,
    /// -MT TARGET: the dependency rule's target, as written (repeatable;
    /// default: every file this run writes).
    #[arg(long = "MT", value_name = "TARGET")]
    mt: Vec<String>,
    /// -MQ TARGET: as -MT, with characters special to Make quoted.
    #[arg(long = "MQ", value_name = "TARGET")]
    mq: Vec<String>,
    /// -MP: an empty rule for each header, so that Make does not stop when
    /// one is deleted.
    #[arg(long = "MP")]
    mp: bool,
    /// How diagnostics are printed on stderr.
    #[arg(long = "message-format", value_enum, default_value = "human")]
    message_format: MessageFormatArg,
    /// -Werror: every warning is an error (the file fails, exit status 1,
    /// nothing written); -Wno-error undoes it.
    #[arg(short = 'W', value_name = "error|no-error", value_parser = ["error", "no-error"])]
    werror: Vec<String>,
    /// -w: no warnings (wins over -Werror, as in gcc).
    #[arg(short = 'w')]
    no_warnings: bool,
    /// Leave an output whose contents would not change untouched, time
    /// stamp included (for Ninja's restat; Make reruns such a step).
    #[arg(long = "write-if-changed")]
    write_if_changed: bool,
}

/// The options that cannot change what is generated, left out of the
/// command recorded in generated files (clap ids: the fields above).
const NOT_RECORDED: &[&str] = &[
    "jobs",
    "verbose",
    "md",
    "mmd",
    "mf",
    "mt",
    "mq",
    "mp",
    "message_format",
    "werror",
    "no_warnings",
    "write_if_changed",
    "gpu_model_params",
    "internal_file_worker",
    "internal_region_rung",
];

fn version_string() -> &'static str {
    let s = format!(
        "{} (isl {})",
        env!("CARGO_PKG_VERSION"),
        pencilc::isl::isl_version()
    );
    Box::leak(s.into_boxed_str())
}

fn main() -> ExitCode {
    if std::env::args_os().nth(1).as_deref()
        == Some(std::ffi::OsStr::new(pencilc::sched::WORKER_FLAG))
    {
        return ExitCode::from(pencilc::sched::run_worker() as u8);
    }
    let argv =
        pencilc::cmdline::gcc_style(&Cli::command(), &std::env::args_os().collect::<Vec<_>>());
    let cli = match Cli::try_parse_from(&argv) {
        Ok(c) => c,
        Err(e) => return usage_error(e, &argv),
    };
    let format = match cli.message_format {
        MessageFormatArg::Human => MessageFormat::Human,
        MessageFormatArg::Json => MessageFormat::Json,
    };
    let say = |d: &Diagnostic| eprint!("{}", d.format(format));
    let usage = |d: Diagnostic| {
        say(&d);
        ExitCode::from(2)
    };
    let (opts, device, deps) = match options(&cli, &argv) {
        Ok(o) => o,
        Err(d) => return usage(d),
    };
    // Never over an input, and no two outputs in one file.
    let mut read: Vec<PathBuf> = cli.files.clone();
    read.extend(cli.load_schedule.iter().cloned());
    read.extend(cli.opencl_include_file.iter().cloned());
    read.extend(cli.cuda_include_file.iter().cloned());
    read.extend(cli.device.iter().map(PathBuf::from));
    let mut planned = driver::planned_outputs(&cli.files, &opts);
    for f in &cli.files {
        if let Some(d) = deps.path_for(&driver::output_paths(f, &opts).host) {
            planned.push((d, format!("dependency file for {}", f.display())));
        }
    }
    if let Err(e) = pencilc::files::check_outputs(&read, &planned) {
        return usage(e);
    }
    // Each file is compiled in a child process the watchdog can stop
    // (PENCILC_NO_WATCHDOG=1: in this process, for debugging).
    let exe = std::env::current_exe()
        .ok()
        .filter(|_| std::env::var_os("PENCILC_NO_WATCHDOG").is_none());
    let compile_one = |index: usize, f: &PathBuf| {
        let r = match &exe {
            Some(exe) => pencilc::watchdog::compile_file(exe, &argv, index, f, &opts),
            None => driver::compile_file(f, &opts),
        };
        pencilc::build_step::finish(f, r, &opts, &deps)
    };
    // Each file gets its own isl context inside compile_file, so files can
    // be compiled on separate threads; deeply nested input needs their
    // large stacks (the main thread's cannot be enlarged).
    let mut pool = rayon::ThreadPoolBuilder::new().stack_size(driver::COMPILE_STACK_BYTES);
    if let Some(j) = cli.jobs {
        pool = pool.num_threads(j.max(1));
    }
    let pool = match pool.build() {
        Ok(p) => p,
        Err(e) => {
            return usage(Diagnostic::error(
                Code::Usage,
                None,
                format!("cannot start the compile threads: {}", e),
            ))
        }
    };
    if let Some(index) = cli.internal_file_worker {
        let Some(file) = cli.files.get(index) else {
            return ExitCode::from(2);
        };
        let r = pool.install(|| driver::compile_file(file, &opts));
        println!("{}", pencilc::watchdog::result_line(&r));
        return ExitCode::SUCCESS;
    }
    let wall = std::time::Instant::now();
    let progress = pencilc::batch::Progress::new(cli.files.len());
    let results: Vec<_> = pool.install(|| {
        cli.files
            .par_iter()
            .enumerate()
            .map(|(i, f)| (f, std::time::Instant::now(), compile_one(i, f)))
            .map(|(f, t, r)| (f, t.elapsed(), r))
            .inspect(|(f, _, _)| progress.inc(f))
            .collect()
    });
    progress.finish();
    let failed = report(&results, &cli, &opts, &device, format, wall.elapsed());
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// What each file's compilation says (warnings, dumps, `-v`), and the
/// batch summary for several files; how many failed.
fn report(
    results: &[(
        &PathBuf,
        std::time::Duration,
        pencilc::build_step::FileResult,
    )],
    cli: &Cli,
    opts: &Options,
    device: &pencilc::device::Device,
    format: MessageFormat,
    wall: std::time::Duration,
) -> usize {
    let say = |d: &Diagnostic, format: MessageFormat| eprint!("{}", d.format(format));
    let verbose = |file: &std::path::Path, line: String| match format {
        MessageFormat::Human => eprintln!("pencilc: {}: {}", file.display(), line),
        MessageFormat::Json => eprintln!(
            "{}",
            serde_json::json!({ "type": "verbose", "file": file.display().to_string(), "message": line })
        ),
    };
    let mut failed = 0;
    for (file, elapsed, r) in results {
        match r {
            Ok(rep) => {
                for w in &rep.warnings {
                    say(w, format);
                }
                print!("{}", rep.dump);
                if cli.dump_sizes {
                    println!("{{ {} }}", rep.sizes.join("; "));
                }
                if opts.verbose {
                    verbose(file, format!("device {}", device.name));
                    for p in rep.placements.iter().chain(&rep.gpu_model) {
                        verbose(file, p.clone());
                    }
                    let stages: Vec<String> = rep
                        .timings
                        .iter()
                        .map(|(s, ms)| format!("{} {:.1}ms", s, ms))
                        .collect();
                    verbose(
                        file,
                        format!(
                            "{} region(s), {} kernel(s), parallel dims {:?}, {:.1} ms [{}]",
                            rep.regions,
                            rep.kernels,
                            rep.parallel_dims,
                            elapsed.as_secs_f64() * 1e3,
                            stages.join(", ")
                        ),
                    );
                    for w in &rep.written {
                        match format {
                            MessageFormat::Human => eprintln!("pencilc: wrote {}", w.display()),
                            MessageFormat::Json => verbose(file, format!("wrote {}", w.display())),
                        }
                    }
                }
            }
            Err(diags) => {
                failed += 1;
                for d in diags {
                    say(d, format);
                }
            }
        }
    }
    if cli.files.len() > 1 {
        let rows: Vec<_> = results
            .iter()
            .map(|(f, t, r)| pencilc::batch::row(f, *t, r))
            .collect();
        match format {
            MessageFormat::Human => {
                eprint!("{}", pencilc::batch::summary_table(&rows, wall))
            }
            MessageFormat::Json => {
                eprintln!("{}", pencilc::batch::summary_json(&rows, wall))
            }
        }
    }
    failed
}

/// The compilation's options from the command line, each checked (a
/// usage error otherwise), with the device description and the
/// dependency-file options.
fn options(
    cli: &Cli,
    argv: &[std::ffi::OsString],
) -> Result<(Options, pencilc::device::Device, DepOptions), Diagnostic> {
    if cli.output.is_some() && cli.files.len() > 1 {
        return Err(Diagnostic::error(
            Code::Usage,
            None,
            "-o names one output file, but several inputs were given",
        )
        .with_hint("use --output-dir DIR for several inputs"));
    }
    if cli.tile_size < 1 {
        return Err(Diagnostic::error(
            Code::Usage,
            None,
            "--tile-size must be positive",
        ));
    }
    let deps = dep_options(cli)?;
    let target = match cli.target {
        TargetArg::Opencl => Target::OpenCl,
        TargetArg::Cuda => Target::Cuda,
        TargetArg::C => Target::C,
    };
    let device = match &cli.device {
        Some(d) => pencilc::device::Device::lookup(d)?,
        None if target == Target::Cuda => pencilc::device::Device::default_for_cuda(),
        None => pencilc::device::Device::default_for_opencl(),
    };
    let mut map = pencilc::map::MapOptions::for_device(&device);
    if target == Target::Cuda {
        // gridDim.y is at most 65535 blocks; gridDim.x at most 2^31 - 1.
        map.grid_limit = [65535, i32::MAX as i64];
    }
    map.tile_size = cli.tile_size;
    // OpenCL by default on GPUs only: on a CPU one work-group runs on
    // one core, where the launches it replaces ran on all of them. An
    // OpenCL device, or the kernel's registers, may allow fewer
    // work-items in a group than the block has: the program asks the
    // kernel (`CL_KERNEL_WORK_GROUP_SIZE`) before the fused launch and
    // runs the loop's launches where it may not (`one_block_fallback`).
    map.one_block_fallback = target == Target::OpenCl;
    map.one_block_loops = match (cli.one_block_loops, target) {
        (OneBlockArg::Never, _) => pencilc::map::OneBlockLoops::Never,
        (OneBlockArg::Auto, Target::Cuda) => pencilc::map::OneBlockLoops::Auto,
        (OneBlockArg::Auto, Target::OpenCl) if device.gpu_model.is_some() => {
            pencilc::map::OneBlockLoops::Auto
        }
        (OneBlockArg::Always, Target::Cuda | Target::OpenCl) => pencilc::map::OneBlockLoops::Always,
        (OneBlockArg::Auto, _) => pencilc::map::OneBlockLoops::Never,
        (OneBlockArg::Always, _) => {
            return Err(Diagnostic::error(
                Code::Usage,
                None,
                "--one-block-loops always is an option of --target cuda and --target opencl",
            )
            .with_hint("drop it, or compile with --target cuda or --target opencl"))
        }
    };
    map.mem.shared = !cli.no_shared_memory;
    map.mem.private = !cli.no_private_memory;
    map.mem.shared_write_back |= cli.shared_write_back;
    if let Some(m) = cli.max_shared_memory {
        if m < -1 {
            return Err(Diagnostic::error(
                Code::Usage,
                None,
                "--max-shared-memory must be -1 (unlimited) or a number of bytes",
            ));
        }
        map.mem.max_shared_bytes = m;
    }
    if let Some(s) = &cli.sizes {
        let isl = pencilc::isl::Isl::new(pencilc::isl::DEFAULT_MAX_OPERATIONS);
        pencilc::map::sizes::check(&isl, s)?;
        map.sizes = Some(s.clone());
    }
    let warnings = if cli.no_warnings {
        WarningPolicy::Ignore
    } else if cli.werror.last().map(String::as_str) == Some("error") {
        WarningPolicy::Error
    } else {
        WarningPolicy::Report
    };
    if cli.openmp && target != Target::C {
        return Err(
            Diagnostic::error(Code::Usage, None, "--openmp is an option of --target c")
                .with_hint("use --target c --openmp, and build the output with -fopenmp"),
        );
    }
    // `--hoist always` asks for something the run would silently not do.
    let hoist_conflict = match cli.hoist {
        HoistArg::Always if matches!(cli.scheduler, SchedulerArg::Isl) => Some((
            "--scheduler isl schedules with isl's",
            "drop --hoist always, or use --scheduler pluto",
        )),
        HoistArg::Always if cli.load_schedule.is_some() => Some((
            "--load-schedule takes the file's as written",
            "drop --hoist always, or save the hoisted schedules with --hoist always --save-schedule",
        )),
        _ => None,
    };
    if let Some((other, hint)) = hoist_conflict {
        return Err(Diagnostic::error(
            Code::Usage,
            None,
            format!(
                "--hoist always moves loops of pencilc's own schedules, and {}",
                other
            ),
        )
        .with_hint(hint));
    }
    if let Some(o) = &cli.output {
        pencilc::back::check_host_name(target, o)?;
    }
    let gpu_model_params = match cli
        .gpu_model_params
        .as_deref()
        .map(pencilc::profile::params::parse_given)
        .transpose()
    {
        Ok(p) => p.unwrap_or_default(),
        Err(e) => return Err(e),
    };
    let emit_gpu_model = matches!(cli.emit, Some(EmitArg::GpuModel));
    if emit_gpu_model && target == Target::C {
        return Err(Diagnostic::error(
            Code::Usage,
            None,
            "--emit gpu-model profiles a device version, which --target c has none of",
        )
        .with_hint("use --target cuda or --target opencl with a GPU --device"));
    }
    // A description without `[gpu_model]` (a CPU's) gets no report under
    // -v; asked for explicitly, the profile comes with default constants.
    let gpu_model = device.gpu_model().or_else(|| {
        emit_gpu_model.then(|| pencilc::device::GpuModelTable::default().fill(&device))
    });
    let opts = Options {
        target,
        openmp: cli.openmp,
        versioning: !cli.no_versioning,
        costs: device.cost_model(),
        choice_follows_gpu_model: device.choice_follows_gpu_model(),
        device_name: device.name.clone(),
        gpu_model,
        gpu_model_params,
        output: cli.output.clone(),
        output_dir: cli.output_dir.clone(),
        cpp: CppOptions {
            cpp: Some(cli.cpp.clone()),
            include_dirs: cli.include.clone(),
            defines: cli.define.clone(),
        },
        emit: cli.emit.map(|e| match e {
            EmitArg::Scop => Emit::Scop,
            EmitArg::Deps => Emit::Deps,
            EmitArg::Schedule => Emit::Schedule,
            EmitArg::GpuModel => Emit::GpuModel,
        }),
        verbose: cli.verbose,
        map,
        max_operations: cli.isl_max_operations,
        sched: pencilc::sched::SchedOptions {
            kind: match cli.scheduler {
                SchedulerArg::Pluto => pencilc::sched::SchedulerKind::Pluto,
                SchedulerArg::Isl => pencilc::sched::SchedulerKind::Isl,
            },
            fuse: match cli.fuse {
                FuseArg::Max => pencilc::sched::Fuse::Max,
                FuseArg::Smart => pencilc::sched::Fuse::Smart,
                FuseArg::Min => pencilc::sched::Fuse::Min,
            },
            worker: None,
            wavefront_tile: cli.tile_size,
            // The CPU version runs no wavefront of tiles (see
            // `driver::schedule_for_cpu`); with --openmp nothing else runs.
            wavefront: device.wavefront && !cli.openmp,
            hoist: false,
        },
        save_schedule: cli.save_schedule.clone(),
        load_schedule: cli.load_schedule.clone(),
        opencl_include: cli.opencl_include_file.clone(),
        cuda_include: cli.cuda_include_file.clone(),
        command: pencilc::cmdline::recorded(&Cli::command(), argv, NOT_RECORDED),
        warnings,
        device_file: cli
            .device
            .as_ref()
            .filter(|d| !pencilc::device::Device::is_builtin(d))
            .map(PathBuf::from),
        write_if_changed: cli.write_if_changed,
        reductions: match cli.reductions {
            ReductionsArg::Auto => pencilc::scop::ReductionMode::Auto,
            ReductionsArg::Exact => pencilc::scop::ReductionMode::Exact,
            ReductionsArg::Declared => pencilc::scop::ReductionMode::Declared,
        },
        whole_program: cli.whole_program,
        hoist: match cli.hoist {
            HoistArg::Auto => pencilc::driver::HoistPolicy::Model,
            HoistArg::Always => pencilc::driver::HoistPolicy::Always,
            HoistArg::Never => pencilc::driver::HoistPolicy::Never,
        },
        expand: match cli.expand_private {
            ExpandArg::Auto => pencilc::driver::HoistPolicy::Model,
            ExpandArg::Always => pencilc::driver::HoistPolicy::Always,
            ExpandArg::Never => pencilc::driver::HoistPolicy::Never,
        },
        split_reductions: match cli.split_reductions {
            SplitArg::Auto => pencilc::driver::HoistPolicy::Model,
            SplitArg::Always => pencilc::driver::HoistPolicy::Always,
            SplitArg::Never => pencilc::driver::HoistPolicy::Never,
        },
        region_timeout: std::time::Duration::from_secs_f64(cli.schedule_timeout),
        first_rung: cli.ladder_start.unwrap_or(pencilc::ladder::Rung::Full),
        start_rungs: cli
            .internal_region_rung
            .iter()
            .map(|&(r, rung, _)| (r, rung))
            .collect(),
        region_budgets: cli
            .internal_region_rung
            .iter()
            .filter_map(|&(r, _, t)| Some((r, t?)))
            .collect(),
        progress: cli.internal_file_worker.is_some(),
        debug_fault: cli.debug_fault.clone(),
    };
    Ok((opts, device, deps))
}

/// The dependency-file options, checked: they need -MD or -MMD, and a
/// dependency file is about one input's outputs.
fn dep_options(cli: &Cli) -> Result<DepOptions, Diagnostic> {
    let enabled = cli.md || cli.mmd;
    let refine = cli.mf.is_some() || !cli.mt.is_empty() || !cli.mq.is_empty() || cli.mp;
    if refine && !enabled {
        return Err(Diagnostic::error(
            Code::Usage,
            None,
            "-MF, -MT, -MQ and -MP shape the dependency file, which only -MD or -MMD writes",
        )
        .with_hint("add -MD (every file read) or -MMD (no system headers)"));
    }
    if enabled && cli.emit.is_some() {
        return Err(Diagnostic::error(
            Code::Usage,
            None,
            "--emit writes no files for a dependency file (-MD, -MMD) to be about",
        ));
    }
    let one_file = cli.mf.is_some() || !cli.mt.is_empty() || !cli.mq.is_empty();
    if one_file && cli.files.len() > 1 {
        return Err(Diagnostic::error(
            Code::Usage,
            None,
            "-MF, -MT and -MQ name one input's dependency file and targets, but several inputs were given",
        )
        .with_hint("with -MD alone each input gets its own dependency file beside its host output"));
    }
    let mut targets = cli.mt.clone();
    for q in &cli.mq {
        targets.push(pencilc::depfile::quote_target(q)?);
    }
    Ok(DepOptions {
        enabled,
        user_only: cli.mmd && !cli.md,
        file: cli.mf.clone(),
        targets,
        phony: cli.mp,
    })
}

/// clap's own errors: `--help` and `--version` as clap prints them, a
/// usage error as one JSON object if the command line asked for JSON.
fn usage_error(e: clap::Error, argv: &[std::ffi::OsString]) -> ExitCode {
    use clap::error::ErrorKind;
    let json = argv
        .windows(2)
        .any(|w| w[0] == "--message-format" && w[1] == "json")
        || argv.iter().any(|a| a == "--message-format=json");
    if json && !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let message = pencilc::cmdline::gcc_spelling(&e.render().to_string());
        let first = message
            .lines()
            .next()
            .unwrap_or("bad command line")
            .trim_start_matches("error: ")
            .to_string();
        eprint!(
            "{}",
            Diagnostic::error(Code::Usage, None, first)
                .with_hint("pencilc --help lists the options")
                .format(MessageFormat::Json)
        );
        return ExitCode::from(2);
    }
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit()
    }
    eprint!(
        "{}",
        pencilc::cmdline::gcc_spelling(&e.render().to_string())
    );
    ExitCode::from(2)
}

/// `--schedule-timeout`: positive seconds, at most a day (a larger value
/// would overflow the deadline arithmetic, and no region needs it).
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 86400.0 => Ok(v),
        Ok(_) => Err("must be more than 0 and at most 86400 seconds".into()),
        Err(_) => Err(format!("`{}` is not a number of seconds", s)),
    }
}

fn parse_rung(s: &str) -> Result<pencilc::ladder::Rung, String> {
    pencilc::ladder::Rung::parse(s).ok_or_else(|| {
        let names: Vec<&str> = pencilc::ladder::Rung::ALL
            .iter()
            .map(|r| r.name())
            .collect();
        format!("unknown rung `{}` (one of {})", s, names.join(", "))
    })
}

#[allow(clippy::type_complexity)]
fn parse_region_rung(
    s: &str,
) -> Result<(usize, pencilc::ladder::Rung, Option<std::time::Duration>), String> {
    pencilc::watchdog::parse_region_rung(s).ok_or_else(|| format!("bad region rung `{}`", s))
}
