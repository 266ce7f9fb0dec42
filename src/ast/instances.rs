//! The box around each statement's instances and the share of it they
//! fill: what the run-time choice between versions counts as work.

use super::*;

/// The instance boxes of every statement of the region, under its context.
/// A loop whose extent isl cannot bound counts as one iteration.
pub fn instance_boxes(isl: &Isl, scop: &Scop) -> Result<Vec<InstanceBox>> {
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    let mut out = Vec::new();
    for st in &scop.stmts {
        isl.check_deadline(STAGE)?;
        let domain = isl
            .set(&st.domain)
            .isl(isl, STAGE)?
            .intersect_params(context.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let runs = domain
            .copy()
            .isl(isl, STAGE)?
            .params()
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        if runs.is_empty().isl(isl, STAGE)? {
            continue;
        }
        let guard = convert_expr(
            isl,
            &expr_from_params(
                isl,
                context.copy().isl(isl, STAGE)?,
                runs.copy().isl(isl, STAGE)?,
            )?,
        )?
        .simplify();
        let mut extents = Vec::new();
        for k in 0..domain.dim(DimType::Set).isl(isl, STAGE)? {
            let (Some(lo), Some(hi)) = (
                bounded(isl, domain.copy().isl(isl, STAGE)?.dim_min(k))?,
                bounded(isl, domain.copy().isl(isl, STAGE)?.dim_max(k))?,
            ) else {
                continue;
            };
            let one = isl_rs::Val::int_from_si(&isl.ctx, 1).isl(isl, STAGE)?;
            let extent = hi
                .sub(lo)
                .isl(isl, STAGE)?
                .add_constant_val(one)
                .isl(isl, STAGE)?
                .coalesce()
                .isl(isl, STAGE)?;
            let e = crate::isl::ast_build::expr_from_params_pw_aff(
                isl,
                runs.copy().isl(isl, STAGE)?,
                extent,
            )?;
            extents.push(convert_expr(isl, &e)?.simplify());
        }
        let fill = box_fill(isl, &domain, &runs)?;
        out.push(InstanceBox {
            stmt: st.id,
            guard: (guard != AExpr::Int(1)).then_some(guard),
            extents,
            fill,
        });
    }
    Ok(out)
}

/// The share of its box that `domain` fills where every parameter is at
/// least `side` (or, where the context does not allow that, at its least):
/// its instances counted by isl over the product of its extents there.
/// `side` keeps the box at most 2e5 points (32 for up to three loops), so
/// the count stays cheap; the share at such sizes is close to the one at
/// the sizes where the choice matters (a tetrahedron 0.15 at 32, 1/6 in the
/// limit). 1 wherever it cannot be measured.
pub(super) fn box_fill(isl: &Isl, domain: &Set, runs: &Set) -> Result<f64> {
    let measured = (|| -> Result<Option<f64>> {
        let dims = domain.dim(DimType::Set).isl(isl, STAGE)?;
        if dims <= 1 {
            return Ok(None);
        }
        let side = (2e5f64.powf(1.0 / dims as f64).floor() as i64).clamp(4, 32);
        let n_param = runs.dim(DimType::Param).isl(isl, STAGE)? as u32;
        let mut at = runs.copy().isl(isl, STAGE)?;
        if n_param > 0 {
            let names: Vec<String> = (0..n_param)
                .map(|i| {
                    runs.get_dim_name(DimType::Param, i)
                        .map(str::to_string)
                        .isl(isl, STAGE)
                })
                .collect::<Result<_>>()?;
            let large: Vec<String> = names.iter().map(|n| format!("{} >= {}", n, side)).collect();
            let big = isl
                .set(&format!(
                    "[{}] -> {{ : {} }}",
                    names.join(", "),
                    large.join(" and ")
                ))
                .isl(isl, STAGE)?;
            let big = at.copy().isl(isl, STAGE)?.intersect(big).isl(isl, STAGE)?;
            if !big.is_empty().isl(isl, STAGE)? {
                at = big;
            }
            // The least such point: lexmin works on set dimensions.
            at = at
                .move_dims(DimType::Set, 0, DimType::Param, 0, n_param)
                .isl(isl, STAGE)?
                .lexmin()
                .isl(isl, STAGE)?
                .move_dims(DimType::Param, 0, DimType::Set, 0, n_param)
                .isl(isl, STAGE)?;
        }
        let d = domain
            .copy()
            .isl(isl, STAGE)?
            .intersect_params(at)
            .isl(isl, STAGE)?;
        let mut volume = 1.0f64;
        for k in 0..dims {
            let lo = d.copy().isl(isl, STAGE)?.dim_min_val(k).isl(isl, STAGE)?;
            let hi = d.copy().isl(isl, STAGE)?.dim_max_val(k).isl(isl, STAGE)?;
            if !lo.is_int().isl(isl, STAGE)? || !hi.is_int().isl(isl, STAGE)? {
                return Ok(None);
            }
            let (lo, hi) = (
                lo.get_num_si().isl(isl, STAGE)?,
                hi.get_num_si().isl(isl, STAGE)?,
            );
            volume *= (hi - lo + 1).max(0) as f64;
        }
        if !(1.0..=4e5).contains(&volume) {
            return Ok(None);
        }
        let count = d.count_val().isl(isl, STAGE)?;
        if !count.is_int().isl(isl, STAGE)? {
            return Ok(None);
        }
        let count = count.get_num_si().isl(isl, STAGE)? as f64;
        Ok(Some((count / volume).clamp(1e-3, 1.0)))
    })();
    match measured {
        Ok(f) => Ok(f.unwrap_or(1.0)),
        Err(d) if d.code == crate::diag::Code::Budget => Err(d),
        Err(_) => Ok(1.0),
    }
}
