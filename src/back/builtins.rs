//! PENCIL's typed builtins and the atomic reduction helpers for kernels
//! (`pencil-headers/pencil_opencl.h`, `pencil_cuda.h`): only what the
//! kernels use is pasted into a kernel file, nothing when they use none.
//!
//! The headers are split into items, each introduced by a line
//! `//@ NAME [needs A B ...]`; the text before the first item (the
//! header's comment, shared macros and pragmas) goes in front of the
//! items whenever any item is pasted (its comments left out).

use std::collections::BTreeSet;

struct Item<'a> {
    name: &'a str,
    needs: Vec<&'a str>,
    text: String,
}

/// The part of `header` that `code` (kernels and the user's device code)
/// uses: the preamble and the items named in `code`, with the items they
/// need, in the header's order; empty if `code` names no item.
pub fn used_part(header: &str, code: &str) -> String {
    let mut preamble = String::new();
    let mut items: Vec<Item> = Vec::new();
    for line in header.lines() {
        if let Some(rest) = line.strip_prefix("//@ ") {
            let mut words = rest.split_whitespace();
            let name = words.next().unwrap_or("");
            let needs = match words.next() {
                Some("needs") => words.collect(),
                _ => Vec::new(),
            };
            items.push(Item {
                name,
                needs,
                text: String::new(),
            });
            continue;
        }
        let out = match items.last_mut() {
            Some(item) => &mut item.text,
            None => &mut preamble,
        };
        out.push_str(line);
        out.push('\n');
    }
    let words = identifiers(code);
    let mut wanted: BTreeSet<&str> = items
        .iter()
        .map(|i| i.name)
        .filter(|n| words.contains(*n))
        .collect();
    // Close over `needs`.
    loop {
        let more: Vec<&str> = items
            .iter()
            .filter(|i| wanted.contains(i.name))
            .flat_map(|i| i.needs.iter().copied())
            .filter(|n| !wanted.contains(n))
            .collect();
        if more.is_empty() {
            break;
        }
        wanted.extend(more);
    }
    if wanted.is_empty() {
        return String::new();
    }
    // The preamble without its comments (they document the whole file).
    let mut out = String::from("/* PENCIL builtins used here (from pencilc's device header). */\n");
    let mut in_comment = false;
    for line in preamble.lines() {
        if line.starts_with("/*") {
            in_comment = true;
        }
        if !in_comment {
            out.push_str(line);
            out.push('\n');
        }
        if in_comment && line.contains("*/") {
            in_comment = false;
        }
    }
    for i in items.iter().filter(|i| wanted.contains(i.name)) {
        out.push_str(&i.text);
    }
    out
}

/// The names of `header`'s items: what a kernel file may define at file
/// scope, which a user's variable of the same name must not hide where a
/// kernel calls it (`device_names`).
pub fn item_names(header: &str) -> BTreeSet<&str> {
    header
        .lines()
        .filter_map(|l| l.strip_prefix("//@ "))
        .filter_map(|rest| rest.split_whitespace().next())
        .collect()
}

/// The C identifiers in `code`.
fn identifiers(code: &str) -> BTreeSet<&str> {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.chars().next().is_some_and(|c| !c.is_ascii_digit()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "/* top */\n#define X 1\n//@ a\nint a(void);\n//@ b needs a\nint b(void);\n//@ c\nint c(void);\n";

    #[test]
    fn nothing_used_nothing_pasted() {
        assert_eq!(used_part(H, "x = y + z;"), "");
    }

    #[test]
    fn used_items_with_what_they_need_in_header_order() {
        assert_eq!(
            used_part(H, "v = b(c(1));"),
            "/* PENCIL builtins used here (from pencilc's device header). */\n#define X 1\nint a(void);\nint b(void);\nint c(void);\n"
        );
        // `c2` is not `c`.
        assert!(used_part(H, "v = c2 + a;").ends_with("*/\n#define X 1\nint a(void);\n"));
    }

    #[test]
    fn the_device_headers_parse_into_items() {
        for h in [super::super::OPENCL_BUILTINS, super::super::CUDA_BUILTINS] {
            let all = used_part(h, "pencilc_atomic_max_double clamp32 imin fclampf");
            assert!(
                all.contains("PENCILC_CAS(pencilc_atomic_max_double"),
                "{}",
                all
            );
            assert!(all.contains("#define PENCILC_CAS"), "{}", all);
            assert!(all.contains("min32(int a"), "{}", all);
            assert!(!all.contains("pencilc_atomic_add_int("), "{}", all);
        }
    }
}
