//! Prints code structure (`Ast`) and statement bodies as C-family text,
//! shared by the OpenCL, CUDA and C back ends.

use super::stmt::StmtPrinter;
use crate::ast::{AExpr, Ast};
use crate::diag::{Diagnostic, Result};
use crate::front::cexpr::{is_atomic, ExprPrinter};
use crate::front::syntax::RedOp;
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
    /// The target's block-wide barrier statement.
    pub barrier: &'a str,
    /// Reduction variables this kernel updates in private copies
    /// (`reduce`): their accesses go to `pencilc_red_<v>`.
    pub privatized: &'a [super::reduce::Privatized],
    pub target: super::Target,
    /// An OpenCL kernel's body: row lengths in subscripts are read through
    /// `pencilc_row_<name>` (`specialise`).
    pub kernel_rows: bool,
    /// Variables with a private copy per thread (`deps::privatise`): their
    /// accesses go to `pencilc_priv_<v>`, declared by the caller.
    pub temporaries: &'a [crate::deps::Privatised],
    /// Where those copies are stored into the variables themselves.
    pub write_backs: &'a [crate::ast::WriteBack],
    /// The locals of the OpenMP loop being printed (`Ast::Parallel`'s
    /// `locals`): an access of the element goes to the local. Each is
    /// the variable, its printed subscripts and the local's name.
    pub locals: std::cell::RefCell<Vec<(String, Vec<String>, String)>>,
}

/// Declarations of the private copies of `temporaries` whose statements
/// include one of `stmts` (all where `None`), one per line at `depth`:
/// element types as kernels declare them where `device`.
pub fn private_declarations(
    scop: &Scop,
    temporaries: &[crate::deps::Privatised],
    stmts: Option<&std::collections::BTreeSet<usize>>,
    device: bool,
    depth: usize,
) -> String {
    let mut out = String::new();
    for t in temporaries {
        if let Some(only) = stmts {
            if !t.stmts.iter().any(|s| only.contains(s)) {
                continue;
            }
        }
        let Some(a) = scop.array(&t.array) else {
            continue;
        };
        let ty = if device {
            crate::front::syntax::buffer_type(&a.elem_type)
        } else {
            a.elem_type.clone()
        };
        let dims: String = a
            .extents
            .iter()
            .map(|e| match e {
                Extent::Const(c) => format!("[{}]", c),
                _ => "[1]".to_string(),
            })
            .collect();
        out.push_str(&format!(
            "{}{} {}{};\n",
            indent(depth),
            ty,
            t.private_name(),
            dims
        ));
    }
    out
}

/// Indentation stops growing past this depth: 4,000 nested `if`s would
/// otherwise make the output quadratic in size (128 MB for a 60 kB input).
const MAX_INDENT: usize = 24;

pub fn indent(n: usize) -> String {
    "    ".repeat(n.min(MAX_INDENT))
}

