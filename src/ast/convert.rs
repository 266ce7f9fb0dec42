//! isl's AST to pencilc's `Ast`: host code with its launches, kernel bodies
//! with their statements and copies, and isl's expressions as `AExpr`.

use super::*;
use crate::isl::IslText;

/// Host code: loops and conditions, with a launch at each kernel mark.
pub(super) fn convert_host(
    isl: &Isl,
    n: &ASTNode,
    mapped: &MappedSchedule,
    occ: &mut [Occurrence],
    launches: &mut Vec<Launch>,
) -> Result<Ast> {
    let mut on_mark = |mark: &ASTNode| -> Result<Option<Ast>> {
        let ann = mark
            .get_annotation()
            .ok()
            .and_then(|a| a.get_name().ok().map(|s| s.to_string()));
        let i: usize = ann
            .as_deref()
            .and_then(|a| a.strip_prefix("launch_"))
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| Diagnostic::internal(STAGE, "kernel mark without launch information"))?;
        let o = &mut occ[i];
        let Some(body) = o.body.take() else {
            // A launch without instances (isl could not rule it out on
            // the host): nothing to run.
            return Ok(Some(Ast::Block(vec![])));
        };
        let index = launches.len();
        let guard = o.guard.take();
        launches.push(Launch {
            index,
            plan: mapped.kernels[o.kernel].clone(),
            grid: o.grid.clone(),
            host_values: o.host_values.clone(),
            block_offsets: o.block_offsets.clone(),
            body,
            locals: memory::locals_of(&mapped.kernels[o.kernel]),
            updated_elements: std::mem::take(&mut o.updated),
            plays_launches: false,
        });
        Ok(Some(match guard {
            Some(cond) => Ast::If {
                cond,
                then_: Box::new(Ast::Launch(index)),
                else_: None,
            },
            None => Ast::Launch(index),
        }))
    };
    convert_node(
        isl,
        n,
        &mut |_, _| {
            Err(Diagnostic::internal(
                STAGE,
                "a statement outside every kernel",
            ))
        },
        &mut on_mark,
    )
}

/// Kernel code: marks are transparent, statements are instances.
pub(super) fn convert_device(isl: &Isl, scop: &Scop, n: &ASTNode) -> Result<Ast> {
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
    let mut on_mark = |_: &ASTNode| -> Result<Option<Ast>> { Ok(None) };
    convert_node(isl, n, &mut on_user, &mut on_mark)
}

