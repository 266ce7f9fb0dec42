//! Scheduling: a new execution order for the statement instances that keeps
//! every dependence and exposes parallel, tilable bands. This stage uses
//! isl's Pluto-style scheduler; the result is an isl schedule tree of
//! permutable bands whose members are marked coincident (parallel).

use crate::deps::DependenceGraph;
use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use isl_rs::{ScheduleConstraints, Set, UnionSet};

const STAGE: &str = "sched";

/// A schedule tree in isl's text notation. Invariant: it has been checked
/// against every dependence by `valid` before any later stage uses it.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub tree: String,
}

impl Schedule {
    pub fn dump(&self) -> String {
        format!("{}\n", pretty_tree(&self.tree))
    }
}

/// How long isl's scheduler may run before pencilc falls back to the
/// original execution order (isl's operation budget does not cover all of
/// its scheduler, and some stencils, heat-3d among them, make it run for
/// many minutes).
pub const DEFAULT_TIMEOUT_SECS: u64 = 20;

/// A schedule and whether it is isl's or the fallback.
pub struct Scheduled {
    pub schedule: Schedule,
    /// Why the original order is used instead of isl's schedule, if it is.
    pub fallback: Option<String>,
}

/// `worker` is the pencilc executable that runs the scheduler (default: the
/// current executable, which must then be pencilc itself).
pub fn schedule_isl(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    timeout_secs: u64,
    worker: Option<&std::path::Path>,
) -> Result<Scheduled> {
    isl.reset_budget();
    let ctx = &isl.ctx;
    let domain = UnionSet::read_from_str(ctx, &scop.domain_text()).isl(isl, STAGE)?;
    let context = Set::read_from_str(ctx, &scop.context).isl(isl, STAGE)?;
    let all = deps.all(isl)?;
    let sc = ScheduleConstraints::on_domain(domain)
        .isl(isl, STAGE)?
        .set_context(context)
        .isl(isl, STAGE)?
        .set_validity(all.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .set_coincidence(all.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .set_proximity(all)
        .isl(isl, STAGE)?;
    let text = sc.to_str().isl(isl, STAGE)?.to_string();
    match schedule_in_worker(&text, timeout_secs, worker) {
        Ok(tree) => Ok(Scheduled {
            schedule: Schedule { tree },
            fallback: None,
        }),
        Err(why) => Ok(Scheduled {
            schedule: original_order(isl, scop)?,
            fallback: Some(why),
        }),
    }
}

/// The scheduler runs in a child process (this same executable) so that a
/// run-away isl computation can be stopped.
fn schedule_in_worker(
    constraints: &str,
    timeout_secs: u64,
    worker: Option<&std::path::Path>,
) -> std::result::Result<String, String> {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let exe = match worker {
        Some(w) => w.to_path_buf(),
        None => std::env::current_exe()
            .map_err(|e| format!("cannot find the pencilc executable: {}", e))?,
    };
    // Only pencilc itself understands the worker flag; any other program
    // using the library would run itself again (recursively).
    let is_pencilc = exe
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("pencilc"));
    if !is_pencilc {
        return schedule_in_process(constraints);
    }
    let mut child = Command::new(exe)
        .arg(WORKER_FLAG)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the scheduler: {}", e))?;
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(constraints.as_bytes())
        .map_err(|e| e.to_string())?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).map(|_| s)
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(timeout_secs);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let out = reader
                    .join()
                    .map_err(|_| "scheduler output lost".to_string())?
                    .map_err(|e| e.to_string())?;
                return if status.success() && !out.trim().is_empty() {
                    Ok(out.trim().to_string())
                } else {
                    let mut err = String::new();
                    if let Some(mut e) = child.stderr.take() {
                        let _ = e.read_to_string(&mut err);
                    }
                    Err(format!("isl's scheduler failed: {}", err.trim()))
                };
            }
            Ok(None) if std::time::Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "isl's scheduler did not finish within {} s",
                    timeout_secs
                ));
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(5)),
            Err(e) => return Err(e.to_string()),
        }
    }
}

fn schedule_in_process(constraints: &str) -> std::result::Result<String, String> {
    let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
    ScheduleConstraints::read_from_str(&isl.ctx, constraints)
        .and_then(|sc| sc.compute_schedule())
        .and_then(|s| s.to_str().map(|t| t.to_string()))
        .map_err(|e| format!("isl's scheduler failed: {}", e))
}

/// The hidden command-line flag that turns pencilc into a scheduler worker.
pub const WORKER_FLAG: &str = "--internal-schedule-worker";

/// The worker: schedule constraints in isl notation on stdin, the schedule
/// tree on stdout.
pub fn run_worker() -> i32 {
    use std::io::Read;
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        return 2;
    }
    match schedule_in_process(&input) {
        Ok(t) => {
            println!("{}", t);
            0
        }
        Err(e) => {
            eprintln!("{}", e);
            1
        }
    }
}

/// The original execution order as a schedule tree: always valid, with no
/// parallelism marked, so the mapper runs it as one sequential kernel.
fn original_order(isl: &Isl, scop: &Scop) -> Result<Schedule> {
    let domain = UnionSet::read_from_str(&isl.ctx, &scop.domain_text()).isl(isl, STAGE)?;
    let order = isl_rs::UnionMap::read_from_str(&isl.ctx, &scop.schedule_text()).isl(isl, STAGE)?;
    let mupa = isl_rs::MultiUnionPwAff::from_union_map(order).isl(isl, STAGE)?;
    let s = isl_rs::Schedule::from_domain(domain)
        .isl(isl, STAGE)?
        .insert_partial_schedule(mupa)
        .isl(isl, STAGE)?;
    Ok(Schedule {
        tree: s.to_str().isl(isl, STAGE)?.to_string(),
    })
}

/// Indents isl's one-line schedule tree text for people to read. The
/// result still parses as an isl schedule.
pub fn pretty_tree(t: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let mut in_str = false;
    for c in t.chars() {
        match c {
            '"' => {
                in_str = !in_str;
                out.push(c);
            }
            '{' | '[' if !in_str => {
                depth += 1;
                out.push(c);
            }
            '}' | ']' if !in_str => {
                depth = depth.saturating_sub(1);
                out.push(c);
            }
            ',' if !in_str && depth > 0 => {
                out.push(',');
                out.push('\n');
                out.push_str(&"  ".repeat(depth));
            }
            ' ' if !in_str && out.ends_with(['\n', ' ']) => {}
            _ => out.push(c),
        }
    }
    out
}
