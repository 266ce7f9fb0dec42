//! Region syntax to the polyhedral model.

use super::*;
use crate::diag::{Code, Diagnostic, Result};
use crate::front::affine::{compare, isl_name, AffineConverter, IntTy, NameKind, NotAffine, Pw};
use crate::front::cexpr::plain;
use crate::front::parse::{const_value, Region};
use crate::front::syntax::{
    has_own_jump, BinOp, ExprKind, Independent, RedOp, Stmt, Storage, UnOp, VarDecl,
};
use crate::isl::IslText;
use std::collections::{BTreeMap, BTreeSet};

mod accesses;
mod compound;
mod control;
mod finish;
mod index_width;
mod loops;
pub(super) use loops::iterators_used_outside;
mod statements;

pub use crate::front::arith::PURE_FUNCTIONS;

/// PENCIL's typed builtins that OpenCL C and CUDA lack under these names:
/// the back ends define them (pencil-headers/pencil_opencl.h,
/// pencil_cuda.h), plain C gets them from pencil.h.
pub const PENCIL_BUILTINS: &[&str] = &[
    "abs32", "abs64", "min32", "min64", "max32", "max64", "clamp32", "clamp64", "clamp", "lmin",
    "lmax", "lclamp", "umin", "umax", "uclamp", "ulmin", "ulmax", "labs", "fclamp", "fclampf",
    "imin", "imax",
];

/// C's and PENCIL's minimum and maximum functions of two values: the only
/// calls an update may combine with as a `min` or `max` reduction (a
/// user's `admin(s, x)` is no minimum).
pub const MIN_FUNCTIONS: &[&str] = &[
    "fmin", "fminf", "min", "imin", "lmin", "umin", "ulmin", "min32", "min64",
];
pub const MAX_FUNCTIONS: &[&str] = &[
    "fmax", "fmaxf", "max", "imax", "lmax", "umax", "ulmax", "max32", "max64",
];

pub fn is_pure_function(f: &str) -> bool {
    PURE_FUNCTIONS.contains(&f)
        || PENCIL_BUILTINS.contains(&f)
        // pet's `floord` and `ceild` used without a declaration
        // (`front::implicit`).
        || matches!(f, "pencilc_floord" | "pencilc_ceild" | "pencilc_intmod")
}

enum SchedDim {
    Pos(usize),
    Iter(String, i64),
}

/// A `#pragma pencil independent` loop: its depth (the index of its
/// iterator among the enclosing loops) and its clauses.
struct IndependentLoop {
    depth: usize,
    clauses: Independent,
}

/// The isl text of a kill before `finish` adds the parameters.
struct PendingKill {
    domain: String,
    sched: Vec<String>,
    kills: Vec<Access>,
    /// Whole arrays killed outside every loop, and the kill's position
    /// among the region's top-level statements.
    whole_top: Vec<(String, usize)>,
}

struct Builder<'r> {
    region: &'r Region,
    /// What `reshape` made of the region's pointers and flat arrays.
    plans: &'r BTreeMap<String, super::reshape::Plan>,
    /// Arrays whose subscripts `reshape` reported on already.
    reshape_reported: BTreeSet<String>,
    written: BTreeSet<String>,
    /// C names of the enclosing iterators.
    iters: Vec<String>,
    /// The C types of the loops' iterators declared in their `for`
    /// (innermost last), for the wrap-around of unsigned arithmetic.
    iter_types: Vec<(String, IntTy)>,
    constraints: Vec<String>,
    sched: Vec<SchedDim>,
    params: BTreeSet<String>,
    stmts: Vec<Statement>,
    /// Per statement: original schedule dims and domain constraints.
    sched_dims: Vec<Vec<String>>,
    dom_cons: Vec<Vec<String>>,
    array_use: BTreeMap<String, (bool, bool)>,
    /// Variables declared at the region's top level.
    locals: BTreeMap<String, VarDecl>,
    local_decls: Vec<String>,
    /// Facts and where they were assumed; `conditional_facts` holds
    /// those reached only under conditions or loops (`assume`).
    assumptions: Vec<(String, Loc)>,
    conditional_facts: BTreeSet<usize>,
    kills: Vec<PendingKill>,
    loops: Vec<IndependentLoop>,
    /// Indices into `loops` of the enclosing independent loops.
    indep_stack: Vec<usize>,
    /// Statements written as atomic calls (`atomic_add(&A[i], v)`).
    atomics: std::collections::BTreeSet<usize>,
    stmt_loops: Vec<Vec<usize>>,
    /// While collecting a compound statement's accesses: the iterators of
    /// its inner loops (existentially quantified in the relations), the
    /// affine facts known about them, and the names it declares.
    inner_iters: Vec<String>,
    inner_cons: Vec<String>,
    inner_locals: BTreeSet<String>,
    /// Every name the current compound statement's body declares.
    inner_declared: Vec<String>,
    /// Inside the branches of `?:` or the right operand of `&&`, `||`:
    /// reads there may not happen, so they are may-reads.
    conditional: usize,
    /// Inside the body of a summary function (which never runs: it
    /// describes the accesses of its function's calls).
    in_summary: bool,
    /// What is known there where it is affine (`i < n - 1` in
    /// `i < n - 1 ? x[i + 1] : 0`), as isl constraints: the reads are
    /// only of the instances where it holds, so that the footprint copied
    /// to a device is no more than C reads (`x[n]` past the array, which
    /// crashed the copy, or bytes another thread owns).
    guards: Vec<String>,
    warnings: Vec<Diagnostic>,
    /// A call whose effects the model cannot see (`CallFacts`): the
    /// region keeps the user's code.
    unseen_effects: bool,
    /// Arrays passed whole to a function whose summary does not use them:
    /// (statement tuple, array, callee, call). Where the statement has no
    /// access to the array, a kernel would get no buffer for it.
    unused_array_args: Vec<(String, String, String, Loc)>,
    /// Variables of the file that called functions read (callee,
    /// variable, call): where the region writes one, the model cannot
    /// order the call against the write.
    global_reads: Vec<(String, String, Loc)>,
    /// What each affine loop's iterator must satisfy (`loops`).
    loop_ranges: Vec<loops::LoopRange>,
    /// Affine loops whose iterators outlive the region.
    live_outs: Vec<loops::PendingLiveOut>,
    /// Variables whose loops are all kept as one statement (`build_with`).
    dynamic_vars: BTreeSet<String>,
    /// Variables of the region that a loop kept as one statement runs.
    run_by_compound: BTreeSet<String>,
    /// Functions without a body whose calls are taken as pure so far.
    assumed_pure: BTreeSet<String>,
    /// For the model's own checks while building.
    isl: crate::isl::Isl,
}

