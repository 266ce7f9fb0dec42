//! The scheduler as users see it: bands, parallel rows and fusion in
//! `--emit schedule` and `-v`, saved and reloaded schedules, rejected
//! illegal schedules, the time budget, and both schedulers' output
//! running correctly (C target, compared with the sequential program).

mod common;
use common::*;
use std::process::Command;

/// `pencilc ARGS -v` on a PolyBench kernel at MINI: (stdout, stderr).
fn pencilc_on(kernel: &str, args: &[&str]) -> (String, String, bool) {
    let src = kernel_path(kernel);
    let out = Command::new(pencilc())
        .args(flags(&src, "MINI"))
        .args(args)
        .arg(&src)
        .output()
        .expect("run pencilc");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

/// "N kernel(s), parallel dims [..]" from `-v`.
fn kernels_and_dims(kernel: &str, args: &[&str]) -> String {
    let dir = scratch(&format!(
        "sched-{}-{}",
        kernel,
        args.join("_").replace(['-', ' '], "")
    ));
    let host = dir.join("out.c");
    let mut a: Vec<&str> = vec!["--target", "opencl", "-v", "-o", host.to_str().unwrap()];
    a.extend_from_slice(args);
    let (_, err, ok) = pencilc_on(kernel, &a);
    assert!(ok, "{}", err);
    let i = err.find(" kernel(s)").expect("-v summary");
    let start = err[..i].rfind(' ').unwrap() + 1;
    let end = err[i..].find(']').unwrap() + i + 1;
    err[start..end].to_string()
}

#[test]
fn gemm_is_one_tilable_band_with_two_parallel_rows() {
    let (out, err, ok) = pencilc_on("gemm", &["--emit", "schedule"]);
    assert!(ok, "{}", err);
    let sched = out.split("mapped:").next().unwrap();
    assert!(sched.contains("permutable: 1"), "{}", sched);
    let flat: String = sched.split_whitespace().collect();
    assert!(flat.contains("coincident:[1,1,0]"), "{}", sched);
}

/// PPCG's paper: maximal fusion on 2mm fuses a parallel loop with a
/// sequential one; smart fusion keeps both products fully parallel.
#[test]
fn smart_fusion_keeps_2mm_parallel_where_max_fusion_does_not() {
    assert_eq!(
        kernels_and_dims("2mm", &["--fuse", "smart"]),
        "2 kernel(s), parallel dims [2, 2]"
    );
    assert_eq!(
        kernels_and_dims("2mm", &["--fuse", "max"]),
        "1 kernel(s), parallel dims [1]"
    );
    assert_eq!(
        kernels_and_dims("2mm", &["--fuse", "min"]),
        "4 kernel(s), parallel dims [2, 2, 2, 2]"
    );
    // symm: its scalar temp2 is written before it is read in each (i, j)
    // iteration, so each thread gets a copy and both nests fuse into one
    // 2-D parallel kernel (it was one thread for the whole nest).
    assert_eq!(
        kernels_and_dims("symm", &[]),
        "1 kernel(s), parallel dims [2]"
    );
    // PPCG's spelling.
    assert_eq!(
        kernels_and_dims("2mm", &["--isl-schedule-fuse", "min"]),
        "4 kernel(s), parallel dims [2, 2, 2, 2]"
    );
}

/// Smart fusion keeps gemm's initialisation with its product (locality)
/// because that costs no parallelism.
#[test]
fn smart_fusion_fuses_producer_and_consumer_when_free() {
    assert_eq!(
        kernels_and_dims("gemm", &["--fuse", "smart"]),
        "1 kernel(s), parallel dims [2]"
    );
    assert_eq!(
        kernels_and_dims("gemm", &["--fuse", "min"]),
        "2 kernel(s), parallel dims [2, 2]"
    );
}

/// Time-skewed stencils: one tilable band, run as a wavefront of tiles
/// (a sequential band over wavefronts, a parallel band of tiles).
#[test]
fn stencils_get_time_skewing_and_a_wavefront() {
    for (k, dims) in [
        ("jacobi-1d", "1 kernel(s), parallel dims [1]"),
        ("jacobi-2d", "1 kernel(s), parallel dims [2]"),
        ("seidel-2d", "1 kernel(s), parallel dims [2]"),
        ("fdtd-2d", "1 kernel(s), parallel dims [2]"),
        ("heat-3d", "1 kernel(s), parallel dims [3]"),
    ] {
        let (out, err, ok) = pencilc_on(k, &["--emit", "schedule"]);
        assert!(ok, "{}: {}", k, err);
        assert!(!err.contains("warning"), "{}: {}", k, err);
        let sched = out.split("mapped:").next().unwrap();
        assert!(sched.contains("pencilc_wavefront"), "{}: {}", k, sched);
        // The point band is skewed: some row has a coefficient 2 (2t + i)
        // or sums iterators (t + i).
        assert!(
            sched.contains("2i0 + i1") || sched.contains("i0 + i1"),
            "{}: {}",
            k,
            sched
        );
        assert_eq!(kernels_and_dims(k, &[]), dims, "{}", k);
    }
}

/// For a GPU (`wavefront = false` in its description) the stencils keep
/// the time loop sequential on the host around fully parallel kernels, as
/// PPCG maps them, instead of one-thread wavefront tiles; seidel-2d, with
/// no parallelism within a time step, runs as a wavefront of points (one
/// launch per 4t + 2i + j, its plane on 2-D blocks as (i, t): a warp's
/// threads on one row of `A`, 4 elements apart), not of tiles that each
/// run on one thread.
#[test]
fn gpu_devices_get_a_time_loop_around_parallel_kernels() {
    for (k, dims) in [
        ("jacobi-1d", "2 kernel(s), parallel dims [1, 1]"),
        ("jacobi-2d", "2 kernel(s), parallel dims [2, 2]"),
        ("fdtd-2d", "2 kernel(s), parallel dims [2, 2]"),
        ("heat-3d", "2 kernel(s), parallel dims [3, 3]"),
        ("seidel-2d", "1 kernel(s), parallel dims [2]"),
    ] {
        let (out, err, ok) = pencilc_on(k, &["--emit", "schedule", "--device", "generic-gpu"]);
        assert!(ok, "{}: {}", k, err);
        let sched = out.split("mapped:").next().unwrap();
        assert!(!sched.contains("pencilc_wavefront"), "{}: {}", k, sched);
        if k == "seidel-2d" {
            assert!(sched.contains("[(4i0 + 2i1 + i2)]"), "{}", sched);
            assert!(
                sched.contains("[{ S_0[i0, i1, i2] -> [(i1)] }, { S_0[i0, i1, i2] -> [(i0)] }]"),
                "{}",
                sched
            );
        }
        // The schedule's kernels: without the kernel that plays a time
        // loop's launches in one work-group where they are small
        // (`--one-block-loops auto`, heat-3d at this size).
        assert_eq!(
            kernels_and_dims(
                k,
                &["--device", "generic-gpu", "--one-block-loops", "never"]
            ),
            dims,
            "{}",
            k
        );
    }
}

#[test]
fn saved_schedule_reloads_to_the_same_code() {
    let dir = scratch("sched-save-load");
    let saved = dir.join("gemm.sched");
    let a = dir.join("a.c");
    let b = dir.join("b.c");
    let (_, err, ok) = pencilc_on(
        "gemm",
        &[
            "-o",
            a.to_str().unwrap(),
            "--save-schedule",
            saved.to_str().unwrap(),
        ],
    );
    assert!(ok, "{}", err);
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.starts_with("# region in `kernel_gemm`"), "{}", text);
    let (_, err, ok) = pencilc_on(
        "gemm",
        &[
            "-o",
            b.to_str().unwrap(),
            "--load-schedule",
            saved.to_str().unwrap(),
        ],
    );
    assert!(ok, "{}", err);
    // The kernels are the same apart from the header naming the command.
    let strip = |p: std::path::PathBuf| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| !l.contains("Generated by pencilc"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        strip(dir.join("a_kernel.cl")),
        strip(dir.join("b_kernel.cl"))
    );
}

