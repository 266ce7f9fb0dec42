//! C as DSL compilers write it (issue 16): pointer parameters, pointer-to-
//! array casts and linearised subscripts. Each program runs sequentially
//! and through pencilc (OpenCL on PoCL, and the C target), and their
//! printed results must agree; hostile inputs (aliasing pointers,
//! subscripts that leave their rows, zero and negative sizes) must give
//! the sequential results too.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn program(name: &str) -> PathBuf {
    root().join("tests/programs").join(format!("{}.c", name))
}

/// The CUDA output of `src`, run on tests/fakecuda, prints what the
/// sequential program prints, in every version of its regions.
fn cuda_emulated(src: &Path, tag: &str) {
    let dir = scratch(&format!("dsl-{}-cuda", tag));
    let host = dir.join("p_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "cuda", "-o"])
            .arg(&host)
            .arg(src),
        "pencilc --target cuda",
    );
    let headers = root().join("pencil-headers").display().to_string();
    let exe = dir.join("par-cuda-emulated");
    build_emulated_cuda(
        &host,
        &dir.join("p_kernel.cu"),
        &["-I".to_string(), headers.clone()],
        &[],
        &exe,
    );
    let seq = dir.join("seq");
    run(
        Command::new("cc")
            .args(["-O2", "-I", &headers])
            .arg(src)
            .args(["-lm", "-o"])
            .arg(&seq),
        "cc",
    );
    let want = run(&mut Command::new(&seq), "sequential program");
    assert_every_version_prints(&exe, &want.stdout, &src.display().to_string());
}

/// `pencilc -v` for OpenCL on `src`; what it printed.
fn verbose(src: &Path, tag: &str) -> String {
    let dir = scratch(&format!("dsl-{}-v", tag));
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--target", "opencl", "-o"])
            .arg(dir.join("p_host.c"))
            .arg(src),
        "pencilc -v",
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// What `-DPENCILC_TIME_REGION` reports for the OpenCL build of `src`:
/// (regions run in generated code, bytes to the device, bytes back).
fn region_counts(src: &Path, tag: &str) -> (u64, u64, u64) {
    let dir = scratch(&format!("dsl-{}-counts", tag));
    let host = dir.join("p_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "opencl", "-o"])
            .arg(&host)
            .arg(src),
        "pencilc",
    );
    let exe = dir.join("par");
    run(
        Command::new("cc")
            .args(["-O2", "-DPENCILC_TIME_REGION"])
            .arg(&host)
            .args(["-lOpenCL", "-lm", "-o"])
            .arg(&exe),
        "cc (generated)",
    );
    let mut r = Command::new(&exe);
    // The device version's copies are what is counted: buffers of their
    // own, not PoCL's zero copy, which moves nothing.
    r.env("PENCILC_OPENCL_DEVICE", "cpu")
        .env("PENCILC_RUN", "device")
        .env("PENCILC_ZERO_COPY", "0");
    let out = run(&mut r, "running");
    let log = String::from_utf8_lossy(&out.stderr);
    let field = |key: &str| -> u64 {
        let line = log
            .lines()
            .find(|l| l.starts_with("pencilc-region:"))
            .unwrap_or_else(|| panic!("no region report:\n{}", log));
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|w| *w == key)
            .unwrap_or_else(|| panic!("no `{}` in {}", key, line));
        words[at + 1].parse().unwrap()
    };
    (
        field("runs"),
        field("bytes_to_device"),
        field("bytes_from_device"),
    )
}

