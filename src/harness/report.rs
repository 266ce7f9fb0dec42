//! The harness's outputs: a text table, JSON, and an SVG bar chart of the
//! speedups (written by hand: a few rectangles and labels need no library).

use super::profile::RegionProfile;
use super::{HarnessOptions, KernelResult};
use serde::Serialize;
use std::fmt::Write;

/// The parallel dimensions of a file's kernels in a few characters:
/// `2Dx2 1Dx1 seqx3` (two 2-d kernels, one 1-d, three sequential ones).
pub fn dims_summary(dims: &[usize]) -> String {
    if dims.is_empty() {
        return "-".into();
    }
    let max = dims.iter().copied().max().unwrap_or(0);
    let mut parts = Vec::new();
    for d in (1..=max).rev() {
        let n = dims.iter().filter(|&&x| x == d).count();
        if n > 0 {
            parts.push(format!("{}Dx{}", d, n));
        }
    }
    let seq = dims.iter().filter(|&&x| x == 0).count();
    if seq > 0 {
        parts.push(format!("seqx{}", seq));
    }
    parts.join(" ")
}

/// What the table's last column says about a kernel.
pub fn note(r: &KernelResult) -> String {
    if let Some(e) = &r.error {
        let first = e.lines().next().unwrap_or("");
        return format!("FAILED: {}", first.chars().take(100).collect::<String>());
    }
    let mut notes = Vec::new();
    if r.sequential_only() {
        notes.push("no parallel kernel: runs sequentially on the device".to_string());
    }
    if r.reassociated {
        notes.push(
            "floating-point reduction reassociated: compared at the reassociation tolerance"
                .to_string(),
        );
    }
    if let Some(w) = r.schedule_fallback() {
        // The warning's first clause says what happened; the rest is in
        // the kernel's pencilc.log.
        let what = w
            .split(';')
            .next()
            .unwrap_or(w)
            .trim_end_matches(" [E0201]");
        notes.push(what.chars().take(100).collect());
    }
    if let Some(c) = &r.comparison {
        if !c.ok() {
            notes.push(c.summary().chars().take(160).collect());
        }
    }
    if r.cuda_correct == Some(false) {
        notes.push("CUDA result differs".into());
    }
    let wrong: Vec<&str> = r
        .versions
        .iter()
        .filter(|v| !v.correct)
        .map(|v| v.version.as_str())
        .collect();
    if !wrong.is_empty() {
        notes.push(format!("wrong results: {}", wrong.join(", ")));
    }
    notes.join("; ")
}

fn ms(v: Option<f64>) -> String {
    match v {
        Some(x) if x >= 100.0 => format!("{:.0}", x),
        Some(x) if x >= 1.0 => format!("{:.2}", x),
        Some(x) => format!("{:.3}", x),
        None => "-".into(),
    }
}

/// A speedup with two significant digits at least: `12.3x`, `0.52x`, `0.0031x`.
pub fn speedup_text(x: f64) -> String {
    let decimals = if x > 0.0 {
        (1 - x.log10().floor() as i32).clamp(1, 6) as usize
    } else {
        2
    };
    format!("{:.*}x", decimals.max(if x < 10.0 { 2 } else { 1 }), x)
}

fn yes_no(r: &KernelResult) -> &'static str {
    if r.comparison.is_none() {
        "-"
    } else if r.correct {
        "yes"
    } else {
        "NO"
    }
}

/// Geometric mean of the (OpenCL) speedups that were measured.
pub fn geomean_speedup(results: &[KernelResult]) -> Option<f64> {
    geomean(results.iter().filter_map(|r| r.speedup))
}

fn geomean(speedups: impl Iterator<Item = f64>) -> Option<f64> {
    let v: Vec<f64> = speedups.filter(|s| *s > 0.0).collect();
    (!v.is_empty()).then(|| (v.iter().map(|s| s.ln()).sum::<f64>() / v.len() as f64).exp())
}

