//! Prints statement bodies: an assignment, a compound statement (code with
//! dynamic control, printed as the user wrote it), or a call; reduction
//! updates become atomic operations on a device.

use crate::diag::{Code, Diagnostic, Loc, Result};
use crate::front::cexpr::ExprPrinter;
use crate::front::syntax::{AssignOp, Expr, ExprKind, RedOp, Stmt, VarDecl};
use crate::scop::{reduction_value_in, Scop, Statement, StmtBody};

/// How one statement instance is printed.
pub struct StmtPrinter<'a> {
    pub scop: &'a Scop,
    pub exprs: &'a ExprPrinter<'a>,
    /// Device code: reduction updates are atomic, math functions get their
    /// arguments converted as C's prototypes would (`convert`), and what
    /// OpenCL C and CUDA lack (arrays of run-time size, `long double`) is
    /// rejected. Host code is printed as written.
    pub device: bool,
    /// Reduction variables updated in private copies instead (device code).
    pub privatized: &'a [super::reduce::Privatized],
    pub target: super::Target,
    /// The compound body's arrays kept in buffer slices so far, with their
    /// extents (`private::Placement::Slice`).
    pub slices: std::cell::RefCell<Vec<(String, Vec<Expr>)>>,
    /// Host code of an OpenMP loop's atomic update (`Ast::Atomic`): the
    /// update in a form `#pragma omp atomic` takes, or a compare-and-swap
    /// loop for a minimum or maximum, which it cannot make.
    pub host_atomic: bool,
}

