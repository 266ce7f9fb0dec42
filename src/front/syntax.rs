//! The front end's syntax tree: the part of C that a SCoP region may contain,
//! with every node carrying its location in the user's file. Later PENCIL
//! constructs (assume, kill, independent, summary calls) become new variants
//! here and new relations in the model, without changing the other nodes.

use crate::diag::Loc;

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal: its value and its text as written (suffixes kept).
    Int(i64, String),
    /// A floating-point literal, as written.
    Float(String),
    Ident(String),
    /// `base[index]`; multi-dimensional accesses nest.
    Index(Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
    /// A cast to a scalar type, written as C text (e.g. `double`).
    Cast(String, Box<Expr>),
}

impl Expr {
    /// Every identifier in the expression (array names included), in order.
    pub fn idents(&self, out: &mut Vec<String>) {
        match &self.kind {
            ExprKind::Ident(n) => out.push(n.clone()),
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                a.idents(out);
                b.idents(out);
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => a.idents(out),
            ExprKind::Cond(a, b, c) => {
                a.idents(out);
                b.idents(out);
                c.idents(out);
            }
            ExprKind::Call(_, args) => args.iter().for_each(|a| a.idents(out)),
            ExprKind::Int(..) | ExprKind::Float(_) => {}
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
}

impl BinOp {
    pub fn c_text(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            And => "&&",
            Or => "||",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Shl => "<<",
            Shr => ">>",
        }
    }
    /// C precedence level (higher binds tighter).
    pub fn precedence(self) -> u8 {
        use BinOp::*;
        match self {
            Mul | Div | Rem => 13,
            Add | Sub => 12,
            Shl | Shr => 11,
            Lt | Le | Gt | Ge => 10,
            Eq | Ne => 9,
            BitAnd => 8,
            BitXor => 7,
            BitOr => 6,
            And => 5,
            Or => 4,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Assign,
    Add,
    Sub,
    Mul,
    Div,
}

impl AssignOp {
    pub fn c_text(self) -> &'static str {
        match self {
            AssignOp::Assign => "=",
            AssignOp::Add => "+=",
            AssignOp::Sub => "-=",
            AssignOp::Mul => "*=",
            AssignOp::Div => "/=",
        }
    }
}

/// A reduction operator of `#pragma pencil independent reduction(op: ...)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RedOp {
    Add,
    Mul,
    Min,
    Max,
}

impl RedOp {
    pub fn name(self) -> &'static str {
        match self {
            RedOp::Add => "add",
            RedOp::Mul => "mul",
            RedOp::Min => "min",
            RedOp::Max => "max",
        }
    }
}

/// `#pragma pencil independent [reduction(op: v, ...)]*` on a loop.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Independent {
    pub reductions: Vec<(RedOp, Vec<String>)>,
    pub loc: Option<Loc>,
}

impl Independent {
    pub fn reduction_of(&self, var: &str) -> Option<RedOp> {
        self.reductions
            .iter()
            .find(|(_, vs)| vs.iter().any(|v| v == var))
            .map(|(op, _)| *op)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    For {
        iter: String,
        /// The iterator's type where the loop declares it
        /// (`for (long i = ...)`); otherwise the variable's declaration
        /// outside the loop gives it.
        iter_type: Option<String>,
        init: Expr,
        cond: Expr,
        step: i64,
        body: Vec<Stmt>,
        /// Set by `#pragma pencil independent` right before the loop.
        independent: Option<Independent>,
        loc: Loc,
    },
    If {
        cond: Expr,
        then_: Vec<Stmt>,
        else_: Vec<Stmt>,
        loc: Loc,
    },
    Assign {
        lhs: Expr,
        op: AssignOp,
        rhs: Expr,
        loc: Loc,
    },
    /// `while (cond) body`: always dynamic control, so always part of a
    /// compound statement in the model.
    While {
        cond: Expr,
        body: Vec<Stmt>,
        loc: Loc,
    },
    Break(Loc),
    Continue(Loc),
    /// A local variable declaration (`float t = 0;`, `int row;`,
    /// `float tmp[15]`). Its scope ends with the enclosing block.
    Decl {
        var: VarDecl,
        init: Option<Expr>,
        loc: Loc,
    },
    /// `__pencil_assume(cond)`: a fact on the parameters, trusted.
    Assume {
        cond: Expr,
        loc: Loc,
    },
    /// `__pencil_kill(x, ...)`: the values of the arguments are dead here.
    Kill {
        targets: Vec<Expr>,
        loc: Loc,
    },
    /// A call statement: a function with a summary, or, inside summary
    /// functions, `__pencil_use(x)` / `__pencil_def(x)`.
    Call {
        name: String,
        args: Vec<Expr>,
        loc: Loc,
    },
}

impl Stmt {
    pub fn loc(&self) -> &Loc {
        match self {
            Stmt::For { loc, .. }
            | Stmt::If { loc, .. }
            | Stmt::Assign { loc, .. }
            | Stmt::While { loc, .. }
            | Stmt::Decl { loc, .. }
            | Stmt::Assume { loc, .. }
            | Stmt::Kill { loc, .. }
            | Stmt::Call { loc, .. }
            | Stmt::Break(loc)
            | Stmt::Continue(loc) => loc,
        }
    }

