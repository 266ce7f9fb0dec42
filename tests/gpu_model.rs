//! The H100's `[gpu_model]` against measured times.
//!
//! `tests/data/h100-9f4d40b-profiles.tsv` holds the GPU profiles of pencilc
//! 9f4d40b's CUDA versions of the 30 PolyBench kernels at LARGE (the mapping
//! that was measured) and each one's region time on an H100 (the file says
//! where each number comes from). The tests recompute every estimate with
//! `profile::estimate` and the constants of `devices/nvidia-h100.toml`, and
//! check that they stay calibrated: close to the measured times overall,
//! and the kernels that ran on one thread far above the fast ones. The
//! same checks must reject the uncalibrated defaults (`GpuModelTable::fill`
//! of an empty table), or they would not notice a lost calibration.
//!
//! `cargo test --release --test gpu_model -- --ignored --nocapture` refits
//! the constants (`fit_h100_constants`: least squares on the logarithm of
//! estimated over measured time, by coordinate descent) and prints the
//! table to paste into the description and the comparison in
//! docs/gpu-model.md.

mod common;
use common::*;
use std::process::Command;

use pencilc::device::{Device, GpuModel, GpuModelTable};
use pencilc::profile::estimate::buffers_ms as estimate_buffers_ms;
use pencilc::profile::{estimate, text, RegionProfile};

const FIXTURE: &str = include_str!("data/h100-9f4d40b-profiles.tsv");

/// The second data set: the mapping of 2026-11-27 (symm's private
/// temporary, reductions found in the code, floyd-warshall split,
/// nussinov's wavefront, ...), measured on an H100 that day.
const FIXTURE_2026_11_27: &str = include_str!("data/h100-2026-11-27-profiles.tsv");

/// The H200's data set: the mapping of 2026-12-04 (81293da), measured on
/// the H200 lent that day, with each region's time split into allocation,
/// copies and kernels. `devices/nvidia-h200.toml` is fitted on it.
const FIXTURE_H200_2026_12_04: &str = include_str!("data/h200-2026-12-04-profiles.tsv");

/// The kernels that 9f4d40b ran on one GPU thread (blocks of 1 around a
/// whole nest): the model must put them far above the fast kernels.
const ONE_THREAD: [&str; 5] = ["symm", "cholesky", "deriche", "adi", "gramschmidt"];

/// Measured regions under this many ms are the fast peers.
const FAST_MS: f64 = 50.0;

/// The geometric mean of estimate over measured may be off by this factor.
const GEOMEAN_FACTOR: f64 = 2.0;
/// A kernel's estimate is "close" within this factor of its measured time.
const CLOSE_FACTOR: f64 = 3.0;
/// The share of kernels that must be close.
const CLOSE_SHARE: f64 = 0.8;
/// The root mean square of ln(estimate / measured) over the measured
/// kernels of each data set may not exceed this. The constants fitted on
/// both sets with the L2 term reach 0.515 on the first and 0.350 on the
/// second (without it 0.54 and 0.59: the new mapping's kernels are mostly
/// memory-bound, and LARGE's arrays fit in the H100's L2); the defaults
/// 0.70 over both.
const RMS_LOG_MAX: f64 = 0.55;
/// The share of each set's kernels whose estimate is within a factor of 2
/// of the measured time (issue 30 asks for all). Fitted: 23 of 27 on the
/// first set (off: 3mm about 2x too fast; adi, deriche and seidel-2d,
/// whose one-thread and 1x1-block kernels' chains the model prices least
/// well, 2-4x too slow), 27 of 29 on the second;
/// the defaults 39 of 56.
const WITHIN2_SHARE: f64 = 0.85;
/// The programs that did not finish in 180 s must be estimated at no less
/// than this share of that: above every measured time (symm's 27.9 s is
/// the longest). (The
/// fitted constants put floyd-warshall at 44 s: its one thread's instances
/// cost more than the model's chain says.)
const UNFINISHED_SHARE: f64 = 1.0 / 6.0;
/// Each one-thread kernel's estimate is at least this many times the
/// largest estimate among the fast kernels (measured: 20 times).
const ONE_THREAD_SEPARATION: f64 = 10.0;

/// One benchmark of the fixture.
#[derive(Clone)]
struct Bench {
    name: String,
    regions: Vec<RegionProfile>,
    /// The measured region time, ms.
    region_ms: Option<f64>,
    /// A lower bound where the program did not finish (ms).
    region_ms_above: Option<f64>,
    /// The measured time of the kernels alone, where measured (ms).
    kernel_ms: Option<f64>,
    /// The measured time of the buffers' allocation (`PENCILC_PROFILE`'s
    /// alloc), where measured and not pinning staging buffers too (ms).
    alloc_ms: Option<f64>,
    /// The measured time of the copies (copy-in and copy-out), ms.
    copies_ms: Option<f64>,
    /// A time whose profile is not of the program measured (see the
    /// fixture's notes): out of the checks and the fit.
    unused: bool,
}

fn benches() -> Vec<Bench> {
    load(FIXTURE)
}

