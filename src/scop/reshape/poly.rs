//! Integer polynomials over the region's iterators and parameters: the
//! form of a linearised subscript (`i * m + j`, `(i * n + j) * k + l`)
//! before anything is known about its dimensions. isl cannot take such
//! an expression (a parameter times an iterator is not affine), so the
//! front end recognises the form here, before affine conversion.

use crate::diag::Loc;
use crate::front::affine::NameKind;
use crate::front::syntax::{BinOp, Expr, ExprKind, UnOp};
use std::collections::BTreeMap;
use std::fmt;

/// A product of names (with repetition, sorted) times a coefficient.
pub type Monomial = Vec<String>;

/// A sum of monomials with non-zero integer coefficients.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Poly {
    pub terms: BTreeMap<Monomial, i64>,
}

/// Why a subscript is not a polynomial of iterators and parameters: the
/// offending sub-expression, for the diagnostic.
#[derive(Clone, Debug)]
pub struct NotPoly {
    pub term: String,
    pub reason: String,
}

impl Poly {
    pub fn constant(c: i64) -> Poly {
        let mut p = Poly::default();
        if c != 0 {
            p.terms.insert(Vec::new(), c);
        }
        p
    }

    pub fn var(name: &str) -> Poly {
        let mut p = Poly::default();
        p.terms.insert(vec![name.to_string()], 1);
        p
    }

    /// `c * names`, a monomial as a polynomial.
    pub fn monomial(c: i64, names: &[String]) -> Poly {
        let mut p = Poly::default();
        if c != 0 {
            let mut m = names.to_vec();
            m.sort();
            p.terms.insert(m, c);
        }
        p
    }

    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn constant_term(&self) -> i64 {
        self.terms.get(&Vec::new()).copied().unwrap_or(0)
    }

    pub fn add(&self, o: &Poly) -> Option<Poly> {
        let mut terms = self.terms.clone();
        for (m, c) in &o.terms {
            let e = terms.entry(m.clone()).or_insert(0);
            *e = e.checked_add(*c)?;
            if *e == 0 {
                terms.remove(m);
            }
        }
        Some(Poly { terms })
    }

    pub fn scale(&self, k: i64) -> Option<Poly> {
        let mut terms = BTreeMap::new();
        for (m, c) in &self.terms {
            let v = c.checked_mul(k)?;
            if v != 0 {
                terms.insert(m.clone(), v);
            }
        }
        Some(Poly { terms })
    }

    pub fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut out = Poly::default();
        for (m1, c1) in &self.terms {
            for (m2, c2) in &o.terms {
                let mut m = m1.clone();
                m.extend(m2.iter().cloned());
                m.sort();
                out = out.add(&Poly::monomial(c1.checked_mul(*c2)?, &m))?;
            }
        }
        Some(out)
    }

    /// Every name of the polynomial.
    pub fn names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .terms
            .keys()
            .flat_map(|m| m.iter().map(|s| s.as_str()))
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// The polynomial as a C expression (terms in a fixed order: higher
    /// degree first, then by name), located at `loc`.
    pub fn to_expr(&self, loc: &Loc) -> Expr {
        let mk = |kind| Expr {
            kind,
            loc: loc.clone(),
        };
        let mut terms: Vec<(&Monomial, &i64)> = self.terms.iter().collect();
        terms.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        let mut out: Option<Expr> = None;
        for (m, c) in terms {
            let mag = c.unsigned_abs() as i64;
            let mut term: Option<Expr> = if m.is_empty() || mag != 1 {
                Some(mk(ExprKind::Int(mag, mag.to_string())))
            } else {
                None
            };
            for name in m {
                let v = mk(ExprKind::Ident(name.clone()));
                term = Some(match term {
                    None => v,
                    Some(t) => mk(ExprKind::Binary(BinOp::Mul, Box::new(t), Box::new(v))),
                });
            }
            let term = term.expect("a monomial has a name or a coefficient");
            out = Some(match (out, *c < 0) {
                (None, false) => term,
                (None, true) => mk(ExprKind::Unary(UnOp::Neg, Box::new(term))),
                (Some(o), false) => mk(ExprKind::Binary(BinOp::Add, Box::new(o), Box::new(term))),
                (Some(o), true) => mk(ExprKind::Binary(BinOp::Sub, Box::new(o), Box::new(term))),
            });
        }
        out.unwrap_or_else(|| mk(ExprKind::Int(0, "0".into())))
    }

    /// isl text of an affine polynomial (every monomial of degree at most
    /// one), with names spelt by `name`; `None` otherwise.
    pub fn to_isl(&self, name: &dyn Fn(&str) -> String) -> Option<String> {
        let mut s = String::new();
        for (m, c) in &self.terms {
            if m.len() > 1 {
                return None;
            }
            let term = match m.first() {
                None => c.unsigned_abs().to_string(),
                Some(v) if c.unsigned_abs() == 1 => name(v),
                Some(v) => format!("{}*{}", c.unsigned_abs(), name(v)),
            };
            if s.is_empty() {
                if *c < 0 {
                    s.push('-');
                }
            } else {
                s.push_str(if *c < 0 { " - " } else { " + " });
            }
            s.push_str(&term);
        }
        Some(if s.is_empty() { "0".to_string() } else { s })
    }
}

