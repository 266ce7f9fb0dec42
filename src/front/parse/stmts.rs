//! A region's statements: blocks, expression statements and assignments
//! (chains included), labels, and the statement kinds a region refuses.

use super::*;

impl<'a> Cx<'a> {
    pub(super) fn stmt(&self, n: Node, out: &mut Vec<Stmt>, ignored: &mut Vec<Loc>) -> Result<()> {
        match n.kind() {
            "expression_statement" => {
                let Some(e) = n.named_child(0) else {
                    return Ok(());
                };
                match self.discarded(e)? {
                    Discarded::Nothing => Ok(()),
                    Discarded::Call(call) => self.assignment(call, n, out),
                    Discarded::No => self.assignment(e, n, out),
                }
            }
            "compound_statement" => {
                let mut c = n.walk();
                let children: Vec<Node> = n.named_children(&mut c).collect();
                let _scope = self.enter_scope([]);
                self.stmt_list(&children, out, ignored)
            }
            "for_statement" => self.for_loop(n, out, ignored),
            "while_statement" => self.while_loop(n, out, ignored),
            "break_statement" => {
                out.push(Stmt::Break(self.loc(n)));
                Ok(())
            }
            "continue_statement" => {
                out.push(Stmt::Continue(self.loc(n)));
                Ok(())
            }
            "declaration" => self.local_declaration(n, out),
            "if_statement" => {
                let cond = n
                    .child_by_field_name("condition")
                    .ok_or_else(|| self.syntax(n))?;
                let cond = self.expr(cond)?;
                let mut then_ = Vec::new();
                if let Some(t) = n.child_by_field_name("consequence") {
                    self.stmt(t, &mut then_, ignored)?;
                }
                let mut else_ = Vec::new();
                if let Some(e) = n.child_by_field_name("alternative") {
                    // tree-sitter-c wraps the else branch in an `else_clause`.
                    let e = if e.kind() == "else_clause" {
                        e.named_child(0).unwrap_or(e)
                    } else {
                        e
                    };
                    self.stmt(e, &mut else_, ignored)?;
                }
                out.push(Stmt::If {
                    cond,
                    then_,
                    else_,
                    loc: self.loc(n),
                });
                Ok(())
            }
            "preproc_call" => {
                ignored.push(self.loc(n));
                Ok(())
            }
            "comment" => Ok(()),
            // A label no `goto` of the function names is only a name: the
            // statement it labels is the region's (as pet reads it).
            "labeled_statement" if !self.label_is_a_target(n) => {
                let mut c = n.walk();
                let inner: Vec<Node> = n
                    .named_children(&mut c)
                    .filter(|k| k.kind() != "statement_identifier")
                    .collect();
                for k in inner {
                    self.stmt(k, out, ignored)?;
                }
                Ok(())
            }
            "switch_statement" => self.switch(n, out, ignored),
            "do_statement" => self.do_while(n, out, ignored),
            "goto_statement" | "return_statement" | "labeled_statement" => {
                let what = n.kind().trim_end_matches("_statement");
                Err(self
                    .err(Code::UnsupportedControl, n, format!("`{}` is not allowed in a PENCIL region", what))
                    .with_hint("PENCIL regions are single-entry single-exit: use `for`, `while`, `if`, `break` and `continue`; `return` only as the last statement of a function"))
            }
            "ERROR" => Err(self.syntax(n)),
            other => Err(self
                .err(
                    Code::UnsupportedStatement,
                    n,
                    format!("unsupported statement ({})", other.replace('_', " ")),
                )
                .with_hint("a region holds loops (`for`, `while`, `do`), `if` and `switch`, assignments, calls and variable declarations (docs/accepted-c.md); move this statement out of `#pragma scop`")),
        }
    }

