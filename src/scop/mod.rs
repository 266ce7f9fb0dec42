//! The polyhedral model of one region: statements with iteration domains,
//! original schedules and access relations, the arrays they touch, and the
//! parameters. All isl objects are kept in isl's text notation so that a
//! `Scop` is plain, deterministic data that any stage can re-read into its
//! own isl context (and that `--emit scop` prints as it is).
//!
//! Invariant: a `Scop` is immutable once built; later stages derive new
//! artefacts from it and never edit it.

mod build;

pub use build::PURE_FUNCTIONS;

pub use build::build_scop;

use crate::diag::Loc;
use crate::front::syntax::{AssignOp, Expr};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StmtId(pub usize);

#[derive(Clone, Debug)]
pub struct Scop {
    pub function: String,
    pub begin_line: u32,
    pub end_line: u32,
    pub loc: Loc,
    /// isl names of the parameters, sorted.
    pub params: Vec<String>,
    /// Constraints on the parameters, as an isl set (`[n] -> { : ... }`).
    pub context: String,
    pub arrays: Vec<Array>,
    pub stmts: Vec<Statement>,
}

#[derive(Clone, Debug)]
pub struct Array {
    pub name: String,
    /// Element type as C text.
    pub elem_type: String,
    /// Extents, outermost first; empty for a scalar.
    pub extents: Vec<Extent>,
    pub read: bool,
    pub written: bool,
    pub loc: Loc,
}

impl Array {
    pub fn is_scalar(&self) -> bool {
        self.extents.is_empty()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Extent {
    Const(i64),
    /// A size expression over variables of the enclosing function (a VLA),
    /// kept as C text plus the names it uses.
    Expr {
        c_text: String,
        names: Vec<String>,
    },
}

#[derive(Clone, Debug)]
pub struct Statement {
    pub id: StmtId,
    /// The isl tuple name, `S_<id>`.
    pub name: String,
    /// The C names of the enclosing loop iterators, outermost first.
    pub iterators: Vec<String>,
    /// `[params] -> { S_0[i, j] : ... }`
    pub domain: String,
    /// The original (2d+1) schedule, `[params] -> { S_0[i, j] -> [0, i, 0, j, 0] }`.
    pub schedule: String,
    pub reads: Vec<Access>,
    pub writes: Vec<Access>,
    pub lhs: Expr,
    pub op: AssignOp,
    pub rhs: Expr,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct Access {
    pub array: String,
    /// `[params] -> { S_0[i, j] -> A[o0, o1] : ... }`
    pub relation: String,
}

impl Scop {
    pub fn array(&self, name: &str) -> Option<&Array> {
        self.arrays.iter().find(|a| a.name == name)
    }

    pub fn param_prefix(&self) -> String {
        format!("[{}]", self.params.join(", "))
    }

    /// All statement domains as one isl union set.
    pub fn domain_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts.iter().map(|s| strip_params(&s.domain)),
        )
    }

    pub fn schedule_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts.iter().map(|s| strip_params(&s.schedule)),
        )
    }

    pub fn reads_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts
                .iter()
                .flat_map(|s| s.reads.iter().map(|a| strip_params(&a.relation))),
        )
    }

    pub fn writes_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts
                .iter()
                .flat_map(|s| s.writes.iter().map(|a| strip_params(&a.relation))),
        )
    }

    /// The text dump for `--emit scop`.
    pub fn dump(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "# region in `{}` at lines {}-{}\n",
            self.function, self.begin_line, self.end_line
        ));
        s.push_str(&format!("context: \"{}\"\n", self.context));
        s.push_str("arrays:\n");
        for a in &self.arrays {
            let ext: Vec<String> = a
                .extents
                .iter()
                .map(|e| match e {
                    Extent::Const(c) => c.to_string(),
                    Extent::Expr { c_text, .. } => c_text.clone(),
                })
                .collect();
            s.push_str(&format!(
                "  - {{ name: {}, type: {}, extents: [{}], read: {}, written: {} }}\n",
                a.name,
                a.elem_type,
                ext.join(", "),
                a.read,
                a.written
            ));
        }
        s.push_str("statements:\n");
        for st in &self.stmts {
            s.push_str(&format!("  - name: {}  # line {}\n", st.name, st.loc.line));
            s.push_str(&format!("    domain: \"{}\"\n", st.domain));
            s.push_str(&format!("    schedule: \"{}\"\n", st.schedule));
            for r in &st.reads {
                s.push_str(&format!("    read: \"{}\"\n", r.relation));
            }
            for w in &st.writes {
                s.push_str(&format!("    write: \"{}\"\n", w.relation));
            }
        }
        s
    }
}

/// Removes a leading `[params] -> ` from an isl text.
fn strip_params(t: &str) -> &str {
    match t.find("->") {
        Some(p)
            if t.trim_start().starts_with('[')
                && t[..p].trim_end().ends_with(']')
                && !t[..p].contains('{') =>
        {
            t[p + 2..].trim_start()
        }
        _ => t,
    }
}

fn union_text<'a>(params: &[String], parts: impl Iterator<Item = &'a str>) -> String {
    let inner: Vec<&str> = parts
        .map(|p| {
            p.trim()
                .trim_start_matches('{')
                .trim_end_matches('}')
                .trim()
        })
        .filter(|p| !p.is_empty())
        .collect();
    format!("[{}] -> {{ {} }}", params.join(", "), inner.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn strip_and_union() {
        assert_eq!(
            strip_params("[n] -> { S_0[i] : 0 <= i < n }"),
            "{ S_0[i] : 0 <= i < n }"
        );
        assert_eq!(strip_params("{ S_0[i] -> A[i] }"), "{ S_0[i] -> A[i] }");
        let u = union_text(&["n".into()], ["{ S_0[i] }", "{ S_1[i] }"].into_iter());
        assert_eq!(u, "[n] -> { S_0[i]; S_1[i] }");
    }
}