/// Pointer parameters are arrays (item 1): gemm over `restrict` pointers
/// with linearised subscripts gets gemm's 2-d kernel with A and B in
/// local memory, a pointer read before where it points and one written
/// after an offset, a pointer local to the function. The buffers hold
/// exactly the elements each region touches: the bytes copied are those
/// of the touched ranges (gemm: A 37x29, B 29x45, C 37x45 floats;
/// `shift`: x[-1..39] in, y[3..41] out, which the region writes whole
/// and so does not copy in; `total`: 15 doubles, and the scalar `s`), no
/// more. The CUDA output (`restrict` is C++'s `__restrict__`) gives the
/// same results on fakecuda.
#[test]
fn pointer_parameters_are_arrays() {
    let src = program("pointers");
    check_source(&src, &scratch("dsl-pointers"), &[]);
    let log = verbose(&src, "pointers");
    for line in [
        "array A: delinearised as A[*][k] (`A[i * k + l]` is `A[i][l]`), in range",
        "array C: delinearised as C[*][m]",
        "kernel[0] A: shared, tile 32x32",
        "kernel[0] B: shared, tile 32x32",
        // `total`'s sum is a reduction found in the code, fused with the
        // update before it (it was a kernel of one work-item).
        "`s` accumulates (add) over loop `i`: a reduction",
        "3 region(s), 3 kernel(s), parallel dims [2, 1, 1]",
    ] {
        assert!(log.contains(line), "no `{}`:\n{}", line, log);
    }
    assert!(!log.contains("warning"), "{}", log);
    let to = 4 * (37 * 29 + 29 * 45 + 37 * 45) + 8 * 41 + 8 * 15 + 8;
    let from = 4 * 37 * 45 + 8 * 39 + 8 * 15 + 8;
    assert_eq!(region_counts(&src, "pointers"), (3, to, from));
    cuda_emulated(&src, "pointers");
}

/// Pointers without `restrict` (item 1): the generated code runs where
/// the ranges the region touches do not overlap (two calls of four), and
/// the user's code elsewhere; both give the sequential results, on every
/// target (`--target c --openmp` had no overlap check for pointers, issue
/// 32: the in-place call ran in parallel).
#[test]
fn overlapping_pointers_run_the_original_code() {
    let src = program("pointer_alias");
    check_source(&src, &scratch("dsl-pointer-alias"), &[]);
    let (runs, _, _) = region_counts(&src, "pointer-alias");
    assert_eq!(runs, 2);
    cuda_emulated(&src, "pointer-alias");
}

/// Many pointers that may overlap: twelve pairs over six ranges are
/// checked from a table (`pencilc_disjoint`), each range written once (72
/// pointers made 2,556 pairs, each printing both ranges, a line of
/// 888,000 characters that cc took 31 s over). The table still finds an
/// overlap in its last pair and in its first: two calls of four run the
/// generated code, and every version gives the sequential results.
#[test]
fn many_overlapping_pointers_are_checked_from_a_table() {
    let src = program("pointer_alias_many");
    check_source(&src, &scratch("dsl-pointer-alias-many"), &[]);
    let (runs, _, _) = region_counts(&src, "pointer-alias-many");
    assert_eq!(runs, 2);
    let host = scratch("dsl-pointer-alias-many-text").join("p_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "opencl", "-o"])
            .arg(&host)
            .arg(&src),
        "pencilc",
    );
    let text = std::fs::read_to_string(&host).unwrap();
    assert!(text.contains("pencilc_disjoint(12, "), "{}", text);
    let longest = text.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 1500, "a line of {} characters", longest);
    cuda_emulated(&src, "pointer-alias-many");
}

/// Pointer-to-array casts (item 2): inside the region (a 3-d stencil whose
/// buffer is also read with a linearised subscript of the cast's shape),
/// just before it (constant rows), and a pointer to rows as a parameter:
/// each is an array of the cast's shape, with kernels as parallel as the
/// loops (3-d, 2-d, 2-d), and the sequential results.
#[test]
fn pointer_to_array_casts_are_arrays_of_their_shape() {
    let src = program("casts");
    check_source(&src, &scratch("dsl-casts"), &[]);
    let log = verbose(&src, "casts");
    for line in [
        "array u_vec: a pointer-to-array cast makes it u_vec[*][ny][nz], in range",
        "array in: a pointer to rows of in[*][64], checked at run time (n <= 64;",
        "array mat: a pointer to rows of mat[*][cols], in range",
        "3 region(s), 3 kernel(s), parallel dims [3, 2, 2]",
    ] {
        assert!(log.contains(line), "no `{}`:\n{}", line, log);
    }
    assert!(!log.contains("warning"), "{}", log);
    // Pointers to variable-length arrays are C: the CUDA host file (C)
    // keeps them.
    cuda_emulated(&src, "casts");
}

