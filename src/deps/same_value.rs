//! Stores of one value in any order: bfs's `if (updating[tid]) { mask[tid]
//! = true; stop = true; ... }` writes `stop` from every iteration that
//! takes the branch, and nothing in the region reads it. The order of such
//! writes decides nothing: whichever instance writes last leaves the same
//! value, and where none runs the old value stays. Their output
//! dependences are left out, so the loop is parallel (it ran on one GPU
//! thread); every thread stores the value, as the OpenMP code written for
//! bfs does.
//!
//! An array (or scalar) qualifies when no statement of the region reads
//! it, and every write of it is a plain assignment (`=`, not `+=`) of one
//! and the same literal, in a statement of its own or inside a compound
//! statement; a call statement that may write it, anywhere, disqualifies
//! it.

use crate::front::syntax::{AssignOp, Expr, ExprKind, Stmt, UnOp};
use crate::scop::{Scop, StmtBody};

/// The arrays of `scop` whose every write stores one literal that no
/// statement reads.
pub fn arrays(scop: &Scop) -> Vec<String> {
    let mut out = Vec::new();
    for a in scop.arrays.iter().filter(|a| a.written) {
        let name = a.name.as_str();
        if scop
            .stmts
            .iter()
            .any(|s| s.reads.iter().any(|r| r.array == name))
        {
            continue;
        }
        let mut value: Option<Literal> = None;
        let mut stores_one_value = true;
        for s in scop
            .stmts
            .iter()
            .filter(|s| s.writes.iter().any(|w| w.array == name))
        {
            let ok = match &s.body {
                StmtBody::Assign { lhs, op, rhs } => store(lhs, *op, rhs, name, &mut value),
                StmtBody::Compound(body) => body.iter().all(|st| stores_in(st, name, &mut value)),
                StmtBody::Call { .. } => false,
            };
            if !ok {
                stores_one_value = false;
                break;
            }
        }
        if stores_one_value && value.is_some() {
            out.push(a.name.clone());
        }
    }
    out
}

/// A literal as written: an integer with its suffix (`-1` and `-1u` are
/// other values), or a floating-point literal's text, each negated or
/// not. Literals that C converts to one stored value but are written
/// differently (`1`, `1.0`) count as different: the rule stays on the
/// safe side.
#[derive(PartialEq, Debug)]
enum Literal {
    Int {
        value: i64,
        text: String,
        negated: bool,
    },
    Float {
        text: String,
        negated: bool,
    },
}

fn literal(e: &Expr) -> Option<Literal> {
    match &e.kind {
        ExprKind::Int(v, t) => Some(Literal::Int {
            value: *v,
            text: t.to_ascii_lowercase(),
            negated: false,
        }),
        ExprKind::Float(t) => Some(Literal::Float {
            text: t.clone(),
            negated: false,
        }),
        ExprKind::Unary(UnOp::Neg, a) => match literal(a)? {
            Literal::Int {
                value,
                text,
                negated: false,
            } => Some(Literal::Int {
                value,
                text,
                negated: true,
            }),
            Literal::Float {
                text,
                negated: false,
            } => Some(Literal::Float {
                text,
                negated: true,
            }),
            _ => None,
        },
        _ => None,
    }
}

/// The array an assignment's left-hand side writes.
fn root(lhs: &Expr) -> Option<&str> {
    let mut cur = lhs;
    while let ExprKind::Index(b, _) = &cur.kind {
        cur = b;
    }
    match &cur.kind {
        ExprKind::Ident(n) => Some(n),
        _ => None,
    }
}

/// Whether the assignment `lhs op rhs` leaves `name` alone or stores the
/// one literal in it (`value`, set by the first store).
fn store(lhs: &Expr, op: AssignOp, rhs: &Expr, name: &str, value: &mut Option<Literal>) -> bool {
    if root(lhs) != Some(name) {
        return true;
    }
    if op != AssignOp::Assign {
        return false;
    }
    let Some(v) = literal(rhs) else {
        return false;
    };
    match value {
        Some(seen) => *seen == v,
        None => {
            *value = Some(v);
            true
        }
    }
}

/// `store` over the statements of a compound statement.
fn stores_in(s: &Stmt, name: &str, value: &mut Option<Literal>) -> bool {
    match s {
        Stmt::Assign { lhs, op, rhs, .. } => store(lhs, *op, rhs, name, value),
        Stmt::For { body, .. } | Stmt::While { body, .. } => {
            body.iter().all(|s| stores_in(s, name, value))
        }
        Stmt::If { then_, else_, .. } => {
            then_.iter().chain(else_).all(|s| stores_in(s, name, value))
        }
        Stmt::Call { .. } => false,
        _ => true,
    }
}
