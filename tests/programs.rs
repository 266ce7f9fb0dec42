//! Small programs that exercise the front end and the mapping: each is run
//! sequentially and through pencilc (OpenCL on PoCL, and the C target), and
//! their printed results must agree.

mod common;
use common::*;
use std::process::Command;

fn output(exe: &std::path::Path) -> String {
    let mut r = Command::new(exe);
    r.env("PENCILC_OPENCL_DEVICE", "cpu");
    String::from_utf8_lossy(&run(&mut r, "running").stdout).into_owned()
}

fn check(name: &str) {
    check_with(name, "", &[]);
}

/// `check` with extra pencilc arguments (`tag` keeps the scratch folders
/// apart).
fn check_with(name: &str, tag: &str, extra: &[&str]) {
    let src = root().join("tests/programs").join(format!("{}.c", name));
    let dir = scratch(&format!("program-{}{}", name, tag));
    let seq = dir.join("seq");
    run(
        Command::new("cc")
            .arg("-O2")
            .arg("-I")
            .arg(root().join("pencil-headers"))
            .arg(&src)
            .arg("-lm")
            .arg("-o")
            .arg(&seq),
        "cc",
    );
    let expected = output(&seq);
    for (target, file, libs) in [
        ("c", "p_pencilc.c", vec!["-lm"]),
        ("opencl", "p_host.c", vec!["-lOpenCL", "-lm"]),
    ] {
        let host = dir.join(file);
        run(
            Command::new(pencilc())
                .args(["--target", target])
                .args(extra)
                .arg("-o")
                .arg(&host)
                .arg(&src),
            "pencilc",
        );
        let exe = dir.join(format!("par-{}", target));
        run(
            Command::new("cc")
                .arg("-O2")
                .arg("-I")
                .arg(root().join("pencil-headers"))
                .arg(&host)
                .args(&libs)
                .arg("-o")
                .arg(&exe),
            "cc (generated)",
        );
        assert_eq!(output(&exe), expected, "{} on target {}", name, target);
    }
}

#[test]
fn generated_names_do_not_shadow_user_variables() {
    check("names");
}

#[test]
fn bounds_divisions_and_conditions() {
    check("bounds");
}

#[test]
fn three_thread_dimensions_floats_and_live_out_scalars() {
    check("deep");
}

#[test]
fn chained_assignments_become_one_statement_per_link() {
    check("chained");
}

/// A loop runs from its lower bound while its condition has held at every
/// value so far (issue 14, item 2): a condition false at the lower bound
/// and true later ran 10 iterations instead of none.
#[test]
fn loop_conditions_are_tested_from_the_lower_bound_on() {
    check("loop_conditions");
}

/// The function's variables that loops use as iterators hold, after the
/// region, what C leaves there (issue 14, item 4): `i = -5` before
/// `for (i = 0; i < 10; i++)` was still -5 after it.
#[test]
fn iterators_live_after_the_region() {
    check("live_out_iterators");
}

/// Iterators and generated loops keep C's integer types (issue 14, item
/// 3): a `long` loop beyond INT_MAX got `int` iterators and never ended;
/// `long long` buffers are `long` in OpenCL C.
#[test]
fn iterators_keep_their_integer_types() {
    check("integer_types");
}

/// An assumption under an `if` or in a loop holds only where it is
/// reached (issue 14, item 6): `if (m > 0) __pencil_assume(n % 32 == 0)`
/// made n = 33, m = 0 lose element 32.
#[test]
fn assumptions_hold_only_where_reached() {
    check("assume_context");
}

/// Constant strides are divided out of shared tiles (x[2j]: 32 places, not
/// 63), for read-only and for written groups (with `--shared-write-back`),
/// and the result is unchanged.
#[test]
fn strided_shared_tiles_hold_only_the_elements_used() {
    check("strided");
    check_with("strided", "-write-back", &["--shared-write-back"]);
    let src = root().join("tests/programs/strided.c");
    let dir = scratch("program-strided-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--shared-write-back", "--target", "opencl", "-o"])
            .arg(dir.join("p_host.c"))
            .arg(&src),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    for line in [
        "x: shared, tile 32 (strides 2)",
        "y: shared, tile 32 (strides 3)",
        "B: shared, tile 32x32 (strides 1x2)",
    ] {
        assert!(log.contains(line), "{}\n{}", line, log);
    }
    let k = std::fs::read_to_string(dir.join("p_kernel.cl")).unwrap();
    for decl in [
        "__local double shared_x[32];",
        "__local double shared_y[32];",
        "__local double shared_B[32][32];",
    ] {
        assert!(k.contains(decl), "{}\n{}", decl, k);
    }
    // The copies deal out tile places, not array elements: with the
    // elements 2 or 3 apart, dealing out elements left the threads with
    // t1 % 2 != 0 idle (`if (t1 % 2 == 0)`) and needed floord to find y's.
    assert!(
        k.contains("shared_y[(3 * t1 + 96 * b1 + 1 - shared_y_o0) / 3] = y[3 * t1 + 96 * b1 + 1];"),
        "{}",
        k
    );
    let body = &k[k.find("__kernel").unwrap()..];
    assert!(
        !body.contains("% 2 == 0") && !body.contains("floord"),
        "{}",
        body
    );
}

/// The guards a kernel does not need: block ids beyond the launch's grid
/// (`b0 <= 31 && b1 <= 34`, or `b0 == 0` with one block) and the tile
/// loop's stride in the copies (`c2 % 32 == 0`). gemm at LARGE for the
/// H100 has 32 x 35 blocks of 32x32 tiles and steps `c2 += 32`; with
/// PolyBench's run-time bounds (the default) the extents bound the sizes
/// (`nj <= 1100`), so the kernel is the same but for the last tiles' test.
#[test]
fn gemm_kernel_has_no_grid_or_stride_guards() {
    let src = kernel_path("gemm");
    for (mode, last_tile) in [
        (None, "nj >= t1 + 32 * b1 + 1"),
        (Some("-DPOLYBENCH_USE_SCALAR_LB"), "t1 + 32 * b1 <= 1099"),
    ] {
        let dir = scratch("program-gemm-guards");
        run(
            Command::new(pencilc())
                .args(["--target", "cuda", "--device", "nvidia-h100"])
                .args(flags(&src, "LARGE"))
                .args(mode)
                .arg("-o")
                .arg(dir.join("p_host.cu"))
                .arg(&src),
            "pencilc",
        );
        let k = std::fs::read_to_string(dir.join("p_kernel.cu")).unwrap();
        let body = &k[k.find("__global__").unwrap()..];
        for guard in ["b0 <= 31", "b1 <= 34", "% 32 == 0", "b0 == 0"] {
            assert!(
                !body.contains(guard),
                "{:?}: `{}` in\n{}",
                mode,
                guard,
                body
            );
        }
        // Still there: the guards that do something (the last partial tiles).
        assert!(body.contains(last_tile), "{:?}: {}", mode, body);
    }
}
