//! One row of a band: the ILP over the statements' coefficients (Farkas
//! constraints of the dependences still to satisfy, Pluto's cost, the
//! rank condition), its solution, Feautrier's row where Pluto's has none,
//! and the dependences a band leaves.

use super::*;

impl<'a> Pluto<'a> {
    /// Rows of one permutable band, with whether each is parallel; `h`
    /// receives the rows' linear parts.
    pub(super) fn band_rows(
        &mut self,
        group: &[usize],
        edges: &[Edge],
        h: &mut [Vec<Vec<i64>>],
    ) -> PResult<Vec<(BTreeMap<usize, Row>, bool)>> {
        let mut key_edges: Vec<usize> = edges.iter().map(|e| e.id).collect();
        key_edges.sort();
        let key = (
            group.to_vec(),
            key_edges,
            group.iter().map(|&s| h[s].clone()).collect::<Vec<_>>(),
        );
        if let Some(rows) = self.rows_memo.get(&key) {
            for (row, _) in rows {
                for (&s, r) in row {
                    h[s].push(r.coef.clone());
                }
            }
            return Ok(rows.clone());
        }
        let mut edges: Vec<Edge> = edges
            .iter()
            .map(|e| e.copy(self.isl))
            .collect::<Result<_>>()?;
        for e in edges.iter_mut() {
            if e.farkas.is_none() {
                let f = match self.farkas_memo.get(&e.id) {
                    Some(f) => f.clone(),
                    None => {
                        let f = Farkas::of(self.isl, &e.rel)?;
                        self.farkas_memo.insert(e.id, f.clone());
                        f
                    }
                };
                e.farkas = Some(f);
            }
        }
        let mut rows = Vec::new();
        while group.iter().any(|&s| !self.full_rank(s, h)) {
            match self.find_row(group, &edges, h)? {
                Some((row, parallel)) => {
                    for (&s, r) in &row {
                        h[s].push(r.coef.clone());
                    }
                    rows.push((row, parallel));
                }
                None => break,
            }
        }
        self.rows_memo.insert(key, rows.clone());
        Ok(rows)
    }

    pub(super) fn check_deadline(&self) -> PResult<()> {
        if self.opts.deadline.passed() {
            Err(PlutoError::Budget(
                "the scheduler's time budget ran out".into(),
            ))
        } else {
            Ok(())
        }
    }

    /// The unknowns of one row for the statements of `group`.
    pub(super) fn row_vars(
        &self,
        ilp: &mut Ilp,
        group: &[usize],
    ) -> BTreeMap<usize, (Vec<usize>, usize, Vec<usize>)> {
        let b = self.opts.max_coefficient;
        let mut vars = BTreeMap::new();
        for &s in group {
            let c: Vec<usize> = (0..self.dims[s]).map(|_| ilp.add_var(-b, b)).collect();
            let sh = ilp.add_var(0, self.opts.max_shift);
            let abs: Vec<usize> = c
                .iter()
                .map(|&cv| {
                    let a = ilp.add_var(0, b);
                    let mut up = Lin::var(a);
                    up.add_scaled(&Lin::var(cv), -1);
                    ilp.cons.push(Con::ge0(up));
                    let mut down = Lin::var(a);
                    down.add_scaled(&Lin::var(cv), 1);
                    ilp.cons.push(Con::ge0(down));
                    a
                })
                .collect();
            vars.insert(s, (c, sh, abs));
        }
        vars
    }

