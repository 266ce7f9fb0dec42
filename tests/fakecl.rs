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
    loops_play_in_one_work_group_only_where_the_device_allows_it();
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

/// `--one-block-loops auto` on OpenCL with a GPU's description (the
/// H100's: 1,024 work-items): the time loop of `one_block_loops.c` runs
/// as one launch of one work-group on a device that allows it, and as
/// its 80 launches where the device allows 512 (fakecl refuses a launch
/// beyond its limit, and drops the kernel's required size as a device
/// compiler would see `PENCILC_MAX_GROUP`); the sequential results both
/// times. fakecl's launch log (`FAKECL_LAUNCHES`) tells them apart.
fn loops_play_in_one_work_group_only_where_the_device_allows_it() {
    let src = root().join("tests/programs/one_block_loops.c");
    let dir = scratch("fakecl-one-block-loops");
    let seq = build_sequential(&src, &dir);
    let expected = run(&mut Command::new(&seq), "sequential").stdout;
    let host = dir.join("p_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "opencl", "--device", "nvidia-h100", "-o"])
            .arg(&host)
            .arg(&src),
        "pencilc",
    );
    let kernels = std::fs::read_to_string(dir.join("p_kernel.cl")).expect("kernels");
    assert!(
        kernels.contains(
            "#if !defined(PENCILC_MAX_GROUP) || PENCILC_MAX_GROUP >= 1024\n__attribute__((reqd_work_group_size(1024, 1, 1)))\n#endif\n"
        ),
        "{}",
        kernels
    );
    let exe = dir.join("par");
    run(
        Command::new("cc")
            .arg("-O2")
            .arg("-I")
            .arg(root().join("pencil-headers"))
            .arg(&host)
            .args(["-fopenmp", "-lOpenCL", "-lm", "-o"])
            .arg(&exe),
        "cc (generated)",
    );
    for (most, fused) in [("1024", true), ("512", false)] {
        let log = dir.join(format!("launches-{}", most));
        let _ = std::fs::remove_file(&log);
        let out = run(
            Command::new(&exe)
                .env("PENCILC_RUN", "device")
                .env("FAKECL_MAX_WORK_GROUP", most)
                .env("FAKECL_LAUNCHES", &log),
            "the generated program on fakecl",
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&expected),
            "work-groups of at most {}",
            most
        );
        let launches = std::fs::read_to_string(&log).expect("fakecl's launch log");
        let lines: Vec<&str> = launches.lines().collect();
        if fused {
            assert_eq!(lines.len(), 1, "{}", launches);
            assert!(lines[0].ends_with(" 1024 1"), "{}", launches);
        } else {
            // 20 steps of 4 launches, none of them the fused kernel's.
            assert_eq!(lines.len(), 80, "{}", launches);
            assert!(lines.iter().all(|l| !l.contains(" 1024 ")), "{}", launches);
        }
    }
}
