//! Bad input gets `file:line:col: error: message [code]`, the offending line
//! with a caret under the construct, a hint, and exit status 1; never a panic.

mod common;
use common::*;
use std::process::Command;

/// Writes `body` inside a function with the usual declarations and runs
/// pencilc on it; returns (exit code, stderr).
fn compile(name: &str, body: &str) -> (i32, String, String) {
    let dir = scratch(&format!("diag-{}", name));
    let src = dir.join(format!("{}.c", name));
    let text = format!(
        "#define N 64\nint idx[N];\nvoid f(int n, int m, double A[N][N], double B[N], double *p, double s) {{\n  int i, j, k;\n#pragma scop\n{}\n#pragma endscop\n}}\n",
        body
    );
    std::fs::write(&src, text).unwrap();
    let out = Command::new(pencilc())
        .arg("--output-dir")
        .arg(&dir)
        .arg(&src)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (
        out.status.code().unwrap_or(-1),
        stderr,
        src.display().to_string(),
    )
}

/// The diagnostic names the file, line and column, the code, shows the line
/// with a caret under `caret_text`, and gives a hint.
fn assert_diag(name: &str, body: &str, code: &str, line: u32, caret_text: &str) {
    let (status, err, path) = compile(name, body);
    assert_eq!(status, 1, "exit status for {}:\n{}", name, err);
    assert!(!err.contains("panicked"), "pencilc panicked:\n{}", err);
    let first = err.lines().next().unwrap_or("");
    let prefix = format!("{}:{}:", path, line);
    assert!(
        first.starts_with(&prefix),
        "expected `{}...`, got:\n{}",
        prefix,
        err
    );
    assert!(first.contains(": error: "), "{}", err);
    assert!(
        first.ends_with(&format!("[{}]", code)),
        "expected code {}:\n{}",
        code,
        err
    );
    // The caret line underlines exactly the offending text.
    let lines: Vec<&str> = err.lines().collect();
    let src_line = lines.get(1).expect("source line");
    let caret_line = lines.get(2).expect("caret line");
    let src_text = src_line.splitn(2, "| ").nth(1).unwrap_or("");
    let carets = caret_line.splitn(2, "| ").nth(1).unwrap_or("");
    let start = carets.find('^').expect("caret");
    let len = carets.matches('^').count();
    assert_eq!(
        &src_text[start..start + len],
        caret_text,
        "caret placement:\n{}",
        err
    );
    assert!(err.contains("= help: "), "no hint:\n{}", err);
}

/// Non-static-affine code is PENCIL, not an error: a non-affine subscript
/// is a may-access, a non-affine bound or a `while` makes one statement.
#[test]
fn non_static_affine_code_is_accepted() {
    for (name, body) in [
        ("subscript", "  for (i = 0; i < n; i++)\n    B[i * i] = 0;"),
        ("indirect", "  for (i = 0; i < n; i++)\n    B[idx[i]] = 1;"),
        ("bound", "  for (i = 0; i < n * m; i++)\n    B[i] = 0;"),
        ("while", "  while (B[0] > 0)\n    B[0] = B[0] - 1;"),
        ("written", "  for (i = 0; i < n; i++) {\n    m = i;\n    for (j = 0; j < m; j++)\n      A[i][j] = 0;\n  }"),
    ] {
        let (status, err, _) = compile(name, body);
        assert_eq!(status, 0, "{}:\n{}", name, err);
    }
}

/// A pointer indexed by data (issue 16): no device buffer can hold what
/// it reaches, so the region keeps the user's code, with a warning (E0113)
/// at the access, not an error.
#[test]
fn pointer_with_unknown_reach_keeps_the_region_on_the_host() {
    let (status, err, path) = compile(
        "pointer-reach",
        "  for (i = 0; i < n; i++)\n    p[idx[i]] = s;",
    );
    assert_eq!(status, 0, "{}", err);
    assert!(err.contains(&format!("{}:7:5: warning:", path)), "{}", err);
    assert!(
        err.contains("[E0113]") && err.contains("= help: "),
        "{}",
        err
    );
    assert!(err.contains("`p` is a pointer"), "{}", err);
    let host =
        std::fs::read_to_string(std::path::Path::new(&path).with_file_name("pointer-reach_host.c"))
            .unwrap();
    assert!(!host.contains("pencilc_kernel(\"kernel0\")"), "{}", host);
    assert!(host.contains("p[idx[i]] = s;"), "{}", host);
}

/// A linearised subscript that cannot be delinearised (issue 16, item 5):
/// the warning names the term, the fact that is missing and the
/// assumption that supplies it; with that assumption the two accesses
/// share one shape, proved in range, and nothing is said.
#[test]
fn linearised_subscript_warns() {
    let body = "  for (i = 0; i < n; i++)\n    for (j = 0; j < m; j++)\n      B[i * m + j] = 0;\n  for (i = 0; i < n; i++)\n    for (j = 0; j < m; j++)\n      B[i * n + j] += 1;";
    let (status, err, path) = compile("linear", body);
    assert_eq!(status, 0, "{}", err);
    assert!(err.contains(&format!("{}:11:9: warning:", path)), "{}", err);
    assert!(
        err.contains("[E0101]") && err.contains("= help: "),
        "{}",
        err
    );
    assert!(err.contains("^^^^^^^^^"), "{}", err);
    for what in [
        "the term `i * n`",
        "`n` equals `m`",
        "__pencil_assume(n == m);",
    ] {
        assert!(err.contains(what), "{}:\n{}", what, err);
    }
    let assumed = format!("  __pencil_assume(n == m);\n{}", body);
    let dir = scratch("diag-linear-assumed");
    let src = dir.join("linear.c");
    std::fs::write(
        &src,
        format!(
            "#include <pencil.h>\nvoid f(int n, int m, double *B) {{\n  int i, j;\n#pragma scop\n{}\n#pragma endscop\n}}\n",
            assumed
        ),
    )
    .unwrap();
    let out = Command::new(pencilc())
        .args(["-v", "--output-dir"])
        .arg(&dir)
        .arg(&src)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}", err);
    assert!(!err.contains("warning"), "{}", err);
    assert!(
        err.contains("array B: delinearised as B[*][m]")
            && err.contains("in range by the loop bounds and assumptions"),
        "{}",
        err
    );
}

/// A bound the body changes is no error (issue 33, pet's for_while_init):
/// C reads the condition anew each time, and the loop is the `while` loop
/// C makes of it (its results: tests/programs/for_as_while.c).
#[test]
fn loop_bound_changed_in_the_body_is_a_while_loop() {
    let (status, err, _) = compile("invariant", "  for (i = 0; i < m; i++)\n    m = m - 1;");
    assert_eq!(status, 0, "{}", err);
    assert!(!err.contains("error"), "{}", err);
}

#[test]
fn loop_iterator_modified() {
    assert_diag(
        "iterator",
        "  for (i = 0; i < n; i++) {\n    i = i + 1;\n  }",
        "E0107",
        6,
        "for (i = 0; i < n; i++) {",
    );
}

#[test]
fn contradictory_assumptions() {
    assert_diag(
        "assume",
        "  __pencil_assume(n > 10);\n  __pencil_assume(n < 5);\n  for (i = 0; i < n; i++)\n    B[i] = 0;",
        "E0114",
        7,
        "__pencil_assume(n < 5);",
    );
}

/// An iterator whose values C would wrap around (unsigned down past 0,
/// `unsigned char` past 255) is not modelled as mathematical integers: its
/// loop runs as written (`tests/programs/wrapping_iterators.c`), unless
/// its condition holds for every value of the type, where the loop never
/// ends.
#[test]
fn iterator_leaves_its_type() {
    assert_diag(
        "unsigned-wrap",
        "  for (unsigned u = 9; u >= 0; u--)\n    B[0] = B[0] + 1;",
        "E0107",
        6,
        "for (unsigned u = 9; u >= 0; u--)",
    );
}

/// A variable the region's loops use as iterator has a known value after
/// its loop only where the loop cannot leave early (`scop::final_values`);
/// after a loop with `break`, the loops over it run as written, and a
/// warning says so where it is used (issue 33).
#[test]
fn iterator_used_after_its_loop() {
    let (status, err, path) = compile(
        "iterator-after-break-loop",
        "  for (i = 0; i < n; i++) {\n    if (B[i] > 0)\n      break;\n    B[i] = 0;\n  }\n  B[1] = i;",
    );
    assert_eq!(status, 0, "{}", err);
    assert!(
        err.starts_with(&format!("{}:11:10: warning:", path))
            && err.contains("`i` is used here outside the loops it is the iterator of")
            && err.contains("[E0106]"),
        "{}",
        err
    );
}

/// A call by the name of a variable goes where the variable points: a
/// function pointer that hides the file's function of that name, in any
/// block of the function or at file scope (the region called the file's
/// function before, on every version).
#[test]
fn calls_through_a_variable_that_hides_a_function() {
    let local = "#define N 8
static void put(double p[N], int i) { p[i] = 1; }
static void other(double p[N], int i) { p[i] = 2; }
void f(int n, double out[N]) {
  void (*put)(double p[N], int i) = other;
#pragma scop
  for (int i = 0; i < n; i++)
    put(out, i);
#pragma endscop
}
";
    assert_whole("shadowed-call", local, "E0104", "8:5");
    let global = "#define N 8
static void other(double p[N], int i) { p[i] = 2; }
void (*gput)(double p[N], int i) = other;
void f(int n, double out[N]) {
#pragma scop
  for (int i = 0; i < n; i++)
    gput(out, i);
#pragma endscop
}
";
    assert_whole("pointer-call", global, "E0104", "7:5");
    // A parameter of a prototype (the file's, or one inside the function)
    // declares nothing where the region is.
    let prototypes = "#define N 8
static void put(double p[N], int i) { p[i] = 1; }
void apply(void (*f)(int put));
void f(int n, double out[N]) {
  int g(int put);
#pragma scop
  for (int i = 0; i < n; i++)
    put(out, i);
#pragma endscop
}
";
    let (status, err, _) = compile_file("prototype-names", prototypes);
    assert_eq!(status, Some(0), "{}", err);
    // Variables of that name where the call cannot see them (a sibling
    // block, a block after it, an earlier loop's counter) hide nothing; a
    // GCC nested function of that name defined before the call does.
    let unseen = "#define N 8
static void put(double p[N], int i) { p[i] = 1; }
void f(int n, double out[N]) {
  { int put = 3; out[0] = put; }
  for (int put = 0; put < 2; put++) out[1] = put;
#pragma scop
  for (int i = 0; i < n; i++)
    put(out, i);
#pragma endscop
  { void (*put)(double *, int) = 0; (void) put; }
}
";
    let (status, err, _) = compile_file("unseen-names", unseen);
    assert_eq!(status, Some(0), "{}", err);
    let nested = "#define N 8
static void put(double p[N], int i) { p[i] = 1; }
void f(int n, double out[N]) {
  void put(double p[N], int i) { p[i] = 2; }
#pragma scop
  for (int i = 0; i < n; i++)
    put(out, i);
#pragma endscop
}
";
    assert_whole("nested-call", nested, "E0104", "7:5");
}

