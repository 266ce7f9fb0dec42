//! Code structure: isl's AST generator turns the mapped schedule tree into
//! host loops around kernel launches and the loops inside each kernel. The
//! isl AST is converted into pencilc's own `Ast`, which back ends print.

mod expr;

pub use expr::{AExpr, AOp, ExprStyle};

use crate::diag::{Diagnostic, Result};
use crate::isl::ast_build::{ast_node_kind, node_from_schedule, AstNodeKind, BuildAt};
use crate::isl::{Isl, IslResultExt};
use crate::map::{KernelPlan, MappedSchedule};
use crate::scop::{Scop, StmtId};
use isl_rs::{ASTExpr, ASTExprOpType, ASTExprType, ASTNode, Map, Schedule, Set, UnionMap};

const STAGE: &str = "ast";

#[derive(Clone, Debug, PartialEq)]
pub enum Ast {
    Block(Vec<Ast>),
    For {
        iter: String,
        init: AExpr,
        cond: AExpr,
        inc: AExpr,
        body: Box<Ast>,
    },
    /// A loop isl proved runs exactly once: `iter = value` for the body.
    Let {
        iter: String,
        value: AExpr,
        body: Box<Ast>,
    },
    If {
        cond: AExpr,
        then_: Box<Ast>,
        else_: Option<Box<Ast>>,
    },
    /// One statement instance; `args` are the values of its iterators.
    User {
        stmt: StmtId,
        args: Vec<AExpr>,
    },
    /// A kernel launch in host code; `body` is the code one thread runs.
    Launch(usize),
}

/// One kernel launch site with everything needed to print it.
#[derive(Clone, Debug)]
pub struct Launch {
    /// Unique per launch site (a kernel mark can be generated several times).
    pub index: usize,
    pub plan: KernelPlan,
    /// Blocks per grid dimension, outermost first, in host variables.
    pub grid: Vec<AExpr>,
    pub body: Ast,
}

#[derive(Clone, Debug)]
pub struct GpuAst {
    pub host: Ast,
    pub launches: Vec<Launch>,
    pub block_ids: Vec<String>,
    pub thread_ids: Vec<String>,
}

/// `tree` is the mapped schedule in memory: re-reading its text would make
/// the block and thread ids global parameters (isl aligns parameters when
/// reading), and isl would then hoist guards on them into host code.
pub fn generate(isl: &Isl, scop: &Scop, mapped: &MappedSchedule, tree: Schedule) -> Result<GpuAst> {
    isl.reset_budget();
    let sched = tree;
    let mut params = scop.params.clone();
    params.extend(mapped.block_ids.iter().cloned());
    params.extend(mapped.thread_ids.iter().cloned());
    let context = Set::read_from_str(&isl.ctx, &format!("[{}] -> {{ : }}", params.join(", ")))
        .isl(isl, STAGE)?;
    let user_ctx = Set::read_from_str(&isl.ctx, &scop.context).isl(isl, STAGE)?;
    let context = context.intersect_params(user_ctx).isl(isl, STAGE)?;

    let mut grids: Vec<(usize, Vec<AExpr>)> = Vec::new();
    let mut failure: Option<Diagnostic> = None;
    let node = {
        let mut hook = |mark: &str, build: &BuildAt| -> Option<String> {
            let k: usize = mark.strip_prefix("kernel_")?.parse().ok()?;
            let plan = mapped.kernels.get(k)?;
            match grid_sizes(isl, plan, build) {
                Ok(g) => {
                    grids.push((k, g));
                    Some(format!("launch_{}", grids.len() - 1))
                }
                Err(e) => {
                    failure.get_or_insert(e);
                    None
                }
            }
        };
        let n = node_from_schedule(isl, sched, context, &mut hook)?;
        if std::env::var_os("PENCILC_DEBUG_AST").is_some() {
            eprintln!("{}", n.to_C_str().unwrap_or(""));
        }
        n
    };
    if let Some(e) = failure {
        return Err(e);
    }
    let mut conv = Converter {
        isl,
        scop,
        mapped,
        grids: &grids,
        launches: vec![],
        device_guards: vec![],
    };
    let host = conv.node(&node, false)?;
    let launches = conv.launches;
    Ok(GpuAst {
        host,
        launches,
        block_ids: mapped.block_ids.clone(),
        thread_ids: mapped.thread_ids.clone(),
    })
}

