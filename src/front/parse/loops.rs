//! `for` and `while` loops of a region: PENCIL's canonical `for` (an
//! iterator, a bound, a constant step) as a `Stmt::For`, any other `for`
//! as the `while` loop C makes of it, and loops that never end refused.

use super::{const_value, Cx};
use crate::diag::{Code, Diagnostic, Loc, Result};
use crate::front::syntax::{
    integer_kind, is_integer_type, BinOp, Expr, ExprKind, Independent, Stmt, UnOp,
};
use tree_sitter::Node;

impl Cx<'_> {
    /// A `for` statement: canonical, else as a `while` loop.
    pub(super) fn for_loop(
        &self,
        n: Node,
        out: &mut Vec<Stmt>,
        ignored: &mut Vec<Loc>,
    ) -> Result<()> {
        match self.for_stmt(n, ignored, None) {
            Ok(f) => {
                out.push(f);
                Ok(())
            }
            // pet reads such a loop as the `while` loop it means. Not for
            // an error of a loop in its body, which that loop has tried
            // as a `while` loop already: reading this one again as a
            // `while` loop would give the same error, and nested loops
            // would be read 2^depth times.
            Err(e)
                if e.code == Code::NonCanonicalLoop
                    && !self.in_body(n, &e)
                    && self.body_pragma(n)?.is_none() =>
            {
                let mut tried = Vec::new();
                match self.for_as_while(n, &mut tried, ignored) {
                    Ok(()) => {
                        out.extend(tried);
                        Ok(())
                    }
                    Err(w) if w.code == Code::NonCanonicalLoop => Err(w),
                    Err(_) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// Whether the diagnostic is about code in the body of loop `n`.
    fn in_body(&self, n: Node, e: &Diagnostic) -> bool {
        let (Some(body), Some(at)) = (n.child_by_field_name("body"), e.loc.as_ref()) else {
            return false;
        };
        let b = self.loc(body);
        at.file == b.file && (at.line, at.col) >= (b.line, b.col)
    }

    pub(super) fn while_loop(
        &self,
        n: Node,
        out: &mut Vec<Stmt>,
        ignored: &mut Vec<Loc>,
    ) -> Result<()> {
        let _loop = self.enter_loop(n)?;
        let cond = n
            .child_by_field_name("condition")
            .ok_or_else(|| self.syntax(n))?;
        let cond = self.expr(cond)?;
        let mut body = Vec::new();
        if let Some(b) = n.child_by_field_name("body") {
            self.stmt(b, &mut body, ignored)?;
        }
        self.check_ends(n, &cond, &body)?;
        out.push(Stmt::While {
            cond,
            body,
            loc: self.loc(n),
        });
        Ok(())
    }

    pub(super) fn for_stmt(
        &self,
        n: Node,
        ignored: &mut Vec<Loc>,
        independent: Option<Independent>,
    ) -> Result<Stmt> {
        let loc = self.loc(n);
        let independent = match (independent, self.body_pragma(n)?) {
            (Some(_), Some((_, at))) => {
                return Err(Diagnostic::error(
                    Code::UnsupportedStatement,
                    Some(at),
                    "this loop has a `#pragma pencil independent` before it and another after its header",
                )
                .with_hint("give each loop one pragma, with all its reduction clauses"))
            }
            (before, after) => before.or(after.map(|(ind, _)| ind)),
        };
        let _loop = self.enter_loop(n)?;
        let noncanon = |what: &str, at: Node| {
            self.err(
                Code::NonCanonicalLoop,
                at,
                format!("loop is not in canonical form: {}", what),
            )
            .with_hint("write it as `for (i = lb; i < ub; i += c)` with a constant step c")
        };
        // The initializer: `i = e` or `int i = e`, or `int i = e, j = f`
        // with `j` a companion (`companions.rs`).
        let mut companion_node = None;
        let init = n
            .child_by_field_name("initializer")
            .ok_or_else(|| noncanon("no initializer", n))?;
        let (iter, iter_type, init_e) = match init.kind() {
            "assignment_expression" => {
                let l = init
                    .child_by_field_name("left")
                    .ok_or_else(|| self.syntax(init))?;
                let op = init
                    .child_by_field_name("operator")
                    .map(|o| self.text(o))
                    .unwrap_or("");
                if l.kind() != "identifier" || op != "=" {
                    return Err(noncanon(
                        "the initializer must assign the loop iterator",
                        init,
                    ));
                }
                if !self.is_declared(self.text(l)) {
                    return Err(self.undeclared(l, self.text(l)));
                }
                let r = init
                    .child_by_field_name("right")
                    .ok_or_else(|| self.syntax(init))?;
                let iter = self
                    .resolve(self.text(l))
                    .unwrap_or_else(|| self.text(l).to_string());
                (iter, None, self.expr(r)?)
            }
            "declaration" => {
                let mut c = init.walk();
                let declarators: Vec<Node> =
                    init.children_by_field_name("declarator", &mut c).collect();
                match declarators.len() {
                    1 => {}
                    2 => companion_node = Some(declarators[1]),
                    _ => return Err(noncanon("it declares more than two variables", init)),
                }
                let d = declarators[0];
                let ty = init
                    .child_by_field_name("type")
                    .map(|t| self.text(t))
                    .unwrap_or("");
                if !is_integer_type(ty) {
                    return Err(noncanon(
                        "the loop iterator must have an integer type",
                        init,
                    ));
                }
                if d.kind() != "init_declarator" {
                    return Err(noncanon("the loop iterator must be initialised", init));
                }
                let name = d
                    .child_by_field_name("declarator")
                    .ok_or_else(|| self.syntax(d))?;
                let value = d
                    .child_by_field_name("value")
                    .ok_or_else(|| self.syntax(d))?;
                if name.kind() != "identifier" {
                    return Err(noncanon("the loop iterator must be a plain variable", d));
                }
                (
                    self.text(name).to_string(),
                    Some(ty.to_string()),
                    self.expr(value)?,
                )
            }
            // `for (i = 0, j = n - 1; ...)`: `j` outlives the loop, with
            // a last value the model does not compute.
            "comma_expression" => {
                return Err(noncanon(
                    "the initializer assigns two variables, and the second, declared outside the loop, keeps its last value after it; declare both in the loop (`for (int i = 0, j = ...; ...)`), where the second is a function of the first",
                    init,
                ))
            }
            _ => {
                return Err(noncanon(
                    "the initializer must assign the loop iterator",
                    init,
                ))
            }
        };
        // A `_Bool` counts 0 and 1 only: `b += 2` stores 1. As a `while`
        // loop its steps are assignments, converted as C converts them;
        // the model's loops step by mathematical integers.
        let ty = match &iter_type {
            Some(t) => {
                let t = super::casts::unqualified(t);
                self.typedefs.borrow().get(&t).cloned().unwrap_or(t)
            }
            None => self
                .declared
                .borrow()
                .get(&iter)
                .filter(|d| !d.pointer && d.extents.is_empty())
                .map(|d| d.element.clone())
                .unwrap_or_default(),
        };
        if integer_kind(&ty) == Some((1, false)) {
            return Err(noncanon(
                "a `_Bool` iterator takes the values 0 and 1 only",
                init,
            ));
        }
        // `for (int i = ...)` declares `i` for the rest of the loop.
        let _scope = (init.kind() == "declaration").then(|| self.enter_scope([]));
        let iter = if init.kind() == "declaration" {
            let spelled = self.declare(&iter);
            self.forget_declared(&spelled);
            spelled
        } else {
            iter
        };
        let upd = n
            .child_by_field_name("update")
            .ok_or_else(|| noncanon("no increment", n))?;
        let (companion, upd) = match companion_node {
            Some(d) => {
                let (c, own) = self.companion(d, upd, &iter, &init_e, iter_type.as_deref())?;
                (Some(c), own)
            }
            None => (None, upd),
        };
        let cond = n
            .child_by_field_name("condition")
            .ok_or_else(|| noncanon("no condition", n))?;
        let cond = self.expr(cond)?;
        let step = self.loop_step(upd, &iter).ok_or_else(|| {
            noncanon(
                &format!(
                    "the increment must change `{}` by a constant (`{}++`, `{} += c`)",
                    iter, iter, iter
                ),
                upd,
            )
        })?;
        if step == 0 {
            return Err(noncanon("the step is zero", upd));
        }
        let mut body = Vec::new();
        if let Some(b) = n.child_by_field_name("body") {
            self.stmt(b, &mut body, ignored)?;
        }
        let (cond, body) = match companion {
            Some(c) => c.substituted(&iter, &init_e, step, cond, body)?,
            None => (cond, body),
        };
        self.check_ends(n, &cond, &body)?;
        Ok(Stmt::For {
            iter,
            iter_type,
            init: init_e,
            cond,
            step,
            body,
            independent,
            loc,
        })
    }

    /// A `for` loop outside PENCIL's form (no initialiser, no condition,
    /// an increment that is not a constant step) as the `while` loop C
    /// defines it to be: `init; while (cond) { body; inc; }`, where a
    /// `continue` of the loop runs the increment first. Its control is
    /// dynamic: one compound statement of the model.
    fn for_as_while(&self, n: Node, out: &mut Vec<Stmt>, ignored: &mut Vec<Loc>) -> Result<()> {
        let _loop = self.enter_loop(n)?;
        // `for (int i = ...)` declares `i` for the loop only.
        let _scope = self.enter_scope([]);
        if let Some(init) = n.child_by_field_name("initializer") {
            if init.kind() == "declaration" {
                self.local_declaration(init, out)?;
            } else {
                self.assignment(init, init, out)?;
            }
        }
        let cond = match n.child_by_field_name("condition") {
            Some(c) => self.expr(c)?,
            None => Expr {
                kind: ExprKind::Int(1, "1".to_string()),
                loc: self.loc(n),
            },
        };
        let mut inc = Vec::new();
        if let Some(u) = n.child_by_field_name("update") {
            self.assignment(u, u, &mut inc)?;
        }
        let mut body = Vec::new();
        if let Some(b) = n.child_by_field_name("body") {
            self.stmt(b, &mut body, ignored)?;
        }
        self.check_ends(n, &cond, &body)?;
        increment_before_continue(&mut body, &inc);
        body.extend(inc);
        out.push(Stmt::While {
            cond,
            body,
            loc: self.loc(n),
        });
        Ok(())
    }

    /// A loop whose condition is a non-zero constant ends only by a
    /// `break` of its own.
    fn check_ends(&self, n: Node, cond: &Expr, body: &[Stmt]) -> Result<()> {
        if const_value(cond).is_some_and(|v| v != 0) && !breaks(body) {
            return Err(self
                .err(
                    Code::NonCanonicalLoop,
                    n,
                    "this loop never ends: its condition is always true and no `break` leaves it",
                )
                .with_hint("a region is code that finishes; give the loop a condition or a `break`, or keep it outside `#pragma scop`"));
        }
        Ok(())
    }

    pub(super) fn loop_step(&self, upd: Node, iter: &str) -> Option<i64> {
        match upd.kind() {
            "update_expression" => {
                let arg = upd.child_by_field_name("argument")?;
                if self.resolve(self.text(arg)).as_deref() != Some(iter) {
                    return None;
                }
                Some(if self.text(upd).contains("++") { 1 } else { -1 })
            }
            "assignment_expression" => {
                let l = upd.child_by_field_name("left")?;
                if self.resolve(self.text(l)).as_deref() != Some(iter) {
                    return None;
                }
                let op = self.text(upd.child_by_field_name("operator")?);
                let r = self.expr(upd.child_by_field_name("right")?).ok()?;
                // The change is a constant where the iterator cancels out
                // (`i += (i + 100) - (i + 99)`, as pet simplifies it).
                let (coef, c) = linear(&r, iter)?;
                match op {
                    "+=" if coef == 0 => Some(c),
                    "-=" if coef == 0 => c.checked_neg(),
                    "=" if coef == 1 => Some(c),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// `e` as `coef * iter + c` where it is one (integer literals, `iter`,
/// `+`, `-`, and products by a constant), without overflow. Constants
/// C computes in an unsigned type are none (`i = i + (1u - 2)` adds
/// 4294967295, in the iterator's type or wrapped into it).
pub fn linear(e: &Expr, iter: &str) -> Option<(i64, i64)> {
    if let Some(v) = super::exprs::signed_const_value(e) {
        return Some((0, v));
    }
    if const_value(e).is_some() {
        return None;
    }
    match &e.kind {
        ExprKind::Ident(n) if n == iter => Some((1, 0)),
        ExprKind::Unary(UnOp::Plus, a) => linear(a, iter),
        ExprKind::Unary(UnOp::Neg, a) => {
            let (k, c) = linear(a, iter)?;
            Some((k.checked_neg()?, c.checked_neg()?))
        }
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let ((ka, ca), (kb, cb)) = (linear(a, iter)?, linear(b, iter)?);
            if *op == BinOp::Add {
                Some((ka.checked_add(kb)?, ca.checked_add(cb)?))
            } else {
                Some((ka.checked_sub(kb)?, ca.checked_sub(cb)?))
            }
        }
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let ((ka, ca), (kb, cb)) = (linear(a, iter)?, linear(b, iter)?);
            match (ka, kb) {
                (0, _) => Some((kb.checked_mul(ca)?, cb.checked_mul(ca)?)),
                (_, 0) => Some((ka.checked_mul(cb)?, ca.checked_mul(cb)?)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether a `break` of this loop (not of a loop inside) is in `body`.
fn breaks(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Break(_) => true,
        Stmt::If { then_, else_, .. } => breaks(then_) || breaks(else_),
        _ => false,
    })
}

/// Each `continue` of this loop in `body` (not of a loop inside) runs
/// `inc` first, as a `for` loop's `continue` does.
fn increment_before_continue(body: &mut Vec<Stmt>, inc: &[Stmt]) {
    if inc.is_empty() {
        return;
    }
    let mut out = Vec::with_capacity(body.len());
    for mut s in body.drain(..) {
        match &mut s {
            Stmt::Continue(_) => out.extend(inc.iter().cloned()),
            Stmt::If { then_, else_, .. } => {
                increment_before_continue(then_, inc);
                increment_before_continue(else_, inc);
            }
            _ => {}
        }
        out.push(s);
    }
    *body = out;
}

#[cfg(test)]
mod tests {
    use super::linear;
    use crate::front::syntax::{BinOp, Expr, ExprKind};

    fn e(kind: ExprKind) -> Expr {
        Expr {
            kind,
            loc: crate::diag::Loc::unknown(),
        }
    }
    fn int(v: i64) -> Expr {
        e(ExprKind::Int(v, v.to_string()))
    }
    fn id(n: &str) -> Expr {
        e(ExprKind::Ident(n.to_string()))
    }
    fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }

    #[test]
    fn increments_where_the_iterator_cancels_out_are_constant() {
        // (i + 100) - (i + 99)
        let step = bin(
            BinOp::Sub,
            bin(BinOp::Add, id("i"), int(100)),
            bin(BinOp::Add, id("i"), int(99)),
        );
        assert_eq!(linear(&step, "i"), Some((0, 1)));
        // 2 * (i + 3) - i
        let next = bin(
            BinOp::Sub,
            bin(BinOp::Mul, int(2), bin(BinOp::Add, id("i"), int(3))),
            id("i"),
        );
        assert_eq!(linear(&next, "i"), Some((1, 6)));
        // i * i and other names are not linear in `i` alone
        assert_eq!(linear(&bin(BinOp::Mul, id("i"), id("i")), "i"), None);
        assert_eq!(linear(&bin(BinOp::Add, id("i"), id("n")), "i"), None);
    }
}
