//! Expressions of a region as `Expr`: operators, subscripts, members,
//! calls, casts that reshape an array, and integer constants with C's
//! rules for their literals.

use super::*;
use crate::front::syntax::member_row;

impl<'a> Cx<'a> {
    /// The buffer a pointer-to-array declaration of the region points to:
    /// `(T (*)[n]) buf` or `buf`.
    pub(super) fn reshaping_cast(&self, v: Node) -> Result<Expr> {
        let mut v = v;
        while v.kind() == "parenthesized_expression" && v.named_child_count() == 1 {
            v = v.named_child(0).ok_or_else(|| self.syntax(v))?;
        }
        if v.kind() == "cast_expression" {
            let t = v
                .child_by_field_name("type")
                .ok_or_else(|| self.syntax(v))?;
            if !self.text(t).contains('*') {
                return Err(self
                    .err(
                        Code::PointerArithmetic,
                        t,
                        "a pointer to rows must be initialised with a pointer",
                    )
                    .with_hint(
                        "write `T (*a)[n] = (T (*)[n]) buf;` with `buf` a pointer or array of `T`",
                    ));
            }
            return self.reshaping_cast(
                v.child_by_field_name("value")
                    .ok_or_else(|| self.syntax(v))?,
            );
        }
        if v.kind() != "identifier" {
            return Err(self
                .err(
                    Code::PointerArithmetic,
                    v,
                    "a pointer to rows in a region must point to the start of a buffer the region names",
                )
                .with_hint("write `T (*a)[n] = (T (*)[n]) buf;` with `buf` a pointer parameter or array, without arithmetic"));
        }
        self.expr(v)
    }

    pub(super) fn syntax(&self, n: Node) -> Diagnostic {
        self.err(Code::Syntax, n, "syntax error in the region")
            .with_hint("check the C syntax of this statement")
    }

    pub fn expr(&self, n: Node) -> Result<Expr> {
        let loc = self.loc(n);
        let mk = |kind| {
            Ok(Expr {
                kind,
                loc: loc.clone(),
            })
        };
        match n.kind() {
            "number_literal" => self.number(n),
            "char_literal" => {
                let t = self.text(n);
                let inner = t.trim_matches('\'');
                let v = if inner.len() == 1 {
                    inner.as_bytes()[0] as i64
                } else {
                    return Err(self.unsupported_expr(n));
                };
                mk(ExprKind::Int(v, t.to_string()))
            }
            "identifier" => {
                let name = self.text(n);
                if let Some(e) = self.enumerator(n, name) {
                    return e;
                }
                if !self.is_declared(name) {
                    return Err(self.undeclared(n, name));
                }
                let name = self.resolve(name).unwrap_or_else(|| name.to_string());
                mk(ExprKind::Ident(name))
            }
            "true" => mk(ExprKind::Int(1, "1".into())),
            "false" => mk(ExprKind::Int(0, "0".into())),
            "parenthesized_expression" => {
                let inner = n.named_child(0).ok_or_else(|| self.syntax(n))?;
                if inner.kind() == "comma_expression" {
                    return Err(self.unsupported_expr(inner));
                }
                self.expr(inner)
            }
            "subscript_expression" => {
                // An element of a struct's array member, `A[i].c[k]`.
                if let Some(r) = self.member_chain(n) {
                    return r;
                }
                let a = self.field(n, "argument")?;
                let i = self.field(n, "index")?;
                mk(ExprKind::Index(
                    Box::new(self.expr(a)?),
                    Box::new(self.expr(i)?),
                ))
            }
            "binary_expression" => self.binary(n),
            "unary_expression" => {
                let a = self.field(n, "argument")?;
                let op = n
                    .child_by_field_name("operator")
                    .map(|o| self.text(o))
                    .unwrap_or("");
                let op = match op {
                    "-" => UnOp::Neg,
                    "+" => UnOp::Plus,
                    "!" => UnOp::Not,
                    "~" => UnOp::BitNot,
                    _ => return Err(self.unsupported_expr(n)),
                };
                mk(ExprKind::Unary(op, Box::new(self.expr(a)?)))
            }
            "conditional_expression" => {
                let c = self.field(n, "condition")?;
                let t = self.field(n, "consequence")?;
                let e = self.field(n, "alternative")?;
                mk(ExprKind::Cond(
                    Box::new(self.expr(c)?),
                    Box::new(self.expr(t)?),
                    Box::new(self.expr(e)?),
                ))
            }
            "call_expression" => self.call(n),
            "cast_expression" => self.cast(n),
            "sizeof_expression" => self.sizeof(n),
            "pointer_expression" => Err(self
                .err(
                    Code::PointerArithmetic,
                    n,
                    "pointer dereference and address-of (`*p`, `&x`) are not translated here",
                )
                .with_hint("index arrays with subscripts, e.g. `A[i]` instead of `*(A + i)`")),
            "field_expression" => match self.member_chain(n) {
                Some(r) => r,
                None => Err(self.syntax(n)),
            },
            "assignment_expression" | "update_expression" => Err(self
                .err(
                    Code::UnsupportedStatement,
                    n,
                    "assignments inside expressions are not allowed",
                )
                .with_hint("write each assignment as its own statement")),
            "ERROR" => Err(self.syntax(n)),
            _ => Err(self.unsupported_expr(n)),
        }
    }

