//! Reductions found in the code (not only declared with `#pragma pencil
//! independent reduction`): an update `v op= e` or `v = v op e` (`+`,
//! `*`, `min`/`max` as `?:` or a call), of a scalar or an array element,
//! in a loop where nothing else reads or writes `v`, combines into `v` in
//! any order. Its update-to-update dependences within the loop join
//! `Scop::independent` (the value before the loop and the reads after it
//! stay ordered: the updates become may-writes, as declared reductions'
//! are), and the statements carry the reduction for the back ends (a tree
//! per work-group on a device, OpenMP `reduction` clauses, atomics).
//!
//! The loop is the outermost around the update in which every access to
//! `v` is such an update: gramschmidt's `nrm += A[i][k] * A[i][k]` is a
//! reduction over `i`, not `k` (where `nrm = 0` and `sqrt(nrm)` read and
//! write it). Which candidates become reductions is decided with the
//! dependences (`deps::reductions_to_apply`): only updates without a
//! parallel loop of their own (gemm's `C[i][j] += ...` stays a sequential
//! `k` loop inside parallel `i` and `j`).

use super::build::{conditional_min_max, MAX_FUNCTIONS, MIN_FUNCTIONS};
use super::{Scop, StmtBody};
use crate::diag::Result;
use crate::front::arith::{type_of, Arith};
use crate::front::cexpr::{count_printed_as, plain, prints_as};
use crate::front::syntax::{AssignOp, BinOp, Expr, ExprKind, RedOp, Stmt};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, Map};

const STAGE: &str = "scop";

/// Which accumulations become reductions (`--reductions`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReductionMode {
    /// Every accumulation (floating-point sums then differ from the
    /// sequential program's by the order of their terms).
    #[default]
    Auto,
    /// Those whose result does not depend on the order: integer types,
    /// integer `min`/`max`, and `fmin`/`fmax` of any type (a
    /// floating-point `?:` minimum depends on it where NaNs or signed
    /// zeros meet).
    Exact,
    /// Only those of `reduction` clauses.
    Declared,
}

/// One accumulation found in the code: the updates of `var` by `op` in
/// the statements `stmts`, a reduction over their loop at depth `depth`
/// and the loops inside it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub depth: usize,
    pub var: String,
    pub op: RedOp,
    pub stmts: Vec<usize>,
}

/// The accumulations of `scop` that could run as reductions (see the
/// module's comment); which of them do is the caller's choice.
pub fn candidates(scop: &Scop, mode: ReductionMode) -> Result<Vec<Candidate>> {
    if mode == ReductionMode::Declared || scop.stmts.is_empty() {
        return Ok(Vec::new());
    }
    let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
    let positions: Vec<Option<Vec<i64>>> = scop
        .stmts
        .iter()
        .map(|s| positions(&isl, &s.schedule))
        .collect::<Result<_>>()?;
    // Statements that touch each variable.
    let touches = |s: usize, v: &str| {
        let st = &scop.stmts[s];
        st.reads
            .iter()
            .chain(st.writes.iter())
            .any(|a| a.array == v)
    };
    let mut found: Vec<Candidate> = Vec::new();
    let mut done = vec![false; scop.stmts.len()];
    for s in 0..scop.stmts.len() {
        if done[s] {
            continue;
        }
        let Some((v, op)) = update_of(scop, s, mode) else {
            continue;
        };
        let Some(pos) = &positions[s] else { continue };
        let depth = scop.stmts[s].iterators.len();
        // Statements inside loop `l` of `s`.
        let inside = |l: usize| -> Vec<usize> {
            (0..scop.stmts.len())
                .filter(|&t| {
                    scop.stmts[t].iterators.len() > l
                        && positions[t]
                            .as_ref()
                            .is_some_and(|p| p.len() > l && p[..=l] == pos[..=l])
                })
                .collect()
        };
        for l in 0..depth {
            let members = inside(l);
            let updates: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&t| update_of(scop, t, mode).is_some_and(|(w, o)| w == v && o == op))
                .collect();
            // Other statements of the loop may use other elements of `v`
            // (the members of one struct: `s->sum += x[i]` beside `s->mx =
            // s->mx > v[i] ? s->mx : v[i]`), never those the updates do.
            let others: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&t| touches(t, &v) && !updates.contains(&t))
                .collect();
            // Updates that never meet on an element (`B[i] += w` over `i`)
            // are independent already: a reduction would only turn them
            // into atomics, and no loop outside `l` makes them meet.
            if !updates_meet(&isl, scop, &updates, &v, l)? {
                break;
            }
            if updates_commute(&isl, scop, &updates, &v, l)?
                && (others.is_empty() || apart(&isl, scop, &updates, &others, &v, l)?)
                && other_writes_apart(&isl, scop, &updates, &v, l)?
            {
                for &t in &updates {
                    done[t] = true;
                }
                found.push(Candidate {
                    depth: l,
                    var: v.clone(),
                    op,
                    stmts: updates,
                });
                break;
            }
        }
    }
    Ok(found)
}

/// What `-v` adds to a floating-point sum's or product's note: its terms
/// are combined in another order, so its result may differ by rounding
/// (`--reductions exact` keeps the order).
pub const REASSOCIATED: &str = ", reassociated (floating point: rounding may differ)";

