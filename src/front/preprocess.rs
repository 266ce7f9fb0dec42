//! Runs the system C preprocessor so that users' macros (PolyBench's
//! `POLYBENCH_2D`, `_PB_N`, `DATA_TYPE`...) expand exactly as their C
//! compiler would expand them, and keeps the line markers so that every
//! diagnostic points into the user's own file.

use crate::diag::{Code, Diagnostic, Loc, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone, Debug, Default)]
pub struct CppOptions {
    /// The preprocessor command, split on whitespace (default `cc -E`).
    pub cpp: Option<String>,
    pub include_dirs: Vec<PathBuf>,
    /// `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
}

pub struct Preprocessed {
    pub text: String,
    /// For each line of `text` (0-based), the file and 1-based line it came
    /// from, as the C compiler would report it (`#line` directives obeyed).
    pub origin: Vec<(u32, u32)>,
    /// For each line of `text` that comes from the main input file, its
    /// 1-based physical line there (0 for lines of other files): the line
    /// the generated code replaces, whatever `#line` made it look like.
    pub physical: Vec<u32>,
    /// For each line of `text` that comes from a header the main file
    /// includes directly (not a system header), the main file's physical
    /// line of that `#include`; 0 elsewhere. Regions in such a header are
    /// compiled per inclusion and pasted there (`back::splice`).
    pub include_site: Vec<u32>,
    pub files: Vec<PathBuf>,
    pub main_file: PathBuf,
    /// Every file the preprocessor entered through `#include`, once each,
    /// in the order it first entered them, as it spelled them (relative
    /// to the working directory where the include path was): what the
    /// output depends on besides the main file (`-MD`). Names that only
    /// `#line` gave are not here: nothing was read under them.
    pub included: Vec<IncludedFile>,
    /// (row, byte column) in `text` of each byte the preprocessor printed
    /// that is not UTF-8; `text` has a space there instead. Only a region
    /// has to be UTF-8: elsewhere such bytes are copied through unread.
    pub invalid_utf8: Vec<(usize, usize)>,
    /// The macro directives the preprocessor printed (`-dD`: built-in
    /// macros, `-D` options and every `#define` and `#undef` of the file and
    /// its headers), in order; their rows are blank in `text`. Generated
    /// names are chosen apart from every macro name (`front::names`).
    pub macros: Vec<MacroDirective>,
    /// Whether the preprocessor printed its macro directives (a `--cpp`
    /// command may not know `-dD`; `front::names` then reads the files'
    /// own `#define` lines).
    pub macros_printed: bool,
    /// The main file's own lines, by physical line - 1, and where each row
    /// of `text` starts: a column on a row where a macro expanded is a
    /// column of the expansion, which `loc` maps back to the line the
    /// user wrote (`original_column`).
    pub main_lines: Vec<String>,
    pub row_starts: Vec<usize>,
}

/// A `#define NAME ...` or `#undef NAME` the preprocessor printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroDirective {
    /// Its row of `text` (blank there), which `Preprocessed::loc` maps to
    /// the line of the directive (`<built-in>` and `<command-line>` for the
    /// compiler's own and `-D`'s).
    pub row: usize,
    pub name: String,
    pub define: bool,
}

/// A file the preprocessor read for the main file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncludedFile {
    pub path: PathBuf,
    /// Found in a system directory (the line marker's flag 3): `-MMD`
    /// leaves these out, as gcc's does.
    pub system: bool,
}

impl Preprocessed {
    /// Maps a 0-based row and column of the preprocessed text to the user's file.
    pub fn loc(&self, row: usize, col: usize, len: usize) -> Loc {
        match self.origin.get(row) {
            Some(&(f, line)) => {
                let (col, len) = self.user_column(row, col, len);
                Loc {
                    file: self.files[f as usize].clone(),
                    line,
                    col: col as u32 + 1,
                    len: len as u32,
                }
            }
            None => Loc::unknown(),
        }
    }