    /// An integer or floating-point constant.
    fn number(&self, n: Node) -> Result<Expr> {
        let mk = |kind| self.at(n, kind);
        let t = self.text(n);
        // The C grammar reads a sign into the literal (`-1u`); C reads a
        // unary operator applied to it, which for an unsigned literal
        // wraps around (`-1u` is 4294967295, not -1).
        if let Some(op) = t.chars().next().and_then(|c| match c {
            '-' => Some(UnOp::Neg),
            '+' => Some(UnOp::Plus),
            _ => None,
        }) {
            let inner = self.literal(n, t[1..].trim_start())?;
            return mk(ExprKind::Unary(op, Box::new(inner)));
        }
        self.literal(n, t)
    }

    /// The unsigned literal `t` of the node `n`.
    fn literal(&self, n: Node, t: &str) -> Result<Expr> {
        let mk = |kind| self.at(n, kind);
        match parse_int_literal(t) {
            Some(v) => mk(ExprKind::Int(v, t.to_string())),
            // An integer constant that no C integer type holds has
            // no type (C11 6.4.4p2); taken for a floating-point one,
            // conversions chosen by type would go wrong.
            None if is_integer_literal(t) && !fits_u64(t) => {
                return Err(self
                    .err(
                        Code::UnsupportedStatement,
                        n,
                        format!(
                            "integer constant `{}` is beyond 64-bit integers: no C integer type holds it",
                            t
                        ),
                    )
                    .with_hint(
                        "write a value of at most 64 bits (18446744073709551615ULL), or a floating-point constant",
                    ))
            }
            None => mk(ExprKind::Float(t.to_string())),
        }
    }

    /// `l op r` with C's binary operators.
    fn binary(&self, n: Node) -> Result<Expr> {
        let mk = |kind| self.at(n, kind);
        let l = self.field(n, "left")?;
        let r = self.field(n, "right")?;
        let op = n
            .child_by_field_name("operator")
            .map(|o| self.text(o))
            .unwrap_or("");
        let op = match op {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Rem,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            ">=" => BinOp::Ge,
            "==" => BinOp::Eq,
            "!=" => BinOp::Ne,
            "&&" => BinOp::And,
            "||" => BinOp::Or,
            "&" => BinOp::BitAnd,
            "|" => BinOp::BitOr,
            "^" => BinOp::BitXor,
            "<<" => BinOp::Shl,
            ">>" => BinOp::Shr,
            _ => return Err(self.unsupported_expr(n)),
        };
        mk(ExprKind::Binary(
            op,
            Box::new(self.expr(l)?),
            Box::new(self.expr(r)?),
        ))
    }

