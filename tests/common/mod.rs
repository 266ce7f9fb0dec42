//! Shared helpers for the end-to-end tests: compile a PolyBench kernel with
//! pencilc, build and run the generated program and the sequential one, and
//! compare every dumped array.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// One `#[test]` per kernel: `kernels! { gemm => "gemm", ... }` calls
/// `check(name)` from the including file.
#[macro_export]
macro_rules! kernels {
    ($($f:ident => $n:expr),* $(,)?) => { $( #[test] fn $f() { check($n); } )* };
}
/// One `#[test]` per kernel of polybench/kernels.txt (all 30), calling
/// `check(name)` from the including file.
#[macro_export]
macro_rules! all_polybench_kernels {
    () => {
        kernels! {
            gemm => "gemm", two_mm => "2mm", three_mm => "3mm", atax => "atax", bicg => "bicg",
            mvt => "mvt", gesummv => "gesummv", gemver => "gemver", syrk => "syrk", syr2k => "syr2k",
            symm => "symm", trmm => "trmm", doitgen => "doitgen", covariance => "covariance",
            correlation => "correlation", cholesky => "cholesky", durbin => "durbin",
            gramschmidt => "gramschmidt", lu => "lu", ludcmp => "ludcmp", trisolv => "trisolv",
            floyd_warshall => "floyd-warshall", nussinov => "nussinov", adi => "adi", deriche => "deriche",
            seidel_2d => "seidel-2d", heat_3d => "heat-3d",
            jacobi_1d => "jacobi-1d", jacobi_2d => "jacobi-2d", fdtd_2d => "fdtd-2d",
        }
    };
}

use std::process::Command;
use std::sync::OnceLock;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn pencilc() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_pencilc"))
}

/// The relative path of a kernel in polybench/kernels.txt.
pub fn kernel_path(name: &str) -> PathBuf {
    let list = std::fs::read_to_string(root().join("polybench/kernels.txt")).expect("kernels.txt");
    for line in list.lines() {
        let mut parts = line.split_whitespace();
        if parts.next() == Some(name) {
            return root().join("polybench").join(parts.next().expect("path"));
        }
    }
    panic!("kernel {} not in polybench/kernels.txt", name)
}

/// The pencilc options polybench/kernels.txt gives the kernel whose source
/// is `src` (after its path), if any.
pub fn kernel_flags(src: &Path) -> Vec<String> {
    let list = std::fs::read_to_string(root().join("polybench/kernels.txt")).expect("kernels.txt");
    for line in list.lines() {
        let mut parts = line.split_whitespace();
        if let (Some(_), Some(p)) = (parts.next(), parts.next()) {
            if root().join("polybench").join(p) == src {
                return parts.map(str::to_string).collect();
            }
        }
    }
    Vec::new()
}

pub fn scratch(name: &str) -> PathBuf {
    let d = root().join("target").join("e2e").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn flags(src: &Path, dataset: &str) -> Vec<String> {
    let u = root().join("polybench/utilities");
    vec![
        "-I".into(),
        u.display().to_string(),
        "-I".into(),
        src.parent().unwrap().display().to_string(),
        format!("-D{}_DATASET", dataset),
        "-DPOLYBENCH_DUMP_ARRAYS".into(),
    ]
}

pub fn run(cmd: &mut Command, what: &str) -> std::process::Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{}: cannot run: {}", what, e));
    if !out.status.success() {
        panic!(
            "{} failed ({}):\nstdout:\n{}\nstderr:\n{}",
            what,
            out.status,
            String::from_utf8_lossy(&out.stdout),
            tail(&String::from_utf8_lossy(&out.stderr), 4000)
        );
    }
    out
}

fn tail(s: &str, n: usize) -> &str {
    if s.len() > n {
        &s[s.len() - n..]
    } else {
        s
    }
}

/// Builds and runs the sequential program; returns its array dump.
pub fn sequential_dump(dir: &Path, src: &Path, dataset: &str) -> String {
    let exe = dir.join("seq");
    let mut cc = Command::new("cc");
    cc.arg("-O2")
        .args(flags(src, dataset))
        .arg(root().join("polybench/utilities/polybench.c"))
        .arg(src)
        .arg("-lm")
        .arg("-o")
        .arg(&exe);
    run(&mut cc, "building the sequential program");
    let out = run(&mut Command::new(&exe), "running the sequential program");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub enum Target {
    OpenCl,
    C,
    /// The C target with `--openmp`, built with -fopenmp and run on three
    /// threads (more than this machine's cores, so that iterations of a
    /// parallel loop interleave).
    OpenMp,
}

/// Compiles `src` with pencilc, builds the result, runs it and returns its dump.
pub fn generated_dump(dir: &Path, src: &Path, dataset: &str, target: Target) -> String {
    generated_dump_with(dir, src, dataset, target, &[])
}

/// `generated_dump` with extra pencilc arguments.
pub fn generated_dump_with(
    dir: &Path,
    src: &Path,
    dataset: &str,
    target: Target,
    extra: &[&str],
) -> String {
    let host = dir.join(match target {
        Target::OpenCl => "prog_host.c",
        Target::C | Target::OpenMp => "prog_pencilc.c",
    });
    let mut p = Command::new(pencilc());
    p.arg("--target")
        .arg(match target {
            Target::OpenCl => "opencl",
            Target::C | Target::OpenMp => "c",
        })
        .args(if let Target::OpenMp = target {
            &["--openmp"][..]
        } else {
            &[]
        })
        .args(flags(src, dataset))
        .args(kernel_flags(src))
        .args(extra)
        .arg("-o")
        .arg(&host)
        .arg(src);
    run(&mut p, "pencilc");
    let exe = dir.join("par");
    let mut cc = Command::new("cc");
    cc.arg("-O2")
        .args(flags(src, dataset))
        .arg(root().join("polybench/utilities/polybench.c"))
        .arg(&host);
    match target {
        Target::OpenCl => {
            cc.arg("-lOpenCL");
        }
        Target::OpenMp => {
            cc.arg("-fopenmp");
        }
        Target::C => {}
    }
    cc.arg("-lm").arg("-o").arg(&exe);
    run(&mut cc, "building the generated program");
    // Run from another directory: the program must not need its kernel file.
    let mut r = Command::new(&exe);
    r.current_dir(std::env::temp_dir())
        .env("PENCILC_OPENCL_DEVICE", "cpu")
        .env("PENCILC_RUN", "device");
    omp_env(&mut r);
    let out = run(&mut r, "running the generated program");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The environment of OpenMP programs in tests: three threads, which
/// sleep rather than spin at barriers (the machine's cores are shared:
/// a spinning thread whose partner is descheduled wastes its time slice).
pub fn omp_env(cmd: &mut Command) {
    cmd.env("OMP_NUM_THREADS", "3")
        .env("OMP_WAIT_POLICY", "passive");
}

/// Compares dumps array by array. `rel` is the tolerance for floating-point
/// contraction and reassociation of the same operations.
pub fn assert_same(seq: &str, par: &str, rel: f64) {
    let c = pencilc::harness::compare::compare_dumps(seq, par, rel);
    assert!(c.ok(), "{}", c.summary());
}

/// Whether OpenCL can run here (PoCL installed).
pub fn opencl_available() -> bool {
    Path::new("/usr/include/CL/cl.h").exists()
        && std::fs::read_dir("/etc/OpenCL/vendors")
            .map(|mut d| d.next().is_some())
            .unwrap_or(false)
}

/// nvcc from PyPI (scripts/setup-nvcc.sh), installed once per test
/// binary; `None` (with a note) where it cannot be installed.
pub fn nvcc() -> Option<PathBuf> {
    static NVCC: OnceLock<Option<PathBuf>> = OnceLock::new();
    NVCC.get_or_init(|| {
        let out = Command::new("bash")
            .arg(root().join("scripts/setup-nvcc.sh"))
            .output()
            .ok()?;
        if !out.status.success() {
            eprintln!(
                "nvcc unavailable ({})",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            return None;
        }
        let p = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        p.exists().then_some(p)
    })
    .clone()
}

/// Runs the PolyBench harness (the OpenCL programs, one run each) on
/// `kernels` (empty: all) at `dataset` with extra pencilc `args`, in
/// target/e2e/`work`, prints its table, and asserts that every kernel
/// compiled, ran and matched the sequential program. Returns the results.
pub fn harness_all_correct(
    work: &str,
    dataset: &str,
    kernels: &[&str],
    args: &[&str],
) -> Vec<pencilc::harness::KernelResult> {
    harness_all_correct_in(
        pencilc::harness::Mode::Default,
        work,
        dataset,
        kernels,
        args,
    )
}

/// `harness_all_correct` with PolyBench built in `mode`.
pub fn harness_all_correct_in(
    mode: pencilc::harness::Mode,
    work: &str,
    dataset: &str,
    kernels: &[&str],
    args: &[&str],
) -> Vec<pencilc::harness::KernelResult> {
    run_harness(HarnessRun {
        mode,
        kernels,
        args,
        ..HarnessRun::new(work, dataset)
    })
}

/// `harness_all_correct` with other `-D` flags for both builds and pencilc
/// (`--cflags`).
pub fn harness_all_correct_with_cflags(
    work: &str,
    dataset: &str,
    cflags: &[&str],
) -> Vec<pencilc::harness::KernelResult> {
    run_harness(HarnessRun {
        cflags,
        ..HarnessRun::new(work, dataset)
    })
}

/// Which generated programs the harness runs and compares.
#[derive(Clone, Copy, PartialEq)]
pub enum Programs {
    OpenCl,
    /// OpenCL, and the CUDA output built against tests/fakecuda and run on
    /// the CPU.
    OpenClAndEmulatedCuda,
    EmulatedCuda,
}

/// `harness_all_correct` over the chosen programs.
pub fn harness_all_correct_on(
    work: &str,
    dataset: &str,
    kernels: &[&str],
    args: &[&str],
    programs: Programs,
) -> Vec<pencilc::harness::KernelResult> {
    run_harness(HarnessRun {
        kernels,
        args,
        programs,
        ..HarnessRun::new(work, dataset)
    })
}

/// `harness_all_correct` over every kernel, with a cold first run of each
/// OpenCL program timed (`KernelResult::opencl_first_run_ms`): PoCL's
/// kernel cache off, as a user's first run.
pub fn harness_all_correct_timing_first_runs(
    work: &str,
    dataset: &str,
    args: &[&str],
) -> Vec<pencilc::harness::KernelResult> {
    run_harness(HarnessRun {
        args,
        first_run: true,
        ..HarnessRun::new(work, dataset)
    })
}

/// One harness run of the tests: in target/e2e/`work`, at `dataset`, on
/// `kernels` (empty: all), pencilc given `args`, PolyBench built in
/// `mode` with `cflags`.
struct HarnessRun<'a> {
    mode: pencilc::harness::Mode,
    work: &'a str,
    dataset: &'a str,
    kernels: &'a [&'a str],
    args: &'a [&'a str],
    programs: Programs,
    cflags: &'a [&'a str],
    /// Time a cold first run of each OpenCL program (results only
    /// otherwise: a cold run builds every kernel once more).
    first_run: bool,
}

