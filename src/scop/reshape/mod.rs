//! C as DSL compilers write it, as the multi-dimensional arrays it stands
//! for: before the model is built, the region's code is rewritten so that
//!
//! - a pointer (`float *restrict p`, `const float *p`, `float (*p)[m]`) is
//!   an array whose outermost extent is what the region accesses
//!   (`Extent::Accessed`; the device buffer holds exactly that range);
//! - a pointer-to-array cast of a flat buffer in the region (`float
//!   (*restrict u)[ny][nz] = (float (*)[ny][nz]) u_vec;`) makes `u[i][j][k]`
//!   an access of `u_vec`, an array of that shape;
//! - linearised subscripts of a flat array (`p[i * m + j]`, `p[(i * n + j)
//!   * k + l]`, `p[i * 1024 + j]`) become subscripts of the dimensions they
//!   imply (`shape`), the same shape for every access of the array or none.
//!
//! The rewritten access addresses the user's element only where each
//! inner subscript is inside its extent (`0 <= j < m`); `validity` proves
//! that from the domains and the assumptions, or makes it part of what the
//! generated code checks on entry (the user's code runs otherwise).

pub mod footprint;
mod poly;
mod shape;
pub mod validity;
mod walk;

use crate::diag::{Code, Diagnostic, Loc, Result};
use crate::front::affine::{isl_name, IntTy, NameKind};
use crate::front::cexpr::plain;
use crate::front::parse::Region;
use crate::front::syntax::{BinOp, Expr, ExprKind, Stmt, VarDecl};
use poly::{expand, Poly, Stride};
use shape::Shape;
use std::collections::{BTreeMap, BTreeSet};

/// What the rewrite did to one array of the region.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The user declared a pointer (`float *p`, `float (*p)[m]`, `float
    /// p[]`), which may point anywhere, rather than an array object.
    pub pointer: bool,
    /// The user's variable is flat and the model is not (`Layout::host_flat`).
    pub host_flat: bool,
    /// The shape was recovered from linearised subscripts (rather than
    /// declared by a cast or a pointer to rows): it may be given up.
    pub delinearised: bool,
    /// Inner extents, in isl notation, of a shape that subscripts were
    /// delinearised into: each inner subscript must be inside its extent.
    pub checked: Vec<String>,
    /// The shape, for `-v` (`A[*][m]`).
    pub shape_text: String,
    /// One delinearised subscript: (its text, the rewritten access).
    pub example: Option<(String, String, Loc)>,
    /// Every delinearised access: where, its text, the rewritten access.
    pub rewrites: Vec<(Loc, String, String)>,
}

/// The region rewritten, and what was done to which array.
pub struct Prepared {
    pub region: Region,
    pub plans: BTreeMap<String, Plan>,
    /// Parameters that the rewritten code no longer mentions but the
    /// model needs (extents of delinearised arrays), C names.
    pub extent_params: BTreeSet<String>,
    pub warnings: Vec<Diagnostic>,
    /// Arrays whose subscripts a warning is about already.
    pub reported: BTreeSet<String>,
}

/// One access of an array: its subscripts and the loops around it.
struct Use {
    subs: Vec<Expr>,
    iters: Vec<String>,
    loc: Loc,
}

/// `T (*a)[n][m] = (T (*)[n][m]) buf;` in the region.
#[derive(Clone)]
struct Alias {
    base: String,
    dims: Vec<Expr>,
    restrict: bool,
    read_only: bool,
    loc: Loc,
}