/// Both data sets, for the fit: one set of constants for both mappings.
fn all_benches() -> Vec<Bench> {
    let mut all = load(FIXTURE);
    all.extend(load(FIXTURE_2026_11_27));
    all
}

fn load(fixture: &str) -> Vec<Bench> {
    let mut out: Vec<Bench> = Vec::new();
    for line in fixture.lines().filter(|l| l.starts_with("bench\t")) {
        let field = |k: &str| {
            line.split('\t')
                .find_map(|f| f.strip_prefix(k)?.strip_prefix('='))
        };
        let ms = |k: &str| field(k).map(|v| v.parse::<f64>().expect("a number"));
        out.push(Bench {
            name: field("name").expect("a name").to_string(),
            regions: Vec::new(),
            region_ms: ms("region_ms"),
            region_ms_above: ms("region_ms_above"),
            kernel_ms: ms("kernel_ms"),
            alloc_ms: ms("alloc_ms").filter(|_| field("alloc_pinned").is_none()),
            copies_ms: match (ms("copy_in_ms"), ms("copy_out_ms")) {
                (Some(i), Some(o)) => Some(i + o),
                _ => None,
            },
            unused: field("region_ms_unused").is_some(),
        });
    }
    for (bench, region) in text::parse(fixture).expect("the fixture parses") {
        let bench = bench.expect("every region follows a bench record");
        let b = out
            .iter_mut()
            .find(|b| b.name == bench)
            .expect("a bench record");
        b.regions.push(region);
    }
    assert_eq!(out.len(), 30, "the 30 PolyBench kernels");
    for b in &out {
        assert!(!b.regions.is_empty(), "{} has a profile", b.name);
        assert!(
            b.unused || b.region_ms.is_some() != b.region_ms_above.is_some(),
            "{}: a time or a lower bound",
            b.name
        );
    }
    out
}

/// A benchmark's estimated region time and kernel time, ms.
fn estimate_ms(b: &Bench, m: &GpuModel) -> (f64, f64) {
    b.regions.iter().fold((0.0, 0.0), |(t, k), p| {
        let e = estimate(p, m);
        (t + e.total_ms, k + e.kernel_ms)
    })
}

fn h100() -> Device {
    Device::lookup("nvidia-h100").expect("built-in description")
}

fn h200() -> Device {
    Device::lookup("nvidia-h200").expect("built-in description")
}

fn h200_benches() -> Vec<Bench> {
    load(FIXTURE_H200_2026_12_04)
}

fn calibrated() -> GpuModel {
    h100()
        .gpu_model()
        .expect("nvidia-h100.toml has a [gpu_model] table")
}

fn uncalibrated() -> GpuModel {
    GpuModelTable::default().fill(&h100())
}

/// Error figures of `m` over the measured benchmarks.
struct Errors {
    geomean: f64,
    rms_log: f64,
    close: usize,
    /// Within a factor of 2.
    within2: usize,
    measured: usize,
}

fn errors(benches: &[Bench], m: &GpuModel) -> Errors {
    let logs: Vec<f64> = benches
        .iter()
        .filter_map(|b| Some((estimate_ms(b, m).0 / b.region_ms?).ln()))
        .collect();
    let n = logs.len() as f64;
    Errors {
        geomean: (logs.iter().sum::<f64>() / n).exp(),
        rms_log: (logs.iter().map(|l| l * l).sum::<f64>() / n).sqrt(),
        close: logs.iter().filter(|l| l.abs() <= CLOSE_FACTOR.ln()).count(),
        within2: logs.iter().filter(|l| l.abs() <= 2f64.ln()).count(),
        measured: logs.len(),
    }
}

/// Every check on `m`; the failures, if any.
fn check(benches: &[Bench], m: &GpuModel) -> Result<(), Vec<String>> {
    check_with(benches, m, &ONE_THREAD)
}

/// The checks, with `one_thread` the kernels that must stand far above
/// the fast ones (none in a mapping without one-thread nests).
fn check_with(benches: &[Bench], m: &GpuModel, one_thread: &[&str]) -> Result<(), Vec<String>> {
    let mut fails = Vec::new();
    let e = errors(benches, m);
    if std::env::var_os("PENCILC_MODEL_ERRORS").is_some() {
        eprintln!(
            "geomean {:.3}, rms ln {:.3}, {} within 3x, {} within 2x, of {}",
            e.geomean, e.rms_log, e.close, e.within2, e.measured
        );
    }
    if !(1.0 / GEOMEAN_FACTOR..=GEOMEAN_FACTOR).contains(&e.geomean) {
        fails.push(format!(
            "geometric mean of estimate/measured {:.3}",
            e.geomean
        ));
    }
    if (e.close as f64) < CLOSE_SHARE * e.measured as f64 {
        fails.push(format!(
            "{} of {} kernels within a factor of {}",
            e.close, e.measured, CLOSE_FACTOR
        ));
    }
    if (e.within2 as f64) < WITHIN2_SHARE * e.measured as f64 {
        fails.push(format!(
            "{} of {} kernels within a factor of 2",
            e.within2, e.measured
        ));
    }
    if e.rms_log > RMS_LOG_MAX {
        fails.push(format!(
            "rms of ln(estimate/measured) {:.3} > {}",
            e.rms_log, RMS_LOG_MAX
        ));
    }
    for b in benches {
        if let Some(above) = b.region_ms_above {
            let est = estimate_ms(b, m).0;
            if est < above * UNFINISHED_SHARE {
                fails.push(format!(
                    "{} estimated {:.0} ms, ran over {:.0} ms",
                    b.name, est, above
                ));
            }
        }
    }
    let fast_max = benches
        .iter()
        .filter(|b| b.region_ms.is_some_and(|t| t < FAST_MS))
        .map(|b| (estimate_ms(b, m).0, b.name.as_str()))
        .fold((0.0, ""), |a, b| if b.0 > a.0 { b } else { a });
    for &name in one_thread {
        let b = benches.iter().find(|b| b.name == name).expect(name);
        let est = estimate_ms(b, m).0;
        if est < ONE_THREAD_SEPARATION * fast_max.0 {
            fails.push(format!(
                "{} (one thread) estimated {:.1} ms, not {} times {} ({:.1} ms)",
                name, est, ONE_THREAD_SEPARATION, fast_max.1, fast_max.0
            ));
        }
    }
    if fails.is_empty() {
        Ok(())
    } else {
        Err(fails)
    }
}

