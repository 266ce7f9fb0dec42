//! The command line: version, text dumps, output naming, snapshots of
//! generated code for review.

mod common;
use common::*;
use std::process::Command;

fn pencilc_out(args: &[&str]) -> std::process::Output {
    Command::new(pencilc()).args(args).output().unwrap()
}

#[test]
fn version_names_pencilc_and_isl() {
    let out = pencilc_out(&["--version"]);
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(s.starts_with("pencilc "), "{}", s);
    assert!(s.contains("isl"), "{}", s);
}

fn gemm_args(emit: &str) -> Vec<String> {
    let src = kernel_path("gemm");
    let mut a: Vec<String> = vec!["--emit".into(), emit.into()];
    a.extend(flags(&src, "MINI"));
    a.push(src.display().to_string());
    a
}

fn emit(what: &str) -> String {
    let args = gemm_args(what);
    let out = Command::new(pencilc()).args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn emit_dumps_are_deterministic_isl_notation() {
    for what in ["scop", "deps", "schedule"] {
        let a = emit(what);
        let b = emit(what);
        assert_eq!(a, b, "--emit {} differs between runs", what);
        assert!(
            a.contains("->"),
            "--emit {} is not in isl notation:\n{}",
            what,
            a
        );
    }
    let scop = emit("scop");
    // PolyBench's default run-time bounds: the loops run to the kernel's
    // parameters, and the arrays' extents bound them (checked at run time).
    assert!(
        scop.contains("context: \"[ni, nj, nk] -> {  : ni <= 20 and nj <= 25 and nk <= 30 }\""),
        "{}",
        scop
    );
    assert!(
        scop.contains(
            "S_0[i, j] : ni <= 20 and nj <= 25 and nk <= 30 and 0 <= i < ni and 0 <= j < nj"
        ),
        "{}",
        scop
    );
    assert!(
        scop.contains("write: \"[ni, nj, nk] -> { S_1[i, k, j] -> C[i, j] }\""),
        "{}",
        scop
    );
    let deps = emit("deps");
    assert!(deps.contains("copy_in: [A, B, C, alpha, beta]"), "{}", deps);
    assert!(deps.contains("copy_out: [C]"), "{}", deps);
    let sched = emit("schedule");
    assert!(
        sched.contains("permutable: 1") && sched.contains("mark: \"kernel_0\""),
        "{}",
        sched
    );
}

/// The CUDA host file is C: `-o x_host.cu` (the name of the host file
/// before it was C, which nvcc compiles as C++) is a usage error that
/// names the file to write instead, and writes nothing.
#[test]
fn a_cuda_host_file_named_cu_is_refused() {
    let src = kernel_path("gemm");
    let dir = scratch("names-cuda-cu");
    let out = Command::new(pencilc())
        .args(["--target", "cuda", "-o"])
        .arg(dir.join("x_host.cu"))
        .args(flags(&src, "MINI"))
        .arg(&src)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}", err);
    assert!(
        err.contains("E0301") && err.contains("the CUDA host file is C"),
        "{}",
        err
    );
    assert!(err.contains("x_host.c (the kernels go to"), "{}", err);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn output_names_follow_ppcg() {
    let src = kernel_path("gemm");
    for (target, files) in [
        ("opencl", vec!["gemm_host.c", "gemm_kernel.cl"]),
        (
            "cuda",
            vec!["gemm_host.c", "gemm_kernel.cu", "gemm_kernel.h"],
        ),
        ("c", vec!["gemm_pencilc.c"]),
    ] {
        let dir = scratch(&format!("names-{}", target));
        let mut cmd = Command::new(pencilc());
        cmd.args(["--target", target, "--output-dir"])
            .arg(&dir)
            .args(flags(&src, "MINI"))
            .arg(&src);
        run(&mut cmd, "pencilc");
        for f in files {
            assert!(
                dir.join(f).exists(),
                "{} missing for --target {}",
                f,
                target
            );
        }
    }
}

/// pencilc run from the repository root with relative paths, so that the
/// generated code does not mention where the checkout lives.
fn relative_pencilc(kernel: &str, target: &str, out: &std::path::Path) -> Command {
    let src = kernel_path(kernel);
    let rel = src.strip_prefix(root()).unwrap().to_path_buf();
    let mut cmd = Command::new(pencilc());
    cmd.current_dir(root())
        .args(["--target", target, "--output-dir"])
        .arg(out)
        .args(["-I", "polybench/utilities", "-I"])
        .arg(rel.parent().unwrap())
        .args(["-DMINI_DATASET", "-DPOLYBENCH_DUMP_ARRAYS"])
        .arg(&rel);
    cmd
}

/// Generated code for review: the gemm kernel and its launch. Update with
/// `INSTA_UPDATE=always cargo test --test cli` after an intended change.
#[test]
fn snapshot_gemm_opencl() {
    let dir = scratch("snapshot-gemm");
    let mut cmd = relative_pencilc("gemm", "opencl", &dir);
    cmd.arg("--no-versioning");
    run(&mut cmd, "pencilc");
    let kernel = std::fs::read_to_string(dir.join("gemm_kernel.cl")).unwrap();
    insta::assert_snapshot!("gemm_kernel_cl", kernel);
    let host = std::fs::read_to_string(dir.join("gemm_host.c")).unwrap();
    // The region without versions (--no-versioning): the check of what the
    // extents imply, the generated code, then the user's own code as the
    // fallback.
    let region: String = host
        .lines()
        .skip_while(|l| !l.contains("pencilc: the generated code assumes"))
        .take_while(|l| !l.contains("#pragma endscop"))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("gemm_host_region", region);
    assert!(!host.contains("pencilc_choose"));
    // By default, three versions: in the user's function, a call of the
    // generated versions and the original code beside it; at the end of
    // the file, the counts and the choice, the device version (the same
    // code as above) and the host version.
    let dir = scratch("snapshot-gemm-versions");
    let mut cmd = relative_pencilc("gemm", "opencl", &dir);
    run(&mut cmd, "pencilc");
    assert_eq!(
        std::fs::read_to_string(dir.join("gemm_kernel.cl")).unwrap(),
        kernel
    );
    let host = std::fs::read_to_string(dir.join("gemm_host.c")).unwrap();
    let region: String = host
        .lines()
        .skip_while(|l| !l.contains("pencilc: three versions of this region"))
        .take_while(|l| !l.contains("#pragma endscop"))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("gemm_host_versions", region);
    let outlined: String = host
        .lines()
        .skip_while(|l| !l.contains("pencilc: the generated versions of the region"))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("gemm_host_versions_outlined", outlined);
    assert!(host.contains("static PENCILC_NOINLINE int pencilc_region_0(int ni, int nj, int nk, double alpha, double beta, double C[20][25], double A[20][30], double B[30][25]);"));
}

/// gemm's CPU version (`--target c --openmp`) at MINI: the point loops
/// with `j` (contiguous in `C` and `B`) innermost, and, since every tile
/// loop runs once at this size (isl drops them), `parallel for` on the
/// next parallel member, the rows.
#[test]
fn snapshot_gemm_openmp() {
    let dir = scratch("snapshot-gemm-openmp");
    let mut cmd = relative_pencilc("gemm", "c", &dir);
    cmd.arg("--openmp");
    run(&mut cmd, "pencilc");
    let file = std::fs::read_to_string(dir.join("gemm_pencilc.c")).unwrap();
    let region: String = file
        .lines()
        .skip_while(|l| !l.contains("pencilc: region of kernel_gemm"))
        .take_while(|l| !l.starts_with("else"))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("gemm_openmp_region", region);
}

/// The memory hierarchy on gemm with the default sizes, as PPCG's Fig. 2:
/// A and B tiles in shared (local) memory, C in registers (two elements
/// per thread: 32 rows of the tile on 16 threads), and `-v` saying why.
#[test]
fn snapshot_gemm_memory_hierarchy() {
    for (target, file, name, local) in [
        (
            "opencl",
            "gemm_kernel.cl",
            "gemm_memory_kernel_cl",
            "__local double",
        ),
        (
            "cuda",
            "gemm_kernel.cu",
            "gemm_memory_kernel_cu",
            "__shared__ double",
        ),
    ] {
        let dir = scratch(&format!("snapshot-gemm-memory-{}", target));
        let mut cmd = relative_pencilc("gemm", target, &dir);
        // OpenCL for a GPU: the CPU description keeps several-element
        // register tiles out of kernels with barriers (PoCL).
        cmd.args(["-v", "--device", "nvidia-h100"]);
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(
            log.contains("A: shared, tile 20x30, reuse across threads 32x"),
            "{}",
            log
        );
        assert!(
            log.contains("B: shared, tile 30x25, reuse across threads 16x"),
            "{}",
            log
        );
        assert!(log.contains("C: registers, tile 2x1 per thread"), "{}", log);
        let kernel = std::fs::read_to_string(dir.join(file)).unwrap();
        for decl in [
            "double private_C[2][1];".to_string(),
            format!("{} shared_A[20][30];", local),
            format!("{} shared_B[30][25];", local),
        ] {
            assert!(kernel.contains(&decl), "{}\n{}", decl, kernel);
        }
        insta::assert_snapshot!(name, kernel);
    }
}

/// `--dump-sizes` prints what was used in `--sizes` syntax, and feeding it
/// back gives the same code.
#[test]
fn dump_sizes_round_trips() {
    let dir = scratch("dump-sizes");
    let mut cmd = relative_pencilc("gemm", "opencl", &dir);
    cmd.args(["--dump-sizes", "--tile-size", "16"]);
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    let sizes = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(
        sizes,
        "{ kernel[0] -> tile[16, 16, 16]; kernel[0] -> block[16, 16]; kernel[0] -> grid[2147483647, 2147483647] }"
    );
    let first = std::fs::read_to_string(dir.join("gemm_kernel.cl")).unwrap();
    let dir2 = scratch("dump-sizes-2");
    let mut cmd = relative_pencilc("gemm", "opencl", &dir2);
    cmd.args(["--sizes", &sizes]);
    run(&mut cmd, "pencilc --sizes");
    let second = std::fs::read_to_string(dir2.join("gemm_kernel.cl")).unwrap();
    assert_eq!(first, second);
    // A bad value is a usage error, not a panic.
    let mut cmd = relative_pencilc("gemm", "opencl", &dir2);
    cmd.args(["--sizes", "{ kernel[0] -> block[1, 2, 3, 4] }"]);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 3"));
    // A block of more threads than the device allows is refused when the
    // kernel is mapped, not left to fail when the program runs: 1,024 on
    // generic-gpu (512), 4,096 within tiles of 64 x 64 on the H100 (1,024);
    // 1,024 on the H100 is its largest block.
    for (device, sizes, refused) in [
        (
            "generic-gpu",
            "{ kernel[0] -> block[32, 32] }",
            Some("1024 threads, more than the device allows in one block (512)"),
        ),
        (
            "nvidia-h100",
            "{ kernel[0] -> tile[64, 64, 64]; kernel[0] -> block[64, 64] }",
            Some("4096 threads, more than the device allows in one block (1024)"),
        ),
        ("nvidia-h100", "{ kernel[0] -> block[32, 32] }", None),
    ] {
        let mut cmd = relative_pencilc("gemm", "opencl", &dir2);
        cmd.args(["--device", device, "--sizes", sizes]);
        let out = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        match refused {
            Some(why) => {
                assert_eq!(out.status.code(), Some(1), "{}", err);
                assert!(
                    err.contains(why) && err.contains("kernel[0] block["),
                    "{}",
                    err
                );
                assert!(
                    err.contains("help: give kernel[0] a block of at most"),
                    "{}",
                    err
                );
            }
            None => assert!(out.status.success(), "{}", err),
        }
    }
    // Tiles, or tiles times a grid that wraps around them, that would let
    // generated loops step further past their bounds than the entry check
    // allows for (red team of 2026-12-06: `-S 134217728` gave wrong
    // results near `int`'s limits, a tile of 2^31 overflowed its own
    // count) are refused; 2^26 is the largest.
    for (args, refused) in [
        (
            vec!["-S", "134217728"],
            Some("a tile of 134217728 lets its loops step up to 134217728 past their bounds"),
        ),
        (
            vec!["--sizes", "{ kernel[0] -> tile[2147483648, 64, 64] }"],
            Some("a tile of 2147483648"),
        ),
        (vec!["-S", "67108864"], None),
    ] {
        let mut cmd = relative_pencilc("gemm", "opencl", &dir2);
        cmd.args(&args);
        let out = cmd.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        match refused {
            Some(why) => {
                assert_eq!(out.status.code(), Some(1), "{}", err);
                assert!(err.contains(why) && err.contains("[E0301]"), "{}", err);
                assert!(
                    err.contains("help: give kernel[0] a smaller tile (at most 67108864)"),
                    "{}",
                    err
                );
            }
            None => assert!(out.status.success(), "{}", err),
        }
    }
    let mut cmd = relative_pencilc("gemm", "opencl", &dir2);
    cmd.args(["--device", "no-such-gpu"]);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nvidia-h100"));
}

/// A stencil's shared tiles are copied by one loop nest each, over the
/// tile's local index from the thread id in steps of the block size, as
/// PPCG does. Loops over the elements themselves gave a case split by
/// thread id (`t0 == 15`, `(t1 + 31) % 32`) that made jacobi-2d twice as
/// slow with shared memory as without on an H200.
#[test]
fn stencil_halo_copies_are_one_loop_nest_per_tile() {
    let dir = scratch("halo-copies");
    // The H100 serves halos from its L1 cache (`shared_for_halo = false`);
    // the same GPU told to stage them in shared memory.
    let h100 = std::fs::read_to_string(root().join("devices/nvidia-h100.toml")).unwrap();
    assert!(h100.contains("shared_for_halo = false"), "{}", h100);
    let device = dir.join("h100-shared-halos.toml");
    std::fs::write(
        &device,
        h100.replace("shared_for_halo = false", "shared_for_halo = true"),
    )
    .unwrap();
    let mut cmd = Command::new(pencilc());
    cmd.current_dir(root())
        .args(["--target", "cuda", "--device"])
        .arg(&device)
        .args(["--no-versioning"])
        .args([
            "-I",
            "polybench/utilities",
            "-DLARGE_DATASET",
            "--output-dir",
        ])
        .arg(&dir)
        .arg(kernel_path("jacobi-2d"));
    run(&mut cmd, "pencilc");
    let k = std::fs::read_to_string(dir.join("jacobi-2d_kernel.cu")).unwrap();
    assert!(k.contains("__shared__ double shared_A[34][34];"), "{}", k);
    assert!(
        k.contains("for (int m0 = t0; m0 < 34; m0 += 16) {"),
        "{}",
        k
    );
    assert!(
        k.contains("for (int m1 = t1; m1 < 34; m1 += 32) {"),
        "{}",
        k
    );
    for split in ["t0 == ", "t1 == ", "% 32", "% 16 ==", "/ 31"] {
        assert!(!k.contains(split), "`{}` in\n{}", split, k);
    }
    // Each copy in is guarded by the array's bounds alone.
    let copy = k
        .lines()
        .skip_while(|l| !l.contains("for (int m1 = t1; m1 < 34"))
        .nth(1)
        .unwrap();
    assert_eq!(copy.matches("&&").count(), 3, "{}", copy);
    assert!(!copy.contains("||"), "{}", copy);
}

/// CUDA output for review: the kernels with their launchers, the C
/// header that declares the launchers, and the host file's region, C
/// that calls them (the time loop around two launches).
#[test]
fn snapshot_jacobi_2d_cuda() {
    let dir = scratch("snapshot-jacobi");
    let mut cmd = relative_pencilc("jacobi-2d", "cuda", &dir);
    cmd.arg("--no-versioning");
    run(&mut cmd, "pencilc");
    let kernel = std::fs::read_to_string(dir.join("jacobi-2d_kernel.cu")).unwrap();
    insta::assert_snapshot!("jacobi_2d_kernel_cu", kernel);
    let header = std::fs::read_to_string(dir.join("jacobi-2d_kernel.h")).unwrap();
    insta::assert_snapshot!("jacobi_2d_kernel_h", header);
    let host = std::fs::read_to_string(dir.join("jacobi-2d_host.c")).unwrap();
    assert!(
        host.contains("#include <cuda_runtime_api.h>\n#include \"jacobi-2d_kernel.h\"\n"),
        "{}",
        host
    );
    assert!(
        !host.contains("<<<") && !host.contains("__restrict__"),
        "{}",
        host
    );
    let region: String = host
        .lines()
        .skip_while(|l| !l.contains("pencilc: the generated code assumes"))
        .take_while(|l| !l.contains("#pragma endscop"))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("jacobi_2d_cuda_host_region", region);
}

/// Batch mode: one bad file among good ones fails alone; the summary table
/// lists every file with its status and the exit status says one failed.
/// stderr is a pipe here, so there must be no progress bar.
#[test]
fn batch_summary_and_exit_status_with_one_bad_file() {
    let dir = scratch("batch");
    let bad = dir.join("bad.c");
    std::fs::write(
        &bad,
        "void f(int n, double A[n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    A[i] = q;\n#pragma endscop\n}\n",
    )
    .unwrap();
    let (gemm, atax) = (kernel_path("gemm"), kernel_path("atax"));
    let mut cmd = Command::new(pencilc());
    cmd.args(["--target", "opencl", "-j", "2", "--output-dir"])
        .arg(dir.join("out"))
        .args(flags(&gemm, "MINI"))
        .arg("-I")
        .arg(atax.parent().unwrap())
        .arg(&gemm)
        .arg(&bad)
        .arg(&atax);
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", err);
    assert!(err.contains("[E0108]"), "{}", err);
    let table: Vec<&str> = err
        .lines()
        .skip_while(|l| !l.starts_with("file "))
        .collect();
    assert!(
        table.first().is_some_and(|h| h
            .split_whitespace()
            .eq(["file", "regions", "kernels", "time", "ms", "status"])),
        "{}",
        err
    );
    let status = |f: &std::path::Path| {
        let name = f.display().to_string();
        let line = table
            .iter()
            .find(|l| l.starts_with(&name))
            .unwrap_or_else(|| panic!("{} missing from the summary:\n{}", name, err));
        line.rsplit("  ").next().unwrap().to_string()
    };
    assert_eq!(status(&gemm), "ok");
    assert_eq!(status(&atax), "ok");
    assert_eq!(status(&bad), "FAILED");
    assert!(
        table
            .iter()
            .any(|l| l.starts_with("3 files: 2 ok, 1 failed")),
        "{}",
        err
    );
    assert!(dir.join("out/gemm_host.c").exists() && dir.join("out/atax_kernel.cl").exists());
    assert!(!dir.join("out/bad_host.c").exists());
    assert!(
        !err.contains('\r') && !err.contains("\x1b["),
        "progress bar drawn on a pipe:\n{}",
        err
    );

    // One file: no summary table, same exit status as before.
    let out = Command::new(pencilc())
        .args(["--target", "opencl", "--output-dir"])
        .arg(dir.join("out1"))
        .args(flags(&gemm, "MINI"))
        .arg(&gemm)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("files:"));
}