    /// `col` and `len` on row `row` of `text`, on the user's line where
    /// the row is one of the main file's that a macro changed.
    fn user_column(&self, row: usize, col: usize, len: usize) -> (usize, usize) {
        let physical = self.physical_line(row) as usize;
        let Some(user) = physical.checked_sub(1).and_then(|l| self.main_lines.get(l)) else {
            return (col, len);
        };
        let Some(&start) = self.row_starts.get(row) else {
            return (col, len);
        };
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |e| start + e);
        original_column(&self.text[start..end], user, col, len)
    }

    /// Whether a row of the preprocessed text comes from the main input
    /// file, also where a `#line` directive renamed it.
    pub fn is_main_file(&self, row: usize) -> bool {
        self.physical.get(row).is_some_and(|&l| l > 0)
    }

    /// The main file's line of the `#include` that brought in a row of a
    /// header it includes directly (`include_site`), if the row is one.
    pub fn include_site(&self, row: usize) -> Option<u32> {
        self.include_site.get(row).copied().filter(|&l| l > 0)
    }

    /// Whether a row is the user's code that pencilc may compile: the main
    /// file's, or a directly included user header's.
    pub fn is_user_code(&self, row: usize) -> bool {
        self.is_main_file(row) || self.include_site(row).is_some()
    }

    /// Whether a row comes from a system header (`<stdio.h>`, what the
    /// preprocessor marks as one), at any depth of inclusion.
    pub fn is_system_header(&self, row: usize) -> bool {
        let Some(path) = self
            .origin
            .get(row)
            .and_then(|&(f, _)| self.files.get(f as usize))
        else {
            return false;
        };
        self.included.iter().any(|f| f.system && f.path == *path)
    }

    /// The physical line in the main file of a row (0 if not from it).
    pub fn physical_line(&self, row: usize) -> u32 {
        self.physical.get(row).copied().unwrap_or(0)
    }
}

/// The macros and include directories every run of the C compiler on the
/// input gets (the preprocessor's, and `cc_check`'s).
pub(super) fn add_flags(cmd: &mut Command, opts: &CppOptions, pencil_headers: Option<&Path>) {
    // `__PENCIL__` lets pencil.h expose the builtins as calls pencilc recognises.
    cmd.arg("-D__PENCIL__").arg("-D__pencilc__");
    // pet defines `pencil_access`, and PENCIL code written for it puts its
    // summary attributes under `#ifdef pencil_access`. Defined as itself,
    // the attribute reaches the parse as written.
    cmd.arg("-Dpencil_access=pencil_access");
    for d in &opts.defines {
        cmd.arg(format!("-D{}", d));
    }
    for i in &opts.include_dirs {
        cmd.arg("-I").arg(i);
    }
    if let Some(h) = pencil_headers {
        cmd.arg("-I").arg(h);
    }
}

pub fn preprocess(
    path: &Path,
    opts: &CppOptions,
    pencil_headers: Option<&Path>,
) -> Result<Preprocessed> {
    let cpp = opts.cpp.clone().unwrap_or_else(|| "cc -E".to_string());
    let mut words = cpp.split_whitespace();
    let program = words.next().ok_or_else(|| {
        Diagnostic::error(Code::Usage, None, "empty --cpp command")
            .with_hint("use e.g. --cpp 'gcc -E'")
    })?;
    let words: Vec<&str> = words.collect();
    // `-dD` prints the macro directives among the text (`front::names`
    // keeps generated names apart from every macro); a `--cpp` command
    // that does not know it runs without.
    let run = |macros: bool| {
        let mut cmd = Command::new(program);
        cmd.args(&words);
        if macros {
            cmd.arg("-dD");
        }
        add_flags(&mut cmd, opts, pencil_headers);
        cmd.arg(path);
        cmd.output()
    };
    let mut macros_printed = true;
    let mut out = run(true);
    if opts.cpp.is_some() && out.as_ref().is_ok_and(|o| !o.status.success()) {
        macros_printed = false;
        out = run(false);
    }
    let out = out.map_err(|e| {
        Diagnostic::error(
            Code::Preprocess,
            None,
            format!("cannot run the C preprocessor `{}`: {}", cpp, e),
        )
        .with_hint("install a C compiler (`apt-get install gcc`) or name one with --cpp 'CMD -E'")
    })?;
    if !out.status.success() {
        return Err(Diagnostic::error(
            Code::Preprocess,
            None,
            format!(
                "the C preprocessor failed on {}:\n{}",
                path.display(),
                String::from_utf8_lossy(&out.stderr).trim_end()
            ),
        )
        .with_hint("pass the include directories and macros the file needs with -I and -D"));
    }
    let (text, invalid_utf8) = decode_output(&out.stdout);
    let source = std::fs::read(path).unwrap_or_default();
    let mut pp = map_lines(text, path, &line_directives(&source));
    pp.invalid_utf8 = invalid_utf8;
    pp.macros_printed = macros_printed;
    pp.main_lines = String::from_utf8_lossy(&source)
        .split('\n')
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect();
    Ok(pp)
}