#[test]
fn the_fixture_is_complete() {
    let benches = benches();
    let measured = benches.iter().filter(|b| b.region_ms.is_some()).count();
    assert_eq!(
        measured, 26,
        "27 measured, seidel-2d's profile not of what ran"
    );
    for name in ONE_THREAD {
        let b = benches.iter().find(|b| b.name == name).unwrap();
        assert!(
            b.regions
                .iter()
                .flat_map(|r| &r.kernels)
                .any(|k| k.block.iter().product::<i64>() == 1),
            "{} has a one-thread kernel in the profile",
            name
        );
    }
}

#[test]
fn the_h100_constants_are_calibrated() {
    let benches = benches();
    let m = calibrated();
    if let Err(fails) = check(&benches, &m) {
        panic!(
            "devices/nvidia-h100.toml's [gpu_model] no longer fits the H100's times:\n  {}",
            fails.join("\n  ")
        );
    }
}

#[test]
fn the_checks_reject_the_uncalibrated_defaults() {
    let benches = all_benches();
    assert!(
        check(&benches, &uncalibrated()).is_err(),
        "the checks pass with the uncalibrated defaults: they cannot tell a calibration"
    );
    let defaults = GpuModelTable::default().fill(&h200());
    assert!(
        check_with(&h200_benches(), &defaults, &[]).is_err(),
        "the checks pass the H200's data with the uncalibrated defaults"
    );
}

/// The H200's fixture: all 30 kernels ran to the end, each with its
/// kernels' time beside the region's.
#[test]
fn the_h200_fixture_is_complete() {
    let benches = h200_benches();
    assert!(benches
        .iter()
        .all(|b| b.region_ms.is_some() && b.kernel_ms.is_some()));
}

/// `devices/nvidia-h200.toml` against the H200's times: closer than the
/// H100's checks ask (rms of the logarithm at most 0.3, every kernel
/// within 3x, all but two within 2x), and much closer than the H100's
/// constants, or it says nothing the H100's description did not.
#[test]
fn the_h200_constants_fit_the_measurement_of_2026_12_04() {
    let benches = h200_benches();
    let m = h200()
        .gpu_model()
        .expect("nvidia-h200.toml has a [gpu_model] table");
    let table: Vec<String> = benches
        .iter()
        .map(|b| {
            format!(
                "{} {:.1}/{:.1}",
                b.name,
                estimate_ms(b, &m).0,
                b.region_ms.unwrap()
            )
        })
        .collect();
    let e = errors(&benches, &m);
    let mut fails = check_with(&benches, &m, &[]).err().unwrap_or_default();
    if e.rms_log > 0.3 || e.close < e.measured || e.within2 + 2 < e.measured {
        fails.push(format!(
            "rms ln {:.3}, {} within 3x, {} within 2x, of {}",
            e.rms_log, e.close, e.within2, e.measured
        ));
    }
    let h100_constants = h100()
        .gpu_model
        .expect("the H100's [gpu_model]")
        .fill(&h200());
    let theirs = errors(&benches, &h100_constants);
    if e.rms_log > 0.6 * theirs.rms_log {
        fails.push(format!(
            "rms ln {:.3} against the H100's constants' {:.3}",
            e.rms_log, theirs.rms_log
        ));
    }
    assert!(
        fails.is_empty(),
        "{}\nestimate/measured ms: {}",
        fails.join("\n"),
        table.join(", ")
    );
}

// ---- Fitting ----

/// The table's constants that a fit moves, with physically sensible bounds
/// for an H100 or H200 on PCIe (`l2_gbs`'s follow the device's memory:
/// `bounds`).
type Slot = fn(&mut GpuModelTable) -> &mut Option<f64>;

