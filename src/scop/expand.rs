//! Expansion of privatised arrays: doitgen's `sum[p]`, written before it
//! is read in each `(r, q)` iteration, becomes `sum'[r][q][p]`, a
//! region-local array with a copy per iteration.
//!
//! A private copy per thread (`deps::privatise`) keeps each live range in
//! one thread, so the loops inside it stay that thread's sequential work:
//! doitgen's `(r, q)` on 21,000 threads, each running 25,600 products
//! over a 160-element copy in local memory. With a copy per iteration in
//! device memory nothing ties a live range to a thread: the scheduler
//! distributes the nest (the products over `(r, q, p)`, then the stores
//! into `A`), and every loop of it runs on threads. The driver keeps this
//! model where the GPU model prefers it (`driver::region`).
//!
//! The result means what the region means because privatisation found
//! that every read of the variable in the nest reads a value written in
//! the same iteration of the privatising loops (and the variable is
//! written by plain assignments only, never under a condition on the
//! data): those values may as well live in the iteration's own copy.
//! Values the region leaves in the variable are stored after the nest by
//! a statement of their own, from the copy of the iteration that wrote
//! each element last (`Candidate::last_writers`). The schedule of the
//! result is checked against its own dependences like any other.
//!
//! The expanded array is sized by constant bounds of the privatising
//! loops. Bounds that come from a `__pencil_assume` are not used: the
//! run-time check on entry does not test assumptions, and a false one
//! would write past the array's end.

use super::{Access, Array, Extent, Scop, Statement, StmtBody, StmtId};
use crate::diag::Result;
use crate::front::syntax::{AssignOp, Expr, ExprKind};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, Map, Set};

const STAGE: &str = "scop";

/// An expanded array takes at most this many bytes of device memory.
pub const MAX_EXPANDED_BYTES: f64 = (256u64 << 20) as f64;

/// A privatised array (`deps::privatise::Privatised`, as data: the model
/// comes before the dependences).
#[derive(Clone, Debug)]
pub struct Candidate {
    pub array: String,
    /// The statements of the nest that access it (indices into `stmts`).
    pub stmts: Vec<usize>,
    /// How many loops, outermost first, each iteration of which has its
    /// own copy.
    pub depth: usize,
    /// The instances that write an element last in the nest (isl union
    /// set text).
    pub last_writers: String,
}

/// The region with each candidate that can be expanded kept in an array
/// of its own with a copy per iteration, and what `-v` says of each;
/// `None` where none can.
pub fn expand(isl: &Isl, scop: &Scop, cands: &[Candidate]) -> Result<Option<(Scop, Vec<String>)>> {
    let mut out = scop.clone();
    let mut notes = Vec::new();
    for c in cands {
        let Some(plan) = plan(isl, &out, c)? else {
            continue;
        };
        let mut next = out.clone();
        if !apply(isl, &mut next, c, &plan)? {
            continue;
        }
        let loops: Vec<String> = out.stmts[c.stmts[0]].iterators[..c.depth]
            .iter()
            .map(|i| format!("`{}`", i))
            .collect();
        notes.push(format!(
            "line {}: `{}` has a copy per iteration of loop(s) {} in device memory (`{}`, {} elements, {:.1} MB): the loops inside them may run on threads of their own",
            out.stmts[c.stmts[0]].loc.line,
            c.array,
            loops.join(", "),
            plan.name,
            plan.extents.iter().product::<i64>(),
            plan.bytes / 1e6
        ));
        out = next;
    }
    Ok((!notes.is_empty()).then_some((out, notes)))
}

/// How one candidate is expanded.
struct Plan {
    /// The expanded array's name.
    name: String,
    /// Its extents: the privatising loops' then the variable's own.
    extents: Vec<i64>,
    bytes: f64,
    /// The position of the nest in the region's top level (the first
    /// coordinate of its statements' original schedules).
    top: i64,
    /// The length of the original schedules.
    len: usize,
}

