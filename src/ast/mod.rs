//! Code structure: isl's AST generator turns the mapped schedule tree into
//! host loops around kernel launches and the loops inside each kernel. The
//! isl AST is converted into pencilc's own `Ast`, which back ends print.

mod barrier;
pub mod cpu;
mod expr;
mod footprint;
pub mod memory;
mod private;
mod redundant_barriers;
mod wavefront;

pub use expr::{AExpr, AOp, ExprStyle};
pub use footprint::Footprint;
pub use memory::{LocalArray, Promoted};
pub use private::{
    iterator as private_iterator, write_backs, WriteBack,
    ITERATOR_PREFIX as PRIVATE_ITERATOR_PREFIX,
};

use crate::diag::{Diagnostic, Result};
use crate::front::affine::isl_name;
use crate::isl::ast_build::{
    ast_node_kind, expr_from_params, node_from_schedule, AstNodeKind, BuildAt,
};
use crate::isl::{Isl, IslResultExt};
use crate::map::{KernelPlan, MappedSchedule, MappedTrees};
use crate::scop::{Scop, StmtId};
use isl_rs::{
    ASTExpr, ASTExprOpType, ASTExprType, ASTNode, DimType, LocalSpace, Map, PwAff, Schedule, Set,
    UnionMap, UnionSet,
};

const STAGE: &str = "ast";

#[derive(Clone, Debug, PartialEq)]
pub enum Ast {
    Block(Vec<Ast>),
    For {
        iter: String,
        init: AExpr,
        cond: AExpr,
        inc: AExpr,
        body: Box<Ast>,
    },
    /// A loop isl proved runs exactly once: `iter = value` for the body.
    Let {
        iter: String,
        value: AExpr,
        body: Box<Ast>,
    },
    If {
        cond: AExpr,
        then_: Box<Ast>,
        else_: Option<Box<Ast>>,
    },
    /// One statement instance; `args` are the values of its iterators.
    User {
        stmt: StmtId,
        args: Vec<AExpr>,
        /// Arrays this instance reaches through a local tile.
        promoted: Vec<Promoted>,
    },
    /// All threads of a block wait here (shared-memory copies).
    Barrier,
    /// One element copied between global memory and a local tile.
    Copy {
        into_local: bool,
        local: String,
        local_idx: Vec<AExpr>,
        array: String,
        subs: Vec<AExpr>,
    },
    /// A memory mark of the mapper, before `ast` expands it.
    Site {
        index: usize,
        body: Box<Ast>,
    },
    /// A kernel launch in host code; `body` is the code one thread runs.
    Launch(usize),
    /// The CPU version's OpenMP `parallel for`: `body` is the `For`, a
    /// loop the mapping checked parallel (`map::cpu`), whose iterations
    /// combine the `reductions` variables into private copies.
    Parallel {
        reductions: Vec<(String, crate::front::syntax::RedOp)>,
        body: Box<Ast>,
    },
    /// A statement instance whose update is `#pragma omp atomic`.
    Atomic(Box<Ast>),
}

/// One kernel launch site with everything needed to print it.
#[derive(Clone, Debug)]
pub struct Launch {
    /// Unique per launch site (a kernel mark can be generated several times).
    pub index: usize,
    pub plan: KernelPlan,
    /// Blocks per grid dimension, outermost first, in host variables.
    pub grid: Vec<AExpr>,
    /// Kernel parameters that carry host loop values, and those values.
    pub host_values: Vec<(String, AExpr)>,
    pub body: Ast,
    /// Shared and private arrays the kernel declares.
    pub locals: Vec<LocalArray>,
}

#[derive(Clone, Debug)]
pub struct GpuAst {
    /// The condition on the parameters under which the generated code may
    /// run (`Scop::checked`); elsewhere the user's code runs.
    pub entry_check: Option<AExpr>,
    pub host: Ast,
    pub launches: Vec<Launch>,
    pub block_ids: Vec<String>,
    pub thread_ids: Vec<String>,
    /// After the region, in order: `if (guard) var = value;` for the
    /// iterators the region leaves in the user's variables
    /// (`Scop::live_out_iters`).
    pub live_out: Vec<LiveOutAssign>,
    /// Per statement, the box around its instances (`instance_boxes`):
    /// what the run-time choice between versions counts. Empty unless
    /// asked for.
    pub instances: Vec<InstanceBox>,
    /// The elements the region touches of each array whose extent is
    /// what it accesses (`scop::Layout`).
    pub footprints: Vec<Footprint>,
}

/// The smallest box around one statement's instances, as expressions of
/// the parameters, and the share of it that the instances fill: the
/// run-time choice between versions estimates the region's work as the
/// sum of `fill` times their volumes (a box alone counts a simplex d!
/// times: nussinov's triangular loops six times, which made its device
/// and sequential estimates tie).
#[derive(Clone, Debug)]
pub struct InstanceBox {
    pub stmt: StmtId,
    /// Where the statement runs at all (`None`: wherever the region does).
    pub guard: Option<AExpr>,
    /// The box's extent along each of its loops.
    pub extents: Vec<AExpr>,
    /// Instances over box volume at one large-ish point of the parameters
    /// (`box_fill`), in (0, 1].
    pub fill: f64,
}