const FREE: [(&str, Slot, f64, f64); 15] = [
    ("launch_us", |t| &mut t.launch_us, 1.0, 50.0),
    ("buffer_us", |t| &mut t.buffer_us, 1.0, 5000.0),
    ("copy_us", |t| &mut t.copy_us, 1.0, 1000.0),
    ("transfer_gbs", |t| &mut t.transfer_gbs, 1.0, 64.0),
    ("transfer_out_gbs", |t| &mut t.transfer_out_gbs, 1.0, 64.0),
    ("first_touch_gbs", |t| &mut t.first_touch_gbs, 0.1, 64.0),
    (
        "thread_instance_ns",
        |t| &mut t.thread_instance_ns,
        0.5,
        200.0,
    ),
    ("thread_access_ns", |t| &mut t.thread_access_ns, 0.1, 100.0),
    (
        "thread_far_access_ns",
        |t| &mut t.thread_far_access_ns,
        1.0,
        2000.0,
    ),
    ("thread_copy_ns", |t| &mut t.thread_copy_ns, 1.0, 2000.0),
    ("barrier_ns", |t| &mut t.barrier_ns, 1.0, 2000.0),
    // At most what an H100 keeps resident: 132 SMs x 2048 threads.
    (
        "resident_threads",
        |t| &mut t.resident_threads,
        1e3,
        270336.0,
    ),
    ("memory_efficiency", |t| &mut t.memory_efficiency, 0.05, 1.0),
    ("flops_efficiency", |t| &mut t.flops_efficiency, 0.01, 1.0),
    // From the memory's peak up to 4 times it (the H100's L2 delivers
    // about three): the H100's here, the device's in `bounds`.
    ("l2_gbs", |t| &mut t.l2_gbs, 3350.0, 13400.0),
];

/// A constant's bounds for device `d`.
fn bounds(d: &Device, name: &str, lo: f64, hi: f64) -> (f64, f64) {
    match name {
        "l2_gbs" => (d.memory_bandwidth_gbs, 4.0 * d.memory_bandwidth_gbs),
        _ => (lo, hi),
    }
}

/// Sum of squared ln(estimate / measured): region times, kernel-only times,
/// allocation times and copy times, and the lower bounds where the
/// estimate falls below them.
fn objective(benches: &[Bench], d: &Device, t: &GpuModelTable, lower_bounds: bool) -> f64 {
    let m = t.fill(d);
    let mut sum = 0.0;
    for b in benches {
        let (region, kernels) = estimate_ms(b, &m);
        if let Some(ms) = b.region_ms {
            sum += (region / ms).ln().powi(2);
        }
        if let Some(ms) = b.kernel_ms {
            sum += (kernels / ms).ln().powi(2);
        }
        let buffers_ms: f64 = b.regions.iter().map(|p| estimate_buffers_ms(p, &m)).sum();
        if let Some(ms) = b.alloc_ms {
            sum += (buffers_ms / ms).ln().powi(2);
        }
        if let Some(ms) = b.copies_ms {
            let transfers: f64 = b.regions.iter().map(|p| estimate(p, &m).transfer_ms).sum();
            sum += ((transfers - buffers_ms).max(1e-9) / ms).ln().powi(2);
        }
        if let (Some(ms), true) = (b.region_ms_above, lower_bounds) {
            sum += (region / ms).ln().min(0.0).powi(2);
        }
    }
    sum
}

/// Coordinate descent in log space within the bounds, from the defaults:
/// each constant in turn multiplied and divided by a factor, which halves
/// when no move helps.
fn fit(benches: &[Bench], d: &Device, lower_bounds: bool) -> GpuModelTable {
    let defaults = GpuModelTable::default().fill(d);
    let mut t = GpuModelTable {
        launch_us: Some(defaults.launch_us),
        buffer_us: Some(defaults.buffer_us),
        copy_us: Some(defaults.copy_us),
        transfer_gbs: Some(defaults.transfer_gbs),
        transfer_out_gbs: Some(defaults.transfer_out_gbs),
        first_touch_gbs: Some(defaults.first_touch_gbs),
        thread_instance_ns: Some(defaults.thread_instance_ns),
        thread_access_ns: Some(defaults.thread_access_ns),
        thread_far_access_ns: Some(defaults.thread_far_access_ns),
        thread_copy_ns: Some(defaults.thread_copy_ns),
        barrier_ns: Some(defaults.barrier_ns),
        resident_threads: Some(defaults.resident_threads),
        memory_efficiency: Some(defaults.memory_gbs / d.memory_bandwidth_gbs),
        flops_efficiency: Some(defaults.fp64_gflops / d.peak_gflops_fp64),
        l2_gbs: Some(defaults.l2_gbs),
        atomic_ns: Some(defaults.atomic_ns),
    };
    let mut best = objective(benches, d, &t, lower_bounds);
    let mut step = 4.0f64.ln();
    while step > 1e-4 {
        let mut moved = false;
        for (name, slot, lo, hi) in FREE {
            let (lo, hi) = bounds(d, name, lo, hi);
            for dir in [1.0, -1.0] {
                let mut trial = t.clone();
                let v = slot(&mut trial);
                *v = Some((v.unwrap() * (dir * step).exp()).clamp(lo, hi));
                let o = objective(benches, d, &trial, lower_bounds);
                if o < best - 1e-12 {
                    (t, best, moved) = (trial, o, true);
                }
            }
        }
        if !moved {
            step /= 2.0;
        }
    }
    t
}

