//! Kernels specialised at OpenCL build time on the row lengths of their
//! arrays.
//!
//! A kernel indexes a multi-dimensional buffer as `A[c0 * (n) + c1]`. With
//! constant extents the OpenCL compiler folds that product into its address
//! arithmetic and vectorises across rows; with a run-time `n` (a pointer, a
//! VLA parameter, a delinearised subscript) it cannot, and PoCL ran lu's
//! kernel 2x slower. OpenCL compiles kernels when the program runs, so the
//! host passes the values it has (`-DPENCILC_VALUE_n=2000`) and the kernel
//! reads them as constants where they are given:
//!
//! ```c
//! #if defined(PENCILC_VALUE_n) && !defined(n)
//! #define n ((int) (PENCILC_VALUE_n))
//! #define PENCILC_SPECIALISED_n
//! #endif
//! ```
//!
//! Only row lengths are specialised (not loop bounds or host loop
//! iterators): they rarely change between runs of a region, and each new
//! set of values costs a build (`pencilc_opencl_program` keeps a few).
//! The defines sit inside the kernel body, after its parameters, so the
//! parameter keeps its name and the program built without values is the
//! kernel as written. CUDA is compiled ahead of time: no specialisation.

use super::kernel::KernelArg;
use super::opencl_type;
use crate::ast::Launch;
use crate::front::syntax::is_integer_type;
use crate::scop::{Extent, Scop};
use std::collections::BTreeSet;

/// An integer kernel argument the host may give as a build-time constant.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Specialised {
    /// The kernel's name of the argument, also the host variable.
    pub name: String,
    /// Its type in the kernel.
    pub ty: String,
}

/// The arguments of a kernel that are row lengths of its buffers (extents
/// below the outermost one), integers, and passed from the host variable
/// of the same name (not a host loop iterator).
pub fn kernel_values(scop: &Scop, launch: &Launch, args: &[KernelArg]) -> Vec<Specialised> {
    let mut rows = BTreeSet::new();
    for a in args {
        if let KernelArg::Buffer { name, .. } = a {
            if let Some(array) = scop.array(name) {
                for e in array.extents.iter().skip(1) {
                    if let Extent::Expr { names, .. } = e {
                        rows.extend(names.iter().cloned());
                    }
                }
            }
        }
    }
    args.iter()
        .filter_map(|a| {
            let (name, ty) = match a {
                KernelArg::Int { name } => (name, scop.index_type.clone()),
                KernelArg::Value { name, elem_type } if is_integer_type(elem_type) => {
                    (name, opencl_type(elem_type))
                }
                _ => return None,
            };
            let from_host_variable = super::host_value(launch, a) == *name;
            (rows.contains(name) && from_host_variable).then(|| Specialised {
                name: name.clone(),
                ty,
            })
        })
        .collect()
}

/// The kernel body with its specialised arguments read as constants
/// where the build defines them.
pub fn wrap_body(values: &[Specialised], body: String) -> String {
    if values.is_empty() {
        return body;
    }
    let mut out = String::new();
    // A name the OpenCL implementation defines as a macro (PoCL's `min`)
    // is left alone: redefining it warns, and undefining it would take
    // the implementation's macro from the kernels after this one.
    for v in values {
        out.push_str(&format!(
            "#if defined(PENCILC_VALUE_{n}) && !defined({n})\n#define {n} (({t}) (PENCILC_VALUE_{n}))\n#define PENCILC_SPECIALISED_{n}\n#endif\n",
            n = v.name,
            t = v.ty
        ));
    }
    out.push_str(&body);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    for v in values {
        out.push_str(&format!(
            "#ifdef PENCILC_SPECIALISED_{n}\n#undef {n}\n#undef PENCILC_SPECIALISED_{n}\n#endif\n",
            n = v.name
        ));
    }
    out
}

/// What a region's host code formats into the build options of its
/// kernels: `-DPENCILC_VALUE_n=%lld ...`, from each variable.
#[derive(Debug, serde::Serialize)]
pub struct RegionValues {
    /// The buffer size: every value fits in 20 characters and a sign.
    pub size: usize,
    pub format: String,
    pub args: Vec<String>,
}

/// The union of the region's kernels' specialised arguments, or `None`.
pub fn region_values<'a>(kernels: impl Iterator<Item = &'a [Specialised]>) -> Option<RegionValues> {
    let mut names = BTreeSet::new();
    for k in kernels {
        names.extend(k.iter().map(|v| v.name.clone()));
    }
    if names.is_empty() {
        return None;
    }
    let format: Vec<String> = names
        .iter()
        .map(|n| format!("-DPENCILC_VALUE_{}=%lld", n))
        .collect();
    let format = format.join(" ");
    Some(RegionValues {
        size: format.len() + 21 * names.len() + 1,
        format,
        args: names
            .iter()
            .map(|n| format!("(long long) ({})", n))
            .collect(),
    })
}

/// The choice of a region's version, told which program its device
/// version would use (`pencilc_choice_values`, read by
/// `PENCILC_DEVICE_READY`), so that a build it needs counts in its cost.
pub fn around_choice(v: &RegionValues, choose: &str) -> String {
    format!(
        "char pencilc_values[{}];\nsnprintf(pencilc_values, sizeof pencilc_values, \"{}\", {});\npencilc_choice_values = pencilc_values;\n{}pencilc_choice_values = \"\";\n",
        v.size,
        v.format,
        v.args.join(", "),
        choose
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(name: &str, ty: &str) -> Specialised {
        Specialised {
            name: name.into(),
            ty: ty.into(),
        }
    }

    #[test]
    fn values_are_defined_inside_the_body_and_undefined_after_it() {
        let body = wrap_body(&[v("n", "int")], "    A[c0 * (n) + c1] = 0;\n".into());
        assert_eq!(
            body,
            "#if defined(PENCILC_VALUE_n) && !defined(n)\n#define n ((int) (PENCILC_VALUE_n))\n#define PENCILC_SPECIALISED_n\n#endif\n    A[c0 * (n) + c1] = 0;\n#ifdef PENCILC_SPECIALISED_n\n#undef n\n#undef PENCILC_SPECIALISED_n\n#endif\n"
        );
        assert_eq!(wrap_body(&[], "x\n".into()), "x\n");
    }

    #[test]
    fn a_region_formats_each_name_once() {
        let a = [v("n", "int"), v("m", "long")];
        let b = [v("n", "int")];
        let r = region_values([&a[..], &b[..]].into_iter()).unwrap();
        assert_eq!(r.format, "-DPENCILC_VALUE_m=%lld -DPENCILC_VALUE_n=%lld");
        assert_eq!(r.args, ["(long long) (m)", "(long long) (n)"]);
        // "-9223372036854775808" is the longest value.
        assert!(
            r.size
                >= "-DPENCILC_VALUE_m=-9223372036854775808 -DPENCILC_VALUE_n=-9223372036854775808"
                    .len()
                    + 1
        );
        assert!(region_values([&[][..]].into_iter()).is_none());
    }
}
