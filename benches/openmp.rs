//! The OpenMP C target against sequential `gcc -O3` (`cargo bench --bench
//! openmp`, issue 17): each PolyBench kernel compiled with `pencilc
//! --target c --openmp` and built with `-O3 -fopenmp`, beside the
//! original program built with `-O3`, both as PolyBench/C 4.2.1 builds by
//! default (loops bounded by the run-time sizes). Every program's arrays
//! are first compared with the sequential program's (relative 1e-9); then
//! the two programs of each kernel run in turn, `PENCILC_BENCH_RUNS`
//! rounds (default 3), so that a change of the machine's load slows both
//! alike. Time: PolyBench's timer around the kernel call, median over the
//! rounds; the OpenMP program's includes the start of its threads (its
//! first parallel loop: about 5 ms on the development machine), which the
//! harness leaves out of the host version's times. `PENCILC_BENCH_DATASET` (default LARGE) and
//! `PENCILC_BENCH_KERNELS` (comma-separated; default the twelve
//! compute-bound kernels of docs/performance-cpu.md) choose what runs;
//! `OMP_NUM_THREADS` as OpenMP reads it (default: every core). Prints a
//! markdown table; exits non-zero if a program is wrong or does not run.

mod common;

use pencilc::harness::compare::compare_dumps;
use std::path::{Path, PathBuf};
use std::process::Command;

const COMPUTE_BOUND: &str =
    "gemm,2mm,3mm,syrk,syr2k,covariance,correlation,doitgen,jacobi-2d,fdtd-2d,heat-3d,lu";

/// Runs `cmd`; stops the bench with its stderr if it fails.
fn check(cmd: &mut Command, what: &str) -> std::process::Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| fail(&format!("{}: cannot run: {}", what, e)));
    if !out.status.success() {
        fail(&format!(
            "{} failed ({}):\n{}",
            what,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    out
}

fn fail(why: &str) -> ! {
    eprintln!("openmp bench: {}", why);
    std::process::exit(1)
}

/// One run of `exe`: PolyBench's seconds (stdout) in ms, and the arrays it
/// dumped (stderr).
fn run(exe: &Path) -> (f64, String) {
    let out = check(&mut Command::new(exe), &exe.display().to_string());
    let secs: f64 = String::from_utf8_lossy(&out.stdout)
        .lines()
        .rev()
        .find_map(|l| l.trim().parse().ok())
        .unwrap_or_else(|| fail(&format!("{} printed no time", exe.display())));
    (
        secs * 1e3,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Builds the sequential and the OpenMP program of kernel `name` (source
/// `src`) in `dir`.
fn build(name: &str, src: &Path, dataset: &str, dir: &Path) -> (PathBuf, PathBuf) {
    let root = common::root();
    let utilities = root.join("polybench/utilities");
    let flags: Vec<String> = vec![
        "-I".into(),
        utilities.display().to_string(),
        "-I".into(),
        src.parent().unwrap().display().to_string(),
        format!("-D{}_DATASET", dataset),
        "-DPOLYBENCH_DUMP_ARRAYS".into(),
        "-DPOLYBENCH_TIME".into(),
    ];
    std::fs::create_dir_all(dir).unwrap_or_else(|e| fail(&format!("{}: {}", dir.display(), e)));
    let seq = dir.join("sequential");
    check(
        Command::new("cc")
            .arg("-O3")
            .args(&flags)
            .arg(utilities.join("polybench.c"))
            .arg(src)
            .args(["-lm", "-o"])
            .arg(&seq),
        &format!("{}: building the sequential program", name),
    );
    let generated = dir.join(format!("{}_openmp.c", name));
    check(
        Command::new(env!("CARGO_BIN_EXE_pencilc"))
            .args(["--target", "c", "--openmp"])
            .args(&flags)
            .arg("-o")
            .arg(&generated)
            .arg(src),
        &format!("{}: pencilc --target c --openmp", name),
    );
    let omp = dir.join("openmp");
    check(
        Command::new("cc")
            .args(["-O3", "-fopenmp"])
            .args(&flags)
            .arg(utilities.join("polybench.c"))
            .arg(&generated)
            .args(["-lm", "-o"])
            .arg(&omp),
        &format!("{}: building the OpenMP program", name),
    );
    (seq, omp)
}

fn main() {
    let dataset = std::env::var("PENCILC_BENCH_DATASET").unwrap_or_else(|_| "LARGE".into());
    let only = std::env::var("PENCILC_BENCH_KERNELS").unwrap_or_else(|_| COMPUTE_BOUND.into());
    let rounds: usize = std::env::var("PENCILC_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(3);
    let kernels: Vec<(String, PathBuf)> = common::polybench_kernels()
        .into_iter()
        .filter(|(n, _)| only.split(',').any(|o| o.trim() == n))
        .collect();
    if kernels.is_empty() {
        fail(&format!("no PolyBench kernel named in {:?}", only));
    }
    let work = common::root().join("target/bench-openmp").join(&dataset);
    let mut programs = Vec::new();
    for (name, src) in &kernels {
        let (seq, omp) = build(name, src, &dataset, &work.join(name));
        let (_, expected) = run(&seq);
        let (_, got) = run(&omp);
        let c = compare_dumps(&expected, &got, 1e-9);
        if !c.ok() {
            fail(&format!(
                "{}: OpenMP program NOT CORRECT: {}",
                name,
                c.summary()
            ));
        }
        eprintln!("openmp bench: {} correct", name);
        programs.push((name, seq, omp));
    }
    let mut times: Vec<[Vec<f64>; 2]> = programs.iter().map(|_| Default::default()).collect();
    for round in 0..rounds {
        for (k, (_, seq, omp)) in programs.iter().enumerate() {
            times[k][0].push(run(seq).0);
            times[k][1].push(run(omp).0);
        }
        eprintln!("openmp bench: round {} of {}", round + 1, rounds);
    }
    let threads = std::env::var("OMP_NUM_THREADS").unwrap_or_else(|_| {
        std::thread::available_parallelism()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into())
    });
    println!(
        "| kernel ({}, median of {} interleaved rounds, {} threads) | sequential ms | OpenMP ms | speedup |",
        dataset, rounds, threads
    );
    println!("|---|---|---|---|");
    let mut log_sum = 0.0;
    for (k, (name, _, _)) in programs.iter().enumerate() {
        // (rounds >= 1)
        let seq = common::median(times[k][0].clone()).unwrap_or(f64::NAN);
        let omp = common::median(times[k][1].clone()).unwrap_or(f64::NAN);
        log_sum += (seq / omp).ln();
        // Small datasets' regions take microseconds.
        let cell = |t: f64| {
            if t >= 100.0 {
                format!("{:.0}", t)
            } else {
                format!("{:.3}", t)
            }
        };
        println!(
            "| {} | {} | {} | {:.2}x |",
            name,
            cell(seq),
            cell(omp),
            seq / omp
        );
    }
    println!(
        "| geometric mean | | | {:.2}x |",
        (log_sum / programs.len() as f64).exp()
    );
}
