//! The front end's syntax tree: the part of C that a SCoP region may contain,
//! with every node carrying its location in the user's file. Later PENCIL
//! constructs (assume, kill, independent, summary calls) become new variants
//! here and new relations in the model, without changing the other nodes.

use crate::diag::Loc;
use std::collections::BTreeMap;

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
    /// The expression's operands, in order.
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => vec![&**a, &**b],
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => vec![&**a],
            ExprKind::Cond(a, b, c) => vec![&**a, &**b, &**c],
            ExprKind::Call(_, args) => args.iter().collect(),
            ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Ident(_) => Vec::new(),
        }
    }

    /// `children`, to change.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        match &mut self.kind {
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => vec![&mut **a, &mut **b],
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => vec![&mut **a],
            ExprKind::Cond(a, b, c) => vec![&mut **a, &mut **b, &mut **c],
            ExprKind::Call(_, args) => args.iter_mut().collect(),
            ExprKind::Int(..) | ExprKind::Float(_) | ExprKind::Ident(_) => Vec::new(),
        }
    }

    /// Whether `name` is one of the expression's identifiers.
    pub fn mentions(&self, name: &str) -> bool {
        match &self.kind {
            ExprKind::Ident(n) => n == name,
            _ => self.children().into_iter().any(|c| c.mentions(name)),
        }
    }

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
    /// `&x`: only as an argument of a call statement (an access to `x`
    /// that the callee may read and write).
    AddrOf,
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

    /// The operator `lhs op= rhs` applies, `None` for a plain store.
    pub fn binary(self) -> Option<BinOp> {
        match self {
            AssignOp::Assign => None,
            AssignOp::Add => Some(BinOp::Add),
            AssignOp::Sub => Some(BinOp::Sub),
            AssignOp::Mul => Some(BinOp::Mul),
            AssignOp::Div => Some(BinOp::Div),
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
    /// `&`, `|`, `^`: integer types only (C has no bitwise floats).
    BitAnd,
    BitOr,
    BitXor,
}

impl RedOp {
    pub fn name(self) -> &'static str {
        match self {
            RedOp::Add => "add",
            RedOp::Mul => "mul",
            RedOp::Min => "min",
            RedOp::Max => "max",
            RedOp::BitAnd => "and",
            RedOp::BitOr => "or",
            RedOp::BitXor => "xor",
        }
    }

    /// The operator as OpenMP's and PENCIL's `reduction` clauses spell it.
    pub fn clause_text(self) -> &'static str {
        match self {
            RedOp::Add => "+",
            RedOp::Mul => "*",
            RedOp::Min => "min",
            RedOp::Max => "max",
            RedOp::BitAnd => "&",
            RedOp::BitOr => "|",
            RedOp::BitXor => "^",
        }
    }

    /// The binary operator of `x = x op e`, for the bitwise ones.
    pub fn bitwise(op: BinOp) -> Option<RedOp> {
        match op {
            BinOp::BitAnd => Some(RedOp::BitAnd),
            BinOp::BitOr => Some(RedOp::BitOr),
            BinOp::BitXor => Some(RedOp::BitXor),
            _ => None,
        }
    }
}

/// `#pragma pencil independent [reduction(op: v, ...)]*` on a loop.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Independent {
    pub reductions: Vec<(RedOp, Vec<String>)>,
    /// Reductions of a part of an array (`reduction(+: hist[i])`): the
    /// array and the leading subscripts that every update of it in the
    /// loop has, each an identifier or an integer literal as written.
    pub sections: Vec<(String, Vec<String>)>,
    pub loc: Option<Loc>,
}

