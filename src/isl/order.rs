//! A schedule tree of the order that per-statement 2d+1 schedules give:
//! sequences for statement lists, bands for loops (as pet builds its
//! trees). The dataflow analysis orders accesses by it, and the scheduler
//! falls back to it; both stages take it from here. For the fallback,
//! nested parallel loops share one band.

use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, Map, MultiUnionPwAff, ScheduleNode, UnionMap, UnionSet, UnionSetList};

/// The tree of the order that `maps` (one 2d+1 schedule per statement, on
/// its domain) give, over `domain`. With `deps`, loops that carry none are
/// marked coincident; without, nothing is (the tree only orders, as the
/// dataflow analysis needs: its tree form handles each sequence and band
/// apart, where the flat map form compares every pair of accesses through
/// the whole schedule).
pub fn order_tree(
    isl: &Isl,
    stage: &'static str,
    domain: UnionSet,
    maps: Vec<Map>,
    deps: Option<&UnionMap>,
) -> Result<isl_rs::Schedule> {
    let depth = maps
        .iter()
        .map(|m| m.dim(DimType::Out))
        .collect::<std::result::Result<Vec<_>, _>>()
        .isl(isl, stage)?
        .into_iter()
        .max()
        .unwrap_or(0) as usize;
    let b = Builder {
        isl,
        stage,
        maps: &maps,
        deps,
        depth,
    };
    let root = ScheduleNode::from_domain(domain).isl(isl, stage)?;
    let stmts: Vec<usize> = (0..maps.len()).collect();
    let node = b.build(root.child(0).isl(isl, stage)?, &stmts, 0)?;
    node.get_schedule().isl(isl, stage)
}

/// Nested parallel loops merged into one band: a grid has three
/// dimensions.
const MAX_MERGED_LOOPS: usize = 3;

/// A schedule dimension of a group of statements.
enum Shape {
    /// A loop around all of them.
    Loop,
    /// The same position for all: no statement list at this level.
    OnePosition,
    /// Positions of a statement list, or loops around some only.
    Other,
}

