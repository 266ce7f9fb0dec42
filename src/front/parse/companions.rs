//! A second variable that a `for` declares and steps beside its iterator
//! (`for (int i = 0, j = n - 1; i < n; i++, j--)`). It is a function of
//! the iterator, `j = (T)(f + t * ((i - e) / s))` for `int i = e` stepped by
//! `s` and `j = f` stepped by `t`, and is replaced by it in the condition
//! and the body, so that the loop stays a loop of the model. Only where
//! that is what C computes: the body does not change `j`, nor anything
//! `e` or `f` reads; `j` is declared by the loop, so no value of it
//! outlives the loop.

use super::*;
use crate::front::syntax::subst_stmts;

pub(super) struct Companion {
    /// Its name in the region (`Cx::declare`).
    spelled: String,
    written: String,
    init: Expr,
    step: i64,
    ty: String,
    loc: Loc,
}

impl Cx<'_> {
    /// The companion declared by `d` (the loop's second declarator) and
    /// the part of the increment `upd` that steps the iterator `iter`
    /// (`i++` of `i++, j--`). `iter` is declared already, with the value
    /// `first` when `d`'s initialiser runs.
    pub(super) fn companion<'t>(
        &self,
        d: Node,
        upd: Node<'t>,
        iter: &str,
        first: &Expr,
        ty: Option<&str>,
    ) -> Result<(Companion, Node<'t>)> {
        let refuse = |what: String, at: Node| {
            self.err(
                Code::NonCanonicalLoop,
                at,
                format!("loop is not in canonical form: {}", what),
            )
            .with_hint("step the second variable by a constant in the increment (`i++, j--`), and do not change it in the body")
        };
        let (Some(name), Some(value)) = (
            d.child_by_field_name("declarator"),
            d.child_by_field_name("value"),
        ) else {
            return Err(refuse("its second variable must be initialised".into(), d));
        };
        if d.kind() != "init_declarator" || name.kind() != "identifier" {
            return Err(refuse(
                "its second variable must be a plain variable".into(),
                d,
            ));
        }
        let written = self.text(name).to_string();
        // `j = i + 1` reads the iterator's first value.
        let init = self.expr(value)?;
        let init = subst_expr(&init, &|n| (n == iter).then(|| first.clone()));
        let spelled = self.declare(&written);
        self.forget_declared(&spelled);
        if upd.kind() != "comma_expression" {
            return Err(refuse(
                format!("the increment must step `{}` too", written),
                upd,
            ));
        }
        let (Some(l), Some(r)) = (
            upd.child_by_field_name("left"),
            upd.child_by_field_name("right"),
        ) else {
            return Err(self.syntax(upd));
        };
        let (own, step) = match (self.loop_step(l, &spelled), self.loop_step(r, &spelled)) {
            (Some(t), None) => (r, t),
            (None, Some(t)) => (l, t),
            _ => {
                return Err(refuse(
                    format!("the increment must step `{}` by a constant", written),
                    upd,
                ))
            }
        };
        Ok((
            Companion {
                spelled,
                written,
                init,
                step,
                ty: ty.unwrap_or("int").to_string(),
                loc: self.loc(d),
            },
            own,
        ))
    }
}

impl Companion {
    /// `cond` and `body` with the companion replaced by its value, or an
    /// error where that would not be what C computes.
    pub(super) fn substituted(
        self,
        iter: &str,
        first: &Expr,
        step: i64,
        cond: Expr,
        body: Vec<Stmt>,
    ) -> Result<(Expr, Vec<Stmt>)> {
        let mut written = Vec::new();
        body.iter().for_each(|s| s.may_write(&mut written));
        let mut read = Vec::new();
        first.idents(&mut read);
        self.init.idents(&mut read);
        let changed = if written.contains(&self.spelled) {
            Some(format!("the body changes `{}`", self.written))
        } else {
            read.iter()
                .find(|n| written.contains(n))
                .map(|n| format!("the body changes `{}`, which the first values read", n))
        };
        if let Some(why) = changed {
            return Err(Diagnostic::error(
                Code::NonCanonicalLoop,
                Some(self.loc.clone()),
                format!(
                    "loop is not in canonical form: `{}` is stepped beside `{}`, and {}",
                    self.written, iter, why
                ),
            )
            .with_hint("compute the second variable from the iterator in the body instead"));
        }
        let e = |kind| Expr {
            kind,
            loc: self.loc.clone(),
        };
        let bin = |op, a: Expr, b: Expr| e(ExprKind::Binary(op, Box::new(a), Box::new(b)));
        let int = |v: i64| e(ExprKind::Int(v, v.to_string()));
        // The number of steps taken, `(i - e) / s` (exact), as `(e - i) /
        // -s` for a negative step: neither side goes below zero, which
        // an unsigned iterator's arithmetic would wrap.
        let i = e(ExprKind::Ident(iter.to_string()));
        let (offset, by) = if step > 0 {
            (bin(BinOp::Sub, i, first.clone()), step)
        } else {
            (bin(BinOp::Sub, first.clone(), i), -step)
        };
        let steps = if by == 1 {
            offset
        } else {
            bin(BinOp::Div, offset, int(by))
        };
        let value = e(ExprKind::Cast(
            self.ty.clone(),
            Box::new(bin(
                BinOp::Add,
                self.init.clone(),
                bin(BinOp::Mul, int(self.step), steps),
            )),
        ));
        let map = |n: &str| (n == self.spelled).then(|| value.clone());
        Ok((subst_expr(&cond, &map), subst_stmts(&body, &map)))
    }
}
