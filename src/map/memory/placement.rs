//! Where a group goes, and why (PPCG §7.3, extended): registers if a
//! register tile exists and there is reuse; else shared memory if a shared
//! tile exists and there is reuse (including halo reuse across threads,
//! which PPCG's per-reference view misses on stencils) or the global
//! access is not coalesced; else global memory.

use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, Map, UnionMap};

const STAGE: &str = "map-memory";

/// How the threads of a block use a group's elements.
#[derive(Clone, Debug, Default)]
pub struct Reuse {
    /// Some element is touched by more than one statement instance of
    /// one launch (instances in different iterations of the host's loops
    /// around the kernel run in different launches, where no tile lives).
    pub any: bool,
    /// Some element is touched by more than one thread.
    pub across_threads: bool,
    /// The largest number of threads of a block that read the same element
    /// through one reference (product of the block sizes of the thread
    /// dimensions the subscript does not depend on).
    pub thread_factor: i64,
}

/// `acc`: instance → element of the group; `host`: instance → the host's
/// schedule values around the kernel; `to_points`: instance →
/// [outer values, point values], whose first `n_thread` point values are
/// mapped to threads (block sizes `blocks`).
pub fn measure_reuse(
    isl: &Isl,
    acc: &UnionMap,
    refs: &[UnionMap],
    host: &UnionMap,
    to_points: &UnionMap,
    n_outer: usize,
    blocks: &[i64],
) -> Result<Reuse> {
    // (heat-3d writes each element of B once per launch, in each of 500
    // launches: no reuse for a register tile to serve.)
    let any = !host
        .copy()
        .isl(isl, STAGE)?
        .range_product(acc.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .is_injective()
        .isl(isl, STAGE)?;
    // Keep only the thread-mapped point values: [O, P_thread] → element.
    let n_all = point_count(isl, to_points)?;
    let n_thread = blocks.len();
    let Some(e) = points_to_elements(isl, to_points, acc)? else {
        return Ok(Reuse {
            any,
            across_threads: false,
            thread_factor: 1,
        });
    };
    let e_thr = e
        .copy()
        .isl(isl, STAGE)?
        .project_out(
            DimType::In,
            (n_outer + n_thread) as u32,
            (n_all - n_outer - n_thread) as u32,
        )
        .isl(isl, STAGE)?;
    // Injective for each fixed outer value: pair the element with them.
    let xs: Vec<String> = (0..n_outer + n_thread).map(|i| format!("x{}", i)).collect();
    // Text: a projection written from dimension names made here.
    let proj = Map::read_from_str(
        &isl.ctx,
        &format!(
            "{{ [{}] -> [{}] }}",
            xs.join(", "),
            xs[..n_outer].join(", ")
        ),
    )
    .isl(isl, STAGE)?;
    let across_threads = !e_thr
        .range_product(proj)
        .isl(isl, STAGE)?
        .is_injective()
        .isl(isl, STAGE)?;
    let mut thread_factor = 1;
    for r in refs {
        let Some(e) = points_to_elements(isl, to_points, r)? else {
            continue;
        };
        if !e.is_single_valued().isl(isl, STAGE)? {
            continue;
        }
        let mut f = 1;
        for (j, b) in blocks.iter().enumerate() {
            let p = e
                .copy()
                .isl(isl, STAGE)?
                .project_out(DimType::In, (n_outer + j) as u32, 1)
                .isl(isl, STAGE)?;
            if p.is_single_valued().isl(isl, STAGE)? {
                f *= b;
            }
        }
        thread_factor = thread_factor.max(f);
    }
    Ok(Reuse {
        any,
        across_threads,
        thread_factor,
    })
}

/// Whether consecutive x threads touch nearby elements of one row (or
/// the same element) through every reference: moving the point value
/// mapped to x by one moves the last subscript by at most `step` either
/// way and no other.
pub fn is_coalesced(
    isl: &Isl,
    refs: &[UnionMap],
    to_points: &UnionMap,
    x_pos: usize,
    rank: usize,
    array: &str,
    step: i64,
) -> Result<bool> {
    let mut cons = same_rows(rank);
    // Descending runs coalesce as ascending ones do: a warp's loads are
    // served per 32-byte sector, whatever order its threads take them in
    // (durbin reads `r[k - i - 1]`).
    if rank > 0 {
        cons.push(format!(
            "a{l} - {s} <= b{l} <= a{l} + {s}",
            l = rank - 1,
            s = step
        ));
    }
    x_step_keeps(isl, refs, to_points, x_pos, rank, array, &cons)
}

/// Elements `a` and `b` of one row: every subscript but the last equal.
fn same_rows(rank: usize) -> Vec<String> {
    (0..rank.saturating_sub(1))
        .map(|k| format!("b{k} = a{k}"))
        .collect()
}

/// Whether consecutive x threads touch elements of different rows through
/// some reference: moving the point value mapped to x by one moves a
/// subscript other than the last. In a shared tile such threads read
/// one column, a row's length apart (bank conflicts where that length is
/// a multiple of the banks).
pub fn crosses_rows(
    isl: &Isl,
    refs: &[UnionMap],
    to_points: &UnionMap,
    x_pos: usize,
    rank: usize,
    array: &str,
) -> Result<bool> {
    let keeps_rows = x_step_keeps(isl, refs, to_points, x_pos, rank, array, &same_rows(rank))?;
    Ok(!keeps_rows)
}

/// Whether, through every reference, the elements of points one apart in
/// the value mapped to x (element `a` of the first, `b` of the second)
/// satisfy all of `cons`.
fn x_step_keeps(
    isl: &Isl,
    refs: &[UnionMap],
    to_points: &UnionMap,
    x_pos: usize,
    rank: usize,
    array: &str,
    cons: &[String],
) -> Result<bool> {
    let n = point_count(isl, to_points)?;
    let xs: Vec<String> = (0..n).map(|k| format!("x{}", k)).collect();
    let ys: Vec<String> = (0..n)
        .map(|k| {
            if k == x_pos {
                format!("x{} + 1", k)
            } else {
                format!("x{}", k)
            }
        })
        .collect();
    // Text: a relation written from dimension names made here.
    let next = UnionMap::read_from_str(
        &isl.ctx,
        &format!("{{ [{}] -> [{}] }}", xs.join(", "), ys.join(", ")),
    )
    .isl(isl, STAGE)?;
    let a: Vec<String> = (0..rank).map(|k| format!("a{}", k)).collect();
    let b: Vec<String> = (0..rank).map(|k| format!("b{}", k)).collect();
    // Text: a relation written from dimension names made here.
    let good = UnionMap::read_from_str(
        &isl.ctx,
        &format!(
            "{{ {}[{}] -> {}[{}] : {} }}",
            array,
            a.join(", "),
            array,
            b.join(", "),
            if cons.is_empty() {
                "true".to_string()
            } else {
                cons.join(" and ")
            }
        ),
    )
    .isl(isl, STAGE)?;
    for r in refs {
        let Some(e) = points_to_elements(isl, to_points, r)? else {
            continue;
        };
        let e = e.to_union_map().isl(isl, STAGE)?;
        let moved = e
            .copy()
            .isl(isl, STAGE)?
            .reverse()
            .isl(isl, STAGE)?
            .apply_range(next.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .apply_range(e)
            .isl(isl, STAGE)?;
        if !moved.is_subset(&good).isl(isl, STAGE)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether each thread of a block keeps to its own rows of `array`: points
/// that differ only in their thread values (positions `first_thread` to
/// `first_thread + n_thread - 1`) access elements of the same last
/// subscript, so the last subscript, along which memory is contiguous,
/// moves with the thread's own loops alone. A thread that walks a row
/// reads each cache line many times in a row: on a device whose global
/// loads are cached (a GPU's L1), such an access costs little though the
/// threads of a warp read different lines (adi's sweeps).
pub fn threads_keep_to_rows(
    isl: &Isl,
    refs: &[UnionMap],
    to_points: &UnionMap,
    first_thread: usize,
    n_thread: usize,
    rank: usize,
    array: &str,
) -> Result<bool> {
    if rank < 2 || n_thread == 0 {
        return Ok(false);
    }
    let n = point_count(isl, to_points)?;
    let xs: Vec<String> = (0..n).map(|k| format!("x{}", k)).collect();
    let ys: Vec<String> = (0..n).map(|k| format!("y{}", k)).collect();
    let same: Vec<String> = (0..n)
        .filter(|k| !(first_thread..first_thread + n_thread).contains(k))
        .map(|k| format!("y{k} = x{k}"))
        .collect();
    // Text: a relation written from dimension names made here.
    let other_threads = UnionMap::read_from_str(
        &isl.ctx,
        &format!(
            "{{ [{}] -> [{}] : {} }}",
            xs.join(", "),
            ys.join(", "),
            if same.is_empty() {
                "true".to_string()
            } else {
                same.join(" and ")
            }
        ),
    )
    .isl(isl, STAGE)?;
    let a: Vec<String> = (0..rank).map(|k| format!("a{}", k)).collect();
    let b: Vec<String> = (0..rank).map(|k| format!("b{}", k)).collect();
    // Text: a relation written from dimension names made here.
    let same_column = UnionMap::read_from_str(
        &isl.ctx,
        &format!(
            "{{ {}[{}] -> {}[{}] : b{l} = a{l} }}",
            array,
            a.join(", "),
            array,
            b.join(", "),
            l = rank - 1
        ),
    )
    .isl(isl, STAGE)?;
    for r in refs {
        let Some(e) = points_to_elements(isl, to_points, r)? else {
            continue;
        };
        let e = e.to_union_map().isl(isl, STAGE)?;
        let pairs = e
            .copy()
            .isl(isl, STAGE)?
            .reverse()
            .isl(isl, STAGE)?
            .apply_range(other_threads.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .apply_range(e)
            .isl(isl, STAGE)?;
        if !pairs.is_subset(&same_column).isl(isl, STAGE)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// [outer values, point values] → elements of one array; `None` where
/// no instance accesses one (a statement that never runs, as the `else`
/// of `if (1)`: a union map without elements has no space for a map).
pub fn points_to_elements(isl: &Isl, to_points: &UnionMap, acc: &UnionMap) -> Result<Option<Map>> {
    let m = to_points
        .copy()
        .isl(isl, STAGE)?
        .reverse()
        .isl(isl, STAGE)?
        .apply_range(acc.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    if m.is_empty().isl(isl, STAGE)? {
        return Ok(None);
    }
    Map::from_union_map(m).isl(isl, STAGE).map(Some)
}

fn point_count(isl: &Isl, to_points: &UnionMap) -> Result<usize> {
    let r = to_points.copy().isl(isl, STAGE)?.range().isl(isl, STAGE)?;
    let s = isl_rs::Set::from_union_set(r).isl(isl, STAGE)?;
    Ok(s.dim(DimType::Set).isl(isl, STAGE)? as usize)
}