    /// Validity (and, with `bound`, Pluto's bounding) constraints of every
    /// edge; `strong` adds `δ >= e_k` for Feautrier's row.
    pub(super) fn edge_constraints(
        &self,
        ilp: &mut Ilp,
        vars: &BTreeMap<usize, (Vec<usize>, usize, Vec<usize>)>,
        edges: &[Edge],
        bound: Option<(&[usize], usize)>,
        strong: Option<&[usize]>,
    ) -> PResult<()> {
        for (k, e) in edges.iter().enumerate() {
            let f = match &e.farkas {
                Some(f) => f.clone(),
                None => Farkas::of(self.isl, &e.rel)?,
            };
            let (cs, shs, _) = &vars[&e.src];
            let (ct, sht, _) = &vars[&e.dst];
            let src: Vec<Lin> = cs.iter().map(|&v| Lin::var(v).scaled(-1)).collect();
            let dst: Vec<Lin> = ct.iter().map(|&v| Lin::var(v)).collect();
            let mut cst = Lin::var(*sht);
            cst.add_scaled(&Lin::var(*shs), -1);
            if let Some(ev) = strong {
                let mut strong_cst = cst.clone();
                strong_cst.add_scaled(&Lin::var(ev[k]), -1);
                let zeros = vec![Lin::constant(0); f.params.len()];
                ilp.cons
                    .extend(f.instantiate(&strong_cst, &zeros, &src, &dst));
            } else {
                let zeros = vec![Lin::constant(0); f.params.len()];
                ilp.cons.extend(f.instantiate(&cst, &zeros, &src, &dst));
            }
            if let Some((u, w)) = bound {
                // w + u·p - δ >= 0
                let mut bcst = Lin::var(w);
                bcst.add_scaled(&cst, -1);
                let us: Vec<Lin> = f
                    .params
                    .iter()
                    .map(|p| match self.params.get(p) {
                        Some(&i) => Lin::var(u[i]),
                        None => Lin::constant(0),
                    })
                    .collect();
                let bsrc: Vec<Lin> = src.iter().map(|l| l.scaled(-1)).collect();
                let bdst: Vec<Lin> = dst.iter().map(|l| l.scaled(-1)).collect();
                ilp.cons.extend(f.instantiate(&bcst, &us, &bsrc, &bdst));
            }
        }
        Ok(())
    }

    /// The cost after (u, w): small coefficients, outer loops first, then
    /// small shifts.
    pub(super) fn coefficient_cost(
        &self,
        vars: &BTreeMap<usize, (Vec<usize>, usize, Vec<usize>)>,
    ) -> Lin {
        let depth = self.dims.iter().copied().max().unwrap_or(0) as i64 + 1;
        let n_shift = vars.len() as i64 * self.opts.max_shift + 1;
        let mut cost = Lin::default();
        for (_, sh, abs) in vars.values() {
            for (j, &a) in abs.iter().enumerate() {
                cost.add_scaled(&Lin::var(a), (depth + j as i64) * n_shift);
            }
            cost.add_scaled(&Lin::var(*sh), 1);
        }
        cost
    }

    /// The next row of the band, or `None` if none is valid and independent.
    pub(super) fn find_row(
        &mut self,
        group: &[usize],
        edges: &[Edge],
        h: &[Vec<Vec<i64>>],
    ) -> PResult<Option<(BTreeMap<usize, Row>, bool)>> {
        for sign in [1i64, -1] {
            let mut ilp = Ilp::default();
            let vars = self.row_vars(&mut ilp, group);
            let u: Vec<usize> = (0..self.params.len()).map(|_| ilp.add_var(0, 64)).collect();
            let w = ilp.add_var(0, 1 << 20);
            self.edge_constraints(&mut ilp, &vars, edges, Some((&u, w)), None)?;
            // Linear independence from the rows found so far.
            for &s in group {
                if self.full_rank(s, h) {
                    continue;
                }
                let (c, _, _) = &vars[&s];
                let mut sum = Lin::constant(-1);
                for r in linalg::orthogonal_complement(&h[s], self.dims[s]) {
                    let mut dot = Lin::default();
                    for (j, &x) in r.iter().enumerate() {
                        dot.add_scaled(&Lin::var(c[j]), x * sign);
                    }
                    sum.add_scaled(&dot, 1);
                    ilp.cons.push(Con::ge0(dot));
                }
                ilp.cons.push(Con::ge0(sum));
            }
            let cost = self.coefficient_cost(&vars);
            // A parallel row (zero distance everywhere) if there is one.
            let mut zero = ilp.clone();
            for &v in u.iter().chain(std::iter::once(&w)) {
                zero.vars[v].hi = 0;
            }
            self.solves += 1;
            let (sol, parallel) = match self.solve(&zero, &[cost.clone()])? {
                Some(s) => (s, true),
                None => {
                    let mut su = Lin::default();
                    for &v in &u {
                        su.add_scaled(&Lin::var(v), 1);
                    }
                    self.solves += 1;
                    match self.solve(&ilp, &[su, Lin::var(w), cost])? {
                        Some(s) => {
                            let par = u.iter().all(|&v| s[v] == 0) && s[w] == 0;
                            (s, par)
                        }
                        None => continue,
                    }
                }
            };
            return Ok(Some((row_of(&vars, &sol), parallel)));
        }
        Ok(None)
    }

