//! GNU attributes after a declarator (`float t[256] __attribute__
//! ((aligned(64)));`, as Rodinia's lud and nw declare their tiles): C
//! compilers accept them, the C grammar pencilc parses with does not
//! (it reads attributes among the specifiers and after function
//! declarators only). They say nothing the region's code needs: the
//! parse sees them as spaces, so lines and columns stay where they were.

/// `text` with each `__attribute__((...))` that follows an object's
/// declarator (after a name or a `]`, before `;`, `,` or `=`) blanked.
pub(super) fn blank_trailing(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(p) = text[from..].find("__attribute") {
        let start = from + p;
        from = start + "__attribute".len();
        if let Some(end) = trailing_group(bytes, start) {
            spans.push((start, end));
            from = end;
        }
    }
    if spans.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = bytes.to_vec();
    for (s, e) in spans {
        for b in &mut out[s..e] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Only ASCII bytes were replaced, by ASCII spaces.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_string()))
}

/// The end of the attribute group starting at `start` where it trails a
/// declarator.
fn trailing_group(b: &[u8], start: usize) -> Option<usize> {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    if start > 0 && word(b[start - 1]) {
        return None;
    }
    let mut i = start + "__attribute".len();
    if b[i..].starts_with(b"__") {
        i += 2;
    }
    if b.get(i).copied().is_some_and(word) {
        return None;
    }
    let before = b[..start].iter().rev().find(|c| !c.is_ascii_whitespace())?;
    if !(word(*before) || *before == b']') {
        return None;
    }
    while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    if b.get(i) != Some(&b'(') {
        return None;
    }
    let mut depth = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            b';' | b'{' | b'}' => return None,
            _ => {}
        }
        i += 1;
    }
    let end = i + 1;
    // Only attributes that change nothing the region computes: `mode`
    // and `vector_size` change the type, `cleanup` runs code.
    let text = String::from_utf8_lossy(&b[start..end.min(b.len())]);
    if !harmless(&text) {
        return None;
    }
    let after = b[end.min(b.len())..]
        .iter()
        .find(|c| !c.is_ascii_whitespace())?;
    matches!(after, b';' | b',' | b'=').then_some(end)
}

/// Whether every attribute in the group `__attribute__((a, b(x)))` is
/// one of those that say nothing about the values a region computes.
pub(super) fn harmless(group: &str) -> bool {
    let Some(open) = group.find("((") else {
        return false;
    };
    let inner = &group[open + 2..group.len().saturating_sub(2)];
    // The attributes' names: words at parenthesis depth 0.
    let mut depth = 0usize;
    let mut names = Vec::new();
    let mut word = String::new();
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 && (c.is_ascii_alphanumeric() || c == '_') => word.push(c),
            _ => {}
        }
        if depth > 0 || !(c.is_ascii_alphanumeric() || c == '_') {
            if !word.is_empty() {
                names.push(std::mem::take(&mut word));
            }
        }
    }
    if !word.is_empty() {
        names.push(word);
    }
    !names.is_empty()
        && names.iter().all(|n| {
            matches!(
                n.trim_matches('_'),
                "aligned" | "unused" | "used" | "maybe_unused" | "deprecated" | "nonstring"
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_after_declarators_are_blanked_in_place() {
        let t =
            "float t[256] __attribute__ ((aligned (64)));\nint x __attribute((unused)) = 1, y;\n";
        let b = blank_trailing(t);
        assert_eq!(b.len(), t.len());
        assert_eq!(b.lines().count(), 2);
        assert!(!b.contains("attribute"), "{}", b);
        assert!(b.starts_with("float t[256] "));
        assert!(b.contains("int x ") && b.contains("= 1, y;"));
    }

    #[test]
    fn attributes_the_grammar_reads_stay() {
        for t in [
            "void f(int) __attribute__((pencil_access(f_summary)));",
            "static __attribute__((unused)) int x;",
            "struct __attribute__((aligned(16))) v3 { float x; };",
            "int __attribute__((aligned(8))) x;",
            "my__attribute__((x)) y;",
            // These change the type or run code.
            "int t __attribute__((mode(QI))) = 1;",
            "int t __attribute__((cleanup(done))) = 1;",
            "int v __attribute__((vector_size(16)));",
            "int t __attribute__((aligned(8), mode(QI)));",
        ] {
            assert_eq!(blank_trailing(t), t);
        }
    }
}
