//! Back ends: print host code and kernels for OpenCL, CUDA or plain C, and
//! splice the host code into the user's file in place of each region.
//! Back ends never schedule or map: they print what `ast` decided.

mod assemble;
pub mod body;
use assemble::{
    cuda_files, device_helpers, file_name, paste_included_headers, region_host_code,
    rename_reserved_in_kernels, Gathered,
};
mod builtins;
pub mod choice;
pub mod convert;
mod device_fn;
mod device_names;
mod footprint;
pub mod kernel;
mod outline;
mod private;
pub mod reduce;
mod specialise;
pub mod stmt;
mod templates;

mod kernel_text;
mod keywords;
mod launch;
mod region;
mod serde_json_like;
mod splice;
mod versions;
use kernel_text::*;
use keywords::*;
use launch::*;
use region::*;
use splice::*;
pub use splice::{c_string, comment_text};
use versions::*;

use crate::ast::{AExpr, GpuAst, Launch};
use crate::deps::DependenceGraph;
use crate::diag::{Diagnostic, Result};
use crate::front::parse::Inclusion;
use crate::front::syntax::Expr;
use crate::front::SourceFile;
use crate::scop::Scop;
use body::{extent_c, indent, BodyPrinter, DataStyle};
use kernel::{kernel_args, KernelArg};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tera::Context;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    OpenCl,
    Cuda,
    C,
}

/// One compiled region, ready to print.
pub struct RegionCode<'a> {
    pub scop: &'a Scop,
    pub deps: &'a DependenceGraph,
    pub ast: &'a GpuAst,
    /// The CPU version (`ast::cpu`), where one was made.
    pub cpu: Option<&'a crate::ast::Ast>,
    /// Where privatised variables' copies are stored back (`ast::private`).
    pub write_backs: &'a [crate::ast::WriteBack],
    /// What the run-time choice multiplies its device estimate by: the GPU
    /// model's estimate over the choice's own at the profile's sizes
    /// (`profile::chooser_scale`); 1 without a GPU model.
    pub device_scale: f64,
}

pub struct GeneratedFile {
    pub path: PathBuf,
    pub contents: String,
}

/// Where the output files go.
#[derive(Clone, Debug)]
pub struct OutputPaths {
    /// The host file (OpenCL and CUDA: `foo_host.c`, C: `foo_pencilc.c`).
    pub host: PathBuf,
}

impl OutputPaths {
    /// Default names beside `dir` for input `input`.
    /// Names are built from the input's own bytes: a name that is not
    /// UTF-8 gives outputs of that name, as the C compiler's would.
    pub fn default_for(input: &Path, dir: &Path, target: Target) -> OutputPaths {
        let mut host = input
            .file_stem()
            .map(|s| s.to_os_string())
            .unwrap_or_else(|| "out".into());
        host.push(match target {
            Target::OpenCl | Target::Cuda => "_host.c",
            Target::C => "_pencilc.c",
        });
        OutputPaths {
            host: dir.join(host),
        }
    }

    /// Every file `emit` writes for `target`, each with what it is.
    pub fn all(&self, target: Target) -> Vec<(PathBuf, String)> {
        let mut out = vec![(self.host.clone(), "host file".to_string())];
        match target {
            Target::OpenCl => out.push((self.kernel("cl"), "kernel file".into())),
            Target::Cuda => {
                out.push((self.kernel("cu"), "kernel file".into()));
                out.push((self.kernel("h"), "kernel header".into()));
            }
            Target::C => {}
        }
        out
    }

    /// The kernel file's path with extension `ext`, derived from the host file.
    pub fn kernel(&self, ext: &str) -> PathBuf {
        let stem = self.host.file_stem().unwrap_or_default();
        let mut name = strip_os_suffix(stem, "_host").to_os_string();
        name.push(format!("_kernel.{}", ext));
        self.host.with_file_name(name)
    }
}

