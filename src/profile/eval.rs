//! Integer evaluation of the generated program's expressions at concrete
//! values: loop bounds, guards and launch sizes (`ast::AExpr`, with C's
//! semantics: truncating `/` and `%`, floor division where isl asks for
//! it) and the subscripts of statement bodies (`front::syntax::Expr`).
//! Every failure (an unknown name, a division by zero, an overflow) is
//! `None`, never a panic: the profile counts what it could not evaluate.

use crate::ast::{AExpr, AOp};
use crate::front::syntax::{BinOp, Expr, ExprKind, UnOp};

/// Values of names, innermost binding last (a loop's iterator is pushed
/// on entry and popped on exit, so shadowing works as in C).
#[derive(Clone, Debug, Default)]
pub struct Env {
    vars: Vec<(String, i64)>,
}

impl Env {
    pub fn new() -> Env {
        Env::default()
    }

    pub fn push(&mut self, name: &str, value: i64) {
        self.vars.push((name.to_string(), value));
    }

    /// How many bindings there are, for `truncate` to return to.
    pub fn mark(&self) -> usize {
        self.vars.len()
    }

    pub fn truncate(&mut self, mark: usize) {
        self.vars.truncate(mark);
    }

    pub fn get(&self, name: &str) -> Option<i64> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _)| same_name(n, name))
            .map(|(_, v)| *v)
    }

    /// Rebinds the innermost binding of `name` (a loop's next iteration).
    pub fn set(&mut self, name: &str, value: i64) {
        match self.vars.iter_mut().rev().find(|(n, _)| same_name(n, name)) {
            Some(slot) => slot.1 = value,
            None => self.push(name, value),
        }
    }
}

/// `a == b`, last bytes first: generated names share long prefixes and
/// differ at their ends (`private_pencilc_x_sum_o0`, `_o1`, `_o2`), and
/// the profile looks names up for every instance it walks.
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().last() == b.as_bytes().last() && a == b
}

/// C's `/` on integers: truncation toward zero.
fn div_trunc(a: i64, b: i64) -> Option<i64> {
    a.checked_div(b)
}

/// Floor division (`pencilc_floord`).
fn div_floor(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q.checked_sub(1)
    } else {
        Some(q)
    }
}

/// The value of `e` at `env`.
pub fn eval(e: &AExpr, env: &Env) -> Option<i64> {
    match e {
        AExpr::Int(v) => Some(*v),
        AExpr::Id(n) => env.get(n),
        AExpr::Op(op, a) => {
            let arg = |k: usize| a.get(k).and_then(|x| eval(x, env));
            let two = || Some((arg(0)?, arg(1)?));
            match op {
                AOp::Neg => arg(0)?.checked_neg(),
                AOp::Add => fold(a, env, i64::checked_add),
                AOp::Sub => {
                    let (x, y) = two()?;
                    x.checked_sub(y)
                }
                AOp::Mul => fold(a, env, i64::checked_mul),
                AOp::Div => {
                    let (x, y) = two()?;
                    div_trunc(x, y)
                }
                AOp::FloorDiv => {
                    let (x, y) = two()?;
                    div_floor(x, y)
                }
                AOp::Rem => {
                    let (x, y) = two()?;
                    x.checked_rem(y)
                }
                AOp::Min => fold(a, env, |x, y| Some(x.min(y))),
                AOp::Max => fold(a, env, |x, y| Some(x.max(y))),
                AOp::Cond => {
                    if arg(0)? != 0 {
                        arg(1)
                    } else {
                        arg(2)
                    }
                }
                AOp::Eq => two().map(|(x, y)| (x == y) as i64),
                AOp::Le => two().map(|(x, y)| (x <= y) as i64),
                AOp::Lt => two().map(|(x, y)| (x < y) as i64),
                AOp::Ge => two().map(|(x, y)| (x >= y) as i64),
                AOp::Gt => two().map(|(x, y)| (x > y) as i64),
                AOp::And => {
                    for x in a {
                        if eval(x, env)? == 0 {
                            return Some(0);
                        }
                    }
                    Some(1)
                }
                AOp::Or => {
                    for x in a {
                        if eval(x, env)? != 0 {
                            return Some(1);
                        }
                    }
                    Some(0)
                }
                AOp::Call => {
                    let AExpr::Id(f) = a.first()? else {
                        return None;
                    };
                    call(f, &a[1..], |x| eval(x, env))
                }
            }
        }
    }
}

fn fold(a: &[AExpr], env: &Env, f: impl Fn(i64, i64) -> Option<i64>) -> Option<i64> {
    let mut acc = eval(a.first()?, env)?;
    for x in &a[1..] {
        acc = f(acc, eval(x, env)?)?;
    }
    Some(acc)
}

