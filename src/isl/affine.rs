//! Reading an affine function's integer coefficients out of isl: the
//! scheduler reads a dependence's values as a row (`sched::pluto::rotate`)
//! and each access's subscripts (`sched::problem_of`) this way.

use super::{Isl, IslResultExt};
use crate::diag::Result;
use isl_rs::{Aff, DimType, Map, MultiAff, PwMultiAff, Val};

/// `map` as one affine function without pieces, or `None`.
pub fn single_multi_aff(isl: &Isl, map: Map, stage: &str) -> Result<Option<MultiAff>> {
    if !map.is_single_valued().isl(isl, stage)? {
        return Ok(None);
    }
    let pma = PwMultiAff::from_map(map).isl(isl, stage)?;
    if pma.n_piece().isl(isl, stage)? != 1 || !pma.isa_multi_aff().isl(isl, stage)? {
        return Ok(None);
    }
    Ok(Some(pma.as_multi_aff().isl(isl, stage)?))
}

/// `v` as an `i64`, or `None` where it is not an integer.
pub fn int_value(isl: &Isl, v: Val, stage: &str) -> Result<Option<i64>> {
    Ok(if v.is_int().isl(isl, stage)? {
        Some(v.get_num_si().isl(isl, stage)?)
    } else {
        None
    })
}

/// The coefficients of `aff`'s first `n` dimensions of kind `ty`, or
/// `None` where one is not an integer.
pub fn int_coefficients(
    isl: &Isl,
    aff: &Aff,
    ty: DimType,
    n: usize,
    stage: &str,
) -> Result<Option<Vec<i64>>> {
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        match int_value(
            isl,
            aff.get_coefficient_val(ty, k as i32).isl(isl, stage)?,
            stage,
        )? {
            Some(c) => out.push(c),
            None => return Ok(None),
        }
    }
    Ok(Some(out))
}
