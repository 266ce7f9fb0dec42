//! Where a band cannot go on: a time loop around the rest, a wavefront of
//! points, or a partition of the strongly connected components into
//! groups that share data and domains.

use super::*;

impl<'a> Pluto<'a> {
    /// A band's first row alone (typically time), sequential, around what
    /// the dependences it does not carry allow: PPCG's mapping of a stencil
    /// (a host time loop around parallel kernels), taken only if some row
    /// inside is parallel; otherwise `None` and the caller keeps the
    /// wavefront (seidel-2d has no parallelism at a fixed time step).
    pub(super) fn time_loop(
        &mut self,
        group: &[usize],
        edges: &[Edge],
        first: &BTreeMap<usize, Row>,
        h: &mut Vec<Vec<Vec<i64>>>,
    ) -> PResult<Option<Node>> {
        let mut h2 = h.clone();
        for (&s, r) in first {
            h2[s].push(r.coef.clone());
        }
        let remaining = self.restrict(edges, std::slice::from_ref(first))?;
        // Whether the time loop leaves parallelism of its own inside: a
        // point wavefront there would always find some, at the cost of a
        // sequential loop per time step (seidel-2d: 3,000 launches per
        // step, against 8,000 in all for the wavefront of the whole band).
        let outer_trial = std::mem::replace(&mut self.in_time_loop_trial, true);
        let suppressed = self.suppressed_wavefronts;
        let mut h_trial = h2.clone();
        let trial = self.group(
            group,
            remaining
                .iter()
                .map(|e| e.copy(self.isl))
                .collect::<Result<_>>()?,
            &mut h_trial,
        );
        self.in_time_loop_trial = outer_trial;
        let trial = trial?;
        if !has_parallel_row(&trial) {
            return Ok(None);
        }
        // Wavefronts inside that the trial kept as tile wavefronts are
        // point wavefronts in the schedule proper.
        let child = if self.suppressed_wavefronts == suppressed {
            h2 = h_trial;
            trial
        } else {
            self.group(group, remaining, &mut h2)?
        };
        *h = h2;
        Ok(Some(Node::Band(Band {
            stmts: group.to_vec(),
            rows: vec![first.clone()],
            coincident: vec![false],
            permutable: true,
            child: Box::new(child),
        })))
    }

    /// A band with `k` parallel rows and sequential ones, rescheduled with
    /// one of its sequential rows alone outside: taken where some such
    /// row leaves more than `k` parallel rows at the head of every band
    /// inside (the row that leaves most, the first of equals); `None`
    /// otherwise. Legal because the band is permutable: every dependence
    /// has a non-negative distance along each of its rows, so any one of
    /// them may go first, and the rows inside carry what it does not.
    /// trmm: `(j, k, i)` with `j` alone parallel (1,200 threads, each a
    /// chain of 500,000 products) becomes `k` on the host around `(j, i)`
    /// parallel.
    pub(super) fn hoisted(
        &mut self,
        group: &[usize],
        edges: &[Edge],
        rows: &[(BTreeMap<usize, Row>, bool)],
        h: &mut Vec<Vec<Vec<i64>>>,
    ) -> PResult<Option<Node>> {
        let parallel = rows.iter().filter(|(_, c)| *c).count();
        if parallel == 0 || parallel == rows.len() {
            return Ok(None);
        }
        let mut best: Option<(usize, Node, Vec<Vec<Vec<i64>>>)> = None;
        for (row, _) in rows.iter().filter(|(_, c)| !*c) {
            let mut h_trial = h.clone();
            let Some(node) = self.time_loop(group, edges, row, &mut h_trial)? else {
                continue;
            };
            let Node::Band(b) = &node else { continue };
            let inside = leading_parallel(&b.child);
            if inside > parallel && best.as_ref().is_none_or(|(n, _, _)| inside > *n) {
                best = Some((inside, node, h_trial));
            }
        }
        Ok(best.map(|(_, node, h_trial)| {
            *h = h_trial;
            node
        }))
    }