/// jacobi-1d (MINI) compiled with a hand-written schedule whose band is
/// `band` (`S_0`'s member, `S_1`'s member): pencilc's output and whether
/// it wrote the host file.
fn with_loaded_band(tag: &str, band: (&str, &str)) -> (std::process::Output, bool) {
    with_loaded_band_flags(tag, band, "")
}

/// `with_loaded_band` with `flags` after the band's schedule
/// (`, coincident: [ 1 ]`).
fn with_loaded_band_flags(
    tag: &str,
    band: (&str, &str),
    band_flags: &str,
) -> (std::process::Output, bool) {
    let dir = scratch(tag);
    let sched = dir.join("loaded.sched");
    let src = kernel_path("jacobi-1d");
    let dom = {
        let (out, _, ok) = pencilc_on("jacobi-1d", &["--emit", "schedule"]);
        assert!(ok);
        let start = out.find("domain: \"").unwrap() + 9;
        let end = out[start..].find('"').unwrap() + start;
        out[start..end].to_string()
    };
    std::fs::write(
        &sched,
        format!(
            "{{ domain: \"{}\", child: {{ schedule: \"[{{ S_0[t, i] -> [({})]; S_1[t, i] -> [({})] }}]\"{}, child: {{ sequence: [ {{ filter: \"{{ S_0[t, i] }}\" }}, {{ filter: \"{{ S_1[t, i] }}\" }} ] }} }} }}",
            dom, band.0, band.1, band_flags
        ),
    )
    .unwrap();
    let host = dir.join("out.c");
    let out = Command::new(pencilc())
        .args(flags(&src, "MINI"))
        .args([
            "-o",
            host.to_str().unwrap(),
            "--load-schedule",
            sched.to_str().unwrap(),
        ])
        .arg(&src)
        .output()
        .unwrap();
    (out, host.exists())
}

