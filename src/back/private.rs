//! Arrays of run-time size declared inside a region's loops
//! (`float accum[n];`, issue 15): OpenCL C has no variable-length arrays
//! (clBuildProgram fails), and a kernel's private arrays need a size known
//! when it is compiled. Where the region's context bounds the extent by a
//! constant (`__pencil_assume(n <= 16)`, or what its accesses imply),
//! each thread declares the array with that constant size instead; the
//! subscripts stay as written, which is correct since each index stays
//! below its run-time extent, hence below the bound.

use crate::front::affine::{compare, isl_name, Aff, AffineConverter, NameKind, Pw};
use crate::front::syntax::{BinOp, Expr};
use crate::scop::Scop;

/// The most elements a per-thread copy may have: a private array is
/// registers or stack on a GPU, and large ones belong in a buffer.
pub const MAX_PRIVATE_ELEMENTS: i64 = 4096;

/// The largest value of `extent` wherever the region runs (the region's
/// context), `None` if it is not an affine expression of the region's
/// parameters or has no constant upper bound.
pub fn extent_bound(scop: &Scop, extent: &Expr) -> Option<i64> {
    let classify = |n: &str| {
        if scop.params.contains(&isl_name(n)) {
            NameKind::Parameter
        } else {
            NameKind::Other
        }
    };
    let pw = AffineConverter::new(&classify).pw(extent).ok()?;
    let x = Pw(vec![(vec![], Aff::atom("pencilc_x".to_string()))]);
    let text = format!(
        "[{}] -> {{ [pencilc_x] : {} }}",
        scop.params.join(", "),
        compare(&x, BinOp::Eq, &pw)
    );
    let isl = crate::isl::Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
    let set = isl.set(&text).ok()?;
    let context = isl.set(&scop.context).ok()?;
    let max = set.intersect_params(context).ok()?.dim_max_val(0).ok()?;
    if !max.is_int().ok()? {
        return None;
    }
    Some(max.get_num_si().ok()?.max(1))
}

/// Where a kernel keeps an array that a statement body declares.
#[derive(Debug, PartialEq)]
pub enum Placement {
    /// Constant extents: a private array as written.
    AsWritten,
    /// Run-time extents with constant bounds: a private array of the bounds.
    Bounded(Vec<i64>),
    /// Run-time extents without a (small enough) constant bound: each
    /// thread's slice of a device buffer the host allocates around the
    /// launch (`slice_buffer`), indexed row-major with the run-time extents.
    Slice,
}

/// Where `var` lives in a kernel; `None` if it has an unsized dimension.
pub fn placement(scop: &Scop, var: &crate::front::syntax::VarDecl) -> Option<Placement> {
    let mut names = Vec::new();
    for d in var.dims.iter() {
        d.as_ref()?.idents(&mut names);
    }
    if names.is_empty() {
        return Some(Placement::AsWritten);
    }
    let bounds: Option<Vec<i64>> = var
        .dims
        .iter()
        .map(|d| d.as_ref().and_then(|e| extent_bound(scop, e)))
        .collect();
    let elements = bounds
        .as_ref()
        .and_then(|b| b.iter().try_fold(1i64, |acc, &x| acc.checked_mul(x)));
    Some(match (bounds, elements) {
        (Some(b), Some(n)) if n <= MAX_PRIVATE_ELEMENTS => Placement::Bounded(b),
        _ => Placement::Slice,
    })
}

/// `name` has its value on entry to the region wherever the region runs:
/// a parameter, or a scalar of the function the region reads and never
/// writes.
fn known_on_entry(scop: &Scop, name: &str) -> bool {
    scop.params.contains(&isl_name(name))
        || scop
            .arrays
            .iter()
            .any(|a| a.name == name && a.is_scalar() && !a.written && !a.local)
}

/// The device buffer holding every thread's slice of `name`.
pub fn slice_buffer(name: &str) -> String {
    format!("pencilc_slice_{}", name)
}