struct Builder<'a> {
    isl: &'a Isl,
    /// The stage that errors are reported for.
    stage: &'static str,
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
            match self.position(s, level)? {
                Some(p) => fixed.push((p, s)),
                None => looping.push(s),
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
                    None => f.to_list().isl(isl, self.stage)?,
                    Some(l) => l.add(f).isl(isl, self.stage)?,
                });
            }
            let Some(filters) = filters else {
                return Ok(at);
            };
            let mut seq = at.insert_sequence(filters).isl(isl, self.stage)?;
            for (i, g) in groups.iter().enumerate() {
                let child = seq
                    .child(i as i32)
                    .isl(isl, self.stage)?
                    .child(0)
                    .isl(isl, self.stage)?;
                seq = self
                    .build(child, g, level + 1)?
                    .parent()
                    .isl(isl, self.stage)?
                    .parent()
                    .isl(isl, self.stage)?;
            }
            return Ok(seq);
        }
        // A loop: the statements of one position share it (the 2d+1 form
        // gives all statements of a loop the same position before it).
        let mut member = self.member(stmts, level)?;
        let parallel = match self.deps {
            Some(deps) => self.is_parallel(deps, stmts, level, &member)?,
            None => false,
        };
        // A parallel loop whose body is only a parallel loop (and so on,
        // up to a GPU grid's three dimensions) is one band with both: every
        // dependence inside has distance 0 along each, so the band is
        // permutable and the mapper can put all of them on blocks and
        // threads, not only the outermost (heat-3d's three loops).
        let mut members = 1;
        let mut next = level + 1;
        if let (true, Some(deps)) = (parallel, self.deps) {
            while members < MAX_MERGED_LOOPS {
                match self.shape(stmts, next)? {
                    Shape::OnePosition => next += 1,
                    Shape::Loop => {
                        let inner = self.member(stmts, next)?;
                        if !self.is_parallel(deps, stmts, next, &inner)? {
                            break;
                        }
                        member = member.flat_range_product(inner).isl(isl, self.stage)?;
                        members += 1;
                        next += 1;
                    }
                    Shape::Other => break,
                }
            }
        }
        if members == 1 {
            next = level + 1;
        }
        let mut band = at.insert_partial_schedule(member).isl(isl, self.stage)?;
        for m in 0..members {
            band = band
                .band_member_set_coincident(m as i32, parallel as i32)
                .isl(isl, self.stage)?;
        }
        if members > 1 {
            band = band.band_set_permutable(1).isl(isl, self.stage)?;
        }
        let child = band.child(0).isl(isl, self.stage)?;
        self.build(child, stmts, next)?
            .parent()
            .isl(isl, self.stage)
    }

    /// Statement `s`'s position in a statement list at schedule dimension
    /// `level` (0 past its last dimension); `None` where a loop runs there.
    fn position(&self, s: usize, level: usize) -> Result<Option<i64>> {
        let isl = self.isl;
        let m = &self.maps[s];
        if level >= m.dim(DimType::Out).isl(isl, self.stage)? as usize {
            return Ok(Some(0));
        }
        let v = m
            .plain_get_val_if_fixed(DimType::Out, level as u32)
            .isl(isl, self.stage)?;
        if v.is_int().isl(isl, self.stage)? {
            Ok(Some(v.get_num_si().isl(isl, self.stage)?))
        } else {
            Ok(None)
        }
    }

    /// What schedule dimension `level` is for `stmts`.
    fn shape(&self, stmts: &[usize], level: usize) -> Result<Shape> {
        if level >= self.depth {
            return Ok(Shape::Other);
        }
        let (mut loops, mut positions) = (0, Vec::new());
        for &s in stmts {
            match self.position(s, level)? {
                Some(p) => positions.push(p),
                None => loops += 1,
            }
        }
        positions.sort();
        positions.dedup();
        Ok(if loops == stmts.len() {
            Shape::Loop
        } else if loops == 0 && positions.len() == 1 {
            Shape::OnePosition
        } else {
            Shape::Other
        })
    }

    /// The instances of `stmts`.
    fn filter(&self, stmts: &[usize]) -> Result<UnionSet> {
        let isl = self.isl;
        let mut out: Option<UnionSet> = None;
        for &s in stmts {
            let d = self.maps[s]
                .copy()
                .isl(isl, self.stage)?
                .domain()
                .isl(isl, self.stage)?
                .to_union_set()
                .isl(isl, self.stage)?;
            out = Some(match out {
                None => d,
                Some(u) => u.union(d).isl(isl, self.stage)?,
            });
        }
        match out {
            Some(u) => Ok(u),
            None => isl.union_set("{ }").isl(isl, self.stage),
        }
    }

    /// Schedule dimension `level` of `stmts`, as a band member.
    fn member(&self, stmts: &[usize], level: usize) -> Result<MultiUnionPwAff> {
        MultiUnionPwAff::from_union_map(self.dims(stmts, level, level + 1)?)
            .isl(self.isl, self.stage)
    }

    /// Schedule dimensions `from..to` of `stmts`.
    fn dims(&self, stmts: &[usize], from: usize, to: usize) -> Result<UnionMap> {
        let isl = self.isl;
        let mut out: Option<UnionMap> = None;
        for &s in stmts {
            let m = self.maps[s].copy().isl(isl, self.stage)?;
            let n = m.dim(DimType::Out).isl(isl, self.stage)? as usize;
            let m = m
                .project_out(DimType::Out, to.min(n) as u32, (n - to.min(n)) as u32)
                .isl(isl, self.stage)?
                .project_out(DimType::Out, 0, from.min(n) as u32)
                .isl(isl, self.stage)?
                .reset_tuple_id(DimType::Out)
                .isl(isl, self.stage)?;
            let m = UnionMap::from_map(m).isl(isl, self.stage)?;
            out = Some(match out {
                None => m,
                Some(u) => u.union(m).isl(isl, self.stage)?,
            });
        }
        match out {
            Some(u) => Ok(u),
            None => isl.union_map("{ }").isl(isl, self.stage),
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
            .isl(isl, self.stage)?
            .intersect_domain(mine.copy().isl(isl, self.stage)?)
            .isl(isl, self.stage)?
            .intersect_range(mine)
            .isl(isl, self.stage)?;
        let outer = if level > 0 {
            let prefix = MultiUnionPwAff::from_union_map(self.dims(stmts, 0, level)?)
                .isl(isl, self.stage)?;
            deps.eq_at_multi_union_pw_aff(prefix).isl(isl, self.stage)?
        } else {
            deps
        };
        let same = outer
            .copy()
            .isl(isl, self.stage)?
            .eq_at_multi_union_pw_aff(member.copy().isl(isl, self.stage)?)
            .isl(isl, self.stage)?;
        outer.is_subset(&same).isl(isl, self.stage)
    }
}