impl StmtPrinter<'_> {
    /// The statement as C lines (no indentation on the first level).
    pub fn print(&self, st: &Statement) -> Result<String> {
        let mut out = String::new();
        match &st.body {
            StmtBody::Assign { lhs, op, rhs } => {
                out.push_str(&self.assign(st, &[], lhs, *op, rhs)?);
            }
            StmtBody::Call { name, args } => {
                out.push_str(&self.call(st, &[], name, args)?);
            }
            StmtBody::Compound(body) => {
                out.push_str("{\n");
                self.block(st, body, 1, &mut Vec::new(), &mut out)?;
                out.push('}');
            }
        }
        Ok(out)
    }

    /// `e` as device code must see it (see `device`); `scope` holds the
    /// names a compound body declared so far with their types.
    fn convert(&self, st: &Statement, scope: &[(String, String)], e: &Expr) -> Result<Expr> {
        if !self.device {
            return Ok(e.clone());
        }
        if let Some(cast) = find_cast(e, &|t| is_long_double(t)) {
            return Err(long_double_error(&cast.loc));
        }
        let e = &super::private::linearise(e, &self.slices.borrow(), false);
        let var = |n: &str| -> Option<String> {
            if let Some((_, t)) = scope.iter().rev().find(|(v, _)| v == n) {
                return Some(t.clone());
            }
            if st.iterators.iter().any(|i| i == n) {
                return Some("int".to_string());
            }
            self.scop.array(n).map(|a| a.elem_type.clone())
        };
        Ok(super::convert::convert_math_args(e, &var))
    }

    fn assign(
        &self,
        st: &Statement,
        scope: &[(String, String)],
        lhs: &Expr,
        op: AssignOp,
        rhs: &Expr,
    ) -> Result<String> {
        let p = self.exprs;
        // A reduction's update is recognised as written (the conversions
        // of its math calls' arguments, `fmaxf((float) hi, x)`, would
        // hide its form), and its value converted after.
        if self.device {
            if let Some(text) = self.atomic_update(st, scope, lhs, op, rhs)? {
                return Ok(text);
            }
        } else if self.host_atomic {
            if let Some(text) = self.host_atomic_update(st, lhs, op, rhs)? {
                return Ok(text);
            }
        }
        let lhs = &self.convert(st, scope, lhs)?;
        let rhs = &self.convert(st, scope, rhs)?;
        if self.device && self.stores_bool(scope, lhs) {
            return Ok(bool_store(p, lhs, op, rhs));
        }
        Ok(format!(
            "{} {} {};",
            p.print(lhs),
            op.c_text(),
            p.print(rhs)
        ))
    }

    /// Whether `lhs` is an element of a `_Bool` array or scalar of the
    /// region, which kernels hold in `unsigned char` buffers.
    fn stores_bool(&self, scope: &[(String, String)], lhs: &Expr) -> bool {
        let Some(var) = base(lhs) else {
            return false;
        };
        if scope.iter().any(|(v, _)| v == var) {
            return false;
        }
        self.scop
            .array(var)
            .is_some_and(|a| crate::front::syntax::integer_kind(&a.elem_type) == Some((1, false)))
    }

    /// `pencilc_atomic_<op>_<type>(&lhs, value);` for a reduction update.
    fn atomic_update(
        &self,
        st: &Statement,
        scope: &[(String, String)],
        lhs: &Expr,
        op: AssignOp,
        rhs: &Expr,
    ) -> Result<Option<String>> {
        // The model found (or was told) an update of `var` here; printed
        // as written, it would race with the other threads' updates.
        let Some(Update {
            var,
            red,
            elem,
            value,
        }) = self.reduction_update(st, lhs, op, rhs)?
        else {
            return Ok(None);
        };
        let lhs = &self.convert(st, scope, lhs)?;
        let value = self.convert(st, scope, &value)?;
        if let Some(p) = self.privatized.iter().find(|p| p.var == var) {
            // The expression printer sends `var` to the private copy; one
            // element per launch (`at`) is the copy's only element.
            let acc = match p.at {
                Some(_) => format!("{}[0]", p.private_name()),
                None => self.exprs.print(lhs),
            };
            return Ok(Some(super::reduce::combine(
                red,
                &p.elem_type,
                &acc,
                &self.exprs.print(&value),
            )));
        }
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
            red_name(red),
            ty,
            self.exprs.print(lhs),
            self.exprs.print(&value)
        )))
    }

    /// The reduction that the assignment `lhs op rhs` of `st` is an
    /// update of, if any, with the value it combines into `lhs`; an
    /// update of a reduction variable in no form the model knows is an
    /// internal error (the model recognised it).
    fn reduction_update<'e>(
        &self,
        st: &Statement,
        lhs: &'e Expr,
        op: AssignOp,
        rhs: &Expr,
    ) -> Result<Option<Update<'e>>> {
        let Some(var) = base(lhs) else {
            return Ok(None);
        };
        let Some((_, red)) = st.reductions.iter().find(|(v, _)| v == var) else {
            return Ok(None);
        };
        let elem = self
            .scop
            .array(var)
            .map(|a| a.elem_type.clone())
            .unwrap_or_default();
        let Some(value) = reduction_value_in(lhs, op, rhs, *red, Some(&elem)) else {
            return Err(Diagnostic::internal(
                "back",
                format!(
                    "the {} update of `{}` at line {} has no form an atomic update takes",
                    red.name(),
                    var,
                    st.loc.line
                ),
            ));
        };
        Ok(Some(Update {
            var,
            red: *red,
            elem,
            value,
        }))
    }

    /// A reduction update of the host's OpenMP loop that other threads
    /// update too: `#pragma omp atomic` and `lhs op= value;` (the pragma
    /// takes neither chains, `v = v - a[i] - 1`, nor `?:`), and for a
    /// minimum or maximum a compare-and-swap loop (GCC's and Clang's
    /// `__atomic` builtins; a critical section elsewhere).
    fn host_atomic_update(
        &self,
        st: &Statement,
        lhs: &Expr,
        op: AssignOp,
        rhs: &Expr,
    ) -> Result<Option<String>> {
        let Some(Update {
            red, elem, value, ..
        }) = self.reduction_update(st, lhs, op, rhs)?
        else {
            return Ok(None);
        };
        if op != AssignOp::Assign && !matches!(red, RedOp::Min | RedOp::Max) {
            // `x += e`, `x -= e`, `x ^= e`, ...: a form the pragma takes.
            return Ok(Some(format!(
                "#pragma omp atomic\n{} {} {};",
                self.exprs.print(lhs),
                op.c_text(),
                self.exprs.print(rhs)
            )));
        }
        let (lhs, value) = (self.exprs.print(lhs), self.exprs.print(&value));
        let assign = match red {
            RedOp::Add => "+=",
            RedOp::Mul => "*=",
            RedOp::BitAnd => "&=",
            RedOp::BitOr => "|=",
            RedOp::BitXor => "^=",
            RedOp::Min | RedOp::Max => {
                let cmp = if red == RedOp::Min { "<" } else { ">" };
                return Ok(Some(host_min_max(&elem, &lhs, cmp, &value)));
            }
        };
        Ok(Some(format!(
            "#pragma omp atomic\n{} {} {};",
            lhs, assign, value
        )))
    }

    fn call(
        &self,
        st: &Statement,
        scope: &[(String, String)],
        name: &str,
        args: &[Expr],
    ) -> Result<String> {
        let mut printed = Vec::new();
        for a in args {
            let a = self.convert(st, scope, a)?;
            printed.push(match self.row_address(scope, &a) {
                Some(addr) => addr,
                None => self.exprs.print(&a),
            });
        }
        Ok(format!(
            "{}({});",
            (self.exprs.call)(name),
            printed.join(", ")
        ))
    }

    /// A row of an array of the region passed to a function
    /// (`f(n, A[i])`: fewer subscripts than the array has dimensions), as
    /// the address of its first element, which the array's own subscript
    /// printing makes right for flat device buffers and for C's arrays.
    fn row_address(&self, scope: &[(String, String)], a: &Expr) -> Option<String> {
        let mut subs = Vec::new();
        let mut cur = a;
        while let ExprKind::Index(b, i) = &cur.kind {
            subs.push(i.as_ref());
            cur = b;
        }
        let ExprKind::Ident(n) = &cur.kind else {
            return None;
        };
        if subs.is_empty() || scope.iter().any(|(v, _)| v == n) {
            return None;
        }
        let array = self.scop.array(n)?;
        // An array of structs: the last dimension is the members' places,
        // and a row's first element is a whole struct (`&s[i][0]`).
        let rank = array.extents.len() - usize::from(!array.members.is_empty());
        if subs.len() >= rank {
            return None;
        }
        subs.reverse();
        let mut printed: Vec<String> = subs.iter().map(|s| self.exprs.print(s)).collect();
        printed.resize(rank, "0".to_string());
        Some(format!("&{}", (self.exprs.access)(n, &printed)))
    }

    /// Prints a compound body; `scope` is restored on return, so what a
    /// block declares is not seen after it.
    fn block(
        &self,
        st: &Statement,
        body: &[Stmt],
        depth: usize,
        scope: &mut Vec<(String, String)>,
        out: &mut String,
    ) -> Result<()> {
        let outer = scope.len();
        let r = self.block_items(st, body, depth, scope, out);
        scope.truncate(outer);
        r
    }

    fn block_items(
        &self,
        st: &Statement,
        body: &[Stmt],
        depth: usize,
        scope: &mut Vec<(String, String)>,
        out: &mut String,
    ) -> Result<()> {
        let ind = super::body::indent(depth);
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
                    // A loop over a variable of the region, which the
                    // statement writes (`scop::build::compound`): the
                    // variable itself runs, so that it keeps its final
                    // value.
                    // A set-up statement the host runs has no accesses
                    // left in the model (`scop::prologue`); what it wrote
                    // is in `host_writes`.
                    let set_up_writes = self
                        .scop
                        .host_prologue
                        .iter()
                        .find(|&&k| self.scop.stmts[k].name == st.name)
                        .and_then(|k| self.scop.host_writes.get(k));
                    let of_region = (st.writes.iter().any(|w| w.array == *iter)
                        || set_up_writes.is_some_and(|w| w.contains(iter)))
                        && self.scop.array(iter).is_some_and(|a| a.is_scalar());
                    let init = self.convert(st, scope, init)?;
                    let outer = scope.len();
                    // A local the statement declared before the loop
                    // (`int i; for (i = 0; ...) if (...) break; ... i`):
                    // the loop runs it, as C does, and its value stays for
                    // what reads it after the loop.
                    let declared_before = scope.iter().any(|(n, _)| n == iter);
                    let (decl, var) = if declared_before {
                        (String::new(), iter.clone())
                    } else if of_region {
                        let var = p.print(&Expr {
                            kind: ExprKind::Ident(iter.clone()),
                            loc: init.loc.clone(),
                        });
                        (String::new(), var)
                    } else {
                        // The model filled in the type of iterators declared
                        // outside the loop (`scop::build::compound`).
                        let ty = iter_type.as_deref().unwrap_or("int").to_string();
                        scope.push((iter.clone(), ty.clone()));
                        // Devices spell C's integer types their own way
                        // (`size_t` is OpenCL C's own type, of its size).
                        let spelled = if self.device {
                            crate::front::syntax::device_int_type(&ty)
                        } else {
                            ty
                        };
                        (format!("{} ", spelled), iter.clone())
                    };
                    let cond = self.convert(st, scope, cond)?;
                    out.push_str(&format!(
                        "{}for ({}{} = {}; {}; {} += {}) {{\n",
                        ind,
                        decl,
                        var,
                        p.print(&init),
                        p.print(&cond),
                        var,
                        step
                    ));
                    self.block(st, body, depth + 1, scope, out)?;
                    scope.truncate(outer);
                    out.push_str(&format!("{}}}\n", ind));
                }
                Stmt::If {
                    cond, then_, else_, ..
                } => {
                    let cond = self.convert(st, scope, cond)?;
                    out.push_str(&format!("{}if ({}) {{\n", ind, p.print(&cond)));
                    self.block(st, then_, depth + 1, scope, out)?;
                    if !else_.is_empty() {
                        out.push_str(&format!("{}}} else {{\n", ind));
                        self.block(st, else_, depth + 1, scope, out)?;
                    }
                    out.push_str(&format!("{}}}\n", ind));
                }
                Stmt::While { cond, body, .. } => {
                    let cond = self.convert(st, scope, cond)?;
                    out.push_str(&format!("{}while ({}) {{\n", ind, p.print(&cond)));
                    self.block(st, body, depth + 1, scope, out)?;
                    out.push_str(&format!("{}}}\n", ind));
                }
                Stmt::Assign { lhs, op, rhs, .. } => {
                    // An atomic update on the host spans lines.
                    for line in self.assign(st, scope, lhs, *op, rhs)?.lines() {
                        out.push_str(&ind);
                        out.push_str(line);
                        out.push('\n');
                    }
                }
                Stmt::Decl { var, init, loc } => {
                    let placement = if self.device {
                        self.device_placement(var, loc)?
                    } else {
                        super::private::Placement::AsWritten
                    };
                    let init = match init {
                        Some(i) => Some(self.convert(st, scope, i)?),
                        None => None,
                    };
                    scope.push((var.name.clone(), var.base_type.clone()));
                    let ty = if self.device {
                        crate::front::syntax::device_int_type(&var.base_type)
                    } else {
                        var.base_type.clone()
                    };
                    let dims: String = match &placement {
                        super::private::Placement::Bounded(b) => {
                            b.iter().map(|n| format!("[{}]", n)).collect()
                        }
                        _ => var
                            .dims
                            .iter()
                            .flatten()
                            .map(|d| format!("[{}]", p.print(d)))
                            .collect(),
                    };
                    if placement == super::private::Placement::Slice {
                        let dims: Vec<Expr> = var.dims.iter().flatten().cloned().collect();
                        let size: Vec<String> =
                            dims.iter().map(|d| format!("({})", p.print(d))).collect();
                        let space = match self.target {
                            super::Target::OpenCl => "__global ",
                            _ => "",
                        };
                        out.push_str(&format!(
                            "{}{}{} *{} = {} + (unsigned long) {} * {};\n",
                            ind,
                            space,
                            crate::front::syntax::buffer_type(&var.base_type),
                            var.name,
                            super::private::slice_buffer(&var.name),
                            super::private::thread_index(self.target),
                            size.join(" * ")
                        ));
                        self.slices.borrow_mut().push((var.name.clone(), dims));
                        continue;
                    }
                    match &init {
                        Some(i) => out.push_str(&format!(
                            "{}{} {}{} = {};\n",
                            ind,
                            ty,
                            var.name,
                            dims,
                            p.print(i)
                        )),
                        None => out.push_str(&format!("{}{} {}{};\n", ind, ty, var.name, dims)),
                    }
                }
                Stmt::Break(_) => out.push_str(&format!("{}break;\n", ind)),
                Stmt::Continue(_) => out.push_str(&format!("{}continue;\n", ind)),
                Stmt::Assume { .. } | Stmt::Kill { .. } => {}
                Stmt::Call { name, args, .. } => {
                    out.push_str(&ind);
                    out.push_str(&self.call(st, scope, name, args)?);
                    out.push('\n');
                }
            }
        }
        Ok(())
    }
}

