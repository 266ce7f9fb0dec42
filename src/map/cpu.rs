//! The CPU mapping (`--target c --openmp`, and the host version of device
//! programs): PPCG's CPU target. Each permutable band of the schedule is
//! tiled for locality, and the outermost parallel (coincident) member of
//! each band that no parallel loop encloses is marked `pencilc_omp_<k>`,
//! where the back end prints `#pragma omp parallel for`.
//!
//! Nothing is guessed from the code: every tiled band is checked
//! permutable and every marked member parallel against every dependence
//! (`valid`), so a failed check is an internal error, never a race.
//! Reduction variables (`#pragma pencil independent reduction`, atomic
//! updates) updated under a marked loop get an OpenMP `reduction` clause;
//! single constant elements a clause cannot name (struct members,
//! elements through pointers) go through locals the clause names
//! (`LocalAccumulator`); other updates are atomic; a loop whose
//! reductions none of these can carry stays sequential.

use crate::deps::DependenceGraph;
use crate::diag::Result;
use crate::front::syntax::RedOp;
use crate::isl::{Isl, IslResultExt};
use crate::sched::Schedule;
use crate::scop::{only_reduction_uses, update_values_read, Extent, Scop, StmtBody};
use crate::valid;
use isl_rs::{
    MultiVal, Schedule as IslSchedule, ScheduleNode, ScheduleNodeType, UnionMap, UnionSet, Val,
};

const STAGE: &str = "map-cpu";

/// Mark names, followed by the loop's index in `CpuMapping::loops`.
pub const OMP_MARK: &str = "pencilc_omp_";
/// Where the subtree below a band being mapped starts again.
const BELOW_MARK: &str = "pencilc_cpu_below";

/// Reduction arrays of at most this many bytes get a `reduction` clause
/// (every thread a private copy, on its stack); larger ones are updated
/// atomically.
const MAX_CLAUSE_ARRAY_BYTES: i64 = 64 * 1024;

/// One loop that runs as an OpenMP `parallel for`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParallelLoop {
    /// The schedule dimensions that may carry the pragma, outermost
    /// first, each checked parallel (a loop's iterator is the AST's
    /// iterator prefix followed by its dimension): the first that is a
    /// real loop gets it. At small sizes a tile loop runs once, and the
    /// next parallel member (a point loop) is the one to share.
    pub depths: Vec<usize>,
    /// Variables in the loop's `reduction` clause, with their operator.
    pub reductions: Vec<(String, RedOp)>,
    /// Statements whose updates are `#pragma omp atomic` in this loop.
    pub atomic_stmts: Vec<usize>,
    /// Single elements accumulated into where no clause can name them
    /// (a struct's member, an element of a pointer's array): each is
    /// read into a local before the loop, which the clause reduces, and
    /// stored back after it.
    pub locals: Vec<LocalAccumulator>,
}

/// One element that a parallel loop accumulates into through a local
/// variable: `T local = var[subs]; #pragma omp parallel for
/// reduction(op: local) ...; var[subs] = local;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalAccumulator {
    pub var: String,
    /// The element's constant subscripts, outermost first (a struct
    /// member's place last).
    pub subs: Vec<i64>,
    pub op: RedOp,
    /// The element's C type.
    pub elem_type: String,
}

impl LocalAccumulator {
    /// The local's name, in pencilc's reserved prefix; `k` numbers the
    /// loop's locals.
    pub fn local_name(&self, k: usize) -> String {
        format!("pencilc_acc{}_{}", k, self.var)
    }
}

/// The CPU tree (in the isl context that made it) and its parallel loops.
pub struct CpuMapping {
    pub tree: IslSchedule,
    pub loops: Vec<ParallelLoop>,
}

