//! Scheduling time of both schedulers (`cargo bench --bench scheduler
//! [-- NAME...]`), taken from the `sched` stage that `pencilc -v` reports
//! (the scheduler in its worker process plus the legality check), median of
//! `PENCILC_BENCH_RUNS` runs (default 3):
//!
//! 1. each PolyBench kernel of `polybench/kernels.txt` at the LARGE dataset,
//!    with `--scheduler pluto` under each `--fuse` setting and with
//!    `--scheduler isl`;
//! 2. growth on generated SCoPs: chains of 10, 20, 50 and 100 statements,
//!    each statement its own loop nest of depth 1 to 4 that reads the
//!    previous statement's array at a small offset.
//!
//! Each run has `--schedule-timeout` `PENCILC_BENCH_SCHEDULE_TIMEOUT`
//! seconds (default 60). A scheduler that runs out of time is reported as
//! `timeout`, one whose result is not used (pencilc's fallback warning) as
//! `fallback`; neither is run again. A pencilc run longer than 10 s (the
//! mapping that follows the scheduler can be much slower than it on big
//! SCoPs) is not repeated either (marked `*`). NAME filters the kernels and, for the generated
//! SCoPs, matches `chain` (e.g. `-- gemm` or `-- chain`).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// The settings compared: a column name and pencilc's flags.
const SETTINGS: [(&str, &[&str]); 4] = [
    ("pluto smart", &["--scheduler", "pluto", "--fuse", "smart"]),
    ("pluto max", &["--scheduler", "pluto", "--fuse", "max"]),
    ("pluto min", &["--scheduler", "pluto", "--fuse", "min"]),
    ("isl", &["--scheduler", "isl"]),
];

/// The outcome of timing one setting on one file.
enum Timing {
    /// Median `sched` ms; whether the runs were cut short (a pencilc run
    /// over 10 s); median wall-clock seconds of the whole pencilc run.
    Ms(f64, bool, f64),
    /// The scheduler ran out of time: pencilc's warning.
    Timeout(String),
    /// pencilc used another scheduler's or the original order (warning).
    Fallback(f64, String),
    /// pencilc failed.
    Failed(String),
}

impl Timing {
    fn cell(&self) -> String {
        match self {
            Timing::Ms(ms, false, _) => format!("{:.1}", ms),
            Timing::Ms(ms, true, _) => format!("{:.1}*", ms),
            Timing::Timeout(_) => "timeout".into(),
            Timing::Fallback(ms, _) => format!("fallback ({:.0})", ms),
            Timing::Failed(_) => "FAILED".into(),
        }
    }

    fn note(&self) -> Option<&str> {
        match self {
            Timing::Timeout(w) | Timing::Fallback(_, w) | Timing::Failed(w) => Some(w),
            Timing::Ms(..) => None,
        }
    }
}

/// One `pencilc -v --emit schedule` run: the `sched` milliseconds (summed
/// over regions), the whole run's wall-clock seconds, and the warnings; or
/// why it failed.
fn schedule_once(args: &[String], file: &Path) -> Result<(f64, f64, Vec<String>), String> {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_pencilc"))
        .args(["-v", "--emit", "schedule"])
        .args(args)
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run pencilc: {}", e))?;
    let wall = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let first = stderr
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or("no message");
        return Err(first.to_string());
    }
    let mut ms = None;
    for line in stderr.lines().filter(|l| l.starts_with("pencilc: ")) {
        // `... [preprocess 9.3ms, parse 2.1ms, ..., sched 20.4ms, map ...]`
        let Some(stages) = line.rsplit_once('[').map(|(_, s)| s.trim_end_matches(']')) else {
            continue;
        };
        for stage in stages.split(", ") {
            if let Some(v) = stage
                .strip_prefix("sched ")
                .and_then(|v| v.strip_suffix("ms"))
            {
                *ms.get_or_insert(0.0) += v.parse::<f64>().unwrap_or(0.0);
            }
        }
    }
    let warnings = stderr
        .lines()
        .filter_map(|l| l.split_once(": warning: ").map(|(_, w)| w.to_string()))
        .collect();
    ms.map(|ms| (ms, wall, warnings))
        .ok_or_else(|| "no `sched` time in pencilc -v's report".to_string())
}

fn time_setting(
    flags: &[&str],
    common: &[String],
    file: &Path,
    runs: usize,
    timeout: u64,
) -> Timing {
    let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
    args.push("--schedule-timeout".into());
    args.push(timeout.to_string());
    args.extend(common.iter().cloned());
    let mut times = Vec::new();
    let mut walls = Vec::new();
    for _ in 0..runs {
        match schedule_once(&args, file) {
            Err(why) => return Timing::Failed(why),
            Ok((ms, wall, warnings)) => {
                if let Some(w) = warnings.iter().find(|w| w.contains("[E0201]")) {
                    return if w.contains("did not finish") || w.contains("time budget") {
                        Timing::Timeout(w.clone())
                    } else {
                        Timing::Fallback(ms, w.clone())
                    };
                }
                times.push(ms);
                walls.push(wall);
                // The mapping after the scheduler can take far longer than
                // the scheduler on big SCoPs; one such run is enough.
                if wall > 10.0 {
                    break;
                }
            }
        }
    }
    times.sort_by(|a, b| a.total_cmp(b));
    walls.sort_by(|a, b| a.total_cmp(b));
    Timing::Ms(
        times[times.len() / 2],
        times.len() < runs,
        walls[walls.len() / 2],
    )
}