impl StmtPrinter<'_> {
    /// Where a kernel keeps a local of a compound body
    /// (`private::placement`); `long double` and unsized arrays are
    /// rejected.
    fn device_placement(&self, var: &VarDecl, loc: &Loc) -> Result<super::private::Placement> {
        if is_long_double(&var.base_type) {
            return Err(long_double_error(loc));
        }
        super::private::placement(self.scop, var).ok_or_else(|| {
            Diagnostic::error(
                Code::UnsupportedType,
                Some(loc.clone()),
                format!(
                    "`{}` is declared inside the region without a size",
                    var.name
                ),
            )
            .with_hint("give every dimension its extent")
        })
    }
}

fn is_long_double(t: &str) -> bool {
    let words: Vec<&str> = t.split_whitespace().collect();
    words.contains(&"long") && words.contains(&"double")
}

/// OpenCL C has no `long double`, and CUDA device code computes it as a
/// `double` of another size than the host's, so buffers would not match.
pub fn long_double_error(loc: &Loc) -> Diagnostic {
    Diagnostic::error(
        Code::UnsupportedType,
        Some(loc.clone()),
        "`long double` has no counterpart in OpenCL C or CUDA device code",
    )
    .with_hint("use `double`, or compile with `--target c`")
}

/// The first cast in `e` to a type `pred` accepts.
fn find_cast<'e>(e: &'e Expr, pred: &dyn Fn(&str) -> bool) -> Option<&'e Expr> {
    match &e.kind {
        ExprKind::Cast(t, a) => {
            if pred(t) {
                Some(e)
            } else {
                find_cast(a, pred)
            }
        }
        ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
            find_cast(a, pred).or_else(|| find_cast(b, pred))
        }
        ExprKind::Unary(_, a) => find_cast(a, pred),
        ExprKind::Cond(a, b, c) => find_cast(a, pred)
            .or_else(|| find_cast(b, pred))
            .or_else(|| find_cast(c, pred)),
        ExprKind::Call(_, args) => args.iter().find_map(|a| find_cast(a, pred)),
        ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Ident(_) => None,
    }
}

