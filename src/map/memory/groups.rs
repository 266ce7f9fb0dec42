//! Array reference groups (PPCG §7.2). A reference is one statement's
//! accesses to one array (all of them: a statement's references to one
//! array always share a group, so that printing a statement never has to
//! tell two occurrences of the same array apart). Two references of an
//! array share a group when their footprints per tile iteration intersect
//! and one of them writes: otherwise one could sit in local memory while
//! the other reads or writes the stale global copy.

use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use isl_rs::UnionMap;

const STAGE: &str = "map-memory";

/// One statement's accesses to one array within a kernel.
pub struct Ref {
    pub array: String,
    pub stmt: usize,
    /// instance → element, restricted to the kernel's instances.
    pub reads: UnionMap,
    pub writes: UnionMap,
    /// Some write of the statement to the array is a may-write.
    pub may_write: bool,
    /// Each access of the statement to the array apart (instance →
    /// element): coalescing is a property of one subscript, not of the
    /// union of a stencil's five.
    pub accesses: Vec<UnionMap>,
    /// Outer schedule values (per tile iteration) → elements.
    pub footprint: UnionMap,
}

impl Ref {
    pub fn writes_any(&self, isl: &Isl) -> Result<bool> {
        Ok(!self.writes.is_empty().isl(isl, STAGE)?)
    }
}

/// Connected components of "same array, footprints intersect, one writes",
/// as lists of indices into `refs`, in the order of their first reference.
pub fn initial_groups(isl: &Isl, refs: &[Ref]) -> Result<Vec<Vec<usize>>> {
    let n = refs.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        p[x] = r;
        r
    }
    for i in 0..n {
        for j in i + 1..n {
            if refs[i].array != refs[j].array {
                continue;
            }
            if !refs[i].writes_any(isl)? && !refs[j].writes_any(isl)? {
                continue;
            }
            let meet = refs[i]
                .footprint
                .copy()
                .isl(isl, STAGE)?
                .intersect(refs[j].footprint.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            if !meet.is_empty().isl(isl, STAGE)? {
                let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut root_of: Vec<Option<usize>> = vec![None; n];
    for i in 0..n {
        let r = find(&mut parent, i);
        match root_of[r] {
            Some(g) => groups[g].push(i),
            None => {
                root_of[r] = Some(groups.len());
                groups.push(vec![i]);
            }
        }
    }
    Ok(groups)
}

/// The union of the footprints of a group's references.
pub fn group_footprint(isl: &Isl, refs: &[Ref], members: &[usize]) -> Result<UnionMap> {
    let mut f = refs[members[0]].footprint.copy().isl(isl, STAGE)?;
    for &m in &members[1..] {
        f = f
            .union(refs[m].footprint.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
    }
    Ok(f)
}