    pub(super) fn solve(&self, ilp: &Ilp, objectives: &[Lin]) -> PResult<Option<Vec<i64>>> {
        match ilp.lexmin(objectives, &self.opts.deadline) {
            Ok(Some(s)) if ilp.satisfied_by(&s) => Ok(Some(s)),
            Ok(Some(_)) => Err(PlutoError::Failed(
                "the ILP solver returned a point that violates its constraints".into(),
            )),
            Ok(None) => Ok(None),
            Err(IlpError::Budget) => Err(PlutoError::Budget(
                "the scheduler's time budget ran out in the ILP solver".into(),
            )),
            Err(IlpError::Solver(e)) => Err(PlutoError::Failed(format!("ILP solver: {}", e))),
        }
    }

    /// Feautrier's fallback: one valid row that strictly satisfies as many
    /// pending dependences as possible (at least one).
    pub(super) fn feautrier_row(
        &mut self,
        group: &[usize],
        edges: &[Edge],
    ) -> PResult<BTreeMap<usize, Row>> {
        let mut ilp = Ilp::default();
        let vars = self.row_vars(&mut ilp, group);
        let e: Vec<usize> = edges.iter().map(|_| ilp.add_var(0, 1)).collect();
        self.edge_constraints(&mut ilp, &vars, edges, None, None)?;
        self.edge_constraints(&mut ilp, &vars, edges, None, Some(&e))?;
        let mut satisfied = Lin::constant(-1);
        let mut neg = Lin::default();
        for &v in &e {
            satisfied.add_scaled(&Lin::var(v), 1);
            neg.add_scaled(&Lin::var(v), -1);
        }
        ilp.cons.push(Con::ge0(satisfied));
        let cost = self.coefficient_cost(&vars);
        self.solves += 1;
        let Some(sol) = self.solve(&ilp, &[neg, cost])? else {
            return Err(PlutoError::Failed(
                "no schedule row satisfies any pending dependence".into(),
            ));
        };
        Ok(row_of(&vars, &sol))
    }

    /// The part of each dependence that `rows` leave unsatisfied (distance
    /// zero along every row); empty dependences are dropped.
    pub(super) fn restrict(
        &mut self,
        edges: &[Edge],
        rows: &[BTreeMap<usize, Row>],
    ) -> PResult<Vec<Edge>> {
        let isl = self.isl;
        let mut out = Vec::new();
        for e in edges {
            let n_src = self.dims[e.src];
            let n_dst = self.dims[e.dst];
            let src_it: Vec<String> = (0..n_src).map(|k| format!("i{}", k)).collect();
            let dst_it: Vec<String> = (0..n_dst).map(|k| format!("j{}", k)).collect();
            let eqs: Vec<String> = rows
                .iter()
                .map(|r| {
                    format!(
                        "{} = {}",
                        tree::row_text(&r[&e.dst], &dst_it),
                        tree::row_text(&r[&e.src], &src_it)
                    )
                })
                .collect();
            let text = format!(
                "{}{{ {}[{}] -> {}[{}] : {} }}",
                tree::params_arrow(self.scop),
                self.scop.stmts[e.src].0,
                src_it.join(", "),
                self.scop.stmts[e.dst].0,
                dst_it.join(", "),
                eqs.join(" and ")
            );
            let eq = isl.map(&text).isl(isl, STAGE)?;
            let rel = e
                .rel
                .copy()
                .isl(isl, STAGE)?
                .intersect(eq)
                .isl(isl, STAGE)?
                .coalesce()
                .isl(isl, STAGE)?;
            if !rel.is_empty().isl(isl, STAGE)? {
                out.push(Edge {
                    id: self.next_edge,
                    src: e.src,
                    dst: e.dst,
                    rel,
                    farkas: None,
                });
                self.next_edge += 1;
            }
        }
        Ok(out)
    }
}