    /// A call of a function by name (its arguments may be addresses of
    /// elements), or a cast through a typedef that looks like one.
    fn call(&self, n: Node) -> Result<Expr> {
        let mk = |kind| self.at(n, kind);
        let f = self.field(n, "function")?;
        if let Some(cast) = self.typedef_cast(n, f)? {
            return Ok(cast);
        }
        if f.kind() != "identifier" {
            return Err(self
                .err(
                    Code::PointerArithmetic,
                    f,
                    "calls through function pointers are not allowed",
                )
                .with_hint("call the function by name"));
        }
        // A variable of that name (a function pointer) hides any function
        // the file defines or declares: the call goes where it points.
        if self.in_scope(self.text(f)) || self.names_a_variable(f) {
            return Err(self
                .err(
                    Code::PointerArithmetic,
                    f,
                    format!(
                        "calls through function pointers are not allowed: `{}` here is a variable (or a nested function), not the file's function",
                        self.text(f)
                    ),
                )
                .with_hint("call the function by name, or rename the variable"));
        }
        let args_node = self.field(n, "arguments")?;
        // Addresses of elements are arguments of call statements,
        // and of calls in expressions of functions the file only
        // declares (the model then checks the parameter is const).
        let mut args = Vec::new();
        let mut c = args_node.walk();
        for a in args_node.named_children(&mut c) {
            if a.kind() == "comment" {
                continue;
            }
            let a = self.without_pointer_cast(a)?;
            let address = a.kind() == "pointer_expression"
                && a.child_by_field_name("operator")
                    .is_some_and(|o| self.text(o) == "&");
            match a.child_by_field_name("argument") {
                Some(x) if address => {
                    // `&s.f[i]` of a struct member: the struct, a row.
                    let inner = self.call_argument(x)?;
                    args.push(if member_row(&inner).is_some() {
                        inner
                    } else {
                        Expr {
                            kind: ExprKind::Unary(UnOp::AddrOf, Box::new(inner)),
                            loc: self.loc(a),
                        }
                    })
                }
                // `f(s.a[k])`: an array member is a row of its struct.
                _ => args.push(self.call_argument(a)?),
            }
        }
        self.check_builtin_arity(f, args.len())?;
        mk(ExprKind::Call(self.callee(self.text(f)), args))
    }

    /// A call's argument `a`, where an array member of a struct is a row
    /// (`syntax::MEMBER_ROW`): the flag is set for the argument's own
    /// member access only (`Cx::member_chain` takes it).
    fn call_argument(&self, a: Node) -> Result<Expr> {
        self.member_rows.set(matches!(
            a.kind(),
            "field_expression" | "subscript_expression"
        ));
        let arg = self.expr(a);
        self.member_rows.set(false);
        arg
    }

    /// A builtin the file calls without declaring it (`front::implicit`)
    /// has no prototype the C compiler's check could hold its calls to:
    /// pencilc does.
    fn check_builtin_arity(&self, f: Node, given: usize) -> Result<()> {
        let name = self.text(f);
        match self.implicit_builtin(name).and_then(|b| b.arity) {
            Some(arity) if arity != given => Err(self
                .err(
                    Code::Syntax,
                    f,
                    format!(
                        "`{}` takes {} argument{}, not {}",
                        name,
                        arity,
                        if arity == 1 { "" } else { "s" },
                        given
                    ),
                )
                .with_hint(format!(
                    "`{}` is PENCIL's builtin here (the file does not declare it): call it as pencil.h declares it",
                    name
                ))),
            _ => Ok(()),
        }
    }

    /// A cast to an arithmetic type (typedefs resolved).
    fn cast(&self, n: Node) -> Result<Expr> {
        let mk = |kind| self.at(n, kind);
        let t = self.field(n, "type")?;
        let v = self.field(n, "value")?;
        let ty = self
            .text(t)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if let Some(e) = self.local_typedef(t, &ty) {
            return Err(e);
        }
        let ty = self.typedefs.borrow().get(&ty).cloned().unwrap_or(ty);
        if ty.contains('*') {
            return Err(self
                .err(
                    Code::PointerArithmetic,
                    t,
                    "casts to pointer types are not allowed",
                )
                .with_hint("PENCIL regions use arrays, not pointers"));
        }
        mk(ExprKind::Cast(ty, Box::new(self.expr(v)?)))
    }

    /// `n`'s child `name`, which its kind always has: a syntax error where
    /// tree-sitter recovered from one without it.
    fn field<'t>(&self, n: Node<'t>, name: &str) -> Result<Node<'t>> {
        n.child_by_field_name(name).ok_or_else(|| self.syntax(n))
    }

    /// An expression of `kind` at `n`'s place.
    fn at(&self, n: Node, kind: ExprKind) -> Result<Expr> {
        Ok(Expr {
            kind,
            loc: self.loc(n),
        })
    }

    pub(super) fn unsupported_expr(&self, n: Node) -> Diagnostic {
        self.err(
            Code::UnsupportedStatement,
            n,
            format!("unsupported expression ({})", n.kind().replace('_', " ")),
        )
        .with_hint("use arithmetic on scalars and array elements, and calls to math functions")
    }
}

/// The value of an integer constant expression made of literals (and
/// `sizeof`, which the parser makes literals).
pub fn const_value(e: &Expr) -> Option<i64> {
    typed_const(e).map(|(v, _)| v)
}

