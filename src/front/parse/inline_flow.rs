//! Bodies with `if`s for `inline`: Rodinia nw's
//!
//! ```c
//! int maximum(int a, int b, int c) {
//!   int k;
//!   if (a <= b) k = b; else k = a;
//!   if (k <= c) return c; else return k;
//! }
//! ```
//!
//! is a pure function of its arguments all the same. Its statements run
//! symbolically: each assignment to a local (or a parameter) gives a new
//! version of it, an `if` joins the versions of its branches with
//! `cond ? then : else`, and returns, early ones included, become one
//! conditional expression (`k <= c ? c : k`). The versions are the
//! locals `inline` substitutes in order. Declarations, assignments,
//! `if`/`else`, blocks under them and `return` are read; anything else
//! (loops, calls as statements, array stores) leaves the function alone,
//! and so does a path that ends without `return`.

use super::Cx;
use crate::diag::Loc;
use crate::front::syntax::{AssignOp, BinOp, Expr, ExprKind, Stmt, UnOp, VarDecl};
use std::collections::BTreeMap;
use tree_sitter::Node;

/// The body's locals (versions, in order, each with its type and value)
/// and the returned expression.
pub(super) type Flat = (Vec<(String, String, Expr)>, Expr);

/// How a list of statements ends.
enum Flow {
    /// Every path returned this value.
    Returns(Expr),
    /// Some paths may go on; `early`, where set, is the condition under
    /// which an earlier `return` was taken and its value.
    Falls { early: Option<(Expr, Expr)> },
}

struct Run<'c, 'a> {
    cx: &'c Cx<'a>,
    /// The C type of each local and parameter by its name.
    types: BTreeMap<String, String>,
    locals: Vec<(String, String, Expr)>,
    ret_type: String,
    fresh: usize,
}

/// Which version each name holds: `None` for a local declared without a
/// value and not yet assigned.
type Env = BTreeMap<String, Option<String>>;

impl<'a> Cx<'a> {
    /// The body `stmts` of a function returning `ret_type` with `params`,
    /// flattened (module comment), or `None`.
    pub(super) fn flatten_body(
        &self,
        stmts: &[Node],
        params: &[VarDecl],
        ret_type: &str,
        arithmetic: fn(&str) -> bool,
    ) -> Option<Flat> {
        let mut run = Run {
            cx: self,
            types: params
                .iter()
                .map(|p| (p.name.clone(), p.base_type.clone()))
                .collect(),
            locals: Vec::new(),
            ret_type: ret_type.to_string(),
            fresh: 0,
        };
        let mut env: Env = params
            .iter()
            .filter(|p| p.dims.is_empty() && !p.pointer)
            .map(|p| (p.name.clone(), Some(p.name.clone())))
            .collect();
        match run.block(stmts, &mut env, arithmetic)? {
            Flow::Returns(r) => Some((run.locals, r)),
            Flow::Falls { .. } => None,
        }
    }
}