/// Where the token at byte `col` (of `len` bytes) of `expanded`, a row of
/// the preprocessor's output, is on `user`, the line it came from. The
/// preprocessor prints runs of blanks as one space and expands macros:
/// the two are matched from the start, and from the end, a run of blanks
/// matching a run (`UPD(B, i); goto out;`: `goto` after a macro); a token
/// inside an expansion is at its first occurrence on the user's line, or
/// else at the line's end. Never past that end.
fn original_column(expanded: &str, user: &str, col: usize, len: usize) -> (usize, usize) {
    let fit = |c: usize, l: usize| {
        let c = c.min(user.len().saturating_sub(1));
        (c, l.min(user.len().saturating_sub(c)).max(1))
    };
    if expanded == user {
        return fit(col, len);
    }
    if let Some(c) = aligned(expanded.as_bytes(), user.as_bytes(), col) {
        return fit(c, len);
    }
    let rev = |t: &str| t.bytes().rev().collect::<Vec<u8>>();
    if col < expanded.len() {
        // From the end: the token's first byte, counted backwards.
        if let Some(c) = aligned(&rev(expanded), &rev(user), expanded.len() - 1 - col) {
            return fit(user.len() - 1 - c, len);
        }
    }
    let token = expanded
        .get(col..(col + len.max(1)).min(expanded.len()))
        .unwrap_or("")
        .trim();
    match (!token.is_empty()).then(|| user.find(token)).flatten() {
        Some(p) => fit(p, len),
        None => fit(user.trim_end().len().saturating_sub(1), 1),
    }
}

/// The byte of `b` that byte `at` of `a` matches, where the two agree up
/// to it but for the lengths of runs of blanks.
fn aligned(a: &[u8], b: &[u8], at: usize) -> Option<usize> {
    let blank = |c: u8| c == b' ' || c == b'\t';
    let (mut i, mut j) = (0, 0);
    loop {
        if i < a.len() && j < b.len() && blank(a[i]) && blank(b[j]) {
            while i < a.len() && blank(a[i]) && i != at {
                i += 1;
            }
            while j < b.len() && blank(b[j]) {
                j += 1;
            }
            if i == at {
                return Some(j);
            }
            continue;
        }
        if i == at {
            return Some(j);
        }
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else {
            return None;
        }
    }
}

/// The preprocessor's output as text, with each byte that is not UTF-8
/// (a Latin-1 string literal, say) replaced by a space so that columns
/// stay byte columns, and the places of those bytes.
fn decode_output(bytes: &[u8]) -> (String, Vec<(usize, usize)>) {
    let mut text = String::with_capacity(bytes.len());
    let mut invalid = Vec::new();
    let (mut row, mut col) = (0usize, 0usize);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            text.push(c);
            if c == '\n' {
                row += 1;
                col = 0;
            } else {
                col += c.len_utf8();
            }
        }
        for _ in chunk.invalid() {
            invalid.push((row, col));
            text.push(' ');
            col += 1;
        }
    }
    (text, invalid)
}

/// A `#line` directive of the main file (`#line N "name"`, or GCC's
/// `# N "name"`): its physical line, the line number it gives the next
/// line, and the file name it gives, if any.
#[derive(Clone, Debug, PartialEq)]
struct LineDirective {
    at: u32,
    number: u32,
    name: Option<String>,
}

/// The `#line` directives written in the main file. A directive inside
/// `#if 0` is listed too; `map_lines` only follows those the
/// preprocessor's markers show it obeyed.
fn line_directives(source: &[u8]) -> Vec<LineDirective> {
    let mut out = Vec::new();
    for (i, raw) in source.split(|&b| b == b'\n').enumerate() {
        let line = String::from_utf8_lossy(raw);
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#').or_else(|| t.strip_prefix("%:")) else {
            continue;
        };
        if let Some((number, name)) = parse_marker_text(rest) {
            out.push(LineDirective {
                at: i as u32 + 1,
                number,
                name,
            });
        }
    }
    out
}

