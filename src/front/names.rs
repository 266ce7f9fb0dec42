//! The names a translation unit uses, so that the names pencilc makes up
//! never meet the user's.
//!
//! Generated code lives among the user's: host code replaces each region
//! in the user's file (or follows it, `back::outline`), where every
//! variable, function and macro of the file is in scope; kernels get the
//! user's variables and device code. Two rules keep the generated names
//! apart from all of them:
//!
//! - names made up per file (loop iterators `c0`, block and thread ids
//!   `b0` and `t0`, host values `h0`, kernels `kernel0`, buffers
//!   `dev_A`, tiles `shared_A`, a renamed local `t_1`) are chosen so that
//!   none is a name of the file: `FileNames` holds every identifier of the
//!   preprocessed file, every macro the preprocessor saw defined (built-in
//!   ones, `-D` options, and each `#define` of the file and its headers,
//!   `#undef`'d ones too) and the user's device code;
//! - every other generated name starts with `pencilc_` or `PENCILC_`, a
//!   prefix the user's code may not use (`check_reserved`).

use super::preprocess::Preprocessed;
use crate::diag::{Code, Diagnostic, Loc, Result};
use std::collections::BTreeSet;
use std::path::Path;

/// The prefixes of pencilc's own names.
pub const RESERVED_PREFIXES: [&str; 2] = ["pencilc_", "PENCILC_"];

/// The macros of pencilc's generated code that the user may define: the
/// switches the README documents for building the generated files.
pub const USER_SWITCHES: [&str; 8] = [
    "PENCILC_TIME_REGION",
    "PENCILC_TIME_SETUP",
    "PENCILC_NO_ALIGN_LOOPS",
    "PENCILC_NO_FP_CONTRACT",
    "PENCILC_MAX_SPECIALISED",
    "PENCILC_POOL_SLOTS",
    "PENCILC_STAGE_CHUNK",
    "PENCILC_STAGE_MIN",
];

/// The headers pencilc ships (`pencil-headers/`), whose names are its own.
const PENCILC_HEADERS: [&str; 5] = [
    "pencil.h",
    "pencil_compat.h",
    "pencil_prototypes.h",
    "pencil_opencl.h",
    "pencil_cuda.h",
];

/// Every name of a translation unit (see the module comment).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileNames {
    pub taken: BTreeSet<String>,
    /// The names of every macro the file, its headers, the compiler and
    /// `-D` define (part of `taken`).
    pub macros: BTreeSet<String>,
    /// The macros the compiler defines before the file's first line (its
    /// own and `-D`'s): the only ones that reach the prelude pencilc puts
    /// in front of the user's code.
    pub predefined_macros: BTreeSet<String>,
    /// Names the file declares at file scope that the generated host
    /// file's own headers declare too (`host_clashes`), set once the
    /// file is known to have regions.
    pub host_clashes: std::sync::OnceLock<BTreeSet<String>>,
    /// PENCIL's and pet's builtins that the file calls without declaring
    /// them (`front::implicit`), set by the parse: the model knows them.
    pub implicit_builtins: std::sync::OnceLock<BTreeSet<String>>,
    /// Those of them that the file as written defines in none of its
    /// conditional branches either: every host file defines them.
    pub implicit_host_defines: std::sync::OnceLock<BTreeSet<String>>,
}

impl FileNames {
    /// The names of the preprocessed file `pp` and of the user's device
    /// code `device_code` (`--opencl-include-file`, `--cuda-include-file`).
    pub fn collect(pp: &Preprocessed, device_code: &str) -> FileNames {
        let mut taken: BTreeSet<String> = BTreeSet::new();
        for_each_identifier(&pp.text, |w, _| {
            taken.insert(w.to_string());
        });
        for_each_identifier(device_code, |w, _| {
            taken.insert(w.to_string());
        });
        let mut predefined_macros = BTreeSet::new();
        let mut macros = BTreeSet::new();
        for m in &pp.macros {
            taken.insert(m.name.clone());
            macros.insert(m.name.clone());
            let file = pp.origin.get(m.row).map(|o| o.0 as usize);
            let pseudo = file
                .and_then(|f| pp.files.get(f))
                .is_some_and(|p| is_pseudo_file(p));
            if pseudo && m.define {
                predefined_macros.insert(m.name.clone());
            }
        }
        if !pp.macros_printed {
            // The preprocessor did not say which macros it saw: the
            // `#define` lines of the files it read stand in.
            for f in &pp.files {
                if let Ok(bytes) = std::fs::read(f) {
                    macros.extend(defined_in(&String::from_utf8_lossy(&bytes)));
                }
            }
        }
        taken.extend(macros.iter().cloned());
        FileNames {
            taken,
            macros,
            predefined_macros,
            host_clashes: std::sync::OnceLock::new(),
            implicit_builtins: std::sync::OnceLock::new(),
            implicit_host_defines: std::sync::OnceLock::new(),
        }
    }

