//! Initializer lists of a region's own arrays (`float sum[16] = {0.f};`,
//! `int w[2][3] = {{1, 2, 3}, {4, 5, 6}};`, as Rodinia's lud declares its
//! partial sums): C sets every element the list does not name to zero.
//! The model has no initializers; the declaration becomes a loop nest that
//! stores zero in every element, where the list leaves some unnamed, and
//! one assignment per element the list names, in that order.

use super::*;

/// At most this many elements named in one list: each is a statement.
const MAX_NAMED: usize = 1024;

impl Cx<'_> {
    /// The statements that give `var` (declared just before them) the
    /// values of the initializer list `list`.
    ///
    /// An array declared without its first extent (`int w[] = {...}`)
    /// gets the one the list gives it.
    pub(super) fn array_initializer(&self, var: &mut VarDecl, list: Node) -> Result<Vec<Stmt>> {
        let refuse = |at: Node, why: String| {
            self.err(Code::UnsupportedStatement, at, why)
                .with_hint("assign the elements in a loop after the declaration")
        };
        let mut extents = Vec::new();
        let unsized_first = matches!(var.dims.first(), Some(None));
        for (k, d) in var.dims.iter().enumerate() {
            match d.as_ref().map(|e| &e.kind) {
                Some(ExprKind::Int(v, _)) if *v > 0 => extents.push(*v as usize),
                // Unsized (`int w[] = {...}`): from the list, below.
                None if k == 0 => extents.push(0),
                _ => {
                    return Err(refuse(
                        list,
                        format!(
                            "`{}` has an initializer list but no constant extents",
                            var.name
                        ),
                    ))
                }
            }
        }
        if extents.is_empty() {
            return Err(refuse(
                list,
                format!("a braced initializer of the scalar `{}`", var.name),
            ));
        }
        if unsized_first {
            // Each item of the list takes at most a row: room for all.
            let mut c = list.walk();
            let items = list
                .named_children(&mut c)
                .filter(|k| k.kind() != "comment")
                .count();
            extents[0] = items.max(1);
        }
        let mut total: usize = extents.iter().product();
        let mut named: Vec<(usize, Expr)> = Vec::new();
        let end = self.fill(list, &extents, 0, 0, total, &mut named)?;
        if unsized_first {
            // The rows the list reaches into, as C counts them.
            let row: usize = extents[1..].iter().product();
            extents[0] = end.div_ceil(row).max(1);
            total = extents.iter().product();
            var.dims[0] = Some(Expr {
                kind: ExprKind::Int(extents[0] as i64, extents[0].to_string()),
                loc: self.loc(list),
            });
        }
        if named.len() > MAX_NAMED {
            return Err(refuse(
                list,
                format!(
                    "the initializer list of `{}` names {} elements, more than {}",
                    var.name,
                    named.len(),
                    MAX_NAMED
                ),
            ));
        }
        let loc = self.loc(list);
        let at = |kind| Expr {
            kind,
            loc: loc.clone(),
        };
        let int = |v: usize| at(ExprKind::Int(v as i64, v.to_string()));
        let element = |index: &[Expr]| {
            index
                .iter()
                .fold(at(ExprKind::Ident(var.name.clone())), |base, i| {
                    at(ExprKind::Index(Box::new(base), Box::new(i.clone())))
                })
        };
        let mut out: Vec<Stmt> = Vec::new();
        let filled = named.len() < total;
        if filled {
            let _scope = self.enter_scope([]);
            let iters: Vec<String> = (0..extents.len())
                .map(|_| self.declare("pencilc_elem"))
                .collect();
            let index: Vec<Expr> = iters
                .iter()
                .map(|i| at(ExprKind::Ident(i.clone())))
                .collect();
            let mut body = vec![Stmt::Assign {
                lhs: element(&index),
                op: AssignOp::Assign,
                rhs: int(0),
                loc: loc.clone(),
                atomic: false,
            }];
            for (iter, extent) in iters.iter().zip(&extents).rev() {
                body = vec![Stmt::For {
                    iter: iter.clone(),
                    iter_type: Some("int".into()),
                    init: int(0),
                    cond: at(ExprKind::Binary(
                        BinOp::Lt,
                        Box::new(at(ExprKind::Ident(iter.clone()))),
                        Box::new(int(*extent)),
                    )),
                    step: 1,
                    body,
                    independent: None,
                    loc: loc.clone(),
                }];
            }
            out.extend(body);
        }
        for (flat, value) in named {
            // `{0.f}` names the first element with what the loop stored.
            if filled && named_zero(&value) {
                continue;
            }
            let mut index = Vec::with_capacity(extents.len());
            let mut rest = flat;
            for extent in extents.iter().rev() {
                index.push(int(rest % extent));
                rest /= extent;
            }
            index.reverse();
            out.push(Stmt::Assign {
                lhs: element(&index),
                op: AssignOp::Assign,
                rhs: value,
                loc: loc.clone(),
                atomic: false,
            });
        }
        Ok(out)
    }

    /// Collects the elements `list` names, by their flat place, for the
    /// sub-array of `depth` that starts at `start` and holds `len`
    /// elements: a nested list starts the next sub-array one level down,
    /// a value takes the next element (C's brace elision). Returns the
    /// place after the last item.
    fn fill(
        &self,
        list: Node,
        extents: &[usize],
        depth: usize,
        start: usize,
        len: usize,
        named: &mut Vec<(usize, Expr)>,
    ) -> Result<usize> {
        let refuse = |at: Node, why: &str| {
            self.err(Code::UnsupportedStatement, at, why)
                .with_hint("assign the elements in a loop after the declaration")
        };
        let mut next = start;
        let mut c = list.walk();
        for item in list.named_children(&mut c) {
            if item.kind() == "comment" {
                continue;
            }
            if item.kind() == "initializer_pair" {
                return Err(refuse(
                    item,
                    "designated initializers are not supported in a region",
                ));
            }
            if next >= start + len {
                return Err(refuse(
                    item,
                    "more initializers than the array has elements",
                ));
            }
            if item.kind() == "initializer_list" {
                if depth + 1 < extents.len() {
                    let stride: usize = extents[depth + 1..].iter().product();
                    // A nested list is the next sub-array of the next
                    // level. After values that began one without braces,
                    // C gives it to the next element instead (with a
                    // warning): refused rather than guessed.
                    if (next - start) % stride != 0 {
                        return Err(refuse(
                            item,
                            "a braced list after values that fill part of a row",
                        ));
                    }
                    let offset = next - start;
                    self.fill(item, extents, depth + 1, start + offset, stride, named)?;
                    next = start + offset + stride;
                    continue;
                }
                // `{1}` for one element: braces around a scalar.
                let mut ic = item.walk();
                let values: Vec<Node> = item
                    .named_children(&mut ic)
                    .filter(|k| k.kind() != "comment")
                    .collect();
                match values.as_slice() {
                    [v] if v.kind() != "initializer_list" && v.kind() != "initializer_pair" => {
                        named.push((next, self.expr(*v)?));
                    }
                    _ => return Err(refuse(item, "a braced list where an element goes")),
                }
                next += 1;
                continue;
            }
            named.push((next, self.expr(item)?));
            next += 1;
        }
        Ok(next)
    }
}

/// A literal zero, as the zero-filling loop stores it (`0`, `0.f`, `0.0`;
/// not `-0.0`, whose sign a float keeps).
fn named_zero(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(0, _) => true,
        ExprKind::Float(text) => text
            .trim_end_matches(['f', 'F', 'l', 'L'])
            .parse::<f64>()
            .is_ok_and(|v| v == 0.0),
        _ => false,
    }
}
