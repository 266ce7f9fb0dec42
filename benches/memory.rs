//! The GPU memory hierarchy on PoCL (`cargo bench --bench memory`): the
//! generated OpenCL of gemm, 2mm, jacobi-2d and atax, timed by the harness
//! (PolyBench's timer around the kernel call, median of
//! `PENCILC_BENCH_RUNS` runs, default 3) with shared and private memory on
//! (the default) and with both off. `PENCILC_BENCH_DATASET` picks the
//! dataset (default MEDIUM). Prints a markdown table.

use std::path::PathBuf;
use std::process::Command;

fn run(args: &str, dataset: &str, runs: &str, work: &PathBuf) -> Vec<(String, String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_pencilc-harness"))
        .args(["--dataset", dataset, "--runs", runs, "--kernels"])
        .arg("gemm,2mm,jacobi-2d,atax")
        .arg("--work-dir")
        .arg(work)
        .arg("--pencilc-args")
        .arg(args)
        .output()
        .expect("pencilc-harness runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    // Table rows: kernel, kernels, parallel dims, compile ms, seq ms, OpenCL ms, ...
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() >= 8 && ["gemm", "2mm", "jacobi-2d", "atax"].contains(&f[0]) {
                Some((f[0].to_string(), f[4].to_string(), f[5].to_string()))
            } else {
                None
            }
        })
        .collect()
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dataset = std::env::var("PENCILC_BENCH_DATASET").unwrap_or_else(|_| "MEDIUM".into());
    let runs = std::env::var("PENCILC_BENCH_RUNS").unwrap_or_else(|_| "3".into());
    let on = run("", &dataset, &runs, &root.join("target/bench-memory/on"));
    let off = run(
        "--no-shared-memory --no-private-memory",
        &dataset,
        &runs,
        &root.join("target/bench-memory/off"),
    );
    println!("| kernel ({}) | sequential ms | OpenCL ms, memory hierarchy | OpenCL ms, global only | ratio |", dataset);
    println!("|---|---|---|---|---|");
    for (name, seq, t_on) in &on {
        let t_off = off
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, _, t)| t.clone())
            .unwrap_or_else(|| "-".into());
        let ratio = match (t_off.parse::<f64>(), t_on.parse::<f64>()) {
            (Ok(a), Ok(b)) if b > 0.0 => format!("{:.2}x", a / b),
            _ => "-".into(),
        };
        println!("| {} | {} | {} | {} | {} |", name, seq, t_on, t_off, ratio);
    }
}