impl Independent {
    /// The leading subscripts a reduction clause gives `var`, if it names
    /// a part of it.
    pub fn section_of(&self, var: &str) -> Option<&[String]> {
        self.sections
            .iter()
            .find(|(v, _)| v == var)
            .map(|(_, s)| s.as_slice())
    }

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
        /// Written as an atomic call (`atomic_add(&lhs, rhs)`): the update
        /// commutes with the other atomic updates of the same array.
        atomic: bool,
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
    /// The statement with each statement list directly inside it (a
    /// loop's body, an `if`'s branches) replaced by what `f` makes of it;
    /// everything else cloned.
    pub fn map_bodies(&self, f: &mut dyn FnMut(&[Stmt]) -> Vec<Stmt>) -> Stmt {
        match self {
            Stmt::For {
                iter,
                iter_type,
                init,
                cond,
                step,
                body,
                independent,
                loc,
            } => Stmt::For {
                iter: iter.clone(),
                iter_type: iter_type.clone(),
                init: init.clone(),
                cond: cond.clone(),
                step: *step,
                body: f(body),
                independent: independent.clone(),
                loc: loc.clone(),
            },
            Stmt::If {
                cond,
                then_,
                else_,
                loc,
            } => Stmt::If {
                cond: cond.clone(),
                then_: f(then_),
                else_: f(else_),
                loc: loc.clone(),
            },
            Stmt::While { cond, body, loc } => Stmt::While {
                cond: cond.clone(),
                body: f(body),
                loc: loc.clone(),
            },
            other => other.clone(),
        }
    }

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

    /// Calls `f` on every expression of the statement and of the
    /// statements inside it (array extents of declarations included).
    pub fn exprs_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        let all = |b: &mut [Stmt], f: &mut dyn FnMut(&mut Expr)| {
            b.iter_mut().for_each(|s| s.exprs_mut(f))
        };
        match self {
            Stmt::For {
                init, cond, body, ..
            } => {
                f(init);
                f(cond);
                all(body, f)
            }
            Stmt::If {
                cond, then_, else_, ..
            } => {
                f(cond);
                all(then_, f);
                all(else_, f)
            }
            Stmt::Assign { lhs, rhs, .. } => {
                f(lhs);
                f(rhs)
            }
            Stmt::While { cond, body, .. } => {
                f(cond);
                all(body, f)
            }
            Stmt::Decl { var, init, .. } => {
                var.dims.iter_mut().flatten().for_each(&mut *f);
                init.iter_mut().for_each(f)
            }
            Stmt::Assume { cond, .. } => f(cond),
            Stmt::Kill { targets: args, .. } | Stmt::Call { args, .. } => {
                args.iter_mut().for_each(f)
            }
            Stmt::Break(_) | Stmt::Continue(_) => {}
        }
    }

    /// Calls `f` on the statement and on every statement inside it, each
    /// before those inside it.
    pub fn each(&self, f: &mut dyn FnMut(&Stmt)) {
        f(self);
        let inner: &[&[Stmt]] = match self {
            Stmt::For { body, .. } | Stmt::While { body, .. } => &[body],
            Stmt::If { then_, else_, .. } => &[then_, else_],
            _ => &[],
        };
        for s in inner.iter().flat_map(|b| b.iter()) {
            s.each(f);
        }
    }

    /// The statement's own expressions, not those of the statements inside
    /// it (array extents of a declaration included).
    pub fn own_exprs(&self) -> Vec<&Expr> {
        match self {
            Stmt::For { init, cond, .. } => vec![init, cond],
            Stmt::If { cond, .. } | Stmt::While { cond, .. } | Stmt::Assume { cond, .. } => {
                vec![cond]
            }
            Stmt::Assign { lhs, rhs, .. } => vec![lhs, rhs],
            Stmt::Decl { var, init, .. } => var.dims.iter().flatten().chain(init).collect(),
            Stmt::Kill { targets: args, .. } | Stmt::Call { args, .. } => args.iter().collect(),
            Stmt::Break(_) | Stmt::Continue(_) => Vec::new(),
        }
    }

    /// Names the statement may write: assigned variables and arrays,
    /// loop iterators, declared names, and every name of a call's
    /// arguments and of a kill.
    pub fn may_write(&self, out: &mut Vec<String>) {
        let all = |b: &[Stmt], out: &mut Vec<String>| b.iter().for_each(|s| s.may_write(out));
        match self {
            Stmt::Assign { lhs, .. } => {
                let mut cur = lhs;
                while let ExprKind::Index(b, _) = &cur.kind {
                    cur = b;
                }
                cur.idents(out);
            }
            Stmt::For { iter, body, .. } => {
                out.push(iter.clone());
                all(body, out);
            }
            Stmt::While { body, .. } => all(body, out),
            Stmt::If { then_, else_, .. } => {
                all(then_, out);
                all(else_, out);
            }
            Stmt::Call { args, .. } | Stmt::Kill { targets: args, .. } => {
                args.iter().for_each(|a| a.idents(out))
            }
            Stmt::Decl { var, .. } => out.push(var.name.clone()),
            Stmt::Assume { .. } | Stmt::Break(_) | Stmt::Continue(_) => {}
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
/// The variables that `body` declares at any depth (`Stmt::Decl`), by
/// name: the front end gives every local a name of its own.
pub fn local_decls(body: &[Stmt]) -> BTreeMap<String, VarDecl> {
    let mut out = BTreeMap::new();
    for s in body {
        s.each(&mut |s| {
            if let Stmt::Decl { var, .. } = s {
                out.insert(var.name.clone(), var.clone());
            }
        });
    }
    out
}

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
            Stmt::Assign {
                lhs,
                op,
                rhs,
                loc,
                atomic,
            } => Stmt::Assign {
                lhs: subst_expr(lhs, map),
                op: *op,
                rhs: subst_expr(rhs, map),
                loc: loc.clone(),
                atomic: *atomic,
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
    /// Declared `volatile` or `register`: neither a copy of it nor its
    /// address stands for the variable, so generated code that reads or
    /// writes it stays in the user's function (`back::outline`).
    pub volatile_or_register: bool,
    pub storage: Storage,
    /// An automatic variable of the function (a local without `static`
    /// or `extern`, a parameter): its object ends with the call, so what
    /// the rest of the function does not read of it is dead.
    pub automatic: bool,
    /// A variable of a struct type whose members are all of `base_type`:
    /// its members in memory order (nested ones as paths, `pos.x`); the
    /// last of `dims` is theirs (`parse::structs`). Empty otherwise.
    pub members: Vec<String>,
    /// The struct type of such a variable by a name C code can use
    /// (`struct TAG` or a typedef name), if it has one.
    pub struct_type: Option<String>,
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
    /// One struct (`struct s s;`, a struct parameter), not an array of
    /// them or a pointer: its only dimension is its members'.
    pub fn is_struct_object(&self) -> bool {
        !self.members.is_empty() && !self.pointer && self.dims.len() == 1
    }
}

/// The marker call a call's argument that is a struct's member array or
/// the address of a struct member becomes (`f(s[i].a[k])`, `g(&s.f[2])`):
/// `pencilc_member_row(first, places, structs, extents...)`, `first` the
/// element at the row's first place (`s[i][place]`), `places` how many it
/// spans, `structs` 1 where they are structs' (the callee takes a struct
/// type kernels do not know), `extents` those of the array dimensions the
/// argument leaves. The prefix is reserved, so no user call has this name.
pub const MEMBER_ROW: &str = "pencilc_member_row";

/// A `MEMBER_ROW` marker's arguments, read back.
pub struct MemberRowArgs<'e> {
    pub first: &'e Expr,
    pub places: usize,
    pub structs: bool,
    pub extents: &'e [Expr],
}

/// `e`'s arguments where it is a `MEMBER_ROW` marker.
pub fn member_row(e: &Expr) -> Option<MemberRowArgs<'_>> {
    let ExprKind::Call(f, args) = &e.kind else {
        return None;
    };
    let [first, places, structs, extents @ ..] = args.as_slice() else {
        return None;
    };
    match (f == MEMBER_ROW, &places.kind, &structs.kind) {
        (true, ExprKind::Int(p, _), ExprKind::Int(s, _)) if *p > 0 => Some(MemberRowArgs {
            first,
            places: *p as usize,
            structs: *s != 0,
            extents,
        }),
        _ => None,
    }
}

