//! Schedule trees rebuilt node by node: isl has no call that replaces a
//! tree's domain or grafts a subtree onto another tree.

use crate::diag::{Diagnostic, Result};
use crate::isl::{Isl, IslResultExt};
use isl_rs::{ScheduleNode, ScheduleNodeType, UnionSetList};

const STAGE: &str = "isl";

/// Inserts a copy of the subtree at `old` at the position of the leaf
/// `new`; returns the node at that position.
pub fn copy_subtree(isl: &Isl, old: &ScheduleNode, new: ScheduleNode) -> Result<ScheduleNode> {
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
