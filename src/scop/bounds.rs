//! What a region's accesses imply about its parameters.
//!
//! An access outside its array is undefined behaviour in C, so wherever a
//! statement runs, its subscripts stay inside the array's declared
//! extents: `A[i]` with `0 <= i < n` and `double A[40]` means `n <= 40`.
//! pet and PPCG derive such facts too. With run-time loop bounds (PolyBench's
//! default `POLYBENCH_LOOP_BOUND`), they are what tells isl that a loop has
//! at most two tiles, so that the code for `i < n` is as simple as for
//! `i < 40`.
//!
//! The facts are derived per statement and simplified where the
//! statement runs (`ni <= 20 or nj <= 0` becomes `ni <= 20`), which makes
//! them stronger than what the program strictly implies where a
//! statement does not run at all. They are therefore not assumed
//! blindly: the generated host code tests them on entry to the region
//! and runs the user's original code when they fail (see `back`).
//!
//! Only accesses that surely happen count: plain assignments (not
//! compound statements or summary calls, whose relations over-approximate
//! what they touch), must-accesses (not reads under `?:`, `&&`, `||`, nor
//! non-affine subscripts), and constant extents.

use super::{Extent, Scop, StmtBody};
use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use isl_rs::Set;

const STAGE: &str = "scop";

/// The parameter values (an isl set over the region's parameters) at
/// which every sure access of every statement stays inside its array,
/// conjunctive, simplified by where each statement runs; `None` if the
/// accesses imply nothing.
pub fn implied_by_accesses(isl: &Isl, scop: &Scop) -> Result<Option<Set>> {
    let mut implied: Option<Set> = None;
    for st in &scop.stmts {
        if !matches!(st.body, StmtBody::Assign { .. }) {
            continue;
        }
        let domain = isl.set(&st.domain).isl(isl, STAGE)?;
        let runs = domain.copy().isl(isl, STAGE)?.params().isl(isl, STAGE)?;
        let mut bad: Option<Set> = None;
        for a in st.reads.iter().chain(st.writes.iter()).filter(|a| !a.may) {
            let Some(array) = scop.array(&a.array) else {
                continue;
            };
            // Pointers and delinearised arrays: their inner subscripts are
            // checked exactly, and reported, by `reshape::validity`.
            if array.extents.first() == Some(&Extent::Accessed) {
                continue;
            }
            let rel = isl
                .map(&a.relation)
                .isl(isl, STAGE)?
                .intersect_domain(domain.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            for (d, extent) in array.extents.iter().enumerate() {
                let Extent::Const(c) = extent else { continue };
                let outside = Set::read_from_str(
                    &isl.ctx,
                    &format!(
                        "{{ [{}] : o{d} < 0 or o{d} >= {c} }}",
                        (0..array.extents.len())
                            .map(|k| format!("o{}", k))
                            .collect::<Vec<_>>()
                            .join(", "),
                        d = d,
                        c = c
                    ),
                )
                .isl(isl, STAGE)?;
                let space = rel.get_space().isl(isl, STAGE)?.range().isl(isl, STAGE)?;
                let outside = outside
                    .align_params(space.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?
                    .set_tuple_name(&a.array)
                    .isl(isl, STAGE)?;
                let params = rel
                    .copy()
                    .isl(isl, STAGE)?
                    .intersect_range(outside)
                    .isl(isl, STAGE)?
                    .params()
                    .isl(isl, STAGE)?;
                bad = Some(match bad {
                    None => params,
                    Some(b) => b.union(params).isl(isl, STAGE)?,
                });
            }
        }
        let Some(bad) = bad else { continue };
        if bad.is_empty().isl(isl, STAGE)? {
            continue;
        }
        let good = runs
            .copy()
            .isl(isl, STAGE)?
            .subtract(bad)
            .isl(isl, STAGE)?
            .gist(runs)
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        // A union would split every loop nest into cases; only a single
        // conjunction is worth assuming.
        if good.n_basic_set().isl(isl, STAGE)? != 1 {
            continue;
        }
        implied = Some(match implied {
            None => good,
            Some(s) => s.intersect(good).isl(isl, STAGE)?,
        });
    }
    match implied {
        Some(s) => {
            let s = s.coalesce().isl(isl, STAGE)?;
            if s.plain_is_universe().isl(isl, STAGE)? {
                return Ok(None);
            }
            Ok(Some(s))
        }
        None => Ok(None),
    }
}
