//! Enumeration constants (`enum { R2Y = 4899, B2Y = 1868 };`): integer
//! constants of type `int` that PENCIL code uses in subscripts, bounds and
//! arithmetic. They reach the model as the literals they stand for, since
//! kernels see none of the user's declarations.

use super::Cx;
use crate::front::int_type::IntTy;
use crate::front::syntax::{BinOp, Expr, ExprKind, UnOp};
use std::collections::BTreeMap;
use tree_sitter::Node;

/// What an enumerator stands for.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Enumerator {
    Value(i64),
    /// Its value is not an integer constant expression pencilc evaluates
    /// (`sizeof`, a cast to a pointer), or two enumerators of the file
    /// share its name with different values: why, and what to do.
    Unknown(&'static str, &'static str),
}

impl Cx<'_> {
    /// Every enumerator of the file (at file scope or in a function),
    /// with its value: the given one, or one more than the previous
    /// enumerator's, starting at 0.
    pub(super) fn collect_enumerators(&self, root: Node) -> BTreeMap<String, Enumerator> {
        let mut out: BTreeMap<String, Enumerator> = BTreeMap::new();
        // Iterative: the file's tree may be deeper than the stack allows.
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if n.kind() == "enumerator_list" {
                self.enumerator_list(n, &mut out);
                continue;
            }
            let mut c = n.walk();
            let children: Vec<Node> = n.named_children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
        out
    }

    fn enumerator_list(&self, list: Node, out: &mut BTreeMap<String, Enumerator>) {
        let mut next = Some(0i64);
        let mut c = list.walk();
        for e in list.named_children(&mut c) {
            if e.kind() != "enumerator" {
                continue;
            }
            let Some(name) = e.child_by_field_name("name") else {
                continue;
            };
            let value = match e.child_by_field_name("value") {
                Some(v) => self.expr(v).ok().and_then(|x| enum_value(&x, out)),
                None => next,
            };
            // C gives enumerators the type `int`.
            let value = value.filter(|v| i32::try_from(*v).is_ok());
            next = value.and_then(|v| v.checked_add(1));
            let this = match value {
                Some(v) => Enumerator::Value(v),
                None => Enumerator::Unknown(
                    "its value is not an integer constant expression of `int` that pencilc evaluates",
                    "give the enumerator a literal value (`NAME = 42`), or use a `#define`",
                ),
            };
            let name = self.text(name).to_string();
            match out.get(&name) {
                Some(old) if *old != this => {
                    out.insert(
                        name,
                        Enumerator::Unknown(
                            "the file declares enumerators of this name with different values",
                            "rename one of them: pencilc reads every enum of the file, whatever its scope",
                        ),
                    );
                }
                _ => {
                    out.insert(name, this);
                }
            }
        }
    }
}

/// The value of an enumerator's constant expression: literals, `sizeof`,
/// earlier enumerators and C's integer operators, as `int` arithmetic
/// (every operand and result in `int`'s range, or no value).
fn enum_value(e: &Expr, known: &BTreeMap<String, Enumerator>) -> Option<i64> {
    typed_value(e, known).map(|(v, _)| v)
}

/// `enum_value` with whether C computes the value in an unsigned type
/// (`1u`, `sizeof`): such arithmetic wraps where `int`'s would go below
/// zero (`sizeof(int) - 8` is 2^64 - 4), so a negative value of it, or a
/// negative operand converted to it, has no value here.
fn typed_value(e: &Expr, known: &BTreeMap<String, Enumerator>) -> Option<(i64, bool)> {
    let int = |v: i64| i32::try_from(v).ok().map(i64::from);
    let (v, unsigned) = match &e.kind {
        ExprKind::Int(v, text) => (*v, !IntTy::of_literal(text, *v).signed),
        ExprKind::Ident(n) => match known.get(n)? {
            Enumerator::Value(v) => (*v, false),
            Enumerator::Unknown(..) => return None,
        },
        ExprKind::Unary(op, a) => {
            let (a, unsigned) = typed_value(a, known)?;
            let v = match op {
                UnOp::Neg if unsigned && a != 0 => return None,
                UnOp::Neg => a.checked_neg()?,
                UnOp::Plus => a,
                UnOp::Not => return Some((i64::from(a == 0), false)),
                UnOp::BitNot if unsigned => return None,
                UnOp::BitNot => !a,
                _ => return None,
            };
            (v, unsigned)
        }
        ExprKind::Binary(op, a, b) => {
            let ((a, ua), (b, ub)) = (typed_value(a, known)?, typed_value(b, known)?);
            // The usual arithmetic conversions, except for shifts, whose
            // type is the left operand's.
            let unsigned = match op {
                BinOp::Shl | BinOp::Shr => ua,
                _ => ua || ub,
            };
            if unsigned && (a < 0 || b < 0) {
                return None;
            }
            let v = match op {
                BinOp::Add => a.checked_add(b)?,
                BinOp::Sub => a.checked_sub(b)?,
                BinOp::Mul => a.checked_mul(b)?,
                // C truncates toward zero, as Rust does.
                BinOp::Div if b != 0 => a / b,
                BinOp::Rem if b != 0 => a % b,
                BinOp::Shl if (0..31).contains(&b) && a >= 0 => a.checked_shl(b as u32)?,
                BinOp::Shr if (0..32).contains(&b) => a >> b,
                BinOp::BitAnd => a & b,
                BinOp::BitOr => a | b,
                BinOp::BitXor => a ^ b,
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
                    let holds = match op {
                        BinOp::Lt => a < b,
                        BinOp::Le => a <= b,
                        BinOp::Gt => a > b,
                        BinOp::Ge => a >= b,
                        BinOp::Eq => a == b,
                        _ => a != b,
                    };
                    return Some((i64::from(holds), false));
                }
                BinOp::And => return Some((i64::from(a != 0 && b != 0), false)),
                BinOp::Or => return Some((i64::from(a != 0 || b != 0), false)),
                _ => return None,
            };
            (v, unsigned)
        }
        ExprKind::Cond(c, a, b) => {
            let (c, _) = typed_value(c, known)?;
            let ((a, ua), (b, ub)) = (typed_value(a, known)?, typed_value(b, known)?);
            let unsigned = ua || ub;
            if unsigned && (a < 0 || b < 0) {
                return None;
            }
            (if c != 0 { a } else { b }, unsigned)
        }
        ExprKind::Cast(t, a) => {
            let (v, _) = typed_value(a, known)?;
            let (lo, hi) = crate::front::syntax::integer_range(t)?;
            if (v as i128) < lo || (v as i128) > hi {
                return None;
            }
            (v, lo == 0)
        }
        _ => return None,
    };
    if unsigned && v < 0 {
        return None;
    }
    Some((int(v)?, unsigned))
}