impl Run<'_, '_> {
    fn block(
        &mut self,
        stmts: &[Node],
        env: &mut Env,
        arithmetic: fn(&str) -> bool,
    ) -> Option<Flow> {
        let mut early: Option<(Expr, Expr)> = None;
        for &n in stmts {
            match n.kind() {
                "comment" => {}
                "declaration" => {
                    let mut out = Vec::new();
                    self.cx.local_declaration(n, &mut out).ok()?;
                    for s in out {
                        let Stmt::Decl { var, init, .. } = s else {
                            return None;
                        };
                        if !var.dims.is_empty()
                            || var.pointer
                            || !arithmetic(&var.base_type)
                            || self.types.contains_key(&var.name)
                        {
                            return None;
                        }
                        self.types.insert(var.name.clone(), var.base_type.clone());
                        let version = match init {
                            Some(e) => {
                                let e = rename(&e, env)?;
                                Some(self.version(&var.name, e))
                            }
                            None => None,
                        };
                        env.insert(var.name.clone(), version);
                    }
                }
                "expression_statement" => {
                    let mut out = Vec::new();
                    let mut ignored = Vec::new();
                    self.cx.stmt(n, &mut out, &mut ignored).ok()?;
                    for s in out {
                        let Stmt::Assign { lhs, op, rhs, .. } = s else {
                            return None;
                        };
                        let ExprKind::Ident(name) = &lhs.kind else {
                            return None;
                        };
                        if !env.contains_key(name) {
                            return None;
                        }
                        let value = match op {
                            AssignOp::Assign => rhs,
                            _ => {
                                let b = match op {
                                    AssignOp::Add => BinOp::Add,
                                    AssignOp::Sub => BinOp::Sub,
                                    AssignOp::Mul => BinOp::Mul,
                                    _ => BinOp::Div,
                                };
                                binary(b, lhs.clone(), rhs)
                            }
                        };
                        let value = rename(&value, env)?;
                        let v = self.version(name, value);
                        env.insert(name.clone(), Some(v));
                    }
                }
                "if_statement" => {
                    let cond = n.child_by_field_name("condition")?;
                    let cond = rename(&self.cx.expr(cond).ok()?, env)?;
                    let then_ = n.child_by_field_name("consequence")?;
                    let else_ = n.child_by_field_name("alternative").and_then(|a| {
                        if a.kind() == "else_clause" {
                            a.named_child(0)
                        } else {
                            Some(a)
                        }
                    });
                    let (mut env_t, mut env_f) = (env.clone(), env.clone());
                    let flow_t = self.branch(then_, &mut env_t, arithmetic)?;
                    let flow_f = match else_ {
                        Some(e) => self.branch(e, &mut env_f, arithmetic)?,
                        None => Flow::Falls { early: None },
                    };
                    let here = match (flow_t, flow_f) {
                        (Flow::Returns(a), Flow::Returns(b)) => {
                            return Some(Flow::Returns(finish(early, cond_expr(cond, a, b))));
                        }
                        (Flow::Returns(a), Flow::Falls { early: e }) => {
                            *env = env_f;
                            Some(match e {
                                None => (cond, a),
                                Some((c, v)) => {
                                    (binary(BinOp::Or, cond.clone(), c), cond_expr(cond, a, v))
                                }
                            })
                        }
                        (Flow::Falls { early: e }, Flow::Returns(b)) => {
                            *env = env_t;
                            let not = not(cond);
                            Some(match e {
                                None => (not, b),
                                Some((c, v)) => {
                                    (binary(BinOp::Or, not.clone(), c), cond_expr(not, b, v))
                                }
                            })
                        }
                        (Flow::Falls { early: e1 }, Flow::Falls { early: e2 }) => {
                            self.join(&cond, env, &env_t, &env_f)?;
                            match (e1, e2) {
                                (None, None) => None,
                                (Some((c, v)), None) => Some((binary(BinOp::And, cond, c), v)),
                                (None, Some((c, v))) => Some((binary(BinOp::And, not(cond), c), v)),
                                (Some((c1, v1)), Some((c2, v2))) => {
                                    Some((cond_expr(cond.clone(), c1, c2), cond_expr(cond, v1, v2)))
                                }
                            }
                        }
                    };
                    early = match (early, here) {
                        (e, None) => e,
                        (None, h) => h,
                        (Some((c0, v0)), Some((c, v))) => {
                            Some((binary(BinOp::Or, c0.clone(), c), cond_expr(c0, v0, v)))
                        }
                    };
                }
                "return_statement" => {
                    let e = self.cx.expr(n.named_child(0)?).ok()?;
                    let e = cast(&self.ret_type, rename(&e, env)?);
                    return Some(Flow::Returns(finish(early, e)));
                }
                "compound_statement" => {
                    let mut c = n.walk();
                    let inner: Vec<Node> = n.named_children(&mut c).collect();
                    match self.block(&inner, env, arithmetic)? {
                        Flow::Returns(r) => return Some(Flow::Returns(finish(early, r))),
                        Flow::Falls { early: None } => {}
                        Flow::Falls { early: Some(_) } => return None,
                    }
                }
                _ => return None,
            }
        }
        Some(Flow::Falls { early })
    }