/// Rewrites `region` (see the module comment). Arrays in `keep_flat` are
/// not delinearised (a rebuild after `validity` found their shape never
/// valid).
pub fn prepare(region: &Region, keep_flat: &BTreeSet<String>) -> Result<Prepared> {
    let mut region = region.clone();
    let mut aliases = BTreeMap::new();
    region.body = resolve_aliases(&region.body, &region.symbols, &mut aliases)?;
    let mut written = BTreeSet::new();
    super::build::collect_written(&region.body, &region.symbols, &mut written);
    // Iterators read outside their loops vary within the region.
    written.extend(super::build::iterators_used_outside(&region.body).into_keys());
    let canon = equalities(&region.body, &region.symbols, &written);

    let uses = uses_by_array(&region.body)?;
    // Arrays passed to calls keep their declared form: a summary describes
    // them as its own parameters.
    let mut called = BTreeSet::new();
    called_arrays(&region.body, &mut called);

    let types = |n: &str, _: &[String]| -> IntTy {
        region
            .symbols
            .get(n)
            .and_then(|d| IntTy::of(&d.base_type))
            .or_else(|| loop_type(&region.body, n).and_then(|t| IntTy::of(&t)))
            .unwrap_or(IntTy::INT)
    };
    let mut plans = BTreeMap::new();
    let mut decompositions: BTreeMap<String, Shape> = BTreeMap::new();
    let mut extent_params = BTreeSet::new();
    let mut warnings = Vec::new();
    let mut reported = BTreeSet::new();
    let mut symbols = region.symbols.clone();
    for (name, list) in &uses {
        let Some(decl) = region.symbols.get(name) else {
            continue;
        };
        if !crate::front::syntax::is_integer_type(&decl.base_type)
            && !crate::front::syntax::is_float_type(&decl.base_type)
        {
            continue;
        }
        let kind = |n: &str, iters: &[String]| -> NameKind {
            if iters.iter().any(|i| i == n) {
                NameKind::Iterator
            } else {
                super::build::classify_name(&[], &written, &region.symbols, n)
            }
        };
        if let Some(alias) = aliases.get(name) {
            let d = symbols.get_mut(name).expect("checked by resolve_aliases");
            d.dims = std::iter::once(None)
                .chain(alias.dims.iter().cloned().map(Some))
                .collect();
            d.pointer = false;
            d.restrict |= alias.restrict;
            d.read_only |= alias.read_only;
            let checked = isl_extents(&alias.dims, &kind).unwrap_or_default();
            extent_params.extend(extent_names(&alias.dims, &kind));
            let mut plan = Plan {
                pointer: decl.pointer || decl.storage == crate::front::syntax::Storage::Param,
                host_flat: true,
                delinearised: false,
                checked,
                shape_text: shape_text(name, &alias.dims),
                example: None,
                rewrites: Vec::new(),
            };
            // Direct accesses of the buffer must fit the cast's shape.
            let flat: Vec<&Use> = list.iter().filter(|u| u.subs.len() == 1).collect();
            if !flat.is_empty() {
                let sizes: Option<Vec<Stride>> =
                    alias.dims.iter().map(|e| stride_of(e, &kind)).collect();
                let Some(shape) = sizes.as_deref().and_then(Shape::from_sizes) else {
                    return Err(alias_misfit(
                        name,
                        alias,
                        flat[0],
                        "the cast's extents are not products of parameters and constants",
                    ));
                };
                for u in &flat {
                    let p = expand(&u.subs[0], &|n| kind(n, &u.iters))
                        .map_err(|w| alias_misfit(name, alias, u, &w.reason))?;
                    shape
                        .decompose(&rename(&p, &canon), &|n| u.iters.iter().any(|i| i == n))
                        .map_err(|m| alias_misfit(name, alias, u, &m.fact))?;
                }
                plan.checked = isl_sizes(&shape).ok_or_else(|| {
                    alias_misfit(name, alias, flat[0], "an extent is a product of parameters")
                })?;
                extent_params.extend(shape.sizes().iter().flat_map(|s| s.params.clone()));
                decompositions.insert(name.clone(), shape);
            }
            plans.insert(name.clone(), plan);
            continue;
        }
        // A struct object's one dimension is its members' places, which
        // the struct lays out (`s.f[i].a[j]` is `s[10 * i + j]`): host
        // code prints them as members again.
        let candidate = decl.rank() == 1
            && decl.members.is_empty()
            && !list.is_empty()
            && !keep_flat.contains(name)
            && !called.contains(name)
            && list.iter().all(|u| u.subs.len() == 1);
        let mut reshaped = false;
        if candidate {
            match choose_shape(list, &kind, &types, &canon) {
                Ok(Some(shape)) => {
                    let sizes = shape.sizes();
                    let d = symbols.get_mut(name).expect("declared");
                    d.dims = std::iter::once(None)
                        .chain(sizes.iter().map(|s| Some(s.to_expr(&decl.loc))))
                        .collect();
                    d.pointer = false;
                    let dims: Vec<Expr> = sizes.iter().map(|s| s.to_expr(&decl.loc)).collect();
                    let mut rewrites = Vec::new();
                    for u in list {
                        let p = rename(
                            &expand(&u.subs[0], &|n| kind(n, &u.iters)).expect("expanded before"),
                            &canon,
                        );
                        let comps = shape
                            .decompose(&p, &|n| u.iters.iter().any(|i| i == n))
                            .expect("decomposed before");
                        let rewritten: String = comps.iter().map(|c| format!("[{}]", c)).collect();
                        rewrites.push((
                            u.loc.clone(),
                            format!("{}[{}]", name, plain(&u.subs[0])),
                            format!("{}{}", name, rewritten),
                        ));
                    }
                    let (_, from, to) = rewrites[0].clone();
                    plans.insert(
                        name.clone(),
                        Plan {
                            pointer: decl.pointer
                                || decl.storage == crate::front::syntax::Storage::Param,
                            host_flat: true,
                            delinearised: true,
                            checked: isl_sizes(&shape).expect("checked by choose_shape"),
                            shape_text: shape_text(name, &dims),
                            example: Some((from, to, list[0].loc.clone())),
                            rewrites,
                        },
                    );
                    extent_params.extend(sizes.iter().flat_map(|s| s.params.clone()));
                    decompositions.insert(name.clone(), shape);
                    reshaped = true;
                }
                Ok(None) => {}
                Err((u, misfit)) => {
                    if looks_linearised(&u.subs[0]) {
                        warnings.push(misfit_warning(name, u, &misfit, decl.pointer));
                        reported.insert(name.clone());
                    }
                }
            }
        }
        if !reshaped && (decl.pointer || matches!(decl.dims.first(), Some(None))) {
            let d = symbols.get_mut(name).expect("declared");
            if d.pointer && d.dims.is_empty() {
                d.dims = vec![None];
            }
            d.pointer = false;
            // A pointer to rows (`float (*p)[m]`) is indexed within its
            // rows; `validity` checks that as it checks delinearised ones.
            let inner: Vec<Expr> = d.dims.iter().skip(1).flatten().cloned().collect();
            extent_params.extend(extent_names(&inner, &kind));
            plans.insert(
                name.clone(),
                Plan {
                    pointer: true,
                    host_flat: false,
                    delinearised: false,
                    checked: isl_extents(&inner, &kind).unwrap_or_default(),
                    shape_text: if inner.is_empty() {
                        String::new()
                    } else {
                        shape_text(name, &inner)
                    },
                    example: None,
                    rewrites: Vec::new(),
                },
            );
        }
    }

    region.body = delinearise(&region, &decompositions, &written, &canon)?;
    region.symbols = symbols;
    Ok(Prepared {
        region,
        plans,
        extent_params,
        warnings,
        reported,
    })
}

