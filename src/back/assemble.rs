//! Pieces of `emit`: the code that replaces each region in the host file,
//! what the regions gather for the file (kernels, notes, warnings,
//! outlined functions), the kernel files' helpers, headers pasted over
//! their inclusions, and the CUDA target's files.

use super::*;

/// The regions' kernels, `-v` notes, warnings and outlined functions,
/// gathered across the file.
#[derive(Default)]
pub(super) struct Gathered {
    pub kernels: Vec<KernelText>,
    pub notes: Vec<String>,
    pub warnings: Vec<Diagnostic>,
    pub outlined: Vec<outline::Outlined>,
    /// Whether an overlap check calls `pencilc_disjoint`
    /// (`versions::DISJOINT_HELPER`).
    pub disjoint_helper: bool,
}

/// The region's set-up statements that the host runs before either
/// generated version (`scop::prologue`), as they read in the host
/// version.
fn host_prologue(r: &RegionCode) -> Result<String> {
    if r.scop.host_prologue.is_empty() {
        return Ok(String::new());
    }
    let call_name = |f: &str| f.to_string();
    let printer = BodyPrinter::plain_host(r.scop, &call_name);
    let mut out = String::from("/* pencilc: the region's set-up, run by the host */\n");
    for &k in &r.scop.host_prologue {
        out.push_str(&printer.statement(k, &[])?);
        out.push('\n');
    }
    Ok(out)
}

/// `code` (a block) after `prologue`, in one block.
fn after_prologue(prologue: &str, code: &str) -> String {
    if prologue.is_empty() {
        return code.to_string();
    }
    format!(
        "{{\n{}{}}}",
        launch::indented_once(prologue),
        launch::indented_once(code.trim_end())
    )
}

