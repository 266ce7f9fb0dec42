//! The integer programs of the scheduler, kept as plain data (variables
//! with bounds, linear constraints with integer coefficients) and solved
//! with good_lp's pure-Rust `microlp` back end. Plain data lets the
//! scheduler add the stages of a lexicographic minimum one at a time.

use crate::clock::{Deadline, WALL_FACTOR};
use good_lp::{
    constraint::Constraint, variable, Expression, ProblemVariables, ResolutionError, Solution,
    SolverModel, Variable, WithTimeLimit,
};

/// A linear form `Σ coef·x_var + constant`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lin {
    pub terms: Vec<(usize, i64)>,
    pub constant: i64,
}

impl Lin {
    pub fn var(v: usize) -> Lin {
        Lin {
            terms: vec![(v, 1)],
            constant: 0,
        }
    }
    pub fn constant(c: i64) -> Lin {
        Lin {
            terms: vec![],
            constant: c,
        }
    }
    pub fn add_scaled(&mut self, other: &Lin, k: i64) {
        if k == 0 {
            return;
        }
        for &(v, c) in &other.terms {
            self.terms.push((v, c * k));
        }
        self.constant += other.constant * k;
    }
    pub fn scaled(&self, k: i64) -> Lin {
        let mut l = Lin::default();
        l.add_scaled(self, k);
        l
    }
    fn expression(&self, vars: &[Variable]) -> Expression {
        let mut e = Expression::from(self.constant as f64);
        for &(v, c) in &self.terms {
            e += (c as f64) * vars[v];
        }
        e
    }
}

#[derive(Clone, Debug)]
pub struct Con {
    pub lin: Lin,
    /// `lin = 0` when true, `lin >= 0` otherwise.
    pub eq: bool,
}

impl Con {
    pub fn ge0(lin: Lin) -> Con {
        Con { lin, eq: false }
    }
    pub fn eq0(lin: Lin) -> Con {
        Con { lin, eq: true }
    }
}

