//! Farkas' lemma through isl: the affine forms that are non-negative on a
//! dependence polyhedron are exactly the points of isl's `coefficients`
//! set of that polyhedron. Its constraints, with the schedule unknowns
//! substituted for the coefficients, are the ILP's validity and bounding
//! constraints.

use super::ilp::{Con, Lin};
use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{BasicMap, DimType, Map};

const STAGE: &str = "sched";

/// The dual form of one dependence relation `S[s] -> T[t]`: constraints on
/// `(c_cst, c_params, c_s, c_t)` such that
/// `c_cst + c_params·p + c_s·s + c_t·t >= 0` on the whole relation.
#[derive(Clone, Debug)]
pub struct Farkas {
    /// The relation's parameters, in the order of `c_params`.
    pub params: Vec<String>,
    pub n_src: usize,
    pub n_dst: usize,
    /// Each row: coefficients over `[cst, params.., src.., dst..]`, a
    /// constant, and whether it is an equality.
    pub rows: Vec<(Vec<i64>, i64, bool)>,
}

impl Farkas {
    pub fn of(isl: &Isl, rel: &Map) -> Result<Farkas> {
        let params = (0..rel.dim(DimType::Param).isl(isl, STAGE)?)
            .map(|k| {
                rel.get_dim_name(DimType::Param, k as u32)
                    .map(|s| s.to_string())
                    .isl(isl, STAGE)
            })
            .collect::<Result<Vec<_>>>()?;
        let n_src = rel.dim(DimType::In).isl(isl, STAGE)? as usize;
        let n_dst = rel.dim(DimType::Out).isl(isl, STAGE)? as usize;
        // Existentially quantified variables make Farkas' lemma expensive;
        // projecting them out over-approximates the relation, which only
        // adds constraints (safe).
        let coeff = without_huge_constraints(
            isl,
            rel.copy().isl(isl, STAGE)?.remove_divs().isl(isl, STAGE)?,
        )?
        .wrap()
        .isl(isl, STAGE)?
        .coefficients()
        .isl(isl, STAGE)?;
        let n = coeff.dim(DimType::Set).isl(isl, STAGE)? as usize;
        debug_assert_eq!(n, 1 + params.len() + n_src + n_dst);
        let list = coeff.get_constraint_list().isl(isl, STAGE)?;
        let mut rows = Vec::new();
        for k in 0..list.size().isl(isl, STAGE)? {
            let c = list.get_at(k).isl(isl, STAGE)?;
            let mut coefs = Vec::with_capacity(n);
            for d in 0..n {
                coefs.push(int(isl, c.get_coefficient_val(DimType::Set, d as i32))?);
            }
            let constant = int(isl, c.get_constant_val())?;
            rows.push((coefs, constant, c.is_equality().isl(isl, STAGE)?));
        }
        Ok(Farkas {
            params,
            n_src,
            n_dst,
            rows,
        })
    }

    /// The constraints on the unknowns once each coefficient is replaced by
    /// a linear form in them.
    pub fn instantiate(&self, cst: &Lin, params: &[Lin], src: &[Lin], dst: &[Lin]) -> Vec<Con> {
        assert_eq!(params.len(), self.params.len());
        assert_eq!(src.len(), self.n_src);
        assert_eq!(dst.len(), self.n_dst);
        let forms: Vec<&Lin> = std::iter::once(cst)
            .chain(params.iter())
            .chain(src.iter())
            .chain(dst.iter())
            .collect();
        self.rows
            .iter()
            .map(|(coefs, constant, eq)| {
                let mut lin = Lin::constant(*constant);
                for (k, &a) in coefs.iter().enumerate() {
                    lin.add_scaled(forms[k], a);
                }
                if *eq {
                    Con::eq0(lin)
                } else {
                    Con::ge0(lin)
                }
            })
            .collect()
    }
}

/// Coefficients and constants beyond this magnitude: a type's range
/// (`n <= 9223372036854775808 - base` where a `long long` counter starts
/// at `base`) or a constant of that size.
const HUGE: f64 = 2147483648.0;

