//! The run-time choice between a region's versions counts what it must
//! (issue 17): the instances of statements that the device version runs on
//! one work-item (a kernel without a parallel loop) are counted apart and
//! estimated at the device's serial rate, so that a recurrence is not taken
//! for parallel work and sent to the device.

mod common;
use common::*;
use pencilc::harness::calibrate::{counts, Counts};
use std::process::Command;

/// Builds PolyBench kernel `name` at `dataset` for OpenCL, runs it with
/// `version` forced and the choice said (`PENCILC_VERBOSE`); the counts and
/// the device version's estimate, in seconds.
fn choice_of(name: &str, dataset: &str, version: &str) -> (Counts, f64) {
    let src = kernel_path(name);
    let dir = scratch(&format!("choice-{}-{}", name, dataset));
    let host = dir.join("prog_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "opencl"])
            .args(flags(&src, dataset))
            .arg("-o")
            .arg(&host)
            .arg(&src),
        "pencilc",
    );
    let exe = dir.join("prog");
    run(
        Command::new("cc")
            .arg("-O2")
            .args(flags(&src, dataset))
            .arg(root().join("polybench/utilities/polybench.c"))
            .arg(&host)
            .args(["-lOpenCL", "-lm", "-o"])
            .arg(&exe),
        "building the generated program",
    );
    let out = run(
        Command::new(&exe)
            .env("PENCILC_OPENCL_DEVICE", "cpu")
            .env("PENCILC_RUN", version)
            .env("PENCILC_VERBOSE", "1"),
        "running the generated program",
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let c = counts(&stderr).unwrap_or_else(|| panic!("no counts in\n{}", stderr));
    let line = stderr.lines().find(|l| l.contains(" instances")).unwrap();
    let device: f64 = line
        .split(", device ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no device estimate in {}", line));
    (c, device)
}

#[test]
fn instances_on_one_work_item_are_counted_apart() {
    if !opencl_available() {
        skipped("choice", "no OpenCL platform (PoCL)");
        return;
    }
    // ludcmp's one kernel has no parallel loop: every instance is serial.
    let (c, device) = choice_of("ludcmp", "MEDIUM", "seq");
    assert!(c.instances > 1e6, "{:?}", c);
    assert_eq!(c.serial, c.instances, "{:?}", c);
    // Its estimate on the device is at least those instances at the
    // description's serial rate.
    let costs = pencilc::device::Device::default_for_opencl().cost_model();
    let serial_only = c.serial * costs.device_serial_ns_per_instance * 1e-9;
    assert!(
        device >= serial_only * 0.99,
        "device estimate {} s < {} s for the serial instances alone ({:?})",
        device,
        serial_only,
        c
    );
    // gemm's kernels are all parallel: none.
    let (c, _) = choice_of("gemm", "MINI", "seq");
    assert!(c.instances > 0.0, "{:?}", c);
    assert_eq!(c.serial, 0.0, "{:?}", c);
    // durbin mixes both: some, not all.
    let (c, _) = choice_of("durbin", "MINI", "seq");
    assert!(c.serial > 0.0 && c.serial < c.instances, "{:?}", c);
}

#[test]
fn instances_of_triangular_loops_are_counted_near_their_number() {
    if !opencl_available() {
        skipped("choice", "no OpenCL platform (PoCL)");
        return;
    }
    // nussinov at MEDIUM (n = 500): its inner statement runs once per
    // i < k < j, C(500, 3) = 20,708,500 times, and the others once per
    // i < j (124,750 each). Its box is n^3 = 1.25e8: counted so, the
    // sequential and device estimates tied and the slower one ran.
    let (c, _) = choice_of("nussinov", "MEDIUM", "seq");
    assert!(
        c.instances > 2.0e7 && c.instances < 2.4e7,
        "nussinov counts {:?}",
        c
    );
    // Rectangular loops are counted exactly: 2mm at MINI (ni, nj, nk, nl
    // = 16, 18, 22, 24) is tmp's 16 x 18 and 16 x 18 x 22, D's 16 x 24 and
    // 16 x 24 x 18.
    let (c, _) = choice_of("2mm", "MINI", "seq");
    let exact = 16.0 * 18.0 * (1.0 + 22.0) + 16.0 * 24.0 * (1.0 + 18.0);
    // (printed to three digits)
    assert!(
        (c.instances - exact).abs() < 5e-3 * exact,
        "{} for {:?}",
        exact,
        c
    );
}
