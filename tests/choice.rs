//! The run-time choice between a region's versions counts what it must
//! (issue 17): the instances of statements that the device version runs on
//! one work-item (a kernel without a parallel loop) are counted apart and
//! estimated at the device's serial rate, so that a recurrence is not taken
//! for parallel work and sent to the device.

mod common;
use common::*;
use pencilc::harness::calibrate::{counts, Counts};
use std::path::{Path, PathBuf};
use std::process::Command;

/// PolyBench kernel `name` at `dataset` through `pencilc --target opencl`
/// into `dir`: the host file.
fn opencl_host(name: &str, dataset: &str, dir: &Path) -> PathBuf {
    let src = kernel_path(name);
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
    host
}

/// `opencl_host`'s file built with `cc -O2` and `cc_flags` beside it: the
/// program.
fn opencl_program(name: &str, dataset: &str, dir: &Path, cc_flags: &[&str]) -> PathBuf {
    let host = opencl_host(name, dataset, dir);
    let exe = dir.join("prog");
    run(
        Command::new("cc")
            .arg("-O2")
            .args(cc_flags)
            .args(flags(&kernel_path(name), dataset))
            .arg(root().join("polybench/utilities/polybench.c"))
            .arg(&host)
            .args(["-lOpenCL", "-lm", "-o"])
            .arg(&exe),
        "building the generated program",
    );
    exe
}

/// Builds PolyBench kernel `name` at `dataset` for OpenCL, runs it with
/// `version` forced and the choice said (`PENCILC_VERBOSE`); the counts and
/// the device version's estimate, in seconds.
fn choice_of(name: &str, dataset: &str, version: &str) -> (Counts, f64) {
    let dir = scratch(&format!("choice-{}-{}", name, dataset));
    let exe = opencl_program(name, dataset, &dir, &[]);
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
    // ludcmp's reductions run in parallel, but its back substitution's
    // divisions (one per row, each after the row's sum) are kernels with no
    // parallel loop: their instances are serial, the rest not.
    let (c, device) = choice_of("ludcmp", "MEDIUM", "seq");
    assert!(c.instances > 1e6, "{:?}", c);
    assert!(c.serial > 0.0 && c.serial < c.instances, "{:?}", c);
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

/// The lines of function `name` in GCC's assembly `asm`.
fn function_asm<'a>(asm: &'a str, name: &str) -> Vec<&'a str> {
    let start = format!("{}:", name);
    let end = format!(".size\t{}, ", name);
    asm.lines()
        .skip_while(|l| *l != start)
        .take_while(|l| !l.contains(&end))
        .collect()
}

#[test]
fn original_code_loops_start_on_64_byte_lines() {
    // The generated code in front of the user's shifts the original code's
    // loops to other addresses than its own file gives them; jacobi-1d's
    // inner loops (46 bytes) then straddled two 64-byte lines, and its
    // original code ran 15% slower in the host file than in its own (Zen
    // 4, MEDIUM). The host file has GCC start loops on 64-byte lines.
    let macros = Command::new("cc")
        .args(["-dM", "-E", "-x", "c", "/dev/null"])
        .output();
    let gcc = macros.is_ok_and(|o| {
        let m = String::from_utf8_lossy(&o.stdout).into_owned();
        m.contains("#define __GNUC__ ") && !m.contains("__clang__")
    });
    if !gcc {
        skipped("choice", "cc is not GCC");
        return;
    }
    let src = kernel_path("jacobi-1d");
    let dir = scratch("choice-align");
    let host = opencl_host("jacobi-1d", "MEDIUM", &dir);
    let asm_with = |extra: &[&str]| {
        let out = dir.join("prog.s");
        run(
            Command::new("cc")
                .args(["-O3", "-S", "-Wall", "-Werror"])
                .args(extra)
                .args(flags(&src, "MEDIUM"))
                .arg(&host)
                .arg("-o")
                .arg(&out),
            "cc -S (generated)",
        );
        std::fs::read_to_string(&out).unwrap()
    };
    let aligned = |asm: &str, f: &str| {
        function_asm(asm, f)
            .iter()
            .filter(|l| l.trim() == ".p2align 6")
            .count()
    };
    // main, where the user's kernel_jacobi_1d is inlined: its time loop
    // and two inner loops, and the initialisation's and printing's loops.
    let asm = asm_with(&[]);
    assert!(
        aligned(&asm, "main") >= 3,
        "{}",
        function_asm(&asm, "main").join("\n")
    );
    // Only where the user's compiler options allow: not for size, and not
    // when asked not to.
    for off in [&["-Os"][..], &["-DPENCILC_NO_ALIGN_LOOPS"][..]] {
        let asm = asm_with(off);
        assert_eq!(aligned(&asm, "main"), 0, "with {:?}", off);
    }
    // Other compilers do not see the pragma (clang would warn of it).
    for clang in ["clang", "clang-15", "clang-14"] {
        if Command::new(clang).arg("--version").output().is_ok() {
            run(
                Command::new(clang)
                    .args([
                        "-O2",
                        "-c",
                        "-Wall",
                        "-Wextra",
                        "-Werror",
                        "-Wno-unused-parameter",
                    ])
                    .args(flags(&src, "MEDIUM"))
                    .arg(&host)
                    .arg("-o")
                    .arg(dir.join("prog.o")),
                "clang (generated)",
            );
            break;
        }
    }
}

