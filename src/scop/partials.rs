//! Accumulations split into partial results: gramschmidt's `R[k][j] +=
//! Q[i][k] * A[i][j]` over `i`, inside the parallel loop `j`, becomes
//!
//! ```text
//! P[r][j] = -0.0                                      (r < 32)
//! P[r][j] += Q[32 q + r][k] * A[32 q + r][j]          (r < 32, each q)
//! R[k][j] += P[r][j]                                  (r < 32, in order)
//! ```
//!
//! with `P` a region-local array. An accumulation with a parallel loop of
//! its own is no reduction (`reductions`): each thread of that loop runs
//! the whole accumulation, a chain as long as the loop (gramschmidt at
//! LARGE: 1,000 steps on each of at most 1,200 threads, per launch). Split
//! in 32 lanes, the lanes are parallel too, and the chains are 32 times
//! shorter, plus 32 steps to combine them. Every lane's partial is
//! combined in a fixed order: the result does not depend on the schedule
//! or the device, only on the order of the terms, which changes as a
//! reduction's does (a floating-point sum may round otherwise: the
//! candidates are `reductions::candidates` under `--reductions`).
//!
//! The result means what the region means up to that order: the
//! accumulation's statement is the only one in its loop and the only
//! access to its variable there (a reduction candidate's conditions), so
//! the partials start from the identity (`-0.0` for a floating-point
//! sum, which keeps the sign of a sum of negative zeros), take every term
//! once, and add into the variable where the loop did. A minimum or
//! maximum has no identity that holds for every function of the user's
//! (`umin` orders `int`s as unsigned; PENCIL's `int` `min` truncates a
//! `long`): its lanes start from the variable's value, which taking once
//! more changes nothing, and combine into it with the user's expression,
//! the term replaced by the lane's partial. The partial array is indexed by
//! the lane and by as many of the loops around as its size allows,
//! innermost first; where an outer loop has no index of its own (`k`
//! above), iterations of it reuse the partials, and the dependences that
//! reuse makes order them like any other. The schedule of the result is
//! checked against its own dependences; the driver keeps it where the GPU
//! model prefers it (`driver::region`).

use super::expand::{add_local_array, fresh, loop_extents_of, schedule_len};
use super::reductions::Candidate;
use super::{Access, Scop, Statement, StmtBody, StmtId};
use crate::diag::Result;
use crate::front::syntax::{subst_expr, AssignOp, BinOp, Expr, ExprKind, RedOp};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, Map, Set};

const STAGE: &str = "scop";

/// Lanes per accumulation: a warp's width, so that a lane per thread of a
/// warp reads 32 consecutive terms where the terms run along the
/// accumulation's loop.
pub const LANES: i64 = 32;

/// A partial array takes at most this many bytes of device memory.
pub const MAX_PARTIAL_BYTES: f64 = (64u64 << 20) as f64;

/// The names of the isl texts' variables: the loops around, the lane,
/// the step, the accumulation's loop. The texts declare the region's
/// parameters, which are the user's names; no user's name starts with
/// `pencilc_` (E0121).
const X: &str = "pencilc_x";
const R: &str = "pencilc_r";
const Q: &str = "pencilc_q";
const I: &str = "pencilc_i";

/// The region with each candidate that can be split in partials, and
/// what `-v` says of each; `None` where none can.
pub fn split(isl: &Isl, scop: &Scop, cands: &[Candidate]) -> Result<Option<(Scop, Vec<String>)>> {
    let mut out = scop.clone();
    let mut notes = Vec::new();
    // The lane and the step: a numbered family no name of the region or
    // its file can be, the same for every split.
    let names = scop.all_names();
    let family = crate::front::names::fresh_prefix(names.iter().copied(), "pencilc_lane", &[]);
    let iters = (format!("{}0", family), format!("{}1", family));
    for c in cands {
        let Some(plan) = plan(isl, &out, c)? else {
            continue;
        };
        let mut next = out.clone();
        if !apply(isl, &mut next, c, &plan, &iters)? {
            continue;
        }
        let st = &out.stmts[c.stmts[0]];
        let l = st.iterators.len() - 1;
        let by: Vec<String> = st.iterators[plan.from..l]
            .iter()
            .map(|i| format!("`{}`", i))
            .collect();
        // Users (and the harness, which widens its tolerance on it) must
        // see when the result can differ by its terms' order.
        let order = super::reductions::order_note(&out, st, &c.var, c.op);
        notes.push(format!(
            "line {}: `{}` accumulates ({}) over loop `{}` in {} partial results{} (`{}`, {} elements): the loop's terms run on {} threads, then combine in order{}",
            st.loc.line,
            c.var,
            c.op.name(),
            st.iterators[l],
            LANES,
            if by.is_empty() {
                String::new()
            } else {
                format!(" per iteration of loop(s) {}", by.join(", "))
            },
            plan.name,
            plan.extents.iter().product::<i64>(),
            LANES,
            order,
        ));
        out = next;
    }
    Ok((!notes.is_empty()).then_some((out, notes)))
}

