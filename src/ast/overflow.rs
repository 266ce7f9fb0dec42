//! Generated integer expressions that do not overflow their C type.
//!
//! isl keeps the numerator of an integer division with its coefficients
//! reduced modulo the divisor, and pulls the rest out:
//! `floor((hi - lo + 31) / 32)` prints as
//! `-lo + floord(hi + 31 * lo + 31, 32)`. Where the division's value fits
//! its type, its numerator can be (divisor - 1) times larger: `31 * lo`
//! overflows `int` from `lo` = 69,273,667 and `long` from about 3e17, and
//! the generated loops then ran other iterations than the user's, silently
//! (red team of 2026-12-06: a loop over nanosecond time stamps).
//!
//! Two rules keep such expressions exact. A numerator whose magnitude can
//! exceed its identifiers' is computed in `long` (`widen_numerators`): an
//! `int` index type's identifiers stay below 2^31, so any numerator of
//! `int` values fits. A `long` one cannot be widened further: there the
//! entry check bounds every 64-bit parameter by `LONG_HEADROOM` over the
//! largest such factor in the region's code (`peak`, `region_peak`), and
//! the original code runs beyond it.

use super::{AExpr, AOp, Ast, GpuAst};

/// A 64-bit parameter times the largest factor of the region's code stays
/// below this; the rest of `long`'s range (2^63) is left for iterators
/// that run past a bound by a tile and for sums of several such terms.
pub const LONG_HEADROOM: i64 = crate::scop::LONG_SAFE_MAGNITUDE;

/// An upper bound on `|e|` over the largest magnitude of its identifiers:
/// 1 for `n`, 31 for `31 * n`, 2 for `n - m`, 1/32 for `floord(n, 32)`
/// (constants count as nothing: the bound is for large identifiers).
fn weight(e: &AExpr) -> f64 {
    match e {
        AExpr::Int(_) => 0.0,
        AExpr::Id(_) => 1.0,
        AExpr::Op(op, a) => match op {
            AOp::Add | AOp::Sub => a.iter().map(weight).sum(),
            AOp::Neg => a.iter().map(weight).sum(),
            AOp::Mul => match a.as_slice() {
                [AExpr::Int(c), x] | [x, AExpr::Int(c)] => (*c as f64).abs() * weight(x),
                // A product of two unknowns: no bound in these terms.
                _ => f64::INFINITY,
            },
            AOp::FloorDiv | AOp::Div => match a.as_slice() {
                [x, AExpr::Int(d)] if *d != 0 => weight(x) / (*d as f64).abs(),
                [x, ..] => weight(x),
                [] => 0.0,
            },
            AOp::Rem => match a.as_slice() {
                [_, AExpr::Int(d)] => (*d as f64).abs() / f64::from(i32::MAX),
                [x, ..] => weight(x),
                [] => 0.0,
            },
            AOp::Min | AOp::Max => a.iter().map(weight).fold(0.0, f64::max),
            AOp::Cond => a.iter().skip(1).map(weight).fold(0.0, f64::max),
            AOp::Eq | AOp::Le | AOp::Lt | AOp::Ge | AOp::Gt | AOp::And | AOp::Or => 0.0,
            // A cast keeps the value; a helper's value is one of its
            // arguments' or smaller (`pencilc_min`, `floord`).
            AOp::Call => a.iter().skip(1).map(weight).fold(0.0, f64::max),
        },
    }
}

/// The largest `weight` of `e` and of every expression inside it: what its
/// evaluation reaches on the way to its value.
pub fn peak(e: &AExpr) -> f64 {
    match e {
        AExpr::Op(_, a) => a.iter().map(peak).fold(weight(e), f64::max),
        _ => weight(e),
    }
}

/// The largest `weight` of a product by a constant inside `e` (`31 * lo`:
/// 31). Sums of identifiers are left to the margins of the entry check
/// (`n - c0` runs from 0 to `n` where it is a bound), products are what
/// isl's reduced numerators bring.
fn product_peak(e: &AExpr) -> f64 {
    match e {
        AExpr::Op(AOp::Mul, a) => a.iter().map(product_peak).fold(weight(e), f64::max),
        AExpr::Op(_, a) => a.iter().map(product_peak).fold(0.0, f64::max),
        _ => 0.0,
    }
}

/// `e` with every division's numerator that may reach beyond its
/// identifiers' magnitude (a product of one by more than 1,
/// `product_peak`) computed in `long`.
pub fn widen_numerators(e: AExpr) -> AExpr {
    match e {
        AExpr::Op(op @ (AOp::FloorDiv | AOp::Div | AOp::Rem), mut a) if !a.is_empty() => {
            let num = a.remove(0);
            let num = if product_peak(&num) > 1.0 {
                num.in_long()
            } else {
                widen_numerators(num)
            };
            let mut args = vec![num];
            args.extend(a.into_iter().map(widen_numerators));
            AExpr::Op(op, args)
        }
        AExpr::Op(op, a) => AExpr::Op(op, a.into_iter().map(widen_numerators).collect()),
        other => other,
    }
}

