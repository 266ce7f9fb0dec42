//! Scheduling: a new execution order for the statement instances that keeps
//! every dependence and exposes parallel, tilable bands. The result is an
//! isl schedule tree of bands whose members are marked coincident
//! (parallel) and permutable (tilable).
//!
//! Two schedulers: pencilc's own Pluto-style ILP scheduler (`pluto/`, the
//! default) and isl's (`isl_sched.rs`, the reference). When the chosen one
//! runs out of its budget or fails, the other is tried, then the original
//! order; each fallback is a warning naming the region.

mod isl_sched;
mod original;
pub mod pluto;
mod worker;

pub use original::original_tree;
pub use pluto::Fuse;
pub use worker::{run_worker, WORKER_FLAG};

use crate::deps::DependenceGraph;
use crate::diag::Result;
use crate::isl::IslText;
use crate::isl::{affine, Isl, IslResultExt};
use crate::scop::Scop;

use std::time::Duration;

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

/// Seconds one region's compilation may take (`--schedule-timeout`) before
/// pencilc falls back to simpler choices; the schedulers get part of it.
pub const DEFAULT_TIMEOUT_SECS: u64 = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedulerKind {
    Pluto,
    Isl,
}

impl SchedulerKind {
    pub fn name(self) -> &'static str {
        match self {
            SchedulerKind::Pluto => "pluto",
            SchedulerKind::Isl => "isl",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct SchedOptions {
    pub kind: SchedulerKind,
    pub fuse: Fuse,
    /// The pencilc executable that runs isl's scheduler (default: this one).
    pub worker: Option<std::path::PathBuf>,
    /// Tile size of the wavefront for bands with no parallel row.
    pub wavefront_tile: i64,
    /// Whether such bands become wavefronts (`Device::wavefront`); if not,
    /// their time row alone, around parallel inner bands, where it can.
    pub wavefront: bool,
    /// Whether pencilc's scheduler puts a sequential row of a band with
    /// parallel ones outside it where that leaves more parallelism inside
    /// (`pluto::PlutoOptions::hoist`). The driver asks for it where the
    /// GPU model finds a schedule bound by one thread's chain of work.
    pub hoist: bool,
}

impl Default for SchedOptions {
    fn default() -> Self {
        SchedOptions {
            kind: SchedulerKind::Pluto,
            fuse: Fuse::Smart,
            worker: None,
            wavefront_tile: 32,
            wavefront: true,
            hoist: false,
        }
    }
}

/// A schedule, which scheduler produced it, and the fallbacks taken.
#[derive(Clone, Debug)]
pub struct Scheduled {
    pub schedule: Schedule,
    /// `pluto`, `isl` or `original order`.
    pub by: &'static str,
    /// Why the requested scheduler's result is not used, if it is not.
    pub fallback: Option<String>,
    /// Integer programs solved (pluto only).
    pub ilp_solves: usize,
}

pub fn schedule(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    opts: &SchedOptions,
) -> Result<Scheduled> {
    let mut why: Vec<String> = Vec::new();
    let mut solves = 0;
    let order = match opts.kind {
        SchedulerKind::Pluto => [SchedulerKind::Pluto, SchedulerKind::Isl],
        SchedulerKind::Isl => [SchedulerKind::Isl, SchedulerKind::Pluto],
    };
    // The region's time left (see `driver`), two thirds of it for the
    // scheduler asked for and the rest for the other.
    let available = isl
        .time_left()
        .unwrap_or(Duration::from_secs(DEFAULT_TIMEOUT_SECS));
    for (k, kind) in order.into_iter().enumerate() {
        let timeout = if k == 0 {
            available.mul_f64(2.0 / 3.0)
        } else {
            isl.time_left().unwrap_or(available / 3)
        };
        let r = match kind {
            SchedulerKind::Pluto => {
                let (r, n) = schedule_pluto(isl, scop, deps, opts, timeout)?;
                solves += n;
                r
            }
            SchedulerKind::Isl => isl_sched::schedule_isl(
                isl,
                scop,
                deps,
                timeout,
                opts.worker.as_deref(),
                opts.fuse == Fuse::Min,
            )?,
        };
        match r {
            Ok(schedule) => {
                return Ok(Scheduled {
                    schedule,
                    by: kind.name(),
                    fallback: (!why.is_empty()).then(|| why.join("; ")),
                    ilp_solves: solves,
                })
            }
            Err(w) => why.push(w),
        }
    }
    Ok(Scheduled {
        schedule: original::original_tree(isl, scop, deps)?,
        by: "original order",
        fallback: Some(why.join("; ")),
        ilp_solves: solves,
    })
}

/// pencilc's scheduler, run in a worker process under the time limit; the
/// inner error says why it has no schedule.
fn schedule_pluto(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    opts: &SchedOptions,
    timeout: Duration,
) -> Result<(std::result::Result<Schedule, String>, usize)> {
    let problem = problem_of(isl, scop, deps)?;
    let args: Vec<String> = vec![
        "pluto".into(),
        match opts.fuse {
            Fuse::Max => "max",
            Fuse::Smart => "smart",
            Fuse::Min => "min",
        }
        .into(),
        opts.wavefront_tile.to_string(),
        timeout.as_millis().to_string(),
        if opts.wavefront {
            "wavefront"
        } else {
            "time-loop"
        }
        .into(),
        if opts.hoist { "hoist" } else { "keep" }.into(),
    ];
    let input = problem.to_text();
    // The worker gets a little longer than its own deadline, so that it can
    // say why it stopped.
    let r = worker::run(
        &args,
        &input,
        timeout + Duration::from_millis(500),
        opts.worker.as_deref(),
        "pencilc's scheduler",
        || pluto_job(&args[1..], &input),
    );
    Ok(match r {
        Ok(out) => {
            let (first, tree) = out.split_once('\n').unwrap_or(("", &out));
            let solves = first
                .strip_prefix("solves ")
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or(0);
            (
                Ok(Schedule {
                    tree: tree.trim().to_string(),
                }),
                solves,
            )
        }
        Err(why) => (Err(why), 0),
    })
}

/// What pencilc's scheduler works on, for `scop` and its dependences.
pub(crate) fn problem_of(isl: &Isl, scop: &Scop, deps: &DependenceGraph) -> Result<pluto::Problem> {
    Ok(pluto::Problem {
        params: scop.params.clone(),
        stmts: scop
            .stmts
            .iter()
            .map(|s| (s.name.clone(), s.iterators.len()))
            .collect(),
        domain: scop.domain_text(),
        deps: crate::deps::pieces(isl, scop, deps)?,
        arrays: scop
            .stmts
            .iter()
            .map(|s| {
                let mut names: Vec<String> = s
                    .reads
                    .iter()
                    .chain(s.writes.iter())
                    .filter(|a| scop.array(&a.array).is_some_and(|x| !x.is_scalar()))
                    .map(|a| a.array.clone())
                    .collect();
                names.sort();
                names.dedup();
                names
            })
            .collect(),
        private: deps
            .privatised
            .iter()
            .map(|p| (p.depth, p.stmts.clone()))
            .collect(),
        subscripts: scop
            .stmts
            .iter()
            .map(|st| subscripts_of(isl, scop, st))
            .collect::<Result<_>>()?,
    })
}

/// The affine subscripts of `st`'s array accesses, as coefficients of its
/// iterators per array dimension (`pluto::Problem::subscripts`); accesses
/// that are not one affine function of the iterators are left out.
fn subscripts_of(
    isl: &Isl,
    scop: &Scop,
    st: &crate::scop::Statement,
) -> Result<Vec<Vec<Vec<i64>>>> {
    let n = st.iterators.len();
    let mut out = Vec::new();
    if n == 0 {
        return Ok(out);
    }
    for a in st.reads.iter().chain(st.writes.iter()) {
        if !scop.array(&a.array).is_some_and(|x| !x.is_scalar()) {
            continue;
        }
        let map = isl.map(&a.relation).isl(isl, STAGE)?;
        let Some(ma) = affine::single_multi_aff(isl, map, STAGE)? else {
            continue;
        };
        let dims = ma.size().isl(isl, STAGE)? as usize;
        let mut m = Vec::new();
        for d in 0..dims {
            let aff = ma.get_at(d as i32).isl(isl, STAGE)?;
            if let Some(row) = affine::int_coefficients(isl, &aff, isl_rs::DimType::In, n, STAGE)? {
                m.push(row);
            }
        }
        if dims > 0 && m.len() == dims {
            out.push(m);
        }
    }
    Ok(out)
}

/// The worker's side of `schedule_pluto`: `args` = fuse, wavefront tile,
/// milliseconds, `wavefront` or `time-loop`, `hoist` or `keep`; `input` =
/// the problem. Output: `solves N`, then the tree.
pub(crate) fn pluto_job(args: &[String], input: &str) -> std::result::Result<String, String> {
    let fuse = match args.first().map(|s| s.as_str()) {
        Some("max") => Fuse::Max,
        Some("min") => Fuse::Min,
        _ => Fuse::Smart,
    };
    let tile: i64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(32);
    let millis: u64 = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_TIMEOUT_SECS * 1000);
    let problem = pluto::Problem::from_text(input)?;
    let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
    let popts = pluto::PlutoOptions {
        fuse,
        max_coefficient: 4,
        max_shift: 64,
        wavefront_tile: tile,
        wavefront: args.get(3).map(|s| s.as_str()) != Some("time-loop"),
        hoist: args.get(4).map(|s| s.as_str()) == Some("hoist"),
        deadline: crate::clock::Deadline::after(Duration::from_millis(millis)),
    };
    match pluto::schedule(&isl, &problem, &popts) {
        Ok((node, n)) => {
            let tree = pluto::to_isl_tree(&problem, &node, tile);
            // Normalise through isl (and catch a malformed tree here).
            let parsed = isl.schedule(&tree).map_err(|e| {
                format!(
                    "pencilc's scheduler wrote a tree isl cannot read ({}): {}",
                    e, tree
                )
            })?;
            let text = parsed.text(&isl, STAGE).map_err(|d| d.message)?;
            Ok(format!("solves {}\n{}", n, text))
        }
        Err(pluto::PlutoError::Budget(w)) => Err(format!("pencilc's scheduler: {}", w)),
        Err(pluto::PlutoError::Failed(w)) => Err(format!("pencilc's scheduler failed: {}", w)),
        Err(pluto::PlutoError::Isl(d)) => Err(format!("pencilc's scheduler: {}", d.message)),
    }
}

/// A schedule tree read back from `--load-schedule`: it must be a schedule
/// of exactly this region's statements (checked against the dependences by
/// `valid` like any other).
pub fn load(isl: &Isl, scop: &Scop, text: &str) -> std::result::Result<Schedule, String> {
    let s = isl
        .schedule(text.trim())
        .map_err(|e| format!("not an isl schedule tree: {}", e))?;
    let dom = s.get_domain().map_err(|e| e.to_string())?;
    let mine = isl
        .union_set(&scop.domain_text())
        .map_err(|e| e.to_string())?;
    if !dom.is_equal(&mine).map_err(|e| e.to_string())? {
        return Err(format!(
            "the schedule's domain {} is not this region's domain {}",
            dom.text(isl, STAGE).map_err(|d| d.message)?,
            scop.domain_text()
        ));
    }
    Ok(Schedule {
        tree: s.text(isl, STAGE).map_err(|d| d.message)?,
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
