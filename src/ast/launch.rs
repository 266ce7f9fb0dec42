//! One kernel launch site: the kernel's subtree cut out of the mapped
//! schedule and rerooted, the schedule its AST is generated from, the
//! bounds of its tiles and block identifiers, the guard that skips empty
//! launches, and the grid's sizes as host expressions.

use super::*;
use crate::isl::IslText;

pub(super) fn launch_at(
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
        let none: Vec<LaunchTiles> = plan
            .tile_index
            .iter()
            .map(|_| LaunchTiles::Unknown)
            .collect();
        return Ok(Occurrence {
            kernel: plan.id,
            guard: None,
            grid: grid_sizes(isl, plan, build, &none, true)?
                .into_iter()
                .map(|(g, _)| g)
                .collect(),
            host_values: vec![],
            block_offsets: vec![],
            body: None,
            updated: vec![],
        });
    }
    let bounds = tile_bounds(isl, plan, &h)?;
    let (grid, offsets): (Vec<AExpr>, Vec<Option<AExpr>>) =
        grid_sizes(isl, plan, build, &bounds, false)?
            .into_iter()
            .unzip();
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
    // The first tiles, passed as values after the host loops' (the
    // prefix is fresh for every number).
    let mut block_offsets = Vec::new();
    for (j, o) in offsets.iter().enumerate() {
        block_offsets.push(o.as_ref().map(|e| {
            let name = format!("{}{}", host_prefix, depth + j);
            host_values.push((name.clone(), e.clone()));
            name
        }));
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
    let offset: Vec<bool> = block_offsets.iter().map(Option::is_some).collect();
    let block_bounds = block_id_bounds(isl, &bounds, &offset, &at, &mapped.block_ids)?;
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
    // Over the host values and the parameters alone: block ids bound the
    // launch's context, and an element that depends on them is not one
    // per launch.
    let updated = reductions::updated_elements(
        isl,
        scop,
        &instances,
        &isl.set(&scop.context).isl(isl, STAGE)?,
    )?;
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
        eprintln!("kernel tree: {}", tree.text(isl, STAGE).unwrap_or_default());
        eprintln!(
            "kernel context: {}",
            context.text(isl, STAGE).unwrap_or_default()
        );
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
        block_offsets,
        body: Some(body),
        updated,
    })
}