impl fmt::Display for Poly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}",
            crate::front::cexpr::plain(&self.to_expr(&Loc::unknown()))
        )
    }
}

/// A subscript as a polynomial of the names `kind` calls iterators and
/// parameters: sums, differences, products and negations of those and of
/// integer literals; integer casts that keep every value (to `int`,
/// `long` and 64-bit types) are transparent.
pub fn expand(e: &Expr, kind: &dyn Fn(&str) -> NameKind) -> Result<Poly, NotPoly> {
    let not = |why: &str| NotPoly {
        term: crate::front::cexpr::plain(e),
        reason: why.to_string(),
    };
    let overflow = || not("its coefficients overflow 64 bits");
    match &e.kind {
        ExprKind::Int(v, _) => Ok(Poly::constant(*v)),
        ExprKind::Ident(n) => match kind(n) {
            NameKind::Iterator | NameKind::Parameter => Ok(Poly::var(n)),
            NameKind::Other => Err(not(&format!(
                "`{}` is not a loop iterator or an integer parameter that the region leaves unchanged",
                n
            ))),
        },
        ExprKind::Unary(UnOp::Neg, a) => expand(a, kind)?.scale(-1).ok_or_else(overflow),
        ExprKind::Unary(UnOp::Plus, a) => expand(a, kind),
        ExprKind::Cast(t, a) => match crate::front::syntax::integer_kind(t) {
            Some((bits, signed)) if bits >= 64 || (signed && bits >= 32) => expand(a, kind),
            _ => Err(not("a cast to a narrower integer type wraps around")),
        },
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
            let (pa, pb) = (expand(a, kind)?, expand(b, kind)?);
            match op {
                BinOp::Add => pa.add(&pb),
                BinOp::Sub => pb.scale(-1).and_then(|n| pa.add(&n)),
                _ => pa.mul(&pb),
            }
            .ok_or_else(overflow)
        }
        ExprKind::Binary(op, ..) => Err(not(&format!(
            "the operator `{}` does not give a polynomial",
            op.c_text()
        ))),
        ExprKind::Index(..) => Err(not("an array element is data")),
        ExprKind::Call(f, _) => Err(not(&format!("the call to `{}` is not a polynomial", f))),
        _ => Err(not("this expression is not a polynomial of iterators and parameters")),
    }
}

/// A divisor: a coefficient times a product of parameters (`m`, `3 * m`,
/// `1024`, `n * k`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Stride {
    pub coef: i64,
    pub params: Monomial,
}

impl Stride {
    pub fn one() -> Stride {
        Stride {
            coef: 1,
            params: Vec::new(),
        }
    }

    pub fn is_one(&self) -> bool {
        self.coef == 1 && self.params.is_empty()
    }

    /// `self` divides `m` (a monomial with coefficient `c`).
    pub fn divides(&self, c: i64, m: &Monomial) -> bool {
        c % self.coef == 0 && contains_all(m, &self.params)
    }

    /// `self` divides `o`.
    pub fn divides_stride(&self, o: &Stride) -> bool {
        self.divides(o.coef, &o.params)
    }

    /// `o / self`, where `self` divides `o`.
    pub fn quotient(&self, o: &Stride) -> Stride {
        Stride {
            coef: o.coef / self.coef,
            params: remove_all(&o.params, &self.params),
        }
    }

    pub fn to_poly(&self) -> Poly {
        Poly::monomial(self.coef, &self.params)
    }

    /// The stride as a C expression.
    pub fn to_expr(&self, loc: &Loc) -> Expr {
        self.to_poly().to_expr(loc)
    }
}

impl fmt::Display for Stride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_poly())
    }
}

/// Whether the multiset `m` contains the multiset `sub`.
fn contains_all(m: &Monomial, sub: &Monomial) -> bool {
    let mut rest = m.clone();
    for s in sub {
        match rest.iter().position(|x| x == s) {
            Some(p) => {
                rest.remove(p);
            }
            None => return false,
        }
    }
    true
}

fn remove_all(m: &Monomial, sub: &Monomial) -> Monomial {
    let mut rest = m.clone();
    for s in sub {
        if let Some(p) = rest.iter().position(|x| x == s) {
            rest.remove(p);
        }
    }
    rest
}