impl<'a> HarnessRun<'a> {
    fn new(work: &'a str, dataset: &'a str) -> HarnessRun<'a> {
        HarnessRun {
            mode: pencilc::harness::Mode::Default,
            work,
            dataset,
            kernels: &[],
            args: &[],
            programs: Programs::OpenCl,
            cflags: &[],
            first_run: false,
        }
    }
}

fn run_harness(run: HarnessRun) -> Vec<pencilc::harness::KernelResult> {
    let HarnessRun {
        mode,
        work,
        dataset,
        kernels,
        args,
        programs,
        cflags,
        first_run,
    } = run;
    use pencilc::harness::{self, report, CudaRun, HarnessOptions};
    let emulate_cuda = programs != Programs::OpenCl;
    let mut opts = HarnessOptions::new(
        root().join("polybench"),
        pencilc(),
        root().join("target/e2e").join(work),
    );
    opts.dataset = dataset.into();
    opts.mode = mode;
    opts.cflags.extend(cflags.iter().map(|s| s.to_string()));
    opts.runs = 1;
    opts.first_run = first_run;
    opts.kernels = kernels.iter().map(|s| s.to_string()).collect();
    opts.pencilc_args = args.iter().map(|s| s.to_string()).collect();
    opts.opencl = programs != Programs::EmulatedCuda;
    // Every version of every region, each compared.
    opts.versions = harness::Versions::All;
    if emulate_cuda {
        opts.cuda = CudaRun::Emulated {
            cxx: "c++".into(),
            runtime: fakecuda(),
        };
    }
    let results = harness::run_suite(&opts, &|r| {
        eprintln!(
            "{}: {}{}",
            r.name,
            if r.correct { "correct" } else { "NOT CORRECT" },
            match r.cuda_correct {
                Some(true) => ", CUDA correct",
                Some(false) => ", CUDA NOT CORRECT",
                None => "",
            }
        )
    })
    .unwrap();
    let table = report::table(&results, &opts);
    println!("{}", table);
    let bad: Vec<String> = results
        .iter()
        .filter(|r| {
            !r.correct || r.error.is_some() || (emulate_cuda && r.cuda_correct != Some(true))
        })
        .map(|r| format!("{}: {}", r.name, report::note(r)))
        .collect();
    assert!(bad.is_empty(), "{}\n{}", bad.join("\n"), table);
    results
}

