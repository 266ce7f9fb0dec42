//! Every program of the corpus (`examples/pencil/`, `tests/programs/`)
//! compiles without the C compiler's complaint about pencilc's input, and
//! what pencilc generates for it builds: the OpenCL kernels with a strict
//! OpenCL C 1.2 front end (clang), without the precedence warnings that an
//! OpenCL implementation prints when it builds them at run time, and the
//! CUDA host (C) and kernel files with nvcc, compiled and linked into a
//! program (issue 15, item 4). Whether the programs compute the right
//! thing is the business of the tests that run them (`pencil`,
//! `programs`); this one catches code that no user could build, for every
//! file, including files added later without a test of their own.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpus: each C file with the device-code file of its summary
/// functions, if it has one (`abf.c` and `abf_fft32.cl`).
fn corpus() -> Vec<(PathBuf, Option<PathBuf>)> {
    let mut out = Vec::new();
    for dir in ["examples/pencil", "tests/programs"] {
        let dir = root().join(dir);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "c"))
        {
            let stem = f.file_stem().unwrap().to_string_lossy().to_string();
            let device = files.iter().find(|g| {
                g.extension().is_some_and(|e| e == "cl")
                    && g.file_stem().unwrap().to_string_lossy().starts_with(&stem)
            });
            out.push((f.clone(), device.cloned()));
        }
    }
    assert!(out.len() > 30, "corpus not found: {:?}", out);
    out
}

/// pencilc for `target`, writing `host`; its stderr.
fn generate(src: &Path, device: Option<&Path>, target: &str, host: &Path) -> String {
    let mut cmd = Command::new(pencilc());
    cmd.args(["--target", target, "--schedule-timeout", "10", "-o"])
        .arg(host);
    if let Some(d) = device {
        let (flag, file) = match target {
            "cuda" => ("--cuda-include-file", d.with_extension("cu")),
            _ => ("--opencl-include-file", d.to_path_buf()),
        };
        cmd.arg(flag).arg(file);
    }
    let out = run(cmd.arg(src), "pencilc");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// What is wrong with the builds of one corpus program, in `dir`.
fn check(
    src: &Path,
    device: Option<&Path>,
    dir: &Path,
    clang: Option<&str>,
    nvcc: Option<&Path>,
) -> Vec<String> {
    let mut failures = Vec::new();
    let name = src.file_stem().unwrap().to_string_lossy().to_string();
    let here = dir.join(&name);
    std::fs::create_dir_all(&here).unwrap();
    let err = generate(src, device, "opencl", &here.join("p_host.c"));
    if err.contains("[E0002]") {
        failures.push(format!(
            "{}: the C compiler rejects the input:\n{}",
            name, err
        ));
    }
    if let Some(clang) = clang {
        let out = Command::new(clang)
            .args(["-x", "cl", "-cl-std=CL1.2", "-target", "spir64"])
            .args(["-Xclang", "-finclude-default-header", "-fsyntax-only"])
            .args([
                "-Werror=implicit-function-declaration",
                "-Werror=parentheses",
            ])
            .arg(here.join("p_kernel.cl"))
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push(format!(
                "{}: strict OpenCL C:\n{}",
                name,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let Some(nvcc) = nvcc else { return failures };
    // The user's build line: nvcc compiles the host file as C (with the
    // host C compiler) and the kernel file as CUDA, and links.
    generate(src, device, "cuda", &here.join("cuda_host.c"));
    let out = Command::new(nvcc)
        .args(["-arch=sm_90", "-I"])
        .arg(root().join("pencil-headers"))
        .arg("-I")
        .arg(src.parent().unwrap())
        .arg(here.join("cuda_host.c"))
        .arg(here.join("cuda_kernel.cu"))
        .args(["-lm", "-o"])
        .arg(here.join("p-cuda"))
        .current_dir(&here)
        .output()
        .unwrap();
    if !out.status.success() {
        failures.push(format!(
            "{}: nvcc:\n{}",
            name,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    failures
}

#[test]
fn every_corpus_program_builds_as_opencl_c_and_cuda() {
    let dir = scratch("corpus-builds");
    let clang = strict_opencl_compiler();
    let nvcc = nvcc();
    if nvcc.is_none() {
        skipped(
            "corpus_builds: nvcc builds",
            "nvcc could not be installed (scripts/setup-nvcc.sh)",
        );
    }
    // One program after another kept one core busy for a sixth of the
    // whole suite's time (cargo runs test binaries one at a time, and this
    // binary has one test), so the programs are shared among a worker per
    // core; each program's files live in a folder of their own.
    let corpus = corpus();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut failures: Vec<(usize, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut found = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((src, device)) = corpus.get(i) else {
                            return found;
                        };
                        let f = check(src, device.as_deref(), &dir, clang, nvcc.as_deref());
                        if !f.is_empty() {
                            found.push((i, f));
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    // In corpus order, whichever worker met them.
    failures.sort_by_key(|(i, _)| *i);
    let failures: Vec<String> = failures.into_iter().flat_map(|(_, f)| f).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
