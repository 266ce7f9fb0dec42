//! The input file: read, preprocessed, its names collected, parsed into
//! regions; the C compiler's check started beside it and its verdict taken
//! at the end.

use super::region::Compiled;
use super::{pencil_headers_dir, FileReport, Lap, Options};
use crate::back::Target;
use crate::depfile;
use crate::diag::{Code, Diagnostic, Result};
use crate::front::{self, parse::Region, SourceFile};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The input, parsed, and the C compiler's check of it under way.
pub(super) struct Input {
    pub source: SourceFile,
    pub regions: Vec<Region>,
    /// The file's names (its builtins called without a declaration
    /// among them), whether or not any region compiles.
    pub names: std::sync::Arc<front::names::FileNames>,
    cc_check: Option<front::cc_check::CcCheck>,
    /// What is done once per file (the parse, the C compiler's check) has
    /// the region's time, at least 5 s: a normal file parses and checks
    /// in milliseconds, and a tiny --schedule-timeout asks only for
    /// fallbacks.
    file_limit: Duration,
    /// The parser recovered from a syntax error (and said so).
    syntax_warned: bool,
}

pub(super) fn read(
    path: &Path,
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Input> {
    let bytes = crate::files::read_limited(path, "input")?;
    let source = SourceFile::from_bytes(path, &bytes)?;
    let headers = pencil_headers_dir();
    let cc_check = front::cc_check::start(path, &opts.cpp, headers.as_deref());
    let host_headers = front::host_clashes::start(&opts.cpp);
    let pp = front::preprocess(path, &opts.cpp, headers.as_deref())?;
    report.inputs = files_read(path, &pp, headers.as_deref(), opts);
    lap(report, "preprocess");
    let file_limit = opts.region_timeout.max(Duration::from_secs(5));
    // Generated names keep apart from every name of the file and of the
    // user's device code; the user's names keep off pencilc's prefixes.
    front::names::check_reserved(&pp, headers.as_deref())?;
    let names = std::sync::Arc::new(front::names::FileNames::collect(
        &pp,
        &device_code_text(opts)?,
    ));
    let parsed = front::parse_file_with(&pp, file_limit, names.clone(), opts.whole_program)?;
    if !parsed.regions.is_empty() {
        let _ = names.host_clashes.set(host_headers.clashes(&source.text));
    }
    let syntax_warned = parsed.warnings.iter().any(|w| w.code == Code::Syntax);
    report.warnings.extend(parsed.warnings);
    let mut regions = parsed.regions;
    for r in regions.iter_mut().filter(|r| r.inclusion.is_none()) {
        r.begin_line = source.directive_start(r.begin_line);
        r.end_line = source.directive_end(r.end_line);
    }
    lap(report, "parse");
    if regions.is_empty() {
        report.warnings.push(
            Diagnostic::warning(
                Code::UnbalancedRegion,
                None,
                format!(
                    "{}: no `#pragma scop` region; the output is the input unchanged",
                    path.display()
                ),
            )
            .with_hint(
                "mark the loop nest to parallelize with `#pragma scop` and `#pragma endscop`",
            ),
        );
    }
    // A region run by every thread of a team outside it, sharing its work
    // among them, keeps the user's code: the generated code would run all
    // of the work in each thread.
    regions.retain(|r| {
        let Some(first) = r.omp_outside.first() else {
            return true;
        };
        report.warnings.push(
            Diagnostic::warning(
                Code::UnsupportedStatement,
                Some(first.clone()),
                format!(
                    "this OpenMP directive binds to a team of threads outside the region: each thread of the team runs the region and takes its share of the work, where pencilc's code runs all of the region each time; the region in `{}` keeps the original code",
                    r.function
                ),
            )
            .with_hint("put the region outside the `#pragma omp parallel` construct, with `#pragma omp parallel for` on its loops or none (pencilc parallelizes them)"),
        );
        false
    });
    // A name the region declares and the code after it uses: every
    // version of the region is in a block of its own, where the name's
    // scope would end.
    regions.retain(|r| {
        let Some(o) = &r.outlived else {
            return true;
        };
        report.warnings.push(
            Diagnostic::warning(
                Code::UnsupportedStatement,
                Some(o.used.clone()),
                format!(
                    "`{}` is declared inside the region (line {}) and used after it: pencilc puts each version of the region in a block of its own, where the declaration's scope would end; the region in `{}` keeps the original code",
                    o.name, o.declared.line, r.function
                ),
            )
            .with_hint(format!(
                "declare `{}` before `#pragma scop`",
                o.name
            )),
        );
        false
    });
    for r in &regions {
        for p in &r.ignored_pragmas {
            // Those right before `#pragma scop` apply to its first statement.
            let what = if p.file == r.loc.file && p.line < r.loc.line {
                "pragma on the region's first statement is ignored: pencilc's code replaces that statement"
            } else {
                "pragma inside the region is ignored"
            };
            report.warnings.push(Diagnostic::warning(
                Code::UnsupportedStatement,
                Some(p.clone()),
                what,
            ));
        }
    }
    Ok(Input {
        source,
        regions,
        names,
        cc_check,
        file_limit,
        syntax_warned,
    })
}

impl Input {
    /// The C compiler's check of the file: its errors outside the regions
    /// become warnings; a file it could not check keeps every region's
    /// code (`compiled` emptied).
    pub fn c_compiler_verdict(
        &mut self,
        compiled: &mut Vec<Compiled>,
        report: &mut FileReport,
    ) -> Result<()> {
        let Some(check) = self.cc_check.take() else {
            return Ok(());
        };
        // Functions inlined into a region are translated with it.
        let ranges: Vec<(u32, u32)> = self
            .regions
            .iter()
            .filter(|r| r.inclusion.is_none())
            .flat_map(|r| {
                let inlined = r
                    .inlined
                    .iter()
                    .filter(|(at, _)| at.file == r.loc.file)
                    .map(|(at, end)| (at.line, *end));
                std::iter::once((r.begin_line, r.end_line)).chain(inlined)
            })
            .collect();
        match check.finish(&ranges, self.file_limit)? {
            front::cc_check::Verdict::Checked(outside) => {
                if !self.syntax_warned {
                    report.warnings.extend(outside);
                }
            }
            front::cc_check::Verdict::Unchecked(why) => {
                report.warnings.push(why);
                compiled.clear();
            }
        }
        Ok(())
    }
}

/// What the compilation of `path` reads, for its dependency file: the
/// file, the headers the preprocessor entered (not pencilc's own PENCIL
/// headers, which are part of pencilc and live in a temporary folder),
/// the schedules loaded, the device description and the device code of
/// the target.
fn files_read(
    path: &Path,
    pp: &front::Preprocessed,
    pencil_headers: Option<&Path>,
    opts: &Options,
) -> Vec<depfile::Input> {
    let user = |p: &PathBuf| depfile::Input {
        path: p.clone(),
        system: false,
    };
    let mut read = vec![user(&path.to_path_buf())];
    read.extend(
        pp.included
            .iter()
            .filter(|f| pencil_headers.is_none_or(|h| !f.path.starts_with(h)))
            .map(|f| depfile::Input {
                path: f.path.clone(),
                system: f.system,
            }),
    );
    read.extend(opts.load_schedule.iter().map(user));
    read.extend(opts.device_file.iter().map(user));
    match opts.target {
        Target::OpenCl => read.extend(opts.opencl_include.iter().map(user)),
        Target::Cuda => read.extend(opts.cuda_include.iter().map(user)),
        Target::C => {}
    }
    read
}

/// The text of the user's device code for the target
/// (`--opencl-include-file`, `--cuda-include-file`), for its names.
pub(super) fn device_code_text(opts: &Options) -> Result<String> {
    let mut out = String::new();
    match opts.target {
        Target::OpenCl => {
            for p in &opts.opencl_include {
                out.push_str(&crate::files::read_text(p, "--opencl-include-file")?);
                out.push('\n');
            }
        }
        Target::Cuda => {
            for p in &opts.cuda_include {
                let bytes = crate::files::read_limited(p, "--cuda-include-file")?;
                out.push_str(&String::from_utf8_lossy(&bytes));
                out.push('\n');
            }
        }
        Target::C => {}
    }
    Ok(out)
}
