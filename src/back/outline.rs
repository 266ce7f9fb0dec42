//! A region's generated versions in a function of their own.
//!
//! With three versions (the device's, the host's and the original code)
//! in the user's function, the C compiler compiles the original code
//! inside a function many times its size, and does it worse: register
//! allocation around its loops changes (syr2k at MEDIUM ran its own loops
//! 5% slower there, against the same loops in a function with the other
//! versions removed, which ran as fast as the sequential program). So the
//! choice and the two generated versions go into `pencilc_region_<k>`,
//! defined at the end of the host file (where every global the region
//! reads is declared, and nothing of the user's function can be), and the
//! region becomes a call of it with the original code beside it:
//!
//! ```c
//! if (pencilc_region_0(n, m, alpha, C, A)) {
//!     i = n <= 0 ? 0 : n;      /* what the loops leave in the user's iterators */
//! } else {
//! #line 59 "syrk.c"
//!     ...the user's region...
//! }
//! ```
//!
//! The function takes the user's variables under their own names, so the
//! versions' text is unchanged: scalars by value, scalars the region
//! writes by address (copied into a local of the same name on entry and
//! back on return: the user's variable is never read after the call
//! without its final value), arrays and pointers as they are declared.
//! Where some variable the versions name cannot be declared so
//! (`scop::frame`: structs, `volatile`, unresolved types, extents that
//! read locals), or an array is used by address or `sizeof` (a parameter
//! is a pointer, not the array), the versions stay in the user's
//! function.

use crate::scop::frame::FrameKind;
use crate::scop::Scop;
use std::collections::BTreeSet;

/// An outlined region: the prototype (for the host file's prelude, before
/// the user's code), the definition (for the end of the file) and what
/// replaces the region's lines.
pub struct Outlined {
    pub prototype: String,
    pub definition: String,
    pub call: String,
}

/// The parts of a three-version region (texts as they go into C).
pub struct Versions<'a> {
    /// Chooses: sets `pencilc_version` (declared by it).
    pub select: &'a str,
    pub device: &'a str,
    pub host: &'a str,
    /// Assignments to the user's iterators, after either generated version.
    pub live_out: &'a str,
    /// The user's lines, `#line` first.
    pub original: &'a str,
    /// The comment above the call.
    pub comment: &'a str,
    /// The region as `pencilc_choose` names it (`f (file.c:4-7)`).
    pub region: &'a str,
}

