//! C's arithmetic types of expressions: the type an expression has after
//! the integer promotions and the usual arithmetic conversions, as the
//! back ends need it for device languages' conversions and the model for
//! which accumulations keep their value in any order.

use crate::front::syntax::{integer_range, BinOp, Expr, ExprKind, UnOp};

/// Math functions that are pure and exist in C, OpenCL C and CUDA (the
/// OpenCL back end drops the `f` suffix of the float versions, since
/// OpenCL C's builtins are overloaded).
pub const PURE_FUNCTIONS: &[&str] = &[
    "sqrt", "sqrtf", "exp", "expf", "exp2", "exp2f", "log", "logf", "log2", "log2f", "log10",
    "log10f", "pow", "powf", "fabs", "fabsf", "abs", "sin", "sinf", "cos", "cosf", "tan", "tanf",
    "asin", "asinf", "acos", "acosf", "atan", "atanf", "atan2", "atan2f", "sinh", "sinhf", "cosh",
    "coshf", "tanh", "tanhf", "floor", "floorf", "ceil", "ceilf", "fmin", "fminf", "fmax", "fmaxf",
    "fmod", "fmodf", "round", "roundf", "trunc", "truncf", "cbrt", "cbrtf", "hypot", "hypotf",
    "erf", "erff", "min", "max", "atan2pi", "atan2pif", "mix", "mixf", "rsqrt", "rsqrtf", "exp10",
    "exp10f",
];

/// Arithmetic types after C's integer promotions, in conversion rank order
/// (LP64: `long` is 64 bits, so it holds every `unsigned int`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Arith {
    Int,
    UInt,
    Long,
    ULong,
    Float,
    Double,
    LongDouble,
}

impl Arith {
    /// The promoted type of a C type written as text, `None` if not arithmetic.
    pub fn of_c_type(t: &str) -> Option<Arith> {
        let words: Vec<&str> = t
            .split_whitespace()
            .filter(|w| !matches!(*w, "const" | "volatile" | "restrict" | "static"))
            .collect();
        match words.as_slice() {
            ["float"] => return Some(Arith::Float),
            ["double"] => return Some(Arith::Double),
            ["long", "double"] => return Some(Arith::LongDouble),
            _ => {}
        }
        let (lo, hi) = integer_range(&words.join(" "))?;
        Some(if hi <= i32::MAX as i128 {
            Arith::Int
        } else if lo == 0 && hi <= u32::MAX as i128 {
            Arith::UInt
        } else if lo < 0 {
            Arith::Long
        } else {
            Arith::ULong
        })
    }

    pub fn c_name(self) -> &'static str {
        match self {
            Arith::Int => "int",
            Arith::UInt => "unsigned int",
            Arith::Long => "long",
            Arith::ULong => "unsigned long",
            Arith::Float => "float",
            Arith::Double => "double",
            Arith::LongDouble => "long double",
        }
    }

    /// C's usual arithmetic conversions (operands already promoted).
    pub fn common(a: Arith, b: Arith) -> Arith {
        a.max(b)
    }
}

/// The parameter type of C's prototype for a math function of <math.h>
/// (the `f` variants take float), or `None` for other functions (`abs`,
/// `min`, `max` and PENCIL's typed builtins take integers and are
/// converted by their own prototypes on every target).
pub fn math_param(f: &str) -> Option<Arith> {
    if matches!(f, "abs" | "min" | "max") || !PURE_FUNCTIONS.contains(&f) {
        return None;
    }
    match f.strip_suffix('f') {
        Some(base) if PURE_FUNCTIONS.contains(&base) => Some(Arith::Float),
        _ => Some(Arith::Double),
    }
}

/// The type of `e` in C, where `var` gives the declared type of a variable
/// (the element type for arrays); `None` where unknown.
pub fn type_of(e: &Expr, var: &dyn Fn(&str) -> Option<String>) -> Option<Arith> {
    match &e.kind {
        ExprKind::Int(v, text) => {
            let t = text.to_ascii_lowercase();
            let unsigned = t.contains('u');
            let long = t.contains('l') || *v > i32::MAX as i64;
            Some(match (long, unsigned) {
                (false, false) => Arith::Int,
                (false, true) => Arith::UInt,
                (true, false) => Arith::Long,
                (true, true) => Arith::ULong,
            })
        }
        ExprKind::Float(text) => {
            let t = text.to_ascii_lowercase();
            Some(if t.ends_with('f') && !t.starts_with("0x") {
                Arith::Float
            } else if t.ends_with('l') {
                Arith::LongDouble
            } else {
                Arith::Double
            })
        }
        ExprKind::Ident(n) => var(n).and_then(|t| Arith::of_c_type(&t)),
        ExprKind::Index(..) => {
            let mut cur = e;
            while let ExprKind::Index(b, _) = &cur.kind {
                cur = b;
            }
            match &cur.kind {
                ExprKind::Ident(n) => var(n).and_then(|t| Arith::of_c_type(&t)),
                _ => None,
            }
        }
        ExprKind::Unary(UnOp::Not, _) => Some(Arith::Int),
        ExprKind::Unary(_, a) => type_of(a, var),
        ExprKind::Binary(op, a, b) => {
            use BinOp::*;
            match op {
                Lt | Le | Gt | Ge | Eq | Ne | And | Or => Some(Arith::Int),
                Shl | Shr => type_of(a, var),
                _ => Some(Arith::common(type_of(a, var)?, type_of(b, var)?)),
            }
        }
        ExprKind::Cond(_, t, f) => Some(Arith::common(type_of(t, var)?, type_of(f, var)?)),
        ExprKind::Call(f, _) => match math_param(f) {
            Some(t) => Some(t),
            None if matches!(f.as_str(), "abs" | "min" | "max") => Some(Arith::Int),
            None => None,
        },
        ExprKind::Cast(t, _) => Arith::of_c_type(t),
    }
}
