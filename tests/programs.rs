//! Small programs that exercise the front end and the mapping: each is run
//! sequentially and through pencilc (OpenCL on PoCL, and the C target), and
//! their printed results must agree.

mod common;
use common::*;
use std::path::PathBuf;
use std::process::Command;

fn check(name: &str) {
    check_with(name, "", &[]);
}

/// `check` with extra pencilc arguments (`tag` keeps the scratch folders
/// apart).
fn check_with(name: &str, tag: &str, extra: &[&str]) {
    let src = root().join("tests/programs").join(format!("{}.c", name));
    let dir = scratch(&format!("program-{}{}", name, tag));
    check_source(&src, &dir, extra);
}

/// Every generated kernel of the test programs builds with a strict OpenCL
/// front end (`check` runs it on each), and math functions see C's
/// prototype conversions: `sqrt(i)`, `floor(L[i])` of a `long long`, a
/// float `sqrt`'s double precision, a double `sqrtf`'s float precision.
#[test]
fn math_arguments_are_converted_as_in_c() {
    check("conversions");
    let dir = root().join("target/e2e/program-conversions");
    let k = std::fs::read_to_string(dir.join("p_kernel.cl")).unwrap();
    for text in [
        "sqrt((double)",
        "floor((double)",
        "__global long *restrict L",
        "- 1.1f != 0 ?",
    ] {
        assert!(k.contains(text), "{}\n{}", text, k);
    }
    assert!(!k.contains("long long"), "{}", k);
}

/// Enumeration constants (issue 15: real PENCIL image code scales
/// colours by them): values given, implicit and computed from others, a
/// negative one, one as an array extent and loop bound, a function's own
/// enum, and a local variable hiding an enumerator.
#[test]
fn enumeration_constants_are_their_values() {
    check("enums");
    check_cuda_emulated("enums");
}

/// Arrays of structs whose members are of one type (issue 15: complex
/// numbers of DSL-generated BLAS), nested and typedef'd structs, a struct
/// array declared in a region: on C (members printed back), PoCL and
/// emulated CUDA (the members' places in plain buffers).
#[test]
fn arrays_of_structs_of_one_member_type() {
    check("structs");
    check_cuda_emulated("structs");
    let host =
        std::fs::read_to_string(root().join("target/e2e/program-structs/p_pencilc.c")).unwrap();
    assert!(host.contains("].pos.x"), "{}", host);
}

/// Regions in a header the input includes, twice under other macros
/// (as PENCIL's HOG benchmark includes its implementation): each
/// inclusion's region is compiled and the header pasted there; a
/// `reduction(+: hist[g])` of one row of an array.
#[test]
fn regions_in_included_headers() {
    check("included_regions");
    let host = std::fs::read_to_string(root().join("target/e2e/program-included_regions/p_host.c"))
        .unwrap();
    assert_eq!(
        host.matches("included_regions.h, included here").count(),
        2,
        "{}",
        host
    );
    assert!(
        !host.contains("#include \"included_regions.h\""),
        "{}",
        host
    );
    // Dumps say which file the lines are in: tools that mark the input's
    // region lines (tests/fuzz.rs) must not take the header's for its own.
    let dump = Command::new(pencilc())
        .args(["--emit", "scop", "-I"])
        .arg(root().join("tests/programs"))
        .arg(root().join("tests/programs/included_regions.c"))
        .output()
        .unwrap();
    let dump = String::from_utf8_lossy(&dump.stdout);
    assert_eq!(dump.matches("at lines 13-32 of ").count(), 2, "{}", dump);
    assert!(
        dump.contains("included_regions.h (included at line 13)"),
        "{}",
        dump
    );
    assert!(
        dump.contains("included_regions.h (included at line 16)"),
        "{}",
        dump
    );
}

/// A `#pragma once` header with a region, included twice: pasted once,
/// the second `#include` dropped (it would define the function twice); a
/// region two inclusions deep stays as it is, with a warning.
#[test]
fn regions_in_pragma_once_and_nested_headers() {
    let warnings = program_matches_sequential("included_once", "", &[]);
    assert!(
        warnings.contains("included_deep.h:7:1: warning: this region is in a header that the input includes through another header"),
        "{}",
        warnings
    );
}

/// `static` variables are one object for the program (issue 32, class
/// 2): a function's static counter updated by its region across calls, a
/// file-scope static, `static const` locals of the region; every version
/// on every target, and on emulated CUDA.
#[test]
fn static_variables_are_one_object() {
    check("static_locals");
    check_cuda_emulated("static_locals");
}

/// Regions called from the program's own OpenMP threads at once (issue
/// 32, class 7: the device version crashed, "no OpenCL device found" or
/// OpenCL error -34, with the setup and the program cache shared and
/// unguarded). Every version on every target (`check` runs OpenCL with
/// -fopenmp), the device version on PoCL again several times (a race
/// need not show in one run), and the CUDA output on fakecuda with the
/// threads.
#[test]
fn regions_called_from_several_threads() {
    check("threads");
    let dir = root().join("target/e2e/program-threads");
    let want = run(&mut Command::new(dir.join("seq")), "sequential program").stdout;
    // PoCL's own data path (buffers wrapping the arrays) and, every other
    // run, buffers of their own from the pool the threads share.
    for round in 0..6 {
        let got = device_run(
            &dir.join("par-opencl"),
            &[("PENCILC_ZERO_COPY", if round % 2 == 0 { "" } else { "0" })],
            "OpenCL program on threads",
        );
        assert_eq!(
            String::from_utf8_lossy(&got.stdout),
            String::from_utf8_lossy(&want)
        );
    }
    let host = dir.join("cuda_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "cuda", "-o"])
            .arg(&host)
            .arg(root().join("tests/programs/threads.c")),
        "pencilc --target cuda",
    );
    let exe = dir.join("par-cuda-emulated");
    let flags = [
        "-I".to_string(),
        root().join("pencil-headers").display().to_string(),
        "-fopenmp".to_string(),
    ];
    build_emulated_cuda(&host, &dir.join("cuda_kernel.cu"), &flags, &[], &exe);
    for _ in 0..3 {
        assert_every_version_prints(&exe, &want, "threads");
    }
}

/// Device buffers hold what a region touches (issue 32, class 8: 15
/// elements of a 3.2 GB array allocated and copied it all, and stopped
/// with OpenCL error -61 where the device had less): a declared array's
/// buffer holds the rows the region touches; a region that needs more
/// than the device holds (the first and last rows of 12.8 GB) runs its
/// original code, never stops; the next region runs on the device (on
/// CUDA, the failed allocation's error is not reported by a later
/// launch). Every version on every target, PoCL and fakecuda (4 GiB).
#[test]
fn device_buffers_hold_what_regions_touch() {
    check("large_arrays");
    check_cuda_emulated("large_arrays");
    let dir = root().join("target/e2e/program-large_arrays");
    let exe = dir.join("par-counted");
    run(
        Command::new("cc")
            .args(["-O2", "-fopenmp", "-DPENCILC_TIME_REGION"])
            .arg(dir.join("p_host.c"))
            .args(["-lOpenCL", "-lm", "-o"])
            .arg(&exe),
        "cc (generated)",
    );
    // Buffers of their own (PENCILC_ZERO_COPY=0), then PoCL's default:
    // buffers that wrap the user's arrays, which move nothing. `small`
    // copies y in and x out: it writes all it copies of x.
    let rows = 43 * 20000 * 8;
    for (zero_copy, moved) in [("0", (rows + 8 * 60, rows + 8 * 60)), ("", (0, 0))] {
        let out = run(
            Command::new(&exe)
                .env("PENCILC_OPENCL_DEVICE", "cpu")
                .env("PENCILC_RUN", "device")
                .env("PENCILC_VERBOSE", "1")
                .env("PENCILC_ZERO_COPY", zero_copy),
            "OpenCL program",
        );
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(
            log.contains("ends (")
                && log.contains("seq (the device cannot hold the region's buffers)"),
            "{}",
            log
        );
        // Two regions ran on the device: 43 rows of A (2..44) each way, y
        // in and x out; the region that fell back is no run.
        assert!(
            log.contains("pencilc-region: runs 2 time_ms ")
                && log.contains(&format!(
                    "bytes_to_device {} bytes_from_device {}",
                    moved.0, moved.1
                )),
            "PENCILC_ZERO_COPY={}: {}",
            zero_copy,
            log
        );
    }
}

#[test]
fn generated_names_do_not_shadow_user_variables() {
    check("names");
}

/// `name` on every target: C, OpenCL (every version), the C target with
/// `--openmp` (its CPU version's code) and CUDA on fakecuda; pencilc must
/// have compiled every region (a fallback to the user's code would
/// print the right numbers without testing the generated code).
fn check_everywhere(name: &str) {
    let warnings = program_matches_sequential(name, "", &[]);
    assert!(
        !warnings.contains("falling back") && !warnings.contains("internal error"),
        "{}",
        warnings
    );
    let src = root().join("tests/programs").join(format!("{}.c", name));
    check_source_on(
        &src,
        &scratch(&format!("program-{}-openmp", name)),
        &["--openmp"],
        &["c"],
    );
    check_cuda_emulated(name);
}

/// The user's names drawn from the generated code's own vocabulary (issue
/// 32): extents named `t0`, `b1`, `c2`, `h0`, an array `dev_A`, scalars
/// `arg` and `kernel0`, a macro `c0`. Generated names keep apart from
/// every name and macro of the file.
#[test]
fn names_of_the_generated_code_used_by_the_user() {
    check_everywhere("generated_names");
    let dir = root().join("target/e2e/program-generated_names");
    let host = std::fs::read_to_string(dir.join("p_host.c")).unwrap();
    // The user's `dev_A` has its own buffer, apart from `A`'s.
    assert!(
        host.contains("cl_mem dev__A =") && host.contains("cl_mem dev__dev_A ="),
        "{}",
        host
    );
    assert!(host.contains("cl_kernel kernel_0 ="), "{}", host);
}

/// C names that OpenCL C and CUDA C++ reserve or that pencilc's kernels
/// call, as variables of a region with barriers, a min reduction and
/// `_Bool` stores (issue 32): the kernels spell them `pencilc_user_<name>`
/// and name OpenCL's own through pencilc's macros.
#[test]
fn names_the_device_languages_reserve() {
    check_everywhere("reserved_words");
    let dir = root().join("target/e2e/program-reserved_words");
    let k = std::fs::read_to_string(dir.join("p_kernel.cl")).unwrap();
    for text in [
        "__global double *restrict pencilc_user_global",
        "pencilc_user_barrier",
        "pencilc_barrier();",
        "pencilc_local_barrier();",
        "(double) pencilc_inf_double",
        "(_Bool)(",
    ] {
        assert!(k.contains(text), "{}\n{}", text, k);
    }
    let cu = std::fs::read_to_string(dir.join("cuda_kernel.cu")).unwrap();
    for text in [
        "int pencilc_user_threadIdx",
        "int pencilc_user_new",
        "= blockIdx.x",
    ] {
        assert!(cu.contains(text), "{}\n{}", text, cu);
    }
}

/// Declarations that hide a visible variable (issue 32): each is a
/// variable of its own on every target, however the blocks nest.
#[test]
fn shadowed_locals_are_their_own_variables() {
    check_everywhere("shadowed_locals");
}

