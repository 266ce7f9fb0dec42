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

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    For {
        iter: String,
        init: Expr,
        cond: Expr,
        step: i64,
        body: Vec<Stmt>,
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
    pub loc: Loc,
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

pub fn is_float_type(t: &str) -> bool {
    matches!(t.trim(), "float" | "double" | "long double")
}
