//! Moving a kernel band's block members to start at zero.
//!
//! Blocks are numbered from 0, and a band member whose values can be
//! negative (a skewed or reversed parallel row such as `i - j`) would
//! otherwise need the wrap-around grid (the cap of blocks, with tile ids
//! taken modulo it) instead of the few blocks the launch really has. A
//! shift by the member's smallest value at each prefix (a function of the
//! outer loops and the parameters only) keeps every dependence distance
//! inside the band unchanged, so coincidence and permutability survive;
//! the mapped tree is checked again by `valid` all the same.

use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, Map, ScheduleNode, Set, UnionMap, UnionPwAff};

const STAGE: &str = "map";

/// Shifts members `0..n` of the band at `node` so that each one's minimum,
/// over the instances sharing a prefix, is 0. Members that never go
/// negative are left alone, so ordinary kernels are unchanged.
pub fn shift_to_zero(isl: &Isl, node: ScheduleNode, n: usize) -> Result<ScheduleNode> {
    if n == 0 {
        return Ok(node);
    }
    let domain = node.get_domain().isl(isl, STAGE)?;
    let prefix = node
        .get_prefix_schedule_union_pw_multi_aff()
        .isl(isl, STAGE)?;
    let to_prefix = UnionMap::from_union_pw_multi_aff(prefix.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .intersect_domain(domain.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let partial = node.band_get_partial_schedule().isl(isl, STAGE)?;
    let mut shift = partial.copy().isl(isl, STAGE)?;
    let mut any = false;
    for j in 0..partial.size().isl(isl, STAGE)? as usize {
        let member = partial.get_union_pw_aff(j as i32).isl(isl, STAGE)?;
        let zero = member
            .copy()
            .isl(isl, STAGE)?
            .sub(member.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let lowest = if j < n {
            lowest_per_prefix(isl, &to_prefix, &member, &domain)?
        } else {
            None
        };
        let amount = match lowest {
            Some(lb) => {
                any = true;
                UnionPwAff::from_pw_aff(lb)
                    .isl(isl, STAGE)?
                    .pullback_union_pw_multi_aff(prefix.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?
                    .neg()
                    .isl(isl, STAGE)?
                    // Defined wherever the member is (isl requires it):
                    // the shift where the band runs, zero elsewhere.
                    .union_add(zero)
                    .isl(isl, STAGE)?
            }
            None => zero,
        };
        shift = shift.set_union_pw_aff(j as i32, amount).isl(isl, STAGE)?;
    }
    if !any {
        return Ok(node);
    }
    node.band_shift(shift).isl(isl, STAGE)
}

/// The member's minimum as a function of the prefix, if it can be negative.
fn lowest_per_prefix(
    isl: &Isl,
    to_prefix: &UnionMap,
    member: &UnionPwAff,
    domain: &isl_rs::UnionSet,
) -> Result<Option<isl_rs::PwAff>> {
    let values = UnionMap::from_union_pw_aff(member.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .intersect_domain(domain.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let rel = to_prefix
        .copy()
        .isl(isl, STAGE)?
        .reverse()
        .isl(isl, STAGE)?
        .apply_range(values)
        .isl(isl, STAGE)?;
    if rel.is_empty().isl(isl, STAGE)? {
        return Ok(None);
    }
    // Any lower bound serves (a smaller one only adds empty blocks at the
    // start), and the exact minimum over a skewed band's tiled instances
    // with parametric sizes can take isl minutes: the relation's rational
    // hull (local variables eliminated, one convex piece) gives one at
    // once. An unbounded hull keeps the wrap-around grid.
    let rel = Map::from_union_map(rel)
        .isl(isl, STAGE)?
        .remove_divs()
        .isl(isl, STAGE)?;
    let prefix_space = rel.get_space().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
    let range = rel.copy().isl(isl, STAGE)?.range().isl(isl, STAGE)?;
    let hull = Map::from_basic_map(rel.simple_hull().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let Some(lb) = usable_minimum(isl, hull.dim_min(0))? else {
        return Ok(None);
    };
    if lb.n_piece().isl(isl, STAGE)? == 1 {
        return Ok(Some(lb));
    }
    // A piecewise lower bound would put its pieces into every filter and
    // loop bound of the kernel (isl's AST generation then takes minutes):
    // the minimum over every prefix, a function of the parameters alone
    // (in differential case 702 of family 1002, `-i` under `2i + l = c`
    // had `max(-3, 1 - c/2)` per prefix and `-3` overall), does instead.
    // If that is piecewise too (`max(-35, 1 - n)` in case 950), the
    // minimum over the parameters as well, a constant, if there is one.
    let overall = Set::from_basic_set(range.simple_hull().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let n_params = overall.dim(DimType::Param).isl(isl, STAGE)? as u32;
    let candidates = [
        overall.copy().isl(isl, STAGE)?,
        overall
            .project_out(DimType::Param, 0, n_params)
            .isl(isl, STAGE)?,
    ];
    for set in candidates {
        let Some(lb) = usable_minimum(isl, set.dim_min(0))? else {
            continue;
        };
        if lb.n_piece().isl(isl, STAGE)? == 1 {
            let lb = lb
                .align_params(prefix_space.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .insert_domain(prefix_space)
                .isl(isl, STAGE)?;
            return Ok(Some(lb));
        }
    }
    Ok(None)
}

/// A minimum that `dim_min` found and that can be negative somewhere;
/// `None` for one isl could not compute (unbounded) or that never is.
fn usable_minimum(
    isl: &Isl,
    min: std::result::Result<isl_rs::PwAff, isl_rs::LibISLError>,
) -> Result<Option<isl_rs::PwAff>> {
    let lb = match min {
        Ok(lb) => lb,
        Err(e) => {
            let d = isl.err(STAGE, e);
            if d.code == crate::diag::Code::Budget {
                return Err(d);
            }
            return Ok(None);
        }
    };
    let dom = lb.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
    let nonneg = lb.copy().isl(isl, STAGE)?.nonneg_set().isl(isl, STAGE)?;
    if dom.is_subset(&nonneg).isl(isl, STAGE)? {
        return Ok(None);
    }
    Ok(Some(lb))
}