    pub fn contains(&self, name: &str) -> bool {
        self.taken.contains(name)
    }
}

fn is_pseudo_file(p: &Path) -> bool {
    let s = p.to_string_lossy();
    s.starts_with('<') && s.ends_with('>')
}

/// The names `#define` and `#undef` lines of a source text name.
fn defined_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#').or_else(|| t.strip_prefix("%:")) else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(rest) = rest
            .strip_prefix("define")
            .or_else(|| rest.strip_prefix("undef"))
        else {
            continue;
        };
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && rest.starts_with([' ', '\t']) {
            out.push(name);
        }
    }
    out
}

/// Calls `f` with each C identifier of `text` and its byte offset,
/// skipping string and character literals, comments and numbers (`1e5f`
/// is one token, not an `e5f`).
pub fn for_each_identifier(text: &str, mut f: impl FnMut(&str, usize)) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if text[i..].starts_with("/*") {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
        } else if text[i..].starts_with("//") {
            i = text[i..].find('\n').map_or(b.len(), |e| i + e);
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            f(&text[start..i], start);
        } else if c.is_ascii_digit()
            || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            // A preprocessing number: digits, letters, `.`, and a sign
            // after an exponent (`1e-5`, `0x1p+3`).
            i += 1;
            while i < b.len() {
                let d = b[i];
                if matches!(d, b'+' | b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P') {
                    i += 1;
                } else if d.is_ascii_alphanumeric() || d == b'_' || d == b'.' {
                    i += 1;
                } else {
                    break;
                }
            }
        } else {
            i += 1;
        }
    }
}

/// Whether `name` starts with one of pencilc's reserved prefixes.
pub fn is_reserved(name: &str) -> bool {
    RESERVED_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Refuses the user's names that start with `pencilc_` or `PENCILC_`
/// (the generated code's own, `RESERVED_PREFIXES`): identifiers of the
/// input and of the headers it includes that are not system headers nor
/// pencilc's own (`PENCILC_HEADERS`), and macros defined there or with
/// `-D` (but the switches of `USER_SWITCHES`).
pub fn check_reserved(pp: &Preprocessed, pencil_headers: Option<&Path>) -> Result<()> {
    let users = |file: usize| -> bool {
        let Some(p) = pp.files.get(file) else {
            return false;
        };
        // pencilc's own headers, wherever the build finds them (the
        // embedded ones, or the repository's `pencil-headers/` by `-I`).
        if pencil_headers.is_some_and(|h| p.starts_with(h))
            || p.file_name()
                .and_then(|f| f.to_str())
                .is_some_and(|f| PENCILC_HEADERS.contains(&f))
        {
            return false;
        }
        if is_pseudo_file(p) {
            return true;
        }
        !pp.included.iter().any(|f| f.system && f.path == *p)
    };
    for m in &pp.macros {
        let Some(&(file, _)) = pp.origin.get(m.row) else {
            continue;
        };
        if !is_reserved(&m.name)
            || USER_SWITCHES.contains(&m.name.as_str())
            || !users(file as usize)
        {
            continue;
        }
        let loc = pp.loc(m.row, 0, 0);
        let on_command_line = pp
            .files
            .get(file as usize)
            .is_some_and(|p| is_pseudo_file(p));
        let (loc, how) = if on_command_line {
            (None, format!("-D{}", m.name))
        } else {
            (
                Some(macro_loc(&loc, &m.name)),
                format!("#define {}", m.name),
            )
        };
        return Err(reserved_error(
            loc,
            &m.name,
            &format!("the macro `{}` ({})", m.name, how),
        ));
    }
    let mut found: Option<(usize, usize, String)> = None;
    let lines: Vec<&str> = pp.text.lines().collect();
    for (row, line) in lines.iter().enumerate() {
        if !line.contains("pencilc_") && !line.contains("PENCILC_") {
            continue;
        }
        let Some(&(file, _)) = pp.origin.get(row) else {
            continue;
        };
        if !users(file as usize) {
            continue;
        }
        for_each_identifier(line, |w, col| {
            if found.is_none() && is_reserved(w) {
                found = Some((row, col, w.to_string()));
            }
        });
        if found.is_some() {
            break;
        }
    }
    match found {
        Some((row, col, name)) => Err(reserved_error(
            Some(pp.loc(row, col, name.len())),
            &name,
            &format!("`{}`", name),
        )),
        None => Ok(()),
    }
}

/// The place of `name` on the line of its `#define` (the preprocessor
/// prints the directive, not where the name was).
fn macro_loc(at: &Loc, name: &str) -> Loc {
    let col = std::fs::read(&at.file)
        .ok()
        .and_then(|bytes| {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let line = text
                .lines()
                .nth(at.line.checked_sub(1)? as usize)?
                .to_string();
            let mut col = None;
            for_each_identifier(&line, |w, c| {
                if col.is_none() && w == name {
                    col = Some(c);
                }
            });
            col
        })
        .unwrap_or(0);
    Loc {
        col: col as u32 + 1,
        len: name.len() as u32,
        ..at.clone()
    }
}

fn reserved_error(loc: Option<Loc>, name: &str, what: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ReservedName,
        loc,
        format!(
            "{} starts with `{}`, which pencilc reserves for the names of its generated code",
            what,
            &name[..8]
        ),
    )
    .with_hint(format!(
        "rename it: names that start with `pencilc_` or `PENCILC_` are pencilc's (the only ones you may define are the build switches {})",
        USER_SWITCHES.join(", ")
    ))
}

