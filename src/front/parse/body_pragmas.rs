//! `#pragma pencil independent` between a `for` header and its body:
//!
//! ```c
//! for (int i = 0; i < n; i++)
//! #pragma pencil independent
//!   A[i] = B[i];
//! ```
//!
//! C compilers accept it (a pragma is a line of its own wherever it is),
//! and PENCIL writes it so, but tree-sitter's C grammar allows a pragma
//! only where a statement or declaration may stand, and stopped at the
//! header with "expected `;`". Such pragma lines are blanked (spaces, so
//! that every byte and line keeps its place) in the text the parser
//! reads, and `Cx::for_stmt` reads the pragma of its loop back from here.

/// A pragma line found after a `for` header: its bytes in the text.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyPragma {
    pub start: usize,
    pub end: usize,
    /// What follows `#pragma` (`pencil independent ...`), continuation
    /// lines joined.
    pub argument: String,
}

/// `text` with each `#pragma pencil` line that directly follows a `for`
/// header blanked, and those pragmas.
pub fn blank(text: &str) -> (String, Vec<BodyPragma>) {
    let mut found = Vec::new();
    let mut line_start = 0;
    while line_start < text.len() {
        let (line_end, next) = directive_end(text, line_start);
        let line = &text[line_start..line_end];
        if let Some(argument) = pencil_argument(line) {
            let indent = line.len() - line.trim_start().len();
            if follows_for_header(&text[..line_start]) {
                found.push(BodyPragma {
                    start: line_start + indent,
                    end: line_end,
                    argument,
                });
            }
        }
        line_start = next;
    }
    if found.is_empty() {
        return (text.to_string(), found);
    }
    let mut bytes = text.as_bytes().to_vec();
    for p in &found {
        for b in &mut bytes[p.start..p.end] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    // Only bytes of whole lines became spaces (line breaks kept), so the
    // text is still UTF-8.
    let blanked = String::from_utf8(bytes).unwrap_or_else(|_| text.to_string());
    (blanked, found)
}

/// The end of the directive line starting at `start` (continued by a
/// backslash at the end of a line), and the start of the next line.
fn directive_end(text: &str, start: usize) -> (usize, usize) {
    let mut at = start;
    loop {
        let end = text[at..].find('\n').map_or(text.len(), |k| at + k);
        let line = text[at..end].trim_end_matches('\r');
        if line.ends_with('\\') && end < text.len() {
            at = end + 1;
            continue;
        }
        return (end, (end + 1).min(text.len()));
    }
}

/// What follows `#pragma` on a `#pragma pencil ...` line.
fn pencil_argument(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix('#')?;
    let rest = rest.trim_start().strip_prefix("pragma")?;
    if !rest.starts_with(|c: char| c.is_whitespace()) {
        return None;
    }
    let joined = rest.replace("\\\r\n", " ").replace("\\\n", " ");
    let argument = joined.trim();
    (argument.split_whitespace().next() == Some("pencil")).then(|| argument.to_string())
}

/// Whether `before` ends (past spaces, comments and other pragma lines of
/// the same kind) with the `)` closing a `for (...)` header.
fn follows_for_header(before: &str) -> bool {
    let b = skip_back(before.as_bytes());
    if b.last() != Some(&b')') {
        return false;
    }
    // The `(` that opens the header.
    let mut depth = 0usize;
    let mut open = None;
    for (k, &c) in b.iter().enumerate().rev() {
        match c {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    open = Some(k);
                    break;
                }
            }
            _ => {}
        }
    }
    let Some(open) = open else { return false };
    let head = skip_back(&b[..open]);
    let word_start = head
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
        .map_or(0, |k| k + 1);
    &head[word_start..] == b"for"
}

/// `b` without trailing white space, block comments and earlier
/// `#pragma pencil` lines (two pragmas of one loop).
fn skip_back(mut b: &[u8]) -> &[u8] {
    loop {
        let trimmed = b.trim_ascii_end();
        if trimmed.ends_with(b"*/") {
            if let Some(k) = find_last(&trimmed[..trimmed.len() - 2], b"/*") {
                b = &trimmed[..k];
                continue;
            }
        }
        // A whole preceding line that is a pencil pragma.
        let line_start = trimmed
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |k| k + 1);
        let line = std::str::from_utf8(&trimmed[line_start..]).unwrap_or("");
        if line_start < trimmed.len() && pencil_argument(line).is_some() {
            b = &trimmed[..line_start];
            continue;
        }
        return trimmed;
    }
}

fn find_last(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pragmas_after_for_headers_are_blanked_in_place() {
        let text = "for (i = 0; i < f(n); i++)\n  #pragma pencil independent\n  A[i] = 0;\n";
        let (blanked, found) = blank(text);
        assert_eq!(blanked.len(), text.len());
        assert_eq!(blanked.lines().nth(1).unwrap().trim(), "");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].argument, "pencil independent");
        assert_eq!(
            &text[found[0].start..found[0].end],
            "#pragma pencil independent"
        );
    }

    #[test]
    fn other_pragmas_and_places_are_left_alone() {
        for text in [
            "#pragma pencil independent\nfor (i = 0; i < n; i++)\n  A[i] = 0;\n",
            "while (x)\n#pragma pencil independent\n  x--;\n",
            "for (i = 0; i < n; i++)\n#pragma omp simd\n  A[i] = 0;\n",
            "foo(x)\n#pragma pencil independent\n",
        ] {
            let (blanked, found) = blank(text);
            assert!(found.is_empty(), "{}", text);
            assert_eq!(blanked, text);
        }
    }

    #[test]
    fn comments_continuations_and_nested_headers() {
        let text = "for (i = 0; i < (n); i++) /* rows */\n#pragma pencil \\\n independent\nfor (j = 0; j < n; j++)\n#pragma pencil independent reduction(+: s)\n  s += A[i][j];\n";
        let (_, found) = blank(text);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].argument, "pencil   independent");
        assert_eq!(found[1].argument, "pencil independent reduction(+: s)");
    }
}
