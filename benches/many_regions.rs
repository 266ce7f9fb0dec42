//! Parse time of a file of many regions (`cargo bench --bench
//! many_regions`): generated code puts hundreds of kernels in one file and
//! calls them all from one `main`. The front end's file-wide questions
//! (the values calls pass, arrays dead after a call) once walked the
//! whole tree for each region and array: 300 kernels took 30 s to parse.
//! Target: parse time linear in the number of kernels, and 300 kernels
//! parsed in under 2 s.

use pencilc::front::{parse_file, preprocess, CppOptions};
use std::time::{Duration, Instant};

mod common;

/// A file of `k` static kernels of four arrays each, all called from one
/// `main` that allocates, fills and frees their arrays.
fn program(k: usize) -> String {
    let mut out = vec![
        "#include <stdlib.h>".to_string(),
        "#define N 64".to_string(),
    ];
    for i in 0..k {
        out.push(format!(
            "static void k{i}(int n, double A[N][N], double B[N][N], double C[N][N], double D[N])
{{
#pragma scop
  for (int i = 0; i < n; i++) {{
    D[i] = 0;
    for (int j = 0; j < n; j++) {{ B[i][j] = A[i][j] * {i}.0; C[i][j] = B[i][j] + A[j][i]; D[i] += C[i][j]; }}
  }}
#pragma endscop
}}"
        ));
    }
    out.push("int main(void) {\n  double s = 0;".to_string());
    for i in 0..k {
        out.push(format!(
            "  double (*a{i})[N] = malloc(sizeof(double) * N * N), (*b{i})[N] = malloc(sizeof(double) * N * N);
  double (*c{i})[N] = malloc(sizeof(double) * N * N), *d{i} = malloc(sizeof(double) * N);
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) a{i}[i][j] = i + j;
  k{i}(N, a{i}, b{i}, c{i}, d{i});
  s += d{i}[3];
  free(a{i}); free(b{i}); free(c{i}); free(d{i});"
        ));
    }
    out.push("  return s > 0;\n}".to_string());
    out.join("\n")
}

fn main() {
    let dir = common::root().join("target/bench-many-regions");
    std::fs::create_dir_all(&dir).unwrap();
    println!("{:<10} {:>12} {:>10}", "kernels", "parse ms", "regions");
    let mut per_kernel = Vec::new();
    for k in [100, 300] {
        let path = dir.join(format!("many_{}.c", k));
        std::fs::write(&path, program(k)).unwrap();
        let pp = preprocess(&path, &CppOptions::default(), None).expect("preprocess");
        let mut times = Vec::new();
        let mut regions = 0;
        for _ in 0..3 {
            let t = Instant::now();
            regions = parse_file(&pp, Duration::from_secs(600))
                .expect("parse")
                .regions
                .len();
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        let ms = common::median(times).unwrap();
        println!("{:<10} {:>12.1} {:>10}", k, ms, regions);
        per_kernel.push(ms / k as f64);
        if k == 300 && ms > 2000.0 {
            println!(
                "TARGET MISSED: 300 kernels parsed in {:.0} ms (target: under 2 s)",
                ms
            );
        }
    }
    if per_kernel[1] > 2.0 * per_kernel[0] {
        println!(
            "TARGET MISSED: {:.2} ms per kernel at 300 against {:.2} at 100 (target: linear)",
            per_kernel[1], per_kernel[0]
        );
    }
}