/// A prefix for names made of it, a number and one of `suffixes`
/// (`c0`; `kernel3`, `kernel3_launch`) that none of `names` can be:
/// `base`, grown by `_` until no name is the prefix, digits and a suffix.
pub fn fresh_prefix<'a>(
    names: impl Iterator<Item = &'a str> + Clone,
    base: &str,
    suffixes: &[&str],
) -> String {
    let mut prefix = base.to_string();
    let numbered = |n: &str, prefix: &str| {
        n.strip_prefix(prefix).is_some_and(|rest| {
            let tail = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            tail.len() < rest.len() && (tail.is_empty() || suffixes.contains(&tail))
        })
    };
    while names.clone().any(|n| numbered(n, &prefix)) {
        prefix.push('_');
    }
    prefix
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idents(text: &str) -> Vec<String> {
        let mut v = Vec::new();
        for_each_identifier(text, |w, _| v.push(w.to_string()));
        v
    }

    #[test]
    fn identifiers_skip_literals_comments_and_numbers() {
        assert_eq!(
            idents("x = \"c0 \\\" t0\" + 'a' + 1e5f + 0x1p-3 + .5e+2 /* b0 */ + y // h0\nz"),
            ["x", "y", "z"]
        );
        assert_eq!(idents("L\"s\" ab_1 $d"), ["L", "ab_1", "$d"]);
    }

    #[test]
    fn define_lines_name_their_macros() {
        assert_eq!(
            defined_in(
                "#define c0 0.5\n  #  undef t0\n%:define F(x) x\n#defined x\n#include <a>\n"
            ),
            ["c0", "t0", "F"]
        );
    }

    #[test]
    fn a_fresh_prefix_avoids_every_numbered_name() {
        let names = ["c0", "c_12", "c__x", "kernel0_launch", "t1b", "kernel_2mm"];
        let it = || names.iter().copied();
        assert_eq!(fresh_prefix(it(), "c", &[]), "c__");
        assert_eq!(fresh_prefix(it(), "t", &[]), "t");
        assert_eq!(
            fresh_prefix(it(), "kernel", &["_launch", "_combine"]),
            "kernel_"
        );
        assert_eq!(fresh_prefix(it(), "kernel", &[]), "kernel");
    }

    #[test]
    fn reserved_prefixes() {
        assert!(is_reserved("pencilc_x"));
        assert!(is_reserved("PENCILC_VALUE_n"));
        assert!(!is_reserved("Pencilc_x"));
        assert!(!is_reserved("__pencilc__"));
    }
}