/// The CUDA runtime emulation (tests/fakecuda).
pub fn fakecuda() -> PathBuf {
    root().join("tests/fakecuda")
}

/// Builds pencilc's CUDA output as a CPU program against tests/fakecuda
/// (`pencilc::harness::emulate::build`: the host file, C, with `cc`, the
/// kernel file with `c++`); `flags` go to both compilers (-I, -D),
/// `objects` are linked in.
pub fn build_emulated_cuda(
    host_c: &Path,
    kernel_cu: &Path,
    flags: &[String],
    objects: &[PathBuf],
    exe: &Path,
) {
    let compilers = pencilc::harness::emulate::Compilers {
        cc: Path::new("cc"),
        cxx: Path::new("c++"),
    };
    if let Err(e) = pencilc::harness::emulate::build(
        &compilers,
        &fakecuda(),
        host_c,
        kernel_cu,
        flags,
        objects,
        exe,
    ) {
        panic!("{}", e);
    }
}

/// Runs the emulated CUDA program `exe` with each version of its regions
/// (`PENCILC_RUN`: device, host, seq) and asserts that each prints `want`;
/// `what` names the program in the failure.
pub fn assert_every_version_prints(exe: &Path, want: &[u8], what: &str) {
    for version in ["device", "host", "seq"] {
        let got = run(
            Command::new(exe).env("PENCILC_RUN", version),
            "emulated CUDA program",
        );
        assert_eq!(
            String::from_utf8_lossy(&got.stdout),
            String::from_utf8_lossy(want),
            "{} on emulated CUDA (PENCILC_RUN={})",
            what,
            version
        );
    }
}

