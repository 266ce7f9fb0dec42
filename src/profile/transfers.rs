//! What a region's device version moves between host and device: one
//! buffer per array it touches (read-only scalars travel as kernel
//! arguments), copied in where the dependences say the region reads
//! values from before it (`deps::copy_in`), out where values it writes
//! live after it (`deps::copy_out`); whole arrays, as `back::choice`
//! counts them and the host code copies them.

use super::eval::{eval, Env};
use super::stmts::elem_bytes;
use super::Inputs;
use crate::ast::CopyIn;
use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use crate::scop::{Array, Extent};
use std::collections::BTreeSet;

/// The arrays with live-in elements (`deps::DependenceGraph::live_in`, an
/// isl union set of elements).
pub fn live_in_arrays(isl: &Isl, live_in: &str) -> Result<BTreeSet<String>> {
    let set = isl.union_set(live_in).isl(isl, "profile")?;
    let list = set.get_set_list().isl(isl, "profile")?;
    let mut out = BTreeSet::new();
    for i in 0..list.size().isl(isl, "profile")? {
        let s = list.get_at(i).isl(isl, "profile")?;
        if let Ok(name) = s.get_tuple_name() {
            out.insert(name.to_string());
        }
    }
    Ok(out)
}

#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Transfers {
    /// Device buffers allocated (and freed).
    pub buffers: usize,
    pub alloc_bytes: f64,
    pub copies_in: usize,
    pub bytes_in: f64,
    pub copies_out: usize,
    pub bytes_out: f64,
    /// The part of `bytes_out` that goes to arrays the region reads
    /// nothing of (no live-in element): the program may never have touched
    /// their host memory, whose pages then fault on the copy's first write
    /// (PolyBench's output arrays: 3mm's E, F and G, correlation's corr).
    pub bytes_out_fresh: f64,
}

/// Row-major strides of `a`'s dimensions (elements between consecutive
/// values of each subscript), where its inner extents are constants.
pub fn strides(a: &Array) -> Option<Vec<i64>> {
    let mut s = vec![1i64; a.extents.len()];
    for d in (0..a.extents.len().saturating_sub(1)).rev() {
        match &a.extents[d + 1] {
            Extent::Const(c) => s[d] = s[d + 1].checked_mul(*c)?,
            _ => return None,
        }
    }
    Some(s)
}

/// The elements of `a`'s device buffer at `env`, if known.
fn elements(input: &Inputs, a: &Array, env: &Env) -> Option<f64> {
    if a.layout.is_some() {
        // A pointer's buffer holds what the region touches: from the
        // first element accessed to the last, in memory order.
        let f = input.ast.footprints.iter().find(|f| f.array == a.name)?;
        if let Some(g) = &f.guard {
            if eval(g, env)? == 0 {
                return Some(0.0);
            }
        }
        let strides = strides(a)?;
        let at = |subs: &[crate::ast::AExpr]| -> Option<i64> {
            let mut x = 0i64;
            for (s, st) in subs.iter().zip(&strides) {
                x = x.checked_add(eval(s, env)?.checked_mul(*st)?)?;
            }
            Some(x)
        };
        return Some((at(&f.last)? - at(&f.first)? + 1).max(0) as f64);
    }
    let mut n = 1.0;
    for e in &a.extents {
        n *= match e {
            Extent::Const(c) => *c as f64,
            Extent::Expr { c_text, .. } => {
                let t = c_text.trim();
                t.parse::<i64>().ok().or_else(|| env.get(t))? as f64
            }
            Extent::Accessed => return None,
        };
    }
    Some(n)
}

/// The region's buffers and copies at `env`, and how many sizes were not
/// known (counted as empty).
pub fn transfers(input: &Inputs, env: &Env) -> (Transfers, usize) {
    let mut t = Transfers::default();
    let mut unknown = 0;
    for a in &input.scop.arrays {
        // As `back::region::buffers`: no buffer for a value passed to
        // kernels, nor for what only the host's set-up touches.
        if !(a.written || (a.read && !a.is_scalar())) {
            continue;
        }
        let bytes = match elements(input, a, env) {
            Some(n) => n * elem_bytes(&a.elem_type),
            None => {
                unknown += 1;
                0.0
            }
        };
        t.buffers += 1;
        t.alloc_bytes += bytes;
        // A copy in that only some sizes need counts where `env` is one
        // of them; an unknown value counts it.
        let copied_in = match input.ast.copy_in(input.copy_in, &a.name) {
            CopyIn::Never => false,
            CopyIn::Always => true,
            CopyIn::When(c) => eval(c, env) != Some(0),
        };
        if copied_in {
            t.copies_in += 1;
            t.bytes_in += bytes;
        }
        if input.copy_out.contains(&a.name) {
            t.copies_out += 1;
            t.bytes_out += bytes;
            if !input.live_in.contains(&a.name) {
                t.bytes_out_fresh += bytes;
            }
        }
    }
    (t, unknown)
}