/// `pencilc_region_<number>` for `v`, or `None` where the versions must
/// stay in the user's function.
pub fn outline(scop: &Scop, number: usize, v: &Versions) -> Option<Outlined> {
    let name = format!("pencilc_region_{}", number);
    let text = format!("{}\n{}\n{}", v.select, v.device, v.host);
    let (idents, addressed) = identifiers(&text);
    let macros = &scop.file_names.macros;
    let users = |n: &str| !crate::front::names::is_reserved(n) && scop.is_users_name(n);
    if idents.iter().any(|n| users(n) && macros.contains(n)) {
        return None;
    }
    let frame = |n: &str| scop.frame.iter().find(|f| f.name == n);
    let written: BTreeSet<&str> = scop
        .arrays
        .iter()
        .filter(|a| a.is_scalar() && (a.written || scop.host_written(&a.name)) && !a.local)
        .map(|a| a.name.as_str())
        .collect();

    let mut used: BTreeSet<String> = idents
        .iter()
        .filter(|n| frame(n).is_some())
        .cloned()
        .collect();
    // What array declarations' extents read is passed too.
    for n in used.clone() {
        if let Some(FrameKind::Array { extent_vars, .. }) = frame(&n).map(|f| &f.kind) {
            used.extend(extent_vars.iter().cloned());
        }
    }
    let extent_vars: BTreeSet<&str> = used
        .iter()
        .filter_map(|n| match frame(n).map(|f| &f.kind) {
            Some(FrameKind::Array { extent_vars, .. }) => Some(extent_vars),
            _ => None,
        })
        .flatten()
        .map(|s| s.as_str())
        .collect();

    let mut by_value = Vec::new();
    let mut by_address = Vec::new();
    let mut arrays = Vec::new();
    // In the user's order of declaration.
    let used: Vec<&String> = scop
        .frame
        .iter()
        .map(|f| &f.name)
        .filter(|n| used.contains(*n))
        .collect();
    for n in used {
        let f = frame(n)?;
        match &f.kind {
            FrameKind::Opaque => return None,
            FrameKind::Scalar { ty } => {
                if written.contains(n.as_str()) || addressed.contains(n) {
                    if extent_vars.contains(n.as_str())
                        || ty.split_whitespace().any(|w| w == "const")
                    {
                        return None;
                    }
                    by_address.push((n.clone(), ty.clone()));
                } else {
                    by_value.push((n.clone(), ty.clone()));
                }
            }
            FrameKind::Array { decl, .. } => {
                if addressed.contains(n) || sizeof_of(&text, n) {
                    return None;
                }
                arrays.push((n.clone(), decl.clone()));
            }
        }
    }

    let mut params = Vec::new();
    let mut args = Vec::new();
    for (n, ty) in &by_value {
        params.push(format!("{} {}", ty, n));
        args.push(n.clone());
    }
    for (n, ty) in &by_address {
        params.push(format!("{} *pencilc_p_{}", ty, n));
        args.push(format!("&{}", n));
    }
    for (n, decl) in &arrays {
        params.push(decl.clone());
        args.push(n.clone());
    }
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    let head = format!("static PENCILC_NOINLINE int {}({})", name, params);
    // The declarations' own names (types, extents) read at the end of the
    // file as in the region only where no macro has them.
    let (declared, _) = identifiers(&params);
    if declared
        .iter()
        .any(|n| !crate::front::names::is_reserved(n) && macros.contains(n))
    {
        return None;
    }

    let mut def = format!(
        "/* pencilc: the generated versions of the region of {} */\n{}\n{{\n",
        super::comment_text(v.region),
        head
    );
    for (n, ty) in &by_address {
        def.push_str(&format!("    {} {} = *pencilc_p_{};\n", ty, n, n));
    }
    // The overlap check compares the caller's scalar, not this copy.
    let mut select = v.select.to_string();
    for (n, _) in &by_address {
        select = select.replace(
            &super::footprint::scalar_address(n),
            &format!("((size_t) pencilc_p_{})", n),
        );
    }
    def.push_str(&indented(&select, 1));
    def.push_str("\n    if (pencilc_version == PENCILC_SEQ)\n        return 0;\n");
    def.push_str("    if (pencilc_version == PENCILC_DEVICE)\n");
    def.push_str(&indented(v.device.trim_end(), 1));
    def.push_str("\n    else\n");
    def.push_str(&indented(v.host.trim_end(), 1));
    def.push('\n');
    for (n, _) in &by_address {
        def.push_str(&format!("    *pencilc_p_{} = {};\n", n, n));
    }
    def.push_str("    return 1;\n}\n");

    // Said unlikely, whatever it returns at run time: the hint only tells
    // the C compiler to lay out and allocate registers for the user's
    // code as the hot path, as it is in the sequential program (with the
    // call's branch taken for likely, heat-3d's own loops spilled and ran
    // 35% slower).
    let call_expr = format!("PENCILC_UNLIKELY({}({}))", name, args.join(", "));
    let call = if v.live_out.trim().is_empty() {
        format!("{}\nif (!{}) {{\n{}\n}}", v.comment, call_expr, v.original)
    } else {
        format!(
            "{}\nif ({}) {{\n{}\n}} else {{\n{}\n}}",
            v.comment,
            call_expr,
            v.live_out.trim_end(),
            v.original
        )
    };
    Some(Outlined {
        prototype: format!("{};", head),
        definition: def,
        call,
    })
}

