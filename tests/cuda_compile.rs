//! The CUDA output of every PolyBench kernel must build with nvcc (host,
//! kernels and the program's other sources, linked). nvcc comes from PyPI
//! through scripts/setup-nvcc.sh; where it cannot be installed the test
//! says so and is skipped, not faked.

#[macro_use]
mod common;
use common::*;
use std::process::Command;

fn check(name: &str) {
    let Some(nvcc) = nvcc() else {
        skipped(
            &format!("cuda_compile: CUDA build of {}", name),
            "nvcc could not be installed (scripts/setup-nvcc.sh)",
        );
        return;
    };
    let src = kernel_path(name);
    let dir = scratch(&format!("cuda-{}", name));
    let host = dir.join("prog_host.c");
    let mut p = Command::new(pencilc());
    p.arg("--target")
        .arg("cuda")
        .args(flags(&src, "MINI"))
        .arg("-o")
        .arg(&host)
        .arg(&src);
    run(&mut p, "pencilc --target cuda");
    for f in ["prog_host.c", "prog_kernel.cu", "prog_kernel.h"] {
        assert!(dir.join(f).exists(), "{} not written", f);
    }
    let mut cc = Command::new(&nvcc);
    cc.arg("-arch=sm_90")
        .args(flags(&src, "MINI"))
        .arg(&host)
        .arg(dir.join("prog_kernel.cu"))
        .arg(root().join("polybench/utilities/polybench.c"))
        .arg("-o")
        .arg(dir.join("prog"));
    run(&mut cc, "nvcc");
    assert!(dir.join("prog").exists());
}

all_polybench_kernels!();

/// tests/programs/`program`.c through `pencilc --target cuda` and its
/// kernel file through `nvcc -ptx` for an H100 (scratch folder `dir`):
/// the kernel file's text and the PTX. None, reported as skipped (`what`),
/// where nvcc could not be installed.
fn kernels_and_ptx(program: &str, dir: &str, what: &str) -> Option<(String, String)> {
    let Some(nvcc) = nvcc() else {
        skipped(what, "nvcc could not be installed (scripts/setup-nvcc.sh)");
        return None;
    };
    let dir = scratch(dir);
    run(
        Command::new(pencilc())
            .args(["--target", "cuda", "-o"])
            .arg(dir.join("h.c"))
            .arg(root().join("tests/programs").join(format!("{}.c", program))),
        "pencilc --target cuda",
    );
    run(
        Command::new(&nvcc)
            .args(["-arch=sm_90", "-ptx", "-o"])
            .arg(dir.join("k.ptx"))
            .arg(dir.join("h_kernel.cu")),
        "nvcc -ptx",
    );
    Some((
        std::fs::read_to_string(dir.join("h_kernel.cu")).unwrap(),
        std::fs::read_to_string(dir.join("k.ptx")).unwrap(),
    ))
}

/// A double atomic sum compiles to the hardware's atomic add on an H100
/// (`atom.global.add.f64`), not a compare-and-swap loop.
#[test]
fn double_atomic_sums_compile_to_the_hardware_add() {
    let Some((_, ptx)) = kernels_and_ptx(
        "double_histogram",
        "cuda-double-atomics",
        "cuda_compile: the double atomic add",
    ) else {
        return;
    };
    assert!(ptx.contains("atom.global.add.f64"), "{}", ptx);
    assert!(!ptx.contains("atom.global.cas"), "{}", ptx);
}

/// A reduction's last block combines its launch's partials
/// (`reduce::last_block_call`): each reduction kernel fences its
/// partials (`membar.gl`), counts its blocks with one atomic add, reads
/// the partials past the L1 cache, and no combining kernel is left.
#[test]
fn last_blocks_combine_with_a_fence_and_a_count() {
    let Some((cu, ptx)) = kernels_and_ptx(
        "reduction_epilogue",
        "cuda-last-block",
        "cuda_compile: the last block's combine",
    ) else {
        return;
    };
    let reductions = cu.matches("atomicAdd(&pencilc_done_").count();
    assert!(reductions >= 4, "{}", cu);
    assert_eq!(
        ptx.matches("atom.global.add.u32").count(),
        reductions,
        "{}",
        ptx
    );
    assert!(
        ptx.matches("membar.gl;").count() >= 2 * reductions,
        "{}",
        ptx
    );
    assert!(ptx.contains("ld.volatile.global.f64"), "{}", ptx);
    assert!(!ptx.contains("_combine"), "{}", ptx);
}
