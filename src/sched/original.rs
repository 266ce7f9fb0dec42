//! The region's own execution order as a schedule tree, with its parallel
//! loops marked: what pencilc falls back to when no scheduler gives a
//! schedule in time. Every loop of the source becomes a one-member band
//! and every statement list a sequence, as pet builds its trees; a loop
//! whose iterations carry no dependence (among the instances of one
//! iteration of the loops around it) is coincident, so the mapper turns
//! the outermost such loop of each nest into a kernel.

use super::{Schedule, STAGE};
use crate::deps::DependenceGraph;
use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use isl_rs::{DimType, Map, MultiUnionPwAff, ScheduleNode, UnionMap, UnionSet, UnionSetList};

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
    let tree = order_tree(isl, domain, maps, Some(&all_deps))?;
    Ok(Schedule {
        tree: tree.to_str().isl(isl, STAGE)?.to_string(),
    })
}

/// The tree of the order that `maps` (one 2d+1 schedule per statement, on
/// its domain) give, over `domain`. With `deps`, loops that carry none are
/// marked coincident; without, nothing is (the tree only orders, as the
/// dataflow analysis needs: its tree form handles each sequence and band
/// apart, where the flat map form compares every pair of accesses through
/// the whole schedule).
pub fn order_tree(
    isl: &Isl,
    domain: UnionSet,
    maps: Vec<Map>,
    deps: Option<&UnionMap>,
) -> Result<isl_rs::Schedule> {
    let depth = maps
        .iter()
        .map(|m| m.dim(DimType::Out))
        .collect::<std::result::Result<Vec<_>, _>>()
        .isl(isl, STAGE)?
        .into_iter()
        .max()
        .unwrap_or(0) as usize;
    let b = Builder {
        isl,
        maps: &maps,
        deps,
        depth,
    };
    let root = ScheduleNode::from_domain(domain).isl(isl, STAGE)?;
    let stmts: Vec<usize> = (0..maps.len()).collect();
    let node = b.build(root.child(0).isl(isl, STAGE)?, &stmts, 0)?;
    node.get_schedule().isl(isl, STAGE)
}

struct Builder<'a> {
    isl: &'a Isl,
    /// Per statement: its schedule map, on its domain.
    maps: &'a [Map],
    deps: Option<&'a UnionMap>,
    depth: usize,
}

