//! The region's own execution order as a schedule tree, with its parallel
//! loops marked: what pencilc falls back to when no scheduler gives a
//! schedule in time. Every loop of the source becomes a band and every
//! statement list a sequence, as pet builds its trees; a loop whose
//! iterations carry no dependence (among the instances of one iteration
//! of the loops around it) is coincident, and shares its band with the
//! parallel loops nested right inside it (up to three), so the mapper
//! turns the outermost parallel loops of each nest into a kernel's
//! blocks and threads.

use super::{Schedule, STAGE};
use crate::deps::DependenceGraph;
use crate::diag::Result;
use crate::isl::order::order_tree;
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use isl_rs::Map;

/// The original order (the statements' 2d+1 schedules: constants for
/// positions, iterators for loops) as a tree of sequences and bands.
pub fn original_tree(isl: &Isl, scop: &Scop, deps: &DependenceGraph) -> Result<Schedule> {
    let domain = isl.union_set(&scop.domain_text()).isl(isl, STAGE)?;
    let maps: Vec<Map> = scop
        .stmts
        .iter()
        .map(|s| {
            isl.map(&s.schedule)
                .isl(isl, STAGE)?
                .intersect_domain(isl.set(&s.domain).isl(isl, STAGE)?)
                .isl(isl, STAGE)
        })
        .collect::<Result<_>>()?;
    let all_deps = deps.all(isl)?;
    let tree = order_tree(isl, STAGE, domain, maps, Some(&all_deps))?;
    Ok(Schedule {
        tree: tree.text(isl, STAGE)?,
    })
}
