//! Accesses of code the model keeps as one statement: compound
//! statements (dynamic control: data-dependent `if`, non-affine bounds,
//! `while`, `break`, `continue`, local declarations) and calls to
//! functions with a summary, whose accesses come from the summary.

use super::*;

/// The locals of a compound statement among the names `declared` in its
/// `body`: the loops' iterators are quantified inside their loops, not
/// locals (a loop over a variable of the region reads and writes that
/// variable), unless the body declares them (`int i; for (i = 0; ...)
/// if (...) break; ... i`): such a name is quantified inside its loops
/// (`classify` takes it for an iterator there) and a local elsewhere, so
/// that what reads it after a loop ended by `break` reads the
/// statement's own value.
fn locals_of<'a>(body: &[Stmt], declared: impl Iterator<Item = &'a String>) -> BTreeSet<String> {
    let mut by_decl = Vec::new();
    decls(body, &mut by_decl);
    declared
        .filter(|n| !is_iterator_of(body, n) || by_decl.contains(n))
        .cloned()
        .collect()
}

/// The names `body` declares in declarations (not loop headers).
fn decls(body: &[Stmt], out: &mut Vec<String>) {
    for s in body {
        match s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => decls(body, out),
            Stmt::If { then_, else_, .. } => {
                decls(then_, out);
                decls(else_, out);
            }
            Stmt::Decl { var, .. } => out.push(var.name.clone()),
            _ => {}
        }
    }
}

/// Whether `name` is the iterator of a `for` loop inside `body`.
fn is_iterator_of(body: &[Stmt], name: &str) -> bool {
    body.iter().any(|s| match s {
        Stmt::For { iter, body, .. } => iter == name || is_iterator_of(body, name),
        Stmt::If { then_, else_, .. } => is_iterator_of(then_, name) || is_iterator_of(else_, name),
        Stmt::While { body, .. } => is_iterator_of(body, name),
        _ => false,
    })
}

/// The names `body` declares: its declarations and the loops that declare
/// their iterator (`for (int i = ...)`, not `for (i = ...)`).
fn own_declarations(body: &[Stmt], out: &mut Vec<String>) {
    for s in body {
        match s {
            Stmt::For {
                iter,
                iter_type,
                body,
                ..
            } => {
                if iter_type.is_some() {
                    out.push(iter.clone());
                }
                own_declarations(body, out);
            }
            Stmt::If { then_, else_, .. } => {
                own_declarations(then_, out);
                own_declarations(else_, out);
            }
            Stmt::While { body, .. } => own_declarations(body, out),
            Stmt::Decl { var, .. } => out.push(var.name.clone()),
            _ => {}
        }
    }
}

