//! The run-time choice between a region's versions in OpenCL and CUDA
//! programs: the device version (its kernels), the host version (the CPU
//! version of `map::cpu`, OpenMP) and the original code. The region's
//! entry check (`versioned`) decides, as before, whether the generated
//! versions may run at all; where they may, `pencilc_choose` (the
//! prelude's `choice.h.tera`) compares their estimated times from the
//! device description's cost model (`device::CostModel`) and counts the
//! region computes at its actual parameter values:
//!
//! - instances: the volume of each statement's instance box times the share
//!   of it that the instances fill (`ast::instance_boxes`),
//!   and apart, those of statements that run on one work-item of the device
//!   (kernels without a parallel loop, which it runs at a thread's pace);
//! - bytes: what the device version copies in and out (whole arrays);
//! - launches and parallel loops: the device version's host code and the
//!   host version run as skeletons, loops and conditions only, counting
//!   launches and `parallel for` loops entered (exact, and cheap beside
//!   what each costs).

use super::body::{extent_c, indent, BodyPrinter, DataStyle};
use super::{templates, RegionCode, Target};
use crate::ast::{AExpr, Ast, CopyIn, Launch};
use crate::device::CostModel;
use crate::diag::{Diagnostic, Result};
use crate::scop::StmtId;
use std::collections::BTreeSet;
use tera::Context;

/// The prelude's chooser (`choice.h.tera`) for the cost model `costs` of
/// the device description named `device`.
pub fn prelude(tera: &tera::Tera, costs: &CostModel, device: &str) -> Result<String> {
    // Numbers as C literals, the same text for the same value everywhere.
    let c = |v: f64| format!("{:e}", v);
    let mut m = std::collections::BTreeMap::new();
    m.insert("launch_latency_us", c(costs.launch_latency_us));
    m.insert("transfer_bandwidth_gbs", c(costs.transfer_bandwidth_gbs));
    m.insert("moved", c(if costs.moves_bytes { 1.0 } else { 0.0 }));
    m.insert("setup_ms", c(costs.setup_ms));
    m.insert("device_ns_per_instance", c(costs.device_ns_per_instance));
    m.insert(
        "device_serial_ns_per_instance",
        c(costs.device_serial_ns_per_instance),
    );
    m.insert("host_ns_per_instance", c(costs.host_ns_per_instance));
    m.insert(
        "host_version_ns_per_instance",
        c(costs.host_version_ns_per_instance),
    );
    m.insert("host_fork_us", c(costs.host_fork_us));
    m.insert("host_setup_ms", c(costs.host_setup_ms));
    m.insert("host_region_us", c(costs.host_region_us));
    m.insert(
        "host_parallel_efficiency",
        c(costs.host_parallel_efficiency),
    );
    let mut ctx = Context::new();
    ctx.insert("costs", &m);
    ctx.insert("device", &super::comment_text(device));
    templates::render(tera, "choice.h.tera", &ctx)
}

/// The host version of a region as a block: its region-level locals and
/// the CPU version's loops (the values it leaves in the user's iterators
/// are assigned after either generated version, `live_out_text`).
pub fn cpu_region(tera: &tera::Tera, r: &RegionCode, cpu: &Ast, input: &str) -> Result<String> {
    let scop = r.scop;
    let call_name = |f: &str| f.to_string();
    let printer = BodyPrinter {
        scop,
        style: DataStyle::Host,
        call_name: &call_name,
        barrier: "",
        privatized: &[],
        target: Target::C,
        kernel_rows: false,
        temporaries: &r.deps.privatised,
        write_backs: r.write_backs,
        locals: Default::default(),
    };
    let mut body = super::body::private_declarations(scop, &r.deps.privatised, None, false, 1);
    let mut no_launch = |_: usize, _: usize, _: &mut String| -> Result<()> {
        Err(Diagnostic::internal(
            "back",
            "a kernel launch in the CPU version",
        ))
    };
    printer.print(cpu, 1, &mut body, &mut no_launch)?;
    let mut n_parallel = 0;
    cpu.walk(&mut |n| {
        if matches!(n, Ast::Parallel { .. }) {
            n_parallel += 1;
        }
    });
    let mut ctx = Context::new();
    ctx.insert("function", &scop.function);
    ctx.insert("input", input);
    ctx.insert("begin_line", &scop.begin_line);
    ctx.insert("end_line", &scop.end_line);
    ctx.insert("n_kernels", &0);
    ctx.insert("cpu", &true);
    ctx.insert("n_parallel", &n_parallel);
    ctx.insert("body", body.trim_end());
    ctx.insert("local_decls", &scop.local_decls);
    ctx.insert("local_frees", &scop.local_frees);
    templates::render(tera, "c/region.c.tera", &ctx)
}

