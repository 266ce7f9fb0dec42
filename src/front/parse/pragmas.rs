//! `#pragma pencil` lines: `independent` with its reduction clauses, where
//! PENCIL allows them (before a loop or between its header and its body),
//! and suggestions for misspelt words.

use super::*;

impl<'a> Cx<'a> {
    /// `#pragma pencil independent [reduction(op: v, ...)]*`; `ivdep` and
    /// `region` are accepted and carry nothing pencilc uses (None). Read
    /// as tolerantly as C compilers read pragmas: any spacing, commas
    /// between clauses, clauses in any order, trailing semicolons. A word
    /// pencilc does not know makes the whole pragma a warning and ignored
    /// (dropping `independent` only keeps dependences, which is safe;
    /// keeping it without a misspelt reduction clause would not be).
    pub(super) fn pencil_pragma(&self, n: Node) -> Result<Option<Independent>> {
        let arg = n
            .child_by_field_name("argument")
            .map(|a| self.text(a))
            .unwrap_or("");
        self.pencil_pragma_text(arg, self.loc(n))
    }

    /// `pencil_pragma` of the pragma's argument `arg` (`pencil ...`) at `at`.
    pub(super) fn pencil_pragma_text(&self, arg: &str, at: Loc) -> Result<Option<Independent>> {
        let arg = arg.trim();
        let rest = arg.strip_prefix("pencil").unwrap_or(arg);
        let rest = rest
            .trim()
            .trim_end_matches(|c: char| c == ';' || c.is_whitespace());
        let bad = |msg: &str| {
            Diagnostic::error(Code::UnsupportedStatement, Some(at.clone()), msg.to_string())
                .with_hint("write `#pragma pencil independent` or `#pragma pencil independent reduction(+: x, y)`; operators: + - * min max")
        };
        let ignore = |msg: String, hint: String| {
            self.warnings.borrow_mut().push(
                Diagnostic::warning(
                    Code::UnsupportedStatement,
                    Some(at.clone()),
                    format!("{}; the pragma is ignored", msg),
                )
                .with_hint(hint),
            );
            Ok(None)
        };
        let mut independent = false;
        let mut reductions: Vec<(RedOp, Vec<String>)> = Vec::new();
        let mut sections: Vec<(String, Vec<String>)> = Vec::new();
        let mut cur = rest;
        loop {
            cur = cur.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
            if cur.is_empty() {
                break;
            }
            let word_len = cur
                .char_indices()
                .find(|&(i, c)| {
                    !(c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()))
                })
                .map(|(i, _)| i)
                .unwrap_or(cur.len());
            let word = &cur[..word_len];
            cur = &cur[word_len..];
            match word {
                "independent" => independent = true,
                "ivdep" | "region" => {}
                "reduction" => {
                    let after = cur.trim_start();
                    let Some(inner_start) = after.strip_prefix('(') else {
                        return Err(bad("malformed `reduction` clause: `(` expected"));
                    };
                    let Some(close) = inner_start.find(')') else {
                        return Err(bad("malformed `reduction` clause: `)` expected"));
                    };
                    let inner = &inner_start[..close];
                    let Some((op, vars)) = inner.split_once(':') else {
                        return Err(bad("a `reduction` clause needs `op: variables`"));
                    };
                    let op = match op.trim() {
                        "+" | "-" => RedOp::Add,
                        "*" => RedOp::Mul,
                        "min" => RedOp::Min,
                        "max" => RedOp::Max,
                        "&" => RedOp::BitAnd,
                        "|" => RedOp::BitOr,
                        "^" => RedOp::BitXor,
                        other => {
                            return Err(bad(&format!("unsupported reduction operator `{}`", other)))
                        }
                    };
                    let items: Vec<&str> = vars.split(',').map(|v| v.trim()).collect();
                    if items.iter().all(|v| v.is_empty()) {
                        return Err(bad("a `reduction` clause needs at least one variable"));
                    }
                    let mut vars = Vec::new();
                    for item in items {
                        let Some((name, subs)) = reduction_item(item) else {
                            return Err(bad(&format!(
                                "`{}` in a `reduction` clause is not a variable name or a part of an array (`A[i]`, subscripts that are names or integers)",
                                item
                            )));
                        };
                        // The variables the clause names where it stands
                        // (a local may have a new name, `declare`).
                        let name = self.resolve(&name).unwrap_or(name);
                        let subs: Vec<String> = subs
                            .into_iter()
                            .map(|s| self.resolve(&s).unwrap_or(s))
                            .collect();
                        if !subs.is_empty() {
                            sections.push((name.clone(), subs));
                        }
                        vars.push(name);
                    }
                    for v in &vars {
                        if let Some((other, _)) =
                            reductions.iter().find(|(o, vs)| *o != op && vs.contains(v))
                        {
                            return Err(bad(&format!(
                                "`{}` is a reduction of two operators ({} and {})",
                                v,
                                other.name(),
                                op.name()
                            )));
                        }
                    }
                    reductions.push((op, vars));
                    cur = &inner_start[close + 1..];
                }
                "" => {
                    let shown: String = cur.chars().take(20).collect();
                    return ignore(
                        format!("unexpected `{}` in `#pragma pencil`", shown.trim()),
                        "write `#pragma pencil independent` or `#pragma pencil independent reduction(+: x, y)`".into(),
                    );
                }
                other => {
                    let hint = match nearest_pragma_word(other) {
                        Some(w) => format!("did you mean `{}`?", w),
                        None => "known words: independent, reduction, ivdep, region".into(),
                    };
                    return ignore(format!("unknown `#pragma pencil` word `{}`", other), hint);
                }
            }
        }
        if !independent {
            if !reductions.is_empty() {
                return ignore(
                    "a `reduction` clause without `independent`".into(),
                    "write `#pragma pencil independent reduction(...)`".into(),
                );
            }
            if rest.is_empty() {
                return ignore(
                    "empty `#pragma pencil`".into(),
                    "write `#pragma pencil independent` before a loop whose iterations are independent".into(),
                );
            }
            return Ok(None);
        }
        Ok(Some(Independent {
            reductions,
            sections,
            loc: Some(at),
        }))
    }

    /// The `#pragma pencil` written between the header of the loop `n`
    /// and its body (`body_pragmas`), read as one before the loop.
    pub(super) fn body_pragma(&self, n: Node) -> Result<Option<(Independent, Loc)>> {
        let Some(body) = n.child_by_field_name("body") else {
            return Ok(None);
        };
        let mut out = None;
        for p in self
            .body_pragmas
            .iter()
            .filter(|p| p.start > n.start_byte() && p.end <= body.start_byte())
        {
            let at = self.loc_of_bytes(p.start, p.end);
            if let Some(ind) = self.pencil_pragma_text(&p.argument, at.clone())? {
                if out.is_some() {
                    return Err(Diagnostic::error(
                        Code::UnsupportedStatement,
                        Some(at),
                        "a second `#pragma pencil independent` on one loop",
                    )
                    .with_hint("give each loop one pragma, with all its reduction clauses"));
                }
                out = Some((ind, at));
            }
        }
        Ok(out)
    }

    /// The location of the text from byte `start` to `end` (underlined to
    /// the end of its first line).
    pub(super) fn loc_of_bytes(&self, start: usize, end: usize) -> Loc {
        let before = &self.src[..start];
        let row = before.iter().filter(|&&c| c == b'\n').count();
        let col = start
            - before
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |k| k + 1);
        let len = self.src[start..end]
            .iter()
            .position(|&c| c == b'\n' || c == b'\r')
            .unwrap_or(end - start);
        self.pp.loc(row, col, len.max(1))
    }
}