/// A region that a macro's expansion brings has no lines of its own in
/// the file for the generated code to replace: refused at the macro's use
/// (it was accepted, and its code written at file scope did not compile).
#[test]
fn region_pragmas_from_a_macro() {
    let text = "#define SUM(name) \\
static long name(int n, long x[100]) { long s = 0; \\
_Pragma(\"scop\") \\
  for (int i = 0; i < n; i++) s += x[i]; \\
_Pragma(\"endscop\") \\
  return s; }
SUM(f)
";
    assert_whole("pragma-macro", text, "E0112", "7:1");
    // Code on a line with `_Pragma("endscop")` went with the lines the
    // generated code replaces (the red team's r3c_19: `after` stayed 0).
    let same_line = "void f(int n, double out[8], int *after) {
#pragma scop
  for (int i = 0; i < n; i++) out[i] = 3.0 * i;
  _Pragma(\"endscop\") *after = 7;
}
";
    let (status, err, _) = compile_file("pragma-line", same_line);
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.contains("[E0112]") && err.contains("shares a line"),
        "{}",
        err
    );
}

/// A function the file defines is the file's, whatever its name: one
/// spelled `__pencil_...` was taken for PENCIL's builtin (not analysed, not
/// copied to the device, whose build then failed). Its effects are found
/// like any function's.
#[test]
fn a_function_of_the_file_named_like_pencils_builtins() {
    let text = "#define N 40
static double *kept;
static void __pencil_keep(double p[N], int i) { kept = p; p[i] = 3.0 * i + 1; }
void f(int n, double T[N]) {
#pragma scop
  for (int i = 0; i < n; i++)
    __pencil_keep(T, i);
#pragma endscop
}
";
    let (status, err, _) = compile_file("pencil-prefix", text);
    assert_eq!(status, Some(0), "{}", err);
    assert!(
        err.contains("`__pencil_keep` may have effects beyond its arguments"),
        "{}",
        err
    );
}

#[test]
fn pointer_dereference() {
    assert_diag(
        "deref",
        "  for (i = 0; i < n; i++)\n    B[i] = *p;",
        "E0104",
        7,
        "*p",
    );
}

#[test]
fn goto_statement() {
    assert_diag(
        "goto",
        "  for (i = 0; i < n; i++) {\n    B[i] = 0;\n    goto out;\n  }\nout: ;",
        "E0105",
        8,
        "goto out;",
    );
}

/// A `for` loop outside PENCIL's form is the `while` loop C makes of it
/// (dynamic control, as pet reads it); one that never ends is an error.
#[test]
fn non_canonical_for_loops_are_while_loops_and_endless_ones_errors() {
    for (name, body) in [
        ("step", "  for (i = 1; i < n; i *= 2)\n    B[i] = 0;"),
        (
            "no-init",
            "  i = 0;\n  for (; i < n; i += idx[i] + 1)\n    B[i] = 0;",
        ),
        (
            "break",
            "  for (i = 1; ; i *= 2) {\n    if (i > n)\n      break;\n    B[i] = 0;\n  }",
        ),
    ] {
        let (status, err, _) = compile(name, body);
        assert_eq!(status, 0, "{}: {}", name, err);
        assert!(!err.contains("error"), "{}: {}", name, err);
    }
    assert_diag(
        "endless-for",
        "  for (i = 0;; i++)\n    B[0] = B[0] + 1;",
        "E0107",
        6,
        "for (i = 0;; i++)",
    );
    // A loop in PENCIL's form with a condition that is always true (pet's
    // unsigned3, E0117 before: its iterator wraps; now the loop would run
    // as written, for ever).
    assert_diag(
        "endless-canonical",
        "  for (i = 0; 1; i++)\n    B[0] = B[0] + 1;",
        "E0107",
        6,
        "for (i = 0; 1; i++)",
    );
    assert_diag(
        "endless-while",
        "  while (1) {\n    for (i = 0; i < n; i++)\n      B[i] = 0;\n  }",
        "E0107",
        6,
        "while (1) {",
    );
}

#[test]
fn impure_call() {
    assert_diag(
        "call",
        "  for (i = 0; i < n; i++)\n    B[i] = rand();",
        "E0109",
        7,
        "rand()",
    );
}

#[test]
fn unknown_identifier() {
    assert_diag(
        "unknown",
        "  for (i = 0; i < q; i++)\n    B[i] = 0;",
        "E0108",
        6,
        "q",
    );
}

fn assert_whole(name: &str, text: &str, code: &str, at: &str) {
    let (status, err, path) = compile_file(name, text);
    assert_eq!(status, Some(1), "{}", err);
    assert!(!err.contains("panicked"), "{}", err);
    let first = err.lines().next().unwrap_or("");
    assert!(first.starts_with(&format!("{}:{}:", path, at)), "{}", err);
    assert!(first.ends_with(&format!("[{}]", code)), "{}", err);
    assert!(err.lines().nth(2).unwrap_or("").contains('^'), "{}", err);
    assert!(err.contains("= help: "), "{}", err);
}

/// Names that start with `pencilc_` or `PENCILC_` are the generated
/// code's (issue 32): a user's variable so named is refused where it is
/// first written, a macro of the file at its `#define`, one of `-D` by
/// its option, and nothing is written; the build switches the README
/// documents may be defined.
#[test]
fn reserved_prefix_is_refused() {
    assert_diag(
        "reserved-variable",
        "  double pencilc_x = s;\n  for (i = 0; i < n; i++)\n    B[i] = pencilc_x;",
        "E0121",
        6,
        "pencilc_x",
    );
    assert_whole(
        "reserved-macro",
        "#define N 8\n#define  PENCILC_SIZE N\nvoid f(double A[N]) {\n#pragma scop\n  for (int i = 0; i < PENCILC_SIZE; i++)\n    A[i] = 0;\n#pragma endscop\n}\n",
        "E0121",
        "2:10",
    );
    let text = "#define N 8\nvoid f(double A[N]) {\n#pragma scop\n  for (int i = 0; i < N; i++)\n    A[i] = 0;\n#pragma endscop\n}\n";
    let dir = scratch("diag-reserved-define");
    let src = dir.join("d.c");
    std::fs::write(&src, text).unwrap();
    let run = |define: &str| {
        Command::new(pencilc())
            .arg("--output-dir")
            .arg(&dir)
            .arg(define)
            .arg(&src)
            .output()
            .unwrap()
    };
    let out = run("-DPENCILC_WIDTH=4");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", err);
    assert!(
        err.contains("the macro `PENCILC_WIDTH` (-DPENCILC_WIDTH) starts with `PENCILC_`")
            && err.contains("[E0121]")
            && err.contains("= help: "),
        "{}",
        err
    );
    assert!(!dir.join("d_host.c").exists());
    let out = run("-DPENCILC_TIME_REGION");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn recursion() {
    assert_whole(
        "recursion",
        "#include <pencil.h>\nvoid f(int n, float A[pencil_array n]) {\n  for (int i = 0; i < n; i++)\n    A[i] = 0;\n  f(n, A);\n}\n",
        "E0116",
        "5:3",
    );
}

#[test]
fn array_parameter_without_pencil_array() {
    assert_whole(
        "pencil-array",
        "#include <pencil.h>\nvoid f(int n, float A[pencil_array n], float B[n]) {\n  for (int i = 0; i < n; i++)\n    A[i] = B[i];\n}\n",
        "E0115",
        "2:46",
    );
}

/// An enumerator whose value pencilc cannot compute (here a `sizeof`
/// that wraps: `size_t` is unsigned, so `sizeof(double) - 16` is 2^64 -
/// 8, where `int` arithmetic would say -8), or whose name two enums of
/// the file give different values, is an error where a region uses it,
/// not a guess.
#[test]
fn enumerators_without_a_usable_value() {
    assert_whole(
        "enum-sizeof",
        "enum { S = sizeof(double) - 16 };\nvoid f(int n, double B[n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    B[i] = S;\n#pragma endscop\n}\n",
        "E0108",
        "5:12",
    );
    assert_whole(
        "enum-twice",
        "void g(void) { enum { K = 1 }; }\nvoid f(int n, double B[n]) {\n  enum { K = 2 };\n#pragma scop\n  for (int i = 0; i < n; i++)\n    B[i] = K;\n#pragma endscop\n}\n",
        "E0108",
        "6:12",
    );
}

/// Member accesses pencilc cannot model are errors at the access that
/// say why: members of two types, a member that is itself a struct, an
/// array of structs used without its subscripts, an aligned struct
/// (padding between elements), an anonymous union member. (A struct
/// declared outside the region that is not an array is accepted:
/// tests/programs/struct_objects.c; `p->m` is `p[0].m`:
/// tests/programs/struct_pointers.c.)
#[test]
fn struct_members_outside_the_model() {
    let head = "struct mixed { float v; int tag; };\nstruct cf { float re, im; };\nstruct nest { struct cf c; float w; };\nstruct __attribute__((aligned(16))) al { float x, y, z; };\nstruct un { union { float a; float b; }; float c; };\n";
    for (name, decl, stmt, at) in [
        ("struct-mixed", "struct mixed A[n]", "A[i].v = 0;", "9:5"),
        (
            "struct-partial",
            "struct nest A[n]",
            "A[i].c = A[i].c;",
            "9:5",
        ),
        ("struct-unsubscripted", "struct cf A[n]", "A.re = 0;", "9:5"),
        ("struct-aligned", "struct al A[n]", "A[i].x = 0;", "9:5"),
        // An anonymous union overlays its members: no layout of places.
        ("struct-union", "struct un A[n]", "A[i].c = 0;", "9:5"),
    ] {
        let text = format!(
            "{}void f(int n, {}) {{\n#pragma scop\n  for (int i = 0; i < n; i++)\n    {}\n#pragma endscop\n}}\n",
            head, decl, stmt
        );
        assert_whole(name, &text, "E0111", at);
    }
}

/// A reduction clause that names a part of an array (`hist[g]`, as
/// PENCIL's HOG writes it) frees the order of that part's updates only.
#[test]
fn update_outside_the_reduction_section() {
    assert_whole(
        "reduction-section",
        "void f(int n, float h[8][8], const int v[64]) {\n#pragma scop\n#pragma pencil independent\n  for (int g = 0; g < 7; g++) {\n#pragma pencil independent reduction(+: h[g])\n    for (int i = 0; i < 8; i++)\n      h[g + 1][v[8 * g + i]] += 1.0f;\n  }\n#pragma endscop\n}\n",
        "E0106",
        "7:7",
    );
}

/// A `static` local is one object for the whole program, initialised
/// once; in a region it became a new variable each iteration (issue 32,
/// class 2: 10100 instead of 1181700, no diagnostic). `extern` and
/// `thread_local` (C23) locals name objects outside the region. Each is an
/// error at its storage class; `static const` with an initialiser is the
/// constant it says (tests/programs/static_locals.c).
#[test]
fn static_extern_and_thread_locals_in_a_region() {
    for (name, decl, word) in [
        ("static-local", "static int cnt = 0;", "static"),
        (
            "static-const-uninitialised",
            "static const int cnt;",
            "static",
        ),
        ("extern-local", "extern int cnt;", "extern"),
        ("thread-local", "thread_local int cnt;", "thread_local"),
    ] {
        let body = format!(
            "  for (i = 0; i < n; i++) {{\n    {}\n    B[i] = cnt;\n  }}",
            decl
        );
        assert_diag(name, &body, "E0106", 7, word);
        let (_, err, _) = compile(name, &body);
        assert!(err.contains("before `#pragma scop`"), "{}", err);
    }
    let (status, err, _) = compile(
        "static-const-local",
        "  for (i = 0; i < n; i++) {\n    static const double half = 0.5;\n    B[i] = half;\n  }",
    );
    assert_eq!(status, 0, "{}", err);
}

/// A declared reduction frees the order of its variable's updates, so the
/// loop may do nothing else with the variable (issue 32, class 6: with
/// `if (s > 5)` in the loop the three versions printed 268, 20 and 148).
/// The error is at the read or write that breaks it: a condition, a
/// value, an update whose value reads the variable, a plain assignment
/// under dynamic control.
#[test]
fn reduction_variable_used_outside_its_updates() {
    let head = "void f(int n, double A[100], double B[100], double s) {\n#pragma scop\n";
    for (name, body, at) in [
        (
            "reduction-read-in-condition",
            "#pragma pencil independent reduction(+: s)\n  for (int i = 0; i < n; i++) {\n    s += A[i];\n    if (s > 5)\n      B[i] = 1;\n  }\n",
            "6:9",
        ),
        (
            "reduction-read-in-value",
            "#pragma pencil independent reduction(+: s)\n  for (int i = 0; i < n; i++) {\n    s += A[i];\n    B[i] = s;\n  }\n",
            "6:12",
        ),
        (
            "reduction-read-in-update",
            "#pragma pencil independent reduction(*: s)\n  for (int i = 0; i < n; i++)\n    s *= A[i] + s;\n",
            "5:17",
        ),
        (
            "reduction-written-under-condition",
            "#pragma pencil independent reduction(max: s)\n  for (int i = 0; i < n; i++) {\n    s = s > A[i] ? s : A[i];\n    if (A[i] < 0) s = 0;\n  }\n",
            "6:19",
        ),
    ] {
        let text = format!("{}{}#pragma endscop\n}}\n", head, body);
        assert_whole(name, &text, "E0106", at);
        let (_, err, _) = compile_file(name, &text);
        assert!(err.contains("reduction(") && err.contains("`s`"), "{}", err);
    }
}

/// Runs pencilc on a whole file `text`; returns (exit code, stderr, the
/// file's path as pencilc prints it).
fn compile_file(name: &str, text: &str) -> (Option<i32>, String, String) {
    let dir = scratch(&format!("diag-{}", name));
    let src = dir.join(format!("{}.c", name));
    std::fs::write(&src, text).unwrap();
    let out = Command::new(pencilc())
        .arg("--output-dir")
        .arg(&dir)
        .arg(&src)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        src.display().to_string(),
    )
}

#[test]
fn missing_endscop() {
    let (status, err, _) = compile_file(
        "endscop",
        "void f(int n, double B[10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = 0;\n}\n",
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.contains(":3:1: error:") && err.contains("[E0112]"),
        "{}",
        err
    );
}

#[test]
fn preprocessor_failure_is_reported() {
    let (status, err, _) = compile_file(
        "cpp",
        "#include \"does_not_exist.h\"\nint main(void) { return 0; }\n",
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(err.contains("[E0001]") && err.contains("-I"), "{}", err);
}

#[test]
fn one_bad_file_does_not_hide_good_ones() {
    let dir = scratch("diag-batch");
    let good = dir.join("good.c");
    let bad = dir.join("bad.c");
    std::fs::write(&good, "void f(int n, double B[10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = i;\n#pragma endscop\n}\n").unwrap();
    std::fs::write(&bad, "void f(int n, double B[10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = q;\n#pragma endscop\n}\n").unwrap();
    let out = Command::new(pencilc())
        .arg("--output-dir")
        .arg(&dir)
        .arg(&good)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(dir.join("good_host.c").exists() && dir.join("good_kernel.cl").exists());
    assert!(!dir.join("bad_host.c").exists());
}

/// Arrays of run-time size declared in a kernel's statements live in
/// slices of one device buffer per name (issue 15); two of one name with
/// different sizes, one after the other's block, are two variables with
/// names of their own (issue 32; this was E0111), and run
/// (`tests/programs/local_arrays.c`).
#[test]
fn local_arrays_of_one_name_and_two_run_time_sizes_in_a_kernel() {
    let (status, err, _) = compile(
        "vla",
        "  for (i = 0; i < n; i++) {\n    { double t[m];\n    for (j = 0; j < m; j++) t[j] = A[i][j];\n    A[i][0] = t[1]; }\n    for (j = 0; j < m; j++) { double t[n]; t[0] = 1; A[i][j] = t[0]; }\n  }",
    );
    assert_eq!(status, 0, "{}", err);
}

/// A kernel's array of run-time size whose size the region itself
/// computes (`int k = n - 1; double w[k];`, a fuzz case of issue 32: the
/// host sized the buffer by a variable it does not have, and the host file
/// did not build) cannot be allocated before the launch: an error that
/// names the variable.
#[test]
fn local_array_sized_by_a_variable_of_the_region() {
    assert_diag(
        "vla-local-size",
        "  for (i = 0; i < n; i++) { int k2 = n - 1;\n    for (j = 0; j < m; j++) { double w[k2];\n      for (k = 0; k < k2; k++) w[k] = A[k][j];\n      A[i][j] = w[0] + w[k2 - 1]; }\n  }",
        "E0111",
        7,
        "double w[k2];",
    );
    let (_, err, _) = compile(
        "vla-local-size-2",
        "  for (i = 0; i < n; i++) { int k2 = n - 1;\n    for (j = 0; j < m; j++) { double w[k2];\n      for (k = 0; k < k2; k++) w[k] = A[k][j];\n      A[i][j] = w[0] + w[k2 - 1]; }\n  }",
    );
    assert!(
        err.contains("depends on `k2`, which the region computes"),
        "{}",
        err
    );
}

/// An integer constant beyond 64-bit integers, which no C type holds (a
/// fuzz case of issue 32: `fabs(i - 99999999999999999999999)` was taken
/// for a floating-point constant, so the argument was not converted and
/// the kernel did not build), is an error naming the constant; a 64-bit
/// unsigned one (FNV's offset basis, `tests/programs/pixels.c`) is not.
#[test]
fn integer_constant_beyond_64_bits() {
    let (status, err, _) = compile(
        "u64-literal",
        "  for (i = 0; i < n; i++)\n    idx[i] = (int) (14695981039346656037ull % 7);",
    );
    assert_eq!(status, 0, "{}", err);
    assert_diag(
        "big-literal",
        "  for (i = 0; i < n; i++)\n    B[i] = fabs(i - 99999999999999999999999);",
        "E0106",
        7,
        "99999999999999999999999",
    );
}

/// A label that a `goto` names makes the region's control flow more than
/// loops and conditions: still an error (a label alone is ignored).
#[test]
fn label_named_by_a_goto() {
    assert_diag(
        "label-goto",
        "  for (i = 0; i < n; i++) {\n  again:\n    B[i] = B[i] * 2;\n    if (B[i] < 1) goto again;\n  }",
        "E0105",
        7,
        "again:",
    );
}

/// `atomic_add(&B[i], v)` updates B[i]: an atomic with the wrong number of
/// arguments is an error, and the first argument must be an element's
/// address.
#[test]
fn unsupported_atomics() {
    assert_diag(
        "atomic-min",
        "  for (i = 0; i < n; i++)\n    atomic_min(&B[idx[i]]);",
        "E0106",
        7,
        "atomic_min(&B[idx[i]])",
    );
    assert_diag(
        "atomic-pointer",
        "  for (i = 0; i < n; i++)\n    atomic_add(B, 1.0);",
        "E0104",
        7,
        "B",
    );
}

/// OpenCL C has no `long double`.
#[test]
fn long_double_in_a_kernel() {
    assert_diag(
        "long-double",
        "  for (i = 0; i < n; i++)\n    B[i] = (long double)B[i] * 2;",
        "E0111",
        7,
        "(long double)B[i]",
    );
}

/// tree-sitter's error recovery is never taken for the program: broken C
/// in a region is a syntax error at the broken text.
#[test]
fn syntax_error_in_a_subscript() {
    assert_diag(
        "syntax-subscript",
        "  for (i = 0; i < n; i++)\n    B[i] = B[i+;",
        "E0002",
        7,
        "[i+",
    );
}

#[test]
fn syntax_error_in_a_loop_header() {
    assert_diag(
        "syntax-header",
        "  for (int i2 = 0; i2 i2 < 10; i2++)\n    B[i2] = 0;",
        "E0002",
        6,
        "i2",
    );
}

#[test]
fn syntax_error_stray_bracket() {
    assert_diag(
        "syntax-bracket",
        "  for (i = 0; i < n; i++)\n    B[i] ] = 0;",
        "E0002",
        7,
        "]",
    );
}

#[test]
fn syntax_error_missing_token() {
    let (status, err, path) = compile(
        "syntax-missing",
        "  for (i = 0; i < n; i++)\n    B[i] = (B[i] + 1;",
    );
    assert_eq!(status, 1, "{}", err);
    assert!(err.starts_with(&format!("{}:7:21:", path)), "{}", err);
    assert!(
        err.contains("[E0002]") && err.contains("expected `)`"),
        "{}",
        err
    );
}

/// An error elsewhere in the function that holds the region moves what
/// tree-sitter takes for the region: also an error.
#[test]
fn syntax_error_before_the_region() {
    let (status, err, path) = compile_file(
        "syntax-before",
        "void f(int n, double B[10]) {\n  int i = ;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = 0;\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.starts_with(&format!("{}:2:", path)) && err.contains("[E0002]"),
        "{}",
        err
    );
}

/// Outside what pencilc translates, broken C is copied unchanged with a
/// warning.
#[test]
fn syntax_error_outside_regions_is_a_warning() {
    let (status, err, path) = compile_file(
        "syntax-outside",
        "int g(int x) { return x +; }\nvoid f(int n, double B[10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = 0;\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    assert!(
        err.starts_with(&format!("{}:1:", path)) && err.contains("warning: syntax error"),
        "{}",
        err
    );
}

#[test]
fn undeclared_loop_iterator() {
    assert_diag(
        "undeclared-iterator",
        "  for (q = 0; q < n; q++)\n    B[q] = 0;",
        "E0108",
        6,
        "q",
    );
}

/// A name declared in a block is not visible after it.
#[test]
fn name_out_of_scope() {
    assert_diag(
        "out-of-scope",
        "  for (i = 0; i < n; i++) {\n    double t = B[i];\n    B[i] = t * 2;\n  }\n  B[0] = t;",
        "E0108",
        10,
        "t",
    );
}

/// Only the region has to be UTF-8.
#[test]
fn latin1_byte_in_the_region() {
    let dir = scratch("diag-latin1");
    let src = dir.join("latin1.c");
    std::fs::write(
        &src,
        b"/* caf\xe9 */\nvoid f(int n, double B[10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = '\xe9';\n#pragma endscop\n}\n",
    )
    .unwrap();
    let out = Command::new(pencilc())
        .arg("--output-dir")
        .arg(&dir)
        .arg(&src)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", err);
    assert!(
        err.starts_with(&format!("{}:5:", src.display()))
            && err.contains("not UTF-8 in the region")
            && err.contains("[E0002]"),
        "{}",
        err
    );
}

/// Deep nesting is a clear error, never a crashed stack: 60,000 nested
/// parentheses pass `MAX_NESTING`, 5,000 and 10,000 nested loops the
/// loop-depth limit.
#[test]
fn nesting_limits() {
    let e = format!("{}B[i]{}", "(".repeat(60000), " + 1)".repeat(60000));
    let (status, err, path) = compile(
        "deep-parens",
        &format!("  for (i = 0; i < n; i++)\n    B[i] = {};", e),
    );
    assert_eq!(status, 1, "{}", &err[..err.len().min(2000)]);
    assert!(
        err.starts_with(&format!("{}:7:", path))
            && err.contains("nesting deeper than 50000 levels"),
        "{}",
        &err[..err.len().min(2000)]
    );
    for n in [5000, 10000] {
        let body: String = (0..n)
            .map(|k| format!("for (int i{k} = 0; i{k} < 2; i{k}++)\n"))
            .collect();
        let (status, err, path) = compile(
            &format!("deep-loops-{}", n),
            &format!("{}  B[0] = B[0] + 1;", body),
        );
        assert_eq!(status, 1, "{}", err);
        // The 33rd loop, on line 6 + 32.
        assert!(
            err.starts_with(&format!(
                "{}:38:1: error: loops nested deeper than 32",
                path
            )),
            "{}",
            err
        );
    }
    // At the limit the region is accepted.
    let body: String = (0..32)
        .map(|k| format!("for (int i{k} = 0; i{k} < 2; i{k}++)\n"))
        .collect();
    let (status, err, _) = compile("deep-loops-32", &format!("{}  B[0] = B[0] + 1;", body));
    assert_eq!(status, 0, "{}", err);
}

/// Found by tests/fuzz.rs: C forbids writing what is declared `const`, and
/// pencilc translated such writes into code that compiled.
#[test]
fn writes_to_const_are_errors() {
    assert_diag(
        "const-local",
        "  for (i = 0; i < n; i++) {\n    const double c = 1.0;\n    c = B[i];\n  }",
        "E0002",
        8,
        "c",
    );
    let (status, err, path) = compile_file(
        "const-param",
        "void f(int n, const float x[static const restrict n], float y[static const restrict n]) {\n  for (int i = 0; i < n; i++)\n    y[i] = x[i] = 1.0f;\n}\n",
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.starts_with(&format!("{}:3:12: error: `x` is declared const", path))
            && err.contains("[E0002]"),
        "{}",
        err
    );
    // Only the pointer is const here; its elements may be written.
    let (status, err, _) = compile_file(
        "const-pointer",
        "void f(int n, float y[const 10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n    y[i] = 1.0f;\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
}

/// Found by tests/fuzz.rs: a struct local in a region was accepted, even of
/// an incomplete type.
#[test]
fn struct_locals_are_rejected() {
    assert_diag(
        "struct-local",
        "  for (i = 0; i < n; i++) {\n    struct fuzz t;\n    B[i] = 0;\n  }",
        "E0111",
        7,
        "struct fuzz",
    );
}

/// Found by tests/fuzz.rs: cpp ends a line at a lone carriage return, and
/// pencilc counted lines by line feeds only, so it replaced the region's
/// lines off by one and the output lost the function's closing brace.
#[test]
fn lone_carriage_returns_end_lines() {
    let (status, err, path) = compile_file(
        "lone-cr",
        "void f(int n, double B[10]) {\r  int i;\r#pragma scop\n  for (i = 0; i < 10; i++)\r    B[i] = i;\n#pragma endscop\r}\rint g(void) { return 1; }\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    let host = path.replace(".c", "_host.c");
    let out = Command::new("cc")
        .args(["-fsyntax-only", "-std=gnu99", &host])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What tree-sitter's grammar allows but C's types do not (a floating
/// subscript, a call with too many arguments) is caught by the C
/// compiler's own check: an error in a region, never a translation.
#[test]
fn the_c_compilers_errors_in_a_region_are_errors() {
    let (status, err, path) = compile_file(
        "cc-check-region",
        "#include <math.h>\nvoid f(int n, double B[10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = floor(B[i], 2.0) + B[0.5];\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.starts_with(&format!("{}:5:", path))
            && err.contains("the C compiler rejects this")
            && err.contains("[E0002]"),
        "{}",
        err
    );
}

/// C99 has no implicit declarations: a region that calls an undeclared
/// function (a typo, or a PENCIL name that is no builtin) is rejected at
/// the call (gcc 12 only warns, and `-w` would hide it), with what to
/// include. PENCIL's and pet's builtins are known without pencil.h, as pet
/// knows them (`front::implicit`).
#[test]
fn calls_to_undeclared_functions_in_a_region_are_errors() {
    let (status, err, _) = compile_file(
        "undeclared-builtin",
        "void f(int n, double B[100]) {\n  int i;\n#pragma scop\n  __pencil_assume(n < 100);\n  for (i = 0; i < n; i++) B[i] = 0;\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    let (status, err, path) = compile_file(
        "undeclared-typo",
        "void f(int n, double B[100]) {\n  int i;\n#pragma scop\n  __pencil_asume(n < 100);\n  for (i = 0; i < n; i++) B[i] = 0;\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.starts_with(&format!("{}:4:", path))
            && err.contains("implicit declaration of function")
            && err.contains("#include <pencil.h>"),
        "{}",
        err
    );
    let (status, err, path) = compile_file(
        "undeclared-call",
        "void f(int n, double B[100]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) { B[i] = 0; c0(&B[i]); }\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.starts_with(&format!("{}:4:", path))
            && err.contains("c0")
            && err.contains("declare the function before the region"),
        "{}",
        err
    );
    // With the declaration, the same region translates.
    let (status, err, _) = compile_file(
        "declared-builtin",
        "#include <pencil.h>\nvoid f(int n, double B[100]) {\n  int i;\n#pragma scop\n  __pencil_assume(n < 100);\n  for (i = 0; i < n; i++) B[i] = 0;\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
}

/// An iterator read after a loop that may leave early (`break`) has no
/// final value pencilc can state: the loop runs as written and the read
/// sees what it left, with a warning (issue 33; reads after loops
/// without `break` are their final values, with no warning). Results:
/// tests/programs/iterator_outside.c.
#[test]
fn iterator_read_after_a_loop_with_break() {
    let (status, err, path) = compile_file(
        "iterator-after-break",
        "void f(int n, double B[100]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) { if (B[i] > 3) break; B[i] = 0; }\n  B[0] = i;\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    assert!(
        err.starts_with(&format!("{}:5:10: warning:", path))
            && err.contains("`i` is used here outside the loops it is the iterator of")
            && err.contains("[E0106]"),
        "{}",
        err
    );
    let (status, err, _) = compile_file(
        "iterator-after-loop",
        "void f(int n, double B[100]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = 0;\n  B[0] = i;\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    assert!(!err.contains("warning"), "{}", err);
}

/// A function without a body that gets memory it may write (a pointer to
/// elements that are not `const`) cannot be taken as pure: its call in an
/// expression is an error naming the argument (issue 33); with a `const`
/// parameter the same call is accepted, with a warning.
#[test]
fn bodiless_function_given_writable_memory_is_not_pure() {
    let (status, err, path) = compile_file(
        "bodiless-writable",
        "int h(int *p);\nvoid f(int n, int B[100]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = h(&B[i]);\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.starts_with(&format!("{}:5:36:", path))
            && err.contains(
                "`h` has no body or summary in this file and gets memory it may write (`&B[i]`)"
            )
            && err.contains("[E0109]"),
        "{}",
        err
    );
    let (status, err, _) = compile_file(
        "bodiless-const",
        "int h(const int *p);\nvoid f(int n, int B[100], int C[100]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = h(&C[i]);\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    assert!(err.contains("takes its calls as pure"), "{}", err);
}

/// tree-sitter's error recovery is slow on deeply nested broken code
/// (40,000 nested `if`s with one `if ()1`: 86 s): the parse has the
/// region's time (at least 5 s) and then stops with an error.
#[test]
fn slow_error_recovery_in_the_parser_is_bounded() {
    let dir = scratch("diag-slow-parse");
    let src = dir.join("ifs.c");
    let mut ifs = vec!["if (1) "; 40000];
    ifs[10000] = "if ()1 ";
    std::fs::write(
        &src,
        format!(
            "static void f(int n, double A[100]) {{\n#pragma scop\n  for (int i = 0; i < n; i++)\n    {}A[i] = A[i] * 2;\n#pragma endscop\n}}\n",
            ifs.concat()
        ),
    )
    .unwrap();
    let t = std::time::Instant::now();
    let out = Command::new(pencilc())
        .args(["--schedule-timeout", "2", "--output-dir"])
        .arg(&dir)
        .arg(&src)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", err);
    assert!(
        err.contains("the C parser did not finish within 5.0 s") && err.contains("[E0002]"),
        "{}",
        err
    );
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
}

/// gcc 12 takes 10 s of CPU on 60,000 nested braces: the C
/// compiler's check of the input has the region's time (at least 5 s),
/// and when it runs out nothing confirms the regions are valid C, so
/// they stay the user's code, with a warning.
#[test]
fn a_c_check_that_does_not_finish_keeps_the_regions() {
    let dir = scratch("diag-slow-cc");
    let src = dir.join("braces.c");
    let n = 100000;
    std::fs::write(
        &src,
        format!(
            "static void f(int n, double A[100]) {{\n#pragma scop\n  for (int i = 0; i < n; i++)\n    A[i] = A[i] * 2 + 1;\n#pragma endscop\n}}\nvoid g(double A[100]) {{\n  {}A[0] = 1;{}\n  f(100, A);\n}}\n",
            "{ ".repeat(n),
            " }".repeat(n)
        ),
    )
    .unwrap();
    let t = std::time::Instant::now();
    let out = Command::new(pencilc())
        .args(["-v", "--schedule-timeout", "2", "--output-dir"])
        .arg(&dir)
        .arg(&src)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}", err);
    assert!(
        err.contains("the C compiler's check of the input did not finish within 5.0 s")
            && err.contains("0 kernel(s)"),
        "{}",
        err
    );
    let host = std::fs::read_to_string(dir.join("braces_host.c")).unwrap();
    assert!(
        host.contains("A[i] = A[i] * 2 + 1;"),
        "the region is not the user's code"
    );
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
    // The compiler's own front end (`cc1`, the driver's child) ended too.
    assert_eq!(processes_reading(&src), Vec::<String>::new());
}

/// The command lines of the processes whose arguments name `file`.
fn processes_reading(file: &std::path::Path) -> Vec<String> {
    let name = file.display().to_string();
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmd
            .split(|b| *b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        if args.iter().any(|a| *a == name) {
            found.push(args.join(" "));
        }
    }
    found
}

/// A pencilc killed (`kill -9`) while the C compiler checks its input
/// leaves nothing running: neither its worker nor the compiler's driver
/// nor the driver's own front end (`cc1`), which on this input runs for
/// half a minute.
#[test]
fn a_killed_pencilc_leaves_no_compiler_running() {
    let dir = scratch("diag-killed-cc");
    let src = dir.join("braces.c");
    let n = 60000;
    std::fs::write(
        &src,
        format!(
            "void g(double A[100]) {{
  {}A[0] = 1;{}
}}
",
            "{ ".repeat(n),
            " }".repeat(n)
        ),
    )
    .unwrap();
    let mut child = Command::new(pencilc())
        .arg("--output-dir")
        .arg(&dir)
        .arg(&src)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let began = std::time::Instant::now();
    while !processes_reading(&src).iter().any(|p| p.contains("cc1")) {
        assert!(began.elapsed().as_secs() < 20, "cc1 never started");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let mut left = processes_reading(&src);
    let killed = std::time::Instant::now();
    while !left.is_empty() && killed.elapsed().as_secs() < 5 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        left = processes_reading(&src);
    }
    assert_eq!(left, Vec::<String>::new());
}

/// Outside the regions, the compiler's errors are one warning; the file
/// is still translated (that code is copied unchanged).
#[test]
fn the_c_compilers_errors_outside_regions_are_a_warning() {
    let (status, err, _) = compile_file(
        "cc-check-outside",
        "double g(double x) { return x[1]; }\nvoid f(int n, double B[10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = 0;\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    assert!(
        err.contains("the C compiler rejects code outside the regions"),
        "{}",
        err
    );
}

/// Every line of `stderr` as JSON (`--message-format json` prints
/// nothing else there).
fn json_lines(stderr: &str) -> Vec<serde_json::Value> {
    stderr
        .lines()
        .map(|l| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("not JSON ({}): {}\n{}", e, l, stderr))
        })
        .collect()
}

/// `--message-format json`: one object per diagnostic with the fields of
/// the human form (level, code, message, file, line, column, span end,
/// hints) and the human text itself; the span is what the caret
/// underlines.
#[test]
fn json_diagnostics_carry_the_span_and_the_hint() {
    let dir = scratch("diag-json");
    let src = dir.join("unknown.c");
    std::fs::write(
        &src,
        "void f(int n, double B[10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n    B[i] = quux;\n#pragma endscop\n}\n",
    )
    .unwrap();
    let out = Command::new(pencilc())
        .args(["--message-format", "json", "--output-dir"])
        .arg(&dir)
        .arg(&src)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let v = json_lines(&err);
    assert_eq!(v.len(), 1, "{}", err);
    let d = &v[0];
    assert_eq!(d["type"], "diagnostic");
    assert_eq!(d["level"], "error");
    assert_eq!(d["code"], "E0108");
    assert_eq!(d["file"], src.display().to_string());
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(5), Some(12))
    );
    assert_eq!(
        (d["end_line"].as_u64(), d["end_column"].as_u64()),
        (Some(5), Some(16))
    );
    assert!(d["message"].as_str().unwrap().contains("quux"), "{}", d);
    assert_eq!(d["hints"].as_array().map(|h| h.len()), Some(1), "{}", d);
    let rendered = d["rendered"].as_str().unwrap();
    assert!(
        rendered.starts_with(&format!("{}:5:12: error: ", src.display()))
            && rendered.contains("^^^^"),
        "{}",
        rendered
    );
    // The human form is as before.
    let human = Command::new(pencilc())
        .arg("--output-dir")
        .arg(&dir)
        .arg(&src)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&human.stderr), rendered);
}