/// What `-v` adds to a floating-point minimum or maximum written with
/// `?:`: in another order, a NaN or a zero of the other sign can give
/// another result (`--reductions exact` keeps the order).
pub const REORDERED_CONDITIONAL: &str =
    ", reordered (floating point `?:`: a NaN or a signed zero may give another result)";

/// What `-v` adds to a floating-point `fmin` or `fmax` accumulation: they
/// ignore NaNs in any order, but C leaves which of `-0.0` and `+0.0` they
/// return open (glibc's keep their first argument), so in another order a
/// zero result may have the other sign (`--reductions exact` keeps the
/// order).
pub const REORDERED_ZERO_SIGN: &str =
    ", reordered (floating point `fmin`/`fmax`: a zero result may have the other sign)";

/// What `-v` adds to the note of statement `st`'s accumulation into `v`
/// by `op`, whose result may depend on the order of its terms:
/// `REASSOCIATED` for a floating-point sum or product,
/// `REORDERED_CONDITIONAL` for a floating-point `?:` minimum; nothing
/// otherwise. Reductions and partial results say the same.
pub fn order_note(scop: &Scop, st: &super::Statement, v: &str, op: RedOp) -> &'static str {
    let float = scop.array(v).is_some_and(|a| !is_integer(&a.elem_type));
    match op {
        RedOp::Add | RedOp::Mul if float => REASSOCIATED,
        RedOp::Min | RedOp::Max if float && written_as_cond(st, v) => REORDERED_CONDITIONAL,
        RedOp::Min | RedOp::Max if float => REORDERED_ZERO_SIGN,
        _ => "",
    }
}

/// Whether statement `st`'s accumulation is written with `?:`.
fn written_as_cond(st: &super::Statement, v: &str) -> bool {
    body_updates(&st.body).is_some_and(|(updates, _)| {
        updates
            .iter()
            .filter(|(lhs, ..)| assigns_to(lhs, v))
            .any(|(lhs, op, rhs)| accumulation(lhs, *op, rhs).is_some_and(|a| a.2))
    })
}

/// Makes the `chosen` accumulations reductions: their updates may-writes
/// that carry the reduction, their update-to-update pairs in
/// `Scop::independent`.
pub fn apply(scop: &mut Scop, chosen: &[Candidate]) -> Result<()> {
    if chosen.is_empty() {
        return Ok(());
    }
    let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
    let mut pairs = Vec::new();
    for c in chosen {
        let (l, v, op, updates) = (&c.depth, &c.var, &c.op, &c.stmts);
        for &t in updates {
            // Users (and the harness, which widens its tolerance on it)
            // must see when the result can differ by rounding.
            let note = order_note(scop, &scop.stmts[t], v, *op);
            let st = &mut scop.stmts[t];
            for w in st.writes.iter_mut().filter(|w| w.array == *v) {
                w.may = true;
            }
            st.reductions.push((v.clone(), *op));
            scop.notes.push(format!(
                "line {}: `{}` accumulates ({}) over loop `{}`: a reduction{}",
                st.loc.line,
                v,
                op.name(),
                st.iterators[*l],
                note
            ));
        }
        for &t in updates {
            for &u in updates {
                pairs.push(same_outer_pairs(scop, t, u, *l, false));
            }
        }
    }
    let extra = format!("{} -> {{ {} }}", scop.param_prefix(), pairs.join("; "));
    let union = if scop.independent.is_empty() || scop.independent == "{ }" {
        isl.union_map(&extra).isl(&isl, STAGE)?
    } else {
        isl.union_map(&scop.independent)
            .isl(&isl, STAGE)?
            .union(isl.union_map(&extra).isl(&isl, STAGE)?)
            .isl(&isl, STAGE)?
    };
    scop.independent = union.text(&isl, STAGE)?;
    Ok(())
}

