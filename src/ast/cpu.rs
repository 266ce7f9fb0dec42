//! Code structure of the CPU version (`map::cpu`): isl's AST of the tiled
//! tree, each loop of a `pencilc_omp_<k>` mark an `Ast::Parallel`.

use super::executed::ReadBack;
use super::{convert_node, fresh_prefix_beside, Ast, STAGE};
use crate::ast::AExpr;
use crate::deps::DependenceGraph;
use crate::diag::{Diagnostic, Result};
use crate::front::affine::isl_name;
use crate::isl::ast_build::{node_from_schedule, BuildAt};
use crate::isl::{Isl, IslResultExt};
use crate::map::cpu::{CpuMapping, ParallelLoop, OMP_MARK};
use crate::scop::Scop;
use isl_rs::ASTNode;

/// The CPU version's code: loops over the statements, OpenMP's parallel
/// loops marked; read back and checked against `deps` (`executed`).
pub fn generate_cpu(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    mapping: CpuMapping,
) -> Result<(Ast, ReadBack)> {
    isl.reset_budget();
    isl.set_id_casts(
        scop.value_types
            .iter()
            .filter_map(|(n, _)| Some((isl_name(n), scop.bound_cast(n)?)))
            .collect(),
    );
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    let prefix = fresh_prefix_beside(scop, &[], "c");
    let mut no_hook = |_: &str, _: &BuildAt| -> Option<String> { None };
    let node = node_from_schedule(isl, mapping.tree, context, &prefix, &mut no_hook)?;
    let ast = convert_cpu(isl, scop, &node, &mapping.loops, &prefix)?;
    let read_back = super::executed::check_sequential_code(isl, scop, deps, &ast)?;
    Ok((ast, read_back))
}

fn convert_cpu(
    isl: &Isl,
    scop: &Scop,
    n: &ASTNode,
    loops: &[ParallelLoop],
    prefix: &str,
) -> Result<Ast> {
    let mut on_user = |name: &str, args: Vec<AExpr>| -> Result<Ast> {
        let stmt =
            scop.stmts.iter().find(|s| s.name == name).ok_or_else(|| {
                Diagnostic::internal(STAGE, format!("unknown statement {}", name))
            })?;
        Ok(Ast::User {
            stmt: stmt.id,
            args,
            promoted: vec![],
        })
    };
    let mut on_mark = |m: &ASTNode| -> Result<Option<Ast>> {
        let name = m
            .mark_get_id()
            .isl(isl, STAGE)?
            .get_name()
            .isl(isl, STAGE)?
            .to_string();
        let Some(k) = name
            .strip_prefix(OMP_MARK)
            .and_then(|k| k.parse::<usize>().ok())
        else {
            return Ok(None);
        };
        let lp = loops
            .get(k)
            .ok_or_else(|| Diagnostic::internal(STAGE, format!("unknown mark {}", name)))?;
        let body = convert_cpu(
            isl,
            scop,
            &m.mark_get_node().isl(isl, STAGE)?,
            loops,
            prefix,
        )?;
        let iters: Vec<String> = lp
            .depths
            .iter()
            .map(|d| format!("{}{}", prefix, d))
            .collect();
        Ok(Some(parallel_loops(body, lp, &iters)))
    };
    convert_node(isl, n, &mut on_user, &mut on_mark)
}

/// The first real loops over the mark's parallel dimensions (iterators
/// `iters`), each an `Ast::Parallel`. isl may put guards and several
/// loops (a union split into pieces) between the mark and them; a
/// dimension of one value (a `Let`) passes the pragma on to the next
/// parallel one; any other loop, or a dimension isl dropped, ends the
/// search (the code below runs sequentially in the enclosing iteration).
fn parallel_loops(ast: Ast, lp: &ParallelLoop, iters: &[String]) -> Ast {
    let inner = |b: Box<Ast>| Box::new(parallel_loops(*b, lp, iters));
    match ast {
        Ast::Block(items) => Ast::Block(
            items
                .into_iter()
                .map(|a| parallel_loops(a, lp, iters))
                .collect(),
        ),
        Ast::If { cond, then_, else_ } => Ast::If {
            cond,
            then_: inner(then_),
            else_: else_.map(inner),
        },
        Ast::Let { iter, value, body } if iters.contains(&iter) => Ast::Let {
            iter,
            value,
            body: inner(body),
        },
        Ast::For {
            iter,
            init,
            cond,
            inc,
            body,
        } if iters.contains(&iter) => {
            if canonical(&iter, &init, &cond, &inc) {
                Ast::Parallel {
                    reductions: lp.reductions.clone(),
                    locals: lp.locals.clone(),
                    body: Box::new(Ast::For {
                        iter,
                        init,
                        cond,
                        inc,
                        body: Box::new(atomic_updates(*body, &lp.atomic_stmts)),
                    }),
                }
            } else {
                Ast::For {
                    iter,
                    init,
                    cond,
                    inc,
                    body: inner(body),
                }
            }
        }
        other => other,
    }
}

/// OpenMP's canonical loop form: `i < e`, `i <= e` (or `>`, `>=`) with
/// `e` and the start free of `i`, a constant step.
fn canonical(iter: &str, init: &AExpr, cond: &AExpr, inc: &AExpr) -> bool {
    use super::AOp;
    let mentions = |e: &AExpr| e.mentions(iter);
    let test = match cond {
        AExpr::Op(AOp::Le | AOp::Lt | AOp::Ge | AOp::Gt, args) if args.len() == 2 => {
            args[0] == AExpr::Id(iter.to_string()) && !mentions(&args[1])
        }
        _ => false,
    };
    test && !mentions(init) && matches!(inc, AExpr::Int(s) if *s > 0)
}

/// `ast` with each instance of the statements `stmts` an `Ast::Atomic`.
fn atomic_updates(ast: Ast, stmts: &[usize]) -> Ast {
    let inner = |b: Box<Ast>| Box::new(atomic_updates(*b, stmts));
    match ast {
        Ast::User { ref stmt, .. } if stmts.contains(&stmt.0) => Ast::Atomic(Box::new(ast)),
        Ast::Block(items) => Ast::Block(
            items
                .into_iter()
                .map(|a| atomic_updates(a, stmts))
                .collect(),
        ),
        Ast::For {
            iter,
            init,
            cond,
            inc,
            body,
        } => Ast::For {
            iter,
            init,
            cond,
            inc,
            body: inner(body),
        },
        Ast::Let { iter, value, body } => Ast::Let {
            iter,
            value,
            body: inner(body),
        },
        Ast::If { cond, then_, else_ } => Ast::If {
            cond,
            then_: inner(then_),
            else_: else_.map(inner),
        },
        other => other,
    }
}