/// Batch mode with JSON: the workers' diagnostics come back as objects,
/// each file's once, then one summary object; nothing on stderr is not
/// JSON. Usage errors, including clap's own, are JSON too.
#[test]
fn json_diagnostics_in_batch_mode() {
    let dir = scratch("diag-json-batch");
    let good = dir.join("good.c");
    let bad = dir.join("bad.c");
    let warned = dir.join("warned.c");
    std::fs::write(&good, "void f(int n, double B[10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = i;\n#pragma endscop\n}\n").unwrap();
    std::fs::write(&bad, "void f(int n, double B[10]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i] = q;\n#pragma endscop\n}\n").unwrap();
    std::fs::write(&warned, "void f(int n, double B[100]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++) B[i * i + n] = i;\n#pragma endscop\n}\n").unwrap();
    let out = Command::new(pencilc())
        .args(["--message-format=json", "-j", "3", "-v", "--output-dir"])
        .arg(dir.join("out"))
        .args([&good, &bad, &warned])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let v = json_lines(&err);
    let diags: Vec<&serde_json::Value> = v.iter().filter(|d| d["type"] == "diagnostic").collect();
    assert_eq!(diags.len(), 2, "{}", err);
    let of = |f: &std::path::Path| {
        diags
            .iter()
            .find(|d| d["file"] == f.display().to_string())
            .unwrap_or_else(|| panic!("nothing about {}:\n{}", f.display(), err))
    };
    assert_eq!(
        (&of(&bad)["level"], &of(&bad)["code"]),
        (&"error".into(), &"E0108".into())
    );
    assert_eq!(
        (&of(&warned)["level"], &of(&warned)["code"]),
        (&"warning".into(), &"E0101".into())
    );
    assert!(v.iter().any(|d| d["type"] == "verbose"), "{}", err);
    let summary = v.last().unwrap();
    assert_eq!(summary["type"], "summary", "{}", err);
    assert_eq!(
        (summary["ok"].as_u64(), summary["failed"].as_u64()),
        (Some(2), Some(1))
    );

    for args in [
        vec!["--message-format", "json", "--no-such-flag", "x.c"],
        vec!["--message-format", "json", "-o", "a", "x.c", "y.c"],
    ] {
        let out = Command::new(pencilc()).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{:?}", args);
        let err = String::from_utf8_lossy(&out.stderr);
        let v = json_lines(&err);
        assert_eq!((v.len(), &v[0]["code"]), (1, &"E0301".into()), "{}", err);
    }
}

