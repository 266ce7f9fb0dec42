//! Schedules as flat time maps: instance → time vector.

use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, UnionMap};

const STAGE: &str = "isl";

/// `isl_schedule_get_map` may give statements under different branches of
/// a sequence ranges of different lengths; pad them with zeros so that the
/// lexicographic order compares all of them.
pub fn padded_map(isl: &Isl, m: UnionMap) -> Result<UnionMap> {
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
        None => isl.union_map("{ }").isl(isl, STAGE),
    }
}

/// Each map of `m` (instance → time, padded to one length) with only its
/// first `d` time dimensions.
pub fn time_prefix(isl: &Isl, m: &UnionMap, d: u32) -> Result<UnionMap> {
    let list = m.get_map_list().isl(isl, STAGE)?;
    let mut out = isl.union_map("{ }").isl(isl, STAGE)?;
    for i in 0..list.size().isl(isl, STAGE)? {
        let map = list.get_at(i).isl(isl, STAGE)?;
        let n = map.dim(DimType::Out).isl(isl, STAGE)? as u32;
        let map = map
            .project_out(DimType::Out, d.min(n), n - d.min(n))
            .isl(isl, STAGE)?;
        out = out
            .union(UnionMap::from_map(map).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
    }
    Ok(out)
}
