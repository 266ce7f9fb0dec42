//! The C target runs each kernel's blocks and threads as loops, so it checks
//! the whole mapping (tiling, block and thread filters, launch sizes) quickly
//! on every PolyBench kernel pencilc handles.

#[macro_use]
mod common;
use common::*;

fn check(name: &str) {
    let src = kernel_path(name);
    let dir = scratch(&format!("c-{}", name));
    let seq = sequential_dump(&dir, &src, "MINI");
    let par = generated_dump(&dir, &src, "MINI", Target::C);
    assert_same(&seq, &par, 1e-9);
}

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