/// The variable and operator of statement `s` if it is an accumulation
/// `mode` accepts: an assignment of a reduction's form that reads its
/// variable nowhere else (not in the value, not in a subscript).
fn update_of(scop: &Scop, s: usize, mode: ReductionMode) -> Option<(String, RedOp)> {
    let st = &scop.stmts[s];
    if !st.reductions.is_empty() || st.iterators.is_empty() {
        return None;
    }
    let (all, conds) = body_updates(&st.body)?;
    let updates = accumulated(&all, &conds)?;
    let (lhs, _, _) = updates.first()?;
    let (name, subs) = access_parts(lhs)?;
    let array = scop.array(name)?;
    if subs.iter().any(|e| mentions(e, name)) {
        return None;
    }
    // Updates under conditions on the data (`if (v[i] % 3 == 0) c +=
    // v[i]`, `if (x[i] > 0) h[v[i] % 16] += 1`): of one scalar or element,
    // every one the same, no condition reading the variable.
    if (updates.len() > 1 || !conds.is_empty())
        && (updates.iter().any(|(l, _, _)| plain(l) != plain(lhs))
            || conds.iter().any(|c| mentions(c, name)))
    {
        return None;
    }
    // Narrower integers (`char`, `short`, `bool`) wrap at their own width
    // and devices have no atomics of them: their accumulations stay in
    // order, exactly as C computes them.
    if !accumulates_in_place(&array.elem_type) {
        return None;
    }
    // C converts each step's value back to the variable's type: an `int`
    // summing `double` terms truncates at every step, a `float` summing
    // `double` ones rounds, and no other order gives what C gives. The
    // terms must be of the variable's type or convert to it exactly
    // (integers into integers, which wrap alike in every order; anything
    // narrower into floating point).
    let var = |n: &str| -> Option<String> {
        if let Some(k) = st.iterators.iter().position(|i| i == n) {
            return st.iterator_types.get(k).map(|t| t.c_name().to_string());
        }
        if let Some(a) = scop.array(n) {
            return Some(a.elem_type.clone());
        }
        scop.value_types
            .iter()
            .find(|(v, _)| v == n)
            .map(|(_, t)| t.c_name().to_string())
    };
    let acc = Arith::of_c_type(&array.elem_type)?;
    let integer = |a: Arith| a <= Arith::ULong;
    let mut found: Option<RedOp> = None;
    for (lhs, op, rhs) in &updates {
        let (red, terms, _) = accumulation(lhs, *op, rhs)?;
        if found.is_some_and(|f| f != red) {
            return None;
        }
        found = Some(red);
        for term in terms {
            let t = type_of(term, &var)?;
            let exactly = match red {
                RedOp::Min | RedOp::Max => Arith::common(acc, t) == acc,
                _ if integer(acc) => integer(t),
                _ => Arith::common(acc, t) == acc,
            };
            if !exactly {
                return None;
            }
        }
    }
    let red = found?;
    // A floating-point minimum written with `?:` is no reduction in C: a
    // NaN or a zero of the other sign gives another result in another
    // order (`m < x ? m : x` keeps the later of two equal values). It
    // reassociates like a sum. `fmin`/`fmax` ignore NaNs in any order,
    // but which zero they return of `-0.0` and `+0.0` is the library's
    // (glibc's keeps the first argument): in another order, the sign of
    // a zero result may change, so they are not exact either.
    let exact = match red {
        RedOp::Add | RedOp::Mul | RedOp::Min | RedOp::Max => is_integer(&array.elem_type),
        _ => true,
    };
    if mode == ReductionMode::Exact && !exact {
        return None;
    }
    // Whether the value reads elements that the updates write (a prefix
    // sum) is `updates_commute`'s question.
    Some((name.to_string(), red))
}

/// An assignment: its left-hand side, operator and value.
type Update<'b> = (&'b Expr, AssignOp, &'b Expr);

/// The assignments of a statement's body and the conditions around them:
/// the body itself, or a compound statement of `if`s (and `else`s) whose
/// branches hold assignments only; `None` for anything else (loops,
/// declarations, calls).
fn body_updates(body: &StmtBody) -> Option<(Vec<Update<'_>>, Vec<&Expr>)> {
    fn walk<'b>(
        stmts: &'b [Stmt],
        out: &mut Vec<Update<'b>>,
        conds: &mut Vec<&'b Expr>,
    ) -> Option<()> {
        for s in stmts {
            match s {
                Stmt::Assign {
                    lhs,
                    op,
                    rhs,
                    atomic: false,
                    ..
                } => out.push((lhs, *op, rhs)),
                Stmt::If {
                    cond, then_, else_, ..
                } => {
                    conds.push(cond);
                    walk(then_, out, conds)?;
                    walk(else_, out, conds)?;
                }
                _ => return None,
            }
        }
        Some(())
    }
    match body {
        StmtBody::Assign { lhs, op, rhs } => Some((vec![(lhs, *op, rhs)], Vec::new())),
        StmtBody::Compound(stmts) => {
            let (mut out, mut conds) = (Vec::new(), Vec::new());
            walk(stmts, &mut out, &mut conds)?;
            Some((out, conds))
        }
        StmtBody::Call { .. } => None,
    }
}

/// The assignments of `all` to the variable a statement may accumulate
/// into: the first variable assigned that no other assignment (`Z[i] = Z[i]
/// - q` beside `cnt += 1` in the other branch) and no condition reads or
/// writes.
fn accumulated<'b>(all: &[Update<'b>], conds: &[&Expr]) -> Option<Vec<Update<'b>>> {
    all.iter().find_map(|(lhs, ..)| {
        let (name, _) = access_parts(lhs)?;
        let mine = |l: &Expr| assigns_to(l, name);
        let others_apart = all
            .iter()
            .filter(|(l, ..)| !mine(l))
            .all(|(l, _, r)| !mentions(l, name) && !mentions(r, name));
        (others_apart && !conds.iter().any(|c| mentions(c, name)))
            .then(|| all.iter().filter(|(l, ..)| mine(l)).copied().collect())
    })
}
/// Whether the assignment to `lhs` is one to variable `v` (an element of
/// it or the scalar).
fn assigns_to(lhs: &Expr, v: &str) -> bool {
    access_parts(lhs).is_some_and(|(n, _)| n == v)
}