/// Reads GCC-style line markers (`# 12 "file.c" 1 3`): the flag 1 enters
/// an included file, 2 returns from one; a marker without flags at the
/// main file's level is a `#line` directive of the user's or the
/// preprocessor's own resynchronisation after skipped lines.
fn map_lines(text: String, main: &Path, directives: &[LineDirective]) -> Preprocessed {
    let main_file = PathBuf::from(main);
    let mut files: Vec<PathBuf> = vec![main_file.clone()];
    let mut origin = Vec::new();
    let mut physical = Vec::new();
    let mut cur_file = 0u32;
    let mut cur_line = 1u32;
    // Include depth; the main file is depth 0 whatever name it has.
    let mut depth = 0usize;
    // The main file's physical line minus its presumed line, and the next
    // directive of the source that a marker may be.
    let mut offset: i64 = 0;
    let mut next_directive = 0usize;
    let mut main_name = main_file.clone();
    let mut seen_main = false;
    let mut in_pseudo = false;
    let mut cleaned = String::with_capacity(text.len());
    let mut included: Vec<IncludedFile> = Vec::new();
    // Each row's include depth, and where the current inclusion from the
    // main file began (its first row; whether a system header).
    let mut row_depth: Vec<usize> = Vec::new();
    let mut include_site: Vec<u32> = Vec::new();
    let mut entered: Option<(usize, bool)> = None;
    let mut macros = Vec::new();
    for line in text.lines() {
        if let Some((name, define)) = macro_directive(line) {
            // `-dD` prints the directive in place of its (first) line.
            macros.push(MacroDirective {
                row: origin.len(),
                name: name.to_string(),
                define,
            });
            origin.push((cur_file, cur_line));
            let phys = cur_line as i64 + offset;
            let in_main = depth == 0 && seen_main && !in_pseudo;
            physical.push(if in_main && phys > 0 { phys as u32 } else { 0 });
            row_depth.push(depth);
            include_site.push(0);
            cur_line += 1;
            cleaned.push('\n');
            continue;
        }
        if let Some(m) = parse_marker(line) {
            let fp = PathBuf::from(&m.name);
            if m.flags.contains(&1) {
                if depth == 0 && seen_main {
                    entered = Some((origin.len(), m.flags.contains(&3)));
                }
                depth += 1;
                if !is_pseudo_file(&m.name) && !included.iter().any(|f| f.path == fp) {
                    included.push(IncludedFile {
                        path: fp.clone(),
                        system: m.flags.contains(&3),
                    });
                }
            } else if m.flags.contains(&2) {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    // Back in the main file: the marker numbers the line
                    // after the `#include`.
                    let site = m.line as i64 + offset - 1;
                    if let Some((first, false)) = entered.take() {
                        if site > 0 {
                            for r in first..origin.len() {
                                if row_depth[r] == 1 {
                                    include_site[r] = site as u32;
                                }
                            }
                        }
                    }
                    entered = None;
                }
            } else if depth == 0 && !is_pseudo_file(&m.name) {
                if seen_main {
                    let here = cur_line as i64 - 1 + offset;
                    if let Some(j) =
                        follow_directive(directives, next_directive, &m, &main_name, offset, here)
                    {
                        offset = directives[j].at as i64 + 1 - m.line as i64;
                        next_directive = j + 1;
                    }
                }
                seen_main = true;
                main_name = fp.clone();
            }
            if depth == 0 {
                in_pseudo = is_pseudo_file(&m.name);
            }
            let idx = if fp == main_file {
                0
            } else if let Some(i) = files.iter().position(|x| *x == fp) {
                i
            } else {
                files.push(fp);
                files.len() - 1
            };
            cur_file = idx as u32;
            origin.push((cur_file, 0));
            physical.push(0);
            row_depth.push(depth);
            include_site.push(0);
            cur_line = m.line;
            // Blank out the markers so that the C parser does not see them.
            cleaned.push('\n');
            continue;
        }
        origin.push((cur_file, cur_line));
        let phys = cur_line as i64 + offset;
        let in_main = depth == 0 && seen_main && !in_pseudo;
        physical.push(if in_main && phys > 0 { phys as u32 } else { 0 });
        row_depth.push(depth);
        include_site.push(0);
        cur_line += 1;
        cleaned.push_str(&replace_digraphs(line));
        cleaned.push('\n');
    }
    if !text.ends_with('\n') {
        cleaned.pop();
    }
    let row_starts = std::iter::once(0)
        .chain(cleaned.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    Preprocessed {
        main_lines: Vec::new(),
        row_starts,
        text: cleaned,
        origin,
        physical,
        include_site,
        files,
        main_file,
        included,
        invalid_utf8: Vec::new(),
        macros,
        macros_printed: true,
    }
}