/// Converts an isl AST. `on_mark` may replace a mark node (returning
/// `None` descends into it); `on_user` converts statement calls.
pub(super) fn convert_node(
    isl: &Isl,
    n: &ASTNode,
    on_user: &mut dyn FnMut(&str, Vec<AExpr>) -> Result<Ast>,
    on_mark: &mut dyn FnMut(&ASTNode) -> Result<Option<Ast>>,
) -> Result<Ast> {
    match ast_node_kind(n) {
        AstNodeKind::Block => {
            let list = n.block_get_children().isl(isl, STAGE)?;
            let k = list.size().isl(isl, STAGE)?;
            let mut items = Vec::new();
            for i in 0..k {
                let c = list.get_at(i).isl(isl, STAGE)?;
                match convert_node(isl, &c, on_user, on_mark)? {
                    Ast::Block(inner) => items.extend(inner),
                    other => items.push(other),
                }
            }
            Ok(Ast::Block(items))
        }
        AstNodeKind::For => {
            let iter = id_name(isl, &n.for_get_iterator().isl(isl, STAGE)?)?;
            let init = convert_expr(isl, &n.for_get_init().isl(isl, STAGE)?)?;
            let body = Box::new(convert_node(
                isl,
                &n.for_get_body().isl(isl, STAGE)?,
                on_user,
                on_mark,
            )?);
            if n.for_is_degenerate().isl(isl, STAGE)? {
                return Ok(Ast::Let {
                    iter,
                    value: init,
                    body,
                });
            }
            let cond = convert_expr(isl, &n.for_get_cond().isl(isl, STAGE)?)?;
            let inc = convert_expr(isl, &n.for_get_inc().isl(isl, STAGE)?)?;
            Ok(Ast::For {
                iter,
                init,
                cond,
                inc,
                body,
            })
        }
        AstNodeKind::If => {
            let cond = convert_expr(isl, &n.if_get_cond().isl(isl, STAGE)?)?;
            let then_ = Box::new(convert_node(
                isl,
                &n.if_get_then_node().isl(isl, STAGE)?,
                on_user,
                on_mark,
            )?);
            let else_ = if n.if_has_else_node().isl(isl, STAGE)? {
                Some(Box::new(convert_node(
                    isl,
                    &n.if_get_else_node().isl(isl, STAGE)?,
                    on_user,
                    on_mark,
                )?))
            } else {
                None
            };
            Ok(Ast::If { cond, then_, else_ })
        }
        AstNodeKind::User => {
            let call = convert_expr(isl, &n.user_get_expr().isl(isl, STAGE)?)?;
            match call {
                AExpr::Op(AOp::Call, mut args) if !args.is_empty() => {
                    let name = match args.remove(0) {
                        AExpr::Id(s) => s,
                        _ => {
                            return Err(Diagnostic::internal(
                                STAGE,
                                "user node without a statement name",
                            ))
                        }
                    };
                    on_user(&name, args)
                }
                _ => Err(Diagnostic::internal(STAGE, "unexpected user node")),
            }
        }
        AstNodeKind::Mark => match on_mark(n)? {
            Some(a) => Ok(a),
            None => {
                let body =
                    convert_node(isl, &n.mark_get_node().isl(isl, STAGE)?, on_user, on_mark)?;
                // Memory marks carry the index of their copies (`mem_<i>`).
                // isl returns no annotation as a null id.
                let site = n
                    .get_annotation()
                    .ok()
                    .filter(|a| a.ptr != 0)
                    .and_then(|a| a.get_name().ok().map(|s| s.to_string()))
                    .and_then(|a| a.strip_prefix("mem_").and_then(|i| i.parse().ok()));
                Ok(match site {
                    Some(index) => Ast::Site {
                        index,
                        body: Box::new(body),
                    },
                    None => body,
                })
            }
        },
        AstNodeKind::Error => Err(isl.last_error(STAGE)),
    }
}

/// isl's expression as C, with the divisions whose numerators could
/// overflow the index type computed in `long` (`overflow`).
pub fn convert_expr(isl: &Isl, e: &ASTExpr) -> Result<AExpr> {
    Ok(super::overflow::widen_numerators(convert_raw(isl, e)?))
}