/// The arrays of the statements `stmts` that kernels keep in slices, each
/// once: (name, element type, extents). Two such arrays of one name
/// with different extents or types cannot share a buffer name.
pub fn slices(
    scop: &Scop,
    stmts: impl Iterator<Item = usize>,
) -> crate::diag::Result<Vec<(String, String, Vec<Expr>)>> {
    use crate::front::syntax::Stmt;
    fn walk(body: &[Stmt], out: &mut Vec<(crate::front::syntax::VarDecl, crate::diag::Loc)>) {
        for s in body {
            match s {
                Stmt::Decl { var, loc, .. } => out.push((var.clone(), loc.clone())),
                Stmt::For { body, .. } | Stmt::While { body, .. } => walk(body, out),
                Stmt::If { then_, else_, .. } => {
                    walk(then_, out);
                    walk(else_, out);
                }
                _ => {}
            }
        }
    }
    let mut out: Vec<(String, String, Vec<Expr>)> = Vec::new();
    for s in stmts {
        let crate::scop::StmtBody::Compound(body) = &scop.stmts[s].body else {
            continue;
        };
        let mut decls = Vec::new();
        walk(body, &mut decls);
        for (var, loc) in decls {
            if placement(scop, &var) != Some(Placement::Slice) {
                continue;
            }
            let dims: Vec<Expr> = var.dims.iter().flatten().cloned().collect();
            // The host sizes the buffer before the launch: from values the
            // region reads and never writes, not from its own locals.
            let mut names = Vec::new();
            dims.iter().for_each(|d| d.idents(&mut names));
            if let Some(n) = names.iter().find(|n| !known_on_entry(scop, n)) {
                return Err(crate::diag::Diagnostic::error(
                    crate::diag::Code::UnsupportedType,
                    Some(loc),
                    format!(
                        "the size of `{}` depends on `{}`, which the region computes: a device kernel's arrays of run-time size are allocated before it starts",
                        var.name, n
                    ),
                )
                .with_hint(format!(
                    "size `{}` by a variable set before `#pragma scop` or by a constant bound, or compile with `--target c`",
                    var.name
                )));
            }
            let plain = |d: &[Expr]| d.iter().map(crate::front::cexpr::plain).collect::<Vec<_>>();
            match out.iter().find(|(n, _, _)| *n == var.name) {
                Some((_, t, d)) if *t == var.base_type && plain(d) == plain(&dims) => {}
                Some(_) => {
                    return Err(crate::diag::Diagnostic::error(
                        crate::diag::Code::UnsupportedType,
                        Some(loc),
                        format!(
                            "`{}` is declared twice in one kernel with different run-time sizes or types",
                            var.name
                        ),
                    )
                    .with_hint("give the arrays different names"))
                }
                None => out.push((var.name.clone(), var.base_type.clone(), dims)),
            }
        }
    }
    Ok(out)
}

/// `name[s0][s1]...` of a slice as one subscript, row-major with the
/// run-time extents `dims` (expressions are rewritten, not text); with
/// `wide`, the row's offset in `long` (an array that may be larger than
/// `int` indexes: a device function's parameter can be any array).
pub fn linearise(e: &Expr, slices: &[(String, Vec<Expr>)], wide: bool) -> Expr {
    use crate::front::syntax::ExprKind;
    let b = |x: &Expr| Box::new(linearise(x, slices, wide));
    let mk = |kind| Expr {
        kind,
        loc: e.loc.clone(),
    };
    // The whole subscript chain of a slice access.
    let mut subs = Vec::new();
    let mut cur = e;
    while let ExprKind::Index(a, i) = &cur.kind {
        subs.push(i.as_ref());
        cur = a;
    }
    if let ExprKind::Ident(n) = &cur.kind {
        if let Some((_, dims)) = slices.iter().find(|(s, _)| s == n) {
            if !subs.is_empty() && subs.len() == dims.len() {
                subs.reverse();
                let mut lin = linearise(subs[0], slices, wide);
                if wide && dims.len() > 1 {
                    lin = mk(ExprKind::Cast("long".to_string(), Box::new(lin)));
                }
                for (k, s) in subs.iter().enumerate().skip(1) {
                    let scaled = mk(ExprKind::Binary(
                        BinOp::Mul,
                        Box::new(lin),
                        Box::new(dims[k].clone()),
                    ));
                    lin = mk(ExprKind::Binary(BinOp::Add, Box::new(scaled), b(s)));
                }
                return mk(ExprKind::Index(Box::new(cur.clone()), Box::new(lin)));
            }
        }
    }
    mk(match &e.kind {
        ExprKind::Index(a, i) => ExprKind::Index(b(a), b(i)),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, b(a)),
        ExprKind::Binary(op, x, y) => ExprKind::Binary(*op, b(x), b(y)),
        ExprKind::Cond(c, t, f) => ExprKind::Cond(b(c), b(t), b(f)),
        ExprKind::Call(f, args) => ExprKind::Call(
            f.clone(),
            args.iter().map(|a| linearise(a, slices, wide)).collect(),
        ),
        ExprKind::Cast(t, a) => ExprKind::Cast(t.clone(), b(a)),
        k => k.clone(),
    })
}

/// The index of the running thread among all threads of the launch, for
/// its slice; every launch dimension counts (unused ones have size 1).
pub fn thread_index(target: crate::back::Target) -> &'static str {
    match target {
        crate::back::Target::OpenCl => {
            "(get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2)))"
        }
        _ => {
            "((unsigned long) blockIdx.x * blockDim.x + threadIdx.x + (unsigned long) gridDim.x * blockDim.x * ((unsigned long) blockIdx.y * blockDim.y + threadIdx.y + (unsigned long) gridDim.y * blockDim.y * ((unsigned long) blockIdx.z * blockDim.z + threadIdx.z)))"
        }
    }
}