impl Builder<'_> {
    /// Code with dynamic control as one statement: its reads and (may-)
    /// writes are those of everything inside, inner iterators quantified
    /// away (PENCIL paper, §3 "non-static-affine").
    pub(super) fn compound(&mut self, body: &[Stmt], loc: &Loc) -> Result<()> {
        let tuple = self.tuple(&format!("S_{}", self.stmts.len()));
        let mut declared = Vec::new();
        body.iter().for_each(|s| s.declared(&mut declared));
        declared.sort();
        declared.dedup();
        self.inner_locals = locals_of(body, declared.iter());
        self.inner_declared = Vec::new();
        own_declarations(body, &mut self.inner_declared);
        let mut reads = Vec::new();
        let mut writes = Vec::new();
        let r = self.collect(body, &tuple, &mut reads, &mut writes);
        self.inner_declared.clear();
        self.inner_locals.clear();
        self.inner_iters.clear();
        self.inner_cons.clear();
        r?;
        // What runs inside is known at run time only, but a loop at the
        // top of the statement sets its iterator whenever the statement
        // runs (`for (i = 0; ...)`, whatever `break` ends it): of a
        // variable of the region (`run_by_compound`), a must-write. The
        // value it leaves is then the statement's, not one from before
        // the region (a region-local `int i;` has none).
        let set_by_loop: Vec<&str> = body
            .iter()
            .filter_map(|s| match s {
                Stmt::For { iter, .. } if self.run_by_compound.contains(iter) => {
                    Some(iter.as_str())
                }
                _ => None,
            })
            .collect();
        for w in &mut writes {
            w.may = !set_by_loop.contains(&w.array.as_str());
        }
        // A statement that is that loop alone reads its iterator only
        // after setting it (unless the first value reads the old one):
        // the value it leaves depends on nothing from before, and a
        // search per row (`for (i = 0; ...) if (...) break; out[r] = i;`)
        // leaves the rows independent where `i` has a copy per row.
        if let [Stmt::For { iter, init, .. }] = body {
            let mut first = Vec::new();
            init.idents(&mut first);
            if set_by_loop.contains(&iter.as_str()) && !first.contains(iter) {
                reads.retain(|r| r.array != *iter);
            }
        }
        let mut reductions: Vec<(String, RedOp)> = Vec::new();
        for w in &writes {
            if let Some(op) = self.reduction_op(&w.array) {
                if !reductions.iter().any(|(v, _)| v == &w.array) {
                    reductions.push((w.array.clone(), op));
                }
            }
        }
        let body = match body {
            [Stmt::Call { name, args, .. }] => StmtBody::Call {
                name: name.clone(),
                args: args.clone(),
            },
            _ => StmtBody::Compound(self.typed_iterators(body, &BTreeMap::new())),
        };
        self.push_statement(reads, writes, body, reductions, declared, loc);
        Ok(())
    }

    /// `body` with the type of each loop iterator declared outside its
    /// loop written into the loop (`iter_type`): the back ends print
    /// compound loops with their own declaration, which must keep the
    /// variable's type (a `long` iterator printed as `int` never reaches a
    /// bound beyond `int`). `declared` holds the body's own declarations
    /// seen so far.
    fn typed_iterators(&self, body: &[Stmt], declared: &BTreeMap<String, String>) -> Vec<Stmt> {
        let mut declared = declared.clone();
        let mut out = Vec::new();
        for s in body {
            out.push(match s {
                Stmt::Decl { var, .. } => {
                    declared.insert(var.name.clone(), var.base_type.clone());
                    s.clone()
                }
                Stmt::For {
                    iter,
                    iter_type,
                    init,
                    cond,
                    step,
                    body,
                    independent,
                    loc,
                } => Stmt::For {
                    iter: iter.clone(),
                    iter_type: iter_type.clone().or_else(|| {
                        declared
                            .get(iter)
                            .cloned()
                            .or_else(|| self.decl(iter).map(|d| d.base_type.clone()))
                    }),
                    init: init.clone(),
                    cond: cond.clone(),
                    step: *step,
                    body: self.typed_iterators(body, &declared),
                    independent: independent.clone(),
                    loc: loc.clone(),
                },
                Stmt::If {
                    cond,
                    then_,
                    else_,
                    loc,
                } => Stmt::If {
                    cond: cond.clone(),
                    then_: self.typed_iterators(then_, &declared),
                    else_: self.typed_iterators(else_, &declared),
                    loc: loc.clone(),
                },
                Stmt::While { cond, body, loc } => Stmt::While {
                    cond: cond.clone(),
                    body: self.typed_iterators(body, &declared),
                    loc: loc.clone(),
                },
                _ => s.clone(),
            });
        }
        out
    }

    /// Whether a compound statement's loop over `iter`, whose own
    /// constraints are `own`, keeps `iter` and its value after each
    /// iteration inside `range`, wherever the loops around reach it, for
    /// every value of the parameters.
    fn stays_in_type(&self, iter: &str, (lo, hi): (i128, i128), step: i64, own: &[String]) -> bool {
        let vars: Vec<String> = self.all_iters().iter().map(|i| isl_name(i)).collect();
        let params: Vec<String> = self.params.iter().cloned().collect();
        let it = isl_name(iter);
        let mut all: Vec<String> = self.constraints.clone();
        all.extend(self.inner_cons.iter().cloned());
        all.extend(self.guards.iter().map(|g| format!("({})", g)));
        // The parameters' own types bound them (`i < n` with an `int` n
        // keeps a `size_t` i far from its end).
        for p in &params {
            let range = self
                .decl(p)
                .and_then(|d| crate::front::syntax::integer_range(&d.base_type));
            if let Some((plo, phi)) = range {
                all.push(format!("({} <= {} <= {})", plo, p, phi));
            }
        }
        all.extend(own.iter().cloned());
        all.push(format!(
            "({it} < {lo} or {it} > {hi} or {it} + ({step}) < {lo} or {it} + ({step}) > {hi})"
        ));
        let text = format!(
            "[{}] -> {{ [{}] : {} }}",
            params.join(", "),
            vars.join(", "),
            all.join(" and ")
        );
        match self.isl.set(&text).and_then(|s| s.is_empty()) {
            Ok(empty) => empty,
            Err(e) => {
                // Unknown: the whole type (and isl's error state cleared).
                let _ = self.isl.err("scop", e);
                false
            }
        }
    }

    /// The accesses of `body` inside a compound statement.
    fn collect(
        &mut self,
        body: &[Stmt],
        tuple: &str,
        reads: &mut Vec<Access>,
        writes: &mut Vec<Access>,
    ) -> Result<()> {
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
                    self.check_declared(init)?;
                    self.reads_in(init, tuple, reads, false)?;
                    // A loop over a variable declared outside the region
                    // leaves its final value there, as C does (`break`
                    // included): the statement writes that variable, and
                    // the back ends print the loop over it
                    // (`back::stmt`, `Statement::writes_whole`).
                    // So does one over a local of the region declared
                    // before the statement (`int i; for (i = 0; ...)`).
                    if !self.inner_declared.contains(iter)
                        && (self.locals.contains_key(iter)
                            || self.region.symbols.contains_key(iter))
                    {
                        let var = Expr {
                            kind: ExprKind::Ident(iter.clone()),
                            loc: init.loc.clone(),
                        };
                        writes.push(self.access(&var, tuple, false)?);
                        self.run_by_compound.insert(iter.clone());
                    }
                    let lb = self.try_convert(|cv| cv.pw(init)).ok();
                    self.inner_iters.push(iter.clone());
                    self.check_declared(cond)?;
                    self.reads_in(cond, tuple, reads, false)?;
                    // Inside the body the condition held: all of it where it
                    // is affine, its affine conjuncts where not
                    // (`i < n && x[i] != 0`).
                    let c = self.known_when(cond, true);
                    let n = self.inner_cons.len();
                    let it = Pw(vec![(
                        vec![],
                        crate::front::affine::Aff::atom(isl_name(iter)),
                    )]);
                    let mut own = Vec::new();
                    if let Some(lb) = &lb {
                        let op = if *step > 0 { BinOp::Ge } else { BinOp::Le };
                        own.push(format!("({})", compare(&it, op, lb)));
                    }
                    own.extend(c.iter().map(|c| format!("({})", c)));
                    // An iterator whose type wraps around can take values
                    // that neither bound gives (`unsigned char k = 240; k <
                    // 250; k += 20` reaches 4): unless the bounds keep it
                    // and its next value inside the type, it ranges over
                    // the whole type.
                    let ty = iter_type
                        .clone()
                        .or_else(|| self.decl(iter).map(|d| d.base_type.clone()))
                        .unwrap_or_else(|| "int".to_string());
                    // So does one whose loops are dynamic because its
                    // values may leave the type (`int j; for (j = U; j <
                    // 10; j++)` of an `unsigned` U starts at U converted
                    // to `int`, which neither bound gives).
                    if let Some((lo, hi)) = crate::front::syntax::integer_range(&ty) {
                        if (loops::wraps_around((lo, hi))
                            && !self.stays_in_type(iter, (lo, hi), *step, &own))
                            || self.dynamic_vars.contains(iter)
                        {
                            // (A 64-bit range is no bound at all: left out,
                            // as isl's constants and the index type would
                            // not hold it.)
                            own = if hi > u32::MAX as i128 {
                                Vec::new()
                            } else {
                                vec![format!("({} <= {} <= {})", lo, isl_name(iter), hi)]
                            };
                        }
                    }
                    self.inner_cons.extend(own);
                    let r = self.collect(body, tuple, reads, writes);
                    self.inner_cons.truncate(n);
                    self.inner_iters.pop();
                    r?;
                }
                Stmt::If {
                    cond, then_, else_, ..
                } => {
                    self.check_declared(cond)?;
                    self.reads_in(cond, tuple, reads, false)?;
                    // What each branch knows where the condition is affine,
                    // or has affine conjuncts (`i < n - 1 && x[i] > t`):
                    // its accesses are of those instances only, so that a
                    // device's copies stay inside what C touches.
                    let (yes, no) = (self.known_when(cond, true), self.known_when(cond, false));
                    self.with_guards(yes, |me| me.collect(then_, tuple, reads, writes))?;
                    self.with_guards(no, |me| me.collect(else_, tuple, reads, writes))?;
                }
                Stmt::While { cond, body, .. } => {
                    self.check_declared(cond)?;
                    self.reads_in(cond, tuple, reads, false)?;
                    self.collect(body, tuple, reads, writes)?;
                }
                Stmt::Assign { lhs, op, rhs, .. } => {
                    self.check_declared(lhs)?;
                    self.check_declared(rhs)?;
                    let name = base_name(lhs).unwrap_or("");
                    if self.all_iters().iter().any(|i| i == name) {
                        return Err(Diagnostic::error(
                            Code::NonCanonicalLoop,
                            Some(lhs.loc.clone()),
                            format!("assignment to loop iterator `{}`", name),
                        )
                        .with_hint(
                            "PENCIL loops have one iterator that only the loop header changes",
                        ));
                    }
                    if !self.inner_locals.contains(name) {
                        let w = self.access(lhs, tuple, false)?;
                        if *op != AssignOp::Assign {
                            reads.push(Access {
                                may: false,
                                ..w.clone()
                            });
                        }
                        writes.push(w);
                    }
                    self.reads_in(lhs, tuple, reads, true)?;
                    self.reads_in(rhs, tuple, reads, false)?;
                }
                Stmt::Decl { var, init, .. } => {
                    for d in var.dims.iter().flatten() {
                        self.check_declared(d)?;
                        self.reads_in(d, tuple, reads, false)?;
                    }
                    if let Some(i) = init {
                        self.check_declared(i)?;
                        self.reads_in(i, tuple, reads, false)?;
                    }
                }
                Stmt::Break(_) | Stmt::Continue(_) => {}
                // Inside dynamic control these only inform; ignoring them
                // is conservative.
                Stmt::Assume { .. } | Stmt::Kill { .. } => {}
                Stmt::Call { name, args, loc } => {
                    self.call_accesses(name, args, loc, tuple, reads, writes)?
                }
            }
        }
        Ok(())
    }

    /// A call's accesses: `__pencil_use`/`__pencil_def` inside summaries,
    /// the summary's accesses for a function that has one, and otherwise
    /// every element of each array argument, read and may-written.
    fn call_accesses(
        &mut self,
        name: &str,
        args: &[Expr],
        loc: &Loc,
        tuple: &str,
        reads: &mut Vec<Access>,
        writes: &mut Vec<Access>,
    ) -> Result<()> {
        match name {
            "__pencil_use" | "__pencil_def" => {
                for a in args {
                    self.check_declared(a)?;
                    self.reads_in(a, tuple, reads, true)?;
                    let acc = self.access(a, tuple, true)?;
                    if name == "__pencil_use" {
                        reads.push(acc);
                    } else {
                        writes.push(acc);
                    }
                }
                return Ok(());
            }
            "__pencil_assert" | "__pencil_npr_mem_tag" => return Ok(()),
            _ => {}
        }
        if name == self.region.function {
            return Err(recursion(name, loc));
        }
        if is_pure_function(name) {
            return Err(Diagnostic::error(
                Code::UnsupportedStatement,
                Some(loc.clone()),
                format!("the result of `{}` is unused", name),
            )
            .with_hint(
                "a call statement must be to a function with side effects described by a summary",
            ));
        }
        for a in args {
            self.check_declared(a)?;
        }
        if let Some(sum) = self.region.summaries.get(name) {
            if let Some(a) = args.iter().find(|a| {
                matches!(&a.kind, ExprKind::Unary(UnOp::AddrOf, _))
                    || crate::front::syntax::member_row(a).is_some()
            }) {
                let what = match &a.kind {
                    ExprKind::Unary(UnOp::AddrOf, x) if matches!(x.kind, ExprKind::Ident(_)) => {
                        "a variable's address"
                    }
                    ExprKind::Unary(UnOp::AddrOf, _) => "an element's address",
                    _ => "a struct's array member",
                };
                return Err(Diagnostic::error(
                    Code::PointerArithmetic,
                    Some(a.loc.clone()),
                    format!(
                        "`{}` has a summary, which pencilc cannot apply to {}",
                        name, what
                    ),
                )
                .with_hint("pass the array itself, or call the function without a summary"));
            }
            if sum.params.len() != args.len() {
                return Err(Diagnostic::error(
                    Code::UnsupportedStatement,
                    Some(loc.clone()),
                    format!(
                        "`{}` takes {} argument(s), the call passes {}",
                        name,
                        sum.params.len(),
                        args.len()
                    ),
                ));
            }
            let formals: Vec<String> = sum.params.iter().map(|p| p.name.clone()).collect();
            // The summary's own loop iterators and locals must not capture
            // the names in the arguments (`set_odd(n, A[i])` into a summary
            // that loops over its own `i`).
            let mut in_args = Vec::new();
            args.iter().for_each(|a| a.idents(&mut in_args));
            let mut body = sum.body.clone();
            let mut own = Vec::new();
            body.iter().for_each(|s| s.declared(&mut own));
            body.iter().for_each(|s| binders(s, &mut own));
            for n in own.iter().filter(|n| in_args.contains(n)) {
                let fresh = (0..)
                    .map(|k| format!("pencilc_summary{}_{}", k, n))
                    .find(|f| !self.region.names.contains(f) && !in_args.contains(f))
                    .unwrap_or_default();
                body = body.iter().map(|s| renamed(s, n, &fresh)).collect();
            }
            let map = |n: &str| formals.iter().position(|f| f == n).map(|k| args[k].clone());
            let body = crate::front::syntax::subst_stmts(&body, &map);
            let mut declared = Vec::new();
            body.iter().for_each(|s| s.declared(&mut declared));
            let saved = self.inner_locals.clone();
            self.inner_locals.extend(locals_of(&body, declared.iter()));
            let outer = std::mem::replace(&mut self.in_summary, true);
            let r = self.collect(&body, tuple, reads, writes);
            self.in_summary = outer;
            self.inner_locals = saved;
            for a in args {
                let whole = match &a.kind {
                    ExprKind::Ident(n) => self.decl(n).is_some_and(|d| d.rank() > 0),
                    ExprKind::Index(..) => is_row(self, a),
                    _ => false,
                };
                if let Some(n) = base_name(a).filter(|_| whole) {
                    self.unused_array_args.push((
                        tuple.to_string(),
                        n.to_string(),
                        name.to_string(),
                        loc.clone(),
                    ));
                }
            }
            return r;
        }
        if let Some(why) = self
            .region
            .call_facts
            .get(name)
            .and_then(|f| f.unseen_effects.as_ref())
        {
            if !self.unseen_effects {
                self.warnings.push(
                    Diagnostic::warning(
                        Code::UnsupportedStatement,
                        Some(loc.clone()),
                        format!(
                            "`{}` may have effects beyond its arguments ({}), which no reordering of the region can be checked against; the region keeps the original code",
                            name, why
                        ),
                    )
                    .with_hint(format!(
                        "pass what `{}` uses as arguments, or give it a summary function (`__attribute__((pencil_access(...)))`) that says what it reads and writes",
                        name
                    )),
                );
            }
            self.unseen_effects = true;
        }
        if let Some(f) = self.region.call_facts.get(name) {
            for g in &f.global_reads {
                self.global_reads
                    .push((name.to_string(), g.clone(), loc.clone()));
            }
        }
        // No summary: the callee may read and write all of each array
        // argument (PENCIL paper, §2.5), and the element or variable whose
        // address it gets, or where its body indexes past that element
        // (`p[1]`), or is not known, all of that element's row.
        let fact = |k: usize, of: fn(&crate::front::parse::called::CallFacts) -> &Vec<bool>| {
            self.region
                .call_facts
                .get(name)
                .map(of)
                .filter(|v| v.len() == args.len())
                .is_some_and(|v| v[k])
        };
        let first_only = |k: usize| fact(k, |f| &f.first_element);
        // A parameter the callee only reads through: what the argument
        // passes is read, none of it written.
        let read_only = |k: usize| fact(k, |f| &f.read_only);
        for (k, a) in args.iter().enumerate() {
            let written_before = writes.len();
            let read_only = read_only(k);
            match &a.kind {
                ExprKind::Unary(UnOp::AddrOf, x)
                    if !first_only(k) && self.element_of_array(x).is_some() =>
                {
                    self.subscript_reads(x, tuple, reads)?;
                    let local = base_name(x).is_some_and(|b| self.inner_locals.contains(b));
                    if !local {
                        let whole = self.element_of_array(x).unwrap_or_else(|| (**x).clone());
                        let acc = self.access(&whole, tuple, true)?;
                        reads.push(acc.clone());
                        writes.push(Access { may: true, ..acc });
                    }
                }
                // `&s[i]` of an array of structs: all of that struct, read
                // and may-written, and the reads its subscripts make.
                ExprKind::Unary(UnOp::AddrOf, x) if self.is_whole_struct(x) => {
                    self.subscript_reads(x, tuple, reads)?;
                    let acc = self.access(x, tuple, true)?;
                    reads.push(acc.clone());
                    let mut w = acc;
                    w.may = true;
                    writes.push(w);
                }
                ExprKind::Unary(UnOp::AddrOf, x) => {
                    self.reads_in(x, tuple, reads, false)?;
                    let local = base_name(x).is_some_and(|b| self.inner_locals.contains(b));
                    if !local {
                        let mut w = self.access(x, tuple, false)?;
                        w.may = true;
                        writes.push(w);
                    }
                }
                ExprKind::Ident(n) if self.decl(n).is_some_and(|d| d.rank() > 0) => {
                    let acc = self.access(a, tuple, true)?;
                    reads.push(acc.clone());
                    writes.push(acc);
                }
                // A row (`A[i]` of a 2-d `A`): all of it, and the reads
                // its subscripts make.
                // An array member of a struct (`s[i].a[k]`): its places.
                ExprKind::Call(..) if crate::front::syntax::member_row(a).is_some() => {
                    // Its subscripts' reads and all its places, read.
                    self.reads_in(a, tuple, reads, false)?;
                    if let Some(acc) = self.member_row(a, tuple) {
                        writes.push(Access { may: true, ..acc? });
                    }
                }
                ExprKind::Index(..) if is_row(self, a) => {
                    self.subscript_reads(a, tuple, reads)?;
                    let acc = self.access(a, tuple, true)?;
                    reads.push(acc.clone());
                    writes.push(acc);
                }
                _ => self.reads_in(a, tuple, reads, false)?,
            }
            if read_only {
                writes.truncate(written_before);
            }
        }
        Ok(())
    }
}