    /// Every identifier the statement mentions, in order (declared names too).
    pub fn idents(&self, out: &mut Vec<String>) {
        let all = |b: &[Stmt], out: &mut Vec<String>| b.iter().for_each(|s| s.idents(out));
        match self {
            Stmt::For {
                iter,
                init,
                cond,
                body,
                ..
            } => {
                out.push(iter.clone());
                init.idents(out);
                cond.idents(out);
                all(body, out);
            }
            Stmt::If {
                cond, then_, else_, ..
            } => {
                cond.idents(out);
                all(then_, out);
                all(else_, out);
            }
            Stmt::Assign { lhs, rhs, .. } => {
                lhs.idents(out);
                rhs.idents(out);
            }
            Stmt::While { cond, body, .. } => {
                cond.idents(out);
                all(body, out);
            }
            Stmt::Decl { var, init, .. } => {
                out.push(var.name.clone());
                for d in var.dims.iter().flatten() {
                    d.idents(out);
                }
                if let Some(i) = init {
                    i.idents(out);
                }
            }
            Stmt::Assume { cond, .. } => cond.idents(out),
            Stmt::Kill { targets: args, .. } | Stmt::Call { args, .. } => {
                args.iter().for_each(|a| a.idents(out))
            }
            Stmt::Break(_) | Stmt::Continue(_) => {}
        }
    }

    /// Names declared inside the statement: loop iterators and locals.
    pub fn declared(&self, out: &mut Vec<String>) {
        let all = |b: &[Stmt], out: &mut Vec<String>| b.iter().for_each(|s| s.declared(out));
        match self {
            Stmt::For { iter, body, .. } => {
                out.push(iter.clone());
                all(body, out);
            }
            Stmt::If { then_, else_, .. } => {
                all(then_, out);
                all(else_, out);
            }
            Stmt::While { body, .. } => all(body, out),
            Stmt::Decl { var, .. } => out.push(var.name.clone()),
            _ => {}
        }
    }
}

/// Substitutes identifiers in an expression (summary-function parameters
/// by the call's arguments).
pub fn subst_expr(e: &Expr, map: &dyn Fn(&str) -> Option<Expr>) -> Expr {
    let b = |x: &Expr| Box::new(subst_expr(x, map));
    let kind = match &e.kind {
        ExprKind::Ident(n) => match map(n) {
            Some(r) => return r,
            None => e.kind.clone(),
        },
        ExprKind::Index(a, i) => ExprKind::Index(b(a), b(i)),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, b(a)),
        ExprKind::Binary(op, x, y) => ExprKind::Binary(*op, b(x), b(y)),
        ExprKind::Cond(c, t, f) => ExprKind::Cond(b(c), b(t), b(f)),
        ExprKind::Call(f, args) => {
            ExprKind::Call(f.clone(), args.iter().map(|a| subst_expr(a, map)).collect())
        }
        ExprKind::Cast(t, a) => ExprKind::Cast(t.clone(), b(a)),
        k => k.clone(),
    };
    Expr {
        kind,
        loc: e.loc.clone(),
    }
}

