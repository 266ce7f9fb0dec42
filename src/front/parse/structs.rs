//! Structs whose members are all of one arithmetic type, such as the
//! complex numbers of DSL-generated BLAS (`struct ComplexFloat { float Re;
//! float Im; }`): an array of them is laid out as an array of that type
//! with one more, innermost, dimension (one place per member, no padding
//! between members of one type), so the model takes `A[i][j].Im` as
//! `A[i][j][1]` of a `float` array. Kernels then see plain buffers; host
//! code, which keeps the user's declarations, prints the member again
//! (`back::body`).
//!
//! Nested structs count their members' members (`p.pos.x`). A member that
//! is an array of constant extents of the same type takes one place per
//! element (`struct { int c[10]; }`: `b[i][j].c[k]` is `b[i][j][k]`), as C
//! lays it out. Members that are pointers, bit-fields, of another type or
//! arrays of structs, and unions, keep the struct out of the model: using
//! it in a region is an error that says which member.

use super::Cx;
use crate::diag::{Code, Result};
use crate::front::syntax::{integer_range, is_float_type, BinOp, Expr, ExprKind, VarDecl};
use std::collections::BTreeMap;
use tree_sitter::Node;

/// A struct type the model can hold: its members' type and the members in
/// memory order, nested ones as paths (`pos.x`).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Layout {
    pub scalar: String,
    pub members: Vec<String>,
    /// The members that are arrays: path, first place, extents.
    pub arrays: Vec<(String, usize, Vec<usize>)>,
}

/// What the region may do with a variable of struct type: its layout and
/// the rank it was declared with, or why its members cannot be accessed.
#[derive(Clone, Debug)]
pub(super) enum StructVar {
    Usable { layout: Layout, rank: usize },
    Unusable(String),
}

/// The key a struct type is known by: `struct TAG`, or the whole
/// specifier text (whitespace normalised) for an untagged struct.
fn struct_key(type_text: &str) -> Option<String> {
    let t = normalise(&without_attributes(type_text));
    let words: Vec<&str> = t.split(' ').filter(|w| !is_qualifier(w)).collect();
    let unqualified = words.join(" ");
    let rest = unqualified.strip_prefix("struct")?;
    if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let tag: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    Some(if tag.is_empty() {
        unqualified
    } else {
        format!("struct {}", tag)
    })
}

