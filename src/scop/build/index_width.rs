//! Whether an array's row-major subscripts fit in `int`.
//!
//! Device buffers are flat: a kernel indexes `A[n][m]` as `A[i * m + j]`,
//! and the host version a delinearised pointer the same way. C's own
//! `A[i][j]` scales the row in address arithmetic and never overflows,
//! but `i * m` computed in `int` does once the array has more than
//! 2^31 - 1 elements (a 70000 x 40000 byte array, or 2.2 GB of floats on
//! a GPU with 141 GB): the kernel reads and writes other elements than
//! the user's code, silently. Such an array's subscripts are computed in
//! `long` (`Array::wide_index`); the others keep `int`, which is what
//! GPUs and the CPU's vector units compute fastest.

use crate::front::affine::isl_name;
use crate::isl::Isl;
use crate::scop::{Array, Extent, Scop};

const INT_MAX: i128 = i32::MAX as i128;

/// Marks the arrays whose linear index may exceed `int` wherever the
/// region runs (its context), and the parameters too close to `int`'s
/// limits for the generated loops (`Scop::near_int_limits`).
pub(super) fn mark(isl: &Isl, scop: &mut Scop) {
    let wide: Vec<bool> = scop
        .arrays
        .iter()
        .map(|a| linear_bound(isl, scop, a).is_none_or(|b| b > INT_MAX))
        .collect();
    for (a, w) in scop.arrays.iter_mut().zip(wide) {
        a.wide_index = w;
    }
    if scop.index_type != "int" {
        return;
    }
    let near: Vec<(String, bool, bool)> = scop
        .params
        .iter()
        .filter(|p| {
            scop.value_types
                .iter()
                .find(|(n, _)| isl_name(n) == **p)
                .is_some_and(|(_, t)| t.signed && t.bits == 32)
        })
        .map(|p| {
            let (low, high) = headroom(isl, scop, p);
            (p.clone(), !low, !high)
        })
        .filter(|(_, low, high)| *low || *high)
        .collect();
    scop.near_int_limits = near;
}

/// Whether the context keeps the parameter `p` within
/// `INT_SAFE_MAGNITUDE` of zero, below and above.
fn headroom(isl: &Isl, scop: &Scop, p: &str) -> (bool, bool) {
    let within = |e: &str| {
        param_max(isl, scop, e).is_some_and(|m| m <= crate::scop::INT_SAFE_MAGNITUDE as i128)
    };
    (within(&format!("-{}", p)), within(p))
}

/// One more than the largest row-major index of `a` that the region can
/// compute: (largest first subscript + 1) times the product of the other
/// extents' largest values. `None` where some factor has no bound.
fn linear_bound(isl: &Isl, scop: &Scop, a: &Array) -> Option<i128> {
    if a.extents.len() < 2 {
        // A scalar's or a vector's subscript is the user's own expression,
        // in the user's type.
        return Some(0);
    }
    let rows = match &a.layout {
        // The rows (or elements) the region touches: a buffer's index is
        // below the last of them, whatever the declaration says.
        Some(l) => max_of_first(isl, scop, &l.accessed)? + 1,
        None => extent_max(isl, scop, &a.extents[0])?,
    };
    a.extents[1..].iter().try_fold(rows.max(0), |acc, e| {
        acc.checked_mul(extent_max(isl, scop, e)?.max(0))
    })
}

/// The largest value of an extent wherever the region runs: a constant,
/// or a parameter that the context bounds. Other expressions are not
/// bounded here (they only make a few more arrays `long`).
fn extent_max(isl: &Isl, scop: &Scop, e: &Extent) -> Option<i128> {
    match e {
        Extent::Const(c) => Some(*c as i128),
        Extent::Expr { c_text, names } => {
            let [name] = names.as_slice() else {
                return None;
            };
            if c_text.trim().trim_matches(|c| c == '(' || c == ')').trim() != name {
                return None;
            }
            let p = isl_name(name);
            if !scop.params.contains(&p) {
                return None;
            }
            param_max(isl, scop, &p)
        }
        Extent::Accessed => None,
    }
}

/// The largest value of `e`, an affine expression of the parameters
/// (isl text), within the context.
fn param_max(isl: &Isl, scop: &Scop, e: &str) -> Option<i128> {
    max_of_first(
        isl,
        scop,
        &format!("{} -> {{ [x] : x = {} }}", scop.param_prefix(), e),
    )
}

/// The largest first coordinate of the set `text` (over the region's
/// parameters) within the context.
fn max_of_first(isl: &Isl, scop: &Scop, text: &str) -> Option<i128> {
    let set = isl.set(text).ok()?;
    let context = isl.set(&scop.context).ok()?;
    let set = set.intersect_params(context).ok()?;
    if set.copy().ok()?.is_empty().ok()? {
        return Some(0);
    }
    let max = set.dim_max_val(0).ok()?;
    if !max.is_int().ok()? {
        return None;
    }
    Some(max.get_num_si().ok()? as i128)
}

#[cfg(test)]
mod tests {
    use crate::scop::Scop;

    fn scop(name: &str, src: &str) -> Scop {
        crate::scop::test_support::scop_of(name, src)
    }

    fn wide(s: &Scop, name: &str) -> bool {
        s.array(name).expect("array").wide_index
    }

    #[test]
    fn arrays_past_int_get_long_subscripts() {
        let s = scop(
            "bounded",
            "void f(int n, int m, char A[n][m], char B[100000][100000], char C[100][100], float D[n][m]) {
#pragma scop
  __pencil_assume(n >= 1 && n <= 1000 && m >= 1 && m <= 1000);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      B[i][j] = C[i % 100][j % 100];
      D[i][j] = A[i][j];
    }
#pragma endscop
}",
        );
        // Bounded by the assumption: 10^6 elements.
        assert!(!wide(&s, "A"));
        assert!(!wide(&s, "D"));
        // Constant extents of 10^10 elements, rows up to 999 touched: 10^8.
        assert!(!wide(&s, "B"));
        assert!(!wide(&s, "C"));
        assert!(s.near_int_limits.is_empty(), "{:?}", s.near_int_limits);
        let s = scop(
            "unbounded",
            "void f(int n, int m, char A[n][m], char B[100000][100000]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      B[i][j] = A[i][j];
#pragma endscop
}",
        );
        // Nothing bounds m (and n): `i * m` may pass INT_MAX.
        assert!(wide(&s, "A"));
        // n <= 100000 rows of 100000.
        assert!(wide(&s, "B"));
        // B's rows bound n and m from above (100000), nothing from below:
        // loops stepping below them by a tile could overflow.
        assert_eq!(
            s.near_int_limits,
            vec![
                ("m".to_string(), true, false),
                ("n".to_string(), true, false)
            ]
        );
    }
}
