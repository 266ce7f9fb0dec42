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

struct KernelText {
    name: String,
    params: Vec<String>,
    ids: Vec<String>,
    body: String,
    /// CUDA's launcher (`<name>_launch`, a C function the host file
    /// calls): its parameters (the grid's `unsigned` dimensions, x first,
    /// then the kernel's parameters without `__restrict__`, so that the
    /// declaration is C and C++ alike), the grid and block it launches
    /// and the names it passes on.
    launch: Launcher,
    /// A reduction's combining kernel (`kernelN_combine`), not a launch
    /// site of the mapped schedule.
    helper: bool,
    /// Arguments the OpenCL build may give as constants (`specialise`).
    specialised: Vec<specialise::Specialised>,
}

#[derive(Default)]
struct Launcher {
    params: Vec<String>,
    grid: Vec<String>,
    block: Vec<i64>,
    args: Vec<String>,
}

impl Launcher {
    /// A launcher of a grid of `grid_dims` dimensions of blocks of
    /// `block` threads (x first), passing on `params` (type and name as
    /// the kernel declares them).
    fn new(grid_dims: usize, block: Vec<i64>, params: &[(String, String)]) -> Launcher {
        let xyz = ["x", "y", "z"];
        let grid: Vec<String> = (0..grid_dims)
            .map(|d| format!("pencilc_grid_{}", xyz[d]))
            .collect();
        let mut decls: Vec<String> = grid.iter().map(|g| format!("unsigned {}", g)).collect();
        decls.extend(params.iter().map(|(ty, name)| {
            if ty.ends_with('*') {
                format!("{}{}", ty, name)
            } else {
                format!("{} {}", ty, name)
            }
        }));
        Launcher {
            params: decls,
            grid,
            block,
            args: params.iter().map(|(_, name)| name.clone()).collect(),
        }
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
            .map(|k| serde_json_like::K {
                name: k.name.clone(),
                params: k.params.clone(),
                ids: k.ids.clone(),
                body: k.body.clone(),
                launch_params: k.launch.params.clone(),
                grid: k.launch.grid.clone(),
                block: k.launch.block.clone(),
                args: k.launch.args.clone(),
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
        let prelude = format!("{}\n{}", prelude.trim_end(), outline::prototypes(&outlined));
        let mut text = splice(
            source,
            &shield_from_user_names(
                &shield_from_predefined_macros(&prelude, file_names),
                file_names,
            ),
            &replacements,
        );
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
    prelude_ctx.insert("helpers", &helpers);
    prelude_ctx.insert("implicit", &implicit_builtins(file_names));
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

/// Serializable views for the templates.
mod serde_json_like {
    #[derive(serde::Serialize)]
    pub struct K {
        pub name: String,
        pub params: Vec<String>,
        pub ids: Vec<String>,
        pub body: String,
        pub launch_params: Vec<String>,
        pub grid: Vec<String>,
        pub block: Vec<i64>,
        pub args: Vec<String>,
    }
    #[derive(serde::Serialize)]
    pub struct Buffer {
        pub dev: String,
        pub host: String,
        /// Bytes allocated on the device.
        pub alloc: String,
        /// Bytes each copy moves, from the byte `first` of the device
        /// buffer (0 where none).
        pub size: String,
        pub first: Option<String>,
        /// The host address that byte 0 of the device buffer stands for
        /// (`void *`): what a zero-copy buffer wraps.
        pub base: String,
        pub elem_type: String,
        pub copy_in: bool,
        pub copy_out: bool,
    }
    /// A region's device temporary (`scratch_buffers`).
    #[derive(serde::Serialize)]
    pub struct Scratch {
        pub buffer: String,
        pub elem_type: String,
    }
    #[derive(serde::Serialize)]
    pub struct Arg {
        pub kind: String,
        pub ctype: String,
        pub value: String,
    }
}

#[allow(clippy::too_many_arguments)]
fn emit_region(
    tera: &tera::Tera,
    r: &RegionCode,
    spelling: &Spelling,
    target: Target,
    input: &str,
    input_c: &str,
    kernels: &mut Vec<KernelText>,
    notes: &mut Vec<String>,
    warnings: &mut Vec<Diagnostic>,
    live_out: bool,
) -> Result<String> {
    let scop = r.scop;
    if target != Target::C {
        // Every statement runs in a kernel, so every variable reaches one.
        for a in &scop.arrays {
            if a.elem_type.split_whitespace().collect::<Vec<_>>() == ["long", "double"] {
                return Err(stmt::long_double_error(&a.loc));
            }
        }
    }
    let first_kernel = kernels.iter().filter(|k| !k.helper).count();
    let first_text = kernels.len();
    let (args_per_launch, plans, slices_per_launch) =
        region_kernels(r, spelling, target, first_kernel, kernels, notes, warnings)?;
    // `scop::nesting` keeps deeper regions on the host; a kernel beyond
    // clang's bracket limit would fail to build when the program runs.
    for k in &kernels[first_text..] {
        let depth = bracket_depth(&k.body);
        if depth > 250 {
            return Err(Diagnostic::internal(
                "back",
                format!(
                    "{} nests brackets {} deep, beyond what kernel compilers accept (256)",
                    k.name, depth
                ),
            ));
        }
    }
    let kernel_names: Vec<String> = (0..r.ast.launches.len())
        .map(|i| spelling.kernel_name(first_kernel + i))
        .collect();
    let mut all_kernel_names = Vec::new();
    for (i, name) in kernel_names.iter().enumerate() {
        all_kernel_names.push(name.clone());
        if !plans[i].privatized.is_empty() {
            all_kernel_names.push(format!("{}_combine", name));
        }
    }
    // Host code.
    let style = if target == Target::C {
        DataStyle::Host
    } else {
        DataStyle::Device
    };
    let call_name = |f: &str| f.to_string();
    let printer = BodyPrinter {
        scop,
        style,
        call_name: &call_name,
        barrier: "",
        privatized: &[],
        target,
        kernel_rows: false,
        temporaries: &r.deps.privatised,
        write_backs: r.write_backs,
    };
    let mut body = struct_layout_checks(scop);
    if target == Target::C {
        // Statements run in host code: one copy for the whole region (the
        // C target's threads run one after the other), private to each
        // OpenMP thread in its parallel loops.
        body.push_str(&body::private_declarations(
            scop,
            &r.deps.privatised,
            None,
            false,
            1,
        ));
    }
    let mut launch_fn = |i: usize, depth: usize, out: &mut String| -> Result<()> {
        let l = &r.ast.launches[i];
        let text = match target {
            Target::OpenCl => launch_opencl(
                tera,
                l,
                &kernel_names[i],
                &args_per_launch[i],
                &scop.index_type,
                &spelling.dev,
            )?,
            Target::Cuda => launch_cuda(
                tera,
                l,
                &kernel_names[i],
                &args_per_launch[i],
                &spelling.dev,
            )?,
            Target::C => launch_c(&printer, l, &r.ast.block_ids, &r.ast.thread_ids)?,
        };
        let text = if plans[i].privatized.is_empty() {
            text
        } else {
            reduction_launch(
                tera,
                l,
                &kernel_names[i],
                &plans[i].privatized,
                &text,
                target,
                &spelling.dev,
            )?
        };
        let text = if slices_per_launch[i].is_empty() {
            text
        } else {
            slice_launch(
                tera,
                l,
                &kernel_names[i],
                &slices_per_launch[i],
                &text,
                target,
                &spelling.dev,
            )?
        };
        for line in text.lines() {
            if line.is_empty() {
                out.push('\n');
            } else {
                out.push_str(&indent(depth));
                out.push_str(line);
                out.push('\n');
            }
        }
        Ok(())
    };
    match (target, r.cpu) {
        (Target::C, Some(cpu)) => {
            let mut no_launch = |_: usize, _: usize, _: &mut String| -> Result<()> {
                Err(Diagnostic::internal(
                    "back",
                    "a kernel launch in the CPU version",
                ))
            };
            printer.print(cpu, 1, &mut body, &mut no_launch)?
        }
        // Inside the branch that runs where the device holds the buffers.
        _ => printer.print(&r.ast.host, 2, &mut body, &mut launch_fn)?,
    }
    // The user's variables that served as loop iterators hold, after the
    // region, what the loops left there; the generated loops have their
    // own iterators. (With three versions, the caller assigns them.)
    if live_out {
        body.push_str(&choice::live_out_text(r));
    }
    let body = body.trim_end().to_string();

    let mut ctx = Context::new();
    ctx.insert("function", &scop.function);
    ctx.insert("input", input);
    ctx.insert("input_c", input_c);
    ctx.insert("fallback", DEVICE_FALLBACK);
    ctx.insert("begin_line", &scop.begin_line);
    ctx.insert("end_line", &scop.end_line);
    ctx.insert("n_kernels", &r.ast.launches.len());
    let cpu = target == Target::C && r.cpu.is_some();
    ctx.insert("cpu", &cpu);
    let mut n_parallel = 0;
    if let Some(c) = r.cpu {
        c.walk(&mut |n| {
            if matches!(n, crate::ast::Ast::Parallel { .. }) {
                n_parallel += 1;
            }
        });
    }
    ctx.insert("n_parallel", &n_parallel);
    ctx.insert("body", &body);
    // Region-level locals live on the host only where host code keeps the
    // user's variables (the C target); elsewhere they are device buffers.
    ctx.insert("local_decls", &scop.local_decls);
    ctx.insert("kernels", &all_kernel_names);
    let buffers = buffers(r, spelling);
    ctx.insert("buffers", &buffers);
    let mut prologue = if target == Target::C {
        Vec::new()
    } else {
        footprint::host_decls(scop, r.ast)
    };
    // A `register` scalar has no address for the copies to use: they go
    // through a local, copied back after the device's values arrive.
    let mut epilogue = Vec::new();
    if target != Target::C {
        for a in scop
            .arrays
            .iter()
            .filter(|a| a.is_scalar() && a.no_address && a.written)
        {
            let staged = staged_scalar(&a.name);
            prologue.push(format!("{} {} = {};", a.elem_type, staged, a.name));
            if r.deps.copy_out.contains(&a.name) {
                epilogue.push(format!("{} = {};", a.name, staged));
            }
        }
    }
    ctx.insert("prologue", &prologue);
    ctx.insert("epilogue", &epilogue);
    ctx.insert("specialise", &region_values(&kernels[first_text..]));
    ctx.insert(
        "scratch",
        &scratch_buffers(&plans, &slices_per_launch, &spelling.dev),
    );
    let name = match target {
        Target::OpenCl => "opencl/region.c.tera",
        Target::Cuda => "cuda/region.c.tera",
        Target::C => "c/region.c.tera",
    };
    templates::render(tera, name, &ctx)
}

/// The device temporaries the region's launches grow as they need
/// (`pencilc_scratch`): reduction partials and slices, one buffer per
/// name for the whole region.
fn scratch_buffers(
    plans: &[reduce::Plan],
    slices: &[Vec<(String, String, Vec<Expr>)>],
    dev: &str,
) -> Vec<serde_json_like::Scratch> {
    let mut out: Vec<serde_json_like::Scratch> = Vec::new();
    let partials = plans
        .iter()
        .flat_map(|p| &p.privatized)
        .map(|p| (p.partial_name(), p.elem_type.clone()));
    let slices = slices
        .iter()
        .flatten()
        .map(|(name, elem_type, _)| (private::slice_buffer(name), opencl_type(elem_type)));
    for (name, elem_type) in partials.chain(slices) {
        let buffer = format!("{}{}", dev, name);
        if !out.iter().any(|s| s.buffer == buffer) {
            out.push(serde_json_like::Scratch { buffer, elem_type });
        }
    }
    out
}

/// What each launch of a region passes its kernel, the reductions it
/// privatises (`reduce::Plan`) and the buffer slices of its compound
/// statements; the kernels' texts (each followed by its reductions'
/// combining kernel if it has one) go to `kernels`.
#[allow(clippy::type_complexity)]
fn region_kernels(
    r: &RegionCode,
    spelling: &Spelling,
    target: Target,
    first_kernel: usize,
    kernels: &mut Vec<KernelText>,
    notes: &mut Vec<String>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(
    Vec<Vec<KernelArg>>,
    Vec<reduce::Plan>,
    Vec<Vec<(String, String, Vec<Expr>)>>,
)> {
    let scop = r.scop;
    let mut args_per_launch = Vec::new();
    let mut plans = Vec::new();
    let mut slices_per_launch = Vec::new();
    for l in &r.ast.launches {
        let mut args = kernel_args(scop, l, &r.ast.block_ids, &r.ast.thread_ids, r.write_backs);
        if target != Target::C {
            footprint::add_offset_args(scop, &mut args);
        }
        let plan = if target == Target::C {
            reduce::Plan::default()
        } else {
            reduce::plan(scop, l, &spelling.kernel_name(first_kernel + l.index))
        };
        notes.extend(plan.notes.iter().cloned());
        warnings.extend(plan.warnings.iter().cloned());
        if !plan.privatized.is_empty() {
            // The kernel writes its partials instead of the variables.
            args.retain(|a| !plan.privatized.iter().any(|p| p.var == a.name()));
            let at = args
                .iter()
                .position(|a| !matches!(a, KernelArg::Buffer { .. }))
                .unwrap_or(args.len());
            for (k, p) in plan.privatized.iter().enumerate() {
                args.insert(
                    at + k,
                    KernelArg::Buffer {
                        name: p.partial_name(),
                        elem_type: p.elem_type.clone(),
                    },
                );
            }
        }
        let slices = if target == Target::C {
            Vec::new()
        } else {
            private::slices(scop, kernel::launch_stmts(l).into_iter())?
        };
        add_slice_args(&mut args, &slices);
        if target != Target::C {
            let number = first_kernel + l.index;
            kernels.push(kernel_text(
                r,
                l,
                &args,
                target,
                spelling.kernel_name(number),
                &plan.privatized,
            )?);
            if !plan.privatized.is_empty() {
                kernels.push(combine_kernel_text(
                    &plan.privatized,
                    target,
                    &spelling.kernel_name(number),
                ));
            }
        }
        args_per_launch.push(args);
        plans.push(plan);
        slices_per_launch.push(slices);
    }
    Ok((args_per_launch, plans, slices_per_launch))
}

/// The region's device buffers: for each array it writes or reads (not
/// the scalars it only reads, which kernels take by value), the user's
/// memory, the bytes allocated and copied, and the copies each way.
fn buffers(r: &RegionCode, spelling: &Spelling) -> Vec<serde_json_like::Buffer> {
    r.scop
        .arrays
        .iter()
        .filter(|a| !(a.is_scalar() && !a.written))
        .map(|a| {
            let mut size = format!("sizeof({})", a.elem_type);
            for e in &a.extents {
                size = format!("{} * {}", size, extent_c(e));
            }
            let size = if a.extents.is_empty() {
                size
            } else {
                format!("(size_t) {}", size)
            };
            let host = if a.is_scalar() && a.no_address {
                format!("&{}", staged_scalar(&a.name))
            } else if a.is_scalar() {
                format!("&{}", a.name)
            } else {
                a.host_pointer()
            };
            // A pointer's buffer holds what the region touches of it.
            let (alloc, size, host, first) = match footprint::buffer(a) {
                Some(b) => (b.alloc, b.copied, b.host, b.first),
                None => (size.clone(), size, host, None),
            };
            // A region-local variable has no host memory in scope: its
            // buffer is the device's own.
            let base = match &first {
                _ if a.local => "(void *) 0".to_string(),
                Some(f) => format!("(void *) ((char *) {} - {})", host, f),
                None => format!("(void *) {}", host),
            };
            serde_json_like::Buffer {
                dev: spelling.buffer(&a.name),
                host,
                alloc,
                size,
                first,
                base,
                // The kernels' type (CUDA's host declares the device pointer).
                elem_type: opencl_type(&a.elem_type),
                copy_in: r.deps.copy_in.contains(&a.name),
                copy_out: r.deps.copy_out.contains(&a.name),
            }
        })
        .collect()
}

fn kernel_text(
    r: &RegionCode,
    l: &Launch,
    args: &[KernelArg],
    target: Target,
    name: String,
    privatized: &[reduce::Privatized],
) -> Result<KernelText> {
    let (scop, block_ids, thread_ids) = (r.scop, &r.ast.block_ids, &r.ast.thread_ids);
    let params: Vec<String> = args
        .iter()
        .map(|a| match (a, target) {
            (KernelArg::Buffer { name, elem_type }, Target::OpenCl) => {
                format!("__global {} *restrict {}", opencl_type(elem_type), name)
            }
            (KernelArg::Value { name, elem_type }, Target::OpenCl) => {
                format!("{} {}", opencl_type(elem_type), name)
            }
            (KernelArg::Buffer { name, elem_type }, _) => {
                format!("{} *__restrict__ {}", opencl_type(elem_type), name)
            }
            (KernelArg::Value { name, elem_type }, _) => {
                format!("{} {}", opencl_type(elem_type), name)
            }
            (KernelArg::Int { name }, _) => format!("{} {}", scop.index_type, name),
        })
        .collect();
    let launch = if target == Target::Cuda {
        let typed: Vec<(String, String)> = args
            .iter()
            .map(|a| match a {
                KernelArg::Buffer { name, elem_type } => {
                    (format!("{} *", opencl_type(elem_type)), name.clone())
                }
                KernelArg::Value { name, elem_type } => (opencl_type(elem_type), name.clone()),
                KernelArg::Int { name } => (scop.index_type.clone(), name.clone()),
            })
            .collect();
        let dims = launch_dims(l);
        Launcher::new(dims.len(), dims.iter().map(|(_, t)| *t).collect(), &typed)
    } else {
        Launcher::default()
    };
    let n_block = l.plan.n_block;
    let n_thread = l.plan.block_sizes.len();
    let xyz = ["x", "y", "z"];
    let ity = &scop.index_type;
    let mut ids = Vec::new();
    for j in 0..n_block {
        let d = n_block - 1 - j;
        ids.push(match target {
            Target::OpenCl => format!("{} {} = get_group_id({})", ity, block_ids[j], d),
            _ => format!("{} {} = blockIdx.{}", ity, block_ids[j], xyz[d]),
        });
    }
    for j in 0..n_thread {
        let d = n_thread - 1 - j;
        ids.push(match target {
            Target::OpenCl => format!("{} {} = get_local_id({})", ity, thread_ids[j], d),
            _ => format!("{} {} = threadIdx.{}", ity, thread_ids[j], xyz[d]),
        });
    }
    let call_name = |f: &str| device_call_name(target, f);
    let printer = BodyPrinter {
        scop,
        style: DataStyle::Device,
        call_name: &call_name,
        barrier: match target {
            // OpenCL's fence flags through a macro of the kernel file:
            // a user's variable of their names is spelled otherwise there
            // (`device_names`).
            Target::OpenCl => "pencilc_barrier();",
            _ => "__syncthreads();",
        },
        privatized,
        target,
        kernel_rows: target == Target::OpenCl,
        temporaries: &r.deps.privatised,
        write_backs: r.write_backs,
    };
    let mut body = String::new();
    // Each thread's copies of the privatised variables it uses.
    body.push_str(&body::private_declarations(
        scop,
        &r.deps.privatised,
        Some(&kernel::launch_stmts(l)),
        true,
        1,
    ));
    // Tiles are declared at kernel scope (OpenCL requires it of `__local`).
    for a in &l.locals {
        let dims: String = a.sizes.iter().map(|s| format!("[{}]", s)).collect();
        let space = match (a.shared, target) {
            (true, Target::OpenCl) => "__local ",
            (true, _) => "__shared__ ",
            (false, _) => "",
        };
        body.push_str(&format!(
            "{}{}{} {}{};\n",
            indent(1),
            space,
            opencl_type(&a.elem_type),
            a.name,
            dims
        ));
    }
    body.push_str(&reduce::prologue(privatized, reduce::group_size(l), target));
    let mut no_launch = |_: usize, _: usize, _: &mut String| -> Result<()> {
        Err(Diagnostic::internal(
            "back",
            "kernel launch inside a kernel",
        ))
    };
    printer.print(&l.body, 1, &mut body, &mut no_launch)?;
    body.push_str(&reduce::epilogue(privatized, l, target));
    let specialised = if target == Target::OpenCl {
        specialise::kernel_values(scop, l, args, &body)
    } else {
        Vec::new()
    };
    Ok(KernelText {
        name,
        params,
        ids,
        body: specialise::wrap_body(&specialised, body),
        launch,
        helper: false,
        specialised,
    })
}

/// The build-time values of the kernels of one region (`specialise`).
/// A called function's name in `target`'s kernels.
fn device_call_name(target: Target, f: &str) -> String {
    if target == Target::OpenCl {
        // PENCIL's abs, min, max and clamp are the int versions; OpenCL's
        // are overloaded (ambiguous on mixed argument types) and its abs
        // returns an unsigned type.
        match f {
            "abs" => return "pencilc_abs".to_string(),
            "min" => return "imin".to_string(),
            "max" => return "imax".to_string(),
            "clamp" => return "clamp32".to_string(),
            _ => {}
        }
        // OpenCL C's math builtins are overloaded; the C99 `f` suffixed
        // names do not exist there.
        if let Some(base) = f.strip_suffix('f') {
            if crate::scop::PURE_FUNCTIONS.contains(&base) && base != "f" {
                return base.to_string();
            }
        }
    }
    f.to_string()
}

/// The device copies of the file's functions that the regions' kernels
/// call (`device_fn`; the driver leaves out those the user's device code
/// defines, and keeps a region that calls a function without one on the
/// host).
fn called_functions(regions: &[RegionCode], target: Target) -> Result<String> {
    if target == Target::C {
        return Ok(String::new());
    }
    let mut fns: BTreeMap<&str, &crate::front::parse::called::CalledFn> = BTreeMap::new();
    for r in regions {
        for (name, c) in &r.scop.called {
            match c {
                Ok(f) => {
                    fns.insert(name, f);
                }
                Err(why) => {
                    return Err(Diagnostic::internal(
                        "back",
                        format!(
                            "a kernel calls `{}`, which has no device copy: {}",
                            name, why
                        ),
                    ))
                }
            }
        }
    }
    let fns: Vec<_> = fns.into_values().collect();
    device_fn::definitions(&fns, target, &|f| device_call_name(target, f))
}

fn region_values(kernels: &[KernelText]) -> Option<specialise::RegionValues> {
    specialise::region_values(kernels.iter().map(|k| k.specialised.as_slice()))
}

/// An element type as kernels declare buffers and arguments of it.
fn opencl_type(t: &str) -> String {
    crate::front::syntax::buffer_type(t)
}

/// The kernel that combines a launch's partials into its reduction
/// variables (`reduce::combine_kernel_body`).
fn combine_kernel_text(privs: &[reduce::Privatized], target: Target, kernel: &str) -> KernelText {
    let mut params = Vec::new();
    let mut typed = Vec::new();
    for p in privs {
        typed.push((format!("{} *", p.elem_type), p.var.clone()));
        typed.push((format!("{} *", p.elem_type), p.partial_name()));
        match target {
            Target::OpenCl => {
                params.push(format!("__global {} *restrict {}", p.elem_type, p.var));
                params.push(format!(
                    "__global {} *restrict {}",
                    p.elem_type,
                    p.partial_name()
                ));
            }
            _ => {
                params.push(format!("{} *__restrict__ {}", p.elem_type, p.var));
                params.push(format!(
                    "{} *__restrict__ {}",
                    p.elem_type,
                    p.partial_name()
                ));
            }
        }
    }
    params.push("int pencilc_groups".to_string());
    typed.push(("int".to_string(), "pencilc_groups".to_string()));
    KernelText {
        name: format!("{}_combine", kernel),
        params,
        ids: vec![],
        body: reduce::combine_kernel_body(privs, target),
        // One block per element (`reduction_launch`).
        launch: Launcher::new(1, vec![reduce::COMBINE_THREADS], &typed),
        helper: true,
        specialised: Vec::new(),
    }
}

/// A launch whose kernel privatizes reductions: partial arrays around it,
/// then the combining kernel.
fn reduction_launch(
    tera: &tera::Tera,
    l: &Launch,
    kernel: &str,
    privs: &[reduce::Privatized],
    launch: &str,
    target: Target,
    dev: &str,
) -> Result<String> {
    #[derive(serde::Serialize)]
    struct P {
        var: String,
        partial: String,
        elem_type: String,
        len: i64,
    }
    let groups: Vec<String> = launch_dims(l)
        .iter()
        .map(|(b, _)| format!("(size_t) ({})", b.to_c()))
        .collect();
    let ps: Vec<P> = privs
        .iter()
        .map(|p| P {
            var: p.var.clone(),
            partial: p.partial_name(),
            elem_type: p.elem_type.clone(),
            len: p.len,
        })
        .collect();
    let launch: String = launch
        .lines()
        .map(|line| {
            if line.is_empty() {
                "\n".to_string()
            } else {
                format!("    {}\n", line)
            }
        })
        .collect();
    let mut ctx = Context::new();
    ctx.insert("kernel", kernel);
    ctx.insert("dev", dev);
    ctx.insert("groups", &groups.join(" * "));
    ctx.insert("privs", &ps);
    ctx.insert("elems", &privs.iter().map(|p| p.len).max().unwrap_or(1));
    ctx.insert("combine_threads", &reduce::COMBINE_THREADS);
    ctx.insert("launch", launch.trim_end());
    let name = match target {
        Target::OpenCl => "opencl/reduce_launch.c.tera",
        _ => "cuda/reduce_launch.c.tera",
    };
    templates::render(tera, name, &ctx)
}

/// The buffers of a kernel's slices (`private::Placement::Slice`) join its
/// buffers, and the variables of their extents its integers.
fn add_slice_args(args: &mut Vec<KernelArg>, slices: &[(String, String, Vec<Expr>)]) {
    let at = args
        .iter()
        .position(|a| !matches!(a, KernelArg::Buffer { .. }))
        .unwrap_or(args.len());
    for (k, (name, elem_type, _)) in slices.iter().enumerate() {
        args.insert(
            at + k,
            KernelArg::Buffer {
                name: private::slice_buffer(name),
                elem_type: elem_type.clone(),
            },
        );
    }
    let mut names = Vec::new();
    for (_, _, dims) in slices {
        dims.iter().for_each(|d| d.idents(&mut names));
    }
    for name in names {
        if !args.iter().any(|a| a.name() == name) {
            args.push(KernelArg::Int { name });
        }
    }
}

/// A launch with its slice buffers allocated around it: one slice per
/// thread of the launch (grid times block).
fn slice_launch(
    tera: &tera::Tera,
    l: &Launch,
    kernel: &str,
    slices: &[(String, String, Vec<Expr>)],
    launch: &str,
    target: Target,
    dev: &str,
) -> Result<String> {
    #[derive(serde::Serialize)]
    struct S {
        buffer: String,
        elem_type: String,
        elems: String,
    }
    let threads: Vec<String> = launch_dims(l)
        .iter()
        .map(|(b, t)| format!("(size_t) ({}) * {}", b.to_c(), t))
        .collect();
    let ss: Vec<S> = slices
        .iter()
        .map(|(name, elem_type, dims)| {
            // A run-time extent of 0 or less (a declaration never reached)
            // allocates nothing.
            let elems: Vec<String> = dims
                .iter()
                .map(|d| {
                    let d = crate::front::cexpr::plain(d);
                    format!("((long) ({d}) > 0 ? (size_t) ({d}) : 0)", d = d)
                })
                .collect();
            S {
                buffer: private::slice_buffer(name),
                elem_type: opencl_type(elem_type),
                elems: elems.join(" * "),
            }
        })
        .collect();
    let launch: String = launch
        .lines()
        .map(|line| {
            if line.is_empty() {
                "\n".to_string()
            } else {
                format!("    {}\n", line)
            }
        })
        .collect();
    let mut ctx = Context::new();
    ctx.insert("kernel", kernel);
    ctx.insert("dev", dev);
    ctx.insert("threads", &threads.join(" * "));
    ctx.insert("slices", &ss);
    ctx.insert("launch", launch.trim_end());
    let name = match target {
        Target::OpenCl => "opencl/slice_launch.c.tera",
        _ => "cuda/slice_launch.c.tera",
    };
    templates::render(tera, name, &ctx)
}

/// OpenCL dimension d (0 = x) of a launch: (blocks, threads per block).
fn launch_dims(l: &Launch) -> Vec<(AExpr, i64)> {
    let n_block = l.plan.n_block;
    let n_thread = l.plan.block_sizes.len();
    if n_thread == 0 {
        return vec![(AExpr::Int(1), 1)];
    }
    (0..n_thread)
        .map(|d| {
            let threads = l.plan.block_sizes[n_thread - 1 - d];
            let blocks = if d < n_block {
                l.grid[n_block - 1 - d].clone()
            } else {
                AExpr::Int(1)
            };
            (blocks, threads)
        })
        .collect()
}

/// What the host passes for kernel argument `a`: a buffer (`dev` and
/// the array's name), a host loop's value, or the user's variable.
fn host_value(l: &Launch, a: &KernelArg, dev: &str) -> String {
    match a {
        KernelArg::Buffer { name, .. } => format!("{}{}", dev, name),
        other => match l.host_values.iter().find(|(n, _)| n == other.name()) {
            Some((_, v)) => v.to_c(),
            None => other.name().to_string(),
        },
    }
}

fn launch_opencl(
    tera: &tera::Tera,
    l: &Launch,
    kernel: &str,
    args: &[KernelArg],
    index_type: &str,
    dev: &str,
) -> Result<String> {
    let dims = launch_dims(l);
    let global: Vec<String> = dims
        .iter()
        .map(|(b, t)| format!("(size_t) ({}) * {}", b.to_c(), t))
        .collect();
    let local: Vec<String> = dims.iter().map(|(_, t)| t.to_string()).collect();
    let a: Vec<serde_json_like::Arg> = args
        .iter()
        .map(|a| serde_json_like::Arg {
            kind: if matches!(a, KernelArg::Buffer { .. }) {
                "buffer".into()
            } else {
                "value".into()
            },
            ctype: match a {
                KernelArg::Value { elem_type, .. } => elem_type.clone(),
                _ => index_type.into(),
            },
            value: host_value(l, a, dev),
        })
        .collect();
    let mut ctx = Context::new();
    ctx.insert("dims", &dims.len());
    ctx.insert("global", &global);
    ctx.insert("local", &local);
    ctx.insert("args", &a);
    ctx.insert("kernel", kernel);
    templates::render(tera, "opencl/launch.c.tera", &ctx)
}

/// A call of the kernel's launcher (`Launcher`): the grid's dimensions
/// (x first; the block's are the launcher's own), then the arguments.
fn launch_cuda(
    tera: &tera::Tera,
    l: &Launch,
    kernel: &str,
    args: &[KernelArg],
    dev: &str,
) -> Result<String> {
    let a: Vec<String> = launch_dims(l)
        .iter()
        .map(|(b, _)| b.to_c())
        .chain(args.iter().map(|a| host_value(l, a, dev)))
        .collect();
    let mut ctx = Context::new();
    ctx.insert("args", &a);
    ctx.insert("kernel", kernel);
    templates::render(tera, "cuda/launch.c.tera", &ctx)
}

/// The C target runs every block and thread of a launch as loops.
fn launch_c(
    printer: &BodyPrinter,
    l: &Launch,
    block_ids: &[String],
    thread_ids: &[String],
) -> Result<String> {
    let mut out = String::new();
    let mut depth = 0;
    let mut used = std::collections::BTreeSet::new();
    l.body.used_ids(&mut used);
    let values: Vec<&(String, AExpr)> = l
        .host_values
        .iter()
        .filter(|(n, _)| used.contains(n))
        .collect();
    if !values.is_empty() {
        out.push_str("{\n");
        for (n, v) in &values {
            out.push_str(&format!(
                "{}const {} {} = {};\n",
                indent(1),
                printer.scop.index_type,
                n,
                v.to_c()
            ));
        }
        depth = 1;
    }
    for j in 0..l.plan.n_block {
        out.push_str(&format!(
            "{}for ({} {b} = 0; {b} < {}; {b} += 1)\n",
            indent(depth),
            printer.scop.index_type,
            l.grid[j].to_c(),
            b = block_ids[j]
        ));
        depth += 1;
    }
    for (j, size) in l.plan.block_sizes.iter().enumerate() {
        out.push_str(&format!(
            "{}for ({} {t} = 0; {t} < {}; {t} += 1)\n",
            indent(depth),
            printer.scop.index_type,
            size,
            t = thread_ids[j]
        ));
        depth += 1;
    }
    out.push_str(&format!("{}{{\n", indent(depth)));
    let mut no_launch = |_: usize, _: usize, _: &mut String| -> Result<()> {
        Err(Diagnostic::internal(
            "back",
            "kernel launch inside a kernel",
        ))
    };
    printer.print(&l.body, depth + 1, &mut out, &mut no_launch)?;
    out.push_str(&format!("{}}}\n", indent(depth)));
    if !values.is_empty() {
        out.push_str("}\n");
    }
    Ok(out)
}

/// Where a device version that cannot hold its buffers goes on
/// (`{{ fallback }}` of `templates/*/region.c.tera`): a placeholder that
/// the version's placement replaces (`return 0;` in an outlined function,
/// a flag that runs the original code after it elsewhere). One left in
/// place would not compile.
const DEVICE_FALLBACK: &str = "PENCILC_DEVICE_FALLBACK_UNPLACED;";

/// The region's code behind its entry check (`GpuAst::entry_check`): the
/// generated code where the check holds, else the user's own lines (with
/// their line numbers), which compute the same as the sequential program
/// by definition. A device version that cannot hold its buffers
/// (`DEVICE_FALLBACK`) runs the user's lines too.
fn versioned(
    source: &SourceFile,
    r: &RegionCode,
    code: &str,
    bounds: Option<String>,
    overlap: Option<String>,
) -> String {
    let scop = r.scop;
    let lines: Vec<&str> = source.text.lines().collect();
    let range = scop.begin_line as usize - 1..(scop.end_line as usize).min(lines.len());
    let (cond, why) = match (&bounds, &overlap) {
        (Some(b), Some(o)) => (
            format!("({}) && ({})", b, o),
            "what the array extents imply and that array parameters do not overlap",
        ),
        (Some(b), None) => (b.clone(), "what the array extents imply"),
        (None, Some(o)) => (o.clone(), "that array parameters do not overlap"),
        (None, None) => ("1".to_string(), ""),
    };
    let original = format!(
        "#line {} \"{}\"\n{}",
        scop.begin_line,
        c_path(&source.path),
        lines[range].join("\n")
    );
    if !code.contains(DEVICE_FALLBACK) {
        return format!(
            "/* pencilc: the generated code assumes {}; otherwise the original code runs */\nif ({}) {}\nelse {{\n{}\n}}",
            why,
            cond,
            code.trim_end(),
            original
        );
    }
    let assumes = if why.is_empty() {
        String::new()
    } else {
        format!("the generated code assumes {}; ", why)
    };
    format!(
        "/* pencilc: {}the original code runs otherwise, and where the device cannot hold the region's buffers */\n{{\nint pencilc_fallback = !({});\nif (!pencilc_fallback) {}\nif (pencilc_fallback) {{\n{}\n}}\n}}",
        assumes,
        cond,
        code.trim_end()
            .replace(DEVICE_FALLBACK, "pencilc_fallback = 1;"),
        original
    )
}

/// The texts of a region's three versions.
struct ThreeVersions<'a> {
    device: &'a str,
    host: &'a str,
    /// Sets `pencilc_launches` and `pencilc_forks` and calls `pencilc_choose`.
    choose: &'a str,
    /// What the loops leave in the user's iterators, after either
    /// generated version.
    live_out: &'a str,
    /// The region as `pencilc_choose` names it.
    region: &'a str,
}

/// The region's three versions (`choice`): where the entry check holds,
/// `pencilc_choose` picks the device version, the host version or the
/// original code; elsewhere the original code runs (and, with
/// PENCILC_VERBOSE, says why). The generated versions go into a function
/// of their own (`outline`, pushed onto `outlined`) where they can, so
/// that the user's function keeps its size.
fn three_versions(
    source: &SourceFile,
    r: &RegionCode,
    v: &ThreeVersions,
    bounds: Option<String>,
    overlap: Option<String>,
    outlined: &mut Vec<outline::Outlined>,
) -> String {
    let scop = r.scop;
    let lines: Vec<&str> = source.text.lines().collect();
    let range = scop.begin_line as usize - 1..(scop.end_line as usize).min(lines.len());
    let (cond, why) = match (&bounds, &overlap) {
        (Some(b), Some(o)) => (
            Some(format!("({}) && ({})", b, o)),
            "what the array extents imply and that array parameters do not overlap",
        ),
        (Some(b), None) => (Some(b.clone()), "what the array extents imply"),
        (None, Some(o)) => (Some(o.clone()), "that array parameters do not overlap"),
        (None, None) => (None, ""),
    };
    let indented = |text: &str, depth: usize| -> String {
        text.lines()
            .map(|l| {
                if l.is_empty() {
                    String::new()
                } else {
                    format!("{}{}", indent(depth), l)
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    // Sets `pencilc_version`.
    let mut select = String::from("int pencilc_version = PENCILC_SEQ;\n");
    match &cond {
        Some(c) => {
            select.push_str(&format!("if ({}) {{\n", c));
            select.push_str(&indented(v.choose, 1));
            select.push_str(&format!(
                "\n}} else {{\n    pencilc_original(\"{}\", \"{}\");\n}}",
                c_string(v.region),
                c_string(why)
            ));
        }
        None => {
            select.push_str("{\n");
            select.push_str(&indented(v.choose, 1));
            select.push_str("\n}");
        }
    }
    let original = format!(
        "#line {} \"{}\"\n{}",
        scop.begin_line,
        c_path(&source.path),
        lines[range].join("\n")
    );
    let keeps = if cond.is_some() {
        format!(", where the arguments keep {}", why)
    } else {
        String::new()
    };
    let number = outlined.len();
    let comment = format!(
        "/* pencilc: three versions of this region, the device's, the host's (OpenMP) and the original code; pencilc_choose picks one each time it runs{}; the generated ones are pencilc_region_{}, at the end of this file */",
        keeps, number
    );
    // A device that cannot hold the buffers: the outlined function returns
    // 0, and the caller runs the original code.
    let device = v.device.replace(DEVICE_FALLBACK, "return 0;");
    let parts = outline::Versions {
        select: &select,
        device: &device,
        host: v.host,
        live_out: v.live_out,
        original: &original,
        comment: &comment,
        region: v.region,
    };
    if let Some(o) = outline::outline(scop, number, &parts) {
        let call = o.call.clone();
        outlined.push(o);
        return call;
    }
    let mut out = String::new();
    out.push_str(&format!(
        "/* pencilc: three versions of this region, the device's, the host's (OpenMP) and the original code; pencilc_choose picks one each time it runs{} */\n{{\n",
        keeps
    ));
    out.push_str(&indented(&select, 1));
    // A device that cannot hold the buffers makes it the original code's turn.
    let device = v
        .device
        .replace(DEVICE_FALLBACK, "pencilc_version = PENCILC_SEQ;");
    out.push_str("\n    if (pencilc_version == PENCILC_DEVICE)\n");
    out.push_str(&indented(device.trim_end(), 1));
    out.push_str("\n    else if (pencilc_version == PENCILC_HOST)\n");
    out.push_str(&indented(v.host.trim_end(), 1));
    out.push_str(&format!(
        "\n    if (pencilc_version == PENCILC_SEQ) {{\n{}\n    }}\n",
        original
    ));
    if !v.live_out.trim().is_empty() {
        out.push_str("    if (pencilc_version != PENCILC_SEQ) {\n");
        out.push_str(&indented(v.live_out.trim_end(), 1));
        out.push_str("\n    }\n");
    }
    out.push('}');
    out
}

/// The model lays an array of structs out as its members side by side
/// (`Array::members`); an alignment attribute would put padding between
/// elements. A compile-time check: the array's size is
/// negative where the layout differs.
fn struct_layout_checks(scop: &Scop) -> String {
    let mut out = String::new();
    for a in scop.arrays.iter().filter(|a| !a.members.is_empty()) {
        // The struct's type where it has a name, else an element.
        let element: String = match &a.struct_type {
            Some(t) => t.clone(),
            None => std::iter::once(a.name.clone())
                .chain((1..a.extents.len()).map(|_| "[0]".to_string()))
                .collect(),
        };
        out.push_str(&format!(
            "{}/* pencilc: the structs of `{}` must be laid out member after member */\n",
            indent(1),
            a.name
        ));
        out.push_str(&format!(
            "{}typedef char pencilc_layout_{}[sizeof({}) == {} * sizeof({}) ? 1 : -1];\n{}(void)sizeof(pencilc_layout_{});\n",
            indent(1),
            a.name,
            element,
            a.members.len(),
            a.elem_type,
            indent(1),
            a.name
        ));
    }
    out
}

/// The condition that no two arrays of `Scop::may_alias` share a byte:
/// `kern(n, X + 1, X)` passes overlapping arrays, which C allows, and the
/// generated code (separate device buffers, reordered instances) would
/// compute something else. The whole declared extents of arrays are
/// compared, not the elements accessed, because their copies move whole
/// extents; a pointer's copies move the range the region touches, and
/// that range is compared (`footprint::byte_range`). Addresses are
/// compared as integers: comparing pointers into different objects is
/// undefined in C. Every target's versions sit behind this one check
/// (the OpenMP target's too: `ast::frame` measures its footprints).
fn no_overlap_check(scop: &Scop, ast: &crate::ast::GpuAst) -> Option<String> {
    let mut conds = Vec::new();
    for (a, b) in &scop.may_alias {
        // Pointers: the bytes the region touches (`footprint`).
        let (Some((a, sa)), Some((b, sb))) = (
            footprint::byte_range(scop, ast, a),
            footprint::byte_range(scop, ast, b),
        ) else {
            // A pair whose bytes are unknown may overlap: the generated
            // code never runs, rather than run on overlapping memory.
            conds.push("0".to_string());
            continue;
        };
        conds.push(format!("({a} + {sa} <= {b} || {b} + {sb} <= {a})"));
    }
    if conds.is_empty() {
        None
    } else {
        Some(conds.join(" && "))
    }
}

/// OpenCL C reserves `long long` (clang makes it 128 bits on SPIR
/// targets, so a buffer of C's 64-bit `long long` would be read wrongly);
/// OpenCL's `long` is C's `long long`.
fn opencl_long_long(text: &str) -> String {
    let bytes = text.as_bytes();
    let is_ident = |i: usize| bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_';
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut from = 0;
    while let Some(off) = text[from..].find("long") {
        let p = from + off;
        let mut q = p + 4;
        while q < bytes.len() && (bytes[q] == b' ' || bytes[q] == b'\t') {
            q += 1;
        }
        let doubled = (p == 0 || !is_ident(p - 1))
            && q > p + 4
            && text[q..].starts_with("long")
            && (q + 4 == bytes.len() || !is_ident(q + 4));
        if doubled {
            out.push_str(&text[copied..p]);
            out.push_str("long");
            copied = q + 4;
            from = q + 4;
        } else {
            from = p + 4;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// The isl keywords (`mod`, `and`, `max`, ...) that the region's generated
/// code spells as `kw_`; an error if the region itself also names `kw_`
/// (both would be the same name in isl).
fn mangled_keywords(source: &SourceFile, scop: &Scop, host: &str) -> Result<Vec<String>> {
    let region: String = source
        .text
        .lines()
        .skip(scop.begin_line.saturating_sub(1) as usize)
        .take((scop.end_line + 1).saturating_sub(scop.begin_line) as usize)
        .collect::<Vec<_>>()
        .join("\n");
    // isl's keywords in any case (`INFINITY`, `Max`): the words `kw_`
    // of the code and of the parameters.
    let mut stems = std::collections::BTreeSet::new();
    let mut add = |w: &str| {
        if let Some(stem) = w.strip_suffix('_') {
            if crate::front::affine::is_isl_keyword(stem) {
                stems.insert(stem.to_string());
            }
        }
    };
    crate::front::names::for_each_identifier(host, |w, _| add(w));
    scop.params.iter().for_each(|p| add(p));
    let mut out = Vec::new();
    for kw in stems {
        let spelled = format!("{}_", kw);
        if has_word(&region, &spelled) {
            if !has_word(&region, &kw) {
                // The user's own `kw_`: nothing of the region is spelled so
                // by isl.
                continue;
            }
            return Err(Diagnostic::error(
                crate::diag::Code::UnsupportedStatement,
                Some(scop.loc.clone()),
                format!(
                    "the region names both `{}` and `{}`, which are one name to isl (it spells `{}` as `{}`)",
                    kw, spelled, kw, spelled
                ),
            )
            .with_hint(format!("rename `{}` in the region", spelled)));
        }
        out.push(kw);
    }
    Ok(out)
}

/// Where `word` occurs in `text` as a whole C identifier.
fn word_positions<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    text.match_indices(word).map(|(i, _)| i).filter(move |&i| {
        let end = i + word.len();
        (i == 0 || !ident(b[i - 1])) && (end == b.len() || !ident(b[end]))
    })
}

fn has_word(text: &str, word: &str) -> bool {
    word_positions(text, word).next().is_some()
}

/// `text` with each whole identifier `kw_` (for `kw` in `keywords`) back
/// to `kw`.
fn unmangle(text: &str, keywords: &[String]) -> String {
    let mut out = text.to_string();
    for kw in keywords {
        let spelled = format!("{}_", kw);
        let mut next = String::with_capacity(out.len());
        let mut last = 0;
        for i in word_positions(&out, &spelled) {
            next.push_str(&out[last..i]);
            next.push_str(kw);
            last = i + spelled.len();
        }
        next.push_str(&out[last..]);
        out = next;
    }
    out
}

/// A path as the text of a C string literal.
/// A file name between the quotes of `#include "..."`, which takes no
/// escapes: its own bytes, whether UTF-8 or not (`SourceFile::encode`
/// writes them back).
fn include_name(p: &Path) -> String {
    crate::front::parse::name_as_text(p.as_os_str())
}

/// A file name in a C string literal (`#line`): a name that is not UTF-8
/// keeps its bytes, as octal escapes, so the C compiler names the file
/// the user has.
fn c_path(p: &Path) -> String {
    if let Some(s) = p.to_str() {
        return c_string(s);
    }
    let mut out = String::new();
    for chunk in p.as_os_str().as_encoded_bytes().utf8_chunks() {
        out.push_str(&c_string(chunk.valid()));
        for b in chunk.invalid() {
            out.push_str(&format!("\\{:03o}", b));
        }
    }
    out
}

/// `s` as the text between the quotes of a C string literal: quotes,
/// backslashes and control characters escaped (octal, so that a digit
/// after them is not taken into the escape).
pub fn c_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '?' => out.push_str("\\?"), // no trigraphs
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03o}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// The deepest nesting of `( [ {` in C text, outside comments, strings and
/// character constants.
fn bracket_depth(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    max
}

/// The host's local that stands for a `register` scalar in the copies.
fn staged_scalar(name: &str) -> String {
    format!("pencilc_host_{}", name)
}

/// `s` as text inside a C block comment: no `*/` to end it early, no line
/// breaks or other control characters.
pub fn comment_text(s: &str) -> String {
    s.replace("*/", "*\\/")
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// The user's file with the prelude on top and each region replaced; line
/// directives keep the compiler's messages pointing at the user's lines.
fn splice(source: &SourceFile, prelude: &str, replacements: &[(u32, u32, String)]) -> String {
    let mut out = String::new();
    out.push_str(prelude.trim_end());
    out.push('\n');
    out.push_str(&spliced_lines(source, replacements));
    out
}

/// A header the main file includes, pasted in place of its `#include`
/// with the regions of this inclusion compiled: the preprocessor sees the
/// same text under the same macros, so the code around the regions means
/// what it meant. A `#pragma once` would be taken as the main file's.
fn paste_header(header: &SourceFile, codes: &[(u32, u32, String)]) -> String {
    let name = comment_text(&header.path.display().to_string());
    let text: String = header
        .text
        .split_inclusive('\n')
        .map(|l| {
            if is_pragma_once(l) {
                "/* #pragma once: pencilc pasted the header here */\n"
            } else {
                l
            }
        })
        .collect();
    let pasted = SourceFile {
        path: header.path.clone(),
        text,
    };
    format!(
        "/* pencilc: {}, included here, with its regions compiled for this inclusion */\n{}",
        name,
        spliced_lines(&pasted, codes).trim_end()
    )
}

fn is_pragma_once(line: &str) -> bool {
    let t = line.trim_start();
    let words: Vec<&str> = t.trim_start_matches('#').split_whitespace().collect();
    t.starts_with('#') && words == ["pragma", "once"]
}

fn has_pragma_once(text: &str) -> bool {
    text.lines().any(is_pragma_once)
}

/// The lines after `after` of the main file that `#include` `header`
/// again: the name resolved against the main file's folder, or else the
/// same file name (where an include path found it).
fn later_includes_of(source: &SourceFile, header: &Path, after: u32) -> Vec<u32> {
    let same_file = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    let dir = source.path.parent().unwrap_or(Path::new(""));
    let mut out = Vec::new();
    for (k, line) in source.text.lines().enumerate().skip(after as usize) {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let rest = rest.trim();
        let name = match (rest.chars().next(), rest.get(1..)) {
            (Some('"'), Some(r)) => r.split('"').next(),
            (Some('<'), Some(r)) => r.split('>').next(),
            _ => None,
        };
        let Some(name) = name else {
            continue;
        };
        let candidate = dir.join(name);
        let same = if candidate.exists() {
            same_file(&candidate, header)
        } else {
            Path::new(name).file_name() == header.file_name()
        };
        if same {
            out.push(k as u32 + 1);
        }
    }
    out
}

/// The file's lines, each region's lines replaced by its code, with
/// `#line` directives that keep the rest at its own lines.
fn spliced_lines(source: &SourceFile, replacements: &[(u32, u32, String)]) -> String {
    let file = c_path(&source.path);
    let mut out = format!("#line 1 \"{}\"\n", file);
    let lines: Vec<&str> = source.text.split_inclusive('\n').collect();
    let mut line = 1u32;
    let mut i = 0usize;
    while i < lines.len() {
        if let Some((_, end, code)) = replacements.iter().find(|(b, _, _)| *b == line) {
            out.push_str(code);
            out.push('\n');
            let next = end + 1;
            out.push_str(&format!("#line {} \"{}\"\n", next, file));
            i += (next - line) as usize;
            line = next;
            continue;
        }
        out.push_str(lines[i]);
        i += 1;
        line += 1;
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// `text` as a C string literal, one source line per line.
fn c_string_literal(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let esc: String = line
            .chars()
            .map(|c| match c {
                '\\' => "\\\\".to_string(),
                '"' => "\\\"".to_string(),
                '\n' => "\\n".to_string(),
                '\t' => "\\t".to_string(),
                '?' => "\\?".to_string(),
                c => c.to_string(),
            })
            .collect();
        out.push_str(&format!("    \"{}\"\n", esc));
    }
    if out.is_empty() {
        out.push_str("    \"\"");
    }
    out.trim_end().to_string()
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
