//! When a delinearised access addresses the user's element: where each
//! inner subscript is inside its extent (`p[i * m + j]` is `p[i][j]` only
//! while `0 <= j < m`; `j == m` is the next row's first element, which C
//! allows). Proved from the domains and the assumptions where possible;
//! otherwise the parameter values where it holds join what the generated
//! code checks on entry (`Scop::checked`), and the user's code runs
//! elsewhere. An array whose shape holds at no parameter value where the
//! region touches it is not delinearised at all.

use super::Plan;
use crate::diag::{Diagnostic, Result};
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use isl_rs::Set;
use std::collections::BTreeMap;

const STAGE: &str = "scop";

pub struct Validity {
    /// What the generated code must check on entry, if anything.
    pub facts: Option<Set>,
    /// Arrays whose shape never holds where the region runs, with the
    /// access that shows it, and whether the shape may be given up (it
    /// was delinearised) or the region must keep the user's code.
    pub never: Vec<(String, Diagnostic, bool)>,
    /// `-v` lines.
    pub notes: Vec<String>,
}

pub fn check(isl: &Isl, scop: &Scop, plans: &BTreeMap<String, Plan>) -> Result<Validity> {
    let mut out = Validity {
        facts: None,
        never: Vec::new(),
        notes: Vec::new(),
    };
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    for (name, plan) in plans {
        let Some(array) = scop.array(name) else {
            continue;
        };
        if plan.checked.is_empty() {
            if !plan.shape_text.is_empty() {
                out.notes.push(format!("array {}: {}", name, what(plan)));
            }
            continue;
        }
        let rank = array.extents.len();
        let dims: Vec<String> = (0..rank).map(|k| format!("o{}", k)).collect();
        let outside: Vec<String> = plan
            .checked
            .iter()
            .enumerate()
            .map(|(k, s)| format!("o{d} < 0 or o{d} >= {s}", d = k + 1, s = s))
            .collect();
        let outside = isl
            .set(&format!(
                "{} -> {{ {}[{}] : {} }}",
                scop.param_prefix(),
                name,
                dims.join(", "),
                outside.join(" or ")
            ))
            .isl(isl, STAGE)?;
        let mut bad_all: Option<Set> = None;
        let mut runs_all: Option<Set> = None;
        let mut fact: Option<Set> = None;
        // The first statement and dimension that leave the shape, for
        // the warning where the shape never holds.
        let mut first_bad: Option<(&crate::diag::Loc, usize)> = None;
        // Whether some access is known only approximately (a statement of
        // dynamic control, a may-access): then leaving the range is what
        // the model allows, not what the code must do.
        let mut approximate = false;
        // Where some access of the array touches an element.
        let mut reached_all: Option<Set> = None;
        for st in &scop.stmts {
            let accesses: Vec<_> = st
                .reads
                .iter()
                .chain(st.writes.iter())
                .filter(|a| &a.array == name)
                .collect();
            if accesses.is_empty() {
                continue;
            }
            approximate |= matches!(st.body, crate::scop::StmtBody::Compound(_))
                || accesses.iter().any(|a| a.may);
            let domain = isl.set(&st.domain).isl(isl, STAGE)?;
            let runs = domain.copy().isl(isl, STAGE)?.params().isl(isl, STAGE)?;
            let mut bad: Option<Set> = None;
            for a in accesses {
                let touches = isl
                    .map(&a.relation)
                    .isl(isl, STAGE)?
                    .intersect_domain(domain.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?;
                let at = touches.copy().isl(isl, STAGE)?.params().isl(isl, STAGE)?;
                reached_all = Some(match reached_all {
                    None => at,
                    Some(r) => r.union(at).isl(isl, STAGE)?,
                });
                let params = touches
                    .intersect_range(outside.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?
                    .params()
                    .isl(isl, STAGE)?;
                bad = Some(match bad {
                    None => params,
                    Some(b) => b.union(params).isl(isl, STAGE)?,
                });
            }
            let bad = bad.expect("one access at least");
            if first_bad.is_none()
                && !bad
                    .copy()
                    .isl(isl, STAGE)?
                    .intersect(context.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?
                    .is_empty()
                    .isl(isl, STAGE)?
            {
                let dim = failing_dim(isl, scop, name, &dims, plan, st, &domain)?;
                first_bad = Some((&st.loc, dim));
            }
            // Simplified where the statement runs, as the facts of
            // `bounds` are: stronger than needed where it does not run,
            // never weaker.
            let good = runs
                .copy()
                .isl(isl, STAGE)?
                .subtract(bad.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .gist(runs.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .coalesce()
                .isl(isl, STAGE)?;
            fact = Some(match fact {
                None => good,
                Some(f) => f.intersect(good).isl(isl, STAGE)?,
            });
            bad_all = Some(match bad_all {
                None => bad,
                Some(b) => b.union(bad).isl(isl, STAGE)?,
            });
            runs_all = Some(match runs_all {
                None => runs,
                Some(r) => r.union(runs).isl(isl, STAGE)?,
            });
        }
        let (Some(bad_all), Some(runs_all), Some(fact)) = (bad_all, runs_all, fact) else {
            continue;
        };
        let example = plan
            .example
            .as_ref()
            .map(|(from, to, _)| format!(" (`{}` is `{}`)", from, to))
            .unwrap_or_default();
        let bad_here = bad_all
            .intersect(context.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        if bad_here.is_empty().isl(isl, STAGE)? {
            out.notes.push(format!(
                "array {}: {}{}, in range by the loop bounds and assumptions",
                name,
                what(plan),
                example
            ));
            continue;
        }
        let touched = runs_all
            .intersect(context.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let valid_somewhere = !touched
            .copy()
            .isl(isl, STAGE)?
            .subtract(bad_here.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .is_empty()
            .isl(isl, STAGE)?;
        // A shape that holds only where no access of the array runs
        // (hotspot's `num_chunk <= 0`) is no shape: a run-time check of it
        // would run the generated code only where it does nothing.
        let reached = match reached_all {
            Some(r) => r
                .intersect(context.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?,
            None => touched.copy().isl(isl, STAGE)?,
        };
        let useful = valid_somewhere
            && !fact
                .copy()
                .isl(isl, STAGE)?
                .intersect(reached)
                .isl(isl, STAGE)?
                .is_empty()
                .isl(isl, STAGE)?;
        if !useful {
            let (at, dim) = first_bad
                .map(|(l, d)| (l.clone(), d))
                .unwrap_or_else(|| (array.loc.clone(), 1));
            // The access of the statement that leaves the shape.
            let (from, to) = plan
                .rewrites
                .iter()
                .find(|(l, _, _)| l.line == at.line)
                .map(|(_, f, t)| (f.clone(), t.clone()))
                .or_else(|| plan.example.clone().map(|(f, t, _)| (f, t)))
                .map(|(f, t)| (format!("`{}`", f), format!(" (`{}`)", t)))
                .unwrap_or_else(|| (format!("`{}`", name), String::new()));
            let extent = plan.checked.get(dim - 1).cloned().unwrap_or_default();
            let d = if approximate {
                let (shape, keeps) = if plan.delinearised {
                    (
                        format!("cannot be delinearised as {}{}", plan.shape_text, to),
                        format!("`{}` keeps one dimension", name),
                    )
                } else {
                    (
                        format!("is {}", plan.shape_text),
                        "the region keeps its own code, run sequentially on the host".to_string(),
                    )
                };
                Diagnostic::warning(
                    if plan.delinearised {
                        crate::diag::Code::NonAffineSubscript
                    } else {
                        crate::diag::Code::UnknownArraySize
                    },
                    Some(at),
                    format!(
                        "{} {}: its subscript in dimension {} must stay in `0 <= . < {}`, which pencilc cannot show here: the code around it has loop bounds, conditions or subscripts that are not affine, and the model knows only that it reaches some element of `{}`; {}",
                        from, shape, dim, extent, name, keeps
                    ),
                )
                .with_hint("write the loop bounds, conditions and subscripts around it as affine expressions of the loop iterators and parameters (no `/` or `%` by a variable, no values read from arrays)")
            } else if plan.delinearised {
                Diagnostic::warning(
                    crate::diag::Code::NonAffineSubscript,
                    Some(at),
                    format!(
                        "{} cannot be delinearised as {}{}: its subscript in dimension {} must stay in `0 <= . < {}`, and here it leaves that range wherever this code runs; `{}` keeps one dimension",
                        from, plan.shape_text, to, dim, extent, name
                    ),
                )
                .with_hint(format!(
                    "no assumption can make it hold; declare a multi-dimensional array (`{}`) and write its subscripts one per dimension",
                    plan.shape_text.replace("[*]", "[n]")
                ))
            } else {
                Diagnostic::warning(
                    crate::diag::Code::UnknownArraySize,
                    Some(at),
                    format!(
                        "`{}` is {}, and here its subscript in dimension {} leaves `0 <= . < {}` wherever this code runs (C leaves that undefined): the region keeps its own code, run sequentially on the host",
                        name, plan.shape_text, dim, extent
                    ),
                )
                .with_hint("index each dimension within its extent")
            };
            out.never.push((name.clone(), d, plan.delinearised));
            continue;
        }
        let shown = fact
            .copy()
            .isl(isl, STAGE)?
            .gist(context.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        // As C, which `__pencil_assume` takes (`n % 2 == 0`, not isl's
        // `(n) mod 2 = 0`).
        let cond = crate::isl::ast_build::c_condition(isl, shown)?;
        out.notes.push(format!(
            "array {}: {}{}, checked at run time ({}; otherwise the original code runs): `__pencil_assume({});` would prove it",
            name,
            what(plan),
            example,
            cond,
            cond
        ));
        out.facts = Some(match out.facts.take() {
            None => fact,
            Some(f) => f.intersect(fact).isl(isl, STAGE)?,
        });
    }
    Ok(out)
}

/// What the plan made of the array, for `-v`.
fn what(plan: &Plan) -> String {
    if plan.delinearised {
        format!("delinearised as {}", plan.shape_text)
    } else if plan.host_flat {
        format!("a pointer-to-array cast makes it {}", plan.shape_text)
    } else {
        format!("a pointer to rows of {}", plan.shape_text)
    }
}

/// The first inner dimension (1, 2, ...) that some access of `name` by
/// `st` leaves under the context.
fn failing_dim(
    isl: &Isl,
    scop: &Scop,
    name: &str,
    dims: &[String],
    plan: &Plan,
    st: &crate::scop::Statement,
    domain: &Set,
) -> Result<usize> {
    for (k, size) in plan.checked.iter().enumerate() {
        let outside = isl
            .set(&format!(
                "{} -> {{ {}[{}] : o{d} < 0 or o{d} >= {s} }}",
                scop.param_prefix(),
                name,
                dims.join(", "),
                d = k + 1,
                s = size
            ))
            .isl(isl, STAGE)?
            .intersect_params(isl.set(&scop.context).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        for a in st
            .reads
            .iter()
            .chain(st.writes.iter())
            .filter(|a| a.array == name)
        {
            let hit = isl
                .map(&a.relation)
                .isl(isl, STAGE)?
                .intersect_domain(domain.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .intersect_range(outside.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            if !hit.is_empty().isl(isl, STAGE)? {
                return Ok(k + 1);
            }
        }
    }
    Ok(1)
}