/// Names for a diagnostic: the first eight, then how many there are (a
/// struct of arrays has thousands of members).
pub fn listed(names: &[String]) -> String {
    const SHOWN: usize = 8;
    if names.len() <= SHOWN {
        return names.join(", ");
    }
    format!(
        "{}, ... ({} in all)",
        names[..SHOWN].join(", "),
        names.len()
    )
}

/// A C integer type: its width in bits and signedness on the LP64 targets
/// pencilc emits for (x86-64 and CUDA hosts: `long` is 64 bits, `char`
/// signed). `_Bool` is `(1, false)`. The <stdint.h> and <stddef.h> names
/// are known by name too, since casts keep the type as written (the
/// typedefs resolve declarations only), and tree-sitter-c takes these
/// names for primitive types.
pub fn integer_kind(t: &str) -> Option<(u32, bool)> {
    let words: Vec<&str> = t
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "restrict"))
        .collect();
    if let [w] = words.as_slice() {
        if let Some(k) = stdint_kind(w) {
            return Some(k);
        }
    }
    let known = |w: &&str| {
        matches!(
            *w,
            "int" | "long" | "short" | "unsigned" | "signed" | "char"
        )
    };
    if words.is_empty() || !words.iter().all(known) {
        return None;
    }
    let has = |w: &str| words.contains(&w);
    let signed = !has("unsigned");
    Some(if has("char") {
        (8, signed)
    } else if has("short") {
        (16, signed)
    } else if has("long") {
        (64, signed)
    } else {
        (32, signed)
    })
}