/// Tiles `sched` (`tile_size` in every member of a permutable band of two
/// or more members; a band already tiled as a wavefront keeps its tiles)
/// and marks its parallel loops.
pub fn map_to_cpu(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    sched: &Schedule,
    tile_size: i64,
) -> Result<CpuMapping> {
    isl.reset_budget();
    let all = deps.all(isl)?;
    let tree = isl.schedule(&sched.tree).isl(isl, STAGE)?;
    let mut m = CpuMapper {
        isl,
        scop,
        deps: &all,
        tile_size,
        loops: Vec::new(),
        graph: deps,
    };
    let root = tree.get_root().isl(isl, STAGE)?;
    let root = m.visit(root, false)?;
    Ok(CpuMapping {
        tree: root.get_schedule().isl(isl, STAGE)?,
        loops: m.loops,
    })
}

/// Per parallel loop of `m`: its instances → the values of the loops
/// around it and of itself (an OpenMP thread's private variables live for
/// one iteration of it: `valid::check_private_copies`).
pub fn parallel_iterations(isl: &Isl, m: &CpuMapping) -> Result<Vec<UnionMap>> {
    let mut out = Vec::new();
    collect_parallel(isl, m.tree.get_root().isl(isl, STAGE)?, &mut out)?;
    Ok(out)
}

fn collect_parallel(isl: &Isl, node: ScheduleNode, out: &mut Vec<UnionMap>) -> Result<()> {
    if node.get_type().isl(isl, STAGE)? == ScheduleNodeType::Mark {
        let name = node
            .mark_get_id()
            .isl(isl, STAGE)?
            .get_name()
            .isl(isl, STAGE)?
            .to_string();
        if name.starts_with(OMP_MARK) {
            let band = node.get_child(0).isl(isl, STAGE)?;
            if band.get_type().isl(isl, STAGE)? == ScheduleNodeType::Band {
                let domain = band.get_domain().isl(isl, STAGE)?;
                let outer = band
                    .get_prefix_schedule_union_map()
                    .isl(isl, STAGE)?
                    .intersect_domain(domain.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?;
                let own = UnionMap::from_multi_union_pw_aff(
                    band.band_get_partial_schedule().isl(isl, STAGE)?,
                )
                .isl(isl, STAGE)?
                .intersect_domain(domain)
                .isl(isl, STAGE)?;
                out.push(outer.flat_range_product(own).isl(isl, STAGE)?);
            }
        }
    }
    for i in 0..node.n_children().isl(isl, STAGE)? {
        collect_parallel(isl, node.get_child(i).isl(isl, STAGE)?, out)?;
    }
    Ok(())
}

struct CpuMapper<'a> {
    isl: &'a Isl,
    scop: &'a Scop,
    deps: &'a UnionMap,
    tile_size: i64,
    loops: Vec<ParallelLoop>,
    /// The dependences, for their privatised variables (`deps::privatise`).
    graph: &'a DependenceGraph,
}

