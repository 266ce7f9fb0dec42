//! The legality checker: every schedule and every mapping decision is
//! checked against every dependence before code is emitted. A failure is an
//! internal error naming the violated dependence, never emitted code.

use crate::deps::DependenceGraph;
use crate::diag::{Diagnostic, Result};
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, MultiUnionPwAff, Schedule, UnionMap, UnionSet};

const STAGE: &str = "valid";

/// Checks that `tree` runs the target of every dependence after its source.
pub fn check_schedule(isl: &Isl, deps: &DependenceGraph, tree: &str) -> Result<()> {
    let sched = Schedule::read_from_str(&isl.ctx, tree).isl(isl, STAGE)?;
    check_schedule_map(isl, deps, sched.get_map().isl(isl, STAGE)?)
}

/// Checks a flat schedule map (statement instance → time vector).
pub fn check_schedule_map(isl: &Isl, deps: &DependenceGraph, map: UnionMap) -> Result<()> {
    let flat = padded_map(isl, map)?;
    let all = deps.all(isl)?;
    let ordered = flat
        .copy()
        .isl(isl, STAGE)?
        .lex_lt_union_map(flat)
        .isl(isl, STAGE)?;
    if !all.is_subset(&ordered).isl(isl, STAGE)? {
        let bad = all.subtract(ordered).isl(isl, STAGE)?;
        return Err(Diagnostic::internal(
            STAGE,
            format!(
                "the schedule violates the dependences {}",
                bad.to_str().isl(isl, STAGE)?
            ),
        ));
    }
    Ok(())
}

/// Checks that the members `parallel` of a band are really parallel: every
/// dependence between instances that run in the same iteration of the outer
/// (`prefix`) loops has distance zero along them.
pub fn check_parallel(
    isl: &Isl,
    deps: &DependenceGraph,
    domain: &UnionSet,
    prefix: &MultiUnionPwAff,
    parallel: &MultiUnionPwAff,
    what: &str,
) -> Result<()> {
    // Only dependences between instances below the band matter here; the
    // others are ordered by the sequence and host loops around it.
    let all = deps
        .all(isl)?
        .intersect_domain(domain.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .intersect_range(domain.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let same_outer = if prefix.size().isl(isl, STAGE)? > 0 {
        all.eq_at_multi_union_pw_aff(prefix.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
    } else {
        all
    };
    let same_par = same_outer
        .copy()
        .isl(isl, STAGE)?
        .eq_at_multi_union_pw_aff(parallel.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    if !same_outer.is_subset(&same_par).isl(isl, STAGE)? {
        let bad = same_outer.subtract(same_par).isl(isl, STAGE)?;
        return Err(Diagnostic::internal(
            STAGE,
            format!(
                "{} is marked parallel but carries the dependences {}",
                what,
                bad.to_str().isl(isl, STAGE)?
            ),
        ));
    }
    Ok(())
}

/// `isl_schedule_get_map` may give statements under different branches of
/// a sequence ranges of different lengths; pad them with zeros so that the
/// lexicographic order compares all of them.
fn padded_map(isl: &Isl, m: UnionMap) -> Result<UnionMap> {
    let list = m.get_map_list().isl(isl, STAGE)?;
    let n = list.size().isl(isl, STAGE)?;
    let mut maps = Vec::new();
    let mut max_out = 0;
    for i in 0..n {
        let map = list.get_at(i).isl(isl, STAGE)?;
        max_out = max_out.max(map.dim(DimType::Out).isl(isl, STAGE)?);
        maps.push(map);
    }
    let mut out: Option<UnionMap> = None;
    for map in maps {
        let d = map.dim(DimType::Out).isl(isl, STAGE)?;
        let mut map = map
            .add_dims(DimType::Out, (max_out - d) as u32)
            .isl(isl, STAGE)?;
        for k in d..max_out {
            map = map.fix_si(DimType::Out, k as u32, 0).isl(isl, STAGE)?;
        }
        let map = map.reset_tuple_id(DimType::Out).isl(isl, STAGE)?;
        let um = UnionMap::from_map(map).isl(isl, STAGE)?;
        out = Some(match out {
            None => um,
            Some(o) => o.union(um).isl(isl, STAGE)?,
        });
    }
    match out {
        Some(o) => Ok(o),
        None => UnionMap::read_from_str(&isl.ctx, "{ }").isl(isl, STAGE),
    }
}
