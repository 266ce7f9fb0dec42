//! Affine loops as C runs them. C tests the condition first at the lower
//! bound and then after every step, and stops at the first value where it
//! fails: the iterations are the values reached, not every value that
//! satisfies the condition (`for (i = 0; i >= 10 && i < 20; i++)` runs
//! zero times). The iterator is a C variable of some type: the model's
//! mathematical integers are exact only while every value it takes stays
//! inside that type.

use super::*;
use crate::front::affine::Aff;
use crate::front::syntax::{integer_range, subst_expr};
use crate::isl::{Isl, IslResultExt};

const STAGE: &str = "scop";

/// What one loop's iterator must satisfy for the model to be exact,
/// checked once the region's context is known (`check_loop_ranges`).
pub(super) struct LoopRange {
    pub loc: Loc,
    pub iter: String,
    pub ty: String,
    pub lo: i128,
    pub hi: i128,
    pub step: i64,
    /// isl names of the enclosing iterators, then the loop's own.
    pub vars: Vec<String>,
    /// Where the loop header runs, over the enclosing iterators.
    pub reached: Vec<String>,
    /// The lower bound is outside the type, over the enclosing iterators
    /// (`None` where it cannot be without undefined behaviour first).
    pub lb_outside: Option<String>,
    /// The loop's iterations, over `vars`.
    pub domain: Vec<String>,
    /// Its condition alone, over `vars`.
    pub cond: String,
    /// Leaving the range wraps around (unsigned types, and types narrower
    /// than `int`, whose `i++` converts back) rather than being undefined
    /// behaviour: then the value after the last iteration must fit too.
    pub wraps: bool,
}

fn has_literal_outside(e: &Expr, lo: i128, hi: i128) -> bool {
    match &e.kind {
        ExprKind::Int(v, _) => (*v as i128) < lo || (*v as i128) > hi,
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            has_literal_outside(a, lo, hi) || has_literal_outside(b, lo, hi)
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => has_literal_outside(a, lo, hi),
        ExprKind::Cond(a, b, c) => [a, b, c].iter().any(|x| has_literal_outside(x, lo, hi)),
        ExprKind::Call(_, args) => args.iter().any(|x| has_literal_outside(x, lo, hi)),
        _ => false,
    }
}

/// `var` starts at `lb` and moves by `step`: `var >= lb` (or `<=`), and on
/// the lattice of `lb` when `|step| > 1`.
pub(super) fn start_constraints(var: &str, lb: &Pw, step: i64) -> Vec<String> {
    let it = Pw(vec![(vec![], Aff::atom(var.to_string()))]);
    let start = if step > 0 {
        compare(&it, BinOp::Ge, lb)
    } else {
        compare(&it, BinOp::Le, lb)
    };
    let mut cons = vec![format!("({})", start)];
    if step.abs() > 1 {
        let alts: Vec<String> =
            lb.0.iter()
                .map(|(g, a)| {
                    let mut parts: Vec<String> = g.iter().map(|x| format!("({})", x)).collect();
                    parts.push(format!(
                        "({} - ({})) mod {} = 0",
                        var,
                        a.to_isl(),
                        step.abs()
                    ));
                    parts.join(" and ")
                })
                .collect();
        cons.push(format!("({})", alts.join(" or ")));
    }
    cons
}