/// The loop iterators bound inside `s`.
fn binders(s: &Stmt, out: &mut Vec<String>) {
    match s {
        Stmt::For { iter, body, .. } => {
            out.push(iter.clone());
            body.iter().for_each(|s| binders(s, out));
        }
        Stmt::While { body, .. } => body.iter().for_each(|s| binders(s, out)),
        Stmt::If { then_, else_, .. } => then_.iter().chain(else_).for_each(|s| binders(s, out)),
        _ => {}
    }
}

/// `s` with the variable `from` (its uses, loops over it and its
/// declarations) named `to`.
fn renamed(s: &Stmt, from: &str, to: &str) -> Stmt {
    fn in_expr(e: &mut Expr, from: &str, to: &str) {
        if let ExprKind::Ident(n) = &mut e.kind {
            if n == from {
                *n = to.to_string();
            }
            return;
        }
        match &mut e.kind {
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                in_expr(a, from, to);
                in_expr(b, from, to);
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => in_expr(a, from, to),
            ExprKind::Cond(a, b, c) => {
                in_expr(a, from, to);
                in_expr(b, from, to);
                in_expr(c, from, to);
            }
            ExprKind::Call(_, args) => args.iter_mut().for_each(|a| in_expr(a, from, to)),
            _ => {}
        }
    }
    fn binders_of(s: &mut Stmt, from: &str, to: &str) {
        match s {
            Stmt::For { iter, body, .. } => {
                if iter == from {
                    *iter = to.to_string();
                }
                body.iter_mut().for_each(|s| binders_of(s, from, to));
            }
            Stmt::While { body, .. } => body.iter_mut().for_each(|s| binders_of(s, from, to)),
            Stmt::If { then_, else_, .. } => then_
                .iter_mut()
                .chain(else_.iter_mut())
                .for_each(|s| binders_of(s, from, to)),
            Stmt::Decl { var, .. } if var.name == from => var.name = to.to_string(),
            _ => {}
        }
    }
    let mut s = s.clone();
    s.exprs_mut(&mut |e| in_expr(e, from, to));
    binders_of(&mut s, from, to);
    s
}

