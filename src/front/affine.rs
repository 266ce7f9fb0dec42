//! C integer expressions to isl's textual notation, exactly: C's truncating
//! `/` and `%` become pieces guarded by the sign of the dividend, `?:`, `min`
//! and `max` become guarded pieces, and anything that is not affine in the
//! loop iterators and parameters is rejected with the offending sub-expression.

pub use super::int_type::IntTy;
use super::syntax::{BinOp, Expr, ExprKind, UnOp};
use crate::diag::Loc;
use std::collections::BTreeSet;

/// How the front end classifies a name used in an affine position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Iterator,
    Parameter,
    /// Anything else (arrays, floating-point or written scalars, unknown names).
    Other,
}

/// A linear combination of atoms plus a constant. Atoms are isl text: an
/// identifier or a `floor(...)`/`mod` term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Aff {
    pub terms: Vec<(i64, String)>,
    pub constant: i64,
}

impl Aff {
    pub fn constant(c: i64) -> Aff {
        Aff {
            terms: vec![],
            constant: c,
        }
    }
    pub fn atom(a: String) -> Aff {
        Aff {
            terms: vec![(1, a)],
            constant: 0,
        }
    }
    pub fn as_const(&self) -> Option<i64> {
        self.terms
            .iter()
            .all(|(c, _)| *c == 0)
            .then_some(self.constant)
    }
    fn scale(&self, k: i64) -> Aff {
        Aff {
            terms: self.terms.iter().map(|(c, a)| (c * k, a.clone())).collect(),
            constant: self.constant * k,
        }
    }
    fn add(&self, o: &Aff) -> Aff {
        let mut terms = self.terms.clone();
        for (c, a) in &o.terms {
            match terms.iter_mut().find(|(_, b)| b == a) {
                Some(t) => t.0 += c,
                None => terms.push((*c, a.clone())),
            }
        }
        terms.retain(|(c, _)| *c != 0);
        Aff {
            terms,
            constant: self.constant + o.constant,
        }
    }
    pub fn to_isl(&self) -> String {
        let mut s = String::new();
        for (c, a) in &self.terms {
            if *c == 0 {
                continue;
            }
            let (sign, mag) = if *c < 0 { ("-", -c) } else { ("+", *c) };
            if s.is_empty() {
                if sign == "-" {
                    s.push('-');
                }
            } else {
                s.push_str(&format!(" {} ", sign));
            }
            if mag == 1 {
                s.push_str(a);
            } else {
                s.push_str(&format!("{}*{}", mag, a));
            }
        }
        if s.is_empty() {
            return self.constant.to_string();
        }
        if self.constant > 0 {
            s.push_str(&format!(" + {}", self.constant));
        } else if self.constant < 0 {
            s.push_str(&format!(" - {}", -self.constant));
        }
        s
    }
}

/// A piecewise affine expression: each piece holds under its guards.
#[derive(Clone, Debug)]
pub struct Pw(pub Vec<(Vec<String>, Aff)>);

impl Pw {
    fn single(a: Aff) -> Pw {
        Pw(vec![(vec![], a)])
    }
    pub fn as_const(&self) -> Option<i64> {
        match self.0.as_slice() {
            [(g, a)] if g.is_empty() => a.as_const(),
            _ => None,
        }
    }
    fn map(&self, f: impl Fn(&Aff) -> Aff) -> Pw {
        Pw(self.0.iter().map(|(g, a)| (g.clone(), f(a))).collect())
    }
    fn zip(&self, o: &Pw, f: impl Fn(&Aff, &Aff) -> Option<Aff>) -> Option<Pw> {
        let mut out = Vec::new();
        for (g1, a1) in &self.0 {
            for (g2, a2) in &o.0 {
                let mut g = g1.clone();
                g.extend(g2.iter().cloned());
                out.push((g, f(a1, a2)?));
            }
        }
        Some(Pw(out))
    }
}

/// Why an expression is not affine, and where.
#[derive(Clone, Debug)]
pub struct NotAffine {
    pub loc: Loc,
    pub reason: String,
}

fn not_affine(e: &Expr, reason: impl Into<String>) -> NotAffine {
    NotAffine {
        loc: e.loc.clone(),
        reason: reason.into(),
    }
}

