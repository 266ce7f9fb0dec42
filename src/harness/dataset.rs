//! The sizes a PolyBench program runs at, for the GPU model.
//!
//! PolyBench passes its sizes to the kernel function as variables
//! (`int tsteps = TSTEPS;`), so pencilc sees parameters. The arrays'
//! declared sizes bound most of them (`n <= N`), but a time loop's count
//! bounds nothing: without a value, the model assumes one (1000), twice
//! LARGE's 500 time steps for jacobi-1d, jacobi-2d, seidel-2d and adi.
//! The harness knows the dataset, so it tells pencilc every size of the
//! kernel's header (`--gpu-model-params tsteps=500,n=2000`), and the model
//! prices what runs.

use std::path::Path;

/// The integer size macros of `source`'s header (`foo.c` -> `foo.h`) for
/// `dataset` (`LARGE`), lower-cased as PolyBench's variables are named;
/// `-DNAME=VALUE` among `flags` overrides a macro of the header. Empty when
/// there is no header or it has no block for the dataset.
pub fn sizes(source: &Path, dataset: &str, flags: &[String]) -> Vec<(String, i64)> {
    let header = std::fs::read_to_string(source.with_extension("h")).unwrap_or_default();
    let mut out = header_sizes(&header, dataset);
    for f in flags {
        let Some((name, value)) = f.strip_prefix("-D").and_then(|d| d.split_once('=')) else {
            continue;
        };
        let Ok(v) = value.trim().parse::<i64>() else {
            continue;
        };
        let name = name.to_ascii_lowercase();
        if let Some(slot) = out.iter_mut().find(|(n, _)| *n == name) {
            slot.1 = v;
        }
    }
    out
}

/// `--gpu-model-params` with `sizes`, unless the run's own options give it.
pub fn model_params_args(sizes: &[(String, i64)], given: &[&[String]]) -> Vec<String> {
    let user_gives = given
        .iter()
        .flat_map(|a| a.iter())
        .any(|a| a.starts_with("--gpu-model-params"));
    if sizes.is_empty() || user_gives {
        return Vec::new();
    }
    let list: Vec<String> = sizes.iter().map(|(n, v)| format!("{}={}", n, v)).collect();
    vec!["--gpu-model-params".into(), list.join(",")]
}

/// The `# define NAME INTEGER` lines of the conditional block that
/// `defined(<DATASET>_DATASET)` (or `#ifdef <DATASET>_DATASET`) opens,
/// up to the next conditional directive.
fn header_sizes(header: &str, dataset: &str) -> Vec<(String, i64)> {
    let macro_name = format!("{}_DATASET", dataset.to_ascii_uppercase());
    let mut out = Vec::new();
    let mut inside = false;
    for line in header.lines() {
        let Some(directive) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let directive = directive.trim_start();
        let word = directive
            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .next()
            .unwrap_or("");
        match word {
            "if" | "ifdef" | "elif" | "else" | "endif" | "ifndef" => {
                inside = matches!(word, "if" | "ifdef" | "elif")
                    && opens_block_for(directive, word, &macro_name);
            }
            "define" if inside => {
                // (`# define N 2000 /* columns */`: the comment is no value.)
                let text = &directive["define".len()..];
                let text = text.split("/*").next().unwrap_or("");
                let text = text.split("//").next().unwrap_or("");
                let mut parts = text.split_whitespace();
                if let (Some(name), Some(value), None) = (parts.next(), parts.next(), parts.next())
                {
                    if let Ok(v) = value.parse::<i64>() {
                        out.push((name.to_ascii_lowercase(), v));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// True for `#ifdef LARGE_DATASET`, `#if defined(LARGE_DATASET)` and `#elif
/// defined(LARGE_DATASET)`, not for `!defined(...)` or `EXTRALARGE_DATASET`.
fn opens_block_for(directive: &str, word: &str, macro_name: &str) -> bool {
    let rest = directive[word.len()..].trim();
    if word == "ifdef" {
        return rest == macro_name;
    }
    rest == format!("defined({})", macro_name) || rest == format!("defined {}", macro_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This repository's seidel-2d header: `#if !defined(TSTEPS) ...`,
    /// then `#  elif defined(LARGE_DATASET)` blocks.
    fn seidel_2d() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("polybench/stencils/seidel-2d/seidel-2d.c")
    }

    // PolyBench/C 4.2.1 as distributed spells the blocks with #ifdef.
    const DISTRIBUTED: &str = "\
#  ifdef MINI_DATASET
#   define NI 20
#   define NJ 25
#  endif
#  ifdef LARGE_DATASET
#   define NI 1000 /* rows */
#   define NJ 1100 // columns
#  endif
#  ifdef EXTRALARGE_DATASET
#   define NI 2000
#  endif
";

    #[test]
    fn a_datasets_block_gives_its_sizes_lower_cased() {
        let n = |v: &[(&str, i64)]| -> Vec<(String, i64)> {
            v.iter().map(|(a, b)| (a.to_string(), *b)).collect()
        };
        let ours = std::fs::read_to_string(seidel_2d().with_extension("h")).unwrap();
        assert_eq!(
            header_sizes(&ours, "LARGE"),
            n(&[("tsteps", 500), ("n", 2000)])
        );
        assert_eq!(
            header_sizes(&ours, "EXTRALARGE"),
            n(&[("tsteps", 1000), ("n", 4000)])
        );
        assert_eq!(header_sizes(&ours, "MINI"), n(&[("tsteps", 20), ("n", 40)]));
        assert!(header_sizes(&ours, "HUGE").is_empty());
        assert_eq!(
            header_sizes(DISTRIBUTED, "LARGE"),
            n(&[("ni", 1000), ("nj", 1100)])
        );
        assert_eq!(header_sizes(DISTRIBUTED, "EXTRALARGE"), n(&[("ni", 2000)]));
    }

    #[test]
    fn command_line_sizes_win_and_the_users_params_are_kept() {
        let flags = vec!["-DTSTEPS=7".to_string(), "-DFOO=3".into()];
        let s = sizes(&seidel_2d(), "LARGE", &flags);
        assert_eq!(s, vec![("tsteps".into(), 7), ("n".into(), 2000)]);
        assert_eq!(
            model_params_args(&s, &[&[]]),
            vec!["--gpu-model-params".to_string(), "tsteps=7,n=2000".into()]
        );
        let user = vec!["--gpu-model-params=n=5".to_string()];
        assert!(model_params_args(&s, &[&[], &user]).is_empty());
        assert!(sizes(Path::new("/nonexistent/none.c"), "LARGE", &[]).is_empty());
    }
}