    /// A permutable band with no parallel row, for a device that runs no
    /// tile-level wavefront (a GPU, where one thread per tile serialises
    /// the tile): the sum of its rows, `W = Σ φ_k`, sequential, around the
    /// band `(φ_1, …, φ_m)`, all of whose members are parallel. Every
    /// dependence pair of the band has non-negative distance along each
    /// `φ_k`, so either all its distances are zero (a pair for the levels
    /// below, zero along every member) or their sum, its distance along
    /// `W`, is at least 1. The rows keep their rank (`W` and `φ_1..φ_m`
    /// span what `φ_0..φ_m` span). PPCG's isl scheduler finds the same
    /// hyperplanes for seidel-2d (one launch per `W`, 2-d blocks).
    pub(super) fn point_wavefront(
        &mut self,
        group: &[usize],
        edges: Vec<Edge>,
        rows: &[(BTreeMap<usize, Row>, bool)],
        h: &mut Vec<Vec<Vec<i64>>>,
    ) -> PResult<Node> {
        let mut sum: BTreeMap<usize, Row> = BTreeMap::new();
        for (row, _) in rows {
            for (&s, r) in row {
                let acc = sum.entry(s).or_insert_with(|| Row {
                    coef: vec![0; r.coef.len()],
                    shift: 0,
                });
                for (a, c) in acc.coef.iter_mut().zip(&r.coef) {
                    *a += c;
                }
                acc.shift += r.shift;
            }
        }
        let inner: Vec<BTreeMap<usize, Row>> = self
            .unit_inner_rows(group, &sum, rows)
            .unwrap_or_else(|| rows[1..].iter().map(|(r, _)| r.clone()).collect());
        for row in std::iter::once(&sum).chain(inner.iter()) {
            for (&s, r) in row {
                h[s].push(r.coef.clone());
            }
        }
        let after_w = self.restrict(&edges, std::slice::from_ref(&sum))?;
        let remaining = self.restrict(&after_w, &inner)?;
        let child = self.group(group, remaining, h)?;
        let inner_band = Node::Band(Band {
            stmts: group.to_vec(),
            coincident: vec![true; inner.len()],
            rows: inner,
            permutable: true,
            child: Box::new(child),
        });
        Ok(Node::Band(Band {
            stmts: group.to_vec(),
            rows: vec![sum],
            coincident: vec![false],
            permutable: true,
            child: Box::new(inner_band),
        }))
    }

