//! The PENCIL corpus (`examples/pencil/`): each program is built as plain
//! C with pencil.h (the builtins as no-ops, the math builtins implemented)
//! and through pencilc to OpenCL (run on PoCL) and to the C target; their
//! printed results must agree. Some tests also check what an annotation
//! changed in the generated code.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn headers() -> PathBuf {
    root().join("pencil-headers")
}

fn stdout_of(exe: &Path) -> String {
    stdout_of_version(exe, "device")
}

/// What `exe` prints running `version` of its regions (`PENCILC_RUN`).
fn stdout_of_version(exe: &Path, version: &str) -> String {
    let mut r = Command::new(exe);
    r.env("PENCILC_OPENCL_DEVICE", "cpu")
        .env("PENCILC_RUN", version);
    omp_env(&mut r);
    String::from_utf8_lossy(&run(&mut r, "running").stdout).into_owned()
}

/// Builds and runs `name` sequentially and through pencilc; returns the
/// scratch directory (generated files are `p_host.c`, `p_kernel.cl`) and
/// pencilc's `-v` report for OpenCL.
fn check_with(name: &str, tag: &str, extra: &[&str]) -> (PathBuf, String) {
    check_within(name, tag, extra, 0.0)
}

/// Whether `got` matches `want` token by token, numbers within relative
/// tolerance `rel` (0: the text must be identical).
fn close(got: &str, want: &str, rel: f64) -> bool {
    if rel == 0.0 {
        return got == want;
    }
    let tokens = |s: &str| -> Vec<String> {
        s.split(|c: char| c.is_whitespace() || c == '=')
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (g, w) = (tokens(got), tokens(want));
    g.len() == w.len()
        && g.iter()
            .zip(&w)
            .all(|(a, b)| match (a.parse::<f64>(), b.parse::<f64>()) {
                // Integers (counts, integer reductions) must be exact.
                _ if a.parse::<i64>().is_ok() || b.parse::<i64>().is_ok() => a == b,
                (Ok(x), Ok(y)) => (x - y).abs() <= rel * x.abs().max(y.abs()),
                _ => a == b,
            })
}

/// `check_with`, the printed numbers compared within relative tolerance
/// `rel` (floating-point reductions add in a different order).
fn check_within(name: &str, tag: &str, extra: &[&str], rel: f64) -> (PathBuf, String) {
    let src = root().join("examples/pencil").join(format!("{}.c", name));
    let dir = scratch(&format!("pencil-{}{}", name, tag));
    let seq = dir.join("seq");
    let defines: Vec<&str> = extra
        .iter()
        .copied()
        .filter(|a| a.starts_with("-D"))
        .collect();
    run(
        Command::new("cc")
            .arg("-O2")
            .arg("-I")
            .arg(headers())
            .args(&defines)
            .arg(&src)
            .arg("-lm")
            .arg("-o")
            .arg(&seq),
        "cc (sequential)",
    );
    let expected = stdout_of(&seq);
    let mut report = String::new();
    for (target, file, libs) in [
        ("c", "p_pencilc.c", vec!["-lm"]),
        ("opencl", "p_host.c", vec!["-fopenmp", "-lOpenCL", "-lm"]),
        ("openmp", "p_omp.c", vec!["-fopenmp", "-lm"]),
    ] {
        let host = dir.join(file);
        let out = run(
            Command::new(pencilc())
                .arg("-v")
                .args(match target {
                    "openmp" => vec!["--target", "c", "--openmp"],
                    t => vec!["--target", t],
                })
                .args(extra)
                .arg("-o")
                .arg(&host)
                .arg(&src),
            "pencilc",
        );
        if target == "opencl" {
            report = String::from_utf8_lossy(&out.stderr).into_owned();
            // A rung that fails inside pencilc falls back with a
            // warning and a right program: only this says it happened
            // (an isl error on a VLA sent histogram.c to the host).
            assert!(!report.contains("internal error"), "{}: {}", name, report);
        }
        let exe = dir.join(format!("par-{}", target));
        run(
            Command::new("cc")
                .arg("-O2")
                .arg("-I")
                .arg(headers())
                .args(&defines)
                .arg(&host)
                .args(&libs)
                .arg("-o")
                .arg(&exe),
            "cc (generated)",
        );
        // OpenCL programs: every version of each region.
        let versions: &[&str] = if target == "opencl" {
            &["device", "host", "seq"]
        } else {
            &["device"]
        };
        for v in versions {
            let got = stdout_of_version(&exe, v);
            assert!(
                close(&got, &expected, rel),
                "{} on target {} (PENCILC_RUN={}): got\n{}expected\n{}",
                name,
                target,
                v,
                got,
                expected
            );
        }
    }
    let cuda = cuda_output(&src, &dir, extra);
    // Every version of each region, as for OpenCL: the CUDA host file is
    // the user's C, so its whole PENCIL functions keep the original code
    // and the host version too.
    for v in ["device", "host", "seq"] {
        let got = stdout_of_version(&cuda, v);
        assert!(
            close(&got, &expected, rel),
            "{} on target cuda (emulated on the CPU, PENCILC_RUN={}): got\n{}expected\n{}",
            name,
            v,
            got,
            expected
        );
    }
    (dir, report)
}

/// Builds the CUDA output (`cuda_host.c`, `cuda_kernel.cu`, `cuda_kernel.h`
/// beside the OpenCL program's files) against tests/fakecuda (PENCIL's
/// builtins, the atomic reduction helpers and the combine kernels
/// included) and returns the emulated program, to run on the CPU. It
/// must also build with nvcc, where nvcc can be installed; no GPU here,
/// so that build is not run.
fn cuda_output(src: &Path, dir: &Path, extra: &[&str]) -> PathBuf {
    // The OpenCL device code of a summary function has a CUDA twin.
    let extra: Vec<String> = extra
        .iter()
        .map(|a| match a.strip_suffix(".cl") {
            Some(stem) => format!("{}.cu", stem),
            None => a.to_string(),
        })
        .map(|a| {
            if a == "--opencl-include-file" {
                "--cuda-include-file".to_string()
            } else {
                a
            }
        })
        .collect();
    let host = dir.join("cuda_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "cuda", "-I"])
            .arg(headers())
            .args(&extra)
            .arg("-o")
            .arg(&host)
            .arg(src),
        "pencilc --target cuda",
    );
    let mut flags = vec!["-I".to_string(), headers().display().to_string()];
    flags.extend(extra.iter().filter(|a| a.starts_with("-D")).cloned());
    let emulated = dir.join("par-cuda-emulated");
    build_emulated_cuda(&host, &dir.join("cuda_kernel.cu"), &flags, &[], &emulated);
    let Some(nvcc) = nvcc() else {
        skipped(
            &format!("pencil: nvcc build of {}", src.display()),
            "nvcc could not be installed (scripts/setup-nvcc.sh)",
        );
        return emulated;
    };
    // The same -I and -D as the emulated build.
    run(
        Command::new(&nvcc)
            .arg("-arch=sm_90")
            .args(&flags)
            .arg(&host)
            .arg(dir.join("cuda_kernel.cu"))
            .arg("-o")
            .arg(dir.join("par-cuda")),
        "nvcc",
    );
    emulated
}

fn check(name: &str) -> (PathBuf, String) {
    check_with(name, "", &[])
}

fn read(p: PathBuf) -> String {
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {}", p.display(), e))
}

/// The text of the kernels, without the builtins pasted before them.
fn kernels(dir: &Path) -> String {
    let k = read(dir.join("p_kernel.cl"));
    k[k.find("__kernel").unwrap_or(0)..].to_string()
}

/// The OpenMP `parallel for` and `atomic` lines of the CPU version
/// (`--target c --openmp`), trimmed.
fn omp_lines(dir: &Path) -> Vec<String> {
    read(dir.join("p_omp.c"))
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("#pragma omp"))
        .map(str::to_string)
        .collect()
}

