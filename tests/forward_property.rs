//! Scalar forwarding (`scop::forward`) on random programs: chains
//! `w = e; ... w op= ...; T = g(w)` in loop nests, with the element `T`
//! sometimes read or written between the start and the end, stores that
//! do not always follow the start, two stores of one value, another type,
//! a scalar live after the region. `PENCILC_FORWARD=always` forwards
//! wherever `scop::forward` allows it (the GPU model chooses it rarely on
//! programs this small), and every target and version must print what the
//! sequential program prints, digit for digit (`--reductions exact`).
//! Both answers must come up: some regions forwarded, some refused.
//!
//! `PENCILC_FORWARD_FILES` (default 6) files of 8 regions each;
//! `PENCILC_FORWARD_SEED` picks another family.

mod common;
use common::*;
use std::fmt::Write;
use std::process::Command;

/// A small deterministic generator (64-bit LCG, high bits).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// One region in function `f<k>`: its text and whether `w` is returned.
fn region(rng: &mut Rng, k: usize) -> String {
    let ty = if rng.chance(85) {
        "double"
    } else {
        rng.pick(&["float", "int"])
    };
    let returned = rng.chance(10);
    let two = rng.chance(70);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "static {} f{}(int n) {{\n  {} w = 0;\n#pragma scop",
        if returned { "double" } else { "void" },
        k,
        ty
    );
    let (init, k_bounds, terms, targets, guards): (
        &[&str],
        &[(&str, &str)],
        &[&str],
        &[&str],
        &[&str],
    ) = if two {
        let (lo, hi) = *[("0", "i"), ("i", "n"), ("0", "n")]
            .get((rng.next() % 3) as usize)
            .unwrap();
        let _ = writeln!(
            s,
            "  for (int i = 0; i < n; i++)\n    for (int j = {}; j < {}; j++) {{",
            lo, hi
        );
        (
            &["A[i][j]", "B[j]", "1.0", "A[j][i] * 0.5", "C[i] + A[i][j]"],
            &[("0", "j"), ("0", "i"), ("j", "n"), ("0", "n")],
            &[
                "A[i][k] * A[k][j]",
                "A[k][j] * 0.25",
                "B[k]",
                "A[i][j]",
                "A[j][k] * A[k][i]",
                "C[k] * 0.5",
            ],
            &["A[i][j]", "A[j][i]", "B[i]", "B[j]", "C[i]"],
            &["j % 3 != 1", "j > 0"],
        )
    } else {
        let _ = writeln!(s, "  for (int i = 0; i < n; i++) {{");
        (
            &["A[i][i]", "B[i]", "1.0", "C[i] * 2.0"],
            &[("0", "i"), ("i", "n"), ("0", "n")],
            &["A[i][k] * B[k]", "B[k] * 0.25", "A[k][i]", "B[i]", "C[k]"],
            &["B[i]", "C[i]", "A[i][i]", "A[i][0]"],
            &["i % 3 != 1", "i > 1"],
        )
    };
    let ind = if two { "      " } else { "    " };
    let _ = writeln!(s, "{}w = {};", ind, rng.pick(init));
    let (klo, khi) = k_bounds[(rng.next() % k_bounds.len() as u64) as usize];
    let cond = rng.pick(&["", "", "if (k % 2 == 0) ", "if (k > 1) "]);
    let op = rng.pick(&["-=", "+="]);
    let term = rng.pick(terms);
    let update = if rng.chance(20) {
        format!("w = w * 0.5 {} {};", &op[..1], term)
    } else {
        format!("w {} {};", op, term)
    };
    if !rng.chance(20) {
        let _ = writeln!(
            s,
            "{}for (int k = {}; k < {}; k++)\n{}  {}{}",
            ind, klo, khi, ind, cond, update
        );
    }
    let target = rng.pick(targets);
    let value = rng.pick(&["w", "w / (2.0 + A[i][i] * A[i][i])", "w * 0.5 + 1.0"]);
    match rng.next() % 10 {
        0 => {
            let _ = writeln!(s, "{}C[i] = C[i] + w;", ind);
        }
        1 => {
            let _ = writeln!(s, "{}B[0] = w;", ind);
        }
        _ => {}
    }
    let guard = if rng.chance(25) {
        format!("if ({}) ", rng.pick(guards))
    } else {
        String::new()
    };
    let _ = writeln!(s, "{}{}{} = {};", ind, guard, target, value);
    let _ = writeln!(s, "{}}}", if two { "    " } else { "  " });
    let _ = writeln!(s, "#pragma endscop");
    if returned {
        let _ = writeln!(s, "  return w;");
    }
    let _ = writeln!(s, "}}\n");
    s
}

fn program(rng: &mut Rng, regions: usize) -> String {
    let mut s = String::from(
        "#include <stdio.h>\n#define N 11\nstatic double A[N][N], B[N], C[N];\n\nstatic void init(void) {\n  for (int i = 0; i < N; i++) {\n    for (int j = 0; j < N; j++)\n      A[i][j] = (double)((i * 7 + j * 3) % 11) / 8 - 0.5 + (i == j ? 2 : 0);\n    B[i] = (double)(i % 5) / 4;\n    C[i] = (double)(i % 3) - 1;\n  }\n}\n\nstatic double sum(void) {\n  double s = 0;\n  for (int i = 0; i < N; i++) {\n    for (int j = 0; j < N; j++)\n      s += A[i][j] * ((i + 2 * j) % 7 + 1);\n    s += B[i] * (i % 5 + 1) + C[i] * (i % 3 + 2);\n  }\n  return s;\n}\n\n",
    );
    let mut calls = String::new();
    for k in 0..regions {
        s.push_str(&region(rng, k));
        let _ = writeln!(
            calls,
            "  init();\n  f{}(N - {});\n  printf(\"f{} %.17g\\n\", sum());",
            k,
            k % 3,
            k
        );
    }
    s.push_str("int main(void) {\n");
    s.push_str(&calls);
    s.push_str("  return 0;\n}\n");
    s
}

#[test]
fn forwarded_scalars_compute_what_the_program_computes() {
    let files: usize = std::env::var("PENCILC_FORWARD_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    let seed: u64 = std::env::var("PENCILC_FORWARD_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20261127);
    // Every pencilc this test starts forwards wherever it may.
    std::env::set_var("PENCILC_FORWARD", "always");
    let mut rng = Rng(seed);
    let (mut forwarded, mut regions) = (0, 0);
    for f in 0..files {
        let dir = scratch(&format!("forward-property-{}", f));
        let src = dir.join("p.c");
        std::fs::write(&src, program(&mut rng, 8)).unwrap();
        regions += 8;
        let extra = ["--reductions", "exact", "--device", "nvidia-h100"];
        check_source(&src, &dir, &extra);
        let out = run(
            Command::new(pencilc())
                .args(["-v", "--target", "opencl"])
                .args(extra)
                .arg("-o")
                .arg(dir.join("v_host.c"))
                .arg(&src),
            "pencilc -v",
        );
        let log = String::from_utf8_lossy(&out.stderr);
        forwarded += log.matches("`w` keeps its values in").count();
    }
    eprintln!(
        "forward property: {} of {} regions forwarded, all versions correct",
        forwarded, regions
    );
    assert!(
        forwarded * 5 >= regions && forwarded * 10 <= regions * 9,
        "{} of {} regions forwarded: the programs must exercise both answers",
        forwarded,
        regions
    );
}
