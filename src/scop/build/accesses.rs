//! Accesses: the element an expression names, as an isl map from the
//! statement's instances, with warnings for linearised subscripts, and
//! the reads an expression makes.

use super::*;
use crate::front::syntax::member_row;

impl<'r> Builder<'r> {
    /// The access relation of a scalar or array element expression,
    /// through the enclosing compound's inner loops if any. A subscript
    /// that is not affine leaves its dimension unconstrained, and the
    /// access becomes a may-access. With `whole_ok`, an array named
    /// without subscripts is all of it (summaries, kills, call arguments).
    pub(super) fn access(&mut self, e: &Expr, tuple: &str, whole_ok: bool) -> Result<Access> {
        self.access_span(e, tuple, whole_ok, 1)
    }

    /// A call's or a kill's argument that is a struct's member array or
    /// member struct (`syntax::MEMBER_ROW`): all the places it spans, from
    /// its first (a may-access only where its subscripts are not affine).
    pub(super) fn member_row(&mut self, e: &Expr, tuple: &str) -> Option<Result<Access>> {
        let row = member_row(e)?;
        Some(self.access_span(row.first, tuple, false, row.places))
    }

    /// `access`, where the last subscript is the first of `span` places in
    /// a row (a member array of a struct).
    fn access_span(
        &mut self,
        e: &Expr,
        tuple: &str,
        whole_ok: bool,
        span: usize,
    ) -> Result<Access> {
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
        // A whole struct is all of its members where the whole of an
        // object is meant (a call's argument, a kill), and a copy the model
        // cannot hold elsewhere.
        if subs.len() + 1 == decl.rank() && !decl.members.is_empty() && !whole_ok {
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
                crate::front::syntax::listed(&decl.members)
            )));
        }
        // The type first: a type pencilc does not know (a typedef of a
        // pointer to rows) has no extents to count.
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
                "regions may access arrays and scalars of integer and floating-point types, and pointers to them; where a typedef names the type (one of a pointer to rows, `typedef double (*rows_t)[8];`, is not read), declare it with the type itself",
            ));
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
        let mut outs = Vec::new();
        let mut cons = Vec::new();
        let mut may = whole || self.conditional > 0;
        for d in 0..decl.rank() {
            let o = format!("o{}_", d);
            outs.push(o.clone());
            let Some(s) = subs.get(d) else { continue };
            if span > 1 && d + 1 == decl.rank() {
                // The places `s` to `s + span - 1`.
                let last = Expr {
                    kind: ExprKind::Binary(
                        BinOp::Add,
                        Box::new((*s).clone()),
                        Box::new(Expr {
                            kind: ExprKind::Int(span as i64 - 1, (span - 1).to_string()),
                            loc: s.loc.clone(),
                        }),
                    ),
                    loc: s.loc.clone(),
                };
                let ov = Pw(vec![(vec![], crate::front::affine::Aff::atom(o))]);
                match (
                    self.try_convert(|cv| cv.pw(s)),
                    self.try_convert(|cv| cv.pw(&last)),
                ) {
                    (Ok(lo), Ok(hi)) => {
                        cons.push(format!("({})", compare(&ov, BinOp::Ge, &lo)));
                        cons.push(format!("({})", compare(&ov, BinOp::Le, &hi)));
                    }
                    _ => may = true,
                }
                continue;
            }
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
        all.extend(self.guards.iter().map(|g| format!("({})", g)));
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
    pub(super) fn warn_linearised(&mut self, decl: &VarDecl, s: &Expr) {
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

    /// The reads the subscripts of `a` make (`A[x[i]][j]`: `x[i]`).
    pub(super) fn subscript_reads(
        &mut self,
        a: &Expr,
        tuple: &str,
        reads: &mut Vec<Access>,
    ) -> Result<()> {
        let mut cur = a;
        while let ExprKind::Index(b, i) = &cur.kind {
            self.reads_in(i, tuple, reads, false)?;
            cur = b;
        }
        Ok(())
    }

    /// Whether a call argument gives the callee memory rather than a value:
    /// an element's address, an array, or a row of one.
    pub(super) fn names_memory(&self, a: &Expr) -> bool {
        match &a.kind {
            ExprKind::Unary(UnOp::AddrOf, _) => true,
            ExprKind::Call(..) => member_row(a).is_some(),
            ExprKind::Ident(_) | ExprKind::Index(..) => base_name(a)
                .and_then(|b| self.decl(b))
                .is_some_and(|d| subscripts(a).len() < d.rank()),
            ExprKind::Cast(_, x) => self.names_memory(x),
            _ => false,
        }
    }

    /// The affine facts that hold where the condition `c` is `value`: all
    /// of it where it is affine, else its affine conjuncts (`i > 0` of
    /// `i > 0 && x[i] > t`; for false, its affine disjuncts negated).
    pub(super) fn known_when(&mut self, c: &Expr, value: bool) -> Vec<String> {
        if let Ok(k) = self.try_convert(|cv| cv.cond(c)) {
            return vec![if value { k } else { format!("not ({})", k) }];
        }
        match &c.kind {
            ExprKind::Binary(BinOp::And, a, b) if value => {
                let mut k = self.known_when(a, true);
                k.extend(self.known_when(b, true));
                k
            }
            ExprKind::Binary(BinOp::Or, a, b) if !value => {
                let mut k = self.known_when(a, false);
                k.extend(self.known_when(b, false));
                k
            }
            ExprKind::Unary(UnOp::Not, a) => self.known_when(a, !value),
            _ => Vec::new(),
        }
    }

    /// `work` on accesses made only where `known` holds: of those
    /// instances only.
    pub(super) fn with_guards(
        &mut self,
        known: Vec<String>,
        work: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        let n = self.guards.len();
        self.guards.extend(known);
        let r = work(self);
        self.guards.truncate(n);
        r
    }

    /// `with_guards` for reads that may not happen at all (a branch of
    /// `?:`, the right operand of `&&`, `||`): may-reads.
    fn guarded(
        &mut self,
        known: Vec<String>,
        work: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.conditional += 1;
        let r = self.with_guards(known, work);
        self.conditional -= 1;
        r
    }

    /// Reads inside an expression. For the left-hand side only its
    /// subscripts are searched.
    pub(super) fn reads_in(
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
                let known = match op {
                    BinOp::And => self.known_when(a, true),
                    BinOp::Or => self.known_when(a, false),
                    _ => return self.reads_in(b, tuple, out, false),
                };
                self.guarded(known, |me| me.reads_in(b, tuple, out, false))
            }
            ExprKind::Cond(c, t, f) => {
                self.reads_in(c, tuple, out, false)?;
                let (yes, no) = (self.known_when(c, true), self.known_when(c, false));
                self.guarded(yes, |me| me.reads_in(t, tuple, out, false))?;
                self.guarded(no, |me| me.reads_in(f, tuple, out, false))
            }
            ExprKind::Call(f, args) => {
                if f == "__pencil_maybe" {
                    return Ok(());
                }
                if let Some(row) = member_row(e) {
                    self.subscript_reads(row.first, tuple, out)?;
                    let acc = self.access_span(row.first, tuple, false, row.places)?;
                    out.push(acc);
                    return Ok(());
                }
                if *f == self.region.function {
                    return Err(recursion(f, &e.loc));
                }
                // A summary never runs: a call in it only makes what it
                // guards a may-access (pet's `if (maybe())`), whatever the
                // function does; its arguments are read as a bodiless
                // function's are.
                let in_summary = self.in_summary;
                let writable = |k: usize| match self.region.prototypes.get(f) {
                    Some(Some(params)) => params.get(k).copied().unwrap_or(true),
                    _ => true,
                };
                if let Some((_, a)) = args.iter().enumerate().find(|(k, a)| {
                    !in_summary
                        && writable(*k)
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
                if !in_summary && !is_pure_function(f) && self.region.prototypes.contains_key(f) {
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
                } else if !in_summary && !is_pure_function(f) {
                    return Err(Diagnostic::error(Code::ImpureCall, Some(e.loc.clone()), format!("call to `{}`, which is not known to be pure", f))
                        .with_hint("in an expression, only math builtins (sqrt, exp, fminf, mixf, clamp, ...) and functions of this file whose body is local declarations and one `return` (inlined, where the globals they read are declared before the region and no local hides them) may be called; call other functions as statements, with a summary function (`__attribute__((pencil_access(summary)))`)"));
                }
                let bodiless = !is_pure_function(f);
                for a in args {
                    if member_row(a).is_some() {
                        self.reads_in(a, tuple, out, false)?;
                        continue;
                    }
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
}