/// `name` without `suffix` at its end, byte for byte (a name need not be
/// UTF-8).
#[cfg(unix)]
fn strip_os_suffix<'a>(name: &'a std::ffi::OsStr, suffix: &str) -> &'a std::ffi::OsStr {
    use std::os::unix::ffi::OsStrExt;
    match name.as_bytes().strip_suffix(suffix.as_bytes()) {
        Some(b) => std::ffi::OsStr::from_bytes(b),
        None => name,
    }
}

#[cfg(not(unix))]
fn strip_os_suffix<'a>(name: &'a std::ffi::OsStr, suffix: &str) -> &'a std::ffi::OsStr {
    match name.to_str().and_then(|s| s.strip_suffix(suffix)) {
        Some(s) => std::ffi::OsStr::new(s),
        None => name,
    }
}

/// Refuses a CUDA host file name that nvcc and build systems compile as
/// C++ or CUDA C++ (`-o foo_host.cu`): the host code is the user's C,
/// whose meaning C++ changes (variable-length arrays, `restrict`, C++'s
/// keywords as names, `sizeof 'a'`), so it is written as C, to a `.c` file.
pub fn check_host_name(target: Target, host: &Path) -> Result<()> {
    const CXX: [&str; 8] = ["cu", "cpp", "cc", "cxx", "c++", "cp", "C", "CPP"];
    let ext = host.extension().map(|e| e.to_string_lossy().into_owned());
    match ext {
        Some(e) if target == Target::Cuda && CXX.contains(&e.as_str()) => {
            let fixed = host.with_extension("c");
            Err(Diagnostic::error(
                crate::diag::Code::Usage,
                None,
                format!(
                    "-o {}: the CUDA host file is C (the input's language), and nvcc compiles a `.{}` file as C++",
                    host.display(),
                    e
                ),
            )
            .with_hint(format!(
                "name it {} (the kernels go to {})",
                fixed.display(),
                OutputPaths { host: fixed.clone() }.kernel("cu").display()
            )))
        }
        _ => Ok(()),
    }
}

/// The names a file's generated host code and kernels make up besides
/// the fixed `pencilc_` ones (`front::names`): kernels `<kernel><N>` (and
/// `<kernel><N>_combine`, `<kernel><N>_launch`), and per region the device
/// buffers `<dev><array>`, each prefix grown by `_` until none of its
/// names is a name of the file.
struct Spelling {
    kernel: String,
    dev: String,
}

impl Spelling {
    /// The kernel prefix of a file whose regions are `regions`.
    fn kernel_prefix(regions: &[RegionCode]) -> String {
        let names: Vec<&str> = regions.iter().flat_map(|r| r.scop.all_names()).collect();
        crate::front::names::fresh_prefix(names.iter().copied(), "kernel", &["_combine", "_launch"])
    }

    /// The buffer prefix of `scop`'s region: `dev_` unless the file has
    /// a name `dev_<array>` for one of its arrays, or one that starts with
    /// `dev_pencilc_` (the buffers of reduction partials and slices).
    fn buffer_prefix(scop: &Scop) -> String {
        let mut dev = "dev_".to_string();
        let clashes = |dev: &str| {
            scop.file_names.taken.iter().any(|n| {
                n.strip_prefix(dev)
                    .is_some_and(|rest| scop.array(rest).is_some() || rest.starts_with("pencilc_"))
            })
        };
        while clashes(&dev) {
            dev.push('_');
        }
        dev
    }

    fn kernel_name(&self, number: usize) -> String {
        format!("{}{}", self.kernel, number)
    }

    fn buffer(&self, array: &str) -> String {
        format!("{}{}", self.dev, array)
    }
}

/// The run-time choice between versions in OpenCL and CUDA output
/// (`choice`): the cost model and the description it comes from.
pub struct Versioning {
    pub costs: crate::device::CostModel,
    pub device: String,
}

