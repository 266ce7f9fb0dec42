//! Which of a function's automatic scalars are dead after a region: the
//! region then need not leave its last value in such a variable (no copy
//! back from a device), and a transformation may keep the values
//! elsewhere (`scop::forward`).
//!
//! The proof is by the function's text, so it is conservative: the name
//! appears nowhere after the region's `#pragma endscop`, nothing takes
//! the variable's address anywhere in the function (a pointer could read
//! it later), and no code before the region can run after it (the region
//! is in no loop, the function has no `goto` or `setjmp`), and the
//! function defines no function of its own (GCC's nested functions read
//! its variables wherever they are called).

use super::{Cx, Within};
use crate::front::names::for_each_identifier;
use crate::front::syntax::VarDecl;
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

/// Whether an identifier is one after which code before a region may run
/// after it, or a variable may be reached without its name: `goto`,
/// `asm`, and every spelling of `setjmp` that C libraries expand it to
/// (glibc's `_setjmp`, `__sigsetjmp`; `__builtin_setjmp`).
pub(super) fn jumps(word: &str) -> bool {
    matches!(word, "goto" | "asm" | "__asm__" | "__asm")
        || word.contains("setjmp")
        || word.contains("longjmp")
        // POSIX's user contexts: `setcontext` resumes where
        // `getcontext` saved.
        || matches!(word, "getcontext" | "setcontext" | "swapcontext" | "makecontext")
        // GCC's `cleanup` attribute runs a function on the variable at
        // the end of its scope, which reads it without naming it.
        || word == "cleanup"
        || word == "__cleanup__"
}

/// A variable the proof may apply to: an automatic scalar that is not
/// `volatile` (whose reads the program may observe otherwise).
pub(super) fn candidate(v: &VarDecl) -> bool {
    v.automatic
        && v.dims.is_empty()
        && !v.pointer
        && v.members.is_empty()
        && !v.volatile_or_register
}

impl Cx<'_> {
    /// The candidates of `symbols` dead after the region that `end` (its
    /// `#pragma endscop`) closes.
    pub(super) fn dead_after(
        &self,
        within: Within,
        end: Node,
        symbols: &BTreeMap<String, VarDecl>,
    ) -> BTreeSet<String> {
        let f = within.function;
        if within.in_loop
            || end.end_byte() < f.start_byte()
            || super::file_index::has_nested_function(f)
        {
            return BTreeSet::new();
        }
        dead_in(
            self.text(f),
            end.end_byte() - f.start_byte(),
            symbols
                .values()
                .filter(|v| candidate(v))
                .map(|v| v.name.as_str()),
        )
    }
}

/// The `names` that `function` (its text) does not read after byte
/// `after` and whose address it never takes.
fn dead_in<'n>(
    function: &str,
    after: usize,
    names: impl Iterator<Item = &'n str>,
) -> BTreeSet<String> {
    let names: BTreeSet<&str> = names.collect();
    let mut live: BTreeSet<&str> = BTreeSet::new();
    let mut jumped = false;
    for_each_identifier(function, |w, at| {
        if jumps(w) {
            jumped = true;
        }
        let Some(&name) = names.get(w) else {
            return;
        };
        if at >= after || address_taken(&function[..at]) {
            live.insert(name);
        }
    });
    if jumped {
        return BTreeSet::new();
    }
    names.difference(&live).map(|n| n.to_string()).collect()
}

/// Whether the text before a name ends in `&` (through parentheses and
/// blanks): `&x`, `& (x)`. A bitwise `a & x` counts too, which only makes
/// the proof more careful.
fn address_taken(before: &str) -> bool {
    let rest = before.trim_end_matches(|c: char| c.is_whitespace() || c == '(');
    rest.ends_with('&') && !rest.ends_with("&&")
}

#[cfg(test)]
mod tests {
    use super::dead_in;

    fn dead(text: &str, names: &[&str]) -> Vec<String> {
        let after = text.find("#pragma endscop").unwrap() + "#pragma endscop".len();
        dead_in(text, after, names.iter().copied())
            .into_iter()
            .collect()
    }

    #[test]
    fn a_scalar_named_after_the_region_is_live() {
        let f =
            "void f(){ double w, v; \n#pragma scop\n w = 1; v = 2;\n#pragma endscop\n print(v); }";
        assert_eq!(dead(f, &["w", "v"]), vec!["w"]);
    }

    #[test]
    fn an_address_taken_anywhere_keeps_it_live() {
        let f = "void f(){ double w, *p = & (w); \n#pragma scop\n w = 1;\n#pragma endscop\n print(*p); }";
        assert!(dead(f, &["w"]).is_empty());
        let g = "void f(){ double w; int b = x && w; \n#pragma scop\n w = 1;\n#pragma endscop\n }";
        assert_eq!(dead(g, &["w"]), vec!["w"]);
    }

    #[test]
    fn a_jump_keeps_everything_live() {
        let f = "void f(){ double w; again: \n#pragma scop\n w = 1;\n#pragma endscop\n if (c) goto again; }";
        assert!(dead(f, &["w"]).is_empty());
        // glibc's `setjmp (env)` after preprocessing.
        let g = "void f(){ double w; if (_setjmp (env)) return;\n#pragma scop\n w = 1;\n#pragma endscop\n g(); }";
        assert!(dead(g, &["w"]).is_empty());
    }

    #[test]
    fn names_in_comments_and_strings_do_not_count() {
        let f =
            "void f(){ double w; \n#pragma scop\n w = 1;\n#pragma endscop\n puts(\"w\"); /* w */ }";
        assert_eq!(dead(f, &["w"]), vec!["w"]);
    }
}
