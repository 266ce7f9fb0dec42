//! Privatisation: a variable whose every value lives within one iteration
//! of the loops around it (written before it is read in each iteration,
//! as symm's `temp2`, deriche's `ym1`, doitgen's `sum[p]`) does not order
//! the iterations: each may have its own copy (live-range reordering,
//! Verdoolaege and Cohen, IMPACT 2016, for expanded storage).
//!
//! The dataflow of the rest of the pipeline is the dataflow of the program
//! in which such a variable `V` is expanded by those loops' iterators:
//! its accesses in iteration `x` go to `V'[x][e]`. Its flow dependences
//! are unchanged (they all lie within an iteration), and its anti and
//! output dependences between iterations disappear. A value the region
//! leaves in `V` is stored from the private copy by the instance that
//! writes that element last in the original order (`last_writers`), a
//! must-write of `V[e]` itself.
//!
//! Code keeps one copy per thread (a register) or per CPU thread, not the
//! expanded array; `valid::check_private_copies` proves that the final
//! schedule never interleaves two values of one copy (else the region is
//! compiled without the privatisation).

use crate::diag::Result;
use crate::front::syntax::{Expr, ExprKind, Stmt, UnOp};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use crate::scop::{Scop, StmtBody};
use isl_rs::{DimType, UnionAccessInfo, UnionMap};

const STAGE: &str = "deps";

/// Private copies for scalars are always small; arrays get a private copy
/// of their whole (constant) extent per thread, up to this many elements.
pub const MAX_PRIVATE_ARRAY_ELEMS: i64 = 256;

/// isl operations the dataflow of one variable's copies may take.
const PRIVATISE_OPERATIONS: u64 = 1_000_000;

/// A variable privatised by the loops around its accesses in one loop
/// nest (a variable that several nests reuse, as deriche's `ym1`, has a
/// private copy in each nest that keeps its values to itself).
#[derive(Clone, Debug, PartialEq)]
pub struct Privatised {
    /// The array (a scalar is a 0-d array).
    pub array: String,
    /// The private copy's name in generated code.
    pub name: String,
    /// How many loops, outermost first, each iteration of which has its
    /// own copy.
    pub depth: usize,
    /// The statements of the nest that access it (indices into
    /// `Scop::stmts`).
    pub stmts: Vec<usize>,
    /// The instances that write an element last in the nest, in the
    /// original order, and so also store it in the variable itself (isl
    /// union set text).
    pub last_writers: String,
    /// Some write of the copy is under a condition on the data (a
    /// may-write): a search's `best = i`. Such a copy is a choice: rows
    /// on threads with a search each, against rows in order with each
    /// search a parallel reduction (`driver::region`).
    pub conditional: bool,
}

impl Privatised {
    /// The name of the private copy in generated code.
    pub fn private_name(&self) -> String {
        self.name.clone()
    }
}

/// instance → [iterators of the first `depth` loops], over `stmts`.
pub fn live_range_map(isl: &Isl, scop: &Scop, stmts: &[usize], depth: usize) -> Result<UnionMap> {
    let parts: Vec<String> = stmts
        .iter()
        .map(|&s| {
            let st = &scop.stmts[s];
            let it: Vec<String> = (0..st.iterators.len()).map(|k| format!("x{}", k)).collect();
            format!(
                "{}[{}] -> [{}]",
                st.name,
                it.join(", "),
                it[..depth].join(", ")
            )
        })
        .collect();
    isl.union_map(&format!(
        "{} -> {{ {} }}",
        scop.param_prefix(),
        parts.join("; ")
    ))
    .isl(isl, STAGE)
}

/// `acc` (instance → element) cut down to `p`'s statements and variable.
pub fn accesses_of(isl: &Isl, scop: &Scop, acc: &UnionMap, p: &Privatised) -> Result<UnionMap> {
    let a = scop.array(&p.array).expect("privatised arrays exist");
    acc.copy()
        .isl(isl, STAGE)?
        .intersect_range(elements(isl, a)?)
        .isl(isl, STAGE)?
        .intersect_domain(instances_of(isl, scop, &p.stmts)?)
        .isl(isl, STAGE)
}

