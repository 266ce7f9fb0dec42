//! Which accumulations found in the code run as reductions: those whose
//! updates have no parallel loop of their own in the original order
//! (`scop::reductions`). A reduction costs partial results and a combining
//! step, or atomic updates; where a loop around the update is parallel
//! already (gemm's `i` and `j` around `C[i][j] += ...`), the accumulation
//! stays a sequential loop inside it.

use super::DependenceGraph;
use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use crate::scop::reductions::{positions, Candidate};
use crate::scop::Scop;

const STAGE: &str = "deps";

/// The candidates none of whose updates has a parallel loop under `deps`.
pub fn to_apply(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    candidates: Vec<Candidate>,
) -> Result<Vec<Candidate>> {
    if candidates.is_empty() {
        return Ok(candidates);
    }
    let all = deps.all(isl)?;
    let pos: Vec<Option<Vec<i64>>> = scop
        .stmts
        .iter()
        .map(|s| positions(isl, &s.schedule))
        .collect::<Result<_>>()?;
    let scc = components(isl, scop, &all)?;
    let mut out = Vec::new();
    'candidates: for c in candidates {
        for &s in &c.stmts {
            let Some(p) = &pos[s] else {
                continue 'candidates;
            };
            let cycle: Vec<usize> = (0..scop.stmts.len())
                .filter(|&t| scc[t] == scc[s])
                .collect();
            for l in 0..scop.stmts[s].iterators.len() {
                if loop_is_parallel(isl, scop, &all, &pos, &cycle, p, l)? {
                    continue 'candidates;
                }
            }
        }
        out.push(c);
    }
    Ok(out)
}

/// The strongly connected component of each statement in the graph of
/// its dependences: a loop is sequential only by a dependence cycle
/// through the statement (atax's `tmp[i]` update is parallel in `i` once
/// the `y` updates of the same loop are a loop nest of their own).
fn components(isl: &Isl, scop: &Scop, all: &isl_rs::UnionMap) -> Result<Vec<usize>> {
    let n = scop.stmts.len();
    let index = |name: &str| scop.stmts.iter().position(|s| s.name == name);
    let mut reach = vec![vec![false; n]; n];
    for (k, row) in reach.iter_mut().enumerate() {
        row[k] = true;
    }
    let list = all.get_map_list().isl(isl, STAGE)?;
    for i in 0..list.size().isl(isl, STAGE)? {
        let m = list.get_at(i).isl(isl, STAGE)?;
        let a = m
            .get_tuple_name(isl_rs::DimType::In)
            .isl(isl, STAGE)?
            .to_string();
        let b = m
            .get_tuple_name(isl_rs::DimType::Out)
            .isl(isl, STAGE)?
            .to_string();
        if let (Some(a), Some(b)) = (index(&a), index(&b)) {
            reach[a][b] = true;
        }
    }
    // Transitive closure (Warshall): regions have tens of statements.
    for k in 0..n {
        for i in 0..n {
            if reach[i][k] {
                for j in 0..n {
                    if reach[k][j] {
                        reach[i][j] = true;
                    }
                }
            }
        }
    }
    Ok((0..n)
        .map(|i| (0..n).find(|&j| reach[i][j] && reach[j][i]).unwrap_or(i))
        .collect())
}

/// Whether loop `l` of a statement at positions `p` carries no dependence
/// among the statements of its cycle inside it (same iterations of the
/// loops around).
fn loop_is_parallel(
    isl: &Isl,
    scop: &Scop,
    all: &isl_rs::UnionMap,
    pos: &[Option<Vec<i64>>],
    cycle: &[usize],
    p: &[i64],
    l: usize,
) -> Result<bool> {
    let inside: Vec<usize> = cycle
        .iter()
        .copied()
        .filter(|&t| {
            scop.stmts[t].iterators.len() > l
                && pos[t]
                    .as_ref()
                    .is_some_and(|q| q.len() > l && q[..=l] == p[..=l])
        })
        .collect();
    let mut carried = Vec::new();
    for &a in &inside {
        for &b in &inside {
            let na = scop.stmts[a].iterators.len();
            let nb = scop.stmts[b].iterators.len();
            let x: Vec<String> = (0..na).map(|k| format!("x{}", k)).collect();
            let y: Vec<String> = (0..nb).map(|k| format!("y{}", k)).collect();
            let mut cons: Vec<String> = (0..l).map(|k| format!("x{k} = y{k}")).collect();
            cons.push(format!("x{l} != y{l}"));
            carried.push(format!(
                "{}[{}] -> {}[{}] : {}",
                scop.stmts[a].name,
                x.join(", "),
                scop.stmts[b].name,
                y.join(", "),
                cons.join(" and ")
            ));
        }
    }
    if carried.is_empty() {
        return Ok(true);
    }
    let carried = isl
        .union_map(&format!("{{ {} }}", carried.join("; ")))
        .isl(isl, STAGE)?;
    Ok(all
        .copy()
        .isl(isl, STAGE)?
        .intersect(carried)
        .isl(isl, STAGE)?
        .is_empty()
        .isl(isl, STAGE)?)
}
