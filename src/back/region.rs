//! One region's host code: its launches in the order of the host AST, the
//! device buffers and temporaries around them, and the kernels' texts the
//! region adds to its file.

use super::*;
use crate::ast::{AExpr, Ast, CopyIn};

/// A kernel's slices: each buffer's name, element type and extents
/// (`private::slices`).
pub(super) type Slices = Vec<(String, String, Vec<Expr>)>;

/// What the back end decided for each launch of a region, in launch
/// order: the arguments its kernel takes, the reductions it privatises
/// (`reduce::Plan`) and the slices of its compound statements' locals.
pub(super) struct RegionLaunches {
    pub(super) args: Vec<Vec<KernelArg>>,
    pub(super) plans: Vec<reduce::Plan>,
    pub(super) slices: Vec<Slices>,
    /// Reduction launches whose combining kernel runs the launch after
    /// them (`fused_epilogues`): that launch and the positions of its
    /// arguments the combining kernel takes in addition.
    pub(super) epilogue: BTreeMap<usize, (usize, Vec<usize>)>,
    /// The launches so run: no launch of their own where the value is
    /// `None`; otherwise a launch of their own only where that condition
    /// holds (the reduction's launch, under guards the launch's imply,
    /// did not run).
    pub(super) absorbed: BTreeMap<usize, Option<AExpr>>,
    /// CUDA reduction launches whose last block combines the partials
    /// (`reduce::last_block_call`): for each parameter of the combining
    /// device function after the thread's id and the number of blocks,
    /// whether the kernel takes it as a parameter of its own (the host
    /// passes it after the kernel's other arguments).
    pub(super) last_block: BTreeMap<usize, Vec<bool>>,
}

/// The launches of one thread that run in a reduction's combining kernel
/// (`ast::reductions::fused_epilogues`), given the slices this back end
/// gives compound statements' locals.
fn fused_epilogues(
    r: &RegionCode,
    launches: &RegionLaunches,
    target: Target,
) -> Vec<(usize, usize, Option<AExpr>)> {
    crate::ast::reductions::fused_epilogues(
        r.scop,
        &r.ast.host,
        &r.ast.launches,
        &launches.plans,
        &|i| !launches.slices[i].is_empty(),
        reduce::last_block_combines(target == Target::Cuda),
    )
}

/// Moves each kernel of one thread that `fused_epilogues` finds into the
/// combining kernel before it (`kernel_text::absorb`).
fn absorb_epilogues(
    r: &RegionCode,
    launches: &mut RegionLaunches,
    kernel_names: &[String],
    texts: &mut [KernelText],
    notes: &mut Vec<String>,
    target: Target,
) {
    for (j, i, unless) in fused_epilogues(r, launches, target) {
        let combine = format!("{}_combine", kernel_names[i]);
        let (Some(c), Some(k)) = (
            texts.iter().position(|t| t.name == combine),
            texts.iter().position(|t| t.name == kernel_names[j]),
        ) else {
            continue;
        };
        let (c_text, k_text) = if c < k {
            let (a, b) = texts.split_at_mut(k);
            (&mut a[c], &mut b[0])
        } else {
            let (a, b) = texts.split_at_mut(c);
            (&mut b[0], &mut a[k])
        };
        let added = absorb(c_text, k_text);
        launches.epilogue.insert(i, (j, added));
        let note = match &unless {
            None => "no kernel of one thread".to_string(),
            Some(c) => {
                // Still launched where the reduction's own guard fails.
                k_text.absorbed = false;
                format!("launched alone only where `{}` fails", c.to_c())
            }
        };
        launches.absorbed.insert(j, unless);
        notes.push(format!(
            "kernel[{}] runs in {} on its work-item 0, after the reduction's result: {}",
            r.ast.launches[j].plan.number, combine, note
        ));
    }
}