/// A warning caused by a header (a linearising macro from an included
/// file): a warning by default; -Werror makes it an error (exit 1, level
/// `error` in JSON, a note saying why, no outputs and no dependency
/// file); -w silences it, and wins over -Werror as in gcc; -Wno-error
/// undoes -Werror.
#[test]
fn werror_and_w_on_a_warning_from_a_header() {
    let dir = scratch("diag-werror");
    std::fs::write(dir.join("lin.h"), "#define AT(i, n) ((i) * (i) + (n))\n").unwrap();
    let src = dir.join("lin.c");
    std::fs::write(
        &src,
        "#include \"lin.h\"\nvoid f(int n, double B[100]) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n    B[AT(i, n)] = i;\n#pragma endscop\n}\n",
    )
    .unwrap();
    let run_with = |extra: &[&str], out: &str| {
        let o = Command::new(pencilc())
            .arg("-I")
            .arg(&dir)
            .args(["-MD", "--output-dir"])
            .arg(dir.join(out))
            .args(extra)
            .arg(&src)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (status, err) = run_with(&[], "plain");
    assert_eq!(status, Some(0), "{}", err);
    assert!(
        err.contains(": warning: ") && err.contains("[E0101]"),
        "{}",
        err
    );
    assert!(dir.join("plain/lin_host.c").exists() && dir.join("plain/lin_host.d").exists());

    let (status, err) = run_with(&["-Werror"], "werror");
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.contains(": error: ") && err.contains("[E0101]"),
        "{}",
        err
    );
    assert!(
        err.contains("= note: -Werror turns this warning into an error"),
        "{}",
        err
    );
    assert!(!err.contains("panicked"), "{}", err);
    for f in ["lin_host.c", "lin_kernel.cl", "lin_host.d"] {
        assert!(
            !dir.join("werror").join(f).exists(),
            "{} written under -Werror",
            f
        );
    }

    let (status, err) = run_with(&["-Werror", "--message-format", "json"], "werror-json");
    assert_eq!(status, Some(1), "{}", err);
    let v = json_lines(&err);
    assert_eq!(
        (&v[0]["level"], &v[0]["code"]),
        (&"error".into(), &"E0101".into())
    );
    assert_eq!(v[0]["notes"][0], "-Werror turns this warning into an error");

    for (flags, out) in [
        (vec!["-w"], "w"),
        (vec!["-Werror", "-w"], "werror-w"),
        (vec!["-Werror", "-Wno-error"], "no-error"),
    ] {
        let (status, err) = run_with(&flags, out);
        assert_eq!(status, Some(0), "{:?}: {}", flags, err);
        assert_eq!(
            err.contains("[E0101]"),
            out == "no-error",
            "{:?}: {}",
            flags,
            err
        );
        assert!(dir.join(out).join("lin_host.c").exists(), "{:?}", flags);
    }
}

