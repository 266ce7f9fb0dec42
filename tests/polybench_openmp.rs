//! `--target c --openmp`: every PolyBench kernel's CPU version (tiled,
//! OpenMP `parallel for` on its parallel loops), built with -fopenmp and
//! run on three threads, against the sequential program: at MINI with
//! tiles of 4 (so that every parallel loop has several iterations to
//! share) and at SMALL with the default tiles.

#[macro_use]
mod common;
use common::*;

fn check(name: &str) {
    let src = kernel_path(name);
    for (dataset, extra) in [("MINI", &["-S", "4"][..]), ("SMALL", &[][..])] {
        let dir = scratch(&format!("openmp-{}-{}", name, dataset));
        let seq = sequential_dump(&dir, &src, dataset);
        let par = generated_dump_with(&dir, &src, dataset, Target::OpenMp, extra);
        assert_same(&seq, &par, 1e-9);
        // The parallel loops are there: a CPU version that lost them would
        // pass unnoticed. Every kernel has some (ludcmp's sums run as
        // reductions since they are found in the code).
        let code = std::fs::read_to_string(dir.join("prog_pencilc.c")).unwrap();
        let loops = code.matches("#pragma omp parallel for").count();
        assert!(loops > 0, "{} at {}: no OpenMP loop", name, dataset);
    }
}

all_polybench_kernels!();