/// Every subscripted access of `body`, by array, with the loop iterators
/// around it; an array only named (a whole array) has an empty list.
fn uses_by_array(body: &[Stmt]) -> Result<BTreeMap<String, Vec<Use>>> {
    let mut uses: BTreeMap<String, Vec<Use>> = BTreeMap::new();
    let mut visit = |e: &Expr, iters: &[String]| -> Result<Option<Expr>> {
        if let Some((name, subs)) = walk::chain(e) {
            // A name alone is a whole array in a kill (any shape's
            // elements) or in a call (`called_arrays`); a pointer
            // used so still needs its plan.
            let list = uses.entry(name.to_string()).or_default();
            if !subs.is_empty() {
                list.push(Use {
                    subs: subs.into_iter().cloned().collect(),
                    iters: iters.to_vec(),
                    loc: e.loc.clone(),
                });
            }
        }
        Ok(None)
    };
    walk::stmts(body, &mut Vec::new(), &mut visit)?;
    Ok(uses)
}

/// `region`'s body with each access of an array in `decompositions`
/// rewritten into the subscripts of its shape.
fn delinearise(
    region: &Region,
    decompositions: &BTreeMap<String, Shape>,
    written: &BTreeSet<String>,
    canon: &BTreeMap<String, String>,
) -> Result<Vec<Stmt>> {
    let mut visit = |e: &Expr, iters: &[String]| -> Result<Option<Expr>> {
        let Some((name, subs)) = walk::chain(e) else {
            return Ok(None);
        };
        let Some(shape) = decompositions.get(name) else {
            return Ok(None);
        };
        if subs.len() != 1 {
            return Ok(None);
        }
        let kind = |n: &str| -> NameKind {
            if iters.iter().any(|i| i == n) {
                NameKind::Iterator
            } else {
                super::build::classify_name(&[], &written, &region.symbols, n)
            }
        };
        let p = rename(
            &expand(subs[0], &kind).map_err(|w| internal(&w.reason))?,
            &canon,
        );
        let comps = shape
            .decompose(&p, &|n| iters.iter().any(|i| i == n))
            .map_err(|m| internal(&m.fact))?;
        let mut out = Expr {
            kind: ExprKind::Ident(name.to_string()),
            loc: e.loc.clone(),
        };
        for c in comps {
            out = Expr {
                kind: ExprKind::Index(Box::new(out), Box::new(c.to_expr(&subs[0].loc))),
                loc: e.loc.clone(),
            };
        }
        Ok(Some(out))
    };
    walk::stmts(&region.body, &mut Vec::new(), &mut visit)
}

