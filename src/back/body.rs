//! Prints code structure (`Ast`) and statement bodies as C-family text,
//! shared by the OpenCL, CUDA and C back ends.

use super::cexpr::{is_atomic, ExprPrinter};
use super::stmt::StmtPrinter;
use crate::ast::{AExpr, Ast};
use crate::diag::{Diagnostic, Result};
use crate::scop::{Extent, Scop};

/// How statements reach their data.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum DataStyle {
    /// Device buffers: arrays are flat pointers, written scalars are
    /// one-element buffers (`x[0]`).
    Device,
    /// The user's own variables, indexed as declared.
    Host,
}

pub struct BodyPrinter<'a> {
    pub scop: &'a Scop,
    pub style: DataStyle,
    /// Maps a C function name for the target (e.g. `sqrtf` → `sqrt` in OpenCL).
    pub call_name: &'a dyn Fn(&str) -> String,
}

pub fn indent(n: usize) -> String {
    "    ".repeat(n)
}

impl BodyPrinter<'_> {
    /// Prints `ast`; `launch` prints a kernel launch site (host code only).
    pub fn print(
        &self,
        ast: &Ast,
        depth: usize,
        out: &mut String,
        launch: &mut dyn FnMut(usize, usize, &mut String) -> Result<()>,
    ) -> Result<()> {
        let ind = indent(depth);
        match ast {
            Ast::Block(items) => {
                for i in items {
                    self.print(i, depth, out, launch)?;
                }
            }
            Ast::For {
                iter,
                init,
                cond,
                inc,
                body,
            } => {
                out.push_str(&format!(
                    "{}for (int {} = {}; {}; {} += {}) {{\n",
                    ind,
                    iter,
                    init.to_c(),
                    cond.to_c(),
                    iter,
                    inc.to_c()
                ));
                self.print(body, depth + 1, out, launch)?;
                out.push_str(&format!("{}}}\n", ind));
            }
            Ast::Let { iter, value, body } => {
                out.push_str(&format!(
                    "{}{{\n{}    const int {} = {};\n",
                    ind,
                    ind,
                    iter,
                    value.to_c()
                ));
                self.print(body, depth + 1, out, launch)?;
                out.push_str(&format!("{}}}\n", ind));
            }
            Ast::If { cond, then_, else_ } => {
                out.push_str(&format!("{}if ({}) {{\n", ind, cond.to_c()));
                self.print(then_, depth + 1, out, launch)?;
                match else_ {
                    Some(e) => {
                        out.push_str(&format!("{}}} else {{\n", ind));
                        self.print(e, depth + 1, out, launch)?;
                        out.push_str(&format!("{}}}\n", ind));
                    }
                    None => out.push_str(&format!("{}}}\n", ind)),
                }
            }
            Ast::User { stmt, args } => {
                for line in self.statement(stmt.0, args)?.lines() {
                    out.push_str(&ind);
                    out.push_str(line);
                    out.push('\n');
                }
            }
            Ast::Launch(i) => launch(*i, depth, out)?,
        }
        Ok(())
    }

    /// One statement instance with its iterators replaced by `args`.
    pub fn statement(&self, stmt: usize, args: &[AExpr]) -> Result<String> {
        let st = &self.scop.stmts[stmt];
        if args.len() != st.iterators.len() {
            return Err(Diagnostic::internal(
                "back",
                format!(
                    "{} called with {} values for {} iterators",
                    st.name,
                    args.len(),
                    st.iterators.len()
                ),
            ));
        }
        let subst: Vec<(String, String)> = st
            .iterators
            .iter()
            .cloned()
            .zip(args.iter().map(|a| a.to_c()))
            .collect();
        let ident = |n: &str| -> String {
            if let Some((_, v)) = subst.iter().find(|(i, _)| i == n) {
                return v.clone();
            }
            match self.scop.array(n) {
                Some(a) if a.is_scalar() && a.written && self.style == DataStyle::Device => {
                    format!("{}[0]", n)
                }
                _ => n.to_string(),
            }
        };
        let access = |n: &str, subs: &[String]| -> String { self.access(n, subs) };
        let call = |f: &str| (self.call_name)(f);
        let p = ExprPrinter {
            ident: &ident,
            access: &access,
            call: &call,
        };
        StmtPrinter {
            scop: self.scop,
            exprs: &p,
            atomic: self.style == DataStyle::Device,
        }
        .print(st)
    }

    fn access(&self, name: &str, subs: &[String]) -> String {
        let Some(a) = self.scop.array(name) else {
            return format!(
                "{}{}",
                name,
                subs.iter().map(|s| format!("[{}]", s)).collect::<String>()
            );
        };
        if self.style == DataStyle::Host || subs.len() <= 1 {
            return format!(
                "{}{}",
                name,
                subs.iter().map(|s| format!("[{}]", s)).collect::<String>()
            );
        }
        // Row-major linearisation with the declared extents.
        let par = |s: &str| {
            if is_atomic(s) {
                s.to_string()
            } else {
                format!("({})", s)
            }
        };
        let mut lin = par(&subs[0]);
        for (k, s) in subs.iter().enumerate().skip(1) {
            let outer = if k == 1 { lin } else { format!("({})", lin) };
            lin = format!("{} * {} + {}", outer, extent_c(&a.extents[k]), par(s));
        }
        format!("{}[{}]", name, lin)
    }
}

pub fn extent_c(e: &Extent) -> String {
    match e {
        Extent::Const(c) => c.to_string(),
        Extent::Expr { c_text, .. } => format!("({})", c_text),
    }
}