    /// The members inside a point wavefront of one statement, as loop
    /// iterators instead of the band's other rows, where that moves
    /// memory less between neighbouring threads. At a fixed `W`, every
    /// dependence the band holds is between instances `W` orders or
    /// within one instance (the band's rows span the iteration space), so
    /// any rows that complete `W` to a unimodular basis are parallel and
    /// legal. Unit rows `e_b` do where `W`'s coefficient of the one
    /// iterator `d` left out is ±1; the last (a block's `x`) is the
    /// iterator `a` whose step, with `d` moving to stay on the plane,
    /// touches the nearest elements. seidel-2d (`W = 4t + 2i + j`): `(i,
    /// t)` instead of `(t + i, 2t + i + j)`, whose `x` step `(t - 1, i +
    /// 1, j + 2)` put every thread of a warp on another row; along `t`,
    /// a warp reads one row, 4 elements apart, and a plane's points fill
    /// half of its box of blocks instead of a third.
    pub(super) fn unit_inner_rows(
        &self,
        group: &[usize],
        sum: &BTreeMap<usize, Row>,
        rows: &[(BTreeMap<usize, Row>, bool)],
    ) -> Option<Vec<BTreeMap<usize, Row>>> {
        let &[s] = group else { return None };
        let n = self.scop.stmts.get(s)?.1;
        let subscripts = self.scop.subscripts.get(s)?;
        if n < 2 || rows.len() != n || subscripts.is_empty() {
            return None;
        }
        let coefs: Vec<Vec<i64>> = rows
            .iter()
            .map(|(r, _)| r.get(&s).map(|r| r.coef.clone()))
            .collect::<Option<_>>()?;
        if linalg::rank(&coefs, n) != n {
            return None;
        }
        let w = &sum.get(&s)?.coef;
        let unit = |k: usize| -> Vec<i64> { (0..n).map(|j| i64::from(j == k)).collect() };
        // What a step of the innermost member moves: the direction that
        // keeps `W` and every other inner member fixed.
        let cost_of = |fixed: &[Vec<i64>]| -> Option<i64> {
            let mut all = vec![w.clone()];
            all.extend(fixed.iter().cloned());
            let dirs = linalg::orthogonal_complement(&all, n);
            let [v] = &dirs[..] else { return None };
            Some(step_cost(subscripts, v))
        };
        let current = cost_of(&coefs[1..n - 1])?;
        let mut best: Option<(i64, Vec<usize>)> = None;
        for d in (0..n).filter(|&d| w[d].abs() == 1) {
            for a in (0..n).filter(|&a| a != d) {
                let mut order: Vec<usize> = (0..n).filter(|&b| b != a && b != d).collect();
                let fixed: Vec<Vec<i64>> = order.iter().map(|&b| unit(b)).collect();
                let Some(c) = cost_of(&fixed) else { continue };
                order.push(a);
                if best.as_ref().is_none_or(|(bc, _)| c < *bc) {
                    best = Some((c, order));
                }
            }
        }
        let (c, order) = best?;
        if c >= current {
            return None;
        }
        Some(
            order
                .into_iter()
                .map(|k| {
                    BTreeMap::from([(
                        s,
                        Row {
                            coef: unit(k),
                            shift: 0,
                        },
                    )])
                })
                .collect(),
        )
    }

    /// Greedy smart fusion: walk the components in topological order and
    /// add each to the current part if the two share data (a dependence
    /// between them, or an array both touch) and the fused band keeps as
    /// many parallel rows (and as deep a band) as each of the two scheduled
    /// apart. Fusing nests that share nothing only saves a launch, and
    /// costs a kernel with each nest under its own guards (3mm's two
    /// independent products in one kernel: four times the code and the
    /// barriers, which OpenCL compilers take minutes to build).
    pub(super) fn smart_partition(
        &mut self,
        sccs: &[Vec<usize>],
        edges: &[Edge],
        h: &[Vec<Vec<i64>>],
    ) -> PResult<Vec<Vec<usize>>> {
        let mut memo: HashMap<Vec<usize>, (usize, usize)> = HashMap::new();
        let mut quality = |me: &mut Self, part: &[usize]| -> PResult<(usize, usize)> {
            if let Some(q) = memo.get(part) {
                return Ok(*q);
            }
            let mine: Vec<Edge> = edges
                .iter()
                .filter(|e| part.contains(&e.src) && part.contains(&e.dst))
                .map(|e| e.copy(me.isl))
                .collect::<Result<Vec<_>>>()?;
            let mut h2 = h.to_vec();
            let rows = me.band_rows(part, &mine, &mut h2)?;
            let q = (rows.iter().filter(|(_, c)| *c).count(), rows.len());
            memo.insert(part.to_vec(), q);
            Ok(q)
        };
        let mut parts: Vec<Vec<usize>> = Vec::new();
        let mut current = sccs[0].clone();
        for next in &sccs[1..] {
            if !self.share_data(&current, next, edges) {
                parts.push(std::mem::replace(&mut current, next.clone()));
                continue;
            }
            let mut merged = current.clone();
            merged.extend(next.iter().copied());
            merged.sort();
            let (pc, dc) = quality(self, &current)?;
            let (pn, dn) = quality(self, next)?;
            let (pm, dm) = quality(self, &merged)?;
            // Fusing must not cost either part a parallel row (a parallel
            // nest fused with a sequential one becomes sequential) or band
            // depth (tilability).
            if dm > 0 && pm >= pc.max(pn) && dm >= dc.max(dn) {
                current = merged;
            } else {
                parts.push(std::mem::replace(&mut current, next.clone()));
            }
        }
        parts.push(current);
        Ok(parts)
    }

