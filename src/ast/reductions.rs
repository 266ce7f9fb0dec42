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

use super::{convert_expr, AExpr, AOp, Ast, Launch, STAGE};
use crate::diag::{Code, Diagnostic, Result};
use crate::front::syntax::RedOp;
use crate::isl::ast_build::expr_from_params_pw_aff;
use crate::isl::{Isl, IslResultExt};
use crate::scop::{only_reduction_uses, update_values_read, Extent, Scop};
use isl_rs::{Set, UnionSet};
use std::collections::BTreeSet;

/// Threads per work-group of a combining kernel: they stride over the
/// groups' partials, then meet in a tree in local memory. A work-group per
/// element: no single thread walks all the partials (a reduction over
/// 10^7 elements leaves some 10^5 of them).
pub const COMBINE_THREADS: i64 = 128;

/// Whether a launch's last block to finish combines its partials (in
/// the launch itself: a thread fence, a counter, `kernelN_combine` as a
/// device function) rather than a combining kernel launched after it:
/// CUDA only, whose memory model makes the blocks' partials visible to
/// the block that sees the counter reach the grid's size after a fence.
/// OpenCL 1.2 promises no such visibility between work-groups of one
/// kernel, so it keeps the combining kernel. `PENCILC_COMBINE=kernel` in
/// pencilc's environment keeps it for CUDA too (to measure both).
pub fn last_block_combines(cuda: bool) -> bool {
    cuda && std::env::var("PENCILC_COMBINE").as_deref() != Ok("kernel")
}

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
#[derive(Clone, Debug, PartialEq)]
pub struct Privatized {
    pub var: String,
    /// Element type as C text (from the scop).
    pub elem_type: String,
    pub op: RedOp,
    /// Elements: 1 for a scalar.
    pub len: i64,
    /// The declared extents (empty for a scalar), for linearising.
    pub extents: Vec<i64>,
    /// Where every update of an array in the launch accumulates into one
    /// element (`UpdatedElement`): its subscripts over the launch's host
    /// values and the parameters. The private copy is of that element
    /// alone (`len` 1), the kernel reads the array's other elements in
    /// global memory, and the combining kernel adds the partials into
    /// that element.
    pub at: Option<Vec<AExpr>>,
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
    /// The combining kernel's argument that holds the linear index of
    /// the one element the launch updates (`at`).
    pub fn at_name(&self) -> String {
        format!("pencilc_at_{}", self.var)
    }
}

/// An array reduction variable whose updates in one launch all accumulate
/// into one element, which nothing else in the launch reads or writes
/// (ludcmp's back substitution: launch `i` adds the row's products into
/// `x[i]` and reads `x[j]`, `j > i`): the launch combines its updates in
/// a tree as it would a scalar's, where atomic updates of one address
/// from every thread serialise.
#[derive(Clone, Debug, PartialEq)]
pub struct UpdatedElement {
    pub var: String,
    /// Over the launch's host values (`h0`, ...) and the parameters.
    pub subscripts: Vec<AExpr>,
}