impl Con {
    /// Terms merged and sorted, divided by their common factor; `None` for
    /// a constraint without variables (checked by `satisfied_by`).
    fn canonical(&self) -> Option<Con> {
        let mut m: std::collections::BTreeMap<usize, i64> = Default::default();
        for &(v, k) in &self.lin.terms {
            *m.entry(v).or_insert(0) += k;
        }
        let terms: Vec<(usize, i64)> = m.into_iter().filter(|&(_, k)| k != 0).collect();
        if terms.is_empty() {
            return None;
        }
        let g = terms.iter().fold(0i64, |g, &(_, k)| gcd(g, k.abs()));
        let (terms, constant) = if self.eq {
            if self.lin.constant % g != 0 {
                // No integer solution; keep it so the solver reports infeasible.
                (terms, self.lin.constant)
            } else {
                (
                    terms.iter().map(|&(v, k)| (v, k / g)).collect(),
                    self.lin.constant / g,
                )
            }
        } else {
            // Σ k·x + c >= 0  ⇔  Σ (k/g)·x + floor(c/g) >= 0 over the integers.
            (
                terms.iter().map(|&(v, k)| (v, k / g)).collect(),
                self.lin.constant.div_euclid(g),
            )
        };
        Some(Con {
            lin: Lin { terms, constant },
            eq: self.eq,
        })
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[derive(Clone, Debug)]
pub struct Var {
    pub lo: i64,
    pub hi: i64,
}

/// An integer program over bounded integer variables.
#[derive(Clone, Debug, Default)]
pub struct Ilp {
    pub vars: Vec<Var>,
    pub cons: Vec<Con>,
}

#[derive(Debug)]
pub enum IlpError {
    /// The solver ran past the scheduler's deadline.
    Budget,
    Solver(String),
}

impl Ilp {
    pub fn add_var(&mut self, lo: i64, hi: i64) -> usize {
        self.vars.push(Var { lo, hi });
        self.vars.len() - 1
    }

    /// Minimizes `objective`; `Ok(None)` when infeasible. Values are
    /// rounded to the integers the solver found.
    pub fn minimize(
        &self,
        objective: &Lin,
        deadline: &Deadline,
    ) -> Result<Option<Vec<i64>>, IlpError> {
        // microlp 0.6 (the version good_lp links) can stumble on a singular
        // basis (fixed upstream in microlp 0.7). Equivalent reformulations
        // usually go through: each equality as two inequalities, then the
        // rows in the opposite order.
        let mut last = match self.minimize_once(objective, deadline) {
            Err(IlpError::Solver(e)) => e,
            r => return r,
        };
        let split = Ilp {
            vars: self.vars.clone(),
            cons: self
                .cons
                .iter()
                .flat_map(|c| {
                    if c.eq {
                        vec![Con::ge0(c.lin.clone()), Con::ge0(c.lin.scaled(-1))]
                    } else {
                        vec![c.clone()]
                    }
                })
                .collect(),
        };
        let mut reversed = split.clone();
        reversed.cons.reverse();
        let mut rotated = split.clone();
        let n = rotated.cons.len();
        rotated.cons.rotate_left(n / 2);
        for p in [split, reversed, rotated] {
            match p.minimize_once(objective, deadline) {
                Err(IlpError::Solver(e)) => last = e,
                r => return r,
            }
        }
        Err(IlpError::Solver(last))
    }

    fn minimize_once(
        &self,
        objective: &Lin,
        deadline: &Deadline,
    ) -> Result<Option<Vec<i64>>, IlpError> {
        let left = deadline.left();
        let wall = left.saturating_mul(WALL_FACTOR);
        if left.is_zero() {
            return Err(IlpError::Budget);
        }
        let mut pv = ProblemVariables::new();
        let vars: Vec<Variable> = self
            .vars
            .iter()
            .map(|v| pv.add(variable().integer().min(v.lo as f64).max(v.hi as f64)))
            .collect();
        // Canonical, de-duplicated rows: repeated equalities make the
        // simplex basis singular.
        let mut seen = std::collections::HashSet::new();
        let canon: Vec<Con> = self
            .cons
            .iter()
            .filter_map(|c| c.canonical())
            .filter(|c| seen.insert((c.lin.terms.clone(), c.lin.constant, c.eq)))
            .collect();
        let constraints: Vec<Constraint> = canon
            .iter()
            .map(|c| {
                let e = c.lin.expression(&vars);
                if c.eq {
                    e.eq(0.0)
                } else {
                    e.geq(0.0)
                }
            })
            .collect();
        let model = pv
            .minimise(objective.expression(&vars))
            .using(good_lp::microlp)
            // The solver's limit is wall-clock time: the deadline's own
            // backstop, so that load alone does not stop it; the budget of
            // CPU time is checked when it returns.
            .with_time_limit(wall.as_secs_f64())
            .with_all(constraints);
        let started = std::time::Instant::now();
        match model.solve() {
            _ if deadline.passed() => Err(IlpError::Budget),
            Err(_) if started.elapsed() >= wall => Err(IlpError::Budget),
            Ok(sol) => Ok(Some(
                vars.iter().map(|v| sol.value(*v).round() as i64).collect(),
            )),
            Err(ResolutionError::Infeasible) => Ok(None),
            Err(e) => Err(IlpError::Solver(e.to_string())),
        }
    }

    /// Lexicographic minimum of `objectives`: each stage's optimum is fixed
    /// before the next stage is minimized.
    pub fn lexmin(
        &self,
        objectives: &[Lin],
        deadline: &Deadline,
    ) -> Result<Option<Vec<i64>>, IlpError> {
        let mut p = self.clone();
        let mut last = None;
        for obj in objectives {
            let Some(sol) = p.minimize(obj, deadline)? else {
                return Ok(None);
            };
            let value = obj.terms.iter().map(|&(v, c)| c * sol[v]).sum::<i64>();
            // obj <= value (obj >= value holds anyway); an inequality keeps
            // the simplex basis regular where an equality may not.
            let mut fixed = obj.scaled(-1);
            fixed.constant = value;
            p.cons.push(Con::ge0(fixed));
            last = Some(sol);
        }
        Ok(last)
    }

    /// Checks a solution against every constraint and bound (the solver
    /// works in floating point; the scheduler trusts only checked points).
    pub fn satisfied_by(&self, x: &[i64]) -> bool {
        self.vars
            .iter()
            .zip(x)
            .all(|(v, &val)| v.lo <= val && val <= v.hi)
            && self.cons.iter().all(|c| {
                let v = c.lin.constant + c.lin.terms.iter().map(|&(i, k)| k * x[i]).sum::<i64>();
                if c.eq {
                    v == 0
                } else {
                    v >= 0
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexmin_fixes_each_stage() {
        // minimize (x + y) then (-x) subject to x + y >= 3, x <= 2
        let mut p = Ilp::default();
        let x = p.add_var(0, 2);
        let y = p.add_var(0, 10);
        let mut l = Lin::var(x);
        l.add_scaled(&Lin::var(y), 1);
        l.constant = -3;
        p.cons.push(Con::ge0(l));
        let mut s1 = Lin::var(x);
        s1.add_scaled(&Lin::var(y), 1);
        let s2 = Lin::var(x).scaled(-1);
        let deadline = Deadline::after(std::time::Duration::from_secs(5));
        let sol = p.lexmin(&[s1, s2], &deadline).unwrap().unwrap();
        assert_eq!(sol, vec![2, 1]);
        assert!(p.satisfied_by(&sol));
    }

    #[test]
    fn infeasible_is_none() {
        let mut p = Ilp::default();
        let x = p.add_var(0, 2);
        p.cons.push(Con::ge0(Lin {
            terms: vec![(x, 1)],
            constant: -3,
        }));
        let deadline = Deadline::after(std::time::Duration::from_secs(5));
        assert!(p.minimize(&Lin::var(x), &deadline).unwrap().is_none());
    }
}
