//! Exact array dataflow analysis with isl: flow (read-after-write), anti
//! (write-after-read) and output (write-after-write) dependences between
//! statement instances, and per array whether values flow in from before the
//! region (copy to the device) or out of it (copy back).

pub mod privatise;
mod same_value;

use crate::diag::{Diagnostic, Result};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use isl_rs::{DimType, UnionAccessInfo, UnionMap, UnionSet};
pub use privatise::Privatised;
use std::collections::{BTreeMap, BTreeSet};

const STAGE: &str = "deps";

#[derive(Clone, Debug)]
pub struct DependenceGraph {
    /// Statement instance → later instance reading the value it wrote.
    pub flow: String,
    /// Read → later overwrite of the same element.
    pub anti: String,
    /// Write → later overwrite of the same element.
    pub output: String,
    /// Array elements read before any write in the region.
    pub live_in: String,
    /// Arrays with live-in elements, and arrays written but not entirely
    /// overwritten: both must be copied to the device.
    pub copy_in: BTreeSet<String>,
    /// Arrays of `copy_in` that the region reads nothing of from before
    /// it, with the parameter values (isl set) where the copy is needed:
    /// where the elements the host copies back are not all written by the
    /// region for sure. Elsewhere the device computes every one of them
    /// and their old values need not travel (2mm's `tmp` at `nj` = NJ).
    /// Arrays of `copy_in` not here are copied wherever the region runs.
    pub copy_in_where: BTreeMap<String, String>,
    /// Arrays the region writes: copied back to the host.
    pub copy_out: BTreeSet<String>,
    /// Variables with a copy per iteration of the loops around them
    /// (`privatise`): the dependences above are those of the program in
    /// which they are expanded.
    pub privatised: Vec<Privatised>,
    /// Live-range reordering as isl's scheduler takes it (conditional
    /// validity): the flow dependences within one live range of a private
    /// copy (the condition), and the anti and output dependences between
    /// its live ranges that expansion removed (the order). A scheduler
    /// that keeps the order wherever it carries an adjacent condition
    /// never interleaves two values of one copy in one thread, which is
    /// what `valid::check_private_copies` asks. `{ }` without copies.
    pub reorder_condition: String,
    pub reorder_order: String,
}

impl DependenceGraph {
    /// All dependences as an isl union map in `isl`'s context.
    pub fn all(&self, isl: &Isl) -> Result<UnionMap> {
        let key = format!("all deps\n{}\n{}\n{}", self.flow, self.anti, self.output);
        isl.derived_union_map(&key, || {
            let f = isl.union_map(&self.flow).isl(isl, STAGE)?;
            let a = isl.union_map(&self.anti).isl(isl, STAGE)?;
            let o = isl.union_map(&self.output).isl(isl, STAGE)?;
            f.union(a)
                .isl(isl, STAGE)?
                .union(o)
                .isl(isl, STAGE)?
                .coalesce()
                .isl(isl, STAGE)
        })
    }

    pub fn dump(&self) -> String {
        let list = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
        format!(
            "flow: \"{}\"\nanti: \"{}\"\noutput: \"{}\"\nlive_in: \"{}\"\ncopy_in: [{}]\ncopy_out: [{}]\n{}",
            self.flow,
            self.anti,
            self.output,
            self.live_in,
            list(&self.copy_in),
            list(&self.copy_out),
            self.copy_in_where
                .iter()
                .map(|(a, w)| format!("copy_in_where: {{ array: {}, params: \"{}\" }}\n", a, w))
                .collect::<String>()
                + &self.privatised
                .iter()
                .map(|p| format!(
                    "private: {{ var: {}, depth: {}, last_writers: \"{}\" }}\n",
                    p.array, p.depth, p.last_writers
                ))
                .collect::<String>()
        )
    }
}