/// The `UpdatedElement`s of the launch that runs `instances` (statement
/// instances with the launch's host values as parameters) under
/// `context`.
pub(super) fn updated_elements(
    isl: &Isl,
    scop: &Scop,
    instances: &UnionSet,
    context: &Set,
) -> Result<Vec<UpdatedElement>> {
    // The launch's statements and their instances.
    let mut domains: Vec<(usize, Set)> = Vec::new();
    let sets = instances.get_set_list().isl(isl, STAGE)?;
    for i in 0..sets.size().isl(isl, STAGE)? {
        let set = sets.get_at(i).isl(isl, STAGE)?;
        if set.is_empty().isl(isl, STAGE)? {
            continue;
        }
        let name = set.get_tuple_name().isl(isl, STAGE)?;
        if let Some(s) = scop.stmts.iter().position(|s| s.name == name) {
            domains.push((s, set));
        }
    }
    let mut vars: Vec<(String, RedOp)> = Vec::new();
    for (s, _) in &domains {
        for (v, op) in &scop.stmts[*s].reductions {
            if !vars.iter().any(|(w, _)| w == v) {
                vars.push((v.clone(), *op));
            }
        }
    }
    let mut out = Vec::new();
    'vars: for (var, op) in vars {
        let Some(array) = scop.array(&var) else {
            continue;
        };
        if array.is_scalar() {
            continue;
        }
        // Elements the updates accumulate into, and those that anything
        // else in the launch touches.
        let mut updated: Option<Set> = None;
        let mut other: Vec<Set> = Vec::new();
        for (s, dom) in &domains {
            let st = &scop.stmts[*s];
            let update = st.reductions.iter().find(|(v, _)| v == &var);
            if update.is_some_and(|(_, o)| *o != op)
                || (update.is_some() && !only_reduction_uses(&st.body, &var, op))
            {
                continue 'vars;
            }
            let own: Vec<&str> = st
                .writes
                .iter()
                .filter(|a| a.array == var)
                .map(|a| a.relation.as_str())
                .collect();
            for (a, write) in st
                .writes
                .iter()
                .map(|a| (a, true))
                .chain(st.reads.iter().map(|a| (a, false)))
            {
                if a.array != var {
                    continue;
                }
                let elems = dom
                    .copy()
                    .isl(isl, STAGE)?
                    .apply(isl.map(&a.relation).isl(isl, STAGE)?)
                    .isl(isl, STAGE)?;
                // An update's write (a may-write too: an update that does
                // not run leaves the private copy's identity), and its
                // reads of that element (the accumulation's own:
                // `updates_commute` lets no other read of it through).
                if update.is_some() && (write || own.contains(&a.relation.as_str())) {
                    updated = Some(match updated {
                        None => elems,
                        Some(u) => u.union(elems).isl(isl, STAGE)?,
                    });
                } else {
                    other.push(elems);
                }
            }
        }
        let Some(updated) = updated else { continue };
        let updated = updated
            .intersect_params(context.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        if updated.is_empty().isl(isl, STAGE)? {
            continue;
        }
        // One element for each value of the host values and parameters
        // (isl's lexmin is an error on an unbounded set: a subscript
        // that is not affine may write any element of a VLA).
        if !updated.is_bounded().isl(isl, STAGE)? {
            continue;
        }
        let first = updated.copy().isl(isl, STAGE)?.lexmin().isl(isl, STAGE)?;
        if !first.is_equal(&updated).isl(isl, STAGE)? {
            continue;
        }
        for o in other {
            let meet = o
                .intersect(updated.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            if !meet.is_empty().isl(isl, STAGE)? {
                continue 'vars;
            }
        }
        let runs = updated.copy().isl(isl, STAGE)?.params().isl(isl, STAGE)?;
        let mut subscripts = Vec::new();
        for k in 0..array.extents.len() {
            let pa = updated
                .copy()
                .isl(isl, STAGE)?
                .dim_max(k as i32)
                .isl(isl, STAGE)?;
            let e = expr_from_params_pw_aff(isl, runs.copy().isl(isl, STAGE)?, pa)?;
            subscripts.push(convert_expr(isl, &e)?.simplify());
        }
        out.push(UpdatedElement { var, subscripts });
    }
    Ok(out)
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
        // Where the launch accumulates into one element of the array,
        // a tree of that element whatever else it does with the others;
        // not in a kernel of one thread, whose updates wait for nothing
        // (and which may run in another reduction's combining kernel).
        // The host linearises the element with the array's extents (a
        // VLA's too) less its buffer's offset, in the kernels' `int`
        // where an extent or the offset is known at run time only.
        let at_fits = scop.index_type == "int"
            || (!array.has_offset() && array.extents.iter().all(|e| matches!(e, Extent::Const(_))));
        if why_not.is_some()
            && at_fits
            && !promoted.contains(&var)
            && !launch.plan.block_sizes.is_empty()
        {
            let one = group_size(launch) * elem_bytes;
            if let Some(u) = launch.updated_elements.iter().find(|u| u.var == var) {
                if local_bytes + one <= MAX_PRIVATE_LOCAL_BYTES {
                    local_bytes += one;
                    out.notes.push(format!(
                        "kernel[{}] {}: {} reduction into one element per launch ({}[{}]), private copy per thread, work-group tree in local memory, partials combined by {}_combine",
                        launch.plan.number,
                        var,
                        op.name(),
                        var,
                        u.subscripts.iter().map(AExpr::to_c).collect::<Vec<_>>().join("]["),
                        kernel
                    ));
                    out.privatized.push(Privatized {
                        var,
                        elem_type: array.elem_type.clone(),
                        op,
                        len: 1,
                        extents,
                        at: Some(u.subscripts.clone()),
                    });
                    continue;
                }
            }
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
                    at: None,
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
                // A kernel of one thread updates in its own order.
                let one_thread = launch.plan.block_sizes.is_empty() && launch.plan.n_block == 0;
                let inexact = float && op != RedOp::Min && op != RedOp::Max && !one_thread;
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

/// The statements of `launch` whose updates are atomic (not privatized by
/// `plan`) and all of one element (`Launch::updated_elements`): on a GPU
/// they wait for each other, every thread's at one address.
pub fn serial_updates(scop: &Scop, launch: &Launch, plan: &Plan) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    if launch.plan.block_sizes.is_empty() {
        // One thread: nothing to wait for.
        return out;
    }
    launch.body.walk(&mut |n| {
        if let Ast::User { stmt, .. } = n {
            let serial = scop.stmts[stmt.0].reductions.iter().any(|(v, _)| {
                launch.updated_elements.iter().any(|u| &u.var == v)
                    && !plan.privatized.iter().any(|p| &p.var == v)
            });
            if serial {
                out.insert(stmt.0);
            }
        }
    });
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
/// branch of the combining kernel). Where the reduction launch's last
/// block combines (`last_block`, CUDA), the kernel of one thread must
/// also touch nothing the launch's statements write but its privatised
/// variables: it runs in that block, whose plain loads need not see
/// what other blocks of the same launch wrote (only the partials are
/// read `volatile`).
pub fn fused_epilogues(
    scop: &Scop,
    host: &Ast,
    launches: &[Launch],
    plans: &[Plan],
    has_slices: &dyn Fn(usize) -> bool,
    last_block: bool,
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
                && (!last_block
                    || launches
                        .get(i)
                        .is_some_and(|l| touches_none_written(scop, single, l, privs)))
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

/// Whether the statements of `single` access no array that those of
/// `launch` write, privatised variables aside.
fn touches_none_written(
    scop: &Scop,
    single: &Launch,
    launch: &Launch,
    privs: &[Privatized],
) -> bool {
    let stmts = |l: &Launch| {
        let mut out = BTreeSet::new();
        l.body.walk(&mut |n| {
            if let Ast::User { stmt, .. } = n {
                out.insert(stmt.0);
            }
        });
        out
    };
    let written: BTreeSet<&str> = stmts(launch)
        .into_iter()
        .flat_map(|s| scop.stmts[s].writes.iter().map(|a| a.array.as_str()))
        .filter(|a| !privs.iter().any(|p| p.var == *a))
        .collect();
    stmts(single).into_iter().all(|s| {
        let st = &scop.stmts[s];
        st.reads
            .iter()
            .chain(&st.writes)
            .all(|a| !written.contains(a.array.as_str()))
    })
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
