//! The text of each kernel (its parameters, identifiers and body), of the
//! reductions' combining kernels, and of the user's functions the kernels
//! call.

use super::*;

pub(super) struct KernelText {
    pub(super) name: String,
    pub(super) params: Vec<String>,
    pub(super) ids: Vec<String>,
    pub(super) body: String,
    /// CUDA's launcher (`<name>_launch`, a C function the host file
    /// calls): its parameters (the grid's `unsigned` dimensions, x first,
    /// then the kernel's parameters without `__restrict__`, so that the
    /// declaration is C and C++ alike), the grid and block it launches
    /// and the names it passes on.
    pub(super) launch: Launcher,
    /// A reduction's combining kernel (`kernelN_combine`), not a launch
    /// site of the mapped schedule.
    pub(super) helper: bool,
    /// Arguments the OpenCL build may give as constants (`specialise`).
    pub(super) specialised: Vec<specialise::Specialised>,
    /// Runs inside the combining kernel before it (`absorb`): not
    /// printed, though it keeps its number.
    pub(super) absorbed: bool,
    /// A CUDA `static __device__` function that a kernel calls (a
    /// reduction's combining code run by the launch's last block,
    /// `combine_function_text`), printed before the kernels, with
    /// `launch.params` as its parameters and no launcher.
    pub(super) device_fn: bool,
    /// An OpenCL kernel of one work-group that plays a host loop's
    /// launches (`ast::one_block`): the program asks the kernel before
    /// launching it (`group_check`), and it requires its work-group only
    /// where the device allows that many work-items.
    pub(super) group_checked: bool,
}

pub(super) fn kernel_text(
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
    // Both targets declare the block: CUDA's launcher launches it, an
    // OpenCL kernel requires it (`reqd_work_group_size`), which lets the
    // OpenCL compiler fit registers to it, as `__launch_bounds__` does.
    let block: Vec<i64> = launch_dims(l).iter().map(|(_, t)| *t).collect();
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
        Launcher::new(block.len(), block, &typed)
    } else {
        Launcher {
            block,
            ..Launcher::default()
        }
    };
    let n_block = l.plan.n_block;
    let n_thread = l.plan.block_sizes.len();
    let xyz = ["x", "y", "z"];
    let ity = &scop.index_type;
    let mut ids = Vec::new();
    for j in 0..n_block {
        let d = n_block - 1 - j;
        let id = match target {
            Target::OpenCl => format!("{} {} = get_group_id({})", ity, block_ids[j], d),
            _ => format!("{} {} = blockIdx.{}", ity, block_ids[j], xyz[d]),
        };
        ids.push(match l.block_offset_name(j) {
            Some(first) => format!("{} + {}", id, first),
            None => id,
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
        locals: Default::default(),
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
        absorbed: false,
        device_fn: false,
        specialised,
        group_checked: target == Target::OpenCl && l.plays_launches,
    })
}

/// The build-time values of the kernels of one region (`specialise`).
/// A called function's name in `target`'s kernels.
pub(super) fn device_call_name(target: Target, f: &str) -> String {
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
    if target == Target::Cuda {
        // CUDA overloads min, max and abs for `long` and the unsigned
        // types: `min(y, a)` of two longs kept 64 bits where PENCIL's (and
        // C's, for abs) `int` one truncates both (a silent difference, red
        // team round 9).
        match f {
            "abs" => return "abs32".to_string(),
            "min" => return "imin".to_string(),
            "max" => return "imax".to_string(),
            "clamp" => return "clamp32".to_string(),
            _ => {}
        }
    }
    f.to_string()
}