/// Host-to-device copies of `array` in the generated host code.
fn copies_in(dir: &Path, array: &str) -> usize {
    read(dir.join("p_host.c"))
        .matches(&format!("pencilc_copy_in(&pencilc_prof, dev_{},", array))
        .count()
}

#[test]
fn histogram_reduction_is_an_atomic_parallel_kernel() {
    let (dir, report) = check("histogram");
    assert!(kernels(&dir).contains("pencilc_atomic_add_int(&hist["));
    // On the CPU, `hist` (of run-time size `bins`) is updated atomically
    // inside the parallel tile loop; its clearing is a parallel loop too.
    let omp = read(dir.join("p_omp.c"));
    assert!(
        omp.contains("#pragma omp atomic\n                    hist[img[c2][c3]] += 1;"),
        "{}",
        omp
    );
    assert_eq!(omp_lines(&dir).len(), 3, "{:?}", omp_lines(&dir));
    assert!(report.contains("parallel dims [1, 2]"), "{}", report);
    assert!(
        report.contains(
            "hist: add reduction with atomic updates: integer add updates are exact as atomics"
        ),
        "{}",
        report
    );
}

#[test]
fn bfs_level_with_independent_becomes_a_parallel_kernel() {
    let (_, report) = check("bfs");
    assert!(report.contains("parallel dims [1]"), "{}", report);
}

