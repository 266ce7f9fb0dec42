//! Which reductions each launch carries out in private copies, and which
//! kernels of one thread run in a reduction's combining kernel: decisions
//! on the mapped program that the back end prints (`back::reduce`,
//! `back::region`) and the GPU model counts (`profile`).
//!
//! Where a kernel only updates `v` through its reduction statements, `v` is
//! privatized: every thread combines its own updates into a private copy,
//! the copies of one work-group are combined by a tree in local (shared)
//! memory into one partial per work-group, and a second small kernel (a
//! work-group per element) combines the old value with the partials.
//! Scalars of any supported type are privatized; whole arrays only when
//! their elements are floating point and there are few of them
//! (`MAX_PRIVATE_ELEMS`, and all the work-group's copies fit in
//! `MAX_PRIVATE_LOCAL_BYTES` of local memory): integer array reductions
//! keep their atomic updates, which are exact, and large floating-point
//! arrays too, with a warning that their result depends on the order of
//! the updates.

use super::{AExpr, AOp, Ast, Launch};
use crate::diag::{Code, Diagnostic};
use crate::front::syntax::RedOp;
use crate::scop::{only_reduction_uses, update_values_read, Extent, Scop};
use std::collections::BTreeSet;

/// Threads per work-group of a combining kernel: they stride over the
/// groups' partials, then meet in a tree in local memory. A work-group per
/// element: no single thread walks all the partials (a reduction over
/// 10^7 elements leaves some 10^5 of them).
pub const COMBINE_THREADS: i64 = 128;

/// The largest floating-point array (in elements) that each thread keeps a
/// private copy of; larger ones keep atomic updates.
pub const MAX_PRIVATE_ELEMS: i64 = 128;

/// Local memory for all of one launch's reductions (a scalar's tree, an
/// array's copies side by side for every thread), in bytes. The memory
/// planner keeps this much of the device's shared memory free in kernels
/// with reductions (`map::memory::REDUCTION_LOCAL_BYTES`), so the two
/// together never exceed it.
pub const MAX_PRIVATE_LOCAL_BYTES: i64 = crate::map::memory::REDUCTION_LOCAL_BYTES;

/// A reduction variable that one kernel privatizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Privatized {
    pub var: String,
    /// Element type as C text (from the scop).
    pub elem_type: String,
    pub op: RedOp,
    /// Elements: 1 for a scalar.
    pub len: i64,
    /// The declared extents (empty for a scalar), for linearising.
    pub extents: Vec<i64>,
}

impl Privatized {
    /// Each thread's copy: `T pencilc_red_v[len]`.
    pub fn private_name(&self) -> String {
        format!("pencilc_red_{}", self.var)
    }
    /// The work-group's tree in local memory.
    pub fn tree_name(&self) -> String {
        format!("pencilc_tree_{}", self.var)
    }
    /// One result per work-group and element, in global memory.
    pub fn partial_name(&self) -> String {
        format!("pencilc_partial_{}", self.var)
    }
}

/// How one launch's reductions are carried out.
#[derive(Debug, Default)]
pub struct Plan {
    pub privatized: Vec<Privatized>,
    /// `-v` lines (`kernel[k] v: ...`).
    pub notes: Vec<String>,
    pub warnings: Vec<Diagnostic>,
}