/// The one term of an accumulation `lhs op= e` (see `accumulation`):
/// `e` of `m = m < e ? m : e` or `m = umin(m, e)`; `None` for a chain of
/// several terms or no accumulation.
pub fn single_term<'e>(lhs: &Expr, op: AssignOp, rhs: &'e Expr) -> Option<&'e Expr> {
    match accumulation(lhs, op, rhs)?.1[..] {
        [t] => Some(t),
        _ => None,
    }
}

/// The operator of an accumulation `lhs op= e` or `lhs = lhs op e` (`+`,
/// `-`, `*`, `&`, `|`, `^`, `min`/`max` as `?:` or a call of C's or
/// PENCIL's minimum and maximum), where `e` does not read `lhs` itself
/// (other elements of its array it may: see `updates_commute`); with the
/// term `e`, and whether it is a `?:`.
fn accumulation<'e>(
    lhs: &Expr,
    op: AssignOp,
    rhs: &'e Expr,
) -> Option<(RedOp, Vec<&'e Expr>, bool)> {
    let me = plain(lhs);
    let is_me = |e: &Expr| prints_as(e, &me);
    let free = |e: &Expr| count_printed_as(e, &me) == 0;
    // The term of `me op e` or `e op me`.
    let other = |a: &'e Expr, b: &'e Expr| -> Option<&'e Expr> {
        if is_me(a) && free(b) {
            Some(b)
        } else if is_me(b) && free(a) {
            Some(a)
        } else {
            None
        }
    };
    match op {
        AssignOp::Add | AssignOp::Sub if free(rhs) => return Some((RedOp::Add, vec![rhs], false)),
        AssignOp::Mul if free(rhs) => return Some((RedOp::Mul, vec![rhs], false)),
        AssignOp::Assign => {}
        _ => return None,
    }
    match &rhs.kind {
        // Sums, differences and products that start from `lhs`: `s = s - a
        // - 1` (`build::update_chain`), each term a conversion of its own.
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), ..) => {
            let mul = *op == BinOp::Mul;
            let terms = super::build::update_chain(rhs, mul, &is_me, &free)?;
            let red = if mul { RedOp::Mul } else { RedOp::Add };
            Some((red, terms.into_iter().map(|(_, t)| t).collect(), false))
        }
        // `x &= e` and the like reach the model as `x = x & (e)`.
        ExprKind::Binary(op, a, b) if RedOp::bitwise(*op).is_some() => {
            Some((RedOp::bitwise(*op)?, vec![other(a, b)?], false))
        }
        ExprKind::Cond(c, a, b) => {
            let (red, p, q) = conditional_min_max(c, a, b)?;
            Some((red, vec![other(p, q)?], true))
        }
        ExprKind::Call(f, args) if args.len() == 2 => {
            // Only functions whose meaning is known: a user's `admin(s, x)`
            // is no minimum.
            let red = if MIN_FUNCTIONS.contains(&f.as_str()) {
                RedOp::Min
            } else if MAX_FUNCTIONS.contains(&f.as_str()) {
                RedOp::Max
            } else {
                return None;
            };
            Some((red, vec![other(&args[0], &args[1])?], false))
        }
        _ => None,
    }
}

