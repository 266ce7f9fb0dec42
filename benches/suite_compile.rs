//! Compile time of the PolyBench suite through the pencilc binary, as users
//! run it (`cargo bench --bench suite_compile [-- NAME...]`):
//!
//! - each kernel on its own (`pencilc --target opencl FILE`, one process;
//!   median of `PENCILC_BENCH_RUNS` runs, default 3);
//! - the whole suite in one batch command, with `-j1` and with all cores.
//!
//! The dataset is PolyBench's default (LARGE); compile time barely depends
//! on it, since sizes are constants in the model.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn pencilc(
    out: &Path,
    includes: &[PathBuf],
    files: &[PathBuf],
    jobs: Option<usize>,
) -> (f64, bool) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pencilc"));
    cmd.args(["--target", "opencl", "--output-dir"]).arg(out);
    if let Some(j) = jobs {
        cmd.arg("-j").arg(j.to_string());
    }
    for i in includes {
        cmd.arg("-I").arg(i);
    }
    cmd.args(files);
    let t = Instant::now();
    let ok = cmd.output().map(|o| o.status.success()).unwrap_or(false);
    (t.elapsed().as_secs_f64() * 1e3, ok)
}

mod common;

fn main() {
    let root = common::root();
    let polybench = root.join("polybench");
    let runs: usize = std::env::var("PENCILC_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    let out = root.join("target/bench-suite");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("target/bench-suite");
    let utilities = polybench.join("utilities");

    let mut files = Vec::new();
    let mut includes = vec![utilities.clone()];
    println!("{:<16} {:>10}  status", "kernel", "median ms");
    let mut sum = 0.0;
    for (name, src) in common::polybench_kernels() {
        let dir = src.parent().unwrap().to_path_buf();
        let mut times = Vec::new();
        let mut ok = true;
        for _ in 0..runs {
            let (ms, good) = pencilc(
                &out.join("single"),
                &[utilities.clone(), dir.clone()],
                std::slice::from_ref(&src),
                None,
            );
            times.push(ms);
            ok &= good;
        }
        times.sort_by(|a, b| a.total_cmp(b));
        let med = times[times.len() / 2];
        sum += med;
        println!(
            "{:<16} {:>10.1}  {}",
            name,
            med,
            if ok { "ok" } else { "FAILED" }
        );
        files.push(src);
        includes.push(dir);
    }
    println!("{:<16} {:>10.1}", "sum", sum);

    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!();
    println!(
        "whole suite ({} files), one batch command (pencilc --output-dir DIR FILE...):",
        files.len()
    );
    let mut jobs = vec![1];
    if cores > 1 {
        jobs.push(cores);
    }
    for j in jobs {
        let (ms, ok) = pencilc(&out.join(format!("j{}", j)), &includes, &files, Some(j));
        println!(
            "  -j{:<3} {:>10.1} ms  {}",
            j,
            ms,
            if ok { "ok" } else { "some files FAILED" }
        );
    }
}
