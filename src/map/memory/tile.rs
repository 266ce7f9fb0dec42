//! Tiles of an array in local memory: the elements a group touches per
//! iteration of the outer loops (a map `O → A` from outer schedule values
//! to array elements), over-approximated by a box of constant size whose
//! offset may move with `O` and the parameters.

use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, Map, PwAff, Val};

const STAGE: &str = "map-memory";

/// A shared-memory tile: element `a` lives at `(a - offset(O)) / stride`.
pub struct SharedBox {
    pub offset: Vec<PwAff>,
    pub strides: Vec<i64>,
    pub sizes: Vec<i64>,
}

/// Rectangular over-approximation of the range of `f` with constant sizes.
/// isl's "simple fixed box hull" considers each lower bound of an index
/// and keeps the one giving the smallest constant size (PPCG's rule).
/// `None` when some index has no constant-size range. The box is dense
/// (strides 1); `shared_tile` divides strides out.
pub fn shared_box(isl: &Isl, f: &Map) -> Result<Option<SharedBox>> {
    if f.is_empty().isl(isl, STAGE)? {
        return Ok(None);
    }
    let b = f.get_range_simple_fixed_box_hull().isl(isl, STAGE)?;
    if !b.is_valid().isl(isl, STAGE)? {
        return Ok(None);
    }
    let off = b.get_offset().isl(isl, STAGE)?;
    let size = b.get_size().isl(isl, STAGE)?;
    let n = f.dim(DimType::Out).isl(isl, STAGE)? as i32;
    let mut offset = Vec::new();
    let mut sizes = Vec::new();
    for i in 0..n {
        let v = size.get_val(i).isl(isl, STAGE)?;
        let s = v.get_num_si().isl(isl, STAGE)?;
        if s < 1 {
            return Ok(None);
        }
        sizes.push(s);
        let a = off.get_aff(i).isl(isl, STAGE)?;
        offset.push(PwAff::from_aff(a).isl(isl, STAGE)?);
    }
    Ok(Some(SharedBox {
        strides: vec![1; sizes.len()],
        offset,
        sizes,
    }))
}

