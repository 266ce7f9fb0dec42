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
//!
//! An access that leaves its array wherever its statement runs implies no
//! fact at all (nothing to assume): it is the program's own undefined
//! behaviour, and the user gets a warning that names it (`outside`).

use super::{Extent, Scop, StmtBody};
use crate::diag::{Code, Diagnostic, Result};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use isl_rs::Set;

const STAGE: &str = "scop";

/// What the accesses of a region imply.
pub struct Implied {
    /// The parameter values (an isl set over the region's parameters) at
    /// which every sure access of every statement stays inside its array,
    /// conjunctive, simplified by where each statement runs; `None` if
    /// the accesses imply nothing.
    pub facts: Option<Set>,
    /// A warning for each access that leaves its array at every parameter
    /// value where its statement runs.
    pub outside: Vec<Diagnostic>,
}

pub fn implied_by_accesses(isl: &Isl, scop: &Scop) -> Result<Implied> {
    let mut implied: Option<Set> = None;
    let mut outside_warnings = Vec::new();
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
            let mut access_bad: Option<(Set, isl_rs::Map)> = None;
            for (d, extent) in array.extents.iter().enumerate() {
                let Extent::Const(c) = extent else { continue };
                // Text: a constraint set written from the array's constant extent.
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
                let leaving = rel
                    .copy()
                    .isl(isl, STAGE)?
                    .intersect_range(outside)
                    .isl(isl, STAGE)?;
                let params = leaving.copy().isl(isl, STAGE)?.params().isl(isl, STAGE)?;
                bad = Some(match bad {
                    None => params.copy().isl(isl, STAGE)?,
                    Some(b) => b.union(params.copy().isl(isl, STAGE)?).isl(isl, STAGE)?,
                });
                access_bad = Some(match access_bad {
                    None => (params, leaving),
                    Some((p, l)) => (
                        p.union(params).isl(isl, STAGE)?,
                        l.union(leaving).isl(isl, STAGE)?,
                    ),
                });
            }
            if let Some((params, leaving)) = access_bad {
                if !runs.is_empty().isl(isl, STAGE)?
                    && runs
                        .copy()
                        .isl(isl, STAGE)?
                        .is_subset(&params)
                        .isl(isl, STAGE)?
                {
                    outside_warnings.push(outside(isl, st, a, array, leaving)?);
                }
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
    let facts = match implied {
        Some(s) => {
            let s = s.coalesce().isl(isl, STAGE)?;
            (!s.plain_is_universe().isl(isl, STAGE)?).then_some(s)
        }
        None => None,
    };
    Ok(Implied {
        facts,
        outside: outside_warnings,
    })
}

/// The warning for access `a` of `st`, which leaves `array` (at the
/// elements `leaving` maps to) wherever `st` runs.
fn outside(
    isl: &Isl,
    st: &super::Statement,
    a: &super::Access,
    array: &super::Array,
    leaving: isl_rs::Map,
) -> Result<Diagnostic> {
    let extents: Vec<String> = array
        .extents
        .iter()
        .map(|e| match e {
            Extent::Const(c) => format!("[{}]", c),
            _ => "[]".to_string(),
        })
        .collect();
    // The first element it reaches, where that does not depend on the
    // parameters: `B[100]`. A loop that never ends (`j += -1` under
    // `j <= n`) reaches elements without a first one, and isl's lexmin
    // is an error there.
    let reached = leaving.range().isl(isl, STAGE)?;
    let first = if reached.is_bounded().isl(isl, STAGE)? {
        reached.lexmin().isl(isl, STAGE)?.text(isl, STAGE)?
    } else {
        String::new()
    };
    let element = first
        .split_once('{')
        .and_then(|(_, rest)| rest.split_once('}'))
        .map(|(inside, _)| inside.trim().to_string())
        .filter(|e| !e.is_empty() && !e.contains(':') && !e.contains(';'));
    let kind = if st.writes.iter().any(|w| std::ptr::eq(w, a)) {
        "writes"
    } else {
        "reads"
    };
    Ok(Diagnostic::warning(
        Code::OutOfBounds,
        Some(st.loc.clone()),
        format!(
            "this statement {} `{}` outside its declared extents {}{} wherever it runs: undefined behaviour in C, and in the generated code",
            kind,
            a.array,
            extents.join(""),
            element.map(|e| format!(" (at {})", e)).unwrap_or_default()
        ),
    )
    .with_hint("check the subscripts and the loop bounds against the array's declaration"))
}