/// The name of a macro directive `-dD` printed (`#define NAME ...`,
/// `#undef NAME`), and whether it defines it. The preprocessor's output
/// has no other line of this form: what it prints of the program is never
/// a directive.
fn macro_directive(line: &str) -> Option<(&str, bool)> {
    let (rest, define) = match line.strip_prefix("#define ") {
        Some(r) => (r, true),
        None => (line.strip_prefix("#undef ")?, false),
    };
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    (end > 0).then(|| (&rest[..end], define))
}

/// `<built-in>`, `<command-line>`: the preprocessor's own pseudo-files.
fn is_pseudo_file(name: &str) -> bool {
    name.starts_with('<') && name.ends_with('>')
}

/// Which directive of the source, if any, produced the marker `m` at the
/// main file's level; `None` when the marker only resynchronises after
/// lines the preprocessor skipped. `offset` is the physical minus the
/// presumed line so far and `here` the physical line reached. A directive
/// lies after `here` (earlier ones sat in skipped `#if` branches); if it
/// keeps the file name, it also lies no further than where a
/// resynchronisation would land, or the marker is that resynchronisation.
fn follow_directive(
    directives: &[LineDirective],
    from: usize,
    m: &Marker,
    main_name: &Path,
    offset: i64,
    here: i64,
) -> Option<usize> {
    let marker_name = Path::new(&m.name);
    let renames = marker_name != main_name;
    (from..directives.len()).find(|&j| {
        let d = &directives[j];
        let at = d.at as i64;
        if d.number != m.line || at < here {
            return false;
        }
        match &d.name {
            Some(n) if Path::new(n) != marker_name => false,
            None if renames => false,
            // A resynchronisation only moves forward.
            _ => renames || (m.line as i64) < here + 1 - offset || at + 1 <= m.line as i64 + offset,
        }
    })
}

struct Marker {
    line: u32,
    name: String,
    flags: Vec<u32>,
}

fn parse_marker(line: &str) -> Option<Marker> {
    let rest = line.strip_prefix('#')?;
    let (n, _) = parse_marker_text(rest)?;
    // The name again, with the flags after it.
    let after_name = rest.find('"').and_then(|q| {
        let (_, len) = read_c_string(&rest[q + 1..])?;
        Some(&rest[q + 1 + len..])
    });
    let name = rest
        .find('"')
        .and_then(|q| read_c_string(&rest[q + 1..]))
        .map(|(s, _)| s)?;
    let flags = after_name
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    Some(Marker {
        line: n,
        name,
        flags,
    })
}

/// `line N "name"` or ` N "name"` (after the `#`): the number and the
/// unescaped name. A marker always has a name; a `#line` directive may not.
fn parse_marker_text(rest: &str) -> Option<(u32, Option<String>)> {
    let rest = rest.trim_start();
    let rest = match rest.strip_prefix("line") {
        Some(r) if r.starts_with([' ', '\t']) => r.trim_start(),
        _ => rest,
    };
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    let after = rest[digits.len()..].trim_start();
    if after.is_empty() {
        return Some((n, None));
    }
    let file = after.strip_prefix('"')?;
    let (name, _) = read_c_string(file)?;
    Some((n, Some(name)))
}

