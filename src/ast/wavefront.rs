//! The code of a wavefront kernel, generated from an affine domain.
//!
//! A wavefront kernel (see `sched::pluto::tree`) runs one tile per block,
//! in one thread: at host value `h`, block `b` runs the instances with
//! `⌊φ_j/T⌋ = b_j` for the mapped tile members and `Σ_k ⌊φ_k/T⌋ = h`.
//! Generated from the device tree as it is, every one of those floors is
//! a local variable isl carries through the kernel's code generation,
//! which then took seconds (jacobi-2d: 2 s at MINI). With the block ids as
//! parameters, the mapped floors are fixed, and isl's equality detection
//! turns the whole condition into affine bounds
//! (`32h - 32b0 - 32b1 <= t <= 32h - 32b0 - 32b1 + 31`). The kernel is
//! then generated from that domain and the tile band's unmapped members
//! (a loop over the remaining tiles of the wavefront) and point band
//! alone: the mapped members are constant in a block, and the thread
//! filter of a one-thread block selects everything.

use super::STAGE;
use crate::diag::Result;
use crate::isl::tree::copy_subtree;
use crate::isl::{Isl, IslResultExt};
use crate::map::KernelPlan;
use isl_rs::{DimType, Schedule, ScheduleNode, ScheduleNodeType, UnionSet};

/// The tree of kernel `k`'s launch on `instances` (its instances at this
/// launch, host values as parameters), or `None` if the kernel is not a
/// wavefront kernel of the expected shape (the caller then generates it
/// from the device tree as it is).
pub fn kernel_tree(
    isl: &Isl,
    device: &Schedule,
    plan: &KernelPlan,
    instances: &UnionSet,
) -> Result<Option<Schedule>> {
    if !plan.wavefront || plan.wraps.iter().any(|w| *w) || plan.n_block == 0 {
        return Ok(None);
    }
    let Some(mark) = find_kernel(isl, device.get_root().isl(isl, STAGE)?, plan.id)? else {
        return Ok(None);
    };
    // kernel mark → block context → block filter → tile band → thread
    // context → thread filter → tile band again (tiled by 1) → point band.
    let path = [
        ScheduleNodeType::Context,
        ScheduleNodeType::Filter,
        ScheduleNodeType::Band,
        ScheduleNodeType::Context,
        ScheduleNodeType::Filter,
        ScheduleNodeType::Band,
        ScheduleNodeType::Band,
    ];
    let mut nodes = Vec::new();
    let mut node = mark;
    for ty in path {
        if node.n_children().isl(isl, STAGE)? != 1 {
            return Ok(None);
        }
        node = node.get_child(0).isl(isl, STAGE)?;
        if node.get_type().isl(isl, STAGE)? != ty {
            return Ok(None);
        }
        nodes.push(node.copy().isl(isl, STAGE)?);
    }
    let (block_filter, tiles, point) = (&nodes[1], &nodes[2], &nodes[6]);
    let domain = instances
        .copy()
        .isl(isl, STAGE)?
        .intersect(block_filter.filter_get_filter().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .detect_equalities()
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;
    let mut at = ScheduleNode::from_domain(domain)
        .isl(isl, STAGE)?
        .child(0)
        .isl(isl, STAGE)?;
    let members = tiles.band_n_member().isl(isl, STAGE)? as usize;
    if members > plan.n_block {
        let rest = tiles
            .band_get_partial_schedule()
            .isl(isl, STAGE)?
            .drop_dims(DimType::Set, 0, plan.n_block as u32)
            .isl(isl, STAGE)?;
        at = at
            .insert_partial_schedule(rest)
            .isl(isl, STAGE)?
            .child(0)
            .isl(isl, STAGE)?;
    }
    let tree = copy_subtree(isl, point, at)?;
    Ok(Some(tree.get_schedule().isl(isl, STAGE)?))
}

/// The `kernel_<k>` mark of the device tree.
fn find_kernel(isl: &Isl, node: ScheduleNode, k: usize) -> Result<Option<ScheduleNode>> {
    if node.get_type().isl(isl, STAGE)? == ScheduleNodeType::Mark
        && node
            .mark_get_id()
            .isl(isl, STAGE)?
            .get_name()
            .isl(isl, STAGE)?
            == format!("kernel_{}", k)
    {
        return Ok(Some(node));
    }
    for i in 0..node.n_children().isl(isl, STAGE)? {
        if let Some(m) = find_kernel(isl, node.get_child(i).isl(isl, STAGE)?, k)? {
            return Ok(Some(m));
        }
    }
    Ok(None)
}
