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
use isl_rs::{Schedule, ScheduleNode};

const STAGE: &str = "map";

/// `host` with its domain replaced by the domain with every local variable
/// eliminated (a superset), the tree below copied node by node.
pub fn relax_launch_domains(isl: &Isl, host: Schedule) -> Result<Schedule> {
    let domain = host.get_domain().isl(isl, STAGE)?;
    let relaxed = domain
        .remove_divs()
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;
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
