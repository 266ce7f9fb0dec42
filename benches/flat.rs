//! C as DSL compilers write it against the 2-d form (`cargo bench --bench
//! flat`, issue 16): the OpenCL time on PoCL of the generated corpus of
//! `polybench/flat` (each kernel linearised over `restrict` pointers, and
//! cast from flat pointers in the region) beside the 2-d sources, built
//! as PolyBench is by default (constant extents) and with run-time extents
//! (`POLYBENCH_USE_C99_PROTO`). The harness builds every program and
//! checks it against the sequential one; then the four OpenCL programs of
//! each kernel run in turn, `PENCILC_BENCH_RUNS` rounds (default 5), so
//! that a machine whose load changes slows all four alike. Time:
//! PolyBench's timer around the kernel call, copies and launches
//! included, the one-time OpenCL setup left out (as the harness does),
//! median over the rounds, at `PENCILC_BENCH_DATASET` (default LARGE);
//! `PENCILC_BENCH_KERNELS` (comma-separated) picks kernels. Prints a
//! markdown table; every program must be correct.

mod common;

use common::median;
use pencilc::harness::{self, HarnessOptions, KernelResult, Mode};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One timed run of a generated OpenCL program built by the harness in
/// `dir`: PolyBench's seconds minus the OpenCL setup it reported, in ms.
fn time_once(dir: &Path) -> Option<f64> {
    let err_path = dir.join("bench.stderr");
    let out = Command::new(dir.join("opencl"))
        .current_dir(dir)
        .env("PENCILC_OPENCL_DEVICE", "cpu")
        .env("PENCILC_OPENCL_OPTIONS", "-DPENCILC_NO_FP_CONTRACT")
        // The device versions are what is compared, whatever the
        // run-time choice between versions would pick.
        .env("PENCILC_RUN", "device")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&err_path).ok()?)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let total: f64 = String::from_utf8_lossy(&out.stdout)
        .lines()
        .rev()
        .find_map(|l| l.trim().parse().ok())?;
    let setup: f64 = std::io::BufReader::new(std::fs::File::open(&err_path).ok()?)
        .lines()
        .map_while(|l| l.ok())
        // One line per program build (a build per set of row lengths).
        .filter_map(|l| {
            l.strip_prefix("pencilc: OpenCL setup ")
                .and_then(|v| v.trim_end_matches(" s").trim().parse::<f64>().ok())
        })
        .sum();
    let _ = std::fs::remove_file(&err_path);
    Some((total - setup).max(0.0) * 1e3)
}

/// Builds (and runs once, to check) the kernels of `polybench` in `mode`.
fn suite(polybench: &Path, mode: Mode, kernels: &[String], work: &str) -> Vec<KernelResult> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut opts = HarnessOptions::new(
        polybench.to_path_buf(),
        PathBuf::from(env!("CARGO_BIN_EXE_pencilc")),
        root.join("target/bench-flat").join(work),
    );
    opts.dataset = std::env::var("PENCILC_BENCH_DATASET").unwrap_or_else(|_| "LARGE".into());
    opts.runs = 1;
    opts.mode = mode;
    opts.versions = harness::Versions::Forced("device".into());
    opts.kernels = kernels.to_vec();
    harness::run_suite(&opts, &|r| {
        eprintln!(
            "flat bench: {} {}",
            r.name,
            if r.correct { "correct" } else { "NOT CORRECT" }
        )
    })
    .expect("the harness runs")
}

fn correct(rs: &[KernelResult], n: &str) -> bool {
    rs.iter()
        .any(|r| r.name == n && r.correct && r.error.is_none())
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let flat = root.join("polybench/flat");
    let all = harness::polybench_kernels(&flat).expect("polybench/flat/kernels.txt");
    let mut names: Vec<String> = Vec::new();
    for k in &all {
        let base = k
            .name
            .rsplit_once('-')
            .map(|(b, _)| b.to_string())
            .unwrap_or_default();
        if !names.contains(&base) {
            names.push(base);
        }
    }
    if let Ok(only) = std::env::var("PENCILC_BENCH_KERNELS") {
        names.retain(|n| only.split(',').any(|o| o == n));
    }
    let variants: Vec<String> = names
        .iter()
        .flat_map(|n| [format!("{}-lin", n), format!("{}-cast", n)])
        .collect();
    let two_d = suite(&root.join("polybench"), Mode::Default, &names, "2d");
    let vla = suite(&root.join("polybench"), Mode::C99Proto, &names, "2d-c99");
    let flat_results = suite(&flat, Mode::Default, &variants, "flat");
    let mut bad = Vec::new();
    for n in &names {
        for (rs, name) in [
            (&two_d, n.clone()),
            (&vla, n.clone()),
            (&flat_results, format!("{}-lin", n)),
            (&flat_results, format!("{}-cast", n)),
        ] {
            if !correct(rs, &name) {
                bad.push(name);
            }
        }
    }
    if !bad.is_empty() {
        eprintln!("flat bench: not correct: {}", bad.join(", "));
        std::process::exit(1);
    }
    let rounds: usize = std::env::var("PENCILC_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let work = root.join("target/bench-flat");
    let dirs = |n: &str| {
        [
            work.join("2d").join(n),
            work.join("2d-c99").join(n),
            work.join("flat").join(format!("{}-lin", n)),
            work.join("flat").join(format!("{}-cast", n)),
        ]
    };
    let mut times: Vec<[Vec<f64>; 4]> = names.iter().map(|_| Default::default()).collect();
    for round in 0..rounds {
        for (k, n) in names.iter().enumerate() {
            for (v, dir) in dirs(n).iter().enumerate() {
                match time_once(dir) {
                    Some(t) => times[k][v].push(t),
                    None => {
                        eprintln!("flat bench: {} did not run", dir.display());
                        std::process::exit(1);
                    }
                }
            }
        }
        eprintln!("flat bench: round {} of {}", round + 1, rounds);
    }
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "-".into(),
    };
    let cell = |v: Option<f64>| v.map(|v| format!("{:.0}", v)).unwrap_or_else(|| "-".into());
    println!(
        "| kernel ({}, median of {} interleaved rounds) | 2-d ms | 2-d run-time extents ms | linearised ms | cast ms | linearised / 2-d | cast / 2-d | linearised / run-time extents | cast / run-time extents |",
        std::env::var("PENCILC_BENCH_DATASET").unwrap_or_else(|_| "LARGE".into()),
        rounds
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (k, n) in names.iter().enumerate() {
        let m: Vec<Option<f64>> = times[k].iter().map(|t| median(t.clone())).collect();
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            n,
            cell(m[0]),
            cell(m[1]),
            cell(m[2]),
            cell(m[3]),
            ratio(m[2], m[0]),
            ratio(m[3], m[0]),
            ratio(m[2], m[1]),
            ratio(m[3], m[1])
        );
    }
}