/// The expansion of `c`, where the model allows one.
fn plan(isl: &Isl, scop: &Scop, c: &Candidate) -> Result<Option<Plan>> {
    let Some(a) = scop.array(&c.array) else {
        return Ok(None);
    };
    if a.is_scalar()
        || a.layout.as_ref().is_some_and(|l| l.host_flat)
        || !a.members.is_empty()
        || a.no_address
        || c.depth == 0
        || c.stmts.is_empty()
    {
        return Ok(None);
    }
    let mut own = Vec::new();
    for e in &a.extents {
        match e {
            Extent::Const(k) if *k > 0 => own.push(*k),
            _ => return Ok(None),
        }
    }
    // Plain assignments only: their accesses are the model's.
    if c.stmts.iter().any(|&s| {
        let st = &scop.stmts[s];
        !matches!(st.body, StmtBody::Assign { .. })
            || st.iterators.len() < c.depth
            || st.reductions.iter().any(|(v, _)| v == &c.array)
            || st
                .writes
                .iter()
                .chain(st.reads.iter())
                .any(|w| w.array == c.array && w.may)
    }) {
        return Ok(None);
    }
    // One top-level position for the whole nest.
    let mut top = None;
    let mut len = 0;
    for st in &scop.stmts {
        len = len.max(schedule_len(isl, &st.schedule)?);
    }
    for &s in &c.stmts {
        let Some(pos) = super::reductions::positions(isl, &scop.stmts[s].schedule)? else {
            return Ok(None);
        };
        match top {
            None => top = Some(pos[0]),
            Some(t) if t == pos[0] => {}
            Some(_) => return Ok(None),
        }
    }
    let Some(top) = top else { return Ok(None) };
    // The store of the last values goes after the whole nest: no other
    // statement of it may touch the variable (another web of it, a
    // write after the web's: `t[r] = -1`), or the store would overwrite
    // what that statement left later.
    for (k, st) in scop.stmts.iter().enumerate() {
        if c.stmts.contains(&k)
            || !st
                .reads
                .iter()
                .chain(st.writes.iter())
                .any(|x| x.array == c.array)
        {
            continue;
        }
        match super::reductions::positions(isl, &st.schedule)? {
            Some(pos) if pos[0] != top => {}
            _ => return Ok(None),
        }
    }
    // The statement that stores the last values has a loop per
    // privatising loop and per dimension of the variable.
    if 1 + 2 * (c.depth + own.len()) > len {
        return Ok(None);
    }
    let Some(loops) = loop_extents(isl, scop, c)? else {
        return Ok(None);
    };
    let mut extents = loops;
    extents.extend(own);
    let elems = extents.iter().fold(1f64, |p, &e| p * e as f64);
    let bytes = elems * super::elem_bytes(&a.elem_type);
    if bytes > MAX_EXPANDED_BYTES {
        return Ok(None);
    }
    let name = fresh(scop, &format!("pencilc_x_{}", c.array));
    Ok(Some(Plan {
        name,
        extents: extents.clone(),
        bytes,
        top,
        len,
    }))
}

/// How many dimensions `schedule` (a statement's map) has.
pub(super) fn schedule_len(isl: &Isl, schedule: &str) -> Result<usize> {
    Ok(isl
        .map(schedule)
        .isl(isl, STAGE)?
        .dim(DimType::Out)
        .isl(isl, STAGE)? as usize)
}

/// `base`, or `base_1`, ...: a name neither the user's code, the file
/// nor the device languages have.
pub(super) fn fresh(scop: &Scop, base: &str) -> String {
    let mut name = base.to_string();
    let mut k = 0;
    while scop.is_name_taken(&name) {
        k += 1;
        name = format!("{}_{}", base, k);
    }
    name
}

/// `{ S[i0, ...] -> [i0, ..., i(depth-1)] }` for statement `st`.
fn prefix_map(isl: &Isl, scop: &Scop, st: &Statement, depth: usize) -> Result<Map> {
    loops_map(isl, scop, st, 0..depth)
}

/// `{ S[i0, ...] -> [i(from), ..., i(to-1)] }` for statement `st`.
fn loops_map(isl: &Isl, scop: &Scop, st: &Statement, loops: std::ops::Range<usize>) -> Result<Map> {
    // Not the user's names: the text declares the region's parameters.
    let it: Vec<String> = (0..st.iterators.len())
        .map(|k| format!("pencilc_x{}", k))
        .collect();
    isl.map(&format!(
        "{} -> {{ {}[{}] -> [{}] }}",
        scop.param_prefix(),
        st.name,
        it.join(", "),
        it[loops].join(", ")
    ))
    .isl(isl, STAGE)
}