/// How one accumulation is split.
struct Plan {
    /// The partial array's name.
    name: String,
    /// Its extents: the lanes', then the indexed loops'.
    extents: Vec<i64>,
    /// The first loop around the accumulation that indexes the partials
    /// (the loops `from..depth` do).
    from: usize,
    /// The accumulation's positions in the original schedule (its 2d+1
    /// constants).
    betas: Vec<i64>,
    /// The length of the original schedules.
    len: usize,
}

/// The split of `c`, where the model allows one.
fn plan(isl: &Isl, scop: &Scop, c: &Candidate) -> Result<Option<Plan>> {
    // One statement, the only one in the accumulation's loop, which is its
    // innermost, of a sum or product.
    let [s] = c.stmts[..] else {
        return Ok(None);
    };
    let st = &scop.stmts[s];
    // The accumulation's innermost loop is split (the candidate's loops
    // may start further out: `y[i] += A[i][j] * x[j]` accumulates over
    // `i` and `j` together, each `y[i]` over `j`).
    let Some(l) = st.iterators.len().checked_sub(1) else {
        return Ok(None);
    };
    if l == 0
        || c.depth > l
        || !matches!(c.op, RedOp::Add | RedOp::Mul | RedOp::Min | RedOp::Max)
        || scop.host_prologue.contains(&s)
        || scop.independent.contains(&format!("{}[", st.name))
    {
        return Ok(None);
    }
    let Some(a) = scop.array(&c.var) else {
        return Ok(None);
    };
    if a.layout.as_ref().is_some_and(|l| l.host_flat) || !a.members.is_empty() || a.no_address {
        return Ok(None);
    }
    let StmtBody::Assign { lhs, .. } = &st.body else {
        return Ok(None);
    };
    // The element accumulated into: the same in every iteration of the
    // loop, written without its iterator.
    if lhs.mentions(&st.iterators[l]) {
        return Ok(None);
    }
    // Its one write, of the variable, happens in every instance (reads
    // under `?:` are may-reads).
    if st.writes.iter().any(|w| w.may || w.array != c.var) {
        return Ok(None);
    }
    // Its instances one convex set (strides allowed): lanes over a union
    // (`if (j % 3 == 1 || j > 40)`) made the schedule and the AST of the
    // split region run out of the region's time.
    let domain = isl
        .set(&st.domain)
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;
    if domain.n_basic_set().isl(isl, STAGE)? != 1 {
        return Ok(None);
    }
    let Some(betas) = super::reductions::positions(isl, &st.schedule)? else {
        return Ok(None);
    };
    if betas.len() <= l {
        return Ok(None);
    }
    let mut len = 0;
    for t in scop.stmts.iter() {
        len = len.max(schedule_len(isl, &t.schedule)?);
    }
    // Alone in its loop: no other statement shares the loop's position.
    for (t, other) in scop.stmts.iter().enumerate() {
        if t == s || other.iterators.len() <= l {
            continue;
        }
        match super::reductions::positions(isl, &other.schedule)? {
            Some(p) if p.len() > l && p[..=l] != betas[..=l] => {}
            _ => return Ok(None),
        }
    }
    // The partials are indexed by the loops around, innermost first, as
    // many as have constant bounds and fit.
    let elem = super::elem_bytes(&a.elem_type);
    let mut chosen = None;
    for from in 0..=l {
        let Some(ext) = loop_extents_of(isl, scop, &[s], from..l)? else {
            continue;
        };
        let mut extents = vec![LANES];
        extents.extend(ext);
        let bytes = extents.iter().fold(elem, |p, &e| p * e as f64);
        if bytes <= MAX_PARTIAL_BYTES {
            chosen = Some((from, extents));
            break;
        }
    }
    let Some((from, extents)) = chosen else {
        return Ok(None);
    };
    let name = fresh(scop, &format!("pencilc_p_{}", c.var));
    Ok(Some(Plan {
        name,
        extents,
        from,
        betas,
        len,
    }))
}