pub fn build_scop(region: &Region) -> Result<Scop> {
    build(region, true)
}

/// `build_scop` without rewriting searches and arg-max loops
/// (`last_writes`): the model of the code as written, which the driver
/// compiles too where the rewrite may cost more than it saves.
pub fn build_scop_as_written(region: &Region) -> Result<Scop> {
    build(region, false)
}

fn build(region: &Region, rewrite_searches: bool) -> Result<Scop> {
    // Iterators whose type wraps around and whose loops may take them
    // past its end: those loops run as written (`Built::Wraps`).
    let mut wrapping = BTreeSet::new();
    let mut wrap_warnings = Vec::new();
    // `i = 0; while (i < n) { ...; i++; }` is the `for` loop it counts.
    let counted = super::counted_whiles::rewritten(region);
    let region = counted.as_ref().unwrap_or(region);
    // A loop's own `continue` that skips the rest of its body becomes
    // the `else` of its `if`, so that the loop stays a loop.
    let restructured = super::continues::restructured(region);
    let region = restructured.as_ref().unwrap_or(region);
    // Reads of scalars that hold an index become the index's expression.
    let indexed = super::index_values::substituted(region);
    let region = indexed.as_ref().unwrap_or(region);
    'wraps: loop {
        // Iterators read after their loops read their final values, which
        // for a wrapping iterator's loop no formula gives.
        let rewritten = super::final_values::substituted(region, &wrapping);
        let region = rewritten.as_ref().unwrap_or(region);
        // Scalars a loop assigns only under a condition: the loop finds
        // the last iteration that does, the assignments follow it.
        let searched = rewrite_searches
            .then(|| super::last_writes::rewritten(region))
            .flatten();
        let region = searched.as_ref().unwrap_or(region);
        // Pointers and linearised subscripts first become arrays of their
        // shapes (`reshape`); a shape that holds nowhere the region runs is
        // given up, and the region built again with that array flat.
        let mut keep_flat = BTreeSet::new();
        let mut given_up = Vec::new();
        loop {
            let mut prepared = super::reshape::prepare(region, &keep_flat)?;
            prepared.reported.extend(keep_flat.iter().cloned());
            match build_with(&prepared, wrapping.clone())? {
                Built::Scop(mut scop) => {
                    let mut warnings = prepared.warnings;
                    warnings.append(&mut given_up);
                    warnings.append(&mut scop.warnings);
                    warnings.append(&mut wrap_warnings);
                    scop.warnings = warnings;
                    // The user's declarations, not the reshaped ones: what
                    // the function has is a pointer, whatever the model makes
                    // of it.
                    scop.frame = super::frame::frame(&region.symbols);
                    scop.searches_rewritten = searched.is_some();
                    return Ok(*scop);
                }
                // A loop whose iterator may wrap around its type runs as
                // written, where C's arithmetic wraps it as the sequential
                // program does (pet's unsigned2: `unsigned char k = 252;
                // (k % 9) <= 5; ++k` runs for 252 to 255, then 0 to 5).
                Built::Wraps(iter, why) if !wrapping.contains(&iter) => {
                    wrap_warnings.push(wraps_warning(&iter, &why));
                    wrapping.insert(iter);
                    continue 'wraps;
                }
                Built::Wraps(_, why) => return Err(why),
                Built::Flat(arrays) => {
                    for (name, why) in arrays {
                        if keep_flat.insert(name) {
                            given_up.push(why);
                        }
                    }
                }
            }
        }
    }
}