#[test]
fn dilate_data_dependent_if_keeps_both_loops_parallel() {
    let (_, report) = check("dilate");
    assert!(report.contains("parallel dims [2]"), "{}", report);
}

#[test]
fn break_makes_the_inner_loop_one_statement_outer_loops_parallel() {
    let (_, report) = check("early_exit");
    assert!(report.contains("parallel dims [2]"), "{}", report);
}

#[test]
fn convolution_with_assume_and_private_locals() {
    let (_, report) = check("convolution");
    assert!(report.contains("parallel dims [2]"), "{}", report);
    // The assumptions bound the filter: a constant 15x15 tile in local memory.
    assert!(
        report.contains("kern_mat: shared, tile 15x15"),
        "{}",
        report
    );
}

#[test]
fn gemm_assume_multiple_of_32_has_no_boundary_guards() {
    // Computation alone, and with the memory hierarchy: the copies of the
    // A and B tiles and of C's registers are generated under the same
    // assumptions and enclosing loops, so they carry no guards either.
    // For a GPU: the CPU description keeps C's 2x1 register tile out of a
    // kernel with barriers.
    let (dir, report) = check_with("gemm_assume", "-gpu", &["--device", "nvidia-h100"]);
    assert!(report.contains("C: registers, tile 2x1"), "{}", report);
    assert!(report.contains("A: shared, tile 32x32"), "{}", report);
    assert!(report.contains("B: shared, tile 32x32"), "{}", report);
    let k = kernels(&dir);
    for guard in [
        "pencilc_min(n",
        "pencilc_max(",
        "if (n",
        "if (b",
        "if (t",
        "% 1048576",
    ] {
        assert!(!k.contains(guard), "`{}` in\n{}", guard, k);
    }
    // The only conditions left are C's initialisation at the first k tile.
    let ifs: Vec<&str> = k.lines().filter(|l| l.contains("if (")).collect();
    assert_eq!(ifs.len(), 2, "{}", k);
    assert!(k.contains("shared_A[m0][m1] = A["), "{}", k);
    let (dir, _) = check_with(
        "gemm_assume",
        "-global",
        &["--no-shared-memory", "--no-private-memory"],
    );
    let k = kernels(&dir);
    assert!(!k.contains("pencilc_min(n"), "{}", k);
    assert!(!k.contains("if (n >="), "{}", k);
}

#[test]
fn kill_removes_the_copy_in() {
    let (dir, _) = check("kill");
    assert_eq!(copies_in(&dir, "A"), 0);
    let (dir, _) = check_with("kill", "-nokill", &["-DNO_KILL"]);
    assert_eq!(copies_in(&dir, "A"), 1);
}

