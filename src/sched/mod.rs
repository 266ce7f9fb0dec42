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

pub fn schedule_isl(isl: &Isl, scop: &Scop, deps: &DependenceGraph) -> Result<Schedule> {
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
    let s = sc.compute_schedule().isl(isl, STAGE)?;
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
