//! Each input file is compiled in a child process that a watchdog can
//! stop. isl's operation budget does not bound everything isl does (its
//! basis reduction on huge coefficients, `A[(1000000007*i + 3*j) % 2999]`,
//! runs for minutes without counting an operation), and no thread can be
//! stopped inside a C library, so the guarantee that every region ends
//! within its time comes from here: the child announces each stage of the
//! ladder it starts (`driver::PROGRESS_PREFIX`) with the time it has; if it
//! overruns that by a grace period, or crashes, the watchdog kills it and
//! compiles the file again with that region one rung lower, down to the
//! region's own code on the host, each step a warning.

use crate::diag::{Code, Diagnostic};
use crate::driver::{FileReport, Options, PROGRESS_PREFIX};
use crate::ladder::Rung;
use crate::process::die_with_parent;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The hidden flag that makes pencilc the child: `--internal-file-worker
/// <index of the file among the inputs>`.
pub const FILE_WORKER_FLAG: &str = "--internal-file-worker";
/// Hidden flag, repeated: `--internal-region-rung <region>=<rung>:<ms>`,
/// the rung a region starts at and the milliseconds it has left.
pub const REGION_RUNG_FLAG: &str = "--internal-region-rung";
/// The child's result on stdout, one JSON line after this prefix.
const RESULT_PREFIX: &str = "pencilc-result:";

type FileResult = std::result::Result<FileReport, Vec<Diagnostic>>;

/// The child's side: the JSON line the watchdog reads.
pub fn result_line(r: &FileResult) -> String {
    let json = match r {
        Ok(rep) => serde_json::json!({ "ok": rep }),
        Err(diags) => serde_json::json!({ "err": diags }),
    };
    format!("{} {}", RESULT_PREFIX, json)
}

/// Parses `--internal-region-rung` values.
pub fn parse_region_rung(s: &str) -> Option<(usize, Rung, Option<Duration>)> {
    let (r, rest) = s.split_once('=')?;
    let (rung, ms) = match rest.split_once(':') {
        Some((rung, ms)) => (rung, Some(Duration::from_millis(ms.parse().ok()?))),
        None => (rest, None),
    };
    Some((r.parse().ok()?, Rung::parse(rung)?, ms))
}

/// Compiles input `index` of the command line `args` (this program's own
/// arguments, the executable first) in a child process `exe`, restarting
/// it lower on the ladder for the regions where it overran or crashed.
pub fn compile_file(
    exe: &Path,
    args: &[std::ffi::OsString],
    index: usize,
    path: &Path,
    opts: &Options,
) -> FileResult {
    let mut rungs: BTreeMap<usize, (Rung, Duration)> = BTreeMap::new();
    // Time each region has used in the children stopped so far: a region
    // gets `--schedule-timeout` in all, not per attempt.
    let mut spent: BTreeMap<usize, Duration> = BTreeMap::new();
    let mut notes: Vec<Diagnostic> = Vec::new();
    loop {
        let run = run_child(exe, args, index, &rungs);
        let failure = match run {
            Ok(Outcome::Finished(r)) => {
                return match r {
                    Ok(mut rep) => {
                        notes.append(&mut rep.warnings);
                        rep.warnings = notes;
                        Ok(rep)
                    }
                    Err(mut diags) => {
                        notes.append(&mut diags);
                        Err(notes)
                    }
                };
            }
            Ok(Outcome::Stopped { at, why, used }) => {
                if let Some(p) = at {
                    *spent.entry(p.region).or_default() += used;
                }
                (at, why)
            }
            Err(d) => {
                notes.push(d);
                return Err(notes);
            }
        };
        let (at, why) = failure;
        let Some(at) = at else {
            // Outside any region's compilation (reading or parsing the
            // file, or writing it): nothing simpler to try.
            notes.push(
                Diagnostic::internal(
                    "watchdog",
                    format!("{}, outside a region's compilation", why),
                )
                .with_hint("please report this with the input file"),
            );
            return Err(notes);
        };
        let next = match at.stage {
            Stage::Scop | Stage::Deps => Rung::Host,
            Stage::Rung(r) => match Rung::from(r, opts.target, &opts.map, &opts.sched)
                .into_iter()
                .find(|&n| n > r)
            {
                Some(n) => n,
                None => Rung::Host,
            },
        };
        let left = opts
            .region_timeout
            .saturating_sub(spent.get(&at.region).copied().unwrap_or_default());
        // Too little time left for isl work to be worth starting.
        let next = if left < opts.region_timeout / 20 {
            Rung::Host
        } else {
            next
        };
        if rungs.get(&at.region).map(|r| r.0) == Some(Rung::Host) {
            notes.push(
                Diagnostic::internal(
                    "watchdog",
                    format!("{} with region {} on the host", why, at.region + 1),
                )
                .with_hint("please report this with the input file"),
            );
            return Err(notes);
        }
        notes.push(
            Diagnostic::warning(
                Code::Budget,
                Some(crate::diag::Loc {
                    file: path.to_path_buf(),
                    line: at.line,
                    col: at.col,
                    len: 0,
                })
                .filter(|l| l.line > 0),
                format!(
                    "region {} ({}): {}; pencilc stopped it and falls back to {}",
                    at.region + 1,
                    at.stage.describe(),
                    why,
                    next.description()
                ),
            )
            .with_hint(
                "raise --schedule-timeout (seconds per region), or simplify or split the region",
            ),
        );
        rungs.insert(at.region, (next, left));
    }
}