/// An access that leaves its array wherever its statement runs (PPCG's
/// own `tests/invalid.c` writes `A[i-1]` from `i = 0`) is C's undefined
/// behaviour: a warning that names the element, not silence. Where only
/// some parameter values go outside, the accesses imply facts instead,
/// and there is nothing to warn about.
#[test]
fn accesses_outside_their_array_everywhere_are_warned() {
    let (status, err, path) = compile(
        "outside-always",
        "  for (i = 0; i < N; i++)\n    B[i] = A[i][i + 1];",
    );
    assert_eq!(status, 0, "{}", err);
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.starts_with(&format!("{}:7:", path))
            && first.contains(": warning: this statement reads `A` outside its declared extents [64][64] (at A[63, 64])")
            && first.ends_with("[E0118]"),
        "{}",
        err
    );
    let (status, err, _) = compile(
        "outside-sometimes",
        "  for (i = 0; i < n; i++)\n    B[i] = A[i][i + 1];",
    );
    assert_eq!(status, 0, "{}", err);
    assert!(!err.contains("E0118"), "{}", err);
    // A loop that never ends leaves the array at elements without a first
    // one: the warning without its `(at ...)`, not an internal error (the
    // fuzzer's `j += -1` under `j <= n - 2`).
    let (status, err, _) = compile(
        "outside-endless",
        "  for (i = 1; i <= n - 2; i++)\n    for (j = 1; j <= n - 2; j += -1)\n      A[i][j] = A[i - 1][j];",
    );
    assert_eq!(status, 0, "{}", err);
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.contains(": warning: this statement reads `A` outside its declared extents [64][64] wherever it runs")
            && err.contains(": warning: this statement writes `A` outside its declared extents [64][64] wherever it runs")
            && first.ends_with("[E0118]")
            && !err.contains("E0900"),
        "{}",
        err
    );
}

/// A function of the file is inlined only where the names its body reads
/// mean the same in the region: a local of the region's function hiding
/// the global it reads, or a global declared after the region, keeps the
/// call, an error, not a silently different value or host code that does
/// not compile. (A local declared inside the region has a name of its own
/// there, issue 32, and the call is inlined: `shadowed_locals.c`.)
#[test]
fn inlined_functions_do_not_capture_the_region_s_locals() {
    let global =
        "static double scale = 0.5;\nstatic inline double scaled(double x) { return scale * x; }\n";
    let later = "static inline double scaled(double x);\n";
    let cases = [
        // A local of the region's function.
        (
            "local",
            global,
            "  double scale = 3.0;\n#pragma scop\n  for (int i = 0; i < n; i++)\n    B[i] = scaled(A[i]) + scale;\n#pragma endscop\n",
            "",
            8,
        ),
        // A global declared after the region.
        (
            "later-global",
            later,
            "#pragma scop\n  for (int i = 0; i < n; i++)\n    B[i] = scaled(A[i]);\n#pragma endscop\n",
            global,
            6,
        ),
    ];
    for (name, before, body, after, line) in cases {
        let text = format!(
            "{}void f(int n, double A[100], double B[100])\n{{\n{}}}\n{}",
            before, body, after
        );
        let (status, err, path) = compile_file(&format!("inline-capture-{}", name), &text);
        assert_eq!(status, Some(1), "{}: {}", name, err);
        assert!(
            err.starts_with(&format!("{}:{}:12: error: call to `scaled`", path, line))
                && err.contains("[E0109]"),
            "{}: {}",
            name,
            err
        );
    }
}

/// Inlining is bounded: a recursive function and one whose inlined form
/// grows exponentially (each level uses its argument twice) stay calls,
/// reported at the user's call, at once.
#[test]
fn recursive_and_exploding_inline_functions_are_errors_not_hangs() {
    let dir = scratch("diag-inline-bomb");
    let src = dir.join("bomb.c");
    let mut text = String::from("static inline double g0(double x) { return x + x * x; }\n");
    for k in 1..=12 {
        text.push_str(&format!(
            "static inline double g{k}(double x) {{ return g{j}(g{j}(x)); }}\n",
            k = k,
            j = k - 1
        ));
    }
    text.push_str("static inline int fib(int x) { return x < 2 ? x : fib(x - 1) + fib(x - 2); }\n");
    text.push_str("void f(int n, double A[100], double B[100], int C[100])\n{\n#pragma scop\n  for (int i = 0; i < n; i++) {\n    B[i] = g12(A[i]);\n    C[i] = fib(i);\n  }\n#pragma endscop\n}\n");
    std::fs::write(&src, text).unwrap();
    let began = std::time::Instant::now();
    let out = Command::new(pencilc())
        .arg("--output-dir")
        .arg(&dir)
        .arg(&src)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", err);
    assert!(
        err.contains("bomb.c:19:12: error: call to `g12`"),
        "{}",
        err
    );
    assert!(began.elapsed().as_secs() < 20, "{:?}", began.elapsed());
}

/// The body of a function inlined into a region is translated with it,
/// so the C compiler's errors there are errors (E0002), as in the region:
/// `x % 2.5` must not become a kernel.
#[test]
fn an_inlined_function_is_checked_as_c() {
    let (status, err, path) = compile_file(
        "inline-invalid",
        "static inline double h(int x) { return x % 2.5; }\nvoid f(int n, double B[100]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    B[i] = h(i);\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.starts_with(&format!(
            "{}:1:42: error: the C compiler rejects this",
            path
        )),
        "{}",
        err
    );
}

/// A struct whose members are of different types is outside the model;
/// the error names the members as declared, an array member by its name
/// (an audit of issue 31 read `double v[0]` for `double v[1024]`, the
/// array's first place).
#[test]
fn structs_of_mixed_members_are_named_as_declared() {
    let (status, err, _) = compile_file(
        "mixed-struct",
        "#define N 1024\nstruct S { int n; double v[N]; };\nvoid f(int n, struct S *p, double r[1]) {\n  double t = 0;\n#pragma scop\n  for (int i = 0; i < n; i++)\n    t += p->v[i];\n  r[0] = t;\n#pragma endscop\n}\n",
    );
    assert_ne!(status, Some(0), "{}", err);
    assert!(err.contains("[E0111]"), "{}", err);
    assert!(
        err.contains("its members are of different types (`int n`, `double` elements of `v`)"),
        "{}",
        err
    );
}

/// A `reduction(min: s)` update through a function whose name only
/// contains `min` (`admin(s, x[i])`) is no minimum: the declared path and
/// the accumulations found in the code share one list of C's and PENCIL's
/// min/max functions (`scop::MIN_FUNCTIONS`); the declared one took any
/// name containing `min` and combined the other argument alone.
#[test]
fn a_declared_minimum_through_an_unknown_function_is_refused() {
    let (status, err, _) = compile_file(
        "admin-min",
        "double admin(double a, double b);\nvoid f(int n, double x[100], double r[1]) {\n  double s = 1e9;\n#pragma scop\n#pragma pencil independent reduction(min: s)\n  for (int i = 0; i < n; i++)\n    s = admin(s, x[i]);\n#pragma endscop\n  r[0] = s;\n}\n",
    );
    assert_ne!(status, Some(0), "{}", err);
    assert!(
        err.contains("this assignment is not a min update of it [E0106]"),
        "{}",
        err
    );
}

/// PENCIL's builtins called without a declaration have no prototype the C
/// compiler's check could hold the calls to (fuzz case 505171096: `max
/// max(0, 3)` is a call of `max` with one argument, which pencilc
/// translated into code that did not build): pencilc checks the count.
#[test]
fn builtins_called_with_the_wrong_number_of_arguments() {
    assert_diag(
        "builtin_arity",
        "  for (i = 0; i < n; i++)\n    B[i] = max(B[i]) + 1;",
        "E0002",
        7,
        "max",
    );
    assert_diag(
        "builtin_arity_stmt",
        "  for (i = 0; i < n; i++)\n    B[i] = imin(i, 3, 4);",
        "E0002",
        7,
        "imin",
    );
    let (status, err, _) = compile(
        "builtin_arity_right",
        "  for (i = 0; i < n; i++)\n    B[i] = max(i, 3) + floord(i, 2);",
    );
    assert_eq!(status, 0, "{}", err);
}

/// `bool` is `_Bool` in the program's own build (pencil.h includes
/// <stdbool.h> there), so a variable named `bool` does not build; the C
/// compiler's check of the input sees it the same way (fuzz case
/// 505174360: pencilc translated the region and wrote a host file that
/// did not build).
#[test]
fn a_variable_named_bool_is_refused_as_the_users_build_refuses_it() {
    let (status, err, _) = compile_file(
        "bool_name",
        "#include <pencil.h>\nvoid g(int n, float A[pencil_array 8], float B[pencil_array 8]) {\n  float bool = 2;\n  for (int i = 0; i < 8; i++)\n    B[i] = A[i] * bool;\n}\n",
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.contains(":3:9: error") && err.contains("[E0002]"),
        "{}",
        err
    );
}