impl Builder<'_> {
    /// The C type of a loop's iterator: the loop's own declaration, else
    /// the variable's.
    pub(super) fn iterator_type(&self, iter: &str, declared: Option<&str>) -> String {
        declared
            .map(str::to_string)
            .or_else(|| self.decl(iter).map(|d| d.base_type.clone()))
            .unwrap_or_else(|| "int".to_string())
    }

    /// The constraints of a loop's iterations (the enclosing iterators
    /// and `iter`, already in `self.iters`, as variables): from `lb` in
    /// steps of `step` while `cond` (`c`, its isl text) has held at every
    /// value so far. Where that is not the same as `c` alone at the values
    /// reached from `lb` (a condition false at `lb` but true later, `!=`,
    /// `||`), the "held so far" part is stated as a constraint of its own,
    /// which isl's Presburger arithmetic handles exactly.
    pub(super) fn loop_constraints(
        &mut self,
        iter: &str,
        lb: &Pw,
        cond: &Expr,
        c: &str,
        step: i64,
    ) -> Result<Vec<String>> {
        let it = isl_name(iter);
        let mut cons = start_constraints(&it, lb, step);
        cons.push(format!("({})", c));
        // The condition at an earlier value: `iter` renamed.
        let prev = format!("pencilc_prev_{}", it);
        let renamed = subst_expr(cond, &|n: &str| {
            (n == iter).then(|| Expr {
                kind: ExprKind::Ident(prev.clone()),
                loc: cond.loc.clone(),
            })
        });
        self.iters.push(prev.clone());
        let ty = self.int_type(iter);
        self.iter_types.push((prev.clone(), ty));
        let c_prev = self.convert(
            |cv| cv.cond(&renamed),
            Code::NonAffineBound,
            cond,
            "the loop condition",
        );
        self.iters.pop();
        self.iter_types.pop();
        let c_prev = c_prev?;
        let mut failed = start_constraints(&prev, lb, step);
        failed.push(if step > 0 {
            format!("{} <= {}", prev, it)
        } else {
            format!("{} >= {}", prev, it)
        });
        failed.push(format!("not ({})", c_prev));
        let held = format!("(not (exists ({} : {})))", prev, failed.join(" and "));
        let vars: Vec<String> = self.iters.iter().map(|i| isl_name(i)).collect();
        let params: Vec<String> = self.params.iter().cloned().collect();
        let text = |extra: Option<&str>| {
            let mut all: Vec<String> = self.constraints.clone();
            all.extend(cons.iter().cloned());
            all.extend(extra.map(str::to_string));
            format!(
                "[{}] -> {{ [{}] : {} }}",
                params.join(", "),
                vars.join(", "),
                all.join(" and ")
            )
        };
        let isl = &self.isl;
        let simple = isl.set(&text(None)).isl(isl, STAGE)?;
        let exact = isl.set(&text(Some(&held))).isl(isl, STAGE)?;
        if !simple.is_equal(&exact).isl(isl, STAGE)? {
            cons.push(held);
        }
        Ok(cons)
    }

    /// Records what `check_loop_ranges` must verify of the loop at `loc`
    /// whose constraints (over `self.iters`, `iter` last) are `cons`.
    pub(super) fn record_loop_range(
        &mut self,
        iter: &str,
        ty: &str,
        init: &Expr,
        lb: &Pw,
        step: i64,
        (cons, cond): (&[String], &str),
        loc: &Loc,
    ) {
        let Some((lo, hi)) = integer_range(ty) else {
            return;
        };
        let lb_outside: Vec<String> =
            lb.0.iter()
                .map(|(g, a)| {
                    let mut parts: Vec<String> = g.iter().map(|x| format!("({})", x)).collect();
                    let v = a.to_isl();
                    parts.push(format!("({} < {} or {} > {})", v, lo, v, hi));
                    format!("({})", parts.join(" and "))
                })
                .collect();
        let wraps = wraps_around((lo, hi));
        // A signed iterator of at least `int`'s rank receives its lower
        // bound in range unless the bound's expression overflowed first
        // (undefined behaviour) or has a wider type, whose conversion C
        // leaves to the implementation: a wider variable, or a literal
        // outside the range.
        let mut names = Vec::new();
        init.idents(&mut names);
        let wider = names.iter().any(|n| {
            self.decl(n)
                .and_then(|d| integer_range(&d.base_type))
                .is_some_and(|(l, h)| l < lo || h > hi)
        }) || has_literal_outside(init, lo, hi);
        let lb_outside = (wraps || wider).then(|| lb_outside.join(" or "));
        let mut domain = self.constraints.clone();
        domain.extend(cons.iter().cloned());
        self.loop_ranges.push(LoopRange {
            loc: loc.clone(),
            iter: iter.to_string(),
            ty: ty.to_string(),
            lo,
            hi,
            step,
            vars: self.iters.iter().map(|i| isl_name(i)).collect(),
            reached: self.constraints.clone(),
            lb_outside,
            domain,
            cond: cond.to_string(),
            wraps,
        });
    }
}

