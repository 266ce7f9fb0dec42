//! Device copies of the file's functions that kernels call as statements
//! (`front::parse::called`): OpenCL C and CUDA kernels cannot call the
//! host's definition, so the kernel file gets one of its own. Arrays reach
//! kernels as flat buffers, so an array parameter becomes a pointer into
//! one (`__global double *b` in OpenCL C) and its subscripts are
//! linearised with its declared extents; a row passed as an argument
//! (`f(n, A[i])`) is the address of its first element.

use super::Target;
use crate::diag::{Code, Diagnostic, Result};
use crate::front::cexpr::ExprPrinter;
use crate::front::parse::called::CalledFn;
use crate::front::syntax::{device_int_type, Expr, ExprKind, Stmt, UnOp, VarDecl};

/// Prototypes, then definitions, of `fns` for `target`'s kernel file;
/// `call_name` maps a called function's name as in the kernels.
pub fn definitions(
    fns: &[&CalledFn],
    target: Target,
    call_name: &dyn Fn(&str) -> String,
) -> Result<String> {
    if fns.is_empty() {
        return Ok(String::new());
    }
    let mut protos =
        String::from("/* The input's functions that kernels call, for the device. */\n");
    let mut defs = String::new();
    for f in fns {
        let head = signature(f, target);
        protos.push_str(&format!("{};\n", head));
        let mut body = String::new();
        let mut scope: Vec<&VarDecl> = f.params.iter().collect();
        let locals = locals(&f.body);
        scope.extend(locals.iter());
        let printer = FnPrinter {
            f,
            arrays: &scope,
            call_name,
        };
        printer.block(&f.body, 1, &mut body)?;
        defs.push_str(&format!("{}\n{{\n{}}}\n", head, body));
    }
    Ok(format!("{}\n{}", protos, defs))
}

fn signature(f: &CalledFn, target: Target) -> String {
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let ty = device_int_type(&p.base_type);
            let ty = if p.read_only && !ty.starts_with("const ") {
                format!("const {}", ty)
            } else {
                ty
            };
            if p.rank() > 0 {
                match target {
                    Target::OpenCl => format!("__global {} *{}", ty, p.name),
                    _ => format!("{} *{}", ty, p.name),
                }
            } else {
                format!("{} {}", ty, p.name)
            }
        })
        .collect();
    let prefix = match target {
        Target::Cuda => "static __device__ void",
        _ => "void",
    };
    format!("{} {}({})", prefix, f.name, params.join(", "))
}

/// The local declarations of a body, at every depth.
fn locals(body: &[Stmt]) -> Vec<VarDecl> {
    let mut out = Vec::new();
    for s in body {
        match s {
            Stmt::Decl { var, .. } => out.push(var.clone()),
            Stmt::For { body, .. } | Stmt::While { body, .. } => out.extend(locals(body)),
            Stmt::If { then_, else_, .. } => {
                out.extend(locals(then_));
                out.extend(locals(else_));
            }
            _ => {}
        }
    }
    out
}

struct FnPrinter<'a> {
    f: &'a CalledFn,
    /// Parameters and locals, innermost declarations last.
    arrays: &'a [&'a VarDecl],
    call_name: &'a dyn Fn(&str) -> String,
}

