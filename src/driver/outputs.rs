//! What a compilation writes: the GPU model's report of each compiled
//! region, and the generated files (`back::emit`).

use super::region::Compiled;
use super::{output_paths, Emit, FileReport, Lap, Options, Outputs};
use crate::back::{self, OutputPaths, RegionCode, Target};
use crate::diag::{Code, Diagnostic, Result};
use crate::front::SourceFile;
use crate::isl::Isl;
use std::path::Path;

/// `-v` and `--emit gpu-model`: each compiled region's GPU profile and
/// estimate, where the device description has a GPU model.
pub(super) fn gpu_model_report(
    isl: &Isl,
    compiled: &[Compiled],
    opts: &Options,
    report: &mut FileReport,
) -> Result<()> {
    let Some(model) = &opts.gpu_model else {
        return Ok(());
    };
    if opts.target == Target::C || !(opts.verbose || opts.emit == Some(Emit::GpuModel)) {
        return Ok(());
    }
    let mut first_kernel = 0;
    for c in compiled {
        let p =
            gpu_profile(isl, c, first_kernel, opts).map_err(|e| super::at_region(e, &c.scop))?;
        first_kernel += c.ast.launches.len();
        let e = crate::profile::estimate(&p, model);
        if opts.emit == Some(Emit::GpuModel) {
            report
                .dump
                .push_str(&crate::profile::text::records(&p, Some(&e)));
        }
        report.gpu_model.extend(crate::profile::text::verbose_lines(
            &p,
            &e,
            &opts.device_name,
        ));
    }
    if let Some(w) = unused_params(compiled, &opts.gpu_model_params) {
        report.warnings.push(w);
    }
    Ok(())
}

/// The generated files of the compiled regions: the user's file with each
/// region replaced, and the kernels.
#[allow(clippy::too_many_arguments)]
pub(super) fn generate(
    isl: &Isl,
    path: &Path,
    source: &SourceFile,
    names: &crate::front::names::FileNames,
    compiled: &[Compiled],
    opts: &Options,
    report: &mut FileReport,
    lap: &mut Lap<'_>,
) -> Result<Outputs> {
    let scales = device_scales(isl, compiled, opts);
    let codes: Vec<RegionCode> = compiled
        .iter()
        .zip(scales)
        .map(|(c, device_scale)| RegionCode {
            scop: &c.scop,
            deps: &c.deps,
            ast: &c.ast,
            cpu: c.cpu.as_ref(),
            write_backs: &c.write_backs,
            device_scale,
        })
        .collect();
    for c in compiled {
        report.kernels += c.ast.launches.len();
        report
            .parallel_dims
            .extend(c.ast.launches.iter().map(|l| l.plan.block_sizes.len()));
    }
    let paths = output_paths(path, opts);
    let device_code = device_includes(opts, &paths)?;
    let command = format!(
        "{}{} {}",
        opts.command,
        if path.to_string_lossy().starts_with('-') {
            " --"
        } else {
            ""
        },
        crate::cmdline::shell_word(&path.to_string_lossy())
    );
    // Headers with regions are pasted into the output (`back::emit`).
    let mut header_texts = std::collections::BTreeMap::new();
    for c in compiled {
        if let Some(inc) = &c.scop.inclusion {
            if !header_texts.contains_key(&inc.header) {
                let bytes = crate::files::read_limited(&inc.header, "header")?;
                header_texts.insert(
                    inc.header.clone(),
                    SourceFile::from_bytes(&inc.header, &bytes)?,
                );
            }
        }
    }
    let emitted = back::emit(
        source,
        names,
        &header_texts,
        &codes,
        opts.target,
        &paths,
        command.trim_start(),
        &device_code,
        opts.openmp,
        opts.versioning
            .then(|| back::Versioning {
                costs: opts.costs,
                device: opts.device_name.clone(),
            })
            .as_ref(),
    )?;
    lap(report, "back");
    report.placements.extend(emitted.notes);
    report.warnings.extend(emitted.warnings);
    Ok(emitted
        .files
        .into_iter()
        .map(|f| {
            let bytes = source.encode(&f.contents);
            (f.path, bytes)
        })
        .collect())
}

/// Per region, what the run-time choice scales its device estimate by
/// (`profile::chooser_scale`): only where regions are versioned for a
/// device with a GPU model; 1 where the profile cannot anchor it.
fn device_scales(isl: &Isl, compiled: &[Compiled], opts: &Options) -> Vec<f64> {
    let Some(model) = opts
        .gpu_model
        .as_ref()
        .filter(|_| opts.versioning && opts.choice_follows_gpu_model)
    else {
        return vec![1.0; compiled.len()];
    };
    if opts.target == Target::C {
        return vec![1.0; compiled.len()];
    }
    // A profile that fails leaves the formula as it is: the factor refines
    // a choice, it is no reason to stop a compilation.
    compiled
        .iter()
        .map(|c| {
            gpu_profile(isl, c, 0, opts)
                .ok()
                .and_then(|p| {
                    let e = crate::profile::estimate(&p, model);
                    crate::profile::chooser_scale(&p, &e, &opts.costs)
                })
                .unwrap_or(1.0)
        })
        .collect()
}