/// The shared tile of `f` with constant strides divided out (PPCG): when
/// every element of index `i` is `r(O) + g * k`, the box `[L, L + S - 1]`
/// holds at most `(S - 1) / g + 1` of them, the first at `L + ((r - L) mod
/// g)`; `A[2 * i]` over 32 values of `i` needs 32 places, not 63.
pub fn shared_tile(isl: &Isl, f: &Map) -> Result<Option<SharedBox>> {
    let Some(mut bx) = shared_box(isl, f)? else {
        return Ok(None);
    };
    for i in 0..bx.sizes.len() {
        let si = f.get_range_stride_info(i as i32).isl(isl, STAGE)?;
        let g = si
            .get_stride()
            .isl(isl, STAGE)?
            .get_num_si()
            .isl(isl, STAGE)?;
        if g <= 1 {
            continue;
        }
        let r = PwAff::from_aff(si.get_offset().isl(isl, STAGE)?).isl(isl, STAGE)?;
        let low = bx.offset[i].copy().isl(isl, STAGE)?;
        let gv = Val::int_from_si(&isl.ctx, g).isl(isl, STAGE)?;
        let first = r
            .sub(low.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .mod_val(gv)
            .isl(isl, STAGE)?
            .add(low)
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        bx.offset[i] = first;
        bx.strides[i] = g;
        bx.sizes[i] = (bx.sizes[i] - 1) / g + 1;
    }
    Ok(Some(bx))
}

/// A register tile: element `a` lives at `(a - offset(O)) / stride`, and
/// `offset` is the smallest element touched (so that a fully unrolled loop
/// gives constant indices: `(32*b0 + t0 + 16 - (32*b0 + t0)) / 16`).
pub struct RegisterTile {
    pub offset: Vec<PwAff>,
    pub strides: Vec<i64>,
    pub sizes: Vec<i64>,
}

/// The register tile of one thread's footprint `f` (thread ids are
/// parameters of `f`). Strides are divided out: a thread that handles
/// rows `t0, t0 + 16` of a 32-row tile holds 2 rows, not 17.
pub fn register_tile(isl: &Isl, f: &Map) -> Result<Option<RegisterTile>> {
    let Some(bx) = shared_box(isl, f)? else {
        return Ok(None);
    };
    let n = bx.sizes.len();
    let mut offset = Vec::new();
    let mut strides = Vec::new();
    let mut sizes = Vec::new();
    for i in 0..n {
        let si = f.get_range_stride_info(i as i32).isl(isl, STAGE)?;
        let g = si
            .get_stride()
            .isl(isl, STAGE)?
            .get_num_si()
            .isl(isl, STAGE)?
            .max(1);
        let min = f
            .copy()
            .isl(isl, STAGE)?
            .dim_min(i as i32)
            .isl(isl, STAGE)?;
        // A piecewise minimum would give non-constant register indices
        // even after unrolling; such groups stay out of registers.
        if min.n_piece().isl(isl, STAGE)? != 1 {
            return Ok(None);
        }
        offset.push(min.coalesce().isl(isl, STAGE)?);
        strides.push(g);
        // Elements lie in [low, low + size - 1] of the box and are
        // congruent to the minimum modulo g: at most (size - 1)/g + 1.
        sizes.push((bx.sizes[i] - 1) / g + 1);
    }
    Ok(Some(RegisterTile {
        offset,
        strides,
        sizes,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(isl: &Isl, s: &str) -> Map {
        isl.map(s).unwrap()
    }

    #[test]
    fn gemm_a_tile_is_32_by_32() {
        let isl = Isl::new(0);
        let f = map(
            &isl,
            "{ [I, J, K] -> A[a0, a1] : 32I <= a0 <= 32I + 31 and 32K <= a1 <= 32K + 31 and 0 <= a0 < 1000 and 0 <= a1 < 1200 }",
        );
        let b = shared_box(&isl, &f).unwrap().unwrap();
        assert_eq!(b.sizes, vec![32, 32]);
    }

    #[test]
    fn stencil_halo_adds_two() {
        let isl = Isl::new(0);
        let f = map(
            &isl,
            "[n] -> { [I, J] -> A[a0, a1] : 32I - 1 <= a0 <= 32I + 32 and 32J - 1 <= a1 <= 32J + 32 and 0 <= a0 < n and 0 <= a1 < n }",
        );
        assert_eq!(shared_box(&isl, &f).unwrap().unwrap().sizes, vec![34, 34]);
    }

    #[test]
    fn parametric_extent_has_no_box() {
        let isl = Isl::new(0);
        let f = map(&isl, "[n] -> { [I] -> A[a0] : 0 <= a0 < n }");
        assert!(shared_box(&isl, &f).unwrap().is_none());
    }

    #[test]
    fn shared_tile_divides_out_a_constant_stride() {
        let isl = Isl::new(0);
        // x[2j + 1] for the 32 values of j of tile J.
        let f = map(
            &isl,
            "{ [J] -> x[a] : exists (j : a = 2j + 1 and 32J <= j <= 32J + 31 and 0 <= j < 70) }",
        );
        assert_eq!(shared_box(&isl, &f).unwrap().unwrap().sizes, vec![63]);
        let t = shared_tile(&isl, &f).unwrap().unwrap();
        assert_eq!(t.strides, vec![2]);
        assert_eq!(t.sizes, vec![32]);
        // The first element is the offset: x[64J + 1] lives at 0.
        let dom = "{ [J] : 0 <= J <= 2 }";
        let got = Map::from_pw_aff(t.offset[0].copy().unwrap())
            .unwrap()
            .intersect_domain(isl.set(dom).unwrap())
            .unwrap();
        let want = map(&isl, "{ [J] -> [64J + 1] : 0 <= J <= 2 }");
        assert!(got.is_equal(&want).unwrap(), "{}", got.to_str().unwrap());
    }

    #[test]
    fn register_tile_divides_out_the_thread_stride() {
        let isl = Isl::new(0);
        let f = map(
            &isl,
            "[t0, t1] -> { [I, J] -> C[a0, a1] : 0 <= t0 < 16 and 0 <= t1 < 32 and exists (e : a0 = 32I + t0 + 16e) and 32I <= a0 <= 32I + 31 and a1 = 32J + t1 }",
        );
        let r = register_tile(&isl, &f).unwrap().unwrap();
        assert_eq!(r.strides, vec![16, 1]);
        assert_eq!(r.sizes, vec![2, 1]);
    }
}