    /// The statement `n` of an `if` branch, a block or one statement.
    fn branch(&mut self, n: Node, env: &mut Env, arithmetic: fn(&str) -> bool) -> Option<Flow> {
        let stmts: Vec<Node> = if n.kind() == "compound_statement" {
            let mut c = n.walk();
            n.named_children(&mut c).collect()
        } else {
            vec![n]
        };
        self.block(&stmts, env, arithmetic)
    }

    /// After an `if` whose branches both go on: each name the branches
    /// left at different versions gets a version that picks by `cond`.
    fn join(&mut self, cond: &Expr, env: &mut Env, t: &Env, f: &Env) -> Option<()> {
        for name in env.keys().cloned().collect::<Vec<_>>() {
            let (a, b) = (t.get(&name)?.clone(), f.get(&name)?.clone());
            if a == b {
                continue;
            }
            let value = match (a, b) {
                (Some(a), Some(b)) => {
                    cond_expr(cond.clone(), ident(&a, &cond.loc), ident(&b, &cond.loc))
                }
                // Assigned on one path only: the other reads nothing
                // defined, which C leaves undefined; the assigned one
                // stands.
                (Some(v), None) | (None, Some(v)) => ident(&v, &cond.loc),
                (None, None) => continue,
            };
            let v = self.version(&name, value);
            env.insert(name, Some(v));
        }
        Some(())
    }

    /// A new version of `name` holding `value` (its type's conversion
    /// applies when `inline` substitutes it).
    fn version(&mut self, name: &str, value: Expr) -> String {
        self.fresh += 1;
        // Not a C name: versions never reach the output.
        let v = format!("{}#{}", name, self.fresh);
        let ty = self.types.get(name).cloned().unwrap_or_default();
        self.locals.push((v.clone(), ty, value));
        v
    }
}

/// `e` with each local and parameter replaced by the version it holds;
/// `None` where it reads a local that holds no value yet.
fn rename(e: &Expr, env: &Env) -> Option<Expr> {
    let mut names = Vec::new();
    e.idents(&mut names);
    if names.iter().any(|n| matches!(env.get(n), Some(None))) {
        return None;
    }
    Some(crate::front::syntax::subst_expr(e, &|n: &str| {
        env.get(n)
            .and_then(|v| v.as_ref())
            .filter(|v| v.as_str() != n)
            .map(|v| ident(v, &e.loc))
    }))
}

/// `value` where an earlier return did not happen.
fn finish(early: Option<(Expr, Expr)>, value: Expr) -> Expr {
    match early {
        Some((c, v)) => cond_expr(c, v, value),
        None => value,
    }
}

fn ident(n: &str, loc: &Loc) -> Expr {
    Expr {
        kind: ExprKind::Ident(n.to_string()),
        loc: loc.clone(),
    }
}

fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
    let loc = a.loc.clone();
    Expr {
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
        loc,
    }
}

fn not(e: Expr) -> Expr {
    let loc = e.loc.clone();
    Expr {
        kind: ExprKind::Unary(UnOp::Not, Box::new(e)),
        loc,
    }
}

fn cond_expr(c: Expr, a: Expr, b: Expr) -> Expr {
    let loc = c.loc.clone();
    Expr {
        kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
        loc,
    }
}

fn cast(ty: &str, e: Expr) -> Expr {
    let loc = e.loc.clone();
    Expr {
        kind: ExprKind::Cast(ty.to_string(), Box::new(e)),
        loc,
    }
}