/// A loop outside PENCIL's form deep in a nest (fuzz case 574145756: a
/// `double` iterator at depth 28): each enclosing loop read its body
/// again as a `while` loop after the inner loop's error, 2^depth times,
/// and pencilc ran for ever. Now the error of an inner loop is not the
/// enclosing loop's: the nest reads once, and the inner loop is a `while`
/// loop of its own.
#[test]
fn a_loop_outside_pencils_form_deep_in_a_nest_reads_once() {
    let mut nest = String::new();
    for d in 0..31 {
        if d == 27 {
            nest.push_str("for (double x = 0; x < 2; x++) ");
        } else {
            nest.push_str(&format!("for (int l{} = 0; l{} < 2; l{}++) ", d, d, d));
        }
    }
    nest.push_str("B[l0 + l30] = B[l0 + l30] + 1;");
    let dir = scratch("diag-deep-noncanonical");
    let src = dir.join("deep.c");
    std::fs::write(
        &src,
        format!(
            "void f(double B[64]) {{\n#pragma scop\n  {}\n#pragma endscop\n}}\n",
            nest
        ),
    )
    .unwrap();
    // (The model of 31 nested loops takes the fallbacks' time: 1 s each.)
    let mut child = Command::new(pencilc())
        .args(["--schedule-timeout", "1", "--output-dir"])
        .arg(&dir)
        .arg(&src)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            panic!("pencilc still reads the nest after 120 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    use std::io::Read;
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{}", err);
}

/// A struct's member array passed to a function with a summary (issue 33):
/// the summary's accesses cannot be put on the member's places, so the
/// call is an error, not a guess; a whole struct used as a value other
/// than in a copy is still one, and the hint lists a few of a large
/// struct's members, not all of them.
#[test]
fn member_arrays_are_call_arguments_only() {
    let head = "struct cell { int a[40][8]; int b[5]; };\nvoid touch(int a[8]) __attribute__((pencil_access(touch_summary)));\nvoid touch_summary(int a[8]) { __pencil_use(a[0]); }\nvoid touch(int a[8]) { a[0]++; }\n";
    assert_whole(
        "member-row-summary",
        &format!("{}void f(struct cell s[10]) {{\n#pragma scop\n  for (int i = 0; i < 10; i++)\n    touch(s[i].a[1]);\n#pragma endscop\n}}\n", head),
        "E0104",
        "8:11",
    );
    let (status, err, path) = compile_file(
        "member-whole-struct",
        &format!("{}void f(struct cell s[10], struct cell t[10]) {{\n#pragma scop\n  for (int i = 0; i < 10; i++)\n    s[i] = i > 2 ? t[i] : s[i];\n#pragma endscop\n}}\n", head),
    );
    assert_eq!(status, Some(1), "{}", err);
    assert!(err.starts_with(&format!("{}:8:", path)), "{}", err);
    assert!(
        err.contains("a[0][0], a[0][1]") && err.contains("(325 in all)"),
        "{}",
        err
    );
}

/// A cast of a call's argument to a pointer type is dropped only where it
/// changes no type (`programs::pointer_casts_that_change_no_type_are_dropped`);
/// one that changes the element type, or of a value whose type the parser
/// cannot tell, is an error at the cast that says which.
#[test]
fn pointer_casts_that_change_the_type_are_refused() {
    let head = "void foo(int a[static 1]);\n";
    for (name, decl, arg, says) in [
        (
            "cast-double",
            "double s;",
            "(int *) &s",
            "which points to `double`",
        ),
        (
            "cast-row",
            "int s[4][4];",
            "(int *) s",
            "cannot tell that `s` already is",
        ),
        (
            "cast-value",
            "int s;",
            "(int *) s",
            "cannot tell that `s` already is",
        ),
        (
            "cast-pointer-pointer",
            "int s;",
            "(int **) &s",
            "a cast to `int **`",
        ),
    ] {
        let text = format!(
            "{}void f(void) {{\n  {}\n#pragma scop\n  foo({});\n#pragma endscop\n}}\n",
            head, decl, arg
        );
        assert_whole(name, &text, "E0104", "5:8");
        let (_, err, _) = compile_file(name, &text);
        assert!(err.contains(says), "{}: {}", name, err);
    }
    // The same cast where it changes nothing compiles.
    let (status, err, _) = compile_file(
        "cast-same",
        "typedef int num;\nvoid foo(int a[static 1]);\nvoid f(int t[8]) {\n  int s;\n#pragma scop\n  foo((num *) &s);\n  foo((const int *) &t[3]);\n  foo((int *) t);\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
}

/// A call of a function of the file whose effects reach past its
/// arguments (a variable of the file, a `static` local, a function the
/// file does not define) keeps the region as the user's code, with a
/// warning at the call that says why.
#[test]
fn calls_with_effects_beyond_their_arguments_keep_the_region() {
    for (name, defs, why) in [
        (
            "effects-global",
            "int g;\nstatic void h(int a[4], int i) { a[i] = g++; }\n",
            "its body writes or passes on `g`",
        ),
        (
            "effects-static",
            "static void h(int a[4], int i) { static int t; a[i] = t++; }\n",
            "a `static` local",
        ),
        (
            "effects-extern",
            "static void h(int a[4], int i) { extern int g; a[i] = g++; }\n",
            "it declares `extern int g;`",
        ),
        (
            "effects-const-pointer",
            "const int *gp;\nstatic void h(int a[4], int i) { a[i] = gp[i]; }\n",
            "its body uses `gp`",
        ),
        (
            "effects-io",
            "#include <stdio.h>\nstatic void h(int a[4], int i) { printf(\"%d\", a[i]); }\n",
            "it calls `printf`",
        ),
    ] {
        let text = format!(
            "{}void f(int a[4]) {{\n#pragma scop\n  for (int i = 0; i < 4; i++)\n    h(a, i);\n#pragma endscop\n}}\n",
            defs
        );
        let (status, err, path) = compile_file(name, &text);
        assert_eq!(status, Some(0), "{}", err);
        assert!(
            err.contains(&format!("{}:", path)) && err.contains(why),
            "{}: {}",
            name,
            err
        );
        assert!(
            err.contains("the region keeps the original code [E0106]"),
            "{}",
            err
        );
    }
    // A variable of the file that the callee only reads and the region
    // does not write is no such effect; one the region writes is.
    let (status, err, _) = compile_file(
        "effects-read",
        "double g = 3;\nstatic void addg(double b[4], int i) { b[i] += g; }\nvoid f(double A[4]) {\n#pragma scop\n  for (int i = 0; i < 4; i++)\n    addg(A, i);\n#pragma endscop\n}\nvoid h(double A[4]) {\n#pragma scop\n  for (int i = 0; i < 4; i++) {\n    addg(A, i);\n    g = g + 1;\n  }\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    assert!(!err.contains(":6:5: warning"), "{}", err);
    assert!(
        err.contains(":12:5: warning: `addg` reads `g`, which the region writes"),
        "{}",
        err
    );
    // A constant of the file, C's math, and a call statement of a
    // function the user's file declares (PENCIL's rule: it touches what
    // its arguments pass, as in a region) are no such effect.
    let (status, err, _) = compile_file(
        "effects-none",
        "#include <math.h>\nconst double k = 2.0;\nvoid ext(double a[4]);\nstatic void h(double a[4], int i) { a[i] = sqrt(a[i]) * k; ext(a); }\nvoid f(double a[4]) {\n#pragma scop\n  for (int i = 0; i < 4; i++)\n    h(a, i);\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    assert!(!err.contains("may have effects"), "{}", err);
}

/// A library function called as a statement in a region (`putchar`,
/// `srand`: declared in a system header) may do input or output: with
/// PENCIL's rule alone (it touches what its arguments pass) the loop over
/// `putchar('0' + a[i])` was an OpenMP `parallel for` and printed its
/// digits in any order. The region keeps the user's code, with a warning
/// at the call. `memset` and C's math touch only what they get, and a
/// function the user declares follows PENCIL's rule as before.
#[test]
fn library_calls_with_effects_keep_the_region() {
    for (name, call) in [
        ("library-putchar", "putchar('0' + a[i]);"),
        ("library-srand", "srand(a[i]);"),
    ] {
        let text = format!(
            "#include <stdio.h>\n#include <stdlib.h>\nvoid f(int a[4]) {{\n#pragma scop\n  for (int i = 0; i < 4; i++)\n    {}\n#pragma endscop\n}}\n",
            call
        );
        let (status, err, path) = compile_file(name, &text);
        assert_eq!(status, Some(0), "{}", err);
        assert!(
            err.contains(&format!("{}:6:5: warning: `", path))
                && err.contains("a library function, declared in a system header")
                && err.contains("the region keeps the original code [E0106]"),
            "{}: {}",
            name,
            err
        );
    }
    let (status, err, _) = compile_file(
        "library-none",
        "#include <string.h>\n#include <math.h>\nvoid mine(double *p);\nvoid f(double a[4][4], double b[4]) {\n#pragma scop\n  for (int i = 0; i < 4; i++) {\n    memset(a[i], 0, 32);\n    b[i] = sqrt(b[i]);\n    mine(&b[i]);\n  }\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    assert!(!err.contains("may have effects"), "{}", err);
}

/// An array passed to a function whose summary does not use it (PPCG's
/// not_accessed.c): a kernel would have no buffer to pass on (the OpenCL
/// build failed on an `int` argument); the region keeps the user's code,
/// with a warning at the call that says why.
#[test]
fn arrays_a_summary_does_not_use_keep_the_region() {
    let (status, err, path) = compile_file(
        "summary-unused",
        "void copy_summary(int b[100], int a[100], int pos, int c[100]) { b[pos] = 0; int d = a[pos]; }\n__attribute__((pencil_access(copy_summary)))\nvoid copy(int b[100], int a[100], int pos, int c[100]);\nvoid f(int a[100], int b[100], int c[100]) {\n#pragma scop\n  for (int i = 0; i < 100; ++i)\n    copy(b, a, i, c);\n#pragma endscop\n}\n",
    );
    assert_eq!(status, Some(0), "{}", err);
    assert!(
        err.contains(&format!(
            "{}:7:5: warning: `copy`'s summary does not use `c`",
            path
        )),
        "{}",
        err
    );
}

/// Pointers to pointers (Rodinia's `int **wall`, `float **conn`) were
/// reported "not declared"; the error says what they are, where they are
/// declared, and what a region can use instead, for a parameter, a
/// global and a local before the region.
#[test]
fn pointers_to_pointers_are_named_as_such() {
    for (name, text, line) in [
        (
            "pp-param",
            "void f(int n, int *dst, int **wall)\n{\n#pragma scop\n  for (int i = 0; i < n; i++)\n    dst[i] = wall[1][i];\n#pragma endscop\n}\n",
            1,
        ),
        (
            "pp-global",
            "float **conn;\nvoid f(int n, float *dst)\n{\n#pragma scop\n  for (int i = 0; i < n; i++)\n    dst[i] = conn[i][0];\n#pragma endscop\n}\n",
            1,
        ),
        (
            "pp-local",
            "void f(int n, double *dst, double **w)\n{\n  double **wall = w;\n#pragma scop\n  for (int i = 0; i < n; i++)\n    dst[i] = wall[i][2];\n#pragma endscop\n}\n",
            3,
        ),
    ] {
        let (status, err, _) = compile_file(name, text);
        assert_eq!(status, Some(1), "{}", err);
        assert!(
            err.contains("is a pointer to pointers")
                && err.contains(&format!(", line {}), which a region cannot use", line))
                && err.contains("[E0111]")
                && err.contains("= help: pass the data as an array"),
            "{}: {}",
            name,
            err
        );
        assert!(!err.contains("is not declared"), "{}", err);
    }
}

/// Attributes after a declarator that change the type or run code
/// (`mode`, `cleanup`, `vector_size`) are not dropped for the parse (red
/// team: `int t __attribute__((mode(QI))) = A[i];` was accepted and the
/// 8-bit wrap-around lost): the region is refused as before.
#[test]
fn attributes_that_change_the_type_are_not_dropped() {
    for attr in ["mode(QI)", "cleanup(done)", "vector_size(16)"] {
        let (status, err, _) = compile(
            &format!("attr-{}", attr.split('(').next().unwrap()),
            &format!(
                "  for (i = 0; i < n; i++) {{\n    int t __attribute__(({})) = i;\n    B[i] = t;\n  }}",
                attr
            ),
        );
        assert_eq!(status, 1, "{}: {}", attr, err);
        assert!(err.contains("[E0002]"), "{}: {}", attr, err);
    }
}

/// A typedef whose attribute changes the type (`vector_size`, `mode`) is
/// not its base type: `typedef float v4 __attribute__((vector_size(16)));`
/// was read as `float`, and `B[i] = A[i] + A[i]` computed one lane of four
/// (red team; a silent wrong result in every version). Such a type is one
/// a region cannot use (E0111); an `aligned` typedef stays its base type.
#[test]
fn typedefs_that_change_the_type_are_not_their_base_type() {
    for (name, td, code) in [
        (
            "td-vector",
            "typedef float v4 __attribute__((vector_size(16)));",
            Some("E0111"),
        ),
        (
            "td-mode",
            "typedef int v4 __attribute__((mode(DI)));",
            Some("E0111"),
        ),
        (
            "td-aligned",
            "typedef float v4 __attribute__((aligned(8)));",
            None,
        ),
    ] {
        let text = format!(
            "{}\nvoid f(int n, v4 A[64], v4 B[64])\n{{\n#pragma scop\n  for (int i = 0; i < n; i++)\n    B[i] = A[i] + A[i];\n#pragma endscop\n}}\n",
            td
        );
        let (status, err, _) = compile_file(name, &text);
        match code {
            Some(c) => {
                assert_eq!(status, Some(1), "{}: {}", name, err);
                assert!(
                    err.contains(&format!("[{}]", c)) && err.contains("`v4`"),
                    "{}: {}",
                    name,
                    err
                );
            }
            None => assert_eq!(status, Some(0), "{}: {}", name, err),
        }
    }
}

/// A struct whose members carry attributes (`float y
/// __attribute__((aligned(16)));`, `int x __attribute__((packed));`) is
/// not its members one after another: pencilc said nothing and wrote a
/// host file whose check of the layout did not compile (red team). The
/// member access is now refused with the reason (E0111).
#[test]
fn structs_with_member_attributes_are_not_laid_out() {
    for (name, member) in [
        ("st-aligned", "float y __attribute__((aligned(16)));"),
        ("st-packed", "float y __attribute__((packed));"),
        ("st-leading", "__attribute__((aligned(32))) float y;"),
    ] {
        let text = format!(
            "struct P {{ float x; {} }};\nvoid f(int n, struct P A[8])\n{{\n#pragma scop\n  for (int i = 0; i < n; i++)\n    A[i].y = A[i].x + 1;\n#pragma endscop\n}}\n",
            member
        );
        let (status, err, _) = compile_file(name, &text);
        assert_eq!(status, Some(1), "{}: {}", name, err);
        assert!(
            err.contains("[E0111]") && err.contains("declared with attributes"),
            "{}: {}",
            name,
            err
        );
    }
}

/// A parameter an old-style definition names but does not declare is an
/// `int` (C89's implicit `int`, which C compilers still accept with a
/// warning): the region reads it ("`n` is not declared" before), and
/// pencilc passes on the C compiler's complaint as a warning.
#[test]
fn old_style_parameters_without_declarations_are_int() {
    let text = "void f(a, n)\ndouble *a;\n{\n#pragma scop\n  for (int i = 0; i < n; i++)\n    a[i] = a[i] * 2;\n#pragma endscop\n}\n";
    let (status, err, _) = compile_file("kr-implicit-int", text);
    assert_eq!(status, Some(0), "{}", err);
    assert!(!err.contains("E0108"), "{}", err);
}

/// Initializer lists pencilc does not lower say which part it refuses:
/// designators, more values than elements, a list for a scalar, a list
/// after values that began a row without braces.
#[test]
fn initializer_lists_that_are_not_lowered_say_why() {
    for (name, decl, why) in [
        (
            "init-designator",
            "double z[3] = {[1] = 2};",
            "designated initializers",
        ),
        (
            "init-too-many",
            "double z[2] = {1, 2, 3};",
            "more initializers than the array has elements",
        ),
        (
            "init-scalar",
            "double z = {1};",
            "braced initializer of the scalar",
        ),
        (
            "init-midrow",
            "double z[2][3] = {1, {2, 3}};",
            "a braced list after values",
        ),
    ] {
        let (status, err, _) = compile(
            name,
            &format!(
                "  for (i = 0; i < n; i++) {{\n    {}\n    B[i] = z{};\n  }}",
                decl,
                if decl.contains("][") {
                    "[1][1]"
                } else if decl.contains('[') {
                    "[1]"
                } else {
                    ""
                }
            ),
        );
        assert_eq!(status, 1, "{}: {}", name, err);
        assert!(
            err.contains("[E0106]") && err.contains(why),
            "{}: {}",
            name,
            err
        );
    }
}

/// A `switch` pencilc does not lower says why: a case that falls through
/// into the next label, a `break` inside an `if` after which more than 16
/// statements would need copying into both branches.
#[test]
fn switches_that_are_not_lowered_say_why() {
    for (name, body, why) in [
        (
            "switch-fallthrough",
            "  for (i = 0; i < n; i++)\n    switch (idx[i]) {\n      case 0: B[i] = 1;\n      case 1: B[i] += 2; break;\n    }"
                .to_string(),
            "falls through",
        ),
        (
            "switch-early-break",
            format!(
                "  for (i = 0; i < n; i++)\n    switch (idx[i]) {{\n      case 0: if (B[i] > 0) {{ if (B[i] > 1) break; }} {} break;\n      default: B[i] = 2;\n    }}",
                "B[i] += 1; ".repeat(17)
            ),
            "leaves the `switch` before the end of its case",
        ),
    ] {
        let (status, err, _) = compile(name, &body);
        assert_eq!(status, 1, "{}: {}", name, err);
        assert!(err.contains("[E0105]") && err.contains(why), "{}: {}", name, err);
    }
}

/// A typedef declared inside a function hides a file-scope one of its
/// name there: pencilc, which reads typedefs at file scope, took the
/// file's (`typedef int real_t;` in the function, `typedef float real_t;`
/// at file scope: `real_t s = i; s = s / 2;` kept halves, a silent wrong
/// result in every parallel version; an array typedef's extents were the
/// file's, and a private `row_t t` too small). Such a name is refused
/// where a region uses it (E0111), naming the typedef.
#[test]
fn typedefs_inside_functions_are_not_taken_for_the_files() {
    for (name, file_td, local_td, stmt) in [
        (
            "td-local-scalar",
            "typedef float real_t;",
            "typedef int real_t;",
            "real_t s = i; s = s / 2; B[i] = s * 4;",
        ),
        (
            "td-local-array",
            "typedef double real_t[2];",
            "typedef double real_t[3];",
            "real_t s; s[2] = i; B[i] = s[2];",
        ),
        (
            "td-local-cast",
            "typedef float real_t;",
            "typedef int real_t;",
            "B[i] = (real_t)(i / 3.0);",
        ),
    ] {
        let text = format!(
            "{}\nvoid f(int n, double B[64])\n{{\n  {}\n#pragma scop\n  for (int i = 0; i < n; i++) {{\n    {}\n  }}\n#pragma endscop\n}}\n",
            file_td, local_td, stmt
        );
        let (status, err, _) = compile_file(name, &text);
        assert_eq!(status, Some(1), "{}: {}", name, err);
        assert!(
            err.contains("[E0111]")
                && err.contains("`real_t` is a typedef declared inside a function"),
            "{}: {}",
            name,
            err
        );
    }
}

/// `sizeof` of what pencilc cannot size without doubt (a struct, an
/// expression, a variable-length array, a pointer to rows, an abstract
/// declarator other than extents or one `*`) is refused at the `sizeof`,
/// never guessed.
#[test]
fn sizeof_of_what_is_not_sized_says_so() {
    for (k, e) in [
        "sizeof(struct P)",
        "sizeof(x + 1)",
        "sizeof vla",
        "sizeof(pr)",
        "sizeof(int (*)[3])",
        "sizeof(int[n])",
    ]
    .iter()
    .enumerate()
    {
        let text = format!(
            "struct P {{ int x, y; }};\nint main(int argc, char **argv) {{\n  int n = argc + 3; double vla[n]; long out[4]; int x = 1;\n  int u[] = {{1, 2, 3}};\n  double (*pr)[6] = (double (*)[6]) vla;\n#pragma scop\n  out[0] = {};\n#pragma endscop\n  return (int)out[0];\n}}\n",
            e
        );
        let name = format!("sizeof-{}", k);
        let (status, err, _) = compile_file(&name, &text);
        assert_eq!(status, Some(1), "{}: {}", e, err);
        assert!(
            err.contains(&format!(
                "{}.c:7:12: error: pencilc cannot size `{}` in a region [E0106]",
                name, e
            )),
            "{}: {}",
            e,
            err
        );
    }
}

/// `double *rows[4]` is an array of pointers, which a region cannot
/// index as one array. Before, the declarator was read as `double
/// (*rows)[4]`, a pointer to rows: with in-bounds subscripts the kernels
/// wrote doubles over the pointers (a wrong result on fakecuda at
/// bdf2cdb).
#[test]
fn arrays_of_pointers_are_not_pointers_to_rows() {
    let text = "int main(void) {\n  double a[4][4], b[16];\n  double *rows[4];\n  for (int i = 0; i < 4; i++) rows[i] = &b[4 * (3 - i)];\n#pragma scop\n  for (int i = 0; i < 4; i++)\n    for (int j = 0; j < 4; j++)\n      rows[i][j] = a[i][j] * 2;\n#pragma endscop\n  return (int)b[0];\n}\n";
    let (status, err, _) = compile_file("array-of-pointers", text);
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.contains("array-of-pointers.c:8:7: error: `rows` is an array of pointers (`double *rows[4]`, line 3)")
            && err.contains("[E0111]"),
        "{}",
        err
    );
}

/// A typedef's pointers count as the declarator's: pointers to pointers
/// and arrays of pointers through a typedef are refused as such, with
/// the element type in the hint; a region's own pointer declared through
/// a typedef is refused as `double *z` is; a typedef pencilc does not
/// read (a pointer to rows) is named, not taken for a scalar.
#[test]
fn pointer_typedefs_are_refused_where_pointers_are() {
    for (name, head, want) in [
        (
            "ptd-pp",
            "typedef double **dpp;\nstatic void f(int n, dpp a) {",
            "4:31: error: `a` is a pointer to pointers (`dpp a`, line 2)",
        ),
        (
            "ptd-array",
            "typedef double *dp;\nstatic void f(int n) { dp a[4];",
            "4:31: error: `a` is an array of pointers (`dp a[4]`, line 2)",
        ),
        (
            "ptd-ptr",
            "typedef double *dp;\nstatic void f(int n, dp *a) {",
            "4:31: error: `a` is a pointer to pointers (`dp *a`, line 2)",
        ),
        (
            "ptd-rows",
            "typedef double (*rowp)[8];\nstatic void f(int n, rowp a) {",
            "4:31: error: `a` has type `rowp`, which is not a scalar number type [E0111]",
        ),
    ] {
        let text = format!(
            "{}\n#pragma scop\n  for (int i = 0; i < n; i++) a[i][0] = 1;\n#pragma endscop\n}}\n",
            head
        );
        let (status, err, _) = compile_file(name, &text);
        assert_eq!(status, Some(1), "{}: {}", name, err);
        assert!(
            err.contains(&format!("{}.c:{}", name, want)),
            "{}: {}",
            name,
            err
        );
        if name != "ptd-rows" {
            assert!(
                err.contains("[E0111]") && err.contains("(`double a[n][m]`)"),
                "{}: {}",
                name,
                err
            );
        }
    }
    let text = "typedef double *dptr;\nvoid g(int n, double *x, double *y) {\n#pragma scop\n  for (int i = 0; i < n; i++) {\n    dptr z = x;\n    z[i] = y[i];\n  }\n#pragma endscop\n}\n";
    let (status, err, _) = compile_file("ptd-local", text);
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.contains(
            "ptd-local.c:5:10: error: pointer variables cannot be declared in a region [E0104]"
        ),
        "{}",
        err
    );
}

/// A `do { } while (0)` left by a `break` inside an `if` whose branches
/// both go on, with more after it than pencilc copies into both, is
/// refused at the `do`, saying so.
#[test]
fn do_while_zero_with_too_much_after_its_break_says_so() {
    let rest: String = (0..17)
        .map(|k| format!("    B[i] = B[i] + {};\n", k))
        .collect();
    let text = format!(
        "void f(int n, double B[n]) {{\n#pragma scop\n  for (int i = 0; i < n; i++)\n  do {{\n    if (B[i] > 0) {{ if (B[i] > 5) break; }} else B[i] = 1;\n{}  }} while (0);\n#pragma endscop\n}}\n",
        rest
    );
    let (status, err, _) = compile_file("do-zero-break", &text);
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.contains("do-zero-break.c:4:3: error: this `do ... while` leaves by a `break` or `continue` with too much after it to move into branches [E0105]"),
        "{}",
        err
    );
}

/// A companion variable that the body changes, a first value that reads
/// what the body changes, a third variable, or a step that is not a
/// constant: the loop is refused, saying which.
#[test]
fn companions_that_are_not_functions_of_the_iterator_say_why() {
    for (k, (body, want)) in [
        (
            "for (int i = 0, j = 9; i < n; i++, j--) { B[i] = j; j = j + 1; }",
            "3:19: error: loop is not in canonical form: `j` is stepped beside `i`, and the body changes `j` [E0107]",
        ),
        (
            "for (int i = 0, j = m; i < n; i++, j--) { B[i] = j; m = m + 1; }",
            "3:19: error: loop is not in canonical form: `j` is stepped beside `i`, and the body changes `m`, which the first values read [E0107]",
        ),
        (
            "for (int i = 0, j = 1, k = 2; i < n; i++, j--) B[i] = j;",
            "3:8: error: loop is not in canonical form: it declares more than two variables [E0107]",
        ),
        (
            "for (int i = 0, j = 1; i < n; i++, j *= 2) B[i] = j;",
            "3:33: error: loop is not in canonical form: the increment must step `j` by a constant [E0107]",
        ),
    ]
    .iter()
    .enumerate()
    {
        let text = format!(
            "void f(int n, int m, double B[n]) {{\n#pragma scop\n  {}\n#pragma endscop\n}}\n",
            body
        );
        let name = format!("companion-{}", k);
        let (status, err, _) = compile_file(&name, &text);
        assert_eq!(status, Some(1), "{}: {}", body, err);
        assert!(err.contains(&format!("{}.c:{}", name, want)), "{}: {}", body, err);
    }
}

/// `memcpy`, `memmove` and `memset` where the elements they reach are
/// not certain are refused at the call, saying why.
#[test]
fn memory_calls_that_are_not_element_loops_say_why() {
    for (k, (call, want)) in [
        (
            "memcpy(A[0], F, m * sizeof(float));",
            "`memcpy` copies `float` elements into `double` ones, which pencilc does not reinterpret",
        ),
        (
            "memset(A[0], 1, m * sizeof(double));",
            "`memset` sets each byte to `1`, which is no value of `double` element by element",
        ),
        (
            "memcpy(A[0], B[0], 5);",
            "`memcpy` copies `5` bytes, which pencilc cannot see to be a whole number of `double` elements (8 bytes each)",
        ),
        (
            "memmove(A[0], A[1], m * sizeof(double));",
            "`memmove` moves elements between `A[0]` and `A[1]`, parts of one array whose ranges may overlap",
        ),
        (
            "memcpy(&A[1][2], &B[0][5], 3 * sizeof(double));",
            "`memcpy` covers `3 * sizeof(double)` bytes from `&A[1][2]`, which pencilc cannot show to be whole rows of the arrays or to stay inside one row",
        ),
        (
            "memcpy(A[1], B[1], (long)A[0][0] * sizeof(double));",
            "`memcpy` has a count or an address that reads the array it writes (`A[1]`)",
        ),
    ]
    .iter()
    .enumerate()
    {
        let text = format!(
            "#include <string.h>\nvoid f(int n, int m, double A[n][m], double B[n][m], float F[m]) {{\n#pragma scop\n  {}\n#pragma endscop\n}}\n",
            call
        );
        let name = format!("memcall-{}", k);
        let (status, err, _) = compile_file(&name, &text);
        assert_eq!(status, Some(1), "{}: {}", call, err);
        assert!(
            err.contains(&format!("{}.c:4:3: error: {}", name, want)) && err.contains("[E0106]"),
            "{}: {}",
            call,
            err
        );
    }
}

/// An array typedef of a pointer typedef (`typedef dptr prow[4];`) is an
/// array of pointers: unresolved, named where a region uses it. It was
/// read as `double prow[][4]`, a pointer to rows (at bc49910: doubles
/// written over the pointers, and a crash where it was a parameter). A
/// loop that assigns two variables declared outside it says why it is
/// refused.
#[test]
fn arrays_of_pointer_typedefs_and_two_outer_iterators_say_why() {
    let text = "typedef double *dptr;\ntypedef dptr prow[4];\nvoid f(prow rows) {\n#pragma scop\n  for (int i = 0; i < 4; i++)\n    for (int j = 0; j < 4; j++)\n      rows[i][j] = rows[i][j] * 2;\n#pragma endscop\n}\n";
    let (status, err, _) = compile_file("ptd-prow", text);
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.contains("ptd-prow.c:7:7: error: `rows` has type `prow`, which is not a scalar number type [E0111]"),
        "{}",
        err
    );
    let text = "void f(int n, double B[n]) {\n  int i, j;\n#pragma scop\n  for (i = 0, j = n - 1; i < n; i++, j--) B[i] = j;\n#pragma endscop\n}\n";
    let (status, err, _) = compile_file("two-outer", text);
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.contains("two-outer.c:4:8: error: loop is not in canonical form: the initializer assigns two variables, and the second, declared outside the loop, keeps its last value after it"),
        "{}",
        err
    );
}

