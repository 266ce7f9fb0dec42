//! How deep a region's code nests brackets once printed in a kernel.
//!
//! The OpenCL C and CUDA compilers that build kernels are clang-based and
//! stop at 256 nested parentheses, brackets and braces (`-fbracket-depth`,
//! which no OpenCL build option can raise). gcc has no such limit, so valid
//! C (2,000 nested `if`s, a generator's deeply nested expression) can make
//! a kernel that does not build. Such a region keeps the user's code on the
//! host, where it compiles as written.

use crate::front::syntax::{Expr, ExprKind, Stmt};

/// The most brackets a region's statements may nest: the rest of the 256
/// are left to the kernel's own code around them (the function, tile and
/// point loops, guards, private-copy blocks).
pub const MAX_STATEMENT_DEPTH: usize = 160;

/// The deepest bracket nesting of the statements' code as a kernel prints
/// it, and the statement where it is reached. Conditions and loops of
/// static control become the iteration domains, not code; what is
/// printed as written is a statement's expressions and the bodies of
/// statements with dynamic control.
pub fn depth(stmts: &[crate::scop::Statement]) -> (usize, Option<&crate::scop::Statement>) {
    stmts
        .iter()
        .map(|s| (body_depth(&s.body), Some(s)))
        .max_by_key(|(d, _)| *d)
        .unwrap_or((0, None))
}

fn body_depth(b: &crate::scop::StmtBody) -> usize {
    use crate::scop::StmtBody;
    match b {
        StmtBody::Assign { lhs, rhs, .. } => expr_depth(lhs).max(expr_depth(rhs)),
        StmtBody::Compound(body) => block_depth(body),
        StmtBody::Call { args, .. } => 1 + args.iter().map(expr_depth).max().unwrap_or(0),
    }
}

fn block_depth(body: &[Stmt]) -> usize {
    body.iter().map(stmt_depth).max().unwrap_or(0)
}

fn stmt_depth(s: &Stmt) -> usize {
    match s {
        // The header's parentheses and the body's braces.
        Stmt::For {
            init, cond, body, ..
        } => (1 + expr_depth(init).max(expr_depth(cond))).max(1 + block_depth(body)),
        Stmt::If {
            cond, then_, else_, ..
        } => (1 + expr_depth(cond))
            .max(1 + block_depth(then_))
            .max(1 + block_depth(else_)),
        Stmt::While { cond, body, .. } => (1 + expr_depth(cond)).max(1 + block_depth(body)),
        Stmt::Assign { lhs, rhs, .. } => expr_depth(lhs).max(expr_depth(rhs)),
        Stmt::Decl { var, init, .. } => var
            .dims
            .iter()
            .flatten()
            .map(|d| 1 + expr_depth(d))
            .chain(init.iter().map(expr_depth))
            .max()
            .unwrap_or(0),
        Stmt::Assume { cond, .. } => 1 + expr_depth(cond),
        Stmt::Kill { targets: args, .. } | Stmt::Call { args, .. } => {
            1 + args.iter().map(expr_depth).max().unwrap_or(0)
        }
        Stmt::Break(_) | Stmt::Continue(_) => 0,
    }
}

/// Brackets an expression nests: every call, subscript, cast and
/// conditional, and the parentheses the printer puts around an operand of
/// another operator (a chain of one operator, `a + b + c`, needs none).
fn expr_depth(e: &Expr) -> usize {
    let operand = |parent: &ExprKind, x: &Expr| {
        let parens = match (&x.kind, parent) {
            (ExprKind::Binary(o, ..), ExprKind::Binary(p, ..)) => o != p,
            (ExprKind::Binary(..) | ExprKind::Cond(..), _) => true,
            _ => false,
        };
        expr_depth(x) + usize::from(parens)
    };
    match &e.kind {
        ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Ident(_) => 0,
        ExprKind::Index(a, i) => expr_depth(a).max(1 + expr_depth(i)),
        ExprKind::Call(_, args) => 1 + args.iter().map(expr_depth).max().unwrap_or(0),
        ExprKind::Cast(_, a) => 1 + operand(&e.kind, a),
        ExprKind::Unary(_, a) => operand(&e.kind, a),
        ExprKind::Binary(_, a, b) => operand(&e.kind, a).max(operand(&e.kind, b)),
        ExprKind::Cond(a, b, c) => {
            1 + operand(&e.kind, a)
                .max(operand(&e.kind, b))
                .max(operand(&e.kind, c))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Loc;
    use crate::front::syntax::build::*;

    #[test]
    fn nested_ifs_count_one_each() {
        let mut s = Stmt::Break(Loc::unknown());
        for _ in 0..300 {
            s = Stmt::If {
                cond: id("c"),
                then_: vec![s],
                else_: vec![],
                loc: Loc::unknown(),
            };
        }
        assert_eq!(block_depth(&[s]), 300);
    }

    #[test]
    fn a_long_chain_of_one_operator_is_flat() {
        use crate::front::syntax::BinOp;
        let mut x = id("a");
        for _ in 0..1000 {
            x = e(ExprKind::Binary(BinOp::Add, Box::new(x), Box::new(id("b"))));
        }
        assert_eq!(expr_depth(&x), 0);
        let call = e(ExprKind::Call("f".into(), vec![x]));
        assert_eq!(expr_depth(&call), 1);
    }
}
