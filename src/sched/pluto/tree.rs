//! The scheduler's tree in isl's schedule-tree notation, with the
//! tile-level wavefront for bands that have no parallel row.
//!
//! A permutable band `(φ_0, …, φ_m)` with no parallel member (a time-skewed
//! stencil) is written as three nested bands:
//! `W = Σ_k ⌊φ_k / T⌋` (sequential), then `(⌊φ_1 / T⌋, …, ⌊φ_m / T⌋)`
//! (parallel: two tiles with the same `W` are never ordered by a
//! dependence, because every dependence has non-negative distance along
//! each `φ_k`, hence along each tile coordinate), then the point band
//! `(φ_0, …, φ_m)`. The mapper turns the parallel tile band into a kernel
//! launched once per wavefront.

use super::Problem;
use super::{Band, Node, Row};

/// Marks the parallel tile band of a wavefront: its members already count
/// tiles, so the mapper gives each block one tile instead of tiling again.
pub const WAVEFRONT_MARK: &str = "pencilc_wavefront";

/// `coef·it + shift` as isl text.
pub fn row_text(r: &Row, it: &[String]) -> String {
    let mut terms: Vec<String> = Vec::new();
    for (c, v) in r.coef.iter().zip(it) {
        match *c {
            0 => {}
            1 => terms.push(v.clone()),
            -1 => terms.push(format!("-{}", v)),
            c => terms.push(format!("{}*{}", c, v)),
        }
    }
    if r.shift != 0 || terms.is_empty() {
        terms.push(r.shift.to_string());
    }
    terms.join(" + ").replace("+ -", "- ")
}

/// `[n, m] -> ` before an isl object, or nothing without parameters.
pub fn params_arrow(scop: &Problem) -> String {
    if scop.params.is_empty() {
        String::new()
    } else {
        format!("[{}] -> ", scop.params.join(", "))
    }
}

pub(super) fn iterators(n: usize) -> Vec<String> {
    (0..n).map(|k| format!("i{}", k)).collect()
}

/// `S_3[i0, i1]`: statement `s` with its iterators.
pub fn statement_tuple(scop: &Problem, s: usize) -> String {
    tuple(scop, s)
}

fn tuple(scop: &Problem, s: usize) -> String {
    format!(
        "{}[{}]",
        scop.stmts[s].0,
        iterators(scop.stmts[s].1).join(", ")
    )
}

/// One band member as a union piecewise affine function, each statement's
/// expression given by `expr`.
fn member(scop: &Problem, stmts: &[usize], expr: impl Fn(usize, &[String]) -> String) -> String {
    let parts: Vec<String> = stmts
        .iter()
        .map(|&s| {
            let it = iterators(scop.stmts[s].1);
            format!("{} -> [({})]", tuple(scop, s), expr(s, &it))
        })
        .collect();
    format!("{{ {} }}", parts.join("; "))
}

fn band_text(
    scop: &Problem,
    members: &[String],
    coincident: &[bool],
    permutable: bool,
    atomic: bool,
    child: String,
) -> String {
    let flags: Vec<&str> = coincident
        .iter()
        .map(|&c| if c { "1" } else { "0" })
        .collect();
    let mut s = format!(
        "{{ schedule: \"{}[{}]\", permutable: {}, coincident: [ {} ]",
        params_arrow(scop),
        members.join(", "),
        if permutable { 1 } else { 0 },
        flags.join(", ")
    );
    if atomic {
        // One loop per member without separating the boundary cases:
        // skewed point loops inside a wavefront tile otherwise make isl's
        // AST generator enumerate many special cases (slowly).
        s.push_str(", options: \"{ atomic[x] }\"");
    }
    if !child.is_empty() {
        s.push_str(", child: ");
        s.push_str(&child);
    }
    s.push_str(" }");
    s
}

fn filter_text(scop: &Problem, stmts: &[usize]) -> String {
    let t: Vec<String> = stmts.iter().map(|&s| tuple(scop, s)).collect();
    format!("{}{{ {} }}", params_arrow(scop), t.join("; "))
}

fn node_text(scop: &Problem, node: &Node, tile: i64) -> String {
    match node {
        Node::Leaf => String::new(),
        Node::Sequence(children) => {
            let items: Vec<String> = children
                .iter()
                .map(|(stmts, n)| {
                    let c = node_text(scop, n, tile);
                    if c.is_empty() {
                        format!("{{ filter: \"{}\" }}", filter_text(scop, stmts))
                    } else {
                        format!(
                            "{{ filter: \"{}\", child: {} }}",
                            filter_text(scop, stmts),
                            c
                        )
                    }
                })
                .collect();
            format!("{{ sequence: [ {} ] }}", items.join(", "))
        }
        Node::Band(b) => band_node_text(scop, b, tile),
    }
}

fn needs_wavefront(b: &Band) -> bool {
    b.permutable && b.rows.len() >= 2 && b.coincident.iter().all(|c| !c)
}

fn band_node_text(scop: &Problem, b: &Band, tile: i64) -> String {
    let child = node_text(scop, &b.child, tile);
    let point: Vec<String> = b
        .rows
        .iter()
        .map(|r| member(scop, &b.stmts, |s, it| row_text(&r[&s], it)))
        .collect();
    if !needs_wavefront(b) {
        return band_text(scop, &point, &b.coincident, b.permutable, false, child);
    }
    let tile_of = |r: &std::collections::BTreeMap<usize, Row>, s: usize, it: &[String]| {
        format!("floor(({})/{})", row_text(&r[&s], it), tile)
    };
    let wave = member(scop, &b.stmts, |s, it| {
        b.rows
            .iter()
            .map(|r| tile_of(r, s, it))
            .collect::<Vec<_>>()
            .join(" + ")
    });
    let tiles: Vec<String> = b.rows[1..]
        .iter()
        .map(|r| member(scop, &b.stmts, |s, it| tile_of(r, s, it)))
        .collect();
    let point_band = band_text(scop, &point, &vec![false; point.len()], true, true, child);
    let tile_band = band_text(
        scop,
        &tiles,
        &vec![true; tiles.len()],
        true,
        false,
        point_band,
    );
    let marked = format!("{{ mark: \"{}\", child: {} }}", WAVEFRONT_MARK, tile_band);
    band_text(scop, &[wave], &[false], true, false, marked)
}

/// The whole schedule tree in isl notation.
pub fn to_isl_tree(scop: &Problem, node: &Node, wavefront_tile: i64) -> String {
    let child = node_text(scop, node, wavefront_tile);
    let domain = scop.domain.replace('"', "\\\"");
    if child.is_empty() {
        format!("{{ domain: \"{}\" }}", domain)
    } else {
        format!("{{ domain: \"{}\", child: {} }}", domain, child)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_text_is_isl_syntax() {
        let it = vec!["i0".to_string(), "i1".to_string()];
        let r = Row {
            coef: vec![2, -1],
            shift: 0,
        };
        assert_eq!(row_text(&r, &it), "2*i0 - i1");
        let r = Row {
            coef: vec![0, 0],
            shift: 0,
        };
        assert_eq!(row_text(&r, &it), "0");
        let r = Row {
            coef: vec![1, 0],
            shift: -3,
        };
        assert_eq!(row_text(&r, &it), "i0 - 3");
    }
}