/// `facts` with each of `ids` (parameters) in `0..extent`, pairing `ids`
/// and `extents` in order (the shorter one decides how many).
pub(super) fn within_extents(
    isl: &Isl,
    facts: Set,
    ids: &[String],
    extents: &[i64],
) -> Result<Set> {
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
pub(super) fn kernel_subtree(
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
                instances.text(isl, STAGE)?,
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
pub(super) fn launch_schedule(
    isl: &Isl,
    prefix: Option<&UnionMap>,
    build: &BuildAt,
) -> Result<UnionMap> {
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
pub(super) fn subtree_below_mark(tree: &str, name: &str) -> Option<String> {
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
pub(super) fn reroot_contexts(sub: &str) -> Option<String> {
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

/// Per block dimension, what the launch knows of its tiles: a bound
/// where every tile index is non-negative, a block count where some may
/// be negative for some parameter values (`LaunchTiles`).
pub(super) fn tile_bounds(isl: &Isl, plan: &KernelPlan, h: &UnionMap) -> Result<Vec<LaunchTiles>> {
    let mut out = Vec::new();
    for (j, idx_text) in plan.tile_index.iter().enumerate() {
        let idx = isl.union_map(idx_text).isl(isl, STAGE)?;
        let rel = h
            .copy()
            .isl(isl, STAGE)?
            .reverse()
            .isl(isl, STAGE)?
            .apply_range(idx)
            .isl(isl, STAGE)?;
        if rel.is_empty().isl(isl, STAGE)? {
            out.push(LaunchTiles::Unknown);
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
            out.push(LaunchTiles::Unknown);
            continue;
        };
        let dom = mn.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
        let nonneg = mn.copy().isl(isl, STAGE)?.nonneg_set().isl(isl, STAGE)?;
        if !dom.is_subset(&nonneg).isl(isl, STAGE)? {
            // Where the mapper proved the tiles never wrap, its count
            // over every launch serves (`grid_sizes`); the hull's
            // negative minimum is then the relaxation's, not the tiles'.
            out.push(if plan.wraps[j] {
                counted(isl, max, nonneg, plan.grid_cap[j])?
            } else {
                LaunchTiles::Unknown
            });
            continue;
        }
        let max = max.coalesce().isl(isl, STAGE)?;
        let min = mn.coalesce().isl(isl, STAGE)?;
        let toward = |rel: &str| -> Result<Map> {
            let r = isl.map(rel).isl(isl, STAGE)?;
            hull.copy()
                .isl(isl, STAGE)?
                .apply_range(r)
                .isl(isl, STAGE)?
                .remove_divs()
                .isl(isl, STAGE)?
                .coalesce()
                .isl(isl, STAGE)
        };
        let below = toward("{ [t] -> [b] : b <= t }")?;
        let above = toward("{ [t] -> [b] : b >= t }")?;
        out.push(LaunchTiles::Bounded(TileBound {
            max,
            min,
            above,
            below,
        }));
    }
    Ok(out)
}

/// The blocks a launch whose tile indices may be negative needs: `max +
/// 1` where the hull's smallest index is non-negative (`nonneg`; the
/// kernel's block `b` runs tiles `b`, `b + cap`, ..., so no block beyond
/// the largest index has work), the wrap-around size `cap` elsewhere.
/// Total over the host values, so the grid is defined wherever the
/// launch runs. Without this, a band whose one statement sits at `n`
/// launched `cap` blocks (32,768) for every `n`, most of them empty.
fn counted(isl: &Isl, max: PwAff, nonneg: Set, cap: i64) -> Result<LaunchTiles> {
    let one = isl_rs::Val::int_from_si(&isl.ctx, 1).isl(isl, STAGE)?;
    let some = max
        .add_constant_val(one)
        .isl(isl, STAGE)?
        .intersect_domain(nonneg.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let rest = PwAff::val_on_domain(
        nonneg.complement().isl(isl, STAGE)?,
        isl_rs::Val::int_from_si(&isl.ctx, cap).isl(isl, STAGE)?,
    )
    .isl(isl, STAGE)?;
    let count = some
        .union_max(rest)
        .isl(isl, STAGE)?
        .coalesce()
        .isl(isl, STAGE)?;
    Ok(LaunchTiles::Counted { count })
}

/// An optimum of a relaxed relation, or `None` where it is unbounded
/// (which isl reports as an error); running out of budget is still one.
pub(super) fn bounded(
    isl: &Isl,
    r: std::result::Result<PwAff, isl_rs::LibISLError>,
) -> Result<Option<PwAff>> {
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
pub(super) fn block_id_bounds(
    isl: &Isl,
    bounds: &[LaunchTiles],
    offset: &[bool],
    at: &Set,
    block_ids: &[String],
) -> Result<Set> {
    let mut out = isl.set("{ : }").isl(isl, STAGE)?;
    for (j, (bound, id)) in bounds.iter().zip(block_ids).enumerate() {
        let Some(bound) = bound.bound() else { continue };
        let mut relations = vec![bound.below.copy().isl(isl, STAGE)?];
        // A grid that starts at the first tile: no block id below it.
        if offset.get(j).copied().unwrap_or(false) {
            relations.push(bound.above.copy().isl(isl, STAGE)?);
        }
        for rel in relations {
            out = out
                .intersect(ids_within(isl, rel, at, id)?)
                .isl(isl, STAGE)?;
        }
    }
    out.coalesce().isl(isl, STAGE)
}

/// The parameter values where block id `id` is one of the tile indices
/// `rel` (`[host] -> [b]`) allows at the host values `at` equates with
/// the parameters.
fn ids_within(isl: &Isl, rel: Map, at: &Set, id: &str) -> Result<Set> {
    let universe =
        Set::universe(rel.get_space().isl(isl, STAGE)?.range().isl(isl, STAGE)?).isl(isl, STAGE)?;
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
    rel.intersect_range(is_b)
        .isl(isl, STAGE)?
        .domain()
        .isl(isl, STAGE)?
        .intersect(at.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .params()
        .isl(isl, STAGE)
}

/// The condition, on the host loops around the launch, under which its
/// tile bounds hold (`None`: always, given the code around the launch).
pub(super) fn launch_guard(
    isl: &Isl,
    build: &BuildAt,
    bounds: &[LaunchTiles],
) -> Result<Option<AExpr>> {
    let mut domain: Option<Set> = None;
    for b in bounds.iter().filter_map(LaunchTiles::bound) {
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

/// Blocks needed per grid dimension at this launch: the tile bound plus
/// one (capped at the wrap-around size); where tile indices may be
/// negative, the launch's block count (`LaunchTiles::Counted`), else the
/// cap itself (skewed bands). Where the AST cannot express
/// the launch's own bound, the largest tile index of any launch
/// (`KernelPlan::tile_max`, parameters only) plus one.
pub(super) fn grid_sizes(
    isl: &Isl,
    plan: &KernelPlan,
    build: &BuildAt,
    bounds: &[LaunchTiles],
    empty: bool,
) -> Result<Vec<(AExpr, Option<AExpr>)>> {
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
        let bound = match bound {
            LaunchTiles::Bounded(bound) => bound,
            LaunchTiles::Counted { count } => {
                let e = build
                    .expr_from_pw_aff(count.copy().isl(isl, STAGE)?)
                    .ok_or_else(|| isl.last_error(STAGE))?;
                out.push((
                    match convert_expr(isl, &e)?.simplify() {
                        AExpr::Int(c) => AExpr::Int(c.clamp(1, cap)),
                        c => AExpr::op(AOp::Min, vec![c, AExpr::Int(cap)]),
                    },
                    None,
                ));
                continue;
            }
            LaunchTiles::Unknown => {
                out.push((
                    whole.unwrap_or(AExpr::Int(if empty { 1 } else { cap })),
                    None,
                ));
                continue;
            }
        };
        // Where the tiles never wrap, the grid starts at the launch's
        // first tile: blocks before it would have nothing to run.
        let offset = if plan.wraps[j] {
            None
        } else {
            first_tile(isl, build, &bound.min)?
        };
        let span = match offset {
            Some(_) => bound
                .max
                .copy()
                .isl(isl, STAGE)?
                .sub(bound.min.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?
                .coalesce()
                .isl(isl, STAGE)?,
            None => bound.max.copy().isl(isl, STAGE)?,
        };
        let e = build
            .expr_from_pw_aff(span)
            .ok_or_else(|| isl.last_error(STAGE))?;
        let e = convert_expr(isl, &e)?;
        let count = AExpr::op(AOp::Add, vec![e, AExpr::Int(1)]).simplify();
        out.push(match count {
            // A constant bound of more blocks than a wrapped grid has is
            // isl's bound over every value of a parameter that wraps
            // (`(int)(n - 1) + 3` with `n` unsigned): the parametric one
            // counts this launch's, from tile 0.
            AExpr::Int(c) if c > HUGE_CONSTANT_GRID && whole.is_some() => {
                (whole.clone().unwrap(), None)
            }
            AExpr::Int(c) => (AExpr::Int(c.clamp(1, cap)), offset),
            // The mapper proved every tile index below the cap.
            c if !plan.wraps[j] => (c, offset),
            c => (AExpr::op(AOp::Min, vec![c, AExpr::Int(cap)]), None),
        });
    }
    Ok(out)
}

/// The launch's first tile along a block dimension, as host code, where
/// it is not always 0 (`None` there).
fn first_tile(isl: &Isl, build: &BuildAt, min: &PwAff) -> Result<Option<AExpr>> {
    let e = build
        .expr_from_pw_aff(min.copy().isl(isl, STAGE)?)
        .ok_or_else(|| isl.last_error(STAGE))?;
    Ok(match convert_expr(isl, &e)?.simplify() {
        AExpr::Int(c) if c <= 0 => None,
        e => Some(e),
    })
}