/// The warning for a loop run as written because its iterator may wrap,
/// with the check that found it (`why`: which values can leave the type,
/// so that a user can see a bound the check misses).
fn wraps_warning(iter: &str, why: &Diagnostic) -> Diagnostic {
    Diagnostic::warning(
        Code::IteratorRange,
        why.loc.clone(),
        format!(
            "the loop iterator `{}` may wrap around its type (pencilc's check: {}): its loops run as written, as one statement each, where C's arithmetic wraps it (a loop that wraps for ever never ends, as in the sequential program)",
            iter,
            why.message
        ),
    )
    .with_hint(format!(
        "to let pencilc parallelise the loop, bound it so that `{}` stays inside its type, or give `{}` a wider signed type",
        iter, iter
    ))
}

/// A scop, or the arrays whose delinearised shape never holds.
enum Built {
    Scop(Box<Scop>),
    Flat(Vec<(String, Diagnostic)>),
    /// The iterator whose type wraps around may leave its range (and why
    /// the model cannot hold its loops as loops).
    Wraps(String, Diagnostic),
}

/// The scop with every loop over the variables `dynamic` kept as one
/// statement. A variable that a kept loop runs (`compound`) and that an
/// affine loop leaves a final value in must have all its loops kept: the
/// affine loops' final values are assigned after the region, which would
/// undo a later kept loop's value (or be undone by its copy back).
fn build_with(prepared: &super::reshape::Prepared, dynamic: BTreeSet<String>) -> Result<Built> {
    let region = &prepared.region;
    check_const_writes(&region.body, &region.symbols)?;
    let mut written = BTreeSet::new();
    collect_written(&region.body, &region.symbols, &mut written);
    // A loop run as written assigns its iterator: no parameter (the value
    // read after the loop is the loop's last). The iterators used outside
    // their loops are among them once the model is built (below).
    written.extend(dynamic.iter().cloned());
    let mut b = Builder {
        region,
        plans: &prepared.plans,
        reshape_reported: prepared.reported.clone(),
        written,
        iters: vec![],
        iter_types: vec![],
        constraints: vec![],
        sched: vec![],
        params: BTreeSet::new(),
        stmts: vec![],
        sched_dims: vec![],
        dom_cons: vec![],
        array_use: BTreeMap::new(),
        locals: BTreeMap::new(),
        local_decls: vec![],
        assumptions: vec![],
        conditional_facts: BTreeSet::new(),
        kills: vec![],
        loops: vec![],
        indep_stack: vec![],
        atomics: Default::default(),
        stmt_loops: vec![],
        inner_iters: vec![],
        inner_cons: vec![],
        inner_locals: BTreeSet::new(),
        inner_declared: Vec::new(),
        conditional: 0,
        in_summary: false,
        guards: Vec::new(),
        warnings: vec![],
        unseen_effects: false,
        unused_array_args: Vec::new(),
        global_reads: Vec::new(),
        loop_ranges: vec![],
        live_outs: vec![],
        dynamic_vars: dynamic.clone(),
        run_by_compound: BTreeSet::new(),
        assumed_pure: BTreeSet::new(),
        isl: crate::isl::Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS),
    };
    // Loops over a variable the region also uses outside them run as
    // written, the variable a scalar like any other.
    let outside = loops::iterators_used_outside(&region.body);
    if outside.keys().any(|v| !dynamic.contains(v)) {
        let mut all = dynamic.clone();
        all.extend(outside.keys().cloned());
        return build_with(prepared, all);
    }
    for (var, at) in &outside {
        b.warnings.push(
            Diagnostic::warning(
                Code::UnsupportedStatement,
                Some(at.clone()),
                format!(
                    "`{}` is used here outside the loops it is the iterator of: those loops run as written, one after the other, and `{}` is a variable like any other",
                    var, var
                ),
            )
            .with_hint(format!(
                "to let pencilc parallelise the loops, give them an iterator of their own (`for (int {} = ...)`) and keep what is needed after them in another variable",
                var
            )),
        );
    }
    // The extents of delinearised arrays are parameters of the model even
    // where no rewritten subscript mentions them.
    b.params
        .extend(prepared.extent_params.iter().map(|p| isl_name(p)));
    b.block(&region.body)?;
    let mixed: BTreeSet<String> = b
        .live_outs
        .iter()
        .map(|l| l.var.clone())
        .filter(|v| b.run_by_compound.contains(v) && !dynamic.contains(v))
        .collect();
    if !mixed.is_empty() {
        return build_with(prepared, dynamic.union(&mixed).cloned().collect());
    }
    b.finish()
}