/// The instance boxes of every statement of the region, under its context.
/// A loop whose extent isl cannot bound counts as one iteration.
pub fn instance_boxes(isl: &Isl, scop: &Scop) -> Result<Vec<InstanceBox>> {
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    let mut out = Vec::new();
    for st in &scop.stmts {
        isl.check_deadline(STAGE)?;
        let domain = isl
            .set(&st.domain)
            .isl(isl, STAGE)?
            .intersect_params(context.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let runs = domain
            .copy()
            .isl(isl, STAGE)?
            .params()
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        if runs.is_empty().isl(isl, STAGE)? {
            continue;
        }
        let guard = convert_expr(
            isl,
            &expr_from_params(
                isl,
                context.copy().isl(isl, STAGE)?,
                runs.copy().isl(isl, STAGE)?,
            )?,
        )?
        .simplify();
        let mut extents = Vec::new();
        for k in 0..domain.dim(DimType::Set).isl(isl, STAGE)? {
            let (Some(lo), Some(hi)) = (
                bounded(isl, domain.copy().isl(isl, STAGE)?.dim_min(k))?,
                bounded(isl, domain.copy().isl(isl, STAGE)?.dim_max(k))?,
            ) else {
                continue;
            };
            let one = isl_rs::Val::int_from_si(&isl.ctx, 1).isl(isl, STAGE)?;
            let extent = hi
                .sub(lo)
                .isl(isl, STAGE)?
                .add_constant_val(one)
                .isl(isl, STAGE)?
                .coalesce()
                .isl(isl, STAGE)?;
            let e = crate::isl::ast_build::expr_from_params_pw_aff(
                isl,
                runs.copy().isl(isl, STAGE)?,
                extent,
            )?;
            extents.push(convert_expr(isl, &e)?.simplify());
        }
        let fill = box_fill(isl, &domain, &runs)?;
        out.push(InstanceBox {
            stmt: st.id,
            guard: (guard != AExpr::Int(1)).then_some(guard),
            extents,
            fill,
        });
    }
    Ok(out)
}

/// The share of its box that `domain` fills where every parameter is at
/// least `side` (or, where the context does not allow that, at its least):
/// its instances counted by isl over the product of its extents there.
/// `side` keeps the box at most 2e5 points (32 for up to three loops), so
/// the count stays cheap; the share at such sizes is close to the one at
/// the sizes where the choice matters (a tetrahedron 0.15 at 32, 1/6 in the
/// limit). 1 wherever it cannot be measured.
fn box_fill(isl: &Isl, domain: &Set, runs: &Set) -> Result<f64> {
    let measured = (|| -> Result<Option<f64>> {
        let dims = domain.dim(DimType::Set).isl(isl, STAGE)?;
        if dims <= 1 {
            return Ok(None);
        }
        let side = (2e5f64.powf(1.0 / dims as f64).floor() as i64).clamp(4, 32);
        let n_param = runs.dim(DimType::Param).isl(isl, STAGE)? as u32;
        let mut at = runs.copy().isl(isl, STAGE)?;
        if n_param > 0 {
            let names: Vec<String> = (0..n_param)
                .map(|i| {
                    runs.get_dim_name(DimType::Param, i)
                        .map(str::to_string)
                        .isl(isl, STAGE)
                })
                .collect::<Result<_>>()?;
            let large: Vec<String> = names.iter().map(|n| format!("{} >= {}", n, side)).collect();
            let big = isl
                .set(&format!(
                    "[{}] -> {{ : {} }}",
                    names.join(", "),
                    large.join(" and ")
                ))
                .isl(isl, STAGE)?;
            let big = at.copy().isl(isl, STAGE)?.intersect(big).isl(isl, STAGE)?;
            if !big.is_empty().isl(isl, STAGE)? {
                at = big;
            }
            // The least such point: lexmin works on set dimensions.
            at = at
                .move_dims(DimType::Set, 0, DimType::Param, 0, n_param)
                .isl(isl, STAGE)?
                .lexmin()
                .isl(isl, STAGE)?
                .move_dims(DimType::Param, 0, DimType::Set, 0, n_param)
                .isl(isl, STAGE)?;
        }
        let d = domain
            .copy()
            .isl(isl, STAGE)?
            .intersect_params(at)
            .isl(isl, STAGE)?;
        let mut volume = 1.0f64;
        for k in 0..dims {
            let lo = d.copy().isl(isl, STAGE)?.dim_min_val(k).isl(isl, STAGE)?;
            let hi = d.copy().isl(isl, STAGE)?.dim_max_val(k).isl(isl, STAGE)?;
            if !lo.is_int().isl(isl, STAGE)? || !hi.is_int().isl(isl, STAGE)? {
                return Ok(None);
            }
            let (lo, hi) = (
                lo.get_num_si().isl(isl, STAGE)?,
                hi.get_num_si().isl(isl, STAGE)?,
            );
            volume *= (hi - lo + 1).max(0) as f64;
        }
        if !(1.0..=4e5).contains(&volume) {
            return Ok(None);
        }
        let count = d.count_val().isl(isl, STAGE)?;
        if !count.is_int().isl(isl, STAGE)? {
            return Ok(None);
        }
        let count = count.get_num_si().isl(isl, STAGE)? as f64;
        Ok(Some((count / volume).clamp(1e-3, 1.0)))
    })();
    match measured {
        Ok(f) => Ok(f.unwrap_or(1.0)),
        Err(d) if d.code == crate::diag::Code::Budget => Err(d),
        Err(_) => Ok(1.0),
    }
}

#[derive(Clone, Debug)]
pub struct LiveOutAssign {
    pub var: String,
    /// `None` where the loop's header runs whenever the region does.
    pub guard: Option<AExpr>,
    pub value: AExpr,
}

/// Generates host code from the host tree; at each kernel mark, computes the
/// launch size and generates that launch's kernel code from the device tree
/// restricted to the instances the launch runs. Two generations keep isl
/// from hoisting guards on block and thread ids into host code.
pub fn generate(
    isl: &Isl,
    scop: &Scop,
    mapped: &MappedSchedule,
    trees: MappedTrees,
) -> Result<GpuAst> {
    isl.reset_budget();
    isl.set_id_casts(
        scop.value_types
            .iter()
            .filter_map(|(n, _)| Some((isl_name(n), scop.bound_cast(n)?)))
            .collect(),
    );
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    let host_names = fresh_prefix(scop, mapped, "h");
    let iter_prefix = fresh_prefix(scop, mapped, "c");
    let copy_prefix = fresh_prefix(scop, mapped, "m");
    let device = trees.device;
    let subtrees: Vec<Option<String>> = (0..mapped.kernels.len())
        .map(|k| subtree_below_mark(&mapped.tree, &format!("kernel_{}", k)))
        .collect();
    let mut occurrences: Vec<Occurrence> = Vec::new();
    let mut failure: Option<Diagnostic> = None;
    let node = {
        let mut hook = |mark: &str, build: &BuildAt| -> Option<String> {
            let k: usize = mark.strip_prefix("kernel_")?.parse().ok()?;
            let plan = mapped.kernels.get(k)?;
            let sub = subtrees.get(k).and_then(|s| s.as_deref());
            if let Err(e) = isl.check_deadline(STAGE) {
                failure.get_or_insert(e);
                return None;
            }
            match launch_at(
                isl,
                scop,
                plan,
                build,
                &device,
                sub,
                trees.launch_prefix.get(k).and_then(|p| p.as_ref()),
                &host_names,
                &iter_prefix,
                &copy_prefix,
                mapped,
            ) {
                Ok(o) => {
                    occurrences.push(o);
                    Some(format!("launch_{}", occurrences.len() - 1))
                }
                Err(e) => {
                    failure.get_or_insert(e);
                    None
                }
            }
        };
        if std::env::var_os("PENCILC_DEBUG_AST").is_some() {
            eprintln!("host tree: {}", trees.host.to_str().unwrap_or(""));
        }
        let n = node_from_schedule(isl, trees.host, context, &iter_prefix, &mut hook)?;
        if std::env::var_os("PENCILC_DEBUG_AST").is_some() {
            eprintln!("{}", n.to_C_str().unwrap_or(""));
        }
        n
    };
    if let Some(e) = failure {
        return Err(e);
    }
    let mut launches = Vec::new();
    let host = convert_host(isl, &node, mapped, &mut occurrences, &mut launches)?;
    Ok(GpuAst {
        entry_check: entry_check(isl, scop)?,
        live_out: live_out_assignments(isl, scop)?,
        instances: vec![],
        footprints: footprint::footprints(isl, scop)?,
        host,
        launches,
        block_ids: mapped.block_ids.clone(),
        thread_ids: mapped.thread_ids.clone(),
    })
}

/// A region's code without a device version: its entry check, the
/// footprints of its pointers (the overlap check of `back::versioned`
/// compares the bytes they touch: without them the OpenMP target ran
/// overlapping pointers in parallel) and what it leaves in the user's
/// iterators, around no host code (the CPU version, `cpu::generate_cpu`,
/// is printed there instead).
pub fn frame(isl: &Isl, scop: &Scop) -> Result<GpuAst> {
    isl.set_id_casts(
        scop.value_types
            .iter()
            .filter_map(|(n, _)| Some((isl_name(n), scop.bound_cast(n)?)))
            .collect(),
    );
    Ok(GpuAst {
        entry_check: entry_check(isl, scop)?,
        live_out: live_out_assignments(isl, scop)?,
        instances: vec![],
        footprints: footprint::footprints(isl, scop)?,
        host: Ast::Block(vec![]),
        launches: vec![],
        block_ids: vec![],
        thread_ids: vec![],
    })
}

/// `Scop::checked` as a C condition on the parameters.
fn entry_check(isl: &Isl, scop: &Scop) -> Result<Option<AExpr>> {
    let Some(checked) = &scop.checked else {
        return Ok(None);
    };
    let set = isl.set(checked).isl(isl, STAGE)?;
    let universe = Set::universe(set.get_space().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let e = expr_from_params(isl, universe, set)?;
    Ok(match convert_expr(isl, &e)?.simplify() {
        AExpr::Int(1) => None,
        c => Some(c),
    })
}

/// The final values of the iterators in `Scop::live_out_iters`, as C
/// expressions of the parameters under the region's context.
fn live_out_assignments(isl: &Isl, scop: &Scop) -> Result<Vec<LiveOutAssign>> {
    let mut out = Vec::new();
    for lo in &scop.live_out_iters {
        let context = isl.set(&scop.context).isl(isl, STAGE)?;
        let value = isl.set(&lo.value).isl(isl, STAGE)?;
        let runs = value
            .copy()
            .isl(isl, STAGE)?
            .params()
            .isl(isl, STAGE)?
            .intersect(context.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        if runs.is_empty().isl(isl, STAGE)? {
            continue;
        }
        // One element per parameter value: its maximum is the element.
        let pa = value.dim_max(0).isl(isl, STAGE)?;
        let guard = convert_expr(
            isl,
            &expr_from_params(isl, context, runs.copy().isl(isl, STAGE)?)?,
        )?
        .simplify();
        let v = crate::isl::ast_build::expr_from_params_pw_aff(isl, runs, pa)?;
        out.push(LiveOutAssign {
            var: lo.var.clone(),
            guard: (guard != AExpr::Int(1)).then_some(guard),
            value: convert_expr(isl, &v)?.simplify(),
        });
    }
    Ok(out)
}

/// What one kernel mark of the host AST launches.
struct Occurrence {
    kernel: usize,
    /// Where the host may launch at all: the host tree's launch domains
    /// are relaxed (see `map::relax`), and the grid computation holds only
    /// where the launch's tile bounds are defined.
    guard: Option<AExpr>,
    grid: Vec<AExpr>,
    host_values: Vec<(String, AExpr)>,
    body: Option<Ast>,
}

/// A prefix for generated names (`c` for loop iterators, `h` for host loop
/// values passed to kernels) such that no `<prefix><digits>` name can clash
/// with a name of the region or of its file.
fn fresh_prefix(scop: &Scop, mapped: &MappedSchedule, base: &str) -> String {
    let ids: Vec<&str> = mapped
        .block_ids
        .iter()
        .chain(mapped.thread_ids.iter())
        .map(|s| s.as_str())
        .collect();
    fresh_prefix_beside(scop, &ids, base)
}

/// `fresh_prefix` with `others` as the names besides the region's (which
/// include every name of its file, `Scop::all_names`).
fn fresh_prefix_beside(scop: &Scop, others: &[&str], base: &str) -> String {
    let mut names: Vec<&str> = scop.all_names();
    names.extend(others.iter().copied());
    crate::front::names::fresh_prefix(names.iter().copied(), base, &[])
}

fn launch_at(
    isl: &Isl,
    scop: &Scop,
    plan: &KernelPlan,
    build: &BuildAt,
    device: &Schedule,
    device_subtree: Option<&str>,
    prefix: Option<&UnionMap>,
    host_prefix: &str,
    iter_prefix: &str,
    copy_prefix: &str,
    mapped: &MappedSchedule,
) -> Result<Occurrence> {
    let thread_ids = &mapped.thread_ids[..];
    let h = launch_schedule(isl, prefix, build)?;
    if h.is_empty().isl(isl, STAGE)? {
        let none: Vec<Option<TileBound>> = plan.tile_index.iter().map(|_| None).collect();
        return Ok(Occurrence {
            kernel: plan.id,
            guard: None,
            grid: grid_sizes(isl, plan, build, &none, true)?,
            host_values: vec![],
            body: None,
        });
    }
    let bounds = tile_bounds(isl, plan, &h)?;
    let grid = grid_sizes(isl, plan, build, &bounds, false)?;
    let guard = launch_guard(isl, build, &bounds)?;
    let range =
        Set::from_union_set(h.copy().isl(isl, STAGE)?.range().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let depth = range.dim(DimType::Set).isl(isl, STAGE)? as usize;
    let names: Vec<String> = (0..depth)
        .map(|j| format!("{}{}", host_prefix, j))
        .collect();
    // The host's value of each outer schedule dimension, as host code. The
    // build's schedule space carries isl's own tuple, so take it from there.
    let space = range.get_space().isl(isl, STAGE)?;
    let mut host_values = Vec::new();
    for j in 0..depth {
        let ls = LocalSpace::from_space(space.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
        let pa = PwAff::var_on_domain(ls, DimType::Set, j as u32).isl(isl, STAGE)?;
        let e = build
            .expr_from_pw_aff(pa)
            .ok_or_else(|| isl.last_error("ast-launch-values"))?;
        host_values.push((names[j].clone(), convert_expr(isl, &e)?));
    }
    // The instances of this launch, with the host values as parameters.
    let mut at = Set::universe(space.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
    for j in 0..depth {
        let ls = LocalSpace::from_space(space.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
        let var = PwAff::var_on_domain(ls, DimType::Set, j as u32).isl(isl, STAGE)?;
        let id = isl.id(&names[j]).isl(isl, STAGE)?;
        let universe = Set::universe(space.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
        let param = PwAff::param_on_domain_id(universe, id).isl(isl, STAGE)?;
        at = at
            .intersect(var.eq_set(param).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
    }
    let block_bounds = block_id_bounds(isl, &bounds, &at, &mapped.block_ids)?;
    let at = at.to_union_set().isl(isl, STAGE)?;
    let instances = h
        .intersect_range(at)
        .isl(isl, STAGE)?
        .domain()
        .isl(isl, STAGE)?;
    let context = isl
        .set(&scop.context)
        .isl(isl, STAGE)?
        .intersect(block_bounds)
        .isl(isl, STAGE)?;
    let launch_facts = context
        .copy()
        .isl(isl, STAGE)?
        .intersect(instances.copy().isl(isl, STAGE)?.params().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    // Block ids within the grid (`0 <= b < grid_cap`).
    let launch_facts = within_extents(isl, launch_facts, &mapped.block_ids, &plan.grid_cap)?;
    let launch_facts = launch_facts.coalesce().isl(isl, STAGE)?;
    let tree = match wavefront::kernel_tree(isl, device, plan, &instances)? {
        Some(tree) => tree,
        None => kernel_subtree(isl, device, device_subtree, instances)?,
    };
    if std::env::var_os("PENCILC_DEBUG_AST").is_some() {
        eprintln!("kernel tree: {}", tree.to_str().unwrap_or(""));
        eprintln!("kernel context: {}", context.to_str().unwrap_or(""));
    }
    let mut sites: Vec<Option<memory::Site>> = Vec::new();
    let mut failure: Option<Diagnostic> = None;
    let names = memory::Names {
        copy_iter_prefix: copy_prefix,
        thread_ids,
        blocks: &plan.block_sizes,
        launch_facts: &launch_facts,
    };
    let mut hook = |mark: &str, build: &BuildAt| -> Option<String> {
        let level = if mark.starts_with(crate::map::MEM_INNER_MARK) {
            crate::map::memory::Level::Inner
        } else if mark.starts_with(crate::map::MEM_OUTER_MARK) {
            crate::map::memory::Level::Outer
        } else {
            return None;
        };
        match memory::site_at(isl, plan, level, build, &names) {
            Ok(site) => {
                sites.push(Some(site));
                Some(format!("mem_{}", sites.len() - 1))
            }
            Err(e) => {
                failure.get_or_insert(e);
                None
            }
        }
    };
    let node = node_from_schedule(isl, tree, context, iter_prefix, &mut hook)?;
    if let Some(e) = failure {
        return Err(e);
    }
    let body = convert_device(isl, scop, &node)?;
    let body = expand_sites(body, &mut sites);
    let shared = memory::locals_of(plan)
        .into_iter()
        .filter(|l| l.shared)
        .map(|l| l.name)
        .collect();
    let body = redundant_barriers::drop_redundant_barriers(body, &shared);
    let body = barrier::hoist_barriers(body, thread_ids)?;
    Ok(Occurrence {
        kernel: plan.id,
        guard,
        grid,
        host_values,
        body: Some(body),
    })
}

/// `facts` with each of `ids` (parameters) in `0..extent`, pairing `ids`
/// and `extents` in order (the shorter one decides how many).
fn within_extents(isl: &Isl, facts: Set, ids: &[String], extents: &[i64]) -> Result<Set> {
    let n = ids.len().min(extents.len());
    if n == 0 {
        return Ok(facts);
    }
    let bounds: Vec<String> = (0..n)
        .map(|j| format!("0 <= {} < {}", ids[j], extents[j]))
        .collect();
    let b = isl
        .set(&format!(
            "[{}] -> {{ : {} }}",
            ids[..n].join(", "),
            bounds.join(" and ")
        ))
        .isl(isl, STAGE)?;
    facts.intersect_params(b).isl(isl, STAGE)
}

/// The kernel's subtree of the device tree on the launch's instances.
fn kernel_subtree(
    isl: &Isl,
    device: &Schedule,
    device_subtree: Option<&str>,
    instances: UnionSet,
) -> Result<Schedule> {
    // Only the kernel's own subtree: restricting the whole device tree
    // would make every launch pay for every other kernel's nodes.
    Ok(match device_subtree.and_then(reroot_contexts) {
        Some(sub) => {
            let text = format!(
                "{{ domain: \"{}\", child: {} }}",
                instances.to_str().isl(isl, STAGE)?,
                sub
            );
            isl.schedule(&text).isl(isl, "ast-kernel-subtree")?
        }
        None => device
            .copy()
            .isl(isl, STAGE)?
            .intersect_domain(instances)
            .isl(isl, "ast-kernel-restrict")?,
    })
}

/// The launch's statement instances → the host schedule at its mark, in
/// the build's schedule space (so host expressions can be built on it).
///
/// The host tree groups each kernel's instances into one per launch, so
/// the build at the mark knows launches, not instances; `prefix` (the
/// kernel's instances → host schedule, taken before grouping) restricted
/// to the host values this mark covers gives them back. Without it (no
/// grouping), the build's own schedule is the answer.
fn launch_schedule(isl: &Isl, prefix: Option<&UnionMap>, build: &BuildAt) -> Result<UnionMap> {
    let own = build.schedule().ok_or_else(|| isl.last_error(STAGE))?;
    let Some(prefix) = prefix else {
        return Ok(own);
    };
    if own.is_empty().isl(isl, STAGE)? {
        return Ok(own);
    }
    // Grouping named the launch instances by their prefix values:
    // `pencilc_launch_k[prefix] → build time`. Through the anonymous
    // prefix, each kernel instance gets the time of its launch.
    let launches = Map::from_union_map(own)
        .isl(isl, STAGE)?
        .reset_tuple_id(DimType::In)
        .isl(isl, STAGE)?;
    // The launch domain is the projection of the kernel's instances onto
    // the host loops: exact, and full of existentials that the instances
    // already imply. Where the hull is a bijection between launches and
    // build times, only its function matters. Where it is not — isl drops
    // a loop that takes one value (`c2 = 6 - floor((4c1 + 6)/9)`) from the
    // build's space — the launch's own set says which launch runs here,
    // and the hull would run every launch's instances at once.
    let hull = Map::from_basic_map(
        launches
            .copy()
            .isl(isl, STAGE)?
            .affine_hull()
            .isl(isl, STAGE)?,
    )
    .isl(isl, STAGE)?;
    let launches =
        if hull.is_single_valued().isl(isl, STAGE)? && hull.is_injective().isl(isl, STAGE)? {
            hull
        } else {
            launches
        };
    let h = prefix
        .copy()
        .isl(isl, STAGE)?
        .apply_range(UnionMap::from_map(launches).isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    // The host tree's launch domains are relaxed (`map::relax`), so a
    // mark may cover host values where the kernel has no instances at all;
    // the caller then launches nothing there.
    Ok(h)
}

/// The text of the node below `mark: "<name>"` in isl's schedule tree
/// text, braces balanced outside quoted strings.
fn subtree_below_mark(tree: &str, name: &str) -> Option<String> {
    let at = tree.find(&format!("mark: \"{}\"", name))?;
    let rest = &tree[at..];
    let child = rest.find("child:")?;
    let rest = &rest[child + "child:".len()..];
    let open = rest.find('{')?;
    let mut depth = 0usize;
    let mut quoted = false;
    for (i, c) in rest[open..].char_indices() {
        match c {
            '"' => quoted = !quoted,
            '{' if !quoted => depth += 1,
            '}' if !quoted => {
                depth -= 1;
                if depth == 0 {
                    return Some(rest[open..open + i + 1].to_string());
                }
            }
            _ => {}
        }
    }
    None
}

/// Context nodes live in the space of the outer schedule dimensions; cut
/// out of the tree, a subtree has as many fewer of them as the mark's depth,
/// which is the length of the block context right below the mark (the
/// mapper puts one there whenever the kernel has contexts at all). The
/// mapper's contexts only constrain block and thread ids, so only the
/// tuple's length changes. `None` if the subtree has another shape.
fn reroot_contexts(sub: &str) -> Option<String> {
    const KEY: &str = "context: \"";
    if !sub.contains(KEY) {
        return Some(sub.to_string());
    }
    if !sub.trim_start_matches(['{', ' ']).starts_with(KEY) {
        return None;
    }
    let mut out = String::with_capacity(sub.len());
    let mut rest = sub;
    let mut depth: Option<usize> = None;
    while let Some(at) = rest.find(KEY) {
        let body = at + KEY.len();
        out.push_str(&rest[..body]);
        rest = &rest[body..];
        let end = rest.find('"')?;
        let text = &rest[..end];
        let open = text.find("{ [")?;
        let close = open + text[open..].find(']')?;
        let inner = &text[open + 3..close];
        let n = inner.split(',').filter(|x| !x.trim().is_empty()).count();
        let d = *depth.get_or_insert(n);
        let names: Vec<String> = (0..n.checked_sub(d)?)
            // Not `h<k>`: those name the host values, parameters here.
            .map(|k| format!("pencilc_outer_{}", k))
            .collect();
        out.push_str(&text[..open + 3]);
        out.push_str(&names.join(", "));
        out.push_str(&text[close..]);
        rest = &rest[end..];
    }
    out.push_str(rest);
    Some(out)
}

/// An upper bound on the tile index a launch runs along one block
/// dimension, as a function of the host loops around it (the build's
/// schedule space).
///
/// The bound only has to be at least the true maximum: the launch runs
/// `max + 1` blocks and the kernel assumes each block id satisfies
/// `below`, which `max` implies, so the two can never disagree. The exact
/// maximum over a wavefront's or a skewed band's instances with
/// parametric sizes is piecewise with dozens of pieces and floors, which
/// then slow every later step of the kernel's code generation; both come
/// from the rational hull of the host-to-tile relation (local variables
/// eliminated, one convex piece) instead.
struct TileBound {
    /// The hull's largest tile index.
    max: PwAff,
    /// `[host] -> [b]`: every `b` at most some upper bound of the hull (its
    /// constraints with the tile index below them, and what the host
    /// values satisfy wherever the launch has instances).
    below: Map,
}

/// Per block dimension, the launch's tile bound, or `None` where tile
/// indices may be negative (skewed bands launch the wrap-around size).
fn tile_bounds(isl: &Isl, plan: &KernelPlan, h: &UnionMap) -> Result<Vec<Option<TileBound>>> {
    let mut out = Vec::new();
    for idx_text in &plan.tile_index {
        let idx = isl.union_map(idx_text).isl(isl, STAGE)?;
        let rel = h
            .copy()
            .isl(isl, STAGE)?
            .reverse()
            .isl(isl, STAGE)?
            .apply_range(idx)
            .isl(isl, STAGE)?;
        if rel.is_empty().isl(isl, STAGE)? {
            out.push(None);
            continue;
        }
        // The relation with local variables eliminated, as one convex
        // piece if that bounds the tile index, else as it is.
        let relaxed = Map::from_union_map(rel)
            .isl(isl, STAGE)?
            .remove_divs()
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        let hull = Map::from_basic_map(
            relaxed
                .copy()
                .isl(isl, STAGE)?
                .simple_hull()
                .isl(isl, STAGE)?,
        )
        .isl(isl, STAGE)?;
        let mut found = None;
        for cand in [hull, relaxed] {
            let (Some(mn), Some(max)) = (
                bounded(isl, cand.copy().isl(isl, STAGE)?.dim_min(0))?,
                bounded(isl, cand.copy().isl(isl, STAGE)?.dim_max(0))?,
            ) else {
                continue;
            };
            found = Some((cand, mn, max));
            break;
        }
        let Some((hull, mn, max)) = found else {
            out.push(None);
            continue;
        };
        let dom = mn.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
        if !dom
            .is_subset(&mn.nonneg_set().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
        {
            out.push(None);
            continue;
        }
        let max = max.coalesce().isl(isl, STAGE)?;
        let down = isl.map("{ [t] -> [b] : b <= t }").isl(isl, STAGE)?;
        let below = hull
            .apply_range(down)
            .isl(isl, STAGE)?
            .remove_divs()
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)?;
        out.push(Some(TileBound { max, below }));
    }
    Ok(out)
}

/// An optimum of a relaxed relation, or `None` where it is unbounded
/// (which isl reports as an error); running out of budget is still one.
fn bounded(isl: &Isl, r: std::result::Result<PwAff, isl_rs::LibISLError>) -> Result<Option<PwAff>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) => {
            let d = isl.err(STAGE, e);
            if d.code == crate::diag::Code::Budget {
                return Err(d);
            }
            Ok(None)
        }
    }
}

/// What the kernel may assume of its block ids at this launch: each is
/// within the launch's tile bound (the grid is its maximum plus one, see
/// `grid_sizes`), so isl drops guards such as `b0 == 0` (a grid of one
/// block) or `b0 <= 31` (the last block) from the kernel. `at` equates the
/// host loops with the parameters that carry their values into the kernel.
fn block_id_bounds(
    isl: &Isl,
    bounds: &[Option<TileBound>],
    at: &Set,
    block_ids: &[String],
) -> Result<Set> {
    let mut out = isl.set("{ : }").isl(isl, STAGE)?;
    for (bound, id) in bounds.iter().zip(block_ids) {
        let Some(bound) = bound else { continue };
        let below = bound.below.copy().isl(isl, STAGE)?;
        let universe = Set::universe(below.get_space().isl(isl, STAGE)?.range().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let b = PwAff::param_on_domain_id(
            universe.copy().isl(isl, STAGE)?,
            isl.id(id).isl(isl, STAGE)?,
        )
        .isl(isl, STAGE)?;
        let is_b = PwAff::var_on_domain(
            LocalSpace::from_space(universe.get_space().isl(isl, STAGE)?).isl(isl, STAGE)?,
            DimType::Set,
            0,
        )
        .isl(isl, STAGE)?
        .eq_set(b)
        .isl(isl, STAGE)?;
        let here = below
            .intersect_range(is_b)
            .isl(isl, STAGE)?
            .domain()
            .isl(isl, STAGE)?
            .intersect(at.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .params()
            .isl(isl, STAGE)?;
        out = out.intersect(here).isl(isl, STAGE)?;
    }
    out.coalesce().isl(isl, STAGE)
}

/// The condition, on the host loops around the launch, under which its
/// tile bounds hold (`None`: always, given the code around the launch).
fn launch_guard(isl: &Isl, build: &BuildAt, bounds: &[Option<TileBound>]) -> Result<Option<AExpr>> {
    let mut domain: Option<Set> = None;
    for b in bounds.iter().flatten() {
        let d = b.max.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
        domain = Some(match domain {
            None => d,
            Some(x) => x.intersect(d).isl(isl, STAGE)?,
        });
    }
    let Some(domain) = domain else {
        return Ok(None);
    };
    // isl adds the host tree's guard on the launch after this callback,
    // so the build does not know it yet: leave out what it implies.
    let launches = build.schedule().ok_or_else(|| isl.last_error(STAGE))?;
    let launches = Set::from_union_set(launches.range().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let domain = domain.gist(launches).isl(isl, STAGE)?;
    let e = build
        .expr_from_set(domain.coalesce().isl(isl, STAGE)?)
        .ok_or_else(|| isl.last_error(STAGE))?;
    Ok(match convert_expr(isl, &e)?.simplify() {
        AExpr::Int(1) => None,
        c => Some(c),
    })
}

/// More blocks than PPCG's wrap-around grid: a constant grid beyond it
/// is replaced by the parametric count where there is one.
const HUGE_CONSTANT_GRID: i64 = 32768;

/// Blocks needed per grid dimension at this launch: the tile bound plus
/// one (capped at the wrap-around size), or the cap itself when tile
/// indices may be negative (skewed bands). Where the AST cannot express
/// the launch's own bound, the largest tile index of any launch
/// (`KernelPlan::tile_max`, parameters only) plus one.
fn grid_sizes(
    isl: &Isl,
    plan: &KernelPlan,
    build: &BuildAt,
    bounds: &[Option<TileBound>],
    empty: bool,
) -> Result<Vec<AExpr>> {
    let mut out = Vec::new();
    for (j, bound) in bounds.iter().enumerate() {
        let cap = plan.grid_cap[j];
        // Every launch's tiles, as a function of the parameters.
        let whole = match (plan.tile_max.get(j), empty) {
            (Some(Some(max)), false) => {
                // Text: the mapper's plan keeps each launch's largest tile count as text
                // (`map::KernelPlan::tile_max`), a plain value kept beside the tree.
                let pa = PwAff::read_from_str(&isl.ctx, max).isl(isl, STAGE)?;
                // Parameters only, defined wherever some launch has
                // tiles; elsewhere no tile (-1), said explicitly: left to
                // the AST build, parameter values without tiles could get
                // another piece's count (`(unsigned) n` at n = 0: 2^27
                // empty blocks).
                let defined = pa.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
                let none = PwAff::val_on_domain(
                    defined.complement().isl(isl, STAGE)?,
                    isl_rs::Val::int_from_si(&isl.ctx, -1).isl(isl, STAGE)?,
                )
                .isl(isl, STAGE)?;
                let pa = pa.union_max(none).isl(isl, STAGE)?;
                let domain = pa.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
                let e = crate::isl::ast_build::expr_from_params_pw_aff(isl, domain, pa)?;
                let count =
                    AExpr::op(AOp::Add, vec![convert_expr(isl, &e)?, AExpr::Int(1)]).simplify();
                Some(match count {
                    AExpr::Int(c) => AExpr::Int(c.clamp(1, cap)),
                    c => AExpr::op(AOp::Max, vec![c, AExpr::Int(1)]),
                })
            }
            _ => None,
        };
        let Some(bound) = bound else {
            out.push(whole.unwrap_or(AExpr::Int(if empty { 1 } else { cap })));
            continue;
        };
        let e = build
            .expr_from_pw_aff(bound.max.copy().isl(isl, STAGE)?)
            .ok_or_else(|| isl.last_error(STAGE))?;
        let e = convert_expr(isl, &e)?;
        let count = AExpr::op(AOp::Add, vec![e, AExpr::Int(1)]).simplify();
        out.push(match count {
            // A constant bound of more blocks than a wrapped grid has is
            // isl's bound over every value of a parameter that wraps
            // (`(int)(n - 1) + 3` with `n` unsigned): the parametric one
            // counts this launch's.
            AExpr::Int(c) if c > HUGE_CONSTANT_GRID && whole.is_some() => whole.clone().unwrap(),
            AExpr::Int(c) => AExpr::Int(c.clamp(1, cap)),
            // The mapper proved every tile index below the cap.
            c if !plan.wraps[j] => c,
            c => AExpr::op(AOp::Min, vec![c, AExpr::Int(cap)]),
        });
    }
    Ok(out)
}

/// Host code: loops and conditions, with a launch at each kernel mark.
fn convert_host(
    isl: &Isl,
    n: &ASTNode,
    mapped: &MappedSchedule,
    occ: &mut [Occurrence],
    launches: &mut Vec<Launch>,
) -> Result<Ast> {
    let mut on_mark = |mark: &ASTNode| -> Result<Option<Ast>> {
        let ann = mark
            .get_annotation()
            .ok()
            .and_then(|a| a.get_name().ok().map(|s| s.to_string()));
        let i: usize = ann
            .as_deref()
            .and_then(|a| a.strip_prefix("launch_"))
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| Diagnostic::internal(STAGE, "kernel mark without launch information"))?;
        let o = &mut occ[i];
        let Some(body) = o.body.take() else {
            // A launch without instances (isl could not rule it out on
            // the host): nothing to run.
            return Ok(Some(Ast::Block(vec![])));
        };
        let index = launches.len();
        let guard = o.guard.take();
        launches.push(Launch {
            index,
            plan: mapped.kernels[o.kernel].clone(),
            grid: o.grid.clone(),
            host_values: o.host_values.clone(),
            body,
            locals: memory::locals_of(&mapped.kernels[o.kernel]),
        });
        Ok(Some(match guard {
            Some(cond) => Ast::If {
                cond,
                then_: Box::new(Ast::Launch(index)),
                else_: None,
            },
            None => Ast::Launch(index),
        }))
    };
    convert_node(
        isl,
        n,
        &mut |_, _| {
            Err(Diagnostic::internal(
                STAGE,
                "a statement outside every kernel",
            ))
        },
        &mut on_mark,
    )
}

/// Kernel code: marks are transparent, statements are instances.
fn convert_device(isl: &Isl, scop: &Scop, n: &ASTNode) -> Result<Ast> {
    let mut on_user = |name: &str, args: Vec<AExpr>| -> Result<Ast> {
        let stmt =
            scop.stmts.iter().find(|s| s.name == name).ok_or_else(|| {
                Diagnostic::internal(STAGE, format!("unknown statement {}", name))
            })?;
        Ok(Ast::User {
            stmt: stmt.id,
            args,
            promoted: vec![],
        })
    };
    let mut on_mark = |_: &ASTNode| -> Result<Option<Ast>> { Ok(None) };
    convert_node(isl, n, &mut on_user, &mut on_mark)
}

/// Converts an isl AST. `on_mark` may replace a mark node (returning
/// `None` descends into it); `on_user` converts statement calls.
fn convert_node(
    isl: &Isl,
    n: &ASTNode,
    on_user: &mut dyn FnMut(&str, Vec<AExpr>) -> Result<Ast>,
    on_mark: &mut dyn FnMut(&ASTNode) -> Result<Option<Ast>>,
) -> Result<Ast> {
    match ast_node_kind(n) {
        AstNodeKind::Block => {
            let list = n.block_get_children().isl(isl, STAGE)?;
            let k = list.size().isl(isl, STAGE)?;
            let mut items = Vec::new();
            for i in 0..k {
                let c = list.get_at(i).isl(isl, STAGE)?;
                match convert_node(isl, &c, on_user, on_mark)? {
                    Ast::Block(inner) => items.extend(inner),
                    other => items.push(other),
                }
            }
            Ok(Ast::Block(items))
        }
        AstNodeKind::For => {
            let iter = id_name(isl, &n.for_get_iterator().isl(isl, STAGE)?)?;
            let init = convert_expr(isl, &n.for_get_init().isl(isl, STAGE)?)?;
            let body = Box::new(convert_node(
                isl,
                &n.for_get_body().isl(isl, STAGE)?,
                on_user,
                on_mark,
            )?);
            if n.for_is_degenerate().isl(isl, STAGE)? {
                return Ok(Ast::Let {
                    iter,
                    value: init,
                    body,
                });
            }
            let cond = convert_expr(isl, &n.for_get_cond().isl(isl, STAGE)?)?;
            let inc = convert_expr(isl, &n.for_get_inc().isl(isl, STAGE)?)?;
            Ok(Ast::For {
                iter,
                init,
                cond,
                inc,
                body,
            })
        }
        AstNodeKind::If => {
            let cond = convert_expr(isl, &n.if_get_cond().isl(isl, STAGE)?)?;
            let then_ = Box::new(convert_node(
                isl,
                &n.if_get_then_node().isl(isl, STAGE)?,
                on_user,
                on_mark,
            )?);
            let else_ = if n.if_has_else_node().isl(isl, STAGE)? {
                Some(Box::new(convert_node(
                    isl,
                    &n.if_get_else_node().isl(isl, STAGE)?,
                    on_user,
                    on_mark,
                )?))
            } else {
                None
            };
            Ok(Ast::If { cond, then_, else_ })
        }
        AstNodeKind::User => {
            let call = convert_expr(isl, &n.user_get_expr().isl(isl, STAGE)?)?;
            match call {
                AExpr::Op(AOp::Call, mut args) if !args.is_empty() => {
                    let name = match args.remove(0) {
                        AExpr::Id(s) => s,
                        _ => {
                            return Err(Diagnostic::internal(
                                STAGE,
                                "user node without a statement name",
                            ))
                        }
                    };
                    on_user(&name, args)
                }
                _ => Err(Diagnostic::internal(STAGE, "unexpected user node")),
            }
        }
        AstNodeKind::Mark => match on_mark(n)? {
            Some(a) => Ok(a),
            None => {
                let body =
                    convert_node(isl, &n.mark_get_node().isl(isl, STAGE)?, on_user, on_mark)?;
                // Memory marks carry the index of their copies (`mem_<i>`).
                // isl returns no annotation as a null id.
                let site = n
                    .get_annotation()
                    .ok()
                    .filter(|a| a.ptr != 0)
                    .and_then(|a| a.get_name().ok().map(|s| s.to_string()))
                    .and_then(|a| a.strip_prefix("mem_").and_then(|i| i.parse().ok()));
                Ok(match site {
                    Some(index) => Ast::Site {
                        index,
                        body: Box::new(body),
                    },
                    None => body,
                })
            }
        },
        AstNodeKind::Error => Err(isl.last_error(STAGE)),
    }
}

fn id_name(isl: &Isl, e: &ASTExpr) -> Result<String> {
    let id = e.id_get_id().isl(isl, STAGE)?;
    Ok(id.get_name().isl(isl, STAGE)?.to_string())
}

pub fn convert_expr(isl: &Isl, e: &ASTExpr) -> Result<AExpr> {
    match e.get_type().isl(isl, STAGE)? {
        ASTExprType::Id => {
            let name = id_name(isl, e)?;
            // isl computes with integers; C would compute `m - n` in
            // unsigned arithmetic for an unsigned `n`, and `2 * n` in
            // `int` for an `int n` where the bounds need `long`.
            Ok(match isl.id_cast(&name) {
                Some(t) => AExpr::Op(
                    AOp::Call,
                    vec![AExpr::Id(format!("({})", t)), AExpr::Id(name)],
                ),
                None => AExpr::Id(name),
            })
        }
        ASTExprType::Int => {
            let v = e.int_get_val().isl(isl, STAGE)?;
            let s = v.to_str().isl(isl, STAGE)?.to_string();
            s.parse::<i64>().map(AExpr::Int).map_err(|_| {
                Diagnostic::internal(STAGE, format!("integer constant {} out of range", s))
            })
        }
        ASTExprType::Op => {
            let op = match e.op_get_type().isl(isl, STAGE)? {
                ASTExprOpType::And | ASTExprOpType::AndThen => AOp::And,
                ASTExprOpType::Or | ASTExprOpType::OrElse => AOp::Or,
                ASTExprOpType::Max => AOp::Max,
                ASTExprOpType::Min => AOp::Min,
                ASTExprOpType::Minus => AOp::Neg,
                ASTExprOpType::Add => AOp::Add,
                ASTExprOpType::Sub => AOp::Sub,
                ASTExprOpType::Mul => AOp::Mul,
                ASTExprOpType::Div => AOp::Div,
                ASTExprOpType::FdivQ => AOp::FloorDiv,
                ASTExprOpType::PdivQ => AOp::Div,
                ASTExprOpType::PdivR | ASTExprOpType::ZdivR => AOp::Rem,
                ASTExprOpType::Cond | ASTExprOpType::Select => AOp::Cond,
                ASTExprOpType::Eq => AOp::Eq,
                ASTExprOpType::Le => AOp::Le,
                ASTExprOpType::Lt => AOp::Lt,
                ASTExprOpType::Ge => AOp::Ge,
                ASTExprOpType::Gt => AOp::Gt,
                ASTExprOpType::Call => AOp::Call,
                other => {
                    return Err(Diagnostic::internal(
                        STAGE,
                        format!("unsupported AST operator {:?}", other),
                    ))
                }
            };
            let n = e.op_get_n_arg().isl(isl, STAGE)?;
            let mut args = Vec::new();
            for i in 0..n {
                args.push(convert_expr(isl, &e.op_get_arg(i).isl(isl, STAGE)?)?);
            }
            Ok(AExpr::Op(op, args))
        }
        _ => Err(Diagnostic::internal(STAGE, "erroneous AST expression")),
    }
}

/// Replaces each memory site by its copies around its code: offsets,
/// copy-in, barrier, the code (its statements reading the tiles), barrier,
/// copy-out, barrier.
fn expand_sites(ast: Ast, sites: &mut [Option<memory::Site>]) -> Ast {
    match ast {
        Ast::Site { index, body } => {
            let mut body = expand_sites(*body, sites);
            let Some(site) = sites.get_mut(index).and_then(|s| s.take()) else {
                return body;
            };
            if site.promoted.is_empty() {
                return body;
            }
            body.promote(&site.promoted);
            let guarded = |copies: Vec<Ast>| -> Vec<Ast> {
                match (&site.copy_guard, copies.is_empty()) {
                    (Some(c), false) => vec![Ast::If {
                        cond: c.clone(),
                        then_: Box::new(Ast::Block(copies)),
                        else_: None,
                    }],
                    _ => copies,
                }
            };
            // A shared tile's copy-in reads global memory that the block's
            // other threads may have written just before, in statements of
            // the same kernel ahead of the site (differential case 362 of
            // family 1002: one thread wrote `B[2h][23 - h]`, the others
            // copied `B[h][...]` in before it had): the block waits first.
            let has_in = !site.copy_in.is_empty();
            let mut items = Vec::new();
            if site.shared && has_in {
                items.push(Ast::Barrier);
            }
            items.extend(guarded(site.copy_in));
            if site.shared {
                items.push(Ast::Barrier);
            }
            items.push(body);
            if site.shared {
                items.push(Ast::Barrier);
            }
            let has_out = !site.copy_out.is_empty();
            items.extend(guarded(site.copy_out));
            if site.shared && has_out {
                items.push(Ast::Barrier);
            }
            let mut out = Ast::Block(items);
            for (name, value) in site.offsets.into_iter().rev() {
                out = Ast::Let {
                    iter: name,
                    value,
                    body: Box::new(out),
                };
            }
            out
        }
        Ast::Block(items) => {
            Ast::Block(items.into_iter().map(|i| expand_sites(i, sites)).collect())
        }
        Ast::For {
            iter,
            init,
            cond,
            inc,
            body,
        } => Ast::For {
            iter,
            init,
            cond,
            inc,
            body: Box::new(expand_sites(*body, sites)),
        },
        Ast::Let { iter, value, body } => Ast::Let {
            iter,
            value,
            body: Box::new(expand_sites(*body, sites)),
        },
        Ast::If { cond, then_, else_ } => Ast::If {
            cond,
            then_: Box::new(expand_sites(*then_, sites)),
            else_: else_.map(|e| Box::new(expand_sites(*e, sites))),
        },
        other => other,
    }
}

impl Ast {
    /// Mutable visit of every node.
    fn walk_mut(&mut self, f: &mut dyn FnMut(&mut Ast)) {
        f(self);
        match self {
            Ast::Block(items) => items.iter_mut().for_each(|i| i.walk_mut(f)),
            Ast::For { body, .. }
            | Ast::Let { body, .. }
            | Ast::Site { body, .. }
            | Ast::Parallel { body, .. }
            | Ast::Atomic(body) => body.walk_mut(f),
            Ast::If { then_, else_, .. } => {
                then_.walk_mut(f);
                if let Some(e) = else_ {
                    e.walk_mut(f);
                }
            }
            _ => {}
        }
    }

    /// Statements of the promoted groups access their local tiles.
    fn promote(&mut self, promoted: &[Promoted]) {
        self.walk_mut(&mut |n| {
            if let Ast::User {
                stmt, promoted: p, ..
            } = n
            {
                for g in promoted {
                    if g.stmts.contains(&stmt.0) {
                        p.push(g.clone());
                    }
                }
            }
        });
    }

    /// Replaces identifiers by expressions everywhere below this node.
    pub fn substitute(&mut self, values: &[(String, AExpr)]) {
        self.walk_mut(&mut |n| match n {
            Ast::For {
                init, cond, inc, ..
            } => {
                for e in [init, cond, inc] {
                    *e = e.substitute(values);
                }
            }
            Ast::Let { value, .. } => *value = value.substitute(values),
            Ast::If { cond, .. } => *cond = cond.substitute(values),
            Ast::User { args, .. } => {
                for a in args.iter_mut() {
                    *a = a.substitute(values);
                }
            }
            Ast::Copy {
                local_idx, subs, ..
            } => {
                for a in local_idx.iter_mut().chain(subs.iter_mut()) {
                    *a = a.substitute(values);
                }
            }
            _ => {}
        });
    }

    /// Statement instances and launches below this node, in order.
    pub fn walk(&self, f: &mut dyn FnMut(&Ast)) {
        f(self);
        match self {
            Ast::Block(items) => items.iter().for_each(|i| i.walk(f)),
            Ast::For { body, .. }
            | Ast::Let { body, .. }
            | Ast::Site { body, .. }
            | Ast::Parallel { body, .. }
            | Ast::Atomic(body) => body.walk(f),
            Ast::If { then_, else_, .. } => {
                then_.walk(f);
                if let Some(e) = else_ {
                    e.walk(f);
                }
            }
            _ => {}
        }
    }

    /// Every identifier used in expressions below this node.
    pub fn used_ids(&self, out: &mut std::collections::BTreeSet<String>) {
        self.walk(&mut |n| match n {
            Ast::For {
                init, cond, inc, ..
            } => {
                init.ids(out);
                cond.ids(out);
                inc.ids(out);
            }
            Ast::Let { value, .. } => value.ids(out),
            Ast::If { cond, .. } => cond.ids(out),
            Ast::User { args, .. } => args.iter().for_each(|a| a.ids(out)),
            Ast::Copy {
                local_idx, subs, ..
            } => local_idx.iter().chain(subs.iter()).for_each(|a| a.ids(out)),
            _ => {}
        });
    }

    /// Loop iterators declared below this node.
    pub fn declared_ids(&self, out: &mut std::collections::BTreeSet<String>) {
        self.walk(&mut |n| match n {
            Ast::For { iter, .. } | Ast::Let { iter, .. } => {
                out.insert(iter.clone());
            }
            _ => {}
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{reroot_contexts, subtree_below_mark};

    const TREE: &str = r#"{ domain: "{ S[t, i] }", child: { schedule: "[{ S[t, i] -> [(t)] }]", child: { sequence: [ { filter: "{ S[t, i] : i < 0 }", child: { mark: "kernel_0", child: { context: "[b] -> { [h0] : 0 <= b < 4 }", child: { schedule: "[{ S[t, i] -> [(i)] }]", child: { context: "[t0] -> { [h0, h1] : 0 <= t0 < 32 }" } } } } }, { filter: "{ S[t, i] : i >= 0 }", child: { mark: "kernel_1", child: { schedule: "[{ S[t, i] -> [(-i)] }]" } } } ] } } }"#;

    #[test]
    fn the_subtree_below_a_mark_is_cut_at_balanced_braces() {
        assert_eq!(
            subtree_below_mark(TREE, "kernel_1").unwrap(),
            r#"{ schedule: "[{ S[t, i] -> [(-i)] }]" }"#
        );
        assert!(subtree_below_mark(TREE, "kernel_2").is_none());
    }

    #[test]
    fn contexts_lose_the_dimensions_above_the_mark() {
        let sub = subtree_below_mark(TREE, "kernel_0").unwrap();
        assert_eq!(
            reroot_contexts(&sub).unwrap(),
            r#"{ context: "[b] -> { [] : 0 <= b < 4 }", child: { schedule: "[{ S[t, i] -> [(i)] }]", child: { context: "[t0] -> { [pencilc_outer_0] : 0 <= t0 < 32 }" } } }"#
        );
        // Without a context right below the mark the depth is unknown.
        assert!(reroot_contexts(
            r#"{ schedule: "[{ S[i] -> [(i)] }]", child: { context: "[t0] -> { [h0] : }" } }"#
        )
        .is_none());
    }
}
