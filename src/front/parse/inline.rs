//! Calls to small functions of the file, `static inline float sq(float x)
//! { return x * x; }`, in region expressions.
//!
//! A function whose body is local scalar declarations with initialisers
//! followed by one `return e;` computes a pure function of its arguments
//! and of the arrays they name. Its calls are replaced by `e`, with each
//! argument in place of its parameter and each local's initialiser in
//! place of the local, converted as C's call converts them: a scalar
//! argument to its parameter's type, the result to the return type. The
//! model then sees the reads the body makes (`get(a, i)` reads `a[i]`),
//! the kernels need no device copy of the function, and the original
//! code keeps its calls. pet inlines such functions too (PPCG's tests
//! `call4.c`, `call5.c`).
//!
//! Expressions have no side effects in the model (assignments are
//! statements), so an argument used twice in the body may be evaluated
//! twice. Names the body reads besides its parameters and locals must be
//! globals that the region sees as the same globals; where a local of the
//! region's function hides one, the call is left alone (and reported as a
//! call pencilc does not know).

use super::Cx;
use crate::diag::Loc;
use crate::front::syntax::{integer_range, subst_expr, Expr, ExprKind, Stmt, Storage, VarDecl};
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

/// Calls nest at most this deep through inlined bodies (a function of
/// the file that calls itself is never inlined completely).
const MAX_DEPTH: usize = 16;
/// An inlined call gives an expression of at most this many nodes: a
/// body that uses its parameter twice doubles its argument, and nested
/// calls of such functions would grow exponentially.
const MAX_NODES: usize = 5_000;
/// The nodes all attempts in a region may build: a call that grows past
/// `MAX_NODES` is tried again in every enclosing body.
const REGION_NODES: usize = 1_000_000;

/// A function whose calls are replaced by its returned expression.
#[derive(Clone, Debug)]
pub struct InlineFn {
    params: Vec<VarDecl>,
    /// The return type, an arithmetic type.
    ret_type: String,
    /// The locals in order, each with its type and initialiser.
    locals: Vec<(String, String, Expr)>,
    ret: Expr,
    /// Names the body reads that are neither parameters nor locals.
    free: Vec<String>,
    /// Where the function is: its lines join the region's for the C
    /// compiler's check (`Region::inlined`), since its code is translated.
    lines: (Loc, u32),
}

/// A scalar type whose conversion a cast expresses exactly in C, OpenCL C
/// and CUDA (not `_Bool`, whose conversion is a comparison with zero).
fn arithmetic(t: &str) -> bool {
    matches!(t, "float" | "double")
        || (integer_range(t).is_some() && !matches!(t, "bool" | "_Bool"))
}

impl<'a> Cx<'a> {
    /// `f` as an inlinable function, if its body has the form.
    pub(super) fn inline_candidate(
        &self,
        f: Node,
        typedefs: &BTreeMap<String, String>,
        globals: &BTreeMap<String, VarDecl>,
    ) -> Option<InlineFn> {
        // Broken C is never translated: tree-sitter's recovery is not code.
        let s = super::scan(f);
        if s.bad.is_some() || s.too_deep.is_some() {
            return None;
        }
        let declarator = f.child_by_field_name("declarator")?;
        if declarator.kind() != "function_declarator" {
            return None;
        }
        let ret_type = self.resolve_type(self.text(f.child_by_field_name("type")?), typedefs);
        let ret_type = ret_type.split_whitespace().collect::<Vec<_>>().join(" ");
        if !arithmetic(&ret_type) {
            return None;
        }
        let params = self.param_list(f, typedefs).ok()?;
        if params
            .iter()
            .any(|p| p.dims.is_empty() && !p.pointer && !arithmetic(&p.base_type))
        {
            return None;
        }
        let body = f.child_by_field_name("body")?;
        let mut c = body.walk();
        let children: Vec<Node> = body.named_children(&mut c).collect();
        let names = globals.keys().chain(params.iter().map(|p| &p.name));
        let _scope = self.enter_scope(names.cloned());
        self.note_declared(globals.values().chain(params.iter()));
        let (last, decls) = children.split_last()?;
        if last.kind() != "return_statement" || decls.iter().any(|d| d.kind() != "declaration") {
            // Assignments, `if`s and several returns (`inline_flow`).
            let (locals, ret) = self.flatten_body(&children, &params, &ret_type, arithmetic)?;
            return Some(self.inline_fn(f, params, ret_type, locals, ret));
        }
        let mut stmts = Vec::new();
        for d in decls {
            self.local_declaration(*d, &mut stmts).ok()?;
        }
        let mut locals = Vec::new();
        for s in stmts {
            let Stmt::Decl {
                var,
                init: Some(init),
                ..
            } = s
            else {
                return None;
            };
            if !var.dims.is_empty() || var.pointer || !arithmetic(&var.base_type) {
                return None;
            }
            locals.push((var.name, var.base_type, init));
        }
        let ret = self.expr(last.named_child(0)?).ok()?;
        Some(self.inline_fn(f, params, ret_type, locals, ret))
    }

    /// The function `f` with its body as `locals` and `ret`.
    fn inline_fn(
        &self,
        f: Node,
        params: Vec<VarDecl>,
        ret_type: String,
        locals: Vec<(String, String, Expr)>,
        ret: Expr,
    ) -> InlineFn {
        let mut free = Vec::new();
        let mut known: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        for (name, _, init) in &locals {
            free_names(init, &known, &mut free);
            known.push(name);
        }
        free_names(&ret, &known, &mut free);
        let at = self.loc(f);
        let end = self.pp.loc(f.end_position().row, 0, 1).line;
        InlineFn {
            params,
            ret_type,
            locals,
            ret,
            free,
            lines: (at, end),
        }
    }
}