/// A chain of `n` statements, each a loop nest of `depth` loops over its
/// own array, reading the previous statement's array at offsets 0 and +1:
/// `X1[i][j] = 0.5 * X0[i][j] + 0.25 * X0[i + 1][j + 1];`.
fn chain_scop(n: usize, depth: usize) -> String {
    const SIZE: usize = 64;
    let its = ["i", "j", "k", "l"];
    let dims = |extent: usize| "[".to_string() + &vec![extent.to_string(); depth].join("][") + "]";
    let index = |off: usize| {
        its[..depth]
            .iter()
            .map(|i| {
                if off == 0 {
                    format!("[{}]", i)
                } else {
                    format!("[{} + {}]", i, off)
                }
            })
            .collect::<String>()
    };
    let mut s = String::new();
    for a in 0..=n {
        s.push_str(&format!("double X{}{};\n", a, dims(SIZE + 1)));
    }
    s.push_str("\nvoid chain(void)\n{\n#pragma scop\n");
    for a in 1..=n {
        for (d, it) in its[..depth].iter().enumerate() {
            s.push_str(&format!(
                "{}for (int {it} = 0; {it} < {SIZE}; {it}++)\n",
                "  ".repeat(d + 1)
            ));
        }
        s.push_str(&format!(
            "{}X{}{} = 0.5 * X{}{} + 0.25 * X{}{};\n",
            "  ".repeat(depth + 1),
            a,
            index(0),
            a - 1,
            index(0),
            a - 1,
            index(1)
        ));
    }
    s.push_str("#pragma endscop\n}\n");
    s
}

fn print_table(first: &str, rows: &[(String, Vec<Timing>)]) {
    print!("| {} |", first);
    for (name, _) in SETTINGS {
        print!(" {} ms |", name);
    }
    println!();
    print!("|---|");
    for _ in SETTINGS {
        print!("---:|");
    }
    println!();
    for (name, cells) in rows {
        print!("| {} |", name);
        for c in cells {
            print!(" {} |", c.cell());
        }
        println!();
    }
    let notes: Vec<String> = rows
        .iter()
        .flat_map(|(name, cells)| {
            cells.iter().zip(SETTINGS).filter_map(move |(c, (s, _))| {
                c.note().map(|w| format!("- {} ({}): {}", name, s, w))
            })
        })
        .collect();
    if !notes.is_empty() {
        println!();
        for n in notes {
            println!("{}", n);
        }
    }
    println!();
}

fn summary(label: &str, rows: &[(String, Vec<Timing>)]) {
    for (s, (name, _)) in SETTINGS.iter().enumerate() {
        let ms: Vec<f64> = rows
            .iter()
            .filter_map(|(_, c)| match c[s] {
                Timing::Ms(ms, ..) => Some(ms),
                _ => None,
            })
            .collect();
        let worst = ms.iter().cloned().fold(0.0, f64::max);
        println!(
            "{} {}: {} of {} scheduled, total {:.0} ms, slowest {:.0} ms",
            label,
            name,
            ms.len(),
            rows.len(),
            ms.iter().sum::<f64>(),
            worst
        );
    }
    println!();
}

mod common;

fn main() {
    let root = common::root();
    let polybench = root.join("polybench");
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let runs = env("PENCILC_BENCH_RUNS", 3).max(1) as usize;
    let timeout = env("PENCILC_BENCH_SCHEDULE_TIMEOUT", 60).max(1);
    let start = Instant::now();
    println!(
        "Scheduling time (`sched` stage of pencilc -v: dependence pieces + scheduler worker; the legality check is the separate `valid` stage), median of {} runs, --schedule-timeout {} s; `*`: one run (pencilc took over 10 s)\n",
        runs, timeout
    );

    let utilities = polybench.join("utilities");
    let mut rows = Vec::new();
    for (name, src) in common::polybench_kernels() {
        let common = vec![
            "-I".to_string(),
            utilities.display().to_string(),
            "-I".to_string(),
            src.parent().unwrap().display().to_string(),
            "-DLARGE_DATASET".to_string(),
        ];
        let cells = SETTINGS
            .iter()
            .map(|(_, flags)| time_setting(flags, &common, &src, runs, timeout))
            .collect();
        rows.push((name.to_string(), cells));
    }
    if !rows.is_empty() {
        println!("### PolyBench kernels (LARGE)\n");
        print_table("kernel", &rows);
        summary("PolyBench", &rows);
    }

    if common::selected("chain") {
        let dir = root.join("target/bench-scheduler");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("target/bench-scheduler");
        let mut rows = Vec::new();
        for depth in 1..=4 {
            for n in [10, 20, 50, 100] {
                let file = dir.join(format!("chain_{}x{}.c", n, depth));
                std::fs::write(&file, chain_scop(n, depth)).expect("write a generated SCoP");
                let cells = SETTINGS
                    .iter()
                    .map(|(_, flags)| time_setting(flags, &[], &file, runs, timeout))
                    .collect();
                rows.push((format!("{} stmts, depth {}", n, depth), cells));
            }
        }
        println!(
            "### Generated chains (statement k reads statement k-1's array at offsets 0 and +1)\n"
        );
        print_table("SCoP", &rows);
        summary("Chains", &rows);
        println!("Whole `pencilc -v --emit schedule` run (s), for comparison: the mapping after the scheduler dominates on big chains.\n");
        print!("| SCoP |");
        for (name, _) in SETTINGS {
            print!(" {} s |", name);
        }
        println!("\n|---|{}", "---:|".repeat(SETTINGS.len()));
        for (name, cells) in &rows {
            print!("| {} |", name);
            for c in cells {
                match c {
                    Timing::Ms(_, _, wall) => print!(" {:.1} |", wall),
                    _ => print!(" {} |", c.cell()),
                }
            }
            println!();
        }
        println!();
    }
    println!(
        "(benchmark wall time {:.0} s)",
        start.elapsed().as_secs_f64()
    );
}