/// The prelude's part for outlined regions: the attribute that keeps the
/// C compiler from inlining them back, and their prototypes.
pub fn prototypes(outlined: &[Outlined]) -> String {
    if outlined.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "/* pencilc: each region's generated versions, defined at the end of this file */\n\
         #ifndef PENCILC_NOINLINE\n\
         #if defined(__GNUC__) || defined(__clang__)\n\
         #define PENCILC_NOINLINE __attribute__((noinline))\n\
         #define PENCILC_UNLIKELY(x) __builtin_expect(!!(x), 0)\n\
         #elif defined(_MSC_VER)\n\
         #define PENCILC_NOINLINE __declspec(noinline)\n\
         #define PENCILC_UNLIKELY(x) (x)\n\
         #else\n\
         #define PENCILC_NOINLINE\n\
         #define PENCILC_UNLIKELY(x) (x)\n\
         #endif\n\
         #endif\n",
    );
    for o in outlined {
        out.push_str(&o.prototype);
        out.push('\n');
    }
    out
}

fn indented(text: &str, depth: usize) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{}{}", "    ".repeat(depth), l)
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifiers of C text (outside comments, string and character
/// literals, and not member names after `.` or `->`), and those of them
/// right after a unary `&`.
fn identifiers(text: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let b = text.as_bytes();
    let mut idents = BTreeSet::new();
    let mut addressed = BTreeSet::new();
    let mut i = 0;
    // The last significant characters before the current token.
    let mut prev: Vec<u8> = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = text[i..].find('\n').map_or(b.len(), |k| i + k);
            continue;
        }
        if c == b'"' || c == b'\'' {
            let mut j = i + 1;
            while j < b.len() && b[j] != c {
                if b[j] == b'\\' {
                    j += 1;
                }
                j += 1;
            }
            i = j + 1;
            prev.clear();
            prev.push(b'"');
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let member = prev.last() == Some(&b'.') || prev.ends_with(b"->");
            if !member {
                idents.insert(word.to_string());
                // `&x` but not `a && x`.
                if prev.last() == Some(&b'&') && !prev.ends_with(b"&&") {
                    addressed.insert(word.to_string());
                }
            }
            prev.clear();
            prev.push(b'a');
            continue;
        }
        if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
                i += 1;
            }
            prev.clear();
            prev.push(b'0');
            continue;
        }
        // `&(x)` takes x's address as `&x` does.
        if c == b'(' && prev.last() == Some(&b'&') {
            i += 1;
            continue;
        }
        if !c.is_ascii_whitespace() {
            if prev.len() > 2 {
                prev.remove(0);
            }
            prev.push(c);
        }
        i += 1;
    }
    (idents, addressed)
}

/// Whether `sizeof` is applied to `name` in `text` (`sizeof(A)`, `sizeof A`).
fn sizeof_of(text: &str, name: &str) -> bool {
    let compact: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    compact.contains(&format!("sizeof({})", name))
        || compact.contains(&format!("sizeof ({})", name))
        || compact.contains(&format!("sizeof {}", name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_skip_comments_strings_and_members() {
        let (ids, addr) =
            identifiers("/* a */ x = y.z + p->q; f(\"s t\", &u, v && w, 'c'); // r\n&(k)");
        let ids: Vec<&str> = ids.iter().map(|s| s.as_str()).collect();
        assert_eq!(ids, ["f", "k", "p", "u", "v", "w", "x", "y"]);
        let addr: Vec<&str> = addr.iter().map(|s| s.as_str()).collect();
        assert_eq!(addr, ["k", "u"]);
    }

    #[test]
    fn sizeof_is_found_with_or_without_parentheses() {
        assert!(sizeof_of("n * sizeof(A)", "A"));
        assert!(sizeof_of("sizeof  A", "A"));
        assert!(!sizeof_of("sizeof(double) * 10", "A"));
    }
}