/// A region whose code nests deeper than kernels allow stays on the host.
fn limit_nesting(scop: &mut Scop) {
    let (depth, deepest) = {
        let (d, s) = super::nesting::depth(&scop.stmts);
        (d, s.map(|s| s.loc.clone()))
    };
    if depth > super::nesting::MAX_STATEMENT_DEPTH {
        scop.warnings.push(
                Diagnostic::warning(
                    Code::Budget,
                    Some(deepest.unwrap_or_else(|| scop.loc.clone())),
                    format!(
                        "{}: the region's code nests brackets {} deep, beyond what OpenCL and CUDA compilers accept in a kernel (256 in all); the region keeps the original code",
                        scop.function, depth
                    ),
                )
                .with_hint("flatten the nesting (combine nested `if` conditions, name sub-expressions) to run it on the device"),
            );
        scop.host_only = true;
    }
}

/// `dims` padded with zeros to `depth` (at least one) dimensions.
fn pad(dims: &[String], depth: usize) -> String {
    let mut dims = dims.to_vec();
    while dims.len() < depth.max(1) {
        dims.push("0".into());
    }
    dims.join(", ")
}

/// The scop with what its accesses imply (`bounds`) added to its context
/// and domains, as checked facts.
fn assume_in_bounds(mut scop: Scop) -> Result<Scop> {
    let isl = crate::isl::Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
    let implied = super::bounds::implied_by_accesses(&isl, &scop)?;
    scop.warnings.extend(implied.outside);
    if let Some(facts) = implied.facts {
        assume_checked(&isl, &mut scop, facts)?;
    }
    Ok(scop)
}

/// `facts` join the scop's context, its domains and what the generated
/// code checks on entry (`Scop::checked`).
fn assume_checked(isl: &crate::isl::Isl, scop: &mut Scop, facts: isl_rs::Set) -> Result<()> {
    let err = |e| isl.err("scop", e);
    let with = |text: &str| -> Result<String> {
        let set = isl.set(text).map_err(err)?;
        let both = set
            .intersect_params(facts.copy().map_err(err)?)
            .map_err(err)?
            .coalesce()
            .map_err(err)?;
        both.text(isl, "scop")
    };
    scop.context = with(&scop.context)?;
    for st in scop.stmts.iter_mut() {
        st.domain = with(&st.domain)?;
    }
    scop.checked = Some(match &scop.checked {
        None => facts.text(isl, "scop")?,
        Some(c) => with(c)?,
    });
    Ok(())
}

/// The pairs of arrays that C lets share memory although the model
/// assumes they do not (`Scop::may_alias`): a pointer (an array
/// parameter, or a pointer variable) without `restrict` may point into any
/// array it could name (a global, or for a local pointer, the function's
/// own arrays too) or into what another pointer points to. `plans` says
/// which arrays the user declared as pointers (`reshape`).
fn may_alias(
    arrays: &[Array],
    params: &[String],
    symbols: &BTreeMap<String, VarDecl>,
    plans: &BTreeMap<String, super::reshape::Plan>,
) -> Vec<(String, String)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Kind {
        Pointer(Storage),
        Object(Storage),
    }
    let kind = |a: &Array| -> Option<Kind> {
        if a.local || a.is_scalar() {
            return None;
        }
        let d = symbols.get(&a.name)?;
        if d.restrict || d.pencil_array {
            return None;
        }
        // A struct parameter is a copy of the caller's, not a pointer.
        let pointer = (d.storage == Storage::Param && !d.is_struct_object())
            || plans.get(&a.name).is_some_and(|p| p.pointer);
        Some(if pointer {
            Kind::Pointer(d.storage)
        } else {
            Kind::Object(d.storage)
        })
    };
    let mut pairs = Vec::new();
    for (i, a) in arrays.iter().enumerate() {
        for b in &arrays[i + 1..] {
            let (Some(ka), Some(kb)) = (kind(a), kind(b)) else {
                continue;
            };
            let may = match (ka, kb) {
                (Kind::Pointer(_), Kind::Pointer(_)) => true,
                (Kind::Pointer(p), Kind::Object(o)) | (Kind::Object(o), Kind::Pointer(p)) => {
                    o == Storage::Global || p != Storage::Param
                }
                (Kind::Object(_), Kind::Object(_)) => false,
            };
            if may && (a.written || b.written) {
                pairs.push((a.name.clone(), b.name.clone()));
            }
        }
    }
    // A pointer may also point at a scalar it could name (`int *p = &x;`,
    // `f(&g)` of a global g), which the generated code keeps in a buffer
    // or passes by value: the scalars the region reads or writes (and
    // its integer parameters, which it reads) against each pointer, where
    // one of the two is written.
    let scalars = arrays
        .iter()
        .filter(|a| a.is_scalar() && !a.local && a.members.is_empty())
        .map(|a| (a.name.as_str(), a.written))
        .chain(params.iter().map(|p| (p.as_str(), false)));
    for (name, written) in scalars {
        let Some(d) = symbols
            .get(name)
            .filter(|d| d.rank() == 0 && !d.pointer && !d.is_struct_object())
        else {
            continue;
        };
        for a in arrays {
            if let Some(Kind::Pointer(p)) = kind(a) {
                if (d.storage == Storage::Global || p != Storage::Param) && (written || a.written) {
                    pairs.push((a.name.clone(), name.to_string()));
                }
            }
        }
    }
    pairs
}