/// The GPU profile of a compiled region's device version, at the values
/// `--gpu-model-params` gives or the context bounds.
fn gpu_profile(
    isl: &Isl,
    c: &Compiled,
    first_kernel: usize,
    opts: &Options,
) -> Result<crate::profile::RegionProfile> {
    profile_of(isl, &c.scop, &c.deps, &c.ast, first_kernel, opts)
}

/// The GPU profile of a device version from its parts.
fn profile_of(
    isl: &Isl,
    scop: &crate::scop::Scop,
    deps: &crate::deps::DependenceGraph,
    ast: &crate::ast::GpuAst,
    first_kernel: usize,
    opts: &Options,
) -> Result<crate::profile::RegionProfile> {
    let params = crate::profile::params::values(isl, scop, &opts.gpu_model_params)?;
    let private: Vec<(String, Vec<usize>)> = deps
        .privatised
        .iter()
        .map(|p| (p.array.clone(), p.stmts.clone()))
        .collect();
    let live_in = crate::profile::live_in_arrays(isl, &deps.live_in)?;
    let input = crate::profile::Inputs {
        scop,
        ast,
        copy_in: &deps.copy_in,
        copy_out: &deps.copy_out,
        live_in: &live_in,
        private: &private,
        first_kernel,
        last_block: crate::ast::reductions::last_block_combines(
            opts.target == crate::back::Target::Cuda,
        ),
    };
    Ok(crate::profile::profile_region(
        &input,
        &params,
        crate::profile::Sampling::default(),
    ))
}

/// The GPU model's estimate of a device version, and how many of its
/// expressions the profile could not evaluate (a pointer's footprint, a
/// bound of an unknown value: those parts count as nothing); `None`
/// without a GPU model.
pub(super) fn estimate(
    isl: &Isl,
    scop: &crate::scop::Scop,
    deps: &crate::deps::DependenceGraph,
    ast: &crate::ast::GpuAst,
    opts: &Options,
) -> Option<(crate::profile::Estimate, usize)> {
    let model = opts.gpu_model.as_ref()?;
    let p = profile_of(isl, scop, deps, ast, 0, opts).ok()?;
    let e = crate::profile::estimate(&p, model);
    e.total_ms.is_finite().then_some((e, p.unknown))
}

/// Whether the estimate `b` is under half of `a`: only where both left
/// out as much (the same unevaluated transfers, say), so that what they
/// compare is what the versions change.
pub(super) fn under_half(
    a: &(crate::profile::Estimate, usize),
    b: &(crate::profile::Estimate, usize),
) -> bool {
    faster_by(a, b, 0.5)
}

/// Whether the estimate `b` is under `share` of `a`, on the terms of
/// `under_half`.
pub(super) fn faster_by(
    a: &(crate::profile::Estimate, usize),
    b: &(crate::profile::Estimate, usize),
    share: f64,
) -> bool {
    a.1 == b.1 && b.0.total_ms < share * a.0.total_ms
}

/// A warning for `--gpu-model-params` names that are no parameter of any
/// region compiled (a misspelling would otherwise go unnoticed).
fn unused_params(compiled: &[Compiled], given: &[(String, i64)]) -> Option<Diagnostic> {
    let unused: Vec<&str> = given
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| {
            !compiled
                .iter()
                .any(|c| c.scop.params.contains(&crate::front::affine::isl_name(n)))
        })
        .collect();
    (!unused.is_empty() && !compiled.is_empty()).then(|| {
        Diagnostic::warning(
            Code::Usage,
            None,
            format!(
                "--gpu-model-params: {} is no parameter of a region of this file",
                unused.join(", ")
            ),
        )
    })
}

/// What the generated kernels get from the user: the OpenCL files' text
/// (the kernel source is embedded in the host program), `#include` lines
/// for CUDA. A CUDA file named by a relative path is included by its path
/// relative to the kernel file (where nvcc looks first), so that the
/// output names no folder of this machine the user did not name.
fn device_includes(opts: &Options, paths: &OutputPaths) -> Result<String> {
    let mut out = String::new();
    match opts.target {
        back::Target::OpenCl => {
            for p in &opts.opencl_include {
                let text = crate::files::read_text(p, "--opencl-include-file")?;
                out.push_str(&format!(
                    "/* from {} */\n{}\n",
                    back::comment_text(&p.display().to_string()),
                    text
                ));
            }
        }
        back::Target::Cuda => {
            let kernel = paths.kernel("cu");
            let kernel_dir = kernel.parent().unwrap_or(Path::new(""));
            for p in &opts.cuda_include {
                crate::files::read_limited(p, "--cuda-include-file")?;
                let named = if p.is_absolute() {
                    p.clone()
                } else {
                    crate::files::relative_path(kernel_dir, p).ok_or_else(|| {
                        Diagnostic::error(
                            Code::Usage,
                            None,
                            format!(
                                "--cuda-include-file {}: cannot name it from the folder of {}",
                                p.display(),
                                kernel.display()
                            ),
                        )
                        .with_hint("name the file by its absolute path")
                    })?
                };
                out.push_str(&format!(
                    "#include \"{}\"\n",
                    back::c_string(&named.display().to_string())
                ));
            }
        }
        back::Target::C => {}
    }
    Ok(out)
}
