//! Statements of the model: their tuples and schedule positions, reduction
//! updates and their declared sections, region-local variables, and the
//! assumptions and kills PENCIL's builtins state.

use super::*;

impl<'r> Builder<'r> {
    pub(super) fn tuple(&self, name: &str) -> String {
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

    pub(super) fn sched_now(&self) -> Vec<String> {
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
    pub(super) fn reduction_op(&self, var: &str) -> Option<RedOp> {
        self.indep_stack
            .iter()
            .rev()
            .find_map(|&l| self.loops[l].clauses.reduction_of(var))
    }

    /// An update of a variable whose reduction clause names a part of it
    /// (`reduction(+: hist[i])`) must update that part: the clause frees
    /// the order of the part's updates only.
    pub(super) fn check_reduction_section(&self, var: &str, lhs: &Expr) -> Result<()> {
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

    pub(super) fn push_statement(
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

    pub(super) fn statement(
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
    pub(super) fn region_local(
        &mut self,
        var: &VarDecl,
        init: Option<&Expr>,
        loc: &Loc,
    ) -> Result<()> {
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
    pub(super) fn assume(&mut self, cond: &Expr, loc: &Loc) -> Result<()> {
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
            _ => {
                // Name the cause: a value the region changes (pet's
                // assume5 assigns `k` after assuming `k >= 0`), an
                // iterator, or the form of the expression.
                let why = match names.iter().find(|n| self.written.contains(*n)) {
                    Some(n) => format!("it reads `{}`, which the region assigns", n),
                    None => match names.iter().find(|n| self.iters.contains(*n)) {
                        Some(n) => format!("it reads the loop iterator `{}`", n),
                        None => "it is not an affine fact on the parameters".to_string(),
                    },
                };
                self.warnings.push(
                    Diagnostic::warning(
                        Code::NonAffineCondition,
                        Some(cond.loc.clone()),
                        format!("`__pencil_assume({})` is ignored: {}", plain(cond), why),
                    )
                    .with_hint("pencilc uses assumptions that compare affine expressions of values the region does not change, outside loops"),
                )
            }
        }
        Ok(())
    }

    /// `__pencil_kill(x, ...)`: a statement whose only effect is on dataflow.
    pub(super) fn kill(&mut self, targets: &[Expr], loc: &Loc) -> Result<()> {
        let name = format!("K_{}", self.kills.len());
        let tuple = self.tuple(&name);
        let mut kills = Vec::new();
        let mut whole_top = Vec::new();
        for t in targets {
            // A struct's member array (`__pencil_kill(s[i].a[k])`): its places.
            if let Some(acc) = self.member_row(t, &tuple) {
                let acc = acc?;
                if !acc.may {
                    kills.push(acc);
                }
                continue;
            }
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
}
