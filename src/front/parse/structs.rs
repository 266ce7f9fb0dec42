//! Structs whose members are all of one arithmetic type, such as the
//! complex numbers of DSL-generated BLAS (`struct ComplexFloat { float Re;
//! float Im; }`): an array of them is laid out as an array of that type
//! with one more, innermost, dimension (one place per member, no padding
//! between members of one type), so the model takes `A[i][j].Im` as
//! `A[i][j][1]` of a `float` array. Kernels then see plain buffers; host
//! code, which keeps the user's declarations, prints the member again
//! (`back::body`).
//!
//! Nested structs count their members' members (`p.pos.x`), and C11's
//! anonymous struct members are their parent's. A member that is an array
//! of constant extents takes one place per element of the same type
//! (`struct { int c[10]; }`: `b[i][j].c[k]` is `b[i][j][k]`), or its
//! elements' places one after the other where they are structs
//! (`s.f[i].a[j]` with `f[10]` of `struct { int a[10]; }` is `s[10 * i +
//! j]`), as C lays it out. Members that are pointers, bit-fields or of
//! another type, and unions, keep the struct out of the model: using it in
//! a region is an error that says which member.

use super::Cx;
use crate::diag::{Code, Loc, Result};
use crate::front::syntax::{
    integer_range, is_float_type, AssignOp, BinOp, Expr, ExprKind, Stmt, VarDecl, MEMBER_ROW,
};
use std::collections::BTreeMap;
use tree_sitter::Node;

/// A struct type the model can hold: its members' type and the members in
/// memory order, nested ones as paths (`pos.x`, `f[3].a[5]`), and its
/// fields as a tree for accesses to walk.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Layout {
    pub scalar: String,
    pub members: Vec<String>,
    pub fields: Vec<Field>,
}

/// One field of a struct: its first place among the members and what it is.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Field {
    pub name: String,
    pub first: usize,
    pub kind: FieldKind,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum FieldKind {
    Scalar,
    Struct(Layout),
    /// An array of constant extents, of the scalar type (`elem` `None`) or
    /// of structs of that type.
    Array {
        dims: Vec<usize>,
        elem: Option<Box<Layout>>,
    },
}

impl Layout {
    /// Places one struct takes.
    fn size(&self) -> usize {
        self.members.len()
    }
}

/// `[3][5]`: the subscripts of element `k` (row-major) of an array of
/// extents `dims`.
fn element_suffix(k: usize, dims: &[usize]) -> String {
    let mut rest = k;
    let mut out = String::new();
    for j in 0..dims.len() {
        let below: usize = dims[j + 1..].iter().product();
        out.push_str(&format!("[{}]", rest / below));
        rest %= below;
    }
    out
}

/// A member a call gets whole (`f(s.a[k])`, `g(&s.f[2])`): the places it
/// spans, whether they are structs', and the extents of the array
/// dimensions the call's argument leaves (none for one struct).
struct MemberRow {
    places: usize,
    structs: bool,
    extents: Vec<usize>,
}

