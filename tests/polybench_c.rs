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

all_polybench_kernels!();
