//! Steps that open with scalar work: under a sequential loop whose body
//! is `L; …; P` (`L` statements with no loop left, one instance per step,
//! `P` a parallel band), `L` would be a kernel of one thread launched once
//! per step. trisolv's `x[i] = x[i] / L[i][i]` before the column update
//! `x[r] -= L[r][i] * x[i]`; cholesky's `A[i][i] = sqrt(A[i][i])`;
//! durbin's `beta`, `sum` and `alpha` set-up.
//!
//! Each step's `L` runs, in the original order, right after the previous
//! step's `P`: shifting `L` back by one step and putting it after `P`
//! keeps the order of every instance. It then joins `P`'s band, run by
//! the thread that ran the `P` instances it depends on within the step
//! (trisolv: `x[i] /= L[i][i]` by the thread that updated `x[i]` last;
//! a statement with no such dependence goes to the band's first
//! thread). The band stays parallel exactly when every dependence from
//! `P` to `L`, and within `L`, in one step joins instances of one
//! thread: the rows of `L` are read off those dependences and checked on
//! them with isl, and the whole tree is checked against every dependence
//! by `valid` like any other.

use super::tree::{iterators, params_arrow, row_text, statement_tuple};
use super::{Band, Edge, Node, Problem, Row};
use crate::diag::Result;
use crate::isl::{affine, Isl, IslResultExt};
use isl_rs::{DimType, Map, PwMultiAff};
use std::collections::BTreeMap;

const STAGE: &str = "sched";

/// `node` with every step of the kind above rotated where it can be;
/// `edges` are all the region's dependences.
pub(super) fn rotate_steps(isl: &Isl, scop: &Problem, edges: &[Edge], node: Node) -> Result<Node> {
    Ok(match node {
        Node::Leaf => Node::Leaf,
        Node::Sequence(children) => {
            let mut out = Vec::new();
            for (stmts, child) in children {
                out.push((stmts, rotate_steps(isl, scop, edges, child)?));
            }
            Node::Sequence(out)
        }
        Node::Band(mut b) => {
            let child = std::mem::replace(&mut *b.child, Node::Leaf);
            *b.child = rotate_steps(isl, scop, edges, child)?;
            match rotated(isl, scop, edges, &b)? {
                Some(r) => Node::Band(r),
                None => Node::Band(b),
            }
        }
    })
}

/// Whether `node` runs its statements with no loop left.
fn scalar(node: &Node) -> bool {
    match node {
        Node::Leaf => true,
        Node::Sequence(ch) => ch.iter().all(|(_, n)| scalar(n)),
        Node::Band(_) => false,
    }
}

/// The statements of a scalar node, in the order it runs them.
fn in_order(stmts: &[usize], node: &Node, out: &mut Vec<usize>) {
    match node {
        Node::Sequence(ch) => {
            for (s, n) in ch {
                in_order(s, n, out);
            }
        }
        _ => out.extend_from_slice(stmts),
    }
}

/// `{ S[x] -> [row(x)] }`.
fn row_map(isl: &Isl, scop: &Problem, s: usize, row: &Row) -> Result<Map> {
    let it = iterators(scop.stmts[s].1);
    let text = format!(
        "{}{{ {} -> [({})] }}",
        params_arrow(scop),
        statement_tuple(scop, s),
        row_text(row, &it)
    );
    isl.map(&text).isl(isl, STAGE)
}

