//! The enclosing function's variables that a region sees (its parameters
//! and the locals declared before it), described as another function's
//! parameters: what `back::outline` needs to move a region's generated
//! versions out of the user's function and call them with these
//! variables. Globals are not here: they are visible everywhere the
//! generated functions are.

use crate::front::syntax::{BinOp, Expr, ExprKind, Storage, UnOp, VarDecl};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq)]
pub struct FrameVar {
    pub name: String,
    pub kind: FrameKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FrameKind {
    /// A scalar of an arithmetic type (`ty`, qualifiers included): passed
    /// by value, or by address where the region writes it.
    Scalar { ty: String },
    /// An array or a pointer of an arithmetic element type, passed as it
    /// is declared: `decl` is that declaration as a parameter (`double
    /// A[restrict 240][n]`, `const float *p`), and `extent_vars` the
    /// function parameters its extents read, which must be passed before
    /// it.
    Array {
        decl: String,
        extent_vars: Vec<String>,
    },
    /// Anything else (a struct, `volatile`, a typedef that did not
    /// resolve to a C type, extents that read locals): a region that uses
    /// it keeps its versions in the user's function.
    Opaque,
}

/// The non-global variables of `symbols`, each described, in the order
/// the user declared them.
pub fn frame(symbols: &BTreeMap<String, VarDecl>) -> Vec<FrameVar> {
    let mut decls: Vec<&VarDecl> = symbols
        .values()
        .filter(|d| d.storage != Storage::Global)
        .collect();
    decls.sort_by_key(|d| (d.loc.line, d.loc.col));
    decls
        .into_iter()
        .map(|d| FrameVar {
            name: d.name.clone(),
            kind: kind_of(d, symbols),
        })
        .collect()
}

fn kind_of(d: &VarDecl, symbols: &BTreeMap<String, VarDecl>) -> FrameKind {
    if d.volatile_or_register
        || !d.members.is_empty()
        || d.struct_type.is_some()
        || !is_arithmetic(&d.base_type)
    {
        return FrameKind::Opaque;
    }
    let has_const = d.base_type.split_whitespace().any(|w| w == "const");
    let ty = if d.read_only && !has_const {
        format!("const {}", d.base_type)
    } else {
        d.base_type.clone()
    };
    match (d.pointer, d.dims.is_empty()) {
        (false, true) => FrameKind::Scalar { ty },
        (true, true) => FrameKind::Array {
            decl: format!(
                "{} *{}{}",
                ty,
                if d.restrict { "restrict " } else { "" },
                d.name
            ),
            extent_vars: Vec::new(),
        },
        (false, false) => {
            let mut extent_vars = Vec::new();
            let mut dims = String::new();
            for (k, e) in d.dims.iter().enumerate() {
                let text = match e {
                    None if k == 0 => String::new(),
                    None => return FrameKind::Opaque,
                    Some(e) => match extent_text(e, symbols, &mut extent_vars) {
                        Some(t) => t,
                        None => return FrameKind::Opaque,
                    },
                };
                let qualifier = if k == 0 && d.restrict && d.storage == Storage::Param {
                    "restrict "
                } else {
                    ""
                };
                dims.push_str(&format!("[{}{}]", qualifier, text));
            }
            extent_vars.sort();
            extent_vars.dedup();
            FrameKind::Array {
                decl: format!("{} {}{}", ty, d.name, dims),
                extent_vars,
            }
        }
        (true, false) => FrameKind::Opaque,
    }
}

/// Every word a C arithmetic type is spelled with (after typedefs).
fn is_arithmetic(ty: &str) -> bool {
    let words: Vec<&str> = ty.split_whitespace().collect();
    let type_word = |w: &&str| {
        matches!(
            *w,
            "char"
                | "short"
                | "int"
                | "long"
                | "float"
                | "double"
                | "_Bool"
                | "signed"
                | "unsigned"
        )
    };
    words.iter().any(type_word) && words.iter().all(|w| type_word(w) || *w == "const")
}

/// An extent as C text, where it is made of integer literals and the
/// function's integer parameters (their values at the call are what the
/// declaration's were: the model takes them for the region's
/// parameters); `None` otherwise.
fn extent_text(
    e: &Expr,
    symbols: &BTreeMap<String, VarDecl>,
    vars: &mut Vec<String>,
) -> Option<String> {
    Some(match &e.kind {
        ExprKind::Int(_, text) => text.clone(),
        ExprKind::Ident(n) => {
            let d = symbols.get(n)?;
            let integer = d.dims.is_empty()
                && !d.pointer
                && crate::front::syntax::is_integer_type(&d.base_type);
            if d.storage != Storage::Param || !integer || d.volatile_or_register {
                return None;
            }
            vars.push(n.clone());
            n.clone()
        }
        ExprKind::Unary(UnOp::Neg, a) => format!("-({})", extent_text(a, symbols, vars)?),
        ExprKind::Binary(op, a, b)
            if matches!(
                op,
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
            ) =>
        {
            format!(
                "({}) {} ({})",
                extent_text(a, symbols, vars)?,
                op.c_text(),
                extent_text(b, symbols, vars)?
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_types_only() {
        assert!(is_arithmetic("double"));
        assert!(is_arithmetic("const unsigned long int"));
        assert!(is_arithmetic("_Bool"));
        assert!(!is_arithmetic("const"));
        assert!(!is_arithmetic("struct point"));
        assert!(!is_arithmetic("uint32_t"));
        assert!(!is_arithmetic("enum color"));
    }
}