/// Builds tests/programs/`name`.c sequentially and through pencilc (with
/// `extra` arguments) for the C and OpenCL targets, runs each, and asserts
/// that they print the same. Returns pencilc's stderr of the OpenCL
/// compile (its warnings).
pub fn program_matches_sequential(name: &str, tag: &str, extra: &[&str]) -> String {
    let src = root().join("tests/programs").join(format!("{}.c", name));
    let dir = scratch(&format!("program-{}{}", name, tag));
    check_source(&src, &dir, extra)
}

/// What a program prints, run with the OpenCL CPU device. The outputs are
/// compared digit for digit, so the kernels are built without contraction
/// of `a * b + c` into fused multiply-adds, which OpenCL C allows by default
/// and PoCL does (the sequential build on x86-64 has no FMA instructions).
/// `version` is the region version it runs (`PENCILC_RUN`: OpenCL and
/// CUDA programs choose one each time a region runs).
fn program_output(exe: &Path, version: &str) -> String {
    let mut r = Command::new(exe);
    r.env("PENCILC_OPENCL_DEVICE", "cpu")
        .env("PENCILC_OPENCL_OPTIONS", "-DPENCILC_NO_FP_CONTRACT")
        .env("PENCILC_RUN", version);
    omp_env(&mut r);
    String::from_utf8_lossy(&run(&mut r, "running").stdout).into_owned()
}

/// Builds `src` sequentially and through pencilc for each target (scratch
/// files in `dir`), runs both and compares what they print. Returns
/// pencilc's stderr of the last (OpenCL) compile.
pub fn check_source(src: &Path, dir: &Path, extra: &[&str]) -> String {
    check_source_on(src, dir, extra, &["c", "openmp", "opencl"])
}

/// `src` built as the sequential program `dir/seq` (cc -O2, PENCIL's
/// headers); returns its path.
pub fn build_sequential(src: &Path, dir: &Path) -> PathBuf {
    let seq = dir.join("seq");
    run(
        Command::new("cc")
            .arg("-O2")
            .arg("-I")
            .arg(root().join("pencil-headers"))
            .arg(src)
            .arg("-lm")
            .arg("-o")
            .arg(&seq),
        "cc",
    );
    seq
}

