//! `sizeof` in a region: a constant of type `size_t`, computed here as the
//! LP64 hosts pencilc emits for compute it (x86-64 and CUDA's hosts), so
//! that the model sees a number (`i < sizeof a / sizeof a[0]` is an affine
//! bound) and every target prints the same value. Only what the parser
//! can size without doubt is sized: arithmetic types, pointers, arrays of
//! them with constant extents, and variables or their elements by name.
//! Anything else (structs, variable-length arrays, arbitrary expressions)
//! is refused with the construct named, never guessed.

use super::casts::{strip_parentheses, unqualified};
use super::exprs::const_value;
use super::Cx;
use crate::diag::{Code, Result};
use crate::front::syntax::{integer_kind, Expr, ExprKind};
use tree_sitter::Node;

/// Bytes of a pointer on the LP64 hosts.
const POINTER_BYTES: i64 = 8;

/// The size of an arithmetic or pointer type written as C text (typedefs
/// already resolved); `None` for any other type.
pub(super) fn scalar_bytes(t: &str) -> Option<i64> {
    let t = unqualified(t);
    if t.ends_with('*') {
        return Some(POINTER_BYTES);
    }
    if let Some((bits, _)) = integer_kind(&t) {
        return Some(i64::from(bits.max(8) / 8));
    }
    match t.as_str() {
        "float" => Some(4),
        "double" => Some(8),
        // x86-64's 80-bit extended type, padded to 16 bytes.
        "long double" => Some(16),
        _ => None,
    }
}