fn internal(why: &str) -> Diagnostic {
    Diagnostic::internal("scop", format!("delinearisation: {}", why))
}

/// `A[*][m][3]`.
fn shape_text(name: &str, dims: &[Expr]) -> String {
    format!(
        "{}[*]{}",
        name,
        dims.iter()
            .map(|d| format!("[{}]", plain(d)))
            .collect::<String>()
    )
}

/// The extents of a shape in isl notation, `None` where one is a product
/// of parameters (not affine).
fn isl_sizes(shape: &Shape) -> Option<Vec<String>> {
    shape
        .sizes()
        .iter()
        .map(|s| s.to_poly().to_isl(&|n| isl_name(n)))
        .collect()
}

/// Extents in isl notation (`nz`, `nz + 2`, `64`), `None` where one is
/// not affine in the parameters.
fn isl_extents(dims: &[Expr], kind: &dyn Fn(&str, &[String]) -> NameKind) -> Option<Vec<String>> {
    dims.iter()
        .map(|e| expand(e, &|n| kind(n, &[])).ok()?.to_isl(&|n| isl_name(n)))
        .collect()
}

/// The parameters extents mention.
fn extent_names(dims: &[Expr], kind: &dyn Fn(&str, &[String]) -> NameKind) -> Vec<String> {
    let mut out = Vec::new();
    for e in dims {
        let mut ids = Vec::new();
        e.idents(&mut ids);
        out.extend(
            ids.into_iter()
                .filter(|n| kind(n, &[]) == NameKind::Parameter),
        );
    }
    out
}

/// An extent of a cast as a stride: a product of parameters and a constant.
fn stride_of(e: &Expr, kind: &dyn Fn(&str, &[String]) -> NameKind) -> Option<Stride> {
    let p = expand(e, &|n| kind(n, &[])).ok()?;
    let [(m, c)] = p.terms.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    (*c > 0).then(|| Stride {
        coef: *c,
        params: m.clone(),
    })
}