    /// Whether statements of `a` and of `b` depend on each other or touch a
    /// common array, or have the same domains.
    pub(super) fn share_data(&mut self, a: &[usize], b: &[usize], edges: &[Edge]) -> bool {
        let linked = edges.iter().any(|e| {
            (a.contains(&e.src) && b.contains(&e.dst)) || (b.contains(&e.src) && a.contains(&e.dst))
        });
        let arrays = |part: &[usize]| -> Vec<&String> {
            part.iter()
                .flat_map(|&s| self.scop.arrays.get(s).into_iter().flatten())
                .collect()
        };
        let theirs = arrays(b);
        linked || arrays(a).iter().any(|x| theirs.contains(x)) || self.same_domains(a, b)
    }

    /// Whether every statement of `a` and `b` has the same iteration
    /// domain (statements of one loop nest, or outside every loop): fusing
    /// them costs no guards, and saves a launch.
    pub(super) fn same_domains(&mut self, a: &[usize], b: &[usize]) -> bool {
        let all: Vec<usize> = a.iter().chain(b.iter()).copied().collect();
        let Some(first) = all.first().and_then(|&s| self.domain_of(s)) else {
            return false;
        };
        all[1..].iter().all(|&s| {
            self.domain_of(s)
                .is_some_and(|d| d.is_equal(&first).unwrap_or(false))
        })
    }

    /// Statement `s`'s iteration domain, its tuple name removed.
    pub(super) fn domain_of(&mut self, s: usize) -> Option<isl_rs::Set> {
        if let Some(d) = self.domains.get(&s) {
            return d.copy().ok();
        }
        let all = self.isl.union_set(&self.scop.domain).ok()?;
        // Text: a set built from the statement's tuple as the model names it.
        let space = isl_rs::Set::read_from_str(
            &self.isl.ctx,
            &format!(
                "{}{{ {} }}",
                tree::params_arrow(self.scop),
                tree::statement_tuple(self.scop, s)
            ),
        )
        .ok()?
        .get_space()
        .ok()?;
        let d = all.extract_set(space).ok()?.reset_tuple_id().ok()?;
        self.domains.insert(s, d.copy().ok()?);
        Some(d)
    }
}

/// The parallel rows at the head of the first band on every path from
/// `node` (the fewest of them): what one kernel inside can map to blocks
/// and threads. Statements with no band count as none.
fn leading_parallel(node: &Node) -> usize {
    match node {
        Node::Leaf => 0,
        Node::Sequence(children) => children
            .iter()
            .map(|(_, c)| leading_parallel(c))
            .min()
            .unwrap_or(0),
        Node::Band(b) => b.coincident.iter().take_while(|c| **c).count(),
    }
}