/// Three significant digits.
fn sig3(v: f64) -> String {
    let digits = (2 - v.abs().log10().floor() as i32).max(0) as usize;
    format!("{:.*}", digits, v)
}

#[test]
#[ignore = "refits the constants and prints them; run with --ignored --nocapture"]
fn fit_h100_constants() {
    print_fit(&all_benches(), &h100(), check);
}

#[test]
#[ignore = "refits the constants and prints them; run with --ignored --nocapture"]
fn fit_h200_constants() {
    print_fit(&h200_benches(), &h200(), |b, m| check_with(b, m, &[]));
    leave_one_out(&h200_benches(), &h200());
}

/// Fits the constants on `benches` for `d` and prints them, how well the
/// fit and the defaults do (`checks`), and each kernel's estimate.
fn print_fit(
    benches: &[Bench],
    d: &Device,
    checks: fn(&[Bench], &GpuModel) -> Result<(), Vec<String>>,
) {
    let round = |mut t: GpuModelTable| {
        // Three significant digits, as written in the description.
        for (_, slot, _, _) in FREE {
            let v = slot(&mut t);
            *v = v.map(|x| sig3(x).parse().unwrap());
        }
        t
    };
    let t = round(fit(benches, d, true));
    let without = round(fit(benches, d, false));
    let fitted = t.fill(d);
    println!("[gpu_model]");
    for (name, slot, lo, hi) in FREE {
        let (lo, hi) = bounds(d, name, lo, hi);
        let v = slot(&mut t.clone()).unwrap();
        let at_bound = if v <= lo * 1.001 || v >= hi * 0.999 {
            "  # at its bound"
        } else {
            ""
        };
        println!("{} = {}{}", name, sig3(v), at_bound);
    }
    let before = GpuModelTable::default().fill(d);
    let empty = GpuModelTable::default();
    let h100_table = h100().gpu_model.expect("the H100's [gpu_model]");
    let h100_constants = h100_table.fill(d);
    for (what, table, m) in [
        ("defaults", &empty, &before),
        ("the H100's constants", &h100_table, &h100_constants),
        ("fitted", &t, &fitted),
    ] {
        let e = errors(benches, m);
        println!(
            "{}: objective {:.3}, geomean {:.3}, rms ln {:.3} (factor {:.2}), {}/{} within {}x, checks {}",
            what,
            objective(benches, d, table, true),
            e.geomean,
            e.rms_log,
            e.rms_log.exp(),
            e.close,
            e.measured,
            CLOSE_FACTOR,
            match checks(benches, m) {
                Ok(()) => "pass".to_string(),
                Err(f) => format!("fail: {}", f.join("; ")),
            }
        );
    }
    // How much each constant matters: the objective with it doubled and
    // halved, over the fitted one.
    let best = objective(benches, d, &t, true);
    for (name, slot, _, _) in FREE {
        let at = |f: f64| {
            let mut x = t.clone();
            let v = slot(&mut x);
            *v = v.map(|v| v * f);
            objective(benches, d, &x, true) - best
        };
        println!(
            "sensitivity {}: x2 {:+.3}, /2 {:+.3}",
            name,
            at(2.0),
            at(0.5)
        );
    }
    let e = errors(benches, &without.fill(d));
    println!(
        "fitted without the lower bounds: geomean {:.3}, rms ln {:.3}, {}/{} within {}x; {}",
        e.geomean,
        e.rms_log,
        e.close,
        e.measured,
        CLOSE_FACTOR,
        FREE.iter()
            .map(|(n, slot, _, _)| format!("{} {}", n, sig3(slot(&mut without.clone()).unwrap())))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for b in benches.iter().filter(|b| b.region_ms_above.is_some()) {
        println!(
            "  {} estimated {:.0} ms",
            b.name,
            estimate_ms(b, &without.fill(d)).0
        );
    }
    println!();
    println!("| kernel | measured region ms | estimate, the H100's constants | ratio | estimate, fitted | ratio | fitted: bound of the slowest kernel |");
    println!("|---|---|---|---|---|---|---|");
    for b in benches {
        let (e0, _) = estimate_ms(b, &h100_constants);
        let (e1, _) = estimate_ms(b, &fitted);
        let slowest = b
            .regions
            .iter()
            .flat_map(|p| estimate(p, &fitted).kernels)
            .max_by(|x, y| x.ms.total_cmp(&y.ms))
            .map(|k| format!("{} ({})", k.bound.word(), k.name))
            .unwrap_or_default();
        let (measured, r0, r1) = match (b.region_ms, b.region_ms_above) {
            (Some(ms), _) => (
                format!("{:.2}", ms),
                format!("{:.2}", e0 / ms),
                format!("{:.2}", e1 / ms),
            ),
            (None, Some(ms)) => (
                format!("> {:.0} (did not finish)", ms),
                format!("< {:.2}", e0 / ms),
                format!("< {:.2}", e1 / ms),
            ),
            (None, None) => (
                "not used (the fixture's notes)".into(),
                "-".into(),
                "-".into(),
            ),
        };
        println!(
            "| {} | {} | {:.2} | {} | {:.2} | {} | {} |",
            b.name, measured, e0, r0, e1, r1, slowest
        );
    }
    for b in benches.iter().filter(|b| b.kernel_ms.is_some()) {
        println!(
            "kernel-only {}: measured {:.3} ms, defaults {:.3}, fitted {:.3}",
            b.name,
            b.kernel_ms.unwrap(),
            estimate_ms(b, &before).1,
            estimate_ms(b, &fitted).1
        );
    }
}

/// Leave-one-out: each kernel's estimate by constants fitted on the
/// others, the figure that says how the description may do on a kernel it
/// was not fitted on.
fn leave_one_out(benches: &[Bench], d: &Device) {
    let mut logs = Vec::new();
    println!();
    println!("| kernel | measured region ms | estimate, fitted without it | ratio |");
    println!("|---|---|---|---|");
    for (i, b) in benches.iter().enumerate() {
        let Some(ms) = b.region_ms else { continue };
        let others: Vec<Bench> = benches
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, o)| o.clone())
            .collect();
        let m = fit(&others, d, true).fill(d);
        let est = estimate_ms(b, &m).0;
        logs.push((est / ms).ln());
        println!("| {} | {:.2} | {:.2} | {:.2} |", b.name, ms, est, est / ms);
    }
    let n = logs.len() as f64;
    let rms = (logs.iter().map(|l| l * l).sum::<f64>() / n).sqrt();
    println!(
        "leave-one-out: geomean {:.3}, rms ln {:.3} (factor {:.2}), {}/{} within 2x, {} within 3x",
        (logs.iter().sum::<f64>() / n).exp(),
        rms,
        rms.exp(),
        logs.iter().filter(|l| l.abs() <= 2f64.ln()).count(),
        logs.len(),
        logs.iter().filter(|l| l.abs() <= 3f64.ln()).count(),
    );
}