/// The shape of one array's subscripts (`shape::choose`), each subscript
/// a polynomial computed in a type that does not wrap around; or the
/// access that does not fit, and why.
fn choose_shape<'u>(
    list: &'u [Use],
    kind: &dyn Fn(&str, &[String]) -> NameKind,
    types: &dyn Fn(&str, &[String]) -> IntTy,
    canon: &BTreeMap<String, String>,
) -> std::result::Result<Option<Shape>, (&'u Use, shape::Misfit)> {
    let mut polys = Vec::new();
    for u in list {
        let p = expand(&u.subs[0], &|n| kind(n, &u.iters)).map_err(|w| {
            (
                u,
                shape::Misfit {
                    term: w.term,
                    fact: format!(
                        "a polynomial of the loop iterators and parameters ({})",
                        w.reason
                    ),
                    assume: None,
                },
            )
        })?;
        if let Some((t, part)) = wraps(&u.subs[0], &|n| types(n, &u.iters)) {
            let part = plain(part);
            let whole = plain(&u.subs[0]);
            let what = if part == whole {
                "it".to_string()
            } else {
                format!("`{}`", part)
            };
            return Err((
                u,
                shape::Misfit {
                    term: whole,
                    fact: format!(
                        "arithmetic that does not wrap around, but {} is computed in `{}`, modulo 2^{} (declare the sizes `int`, `long` or `size_t`)",
                        what,
                        t.c_name(),
                        t.bits
                    ),
                    assume: None,
                },
            ));
        }
        polys.push(rename(&p, canon));
    }
    // Every subscript's own iterators: a name is an iterator of the
    // subscripts whose loops it runs (one name may be a loop variable in
    // one nest and unused in another).
    let iter_names: BTreeSet<&str> = list
        .iter()
        .flat_map(|u| u.iters.iter().map(|s| s.as_str()))
        .collect();
    let is_iter = |n: &str| iter_names.contains(n);
    match shape::choose(&polys, &is_iter) {
        Ok(Some(s)) => {
            if isl_sizes(&s).is_none() {
                let big = s
                    .sizes()
                    .into_iter()
                    .find(|x| x.params.len() > 1)
                    .expect("some size");
                return Err((
                    &list[0],
                    shape::Misfit {
                        term: big.to_string(),
                        fact: format!("the row length `{}` as one parameter (a product of parameters is not affine)", big),
                        assume: None,
                    },
                ));
            }
            Ok(Some(s))
        }
        Ok(None) => Ok(None),
        Err(m) => {
            let at = polys
                .iter()
                .position(|p| p.to_string().contains(&m.term))
                .unwrap_or(0);
            Err((&list[at], m))
        }
    }
}

/// The unsigned type narrower than 64 bits in which `e` is computed, if
/// any: there C's arithmetic wraps modulo 2^32 (or less), and `(i - 1) *
/// m` is not the polynomial's value. Only what computes or converts
/// counts: an `unsigned` name or literal is its value, and `i * m` with
/// a `size_t i` converts `m` and multiplies in 64 bits (a red-team round
/// found that warned about as `unsigned int` arithmetic).
fn wraps<'e>(e: &'e Expr, types: &dyn Fn(&str) -> IntTy) -> Option<(IntTy, &'e Expr)> {
    // Children before their parent: the last one found is an outermost
    // part that wraps (`m - 1 - j` of `i * m + (m - 1 - j)`).
    fn ty<'e>(
        e: &'e Expr,
        types: &dyn Fn(&str) -> IntTy,
        bad: &mut Option<(IntTy, &'e Expr)>,
    ) -> IntTy {
        let (t, computes) = match &e.kind {
            ExprKind::Int(v, text) => (IntTy::of_literal(text, *v), false),
            ExprKind::Ident(n) => (types(n).promoted(), false),
            ExprKind::Unary(_, a) => (ty(a, types, bad).promoted(), true),
            ExprKind::Cast(t, a) => {
                ty(a, types, bad);
                (IntTy::of(t).unwrap_or(IntTy::INT).promoted(), true)
            }
            ExprKind::Binary(_, a, b) => {
                let (x, y) = (ty(a, types, bad), ty(b, types, bad));
                (IntTy::common(x, y), true)
            }
            _ => (IntTy::INT, false),
        };
        if computes && !t.signed && t.bits < 64 {
            *bad = Some((t, e));
        }
        t
    }
    let mut bad = None;
    ty(e, types, &mut bad);
    bad
}

