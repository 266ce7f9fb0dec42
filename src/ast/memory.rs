//! Copies between global memory and the tiles the mapper chose (shared
//! memory, registers), generated at the mapper's marks while isl builds a
//! kernel's AST. At a mark, isl's build knows the loops around it; the
//! footprints are recomputed there, in the build's own space, so offsets
//! become expressions in those loops' iterators. A site whose tile is not
//! what the mapper planned (it can only be smaller) keeps its groups in
//! global memory: correct, only slower.

use super::{convert_expr, AExpr, Ast};
use crate::diag::Result;
use crate::isl::ast_build::{expr_from_params, node_from_schedule, BuildAt};
use crate::isl::{Isl, IslResultExt};
use crate::map::memory::{footprint, tile, Group, Placement};
use crate::map::KernelPlan;
use isl_rs::{
    ASTLoopType, DimType, Id, LocalSpace, Map, MultiUnionPwAff, PwAff, Schedule, Set, UnionMap,
    UnionSet,
};

const STAGE: &str = "ast-memory";

/// A statement's accesses to `array` go to the local array `local`, at
/// `(subscript - offset) / stride` per dimension.
#[derive(Clone, Debug, PartialEq)]
pub struct Promoted {
    pub array: String,
    pub local: String,
    pub offsets: Vec<String>,
    pub strides: Vec<i64>,
    pub stmts: Vec<usize>,
}

/// One mark occurrence: what to put around the code below it.
pub struct Site {
    /// `const int` offsets, in order.
    pub offsets: Vec<(String, AExpr)>,
    pub copy_in: Vec<Ast>,
    pub copy_out: Vec<Ast>,
    pub promoted: Vec<Promoted>,
    /// Whether threads share what is copied (barriers needed).
    pub shared: bool,
    /// The condition under which the copies run, where the code around
    /// the mark does not imply it.
    pub copy_guard: Option<AExpr>,
}

/// A local array declared at the top of a kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalArray {
    pub name: String,
    pub elem_type: String,
    pub sizes: Vec<i64>,
    pub shared: bool,
}

pub fn locals_of(plan: &KernelPlan) -> Vec<LocalArray> {
    plan.memory
        .promoted()
        .map(|g| LocalArray {
            name: g.name.clone(),
            elem_type: g.elem_type.clone(),
            sizes: g.sizes.clone(),
            shared: g.placement == Placement::Shared,
        })
        .collect()
}

/// The names that generated copies use.
pub struct Names<'a> {
    pub copy_iter_prefix: &'a str,
    pub thread_ids: &'a [String],
    /// Threads per block dimension, outermost first.
    pub blocks: &'a [i64],
    /// What holds on the parameters wherever the launch runs: the kernel's
    /// context (the region's, and the block ids' bounds) and the launch's
    /// having instances (the host launches it only then).
    pub launch_facts: &'a Set,
}

