//! Code structure: isl's AST generator turns the mapped schedule tree into
//! host loops around kernel launches and the loops inside each kernel. The
//! isl AST is converted into pencilc's own `Ast`, which back ends print.

mod barrier;
mod convert;
pub mod cpu;
pub mod executed;
mod expr;
mod footprint;
mod instances;
mod launch;
pub mod memory;
pub mod one_block;
pub mod overflow;
mod private;
pub mod reductions;
mod redundant_barriers;
mod wavefront;

pub use convert::convert_expr;
use convert::*;
pub use instances::instance_boxes;
use launch::*;

pub use expr::{AExpr, AOp, ExprStyle};
pub use footprint::Footprint;
pub use memory::{LocalArray, Promoted};
pub use private::{
    iterator as private_iterator, write_backs, WriteBack,
    ITERATOR_PREFIX as PRIVATE_ITERATOR_PREFIX,
};

use crate::deps::DependenceGraph;
use crate::diag::{Diagnostic, Result};
use crate::front::affine::isl_name;
use crate::isl::ast_build::{
    ast_node_kind, expr_from_params, node_from_schedule, AstNodeKind, BuildAt,
};
use crate::isl::{Isl, IslResultExt, IslText};
use crate::map::{KernelPlan, MappedSchedule, MappedTrees};
use crate::scop::{Scop, StmtId};
use isl_rs::{
    ASTExpr, ASTExprOpType, ASTExprType, ASTNode, DimType, LocalSpace, Map, PwAff, Schedule, Set,
    UnionMap, UnionSet,
};
use std::collections::BTreeMap;

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
        /// Elements reduced through locals around the loop
        /// (`map::cpu::LocalAccumulator`).
        locals: Vec<crate::map::cpu::LocalAccumulator>,
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
    /// Per block id (outermost first), the host value (one of
    /// `host_values`) that holds the launch's first tile along it, where
    /// that is not 0: block `k` of the grid runs tile `offset + k`, so a
    /// launch whose tiles start far from 0 (a wavefront's plane, a
    /// triangle's rows below the pivot) launches no empty blocks before
    /// them.
    pub block_offsets: Vec<Option<String>>,
    pub body: Ast,
    /// Shared and private arrays the kernel declares.
    pub locals: Vec<LocalArray>,
    /// Reduction arrays whose updates in this launch all accumulate into
    /// one element that nothing else in it touches.
    pub updated_elements: Vec<reductions::UpdatedElement>,
    /// One block that plays the launches of a host loop one after
    /// another (`one_block`): each of its barriers ends one of them, and
    /// after it the threads read what other threads wrote.
    pub plays_launches: bool,
}

impl Launch {
    /// The kernel parameter that holds block id `j`'s first tile, where
    /// the grid does not start at tile 0.
    pub fn block_offset_name(&self, j: usize) -> Option<&str> {
        self.block_offsets.get(j)?.as_deref()
    }

    /// The host expression of block id `j`'s first tile, where the grid
    /// does not start at tile 0.
    pub fn block_offset(&self, j: usize) -> Option<&AExpr> {
        let name = self.block_offset_name(j)?;
        self.host_values
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }
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
    /// Arrays copied in only where these host conditions hold
    /// (`deps::DependenceGraph::copy_in_where`); the others of `copy_in`
    /// wherever the region runs.
    pub copy_in_when: BTreeMap<String, AExpr>,
}

/// When the device version copies an array in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CopyIn<'a> {
    Never,
    /// Wherever the region runs.
    Always,
    /// Where this host condition holds (`GpuAst::copy_in_when`).
    When(&'a AExpr),
}

impl GpuAst {
    /// When `array` is copied in: `copy_in` is the dependence graph's
    /// (`deps::DependenceGraph::copy_in`), of which `copy_in_when` holds
    /// the arrays that only some sizes need.
    pub fn copy_in<'a>(
        &'a self,
        copy_in: &std::collections::BTreeSet<String>,
        array: &str,
    ) -> CopyIn<'a> {
        match (copy_in.contains(array), self.copy_in_when.get(array)) {
            (false, _) => CopyIn::Never,
            (true, None) => CopyIn::Always,
            (true, Some(c)) => CopyIn::When(c),
        }
    }
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
    deps: &DependenceGraph,
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
            eprintln!(
                "host tree: {}",
                trees.host.text(isl, STAGE).unwrap_or_default()
            );
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
        copy_in_when: footprint::copy_in_conditions(isl, scop, &deps.copy_in_where)?,
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
        copy_in_when: BTreeMap::new(),
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
    block_offsets: Vec<Option<String>>,
    body: Option<Ast>,
    updated: Vec<reductions::UpdatedElement>,
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
    /// The hull's smallest tile index (non-negative), at most the
    /// launch's first tile.
    min: PwAff,
    /// `[host] -> [b]`: every `b` at least some lower bound of the hull;
    /// what the block ids satisfy where the grid starts at `min`.
    above: Map,
    /// `[host] -> [b]`: every `b` at most some upper bound of the hull (its
    /// constraints with the tile index below them, and what the host
    /// values satisfy wherever the launch has instances).
    below: Map,
}

/// What one launch knows of its tiles along one block dimension.
enum LaunchTiles {
    /// Nothing usable (no instances, or no bounded hull): the launch runs
    /// the wrap-around grid.
    Unknown,
    /// Tile indices may be negative for some parameter values (a
    /// statement placed at `n` in a band whose other instances start at
    /// 0, with `n` any `int`). Blocks then wrap around the grid, so for
    /// those values the launch needs the wrap-around size, but where every
    /// index is non-negative `max + 1` blocks suffice. `count` is that
    /// number of blocks, total over the host values; the kernel may
    /// assume nothing more of its block ids.
    Counted { count: PwAff },
    /// Every tile index is non-negative wherever the launch has instances.
    Bounded(TileBound),
}

impl LaunchTiles {
    fn bound(&self) -> Option<&TileBound> {
        match self {
            LaunchTiles::Bounded(b) => Some(b),
            _ => None,
        }
    }
}

/// More blocks than PPCG's wrap-around grid: a constant grid beyond it
/// is replaced by the parametric count where there is one.
const HUGE_CONSTANT_GRID: i64 = 32768;

fn id_name(isl: &Isl, e: &ASTExpr) -> Result<String> {
    let id = e.id_get_id().isl(isl, STAGE)?;
    Ok(id.get_name().isl(isl, STAGE)?.to_string())
}

impl Ast {
    /// Mutable visit of every node.
    pub fn walk_mut(&mut self, f: &mut dyn FnMut(&mut Ast)) {
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
