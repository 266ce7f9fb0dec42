//! Names of the user's that are words of the device language: found in the
//! kernels' text and renamed there, and restored where the host needs the
//! user's spelling; OpenCL's spelling of C's `long long`.

use super::*;

/// OpenCL C reserves `long long` (clang makes it 128 bits on SPIR
/// targets, so a buffer of C's 64-bit `long long` would be read wrongly);
/// OpenCL's `long` is C's `long long`.
pub(super) fn opencl_long_long(text: &str) -> String {
    let bytes = text.as_bytes();
    let is_ident = |i: usize| bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_';
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut from = 0;
    while let Some(off) = text[from..].find("long") {
        let p = from + off;
        let mut q = p + 4;
        while q < bytes.len() && (bytes[q] == b' ' || bytes[q] == b'\t') {
            q += 1;
        }
        let doubled = (p == 0 || !is_ident(p - 1))
            && q > p + 4
            && text[q..].starts_with("long")
            && (q + 4 == bytes.len() || !is_ident(q + 4));
        if doubled {
            out.push_str(&text[copied..p]);
            out.push_str("long");
            copied = q + 4;
            from = q + 4;
        } else {
            from = p + 4;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The isl keywords (`mod`, `and`, `max`, ...) that the region's generated
/// code spells as `kw_`; an error if the region itself also names `kw_`
/// (both would be the same name in isl).
pub(super) fn mangled_keywords(
    source: &SourceFile,
    scop: &Scop,
    host: &str,
) -> Result<Vec<String>> {
    let region: String = source
        .text
        .lines()
        .skip(scop.begin_line.saturating_sub(1) as usize)
        .take((scop.end_line + 1).saturating_sub(scop.begin_line) as usize)
        .collect::<Vec<_>>()
        .join("\n");
    // isl's keywords in any case (`INFINITY`, `Max`): the words `kw_`
    // of the code and of the parameters.
    let mut stems = std::collections::BTreeSet::new();
    let mut add = |w: &str| {
        if let Some(stem) = w.strip_suffix('_') {
            if crate::front::affine::is_isl_keyword(stem) {
                stems.insert(stem.to_string());
            }
        }
    };
    crate::front::names::for_each_identifier(host, |w, _| add(w));
    scop.params.iter().for_each(|p| add(p));
    let mut out = Vec::new();
    for kw in stems {
        let spelled = format!("{}_", kw);
        if has_word(&region, &spelled) {
            if !has_word(&region, &kw) {
                // The user's own `kw_`: nothing of the region is spelled so
                // by isl.
                continue;
            }
            return Err(Diagnostic::error(
                crate::diag::Code::UnsupportedStatement,
                Some(scop.loc.clone()),
                format!(
                    "the region names both `{}` and `{}`, which are one name to isl (it spells `{}` as `{}`)",
                    kw, spelled, kw, spelled
                ),
            )
            .with_hint(format!("rename `{}` in the region", spelled)));
        }
        out.push(kw);
    }
    Ok(out)
}

/// Where `word` occurs in `text` as a whole C identifier.
pub(super) fn word_positions<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    text.match_indices(word).map(|(i, _)| i).filter(move |&i| {
        let end = i + word.len();
        (i == 0 || !ident(b[i - 1])) && (end == b.len() || !ident(b[end]))
    })
}

pub(super) fn has_word(text: &str, word: &str) -> bool {
    word_positions(text, word).next().is_some()
}

/// `text` with each whole identifier `kw_` (for `kw` in `keywords`) back
/// to `kw`.
pub(super) fn unmangle(text: &str, keywords: &[String]) -> String {
    let mut out = text.to_string();
    for kw in keywords {
        let spelled = format!("{}_", kw);
        let mut next = String::with_capacity(out.len());
        let mut last = 0;
        for i in word_positions(&out, &spelled) {
            next.push_str(&out[last..i]);
            next.push_str(kw);
            last = i + spelled.len();
        }
        next.push_str(&out[last..]);
        out = next;
    }
    out
}
