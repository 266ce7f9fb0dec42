//! `memcpy`, `memmove` and `memset` in a region, as the loops over
//! elements they are: code generators and MATLAB-style C copy and clear
//! arrays with them, and a kernel has neither (OpenCL C has no `memcpy`;
//! the call reached the kernel, whose build failed at run time). Only
//! where the elements are certain: both sides of one element type, a byte
//! count that is a multiple of the element's size by its form (`n *
//! sizeof(double)`, `sizeof A`), and a range that is a whole tail of the
//! array's dimensions (`A`, a row `A[i]`) or lies inside its last
//! dimension by constants. Anything else is refused, naming why.

use super::casts::unqualified;
use super::exprs::const_value;
use super::sizeof::scalar_bytes;
use super::*;
use crate::front::cexpr::plain;

/// The calls this module lowers, by the name the region calls them.
pub(super) fn is_mem_call(name: &str) -> bool {
    matches!(
        name.trim_start_matches("__builtin_"),
        "memcpy" | "memmove" | "memset"
    )
}

/// Where a copy starts: an array or pointer (its region name), the
/// subscripts of its first element (one per dimension), its element
/// type and its extents as written (`None` where open).
struct Place {
    name: String,
    start: Vec<Expr>,
    element: String,
    extents: Vec<Option<Expr>>,
}

impl Place {
    /// The first dimension from which every start subscript is 0: the
    /// copy may cover those dimensions whole.
    fn tail(&self) -> usize {
        let mut d = self.start.len();
        while d > 0 && const_value(&self.start[d - 1]) == Some(0) {
            d -= 1;
        }
        d
    }
}

/// Whether two element types are one (`unsigned` and `unsigned int`,
/// `int` and `int32_t`, `long` and `long int`).
fn same_type(a: &str, b: &str) -> bool {
    let (a, b) = (unqualified(a), unqualified(b));
    match (
        crate::front::syntax::integer_kind(&a),
        crate::front::syntax::integer_kind(&b),
    ) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a == b,
        _ => false,
    }
}

/// `e` as a product: its constant factor and its other factors as text.
fn factors(e: &Expr) -> Option<(i64, Vec<String>)> {
    match &e.kind {
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let (ca, mut fa) = factors(a)?;
            let (cb, fb) = factors(b)?;
            fa.extend(fb);
            Some((ca.checked_mul(cb)?, fa))
        }
        _ => Some(match const_value(e) {
            Some(v) => (v, Vec::new()),
            None => (1, vec![plain(e)]),
        }),
    }
}

/// Whether `a` and `b` are one product, up to the order of its factors.
fn same_product(a: &Expr, b: &Expr) -> bool {
    match (factors(a), factors(b)) {
        (Some((ca, mut fa)), Some((cb, mut fb))) => {
            fa.sort();
            fb.sort();
            ca == cb && fa == fb
        }
        _ => false,
    }
}

/// `bytes / size` where the form of `bytes` shows it a multiple of
/// `size`: a constant, or a product or sum whose terms are.
fn divided(bytes: &Expr, size: i64) -> Option<Expr> {
    let at = |kind| Expr {
        kind,
        loc: bytes.loc.clone(),
    };
    if size == 1 {
        return Some(bytes.clone());
    }
    if let Some(v) = const_value(bytes) {
        return (v >= 0 && v % size == 0)
            .then(|| at(ExprKind::Int(v / size, (v / size).to_string())));
    }
    match &bytes.kind {
        ExprKind::Binary(BinOp::Mul, a, b) => {
            // `n * sizeof(T)` is `n`, not `n * 1`.
            let times = |x: Expr, y: &Expr| match const_value(&x) {
                Some(1) => y.clone(),
                _ => at(ExprKind::Binary(
                    BinOp::Mul,
                    Box::new(x),
                    Box::new(y.clone()),
                )),
            };
            if let Some(a2) = divided(a, size) {
                return Some(times(a2, b));
            }
            Some(times(divided(b, size)?, a))
        }
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => Some(at(ExprKind::Binary(
            *op,
            Box::new(divided(a, size)?),
            Box::new(divided(b, size)?),
        ))),
        ExprKind::Cast(_, a) => divided(a, size),
        _ => None,
    }
}

