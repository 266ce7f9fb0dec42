//! Arrays of run-time size declared inside a region's loops
//! (`float accum[n];`, issue 15): OpenCL C has no variable-length arrays
//! (clBuildProgram fails), and a kernel's private arrays need a size known
//! when it is compiled. Where the region's context bounds the extent by a
//! constant (`__pencil_assume(n <= 16)`, or what its accesses imply),
//! each thread declares the array with that constant size instead; the
//! subscripts stay as written, which is correct since each index stays
//! below its run-time extent, hence below the bound.

use crate::front::affine::{compare, isl_name, Aff, AffineConverter, NameKind, Pw};
use crate::front::syntax::{BinOp, Expr};
use crate::scop::Scop;

/// The most elements a per-thread copy may have: a private array is
/// registers or stack on a GPU, and large ones belong in a buffer.
pub const MAX_PRIVATE_ELEMENTS: i64 = 4096;

/// The largest value of `extent` wherever the region runs (the region's
/// context), `None` if it is not an affine expression of the region's
/// parameters or has no constant upper bound.
pub fn extent_bound(scop: &Scop, extent: &Expr) -> Option<i64> {
    let classify = |n: &str| {
        if scop.params.contains(&isl_name(n)) {
            NameKind::Parameter
        } else {
            NameKind::Other
        }
    };
    let pw = AffineConverter::new(&classify).pw(extent).ok()?;
    let x = Pw(vec![(vec![], Aff::atom("pencilc_x".to_string()))]);
    let text = format!(
        "[{}] -> {{ [pencilc_x] : {} }}",
        scop.params.join(", "),
        compare(&x, BinOp::Eq, &pw)
    );
    let isl = crate::isl::Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
    let set = isl.set(&text).ok()?;
    let context = isl.set(&scop.context).ok()?;
    let max = set.intersect_params(context).ok()?.dim_max_val(0).ok()?;
    if !max.is_int().ok()? {
        return None;
    }
    Some(max.get_num_si().ok()?.max(1))
}