/// The code that replaces one region in the host file: its device version
/// alone, or the three versions and the choice between them, behind the
/// region's entry check. `source` is the file the region is in (the
/// user's, or a header pasted into it), `input`/`input_c` its name.
#[allow(clippy::too_many_arguments)]
pub(super) fn region_host_code(
    tera: &tera::Tera,
    r: &RegionCode,
    spelling: &Spelling,
    target: Target,
    source: &SourceFile,
    input: &str,
    region_input_c: &str,
    versioning: Option<&Versioning>,
    out: &mut Gathered,
) -> Result<String> {
    let three_way = match (target, r.cpu) {
        (Target::C, _) | (_, None) => None,
        (_, Some(cpu)) if versioning.is_some() => Some(cpu),
        _ => None,
    };
    let first_text = out.kernels.len();
    let host = emit_region(
        tera,
        r,
        spelling,
        target,
        input,
        region_input_c,
        &mut out.kernels,
        &mut out.notes,
        &mut out.warnings,
        three_way.is_none(),
    )?;
    // isl spells C names that are isl keywords with a trailing `_`;
    // the C code must use the user's names again.
    let keywords = mangled_keywords(source, r.scop, &host)?;
    let host = unmangle(&host, &keywords);
    let prologue = host_prologue(r)?;
    let prologue = unmangle(&prologue, &mangled_keywords(source, r.scop, &prologue)?);
    let host = after_prologue(&prologue, &host);
    // Kernels keep isl's spelling: their parameters are theirs (a name
    // can arrive both ways, `min` from a statement and `min_` from a
    // bound), and the host passes the user's variable to each.
    let bounds = r
        .ast
        .entry_check
        .as_ref()
        .map(|c| unmangle(&c.to_c(), &keywords));
    // What the parameters' types leave to the entry check: the generated
    // code reads unsigned parameters as `long`, so a 64-bit one above
    // `LONG_MAX` runs the original code (tested unsigned); its loops step
    // past their bounds by up to a tile times the wrap-around grid, so an
    // `int` one near `int`'s limits does too (`Scop::near_int_limits`).
    // A 64-bit one times the largest factor of the generated expressions
    // must fit `long` (`ast::overflow`): beyond that, the original code.
    let safe = crate::scop::INT_SAFE_MAGNITUDE;
    let long_limit =
        crate::ast::overflow::long_param_limit(crate::ast::overflow::region_peak(r.ast, r.cpu));
    let signed_64 = r.scop.params.iter().filter(|p| {
        r.scop
            .value_types
            .iter()
            .any(|(n, t)| crate::front::affine::isl_name(n) == **p && t.signed && t.bits > 32)
    });
    let type_checks: Vec<String> = r
        .scop
        .unsigned_params
        .iter()
        .filter(|(_, bits)| *bits > 32)
        .map(|(p, _)| format!("{} <= {}UL", unmangle(p, &keywords), long_limit))
        .chain(signed_64.map(|p| {
            let p = unmangle(p, &keywords);
            format!("{} >= -{}L && {} <= {}L", p, long_limit, p, long_limit)
        }))
        .chain(r.scop.near_int_limits.iter().flat_map(|(p, low, high)| {
            let p = unmangle(p, &keywords);
            let low = low.then(|| format!("{} >= -{}", p, safe));
            let high = high.then(|| format!("{} <= {}", p, safe));
            low.into_iter().chain(high)
        }))
        .collect();
    let bounds = match (bounds, type_checks.is_empty()) {
        (b, true) => b,
        (None, false) => Some(type_checks.join(" && ")),
        (Some(b), false) => Some(format!("{} && {}", type_checks.join(" && "), b)),
    };
    let overlap = no_overlap_check(r.scop, r.ast).map(|o| {
        out.disjoint_helper |= o.table;
        unmangle(&o.condition, &keywords)
    });
    Ok(if let Some(cpu) = three_way {
        let region = format!(
            "{} ({}:{}-{})",
            r.scop.function, input, r.scop.begin_line, r.scop.end_line
        );
        let cpu_text = choice::cpu_region(tera, r, cpu, input)?;
        // The device version's cost includes building its program
        // where none is built for these row lengths yet.
        let values = match target {
            Target::OpenCl => region_values(&out.kernels[first_text..]),
            _ => None,
        };
        let choose = match &values {
            Some(v) => specialise::around_choice(
                v,
                &choice::choose_call(r, cpu, &region, "pencilc_values")?,
            ),
            None => choice::choose_call(r, cpu, &region, "\"\"")?,
        };
        let keywords = mangled_keywords(source, r.scop, &format!("{}\n{}", cpu_text, choose))?;
        let versions = ThreeVersions {
            device: &host,
            host: &after_prologue(&prologue, &unmangle(&cpu_text, &keywords)),
            choose: &unmangle(&choose, &keywords),
            live_out: &unmangle(&choice::live_out_text(r), &keywords),
            region: &region,
        };
        three_versions(source, r, &versions, bounds, overlap, &mut out.outlined)
    } else if bounds.is_some() || overlap.is_some() || host.contains(DEVICE_FALLBACK) {
        versioned(source, r, &host, bounds, overlap)
    } else {
        host
    })
}

/// The last component of `p`, as text.
pub(super) fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The CUDA target's files: the host file (its prelude including the
/// kernels' header), the kernel file and that header.
pub(super) fn cuda_files(
    tera: &tera::Tera,
    paths: &OutputPaths,
    prelude_ctx: &mut Context,
    kernel_ctx: &dyn Fn(&Path) -> Context,
    host_file: &dyn Fn(&str) -> String,
) -> Result<Vec<GeneratedFile>> {
    let mut files = Vec::new();
    let kpath = paths.kernel("cu");
    let hpath = paths.kernel("h");
    let header = file_name(&hpath);
    prelude_ctx.insert("kernel_file", &comment_text(&file_name(&kpath)));
    let header_name = Path::new(hpath.file_name().unwrap_or_default());
    prelude_ctx.insert("header_file", &include_name(header_name));
    let prelude = templates::render(tera, "cuda/host_prelude.c.tera", prelude_ctx)?;
    files.push(GeneratedFile {
        path: paths.host.clone(),
        contents: host_file(&prelude),
    });
    files.push(GeneratedFile {
        path: kpath.clone(),
        contents: templates::render(tera, "cuda/kernel.cu.tera", &kernel_ctx(header_name))?,
    });
    let mut hc = kernel_ctx(header_name);
    hc.insert("guard", &header_guard(&header));
    hc.insert("kernel_comment", &comment_text(&file_name(&kpath)));
    files.push(GeneratedFile {
        path: hpath,
        contents: templates::render(tera, "cuda/kernel.h.tera", &hc)?,
    });
    Ok(files)
}

