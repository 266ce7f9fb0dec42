//! What a region touches of an array, so that device buffers hold that
//! and not the whole array. A pointer's size is not declared: the buffer
//! holds the elements from the lexicographically first to the last
//! accessed, so copies move exactly that range and no byte outside it,
//! and the range must be bounded (a pointer indexed by data, `p[idx[i]]`,
//! or passed whole to a function without a summary may reach any element,
//! and no buffer holds that). A declared array's buffer holds the rows
//! (first subscripts) the region touches, whole: a region that touches
//! 15 elements of `double A[20000][20000]` copies those rows, not 3.2 GB
//! that the device may not have (issue 32).

use crate::diag::{Code, Diagnostic, Result};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use crate::scop::{Extent, Layout, Scop};
use isl_rs::{DimType, Set};

const STAGE: &str = "scop";

/// Fills `Array::layout` of every array with an `Extent::Accessed`
/// (`plans` says which are flat on the host), and of every declared
/// array whose buffer may hold just the rows the region touches.
pub fn measure(
    isl: &Isl,
    scop: &mut Scop,
    plans: &std::collections::BTreeMap<String, super::Plan>,
) -> Result<()> {
    for k in 0..scop.arrays.len() {
        let a = &scop.arrays[k];
        if a.extents.first() == Some(&Extent::Accessed) {
            if !measure_pointer(isl, scop, k, plans)? {
                return Ok(());
            }
        } else if rows_may_shrink(scop, k) {
            measure_rows(isl, scop, k)?;
        }
    }
    Ok(())
}

/// The elements of array `name` (of `rank` dimensions) that the region
/// accesses, under the context, or the statement whose accesses are
/// unbounded.
fn accessed<'s>(
    isl: &Isl,
    scop: &'s Scop,
    name: &str,
    rank: usize,
    whole_rows: bool,
) -> Result<std::result::Result<Set, &'s crate::scop::Statement>> {
    let context = isl
        .set(&scop.footprint_context(whole_rows))
        .isl(isl, STAGE)?;
    let dims: Vec<String> = (0..rank).map(|d| format!("o{}", d)).collect();
    let mut accessed = isl
        .set(&format!(
            "{} -> {{ {}[{}] : 1 = 0 }}",
            scop.param_prefix(),
            name,
            dims.join(", ")
        ))
        .isl(isl, STAGE)?;
    for st in &scop.stmts {
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
                return Ok(Err(st));
            }
            accessed = accessed.union(range).isl(isl, STAGE)?;
        }
    }
    Ok(Ok(accessed.coalesce().isl(isl, STAGE)?))
}

/// A pointer's layout; false where its accesses are unbounded, which
/// keeps the region on the host.
fn measure_pointer(
    isl: &Isl,
    scop: &mut Scop,
    k: usize,
    plans: &std::collections::BTreeMap<String, super::Plan>,
) -> Result<bool> {
    let name = scop.arrays[k].name.clone();
    let rank = scop.arrays[k].extents.len();
    let accessed = match accessed(isl, scop, &name, rank, false)? {
        Ok(set) => set,
        Err(st) => {
            // No buffer can hold it: the region keeps the user's code,
            // sequential on the host.
            let w = unbounded(&name, st);
            scop.warnings.push(w);
            scop.host_only = true;
            return Ok(false);
        }
    };
    let offset = starts_far(isl, scop, &name, rank, padded_rows(rank), &accessed)?;
    let text = accessed.text(isl, STAGE)?;
    scop.arrays[k].layout = Some(Layout {
        host_flat: plans.get(&name).is_some_and(|p| p.host_flat),
        offset,
        accessed: text,
        whole_rows: false,
    });
    Ok(true)
}

/// Whether array `k`, declared with its extents, gets a buffer of the
/// rows the region touches. Not scalars, arrays local to the region (no
/// host copy), arrays of structs (host copies go through the struct's
/// layout), nor reduction variables: a privatised reduction's combining
/// kernel and the atomics index the whole declared array.
fn rows_may_shrink(scop: &Scop, k: usize) -> bool {
    let a = &scop.arrays[k];
    !a.is_scalar()
        && !a.local
        && a.members.is_empty()
        && a.layout.is_none()
        && !scop
            .stmts
            .iter()
            .any(|st| st.reductions.iter().any(|(v, _)| *v == a.name))
}