/// Also as CUDA: its variable-length array parameters around a region
/// are C, which the CUDA host file (C) keeps.
#[test]
fn bounds_divisions_and_conditions() {
    check("bounds");
    check_cuda_emulated("bounds");
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

/// A region's generated versions are a function of their own
/// (`back::outline`), called with the user's variables: run-time extents,
/// `const` and `restrict` as declared, a written scalar by address,
/// iterators assigned after the call (also where their loop never runs),
/// a region in a loop reading its iterator, a parameter hiding a global.
/// A region that uses an array of structs keeps its versions inline.
/// Every version of every region prints what C prints.
#[test]
fn generated_versions_are_functions_of_their_own() {
    let src = root().join("tests/programs/outlined.c");
    let dir = scratch("program-outlined");
    check_source(&src, &dir, &[]);
    let host = std::fs::read_to_string(dir.join("p_host.c")).unwrap();
    for head in [
        "static PENCILC_NOINLINE int pencilc_region_0(int n, int m, double *pencilc_p_last, double A[n][m], const double B[restrict n][m], double *restrict out)",
        "static PENCILC_NOINLINE int pencilc_region_1(int n, int step, double x[100], double t[100])",
        "static PENCILC_NOINLINE int pencilc_region_2(int n, double *pencilc_p_sum, double x[100])",
        "static PENCILC_NOINLINE int pencilc_region_3(int n, double scale, double z[100])",
    ] {
        assert!(host.contains(&format!("{};", head)), "prototype {}", head);
        assert!(host.contains(&format!("{}\n{{", head)), "definition {}", head);
    }
    assert!(!host.contains("pencilc_region_4"));
    // The user's function keeps the call and its own code only.
    let rows = &host
        [host.find("static double rows(").unwrap()..host.find("static double twice(").unwrap()];
    assert!(rows.contains("if (PENCILC_UNLIKELY(pencilc_region_0(n, m, &last, A, B, out))) {"));
    assert!(!rows.contains("pencilc_choose(") && !rows.contains("clEnqueue"));
    // The array of structs: three versions inline.
    assert_eq!(
        host.matches("else if (pencilc_version == PENCILC_HOST)")
            .count(),
        1
    );
    let with_struct = &host[host.find("static double with_struct(").unwrap()
        ..host.find("static double shadow(").unwrap()];
    assert!(with_struct.contains("pencilc_choose("));
}

/// Runs pencilc with `-v` for OpenCL and returns what it printed.
fn verbose_log(name: &str) -> String {
    verbose_log_with(name, &[])
}

/// `verbose_log` with more options (`--device nvidia-h100`).
fn verbose_log_with(name: &str, extra: &[&str]) -> String {
    let src = root().join("tests/programs").join(format!("{}.c", name));
    let dir = scratch(&format!("program-{}-v", name));
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--target", "opencl"])
            .args(extra)
            .arg("-o")
            .arg(dir.join("p_host.c"))
            .arg(&src),
        "pencilc -v",
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The CUDA output of tests/programs/`name`.c (`cuda_host.c`, C, beside
/// the OpenCL program's `p_host.c`), run on tests/fakecuda, prints what
/// the sequential program prints (`check` built that first), in every
/// version of its regions.
fn check_cuda_emulated(name: &str) {
    check_cuda_emulated_with(name, &[], "cuda");
}

/// `check_cuda_emulated` with more pencilc options, its files named after
/// `stem` (`STEM_host.c`, `par-STEM-emulated`) beside the others; the
/// program built.
fn check_cuda_emulated_with(name: &str, options: &[&str], stem: &str) -> PathBuf {
    let src = root().join("tests/programs").join(format!("{}.c", name));
    let dir = root().join("target/e2e").join(format!("program-{}", name));
    let host = dir.join(format!("{}_host.c", stem));
    run(
        Command::new(pencilc())
            .args(["--target", "cuda"])
            .args(options)
            .arg("-o")
            .arg(&host)
            .arg(&src),
        "pencilc --target cuda",
    );
    let headers = root().join("pencil-headers").display().to_string();
    let exe = dir.join(format!("par-{}-emulated", stem));
    build_emulated_cuda(
        &host,
        &dir.join(format!("{}_kernel.cu", stem)),
        &["-I".to_string(), headers],
        &[],
        &exe,
    );
    let want = run(&mut Command::new(dir.join("seq")), "sequential program");
    assert_every_version_prints(&exe, &want.stdout, name);
    exe
}

/// Image processing with <stdint.h> pixels and every small integer type
/// (issue 15, item 1): C's promotions, wrap-around and `_Bool` stores hold
/// in the kernels exactly, and the pixel loops stay parallel.
#[test]
fn stdint_pixels_keep_c_integer_semantics() {
    check("pixels");
    check_cuda_emulated("pixels");
    let log = verbose_log("pixels");
    assert!(log.contains("parallel dims [2, 1]"), "{}", log);
    let k = std::fs::read_to_string(root().join("target/e2e/program-pixels/p_kernel.cl")).unwrap();
    for text in [
        "__global unsigned char *restrict mask",
        "(unsigned char)(",
        "(char)(",
        "(_Bool)(",
    ] {
        assert!(k.contains(text), "{}\n{}", text, k);
    }
    // `_Bool` only converts (kernels spell C's type as C does, issue 32);
    // no buffer or argument has it (OpenCL allows none).
    assert!(
        !k.contains("uint8_t") && !k.contains("_Bool *") && !k.contains("bool *"),
        "{}",
        k
    );
}

/// Integer variables reach kernels in their own C types where those are
/// not the index type (issue 14): an `int n` passed as `long` turned
/// `u + n` signed, a `long` read only in a statement was cut to `int`.
#[test]
fn integer_values_keep_their_c_types_in_kernels() {
    check("value_types");
    check_cuda_emulated("value_types");
    let k =
        std::fs::read_to_string(root().join("target/e2e/program-value_types/p_kernel.cl")).unwrap();
    for text in [
        "long m, int n, unsigned int u",
        "long big, int m",
        "unsigned char c, long m, int n, short s",
    ] {
        assert!(k.contains(text), "{}\n{}", text, k);
    }
    check("value_types_vla");
    check_cuda_emulated("value_types_vla");
    let k = std::fs::read_to_string(root().join("target/e2e/program-value_types_vla/p_kernel.cl"))
        .unwrap();
    assert!(k.contains("* ((long)(pencilc_row_n)) +"), "{}", k);
}

/// `atomic_add(&hist[p], 1)` is an update of one element (issue 15,
/// item 2): atomic updates of one array commute, so the pixel loops are
/// parallel with device atomics; the update under a data-dependent `if`
/// stays in order (a compound statement), and the read after the loop
/// sees every update.
#[test]
fn atomic_histogram_loops_are_parallel() {
    check("histogram");
    check_cuda_emulated("histogram");
    let log = verbose_log("histogram");
    assert!(log.contains("parallel dims [1, 2, 0, 2, 1]"), "{}", log);
    let k =
        std::fs::read_to_string(root().join("target/e2e/program-histogram/p_kernel.cl")).unwrap();
    for text in [
        "pencilc_atomic_add_uint(&hist[",
        "pencilc_atomic_add_long(&weight[",
    ] {
        assert!(k.contains(text), "{}\n{}", text, k);
    }
}

/// `atomic_min`/`atomic_max` (and CUDA's `atomicMax`) are `min`/`max`
/// updates of one element: parallel with device atomics or privatized;
/// `atomic_add` and `atomic_max` on the same elements do not commute, so
/// their loop keeps its order (issue 15).
#[test]
fn atomic_min_max_are_parallel_updates() {
    check("atomic_minmax");
    check_cuda_emulated("atomic_minmax");
    let log = verbose_log("atomic_minmax");
    let k = std::fs::read_to_string(root().join("target/e2e/program-atomic_minmax/p_kernel.cl"))
        .unwrap();
    for text in ["pencilc_atomic_min_int(&lo[", "pencilc_atomic_max_int(&hi["] {
        assert!(k.contains(text), "{}\n{}", text, k);
    }
    // The float maximum of one element is privatized per thread instead.
    assert!(log.contains("top: max reduction, private copy"), "{}", log);
    // Initialisations, the statistics nest (2-d), the mixed nest in order.
    assert!(log.contains("parallel dims [1, 0, 2, 0]"), "{}", log);
}

/// PENCIL as DSL compilers generate it (issue 15, item 3): generated
/// names, 2-d `[static const restrict n]` parameters, `<=` bounds, and a
/// run-time-sized array local to each outer iteration, which keeps that
/// loop parallel.
#[test]
fn dsl_generated_pencil() {
    check("dsl_style");
    check_cuda_emulated("dsl_style");
    let log = verbose_log("dsl_style");
    assert!(log.contains("parallel dims [1]"), "{}", log);
}

/// A loop kept as one statement (its own `break`) over a variable declared
/// outside the region leaves C's final value there, also where affine
/// loops over the same variable come before or after it (issue 14: the
/// value before the region came back, then the affine loop's).
#[test]
fn kept_loops_leave_their_final_value() {
    check("live_out_compound");
    check_cuda_emulated("live_out_compound");
}

/// `bump(&h[i], i)`, a function without a summary given an element's
/// address (issue 15, item 2), reads and may write that element only: the
/// loop stays parallel.
#[test]
fn element_addresses_passed_to_functions_are_accesses() {
    let cl = root().join("tests/programs/address_args.cl");
    let cl = cl.display().to_string();
    check_with("address_args", "", &["--opencl-include-file", &cl]);
    let src = root().join("tests/programs/address_args.c");
    let dir = scratch("program-address_args-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--opencl-include-file", &cl, "-o"])
            .arg(dir.join("p_host.c"))
            .arg(&src),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("parallel dims [1]"), "{}", log);
}

/// Arrays declared inside loop bodies (issue 15, item 3) are new in each
/// iteration: no loop-carried dependence through them, so the loops are
/// parallel, and each thread has its own copy: private (of the assumed
/// bound where the size is a run-time value), or a slice of a device
/// buffer where no bound is known; never a VLA in OpenCL C.
#[test]
fn arrays_declared_in_loops_are_private_to_iterations() {
    check("local_arrays");
    check_cuda_emulated("local_arrays");
    let log = verbose_log("local_arrays");
    assert!(log.contains("parallel dims [2, 0]"), "{}", log);
    let k = std::fs::read_to_string(root().join("target/e2e/program-local_arrays/p_kernel.cl"))
        .unwrap();
    for text in [
        "float win[3][3];",
        "float accum[8];",
        "float prefix[12][2];",
        "__global float *tmp = pencilc_slice_tmp + ",
        "tmp[(r - 1 - k) * 3 + k % 3]",
    ] {
        assert!(k.contains(text), "{}\n{}", text, k);
    }
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
    // The 32 places go to the block's first 32 threads (by linear id).
    assert!(
        k.contains("for (int m0 = 32 * t0 + t1; m0 < 32; m0 += 512) {")
            && k.contains("shared_y[m0] = y[shared_y_o0 + 3 * m0];"),
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
        (None, "nj >= 32 * b1 + t1 + 1"),
        (Some("-DPOLYBENCH_USE_SCALAR_LB"), "32 * b1 + t1 <= 1099"),
    ] {
        let dir = scratch("program-gemm-guards");
        run(
            Command::new(pencilc())
                .args(["--target", "cuda", "--device", "nvidia-h100"])
                .args(flags(&src, "LARGE"))
                .args(mode)
                .arg("-o")
                .arg(dir.join("p_host.c"))
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

/// Array parameters without `restrict` may overlap: the aliased call runs
/// the user's code (the parallel one computed X[i + 1] = X_old[i] + 1),
/// the call with distinct arrays still runs the generated code (the
/// region counter of `-DPENCILC_TIME_REGION` counts one run), and arrays
/// declared `restrict` get no check.
#[test]
fn overlapping_array_parameters_run_the_original_code() {
    check("alias");
    let src = root().join("tests/programs/alias.c");
    let dir = scratch("program-alias-runs");
    let host = dir.join("p_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "opencl", "-o"])
            .arg(&host)
            .arg(&src),
        "pencilc",
    );
    let text = std::fs::read_to_string(&host).unwrap();
    // The bytes of the rows each array's buffer holds (issue 32: the
    // buffers hold what the region touches, A[0..n-1] and B[0..n-1]).
    assert!(
        text.contains(
            "(size_t) A + (size_t) ((n >= 1) ? ((long) (n - 1) + 1) : 0L) * sizeof(double) <= (size_t) B"
        ),
        "{}",
        text
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
    r.env("PENCILC_OPENCL_DEVICE", "cpu")
        .env("PENCILC_RUN", "device");
    let out = run(&mut r, "running");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("pencilc-region: runs 1 "), "{}", log);

    let restricted = dir.join("restrict.c");
    std::fs::write(
        &restricted,
        std::fs::read_to_string(&src).unwrap().replace(
            "double A[N], double B[N]",
            "double A[restrict N], double B[N]",
        ),
    )
    .unwrap();
    run(
        Command::new(pencilc())
            .args(["--target", "opencl", "-o"])
            .arg(dir.join("r_host.c"))
            .arg(&restricted),
        "pencilc",
    );
    let text = std::fs::read_to_string(dir.join("r_host.c")).unwrap();
    assert!(!text.contains("(size_t) A +"), "{}", text);
}

#[test]
fn line_directive_before_the_region() {
    check("line_directive");
}

#[test]
fn digraphs() {
    check("digraphs");
}

/// Spacing, commas, clause order and trailing semicolons in `#pragma
/// pencil`; the reductions must still be carried out (and a misspelt
/// pragma ignored, so its loop stays sequential).
#[test]
fn tolerant_pencil_pragmas() {
    check("pencil_pragmas");
    let out = Command::new(pencilc())
        .args(["-v", "-o"])
        .arg(scratch("program-pencil-pragmas-v").join("p_host.c"))
        .arg(root().join("tests/programs/pencil_pragmas.c"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}", err);
    for v in [
        "prod1: mul reduction",
        "s: add reduction",
        "mx: max reduction",
    ] {
        assert!(err.contains(v), "no `{}`:\n{}", v, err);
    }
    assert!(
        err.contains(
            ":23:1: warning: unknown `#pragma pencil` word `indepenent`; the pragma is ignored"
        ) && err.contains("did you mean `independent`?"),
        "{}",
        err
    );
}

/// `#pragma pencil independent` after a loop's header, before its body
/// (issue 32, class 9: "expected `;`"): read as the pragma before the
/// loop, so the loops are parallel and the reduction carried out.
#[test]
fn pencil_pragmas_after_the_loop_header() {
    check("pragma_after_header");
    let out = Command::new(pencilc())
        .args(["-v", "-o"])
        .arg(scratch("program-pragma-after-header-v").join("p_host.c"))
        .arg(root().join("tests/programs/pragma_after_header.c"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}", err);
    assert!(err.contains("s: add reduction"), "{}", err);
    assert!(!err.contains("warning"), "{}", err);
    let scop = Command::new(pencilc())
        .args(["--emit", "scop"])
        .arg(root().join("tests/programs/pragma_after_header.c"))
        .output()
        .unwrap();
    let scop = String::from_utf8_lossy(&scop.stdout);
    // The first nest is independent along both loops, the second along its one.
    assert!(
        scop.contains("S_0[a0, a1] -> S_0[b0, b1] : a0 != b0")
            && scop.contains("S_0[a0, a1] -> S_0[b0, b1] : a0 = b0 and a1 != b1")
            && scop.contains("S_1[a0] -> S_1[b0] : a0 != b0"),
        "{}",
        scop
    );
}

/// A file name with `"` and `\\` (escaped in the preprocessor's line
/// markers) still has its region found; the generated code, which names
/// the file in comments and strings, still compiles.
#[test]
fn odd_file_name() {
    let dir = scratch("program-odd-name");
    let src = dir.join("we\"ird\\na%sme*.c");
    std::fs::copy(root().join("tests/programs/deep.c"), &src).unwrap();
    check_source(&src, &dir, &[]);
    let host = std::fs::read_to_string(dir.join("p_pencilc.c")).unwrap();
    assert!(
        host.contains("pencilc: region of kernel"),
        "region lost:\n{}",
        host
    );
}

/// A Latin-1 byte in a comment (and a string) outside the region: the
/// file compiles, and the output keeps the bytes as they were.
#[test]
fn latin1_bytes_outside_the_region() {
    let dir = scratch("program-latin1");
    let src = dir.join("latin1.c");
    let mut text = std::fs::read(root().join("tests/programs/deep.c")).unwrap();
    let mut head = b"/* r\xe9sum\xe9: caf\xe9 */\nstatic const char *who = \"Jos\xe9\";\n".to_vec();
    head.append(&mut text);
    std::fs::write(&src, &head).unwrap();
    check_source(&src, &dir, &[]);
    let host = std::fs::read(dir.join("p_pencilc.c")).unwrap();
    let needle = b"/* r\xe9sum\xe9: caf\xe9 */\nstatic const char *who = \"Jos\xe9\";";
    assert!(
        host.windows(needle.len()).any(|w| w == needle),
        "bytes not kept"
    );
}

/// 5,000 and 10,000 nested parentheses (GCC takes 10,000) compile, within
/// the time of each rung (the search for a reduction in the chain of sums
/// printed every subterm at every step: each rung ran out of time, and the
/// region fell back to the host after 20 s), and the result is right.
#[test]
fn deeply_nested_parentheses() {
    for n in [5000, 10000] {
        let dir = scratch(&format!("program-parens-{}", n));
        let src = dir.join("parens.c");
        let e = format!("{}B[i]{}", "(".repeat(n), " + 1)".repeat(n));
        std::fs::write(
            &src,
            format!(
                "#include <stdio.h>\nstatic void f(int n, float A[100], float B[100]) {{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n    A[i] = {};\n#pragma endscop\n}}\nint main(void) {{\n  static float A[100], B[100];\n  for (int i = 0; i < 100; i++) B[i] = i;\n  f(90, A, B);\n  double s = 0;\n  for (int i = 0; i < 100; i++) s += A[i] * (i + 1);\n  printf(\"%.8g\\n\", s);\n  return 0;\n}}\n",
                e
            ),
        )
        .unwrap();
        let warnings = check_source(&src, &dir, &[]);
        assert!(!warnings.contains("E0201"), "{}", warnings);
    }
}

/// 300 nested `if`s around a loop nest and a 30-long `else if` chain
/// (the fuzzer's mutants of durbin and deriche ran past a minute): an
/// `if` branch of one statement takes the `if`'s place in the schedule,
/// so neither adds a dimension per `if`; both compile fast to parallel
/// kernels and the results are right.
#[test]
fn deeply_nested_ifs_add_no_schedule_dimensions() {
    let n = 300;
    let dir = scratch("program-nested-ifs");
    let src = dir.join("ifs.c");
    let nested = format!(
        "{}for (i = 0; i < n; i++)\n    for (j = 0; j < n; j++)\n      A[i][j] = A[i][j] * 0.5 + i - j;",
        "if (n > 1) ".repeat(n)
    );
    let chain: String = (0..30)
        .map(|k| format!("if (i == {}) B[i] = {}.0; else ", k, k))
        .collect();
    std::fs::write(
        &src,
        format!(
            "#include <stdio.h>\nstatic void f(int n, double A[40][40], double B[400]) {{\n  int i, j;\n#pragma scop\n  {}\n  for (i = 0; i < 10 * n; i++)\n    {}B[i] = -1.0;\n#pragma endscop\n}}\nint main(void) {{\n  static double A[40][40], B[400];\n  for (int i = 0; i < 40; i++) for (int j = 0; j < 40; j++) A[i][j] = (i * 7 + j) % 11;\n  f(37, A, B);\n  double s = 0;\n  for (int i = 0; i < 40; i++) for (int j = 0; j < 40; j++) s += A[i][j] * (j + 1);\n  for (int i = 0; i < 400; i++) s += B[i] * (i % 7);\n  printf(\"%.8g\\n\", s);\n  return 0;\n}}\n",
            nested, chain
        ),
    )
    .unwrap();
    let dump = Command::new(pencilc())
        .args(["--emit", "scop"])
        .arg(&src)
        .output()
        .unwrap();
    let dump = String::from_utf8_lossy(&dump.stdout);
    let deepest = dump
        .lines()
        .filter(|l| l.trim_start().starts_with("schedule:"))
        .filter_map(|l| l.rsplit("-> [").next()?.split(']').next())
        .map(|dims| dims.matches(',').count() + 1)
        .max()
        .unwrap_or(0);
    assert!(
        (1..=5).contains(&deepest),
        "schedule dimensions: {}\n{}",
        deepest,
        dump
    );
    let start = std::time::Instant::now();
    let warnings = check_source(&src, &dir, &["-v"]);
    assert!(start.elapsed().as_secs() < 120, "{:?}", start.elapsed());
    assert!(!warnings.contains("E0201"), "{}", warnings);
    assert!(warnings.contains("parallel dims [2, 1]"), "{}", warnings);
}

/// 4,000 nested `if`s around a loop with data-dependent bounds (a fuzzer
/// mutant of spmv): the front end once copied each level's statements
/// (quadratic: 1.9 GB, past any time limit) and the output indented each
/// level (128 MB of host code); now both are linear and the program is
/// right.
#[test]
fn thousands_of_nested_ifs_around_a_dynamic_loop() {
    let dir = scratch("program-nested-ifs-dynamic");
    let src = dir.join("ifs.c");
    std::fs::write(
        &src,
        format!(
            "#include <stdio.h>\nstatic void f(int n, const int ptr[101], const double v[400], double y[100]) {{\n#pragma scop\n  for (int i = 0; i < n; i++) {{\n    y[i] = 0;\n    {}for (int k = ptr[i]; k < ptr[i + 1]; k++)\n      y[i] += v[k] * (k % 3);\n  }}\n#pragma endscop\n}}\nint main(void) {{\n  static int ptr[101];\n  static double v[400], y[100];\n  for (int i = 0; i <= 100; i++) ptr[i] = 3 * i + (i * i) % 4;\n  for (int k = 0; k < 400; k++) v[k] = (k * 7) % 13;\n  f(100, ptr, v, y);\n  double s = 0;\n  for (int i = 0; i < 100; i++) s += y[i] * (i + 1);\n  printf(\"%.8g\\n\", s);\n  return 0;\n}}\n",
            "if (1) ".repeat(4000)
        ),
    )
    .unwrap();
    let warnings = check_source(&src, &dir, &["-v"]);
    assert!(warnings.contains("1 kernel(s)"), "{}", warnings);
    for out in ["p_host.c", "p_pencilc.c"] {
        let size = std::fs::metadata(dir.join(out)).unwrap().len();
        assert!(size < 8 << 20, "{}: {} bytes", out, size);
    }
}

/// `#pragma\` and `endscop` on the next line are one directive (the
/// fuzzer's mutant of cholesky): the region ends after the continuation,
/// which was once copied into the output as a stray `endscop`.
#[test]
fn pragmas_continued_on_the_next_line() {
    let dir = scratch("program-continued-pragmas");
    let src = dir.join("cont.c");
    std::fs::write(
        &src,
        r#"#include <stdio.h>
static void f(int n, double A[100]) {
#pragma \
  scop
  for (int i = 1; i < n; i++)
    A[i] = A[i - 1] * 0.5 + i;
#pragma\
 endscop
}
static void g(int n, double B[100]) {
#\
pragma scop
  for (int i = 0; i < n; i++)
    B[i] = B[i] * 0.25 + i;
#\
pragma endscop
}
int main(void) {
  static double A[100], B[100];
  A[0] = 1;
  f(100, A);
  g(90, B);
  double s = 0;
  for (int i = 0; i < 100; i++) s += A[i] * (i % 5) + B[i];
  printf("%.8g\n", s);
  return 0;
}
"#,
    )
    .unwrap();
    check_source(&src, &dir, &[]);
    let host = std::fs::read_to_string(dir.join("p_host.c")).unwrap();
    // The regions are lines 3-8 and 11-16 (`#\` starts the directive); the
    // code after each resumes on the next line.
    assert!(host.contains("cont.c:3-8)"), "{}", host);
    assert!(host.contains("cont.c:11-16)"), "{}", host);
    let lines: Vec<&str> = host.lines().collect();
    assert!(
        !lines.windows(2).any(|w| w[0].starts_with("#line ")
            && (w[1] == " endscop" || w[1] == "pragma endscop" || w[1] == "pragma scop")),
        "{}",
        host
    );
}

/// Also as CUDA: `and` and `or`, C names that C++ reserves, stay the
/// user's names in the CUDA host file (C).
#[test]
fn isl_keywords_as_c_names() {
    check("isl_keywords");
    check_cuda_emulated("isl_keywords");
}

#[test]
fn live_out_iterator_of_the_loop_that_ran_last() {
    check("live_out_last_loop");
}

/// A launch whose host loop isl generates as one value, under isl's
/// schedule (with pencilc's own, too).
#[test]
fn launch_at_a_host_loop_of_one_value() {
    check_with("degenerate_launch", "-isl", &["--scheduler", "isl"]);
    check("degenerate_launch");
}

/// A scalar, and an element held in a register tile, that the region
/// writes only at some sizes keep their values at the others (the device
/// version copied the scalar in too late and wrote the tile back where its
/// loop had not run).
#[test]
fn values_written_only_at_some_sizes() {
    check("written_if_reached");
    let k =
        std::fs::read_to_string(root().join("target/e2e/program-written_if_reached/p_kernel.cl"))
            .unwrap();
    assert!(
        k.contains("private_A"),
        "no register tile left to test:\n{}",
        k
    );
}

/// A kernel without instances gets no memory plan, not an internal error
/// that would send the region down the fallback ladder.
#[test]
fn nest_that_never_runs() {
    let src = root().join("tests/programs/empty_nest.c");
    let warnings = check_source(&src, &scratch("program-empty_nest"), &[]);
    assert!(!warnings.contains("internal error"), "{}", warnings);
    assert!(!warnings.contains("falling back"), "{}", warnings);
}

/// A launch whose tile bound the AST stage cannot express gets the
/// wrap-around grid, not the API's limit of 2^31 - 1 blocks (which the C
/// target ran one after another: the program never finished, and PoCL
/// could not allocate). Its `A[i][k] += 0.25 * A[i][j] * A[j][k]` is where
/// PoCL contracts into fused multiply-adds unless told not to: the last
/// digits differed, which was first taken for a wrong result.
#[test]
fn launch_without_a_tile_bound_gets_a_bounded_grid() {
    let src = root().join("tests/programs/grid_bound.c");
    let dir = scratch("program-grid_bound");
    check_source_on(
        &src,
        &dir,
        &["--scheduler", "pluto", "--fuse", "smart"],
        &["c", "opencl"],
    );
    for file in ["p_pencilc.c", "p_host.c"] {
        let host = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(!host.contains("2147483647"), "{}", host);
    }
}

/// Unsigned arithmetic in bounds, conditions and statements wraps as in C
/// (`n - 1` with `n == 0`), on the C target and on PoCL. A loop bounded by
/// `(int)(n - 1) + 3` has a tile bound isl only gives as a constant for
/// every `unsigned` value: its launch gets the wrap-around grid (32768
/// blocks), not 2^26.
#[test]
fn unsigned_arithmetic_wraps_as_in_c() {
    let src = root().join("tests/programs/unsigned_bounds.c");
    let dir = scratch("program-unsigned_bounds");
    check_source_on(&src, &dir, &[], &["c", "opencl"]);
    let kernel = std::fs::read_to_string(dir.join("p_host.c")).unwrap();
    assert!(!kernel.contains("67108865"), "{}", kernel);
    let host = dir.join("p_pencilc.c");
    let text = std::fs::read_to_string(&host).unwrap();
    assert!(
        text.contains("(long)(n)"),
        "unsigned parameters are read as long:\n{}",
        text
    );
}

/// A grid whose tile count isl defines only where some launch has tiles
/// (`(unsigned) n` of an `int` n) gets no tiles elsewhere: at n = 0 one
/// block, not the 2^27 of the n < 0 piece that the count took before.
/// Every version prints the sequential result, emulated CUDA included,
/// and the launch's grid expression, compiled and evaluated, gives one
/// block at n = 0 and the tiles' count elsewhere.
#[test]
fn grids_have_no_tiles_where_no_launch_has_any() {
    check("cast_bound_grid");
    check_cuda_emulated("cast_bound_grid");
    // n = 0: no iteration, one block; n = 100: 4 tiles of 32; n = -1:
    // 2^32 - 1 iterations, 2^27 tiles (C's conversion, as written).
    let (grid, blocks) = launch_grid_at("cast_bound_grid", ", dev_A", &[0, 100, -1]);
    assert_eq!(blocks, "1 4 134217728", "grid {}", grid);
}

/// A band whose tile indices are non-negative except, for n < 0, one
/// statement's placed at `n` wraps around the grid, yet launches the
/// tiles' count wherever every index is non-negative (`n / 32 + 1`), not
/// the wrap-around size of 32,768 blocks, under which emulated CUDA ran
/// for minutes (differential seed 58, case 34, shrunk). Every version
/// prints the sequential result, emulated CUDA included.
#[test]
fn wrapping_tiles_launch_their_count_where_none_is_negative() {
    let name = "grid_statement_at_parameter";
    check(name);
    check_cuda_emulated(name);
    // Generated under isl's scheduler, whose schedule places the first
    // statement at the band's last `l` (the cost model's choice here).
    let (grid, blocks) = launch_grid_at(name, ", 1, dev_A", &[0, 1, 70, 1000, 2000000000, -5]);
    assert_eq!(blocks, "1 1 3 32 32768 32768", "grid {}", grid);
}

/// Thread members with a few constant values get blocks of that many
/// threads, rounded up to a power of two, the innermost (x) dimension at
/// least a warp: three channels beside n pixels run in blocks of 32 x 4,
/// not the default 32 x 16 with three quarters of the threads idle (with
/// 2,520 launches of such blocks for a loop over 2 columns, differential
/// seed 60 case 130 did not finish under emulated CUDA). Every version
/// prints the sequential result, emulated CUDA included.
#[test]
fn threads_cover_constant_extents_only() {
    let name = "small_constant_extents";
    check(name);
    check_cuda_emulated(name);
    let dir = root().join("target/e2e").join(format!("program-{}", name));
    let kernels = std::fs::read_to_string(dir.join("cuda_kernel.cu")).unwrap();
    for block in ["pencilc_block(32, 4);"] {
        assert!(kernels.contains(block), "no {}:\n{}", block, kernels);
    }
}

/// The first grid argument of `kernel0_launch` in the emulated CUDA host
/// file of test program `name` (up to `until`), compiled and evaluated at
/// each `n`: the expression and its values.
fn launch_grid_at(name: &str, until: &str, ns: &[i32]) -> (String, String) {
    let dir = root().join("target/e2e").join(format!("program-{}", name));
    let host = std::fs::read_to_string(dir.join("cuda_host.c")).unwrap();
    let at = host.find("kernel0_launch(").expect("a launch") + "kernel0_launch(".len();
    let grid = host[at..at + host[at..].find(until).expect("the grid argument")].to_string();
    let calls: Vec<String> = ns.iter().map(|n| format!("grid({})", n)).collect();
    let probe = dir.join("grid.c");
    std::fs::write(
        &probe,
        format!(
            "#include <stdio.h>\n#define pencilc_max(x, y) ((x) > (y) ? (x) : (y))\n\
             #define pencilc_min(x, y) ((x) < (y) ? (x) : (y))\n\
             static long grid(int n) {{ return (long) ({}); }}\n\
             int main(void) {{ printf(\"{}\\n\", {}); return 0; }}\n",
            grid,
            vec!["%ld"; ns.len()].join(" "),
            calls.join(", ")
        ),
    )
    .unwrap();
    let exe = dir.join("grid");
    run(
        Command::new("cc").arg(&probe).arg("-o").arg(&exe),
        "cc grid.c",
    );
    let out = run(&mut Command::new(&exe), "the grid probe");
    let values = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (grid, values)
}

/// A parallel member that can be negative is shifted to start at block 0
/// (`map::origin`); when its minimum per prefix is piecewise, the minimum
/// over all prefixes (a function of the parameters, or a constant) serves.
/// Before, such launches got the wrap-around grid of 32768 blocks, almost
/// all idle, and emulated CUDA ran out of time (differential family 1002,
/// cases 702 and 950, shrunk by hand).
#[test]
fn negative_parallel_members_with_piecewise_minimum_launch_few_blocks() {
    for name in ["grid_piecewise_prefix", "grid_piecewise_params"] {
        check(name);
        check_cuda_emulated(name);
        let host = root()
            .join("target/e2e")
            .join(format!("program-{}", name))
            .join("cuda_host.c");
        let host = std::fs::read_to_string(host).unwrap();
        assert!(
            host.contains("_launch(") && !host.contains("_launch(32768"),
            "{}: a launch of the wrap-around grid:\n{}",
            name,
            host
        );
    }
}

/// Small functions of the file called in a region (PPCG's tests call4
/// and call5 do this) are inlined: C's conversions of arguments and
/// results hold (a double argument of an `int` parameter truncated), the
/// reads of an array argument's elements are accesses (shared-memory
/// tiles included), nested calls and locals work, on C, PoCL and
/// emulated CUDA.
#[test]
fn small_functions_of_the_file_are_inlined() {
    check("inline_functions");
    check_cuda_emulated("inline_functions");
    let k = std::fs::read_to_string(root().join("target/e2e/program-inline_functions/p_kernel.cl"))
        .unwrap();
    assert!(!k.contains("sq(") && !k.contains("at("), "{}", k);
}

/// `--target c --openmp` of tests/programs/`name`.c, built with -fopenmp
/// and run on three threads, prints what the sequential program prints.
fn check_openmp(name: &str) {
    let src = root().join("tests/programs").join(format!("{}.c", name));
    let dir = scratch(&format!("program-{}-omp", name));
    let host = dir.join("omp.c");
    run(
        Command::new(pencilc())
            .args(["--target", "c", "--openmp", "-o"])
            .arg(&host)
            .arg(&src),
        "pencilc --openmp",
    );
    let exe = dir.join("par-omp");
    run(
        Command::new("cc")
            .args(["-O2", "-fopenmp", "-I"])
            .arg(root().join("pencil-headers"))
            .arg(&host)
            .args(["-lm", "-o"])
            .arg(&exe),
        "cc -fopenmp",
    );
    let seq = dir.join("seq");
    run(
        Command::new("cc")
            .args(["-O2", "-I"])
            .arg(root().join("pencil-headers"))
            .arg(&src)
            .args(["-lm", "-o"])
            .arg(&seq),
        "cc",
    );
    let want = run(&mut Command::new(&seq), "sequential program");
    let got = run(
        Command::new(&exe).env("OMP_NUM_THREADS", "3"),
        "OpenMP program",
    );
    assert_eq!(
        String::from_utf8_lossy(&got.stdout),
        String::from_utf8_lossy(&want.stdout),
        "{}: the OpenMP program differs from the sequential one",
        name
    );
}

/// Variables written before they are read in each iteration (issue 30):
/// symm's scalar, doitgen's array, one scalar reused by two nests, each
/// with the value the last iteration leaves read after the region; a
/// scalar read before it is written in some iterations (not privatised)
/// and one whose last write is conditional. Every version of every target
/// prints the sequential results, and the loops around the private
/// copies run in parallel (`pencilc_priv_` copies in the kernels).
#[test]
fn written_before_read_variables_get_a_copy_per_thread() {
    check("privatised");
    check_cuda_emulated("privatised");
    check_openmp("privatised");
    let dir = root().join("target/e2e/program-privatised");
    let k = std::fs::read_to_string(dir.join("cuda_kernel.cu")).unwrap();
    for copy in ["pencilc_priv_t", "pencilc_priv_sum", "pencilc_priv_y"] {
        assert!(k.contains(copy), "no {} in\n{}", copy, k);
    }
    // `carried`'s t orders its loop: no copy of it there, and the kernel
    // of that loop runs on one thread.
    let log = verbose_log("privatised");
    assert!(!log.contains("a reduction"), "{}", log);
}

/// Variables written before they are read in each iteration and read
/// under conditions on the data (`u = A[i] - 0.5; if (u > 0.0) ...`),
/// tests/programs/private_conditions.c: each thread has its copy and the
/// loops run on threads, the last iteration's values are read after the
/// region. `w`, written where `i % 3 == 1`, flows within one iteration
/// only by its integer points (`i <= i' <= i + 2`, both 1 mod 3): its
/// loop is parallel too, and `B[i] += w` (an element of its own per
/// iteration) is no reduction done with atomics. Before, those loops ran
/// in kernels of one thread. Every version of every target prints the
/// sequential results.
#[test]
fn variables_read_under_conditions_on_the_data_get_a_copy_per_thread() {
    let warnings = program_matches_sequential("private_conditions", "", &[]);
    assert!(!warnings.contains("E0111"), "{}", warnings);
    check_with("private_conditions", "-h100", &["--device", "nvidia-h100"]);
    check_cuda_emulated("private_conditions");
    check_openmp("private_conditions");
    let dir = root().join("target/e2e/program-private_conditions");
    let k = std::fs::read_to_string(dir.join("cuda_kernel.cu")).unwrap();
    for copy in ["u", "v", "z", "k", "cnt", "w"] {
        assert!(
            k.contains(&format!("pencilc_priv_{};", copy)),
            "no copy of {} in\n{}",
            copy,
            k
        );
    }
    assert!(
        !k.contains("pencilc_block(1)"),
        "a kernel of one thread in\n{}",
        k
    );
    assert!(!k.contains("pencilc_atomic"), "{}", k);
}

/// Minima and maxima written as `if` statements (`if (x[i] > m) m =
/// x[i];`, the assignment of a conditional expression) and a count in one
/// branch of an `if` whose other branch updates another array are
/// reductions (tests/programs/reductions_if_forms.c); before, their loops
/// ran on one thread. An arg-max's maximum is one too (its index is then
/// found by a second loop: `arg_max_loops_find_their_iteration_in_parallel`);
/// a count beside a write that other iterations make too stays in order. Every version of every
/// target prints the sequential results, with `--reductions exact` too,
/// which keeps the floating-point maxima in order.
#[test]
fn minima_and_maxima_written_as_ifs_are_reductions() {
    check("reductions_if_forms");
    check_with("reductions_if_forms", "-exact", &["--reductions", "exact"]);
    check_with("reductions_if_forms", "-h100", &["--device", "nvidia-h100"]);
    check_cuda_emulated("reductions_if_forms");
    check_openmp("reductions_if_forms");
    let log = verbose_log("reductions_if_forms");
    for note in [
        "`m` accumulates (max) over loop `i`",
        "`lo` accumulates (min) over loop `i`",
        "`m2` accumulates (max) over loop `i`",
        "`cnt` accumulates (add) over loop `k`",
        "`am` accumulates (max) over loop `i`",
    ] {
        assert!(log.contains(note), "no {} in\n{}", note, log);
    }
    for var in ["idx", "cnt2"] {
        assert!(!log.contains(&format!("`{}` accumulates", var)), "{}", log);
    }
}

/// Private copies whose live ranges pencilc's scheduler interleaves (the
/// accumulation loop moved outward, issue 30): isl's scheduler, given the
/// order between live ranges as conditional validity, keeps each whole,
/// so the rows of Doolittle's upper-triangle update run on threads, each
/// with its own `w`, instead of a reduction launched per element; the
/// last `w` is still returned. ludcmp's rows, where the copies must go,
/// stay correct. Every version of every target prints the sequential
/// results.
#[test]
fn live_ranges_that_pencilcs_scheduler_interleaves_stay_whole() {
    check("live_ranges_whole");
    check_cuda_emulated("live_ranges_whole");
    check_openmp("live_ranges_whole");
    let dir = root().join("target/e2e/program-live_ranges_whole");
    let k = std::fs::read_to_string(dir.join("cuda_kernel.cu")).unwrap();
    assert!(k.contains("double pencilc_priv_w;"), "{}", k);
    let log = verbose_log("live_ranges_whole");
    assert!(
        log.contains("`upper_rows` at lines 17-25: isl's scheduler keeps the live ranges"),
        "{}",
        log
    );
    assert!(!log.contains("line 22: `w` accumulates"), "{}", log);
}

/// Structs that are one object declared outside the region (issue 33:
/// pet's struct1, struct7, struct10, struct11 were rejected with E0111): a
/// parameter by value read and written, a local with nested members, a
/// global; each copied to the device by its address. Every target and
/// version prints the sequential results.
#[test]
fn struct_objects_declared_outside_the_region_are_arrays_of_their_members() {
    check("struct_objects");
    check_cuda_emulated("struct_objects");
    check_openmp("struct_objects");
    let k = std::fs::read_to_string(root().join("target/e2e/program-struct_objects/cuda_host.c"))
        .unwrap();
    assert!(k.contains("((double *) &g)"), "{}", k);
}

/// Members that are arrays of structs, and C11's anonymous struct members
/// (issue 33: pet's struct4, struct5, struct8 and struct14 were E0111):
/// `s.f[i].a[j]` is the place `10 * i + j` of `s`, a struct object; an
/// array of pairs of complex numbers; cells of four structs of an array
/// and a scalar each. Every target and version prints the sequential
/// results, the loops over the places in parallel where they can be.
#[test]
fn members_that_are_arrays_of_structs_are_places_of_their_struct() {
    check("struct_member_structs");
    check_with(
        "struct_member_structs",
        "-h100",
        &["--device", "nvidia-h100"],
    );
    check_cuda_emulated("struct_member_structs");
    check_openmp("struct_member_structs");
    let dir = scratch("program-struct_member_structs-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--target", "opencl", "-o"])
            .arg(dir.join("p.c"))
            .arg(root().join("tests/programs/struct_member_structs.c")),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    // No delinearisation is tried on a struct's places.
    assert!(!log.contains("delinearised"), "{}", log);
    // `fill`'s first nest, `(i, j)` over `g.f[i].a[j]`, is parallel in
    // both loops, and so are the loops over the pairs and the cells; the
    // sum into the member `s.b` is a reduction (issue 31).
    assert!(
        log.contains("parallel dims [2, 1, 1, 3, 1, 2, 1, 0]"),
        "{}",
        log
    );
}

/// A scalar statement right after a reduction in each step of a
/// sequential loop (issue 30: durbin's `alpha` ran as a kernel of one
/// thread launched per step) runs in the reduction's combining kernel,
/// on its work-item 0 once the result is there: a float sum, an integer
/// maximum, and two sums before one statement. Every target and version
/// prints the sequential results (the combining kernel's barriers are
/// outside branches: under one, PoCL ran this program's device version
/// for minutes without an end).
#[test]
fn statements_after_a_reduction_run_in_its_combining_kernel() {
    check("reduction_epilogue");
    check_cuda_emulated("reduction_epilogue");
    check_openmp("reduction_epilogue");
    let dir = scratch("program-reduction_epilogue-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--target", "cuda", "-o"])
            .arg(dir.join("p.c"))
            .arg(root().join("tests/programs/reduction_epilogue.c")),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    for (single, combine) in [(1, 0), (4, 3), (7, 6), (10, 9)] {
        let note = format!(
            "kernel[{}] runs in kernel{}_combine on its work-item 0",
            single, combine
        );
        assert!(log.contains(&note), "{}\n{}", note, log);
    }
    assert!(
        log.contains("kernel[10] runs in kernel9_combine on its work-item 0, after the reduction's result: launched alone only where `rows >= 1` fails"),
        "{}",
        log
    );
    // `c[k] += s - t` updates one element per step in a kernel of one
    // thread: in its own order, no warning that the order may vary, and
    // no combining kernel of its own (it runs in kernel6's).
    assert!(!log.contains("depend on the order"), "{}", log);
    let cu = std::fs::read_to_string(dir.join("p_kernel.cu")).unwrap();
    assert!(!cu.contains("void kernel1("), "{}", cu);
    assert!(!cu.contains("kernel7_combine"), "{}", cu);
    // The one kernel of one thread left is the square root's own, for
    // regions whose reduction does not run.
    assert_eq!(cu.matches("dim3 pencilc_block(1);").count(), 1, "{}", cu);
    let host = std::fs::read_to_string(dir.join("p.c")).unwrap();
    assert!(
        host.contains("if (!(rows >= 1)) {\n                            PENCILC_CUDA_CHECK(kernel10_launch(1,"),
        "{}",
        host
    );
    // At run time: the region runs once with no rows (30 steps, each
    // launching the square root's kernel alone) and once with 300 rows
    // (none); the other regions launch no kernel of one thread.
    let exe = root().join("target/e2e/program-reduction_epilogue/par-cuda-emulated");
    let out = run(
        Command::new(&exe)
            .env("PENCILC_RUN", "device")
            .env("FAKECUDA_COUNT", "1"),
        "the emulated program, device version",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(", 30 launches of one thread"), "{}", err);
}

/// Set-up statements at a region's start run on the host before the
/// device code (issue 30: deriche's and adi's constants were kernels of
/// one thread): float constants through `expf`/`powf`, an `int` offset,
/// an element of an array the region copies in anyway; what the loops
/// write too, or what reads itself, stays. Every target and version
/// prints the sequential results, also where the device cannot hold the
/// buffers (the original code then runs after the set-up, which must
/// leave the same state run twice).
#[test]
fn set_up_statements_run_on_the_host() {
    check("host_setup");
    check_cuda_emulated("host_setup");
    check_openmp("host_setup");
    let dir = scratch("program-host_setup-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--target", "cuda", "-o"])
            .arg(dir.join("p.c"))
            .arg(root().join("tests/programs/host_setup.c")),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    for lines in [
        "23, 24, 25, 26, 27 run on the host",
        "39, 40 run on the host",
    ] {
        assert!(log.contains(lines), "{}\n{}", lines, log);
    }
    let host = std::fs::read_to_string(dir.join("p.c")).unwrap();
    assert!(host.contains("run by the host */\n"), "{}", host);
    // The coefficients reach the filter's kernel as values.
    let cu = std::fs::read_to_string(dir.join("p_kernel.cu")).unwrap();
    assert!(cu.contains("float a1"), "{}", cu);
    // At run time, the filter launches no kernel of one thread; the chain
    // one per call (its recurrence).
    let exe = root().join("target/e2e/program-host_setup/par-cuda-emulated");
    let want = run(
        &mut Command::new(root().join("target/e2e/program-host_setup/seq")),
        "sequential program",
    );
    let counted = run(
        Command::new(&exe)
            .env("PENCILC_RUN", "device")
            .env("FAKECUDA_COUNT", "1"),
        "the emulated program, device version",
    );
    let err = String::from_utf8_lossy(&counted.stderr);
    assert!(err.contains(", 2 launches of one thread"), "{}", err);
    // A device that cannot hold the buffers: the original code runs after
    // the set-up, and prints the same.
    let small = run(
        Command::new(&exe)
            .env("PENCILC_RUN", "device")
            .env("FAKECUDA_MEMORY", "4096"),
        "the emulated program, a device of 4 kB",
    );
    assert_eq!(
        String::from_utf8_lossy(&small.stdout),
        String::from_utf8_lossy(&want.stdout)
    );
}

/// Pointers to structs (issue 33: `struct pt *p` indexed `p[i].x` was
/// E0104, one dimension with two subscripts, and `->` was refused, pet's
/// struct6): a pointer to structs indexes like an array of them, `p->m`
/// is `p[0].m`. Points scaled in parallel (also at an offset, `p + 1`),
/// an image read through `im->data[i]` whose `im->scale` the region then
/// updates, a 2-d member through `->`, and two overlapping pointers to
/// the same points. Every target and version prints the sequential
/// results, the loops over points and pixels in parallel.
#[test]
fn pointers_to_structs_index_like_arrays_of_them() {
    check("struct_pointers");
    check_cuda_emulated("struct_pointers");
    check_openmp("struct_pointers");
    let dir = scratch("program-struct_pointers-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--target", "opencl", "-o"])
            .arg(dir.join("p.c"))
            .arg(root().join("tests/programs/struct_pointers.c")),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    // scale's points, blur's pixels (then its one update of the scale),
    // sum_grid's (i, j) with its sum into `g->total` a reduction (issue
    // 31: it was a kernel of its own, sequential), shift's points.
    assert!(log.contains("parallel dims [1, 1, 0, 2, 1]"), "{}", log);
}

/// Whole structs copied (issue 33: `s[i] = t[i]` was E0111): a loop over
/// the places, exact in the model, parallel where the copies are
/// independent; host code copies through the members' type. Every target
/// and version prints the sequential results.
#[test]
fn whole_structs_are_copied_place_by_place() {
    check("struct_copies");
    check_cuda_emulated("struct_copies");
    check_openmp("struct_copies");
    let omp =
        std::fs::read_to_string(root().join("target/e2e/program-struct_copies-omp/omp.c")).unwrap();
    assert!(
        omp.contains("((int *)&t[c2])[c3] = ((int *)&s[10 - 1 - c2])[c3];"),
        "{}",
        omp
    );
    let log = verbose_log("struct_copies");
    assert!(
        log.contains("4 kernel(s), parallel dims [2, 2, 2, 2]"),
        "{}",
        log
    );
}

/// Accumulations into struct members (issue 31: they stayed sequential,
/// as an OpenMP clause cannot name a member): a histogram of structs, an
/// array member through a pointer, a complex sum's two members. Every loop
/// is parallel, OpenMP's with `omp atomic`, and every target and version
/// prints the sequential results.
#[test]
fn accumulations_into_struct_members_are_reductions() {
    check("struct_reductions");
    check_cuda_emulated("struct_reductions");
    check_openmp("struct_reductions");
    let log = verbose_log("struct_reductions");
    assert!(log.contains("1 kernel(s), parallel dims [1]"), "{}", log);
    for text in [
        "`h` accumulates (add)",
        "`g` accumulates (add)",
        "`acc` accumulates (add)",
    ] {
        assert!(log.contains(text), "{}\n{}", text, log);
    }
    let omp =
        std::fs::read_to_string(root().join("target/e2e/program-struct_reductions-omp/omp.c"))
            .unwrap();
    // The histograms' elements vary: atomics. The complex sum's two
    // members are locals that a clause reduces.
    assert_eq!(omp.matches("#pragma omp atomic").count(), 3, "{}", omp);
    assert!(
        omp.contains(
            "reduction(pencilc_sum_double: pencilc_acc0_acc) reduction(pencilc_sum_double: pencilc_acc1_acc)"
        ),
        "{}",
        omp
    );
}

/// Minima, maxima, sums and counts into single struct members and into
/// an element through a pointer (`total[0]`): with OpenMP each element is
/// a local that the loop's `reduction` clause names, read before the loop
/// and stored after it, with no atomics (the minimum and maximum stayed
/// sequential before, since `omp atomic` cannot make them), and only
/// where the loop runs (a call with no iteration passes null pointers).
/// Every target and version prints the sequential results, OpenMP on
/// three threads.
#[test]
fn single_elements_reduce_through_locals() {
    check("struct_min_max");
    check_cuda_emulated("struct_min_max");
    check_openmp("struct_min_max");
    let omp = std::fs::read_to_string(root().join("target/e2e/program-struct_min_max-omp/omp.c"))
        .unwrap();
    for text in [
        "if (0 < n) {\n        #pragma omp declare reduction(pencilc_sum_double : double : omp_out += omp_in) initializer(omp_priv = -0.0)\n        double pencilc_acc0_r = r[0].lo;",
        "reduction(min: pencilc_acc0_r) reduction(max: pencilc_acc1_r) reduction(+: pencilc_acc2_t) reduction(+: pencilc_acc3_t) reduction(pencilc_sum_double: pencilc_acc4_total)",
        "r[0].hi = pencilc_acc1_r;",
        "total[0] = pencilc_acc4_total;",
    ] {
        assert!(omp.contains(text), "{}\n{}", text, omp);
    }
    assert!(!omp.contains("omp atomic"), "{}", omp);
}

/// Different operators into the members of one struct in one loop, and
/// minima and maxima into elements that vary (issue 31): the first three
/// loops are reductions (before, a struct's updates had to share one
/// operator, and a varying minimum kept the host's loop sequential), two
/// operators on one member (`t->sum`) are not, and a sum beside reads of
/// other members is (on the host through a local, its loop parallel: it
/// was before the sum was found, distributed from it). With OpenMP the single
/// struct's members are locals a clause names; the varying elements are
/// `omp atomic` updates in a form it takes (an integer chain did not
/// compile) and compare-and-swap loops for the minima and maxima (also of
/// unsigned members, and of a declared `reduction(min: m)`:
/// `varying_updates.c`). Every target and version prints the sequential
/// results, OpenMP on three threads.
#[test]
fn different_operators_into_one_struct_are_reductions() {
    check("struct_member_mixed");
    check_cuda_emulated("struct_member_mixed");
    check_openmp("struct_member_mixed");
    let log = verbose_log("struct_member_mixed");
    for text in [
        "line 28: `s` accumulates (max)",
        "line 29: `s` accumulates (min)",
        "line 33: `h` accumulates (min)",
        "line 34: `h` accumulates (max)",
        "line 37: `g` accumulates (add)",
        "line 38: `g` accumulates (min)",
        "line 39: `g` accumulates (xor)",
        "line 40: `g` accumulates (add)",
        "line 47: `u` accumulates (add)",
    ] {
        assert!(log.contains(text), "{}\n{}", text, log);
    }
    assert!(!log.contains("`t` accumulates"), "{}", log);
    let omp =
        std::fs::read_to_string(root().join("target/e2e/program-struct_member_mixed-omp/omp.c"))
            .unwrap();
    for text in [
        "reduction(max: pencilc_acc3_s) reduction(min: pencilc_acc4_s)",
        "g[v[c0] % 8].c += (int)0 - v[c0] - 1;",
        "g[v[c0] % 8].x ^= v[c0];",
    ] {
        assert!(omp.contains(text), "{}\n{}", text, omp);
    }
    // h's minimum and maximum, g's minimum.
    assert_eq!(
        omp.matches("__atomic_compare_exchange(").count(),
        3,
        "{}",
        omp
    );
    // The sum beside reads of `u`'s other members goes through a local.
    assert!(
        omp.contains("#pragma omp parallel for reduction(pencilc_sum_double: pencilc_acc0_u)\n        for (int c0 = 0; c0 < n; c0 += 1) {\n            pencilc_acc0_u += x[c0] * u[0].lo;"),
        "{}",
        omp
    );
    assert_eq!(
        omp.matches("#pragma omp parallel for").count(),
        2,
        "{}",
        omp
    );
    check("varying_updates");
    check_cuda_emulated("varying_updates");
    check_openmp("varying_updates");
}

/// Accumulations into array elements and struct members under conditions
/// on the data (issue 31: only a scalar's were found): a conditional
/// histogram, an element updated in both branches, members through a
/// pointer (`omp atomic` inside the `if`), a guarded minimum of varying
/// members (a compare-and-swap loop). A condition that reads the
/// histogram keeps its loop in order. Every target and version prints the
/// sequential results, OpenMP on three threads.
#[test]
fn guarded_updates_of_elements_are_reductions() {
    check("guarded_elements");
    check_cuda_emulated("guarded_elements");
    check_openmp("guarded_elements");
    let log = verbose_log("guarded_elements");
    for text in [
        "line 19: `h` accumulates (add)",
        "line 22: `s` accumulates (add)",
        "line 28: `a` accumulates (add)",
        "line 30: `a` accumulates (add)",
        "line 34: `r` accumulates (min)",
    ] {
        assert!(log.contains(text), "{}\n{}", text, log);
    }
    assert!(!log.contains("`g` accumulates"), "{}", log);
    let omp = std::fs::read_to_string(root().join("target/e2e/program-guarded_elements-omp/omp.c"))
        .unwrap();
    for text in [
        "reduction(+: h[0:16]) reduction(pencilc_sum_double: s[0:4])",
        "#pragma omp atomic\n                    a[0].pos += x[c0];",
        "__atomic_compare_exchange(&r[v[c0] % 8].lo",
    ] {
        assert!(omp.contains(text), "{}\n{}", text, omp);
    }
}

/// A schedule whose coefficients the generated `int` arithmetic may
/// overflow is refused and the region falls back (found by the
/// differential tests, seed 52, case 132: isl's schedule had coefficients
/// near 500,000 and 95 values came out wrong with exit status 0). With
/// isl's scheduler asked for, every target and version prints the
/// sequential results, and `-v` says why the schedule was refused.
#[test]
fn schedules_with_huge_coefficients_are_refused() {
    check_with("schedule_coefficients", "-isl", &["--scheduler", "isl"]);
    check_openmp("schedule_coefficients");
    let dir = scratch("program-schedule_coefficients-isl-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--scheduler", "isl", "--target", "c", "-o"])
            .arg(dir.join("p.c"))
            .arg(root().join("tests/programs/schedule_coefficients.c")),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("the schedule has a coefficient of 499480, beyond 64"),
        "{}",
        log
    );
    assert!(
        log.contains("falling back to the region's own loop order"),
        "{}",
        log
    );
}