impl Cx<'_> {
    /// `sizeof (T)` or `sizeof e` as an `unsigned long` literal.
    pub(super) fn sizeof(&self, n: Node) -> Result<Expr> {
        let bytes = match (
            n.child_by_field_name("type"),
            n.child_by_field_name("value"),
        ) {
            (Some(t), _) => self.type_bytes(t)?,
            (None, Some(v)) => self.value_bytes(v)?,
            _ => return Err(self.syntax(n)),
        };
        let Some(bytes) = bytes else {
            return Err(self
                .err(
                    Code::UnsupportedStatement,
                    n,
                    format!(
                        "pencilc cannot size `{}` in a region",
                        self.text(n)
                    ),
                )
                .with_hint("take `sizeof` of an arithmetic or pointer type, an array of constant extents, or a variable or element by name; or write the size as a constant"));
        };
        Ok(Expr {
            kind: ExprKind::Int(bytes, format!("{}UL", bytes)),
            loc: self.loc(n),
        })
    }

    /// The size of a type descriptor: a type with, at most, constant array
    /// extents or one pointer after it.
    fn type_bytes(&self, td: Node) -> Result<Option<i64>> {
        let Some(spec) = td.child_by_field_name("type") else {
            return Ok(None);
        };
        let text = self
            .text(spec)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let declarator = td.child_by_field_name("declarator");
        // `sizeof (x)` of a variable: tree-sitter may read the name as a
        // type. A variable's name hides a typedef's (it is declared in an
        // inner scope: a file's scope cannot declare both).
        if declarator.is_none()
            && spec.kind() == "type_identifier"
            && (self.in_scope(&text) || !self.is_typedef(&text))
        {
            return self.name_bytes(spec, 0);
        }
        let base = self.named_type_bytes(spec, text)?;
        let Some(base) = base else {
            return Ok(None);
        };
        Ok(match declarator {
            None => Some(base),
            Some(d) => self.abstract_bytes(d, base)?,
        })
    }

    fn is_typedef(&self, name: &str) -> bool {
        self.typedefs.borrow().contains_key(name) || self.array_typedefs.borrow().contains_key(name)
    }

    /// The size of the type `text` names (an arithmetic or pointer type,
    /// or a typedef of one or of an array of one), written at `at`.
    fn named_type_bytes(&self, at: Node, text: String) -> Result<Option<i64>> {
        if let Some(e) = self.local_typedef(at, &text) {
            return Err(e);
        }
        Ok(match self.array_typedefs.borrow().get(&text) {
            Some((element, extents)) => {
                let mut bytes = scalar_bytes(element);
                for e in extents {
                    let n = e.as_ref().and_then(const_value);
                    bytes = bytes.zip(n).and_then(|(b, n)| b.checked_mul(n));
                }
                bytes
            }
            None => {
                let resolved = self.typedefs.borrow().get(&text).cloned().unwrap_or(text);
                scalar_bytes(&resolved)
            }
        })
    }

    /// `[n]...` (arrays of constant extents) or a lone `*` after a type of
    /// `base` bytes. Other abstract declarators (`(*)[n]`, `*[n]`,
    /// functions) are not sized.
    fn abstract_bytes(&self, d: Node, base: i64) -> Result<Option<i64>> {
        match d.kind() {
            "abstract_pointer_declarator" => Ok(d
                .child_by_field_name("declarator")
                .is_none()
                .then_some(POINTER_BYTES)),
            "abstract_array_declarator" => {
                let Some(size) = d.child_by_field_name("size") else {
                    return Ok(None);
                };
                let Some(n) = const_value(&self.expr(size)?).filter(|n| *n > 0) else {
                    return Ok(None);
                };
                let inner = match d.child_by_field_name("declarator") {
                    None => Some(base),
                    Some(i) if i.kind() == "abstract_array_declarator" => {
                        self.abstract_bytes(i, base)?
                    }
                    Some(_) => None,
                };
                Ok(inner.and_then(|b| b.checked_mul(n)))
            }
            _ => Ok(None),
        }
    }

    /// The size of `v` where it is a variable or one of its rows or
    /// elements by name (`a`, `a[i]`, `A[i][j]`, `*p`, in parentheses or
    /// not);
    /// the subscripts are not evaluated, as C does not evaluate them.
    fn value_bytes(&self, v: Node) -> Result<Option<i64>> {
        let mut x = strip_parentheses(v);
        // Subscripts, innermost last; `None` for a `*p`, which reaches what
        // `p[0]` does.
        let mut subscripts: Vec<Option<Node>> = Vec::new();
        while x.kind() == "subscript_expression"
            || (x.kind() == "pointer_expression"
                && x.child_by_field_name("operator")
                    .is_some_and(|o| self.text(o) == "*"))
        {
            subscripts.push(x.child_by_field_name("index"));
            x = match x.child_by_field_name("argument") {
                Some(a) => strip_parentheses(a),
                None => return Ok(None),
            };
        }
        if x.kind() != "identifier" {
            return Ok(None);
        }
        let name = self.text(x);
        // `sizeof (T)` or `sizeof (T[n])` of a type's name: tree-sitter,
        // knowing no typedef names (nor `_Bool`), reads it as an
        // expression in parentheses.
        let type_name =
            !self.in_scope(name) && (self.is_typedef(name) || scalar_bytes(name).is_some());
        if type_name && v.kind() == "parenthesized_expression" {
            let mut bytes = self.named_type_bytes(x, name.to_string())?;
            for s in &subscripts {
                let n = match s {
                    Some(i) => const_value(&self.expr(*i)?).filter(|n| *n > 0),
                    None => None,
                };
                bytes = bytes.zip(n).and_then(|(b, n)| b.checked_mul(n));
            }
            return Ok(bytes);
        }
        self.name_bytes(x, subscripts.len())
    }

    /// The size of the variable named at `name` after `subscripts`
    /// subscripts.
    fn name_bytes(&self, name: Node, subscripts: usize) -> Result<Option<i64>> {
        let written = self.text(name);
        if !self.is_declared(written) {
            return Err(self.undeclared(name, written));
        }
        let Some(spelled) = self.resolve(written) else {
            return Ok(None);
        };
        let Some(d) = self.declared.borrow().get(&spelled).cloned() else {
            // Struct variables, loop iterators: not recorded.
            return Ok(None);
        };
        let Some(element) = scalar_bytes(&d.element) else {
            return Ok(None);
        };
        // The levels a subscript goes through, outermost first: `None` for
        // a pointer's (a parameter's outermost extent is one, and so is an
        // extent left open).
        let mut levels: Vec<Option<i64>> = Vec::new();
        if d.pointer {
            levels.push(None);
        }
        for (k, e) in d.extent_values().into_iter().enumerate() {
            levels.push(if k == 0 && d.param { None } else { e });
        }
        if subscripts > levels.len() {
            return Ok(None);
        }
        let rest = &levels[subscripts..];
        match rest.first() {
            None => Ok(Some(element)),
            // A parameter's pointer, or a pointer variable.
            Some(None) if subscripts == 0 && (d.param || d.pointer) => Ok(Some(POINTER_BYTES)),
            _ => Ok(rest
                .iter()
                .try_fold(element, |b, e| e.and_then(|n| b.checked_mul(n)))),
        }
    }
}