/// The extent of each privatising loop: its largest value plus one,
/// where every value is at least 0 and the bound holds wherever the
/// region runs its compiled code (the entry check: `Scop::checked`),
/// whatever the user's assumptions say.
fn loop_extents(isl: &Isl, scop: &Scop, c: &Candidate) -> Result<Option<Vec<i64>>> {
    loop_extents_of(isl, scop, &c.stmts, 0..c.depth)
}

/// `loop_extents` of the loops `loops` (at those depths) of the
/// statements `stmts`, which share them.
pub(super) fn loop_extents_of(
    isl: &Isl,
    scop: &Scop,
    stmts: &[usize],
    loops: std::ops::Range<usize>,
) -> Result<Option<Vec<i64>>> {
    if loops.is_empty() {
        return Ok(Some(Vec::new()));
    }
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    let checked = match &scop.checked {
        Some(t) => isl.set(t).isl(isl, STAGE)?,
        None => isl
            .set(&format!("{} -> {{ : }}", scop.param_prefix()))
            .isl(isl, STAGE)?,
    };
    // The iterations, as the model has them (under the context), and as
    // the code may run them (the context's constraints left out: a
    // superset of what runs, whatever the assumptions).
    let mut under: Option<Set> = None;
    let mut loose: Option<Set> = None;
    for &s in stmts {
        let st = &scop.stmts[s];
        let p = loops_map(isl, scop, st, loops.clone())?;
        let dom = isl.set(&st.domain).isl(isl, STAGE)?;
        let free = dom
            .copy()
            .isl(isl, STAGE)?
            .gist_params(context.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let x = dom.apply(p.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
        let y = free.apply(p).isl(isl, STAGE)?;
        under = Some(match under {
            None => x,
            Some(u) => u.union(x).isl(isl, STAGE)?,
        });
        loose = Some(match loose {
            None => y,
            Some(u) => u.union(y).isl(isl, STAGE)?,
        });
    }
    let (Some(under), Some(loose)) = (under, loose) else {
        return Ok(None);
    };
    let mut extents = Vec::new();
    let flat = under.project_out_all_params().isl(isl, STAGE)?;
    let n = loops.len();
    for k in 0..n {
        let max = flat
            .copy()
            .isl(isl, STAGE)?
            .dim_max_val(k as i32)
            .isl(isl, STAGE)?;
        if !max.is_int().isl(isl, STAGE)? {
            return Ok(None);
        }
        extents.push(max.get_num_si().isl(isl, STAGE)? + 1);
    }
    // Outside [0, extent) anywhere the entry check lets the code run?
    let outside: Vec<String> = extents
        .iter()
        .enumerate()
        .map(|(k, e)| format!("pencilc_x{k} < 0 or pencilc_x{k} >= {e}"))
        .collect();
    let vars: Vec<String> = (0..n).map(|k| format!("pencilc_x{}", k)).collect();
    let bad = isl
        .set(&format!(
            "{} -> {{ [{}] : {} }}",
            scop.param_prefix(),
            vars.join(", "),
            outside.join(" or ")
        ))
        .isl(isl, STAGE)?;
    let escapes = loose
        .intersect(bad)
        .isl(isl, STAGE)?
        .params()
        .isl(isl, STAGE)?
        .intersect(checked)
        .isl(isl, STAGE)?;
    if !escapes.is_empty().isl(isl, STAGE)? {
        return Ok(None);
    }
    Ok(Some(extents))
}

/// Rewrites the nest's accesses of the candidate into the expanded array
/// and adds the statement that stores the values it leaves; `false`
/// where some access is not a plain element of the variable.
fn apply(isl: &Isl, scop: &mut Scop, c: &Candidate, plan: &Plan) -> Result<bool> {
    let a = scop.array(&c.array).expect("candidates exist").clone();
    let rank = a.extents.len();
    // The last values, element → iteration that wrote it last.
    let last = isl.union_set(&c.last_writers).isl(isl, STAGE)?;
    let mut stores: Option<isl_rs::UnionMap> = None;
    for &s in &c.stmts {
        let st = scop.stmts[s].clone();
        let p = prefix_map(isl, scop, &st, c.depth)?;
        let mut body = st.body.clone();
        if let StmtBody::Assign { lhs, rhs, .. } = &mut body {
            let its: Vec<Expr> = st.iterators[..c.depth]
                .iter()
                .map(|i| Expr {
                    kind: ExprKind::Ident(i.clone()),
                    loc: st.loc.clone(),
                })
                .collect();
            if !rewrite(lhs, &c.array, rank, &plan.name, &its)
                || !rewrite(rhs, &c.array, rank, &plan.name, &its)
            {
                return Ok(false);
            }
        }
        let target = &mut scop.stmts[s];
        target.body = body;
        for acc in target.reads.iter_mut().chain(target.writes.iter_mut()) {
            if acc.array != c.array {
                continue;
            }
            let m = isl.map(&acc.relation).isl(isl, STAGE)?;
            let expanded = p
                .copy()
                .isl(isl, STAGE)?
                .range_product(m)
                .isl(isl, STAGE)?
                .flatten_range()
                .isl(isl, STAGE)?
                .set_tuple_name(DimType::Out, &plan.name)
                .isl(isl, STAGE)?;
            acc.array = plan.name.clone();
            acc.relation = expanded.text(isl, STAGE)?;
        }
        for w in st.writes.iter().filter(|w| w.array == c.array) {
            // element → the iteration of its last write here
            let e_x = isl_rs::UnionMap::from_map(isl.map(&w.relation).isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .intersect_domain(last.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .range_product(
                    isl_rs::UnionMap::from_map(p.copy().isl(isl, STAGE)?).isl(isl, STAGE)?,
                )
                .isl(isl, STAGE)?
                .range()
                .isl(isl, STAGE)?
                .unwrap()
                .isl(isl, STAGE)?;
            stores = Some(match stores {
                None => e_x,
                Some(u) => u.union(e_x).isl(isl, STAGE)?,
            });
        }
    }
    let reads_elsewhere = scop
        .stmts
        .iter()
        .any(|st| st.reads.iter().any(|r| r.array == c.array));
    if let Some(arr) = scop.arrays.iter_mut().find(|x| x.name == c.array) {
        arr.read = reads_elsewhere;
    }
    if let Some(stores) = stores {
        if !stores.is_empty().isl(isl, STAGE)? {
            if !stores.is_single_valued().isl(isl, STAGE)? {
                return Ok(false);
            }
            let stores = Map::from_union_map(stores).isl(isl, STAGE)?;
            add_store(isl, scop, c, plan, &a, stores)?;
        }
    }
    let what = format!(
        "{}, the copies of {} (the region at line {})",
        plan.name, c.array, scop.begin_line
    );
    add_local_array(scop, &plan.name, &a, &plan.extents, &what);
    Ok(true)
}

/// Declares `name`, a region-local array of `like`'s element type with
/// constant `extents`: device versions keep it in device memory, host
/// versions take it from the heap (far larger than what a stack holds:
/// doitgen's copies are 27 MB) through the prelude's
/// `pencilc_host_alloc`, which names `what` if it fails.
pub(super) fn add_local_array(
    scop: &mut Scop,
    name: &str,
    like: &Array,
    extents: &[i64],
    what: &str,
) {
    let elems = extents.iter().fold(1f64, |p, &e| p * e as f64);
    scop.arrays.push(Array {
        name: name.to_string(),
        elem_type: like.elem_type.clone(),
        extents: extents.iter().map(|&e| Extent::Const(e)).collect(),
        read: true,
        written: true,
        local: true,
        killed_before: false,
        killed_after: false,
        members: Vec::new(),
        struct_type: None,
        layout: None,
        no_address: false,
        wide_index: elems > i32::MAX as f64,
        loc: like.loc.clone(),
    });
    let dims: String = extents[1..].iter().map(|e| format!("[{}]", e)).collect();
    let size = extents
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join(" * ");
    scop.local_decls.push(format!(
        "{t} (*{n}){d} = ({t} (*){d}) pencilc_host_alloc(sizeof({t}) * {size}, \"{what}\");",
        t = like.elem_type,
        n = name,
        d = dims,
        size = size,
        what = what,
    ));
    scop.local_frees
        .push(format!("pencilc_host_free({});", name));
}

/// Replaces every element `var[e...]` (all `rank` subscripts) in `e` by
/// `name[its...][e...]`; `false` where `var` appears otherwise.
fn rewrite(e: &mut Expr, var: &str, rank: usize, name: &str, its: &[Expr]) -> bool {
    // The base of a subscript chain and how many subscripts it has.
    fn base_of(e: &mut Expr) -> (&mut Expr, usize) {
        match e.kind {
            ExprKind::Index(..) => {
                let ExprKind::Index(b, _) = &mut e.kind else {
                    unreachable!()
                };
                let (base, n) = base_of(b);
                (base, n + 1)
            }
            _ => (e, 0),
        }
    }
    if let ExprKind::Index(..) = e.kind {
        // Subscripts first: they may read the variable too.
        let mut ok = true;
        let mut cur: &mut Expr = e;
        while let ExprKind::Index(b, i) = &mut cur.kind {
            ok &= rewrite(i, var, rank, name, its);
            cur = b;
        }
        if !ok {
            return false;
        }
        let (base, n) = base_of(e);
        return match &base.kind {
            ExprKind::Ident(v) if v == var => {
                if n != rank {
                    return false;
                }
                let loc = base.loc.clone();
                let mut new = Expr {
                    kind: ExprKind::Ident(name.to_string()),
                    loc: loc.clone(),
                };
                for i in its {
                    new = Expr {
                        kind: ExprKind::Index(Box::new(new), Box::new(i.clone())),
                        loc: loc.clone(),
                    };
                }
                *base = new;
                true
            }
            ExprKind::Ident(_) => true,
            _ => rewrite(base, var, rank, name, its),
        };
    }
    if matches!(&e.kind, ExprKind::Ident(v) if v == var) {
        return false;
    }
    e.children_mut()
        .into_iter()
        .all(|c| rewrite(c, var, rank, name, its))
}

/// Adds `var[e] = name[x][e]` after the nest, for each element the nest
/// leaves a value in (`stores`: element → the iteration that wrote it
/// last), and moves the region's later top-level statements one place on.
fn add_store(
    isl: &Isl,
    scop: &mut Scop,
    c: &Candidate,
    plan: &Plan,
    a: &Array,
    stores: Map,
) -> Result<()> {
    let rank = a.extents.len();
    // Its iterators: numbered names that no name of the region or its
    // file can be (the project's numbered families, as the mapper's).
    let names = scop.all_names();
    let family = |base: &str| crate::front::names::fresh_prefix(names.iter().copied(), base, &[]);
    let (xp, ep) = (family("pencilc_x"), family("pencilc_e"));
    let iters: Vec<String> = (0..c.depth)
        .map(|k| format!("{}{}", xp, k))
        .chain((0..rank).map(|k| format!("{}{}", ep, k)))
        .collect();
    let id = StmtId(scop.stmts.len());
    let sname = format!("S_{}", id.0);
    // [x..., e...]
    let domain = stores
        .reverse()
        .isl(isl, STAGE)?
        .wrap()
        .isl(isl, STAGE)?
        .flatten()
        .isl(isl, STAGE)?
        .set_tuple_name(&sname)
        .isl(isl, STAGE)?;
    let domain = domain.text(isl, STAGE)?;
    let xs: Vec<String> = (0..c.depth + rank)
        .map(|k| format!("pencilc_i{}", k))
        .collect();
    let e = &xs[c.depth..];
    // Later top-level statements move one place on.
    for st in scop.stmts.iter_mut() {
        st.schedule = super::make_room::shift_after(isl, &st.schedule, &[], plan.top, 1, 0)?;
    }
    for k in scop.kills.iter_mut() {
        k.schedule = super::make_room::shift_after(isl, &k.schedule, &[], plan.top, 1, 0)?;
    }
    let mut time = vec![(plan.top + 1).to_string()];
    for v in &xs {
        time.push(v.clone());
        time.push("0".to_string());
    }
    while time.len() < plan.len {
        time.push("0".to_string());
    }
    let schedule = isl
        .map(&format!(
            "{} -> {{ {}[{}] -> [{}] }}",
            scop.param_prefix(),
            sname,
            xs.join(", "),
            time.join(", ")
        ))
        .isl(isl, STAGE)?
        .text(isl, STAGE)?;
    let relation = |array: &str, subs: &[String]| -> Result<String> {
        isl.map(&format!(
            "{} -> {{ {}[{}] -> {}[{}] }}",
            scop.param_prefix(),
            sname,
            xs.join(", "),
            array,
            subs.join(", ")
        ))
        .isl(isl, STAGE)?
        .intersect_domain(isl.set(&domain).isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .text(isl, STAGE)
    };
    let loc = scop.stmts[*c.stmts.last().expect("a nest")].loc.clone();
    let ident = |n: &str| Expr {
        kind: ExprKind::Ident(n.to_string()),
        loc: loc.clone(),
    };
    let index = |base: &str, subs: &[String]| {
        subs.iter().fold(ident(base), |b, s| Expr {
            kind: ExprKind::Index(Box::new(b), Box::new(ident(s))),
            loc: loc.clone(),
        })
    };
    let its = iters.clone();
    let (xi, ei) = its.split_at(c.depth);
    let all: Vec<String> = xi.iter().chain(ei.iter()).cloned().collect();
    let nest = &scop.stmts[c.stmts[0]];
    let mut types: Vec<crate::front::affine::IntTy> = nest.iterator_types[..c.depth].to_vec();
    types.extend(vec![crate::front::affine::IntTy::INT; rank]);
    let st = Statement {
        id,
        name: sname.clone(),
        iterators: iters.clone(),
        iterator_types: types,
        domain: domain.clone(),
        schedule,
        reads: vec![Access {
            array: plan.name.clone(),
            relation: relation(&plan.name, &xs)?,
            may: false,
        }],
        writes: vec![Access {
            array: c.array.clone(),
            relation: relation(&c.array, e)?,
            may: false,
        }],
        body: StmtBody::Assign {
            lhs: index(&c.array, ei),
            op: AssignOp::Assign,
            rhs: index(&plan.name, &all),
        },
        reductions: Vec::new(),
        local_names: Vec::new(),
        loc,
    };
    scop.stmts.push(st);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::cexpr::plain;
    use crate::scop::test_support::scop_of;

    const DOITGEN: &str = "void f(int nr, int nq, int np, double A[10][8][6], double C4[6][6], double sum[6], double out[6]) {\n#pragma scop\nfor (int r = 0; r < nr; r++)\n for (int q = 0; q < nq; q++) {\n  for (int p = 0; p < np; p++) {\n   sum[p] = 0.0;\n   for (int s = 0; s < np; s++)\n    sum[p] += A[r][q][s] * C4[s][p];\n  }\n  for (int p = 0; p < np; p++)\n   A[r][q][p] = sum[p];\n }\nfor (int p = 0; p < np; p++)\n out[p] = sum[p];\n#pragma endscop\n}\n";

    fn doitgen() -> (Scop, Candidate) {
        let scop = scop_of("expand-doitgen", DOITGEN);
        let c = Candidate {
            array: "sum".into(),
            stmts: vec![0, 1, 2],
            depth: 2,
            last_writers: format!(
                "{} -> {{ S_1[r, q, p, s] : r = nr - 1 and q = nq - 1 and s = np - 1 and 0 <= p < np }}",
                scop.param_prefix()
            ),
        };
        (scop, c)
    }

    fn text(st: &Statement) -> String {
        match &st.body {
            StmtBody::Assign { lhs, op, rhs } => {
                format!("{} {} {}", plain(lhs), op.c_text(), plain(rhs))
            }
            _ => String::new(),
        }
    }

    #[test]
    fn doitgens_sum_gets_a_copy_per_iteration() {
        let (scop, c) = doitgen();
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        let (out, notes) = expand(&isl, &scop, &[c]).unwrap().expect("expands");
        assert_eq!(notes.len(), 1, "{:?}", notes);
        assert!(
            notes[0].contains("`sum` has a copy per iteration of loop(s) `r`, `q`"),
            "{}",
            notes[0]
        );
        let x = out.array("pencilc_x_sum").expect("the expanded array");
        assert!(x.local && x.read && x.written);
        let extents: Vec<i64> = x
            .extents
            .iter()
            .map(|e| match e {
                Extent::Const(k) => *k,
                _ => panic!("{:?}", e),
            })
            .collect();
        assert_eq!(extents, [10, 8, 6]);
        assert_eq!(text(&out.stmts[0]), "pencilc_x_sum[r][q][p] = 0.0");
        assert_eq!(
            text(&out.stmts[1]),
            "pencilc_x_sum[r][q][p] += A[r][q][s] * C4[s][p]"
        );
        assert_eq!(text(&out.stmts[2]), "A[r][q][p] = pencilc_x_sum[r][q][p]");
        // Nothing in the nest touches `sum` any more.
        for st in &out.stmts[..3] {
            assert!(st
                .reads
                .iter()
                .chain(st.writes.iter())
                .all(|a| a.array != "sum"));
        }
        // The store of the last values: after the nest, from (nr - 1, nq - 1).
        let store = out.stmts.last().unwrap();
        assert_eq!(
            text(store),
            "sum[pencilc_e0] = pencilc_x_sum[pencilc_x0][pencilc_x1][pencilc_e0]"
        );
        let dom = isl.set(&store.domain).unwrap();
        let want = isl
            .set(&format!(
                "{} -> {{ {}[x0, x1, e] : x0 = nr - 1 and x1 = nq - 1 and 0 <= e < np }}",
                out.param_prefix(),
                store.name
            ))
            .unwrap();
        assert!(dom.is_equal(&want).unwrap(), "{}", store.domain);
        // The later loop (out[p] = sum[p]) moved one place on, after it.
        let later = &out.stmts[3];
        assert_eq!(
            super::super::reductions::positions(&isl, &later.schedule)
                .unwrap()
                .unwrap()[0],
            2
        );
        assert_eq!(
            super::super::reductions::positions(&isl, &store.schedule)
                .unwrap()
                .unwrap()[0],
            1
        );
        // Host versions hold it on the heap, and give it back.
        assert!(out
            .local_decls
            .iter()
            .any(|d| d.starts_with("double (*pencilc_x_sum)[8][6] = ")));
        assert_eq!(out.local_frees, ["pencilc_host_free(pencilc_x_sum);"]);
    }

    #[test]
    fn loops_bounded_by_an_assumption_alone_are_not_expanded() {
        // `r < n` and `n <= 4` only by the assumption: the entry check
        // does not test it, and a false one would write past the copies.
        let src = "void f(int n, double A[100][6], double t[6]) {\n#pragma scop\n__pencil_assume(n <= 4);\nfor (int r = 0; r < n; r++) {\n for (int p = 0; p < 6; p++)\n  t[p] = A[r][p];\n for (int p = 0; p < 6; p++)\n  A[r][p] = t[p] * t[5 - p];\n}\n#pragma endscop\n}\n";
        let scop = scop_of("expand-assumed", src);
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        let c = Candidate {
            array: "t".into(),
            stmts: vec![0, 1],
            depth: 1,
            last_writers: format!(
                "{} -> {{ S_0[r, p] : r = n - 1 and 0 <= p < 6 }}",
                scop.param_prefix()
            ),
        };
        assert!(expand(&isl, &scop, std::slice::from_ref(&c))
            .unwrap()
            .is_none());
        // Bounded by the array (the entry check tests n <= 100), it is.
        let scop = scop_of(
            "expand-checked",
            &src.replace("__pencil_assume(n <= 4);\n", ""),
        );
        let (out, _) = expand(&isl, &scop, &[c]).unwrap().expect("expands");
        assert!(out.array("pencilc_x_t").is_some());
    }

    fn e(kind: ExprKind) -> Expr {
        Expr {
            kind,
            loc: crate::diag::Loc {
                file: std::path::PathBuf::new(),
                line: 1,
                col: 1,
                len: 1,
            },
        }
    }

    #[test]
    fn other_uses_of_the_variable_keep_it() {
        // `t` passed whole to a call: not an element, so not expanded.
        let mut call = e(ExprKind::Call(
            "g".into(),
            vec![e(ExprKind::Ident("t".into()))],
        ));
        assert!(!rewrite(&mut call, "t", 1, "x", &[]));
        // A row of a 2-d variable is not an element either.
        let mut row = e(ExprKind::Index(
            Box::new(e(ExprKind::Ident("t".into()))),
            Box::new(e(ExprKind::Int(1, "1".into()))),
        ));
        assert!(!rewrite(&mut row, "t", 2, "x", &[]));
        // An element in another's subscript is rewritten there too.
        let mut nested = e(ExprKind::Index(
            Box::new(e(ExprKind::Ident("A".into()))),
            Box::new(e(ExprKind::Index(
                Box::new(e(ExprKind::Ident("t".into()))),
                Box::new(e(ExprKind::Ident("p".into()))),
            ))),
        ));
        assert!(rewrite(
            &mut nested,
            "t",
            1,
            "x",
            &[e(ExprKind::Ident("r".into()))]
        ));
        assert_eq!(plain(&nested), "A[x[r][p]]");
    }
}