/// Rows of an array of structs, one struct's address and a struct's member
/// arrays passed to functions (issue 33: pet's inline7-9, struct9 and
/// call_struct were E0104/E0111): each is all of its places, read and
/// may-written, so each iteration's own row, struct or member leaves the
/// loops parallel. Functions of structs keep the device version on the
/// original code; member arrays of `int` reach the kernels' device copies
/// as flat pointers, and host code passes the user's own types. Every
/// target and version prints the sequential results.
#[test]
fn rows_of_structs_and_member_arrays_are_call_arguments() {
    check("struct_rows");
    check_cuda_emulated("struct_rows");
    check_openmp("struct_rows");
    let omp =
        std::fs::read_to_string(root().join("target/e2e/program-struct_rows-omp/omp.c")).unwrap();
    // `rows`: a row of structs, one struct, then the sums, each parallel.
    for text in [
        "for (int c0 = 0; c0 <= 8; c0 += 1) {\n        fill_row(&s[c0][0], c0 * 10);",
        "fill(&s[c2][c3], ",
        "shift((void *)&s[",
    ] {
        assert!(omp.contains(text), "{}\n{}", text, omp);
    }
    assert_eq!(
        omp.matches("#pragma omp parallel for").count(),
        4,
        "{}",
        omp
    );
    let k =
        std::fs::read_to_string(root().join("target/e2e/program-struct_rows/p_kernel.cl")).unwrap();
    for text in ["scale(8, &s[", "scale(5, &s[", "shift(&s["] {
        assert!(k.contains(text), "{}\n{}", text, k);
    }
    let log = verbose_log("struct_rows");
    assert!(
        log.contains("the region calls `fill`, of which pencilc can make no device copy"),
        "{}",
        log
    );
    assert!(log.contains("parallel dims [2]"), "{}", log);
    // In an expression: functions only declared, taken as pure, get the
    // member's address in the parameter's own type (this printed the
    // model's marker call, and the output did not build).
    let dir = scratch("program-struct_rows-pure");
    let src = dir.join("pure.c");
    std::fs::write(
        &src,
        "struct cell { int a[4][8]; int b[5]; };\nint sum8(const int a[8]);\nint sumall(const int a[4][8]);\nvoid run(struct cell s[12], int out[12]) {\n#pragma scop\n  for (int i = 0; i < 12; ++i)\n    out[i] = sum8(s[i].a[1]) + sumall(s[i].a) + sum8(s[i].b);\n#pragma endscop\n}\n",
    )
    .unwrap();
    let out = dir.join("out.c");
    run(
        Command::new(pencilc())
            .args(["--target", "c", "-o"])
            .arg(&out)
            .arg(&src),
        "pencilc",
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("sumall((void *)&s["), "{}", text);
    run(
        Command::new("cc")
            .args(["-fsyntax-only", "-Wall", "-Werror", "-Wno-unknown-pragmas"])
            .arg(&out),
        "cc",
    );
}

