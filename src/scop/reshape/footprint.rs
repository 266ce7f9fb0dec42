//! What a region touches of an array whose size its declaration does not
//! say (a pointer): the device buffer holds the elements from the
//! lexicographically first to the last accessed, so copies move exactly
//! that range and no byte outside it. The range must be bounded: a
//! pointer indexed by data (`p[idx[i]]`) or passed whole to a function
//! without a summary may reach any element, and no buffer holds that.

use crate::diag::{Code, Diagnostic, Result};
use crate::isl::{Isl, IslResultExt};
use crate::scop::{Extent, Layout, Scop};
use isl_rs::Set;

const STAGE: &str = "scop";

/// Fills `Array::layout` of every array with an `Extent::Accessed`
/// (`plans` says which are flat on the host).
pub fn measure(
    isl: &Isl,
    scop: &mut Scop,
    plans: &std::collections::BTreeMap<String, super::Plan>,
) -> Result<()> {
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    for k in 0..scop.arrays.len() {
        let a = &scop.arrays[k];
        if a.extents.first() != Some(&Extent::Accessed) {
            continue;
        }
        let name = a.name.clone();
        let rank = a.extents.len();
        let dims: Vec<String> = (0..rank).map(|d| format!("o{}", d)).collect();
        let mut accessed = isl
            .set(&format!(
                "{} -> {{ {}[{}] : 1 = 0 }}",
                scop.param_prefix(),
                name,
                dims.join(", ")
            ))
            .isl(isl, STAGE)?;
        let mut unbounded_at = None;
        for st in &scop.stmts {
            if unbounded_at.is_some() {
                break;
            }
            let domain = isl.set(&st.domain).isl(isl, STAGE)?;
            for acc in st.reads.iter().chain(st.writes.iter()) {
                if acc.array != name {
                    continue;
                }
                let range = isl
                    .map(&acc.relation)
                    .isl(isl, STAGE)?
                    .intersect_domain(domain.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?
                    .range()
                    .isl(isl, STAGE)?
                    .intersect_params(context.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?;
                if !bounded(isl, &range)? {
                    unbounded_at = Some(unbounded(&name, st));
                    break;
                }
                accessed = accessed.union(range).isl(isl, STAGE)?;
            }
        }
        if let Some(w) = unbounded_at {
            // No buffer can hold it: the region keeps the user's code,
            // sequential on the host.
            scop.warnings.push(w);
            scop.host_only = true;
            return Ok(());
        }
        let accessed = accessed.coalesce().isl(isl, STAGE)?;
        // The buffer starts at the pointer, with the elements before the
        // first accessed allocated but never copied, where those are few:
        // the first element is always within the first rows (a stencil's
        // `A[i - 1][j]` from `i = 1`). Kernels then index as the 2-d form
        // does, not subtracting an offset in every subscript.
        let mut near = vec![format!("0 <= o0 <= {}", padded_rows(rank))];
        near.extend((1..rank).map(|d| format!("o{} >= 0", d)));
        let near = isl
            .set(&format!(
                "{} -> {{ {}[{}] : {} }}",
                scop.param_prefix(),
                name,
                dims.join(", "),
                near.join(" and ")
            ))
            .isl(isl, STAGE)?;
        let first = accessed.copy().isl(isl, STAGE)?.lexmin().isl(isl, STAGE)?;
        let offset = !first.is_subset(&near).isl(isl, STAGE)?;
        let text = accessed.to_str().isl(isl, STAGE)?.to_string();
        scop.arrays[k].layout = Some(Layout {
            host_flat: plans.get(&name).is_some_and(|p| p.host_flat),
            offset,
            accessed: text,
        });
    }
    Ok(())
}

/// How many leading rows (elements, for a 1-d pointer) a device buffer
/// may hold unused so that its kernels need not subtract an offset.
fn padded_rows(rank: usize) -> i64 {
    if rank == 1 {
        64
    } else {
        2
    }
}

/// Every dimension of `set` bounded below and above by the parameters.
fn bounded(isl: &Isl, set: &Set) -> Result<bool> {
    // isl's boundedness test treats parameters as fixed: a set bounded
    // for every parameter value is bounded.
    set.is_bounded().isl(isl, STAGE)
}

fn unbounded(name: &str, st: &crate::scop::Statement) -> Diagnostic {
    Diagnostic::warning(
        Code::UnknownArraySize,
        Some(st.loc.clone()),
        format!(
            "`{}` is a pointer, and which of its elements this code reaches is not known (a subscript that is not an affine function of the loop iterators and parameters, or `{}` passed whole to a function), so no device buffer can hold them: the region keeps its own code, run sequentially on the host",
            name, name
        ),
    )
    .with_hint(format!(
        "declare `{}` as an array with its extents (`float {}[n]`, `float {}[pencil_array n]`), or index it with affine subscripts of the loop iterators",
        name, name, name
    ))
}