/// The fixed names of <stdint.h>, <stddef.h> and <stdbool.h> as glibc
/// defines them on x86-64.
fn stdint_kind(w: &str) -> Option<(u32, bool)> {
    Some(match w {
        "_Bool" | "bool" => (1, false),
        "size_t" | "uintptr_t" | "uintmax_t" => (64, false),
        "ptrdiff_t" | "intptr_t" | "intmax_t" | "ssize_t" => (64, true),
        "int_fast8_t" => (8, true),
        "uint_fast8_t" => (8, false),
        "int_fast16_t" | "int_fast32_t" | "int_fast64_t" => (64, true),
        "uint_fast16_t" | "uint_fast32_t" | "uint_fast64_t" => (64, false),
        _ => {
            let rest = w.strip_suffix("_t")?;
            let (signed, rest) = match rest.strip_prefix('u') {
                Some(r) => (false, r),
                None => (true, rest),
            };
            let rest = rest.strip_prefix("int")?;
            let rest = rest.strip_prefix("_least").unwrap_or(rest);
            let bits: u32 = rest.parse().ok()?;
            if !matches!(bits, 8 | 16 | 32 | 64) {
                return None;
            }
            (bits, signed)
        }
    })
}

/// The statements of `list`, nested ones included: the cost of copying
/// it.
fn stmt_count(list: &[Stmt]) -> usize {
    list.iter()
        .map(|s| match s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => 1 + stmt_count(body),
            Stmt::If { then_, else_, .. } => 1 + stmt_count(then_) + stmt_count(else_),
            _ => 1,
        })
        .sum()
}

/// Whether `list` has a `break` or `continue` at its own level or in its
/// `if`s (not one of a loop inside it): one of the loop (or `switch`)
/// whose body `list` is.
pub fn has_own_jump(list: &[Stmt]) -> bool {
    list.iter().any(|s| match s {
        Stmt::Break(_) | Stmt::Continue(_) => true,
        Stmt::If { then_, else_, .. } => has_own_jump(then_) || has_own_jump(else_),
        _ => false,
    })
}

/// What `without_jumps` does with a `break` or `continue` of the list.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Jump {
    /// Ends its path and goes: what follows it on that path never runs
    /// (a `switch`'s `break`, a loop's `continue`).
    Drop,
    /// Ends its path and stays (a loop's `continue` inside a `switch`).
    Keep,
    /// Cannot be taken out: the list stays as it is.
    Refuse,
}

/// At most this many statements after an `if` are copied into both of
/// its branches by `without_jumps`.
const MAX_COPIED: usize = 16;

/// `list` without the jumps `kind` says to drop, where each ends its path:
/// the statements after an `if` that has some move into the branches a
/// path comes out of (copied into both where both may, at most
/// `MAX_COPIED`), so that they run exactly where they ran. Also whether a
/// path may reach the end of `list`. `None` where a jump is `Refuse`d or
/// too much would need copying.
pub fn without_jumps(list: &[Stmt], kind: &dyn Fn(&Stmt) -> Jump) -> Option<(Vec<Stmt>, bool)> {
    let taken = |l: &[Stmt]| jumps(l, &|s| kind(s) != Jump::Keep);
    let mut out = Vec::new();
    for (k, s) in list.iter().enumerate() {
        match s {
            Stmt::Break(_) | Stmt::Continue(_) => {
                match kind(s) {
                    Jump::Drop => {}
                    Jump::Keep => out.push(s.clone()),
                    Jump::Refuse => return None,
                }
                // What follows never runs.
                return Some((out, false));
            }
            Stmt::If {
                cond,
                then_,
                else_,
                loc,
            } if taken(then_) || taken(else_) => {
                let rest = &list[k + 1..];
                let then_falls = without_jumps(then_, kind)?.1;
                let else_falls = without_jumps(else_, kind)?.1;
                if then_falls && else_falls && stmt_count(rest) > MAX_COPIED {
                    return None;
                }
                let with_rest = |branch: &[Stmt], falls: bool| -> Vec<Stmt> {
                    let mut b = branch.to_vec();
                    if falls {
                        b.extend(rest.iter().cloned());
                    }
                    b
                };
                let (then_, then_falls) = without_jumps(&with_rest(then_, then_falls), kind)?;
                let (else_, else_falls) = without_jumps(&with_rest(else_, else_falls), kind)?;
                out.push(Stmt::If {
                    cond: cond.clone(),
                    then_,
                    else_,
                    loc: loc.clone(),
                });
                return Some((out, then_falls || else_falls));
            }
            other => out.push(other.clone()),
        }
    }
    Some((out, true))
}

