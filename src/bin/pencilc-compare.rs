//! Compares two PolyBench array dumps (stderr of programs built with
//! -DPOLYBENCH_DUMP_ARRAYS) array by array, with a relative tolerance for
//! floating-point contraction. Exit status 0 when they match.
//!
//! usage: pencilc-compare SEQUENTIAL_DUMP GENERATED_DUMP [REL_TOLERANCE]

use pencilc::harness::compare::compare_dumps;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: pencilc-compare SEQUENTIAL_DUMP GENERATED_DUMP [REL_TOLERANCE]");
        return ExitCode::from(2);
    }
    let read = |p: &str| {
        std::fs::read(p)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map_err(|e| eprintln!("pencilc-compare: cannot read {}: {}", p, e))
    };
    let (Ok(a), Ok(b)) = (read(&args[1]), read(&args[2])) else {
        return ExitCode::from(2);
    };
    let tol: f64 = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(1e-9);
    let c = compare_dumps(&a, &b, tol);
    if c.ok() {
        println!("match: {}", c.summary());
        ExitCode::SUCCESS
    } else {
        println!("MISMATCH: {}", c.summary());
        ExitCode::from(1)
    }
}
