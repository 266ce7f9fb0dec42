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
//! #ifdef PENCILC_VALUE_n
//! #define pencilc_row_n ((int) (PENCILC_VALUE_n))
//! #else
//! #define pencilc_row_n n
//! #endif
//!     A[c0 * (pencilc_row_n) + c1] ...
//! ```
//!
//! Only row lengths are specialised (not loop bounds or host loop
//! iterators): they rarely change between runs of a region, and each new
//! set of values costs a build (`pencilc_opencl_program` keeps a few).
//! Only subscripts read the macro: loop bounds over the same variable
//! keep the argument, as they do with constant extents. The macros are
//! defined inside the kernel body and undefined after it. CUDA is
//! compiled ahead of time: no specialisation.

use super::kernel::KernelArg;
use super::opencl_type;
use crate::ast::Launch;
use crate::front::syntax::is_integer_type;
use crate::scop::Scop;
use std::collections::BTreeSet;

/// An integer kernel argument the host may give as a build-time constant.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Specialised {
    /// The kernel's name of the argument, also the host variable.
    pub name: String,
    /// Its type in the kernel.
    pub ty: String,
}

/// The arguments of a kernel whose row macros its `body` reads
/// (`BodyPrinter::kernel_rows`), integers passed from the host variable of
/// the same name (not a host loop iterator).
pub fn kernel_values(
    scop: &Scop,
    launch: &Launch,
    args: &[KernelArg],
    body: &str,
) -> Vec<Specialised> {
    let rows = used_rows(body);
    args.iter()
        .filter_map(|a| {
            let (name, ty) = match a {
                KernelArg::Int { name } => (name, scop.index_type.clone()),
                KernelArg::Value { name, elem_type } if is_integer_type(elem_type) => {
                    (name, opencl_type(elem_type))
                }
                _ => return None,
            };
            // (Not a buffer: the buffers' prefix does not matter.)
            let from_host_variable = super::host_value(launch, a, "") == *name;
            (rows.contains(name) && from_host_variable).then(|| Specialised {
                name: name.clone(),
                ty,
            })
        })
        .collect()
}

/// An extent's C text with its variables read through their row macros.
pub fn rows_in(text: &str, names: &[String]) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if names.iter().any(|n| n == word.as_str()) {
            out.push_str(&row_macro(word));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn row_macro(name: &str) -> String {
    format!("pencilc_row_{}", name)
}

/// The kernel body with the row macros its subscripts read defined first
/// (each the build's value where given and the argument otherwise) and
/// undefined after it. Only subscripts read them: loop bounds keep the
/// argument, as with constant extents (constant trip counts made PoCL's
/// gemm 25% slower).
pub fn wrap_body(values: &[Specialised], body: String) -> String {
    let used: BTreeSet<String> = used_rows(&body);
    if used.is_empty() {
        return body;
    }
    let mut out = String::new();
    for name in &used {
        let m = row_macro(name);
        match values.iter().find(|v| &v.name == name) {
            Some(v) => out.push_str(&format!(
                "#ifdef PENCILC_VALUE_{n}\n#define {m} (({t}) (PENCILC_VALUE_{n}))\n#else\n#define {m} {n}\n#endif\n",
                n = name,
                m = m,
                t = v.ty
            )),
            None => out.push_str(&format!("#define {} {}\n", m, name)),
        }
    }
    out.push_str(&body);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    for name in &used {
        out.push_str(&format!("#undef {}\n", row_macro(name)));
    }
    out
}

/// The names whose row macros `body` reads.
fn used_rows(body: &str) -> BTreeSet<String> {
    let prefix = "pencilc_row_";
    let mut used = BTreeSet::new();
    let mut rest = body;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().next_back();
        let tail = &rest[at + prefix.len()..];
        let len = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') && len > 0 {
            used.insert(tail[..len].to_string());
        }
        rest = &tail[len..];
    }
    used
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
/// version would use (`pencilc_values`, passed to `pencilc_choose` and
/// read by `PENCILC_DEVICE_READY`), so that a build it needs counts in
/// its cost; `choose` is `choice::choose_call` with `pencilc_values`.
pub fn around_choice(v: &RegionValues, choose: &str) -> String {
    format!(
        "char pencilc_values[{}];\nsnprintf(pencilc_values, sizeof pencilc_values, \"{}\", {});\n{}",
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
    fn subscripts_read_row_macros_defined_around_the_body() {
        let names = vec!["n".to_string(), "m".to_string()];
        assert_eq!(
            rows_in("(n + nm * m)", &names),
            "(pencilc_row_n + nm * pencilc_row_m)"
        );
        let body = format!(
            "    if (n > 0) A[c0 * {} + c1] = B[c0 * pencilc_row_k + c1];\n",
            rows_in("(n)", &names)
        );
        assert_eq!(
            wrap_body(&[v("n", "int")], body),
            "#define pencilc_row_k k\n".to_string()
                + "#ifdef PENCILC_VALUE_n\n#define pencilc_row_n ((int) (PENCILC_VALUE_n))\n#else\n#define pencilc_row_n n\n#endif\n"
                + "    if (n > 0) A[c0 * (pencilc_row_n) + c1] = B[c0 * pencilc_row_k + c1];\n"
                + "#undef pencilc_row_k\n#undef pencilc_row_n\n"
        );
        assert_eq!(wrap_body(&[v("n", "int")], "x\n".into()), "x\n");
    }

    #[test]
    fn a_region_formats_each_name_once() {
        let a = [v("n", "int"), v("m", "long")];
        let b = [v("n", "int")];
        let r = region_values([&a[..], &b[..]].into_iter()).unwrap();
        assert_eq!(r.format, "-DPENCILC_VALUE_m=%lld -DPENCILC_VALUE_n=%lld");
        assert_eq!(r.args, ["(long long) (m)", "(long long) (n)"]);
        // "-9223372036854775808" is the longest value; one more for the NUL.
        let longest =
            "-DPENCILC_VALUE_m=-9223372036854775808 -DPENCILC_VALUE_n=-9223372036854775808";
        assert!(r.size > longest.len());
        assert!(region_values([&[][..]].into_iter()).is_none());
    }
}