/// The table: one row per kernel, then a summary line.
pub fn table(results: &[KernelResult], opts: &HarnessOptions) -> String {
    let cuda = results.iter().any(|r| r.cuda_correct.is_some());
    let mut s = String::new();
    let _ = write!(
        s,
        "{:<15} {:>7}  {:<18} {:>10} {:>6} {:>4} {:>10} {:>10} {:>10} {:>9} {:>8} {:>7}",
        "kernel",
        "kernels",
        "parallel dims",
        "compile ms",
        "lines",
        "bar",
        "1st run ms",
        "seq ms",
        "OpenCL ms",
        "setup ms",
        "speedup",
        "correct"
    );
    let _ = write!(s, " {:>11}", "ran");
    if cuda {
        let _ = write!(s, " {:>9} {:>8} {:>5}", "CUDA ms", "CUDA x", "CUDA");
    }
    s.push_str("  note\n");
    for r in results {
        let _ = write!(
            s,
            "{:<15} {:>7}  {:<18} {:>10} {:>6} {:>4} {:>10} {:>10} {:>10} {:>9} {:>8} {:>7}",
            r.name,
            r.kernels,
            dims_summary(&r.parallel_dims),
            format!("{:.0}", r.compile_ms),
            r.kernel_lines,
            r.barriers,
            ms(r.opencl_first_run_ms),
            ms(r.sequential_ms),
            ms(r.opencl_ms),
            ms(r.opencl_setup_ms),
            r.speedup.map(speedup_text).unwrap_or_else(|| "-".into()),
            yes_no(r),
        );
        let _ = write!(s, " {:>11}", r.chosen.as_deref().unwrap_or("-"));
        if cuda {
            let _ = write!(
                s,
                " {:>9} {:>8} {:>5}",
                ms(r.cuda_ms),
                r.cuda_speedup
                    .map(speedup_text)
                    .unwrap_or_else(|| "-".into()),
                match r.cuda_correct {
                    Some(true) => "yes",
                    Some(false) => "NO",
                    None => "-",
                }
            );
        }
        let n = note(r);
        if !n.is_empty() {
            let _ = write!(s, "  {}", n);
        }
        s.push('\n');
    }
    let correct = results.iter().filter(|r| r.correct).count();
    let compile: f64 = results.iter().map(|r| r.compile_ms).sum();
    let _ = write!(
        s,
        "{}/{} correct at {}, {} mode (tolerance {:e}, FP contraction {}); compile {:.1} s in all; geometric-mean speedup {}",
        correct,
        results.len(),
        opts.dataset,
        opts.mode.name(),
        opts.tolerance,
        if opts.fp_contract { "on" } else { "off" },
        compile / 1e3,
        geomean_speedup(results)
            .map(speedup_text)
            .unwrap_or_else(|| "-".into())
    );
    if let Some(g) = geomean(results.iter().filter_map(|r| r.always_device_speedup)) {
        let _ = write!(
            s,
            "; always the device version (same runs): {}",
            speedup_text(g)
        );
    }
    if let Some(g) = geomean(results.iter().filter_map(|r| r.cuda_speedup)) {
        let _ = write!(s, "; CUDA geometric-mean speedup {}", speedup_text(g));
    }
    s.push('\n');
    s.push_str(&profile_table(results));
    s
}

/// Where the device version's time went, per kernel and target
/// (`PENCILC_PROFILE=1`); empty where no program said.
pub fn profile_table(results: &[KernelResult]) -> String {
    let rows: Vec<(&str, &str, &RegionProfile)> = results
        .iter()
        .flat_map(|r| {
            [("OpenCL", &r.opencl_profile), ("CUDA", &r.cuda_profile)]
                .into_iter()
                .filter_map(move |(t, p)| p.as_ref().map(|p| (r.name.as_str(), t, p)))
        })
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "\nThe device version's time (PENCILC_PROFILE=1, one run, ms summed over region executions):\n",
    );
    let _ = writeln!(
        s,
        "{:<15} {:<7} {:>5} {:>9} {:>9} {:>10} {:>9} {:>10} {:>10} {:>7}",
        "kernel",
        "target",
        "runs",
        "alloc",
        "copy-in",
        "kernels",
        "copy-out",
        "MB in",
        "MB out",
        "data %"
    );
    for (name, target, p) in rows {
        let _ = writeln!(
            s,
            "{:<15} {:<7} {:>5} {:>9.3} {:>9.3} {:>10.3} {:>9.3} {:>10.2} {:>10.2} {:>7}",
            name,
            target,
            p.executions,
            p.alloc_ms,
            p.copy_in_ms,
            p.kernels_ms,
            p.copy_out_ms,
            p.bytes_in as f64 / 1e6,
            p.bytes_out as f64 / 1e6,
            p.data_share()
                .map(|x| format!("{:.1}", x * 100.0))
                .unwrap_or_else(|| "-".into())
        );
    }
    s
}