/// A declared array's layout of whole rows, where its accesses are
/// bounded (elsewhere its buffer is the whole array, as declared).
fn measure_rows(isl: &Isl, scop: &mut Scop, k: usize) -> Result<()> {
    let name = scop.arrays[k].name.clone();
    let rank = scop.arrays[k].extents.len();
    let Ok(accessed) = accessed(isl, scop, &name, rank, true)? else {
        return Ok(());
    };
    // Rows outside the declaration are never reached by a run C defines
    // (`corr[m - 1][m - 1]` at m <= 0 would be): left out, they neither
    // move the buffer's start nor grow it.
    let declared = match &scop.arrays[k].extents[0] {
        Extent::Const(e) => format!("0 <= o0 < {}", e),
        _ => "o0 >= 0".to_string(),
    };
    let declared = isl
        .set(&format!(
            "{} -> {{ {}[o0] : {} }}",
            scop.param_prefix(),
            name,
            declared
        ))
        .isl(isl, STAGE)?;
    let rows = accessed
        .project_out(DimType::Set, 1, (rank - 1) as u32)
        .isl(isl, STAGE)?
        .set_tuple_name(&name)
        .isl(isl, STAGE)?
        .intersect(declared)
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;
    let offset = starts_far(isl, scop, &name, 1, padded_rows(rank), &rows)?;
    let text = rows.text(isl, STAGE)?;
    scop.arrays[k].layout = Some(Layout {
        host_flat: false,
        offset,
        accessed: text,
        whole_rows: true,
    });
    Ok(())
}

/// Whether the first element of `accessed` (`rank` dimensions of array
/// `name`) may lie beyond the first `pad` rows. The buffer starts at the
/// array, with the elements before the first accessed allocated but
/// never copied, where those are few: the first element is always within
/// the first rows (a stencil's `A[i - 1][j]` from `i = 1`). Kernels then
/// index as the 2-d form does, not subtracting an offset in every
/// subscript.
fn starts_far(
    isl: &Isl,
    scop: &Scop,
    name: &str,
    rank: usize,
    pad: i64,
    accessed: &Set,
) -> Result<bool> {
    let dims: Vec<String> = (0..rank).map(|d| format!("o{}", d)).collect();
    let mut near = vec![format!("0 <= o0 <= {}", pad)];
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
    Ok(!first.is_subset(&near).isl(isl, STAGE)?)
}

/// The elements of array `a` that the host copies between its memory and
/// the device buffer (`back::footprint::range` moves them), as an isl set
/// over the parameters: the rows its layout holds, whole, or the elements
/// from the first accessed to the last in memory order, or every element
/// of an array without a layout. `None` where that set is not affine: an
/// extent after the first that is not a constant, or an array without a
/// layout whose extents are not all constants.
pub fn copied_elements(isl: &Isl, scop: &Scop, a: &crate::scop::Array) -> Result<Option<Set>> {
    let rank = a.extents.len();
    let dims: Vec<String> = (0..rank).map(|d| format!("o{}", d)).collect();
    // Inside each row: an element's place in memory order is its place in
    // lexicographic order only while the inner subscripts stay in bounds.
    let mut bounds = Vec::new();
    for (d, e) in a.extents.iter().enumerate() {
        match e {
            Extent::Const(c) => {
                if d > 0 || a.layout.is_none() {
                    bounds.push(format!("0 <= o{} < {}", d, c));
                }
            }
            _ if d == 0 && a.layout.is_some() => {}
            _ => return Ok(None),
        }
    }
    let tuple = |dims: &[String], cons: &[String]| {
        format!(
            "{} -> {{ {}[{}] : {} }}",
            scop.param_prefix(),
            a.name,
            dims.join(", "),
            if cons.is_empty() {
                "true".to_string()
            } else {
                cons.join(" and ")
            }
        )
    };
    let inner = isl.set(&tuple(&dims, &bounds)).isl(isl, STAGE)?;
    let Some(layout) = &a.layout else {
        return Ok(Some(inner));
    };
    let accessed = isl.set(&layout.accessed).isl(isl, STAGE)?;
    // Between the first and the last accessed: after some accessed
    // element and before some other.
    let between = |space: Set| -> Result<Set> {
        let after = accessed
            .copy()
            .isl(isl, STAGE)?
            .lex_le_set(space.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .range()
            .isl(isl, STAGE)?;
        let before = accessed
            .copy()
            .isl(isl, STAGE)?
            .lex_ge_set(space)
            .isl(isl, STAGE)?
            .range()
            .isl(isl, STAGE)?;
        after.intersect(before).isl(isl, STAGE)
    };
    if !layout.whole_rows {
        return Ok(Some(between(inner)?.coalesce().isl(isl, STAGE)?));
    }
    let rows = between(isl.set(&tuple(&dims[..1], &[])).isl(isl, STAGE)?)?
        .insert_dims(DimType::Set, 1, (rank - 1) as u32)
        .isl(isl, STAGE)?
        .set_tuple_name(&a.name)
        .isl(isl, STAGE)?;
    Ok(Some(
        rows.intersect(inner)
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?,
    ))
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
