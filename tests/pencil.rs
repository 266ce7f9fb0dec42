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
    let mut r = Command::new(exe);
    r.env("PENCILC_OPENCL_DEVICE", "cpu");
    String::from_utf8_lossy(&run(&mut r, "running").stdout).into_owned()
}

/// Builds and runs `name` sequentially and through pencilc; returns the
/// scratch directory (generated files are `p_host.c`, `p_kernel.cl`) and
/// pencilc's `-v` report for OpenCL.
fn check_with(name: &str, tag: &str, extra: &[&str]) -> (PathBuf, String) {
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
        ("opencl", "p_host.c", vec!["-lOpenCL", "-lm"]),
    ] {
        let host = dir.join(file);
        let out = run(
            Command::new(pencilc())
                .args(["-v", "--target", target])
                .args(extra)
                .arg("-o")
                .arg(&host)
                .arg(&src),
            "pencilc",
        );
        if target == "opencl" {
            report = String::from_utf8_lossy(&out.stderr).into_owned();
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
        assert_eq!(stdout_of(&exe), expected, "{} on target {}", name, target);
    }
    build_cuda(&src, &dir, extra);
    (dir, report)
}

/// The CUDA output must build with nvcc (PENCIL's builtins and the atomic
/// reduction helpers included); no GPU here, so it is not run.
fn build_cuda(src: &Path, dir: &Path, extra: &[&str]) {
    let Some(nvcc) = nvcc() else {
        eprintln!("SKIPPED: CUDA build of {}: no nvcc", src.display());
        return;
    };
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
    let host = dir.join("p_host.cu");
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
    let defines: Vec<&String> = extra.iter().filter(|a| a.starts_with("-D")).collect();
    run(
        Command::new(&nvcc)
            .arg("-arch=sm_90")
            .arg("-I")
            .arg(headers())
            .args(&defines)
            .arg(&host)
            .arg(dir.join("p_kernel.cu"))
            .arg("-o")
            .arg(dir.join("par-cuda")),
        "nvcc",
    );
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

/// Host-to-device copies of `array` in the generated host code.
fn copies_in(dir: &Path, array: &str) -> usize {
    read(dir.join("p_host.c"))
        .matches(&format!(
            "clEnqueueWriteBuffer(pencilc_queue, dev_{},",
            array
        ))
        .count()
}

#[test]
fn histogram_reduction_is_an_atomic_parallel_kernel() {
    let (dir, report) = check("histogram");
    assert!(kernels(&dir).contains("pencilc_atomic_add_int(&hist["));
    assert!(report.contains("parallel dims [1, 2]"), "{}", report);
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
    let (dir, report) = check("gemm_assume");
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
    assert!(k.contains("shared_A[m0 - shared_A_o0]"), "{}", k);
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
