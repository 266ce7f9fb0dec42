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
    assert!(
        scop.contains("domain: \"[] -> { S_0[i, j] : (i >= 0) and (i < 20)"),
        "{}",
        scop
    );
    assert!(
        scop.contains("write: \"[] -> { S_1[i, k, j] -> C[i, j] }\""),
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

#[test]
fn output_names_follow_ppcg() {
    let src = kernel_path("gemm");
    for (target, files) in [
        ("opencl", vec!["gemm_host.c", "gemm_kernel.cl"]),
        (
            "cuda",
            vec!["gemm_host.cu", "gemm_kernel.cu", "gemm_kernel.hu"],
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
    run(&mut cmd, "pencilc");
    let kernel = std::fs::read_to_string(dir.join("gemm_kernel.cl")).unwrap();
    insta::assert_snapshot!("gemm_kernel_cl", kernel);
    let host = std::fs::read_to_string(dir.join("gemm_host.c")).unwrap();
    let region: String = host
        .lines()
        .skip_while(|l| !l.contains("pencilc: region"))
        .take_while(|l| !l.starts_with("#line"))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("gemm_host_region", region);
}

#[test]
fn snapshot_jacobi_2d_cuda() {
    let dir = scratch("snapshot-jacobi");
    let mut cmd = relative_pencilc("jacobi-2d", "cuda", &dir);
    run(&mut cmd, "pencilc");
    let kernel = std::fs::read_to_string(dir.join("jacobi-2d_kernel.cu")).unwrap();
    insta::assert_snapshot!("jacobi_2d_kernel_cu", kernel);
}