/// `if (guard) var = value;` after a region's generated code, for the
/// iterators it leaves in the user's variables.
pub fn live_out_text(r: &RegionCode) -> String {
    let mut out = String::new();
    for lo in &r.ast.live_out {
        let assign = format!("{} = {};", lo.var, lo.value.to_c());
        out.push_str(&indent(1));
        match &lo.guard {
            Some(g) => out.push_str(&format!("if ({}) {}\n", g.to_c(), assign)),
            None => out.push_str(&format!("{}\n", assign)),
        }
    }
    out
}

/// C code that sets `pencilc_launches` and `pencilc_forks` (declared by
/// the caller) and the call of `pencilc_choose`, as one statement list.
/// `values` is the C expression of the build options the device version
/// would use (`specialise`; `""` for none), passed to the chooser rather
/// than left in a global, which threads running regions at once would
/// overwrite for each other.
pub fn choose_call(r: &RegionCode, cpu: &Ast, region: &str, values: &str) -> Result<String> {
    let scop = r.scop;
    let call_name = |f: &str| f.to_string();
    let printer = BodyPrinter::plain_host(scop, &call_name);
    let serial = serial_statements(&r.ast.launches);
    let mut out = String::new();
    out.push_str("double pencilc_launches = 0, pencilc_forks = 0;\n");
    // The device version's host code, each launch counted.
    let mut count_launch = |_: usize, depth: usize, o: &mut String| -> Result<()> {
        o.push_str(&format!("{}pencilc_launches += 1;\n", indent(depth)));
        Ok(())
    };
    if let Some(skeleton) = skeleton(&r.ast.host, &|a| matches!(a, Ast::Launch(_))) {
        out.push_str("{\n");
        printer.print(&skeleton, 1, &mut out, &mut count_launch)?;
        out.push_str("}\n");
    }
    // The host version's loops down to its parallel loops, each counted.
    let mut count_fork = |_: usize, depth: usize, o: &mut String| -> Result<()> {
        o.push_str(&format!("{}pencilc_forks += 1;\n", indent(depth)));
        Ok(())
    };
    if let Some(skeleton) = skeleton(cpu, &|a| matches!(a, Ast::Parallel { .. })) {
        out.push_str("{\n");
        printer.print(&skeleton, 1, &mut out, &mut count_fork)?;
        out.push_str("}\n");
    }
    out.push_str(&format!(
        "pencilc_version = pencilc_choose(\"{}\", {}, {:e}, {}, {}, {}, pencilc_launches, pencilc_forks);\n",
        super::c_string(region),
        values,
        r.device_scale,
        instances(r, |_| true),
        instances(r, |s| serial.contains(&s)),
        bytes(r),
    ));
    Ok(out)
}

