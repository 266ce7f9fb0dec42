//! C integer expressions to isl's textual notation, exactly: C's truncating
//! `/` and `%` become pieces guarded by the sign of the dividend, `?:`, `min`
//! and `max` become guarded pieces, and anything that is not affine in the
//! loop iterators and parameters is rejected with the offending sub-expression.

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
    /// Parameters seen so far.
    pub params: BTreeSet<String>,
}

pub const ISL_KEYWORDS: &[&str] = &[
    "and", "or", "not", "mod", "exists", "floor", "ceil", "min", "max", "infty", "NaN", "true",
    "false", "domain", "range", "implies", "xor", "rat", "cst",
];

/// The isl spelling of a C identifier (isl keywords get a trailing `_`).
pub fn isl_name(name: &str) -> String {
    if ISL_KEYWORDS.contains(&name) {
        format!("{}_", name)
    } else {
        name.to_string()
    }
}

impl<'a> AffineConverter<'a> {
    pub fn new(classify: &'a dyn Fn(&str) -> NameKind) -> Self {
        AffineConverter {
            classify,
            params: BTreeSet::new(),
        }
    }

    pub fn pw(&mut self, e: &Expr) -> Result<Pw, NotAffine> {
        match &e.kind {
            ExprKind::Int(v, _) => Ok(Pw::single(Aff::constant(*v))),
            ExprKind::Ident(n) => match (self.classify)(n) {
                NameKind::Iterator => Ok(Pw::single(Aff::atom(isl_name(n)))),
                NameKind::Parameter => {
                    self.params.insert(isl_name(n));
                    Ok(Pw::single(Aff::atom(isl_name(n))))
                }
                NameKind::Other => Err(not_affine(
                    e,
                    format!("`{}` is not a loop iterator or an integer parameter that the region leaves unchanged", n),
                )),
            },
            ExprKind::Unary(UnOp::Neg, a) => Ok(self.pw(a)?.map(|x| x.scale(-1))),
            ExprKind::Unary(UnOp::Plus, a) => self.pw(a),
            // A cast to `int` or wider keeps the value where the region's
            // integer arithmetic does not overflow (what affine analysis
            // assumes throughout); a narrower one wraps around, which no
            // affine expression says.
            ExprKind::Cast(t, a) if super::syntax::integer_kind(t).is_some_and(|(n, _)| n >= 32) => {
                self.pw(a)
            }
            ExprKind::Cast(..) => Err(not_affine(e, "a cast to a type narrower than `int` wraps around")),
            ExprKind::Binary(op, a, b) => {
                let (pa, pb) = (self.pw(a)?, self.pw(b)?);
                match op {
                    BinOp::Add => Ok(pa.zip(&pb, |x, y| Some(x.add(y))).unwrap()),
                    BinOp::Sub => Ok(pa.zip(&pb, |x, y| Some(x.add(&y.scale(-1)))).unwrap()),
                    BinOp::Mul => pa
                        .zip(&pb, |x, y| match (x.as_const(), y.as_const()) {
                            (Some(c), _) => Some(y.scale(c)),
                            (_, Some(c)) => Some(x.scale(c)),
                            _ => None,
                        })
                        .ok_or_else(|| not_affine(e, "a product of two non-constant values is not affine")),
                    BinOp::Div | BinOp::Rem => {
                        let d = pb.as_const().filter(|d| *d != 0).ok_or_else(|| {
                            not_affine(e, "division and remainder are affine only by a non-zero integer constant")
                        })?;
                        Ok(if *op == BinOp::Div { c_div(&pa, d) } else { c_rem(&pa, d) })
                    }
                    _ => Err(not_affine(e, format!("operator `{}` does not give an affine value", op.c_text()))),
                }
            }
            ExprKind::Cond(c, t, f) => {
                let g = self.cond(c)?;
                let (pt, pf) = (self.pw(t)?, self.pw(f)?);
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
                Ok(Pw(out))
            }
            ExprKind::Call(f, args) if (f == "min" || f == "max" || f == "__pencil_min" || f == "__pencil_max") && args.len() == 2 => {
                let (pa, pb) = (self.pw(&args[0])?, self.pw(&args[1])?);
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
                Ok(Pw(out))
            }
            ExprKind::Call(f, _) => Err(not_affine(e, format!("the call to `{}` is not an affine expression", f))),
            ExprKind::Float(_) => Err(not_affine(e, "a floating-point value is not affine")),
            ExprKind::Index(..) => Err(not_affine(e, "an array element is data, not an affine expression")),
            _ => Err(not_affine(e, "this expression is not affine")),
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
                let (pa, pb) = (self.pw(a)?, self.pw(b)?);
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

    fn e(kind: ExprKind) -> Expr {
        Expr {
            kind,
            loc: Loc::unknown(),
        }
    }
    fn id(n: &str) -> Expr {
        e(ExprKind::Ident(n.into()))
    }
    fn int(v: i64) -> Expr {
        e(ExprKind::Int(v, v.to_string()))
    }
    fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }
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
    }
}