/// Converts C expressions with a fixed classification of names.
pub struct AffineConverter<'a> {
    pub classify: &'a dyn Fn(&str) -> NameKind,
    /// The C type of an iterator or parameter (`int` where not given).
    pub types: Option<&'a dyn Fn(&str) -> IntTy>,
    /// Parameters seen so far.
    pub params: BTreeSet<String>,
}

/// Words isl's parser takes for its own, in any case (`isl_stream.c`
/// compares them with `strcasecmp`: `INFINITY`, `Max` and `AND` are
/// keywords too), and the keys of its textual formats.
pub const ISL_KEYWORDS: &[&str] = &[
    "and", "or", "not", "mod", "exists", "floor", "ceil", "floord", "ceild", "min", "max", "infty",
    "infinity", "NaN", "true", "false", "domain", "range", "implies", "xor", "rat", "cst",
];

/// Whether isl reads the C identifier `name` as one of its keywords.
pub fn is_isl_keyword(name: &str) -> bool {
    ISL_KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(name))
}

/// The isl spelling of a C identifier (isl keywords get a trailing `_`).
pub fn isl_name(name: &str) -> String {
    if is_isl_keyword(name) {
        format!("{}_", name)
    } else {
        name.to_string()
    }
}

impl<'a> AffineConverter<'a> {
    pub fn new(classify: &'a dyn Fn(&str) -> NameKind) -> Self {
        AffineConverter {
            classify,
            types: None,
            params: BTreeSet::new(),
        }
    }

    /// Takes the C types of names into account: unsigned arithmetic and
    /// conversions wrap around as C's do.
    pub fn with_types(mut self, types: &'a dyn Fn(&str) -> IntTy) -> Self {
        self.types = Some(types);
        self
    }

    fn type_of(&self, name: &str) -> IntTy {
        self.types.map(|t| t(name)).unwrap_or(IntTy::INT)
    }

    pub fn pw(&mut self, e: &Expr) -> Result<Pw, NotAffine> {
        Ok(self.value(e)?.0)
    }