/// Where in the ladder a child was.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Stage {
    Scop,
    Deps,
    Rung(Rung),
}

impl Stage {
    fn describe(self) -> String {
        match self {
            Stage::Scop => "building its polyhedral model".into(),
            Stage::Deps => "dependence analysis".into(),
            Stage::Rung(r) => r.description().into(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Position {
    region: usize,
    stage: Stage,
    /// Where the region starts in the user's file.
    line: u32,
    col: u32,
}

enum Outcome {
    Finished(FileResult),
    /// Killed after overrunning, or crashed; where it was (None: outside
    /// every region's ladder) and how long that region had run.
    Stopped {
        at: Option<Position>,
        why: String,
        used: Duration,
    },
}

/// How long past its announced time a stage may run before it is
/// stopped: the in-process deadline checks come between isl calls, so a
/// stage normally ends a little after its time.
fn grace(allowed: Duration) -> Duration {
    Duration::from_millis(200) + allowed / 20
}

fn run_child(
    exe: &Path,
    args: &[std::ffi::OsString],
    index: usize,
    rungs: &BTreeMap<usize, (Rung, Duration)>,
) -> std::result::Result<Outcome, Diagnostic> {
    let mut cmd = Command::new(exe);
    cmd.arg(FILE_WORKER_FLAG).arg(index.to_string());
    for (r, (rung, left)) in rungs {
        cmd.arg(REGION_RUNG_FLAG)
            .arg(format!("{}={}:{}", r, rung.name(), left.as_millis()));
    }
    cmd.args(&args[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    die_with_parent(&mut cmd);
    let mut child = cmd.spawn().map_err(|e| {
        Diagnostic::error(
            Code::Internal,
            None,
            format!("cannot start a compile worker ({}): {}", exe.display(), e),
        )
    })?;
    let mut stdout = child.stdout.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let stderr = child.stderr.take().expect("piped");
    let (tx, rx) = mpsc::channel::<String>();
    let err = std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // The child's budgets are CPU time (`clock`): so is what it has used
    // here, read from the system (its threads and the workers it waited
    // for), with wall-clock time where that cannot be read, and as the
    // backstop of a child that spends none.
    let mut cpu = crate::clock::ChildCpu::new(child.id());
    let mut at: Option<Position> = None;
    let mut until: Option<(Duration, Instant)> = None;
    let mut region_start = cpu.used();
    // The last reading while the child ran (a crashed child's is gone).
    let mut last = region_start;
    let mut other_stderr = String::new();
    let status = loop {
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(line) => {
                if let Some((pos, allowed, thread)) = parse_progress(&line) {
                    if let Some(t) = thread {
                        cpu.follow_thread(t);
                    }
                    let now = cpu.used();
                    if pos.map(|p| p.region) != at.map(|p| p.region) {
                        region_start = now;
                    }
                    at = pos;
                    let most = allowed + grace(allowed);
                    until = pos.map(|_| {
                        (
                            now + most,
                            Instant::now() + most * crate::clock::WALL_FACTOR,
                        )
                    });
                } else {
                    other_stderr.push_str(&line);
                    other_stderr.push('\n');
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Timeout) | Err(mpsc::RecvTimeoutError::Disconnected) => {}
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => last = cpu.used(),
            Err(e) => {
                return Err(Diagnostic::internal("watchdog", e.to_string()));
            }
        }
        if let Some((cpu_until, wall_until)) = until {
            let now = last;
            if now > cpu_until || Instant::now() > wall_until {
                let _ = child.kill();
                let _ = child.wait();
                let _ = out.join();
                let _ = err.join();
                return Ok(Outcome::Stopped {
                    at,
                    why: "it did not end within its time (isl did not return)".into(),
                    used: now.saturating_sub(region_start),
                });
            }
        }
    };
    let _ = err.join();
    while let Ok(line) = rx.try_recv() {
        if parse_progress(&line).is_none() {
            other_stderr.push_str(&line);
            other_stderr.push('\n');
        }
    }
    let stdout = out.join().unwrap_or_default();
    if let Some(r) = stdout
        .lines()
        .find_map(|l| l.strip_prefix(RESULT_PREFIX))
        .and_then(parse_result)
    {
        return Ok(Outcome::Finished(r));
    }
    let tail: String = {
        let lines: Vec<&str> = other_stderr.lines().collect();
        lines[lines.len().saturating_sub(5)..].join(" | ")
    };
    Ok(Outcome::Stopped {
        at,
        used: last.saturating_sub(region_start),
        why: format!(
            "pencilc crashed ({}){}",
            describe_status(&status),
            if tail.is_empty() {
                String::new()
            } else {
                format!(": {}", tail)
            }
        ),
    })
}

fn parse_result(json: &str) -> Option<FileResult> {
    let v: serde_json::Value = serde_json::from_str(json.trim()).ok()?;
    if let Some(ok) = v.get("ok") {
        return serde_json::from_value::<FileReport>(ok.clone())
            .ok()
            .map(Ok);
    }
    let err = v.get("err")?;
    serde_json::from_value::<Vec<Diagnostic>>(err.clone())
        .ok()
        .map(Err)
}

/// `<prefix> <region> <stage> <ms> <line> <col> <thread>`: where the child
/// is, how much CPU time it has there, and the thread that compiles
/// (`/proc`'s id, 0 where unknown); stage `done` ends the watch of the
/// region.
fn parse_progress(line: &str) -> Option<(Option<Position>, Duration, Option<u32>)> {
    let rest = line.strip_prefix(PROGRESS_PREFIX)?;
    let mut w = rest.split_whitespace();
    let region: usize = w.next()?.parse().ok()?;
    let stage = w.next()?;
    let ms: u64 = w.next()?.parse().ok()?;
    let line: u32 = w.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let col: u32 = w.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let tid: Option<u32> = w.next().and_then(|s| s.parse().ok()).filter(|&t| t != 0);
    let allowed = Duration::from_millis(ms);
    let stage = match stage {
        "done" => return Some((None, allowed, tid)),
        "scop" => Stage::Scop,
        "deps" => Stage::Deps,
        r => Stage::Rung(Rung::parse(r)?),
    };
    Some((
        Some(Position {
            region,
            stage,
            line,
            col,
        }),
        allowed,
        tid,
    ))
}

fn describe_status(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                libc::SIGSEGV => "SIGSEGV, likely a stack overflow",
                libc::SIGABRT => "SIGABRT",
                libc::SIGKILL => "SIGKILL, perhaps out of memory",
                libc::SIGBUS => "SIGBUS",
                _ => "a signal",
            };
            return format!("signal {}: {}", sig, name);
        }
    }
    format!("{}", status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_parse() {
        let (p, t, tid) = parse_progress("pencilc-progress: 2 isl-scheduler 1500").unwrap();
        assert_eq!(tid, None);
        let p = p.unwrap();
        assert_eq!((p.region, p.stage), (2, Stage::Rung(Rung::IslScheduler)));
        assert_eq!(t, Duration::from_millis(1500));
        let (p, _, tid) = parse_progress("pencilc-progress: 0 deps 20000 5 1 4242").unwrap();
        assert_eq!(p.unwrap().stage, Stage::Deps);
        assert_eq!(tid, Some(4242));
        assert!(parse_progress("pencilc-progress: 0 done 0")
            .unwrap()
            .0
            .is_none());
        assert!(parse_progress("pencilc-progress: x deps 1").is_none());
        assert!(parse_progress("warning: something").is_none());
    }

    #[test]
    fn results_round_trip() {
        let mut rep = FileReport::default();
        rep.kernels = 3;
        rep.warnings
            .push(Diagnostic::warning(Code::Budget, None, "w"));
        let line = result_line(&Ok(rep));
        let json = line.strip_prefix(RESULT_PREFIX).unwrap();
        let back = parse_result(json).unwrap().unwrap();
        assert_eq!(back.kernels, 3);
        assert_eq!(back.warnings[0].message, "w");
        assert_eq!(parse_region_rung("3=host"), Some((3, Rung::Host, None)));
        assert_eq!(
            parse_region_rung("0=no-wavefront:1500"),
            Some((0, Rung::NoWavefront, Some(Duration::from_millis(1500))))
        );
        assert_eq!(parse_region_rung("3=nothing"), None);
    }
}
