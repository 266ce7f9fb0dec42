//! Every kernel named in the end-to-end issue: compiled to OpenCL, built
//! with the system C compiler, run on PoCL, and every output array compared
//! with the sequential program's.

#[macro_use]
mod common;
use common::*;

fn check(name: &str) {
    assert!(
        opencl_available(),
        "OpenCL headers or an ICD are missing: run scripts/setup-deps.sh (pocl-opencl-icd, ocl-icd-opencl-dev)"
    );
    let src = kernel_path(name);
    let dir = scratch(&format!("opencl-{}", name));
    let seq = sequential_dump(&dir, &src, "MINI");
    let par = generated_dump(&dir, &src, "MINI", Target::OpenCl);
    assert_same(&seq, &par, 1e-9);
}

kernels! {
    gemm => "gemm", two_mm => "2mm", atax => "atax", bicg => "bicg", mvt => "mvt",
    gesummv => "gesummv", syrk => "syrk", doitgen => "doitgen", covariance => "covariance",
    jacobi_1d => "jacobi-1d", jacobi_2d => "jacobi-2d", fdtd_2d => "fdtd-2d",
}