/// Names replaced by the representative of the parameters the region
/// assumes equal.
fn rename(p: &Poly, canon: &BTreeMap<String, String>) -> Poly {
    let mut out = Poly::default();
    for (m, c) in &p.terms {
        let names: Vec<String> = m
            .iter()
            .map(|n| canon.get(n).cloned().unwrap_or_else(|| n.clone()))
            .collect();
        out = out
            .add(&Poly::monomial(*c, &names))
            .unwrap_or_else(|| out.clone());
    }
    out
}

/// `__pencil_assume(n == m)` at the region's top level: parameters that
/// are equal wherever the region runs, each mapped to one representative
/// (the first name in order), so that `i * n + j` and `i * m + j` have
/// the same rows.
fn equalities(
    body: &[Stmt],
    symbols: &BTreeMap<String, VarDecl>,
    written: &BTreeSet<String>,
) -> BTreeMap<String, String> {
    fn pairs(e: &Expr, out: &mut Vec<(String, String)>) {
        match &e.kind {
            ExprKind::Binary(BinOp::And, a, b) => {
                pairs(a, out);
                pairs(b, out);
            }
            ExprKind::Binary(BinOp::Eq, a, b) => {
                if let (ExprKind::Ident(x), ExprKind::Ident(y)) = (&a.kind, &b.kind) {
                    out.push((x.clone(), y.clone()));
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    for s in body {
        if let Stmt::Assume { cond, .. } = s {
            pairs(cond, &mut found);
        }
    }
    let is_param =
        |n: &str| super::build::classify_name(&[], written, symbols, n) == NameKind::Parameter;
    let mut rep: BTreeMap<String, String> = BTreeMap::new();
    let find = |rep: &BTreeMap<String, String>, n: &str| -> String {
        let mut cur = n.to_string();
        while let Some(next) = rep.get(&cur) {
            if *next == cur {
                break;
            }
            cur = next.clone();
        }
        cur
    };
    for (a, b) in found {
        if !is_param(&a) || !is_param(&b) {
            continue;
        }
        let (ra, rb) = (find(&rep, &a), find(&rep, &b));
        if ra == rb {
            continue;
        }
        let (keep, other) = if ra < rb { (ra, rb) } else { (rb, ra) };
        rep.insert(other, keep);
    }
    let names: Vec<String> = rep.keys().cloned().collect();
    names
        .into_iter()
        .map(|n| {
            let r = find(&rep, &n);
            (n, r)
        })
        .collect()
}

/// Arrays that appear in the arguments of call statements.
fn called_arrays(body: &[Stmt], out: &mut BTreeSet<String>) {
    for s in body {
        match s {
            Stmt::Call { args, .. } => {
                for a in args {
                    let mut ids = Vec::new();
                    a.idents(&mut ids);
                    out.extend(ids);
                }
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => called_arrays(body, out),
            Stmt::If { then_, else_, .. } => {
                called_arrays(then_, out);
                called_arrays(else_, out);
            }
            _ => {}
        }
    }
}

/// The type a loop of the region declares its iterator `n` with.
fn loop_type(body: &[Stmt], n: &str) -> Option<String> {
    for s in body {
        match s {
            Stmt::For {
                iter,
                iter_type,
                body,
                ..
            } => {
                if iter == n {
                    if let Some(t) = iter_type {
                        return Some(t.clone());
                    }
                }
                if let Some(t) = loop_type(body, n) {
                    return Some(t);
                }
            }
            Stmt::While { body, .. } => {
                if let Some(t) = loop_type(body, n) {
                    return Some(t);
                }
            }
            Stmt::If { then_, else_, .. } => {
                if let Some(t) = loop_type(then_, n).or_else(|| loop_type(else_, n)) {
                    return Some(t);
                }
            }
            _ => {}
        }
    }
    None
}

/// A product of two names somewhere in the subscript: what a linearised
/// subscript looks like.
fn looks_linearised(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(BinOp::Mul, a, b) => {
            let (mut x, mut y) = (Vec::new(), Vec::new());
            a.idents(&mut x);
            b.idents(&mut y);
            (!x.is_empty() && !y.is_empty()) || looks_linearised(a) || looks_linearised(b)
        }
        ExprKind::Binary(_, a, b) => looks_linearised(a) || looks_linearised(b),
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => looks_linearised(a),
        _ => false,
    }
}

/// The warning for a subscript that cannot be delinearised: which term,
/// what fact is missing, and the assumption that would supply it.
fn misfit_warning(name: &str, u: &Use, m: &shape::Misfit, pointer: bool) -> Diagnostic {
    let then = if pointer {
        format!("`{}` keeps one dimension", name)
    } else {
        format!(
            "`{}` is then a may-access to all of `{}`",
            plain(&u.subs[0]),
            name
        )
    };
    let d = Diagnostic::warning(
        Code::NonAffineSubscript,
        Some(u.subs[0].loc.clone()),
        format!(
            "the subscript `{}` looks linearised but cannot be delinearised: the term `{}` needs {}; {}",
            plain(&u.subs[0]),
            m.term,
            m.fact,
            then
        ),
    );
    match &m.assume {
        Some(a) => d.with_hint(format!(
            "if it holds, say so before the loops: `{}`; or declare a multi-dimensional array (`float A[n][m]`) and write `A[i][j]`",
            a
        )),
        None => d.with_hint("declare a multi-dimensional C99 array (`float A[n][m]`, or `A[pencil_array n][m]` for a parameter) and write `A[i][j]`"),
    }
}

fn alias_misfit(name: &str, alias: &Alias, u: &Use, why: &str) -> Diagnostic {
    Diagnostic::error(
        Code::PointerArithmetic,
        Some(u.subs[0].loc.clone()),
        format!(
            "`{}` is accessed both as `{}` (line {}) and as `{}[{}]`, which does not fit that shape: {}",
            name,
            shape_text(name, &alias.dims),
            alias.loc.line,
            name,
            plain(&u.subs[0]),
            why
        ),
    )
    .with_hint(format!(
        "access `{}` through the cast pointer only, or with subscripts that fit its rows",
        name
    ))
}

/// Removes the pointer-to-array casts (`T (*a)[n] = (T (*)[n]) buf;`) of
/// the region, renaming `a` to `buf` in the rest of its block, and
/// records their shapes by buffer.
fn resolve_aliases(
    body: &[Stmt],
    symbols: &BTreeMap<String, VarDecl>,
    out: &mut BTreeMap<String, Alias>,
) -> Result<Vec<Stmt>> {
    let mut result = Vec::new();
    // The statements still to go, once a cast renamed them; borrowed
    // until then (cloning each level's body made nesting quadratic).
    let mut renamed: Option<Vec<Stmt>> = None;
    let mut k = 0;
    loop {
        let rest: &[Stmt] = renamed.as_deref().unwrap_or(body);
        let Some(s) = rest.get(k) else {
            break;
        };
        match s {
            Stmt::Decl {
                var,
                init: Some(init),
                loc,
            } if matches!(var.dims.first(), Some(None)) => {
                let alias = alias_of(var, init, loc, symbols)?;
                if let Some(other) = out.get(&alias.base) {
                    if shape_text(&alias.base, &other.dims) != shape_text(&alias.base, &alias.dims)
                    {
                        return Err(Diagnostic::error(
                            Code::PointerArithmetic,
                            Some(loc.clone()),
                            format!(
                                "`{}` is cast to two shapes in the region: `{}` and `{}`",
                                alias.base,
                                shape_text(&alias.base, &other.dims),
                                shape_text(&alias.base, &alias.dims)
                            ),
                        )
                        .with_hint("cast each buffer to one shape"));
                    }
                }
                let (from, to) = (var.name.clone(), alias.base.clone());
                let mut rename = |e: &Expr, _: &[String]| -> Result<Option<Expr>> {
                    Ok(rename_base(e, &from, &to))
                };
                let tail = walk::stmts(&rest[k + 1..], &mut Vec::new(), &mut rename)?;
                out.insert(alias.base.clone(), alias);
                // The declaration itself goes: the buffer is the array.
                renamed = Some(tail);
                k = 0;
                continue;
            }
            Stmt::For { .. } | Stmt::If { .. } | Stmt::While { .. } => {
                result.push(nested(s, symbols, out)?);
            }
            _ => result.push(s.clone()),
        }
        k += 1;
    }
    Ok(result)
}

fn nested(
    s: &Stmt,
    symbols: &BTreeMap<String, VarDecl>,
    out: &mut BTreeMap<String, Alias>,
) -> Result<Stmt> {
    Ok(match s {
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
            body: resolve_aliases(body, symbols, out)?,
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
            then_: resolve_aliases(then_, symbols, out)?,
            else_: resolve_aliases(else_, symbols, out)?,
            loc: loc.clone(),
        },
        Stmt::While { cond, body, loc } => Stmt::While {
            cond: cond.clone(),
            body: resolve_aliases(body, symbols, out)?,
            loc: loc.clone(),
        },
        other => other.clone(),
    })
}

/// `a` renamed `b` where it is the base of an access or stands alone.
fn rename_base(e: &Expr, from: &str, to: &str) -> Option<Expr> {
    match &e.kind {
        ExprKind::Ident(n) if n == from => Some(Expr {
            kind: ExprKind::Ident(to.to_string()),
            loc: e.loc.clone(),
        }),
        ExprKind::Index(b, i) => rename_base(b, from, to).map(|nb| Expr {
            kind: ExprKind::Index(Box::new(nb), i.clone()),
            loc: e.loc.clone(),
        }),
        _ => None,
    }
}

/// The buffer a pointer-to-array declaration of the region reshapes.
fn alias_of(
    var: &VarDecl,
    init: &Expr,
    loc: &Loc,
    symbols: &BTreeMap<String, VarDecl>,
) -> Result<Alias> {
    let hint = format!(
        "initialise it with a cast of a pointer or one-dimensional array of `{}`: `{} (*{})[...] = ({} (*)[...]) buf;`",
        var.base_type, var.base_type, var.name, var.base_type
    );
    let ExprKind::Ident(base) = &init.kind else {
        return Err(Diagnostic::error(
            Code::PointerArithmetic,
            Some(init.loc.clone()),
            format!(
                "`{}` must point to the start of a buffer the region can name",
                var.name
            ),
        )
        .with_hint(hint));
    };
    let Some(b) = symbols.get(base) else {
        return Err(Diagnostic::error(
            Code::UnknownIdentifier,
            Some(init.loc.clone()),
            format!("`{}` is not declared", base),
        )
        .with_hint("declare it before the region"));
    };
    let flat = (b.pointer && b.dims.is_empty()) || (!b.pointer && b.dims.len() == 1);
    let same_type = b.base_type.replace("const ", "") == var.base_type.replace("const ", "");
    if !flat || !same_type {
        return Err(Diagnostic::error(
            Code::PointerArithmetic,
            Some(init.loc.clone()),
            format!(
                "`{}` is not a flat buffer of `{}` (a `{} *` pointer or a one-dimensional array)",
                base, var.base_type, var.base_type
            ),
        )
        .with_hint(hint));
    }
    Ok(Alias {
        base: base.clone(),
        dims: var.dims.iter().skip(1).flatten().cloned().collect(),
        restrict: var.restrict,
        read_only: var.read_only,
        loc: loc.clone(),
    })
}
