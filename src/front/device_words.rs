//! The words that OpenCL C and CUDA C++ kernels reserve beyond C's: C
//! allows a variable named `global`, `kernel`, `uint`, `float2`, `new` or
//! `threadIdx`, and each would break (or change) a kernel that used it as
//! it is. `back::device_names` spells such a variable `pencilc_user_<name>` in
//! the kernel file; generated names avoid every one of them
//! (`Scop::all_names`).

use std::sync::OnceLock;

/// OpenCL C's keywords and qualifiers without their `__` (C 1.2, and 2.0's
/// where a device may compile kernels as OpenCL C 2.0 or 3.0).
const OPENCL_KEYWORDS: &[&str] = &[
    "global",
    "local",
    "constant",
    "private",
    "kernel",
    "read_only",
    "write_only",
    "read_write",
    "uniform",
    "pipe",
    "generic",
    "bool",
    "true",
    "false",
];

/// OpenCL C's built-in and reserved types (vector and matrix types are
/// made by `vector_types`), and the types of its headers.
const OPENCL_TYPES: &[&str] = &[
    "uchar",
    "ushort",
    "uint",
    "ulong",
    "half",
    "quad",
    "complex",
    "imaginary",
    "size_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "image1d_t",
    "image1d_array_t",
    "image1d_buffer_t",
    "image2d_t",
    "image2d_array_t",
    "image3d_t",
    "image2d_depth_t",
    "image2d_array_depth_t",
    "image2d_msaa_t",
    "image2d_array_msaa_t",
    "image2d_msaa_depth_t",
    "image2d_array_msaa_depth_t",
    "sampler_t",
    "event_t",
    "queue_t",
    "ndrange_t",
    "clk_event_t",
    "reserve_id_t",
    "memory_order",
    "memory_scope",
];

/// Macros every OpenCL C compiler defines that C's library does not
/// (besides `C_LIBRARY_MACROS` and the prefixes of `OPENCL_PREFIXES`),
/// and the built-in functions that pencilc's kernels call: a parameter of
/// that name would hide the function.
const OPENCL_MACROS_AND_CALLS: &[&str] = &[
    "kernel_exec",
    "get_group_id",
    "get_local_id",
    "get_global_id",
    "get_global_size",
    "get_local_size",
    "get_num_groups",
    "get_work_dim",
    "barrier",
    "mem_fence",
];

/// Prefixes of the OpenCL implementation's own macros and types
/// (`CLK_LOCAL_MEM_FENCE`, `cl_khr_fp64`, `CL_VERSION_1_2`,
/// `HALF_EPSILON`, `atomic_int`, `atom_add`). Names that start with `__`
/// are C's implementation's (and pencilc's kernels use `__global`,
/// `__local`): not a user's to rename.
const OPENCL_PREFIXES: &[&str] = &["CLK_", "cl_", "CL_", "HALF_", "atomic_", "atom_"];

/// The object-like macros of C's library headers (<math.h>, <float.h>,
/// <limits.h>, <stdint.h>, <stdio.h>, <stdlib.h>, <errno.h>, <time.h>),
/// which OpenCL C defines too (its limits and math constants) and which a
/// CUDA kernel file gets from `cuda_runtime.h`. A C file that does not
/// include a header may name a variable so (`INFINITY`, `EOF`).
const C_LIBRARY_MACROS: &[&str] = &[
    "INFINITY",
    "NAN",
    "HUGE_VAL",
    "HUGE_VALF",
    "HUGE_VALL",
    "MAXFLOAT",
    "NULL",
    "EOF",
    "BUFSIZ",
    "FILENAME_MAX",
    "FOPEN_MAX",
    "TMP_MAX",
    "L_tmpnam",
    "stdin",
    "stdout",
    "stderr",
    "SEEK_SET",
    "SEEK_CUR",
    "SEEK_END",
    "EXIT_SUCCESS",
    "EXIT_FAILURE",
    "RAND_MAX",
    "MB_CUR_MAX",
    "CLOCKS_PER_SEC",
    "errno",
    "EDOM",
    "ERANGE",
    "EILSEQ",
    "CHAR_BIT",
    "DECIMAL_DIG",
    "MATH_ERRNO",
    "MATH_ERREXCEPT",
    "math_errhandling",
];

/// Whether `word` is one of C's library macros (`C_LIBRARY_MACROS`, the
/// limits `INT_MAX`, `SIZE_MAX`, `INT8_MIN`, ..., and the families
/// `FLT_`, `DBL_`, `LDBL_`, `FP_` and `M_`).
fn c_library_macro(word: &str) -> bool {
    let upper = word
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    C_LIBRARY_MACROS.contains(&word)
        || ["FLT_", "DBL_", "LDBL_", "FP_", "M_"]
            .iter()
            .any(|p| word.starts_with(p))
        || (upper && (word.ends_with("_MAX") || word.ends_with("_MIN")))
}

/// C++20 keywords and alternative operator tokens that are ordinary
/// identifiers in C17 (`bool`, `true` and `false` among them: C has them
/// from <stdbool.h> as macros, expanded before pencilc reads the region,
/// so in a region they name variables; kernels spell the type `_Bool`
/// until `back::device_names` makes it C++'s `bool`). Not here:
/// `wchar_t`, `char16_t`, `char32_t`, `char8_t`, which C names as
/// typedefs, so a kernel only ever uses them as the types.
pub const CXX_KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "bitand",
    "bitor",
    "bool",
    "catch",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "compl",
    "concept",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
    "decltype",
    "delete",
    "dynamic_cast",
    "explicit",
    "export",
    "false",
    "friend",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "reinterpret_cast",
    "requires",
    "static_assert",
    "static_cast",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typeid",
    "typename",
    "using",
    "virtual",
    "xor",
    "xor_eq",
];