impl Cx<'_> {
    /// `memcpy(dst, src, bytes)`, `memmove` or `memset(dst, byte, bytes)`
    /// at `at` as loops.
    pub(super) fn mem_call(&self, name: &str, args: &[Expr], at: Node) -> Result<Stmt> {
        let kind = name.trim_start_matches("__builtin_");
        let refuse = |why: String| {
            self.err(
                Code::UnsupportedStatement,
                at,
                format!("`{}` {}", kind, why),
            )
            .with_hint(
                "write the copy as a loop over the elements, or keep it outside `#pragma scop`",
            )
        };
        let [_, second, bytes] = args else {
            return Err(refuse(format!("takes 3 arguments, not {}", args.len())));
        };
        // The arguments as the user wrote them (the region renames
        // variables that hide others).
        let written: Vec<String> = at
            .child_by_field_name("arguments")
            .map(|a| {
                let mut c = a.walk();
                a.named_children(&mut c)
                    .filter(|k| k.kind() != "comment")
                    .map(|k| self.text(k).to_string())
                    .collect()
            })
            .unwrap_or_default();
        let text = |k: usize| written.get(k).cloned().unwrap_or_else(|| plain(&args[k]));
        let place = |k: usize, role: &str| {
            self.place(&args[k]).ok_or_else(|| {
                refuse(format!(
                    "{} `{}`, which is not an array, a row or an element's address that pencilc can follow",
                    role,
                    text(k)
                ))
            })
        };
        let to = place(0, "writes")?;
        let Some(size) = scalar_bytes(&to.element) else {
            return Err(refuse(format!(
                "writes `{}`, whose elements are not of an arithmetic type",
                text(0)
            )));
        };
        let source = if kind == "memset" {
            Source::Fill(self.fill_value(second, &to.element, size).ok_or_else(|| {
                refuse(format!(
                    "sets each byte to `{}`, which is no value of `{}` element by element (0 is; for integers -1 too, and any byte for `char` arrays)",
                    text(1),
                    to.element
                ))
            })?)
        } else {
            let from = place(1, "reads")?;
            if !same_type(&from.element, &to.element) {
                return Err(refuse(format!(
                    "copies `{}` elements into `{}` ones, which pencilc does not reinterpret",
                    from.element, to.element
                )));
            }
            if kind == "memmove" && from.name == to.name {
                return Err(refuse(format!(
                    "moves elements between `{}` and `{}`, parts of one array whose ranges may overlap",
                    text(0),
                    text(1)
                )));
            }
            Source::Copy(from)
        };
        let count = divided(bytes, size).ok_or_else(|| {
            refuse(format!(
                "copies `{}` bytes, which pencilc cannot see to be a whole number of `{}` elements ({} bytes each)",
                text(2),
                to.element,
                size
            ))
        })?;
        // Evaluated once by C, but in every iteration of the loops: they
        // may not read what the copy writes.
        let mut read = Vec::new();
        count.idents(&mut read);
        to.start.iter().for_each(|s| s.idents(&mut read));
        if let Source::Copy(from) = &source {
            from.start.iter().for_each(|s| s.idents(&mut read));
        }
        if read.contains(&to.name) {
            return Err(refuse(format!(
                "has a count or an address that reads the array it writes (`{}`)",
                text(0)
            )));
        }
        self.copy_loops(&to, &source, &count, &self.loc(at))
            .ok_or_else(|| {
                refuse(format!(
                    "covers `{}` bytes from `{}`, which pencilc cannot show to be whole rows of the arrays or to stay inside one row",
                    text(2),
                    text(0)
                ))
            })
    }

    /// What `memset` stores in each element of type `element` (`size`
    /// bytes): 0, all ones for an integer type, any byte for a one-byte
    /// integer type.
    fn fill_value(&self, byte: &Expr, element: &str, size: i64) -> Option<Expr> {
        let at = |kind| Expr {
            kind,
            loc: byte.loc.clone(),
        };
        let integer = crate::front::syntax::is_integer_type(element);
        match const_value(byte) {
            Some(0) => Some(at(ExprKind::Int(0, "0".into()))),
            Some(v) if integer && (v == -1 || v == 255) => Some(at(ExprKind::Cast(
                element.to_string(),
                Box::new(at(ExprKind::Int(-1, "-1".into()))),
            ))),
            _ if integer && size == 1 => Some(at(ExprKind::Cast(
                element.to_string(),
                Box::new(at(ExprKind::Cast(
                    "unsigned char".into(),
                    Box::new(byte.clone()),
                ))),
            ))),
            _ => None,
        }
    }

    /// The place an argument of a copy points to: `A` (an array or a
    /// pointer), a row `A[i]`, an address `&A[i][j]`, or `A + k` of a
    /// one-dimensional `A`.
    fn place(&self, e: &Expr) -> Option<Place> {
        let (e, offset) = match &e.kind {
            ExprKind::Binary(BinOp::Add, a, k) => (&**a, Some(&**k)),
            _ => (e, None),
        };
        let e = match &e.kind {
            ExprKind::Unary(UnOp::AddrOf, inner) => &**inner,
            _ => e,
        };
        let mut subs = Vec::new();
        let mut cur = e;
        while let ExprKind::Index(b, i) = &cur.kind {
            subs.push((**i).clone());
            cur = b;
        }
        subs.reverse();
        let ExprKind::Ident(name) = &cur.kind else {
            return None;
        };
        let d = self.declared.borrow().get(name).cloned()?;
        let mut extents = d.extents.clone();
        if d.pointer {
            extents.insert(0, None);
        }
        if subs.len() > extents.len()
            || (offset.is_some() && (extents.len() != 1 || !subs.is_empty()))
        {
            return None;
        }
        let zero = || Expr {
            kind: ExprKind::Int(0, "0".into()),
            loc: e.loc.clone(),
        };
        let mut start = subs;
        if let Some(k) = offset {
            start.push(k.clone());
        }
        while start.len() < extents.len() {
            start.push(zero());
        }
        Some(Place {
            name: name.clone(),
            start,
            element: d.element,
            extents,
        })
    }

    /// The loops of a copy of `count` elements to `to`, or `None` where
    /// pencilc cannot show which elements they are.
    fn copy_loops(&self, to: &Place, source: &Source, count: &Expr, loc: &Loc) -> Option<Stmt> {
        let at = |kind| Expr {
            kind,
            loc: loc.clone(),
        };
        // One element (a scalar's address, `sizeof x`): a store.
        if const_value(count) == Some(1) {
            let at_start = |p: &Place| {
                p.start
                    .iter()
                    .fold(at(ExprKind::Ident(p.name.clone())), |b, s| {
                        at(ExprKind::Index(Box::new(b), Box::new(s.clone())))
                    })
            };
            return Some(Stmt::Assign {
                lhs: at_start(to),
                op: AssignOp::Assign,
                rhs: match source {
                    Source::Fill(v) => v.clone(),
                    Source::Copy(from) => at_start(from),
                },
                loc: loc.clone(),
                atomic: false,
            });
        }
        if to.start.is_empty() || matches!(source, Source::Copy(from) if from.start.is_empty()) {
            // More than one element from a scalar.
            return None;
        }
        // The loops' extents: those of a tail of either place's dimensions
        // whose product is the count (`memcpy(A, B, n * m * sizeof *B)`),
        // or the count alone.
        let rows = |p: &Place| -> Option<Vec<Expr>> {
            let tail: Vec<Expr> = p.extents[p.tail()..]
                .iter()
                .cloned()
                .collect::<Option<_>>()?;
            let product = tail
                .iter()
                .cloned()
                .reduce(|a, b| at(ExprKind::Binary(BinOp::Mul, Box::new(a), Box::new(b))))?;
            (tail.len() > 1 && same_product(&product, count)).then_some(tail)
        };
        let extents = rows(to)
            .or_else(|| match source {
                Source::Copy(from) => rows(from),
                Source::Fill(_) => None,
            })
            .unwrap_or_else(|| vec![count.clone()]);
        let _scope = self.enter_scope([]);
        let iters: Vec<String> = extents
            .iter()
            .map(|_| self.declare("pencilc_elem"))
            .collect();
        let ident = |n: &String| at(ExprKind::Ident(n.clone()));
        let plus = |a: Expr, b: Expr| at(ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(b)));
        // `p[...]` at the loops' element.
        let element = |p: &Place| -> Option<Expr> {
            let prank = p.start.len();
            let mut subs = p.start.clone();
            if prank == 1 {
                // One dimension: the loops' linear offset.
                let mut linear = ident(&iters[0]);
                for (k, it) in iters.iter().enumerate().skip(1) {
                    linear = plus(
                        at(ExprKind::Binary(
                            BinOp::Mul,
                            Box::new(linear),
                            Box::new(extents[k].clone()),
                        )),
                        ident(it),
                    );
                }
                subs[0] = plus(subs[0].clone(), linear);
            } else if iters.len() == 1 {
                // Inside the last dimension, or all of it.
                let last = prank - 1;
                let whole = const_value(&p.start[last]) == Some(0)
                    && p.extents[last]
                        .as_ref()
                        .is_some_and(|e| same_product(e, count));
                if !whole && !fits_in_last(p, count) {
                    return None;
                }
                subs[last] = plus(subs[last].clone(), ident(&iters[0]));
            } else {
                // Whole rows: the place's last dimensions are the loops'.
                let first = prank.checked_sub(iters.len())?;
                for (k, it) in iters.iter().enumerate() {
                    let pd = first + k;
                    let own = p.extents[pd].as_ref()?;
                    if const_value(&p.start[pd]) != Some(0) || !same_product(own, &extents[k]) {
                        return None;
                    }
                    subs[pd] = ident(it);
                }
            }
            Some(subs.into_iter().fold(ident(&p.name), |b, s| {
                at(ExprKind::Index(Box::new(b), Box::new(s)))
            }))
        };
        let lhs = element(to)?;
        let rhs = match source {
            Source::Fill(v) => v.clone(),
            Source::Copy(from) => element(from)?,
        };
        let mut stmt = Stmt::Assign {
            lhs,
            op: AssignOp::Assign,
            rhs,
            loc: loc.clone(),
            atomic: false,
        };
        for (it, extent) in iters.iter().zip(&extents).rev() {
            stmt = Stmt::For {
                iter: it.clone(),
                iter_type: Some("long".into()),
                init: at(ExprKind::Int(0, "0".into())),
                cond: at(ExprKind::Binary(
                    BinOp::Lt,
                    Box::new(ident(it)),
                    Box::new(extent.clone()),
                )),
                step: 1,
                body: vec![stmt],
                independent: None,
                loc: loc.clone(),
            };
        }
        Some(stmt)
    }
}

/// Whether `count` elements from `p`'s start stay inside its last
/// dimension: constants that show it.
fn fits_in_last(p: &Place, count: &Expr) -> bool {
    let last = p.start.len() - 1;
    match (
        const_value(count),
        const_value(&p.start[last]),
        p.extents[last].as_ref().and_then(const_value),
    ) {
        (Some(c), Some(s), Some(e)) => c >= 0 && s >= 0 && s + c <= e,
        _ => false,
    }
}

/// What a copy stores: another place's elements, or one value.
enum Source {
    Copy(Place),
    Fill(Expr),
}