/// Whether `list` has, at its own level or in its `if`s, a jump `which`
/// accepts.
fn jumps(list: &[Stmt], which: &dyn Fn(&Stmt) -> bool) -> bool {
    list.iter().any(|s| match s {
        Stmt::Break(_) | Stmt::Continue(_) => which(s),
        Stmt::If { then_, else_, .. } => jumps(then_, which) || jumps(else_, which),
        _ => false,
    })
}

pub fn is_integer_type(t: &str) -> bool {
    integer_kind(t).is_some()
}

/// The values of a C integer type (see `integer_kind`), or `None` for a
/// type that is not an integer type.
pub fn integer_range(t: &str) -> Option<(i128, i128)> {
    let (n, signed) = integer_kind(t)?;
    Some(if signed {
        (-(1i128 << (n - 1)), (1i128 << (n - 1)) - 1)
    } else {
        (0, (1i128 << n) - 1)
    })
}

/// An integer type as device code spells it, the same in OpenCL C and
/// CUDA: `unsigned char` for `uint8_t` (OpenCL C has no <stdint.h>),
/// `long` for `long long` (reserved in OpenCL C, where PoCL reads it as
/// 128 bits) and for `size_t` (not a valid kernel argument type), `bool`
/// for `_Bool`; `char` is signed in both, as on the hosts. Other types
/// are returned unchanged.
pub fn device_int_type(t: &str) -> String {
    let name = match integer_kind(t) {
        // C's spelling: OpenCL C has it too, and a C variable may be
        // named `bool` (`back::device_names` makes it C++'s for CUDA).
        Some((1, _)) => "_Bool",
        Some((8, true)) => "char",
        Some((8, false)) => "unsigned char",
        Some((16, true)) => "short",
        Some((16, false)) => "unsigned short",
        Some((32, true)) => "int",
        Some((32, false)) => "unsigned int",
        Some((64, true)) => "long",
        Some((64, false)) => "unsigned long",
        _ => return t.to_string(),
    };
    let constant = t.split_whitespace().any(|w| w == "const");
    if constant {
        format!("const {}", name)
    } else {
        name.to_string()
    }
}

/// An element type of a device buffer or a kernel argument: as
/// `device_int_type`, except `_Bool`, which OpenCL C allows in neither
/// (one byte holding 0 or 1 on the host, so `unsigned char`; stores
/// convert to 0 or 1 as C's do, see `back::stmt`).
pub fn buffer_type(t: &str) -> String {
    match device_int_type(t).as_str() {
        "_Bool" => "unsigned char".to_string(),
        "const _Bool" => "const unsigned char".to_string(),
        d => d.to_string(),
    }
}

pub fn is_float_type(t: &str) -> bool {
    matches!(t.trim(), "float" | "double" | "long double")
}

/// Unit tests' shorthand for expressions, without locations.
#[cfg(test)]
pub(crate) mod build {
    use super::{BinOp, Expr, ExprKind};
    use crate::diag::Loc;

    pub fn e(kind: ExprKind) -> Expr {
        Expr {
            kind,
            loc: Loc::unknown(),
        }
    }
    pub fn id(n: &str) -> Expr {
        e(ExprKind::Ident(n.into()))
    }
    pub fn int(v: i64) -> Expr {
        e(ExprKind::Int(v, v.to_string()))
    }
    pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }
    pub fn call(f: &str, args: Vec<Expr>) -> Expr {
        e(ExprKind::Call(f.into(), args))
    }
}