/// Splits the accumulation: its statement becomes the partials' (over
/// the loops around, the lane and the step), and two statements are
/// added, one that starts each partial and one that adds them into the
/// variable; `false` where some access is not a whole element of the
/// variable.
fn apply(
    isl: &Isl,
    scop: &mut Scop,
    c: &Candidate,
    plan: &Plan,
    (lane, step): &(String, String),
) -> Result<bool> {
    let s = c.stmts[0];
    let st = scop.stmts[s].clone();
    let l = st.iterators.len() - 1;
    let a = scop.array(&c.var).expect("candidates exist").clone();
    let params = scop.param_prefix();
    let outer: Vec<String> = (0..l).map(|k| format!("{}{}", X, k)).collect();
    let with = |extra: &[&str]| -> String {
        outer
            .iter()
            .map(|x| x.as_str())
            .chain(extra.iter().copied())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let domain = isl.set(&st.domain).isl(isl, STAGE)?;
    // part[x, r, q] -> S[x, 32 q + r]
    let to_original = isl
        .map(&format!(
            "{params} -> {{ {n}[{xrq}] -> {n}[{xi}] : 0 <= {R} < {lanes} }}",
            n = st.name,
            xrq = with(&[R, Q]),
            xi = with(&[&format!("{} * {} + {}", LANES, Q, R)]),
            lanes = LANES
        ))
        .isl(isl, STAGE)?;
    let part_domain = to_original
        .copy()
        .isl(isl, STAGE)?
        .intersect_range(domain.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .domain()
        .isl(isl, STAGE)?;
    // The lanes with a term, at each iteration of the loops around.
    let lanes = part_domain
        .copy()
        .isl(isl, STAGE)?
        .project_out(DimType::Set, (l + 1) as u32, 1)
        .isl(isl, STAGE)?;
    let n = scop.stmts.len();
    let (init_name, comb_name) = (format!("S_{}", n), format!("S_{}", n + 1));
    let named = |set: &Set, name: &str| -> Result<Set> {
        set.copy()
            .isl(isl, STAGE)?
            .set_tuple_name(name)
            .isl(isl, STAGE)
    };
    let init_domain = named(&lanes, &init_name)?;
    let comb_domain = named(&lanes, &comb_name)?;
    // The partials' element of an instance: [r, x(from)..x(l-1)].
    let indexed: Vec<String> = std::iter::once(R.to_string())
        .chain(outer[plan.from..].iter().cloned())
        .collect();
    let partial = |stmt: &str, dims: &str| -> Result<String> {
        isl.map(&format!(
            "{params} -> {{ {stmt}[{dims}] -> {p}[{e}] }}",
            p = plan.name,
            e = indexed.join(", ")
        ))
        .isl(isl, STAGE)?
        .text(isl, STAGE)
    };
    // The partials' statement: the accumulation's accesses through
    // `to_original`, the variable's element replaced by the partial's.
    let mut part = st.clone();
    // Accesses are functions of the iterators, as the front end's are
    // (the scheduler reads their subscripts off them): the original's
    // through `i = 32 q + r`, not limited to the domain.
    let substitution = isl_rs::MultiAff::read_from_str(
        &isl.ctx,
        &format!(
            "{params} -> {{ {n}[{xrq}] -> {n}[{xi}] }}",
            n = st.name,
            xrq = with(&[R, Q]),
            xi = with(&[&format!("{} * {} + {}", LANES, Q, R)]),
        ),
    )
    .isl(isl, STAGE)?;
    let through = |relation: &str| -> Result<String> {
        isl.map(relation)
            .isl(isl, STAGE)?
            .preimage_domain_multi_aff(substitution.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .text(isl, STAGE)
    };
    let part_partial = partial(&st.name, &with(&[R, Q]))?;
    // The accumulated element, and the variable's other elements the
    // terms read (`x[i] -= L[i][j] * x[j]`: none the loop updates, by
    // the candidate's conditions), which stay reads of the variable.
    let Some(w) = st.writes.iter().find(|w| w.array == c.var) else {
        return Ok(false);
    };
    let accumulated = isl.map(&w.relation).isl(isl, STAGE)?;
    let mut reads = Vec::new();
    for acc in &st.reads {
        if acc.array != c.var {
            reads.push(Access {
                relation: through(&acc.relation)?,
                ..acc.clone()
            });
            continue;
        }
        reads.push(Access {
            array: plan.name.clone(),
            relation: part_partial.clone(),
            may: false,
        });
        let others = isl
            .map(&acc.relation)
            .isl(isl, STAGE)?
            .subtract(accumulated.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        if !others.is_empty().isl(isl, STAGE)? {
            reads.push(Access {
                relation: through(&others.text(isl, STAGE)?)?,
                ..acc.clone()
            });
        }
    }
    part.reads = reads;
    for acc in part.writes.iter_mut() {
        acc.array = plan.name.clone();
        acc.relation = part_partial.clone();
    }
    let ident = |n: &str| Expr {
        kind: ExprKind::Ident(n.to_string()),
        loc: st.loc.clone(),
    };
    let partial_expr = indexed_expr(
        &plan.name,
        std::iter::once(ident(lane))
            .chain(st.iterators[plan.from..l].iter().map(|i| ident(i)))
            .collect(),
        &st.loc,
    );
    let i = st.iterators[l].clone();
    // i = 32 q + r
    let i_value = Expr {
        kind: ExprKind::Binary(
            BinOp::Add,
            Box::new(Expr {
                kind: ExprKind::Binary(
                    BinOp::Mul,
                    Box::new(Expr {
                        kind: ExprKind::Int(LANES, LANES.to_string()),
                        loc: st.loc.clone(),
                    }),
                    Box::new(ident(step)),
                ),
                loc: st.loc.clone(),
            }),
            Box::new(ident(lane)),
        ),
        loc: st.loc.clone(),
    };
    let StmtBody::Assign { lhs, op, rhs } = &st.body else {
        return Ok(false);
    };
    // The accumulated element wherever the body names it as its
    // left-hand side does; the terms' own elements of the variable stay.
    let me = crate::front::cexpr::plain(lhs);
    let (mut part_lhs, mut part_rhs) = (lhs.clone(), rhs.clone());
    replace_printed(&mut part_lhs, &me, &partial_expr);
    replace_printed(&mut part_rhs, &me, &partial_expr);
    if part_lhs.mentions(&c.var) {
        return Ok(false);
    }
    let by_i = |n: &str| (n == i).then(|| i_value.clone());
    part.body = StmtBody::Assign {
        lhs: part_lhs,
        op: *op,
        rhs: subst_expr(&part_rhs, &by_i),
    };
    part.iterators = st.iterators[..l]
        .iter()
        .cloned()
        .chain([lane.clone(), step.clone()])
        .collect();
    let it = st.iterator_types[l];
    part.iterator_types = st.iterator_types[..l]
        .iter()
        .copied()
        .chain([it, it])
        .collect();
    part.domain = part_domain.text(isl, STAGE)?;
    // Schedules: the loops around as the accumulation's, then the start,
    // the partials and the sum at the loop's place and the two after it.
    let new_len = plan.len.max(2 * l + 5);
    let own_len = schedule_len(isl, &st.schedule)?;
    let around = isl
        .map(&st.schedule)
        .isl(isl, STAGE)?
        .project_out(DimType::Out, (2 * l) as u32, (own_len - 2 * l) as u32)
        .isl(isl, STAGE)?
        .project_out(DimType::In, l as u32, 1)
        .isl(isl, STAGE)?
        .set_tuple_name(DimType::In, &st.name)
        .isl(isl, STAGE)?;
    let beta = plan.betas[l];
    let schedule_of = |stmt: &str, inner: &[&str], tail: Vec<String>| -> Result<String> {
        let dims = with(inner);
        let to_around = isl
            .map(&format!(
                "{params} -> {{ {stmt}[{dims}] -> {n}[{x}] }}",
                n = st.name,
                x = with(&[])
            ))
            .isl(isl, STAGE)?;
        let mut tail = tail;
        while 2 * l + tail.len() < new_len {
            tail.push("0".to_string());
        }
        let own = isl
            .map(&format!(
                "{params} -> {{ {stmt}[{dims}] -> [{t}] }}",
                t = tail.join(", ")
            ))
            .isl(isl, STAGE)?;
        let m: Map = to_around
            .apply_range(around.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .range_product(own)
            .isl(isl, STAGE)?
            .flatten_range()
            .isl(isl, STAGE)?;
        m.text(isl, STAGE)
    };
    part.schedule = schedule_of(
        &st.name,
        &[R, Q],
        vec![(beta + 1).to_string(), R.into(), "0".into(), Q.into()],
    )?;
    let init_schedule = schedule_of(&init_name, &[R], vec![beta.to_string(), R.into()])?;
    let comb_schedule = schedule_of(&comb_name, &[R], vec![(beta + 2).to_string(), R.into()])?;
    // The variable's element at an iteration of the loops around.
    let element_of = |stmt: &str, dom: &Set| -> Result<Option<String>> {
        let Some(w) = st.writes.iter().find(|w| w.array == c.var) else {
            return Ok(None);
        };
        let to_s = isl
            .map(&format!(
                "{params} -> {{ {stmt}[{xr}] -> {n}[{xi}] }}",
                xr = with(&[R]),
                n = st.name,
                xi = with(&[I])
            ))
            .isl(isl, STAGE)?
            .intersect_range(domain.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let m = to_s
            .apply_range(isl.map(&w.relation).isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .intersect_domain(dom.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        if !m.is_single_valued().isl(isl, STAGE)? {
            return Ok(None);
        }
        // As a function of the iterators where it is one.
        let d = m.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
        let pma =
            isl_rs::PwMultiAff::from_map(m.copy().isl(isl, STAGE)?.gist_domain(d).isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
        if pma.n_piece().isl(isl, STAGE)? == 1 && pma.isa_multi_aff().isl(isl, STAGE)? {
            let f = Map::from_multi_aff(pma.as_multi_aff().isl(isl, STAGE)?).isl(isl, STAGE)?;
            return Ok(Some(f.text(isl, STAGE)?));
        }
        Ok(Some(m.text(isl, STAGE)?))
    };
    let Some(element) = element_of(&comb_name, &comb_domain)? else {
        return Ok(false);
    };
    // Every later statement of the accumulation's loop body moves two
    // places on; every schedule gets the new length.
    let at = &plan.betas[..l];
    for (t, other) in scop.stmts.iter_mut().enumerate() {
        if t == s {
            continue;
        }
        other.schedule = super::make_room::shift_after(isl, &other.schedule, at, beta, 2, new_len)?;
    }
    for k in scop.kills.iter_mut() {
        k.schedule = super::make_room::shift_after(isl, &k.schedule, at, beta, 2, new_len)?;
    }
    scop.stmts[s] = part;
    // The start of each partial: for a sum or a product the identity of
    // the operator; for a floating-point sum `-0.0`, which keeps the sign
    // of a zero as the sequential sum does (`-0.0 + -0.0` is `-0.0`,
    // `+0.0` would give `+0.0`). A minimum or maximum starts from the
    // variable's value before the loop: it is idempotent, so taking that
    // value once more changes nothing, and no identity is needed whose
    // value depends on the user's function (`umin` orders `int`s as
    // unsigned: its identity is not `INT_MAX`).
    let float = !super::reductions::is_integer(&a.elem_type);
    let min_max = matches!(c.op, RedOp::Min | RedOp::Max);
    let identity = match c.op {
        RedOp::Min | RedOp::Max => lhs.kind.clone(),
        RedOp::Mul => ExprKind::Int(1, "1".into()),
        _ if float => ExprKind::Unary(
            crate::front::syntax::UnOp::Neg,
            Box::new(Expr {
                kind: ExprKind::Float("0.0".into()),
                loc: st.loc.clone(),
            }),
        ),
        _ => ExprKind::Int(0, "0".into()),
    };
    // The combination: the variable op= the partial; for a minimum or
    // maximum the user's own expression with the term replaced by the
    // partial (`t = umin(t, P[r])`), which computes in the types the
    // user's function does.
    let (comb_op, comb_rhs) = if min_max {
        let Some(term) = super::reductions::single_term(lhs, *op, rhs) else {
            return Ok(false);
        };
        let mut combined = rhs.clone();
        replace_term(
            &mut combined,
            &crate::front::cexpr::plain(term),
            &me,
            &partial_expr,
        );
        if combined.mentions(&i) || !combined.mentions(&plan.name) {
            return Ok(false);
        }
        (AssignOp::Assign, combined)
    } else {
        let op = match c.op {
            RedOp::Mul => AssignOp::Mul,
            _ => AssignOp::Add,
        };
        (op, partial_expr.clone())
    };
    let loc = st.loc.clone();
    let outer_iters: Vec<String> = st.iterators[..l].to_vec();
    let mut types = st.iterator_types[..l].to_vec();
    types.push(it);
    let init = Statement {
        id: StmtId(n),
        name: init_name.clone(),
        iterators: outer_iters.iter().cloned().chain([lane.clone()]).collect(),
        iterator_types: types.clone(),
        domain: init_domain.text(isl, STAGE)?,
        schedule: init_schedule,
        reads: if min_max {
            let Some(start) = element_of(&init_name, &init_domain)? else {
                return Ok(false);
            };
            vec![Access {
                array: c.var.clone(),
                relation: start,
                may: false,
            }]
        } else {
            Vec::new()
        },
        writes: vec![Access {
            array: plan.name.clone(),
            relation: partial(&init_name, &with(&[R]))?,
            may: false,
        }],
        body: StmtBody::Assign {
            lhs: partial_expr.clone(),
            op: AssignOp::Assign,
            rhs: Expr {
                kind: identity,
                loc: loc.clone(),
            },
        },
        reductions: Vec::new(),
        local_names: Vec::new(),
        loc: loc.clone(),
    };
    let comb = Statement {
        id: StmtId(n + 1),
        name: comb_name.clone(),
        iterators: outer_iters.iter().cloned().chain([lane.clone()]).collect(),
        iterator_types: types,
        domain: comb_domain.text(isl, STAGE)?,
        schedule: comb_schedule,
        reads: vec![
            Access {
                array: c.var.clone(),
                relation: element.clone(),
                may: false,
            },
            Access {
                array: plan.name.clone(),
                relation: partial(&comb_name, &with(&[R]))?,
                may: false,
            },
        ],
        writes: vec![Access {
            array: c.var.clone(),
            relation: element,
            may: false,
        }],
        body: StmtBody::Assign {
            lhs: lhs.clone(),
            op: comb_op,
            rhs: comb_rhs,
        },
        reductions: Vec::new(),
        local_names: Vec::new(),
        loc,
    };
    scop.stmts.push(init);
    scop.stmts.push(comb);
    let what = format!(
        "{}, the partial results of {} (the region at line {})",
        plan.name, c.var, scop.begin_line
    );
    add_local_array(scop, &plan.name, &a, &plan.extents, &what);
    Ok(true)
}

/// `name[subs...]`.
fn indexed_expr(name: &str, subs: Vec<Expr>, loc: &crate::diag::Loc) -> Expr {
    subs.into_iter().fold(
        Expr {
            kind: ExprKind::Ident(name.to_string()),
            loc: loc.clone(),
        },
        |b, s| Expr {
            kind: ExprKind::Index(Box::new(b), Box::new(s)),
            loc: loc.clone(),
        },
    )
}

/// Replaces every subexpression of `e` that prints as `term` by `by`,
/// outside those that print as the accumulator `me`: a term `0` or `i`
/// may print as a subscript of it (`S[i][0] = max(S[i][0], 0)`), which
/// must stay (red team round 10).
fn replace_term(e: &mut Expr, term: &str, me: &str, by: &Expr) {
    if crate::front::cexpr::prints_as(e, me) {
        return;
    }
    if crate::front::cexpr::prints_as(e, term) {
        *e = by.clone();
        return;
    }
    for c in e.children_mut() {
        replace_term(c, term, me, by);
    }
}

/// Replaces every subexpression of `e` that prints (`plain`) as `me` by
/// `by`.
fn replace_printed(e: &mut Expr, me: &str, by: &Expr) {
    if crate::front::cexpr::prints_as(e, me) {
        *e = by.clone();
        return;
    }
    for c in e.children_mut() {
        replace_printed(c, me, by);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::cexpr::plain;
    use crate::scop::reductions::{candidates, ReductionMode};
    use crate::scop::test_support::scop_of;

    const GRAMSCHMIDT: &str = "void f(int m, int n, double A[1000][1200], double R[1200][1200], double Q[1000][1200]) {\n#pragma scop\nfor (int k = 0; k < n; k++) {\n for (int i = 0; i < m; i++)\n  Q[i][k] = A[i][k] / R[k][k];\n for (int j = k + 1; j < n; j++) {\n  R[k][j] = 0.0;\n  for (int i = 0; i < m; i++)\n   R[k][j] += Q[i][k] * A[i][j];\n  for (int i = 0; i < m; i++)\n   A[i][j] = A[i][j] - Q[i][k] * R[k][j];\n }\n}\n#pragma endscop\n}\n";

    fn text(st: &Statement) -> String {
        match &st.body {
            StmtBody::Assign { lhs, op, rhs } => {
                format!("{} {} {}", plain(lhs), op.c_text(), plain(rhs))
            }
            _ => String::new(),
        }
    }

    fn split_of(src: &str) -> Option<(Scop, Scop, Vec<String>)> {
        let scop = scop_of("partials", src);
        let cands = candidates(&scop, ReductionMode::Auto).unwrap();
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        split(&isl, &scop, &cands)
            .unwrap()
            .map(|(out, notes)| (scop, out, notes))
    }

    #[test]
    fn minima_start_from_the_variable_and_combine_with_the_users_call() {
        let src = "int umin(int a, int b);\nvoid f(int n, int A[100][100], int u[100], double d[100], double E[100][100]) {\n#pragma scop\nfor (int i = 0; i < n; i++)\n for (int j = 0; j < n; j++)\n  u[i] = umin(u[i], A[i][j] - 1);\nfor (int i = 0; i < n; i++)\n for (int j = 0; j < n; j++)\n  d[i] = d[i] > E[j][i] ? d[i] : E[j][i];\n#pragma endscop\n}\n";
        let (before, out, notes) = split_of(src).expect("splits");
        assert_eq!(notes.len(), 2, "{:?}", notes);
        assert!(
            notes[0].contains("`u` accumulates (min) over loop `j`"),
            "{}",
            notes[0]
        );
        assert!(!notes[0].contains("reordered"), "{}", notes[0]);
        assert!(
            notes[1].contains(crate::scop::reductions::REORDERED_CONDITIONAL),
            "{}",
            notes[1]
        );
        let n = before.stmts.len();
        let texts: Vec<String> = out.stmts.iter().map(text).collect();
        assert_eq!(
            texts[0],
            "pencilc_p_u[pencilc_lane0][i] = umin(pencilc_p_u[pencilc_lane0][i], A[i][32 * pencilc_lane1 + pencilc_lane0] - 1)"
        );
        assert_eq!(texts[n], "pencilc_p_u[pencilc_lane0][i] = u[i]");
        assert_eq!(
            texts[n + 1],
            "u[i] = umin(u[i], pencilc_p_u[pencilc_lane0][i])"
        );
        assert_eq!(texts[n + 2], "pencilc_p_d[pencilc_lane0][i] = d[i]");
        assert_eq!(
            texts[n + 3],
            "d[i] = d[i] > pencilc_p_d[pencilc_lane0][i] ? d[i] : pencilc_p_d[pencilc_lane0][i]"
        );
        // A term that prints as a subscript of the accumulator replaces
        // the term alone.
        let src = "int max(int a, int b);\nvoid g(int n, int m, int S[100][2]) {\n#pragma scop\nfor (int i = 0; i < n; i++)\n for (int j = 0; j < m; j++)\n  S[i][0] = max(S[i][0], 0);\n#pragma endscop\n}\n";
        let (b, o, _) = split_of(src).expect("splits");
        let k = b.stmts.len();
        assert_eq!(
            text(&o.stmts[k + 1]),
            "S[i][0] = max(S[i][0], pencilc_p_S[pencilc_lane0][i])"
        );
        // The start reads the variable: the dependences order it after
        // the variable's last write before the loop.
        let init = &out.stmts[n];
        assert_eq!(init.reads.len(), 1);
        assert_eq!(init.reads[0].array, "u");
    }

    #[test]
    fn gramschmidts_products_split_in_lanes() {
        let (before, out, notes) = split_of(GRAMSCHMIDT).expect("splits");
        assert_eq!(notes.len(), 1, "{:?}", notes);
        assert!(
            notes[0].contains("line 9: `R` accumulates (add) over loop `i` in 32 partial results per iteration of loop(s) `j` (`pencilc_p_R`, 38400 elements)"),
            "{}",
            notes[0]
        );
        let p = out.array("pencilc_p_R").expect("the partials");
        assert!(p.local && p.read && p.written);
        assert_eq!(
            p.extents,
            vec![
                super::super::Extent::Const(32),
                super::super::Extent::Const(1200)
            ]
        );
        assert_eq!(out.stmts.len(), before.stmts.len() + 2);
        let s = &out.stmts[2];
        assert_eq!(
            text(s),
            "pencilc_p_R[pencilc_lane0][j] += Q[32 * pencilc_lane1 + pencilc_lane0][k] * A[32 * pencilc_lane1 + pencilc_lane0][j]"
        );
        assert_eq!(
            s.iterators,
            vec!["k", "j", "pencilc_lane0", "pencilc_lane1"]
        );
        let init = &out.stmts[before.stmts.len()];
        let comb = &out.stmts[before.stmts.len() + 1];
        assert_eq!(text(init), "pencilc_p_R[pencilc_lane0][j] = -0.0");
        assert_eq!(text(comb), "R[k][j] += pencilc_p_R[pencilc_lane0][j]");
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        // The terms: each (k, j) iteration's i once, at 32 q + r.
        let terms = |sc: &Scop, t: usize, to: &str| -> isl_rs::Set {
            let d = isl.set(&sc.stmts[t].domain).unwrap();
            isl.map(to)
                .unwrap()
                .intersect_domain(d)
                .unwrap()
                .range()
                .unwrap()
        };
        let prefix = before.param_prefix();
        let original = terms(
            &before,
            2,
            &format!("{prefix} -> {{ S_2[k, j, i] -> [k, j, i] }}"),
        );
        let split_terms = terms(
            &out,
            2,
            &format!("{prefix} -> {{ S_2[k, j, r, q] -> [k, j, 32q + r] }}"),
        );
        assert!(original.is_equal(&split_terms).unwrap());
        // Order: the start before the partials before their sum, all
        // after `R[k][j] = 0.0` and before the update of `A` in the same
        // (k, j) iteration.
        let at = |sc: &Scop, t: usize, point: &str| -> isl_rs::Set {
            let d = isl.set(&sc.stmts[t].domain).unwrap();
            let p = isl.set(&format!("{prefix} -> {{ {} }}", point)).unwrap();
            isl.map(&sc.stmts[t].schedule)
                .unwrap()
                .intersect_domain(d.intersect(p).unwrap())
                .unwrap()
                .range()
                .unwrap()
        };
        let order = [
            at(&out, 1, "S_1[2, 5]"),
            at(&out, init.id.0, &format!("{}[2, 5, 0]", init.name)),
            at(&out, 2, "S_2[2, 5, 0, 0]"),
            at(&out, 2, "S_2[2, 5, 31, 0]"),
            at(&out, comb.id.0, &format!("{}[2, 5, 31]", comb.name)),
            at(&out, 3, "S_3[2, 5, 0]"),
            at(&out, 0, "S_0[3, 0]"),
        ];
        let ctx = isl
            .set(&format!("{prefix} -> {{ : m = 1000 and n = 1200 }}"))
            .unwrap();
        for (k, w) in order.windows(2).enumerate() {
            let a = w[0]
                .copy()
                .unwrap()
                .intersect_params(ctx.copy().unwrap())
                .unwrap();
            let b = w[1]
                .copy()
                .unwrap()
                .intersect_params(ctx.copy().unwrap())
                .unwrap();
            assert!(!a.is_empty().unwrap() && !b.is_empty().unwrap(), "{}", k);
            assert!(!a.lex_lt_set(b).unwrap().is_empty().unwrap(), "{}", k);
        }
    }

    /// Where the partials of every iteration fit, none is reused.
    #[test]
    fn small_partials_have_an_index_per_loop_around() {
        let small = GRAMSCHMIDT.replace("1000", "100").replace("1200", "120");
        let (_, out, notes) = split_of(&small).expect("splits");
        assert!(
            notes[0].contains("per iteration of loop(s) `k`, `j` (`pencilc_p_R`, 456960 elements)"),
            "{}",
            notes[0]
        );
        assert_eq!(
            text(&out.stmts[2]),
            "pencilc_p_R[pencilc_lane0][k][j] += Q[32 * pencilc_lane1 + pencilc_lane0][k] * A[32 * pencilc_lane1 + pencilc_lane0][j]"
        );
    }

    /// The isl texts declare the region's parameters: theirs are names no
    /// user has (a parameter `q`, `r` or `x0` was an internal error).
    #[test]
    fn parameters_named_like_the_texts_variables_are_no_trouble() {
        for p in ["q", "r", "i", "x0", "x1"] {
            let src = format!("void f(int n, int {p}, long A[100][100], long y[100], long b[100]) {{\n#pragma scop\nfor (int a = 0; a < {p}; a++)\n b[a] = a;\nfor (int a = 0; a < n; a++)\n for (int j = 0; j < n; j++)\n  y[a] += A[a][j];\n#pragma endscop\n}}\n");
            let (_, out, notes) = split_of(&src).expect("splits");
            assert_eq!(notes.len(), 1, "{}: {:?}", p, notes);
            assert_eq!(
                text(&out.stmts[1]),
                "pencilc_p_y[pencilc_lane0][a] += A[a][32 * pencilc_lane1 + pencilc_lane0]",
                "{}",
                p
            );
        }
    }

    /// Lanes over a union of pieces made the split region's schedule and
    /// AST run out of time: such accumulations stay whole.
    #[test]
    fn accumulations_over_a_union_stay() {
        let src = "void f(int n, long A[100][100], long z[100]) {\n#pragma scop\nfor (int i = 0; i < n; i++)\n for (int j = 0; j < n; j++)\n  if (j % 3 == 1 || j > 40)\n   z[i] += A[j][i] - 1;\n#pragma endscop\n}\n";
        assert!(split_of(src).is_none());
    }

    #[test]
    fn accumulations_beside_other_statements_in_their_loop_stay() {
        let src = "void f(int n, double A[100][100], double x[100], double y[100], double t[100][100]) {\n#pragma scop\nfor (int i = 0; i < n; i++)\n for (int j = 0; j < n; j++) {\n  y[i] += A[i][j] * x[j];\n  t[i][j] = 2.0 * x[j];\n }\n#pragma endscop\n}\n";
        assert!(split_of(src).is_none());
    }

    #[test]
    fn sums_written_as_chains_and_differences_split() {
        let src = "void f(int n, double A[100][100], double x[100], double y[100], double z[100]) {\n#pragma scop\nfor (int i = 0; i < n; i++)\n for (int j = 0; j < n; j++)\n  y[i] = y[i] + A[i][j] * x[j];\nfor (int i = 0; i < n; i++)\n for (int j = 0; j < n; j++)\n  z[i] -= A[j][i];\n#pragma endscop\n}\n";
        let (_, out, notes) = split_of(src).expect("splits");
        assert_eq!(notes.len(), 2, "{:?}", notes);
        assert_eq!(
            text(&out.stmts[0]),
            "pencilc_p_y[pencilc_lane0][i] = pencilc_p_y[pencilc_lane0][i] + A[i][32 * pencilc_lane1 + pencilc_lane0] * x[32 * pencilc_lane1 + pencilc_lane0]"
        );
        assert_eq!(
            text(&out.stmts[1]),
            "pencilc_p_z[pencilc_lane0][i] -= A[32 * pencilc_lane1 + pencilc_lane0][i]"
        );
        let combs: Vec<String> = out.stmts[2..].iter().map(text).collect();
        assert!(
            combs.contains(&"y[i] += pencilc_p_y[pencilc_lane0][i]".to_string()),
            "{:?}",
            combs
        );
        assert!(
            combs.contains(&"z[i] += pencilc_p_z[pencilc_lane0][i]".to_string()),
            "{:?}",
            combs
        );
    }

    #[test]
    fn subscripts_of_the_loop_keep_their_precedence() {
        let src = "void f(int n, double A[100][300], double y[100]) {\n#pragma scop\nfor (int i = 0; i < n; i++)\n for (int j = 0; j < 100; j++)\n  y[i] += A[i][2 * j + 1] * j;\n#pragma endscop\n}\n";
        let (_, out, _) = split_of(src).expect("splits");
        assert_eq!(
            text(&out.stmts[0]),
            "pencilc_p_y[pencilc_lane0][i] += A[i][2 * (32 * pencilc_lane1 + pencilc_lane0) + 1] * (32 * pencilc_lane1 + pencilc_lane0)"
        );
    }
}
