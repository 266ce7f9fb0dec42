//! C99 signatures made C++ for the CUDA host file, which nvcc compiles as
//! C++. A PENCIL array parameter (`T A[pencil_array n][m]`, i.e.
//! `[static const restrict n]`) is a C99 variably modified type that C++
//! rejects. In the host file such a parameter becomes `void *A` (or
//! `const void *A` for const elements): C++ converts any object pointer to
//! `void *` implicitly, so callers passing `float C[N][N]` stay unchanged.
//! That is only sound where nothing indexes the array on the host: the
//! signature of a function whose whole body is a region (its host code
//! only passes each array to cudaMemcpy; see `host_indexes_arrays`) and
//! prototypes (no body). Any other function keeps its text as written.

use crate::ast::Ast;

/// How `pencil_array` is spelled in the user's file, or what it expands to.
const MARKERS: [&str; 4] = [
    "pencil_array",
    "PENCIL_ARRAY",
    "pencil_attributes",
    "static const restrict",
];

/// `text` with the PENCIL array parameters of prototypes, and of the
/// functions `whole` names (function name, 1-based line of the first body
/// line, i.e. the line after the opening brace), rewritten to pointers.
/// Line breaks are kept, so line numbers stay those of the user's file.
pub fn cxx_signatures(text: &str, whole: &[(String, u32)]) -> String {
    let code = mask(text);
    let b = code.as_bytes();
    let mut out = String::new();
    let mut done = 0;
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b'(' if depth == 0 => {
                let close = matching_paren(b, i);
                let name = ident_before(&code[..i]);
                let list = &text[i + 1..close];
                if !name.is_empty() && has_marker(&code[i + 1..close]) {
                    let after = skip_attributes(&code, close + 1);
                    let rewrite = match b.get(after) {
                        Some(b';') => true,
                        Some(b'{') => {
                            let first = line_of(text, after) + 1;
                            whole.iter().any(|(f, l)| f == name && *l == first)
                        }
                        _ => false,
                    };
                    if rewrite {
                        out.push_str(&text[done..i + 1]);
                        out.push_str(&rewrite_params(list));
                        done = close;
                    }
                }
                i = close;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(&text[done..]);
    out
}

/// A parameter list with each PENCIL array parameter as a pointer.
fn rewrite_params(list: &str) -> String {
    split_top_level(list)
        .iter()
        .map(|p| rewrite_param(p))
        .collect::<Vec<_>>()
        .join(",")
}

/// `const float A[pencil_array n][m]` → `const void *A`; other parameters
/// (scalars, VLA sizes) unchanged. Leading blanks and any line breaks
/// inside the parameter are kept.
fn rewrite_param(p: &str) -> String {
    let masked = mask(p);
    let Some(open) = masked.find('[') else {
        return p.to_string();
    };
    if !has_marker(&masked[open..]) {
        return p.to_string();
    }
    let name = ident_before(&masked[..open]);
    if name.is_empty() {
        return p.to_string();
    }
    let body = p.trim_start();
    let lead = &p[..p.len() - body.len()];
    let prefix = &masked[..masked[..open].trim_end().len() - name.len()];
    let konst = prefix.split(|c: char| !is_ident(c)).any(|t| t == "const");
    let breaks = "\n".repeat(body.matches('\n').count());
    let ty = if konst { "const void *" } else { "void *" };
    format!("{}{}{}{}", lead, ty, name, breaks)
}

fn has_marker(s: &str) -> bool {
    MARKERS.iter().any(|m| {
        // `static const restrict` may be spaced or ordered otherwise.
        let words: Vec<&str> = m.split(' ').collect();
        if words.len() == 1 {
            tokens(s).any(|t| t == *m)
        } else {
            let ts: Vec<&str> = tokens(s).collect();
            words.iter().all(|w| ts.contains(w))
        }
    })
}

fn tokens(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !is_ident(c)).filter(|t| !t.is_empty())
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier that ends `s`, ignoring trailing blanks.
fn ident_before(s: &str) -> &str {
    let s = s.trim_end();
    let start = s
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_ident(*c))
        .last()
        .map(|(k, _)| k)
        .unwrap_or(s.len());
    let id = &s[start..];
    if id.starts_with(|c: char| c.is_ascii_digit()) {
        ""
    } else {
        id
    }
}

/// Index of the `)` matching the `(` at `open` (or the end of the text).
fn matching_paren(b: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    b.len()
}

/// The first non-blank position at or after `at`, past any
/// `__attribute__((...))` between a parameter list and `{` or `;`.
fn skip_attributes(code: &str, mut at: usize) -> usize {
    let b = code.as_bytes();
    loop {
        while at < b.len() && b[at].is_ascii_whitespace() {
            at += 1;
        }
        let rest = &code[at.min(code.len())..];
        if !rest.starts_with("__attribute__") {
            return at;
        }
        match rest.find('(') {
            Some(p) => at = matching_paren(b, at + p) + 1,
            None => return at,
        }
    }
}