/// What neighbouring threads `v` apart (in iterator space) cost in
/// memory, summed over the accesses: nothing where they touch one element,
/// the distance of their elements where only the last (contiguous)
/// subscript differs, and a row apart (the most) where an outer one does.
pub(super) fn step_cost(subscripts: &[Vec<Vec<i64>>], v: &[i64]) -> i64 {
    const OTHER_ROW: i64 = 1000;
    subscripts
        .iter()
        .map(|m| {
            let moved: Vec<i64> = m
                .iter()
                .map(|row| row.iter().zip(v).map(|(c, x)| c * x).sum())
                .collect();
            let (last, outer) = moved.split_last().expect("accesses have dimensions");
            if outer.iter().any(|&x| x != 0) {
                OTHER_ROW
            } else {
                last.abs().min(OTHER_ROW - 1)
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(name: &str, src: &str, hoist: bool) -> Node {
        super::super::tree_for_test(name, src, hoist).0
    }

    /// The coincidence flags of the bands from the root to the first leaf.
    fn flags(node: &Node) -> Vec<Vec<bool>> {
        match node {
            Node::Leaf => Vec::new(),
            Node::Sequence(ch) => flags(&ch[0].1),
            Node::Band(b) => {
                let mut out = vec![b.coincident.clone()];
                out.extend(flags(&b.child));
                out
            }
        }
    }

    const TRMM: &str = "void f(int m, int n, double A[m][m], double B[m][n]) {\n#pragma scop\n  for (int i = 0; i < m; i++)\n    for (int j = 0; j < n; j++)\n      for (int k = i + 1; k < m; k++)\n        B[i][j] += A[k][i] * B[k][j];\n#pragma endscop\n}\n";

    #[test]
    fn a_sequential_row_goes_outside_where_it_frees_parallel_rows() {
        // Without: one parallel row (`j`) and two sequential ones.
        let kept = flags(&tree("hoist-trmm", TRMM, false));
        assert_eq!(kept[0].iter().filter(|c| **c).count(), 1, "{:?}", kept);
        assert_eq!(kept[0].len(), 3, "{:?}", kept);
        // With: `k` alone and sequential, then `(i, j)` both parallel.
        let hoisted = flags(&tree("hoist-trmm", TRMM, true));
        assert_eq!(hoisted, [vec![false], vec![true, true]], "{:?}", hoisted);
    }

    /// The rows of the first band below the root's, per member, of
    /// statement 0.
    fn inner_rows(node: &Node) -> Vec<Vec<i64>> {
        let Node::Band(b) = node else {
            panic!("{:?}", node)
        };
        let Node::Band(inner) = &*b.child else {
            panic!("{:?}", b.child)
        };
        inner.rows.iter().map(|r| r[&0].coef.clone()).collect()
    }

    const SEIDEL: &str = "void f(int T, int n, double A[n][n]) {\n#pragma scop\n  for (int t = 0; t < T; t++)\n    for (int i = 1; i < n - 1; i++)\n      for (int j = 1; j < n - 1; j++)\n        A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1] + A[i][j-1] + A[i][j] + A[i][j+1] + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0;\n#pragma endscop\n}\n";

    #[test]
    fn a_point_wavefront_puts_the_step_that_stays_on_a_row_innermost() {
        // W = 4t + 2i + j; inside, (i, t): along t, j moves by 4 on the
        // same row (the band's own rows moved a thread to the next row).
        let node = tree("wavefront-seidel", SEIDEL, false);
        let Node::Band(b) = &node else {
            panic!("{:?}", node)
        };
        assert_eq!(b.rows[0][&0].coef, [4, 2, 1]);
        assert_eq!(inner_rows(&node), [vec![0, 1, 0], vec![1, 0, 0]]);
    }

    #[test]
    fn the_cost_of_a_step_is_the_distance_of_its_elements() {
        // A[i][j] and A[i+1][j-1] (same coefficients), over (t, i, j).
        let a = vec![vec![0, 1, 0], vec![0, 0, 1]];
        let subs = vec![a.clone(), a];
        assert_eq!(step_cost(&subs, &[1, 0, -4]), 8);
        assert_eq!(step_cost(&subs, &[0, 0, 0]), 0);
        assert_eq!(step_cost(&subs, &[-1, 1, 2]), 2000);
    }

    #[test]
    fn rows_stay_where_hoisting_frees_nothing() {
        // A matrix-vector product: `i` parallel, the sum over `j` is
        // sequential whichever goes first.
        let mv = "void f(int n, double A[n][n], double x[n], double y[n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n      y[i] += A[i][j] * x[j];\n#pragma endscop\n}\n";
        assert_eq!(
            flags(&tree("hoist-mv", mv, true)),
            flags(&tree("hoist-mv", mv, false))
        );
    }
}
