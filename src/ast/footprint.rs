//! The range of an array's elements that a region touches, as host
//! expressions of the parameters: the first and last element accessed
//! (lexicographically, hence in memory order) of each array with a
//! `scop::Layout` (pointers), or the first and last row it touches
//! (`Layout::whole_rows`: declared arrays).

use super::{convert_expr, AExpr, STAGE};
use crate::diag::Result;
use crate::isl::ast_build::{expr_from_params, expr_from_params_pw_aff};
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub struct Footprint {
    pub array: String,
    /// Where the region accesses the array at all (`None`: wherever the
    /// region runs); elsewhere its buffer is empty.
    pub guard: Option<AExpr>,
    /// The subscripts of the first and the last element accessed (with
    /// `Layout::whole_rows`, of the first and the last row: one each).
    pub first: Vec<AExpr>,
    pub last: Vec<AExpr>,
}

pub fn footprints(isl: &Isl, scop: &Scop) -> Result<Vec<Footprint>> {
    let mut out = Vec::new();
    for a in &scop.arrays {
        let Some(layout) = &a.layout else { continue };
        let rank = if layout.whole_rows {
            1
        } else {
            a.extents.len()
        };
        let context = isl
            .set(&scop.footprint_context(layout.whole_rows))
            .isl(isl, STAGE)?;
        let accessed = isl.set(&layout.accessed).isl(isl, STAGE)?;
        let runs = accessed
            .copy()
            .isl(isl, STAGE)?
            .params()
            .isl(isl, STAGE)?
            .intersect(context.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        if runs.is_empty().isl(isl, STAGE)? {
            out.push(Footprint {
                array: a.name.clone(),
                guard: Some(AExpr::Int(0)),
                first: vec![AExpr::Int(0); rank],
                last: vec![AExpr::Int(0); rank],
            });
            continue;
        }
        let guard = convert_expr(
            isl,
            &expr_from_params(isl, context, runs.copy().isl(isl, STAGE)?)?,
        )?
        .simplify();
        let mut ends = Vec::new();
        for lex in [
            accessed.copy().isl(isl, STAGE)?.lexmin().isl(isl, STAGE)?,
            accessed.copy().isl(isl, STAGE)?.lexmax().isl(isl, STAGE)?,
        ] {
            let mut subs = Vec::new();
            for k in 0..rank {
                // One element per parameter value: its maximum is it.
                let pa = lex
                    .copy()
                    .isl(isl, STAGE)?
                    .dim_max(k as i32)
                    .isl(isl, STAGE)?;
                let e = expr_from_params_pw_aff(isl, runs.copy().isl(isl, STAGE)?, pa)?;
                subs.push(convert_expr(isl, &e)?.simplify());
            }
            ends.push(subs);
        }
        let last = ends.pop().expect("two ends");
        let first = ends.pop().expect("two ends");
        out.push(Footprint {
            array: a.name.clone(),
            guard: (guard != AExpr::Int(1)).then_some(guard),
            first,
            last,
        });
    }
    Ok(out)
}

/// The copies in that only some parameter values need
/// (`deps::DependenceGraph::copy_in_where`), as host conditions under the
/// region's context.
pub fn copy_in_conditions(
    isl: &Isl,
    scop: &Scop,
    copy_in_where: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, AExpr>> {
    let mut out = BTreeMap::new();
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    for (array, params) in copy_in_where {
        let set = isl.set(params).isl(isl, STAGE)?;
        let cond = convert_expr(
            isl,
            &expr_from_params(isl, context.copy().isl(isl, STAGE)?, set)?,
        )?
        .simplify();
        out.insert(array.clone(), cond);
    }
    Ok(out)
}