/// A loop iterator the region also uses outside its loops (issue 33:
/// pet's loop7, and a read after a loop with `break`, were E0106): the
/// loops over it run as written, with a warning where it is used; the
/// other loops stay parallel; uses of an iterator after a loop without
/// `break` are its final value, with no warning. Every target and version
/// prints the sequential results.
#[test]
fn iterators_used_outside_their_loops_are_variables() {
    check("iterator_outside");
    check_cuda_emulated("iterator_outside");
    check_openmp("iterator_outside");
    let log = verbose_log("iterator_outside");
    assert!(log.contains("parallel dims [0, 0, 2, 1, 0, 1]"), "{}", log);
    assert_eq!(
        log.matches("is used here outside the loops it is the iterator of")
            .count(),
        3,
        "{}",
        log
    );
}

/// `for` loops outside PENCIL's form (issue 33: pet's for_while_inc2-4,
/// inc4, inc5 and for_while_init were E0107) are the `while` loops C
/// makes of them: a condition that reads what the body changes, a
/// data-dependent increment with a `continue` (which still runs the
/// increment), no initialiser, no condition with a `break`, a `double`
/// iterator, and rows in parallel around a loop of their own; an
/// increment in which the iterator cancels out is a constant step. Every
/// target and version prints the sequential results.
#[test]
fn for_loops_outside_pencils_form_run_as_while_loops() {
    check("for_as_while");
    check_cuda_emulated("for_as_while");
    check_openmp("for_as_while");
    // The rows around their own loops run in parallel, and so does the
    // loop whose increment `(i + 3) - (i + 2)` is the constant 1, and
    // the loop after the ones whose bounds their bodies change.
    let log = verbose_log("for_as_while");
    assert!(
        log.contains("parallel dims [0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0]"),
        "{}",
        log
    );
}

/// Scalar forwarding (issue 30: ludcmp's `w`, shared by every `(i, j)`,
/// ran as 2.3M launches of one-thread kernels at LARGE): where the GPU
/// model prefers it, a scalar whose values each end in one element keeps
/// them there. ludcmp, and ludcmp with guarded updates, are forwarded;
/// the variants whose `w` is live after the region (returned, read by
/// the loop around the region, read through a pointer) or of another
/// type are not; their accumulations are no reductions either, as the
/// model estimates those slower at this size. Every target and version
/// prints the sequential results, OpenCL on PoCL with a GPU's description
/// (which has the model) too.
#[test]
fn scalars_whose_values_end_in_one_element_each_are_kept_there() {
    check("forward_scalar");
    check_with("forward_scalar", "-h100", &["--device", "nvidia-h100"]);
    check_cuda_emulated("forward_scalar");
    check_openmp("forward_scalar");
    let src = root().join("tests/programs/forward_scalar.c");
    let text = std::fs::read_to_string(&src).unwrap();
    let uses: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("LUDCMP("))
        .map(|(k, _)| k + 1)
        .collect();
    assert_eq!(uses.len(), 6, "{:?}", uses);
    let dir = scratch("program-forward_scalar-cuda-v");
    // A schedule budget no load can exhaust: the notes are the
    // scheduler's result's, not those of a fallback after a timeout.
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--schedule-timeout", "120", "--target", "cuda", "-o"])
            .arg(dir.join("p.c"))
            .arg(&src),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    for (k, line) in uses.iter().enumerate() {
        let note = format!("line {}: `w` keeps its values in `A[i][j]`", line);
        assert_eq!(log.contains(&note), k < 2, "line {}:\n{}", line, log);
    }
    // At N = 36 a reduction per element costs more launches than the one
    // thread did: the GPU model keeps the loops as they are.
    assert!(
        log.matches("no reductions: the GPU model estimates the region at")
            .count()
            >= 4,
        "{}",
        log
    );
}

/// Privatised arrays with a copy per iteration in device memory (issue
/// 30: doitgen's `sum` kept each `(r, q)` on one GPU thread, which ran
/// 25,600 products over a private array in local memory; 16.5 ms of
/// kernels on an H200): every target and version prints the sequential
/// results with the arrays expanded (`--expand-private always`; OpenCL on
/// PoCL with a GPU's description too, and emulated CUDA with blocks in
/// both orders), the values each nest leaves in its array included: a
/// parameter, a caller's local read after the region, elements written
/// in some iterations only, the last values from the first iteration of a
/// loop that counts down, one array in two nests. At the sizes the
/// arrays are declared with, the GPU model expands doitgen's alone.
#[test]
fn privatised_arrays_get_a_copy_per_iteration_in_device_memory() {
    check("expanded_copies");
    check_with(
        "expanded_copies",
        "-always",
        &["--expand-private", "always"],
    );
    check_with(
        "expanded_copies",
        "-h100",
        &["--device", "nvidia-h100", "--expand-private", "always"],
    );
    check_cuda_emulated_with("expanded_copies", &["--expand-private", "always"], "always");
    let note = "has a copy per iteration of loop(s)";
    let forced = verbose_log_with(
        "expanded_copies",
        &["--device", "nvidia-h100", "--expand-private", "always"],
    );
    for what in [
        "line 24: `sum` has a copy per iteration of loop(s) `r`, `q` in device memory (`pencilc_x_sum`, 3360000 elements",
        "line 39: `t` has a copy per iteration of loop(s) `r`",
        "line 51: `u`",
        "line 66: `v`",
        "line 82: `w` has a copy per iteration of loop(s) `r` in device memory (`pencilc_x_w`,",
        "line 88: `w` has a copy per iteration of loop(s) `r` in device memory (`pencilc_x_w_1`,",
    ] {
        assert!(forced.contains(what), "{}\n{}", what, forced);
    }
    assert_eq!(forced.matches(note).count(), 6, "{}", forced);
    let sizes = "nr=150,nq=140,np=160,n=150,m=160";
    let chosen = verbose_log_with(
        "expanded_copies",
        &["--device", "nvidia-h100", "--gpu-model-params", sizes],
    );
    assert_eq!(chosen.matches(note).count(), 1, "{}", chosen);
    assert!(
        chosen.contains("line 24: `sum` has a copy per iteration")
            && chosen.contains("(GPU model: "),
        "{}",
        chosen
    );
    let never = verbose_log_with(
        "expanded_copies",
        &[
            "--device",
            "nvidia-h100",
            "--gpu-model-params",
            sizes,
            "--expand-private",
            "never",
        ],
    );
    assert_eq!(never.matches(note).count(), 0, "{}", never);
    // The CPU's description has no GPU model to choose with.
    let cpu = verbose_log_with("expanded_copies", &["--gpu-model-params", sizes]);
    assert_eq!(cpu.matches(note).count(), 0, "{}", cpu);
}

/// PENCIL's `int` `min`, `max` and `clamp` called with `long` values
/// truncate them on every target: CUDA's own overloads for `long` kept 64
/// bits (wrong on emulated CUDA before).
#[test]
fn pencil_int_min_max_truncate_longs_on_every_target() {
    check("int_min_of_longs");
    check_cuda_emulated("int_min_of_longs");
}

/// Accumulations with a parallel loop of their own split in 32 partial
/// results (`scop::partials`): gramschmidt's products, a chain, a
/// difference over a loop that counts down, a product, an integer sum, a
/// triangular loop, a scalar with a copy per row, a forward substitution
/// whose terms read other elements of the variable, a loop of step 3
/// whose iterator the caller reads after the region, an unsigned
/// iterator, parameters named `q` and `r`, a sum of negative zeros; a
/// loop with another statement is left whole. Right on every
/// target with the split forced (the values make every order of the
/// terms exact); at the declared sizes the GPU model splits
/// gramschmidt's, whose threads each ran 1,000 products.
#[test]
fn accumulations_inside_parallel_loops_split_in_partial_results() {
    let logs = check_splits(&Splits {
        name: "split_reductions",
        notes: &[
            "line 30: `R` accumulates (add) over loop `i` in 32 partial results per iteration of loop(s) `j` (`pencilc_p_R`, 38400 elements)",
            "line 44: `y` accumulates (add) over loop `j`",
            "line 47: `z` accumulates (add) over loop `j`",
            "line 50: `p` accumulates (mul) over loop `j`",
            "line 53: `c` accumulates (add) over loop `j`",
            "line 63: `t` accumulates (add) over loop `j`",
            "line 67: `s` accumulates (add) over loop `j`",
            "line 85: `x` accumulates (add) over loop `k`",
            "line 89: `y` accumulates (add) over loop `j`",
            "line 92: `z` accumulates (add) over loop `u`",
            "line 106: `c` accumulates (add) over loop `j`",
            "line 109: `o` accumulates (add) over loop `j`",
        ],
        sizes: "m=1000,n=1200,k=300",
        chosen: "line 30: `R` accumulates (add) over loop `i` in 32 partial results",
        // Not where the order of a floating-point sum must stay.
        exact: &["line 53: `c` accumulates", "line 106: `c` accumulates"],
    });
    let never = verbose_log_with(
        "split_reductions",
        &[
            "--device",
            "nvidia-h100",
            "--gpu-model-params",
            "m=1000,n=1200,k=300",
            "--split-reductions",
            "never",
        ],
    );
    assert_eq!(never.matches(SPLIT_NOTE).count(), 0, "{}", never);
    assert!(logs.forced.contains(REASSOCIATED_NOTE), "{}", logs.forced);
}

/// What `-v` says of each accumulation split in partial results.
const SPLIT_NOTE: &str = "partial results";

/// What `-v` says of a reassociated floating-point sum.
const REASSOCIATED_NOTE: &str = "reassociated (floating point";

/// A test program of accumulations split in partial results, and what
/// `-v` must say of it.
struct Splits<'a> {
    name: &'a str,
    /// Every split, with `--split-reductions always` and the H100's
    /// description (no other).
    notes: &'a [&'a str],
    /// Sizes (`--gpu-model-params`) at which the GPU model splits...
    sizes: &'a str,
    /// ...this one.
    chosen: &'a str,
    /// The splits `--reductions exact` keeps (no other).
    exact: &'a [&'a str],
}

/// `-v` of a `Splits` program, forced and with `--reductions exact`.
struct SplitLogs {
    forced: String,
    exact: String,
}

/// A `Splits` program right on every target with the split forced (the
/// values make every order exact): OpenCL on PoCL with the CPU's and the
/// H100's descriptions, OpenMP and C, emulated CUDA; and `-v` as `s`
/// says, with no split for the CPU's description.
fn check_splits(s: &Splits) -> SplitLogs {
    let forced = ["--split-reductions", "always"];
    let h100 = ["--device", "nvidia-h100", "--split-reductions", "always"];
    check(s.name);
    check_with(s.name, "-always", &forced);
    check_with(s.name, "-h100", &h100);
    check_cuda_emulated_with(s.name, &forced, "always");
    let log = verbose_log_with(s.name, &h100);
    for what in s.notes {
        assert!(log.contains(what), "{}\n{}", what, log);
    }
    assert_eq!(log.matches(SPLIT_NOTE).count(), s.notes.len(), "{}", log);
    let chosen = verbose_log_with(
        s.name,
        &["--device", "nvidia-h100", "--gpu-model-params", s.sizes],
    );
    assert!(
        chosen.contains(s.chosen) && chosen.contains("(GPU model: "),
        "{}",
        chosen
    );
    let exact = verbose_log_with(s.name, &[&h100[..], &["--reductions", "exact"]].concat());
    for what in s.exact {
        assert!(exact.contains(what), "{}\n{}", what, exact);
    }
    assert_eq!(
        exact.matches(SPLIT_NOTE).count(),
        s.exact.len(),
        "{}",
        exact
    );
    // The CPU's description has no GPU model to choose with.
    let cpu = verbose_log_with(s.name, &["--gpu-model-params", s.sizes]);
    assert_eq!(cpu.matches(SPLIT_NOTE).count(), 0, "{}", cpu);
    SplitLogs { forced: log, exact }
}

/// OpenCL's loops of small launches as one work-group: the time loops of
/// `one_block_loops.c` (a 1-d and a 2-d grid per step, rows starting
/// half-way) run as one work-group whose work-items take each launch in
/// turn, a barrier between them, where the kernel allows the work-group
/// on the device (`pencilc_group_fits`, asked before the launch; PoCL's
/// CPU device allows 4,096); the sequential results on PoCL with the
/// H100's and H200's descriptions, `auto` (their default) and `always`,
/// every version. The CPU's description keeps the launches (one
/// work-group would run on one core), and `--target c` refuses `always`.
/// fakecl's test runs the same loops on a device that refuses the
/// work-group.
#[test]
fn opencl_runs_host_loops_as_one_work_group_on_gpus() {
    let src = root().join("tests/programs/one_block_loops.c");
    for (device, policy) in [("nvidia-h100", "auto"), ("nvidia-h200", "always")] {
        let dir = scratch(&format!("program-one_block_loops-ocl-{}", device));
        let extra = ["--device", device, "--one-block-loops", policy];
        check_source_on(&src, &dir, &extra, &["opencl"]);
        let k = std::fs::read_to_string(dir.join("p_kernel.cl")).expect("kernels");
        assert!(k.contains("pencilc_barrier();"), "{}", k);
        let host = std::fs::read_to_string(dir.join("p_host.c")).expect("host");
        assert!(
            host.contains("pencilc_global[1] = { (size_t) (1) * "),
            "{}",
            host
        );
        assert!(host.contains("if (pencilc_group_fits(kernel"), "{}", host);
    }
    let auto = verbose_log_with("one_block_loops", &["--device", "nvidia-h100"]);
    assert!(auto.contains("(--one-block-loops)"), "{}", auto);
    let cpu = verbose_log_with("one_block_loops", &[]);
    assert!(!cpu.contains("--one-block-loops"), "{}", cpu);
    let out = Command::new(pencilc())
        .args(["--target", "c", "--one-block-loops", "always"])
        .arg(&src)
        .output()
        .expect("pencilc runs");
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--one-block-loops always is an option of --target cuda and --target opencl"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Floating-point sums of negative zeros stay `-0.0` as reductions: the
/// device trees' copies and OpenMP's start at `-0.0`, not at `+0.0`
/// (`+0.0 + -0.0` is `+0.0`): scalars of both types and an array, on
/// every target and version, with the GPU descriptions too.
#[test]
fn negative_zero_sums_keep_their_sign_as_reductions() {
    check("negative_zero_sums");
    check_with("negative_zero_sums", "-h100", &["--device", "nvidia-h100"]);
    check_cuda_emulated("negative_zero_sums");
    let src = root().join("tests/programs/negative_zero_sums.c");
    let dir = scratch("program-negative_zero_sums-omp");
    let host = dir.join("p.c");
    run(
        Command::new(pencilc())
            .args(["--target", "c", "--openmp", "-o"])
            .arg(&host)
            .arg(&src),
        "pencilc --target c --openmp",
    );
    let c = std::fs::read_to_string(&host).expect("generated C");
    assert!(
        c.contains("initializer(omp_priv = -0.0)") && c.contains("reduction(pencilc_sum_double: "),
        "{}",
        c
    );
}

/// Minima and maxima with a parallel loop of their own, split in lanes
/// that start from the variable's value and combine with the user's own
/// expression (`umin` of negative `int`s, `int` `min` of a `long` that
/// starts outside `int`, `lmax`, a `?:` maximum of doubles, `fmin`, a
/// triangular loop, a term reading another element of the variable):
/// right on every target, and the GPU model splits the few long rows at
/// the sizes declared, not at the CPU's description.
#[test]
fn minima_and_maxima_inside_parallel_loops_split_in_partial_results() {
    let lines = [
        "line 33: `mx` accumulates (max) over loop `j` in 32 partial results",
        "line 36: `u` accumulates (min) over loop `j`",
        "line 39: `y` accumulates (min) over loop `j`",
        "line 42: `lw` accumulates (max) over loop `j`",
        "line 51: `d` accumulates (max) over loop `j`",
        "line 54: `f` accumulates (min) over loop `j`",
        "line 57: `tri` accumulates (min) over loop `j`",
        "line 60: `w` accumulates (max) over loop `j`",
        "line 69: `big_max` accumulates (max) over loop `j`",
        "line 81: `Sx` accumulates (max) over loop `j`",
        "line 84: `mn` accumulates (min) over loop `j`",
    ];
    // All but the `?:` maximum and the `fmin` of doubles are exact (in
    // another order, a zero result of `fmin` may have the other sign).
    let exact: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.contains("`d`") && !l.contains("`f`"))
        .collect();
    let logs = check_splits(&Splits {
        name: "split_min_max",
        notes: &lines,
        sizes: "m=200000",
        chosen: "line 69: `big_max` accumulates (max) over loop `j` in 32 partial results",
        exact: &exact,
    });
    // Reordered, where a NaN or a signed zero would tell.
    assert_eq!(
        logs.forced.matches(REORDERED_NOTE).count(),
        1,
        "{}",
        logs.forced
    );
    assert_eq!(
        logs.forced
            .matches("reordered (floating point `fmin`/`fmax`")
            .count(),
        1,
        "{}",
        logs.forced
    );
    assert!(
        !logs.exact.contains("reordered (floating point"),
        "{}",
        logs.exact
    );
    // Without private and shared memory a wrong element combined into is
    // read from global memory (the subscripts' region).
    let global = [
        "--split-reductions",
        "always",
        "--no-private-memory",
        "--no-shared-memory",
    ];
    check_with("split_min_max", "-global", &global);
    check_cuda_emulated_with("split_min_max", &global, "global");
}

/// What `-v` says of a reordered floating-point `?:` minimum or maximum.
const REORDERED_NOTE: &str = "reordered (floating point `?:`";

/// A band whose only parallel row leaves each GPU thread a long chain of
/// work (trmm: `j` parallel, `k` and `i` inside each thread), with one of
/// its sequential rows outside as a host loop and two parallel rows
/// inside, which the GPU model chooses (`SchedOptions::hoist`): right on
/// every target and version, with the GPU descriptions (OpenCL on PoCL
/// with `nvidia-h100`, emulated CUDA); the CPU's description and the
/// host versions keep the band as it was.
#[test]
fn sequential_rows_outside_parallel_ones_for_a_gpu() {
    check("hoisted_rows");
    check_with("hoisted_rows", "-h100", &["--device", "nvidia-h100"]);
    check_cuda_emulated("hoisted_rows");
    let src = root().join("tests/programs/hoisted_rows.c");
    let dir = scratch("program-hoisted_rows-v");
    let note = "a sequential loop runs outside the parallel ones it was inside";
    for (device, hoisted) in [("nvidia-h100", 2), ("generic-opencl-cpu", 0)] {
        let out = run(
            Command::new(pencilc())
                .args(["-v", "--schedule-timeout", "120", "--target", "opencl"])
                .args(["--device", device, "-o"])
                .arg(dir.join(format!("{}.c", device)))
                .arg(&src),
            "pencilc -v",
        );
        let log = String::from_utf8_lossy(&out.stderr);
        assert_eq!(log.matches(note).count(), hoisted, "{}:\n{}", device, log);
        // Each region's first kernel: (i, j) on 2-d work-groups with the
        // GPU's description, `j` alone without.
        let dims = if hoisted > 0 {
            "[2, 2, 2, 2]"
        } else {
            "[1, 2, 1, 2]"
        };
        assert!(
            log.contains(&format!("parallel dims {}", dims)),
            "{}:\n{}",
            device,
            log
        );
    }
    // The host version of the CUDA output keeps `j` outermost: one
    // parallel loop, not one per step of `k` (the regions' loops, not the
    // run time's staged copy, which splits chunks over OpenMP threads).
    let host = std::fs::read_to_string(root().join("target/e2e/program-hoisted_rows/cuda_host.c"))
        .unwrap();
    let regions = &host[host
        .find("pencilc: the generated versions of the region")
        .unwrap()..];
    assert!(!regions.contains("pencilc_stage_copy(void"), "{}", host);
    assert_eq!(
        regions.matches("#pragma omp parallel for").count(),
        4,
        "{}",
        host
    );
}

/// Accumulations without `reduction` clauses (issues 30 and 31): an
/// integer sum, a floating-point dot product, minimum and maximum written
/// with `?:`, a triangular solve whose updates read other elements of
/// their array (whose column sweep is parallel without a reduction),
/// conditional products per row; a prefix sum, which is no reduction,
/// stays in order. Each runs in parallel where its loop had no other
/// parallelism, and every version prints the sequential results.
#[test]
fn accumulations_found_in_the_code_run_as_reductions() {
    check("reductions_found");
    check_cuda_emulated("reductions_found");
    check_openmp("reductions_found");
    let log = verbose_log("reductions_found");
    for (line, var) in [
        ("`s` accumulates (add)", "int_sum"),
        ("`c` accumulates (add)", "chained"),
        ("`c2` accumulates (add)", "chained"),
        ("`m` accumulates (mul)", "chained"),
        ("`acc` accumulates (add)", "other_element"),
        ("`d` accumulates (add)", "dot"),
        ("`lo` accumulates (min)", "extremes"),
        ("`h` accumulates (max)", "extremes"),
        ("`parity` accumulates (xor)", "bits"),
        ("`any` accumulates (or)", "bits"),
        ("`all` accumulates (and)", "bits"),
    ] {
        assert!(log.contains(line), "{} is not a reduction:\n{}", var, log);
    }
    assert!(
        !log.contains("`p` accumulates"),
        "a prefix sum became a reduction:\n{}",
        log
    );
    // Its value reads `acc[k + 1]`: no private copy of the whole array
    // (which would read its own zero there), but one of `acc[k]`, the one
    // element the launch adds into, while `acc[k + 1]` is read in global
    // memory.
    assert!(
        log.contains(
            "acc: add reduction into one element per launch (acc[k]), private copy per thread"
        ),
        "{}",
        log
    );
    // Exact mode: the floating-point sum and minimum stay in order, the
    // integer sum and the bitwise ones do not.
    let src = root().join("tests/programs/reductions_found.c");
    let dir = scratch("program-reductions_found-exact");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--reductions", "exact", "--target", "opencl", "-o"])
            .arg(dir.join("p_host.c"))
            .arg(&src),
        "pencilc -v --reductions exact",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("`s` accumulates"), "{}", log);
    // A `double` minimum written with `?:` depends on the order where NaNs
    // or signed zeros meet (`minmax_nan.c`): in order in exact mode.
    assert!(!log.contains("`lo` accumulates"), "{}", log);
    assert!(log.contains("`parity` accumulates"), "{}", log);
    assert!(!log.contains("`d` accumulates"), "{}", log);
}

/// Accumulations that C converts back to their variable's type at each
/// step (a red-team case of issue 31: `int s; s += x[i]` with `double x`
/// printed -1931 on the device, -19 on the host, -7 sequentially; the
/// integer reduction took the terms' sum before truncating it) stay in
/// order; exact conversions (`unsigned` of `long` terms, `double` of
/// `float`s) still run as reductions. Every target and version.
#[test]
fn accumulations_through_conversions_keep_cs_result() {
    check("reductions_converted");
    check_cuda_emulated("reductions_converted");
    check_openmp("reductions_converted");
    let log = verbose_log("reductions_converted");
    for var in ["s", "p", "l", "f", "t"] {
        assert!(
            !log.contains(&format!("`{}` accumulates", var)),
            "{}\n{}",
            var,
            log
        );
    }
    assert!(log.contains("`u` accumulates (add)"), "{}", log);
    assert!(log.contains("`d` accumulates (add)"), "{}", log);
}

