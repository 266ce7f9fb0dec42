//! tests/fakecuda, the CUDA runtime emulation that runs pencilc's CUDA
//! output without a GPU, must catch the mistakes it exists to catch: the
//! generated gemm (shared-memory tiles, register tiles, barriers) gives the
//! sequential results on it, and the same code with a barrier dropped, or
//! with the grid's dimensions swapped, does not. Then every kernel at
//! SMALL, mapped for the H100, runs on it (more MINI runs, and OpenCL beside
//! them, are in tests/fakecl.rs; the PENCIL corpus in tests/pencil.rs).

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

fn dump_of(exe: &Path) -> String {
    let out = run(
        Command::new(exe).env("PENCILC_RUN", "device"),
        "running the emulated CUDA program",
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn emulated_cuda_runs_gemm_and_catches_a_missing_barrier_and_a_swapped_grid() {
    let src = kernel_path("gemm");
    let dir = scratch("fakecuda-gemm");
    let expected = sequential_dump(&dir, &src, "SMALL");
    let host = dir.join("prog_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "cuda", "--device", "nvidia-h100"])
            .args(flags(&src, "SMALL"))
            .arg("-o")
            .arg(&host)
            .arg(&src),
        "pencilc --target cuda",
    );
    let pb = dir.join("polybench.o");
    run(
        Command::new("cc")
            .args(["-O2", "-c"])
            .args(flags(&src, "SMALL"))
            .arg(root().join("polybench/utilities/polybench.c"))
            .arg("-o")
            .arg(&pb),
        "cc polybench.c",
    );
    let kernel = dir.join("prog_kernel.cu");
    let build_and_dump = |host: &Path, kernel: &Path, name: &str| {
        let exe = dir.join(name);
        build_emulated_cuda(host, kernel, &flags(&src, "SMALL"), &[pb.clone()], &exe);
        dump_of(&exe)
    };
    let c = pencilc::harness::compare::compare_dumps(
        &expected,
        &build_and_dump(&host, &kernel, "emulated"),
        1e-9,
    );
    assert!(c.ok(), "{}", c.summary());

    // A barrier dropped: each one guards a shared-memory tile.
    let text = std::fs::read_to_string(&kernel).unwrap();
    let barriers = text.matches("__syncthreads();").count();
    assert!(
        barriers >= 2,
        "gemm should have its tiles' barriers:\n{}",
        text
    );
    for b in 0..barriers {
        let mut seen = 0;
        let dropped: String = text
            .split_inclusive('\n')
            .filter(|l| {
                let is = l.contains("__syncthreads();");
                seen += is as usize;
                !(is && seen == b + 1)
            })
            .collect();
        let k = dir.join(format!("no_barrier_{}_kernel.cu", b));
        std::fs::write(&k, dropped).unwrap();
        let c = pencilc::harness::compare::compare_dumps(
            &expected,
            &build_and_dump(&host, &k, &format!("no-barrier-{}", b)),
            1e-9,
        );
        assert!(!c.ok(), "without barrier {} the results should differ", b);
    }

    // The grid's x and y swapped in the host file's call of the launcher
    // (`kernel0_launch(x, y, args...)`).
    let h = std::fs::read_to_string(&host).unwrap();
    let line = h
        .lines()
        .find(|l| l.contains("kernel0_launch("))
        .expect("a launch of kernel0");
    let call = &line[line.find("kernel0_launch(").unwrap() + "kernel0_launch(".len()..];
    let args = top_level_args(call);
    let (x, y) = (args[0].trim(), args[1].trim());
    assert_ne!(x, y, "SMALL gemm has a non-square grid: {}", line);
    let swapped_line = line.replacen(&format!("({}, {},", x, y), &format!("({}, {},", y, x), 1);
    assert_ne!(swapped_line, line);
    let swapped = h.replace(line, &swapped_line);
    let bad_host = dir.join("swapped_host.c");
    std::fs::write(&bad_host, swapped).unwrap();
    let c = pencilc::harness::compare::compare_dumps(
        &expected,
        &build_and_dump(&bad_host, &kernel, "swapped"),
        1e-9,
    );
    assert!(!c.ok(), "with the grid swapped the results should differ");
}

/// A reduction inside a sequential loop (durbin: one sum per step, 1,999
/// steps at LARGE; at MEDIUM's 399 sums of at most 400 terms the GPU model
/// keeps one thread per sum) allocates its partials once for the region and never
/// waits for the device between steps: the launches queue up as on a GPU.
/// (Each step allocated them and synchronised the device to give them
/// back, 2,000 times at LARGE.) The pool is off, so that every
/// allocation is a `cudaMalloc`; the combining kernel runs on a block of
/// threads, not one.
#[test]
fn reductions_in_a_loop_allocate_once_and_do_not_wait_per_step() {
    let src = kernel_path("durbin");
    let dir = scratch("fakecuda-durbin-scratch");
    let expected = sequential_dump(&dir, &src, "LARGE");
    let host = dir.join("prog_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "cuda", "--device", "nvidia-h100"])
            .args(flags(&src, "LARGE"))
            .arg("-o")
            .arg(&host)
            .arg(&src),
        "pencilc --target cuda",
    );
    let kernel = dir.join("prog_kernel.cu");
    let cu = std::fs::read_to_string(&kernel).unwrap();
    assert!(
        cu.contains("_combine("),
        "durbin's sum is a reduction:\n{}",
        cu
    );
    assert!(
        !cu.contains("dim3 pencilc_block(1);\n    kernel1_combine"),
        "{}",
        cu
    );
    let pb = dir.join("polybench.o");
    run(
        Command::new("cc")
            .args(["-O2", "-c"])
            .args(flags(&src, "LARGE"))
            .arg(root().join("polybench/utilities/polybench.c"))
            .arg("-o")
            .arg(&pb),
        "cc polybench.c",
    );
    let exe = dir.join("durbin");
    build_emulated_cuda(&host, &kernel, &flags(&src, "LARGE"), &[pb], &exe);
    let out = run(
        Command::new(&exe)
            .env("PENCILC_RUN", "device")
            .env("PENCILC_POOL", "0")
            .env("FAKECUDA_COUNT", "1"),
        "running the emulated durbin",
    );
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let counts = err
        .lines()
        .find(|l| l.starts_with("fakecuda: "))
        .unwrap_or_else(|| panic!("no counts:\n{}", err));
    let number = |what: &str| -> usize {
        let at = counts.find(what).unwrap();
        counts[..at]
            .split_whitespace()
            .last()
            .unwrap()
            .parse()
            .unwrap()
    };
    // The region's buffers (alpha, beta, r, sum, y, z), one buffer of
    // partials and the last block's counter; one synchronisation at the
    // region's end, one in the copy back.
    assert!(number(" cudaMalloc") <= 8, "{}", counts);
    assert!(number(" cudaDeviceSynchronize") <= 3, "{}", counts);
    let dump: String = err
        .lines()
        .filter(|l| !l.starts_with("fakecuda: "))
        .map(|l| format!("{}\n", l))
        .collect();
    // The sums are reassociated: the harness's tolerance for them.
    let c = pencilc::harness::compare::compare_dumps(&expected, &dump, 1e-6);
    assert!(c.ok(), "{}", c.summary());
}

/// The arguments of a call whose text follows its opening parenthesis,
/// split at the commas outside nested parentheses.
fn top_level_args(call: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in call.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                out.push(&call[start..i]);
                return out;
            }
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&call[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_polybench_kernel_at_small_is_correct_as_cuda_for_the_h100() {
    harness_all_correct_on(
        "fakecuda-small-h100",
        "SMALL",
        &[],
        &["--device", "nvidia-h100"],
        Programs::EmulatedCuda,
    );
}

/// A time loop over short arrays runs as one launch of one block
/// (`ast::one_block`): its threads take each step's launches in turn, with
/// a barrier between them; over long arrays the host launches each kernel
/// per step as before (the choice is made when the program runs). Both
/// give the sequential results with blocks in either order, as does the
/// one block forced onto a long array (many rounds of its threads), and
/// the fused kernel's generated names leave the user's `ft0` and `fv0`
/// alone.
#[test]
fn short_time_loops_run_as_one_block_and_long_ones_launch_per_step() {
    let src = root().join("tests/programs/one_block_loops.c");
    let dir = scratch("fakecuda-one-block-loops");
    let seq = build_sequential(&src, &dir);
    let headers = root().join("pencil-headers").display().to_string();
    let launches_of = |exe: &Path, args: &[&str], order: &str| -> usize {
        let want = run(Command::new(&seq).args(args), "sequential program");
        let out = run(
            Command::new(exe)
                .args(args)
                .env("PENCILC_RUN", "device")
                .env("FAKECUDA_COUNT", "1")
                .env("FAKECUDA_BLOCK_ORDER", order),
            "running the emulated program",
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&want.stdout),
            "{} {:?} (blocks {})",
            exe.display(),
            args,
            order
        );
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let counts = err
            .lines()
            .find(|l| l.starts_with("fakecuda: "))
            .unwrap_or_else(|| panic!("no counts:\n{}", err));
        let at = counts.find(" launches,").unwrap();
        counts[..at]
            .split_whitespace()
            .last()
            .unwrap()
            .parse()
            .unwrap()
    };
    let build = |tag: &str, extra: &[&str]| {
        let host = dir.join(format!("{}.c", tag));
        run(
            Command::new(pencilc())
                .args(["--target", "cuda"])
                .args(extra)
                .arg("-o")
                .arg(&host)
                .arg(&src),
            "pencilc --target cuda",
        );
        let kernel = dir.join(format!("{}_kernel.cu", tag));
        let exe = dir.join(format!("{}-emulated", tag));
        build_emulated_cuda(
            &host,
            &kernel,
            &["-I".to_string(), headers.clone()],
            &[],
            &exe,
        );
        (
            exe,
            std::fs::read_to_string(&host).unwrap(),
            std::fs::read_to_string(&kernel).unwrap(),
        )
    };
    let (auto, host, kernels) = build("auto", &[]);
    assert!(
        kernels.contains("__launch_bounds__(1024)\n__global__ void "),
        "{}",
        kernels
    );
    assert!(
        kernels.contains("int ft0") && !kernels.contains("const int ft0 "),
        "{}",
        kernels
    );
    assert!(host.contains("_launch(1, "), "{}", host);
    for order in ["forward", "reverse"] {
        // 100 points: 4 blocks a launch, one round of the block.
        assert_eq!(launches_of(&auto, &[], order), 1);
        // 5,000: 157 blocks of 32, over 4 rounds: a launch per kernel and step.
        assert!(launches_of(&auto, &["5000", "7"], order) >= 4 * 7);
    }
    let (always, _, _) = build("always", &["--one-block-loops", "always"]);
    assert_eq!(launches_of(&always, &["9000", "5"], "reverse"), 1);
    let (never, _, kernels) = build("never", &["--one-block-loops", "never"]);
    assert!(!kernels.contains("__launch_bounds__(1024)"), "{}", kernels);
    assert!(launches_of(&never, &[], "forward") >= 4 * 20);
}
