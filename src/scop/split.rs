//! Index-set splitting: a statement whose instances read, within one
//! iteration of its outermost loop, what a lower-dimensional slice of its
//! own instances writes (floyd-warshall's row and column `k`:
//! `path[i][j]` reads `path[i][k]` and `path[k][j]`) carries a dependence
//! on every loop inside, so no inner loop is parallel as it stands. Cut
//! along the slice's hyperplanes (`j - k < 0`, `= 0`, `> 0`, and the same
//! for `i - k`), each piece is a statement of its own: the pieces off the
//! slice write nothing the others read in that iteration, so the scheduler
//! finds their inner loops parallel and orders the pieces around the
//! slice (Bondhugula et al., "Automatic index set splitting", the idea;
//! here only the hyperplanes of equalities). A statement of one loop that
//! reads what one of its own instances writes (`a[i] = a[n / 2] + b[i]`)
//! splits around that instance the same way.
//!
//! The pieces partition the statement's instances exactly (each integer
//! point lies on one side of each hyperplane), so the split model means
//! what the original means; the schedule is checked against its
//! dependences like any other. Whether the split pays is the driver's
//! question (the GPU model's estimate of both).

use super::{Scop, Statement, StmtId};
use crate::diag::Result;
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{BasicSet, DimType, Map, Set};

const STAGE: &str = "scop";

/// At most this many hyperplanes per statement (3^2 = 9 pieces).
const MAX_HYPERPLANES: usize = 2;

/// The region with its statements split, and what `-v` says of each
/// split; `None` where no statement has a slice to split along.
pub fn split(isl: &Isl, scop: &Scop) -> Result<Option<(Scop, Vec<String>)>> {
    let mut out = scop.clone();
    let mut notes = Vec::new();
    for s in 0..scop.stmts.len() {
        let st = &scop.stmts[s];
        if st.iterators.is_empty() || mentioned_in_independent(scop, st) {
            continue;
        }
        let planes = hyperplanes(isl, st)?;
        if planes.is_empty() {
            continue;
        }
        let pieces = pieces(isl, &st.domain, &planes)?;
        if pieces.len() < 2 {
            continue;
        }
        let why = if st.iterators.len() == 1 {
            "the instances the others read from".to_string()
        } else {
            format!(
                "the slices other instances read from in one iteration of loop `{}`",
                st.iterators[0]
            )
        };
        notes.push(format!(
            "line {}: the statement's instances split into {} pieces along {} ({})",
            st.loc.line,
            pieces.len(),
            planes
                .iter()
                .map(|p| format!("`{} = 0`", p.text))
                .collect::<Vec<_>>()
                .join(" and "),
            why
        ));
        for (k, piece) in pieces.iter().enumerate() {
            if k == 0 {
                out.stmts[s] = restricted(isl, st, &st.name, st.id, piece)?;
            } else {
                let id = StmtId(out.stmts.len());
                let name = format!("S_{}", id.0);
                out.stmts.push(restricted(isl, st, &name, id, piece)?);
            }
        }
    }
    Ok((!notes.is_empty()).then_some((out, notes)))
}

/// Pairs of instances that `#pragma pencil independent` or a reduction
/// relates name the statement: left whole, so that those pairs keep
/// meaning what they say.
fn mentioned_in_independent(scop: &Scop, st: &Statement) -> bool {
    scop.independent.contains(&format!("{}[", st.name))
}

/// A hyperplane `e = 0` over the statement's iterators and the
/// parameters, with its text for `-v`.
struct Plane {
    aff: isl_rs::Aff,
    text: String,
}