/// Accumulations under conditions on the data (issue 31: `if (v[i] % 3
/// == 0) c += v[i]` stayed a sequential loop): the updates of one scalar
/// in the branches of `if`s run as a reduction where no condition reads
/// it; a condition or a value that reads it, two operators, two
/// accumulators or another write beside the update keep the order.
#[test]
fn accumulations_under_data_conditions_run_as_reductions() {
    check("reductions_guarded");
    check_cuda_emulated("reductions_guarded");
    check_openmp("reductions_guarded");
    let log = verbose_log("reductions_guarded");
    for (line, var, op) in [
        (21, "c", "add"),
        (24, "t", "add"),
        (30, "m", "min"),
        (33, "k", "add"),
        (39, "u", "add"),
    ] {
        let note = format!(
            "line {}: `{}` accumulates ({}) over loop `i`",
            line, var, op
        );
        assert!(log.contains(&note), "{}\n{}", note, log);
    }
    for var in ["a", "b", "h", "p", "q", "r"] {
        assert!(
            !log.contains(&format!("`{}` accumulates", var)),
            "{}\n{}",
            var,
            log
        );
    }
}

/// Floating-point minima and maxima written with `?:` (issue 31: with a
/// NaN the device printed 0 where the sequential program prints 5, and
/// `0` for `-0`): reordered only by default, with `-v` saying so; with
/// `--reductions exact` every version prints the sequential results.
/// `fmin`/`fmax` ignore NaNs in any order, but the sign of a zero result
/// is their first argument's (glibc): reordered by default, with `-v`
/// saying so, in order with `--reductions exact` (a red-team round found
/// `fmax` over `-0.0` and `+0.0` in lanes giving `+0` for `-0`).
#[test]
fn conditional_floating_point_minima_reorder_only_by_default() {
    check_with("minmax_nan", "-exact", &["--reductions", "exact"]);
    let log = verbose_log("minmax_nan");
    for var in ["m", "M", "zm", "zM"] {
        assert!(
            log.contains(&format!(
                "`{}` accumulates ({}) over loop `i`: a reduction, reordered (floating point `?:`",
                var,
                if var.ends_with('m') { "min" } else { "max" }
            )),
            "{}\n{}",
            var,
            log
        );
    }
    let dir = scratch("program-minmax_nan-exact-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--reductions", "exact", "--target", "opencl", "-o"])
            .arg(dir.join("p_host.c"))
            .arg(root().join("tests/programs/minmax_nan.c")),
        "pencilc -v --reductions exact",
    );
    let exact = String::from_utf8_lossy(&out.stderr);
    for var in ["m", "fm", "fM"] {
        assert!(
            !exact.contains(&format!("`{}` accumulates", var)),
            "{}",
            exact
        );
    }
    for (var, op) in [("fm", "min"), ("fM", "max")] {
        assert!(
            log.contains(&format!(
                "`{}` accumulates ({}) over loop `i`: a reduction, reordered (floating point `fmin`/`fmax`: a zero result may have the other sign)",
                var, op
            )),
            "{}\n{}",
            var,
            log
        );
    }
}

/// `register` scalars that a region reads and writes (a fuzz case of
/// issue 32: the device versions took their addresses for the copies,
/// which C forbids, and the host file did not build): the copies go
/// through pencilc's own locals, on OpenCL and emulated CUDA.
#[test]
fn register_scalars_are_copied_through_locals() {
    check("register_scalars");
    check_cuda_emulated("register_scalars");
    let host = std::fs::read_to_string(root().join("target/e2e/program-register_scalars/p_host.c"))
        .unwrap();
    assert!(host.contains("&pencilc_host_s"), "{}", host);
}

/// A region whose code nests deeper than kernel compilers accept (a fuzz
/// case of issue 32: 2,000 nested `if`s made a kernel that clang's OpenCL
/// front end refuses, "bracket nesting level exceeded maximum of 256")
/// keeps the original code, with a warning; 60 nested `if`s still run on
/// the device, and their kernel builds (`check_source` builds every kernel
/// with a strict OpenCL front end).
#[test]
fn nesting_beyond_kernel_compilers_keeps_the_original_code() {
    let program = |depth: usize| {
        let mut body = String::from("B[i] += A[i];");
        for k in 0..depth {
            body = format!("if (A[i] > {}.0 - {}) {{ {} }}", k % 7, k, body);
        }
        format!(
            "#include <stdio.h>\n#define N 64\nstatic void kernel(int n, double A[N], double B[N]) {{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) {{\n    {}\n  }}\n#pragma endscop\n}}\nint main(void) {{\n  static double A[N], B[N];\n  for (int i = 0; i < N; i++) A[i] = i % 9;\n  kernel(N - 3, A, B);\n  double s = 0;\n  for (int i = 0; i < N; i++) s += B[i] * (i + 1);\n  printf(\"%g\\n\", s);\n  return 0;\n}}\n",
            body
        )
    };
    for (depth, on_device) in [(60, true), (400, false)] {
        let dir = scratch(&format!("program-nesting-{}", depth));
        let src = dir.join("nested.c");
        std::fs::write(&src, program(depth)).unwrap();
        let warnings = check_source(&src, &dir, &[]);
        let kernels = std::fs::read_to_string(dir.join("p_kernel.cl")).unwrap();
        assert_eq!(kernels.contains("__kernel"), on_device, "{}", warnings);
        assert_eq!(
            warnings.contains("nests brackets"),
            !on_device,
            "{}",
            warnings
        );
    }
}

/// A program that includes no header builds on every target: the C
/// target's entry check measures arrays in `size_t`, which its prelude
/// now declares (issue 33: 9 of 18 small programs did not compile).
#[test]
fn a_program_without_headers_builds_on_every_target() {
    check("no_includes");
}

/// A program defining names the C library declares (`select`, `index`,
/// `random`, `time`; issue 33: `select` clashed with the host file's own
/// headers) builds and runs on every target: those names are others
/// while the prelude's headers are read.
#[test]
fn names_the_c_library_declares_stay_the_programs() {
    check("libc_names");
    check_cuda_emulated("libc_names");
}

/// pet's and PENCIL's builtins called without pencil.h (issue 33):
/// `__pencil_assume`, `__pencil_kill`, `min`, `max`, `imin`, `imax`,
/// `floord`, `ceild`, `intCeil`, `intMod` (a remainder from 0, affine
/// for a constant divisor). With the program's own definitions (for its build,
/// under `#ifndef __PENCIL__`), every version on every target prints the
/// sequential result, and `floord`/`ceild` in loop bounds are affine (all
/// three nests parallel). Without any definition (the block removed), the
/// host files pencilc writes define them: they build with
/// `-Wall -Werror=implicit-function-declaration` and print the same.
#[test]
fn pet_builtins_are_known_without_the_header() {
    let src = root().join("tests/programs/pet_builtins.c");
    let dir = scratch("program-pet_builtins");
    let report = check_source(&src, &dir, &["-v"]);
    assert!(report.contains("parallel dims [1, 1, 2]"), "{}", report);
    check_cuda_emulated("pet_builtins");
    let want = run(&mut Command::new(dir.join("seq")), "sequential program").stdout;
    // The same program with no definition of the builtins at all.
    let text = std::fs::read_to_string(&src).unwrap();
    let (head, rest) = text.split_once("#ifndef __PENCIL__").unwrap();
    let (_, tail) = rest.split_once("#endif").unwrap();
    let bare_dir = scratch("program-pet_builtins-bare");
    let bare = bare_dir.join("bare.c");
    std::fs::write(&bare, format!("{}{}", head, tail)).unwrap();
    let strict = ["-O2", "-Wall", "-Werror=implicit-function-declaration"];
    // The last: a region that keeps its own code (here every one, given
    // no time) needs the definitions as much.
    for (target, libs, extra) in [
        ("c", vec!["-lm"], vec![]),
        ("opencl", vec!["-fopenmp", "-lOpenCL", "-lm"], vec![]),
        ("c", vec!["-lm"], vec!["--schedule-timeout", "0.001"]),
    ] {
        let host = bare_dir.join(format!("{}{}_host.c", target, extra.len()));
        run(
            Command::new(pencilc())
                .args(["--target", target])
                .args(&extra)
                .arg("-o")
                .arg(&host)
                .arg(&bare),
            "pencilc",
        );
        let exe = bare_dir.join(format!("par-{}{}", target, extra.len()));
        run(
            Command::new("cc")
                .args(strict)
                .arg(&host)
                .args(&libs)
                .arg("-o")
                .arg(&exe),
            "cc (generated, strict)",
        );
        let versions: &[&str] = if target == "opencl" {
            &["device", "host", "seq"]
        } else {
            &["device"]
        };
        for v in versions {
            let got = device_run(&exe, &[("PENCILC_RUN", v)], "bare program");
            assert_eq!(
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&want),
                "{} PENCILC_RUN={}",
                target,
                v
            );
        }
    }
    let host = bare_dir.join("cuda_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "cuda", "-o"])
            .arg(&host)
            .arg(&bare),
        "pencilc --target cuda",
    );
    let exe = bare_dir.join("par-cuda-emulated");
    build_emulated_cuda(
        &host,
        &bare_dir.join("cuda_kernel.cu"),
        &["-Werror=implicit-function-declaration".to_string()],
        &[],
        &exe,
    );
    assert_every_version_prints(&exe, &want, "bare pet_builtins");
}

/// Functions of the file that regions call as statements (issue 33): the
/// kernel file gets device copies of them (array parameters as pointers
/// into the flat buffers, 2-d ones linearised), rows of 2-d arrays are
/// passed as the addresses of their first elements, with and without a
/// summary, and a chain through rows stays sequential while independent
/// rows run in parallel. Every version on every target prints the
/// sequential result, on the CPU mapping and on a GPU's (shared memory
/// possible), and with emulated CUDA. A function that reads a global has
/// no device copy: the region keeps the original code, with a warning
/// that says why.
#[test]
fn functions_the_kernels_call_get_device_copies() {
    let src = root().join("tests/programs/called_functions.c");
    let dir = scratch("program-called_functions");
    let report = check_source(&src, &dir, &["-v"]);
    assert!(report.contains("parallel dims [0, 1, 0]"), "{}", report);
    let cl = std::fs::read_to_string(dir.join("p_kernel.cl")).unwrap();
    for f in [
        "void copy(int n, __global double *b, __global const double *a)",
        "void scale_twice(int n, __global double *b)",
        // A parameter's rows may be past `int`: the offset in `long`.
        "s += w[t] * sqrt(d[(long)i * m + (j - 1 + t)] + 1.0);",
        "copy(n, &a[",
        // The summary, under `#ifdef pencil_access`, says `a` is only
        // read: one thread per row of `e`.
        "copy(n, &e[(long) t0 * ",
    ] {
        assert!(cl.contains(f), "{}\n{}", f, cl);
    }
    let gpu = scratch("program-called_functions-gpu");
    check_source_on(&src, &gpu, &["--device", "generic-gpu"], &["opencl"]);
    check_cuda_emulated("called_functions");

    let dir = scratch("program-called-global");
    let src = dir.join("global.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\ndouble g = 3;\nstatic void addg(int n, double b[n]) { for (int i = 0; i < n; i++) b[i] += g; }\nvoid f(int n, double A[static const restrict 4][n]) {\n#pragma scop\n  for (int k = 0; k < 4; k++) addg(n, A[k]);\n#pragma endscop\n}\nint main(void) { static double A[4][100]; for (int k = 0; k < 4; k++) for (int i = 0; i < 100; i++) A[k][i] = i; f(100, A); double s = 0; for (int i = 0; i < 100; i++) s += A[2][i]; printf(\"%f\\n\", s); return 0; }\n",
    )
    .unwrap();
    let warnings = check_source(&src, &dir, &[]);
    assert!(
        warnings.contains("the region calls `addg`, of which pencilc can make no device copy")
            && warnings.contains("--opencl-include-file"),
        "{}",
        warnings
    );
    // A kernel's own array passed to a copied function: OpenCL C has no
    // pointer to private memory for a `__global` parameter.
    let src = dir.join("private.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\nstatic void fill(double t[3], int i) { for (int k = 0; k < 3; k++) t[k] = i + k; }\nvoid f(int n, double A[static const restrict n]) {\n#pragma scop\n  for (int i = 0; i < n; i++) { double t[3]; fill(t, i); A[i] = t[0] + t[1] * t[2]; }\n#pragma endscop\n}\nint main(void) { static double A[100]; f(100, A); double s = 0; for (int i = 0; i < 100; i++) s += A[i]; printf(\"%f\\n\", s); return 0; }\n",
    )
    .unwrap();
    let warnings = check_source(&src, &dir, &[]);
    assert!(
        warnings.contains("the region passes `t`, a variable of its own code, to `fill`"),
        "{}",
        warnings
    );
}

/// Loop iterators read after their loops inside the region (issue 33):
/// each read is the value C leaves (`scop::final_values`), for steps up
/// and down, of 1 and more, `<`, `<=`, `>`, `>=`, an inner loop's value
/// in the outer loop's body, an unsigned iterator, and loops that run
/// zero, one or many times; every version on every target prints the
/// sequential result.
#[test]
fn iterators_read_after_their_loops_hold_their_final_values() {
    check("iterators_after_loops");
    check_cuda_emulated("iterators_after_loops");
}

/// Structs with array members (issues 31 and 33): `b[i][j].c[k]`, scalar
/// and array members side by side, 2-d array members, a nested struct's
/// array member, literal places and an accumulation into an array member
/// give the sequential result in every version on every target and with
/// emulated CUDA, and the nests over them are parallel.
#[test]
fn struct_array_members_are_accesses() {
    let src = root().join("tests/programs/struct_array_members.c");
    let dir = scratch("program-struct_array_members");
    let report = check_source(&src, &dir, &["-v"]);
    assert!(
        report.contains("parallel dims [2, 2, 2, 1, 1]"),
        "{}",
        report
    );
    check_cuda_emulated("struct_array_members");
}

/// Calls in expressions of functions the file only declares (issue 33):
/// taken as pure functions of their arguments, as pet and PPCG take them,
/// with a warning; every version on every target prints the sequential
/// result. Kernels call them where the user's device code defines them
/// (both nests parallel); without it the OpenCL target keeps the region's
/// original code and says why.
#[test]
fn calls_of_functions_without_a_body_are_taken_as_pure() {
    let src = root().join("tests/programs/assumed_pure.c");
    let dir = scratch("program-assumed_pure");
    let warnings = check_source(&src, &dir, &[]);
    assert!(
        warnings.contains("which has no body in this file, so kernels cannot call it; the region keeps the original code"),
        "{}",
        warnings
    );
    let cl = root().join("tests/programs/assumed_pure.cl");
    let dir = scratch("program-assumed_pure-device");
    let report = check_source_on(
        &src,
        &dir,
        &["-v", "--opencl-include-file", cl.to_str().unwrap()],
        &["c", "opencl"],
    );
    assert!(
        report.contains("`f` has no body or summary in this file: pencilc takes its calls as pure")
            && report.contains("parallel dims [1, 1, 1, 1]"),
        "{}",
        report
    );
    let kernels = std::fs::read_to_string(dir.join("p_kernel.cl")).unwrap();
    assert!(
        kernels.contains("f((") || kernels.contains("f(c"),
        "{}",
        kernels
    );
    // A row of a flat buffer is its first element's address.
    assert!(kernels.contains("rowsum(&R["), "{}", kernels);
}

/// A statement call of a function the file only declares (external
/// inputs of 2026-12-06): without the user's device definition the region
/// keeps the original code and says why (kernels called it and did not
/// build); with it, the kernel calls it and every version prints the
/// sequential result.
#[test]
fn statement_calls_of_declared_functions_need_a_device_definition() {
    let src = root().join("tests/programs/declared_statement_calls.c");
    let dir = scratch("program-declared_statement_calls");
    let warnings = check_source(&src, &dir, &[]);
    assert!(
        warnings.contains("the region calls `bump`, of which pencilc can make no device copy (this file declares it without a body)"),
        "{}",
        warnings
    );
    let cl = root().join("tests/programs/declared_statement_calls.cl");
    let dir = scratch("program-declared_statement_calls-device");
    let report = check_source_on(
        &src,
        &dir,
        &["-v", "--opencl-include-file", cl.to_str().unwrap()],
        &["c", "opencl"],
    );
    assert!(report.contains("1 kernel(s)"), "{}", report);
    let kernels = std::fs::read_to_string(dir.join("p_kernel.cl")).unwrap();
    assert!(kernels.contains("bump(&b["), "{}", kernels);
}

/// A label in a region that no `goto` names (issue 33) is read as the
/// statement it labels, on every target; the original code keeps it.
#[test]
fn labels_no_goto_names_are_ignored() {
    check("labels");
    check_cuda_emulated("labels");
}

/// Index-set splitting (issue 30, `scop::split`): floyd-warshall's
/// shortest paths (also over a C99 array parameter with a compound body)
/// and a Gauss-Jordan step, whose row and column `k` other
/// instances of step `k` read, split into pieces whose inner loops run in
/// parallel, on every GPU mapping that has a GPU model (the CUDA default,
/// OpenCL with `--device generic-gpu`); each version's output is the
/// original's, at sizes 0, 1, 2, 7, 33 and 61. The OpenCL CPU mapping,
/// which has no GPU model to decide with, keeps the statements whole.
#[test]
fn pivot_rows_and_columns_are_split_off() {
    check("split_pivots");
    check_cuda_emulated("split_pivots");
    let src = root().join("tests/programs/split_pivots.c");
    let dir = scratch("program-split_pivots-gpu");
    let warnings = check_source_on(&src, &dir, &["-v", "--device", "generic-gpu"], &["opencl"]);
    assert_eq!(
        warnings.matches("split into 9 pieces").count(),
        3,
        "{}",
        warnings
    );
    let cl = std::fs::read_to_string(dir.join("p_kernel.cl")).unwrap();
    assert!(cl.matches("__kernel").count() >= 15, "{}", cl);
    let cpu = run(
        Command::new(pencilc())
            .args(["--target", "opencl", "-v", "-o"])
            .arg(dir.join("cpu_host.c"))
            .arg(&src),
        "pencilc --target opencl",
    );
    assert!(!String::from_utf8_lossy(&cpu.stderr).contains("split into"));
}

/// Regions run many times with sizes that grow, shrink and repeat (issue
/// 34): device buffers come from a pool (larger than asked, last written
/// by another region) and CUDA's copies through pinned staging buffers in
/// chunks, on fakecuda, whose asynchronous copies happen only when waited
/// for. Every combination of the run-time switches prints what the
/// sequential program prints: OpenCL on PoCL wrapping the user's arrays
/// (zero copy, PoCL's default) or with buffers of its own, pooled or not,
/// staged through pinned buffers in 4 KiB chunks (so that every copy is
/// many chunks and a short last one) or pageable; CUDA staged in 4 KiB
/// chunks or pageable, pooled or not.
#[test]
fn regions_run_many_times_with_pooled_and_staged_buffers() {
    check("pooled_regions");
    let dir = root().join("target/e2e/program-pooled_regions");
    let want = run(&mut Command::new(dir.join("seq")), "sequential program").stdout;
    let want = String::from_utf8_lossy(&want);
    for zero_copy in ["1", "0"] {
        for pool in ["1", "0"] {
            let got = device_run(
                &dir.join("par-opencl"),
                &[
                    ("PENCILC_ZERO_COPY", zero_copy),
                    ("PENCILC_POOL", pool),
                    ("PENCILC_PROFILE", "1"),
                ],
                "OpenCL program",
            );
            assert_eq!(
                String::from_utf8_lossy(&got.stdout),
                want,
                "PENCILC_ZERO_COPY={} PENCILC_POOL={}",
                zero_copy,
                pool
            );
            // A profile line per region execution (10 rounds of 3 regions);
            // wrapped arrays move nothing.
            let log = String::from_utf8_lossy(&got.stderr);
            let p = pencilc::harness::profile::parse(&log).expect("profile lines");
            assert_eq!(p.executions, 30, "{}", log);
            assert_eq!(zero_copy == "1", p.bytes_in == 0, "{}", log);
            assert_eq!(zero_copy == "1", p.bytes_out == 0, "{}", log);
        }
    }
    // Buffers of their own, copied through pinned buffers in 4 KiB chunks
    // or from pageable memory.
    let staged = dir.join("par-opencl-staged");
    run(
        Command::new("cc")
            .args(["-O2", "-DPENCILC_STAGE_CHUNK=4096", "-DPENCILC_STAGE_MIN=1"])
            .arg(dir.join("p_host.c"))
            .args(["-lOpenCL", "-lm", "-o"])
            .arg(&staged),
        "cc (generated)",
    );
    // No pool at all builds and runs; a chunk of no bytes, which would
    // never end a copy, does not build.
    let no_pool = dir.join("par-opencl-no-pool");
    run(
        Command::new("cc")
            .args(["-O2", "-DPENCILC_POOL_SLOTS=0"])
            .arg(dir.join("p_host.c"))
            .args(["-lOpenCL", "-lm", "-o"])
            .arg(&no_pool),
        "cc -DPENCILC_POOL_SLOTS=0 (generated)",
    );
    let got = device_run(
        &no_pool,
        &[("PENCILC_ZERO_COPY", "0")],
        "OpenCL program without a pool",
    );
    assert_eq!(String::from_utf8_lossy(&got.stdout), want);
    let zero_chunk = Command::new("cc")
        .args(["-O2", "-DPENCILC_STAGE_CHUNK=0", "-c", "-o"])
        .arg(dir.join("zero-chunk.o"))
        .arg(dir.join("p_host.c"))
        .output()
        .unwrap();
    assert!(!zero_chunk.status.success());
    for copy in ["staged", "pageable"] {
        let got = device_run(
            &staged,
            &[("PENCILC_ZERO_COPY", "0"), ("PENCILC_OPENCL_COPY", copy)],
            "OpenCL program",
        );
        assert_eq!(
            String::from_utf8_lossy(&got.stdout),
            want,
            "PENCILC_OPENCL_COPY={}",
            copy
        );
    }
    let host = dir.join("cuda_host.c");
    run(
        Command::new(pencilc())
            .args(["--target", "cuda", "-o"])
            .arg(&host)
            .arg(root().join("tests/programs/pooled_regions.c")),
        "pencilc --target cuda",
    );
    let exe = dir.join("par-cuda-staged");
    let flags = [
        "-DPENCILC_STAGE_CHUNK=4096".to_string(),
        "-DPENCILC_STAGE_MIN=1".to_string(),
    ];
    build_emulated_cuda(&host, &dir.join("cuda_kernel.cu"), &flags, &[], &exe);
    for copy in ["staged", "pageable", "staged-out", "auto"] {
        for pool in ["1", "0"] {
            let got = run(
                Command::new(&exe)
                    .env("PENCILC_RUN", "device")
                    .env("PENCILC_CUDA_COPY", copy)
                    .env("PENCILC_POOL", pool)
                    .env("PENCILC_PROFILE", "1")
                    .env("FAKECUDA_COUNT", "1"),
                "emulated CUDA program",
            );
            // The two staging buffers are pinned once where copies are
            // staged; by default (`auto`) only once the regions have asked
            // for 64 MiB of copies, which these 16 MB never reach.
            let pinned = if copy == "staged" || copy == "staged-out" {
                2
            } else {
                0
            };
            let err = String::from_utf8_lossy(&got.stderr);
            assert!(
                err.contains(&format!(", {} cudaHostAlloc", pinned)),
                "PENCILC_CUDA_COPY={}: {}",
                copy,
                err
            );
            // x in and y out in every round: (n - 3) doubles each way.
            let p = pencilc::harness::profile::parse(&String::from_utf8_lossy(&got.stderr))
                .expect("profile lines");
            assert_eq!(p.executions, 30);
            assert!(
                p.bytes_in > 8 * 1_000_000 && p.bytes_out > 8 * 1_000_000,
                "{:?}",
                p
            );
            assert_eq!(
                String::from_utf8_lossy(&got.stdout),
                want,
                "PENCILC_CUDA_COPY={} PENCILC_POOL={}",
                copy,
                pool
            );
        }
    }
    // By default the copies are pageable until the regions have asked for
    // PENCILC_STAGE_PIN_MIN bytes of copies (4 MiB here: in the third
    // round), staged from then on.
    let exe = dir.join("par-cuda-staged-later");
    let later = [
        "-DPENCILC_STAGE_CHUNK=4096".to_string(),
        "-DPENCILC_STAGE_MIN=1".to_string(),
        "-DPENCILC_STAGE_PIN_MIN=4194304".to_string(),
    ];
    build_emulated_cuda(&host, &dir.join("cuda_kernel.cu"), &later, &[], &exe);
    for (copy, pinned) in [(None, 2), (Some("pageable"), 0)] {
        let mut cmd = Command::new(&exe);
        cmd.env("PENCILC_RUN", "device").env("FAKECUDA_COUNT", "1");
        if let Some(c) = copy {
            cmd.env("PENCILC_CUDA_COPY", c);
        }
        let got = run(&mut cmd, "emulated CUDA program, staged from 4 MiB");
        assert_eq!(String::from_utf8_lossy(&got.stdout), want, "{:?}", copy);
        let err = String::from_utf8_lossy(&got.stderr);
        assert!(
            err.contains(&format!(", {} cudaHostAlloc", pinned)),
            "{:?}: {}",
            copy,
            err
        );
    }
    // The host's side of each chunk split over three OpenMP threads (a
    // 4 KiB chunk in parts of 1365, 1365 and 1366 bytes), both ways.
    let split = [
        "-fopenmp".to_string(),
        "-DPENCILC_STAGE_CHUNK=4096".to_string(),
        "-DPENCILC_STAGE_MIN=1".to_string(),
        "-DPENCILC_STAGE_SPLIT_MIN=1".to_string(),
    ];
    let exe = dir.join("par-cuda-staged-split");
    build_emulated_cuda(&host, &dir.join("cuda_kernel.cu"), &split, &[], &exe);
    let got = run(
        Command::new(&exe)
            .env("PENCILC_RUN", "device")
            .env("PENCILC_CUDA_COPY", "staged")
            .env("OMP_NUM_THREADS", "3")
            .env("OMP_WAIT_POLICY", "passive"),
        "emulated CUDA program, split staging",
    );
    assert_eq!(String::from_utf8_lossy(&got.stdout), want);
    let staged_split = dir.join("par-opencl-staged-split");
    run(
        Command::new("cc")
            .arg("-O2")
            .args(&split)
            .arg(dir.join("p_host.c"))
            .args(["-lOpenCL", "-lm", "-o"])
            .arg(&staged_split),
        "cc -fopenmp (generated)",
    );
    let got = device_run(
        &staged_split,
        &[
            ("PENCILC_ZERO_COPY", "0"),
            ("OMP_NUM_THREADS", "3"),
            ("OMP_WAIT_POLICY", "passive"),
        ],
        "OpenCL program, split staging",
    );
    assert_eq!(String::from_utf8_lossy(&got.stdout), want);
}