/// Whether the preprocessed text of a node holds a `#pragma scop` or
/// `#pragma endscop` line (also where tree-sitter could not make it a
/// pragma node).
pub(super) fn has_scop_pragma(text: &str) -> bool {
    text.lines().any(|l| {
        let Some(rest) = l.trim_start().strip_prefix('#') else {
            return false;
        };
        let Some(rest) = rest.trim_start().strip_prefix("pragma") else {
            return false;
        };
        matches!(rest.split_whitespace().next(), Some("scop" | "endscop"))
    })
}

pub(super) fn is_pragma(node: Node, src: &[u8], word: &str) -> bool {
    if node.kind() != "preproc_call" {
        return false;
    }
    let dir = node
        .child_by_field_name("directive")
        .and_then(|d| d.utf8_text(src).ok())
        .unwrap_or("");
    let dir = dir.trim().trim_start_matches('#').trim_start();
    if dir != "pragma" {
        return false;
    }
    let arg = node
        .child_by_field_name("argument")
        .and_then(|a| a.utf8_text(src).ok())
        .unwrap_or("");
    arg.split_whitespace().next() == Some(word)
}

/// A reduction clause's item: a variable, or a part of an array given by
/// leading subscripts that are names or integer literals (`hist[i]`, as
/// PENCIL image code writes it).
pub(super) fn reduction_item(item: &str) -> Option<(String, Vec<String>)> {
    let (name, mut rest) = match item.find('[') {
        Some(p) => (item[..p].trim(), item[p..].trim()),
        None => (item, ""),
    };
    if !is_c_identifier(name) {
        return None;
    }
    let mut subs = Vec::new();
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[')?;
        let close = inner.find(']')?;
        let sub = inner[..close].trim();
        if !(is_c_identifier(sub) || parse_int_literal(sub).is_some()) {
            return None;
        }
        subs.push(sub.to_string());
        rest = inner[close + 1..].trim_start();
    }
    Some((name.to_string(), subs))
}

pub(super) fn is_c_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && cs.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// The known `#pragma pencil` word a misspelt one most likely meant: the
/// nearest by edit distance, if within a third of its length (at least 2).
pub(super) fn nearest_pragma_word(word: &str) -> Option<&'static str> {
    let w = word.to_ascii_lowercase();
    ["independent", "reduction", "ivdep", "region"]
        .into_iter()
        .map(|k| (edit_distance(&w, k), k))
        .filter(|&(d, k)| d <= (k.len() / 3).max(2))
        .min()
        .map(|(_, k)| k)
}

pub(super) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut row = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            row.push(sub.min(prev[j + 1] + 1).min(row[j] + 1));
        }
        prev = row;
    }
    prev[b.len()]
}