/// Delinearisation (item 3) against hostile calls: rows that overlap
/// (`m > mm`), rows of zero elements (`mm == 0`), no columns (`m == 0`),
/// constant rows too short for the columns used (`nj > 64`), reversed
/// rows and offsets in three parametric dimensions, a subscript that
/// crosses into the next row (no shape holds: the region keeps its code),
/// and pointers without `restrict` called overlapping and in place. Every
/// call gives the sequential result, on PoCL, the C target and fakecuda;
/// the generated code runs in exactly the 5 calls where it may.
#[test]
fn delinearised_shapes_hold_or_the_original_code_runs() {
    let src = program("delinearise");
    check_source(&src, &scratch("dsl-delinearise"), &[]);
    let log = verbose(&src, "delinearise");
    for line in [
        "array A: delinearised as A[*][mm] (`A[i * mm + j]` is `A[i][j]`), checked at run time (mm >= m;",
        "`__pencil_assume(mm >= m);` would prove it",
        "array B: delinearised as B[*][64] (`B[i * 64 + j]` is `B[i][j]`), checked at run time (nj <= 64;",
        "array out: delinearised as out[*][p][q] (`out[((n - 1 - i) * p + j - 1) * q + k + 1]` is `out[-i + n - 1][j - 1][k + 1]`), in range",
        "array src: delinearised as src[*][m]",
        "parallel dims [1, 2, 3, 2]",
        "cannot be delinearised as A[*][m] (`A[i][j]`): its subscript in dimension 1 must stay in `0 <= . < m`",
    ] {
        assert!(log.contains(line), "no `{}`:\n{}", line, log);
    }
    let (runs, _, _) = region_counts(&src, "delinearise");
    assert_eq!(runs, 5);
    cuda_emulated(&src, "delinearise");
}

/// Run-time row lengths are build-time constants of the kernels
/// (back::specialise): each region's OpenCL program is built for the row
/// lengths it runs with, at most four builds kept, the kernels as written
/// past that or with `PENCILC_SPECIALISE=0`; every path prints the
/// sequential results (`check_source` runs each version; here the device
/// version through the cached, new and generic programs).
#[test]
fn kernels_are_built_for_the_row_lengths_they_run_with() {
    let src = program("row_lengths");
    let dir = scratch("dsl-row-lengths");
    check_source(&src, &dir, &[]);
    let kernels = std::fs::read_to_string(dir.join("p_kernel.cl")).unwrap();
    for line in [
        "#define pencilc_row_m ((int) (PENCILC_VALUE_m))",
        "#define pencilc_row_k ((int) (PENCILC_VALUE_k))",
        "#undef pencilc_row_m",
    ] {
        assert!(kernels.contains(line), "no `{}`:\n{}", line, kernels);
    }
    // Loop bounds are not specialised: a build per size would be too many.
    assert!(!kernels.contains("PENCILC_VALUE_n"), "{}", kernels);
    let exe = dir.join("par-opencl");
    let run_with = |specialise: &str| {
        let mut r = Command::new(&exe);
        r.env("PENCILC_OPENCL_DEVICE", "cpu")
            .env("PENCILC_OPENCL_OPTIONS", "-DPENCILC_NO_FP_CONTRACT")
            .env("PENCILC_RUN", "device")
            .env("PENCILC_VERBOSE", "1")
            .env("PENCILC_SPECIALISE", specialise);
        let out = run(&mut r, "running");
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (specialised, log) = run_with("1");
    let builds: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("pencilc: OpenCL kernels built for "))
        .collect();
    assert_eq!(
        builds,
        [
            "pencilc: OpenCL kernels built for -DPENCILC_VALUE_k=7 -DPENCILC_VALUE_m=33",
            "pencilc: OpenCL kernels built for -DPENCILC_VALUE_m=33",
            "pencilc: OpenCL kernels built for -DPENCILC_VALUE_min=31",
            "pencilc: OpenCL kernels built for -DPENCILC_VALUE_k=33 -DPENCILC_VALUE_m=1",
        ],
        "{}",
        log
    );
    // The device version's estimate counts a build where its program is
    // not built yet: the first five runs (four sets of row lengths, then
    // the kernels as written), not the ones that find theirs.
    let setup: Vec<bool> = log
        .lines()
        .filter(|l| l.contains("(PENCILC_RUN=device"))
        .map(|l| l.contains(" bytes, setup)"))
        .collect();
    let mut want = vec![true; 5];
    want.resize(27, false);
    assert_eq!(setup, want, "{}", log);
    // A row length named `min` (PoCL defines a `min` macro) is read
    // through a macro of pencilc's own: no redefinition warning, and loop
    // bounds keep the argument.
    assert!(
        kernels.contains("#define pencilc_row_min ((int) (PENCILC_VALUE_min))"),
        "{}",
        kernels
    );
    assert!(!kernels.contains("#define min"), "{}", kernels);
    assert!(!log.contains("warning"), "{}", log);
    let (generic, log) = run_with("0");
    assert!(!log.contains("built for"), "{}", log);
    assert_eq!(specialised, generic);
    assert_eq!(specialised.lines().count(), 9, "{}", specialised);
}