/// `rel` without the constraints that have a coefficient or constant of
/// more than `HUGE`: the ILP solver's floating-point arithmetic failed on
/// them (a `long long` loop from 3e9), and dropping a constraint enlarges
/// the relation, which only adds constraints to the schedule (safe, as
/// for the divisions).
fn without_huge_constraints(isl: &Isl, rel: Map) -> Result<Map> {
    // By the decimal text: isl-rs's `get_d` gave 2^31 for 2^63.
    let huge = |v: std::result::Result<isl_rs::Val, isl_rs::LibISLError>| -> Result<bool> {
        let v = v.isl(isl, STAGE)?;
        let text = v.to_str().isl(isl, STAGE)?;
        Ok(text.parse::<f64>().map_or(true, |d| d.abs() > HUGE))
    };
    let pieces = rel.get_basic_map_list().isl(isl, STAGE)?;
    let mut out = Map::empty(rel.get_space().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let mut dropped = false;
    for k in 0..pieces.size().isl(isl, STAGE)? {
        let piece = pieces.get_at(k).isl(isl, STAGE)?;
        let mut kept = BasicMap::universe(piece.get_space().isl(isl, STAGE)?).isl(isl, STAGE)?;
        let cons = piece.get_constraint_list().isl(isl, STAGE)?;
        for c in 0..cons.size().isl(isl, STAGE)? {
            let con = cons.get_at(c).isl(isl, STAGE)?;
            let mut big = huge(con.get_constant_val())?;
            for ty in [DimType::Param, DimType::In, DimType::Out] {
                for d in 0..piece.dim(ty).isl(isl, STAGE)? {
                    big |= huge(con.get_coefficient_val(ty, d as i32))?;
                }
            }
            if big {
                dropped = true;
            } else {
                kept = kept.add_constraint(con).isl(isl, STAGE)?;
            }
        }
        out = out
            .union(Map::from_basic_map(kept).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
    }
    if dropped {
        Ok(out)
    } else {
        Ok(rel)
    }
}

fn int(isl: &Isl, v: std::result::Result<isl_rs::Val, isl_rs::LibISLError>) -> Result<i64> {
    let v = v.isl(isl, STAGE)?;
    if !v.is_int().isl(isl, STAGE)? {
        return Err(crate::diag::Diagnostic::internal(
            STAGE,
            "non-integer coefficient in a Farkas constraint",
        ));
    }
    v.get_num_si().isl(isl, STAGE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sched::pluto::ilp::{Ilp, Lin};

    /// For `S[i] -> S[i + 1]`, the schedule `c·i` is valid exactly when
    /// `c >= 0`.
    #[test]
    fn validity_of_a_uniform_dependence() {
        let isl = Isl::new(1_000_000);
        let m = isl
            .map("[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1 }")
            .unwrap();
        let f = Farkas::of(&isl, &m).unwrap();
        let mut p = Ilp::default();
        let c = p.add_var(-3, 3);
        let cons = f.instantiate(
            &Lin::constant(0),
            &[Lin::constant(0)],
            &[Lin::var(c).scaled(-1)],
            &[Lin::var(c)],
        );
        p.cons.extend(cons);
        let deadline = crate::clock::Deadline::after(std::time::Duration::from_secs(5));
        let lo = p.minimize(&Lin::var(c), &deadline).unwrap().unwrap();
        assert_eq!(lo, vec![0]);
        assert!(!p.satisfied_by(&[-1]));
        assert!(p.satisfied_by(&[3]));
    }

    /// A `long long` counter from `base` carries its type's range
    /// (`n <= 2^63 - base`) into the relation; the floating-point ILP
    /// failed on it. Without it, the constraints stay small and say the
    /// same about `c`.
    #[test]
    fn type_ranges_leave_the_constraints() {
        let isl = Isl::new(1_000_000);
        let m = isl
            .map("[base, n] -> { S[i] -> S[i + 1] : n <= 9223372036854775808 - base and n <= 99 and base <= i <= base + n - 2 }")
            .unwrap();
        let f = Farkas::of(&isl, &m).unwrap();
        let largest = f
            .rows
            .iter()
            .flat_map(|(c, k, _)| c.iter().chain([k]).map(|v| v.unsigned_abs()))
            .max()
            .unwrap();
        assert!(largest < 1 << 31, "{:?}", f.rows);
        let mut p = Ilp::default();
        let c = p.add_var(-3, 3);
        p.cons.extend(f.instantiate(
            &Lin::constant(0),
            &[Lin::constant(0), Lin::constant(0)],
            &[Lin::var(c).scaled(-1)],
            &[Lin::var(c)],
        ));
        let deadline = crate::clock::Deadline::after(std::time::Duration::from_secs(5));
        assert_eq!(p.minimize(&Lin::var(c), &deadline).unwrap(), Some(vec![0]));
    }
}