/// CUDA's built-in variables and types, and what pencilc's CUDA kernels
/// and launchers use (`size_t` in slice offsets, `dim3` and
/// `cudaGetLastError` in the launcher, whose parameters are the user's
/// variables).
const CUDA_WORDS: &[&str] = &[
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    "dim3",
    "size_t",
    "cudaError_t",
    "cudaGetLastError",
    "cudaSuccess",
];

/// Whether OpenCL C (its compiler, headers or pencilc's kernels' calls)
/// gives `word` a meaning of its own.
pub fn opencl_reserves(word: &str) -> bool {
    OPENCL_KEYWORDS.contains(&word)
        || OPENCL_TYPES.contains(&word)
        || OPENCL_MACROS_AND_CALLS.contains(&word)
        || OPENCL_PREFIXES.iter().any(|p| word.starts_with(p))
        || c_library_macro(word)
        || opencl_vector_or_matrix(word)
}

/// Whether CUDA C++ gives `word` a meaning of its own (C++'s keywords
/// included).
pub fn cuda_reserves(word: &str) -> bool {
    CXX_KEYWORDS.contains(&word)
        || CUDA_WORDS.contains(&word)
        || cuda_vector(word)
        || c_library_macro(word)
}

/// `float4`, `uchar16`, `bool2`, `double2x4`, ...: OpenCL's vector types
/// (2, 3, 4, 8, 16 elements) and reserved matrix types.
fn opencl_vector_or_matrix(word: &str) -> bool {
    const ELEMENTS: &[&str] = &[
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
        "half", "bool", "quad",
    ];
    const SIZES: &[&str] = &["2", "3", "4", "8", "16"];
    ELEMENTS.iter().any(|e| {
        word.strip_prefix(e).is_some_and(|rest| {
            SIZES.contains(&rest)
                || rest
                    .split_once('x')
                    .is_some_and(|(n, m)| SIZES.contains(&n) && SIZES.contains(&m))
        })
    })
}

/// CUDA's vector types: `int2`, `uchar4`, `longlong1`, `double3`, ...
fn cuda_vector(word: &str) -> bool {
    const ELEMENTS: &[&str] = &[
        "char",
        "uchar",
        "short",
        "ushort",
        "int",
        "uint",
        "long",
        "ulong",
        "longlong",
        "ulonglong",
        "float",
        "double",
    ];
    ELEMENTS.iter().any(|e| {
        word.strip_prefix(e)
            .is_some_and(|rest| matches!(rest, "1" | "2" | "3" | "4"))
    })
}

/// Every word of the lists above that is a whole word (not a prefix):
/// what generated names avoid besides the file's (`Scop::all_names`).
pub fn all_words() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut out: Vec<String> = OPENCL_KEYWORDS
            .iter()
            .chain(OPENCL_TYPES)
            .chain(OPENCL_MACROS_AND_CALLS)
            .chain(C_LIBRARY_MACROS)
            .chain(CXX_KEYWORDS)
            .chain(CUDA_WORDS)
            .map(|w| w.to_string())
            .collect();
        for e in [
            "char",
            "uchar",
            "short",
            "ushort",
            "int",
            "uint",
            "long",
            "ulong",
            "float",
            "double",
            "half",
            "bool",
            "quad",
            "longlong",
            "ulonglong",
        ] {
            for n in ["1", "2", "3", "4", "8", "16"] {
                out.push(format!("{}{}", e, n));
                for m in ["2", "3", "4", "8", "16"] {
                    out.push(format!("{}{}x{}", e, n, m));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opencl_words() {
        for w in [
            "global",
            "local",
            "constant",
            "private",
            "kernel",
            "uint",
            "uchar",
            "half",
            "float2",
            "image2d_t",
            "sampler_t",
            "read_only",
            "double16",
            "float4x4",
            "CLK_LOCAL_MEM_FENCE",
            "cl_khr_fp64",
            "M_PI",
            "INFINITY",
            "get_local_id",
            "barrier",
        ] {
            assert!(opencl_reserves(w), "{}", w);
        }
        for w in [
            "A", "float1", "float5", "globals", "kernel0", "c0", "t0", "dev_A", "n",
        ] {
            assert!(!opencl_reserves(w), "{}", w);
        }
    }

    #[test]
    fn cuda_words() {
        for w in [
            "new",
            "class",
            "threadIdx",
            "blockIdx",
            "warpSize",
            "dim3",
            "int2",
            "bool",
        ] {
            assert!(cuda_reserves(w), "{}", w);
        }
        for w in [
            "A", "int5", "global", "kernel", "t0", "c0", "n_MAX", "MAXIMUM",
        ] {
            assert!(!cuda_reserves(w), "{}", w);
        }
    }

    #[test]
    fn whole_words_are_listed_for_fresh_names() {
        let w = all_words();
        assert!(w.iter().any(|x| x == "float16") && w.iter().any(|x| x == "threadIdx"));
        assert!(!w
            .iter()
            .any(|x| x.starts_with('c') && x[1..].chars().all(|c| c.is_ascii_digit())));
    }
}
