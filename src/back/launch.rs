//! The host's side of a launch: CUDA's launchers and their calls, OpenCL's
//! argument setting and enqueueing, the C target's loops over blocks and
//! threads, and the temporaries a reduction or a slice needs around it.

use super::*;

/// How the host passes kernel argument `a` of launch `l` through OpenCL
/// (a buffer or a value, its type there, the host's value); also the
/// arguments a combining kernel passes on to the kernel it runs after the
/// reduction (`kernel_text::absorb`).
pub(super) fn host_arg(
    l: &Launch,
    a: &KernelArg,
    index_type: &str,
    dev: &str,
) -> serde_json_like::Arg {
    serde_json_like::Arg {
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
    }
}

/// A launch whose kernel privatizes reductions: partial arrays around it,
/// then the combining kernel (with `extra` arguments where it runs the
/// next launch's kernel too).
#[allow(clippy::too_many_arguments)]
pub(super) fn reduction_launch(
    tera: &tera::Tera,
    scop: &Scop,
    l: &Launch,
    kernel: &str,
    privs: &[reduce::Privatized],
    extra: &[serde_json_like::Arg],
    last_block: bool,
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
    let ats = at_values(scop, l, privs);
    let groups: Vec<String> = launch_dims(l)
        .iter()
        .map(|(b, _)| format!("(size_t) ({})", launch_value_c(l, b)))
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
    let launch = indented_once(launch);
    let mut ctx = Context::new();
    ctx.insert("kernel", kernel);
    ctx.insert("dev", dev);
    ctx.insert("groups", &groups.join(" * "));
    ctx.insert("privs", &ps);
    ctx.insert("elems", &privs.iter().map(|p| p.len).max().unwrap_or(1));
    ctx.insert("combine_threads", &reduce::COMBINE_THREADS);
    ctx.insert("extra", extra);
    // After the variables' and partials' buffers and the group count.
    ctx.insert("extra_first", &(privs.len() * 2 + 1 + ats.len()));
    ctx.insert("ats", &ats);
    ctx.insert("ats_first", &(privs.len() * 2 + 1));
    ctx.insert("launch", launch.trim_end());
    ctx.insert("last_block", &last_block);
    ctx.insert("done", &reduce::done_counter(kernel));
    let name = match target {
        Target::OpenCl => "opencl/reduce_launch.c.tera",
        _ => "cuda/reduce_launch.c.tera",
    };
    templates::render(tera, name, &ctx)
}

/// The index of each one-element reduction's element in its device
/// buffer, on the host (the combining code's arguments after the
/// variables): row-major with the array's extents (a VLA's read from the
/// function's variables), less the buffer's offset where it starts after
/// the user's pointer (`footprint::device_index`).
fn at_values(scop: &Scop, l: &Launch, privs: &[reduce::Privatized]) -> Vec<String> {
    privs
        .iter()
        .filter_map(|p| {
            let subs: Vec<String> =
                p.at.as_ref()?
                    .iter()
                    .map(|s| launch_value_c(l, &s.substitute(&l.host_values)))
                    .collect();
            let lin = match scop.array(&p.var) {
                Some(a) => {
                    let extents: Vec<String> = a.extents.iter().map(extent_c).collect();
                    footprint::device_index(a, reduce::linear_c(&extents, &subs))
                }
                None => reduce::linear(&p.extents, &subs),
            };
            // In `long`: the array may have more elements than `int` holds.
            Some(format!("(long) ({})", lin))
        })
        .collect()
}

/// The host's values of a combining device function's parameters after
/// the thread's id and the number of blocks
/// (`kernel_text::combine_function_text`, then `extra`): a tree has none
/// (the kernel's own shared array).
pub(super) fn combine_host_values(
    scop: &Scop,
    l: &Launch,
    privs: &[reduce::Privatized],
    extra: &[serde_json_like::Arg],
    dev: &str,
) -> Vec<String> {
    let mut values = Vec::new();
    for p in privs {
        values.push(String::new());
        values.push(format!("{}{}", dev, p.var));
        values.push(format!("{}{}", dev, p.partial_name()));
    }
    values.extend(at_values(scop, l, privs));
    values.extend(extra.iter().map(|a| a.value.clone()));
    values
}