/// Blocks needed per grid dimension at this launch: the largest tile index
/// plus one (capped at the wrap-around size), or the cap itself when tile
/// indices may be negative (skewed bands).
fn grid_sizes(isl: &Isl, plan: &KernelPlan, build: &BuildAt) -> Result<Vec<AExpr>> {
    let mut out = Vec::new();
    for (j, idx_text) in plan.tile_index.iter().enumerate() {
        let cap = plan.grid_cap[j];
        let h = build.schedule().ok_or_else(|| isl.last_error(STAGE))?;
        let idx = UnionMap::read_from_str(&isl.ctx, idx_text).isl(isl, STAGE)?;
        let rel = h
            .reverse()
            .isl(isl, STAGE)?
            .apply_range(idx)
            .isl(isl, STAGE)?;
        if rel.is_empty().isl(isl, STAGE)? {
            out.push(AExpr::Int(1));
            continue;
        }
        let map = Map::from_union_map(rel).isl(isl, STAGE)?;
        let mn = map
            .copy()
            .isl(isl, STAGE)?
            .lexmin_pw_multi_aff()
            .isl(isl, STAGE)?
            .get_pw_aff(0)
            .isl(isl, STAGE)?;
        let dom = mn.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
        let nonneg = mn.nonneg_set().isl(isl, STAGE)?;
        if !dom.is_subset(&nonneg).isl(isl, STAGE)? {
            out.push(AExpr::Int(cap));
            continue;
        }
        let mx = map
            .lexmax_pw_multi_aff()
            .isl(isl, STAGE)?
            .get_pw_aff(0)
            .isl(isl, STAGE)?;
        let e = build
            .expr_from_pw_aff(mx)
            .ok_or_else(|| isl.last_error(STAGE))?;
        let e = convert_expr(isl, &e)?;
        let count = AExpr::op(AOp::Add, vec![e, AExpr::Int(1)]).simplify();
        out.push(match count {
            AExpr::Int(c) => AExpr::Int(c.clamp(1, cap)),
            c => AExpr::op(AOp::Min, vec![c, AExpr::Int(cap)]),
        });
    }
    Ok(out)
}

struct Converter<'a> {
    isl: &'a Isl,
    scop: &'a Scop,
    mapped: &'a MappedSchedule,
    grids: &'a [(usize, Vec<AExpr>)],
    launches: Vec<Launch>,
    /// Conditions on block or thread ids that isl placed above a kernel
    /// mark; they are moved into the kernel, where the ids exist.
    device_guards: Vec<AExpr>,
}