/// `p` divided by `s`: the quotient (the monomials `s` divides, divided)
/// and the remainder (the others). A constant term is split by a
/// constant divisor: towards zero where the remainder varies
/// (`j - 1` stays `j - 1` in its row), in range where it is a constant
/// (`1025` is row 1, element 1 of rows of 1024). A negative constant
/// remainder of a parametric divisor is the previous row's end.
pub fn divide(p: &Poly, s: &Stride) -> Option<(Poly, Poly)> {
    let mut q = Poly::default();
    let mut r = Poly::default();
    for (m, c) in &p.terms {
        if m.is_empty() {
            continue;
        }
        if s.divides(*c, m) {
            q = q.add(&Poly::monomial(c / s.coef, &remove_all(m, &s.params)))?;
        } else {
            r = r.add(&Poly::monomial(*c, m))?;
        }
    }
    let c = p.constant_term();
    if s.params.is_empty() {
        let (qc, rc) = if r.is_zero() {
            (c.div_euclid(s.coef), c.rem_euclid(s.coef))
        } else {
            (c / s.coef, c % s.coef)
        };
        q = q.add(&Poly::constant(qc))?;
        r = r.add(&Poly::constant(rc))?;
    } else {
        r = r.add(&Poly::constant(c))?;
        // A remainder that no value makes positive counts back from the
        // end of the previous row: `m * m - 1` is the last element of row
        // `m - 1`, not element -1 of row `m`, and `i * m + m - 2 - j`
        // element `m - 2 - j` of row `i`. (Iterators and sizes are most
        // often non-negative; `reshape::validity` checks the choice.)
        if !r.is_zero() && r.terms.iter().all(|(_, k)| *k <= 0) {
            q = q.add(&Poly::constant(-1))?;
            r = s.to_poly().add(&r)?;
        }
    }
    Some((q, r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::syntax::build::*;

    fn kind(n: &str) -> NameKind {
        match n {
            "i" | "j" | "l" => NameKind::Iterator,
            "n" | "m" | "k" => NameKind::Parameter,
            _ => NameKind::Other,
        }
    }

    #[test]
    fn products_expand() {
        // (i * n + j) * k + l
        let x = bin(
            BinOp::Add,
            bin(
                BinOp::Mul,
                bin(BinOp::Add, bin(BinOp::Mul, id("i"), id("n")), id("j")),
                id("k"),
            ),
            id("l"),
        );
        let p = expand(&x, &kind).unwrap();
        assert_eq!(p.to_string(), "i * k * n + j * k + l");
        assert!(expand(&bin(BinOp::Mul, id("i"), id("A")), &kind).is_err());
        assert!(expand(&bin(BinOp::Div, id("i"), int(2)), &kind).is_err());
    }

    #[test]
    fn division_keeps_offsets_in_their_row() {
        let s = Stride {
            coef: 1024,
            params: vec![],
        };
        // i * 1024 + j - 1: row i, element j - 1.
        let p = Poly::monomial(1024, &["i".into()])
            .add(&Poly::var("j"))
            .unwrap()
            .add(&Poly::constant(-1))
            .unwrap();
        let (q, r) = divide(&p, &s).unwrap();
        assert_eq!((q.to_string(), r.to_string()), ("i".into(), "j - 1".into()));
        // i * 1024 + 1025: row i + 1, element 1.
        let p = Poly::monomial(1024, &["i".into()])
            .add(&Poly::constant(1025))
            .unwrap();
        let (q, r) = divide(&p, &s).unwrap();
        assert_eq!((q.to_string(), r.to_string()), ("i + 1".into(), "1".into()));
        // (i - 1) * m + j: row i - 1.
        let m = Stride {
            coef: 1,
            params: vec!["m".into()],
        };
        let p = Poly::var("i")
            .add(&Poly::constant(-1))
            .unwrap()
            .mul(&Poly::var("m"))
            .unwrap()
            .add(&Poly::var("j"))
            .unwrap();
        let (q, r) = divide(&p, &m).unwrap();
        assert_eq!((q.to_string(), r.to_string()), ("i - 1".into(), "j".into()));
        // m * m - 1: the last element of row m - 1.
        let p = Poly::monomial(1, &["m".into(), "m".into()])
            .add(&Poly::constant(-1))
            .unwrap();
        let (q, r) = divide(&p, &m).unwrap();
        assert_eq!(
            (q.to_string(), r.to_string()),
            ("m - 1".into(), "m - 1".into())
        );
        // i * m + m - 2 - j: element m - 2 - j of row i.
        let p = Poly::var("i")
            .add(&Poly::constant(1))
            .unwrap()
            .mul(&Poly::var("m"))
            .unwrap()
            .add(&Poly::monomial(-1, &["j".into()]))
            .unwrap()
            .add(&Poly::constant(-2))
            .unwrap();
        let (q, r) = divide(&p, &m).unwrap();
        assert_eq!(
            (q.to_string(), r.to_string()),
            ("i".into(), "-j + m - 2".into())
        );
    }
}