/// Runs an OpenCL program `exe` on PoCL with its device version forced,
/// its kernels built without contraction, and `env` besides.
fn device_run(exe: &std::path::Path, env: &[(&str, &str)], what: &str) -> std::process::Output {
    let mut cmd = Command::new(exe);
    cmd.env("PENCILC_OPENCL_DEVICE", "cpu")
        .env("PENCILC_OPENCL_OPTIONS", "-DPENCILC_NO_FP_CONTRACT")
        .env("PENCILC_RUN", "device")
        .envs(env.iter().copied());
    run(&mut cmd, what)
}

/// Steps that open with scalar work run it one step early inside the
/// previous step's parallel kernel (`sched::pluto::rotate`): trisolv,
/// a back substitution counting down, cholesky, a step reading one
/// thread's result, steps of two, durbin's scalars; all versions print
/// the sequential results. Only the step that reads two threads' results
/// (`two_threads`), the scalar every thread of the step before reads
/// (`war`) and durbin's scalars after its sum keep kernels of one thread.
#[test]
fn scalar_work_opening_a_step_runs_in_the_previous_steps_kernel() {
    check("rotate_steps");
    check_with("rotate_steps", "-h100", &["--device", "nvidia-h100"]);
    check_cuda_emulated("rotate_steps");
    check_openmp("rotate_steps");
    let dir = scratch("program-rotate_steps-cuda");
    run(
        Command::new(pencilc())
            .args(["--target", "cuda", "-o"])
            .arg(dir.join("p.c"))
            .arg(root().join("tests/programs/rotate_steps.c")),
        "pencilc --target cuda",
    );
    let cu = std::fs::read_to_string(dir.join("p_kernel.cu")).unwrap();
    // Each kernel's signature, with whether its launcher starts blocks of
    // one thread.
    let mut one_thread = Vec::new();
    for chunk in cu.split("__global__ void ").skip(1) {
        let signature = chunk.lines().next().unwrap_or("").to_string();
        if chunk.contains("pencilc_block(1);") && !signature.contains("_combine") {
            one_thread.push(signature);
        }
    }
    let allowed = |sig: &String| {
        (sig.contains("*__restrict__ B") && sig.contains("*__restrict__ s"))
            || sig.contains("*__restrict__ t")
            || sig.contains("*__restrict__ beta")
    };
    assert!(
        !one_thread.is_empty() && one_thread.iter().all(allowed),
        "{:#?}\n{}",
        one_thread,
        cu
    );
}

/// A variable that an array's declared size reads, changed in the region
/// (fuzz case 505177506): the kernels read `m` as a buffer where the
/// subscripts needed the declared size, and did not build. The region
/// keeps the user's code, with a warning that names the variable; every
/// target and version prints the sequential results.
#[test]
fn regions_changing_a_declared_size_keep_the_users_code() {
    check("extent_changes");
    check_cuda_emulated("extent_changes");
    check_openmp("extent_changes");
    let log = verbose_log("extent_changes");
    assert!(
        log.contains("the region changes `m`, which `A`'s declared size reads"),
        "{}",
        log
    );
    assert!(log.contains("0 kernel(s)"), "{}", log);
}

/// Iterators whose type wraps around (pet's unsigned2 and tobi1, E0117
/// before): their loops run as written, with a warning; the loop around
/// one stays parallel; the value after such a loop is not the formula's,
/// and the elements a wrapping loop kept as one statement reaches are the
/// whole type's. A loop that wraps only at some values of the parameters
/// (`bounded`'s, for n > 255) is parallel, behind a check on entry. Every
/// target and version prints the sequential results.
#[test]
fn iterators_that_wrap_around_run_their_loops_as_written() {
    check("wrapping_iterators");
    check_cuda_emulated("wrapping_iterators");
    check_openmp("wrapping_iterators");
    let log = verbose_log("wrapping_iterators");
    assert_eq!(
        log.matches("may wrap around its type").count(),
        4,
        "{}",
        log
    );
    assert!(
        log.contains("loop iterator `k` (`unsigned char`): the model keeps it inside its type where n <= 255, checked at run time"),
        "{}",
        log
    );
    assert!(log.contains("parallel dims [0, 0, 1, 1, 0, 0]"), "{}", log);
}

/// Loop bounds far from zero (red team of 2026-12-06): isl's tile counts
/// reduce their numerators modulo the tile (`floord(hi + 31 * lo + 31,
/// 32)`), which overflowed `int` from `lo` = 69,273,667 and `long` near
/// time stamps in nanoseconds: the C target printed zeros and PoCL
/// aborted. Such numerators compute in `long`, and 64-bit parameters
/// beyond what that holds run the original code; every target and
/// version prints the sequential results, and no rung fails on a
/// constant near 2^63.
#[test]
fn bounds_far_from_zero_do_not_overflow() {
    check_everywhere("large_offsets");
    let log = verbose_log("large_offsets");
    assert!(!log.contains("internal error"), "{}", log);
    assert!(log.contains("3 region(s), 3 kernel(s)"), "{}", log);
    let host = std::fs::read_to_string(root().join("target/e2e/program-large_offsets-v/p_host.c"))
        .unwrap();
    assert!(host.contains("31 * (long)(lo)"), "{}", host);
}

/// `size_t` and `unsigned` loops bounded by `int` values (code
/// generators' C): the model of each is exact only where the bounds are
/// not negative (C converts them to huge values) or do not wrap, and
/// they were E0117, one statement on one thread. The region now checks
/// those values on entry and is parallel; each is called on both sides
/// of its check, and every target and version prints the sequential
/// results.
#[test]
fn unsigned_loops_bounded_by_signed_values_are_checked_on_entry() {
    check_everywhere("size_t_loops");
    let log = verbose_log("size_t_loops");
    assert!(!log.contains("E0117") && !log.contains("E0113"), "{}", log);
    assert!(
        log.contains("loop iterator `i` (`size_t`): the model keeps it inside its type where n >= 0, checked at run time"),
        "{}",
        log
    );
    assert!(log.contains("parallel dims [1, 1, 1, 1]"), "{}", log);
}

/// Differential seed 67 (case 269): isl's AST generator printed host code
/// that runs S_4[2, 0] before S_2[1, 2], which reads what it writes,
/// against the tree (`schedule_property::host_version_of_seed_67_case_269
/// _is_right`). The region falls back to isl's schedule; every version,
/// on every target, prints what the original prints.
#[test]
fn statements_isl_would_print_out_of_order() {
    check("isl_statement_order");
}

/// The read back of generated code (`ast::executed`) checks the
/// dependences between instances the region runs: the dependence
/// analysis also relates instances at parameter values where a domain is
/// empty (`(int)(n - 1) + 3` overflowing at n = 2^31), and reading those
/// as unordered failed every rung of these programs, down to the
/// original code.
#[test]
fn wrapping_bounds_keep_their_schedule_when_read_back() {
    for name in ["unsigned_bounds", "integer_types"] {
        let src = root().join("tests/programs").join(format!("{}.c", name));
        let dir = scratch(&format!("program-read-back-{}", name));
        let warnings = check_source_on(&src, &dir, &[], &["openmp"]);
        assert!(
            !warnings.contains("contradicts its schedule"),
            "{}: {}",
            name,
            warnings
        );
    }
}

/// A device version whose host code runs its two launches in the wrong
/// order (`--debug-fault misorder:full` swaps them, as isl's AST
/// generator could print them) is found by the read back of the launches
/// (`ast::executed::check_launches`): the rung falls back, and every
/// version's output stays right. Without the check, the device version
/// reads `A` before it is written.
#[test]
fn launches_printed_out_of_order_are_found() {
    let src = root().join("tests/programs/launch_order.c");
    let dir = scratch("program-launch-order");
    let warnings = check_source_on(
        &src,
        &dir,
        &["--debug-fault", "misorder:full"],
        &["c", "opencl"],
    );
    assert!(
        warnings.contains("contradicts its schedule (the order of the launches)")
            && warnings.contains("S_0[i] -> S_1[i' = -1 + n - i]"),
        "{}",
        warnings
    );
}

/// A loop's double start converted to its int iterator, the iterator read
/// after the loop: its final value uses the converted start (fuzz case
/// 35004201: `B[i][alpha + 1 < m ? m : alpha + 1]`, a double subscript,
/// did not compile).
#[test]
fn final_values_of_loops_with_converted_starts() {
    check("converted_loop_start");
}

/// A call's argument cast to the pointer type it already has (pet's
/// call7, `foo((int *) &s)` of an `int s`, was E0104): the cast is
/// dropped, and the region is the one written without it. Every target
/// and version prints the sequential results.
#[test]
fn pointer_casts_that_change_no_type_are_dropped() {
    check("pointer_casts");
    check_cuda_emulated("pointer_casts");
    check_openmp("pointer_casts");
    let log = verbose_log("pointer_casts");
    assert!(!log.contains("error"), "{}", log);
    // The casts' regions are compiled, not kept as the user's code; the
    // rows' loop is parallel, since `axpy` only reads through `x`.
    assert!(
        log.contains("2 region(s), 3 kernel(s), parallel dims [0, 1, 2]"),
        "{}",
        log
    );
}

/// Calls that reach past their arguments: a callee indexing past the
/// element whose address it gets (`p[1]` of `&A[i][j]`) reaches the rest
/// of its row, so the loop over `j` is sequential (it ran on threads, a
/// race on a GPU); callees that use variables of the file, keep a
/// `static` local or print keep the region as the user's code (their
/// loops ran as OpenMP loops).
#[test]
fn calls_reaching_past_their_arguments_are_ordered() {
    check("call_effects");
    check_cuda_emulated("call_effects");
    check_openmp("call_effects");
    let log = verbose_log("call_effects");
    assert!(
        log.contains(
            "`twice` may have effects beyond its arguments (it calls `count`, which may too)"
        ),
        "{}",
        log
    );
    assert!(
        log.contains("2 region(s), 2 kernel(s), parallel dims [1, 1]"),
        "{}",
        log
    );
    let omp =
        std::fs::read_to_string(root().join("target/e2e/program-call_effects-omp/omp.c")).unwrap();
    // `neighbours`' two loops only; `effects` is the user's code.
    assert_eq!(
        omp.matches("#pragma omp parallel for").count(),
        2,
        "{}",
        omp
    );
    assert!(!omp.contains("region of effects"), "{}", omp);
}

/// Shared tiles chosen per kernel by the GPU model across the regions of
/// one file (kernels are numbered across it): the matrix product's tiles
/// of `A` and `B` serve 32 and 16 threads and stay; the mat-vec kernel of
/// the second region (kernel 1) reads each element of its row tile once
/// and keeps `P` and `x` in global memory. Right on PoCL (no model: its
/// description has none), on the C target and as emulated CUDA with the
/// model's choice, in every version.
#[test]
fn shared_tiles_by_the_gpu_model_in_a_file_of_two_regions() {
    check("tiles_by_model");
    // The subject is the tiles: the model would rather split the
    // mat-vecs' accumulations at these sizes (`scop::partials`).
    let whole = ["--split-reductions", "never"];
    check_cuda_emulated_with("tiles_by_model", &whole, "cuda");
    let cu =
        std::fs::read_to_string(root().join("target/e2e/program-tiles_by_model/cuda_kernel.cu"))
            .unwrap();
    let body = |k: &str| {
        let at = cu.find(&format!("__global__ void {}(", k)).unwrap();
        let end = cu[at..].find("\n}\n").unwrap();
        cu[at..at + end].to_string()
    };
    assert!(
        body("kernel0").contains("__shared__ double shared_A[32][32];"),
        "{}",
        cu
    );
    assert!(!body("kernel1").contains("__shared__"), "{}", cu);
    let src = root().join("tests/programs/tiles_by_model.c");
    let dir = scratch("program-tiles_by_model-cuda-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--target", "cuda"])
            .args(whole)
            .arg("-o")
            .arg(dir.join("p_host.c"))
            .arg(&src),
        "pencilc -v --target cuda",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("line 25: kernel[1]: groups in global memory, not shared tiles"),
        "{}",
        log
    );
    assert!(
        !log.contains("kernel[0]: groups in global memory"),
        "{}",
        log
    );
    // OpenCL for the CPU keeps its tiles: no model there.
    assert!(
        verbose_log("tiles_by_model").contains("kernel[1] P: shared, tile 32x32"),
        "{}",
        verbose_log("tiles_by_model")
    );
}

/// Atomic double sums (an array too large for a private copy per thread)
/// use the hardware's atomic add where the GPU has one (compute
/// capability 6.0 on), a compare-and-swap loop before: right on PoCL and
/// as emulated CUDA.
#[test]
fn double_atomic_sums_use_the_hardware_add() {
    check("double_histogram");
    check_cuda_emulated("double_histogram");
    let dir = root().join("target/e2e/program-double_histogram");
    let cu = std::fs::read_to_string(dir.join("cuda_kernel.cu")).unwrap();
    assert!(
        cu.contains("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600\nPENCILC_CAS(pencilc_atomic_add_double")
            && cu.contains("#else\nPENCILC_DEV void pencilc_atomic_add_double(double *p, double v) { atomicAdd(p, v); }"),
        "{}",
        cu
    );
}

/// Reductions whose every update in a launch accumulates into one element
/// of an array whose other elements they read (ludcmp's back
/// substitution): a tree per launch and a combining kernel that adds into
/// that element, not atomic updates of one address from every thread;
/// double, long and `fmin` reductions right on PoCL with the CPU's and the
/// H100's mapping and as emulated CUDA.
#[test]
fn reductions_into_one_element_per_launch_combine_in_a_tree() {
    check("one_element_reductions");
    check_with(
        "one_element_reductions",
        "-h100",
        &["--device", "nvidia-h100"],
    );
    check_cuda_emulated("one_element_reductions");
    let dir = scratch("program-one_element_reductions-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--target", "cuda", "--device", "nvidia-h100", "-o"])
            .arg(dir.join("p.c"))
            .arg(root().join("tests/programs/one_element_reductions.c")),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    for (k, v, op) in [(0, "x", "add"), (1, "c", "add"), (1, "d", "min")] {
        let note = format!(
            "kernel[{}] {}: {} reduction into one element per launch ({}[-h0])",
            k, v, op, v
        );
        assert!(log.contains(&note), "{}\n{}", note, log);
    }
    assert!(!log.contains("atomic"), "{}", log);
    let kernels = std::fs::read_to_string(dir.join("p_kernel.cu")).unwrap();
    assert!(
        kernels.contains("x[pencilc_at_x + pencilc_e]"),
        "{}",
        kernels
    );
}

