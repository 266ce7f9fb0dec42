//! Region syntax to the polyhedral model.

use super::*;
use crate::diag::{Code, Diagnostic, Result};
use crate::front::affine::{compare, isl_name, AffineConverter, IntTy, NameKind, NotAffine, Pw};
use crate::front::cexpr::plain;
use crate::front::parse::{const_value, Region};
use crate::front::syntax::{BinOp, ExprKind, Independent, RedOp, Stmt, Storage, UnOp, VarDecl};
use std::collections::{BTreeMap, BTreeSet};

mod compound;
mod loops;

/// Math functions that are pure and exist in C, OpenCL C and CUDA (the
/// OpenCL back end drops the `f` suffix of the float versions, since
/// OpenCL C's builtins are overloaded).
pub const PURE_FUNCTIONS: &[&str] = &[
    "sqrt", "sqrtf", "exp", "expf", "exp2", "exp2f", "log", "logf", "log2", "log2f", "log10",
    "log10f", "pow", "powf", "fabs", "fabsf", "abs", "sin", "sinf", "cos", "cosf", "tan", "tanf",
    "asin", "asinf", "acos", "acosf", "atan", "atanf", "atan2", "atan2f", "sinh", "sinhf", "cosh",
    "coshf", "tanh", "tanhf", "floor", "floorf", "ceil", "ceilf", "fmin", "fminf", "fmax", "fmaxf",
    "fmod", "fmodf", "round", "roundf", "trunc", "truncf", "cbrt", "cbrtf", "hypot", "hypotf",
    "erf", "erff", "min", "max", "atan2pi", "atan2pif", "mix", "mixf", "rsqrt", "rsqrtf", "exp10",
    "exp10f",
];

