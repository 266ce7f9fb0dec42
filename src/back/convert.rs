//! C's implicit conversions that device languages do not perform. In C,
//! `sqrt(i)` converts the int to double because <math.h> declares
//! `double sqrt(double)`; OpenCL C and CUDA overload their math functions,
//! so the same call is ambiguous (OpenCL rejects it) or picks another
//! precision (`sqrt` of a float is a float there, a double in C). Device
//! code therefore gets each argument of a math function cast to the
//! parameter type of C's prototype, unless it has that type already.

pub use crate::front::arith::{math_param, type_of, Arith};
use crate::front::syntax::{Expr, ExprKind};

/// `e` with every argument of a math function cast to its prototype's
/// parameter type where its own type differs or is unknown.
pub fn convert_math_args(e: &Expr, var: &dyn Fn(&str) -> Option<String>) -> Expr {
    let b = |x: &Expr| Box::new(convert_math_args(x, var));
    let kind = match &e.kind {
        ExprKind::Call(f, args) => {
            let param = math_param(f);
            let args = args
                .iter()
                .map(|a| {
                    let a2 = convert_math_args(a, var);
                    match param {
                        // `pow(x, 2.0)` reads better than `pow(x, (double)2)`.
                        Some(p) if matches!(&a.kind, ExprKind::Int(_, t) if t.bytes().all(|b| b.is_ascii_digit())) => {
                            let ExprKind::Int(v, _) = &a.kind else {
                                unreachable!()
                            };
                            let suffix = if p == Arith::Float { "f" } else { "" };
                            Expr {
                                kind: ExprKind::Float(format!("{}.0{}", v, suffix)),
                                loc: a.loc.clone(),
                            }
                        }
                        Some(p) if type_of(a, var) != Some(p) => Expr {
                            kind: ExprKind::Cast(p.c_name().to_string(), Box::new(a2)),
                            loc: a.loc.clone(),
                        },
                        _ => a2,
                    }
                })
                .collect();
            ExprKind::Call(f.clone(), args)
        }
        ExprKind::Index(a, i) => ExprKind::Index(b(a), b(i)),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, b(a)),
        ExprKind::Binary(op, x, y) => ExprKind::Binary(*op, b(x), b(y)),
        // OpenCL C takes no floating-point condition in `?:` (C does: a
        // comparison with zero).
        ExprKind::Cond(c, t, f) => {
            let cond = match type_of(c, var) {
                Some(Arith::Float | Arith::Double) => Box::new(Expr {
                    kind: ExprKind::Binary(
                        crate::front::syntax::BinOp::Ne,
                        b(c),
                        Box::new(Expr {
                            kind: ExprKind::Int(0, "0".to_string()),
                            loc: c.loc.clone(),
                        }),
                    ),
                    loc: c.loc.clone(),
                }),
                _ => b(c),
            };
            ExprKind::Cond(cond, b(t), b(f))
        }
        // OpenCL C knows neither <stdint.h> nor `_Bool`; the cast keeps
        // C's conversion (wrap-around to the width, 0 or 1 for `bool`).
        ExprKind::Cast(t, a) => ExprKind::Cast(crate::front::syntax::device_int_type(t), b(a)),
        k => k.clone(),
    };
    Expr {
        kind,
        loc: e.loc.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::cexpr::plain;
    use crate::front::syntax::build::*;
    use crate::front::syntax::BinOp;

    fn types(n: &str) -> Option<String> {
        match n {
            "i" => Some("int".into()),
            "L" => Some("long long".into()),
            "x" => Some("double".into()),
            "y" => Some("float".into()),
            _ => None,
        }
    }

    #[test]
    fn math_arguments_get_the_prototype_type() {
        let conv = |x: Expr| plain(&convert_math_args(&x, &types));
        assert_eq!(conv(call("sqrt", vec![id("i")])), "sqrt((double)i)");
        assert_eq!(conv(call("sqrt", vec![id("x")])), "sqrt(x)");
        // C converts a float argument of `sqrt` to double, and a double
        // argument of `sqrtf` to float.
        assert_eq!(conv(call("sqrt", vec![id("y")])), "sqrt((double)y)");
        assert_eq!(conv(call("sqrtf", vec![id("x")])), "sqrtf((float)x)");
        assert_eq!(
            conv(call(
                "floor",
                vec![e(ExprKind::Index(Box::new(id("L")), Box::new(id("i"))))]
            )),
            "floor((double)L[i])"
        );
        let two = e(ExprKind::Int(2, "2".into()));
        assert_eq!(conv(call("pow", vec![id("x"), two.clone()])), "pow(x, 2.0)");
        assert_eq!(conv(call("powf", vec![id("y"), two])), "powf(y, 2.0f)");
        // Unknown types are cast too: the cast is what C's prototype does.
        assert_eq!(conv(call("exp", vec![id("n")])), "exp((double)n)");
        assert_eq!(conv(call("abs", vec![id("i")])), "abs(i)");
        let sum = e(ExprKind::Binary(
            BinOp::Add,
            Box::new(id("x")),
            Box::new(id("i")),
        ));
        assert_eq!(conv(call("fabs", vec![sum])), "fabs(x + i)");
    }

    #[test]
    fn promoted_types() {
        assert_eq!(Arith::of_c_type("unsigned char"), Some(Arith::Int));
        assert_eq!(Arith::of_c_type("unsigned int"), Some(Arith::UInt));
        assert_eq!(Arith::of_c_type("long long"), Some(Arith::Long));
        assert_eq!(Arith::of_c_type("const double"), Some(Arith::Double));
        assert_eq!(Arith::of_c_type("struct s"), None);
    }
}
