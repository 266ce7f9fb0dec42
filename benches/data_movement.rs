//! Where the device version's time goes on PoCL (`cargo bench --bench
//! data_movement`, issue 34): the bandwidth-bound PolyBench kernels
//! (`PENCILC_BENCH_KERNELS`, default atax, bicg, mvt, gesummv, gemver) at
//! `PENCILC_BENCH_DATASET` (default LARGE), the device version forced,
//! through `pencilc-harness` (`PENCILC_BENCH_RUNS` timed runs, default 3,
//! and one profiled run, `PENCILC_PROFILE=1`), twice: with buffers of
//! their own (`PENCILC_ZERO_COPY=0`: allocation and copies) and as the
//! device says (PoCL: buffers wrap the arrays). Prints a markdown table:
//! sequential time, region time, the profile's kernel time and the share
//! of allocation and copies in it. The target: with the device's own data
//! path, allocation and copies are at most 10% of the region's time; the
//! bench exits non-zero where they are more, or where a result is wrong.

mod common;

use pencilc::harness::profile::RegionProfile;
use serde_json::Value;
use std::process::Command;

fn fail(why: &str) -> ! {
    eprintln!("data_movement bench: {}", why);
    std::process::exit(1)
}

/// The harness's JSON for `kernels` with `zero_copy` (`None`: the device's
/// choice).
fn measure(kernels: &str, dataset: &str, runs: &str, zero_copy: Option<&str>) -> Vec<Value> {
    let dir = common::root().join("target/bench-data-movement");
    let json = dir.join(format!("{}.json", zero_copy.unwrap_or("device")));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pencilc-harness"));
    cmd.args([
        "--dataset",
        dataset,
        "--kernels",
        kernels,
        "--versions",
        "device",
    ])
    .args(["--cuda", "off", "--runs", runs, "--work-dir"])
    .arg(dir.join(zero_copy.unwrap_or("device")))
    .arg("--json")
    .arg(&json)
    .env_remove("PENCILC_ZERO_COPY");
    if let Some(z) = zero_copy {
        cmd.env("PENCILC_ZERO_COPY", z);
    }
    let out = cmd
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run pencilc-harness: {}", e)));
    if !out.status.success() {
        fail(&format!(
            "pencilc-harness failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| fail(&e.to_string()));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| fail(&e.to_string()));
    v["kernels"].as_array().cloned().unwrap_or_default()
}

fn ms(v: &Value) -> String {
    v.as_f64()
        .map(|x| format!("{:.2}", x))
        .unwrap_or_else(|| "-".into())
}

/// The share of allocation and copies in the profiled run, percent.
fn data_share(k: &Value) -> Option<f64> {
    let p: RegionProfile = serde_json::from_value(k["opencl_profile"].clone()).ok()?;
    p.data_share().map(|x| x * 100.0)
}

fn main() {
    let dataset = std::env::var("PENCILC_BENCH_DATASET").unwrap_or_else(|_| "LARGE".into());
    let runs = std::env::var("PENCILC_BENCH_RUNS").unwrap_or_else(|_| "3".into());
    let kernels = std::env::var("PENCILC_BENCH_KERNELS")
        .unwrap_or_else(|_| "atax,bicg,mvt,gesummv,gemver".into());
    let copied = measure(&kernels, &dataset, &runs, Some("0"));
    let native = measure(&kernels, &dataset, &runs, None);
    println!(
        "{} on PoCL, device version forced; region: median of {} runs; kernels and data: one profiled run\n",
        dataset, runs
    );
    println!("| kernel | sequential ms | region ms, copies | kernels ms | data % | region ms, device's data path | kernels ms | data % |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut over = Vec::new();
    for c in &copied {
        let name = c["name"].as_str().unwrap_or("?");
        let Some(n) = native.iter().find(|n| n["name"] == c["name"]) else {
            fail(&format!("{}: not measured the second time", name));
        };
        for k in [c, n] {
            if k["correct"] != Value::Bool(true) {
                fail(&format!("{}: wrong results ({})", name, k["error"]));
            }
        }
        let share = |k: &Value| {
            data_share(k)
                .map(|x| format!("{:.1}", x))
                .unwrap_or_else(|| "-".into())
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            name,
            ms(&n["sequential_ms"]),
            ms(&c["opencl_ms"]),
            ms(&c["opencl_profile"]["kernels_ms"]),
            share(c),
            ms(&n["opencl_ms"]),
            ms(&n["opencl_profile"]["kernels_ms"]),
            share(n)
        );
        if data_share(n).is_none_or(|x| x > 10.0) {
            over.push(name.to_string());
        }
    }
    if !over.is_empty() {
        fail(&format!(
            "allocation and copies over 10% of the region's time (or not profiled): {}",
            over.join(", ")
        ));
    }
}
