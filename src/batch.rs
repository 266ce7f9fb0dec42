//! Batch compilation's reporting: a progress bar while files compile (on a
//! terminal only) and a summary table at the end. The compilation itself is
//! `driver::compile_file` per file, in parallel, in `main`.

use crate::diag::Diagnostic;
use crate::driver::FileReport;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt::Write;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

/// A progress bar on stderr, shown only when stderr is a terminal and there
/// is more than one file: logs and pipes get no control characters.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    pub fn new(files: usize) -> Self {
        Self::with_terminal(files, std::io::stderr().is_terminal())
    }

    pub fn with_terminal(files: usize, terminal: bool) -> Self {
        if !terminal || files < 2 {
            return Progress(None);
        }
        let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {elapsed} {wide_msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix("pencilc");
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(Some(bar))
    }

    pub fn visible(&self) -> bool {
        self.0.is_some()
    }

    /// One more file done.
    pub fn inc(&self, file: &Path) {
        if let Some(b) = &self.0 {
            b.set_message(file.display().to_string());
            b.inc(1);
        }
    }

    /// Removes the bar, so that diagnostics and the summary follow cleanly.
    pub fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// One file's line in the summary.
#[derive(Clone, Debug)]
pub struct Row {
    pub file: String,
    pub regions: usize,
    pub kernels: usize,
    pub ms: f64,
    pub warnings: usize,
    pub failed: bool,
}

pub fn row(file: &Path, elapsed: Duration, result: &Result<FileReport, Vec<Diagnostic>>) -> Row {
    let (regions, kernels, warnings, failed) = match result {
        Ok(r) => (r.regions, r.kernels, r.warnings.len(), false),
        Err(_) => (0, 0, 0, true),
    };
    Row {
        file: file.display().to_string(),
        regions,
        kernels,
        ms: elapsed.as_secs_f64() * 1e3,
        warnings,
        failed,
    }
}

/// The table printed after several files: file, regions, kernels, time,
/// status (`ok`, `ok, N warnings`, `FAILED`), then a totals line.
pub fn summary_table(rows: &[Row], wall: Duration) -> String {
    let width = rows
        .iter()
        .map(|r| r.file.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<width$}  {:>7}  {:>7}  {:>9}  status",
        "file", "regions", "kernels", "time ms"
    );
    for r in rows {
        let status = if r.failed {
            "FAILED".to_string()
        } else if r.warnings > 0 {
            format!(
                "ok, {} warning{}",
                r.warnings,
                if r.warnings == 1 { "" } else { "s" }
            )
        } else {
            "ok".to_string()
        };
        let (regions, kernels) = if r.failed {
            ("-".to_string(), "-".to_string())
        } else {
            (r.regions.to_string(), r.kernels.to_string())
        };
        let _ = writeln!(
            s,
            "{:<width$}  {:>7}  {:>7}  {:>9.1}  {}",
            r.file, regions, kernels, r.ms, status
        );
    }
    let failed = rows.iter().filter(|r| r.failed).count();
    let _ = writeln!(
        s,
        "{} files: {} ok, {} failed; {} kernels; {:.1} ms wall",
        rows.len(),
        rows.len() - failed,
        failed,
        rows.iter().map(|r| r.kernels).sum::<usize>(),
        wall.as_secs_f64() * 1e3
    );
    s
}

/// The summary as one JSON object (`--message-format json`): each file
/// with its status (`ok` or `failed`), then the totals.
pub fn summary_json(rows: &[Row], wall: Duration) -> String {
    let files: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "file": r.file,
                "status": if r.failed { "failed" } else { "ok" },
                "regions": r.regions,
                "kernels": r.kernels,
                "warnings": r.warnings,
                "ms": (r.ms * 10.0).round() / 10.0,
            })
        })
        .collect();
    let failed = rows.iter().filter(|r| r.failed).count();
    serde_json::json!({
        "type": "summary",
        "files": files,
        "ok": rows.len() - failed,
        "failed": failed,
        "kernels": rows.iter().map(|r| r.kernels).sum::<usize>(),
        "wall_ms": (wall.as_secs_f64() * 1e4).round() / 10.0,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lists_every_file_and_the_failures() {
        let ok = FileReport {
            regions: 1,
            kernels: 2,
            ..FileReport::default()
        };
        let rows = vec![
            row(Path::new("a.c"), Duration::from_millis(12), &Ok(ok)),
            row(
                Path::new("dir/bad.c"),
                Duration::from_millis(3),
                &Err(vec![]),
            ),
        ];
        let t = summary_table(&rows, Duration::from_millis(20));
        let lines: Vec<&str> = t.lines().collect();
        assert!(
            lines[0].starts_with("file") && lines[0].ends_with("status"),
            "{}",
            t
        );
        assert!(
            lines[1].starts_with("a.c") && lines[1].ends_with("  ok"),
            "{}",
            t
        );
        assert!(lines[1].contains("12.0"), "{}", t);
        assert!(
            lines[2].starts_with("dir/bad.c") && lines[2].ends_with("FAILED"),
            "{}",
            t
        );
        assert_eq!(lines[3], "2 files: 1 ok, 1 failed; 2 kernels; 20.0 ms wall");
    }

    #[test]
    fn no_bar_off_a_terminal_or_for_one_file() {
        assert!(!Progress::with_terminal(5, false).visible());
        assert!(!Progress::with_terminal(1, true).visible());
        let p = Progress::with_terminal(3, true);
        assert!(p.visible());
        p.finish();
    }
}