/// `#pragma scop` outside a function (69 of Pluto's 144 tests write it
/// so) is a warning at the pragma, saying why nothing is translated; at
/// bc49910 only "no `#pragma scop` region", without a place, whose hint
/// asked for the pragmas that were there.
#[test]
fn scop_pragmas_outside_functions_are_named() {
    let text = "int N; double a[10], b[10]; int i;\nvoid f(void) { }\n#pragma scop\nvoid g(void) { }\n#pragma endscop\n";
    let (status, err, _) = compile_file("filescope-scop", text);
    assert_eq!(status, Some(0), "{}", err);
    assert!(
        err.contains("filescope-scop.c:3:1: warning: `#pragma scop` outside a function: pencilc translates regions inside function bodies, and copies this one unchanged [E0112]"),
        "{}",
        err
    );
}

/// `A[i, k]` (Pluto's matmul-seq2) is valid C, the comma operator: it is
/// refused as such, not as "syntax error ... fix it as your C compiler
/// asks", which the C compiler does not.
#[test]
fn comma_operators_in_subscripts_are_named() {
    let text = "void f(int n, double A[n], double C[n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    for (int k = 0; k < n; k++)\n      C[i] = A[i, k];\n#pragma endscop\n}\n";
    let (status, err, _) = compile_file("comma-subscript", text);
    assert_eq!(status, Some(1), "{}", err);
    assert!(
        err.contains("comma-subscript.c:5:16: error: a comma operator in a subscript (`A[i, k]`, which C reads as `A[k]`) is not translated [E0106]"),
        "{}",
        err
    );
}