impl CpuMapper<'_> {
    /// Maps the subtree at `node`, below `in_parallel` loops or not;
    /// returns the node at the same position.
    fn visit(&mut self, node: ScheduleNode, in_parallel: bool) -> Result<ScheduleNode> {
        let isl = self.isl;
        isl.check_deadline(STAGE)?;
        match node.get_type().isl(isl, STAGE)? {
            ScheduleNodeType::Band => self.band(node, in_parallel),
            _ => {
                let n = node.n_children().isl(isl, STAGE)?;
                let mut node = node;
                for i in 0..n {
                    let child = self.visit(node.child(i).isl(isl, STAGE)?, in_parallel)?;
                    node = child.parent().isl(isl, STAGE)?;
                }
                Ok(node)
            }
        }
    }

    fn band(&mut self, node: ScheduleNode, in_parallel: bool) -> Result<ScheduleNode> {
        let isl = self.isl;
        let depth = node.get_tree_depth().isl(isl, STAGE)?;
        let below = isl.id(BELOW_MARK).isl(isl, STAGE)?;
        let child = node.get_child(0).isl(isl, STAGE)?;
        let node = if is_mark(isl, &child, crate::sched::pluto::WAVEFRONT_MARK)? {
            // `W` stays a sequential loop around the wavefront's tile band
            // (its tiles are parallel, `valid` checked the point band
            // permutable), whose point band is tiled already.
            let tiles = node.child(0).isl(isl, STAGE)?.delete().isl(isl, STAGE)?;
            tiles
                .child(0)
                .isl(isl, STAGE)?
                .child(0)
                .isl(isl, STAGE)?
                .insert_mark(below)
                .isl(isl, STAGE)?
                .parent()
                .isl(isl, STAGE)?
                .parent()
                .isl(isl, STAGE)?
        } else {
            let node = node
                .child(0)
                .isl(isl, STAGE)?
                .insert_mark(below)
                .isl(isl, STAGE)?
                .parent()
                .isl(isl, STAGE)?;
            self.tile(node)?
        };
        let tiled = !is_mark(isl, &node.get_child(0).isl(isl, STAGE)?, BELOW_MARK)?;
        let node = if tiled {
            self.permute_for_locality(node.child(0).isl(isl, STAGE)?)?
                .parent()
                .isl(isl, STAGE)?
        } else {
            node
        };
        let (mut node, marked) = self.parallelize(node, tiled, in_parallel)?;
        // Down to the subtree the band had below it.
        while !is_mark(isl, &node, BELOW_MARK)? {
            node = node.child(0).isl(isl, STAGE)?;
        }
        let node = node.delete().isl(isl, STAGE)?;
        let mut node = self.visit(node, in_parallel || marked)?;
        while node.get_tree_depth().isl(isl, STAGE)? > depth {
            node = node.parent().isl(isl, STAGE)?;
        }
        Ok(node)
    }

    /// A permutable band of two or more members as a tile band over a
    /// point band (both keep the coincident members), after checking that
    /// every member keeps every dependence among its instances
    /// non-negative, which makes tiling legal.
    fn tile(&mut self, node: ScheduleNode) -> Result<ScheduleNode> {
        let isl = self.isl;
        let n = node.band_n_member().isl(isl, STAGE)?;
        if self.tile_size <= 1 || n < 2 || !node.band_get_permutable().isl(isl, STAGE)? {
            return Ok(node);
        }
        // Tile loops of members inside a private copy's live range run
        // around the points of several live ranges at once, interleaving
        // their values in the one copy of the thread: such a band keeps
        // its loops as they are.
        if !self.graph.privatised.is_empty() {
            let domain = node.get_domain().isl(isl, STAGE)?;
            let prefix = node
                .get_prefix_schedule_union_map()
                .isl(isl, STAGE)?
                .intersect_domain(domain.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            if !valid::separates_live_ranges(isl, self.scop, self.graph, &domain, &prefix)? {
                return Ok(node);
            }
        }
        valid::check_permutable(
            isl,
            self.deps,
            &node.get_domain().isl(isl, STAGE)?,
            &node
                .get_prefix_schedule_multi_union_pw_aff()
                .isl(isl, STAGE)?,
            &node.band_get_partial_schedule().isl(isl, STAGE)?,
            "band tiled for the CPU",
        )?;
        let space = node.band_get_space().isl(isl, STAGE)?;
        let mut sizes = MultiVal::zero(space).isl(isl, STAGE)?;
        for j in 0..n {
            sizes = sizes
                .set_val(
                    j,
                    Val::int_from_si(&isl.ctx, self.tile_size).isl(isl, STAGE)?,
                )
                .isl(isl, STAGE)?;
        }
        node.band_tile(sizes).isl(isl, STAGE)
    }

    /// Marks the band's first coincident member as a parallel loop (the
    /// band split around it), unless a parallel loop encloses it or its
    /// reductions cannot be carried out in parallel. The band's later
    /// members, and those of its point band where it is `tiled`, become
    /// bands of one member each, so that each coincident one is checked
    /// parallel as the loop it will be. Returns the node of the marked
    /// member (or the band), and whether one was marked.
    fn parallelize(
        &mut self,
        node: ScheduleNode,
        tiled: bool,
        in_parallel: bool,
    ) -> Result<(ScheduleNode, bool)> {
        let isl = self.isl;
        if in_parallel {
            return Ok((node, false));
        }
        let n = node.band_n_member().isl(isl, STAGE)?;
        let mut first = None;
        for k in 0..n {
            if node.band_member_get_coincident(k).isl(isl, STAGE)? {
                first = Some(k);
                break;
            }
        }
        let Some(k) = first else {
            return Ok((node, false));
        };
        let Some(parallel) = self.reductions(&node.get_domain().isl(isl, STAGE)?)? else {
            return Ok((node, false));
        };
        let mut node = node;
        if k > 0 {
            node = node
                .band_split(k)
                .isl(isl, STAGE)?
                .child(0)
                .isl(isl, STAGE)?;
        }
        // One member per band, down the rest of this band and the point band.
        let singles = (n - k) + if tiled { n } else { 0 };
        let mut depths = Vec::new();
        for step in 0..singles {
            if step > 0 {
                node = node.child(0).isl(isl, STAGE)?;
            }
            if node.band_n_member().isl(isl, STAGE)? > 1 {
                node = node.band_split(1).isl(isl, STAGE)?;
            }
            if !node.band_member_get_coincident(0).isl(isl, STAGE)? {
                continue;
            }
            valid::check_parallel(
                isl,
                self.deps,
                &node.get_domain().isl(isl, STAGE)?,
                &node
                    .get_prefix_schedule_multi_union_pw_aff()
                    .isl(isl, STAGE)?,
                &node.band_get_partial_schedule().isl(isl, STAGE)?,
                "a loop marked for an OpenMP parallel for",
            )?;
            depths.push(node.get_schedule_depth().isl(isl, STAGE)? as usize);
        }
        for _ in 1..singles {
            node = node.parent().isl(isl, STAGE)?;
        }
        let id = isl
            .id(&format!("{}{}", OMP_MARK, self.loops.len()))
            .isl(isl, STAGE)?;
        self.loops.push(ParallelLoop { depths, ..parallel });
        let node = node
            .insert_mark(id)
            .isl(isl, STAGE)?
            .child(0)
            .isl(isl, STAGE)?;
        Ok((node, true))
    }

    /// The point band `node` (permutable) with the member along which the
    /// most accesses move to the next element (stride one: contiguous,
    /// vectorizable) as its innermost loop, the others in their order.
    /// PPCG keeps the scheduler's order, which for gemm puts the
    /// reduction loop innermost (`B[k][j]` strided); Pluto chooses as
    /// here. Any order of a permutable band's members is legal.
    fn permute_for_locality(&self, node: ScheduleNode) -> Result<ScheduleNode> {
        let isl = self.isl;
        let n = node.band_n_member().isl(isl, STAGE)? as usize;
        if n < 2 || !node.band_get_permutable().isl(isl, STAGE)? {
            return Ok(node);
        }
        let partial = node.band_get_partial_schedule().isl(isl, STAGE)?;
        let scores: Vec<i64> = (0..n)
            .map(|m| self.stride_score(&node, &partial, m, n))
            .collect::<Result<_>>()?;
        let best = (0..n).rev().max_by_key(|&m| scores[m]).unwrap_or(n - 1);
        if best == n - 1 || scores[best] <= scores[n - 1] {
            return Ok(node);
        }
        let order: Vec<usize> = (0..n).filter(|&m| m != best).chain([best]).collect();
        let mut permuted = partial.copy().isl(isl, STAGE)?;
        let mut coincident = Vec::new();
        for (pos, &m) in order.iter().enumerate() {
            permuted = permuted
                .set_union_pw_aff(
                    pos as i32,
                    partial.get_union_pw_aff(m as i32).isl(isl, STAGE)?,
                )
                .isl(isl, STAGE)?;
            coincident.push(node.band_member_get_coincident(m as i32).isl(isl, STAGE)?);
        }
        let mut node = node
            .delete()
            .isl(isl, STAGE)?
            .insert_partial_schedule(permuted)
            .isl(isl, STAGE)?
            .band_set_permutable(1)
            .isl(isl, STAGE)?;
        for (pos, c) in coincident.into_iter().enumerate() {
            node = node
                .band_member_set_coincident(pos as i32, c as i32)
                .isl(isl, STAGE)?;
        }
        Ok(node)
    }

    /// How well member `m` of the band at `node` suits the innermost loop:
    /// for each access of each statement below, +1 if one step along `m`
    /// (the outer loops and the band's other members fixed) moves it to
    /// the next or previous element of the last dimension only, 0 if it
    /// stays on its element, -1 otherwise.
    fn stride_score(
        &self,
        node: &ScheduleNode,
        partial: &isl_rs::MultiUnionPwAff,
        m: usize,
        n: usize,
    ) -> Result<i64> {
        let isl = self.isl;
        let domain = node.get_domain().isl(isl, STAGE)?;
        let prefix = node.get_prefix_schedule_union_map().isl(isl, STAGE)?;
        let same_prefix = prefix
            .copy()
            .isl(isl, STAGE)?
            .apply_range(prefix.reverse().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let band =
            UnionMap::from_multi_union_pw_aff(partial.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
        let vars: Vec<String> = (0..n).map(|k| format!("p{}", k)).collect();
        let moved: Vec<String> = (0..n)
            .map(|k| {
                if k == m {
                    format!("p{} + 1", k)
                } else {
                    format!("p{}", k)
                }
            })
            .collect();
        let step = isl
            .union_map(&format!(
                "{{ [{}] -> [{}] }}",
                vars.join(", "),
                moved.join(", ")
            ))
            .isl(isl, STAGE)?;
        let next = band
            .copy()
            .isl(isl, STAGE)?
            .apply_range(step)
            .isl(isl, STAGE)?
            .apply_range(band.reverse().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .intersect(same_prefix)
            .isl(isl, STAGE)?;
        let mut score = 0;
        for st in &self.scop.stmts {
            let own = isl
                .union_set(&st.domain)
                .isl(isl, STAGE)?
                .intersect(domain.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            if own.is_empty().isl(isl, STAGE)? {
                continue;
            }
            let steps = next
                .copy()
                .isl(isl, STAGE)?
                .intersect_domain(own.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .intersect_range(own)
                .isl(isl, STAGE)?;
            if steps.is_empty().isl(isl, STAGE)? {
                continue;
            }
            for a in st.reads.iter().chain(st.writes.iter()) {
                let Some(array) = self.scop.array(&a.array) else {
                    continue;
                };
                if array.is_scalar() {
                    continue;
                }
                let access = isl.union_map(&a.relation).isl(isl, STAGE)?;
                let deltas = steps
                    .copy()
                    .isl(isl, STAGE)?
                    .apply_domain(access.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?
                    .apply_range(access)
                    .isl(isl, STAGE)?
                    .deltas()
                    .isl(isl, STAGE)?;
                let dims = array.extents.len();
                let unit = |last: &str| -> String {
                    let mut v = vec!["0"; dims];
                    v[dims - 1] = last;
                    format!("{}[{}]", a.array, v.join(", "))
                };
                let stays = isl
                    .union_set(&format!("{{ {} }}", unit("0")))
                    .isl(isl, STAGE)?;
                let next_elem = isl
                    .union_set(&format!("{{ {}; {} }}", unit("1"), unit("-1")))
                    .isl(isl, STAGE)?;
                score += if deltas.is_subset(&stays).isl(isl, STAGE)? {
                    0
                } else if deltas.is_subset(&next_elem).isl(isl, STAGE)? {
                    1
                } else {
                    -1
                };
            }
        }
        Ok(score)
    }

    /// How a parallel loop over `domain` carries out its reductions, or
    /// `None` if it cannot: a reduction variable used other than by
    /// updates with its operator (the clause would hide those uses from
    /// the variable's other values), or an array too large for a clause
    /// whose updates `omp atomic` cannot make (`min`, `max`, or code with
    /// dynamic control).
    fn reductions(&self, domain: &UnionSet) -> Result<Option<ParallelLoop>> {
        let isl = self.isl;
        let mut stmts = Vec::new();
        let sets = domain.get_set_list().isl(isl, STAGE)?;
        for i in 0..sets.size().isl(isl, STAGE)? {
            let set = sets.get_at(i).isl(isl, STAGE)?;
            let name = set.get_tuple_name().isl(isl, STAGE)?;
            if let Some(s) = self.scop.stmts.iter().find(|s| s.name == name) {
                if !set.is_empty().isl(isl, STAGE)? {
                    stmts.push(s.id.0);
                }
            }
        }
        stmts.sort();
        let mut vars: Vec<(String, RedOp)> = Vec::new();
        for &s in &stmts {
            for (v, op) in &self.scop.stmts[s].reductions {
                if !vars.contains(&(v.clone(), *op)) {
                    vars.push((v.clone(), *op));
                }
            }
        }
        vars.sort();
        let mut names: Vec<String> = vars.iter().map(|(v, _)| v.clone()).collect();
        names.dedup();
        let mut out = ParallelLoop::default();
        for var in names {
            let Some(array) = self.scop.array(&var) else {
                return Ok(None);
            };
            let touching: Vec<usize> = stmts
                .iter()
                .copied()
                .filter(|&s| {
                    let st = &self.scop.stmts[s];
                    st.reads
                        .iter()
                        .chain(st.writes.iter())
                        .any(|a| a.array == var)
                })
                .collect();
            // Each statement's operator on `var`: one per statement, and
            // every use of `var` there an update with it.
            let mut ops: Vec<(usize, RedOp)> = Vec::new();
            // Statements that only read other elements of `var` (`out[i] =
            // s->hi` beside `s->sum += x[i]`: the model found the sum apart
            // from them, and a read of its own element would order the
            // loop). A clause's private copy would hide what they read.
            let mut readers = false;
            let mut values_read = false;
            for &s in &touching {
                let st = &self.scop.stmts[s];
                let mut own = st.reductions.iter().filter(|(v, _)| *v == var);
                let (Some((_, op)), None) = (own.next(), own.next()) else {
                    if st.reductions.iter().all(|(v, _)| *v != var)
                        && st.writes.iter().all(|a| a.array != var)
                    {
                        readers = true;
                        continue;
                    }
                    return Ok(None);
                };
                if !only_reduction_uses(&st.body, &var, *op) {
                    return Ok(None);
                }
                // A clause's private copy of an array hides the elements
                // the updates read (lu's A[i][k] * A[k][j] would read
                // zeros), and atomics on one element from every
                // iteration would serialise the loop anyway: only single
                // elements' locals may carry it (`s->sum += x[i] * s->lo`).
                if update_values_read(&st.body, &var, *op) {
                    values_read = true;
                }
                ops.push((s, *op));
            }
            let one_op = match ops.as_slice() {
                [(_, first), rest @ ..] if rest.iter().all(|(_, o)| o == first) => Some(*first),
                _ => None,
            };
            let bytes =
                array
                    .extents
                    .iter()
                    .try_fold(elem_bytes(&array.elem_type), |b, e| match e {
                        Extent::Const(c) => b.checked_mul(*c),
                        Extent::Expr { .. } | Extent::Accessed => None,
                    });
            // A struct's members are no array to OpenMP: a `reduction`
            // clause cannot name them. Single elements accumulated into
            // (members, `*sum` through a pointer; each with an operator of
            // its own) go through locals the clause names; other updates
            // are atomics.
            let clause = array.members.is_empty() && !readers && !values_read;
            let clause_op =
                one_op.filter(|_| clause && bytes.is_some_and(|b| b <= MAX_CLAUSE_ARRAY_BYTES));
            if let Some(op) = clause_op {
                out.reductions.push((var, op));
            } else if let Some(elements) = constant_elements(&self.scop.stmts, &ops, &var) {
                for (subs, op) in elements {
                    out.locals.push(LocalAccumulator {
                        var: var.clone(),
                        subs,
                        op,
                        elem_type: array.elem_type.clone(),
                    });
                }
            } else if !values_read
                && ops.iter().all(|&(s, op)| {
                    !matches!(self.scop.stmts[s].body, StmtBody::Call { .. })
                        && host_atomic(op, &array.elem_type)
                })
            {
                // Each update atomic with its own operator: the updates of
                // different operators touch different elements (members),
                // or the dependences between them keep them apart.
                out.atomic_stmts.extend(ops.iter().map(|&(s, _)| s));
            } else {
                return Ok(None);
            }
        }
        out.atomic_stmts.sort();
        out.atomic_stmts.dedup();
        Ok(Some(out))
    }
}

/// Whether the host updates an element of type `elem` with `op`
/// atomically: `#pragma omp atomic` for the arithmetic and bitwise
/// operators, a compare-and-swap loop for a minimum or maximum (of the
/// types `__atomic_compare_exchange` handles without a library).
fn host_atomic(op: RedOp, elem: &str) -> bool {
    match op {
        RedOp::Min | RedOp::Max => {
            matches!(crate::front::syntax::integer_kind(elem), Some((32 | 64, _)))
                || matches!(elem.trim(), "float" | "double")
        }
        _ => true,
    }
}

/// The elements of `var` that the statements of `ops` update with their
/// operators, each statement an assignment whose left-hand side is one
/// element with constant subscripts (`acc->re += x`, `s->lo = s->lo < x ?
/// s->lo : x`), in order; `None` where one varies or one element has two
/// operators. The caller has checked that `var` is used by these updates
/// only, so each element is reduced on its own.
fn constant_elements(
    all: &[crate::scop::Statement],
    ops: &[(usize, RedOp)],
    var: &str,
) -> Option<Vec<(Vec<i64>, RedOp)>> {
    let mut found: Vec<(Vec<i64>, RedOp)> = Vec::new();
    for &(s, op) in ops {
        let StmtBody::Assign { lhs, .. } = &all[s].body else {
            return None;
        };
        let subs = constant_element(lhs, var)?;
        match found.iter().find(|(e, _)| *e == subs) {
            Some((_, o)) if *o != op => return None,
            Some(_) => {}
            None => found.push((subs, op)),
        }
    }
    (!found.is_empty()).then_some(found)
}

/// `var[c0][c1]...` with integer constants, as `[c0, c1, ...]`.
fn constant_element(e: &crate::front::syntax::Expr, var: &str) -> Option<Vec<i64>> {
    use crate::front::syntax::ExprKind;
    let mut subs = Vec::new();
    let mut cur = e;
    while let ExprKind::Index(base, idx) = &cur.kind {
        let ExprKind::Int(c, _) = idx.kind else {
            return None;
        };
        subs.push(c);
        cur = base;
    }
    match &cur.kind {
        ExprKind::Ident(n) if n == var && !subs.is_empty() => {
            subs.reverse();
            Some(subs)
        }
        _ => None,
    }
}

fn is_mark(isl: &Isl, node: &ScheduleNode, name: &str) -> Result<bool> {
    Ok(node.get_type().isl(isl, STAGE)? == ScheduleNodeType::Mark
        && node
            .mark_get_id()
            .isl(isl, STAGE)?
            .get_name()
            .isl(isl, STAGE)?
            == name)
}

/// A generous size of one element of a C type, for the clause's limit.
fn elem_bytes(ty: &str) -> i64 {
    if ty.contains("char") || ty.contains("int8") || ty.contains("bool") || ty.contains("Bool") {
        1
    } else if ty.contains("short") || ty.contains("int16") {
        2
    } else if ty.contains("long") || ty.contains("double") || ty.contains("64") {
        8
    } else {
        4
    }
}
