//! The fallback ladder: a region whose compilation runs out of isl's
//! operation budget or of its time falls back to simpler choices, each
//! with a warning, down to the region's own code on the host. Every rung
//! is forced here (`--ladder-start`, and real exhaustion through tiny
//! budgets) and the programs still give the sequential results on PoCL.

mod common;
use common::*;
use std::process::Command;

/// Kernels that exercise what the rungs give up: shared tiles (gemm,
/// correlation), wavefronts (seidel-2d, jacobi-2d), many statements (adi),
/// triangular domains (lu, nussinov).
const KERNELS: &[&str] = &[
    "gemm",
    "jacobi-2d",
    "seidel-2d",
    "lu",
    "nussinov",
    "adi",
    "correlation",
];

fn rung(name: &str) -> Vec<pencilc::harness::KernelResult> {
    harness_all_correct(
        &format!("ladder-{}", name),
        "MINI",
        KERNELS,
        &["--ladder-start", name],
    )
}

#[test]
fn without_promotion_programs_are_correct() {
    let results = rung("no-promotion");
    assert!(results.iter().all(|r| r.kernels > 0));
}

#[test]
fn without_wavefronts_programs_are_correct() {
    let results = rung("no-wavefront");
    // seidel-2d has no parallel loop without a wavefront: its time loop
    // stays on the host or the kernel runs in order, never tiles skewed.
    assert!(results.iter().all(|r| r.kernels > 0));
}

#[test]
fn with_isl_scheduler_programs_are_correct() {
    rung("isl-scheduler");
}

#[test]
fn in_the_original_order_parallel_loops_are_kernels() {
    let results = rung("original-order");
    let get = |n: &str| results.iter().find(|r| r.name == n).unwrap();
    // gemm's outer loops carry nothing: a parallel kernel; seidel-2d's
    // loops all carry dependences: one kernel in order.
    assert!(get("gemm").parallel_dims.iter().all(|&d| d >= 1));
    assert_eq!(get("seidel-2d").parallel_dims, vec![0]);
    // jacobi-2d's i loop holds only the parallel j loop: both on the
    // grid, as a scheduler's band would be (one dimension of 32 threads
    // was all this rung gave a GPU before).
    assert_eq!(get("jacobi-2d").parallel_dims, vec![2, 2]);
}

#[test]
fn on_the_host_programs_are_the_original() {
    let results = rung("host");
    assert!(results.iter().all(|r| r.kernels == 0));
}

/// Runs `kernels` with `args`, asserting each is correct and warned about
/// falling back.
fn falls_back_with_warnings(work: &str, kernels: &[&str], args: &[&str]) {
    for r in harness_all_correct(work, "MINI", kernels, args) {
        assert!(
            r.warnings.iter().any(|w| w.contains("back to")),
            "{}: {:?}",
            r.name,
            r.warnings
        );
    }
}

/// A real exhaustion, not a forced rung: with a millisecond per region
/// every rung with isl work runs out of time, each fallback is a warning
/// naming the region, and the program is still correct.
#[test]
fn running_out_of_time_falls_back_with_warnings() {
    falls_back_with_warnings(
        "ladder-timeout",
        &["gemm", "seidel-2d"],
        &["--schedule-timeout", "0.001"],
    );
}

/// isl's operation budget exhausted in every stage: the program is the
/// region's own code, and pencilc says so.
#[test]
fn running_out_of_isl_operations_falls_back_with_warnings() {
    falls_back_with_warnings(
        "ladder-ops",
        &["gemm", "jacobi-2d"],
        &["--isl-max-operations", "200"],
    );
}

#[test]
fn timeouts_outside_the_accepted_range_are_usage_errors() {
    let src = kernel_path("gemm");
    for bad in [
        "18446744073709551615",
        "0",
        "-1",
        "nan",
        "inf",
        "1e9",
        "soon",
    ] {
        let out = Command::new(pencilc())
            .arg(format!("--schedule-timeout={}", bad))
            .args(["--emit", "scop"])
            .args(flags(&src, "MINI"))
            .arg(&src)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--schedule-timeout {}", bad);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("schedule-timeout"), "{}", err);
    }
}