/// Iterators are the enclosing loops' variables; parameters are integer
/// scalars the region never writes; everything else is data.
pub(super) fn classify_name(
    iters: &[String],
    written: &BTreeSet<String>,
    symbols: &BTreeMap<String, VarDecl>,
    name: &str,
) -> NameKind {
    if iters.iter().any(|i| i == name) {
        NameKind::Iterator
    } else if matches!(symbols.get(name), Some(d) if d.is_integer()) && !written.contains(name) {
        NameKind::Parameter
    } else {
        NameKind::Other
    }
}

/// Names the region may change: assigned variables, locals, and arrays
/// passed to calls (which may write them).
/// C forbids assignments to what is declared `const`; a compiler rejects
/// them, so pencilc must not translate them into code that compiles.
/// Locals declared in the region shadow outer names for the rest of their
/// block.
fn check_const_writes(body: &[Stmt], symbols: &BTreeMap<String, VarDecl>) -> Result<()> {
    let mut scope = symbols.clone();
    for s in body {
        match s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => check_const_writes(body, &scope)?,
            Stmt::If { then_, else_, .. } => {
                check_const_writes(then_, &scope)?;
                check_const_writes(else_, &scope)?;
            }
            Stmt::Assign { lhs, .. } => {
                if let Some(n) = base_name(lhs) {
                    if scope.get(n).is_some_and(|d| d.read_only) {
                        return Err(Diagnostic::error(
                            Code::Syntax,
                            Some(lhs.loc.clone()),
                            format!("`{}` is declared const and cannot be assigned", n),
                        )
                        .with_hint(
                            "pencilc translates this code, so it must be valid C: fix it as your C compiler asks",
                        ));
                    }
                }
            }
            Stmt::Decl { var, .. } => {
                scope.insert(var.name.clone(), var.clone());
            }
            _ => {}
        }
    }
    Ok(())
}