/// `check_source` on some of the targets (`"c"`, `"openmp"`: the C target
/// with `--openmp`, built with -fopenmp and run on three threads,
/// `"opencl"`).
pub fn check_source_on(src: &Path, dir: &Path, extra: &[&str], targets: &[&str]) -> String {
    let name = src.display().to_string();
    let (src, dir) = (src.to_path_buf(), dir.to_path_buf());
    let seq = build_sequential(&src, &dir);
    let expected = program_output(&seq, "seq");
    let mut warnings = String::new();
    for (target, file, libs) in [
        ("c", "p_pencilc.c", vec!["-lm"]),
        ("openmp", "p_openmp.c", vec!["-fopenmp", "-lm"]),
        ("opencl", "p_host.c", vec!["-fopenmp", "-lOpenCL", "-lm"]),
    ]
    .into_iter()
    .filter(|(t, _, _)| targets.contains(t))
    {
        let host = dir.join(file);
        let target_args: &[&str] = match target {
            "openmp" => &["--target", "c", "--openmp"],
            t => &["--target", t],
        };
        let out = run(
            Command::new(pencilc())
                .args(target_args)
                .args(extra)
                .arg("-o")
                .arg(&host)
                .arg(&src),
            "pencilc",
        );
        warnings = String::from_utf8_lossy(&out.stderr).into_owned();
        if target == "opencl" {
            check_opencl_strictly(&dir.join("p_kernel.cl"));
        }
        let exe = dir.join(format!("par-{}", target));
        // The output lives elsewhere: the program's own headers are found
        // through the source's folder, as a user's build would say. A
        // pointer of another type passed to generated code (an outlined
        // region's array parameter of another shape) is an error, not the
        // warning C makes it.
        run(
            Command::new("cc")
                .arg("-O2")
                .arg("-Werror=incompatible-pointer-types")
                .arg("-I")
                .arg(root().join("pencil-headers"))
                .arg("-I")
                .arg(src.parent().unwrap())
                .arg(&host)
                .args(&libs)
                .arg("-o")
                .arg(&exe),
            "cc (generated)",
        );
        // Every version of each region: the device's, the host's and the
        // original code (the C target has one).
        let versions: &[&str] = if target == "opencl" {
            &["device", "host", "seq"]
        } else {
            &["device"]
        };
        for v in versions {
            assert_eq!(
                program_output(&exe, v),
                expected,
                "{} on target {} (PENCILC_RUN={})",
                name,
                target,
                v
            );
        }
    }
    warnings
}

/// Builds generated kernels with clang's OpenCL C 1.2 front end for SPIR,
/// stricter than PoCL (which builds for the host CPU, where `long long`
/// is still 64 bits). Without clang, PoCL's build when the program runs is
/// the check.
/// A clang that checks OpenCL C, if one is installed (records the skip
/// otherwise).
pub fn strict_opencl_compiler() -> Option<&'static str> {
    let clang = [
        "clang", "clang-18", "clang-17", "clang-16", "clang-15", "clang-14",
    ]
    .into_iter()
    .find(|c| Command::new(c).arg("--version").output().is_ok());
    if clang.is_none() {
        skipped(
            "strict OpenCL C checks",
            "no clang (scripts/setup-deps.sh installs it); PoCL's build is the only check",
        );
    }
    clang
}

fn check_opencl_strictly(kernel: &Path) {
    let Some(clang) = strict_opencl_compiler() else {
        return;
    };
    run(
        Command::new(clang)
            .args(["-x", "cl", "-cl-std=CL1.2", "-target", "spir64"])
            .args(["-Xclang", "-finclude-default-header", "-fsyntax-only"])
            .args(["-Werror=implicit-function-declaration"])
            .arg(kernel),
        "clang (OpenCL C 1.2, strict)",
    );
}

/// A test that cannot run because a tool is missing. With
/// `PENCILC_NO_SKIP` set (CI sets it) that is a failure; otherwise the test
/// is listed in `target/test-skips.txt`, which `scripts/test.sh` prints in
/// its summary, so that no test passes without having run.
pub fn skipped(test: &str, why: &str) {
    if std::env::var_os("PENCILC_NO_SKIP").is_some() {
        panic!("{} cannot run: {} (PENCILC_NO_SKIP is set)", test, why);
    }
    eprintln!("SKIPPED: {}: {}", test, why);
    let path = root().join("target/test-skips.txt");
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        use std::io::Write;
        let _ = writeln!(f, "{}: {}", test, why);
    }
}

/// The sum of the region estimates (ms) in `pencilc --emit gpu-model`'s
/// records.
pub fn region_estimates_ms(records: &str) -> f64 {
    records
        .lines()
        .filter(|l| l.starts_with("region\t"))
        .flat_map(|l| l.split('\t'))
        .filter_map(|f| f.strip_prefix("estimate_ms="))
        .map(|v| v.parse::<f64>().unwrap())
        .sum()
}