/// The largest `peak` of any expression of `ast`.
pub fn ast_peak(ast: &Ast) -> f64 {
    let mut m: f64 = 0.0;
    let mut see = |e: &AExpr| m = m.max(peak(e));
    visit(ast, &mut see);
    m
}

fn visit(ast: &Ast, see: &mut impl FnMut(&AExpr)) {
    match ast {
        Ast::Block(items) => items.iter().for_each(|a| visit(a, see)),
        Ast::For {
            init,
            cond,
            inc,
            body,
            ..
        } => {
            see(init);
            see(cond);
            see(inc);
            visit(body, see);
        }
        Ast::Let { value, body, .. } => {
            see(value);
            visit(body, see);
        }
        Ast::If { cond, then_, else_ } => {
            see(cond);
            visit(then_, see);
            if let Some(e) = else_ {
                visit(e, see);
            }
        }
        Ast::User { args, .. } => args.iter().for_each(&mut *see),
        Ast::Copy {
            local_idx, subs, ..
        } => local_idx.iter().chain(subs).for_each(&mut *see),
        Ast::Site { body, .. } | Ast::Parallel { body, .. } | Ast::Atomic(body) => visit(body, see),
        Ast::Barrier | Ast::Launch(_) => {}
    }
}

/// The largest `peak` of the region's generated code: its host code, its
/// launches (grids, values passed, kernels), and the host version's code.
pub fn region_peak(gpu: &GpuAst, cpu: Option<&Ast>) -> f64 {
    let mut m = ast_peak(&gpu.host);
    for l in &gpu.launches {
        m = m.max(ast_peak(&l.body));
        for e in l.grid.iter().chain(l.host_values.iter().map(|(_, v)| v)) {
            m = m.max(peak(e));
        }
    }
    for e in gpu
        .entry_check
        .iter()
        .chain(gpu.live_out.iter().map(|l| &l.value))
    {
        m = m.max(peak(e));
    }
    if let Some(c) = cpu {
        m = m.max(ast_peak(c));
    }
    m
}

/// The largest magnitude of a 64-bit parameter at which the region's code
/// of `peak` computes exactly in `long`.
pub fn long_param_limit(peak: f64) -> i64 {
    if !peak.is_finite() {
        return 0;
    }
    (LONG_HEADROOM as f64 / peak.max(1.0)).floor() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> AExpr {
        AExpr::id(s)
    }
    use AExpr as E;
    const op: fn(AOp, Vec<AExpr>) -> AExpr = E::op;

    /// isl's `-lo + floord(hi + 31 * lo + 31, 32)`.
    fn tile_count() -> AExpr {
        let num = op(
            AOp::Add,
            vec![
                op(
                    AOp::Add,
                    vec![id("hi"), op(AOp::Mul, vec![AExpr::Int(31), id("lo")])],
                ),
                AExpr::Int(31),
            ],
        );
        op(
            AOp::Add,
            vec![
                op(AOp::Neg, vec![id("lo")]),
                op(AOp::FloorDiv, vec![num, AExpr::Int(32)]),
            ],
        )
    }

    #[test]
    fn numerators_that_outgrow_their_identifiers_compute_in_long() {
        let e = widen_numerators(tile_count()).to_c();
        assert!(e.starts_with("-lo + "), "{}", e);
        assert!(
            e.contains("((long)(hi) + 31 * (long)(lo) + 31, 32)"),
            "{}",
            e
        );
        // `floord(n - 1, 32)` and `n / 2` stay as they are.
        let small = op(
            AOp::FloorDiv,
            vec![op(AOp::Sub, vec![id("n"), AExpr::Int(1)]), AExpr::Int(32)],
        );
        assert_eq!(widen_numerators(small.clone()), small);
        assert_eq!(peak(&tile_count()), 32.0);
    }

    /// A cast the generated code already reads an identifier with (an
    /// unsigned parameter as `long`, a narrow one as `int`) becomes the
    /// cast to `long`.
    #[test]
    fn casts_become_casts_to_long() {
        let narrow = op(AOp::Call, vec![id("(int)"), id("s")]);
        let num = op(AOp::Mul, vec![AExpr::Int(7), narrow]);
        let e = widen_numerators(op(AOp::FloorDiv, vec![num, AExpr::Int(8)]));
        assert!(e.to_c().contains("7 * (long)(s)"), "{}", e.to_c());
    }

    #[test]
    fn the_limit_shrinks_with_the_largest_factor() {
        assert_eq!(long_param_limit(0.5), LONG_HEADROOM);
        assert_eq!(long_param_limit(32.0), LONG_HEADROOM / 32);
        assert_eq!(long_param_limit(f64::INFINITY), 0);
        // 1.7e18 (a time stamp in nanoseconds) is beyond it at 32.
        assert!(long_param_limit(32.0) < 1_700_000_000_000_000_000);
    }
}