/// Ends each CUDA reduction kernel whose combining code is a device
/// function (`kernel_text::combine_function_text`) with the call from
/// its last block (`kernel_text::call_from_last_block`), after
/// `absorb_epilogues` put any kernel of one thread into that function.
fn call_combines_from_last_blocks(
    r: &RegionCode,
    launches: &mut RegionLaunches,
    kernel_names: &[String],
    texts: &mut [KernelText],
) {
    for (i, l) in r.ast.launches.iter().enumerate() {
        let privs = &launches.plans[i].privatized;
        let combine = format!("{}_combine", kernel_names[i]);
        let (Some(c), Some(k)) = (
            texts.iter().position(|t| t.name == combine && t.device_fn),
            texts.iter().position(|t| t.name == kernel_names[i]),
        ) else {
            continue;
        };
        let buffers: Vec<&str> = launches.args[i]
            .iter()
            .filter(|a| matches!(a, KernelArg::Buffer { .. }))
            .map(|a| a.name())
            .collect();
        let trees: Vec<String> = privs.iter().map(|p| p.tree_name()).collect();
        let args = combine_function_args(&texts[c], &buffers, &trees);
        let params = texts[c].launch.params.clone();
        call_from_last_block(&mut texts[k], &params, &args, l);
        launches
            .last_block
            .insert(i, args.iter().map(|(_, own)| own.is_none()).collect());
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn emit_region(
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
    let mut launches = region_kernels(r, spelling, target, first_kernel, kernels, notes, warnings)?;
    let kernel_names: Vec<String> = (0..r.ast.launches.len())
        .map(|i| spelling.kernel_name(first_kernel + i))
        .collect();
    if target != Target::C {
        absorb_epilogues(
            r,
            &mut launches,
            &kernel_names,
            &mut kernels[first_text..],
            notes,
            target,
        );
    }
    if target == Target::Cuda {
        call_combines_from_last_blocks(r, &mut launches, &kernel_names, &mut kernels[first_text..]);
    }
    check_bracket_depth(&kernels[first_text..])?;
    let mut all_kernel_names = Vec::new();
    for (i, name) in kernel_names.iter().enumerate() {
        if !matches!(launches.absorbed.get(&i), Some(None)) {
            all_kernel_names.push(name.clone());
        }
        if !launches.plans[i].privatized.is_empty() && !launches.last_block.contains_key(&i) {
            all_kernel_names.push(format!("{}_combine", name));
        }
    }
    let body = host_body(
        tera,
        r,
        spelling,
        target,
        &launches,
        &kernel_names,
        live_out,
    )?;

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
    ctx.insert("local_frees", &scop.local_frees);
    ctx.insert("kernels", &all_kernel_names);
    let buffers = buffers(r, spelling);
    ctx.insert("buffers", &buffers);
    let (prologue, epilogue) = host_prologue_epilogue(r, target);
    ctx.insert("prologue", &prologue);
    ctx.insert("epilogue", &epilogue);
    ctx.insert("specialise", &region_values(&kernels[first_text..]));
    ctx.insert(
        "scratch",
        &scratch_buffers(&launches, &kernel_names, &spelling.dev),
    );
    let name = match target {
        Target::OpenCl => "opencl/region.c.tera",
        Target::Cuda => "cuda/region.c.tera",
        Target::C => "c/region.c.tera",
    };
    templates::render(tera, name, &ctx)
}

/// `scop::nesting` keeps deeper regions on the host; a kernel beyond
/// clang's bracket limit would fail to build when the program runs.
fn check_bracket_depth(kernels: &[KernelText]) -> Result<()> {
    for k in kernels {
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
    Ok(())
}

/// The region's host code: its loops and launches as the host AST has
/// them (the C target: the CPU version's loops, or the launches' loops
/// over blocks and threads), and after them the iterators the region
/// leaves in the user's variables where `live_out`.
fn host_body(
    tera: &tera::Tera,
    r: &RegionCode,
    spelling: &Spelling,
    target: Target,
    launches: &RegionLaunches,
    kernel_names: &[String],
    live_out: bool,
) -> Result<String> {
    let scop = r.scop;
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
        locals: Default::default(),
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
        let text = launch_text(
            tera,
            r,
            spelling,
            target,
            &printer,
            launches,
            kernel_names,
            i,
        )?;
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
        _ if target == Target::OpenCl => {
            let host = checked_groups(&r.ast.host, &r.ast.launches, kernel_names);
            printer.print(&host, 2, &mut body, &mut launch_fn)?
        }
        _ => printer.print(&r.ast.host, 2, &mut body, &mut launch_fn)?,
    }
    // The user's variables that served as loop iterators hold, after the
    // region, what the loops left there; the generated loops have their
    // own iterators. (With three versions, the caller assigns them.)
    if live_out {
        body.push_str(&choice::live_out_text(r));
    }
    Ok(body.trim_end().to_string())
}

/// The host code with each OpenCL launch that plays a host loop's
/// launches (`ast::one_block`, which keeps the loop in the `else` of its
/// condition for this) run only where the kernel allows its work-group
/// on the device (`pencilc_group_fits`: the device's limit and the
/// kernel's own, from its registers); elsewhere the loop runs its
/// launches.
fn checked_groups(host: &Ast, launches: &[crate::ast::Launch], kernel_names: &[String]) -> Ast {
    let mut host = host.clone();
    host.walk_mut(&mut |n| {
        let Ast::If {
            cond,
            then_,
            else_: Some(_),
        } = n
        else {
            return;
        };
        let Ast::Launch(i) = **then_ else {
            return;
        };
        let (Some(l), Some(kernel)) = (launches.get(i), kernel_names.get(i)) else {
            return;
        };
        if !l.plays_launches {
            return;
        }
        let items: i64 = l.plan.block_sizes.iter().product();
        let fits = AExpr::Op(
            crate::ast::AOp::Call,
            vec![
                AExpr::Id(GROUP_FITS.to_string()),
                AExpr::Id(kernel.clone()),
                AExpr::Int(items),
            ],
        );
        *cond = match std::mem::replace(cond, AExpr::Int(1)) {
            AExpr::Int(1) => fits,
            small => AExpr::Op(crate::ast::AOp::And, vec![fits, small]),
        };
    });
    host
}

/// The OpenCL host prelude's test of a kernel's work-group
/// (`checked_groups`).
const GROUP_FITS: &str = "pencilc_group_fits";

/// Launch `i` of the region as host code: the target's launch, inside
/// its reductions' and slices' temporaries where it has them.
#[allow(clippy::too_many_arguments)]
fn launch_text(
    tera: &tera::Tera,
    r: &RegionCode,
    spelling: &Spelling,
    target: Target,
    printer: &BodyPrinter,
    launches: &RegionLaunches,
    kernel_names: &[String],
    i: usize,
) -> Result<String> {
    let unless = match launches.absorbed.get(&i) {
        // Its combining kernel runs it.
        Some(None) => return Ok(String::new()),
        Some(Some(c)) => Some(c),
        None => None,
    };
    let l = &r.ast.launches[i];
    let (name, args) = (&kernel_names[i], &launches.args[i]);
    let privatized = &launches.plans[i].privatized;
    // The arguments the kernel of one thread that the combining code runs
    // takes in addition (`absorb`).
    let extra: Vec<serde_json_like::Arg> = match launches.epilogue.get(&i) {
        Some((j, added)) => added
            .iter()
            .map(|&k| {
                host_arg(
                    &r.ast.launches[*j],
                    &launches.args[*j][k],
                    &r.scop.index_type,
                    &spelling.dev,
                )
            })
            .collect(),
        None => Vec::new(),
    };
    // What the kernel passes on to its combining device function.
    let forwarded: Vec<String> = match launches.last_block.get(&i) {
        Some(mask) => combine_host_values(r.scop, l, privatized, &extra, &spelling.dev)
            .into_iter()
            .zip(mask)
            .filter(|(_, fwd)| **fwd)
            .map(|(v, _)| v)
            .collect(),
        None => Vec::new(),
    };
    let text = match target {
        Target::OpenCl => launch_opencl(tera, l, name, args, &r.scop.index_type, &spelling.dev)?,
        Target::Cuda => launch_cuda(tera, l, name, args, &forwarded, &spelling.dev)?,
        Target::C => launch_c(printer, l, &r.ast.block_ids, &r.ast.thread_ids)?,
    };
    let text = if privatized.is_empty() {
        text
    } else {
        reduction_launch(
            tera,
            r.scop,
            l,
            name,
            privatized,
            &extra,
            launches.last_block.contains_key(&i),
            &text,
            target,
            &spelling.dev,
        )?
    };
    let slices = &launches.slices[i];
    let text = if slices.is_empty() {
        text
    } else {
        slice_launch(tera, l, name, slices, &text, target, &spelling.dev)?
    };
    Ok(match unless {
        None => text,
        Some(c) => format!(
            "if (!({})) {{\n{}}}\n",
            c.to_c(),
            launch::indented_once(&text)
        ),
    })
}

/// Host code around the region's device code: a `register` scalar has no
/// address for the copies to use, so they go through a local, copied back
/// after the device's values arrive.
fn host_prologue_epilogue(r: &RegionCode, target: Target) -> (Vec<String>, Vec<String>) {
    let scop = r.scop;
    let mut prologue = if target == Target::C {
        Vec::new()
    } else {
        footprint::host_decls(scop, r.ast)
    };
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
    (prologue, epilogue)
}

/// The device temporaries the region's launches grow as they need
/// (`pencilc_scratch`): reduction partials and slices, one buffer per
/// name for the whole region.
pub(super) fn scratch_buffers(
    launches: &RegionLaunches,
    kernel_names: &[String],
    dev: &str,
) -> Vec<serde_json_like::Scratch> {
    let mut out: Vec<serde_json_like::Scratch> = Vec::new();
    let partials = launches
        .plans
        .iter()
        .flat_map(|p| &p.privatized)
        .map(|p| (p.partial_name(), p.elem_type.clone()));
    // The last blocks' counters (`reduce::done_counter`).
    let counters = launches
        .last_block
        .keys()
        .map(|&i| (reduce::done_counter(&kernel_names[i]), "int".to_string()));
    let slices = launches
        .slices
        .iter()
        .flatten()
        .map(|(name, elem_type, _)| (private::slice_buffer(name), opencl_type(elem_type)));
    for (name, elem_type) in partials.chain(counters).chain(slices) {
        let buffer = format!("{}{}", dev, name);
        if !out.iter().any(|s| s.buffer == buffer) {
            out.push(serde_json_like::Scratch { buffer, elem_type });
        }
    }
    out
}

/// What the back end decides for each launch of a region
/// (`RegionLaunches`); the kernels' texts (each followed by its
/// reductions' combining kernel if it has one) go to `kernels`.
pub(super) fn region_kernels(
    r: &RegionCode,
    spelling: &Spelling,
    target: Target,
    first_kernel: usize,
    kernels: &mut Vec<KernelText>,
    notes: &mut Vec<String>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<RegionLaunches> {
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
            // An array reduced into one element per launch stays: the
            // kernel reads its other elements.
            args.retain(|a| {
                !plan
                    .privatized
                    .iter()
                    .any(|p| p.var == a.name() && p.at.is_none())
            });
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
            if reduce::last_block_combines(target == Target::Cuda) {
                args.insert(
                    at + plan.privatized.len(),
                    KernelArg::Buffer {
                        name: reduce::done_counter(&spelling.kernel_name(first_kernel + l.index)),
                        elem_type: "int".to_string(),
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
                let name = spelling.kernel_name(number);
                if reduce::last_block_combines(target == Target::Cuda) {
                    // A device function the kernel calls: before it.
                    let at = kernels.len() - 1;
                    kernels.insert(
                        at,
                        combine_function_text(&plan.privatized, &name, reduce::group_size(l)),
                    );
                } else {
                    kernels.push(combine_kernel_text(&plan.privatized, target, &name));
                }
            }
        }
        args_per_launch.push(args);
        plans.push(plan);
        slices_per_launch.push(slices);
    }
    Ok(RegionLaunches {
        args: args_per_launch,
        plans,
        slices: slices_per_launch,
        epilogue: BTreeMap::new(),
        absorbed: BTreeMap::new(),
        last_block: BTreeMap::new(),
    })
}

/// The region's device buffers: for each array it writes or reads (not
/// the scalars it only reads, which kernels take by value), the user's
/// memory, the bytes allocated and copied, and the copies each way.
pub(super) fn buffers(r: &RegionCode, spelling: &Spelling) -> Vec<serde_json_like::Buffer> {
    r.scop
        .arrays
        .iter()
        // Not what only the host's set-up touches (`Scop::host_prologue`).
        .filter(|a| a.written || (a.read && !a.is_scalar()))
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
            let copy_in = r.ast.copy_in(&r.deps.copy_in, &a.name);
            serde_json_like::Buffer {
                dev: spelling.buffer(&a.name),
                host,
                alloc,
                size,
                first,
                base,
                // The kernels' type (CUDA's host declares the device pointer).
                elem_type: opencl_type(&a.elem_type),
                copy_in: copy_in != CopyIn::Never,
                copy_in_if: match copy_in {
                    CopyIn::When(c) => Some(c.to_c()),
                    _ => None,
                },
                copy_out: r.deps.copy_out.contains(&a.name),
            }
        })
        .collect()
}

/// The host's local that stands for a `register` scalar in the copies.
pub(super) fn staged_scalar(name: &str) -> String {
    format!("pencilc_host_{}", name)
}
