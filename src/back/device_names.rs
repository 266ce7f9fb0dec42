//! The user's names in kernel files. OpenCL C and CUDA C++ reserve words
//! that C leaves free (`global`, `kernel`, `uint`, `float2`, `new`,
//! `threadIdx`, ...: `front::device_words`), and a kernel also calls
//! OpenCL's functions (`get_local_id`, `barrier`) and PENCIL's helpers
//! (`imin`), which a parameter of that name would hide. In the kernel file
//! each such name of the user's is spelled `pencilc_user_<name>` (no name
//! of pencilc's own starts so, while its `pencilc_barrier` or
//! `pencilc_atomic_add_int` are `pencilc_` and a reserved word); the host
//! file keeps the user's name and passes the variable by position, so
//! nothing else changes.
//!
//! The renaming is a pass over the kernels' text: pencilc's own kernel
//! code names the device language's identifiers only as calls
//! (`get_local_id(0)`, `__syncthreads()`), as members of CUDA's built-in
//! variables (`blockIdx.x`), or through `pencilc_` macros of the kernel
//! file (`pencilc_barrier()`, `pencilc_inf_float`), while a user's
//! variable is never called nor a struct there (structs become arrays).
//! So a reserved word followed by `(` or `.` is the language's and stays;
//! any other is the user's and is renamed. C++'s keywords are renamed
//! wherever they are (pencilc prints none; the `_Bool` of its kernels
//! becomes C++'s `bool` here).

use super::Target;
use crate::front::device_words::{cuda_reserves, opencl_reserves, CXX_KEYWORDS};
use crate::front::names::is_reserved;
use std::collections::BTreeSet;

/// `text` (kernel code pencilc printed for `target`) with every name of
/// the user's that the target reserves, or that is one of `helpers` (the
/// PENCIL helpers the kernel file may define), spelled
/// `pencilc_user_<name>`;
/// character and string literals and comments are copied as they are.
pub fn rename_reserved(text: &str, target: Target, helpers: &BTreeSet<&str>) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if text[i..].starts_with("/*") || text[i..].starts_with("//") {
            let end = if text[i..].starts_with("/*") {
                text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2)
            } else {
                text[i..].find('\n').map_or(b.len(), |e| i + e)
            };
            out.push_str(&text[i..end]);
            i = end;
        } else if c == b'"' || c == b'\'' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.push_str(&text[start..i.min(b.len())]);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let next = text[i..].trim_start_matches([' ', '\t']).chars().next();
            out.push_str(&spelling(word, next, target, helpers));
        } else if c.is_ascii_digit() {
            // A number with its suffix (`1e5f`, `0x1p3`) is one token.
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            out.push_str(&text[start..i]);
        } else {
            let ch = text[i..].chars().next().unwrap_or('\0');
            out.push(ch);
            i += ch.len_utf8().max(1);
        }
    }
    out
}

/// How `word`, followed by the character `next`, is spelled in a kernel.
fn spelling(word: &str, next: Option<char>, target: Target, helpers: &BTreeSet<&str>) -> String {
    if is_reserved(word) {
        return word.to_string();
    }
    if target == Target::Cuda {
        if word == "_Bool" {
            return "bool".to_string();
        }
        if CXX_KEYWORDS.contains(&word) {
            return format!("pencilc_user_{}", word);
        }
    }
    let reserved = match target {
        Target::OpenCl => opencl_reserves(word),
        Target::Cuda => cuda_reserves(word),
        Target::C => false,
    } || helpers.contains(word);
    // The language's own: a call, or a member of a built-in variable.
    let languages = matches!(next, Some('(') | Some('.'));
    if reserved && !languages {
        format!("pencilc_user_{}", word)
    } else {
        word.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> BTreeSet<&'static str> {
        BTreeSet::new()
    }

    #[test]
    fn cxx_keywords_are_renamed_and_nothing_else() {
        assert_eq!(
            rename_reserved(
                "A[i] = A[i] + exists * i + and + new_x + or_; /* or */",
                Target::Cuda,
                &none()
            ),
            "A[i] = A[i] + exists * i + pencilc_user_and + new_x + or_; /* or */"
        );
        assert_eq!(
            rename_reserved(
                "int new, double *class, _Bool b = (_Bool)(this) // new\nnot",
                Target::Cuda,
                &none()
            ),
            "int pencilc_user_new, double *pencilc_user_class, bool b = (bool)(pencilc_user_this) // new\npencilc_user_not"
        );
    }

    #[test]
    fn literals_and_numbers_are_kept() {
        assert_eq!(
            rename_reserved(
                "c == 'a' ? \"and \\\" or\" : 1e5f + 0x1p3 + and",
                Target::Cuda,
                &none()
            ),
            "c == 'a' ? \"and \\\" or\" : 1e5f + 0x1p3 + pencilc_user_and"
        );
    }

    #[test]
    fn cuda_builtins_stay_where_pencilc_uses_them() {
        assert_eq!(
            rename_reserved(
                "int b0 = blockIdx.x; blockIdx[0] = threadIdx . y + warpSize + int2 * dim3;",
                Target::Cuda,
                &none()
            ),
            "int b0 = blockIdx.x; pencilc_user_blockIdx[0] = threadIdx . y + pencilc_user_warpSize + pencilc_user_int2 * pencilc_user_dim3;"
        );
    }

    #[test]
    fn opencl_words_of_the_user_are_renamed() {
        let helpers: BTreeSet<&str> = ["imin"].into_iter().collect();
        assert_eq!(
            rename_reserved(
                "__global double *restrict global, int local, unsigned int kernel, double half, float2",
                Target::OpenCl,
                &helpers
            ),
            "__global double *restrict pencilc_user_global, int pencilc_user_local, unsigned int pencilc_user_kernel, double pencilc_user_half, pencilc_user_float2"
        );
        assert_eq!(
            rename_reserved(
                "int c0 = get_local_id(0) + get_local_id + imin(imin, barrier); pencilc_barrier(); x = CLK_LOCAL_MEM_FENCE + pencilc_inf_float;",
                Target::OpenCl,
                &helpers
            ),
            "int c0 = get_local_id(0) + pencilc_user_get_local_id + imin(pencilc_user_imin, pencilc_user_barrier); pencilc_barrier(); x = pencilc_user_CLK_LOCAL_MEM_FENCE + pencilc_inf_float;"
        );
        // `_Bool` is OpenCL C's too; a C variable named `bool` is not.
        assert_eq!(
            rename_reserved("_Bool b = (_Bool)(bool);", Target::OpenCl, &none()),
            "_Bool b = (_Bool)(pencilc_user_bool);"
        );
    }
}
