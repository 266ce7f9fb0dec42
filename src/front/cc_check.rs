//! The C compiler's own check of the input (`cc -fsyntax-only`), run
//! beside pencilc's front end. tree-sitter parses what C's grammar allows
//! but knows nothing of C's types, so `A[0.5]`, `floor(x, y)` or `2 * A`
//! with an array `A` would be translated; pencilc must never turn invalid
//! C into a program. An error the compiler reports inside a region is an
//! error (E0002) at its place; errors elsewhere are the user's own build's
//! business (pencilc copies that code unchanged), so they are one warning.

use super::CppOptions;
use crate::diag::{Code, Diagnostic, Loc, Result};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running check.
pub struct CcCheck {
    child: Child,
    path: PathBuf,
    started: Instant,
    /// The child leads a process group (`supervised`).
    group: bool,
    /// The child has been waited for.
    done: bool,
}

/// What the check said about code outside the regions.
pub enum Verdict {
    /// The compiler accepts the regions; its errors elsewhere, if any, as
    /// one warning.
    Checked(Option<Diagnostic>),
    /// The compiler did not finish in its time (60,000 nested braces take
    /// gcc half a minute): nothing says the regions are valid C.
    Unchecked(Diagnostic),
}

/// Starts the check with the preprocessor's compiler and flags, if the
/// preprocessor is a compiler's `-E` (the default `cc -E`); `None` for
/// another `--cpp`, or when the compiler cannot start (the preprocessor
/// reports that).
pub fn start(path: &Path, opts: &CppOptions, pencil_headers: Option<&Path>) -> Option<CcCheck> {
    let cpp = opts.cpp.clone().unwrap_or_else(|| "cc -E".to_string());
    let mut words: Vec<&str> = cpp.split_whitespace().collect();
    if words.last() != Some(&"-E") {
        return None;
    }
    words.pop();
    let (program, rest) = words.split_first()?;
    supervised(program, rest, path, opts, pencil_headers).or_else(|| {
        spawn(
            Command::new(program),
            rest,
            path,
            opts,
            pencil_headers,
            false,
        )
    })
}

/// The check under a shell that leads a process group of its own and
/// kills that group when pencilc dies: the compiler driver runs its
/// front end (`cc1`) as a child of its own, which neither the driver's
/// death nor a signal to it ends, and which on hostile input runs for
/// half a minute.
fn supervised(
    program: &str,
    rest: &[&str],
    path: &Path,
    opts: &CppOptions,
    pencil_headers: Option<&Path>,
) -> Option<CcCheck> {
    let mut sh = Command::new("sh");
    sh.args([
        "-c",
        "trap 'kill -KILL 0' TERM; \"$@\" & wait $!",
        "sh",
        program,
    ]);
    spawn(sh, rest, path, opts, pencil_headers, true)
}

fn spawn(
    mut cmd: Command,
    rest: &[&str],
    path: &Path,
    opts: &CppOptions,
    pencil_headers: Option<&Path>,
    group: bool,
) -> Option<CcCheck> {
    cmd.args(rest)
        // Warnings are the user's build's business (only error lines are
        // read), but C99 has no implicit declarations: a call to an
        // undeclared function (`__pencil_assume` without pencil.h, a typo)
        // is an error, as in gcc 14's and clang 16's defaults. Not `-w`: it
        // silences these errors too.
        .args([
            "-fsyntax-only",
            "-Werror=implicit-function-declaration",
            "-Werror=implicit-int",
        ])
        .args(["-fdiagnostics-color=never", "-fno-diagnostics-show-caret"])
        // pencil.h's prototypes name `int32_t` without <stdint.h>, which
        // pencilc's own parse does without (pencil_prototypes.h).
        .arg("-D__pencilc_cc_check__");
    super::preprocess::add_flags(&mut cmd, opts, pencil_headers);
    cmd.arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if group {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
        crate::process::signal_at_parent_death(&mut cmd, libc::SIGTERM);
    } else {
        crate::process::die_with_parent(&mut cmd);
    }
    let child = cmd.spawn().ok()?;
    Some(CcCheck {
        child,
        path: path.to_path_buf(),
        started: Instant::now(),
        group,
        done: false,
    })
}