/// What the back end produced: files, `-v` lines and warnings.
pub struct Emitted {
    pub files: Vec<GeneratedFile>,
    /// How each kernel carries out its reductions (`kernel[k] v: ...`).
    pub notes: Vec<String>,
    pub warnings: Vec<Diagnostic>,
}

const OPENCL_BUILTINS: &str = include_str!("../../pencil-headers/pencil_opencl.h");
const CUDA_BUILTINS: &str = include_str!("../../pencil-headers/pencil_cuda.h");

/// `headers`: the text of every header that holds a region
/// (`Scop::inclusion`), by the name the preprocessor gave it.
#[allow(clippy::too_many_arguments)]
pub fn emit(
    source: &SourceFile,
    names: &crate::front::names::FileNames,
    headers: &BTreeMap<PathBuf, SourceFile>,
    regions: &[RegionCode],
    target: Target,
    paths: &OutputPaths,
    command: &str,
    device_code: &str,
    openmp: bool,
    versioning: Option<&Versioning>,
) -> Result<Emitted> {
    let tera = templates::load()?;
    // The path goes into comments (`input`) and into C strings (`input_c`).
    let input = comment_text(&source.path.display().to_string());
    let input_c = c_string(&source.path.display().to_string());
    let mut out = Gathered::default();
    let mut replacements: Vec<(u32, u32, String)> = Vec::new();
    // Regions of headers, by inclusion: each is pasted where it was
    // included, with its own regions' code.
    let mut pasted: BTreeMap<Inclusion, Vec<(u32, u32, String)>> = BTreeMap::new();
    let kernel_prefix = Spelling::kernel_prefix(regions);
    for r in regions {
        let spelling = Spelling {
            kernel: kernel_prefix.clone(),
            dev: Spelling::buffer_prefix(r.scop),
        };
        let (source, input, region_input_c) = match &r.scop.inclusion {
            None => (source, input.clone(), input_c.clone()),
            Some(inc) => {
                let h = headers.get(&inc.header).ok_or_else(|| {
                    Diagnostic::internal(
                        "back",
                        format!("the text of {} was not read", inc.header.display()),
                    )
                })?;
                let name = inc.header.display().to_string();
                (h, comment_text(&name), c_string(&name))
            }
        };
        let host = region_host_code(
            &tera,
            r,
            &spelling,
            target,
            source,
            &input,
            &region_input_c,
            versioning,
            &mut out,
        )?;
        let code = (r.scop.begin_line, r.scop.end_line, host);
        match &r.scop.inclusion {
            None => replacements.push(code),
            Some(inc) => pasted.entry(inc.clone()).or_default().push(code),
        }
    }
    let Gathered {
        mut kernels,
        notes,
        warnings,
        outlined,
        disjoint_helper,
    } = out;
    paste_included_headers(source, headers, &pasted, &mut replacements);
    replacements.sort_by_key(|r| r.0);
    let helpers = templates::render(&tera, "common_macros.h.tera", &Context::new())?;
    let version = env!("CARGO_PKG_VERSION");
    rename_reserved_in_kernels(&mut kernels, target);
    let device_helpers = device_helpers(&helpers, target, regions, device_code, &kernels)?;
    let kernel_ctx = |header: &Path| {
        let mut c = Context::new();
        c.insert("version", version);
        c.insert("input", &input);
        c.insert("helpers", &device_helpers);
        c.insert("header_file", &include_name(header));
        c.insert("header_comment", &comment_text(&header.to_string_lossy()));
        let ks: Vec<serde_json_like::K> = kernels
            .iter()
            .filter(|k| !k.absorbed)
            .map(|k| serde_json_like::K {
                name: k.name.clone(),
                params: k.params.clone(),
                ids: k.ids.clone(),
                body: k.body.clone(),
                launch_params: k.launch.params.clone(),
                grid: k.launch.grid.clone(),
                block: k.launch.block.clone(),
                args: k.launch.args.clone(),
                device_fn: k.device_fn,
                bounds: Some(k.launch.block.iter().product::<i64>()).filter(|&t| t >= 512),
                work_group: work_group(&k.launch.block),
                group_checked: k
                    .group_checked
                    .then(|| k.launch.block.iter().product::<i64>()),
            })
            .collect();
        c.insert("kernels", &ks);
        c
    };
    let mut files = Vec::new();
    // Outlined regions: prototypes after the prelude, definitions after
    // the user's code (`outline`).
    // The file's names, not a region's: a file whose every region keeps
    // its own code still needs the builtins it calls defined.
    let file_names = names;
    let host_file = |prelude: &str| -> String {
        // The prototypes come after the shields: their parameters are the
        // user's names (a parameter `uint` is no use of `<sys/types.h>`'s
        // `uint`), read as the definitions at the end of the file read them.
        let prelude = format!(
            "{}\n{}",
            shield_from_user_names(
                &shield_from_predefined_macros(prelude, file_names),
                file_names,
            )
            .trim_end(),
            outline::prototypes(&outlined)
        );
        let mut text = splice(source, &prelude, &replacements);
        if !outlined.is_empty() {
            if !text.ends_with('\n') {
                text.push('\n');
            }
            // Lines of the host file itself from here on.
            let line = text.lines().count() + 2;
            text.push_str(&format!(
                "#line {} \"{}\"\n",
                line,
                c_string(&file_name(&paths.host))
            ));
        }
        for o in &outlined {
            text.push('\n');
            text.push_str(&o.definition);
        }
        text
    };
    let mut prelude_ctx = Context::new();
    prelude_ctx.insert("version", version);
    prelude_ctx.insert("input", &input);
    prelude_ctx.insert("input_c", &input_c);
    prelude_ctx.insert("command", &comment_text(command));
    // The table form of the overlap check is the host's alone.
    let host_helpers = if disjoint_helper {
        format!("{}\n{}", helpers.trim_end(), versions::DISJOINT_HELPER)
    } else {
        helpers.clone()
    };
    prelude_ctx.insert("helpers", &host_helpers);
    prelude_ctx.insert("implicit", &implicit_builtins(file_names));
    // Host versions of regions with expanded arrays (`scop::expand`)
    // take them from the heap.
    prelude_ctx.insert(
        "host_heap",
        &regions.iter().any(|r| !r.scop.local_frees.is_empty()),
    );
    prelude_ctx.insert("host_file", &comment_text(&file_name(&paths.host)));
    prelude_ctx.insert("openmp", &openmp);
    let choice = match versioning {
        Some(v) if target != Target::C && regions.iter().any(|r| r.cpu.is_some()) => {
            choice::prelude(&tera, &v.costs, &v.device)?
        }
        _ => String::new(),
    };
    prelude_ctx.insert("choice", &choice);
    match target {
        Target::OpenCl => {
            let kpath = paths.kernel("cl");
            let ksrc = opencl_long_long(&templates::render(
                &tera,
                "opencl/kernel.cl.tera",
                &kernel_ctx(Path::new("")),
            )?);
            prelude_ctx.insert("kernel_file", &comment_text(&file_name(&kpath)));
            prelude_ctx.insert("kernel_source", &c_string_literal(&ksrc));
            let prelude = templates::render(&tera, "opencl/host_prelude.c.tera", &prelude_ctx)?;
            files.push(GeneratedFile {
                path: paths.host.clone(),
                contents: host_file(&prelude),
            });
            files.push(GeneratedFile {
                path: kpath,
                contents: ksrc,
            });
        }
        Target::Cuda => files.extend(cuda_files(
            &tera,
            paths,
            &mut prelude_ctx,
            &kernel_ctx,
            &host_file,
        )?),
        Target::C => {
            let prelude = templates::render(&tera, "c/prelude.c.tera", &prelude_ctx)?;
            files.push(GeneratedFile {
                path: paths.host.clone(),
                contents: splice(
                    source,
                    &shield_from_user_names(
                        &shield_from_predefined_macros(&prelude, file_names),
                        file_names,
                    ),
                    &replacements,
                ),
            });
        }
    }
    Ok(Emitted {
        files,
        notes,
        warnings,
    })
}

