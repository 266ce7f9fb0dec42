//! Scalar forwarding: a scalar whose every value lives from a plain
//! assignment to a store into one array element of the same type, where
//! nothing else touches that element in between, may keep its values in
//! that element instead. ludcmp's
//!
//! ```c
//! w = A[i][j];
//! for (k = 0; k < j; k++) w -= A[i][k] * A[k][j];
//! A[i][j] = w / A[j][j];
//! ```
//!
//! becomes lu's `A[i][j] = A[i][j]; for (k ...) A[i][j] -= ...; A[i][j] =
//! A[i][j] / A[j][j];`: one scalar shared by every `(i, j)` orders all of
//! them (2.3M launches of one-thread kernels at LARGE), the elements do
//! not, and the scheduler finds lu's parallel loops. Where a private
//! copy per iteration (`deps::privatise`) keeps the loops parallel, that
//! is better (a register); this is for where it cannot.
//!
//! A value's chain: in one block (a loop body, or the region's top
//! level), a start `w = e;` (`e` does not read `w`), then statements (in
//! nested loops too), then an end `A[f] = g;` that reads `w`, with `f` a
//! function of the block's iterators and of names the region never
//! writes. The model means what the original means when:
//!
//! - every statement that touches `w` is in exactly one chain, so each
//!   read of `w` sees a value its own chain's start wrote;
//! - `w` is dead after the region (`Array::local`, `killed_after`);
//! - in each instance of a block, no statement between the start and the
//!   end touches `A[f]` (and the end reads it only through `w`): then
//!   `A[f]` holds `w`'s values where nobody else looks, and its own value
//!   from the end on;
//! - the start and the end run for the same instances of the block, and
//!   the statements between only within them;
//! - `w` and `A` have the same type (every assignment converts alike),
//!   and no `independent` pragma, reduction or kill speaks of either.
//!   (Arrays that may alias are the model's distinct arrays like
//!   everywhere else: every version runs behind the run-time check that
//!   they do not overlap.)
//!
//! Each condition is checked on the model with isl; where one fails, the
//! scalar keeps its storage. The schedule of the result is checked
//! against its own dependences like any other.

use super::{Scop, Statement, StmtBody};
use crate::diag::Result;
use crate::front::syntax::{AssignOp, Expr, ExprKind};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, Map};

const STAGE: &str = "scop";

/// One chain's statements (indices into `Scop::stmts`).
#[derive(Debug)]
struct Chain {
    start: usize,
    end: usize,
    /// Between the start and the end, in the block or nested in it.
    between: Vec<usize>,
}

/// The region with each scalar that can be forwarded kept in the array
/// elements its values end in, and what `-v` says of each; `None` where
/// none can.
pub fn forward(isl: &Isl, scop: &Scop) -> Result<Option<(Scop, Vec<String>)>> {
    let independent = !scop.independent.is_empty()
        && !isl
            .union_map(&scop.independent)
            .isl(isl, STAGE)?
            .is_empty()
            .isl(isl, STAGE)?;
    if independent {
        return Ok(None);
    }
    let mut out = scop.clone();
    let mut notes = Vec::new();
    for a in &scop.arrays {
        if !a.is_scalar() || !(a.local || a.killed_after) || a.no_address || !a.members.is_empty() {
            continue;
        }
        let Some(chains) = chains_of(isl, &out, &a.name)? else {
            continue;
        };
        let mut next = out.clone();
        if !rewrite(isl, &mut next, &a.name, &chains)? {
            continue;
        }
        // Each chain's element, once (ludcmp: `A[i][j]`, `y[i]`, `x[i]`).
        let mut targets: Vec<String> = Vec::new();
        for c in &chains {
            let t = lhs_text(&out.stmts[c.end]);
            if !targets.contains(&t) {
                targets.push(t);
            }
        }
        notes.push(format!(
            "line {}: `{}` keeps its values in `{}`, the element each one is stored in (a value per element, where one scalar for all of them orders every iteration)",
            out.stmts[chains[0].start].loc.line,
            a.name,
            targets.join("`, `")
        ));
        out = next;
    }
    if notes.is_empty() {
        return Ok(None);
    }
    drop_identities(isl, &mut out)?;
    Ok(Some((out, notes)))
}