    /// What a cast to `void` as a statement leaves: `(void)x;` (an unused
    /// variable's mark) and `(void)0;` (what `assert` is with `NDEBUG`)
    /// do nothing, but their names must be declared, as C says; `(void)
    /// f(x);` is the call.
    fn discarded<'t>(&self, e: Node<'t>) -> Result<Discarded<'t>> {
        let e = casts::strip_parentheses(e);
        if e.kind() != "cast_expression"
            || e.child_by_field_name("type").map(|t| self.text(t).trim()) != Some("void")
        {
            return Ok(Discarded::No);
        }
        let Some(value) = e.child_by_field_name("value").map(casts::strip_parentheses) else {
            return Err(self.syntax(e));
        };
        if value.kind() == "call_expression" {
            return Ok(Discarded::Call(value));
        }
        if has_effects(value) {
            return Ok(Discarded::No);
        }
        self.expr(value)?;
        Ok(Discarded::Nothing)
    }

    /// Whether a `goto` of the function around the labeled statement `n`
    /// names its label.
    pub(super) fn label_is_a_target(&self, n: Node) -> bool {
        let Some(label) = n
            .child_by_field_name("label")
            .map(|l| self.text(l).to_string())
        else {
            return true;
        };
        let mut scope = n;
        while let Some(p) = scope.parent() {
            scope = p;
            if p.kind() == "function_definition" {
                break;
            }
        }
        let mut stack = vec![scope];
        while let Some(x) = stack.pop() {
            if x.kind() == "goto_statement"
                && x.child_by_field_name("label").map(|l| self.text(l)) == Some(label.as_str())
            {
                return true;
            }
            let mut c = x.walk();
            stack.extend(x.named_children(&mut c));
        }
        false
    }

    /// The statements of a block, attaching each `#pragma pencil
    /// independent` to the `for` loop that follows it.
    pub(super) fn stmt_list(
        &self,
        children: &[Node],
        out: &mut Vec<Stmt>,
        ignored: &mut Vec<Loc>,
    ) -> Result<()> {
        let mut pending: Option<(Node, Independent)> = None;
        // A `#pragma omp parallel ...` applies to the next statement.
        let mut team_opened = false;
        for &ch in children {
            if let Some(k) = omp::kind(ch, self.src) {
                self.note_omp(ch, k, team_opened);
                team_opened |= k == omp::OmpKind::OpensTeam;
            }
            let _team =
                (team_opened && !matches!(ch.kind(), "preproc_call" | "comment")).then(|| {
                    team_opened = false;
                    self.enter_team()
                });
            if is_pragma(ch, self.src, "pencil") {
                if let Some(ind) = self.pencil_pragma(ch)? {
                    pending = Some((ch, ind));
                }
                continue;
            }
            if ch.kind() == "comment" {
                continue;
            }
            match pending.take() {
                Some((_, ind)) if ch.kind() == "for_statement" => {
                    out.push(self.for_stmt(ch, ignored, Some(ind))?);
                }
                Some((p, _)) => {
                    return Err(self
                        .err(
                            Code::UnsupportedStatement,
                            p,
                            "`#pragma pencil independent` must be followed by a `for` loop",
                        )
                        .with_hint(
                            "put the pragma on the line right before the loop it applies to",
                        ))
                }
                None => self.stmt(ch, out, ignored)?,
            }
        }
        if let Some((p, _)) = pending {
            return Err(self
                .err(
                    Code::UnsupportedStatement,
                    p,
                    "`#pragma pencil independent` must be followed by a `for` loop",
                )
                .with_hint("put the pragma on the line right before the loop it applies to"));
        }
        Ok(())
    }

    /// Appends the statement(s) of the expression statement `e`. A chain
    /// `a = b = e;` becomes `b = e; a = b;`, innermost first: in C the value
    /// of an assignment is what its left-hand side holds afterwards.
    /// PolyBench's deriche writes `a1 = a5 = k;`.
    pub(super) fn assignment(&self, e: Node, stmt: Node, out: &mut Vec<Stmt>) -> Result<()> {
        let s = self.assignment_link(e, stmt, out)?;
        out.push(s);
        Ok(())
    }

    pub(super) fn assignment_link(&self, e: Node, stmt: Node, out: &mut Vec<Stmt>) -> Result<Stmt> {
        match e.kind() {
            "assignment_expression" => {
                let lhs = e
                    .child_by_field_name("left")
                    .ok_or_else(|| self.syntax(e))?;
                let rhs = e
                    .child_by_field_name("right")
                    .ok_or_else(|| self.syntax(e))?;
                let mut inner = rhs;
                while inner.kind() == "parenthesized_expression" {
                    match inner.named_child(0) {
                        Some(x) => inner = x,
                        None => break,
                    }
                }
                let chained = if inner.kind() == "assignment_expression" {
                    let link = self.assignment_link(inner, stmt, out)?;
                    let stored = match &link {
                        Stmt::Assign { lhs, .. } => lhs.clone(),
                        // A struct copy (`Cx::struct_copy`): its left-hand
                        // side, whole.
                        Stmt::For { body, .. } => match body.as_slice() {
                            [Stmt::Assign { lhs, .. }] => match &lhs.kind {
                                ExprKind::Index(whole, _) => (**whole).clone(),
                                _ => return Err(self.syntax(inner)),
                            },
                            _ => return Err(self.syntax(inner)),
                        },
                        _ => return Err(self.syntax(inner)),
                    };
                    out.push(link);
                    Some(stored)
                } else {
                    None
                };
                let op_node = e
                    .child_by_field_name("operator")
                    .ok_or_else(|| self.syntax(e))?;
                // `x op= e` with an operator the model keeps no update
                // form of is `x = x op (e)`: C evaluates `x` once, and the
                // region's left-hand sides have no side effects.
                let mut spelled_out = None;
                let op = match self.text(op_node) {
                    "=" => AssignOp::Assign,
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    "*=" => AssignOp::Mul,
                    "/=" => AssignOp::Div,
                    "%=" | "&=" | "|=" | "^=" | "<<=" | ">>=" => {
                        spelled_out = Some(match self.text(op_node) {
                            "%=" => BinOp::Rem,
                            "&=" => BinOp::BitAnd,
                            "|=" => BinOp::BitOr,
                            "^=" => BinOp::BitXor,
                            "<<=" => BinOp::Shl,
                            _ => BinOp::Shr,
                        });
                        AssignOp::Assign
                    }
                    other => {
                        return Err(self
                            .err(
                                Code::UnsupportedStatement,
                                op_node,
                                format!("assignment operator `{}` is not supported", other),
                            )
                            .with_hint("write the update out, e.g. `x = x % y`"))
                    }
                };
                let lhs = self.expr(lhs)?;
                if !matches!(lhs.kind, ExprKind::Ident(_) | ExprKind::Index(..)) {
                    return Err(Diagnostic::error(
                        Code::UnsupportedStatement,
                        Some(lhs.loc.clone()),
                        "the left-hand side of an assignment must be a variable or an array element",
                    ));
                }
                let copies = op == AssignOp::Assign && spelled_out.is_none();
                let rhs = match chained {
                    Some(stored) => stored,
                    None => self.expr(rhs)?,
                };
                if copies {
                    if let Some(copy) = self.struct_copy(&lhs, &rhs, &self.loc(stmt)) {
                        return Ok(copy);
                    }
                }
                let rhs = match spelled_out {
                    Some(b) => Expr {
                        loc: rhs.loc.clone(),
                        kind: ExprKind::Binary(b, Box::new(lhs.clone()), Box::new(rhs)),
                    },
                    None => rhs,
                };
                Ok(Stmt::Assign {
                    lhs,
                    op,
                    rhs,
                    loc: self.loc(stmt),
                    atomic: false,
                })
            }
            "update_expression" => {
                let arg = e
                    .child_by_field_name("argument")
                    .ok_or_else(|| self.syntax(e))?;
                let op = if self.text(e).contains("++") {
                    AssignOp::Add
                } else {
                    AssignOp::Sub
                };
                let lhs = self.expr(arg)?;
                let one = Expr {
                    kind: ExprKind::Int(1, "1".into()),
                    loc: lhs.loc.clone(),
                };
                Ok(Stmt::Assign {
                    lhs,
                    op,
                    rhs: one,
                    loc: self.loc(stmt),
                    atomic: false,
                })
            }
            "call_expression" => {
                if let Some(update) = self.atomic_update(e, stmt)? {
                    return Ok(update);
                }
                let call = self.expr(e);
                let Expr {
                    kind: ExprKind::Call(name, args),
                    ..
                } = call?
                else {
                    return Err(self.syntax(e));
                };
                if mem_calls::is_mem_call(&name) {
                    return self.mem_call(&name, &args, e);
                }
                let loc = self.loc(stmt);
                Ok(match name.as_str() {
                    "__pencil_assume" if args.len() == 1 => Stmt::Assume { cond: args[0].clone(), loc },
                    "__pencil_kill" if !args.is_empty() => Stmt::Kill { targets: args, loc },
                    "__pencil_assume" | "__pencil_kill" => {
                        return Err(self
                            .err(Code::UnsupportedStatement, e, format!("wrong number of arguments to `{}`", name))
                            .with_hint("`__pencil_assume(e)` takes one condition, `__pencil_kill(x, ...)` one or more variables or elements"))
                    }
                    _ => Stmt::Call { name, args, loc },
                })
            }
            _ => Err(self
                .err(
                    Code::UnsupportedStatement,
                    e,
                    "this expression statement is not an assignment",
                )
                .with_hint("an expression statement in a region is an assignment, an increment or a call; write a comma expression as separate statements")),
        }
    }
}

/// A cast to `void` as a statement, as `Cx::discarded` reads it.
enum Discarded<'t> {
    /// Not such a cast, or one of a value with effects of its own.
    No,
    Nothing,
    Call(Node<'t>),
}

/// Whether evaluating `e` may change something: an assignment, an
/// increment or a call in it.
fn has_effects(e: Node) -> bool {
    if matches!(
        e.kind(),
        "assignment_expression" | "update_expression" | "call_expression" | "comma_expression"
    ) {
        return true;
    }
    let mut c = e.walk();
    let children: Vec<Node> = e.named_children(&mut c).collect();
    children.into_iter().any(has_effects)
}