/// The constants against the second measurement, whose mapping has no
/// one-thread nests left: the same closeness as on the first (geometric
/// mean within a factor of 2, four in five kernels within 3x, rms of the
/// logarithm at most 0.5), and ludcmp, stopped after 20 s, estimated
/// above a sixth of its lower bound.
#[test]
fn the_h100_constants_fit_the_measurement_of_2026_11_27() {
    let benches = load(FIXTURE_2026_11_27);
    assert_eq!(benches.iter().filter(|b| b.region_ms.is_some()).count(), 29);
    let m = calibrated();
    let fails = check_with(&benches, &m, &[]).err().unwrap_or_default();
    let table: Vec<String> = benches
        .iter()
        .filter_map(|b| {
            let ms = b.region_ms?;
            Some(format!("{} {:.1}/{:.1}", b.name, estimate_ms(b, &m).0, ms))
        })
        .collect();
    assert!(
        fails.is_empty(),
        "{}\nestimate/measured ms: {}",
        fails.join("\n"),
        table.join(", ")
    );
}

/// `pencilc-harness --gpu-model` (issue 30): every selected kernel's
/// estimate beside a reference time, without a GPU. Its region estimates
/// are those pencilc itself prints (`--emit gpu-model`, same description),
/// its one-thread kernels are named with their launches, and a reference
/// file's gaps (`-`) stay gaps.
#[test]
fn the_harness_reports_the_model_for_every_kernel() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/e2e/harness-gpu-model");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let json = work.join("model.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pencilc-harness"))
        .args([
            "--gpu-model",
            "--dataset",
            "MINI",
            "--kernels",
            "gemm,ludcmp",
        ])
        .arg("--pencilc")
        .arg(env!("CARGO_BIN_EXE_pencilc"))
        .arg("--polybench")
        .arg(root.join("polybench"))
        .arg("--against")
        .arg(root.join("tests/data/ppcg-h100-2026-11-26.tsv"))
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}{}",
        table,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        table.contains("GPU model of nvidia-h100 at MINI"),
        "{}",
        table
    );
    // gemm against PPCG's 7.028 ms; ludcmp has no PPCG time.
    let row = |name: &str| {
        table
            .lines()
            .find(|l| l.starts_with(&format!("| {} |", name)))
            .unwrap_or_else(|| panic!("no {} row in\n{}", name, table))
            .to_string()
    };
    assert!(row("gemm").contains("| 7.03 |"), "{}", table);
    assert!(row("ludcmp").ends_with("| - | - |"), "{}", table);
    assert!(
        table.contains("Estimates at or below the reference: ") && table.contains(" of 1"),
        "{}",
        table
    );
    // ludcmp's per-step divisions run on one thread (its `w` is forwarded
    // since 4d210ec, so which kernels those are changed).
    assert!(
        table.contains("Kernels of one thread: ludcmp kernel"),
        "{}",
        table
    );
    // The same estimate as pencilc's own.
    let own = std::process::Command::new(env!("CARGO_BIN_EXE_pencilc"))
        .args([
            "--target",
            "cuda",
            "--emit",
            "gpu-model",
            "-DMINI_DATASET",
            "-I",
        ])
        .arg(root.join("polybench/utilities"))
        .arg(root.join("polybench/linear-algebra/blas/gemm/gemm.c"))
        .output()
        .unwrap();
    let own_ms = common::region_estimates_ms(&String::from_utf8_lossy(&own.stdout));
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let gemm = &j["kernels"][0];
    assert_eq!(gemm["name"], "gemm");
    let ms = gemm["region_ms"].as_f64().unwrap();
    assert!(
        // pencilc prints four decimals.
        (ms - own_ms).abs() <= 5e-5 + 1e-3 * own_ms,
        "harness {} ms, pencilc {} ms",
        ms,
        own_ms
    );
    assert!(
        j["kernels"][1]["one_thread"]
            .as_array()
            .is_some_and(|a| !a.is_empty()),
        "{}",
        j
    );
    // A dataset PolyBench does not know, and a description without a
    // model, are usage errors, not a table of other sizes.
    for (bad, named) in [
        (["--dataset", "HUGE", "--gpu-device", "nvidia-h100"], "HUGE"),
        (
            ["--dataset", "MINI", "--gpu-device", "generic-opencl-cpu"],
            "no [gpu_model]",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pencilc-harness"))
            .args(["--gpu-model", "--kernels", "gemm"])
            .args(bad)
            .arg("--pencilc")
            .arg(env!("CARGO_BIN_EXE_pencilc"))
            .arg("--polybench")
            .arg(root.join("polybench"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{:?}", bad);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(named), "{:?}: {}", bad, err);
        assert!(out.stdout.is_empty(), "{:?}", bad);
    }
}

/// The harness prices the time steps its dataset runs: PolyBench passes
/// `tsteps` as a variable that no array bounds, and without the header's
/// value pencilc assumes 1000 (jacobi-1d at MINI runs 20 steps of two
/// launches each); `--cflags -DTSTEPS=7` runs 7, and so does the model.
#[test]
fn the_harness_prices_the_time_steps_of_its_dataset() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/e2e/harness-gpu-model-steps");
    std::fs::create_dir_all(&work).unwrap();
    // Launches per step: with the time loop on the host.
    for (cflags, launches) in [("", 40.0), ("-DTSTEPS=7 -DN=30", 14.0)] {
        let json = work.join("model.json");
        let _ = std::fs::remove_file(&json);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pencilc-harness"))
            .args(["--gpu-model", "--dataset", "MINI", "--kernels", "jacobi-1d"])
            .args(["--cflags", cflags])
            .args(["--pencilc-args", "--one-block-loops never"])
            .arg("--pencilc")
            .arg(env!("CARGO_BIN_EXE_pencilc"))
            .arg("--polybench")
            .arg(root.join("polybench"))
            .arg("--json")
            .arg(&json)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let j: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(j["kernels"][0]["launches"], launches, "{}", j);
    }
}

/// pencilc itself reads the sizes PolyBench's `main` passes (`int tsteps
/// = 20; ... kernel_jacobi_1d(tsteps, n, ...)`): jacobi-1d at MINI is
/// profiled at 20 steps, 40 launches, not at an assumed 1000; the user's
/// `--gpu-model-params` still wins. The launches per step are counted
/// with the host loop kept (`--one-block-loops never`); by default the
/// loop is one launch whose threads each wait at two barriers a step.
#[test]
fn pencilc_profiles_at_the_sizes_every_call_passes() {
    let src = root().join("polybench/stencils/jacobi-1d/jacobi-1d.c");
    for (extra, params, launches) in [
        (None, "n:30:call,tsteps:20:call", 20.0),
        (Some("tsteps=7"), "n:30:call,tsteps:7:given", 7.0),
    ] {
        let mut cmd = Command::new(pencilc());
        cmd.args([
            "--target",
            "cuda",
            "--emit",
            "gpu-model",
            "-DMINI_DATASET",
            "-I",
        ])
        .arg(root().join("polybench/utilities"));
        if let Some(e) = extra {
            cmd.args(["--gpu-model-params", e]);
        }
        let mut one_block = Command::new(pencilc());
        one_block.args(cmd.get_args());
        let fused = one_block.arg(&src).output().unwrap();
        let fused = String::from_utf8_lossy(&fused.stdout);
        let kernel2 = fused
            .lines()
            .find(|l| l.starts_with("kernel\tname=kernel2\t"))
            .unwrap_or_else(|| panic!("{}", fused));
        let field = |line: &str, name: &str| -> f64 {
            line.split('\t')
                .find_map(|f| f.strip_prefix(name))
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{} in {}", name, line))
        };
        assert_eq!(field(kernel2, "launches="), 1.0, "{}", kernel2);
        assert_eq!(
            field(kernel2, "span_barriers="),
            2.0 * launches,
            "{}",
            kernel2
        );
        cmd.args(["--one-block-loops", "never"]);
        let out = cmd.arg(&src).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&format!("params={}\t", params)), "{}", text);
        let kernel0 = text
            .lines()
            .find(|l| l.starts_with("kernel\tname=kernel0\t"))
            .unwrap_or_else(|| panic!("{}", text));
        let got: f64 = kernel0
            .split('\t')
            .find_map(|f| f.strip_prefix("launches="))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{}", kernel0));
        assert_eq!(got, launches, "{}", kernel0);
    }
}

