//! Copies between global memory and the tiles the mapper chose (shared
//! memory, registers), generated at the mapper's marks while isl builds a
//! kernel's AST. At a mark, isl's build knows the loops around it; the
//! footprints are recomputed there, in the build's own space, so offsets
//! become expressions in those loops' iterators. A site whose tile is not
//! what the mapper planned (it can only be smaller) keeps its groups in
//! global memory: correct, only slower.

use super::{convert_expr, AExpr, Ast};
use crate::diag::{Code, Diagnostic, Result};
use crate::isl::ast_build::{expr_from_params, node_from_schedule, BuildAt};
use crate::isl::{Isl, IslResultExt};
use crate::map::memory::{footprint, tile, Group, Placement};
use crate::map::KernelPlan;
use isl_rs::{
    ASTLoopType, DimType, LocalSpace, Map, MultiUnionPwAff, PwAff, Schedule, Set, UnionMap,
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
    /// The dimensions as declared (a shared tile's rows may be padded:
    /// `map::memory::row_padding`).
    pub sizes: Vec<i64>,
    pub shared: bool,
}

pub fn locals_of(plan: &KernelPlan) -> Vec<LocalArray> {
    plan.memory
        .promoted()
        .map(|g| LocalArray {
            name: g.name.clone(),
            elem_type: g.elem_type.clone(),
            sizes: crate::map::memory::declared_sizes(&g.sizes, g.row_pad),
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
        let mut offsets_known: Option<Set> = None;
        for (i, pa) in offset.into_iter().enumerate() {
            let name = format!("{}_o{}", g.name, i);
            let known = offset_as_parameter(isl, pa.copy().isl(isl, STAGE)?, &name)?;
            offsets_known = Some(match offsets_known {
                None => known,
                Some(k) => k.intersect(known).isl(isl, STAGE)?,
            });
            let e = build
                .expr_from_pw_aff(pa)
                .ok_or_else(|| isl.last_error(STAGE))?;
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
                offsets_known.as_ref(),
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
                offsets_known.as_ref(),
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
/// in or out: register tiles by their thread, fully unrolled; shared tiles
/// by `shared_copy_code`.
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
    offsets_known: Option<&Set>,
) -> Result<Ast> {
    let m = Map::from_union_map(f.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let dom = outer_inputs_as_params(isl, m)?.range().isl(isl, STAGE)?;
    let rank = g.sizes.len();
    if g.placement == Placement::Shared && rank > 0 {
        return shared_copy_code(
            isl,
            g,
            dom,
            p,
            into_local,
            names,
            outer_values,
            reached,
            offsets_known,
        );
    }
    let dom = UnionSet::from_set(dom).isl(isl, STAGE)?;
    let ident = dom.copy().isl(isl, STAGE)?.identity().isl(isl, STAGE)?;
    let mupa = MultiUnionPwAff::from_union_map(ident).isl(isl, STAGE)?;
    let sched = Schedule::from_domain(dom).isl(isl, STAGE)?;
    let mut node = sched.get_root().isl(isl, STAGE)?.child(0).isl(isl, STAGE)?;
    if rank > 0 {
        node = node.insert_partial_schedule(mupa).isl(isl, STAGE)?;
        for j in 0..rank {
            node = node
                .band_member_set_ast_loop_type(j as i32, ASTLoopType::Unroll)
                .isl(isl, STAGE)?;
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

/// The copy of a shared tile by all threads of the block: a loop per tile
/// dimension over the local index, from the thread id in steps of the
/// block size (the last dimension on thread x, so that consecutive threads
/// touch consecutive elements; dimensions beyond the block's run whole in
/// every thread, and block dimensions beyond the tile's copy nothing), each
/// element guarded by its being copied. `elems` are the elements of `f`
/// (outer values as parameters `pencilc_o<j>`). A copy in takes the box
/// around them (`rectangular_hull`) unless the array's buffer holds only
/// what the region touches, a copy out exactly them. Loops over
/// the local index keep isl from splitting the copy by thread id, as it
/// did generating loops over the elements themselves (dozens of cases for
/// a stencil's halo; jacobi-2d ran twice as slow with shared memory as
/// without on an H200).
#[allow(clippy::too_many_arguments)]
fn shared_copy_code(
    isl: &Isl,
    g: &Group,
    elems: Set,
    p: &Promoted,
    into_local: bool,
    names: &Names,
    outer_values: &[(String, AExpr)],
    reached: &Set,
    offsets_known: Option<&Set>,
) -> Result<Ast> {
    let rank = g.sizes.len();
    // The element's coordinates as parameters `pencilc_e<d>`: the guard
    // is a condition on them, the outer values and the kernel's ids.
    let e: Vec<String> = (0..rank).map(|d| format!("pencilc_e{}", d)).collect();
    // What the loops already give: e = o + s * m with 0 <= m < size.
    let along: Vec<String> = (0..rank)
        .map(|d| {
            let (o, s, n) = (&p.offsets[d], p.strides[d].max(1), g.sizes[d]);
            let mut c = format!("{o} <= {e} < {o} + {span}", e = e[d], span = s * n);
            if s > 1 {
                c.push_str(&format!(" and ({} - {}) mod {} = 0", e[d], o, s));
            }
            c
        })
        .collect();
    let in_tile = isl
        .set(&format!(
            "[{}, {}] -> {{ : {} }}",
            p.offsets.join(", "),
            e.join(", "),
            along.join(" and ")
        ))
        .isl(isl, STAGE)?;
    let mut context = kernel_facts(isl, names)?
        .intersect_params(reached.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .intersect_params(in_tile)
        .isl(isl, STAGE)?;
    if let Some(known) = offsets_known {
        context = context
            .intersect_params(known.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
    }
    // The box may reach past the buffer where the buffer is only what the
    // region touches (the last row's elements beyond the last touched).
    let elems = if into_local && !g.buffer_is_footprint {
        // The box's bounds are parametric minima and maxima over every
        // piece: seidel-2d's halo at MINI has 9 pieces and isl did not
        // return in 10 s, where the 30 PolyBench kernels' copies have at
        // most 3 at every dataset. The rung fails at once, as it would
        // have at its deadline, and the next has no tile.
        let pieces = elems.n_basic_set().isl(isl, STAGE)?;
        if pieces > MAX_BOX_PIECES {
            return Err(Diagnostic::error(
                Code::Budget,
                None,
                format!(
                    "the copy of `{}`'s tile into local memory covers {} pieces of elements (at most {} are boxed)",
                    g.array, pieces, MAX_BOX_PIECES
                ),
            ));
        }
        rectangular_hull(isl, elems, &e, &context)?
    } else {
        one_piece(isl, dims_as_params(isl, elems, &e)?, &context)?
    };
    let context = context
        .intersect_params(Set::universe(elems.get_space().isl(isl, STAGE)?).isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let cond = convert_expr(isl, &expr_from_params(isl, context, elems)?)?.simplify();
    let local: Vec<String> = (0..rank)
        .map(|d| format!("{}{}", names.copy_iter_prefix, d))
        .collect();
    let subs: Vec<AExpr> = (0..rank)
        .map(|d| {
            let m = AExpr::Id(local[d].clone());
            let step = match p.strides[d] {
                s if s > 1 => AExpr::op(super::AOp::Mul, vec![AExpr::Int(s), m]),
                _ => m,
            };
            AExpr::op(super::AOp::Add, vec![AExpr::Id(p.offsets[d].clone()), step])
        })
        .collect();
    let at: Vec<(String, AExpr)> = e.iter().cloned().zip(subs.iter().cloned()).collect();
    let copy = Ast::Copy {
        into_local,
        local: p.local.clone(),
        local_idx: local.iter().map(|m| AExpr::Id(m.clone())).collect(),
        array: p.array.clone(),
        subs,
    };
    let mut code = match cond {
        AExpr::Int(1) => copy,
        c => Ast::If {
            cond: c.substitute(&at),
            then_: Box::new(copy),
            else_: None,
        },
    };
    let n_thread = names.blocks.len();
    if leaves_threads_idle(&g.sizes, names.blocks) {
        let mut code = spread_over_block(code, &local, &g.sizes, names);
        code.substitute(outer_values);
        return Ok(code);
    }
    let mut idle = Vec::new();
    for mth in 0..n_thread.max(rank) {
        // mth counts from the innermost: thread x, the tile's last dimension.
        let t = (mth < n_thread).then(|| {
            (
                names.thread_ids[n_thread - 1 - mth].clone(),
                names.blocks[n_thread - 1 - mth],
            )
        });
        if mth >= rank {
            if let Some((t, _)) = t {
                idle.push(AExpr::op(super::AOp::Eq, vec![AExpr::Id(t), AExpr::Int(0)]));
            }
            continue;
        }
        let d = rank - 1 - mth;
        let (init, step) = match t {
            Some((t, b)) => (AExpr::Id(t), b),
            None => (AExpr::Int(0), 1),
        };
        code = Ast::For {
            iter: local[d].clone(),
            init,
            cond: AExpr::op(
                super::AOp::Lt,
                vec![AExpr::Id(local[d].clone()), AExpr::Int(g.sizes[d])],
            ),
            inc: AExpr::Int(step),
            body: Box::new(code),
        };
    }
    if !idle.is_empty() {
        code = Ast::If {
            cond: AExpr::op(super::AOp::And, idle).simplify(),
            then_: Box::new(code),
            else_: None,
        };
    }
    code.substitute(outer_values);
    Ok(code)
}

/// Whether copying a tile of `sizes` with one tile dimension per thread
/// dimension (innermost on x) leaves threads without an element: a block
/// dimension with no tile dimension, or larger than its tile dimension
/// (lu's pivot column, a tile of 2000x1 on 32 threads along x, was copied
/// by thread 0 alone, 2,000 elements in each block).
fn leaves_threads_idle(sizes: &[i64], blocks: &[i64]) -> bool {
    let (rank, n_thread) = (sizes.len(), blocks.len());
    n_thread > rank || (0..n_thread).any(|mth| sizes[rank - 1 - mth] < blocks[n_thread - 1 - mth])
}

/// `body` (one element at local index `local`) run for every element of
/// a tile of `sizes`, the elements in row-major order dealt to the
/// block's threads in order of their linear id (x fastest): every thread
/// copies at most ⌈elements / threads⌉ of them, and consecutive threads
/// touch consecutive elements of a row.
fn spread_over_block(body: Ast, local: &[String], sizes: &[i64], names: &Names) -> Ast {
    use super::AOp::{Add, Div, Mul, Rem};
    let n_thread = names.blocks.len();
    // Linear thread id: t_0 * (b_1 * ... ) + ... + t_last.
    let mut linear = AExpr::Int(0);
    let mut threads = 1i64;
    for j in (0..n_thread).rev() {
        let t = AExpr::Id(names.thread_ids[j].clone());
        let term = if threads == 1 {
            t
        } else {
            AExpr::op(Mul, vec![AExpr::Int(threads), t])
        };
        linear = match linear {
            AExpr::Int(0) => term,
            l => AExpr::op(Add, vec![term, l]),
        };
        threads *= names.blocks[j];
    }
    let total: i64 = sizes.iter().product();
    // A row is dealt out by its own index.
    if let [_] = sizes {
        return Ast::For {
            iter: local[0].clone(),
            init: linear,
            cond: AExpr::op(
                super::AOp::Lt,
                vec![AExpr::Id(local[0].clone()), AExpr::Int(total)],
            ),
            inc: AExpr::Int(threads),
            body: Box::new(body),
        };
    }
    // `<prefix><rank>`: the copy iterators' prefix has no name of the
    // region after it followed by digits.
    let flat = format!("{}{}", names.copy_iter_prefix, sizes.len());
    let mut code = body;
    let mut inner = 1i64;
    for d in (0..sizes.len()).rev() {
        let q = match inner {
            1 => AExpr::Id(flat.clone()),
            k => AExpr::op(Div, vec![AExpr::Id(flat.clone()), AExpr::Int(k)]),
        };
        let value = if d == 0 {
            q
        } else {
            AExpr::op(Rem, vec![q, AExpr::Int(sizes[d])])
        };
        code = Ast::Let {
            iter: local[d].clone(),
            value,
            body: Box::new(code),
        };
        inner *= sizes[d];
    }
    Ast::For {
        iter: flat.clone(),
        init: linear,
        cond: AExpr::op(super::AOp::Lt, vec![AExpr::Id(flat), AExpr::Int(total)]),
        inc: AExpr::Int(threads),
        body: Box::new(code),
    }
}

/// `{ : name = pa(o) }`: the offset `pa` of a tile, a function of the outer
/// schedule values, as a parameter `name` beside the outer values
/// `pencilc_o<j>` (as `copy_code` names them).
fn offset_as_parameter(isl: &Isl, pa: PwAff, name: &str) -> Result<Set> {
    let m = outer_inputs_as_params(isl, Map::from_pw_aff(pa).isl(isl, STAGE)?)?;
    dims_as_params(isl, m.range().isl(isl, STAGE)?, &[name.to_string()])
}

/// The names of the outer schedule values as parameters.
fn outer_names(n: u32) -> Vec<String> {
    (0..n).map(|i| format!("pencilc_o{}", i)).collect()
}

/// `m` with its input dimensions, the outer schedule values, as the
/// parameters `pencilc_o<j>`.
fn outer_inputs_as_params(isl: &Isl, m: Map) -> Result<Map> {
    let n_in = m.dim(DimType::In).isl(isl, STAGE)? as u32;
    let mut m = m;
    for (i, name) in outer_names(n_in).iter().enumerate() {
        let id = isl.id(name).isl(isl, STAGE)?;
        m = m.set_dim_id(DimType::In, i as u32, id).isl(isl, STAGE)?;
    }
    let n_param = m.dim(DimType::Param).isl(isl, STAGE)? as u32;
    m.move_dims(DimType::Param, n_param, DimType::In, 0, n_in)
        .isl(isl, STAGE)
}

/// The parameter set of `set` with its dimensions as parameters `names`.
fn dims_as_params(isl: &Isl, set: Set, names: &[String]) -> Result<Set> {
    let mut m = set;
    for (i, name) in names.iter().enumerate() {
        let id = isl.id(name).isl(isl, STAGE)?;
        m = m.set_dim_id(DimType::Set, i as u32, id).isl(isl, STAGE)?;
    }
    let n_param = m.dim(DimType::Param).isl(isl, STAGE)? as u32;
    m.move_dims(DimType::Param, n_param, DimType::Set, 0, names.len() as u32)
        .isl(isl, STAGE)?
        .params()
        .isl(isl, STAGE)
}

/// The smallest box around a tile's elements `dom` (outer values as
/// parameters), as conditions on the parameters `e` (one per dimension):
/// each coordinate lies between the least and the greatest the tile takes
/// in that dimension. Both bounds are coordinates of elements the tile
/// reads, so the box stays inside the array; its extra elements are never
/// used and never copied out. (The exact footprint of a stencil, a cross
/// of shifted boxes, is a union that guards every element with four
/// alternatives.)
/// The most pieces of a tile's elements that `rectangular_hull` boxes.
const MAX_BOX_PIECES: i32 = 6;

fn rectangular_hull(isl: &Isl, dom: Set, e: &[String], context: &Set) -> Result<Set> {
    let rank = e.len() as u32;
    let mut hull: Option<Set> = None;
    for d in 0..rank {
        let range = dom
            .copy()
            .isl(isl, STAGE)?
            .project_out(DimType::Set, d + 1, rank - d - 1)
            .isl(isl, STAGE)?
            .project_out(DimType::Set, 0, d)
            .isl(isl, STAGE)?;
        let lo = range.copy().isl(isl, STAGE)?.dim_min(0).isl(isl, STAGE)?;
        let hi = range.dim_max(0).isl(isl, STAGE)?;
        let id = isl.id(&e[d as usize]).isl(isl, STAGE)?;
        let where_ = lo.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
        let at = PwAff::param_on_domain_id(where_, id).isl(isl, STAGE)?;
        let slab = lo
            .le_set(at.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .intersect(at.le_set(hi).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let slab = one_piece(isl, slab, context)?;
        hull = Some(match hull {
            None => slab,
            Some(h) => h.intersect(slab).isl(isl, STAGE)?,
        });
    }
    match hull {
        Some(h) => h.coalesce().isl(isl, STAGE),
        None => dom.params().isl(isl, STAGE),
    }
}

/// `set` within `context` as one conjunction where one describes it
/// exactly: a first block's halo starts at 0, the others' one before the
/// tile, and together that is `e >= 0 and e >= 32 b - 1`, which isl's
/// coalescing does not find (each guard would otherwise test every
/// alternative).
fn one_piece(isl: &Isl, set: Set, context: &Set) -> Result<Set> {
    let set = set
        .intersect_params(context.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;
    let hull = Set::from_basic_set(set.copy().isl(isl, STAGE)?.simple_hull().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    if hull.is_subset(&set).isl(isl, STAGE)? {
        Ok(hull)
    } else {
        Ok(set)
    }
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
    dims_as_params(isl, set.copy().isl(isl, STAGE)?, &outer_names(n))
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
        // Text: constraints written from names made here (`pencilc_o`, `pencilc_q`).
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
