//! Region syntax to the polyhedral model.

use super::*;
use crate::back::cexpr::plain;
use crate::diag::{Code, Diagnostic, Result};
use crate::front::affine::{compare, isl_name, AffineConverter, NameKind, NotAffine, Pw};
use crate::front::parse::{const_value, Region};
use crate::front::syntax::{BinOp, ExprKind, Stmt, VarDecl};
use std::collections::{BTreeMap, BTreeSet};

/// Math functions that are pure and exist in C, OpenCL C and CUDA.
pub const PURE_FUNCTIONS: &[&str] = &[
    "sqrt", "sqrtf", "exp", "expf", "exp2", "exp2f", "log", "logf", "log2", "log2f", "log10",
    "log10f", "pow", "powf", "fabs", "fabsf", "abs", "sin", "sinf", "cos", "cosf", "tan", "tanf",
    "asin", "asinf", "acos", "acosf", "atan", "atanf", "atan2", "atan2f", "sinh", "sinhf", "cosh",
    "coshf", "tanh", "tanhf", "floor", "floorf", "ceil", "ceilf", "fmin", "fminf", "fmax", "fmaxf",
    "fmod", "fmodf", "round", "roundf", "trunc", "truncf", "cbrt", "cbrtf", "hypot", "hypotf",
    "erf", "erff", "min", "max",
];

enum SchedDim {
    Pos(usize),
    Iter(String, i64),
}

struct Builder<'r> {
    region: &'r Region,
    written: BTreeSet<String>,
    /// C names of the enclosing iterators.
    iters: Vec<String>,
    constraints: Vec<String>,
    sched: Vec<SchedDim>,
    params: BTreeSet<String>,
    stmts: Vec<Statement>,
    sched_dims: Vec<Vec<String>>,
    array_use: BTreeMap<String, (bool, bool)>,
}

pub fn build_scop(region: &Region) -> Result<Scop> {
    let mut written = BTreeSet::new();
    collect_written(&region.body, &mut written);
    let mut b = Builder {
        region,
        written,
        iters: vec![],
        constraints: vec![],
        sched: vec![],
        params: BTreeSet::new(),
        stmts: vec![],
        sched_dims: vec![],
        array_use: BTreeMap::new(),
    };
    b.block(&region.body)?;
    b.finish()
}