/// Decides, for the launch whose kernel function is `kernel`, which
/// reduction variables are privatized and which
/// keep atomic updates. Notes name the kernel as `-v` and `--sizes` do,
/// `kernel[<mapper's number>]`: one mapped kernel can give several launches.
pub fn plan(scop: &Scop, launch: &Launch, kernel: &str) -> Plan {
    let mut stmts = BTreeSet::new();
    let mut promoted = BTreeSet::new();
    launch.body.walk(&mut |n| match n {
        Ast::User {
            stmt, promoted: p, ..
        } => {
            stmts.insert(stmt.0);
            promoted.extend(p.iter().map(|p| p.array.clone()));
        }
        Ast::Copy { array, .. } => {
            promoted.insert(array.clone());
        }
        _ => {}
    });
    let mut vars: Vec<(String, RedOp)> = Vec::new();
    for &s in &stmts {
        for (v, op) in &scop.stmts[s].reductions {
            if !vars.iter().any(|(w, _)| w == v) {
                vars.push((v.clone(), *op));
            }
        }
    }
    vars.sort();
    let mut out = Plan::default();
    // Local memory the privatized variables take so far.
    let mut local_bytes = 0;
    for (var, op) in vars {
        let Some(array) = scop.array(&var) else {
            continue;
        };
        let Some(ty) = atomic_type(&array.elem_type) else {
            // The atomic path reports the unsupported type.
            continue;
        };
        let float = ty == "float" || ty == "double";
        let loc = stmts
            .iter()
            .map(|&s| &scop.stmts[s])
            .find(|st| st.reductions.iter().any(|(v, _)| v == &var))
            .map(|st| st.loc.clone());
        // Why the kernel cannot privatize `var`, if it cannot.
        let mut why_not: Option<String> = None;
        for &s in &stmts {
            let st = &scop.stmts[s];
            let touches = st
                .reads
                .iter()
                .chain(st.writes.iter())
                .any(|a| a.array == var);
            if !touches {
                continue;
            }
            let same_op = st.reductions.iter().any(|(v, o)| v == &var && *o == op);
            if !same_op || !only_reduction_uses(&st.body, &var, op) {
                why_not = Some(format!(
                    "the kernel also uses it outside its {} updates ({})",
                    op.name(),
                    st.name
                ));
                break;
            }
            // A private copy of the whole array would also take the reads
            // of its other elements (`acc[k] += x[i] * acc[k + 1]`), which
            // must see the array.
            if !array.is_scalar() && update_values_read(&st.body, &var, op) {
                why_not = Some(format!(
                    "its updates read other elements of it ({})",
                    st.name
                ));
                break;
            }
        }
        if why_not.is_none() && !array.is_scalar() && !float {
            why_not = Some(format!(
                "integer {} updates are exact as atomics",
                op.name()
            ));
        }
        if why_not.is_none() && promoted.contains(&var) {
            why_not = Some("it has a local-memory or register tile".to_string());
        }
        let mut extents = Vec::new();
        for e in &array.extents {
            match e {
                Extent::Const(c) => extents.push(*c),
                Extent::Expr { .. } | Extent::Accessed => {
                    if why_not.is_none() {
                        why_not = Some("its size is not a constant".to_string());
                    }
                }
            }
        }
        let len: i64 = extents.iter().product();
        let elem_bytes = if ty == "double" || ty == "long" || ty == "ulong" {
            8
        } else {
            4
        };
        let bytes = len.max(1) * group_size(launch) * elem_bytes;
        if why_not.is_none() && !array.is_scalar() {
            if len > MAX_PRIVATE_ELEMS {
                why_not = Some(format!(
                    "{} elements are too many for a private copy per thread (at most {})",
                    len, MAX_PRIVATE_ELEMS
                ));
            } else if len * group_size(launch) * elem_bytes > MAX_PRIVATE_LOCAL_BYTES {
                why_not = Some(format!(
                    "the work-group's {} private copies of {} elements would take more than {} bytes of local memory",
                    group_size(launch),
                    len,
                    MAX_PRIVATE_LOCAL_BYTES
                ));
            }
        }
        if why_not.is_none() && local_bytes + bytes > MAX_PRIVATE_LOCAL_BYTES {
            why_not = Some(format!(
                "with the kernel's other reductions its work-group copies would take more than {} bytes of local memory",
                MAX_PRIVATE_LOCAL_BYTES
            ));
        }
        match why_not {
            None => {
                local_bytes += bytes;
                out.notes.push(format!(
                    "kernel[{}] {}: {} reduction, private {} per thread, work-group tree in local memory, partials combined by {}_combine",
                    launch.plan.number,
                    var,
                    op.name(),
                    if array.is_scalar() { "copy".to_string() } else { format!("copy of {} elements", len) },
                    kernel
                ));
                out.privatized.push(Privatized {
                    var,
                    elem_type: array.elem_type.clone(),
                    op,
                    len: len.max(1),
                    extents,
                });
            }
            Some(why) => {
                out.notes.push(format!(
                    "kernel[{}] {}: {} reduction with atomic updates: {}",
                    launch.plan.number,
                    var,
                    op.name(),
                    why
                ));
                let inexact = float && op != RedOp::Min && op != RedOp::Max;
                if inexact {
                    out.warnings.push(
                        Diagnostic::warning(
                            Code::UnsupportedType,
                            loc,
                            format!(
                                "the `reduction({})` on `{}` is done with atomic updates in kernel[{}] ({} in the output; {}): floating-point results then depend on the order in which threads update it",
                                op.name(), var, launch.plan.number, kernel, why
                            ),
                        )
                        .with_hint("reduce into a small constant-size array or a scalar, used only by its reduction updates in the loop, to get a deterministic tree reduction"),
                    );
                }
            }
        }
    }
    out
}

