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

use crate::diag::{Diagnostic, Result};
use crate::isl::{Isl, IslResultExt};
use isl_rs::{Schedule, ScheduleNode, ScheduleNodeType, UnionSetList};

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

/// Inserts a copy of the subtree at `old` at the position of the leaf
/// `new`; returns the node at that position.
fn copy_subtree(isl: &Isl, old: &ScheduleNode, new: ScheduleNode) -> Result<ScheduleNode> {
    let node = match old.get_type().isl(isl, STAGE)? {
        ScheduleNodeType::Leaf => return Ok(new),
        ScheduleNodeType::Band => {
            let n = old.band_n_member().isl(isl, STAGE)?;
            let mut band = new
                .insert_partial_schedule(old.band_get_partial_schedule().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .band_set_permutable(old.band_get_permutable().isl(isl, STAGE)? as i32)
                .isl(isl, STAGE)?
                .band_set_ast_build_options(old.band_get_ast_build_options().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            for k in 0..n {
                band = band
                    .band_member_set_coincident(
                        k,
                        old.band_member_get_coincident(k).isl(isl, STAGE)? as i32,
                    )
                    .isl(isl, STAGE)?
                    .band_member_set_ast_loop_type(
                        k,
                        old.band_member_get_ast_loop_type(k).isl(isl, STAGE)?,
                    )
                    .isl(isl, STAGE)?;
            }
            band
        }
        ScheduleNodeType::Mark => new
            .insert_mark(old.mark_get_id().isl(isl, STAGE)?)
            .isl(isl, STAGE)?,
        ScheduleNodeType::Filter => new
            .insert_filter(old.filter_get_filter().isl(isl, STAGE)?)
            .isl(isl, STAGE)?,
        ScheduleNodeType::Context => new
            .insert_context(old.context_get_context().isl(isl, STAGE)?)
            .isl(isl, STAGE)?,
        ScheduleNodeType::Guard => new
            .insert_guard(old.guard_get_guard().isl(isl, STAGE)?)
            .isl(isl, STAGE)?,
        ty @ (ScheduleNodeType::Sequence | ScheduleNodeType::Set) => {
            // Each child of a sequence or set is a filter; inserting the
            // filters recreates them, and their subtrees follow.
            let n = old.n_children().isl(isl, STAGE)?;
            let mut filters: Option<UnionSetList> = None;
            for i in 0..n {
                let f = old
                    .get_child(i)
                    .isl(isl, STAGE)?
                    .filter_get_filter()
                    .isl(isl, STAGE)?;
                filters = Some(match filters {
                    None => f.to_list().isl(isl, STAGE)?,
                    Some(l) => l.add(f).isl(isl, STAGE)?,
                });
            }
            let Some(filters) = filters else {
                return Ok(new);
            };
            let mut seq = if ty == ScheduleNodeType::Sequence {
                new.insert_sequence(filters).isl(isl, STAGE)?
            } else {
                new.insert_set(filters).isl(isl, STAGE)?
            };
            for i in 0..n {
                let old_filter = old.get_child(i).isl(isl, STAGE)?;
                let new_filter = seq.child(i).isl(isl, STAGE)?;
                seq = match old_filter.n_children().isl(isl, STAGE)? {
                    0 => new_filter,
                    _ => copy_subtree(
                        isl,
                        &old_filter.get_child(0).isl(isl, STAGE)?,
                        new_filter.child(0).isl(isl, STAGE)?,
                    )?
                    .parent()
                    .isl(isl, STAGE)?,
                }
                .parent()
                .isl(isl, STAGE)?;
            }
            return Ok(seq);
        }
        other => {
            return Err(Diagnostic::internal(
                STAGE,
                format!("unexpected {:?} node in the host tree", other),
            ))
        }
    };
    match old.n_children().isl(isl, STAGE)? {
        0 => Ok(node),
        _ => copy_subtree(
            isl,
            &old.get_child(0).isl(isl, STAGE)?,
            node.child(0).isl(isl, STAGE)?,
        )?
        .parent()
        .isl(isl, STAGE),
    }
}