impl Converter<'_> {
    fn node(&mut self, n: &ASTNode, in_kernel: bool) -> Result<Ast> {
        let isl = self.isl;
        match ast_node_kind(n) {
            AstNodeKind::Block => {
                let list = n.block_get_children().isl(isl, STAGE)?;
                let k = list.size().isl(isl, STAGE)?;
                let mut items = Vec::new();
                for i in 0..k {
                    let c = list.get_at(i).isl(isl, STAGE)?;
                    match self.node(&c, in_kernel)? {
                        Ast::Block(inner) => items.extend(inner),
                        other => items.push(other),
                    }
                }
                Ok(Ast::Block(items))
            }
            AstNodeKind::For => {
                let iter = id_name(isl, &n.for_get_iterator().isl(isl, STAGE)?)?;
                let init = convert_expr(isl, &n.for_get_init().isl(isl, STAGE)?)?;
                let body = Box::new(self.node(&n.for_get_body().isl(isl, STAGE)?, in_kernel)?);
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
            AstNodeKind::If if !in_kernel => {
                let cond = convert_expr(isl, &n.if_get_cond().isl(isl, STAGE)?)?;
                let (host, device) = self.split_device_terms(cond);
                if device.is_empty() {
                    return self.convert_if(n, host.expect("non-empty condition"), in_kernel);
                }
                if n.if_has_else_node().isl(isl, STAGE)? {
                    return Err(Diagnostic::internal(
                        STAGE,
                        "a host condition with an else branch tests block or thread ids",
                    ));
                }
                let pushed = device.len();
                self.device_guards.extend(device);
                let then_ = self.node(&n.if_get_then_node().isl(isl, STAGE)?, in_kernel);
                self.device_guards
                    .truncate(self.device_guards.len() - pushed);
                let then_ = then_?;
                Ok(match host {
                    Some(h) => Ast::If {
                        cond: h,
                        then_: Box::new(then_),
                        else_: None,
                    },
                    None => then_,
                })
            }
            AstNodeKind::If => {
                let cond = convert_expr(isl, &n.if_get_cond().isl(isl, STAGE)?)?;
                self.convert_if(n, cond, in_kernel)
            }
            AstNodeKind::User => {
                let e = n.user_get_expr().isl(isl, STAGE)?;
                let call = convert_expr(isl, &e)?;
                match call {
                    AExpr::Op(AOp::Call, args) if !args.is_empty() => {
                        let name = match &args[0] {
                            AExpr::Id(s) => s.clone(),
                            _ => {
                                return Err(Diagnostic::internal(
                                    STAGE,
                                    "user node without a statement name",
                                ))
                            }
                        };
                        let stmt =
                            self.scop
                                .stmts
                                .iter()
                                .find(|s| s.name == name)
                                .ok_or_else(|| {
                                    Diagnostic::internal(
                                        STAGE,
                                        format!("unknown statement {}", name),
                                    )
                                })?;
                        if !in_kernel {
                            return Err(Diagnostic::internal(
                                STAGE,
                                format!("statement {} outside any kernel", name),
                            ));
                        }
                        Ok(Ast::User {
                            stmt: stmt.id,
                            args: args[1..].to_vec(),
                        })
                    }
                    _ => Err(Diagnostic::internal(STAGE, "unexpected user node")),
                }
            }
            AstNodeKind::Mark => {
                let id = n.mark_get_id().isl(isl, STAGE)?;
                let name = id.get_name().isl(isl, STAGE)?.to_string();
                let inner = n.mark_get_node().isl(isl, STAGE)?;
                if !name.starts_with("kernel_") {
                    return self.node(&inner, in_kernel);
                }
                let ann = n
                    .get_annotation()
                    .ok()
                    .and_then(|a| a.get_name().ok().map(|s| s.to_string()));
                let gi: usize = ann
                    .as_deref()
                    .and_then(|a| a.strip_prefix("launch_"))
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| {
                        Diagnostic::internal(STAGE, "kernel mark without launch information")
                    })?;
                let (k, grid) = self.grids[gi].clone();
                let mut body = self.node(&inner, true)?;
                if !self.device_guards.is_empty() {
                    let cond = AExpr::Op(AOp::And, self.device_guards.clone());
                    let cond = if self.device_guards.len() == 1 {
                        self.device_guards[0].clone()
                    } else {
                        cond
                    };
                    body = Ast::If {
                        cond,
                        then_: Box::new(body),
                        else_: None,
                    };
                }
                let index = self.launches.len();
                self.launches.push(Launch {
                    index,
                    plan: self.mapped.kernels[k].clone(),
                    grid,
                    body,
                });
                Ok(Ast::Launch(index))
            }
            _ => Err(Diagnostic::internal(STAGE, "unexpected AST node")),
        }
    }
}

