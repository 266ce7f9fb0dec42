//! Dependency files in Make syntax (`-MD`, `-MMD`, `-MF`, `-MT`, `-MQ`,
//! `-MP`, with gcc's meaning), so that a build system reruns pencilc when
//! any file it read changes: the input, every header the preprocessor
//! entered (`front::Preprocessed::included`), and pencilc's own inputs
//! (`--load-schedule`, `--device FILE`, the device code files).
//!
//! Make and Ninja both read what is written here; names are escaped as
//! gcc escapes them (`\ ` for a space, `$$`, `\#`) and colons as `\:`,
//! which GNU Make needs and Ninja's depfile parser understands. A name
//! with a line break cannot be written at all, and is an error.

use crate::diag::{Code, Diagnostic, Result};
use std::path::{Path, PathBuf};

/// What the user asked for on the command line.
#[derive(Clone, Debug, Default)]
pub struct DepOptions {
    /// `-MD` or `-MMD` was given.
    pub enabled: bool,
    /// `-MMD`: headers from system directories are left out.
    pub user_only: bool,
    /// `-MF`: where to write; by default the host output with `.d`.
    pub file: Option<PathBuf>,
    /// The rule's targets in Make syntax (`-MT` as given, `-MQ` quoted);
    /// empty: every file the compilation wrote, quoted.
    pub targets: Vec<String>,
    /// `-MP`: an empty rule for each prerequisite but the input, so that
    /// Make does not stop when a header is deleted.
    pub phony: bool,
}

/// A file the compilation read.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Input {
    #[serde(with = "crate::path_serde")]
    pub path: PathBuf,
    /// From a system include directory (`-MMD` leaves it out).
    pub system: bool,
}

/// Where `-MD` writes without `-MF`: the host output with its extension
/// replaced by `.d`, as gcc names it after the object file.
pub fn default_path(host: &Path) -> PathBuf {
    host.with_extension("d")
}

impl DepOptions {
    /// The dependency file's path for a compilation whose host output is
    /// `host`, if one is asked for.
    pub fn path_for(&self, host: &Path) -> Option<PathBuf> {
        self.enabled
            .then(|| self.file.clone().unwrap_or_else(|| default_path(host)))
    }

    /// The text of the dependency file: the rule `targets: inputs`, the
    /// targets being `-MT`/`-MQ`'s or else `outputs`; the first input is
    /// the file compiled.
    pub fn render(&self, outputs: &[PathBuf], inputs: &[Input]) -> Result<Vec<u8>> {
        let mut targets: Vec<Vec<u8>> =
            self.targets.iter().map(|t| t.as_bytes().to_vec()).collect();
        if targets.is_empty() {
            for o in outputs {
                targets.push(quote(o)?);
            }
        }
        let mut prereqs: Vec<Vec<u8>> = Vec::new();
        for i in inputs.iter().filter(|i| !(self.user_only && i.system)) {
            let q = quote(&i.path)?;
            if !prereqs.contains(&q) {
                prereqs.push(q);
            }
        }
        let mut out = targets.join(&b' ');
        out.push(b':');
        for (k, p) in prereqs.iter().enumerate() {
            if k > 0 {
                out.extend_from_slice(b" \\\n");
            }
            out.push(b' ');
            out.extend_from_slice(p);
        }
        out.push(b'\n');
        if self.phony {
            for p in prereqs.iter().skip(1) {
                out.push(b'\n');
                out.extend_from_slice(p);
                out.extend_from_slice(b":\n");
            }
        }
        Ok(out)
    }
}

/// A file name as Make reads it (gcc's `-MQ` quoting, plus `\:`): a
/// space or tab gets a backslash (and the backslashes before it are
/// doubled), `$` is `$$`, `#` and `:` get a backslash.
pub fn quote(path: &Path) -> Result<Vec<u8>> {
    let bytes = path_bytes(path);
    if bytes.iter().any(|&b| b == b'\n' || b == b'\r') {
        return Err(Diagnostic::error(
            Code::Usage,
            None,
            format!(
                "cannot name {:?} in a dependency file: Make has no way to write a line break in a file name",
                path
            ),
        )
        .with_hint("rename the file, or leave out -MD/-MMD"));
    }
    let mut out = Vec::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b' ' | b'\t' => {
                let run = bytes[..i].iter().rev().take_while(|&&c| c == b'\\').count();
                out.extend(std::iter::repeat_n(b'\\', run + 1));
            }
            b'$' => out.push(b'$'),
            b'#' | b':' => out.push(b'\\'),
            _ => {}
        }
        out.push(b);
    }
    Ok(out)
}

/// `-MQ TARGET`: the target quoted as a file name.
pub fn quote_target(t: &str) -> Result<String> {
    Ok(String::from_utf8_lossy(&quote(Path::new(t))?).into_owned())
}

#[cfg(unix)]
fn path_bytes(p: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    p.as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
fn path_bytes(p: &Path) -> Vec<u8> {
    p.to_string_lossy().as_bytes().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(p: &str, system: bool) -> Input {
        Input {
            path: PathBuf::from(p),
            system,
        }
    }

    fn text(d: &DepOptions, outputs: &[&str], inputs: &[Input]) -> String {
        let outputs: Vec<PathBuf> = outputs.iter().map(PathBuf::from).collect();
        String::from_utf8(d.render(&outputs, inputs).unwrap()).unwrap()
    }

    #[test]
    fn odd_names_are_escaped_as_make_reads_them() {
        let q = |s: &str| String::from_utf8(quote(Path::new(s)).unwrap()).unwrap();
        assert_eq!(q("a b/c\td.h"), "a\\ b/c\\\td.h");
        assert_eq!(q("x$y#z:w.h"), "x$$y\\#z\\:w.h");
        // Backslashes before a space are doubled, as gcc does.
        assert_eq!(q("a\\ b"), "a\\\\\\ b");
        assert_eq!(q("plain\\name"), "plain\\name");
        assert!(quote(Path::new("two\nlines.h")).is_err());
    }

    #[test]
    fn rule_names_outputs_and_every_input_once() {
        let d = DepOptions {
            enabled: true,
            ..DepOptions::default()
        };
        let inputs = [
            input("a.c", false),
            input("/usr/include/stdio.h", true),
            input("inc/a b.h", false),
            input("inc/a b.h", false),
        ];
        assert_eq!(
            text(&d, &["out/a_host.c", "out/a_kernel.cl"], &inputs),
            "out/a_host.c out/a_kernel.cl: a.c \\\n /usr/include/stdio.h \\\n inc/a\\ b.h\n"
        );
        let mmd = DepOptions {
            user_only: true,
            phony: true,
            targets: vec!["all objs".into(), quote_target("my $target").unwrap()],
            ..d
        };
        assert_eq!(
            text(&mmd, &["ignored"], &inputs),
            "all objs my\\ $$target: a.c \\\n inc/a\\ b.h\n\ninc/a\\ b.h:\n"
        );
    }

    #[test]
    fn default_path_replaces_the_extension() {
        let d = DepOptions {
            enabled: true,
            ..DepOptions::default()
        };
        assert_eq!(
            d.path_for(Path::new("out/a_host.c")),
            Some(PathBuf::from("out/a_host.d"))
        );
        assert_eq!(DepOptions::default().path_for(Path::new("x_host.c")), None);
    }
}
