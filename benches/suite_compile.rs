//! Compile time of the PolyBench suite through the pencilc binary, as users
//! run it (`cargo bench --bench suite_compile [-- NAME...]`), in PolyBench's
//! three build modes side by side: `default` (loops bounded by the run-time
//! sizes, PolyBench/C 4.2.1 without -D), `scalar-lb`
//! (`-DPOLYBENCH_USE_SCALAR_LB`: constant bounds) and `c99-proto`
//! (`-DPOLYBENCH_USE_C99_PROTO`: variable-length array parameters).
//!
//! - each kernel on its own (`pencilc --target opencl FILE`, one process;
//!   median of `PENCILC_BENCH_RUNS` runs, default 3);
//! - the whole suite in one batch command, with `-j1` and with all cores.
//!
//! `PENCILC_BENCH_DATASETS` (default `LARGE`; e.g. `MINI,LARGE`) picks
//! PolyBench's datasets. The targets this measures (issue 13): each kernel
//! under 1 s, the suite under 10 s at `-j2` on 2 cores, in every mode.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const MODES: [(&str, &[&str]); 3] = [
    ("default", &[]),
    ("scalar-lb", &["-DPOLYBENCH_USE_SCALAR_LB"]),
    ("c99-proto", &["-DPOLYBENCH_USE_C99_PROTO"]),
];

fn pencilc(
    out: &Path,
    defines: &[String],
    includes: &[PathBuf],
    files: &[PathBuf],
    jobs: Option<usize>,
) -> (f64, bool) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pencilc"));
    cmd.args(["--target", "opencl", "--output-dir"]).arg(out);
    cmd.args(defines);
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
    let datasets: Vec<String> = std::env::var("PENCILC_BENCH_DATASETS")
        .unwrap_or_else(|_| "LARGE".into())
        .split(',')
        .map(|s| s.trim().to_uppercase())
        .filter(|s| !s.is_empty())
        .collect();
    let out = root.join("target/bench-suite");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("target/bench-suite");
    let utilities = polybench.join("utilities");
    let kernels = common::polybench_kernels();
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);

    for dataset in &datasets {
        let defines_of = |mode: &[&str]| -> Vec<String> {
            let mut d = vec![format!("-D{}_DATASET", dataset)];
            d.extend(mode.iter().map(|s| s.to_string()));
            d
        };
        println!(
            "dataset {}: median ms of {} run(s) per kernel",
            dataset, runs
        );
        print!("{:<16}", "kernel");
        for (m, _) in MODES {
            print!(" {:>12}", m);
        }
        println!();
        let mut sums = [0.0f64; 3];
        let mut worst = [
            (0.0f64, String::new()),
            (0.0, String::new()),
            (0.0, String::new()),
        ];
        let mut files = Vec::new();
        let mut includes = vec![utilities.clone()];
        for (name, src) in &kernels {
            let dir = src.parent().unwrap().to_path_buf();
            print!("{:<16}", name);
            for (k, (_, flags)) in MODES.iter().enumerate() {
                let mut times = Vec::new();
                let mut ok = true;
                for _ in 0..runs {
                    let (ms, good) = pencilc(
                        &out.join("single"),
                        &defines_of(flags),
                        &[utilities.clone(), dir.clone()],
                        std::slice::from_ref(src),
                        None,
                    );
                    times.push(ms);
                    ok &= good;
                }
                times.sort_by(|a, b| a.total_cmp(b));
                let med = times[times.len() / 2];
                sums[k] += med;
                if med > worst[k].0 {
                    worst[k] = (med, name.clone());
                }
                print!(
                    " {:>12}",
                    format!("{:.0}{}", med, if ok { "" } else { " FAIL" })
                );
            }
            println!();
            files.push(src.clone());
            includes.push(dir);
        }
        print!("{:<16}", "sum");
        for s in sums {
            print!(" {:>12.0}", s);
        }
        println!();
        print!("{:<16}", "slowest");
        for (ms, name) in &worst {
            print!(" {:>12}", format!("{} {:.0}", name, ms));
        }
        println!();

        println!(
            "whole suite ({} files), one batch command (pencilc --output-dir DIR FILE...), ms:",
            files.len()
        );
        let mut jobs = vec![1];
        if cores > 1 {
            jobs.push(cores);
        }
        for j in jobs {
            print!("  -j{:<13}", j);
            for (m, flags) in MODES {
                let (ms, ok) = pencilc(
                    &out.join(format!("{}-j{}", m, j)),
                    &defines_of(flags),
                    &includes,
                    &files,
                    Some(j),
                );
                print!(
                    " {:>12}",
                    format!("{:.0}{}", ms, if ok { "" } else { " FAIL" })
                );
            }
            println!();
        }
        println!();
    }
}
