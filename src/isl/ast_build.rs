//! Bindings for the `isl_ast_build_*` functions that isl-rs lacks. libisl is
//! already linked statically by isl-rs, so these are plain declarations.

use super::Isl;
use crate::diag::Result;
use isl_rs::{ASTExpr, ASTNode, Id, PwAff, Schedule, Set, UnionMap};
use libc::{c_void, uintptr_t};

extern "C" {
    fn isl_ast_build_from_context(set: uintptr_t) -> uintptr_t;
    fn isl_ast_build_free(build: uintptr_t) -> uintptr_t;
    fn isl_ast_build_node_from_schedule(build: uintptr_t, schedule: uintptr_t) -> uintptr_t;
    fn isl_ast_build_set_after_each_mark(
        build: uintptr_t,
        f: extern "C" fn(uintptr_t, uintptr_t, *mut c_void) -> uintptr_t,
        user: *mut c_void,
    ) -> uintptr_t;
    fn isl_ast_build_get_schedule(build: uintptr_t) -> uintptr_t;
    fn isl_ast_build_expr_from_pw_aff(build: uintptr_t, pa: uintptr_t) -> uintptr_t;
    fn isl_ast_build_expr_from_set(build: uintptr_t, set: uintptr_t) -> uintptr_t;
    fn isl_ast_node_mark_get_id(node: uintptr_t) -> uintptr_t;
    fn isl_ast_node_set_annotation(node: uintptr_t, id: uintptr_t) -> uintptr_t;
    fn isl_id_get_name(id: uintptr_t) -> *const libc::c_char;
    fn isl_id_free(id: uintptr_t) -> uintptr_t;
    fn isl_ast_node_get_type(node: uintptr_t) -> i32;
    fn isl_ast_build_set_iterators(build: uintptr_t, iterators: uintptr_t) -> uintptr_t;
}

/// The kinds of AST node. isl-rs 0.3.1 maps `isl_ast_node_type` off by one
/// (isl numbers `for` from 1), so pencilc reads the type itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AstNodeKind {
    For,
    If,
    Block,
    Mark,
    User,
    Error,
}

pub fn ast_node_kind(node: &isl_rs::ASTNode) -> AstNodeKind {
    match unsafe { isl_ast_node_get_type(node.ptr) } {
        1 => AstNodeKind::For,
        2 => AstNodeKind::If,
        3 => AstNodeKind::Block,
        4 => AstNodeKind::Mark,
        5 => AstNodeKind::User,
        _ => AstNodeKind::Error,
    }
}

/// The build at a mark node, as seen by a mark hook.
pub struct BuildAt {
    ptr: uintptr_t,
}

impl BuildAt {
    /// The map from the statement instances below the mark to the outer
    /// schedule dimensions (the host loops around it).
    pub fn schedule(&self) -> Option<UnionMap> {
        let p = unsafe { isl_ast_build_get_schedule(self.ptr) };
        (p != 0).then_some(UnionMap {
            ptr: p,
            should_free_on_drop: true,
        })
    }

    /// An AST expression for `pa`, whose domain is the outer schedule space.
    pub fn expr_from_pw_aff(&self, pa: PwAff) -> Option<ASTExpr> {
        let mut pa = pa;
        pa.do_not_free_on_drop();
        let p = unsafe { isl_ast_build_expr_from_pw_aff(self.ptr, pa.ptr) };
        (p != 0).then_some(ASTExpr {
            ptr: p,
            should_free_on_drop: true,
        })
    }
}

impl BuildAt {
    /// An AST condition for `set` (in the outer schedule space), simplified
    /// by what the code generated around the mark already enforces: the
    /// constant 1 where the enclosing loops and guards imply `set`.
    pub fn expr_from_set(&self, set: Set) -> Option<ASTExpr> {
        let mut set = set;
        set.do_not_free_on_drop();
        let p = unsafe { isl_ast_build_expr_from_set(self.ptr, set.ptr) };
        (p != 0).then_some(ASTExpr {
            ptr: p,
            should_free_on_drop: true,
        })
    }
}

/// Called after the AST below each mark has been generated. Returns the name
/// of an annotation to attach to the mark node, if any.
pub type MarkHook<'a> = dyn FnMut(&str, &BuildAt) -> Option<String> + 'a;

struct HookData<'a, 'b> {
    hook: &'b mut MarkHook<'a>,
    ctx: uintptr_t,
}

extern "C" fn after_mark(node: uintptr_t, build: uintptr_t, user: *mut c_void) -> uintptr_t {
    // Panics must not unwind into C.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| unsafe {
        let data = &mut *(user as *mut HookData);
        let id = isl_ast_node_mark_get_id(node);
        if id == 0 {
            return node;
        }
        let name = std::ffi::CStr::from_ptr(isl_id_get_name(id))
            .to_string_lossy()
            .into_owned();
        isl_id_free(id);
        let at = BuildAt { ptr: build };
        match (data.hook)(&name, &at) {
            Some(annotation) => {
                let ctx = isl_rs::Context {
                    ptr: data.ctx,
                    should_free_on_drop: false,
                };
                // Text: an annotation is an identifier made from its name (`Isl::id`, which
                // this C callback cannot reach).
                match Id::read_from_str(&ctx, &annotation) {
                    Ok(mut id) => {
                        id.do_not_free_on_drop();
                        isl_ast_node_set_annotation(node, id.ptr)
                    }
                    Err(_) => node,
                }
            }
            None => node,
        }
    }));
    result.unwrap_or(node)
}