/// PENCIL's typed builtins that OpenCL C and CUDA lack under these names:
/// the back ends define them (pencil-headers/pencil_opencl.h,
/// pencil_cuda.h), plain C gets them from pencil.h.
pub const PENCIL_BUILTINS: &[&str] = &[
    "abs32", "abs64", "min32", "min64", "max32", "max64", "clamp32", "clamp64", "clamp", "lmin",
    "lmax", "lclamp", "umin", "umax", "uclamp", "ulmin", "ulmax", "labs", "fclamp", "fclampf",
    "imin", "imax",
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
    warnings: Vec<Diagnostic>,
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
    // Iterators read after their loops read their final values.
    let rewritten = super::final_values::substituted(region);
    let region = rewritten.as_ref().unwrap_or(region);
    // Pointers and linearised subscripts first become arrays of their
    // shapes (`reshape`); a shape that holds nowhere the region runs is
    // given up, and the region built again with that array flat.
    let mut keep_flat = BTreeSet::new();
    let mut given_up = Vec::new();
    loop {
        let mut prepared = super::reshape::prepare(region, &keep_flat)?;
        prepared.reported.extend(keep_flat.iter().cloned());
        match build_with(&prepared, BTreeSet::new())? {
            Built::Scop(mut scop) => {
                let mut warnings = prepared.warnings;
                warnings.append(&mut given_up);
                warnings.append(&mut scop.warnings);
                scop.warnings = warnings;
                // The user's declarations, not the reshaped ones: what
                // the function has is a pointer, whatever the model makes
                // of it.
                scop.frame = super::frame::frame(&region.symbols);
                return Ok(*scop);
            }
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

/// A scop, or the arrays whose delinearised shape never holds.
enum Built {
    Scop(Box<Scop>),
    Flat(Vec<(String, Diagnostic)>),
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
        warnings: vec![],
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
        Ok(both.to_str().map_err(err)?.to_string())
    };
    scop.context = with(&scop.context)?;
    for st in scop.stmts.iter_mut() {
        st.domain = with(&st.domain)?;
    }
    scop.checked = Some(match &scop.checked {
        None => facts.to_str().map_err(err)?.to_string(),
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
                    if let Some(n) = base_name(a) {
                        if symbols.get(n).is_some_and(|d| d.rank() > 0) {
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

/// Whether `body` has a `break` or `continue` that leaves or restarts the
/// loop whose body it is (not one of an inner loop).
fn has_own_jump(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Break(_) | Stmt::Continue(_) => true,
        Stmt::If { then_, else_, .. } => has_own_jump(then_) || has_own_jump(else_),
        _ => false,
    })
}

/// The value a reduction statement combines into its variable, if the
/// assignment has the reduction's form: `v += e`, `v -= e` (value `-e`),
/// `v = v + e`, `v *= e`, `v = min(v, e)`, `v = max(e, v)` (any typed min
/// or max builtin).
pub fn reduction_value(lhs: &Expr, op: AssignOp, rhs: &Expr, red: RedOp) -> Option<Expr> {
    let same = |e: &Expr| crate::front::cexpr::plain(e) == crate::front::cexpr::plain(lhs);
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
                if same(a) && !mentions(b, lhs) {
                    Some((**b).clone())
                } else if same(b) && !mentions(a, lhs) {
                    Some((**a).clone())
                } else {
                    None
                }
            }
            (ExprKind::Binary(bop, a, b), _) if RedOp::bitwise(*bop) == Some(red) => {
                if same(a) && !mentions(b, lhs) {
                    Some((**b).clone())
                } else if same(b) && !mentions(a, lhs) {
                    Some((**a).clone())
                } else {
                    None
                }
            }
            (ExprKind::Binary(BinOp::Sub, a, b), RedOp::Add) if same(a) && !mentions(b, lhs) => {
                Some(neg(b))
            }
            // `p < q ? p : q` (and `<=`): `min(p, q)`; `>`/`>=`: `max`.
            (ExprKind::Cond(c, a, b), RedOp::Min | RedOp::Max) => {
                let ExprKind::Binary(cmp, p, q) = &c.kind else {
                    return None;
                };
                let is_min = matches!(cmp, BinOp::Lt | BinOp::Le);
                let is_max = matches!(cmp, BinOp::Gt | BinOp::Ge);
                if !(is_min && red == RedOp::Min || is_max && red == RedOp::Max)
                    || plain(p) != plain(a)
                    || plain(q) != plain(b)
                {
                    return None;
                }
                if same(p) && !mentions(q, lhs) {
                    Some((**q).clone())
                } else if same(q) && !mentions(p, lhs) {
                    Some((**p).clone())
                } else {
                    None
                }
            }
            (ExprKind::Call(f, args), RedOp::Min | RedOp::Max) if args.len() == 2 => {
                let want = if red == RedOp::Min { "min" } else { "max" };
                if !f.contains(want) {
                    return None;
                }
                if same(&args[0]) && !mentions(&args[1], lhs) {
                    Some(args[1].clone())
                } else if same(&args[1]) && !mentions(&args[0], lhs) {
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

fn mentions(e: &Expr, lhs: &Expr) -> bool {
    let mut ids = Vec::new();
    e.idents(&mut ids);
    base_name(lhs).is_some_and(|b| ids.iter().any(|i| i == b))
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
        if self.inner_locals.contains(name) || self.locals.contains_key(name) {
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

    fn block(&mut self, body: &[Stmt]) -> Result<()> {
        // Locals declared in a loop body are private to an iteration
        // (PENCIL's rule for `independent`, and pet's implicit kills at the
        // declaration and at the end of the block): the whole body is one
        // statement, so each instance has its own copy.
        if !self.iters.is_empty() && body.iter().any(|s| matches!(s, Stmt::Decl { .. })) {
            self.sched.push(SchedDim::Pos(0));
            let r = self.compound(body, body[0].loc());
            self.sched.pop();
            return r;
        }
        for (pos, s) in body.iter().enumerate() {
            self.sched.push(SchedDim::Pos(pos));
            self.statement_at(s)?;
            self.sched.pop();
        }
        Ok(())
    }

    /// An `if` branch: a single statement takes the `if`'s own place in
    /// the schedule (its instances and the other branch's are disjoint), so
    /// that `if (a) if (b) ... S` or an `else if` chain adds no schedule
    /// dimension per `if`; a block is a sequence of its own.
    fn branch(&mut self, body: &[Stmt]) -> Result<()> {
        match body {
            [s] if !matches!(s, Stmt::Decl { .. }) => self.statement_at(s),
            _ => self.block(body),
        }
    }

    /// One statement at the current schedule position.
    fn statement_at(&mut self, s: &Stmt) -> Result<()> {
        match s {
            Stmt::For {
                iter,
                iter_type,
                init,
                cond,
                step,
                body,
                independent,
                loc,
            } => {
                let varying = self.check_canonical(iter, iter_type.is_some(), cond, body, loc)?;
                if varying || self.is_dynamic_loop(iter, init, cond, body) {
                    self.compound(std::slice::from_ref(s), loc)?;
                } else {
                    let ty = self.iterator_type(iter, iter_type.as_deref());
                    self.for_loop(
                        iter,
                        &ty,
                        iter_type.is_none(),
                        init,
                        cond,
                        *step,
                        body,
                        independent.as_ref(),
                        loc,
                    )?;
                }
            }
            Stmt::If {
                cond,
                then_,
                else_,
                loc,
            } => {
                self.check_declared(cond)?;
                match self.try_convert(|cv| cv.cond(cond)) {
                    Ok(c) => {
                        self.constraints.push(format!("({})", c));
                        self.branch(then_)?;
                        self.constraints.pop();
                        if !else_.is_empty() {
                            self.constraints.push(format!("not ({})", c));
                            self.branch(else_)?;
                            self.constraints.pop();
                        }
                    }
                    // A data-dependent condition: the `if` and its
                    // branches become one statement (paper, Fig. 5).
                    Err(_) => self.compound(std::slice::from_ref(s), loc)?,
                }
            }
            Stmt::While { loc, .. } => self.compound(std::slice::from_ref(s), loc)?,
            Stmt::Break(loc) | Stmt::Continue(loc) => {
                return Err(Diagnostic::error(
                    Code::UnsupportedControl,
                    Some(loc.clone()),
                    "`break` or `continue` outside a loop of the region",
                )
                .with_hint(
                    "a region is single-entry single-exit; jumps must stay inside one of its loops",
                ))
            }
            Stmt::Decl { var, init, loc } => self.region_local(var, init.as_ref(), loc)?,
            Stmt::Assume { cond, loc } => self.assume(cond, loc)?,
            Stmt::Kill { targets, loc } => self.kill(targets, loc)?,
            Stmt::Call { loc, .. } => self.compound(std::slice::from_ref(s), loc)?,
            Stmt::Assign {
                lhs,
                op,
                rhs,
                loc,
                atomic,
            } => self.statement(lhs, *op, rhs, loc, *atomic)?,
        }
        Ok(())
    }

    /// PENCIL's structured `for`: the iterator is not assigned in the
    /// body. True where the condition reads a variable the body changes
    /// (the loop is then dynamic control).
    fn check_canonical(
        &self,
        iter: &str,
        declares_iter: bool,
        cond: &Expr,
        body: &[Stmt],
        loc: &Loc,
    ) -> Result<bool> {
        if let Some(d) = self.decl(iter).filter(|_| !declares_iter) {
            if !d.is_integer() {
                return Err(Diagnostic::error(
                    Code::NonCanonicalLoop,
                    Some(loc.clone()),
                    format!("loop iterator `{}` is not an integer variable", iter),
                )
                .with_hint("use an int iterator"));
            }
        }
        if self.iters.iter().any(|i| i == iter) {
            return Err(Diagnostic::error(
                Code::NonCanonicalLoop,
                Some(loc.clone()),
                format!(
                    "loop iterator `{}` is already the iterator of an enclosing loop",
                    iter
                ),
            )
            .with_hint("give each nested loop its own iterator"));
        }
        let mut inner_written = BTreeSet::new();
        collect_written(body, &self.region.symbols, &mut inner_written);
        if inner_written.contains(iter) {
            return Err(Diagnostic::error(
                Code::NonCanonicalLoop,
                Some(loc.clone()),
                format!("the loop body assigns its iterator `{}`", iter),
            )
            .with_hint("PENCIL loops have one iterator that only the loop header changes"));
        }
        // The initialiser runs once, before the body: what the body
        // changes later does not matter to it. A condition that reads
        // what the body changes is a `while` loop's: the loop is dynamic
        // control, one statement that runs as written.
        let mut names = Vec::new();
        cond.idents(&mut names);
        Ok(names.iter().any(|n| n != iter && inner_written.contains(n)))
    }

    /// A loop the model cannot see as a loop: non-affine bounds, or a
    /// `break`/`continue` of its own.
    fn is_dynamic_loop(&mut self, iter: &str, init: &Expr, cond: &Expr, body: &[Stmt]) -> bool {
        if has_own_jump(body) || self.dynamic_vars.contains(iter) {
            return true;
        }
        if self.try_convert(|cv| cv.pw(init)).is_err() {
            return true;
        }
        self.iters.push(iter.to_string());
        let ok = self.try_convert(|cv| cv.cond(cond)).is_ok();
        self.iters.pop();
        !ok
    }

    #[allow(clippy::too_many_arguments)]
    fn for_loop(
        &mut self,
        iter: &str,
        iter_type: &str,
        outlives: bool,
        init: &Expr,
        cond: &Expr,
        step: i64,
        body: &[Stmt],
        independent: Option<&Independent>,
        loc: &Loc,
    ) -> Result<()> {
        let lb = self.convert(
            |cv| cv.pw(init),
            Code::NonAffineBound,
            init,
            "the lower bound",
        )?;
        self.iters.push(iter.to_string());
        let ty = IntTy::of(iter_type).unwrap_or(IntTy::INT);
        self.iter_types.push((iter.to_string(), ty));
        let c = self.convert(
            |cv| cv.cond(cond),
            Code::NonAffineBound,
            cond,
            "the loop condition",
        );
        let c = match c {
            Ok(c) => c,
            Err(e) => {
                self.iters.pop();
                self.iter_types.pop();
                return Err(e);
            }
        };
        let cons = match self.loop_constraints(iter, &lb, cond, &c, step) {
            Ok(cons) => cons,
            Err(e) => {
                self.iters.pop();
                self.iter_types.pop();
                return Err(e);
            }
        };
        self.record_loop_range(iter, iter_type, init, &lb, step, &cons, loc);
        if outlives && !self.locals.contains_key(iter) {
            let outer: Vec<String> = self.iters[..self.iters.len() - 1]
                .iter()
                .map(|i| isl_name(i))
                .collect();
            let signs: Vec<i64> = self
                .sched
                .iter()
                .filter_map(|d| match d {
                    SchedDim::Iter(_, s) => Some(*s),
                    SchedDim::Pos(_) => None,
                })
                .collect();
            let mut domain = self.constraints.clone();
            domain.extend(cons.iter().cloned());
            self.live_outs.push(loops::PendingLiveOut {
                var: iter.to_string(),
                outer,
                signs,
                reached: self.constraints.clone(),
                domain,
                lb: lb.clone(),
                step,
                time: self.sched_now(),
            });
        }
        let n = cons.len();
        self.constraints.extend(cons);
        self.sched
            .push(SchedDim::Iter(isl_name(iter), step.signum()));
        let pushed = if let Some(ind) = independent {
            self.loops.push(IndependentLoop {
                depth: self.iters.len() - 1,
                clauses: ind.clone(),
            });
            self.indep_stack.push(self.loops.len() - 1);
            true
        } else {
            false
        };
        let r = self.block(body);
        if pushed {
            self.indep_stack.pop();
        }
        self.sched.pop();
        self.constraints.truncate(self.constraints.len() - n);
        self.iters.pop();
        self.iter_types.pop();
        r
    }

    fn tuple(&self, name: &str) -> String {
        format!(
            "{}[{}]",
            name,
            self.iters
                .iter()
                .map(|i| isl_name(i))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }

    fn sched_now(&self) -> Vec<String> {
        self.sched
            .iter()
            .map(|d| match d {
                SchedDim::Pos(p) => p.to_string(),
                SchedDim::Iter(i, s) => {
                    if *s < 0 {
                        format!("-{}", i)
                    } else {
                        i.clone()
                    }
                }
            })
            .collect()
    }

    /// The reduction operator of `var` in the enclosing independent loops.
    fn reduction_op(&self, var: &str) -> Option<RedOp> {
        self.indep_stack
            .iter()
            .rev()
            .find_map(|&l| self.loops[l].clauses.reduction_of(var))
    }

    /// An update of a variable whose reduction clause names a part of it
    /// (`reduction(+: hist[i])`) must update that part: the clause frees
    /// the order of the part's updates only.
    fn check_reduction_section(&self, var: &str, lhs: &Expr) -> Result<()> {
        let Some(section) = self
            .indep_stack
            .iter()
            .rev()
            .map(|&l| &self.loops[l].clauses)
            .find(|c| c.reduction_of(var).is_some())
            .and_then(|c| c.section_of(var))
        else {
            return Ok(());
        };
        let subs = subscripts(lhs);
        let same = |want: &str, got: &Expr| match &got.kind {
            ExprKind::Ident(n) => n == want,
            ExprKind::Int(v, text) => text == want || want.parse::<i64>().ok() == Some(*v),
            _ => false,
        };
        let inside =
            subs.len() >= section.len() && section.iter().zip(&subs).all(|(w, g)| same(w, g));
        if inside {
            return Ok(());
        }
        Err(Diagnostic::error(
            Code::UnsupportedStatement,
            Some(lhs.loc.clone()),
            format!(
                "this update of `{}` is outside the part `{}[{}]` that the reduction clause names",
                var,
                var,
                section.join("][")
            ),
        )
        .with_hint(format!(
            "update only `{}[{}]...` in the loop, or name the whole array in the clause (`reduction(+: {})`)",
            var,
            section.join("]["),
            var
        )))
    }

    fn push_statement(
        &mut self,
        reads: Vec<Access>,
        writes: Vec<Access>,
        body: StmtBody,
        reductions: Vec<(String, RedOp)>,
        local_names: Vec<String>,
        loc: &Loc,
    ) {
        let id = self.stmts.len();
        self.sched_dims.push(self.sched_now());
        self.dom_cons.push(self.constraints.clone());
        self.stmt_loops.push(self.indep_stack.clone());
        self.stmts.push(Statement {
            id: StmtId(id),
            name: format!("S_{}", id),
            iterators: self.iters.clone(),
            iterator_types: self.iters.iter().map(|i| self.int_type(i)).collect(),
            domain: String::new(),
            schedule: String::new(),
            reads,
            writes,
            body,
            reductions,
            local_names,
            loc: loc.clone(),
        });
    }

    fn statement(
        &mut self,
        lhs: &Expr,
        op: AssignOp,
        rhs: &Expr,
        loc: &Loc,
        atomic: bool,
    ) -> Result<()> {
        let tuple = self.tuple(&format!("S_{}", self.stmts.len()));
        let mut reads = Vec::new();
        let lname = base_name(lhs).unwrap_or("").to_string();
        if self.iters.contains(&lname) {
            return Err(Diagnostic::error(
                Code::NonCanonicalLoop,
                Some(lhs.loc.clone()),
                format!("assignment to loop iterator `{}`", lname),
            )
            .with_hint("PENCIL loops have one iterator that only the loop header changes"));
        }
        self.check_declared(lhs)?;
        self.check_declared(rhs)?;
        let mut w = self.access(lhs, &tuple, false)?;
        if op != AssignOp::Assign {
            reads.push(Access {
                may: false,
                ..w.clone()
            });
        }
        // An atomic update is a `+` reduction wherever it is: it commutes
        // with the other atomic updates of its array (`independent_pairs`).
        let red_op = if atomic {
            Some(atomic_op(op, rhs))
        } else {
            self.reduction_op(&lname)
        };
        if !atomic && red_op.is_some() {
            self.check_reduction_section(&lname, lhs)?;
        }
        if atomic {
            self.atomics.insert(self.stmts.len());
        }
        if red_op.is_some() {
            // A reduction update combines into the old value instead of
            // replacing it, and its instances run in any order: for
            // dataflow it is a may-write, which never kills. Otherwise the
            // initial value would flow into the first update only, and once
            // `independent` removes the update-to-update pairs nothing would
            // order the initialisation before the other updates (nor the
            // updates but the last before a later read).
            w.may = true;
        }
        let writes = vec![w];
        self.reads_in(lhs, &tuple, &mut reads, true)?;
        self.reads_in(rhs, &tuple, &mut reads, false)?;
        let mut reductions = Vec::new();
        if let Some(red) = red_op {
            if reduction_value(lhs, op, rhs, red).is_none() {
                return Err(Diagnostic::error(
                    Code::UnsupportedStatement,
                    Some(loc.clone()),
                    format!(
                        "`{}` is a `reduction({})` variable but this assignment is not a {} update of it",
                        lname,
                        red.name(),
                        red.name()
                    ),
                )
                .with_hint("write reduction updates as `v += e`, `v *= e`, `v = min(v, e)` or `v = max(v, e)`, and use the variable nowhere else in the loop"));
            }
            reductions.push((lname.clone(), red));
        }
        self.push_statement(
            reads,
            writes,
            StmtBody::Assign {
                lhs: lhs.clone(),
                op,
                rhs: rhs.clone(),
            },
            reductions,
            vec![],
            loc,
        );
        Ok(())
    }

    /// A variable declared at the region's top level: an array (or scalar)
    /// of the region that is dead before and after it.
    fn region_local(&mut self, var: &VarDecl, init: Option<&Expr>, loc: &Loc) -> Result<()> {
        for d in var.dims.iter() {
            match d {
                Some(e) => self.check_declared(e)?,
                None => {
                    return Err(Diagnostic::error(
                        Code::UnknownArraySize,
                        Some(var.loc.clone()),
                        format!("local array `{}` has no size", var.name),
                    )
                    .with_hint("declare local arrays with their extents (C99 VLA)"))
                }
            }
        }
        let dims: String = var
            .dims
            .iter()
            .flatten()
            .map(|d| format!("[{}]", plain(d)))
            .collect();
        self.local_decls
            .push(format!("{} {}{};", var.base_type, var.name, dims));
        self.locals.insert(var.name.clone(), var.clone());
        if let Some(e) = init {
            let lhs = Expr {
                kind: ExprKind::Ident(var.name.clone()),
                loc: var.loc.clone(),
            };
            self.statement(&lhs, AssignOp::Assign, e, loc, false)?;
        }
        Ok(())
    }

    /// `__pencil_assume(e)`: an affine fact on the parameters joins the
    /// context; anything else is reported and ignored. A fact holds only
    /// where the assumption is reached: under conditions or loops, the
    /// context gets "if this point is reached, then the fact", which isl
    /// states exactly (`if (m > 0) __pencil_assume(n % 32 == 0)` says
    /// nothing about `n` when `m <= 0`).
    fn assume(&mut self, cond: &Expr, loc: &Loc) -> Result<()> {
        self.check_declared(cond)?;
        let mut names = Vec::new();
        cond.idents(&mut names);
        let uses_iter = names.iter().any(|n| self.iters.contains(n));
        match self.try_convert(|cv| cv.cond(cond)) {
            Ok(c) if !uses_iter => {
                let fact = if self.constraints.is_empty() {
                    c
                } else {
                    let reached = self.constraints.join(" and ");
                    let reached = if self.iters.is_empty() {
                        reached
                    } else {
                        let vars: Vec<String> = self.iters.iter().map(|i| isl_name(i)).collect();
                        format!("exists ({} : {})", vars.join(", "), reached)
                    };
                    self.conditional_facts.insert(self.assumptions.len());
                    format!("(not ({})) or ({})", reached, c)
                };
                self.assumptions.push((fact, loc.clone()));
            }
            _ => self.warnings.push(
                Diagnostic::warning(
                    Code::NonAffineCondition,
                    Some(cond.loc.clone()),
                    format!(
                        "`__pencil_assume({})` is ignored: it is not an affine fact on the parameters",
                        plain(cond)
                    ),
                )
                .with_hint("pencilc uses assumptions that compare affine expressions of values the region does not change, outside loops"),
            ),
        }
        Ok(())
    }

    /// `__pencil_kill(x, ...)`: a statement whose only effect is on dataflow.
    fn kill(&mut self, targets: &[Expr], loc: &Loc) -> Result<()> {
        let name = format!("K_{}", self.kills.len());
        let tuple = self.tuple(&name);
        let mut kills = Vec::new();
        let mut whole_top = Vec::new();
        for t in targets {
            self.check_declared(t)?;
            let Some(base) = base_name(t) else {
                return Err(Diagnostic::error(
                    Code::UnsupportedStatement,
                    Some(t.loc.clone()),
                    "`__pencil_kill` takes variables and array elements",
                )
                .with_hint(
                    "write `__pencil_kill(A)`, `__pencil_kill(A[i])` or `__pencil_kill(x)`",
                ));
            };
            let whole = matches!(t.kind, ExprKind::Ident(_));
            let acc = self.access(t, &tuple, true)?;
            // An inexact element (non-affine subscript) must not kill.
            if acc.may && !whole {
                continue;
            }
            if whole && self.iters.is_empty() {
                if let Some(SchedDim::Pos(p)) = self.sched.first() {
                    whole_top.push((base.to_string(), *p));
                }
            }
            kills.push(Access { may: false, ..acc });
        }
        let domain = if self.constraints.is_empty() {
            format!("{{ {} }}", tuple)
        } else {
            format!("{{ {} : {} }}", tuple, self.constraints.join(" and "))
        };
        let _ = loc;
        self.kills.push(PendingKill {
            domain,
            sched: self.sched_now(),
            kills,
            whole_top,
        });
        Ok(())
    }

    /// The access relation of a scalar or array element expression,
    /// through the enclosing compound's inner loops if any. A subscript
    /// that is not affine leaves its dimension unconstrained, and the
    /// access becomes a may-access. With `whole_ok`, an array named
    /// without subscripts is all of it (summaries, kills, call arguments).
    fn access(&mut self, e: &Expr, tuple: &str, whole_ok: bool) -> Result<Access> {
        let name = base_name(e).ok_or_else(|| {
            Diagnostic::error(
                Code::PointerArithmetic,
                Some(e.loc.clone()),
                "only named arrays and scalars can be accessed",
            )
        })?;
        let decl = self.decl(name).cloned().ok_or_else(|| {
            Diagnostic::error(
                Code::UnknownIdentifier,
                Some(e.loc.clone()),
                format!("`{}` is not declared", name),
            )
            .with_hint("declare it before the region")
        })?;
        let subs = subscripts(e);
        // With `whole_ok`, a row (`A[i]` of a 2-d `A`) is all of its
        // elements too.
        let whole = whole_ok && subs.len() < decl.rank();
        if subs.len() + 1 == decl.rank() && !decl.members.is_empty() {
            return Err(Diagnostic::error(
                Code::UnsupportedType,
                Some(e.loc.clone()),
                format!(
                    "a whole struct of `{}` is used; the model holds its members",
                    name
                ),
            )
            .with_hint(format!(
                "assign or pass the members one by one ({})",
                decl.members.join(", ")
            )));
        }
        if subs.len() != decl.rank() && !whole {
            let msg = if subs.is_empty() {
                format!("array `{}` is used without subscripts", name)
            } else {
                format!(
                    "`{}` has {} dimension(s) but is accessed with {} subscript(s)",
                    name,
                    decl.rank(),
                    subs.len()
                )
            };
            return Err(
                Diagnostic::error(Code::PointerArithmetic, Some(e.loc.clone()), msg).with_hint(
                    "access arrays element by element, with one subscript per dimension",
                ),
            );
        }
        if !crate::front::syntax::is_integer_type(&decl.base_type)
            && !crate::front::syntax::is_float_type(&decl.base_type)
        {
            return Err(Diagnostic::error(
                Code::UnsupportedType,
                Some(e.loc.clone()),
                format!(
                    "`{}` has type `{}`, which is not a scalar number type",
                    name, decl.base_type
                ),
            )
            .with_hint(
                "regions may access arrays and scalars of integer and floating-point types",
            ));
        }
        let mut outs = Vec::new();
        let mut cons = Vec::new();
        let mut may = whole || self.conditional > 0;
        for d in 0..decl.rank() {
            let o = format!("o{}_", d);
            outs.push(o.clone());
            let Some(s) = subs.get(d) else { continue };
            match self.try_convert(|cv| cv.pw(s)) {
                // A plain affine subscript goes into the tuple itself.
                Ok(pw)
                    if self.inner_iters.is_empty()
                        && matches!(pw.0.as_slice(), [(g, _)] if g.is_empty()) =>
                {
                    outs[d] = pw.0[0].1.to_isl();
                }
                Ok(pw) => {
                    let ov = Pw(vec![(vec![], crate::front::affine::Aff::atom(o))]);
                    cons.push(format!("({})", compare(&ov, BinOp::Eq, &pw)));
                }
                Err(_) => {
                    may = true;
                    self.warn_linearised(&decl, s);
                    // The dimension is unconstrained, but stays inside the
                    // declared extent where that is a constant.
                    if let Some(Some(ext)) = decl.dims.get(d) {
                        if let Some(c) = const_value(ext) {
                            cons.push(format!("(0 <= {} < {})", outs[d], c));
                        }
                    }
                }
            }
        }
        let mut all = cons;
        if !self.inner_iters.is_empty() {
            let mut inner = self.inner_cons.clone();
            inner.extend(all);
            let vars: Vec<String> = self.inner_iters.iter().map(|i| isl_name(i)).collect();
            let body = if inner.is_empty() {
                "true".to_string()
            } else {
                inner.join(" and ")
            };
            all = vec![format!("exists ({} : {})", vars.join(", "), body)];
        }
        let rel = if all.is_empty() {
            format!("{{ {} -> {}[{}] }}", tuple, name, outs.join(", "))
        } else {
            format!(
                "{{ {} -> {}[{}] : {} }}",
                tuple,
                name,
                outs.join(", "),
                all.join(" and ")
            )
        };
        Ok(Access {
            array: name.to_string(),
            relation: rel,
            may,
        })
    }

    /// PENCIL's guideline: multi-dimensional arrays, not `A[i*n+j]`.
    fn warn_linearised(&mut self, decl: &VarDecl, s: &Expr) {
        fn has_product_of_names(e: &Expr) -> bool {
            match &e.kind {
                ExprKind::Binary(BinOp::Mul, a, b) => {
                    let mut x = Vec::new();
                    let mut y = Vec::new();
                    a.idents(&mut x);
                    b.idents(&mut y);
                    (!x.is_empty() && !y.is_empty())
                        || has_product_of_names(a)
                        || has_product_of_names(b)
                }
                ExprKind::Binary(_, a, b) => has_product_of_names(a) || has_product_of_names(b),
                ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => has_product_of_names(a),
                _ => false,
            }
        }
        if self.reshape_reported.contains(&decl.name) {
            return;
        }
        if decl.rank() == 1 && !contains_access(s) && has_product_of_names(s) {
            self.warnings.push(
                Diagnostic::warning(
                    Code::NonAffineSubscript,
                    Some(s.loc.clone()),
                    format!(
                        "the subscript `{}` looks linearised: `{}` is then a may-access to all of `{}`",
                        plain(s),
                        decl.name,
                        decl.name
                    ),
                )
                .with_hint("declare a multi-dimensional C99 array (`float A[n][m]`, or `A[pencil_array n][m]` for a parameter) and write `A[i][j]`"),
            );
        }
    }

    /// Whether a call argument gives the callee memory rather than a value:
    /// an element's address, an array, or a row of one.
    fn names_memory(&self, a: &Expr) -> bool {
        match &a.kind {
            ExprKind::Unary(UnOp::AddrOf, _) => true,
            ExprKind::Ident(_) | ExprKind::Index(..) => base_name(a)
                .and_then(|b| self.decl(b))
                .is_some_and(|d| subscripts(a).len() < d.rank()),
            ExprKind::Cast(_, x) => self.names_memory(x),
            _ => false,
        }
    }

    /// Reads inside an expression. For the left-hand side only its
    /// subscripts are searched.
    fn reads_in(
        &mut self,
        e: &Expr,
        tuple: &str,
        out: &mut Vec<Access>,
        is_lhs: bool,
    ) -> Result<()> {
        match &e.kind {
            ExprKind::Int(..) | ExprKind::Float(_) => Ok(()),
            ExprKind::Ident(n) => {
                if is_lhs
                    || self.classify(n) != NameKind::Other
                    || self.inner_locals.contains(n)
                    || n == "__pencil_maybe"
                {
                    return Ok(());
                }
                if self.decl(n).is_some_and(|d| d.rank() > 0) {
                    // A whole array as a call argument.
                    out.push(self.access(e, tuple, true)?);
                    return Ok(());
                }
                out.push(self.access(e, tuple, false)?);
                Ok(())
            }
            ExprKind::Index(..) => {
                for s in subscripts(e) {
                    self.reads_in(s, tuple, out, false)?;
                }
                let local = base_name(e).is_some_and(|b| self.inner_locals.contains(b));
                if !is_lhs && !local {
                    out.push(self.access(e, tuple, false)?);
                }
                Ok(())
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => self.reads_in(a, tuple, out, false),
            ExprKind::Binary(op, a, b) => {
                self.reads_in(a, tuple, out, false)?;
                let short_circuit = matches!(op, BinOp::And | BinOp::Or);
                self.conditional += short_circuit as usize;
                let r = self.reads_in(b, tuple, out, false);
                self.conditional -= short_circuit as usize;
                r
            }
            ExprKind::Cond(c, t, f) => {
                self.reads_in(c, tuple, out, false)?;
                self.conditional += 1;
                let r = self
                    .reads_in(t, tuple, out, false)
                    .and_then(|_| self.reads_in(f, tuple, out, false));
                self.conditional -= 1;
                r
            }
            ExprKind::Call(f, args) => {
                if f == "__pencil_maybe" {
                    return Ok(());
                }
                if *f == self.region.function {
                    return Err(recursion(f, &e.loc));
                }
                let writable = |k: usize| match self.region.prototypes.get(f) {
                    Some(Some(params)) => params.get(k).copied().unwrap_or(true),
                    _ => true,
                };
                if let Some((_, a)) = args.iter().enumerate().find(|(k, a)| {
                    writable(*k)
                        && self.region.prototypes.contains_key(f)
                        && !is_pure_function(f)
                        && self.names_memory(a)
                }) {
                    return Err(Diagnostic::error(
                        Code::ImpureCall,
                        Some(a.loc.clone()),
                        format!("`{}` has no body or summary in this file and gets memory it may write (`{}`): pencilc cannot take its call as pure", f, plain(a)),
                    )
                    .with_hint("declare the parameter `const` if the function only reads it, or call the function as a statement with a summary function (`__attribute__((pencil_access(summary)))`)"));
                }
                if !is_pure_function(f) && self.region.prototypes.contains_key(f) {
                    // pet and PPCG take a call of a function the file only
                    // declares as a pure function of its arguments.
                    if self.assumed_pure.insert(f.clone()) {
                        self.warnings.push(
                            Diagnostic::warning(
                                Code::ImpureCall,
                                Some(e.loc.clone()),
                                format!("`{}` has no body or summary in this file: pencilc takes its calls as pure (no side effects, a result that depends on the arguments only), as pet and PPCG do", f),
                            )
                            .with_hint("if it has side effects, call it as a statement with a summary function (`__attribute__((pencil_access(summary)))`); kernels call it only where the device code given with --opencl-include-file or --cuda-include-file defines it"),
                        );
                    }
                } else if !is_pure_function(f) {
                    return Err(Diagnostic::error(Code::ImpureCall, Some(e.loc.clone()), format!("call to `{}`, which is not known to be pure", f))
                        .with_hint("in an expression, only math builtins (sqrt, exp, fminf, mixf, clamp, ...) and functions of this file whose body is local declarations and one `return` (inlined, where the globals they read are declared before the region and no local hides them) may be called; call other functions as statements, with a summary function (`__attribute__((pencil_access(summary)))`)"));
                }
                let bodiless = !is_pure_function(f);
                for a in args {
                    if bodiless && self.names_memory(a) {
                        // Memory the function only reads (its parameter is
                        // `const`): all of the array, as pet takes it.
                        let mut inner = a;
                        while let ExprKind::Unary(UnOp::AddrOf, x) | ExprKind::Cast(_, x) =
                            &inner.kind
                        {
                            inner = x;
                        }
                        for s in subscripts(inner) {
                            self.reads_in(s, tuple, out, false)?;
                        }
                        if let Some(b) = base_name(inner) {
                            let whole = Expr {
                                kind: ExprKind::Ident(b.to_string()),
                                loc: inner.loc.clone(),
                            };
                            out.push(self.access(&whole, tuple, true)?);
                        }
                        continue;
                    }
                    self.reads_in(a, tuple, out, false)?;
                }
                Ok(())
            }
        }
    }

    fn finish(mut self) -> Result<Built> {
        let params: Vec<String> = self.params.iter().cloned().collect();
        let prefix = format!("[{}] -> ", params.join(", "));
        let assumed: Vec<String> = self
            .assumptions
            .iter()
            .map(|(c, _)| format!("({})", c))
            .collect();
        let (context, unsigned_params) = self.context(&params, &assumed)?;
        let depth = self
            .sched_dims
            .iter()
            .chain(self.kills.iter().map(|k| &k.sched))
            .map(|d| d.len())
            .max()
            .unwrap_or(0);
        self.place_statements(&prefix, &assumed, depth);
        let (kills, whole_kills) = self.kill_statements(&prefix, depth);
        let arrays = self.arrays(&whole_kills)?;
        let may_alias = may_alias(&arrays, &self.region.symbols, self.plans);
        self.check_reduction_uses()?;
        let independent = self.independent_pairs(&params);
        let param_ranges = self.param_ranges(&params);
        let value_types = self.value_types(&arrays);
        // One access may be visited as a write and as reads (`x = v < x ?
        // v : x`): say each thing once.
        let mut said = BTreeSet::new();
        let mut warnings = std::mem::take(&mut self.warnings);
        warnings.retain(|w| said.insert(format!("{:?} {}", w.loc, w.message)));
        let scop = Scop {
            function: self.region.function.clone(),
            begin_line: self.region.begin_line,
            end_line: self.region.end_line,
            inclusion: self.region.inclusion.clone(),
            loc: self.region.loc.clone(),
            context,
            params,
            arrays,
            may_alias,
            stmts: std::mem::take(&mut self.stmts),
            kills,
            independent,
            local_decls: std::mem::take(&mut self.local_decls),
            warnings,
            notes: Vec::new(),
            host_only: false,
            checked: None,
            param_ranges,
            live_out_iters: vec![],
            index_type: "int".into(),
            unsigned_params,
            value_types,
            frame: Vec::new(),
            file_names: self.region.names.clone(),
            called: self.region.called.clone(),
            assumed_pure: std::mem::take(&mut self.assumed_pure),
        };
        let mut scop = assume_in_bounds(scop)?;
        limit_nesting(&mut scop);
        if self.needs_long_indices(&scop) {
            scop.index_type = "long".into();
        }
        self.live_out_iters(&mut scop)?;
        if let Some(defined) = loops::check_loop_ranges(
            &self.isl,
            &scop.params,
            &scop.context,
            &scop.param_ranges,
            &self.loop_ranges,
        )? {
            scop.context = defined
                .to_str()
                .map_err(|e| self.isl.err("scop", e))?
                .to_string();
        }
        // Delinearised shapes: proved, checked on entry, or given up.
        let validity = super::reshape::validity::check(&self.isl, &scop, self.plans)?;
        let (flat, kept): (Vec<_>, Vec<_>) = validity.never.into_iter().partition(|n| n.2);
        if !flat.is_empty() {
            return Ok(Built::Flat(
                flat.into_iter().map(|(a, d, _)| (a, d)).collect(),
            ));
        }
        // A declared shape that the code leaves everywhere (undefined in
        // C): the region keeps the user's code.
        if !kept.is_empty() {
            scop.warnings.extend(kept.into_iter().map(|(_, d, _)| d));
            scop.host_only = true;
            return Ok(Built::Scop(Box::new(scop)));
        }
        scop.notes.extend(validity.notes);
        if let Some(facts) = validity.facts {
            assume_checked(&self.isl, &mut scop, facts)?;
        }
        super::reshape::footprint::measure(&self.isl, &mut scop, self.plans)?;
        Ok(Built::Scop(Box::new(scop)))
    }

    /// The region's context: the assumptions, and each unsigned
    /// parameter of 32 bits or more in its type's range; with those
    /// parameters.
    fn context(
        &self,
        params: &[String],
        assumed: &[String],
    ) -> Result<(String, Vec<(String, u32)>)> {
        let context = if assumed.is_empty() {
            format!("[{}] -> {{ : }}", params.join(", "))
        } else {
            format!(
                "[{}] -> {{ : {} }}",
                params.join(", "),
                assumed.join(" and ")
            )
        };
        self.check_assumptions(&context)?;
        let unsigned_params: Vec<(String, u32)> = params
            .iter()
            .filter_map(|p| {
                let (_, d) = self
                    .region
                    .symbols
                    .iter()
                    .find(|(n, _)| isl_name(n) == *p)?;
                let t = IntTy::of(&d.base_type)?;
                (!t.signed && t.bits >= 32).then(|| (p.clone(), t.bits))
            })
            .collect();
        // Their values are in range at every run (a 64-bit one up to
        // `LONG_MAX` where the generated code runs): isl then sees that
        // `n mod 2^32` is `n`.
        let context = if unsigned_params.is_empty() {
            context
        } else {
            let ranges: Vec<String> = unsigned_params
                .iter()
                .map(|(p, bits)| {
                    let hi: i128 = if *bits == 32 {
                        (1 << 32) - 1
                    } else {
                        i64::MAX as i128
                    };
                    format!("0 <= {} <= {}", p, hi)
                })
                .chain(assumed.iter().cloned())
                .collect();
            format!(
                "[{}] -> {{ : {} }}",
                params.join(", "),
                ranges.join(" and ")
            )
        };
        Ok((context, unsigned_params))
    }

    /// Each statement's 2d+1 schedule (padded to `depth`), domain and
    /// accesses under the parameters; which arrays are read and written.
    fn place_statements(&mut self, prefix: &str, assumed: &[String], depth: usize) {
        for ((st, dims), cons) in self
            .stmts
            .iter_mut()
            .zip(&self.sched_dims)
            .zip(&self.dom_cons)
        {
            let tuple = format!(
                "{}[{}]",
                st.name,
                st.iterators
                    .iter()
                    .map(|i| isl_name(i))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            st.schedule = format!("{}{{ {} -> [{}] }}", prefix, tuple, pad(dims, depth));
            // Assumptions hold wherever the region runs: they bound the
            // domains too, which is what the scheduler and tiler see. The
            // conditional ones stay in the context only: they quantify
            // over iterators, whose names the domain's tuple may reuse.
            let mut cons = cons.clone();
            cons.extend(
                assumed
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| !self.conditional_facts.contains(k))
                    .map(|(_, a)| a.clone()),
            );
            st.domain = if cons.is_empty() {
                format!("{}{{ {} }}", prefix, tuple)
            } else {
                format!("{}{{ {} : {} }}", prefix, tuple, cons.join(" and "))
            };
            for a in st.reads.iter_mut().chain(st.writes.iter_mut()) {
                a.relation = format!("{}{}", prefix, a.relation);
            }
            for a in &st.reads {
                self.array_use.entry(a.array.clone()).or_default().0 = true;
            }
            for a in &st.writes {
                self.array_use.entry(a.array.clone()).or_default().1 = true;
            }
        }
    }

    /// The kill statements under the parameters, and the whole-array
    /// kills at the top level with their positions.
    fn kill_statements(&self, prefix: &str, depth: usize) -> (Vec<KillStmt>, Vec<(String, usize)>) {
        let mut kills = Vec::new();
        let mut whole_kills: Vec<(String, usize)> = Vec::new();
        for (k, pk) in self.kills.iter().enumerate() {
            let tuple_end = pk.domain.find(']').map(|p| p + 1).unwrap_or(0);
            let tuple = pk.domain[2..tuple_end].to_string();
            kills.push(KillStmt {
                name: format!("K_{}", k),
                domain: format!("{}{}", prefix, pk.domain),
                schedule: format!("{}{{ {} -> [{}] }}", prefix, tuple, pad(&pk.sched, depth)),
                kills: pk
                    .kills
                    .iter()
                    .map(|a| Access {
                        relation: format!("{}{}", prefix, a.relation),
                        ..a.clone()
                    })
                    .collect(),
            });
            whole_kills.extend(pk.whole_top.iter().cloned());
        }
        (kills, whole_kills)
    }

    /// The arrays the statements access, with their extents and what
    /// kills and the rest of the function say of their values.
    fn arrays(&self, whole_kills: &[(String, usize)]) -> Result<Vec<Array>> {
        let mut arrays = Vec::new();
        for (name, (read, written)) in &self.array_use {
            let d = self.decl(name).expect("accessed names are declared");
            let mut extents = Vec::new();
            for (k, dim) in d.dims.iter().enumerate() {
                match dim {
                    Some(e) => match const_value(e) {
                        Some(c) => extents.push(Extent::Const(c)),
                        None => {
                            let mut names = Vec::new();
                            e.idents(&mut names);
                            names.sort();
                            names.dedup();
                            extents.push(Extent::Expr {
                                c_text: plain(e),
                                names,
                            });
                        }
                    },
                    // A pointer's outermost extent is what the region
                    // accesses (`reshape`).
                    None if k == 0 && self.plans.contains_key(name) => {
                        extents.push(Extent::Accessed)
                    }
                    None => {
                        return Err(Diagnostic::error(
                            Code::UnknownArraySize,
                            Some(d.loc.clone()),
                            format!("the size of dimension {} of `{}` is not declared", k, name),
                        )
                        .with_hint("declare array parameters with all their extents, e.g. `double A[pencil_array n][m]` (C99 VLA) or `double A[N][M]`"));
                    }
                }
            }
            // Top-level positions of the statements touching the array.
            let positions: Vec<usize> = self
                .stmts
                .iter()
                .zip(&self.sched_dims)
                .filter(|(st, _)| {
                    st.reads
                        .iter()
                        .chain(st.writes.iter())
                        .any(|a| &a.array == name)
                })
                .filter_map(|(_, dims)| dims.first().and_then(|p| p.parse::<usize>().ok()))
                .collect();
            let kill_at: Vec<usize> = whole_kills
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, p)| *p)
                .collect();
            let killed_before = kill_at.iter().any(|k| positions.iter().all(|p| p > k));
            // A scalar the rest of its function never reads is as good as
            // killed after the region (`front::parse::dead_after`).
            let killed_after = kill_at.iter().any(|k| positions.iter().all(|p| p < k))
                || self.region.dead_after.contains(name);
            let local = self.locals.contains_key(name);
            arrays.push(Array {
                name: name.clone(),
                elem_type: d.base_type.clone(),
                extents,
                read: *read,
                written: *written,
                local,
                killed_before,
                killed_after,
                members: if local { Vec::new() } else { d.members.clone() },
                struct_type: d.struct_type.clone(),
                layout: None,
                no_address: d.volatile_or_register,
                loc: d.loc.clone(),
            });
        }
        Ok(arrays)
    }

    /// The parameters' ranges by their C types.
    fn param_ranges(&self, params: &[String]) -> String {
        let ranges: Vec<String> = params
            .iter()
            .filter_map(|p| {
                let d = self
                    .region
                    .symbols
                    .iter()
                    .find(|(n, _)| isl_name(n) == *p)
                    .map(|(_, d)| d)?;
                let (lo, hi) = crate::front::syntax::integer_range(&d.base_type)?;
                Some(format!("{} <= {} <= {}", lo, p, hi))
            })
            .collect();
        format!(
            "[{}] -> {{ : {} }}",
            params.join(", "),
            if ranges.is_empty() {
                "true".to_string()
            } else {
                ranges.join(" and ")
            }
        )
    }

    /// Integer scalars the region reads and never writes, with their
    /// types.
    fn value_types(&self, arrays: &[Array]) -> Vec<(String, IntTy)> {
        self.region
            .symbols
            .iter()
            .filter(|(n, d)| {
                d.dims.is_empty()
                    && !d.pointer
                    && !self.written.contains(*n)
                    && !arrays.iter().any(|a| a.name == **n)
            })
            .filter_map(|(n, d)| Some((n.clone(), IntTy::of(&d.base_type)?)))
            .collect()
    }

    /// Whether a loop iterator's or a parameter's type holds values
    /// outside `int`'s range: indices are then `long`.
    fn needs_long_indices(&self, scop: &Scop) -> bool {
        let int = crate::front::syntax::integer_range("int");
        let param_types = scop.params.iter().filter_map(|p| {
            self.region
                .symbols
                .iter()
                .find(|(n, _)| isl_name(n) == *p)
                .map(|(_, d)| d.base_type.clone())
        });
        self.loop_ranges
            .iter()
            .map(|l| l.ty.clone())
            .chain(param_types)
            .filter_map(|t| crate::front::syntax::integer_range(&t))
            .any(|(lo, hi)| Some((lo.min(int.unwrap().0), hi.max(int.unwrap().1))) != int)
    }

    /// The values iterators read after their loops have after the
    /// region (`Scop::live_out_iters`).
    fn live_out_iters(&self, scop: &mut Scop) -> Result<()> {
        let width = self
            .live_outs
            .iter()
            .map(|l| l.time.len())
            .max()
            .unwrap_or(0);
        for (n, lo) in self.live_outs.iter().enumerate() {
            let text = lo.value_set(&scop.params);
            let isl = &self.isl;
            let mut set = isl
                .set(&text)
                .and_then(|s| s.coalesce())
                .map_err(|e| isl.err("scop", e))?;
            // Several loops may leave their value in the variable: this
            // one's counts where no other loop's header runs after this
            // one's last run.
            let others: Vec<&loops::PendingLiveOut> = self
                .live_outs
                .iter()
                .enumerate()
                .filter(|(m, o)| *m != n && o.var == lo.var)
                .map(|(_, o)| o)
                .collect();
            if !others.is_empty() {
                let err = |e| isl.err("scop", e);
                // Without a maximum (an unbounded loop): the other loop's
                // runs that no run of this one follows.
                let mine = isl.set(&lo.exit_times(&scop.params, width)).map_err(err)?;
                for o in others {
                    let theirs = isl.set(&o.exit_times(&scop.params, width)).map_err(err)?;
                    let followed = theirs
                        .copy()
                        .and_then(|t| t.lex_le_set(mine.copy()?))
                        .and_then(|m| m.domain())
                        .map_err(err)?;
                    let overtaken = theirs
                        .subtract(followed)
                        .and_then(|l| l.params())
                        .map_err(err)?;
                    let keep = overtaken.complement().map_err(err)?;
                    set = set.intersect_params(keep).map_err(err)?;
                }
                set = set.coalesce().map_err(err)?;
            }
            scop.live_out_iters.push(LiveOutIter {
                var: lo.var.clone(),
                value: set.to_str().map_err(|e| isl.err("scop", e))?.to_string(),
            });
        }
        Ok(())
    }

    /// Contradictory assumptions leave no parameter values at all.
    fn check_assumptions(&self, context: &str) -> Result<()> {
        let Some((_, first)) = self.assumptions.first() else {
            return Ok(());
        };
        let isl = crate::isl::Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        let set = isl.set(context).map_err(|e| isl.err("scop", e))?;
        if set.is_empty().map_err(|e| isl.err("scop", e))? {
            return Err(Diagnostic::error(
                Code::ContradictoryAssumptions,
                Some(self.assumptions.last().map(|(_, l)| l.clone()).unwrap_or_else(|| first.clone())),
                "the `__pencil_assume` facts of this region contradict each other: no parameter values satisfy them all",
            )
            .with_hint(format!("the assumptions together say `{}`; remove or correct one", context)));
        }
        Ok(())
    }

    /// A `reduction` clause frees the order of its variable's updates, so
    /// its loop may use the variable in no other way: a read elsewhere in
    /// the loop (`if (s > 5)`, `B[i] = s`, `s += s * x`) sees whatever
    /// updates happened to run before it, and a write other than an
    /// update is lost or repeated. Either is an error at that use.
    fn check_reduction_uses(&self) -> Result<()> {
        for (l, lp) in self.loops.iter().enumerate() {
            for (op, vars) in &lp.clauses.reductions {
                for var in vars {
                    for (s, st) in self.stmts.iter().enumerate() {
                        let touches = st
                            .reads
                            .iter()
                            .chain(st.writes.iter())
                            .any(|a| &a.array == var);
                        if !self.stmt_loops[s].contains(&l) || !touches {
                            continue;
                        }
                        let Some(u) = super::reduction_uses::first_other_use(
                            &st.body,
                            var,
                            *op,
                            Some(&st.loc),
                        ) else {
                            continue;
                        };
                        return Err(broken_reduction(var, *op, &lp.clauses, u));
                    }
                }
            }
        }
        Ok(())
    }

    /// The instance pairs whose dependences the `independent` pragmas
    /// remove: for a loop at depth d, instances of statements inside it in
    /// different iterations of it (same iterations of the loops around it);
    /// for its reduction clause, any two instances of its reduction
    /// assignments in the same iteration of the loops around it (their
    /// updates are atomic, so any order gives the same result up to the
    /// operator's associativity).
    fn independent_pairs(&self, params: &[String]) -> String {
        let mut parts = Vec::new();
        for (l, lp) in self.loops.iter().enumerate() {
            let inside: Vec<usize> = (0..self.stmts.len())
                .filter(|&s| self.stmt_loops[s].contains(&l))
                .collect();
            for &s in &inside {
                for &t in &inside {
                    let ns = self.stmts[s].iterators.len();
                    let nt = self.stmts[t].iterators.len();
                    let a: Vec<String> = (0..ns).map(|k| format!("a{}", k)).collect();
                    let b: Vec<String> = (0..nt).map(|k| format!("b{}", k)).collect();
                    let mut same: Vec<String> =
                        (0..lp.depth).map(|k| format!("a{} = b{}", k, k)).collect();
                    let both_reduce = matches!(self.stmts[s].body, StmtBody::Assign { .. })
                        && matches!(self.stmts[t].body, StmtBody::Assign { .. })
                        && self.stmts[s].reductions.iter().any(|(v, _)| {
                            lp.clauses.reduction_of(v).is_some()
                                && self.stmts[t].reductions.iter().any(|(w, _)| w == v)
                        });
                    if !both_reduce {
                        same.push(format!("a{} != b{}", lp.depth, lp.depth));
                    }
                    let cons = if same.is_empty() {
                        String::new()
                    } else {
                        format!(" : {}", same.join(" and "))
                    };
                    parts.push(format!(
                        "S_{}[{}] -> S_{}[{}]{}",
                        s,
                        a.join(", "),
                        t,
                        b.join(", "),
                        cons
                    ));
                }
            }
        }
        // Atomic updates of one array commute, in whatever loops they are:
        // their mutual dependences are no ordering constraints. Their
        // dependences with every other statement stay.
        for &s in &self.atomics {
            for &t in &self.atomics {
                // Updates of one variable commute only with updates by
                // the same operator (`atomic_add` and `atomic_max` do not).
                let var = |k: usize| self.stmts[k].reductions.first().cloned();
                if var(s) != var(t) {
                    continue;
                }
                let a: Vec<String> = (0..self.stmts[s].iterators.len())
                    .map(|k| format!("a{}", k))
                    .collect();
                let b: Vec<String> = (0..self.stmts[t].iterators.len())
                    .map(|k| format!("b{}", k))
                    .collect();
                parts.push(format!(
                    "S_{}[{}] -> S_{}[{}]",
                    s,
                    a.join(", "),
                    t,
                    b.join(", ")
                ));
            }
        }
        format!("[{}] -> {{ {} }}", params.join(", "), parts.join("; "))
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