/// The buffers of a kernel's slices (`private::Placement::Slice`) join its
/// buffers, and the variables of their extents its integers.
pub(super) fn add_slice_args(args: &mut Vec<KernelArg>, slices: &[(String, String, Vec<Expr>)]) {
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
pub(super) fn slice_launch(
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
        .map(|(b, t)| format!("(size_t) ({}) * {}", launch_value_c(l, b), t))
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
    let launch = indented_once(launch);
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

/// C for a launch's grid size or host value `e`: in `long` where the
/// launch's grid starts at its first tile (`AExpr::to_c_wide`).
pub(super) fn launch_value_c(l: &Launch, e: &AExpr) -> String {
    if l.block_offsets.iter().any(Option::is_some) {
        e.to_c_wide()
    } else {
        e.to_c()
    }
}

/// OpenCL dimension d (0 = x) of a launch: (blocks, threads per block).
pub(super) fn launch_dims(l: &Launch) -> Vec<(AExpr, i64)> {
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
pub(super) fn host_value(l: &Launch, a: &KernelArg, dev: &str) -> String {
    match a {
        KernelArg::Buffer { name, .. } => format!("{}{}", dev, name),
        other => match l.host_values.iter().find(|(n, _)| n == other.name()) {
            // A first tile is computed in `long`; a host loop's value is
            // the loop's iterator.
            Some((n, v)) if l.block_offsets.iter().flatten().any(|o| o == n) => v.to_c_wide(),
            Some((_, v)) => v.to_c(),
            None => other.name().to_string(),
        },
    }
}

pub(super) fn launch_opencl(
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
        .map(|(b, t)| format!("(size_t) ({}) * {}", launch_value_c(l, b), t))
        .collect();
    let local: Vec<String> = dims.iter().map(|(_, t)| t.to_string()).collect();
    let a: Vec<serde_json_like::Arg> = args
        .iter()
        .map(|a| host_arg(l, a, index_type, dev))
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
pub(super) fn launch_cuda(
    tera: &tera::Tera,
    l: &Launch,
    kernel: &str,
    args: &[KernelArg],
    forwarded: &[String],
    dev: &str,
) -> Result<String> {
    let a: Vec<String> = launch_dims(l)
        .iter()
        .map(|(b, _)| launch_value_c(l, b))
        .chain(args.iter().map(|a| host_value(l, a, dev)))
        .chain(forwarded.iter().cloned())
        .collect();
    let mut ctx = Context::new();
    ctx.insert("args", &a);
    ctx.insert("kernel", kernel);
    templates::render(tera, "cuda/launch.c.tera", &ctx)
}

/// The C target runs every block and thread of a launch as loops.
pub(super) fn launch_c(
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
        let (first, end) = match l.block_offset(j) {
            Some(v) => (
                launch_value_c(l, v),
                format!("({}) + ({})", v.to_c_wide(), l.grid[j].to_c_wide()),
            ),
            None => ("0".to_string(), launch_value_c(l, &l.grid[j])),
        };
        out.push_str(&format!(
            "{}for ({} {b} = {}; {b} < {}; {b} += 1)\n",
            indent(depth),
            printer.scop.index_type,
            first,
            end,
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

/// `text` one level deeper (empty lines stay empty), as the templates
/// nest a launch inside the block of its temporaries.
pub(super) fn indented_once(text: &str) -> String {
    text.lines()
        .map(|line| {
            if line.is_empty() {
                "\n".to_string()
            } else {
                format!("    {}\n", line)
            }
        })
        .collect()
}