/// The text without its `__attribute__((...))` groups.
fn without_attributes(t: &str) -> String {
    let mut out = String::new();
    let mut rest = t;
    while let Some(p) = rest.find("__attribute__") {
        out.push_str(&rest[..p]);
        let after = &rest[p + "__attribute__".len()..];
        let Some(open) = after.find('(') else {
            rest = after;
            continue;
        };
        let mut depth = 0usize;
        let mut end = after.len();
        for (k, c) in after.char_indices().skip(open) {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(' ');
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn normalise(t: &str) -> String {
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_qualifier(w: &str) -> bool {
    matches!(w, "const" | "volatile" | "restrict")
}

impl Cx<'_> {
    /// The layout of every struct the file defines, in definition order
    /// (a nested struct is defined before its use, as C requires).
    pub(super) fn collect_structs(
        &self,
        root: Node,
    ) -> BTreeMap<String, std::result::Result<Layout, String>> {
        let mut out = BTreeMap::new();
        // Iterative, children in order: the tree may be deep.
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            let mut c = n.walk();
            let children: Vec<Node> = n.named_children(&mut c).collect();
            stack.extend(children.into_iter().rev());
            if n.kind() != "struct_specifier" {
                continue;
            }
            let Some(body) = n.child_by_field_name("body") else {
                continue;
            };
            let head = &self.text(n)[..body.start_byte() - n.start_byte()];
            let layout = if head.contains("aligned") || self.text(body).contains("_Alignas") {
                Err(
                    "it is declared with an alignment, which may put padding between its elements"
                        .into(),
                )
            } else {
                self.struct_body(body, &out)
            };
            if let Some(key) = struct_key(self.text(n)) {
                out.insert(key, layout.clone());
            }
            out.insert(normalise(self.text(n)), layout);
        }
        out
    }

    fn struct_body(
        &self,
        body: Node,
        known: &BTreeMap<String, std::result::Result<Layout, String>>,
    ) -> std::result::Result<Layout, String> {
        let mut members: Vec<(String, String)> = Vec::new();
        let mut arrays: Vec<(String, usize, Vec<usize>)> = Vec::new();
        let mut c = body.walk();
        for f in body.named_children(&mut c) {
            if f.kind() != "field_declaration" {
                continue;
            }
            let Some(ty) = f.child_by_field_name("type") else {
                continue;
            };
            let ty_text = self.resolve_typedef(self.text(ty));
            let mut dc = f.walk();
            let decls: Vec<Node> = f.children_by_field_name("declarator", &mut dc).collect();
            let mut bc = f.walk();
            if f.named_children(&mut bc)
                .any(|k| k.kind() == "bitfield_clause")
            {
                return Err(format!(
                    "its member `{}` is a bit-field",
                    self.text(f).trim()
                ));
            }
            for d in decls {
                if d.kind() == "array_declarator" && is_arithmetic(&ty_text) {
                    let Some((name, dims)) = self.constant_array(d) else {
                        return Err(format!(
                            "its member `{}` is an array without constant extents",
                            normalise(self.text(d))
                        ));
                    };
                    arrays.push((name.clone(), members.len(), dims.clone()));
                    let count: usize = dims.iter().product();
                    for k in 0..count {
                        let mut rest = k;
                        let mut place = String::new();
                        for j in 0..dims.len() {
                            let below: usize = dims[j + 1..].iter().product();
                            place.push_str(&format!("[{}]", rest / below));
                            rest %= below;
                        }
                        members.push((format!("{}{}", name, place), ty_text.clone()));
                    }
                    continue;
                }
                if d.kind() != "field_identifier" {
                    return Err(format!(
                        "its member `{}` is an array or a pointer",
                        normalise(self.text(d))
                    ));
                }
                let name = self.text(d).to_string();
                if let Some(key) = struct_key(&ty_text) {
                    let inner = match known.get(&key) {
                        Some(Ok(l)) => l.clone(),
                        Some(Err(why)) => {
                            return Err(format!("its member `{}` is a struct: {}", name, why))
                        }
                        None => {
                            return Err(format!(
                                "its member `{}` is a struct pencilc has not seen defined",
                                name
                            ))
                        }
                    };
                    for (a, at, dims) in inner.arrays {
                        arrays.push((format!("{}.{}", name, a), members.len() + at, dims));
                    }
                    for m in inner.members {
                        members.push((format!("{}.{}", name, m), inner.scalar.clone()));
                    }
                } else if is_arithmetic(&ty_text) {
                    members.push((name, ty_text.clone()));
                } else {
                    return Err(format!("its member `{}` is of type `{}`", name, ty_text));
                }
            }
        }
        let Some((first_name, scalar)) = members.first().cloned() else {
            return Err("it has no members".into());
        };
        if let Some((name, ty)) = members.iter().find(|(_, t)| *t != scalar) {
            return Err(format!(
                "its members are of different types (`{} {}`, `{} {}`)",
                scalar, first_name, ty, name
            ));
        }
        Ok(Layout {
            scalar,
            members: members.into_iter().map(|(n, _)| n).collect(),
            arrays,
        })
    }

    /// `c[10]` or `c[2][5]` of a member declaration: the name and the
    /// extents, where each is an integer literal (after the preprocessor),
    /// at most 4096 elements in all.
    fn constant_array(&self, d: Node) -> Option<(String, Vec<usize>)> {
        let mut dims = Vec::new();
        let mut cur = d;
        while cur.kind() == "array_declarator" {
            let size = cur.child_by_field_name("size")?;
            let text = self
                .text(size)
                .trim()
                .trim_end_matches(['u', 'U', 'l', 'L']);
            dims.push(text.parse::<usize>().ok().filter(|v| *v > 0)?);
            cur = cur.child_by_field_name("declarator")?;
        }
        if cur.kind() != "field_identifier" || dims.iter().product::<usize>() > 4096 {
            return None;
        }
        dims.reverse();
        Some((self.text(cur).to_string(), dims))
    }

    /// `X.c[k]` (`X` an element of an array of structs, `c` an array
    /// member; `n` the subscript chain over the member): the element with
    /// the place `first + k` (row-major in the member's extents), or
    /// `None` where the chain is not of that form.
    pub(super) fn member_array_access(&self, n: Node) -> Option<Result<Expr>> {
        let mut indices = Vec::new();
        let mut cur = n;
        while cur.kind() == "subscript_expression" {
            indices.push(cur.child_by_field_name("index")?);
            cur = cur.child_by_field_name("argument")?;
        }
        if cur.kind() != "field_expression" {
            return None;
        }
        indices.reverse();
        let (base, layout, member) = match self.member_base(cur) {
            Ok(x) => x,
            Err(e) => return Some(Err(e)),
        };
        let (_, first, dims) = layout.arrays.iter().find(|(a, _, _)| *a == member)?.clone();
        if indices.len() != dims.len() {
            return Some(Err(self
                .err(
                    Code::UnsupportedType,
                    n,
                    format!(
                        "the member `{}` has {} dimension(s) but is accessed with {} subscript(s)",
                        member,
                        dims.len(),
                        indices.len()
                    ),
                )
                .with_hint("subscript every dimension of an array member")));
        }
        let loc = self.loc(n);
        let mk = |kind| Expr {
            kind,
            loc: loc.clone(),
        };
        let int = |v: usize| mk(ExprKind::Int(v as i64, v.to_string()));
        let mut place: Option<Expr> = None;
        for (k, i) in indices.iter().enumerate() {
            let i = match self.expr(*i) {
                Ok(i) => i,
                Err(e) => return Some(Err(e)),
            };
            place = Some(match place {
                None => i,
                Some(p) => mk(ExprKind::Binary(
                    BinOp::Add,
                    Box::new(mk(ExprKind::Binary(
                        BinOp::Mul,
                        Box::new(p),
                        Box::new(int(dims[k])),
                    ))),
                    Box::new(i),
                )),
            });
        }
        let place = place?;
        let place = if first == 0 {
            place
        } else {
            mk(ExprKind::Binary(
                BinOp::Add,
                Box::new(int(first)),
                Box::new(place),
            ))
        };
        Some(Ok(mk(ExprKind::Index(Box::new(base), Box::new(place)))))
    }

    fn resolve_typedef(&self, t: &str) -> String {
        let t = normalise(t);
        self.typedefs.borrow().get(&t).cloned().unwrap_or(t)
    }

    /// A variable of struct type becomes an array of its members' type
    /// with one more dimension (`Layout`), recorded for the member
    /// accesses of the code that follows; any other declaration of the
    /// name hides an earlier struct variable.
    pub(super) fn struct_element(&self, v: &mut VarDecl) {
        let mut vars = self.struct_vars.borrow_mut();
        let ty = self.resolve_typedef(&v.base_type);
        let Some(key) = struct_key(&ty) else {
            vars.remove(&v.name);
            return;
        };
        let known = self.structs.borrow();
        let unqualified: Vec<&str> = ty.split(' ').filter(|w| !is_qualifier(w)).collect();
        let layout = known
            .get(&key)
            .or_else(|| known.get(&unqualified.join(" ")))
            .cloned()
            .unwrap_or_else(|| Err("pencilc has not seen the struct defined".into()));
        match layout {
            Ok(layout) => {
                let rank = v.rank();
                let written = normalise(&v.base_type);
                v.struct_type = if written.contains('{') {
                    // Untagged and defined in the declaration itself.
                    (!key.contains('{')).then(|| key.clone())
                } else {
                    Some(written)
                };
                v.base_type = layout.scalar.clone();
                v.dims.push(Some(Expr {
                    kind: ExprKind::Int(
                        layout.members.len() as i64,
                        layout.members.len().to_string(),
                    ),
                    loc: v.loc.clone(),
                }));
                v.members = layout.members.clone();
                vars.insert(v.name.clone(), StructVar::Usable { layout, rank });
            }
            Err(why) => {
                vars.insert(
                    v.name.clone(),
                    StructVar::Unusable(format!(
                        "its type `{}` is a struct pencilc cannot lay out: {}",
                        key, why
                    )),
                );
            }
        }
    }

    /// `A[i][j].Im`: the element's member, as a subscript of the member's
    /// place (`A[i][j][1]`).
    pub(super) fn member_access(&self, n: Node) -> Result<Expr> {
        let loc = self.loc(n);
        let (base, layout, member) = self.member_base(n)?;
        let name = base_name(&base);
        if layout.arrays.iter().any(|(a, _, _)| *a == member) {
            return Err(self
                .err(
                    Code::UnsupportedType,
                    n,
                    format!(
                        "the member `{}` of `{}` is an array, used here whole",
                        member, name
                    ),
                )
                .with_hint("access its elements, `A[i].member[k]`"));
        }
        let Some(k) = layout.members.iter().position(|m| *m == member) else {
            let inner = layout
                .members
                .iter()
                .any(|m| m.starts_with(&format!("{}.", member)));
            let msg = if inner {
                format!(
                    "`{}` is a struct member of `{}`; only members of type `{}` can be accessed",
                    member, name, layout.scalar
                )
            } else {
                format!("`{}` has no member `{}`", name, member)
            };
            return Err(self
                .err(Code::UnsupportedType, n, msg)
                .with_hint(format!("its members: {}", layout.members.join(", "))));
        };
        Ok(Expr {
            kind: ExprKind::Index(
                Box::new(base),
                Box::new(Expr {
                    kind: ExprKind::Int(k as i64, k.to_string()),
                    loc: loc.clone(),
                }),
            ),
            loc,
        })
    }

    /// The element a member access `n` reads a member of (`A[i][j]`), the
    /// struct's layout and the member's path (`pos.x`).
    fn member_base(&self, n: Node) -> Result<(Expr, Layout, String)> {
        // The member path, outermost first, and the struct-valued base.
        let mut path = Vec::new();
        let mut cur = n;
        while cur.kind() == "field_expression" {
            let op = cur
                .child_by_field_name("operator")
                .map(|o| self.text(o))
                .unwrap_or("");
            if op != "." {
                return Err(self
                    .err(
                        Code::PointerArithmetic,
                        cur,
                        "`->` dereferences a pointer, which PENCIL does not allow in a region",
                    )
                    .with_hint("declare the structs as an array and write `A[i].member`"));
            }
            let Some(field) = cur.child_by_field_name("field") else {
                return Err(self.syntax(cur));
            };
            path.push(self.text(field).to_string());
            cur = match cur.child_by_field_name("argument") {
                Some(a) => a,
                None => return Err(self.syntax(cur)),
            };
            while cur.kind() == "parenthesized_expression" && cur.named_child_count() == 1 {
                cur = cur.named_child(0).unwrap_or(cur);
            }
        }
        path.reverse();
        let member = path.join(".");
        let base = self.expr(cur)?;
        let mut subs = 0;
        let mut b = &base;
        while let ExprKind::Index(a, _) = &b.kind {
            subs += 1;
            b = a;
        }
        let ExprKind::Ident(name) = &b.kind else {
            return Err(self
                .err(
                    Code::UnsupportedType,
                    n,
                    "a member of something that is not a variable",
                )
                .with_hint(
                    "access members of struct variables or of array elements, `A[i].member`",
                ));
        };
        let var = self.struct_vars.borrow().get(name).cloned();
        let (layout, rank) = match var {
            Some(StructVar::Usable { layout, rank }) => (layout, rank),
            Some(StructVar::Unusable(why)) => {
                return Err(self
                    .err(Code::UnsupportedType, n, format!("the member access `{}` is outside the model: {}", normalise(self.text(n)), why))
                    .with_hint("structs whose members are all of one arithmetic type, arrays of it of constant size included (e.g. `struct { float re, im; }`, `struct { int c[10]; }`), are supported; otherwise copy the members into arrays of their own before `#pragma scop`"));
            }
            None => {
                return Err(self
                    .err(Code::UnsupportedType, n, format!("`{}` is not a struct variable pencilc knows", name))
                    .with_hint("access members of struct variables or arrays declared with their struct type"));
            }
        };
        if subs != rank {
            return Err(self
                .err(
                    Code::UnsupportedType,
                    n,
                    format!(
                        "`{}` has {} dimension(s) but this member access gives {} subscript(s)",
                        name, rank, subs
                    ),
                )
                .with_hint(
                    "subscript every dimension of the array before the member, `A[i][j].member`",
                ));
        }
        Ok((base, layout, member))
    }
}

/// The variable an element expression indexes.
fn base_name(e: &Expr) -> String {
    let mut b = e;
    while let ExprKind::Index(a, _) = &b.kind {
        b = a;
    }
    match &b.kind {
        ExprKind::Ident(n) => n.clone(),
        _ => String::new(),
    }
}

fn is_arithmetic(t: &str) -> bool {
    integer_range(t).is_some() || is_float_type(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn struct_keys() {
        assert_eq!(
            struct_key("struct  ComplexFloat"),
            Some("struct ComplexFloat".into())
        );
        assert_eq!(struct_key("const struct P"), Some("struct P".into()));
        assert_eq!(struct_key("struct P { float x; }"), Some("struct P".into()));
        assert_eq!(
            struct_key("struct { float x; }"),
            Some("struct { float x; }".into())
        );
        assert_eq!(struct_key("struct Q{float x;}"), Some("struct Q".into()));
        assert_eq!(struct_key("structure"), None);
        assert_eq!(struct_key("float"), None);
        assert_eq!(
            struct_key("struct __attribute__((aligned(16))) v3 { float x; }"),
            Some("struct v3".into())
        );
    }
}