    /// The value of `e` and its C type. Signed arithmetic is exact (an
    /// overflow is undefined behaviour); unsigned arithmetic, conversions
    /// to unsigned types and to narrower types are taken modulo 2^bits.
    pub fn value(&mut self, e: &Expr) -> Result<(Pw, IntTy), NotAffine> {
        match &e.kind {
            ExprKind::Int(v, text) => Ok((
                Pw::single(Aff::constant(*v)),
                IntTy::of_literal(text, *v),
            )),
            ExprKind::Ident(n) => match (self.classify)(n) {
                NameKind::Iterator => Ok((Pw::single(Aff::atom(isl_name(n))), self.type_of(n))),
                NameKind::Parameter => {
                    self.params.insert(isl_name(n));
                    Ok((Pw::single(Aff::atom(isl_name(n))), self.type_of(n)))
                }
                NameKind::Other => Err(not_affine(
                    e,
                    format!("`{}` is not a loop iterator or an integer parameter that the region leaves unchanged", n),
                )),
            },
            ExprKind::Unary(UnOp::Neg, a) => {
                let (pa, ta) = self.value(a)?;
                let t = ta.promoted();
                wrap(e, &pa.map(|x| x.scale(-1)), t).map(|p| (p, t))
            }
            ExprKind::Unary(UnOp::Plus, a) => {
                let (pa, ta) = self.value(a)?;
                Ok((pa, ta.promoted()))
            }
            ExprKind::Cast(ty, a) if super::syntax::is_integer_type(ty) => {
                let (pa, ta) = self.value(a)?;
                let t = IntTy::of(ty).unwrap_or(IntTy::INT);
                convert(e, &pa, ta, t).map(|p| (p, t))
            }
            ExprKind::Binary(op, a, b) => {
                let (pa, ta) = self.value(a)?;
                let (pb, tb) = self.value(b)?;
                let t = IntTy::common(ta, tb);
                let (pa, pb) = (convert(a, &pa, ta, t)?, convert(b, &pb, tb, t)?);
                let p = match op {
                    BinOp::Add => pa.zip(&pb, |x, y| Some(x.add(y))).unwrap(),
                    BinOp::Sub => pa.zip(&pb, |x, y| Some(x.add(&y.scale(-1)))).unwrap(),
                    BinOp::Mul => pa
                        .zip(&pb, |x, y| match (x.as_const(), y.as_const()) {
                            (Some(c), _) => Some(y.scale(c)),
                            (_, Some(c)) => Some(x.scale(c)),
                            _ => None,
                        })
                        .ok_or_else(|| not_affine(e, "a product of two non-constant values is not affine"))?,
                    BinOp::Div | BinOp::Rem => {
                        let d = pb.as_const().filter(|d| *d != 0).ok_or_else(|| {
                            not_affine(e, "division and remainder are affine only by a non-zero integer constant")
                        })?;
                        // Both operands are in range now: an unsigned
                        // division is one of non-negative values.
                        return Ok((if *op == BinOp::Div { c_div(&pa, d) } else { c_rem(&pa, d) }, t));
                    }
                    _ => return Err(not_affine(e, format!("operator `{}` does not give an affine value", op.c_text()))),
                };
                wrap(e, &p, t).map(|p| (p, t))
            }
            ExprKind::Cond(c, tv, fv) => {
                let g = self.cond(c)?;
                let (pt, tt) = self.value(tv)?;
                let (pf, tf) = self.value(fv)?;
                let t = IntTy::common(tt, tf);
                let (pt, pf) = (convert(tv, &pt, tt, t)?, convert(fv, &pf, tf, t)?);
                let mut out = Vec::new();
                for (gs, a) in pt.0 {
                    let mut gs2 = vec![g.clone()];
                    gs2.extend(gs);
                    out.push((gs2, a));
                }
                for (gs, a) in pf.0 {
                    let mut gs2 = vec![format!("not ({})", g)];
                    gs2.extend(gs);
                    out.push((gs2, a));
                }
                Ok((Pw(out), t))
            }
            ExprKind::Call(f, args) if (f == "min" || f == "max" || f == "__pencil_min" || f == "__pencil_max") && args.len() == 2 => {
                let (pa, ta) = self.value(&args[0])?;
                let (pb, tb) = self.value(&args[1])?;
                let t = IntTy::common(ta, tb);
                let (pa, pb) = (convert(&args[0], &pa, ta, t)?, convert(&args[1], &pb, tb, t)?);
                let is_min = f.ends_with("min");
                let mut out = Vec::new();
                for (g1, a1) in &pa.0 {
                    for (g2, a2) in &pb.0 {
                        let mut g = g1.clone();
                        g.extend(g2.iter().cloned());
                        let (x, y) = (a1.to_isl(), a2.to_isl());
                        let mut ga = g.clone();
                        ga.push(if is_min { format!("{} <= {}", x, y) } else { format!("{} >= {}", x, y) });
                        out.push((ga, a1.clone()));
                        let mut gb = g;
                        gb.push(if is_min { format!("{} > {}", x, y) } else { format!("{} < {}", x, y) });
                        out.push((gb, a2.clone()));
                    }
                }
                Ok((Pw(out), t))
            }
            ExprKind::Call(f, args) if (f == "pencilc_floord" || f == "pencilc_ceild") && args.len() == 2 => {
                let (pa, t) = self.value(&args[0])?;
                let (pb, _) = self.value(&args[1])?;
                let d = pb.as_const().filter(|d| *d > 0).ok_or_else(|| {
                    not_affine(e, "`floord` and `ceild` are affine only by a positive integer constant")
                })?;
                Ok((floor_div(&pa, d, f == "pencilc_ceild"), t))
            }
            ExprKind::Call(f, args) if f == "pencilc_intmod" && args.len() == 2 => {
                let (pa, t) = self.value(&args[0])?;
                let (pb, _) = self.value(&args[1])?;
                let d = pb.as_const().filter(|d| *d > 0).ok_or_else(|| {
                    not_affine(e, "`intMod` is affine only by a positive integer constant")
                })?;
                Ok((floor_mod(&pa, d), t))
            }
            ExprKind::Call(f, _) => Err(not_affine(e, format!("the call to `{}` is not an affine expression", f))),
            ExprKind::Float(_) => Err(not_affine(e, "a floating-point value is not affine")),
            ExprKind::Index(..) => Err(not_affine(e, "an array element is data, not an affine expression")),
            _ => Err(not_affine(e, "this expression is not affine")),
        }
    }