impl Converter<'_> {
    fn convert_if(&mut self, n: &ASTNode, cond: AExpr, in_kernel: bool) -> Result<Ast> {
        let isl = self.isl;
        let then_ = Box::new(self.node(&n.if_get_then_node().isl(isl, STAGE)?, in_kernel)?);
        let else_ = if n.if_has_else_node().isl(isl, STAGE)? {
            Some(Box::new(
                self.node(&n.if_get_else_node().isl(isl, STAGE)?, in_kernel)?,
            ))
        } else {
            None
        };
        Ok(Ast::If { cond, then_, else_ })
    }

    /// Splits a conjunction into the terms host code can evaluate and the
    /// terms that mention block or thread ids.
    fn split_device_terms(&self, cond: AExpr) -> (Option<AExpr>, Vec<AExpr>) {
        let mut terms = Vec::new();
        flatten_and(cond, &mut terms);
        let (mut host, mut device) = (Vec::new(), Vec::new());
        for t in terms {
            let mut ids = std::collections::BTreeSet::new();
            t.ids(&mut ids);
            if ids
                .iter()
                .any(|i| self.mapped.block_ids.contains(i) || self.mapped.thread_ids.contains(i))
            {
                device.push(t);
            } else {
                host.push(t);
            }
        }
        let host = match host.len() {
            0 => None,
            1 => host.pop(),
            _ => Some(AExpr::Op(AOp::And, host)),
        };
        (host, device)
    }
}

fn flatten_and(e: AExpr, out: &mut Vec<AExpr>) {
    match e {
        AExpr::Op(AOp::And, args) => args.into_iter().for_each(|a| flatten_and(a, out)),
        other => out.push(other),
    }
}

fn id_name(isl: &Isl, e: &ASTExpr) -> Result<String> {
    let id = e.id_get_id().isl(isl, STAGE)?;
    Ok(id.get_name().isl(isl, STAGE)?.to_string())
}

pub fn convert_expr(isl: &Isl, e: &ASTExpr) -> Result<AExpr> {
    match e.get_type().isl(isl, STAGE)? {
        ASTExprType::Id => Ok(AExpr::Id(id_name(isl, e)?)),
        ASTExprType::Int => {
            let v = e.int_get_val().isl(isl, STAGE)?;
            let s = v.to_str().isl(isl, STAGE)?.to_string();
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
                args.push(convert_expr(isl, &e.op_get_arg(i).isl(isl, STAGE)?)?);
            }
            Ok(AExpr::Op(op, args))
        }
        _ => Err(Diagnostic::internal(STAGE, "erroneous AST expression")),
    }
}

impl Ast {
    /// Statement instances and launches below this node, in order.
    pub fn walk(&self, f: &mut dyn FnMut(&Ast)) {
        f(self);
        match self {
            Ast::Block(items) => items.iter().for_each(|i| i.walk(f)),
            Ast::For { body, .. } | Ast::Let { body, .. } => body.walk(f),
            Ast::If { then_, else_, .. } => {
                then_.walk(f);
                if let Some(e) = else_ {
                    e.walk(f);
                }
            }
            _ => {}
        }
    }

    /// Every identifier used in expressions below this node.
    pub fn used_ids(&self, out: &mut std::collections::BTreeSet<String>) {
        self.walk(&mut |n| match n {
            Ast::For {
                init, cond, inc, ..
            } => {
                init.ids(out);
                cond.ids(out);
                inc.ids(out);
            }
            Ast::Let { value, .. } => value.ids(out),
            Ast::If { cond, .. } => cond.ids(out),
            Ast::User { args, .. } => args.iter().for_each(|a| a.ids(out)),
            _ => {}
        });
    }

    /// Loop iterators declared below this node.
    pub fn declared_ids(&self, out: &mut std::collections::BTreeSet<String>) {
        self.walk(&mut |n| match n {
            Ast::For { iter, .. } | Ast::Let { iter, .. } => {
                out.insert(iter.clone());
            }
            _ => {}
        });
    }
}