/// The GPU model's records of `tests/programs/reduction_epilogue.c`
/// compiled for CUDA, with `PENCILC_COMBINE` set to `combine` where given.
fn reduction_epilogue_model(combine: Option<&str>) -> String {
    let mut cmd = Command::new(pencilc());
    cmd.args(["--target", "cuda", "--emit", "gpu-model"])
        .arg(root().join("tests/programs/reduction_epilogue.c"));
    if let Some(c) = combine {
        cmd.env("PENCILC_COMBINE", c);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn model_kernel(text: &str, name: &str) -> Option<String> {
    text.lines()
        .find(|l| l.starts_with(&format!("kernel\tname={}\t", name)))
        .map(|l| l.to_string())
}

fn model_field(line: &str, key: &str) -> f64 {
    line.split('\t')
        .find_map(|f| f.strip_prefix(&format!("{}=", key)))
        .unwrap()
        .parse()
        .unwrap()
}

/// The model counts what the back end launches for a privatised
/// reduction (issue 30) with `PENCILC_COMBINE=kernel`: a combining kernel
/// of `COMBINE_THREADS` threads after each reduction launch, and no
/// launch of its own for the kernel of one thread that runs in it
/// (durbin's `alpha`), whose work the combining kernel does; one that
/// runs alone where the reduction's guard fails (gramschmidt's square
/// root) is kept, at the launches where it does.
#[test]
fn combining_kernels_and_what_runs_in_them_are_counted() {
    let text = reduction_epilogue_model(Some("kernel"));
    let kernel = |name: &str| model_kernel(&text, name);
    let field = model_field;
    // steps: k = 1 .. 999, one reduction launch and its combine each.
    for (reduction, single) in [
        ("kernel0", "kernel1"),
        ("kernel3", "kernel4"),
        ("kernel6", "kernel7"),
    ] {
        let combine = kernel(&format!("{}_combine", reduction)).expect(&text);
        assert_eq!(field(&combine, "launches"), 999.0, "{}", combine);
        assert_eq!(
            field(&combine, "threads"),
            999.0 * 128.0 * if reduction == "kernel6" { 2.0 } else { 1.0 },
            "{}",
            combine
        );
        assert!(field(&combine, "span_barriers") > 0.0, "{}", combine);
        assert!(kernel(single).is_none(), "{}", text);
    }
    // The statement after the sum does its arithmetic in the combine.
    assert!(
        field(&kernel("kernel0_combine").unwrap(), "flops64") >= 999.0,
        "{}",
        text
    );
    // columns at rows = 300: the square root always in kernel9_combine.
    let alone = kernel("kernel10").expect(&text);
    assert_eq!(field(&alone, "launches"), 0.0, "{}", alone);
    assert_eq!(
        field(&kernel("kernel9_combine").unwrap(), "launches"),
        30.0,
        "{}",
        text
    );
}

/// CUDA's default: the last block of each reduction launch combines
/// (`reduce::last_block_call`). The model counts no combining kernel and
/// no launch for it: the launch itself does the combining work and that
/// of the kernel of one thread fused after it, on its span.
#[test]
fn last_blocks_that_combine_are_counted_in_their_launch() {
    let text = reduction_epilogue_model(None);
    let old = reduction_epilogue_model(Some("kernel"));
    assert!(!text.contains("_combine"), "{}", text);
    for (reduction, single) in [
        ("kernel0", "kernel1"),
        ("kernel3", "kernel4"),
        ("kernel6", "kernel7"),
    ] {
        let k = model_kernel(&text, reduction).expect(&text);
        let before = model_kernel(&old, reduction).expect(&old);
        assert_eq!(model_field(&k, "launches"), 999.0, "{}", k);
        assert_eq!(
            model_field(&k, "threads"),
            model_field(&before, "threads"),
            "{}",
            k
        );
        assert!(
            model_field(&k, "span_barriers") > model_field(&before, "span_barriers"),
            "{}\n{}",
            k,
            before
        );
        assert!(model_kernel(&text, single).is_none(), "{}", text);
    }
    // The statement after the sum does its arithmetic in the launch.
    let k0 = model_kernel(&text, "kernel0").unwrap();
    let k0_before = model_kernel(&old, "kernel0").unwrap();
    assert!(
        model_field(&k0, "flops64") >= model_field(&k0_before, "flops64") + 999.0,
        "{}\n{}",
        k0,
        k0_before
    );
    // One launch per step fewer: the region's kernels cost less.
    let kernel_ms = |t: &str| -> f64 {
        let region = t
            .lines()
            .find(|l| l.starts_with("region\t"))
            .unwrap()
            .to_string();
        model_field(&region, "kernel_ms")
    };
    assert!(kernel_ms(&text) < kernel_ms(&old), "{}\n{}", text, old);
}