pub(super) fn collect_written(
    body: &[Stmt],
    symbols: &BTreeMap<String, VarDecl>,
    out: &mut BTreeSet<String>,
) {
    for s in body {
        match s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => {
                collect_written(body, symbols, out)
            }
            Stmt::If { then_, else_, .. } => {
                collect_written(then_, symbols, out);
                collect_written(else_, symbols, out);
            }
            Stmt::Assign { lhs, .. } => {
                if let Some(n) = base_name(lhs) {
                    out.insert(n.to_string());
                }
            }
            Stmt::Decl { var, .. } => {
                out.insert(var.name.clone());
            }
            Stmt::Call { args, .. } => {
                for a in args {
                    // `&x` (`&A[i][0]`) lets the callee write `x`, whatever
                    // its rank: a scalar passed so is no parameter of the
                    // region (its reads were taken for a value fixed at
                    // entry, which the call changes).
                    let (a, addressed) = match &a.kind {
                        ExprKind::Unary(UnOp::AddrOf, x) => (x.as_ref(), true),
                        _ => (a, false),
                    };
                    if let Some(n) = base_name(a) {
                        if addressed || symbols.get(n).is_some_and(|d| d.rank() > 0) {
                            out.insert(n.to_string());
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

fn base_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        ExprKind::Index(b, _) => base_name(b),
        _ => None,
    }
}

/// Subscripts of an access chain, outermost first.
fn subscripts(e: &Expr) -> Vec<&Expr> {
    let mut subs = Vec::new();
    let mut cur = e;
    while let ExprKind::Index(b, i) = &cur.kind {
        subs.push(i.as_ref());
        cur = b;
    }
    subs.reverse();
    subs
}

/// The value a reduction statement combines into its variable, if the
/// assignment has the reduction's form: `v += e`, `v -= e` (value `-e`),
/// `v = v + e`, `v *= e`, `v = min(v, e)`, `v = max(e, v)` (any typed min
/// or max builtin).
pub fn reduction_value(lhs: &Expr, op: AssignOp, rhs: &Expr, red: RedOp) -> Option<Expr> {
    reduction_value_in(lhs, op, rhs, red, None)
}

/// `reduction_value` where the value is computed: a chain (`v = v - a -
/// 1`) gives `(T) 0 - a - 1` in the variable's type `acc`, so that each
/// step's arithmetic is the one C does on `v` (in `int`, `-a - 1`
/// could overflow where `long` `v - a - 1` does not).
pub fn reduction_value_in(
    lhs: &Expr,
    op: AssignOp,
    rhs: &Expr,
    red: RedOp,
    acc: Option<&str>,
) -> Option<Expr> {
    let me = crate::front::cexpr::plain(lhs);
    let same = |e: &Expr| crate::front::cexpr::prints_as(e, &me);
    if op == AssignOp::Assign && matches!(red, RedOp::Add | RedOp::Mul) {
        let free = |e: &Expr| !reads_same(e, lhs);
        if let Some(terms) = update_chain(rhs, red == RedOp::Mul, &same, &free) {
            if terms.len() > 1 {
                return Some(chain_value(red, &terms, acc));
            }
        }
    }
    let neg = |e: &Expr| Expr {
        kind: ExprKind::Unary(UnOp::Neg, Box::new(e.clone())),
        loc: e.loc.clone(),
    };
    match (red, op) {
        (RedOp::Add, AssignOp::Add) => Some(rhs.clone()),
        (RedOp::Add, AssignOp::Sub) => Some(neg(rhs)),
        (RedOp::Mul, AssignOp::Mul) => Some(rhs.clone()),
        (_, AssignOp::Assign) => match (&rhs.kind, red) {
            (ExprKind::Binary(BinOp::Add, a, b), RedOp::Add)
            | (ExprKind::Binary(BinOp::Mul, a, b), RedOp::Mul) => {
                if same(a) && !reads_same(b, lhs) {
                    Some((**b).clone())
                } else if same(b) && !reads_same(a, lhs) {
                    Some((**a).clone())
                } else {
                    None
                }
            }
            (ExprKind::Binary(bop, a, b), _) if RedOp::bitwise(*bop) == Some(red) => {
                if same(a) && !reads_same(b, lhs) {
                    Some((**b).clone())
                } else if same(b) && !reads_same(a, lhs) {
                    Some((**a).clone())
                } else {
                    None
                }
            }
            (ExprKind::Binary(BinOp::Sub, a, b), RedOp::Add) if same(a) && !reads_same(b, lhs) => {
                Some(neg(b))
            }
            (ExprKind::Cond(c, a, b), RedOp::Min | RedOp::Max) => {
                let (found, p, q) = conditional_min_max(c, a, b)?;
                if found != red {
                    return None;
                }
                if same(p) && !reads_same(q, lhs) {
                    Some(q.clone())
                } else if same(q) && !reads_same(p, lhs) {
                    Some(p.clone())
                } else {
                    None
                }
            }
            (ExprKind::Call(f, args), RedOp::Min | RedOp::Max) if args.len() == 2 => {
                let known = if red == RedOp::Min {
                    MIN_FUNCTIONS
                } else {
                    MAX_FUNCTIONS
                };
                if !known.contains(&f.as_str()) {
                    return None;
                }
                if same(&args[0]) && !reads_same(&args[1], lhs) {
                    Some(args[1].clone())
                } else if same(&args[1]) && !reads_same(&args[0], lhs) {
                    Some(args[0].clone())
                } else {
                    None
                }
            }
            _ => None,
        },
        _ => None,
    }
}

/// The terms of `rhs`, an accumulation into `v` written as a chain that
/// starts from `v` (`is_me`): `v - a - 1` is `(v - a) - 1`, `a + v + b` is
/// `(a + v) + b`, `v * 3 * x` is `(v * 3) * x`; each with whether it is
/// subtracted. Products (`mul`) or sums and differences; the other
/// operands must not read `v` (`free`).
pub fn update_chain<'e>(
    rhs: &'e Expr,
    mul: bool,
    is_me: &dyn Fn(&Expr) -> bool,
    free: &dyn Fn(&Expr) -> bool,
) -> Option<Vec<(bool, &'e Expr)>> {
    fn walk<'e>(
        e: &'e Expr,
        mul: bool,
        is_me: &dyn Fn(&Expr) -> bool,
        free: &dyn Fn(&Expr) -> bool,
        terms: &mut Vec<(bool, &'e Expr)>,
    ) -> bool {
        if is_me(e) {
            return true;
        }
        let ExprKind::Binary(op, a, b) = &e.kind else {
            return false;
        };
        match op {
            BinOp::Add | BinOp::Mul if (*op == BinOp::Mul) == mul => {
                if free(b) && walk(a, mul, is_me, free, terms) {
                    terms.push((false, b));
                    return true;
                }
                // The chain down `b` first: what it fails on is found
                // within its depth, where `free(a)` reads all of `a` (at
                // every step of a long chain that is not one).
                let mark = terms.len();
                if walk(b, mul, is_me, free, terms) && free(a) {
                    terms.push((false, a));
                    return true;
                }
                terms.truncate(mark);
                false
            }
            BinOp::Sub if !mul && free(b) && walk(a, mul, is_me, free, terms) => {
                terms.push((true, b));
                true
            }
            _ => false,
        }
    }
    let mut terms = Vec::new();
    (walk(rhs, mul, is_me, free, &mut terms) && !terms.is_empty()).then_some(terms)
}

/// The value of a chain's terms: the operator's identity in the
/// variable's type (where known), then each term as the chain applies it.
fn chain_value(red: RedOp, terms: &[(bool, &Expr)], acc: Option<&str>) -> Expr {
    let loc = terms[0].1.loc.clone();
    let mk = |kind| Expr {
        kind,
        loc: loc.clone(),
    };
    let identity = if red == RedOp::Mul { 1 } else { 0 };
    let mut value = mk(ExprKind::Int(identity, identity.to_string()));
    if let Some(t) = acc {
        value = mk(ExprKind::Cast(t.to_string(), Box::new(value)));
    }
    for (negated, term) in terms {
        let op = match (red, negated) {
            (RedOp::Mul, _) => BinOp::Mul,
            (_, true) => BinOp::Sub,
            (_, false) => BinOp::Add,
        };
        value = mk(ExprKind::Binary(
            op,
            Box::new(value),
            Box::new((*term).clone()),
        ));
    }
    value
}

/// The minimum or maximum that `c ? a : b` computes, and its two operands:
/// `p < q ? p : q` (and `<=`) is `min(p, q)`, with `>` (`>=`) `max(p, q)`;
/// with the arms the other way round (`p < q ? q : p`) the other one.
/// `None` for any other conditional.
pub fn conditional_min_max<'e>(
    c: &'e Expr,
    a: &'e Expr,
    b: &'e Expr,
) -> Option<(RedOp, &'e Expr, &'e Expr)> {
    let ExprKind::Binary(cmp, p, q) = &c.kind else {
        return None;
    };
    let less = match cmp {
        BinOp::Lt | BinOp::Le => true,
        BinOp::Gt | BinOp::Ge => false,
        _ => return None,
    };
    let (p, q) = (&**p, &**q);
    if plain(p) == plain(a) && plain(q) == plain(b) {
        Some((if less { RedOp::Min } else { RedOp::Max }, p, q))
    } else if plain(p) == plain(b) && plain(q) == plain(a) {
        Some((if less { RedOp::Max } else { RedOp::Min }, p, q))
    } else {
        None
    }
}

/// The operator of an atomic update as the front end writes it: `+=`/`-=`
/// (`atomic_add`, `atomic_inc`, ...) or `x = v < x ? v : x` (`atomic_min`,
/// `atomic_max` with `>`).
fn atomic_op(op: AssignOp, rhs: &Expr) -> RedOp {
    match (&rhs.kind, op) {
        (ExprKind::Cond(c, _, _), AssignOp::Assign) => match &c.kind {
            ExprKind::Binary(BinOp::Gt, _, _) => RedOp::Max,
            _ => RedOp::Min,
        },
        _ => RedOp::Add,
    }
}

/// Whether `e` reads the element `lhs` itself (by its text, as the
/// model's recogniser does: `scop::reductions`). Other elements of its
/// array it may read; whether an update writes what another reads is the
/// model's question (`updates_commute`), and a value that reads the array
/// keeps it from private copies (`reduction_uses`).
fn reads_same(e: &Expr, lhs: &Expr) -> bool {
    crate::front::cexpr::count_printed_as(e, &plain(lhs)) > 0
}

impl<'r> Builder<'r> {
    fn decl(&self, name: &str) -> Option<&VarDecl> {
        self.locals
            .get(name)
            .or_else(|| self.region.symbols.get(name))
    }

    /// The C integer type of an iterator or parameter (`int` for names
    /// of no integer type, which the converter rejects anyway).
    pub(super) fn int_type(&self, name: &str) -> IntTy {
        if let Some((_, t)) = self.iter_types.iter().rev().find(|(n, _)| n == name) {
            return *t;
        }
        self.decl(name)
            .and_then(|d| IntTy::of(&d.base_type))
            .unwrap_or(IntTy::INT)
    }

    fn all_iters(&self) -> Vec<String> {
        self.iters
            .iter()
            .chain(self.inner_iters.iter())
            .cloned()
            .collect()
    }

    fn classify(&self, name: &str) -> NameKind {
        // Inside its loop, a region's local that the loop runs (`int i;
        // for (i = 0; ...)`) is the loop's iterator; the front end renames
        // every local that hides another name, so no local of a loop's
        // body has its iterator's name.
        let iter = self.all_iters().iter().any(|i| i == name);
        if !iter && (self.inner_locals.contains(name) || self.locals.contains_key(name)) {
            return NameKind::Other;
        }
        classify_name(&self.all_iters(), &self.written, &self.region.symbols, name)
    }

    fn convert<T>(
        &mut self,
        f: impl FnOnce(&mut AffineConverter) -> std::result::Result<T, NotAffine>,
        code: Code,
        e: &Expr,
        what: &str,
    ) -> Result<T> {
        match self.try_convert(f) {
            Ok(v) => Ok(v),
            Err(na) => Err(self.affine_error(na, code, e, what)),
        }
    }

    /// Converts if the expression is affine; the parameters it uses join
    /// the region's only on success.
    fn try_convert<T>(
        &mut self,
        f: impl FnOnce(&mut AffineConverter) -> std::result::Result<T, NotAffine>,
    ) -> std::result::Result<T, NotAffine> {
        let (result, params) = {
            let classify = |n: &str| self.classify(n);
            let types = |n: &str| self.int_type(n);
            let mut conv = AffineConverter::new(&classify).with_types(&types);
            (f(&mut conv), conv.params)
        };
        if result.is_ok() {
            self.params.extend(params);
        }
        result
    }

    fn affine_error(&self, na: NotAffine, code: Code, e: &Expr, what: &str) -> Diagnostic {
        // Name the most useful reason: unknown names and written values first.
        let mut names = Vec::new();
        e.idents(&mut names);
        if let Some(n) = names
            .iter()
            .find(|n| self.decl(n).is_none() && !self.iters.contains(n))
        {
            return Diagnostic::error(Code::UnknownIdentifier, Some(na.loc), format!("`{}` is not declared", n))
                .with_hint("declare it before the region; pencilc preprocesses the file with the -I and -D you pass");
        }
        Diagnostic::error(
            code,
            Some(na.loc),
            format!("{} `{}` is not affine: {}", what, plain(e), na.reason),
        )
        .with_hint(
            "here pencilc needs an affine expression of the loop iterators and the parameters",
        )
    }

    /// An unknown name is an error even where non-affine code is accepted.
    fn check_declared(&self, e: &Expr) -> Result<()> {
        let mut names = Vec::new();
        e.idents(&mut names);
        let iters = self.all_iters();
        for n in names {
            if self.decl(&n).is_none()
                && !iters.contains(&n)
                && !self.inner_locals.contains(&n)
                && n != "__pencil_maybe"
            {
                let at = find_ident(e, &n).unwrap_or_else(|| e.loc.clone());
                return Err(Diagnostic::error(
                    Code::UnknownIdentifier,
                    Some(at),
                    format!("`{}` is not declared", n),
                )
                .with_hint("declare it before the region; pencilc preprocesses the file with the -I and -D you pass"));
            }
        }
        Ok(())
    }
}

/// `var`'s `reduction(op: ...)` clause is broken by the use `u` in its loop.
fn broken_reduction(
    var: &str,
    op: RedOp,
    clauses: &Independent,
    u: super::reduction_uses::OtherUse,
) -> Diagnostic {
    let sign = op.clause_text();
    let clause = match &clauses.loc {
        Some(l) => format!(
            "the `reduction({}: {})` clause of line {}",
            sign, var, l.line
        ),
        None => format!("a `reduction({}: {})` clause", sign, var),
    };
    let what = if u.writes {
        format!(
            "this writes `{}`, which {} lets the loop only update with `{}`",
            var, clause, sign
        )
    } else {
        format!(
            "this reads `{}`, which {} lets the loop only update: the iterations run in any order, so what this reads would depend on which updates ran before it",
            var, clause
        )
    };
    let update = match op {
        RedOp::Min | RedOp::Max => format!("{} = {}({}, e)", var, sign, var),
        _ => format!("{} {}= e", var, sign),
    };
    Diagnostic::error(Code::UnsupportedStatement, Some(u.loc), what).with_hint(format!(
        "use `{}` in the loop only in updates such as `{}` (with `e` not reading it) and read it after the loop, or drop `reduction({}: {})` where the loop needs its running value",
        var, update, sign, var
    ))
}

fn recursion(name: &str, loc: &Loc) -> Diagnostic {
    Diagnostic::error(
        Code::Recursion,
        Some(loc.clone()),
        format!("`{}` calls itself: PENCIL functions may not be recursive", name),
    )
    .with_hint("OpenCL kernels cannot recurse; rewrite the recursion as a loop (with an explicit stack array if needed)")
}

fn find_ident(e: &Expr, name: &str) -> Option<Loc> {
    match &e.kind {
        ExprKind::Ident(n) if n == name => Some(e.loc.clone()),
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            find_ident(a, name).or_else(|| find_ident(b, name))
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => find_ident(a, name),
        ExprKind::Cond(a, b, c) => find_ident(a, name)
            .or_else(|| find_ident(b, name))
            .or_else(|| find_ident(c, name)),
        ExprKind::Call(_, args) => args.iter().find_map(|a| find_ident(a, name)),
        _ => None,
    }
}

fn contains_access(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Index(..) => true,
        ExprKind::Binary(_, a, b) => contains_access(a) || contains_access(b),
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => contains_access(a),
        ExprKind::Cond(a, b, c) => contains_access(a) || contains_access(b) || contains_access(c),
        ExprKind::Call(_, args) => args.iter().any(contains_access),
        _ => false,
    }
}