impl FnPrinter<'_> {
    fn decl(&self, n: &str) -> Option<&VarDecl> {
        self.arrays.iter().rev().find(|v| v.name == n).copied()
    }

    /// Array parameters with their extents, whose subscripts are
    /// linearised (locals keep C's arrays).
    fn flat(&self) -> Vec<(String, Vec<Expr>)> {
        self.f
            .params
            .iter()
            .filter(|p| p.rank() > 1)
            .map(|p| {
                let dims = p
                    .dims
                    .iter()
                    .map(|d| d.clone().unwrap_or_else(|| zero(&p.loc)))
                    .collect();
                (p.name.clone(), dims)
            })
            .collect()
    }

    fn expr(&self, e: &Expr) -> String {
        let e = super::private::linearise(e, &self.flat(), true);
        let var = |n: &str| self.decl(n).map(|d| d.base_type.clone());
        let e = super::convert::convert_math_args(&e, &var);
        let access = |n: &str, subs: &[String]| {
            format!(
                "{}{}",
                n,
                subs.iter().map(|s| format!("[{}]", s)).collect::<String>()
            )
        };
        ExprPrinter {
            ident: &|n| n.to_string(),
            access: &access,
            call: self.call_name,
            flat_rows: true,
        }
        .print(&e)
    }

    /// A call argument: a row of an array (fewer subscripts than its
    /// rank) is the address of its first element.
    fn argument(&self, a: &Expr) -> String {
        let mut subs = Vec::new();
        let mut cur = a;
        while let ExprKind::Index(b, i) = &cur.kind {
            subs.push(i.as_ref().clone());
            cur = b;
        }
        if let ExprKind::Ident(n) = &cur.kind {
            if let Some(d) = self.decl(n) {
                if !subs.is_empty() && subs.len() < d.rank() {
                    subs.reverse();
                    let mut full = cur.clone();
                    for k in 0..d.rank() {
                        let s = subs.get(k).cloned().unwrap_or_else(|| zero(&a.loc));
                        full = Expr {
                            kind: ExprKind::Index(Box::new(full), Box::new(s)),
                            loc: a.loc.clone(),
                        };
                    }
                    let addr = Expr {
                        kind: ExprKind::Unary(UnOp::AddrOf, Box::new(full)),
                        loc: a.loc.clone(),
                    };
                    return self.expr(&addr);
                }
            }
        }
        self.expr(a)
    }

    fn block(&self, body: &[Stmt], depth: usize, out: &mut String) -> Result<()> {
        let ind = super::body::indent(depth);
        for s in body {
            match s {
                Stmt::For {
                    iter,
                    iter_type,
                    init,
                    cond,
                    step,
                    body,
                    ..
                } => {
                    let decl = iter_type
                        .as_deref()
                        .map(|t| format!("{} ", device_int_type(t)))
                        .unwrap_or_default();
                    out.push_str(&format!(
                        "{}for ({}{} = {}; {}; {} += {}) {{\n",
                        ind,
                        decl,
                        iter,
                        self.expr(init),
                        self.expr(cond),
                        iter,
                        step
                    ));
                    self.block(body, depth + 1, out)?;
                    out.push_str(&format!("{}}}\n", ind));
                }
                Stmt::If {
                    cond, then_, else_, ..
                } => {
                    out.push_str(&format!("{}if ({}) {{\n", ind, self.expr(cond)));
                    self.block(then_, depth + 1, out)?;
                    if !else_.is_empty() {
                        out.push_str(&format!("{}}} else {{\n", ind));
                        self.block(else_, depth + 1, out)?;
                    }
                    out.push_str(&format!("{}}}\n", ind));
                }
                Stmt::While { cond, body, .. } => {
                    out.push_str(&format!("{}while ({}) {{\n", ind, self.expr(cond)));
                    self.block(body, depth + 1, out)?;
                    out.push_str(&format!("{}}}\n", ind));
                }
                Stmt::Assign { lhs, op, rhs, .. } => out.push_str(&format!(
                    "{}{} {} {};\n",
                    ind,
                    self.expr(lhs),
                    op.c_text(),
                    self.expr(rhs)
                )),
                Stmt::Decl { var, init, loc } => {
                    let mut dims = String::new();
                    for d in &var.dims {
                        match d.as_ref().and_then(const_int) {
                            Some(c) => dims.push_str(&format!("[{}]", c)),
                            None => {
                                return Err(Diagnostic::error(
                                    Code::UnsupportedType,
                                    Some(loc.clone()),
                                    format!(
                                        "`{}` in `{}`, which a kernel calls, has no constant size",
                                        var.name, self.f.name
                                    ),
                                )
                                .with_hint("give the local array a constant size, or compile with `--target c`"))
                            }
                        }
                    }
                    let ty = device_int_type(&var.base_type);
                    match init {
                        Some(i) => out.push_str(&format!(
                            "{}{} {}{} = {};\n",
                            ind,
                            ty,
                            var.name,
                            dims,
                            self.expr(i)
                        )),
                        None => out.push_str(&format!("{}{} {}{};\n", ind, ty, var.name, dims)),
                    }
                }
                Stmt::Call { name, args, .. } => {
                    let args: Vec<String> = args.iter().map(|a| self.argument(a)).collect();
                    out.push_str(&format!(
                        "{}{}({});\n",
                        ind,
                        (self.call_name)(name),
                        args.join(", ")
                    ));
                }
                Stmt::Break(_) => out.push_str(&format!("{}break;\n", ind)),
                Stmt::Continue(_) => out.push_str(&format!("{}continue;\n", ind)),
                Stmt::Assume { .. } | Stmt::Kill { .. } => {}
            }
        }
        Ok(())
    }
}

fn zero(loc: &crate::diag::Loc) -> Expr {
    Expr {
        kind: ExprKind::Int(0, "0".into()),
        loc: loc.clone(),
    }
}

fn const_int(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v, _) => Some(*v),
        _ => None,
    }
}
