//! What one instance of each statement does, read from its body: the
//! array elements it reads and writes (with their subscripts, to tell a
//! warp's coalesced accesses from scattered ones) and its arithmetic.

use crate::front::syntax::{AssignOp, BinOp, Expr, ExprKind};
use crate::scop::{Scop, StmtBody};

/// One access of a statement instance to an array element.
#[derive(Clone, Debug)]
pub struct StmtAccess {
    pub array: String,
    /// Bytes of one element.
    pub elem_bytes: f64,
    /// Subscripts, outermost first, where the body spells them (`None`
    /// for compound statements and calls, whose accesses the model only
    /// knows as relations).
    pub subscripts: Option<Vec<Expr>>,
    /// Elements between consecutive values of each subscript (row-major,
    /// the model's inner extents), outermost first; `None` where an inner
    /// extent is not a constant.
    pub strides: Option<Vec<i64>>,
    /// A scalar that the region only reads reaches kernels as an argument.
    pub is_argument: bool,
    /// A store (a thread does not wait for it) rather than a load.
    pub write: bool,
}

/// One statement's instance.
#[derive(Clone, Debug, Default)]
pub struct StmtCost {
    /// The C names of its iterators, in the order of `Ast::User`'s args.
    pub iterators: Vec<String>,
    pub accesses: Vec<StmtAccess>,
    /// Floating-point operations (single and double precision; integer
    /// arithmetic of a statement counts with single precision).
    pub flops64: f64,
    pub flops32: f64,
}

pub use crate::scop::elem_bytes;

/// The cost of one instance of every statement, by `StmtId` index.
pub fn stmt_costs(scop: &Scop) -> Vec<StmtCost> {
    let mut out = vec![StmtCost::default(); scop.stmts.len()];
    for st in &scop.stmts {
        let mut c = StmtCost {
            iterators: st.iterators.clone(),
            ..Default::default()
        };
        let mut flops = 0.0;
        let mut precision64 = true;
        match &st.body {
            StmtBody::Assign { lhs, op, rhs } => {
                collect(scop, lhs, &mut c.accesses);
                // The last access the left-hand side makes is its store;
                // its subscripts' accesses are loads.
                if let Some(a) = c.accesses.last_mut() {
                    a.write = true;
                }
                if *op != AssignOp::Assign {
                    // `x += e` reads x too, and adds.
                    collect(scop, lhs, &mut c.accesses);
                    flops += 1.0;
                }
                collect(scop, rhs, &mut c.accesses);
                flops += arithmetic(rhs);
                precision64 = base_array(lhs)
                    .and_then(|a| scop.array(a))
                    .is_none_or(|a| elem_bytes(&a.elem_type) >= 8.0);
            }
            StmtBody::Compound(_) | StmtBody::Call { .. } => {
                // Only the relations are known: one element per access.
                let n_reads = st.reads.len();
                for (k, a) in st.reads.iter().chain(st.writes.iter()).enumerate() {
                    if let Some(arr) = scop.array(&a.array) {
                        c.accesses.push(StmtAccess {
                            array: a.array.clone(),
                            elem_bytes: elem_bytes(&arr.elem_type),
                            subscripts: None,
                            strides: None,
                            is_argument: arr.is_scalar() && !arr.written,
                            write: k >= n_reads,
                        });
                    }
                }
                flops += st.writes.len().max(1) as f64;
            }
        }
        if precision64 {
            c.flops64 = flops;
        } else {
            c.flops32 = flops;
        }
        if let Some(slot) = out.get_mut(st.id.0) {
            *slot = c;
        }
    }
    out
}

/// The array `e` accesses, if it is an access.
fn base_array(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        ExprKind::Index(b, _) => base_array(b),
        _ => None,
    }
}

/// Arithmetic operators outside subscripts, and calls (a math function
/// counts as one operation: the model's single-thread rate absorbs the
/// rest).
fn arithmetic(e: &Expr) -> f64 {
    match &e.kind {
        ExprKind::Binary(op, a, b) => {
            let own = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) as u32 as f64;
            own + arithmetic(a) + arithmetic(b)
        }
        ExprKind::Index(..) => 0.0,
        ExprKind::Call(_, args) => 1.0 + args.iter().map(arithmetic).sum::<f64>(),
        _ => e.children().into_iter().map(arithmetic).sum(),
    }
}

/// The accesses `e` makes to the region's arrays, subscripts' own
/// accesses included.
fn collect(scop: &Scop, e: &Expr, out: &mut Vec<StmtAccess>) {
    match &e.kind {
        ExprKind::Ident(n) => {
            if let Some(a) = scop.array(n) {
                out.push(StmtAccess {
                    array: n.clone(),
                    elem_bytes: elem_bytes(&a.elem_type),
                    subscripts: Some(Vec::new()),
                    strides: Some(Vec::new()),
                    is_argument: a.is_scalar() && !a.written,
                    write: false,
                });
            }
        }
        ExprKind::Index(..) => {
            let mut subs = Vec::new();
            let mut base = e;
            while let ExprKind::Index(b, s) = &base.kind {
                subs.push((**s).clone());
                base = b;
            }
            subs.reverse();
            for s in &subs {
                collect(scop, s, out);
            }
            let Some(name) = base_array(base) else {
                return;
            };
            let Some(a) = scop.array(name) else {
                return;
            };
            // Row-major: the element after the last subscript's is the
            // next one; each outer one steps over the inner extents.
            let mut strides = vec![1i64; subs.len()];
            let mut known = a.extents.len() == subs.len();
            for d in (0..subs.len().saturating_sub(1)).rev() {
                match a.extents.get(d + 1) {
                    Some(crate::scop::Extent::Const(c)) => {
                        strides[d] = strides[d + 1].saturating_mul(*c)
                    }
                    _ => known = false,
                }
            }
            out.push(StmtAccess {
                array: name.to_string(),
                elem_bytes: elem_bytes(&a.elem_type),
                subscripts: Some(subs),
                strides: known.then_some(strides),
                is_argument: false,
                write: false,
            });
        }
        _ => e.children().into_iter().for_each(|c| collect(scop, c, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_sizes() {
        assert_eq!(elem_bytes("double"), 8.0);
        assert_eq!(elem_bytes("float"), 4.0);
        assert_eq!(elem_bytes("int"), 4.0);
        assert_eq!(elem_bytes("long int"), 8.0);
        assert_eq!(elem_bytes("unsigned char"), 1.0);
    }
}
