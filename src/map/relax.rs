//! The host tree's launch domains, relaxed.
//!
//! Grouping gives each kernel one instance per launch, and isl makes the
//! set of launches exact: the projection of the kernel's instances onto
//! the host loops. With parametric sizes and tiled or skewed bands that
//! projection is a union of pieces full of existentials, and the host
//! code then tests it before every launch (`if (n >= 32 * c0 + 2 || ...)`
//! over hundreds of characters, costing seconds of isl time). A launch at
//! a host value without instances does nothing, so the host may launch
//! wherever the projection's rational hull allows instead; `ast` then
//! guards each launch only by what its grid computation needs.

use crate::diag::Result;
use crate::isl::tree::copy_subtree;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{Schedule, ScheduleNode, Set, UnionSet};

const STAGE: &str = "map";

/// `host` with its domain replaced by a superset: every local variable
/// eliminated, one convex piece per launch statement; the tree below
/// copied node by node.
pub fn relax_launch_domains(isl: &Isl, host: Schedule) -> Result<Schedule> {
    let domain = host.get_domain().isl(isl, STAGE)?;
    let relaxed = relax(isl, domain)?;
    let old = host.get_root().isl(isl, STAGE)?;
    let root = ScheduleNode::from_domain(relaxed).isl(isl, STAGE)?;
    let new = match old.n_children().isl(isl, STAGE)? {
        0 => root,
        _ => {
            let child = old.get_child(0).isl(isl, STAGE)?;
            copy_subtree(isl, &child, root.child(0).isl(isl, STAGE)?)?
                .parent()
                .isl(isl, STAGE)?
        }
    };
    new.get_schedule().isl(isl, STAGE)
}

/// Each launch statement's set without local variables, as one convex
/// piece where that stays bounded: a union would make isl generate the
/// host loop, and the kernel's code, once per piece. The polyhedral hull
/// (not the simple hull, which keeps only the constraints shared by every
/// piece and may lose the upper bounds of a loop over launches).
fn relax(isl: &Isl, domain: UnionSet) -> Result<UnionSet> {
    let sets = domain
        .remove_divs()
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?
        .get_set_list()
        .isl(isl, STAGE)?;
    let mut out: Option<UnionSet> = None;
    for i in 0..sets.size().isl(isl, STAGE)? {
        let set = sets.get_at(i).isl(isl, STAGE)?;
        let piece = if set.n_basic_set().isl(isl, STAGE)? > 1 {
            let hull = Set::from_basic_set(
                set.copy()
                    .isl(isl, STAGE)?
                    .polyhedral_hull()
                    .isl(isl, STAGE)?,
            )
            .isl(isl, STAGE)?;
            if hull.is_bounded().isl(isl, STAGE)? || !set.is_bounded().isl(isl, STAGE)? {
                hull
            } else {
                set
            }
        } else {
            set
        };
        let piece = piece.to_union_set().isl(isl, STAGE)?;
        out = Some(match out {
            None => piece,
            Some(u) => u.union(piece).isl(isl, STAGE)?,
        });
    }
    match out {
        Some(u) => Ok(u),
        None => isl.union_set("{ }").isl(isl, STAGE),
    }
}