impl Builder<'_> {
    /// The subtree of `stmts` from schedule dimension `level` on, at the
    /// leaf `at`; returns the node at that position.
    fn build(&self, at: ScheduleNode, stmts: &[usize], level: usize) -> Result<ScheduleNode> {
        let isl = self.isl;
        if level >= self.depth || stmts.is_empty() {
            return Ok(at);
        }
        // Statements whose schedule has this dimension fixed (a position
        // in a statement list) are ordered by it; the others are inside a
        // loop at this level.
        let mut fixed: Vec<(i64, usize)> = Vec::new();
        let mut looping: Vec<usize> = Vec::new();
        for &s in stmts {
            let m = &self.maps[s];
            if level >= m.dim(DimType::Out).isl(isl, STAGE)? as usize {
                fixed.push((0, s));
                continue;
            }
            let v = m
                .plain_get_val_if_fixed(DimType::Out, level as u32)
                .isl(isl, STAGE)?;
            if v.is_int().isl(isl, STAGE)? {
                fixed.push((v.get_num_si().isl(isl, STAGE)?, s));
            } else {
                looping.push(s);
            }
        }
        if looping.is_empty() {
            let mut positions: Vec<i64> = fixed.iter().map(|(p, _)| *p).collect();
            positions.sort();
            positions.dedup();
            if positions.len() == 1 {
                return self.build(at, stmts, level + 1);
            }
            let groups: Vec<Vec<usize>> = positions
                .iter()
                .map(|p| {
                    fixed
                        .iter()
                        .filter(|(q, _)| q == p)
                        .map(|(_, s)| *s)
                        .collect()
                })
                .collect();
            let mut filters: Option<UnionSetList> = None;
            for g in &groups {
                let f = self.filter(g)?;
                filters = Some(match filters {
                    None => f.to_list().isl(isl, STAGE)?,
                    Some(l) => l.add(f).isl(isl, STAGE)?,
                });
            }
            let Some(filters) = filters else {
                return Ok(at);
            };
            let mut seq = at.insert_sequence(filters).isl(isl, STAGE)?;
            for (i, g) in groups.iter().enumerate() {
                let child = seq
                    .child(i as i32)
                    .isl(isl, STAGE)?
                    .child(0)
                    .isl(isl, STAGE)?;
                seq = self
                    .build(child, g, level + 1)?
                    .parent()
                    .isl(isl, STAGE)?
                    .parent()
                    .isl(isl, STAGE)?;
            }
            return Ok(seq);
        }
        // A loop: the statements of one position share it (the 2d+1 form
        // gives all statements of a loop the same position before it).
        let member = self.member(stmts, level)?;
        let parallel = match self.deps {
            Some(deps) => self.is_parallel(deps, stmts, level, &member)?,
            None => false,
        };
        let band = at
            .insert_partial_schedule(member)
            .isl(isl, STAGE)?
            .band_member_set_coincident(0, parallel as i32)
            .isl(isl, STAGE)?;
        let child = band.child(0).isl(isl, STAGE)?;
        self.build(child, stmts, level + 1)?
            .parent()
            .isl(isl, STAGE)
    }

    /// The instances of `stmts`.
    fn filter(&self, stmts: &[usize]) -> Result<UnionSet> {
        let isl = self.isl;
        let mut out: Option<UnionSet> = None;
        for &s in stmts {
            let d = self.maps[s]
                .copy()
                .isl(isl, STAGE)?
                .domain()
                .isl(isl, STAGE)?
                .to_union_set()
                .isl(isl, STAGE)?;
            out = Some(match out {
                None => d,
                Some(u) => u.union(d).isl(isl, STAGE)?,
            });
        }
        match out {
            Some(u) => Ok(u),
            None => isl.union_set("{ }").isl(isl, STAGE),
        }
    }

    /// Schedule dimension `level` of `stmts`, as a band member.
    fn member(&self, stmts: &[usize], level: usize) -> Result<MultiUnionPwAff> {
        MultiUnionPwAff::from_union_map(self.dims(stmts, level, level + 1)?).isl(self.isl, STAGE)
    }

    /// Schedule dimensions `from..to` of `stmts`.
    fn dims(&self, stmts: &[usize], from: usize, to: usize) -> Result<UnionMap> {
        let isl = self.isl;
        let mut out: Option<UnionMap> = None;
        for &s in stmts {
            let m = self.maps[s].copy().isl(isl, STAGE)?;
            let n = m.dim(DimType::Out).isl(isl, STAGE)? as usize;
            let m = m
                .project_out(DimType::Out, to.min(n) as u32, (n - to.min(n)) as u32)
                .isl(isl, STAGE)?
                .project_out(DimType::Out, 0, from.min(n) as u32)
                .isl(isl, STAGE)?
                .reset_tuple_id(DimType::Out)
                .isl(isl, STAGE)?;
            let m = UnionMap::from_map(m).isl(isl, STAGE)?;
            out = Some(match out {
                None => m,
                Some(u) => u.union(m).isl(isl, STAGE)?,
            });
        }
        match out {
            Some(u) => Ok(u),
            None => isl.union_map("{ }").isl(isl, STAGE),
        }
    }

    /// Whether the loop at `level` carries no dependence between instances
    /// of `stmts` in the same iteration of the loops (and positions) around
    /// it.
    fn is_parallel(
        &self,
        deps: &UnionMap,
        stmts: &[usize],
        level: usize,
        member: &MultiUnionPwAff,
    ) -> Result<bool> {
        let isl = self.isl;
        let mine = self.filter(stmts)?;
        let deps = deps
            .copy()
            .isl(isl, STAGE)?
            .intersect_domain(mine.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .intersect_range(mine)
            .isl(isl, STAGE)?;
        let outer = if level > 0 {
            let prefix =
                MultiUnionPwAff::from_union_map(self.dims(stmts, 0, level)?).isl(isl, STAGE)?;
            deps.eq_at_multi_union_pw_aff(prefix).isl(isl, STAGE)?
        } else {
            deps
        };
        let same = outer
            .copy()
            .isl(isl, STAGE)?
            .eq_at_multi_union_pw_aff(member.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        outer.is_subset(&same).isl(isl, STAGE)
    }
}
