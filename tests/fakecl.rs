//! The GPU mapping run on fakecl (`tests/fakecl/fakecl.c`): an OpenCL
//! runtime for tests in which every work-item is a thread and `barrier()`
//! a real pthread barrier. PoCL 3.1 miscompiles some correct kernels with
//! barriers (shared-memory write-back in adi, unrolled register tiles kept
//! across barriers in 3mm), so the code pencilc generates for GPUs, which
//! has both, is checked here against the sequential programs instead.
//!
//! The same runs build the CUDA output against tests/fakecuda (the CUDA
//! runtime emulated the same way) and compare its results too.
//!
//! One test in its own binary: it points LD_LIBRARY_PATH at fakecl for the
//! whole process, which no PoCL test may share.

mod common;
use common::*;
use std::process::Command;

fn build_fakecl() -> std::path::PathBuf {
    let dir = root().join("target/fakecl");
    std::fs::create_dir_all(&dir).unwrap();
    let lib = dir.join("libOpenCL.so.1");
    let out = Command::new("cc")
        .args(["-O2", "-fPIC", "-shared", "-o"])
        .arg(&lib)
        .arg(root().join("tests/fakecl/fakecl.c"))
        .args(["-ldl", "-lpthread"])
        .output()
        .expect("run cc");
    assert!(
        out.status.success(),
        "building fakecl: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

#[test]
fn gpu_mapped_polybench_is_correct_with_real_barriers() {
    assert!(
        opencl_available(),
        "OpenCL headers are missing: run scripts/setup-deps.sh (ocl-icd-opencl-dev)"
    );
    let dir = build_fakecl();
    // This process only: every OpenCL program the harness runs gets fakecl.
    std::env::set_var("LD_LIBRARY_PATH", &dir);
    // Every kernel at MINI mapped for a GPU: write-back, register tiles
    // across barriers, time loops around parallel stencil kernels. The CUDA
    // output of the same mapping runs too, on tests/fakecuda.
    harness_all_correct_on(
        "fakecl-mini-gpu",
        "MINI",
        &[],
        &["--device", "generic-gpu"],
        Programs::OpenClAndEmulatedCuda,
    );
    // The two kernels PoCL gets wrong at SMALL, and their neighbours.
    harness_all_correct_on(
        "fakecl-small-gpu",
        "SMALL",
        &["3mm", "adi", "gemm", "correlation", "jacobi-2d"],
        &["--device", "nvidia-h100"],
        Programs::OpenClAndEmulatedCuda,
    );
    // Buffers that wrap the user's arrays (zero copy, issue 34) on a
    // device whose memory is not the host's: only the map at the end of a
    // region brings the kernels' results back, and the chunked, staged
    // CUDA copies run with them.
    std::env::set_var("PENCILC_ZERO_COPY", "1");
    harness_all_correct_on(
        "fakecl-mini-zero-copy",
        "MINI",
        &[
            "atax",
            "gemver",
            "correlation",
            "lu",
            "jacobi-2d",
            "durbin",
            "trisolv",
        ],
        &["--device", "generic-gpu"],
        Programs::OpenClAndEmulatedCuda,
    );
}