/// A variable declared at the top of a region and used after it: the
/// region keeps the original code, saying which name and where (the host
/// file did not build before).
#[test]
fn names_declared_in_a_region_and_used_after_it_are_named() {
    let text = "double f(int n, double A[n]) {\n#pragma scop\n  int i;\n  for (i = 0; i < n; i++)\n    A[i] = 0;\n#pragma endscop\n  return i;\n}\n";
    let (status, err, _) = compile_file("used-after", text);
    assert_eq!(status, Some(0), "{}", err);
    assert!(
        err.contains("used-after.c:7:10: warning: `i` is declared inside the region (line 3) and used after it: pencilc puts each version of the region in a block of its own, where the declaration's scope would end; the region in `f` keeps the original code [E0106]"),
        "{}",
        err
    );
    assert!(
        err.contains("help: declare `i` before `#pragma scop`"),
        "{}",
        err
    );
}

/// pet's empty regions (nothing, `;`, `{ ; }`, a `const` local): the
/// region stays as it is, saying so; each was an internal error (E0201,
/// "please report it") in stage `valid` before its fallback.
#[test]
fn regions_with_nothing_to_compile_say_so() {
    for (k, body) in ["", "  ;\n", "  {\n    ;\n  }\n", "  const int a = 3;\n"]
        .iter()
        .enumerate()
    {
        let text = format!(
            "void foo(void)\n{{\n#pragma scop\n{}#pragma endscop\n}}\n",
            body
        );
        let (status, err, _) = compile_file(&format!("empty-{}", k), &text);
        assert_eq!(status, Some(0), "{}", err);
        assert!(!err.contains("E0201"), "{}", err);
        assert!(
            err.contains(&format!("empty-{}.c:3:1: warning: the region in `foo` has no statement to compile; it stays as it is [E0106]", k)),
            "{}",
            err
        );
    }
}

/// A loop that never ends for some values of a parameter outside the
/// region's context (pet's generic_condition: `min(i, N)` is 0 at i = 0
/// where N >= 0, never 0 where N < 0): the dependence analysis reads the
/// instances where the context holds, where the domain is bounded; it
/// was an internal error ("unbounded optimum") and the region fell back
/// to the host.
#[test]
fn loops_unbounded_outside_the_context_are_no_internal_error() {
    let text = "static inline int min(int a, int b) { return a < b ? a : b; }\nvoid foo(int N, int *out)\n{\n  int i;\n  int a = -1;\n#pragma scop\n  for (i = 0; min(i, N); ++i)\n    a = 5;\n#pragma endscop\n  out[0] = a;\n  out[1] = i;\n}\n";
    let (status, err, _) = compile_file("generic-condition", text);
    assert_eq!(status, Some(0), "{}", err);
    assert!(!err.contains("E0201"), "{}", err);
}

/// An assumption on a variable the region assigns (pet's assume5:
/// `__pencil_assume(k >= 0); k = -1;`) says so, not "not an affine fact".
#[test]
fn assumptions_on_assigned_values_name_the_assignment() {
    let text = "int f(int k)\n{\n  int a;\n#pragma scop\n  __pencil_assume(k >= 0);\n  k = -1;\n  a = k % 16;\n#pragma endscop\n  return a + k;\n}\n";
    let (status, err, _) = compile_file("assume-assigned", text);
    assert_eq!(status, Some(0), "{}", err);
    assert!(
        err.contains("assume-assigned.c:5:19: warning: `__pencil_assume(k >= 0)` is ignored: it reads `k`, which the region assigns [E0103]"),
        "{}",
        err
    );
}

/// A name the region declares that the code after it only declares
/// again, in a block or a loop of its own, is not used after the region:
/// the region is compiled, without the warning of one that is.
#[test]
fn names_declared_again_after_a_region_are_other_variables() {
    let text = "void f(int n, int A[50])\n{\n#pragma scop\n  int t = 3;\n  for (int i = 0; i < n; i++) A[i] += t;\n#pragma endscop\n  {\n    int t = 9;\n    A[0] = t;\n  }\n  for (int t = 0; t < 2; t++) A[t] += 1;\n}\n";
    let (status, err, _) = compile_file("declared-again", text);
    assert_eq!(status, Some(0), "{}", err);
    assert!(!err.contains("used after it"), "{}", err);
    let (_, err, _) = compile_file(
        "declared-again-used",
        &text.replace(
            "  for (int t = 0; t < 2; t++) A[t] += 1;\n",
            "  A[1] = t;\n",
        ),
    );
    assert!(err.contains("declared-again-used.c:11:10: warning: `t` is declared inside the region (line 4) and used after it"), "{}", err);
}

/// A region whose loops only count (`while (k > 0) k -= 3;`) says that,
/// not that it has no statement; a summary function that passes its
/// array to a function with effects, called with a row, is no error
/// (the row's `A` was read as `A[i]` of the caller's 2-d array: E0104).
#[test]
fn regions_that_only_count_and_summaries_passing_rows_compile() {
    let text = "void g(int n, int *out)\n{\n  int k;\n#pragma scop\n  k = n;\n  while (k > 0) k -= 3;\n#pragma endscop\n  *out = k;\n}\n";
    let (status, err, _) = compile_file("only-counts", text);
    assert_eq!(status, Some(0), "{}", err);
    assert!(err.contains("only-counts.c:4:1: warning: the region in `g` has no statement besides the control of its loops; it stays as it is [E0106]"), "{}", err);
    let text = "static int calls;\nint maybe(int n, int A[static n]) { return calls++ & 1; }\nvoid set_summary(int n, int A[static n])\n{\n  if (maybe(n, A))\n    A[0] = 0;\n}\n__attribute__((pencil_access(set_summary)))\nvoid set(int n, int A[static n]);\nvoid set(int n, int A[static n]) { A[0] = n; }\nvoid foo(int n, int A[static n][n])\n{\n#pragma scop\n  for (int i = 0; i < n; ++i)\n    set(n, A[i]);\n#pragma endscop\n}\n";
    let (status, err, _) = compile_file("summary-row", text);
    assert_eq!(status, Some(0), "{}", err);
    assert!(!err.contains("error"), "{}", err);
}

/// A linearised subscript warns of wrap-around only where C computes it
/// in an unsigned type narrower than 64 bits: `i * m + j` with `size_t i,
/// j` and `unsigned m` is `size_t` arithmetic (`m` converts first), and
/// is delinearised (a red-team round found it warned about as `unsigned
/// int`, and the region kept on the host); with `unsigned i, j` it is
/// `unsigned int` arithmetic, modulo 2^32, and the warning names that.
#[test]
fn only_narrow_unsigned_arithmetic_is_said_to_wrap() {
    let text = |it: &str| {
        format!(
            "#include <stddef.h>
void f(size_t n, unsigned m, const float *in, float *out)
{{
#pragma scop
  for ({it} i = 0; i < n; i++)
    for ({it} j = 0; j < m; j++)
      out[i * m + j] = in[i * m + j] * 2.0f;
#pragma endscop
}}
"
        )
    };
    let (status, err, _) = compile_file("wrap-size_t", &text("size_t"));
    assert_eq!(status, Some(0), "{}", err);
    assert!(!err.contains("E0101") && !err.contains("E0113"), "{}", err);
    let (status, err, _) = compile_file("wrap-unsigned", &text("unsigned"));
    assert_eq!(status, Some(0), "{}", err);
    assert!(
        err.contains("it is computed in `unsigned int`, modulo 2^32") && err.contains("[E0101]"),
        "{}",
        err
    );
}