/// The device copies of the file's functions that the regions' kernels
/// call (`device_fn`; the driver leaves out those the user's device code
/// defines, and keeps a region that calls a function without one on the
/// host).
pub(super) fn called_functions(regions: &[RegionCode], target: Target) -> Result<String> {
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

pub(super) fn region_values(kernels: &[KernelText]) -> Option<specialise::RegionValues> {
    specialise::region_values(kernels.iter().map(|k| k.specialised.as_slice()))
}

/// An element type as kernels declare buffers and arguments of it.
pub(super) fn opencl_type(t: &str) -> String {
    crate::front::syntax::buffer_type(t)
}

/// The kernel that combines a launch's partials into its reduction
/// variables (`reduce::combine_kernel_body`).
pub(super) fn combine_kernel_text(
    privs: &[reduce::Privatized],
    target: Target,
    kernel: &str,
) -> KernelText {
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
    // After the group count, the element of each variable reduced into
    // one element (`reduction_launch` passes them in this order).
    for p in privs.iter().filter(|p| p.at.is_some()) {
        params.push(format!("long {}", p.at_name()));
        typed.push(("long".to_string(), p.at_name()));
    }
    KernelText {
        name: format!("{}_combine", kernel),
        params,
        ids: vec![],
        body: reduce::combine_kernel_body(privs, target),
        // One block per element (`reduction_launch`).
        launch: Launcher::new(1, vec![reduce::COMBINE_THREADS], &typed),
        helper: true,
        absorbed: false,
        device_fn: false,
        specialised: Vec::new(),
        group_checked: false,
    }
}

/// The combining code of a CUDA launch whose last block combines its
/// partials (`reduce::last_block_combine_body`), as a device function of
/// the thread's id in the block and the number of blocks, then for each
/// variable its tree (the kernel's shared array), its buffer and its
/// partials, then the element of each one-element reduction. Pointers
/// without `__restrict__`: the kernel passes on its own. `threads` is
/// the launch's block size.
pub(super) fn combine_function_text(
    privs: &[reduce::Privatized],
    kernel: &str,
    threads: i64,
) -> KernelText {
    let mut typed = vec![
        ("int".to_string(), "pencilc_lid".to_string()),
        ("int".to_string(), "pencilc_groups".to_string()),
    ];
    for p in privs {
        typed.push((format!("{} *", p.elem_type), p.tree_name()));
        typed.push((format!("{} *", p.elem_type), p.var.clone()));
        typed.push((format!("{} *", p.elem_type), p.partial_name()));
    }
    for p in privs.iter().filter(|p| p.at.is_some()) {
        typed.push(("long".to_string(), p.at_name()));
    }
    let launch = Launcher::new(0, vec![threads], &typed);
    KernelText {
        name: format!("{}_combine", kernel),
        params: launch.params.clone(),
        ids: vec![],
        body: reduce::last_block_combine_body(privs, threads),
        launch,
        helper: true,
        absorbed: false,
        device_fn: true,
        specialised: Vec::new(),
        group_checked: false,
    }
}

/// The parameters of a combining device function after the thread's id
/// and the number of blocks (`combine_function_text`, then what `absorb`
/// added), each with the name the kernel passes: its own where the
/// kernel has it (a tree, a buffer of the same name: the same device
/// memory), else `None` (the kernel takes it as a parameter of its own,
/// `forwarded_name`).
pub(super) fn combine_function_args(
    combine: &KernelText,
    kernel_buffers: &[&str],
    trees: &[String],
) -> Vec<(String, Option<String>)> {
    combine.launch.args[2..]
        .iter()
        .zip(&combine.launch.params[2..])
        .map(|(name, decl)| {
            let own = (trees.iter().any(|t| t == name)
                || (decl.contains('*') && kernel_buffers.contains(&name.as_str())))
            .then(|| name.clone());
            (name.clone(), own)
        })
        .collect()
}

/// The kernel's own parameter for a value it passes on to its combining
/// device function.
pub(super) fn forwarded_name(name: &str) -> String {
    format!("pencilc_fwd_{}", name)
}

/// Makes the kernel `main` end with its last block calling its
/// combining device function, whose parameters are `combine_params`
/// (`reduce::last_block_call`): the values `args` marks `None` become
/// parameters of `main` (and of its launcher, after its own), in order.
pub(super) fn call_from_last_block(
    main: &mut KernelText,
    combine_params: &[String],
    args: &[(String, Option<String>)],
    launch: &Launch,
) {
    let mut names = Vec::new();
    for ((name, own), decl) in args.iter().zip(&combine_params[2..]) {
        match own {
            Some(own) => names.push(own.clone()),
            None => {
                let fwd = forwarded_name(name);
                let ty = decl[..decl.len() - name.len()].trim_end();
                let decl = if ty.ends_with('*') {
                    format!("{}{}", ty, fwd)
                } else {
                    format!("{} {}", ty, fwd)
                };
                main.params.push(decl.clone());
                main.launch.params.push(decl);
                main.launch.args.push(fwd.clone());
                names.push(fwd);
            }
        }
    }
    let kernel = &main.name;
    main.body
        .push_str(&reduce::last_block_call(launch, kernel, &names));
}

#[derive(Default)]
pub(super) struct Launcher {
    pub(super) params: Vec<String>,
    pub(super) grid: Vec<String>,
    pub(super) block: Vec<i64>,
    pub(super) args: Vec<String>,
}

impl Launcher {
    /// A launcher of a grid of `grid_dims` dimensions of blocks of
    /// `block` threads (x first), passing on `params` (type and name as
    /// the kernel declares them).
    pub(super) fn new(grid_dims: usize, block: Vec<i64>, params: &[(String, String)]) -> Launcher {
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

/// The name a kernel's parameter declares (`double *__restrict__ A`,
/// `int n`).
fn param_name(param: &str) -> &str {
    param
        .rsplit(|c: char| c.is_whitespace() || c == '*')
        .next()
        .unwrap_or(param)
}

/// Makes `combine`, a combining kernel of one work-group (scalar
/// reductions), run `single`, a kernel of one thread launched right after
/// it, on its work-item 0 once the reductions' values are written: one
/// launch instead of two, and no kernel of one thread. Returns the
/// positions of `single`'s parameters that `combine` takes in addition,
/// in order (the host passes their values after its own).
pub(super) fn absorb(combine: &mut KernelText, single: &mut KernelText) -> Vec<usize> {
    let mut added = Vec::new();
    let grid = single.launch.grid.len();
    for (k, param) in single.params.iter().enumerate() {
        let name = param_name(param);
        if combine.params.iter().any(|p| param_name(p) == name) {
            continue;
        }
        combine.params.push(param.clone());
        if let Some(decl) = single.launch.params.get(grid + k) {
            combine.launch.params.push(decl.clone());
            combine.launch.args.push(name.to_string());
        }
        added.push(k);
    }
    // A combining kernel's first work-group, or the last block that runs
    // a combining device function (whose ids are not the one-thread
    // kernel's: those are all zero).
    let mut body = if combine.device_fn {
        String::from("    if (pencilc_lid == 0) {\n")
    } else {
        String::from("    if (pencilc_e == 0 && pencilc_lid == 0) {\n")
    };
    for id in &single.ids {
        let id = if combine.device_fn {
            ["x", "y", "z"].iter().fold(id.clone(), |id, d| {
                id.replace(&format!("blockIdx.{}", d), "0")
                    .replace(&format!("threadIdx.{}", d), "0")
            })
        } else {
            id.clone()
        };
        body.push_str(&format!("        {};\n", id));
    }
    for line in single.body.lines() {
        if line.is_empty() {
            body.push('\n');
        } else {
            body.push_str(&format!("    {}\n", line));
        }
    }
    body.push_str("    }\n");
    combine.body.push_str(&body);
    combine
        .specialised
        .extend(single.specialised.iter().cloned());
    single.absorbed = true;
    added
}