/// Instance pairs of `p`'s statements in one live range.
fn same_live_range(isl: &Isl, scop: &Scop, p: &Privatised) -> Result<UnionMap> {
    pairs_in_one_range(isl, live_range_map(isl, scop, &p.stmts, p.depth)?)
}

/// Instance pairs that `lr` (instance -> live range) sends to one range.
fn pairs_in_one_range(isl: &Isl, lr: UnionMap) -> Result<UnionMap> {
    lr.copy()
        .isl(isl, STAGE)?
        .apply_range(lr.reverse().isl(isl, STAGE)?)
        .isl(isl, STAGE)
}

/// The pairs of `deps` between `p`'s statements in different live ranges.
pub fn between_live_ranges(
    isl: &Isl,
    scop: &Scop,
    deps: UnionMap,
    p: &Privatised,
) -> Result<UnionMap> {
    let nest = instances_of(isl, scop, &p.stmts)?;
    deps.intersect_domain(nest.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .intersect_range(nest)
        .isl(isl, STAGE)?
        .subtract(same_live_range(isl, scop, p)?)
        .isl(isl, STAGE)
}

/// The pairs of `flow` within one live range of one of `privs`.
pub fn within_live_ranges(
    isl: &Isl,
    scop: &Scop,
    flow: &UnionMap,
    privs: &[Privatised],
) -> Result<UnionMap> {
    let mut out = isl.union_map("{ }").isl(isl, STAGE)?;
    for p in privs {
        let mine = flow
            .copy()
            .isl(isl, STAGE)?
            .intersect(same_live_range(isl, scop, p)?)
            .isl(isl, STAGE)?;
        out = out.union(mine).isl(isl, STAGE)?;
    }
    out.coalesce().isl(isl, STAGE)
}

/// How many loops all of `stmts` share, outermost first.
fn common_loops(isl: &Isl, scop: &Scop, stmts: &[usize]) -> Result<usize> {
    let mut common: Option<(Vec<i64>, usize)> = None;
    for &s in stmts {
        let st = &scop.stmts[s];
        let Some(pos) = crate::scop::reductions::positions(isl, &st.schedule)? else {
            return Ok(0);
        };
        let loops = st.iterators.len();
        common = Some(match common {
            None => (pos, loops),
            Some((first, n)) => {
                // Loop l is shared when the positions before it and at its
                // own level agree.
                let mut k = 0;
                while k < n.min(loops) && first.get(k) == pos.get(k) {
                    k += 1;
                }
                (first, k)
            }
        });
    }
    Ok(common.map(|(_, n)| n).unwrap_or(0))
}

/// The variables of `scop` that can be privatised, with the accesses of
/// the rest of the analysis: `reads` and `writes` are the model's (all
/// accesses, and must-writes), each instance → element. Arrays of up to
/// `max_elems` elements: a copy per thread takes
/// `MAX_PRIVATE_ARRAY_ELEMS`, a copy per iteration in device memory
/// (`scop::expand`) more.
pub fn find_up_to(
    isl: &Isl,
    scop: &Scop,
    access: &Accesses,
    excluded: &[String],
    max_elems: i64,
) -> Result<Vec<Privatised>> {
    let mut out = Vec::new();
    for a in &scop.arrays {
        // A flat user variable that the model reshapes keeps its own
        // indexing on the host; a buffer of touched rows only moves the
        // device's subscripts, which copies and write-backs print.
        if !a.written || a.layout.as_ref().is_some_and(|l| l.host_flat) || !a.members.is_empty() {
            continue;
        }
        // Arrays: one copy of the whole array per thread, so a small one.
        let mut elems = 1i64;
        for e in &a.extents {
            match e {
                crate::scop::Extent::Const(c) => elems = elems.saturating_mul(*c),
                _ => elems = i64::MAX,
            }
        }
        if elems > max_elems {
            continue;
        }
        let accessing: Vec<usize> = scop
            .stmts
            .iter()
            .enumerate()
            .filter(|(_, st)| {
                st.reads
                    .iter()
                    .chain(st.writes.iter())
                    .any(|x| x.array == a.name)
            })
            .map(|(k, _)| k)
            .collect();
        if accessing.is_empty() || !accessing.iter().all(|&s| plain_access(scop, s, &a.name)) {
            continue;
        }
        // Copies only save what the scheduler can reorder: a variable
        // whose dataflow alone costs more than that keeps one copy (a
        // 7x12 array read by a stencil and a triangular update took 2.7 s
        // here, and pushed the region past its time to the host).
        let found = isl.within_operations(PRIVATISE_OPERATIONS, || {
            copies_of(isl, scop, a, &accessing, access, excluded)
        })?;
        out.extend(found.unwrap_or_default());
    }
    Ok(out)
}

/// The region as written, which `find` reads the dataflow from.
pub struct Accesses<'a> {
    /// The original order as a tree, and as a map (instance → time).
    pub sched: &'a isl_rs::Schedule,
    pub time: &'a UnionMap,
    pub reads: &'a UnionMap,
    pub must_writes: &'a UnionMap,
    pub may_writes: &'a UnionMap,
    pub kills: &'a UnionMap,
}