    /// Whether `e` reads a signed integer (a variable, or a cast to a
    /// signed type): converted to a 64-bit unsigned type, its value may
    /// be below zero, which C makes 2^64 larger. Unsigned variables are
    /// at or above zero (a parameter's context says so; an unsigned
    /// iterator starts there), and negative literals are refused in such
    /// arithmetic (`modulo`).
    fn signed_leaf(&mut self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(..) => false,
            ExprKind::Ident(_) => self.value(e).map_or(true, |(_, t)| t.signed),
            ExprKind::Cast(ty, a) => {
                IntTy::of(ty).map_or(true, |t| t.signed) || self.signed_leaf(a)
            }
            _ => e.children().into_iter().any(|c| self.signed_leaf(c)),
        }
    }

    /// A C condition as an isl constraint text.
    pub fn cond(&mut self, e: &Expr) -> Result<String, NotAffine> {
        match &e.kind {
            ExprKind::Binary(BinOp::And, a, b) => {
                Ok(format!("({}) and ({})", self.cond(a)?, self.cond(b)?))
            }
            ExprKind::Binary(BinOp::Or, a, b) => {
                Ok(format!("({}) or ({})", self.cond(a)?, self.cond(b)?))
            }
            ExprKind::Unary(UnOp::Not, a) => Ok(format!("not ({})", self.cond(a)?)),
            ExprKind::Binary(
                op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne),
                a,
                b,
            ) => {
                let (pa, ta) = self.value(a)?;
                let (pb, tb) = self.value(b)?;
                let t = IntTy::common(ta, tb);
                if t.bits > 32 && !t.signed {
                    let (na, nb) = (self.signed_leaf(a), self.signed_leaf(b));
                    if na || nb {
                        return Ok(compare_u64((&pa, na), *op, (&pb, nb)));
                    }
                }
                let (pa, pb) = (convert(a, &pa, ta, t)?, convert(b, &pb, tb, t)?);
                Ok(compare(&pa, *op, &pb))
            }
            ExprKind::Int(v, _) => Ok(if *v != 0 {
                "0 = 0".into()
            } else {
                "1 = 0".into()
            }),
            _ => {
                // An integer used as a truth value.
                let p = self.pw(e)?;
                Ok(compare(&p, BinOp::Ne, &Pw::single(Aff::constant(0))))
            }
        }
    }
}