/// The contents of a C string literal whose opening quote has been read,
/// unescaped (GCC writes `"` and `\` in file names as `\"` and `\\`, and
/// other bytes as octal escapes), and the length read including the
/// closing quote.
fn read_c_string(s: &str) -> Option<(String, usize)> {
    let b = s.as_bytes();
    let mut out: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => return Some((String::from_utf8_lossy(&out).into_owned(), i + 1)),
            b'\\' if i + 1 < b.len() => {
                let c = b[i + 1];
                if c.is_ascii_digit() && c < b'8' {
                    let mut v = 0u32;
                    let mut k = i + 1;
                    while k < b.len() && k < i + 4 && (b'0'..b'8').contains(&b[k]) {
                        v = v * 8 + (b[k] - b'0') as u32;
                        k += 1;
                    }
                    out.push(v as u8);
                    i = k;
                } else {
                    out.push(match c {
                        b'n' => b'\n',
                        b't' => b'\t',
                        other => other,
                    });
                    i += 2;
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    None
}

/// C's digraphs as the punctuators they spell (`<:` `[`, `:>` `]`, `<%`
/// `{`, `%>` `}`, `%:` `#`, `%:%:` `##`), outside string and character
/// literals, padded with spaces so that columns do not move. The
/// preprocessor keeps them as written, and tree-sitter does not know them.
fn replace_digraphs(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains(['<', '%', ':']) {
        return line.into();
    }
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    let mut quote: Option<u8> = None;
    let mut changed = false;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == b'\\' && i + 1 < b.len() {
                out.push_str(&line[i..i + 2]);
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
            }
            let len = utf8_len(c);
            out.push_str(&line[i..i + len]);
            i += len;
            continue;
        }
        if c == b'"' || c == b'\'' {
            quote = Some(c);
            out.push(c as char);
            i += 1;
            continue;
        }
        let rest = &b[i..];
        let rep = if rest.starts_with(b"%:%:") {
            Some(("##  ", 4))
        } else if rest.starts_with(b"<:") {
            Some(("[ ", 2))
        } else if rest.starts_with(b":>") {
            Some(("] ", 2))
        } else if rest.starts_with(b"<%") {
            Some(("{ ", 2))
        } else if rest.starts_with(b"%>") {
            Some(("} ", 2))
        } else if rest.starts_with(b"%:") {
            Some(("# ", 2))
        } else {
            None
        };
        match rep {
            Some((r, n)) => {
                out.push_str(r);
                i += n;
                changed = true;
            }
            None => {
                let len = utf8_len(c);
                out.push_str(&line[i..i + len]);
                i += len;
            }
        }
    }
    if changed {
        out.into()
    } else {
        line.into()
    }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_map_back_to_original_lines() {
        let text = "# 1 \"a.c\"\nint x;\n# 5 \"a.c\"\nint y;\nint z;\n".to_string();
        let p = map_lines(text, Path::new("a.c"), &[]);
        assert_eq!(p.loc(1, 0, 1).line, 1);
        assert_eq!(p.loc(3, 4, 1).line, 5);
        assert_eq!(p.loc(4, 0, 1).line, 6);
        assert!(p.is_main_file(4));
        assert!(!p.text.contains("# 5"));
    }

    #[test]
    fn included_files_are_not_main() {
        let text = "# 1 \"a.c\"\n# 1 \"b.h\" 1\nint q;\n# 2 \"a.c\" 2\nint r;\n".to_string();
        let p = map_lines(text, Path::new("a.c"), &[]);
        assert!(!p.is_main_file(2));
        assert!(p.is_main_file(4));
        assert_eq!(p.loc(4, 0, 1).line, 2);
    }

    /// GCC's output for a file whose line 2 is `#line 100 "foo.c"`: the
    /// region after it is still the main file's, at its physical lines.
    #[test]
    fn line_directives_keep_physical_lines() {
        let src = b"int x;\n#line 100 \"foo.c\"\nvoid f(void) {\n\n\n\n\n\n\n\n\n  x = 1;\n}\n";
        let text = "# 0 \"a.c\"\n# 0 \"<built-in>\"\n# 1 \"/usr/include/stdc-predef.h\" 1 3 4\nint s;\n# 0 \"<command-line>\" 2\n# 1 \"a.c\"\nint x;\n# 100 \"foo.c\"\nvoid f(void) {\n# 109 \"foo.c\"\n  x = 1;\n}\n".to_string();
        let p = map_lines(text, Path::new("a.c"), &line_directives(src));
        assert!(!p.is_main_file(3), "stdc-predef.h");
        assert_eq!(p.physical_line(6), 1);
        assert_eq!(p.physical_line(8), 3);
        assert_eq!(p.loc(8, 0, 1).line, 100);
        assert_eq!(p.loc(8, 0, 1).file, PathBuf::from("foo.c"));
        // The resynchronisation after the blank lines is no directive.
        assert_eq!(p.physical_line(10), 12);
        assert_eq!(p.loc(10, 0, 1).line, 109);
    }

    /// A directive that numbers backwards, and one inside `#if 0` that
    /// the preprocessor never obeyed.
    #[test]
    fn line_directives_backwards_and_skipped() {
        let src = b"#if 0\n#line 7\n#endif\nint a;\n#line 1\nint b;\n";
        let text = "# 1 \"a.c\"\n\n\n\nint a;\n# 1 \"a.c\"\nint b;\n".to_string();
        let p = map_lines(text, Path::new("a.c"), &line_directives(src));
        assert_eq!(p.physical_line(4), 4);
        assert_eq!(p.physical_line(6), 6);
        assert_eq!(p.loc(6, 0, 1).line, 1);
    }

    /// gcc's markers for `#include "b.h"` twice (the second skipped by
    /// its guard), `<stdio.h>` and a `#line` rename: the files read are
    /// those entered with flag 1, once each, system ones marked.
    #[test]
    fn included_files_come_from_entering_markers() {
        let text = "# 0 \"a.c\"\n# 0 \"<built-in>\"\n# 0 \"<command-line>\"\n# 1 \"/usr/include/stdc-predef.h\" 1 3 4\n# 0 \"<command-line>\" 2\n# 1 \"a.c\"\n# 1 \"inc/b.h\" 1\nint q;\n# 2 \"a.c\" 2\n# 1 \"inc/b.h\" 1\n# 3 \"a.c\" 2\n# 1 \"/usr/include/stdio.h\" 1 3 4\n# 4 \"a.c\" 2\n# 10 \"renamed.c\"\nint r;\n".to_string();
        let p = map_lines(text, Path::new("a.c"), &[]);
        let got: Vec<(String, bool)> = p
            .included
            .iter()
            .map(|f| (f.path.display().to_string(), f.system))
            .collect();
        assert_eq!(
            got,
            vec![
                ("/usr/include/stdc-predef.h".to_string(), true),
                ("inc/b.h".to_string(), false),
                ("/usr/include/stdio.h".to_string(), true),
            ]
        );
        // `int q;` came from the `#include` on line 1; nothing of a
        // system header or of the main file has an include site.
        assert_eq!(p.include_site(7), Some(1));
        assert!(p.is_user_code(7));
        assert_eq!(p.include_site(3), None);
        assert_eq!(p.include_site(14), None);
    }

    #[test]
    fn escaped_file_names() {
        let text = "# 1 \"we\\\"ird\\\\x.c\"\nint r;\n".to_string();
        let p = map_lines(text, Path::new("we\"ird\\x.c"), &[]);
        assert!(p.is_main_file(1));
        assert_eq!(p.files.len(), 1);
        assert_eq!(
            read_c_string("a\\101\\\"\" tail"),
            Some(("aA\"".to_string(), 8))
        );
    }

    #[test]
    fn digraphs_become_punctuators_outside_literals() {
        assert_eq!(replace_digraphs("A<:i:> = <% 1 %>;"), "A[ i]  = {  1 } ;");
        assert_eq!(replace_digraphs("%:pragma scop"), "# pragma scop");
        assert_eq!(
            replace_digraphs("s = \"<:\"; c = '%'; x<:0:>"),
            "s = \"<:\"; c = '%'; x[ 0] "
        );
    }

    #[test]
    fn invalid_utf8_is_located() {
        let (text, bad) = decode_output(b"ok\nab\xe9c\n");
        assert_eq!(text, "ok\nab c\n");
        assert_eq!(bad, vec![(1, 2)]);
    }

    #[test]
    fn columns_after_a_macro_are_the_users() {
        let user = "    UPD(B, i); goto out; out: ;";
        let expanded = "    B[i] = ((B[i]) * (B[i])) - B[(i) > 0 ? (i) - 1 : 0]; goto out; out: ;";
        let col = expanded.find("goto").unwrap();
        assert_eq!(original_column(expanded, user, col, 4), (15, 4));
        // Blanks the preprocessor printed as one space, before a macro.
        let user = "\tfor (int  i = 0;  i < n; i++) A[i] =  SQ(A[i]);";
        let expanded = " for (int i = 0; i < n; i++) A[i] = ((A[i])*(A[i]));";
        let col = expanded.find("i <").unwrap();
        assert_eq!(
            original_column(expanded, user, col, 1).0,
            user.find("i <").unwrap()
        );
        // Inside the expansion: the token's place on the user's line.
        let col = expanded.find("((").unwrap();
        assert!(original_column(expanded, user, col, 2).0 < user.len());
        // Identical lines: unchanged.
        assert_eq!(original_column(user, user, 3, 2), (3, 2));
    }
}