/// Whether two different instances of `updates`, in one iteration of the
/// loops outside loop `l`, write the same element of `v`: what makes an
/// accumulation a reduction rather than updates of elements of their own.
fn updates_meet(isl: &Isl, scop: &Scop, updates: &[usize], v: &str, l: usize) -> Result<bool> {
    let writes_of_v = |t: usize| -> Vec<&str> {
        let st = &scop.stmts[t];
        st.writes
            .iter()
            .filter(|a| a.array == v)
            .map(|a| a.relation.as_str())
            .collect()
    };
    for &t in updates {
        for &u in updates {
            if instances_meet(isl, scop, (t, &writes_of_v(t)), (u, &writes_of_v(u)), l)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Whether what `updates` write besides `v` (`Z[k][i] = Z[k][i] - q` in
/// the branch beside `cnt += 1`) stays within each instance: no other
/// instance of them, in one iteration of the loops outside loop `l`,
/// reads or writes those elements. A reduction frees every pair of its
/// updates' instances (`Scop::independent`), so a dependence through
/// another variable (`else r += 1`) would be lost.
fn other_writes_apart(
    isl: &Isl,
    scop: &Scop,
    updates: &[usize],
    v: &str,
    l: usize,
) -> Result<bool> {
    for &t in updates {
        for w in scop.stmts[t].writes.iter().filter(|a| a.array != v) {
            for &u in updates {
                let st = &scop.stmts[u];
                let touching: Vec<&str> = st
                    .reads
                    .iter()
                    .chain(st.writes.iter())
                    .filter(|a| a.array == w.array)
                    .map(|a| a.relation.as_str())
                    .collect();
                if instances_meet(isl, scop, (t, &[w.relation.as_str()]), (u, &touching), l)? {
                    return Ok(false);
                }
            }
        }
    }
    Ok(true)
}

/// The instance pairs of statements `t` and `u` in one iteration of the
/// loops outside loop `l` (isl map text without parameters), `distinct`:
/// not an instance with itself.
fn same_outer_pairs(scop: &Scop, t: usize, u: usize, l: usize, distinct: bool) -> String {
    let names = |s: usize, p: &str| -> Vec<String> {
        (0..scop.stmts[s].iterators.len())
            .map(|k| format!("{p}{k}"))
            .collect()
    };
    let (a, b) = (names(t, "a"), names(u, "b"));
    let mut cond: Vec<String> = (0..l).map(|k| format!("a{k} = b{k}")).collect();
    if distinct && t == u {
        let differ: Vec<String> = (0..a.len()).map(|k| format!("a{k} != b{k}")).collect();
        cond.push(format!("({})", differ.join(" or ")));
    }
    format!(
        "{}[{}] -> {}[{}]{}",
        scop.stmts[t].name,
        a.join(", "),
        scop.stmts[u].name,
        b.join(", "),
        if cond.is_empty() {
            String::new()
        } else {
            format!(" : {}", cond.join(" and "))
        }
    )
}

/// Whether an instance of statement `t` and another instance of `u`, in
/// one iteration of the loops outside loop `l`, access a common element
/// through one of `t`'s accesses and one of `u`'s (access relations).
fn instances_meet(
    isl: &Isl,
    scop: &Scop,
    (t, at): (usize, &[&str]),
    (u, au): (usize, &[&str]),
    l: usize,
) -> Result<bool> {
    if at.is_empty() || au.is_empty() {
        return Ok(false);
    }
    let access = |s: usize, rel: &str| -> Result<isl_rs::UnionMap> {
        isl.union_map(rel)
            .isl(isl, STAGE)?
            .intersect_domain(isl.union_set(&scop.stmts[s].domain).isl(isl, STAGE)?)
            .isl(isl, STAGE)
    };
    let pairs = isl
        .union_map(&format!(
            "{} -> {{ {} }}",
            scop.param_prefix(),
            same_outer_pairs(scop, t, u, l, true)
        ))
        .isl(isl, STAGE)?;
    for rt in at {
        for ru in au {
            let same = access(t, rt)?
                .apply_range(access(u, ru)?.reverse().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .intersect(pairs.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            if !same.is_empty().isl(isl, STAGE)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// How many reads of its own element an accumulation's statement has:
/// the implicit one of `op=`, and those of `lhs` in the value.
fn expected_self_reads(lhs: &Expr, op: AssignOp, rhs: &Expr) -> usize {
    usize::from(op != AssignOp::Assign) + count_printed_as(rhs, &plain(lhs))
}

/// Whether the updates of `v` by `updates`, in one iteration of the loops
/// outside loop `l`, commute: no update reads (in its value or its
/// subscripts) an element that one of them writes. trisolv's
/// `x[i] -= L[i][j] * x[j]` (`j < i`) and cholesky's `A[i][j] -= A[i][k] *
/// A[j][k]` (`k < j`) read other elements of the variable than the one
/// they accumulate into; a prefix sum `x[i] += x[i - 1]` reads them.
fn updates_commute(isl: &Isl, scop: &Scop, updates: &[usize], v: &str, l: usize) -> Result<bool> {
    // outer iterations → elements, for the writes and for the other reads.
    let mut written = Vec::new();
    let mut read = Vec::new();
    for &t in updates {
        let st = &scop.stmts[t];
        let outer = outer_iterations(scop, t, l);
        let writes: Vec<&str> = st
            .writes
            .iter()
            .filter(|a| a.array == v)
            .map(|a| a.relation.as_str())
            .collect();
        // The update's own reads of the element it accumulates into; any
        // other read of that element (through another subscript) stays.
        let mut own = match &st.body {
            StmtBody::Assign { lhs, op, rhs } => expected_self_reads(lhs, *op, rhs),
            // Guarded updates of a scalar (`update_of`): every read of it
            // in the statement is an update's own.
            StmtBody::Compound(_) if scop.array(v).is_some_and(|a| a.is_scalar()) => usize::MAX,
            // Of one element: each update's own reads of it.
            StmtBody::Compound(_) => body_updates(&st.body).map_or(0, |(updates, _)| {
                updates
                    .iter()
                    .filter(|(lhs, ..)| assigns_to(lhs, v))
                    .map(|(lhs, op, rhs)| expected_self_reads(lhs, *op, rhs))
                    .sum()
            }),
            _ => 0,
        };
        for a in st.reads.iter().filter(|a| a.array == v) {
            if own > 0 && writes.contains(&a.relation.as_str()) {
                own -= 1;
                continue;
            }
            read.push((outer.clone(), a.relation.clone(), st.domain.clone()));
        }
        for w in writes {
            written.push((outer.clone(), w.to_string(), st.domain.clone()));
        }
    }
    if read.is_empty() {
        return Ok(true);
    }
    let w = footprint(isl, scop, &written)?;
    let r = footprint(isl, scop, &read)?;
    w.intersect(r).isl(isl, STAGE)?.is_empty().isl(isl, STAGE)
}

/// Whether the statements `others` use (read or write) none of the
/// elements of `v` that `updates` use, in each iteration of the loops
/// outside loop `l`: the updates then combine in any order whatever the
/// others do, and the dependences between the two (none) stay as they are.
fn apart(
    isl: &Isl,
    scop: &Scop,
    updates: &[usize],
    others: &[usize],
    v: &str,
    l: usize,
) -> Result<bool> {
    let uses = |stmts: &[usize]| -> Vec<(String, String, String)> {
        stmts
            .iter()
            .flat_map(|&t| {
                let st = &scop.stmts[t];
                let outer = outer_iterations(scop, t, l);
                st.reads
                    .iter()
                    .chain(st.writes.iter())
                    .filter(|a| a.array == v)
                    .map(move |a| (outer.clone(), a.relation.clone(), st.domain.clone()))
            })
            .collect()
    };
    let mine = footprint(isl, scop, &uses(updates))?;
    let theirs = footprint(isl, scop, &uses(others))?;
    mine.intersect(theirs)
        .isl(isl, STAGE)?
        .is_empty()
        .isl(isl, STAGE)
}

/// Statement `t`'s instances → the iterations of its loops outside loop
/// `l` (`S[x0, x1, x2] -> [x0]` for `l = 1`), as isl text.
fn outer_iterations(scop: &Scop, t: usize, l: usize) -> String {
    let st = &scop.stmts[t];
    let it: Vec<String> = (0..st.iterators.len()).map(|k| format!("x{}", k)).collect();
    format!(
        "{}{{ {}[{}] -> [{}] }}",
        scop.param_prefix() + " -> ",
        st.name,
        it.join(", "),
        it[..l].join(", ")
    )
}

/// The elements that `parts` (outer iterations, an access relation, the
/// statement's domain) use, by outer iteration: `[outer] -> v[element]`.
fn footprint(
    isl: &Isl,
    scop: &Scop,
    parts: &[(String, String, String)],
) -> Result<isl_rs::UnionMap> {
    let mut out = isl
        .union_map(&format!("{} -> {{ }}", scop.param_prefix()))
        .isl(isl, STAGE)?;
    for (outer, acc, domain) in parts {
        let o = isl.union_map(outer).isl(isl, STAGE)?;
        let a = isl
            .union_map(acc)
            .isl(isl, STAGE)?
            .intersect_domain(isl.union_set(domain).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let f = o
            .reverse()
            .isl(isl, STAGE)?
            .apply_range(a)
            .isl(isl, STAGE)?;
        out = out.union(f).isl(isl, STAGE)?;
    }
    Ok(out)
}

/// `v` or `v[s0][s1]...`: the variable and the subscripts.
fn access_parts(e: &Expr) -> Option<(&str, Vec<&Expr>)> {
    let mut subs = Vec::new();
    let mut cur = e;
    while let ExprKind::Index(base, idx) = &cur.kind {
        subs.push(&**idx);
        cur = base;
    }
    match &cur.kind {
        ExprKind::Ident(n) => Some((n.as_str(), subs)),
        _ => None,
    }
}

fn mentions(e: &Expr, name: &str) -> bool {
    let mut ids = Vec::new();
    e.idents(&mut ids);
    ids.iter().any(|i| i == name)
}

/// 32- and 64-bit integers, `float` and `double`: the types whose
/// reductions every target carries out in the variable's own type.
fn accumulates_in_place(t: &str) -> bool {
    match crate::front::syntax::integer_kind(t) {
        Some((bits, _)) => bits == 32 || bits == 64,
        None => matches!(t.trim(), "float" | "double"),
    }
}

pub(super) fn is_integer(t: &str) -> bool {
    crate::front::syntax::integer_range(t).is_some()
}

/// The constant positions of a statement's 2d+1 schedule: `[c0, c1, ...]`
/// for `[c0, i0, c1, i1, ..., cd]`, or `None` where one is not constant.
pub fn positions(isl: &Isl, schedule: &str) -> Result<Option<Vec<i64>>> {
    // Text: a statement's 2d+1 schedule is part of the model, which is text.
    let m = Map::read_from_str(&isl.ctx, schedule).isl(isl, STAGE)?;
    let n = m.dim(DimType::Out).isl(isl, STAGE)? as u32;
    let mut out = Vec::new();
    for p in (0..n).step_by(2) {
        let v = m.plain_get_val_if_fixed(DimType::Out, p).isl(isl, STAGE)?;
        if !v.is_int().isl(isl, STAGE)? {
            return Ok(None);
        }
        out.push(v.get_num_si().isl(isl, STAGE)?);
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scop::test_support::scop_of;

    /// The variables of the accumulations `candidates` finds in the loop
    /// `for (i ...) BODY`, with `DECLS` before the region.
    fn found(name: &str, decls: &str, body: &str, mode: ReductionMode) -> Vec<String> {
        let src = format!(
            "double admin(double, double);\nvoid f(int n, double x[100], float y[100], int v[100], long w[100]) {{\n  {}\n#pragma scop\n  for (int i = 0; i < n; i++)\n    {}\n#pragma endscop\n}}\n",
            decls, body
        );
        // The recogniser's forms as the user wrote them (an arg-max's
        // rewrite makes its maximum one: `last_writes`).
        let scop = crate::scop::test_support::scop_as_written_of(name, &src);
        candidates(&scop, mode)
            .unwrap()
            .into_iter()
            .map(|c| c.var)
            .collect()
    }

    #[test]
    fn chains_that_start_from_the_variable_are_reductions() {
        let auto = ReductionMode::Auto;
        let exact = ReductionMode::Exact;
        for (name, body) in [
            ("chain-sub", "s = s - v[i] - 1;"),
            ("chain-mid", "s = v[i] + s + i;"),
            ("chain-mix", "s = s - v[i] + w[i];"),
            ("chain-mul", "s = s * 3 * v[i];"),
        ] {
            assert_eq!(found(name, "long s = 0;", body, exact), ["s"], "{}", body);
        }
        for (name, body) in [
            ("chain-neg", "s = 1 - s - v[i];"),
            ("chain-affine", "s = s * 2 + 1;"),
            ("chain-self", "s = s - s - v[i];"),
            ("chain-mixed-ops", "s = s * 3 + v[i];"),
        ] {
            assert!(
                found(name, "long s = 0;", body, auto).is_empty(),
                "{}",
                body
            );
        }
        // Every term converts exactly: a `double` term into a `long` sum
        // does not.
        assert!(found("chain-conv", "long s = 0;", "s = s - v[i] - x[i];", auto).is_empty());
        // Floating point: reassociated, so not in exact mode.
        assert_eq!(
            found("chain-fp", "double s = 0;", "s = s - x[i] - 1;", auto),
            ["s"]
        );
        assert!(found(
            "chain-fp-exact",
            "double s = 0;",
            "s = s - x[i] - 1;",
            exact
        )
        .is_empty());
    }

    #[test]
    fn updates_of_an_element_of_their_own_are_no_reduction() {
        let auto = ReductionMode::Auto;
        // One element per iteration: nothing to combine.
        assert!(found("own-elem", "double s = 0;", "x[i] += s;", auto).is_empty());
        assert!(found("own-elem-int", "", "v[i] = v[i] + i;", auto).is_empty());
        // Elements that iterations share, and a scalar, are.
        assert_eq!(found("shared-elem", "", "x[i % 7] += 1.0;", auto), ["x"]);
        assert_eq!(found("halves", "", "w[i / 2] += v[i];", auto), ["w"]);
        assert_eq!(found("scalar", "double s = 0;", "s += x[i];", auto), ["s"]);
    }

    #[test]
    fn minima_and_maxima_written_as_ifs_are_reductions() {
        let (auto, exact) = (ReductionMode::Auto, ReductionMode::Exact);
        let max = "if (x[i] > m) m = x[i];";
        assert_eq!(found("if-max", "double m = 0;", max, auto), ["m"]);
        // A floating-point `?:` maximum keeps its order in exact mode.
        assert!(found("if-max-exact", "double m = 0;", max, exact).is_empty());
        let min = "if (k >= v[i]) k = v[i];";
        assert_eq!(found("if-min", "int k = 0;", min, exact), ["k"]);
        // Not a minimum or maximum: other values, an `else`, a second
        // assignment.
        for (name, body) in [
            ("if-other", "if (x[i] > m) m = x[i] + 1;"),
            ("if-else", "if (x[i] > m) m = x[i]; else m = 0;"),
            ("if-argmax", "if (x[i] > m) { m = x[i]; k = i; }"),
        ] {
            assert!(
                found(name, "double m = 0; int k = 0;", body, auto).is_empty(),
                "{}",
                body
            );
        }
    }

    #[test]
    fn updates_beside_writes_that_stay_in_their_iteration_are_reductions() {
        let auto = ReductionMode::Auto;
        let body = |other: &str| format!("if (x[i] > 0) s += 1; else {}", other);
        // The other branch writes an element of its own iteration.
        assert_eq!(
            found("beside-own", "long s = 0;", &body("x[i] = 0;"), auto),
            ["s"]
        );
        // ... or one that other iterations write (or read) too, or another
        // accumulator: the freed pairs of instances would lose its order.
        for (name, other) in [
            ("beside-shared", "w[i % 4] = i;"),
            ("beside-acc", "v[0] += 1;"),
            ("beside-neighbour", "x[i + 1] = 0;"),
        ] {
            assert!(
                found(name, "long s = 0;", &body(other), auto).is_empty(),
                "{}",
                other
            );
        }
    }

    #[test]
    fn terms_that_c_converts_back_are_no_reduction() {
        let auto = ReductionMode::Auto;
        // Truncated or rounded to the variable's type at every step.
        assert!(found("red-int-dbl", "int s = 0;", "s += x[i];", auto).is_empty());
        assert!(found("red-int-dbl2", "int s = 0;", "s = s + x[i];", auto).is_empty());
        assert!(found(
            "red-int-mul",
            "int s = 1;",
            "s *= x[i] > 0 ? 1.01 : 0.99;",
            auto
        )
        .is_empty());
        assert!(found("red-long-sub", "long s = 0;", "s -= x[i] * 0.5;", auto).is_empty());
        assert!(found("red-flt-dbl", "float s = 0;", "s += x[i];", auto).is_empty());
        assert!(found(
            "red-int-min",
            "int s = 0;",
            "s = s < x[i] ? s : x[i];",
            auto
        )
        .is_empty());
        // Exact conversions: integers into integers, narrower into wider.
        assert_eq!(
            found("red-int-int", "int s = 0;", "s += v[i] * 3;", auto),
            ["s"]
        );
        assert_eq!(
            found("red-uns-long", "unsigned s = 0;", "s += w[i];", auto),
            ["s"]
        );
        assert_eq!(
            found("red-dbl-flt", "double s = 0;", "s += y[i];", auto),
            ["s"]
        );
        assert_eq!(
            found("red-dbl-int", "double s = 0;", "s += v[i];", auto),
            ["s"]
        );
    }

    #[test]
    fn floating_point_minima_written_with_conditions_reorder() {
        let (auto, exact) = (ReductionMode::Auto, ReductionMode::Exact);
        let body = "m = m < x[i] ? m : x[i];";
        assert_eq!(found("red-cond-auto", "double m = 1e9;", body, auto), ["m"]);
        assert!(found("red-cond-exact", "double m = 1e9;", body, exact).is_empty());
        // `fmin` ignores NaNs in any order, but the sign of a zero
        // result depends on it (glibc's `fmin(-0.0, +0.0)` is its first
        // argument): reordered by default, in order when exact. An
        // integer `?:` is exact.
        let body = "m = fmin(m, x[i]);";
        assert_eq!(found("red-fmin-auto", "double m = 1e9;", body, auto), ["m"]);
        assert!(found("red-fmin-exact", "double m = 1e9;", body, exact).is_empty());
        let body = "k = k > v[i] ? k : v[i];";
        assert_eq!(found("red-int-cond", "int k = 0;", body, exact), ["k"]);
        // A function whose name only contains `min` is no minimum.
        let body = "m = admin(m, x[i]);";
        assert!(found("red-admin", "double m = 1e9;", body, auto).is_empty());
    }

    /// `found`, with each accumulation's operator.
    fn found_ops(name: &str, decls: &str, body: &str) -> Vec<(String, RedOp)> {
        let src = format!(
            "void f(int n, int v[100], long w[100]) {{\n  {}\n#pragma scop\n  for (int i = 0; i < n; i++)\n    {}\n#pragma endscop\n}}\n",
            decls, body
        );
        let scop = scop_of(name, &src);
        let mut out: Vec<(String, RedOp)> = candidates(&scop, ReductionMode::Exact)
            .unwrap()
            .into_iter()
            .map(|c| (c.var, c.op))
            .collect();
        out.sort_by_key(|(v, op)| (v.clone(), op.name()));
        out
    }

    #[test]
    fn conditionals_with_their_arms_swapped_are_the_other_operator() {
        let k = "long k = 0;";
        let on_k = |op: RedOp| vec![("k".to_string(), op)];
        let min_max = [
            ("swap-min", "k = k > v[i] ? v[i] : k;", RedOp::Min),
            ("swap-max", "k = k < v[i] ? v[i] : k;", RedOp::Max),
            ("swap-max2", "k = v[i] <= k ? k : v[i];", RedOp::Max),
            ("plain-min", "k = v[i] < k ? v[i] : k;", RedOp::Min),
        ];
        for (name, body, op) in min_max {
            assert_eq!(found_ops(name, k, body), on_k(op), "{}", body);
        }
        // Neither arm the other operand: no minimum.
        assert!(found_ops("swap-none", k, "k = k < v[i] ? v[i] : w[i];").is_empty());
    }

    #[test]
    fn guarded_updates_of_one_element_are_reductions() {
        let w = vec![("w".to_string(), RedOp::Add)];
        let guarded = [
            ("guard-elem", "if (v[i] > 0) w[v[i] % 4] += 1;"),
            ("guard-both", "if (v[i] > 0) w[2] += 1; else w[2] -= v[i];"),
        ];
        for (name, body) in guarded {
            assert_eq!(found_ops(name, "", body), w, "{}", body);
        }
        let in_order = [
            // The condition reads the variable.
            ("guard-reads", "if (w[0] > 3) w[v[i] % 4] += 1;"),
            // Two elements, each in a branch.
            ("guard-two", "if (v[i] > 0) w[1] += 1; else w[2] += 1;"),
        ];
        for (name, body) in in_order {
            assert!(found_ops(name, "", body).is_empty(), "{}", body);
        }
    }

    #[test]
    fn members_with_operators_of_their_own_are_reductions_each() {
        let s = "struct p { long a, b; } s = {0, 0};";
        let add = ("s".to_string(), RedOp::Add);
        let max = ("s".to_string(), RedOp::Max);
        assert_eq!(
            found_ops(
                "mem-two",
                s,
                "{ s.a += v[i]; s.b = s.b > v[i] ? s.b : v[i]; }"
            ),
            [add.clone(), max]
        );
        // Another member read elsewhere in the loop: the sum is apart from it.
        assert_eq!(
            found_ops("mem-read", s, "{ s.a += v[i]; w[i] = s.b; }"),
            [add]
        );
        // Two operators on one member, or the member read elsewhere: in order.
        assert!(found_ops(
            "mem-same",
            s,
            "{ s.a += v[i]; s.a = s.a > v[i] ? s.a : v[i]; }"
        )
        .is_empty());
        assert!(found_ops("mem-used", s, "{ s.a += v[i]; s.b = s.a; }").is_empty());
    }
}