/// The band `b` with its leading scalar children rotated into its last
/// child, or `None` where the shape does not fit or a check fails.
fn rotated(isl: &Isl, scop: &Problem, edges: &[Edge], b: &Band) -> Result<Option<Band>> {
    if b.rows.len() != 1 || b.coincident[0] {
        return Ok(None);
    }
    let Node::Sequence(children) = &*b.child else {
        return Ok(None);
    };
    let lead = children.iter().take_while(|(_, n)| scalar(n)).count();
    let Some((pstmts, Node::Band(pb))) = children.last() else {
        return Ok(None);
    };
    if lead == 0 || lead >= children.len() || pb.coincident.first() != Some(&true) {
        return Ok(None);
    }
    let mut lstmts = Vec::new();
    for (s, n) in &children[..lead] {
        in_order(s, n, &mut lstmts);
    }
    // A privatised variable's live range must stay where the scheduler
    // put it (`Problem::private`).
    if scop
        .private
        .iter()
        .any(|(_, ss)| ss.iter().any(|s| lstmts.contains(s)))
    {
        return Ok(None);
    }
    let outer = &b.rows[0];
    let mut new_outer = outer.clone();
    for &s in &lstmts {
        let r = new_outer.get_mut(&s).expect("a band row per statement");
        r.shift -= 1;
    }
    // The dependences that join two instances of one step after the
    // rotation, by source and target statement.
    let deps = deps_in_step(isl, scop, edges, &new_outer, pstmts, &lstmts)?;
    let mut rows: Vec<BTreeMap<usize, Row>> = pb.rows.clone();
    for (m, member) in rows.iter_mut().enumerate() {
        for &s in &lstmts {
            let Some(row) = row_of(isl, scop, pb, m, s, &deps)? else {
                return Ok(None);
            };
            member.insert(s, row);
        }
    }
    // Within `L`, one step's dependences join instances of one thread.
    let zero = isl.set("{ [0] }").isl(isl, STAGE)?;
    for (src, dst, rel) in &deps {
        if !(lstmts.contains(src) && lstmts.contains(dst)) {
            continue;
        }
        for member in &rows {
            let joined = rel
                .copy()
                .isl(isl, STAGE)?
                .apply_domain(row_map(isl, scop, *src, &member[src])?)
                .isl(isl, STAGE)?
                .apply_range(row_map(isl, scop, *dst, &member[dst])?)
                .isl(isl, STAGE)?;
            let d = joined.deltas().isl(isl, STAGE)?;
            if !d.is_subset(&zero).isl(isl, STAGE)? {
                return Ok(None);
            }
        }
    }
    let mut merged_stmts = pstmts.clone();
    merged_stmts.extend(&lstmts);
    let mut inner = vec![(pstmts.clone(), (*pb.child).clone())];
    inner.extend(lstmts.iter().map(|&s| (vec![s], Node::Leaf)));
    let merged = Band {
        stmts: merged_stmts.clone(),
        rows,
        coincident: pb.coincident.clone(),
        permutable: pb.permutable,
        child: Box::new(Node::Sequence(inner)),
    };
    let rest = &children[lead..children.len() - 1];
    let child = if rest.is_empty() {
        Node::Band(merged)
    } else {
        let mut seq: Vec<(Vec<usize>, Node)> = rest.to_vec();
        seq.push((merged_stmts, Node::Band(merged)));
        Node::Sequence(seq)
    };
    Ok(Some(Band {
        stmts: b.stmts.clone(),
        rows: vec![new_outer],
        coincident: b.coincident.clone(),
        permutable: b.permutable,
        child: Box::new(child),
    }))
}

