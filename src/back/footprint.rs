//! Device buffers of pointers, delinearised and declared arrays
//! (`scop::Layout`): only the elements the region touches, from the first
//! to the last in memory (`ast::Footprint`), are allocated and copied (so
//! that no copy reads or writes a byte the user's code would not), or,
//! for an array declared with its extents, the rows it touches, whole.
//! Device subscripts subtract the first element's offset from the user's
//! pointer, unless the buffer starts at the pointer (`Layout::offset`).

use super::body::extent_c;
use super::kernel::KernelArg;
use crate::ast::{AExpr, GpuAst};
use crate::scop::{footprint_len, footprint_offset, Array, Extent, Scop};

/// Row-major linear index, in `long`, of the subscripts `subs` of `a`.
fn linear(a: &Array, subs: &[String]) -> String {
    let mut lin = format!("(long) ({})", subs[0]);
    for (k, s) in subs.iter().enumerate().skip(1) {
        let ext = match &a.extents[k] {
            Extent::Accessed => "0".to_string(),
            e => extent_c(e),
        };
        lin = format!("({}) * (long) {} + ({})", lin, ext, s);
    }
    lin
}

/// The offset of the first element accessed and the number of elements
/// up to the last, as C expressions of the parameters.
pub(super) fn range(a: &Array, ast: &GpuAst) -> Option<(String, String)> {
    let f = ast.footprints.iter().find(|f| f.array == a.name)?;
    let text = |v: &[AExpr]| -> Vec<String> { v.iter().map(|e| e.to_c()).collect() };
    let (first, len) = if a.layout.as_ref().is_some_and(|l| l.whole_rows) {
        // From the first element of the first row to the last of the last.
        let row: String = a.extents[1..]
            .iter()
            .map(|e| format!(" * (long) {}", extent_c(e)))
            .collect();
        let (r0, r1) = (f.first.first()?, f.last.first()?.to_c());
        match r0 {
            AExpr::Int(0) => ("0L".to_string(), format!("((long) ({}) + 1){}", r1, row)),
            r0 => {
                let r0 = r0.to_c();
                (
                    format!("(long) ({}){}", r0, row),
                    format!("((long) ({}) - (long) ({}) + 1){}", r1, r0, row),
                )
            }
        }
    } else {
        let first = linear(a, &text(&f.first));
        let last = linear(a, &text(&f.last));
        let len = format!("{} - ({}) + 1", last, first);
        (first, len)
    };
    Some(match &f.guard {
        None => (first, len),
        Some(AExpr::Int(0)) => ("0L".to_string(), "0L".to_string()),
        Some(g) => {
            let g = g.to_c();
            let first = if first == "0L" {
                first
            } else {
                format!("({}) ? {} : 0L", g, first)
            };
            (first, format!("({}) ? {} : 0L", g, len))
        }
    })
}

/// The host variables a region's buffers use (`pencilc_lo_A`,
/// `pencilc_len_A`), declared before the buffers.
pub fn host_decls(scop: &Scop, ast: &GpuAst) -> Vec<String> {
    let mut out = Vec::new();
    for a in &scop.arrays {
        if let Some((first, len)) = range(a, ast) {
            out.push(format!(
                "const long {} = {};",
                footprint_offset(&a.name),
                first
            ));
            out.push(format!("const long {} = {};", footprint_len(&a.name), len));
        }
    }
    out
}

/// Where a pointer's footprint lives on the device (`Layout`): C
/// expressions on the host.
pub struct DeviceBuffer {
    /// Bytes allocated.
    pub alloc: String,
    /// Bytes each copy moves.
    pub copied: String,
    /// The host address copies start at.
    pub host: String,
    /// The byte of the device buffer copies start at, where not 0.
    pub first: Option<String>,
}

/// `a`'s device buffer, where it holds `a`'s footprint.
pub fn buffer(a: &Array) -> Option<DeviceBuffer> {
    let layout = a.layout.as_ref()?;
    let lo = footprint_offset(&a.name);
    let len = footprint_len(&a.name);
    let elements = if layout.offset {
        len.clone()
    } else {
        format!("({} + {})", lo, len)
    };
    Some(DeviceBuffer {
        alloc: format!("(size_t) {} * sizeof({})", elements, a.elem_type),
        copied: format!("(size_t) {} * sizeof({})", len, a.elem_type),
        host: format!("(({} *) {} + {})", a.elem_type, a.name, lo),
        first: (!layout.offset).then(|| format!("(size_t) {} * sizeof({})", lo, a.elem_type)),
    })
}

/// The first byte of `a` that the region may touch, as an integer, and
/// the number of bytes from there, for the overlap check, which comes
/// before the region's own declarations.
pub fn byte_range(scop: &Scop, ast: &GpuAst, name: &str) -> Option<(String, String)> {
    // A scalar (a parameter, or a variable the region keeps in a buffer):
    // the variable's own bytes.
    let Some(a) = scop
        .array(name)
        .filter(|a| !a.is_scalar() || a.is_struct_object())
    else {
        return Some((scalar_address(name), format!("(size_t) sizeof({})", name)));
    };
    if a.layout.is_none() {
        let mut size = format!("sizeof({})", a.elem_type);
        for e in &a.extents {
            size = format!("{} * {}", size, extent_c(e));
        }
        return Some((
            format!("(size_t) {}", a.host_pointer()),
            format!("(size_t) {}", size),
        ));
    }
    let (first, len) = range(a, ast)?;
    let start = if first == "0L" {
        format!("(size_t) {}", name)
    } else {
        format!(
            "((size_t) {} + (size_t) ({}) * sizeof({}))",
            name, first, a.elem_type
        )
    };
    Some((
        start,
        format!("(size_t) ({}) * sizeof({})", len, a.elem_type),
    ))
}

/// The address of the scalar `name` as the overlap check compares it;
/// an outlined region, which holds a copy of the scalar, puts the
/// caller's address in its place (`outline`).
pub fn scalar_address(name: &str) -> String {
    format!("((size_t) &{})", name)
}

/// A kernel's subscript of `a` on its device buffer: the linear index
/// minus the buffer's offset.
pub fn device_index(a: &Array, lin: String) -> String {
    if a.has_offset() {
        format!("{} - {}", lin, footprint_offset(&a.name))
    } else {
        lin
    }
}

/// The offsets of the buffers of `args` that start after their pointer
/// (`Layout::offset`) join the kernel's arguments, in the index type:
/// the offset is the least of the subscripts the kernel computes in that
/// type, so it fits, and a `long` offset made every subscript of an `int`
/// kernel 64-bit arithmetic (heat-3d cast from a flat pointer: 1.6x the
/// time on PoCL).
pub fn add_offset_args(scop: &Scop, args: &mut Vec<KernelArg>) {
    let offsets: Vec<(String, String)> = args
        .iter()
        .filter_map(|a| match a {
            KernelArg::Buffer { name, .. } => scop.array(name).filter(|a| a.has_offset()),
            _ => None,
        })
        .map(|a| {
            // An index past `int` has an offset past it too.
            let ty = if a.wide_index {
                "long"
            } else {
                &scop.index_type
            };
            (footprint_offset(&a.name), ty.to_string())
        })
        .collect();
    for (name, elem_type) in offsets {
        args.push(KernelArg::Value { name, elem_type });
    }
}
