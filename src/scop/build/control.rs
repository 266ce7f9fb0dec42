//! A region's control flow as the builder walks it: blocks, branches and
//! each statement kind, and `for` loops (canonical ones as schedule
//! dimensions, the rest as dynamic loops).

use super::*;

impl<'r> Builder<'r> {
    pub(super) fn block(&mut self, body: &[Stmt]) -> Result<()> {
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
    pub(super) fn branch(&mut self, body: &[Stmt]) -> Result<()> {
        match body {
            [s] if !matches!(s, Stmt::Decl { .. }) => self.statement_at(s),
            _ => self.block(body),
        }
    }

    /// One statement at the current schedule position.
    pub(super) fn statement_at(&mut self, s: &Stmt) -> Result<()> {
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
                    // `if (x[i] > m) m = x[i];` is `m = x[i] > m ? x[i] :
                    // m;` (the same value in every case, NaNs and signed
                    // zeros included): an assignment, a maximum that
                    // `scop::reductions` knows, not dynamic control.
                    Err(_) => match min_max_assignment(cond, then_, else_) {
                        Some((lhs, rhs)) => {
                            self.statement(lhs, AssignOp::Assign, &rhs, loc, false)?
                        }
                        // A data-dependent condition: the `if` and its
                        // branches become one statement (paper, Fig. 5).
                        None => self.compound(std::slice::from_ref(s), loc)?,
                    },
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
    pub(super) fn check_canonical(
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
    pub(super) fn is_dynamic_loop(
        &mut self,
        iter: &str,
        init: &Expr,
        cond: &Expr,
        body: &[Stmt],
    ) -> bool {
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
    pub(super) fn for_loop(
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
        self.record_loop_range(iter, iter_type, init, &lb, step, (&cons, &c), loc);
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
}

/// `if (c) v = e;` where `c` compares `e` with `v` (`e > v`, `v <= e`,
/// ...): `v` and the conditional expression `c ? e : v` that assigns the
/// same value.
fn min_max_assignment<'s>(
    cond: &Expr,
    then_: &'s [Stmt],
    else_: &[Stmt],
) -> Option<(&'s Expr, Expr)> {
    let (
        [Stmt::Assign {
            lhs,
            op: AssignOp::Assign,
            rhs,
            atomic: false,
            ..
        }],
        [],
    ) = (then_, else_)
    else {
        return None;
    };
    conditional_min_max(cond, rhs, lhs)?;
    Some((
        lhs,
        Expr {
            kind: ExprKind::Cond(
                Box::new(cond.clone()),
                Box::new(rhs.clone()),
                Box::new(lhs.clone()),
            ),
            loc: rhs.loc.clone(),
        },
    ))
}