/// A statement of one thread after a reduction that reads an array the
/// reduction's launch writes (`tests/programs/epilogue_reads_launch.c`):
/// OpenCL runs it in the combining kernel, after the launch; CUDA, whose
/// combining code runs in the launch's last block (where plain loads need
/// not see other blocks' writes), launches it on its own. Right on PoCL
/// and on emulated CUDA with the blocks in either order.
#[test]
fn epilogues_that_read_what_the_launch_wrote_stay_out_of_its_last_block() {
    check("epilogue_reads_launch");
    check_cuda_emulated("epilogue_reads_launch");
    cuda_blocks_reversed("epilogue_reads_launch", "", &[]);
    let verbose = |target: &str| {
        let dir = scratch(&format!("program-epilogue_reads_launch-v-{}", target));
        let out = run(
            Command::new(pencilc())
                .args(["-v", "--target", target, "-o"])
                .arg(dir.join("p.c"))
                .arg(root().join("tests/programs/epilogue_reads_launch.c")),
            "pencilc -v",
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let note = "kernel[1] runs in kernel0_combine on its work-item 0";
    let opencl = verbose("opencl");
    assert!(opencl.contains(note), "{}", opencl);
    let cuda = verbose("cuda");
    assert!(cuda.contains("kernel[0] s: add reduction"), "{}", cuda);
    assert!(!cuda.contains(note), "{}", cuda);
}

/// One-element reductions into arrays sized at run time
/// (`tests/programs/vla_one_element.c`): a VLA parameter, a row of a 2-d
/// VLA and a pointer whose device buffer starts at an offset; the host
/// places the element with the extents and the offset. They combine in a
/// tree (before, atomic updates of one address, which the GPU model did
/// not price); right on PoCL with the CPU's and the H100's mapping and on
/// emulated CUDA with the blocks in either order.
#[test]
fn one_element_reductions_into_arrays_sized_at_run_time() {
    check("vla_one_element");
    check_with("vla_one_element", "-h100", &["--device", "nvidia-h100"]);
    check_cuda_emulated("vla_one_element");
    let cu = cuda_blocks_reversed("vla_one_element", "", &[]);
    assert!(cu.contains("x[pencilc_at_x + pencilc_e]"), "{}", cu);
    assert!(cu.contains("X[pencilc_at_X + pencilc_e]"), "{}", cu);
    let dir = scratch("program-vla_one_element-v");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--target", "cuda", "--device", "nvidia-h100", "-o"])
            .arg(dir.join("p.c"))
            .arg(root().join("tests/programs/vla_one_element.c")),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    for (k, element) in [(0, "x[-h0]"), (2, "X[1][-h0]"), (4, "x[off - h0]")] {
        let note = format!(
            "kernel[{}] {}: add reduction into one element per launch ({})",
            k,
            &element[..1],
            element
        );
        assert!(log.contains(&note), "{}\n{}", note, log);
    }
    assert!(!log.contains("atomic"), "{}", log);
    let host = std::fs::read_to_string(dir.join("p.c")).unwrap();
    assert!(host.contains("- pencilc_lo_x)"), "{}", host);
}

/// Builds tests/programs/`name`.c for CUDA (the H100's mapping, pencilc
/// run with `env`) and runs its device version emulated with the thread
/// blocks in reverse order (`FAKECUDA_BLOCK_ORDER`), against the
/// sequential program. Returns the kernel file.
fn cuda_blocks_reversed(name: &str, tag: &str, env: &[(&str, &str)]) -> String {
    let src = root().join("tests/programs").join(format!("{}.c", name));
    let dir = scratch(&format!("program-{}-reversed{}", name, tag));
    let seq = build_sequential(&src, &dir);
    let want = run(&mut Command::new(&seq), "sequential program").stdout;
    let host = dir.join("p.c");
    let mut cmd = Command::new(pencilc());
    cmd.args(["--target", "cuda", "--device", "nvidia-h100", "-o"])
        .arg(&host)
        .arg(&src);
    for (k, v) in env {
        cmd.env(k, v);
    }
    run(&mut cmd, "pencilc --target cuda");
    let headers = root().join("pencil-headers").display().to_string();
    let exe = dir.join("par-cuda-emulated");
    build_emulated_cuda(
        &host,
        &dir.join("p_kernel.cu"),
        &["-I".to_string(), headers],
        &[],
        &exe,
    );
    let got = run(
        Command::new(&exe)
            .env("PENCILC_RUN", "device")
            .env("FAKECUDA_BLOCK_ORDER", "reverse"),
        "emulated CUDA program, blocks reversed",
    );
    assert_eq!(
        String::from_utf8_lossy(&got.stdout),
        String::from_utf8_lossy(&want),
        "{}{} on emulated CUDA, blocks in reverse order",
        name,
        tag
    );
    std::fs::read_to_string(dir.join("p_kernel.cu")).unwrap()
}

/// CUDA reductions combine their partials in the launch's last block to
/// finish (a thread fence, a count of the blocks done, the combining code
/// as a device function), not in a combining kernel launched after it:
/// one launch per reduction step fewer (durbin's 2,000 at LARGE). Right
/// whichever block finishes last (emulated with the blocks in reverse
/// order): scalar sums with the statements after them fused in, sums
/// under guards, products and maxima, one-element reductions, an array of
/// four sums, and with
/// `PENCILC_COMBINE=kernel` the combining kernels as before.
#[test]
fn reductions_combine_in_the_last_block_of_their_launch() {
    for name in [
        "reduction_epilogue",
        "one_element_reductions",
        "reductions_found",
        "reductions_guarded",
        "pencil_pragmas",
        "rotate_steps",
        "guarded_elements",
    ] {
        let cu = cuda_blocks_reversed(name, "", &[]);
        // Every counter is set back for the next launch.
        let counters: Vec<&str> = cu
            .split("atomicAdd(&")
            .skip(1)
            .filter_map(|c| c.split("[0], 1)").next())
            .filter(|c| c.starts_with("pencilc_done_kernel"))
            .collect();
        assert!(!counters.is_empty(), "{}", cu);
        for c in &counters {
            assert!(cu.contains(&format!("{}[0] = 0;", c)), "{}: {}", c, cu);
        }
        assert!(cu.contains("__threadfence();"), "{}", cu);
        // One counter per region execution, zero where it is allocated
        // (regions of several host threads may run a kernel at once).
        let host = std::fs::read_to_string(
            root()
                .join("target/e2e")
                .join(format!("program-{}-reversed", name))
                .join("p.c"),
        )
        .unwrap();
        assert_eq!(
            host.matches("cudaMemset(dev_pencilc_done_kernel").count(),
            counters.len(),
            "{}",
            host
        );
        assert!(!cu.contains("_combine<<<"), "{}: {}", name, cu);
        assert!(!cu.contains("_combine_launch("), "{}: {}", name, cu);
        // (Where the model finds two launches per step too many for a
        // short sum, a thread per sum: rotate_steps.)
        let cu = cuda_blocks_reversed(name, "-kernel", &[("PENCILC_COMBINE", "kernel")]);
        assert!(
            cu.contains("_combine<<<") || name == "rotate_steps",
            "{}: {}",
            name,
            cu
        );
        assert!(!cu.contains("pencilc_done_"), "{}: {}", name, cu);
    }
}

/// Wavefronts of points and launches whose tiles start far from tile 0
/// (`tests/programs/wavefronts.c`): in-place Gauss-Seidel sweeps in one,
/// two (also by column) and three dimensions, and triangular updates
/// whose rows start at the pivot, at a stride or at the larger of two
/// bounds, right on PoCL with the CPU's and the H100's mapping and as
/// emulated CUDA; every launch of the H100's CUDA is read back.
#[test]
fn wavefronts_and_launches_from_their_first_tile() {
    check("wavefronts");
    check_with("wavefronts", "-h100", &["--device", "nvidia-h100"]);
    check_cuda_emulated("wavefronts");
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--schedule-timeout", "120", "--target", "cuda", "-o"])
            .arg(scratch("program-wavefronts-v").join("w.c"))
            .arg(root().join("tests/programs/wavefronts.c")),
        "pencilc -v",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        log.matches("the device version's launches are read back: every instance runs once")
            .count(),
        5,
        "{}",
        log
    );
}

/// Arrays of more than `INT_MAX` elements (tests/programs/wide_index.c:
/// 2.15 GB of bytes, of which the program backs only the rows it reads):
/// a kernel's flat subscript `i * m + j` and a delinearised pointer's on
/// the host were computed in `int`, past its range, and read other
/// elements than the user's code (emulated CUDA and the OpenMP host
/// version crashed). Such arrays' subscripts are computed in `long`,
/// where nothing bounds their extents; a bounded array keeps `int`.
#[test]
fn arrays_larger_than_int_indexes_are_indexed_in_long() {
    check("wide_index");
    check_cuda_emulated("wide_index");
    check_openmp("wide_index");
    let dir = root().join("target/e2e/program-wide_index");
    let k = std::fs::read_to_string(dir.join("cuda_kernel.cu")).unwrap();
    assert!(k.contains("A[(long) "), "{}", k);
    assert!(k.contains("p[(long) "), "{}", k);
    // T's extents are constants: 3 x 64 elements, in `int`.
    assert!(!k.contains("T[(long)"), "{}", k);
}

/// Flat subscripts that count back from a row's end
/// (tests/programs/flat_row_ends.c: `p[i * m + m - 2 - j]`) are elements
/// of that row: they were split as row `i + 1`, element `-2 - j`, out of
/// range everywhere, so `p` stayed flat and the region sequential on the
/// host, with a warning that blamed another subscript.
#[test]
fn subscripts_counted_from_a_rows_end_are_delinearised() {
    check("flat_row_ends");
    check_cuda_emulated("flat_row_ends");
    let log = verbose_log("flat_row_ends");
    assert!(log.contains("array p: delinearised as p[*][m]"), "{}", log);
    assert!(!log.contains("warning"), "{}", log);
}

/// Sizes within a tile times the wrap-around grid of `int`'s limits
/// (tests/programs/int_limits.c: loops to `INT_MAX`): the generated loops
/// step past their bounds in `int`, which overflowed, and the OpenCL
/// versions ran for ever. The entry check now runs the original code for
/// such values (`Scop::near_int_limits`), the generated versions for the
/// others.
#[test]
fn sizes_at_ints_limits_run_the_original_code() {
    check("int_limits");
    check_cuda_emulated("int_limits");
    let host =
        std::fs::read_to_string(root().join("target/e2e/program-int_limits/cuda_host.c")).unwrap();
    for guard in ["n <= 2080374783", "m <= 2080374783", "n >= -2080374783"] {
        assert!(host.contains(guard), "no {} in\n{}", guard, host);
    }
}

/// Scalars that a loop assigns only under a condition and never reads
/// (searches for the last or first match, one per row of a nest, a
/// value read from an element the iteration wrote first) are found by a
/// maximum (minimum) of the matching iterations and assigned once after
/// the loop (`scop::last_writes`): before, each such loop ran on one GPU
/// thread. Every version of every target prints the sequential results;
/// the CUDA output keeps loops on one thread only for the two searches
/// the rewrite must leave alone (a value that changes after the `if`
/// reads it, a pointer without a declared extent).
#[test]
fn searches_for_the_last_match_find_it_in_parallel() {
    check("last_matches");
    check_with("last_matches", "-h100", &["--device", "nvidia-h100"]);
    check_with("last_matches", "-exact", &["--reductions", "exact"]);
    check_cuda_emulated("last_matches");
    check_openmp("last_matches");
    let cu = std::fs::read_to_string(root().join("target/e2e/program-last_matches/cuda_kernel.cu"))
        .unwrap();
    let looping = one_thread_loops(&cu);
    let left_alone =
        |sig: &String| sig.contains("*__restrict__ best") || sig.contains("*__restrict__ got");
    assert_eq!(
        looping.iter().filter(|s| left_alone(s)).count(),
        2,
        "{:#?}\n{}",
        looping,
        cu
    );
    assert!(looping.iter().all(left_alone), "{:#?}\n{}", looping, cu);
    // The searches' variables, as the rewrite names them.
    assert!(cu.contains("pencilc_last_0"), "{}", cu);
}

/// Arg-max and arg-min loops (`if (E > m) { m = E; at = i; }`, all four
/// comparisons, counting up and down, ties, `float`, `int` and `double`,
/// one per row of a nest) keep the maximum as a reduction and find the
/// iteration that reached it in a second parallel loop
/// (`scop::last_writes::extremes`): before, each ran on one GPU thread.
/// Every version of every target prints the sequential results, with
/// `--reductions exact` too (where the floating-point maxima stay in
/// order); only the three loops the rewrite must leave alone run on one
/// thread (a value changed after the `if`, a `double` kept in a `float`,
/// an `int` kept in a `short`).
#[test]
fn arg_max_loops_find_their_iteration_in_parallel() {
    check("arg_extremes");
    check_with("arg_extremes", "-h100", &["--device", "nvidia-h100"]);
    check_with("arg_extremes", "-exact", &["--reductions", "exact"]);
    check_cuda_emulated("arg_extremes");
    check_openmp("arg_extremes");
    let cu = std::fs::read_to_string(root().join("target/e2e/program-arg_extremes/cuda_kernel.cu"))
        .unwrap();
    let looping = one_thread_loops(&cu);
    let left_alone = |sig: &String| {
        ["later", "narrow", "small"]
            .iter()
            .any(|v| sig.contains(&format!("*__restrict__ {}", v)))
    };
    for v in ["later", "narrow", "small"] {
        let arg = format!("*__restrict__ {}", v);
        assert!(
            looping.iter().any(|s| s.contains(&arg)),
            "{:#?}\n{}",
            looping,
            cu
        );
    }
    assert!(looping.iter().all(left_alone), "{:#?}\n{}", looping, cu);
    assert!(cu.contains("pencilc_init_"), "{}", cu);
}

/// A search per row (tests/programs/search_rows.c) is compiled three ways
/// and the GPU model picks: as written and rewritten (`scop::last_writes`,
/// `driver::region::with_as_written`), each with a copy of the search's
/// variables per row, so that the rows run on threads; and without those
/// copies, the rows in order with each search a parallel reduction
/// (`driver::region::without_conditional_copies`). Many short rows take a
/// thread each (no kernel of one thread running a loop); a few long rows
/// take a reduction each. Both print the sequential results.
#[test]
fn searches_per_row_run_on_threads_or_as_reductions_as_the_model_says() {
    check("search_rows");
    check_with("search_rows", "-h100", &["--device", "nvidia-h100"]);
    check_cuda_emulated("search_rows");
    let src = root().join("tests/programs/search_rows.c");
    let dir = scratch("program-search_rows-model");
    let compile = |params: &str| {
        let out = run(
            Command::new(pencilc())
                .args(["--target", "cuda", "-v", "--gpu-model-params", params, "-o"])
                .arg(dir.join("p.c"))
                .arg(&src),
            "pencilc -v",
        );
        let cu = std::fs::read_to_string(dir.join("p_kernel.cu")).unwrap();
        (String::from_utf8_lossy(&out.stderr).into_owned(), cu)
    };
    let (short, cu) = compile("m=3000,n=64");
    assert!(!short.contains("no copy per thread"), "{}", short);
    assert!(cu.contains("pencilc_priv_a;"), "{}", cu);
    assert!(one_thread_loops(&cu).is_empty(), "{}", cu);
    let (long, _) = compile("m=4,n=100000");
    assert!(long.contains("no copy per thread of `a`"), "{}", long);
    assert!(
        long.contains("`pencilc_last_0` accumulates (max)"),
        "{}",
        long
    );
}

/// Scalars that each row sets before reading them and then changes under
/// conditions on the data (tests/programs/conditional_privates.c: `best =
/// -1; for (i ...) if (A[r][i] > t) best = i;`, a running maximum with its
/// index, a `while` count, one scalar in two nests) get a copy per thread,
/// so their rows run on threads; before, `deps::privatise` took no
/// variable with a conditional write, and the rows ran one after another
/// (a kernel per row, or all of them on one thread). The values the last
/// row leaves are read after the region; rows that carry a value to the
/// next (never reset, reset on one branch, read before the reset) keep
/// their order. Every version of every target prints the sequential
/// results at three sizes, with `--reductions exact` too. A value read at
/// the element a search found stays in global memory.
#[test]
fn scalars_written_through_calls_and_by_set_up_loops_keep_their_values() {
    check("written_by_address_and_loop");
    check_with(
        "written_by_address_and_loop",
        "-h100",
        &["--device", "nvidia-h100"],
    );
    check_cuda_emulated("written_by_address_and_loop");
    check_openmp("written_by_address_and_loop");
    // The search per row: a copy of `i` and of `j` per thread.
    let cu = std::fs::read_to_string(
        root().join("target/e2e/program-written_by_address_and_loop/cuda_kernel.cu"),
    )
    .unwrap();
    for copy in ["i", "j"] {
        assert!(
            cu.contains(&format!(
                "for (pencilc_priv_{c} = 0; pencilc_priv_{c} < ",
                c = copy
            )),
            "no copy of {} in\n{}",
            copy,
            cu
        );
    }
}

#[test]
fn scalars_changed_under_conditions_get_a_copy_per_thread() {
    check("conditional_privates");
    check_with(
        "conditional_privates",
        "-h100",
        &["--device", "nvidia-h100"],
    );
    check_with("conditional_privates", "-exact", &["--reductions", "exact"]);
    check_cuda_emulated("conditional_privates");
    check_openmp("conditional_privates");
    let cu = std::fs::read_to_string(
        root().join("target/e2e/program-conditional_privates/cuda_kernel.cu"),
    )
    .unwrap();
    for copy in ["best", "v", "mx", "at", "k", "c"] {
        assert!(
            cu.contains(&format!("pencilc_priv_{};", copy)),
            "no copy of {} in\n{}",
            copy,
            cu
        );
    }
    let looping = one_thread_loops(&cu);
    assert!(looping.is_empty(), "{:#?}\n{}", looping, cu);
    // A row's value read at the iteration a search found (`v = A[r][i]`
    // under the condition) is one element of the row per thread: no
    // shared tile copies the whole row for it.
    let log = verbose_log("conditional_privates");
    assert!(
        log.contains("each access one element of a range its subscripts leave open"),
        "{}",
        log
    );
}

/// The signatures of the CUDA kernels (combining kernels aside) launched
/// with blocks of one thread whose body runs a loop.
fn one_thread_loops(cu: &str) -> Vec<String> {
    let mut looping = Vec::new();
    for chunk in cu.split("__global__ void ").skip(1) {
        let signature = chunk.lines().next().unwrap_or("").to_string();
        let body = chunk.split("extern \"C\"").next().unwrap_or("");
        if chunk.contains("pencilc_block(1);")
            && !signature.contains("_combine")
            && body.contains("for (")
        {
            looping.push(signature);
        }
    }
    looping
}

/// Reads that C makes only under an affine condition (`i < n - 1 ?
/// x[i + 1] : 0`, `i > 0 && x[i - 1] > x[i]`, `i == 0 || ...`, `!(...)`)
/// are reads of the instances where it holds: the copies to the device
/// stay inside the arrays, which here lie between pages the program may
/// not touch. Counted for every instance, they reached one element or one
/// row past an array, and the emulated CUDA version and OpenCL with
/// buffers of its own crashed in the copy.
#[test]
fn reads_under_affine_conditions_copy_only_what_c_reads() {
    check("guarded_reads");
    check_cuda_emulated("guarded_reads");
    let dir = root().join("target/e2e/program-guarded_reads");
    let want = run(&mut Command::new(dir.join("seq")), "sequential program").stdout;
    for pool in ["1", "0"] {
        let got = device_run(
            &dir.join("par-opencl"),
            &[("PENCILC_ZERO_COPY", "0"), ("PENCILC_POOL", pool)],
            "OpenCL program with buffers of its own",
        );
        assert_eq!(
            String::from_utf8_lossy(&got.stdout),
            String::from_utf8_lossy(&want)
        );
    }
    // The model says so: `x[i + 1]` is read where i < n - 1 only.
    let scop = Command::new(pencilc())
        .args(["--emit", "scop"])
        .arg(root().join("tests/programs/guarded_reads.c"))
        .output()
        .unwrap();
    let scop = String::from_utf8_lossy(&scop.stdout);
    assert!(
        scop.lines().any(|l| l.contains("x[i + 1] : (i < n - 1)")),
        "{}",
        scop
    );
}

/// A variable declared in a loop body and run by a loop inside it keeps
/// the value that loop left for what reads it after (a search ended by
/// `break`, a loop run to its end, loops that never run); rows run on
/// threads, and the kernels run the declared variable itself. The first
/// was "`i` is not declared" (E0108).
#[test]
fn locals_of_a_loop_body_keep_the_value_a_loop_left() {
    check("body_locals_after_loops");
    check_cuda_emulated("body_locals_after_loops");
    let log = verbose_log("body_locals_after_loops");
    assert!(log.contains("parallel dims [1, 1, 1]"), "{}", log);
    let k = std::fs::read_to_string(
        root().join("target/e2e/program-body_locals_after_loops/cuda_kernel.cu"),
    )
    .unwrap();
    assert!(
        k.contains("for (i = 0; i < m; i += 1)") && !k.contains("for (int i"),
        "{}",
        k
    );
}

/// OpenMP directives around regions, as Rodinia's OpenMP codes write
/// them (tests/programs/omp_teams.c): `#pragma omp parallel for` right
/// before `#pragma scop` is the region's (the generated host file did not
/// build: the pragma stood before an `if`); a region inside `#pragma omp
/// parallel { ... }` whose loops are `#pragma omp for` keeps the user's
/// code, with a warning that says why (the generated code ran all of the
/// region in each thread: a silent wrong result on three threads, in the
/// OpenMP and OpenCL builds); a region with its own `parallel` and one
/// with `#pragma pencil independent` before `#pragma scop` run as kernels.
#[test]
fn openmp_teams_around_regions_are_respected() {
    let warnings = {
        let src = root().join("tests/programs/omp_teams.c");
        check_source(&src, &scratch("program-omp_teams"), &[])
    };
    assert!(
        warnings.contains("binds to a team of threads outside the region")
            && warnings.contains("the region in `bump` keeps the original code")
            && warnings.contains("the region in `called` keeps the original code"),
        "{}",
        warnings
    );
    check_cuda_emulated("omp_teams");
    let log = verbose_log("omp_teams");
    assert!(
        log.contains("3 region(s), 3 kernel(s), parallel dims [1, 1, 1]"),
        "{}",
        log
    );
}

/// Old-style function definitions (tests/programs/old_style_definitions.c,
/// as Rodinia's backprop writes them): their parameters, declared between
/// the declarator and the body, are the region's (E0108 "`n` is not
/// declared" before), and the nest runs as a 2-d kernel.
#[test]
fn old_style_definitions_declare_their_parameters() {
    check("old_style_definitions");
    check_cuda_emulated("old_style_definitions");
    let log = verbose_log("old_style_definitions");
    assert!(
        log.contains("1 region(s), 1 kernel(s), parallel dims [2]"),
        "{}",
        log
    );
}

/// Arrays declared through array typedefs (tests/programs/array_typedefs.c:
/// `row_t *a`, `const row_t *w`, a `row_t` parameter, globals `row_t v`
/// and `row_t m[12]`, a typedef of a typedef of rows, a region's own
/// `row_t tmp`): each has its typedef's extents after its own (E0104 "`a`
/// has 1 dimension(s) but is accessed with 3 subscript(s)" before), right
/// everywhere, with the nest's two parallel loops on threads.
#[test]
fn array_typedefs_add_their_extents() {
    check("array_typedefs");
    check_cuda_emulated("array_typedefs");
    let log = verbose_log("array_typedefs");
    assert!(
        log.contains("2 region(s), 3 kernel(s), parallel dims [2, 1, 1]"),
        "{}",
        log
    );
}

/// Old-style definitions declare their parameters in any order
/// (tests/programs/old_style_order.c): a call binds its arguments by the
/// list of names, not by the declarations (`shift(x, k) int k; double x;`
/// took `b[i]` for `k`, a silent wrong result in every version since
/// K&R definitions were accepted).
#[test]
fn old_style_parameters_take_arguments_by_the_list_of_names() {
    check("old_style_order");
    check_cuda_emulated("old_style_order");
    let log = verbose_log("old_style_order");
    assert!(
        log.contains("1 region(s), 1 kernel(s), parallel dims [1]"),
        "{}",
        log
    );
}

/// Initializer lists of a region's own arrays
/// (tests/programs/array_initializers.c: `float sum[BS] = {0.f}` as
/// Rodinia's lud has it, `{{1, 2}, {i, 5, 6}}`, `{1, 2, 3, 4}` into a 2x3
/// array, `int u[] = {...}` and `int g[][3]` sized by their lists, a
/// `const` array's weights): zero where the list leaves elements
/// out (E0106 "initializer lists are not supported in a region" before),
/// the rows on threads.
#[test]
fn array_initializer_lists_zero_what_they_leave_out() {
    check("array_initializers");
    check_cuda_emulated("array_initializers");
    let log = verbose_log("array_initializers");
    assert!(
        log.contains("2 region(s), 2 kernel(s), parallel dims [1, 1]"),
        "{}",
        log
    );
}

/// A region's own scalars of typedef'd types (tests/programs/typedef_locals.c:
/// `real_t s` and `u8 t` in a loop, `real_t carry` before one): declared
/// with the types the typedefs name. The kernels declared `real_t`, which
/// they do not know (PoCL failed to build them, nvcc would too), and the
/// one before the loop was E0111 "not a scalar number type" (TSVC s2251).
#[test]
fn typedef_locals_have_the_types_their_typedefs_name() {
    check("typedef_locals");
    check_cuda_emulated("typedef_locals");
    let log = verbose_log("typedef_locals");
    assert!(
        log.contains("1 region(s), 2 kernel(s), parallel dims [1, 0]"),
        "{}",
        log
    );
}

/// A loop's own `continue` that skips the rest of its body
/// (tests/programs/guard_continues.c: guards in guards, a guard in both
/// branches, an inner loop's `continue`, a sum after a guard, a search
/// with a `break` beside its `continue`): the rest is the guard's `else`,
/// and the loops stay loops. At 0d8890a the three kernels had parallel
/// dims [0, 1, 0]: the guarded loops ran on one GPU thread.
#[test]
fn loops_with_guard_continues_stay_parallel() {
    check("guard_continues");
    check_cuda_emulated("guard_continues");
    let log = verbose_log("guard_continues");
    assert!(
        log.contains("1 region(s), 3 kernel(s), parallel dims [1, 2, 1]"),
        "{}",
        log
    );
}

/// `switch` in a region (tests/programs/switches.c: labels sharing a
/// group, a block ending in `break`, `default` in the middle, a
/// `continue` of the loop in a case, an inner loop's `break`, cases that
/// leave by `break` from inside an `if`, the statements after it moved
/// into the other branch): a chain of `if`s (E0105 "`switch` is not
/// allowed" before, TSVC s442), right everywhere, the loop on threads.
#[test]
fn switches_are_chains_of_ifs() {
    check("switches");
    check_cuda_emulated("switches");
    let log = verbose_log("switches");
    assert!(
        log.contains("1 region(s), 1 kernel(s), parallel dims [1]"),
        "{}",
        log
    );
}

/// Statements that never run inside a data-dependent `if`
/// (tests/programs/never_running_branch.c: the `else` of `if (1)`, the
/// `then` of `if (0)`): their accesses reach no element, and the memory
/// placement skips them (at 0d8890a an isl error in `map-memory`, "union
/// map needs to contain elements in exactly one space", sent the region
/// to its fallback with a warning E0201; TSVC s2710).
#[test]
fn statements_that_never_run_do_not_stop_the_memory_placement() {
    check("never_running_branch");
    check_cuda_emulated("never_running_branch");
    let log = verbose_log("never_running_branch");
    assert!(
        log.contains("1 region(s), 1 kernel(s), parallel dims [1]") && !log.contains("E0201"),
        "{}",
        log
    );
}

/// A loop whose instances read what one of its own instances writes
/// (tests/programs/split_one_loop.c: `a[i] = a[m] * 2 + b[i]`, pivots at
/// the first, a middle and the last element): split around that
/// instance, the pieces are parallel loops (at 0d8890a one kernel with
/// parallel dims [0], the loops on one GPU thread; TSVC s1113, s293).
/// The GPU mapping runs on PoCL and fakecuda.
#[test]
fn one_loop_splits_around_the_instance_it_reads() {
    check("split_one_loop");
    check_with("split_one_loop", "-h100", &["--device", "nvidia-h100"]);
    check_cuda_emulated("split_one_loop");
    let log = verbose_log_with("split_one_loop", &["--device", "nvidia-h100"]);
    assert!(
        log.contains("split into 3 pieces along `-m + i = 0` (the instances the others read from)")
            && log.contains("1 region(s), 4 kernel(s), parallel dims [1, 1, 1, 1]"),
        "{}",
        log
    );
}

/// GNU attributes after declarators (tests/programs/trailing_attributes.c:
/// Rodinia's `float t[BS*BS] __attribute__((aligned(64)));` in a region,
/// a global and a local scalar with one): accepted (E0002 "expected `;`"
/// before), the tile private to each block's thread, right everywhere.
#[test]
fn attributes_after_declarators_are_accepted() {
    check("trailing_attributes");
    check_cuda_emulated("trailing_attributes");
    let log = verbose_log("trailing_attributes");
    assert!(
        log.contains("1 region(s), 1 kernel(s), parallel dims [1]"),
        "{}",
        log
    );
    assert!(!log.contains("warning"), "{}", log);
}

/// An iterator's final value stands for its reads after the loop up to a
/// statement that may assign it, however deep (`if (n > 5) i = 2;`,
/// tests/programs/final_value_then_written.c): the assignment inside the
/// `if` became one to the final value's expression, and valid C an E0104
/// error. Both calls (the `if` taken and not) give the sequential results.
#[test]
fn final_values_stop_at_a_conditional_assignment() {
    check("final_value_then_written");
    check_cuda_emulated("final_value_then_written");
}

/// Scalars that hold an index (tests/programs/index_scalars.c, Rodinia's
/// idiom): `c = i * m + j; B[c] = ...` and block bounds `int b_start =
/// blk * 8;` give 2-d kernels (one thread for the first before: `B[c]`
/// was a write of all of `B`, and every iteration read the `c` of the
/// one before), a value read after the region comes back from the last
/// iteration, and where the scalar's value is not the expression's at a
/// read (a name of it written between, a conditional redefinition, the
/// next iteration's read before the definition, `unsigned` and `short`
/// conversions) the scalar stays: every version prints the sequential
/// results.
#[test]
fn index_scalars_are_read_as_their_expressions() {
    check("index_scalars");
    check_cuda_emulated("index_scalars");
    let log = verbose_log("index_scalars");
    assert!(
        log.contains("7 region(s), 7 kernel(s), parallel dims [2, 2, 1, 1, 0, 0, 1]"),
        "{}",
        log
    );
}

/// Stores of one value in any order (tests/programs/same_value_stores.c,
/// Rodinia's bfs `stop = true`): the update loop is a kernel of one
/// thread per vertex (one thread in all before: every iteration's
/// store of `stop` was ordered after the last), the indirect `seen[idx[i]]
/// = 7` with it. Two values, a read of the flag in the loop and `+=`
/// keep their order or become reductions; a loop that stores nothing
/// leaves the old value: every version prints the sequential results.
#[test]
fn stores_of_one_value_in_any_order_are_parallel() {
    check("same_value_stores");
    check_cuda_emulated("same_value_stores");
    let log = verbose_log("same_value_stores");
    assert!(
        log.contains("6 region(s), 9 kernel(s), parallel dims [1, 0, 1, 0, 0, 0, 1, 1, 1]"),
        "{}",
        log
    );
}

/// Flat subscripts under bounds that are not affine
/// (tests/programs/chunked_blocks.c, Rodinia's hotspot): the warning says
/// pencilc cannot show the shape holds (not that it "leaves that range
/// wherever this code runs"), and no run-time check is offered that holds
/// only where no access runs (`num_chunk <= 0` was, with a one-thread
/// kernel behind it); the region keeps its code and prints the sequential
/// results.
#[test]
fn shapes_that_hold_only_where_nothing_runs_are_not_checked() {
    check("chunked_blocks");
    let log = verbose_log("chunked_blocks");
    assert_eq!(
        log.matches("which pencilc cannot show here").count(),
        2,
        "{}",
        log
    );
    for wrong in [
        "wherever this code runs",
        "would prove it",
        "checked at run time",
    ] {
        assert!(!log.contains(wrong), "{}: {}", wrong, log);
    }
    assert!(log.contains("1 region(s), 0 kernel(s)"), "{}", log);
}

/// Functions with `if`s, assignments and several returns
/// (tests/programs/inline_branches.c, Rodinia nw's `maximum`) are inlined
/// as conditional expressions: both nests run as kernels (E0109 before),
/// every version prints the sequential results, and no warning is left.
#[test]
fn functions_with_branches_and_returns_are_inlined() {
    check("inline_branches");
    check_cuda_emulated("inline_branches");
    let log = verbose_log("inline_branches");
    assert!(
        log.contains("1 region(s), 2 kernel(s), parallel dims [1, 1]"),
        "{}",
        log
    );
    assert!(!log.contains("warning"), "{}", log);
}

/// Negated unsigned literals are C's unary minus on them
/// (tests/programs/negated_unsigned_literals.c): `-1u > 5u` holds, directly
/// and through a scalar (the model took `-1u` for -1 and dropped the
/// branch: found by red-teaming scalars that hold an index).
#[test]
fn negated_unsigned_literals_wrap_around() {
    check("negated_unsigned_literals");
    check_cuda_emulated("negated_unsigned_literals");
}

/// Scalars that choose a neighbour (tests/programs/neighbour_scalars.c,
/// Rodinia's hotspot3D: `w = (x == 0) ? c : c - 1; ... tIn[w]`): a read
/// whose subscript chooses reads one of two elements, each delinearised,
/// so the flat 3-d grid is a 3-d kernel (the region stayed on the host:
/// `tIn` was a may-access to all of it); a chosen row of a 2-d array and a
/// choice in a store's subscript too. Every version prints the
/// sequential results.
#[test]
fn neighbour_scalars_read_one_of_two_elements() {
    check("neighbour_scalars");
    check_cuda_emulated("neighbour_scalars");
    let log = verbose_log("neighbour_scalars");
    assert!(
        log.contains("2 region(s), 3 kernel(s), parallel dims [3, 2, 1]"),
        "{}",
        log
    );
}

/// `sizeof` in a region (tests/programs/sizes.c: types, typedefs,
/// variables, a parameter's array, rows and elements, loop bounds,
/// subscripts, `size_t` arithmetic that wraps): a constant as the LP64
/// hosts compute it. At bdf2cdb every `sizeof` was refused (E0106).
#[test]
fn sizeof_is_the_constant_the_host_computes() {
    check("sizes");
    check_cuda_emulated("sizes");
    let log = verbose_log("sizes");
    assert!(
        log.contains("1 region(s), 5 kernel(s), parallel dims [2, 1, 0, 1, 1]"),
        "{}",
        log
    );
}

/// Pointers declared through typedefs (tests/programs/pointer_typedefs.c:
/// `dptr a` of `typedef double *dptr;`, a chain of typedefs, `restrict`
/// and `const` in the typedef, `const` beside the name; one call's
/// arrays overlap) are what `double *a` declares. At bdf2cdb such a
/// pointer was a scalar: "`a` has 0 dimension(s)" (E0104).
#[test]
fn pointer_typedefs_declare_pointers() {
    check("pointer_typedefs");
    check_cuda_emulated("pointer_typedefs");
    let log = verbose_log("pointer_typedefs");
    assert!(
        log.contains("2 region(s), 2 kernel(s), parallel dims [1, 1]"),
        "{}",
        log
    );
}

/// `do ... while` (tests/programs/do_whiles.c: the `do { } while (0)` of
/// macros, left by `break` and by `continue`; loops whose test comes
/// last, with a `continue` that goes to the test, a `break`, no braces,
/// one inside another). At b476c8c every `do` was refused (E0105).
#[test]
fn do_while_loops_run_their_body_before_the_test() {
    check("do_whiles");
    check_cuda_emulated("do_whiles");
    check_with("do_whiles", "-hoist", &["--hoist", "always"]);
    let log = verbose_log("do_whiles");
    assert!(
        log.contains("1 region(s), 1 kernel(s), parallel dims [1]"),
        "{}",
        log
    );
}

/// A second variable that a `for` declares and steps beside its iterator
/// (tests/programs/companions.c: `i++, j--`, a condition on `j`, steps of
/// 3 and 5, an initialiser reading the iterator and one reading an outer
/// loop's, an unsigned `j` that wraps) is a function of the iterator,
/// and the loops are parallel loops. At b476c8c each was refused (E0107:
/// "the increment must change `i` by a constant").
#[test]
fn loops_with_a_companion_variable_stay_loops() {
    check("companions");
    check_cuda_emulated("companions");
    let log = verbose_log("companions");
    assert!(
        log.contains("1 region(s), 6 kernel(s), parallel dims [1, 1, 1, 1, 1, 2]"),
        "{}",
        log
    );
}

/// `memcpy`, `memmove` and `memset` (tests/programs/mem_calls.c: whole
/// arrays, rows of parametric arrays, an address and a count inside a
/// row, a pointer with an offset, a 2-d array into a flat buffer, rows
/// set to 0 and -1, bytes of `char` arrays) are loops over elements. At
/// bdf2cdb the calls reached the kernels: OpenCL C has no `memcpy`, and
/// PoCL's build of the kernels failed when the program ran.
#[test]
fn memory_calls_are_loops_over_elements() {
    check("mem_calls");
    check_cuda_emulated("mem_calls");
    let log = verbose_log("mem_calls");
    assert!(
        log.contains("2 region(s), 9 kernel(s), parallel dims [2, 2, 2, 1, 1, 1, 0, 1, 2]"),
        "{}",
        log
    );
}

/// Comparisons in a 64-bit unsigned type of values that may be negative
/// (tests/programs/unsigned_long_compare.c: `i < sizeof(short)` from i =
/// -3, `k * sizeof(int) < 12`, a loop from -4 while `i < 2UL`, `i - 4 >= n
/// - 8` of a `size_t n`): C converts the negative value to 2^64 less its
/// magnitude. At bc49910 the model compared the values as they look (`i
/// < 2UL` ran the loop from -4; `-3 < 2UL` held): wrong results in every
/// version.
#[test]
fn negative_values_compared_as_64_bit_unsigned_are_large() {
    check("unsigned_long_compare");
    check_cuda_emulated("unsigned_long_compare");
}

/// Loops over a variable the region declares (`int i; for (i = 0; ...)`,
/// C89's style, as generators write it) are loops of the model. The
/// model took the region's local for data even inside its own loop, so
/// every such loop ran as one statement, on one GPU thread. A small array
/// that a parallel loop writes one element per iteration gets no private
/// copy per thread: `deps::privatise` copied all 64 doubles into each
/// thread's local memory, and wrote them back, for no dependence removed.
/// The value a local's loop leaves (`int t; for (t = x * 0.5; ...)`) is
/// of the local's type: the read after the loop became the start as the
/// double it is, a wrong result in every version (`scop::final_values`
/// knew the types of the variables from before the region only).
#[test]
fn loops_over_variables_the_region_declares_are_parallel() {
    check("region_locals");
    check_cuda_emulated("region_locals");
    check_openmp("region_locals");
    let cu =
        std::fs::read_to_string(root().join("target/e2e/program-region_locals/cuda_kernel.cu"))
            .unwrap();
    // Left to one thread: the search that `break` ends, and the loop
    // from a start that is not affine (`x * 0.5`).
    let looping = one_thread_loops(&cu);
    assert_eq!(looping.len(), 2, "{:#?}\n{}", looping, cu);
    assert!(!cu.contains("pencilc_priv_"), "{}", cu);
}

/// A name the region declares at its top and the code after it uses
/// (`int i; ... #pragma endscop; return t + i;`): the host file did not
/// build ("`i` undeclared"), since each version of the region sits in a
/// block of its own. Such a region keeps the user's code, with a warning
/// (`diagnostics`), and every version runs it. A later region of the
/// block that reads the name sees its declaration (it was E0108, "not
/// declared") and is compiled.
#[test]
fn names_declared_in_a_region_and_used_after_it_keep_their_scope() {
    check("declared_in_region_used_after");
    check_cuda_emulated("declared_in_region_used_after");
    check_openmp("declared_in_region_used_after");
}

/// `while` loops that count (`i = 0; while (i < n) { ...; i++; }`) are
/// the `for` loops C defines them to be (`scop::counted_whiles`): the
/// nest of two is a 2-d loop nest of the model, and so are the loop
/// counting down by 2, a parameter's and a global's loops. As `while`
/// loops they were dynamic control, one statement on one GPU thread.
/// Those that do not count stay as written: a `continue` that skips the
/// increment, a body that changes the counter, an unsigned counter that
/// wraps, `break`; every version prints the sequential results.
#[test]
fn while_loops_that_count_are_for_loops() {
    check("counted_whiles");
    check_cuda_emulated("counted_whiles");
    check_openmp("counted_whiles");
    let out = run(
        Command::new(pencilc())
            .args(["--emit", "scop"])
            .arg(root().join("tests/programs/counted_whiles.c")),
        "pencilc --emit scop",
    );
    let scop = String::from_utf8_lossy(&out.stdout);
    for domain in [
        "S_0[i, j] : m <= 64 and n <= 64 and 0 <= i < n and 0 <= j < m }",
        "S_2[k] : (1 + n + k) mod 2 = 0 and m <= 64 and n <= 64 and 0 <= k < n }",
        "S_16[p] : m <= 64 and n <= 64 and 0 < p < n }",
        "S_17[g] : (g) mod 2 = 0 and m <= 64 and n <= 64 and 0 <= g < n }",
    ] {
        assert!(scop.contains(domain), "no {} in\n{}", domain, scop);
    }
}

/// A summary function written for pet (`if (maybe()) A[i] = 0;`, its
/// tests/summary.c) where `maybe` has a body with effects: a summary
/// never runs, so its calls only make what they guard may-accesses. It
/// was E0109 ("not known to be pure") in the summary; the rows now run on
/// threads, and every version prints the sequential results (`maybe` is
/// never called).
#[test]
fn calls_in_summary_functions_are_conditions_only() {
    check("summary_calls");
    check_cuda_emulated("summary_calls");
    check_openmp("summary_calls");
    let cu =
        std::fs::read_to_string(root().join("target/e2e/program-summary_calls/cuda_kernel.cu"))
            .unwrap();
    assert!(one_thread_loops(&cu).is_empty(), "{}", cu);
}

/// Loops counted by a `_Bool` (`b += 2` stores 1): a `while` loop, which
/// `scop::counted_whiles` took for the `for` loop it is not, and `for`
/// loops (older), whose steps the device code made on an `unsigned
/// char`: the device versions counted 0, 2, ... and left 2. Such loops
/// are `while` loops of assignments, converted as C converts them.
#[test]
fn loops_counted_by_a_bool_store_what_c_stores() {
    check("bool_counters");
    check_cuda_emulated("bool_counters");
    check_openmp("bool_counters");
}

/// Final values read later in the region whose formula's inputs change
/// after the loop, or whose bound C compares in another type (`double`,
/// `size_t`), or whose arithmetic passes `int` (a `long long` counter, a
/// `<=` bound at INT_MAX): silent wrong results found by the red team of
/// 2026-12-04; such reads now keep the loops as written (E0106).
#[test]
fn final_values_keep_their_inputs_and_types() {
    check("final_value_inputs");
    check_cuda_emulated("final_value_inputs");
    check_openmp("final_value_inputs");
}

/// Starts and steps that C converts into the iterator's type: an `int`
/// iterator from an `unsigned` or `long` start (its kept loop ranges over
/// the whole type, so the buffers hold what it touches; it wrote past
/// one in CUDA), unsigned steps (`a += 0xFFFFFFFFu` counts down).
#[test]
fn starts_and_steps_convert_as_c_converts_them() {
    check("wrapped_starts_and_steps");
    check_cuda_emulated("wrapped_starts_and_steps");
    check_openmp("wrapped_starts_and_steps");
}

/// Pointers at scalars of the region (`int *p = &x;`, `f(&g)`): the
/// overlap check compares the scalars' bytes too, the caller's where the
/// region is outlined.
#[test]
fn pointers_at_scalars_are_in_the_overlap_check() {
    check("scalars_pointers_reach");
    check_cuda_emulated("scalars_pointers_reach");
    check_openmp("scalars_pointers_reach");
}

/// `int a = t, t = 5;` after a region that declares `t`: the first `t`
/// is the region's.
#[test]
fn names_declared_again_later_in_a_declaration_still_read_the_regions() {
    check("declared_again_in_one_declaration");
    check_cuda_emulated("declared_again_in_one_declaration");
    check_openmp("declared_again_in_one_declaration");
}

/// Arrays written before they are read are copied to the device only at
/// the sizes where the region may leave part of what it copies back
/// unwritten (issue 34, item 2): every version right at sizes on both
/// sides of that line (fakecuda poisons fresh device memory, so an old
/// value that did not travel shows), and at full size only B, U and q,
/// whose copies hold elements the region never writes, go in.
#[test]
fn old_values_travel_only_where_the_copy_back_keeps_some() {
    check_everywhere("copy_in_where");
    let dir = root().join("target/e2e/program-copy_in_where");
    let want = run(&mut Command::new(dir.join("seq")), "sequential program");
    // OpenCL with buffers of their own (PoCL's default wraps the arrays).
    let got = run(
        Command::new(dir.join("par-opencl"))
            .env("PENCILC_OPENCL_DEVICE", "cpu")
            .env("PENCILC_OPENCL_OPTIONS", "-DPENCILC_NO_FP_CONTRACT")
            .env("PENCILC_RUN", "device")
            .env("PENCILC_ZERO_COPY", "0"),
        "OpenCL program",
    );
    assert_eq!(
        String::from_utf8_lossy(&got.stdout),
        String::from_utf8_lossy(&want.stdout)
    );
    let log = emulated_profile("copy_in_where");
    let bytes_in: Vec<&str> = log
        .lines()
        .filter_map(|l| l.split("bytes in ").nth(1)?.split(',').next())
        .collect();
    // B: 40 rows of 31; U: rows 0 to 29 (j >= i); q: elements 0 to 78.
    let full = (40 * 31 + 30 * 30 + 79) * 8;
    assert_eq!(
        bytes_in.first(),
        Some(&full.to_string().as_str()),
        "{}",
        log
    );
    assert_eq!(bytes_in.last(), Some(&full.to_string().as_str()), "{}", log);
    // One column short: A and C go in as well, U's rows are one fewer
    // (t, p and D never go in).
    let short = (40 * 31 + 29 * 30 + 79 + 2 * 40 * 30) * 8;
    assert_eq!(
        bytes_in.get(1),
        Some(&short.to_string().as_str()),
        "{}",
        log
    );
}

/// What the emulated CUDA program of test program `name` (built by
/// `check_everywhere`) says with `PENCILC_PROFILE=1`, its device version
/// forced: a line per execution of a region, with the bytes it copied.
fn emulated_profile(name: &str) -> String {
    device_profile(&root().join(format!("target/e2e/program-{}/par-cuda-emulated", name)))
}

/// `emulated_profile` of the program `exe`.
fn device_profile(exe: &std::path::Path) -> String {
    let got = run(
        Command::new(exe)
            .env("PENCILC_RUN", "device")
            .env("PENCILC_PROFILE", "1"),
        "emulated CUDA program",
    );
    String::from_utf8_lossy(&got.stderr).into_owned()
}

/// The bytes each execution of `region` copied back, by a profile log's
/// lines (`PENCILC_PROFILE=1`).
fn bytes_out_of(log: &str, region: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains(&format!(": {} (", region)))
        .filter_map(|l| Some(l.split("bytes out ").nth(1)?.trim().to_string()))
        .collect()
}