/// A store to a `_Bool` held in an `unsigned char` buffer, converted to 0
/// or 1 as C converts it (`lhs op= rhs` is `lhs = lhs op rhs` here: the
/// left side has no side effects in a region).
fn bool_store(p: &ExprPrinter, lhs: &Expr, op: AssignOp, rhs: &Expr) -> String {
    let value = match op.binary() {
        None => p.print(rhs),
        Some(b) => p.print(&Expr {
            kind: ExprKind::Binary(b, Box::new(lhs.clone()), Box::new(rhs.clone())),
            loc: rhs.loc.clone(),
        }),
    };
    format!("{} = (_Bool)({});", p.print(lhs), value)
}

fn base(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        ExprKind::Index(b, _) => base(b),
        _ => None,
    }
}

/// A reduction's update (`StmtPrinter::reduction_update`).
struct Update<'e> {
    var: &'e str,
    red: RedOp,
    /// The variable's element type, as C text.
    elem: String,
    /// What the update combines into the element.
    value: Expr,
}

/// `if (value cmp lhs) lhs = value;` made atomic: the term is computed
/// once, and the element replaced only while it is still the one compared
/// with (a NaN term changes nothing, as in the kernels' `combine`).
fn host_min_max(elem: &str, lhs: &str, cmp: &str, value: &str) -> String {
    format!(
        "{{\n    {elem} pencilc_term = {value};\n\
         #if defined(__GNUC__)\n    \
         {elem} pencilc_old, pencilc_new;\n    \
         __atomic_load(&{lhs}, &pencilc_old, __ATOMIC_RELAXED);\n    \
         do\n        \
         pencilc_new = pencilc_term {cmp} pencilc_old ? pencilc_term : pencilc_old;\n    \
         while (pencilc_new != pencilc_old\n           \
         && !__atomic_compare_exchange(&{lhs}, &pencilc_old, &pencilc_new, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));\n\
         #else\n    \
         #pragma omp critical (pencilc_min_max)\n    \
         if (pencilc_term {cmp} {lhs})\n        \
         {lhs} = pencilc_term;\n\
         #endif\n\
         }}"
    )
}

fn red_name(r: RedOp) -> &'static str {
    r.name()
}

/// The suffix of the atomic helpers for an element type.
pub use crate::ast::reductions::atomic_type;

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
