//! C names in CUDA kernels. The kernel file is CUDA C++, so a user's
//! variable that C allows and C++ reserves (`and`, `or`, `new`, `class`,
//! `this`, ...) cannot name a kernel parameter or appear in a kernel body
//! as it is. In the kernel file each such name is spelled `pencilc_<name>`;
//! the host file, C, keeps the user's name and passes the variable to the
//! launcher by position, so nothing else changes.

/// C++20 keywords and alternative operator tokens that are ordinary
/// identifiers in C17. Not here: `bool`, `true` and `false` (pencilc's
/// kernels use them as C++ does; C's input has them from <stdbool.h>
/// expanded), and `wchar_t`, `char16_t`, `char32_t`, `char8_t`, which C
/// names as typedefs, so a kernel only ever uses them as the types.
const CXX_ONLY: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "bitand",
    "bitor",
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
    "try",
    "typeid",
    "typename",
    "using",
    "virtual",
    "xor",
    "xor_eq",
];

/// `text` (kernel code pencilc printed) with every identifier that C++
/// reserves spelled `pencilc_<name>`; character and string literals and
/// comments are copied as they are.
pub fn rename_cxx_keywords(text: &str) -> String {
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
            out.push_str(&text[start..i]);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            if CXX_ONLY.contains(&word) {
                out.push_str("pencilc_");
            }
            out.push_str(word);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cxx_keywords_are_renamed_and_nothing_else() {
        assert_eq!(
            rename_cxx_keywords("A[i] = A[i] + exists * i + and + new_x + or_; /* or */"),
            "A[i] = A[i] + exists * i + pencilc_and + new_x + or_; /* or */"
        );
        assert_eq!(
            rename_cxx_keywords("int new, double *class, bool b = (bool)(this) // new\nnot"),
            "int pencilc_new, double *pencilc_class, bool b = (bool)(pencilc_this) // new\npencilc_not"
        );
    }

    #[test]
    fn literals_and_numbers_are_kept() {
        assert_eq!(
            rename_cxx_keywords("c == 'a' ? \"and \\\" or\" : 1e5f + 0x1p3 + and"),
            "c == 'a' ? \"and \\\" or\" : 1e5f + 0x1p3 + pencilc_and"
        );
    }
}