/// The dependences from `P` or `L` to `L` between instances that the
/// rotated outer row `outer` puts in one step.
fn deps_in_step(
    isl: &Isl,
    scop: &Problem,
    edges: &[Edge],
    outer: &BTreeMap<usize, Row>,
    pstmts: &[usize],
    lstmts: &[usize],
) -> Result<Vec<(usize, usize, Map)>> {
    let mut out = Vec::new();
    for e in edges {
        let (s, d) = (e.src, e.dst);
        if !lstmts.contains(&d) || !(pstmts.contains(&s) || lstmts.contains(&s)) {
            continue;
        }
        let step_s = row_map(isl, scop, s, &outer[&s])?;
        let step_d = row_map(isl, scop, d, &outer[&d])?;
        let tied = e
            .rel
            .copy()
            .isl(isl, STAGE)?
            .intersect(
                step_s
                    .apply_range(step_d.reverse().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?,
            )
            .isl(isl, STAGE)?;
        if !tied.is_empty().isl(isl, STAGE)? {
            out.push((s, d, tied));
        }
    }
    Ok(out)
}

/// Member `m`'s row for `L`'s statement `s`: the value of the `P`
/// instances it depends on within its step, where they all agree on one
/// affine function of `s`'s iterators; the band's first value where none
/// does; `None` otherwise.
fn row_of(
    isl: &Isl,
    scop: &Problem,
    pb: &Band,
    m: usize,
    s: usize,
    deps: &[(usize, usize, Map)],
) -> Result<Option<Row>> {
    let mut values: Option<Map> = None;
    for (src, dst, rel) in deps {
        if *dst != s || !pb.rows[m].contains_key(src) {
            continue;
        }
        let v = rel
            .copy()
            .isl(isl, STAGE)?
            .reverse()
            .isl(isl, STAGE)?
            .apply_range(row_map(isl, scop, *src, &pb.rows[m][src])?)
            .isl(isl, STAGE)?;
        values = Some(match values {
            None => v,
            Some(u) => u.union(v).isl(isl, STAGE)?,
        });
    }
    let dims = scop.stmts[s].1;
    let Some(values) = values else {
        return first_value(isl, scop, pb, m, dims);
    };
    if !values.is_single_valued().isl(isl, STAGE)? {
        return Ok(None);
    }
    let dom = values.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
    let pma = PwMultiAff::from_map(values.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .gist(dom)
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;
    if pma.n_piece().isl(isl, STAGE)? != 1 || !pma.isa_multi_aff().isl(isl, STAGE)? {
        return Ok(None);
    }
    let aff = pma
        .as_multi_aff()
        .isl(isl, STAGE)?
        .get_at(0)
        .isl(isl, STAGE)?;
    let no_params = affine::int_coefficients(isl, &aff, DimType::Param, scop.params.len(), STAGE)?
        .is_some_and(|c| c.iter().all(|&x| x == 0));
    if !no_params {
        return Ok(None);
    }
    let Some(coef) = affine::int_coefficients(isl, &aff, DimType::In, dims, STAGE)? else {
        return Ok(None);
    };
    let Some(shift) = affine::int_value(isl, aff.get_constant_val().isl(isl, STAGE)?, STAGE)?
    else {
        return Ok(None);
    };
    let row = Row { coef, shift };
    // The function must be the dependences' values, not only near them.
    let f = row_map(isl, scop, s, &row)?
        .intersect_domain(values.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    Ok(f.is_equal(&values).isl(isl, STAGE)?.then_some(row))
}

/// A constant row: the smallest value member `m` takes on `P`, where that
/// is one number for every parameter value (durbin: 0).
fn first_value(isl: &Isl, scop: &Problem, pb: &Band, m: usize, dims: usize) -> Result<Option<Row>> {
    let domain = isl.union_set(&scop.domain).isl(isl, STAGE)?;
    let mut lo: Option<i64> = None;
    for (&p, row) in &pb.rows[m] {
        let name = &scop.stmts[p].0;
        let sets = domain.get_set_list().isl(isl, STAGE)?;
        for k in 0..sets.size().isl(isl, STAGE)? {
            let set = sets.get_at(k).isl(isl, STAGE)?;
            if set.get_tuple_name().isl(isl, STAGE)? != *name {
                continue;
            }
            let image = set.apply(row_map(isl, scop, p, row)?).isl(isl, STAGE)?;
            if image.is_empty().isl(isl, STAGE)? {
                continue;
            }
            let min = image.lexmin().isl(isl, STAGE)?;
            // One value whatever the parameters: the minimum with them
            // projected out is a single point.
            let flat = min
                .project_out(DimType::Param, 0, scop.params.len() as u32)
                .isl(isl, STAGE)?;
            let v = flat
                .plain_get_val_if_fixed(DimType::Set, 0)
                .isl(isl, STAGE)?;
            if !v.is_int().isl(isl, STAGE)? {
                return Ok(None);
            }
            let v = v.get_num_si().isl(isl, STAGE)?;
            lo = Some(lo.map_or(v, |l: i64| l.min(v)));
        }
    }
    Ok(lo.map(|shift| Row {
        coef: vec![0; dims],
        shift,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree_of(name: &str, src: &str) -> (Node, Vec<String>) {
        super::super::tree_for_test(name, src, false)
    }

    /// The bands from the root down to statement `s`: each band's row for it.
    fn rows_to(node: &Node, s: usize, out: &mut Vec<(Row, bool)>) -> bool {
        match node {
            Node::Leaf => true,
            Node::Sequence(ch) => ch
                .iter()
                .any(|(stmts, n)| stmts.contains(&s) && rows_to(n, s, out)),
            Node::Band(b) => {
                if !b.stmts.contains(&s) {
                    return false;
                }
                for (k, m) in b.rows.iter().enumerate() {
                    out.push((m[&s].clone(), b.coincident[k]));
                }
                rows_to(&b.child, s, out)
            }
        }
    }

    /// A rotated statement's rows: the outer (sequential) row and the
    /// parallel band's.
    fn rotated_rows(outer: (Vec<i64>, i64), inner: (Vec<i64>, i64)) -> Vec<(Row, bool)> {
        vec![
            (
                Row {
                    coef: outer.0,
                    shift: outer.1,
                },
                false,
            ),
            (
                Row {
                    coef: inner.0,
                    shift: inner.1,
                },
                true,
            ),
        ]
    }

    /// The tree of `src` and the rows from its root down to the statement
    /// named `name`.
    fn rows_of(test: &str, src: &str, name: &str) -> (Node, Vec<(Row, bool)>) {
        let (node, names) = tree_of(test, src);
        let s = names.iter().position(|x| x == name).unwrap();
        let mut rows = Vec::new();
        assert!(rows_to(&node, s, &mut rows), "{:?}", node);
        (node, rows)
    }

    const TRISOLV: &str = "void f(int n, double L[restrict const static n][n], double x[restrict const static n], double b[restrict const static n]) {\n#pragma scop\nfor (int i = 0; i < n; i++) {\n  x[i] = b[i];\n  for (int j = 0; j < i; j++)\n   x[i] -= L[i][j] * x[j];\n  x[i] = x[i] / L[i][i];\n }\n#pragma endscop\n}\n";

    #[test]
    fn trisolvs_division_joins_the_previous_columns_update() {
        let (node, rows) = rows_of("rot-trisolv", TRISOLV, "S_2");
        // S_2: `x[i] = x[i] / L[i][i]`, run one step early (after the
        // update of column i - 1) by the thread that updated `x[i]`.
        assert_eq!(
            rows,
            rotated_rows((vec![1], -1), (vec![1], 0)),
            "{:?}",
            node
        );
    }

    #[test]
    fn a_step_that_needs_two_threads_results_is_not_rotated() {
        // `s[i]` reads what two different threads of the previous step
        // wrote: it cannot run inside that step's kernel.
        let src = "void f(int n, double B[restrict const static n][n], double s[restrict const static n]) {\n#pragma scop\nfor (int i = 1; i < n; i++) {\n  s[i] = B[i - 1][0] + B[i - 1][n - 1];\n  for (int j = 0; j < n; j++)\n   B[i][j] = s[i] * j;\n }\n#pragma endscop\n}\n";
        let (node, rows) = rows_of("rot-two", src, "S_0");
        assert_eq!(rows.len(), 1, "{:?}", node);
        assert_eq!(rows[0].0.shift, 0, "{:?}", node);
    }

    #[test]
    fn a_step_that_reads_one_threads_result_goes_to_that_thread() {
        // `s[i]` reads `y[0]`, which thread 0 of the previous step wrote.
        let src = "void f(int n, double B[restrict const static n][n], double C[restrict const static n][n], double y[restrict const static n], double s[restrict const static n]) {\n#pragma scop\nfor (int i = 1; i < n; i++) {\n  s[i] = y[0] * 0.5;\n  for (int j = 0; j < n; j++)\n   y[j] = B[i][j] + s[i];\n  for (int j = 0; j < n; j++)\n   C[i][j] = y[j] * 2;\n }\n#pragma endscop\n}\n";
        let (node, rows) = rows_of("rot-first", src, "S_0");
        assert_eq!(
            rows,
            rotated_rows((vec![1], -1), (vec![0], 0)),
            "{:?}",
            node
        );
    }
}