/// Every loop's iterator stays inside its C type wherever the region runs
/// (under `context`, which holds the assumptions and what the accesses
/// imply, and the parameters' own types): its lower bound, every
/// iteration, and for wrapping types the value after the last one, which
/// C tests against the condition. Otherwise the model would run
/// iterations C does not (a wrapped `unsigned` never fails `i >= 0`), or
/// the loop would not end. A signed iterator of at least `int`'s rank
/// leaves its range only through an overflow, undefined behaviour (of
/// `i++`, or of the bound's own arithmetic): there the parameter values
/// at which that happens are excluded, like the user's assumptions
/// (`i != n` from 0 is then for `n >= 0` only). Returns the context
/// without them, where there were any.
/// Why `check_loop_ranges` refused the loops.
pub(super) enum RangeError {
    /// The iterator of a type that wraps around (unsigned, or narrower
    /// than `int`) may leave its range: its loops can still run as
    /// written, where C's own arithmetic wraps it.
    Wraps(String, Diagnostic),
    Other(Diagnostic),
}

impl From<Diagnostic> for RangeError {
    fn from(d: Diagnostic) -> Self {
        RangeError::Other(d)
    }
}

/// Whether leaving an integer type's range `(lo, hi)` wraps around
/// (unsigned types, and types narrower than `int`, whose `i++` converts
/// back) rather than being undefined behaviour.
pub(super) fn wraps_around((lo, hi): (i128, i128)) -> bool {
    lo == 0 || hi < i32::MAX as i128
}