#[test]
fn openmp_threads_start_once_as_a_setup_the_choice_counts() {
    if !opencl_available() {
        skipped("choice", "no OpenCL platform (PoCL)");
        return;
    }
    // The first parallel loop of a process starts OpenMP's threads
    // (milliseconds on a virtual machine): the host version starts them
    // before its loops, timed as the device's setup is, and the choice
    // counts it where it is still to come.
    let dir = scratch("choice-omp-setup");
    let exe = opencl_program("gemm", "MINI", &dir, &["-fopenmp", "-DPENCILC_TIME_SETUP"]);
    let said = |threads: &str| {
        let out = run(
            Command::new(&exe)
                .env("PENCILC_OPENCL_DEVICE", "cpu")
                .env("PENCILC_RUN", "host")
                .env("PENCILC_VERBOSE", "1")
                .env("OMP_NUM_THREADS", threads),
            "running the generated program",
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    // On two threads: the estimate counts the start (", setup" after the
    // parallel loops), the start is timed apart, once, before the region.
    let two = said("2");
    let line = two.lines().find(|l| l.contains(" instances")).unwrap();
    assert!(
        line.contains("(2 threads, 1 parallel loops, setup)"),
        "{}",
        line
    );
    assert_eq!(
        two.lines()
            .filter(|l| l.starts_with("pencilc: OpenMP setup "))
            .count(),
        1,
        "{}",
        two
    );
    let start = two.find("pencilc: OpenMP setup ").unwrap();
    assert!(start < two.find("begin dump").unwrap(), "{}", two);
    // It started threads: GCC drops a parallel region that does nothing,
    // and the first form of the start measured 0 s.
    let took: f64 = two[start..]
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("pencilc: OpenMP setup "))
        .and_then(|l| l.trim_end_matches(" s").parse().ok())
        .unwrap();
    assert!(took > 0.0, "{}", two);
    // On one thread there is nothing to start, and the estimate says so.
    let one = said("1");
    let line = one.lines().find(|l| l.contains(" instances")).unwrap();
    assert!(line.contains("(1 threads, 1 parallel loops)"), "{}", line);
}

/// PolyBench kernel `name` at `dataset` through `pencilc --target cuda`
/// with `extra` options, built on the emulated CUDA runtime and run with
/// the original code forced and the choice said: the device estimate (s)
/// and the GPU-model factor it printed, and the model's own estimate of
/// the region (ms, `--emit gpu-model`).
fn cuda_choice(name: &str, dataset: &str, extra: &[&str]) -> (f64, f64, f64) {
    let src = kernel_path(name);
    let tag = extra.last().map_or("default".to_string(), |d| {
        Path::new(d)
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned()
    });
    let dir = scratch(&format!("choice-cuda-{}-{}-{}", name, dataset, tag));
    let host = dir.join("prog_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "cuda"])
            .args(extra)
            .args(flags(&src, dataset))
            .arg("-o")
            .arg(&host)
            .arg(&src),
        "pencilc --target cuda",
    );
    let model = run(
        Command::new(pencilc())
            .args(["--target", "cuda", "--emit", "gpu-model"])
            .args(extra)
            .args(flags(&src, dataset))
            .arg(&src),
        "pencilc --emit gpu-model",
    );
    let model_ms = region_estimates_ms(&String::from_utf8_lossy(&model.stdout));
    let pb = dir.join("polybench.o");
    run(
        Command::new("cc")
            .args(["-O1", "-c"])
            .args(flags(&src, dataset))
            .arg(root().join("polybench/utilities/polybench.c"))
            .arg("-o")
            .arg(&pb),
        "cc polybench.c",
    );
    let exe = dir.join("prog");
    build_emulated_cuda(
        &host,
        &dir.join("prog_kernel.cu"),
        &flags(&src, dataset),
        &[pb],
        &exe,
    );
    let out = run(
        Command::new(&exe)
            .env("PENCILC_RUN", "seq")
            .env("PENCILC_VERBOSE", "1"),
        "the emulated CUDA program",
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let line = stderr
        .lines()
        .find(|l| l.contains(" instances"))
        .unwrap_or_else(|| panic!("no choice in\n{}", stderr))
        .to_string();
    let after = |key: &str| -> f64 {
        line.split(key)
            .nth(1)
            .and_then(|rest| rest.split([' ', ')', ';']).next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no `{}` in {}", key, line))
    };
    // The factor is said where it is not 1.
    let scale = if line.contains("GPU model x") {
        after("GPU model x")
    } else {
        1.0
    };
    (after(", device "), scale, model_ms)
}

/// CUDA output for an H100 (issue 30): the run-time choice's device
/// estimate is the GPU model's at the sizes the compiler profiled (the
/// context's bounds, here the dataset's), plus the device's one-time
/// setup, not its constant-rate formula; and where the description's
/// choice costs are its own (`[costs]`, as a calibration writes them),
/// that formula stands.
#[test]
fn the_cuda_choice_follows_the_gpu_model() {
    // The H100's description with no one-time setup: the estimate printed
    // (three digits) is then the device version's work alone.
    let dir = scratch("choice-cuda-descriptions");
    let h100 = std::fs::read_to_string(root().join("devices/nvidia-h100.toml")).unwrap();
    let no_setup = dir.join("h100-no-setup.toml");
    std::fs::write(&no_setup, format!("{}\n[costs]\nsetup_ms = 0.0\n", h100)).unwrap();
    let no_setup = no_setup.display().to_string();
    for name in ["gemm", "atax", "trisolv"] {
        let (device, scale, model_ms) = cuda_choice(name, "MINI", &["--device", &no_setup]);
        assert!(scale != 1.0, "{}: no GPU-model factor", name);
        let work_ms = device * 1e3;
        assert!(
            (work_ms - model_ms).abs() <= 0.1 * model_ms,
            "{}: the choice estimates the device version's work at {} ms, the GPU model at {} ms",
            name,
            work_ms,
            model_ms
        );
    }
    // A description with its own [costs] for the device: no factor.
    let own = dir.join("h100-own-costs.toml");
    std::fs::write(
        &own,
        format!(
            "{}\n[costs]\nlaunch_latency_us = 5.0\ntransfer_bandwidth_gbs = 10.0\ndevice_ns_per_instance = 0.01\ndevice_serial_ns_per_instance = 50.0\n",
            h100
        ),
    )
    .unwrap();
    let own = own.display().to_string();
    let (_, scale, _) = cuda_choice("gemm", "MINI", &["--device", &own]);
    assert_eq!(scale, 1.0);
}