/// `const_value` where C computes it in a signed type: a loop's step.
/// `a += 0xFFFFFFFFu` on an `int` steps by -1 (the sum wraps in
/// `unsigned` and converts back), `m += 1u - 2` on a `long` by
/// 4294967295; neither is the folded value, so neither is a step.
pub fn signed_const_value(e: &Expr) -> Option<i64> {
    typed_const(e).and_then(|(v, unsigned)| (!unsigned).then_some(v))
}

/// `const_value` with whether C computes it in an unsigned type (`2u`,
/// `sizeof`): where such arithmetic would go below zero it wraps
/// (`(1u - 2) / 2` is 2147483647), so a negative value of it, or a
/// negative operand converted to it, is not folded.
fn typed_const(e: &Expr) -> Option<(i64, bool)> {
    let (v, unsigned) = match &e.kind {
        ExprKind::Int(v, t) => (*v, !crate::front::int_type::IntTy::of_literal(t, *v).signed),
        ExprKind::Unary(UnOp::Neg, a) => {
            let (a, unsigned) = typed_const(a)?;
            (a.checked_neg()?, unsigned)
        }
        ExprKind::Unary(UnOp::Plus, a) => typed_const(a)?,
        ExprKind::Binary(op, a, b) => {
            let ((a, ua), (b, ub)) = (typed_const(a)?, typed_const(b)?);
            let unsigned = ua || ub;
            if unsigned && (a < 0 || b < 0) {
                return None;
            }
            let v = match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => Some(a / b),
                BinOp::Rem if b != 0 => Some(a % b),
                _ => None,
            }?;
            (v, unsigned)
        }
        // Outside the type's range the cast would wrap: not folded.
        ExprKind::Cast(t, a) => {
            let (v, _) = typed_const(a)?;
            let (lo, hi) = crate::front::syntax::integer_range(t)?;
            if !(lo <= v as i128 && v as i128 <= hi) {
                return None;
            }
            (v, lo == 0)
        }
        _ => return None,
    };
    (!unsigned || v >= 0).then_some((v, unsigned))
}

/// `t` is an integer constant of C (whatever its value), not a floating one.
pub(super) fn is_integer_literal(t: &str) -> bool {
    let s = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if s.starts_with("0x") || s.starts_with("0X") {
        return !s.contains(['.', 'p', 'P']);
    }
    !s.contains(['.', 'e', 'E']) && !t.ends_with(['f', 'F'])
}

/// The integer constant `t` is at most `u64::MAX`.
pub(super) fn fits_u64(t: &str) -> bool {
    let s = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).is_ok();
    }
    if s.len() > 1 && s.starts_with('0') {
        return u64::from_str_radix(&s[1..], 8).is_ok();
    }
    s.parse::<u64>().is_ok()
}

pub(super) fn parse_int_literal(t: &str) -> Option<i64> {
    let s = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if s.starts_with("0x") || s.starts_with("0X") {
        return i64::from_str_radix(&s[2..], 16).ok();
    }
    if s.contains(['.', 'e', 'E', 'p', 'P']) || t.ends_with(['f', 'F']) {
        return None;
    }
    if s.len() > 1 && s.starts_with('0') {
        return i64::from_str_radix(&s[1..], 8).ok();
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::const_value;
    use crate::front::syntax::build::{bin, e, int};
    use crate::front::syntax::{BinOp, ExprKind};

    fn lit(v: i64, t: &str) -> crate::front::syntax::Expr {
        e(ExprKind::Int(v, t.into()))
    }

    #[test]
    fn unsigned_constants_fold_only_where_they_do_not_wrap() {
        // `sizeof(int) * 3 - 2`: 10 in `size_t` as in `int`.
        let ten = bin(BinOp::Sub, bin(BinOp::Mul, lit(4, "4UL"), int(3)), int(2));
        assert_eq!(const_value(&ten), Some(10));
        // `(1u - 2) / 2` is 2147483647 in C, not 0.
        let wraps = bin(BinOp::Div, bin(BinOp::Sub, lit(1, "1u"), int(2)), int(2));
        assert_eq!(const_value(&wraps), None);
        // `-1 + 8UL`: -1 converted to `size_t` first (C's 7 comes of
        // two wraps): not folded.
        assert_eq!(const_value(&bin(BinOp::Add, int(-1), lit(8, "8UL"))), None);
        // Signed arithmetic below zero is C's too.
        assert_eq!(const_value(&bin(BinOp::Sub, int(1), int(2))), Some(-1));
    }
}