/// On a terminal (`script` gives pencilc one) batch mode draws a progress
/// bar, and clears it before the summary.
#[test]
fn batch_progress_bar_on_a_terminal_only() {
    if Command::new("script").arg("--version").output().is_err() {
        skipped(
            "cli: batch_progress_bar_on_a_terminal_only",
            "`script` (bsdutils) is not installed",
        );
        return;
    }
    let dir = scratch("batch-tty");
    let (gemm, atax) = (kernel_path("gemm"), kernel_path("atax"));
    let cmd = format!(
        "{} --target opencl --output-dir {} -I {} -I {} -I {} -DMINI_DATASET {} {}",
        pencilc().display(),
        dir.display(),
        root().join("polybench/utilities").display(),
        gemm.parent().unwrap().display(),
        atax.parent().unwrap().display(),
        gemm.display(),
        atax.display()
    );
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .unwrap();
    let tty = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", tty);
    assert!(tty.contains("pencilc ["), "no progress bar:\n{}", tty);
    let summary = tty.rsplit("\x1b[2K").next().unwrap();
    assert!(
        summary.starts_with("file "),
        "the bar is not cleared:\n{}",
        tty
    );
    assert!(summary.contains("2 files: 2 ok, 0 failed"), "{}", tty);
}

/// pencilc never writes over its input, nor two outputs into one file, and
/// reads no device or endless file: each is a usage error before any work,
/// and the input is left as it was.
#[test]
fn outputs_never_overwrite_inputs_and_inputs_are_files() {
    let dir = scratch("file-safety");
    let input = dir.join("in.c");
    std::fs::copy(root().join("tests/programs/bounds.c"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let cases: Vec<Vec<std::ffi::OsString>> = vec![
        vec!["-o".into(), input.clone().into(), input.clone().into()],
        vec![
            "-o".into(),
            dir.join("x_host.c").into(),
            "--save-schedule".into(),
            input.clone().into(),
            input.clone().into(),
        ],
        vec!["--device".into(), "/dev/zero".into(), input.clone().into()],
        vec!["/dev/zero".into()],
        vec![dir.clone().into()],
    ];
    for args in cases {
        let out = Command::new(pencilc()).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{:?}: {}", args, err);
        assert!(err.contains("E0301"), "{:?}: {}", args, err);
        assert_eq!(
            std::fs::read(&input).unwrap(),
            before,
            "{:?} changed the input",
            args
        );
    }
    // Two inputs with one name into one folder.
    let (a, b) = (dir.join("a"), dir.join("b"));
    for d in [&a, &b] {
        std::fs::create_dir_all(d).unwrap();
        std::fs::copy(&input, d.join("x.c")).unwrap();
    }
    let out = Command::new(pencilc())
        .arg("--output-dir")
        .arg(dir.join("out"))
        .arg(a.join("x.c"))
        .arg(b.join("x.c"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}", err);
    assert!(err.contains("are the same file"), "{}", err);
    assert!(!dir.join("out").exists());
}

/// Nothing is written over a file the compilation reads, the headers the
/// input includes among them (issue 32, class 9: `X_kernel.cl` replaced
/// the header of that name that `X.c` includes and `-MD` listed): an
/// error before anything is written, the header as it was, no outputs.
/// The dependency file is never written over a header either.
#[test]
fn outputs_never_overwrite_included_headers() {
    let dir = scratch("file-safety-headers");
    let header = dir.join("x_kernel.cl");
    std::fs::write(&header, "#define K 3\n").unwrap();
    let src = dir.join("x.c");
    std::fs::write(
        &src,
        "#include \"x_kernel.cl\"\nvoid f(int n, double A[100]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    A[i] = K;\n#pragma endscop\n}\n",
    )
    .unwrap();
    let out = Command::new(pencilc())
        .current_dir(&dir)
        .args(["--target", "opencl", "-MD", "x.c"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", err);
    assert!(
        err.contains("the kernel file x_kernel.cl would overwrite the input x_kernel.cl")
            && err.contains("[E0301]")
            && !err.contains("panicked"),
        "{}",
        err
    );
    assert_eq!(std::fs::read_to_string(&header).unwrap(), "#define K 3\n");
    assert!(!dir.join("x_host.c").exists() && !dir.join("x_host.d").exists());

    // A header named as the dependency file would be.
    std::fs::rename(&header, dir.join("y_host.d")).unwrap();
    std::fs::write(
        &src,
        std::fs::read_to_string(&src)
            .unwrap()
            .replace("x_kernel.cl", "y_host.d"),
    )
    .unwrap();
    let out = Command::new(pencilc())
        .current_dir(&dir)
        .args(["--target", "opencl", "-MD", "-o", "y_host.c", "x.c"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", err);
    assert!(
        err.contains("the dependency file y_host.d would overwrite"),
        "{}",
        err
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("y_host.d")).unwrap(),
        "#define K 3\n"
    );
    assert!(!dir.join("y_host.c").exists() && !dir.join("y_kernel.cl").exists());
}

/// An input whose name is not UTF-8 (Linux allows any bytes) compiles as
/// any other (issue 32, class 9: a panic in the watchdog after the
/// outputs were written): outputs named from its own bytes, `#line` and
/// `#include` naming the files as they are, the dependency file listing
/// it, the generated program right; an error in such a file is an
/// error, not a crash, and leaves nothing behind.
#[cfg(unix)]
#[test]
fn input_names_that_are_not_utf8() {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    let dir = scratch("file-non-utf8");
    let name = |s: &[u8]| std::path::PathBuf::from(OsString::from_vec(s.to_vec()));
    let src = dir.join(name(b"caf\xe9.c"));
    std::fs::copy(root().join("tests/programs/alias.c"), &src).unwrap();
    for target in ["opencl", "cuda", "c"] {
        let out = Command::new(pencilc())
            .current_dir(&dir)
            .args(["--target", target, "-MD"])
            .arg(name(b"caf\xe9.c"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{}: {}", target, err);
        assert!(!err.contains("panicked"), "{}", err);
    }
    let host = dir.join(name(b"caf\xe9_host.c"));
    let text = std::fs::read(&host).unwrap();
    let has = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).any(|w| w == needle);
    assert!(has(&text, b"#line 7 \"caf\\351.c\""));
    assert!(dir.join(name(b"caf\xe9_pencilc.c")).exists());
    // The CUDA host file (written last) includes its kernel header by name.
    assert!(has(&text, b"#include \"caf\xe9_kernel.h\""));
    let deps = std::fs::read(dir.join(name(b"caf\xe9_host.d"))).unwrap();
    assert!(deps.starts_with(b"caf\xe9_host.c caf\xe9_kernel.cu caf\xe9_kernel.h: caf\xe9.c"));
    // The C target's program prints what the sequential one does.
    let seq = dir.join("seq");
    let par = dir.join("par");
    run(
        Command::new("cc").arg("-O2").arg(&src).arg("-o").arg(&seq),
        "cc",
    );
    run(
        Command::new("cc")
            .arg("-O2")
            .arg(dir.join(name(b"caf\xe9_pencilc.c")))
            .arg("-o")
            .arg(&par),
        "cc (generated)",
    );
    assert_eq!(
        run(&mut Command::new(&seq), "seq").stdout,
        run(&mut Command::new(&par), "par").stdout
    );

    let bad = dir.join(name(b"bad\xff.c"));
    std::fs::write(
        &bad,
        "void f(int n) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    x[i] = 0;\n#pragma endscop\n}\n",
    )
    .unwrap();
    let out = Command::new(pencilc())
        .current_dir(&dir)
        .arg(name(b"bad\xff.c"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", err);
    assert!(
        err.contains("[E0108]") && !err.contains("panicked"),
        "{}",
        err
    );
    assert!(!dir.join(name(b"bad\xff_host.c")).exists());
}

/// `-v` says whether each region's generated code was read back and
/// checked (`ast::executed`); PolyBench's gemm fits the budget on the
/// host, in its kernels and in its launches. Fails if the read back stops running or
/// stops fitting.
#[test]
fn verbose_says_the_generated_code_was_read_back() {
    let src = kernel_path("gemm");
    let dir = scratch("cli-read-back");
    let mut args: Vec<String> = vec!["-v".into(), "--target".into(), "cuda".into()];
    args.extend(flags(&src, "LARGE"));
    args.push("-o".into());
    args.push(dir.join("gemm.c").display().to_string());
    args.push(src.display().to_string());
    let out = Command::new(pencilc()).args(&args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}", err);
    assert!(
        err.contains("the host code is read back: every instance runs once"),
        "{}",
        err
    );
    assert!(
        err.contains("the kernel code is read back: each thread runs its instances once"),
        "{}",
        err
    );
    assert!(
        err.contains("the device version's launches are read back: every instance runs once"),
        "{}",
        err
    );
}

/// `--hoist always` reorders loops of pencilc's own schedules: with isl's
/// scheduler or a loaded schedule it would silently do nothing, so it is
/// refused; saved with `--save-schedule`, a hoisted schedule loads back.
#[test]
fn hoist_always_needs_pencilcs_own_schedules() {
    let dir = scratch("hoist-usage");
    let input = root().join("tests/programs/hoisted_rows.c");
    let saved = dir.join("hoisted.sched");
    // `pencilc --target cuda ARGS -o DIR/NAME_host.c hoisted_rows.c`.
    let cuda = |args: &[&str], name: &str| {
        let mut cmd = Command::new(pencilc());
        cmd.args(["--target", "cuda"])
            .args(args)
            .arg("-o")
            .arg(dir.join(format!("{}_host.c", name)))
            .arg(&input);
        cmd
    };
    let saved_arg = saved.to_str().unwrap();
    run(
        &mut cuda(
            &["--hoist", "always", "--save-schedule", saved_arg],
            "saved",
        ),
        "--hoist always --save-schedule",
    );
    for (args, says) in [
        (
            ["--scheduler", "isl"],
            "--scheduler isl schedules with isl's",
        ),
        (
            ["--load-schedule", saved_arg],
            "--load-schedule takes the file's as written",
        ),
    ] {
        let out = cuda(&[&["--hoist", "always"][..], &args[..]].concat(), "x")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{:?}: {}", args, err);
        assert!(
            err.contains("[E0301]") && err.contains(says),
            "{:?}: {}",
            args,
            err
        );
        assert!(!dir.join("x_host.c").exists(), "{:?} wrote output", args);
    }
    // `never` and `auto` mean nothing more than isl's own schedule there.
    for hoist in ["never", "auto"] {
        run(
            &mut cuda(&["--scheduler", "isl", "--hoist", hoist], "isl"),
            hoist,
        );
    }
    run(
        &mut cuda(&["--load-schedule", saved_arg], "loaded"),
        "--load-schedule",
    );
    run(&mut cuda(&["--hoist", "never"], "kept"), "--hoist never");
    // The kernels (their text after the header comment) are the hoisted
    // ones, which differ from those of pencilc's schedule without hoisting.
    let kernels = |name: &str| {
        let text = std::fs::read_to_string(dir.join(format!("{}_kernel.cu", name))).unwrap();
        text.lines()
            .skip_while(|l| !l.starts_with("__global__"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(!kernels("saved").is_empty());
    assert_eq!(kernels("saved"), kernels("loaded"));
    assert_ne!(kernels("saved"), kernels("kept"));
}