#[test]
fn summary_function_makes_the_abf_nest_parallel() {
    let inc = root().join("examples/pencil/abf_fft32.cl");
    let inc = inc.to_str().unwrap();
    let (dir, report) = check_with("abf", "", &["--opencl-include-file", inc]);
    assert!(report.contains("parallel dims [2]"), "{}", report);
    assert!(kernels(&dir).contains("fft32("));
    let (_, report) = check_with(
        "abf",
        "-nosummary",
        &["--opencl-include-file", inc, "-DNO_SUMMARY"],
    );
    assert!(report.contains("parallel dims [0]"), "{}", report);
}

#[test]
fn resize_with_non_affine_reads_and_kills() {
    let (dir, report) = check("resize");
    assert!(report.contains("parallel dims [2]"), "{}", report);
    assert_eq!(copies_in(&dir, "resampled"), 0);
}

/// A separable filter on `uint8_t` pixels with `reduction` clauses on the
/// tap loops (issue 15, item 3): both passes are 2-d parallel kernels.
#[test]
fn separable_filter_on_bytes_with_reduction_clauses() {
    let (_, report) = check("separable_u8");
    assert!(report.contains("parallel dims [2, 2]"), "{}", report);
}

#[test]
fn colour_conversion() {
    let (dir, _) = check("color");
    assert_eq!(copies_in(&dir, "ycc"), 0);
}

#[test]
fn gaussian_local_temp_is_never_copied() {
    let (dir, report) = check("gaussian");
    assert!(report.contains("parallel dims [2, 2]"), "{}", report);
    let host = read(dir.join("p_host.c"));
    assert!(
        !host.contains("(pencilc_queue, dev_temp,"),
        "temp is copied"
    );
}

#[test]
fn spmv_csr_rows_in_parallel() {
    let (_, report) = check("spmv");
    assert!(report.contains("parallel dims [1]"), "{}", report);
}

/// The OpenCL program built by `check_*` in `dir`, run once more.
fn rerun(dir: &Path) -> String {
    stdout_of(&dir.join("par-opencl"))
}

#[test]
fn dot_product_is_a_work_group_tree_reduction() {
    let (dir, report) = check_within("dot", "", &[], 1e-3);
    assert_eq!(
        omp_lines(&dir),
        [
            "#pragma omp declare reduction(pencilc_sum_float : float : omp_out += omp_in) initializer(omp_priv = -0.0f)",
            "#pragma omp parallel for reduction(pencilc_sum_float: d) reduction(pencilc_sum_float: sq)"
        ]
    );
    let k = kernels(&dir);
    assert!(!k.contains("pencilc_atomic_"), "{}", k);
    assert!(k.contains("__local float pencilc_tree_d[32]"), "{}", k);
    assert!(k.contains("kernel1_combine"), "{}", k);
    assert!(
        report.contains("kernel[1] d: add reduction, private copy per thread"),
        "{}",
        report
    );
    assert!(report.contains("parallel dims [0, 1, 0]"), "{}", report);
    // Deterministic for a launch geometry: the same bits on every run.
    let first = rerun(&dir);
    assert_eq!(rerun(&dir), first);
}

#[test]
fn image_max_min_mean_reduce_over_a_2d_nest() {
    let (dir, report) = check_within("image_max", "", &[], 1e-3);
    assert!(!kernels(&dir).contains("pencilc_atomic_"));
    assert!(
        omp_lines(&dir).contains(
            &"#pragma omp parallel for reduction(max: hi) reduction(min: lo) reduction(pencilc_sum_float: sum)"
                .to_string()
        ),
        "{:?}",
        omp_lines(&dir)
    );
    assert!(report.contains("parallel dims [0, 2, 0]"), "{}", report);
    assert!(report.contains("kernel[1] hi: max reduction"), "{}", report);
    assert!(report.contains("kernel[1] lo: min reduction"), "{}", report);
    assert!(
        report.contains("kernel[1] sum: add reduction"),
        "{}",
        report
    );
    // max and min are exact whatever the order.
    let out = rerun(&dir);
    assert!(
        out.starts_with("max=9.9950000e+02 min=-3.2125000e+02"),
        "{}",
        out
    );
}