/// Iterators are the enclosing loops' variables; parameters are integer
/// scalars the region never writes; everything else is data.
fn classify_name(
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

fn collect_written(body: &[Stmt], out: &mut BTreeSet<String>) {
    for s in body {
        match s {
            Stmt::For { body, .. } => collect_written(body, out),
            Stmt::If { then_, else_, .. } => {
                collect_written(then_, out);
                collect_written(else_, out);
            }
            Stmt::Assign { lhs, .. } => {
                if let Some(n) = base_name(lhs) {
                    out.insert(n.to_string());
                }
            }
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

impl<'r> Builder<'r> {
    fn decl(&self, name: &str) -> Option<&VarDecl> {
        self.region.symbols.get(name)
    }

    fn classify(&self, name: &str) -> NameKind {
        classify_name(&self.iters, &self.written, &self.region.symbols, name)
    }

    fn convert<T>(
        &mut self,
        f: impl FnOnce(&mut AffineConverter) -> std::result::Result<T, NotAffine>,
        code: Code,
        e: &Expr,
        what: &str,
    ) -> Result<T> {
        let (result, params) = {
            let classify = |n: &str| self.classify(n);
            let mut conv = AffineConverter::new(&classify);
            (f(&mut conv), conv.params)
        };
        match result {
            Ok(v) => {
                self.params.extend(params);
                Ok(v)
            }
            Err(na) => Err(self.affine_error(na, code, e, what)),
        }
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
        if let Some(n) = names
            .iter()
            .find(|n| self.written.contains(*n) && !self.iters.contains(n))
        {
            return Diagnostic::error(
                Code::DataDependentControl,
                Some(na.loc),
                format!("{} `{}` depends on `{}`, which the region writes", what, plain(e), n),
            )
            .with_hint("loop bounds, conditions and subscripts may only use iterators and values the region does not change");
        }
        let indirect = contains_access(e);
        let hint = match code {
            Code::NonAffineSubscript if indirect => {
                "indirect accesses such as A[idx[i]] are outside the static-control subset; compute the index outside the region, or keep this loop out of the `#pragma scop` region"
            }
            Code::NonAffineSubscript => {
                "subscripts must be affine in the loop iterators and parameters; linearised accesses such as A[i*n+j] need a multi-dimensional array (C99 VLA) instead"
            }
            Code::NonAffineBound => {
                "loop bounds must be affine in outer iterators and parameters (min, max, and division by a constant are allowed); add __pencil_assume facts or restructure the loop"
            }
            _ => "conditions must compare affine expressions of iterators and parameters; move data-dependent tests into the statement (e.g. with ?:)",
        };
        Diagnostic::error(
            code,
            Some(na.loc),
            format!("{} `{}` is not affine: {}", what, plain(e), na.reason),
        )
        .with_hint(hint)
    }

    fn block(&mut self, body: &[Stmt]) -> Result<()> {
        for (pos, s) in body.iter().enumerate() {
            self.sched.push(SchedDim::Pos(pos));
            match s {
                Stmt::For {
                    iter,
                    init,
                    cond,
                    step,
                    body,
                    loc,
                } => self.for_loop(iter, init, cond, *step, body, loc)?,
                Stmt::If {
                    cond, then_, else_, ..
                } => {
                    let c = self.convert(
                        |cv| cv.cond(cond),
                        Code::NonAffineCondition,
                        cond,
                        "the condition",
                    )?;
                    self.constraints.push(format!("({})", c));
                    self.block(then_)?;
                    self.constraints.pop();
                    if !else_.is_empty() {
                        self.constraints.push(format!("not ({})", c));
                        self.block(else_)?;
                        self.constraints.pop();
                    }
                }
                Stmt::Assign { lhs, op, rhs, loc } => self.statement(lhs, *op, rhs, loc)?,
            }
            self.sched.pop();
        }
        Ok(())
    }

    fn for_loop(
        &mut self,
        iter: &str,
        init: &Expr,
        cond: &Expr,
        step: i64,
        body: &[Stmt],
        loc: &Loc,
    ) -> Result<()> {
        match self.decl(iter) {
            Some(d) if d.is_integer() => {}
            Some(_) => {
                return Err(Diagnostic::error(
                    Code::NonCanonicalLoop,
                    Some(loc.clone()),
                    format!("loop iterator `{}` is not an integer variable", iter),
                )
                .with_hint("use an int iterator"))
            }
            None => {
                // `for (int i = ...)` declares its own iterator.
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
            ));
        }
        let mut inner_written = BTreeSet::new();
        collect_written(body, &mut inner_written);
        if inner_written.contains(iter) {
            return Err(Diagnostic::error(
                Code::NonCanonicalLoop,
                Some(loc.clone()),
                format!("the loop body assigns its iterator `{}`", iter),
            )
            .with_hint("the iterator may only change in the loop header"));
        }
        let lb = self.convert(
            |cv| cv.pw(init),
            Code::NonAffineBound,
            init,
            "the lower bound",
        )?;
        self.iters.push(iter.to_string());
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
                return Err(e);
            }
        };
        let it = Pw(vec![(
            vec![],
            crate::front::affine::Aff::atom(isl_name(iter)),
        )]);
        let start = if step > 0 {
            compare(&it, BinOp::Ge, &lb)
        } else {
            compare(&it, BinOp::Le, &lb)
        };
        let mut cons = vec![format!("({})", start), format!("({})", c)];
        if step.abs() > 1 {
            let alts: Vec<String> =
                lb.0.iter()
                    .map(|(g, a)| {
                        let mut parts: Vec<String> = g.iter().map(|x| format!("({})", x)).collect();
                        parts.push(format!(
                            "({} - ({})) mod {} = 0",
                            isl_name(iter),
                            a.to_isl(),
                            step.abs()
                        ));
                        parts.join(" and ")
                    })
                    .collect();
            cons.push(format!("({})", alts.join(" or ")));
        }
        let n = cons.len();
        self.constraints.extend(cons);
        self.sched
            .push(SchedDim::Iter(isl_name(iter), step.signum()));
        let r = self.block(body);
        self.sched.pop();
        self.constraints.truncate(self.constraints.len() - n);
        self.iters.pop();
        r
    }

    fn statement(&mut self, lhs: &Expr, op: AssignOp, rhs: &Expr, loc: &Loc) -> Result<()> {
        let id = self.stmts.len();
        let name = format!("S_{}", id);
        let tuple = format!(
            "{}[{}]",
            name,
            self.iters
                .iter()
                .map(|i| isl_name(i))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut reads = Vec::new();
        let mut writes = Vec::new();
        // The written location.
        let lname = base_name(lhs).unwrap_or("").to_string();
        if self.iters.contains(&lname) {
            return Err(Diagnostic::error(
                Code::NonCanonicalLoop,
                Some(lhs.loc.clone()),
                format!("assignment to loop iterator `{}`", lname),
            ));
        }
        let w = self.access(lhs, &tuple)?;
        if op != AssignOp::Assign {
            reads.push(w.clone());
        }
        writes.push(w);
        self.reads_in(lhs, &tuple, &mut reads, true)?;
        self.reads_in(rhs, &tuple, &mut reads, false)?;
        let dom = if self.constraints.is_empty() {
            format!("{{ {} }}", tuple)
        } else {
            format!("{{ {} : {} }}", tuple, self.constraints.join(" and "))
        };
        let sched: Vec<String> = self
            .sched
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
            .collect();
        self.sched_dims.push(sched);
        self.stmts.push(Statement {
            id: StmtId(id),
            name: name.clone(),
            iterators: self.iters.clone(),
            domain: dom,
            schedule: String::new(),
            reads,
            writes,
            lhs: lhs.clone(),
            op,
            rhs: rhs.clone(),
            loc: loc.clone(),
        });
        Ok(())
    }

    /// The access relation of a scalar or array element expression.
    fn access(&mut self, e: &Expr, tuple: &str) -> Result<Access> {
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
        if subs.len() != decl.rank() {
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
        if !decl.dims.is_empty()
            || decl.pointer
            || !crate::front::syntax::is_integer_type(&decl.base_type)
        {
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
        }
        let mut outs = Vec::new();
        let mut cons = Vec::new();
        for (d, s) in subs.iter().enumerate() {
            let pw = self.convert(|cv| cv.pw(s), Code::NonAffineSubscript, s, "the subscript")?;
            match pw.0.as_slice() {
                [(g, a)] if g.is_empty() => outs.push(a.to_isl()),
                _ => {
                    let o = format!("o{}_", d);
                    let ov = Pw(vec![(vec![], crate::front::affine::Aff::atom(o.clone()))]);
                    cons.push(format!("({})", compare(&ov, BinOp::Eq, &pw)));
                    outs.push(o);
                }
            }
        }
        let rel = if cons.is_empty() {
            format!("{{ {} -> {}[{}] }}", tuple, name, outs.join(", "))
        } else {
            format!(
                "{{ {} -> {}[{}] : {} }}",
                tuple,
                name,
                outs.join(", "),
                cons.join(" and ")
            )
        };
        Ok(Access {
            array: name.to_string(),
            relation: rel,
        })
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
                if is_lhs || self.classify(n) != NameKind::Other {
                    return Ok(());
                }
                out.push(self.access(e, tuple)?);
                Ok(())
            }
            ExprKind::Index(..) => {
                for s in subscripts(e) {
                    self.reads_in(s, tuple, out, false)?;
                }
                if !is_lhs {
                    out.push(self.access(e, tuple)?);
                }
                Ok(())
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => self.reads_in(a, tuple, out, false),
            ExprKind::Binary(_, a, b) => {
                self.reads_in(a, tuple, out, false)?;
                self.reads_in(b, tuple, out, false)
            }
            ExprKind::Cond(c, t, f) => {
                self.reads_in(c, tuple, out, false)?;
                self.reads_in(t, tuple, out, false)?;
                self.reads_in(f, tuple, out, false)
            }
            ExprKind::Call(f, args) => {
                if !PURE_FUNCTIONS.contains(&f.as_str()) {
                    return Err(Diagnostic::error(Code::ImpureCall, Some(e.loc.clone()), format!("call to `{}`, which is not known to be pure", f))
                        .with_hint("only math functions (sqrt, exp, pow, fabs, ...) may be called in a region; summary functions are not supported yet"));
                }
                for a in args {
                    self.reads_in(a, tuple, out, false)?;
                }
                Ok(())
            }
        }
    }

    fn finish(mut self) -> Result<Scop> {
        let params: Vec<String> = self.params.iter().cloned().collect();
        let prefix = format!("[{}] -> ", params.join(", "));
        let depth = self.sched_dims.iter().map(|d| d.len()).max().unwrap_or(0);
        for (st, dims) in self.stmts.iter_mut().zip(&self.sched_dims) {
            let mut dims = dims.clone();
            while dims.len() < depth.max(1) {
                dims.push("0".into());
            }
            let tuple = format!(
                "{}[{}]",
                st.name,
                st.iterators
                    .iter()
                    .map(|i| isl_name(i))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            st.schedule = format!("{}{{ {} -> [{}] }}", prefix, tuple, dims.join(", "));
            st.domain = format!("{}{}", prefix, st.domain);
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
                    None => {
                        return Err(Diagnostic::error(
                            Code::UnknownArraySize,
                            Some(d.loc.clone()),
                            format!("the size of dimension {} of `{}` is not declared", k, name),
                        )
                        .with_hint("declare array parameters with all their extents, e.g. `double A[n][m]` (C99 VLA) or `double A[N][M]`"));
                    }
                }
            }
            if d.pointer {
                return Err(Diagnostic::error(
                    Code::UnknownArraySize,
                    Some(d.loc.clone()),
                    format!("`{}` is a pointer, so its size is unknown", name),
                )
                .with_hint("declare it as an array with its extents, e.g. `double A[n]`"));
            }
            arrays.push(Array {
                name: name.clone(),
                elem_type: d.base_type.clone(),
                extents,
                read: *read,
                written: *written,
                loc: d.loc.clone(),
            });
        }
        Ok(Scop {
            function: self.region.function.clone(),
            begin_line: self.region.begin_line,
            end_line: self.region.end_line,
            loc: self.region.loc.clone(),
            context: format!("[{}] -> {{ : }}", params.join(", ")),
            params,
            arrays,
            stmts: self.stmts,
        })
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