/// The generated corpus (item 4) is what scripts/flatten-polybench.py
/// makes of the 2-d sources: regenerating changes nothing.
#[test]
fn flat_polybench_is_generated_from_the_2d_sources() {
    let script = root().join("scripts/flatten-polybench.py");
    let out = match Command::new("python3").arg(&script).arg("--check").output() {
        Ok(o) => o,
        Err(e) => {
            skipped("flatten-polybench --check", &format!("no python3: {}", e));
            return;
        }
    };
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let list = std::fs::read_to_string(root().join("polybench/flat/kernels.txt")).unwrap();
    let n = list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .count();
    assert!(n >= 20, "{} generated kernels", n);
}

/// What `-v` says of the kernels, normalised for comparison: the kernel
/// count and parallel dimensions, and each array's placement per kernel
/// (shared and register tiles with their sizes; global without the
/// reason, which names the tile that did not fit). `X_vec`, the buffer a
/// cast reshapes, is `X`. And the kernel file, less its header line and
/// with `_vec` dropped too.
fn placements(src: &Path, dataset: &str, extra: &[&str]) -> (Vec<String>, String) {
    let dir = scratch("dsl-flat-v");
    let utilities = root().join("polybench/utilities");
    let out = run(
        Command::new(pencilc())
            // What is compared is what pencilc chooses, not how the
            // machine's load cut its time short (a fallback rung).
            .args([
                "-v",
                "--target",
                "opencl",
                "--schedule-timeout",
                "600",
                "-I",
            ])
            .arg(&utilities)
            .arg("-I")
            .arg(src.parent().unwrap())
            .arg(format!("-D{}_DATASET", dataset))
            .args(["-DPOLYBENCH_DUMP_ARRAYS", "-DPOLYBENCH_TIME"])
            .args(extra)
            .arg("-o")
            .arg(dir.join("p_host.c"))
            .arg(src),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    let mut lines: Vec<String> = log
        .lines()
        .filter_map(|l| {
            let l = l.splitn(3, ": ").nth(2)?;
            if l.starts_with("kernel[") {
                let (head, what) = l.split_once(": ")?;
                let head = head.trim_end_matches("_vec");
                Some(if what.starts_with("global") {
                    format!("{}: global", head)
                } else {
                    format!("{}: {}", head, what)
                })
            } else if l.contains("parallel dims") {
                Some(l[..=l.find(']')?].to_string())
            } else {
                None
            }
        })
        .collect();
    lines.sort();
    lines.dedup();
    let kernels = std::fs::read_to_string(dir.join("p_kernel.cl")).unwrap();
    let kernels = kernels.split_once('\n').map_or("", |(_, k)| k);
    (lines, kernels.replace("_vec", ""))
}

/// The generated corpus against the 2-d form (item 4): 14 PolyBench
/// kernels, linearised over `restrict` pointers and cast from flat
/// pointers in the region, give the sequential results on PoCL at MINI,
/// and the same kernels, parallel dimensions and shared/register
/// placements as the 2-d sources built with run-time extents
/// (`POLYBENCH_USE_C99_PROTO`: what a pointer tells, no constant bound
/// on the rows), at MINI and LARGE.
#[test]
fn flat_polybench_matches_the_2d_form() {
    use pencilc::harness::{self, report, HarnessOptions};
    let flat = root().join("polybench/flat");
    let kernels = harness::polybench_kernels(&flat).unwrap();
    let originals = harness::polybench_kernels(&root().join("polybench")).unwrap();
    let mut differ = Vec::new();
    let mut placed = 0;
    for dataset in ["MINI", "LARGE"] {
        for k in &kernels {
            let base = k.name.rsplit_once('-').unwrap().0;
            let orig = originals.iter().find(|o| o.name == base).unwrap();
            let (want, want_code) =
                placements(&orig.source, dataset, &["-DPOLYBENCH_USE_C99_PROTO"]);
            let (got, got_code) = placements(&k.source, dataset, &[]);
            // The same kernel code too, where nothing but the arrays'
            // declarations differ (not a subscript that subtracts a
            // buffer's offset, work the 2-d form does not do); two
            // differ in what they rightly know: correlation's flat
            // forms drop a guard the 2-d form's extent needs (1 line),
            // and doitgen's never pass `nr`, the extent no subscript
            // reads (2 kernels' parameter lists).
            let allowed = match base {
                "correlation" => 1,
                "doitgen" => 2,
                _ => 0,
            };
            let (w, g): (Vec<&str>, Vec<&str>) =
                (want_code.lines().collect(), got_code.lines().collect());
            let differing = w.iter().zip(&g).filter(|(a, b)| a != b).count();
            if w.len() != g.len() || differing > allowed {
                differ.push(format!(
                    "{} at {}: the kernels differ from the 2-d form's:\n{}\n---\n{}",
                    k.name, dataset, want_code, got_code
                ));
            }
            assert!(
                want.iter().any(|l| l.contains("parallel dims")),
                "{:?}",
                want
            );
            placed += want.len() - 1;
            if want != got {
                differ.push(format!(
                    "{} at {}:\n  2-d:  {:?}\n  flat: {:?}",
                    k.name, dataset, want, got
                ));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(placed > 100, "{} placements compared", placed);

    let mut opts = HarnessOptions::new(flat, pencilc(), root().join("target/e2e/dsl-flat"));
    opts.dataset = "MINI".into();
    opts.runs = 1;
    // Every version of every region, each compared.
    opts.versions = harness::Versions::All;
    let results = harness::run_suite(&opts, &|r| {
        eprintln!(
            "{}: {}",
            r.name,
            if r.correct { "correct" } else { "NOT CORRECT" }
        )
    })
    .unwrap();
    let table = report::table(&results, &opts);
    println!("{}", table);
    assert_eq!(results.len(), kernels.len());
    let bad: Vec<String> = results
        .iter()
        .filter(|r| !r.correct || r.error.is_some() || !r.warnings.is_empty())
        .map(|r| format!("{}: {} {:?}", r.name, report::note(r), r.warnings))
        .collect();
    assert!(bad.is_empty(), "{}\n{}", bad.join("\n"), table);
}