/// A hand-edited schedule that runs jacobi-1d's time loop backwards is
/// rejected with the violated dependence, and no code is written.
#[test]
fn an_illegal_loaded_schedule_is_an_error_not_code() {
    let (out, written) = with_loaded_band("sched-illegal", ("-t", "-t"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{}", err);
    assert!(err.contains("violates the dependences"), "{}", err);
    assert!(!written, "no code may be written for an illegal schedule");
}

/// A loaded schedule that marks jacobi-1d's time loop `coincident`
/// (parallel), which carries its dependences: the mappers trust the flag,
/// so it is checked with the schedule and is the user's error (red team
/// of 2026-12-06: an internal error of the host mapping, after which
/// isl's schedule silently replaced the loaded one).
#[test]
fn a_loaded_schedule_with_a_false_coincident_flag_is_an_error_not_code() {
    let (out, written) =
        with_loaded_band_flags("sched-coincident", ("t", "t"), ", coincident: [ 1 ]");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{}", err);
    assert!(
        err.contains("--load-schedule: the loaded schedule is not legal: member 0 of a band (`coincident`) is marked parallel but carries the dependences"),
        "{}",
        err
    );
    assert!(!err.contains("internal error"), "{}", err);
    assert!(!written, "{}", err);
    // The same band without the flag is legal.
    let (out, written) = with_loaded_band("sched-not-coincident", ("t", "t"));
    assert!(
        out.status.success() && written,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A loaded schedule whose coefficients the generated `int` arithmetic
/// may overflow (`valid::MAX_COEFFICIENT`) is the user's error, as an
/// illegal one is: no fallback replaces it, and no code is written.
#[test]
fn a_loaded_schedule_with_huge_coefficients_is_an_error_not_code() {
    let (out, written) = with_loaded_band("sched-huge", ("100000t", "100000t + 1"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{}", err);
    assert!(
        err.contains("--load-schedule: the schedule has a coefficient of 100000"),
        "{}",
        err
    );
    assert!(!written, "{}", err);
}

/// A budget of a millisecond: both schedulers give up at once, pencilc
/// keeps the original order with a warning naming the region, and the
/// program is still right.
#[test]
fn exhausted_budget_falls_back_with_a_warning() {
    let dir = scratch("sched-budget");
    let src = kernel_path("jacobi-2d");
    let (_, err, ok) = pencilc_on(
        "jacobi-2d",
        &["--schedule-timeout", "0.001", "--emit", "schedule"],
    );
    assert!(ok, "{}", err);
    assert!(err.contains("warning"), "{}", err);
    assert!(err.contains("back to"), "{}", err);
    assert!(
        err.contains("jacobi-2d.c:"),
        "the warning names the region: {}",
        err
    );
    let seq = sequential_dump(&dir, &src, "MINI");
    let par = generated_dump_with(
        &dir,
        &src,
        "MINI",
        Target::C,
        &["--schedule-timeout", "0.001"],
    );
    assert_same(&seq, &par, 1e-12);
}

/// Both schedulers and every fusion mode give correct programs on a
/// kernel with several statements, reductions and a sequential outer loop.
#[test]
fn every_scheduler_and_fusion_is_correct() {
    for k in ["2mm", "atax", "gramschmidt", "fdtd-2d", "lu"] {
        let src = kernel_path(k);
        let dir = scratch(&format!("sched-modes-{}", k));
        let seq = sequential_dump(&dir, &src, "MINI");
        for args in [
            &["--scheduler", "isl"][..],
            &["--fuse", "max"][..],
            &["--fuse", "smart"][..],
            &["--fuse", "min"][..],
        ] {
            let par = generated_dump_with(&dir, &src, "MINI", Target::C, args);
            let c = pencilc::harness::compare::compare_dumps(&seq, &par, 1e-9);
            assert!(c.ok(), "{} with {:?}: {}", k, args, c.summary());
        }
    }
}

/// A region kept on the host when its schedule was saved (here: out of a
/// small isl budget) leaves its heading in the file, so that loading the
/// file gives every later region its own schedule, not its neighbour's.
#[test]
fn a_saved_file_with_a_host_region_loads_into_every_region() {
    let dir = scratch("sched-host-region");
    let src = root().join("tests/programs/saved_host_region.c");
    let saved = dir.join("s.sched");
    let out = run(
        Command::new(pencilc())
            .args(["--target", "opencl", "--isl-max-operations", "100000"])
            .arg("--save-schedule")
            .arg(&saved)
            .arg("-o")
            .arg(dir.join("budget.c"))
            .arg(&src),
        "pencilc (small budget)",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains("# region in `heavy` at lines 10-23\n# kept on the host"),
        "the budget no longer keeps `heavy` on the host; pick a smaller one\n{}\n{}",
        text,
        err
    );
    assert!(text.contains("# region in `light`"), "{}", text);
    let warnings = check_source(&src, &dir, &["--load-schedule", saved.to_str().unwrap()]);
    assert!(
        warnings.contains("no schedule for this region"),
        "{}",
        warnings
    );
}