/// Drops the statements forwarding leaves as `T = T;` (ludcmp's `w =
/// A[i][j];` and `y[i] = w;`): each would be a kernel, or a launch per
/// step, that moves nothing. Only a plain store of an element into
/// itself whose one read is that element goes: no call, no conversion
/// (the chain's scalar and element have one type), no other effect.
fn drop_identities(isl: &Isl, scop: &mut Scop) -> Result<()> {
    let identity = |st: &Statement| -> Result<bool> {
        let Some((lhs, rhs)) = plain_assignment(st) else {
            return Ok(false);
        };
        let (text, array) = (crate::front::cexpr::plain(lhs), base_name(lhs));
        let plain = matches!(lhs.kind, ExprKind::Index(..))
            && text == crate::front::cexpr::plain(rhs)
            && st.reads.len() == 1
            && st.writes.len() == 1
            && !st.reads[0].may
            && !st.writes[0].may
            && Some(st.reads[0].array.as_str()) == array
            && st.writes[0].array == st.reads[0].array
            && st.reductions.is_empty();
        if !plain {
            return Ok(false);
        }
        let dom = isl.set(&st.domain).isl(isl, STAGE)?;
        let on = |rel: &str| -> Result<Map> {
            isl.map(rel)
                .isl(isl, STAGE)?
                .intersect_domain(dom.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)
        };
        on(&st.reads[0].relation)?
            .is_equal(&on(&st.writes[0].relation)?)
            .isl(isl, STAGE)
    };
    let mut keep = Vec::new();
    for st in &scop.stmts {
        keep.push(!identity(st)?);
    }
    // A region of nothing but such stores stays as it is: the stages
    // after take a region to have statements.
    if !keep.contains(&true) {
        return Ok(());
    }
    let mut k = 0;
    scop.stmts.retain(|_| {
        k += 1;
        keep[k - 1]
    });
    // Statement ids index `stmts` (the profile's per-statement counts).
    for (k, st) in scop.stmts.iter_mut().enumerate() {
        st.id = super::StmtId(k);
    }
    Ok(())
}

/// The position vector of a statement: its 2d+1 schedule's constants.
fn betas(isl: &Isl, st: &Statement) -> Result<Option<Vec<i64>>> {
    let m = isl.map(&st.schedule).isl(isl, STAGE)?;
    let n = m.dim(DimType::Out).isl(isl, STAGE)?;
    // Schedules are padded with zeros to the deepest statement's length.
    let d = st.iterators.len() as i32;
    if n < 2 * d + 1 {
        return Ok(None);
    }
    let mut out = Vec::new();
    for k in (0..=2 * d).step_by(2) {
        let v = m
            .plain_get_val_if_fixed(DimType::Out, k as u32)
            .isl(isl, STAGE)?;
        if !v.is_int().isl(isl, STAGE)? {
            return Ok(None);
        }
        out.push(v.get_num_si().isl(isl, STAGE)?);
    }
    Ok(Some(out))
}

fn mentions(e: &Expr, name: &str) -> bool {
    let mut ids = Vec::new();
    e.idents(&mut ids);
    ids.iter().any(|i| i == name)
}

fn touches(st: &Statement, name: &str) -> bool {
    st.reads.iter().chain(&st.writes).any(|a| a.array == name)
}

/// `lhs = rhs;` of a statement that is a plain assignment.
fn plain_assignment(st: &Statement) -> Option<(&Expr, &Expr)> {
    match &st.body {
        StmtBody::Assign {
            lhs,
            op: AssignOp::Assign,
            rhs,
        } => Some((lhs, rhs)),
        _ => None,
    }
}

/// `A[f]` of an end, and `A`.
fn end_target<'s>(st: &'s Statement, var: &str) -> Option<(&'s Expr, &'s str)> {
    let (lhs, rhs) = plain_assignment(st)?;
    let ExprKind::Index(..) = lhs.kind else {
        return None;
    };
    let array = base_name(lhs)?;
    (array != var && !mentions(lhs, var) && mentions(rhs, var)).then_some((lhs, array))
}