/// `a op b` in a 64-bit unsigned type. The model holds such values by
/// their representatives in `long` (`modulo`): one below zero (an `int`
/// that is negative, `i - 1` of a `size_t` `i == 0`) is C's value plus
/// 2^64, greater than every value at or above zero (`-3 < sizeof(int)`
/// is false: -3 is 2^64 - 3). Two values on the same side of zero
/// compare as their representatives do.
/// `may_a` and `may_b` say which side may be below zero at all (see
/// `signed_leaf`): the other's cases below zero are left out.
fn compare_u64((a, may_a): (&Pw, bool), op: BinOp, (b, may_b): (&Pw, bool)) -> String {
    let zero = Pw::single(Aff::constant(0));
    let low = |x: &Pw, may: bool| {
        if may {
            compare(x, BinOp::Ge, &zero)
        } else {
            "0 = 0".to_string()
        }
    };
    let (a_low, b_low) = (low(a, may_a), low(b, may_b));
    let (a_high, b_high) = (compare(a, BinOp::Lt, &zero), compare(b, BinOp::Lt, &zero));
    let same = compare(a, op, b);
    let mut alts = vec![format!("({}) and ({}) and ({})", a_low, b_low, same)];
    if may_a && may_b {
        alts.push(format!("({}) and ({}) and ({})", a_high, b_high, same));
    }
    // `a` far above `b`, and the other way round.
    let (a_above, b_above) = match op {
        BinOp::Lt | BinOp::Le => (false, true),
        BinOp::Gt | BinOp::Ge => (true, false),
        BinOp::Eq => (false, false),
        _ => (true, true),
    };
    if a_above && may_a {
        alts.push(format!("({}) and ({})", a_high, b_low));
    }
    if b_above && may_b {
        alts.push(format!("({}) and ({})", a_low, b_high));
    }
    alts.iter()
        .map(|x| format!("({})", x))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// `a op b` over all pairs of pieces.
pub fn compare(a: &Pw, op: BinOp, b: &Pw) -> String {
    let mut alts = Vec::new();
    for (g1, a1) in &a.0 {
        for (g2, a2) in &b.0 {
            let (x, y) = (a1.to_isl(), a2.to_isl());
            let rel = match op {
                BinOp::Lt => format!("{} < {}", x, y),
                BinOp::Le => format!("{} <= {}", x, y),
                BinOp::Gt => format!("{} > {}", x, y),
                BinOp::Ge => format!("{} >= {}", x, y),
                BinOp::Eq => format!("{} = {}", x, y),
                _ => format!("({} < {} or {} > {})", x, y, x, y),
            };
            let mut parts: Vec<String> = g1
                .iter()
                .chain(g2.iter())
                .map(|g| format!("({})", g))
                .collect();
            parts.push(rel);
            alts.push(parts.join(" and "));
        }
    }
    if alts.len() == 1 {
        alts.pop().unwrap()
    } else {
        alts.iter()
            .map(|a| format!("({})", a))
            .collect::<Vec<_>>()
            .join(" or ")
    }
}

/// `p` converted to `t` as C converts: unchanged where it is in range,
/// otherwise taken modulo 2^bits into it (unsigned types by the standard,
/// narrower signed ones as gcc and clang define it); `_Bool` gives 0 or 1.
fn convert(e: &Expr, p: &Pw, from: IntTy, t: IntTy) -> Result<Pw, NotAffine> {
    let (flo, fhi) = from.range();
    let (lo, hi) = t.range();
    if !t.is_bool() && lo <= flo && fhi <= hi {
        // Every value of `from` is one of `t`.
        return Ok(p.clone());
    }
    if t.is_bool() {
        let mut out = Vec::new();
        for (g, x) in &p.0 {
            if let Some(c) = x.as_const() {
                out.push((g.clone(), Aff::constant(i64::from(c != 0))));
                continue;
            }
            let xs = x.to_isl();
            let mut gz = g.clone();
            gz.push(format!("{} = 0", xs));
            out.push((gz, Aff::constant(0)));
            let mut gn = g.clone();
            gn.push(format!("{} != 0", xs));
            out.push((gn, Aff::constant(1)));
        }
        return Ok(Pw(out));
    }
    modulo(e, p, t)
}

/// `p` modulo 2^bits into the range of `t`, for the types whose
/// arithmetic wraps; signed types of at least `int`'s rank are left
/// alone (their overflow is undefined behaviour, excluded elsewhere).
fn wrap(e: &Expr, p: &Pw, t: IntTy) -> Result<Pw, NotAffine> {
    if t.signed && t.bits >= 32 {
        return Ok(p.clone());
    }
    modulo(e, p, t)
}

/// `p` taken modulo 2^bits into the range of `t`.
fn modulo(e: &Expr, p: &Pw, t: IntTy) -> Result<Pw, NotAffine> {
    let (lo, hi) = t.range();
    let m = 1i128 << t.bits;
    let mut out = Vec::new();
    for (g, x) in &p.0 {
        if let Some(c) = x.as_const() {
            let v = (c as i128 - lo).rem_euclid(m) + lo;
            let v = i64::try_from(v).map_err(|_| {
                not_affine(e, format!("the value {} of this unsigned expression does not fit pencilc's 64-bit signed constants", v))
            })?;
            out.push((g.clone(), Aff::constant(v)));
            continue;
        }
        if t.bits > 32 && !t.signed {
            // Modulo 2^64 the generated code (in `long`) cannot follow:
            // a sum of non-negative terms stays in range (its terms are
            // sizes, far below 2^63); anything that may go below zero is
            // left to C, as a non-affine value.
            if x.constant >= 0 && x.terms.iter().all(|(c, _)| *c >= 0) {
                out.push((g.clone(), x.clone()));
                continue;
            }
            return Err(not_affine(
                e,
                "64-bit unsigned arithmetic that may wrap around below zero",
            ));
        }
        let xs = x.to_isl();
        let mut gin = g.clone();
        gin.push(format!("{} <= {} <= {}", lo, xs, hi));
        out.push((gin, x.clone()));
        let mut gout = g.clone();
        gout.push(format!("{} < {} or {} > {}", xs, lo, xs, hi));
        let atom = if lo == 0 {
            format!("(({}) mod {})", xs, m)
        } else {
            format!("(({} + {}) mod {})", xs, -lo, m)
        };
        let lo = i64::try_from(lo).expect("a signed type's minimum fits i64");
        out.push((gout, Aff::atom(atom).add(&Aff::constant(lo))));
    }
    Ok(Pw(out))
}

/// C's truncating division by a constant.
fn c_div(a: &Pw, d: i64) -> Pw {
    let (dm, sign) = if d < 0 { (-d, -1) } else { (d, 1) };
    let mut out = Vec::new();
    for (g, x) in &a.0 {
        if let Some(c) = x.as_const() {
            out.push((g.clone(), Aff::constant(c / d)));
            continue;
        }
        if dm == 1 {
            out.push((g.clone(), x.scale(sign)));
            continue;
        }
        let xs = x.to_isl();
        let mut gp = g.clone();
        gp.push(format!("{} >= 0", xs));
        out.push((gp, Aff::atom(format!("floor(({})/{})", xs, dm)).scale(sign)));
        let mut gn = g.clone();
        gn.push(format!("{} < 0", xs));
        out.push((
            gn,
            Aff::atom(format!("floor((-({}))/{})", xs, dm)).scale(-sign),
        ));
    }
    Pw(out)
}

/// pet's `floord(a, d)` (`ceil`: `ceild`) for a positive constant `d`.
fn floor_div(a: &Pw, d: i64, ceil: bool) -> Pw {
    let sign = if ceil { -1 } else { 1 };
    let mut out = Vec::new();
    for (g, x) in &a.0 {
        let x = x.scale(sign);
        let v = match x.as_const() {
            Some(c) => Aff::constant(c.div_euclid(d)),
            None if d == 1 => x,
            None => Aff::atom(format!("floor(({})/{})", x.to_isl(), d)),
        };
        out.push((g.clone(), v.scale(sign)));
    }
    Pw(out)
}

/// The remainder of `floor_div` (isl's `mod`): from 0 to `d - 1`.
fn floor_mod(a: &Pw, d: i64) -> Pw {
    a.map(|x| match x.as_const() {
        Some(c) => Aff::constant(c.rem_euclid(d)),
        None => Aff::atom(format!("(({}) mod {})", x.to_isl(), d)),
    })
}

/// C's remainder by a constant: the sign follows the dividend.
fn c_rem(a: &Pw, d: i64) -> Pw {
    let dm = d.abs();
    let mut out = Vec::new();
    for (g, x) in &a.0 {
        if let Some(c) = x.as_const() {
            out.push((g.clone(), Aff::constant(c % d)));
            continue;
        }
        let xs = x.to_isl();
        let mut gp = g.clone();
        gp.push(format!("{} >= 0", xs));
        out.push((gp, Aff::atom(format!("(({}) mod {})", xs, dm))));
        let mut gn = g.clone();
        gn.push(format!("{} < 0", xs));
        out.push((gn, Aff::atom(format!("((-({})) mod {})", xs, dm)).scale(-1)));
    }
    Pw(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::syntax::build::*;

    fn classify(n: &str) -> NameKind {
        match n {
            "i" | "j" => NameKind::Iterator,
            "n" => NameKind::Parameter,
            _ => NameKind::Other,
        }
    }

    #[test]
    fn linear_expressions_fold() {
        let mut c = AffineConverter::new(&classify);
        let x = bin(
            BinOp::Add,
            bin(BinOp::Mul, int(2), id("i")),
            bin(BinOp::Sub, id("n"), int(1)),
        );
        let p = c.pw(&x).unwrap();
        assert_eq!(p.0.len(), 1);
        assert_eq!(p.0[0].1.to_isl(), "2*i + n - 1");
        assert!(c.params.contains("n"));
    }

    #[test]
    fn products_of_variables_are_rejected() {
        let mut c = AffineConverter::new(&classify);
        assert!(c.pw(&bin(BinOp::Mul, id("i"), id("j"))).is_err());
        assert!(c.pw(&id("A")).is_err());
    }

    #[test]
    fn c_division_is_guarded_by_sign() {
        let mut c = AffineConverter::new(&classify);
        let p = c.pw(&bin(BinOp::Div, id("i"), int(2))).unwrap();
        assert_eq!(p.0.len(), 2);
        assert_eq!(
            c.pw(&bin(BinOp::Div, int(-7), int(2))).unwrap().as_const(),
            Some(-3)
        );
        assert_eq!(
            c.pw(&bin(BinOp::Rem, int(-7), int(2))).unwrap().as_const(),
            Some(-1)
        );
    }

    #[test]
    fn keywords_are_renamed() {
        assert_eq!(isl_name("mod"), "mod_");
        assert_eq!(isl_name("n"), "n");
        // isl compares its keywords without case.
        assert_eq!(isl_name("INFINITY"), "INFINITY_");
        assert_eq!(isl_name("Max"), "Max_");
        assert_eq!(isl_name("floord"), "floord_");
        assert_eq!(isl_name("maximum"), "maximum");
    }
}