/// Reads after a region that do not name the array or scalar there (the
/// red team of 2026-12-05): an operand ordered after the call, a
/// variable-length array type in `sizeof`, an allocation's value given to
/// a second pointer, variables named `free` or like a function of the
/// file, `setcontext` back to before the call, a GCC nested function and a
/// `cleanup` handler. Each comes back from the device; fakecuda's
/// poisoned buffers print other values otherwise (the proof before this
/// got all ten wrong).
#[test]
fn reads_that_do_not_name_the_array_bring_it_back() {
    check_everywhere("dead_routes");
}

/// Arrays nothing reads after the region stay on the device (issue 34:
/// data movement): `tmp`, which main allocates, passes to a static kernel
/// and frees, the caller's automatic `scratch`, and main's own `work`
/// around a region of main. The arrays read after it by routes a proof by
/// text must follow (a print, a pointer kept by a function of the file, a
/// pointer into the array, a call in a loop, a function another file may
/// call) come back, on every target; fakecuda's buffers are poisoned, so
/// one that stayed would print other values.
#[test]
fn arrays_dead_after_the_call_stay_on_the_device() {
    check_everywhere("dead_after_call");
    let log = emulated_profile("dead_after_call");
    let bytes_out = |region: &str| bytes_out_of(&log, region);
    let n = 24;
    // out, kept and alias (n x n) and seen (n); not tmp, not scratch.
    assert_eq!(
        bytes_out("kernel_dead"),
        vec![((3 * n * n + n) * 8).to_string()],
        "{}",
        log
    );
    // Every call of the looped kernel brings its array back, as does the
    // kernel another file may call.
    assert_eq!(bytes_out("kernel_looped").len(), 3, "{}", log);
    assert!(
        bytes_out("kernel_looped").iter().all(|b| b != "0"),
        "{}",
        log
    );
    assert_eq!(
        bytes_out("kernel_extern"),
        vec![(n * n * 8).to_string()],
        "{}",
        log
    );
    // main's region: `res` only.
    assert_eq!(bytes_out("main"), vec![(n * 8).to_string()], "{}", log);

    // `--whole-program`: no other file calls kernel_extern, whose one
    // call's array is freed unread; the rest as before.
    let exe = check_cuda_emulated_with("dead_after_call", &["--whole-program"], "whole");
    let whole = device_profile(&exe);
    let out_of = |region: &str| bytes_out_of(&whole, region);
    assert_eq!(out_of("kernel_extern"), vec!["0".to_string()], "{}", whole);
    // `-v` names what stays, and says what the flag would keep.
    let log = verbose_log("dead_after_call");
    assert!(log.contains("`scratch`, `tmp` not copied back"), "{}", log);
    assert!(log.contains("`work` not copied back"), "{}", log);
    assert!(
        log.contains("`t` copied back from the device, though nothing in this file reads it after `kernel_extern` returns"),
        "{}",
        log
    );
    assert!(!log.contains("after `kernel_looped` returns"), "{}", log);
    assert_eq!(out_of("kernel_dead"), bytes_out("kernel_dead"), "{}", whole);
    assert_eq!(
        out_of("kernel_looped"),
        bytes_out("kernel_looped"),
        "{}",
        whole
    );
}

/// Narrow counters that may each wrap, in one region (red team of
/// 2026-12-04): their loops' conditions together left no parameter value
/// for the model, every range check passed vacuously, and pencilc warned
/// that `A[c]` was out of bounds wherever it ran (E0118) while the region
/// could only run its original code. Each wrapping loop now runs as
/// written, as it does alone (E0117), and every target prints the
/// sequential results.
#[test]
fn counters_that_wrap_together_run_as_written_each() {
    check_everywhere("wrapping_counters_together");
    let log = verbose_log("wrapping_counters_together");
    assert_eq!(
        log.matches("may wrap around its type").count(),
        2,
        "{}",
        log
    );
    // `us` stays inside its type from the even n of 65532 to 65534 only:
    // checked on entry, and at the values called, the original code runs.
    assert!(
        log.contains(
            "loop iterator `us` (`unsigned short`): the model keeps it inside its type where"
        ),
        "{}",
        log
    );
    assert!(!log.contains("E0118"), "{}", log);
}

/// Differential seed 167, case 21: reading back the OpenMP target's CPU
/// version met a constant condition and stopped with an internal error
/// (the region fell back to isl's scheduler). It reads back now, and
/// every target prints the sequential results.
#[test]
fn constant_conditions_read_back() {
    let name = "constant_condition_read_back";
    check(name);
    check_openmp(name);
    let src = root().join("tests/programs").join(format!("{}.c", name));
    let dir = scratch(&format!("program-{}-log", name));
    let out = run(
        Command::new(pencilc())
            .args(["-v", "--target", "c", "--openmp", "-o"])
            .arg(dir.join("omp.c"))
            .arg(&src),
        "pencilc -v --openmp",
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        !log.contains("internal error") && !log.contains("falling back"),
        "{}",
        log
    );
}
