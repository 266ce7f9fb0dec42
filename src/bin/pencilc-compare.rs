//! Compares two PolyBench array dumps (stderr of programs built with
//! -DPOLYBENCH_DUMP_ARRAYS) array by array, with a relative tolerance for
//! floating-point contraction. Exit status 0 when they match.
//!
//! usage: pencilc-compare SEQUENTIAL_DUMP GENERATED_DUMP [REL_TOLERANCE]

use std::process::ExitCode;

fn parse(text: &str) -> Vec<(String, Vec<f64>)> {
    let mut out: Vec<(String, Vec<f64>)> = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some(name) = l.strip_prefix("begin dump:") {
            out.push((name.trim().to_string(), Vec::new()));
        } else if !(l.starts_with("end") || l.starts_with("==") || l.is_empty()) {
            if let Some((_, v)) = out.last_mut() {
                v.extend(
                    l.split_whitespace()
                        .map(|w| w.parse::<f64>().unwrap_or(f64::NAN)),
                );
            }
        }
    }
    out
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: pencilc-compare SEQUENTIAL_DUMP GENERATED_DUMP [REL_TOLERANCE]");
        return ExitCode::from(2);
    }
    let read =
        |p: &str| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("cannot read {}: {}", p, e));
    let tol: f64 = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(1e-9);
    let (a, b) = (parse(&read(&args[1])), parse(&read(&args[2])));
    if a.is_empty() {
        eprintln!("pencilc-compare: {} holds no array dump", args[1]);
        return ExitCode::from(1);
    }
    let mut bad = 0usize;
    let mut total = 0usize;
    for (i, (name, x)) in a.iter().enumerate() {
        let Some((name2, y)) = b.get(i) else {
            eprintln!("array {}: missing from {}", name, args[2]);
            return ExitCode::from(1);
        };
        if name != name2 || x.len() != y.len() {
            eprintln!(
                "array {}: shape differs ({} vs {} {})",
                name,
                x.len(),
                name2,
                y.len()
            );
            return ExitCode::from(1);
        }
        let scale = x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (u, v) in x.iter().zip(y) {
            total += 1;
            if !((u - v).abs() <= tol * scale.max(u.abs()) || (u.is_nan() && v.is_nan())) {
                if bad < 5 {
                    eprintln!("array {}: {} vs {}", name, u, v);
                }
                bad += 1;
            }
        }
    }
    if bad > 0 {
        println!("MISMATCH: {} of {} values differ", bad, total);
        ExitCode::from(1)
    } else {
        println!("match: {} arrays, {} values", a.len(), total);
        ExitCode::SUCCESS
    }
}