pub(super) fn check_loop_ranges(
    isl: &Isl,
    params: &[String],
    context: &str,
    param_ranges: &str,
    checks: &[LoopRange],
) -> std::result::Result<Ranges, RangeError> {
    if checks.is_empty() {
        return Ok(Ranges::default());
    }
    let mut undefined: Option<isl_rs::Set> = None;
    // Where an iterator of a type that wraps leaves it, and the first such
    // loop with what left the range.
    let mut wrapping: Vec<(&LoopRange, &str, isl_rs::Set)> = Vec::new();
    let ctx = isl
        .set(context)
        .isl(isl, STAGE)?
        .intersect(isl.set(param_ranges).isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let p = params.join(", ");
    // No parameter value lets the region run as modelled (the loops'
    // conditions together exclude each other: a counter that starts at a
    // narrowing of `n` and one that must pass a value above it). Every
    // test below would pass vacuously; a loop whose iterator may wrap runs
    // as written instead, and the rest is built again without it.
    if ctx.is_empty().isl(isl, STAGE)? {
        if let Some(ch) = checks.iter().find(|ch| ch.wraps) {
            return Err(RangeError::Wraps(
                ch.iter.clone(),
                Diagnostic::error(
                    Code::IteratorRange,
                    Some(ch.loc.clone()),
                    format!(
                        "the loop iterator `{}` of type `{}` leaves no value of the parameters at which the region's loops all run as modelled",
                        ch.iter, ch.ty
                    ),
                ),
            ));
        }
    }
    for ch in checks {
        let it = ch.vars.last().cloned().unwrap_or_default();
        let outer = &ch.vars[..ch.vars.len().saturating_sub(1)];
        let with = |cons: &[String], extra: &str| {
            let mut all = cons.to_vec();
            all.push(format!("({})", extra));
            all.join(" and ")
        };
        let outside = |v: &str| format!("{} < {} or {} > {}", v, ch.lo, v, ch.hi);
        let mut tests = Vec::new();
        if let Some(lb_outside) = &ch.lb_outside {
            tests.push((
                format!(
                    "[{}] -> {{ [{}] : {} }}",
                    p,
                    outer.join(", "),
                    with(&ch.reached, lb_outside)
                ),
                "its initial value",
            ));
        }
        let in_loop = format!(
            "[{}] -> {{ [{}] : {} }}",
            p,
            ch.vars.join(", "),
            with(&ch.domain, &outside(&it))
        );
        if ch.wraps {
            tests.push((in_loop, "its values in the loop (or the loop does not end)"));
        } else {
            let bad = isl
                .set(&in_loop)
                .isl(isl, STAGE)?
                .params()
                .isl(isl, STAGE)?
                .intersect(ctx.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            if !bad.is_empty().isl(isl, STAGE)? {
                undefined = Some(match undefined {
                    None => bad,
                    Some(u) => u.union(bad).isl(isl, STAGE)?,
                });
            }
        }
        if ch.wraps {
            tests.push((
                format!(
                    "[{}] -> {{ [{}] : {} }}",
                    p,
                    ch.vars.join(", "),
                    with(&ch.domain, &outside(&format!("({} + ({}))", it, ch.step)))
                ),
                "its value after the last iteration",
            ));
        }
        for (text, what) in tests {
            let bad = isl
                .set(&text)
                .isl(isl, STAGE)?
                .intersect_params(ctx.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            if !bad.is_empty().isl(isl, STAGE)? {
                if let Some(endless) = never_ends(isl, &p, ch, &ctx)? {
                    return Err(RangeError::Other(endless));
                }
                wrapping.push((ch, what, bad.params().isl(isl, STAGE)?));
            }
        }
    }
    let checked = if wrapping.is_empty() {
        None
    } else {
        Some(wrap_free(isl, &p, &ctx, wrapping, param_ranges)?)
    };
    let defined = match undefined {
        None => None,
        Some(u) => {
            // Simplified by the parameters' types, which the context leaves
            // out (their constants would only split the generated code).
            let ranges = isl.set(param_ranges).isl(isl, STAGE)?;
            let defined = ctx
                .subtract(u)
                .isl(isl, STAGE)?
                .coalesce()
                .isl(isl, STAGE)?
                .gist(ranges)
                .isl(isl, STAGE)?;
            if defined.is_empty().isl(isl, STAGE)? {
                return Err(RangeError::Other(
                    Diagnostic::error(
                        Code::IteratorRange,
                        checks.first().map(|c| c.loc.clone()),
                        "every run of this region overflows a loop iterator",
                    )
                    .with_hint("check the loop bounds: with these, C's behaviour is undefined"),
                ));
            }
            Some(defined)
        }
    };
    Ok(Ranges { defined, checked })
}

/// What `check_loop_ranges` found the region's loops need.
#[derive(Default)]
pub(super) struct Ranges {
    /// The context without the parameter values at which a signed
    /// iterator overflows (undefined behaviour), where there are any.
    pub defined: Option<isl_rs::Set>,
    /// The parameter values at which every iterator of a wrapping type
    /// stays inside it, to be checked when the region is entered (the
    /// original code runs at the others, where C wraps the iterator
    /// around), and the `-v` note that says so.
    pub checked: Option<(isl_rs::Set, String)>,
}

/// The parameter values of `ctx` outside those of `wrapping` (each
/// loop with what left its type's range, and where), where the model of
/// every loop is exact, as facts to check on entry (`Scop::checked`):
/// `for (size_t i = 0; i < n; i++)` with an `int n` runs as modelled for
/// `n >= 0`, and converting `n` up to about 2^64 times below. A loop that
/// the facts would keep from ever running (`x != 4` from 250 by 2) is
/// refused as before (`RangeError::Wraps`: its statements then run as
/// written), as is one whose check would need constants that C's `long`
/// cannot hold.
fn wrap_free(
    isl: &Isl,
    params: &str,
    ctx: &isl_rs::Set,
    wrapping: Vec<(&LoopRange, &str, isl_rs::Set)>,
    param_ranges: &str,
) -> std::result::Result<(isl_rs::Set, String), RangeError> {
    let refused = |ch: &LoopRange, what: &str| {
        RangeError::Wraps(ch.iter.clone(), Diagnostic::error(
            Code::IteratorRange,
            Some(ch.loc.clone()),
            format!(
                "the loop iterator `{}` may leave the range of its type `{}` ({} to {}): {} can be out of range for some values of the parameters",
                ch.iter, ch.ty, ch.lo, ch.hi, what
            ),
        )
        .with_hint(format!(
            "pencilc models iterators as mathematical integers, which is exact only while `{}` stays inside `{}`; bound the loop so that it does (e.g. `__pencil_assume(...)` on the parameters before the loop), or use a wider signed type",
            ch.iter, ch.ty
        )))
    };
    let mut free = ctx.copy().isl(isl, STAGE)?;
    for (_, _, at) in &wrapping {
        free = free.subtract(at.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
    }
    let free = free.coalesce().isl(isl, STAGE)?;
    for (ch, what, _) in &wrapping {
        let runs = isl
            .set(&format!(
                "[{}] -> {{ [{}] : {} }}",
                params,
                ch.vars.join(", "),
                if ch.domain.is_empty() {
                    "true".to_string()
                } else {
                    ch.domain.join(" and ")
                }
            ))
            .isl(isl, STAGE)?
            .params()
            .isl(isl, STAGE)?
            .intersect(free.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        if runs.is_empty().isl(isl, STAGE)? {
            return Err(refused(ch, what));
        }
    }
    // The parameters' types hold by themselves: a check of them would
    // only print their (for 64-bit types, unprintable) limits.
    let ranges = isl.set(param_ranges).isl(isl, STAGE)?;
    let facts = free.gist(ranges).isl(isl, STAGE)?;
    let text = facts.text(isl, STAGE)?;
    let (ch, what, _) = &wrapping[0];
    if !constants_fit_long(&text) {
        return Err(refused(ch, what));
    }
    let cond = crate::isl::ast_build::c_condition(isl, facts.copy().isl(isl, STAGE)?)?;
    let mut names: Vec<String> = wrapping
        .iter()
        .map(|(c, _, _)| format!("`{}` (`{}`)", c.iter, c.ty))
        .collect();
    names.dedup();
    let note = format!(
        "{} {}: the model keeps {} inside {} type where {}, checked at run time (otherwise the original code runs): `__pencil_assume({});` would prove it",
        if names.len() == 1 { "loop iterator" } else { "loop iterators" },
        names.join(", "),
        if names.len() == 1 { "it" } else { "them" },
        if names.len() == 1 { "its" } else { "their" },
        cond,
        cond
    );
    Ok((facts, note))
}

/// Whether every integer literal of an isl set's text fits C's `long`,
/// as the entry check's constants must.
fn constants_fit_long(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|d| !d.is_empty())
        .all(|d| d.parse::<i64>().is_ok_and(|v| v < i64::MAX / 2))
}

/// The error for a loop whose condition holds for every value of its
/// iterator's type somewhere the loop is reached, at every value of the
/// parameters: C's arithmetic wraps the iterator around, and no value
/// ends the loop (`unsigned u; u >= 0`).
fn never_ends(
    isl: &Isl,
    params: &str,
    ch: &LoopRange,
    ctx: &isl_rs::Set,
) -> std::result::Result<Option<Diagnostic>, RangeError> {
    let it = ch.vars.last().cloned().unwrap_or_default();
    let outer = ch.vars[..ch.vars.len().saturating_sub(1)].join(", ");
    let reached = if ch.reached.is_empty() {
        "true".to_string()
    } else {
        ch.reached.join(" and ")
    };
    let set = |text: String| -> std::result::Result<isl_rs::Set, RangeError> {
        Ok(isl
            .set(&text)
            .isl(isl, STAGE)?
            .intersect_params(ctx.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?)
    };
    let reached = set(format!("[{}] -> {{ [{}] : {} }}", params, outer, reached))?;
    // Where some value of the type fails the condition.
    let exits = set(format!(
        "[{}] -> {{ [{}] : exists ({} : {} <= {} <= {} and not ({})) }}",
        params, outer, it, ch.lo, it, ch.hi, ch.cond
    ))?;
    // Only where that holds at every value of the parameters: at others
    // the loop, run as written, ends, as the sequential program's does.
    let endless = reached.subtract(exits).isl(isl, STAGE)?;
    let ends_somewhere = ctx
        .copy()
        .isl(isl, STAGE)?
        .subtract(endless.params().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    if !ends_somewhere.is_empty().isl(isl, STAGE)? {
        return Ok(None);
    }
    Ok(Some(
        Diagnostic::error(
            Code::NonCanonicalLoop,
            Some(ch.loc.clone()),
            format!(
                "this loop never ends: its condition holds for every value of `{}`'s type `{}` ({} to {}), which C's arithmetic wraps around",
                ch.iter, ch.ty, ch.lo, ch.hi
            ),
        )
        .with_hint("a region is code that finishes; bound the loop by a value its iterator's type can reach, or keep it outside `#pragma scop`"),
    ))
}

/// A loop whose iterator is a variable of the enclosing function: after
/// the region it must hold what C leaves there (`live_out_value`).
pub(super) struct PendingLiveOut {
    pub var: String,
    /// isl names of the enclosing iterators, and each one's direction.
    pub outer: Vec<String>,
    pub signs: Vec<i64>,
    /// Where the loop header runs, over `outer`.
    pub reached: Vec<String>,
    /// The iterations, over `outer` and the iterator.
    pub domain: Vec<String>,
    pub lb: Pw,
    pub step: i64,
    /// The loop's place in the original order: the statements' schedule
    /// prefix down to its position, over `outer` (decreasing loops
    /// negated), so that exits of loops compare lexicographically.
    pub time: Vec<String>,
}

impl PendingLiveOut {
    /// `[params] -> { [t...] }`: the times (padded to `width`) at which the
    /// loop's header runs.
    pub fn exit_times(&self, params: &[String], width: usize) -> String {
        let mut t: Vec<String> = self.time.clone();
        t.resize(width.max(t.len()), "0".into());
        let names: Vec<String> = (0..t.len()).map(|j| format!("pencilc_t{}", j)).collect();
        let eqs: Vec<String> = names
            .iter()
            .zip(&t)
            .map(|(n, v)| format!("{} = {}", n, v))
            .collect();
        let mut cons = self.reached.clone();
        cons.extend(eqs);
        let body = if self.outer.is_empty() {
            cons.join(" and ")
        } else {
            format!(
                "exists ({} : {})",
                self.outer.join(", "),
                cons.join(" and ")
            )
        };
        format!(
            "[{}] -> {{ [{}] : {} }}",
            params.join(", "),
            names.join(", "),
            body
        )
    }

    /// The value the iterator has after the region, where the loop header
    /// ran at all, as an isl set `[params] -> { [x] : ... }` with one
    /// element for each such parameter value: the header's last run is the
    /// lexicographically last enclosing iteration reaching it (in the
    /// enclosing loops' directions); there the iterator ends one step
    /// past the last iteration, or at the lower bound if there was none.
    pub fn value_set(&self, params: &[String]) -> String {
        let k = self.outer.len();
        let it = "pencilc_v";
        let rename = |cons: &[String], to: &[String]| -> String {
            // The constraints are text over `outer`: bind them to other
            // names through equalities instead of rewriting the text.
            let mut all: Vec<String> = cons.to_vec();
            if all.is_empty() {
                all.push("true".into());
            }
            if to.is_empty() {
                return all.join(" and ");
            }
            let eqs: Vec<String> = self
                .outer
                .iter()
                .zip(to)
                .map(|(o, t)| format!("{} = {}", o, t))
                .collect();
            format!(
                "exists ({} : {} and {})",
                self.outer.join(", "),
                eqs.join(" and "),
                all.join(" and ")
            )
        };
        let names = |p: &str| -> Vec<String> { (0..k).map(|j| format!("{}{}", p, j)).collect() };
        let o = names("pencilc_o");
        let q = names("pencilc_q");
        // q comes after o in the enclosing loops' order.
        let later: Vec<String> = (0..k)
            .map(|j| {
                let mut parts: Vec<String> =
                    (0..j).map(|l| format!("{} = {}", q[l], o[l])).collect();
                let (a, b) = if self.signs[j] > 0 {
                    (&q[j], &o[j])
                } else {
                    (&o[j], &q[j])
                };
                parts.push(format!("{} > {}", a, b));
                format!("({})", parts.join(" and "))
            })
            .collect();
        let last_outer = if k == 0 {
            rename(&self.reached, &o)
        } else {
            format!(
                "({}) and not (exists ({} : ({}) and ({})))",
                rename(&self.reached, &o),
                q.join(", "),
                rename(&self.reached, &q),
                later.join(" or ")
            )
        };
        // The iterations at the outer point `o`, with the iterator `v`.
        let dom_at = |v: &str| -> String {
            let mut to = o.clone();
            to.push(v.to_string());
            // Bind the loop's own iterator, the last variable of the
            // domain's constraints, like the enclosing ones.
            let mut all = self.domain.clone();
            if all.is_empty() {
                all.push("true".into());
            }
            let own = self.own_name();
            let mut from: Vec<String> = self.outer.clone();
            from.push(own);
            let eqs: Vec<String> = from
                .iter()
                .zip(&to)
                .map(|(f, t)| format!("{} = {}", f, t))
                .collect();
            format!(
                "exists ({} : {} and {})",
                from.join(", "),
                eqs.join(" and "),
                all.join(" and ")
            )
        };
        let beyond = if self.step > 0 {
            "pencilc_w > pencilc_v"
        } else {
            "pencilc_w < pencilc_v"
        };
        let last_it = format!(
            "({}) and not (exists (pencilc_w : ({}) and {}))",
            dom_at(it),
            dom_at("pencilc_w"),
            beyond
        );
        let lb_at = {
            let x = Pw(vec![(vec![], Aff::atom("pencilc_x".into()))]);
            rename(&[format!("({})", compare(&x, BinOp::Eq, &self.lb))], &o)
        };
        let value = format!(
            "(exists (pencilc_v : ({}) and pencilc_x = pencilc_v + ({}))) or ((not (exists (pencilc_w : {}))) and ({}))",
            last_it,
            self.step,
            dom_at("pencilc_w"),
            lb_at
        );
        let body = if k == 0 {
            format!("({}) and ({})", last_outer, value)
        } else {
            format!(
                "exists ({} : ({}) and ({}))",
                o.join(", "),
                last_outer,
                value
            )
        };
        format!("[{}] -> {{ [pencilc_x] : {} }}", params.join(", "), body)
    }

    fn own_name(&self) -> String {
        isl_name(&self.var)
    }
}

/// Variables that affine loops of `body` use as iterators without
/// declaring them (`for (i = ...)`).
pub(super) fn undeclared_iterators(body: &[Stmt], out: &mut BTreeSet<String>) {
    for s in body {
        match s {
            Stmt::For {
                iter,
                iter_type,
                body,
                ..
            } => {
                if iter_type.is_none() {
                    out.insert(iter.clone());
                }
                undeclared_iterators(body, out);
            }
            Stmt::If { then_, else_, .. } => {
                undeclared_iterators(then_, out);
                undeclared_iterators(else_, out);
            }
            Stmt::While { body, .. } => undeclared_iterators(body, out),
            _ => {}
        }
    }
}

/// The variables that loops of the region use as iterators and that the
/// region also reads or writes outside those loops (after final values
/// were substituted: `final_values`), each with the first such use. The
/// model knows an affine loop's iterator inside the loop only, so the
/// loops over these run as written (`build_with`'s `dynamic`), and the
/// variable is a scalar like any other (pet's loop7: `i = f(); for (i =
/// i; i < 10; ++i)`).
pub(in crate::scop) fn iterators_used_outside(body: &[Stmt]) -> BTreeMap<String, crate::diag::Loc> {
    let mut vars = BTreeSet::new();
    undeclared_iterators(body, &mut vars);
    let mut out = BTreeMap::new();
    if !vars.is_empty() {
        uses_outside(body, &vars, &mut Vec::new(), &mut out);
    }
    out
}

fn uses_outside(
    body: &[Stmt],
    vars: &BTreeSet<String>,
    inside: &mut Vec<String>,
    out: &mut BTreeMap<String, crate::diag::Loc>,
) {
    fn check(
        e: &Expr,
        inside: &[String],
        vars: &BTreeSet<String>,
        out: &mut BTreeMap<String, crate::diag::Loc>,
    ) {
        let mut names = Vec::new();
        e.idents(&mut names);
        for n in names {
            if vars.contains(&n) && !inside.contains(&n) {
                let at = find_ident(e, &n).unwrap_or_else(|| e.loc.clone());
                out.entry(n).or_insert(at);
            }
        }
    }
    for s in body {
        match s {
            Stmt::For {
                iter,
                init,
                cond,
                body,
                ..
            } => {
                check(init, inside, vars, out);
                inside.push(iter.clone());
                check(cond, inside, vars, out);
                uses_outside(body, vars, inside, out);
                inside.pop();
            }
            Stmt::If {
                cond, then_, else_, ..
            } => {
                check(cond, inside, vars, out);
                uses_outside(then_, vars, inside, out);
                uses_outside(else_, vars, inside, out);
            }
            Stmt::While { cond, body, .. } => {
                check(cond, inside, vars, out);
                uses_outside(body, vars, inside, out);
            }
            Stmt::Assign { lhs, rhs, .. } => {
                check(lhs, inside, vars, out);
                check(rhs, inside, vars, out);
            }
            Stmt::Decl { var, init, .. } => {
                // A local of a loop's iterator's name is that loop's
                // variable (`int i; for (i = 0; ...)`): the front end
                // renames every local that hides another name. Its uses
                // outside the loops count like any variable's.
                for d in var.dims.iter().flatten() {
                    check(d, inside, vars, out);
                }
                if let Some(i) = init {
                    check(i, inside, vars, out);
                }
            }
            Stmt::Assume { cond, .. } => check(cond, inside, vars, out),
            Stmt::Kill { targets, .. } => {
                for t in targets {
                    check(t, inside, vars, out);
                }
            }
            Stmt::Call { args, .. } => {
                for a in args {
                    check(a, inside, vars, out);
                }
            }
            Stmt::Break(_) | Stmt::Continue(_) => {}
        }
    }
}
