//! Text of the output files: the host code spliced into the user's lines
//! and headers, C string literals and comments that hold any text, and
//! the paths the generated files name.

use super::*;

/// A path as the text of a C string literal.
/// A file name between the quotes of `#include "..."`, which takes no
/// escapes: its own bytes, whether UTF-8 or not (`SourceFile::encode`
/// writes them back).
pub(super) fn include_name(p: &Path) -> String {
    crate::front::parse::name_as_text(p.as_os_str())
}

/// A file name in a C string literal (`#line`): a name that is not UTF-8
/// keeps its bytes, as octal escapes, so the C compiler names the file
/// the user has.
pub(super) fn c_path(p: &Path) -> String {
    if let Some(s) = p.to_str() {
        return c_string(s);
    }
    let mut out = String::new();
    for chunk in p.as_os_str().as_encoded_bytes().utf8_chunks() {
        out.push_str(&c_string(chunk.valid()));
        for b in chunk.invalid() {
            out.push_str(&format!("\\{:03o}", b));
        }
    }
    out
}

/// `s` as the text between the quotes of a C string literal: quotes,
/// backslashes and control characters escaped (octal, so that a digit
/// after them is not taken into the escape).
pub fn c_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '?' => out.push_str("\\?"), // no trigraphs
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03o}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// The deepest nesting of `( [ {` in C text, outside comments, strings and
/// character constants.
pub(super) fn bracket_depth(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    max
}

/// `s` as text inside a C block comment: no `*/` to end it early, no line
/// breaks or other control characters.
pub fn comment_text(s: &str) -> String {
    s.replace("*/", "*\\/")
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// The user's file with the prelude on top and each region replaced; line
/// directives keep the compiler's messages pointing at the user's lines.
pub(super) fn splice(
    source: &SourceFile,
    prelude: &str,
    replacements: &[(u32, u32, String)],
) -> String {
    let mut out = String::new();
    out.push_str(prelude.trim_end());
    out.push('\n');
    out.push_str(&spliced_lines(source, replacements));
    out
}

/// A header the main file includes, pasted in place of its `#include`
/// with the regions of this inclusion compiled: the preprocessor sees the
/// same text under the same macros, so the code around the regions means
/// what it meant. A `#pragma once` would be taken as the main file's.
pub(super) fn paste_header(header: &SourceFile, codes: &[(u32, u32, String)]) -> String {
    let name = comment_text(&header.path.display().to_string());
    let text: String = header
        .text
        .split_inclusive('\n')
        .map(|l| {
            if is_pragma_once(l) {
                "/* #pragma once: pencilc pasted the header here */\n"
            } else {
                l
            }
        })
        .collect();
    let pasted = SourceFile {
        path: header.path.clone(),
        text,
    };
    format!(
        "/* pencilc: {}, included here, with its regions compiled for this inclusion */\n{}",
        name,
        spliced_lines(&pasted, codes).trim_end()
    )
}

pub(super) fn is_pragma_once(line: &str) -> bool {
    let t = line.trim_start();
    let words: Vec<&str> = t.trim_start_matches('#').split_whitespace().collect();
    t.starts_with('#') && words == ["pragma", "once"]
}

pub(super) fn has_pragma_once(text: &str) -> bool {
    text.lines().any(is_pragma_once)
}

/// The lines after `after` of the main file that `#include` `header`
/// again: the name resolved against the main file's folder, or else the
/// same file name (where an include path found it).
pub(super) fn later_includes_of(source: &SourceFile, header: &Path, after: u32) -> Vec<u32> {
    let same_file = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    let dir = source.path.parent().unwrap_or(Path::new(""));
    let mut out = Vec::new();
    for (k, line) in source.text.lines().enumerate().skip(after as usize) {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let rest = rest.trim();
        let name = match (rest.chars().next(), rest.get(1..)) {
            (Some('"'), Some(r)) => r.split('"').next(),
            (Some('<'), Some(r)) => r.split('>').next(),
            _ => None,
        };
        let Some(name) = name else {
            continue;
        };
        let candidate = dir.join(name);
        let same = if candidate.exists() {
            same_file(&candidate, header)
        } else {
            Path::new(name).file_name() == header.file_name()
        };
        if same {
            out.push(k as u32 + 1);
        }
    }
    out
}

/// The file's lines, each region's lines replaced by its code, with
/// `#line` directives that keep the rest at its own lines.
pub(super) fn spliced_lines(source: &SourceFile, replacements: &[(u32, u32, String)]) -> String {
    let file = c_path(&source.path);
    let mut out = format!("#line 1 \"{}\"\n", file);
    let lines: Vec<&str> = source.text.split_inclusive('\n').collect();
    let mut line = 1u32;
    let mut i = 0usize;
    while i < lines.len() {
        if let Some((_, end, code)) = replacements.iter().find(|(b, _, _)| *b == line) {
            out.push_str(code);
            out.push('\n');
            let next = end + 1;
            out.push_str(&format!("#line {} \"{}\"\n", next, file));
            i += (next - line) as usize;
            line = next;
            continue;
        }
        out.push_str(lines[i]);
        i += 1;
        line += 1;
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// `text` as a C string literal, one source line per line.
pub(super) fn c_string_literal(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let esc: String = line
            .chars()
            .map(|c| match c {
                '\\' => "\\\\".to_string(),
                '"' => "\\\"".to_string(),
                '\n' => "\\n".to_string(),
                '\t' => "\\t".to_string(),
                '?' => "\\?".to_string(),
                c => c.to_string(),
            })
            .collect();
        out.push_str(&format!("    \"{}\"\n", esc));
    }
    if out.is_empty() {
        out.push_str("    \"\"");
    }
    out.trim_end().to_string()
}
