//! Prints statement bodies: an assignment, a compound statement (code with
//! dynamic control, printed as the user wrote it), or a call; reduction
//! updates become atomic operations on a device.

use super::cexpr::ExprPrinter;
use crate::diag::{Code, Diagnostic, Result};
use crate::front::syntax::{AssignOp, Expr, ExprKind, RedOp, Stmt};
use crate::scop::{reduction_value, Scop, Statement, StmtBody};

/// How one statement instance is printed.
pub struct StmtPrinter<'a> {
    pub scop: &'a Scop,
    pub exprs: &'a ExprPrinter<'a>,
    /// Reduction updates are atomic (device code) or plain (host code).
    pub atomic: bool,
    /// Reduction variables updated in private copies instead (device code).
    pub privatized: &'a [super::reduce::Privatized],
}

impl StmtPrinter<'_> {
    /// The statement as C lines (no indentation on the first level).
    pub fn print(&self, st: &Statement) -> Result<String> {
        let mut out = String::new();
        match &st.body {
            StmtBody::Assign { lhs, op, rhs } => {
                out.push_str(&self.assign(st, lhs, *op, rhs)?);
            }
            StmtBody::Call { name, args } => {
                out.push_str(&self.call(name, args));
            }
            StmtBody::Compound(body) => {
                out.push_str("{\n");
                self.block(st, body, 1, &mut out)?;
                out.push('}');
            }
        }
        Ok(out)
    }

    fn assign(&self, st: &Statement, lhs: &Expr, op: AssignOp, rhs: &Expr) -> Result<String> {
        let p = self.exprs;
        if self.atomic {
            if let Some(text) = self.atomic_update(st, lhs, op, rhs)? {
                return Ok(text);
            }
        }
        Ok(format!(
            "{} {} {};",
            p.print(lhs),
            op.c_text(),
            p.print(rhs)
        ))
    }

    /// `pencilc_atomic_<op>_<type>(&lhs, value);` for a reduction update.
    fn atomic_update(
        &self,
        st: &Statement,
        lhs: &Expr,
        op: AssignOp,
        rhs: &Expr,
    ) -> Result<Option<String>> {
        let Some(var) = base(lhs) else {
            return Ok(None);
        };
        let Some((_, red)) = st.reductions.iter().find(|(v, _)| v == var) else {
            return Ok(None);
        };
        let Some(value) = reduction_value(lhs, op, rhs, *red) else {
            return Ok(None);
        };
        if let Some(p) = self.privatized.iter().find(|p| p.var == var) {
            // The expression printer sends `var` to the private copy.
            return Ok(Some(super::reduce::combine(
                *red,
                &p.elem_type,
                &self.exprs.print(lhs),
                &self.exprs.print(&value),
            )));
        }
        let elem = self
            .scop
            .array(var)
            .map(|a| a.elem_type.clone())
            .unwrap_or_default();
        let ty = atomic_type(&elem).ok_or_else(|| {
            Diagnostic::error(
                Code::UnsupportedType,
                Some(st.loc.clone()),
                format!("no atomic {} for reduction variables of type `{}`", red.name(), elem),
            )
            .with_hint("reduction variables may be int, unsigned int, long, unsigned long, float or double")
        })?;
        Ok(Some(format!(
            "pencilc_atomic_{}_{}(&{}, {});",
            red_name(*red),
            ty,
            self.exprs.print(lhs),
            self.exprs.print(&value)
        )))
    }

    fn call(&self, name: &str, args: &[Expr]) -> String {
        let printed: Vec<String> = args.iter().map(|a| self.exprs.print(a)).collect();
        format!("{}({});", (self.exprs.call)(name), printed.join(", "))
    }

    fn block(&self, st: &Statement, body: &[Stmt], depth: usize, out: &mut String) -> Result<()> {
        let ind = "    ".repeat(depth);
        let p = self.exprs;
        for s in body {
            match s {
                Stmt::For {
                    iter,
                    iter_type,
                    init,
                    cond,
                    step,
                    body,
                    ..
                } => {
                    // The model filled in the type of iterators declared
                    // outside the loop (`scop::build::compound`).
                    out.push_str(&format!(
                        "{}for ({} {} = {}; {}; {} += {}) {{\n",
                        ind,
                        iter_type.as_deref().unwrap_or("int"),
                        iter,
                        p.print(init),
                        p.print(cond),
                        iter,
                        step
                    ));
                    self.block(st, body, depth + 1, out)?;
                    out.push_str(&format!("{}}}\n", ind));
                }
                Stmt::If {
                    cond, then_, else_, ..
                } => {
                    out.push_str(&format!("{}if ({}) {{\n", ind, p.print(cond)));
                    self.block(st, then_, depth + 1, out)?;
                    if !else_.is_empty() {
                        out.push_str(&format!("{}}} else {{\n", ind));
                        self.block(st, else_, depth + 1, out)?;
                    }
                    out.push_str(&format!("{}}}\n", ind));
                }
                Stmt::While { cond, body, .. } => {
                    out.push_str(&format!("{}while ({}) {{\n", ind, p.print(cond)));
                    self.block(st, body, depth + 1, out)?;
                    out.push_str(&format!("{}}}\n", ind));
                }
                Stmt::Assign { lhs, op, rhs, .. } => {
                    out.push_str(&ind);
                    out.push_str(&self.assign(st, lhs, *op, rhs)?);
                    out.push('\n');
                }
                Stmt::Decl { var, init, .. } => {
                    let dims: String = var
                        .dims
                        .iter()
                        .flatten()
                        .map(|d| format!("[{}]", p.print(d)))
                        .collect();
                    match init {
                        Some(i) => out.push_str(&format!(
                            "{}{} {}{} = {};\n",
                            ind,
                            var.base_type,
                            var.name,
                            dims,
                            p.print(i)
                        )),
                        None => out
                            .push_str(&format!("{}{} {}{};\n", ind, var.base_type, var.name, dims)),
                    }
                }
                Stmt::Break(_) => out.push_str(&format!("{}break;\n", ind)),
                Stmt::Continue(_) => out.push_str(&format!("{}continue;\n", ind)),
                Stmt::Assume { .. } | Stmt::Kill { .. } => {}
                Stmt::Call { name, args, .. } => {
                    out.push_str(&ind);
                    out.push_str(&self.call(name, args));
                    out.push('\n');
                }
            }
        }
        Ok(())
    }
}

fn base(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        ExprKind::Index(b, _) => base(b),
        _ => None,
    }
}

fn red_name(r: RedOp) -> &'static str {
    r.name()
}

/// The suffix of the atomic helpers for an element type.
pub fn atomic_type(elem: &str) -> Option<&'static str> {
    match elem
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .as_str()
    {
        "int" | "signed int" | "int32_t" => Some("int"),
        "unsigned" | "unsigned int" | "uint32_t" => Some("uint"),
        "long" | "long int" | "int64_t" => Some("long"),
        "unsigned long" | "uint64_t" => Some("ulong"),
        "float" => Some("float"),
        "double" => Some("double"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn atomic_types() {
        assert_eq!(atomic_type("unsigned  int"), Some("uint"));
        assert_eq!(atomic_type("double"), Some("double"));
        assert_eq!(atomic_type("short"), None);
    }
}
