//! isl's scheduler (`--scheduler isl`), the reference pencilc's own
//! scheduler is compared with. It runs in a worker process (this same
//! executable) so that a run-away computation can be stopped: isl's
//! operation budget does not cover all of its scheduler, and some stencils,
//! heat-3d among them, make it run for many minutes.

use super::Schedule;
use crate::deps::DependenceGraph;
use crate::diag::Result;
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use isl_rs::{ScheduleConstraints, Set, UnionSet};

const STAGE: &str = "sched";

/// isl's schedule tree, or why there is none (the caller falls back).
/// `worker` is the pencilc executable that runs the scheduler (default: the
/// current executable, which must then be pencilc itself). `serialize_sccs`
/// is isl's minimal fusion.
pub fn schedule_isl(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    timeout: std::time::Duration,
    worker: Option<&std::path::Path>,
    serialize_sccs: bool,
) -> Result<std::result::Result<Schedule, String>> {
    isl.reset_budget();
    let ctx = &isl.ctx;
    // Text: the model holds its domain and context as isl text (a `Scop` is
    // a plain value; see `Isl`'s readers); read here uncached, under the
    // budget `reset_budget` just gave the scheduler.
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
    // Private copies: the order between their live ranges binds wherever a
    // band carries the flow within one (PPCG's live-range reordering), so
    // that each live range runs whole in one thread.
    let order = isl.union_map(&deps.reorder_order).isl(isl, STAGE)?;
    let sc = if order.is_empty().isl(isl, STAGE)? {
        sc
    } else {
        let condition = isl.union_map(&deps.reorder_condition).isl(isl, STAGE)?;
        sc.set_conditional_validity(condition, order)
            .isl(isl, STAGE)?
    };
    let text = sc.text(isl, STAGE)?;
    let mut args = vec!["isl".to_string()];
    if serialize_sccs {
        args.push(SERIALIZE_SCCS_FLAG.to_string());
    }
    Ok(
        super::worker::run(&args, &text, timeout, worker, "isl's scheduler", || {
            schedule_in_process(&text, serialize_sccs)
        })
        .map(|tree| Schedule { tree }),
    )
}

pub(super) fn schedule_in_process(
    constraints: &str,
    serialize_sccs: bool,
) -> std::result::Result<String, String> {
    extern "C" {
        fn isl_options_set_schedule_serialize_sccs(ctx: libc::uintptr_t, val: i32) -> i32;
    }
    let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
    unsafe {
        isl_options_set_schedule_serialize_sccs(isl.ctx.ptr, serialize_sccs as i32);
    }
    // Text: the constraints come from the parent process (`sched::worker`),
    // where isl's scheduler cannot be stopped; text is what crosses.
    ScheduleConstraints::read_from_str(&isl.ctx, constraints)
        .and_then(|sc| sc.compute_schedule())
        .map_err(|e| e.to_string())
        .and_then(|s| s.text(&isl, STAGE).map_err(|d| d.message))
        .map_err(|e| format!("isl's scheduler failed: {}", e))
}

pub(super) const SERIALIZE_SCCS_FLAG: &str = "--serialize-sccs";