fn convert_raw(isl: &Isl, e: &ASTExpr) -> Result<AExpr> {
    match e.get_type().isl(isl, STAGE)? {
        ASTExprType::Id => {
            let name = id_name(isl, e)?;
            // isl computes with integers; C would compute `m - n` in
            // unsigned arithmetic for an unsigned `n`, and `2 * n` in
            // `int` for an `int n` where the bounds need `long`.
            Ok(match isl.id_cast(&name) {
                Some(t) => AExpr::Op(
                    AOp::Call,
                    vec![AExpr::Id(format!("({})", t)), AExpr::Id(name)],
                ),
                None => AExpr::Id(name),
            })
        }
        ASTExprType::Int => {
            let v = e.int_get_val().isl(isl, STAGE)?;
            let s = v.text(isl, STAGE)?;
            s.parse::<i64>().map(AExpr::Int).map_err(|_| {
                Diagnostic::internal(STAGE, format!("integer constant {} out of range", s))
            })
        }
        ASTExprType::Op => {
            let op = match e.op_get_type().isl(isl, STAGE)? {
                ASTExprOpType::And | ASTExprOpType::AndThen => AOp::And,
                ASTExprOpType::Or | ASTExprOpType::OrElse => AOp::Or,
                ASTExprOpType::Max => AOp::Max,
                ASTExprOpType::Min => AOp::Min,
                ASTExprOpType::Minus => AOp::Neg,
                ASTExprOpType::Add => AOp::Add,
                ASTExprOpType::Sub => AOp::Sub,
                ASTExprOpType::Mul => AOp::Mul,
                ASTExprOpType::Div => AOp::Div,
                ASTExprOpType::FdivQ => AOp::FloorDiv,
                ASTExprOpType::PdivQ => AOp::Div,
                ASTExprOpType::PdivR | ASTExprOpType::ZdivR => AOp::Rem,
                ASTExprOpType::Cond | ASTExprOpType::Select => AOp::Cond,
                ASTExprOpType::Eq => AOp::Eq,
                ASTExprOpType::Le => AOp::Le,
                ASTExprOpType::Lt => AOp::Lt,
                ASTExprOpType::Ge => AOp::Ge,
                ASTExprOpType::Gt => AOp::Gt,
                ASTExprOpType::Call => AOp::Call,
                other => {
                    return Err(Diagnostic::internal(
                        STAGE,
                        format!("unsupported AST operator {:?}", other),
                    ))
                }
            };
            let n = e.op_get_n_arg().isl(isl, STAGE)?;
            let mut args = Vec::new();
            for i in 0..n {
                args.push(convert_raw(isl, &e.op_get_arg(i).isl(isl, STAGE)?)?);
            }
            Ok(AExpr::Op(op, args))
        }
        _ => Err(Diagnostic::internal(STAGE, "erroneous AST expression")),
    }
}

/// Replaces each memory site by its copies around its code: offsets,
/// copy-in, barrier, the code (its statements reading the tiles), barrier,
/// copy-out, barrier.
pub(super) fn expand_sites(ast: Ast, sites: &mut [Option<memory::Site>]) -> Ast {
    match ast {
        Ast::Site { index, body } => {
            let mut body = expand_sites(*body, sites);
            let Some(site) = sites.get_mut(index).and_then(|s| s.take()) else {
                return body;
            };
            if site.promoted.is_empty() {
                return body;
            }
            body.promote(&site.promoted);
            let guarded = |copies: Vec<Ast>| -> Vec<Ast> {
                match (&site.copy_guard, copies.is_empty()) {
                    (Some(c), false) => vec![Ast::If {
                        cond: c.clone(),
                        then_: Box::new(Ast::Block(copies)),
                        else_: None,
                    }],
                    _ => copies,
                }
            };
            // A shared tile's copy-in reads global memory that the block's
            // other threads may have written just before, in statements of
            // the same kernel ahead of the site (differential case 362 of
            // family 1002: one thread wrote `B[2h][23 - h]`, the others
            // copied `B[h][...]` in before it had): the block waits first.
            let has_in = !site.copy_in.is_empty();
            let mut items = Vec::new();
            if site.shared && has_in {
                items.push(Ast::Barrier);
            }
            items.extend(guarded(site.copy_in));
            if site.shared {
                items.push(Ast::Barrier);
            }
            items.push(body);
            if site.shared {
                items.push(Ast::Barrier);
            }
            let has_out = !site.copy_out.is_empty();
            items.extend(guarded(site.copy_out));
            if site.shared && has_out {
                items.push(Ast::Barrier);
            }
            let mut out = Ast::Block(items);
            for (name, value) in site.offsets.into_iter().rev() {
                out = Ast::Let {
                    iter: name,
                    value,
                    body: Box::new(out),
                };
            }
            out
        }
        Ast::Block(items) => {
            Ast::Block(items.into_iter().map(|i| expand_sites(i, sites)).collect())
        }
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
            body: Box::new(expand_sites(*body, sites)),
        },
        Ast::Let { iter, value, body } => Ast::Let {
            iter,
            value,
            body: Box::new(expand_sites(*body, sites)),
        },
        Ast::If { cond, then_, else_ } => Ast::If {
            cond,
            then_: Box::new(expand_sites(*then_, sites)),
            else_: else_.map(|e| Box::new(expand_sites(*e, sites))),
        },
        other => other,
    }
}
