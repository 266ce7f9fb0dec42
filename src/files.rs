//! Reading what users name on the command line and writing what pencilc
//! produces, safely: inputs must be regular files of a sane size (never
//! `/dev/zero` read until memory runs out), outputs are written to a
//! temporary beside them and renamed into place (an interrupted run leaves
//! the old file or the new one, never half of one), and never over an
//! input.

use crate::diag::{Code, Diagnostic, Result};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Larger inputs are refused: no C file, schedule or device description
/// that pencilc can do anything useful with comes near it.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The bytes of `path`, which must be a regular file of at most
/// `MAX_INPUT_BYTES`; `what` names it in errors.
pub fn read_limited(path: &Path, what: &str) -> Result<Vec<u8>> {
    let fail = |why: String| {
        Diagnostic::error(
            Code::Usage,
            None,
            format!("cannot read {} {}: {}", what, path.display(), why),
        )
    };
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let meta = file.metadata().map_err(|e| fail(e.to_string()))?;
    if !meta.is_file() {
        return Err(fail("not a regular file".into()));
    }
    let mut bytes = Vec::new();
    // The size may change while reading: take one byte more than allowed
    // to tell.
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(fail(format!("larger than {} MiB", MAX_INPUT_BYTES >> 20)));
    }
    Ok(bytes)
}

/// `read_limited` as UTF-8 text (device descriptions, schedules, device
/// code to include).
pub fn read_text(path: &Path, what: &str) -> Result<String> {
    let bytes = read_limited(path, what)?;
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::error(
            Code::Usage,
            None,
            format!(
                "{} {} is not UTF-8 text (byte {})",
                what,
                path.display(),
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Writes `contents` to `path` through a temporary file in the same
/// folder, renamed over `path` once complete.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let fail = |e: std::io::Error| {
        Diagnostic::error(
            Code::Usage,
            None,
            format!("cannot write {}: {}", path.display(), e),
        )
    };
    if let Some(parent) = path.parent() {
        if !parent.as_os_str().is_empty() {
            std::fs::create_dir_all(parent).map_err(fail)?;
        }
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = path.with_file_name(format!(".{}.pencilc-{}.tmp", name, std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(())
}

/// The path of the existing file `to` relative to the folder `from`
/// (which need not exist yet), both taken through their real locations
/// (`..` and symbolic links resolved), so that it reaches the same file
/// from `from` wherever the two folders sit together.
pub fn relative_path(from: &Path, to: &Path) -> Option<PathBuf> {
    let to = std::fs::canonicalize(to).ok()?;
    let from = real_folder(from)?;
    let (f, t): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut rel = PathBuf::new();
    for _ in common..f.len() {
        rel.push("..");
    }
    for c in &t[common..] {
        rel.push(c);
    }
    Some(rel)
}

/// `dir` as an absolute path without `.`, `..` or symbolic links: its
/// nearest existing ancestor resolved, the rest added by name.
fn real_folder(dir: &Path) -> Option<PathBuf> {
    let abs = if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(dir)
    };
    let mut existing = abs.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let mut out = real;
            for c in rest.iter().rev() {
                match c {
                    std::path::Component::ParentDir => {
                        out.pop();
                    }
                    std::path::Component::CurDir => {}
                    c => out.push(c),
                }
            }
            return Some(out);
        }
        rest.push(existing.components().next_back()?);
        existing = existing.parent()?;
    }
}

/// An error if any of `outputs` is one of `inputs` (the same file, by
/// device and inode where it exists, else by absolute path) or if two
/// outputs are the same file.
pub fn check_outputs(inputs: &[PathBuf], outputs: &[(PathBuf, String)]) -> Result<()> {
    let key = |p: &Path| -> Option<FileKey> { FileKey::of(p) };
    let input_keys: Vec<(FileKey, &PathBuf)> =
        inputs.iter().filter_map(|p| Some((key(p)?, p))).collect();
    let mut seen: Vec<(FileKey, &PathBuf, &str)> = Vec::new();
    for (out, what) in outputs {
        let Some(k) = key(out) else { continue };
        if let Some((_, input)) = input_keys.iter().find(|(ik, _)| *ik == k) {
            // `what` may name the input already ("kernel file for X").
            let out_text = out.display().to_string();
            let named = if what.ends_with(&out_text) {
                String::new()
            } else {
                format!(" {}", out_text)
            };
            return Err(Diagnostic::error(
                Code::Usage,
                None,
                format!(
                    "the {}{} would overwrite the input {}, a file this compilation reads",
                    what,
                    named,
                    input.display()
                ),
            )
            .with_hint("name another output file with -o or --output-dir"));
        }
        if let Some((_, other, other_what)) = seen.iter().find(|(sk, _, _)| *sk == k) {
            return Err(Diagnostic::error(
                Code::Usage,
                None,
                format!(
                    "the {} {} and the {} {} are the same file",
                    what,
                    out.display(),
                    other_what,
                    other.display()
                ),
            )
            .with_hint(
                "inputs with the same name need separate --output-dir runs, or rename one",
            ));
        }
        seen.push((k, out, what));
    }
    Ok(())
}

/// What identifies a file: device and inode if it exists, else its
/// absolute, lexically normalised path (through the canonical parent).
#[derive(Clone, PartialEq, Eq, Debug)]
enum FileKey {
    Inode(u64, u64),
    Path(PathBuf),
}

impl FileKey {
    fn of(p: &Path) -> Option<FileKey> {
        #[cfg(unix)]
        if let Ok(m) = std::fs::metadata(p) {
            use std::os::unix::fs::MetadataExt;
            return Some(FileKey::Inode(m.dev(), m.ino()));
        }
        let abs = if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::env::current_dir().ok()?.join(p)
        };
        let parent = abs.parent()?;
        let name = abs.file_name()?;
        let parent = std::fs::canonicalize(parent).unwrap_or_else(|_| parent.to_path_buf());
        Some(FileKey::Path(parent.join(name)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_folders_are_not_read() {
        assert!(read_limited(Path::new("/dev/zero"), "input").is_err());
        assert!(read_limited(Path::new("/"), "input").is_err());
    }

    #[test]
    fn an_output_over_an_input_or_another_output_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.c");
        std::fs::write(&input, "int x;\n").unwrap();
        let same = dir.path().join(".").join("in.c");
        assert!(check_outputs(&[input.clone()], &[(same, "host file".into())]).is_err());
        let a = dir.path().join("a_host.c");
        assert!(check_outputs(
            &[input.clone()],
            &[(a.clone(), "host file".into()), (a, "host file".into())]
        )
        .is_err());
        assert!(check_outputs(&[input], &[(dir.path().join("b.c"), "host file".into())]).is_ok());
    }

    #[test]
    fn relative_paths_from_folders_that_may_not_exist() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("src/dev.cuh");
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, "").unwrap();
        let out = dir.path().join("build/not/yet");
        assert_eq!(
            relative_path(&out, &f),
            Some(PathBuf::from("../../../src/dev.cuh"))
        );
        assert_eq!(
            relative_path(&dir.path().join("src/x/.."), &f),
            Some(PathBuf::from("dev.cuh"))
        );
        assert_eq!(relative_path(&out, &dir.path().join("missing")), None);
    }

    #[test]
    fn writes_replace_whole_files() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub/out.c");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(p.parent().unwrap()).unwrap().count(), 1);
    }
}