/// The equalities of the slices that other instances of the same
/// outermost iteration read, where the domain does not imply them.
fn hyperplanes(isl: &Isl, st: &Statement) -> Result<Vec<Plane>> {
    let n = st.iterators.len();
    let domain = isl.set(&st.domain).isl(isl, STAGE)?;
    let params: Vec<String> = (0..domain.dim(DimType::Param).isl(isl, STAGE)?)
        .map(|k| {
            domain
                .get_dim_name(DimType::Param, k as u32)
                .map(str::to_string)
        })
        .collect::<std::result::Result<_, _>>()
        .isl(isl, STAGE)?;
    let x: Vec<String> = (0..n).map(|k| format!("x{}", k)).collect();
    let y: Vec<String> = (0..n).map(|k| format!("y{}", k)).collect();
    // A statement of one loop has no outer iteration: the slice is the
    // instances any other instance reads from (`a[i] = a[n / 2] + b[i]`:
    // `i = n / 2`).
    let same_outer = isl
        .map(&format!(
            "[{}] -> {{ {name}[{}] -> {name}[{}] : {} }}",
            params.join(", "),
            x.join(", "),
            y.join(", "),
            if n == 1 { "true" } else { "x0 = y0" },
            name = st.name
        ))
        .isl(isl, STAGE)?;
    let identity = isl
        .map(&format!(
            "[{}] -> {{ {name}[{}] -> {name}[{}] }}",
            params.join(", "),
            x.join(", "),
            x.join(", "),
            name = st.name
        ))
        .isl(isl, STAGE)?;
    let mut planes: Vec<Plane> = Vec::new();
    for w in &st.writes {
        for r in st.reads.iter().filter(|r| r.array == w.array) {
            if r.relation == w.relation {
                continue;
            }
            let writes = isl
                .map(&w.relation)
                .isl(isl, STAGE)?
                .intersect_domain(domain.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            let reads = isl
                .map(&r.relation)
                .isl(isl, STAGE)?
                .intersect_domain(domain.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            // writer -> reader of the element it writes, in one outermost
            // iteration, another instance
            let pairs: Map = writes
                .apply_range(reads.reverse().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .intersect(same_outer.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .subtract(identity.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            let writers: Set = pairs.domain().isl(isl, STAGE)?;
            if writers.is_empty().isl(isl, STAGE)? {
                continue;
            }
            let hull: BasicSet = writers.affine_hull().isl(isl, STAGE)?;
            let constraints = hull.get_constraint_list().isl(isl, STAGE)?;
            for c in 0..constraints.size().isl(isl, STAGE)? {
                let c = constraints.get_at(c).isl(isl, STAGE)?;
                if !c.is_equality().isl(isl, STAGE)? {
                    continue;
                }
                let aff = c.get_aff().isl(isl, STAGE)?;
                // A plane of the outermost iterator alone (or of the
                // parameters) cuts no inner loop.
                let inner = if n == 1 {
                    aff.involves_dims(DimType::In, 0, 1).isl(isl, STAGE)?
                } else {
                    aff.involves_dims(DimType::In, 1, (n - 1) as u32)
                        .isl(isl, STAGE)?
                };
                if !inner || aff.involves_locals().isl(isl, STAGE)? {
                    continue;
                }
                let on = side_of(isl, &aff, Side::On)?;
                if domain.is_subset(&on).isl(isl, STAGE)? {
                    continue;
                }
                let mut same = false;
                for p in &planes {
                    same |= side_of(isl, &p.aff, Side::On)?
                        .is_equal(&on)
                        .isl(isl, STAGE)?;
                }
                if same || planes.len() == MAX_HYPERPLANES {
                    continue;
                }
                let text = plane_text(isl, &aff, &st.iterators);
                planes.push(Plane { aff, text });
            }
        }
    }
    Ok(planes)
}

/// `e = 0` in the statement's own names, for `-v`: isl prints
/// `{ S_0[x0, x1, x2] -> [(-x0 + x2)] }`.
fn plane_text(isl: &Isl, aff: &isl_rs::Aff, iterators: &[String]) -> String {
    let Ok(text) = aff.text(isl, STAGE) else {
        return "?".into();
    };
    let body = text
        .rsplit_once("-> [")
        .and_then(|(_, r)| r.rsplit_once(']'))
        .map(|(e, _)| e.trim_start_matches('(').trim_end_matches(')').to_string())
        .unwrap_or_else(|| text.to_string());
    let mut out = String::new();
    let mut rest = body.as_str();
    // The domain's own iterator names (isl keeps those of the text read).
    while let Some(c) = rest.chars().next() {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if word.is_empty() {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        rest = &rest[word.len()..];
        match word.strip_prefix('i').and_then(|k| k.parse::<usize>().ok()) {
            Some(k) if k < iterators.len() => out.push_str(&iterators[k]),
            _ => out.push_str(&word),
        }
    }
    out
}

enum Side {
    Below,
    On,
    Above,
}

/// Where `e < 0`, `e = 0` or `e > 0`.
fn side_of(isl: &Isl, e: &isl_rs::Aff, side: Side) -> Result<Set> {
    let e = e.copy().isl(isl, STAGE)?;
    let basic = match side {
        Side::Below => e.neg_basic_set(),
        Side::On => e.zero_basic_set(),
        Side::Above => e.neg().isl(isl, STAGE)?.neg_basic_set(),
    };
    basic.isl(isl, STAGE)?.to_set().isl(isl, STAGE)
}

/// The domain cut by the planes' signs, empty pieces left out; each piece
/// as isl text.
fn pieces(isl: &Isl, domain: &str, planes: &[Plane]) -> Result<Vec<String>> {
    let mut parts: Vec<Set> = vec![isl.set(domain).isl(isl, STAGE)?];
    for p in planes {
        let below = side_of(isl, &p.aff, Side::Below)?;
        let on = side_of(isl, &p.aff, Side::On)?;
        let above = side_of(isl, &p.aff, Side::Above)?;
        let mut next = Vec::new();
        for part in parts {
            for side in [&below, &on, &above] {
                let piece = part
                    .copy()
                    .isl(isl, STAGE)?
                    .intersect(side.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?;
                if !piece.is_empty().isl(isl, STAGE)? {
                    next.push(piece);
                }
            }
        }
        parts = next;
    }
    parts
        .iter()
        .map(|p| p.to_str().map(str::to_string).isl(isl, STAGE))
        .collect()
}

/// The statement on `piece` of its domain, named `name`: its schedule
/// and accesses restricted to the piece and renamed.
fn restricted(isl: &Isl, st: &Statement, name: &str, id: StmtId, piece: &str) -> Result<Statement> {
    let domain = isl
        .set(piece)
        .isl(isl, STAGE)?
        .set_tuple_name(name)
        .isl(isl, STAGE)?;
    let on = |relation: &str| -> Result<String> {
        let m = isl
            .map(relation)
            .isl(isl, STAGE)?
            .set_tuple_name(DimType::In, name)
            .isl(isl, STAGE)?
            .intersect_domain(domain.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        m.text(isl, STAGE)
    };
    let mut out = st.clone();
    out.id = id;
    out.name = name.to_string();
    out.domain = domain.text(isl, STAGE)?;
    out.schedule = on(&st.schedule)?;
    for a in out.reads.iter_mut().chain(out.writes.iter_mut()) {
        a.relation = on(&a.relation)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scop::test_support::scop_of;

    #[test]
    fn floyd_warshall_splits_along_row_and_column_k() {
        let scop = scop_of(
            "split-fw",
            "void f(int n, int p[restrict const static n][n]) {\n#pragma scop\nfor (int k = 0; k < n; k++)\n for (int i = 0; i < n; i++)\n  for (int j = 0; j < n; j++)\n   p[i][j] = p[i][j] < p[i][k] + p[k][j] ? p[i][j] : p[i][k] + p[k][j];\n#pragma endscop\n}\n",
        );
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        let (split, notes) = split(&isl, &scop).unwrap().expect("splits");
        assert_eq!(split.stmts.len(), 9, "{:?}", notes);
        assert!(notes[0].contains("9 pieces"), "{}", notes[0]);
        // The pieces partition the instances: their domains are disjoint
        // and together the original's.
        let mut union = isl
            .set(&scop.stmts[0].domain)
            .unwrap()
            .subtract(isl.set(&scop.stmts[0].domain).unwrap())
            .unwrap();
        let mut count = 0;
        for st in &split.stmts {
            let d = isl
                .set(&st.domain)
                .unwrap()
                .set_tuple_name(&scop.stmts[0].name)
                .unwrap();
            let overlap = union.copy().unwrap().intersect(d.copy().unwrap()).unwrap();
            assert!(overlap.is_empty().unwrap());
            union = union.union(d).unwrap();
            count += 1;
            assert!(st.writes[0].relation.contains(&format!("{}[", st.name)));
        }
        assert_eq!(count, 9);
        assert!(union
            .is_equal(&isl.set(&scop.stmts[0].domain).unwrap())
            .unwrap());
    }

    #[test]
    fn a_matrix_product_is_left_whole() {
        let scop = scop_of(
            "split-mm",
            "void f(int n, double C[restrict const static n][n], double A[restrict const static n][n], double B[restrict const static n][n]) {\n#pragma scop\nfor (int i = 0; i < n; i++)\n for (int j = 0; j < n; j++)\n  for (int k = 0; k < n; k++)\n   C[i][j] += A[i][k] * B[k][j];\n#pragma endscop\n}\n",
        );
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        assert!(split(&isl, &scop).unwrap().is_none());
    }

    #[test]
    fn lu_is_left_whole() {
        // The writers of what other instances read are a full-dimensional
        // set (every `j < i` row element is read later): no hyperplane.
        let scop = scop_of(
            "split-lu",
            "void f(int n, double A[restrict const static n][n]) {\n#pragma scop\nfor (int i = 0; i < n; i++)\n for (int j = i; j < n; j++)\n  for (int k = 0; k < i; k++)\n   A[i][j] -= A[i][k] * A[k][j];\n#pragma endscop\n}\n",
        );
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        assert!(split(&isl, &scop).unwrap().is_none());
    }
}
