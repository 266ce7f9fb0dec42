//! What makes one pencilc call a well-behaved build step once a file is
//! compiled: warnings count as the user asked (`-w`, `-Werror`), the
//! dependency file is written (`-MD`), and a step that fails leaves no
//! outputs behind, so that no build system takes them for up to date.
//!
//! It runs in the process the user started, after the watchdog has
//! collected the worker's report: the worker applies the warning policy
//! itself before writing anything, but the watchdog's own warnings (a
//! region stopped and compiled again lower on the ladder) arrive only
//! here, after the worker wrote its files.

use crate::depfile::DepOptions;
use crate::diag::Diagnostic;
use crate::driver::{self, FileReport, Options};
use std::path::{Path, PathBuf};

pub type FileResult = Result<FileReport, Vec<Diagnostic>>;

/// Finishes the compilation of `input`: its result with the warning
/// policy applied and its dependency file written, or the errors, with
/// the files it wrote removed.
pub fn finish(input: &Path, result: FileResult, opts: &Options, deps: &DepOptions) -> FileResult {
    let mut rep = result.map_err(|diags| opts.warnings.apply_to_failure(diags))?;
    match opts.warnings.apply(std::mem::take(&mut rep.warnings)) {
        Ok(w) => rep.warnings = w,
        Err(errors) => {
            remove_outputs(&rep.written);
            return Err(errors);
        }
    }
    let host = driver::output_paths(input, opts).host;
    if let Some(path) = deps.path_for(&host) {
        // Never over a file the compilation read (a header of that name).
        let planned = [(path.clone(), "dependency file".to_string())];
        let written = crate::files::check_outputs(&rep.input_paths(), &planned)
            .and_then(|()| deps.render(&rep.written, &rep.inputs))
            .and_then(|text| crate::files::write_atomic(&path, &text));
        if let Err(e) = written {
            remove_outputs(&rep.written);
            return Err(vec![e]);
        }
    }
    Ok(rep)
}

/// Removes what a failed step wrote (best effort: a file that cannot be
/// removed is no worse than before).
fn remove_outputs(written: &[PathBuf]) {
    for p in written {
        let _ = std::fs::remove_file(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::depfile::Input;
    use crate::diag::{Code, WarningPolicy};

    fn report(dir: &Path) -> FileReport {
        let out = dir.join("a_host.c");
        std::fs::write(&out, "int x;\n").unwrap();
        FileReport {
            written: vec![out],
            inputs: vec![Input {
                path: PathBuf::from("a.c"),
                system: false,
            }],
            warnings: vec![Diagnostic::warning(Code::Budget, None, "stopped")],
            ..FileReport::default()
        }
    }

    #[test]
    fn werror_removes_outputs_and_fails() {
        let dir = tempfile::tempdir().unwrap();
        let opts = Options {
            warnings: WarningPolicy::Error,
            output_dir: Some(dir.path().to_path_buf()),
            ..Options::default()
        };
        let r = finish(
            Path::new("a.c"),
            Ok(report(dir.path())),
            &opts,
            &DepOptions::default(),
        );
        assert!(r.is_err());
        assert!(!dir.path().join("a_host.c").exists());
    }

    #[test]
    fn dependency_file_beside_the_host_output() {
        let dir = tempfile::tempdir().unwrap();
        let opts = Options {
            output_dir: Some(dir.path().to_path_buf()),
            ..Options::default()
        };
        let deps = DepOptions {
            enabled: true,
            targets: vec!["t".into()],
            ..DepOptions::default()
        };
        let r = finish(Path::new("a.c"), Ok(report(dir.path())), &opts, &deps).unwrap();
        assert_eq!(r.warnings.len(), 1);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a_host.d")).unwrap(),
            "t: a.c\n"
        );
    }

    #[test]
    fn an_unwritable_dependency_file_fails_the_step() {
        let dir = tempfile::tempdir().unwrap();
        let opts = Options {
            output_dir: Some(dir.path().to_path_buf()),
            ..Options::default()
        };
        let deps = DepOptions {
            enabled: true,
            // A folder below a regular file: no one can create it.
            file: Some(dir.path().join("a_host.c/deps.d")),
            ..DepOptions::default()
        };
        let e = finish(Path::new("a.c"), Ok(report(dir.path())), &opts, &deps).unwrap_err();
        assert!(e[0].message.contains("cannot write"), "{}", e[0]);
        assert!(!dir.path().join("a_host.c").exists());
    }
}