/// A kernel's required work-group size, x first, padded to three
/// dimensions (OpenCL's attribute takes three); none for a kernel
/// without a block (a device function).
fn work_group(block: &[i64]) -> Vec<i64> {
    if block.is_empty() {
        return Vec::new();
    }
    let mut xyz = block.to_vec();
    xyz.resize(3, 1);
    xyz
}

/// Definitions of the PENCIL and pet builtins the user's file calls
/// without declaring them (`front::implicit`), for the original code the
/// host file keeps.
fn implicit_builtins(names: &crate::front::names::FileNames) -> String {
    let Some(used) = names.implicit_host_defines.get().filter(|u| !u.is_empty()) else {
        return String::new();
    };
    let mut out =
        String::from("/* PENCIL's builtins that this file calls without including pencil.h. */\n");
    for b in crate::front::implicit::BUILTINS {
        if used.contains(b.name) {
            out.push_str(b.definition);
            out.push('\n');
        }
    }
    out
}

/// The prelude with its headers kept off the names the user's file
/// declares at file scope that those headers declare too
/// (`front::host_clashes`: a user's `select` or `index`): each is another
/// name while the prelude is read. A name the prelude's own code uses
/// stays as it is.
fn shield_from_user_names(prelude: &str, names: &crate::front::names::FileNames) -> String {
    let Some(clashes) = names.host_clashes.get().filter(|c| !c.is_empty()) else {
        return prelude.to_string();
    };
    // What the prelude's own code names (its header comment, which names
    // the user's file, and a header's name, `sys/time.h`, are none).
    let code: String = prelude[prelude.find("*/").map_or(0, |e| e + 2)..]
        .lines()
        .filter(|l| !l.trim_start().starts_with("#include"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut used = std::collections::BTreeSet::new();
    crate::front::names::for_each_identifier(&code, |w, _| {
        used.insert(w.to_string());
    });
    let renamed: Vec<&String> = clashes.iter().filter(|n| !used.contains(*n)).collect();
    wrap_prelude(
        prelude,
        "names of this file that the headers below declare too",
        renamed
            .iter()
            .map(|n| format!("#define {} pencilc_libc_{}", n, n)),
        renamed.iter().map(|n| format!("#undef {}", n)),
    )
}

/// The host prelude (pencilc's code in front of the user's) kept from the
/// macros that reach it: the compiler's and `-D`'s, which the user's
/// build defines too. Where one of them names an identifier of the
/// prelude (`-Dn=100`, and `size_t n` in the OpenCL setup), the prelude is
/// compiled with that macro pushed and undefined, and popped after it
/// (`#pragma push_macro`: GCC, Clang, MSVC and ICC have it). Names that
/// start with `_` or `CL_` are the implementation's and configure the
/// prelude's headers; `PENCILC_` switches configure pencilc's code.
fn shield_from_predefined_macros(prelude: &str, names: &crate::front::names::FileNames) -> String {
    let mut hit = std::collections::BTreeSet::new();
    crate::front::names::for_each_identifier(prelude, |w, _| {
        if names.predefined_macros.contains(w)
            && !w.starts_with('_')
            && !w.starts_with("CL_")
            && !crate::front::names::is_reserved(w)
        {
            hit.insert(w.to_string());
        }
    });
    wrap_prelude(
        prelude,
        "macros of the build that name identifiers of pencilc's code below",
        hit.iter()
            .map(|m| format!("#pragma push_macro(\"{}\")\n#undef {}", m, m)),
        hit.iter().map(|m| format!("#pragma pop_macro(\"{}\")", m)),
    )
}

/// `prelude` between `before` and `after` lines, after its header comment
/// (which says what made the file), under a comment saying `why`; the
/// prelude as it is where there is nothing to put around it.
fn wrap_prelude(
    prelude: &str,
    why: &str,
    before: impl Iterator<Item = String>,
    after: impl Iterator<Item = String>,
) -> String {
    let before: Vec<String> = before.collect();
    if before.is_empty() {
        return prelude.to_string();
    }
    let head = prelude.find("*/").map_or(0, |e| e + 2);
    let (comment, rest) = prelude.split_at(head);
    let mut out = format!("{}\n/* pencilc: {} */\n", comment, why);
    for line in &before {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(rest.trim_start_matches('\n').trim_end());
    out.push('\n');
    for line in after {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_long_is_opencl_long() {
        assert_eq!(
            opencl_long_long(
                "unsigned long long x; long  long y; longlong z; along long w; (long long)v"
            ),
            "unsigned long x; long y; longlong z; along long w; (long)v"
        );
    }

    #[test]
    fn string_literal_escapes() {
        assert_eq!(c_string_literal("a\"b\\\n"), "    \"a\\\"b\\\\\\n\"");
    }

    #[test]
    fn bracket_depth_skips_comments_and_strings() {
        assert_eq!(bracket_depth("f(a[i]) { g((x)); }"), 3);
        assert_eq!(bracket_depth("/* ((( */ \"{{{\" '(' a[0]"), 1);
        assert_eq!(bracket_depth("// (((\nx"), 0);
    }

    #[test]
    fn splice_replaces_region_lines() {
        let src = SourceFile {
            path: PathBuf::from("f.c"),
            text: "a\n#pragma scop\nx;\n#pragma endscop\nb\n".into(),
        };
        let out = splice(&src, "/*p*/", &[(2, 4, "NEW".into())]);
        assert_eq!(out, "/*p*/\n#line 1 \"f.c\"\na\nNEW\n#line 5 \"f.c\"\nb\n");
    }

    #[test]
    fn kernel_paths() {
        let p = OutputPaths {
            host: PathBuf::from("out/gemm_host.c"),
        };
        assert_eq!(p.kernel("cl"), PathBuf::from("out/gemm_kernel.cl"));
        let p = OutputPaths {
            host: PathBuf::from("x.c"),
        };
        assert_eq!(p.kernel("cl"), PathBuf::from("x_kernel.cl"));
    }

    #[test]
    fn cuda_output_names_are_c_host_cuda_kernels_and_a_c_header() {
        let p = OutputPaths::default_for(Path::new("src/gemm.c"), Path::new("out"), Target::Cuda);
        let names: Vec<PathBuf> = p.all(Target::Cuda).into_iter().map(|(f, _)| f).collect();
        assert_eq!(
            names,
            ["out/gemm_host.c", "out/gemm_kernel.cu", "out/gemm_kernel.h"].map(PathBuf::from)
        );
    }

    #[test]
    fn a_cuda_host_file_named_as_cxx_is_refused_with_the_c_name() {
        for bad in ["x_host.cu", "x.cpp", "x.cc", "x.C"] {
            let e = check_host_name(Target::Cuda, Path::new(bad)).unwrap_err();
            assert!(e.message.contains("is C"), "{}", e.message);
        }
        let e = check_host_name(Target::Cuda, Path::new("b/x_host.cu")).unwrap_err();
        let hint = e.hint.clone().unwrap_or_default();
        assert!(
            hint.contains("b/x_host.c (the kernels go to b/x_kernel.cu)"),
            "{}",
            hint
        );
        assert!(check_host_name(Target::Cuda, Path::new("x_host.c")).is_ok());
        assert!(check_host_name(Target::Cuda, Path::new("x")).is_ok());
        // Only CUDA's host file is the user's C by this rule.
        assert!(check_host_name(Target::OpenCl, Path::new("x.cpp")).is_ok());
    }
}