impl Builder<'_> {
    /// Whether `a` names one whole struct of an array of them (`s[i]` of
    /// `struct t s[n]`), whose members are the last dimension.
    /// The row of the array that `a`, an element (or a whole struct), is
    /// in: `A[i]` for `A[i][j]`, `s` for `s[i]` of a one-dimensional
    /// array of structs; `None` for a scalar or one struct object. C
    /// defines indexing from an element's address within its row only.
    fn element_of_array(&self, a: &Expr) -> Option<Expr> {
        let name = base_name(a)?;
        let d = self.decl(name)?;
        if d.rank() == 0 {
            return None;
        }
        match &a.kind {
            ExprKind::Index(row, _) => Some((**row).clone()),
            _ => None,
        }
    }

    fn is_whole_struct(&self, a: &Expr) -> bool {
        let Some(name) = base_name(a) else {
            return false;
        };
        self.decl(name)
            .is_some_and(|d| !d.members.is_empty() && subscripts(a).len() + 1 == d.rank())
    }
}

/// Whether `a` names a row of an array: fewer subscripts than it has
/// dimensions.
fn is_row(b: &Builder, a: &Expr) -> bool {
    let mut n = 0;
    let mut cur = a;
    while let ExprKind::Index(x, _) = &cur.kind {
        n += 1;
        cur = x;
    }
    match &cur.kind {
        // Of an array of structs, whose last dimension is the members'
        // places, a row holds whole structs (`s[i]` of `struct t s[m][n]`).
        ExprKind::Ident(name) => b.decl(name).is_some_and(|d| {
            let places = usize::from(!d.members.is_empty());
            n + places < d.rank()
        }),
        _ => false,
    }
}