/// The array an element access `A[i][j]` names.
fn base_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Index(a, _) => base_name(a),
        ExprKind::Ident(n) => Some(n),
        _ => None,
    }
}

fn is_start(st: &Statement, var: &str) -> bool {
    matches!(&st.body, StmtBody::Assign { lhs, op: AssignOp::Assign, rhs }
        if matches!(&lhs.kind, ExprKind::Ident(n) if n == var) && !mentions(rhs, var))
}

/// The chains of `var`, if every statement touching it is in exactly one.
fn chains_of(isl: &Isl, scop: &Scop, var: &str) -> Result<Option<Vec<Chain>>> {
    let users: Vec<usize> = (0..scop.stmts.len())
        .filter(|&s| touches(&scop.stmts[s], var))
        .collect();
    if users.is_empty()
        || scop
            .kills
            .iter()
            .any(|k| k.kills.iter().any(|a| a.array == var))
        || users.iter().any(|&s| {
            let st = &scop.stmts[s];
            !matches!(st.body, StmtBody::Assign { .. })
                || !st.reductions.is_empty()
                || st
                    .reads
                    .iter()
                    .chain(&st.writes)
                    .any(|a| a.array == var && a.may)
        })
    {
        return Ok(None);
    }
    let mut all_betas = Vec::new();
    for st in &scop.stmts {
        all_betas.push(betas(isl, st)?);
    }
    let mut chains = Vec::new();
    for &e in &users {
        let st = &scop.stmts[e];
        if end_target(st, var).is_none() {
            continue;
        }
        let Some(be) = &all_betas[e] else {
            return Ok(None);
        };
        let d = st.iterators.len();
        let in_block = |s: usize| {
            all_betas[s]
                .as_ref()
                .is_some_and(|b| b.len() > d && b[..d] == be[..d])
        };
        let start = users
            .iter()
            .copied()
            .filter(|&s| {
                in_block(s)
                    && scop.stmts[s].iterators.len() == d
                    && all_betas[s].as_ref().unwrap()[d] < be[d]
                    && is_start(&scop.stmts[s], var)
            })
            .max_by_key(|&s| all_betas[s].as_ref().unwrap()[d]);
        let Some(start) = start else {
            continue;
        };
        let bs = all_betas[start].as_ref().unwrap()[d];
        let between = (0..scop.stmts.len())
            .filter(|&s| {
                in_block(s) && {
                    let p = all_betas[s].as_ref().unwrap()[d];
                    bs < p && p < be[d]
                }
            })
            .collect();
        chains.push(Chain {
            start,
            end: e,
            between,
        });
    }
    // Every statement touching `var` in exactly one chain.
    for &s in &users {
        let n = chains
            .iter()
            .filter(|c| c.start == s || c.end == s || c.between.contains(&s))
            .count();
        if n != 1 {
            return Ok(None);
        }
    }
    for c in &chains {
        if !chain_holds(isl, scop, var, c)? {
            return Ok(None);
        }
    }
    Ok((!chains.is_empty()).then_some(chains))
}

/// `{ T[x] -> E[x0 .. x(d-1)] }` on T's domain.
fn to_block(isl: &Isl, scop: &Scop, t: &Statement, e: &Statement) -> Result<Map> {
    let xs: Vec<String> = (0..t.iterators.len()).map(|k| format!("x{}", k)).collect();
    let d = e.iterators.len();
    let text = format!(
        "{} -> {{ {}[{}] -> {}[{}] }}",
        scop.param_prefix(),
        t.name,
        xs.join(", "),
        e.name,
        xs[..d].join(", ")
    );
    let dom = isl.set(&t.domain).isl(isl, STAGE)?;
    isl.map(&text)
        .isl(isl, STAGE)?
        .intersect_domain(dom)
        .isl(isl, STAGE)
}