/// `subst_expr` over a statement list; names the statements declare
/// themselves are not substituted inside.
pub fn subst_stmts(body: &[Stmt], map: &dyn Fn(&str) -> Option<Expr>) -> Vec<Stmt> {
    body.iter()
        .map(|s| match s {
            Stmt::For {
                iter,
                iter_type,
                init,
                cond,
                step,
                body,
                independent,
                loc,
            } => {
                let it = iter.clone();
                let inner = move |n: &str| if n == it { None } else { map(n) };
                Stmt::For {
                    iter: iter.clone(),
                    iter_type: iter_type.clone(),
                    init: subst_expr(init, map),
                    cond: subst_expr(cond, &inner),
                    step: *step,
                    body: subst_stmts(body, &inner),
                    independent: independent.clone(),
                    loc: loc.clone(),
                }
            }
            Stmt::If {
                cond,
                then_,
                else_,
                loc,
            } => Stmt::If {
                cond: subst_expr(cond, map),
                then_: subst_stmts(then_, map),
                else_: subst_stmts(else_, map),
                loc: loc.clone(),
            },
            Stmt::Assign { lhs, op, rhs, loc } => Stmt::Assign {
                lhs: subst_expr(lhs, map),
                op: *op,
                rhs: subst_expr(rhs, map),
                loc: loc.clone(),
            },
            Stmt::While { cond, body, loc } => Stmt::While {
                cond: subst_expr(cond, map),
                body: subst_stmts(body, map),
                loc: loc.clone(),
            },
            Stmt::Decl { var, init, loc } => Stmt::Decl {
                var: var.clone(),
                init: init.as_ref().map(|i| subst_expr(i, map)),
                loc: loc.clone(),
            },
            Stmt::Assume { cond, loc } => Stmt::Assume {
                cond: subst_expr(cond, map),
                loc: loc.clone(),
            },
            Stmt::Kill { targets, loc } => Stmt::Kill {
                targets: targets.iter().map(|t| subst_expr(t, map)).collect(),
                loc: loc.clone(),
            },
            Stmt::Call { name, args, loc } => Stmt::Call {
                name: name.clone(),
                args: args.iter().map(|a| subst_expr(a, map)).collect(),
                loc: loc.clone(),
            },
            Stmt::Break(l) => Stmt::Break(l.clone()),
            Stmt::Continue(l) => Stmt::Continue(l.clone()),
        })
        .collect()
}

/// A variable visible in the region: a function parameter, a local of the
/// enclosing function, or a global.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub name: String,
    /// The element type after typedef resolution, as C text (`double`).
    pub base_type: String,
    /// Array extents, outermost first; `None` where the source leaves it open.
    pub dims: Vec<Option<Expr>>,
    /// Declared as a pointer (`double *A`): indexable, extent unknown.
    pub pointer: bool,
    /// A parameter declared `T A[static const restrict n]` (`pencil_array`).
    pub pencil_array: bool,
    /// Declared with `restrict` (`double *restrict A`, `double A[restrict n]`):
    /// the user promises that nothing else reaches its elements.
    pub restrict: bool,
    /// Its elements (or the scalar itself) are declared `const`
    /// (`const float x[n]`, `const double *p`): C forbids writing them.
    pub read_only: bool,
    pub storage: Storage,
    pub loc: Loc,
}

/// Where a variable is declared. An array parameter is a pointer in C and
/// may point into any other array the caller passes or can name; arrays
/// declared as globals or locals are distinct objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    Param,
    Global,
    Local,
}

impl VarDecl {
    pub fn is_integer(&self) -> bool {
        self.dims.is_empty() && !self.pointer && is_integer_type(&self.base_type)
    }
    pub fn rank(&self) -> usize {
        self.dims.len() + usize::from(self.pointer)
    }
}

pub fn is_integer_type(t: &str) -> bool {
    let t = t.replace("const", "").replace("volatile", "");
    let words: Vec<&str> = t.split_whitespace().collect();
    !words.is_empty()
        && words.iter().all(|w| {
            matches!(
                *w,
                "int"
                    | "long"
                    | "short"
                    | "unsigned"
                    | "signed"
                    | "char"
                    | "size_t"
                    | "int32_t"
                    | "int64_t"
                    | "uint32_t"
                    | "uint64_t"
                    | "ptrdiff_t"
                    | "_Bool"
                    | "bool"
            )
        })
}

/// The values of a C integer type on the LP64 targets pencilc emits for
/// (x86-64 and CUDA hosts: `long` is 64 bits, `char` signed), or `None`
/// for a type that is not an integer type.
pub fn integer_range(t: &str) -> Option<(i128, i128)> {
    if !is_integer_type(t) {
        return None;
    }
    let t = t.replace("const", "").replace("volatile", "");
    let words: Vec<&str> = t.split_whitespace().collect();
    let has = |w: &str| words.contains(&w);
    let bits = |n: u32, signed: bool| {
        if signed {
            (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
        } else {
            (0, (1i128 << n) - 1)
        }
    };
    Some(match words.as_slice() {
        ["_Bool"] | ["bool"] => (0, 1),
        ["size_t"] | ["uint64_t"] => bits(64, false),
        ["ptrdiff_t"] | ["int64_t"] => bits(64, true),
        ["int32_t"] => bits(32, true),
        ["uint32_t"] => bits(32, false),
        _ => {
            let signed = !has("unsigned");
            if has("char") {
                bits(8, signed)
            } else if has("short") {
                bits(16, signed)
            } else if has("long") {
                bits(64, signed)
            } else {
                bits(32, signed)
            }
        }
    })
}

pub fn is_float_type(t: &str) -> bool {
    matches!(t.trim(), "float" | "double" | "long double")
}