fn free_names(e: &Expr, known: &[&str], out: &mut Vec<String>) {
    let mut names = Vec::new();
    e.idents(&mut names);
    for n in names {
        if !known.contains(&n.as_str()) && !out.contains(&n) {
            out.push(n);
        }
    }
}

/// Replaces the calls to `fns` in `body` (a region at `at` whose names
/// are `symbols`). Returns the places of the functions inlined: each
/// one's first line (its file and column too) and last line.
pub fn inline_calls(
    body: &mut [Stmt],
    fns: &BTreeMap<String, InlineFn>,
    symbols: &BTreeMap<String, VarDecl>,
    at: &Loc,
) -> Vec<(Loc, u32)> {
    if fns.is_empty() {
        return Vec::new();
    }
    // Names declared in the region (locals, loop iterators) hide globals
    // as the function's locals do.
    let mut declared = Vec::new();
    for s in body.iter() {
        s.declared(&mut declared);
    }
    let mut budget = REGION_NODES;
    let mut used = BTreeSet::new();
    for s in body {
        s.exprs_mut(&mut |e| inline_in(e, fns, symbols, at, &declared, 0, &mut budget, &mut used));
    }
    used.iter().map(|n| fns[n].lines.clone()).collect()
}

fn inline_in(
    e: &mut Expr,
    fns: &BTreeMap<String, InlineFn>,
    symbols: &BTreeMap<String, VarDecl>,
    at: &Loc,
    declared: &[String],
    depth: usize,
    budget: &mut usize,
    used: &mut BTreeSet<String>,
) {
    e.children_mut()
        .into_iter()
        .for_each(|c| inline_in(c, fns, symbols, at, declared, depth, budget, used));
    let ExprKind::Call(name, args) = &e.kind else {
        return;
    };
    let Some(f) = fns.get(name) else {
        return;
    };
    if depth >= MAX_DEPTH || args.len() != f.params.len() || *budget == 0 {
        return;
    }
    // The body's globals must be the region's: not hidden by its locals.
    // (A global the file declares after the region is not one it sees.)
    let seen = |d: &VarDecl| {
        d.storage == Storage::Global && (d.loc.file != at.file || d.loc.line < at.line)
    };
    if f.free
        .iter()
        .any(|n| declared.contains(n) || !symbols.get(n).is_some_and(seen))
    {
        return;
    }
    let mut bound: Vec<(String, Expr)> = Vec::new();
    for (p, a) in f.params.iter().zip(args) {
        let value = if p.dims.is_empty() && !p.pointer {
            cast(&p.base_type, a.clone())
        } else if is_array_designator(a) {
            a.clone()
        } else {
            // `&A[i]`, `A + i`: an address, which the body's subscripts
            // would have to offset.
            return;
        };
        bound.push((p.name.clone(), value));
    }
    for (name, ty, init) in &f.locals {
        let value = cast(ty, substitute(init, &bound));
        bound.push((name.clone(), value));
    }
    let mut inlined = cast(&f.ret_type, substitute(&f.ret, &bound));
    inlined.loc = e.loc.clone();
    let built = size(&inlined);
    *budget = budget.saturating_sub(built);
    if built > MAX_NODES {
        return;
    }
    let mut inner = BTreeSet::new();
    inline_in(
        &mut inlined,
        fns,
        symbols,
        at,
        declared,
        depth + 1,
        budget,
        &mut inner,
    );
    // Calls of the body's that stayed (too deep, too large) would be
    // reported inside the function; the user's call is the one to name.
    if size(&inlined) > MAX_NODES || calls_any(&inlined, fns) {
        return;
    }
    used.insert(name.clone());
    used.extend(inner);
    *e = inlined;
}

fn calls_any(e: &Expr, fns: &BTreeMap<String, InlineFn>) -> bool {
    matches!(&e.kind, ExprKind::Call(n, _) if fns.contains_key(n))
        || e.children().into_iter().any(|c| calls_any(c, fns))
}

fn size(e: &Expr) -> usize {
    1 + e.children().into_iter().map(size).sum::<usize>()
}

/// An array or a part of one, as an argument for an array parameter.
fn is_array_designator(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Index(base, _) => is_array_designator(base),
        _ => false,
    }
}

fn cast(ty: &str, e: Expr) -> Expr {
    if matches!(&e.kind, ExprKind::Cast(t, _) if t == ty) {
        return e;
    }
    let loc = e.loc.clone();
    Expr {
        kind: ExprKind::Cast(ty.to_string(), Box::new(e)),
        loc,
    }
}

/// `e` with each name of `bound` replaced by its value; names bound later
/// hide earlier ones, as C's scopes do.
fn substitute(e: &Expr, bound: &[(String, Expr)]) -> Expr {
    subst_expr(e, &|n: &str| {
        bound
            .iter()
            .rev()
            .find(|(b, _)| b == n)
            .map(|(_, v)| v.clone())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bool_is_not_converted_by_a_cast() {
        assert!(arithmetic("double") && arithmetic("unsigned char") && arithmetic("int64_t"));
        assert!(!arithmetic("_Bool") && !arithmetic("bool") && !arithmetic("struct s"));
    }
}