impl<'a> BodyPrinter<'a> {
    /// Host code on the user's own variables, without private copies or
    /// reductions: the run-time choice's counting of the device version's
    /// work, the set-up statements the host runs before either version.
    pub fn plain_host(scop: &'a Scop, call_name: &'a dyn Fn(&str) -> String) -> Self {
        BodyPrinter {
            scop,
            style: DataStyle::Host,
            call_name,
            barrier: "",
            privatized: &[],
            target: super::Target::C,
            kernel_rows: false,
            temporaries: &[],
            write_backs: &[],
            locals: Default::default(),
        }
    }
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
                    "{}for ({} {} = {}; {}; {} += {}) {{\n",
                    ind,
                    self.scop.index_type,
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
                    "{}{{\n{}    const {} {} = {};\n",
                    ind,
                    ind,
                    self.scop.index_type,
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
            Ast::User {
                stmt,
                args,
                promoted,
            } => {
                push_lines(
                    out,
                    &ind,
                    &self.statement_in(stmt.0, args, promoted, false)?,
                );
            }
            Ast::Barrier => {
                out.push_str(&format!("{}{}\n", ind, self.barrier));
            }
            Ast::Copy {
                into_local,
                local,
                local_idx,
                array,
                subs,
            } => {
                let l = format!(
                    "{}{}",
                    local,
                    local_idx
                        .iter()
                        .map(|e| format!("[{}]", e.to_c()))
                        .collect::<String>()
                );
                let subs: Vec<String> = subs.iter().map(|e| e.to_c()).collect();
                let g = self.access(array, &subs);
                if *into_local {
                    out.push_str(&format!("{}{} = {};\n", ind, l, g));
                } else {
                    out.push_str(&format!("{}{} = {};\n", ind, g, l));
                }
            }
            Ast::Site { body, .. } => self.print(body, depth, out, launch)?,
            Ast::Launch(i) => launch(*i, depth, out)?,
            Ast::Parallel {
                reductions,
                locals,
                body,
            } => {
                let private = if self.temporaries.is_empty() {
                    String::new()
                } else {
                    format!(
                        " private({})",
                        self.temporaries
                            .iter()
                            .map(|t| t.private_name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                // Each local starts from the element's value and is
                // stored back after the loop, only where the loop runs:
                // the user's code reads no element (`r` may be NULL) where
                // it does not.
                // Floating-point sums need a reduction of their own, which
                // is declared in a block around the loop.
                let mut declares: Vec<String> = reductions
                    .iter()
                    .filter_map(|(var, op)| {
                        let a = self.scop.array(var)?;
                        omp_sum_declaration(*op, &a.elem_type)
                    })
                    .chain(
                        locals
                            .iter()
                            .filter_map(|l| omp_sum_declaration(l.op, &l.elem_type)),
                    )
                    .collect();
                declares.sort();
                declares.dedup();
                let block = !locals.is_empty() || !declares.is_empty();
                let (depth, ind) = if !block {
                    (depth, ind)
                } else {
                    match first_iteration(body).filter(|_| !locals.is_empty()) {
                        Some(c) => out.push_str(&format!("{}if ({}) {{\n", ind, c.to_c())),
                        None => out.push_str(&format!("{}{{\n", ind)),
                    }
                    (depth + 1, indent(depth + 1))
                };
                for d in &declares {
                    out.push_str(&format!("{}{}\n", ind, d));
                }
                let mut clauses = self.reduction_clauses(reductions);
                let mut active = Vec::new();
                for (k, l) in locals.iter().enumerate() {
                    let subs: Vec<String> = l.subs.iter().map(|c| c.to_string()).collect();
                    let name = l.local_name(k);
                    out.push_str(&format!(
                        "{}{} {} = {};\n",
                        ind,
                        l.elem_type,
                        name,
                        self.access(&l.var, &subs)
                    ));
                    clauses.push_str(&format!(
                        " reduction({}: {})",
                        omp_reduction_op(l.op, &l.elem_type),
                        name
                    ));
                    active.push((l.var.clone(), subs, name));
                }
                out.push_str(&format!(
                    "{}#pragma omp parallel for{}{}\n",
                    ind, private, clauses
                ));
                *self.locals.borrow_mut() = active.clone();
                let printed = self.print(body, depth, out, launch);
                self.locals.borrow_mut().clear();
                printed?;
                for (var, subs, name) in &active {
                    out.push_str(&format!("{}{} = {};\n", ind, self.access(var, subs), name));
                }
                if block {
                    out.push_str(&format!("{}}}\n", indent(depth - 1)));
                }
            }
            Ast::Atomic(body) => {
                // Each update in the statement (a guarded one's too) is
                // made atomic where it is printed
                // (`StmtPrinter::host_atomic_update`).
                let Ast::User {
                    stmt,
                    args,
                    promoted,
                } = &**body
                else {
                    return Err(Diagnostic::internal(
                        "back",
                        "an atomic update that is not a statement".to_string(),
                    ));
                };
                push_lines(out, &ind, &self.statement_in(stmt.0, args, promoted, true)?);
            }
        }
        Ok(())
    }

    /// One statement instance with its iterators replaced by `args`.
    pub fn statement(&self, stmt: usize, args: &[AExpr]) -> Result<String> {
        self.statement_with(stmt, args, &[])
    }

    /// A statement instance whose accesses to the `promoted` arrays go to
    /// their local tiles.
    pub fn statement_with(
        &self,
        stmt: usize,
        args: &[AExpr],
        promoted: &[crate::ast::Promoted],
    ) -> Result<String> {
        self.statement_in(stmt, args, promoted, false)
    }

    /// `statement_with`, its reduction updates atomic on the host where
    /// `host_atomic` (an OpenMP loop's `Ast::Atomic`).
    fn statement_in(
        &self,
        stmt: usize,
        args: &[AExpr],
        promoted: &[crate::ast::Promoted],
        host_atomic: bool,
    ) -> Result<String> {
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
        let index = crate::front::affine::IntTy::of(&self.scop.index_type);
        let subst: Vec<(String, String)> = st
            .iterators
            .iter()
            .cloned()
            .zip(args.iter().enumerate().map(|(k, a)| {
                // The value is in the iterator's range (`scop` checks
                // it), so converting it back to the iterator's type is
                // exact and gives C's arithmetic in the statement.
                match st.iterator_types.get(k) {
                    Some(t) if Some(*t) != index => format!("(({})({}))", t.c_name(), a.to_c()),
                    _ => a.to_c(),
                }
            }))
            .collect();
        let private = |n: &str| -> Option<String> {
            self.temporaries
                .iter()
                .find(|t| t.array == n && t.stmts.contains(&stmt))
                .map(|t| t.private_name())
        };
        let global_ident = |n: &str| -> String {
            if let Some((_, v)) = subst.iter().find(|(i, _)| i == n) {
                return v.clone();
            }
            if let Some(p) = self
                .privatized
                .iter()
                .find(|p| p.var == n && p.at.is_none())
            {
                return format!("{}[0]", p.private_name());
            }
            match self.scop.array(n) {
                Some(a) if a.is_scalar() && a.written && self.style == DataStyle::Device => {
                    format!("{}[0]", n)
                }
                _ => n.to_string(),
            }
        };
        let ident = |n: &str| -> String {
            if subst.iter().all(|(i, _)| i != n) {
                if let Some(v) = private(n) {
                    return v;
                }
            }
            global_ident(n)
        };
        let access = |n: &str, subs: &[String]| -> String {
            if let Some((.., local)) = self
                .locals
                .borrow()
                .iter()
                .find(|(v, s, _)| v == n && s.as_slice() == subs)
            {
                return local.clone();
            }
            if let Some(v) = private(n) {
                return format!(
                    "{}{}",
                    v,
                    subs.iter().map(|s| format!("[{}]", s)).collect::<String>()
                );
            }
            // An array reduced into one element: its updates print the
            // private copy themselves (`stmt`), every other access is of
            // another element, in global memory.
            if let Some(p) = self
                .privatized
                .iter()
                .find(|p| p.var == n && p.at.is_none())
            {
                return format!(
                    "{}[{}]",
                    p.private_name(),
                    super::reduce::linear(&p.extents, subs)
                );
            }
            match promoted.iter().find(|p| p.array == n) {
                Some(p) if p.offsets.len() == subs.len() => {
                    let mut s = p.local.clone();
                    for (k, sub) in subs.iter().enumerate() {
                        let d = format!("({}) - {}", sub, p.offsets[k]);
                        if p.strides[k] == 1 {
                            s.push_str(&format!("[{}]", d));
                        } else {
                            s.push_str(&format!("[({}) / {}]", d, p.strides[k]));
                        }
                    }
                    s
                }
                _ => self.access(n, subs),
            }
        };
        let call = |f: &str| (self.call_name)(f);
        let p = ExprPrinter {
            ident: &ident,
            access: &access,
            call: &call,
            flat_rows: self.style != DataStyle::Host,
        };
        let mut text = StmtPrinter {
            scop: self.scop,
            exprs: &p,
            device: self.style == DataStyle::Device,
            privatized: self.privatized,
            target: self.target,
            slices: Default::default(),
            host_atomic,
        }
        .print(st)?;
        // The instance that writes a private copy's last value stores it
        // in the variable too: the assignment's left-hand side, once as the
        // copy and once as the variable; after code with dynamic control,
        // the whole scalar (`deps::privatise` takes no other there), which
        // its copy holds whether or not the code wrote it.
        for w in self.write_backs.iter().filter(|w| w.stmt == stmt) {
            let whole;
            let lhs = match &st.body {
                crate::scop::StmtBody::Assign { lhs, .. } => lhs,
                crate::scop::StmtBody::Compound(_) => {
                    whole = crate::front::syntax::Expr {
                        kind: crate::front::syntax::ExprKind::Ident(w.array.clone()),
                        loc: st.loc.clone(),
                    };
                    &whole
                }
                // `deps::privatise` gives a summary call's variables no copy.
                crate::scop::StmtBody::Call { .. } => continue,
            };
            let global_access = |n: &str, subs: &[String]| -> String {
                if n == w.array {
                    self.access(n, subs)
                } else {
                    access(n, subs)
                }
            };
            let global = ExprPrinter {
                ident: &|n: &str| {
                    if n == w.array {
                        global_ident(n)
                    } else {
                        ident(n)
                    }
                },
                access: &global_access,
                call: &call,
                flat_rows: p.flat_rows,
            };
            let at: Vec<(String, AExpr)> = args
                .iter()
                .enumerate()
                .map(|(k, a)| (crate::ast::private_iterator(k), a.clone()))
                .collect();
            let store = format!("{} = {};", global.print(lhs), p.print(lhs));
            text = match w.cond.substitute(&at).simplify() {
                AExpr::Int(1) => format!("{}\n{}", text, store),
                c => format!("{}\nif ({}) {{\n    {}\n}}", text, c.to_c(), store),
            };
        }
        Ok(text)
    }

    pub fn access(&self, name: &str, subs: &[String]) -> String {
        let Some(a) = self.scop.array(name) else {
            return format!(
                "{}{}",
                name,
                subs.iter().map(|s| format!("[{}]", s)).collect::<String>()
            );
        };
        // A row of structs or one whole struct (a call's argument) is the
        // user's own `s[i]`; an element is a member.
        if self.style == DataStyle::Host && !a.members.is_empty() && subs.len() == a.extents.len() {
            return host_member(name, &a.members, &a.elem_type, subs);
        }
        let host = self.style == DataStyle::Host;
        // The user's flat pointer (`p[i * m + j]` delinearised) is indexed
        // on the host as the user's code indexed it.
        let flat_on_host = host && a.layout.as_ref().is_some_and(|l| l.host_flat);
        // A row (`f(A[i])` of an `A[n][10]`): C's array decays to the
        // address of its first element; a flat buffer's row is that
        // element's address, not an element (external inputs of
        // 2026-12-06: pet's data_dependent.c did not build).
        let rank = a.extents.len() - usize::from(!a.members.is_empty());
        if (!host || flat_on_host) && !subs.is_empty() && subs.len() < rank {
            let mut whole = subs.to_vec();
            whole.resize(rank, "0".to_string());
            return format!("&{}", self.access(name, &whole));
        }
        if (host && !flat_on_host) || (subs.len() <= 1 && !a.has_offset()) {
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
        // Past `int`, the row's offset in `long` (`Array::wide_index`).
        let mut lin = if a.wide_index && subs[0].trim() != "0" {
            format!("(long) {}", par(&subs[0]))
        } else {
            par(&subs[0])
        };
        for (k, s) in subs.iter().enumerate().skip(1) {
            let outer = if k == 1 { lin } else { format!("({})", lin) };
            lin = format!(
                "{} * {} + {}",
                outer,
                self.extent_in_index_type(&a.extents[k]),
                par(s)
            );
        }
        if host {
            return format!("{}[{}]", name, lin);
        }
        format!("{}[{}]", name, super::footprint::device_index(a, lin))
    }
}

/// The condition under which the OpenMP loop `body` runs at least once
/// (its condition at its first value); `None` where it always does.
/// The parallel loop is the node itself (`ast::cpu::parallel_loops`).
fn first_iteration(body: &Ast) -> Option<AExpr> {
    let Ast::For {
        iter, init, cond, ..
    } = body
    else {
        return None;
    };
    match cond.substitute(&[(iter.clone(), init.clone())]).simplify() {
        AExpr::Int(c) if c != 0 => None,
        c => Some(c),
    }
}

/// The floating-point type whose sums need a reduction of their own.
fn float_sum(op: RedOp, elem_type: &str) -> Option<&'static str> {
    match (op, elem_type.trim()) {
        (RedOp::Add, "double") => Some("double"),
        (RedOp::Add, "float") => Some("float"),
        _ => None,
    }
}

/// The operator of an OpenMP `reduction` clause: `+` starts each thread's
/// copy at `0`, which is `+0.0`, and a floating-point sum of negative
/// zeros is `-0.0` in the sequential program (`+0.0 + -0.0` is `+0.0`):
/// such sums use `pencilc_sum_<type>`, which starts at `-0.0`
/// (`omp_sum_declaration`).
fn omp_reduction_op(op: RedOp, elem_type: &str) -> String {
    match float_sum(op, elem_type) {
        Some(t) => format!("pencilc_sum_{}", t),
        None => op.clause_text().to_string(),
    }
}

/// The declaration of `omp_reduction_op`'s own reduction, where it has
/// one.
fn omp_sum_declaration(op: RedOp, elem_type: &str) -> Option<String> {
    float_sum(op, elem_type).map(|t| {
        format!(
            "#pragma omp declare reduction(pencilc_sum_{t} : {t} : omp_out += omp_in) initializer(omp_priv = -0.0{f})",
            t = t,
            f = if t == "float" { "f" } else { "" }
        )
    })
}

impl BodyPrinter<'_> {
    /// OpenMP's `reduction` clauses for `reductions`, each array as the
    /// section of its whole extent.
    fn reduction_clauses(&self, reductions: &[(String, RedOp)]) -> String {
        let mut out = String::new();
        for (var, op) in reductions {
            let array = self.scop.array(var);
            let op = match array {
                Some(a) => omp_reduction_op(*op, &a.elem_type),
                None => op.clause_text().to_string(),
            };
            let section: String = array
                .map(|a| {
                    a.extents
                        .iter()
                        .map(|e| format!("[0:{}]", extent_c(e)))
                        .collect()
                })
                .unwrap_or_default();
            out.push_str(&format!(" reduction({}: {}{})", op, var, section));
        }
        out
    }