/// The region's original schedule, reads and writes, each restricted to
/// the iteration domain, read into `isl`'s context.
struct Model {
    sched: UnionMap,
    reads: UnionMap,
    /// Must- and may-writes.
    writes: UnionMap,
    must_writes: UnionMap,
    may_writes: UnionMap,
    /// Must- and may-writes as written, before `unordered_writes`: the
    /// writes that happen for sure whatever the order (what a copy back
    /// may rely on being overwritten), and what live-in analysis uses.
    exact_must_writes: UnionMap,
    exact_may_writes: UnionMap,
    /// The kills and the original schedule of statements and kills.
    kills: UnionMap,
    sched_with_kills: UnionMap,
    /// Instance pairs whose dependences `independent` removes.
    independent: UnionMap,
}

impl Model {
    fn read(isl: &Isl, scop: &Scop) -> Result<Model> {
        // Instances where the context holds: the generated code runs
        // nowhere else (its facts are checked at entry, assumed, or hold
        // wherever the program has no undefined behaviour). Outside it a
        // domain may be unbounded (pet's `for (i = 0; min(i, N); ++i)`
        // never ends where N < 0), where isl finds no optimum.
        let context = isl.set(&scop.context).isl(isl, STAGE)?;
        let domain = isl
            .union_set(&scop.domain_text())
            .isl(isl, STAGE)?
            .intersect_params(context)
            .isl(isl, STAGE)?;
        let all = isl
            .union_set(&scop.domain_with_kills_text())
            .isl(isl, STAGE)?;
        let kills_domain = isl
            .union_set(&scop.domain_with_kills_text())
            .isl(isl, STAGE)?;
        let independent = if scop.independent.is_empty() {
            isl.union_map("{ }").isl(isl, STAGE)?
        } else {
            isl.union_map(&scop.independent).isl(isl, STAGE)?
        };
        let must_writes = Self::on_domain(isl, &domain, &scop.must_writes_text())?;
        let may_writes = Self::on_domain(isl, &domain, &scop.may_writes_text())?;
        let exact_must_writes = must_writes.copy().isl(isl, STAGE)?;
        let exact_may_writes = may_writes.copy().isl(isl, STAGE)?;
        let (must_writes, may_writes) =
            Self::unordered_writes(isl, &independent, must_writes, may_writes)?;
        let m = Model {
            sched: Self::on_domain(isl, &domain, &scop.schedule_text())?,
            reads: Self::on_domain(isl, &domain, &scop.reads_text())?,
            writes: Self::on_domain(isl, &domain, &scop.writes_text())?,
            exact_must_writes,
            exact_may_writes,
            must_writes,
            may_writes,
            kills: Self::on_domain(isl, &kills_domain, &scop.kills_text())?,
            sched_with_kills: Self::on_domain(isl, &all, &scop.schedule_with_kills_text())?,
            independent,
        };
        Ok(m)
    }