/// `{ T[x] -> A[f(x0 .. x(d-1))] }`: the element the chain of end `e`
/// keeps the scalar in, for `t`'s instances.
fn target_of(isl: &Isl, scop: &Scop, t: &Statement, e: &Statement, array: &str) -> Result<Map> {
    let write = e
        .writes
        .iter()
        .find(|a| a.array == array)
        .expect("an end writes its target");
    let w = isl.map(&write.relation).isl(isl, STAGE)?;
    to_block(isl, scop, t, e)?.apply_range(w).isl(isl, STAGE)
}

/// The conditions of the module's comment for one chain.
fn chain_holds(isl: &Isl, scop: &Scop, var: &str, c: &Chain) -> Result<bool> {
    let e = &scop.stmts[c.end];
    let s = &scop.stmts[c.start];
    let Some((lhs, array)) = end_target(e, var) else {
        return Ok(false);
    };
    let (Some(a), Some(v)) = (scop.array(array), scop.array(var)) else {
        return Ok(false);
    };
    // `_Bool` elements live in bytes on devices, stored through a
    // conversion (`back::stmt`) that compound assignments do not take.
    if a.elem_type != v.elem_type
        || matches!(a.elem_type.as_str(), "_Bool" | "bool")
        || !a.members.is_empty()
        || a.no_address
        || scop
            .kills
            .iter()
            .any(|k| k.kills.iter().any(|x| x.array == array))
    {
        return Ok(false);
    }
    // The end writes exactly one element, always.
    let writes: Vec<_> = e.writes.iter().filter(|w| w.array == array).collect();
    if writes.len() != 1 || writes[0].may || e.writes.len() != 1 {
        return Ok(false);
    }
    let edom = isl.set(&e.domain).isl(isl, STAGE)?;
    let wmap = isl
        .map(&writes[0].relation)
        .isl(isl, STAGE)?
        .intersect_domain(edom.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    if !wmap.is_single_valued().isl(isl, STAGE)?
        || !wmap
            .copy()
            .isl(isl, STAGE)?
            .domain()
            .isl(isl, STAGE)?
            .is_equal(&edom)
            .isl(isl, STAGE)?
    {
        return Ok(false);
    }
    // `f` names the block's iterators and what the region never writes,
    // under the same names in every statement of the chain.
    let d = e.iterators.len();
    let mut ids = Vec::new();
    lhs.idents(&mut ids);
    let members: Vec<&Statement> = std::iter::once(c.start)
        .chain(c.between.iter().copied())
        .map(|k| &scop.stmts[k])
        .collect();
    for id in ids.iter().skip(1) {
        let iterator = e.iterators.contains(id);
        let unwritten = scop.array(id).is_none_or(|x| !x.written);
        if !(iterator || unwritten) || id == var {
            return Ok(false);
        }
        for t in &members {
            if t.iterators[d..].contains(id) || t.local_names.contains(id) {
                return Ok(false);
            }
        }
    }
    if members.iter().any(|t| t.iterators[..d] != e.iterators[..]) {
        return Ok(false);
    }
    // The start runs exactly where the end does; the rest within.
    let sdom = to_block(isl, scop, s, e)?.range().isl(isl, STAGE)?;
    if !sdom.is_equal(&edom).isl(isl, STAGE)? {
        return Ok(false);
    }
    for &k in &c.between {
        let t = &scop.stmts[k];
        let within = to_block(isl, scop, t, e)?.range().isl(isl, STAGE)?;
        if !within.is_subset(&edom).isl(isl, STAGE)? {
            return Ok(false);
        }
    }
    // Nothing between touches the element; the end reads it only
    // through the scalar.
    let untouched =
        |t: &Statement, accesses: &mut dyn Iterator<Item = &super::Access>| -> Result<bool> {
            let target = target_of(isl, scop, t, e, array)?;
            for acc in accesses.filter(|x| x.array == array) {
                let m = isl.map(&acc.relation).isl(isl, STAGE)?;
                let hit = m
                    .intersect(target.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?;
                if !hit.is_empty().isl(isl, STAGE)? {
                    return Ok(false);
                }
            }
            Ok(true)
        };
    for &k in &c.between {
        let t = &scop.stmts[k];
        if !untouched(t, &mut t.reads.iter().chain(&t.writes))? {
            return Ok(false);
        }
    }
    untouched(e, &mut e.reads.iter())
}

/// Replaces `var` by the chain's element in every statement of `chains`;
/// false where a relation does not come out as one access.
fn rewrite(isl: &Isl, scop: &mut Scop, var: &str, chains: &[Chain]) -> Result<bool> {
    for c in chains {
        let e = scop.stmts[c.end].clone();
        let Some((lhs, array)) = end_target(&e, var) else {
            return Ok(false);
        };
        let (lhs, array) = (lhs.clone(), array.to_string());
        for k in std::iter::once(c.start)
            .chain(c.between.iter().copied())
            .chain(std::iter::once(c.end))
        {
            let t = scop.stmts[k].clone();
            if !touches(&t, var) {
                continue;
            }
            let target = target_of(isl, scop, &t, &e, &array)?;
            let relation = target.text(isl, STAGE)?;
            let st = &mut scop.stmts[k];
            for acc in st.reads.iter_mut().chain(st.writes.iter_mut()) {
                if acc.array == var {
                    acc.array = array.clone();
                    acc.relation = relation.clone();
                }
            }
            if let StmtBody::Assign { lhs: l, rhs: r, .. } = &mut st.body {
                replace_ident(l, var, &lhs);
                replace_ident(r, var, &lhs);
            }
        }
    }
    if let Some(a) = scop.arrays.iter_mut().find(|a| a.name == var) {
        a.read = false;
        a.written = false;
    }
    Ok(true)
}

fn replace_ident(e: &mut Expr, var: &str, by: &Expr) {
    if matches!(&e.kind, ExprKind::Ident(n) if n == var) {
        let loc = e.loc.clone();
        *e = by.clone();
        e.loc = loc;
        return;
    }
    for c in e.children_mut() {
        replace_ident(c, var, by);
    }
}

fn lhs_text(st: &Statement) -> String {
    match &st.body {
        StmtBody::Assign { lhs, .. } => crate::front::cexpr::plain(lhs),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scop::test_support::scop_of;

    fn forwarded(name: &str, src: &str) -> Option<(Scop, Vec<String>)> {
        let scop = scop_of(name, src);
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        forward(&isl, &scop).unwrap()
    }

    const LUDCMP_ROWS: &str = "void f(int n, double A[restrict const static n][n]) {\n double w;\n#pragma scop\nfor (int i = 0; i < n; i++)\n for (int j = 0; j < i; j++) {\n  w = A[i][j];\n  for (int k = 0; k < j; k++)\n   w -= A[i][k] * A[k][j];\n  A[i][j] = w / A[j][j];\n }\n#pragma endscop\n}\n";

    #[test]
    fn ludcmps_rows_keep_w_in_their_elements() {
        let (scop, notes) = forwarded("fw-ludcmp", LUDCMP_ROWS).expect("forwards");
        assert_eq!(notes.len(), 1, "{:?}", notes);
        assert!(
            notes[0].contains("`w` keeps its values in `A[i][j]`"),
            "{}",
            notes[0]
        );
        for st in &scop.stmts {
            assert!(!touches(st, "w"), "{}: {:?}", st.name, st.body);
        }
        let update = scop
            .stmts
            .iter()
            .find(|s| s.iterators.len() == 3)
            .expect("the k statement");
        let StmtBody::Assign { lhs, .. } = &update.body else {
            panic!()
        };
        assert_eq!(crate::front::cexpr::plain(lhs), "A[i][j]");
        // The update writes the element `(i, j)`, where it wrote `w`.
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        let dom = isl.set(&update.domain).unwrap();
        let on = |text: &str| {
            isl.map(text)
                .unwrap()
                .intersect_domain(dom.copy().unwrap())
                .unwrap()
        };
        let expected = on(&format!("[n] -> {{ {}[i, j, k] -> A[i, j] }}", update.name));
        assert_eq!(update.writes.len(), 1);
        assert!(
            on(&update.writes[0].relation).is_equal(&expected).unwrap(),
            "{}",
            update.writes[0].relation
        );
    }

    #[test]
    fn stores_of_an_element_into_itself_go() {
        // ludcmp's rows: `w = A[i][j];` becomes `A[i][j] = A[i][j];`,
        // a kernel that moves nothing; the update and the division stay.
        let (scop, _) = forwarded("fw-ident-rows", LUDCMP_ROWS).expect("forwards");
        let texts: Vec<String> = scop
            .stmts
            .iter()
            .map(|st| match &st.body {
                StmtBody::Assign { lhs, rhs, .. } => format!(
                    "{} = {}",
                    crate::front::cexpr::plain(lhs),
                    crate::front::cexpr::plain(rhs)
                ),
                _ => String::new(),
            })
            .collect();
        assert_eq!(texts.len(), 2, "{:?}", texts);
        assert!(
            texts.iter().all(|t| t != "A[i][j] = A[i][j]"),
            "{:?}",
            texts
        );
        for (k, st) in scop.stmts.iter().enumerate() {
            assert_eq!(st.id.0, k, "ids index the statements");
        }
        // ludcmp's forward substitution: the end `y[i] = w;` goes, the
        // start `y[i] = b[i];` (a real copy) stays.
        let subst = "void f(int n, double A[restrict const static n][n], double b[restrict const static n], double y[restrict const static n]) {\n double w;\n#pragma scop\nfor (int i = 0; i < n; i++) {\n  w = b[i];\n  for (int j = 0; j < i; j++)\n   w -= A[i][j] * y[j];\n  y[i] = w;\n }\n#pragma endscop\n}\n";
        let (scop, notes) = forwarded("fw-ident-subst", subst).expect("forwards");
        assert!(notes[0].contains("`y[i]`"), "{:?}", notes);
        assert_eq!(scop.stmts.len(), 2, "{:?}", scop.stmts);
        let StmtBody::Assign { rhs, .. } = &scop.stmts[0].body else {
            panic!()
        };
        assert_eq!(crate::front::cexpr::plain(rhs), "b[i]");
    }

    #[test]
    fn a_scalar_read_after_the_region_stays() {
        let live = LUDCMP_ROWS.replace("#pragma endscop\n}", "#pragma endscop\n print(w);\n}");
        assert!(forwarded("fw-live", &live).is_none());
    }

    #[test]
    fn an_element_read_between_start_and_end_stays() {
        // `A[i][j]` read through another name before the store.
        let src = LUDCMP_ROWS.replace(
            "w -= A[i][k] * A[k][j];",
            "w -= A[i][k] * A[k][j] + A[i][j];",
        );
        assert!(forwarded("fw-read", &src).is_none());
    }

    #[test]
    fn a_start_the_end_does_not_always_follow_stays() {
        // With the updates (whose instances outrun the store's) and
        // without (where only the start's do).
        let src = LUDCMP_ROWS.replace(
            "A[i][j] = w / A[j][j];",
            "if (j > 2) A[i][j] = w / A[j][j];",
        );
        assert!(forwarded("fw-cond", &src).is_none());
        let alone = src.replace(
            "  for (int k = 0; k < j; k++)\n   w -= A[i][k] * A[k][j];\n",
            "",
        );
        assert!(alone.contains("w = A[i][j];\n  if (j > 2)"), "{}", alone);
        assert!(forwarded("fw-cond-alone", &alone).is_none());
        let always = alone.replace("if (j > 2) ", "");
        assert!(forwarded("fw-alone", &always).is_some());
    }

    #[test]
    fn two_stores_of_one_value_stay() {
        let src = LUDCMP_ROWS.replace(
            "A[i][j] = w / A[j][j];",
            "A[i][j] = w / A[j][j]; A[j][i] = w;",
        );
        assert!(forwarded("fw-two", &src).is_none());
    }

    #[test]
    fn another_type_stays() {
        let src = LUDCMP_ROWS.replace("double w;", "float w;");
        assert!(forwarded("fw-type", &src).is_none());
    }
}