/// `ast` reduced to the loops, conditions and `Let`s around the nodes
/// `counted` selects, each of which becomes a `Launch` (printed as a
/// count); `None` if there are none.
fn skeleton(ast: &Ast, counted: &dyn Fn(&Ast) -> bool) -> Option<Ast> {
    if counted(ast) {
        return Some(Ast::Launch(0));
    }
    match ast {
        Ast::Block(items) => {
            let kept: Vec<Ast> = items.iter().filter_map(|i| skeleton(i, counted)).collect();
            (!kept.is_empty()).then_some(Ast::Block(kept))
        }
        Ast::For {
            iter,
            init,
            cond,
            inc,
            body,
        } => skeleton(body, counted).map(|b| Ast::For {
            iter: iter.clone(),
            init: init.clone(),
            cond: cond.clone(),
            inc: inc.clone(),
            body: Box::new(b),
        }),
        Ast::Let { iter, value, body } => skeleton(body, counted).map(|b| Ast::Let {
            iter: iter.clone(),
            value: value.clone(),
            body: Box::new(b),
        }),
        Ast::If { cond, then_, else_ } => {
            let t = skeleton(then_, counted);
            let e = else_.as_deref().and_then(|e| skeleton(e, counted));
            if t.is_none() && e.is_none() {
                return None;
            }
            Some(Ast::If {
                cond: cond.clone(),
                then_: Box::new(t.unwrap_or(Ast::Block(vec![]))),
                else_: e.map(Box::new),
            })
        }
        Ast::Site { body, .. } | Ast::Parallel { body, .. } | Ast::Atomic(body) => {
            skeleton(body, counted)
        }
        Ast::User { .. } | Ast::Barrier | Ast::Copy { .. } | Ast::Launch(_) => None,
    }
}

/// The statements the device version runs only in kernels without a
/// parallel loop: one work-item runs all their instances.
fn serial_statements(launches: &[Launch]) -> BTreeSet<StmtId> {
    let mut serial = BTreeSet::new();
    let mut parallel = BTreeSet::new();
    for l in launches {
        let one_item = l.plan.n_block == 0 && l.plan.block_sizes.iter().product::<i64>() <= 1;
        l.body.walk(&mut |n| {
            if let Ast::User { stmt, .. } = n {
                if one_item {
                    serial.insert(*stmt);
                } else {
                    parallel.insert(*stmt);
                }
            }
        });
    }
    serial.difference(&parallel).copied().collect()
}

/// The instances of the region's statements that `counted` selects, as a
/// C `double` expression.
fn instances(r: &RegionCode, counted: impl Fn(StmtId) -> bool) -> String {
    let d = |e: &AExpr| format!("(double) ({})", e.to_c());
    let terms: Vec<String> = r
        .ast
        .instances
        .iter()
        .filter(|b| counted(b.stmt))
        .map(|b| {
            let mut volume = if b.extents.is_empty() {
                "1.0".to_string()
            } else {
                b.extents.iter().map(d).collect::<Vec<_>>().join(" * ")
            };
            if b.fill < 0.99 {
                volume = format!("{:.3e} * {}", b.fill, volume);
            }
            match &b.guard {
                Some(g) => format!("({} ? {} : 0.0)", g.to_c(), volume),
                None => volume,
            }
        })
        .collect();
    if terms.is_empty() {
        "0.0".to_string()
    } else {
        terms.join(" + ")
    }
}

/// The bytes the device version copies in and out, a C `double` expression.
fn bytes(r: &RegionCode) -> String {
    let mut terms = Vec::new();
    for a in &r.scop.arrays {
        let copy_in = r.ast.copy_in(&r.deps.copy_in, &a.name);
        let times = (copy_in != CopyIn::Never) as u32 + r.deps.copy_out.contains(&a.name) as u32;
        if times == 0 || (a.is_scalar() && !a.written) {
            continue;
        }
        let mut size = format!("(double) sizeof({})", a.elem_type);
        if a.layout.is_some() {
            // A pointer's buffer holds what the region touches
            // (`footprint`), not a declared extent.
            if let Some((_, len)) = super::footprint::range(a, r.ast) {
                size = format!("{} * (double) ({})", size, len);
            }
        } else {
            for e in &a.extents {
                size = format!("{} * (double) {}", size, extent_c(e));
            }
        }
        // A copy in that some sizes need counts where they are these.
        terms.push(match (copy_in, times) {
            (CopyIn::When(c), _) => {
                format!("((double) ({}) + {}.0) * {}", c.to_c(), times - 1, size)
            }
            (_, 2) => format!("2.0 * {}", size),
            (_, _) => size,
        });
    }
    if terms.is_empty() {
        "0.0".to_string()
    } else {
        terms.join(" + ")
    }
}