/// Generates an AST for `schedule` under the parameter constraints `context`,
/// calling `hook` after each mark node. Loop iterators are named
/// `<iterator_prefix><depth>`; the prefix must not start any name the region
/// uses (a user's variable `c1` would otherwise be shadowed by a loop).
pub fn node_from_schedule(
    isl: &Isl,
    schedule: Schedule,
    context: Set,
    iterator_prefix: &str,
    hook: &mut MarkHook,
) -> Result<ASTNode> {
    const MAX_DEPTH: i32 = 128;
    let mut ids = isl_rs::IdList::alloc(&isl.ctx, MAX_DEPTH).map_err(|e| isl.err("ast", e))?;
    for d in 0..MAX_DEPTH {
        // Text: identifiers made from their names (`Isl::id`).
        let id = Id::read_from_str(&isl.ctx, &format!("{}{}", iterator_prefix, d))
            .map_err(|e| isl.err("ast", e))?;
        ids = ids.add(id).map_err(|e| isl.err("ast", e))?;
    }
    ids.do_not_free_on_drop();
    let mut schedule = schedule;
    let mut context = context;
    schedule.do_not_free_on_drop();
    context.do_not_free_on_drop();
    let mut data = HookData {
        hook,
        ctx: isl.ctx.ptr,
    };
    let node = unsafe {
        let build = isl_ast_build_from_context(context.ptr);
        if build == 0 {
            return Err(isl.last_error("ast"));
        }
        let build = isl_ast_build_set_iterators(build, ids.ptr);
        let build = isl_ast_build_set_after_each_mark(
            build,
            after_mark,
            &mut data as *mut HookData as *mut c_void,
        );
        let node = isl_ast_build_node_from_schedule(build, schedule.ptr);
        isl_ast_build_free(build);
        node
    };
    if node == 0 {
        return Err(isl.last_error("ast"));
    }
    Ok(ASTNode {
        ptr: node,
        should_free_on_drop: true,
    })
}

/// An AST condition for `set`, a set of parameter values, simplified by
/// what `context` (also of parameters) already guarantees.
pub fn expr_from_params(isl: &Isl, context: Set, set: Set) -> Result<ASTExpr> {
    let mut context = context;
    let mut set = set;
    context.do_not_free_on_drop();
    set.do_not_free_on_drop();
    let expr = unsafe {
        let build = isl_ast_build_from_context(context.ptr);
        if build == 0 {
            return Err(isl.last_error("ast"));
        }
        let expr = isl_ast_build_expr_from_set(build, set.ptr);
        isl_ast_build_free(build);
        expr
    };
    if expr == 0 {
        return Err(isl.last_error("ast"));
    }
    Ok(ASTExpr {
        ptr: expr,
        should_free_on_drop: true,
    })
}

/// An AST expression for `pa`, a piecewise function of the parameters,
/// valid where `context` holds (which must lie inside `pa`'s domain).
pub fn expr_from_params_pw_aff(isl: &Isl, context: Set, pa: isl_rs::PwAff) -> Result<ASTExpr> {
    let mut context = context;
    let mut pa = pa;
    context.do_not_free_on_drop();
    pa.do_not_free_on_drop();
    let expr = unsafe {
        let build = isl_ast_build_from_context(context.ptr);
        if build == 0 {
            return Err(isl.last_error("ast"));
        }
        let expr = isl_ast_build_expr_from_pw_aff(build, pa.ptr);
        isl_ast_build_free(build);
        expr
    };
    if expr == 0 {
        return Err(isl.last_error("ast"));
    }
    Ok(ASTExpr {
        ptr: expr,
        should_free_on_drop: true,
    })
}

/// `set`, a set of parameter values, as a C condition for messages
/// (`n >= 0 && m % 2 == 0`).
pub fn c_condition(isl: &Isl, set: Set) -> Result<String> {
    use super::IslResultExt;
    let universe = Set::universe(set.get_space().isl(isl, "ast")?).isl(isl, "ast")?;
    let expr = expr_from_params(isl, universe, set)?;
    Ok(expr.to_C_str().isl(isl, "ast")?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A condition on parameters as C: `&&`, `==`, and `%` for isl's `mod`.
    #[test]
    fn conditions_read_as_c() {
        let isl = Isl::new(1_000_000);
        let set = isl
            .set("[n, m] -> { : n <= m and m = 4 and n mod 2 = 0 }")
            .unwrap();
        let c = c_condition(&isl, set).unwrap();
        assert!(
            c.contains("&&") && c.contains("m == 4") && c.contains("n % 2 == 0"),
            "{}",
            c
        );
        assert!(!c.contains(" and ") && !c.contains("mod"), "{}", c);
    }
}