/// One step of a member access chain, outermost last: `.name` or `[index]`.
enum Step<'t> {
    Field(String),
    Index(Node<'t>),
    /// The struct a pointer points to: `p->m` is `p[0].m`.
    Pointee,
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
        // Iterative (the tree may be deep), in post-order: a struct
        // defined inside another's body (`struct s { struct { int a[10]; }
        // f[10]; }`) is known before the one that holds it.
        let mut stack = vec![(root, false)];
        while let Some((n, children_done)) = stack.pop() {
            if !children_done {
                stack.push((n, true));
                let mut c = n.walk();
                let children: Vec<Node> = n.named_children(&mut c).collect();
                stack.extend(children.into_iter().rev().map(|k| (k, false)));
                continue;
            }
            if n.kind() != "struct_specifier" {
                continue;
            }
            let Some(body) = n.child_by_field_name("body") else {
                continue;
            };
            let head = &self.text(n)[..body.start_byte() - n.start_byte()];
            // The parse's text has the attributes after member declarators
            // blanked (`attributes`); the preprocessed text still has them.
            let written = &self.pp.text[n.start_byte()..n.end_byte()];
            let layout =
                if head.contains("aligned") || written.contains("_Alignas") {
                    Err(
                    "it is declared with an alignment, which may put padding between its elements"
                        .into(),
                )
                } else if written.contains("__attribute") {
                    // `float y __attribute__((aligned(16)));` moves `y`, and
                    // `packed` members close the gaps: the layout is no longer
                    // the members one after another (the host file's check of
                    // it did not compile).
                    Err("it is declared with attributes, which may change the places of its members"
                    .into())
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
        let mut fields: Vec<Field> = Vec::new();
        // The layout of a member of struct type, or why it has none.
        let inner_of = |ty: &str, name: &str| -> std::result::Result<Option<Layout>, String> {
            let Some(key) = struct_key(ty) else {
                return Ok(None);
            };
            match known.get(&key).or_else(|| known.get(&normalise(ty))) {
                Some(Ok(l)) => Ok(Some(l.clone())),
                Some(Err(why)) => Err(format!("its member `{}` is a struct: {}", name, why)),
                None => Err(format!(
                    "its member `{}` is a struct pencilc has not seen defined",
                    name
                )),
            }
        };
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
            if decls.is_empty() {
                // C11's anonymous struct: its members are the parent's.
                let Some(inner) = inner_of(&ty_text, "(anonymous)")? else {
                    // An anonymous union overlays its members.
                    return Err(format!(
                        "its member `{}` is an anonymous union or declares no name",
                        normalise(self.text(f))
                    ));
                };
                let at = members.len();
                for mut fl in inner.fields {
                    fl.first += at;
                    fields.push(fl);
                }
                for m in inner.members {
                    members.push((m, inner.scalar.clone()));
                }
                continue;
            }
            for d in decls {
                if d.kind() == "array_declarator" {
                    let Some((name, dims)) = self.constant_array(d) else {
                        return Err(format!(
                            "its member `{}` is an array without constant extents",
                            normalise(self.text(d))
                        ));
                    };
                    let count: usize = dims.iter().product();
                    let first = members.len();
                    if is_arithmetic(&ty_text) {
                        for k in 0..count {
                            members.push((
                                format!("{}{}", name, element_suffix(k, &dims)),
                                ty_text.clone(),
                            ));
                        }
                        fields.push(Field {
                            name,
                            first,
                            kind: FieldKind::Array { dims, elem: None },
                        });
                        continue;
                    }
                    let Some(inner) = inner_of(&ty_text, &name)? else {
                        return Err(format!(
                            "its member `{}` is an array of `{}`",
                            normalise(self.text(d)),
                            ty_text
                        ));
                    };
                    if count * inner.size() > 4096 {
                        return Err(format!(
                            "its member `{}` takes more than 4096 places",
                            normalise(self.text(d))
                        ));
                    }
                    for k in 0..count {
                        let at = element_suffix(k, &dims);
                        for m in &inner.members {
                            members.push((format!("{}{}.{}", name, at, m), inner.scalar.clone()));
                        }
                    }
                    fields.push(Field {
                        name,
                        first,
                        kind: FieldKind::Array {
                            dims,
                            elem: Some(Box::new(inner)),
                        },
                    });
                    continue;
                }
                if d.kind() != "field_identifier" {
                    return Err(format!(
                        "its member `{}` is an array or a pointer",
                        normalise(self.text(d))
                    ));
                }
                let name = self.text(d).to_string();
                let first = members.len();
                if let Some(inner) = inner_of(&ty_text, &name)? {
                    for m in &inner.members {
                        members.push((format!("{}.{}", name, m), inner.scalar.clone()));
                    }
                    fields.push(Field {
                        name,
                        first,
                        kind: FieldKind::Struct(inner),
                    });
                } else if is_arithmetic(&ty_text) {
                    members.push((name.clone(), ty_text.clone()));
                    fields.push(Field {
                        name,
                        first,
                        kind: FieldKind::Scalar,
                    });
                } else {
                    return Err(format!("its member `{}` is of type `{}`", name, ty_text));
                }
            }
        }
        let Some((first_name, scalar)) = members.first().cloned() else {
            return Err("it has no members".into());
        };
        if let Some((name, ty)) = members.iter().find(|(_, t)| *t != scalar) {
            // A place of an array member is `v[0]`: name the member.
            let member = |n: &str, t: &str| match n.split_once('[') {
                Some((base, _)) => format!("`{}` elements of `{}`", t, base),
                None => format!("`{} {}`", t, n),
            };
            return Err(format!(
                "its members are of different types ({}, {})",
                member(&first_name, &scalar),
                member(name, ty)
            ));
        }
        Ok(Layout {
            scalar,
            members: members.into_iter().map(|(n, _)| n).collect(),
            fields,
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
                // A pointer to structs (`struct pt *p`) indexes like an
                // array of them of unknown extent, `struct pt p[]`, as a
                // pointer to rows does (`declarator`).
                if v.pointer && v.dims.is_empty() {
                    v.dims.push(None);
                    v.pointer = false;
                }
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

    /// A member access chain (`A[i][j].Im`, `s.f[i].a[j]`, `p.c[0].re`):
    /// the element of the model's array with the member's place as its
    /// last subscript (`A[i][j][1]`, `s[10 * i + j]`), the place affine in
    /// the chain's subscripts. `None` where `n` is no such chain (a plain
    /// subscript).
    pub(super) fn member_chain(&self, n: Node) -> Option<Result<Expr>> {
        // Only a call's argument itself may be an array member, not one in
        // its subscripts: the flag is taken by the argument's own node.
        let partial = self.member_rows.replace(false);
        let mut steps: Vec<Step> = Vec::new();
        let mut cur = n;
        loop {
            match cur.kind() {
                "subscript_expression" => {
                    steps.push(Step::Index(cur.child_by_field_name("index")?));
                    cur = cur.child_by_field_name("argument")?;
                }
                "field_expression" => {
                    let op = cur
                        .child_by_field_name("operator")
                        .map(|o| self.text(o))
                        .unwrap_or("");
                    let field = cur.child_by_field_name("field")?;
                    steps.push(Step::Field(self.text(field).to_string()));
                    if op == "->" {
                        steps.push(Step::Pointee);
                    }
                    cur = cur.child_by_field_name("argument")?;
                }
                "parenthesized_expression" if cur.named_child_count() == 1 => {
                    cur = cur.named_child(0)?;
                }
                _ => break,
            }
        }
        if !steps.iter().any(|s| matches!(s, Step::Field(_))) {
            return None;
        }
        steps.reverse();
        Some(self.member_place(n, cur, &steps, partial))
    }

    /// `member_chain` for the variable `var` and the chain's `steps`,
    /// innermost first.
    fn member_place(&self, n: Node, var: Node, steps: &[Step], partial: bool) -> Result<Expr> {
        let whole = normalise(self.text(n));
        if var.kind() != "identifier" {
            return Err(self
                .err(
                    Code::UnsupportedType,
                    n,
                    "a member of something that is not a variable",
                )
                .with_hint(
                    "access members of struct variables or of array elements, `A[i].member`",
                ));
        }
        let name = self.text(var).to_string();
        let (layout, rank) = match self.struct_vars.borrow().get(&name).cloned() {
            Some(StructVar::Usable { layout, rank }) => (layout, rank),
            Some(StructVar::Unusable(why)) => {
                return Err(self
                    .err(Code::UnsupportedType, n, format!("the member access `{}` is outside the model: {}", whole, why))
                    .with_hint("structs whose members are all of one arithmetic type, arrays of it or of such structs of constant size included (e.g. `struct { float re, im; }`, `struct { int c[10]; }`), are supported; otherwise copy the members into arrays of their own before `#pragma scop`"));
            }
            None => {
                return Err(self
                    .err(Code::UnsupportedType, n, format!("`{}` is not a struct variable pencilc knows", name))
                    .with_hint("access members of struct variables or arrays declared with their struct type"));
            }
        };
        let loc = self.loc(n);
        let mk = |kind| Expr {
            kind,
            loc: loc.clone(),
        };
        // The element: the variable's own subscripts come first.
        let subs = steps
            .iter()
            .take_while(|s| matches!(s, Step::Index(_) | Step::Pointee))
            .count();
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
        let mut base = mk(ExprKind::Ident(name.clone()));
        for s in &steps[..rank] {
            let index = match s {
                Step::Index(i) => self.expr(*i)?,
                _ => mk(ExprKind::Int(0, "0".into())),
            };
            base = mk(ExprKind::Index(Box::new(base), Box::new(index)));
        }
        let (place, row) = self.field_place(n, &name, &layout, &steps[rank..], partial)?;
        let first = mk(ExprKind::Index(Box::new(base), Box::new(place)));
        Ok(match row {
            None => first,
            // All places of the member from `first` on: the marker the
            // model and the back end know (`MEMBER_ROW`).
            Some(row) => {
                let int = |v: usize| mk(ExprKind::Int(v as i64, v.to_string()));
                let mut args = vec![first, int(row.places), int(usize::from(row.structs))];
                args.extend(row.extents.iter().map(|&d| int(d)));
                mk(ExprKind::Call(MEMBER_ROW.to_string(), args))
            }
        })
    }

    /// The place of the member that `steps` (fields and subscripts after
    /// the element's own) select in a struct of `layout`: `offset + Σ
    /// index * stride`, affine in the subscripts. `name` and `n` are for
    /// the errors (a member that is no scalar of the struct's type).
    ///
    /// With `partial` (a call's argument), an array member subscripted in
    /// fewer dimensions than it has (`s.a[k]`, `s.a`), or a struct member
    /// whose address is taken, is its first place and the row it spans.
    fn field_place(
        &self,
        n: Node,
        name: &str,
        layout: &Layout,
        steps: &[Step],
        partial: bool,
    ) -> Result<(Expr, Option<MemberRow>)> {
        let loc = self.loc(n);
        let mk = |kind| Expr {
            kind,
            loc: loc.clone(),
        };
        enum At<'l> {
            Struct(&'l Layout),
            Array(&'l [usize], Option<&'l Layout>, usize),
            Scalar,
        }
        let mut at = At::Struct(layout);
        let mut offset = 0usize;
        let mut terms: Vec<Expr> = Vec::new();
        let mut path = String::new();
        for s in steps {
            match (s, &at) {
                (Step::Field(f), At::Struct(l)) => {
                    let Some(field) = l.fields.iter().find(|x| x.name == *f) else {
                        let hint: Vec<&str> = l.fields.iter().map(|x| x.name.as_str()).collect();
                        return Err(self
                            .err(
                                Code::UnsupportedType,
                                n,
                                format!("`{}{}` has no member `{}`", name, path, f),
                            )
                            .with_hint(format!("its members: {}", hint.join(", "))));
                    };
                    offset += field.first;
                    path.push('.');
                    path.push_str(f);
                    at = match &field.kind {
                        FieldKind::Scalar => At::Scalar,
                        FieldKind::Struct(inner) => At::Struct(inner),
                        FieldKind::Array { dims, elem } => At::Array(dims, elem.as_deref(), 0),
                    };
                }
                (Step::Index(index), At::Array(dims, elem, k)) => {
                    let (dims, elem, k) = (*dims, *elem, *k);
                    let stride =
                        dims[k + 1..].iter().product::<usize>() * elem.map_or(1, |l| l.size());
                    let i = self.expr(*index)?;
                    terms.push(if stride == 1 {
                        i
                    } else {
                        mk(ExprKind::Binary(
                            BinOp::Mul,
                            Box::new(mk(ExprKind::Int(stride as i64, stride.to_string()))),
                            Box::new(i),
                        ))
                    });
                    path.push_str(&format!("[{}]", normalise(self.text(*index))));
                    at = if k + 1 < dims.len() {
                        At::Array(dims, elem, k + 1)
                    } else {
                        elem.map_or(At::Scalar, At::Struct)
                    };
                }
                (Step::Field(f), _) => {
                    return Err(self
                        .err(
                            Code::UnsupportedType,
                            n,
                            format!(
                                "`{}{}` is not a struct: it has no member `{}`",
                                name, path, f
                            ),
                        )
                        .with_hint("access members of structs only"));
                }
                (Step::Pointee, _) => {
                    return Err(self
                        .err(
                            Code::PointerArithmetic,
                            n,
                            format!(
                                "`{}{}` is a member, not a pointer to a struct: `->` follows pointers a region cannot model",
                                name, path
                            ),
                        )
                        .with_hint("use `->` on struct pointers the function declares (`p->m` is `p[0].m`), and `.` on members"));
                }
                (Step::Index(_), _) => {
                    return Err(self
                        .err(
                            Code::UnsupportedType,
                            n,
                            format!(
                                "`{}{}` is not an array: it cannot be subscripted",
                                name, path
                            ),
                        )
                        .with_hint(
                            "subscript array members only, as many times as they have dimensions",
                        ));
                }
            }
        }
        let mut row = None;
        match at {
            At::Scalar => {}
            At::Array(dims_, elem, k) if partial => {
                let extents = dims_[k..].to_vec();
                row = Some(MemberRow {
                    places: extents.iter().product::<usize>() * elem.map_or(1, |l| l.size()),
                    structs: elem.is_some(),
                    extents,
                });
            }
            At::Struct(l) if partial => {
                row = Some(MemberRow {
                    places: l.size(),
                    structs: true,
                    extents: Vec::new(),
                })
            }
            At::Array(_, _, 0) => {
                return Err(self
                    .err(
                        Code::UnsupportedType,
                        n,
                        format!(
                            "the member `{}` of `{}` is an array, used here whole",
                            path.trim_start_matches('.'),
                            name
                        ),
                    )
                    .with_hint("access its elements, `A[i].member[k]`"));
            }
            At::Array(dims_, _, k) => {
                return Err(self
                    .err(Code::UnsupportedType, n, format!("the member `{}` has {} dimension(s) but is accessed with {} subscript(s)", path.trim_start_matches('.'), dims_.len(), k))
                    .with_hint("subscript every dimension of an array member"));
            }
            At::Struct(l) => {
                return Err(self
                    .err(Code::UnsupportedType, n, format!("`{}` is a struct member of `{}`; only members of type `{}` can be accessed", path.trim_start_matches('.'), name, l.scalar))
                    .with_hint(format!("its members: {}", crate::front::syntax::listed(&l.members))));
            }
        }
        let mut place: Option<Expr> = (offset != 0 || terms.is_empty())
            .then(|| mk(ExprKind::Int(offset as i64, offset.to_string())));
        for t in terms {
            place = Some(match place {
                None => t,
                Some(p) => mk(ExprKind::Binary(BinOp::Add, Box::new(p), Box::new(t))),
            });
        }
        Ok((place.expect("a place"), row))
    }
}

impl Cx<'_> {
    /// `s[i] = t[j]` of two whole structs of one layout (issue 33: a whole
    /// struct copied was E0111): a loop over the places, `for (int
    /// pencilc_place = 0; pencilc_place < P; pencilc_place++) s[i][p] =
    /// t[j][p]`, which the model holds exactly and host code prints through
    /// the members' type. `None` where either side is no whole struct.
    pub(super) fn struct_copy(&self, lhs: &Expr, rhs: &Expr, loc: &Loc) -> Option<Stmt> {
        let whole = |e: &Expr| -> Option<Layout> {
            let mut subs = 0;
            let mut cur = e;
            while let ExprKind::Index(b, _) = &cur.kind {
                subs += 1;
                cur = b;
            }
            let ExprKind::Ident(name) = &cur.kind else {
                return None;
            };
            match self.struct_vars.borrow().get(name) {
                Some(StructVar::Usable { layout, rank }) if *rank == subs => Some(layout.clone()),
                _ => None,
            }
        };
        let layout = whole(lhs)?;
        if whole(rhs)? != layout {
            return None;
        }
        let _scope = self.enter_scope([]);
        let iter = self.declare("pencilc_place");
        let at = |kind| Expr {
            kind,
            loc: loc.clone(),
        };
        let place = || at(ExprKind::Ident(iter.clone()));
        let size = layout.size();
        Some(Stmt::For {
            iter: iter.clone(),
            iter_type: Some("int".into()),
            init: at(ExprKind::Int(0, "0".into())),
            cond: at(ExprKind::Binary(
                BinOp::Lt,
                Box::new(place()),
                Box::new(at(ExprKind::Int(size as i64, size.to_string()))),
            )),
            step: 1,
            body: vec![Stmt::Assign {
                lhs: at(ExprKind::Index(Box::new(lhs.clone()), Box::new(place()))),
                op: AssignOp::Assign,
                rhs: at(ExprKind::Index(Box::new(rhs.clone()), Box::new(place()))),
                loc: loc.clone(),
                atomic: false,
            }],
            independent: None,
            loc: loc.clone(),
        })
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