/// The private copies of variable `a`, one per web of the statements
/// `accessing` it whose values all live within iterations of their loops.
fn copies_of(
    isl: &Isl,
    scop: &Scop,
    a: &crate::scop::Array,
    accessing: &[usize],
    access: &Accesses,
    excluded: &[String],
) -> Result<Vec<Privatised>> {
    let mut out = Vec::new();
    let Accesses {
        sched,
        time,
        reads,
        must_writes,
        may_writes,
        kills,
    } = *access;
    let universe = elements(isl, a)?;
    let on_v = |m: &UnionMap| -> Result<UnionMap> {
        m.copy()
            .isl(isl, STAGE)?
            .intersect_range(universe.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)
    };
    let (r, mw, yw, k) = (
        on_v(reads)?,
        on_v(must_writes)?,
        on_v(may_writes)?,
        on_v(kills)?,
    );
    // Kills end values wherever they stand. A may-write (a write under
    // a condition on the data, `if (a[i] > t) best = i`) keeps the
    // value before it where it does not happen: it reads the variable
    // as much as it writes it, and is a sink below, so that the value
    // it may keep must come from its own live range too. Of an array
    // it may write another element than the one its write-back would
    // store; scalars only.
    let may_written = !yw.is_empty().isl(isl, STAGE)?;
    if !k.is_empty().isl(isl, STAGE)? || (may_written && !a.is_scalar()) {
        return Ok(out);
    }
    let sinks = r
        .copy()
        .isl(isl, STAGE)?
        .union(yw.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let flow = UnionAccessInfo::from_sink(sinks)
        .isl(isl, STAGE)?
        .set_must_source(mw.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .set_may_source(yw.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .set_schedule(sched.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .compute_flow()
        .isl(isl, STAGE)?;
    // A read with no write before it in the region reads the value
    // from before the region: its copy would start undefined (so would
    // a may-write's, where it does not happen).
    let unsourced = flow
        .get_may_no_source()
        .isl(isl, STAGE)?
        .domain()
        .isl(isl, STAGE)?;
    let deps = flow.get_may_dependence().isl(isl, STAGE)?;
    let mut copies = 0;
    for stmts in webs(isl, scop, &accessing, &deps)? {
        let name = match copies {
            0 => format!("pencilc_priv_{}", a.name),
            k => format!("pencilc_priv_{}_{}", a.name, k),
        };
        if excluded.contains(&name) {
            copies += 1;
            continue;
        }
        let names = instances_of(isl, scop, &stmts)?;
        // Every value read in the nest is written in the same iteration
        // of its loops (so none comes from before the nest).
        let mine = deps
            .copy()
            .isl(isl, STAGE)?
            .intersect_range(names.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        if !unsourced
            .copy()
            .isl(isl, STAGE)?
            .intersect(names.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .is_empty()
            .isl(isl, STAGE)?
        {
            copies += 1;
            continue;
        }
        let loops = common_loops(isl, scop, &stmts)?;
        let mut depth = 0;
        for d in (1..=loops).rev() {
            let same = pairs_in_one_range(isl, live_range_map(isl, scop, &stmts, d)?)?;
            if mine.is_subset(&same).isl(isl, STAGE)? {
                depth = d;
                break;
            }
        }
        if depth == 0 {
            copies += 1;
            continue;
        }
        // A copy of what the nest only writes, that separates nothing
        // (`A[i] = ...` in a parallel loop: each element in one live
        // range already), would only cost each GPU thread a private array
        // of the whole extent, which lives in local memory, and its
        // write-back. (One the nest also reads keeps its values in the
        // thread, and the scheduler's choices hang on it.)
        let touched = |m: &UnionMap| -> Result<UnionMap> {
            m.copy()
                .isl(isl, STAGE)?
                .intersect_domain(names.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)
        };
        let read = touched(&r)?;
        let all_writes = touched(&mw)?.union(touched(&yw)?).isl(isl, STAGE)?;
        if read.is_empty().isl(isl, STAGE)?
            && !shared_between_ranges(isl, scop, &stmts, depth, &read, &all_writes)?
        {
            copies += 1;
            continue;
        }
        // The last instance that may write stores the copy whether or
        // not its write happens: the copy holds the live range's value.
        let written = mw
            .copy()
            .isl(isl, STAGE)?
            .union(yw.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .intersect_domain(names)
            .isl(isl, STAGE)?;
        let last = last_writers(isl, time, &written)?;
        let conditional = may_written
            && !yw
                .copy()
                .isl(isl, STAGE)?
                .intersect_domain(instances_of(isl, scop, &stmts)?)
                .isl(isl, STAGE)?
                .is_empty()
                .isl(isl, STAGE)?;
        copies += 1;
        out.push(Privatised {
            array: a.name.clone(),
            name,
            depth,
            stmts,
            last_writers: last.text(isl, STAGE)?,
            conditional,
        });
    }
    Ok(out)
}

/// Whether two instances of `stmts` in different live ranges (by the
/// first `depth` loops) touch one element, one of them writing it
/// (`reads` and `writes`: instance → element, of the variable): only
/// then do copies per live range remove a dependence.
fn shared_between_ranges(
    isl: &Isl,
    scop: &Scop,
    stmts: &[usize],
    depth: usize,
    reads: &UnionMap,
    writes: &UnionMap,
) -> Result<bool> {
    let same = |x: &UnionMap, y: &UnionMap| -> Result<UnionMap> {
        x.copy()
            .isl(isl, STAGE)?
            .apply_range(y.copy().isl(isl, STAGE)?.reverse().isl(isl, STAGE)?)
            .isl(isl, STAGE)
    };
    let conflicts = same(writes, writes)?
        .union(same(writes, reads)?)
        .isl(isl, STAGE)?
        .union(same(reads, writes)?)
        .isl(isl, STAGE)?;
    let apart = conflicts
        .subtract(pairs_in_one_range(
            isl,
            live_range_map(isl, scop, stmts, depth)?,
        )?)
        .isl(isl, STAGE)?;
    Ok(!apart.is_empty().isl(isl, STAGE)?)
}

/// `stmts` split into webs: statements linked by the values of the
/// variable (`flow`, its flow dependences) share a web, each web a copy of
/// its own (deriche's `ym1`, reused by two loop nests; ludcmp's `w`, by
/// the two loops of each row). Statements outside every loop are left
/// out, as are webs holding one.
fn webs(isl: &Isl, scop: &Scop, stmts: &[usize], flow: &UnionMap) -> Result<Vec<Vec<usize>>> {
    let index = |name: &str| stmts.iter().position(|&s| scop.stmts[s].name == name);
    let mut parent: Vec<usize> = (0..stmts.len()).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        p[x] = r;
        r
    }
    let list = flow.get_map_list().isl(isl, STAGE)?;
    for i in 0..list.size().isl(isl, STAGE)? {
        let m = list.get_at(i).isl(isl, STAGE)?;
        let a = m.get_tuple_name(DimType::In).isl(isl, STAGE)?.to_string();
        let b = m.get_tuple_name(DimType::Out).isl(isl, STAGE)?.to_string();
        if let (Some(x), Some(y)) = (index(&a), index(&b)) {
            let (x, y) = (find(&mut parent, x), find(&mut parent, y));
            parent[x.max(y)] = x.min(y);
        }
    }
    let mut out: Vec<(usize, Vec<usize>)> = Vec::new();
    for (k, &s) in stmts.iter().enumerate() {
        let r = find(&mut parent, k);
        match out.iter_mut().find(|(root, _)| *root == r) {
            Some((_, v)) => v.push(s),
            None => out.push((r, vec![s])),
        }
    }
    Ok(out
        .into_iter()
        .map(|(_, v)| v)
        .filter(|v| v.iter().all(|&s| !scop.stmts[s].iterators.is_empty()))
        .collect())
}

/// The instances of `stmts`, any iteration.
fn instances_of(isl: &Isl, scop: &Scop, stmts: &[usize]) -> Result<isl_rs::UnionSet> {
    let parts: Vec<String> = stmts
        .iter()
        .map(|&s| {
            let st = &scop.stmts[s];
            format!(
                "{}[{}]",
                st.name,
                (0..st.iterators.len())
                    .map(|k| format!("x{}", k))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    isl.union_set(&format!("{{ {} }}", parts.join("; ")))
        .isl(isl, STAGE)
}

/// Whether statement `s` touches `array` only as plain assignments and
/// reads do: no reduction update, summary call or compound statement
/// (whose writes are may-writes, and whose text the write-back could not
/// follow), and at most one write (the assignment's left-hand side).
fn plain_access(scop: &Scop, s: usize, array: &str) -> bool {
    let st = &scop.stmts[s];
    if st.reductions.iter().any(|(v, _)| v == array) {
        return false;
    }
    match &st.body {
        StmtBody::Assign { .. } => st.writes.iter().filter(|w| w.array == array).count() <= 1,
        // Statements under conditions on the data (`if (t > 0) B[i] += t`)
        // may read the copy: every read of the statement comes before its
        // writes in the dataflow, so what they see is decided as for an
        // assignment (a read of the statement's own write is of its own
        // live range). They may write a scalar copy too, by its name
        // only: its write-back stores the whole scalar after the statement.
        StmtBody::Compound(body) => {
            st.writes.iter().all(|w| w.array != array)
                || (scop.array(array).is_some_and(|a| a.is_scalar())
                    && assigns_by_name_only(body, array))
        }
        StmtBody::Call { .. } => false,
    }
}

/// Whether `body` changes `var` only by assignments to its name (`v = e`,
/// `v += e`, not atomic, or a loop over it), takes no address of it, passes it to no call
/// statement and declares nothing of its name: then the private copy's
/// name in place of `var` is every change the statement makes.
fn assigns_by_name_only(body: &[Stmt], var: &str) -> bool {
    let mentions = |e: &Expr| {
        let mut names = Vec::new();
        e.idents(&mut names);
        names.iter().any(|n| n == var)
    };
    fn takes_address(e: &Expr, mentions: &dyn Fn(&Expr) -> bool) -> bool {
        match &e.kind {
            ExprKind::Unary(UnOp::AddrOf, x) => mentions(x),
            _ => e.children().into_iter().any(|c| takes_address(c, mentions)),
        }
    }
    let mut ok = true;
    for s in body {
        s.each(&mut |s| {
            ok &= match s {
                Stmt::Assign { lhs, atomic, .. } => {
                    let mut names = Vec::new();
                    lhs.idents(&mut names);
                    names.first().is_none_or(|n| n != var)
                        || (matches!(&lhs.kind, ExprKind::Ident(n) if n == var) && !atomic)
                }
                // A loop over `var` (`for (i = 0; ...) if (...) break;`)
                // sets it by its name too (`back::stmt` prints the copy).
                Stmt::For { .. } => true,
                Stmt::Decl { var: d, .. } => d.name != var,
                Stmt::Kill { targets: args, .. } | Stmt::Call { args, .. } => {
                    !args.iter().any(&mentions)
                }
                _ => true,
            } && !s
                .own_exprs()
                .into_iter()
                .any(|e| takes_address(e, &mentions));
        });
    }
    ok
}

/// The instances among `writes`' whose element no later instance writes.
fn last_writers(isl: &Isl, time: &UnionMap, writes: &UnionMap) -> Result<isl_rs::UnionSet> {
    let time = crate::isl::time::padded_map(isl, time.copy().isl(isl, STAGE)?)?;
    // element → times of its writes, then the last of them.
    let when = writes
        .copy()
        .isl(isl, STAGE)?
        .reverse()
        .isl(isl, STAGE)?
        .apply_range(time.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .lexmax()
        .isl(isl, STAGE)?;
    // instance → element → last time; kept where that time is its own.
    let own = writes
        .copy()
        .isl(isl, STAGE)?
        .apply_range(when)
        .isl(isl, STAGE)?
        .intersect(time)
        .isl(isl, STAGE)?;
    own.domain().isl(isl, STAGE)
}

/// Every element of `a`, `{ A[e0, ..., e_{r-1}] }`, unbounded: the range
/// an access map is cut down to for one variable.
fn elements(isl: &Isl, a: &crate::scop::Array) -> Result<isl_rs::UnionSet> {
    let dims: Vec<String> = (0..a.extents.len()).map(|k| format!("e{}", k)).collect();
    isl.union_set(&format!("{{ {}[{}] }}", a.name, dims.join(", ")))
        .isl(isl, STAGE)
}

/// `acc` with the accesses to each privatised variable expanded by its
/// live range: `S[x] -> V[e]` becomes `S[x] -> [V[e] -> P[x_0..x_{d-1}]]`.
pub fn expand(isl: &Isl, scop: &Scop, acc: UnionMap, privs: &[Privatised]) -> Result<UnionMap> {
    let mut acc = acc;
    for p in privs {
        let a = scop.array(&p.array).expect("privatised arrays exist");
        let universe = elements(isl, a)?;
        let nest = instances_of(isl, scop, &p.stmts)?;
        let mine = acc
            .copy()
            .isl(isl, STAGE)?
            .intersect_range(universe.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .intersect_domain(nest.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        if mine.is_empty().isl(isl, STAGE)? {
            continue;
        }
        let rest = acc.subtract(mine.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
        // Each copy's live ranges in a space of their own.
        let lr = live_range_map(isl, scop, &p.stmts, p.depth)?;
        let id = isl.id(&p.name).isl(isl, STAGE)?;
        let lr = named_range(isl, lr, id)?;
        let expanded = mine.range_product(lr).isl(isl, STAGE)?;
        acc = rest.union(expanded).isl(isl, STAGE)?;
    }
    Ok(acc)
}

/// `m` with every map's range tuple named `id`.
fn named_range(isl: &Isl, m: UnionMap, id: isl_rs::Id) -> Result<UnionMap> {
    let list = m.get_map_list().isl(isl, STAGE)?;
    let mut out: Option<UnionMap> = None;
    for i in 0..list.size().isl(isl, STAGE)? {
        let map = list
            .get_at(i)
            .isl(isl, STAGE)?
            .set_tuple_id(DimType::Out, id.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let um = UnionMap::from_map(map).isl(isl, STAGE)?;
        out = Some(match out {
            None => um,
            Some(o) => o.union(um).isl(isl, STAGE)?,
        });
    }
    match out {
        Some(o) => Ok(o),
        None => Ok(m),
    }
}

/// The write-back of each privatised variable: its last writers' writes of
/// the variable itself (instance → element).
pub fn write_backs(
    isl: &Isl,
    scop: &Scop,
    writes: &UnionMap,
    privs: &[Privatised],
) -> Result<UnionMap> {
    let mut out = isl
        .union_map(&format!("{} -> {{ }}", scop.param_prefix()))
        .isl(isl, STAGE)?;
    for p in privs {
        let last = isl.union_set(&p.last_writers).isl(isl, STAGE)?;
        let a = scop.array(&p.array).expect("privatised arrays exist");
        let universe = elements(isl, a)?;
        let w = writes
            .copy()
            .isl(isl, STAGE)?
            .intersect_range(universe)
            .isl(isl, STAGE)?
            .intersect_domain(last)
            .isl(isl, STAGE)?;
        out = out.union(w).isl(isl, STAGE)?;
    }
    Ok(out)
}