/// Splits a parameter list at commas outside brackets and parentheses.
fn split_top_level(list: &str) -> Vec<&str> {
    let masked = mask(list);
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (k, c) in masked.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&list[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[start..]);
    parts
}

fn line_of(text: &str, at: usize) -> u32 {
    text[..at].matches('\n').count() as u32 + 1
}

/// `text` with comments, string and character literals and preprocessor
/// lines blanked (same length and line breaks), so that scanning for
/// brackets and keywords sees only code.
fn mask(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"/*") {
            text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2)
        } else if rest.starts_with(b"//") || (line_start && b[i] == b'#') {
            // A preprocessor line, continuations included.
            let mut e = i;
            while e < b.len() && !(b[e] == b'\n' && (e == 0 || b[e - 1] != b'\\')) {
                e += 1;
            }
            e
        } else if b[i] == b'"' || b[i] == b'\'' {
            let q = b[i];
            let mut e = i + 1;
            while e < b.len() && b[e] != q && b[e] != b'\n' {
                e += if b[e] == b'\\' { 2 } else { 1 };
            }
            (e + 1).min(b.len())
        } else {
            if b[i] == b'\n' {
                line_start = true;
            } else if !b[i].is_ascii_whitespace() {
                line_start = false;
            }
            i += 1;
            continue;
        };
        blank(&mut out, i, end);
        i = end;
    }
    // Only ASCII bytes were replaced, by ASCII: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// `#pragma scop` (spaces allowed around `#`), the first line of a region
/// that is not a whole function.
pub fn is_pragma_scop(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix('#') else {
        return false;
    };
    let mut words = rest.split_whitespace();
    words.next() == Some("pragma") && words.next() == Some("scop")
}

/// Whether host code reads or writes array elements itself (rather than
/// only launching kernels): then its arrays cannot become `void *`.
pub fn host_indexes_arrays(ast: &Ast) -> bool {
    match ast {
        Ast::Block(items) => items.iter().any(host_indexes_arrays),
        Ast::For { body, .. } | Ast::Let { body, .. } | Ast::Site { body, .. } => {
            host_indexes_arrays(body)
        }
        Ast::If { then_, else_, .. } => {
            host_indexes_arrays(then_) || else_.as_deref().is_some_and(host_indexes_arrays)
        }
        Ast::User { .. } | Ast::Copy { .. } | Ast::Parallel { .. } | Ast::Atomic(_) => true,
        Ast::Barrier | Ast::Launch(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLOR: &str = "#include <pencil.h>\n\
static void f(int rows, int cols, const unsigned char rgb[pencil_array rows][cols][3],\n\
              unsigned char ycc[pencil_array rows][cols][3])\n\
{\n\
  body;\n\
}\n";

    #[test]
    fn whole_function_arrays_become_void_pointers() {
        let out = cxx_signatures(COLOR, &[("f".into(), 5)]);
        assert_eq!(
            out,
            "#include <pencil.h>\n\
static void f(int rows, int cols, const void *rgb,\n\
              void *ycc)\n\
{\n\
  body;\n\
}\n"
        );
    }

    #[test]
    fn other_definitions_are_kept() {
        // The body is not a region (wrong line, or another function).
        assert_eq!(cxx_signatures(COLOR, &[("f".into(), 6)]), COLOR);
        assert_eq!(cxx_signatures(COLOR, &[("g".into(), 5)]), COLOR);
    }

    #[test]
    fn prototypes_scalars_and_expanded_qualifiers() {
        let src = "void g(int n, float alpha, float A[static const restrict n][n]) __attribute__((pencil));\n\
/* h(int n, float A[pencil_array n]); */\n\
void h(int n, const float * B);\n";
        let out = cxx_signatures(src, &[]);
        assert_eq!(
            out,
            "void g(int n, float alpha, void *A) __attribute__((pencil));\n\
/* h(int n, float A[pencil_array n]); */\n\
void h(int n, const float * B);\n"
        );
    }

    #[test]
    fn pragma_scop_lines() {
        assert!(is_pragma_scop("  # pragma scop"));
        assert!(!is_pragma_scop("#pragma pencil independent"));
        assert!(!is_pragma_scop("#ifndef NO_KILL"));
    }

    #[test]
    fn line_breaks_inside_a_parameter_are_kept() {
        assert_eq!(rewrite_param(" float A[pencil_array n]\n[m]"), " void *A\n");
        assert_eq!(rewrite_param(" int n"), " int n");
    }
}