#[test]
fn reduction_initialisation_precedes_every_update() {
    // The initialisation's value reaches every update, not only the first
    // (reduction updates do not kill it), and every update reaches the
    // read after the loop: no schedule can run them in the wrong order.
    let src = root().join("examples/pencil/image_max.c");
    let out = run(
        Command::new(pencilc()).args(["--emit", "deps"]).arg(&src),
        "pencilc --emit deps",
    );
    let deps = String::from_utf8_lossy(&out.stdout);
    let flow = deps.lines().find(|l| l.starts_with("flow:")).unwrap();
    for (init, update) in [("S_0", "S_3"), ("S_1", "S_4"), ("S_2", "S_5")] {
        assert!(
            flow.contains(&format!(
                "{}[] -> {}[i, j] : 0 <= i < rows and 0 <= j < cols",
                init, update
            )),
            "{}",
            flow
        );
    }
}

#[test]
fn small_float_array_reduction_gets_private_partial_arrays() {
    let (dir, report) = check_within("weighted_hist", "", &[], 1e-4);
    // Each OpenMP thread gets a copy of the 64 bins (an array section),
    // starting at -0.0 (a float sum of its own).
    assert!(
        omp_lines(&dir).contains(
            &"#pragma omp parallel for reduction(pencilc_sum_float: hist[0:64])".to_string()
        ),
        "{:?}",
        omp_lines(&dir)
    );
    let k = kernels(&dir);
    assert!(!k.contains("pencilc_atomic_"), "{}", k);
    assert!(k.contains("float pencilc_red_hist[64]"), "{}", k);
    assert!(
        report.contains("kernel[1] hist: add reduction, private copy of 64 elements per thread"),
        "{}",
        report
    );
    let first = rerun(&dir);
    assert_eq!(rerun(&dir), first);
}

#[test]
fn large_float_array_reduction_keeps_atomics_and_warns() {
    let (dir, report) = check_within("weighted_hist", "-4096", &["-DBINS=4096"], 1e-4);
    assert!(kernels(&dir).contains("pencilc_atomic_add_float(&hist["));
    assert!(
        report.contains("4096 elements are too many for a private copy per thread"),
        "{}",
        report
    );
    assert!(
        report.contains("warning") && report.contains("depend on the order"),
        "{}",
        report
    );
}

/// One launch's reductions share the local memory that the memory planner
/// leaves free for them: with 1024 threads per work-group, kernel[4]'s four
/// scalar trees would need more than that, so the last ones keep atomic
/// updates (exact for the integer ones), and the results stay right.
#[test]
fn reductions_of_one_launch_share_a_local_memory_budget() {
    let (_, report) = check_within(
        "reductions",
        "bigblock",
        &[
            "--sizes",
            "{ kernel[4] -> tile[1024]; kernel[4] -> block[1024] }",
        ],
        1e-4,
    );
    assert!(
        report.contains("with the kernel's other reductions its work-group copies would take more than 8192 bytes of local memory"),
        "{}",
        report
    );
    assert!(
        report.contains("kernel[4] count: add reduction, private copy"),
        "{}",
        report
    );
    assert!(
        report.contains("kernel[4] prod: mul reduction with atomic updates"),
        "{}",
        report
    );
}

#[test]
fn reductions_in_host_loops_conditionals_and_array_elements() {
    let (_, report) = check_within("reductions", "", &[], 1e-4);
    // One tree and one combine per launch of the host loop over t.
    assert!(
        report.contains("kernel[1] s: add reduction, private copy per thread"),
        "{}",
        report
    );
    for v in ["count: add", "kmin: min", "pos: add", "prod: mul"] {
        assert!(
            report.contains(&format!("kernel[4] {} reduction, private copy", v)),
            "{}",
            report
        );
    }
    // The 2-D kernel's work-group covers rowsum's 8 rows (32 x 8 threads,
    // not the default 32 x 16): their copies of its 8 elements take
    // 8192 bytes, which fit in local memory, so it reduces by a tree.
    assert!(
        report.contains("kernel[7] rowsum: add reduction, private copy of 8 elements per thread"),
        "{}",
        report
    );
    assert!(
        !report.contains("warning: the `reduction(add)` on `rowsum`"),
        "{}",
        report
    );
}
