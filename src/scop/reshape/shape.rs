//! The dimensions of a flat array, recovered from its linearised
//! subscripts (Grosser, Ramanujam, Pouchet, Sadayappan, Pop: "Optimistic
//! Delinearization of Parametrically Sized Arrays", ICS 2015).
//!
//! Each subscript is a polynomial in the iterators and parameters. The
//! coefficient of an iterator (with the parameters multiplied into it:
//! `m` in `i * m`, `k` and `n * k` in `(i * n + j) * k + l`, `1200` in
//! `i * 1200 + j`) is a candidate stride. Strides that form a chain of
//! divisors, largest first, are the row lengths of the array's
//! dimensions; a constant one only where some subscript has an iterator
//! below it (`2 * i` alone does not make rows of 2). Every subscript is then
//! divided by the strides in turn: `(i * n + j) * k + l` is `[i][j][l]`
//! of extents `[*][n][k]`. The division is exact algebra; that it
//! addresses the same element holds only where each inner subscript is
//! inside its extent (`0 <= l < k`), which `validity` proves or has
//! checked at run time.

use super::poly::{divide, Poly, Stride};

/// The row lengths of a delinearised array, outermost first: element
/// strides of dimensions 0, 1, ...; the last dimension has stride 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub strides: Vec<Stride>,
}

/// Why a subscript does not fit a shape: the term, and what would make
/// it fit.
#[derive(Clone, Debug)]
pub struct Misfit {
    /// The offending term, as C text.
    pub term: String,
    /// What is missing, in words.
    pub fact: String,
    /// An assumption that would supply it, where one would.
    pub assume: Option<String>,
}

impl Shape {
    /// The extents of dimensions 1 and up (dimension 0's is what the
    /// region accesses).
    pub fn sizes(&self) -> Vec<Stride> {
        let mut out = Vec::new();
        for (k, s) in self.strides.iter().enumerate() {
            let below = self.strides.get(k + 1).cloned().unwrap_or_else(Stride::one);
            out.push(below.quotient(s));
        }
        out
    }

    /// Shape of a declared pointer-to-array: strides from its extents.
    pub fn from_sizes(sizes: &[Stride]) -> Option<Shape> {
        let mut strides = Vec::new();
        let mut acc = Stride::one();
        for s in sizes.iter().rev() {
            acc = Stride {
                coef: acc.coef.checked_mul(s.coef)?,
                params: {
                    let mut p = acc.params.clone();
                    p.extend(s.params.iter().cloned());
                    p.sort();
                    p
                },
            };
            strides.push(acc.clone());
        }
        strides.reverse();
        Some(Shape { strides })
    }

    /// The subscripts, outermost first, of the element `p` addresses, each
    /// affine (no product of two names).
    pub fn decompose(&self, p: &Poly, is_iter: &dyn Fn(&str) -> bool) -> Result<Vec<Poly>, Misfit> {
        let mut out = Vec::new();
        let mut rest = p.clone();
        for s in &self.strides {
            let (q, r) = divide(&rest, s).ok_or_else(|| Misfit {
                term: p.to_string(),
                fact: "its coefficients overflow 64 bits".into(),
                assume: None,
            })?;
            out.push(q);
            rest = r;
        }
        out.push(rest);
        // A product left in some subscript is a term of a row length that
        // is not one of the shape's.
        for comp in &out {
            let Some((m, c)) = comp.terms.iter().find(|(m, _)| m.len() > 1) else {
                continue;
            };
            let params: Vec<String> = m.iter().filter(|n| !is_iter(n)).cloned().collect();
            let rows: Vec<String> = self.strides.iter().map(|s| format!("`{}`", s)).collect();
            let term = Poly::monomial(*c, m).to_string();
            // `i * n` beside rows of `m`: the user may know that n == m.
            let same = self
                .strides
                .iter()
                .find(|s| s.params.len() == 1 && params.len() == 1 && s.params != params);
            return Err(match same {
                Some(s) => Misfit {
                    term,
                    fact: format!(
                        "that `{}` equals `{}`, the row length of the array's other subscripts",
                        params[0], s.params[0]
                    ),
                    assume: Some(format!("__pencil_assume({} == {});", params[0], s.params[0])),
                },
                None => Misfit {
                    term,
                    fact: format!(
                        "a row length that divides it: the array's other subscripts have rows of {} elements",
                        rows.join(", ")
                    ),
                    assume: None,
                },
            });
        }
        Ok(out)
    }
}

