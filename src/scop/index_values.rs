//! Integer scalars that hold an index: `c = i * m + j; B[c] = 2 * A[c];`
//! and `int b_start = blk * 8; for (i = b_start; i < b_start + 8; ++i)`,
//! as Rodinia's and generated C write them. Read as written, `B[c]`
//! reaches an element the model cannot name (a may-write of all of `B`)
//! and every iteration reads the one `c` the previous wrote: the nest ran
//! on one GPU thread. Where the value of `c` at a read is the value of its
//! defining expression at that read, the read becomes the expression, and
//! the subscript is affine (or delinearisable) again.
//!
//! A definition `c = e;` (or `T c = e;`) in a block stands for the reads
//! of `c` in the statements after it in the same block (nested ones
//! included), up to the first statement that may write `c` or a name of
//! `e` (a call statement may write any global). It qualifies when:
//!
//! - `c` is a scalar of a signed integer type (or `unsigned int`), not
//!   `volatile`, whose address the region never takes;
//! - `e` is integer literals and scalar names combined by `+ - * / %`,
//!   unary minus and `?:` on comparisons of such expressions, without
//!   `c`: no array element or call, so its value is a function of its
//!   names alone;
//! - `e` has `c`'s type (after C's promotions), so that it keeps its
//!   value and the arithmetic around each read stays in that type: an
//!   `int` expression in place of a `long` scalar would make the product
//!   around it `int`, which overflows where C's did not.
//!
//! The definition stays (a value read after the block, or in the next
//! iteration before the definition, still needs it), except a local of
//! the block declared in it that nothing reads any more.

use crate::front::arith::{self, Arith};
use crate::front::parse::Region;
use crate::front::syntax::{subst_stmts, AssignOp, BinOp, Expr, ExprKind, Stmt, UnOp};
use std::collections::{BTreeMap, BTreeSet};

/// The region with reads of index scalars replaced, if it has any.
pub fn substituted(region: &Region) -> Option<Region> {
    let mut address_taken = BTreeSet::new();
    region
        .body
        .iter()
        .for_each(|s| addresses(s, &mut address_taken));
    let mut types: BTreeMap<String, String> = region
        .symbols
        .iter()
        .filter(|(_, v)| v.rank() == 0 && !v.volatile_or_register)
        .map(|(n, v)| (n.clone(), v.base_type.trim().to_string()))
        .collect();
    declared_types(&region.body, &mut types);
    let cx = Cx {
        types,
        address_taken,
    };
    let mut body = region.body.clone();
    let mut changed = false;
    cx.block(&mut body, &mut changed);
    if changed {
        body.iter_mut().for_each(|s| choices_out_of_subscripts(s));
    }
    changed.then(|| Region {
        body,
        ..region.clone()
    })
}

struct Cx {
    /// Scalars the region can see, with their types: the region's
    /// symbols, loops' own iterators, declarations in the region.
    types: BTreeMap<String, String>,
    /// Names whose address the region takes (`&c`, call arguments).
    address_taken: BTreeSet<String>,
}

impl Cx {
    fn block(&self, body: &mut Vec<Stmt>, changed: &mut bool) {
        let mut k = 0;
        while k < body.len() {
            if let Some((var, value, declared_here)) = self.definition(body, k) {
                let mut stop = value.names.clone();
                stop.insert(var.clone());
                let mut end = body.len();
                for (j, s) in body.iter_mut().enumerate().skip(k + 1) {
                    let mut written = Vec::new();
                    s.may_write(&mut written);
                    // A call statement may write globals of `e` it is not
                    // passed.
                    if written.iter().any(|w| stop.contains(w)) || calls(s) {
                        end = j;
                        break;
                    }
                    if mentions(s, &var) {
                        let map = |n: &str| (n == var).then(|| value.expr.clone());
                        *s = subst_stmts(std::slice::from_ref(s), &map).remove(0);
                        *changed = true;
                    }
                }
                // A local of this block that nothing reads any more: its
                // definition goes (a declaration with it).
                let read_later = body[k + 1..].iter().any(|s| mentions(s, &var));
                if declared_here && !read_later && end == body.len() {
                    remove_definition(body, k, &var);
                    *changed = true;
                    continue;
                }
            }
            k += 1;
        }
        for s in body.iter_mut() {
            match s {
                Stmt::For { body, .. } | Stmt::While { body, .. } => self.block(body, changed),
                Stmt::If { then_, else_, .. } => {
                    self.block(then_, changed);
                    self.block(else_, changed);
                }
                _ => {}
            }
        }
    }