/// The user's names that the kernel language reserves are spelled
/// `pencilc_user_<name>` in the kernel file (`device_names`).
pub(super) fn rename_reserved_in_kernels(kernels: &mut [KernelText], target: Target) {
    if target == Target::C {
        return;
    }
    let header = match target {
        Target::OpenCl => OPENCL_BUILTINS,
        _ => CUDA_BUILTINS,
    };
    let helpers = builtins::item_names(header);
    for k in kernels {
        let rename = |v: &mut Vec<String>| {
            v.iter_mut()
                .for_each(|t| *t = device_names::rename_reserved(t, target, &helpers))
        };
        rename(&mut k.params);
        rename(&mut k.ids);
        rename(&mut k.launch.params);
        rename(&mut k.launch.args);
        k.body = device_names::rename_reserved(&k.body, target, &helpers);
    }
}

/// What kernel files define before the kernels: pencilc's helpers,
/// PENCIL's typed builtins and the atomic reduction helpers the kernels
/// use (only those items of the builtin headers), the user's device code,
/// and device copies of the file's functions that kernels call.
pub(super) fn device_helpers(
    helpers: &str,
    target: Target,
    regions: &[RegionCode],
    device_code: &str,
    kernels: &[KernelText],
) -> Result<String> {
    let called = called_functions(regions, target)?;
    let called = if target == Target::C {
        called
    } else {
        let header = match target {
            Target::OpenCl => OPENCL_BUILTINS,
            _ => CUDA_BUILTINS,
        };
        device_names::rename_reserved(&called, target, &builtins::item_names(header))
    };
    let mut used = format!("{}{}", device_code, called);
    for k in kernels {
        used.push_str(&k.body);
        used.push_str(&k.params.join(","));
    }
    let header = match target {
        Target::OpenCl => OPENCL_BUILTINS,
        Target::Cuda => CUDA_BUILTINS,
        Target::C => return Ok(helpers.to_string()),
    };
    Ok(format!(
        "{}\n{}{}{}",
        helpers,
        builtins::used_part(header, &used),
        device_code,
        called
    ))
}

/// Each header holding regions pasted over its inclusion, with its
/// regions' code; a `#pragma once` header's later inclusions dropped.
pub(super) fn paste_included_headers(
    source: &SourceFile,
    headers: &BTreeMap<PathBuf, SourceFile>,
    pasted: &BTreeMap<Inclusion, Vec<(u32, u32, String)>>,
    replacements: &mut Vec<(u32, u32, String)>,
) {
    for (inc, codes) in pasted {
        let header = &headers[&inc.header];
        replacements.push((
            inc.include_line,
            inc.include_line,
            paste_header(header, codes),
        ));
        if has_pragma_once(&header.text) {
            // The preprocessor skips later inclusions of a `#pragma once`
            // header; the pasted text is no inclusion, so they are
            // dropped here instead.
            for line in later_includes_of(source, &inc.header, inc.include_line) {
                if !replacements.iter().any(|r| r.0 <= line && line <= r.1) {
                    replacements.push((
                        line,
                        line,
                        format!(
                            "/* pencilc: {} was pasted above, and has `#pragma once` */",
                            comment_text(&inc.header.display().to_string())
                        ),
                    ));
                }
            }
        }
    }
}

/// The include guard of a generated CUDA header named `header`.
pub(super) fn header_guard(header: &str) -> String {
    let name: String = header
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("PENCILC_{}", name)
}