/// The shape that delinearises every subscript of one array, or why there
/// is none; `Ok(None)` where the subscripts are plain (no rows).
pub fn choose(subs: &[Poly], is_iter: &dyn Fn(&str) -> bool) -> Result<Option<Shape>, Misfit> {
    let mut candidates: Vec<Stride> = Vec::new();
    for p in subs {
        for (m, c) in &p.terms {
            let iters = m.iter().filter(|n| is_iter(n)).count();
            if iters > 1 {
                return Err(Misfit {
                    term: Poly::monomial(*c, m).to_string(),
                    fact: "one loop iterator at most (a product of loop iterators is no dimension's subscript)".into(),
                    assume: None,
                });
            }
            if iters == 1 {
                let params: Vec<String> = m.iter().filter(|n| !is_iter(n)).cloned().collect();
                let s = Stride {
                    coef: c.checked_abs().unwrap_or(i64::MAX),
                    params,
                };
                if !s.is_one() && !candidates.contains(&s) {
                    candidates.push(s);
                }
            }
        }
    }
    // Largest first: more parameters, then larger coefficients.
    candidates.sort_by(|a, b| {
        b.params
            .len()
            .cmp(&a.params.len())
            .then(b.coef.cmp(&a.coef))
            .then(a.params.cmp(&b.params))
    });
    let mut strides: Vec<Stride> = Vec::new();
    for s in candidates {
        if let Some(last) = strides.last() {
            if !s.divides_stride(last) || s == *last {
                continue;
            }
        }
        // A parameter in a stride is a row length (`i * n + 1` is `[i][1]`
        // of rows of `n`); a constant is one only where some subscript
        // has an iterator both in its rows and below them (`2 * i + j`;
        // `2 * k` beside another subscript `j + 1` is a stride, not rows).
        let varies = |p: &Poly| p.names().iter().any(|n| is_iter(n));
        let rows = !s.params.is_empty()
            || subs
                .iter()
                .any(|p| divide(p, &s).is_some_and(|(q, r)| varies(&q) && varies(&r)));
        if rows {
            strides.push(s);
        }
    }
    if strides.is_empty() {
        return Ok(None);
    }
    let shape = Shape { strides };
    for p in subs {
        shape.decompose(p, is_iter)?;
    }
    Ok(Some(shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iter(n: &str) -> bool {
        matches!(n, "i" | "j" | "l" | "c")
    }
    fn v(n: &str) -> Poly {
        Poly::var(n)
    }
    fn k(c: i64) -> Poly {
        Poly::constant(c)
    }
    fn sum(ps: &[Poly]) -> Poly {
        ps.iter().fold(Poly::default(), |a, b| a.add(b).unwrap())
    }
    fn prod(ps: &[Poly]) -> Poly {
        ps.iter().fold(k(1), |a, b| a.mul(b).unwrap())
    }
    fn text<T: std::fmt::Display>(ps: &[T]) -> Vec<String> {
        ps.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn parametric_rows() {
        // (i * n + j) * k + l  ->  [i][j][l] of [*][n][k]
        let p = sum(&[
            prod(&[sum(&[prod(&[v("i"), v("n")]), v("j")]), v("k")]),
            v("l"),
        ]);
        let s = choose(&[p.clone()], &iter).unwrap().unwrap();
        assert_eq!(text(&s.sizes()), ["n", "k"]);
        assert_eq!(text(&s.decompose(&p, &iter).unwrap()), ["i", "j", "l"]);
    }

    #[test]
    fn constant_rows_and_offsets() {
        // i * 1200 + j - 1 and (i + 1) * 1200 + j
        let a = sum(&[prod(&[k(1200), v("i")]), v("j"), k(-1)]);
        let b = sum(&[prod(&[k(1200), sum(&[v("i"), k(1)])]), v("j")]);
        let s = choose(&[a.clone(), b.clone()], &iter).unwrap().unwrap();
        assert_eq!(text(&s.sizes()), ["1200"]);
        assert_eq!(text(&s.decompose(&a, &iter).unwrap()), ["i", "j - 1"]);
        assert_eq!(text(&s.decompose(&b, &iter).unwrap()), ["i + 1", "j"]);
    }

    #[test]
    fn interleaved_channels_and_strided_columns() {
        // (i * m + j) * 3 + c  ->  [*][m][3]
        let p = sum(&[
            prod(&[sum(&[prod(&[v("i"), v("m")]), v("j")]), k(3)]),
            v("c"),
        ]);
        let s = choose(&[p.clone()], &iter).unwrap().unwrap();
        assert_eq!(text(&s.sizes()), ["m", "3"]);
        assert_eq!(text(&s.decompose(&p, &iter).unwrap()), ["i", "j", "c"]);
        // 2 * i * m + 2 * j + 1: rows of 2m, no dimension of 2.
        let p = sum(&[prod(&[k(2), v("i"), v("m")]), prod(&[k(2), v("j")]), k(1)]);
        let s = choose(&[p.clone()], &iter).unwrap().unwrap();
        assert_eq!(text(&s.sizes()), ["2 * m"]);
        assert_eq!(text(&s.decompose(&p, &iter).unwrap()), ["i", "2 * j + 1"]);
        // 2 * i alone is a stride, not rows, also beside j + 1.
        assert_eq!(choose(&[prod(&[k(2), v("i")])], &iter).unwrap(), None);
        let beside = [prod(&[k(2), v("i")]), sum(&[v("j"), k(1)])];
        assert_eq!(choose(&beside, &iter).unwrap(), None);
    }

    #[test]
    fn inconsistent_rows_do_not_fit() {
        let a = sum(&[prod(&[v("i"), v("m")]), v("j")]);
        let b = sum(&[prod(&[v("i"), v("n")]), v("j")]);
        let e = choose(&[a, b], &iter).unwrap_err();
        assert_eq!(e.term, "i * n");
        assert!(choose(&[prod(&[v("i"), v("j")])], &iter).is_err());
    }
}