    /// An extent read as the subscripts compute, where its variables have
    /// narrower or unsigned types of their own (`Scop::bound_cast`).
    fn extent_in_index_type(&self, e: &Extent) -> String {
        let text = match e {
            // OpenCL kernels read row lengths through a macro the build
            // may give a value (`specialise`).
            Extent::Expr { names, .. } if self.kernel_rows => {
                super::specialise::rows_in(&extent_c(e), names)
            }
            _ => extent_c(e),
        };
        let Extent::Expr { names, .. } = e else {
            return text;
        };
        let casts: Vec<&str> = names
            .iter()
            .filter_map(|n| self.scop.bound_cast(n))
            .collect();
        // `long` holds every value any of them reads as.
        match casts.first() {
            None => text,
            Some(t) if casts.len() == 1 => format!("(({}){})", t, text),
            Some(_) => format!("((long){})", text),
        }
    }
}

/// An element's member in host code, which keeps the user's array of
/// structs: the last subscript is the member's place (`A[i][j].Im`; a
/// place that is not a literal, which the front end never makes, reads the
/// element as an array of the members' type).
fn host_member(name: &str, members: &[String], elem: &str, subs: &[String]) -> String {
    let Some((last, outer)) = subs.split_last() else {
        return name.to_string();
    };
    let element: String = std::iter::once(name.to_string())
        .chain(outer.iter().map(|s| format!("[{}]", s)))
        .collect();
    match last
        .trim()
        .parse::<usize>()
        .ok()
        .and_then(|k| members.get(k))
    {
        Some(m) => format!("{}.{}", element, m),
        None => format!("(({} *)&{})[{}]", elem, element, last),
    }
}

/// An extent as C text. A pointer's outermost extent is no expression
/// (its buffer's size comes from `footprint`), and linearisation never
/// reads it.
pub fn extent_c(e: &Extent) -> String {
    match e {
        Extent::Const(c) => c.to_string(),
        Extent::Expr { c_text, .. } => format!("({})", c_text),
        Extent::Accessed => "0".to_string(),
    }
}

/// A printed statement, each of its lines indented: compound statements
/// (PENCIL's non-affine code) span lines.
fn push_lines(out: &mut String, ind: &str, text: &str) {
    for line in text.lines() {
        out.push_str(ind);
        out.push_str(line);
        out.push('\n');
    }
}
