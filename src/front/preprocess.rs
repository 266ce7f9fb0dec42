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
    /// For each line of `text` (0-based), the file and 1-based line it came from.
    pub origin: Vec<(u32, u32)>,
    pub files: Vec<PathBuf>,
    pub main_file: PathBuf,
}

impl Preprocessed {
    /// Maps a 0-based row and column of the preprocessed text to the user's file.
    pub fn loc(&self, row: usize, col: usize, len: usize) -> Loc {
        match self.origin.get(row) {
            Some(&(f, line)) => Loc {
                file: self.files[f as usize].clone(),
                line,
                col: col as u32 + 1,
                len: len as u32,
            },
            None => Loc::unknown(),
        }
    }

    /// Whether a row of the preprocessed text comes from the main input file.
    pub fn is_main_file(&self, row: usize) -> bool {
        self.origin
            .get(row)
            .map(|&(f, _)| self.files[f as usize] == self.main_file)
            .unwrap_or(false)
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
    let mut cmd = Command::new(program);
    cmd.args(words);
    // `__PENCIL__` lets pencil.h expose the builtins as calls pencilc recognises.
    cmd.arg("-D__PENCIL__").arg("-D__pencilc__");
    for d in &opts.defines {
        cmd.arg(format!("-D{}", d));
    }
    for i in &opts.include_dirs {
        cmd.arg("-I").arg(i);
    }
    if let Some(h) = pencil_headers {
        cmd.arg("-I").arg(h);
    }
    cmd.arg(path);
    let out = cmd.output().map_err(|e| {
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
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    Ok(map_lines(text, path))
}

/// Reads GCC-style line markers (`# 12 "file.c" 1 3`) and `#line` directives.
fn map_lines(text: String, main: &Path) -> Preprocessed {
    let main_file = PathBuf::from(main);
    let mut files: Vec<PathBuf> = vec![main_file.clone()];
    let mut origin = Vec::new();
    let mut cur_file = 0u32;
    let mut cur_line = 1u32;
    for line in text.lines() {
        if let Some((n, f)) = parse_marker(line) {
            let fp = PathBuf::from(f);
            let same_as_main = fp == main_file;
            let idx = if same_as_main {
                0
            } else if let Some(i) = files.iter().position(|x| *x == fp) {
                i
            } else {
                files.push(fp);
                files.len() - 1
            };
            cur_file = idx as u32;
            origin.push((cur_file, 0));
            cur_line = n;
            continue;
        }
        origin.push((cur_file, cur_line));
        cur_line += 1;
    }
    // Blank out the markers so that the C parser does not see them.
    let cleaned: String = text
        .lines()
        .map(|l| if parse_marker(l).is_some() { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    Preprocessed {
        text: cleaned,
        origin,
        files,
        main_file,
    }
}

fn parse_marker(line: &str) -> Option<(u32, &str)> {
    let rest = line.strip_prefix('#')?;
    let rest = rest.trim_start();
    let rest = rest
        .strip_prefix("line")
        .map(|r| r.trim_start())
        .unwrap_or(rest);
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    let after = rest[digits.len()..].trim_start();
    let file = after.strip_prefix('"')?;
    let end = file.find('"')?;
    Some((n, &file[..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_map_back_to_original_lines() {
        let text = "# 1 \"a.c\"\nint x;\n# 5 \"a.c\"\nint y;\nint z;\n".to_string();
        let p = map_lines(text, Path::new("a.c"));
        assert_eq!(p.loc(1, 0, 1).line, 1);
        assert_eq!(p.loc(3, 4, 1).line, 5);
        assert_eq!(p.loc(4, 0, 1).line, 6);
        assert!(p.is_main_file(4));
        assert!(!p.text.contains("# 5"));
    }

    #[test]
    fn included_files_are_not_main() {
        let text = "# 1 \"a.c\"\n# 1 \"b.h\" 1\nint q;\n# 2 \"a.c\" 2\nint r;\n".to_string();
        let p = map_lines(text, Path::new("a.c"));
        assert!(!p.is_main_file(2));
        assert!(p.is_main_file(4));
        assert_eq!(p.loc(4, 0, 1).line, 2);
    }
}