/// The work-group size of a launch (threads per block, all dimensions).
pub fn group_size(launch: &Launch) -> i64 {
    launch.plan.block_sizes.iter().product::<i64>().max(1)
}

pub fn atomic_type(elem: &str) -> Option<&'static str> {
    match crate::front::syntax::integer_kind(elem) {
        Some((32, true)) => Some("int"),
        Some((32, false)) => Some("uint"),
        Some((64, true)) => Some("long"),
        Some((64, false)) => Some("ulong"),
        Some(_) => None,
        None => match elem.trim() {
            "float" => Some("float"),
            "double" => Some("double"),
            _ => None,
        },
    }
}

/// The launches of one thread that follow a reduction launch at once in
/// the host code: `(j, i, unless)` where nothing runs between the end of
/// launch `i` and launch `j` whenever `i` runs. Each may sit under `if`s
/// (gramschmidt's square root runs for every step, its norm's reduction
/// only where the columns are not empty): where every condition of `j`'s
/// is one of `i`'s, `j` runs in the reduction's combining kernel, and on
/// its own only where the rest of `i`'s conditions (`unless`) fail. The
/// combining kernel runs on one work-group where every privatised
/// variable is a scalar. The kernel of one thread must have no
/// reductions, slices or tiles in local memory (its body goes inside a
/// branch of the combining kernel).
pub fn fused_epilogues(
    host: &Ast,
    launches: &[Launch],
    plans: &[Plan],
    has_slices: &dyn Fn(usize) -> bool,
) -> Vec<(usize, usize, Option<AExpr>)> {
    let mut out: Vec<(usize, usize, Option<AExpr>)> = Vec::new();
    host.walk(&mut |n| {
        let Ast::Block(items) = n else { return };
        for pair in items.windows(2) {
            let (Some((i, after)), Some((j, before))) =
                (edge_launch(&pair[0], true), edge_launch(&pair[1], false))
            else {
                continue;
            };
            let (Some(reduction), Some(single)) = (plans.get(i), launches.get(j)) else {
                continue;
            };
            let privs = &reduction.privatized;
            if !privs.is_empty()
                && privs.iter().all(|p| p.len == 1)
                && !has_slices(i)
                && single.plan.block_sizes.is_empty()
                && single.locals.iter().all(|a| !a.shared)
                && plans.get(j).is_some_and(|p| p.privatized.is_empty())
                && !has_slices(j)
                && before.iter().all(|c| after.contains(c))
                && !out
                    .iter()
                    .any(|&(a, b, _)| a == j || b == j || a == i || b == i)
            {
                let rest: Vec<AExpr> = after
                    .into_iter()
                    .filter(|c| !before.contains(c))
                    .cloned()
                    .collect();
                let unless = match rest.len() {
                    0 => None,
                    1 => rest.into_iter().next(),
                    _ => Some(AExpr::Op(AOp::And, rest)),
                };
                out.push((j, i, unless));
            }
        }
    });
    out
}

/// The launch that `a` runs last (`last`) or first, and the conditions of
/// the `if`s around it, split at `&&`: nothing else of `a` runs after
/// (before) it.
fn edge_launch(a: &Ast, last: bool) -> Option<(usize, Vec<&AExpr>)> {
    match a {
        Ast::Launch(i) => Some((*i, Vec::new())),
        Ast::Block(items) => edge_launch(if last { items.last()? } else { items.first()? }, last),
        Ast::If {
            cond,
            then_,
            else_: None,
        } => {
            let (i, mut conds) = edge_launch(then_, last)?;
            conjuncts(cond, &mut conds);
            Some((i, conds))
        }
        _ => None,
    }
}

fn conjuncts<'a>(e: &'a AExpr, out: &mut Vec<&'a AExpr>) {
    match e {
        AExpr::Op(AOp::And, args) => args.iter().for_each(|a| conjuncts(a, out)),
        _ => out.push(e),
    }
}