/// Builds the copies of the groups of `plan` at `level` for the mark
/// occurrence described by `build`.
pub fn site_at(
    isl: &Isl,
    plan: &KernelPlan,
    level: crate::map::memory::Level,
    build: &BuildAt,
    names: &Names,
) -> Result<Site> {
    let mut site = Site {
        offsets: vec![],
        copy_in: vec![],
        copy_out: vec![],
        promoted: vec![],
        shared: false,
        copy_guard: None,
    };
    let sched = build.schedule().ok_or_else(|| isl.last_error(STAGE))?;
    let space_set = Set::from_union_set(sched.copy().isl(isl, STAGE)?.range().isl(isl, STAGE)?);
    let Ok(space_set) = space_set else {
        // No instance below this occurrence: nothing to copy.
        return Ok(site);
    };
    let space = space_set.get_space().isl(isl, STAGE)?;
    let depth = space_set.dim(DimType::Set).isl(isl, STAGE)? as usize;
    // The value of each outer schedule dimension at this point, as code.
    let mut outer_values: Vec<(String, AExpr)> = Vec::new();
    for j in 0..depth {
        let ls = LocalSpace::from_space(space.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
        let pa = PwAff::var_on_domain(ls, DimType::Set, j as u32).isl(isl, STAGE)?;
        let e = build
            .expr_from_pw_aff(pa)
            .ok_or_else(|| isl.last_error(STAGE))?;
        outer_values.push((format!("pencilc_o{}", j), convert_expr(isl, &e)?));
    }
    // The copies are generated apart from the kernel's AST, so isl does not
    // know what the loops and guards around the mark enforce. They are
    // generated for outer values where instances run below the mark
    // (`reached`, as parameters `pencilc_o<j>`), which drops the guards
    // that the enclosing code implies; the copies then run under the
    // condition that the enclosing code does not already imply (usually
    // none), so the assumption always holds where they run. isl's build
    // at the mark says what that is, but it also counts as holding the
    // constraints it has yet to generate, below the mark (a register tile
    // whose loop ran no iteration at some sizes was written back with a
    // value never computed): the part of the condition on the parameters
    // alone is therefore checked again, simplified only by what holds in
    // the whole launch.
    let on_params = space_set
        .copy()
        .isl(isl, STAGE)?
        .params()
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;
    let facts = kernel_facts(isl, names)?
        .intersect_params(Set::universe(on_params.get_space().isl(isl, STAGE)?).isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let on_params = convert_expr(isl, &expr_from_params(isl, facts, on_params)?)?.simplify();
    let in_build = build
        .expr_from_set(space_set.copy().isl(isl, STAGE)?)
        .ok_or_else(|| isl.last_error(STAGE))?;
    let guard = match (on_params, convert_expr(isl, &in_build)?) {
        (AExpr::Int(1), AExpr::Int(1)) => None,
        (AExpr::Int(1), e) | (e, AExpr::Int(1)) => Some(e),
        (a, b) => Some(AExpr::op(super::AOp::And, vec![a, b])),
    };
    let mut reached = outer_as_params(isl, &space_set)?;
    for (eq, q) in stride_parameters(isl, &space_set, &outer_values)? {
        reached = reached.intersect_params(eq).isl(isl, STAGE)?;
        outer_values.push(q);
    }
    site.copy_guard = guard;
    let threads = isl.union_set(&plan.memory.thread_filter).isl(isl, STAGE)?;
    for g in plan.memory.promoted().filter(|g| g.level == level) {
        let mut reads = isl.union_map(&g.reads).isl(isl, STAGE)?;
        let mut writes = isl.union_map(&g.writes).isl(isl, STAGE)?;
        if g.placement == Placement::Private {
            reads = reads
                .intersect_domain(threads.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            writes = writes
                .intersect_domain(threads.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
        }
        let f_read = footprint(isl, &sched, &reads)?;
        let f_write = footprint(isl, &sched, &writes)?;
        let f_all = f_read
            .copy()
            .isl(isl, STAGE)?
            .union(f_write.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        if f_all.is_empty().isl(isl, STAGE)? {
            continue;
        }
        let f_all = Map::from_union_map(f_all).isl(isl, STAGE)?;
        // The tile here must fit in what the kernel declares.
        let (offset, strides) = match g.placement {
            Placement::Shared => match tile::shared_tile(isl, &f_all)? {
                Some(b) if fits(&b.sizes, &g.sizes) && b.strides == g.strides => {
                    (b.offset, b.strides)
                }
                _ => continue,
            },
            _ => match tile::register_tile(isl, &f_all)? {
                Some(t) if fits(&t.sizes, &g.sizes) && t.strides == g.strides => {
                    (t.offset, t.strides)
                }
                _ => continue,
            },
        };
        let mut off_names = Vec::new();
        for (i, pa) in offset.into_iter().enumerate() {
            let e = build
                .expr_from_pw_aff(pa)
                .ok_or_else(|| isl.last_error(STAGE))?;
            let name = format!("{}_o{}", g.name, i);
            site.offsets.push((name.clone(), convert_expr(isl, &e)?));
            off_names.push(name);
        }
        let promoted = Promoted {
            array: g.array.clone(),
            local: g.name.clone(),
            offsets: off_names,
            strides,
            stmts: g.stmts.clone(),
        };
        let shared = g.placement == Placement::Shared;
        site.shared |= shared;
        if g.read && !f_read.is_empty().isl(isl, STAGE)? {
            let code = copy_code(
                isl,
                g,
                &f_read,
                &promoted,
                true,
                names,
                &outer_values,
                &reached,
            )?;
            site.copy_in.push(code);
        }
        if g.written && !f_write.is_empty().isl(isl, STAGE)? {
            let code = copy_code(
                isl,
                g,
                &f_write,
                &promoted,
                false,
                names,
                &outer_values,
                &reached,
            )?;
            site.copy_out.push(code);
        }
        site.promoted.push(promoted);
    }
    Ok(site)
}

fn fits(have: &[i64], declared: &[i64]) -> bool {
    have.len() == declared.len() && have.iter().zip(declared).all(|(h, d)| h <= d)
}

/// The loops copying exactly the elements of `f` (outer values → elements)
/// in or out. Shared tiles are copied by all threads of the block, the last
/// array dimension on thread x so that consecutive threads touch
/// consecutive elements; register tiles by their thread, fully unrolled.
#[allow(clippy::too_many_arguments)]
fn copy_code(
    isl: &Isl,
    g: &Group,
    f: &UnionMap,
    p: &Promoted,
    into_local: bool,
    names: &Names,
    outer_values: &[(String, AExpr)],
    reached: &Set,
) -> Result<Ast> {
    let m = Map::from_union_map(f.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let n_in = m.dim(DimType::In).isl(isl, STAGE)? as u32;
    let mut m = m;
    for i in 0..n_in {
        let id = Id::read_from_str(&isl.ctx, &format!("pencilc_o{}", i)).isl(isl, STAGE)?;
        m = m.set_dim_id(DimType::In, i, id).isl(isl, STAGE)?;
    }
    let n_param = m.dim(DimType::Param).isl(isl, STAGE)? as u32;
    let m = m
        .move_dims(DimType::Param, n_param, DimType::In, 0, n_in)
        .isl(isl, STAGE)?;
    let mut dom = m.range().isl(isl, STAGE)?;
    let rank = g.sizes.len();
    let shared = g.placement == Placement::Shared;
    if shared && rank > 0 {
        let n_thread = names.blocks.len();
        let blocks = names.blocks;
        let a: Vec<String> = (0..rank).map(|k| format!("a{}", k)).collect();
        let mut cons = Vec::new();
        for mth in 0..n_thread {
            let t = &names.thread_ids[n_thread - 1 - mth];
            if mth < rank {
                // With a stride s in the tile (`x[2j]`), the elements are s
                // apart: deal out floor(a / s), which runs through
                // consecutive values, so every thread gets its share (a
                // itself would leave the threads t with t mod s != 0 idle).
                let d = rank - 1 - mth;
                let along = match p.strides.get(d) {
                    Some(&s) if s > 1 => format!("floor({} / {})", a[d], s),
                    _ => a[d].clone(),
                };
                cons.push(format!(
                    "({} - {}) mod {} = 0",
                    along,
                    t,
                    blocks[n_thread - 1 - mth]
                ));
            } else {
                cons.push(format!("{} = 0", t));
            }
        }
        let dist = Set::read_from_str(
            &isl.ctx,
            &format!(
                "[{}] -> {{ {}[{}] : {} }}",
                names.thread_ids[..n_thread].join(", "),
                g.array,
                a.join(", "),
                cons.join(" and ")
            ),
        )
        .isl(isl, STAGE)?;
        dom = dom.intersect(dist).isl(isl, STAGE)?;
    }
    let dom = UnionSet::from_set(dom).isl(isl, STAGE)?;
    let ident = dom.copy().isl(isl, STAGE)?.identity().isl(isl, STAGE)?;
    let mupa = MultiUnionPwAff::from_union_map(ident).isl(isl, STAGE)?;
    let sched = Schedule::from_domain(dom).isl(isl, STAGE)?;
    let mut node = sched.get_root().isl(isl, STAGE)?.child(0).isl(isl, STAGE)?;
    if rank > 0 {
        node = node.insert_partial_schedule(mupa).isl(isl, STAGE)?;
        if !shared {
            for j in 0..rank {
                node = node
                    .band_member_set_ast_loop_type(j as i32, ASTLoopType::Unroll)
                    .isl(isl, STAGE)?;
            }
        }
    }
    let sched = node.get_schedule().isl(isl, STAGE)?;
    let context = kernel_facts(isl, names)?
        .intersect_params(reached.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let mut no_hook = |_: &str, _: &BuildAt| -> Option<String> { None };
    let ast = node_from_schedule(isl, sched, context, names.copy_iter_prefix, &mut no_hook)?;
    let mut on_user = |_name: &str, args: Vec<AExpr>| -> Result<Ast> {
        if args.len() != p.offsets.len() {
            return Err(crate::diag::Diagnostic::internal(
                STAGE,
                format!(
                    "copy of {} with {} subscripts: {:?}",
                    p.array,
                    args.len(),
                    args
                ),
            ));
        }
        let local_idx = args
            .iter()
            .enumerate()
            .map(|(i, a)| local_index(a.clone(), &p.offsets[i], p.strides[i]))
            .collect();
        Ok(Ast::Copy {
            into_local,
            local: p.local.clone(),
            local_idx,
            array: p.array.clone(),
            subs: args,
        })
    };
    let mut on_mark = |_: &isl_rs::ASTNode| -> Result<Option<Ast>> { Ok(None) };
    let mut code = super::convert_node(isl, &ast, &mut on_user, &mut on_mark)?;
    code.substitute(outer_values);
    Ok(code)
}

/// What holds everywhere in a launch of a kernel: `Names::launch_facts`,
/// and the thread ids within the block (isl then drops guards such as
/// `floord(t0, 16)` that only matter for ids the launch never has).
fn kernel_facts(isl: &Isl, names: &Names) -> Result<Set> {
    let facts = names.launch_facts.copy().isl(isl, STAGE)?;
    super::within_extents(isl, facts, names.thread_ids, names.blocks)
}

/// The outer schedule values of `set` as parameters `pencilc_o<j>` (the
/// names the copies use for them).
fn outer_as_params(isl: &Isl, set: &Set) -> Result<Set> {
    let n = set.dim(DimType::Set).isl(isl, STAGE)? as u32;
    let mut m = set.copy().isl(isl, STAGE)?;
    for i in 0..n {
        let id = Id::read_from_str(&isl.ctx, &format!("pencilc_o{}", i)).isl(isl, STAGE)?;
        m = m.set_dim_id(DimType::Set, i, id).isl(isl, STAGE)?;
    }
    let n_param = m.dim(DimType::Param).isl(isl, STAGE)? as u32;
    m.move_dims(DimType::Param, n_param, DimType::Set, 0, n)
        .isl(isl, STAGE)?
        .params()
        .isl(isl, STAGE)
}

/// A strided outer value (the tile loop `c2 += 32`) is `o = s * q + r` in
/// `reached` only through an existential, which isl's AST build does not
/// use to simplify: the copies kept guards like `c2 % 32 == 0`. The same
/// fact as an equality with a parameter `pencilc_q<j>` of its own removes
/// them. Per strided dimension with a constant offset: that equality, and
/// the value of `q` as code (`(o - r) / s`, exact) for where isl uses it.
fn stride_parameters(
    isl: &Isl,
    space_set: &Set,
    outer_values: &[(String, AExpr)],
) -> Result<Vec<(Set, (String, AExpr))>> {
    let mut out = Vec::new();
    for (j, (_, value)) in outer_values.iter().enumerate() {
        let info = space_set.get_stride_info(j as i32).isl(isl, STAGE)?;
        let stride = info
            .get_stride()
            .isl(isl, STAGE)?
            .get_num_si()
            .isl(isl, STAGE)?;
        let offset = info.get_offset().isl(isl, STAGE)?;
        if stride <= 1 || !offset.is_cst().isl(isl, STAGE)? {
            continue;
        }
        let r = offset.get_constant_val().isl(isl, STAGE)?;
        if !r.is_int().isl(isl, STAGE)? {
            continue;
        }
        let r = r.get_num_si().isl(isl, STAGE)?;
        let (o, q) = (format!("pencilc_o{}", j), format!("pencilc_q{}", j));
        let eq = Set::read_from_str(
            &isl.ctx,
            &format!("[{o}, {q}] -> {{ : {o} = {stride} * {q} + {r} }}"),
        )
        .isl(isl, STAGE)?;
        let diff = AExpr::op(super::AOp::Sub, vec![value.clone(), AExpr::Int(r)]);
        out.push((eq, (q, divided(diff, stride).simplify())));
    }
    Ok(out)
}

/// `(sub - offset) / stride` as code.
pub fn local_index(sub: AExpr, offset: &str, stride: i64) -> AExpr {
    divided(
        AExpr::op(super::AOp::Sub, vec![sub, AExpr::Id(offset.to_string())]),
        stride,
    )
}

/// `e / by` (an exact division) as code.
fn divided(e: AExpr, by: i64) -> AExpr {
    if by == 1 {
        e
    } else {
        AExpr::op(super::AOp::Div, vec![e, AExpr::Int(by)])
    }
}