impl CcCheck {
    /// Ends the compiler, its own children too where it leads a group.
    fn kill(&mut self) {
        if self.group {
            // SAFETY: a plain system call on the group this check leads.
            unsafe {
                libc::kill(-(self.child.id() as i32), libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.done = true;
    }
}

/// A check that is never finished (the compilation stopped early) ends
/// with it.
impl Drop for CcCheck {
    fn drop(&mut self) {
        if !self.done {
            self.kill();
        }
    }
}

impl CcCheck {
    /// Waits for the compiler. `regions`: the user's-file line ranges that
    /// pencilc translates. Returns the warning for errors outside them.
    /// `limit`: how long the compiler may take from its start.
    pub fn finish(mut self, regions: &[(u32, u32)], limit: Duration) -> Result<Verdict> {
        // stderr is read beside the wait, so that a full pipe cannot stall
        // the compiler.
        let mut stderr = self.child.stderr.take();
        let reader = std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(e) = stderr.as_mut() {
                let _ = e.read_to_end(&mut text);
            }
            text
        });
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.done = true;
                    break status;
                }
                Ok(None) if self.started.elapsed() < limit => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => {
                    self.kill();
                    return Ok(Verdict::Unchecked(
                        Diagnostic::warning(
                            Code::Syntax,
                            None,
                            format!(
                                "{}: the C compiler's check of the input did not finish within {:.1} s, so nothing confirms the regions are valid C; pencilc keeps them as they are (the user's code, on the host)",
                                self.path.display(),
                                limit.as_secs_f64()
                            ),
                        )
                        .with_hint("raise --schedule-timeout, or simplify the file (the C compiler is slow on it)"),
                    ));
                }
                Err(_) => return Ok(Verdict::Checked(None)),
            }
        };
        let stderr = reader.join().unwrap_or_default();
        if status.success() {
            return Ok(Verdict::Checked(None));
        }
        let text = String::from_utf8_lossy(&stderr);
        // PENCIL's and pet's builtins are known without their header
        // (`front::implicit`): their implicit declarations are no error.
        let errors: Vec<CcError> = parse_errors(&text)
            .into_iter()
            .filter(|e| {
                super::implicit::implicitly_declared(&e.message)
                    .and_then(super::implicit::builtin)
                    .is_none()
            })
            .collect();
        if errors.is_empty() {
            return Ok(Verdict::Checked(None));
        }
        let here = |file: &str| Path::new(file) == self.path;
        if let Some(e) = errors
            .iter()
            .find(|e| here(&e.file) && regions.iter().any(|(b, end)| (*b..=*end).contains(&e.line)))
        {
            return Err(Diagnostic::error(
                Code::Syntax,
                Some(Loc {
                    file: self.path.clone(),
                    line: e.line,
                    col: e.col,
                    len: 1,
                }),
                format!("the C compiler rejects this: {}", e.message),
            )
            .with_hint(hint_for(&e.message)));
        }
        let first = errors.first();
        Ok(Verdict::Checked(Some(
            Diagnostic::warning(
                Code::Syntax,
                first.filter(|e| here(&e.file)).map(|e| Loc {
                    file: self.path.clone(),
                    line: e.line,
                    col: e.col,
                    len: 1,
                }),
                match first {
                    Some(e) => format!(
                        "the C compiler rejects code outside the regions ({}); pencilc copies it unchanged",
                        e.message
                    ),
                    None => "the C compiler rejects this file outside the regions; pencilc copies that code unchanged".into(),
                },
            )
            .with_hint("the program will not build until that is fixed"),
        )))
    }
}

/// What the user can do about a compiler error in a region.
fn hint_for(message: &str) -> &'static str {
    if message.contains("implicit declaration of function") {
        if message.contains("__pencil_") {
            "the PENCIL builtins are declared in pencil.h: add `#include <pencil.h>` (pencilc finds its own copy)"
        } else {
            "C99 has no implicit declarations: declare the function before the region (or include its header)"
        }
    } else {
        "pencilc translates only valid C; fix the code (the C compiler's own build would fail too)"
    }
}

struct CcError {
    file: String,
    line: u32,
    col: u32,
    message: String,
}

/// `file:line:col: error: message` lines (gcc's and clang's format).
fn parse_errors(text: &str) -> Vec<CcError> {
    text.lines()
        .filter_map(|l| {
            let (head, message) = l.split_once(": error: ")?;
            let mut parts = head.rsplitn(3, ':');
            let col = parts.next()?.trim().parse().ok()?;
            let line = parts.next()?.trim().parse().ok()?;
            let file = parts.next()?.to_string();
            Some(CcError {
                file,
                line,
                col,
                message: message.trim().to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_errors_parse() {
        let e = parse_errors(
            "x.c: In function 'f':\nx.c:7:12: error: array subscript is not an integer\nx.c:9:1: warning: w\n",
        );
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].file.as_str(), e[0].line, e[0].col), ("x.c", 7, 12));
        assert_eq!(e[0].message, "array subscript is not an integer");
    }
}