/// The integer helpers generated code and PENCIL code call.
fn call<T>(f: &str, args: &[T], value: impl Fn(&T) -> Option<i64>) -> Option<i64> {
    let vals: Option<Vec<i64>> = args.iter().map(value).collect();
    let v = vals?;
    match (f, v.as_slice()) {
        ("min" | "imin" | "pencilc_min", [x, y]) => Some(*x.min(y)),
        ("max" | "imax" | "pencilc_max", [x, y]) => Some(*x.max(y)),
        ("floord" | "pencilc_floord", [x, y]) => div_floor(*x, *y),
        ("pencilc_intmod", [x, y]) => div_floor(*x, *y).map(|q| x - y * q),
        ("abs" | "pencilc_abs", [x]) => x.checked_abs(),
        // A cast the generated code reads an identifier with, to a type
        // that holds its value (`(long)`, `overflow`).
        (c, [x]) if c.starts_with('(') => Some(*x),
        _ => None,
    }
}

/// The value of an integer C expression of a statement body (a
/// subscript) at `env`, which binds its iterators and parameters.
pub fn eval_c(e: &Expr, env: &Env) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v, _) => Some(*v),
        ExprKind::Ident(n) => env.get(n),
        ExprKind::Cast(_, x) => eval_c(x, env),
        ExprKind::Unary(op, x) => {
            let v = eval_c(x, env)?;
            match op {
                UnOp::Neg => v.checked_neg(),
                UnOp::Plus => Some(v),
                UnOp::Not => Some((v == 0) as i64),
                UnOp::BitNot => Some(!v),
                UnOp::AddrOf => None,
            }
        }
        ExprKind::Binary(op, x, y) => {
            let (a, b) = (eval_c(x, env)?, eval_c(y, env)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div => div_trunc(a, b),
                BinOp::Rem => a.checked_rem(b),
                BinOp::Lt => Some((a < b) as i64),
                BinOp::Le => Some((a <= b) as i64),
                BinOp::Gt => Some((a > b) as i64),
                BinOp::Ge => Some((a >= b) as i64),
                BinOp::Eq => Some((a == b) as i64),
                BinOp::Ne => Some((a != b) as i64),
                BinOp::And => Some((a != 0 && b != 0) as i64),
                BinOp::Or => Some((a != 0 || b != 0) as i64),
                BinOp::BitAnd => Some(a & b),
                BinOp::BitOr => Some(a | b),
                BinOp::BitXor => Some(a ^ b),
                BinOp::Shl => u32::try_from(b).ok().and_then(|s| a.checked_shl(s)),
                BinOp::Shr => u32::try_from(b).ok().and_then(|s| a.checked_shr(s)),
            }
        }
        ExprKind::Cond(c, x, y) => {
            if eval_c(c, env)? != 0 {
                eval_c(x, env)
            } else {
                eval_c(y, env)
            }
        }
        ExprKind::Call(f, args) => call(f, args, |x| eval_c(x, env)),
        ExprKind::Float(_) | ExprKind::Index(..) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> AExpr {
        AExpr::id(s)
    }
    use AExpr as E;
    const op: fn(AOp, Vec<AExpr>) -> AExpr = E::op;

    #[test]
    fn c_division_and_floor_division_differ_below_zero() {
        let mut env = Env::new();
        env.push("n", -7);
        let d = op(AOp::Div, vec![id("n"), AExpr::Int(2)]);
        let f = op(AOp::FloorDiv, vec![id("n"), AExpr::Int(2)]);
        let r = op(AOp::Rem, vec![id("n"), AExpr::Int(2)]);
        assert_eq!(eval(&d, &env), Some(-3));
        assert_eq!(eval(&f, &env), Some(-4));
        assert_eq!(eval(&r, &env), Some(-1));
        let call = op(
            AOp::Call,
            vec![id("pencilc_floord"), id("n"), AExpr::Int(2)],
        );
        assert_eq!(eval(&call, &env), Some(-4));
    }

    #[test]
    fn min_max_cond_and_comparisons() {
        let mut env = Env::new();
        env.push("a", 3);
        env.push("b", 5);
        let e = op(
            AOp::Cond,
            vec![
                op(
                    AOp::And,
                    vec![
                        op(AOp::Le, vec![id("a"), id("b")]),
                        op(AOp::Gt, vec![id("b"), AExpr::Int(0)]),
                    ],
                ),
                op(AOp::Min, vec![id("a"), id("b"), AExpr::Int(4)]),
                op(AOp::Max, vec![id("a"), id("b")]),
            ],
        );
        assert_eq!(eval(&e, &env), Some(3));
        env.set("a", 9);
        assert_eq!(eval(&e, &env), Some(9));
    }

    #[test]
    fn failures_are_none() {
        let env = Env::new();
        assert_eq!(eval(&id("nope"), &env), None);
        let div0 = op(AOp::Div, vec![AExpr::Int(1), AExpr::Int(0)]);
        assert_eq!(eval(&div0, &env), None);
        let over = op(AOp::Mul, vec![AExpr::Int(i64::MAX), AExpr::Int(2)]);
        assert_eq!(eval(&over, &env), None);
        let unknown = op(AOp::Call, vec![id("sqrt"), AExpr::Int(4)]);
        assert_eq!(eval(&unknown, &env), None);
    }

    #[test]
    fn shadowing_and_truncate() {
        let mut env = Env::new();
        env.push("i", 1);
        let m = env.mark();
        env.push("i", 2);
        assert_eq!(env.get("i"), Some(2));
        env.truncate(m);
        assert_eq!(env.get("i"), Some(1));
    }
}