    /// `body[k]` as `c = e;` or `T c = e;` that qualifies (module
    /// comment), and whether `c` is declared in the block at or before it.
    fn definition(&self, body: &[Stmt], k: usize) -> Option<(String, Value, bool)> {
        let (var, e, by_decl) = match &body[k] {
            Stmt::Assign {
                lhs,
                op: AssignOp::Assign,
                rhs,
                atomic: false,
                ..
            } => match &lhs.kind {
                ExprKind::Ident(n) => (n.clone(), rhs, false),
                _ => return None,
            },
            Stmt::Decl {
                var, init: Some(e), ..
            } if var.rank() == 0 && !var.volatile_or_register => (var.name.clone(), e, true),
            _ => return None,
        };
        if self.address_taken.contains(&var) {
            return None;
        }
        let ty = self.types.get(&var)?;
        let target = integer(ty)?;
        let mut names = BTreeSet::new();
        if !index_expression(e, &mut names) || names.contains(&var) {
            return None;
        }
        if names.iter().any(|n| self.address_taken.contains(n)) {
            return None;
        }
        let lookup = |n: &str| self.types.get(n).cloned();
        let source = arith::type_of(e, &lookup)?;
        // The same type: in place of `c`, `e` computes what `c` did in
        // the expression around it (`long c = 5; c * 1000000000` is not
        // `5 * 1000000000`, which overflows `int`).
        if source != target {
            return None;
        }
        let declared = by_decl || declared_before(body, k);
        Some((
            var,
            Value {
                expr: e.clone(),
                names,
            },
            declared,
        ))
    }
}

/// Reads whose subscript chooses (`tIn[x == 0 ? c : c - 1]`, what
/// hotspot3D's neighbour scalars become) read one of two elements:
/// `x == 0 ? tIn[c] : tIn[c - 1]` reads the same, with subscripts the
/// model can delinearise. Values only: a store's subscript stays.
fn choices_out_of_subscripts(s: &mut Stmt) {
    match s {
        Stmt::Assign { lhs, rhs, .. } => {
            *rhs = hoisted(rhs);
            // The stored element's subscripts are reads of their own.
            if let ExprKind::Index(..) = lhs.kind {
                let mut cur = lhs;
                while let ExprKind::Index(b, i) = &mut cur.kind {
                    **i = hoisted(i);
                    cur = b;
                }
            }
        }
        Stmt::Decl { init: Some(e), .. } => *e = hoisted(e),
        Stmt::For { body, .. } | Stmt::While { body, .. } => {
            body.iter_mut().for_each(choices_out_of_subscripts)
        }
        Stmt::If { then_, else_, .. } => then_
            .iter_mut()
            .chain(else_.iter_mut())
            .for_each(choices_out_of_subscripts),
        _ => {}
    }
}