    /// Must-writes in the iterations of an `independent` loop as sources
    /// that kill nothing (may-writes).
    ///
    /// Dataflow runs on the original order, where iteration 0 of such a
    /// loop kills a value before iteration 1 reads or overwrites it, so
    /// the earlier write reaches iteration 0 only; once the pairs between
    /// iterations are removed, nothing would keep that earlier write (or
    /// read) before iterations 1.. in a parallel schedule. As may-writes
    /// they kill nothing, so every iteration keeps its dependence on what
    /// came before the loop, and everything after the loop on every
    /// iteration. Coverage (what copy-in may skip) and live-in still use
    /// the exact writes: `independent` promises no value flows between
    /// iterations, so what an iteration reads comes from before the loop
    /// or from itself, as in the original order.
    fn unordered_writes(
        isl: &Isl,
        independent: &UnionMap,
        must: UnionMap,
        may: UnionMap,
    ) -> Result<(UnionMap, UnionMap)> {
        if independent.is_empty().isl(isl, STAGE)? {
            return Ok((must, may));
        }
        let unordered = independent
            .copy()
            .isl(isl, STAGE)?
            .domain()
            .isl(isl, STAGE)?
            .union(
                independent
                    .copy()
                    .isl(isl, STAGE)?
                    .range()
                    .isl(isl, STAGE)?,
            )
            .isl(isl, STAGE)?;
        let demoted = must
            .copy()
            .isl(isl, STAGE)?
            .intersect_domain(unordered.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let must = must.subtract_domain(unordered).isl(isl, STAGE)?;
        let may = may.union(demoted).isl(isl, STAGE)?;
        Ok((must, may))
    }

    /// The union map `text` restricted to the iteration domain.
    fn on_domain(isl: &Isl, domain: &UnionSet, text: &str) -> Result<UnionMap> {
        isl.union_map(text)
            .isl(isl, STAGE)?
            .intersect_domain(domain.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)
    }

    /// Flow into `sink` reads: must-writes kill older values, may-writes
    /// never do, kills end every value they cover (and are no source).
    fn flow_info(&self, isl: &Isl, sink: UnionMap, exact: bool) -> Result<UnionAccessInfo> {
        let (must, may) = if exact {
            (&self.exact_must_writes, &self.exact_may_writes)
        } else {
            (&self.must_writes, &self.may_writes)
        };
        UnionAccessInfo::from_sink(sink)
            .isl(isl, STAGE)?
            .set_must_source(must.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .set_may_source(may.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .set_kill(self.kills.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .set_schedule(order_tree(isl, &self.sched_with_kills)?)
            .isl(isl, STAGE)
    }

    /// Anti and output dependences into `sink` writes: every earlier read
    /// and write since the last must-write. Kills are left out here: a
    /// write before a kill and one after it must still stay in order for
    /// the value left at the end.
    fn false_info(&self, isl: &Isl, sink: UnionMap) -> Result<UnionAccessInfo> {
        let may = self
            .reads
            .copy()
            .isl(isl, STAGE)?
            .union(self.may_writes.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        UnionAccessInfo::from_sink(sink)
            .isl(isl, STAGE)?
            .set_must_source(self.must_writes.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .set_may_source(may)
            .isl(isl, STAGE)?
            .set_schedule(order_tree(isl, &self.sched)?)
            .isl(isl, STAGE)
    }

    /// The model of the program in which each of `privs` is expanded by
    /// its live ranges, and stored by its last writers (`privatise`).
    fn privatise(&mut self, isl: &Isl, scop: &Scop, privs: &[Privatised]) -> Result<()> {
        // All writes, as written: a last writer may be a may-write, whose
        // store happens all the same.
        let back = privatise::write_backs(isl, scop, &self.writes, privs)?;
        let ex = |m: &UnionMap| privatise::expand(isl, scop, m.copy().isl(isl, STAGE)?, privs);
        let with_back = |m: UnionMap| -> Result<UnionMap> {
            m.union(back.copy().isl(isl, STAGE)?).isl(isl, STAGE)
        };
        self.reads = ex(&self.reads)?;
        self.writes = with_back(ex(&self.writes)?)?;
        self.must_writes = with_back(ex(&self.must_writes)?)?;
        self.may_writes = ex(&self.may_writes)?;
        self.exact_must_writes = with_back(ex(&self.exact_must_writes)?)?;
        self.exact_may_writes = ex(&self.exact_may_writes)?;
        Ok(())
    }

    /// The anti and output dependences of each of `privs` between
    /// different live ranges, in the model before expansion: what keeps
    /// one copy's values apart where a scheduler runs them in one thread.
    fn order_between_live_ranges(
        &self,
        isl: &Isl,
        scop: &Scop,
        privs: &[Privatised],
    ) -> Result<UnionMap> {
        let mut out = isl.union_map("{ }").isl(isl, STAGE)?;
        for p in privs {
            let mine = |m: &UnionMap| privatise::accesses_of(isl, scop, m, p);
            let writes = mine(&self.writes)?;
            let accesses = mine(&self.reads)?
                .union(writes.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            let deps = self
                .false_info(isl, writes.copy().isl(isl, STAGE)?)?
                .compute_flow()
                .isl(isl, STAGE)?
                .get_may_dependence()
                .isl(isl, STAGE)?;
            let deps = restrict_same_array(isl, deps, &accesses, &writes)?;
            let apart = privatise::between_live_ranges(isl, scop, deps, p)?;
            out = out.union(apart).isl(isl, STAGE)?;
        }
        out.coalesce().isl(isl, STAGE)
    }

    /// `deps` without the pairs `independent` removes.
    fn keep_dependent(&self, isl: &Isl, deps: UnionMap) -> Result<UnionMap> {
        deps.subtract(self.independent.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)
    }
}

/// The original order as a schedule tree (sequences for statement lists,
/// bands for loops). isl's dataflow analysis on a tree handles each
/// sequence and band apart; on the flat 2d+1 map it compares every pair of
/// accesses through the whole schedule, which took 17 s on a random
/// four-statement nest that the tree form does in milliseconds.
fn order_tree(isl: &Isl, sched: &UnionMap) -> Result<isl_rs::Schedule> {
    let list = sched.get_map_list().isl(isl, STAGE)?;
    let n = list.size().isl(isl, STAGE)?;
    let maps = (0..n)
        .map(|k| list.get_at(k).isl(isl, STAGE))
        .collect::<Result<Vec<_>>>()?;
    let domain = sched.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
    crate::isl::order::order_tree(isl, STAGE, domain, maps, None)
}

pub fn analyze(isl: &Isl, scop: &Scop) -> Result<DependenceGraph> {
    analyze_with(isl, scop, &[])
}

/// The variables of `scop` whose values all live within iterations of
/// the loops around them, small or not (`privatise::find_up_to`), but
/// those named in `excluded`: what `scop::expand` may give a copy per
/// iteration. Only the privatisation's own dataflow is computed.
pub fn expansion_candidates(
    isl: &Isl,
    scop: &Scop,
    excluded: &[String],
) -> Result<Vec<Privatised>> {
    isl.reset_budget();
    let model = Model::read(isl, scop)?;
    privatisable(isl, scop, &model, excluded, i64::MAX)
}

/// The privatisable variables of `model` of up to `max_elems` elements,
/// but those named in `excluded` (`privatise::find_up_to`).
fn privatisable(
    isl: &Isl,
    scop: &Scop,
    model: &Model,
    excluded: &[String],
    max_elems: i64,
) -> Result<Vec<Privatised>> {
    privatise::find_up_to(
        isl,
        scop,
        &privatise::Accesses {
            sched: &order_tree(isl, &model.sched)?,
            time: &model.sched,
            reads: &model.reads,
            must_writes: &model.exact_must_writes,
            may_writes: &model.exact_may_writes,
            kills: &model.kills,
        },
        excluded,
        max_elems,
    )
}

/// `analyze` without the private copies named in `excluded`
/// (`Privatised::name`): a schedule made with them interleaved two values
/// of one copy (`valid::check_private_copies`).
pub fn analyze_with(isl: &Isl, scop: &Scop, excluded: &[String]) -> Result<DependenceGraph> {
    isl.reset_budget();
    let mut model = Model::read(isl, scop)?;
    let privatised = privatisable(
        isl,
        scop,
        &model,
        excluded,
        privatise::MAX_PRIVATE_ARRAY_ELEMS,
    )?;
    // The order between live ranges, from the program as written.
    let reorder_order = if privatised.is_empty() {
        isl.union_map("{ }").isl(isl, STAGE)?
    } else {
        model.order_between_live_ranges(isl, scop, &privatised)?
    };
    if !privatised.is_empty() {
        model.privatise(isl, scop, &privatised)?;
    }

    // Flow: each read's last writer. Reads with no writer are live-in.
    let flow_res = model
        .flow_info(isl, model.reads.copy().isl(isl, STAGE)?, false)?
        .compute_flow()
        .isl(isl, STAGE)?;
    let flow = flow_res.get_may_dependence().isl(isl, STAGE)?;
    // Equalities that only the integer points show (`i' = i` where both
    // are 1 mod 3 and `i <= i' <= i + 2`), made explicit: schedulers see
    // the constraints, and would read a distance of 0 to 2 there.
    let flow = model
        .keep_dependent(isl, flow)?
        .detect_equalities()
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;
    let flow_res = if model.independent.is_empty().isl(isl, STAGE)? {
        flow_res
    } else {
        model
            .flow_info(isl, model.reads.copy().isl(isl, STAGE)?, true)?
            .compute_flow()
            .isl(isl, STAGE)?
    };
    let live_in = flow_res
        .get_may_no_source()
        .isl(isl, STAGE)?
        .range()
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;

    // False dependences: for each write, the last write (output) and the
    // reads since then (anti).
    // Stores of one value in any order leave the same result
    // (`same_value`): no write of such an array is a sink.
    let mut sinks = model.writes.copy().isl(isl, STAGE)?;
    for a in same_value::arrays(scop) {
        let rank = scop.array(&a).map(|x| x.extents.len()).unwrap_or(0);
        let dims: Vec<String> = (0..rank).map(|k| format!("e{}_", k)).collect();
        let all = isl
            .union_set(&format!("{{ {}[{}] }}", a, dims.join(", ")))
            .isl(isl, STAGE)?;
        sinks = sinks.subtract_range(all).isl(isl, STAGE)?;
    }
    let false_res = model
        .false_info(isl, sinks)?
        .compute_flow()
        .isl(isl, STAGE)?;
    let false_all = false_res.get_may_dependence().isl(isl, STAGE)?;
    let false_all = model
        .keep_dependent(isl, false_all)?
        .detect_equalities()
        .isl(isl, STAGE)?;
    let (reads, writes) = (&model.reads, &model.writes);
    // Split by the kind of source access: sources that write are output
    // dependences, the others anti dependences.
    let output = restrict_same_array(isl, false_all.copy().isl(isl, STAGE)?, writes, writes)?;
    let anti = restrict_same_array(isl, false_all, reads, writes)?;

    let mut copy_in = BTreeSet::new();
    let mut copy_in_where = BTreeMap::new();
    let mut copy_out = BTreeSet::new();
    for a in &scop.arrays {
        // Locals are dead before their declaration and after the region.
        if a.local {
            continue;
        }
        let live = live_in_of(isl, scop, &live_in, &a.name)?;
        if live {
            copy_in.insert(a.name.clone());
        }
        if a.written && !a.killed_after {
            copy_out.insert(a.name.clone());
            // The copied range goes back whole, so elements of it that the
            // region does not overwrite for sure (may-writes do not count)
            // must hold their old values on the device, unless a kill says
            // they are dead. A scalar too: written in a loop that runs no
            // iteration at some sizes, it keeps the value it had.
            if !a.killed_before && !live {
                match unwritten_copied(isl, scop, &model.exact_must_writes, a)? {
                    Unwritten::Never => {}
                    Unwritten::Always => {
                        copy_in.insert(a.name.clone());
                    }
                    Unwritten::Where(params) => {
                        copy_in.insert(a.name.clone());
                        copy_in_where.insert(a.name.clone(), params);
                    }
                }
            }
        }
    }
    let reorder_condition = privatise::within_live_ranges(isl, scop, &flow, &privatised)?;
    Ok(DependenceGraph {
        reorder_condition: reorder_condition.text(isl, STAGE)?,
        reorder_order: reorder_order.text(isl, STAGE)?,
        flow: flow.text(isl, STAGE)?,
        anti: anti.text(isl, STAGE)?,
        output: output.text(isl, STAGE)?,
        live_in: live_in.text(isl, STAGE)?,
        copy_in,
        copy_in_where,
        copy_out,
        privatised,
    })
}

/// Keeps the pairs (a, b) of `deps` where a's access in `src` and b's in
/// `dst` touch a common element; compute_flow already guarantees this per
/// source, but a statement can both read and write, so the split into anti
/// and output needs it re-checked.
fn restrict_same_array(
    isl: &Isl,
    deps: UnionMap,
    src: &UnionMap,
    dst: &UnionMap,
) -> Result<UnionMap> {
    // conflict = src ; dst^-1 : instance pairs touching a common element.
    let conflict = src
        .copy()
        .isl(isl, STAGE)?
        .apply_range(dst.copy().isl(isl, STAGE)?.reverse().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    deps.intersect(conflict)
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)
}

fn live_in_of(isl: &Isl, scop: &Scop, live_in: &UnionSet, array: &str) -> Result<bool> {
    let rank = scop.array(array).map(|a| a.extents.len()).unwrap_or(0);
    let dims: Vec<String> = (0..rank).map(|k| format!("e{}_", k)).collect();
    let universe = isl
        .union_set(&format!("{{ {}[{}] }}", array, dims.join(", ")))
        .isl(isl, STAGE)?;
    let mine = live_in
        .copy()
        .isl(isl, STAGE)?
        .intersect(universe)
        .isl(isl, STAGE)?;
    Ok(!mine.is_empty().isl(isl, STAGE)?)
}

/// Where the host copies back elements of an array that the region may
/// leave unwritten.
enum Unwritten {
    Never,
    Always,
    /// At these parameter values (isl set text), inside the context.
    Where(String),
}

/// Where elements of `a` that the host copies back
/// (`scop::copied_elements`) are not all written by
/// the region for sure (`writes`: its exact must-writes).
fn unwritten_copied(
    isl: &Isl,
    scop: &Scop,
    writes: &UnionMap,
    a: &crate::scop::Array,
) -> Result<Unwritten> {
    // Not affine (an extent that is not a constant where the copy's
    // range needs it): the copy back may carry anything.
    let Some(copied) = crate::scop::copied_elements(isl, scop, a)? else {
        return Ok(Unwritten::Always);
    };
    let ctx = isl.set(&scop.context).isl(isl, STAGE)?;
    let written = writes.copy().isl(isl, STAGE)?.range().isl(isl, STAGE)?;
    let space = copied.get_space().isl(isl, STAGE)?;
    let written = written.extract_set(space).isl(isl, STAGE)?;
    // Where nothing is copied, a copy in moves nothing either.
    let copies = copied
        .copy()
        .isl(isl, STAGE)?
        .params()
        .isl(isl, STAGE)?
        .intersect_params(ctx.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let where_ = copied
        .subtract(written)
        .isl(isl, STAGE)?
        .params()
        .isl(isl, STAGE)?
        .intersect_params(ctx.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;
    Ok(if where_.is_empty().isl(isl, STAGE)? {
        Unwritten::Never
    } else if copies.is_subset(&where_).isl(isl, STAGE)? {
        Unwritten::Always
    } else {
        Unwritten::Where(where_.text(isl, STAGE)?)
    })
}

/// The dependences split per pair of accesses (one of them a write) that
/// touch a common element, each piece a single basic relation, never
/// coalesced across references. This is what a Pluto-style scheduler
/// wants: coalescing the seven neighbours of a 3-D stencil into one
/// polyhedron gives it dozens of constraints, and Farkas' lemma on that is
/// exponential, while each neighbour alone is a translation. The pieces
/// come from `deps` (no second dataflow analysis): each dependence map is
/// intersected with "same element" for each access pair of its two
/// statements. Their union is exactly `deps.all` (checked by a test).
pub fn pieces(isl: &Isl, scop: &Scop, deps: &DependenceGraph) -> Result<Vec<String>> {
    isl.reset_budget();
    let all = deps.all(isl)?;
    let domain = isl.union_set(&scop.domain_text()).isl(isl, STAGE)?;
    // Each statement's accesses, restricted to its domain, by tuple name.
    let mut accesses: BTreeMap<&str, Vec<(&str, bool, UnionMap)>> = BTreeMap::new();
    for st in &scop.stmts {
        let list = accesses.entry(st.name.as_str()).or_default();
        for (acc, write) in st
            .reads
            .iter()
            .map(|a| (a, false))
            .chain(st.writes.iter().map(|a| (a, true)))
        {
            let rel = isl
                .union_map(&acc.relation)
                .isl(isl, STAGE)?
                .intersect_domain(domain.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            list.push((acc.array.as_str(), write, rel));
        }
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let maps = all.get_map_list().isl(isl, STAGE)?;
    for k in 0..maps.size().isl(isl, STAGE)? {
        let m = maps.get_at(k).isl(isl, STAGE)?;
        let src = m.get_tuple_name(DimType::In).isl(isl, STAGE)?.to_string();
        let dst = m.get_tuple_name(DimType::Out).isl(isl, STAGE)?.to_string();
        let (Some(from), Some(to)) = (accesses.get(src.as_str()), accesses.get(dst.as_str()))
        else {
            return Err(Diagnostic::internal(
                STAGE,
                format!("a dependence {} -> {} between unknown statements", src, dst),
            ));
        };
        let dep = UnionMap::from_map(m).isl(isl, STAGE)?;
        for (array_a, write_a, a) in from {
            for (array_b, write_b, b) in to {
                if array_a != array_b || !(*write_a || *write_b) {
                    continue;
                }
                let same_element = a
                    .copy()
                    .isl(isl, STAGE)?
                    .apply_range(b.copy().isl(isl, STAGE)?.reverse().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?;
                let piece = dep
                    .copy()
                    .isl(isl, STAGE)?
                    .intersect(same_element)
                    .isl(isl, STAGE)?;
                let pieces = piece.get_map_list().isl(isl, STAGE)?;
                for p in 0..pieces.size().isl(isl, STAGE)? {
                    let bms = pieces
                        .get_at(p)
                        .isl(isl, STAGE)?
                        .get_basic_map_list()
                        .isl(isl, STAGE)?;
                    for b in 0..bms.size().isl(isl, STAGE)? {
                        let bm = bms.get_at(b).isl(isl, STAGE)?;
                        let text = bm.text(isl, STAGE)?;
                        if seen.insert(text.clone()) {
                            out.push(text);
                        }
                    }
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The region of `src` (a file named after `name`), its model and its
    /// dependences.
    fn analyze_source(name: &str, src: &str) -> (Isl, Scop, DependenceGraph) {
        let scop = crate::scop::test_support::scop_of(&format!("deps-{}", name), src);
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        let g = analyze(&isl, &scop).unwrap();
        (isl, scop, g)
    }

    #[test]
    fn pieces_cover_exactly_the_dependences() {
        let src = "void f(int n, double A[100], double B[100]) {\n#pragma scop\nfor (int t = 0; t < 10; t++) {\n for (int i = 1; i < 99; i++) B[i] = A[i-1] + A[i] + A[i+1];\n for (int i = 1; i < 99; i++) A[i] = B[i];\n}\n#pragma endscop\n}\n";
        let (isl, scop, g) = analyze_source("pieces", src);
        let p = pieces(&isl, &scop, &g).unwrap();
        assert!(p.len() >= 3, "{:?}", p);
        let mut u = isl.union_map("{ }").unwrap();
        for t in &p {
            u = u.union(isl.union_map(t).unwrap()).unwrap();
        }
        assert!(u.is_equal(&g.all(&isl).unwrap()).unwrap());
    }

    /// Scalars set in each row and then changed under conditions on the
    /// data get a copy per row (`conditional`); one never set in the row,
    /// set on one branch only, or an array changed under a condition
    /// (which element, the write-back could not know) gets none.
    #[test]
    fn scalars_changed_under_conditions_are_private_where_each_row_sets_them() {
        let src = "void f(int m, int n, double A[50][40], int out[50], double t) {\n  int best, keep, half;\n  int two[2];\n#pragma scop\n  for (int r = 0; r < m; r++) {\n    best = -1;\n    two[0] = 0;\n    if (A[r][0] > t) half = 0;\n    for (int i = 0; i < n; i++)\n      if (A[r][i] > t) { best = i; keep = i; half = half + i; two[0] = i; }\n    out[r] = best + keep + half + two[0];\n  }\n#pragma endscop\n}\n";
        let (_, _, g) = analyze_source("conditional", src);
        let private = |v: &str| {
            g.privatised
                .iter()
                .find(|p| p.array == v)
                .map(|p| (p.depth, p.conditional))
        };
        assert_eq!(private("best"), Some((1, true)), "{}", g.dump());
        for v in ["keep", "half", "two"] {
            assert_eq!(private(v), None, "{}: {}", v, g.dump());
        }
    }

    /// An array the region reads nothing of is copied in only where the
    /// elements the host copies back (whole rows of a declared array, the
    /// first to the last element of a pointer's) are not all written.
    #[test]
    fn arrays_written_before_read_are_copied_in_only_where_copies_back_would_keep_old_values() {
        let src = "void f(int n, int m, double A[100][50], double B[100][51], double C[100][50], double *p, double *q) {\n#pragma scop\nfor (int i = 0; i < n; i++)\n  for (int j = 0; j < m; j++) {\n    A[i][j] = i + j;\n    B[i][j + 1] = A[i][j];\n    C[i][j] = 1;\n    C[i][j] = C[i][j] + A[i][j];\n  }\nfor (int i = 0; i < n; i++) {\n  p[i] = i;\n  q[2 * i] = i;\n}\n#pragma endscop\n}\n";
        let (isl, _, g) = analyze_source("copy_in_where", src);
        let needed_at = |array: &str, n: i64, m: i64| -> bool {
            if !g.copy_in.contains(array) {
                return false;
            }
            let Some(w) = g.copy_in_where.get(array) else {
                return true;
            };
            let at = isl
                .set(&format!("[m, n] -> {{ : n = {} and m = {} }}", n, m))
                .unwrap();
            !isl.set(w)
                .unwrap()
                .intersect(at)
                .unwrap()
                .is_empty()
                .unwrap()
        };
        // A: rows whole, so every column must be written.
        assert!(!needed_at("A", 100, 50), "{}", g.dump());
        assert!(needed_at("A", 100, 49), "{}", g.dump());
        assert!(needed_at("A", 1, 1), "{}", g.dump());
        // Nothing accessed, nothing copied.
        assert!(!needed_at("A", 0, 50), "{}", g.dump());
        // B's column 0 is never written.
        assert!(needed_at("B", 100, 50), "{}", g.dump());
        assert!(needed_at("B", 3, 2), "{}", g.dump());
        // C is written before it is read: as A.
        assert!(!needed_at("C", 100, 50), "{}", g.dump());
        assert!(needed_at("C", 100, 10), "{}", g.dump());
        // A pointer's copy runs from the first element accessed to the
        // last: p's are all written, q's odd ones are not.
        assert!(!g.copy_in.contains("p"), "{}", g.dump());
        assert!(!needed_at("q", 1, 0), "{}", g.dump());
        assert!(needed_at("q", 2, 0), "{}", g.dump());
        assert!(needed_at("q", 100, 50), "{}", g.dump());
    }

    /// Every iteration of an `independent` loop that overwrites a value
    /// stays after the write before the loop, not only iteration 0 (the
    /// one the original order makes its "next" writer).
    #[test]
    fn writes_before_an_independent_loop_precede_every_iteration() {
        let src = "void f(int A[100], int flag[1]) {\n#pragma scop\nflag[0] = 0;\n#pragma pencil independent\nfor (int i = 0; i < 100; i++) {\n A[i] = i;\n flag[0] = 1;\n}\nflag[0] = flag[0] + 1;\n#pragma endscop\n}\n";
        let (isl, _, g) = analyze_source("indep", src);
        let all = g.all(&isl).unwrap();
        let before = isl.union_map("{ S_0[] -> S_2[i] : 0 <= i < 100 }").unwrap();
        assert!(before.is_subset(&all).unwrap(), "{}", g.dump());
        let after = isl.union_map("{ S_2[i] -> S_3[] : 0 <= i < 100 }").unwrap();
        assert!(after.is_subset(&all).unwrap(), "{}", g.dump());
        // The iterations themselves stay unordered.
        let between = isl.union_map("{ S_2[i] -> S_2[j] }").unwrap();
        assert!(
            all.intersect(between).unwrap().is_empty().unwrap(),
            "{}",
            g.dump()
        );
        // flag is overwritten whatever the order: not live-in.
        assert!(!g.live_in.contains("flag"), "{}", g.dump());
    }
}