#[derive(Serialize)]
struct JsonReport<'a> {
    dataset: &'a str,
    mode: super::Mode,
    opencl_device: &'a str,
    fp_contract: bool,
    tolerance: f64,
    runs: usize,
    cflags: &'a [String],
    correct: usize,
    total: usize,
    geomean_speedup: Option<f64>,
    kernels: &'a [KernelResult],
}

pub fn json(results: &[KernelResult], opts: &HarnessOptions) -> String {
    let report = JsonReport {
        dataset: &opts.dataset,
        mode: opts.mode,
        opencl_device: &opts.opencl_device,
        fp_contract: opts.fp_contract,
        tolerance: opts.tolerance,
        runs: opts.runs,
        cflags: &opts.cflags,
        correct: results.iter().filter(|r| r.correct).count(),
        total: results.len(),
        geomean_speedup: geomean_speedup(results),
        kernels: results,
    };
    let mut s = serde_json::to_string_pretty(&report)
        .unwrap_or_else(|e| format!("{{\"error\": \"{}\"}}", e));
    s.push('\n');
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A horizontal bar chart of the speedups on a log scale: bars grow right
/// of 1x for speedups and left of it for slowdowns. Green: correct and
/// faster; orange: correct and slower; red: wrong or failed; pale: only
/// sequential kernels.
pub fn svg(results: &[KernelResult], opts: &HarnessOptions) -> String {
    const LEFT: f64 = 130.0;
    const RIGHT: f64 = 90.0;
    const PLOT: f64 = 560.0;
    const ROW: f64 = 20.0;
    const TOP: f64 = 64.0;
    let speedups: Vec<f64> = results
        .iter()
        .filter_map(|r| r.speedup)
        .filter(|s| *s > 0.0)
        .collect();
    let lo = speedups
        .iter()
        .fold(0.1f64, |m, &s| m.min(s))
        .log10()
        .floor();
    let hi = speedups
        .iter()
        .fold(10.0f64, |m, &s| m.max(s))
        .log10()
        .ceil();
    let x = |s: f64| LEFT + (s.log10() - lo) / (hi - lo) * PLOT;
    let height = TOP + ROW * results.len() as f64 + 40.0;
    let width = LEFT + PLOT + RIGHT;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#,
        w = width,
        h = height
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="20" font-size="14" font-weight="bold">pencilc OpenCL speedup over the sequential program (PolyBench {}, device: {})</text>"#,
        LEFT / 4.0,
        escape(&opts.dataset),
        escape(&opts.opencl_device)
    );
    let _ = writeln!(
        s,
        r##"<text x="{x}" y="36" fill="#555">log scale; OpenCL times exclude the one-time OpenCL setup</text>
<text x="{x}" y="51" fill="#555">green: faster, orange: slower, red: wrong or failed, pale: sequential kernels only</text>"##,
        x = LEFT / 4.0
    );
    let bottom = TOP + ROW * results.len() as f64;
    for e in (lo as i32)..=(hi as i32) {
        let v = 10f64.powi(e);
        let gx = x(v);
        let _ = writeln!(
            s,
            r#"<line x1="{gx:.1}" y1="{TOP}" x2="{gx:.1}" y2="{bottom}" stroke="{}" stroke-width="{}"/>"#,
            if e == 0 { "#000" } else { "#ddd" },
            if e == 0 { 1.5 } else { 1.0 }
        );
        let label = if e >= 0 {
            format!("{}x", v as i64)
        } else {
            format!("{}x", v)
        };
        let _ = writeln!(
            s,
            r##"<text x="{gx:.1}" y="{:.1}" text-anchor="middle" fill="#555">{}</text>"##,
            bottom + 15.0,
            label
        );
    }
    for (i, r) in results.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LEFT - 6.0,
            y + ROW * 0.7,
            escape(&r.name)
        );
        let failed = r.error.is_some() || !r.correct;
        match r.speedup {
            Some(sp) if sp > 0.0 && r.error.is_none() => {
                let (x0, x1) = if sp >= 1.0 {
                    (x(1.0), x(sp))
                } else {
                    (x(sp), x(1.0))
                };
                let color = if failed {
                    "#c62828"
                } else if sp >= 1.0 {
                    "#2e7d32"
                } else {
                    "#ef6c00"
                };
                let opacity = if r.sequential_only() { 0.4 } else { 1.0 };
                let _ = writeln!(
                    s,
                    r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}" fill-opacity="{}"><title>{}: {:.3}x</title></rect>"#,
                    x0,
                    y + 3.0,
                    (x1 - x0).max(1.0),
                    ROW - 6.0,
                    color,
                    opacity,
                    escape(&r.name),
                    sp
                );
                let mut label = speedup_text(sp);
                if failed {
                    label.push_str(" wrong");
                } else if r.sequential_only() {
                    label.push_str(" (seq)");
                }
                let _ = writeln!(
                    s,
                    r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
                    x0.max(x1) + 4.0,
                    y + ROW * 0.7,
                    label
                );
            }
            _ => {
                let _ = writeln!(
                    s,
                    r##"<text x="{:.1}" y="{:.1}" fill="#c62828">failed</text>"##,
                    x(1.0) + 4.0,
                    y + ROW * 0.7
                );
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::compare::Comparison;

    fn result(name: &str, speedup: Option<f64>, dims: Vec<usize>) -> KernelResult {
        KernelResult {
            name: name.into(),
            kernels: dims.len(),
            parallel_dims: dims,
            sequential_ms: Some(1.0),
            opencl_ms: speedup.map(|s| 1.0 / s),
            speedup,
            correct: speedup.is_some(),
            comparison: speedup.map(|_| Comparison {
                arrays: 1,
                values: 4,
                ..Comparison::default()
            }),
            error: if speedup.is_none() {
                Some("pencilc failed".into())
            } else {
                None
            },
            ..KernelResult::default()
        }
    }

    fn opts() -> HarnessOptions {
        HarnessOptions::new("p".into(), "pencilc".into(), "w".into())
    }

    #[test]
    fn speedups_keep_two_significant_digits() {
        assert_eq!(speedup_text(12.34), "12.3x");
        assert_eq!(speedup_text(4.0), "4.00x");
        assert_eq!(speedup_text(0.52), "0.52x");
        assert_eq!(speedup_text(0.00312), "0.0031x");
    }

    #[test]
    fn the_choice_is_summarised_beside_always_the_device_version() {
        let mut a = result("gemm", Some(4.0), vec![2]);
        a.always_device_speedup = Some(1.0);
        let mut b = result("lu", Some(1.0), vec![0]);
        b.always_device_speedup = Some(0.25);
        let t = table(&[a, b], &opts());
        assert!(
            t.contains(
                "geometric-mean speedup 2.00x; always the device version (same runs): 0.50x"
            ),
            "{}",
            t
        );
        let plain = table(&[result("gemm", Some(4.0), vec![2])], &opts());
        assert!(!plain.contains("always the device"), "{}", plain);
    }

    #[test]
    fn dims_are_summarised() {
        assert_eq!(dims_summary(&[2, 0, 1, 1, 0]), "2Dx1 1Dx2 seqx2");
        assert_eq!(dims_summary(&[0]), "seqx1");
        assert_eq!(dims_summary(&[]), "-");
    }

    #[test]
    fn table_json_and_svg_cover_every_kernel() {
        let rs = vec![
            result("gemm", Some(4.0), vec![2]),
            result("lu", Some(0.25), vec![0]),
            result("bad", None, vec![]),
        ];
        let t = table(&rs, &opts());
        assert!(t.contains("gemm") && t.contains("4.00x"), "{}", t);
        assert!(t.contains("no parallel kernel"), "{}", t);
        assert!(t.contains("FAILED: pencilc failed"), "{}", t);
        assert!(t.contains("2/3 correct"), "{}", t);
        let j: serde_json::Value = serde_json::from_str(&json(&rs, &opts())).unwrap();
        assert_eq!(j["kernels"].as_array().unwrap().len(), 3);
        assert_eq!(j["geomean_speedup"].as_f64(), Some(1.0));
        let g = svg(&rs, &opts());
        assert!(g.starts_with("<svg") && g.trim_end().ends_with("</svg>"));
        assert_eq!(g.matches("<rect x=").count(), 2, "{}", g);
        assert!(g.contains(">failed</text>"));
    }
}