fn hoisted(e: &Expr) -> Expr {
    let mut out = e.clone();
    for c in out.children_mut() {
        *c = hoisted(c);
    }
    if let ExprKind::Index(base, sub) = &out.kind {
        // `(c ? A[i] : A[j])[k]`, a choice hoisted out of an inner
        // subscript: the outer one goes into both.
        if let ExprKind::Cond(c, a, b) = &base.kind {
            let index = |x: &Expr| Expr {
                kind: ExprKind::Index(Box::new(x.clone()), sub.clone()),
                loc: out.loc.clone(),
            };
            let (ta, tb) = (hoisted(&index(a)), hoisted(&index(b)));
            return Expr {
                kind: ExprKind::Cond(c.clone(), Box::new(ta), Box::new(tb)),
                loc: out.loc.clone(),
            };
        }
        if let ExprKind::Cond(c, a, b) = &sub.kind {
            let pick = |i: &Expr| Expr {
                kind: ExprKind::Index(base.clone(), Box::new(i.clone())),
                loc: out.loc.clone(),
            };
            let (ta, tb) = (hoisted(&pick(a)), hoisted(&pick(b)));
            return Expr {
                kind: ExprKind::Cond(c.clone(), Box::new(ta), Box::new(tb)),
                loc: out.loc.clone(),
            };
        }
    }
    out
}

/// A definition's value: the expression and its names.
struct Value {
    expr: Expr,
    names: BTreeSet<String>,
}

/// The integer type `t` names where a value of it converts back unchanged
/// from the same type (signed types, `unsigned int`).
fn integer(t: &str) -> Option<Arith> {
    let words: Vec<&str> = t
        .split_whitespace()
        .filter(|w| *w != "const" && *w != "signed")
        .collect();
    match words.as_slice() {
        ["int"] => Some(Arith::Int),
        ["long"] | ["long", "int"] | ["long", "long"] | ["long", "long", "int"] => {
            Some(Arith::Long)
        }
        ["unsigned"] | ["unsigned", "int"] => Some(Arith::UInt),
        // `short c = e` converts an `int` e to `short`: not the same value.
        _ => None,
    }
}

/// Whether `e` is an index expression (module comment), collecting its
/// names.
fn index_expression(e: &Expr, names: &mut BTreeSet<String>) -> bool {
    match &e.kind {
        ExprKind::Int(..) => true,
        ExprKind::Ident(n) => {
            names.insert(n.clone());
            true
        }
        ExprKind::Unary(UnOp::Neg | UnOp::Plus, a) => index_expression(a, names),
        ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem, a, b) => {
            index_expression(a, names) && index_expression(b, names)
        }
        // hotspot3D's neighbours: `w = (x == 0) ? c : c - 1;`.
        ExprKind::Cond(c, a, b) => {
            condition(c, names) && index_expression(a, names) && index_expression(b, names)
        }
        _ => false,
    }
}

/// Whether `e` is a condition on index expressions: comparisons joined by
/// `&&`, `||` and `!`.
fn condition(e: &Expr, names: &mut BTreeSet<String>) -> bool {
    match &e.kind {
        ExprKind::Binary(
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne,
            a,
            b,
        ) => index_expression(a, names) && index_expression(b, names),
        ExprKind::Binary(BinOp::And | BinOp::Or, a, b) => {
            condition(a, names) && condition(b, names)
        }
        ExprKind::Unary(UnOp::Not, a) => condition(a, names),
        _ => false,
    }
}

/// Whether `var` is declared (without a value) in `body` before `k`.
fn declared_before(body: &[Stmt], k: usize) -> bool {
    let Stmt::Assign { lhs, .. } = &body[k] else {
        return false;
    };
    let ExprKind::Ident(var) = &lhs.kind else {
        return false;
    };
    body[..k]
        .iter()
        .any(|s| matches!(s, Stmt::Decl { var: v, .. } if &v.name == var))
}

/// Drops the definition at `k`; a declaration with a value becomes one
/// without (the name stays declared for what C says of it).
fn remove_definition(body: &mut Vec<Stmt>, k: usize, var: &str) {
    match &body[k] {
        Stmt::Decl { .. } => {
            body.remove(k);
        }
        _ => {
            body.remove(k);
            // Its declaration too, where nothing else mentions the name.
            if !body.iter().any(|s| mentions(s, var)) {
                body.retain(|s| !matches!(s, Stmt::Decl { var: v, .. } if v.name == var));
            }
        }
    }
}

/// Whether `s` is or holds a call statement.
fn calls(s: &Stmt) -> bool {
    match s {
        Stmt::Call { .. } => true,
        Stmt::For { body, .. } | Stmt::While { body, .. } => body.iter().any(calls),
        Stmt::If { then_, else_, .. } => then_.iter().chain(else_).any(calls),
        _ => false,
    }
}

/// Whether `s` mentions `var` anywhere.
fn mentions(s: &Stmt, var: &str) -> bool {
    let mut names = Vec::new();
    s.idents(&mut names);
    names.iter().any(|n| n == var) || declares(s, var)
}

/// Whether `s` declares `var` (a loop over it, a declaration).
fn declares(s: &Stmt, var: &str) -> bool {
    match s {
        Stmt::For { iter, body, .. } => iter == var || body.iter().any(|s| declares(s, var)),
        Stmt::While { body, .. } => body.iter().any(|s| declares(s, var)),
        Stmt::If { then_, else_, .. } => then_.iter().chain(else_).any(|s| declares(s, var)),
        Stmt::Decl { var: v, .. } => v.name == var,
        _ => false,
    }
}

/// Names whose address the region takes or that a call statement may
/// write through.
pub(super) fn addresses(s: &Stmt, out: &mut BTreeSet<String>) {
    fn in_expr(e: &Expr, out: &mut BTreeSet<String>) {
        if let ExprKind::Unary(UnOp::AddrOf, a) = &e.kind {
            let mut names = Vec::new();
            a.idents(&mut names);
            out.extend(names);
        }
        e.children().into_iter().for_each(|c| in_expr(c, out));
    }
    let mut exprs: Vec<&Expr> = Vec::new();
    match s {
        Stmt::For {
            init, cond, body, ..
        } => {
            exprs.extend([init, cond]);
            body.iter().for_each(|s| addresses(s, out));
        }
        Stmt::While { cond, body, .. } => {
            exprs.push(cond);
            body.iter().for_each(|s| addresses(s, out));
        }
        Stmt::If {
            cond, then_, else_, ..
        } => {
            exprs.push(cond);
            then_.iter().chain(else_).for_each(|s| addresses(s, out));
        }
        Stmt::Assign { lhs, rhs, .. } => exprs.extend([lhs, rhs]),
        Stmt::Decl { init: Some(e), .. } | Stmt::Assume { cond: e, .. } => exprs.push(e),
        Stmt::Call { args, .. } => {
            for a in args {
                let mut names = Vec::new();
                a.idents(&mut names);
                out.extend(names);
            }
        }
        _ => {}
    }
    exprs.into_iter().for_each(|e| in_expr(e, out));
}

/// The types of the loops' own iterators and of the region's
/// declarations.
fn declared_types(body: &[Stmt], out: &mut BTreeMap<String, String>) {
    for s in body {
        match s {
            Stmt::For {
                iter,
                iter_type,
                body,
                ..
            } => {
                if let Some(t) = iter_type {
                    out.insert(iter.clone(), t.trim().to_string());
                }
                declared_types(body, out);
            }
            Stmt::While { body, .. } => declared_types(body, out),
            Stmt::If { then_, else_, .. } => {
                declared_types(then_, out);
                declared_types(else_, out);
            }
            Stmt::Decl { var, .. } if var.rank() == 0 && !var.volatile_or_register => {
                out.insert(var.name.clone(), var.base_type.trim().to_string());
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_types_that_convert_back() {
        assert_eq!(integer("int"), Some(Arith::Int));
        assert_eq!(integer("const long"), Some(Arith::Long));
        assert_eq!(integer("unsigned int"), Some(Arith::UInt));
        assert_eq!(integer("short"), None);
        assert_eq!(integer("unsigned long"), None);
        assert_eq!(integer("double"), None);
        assert_eq!(integer("char"), None);
    }
}
