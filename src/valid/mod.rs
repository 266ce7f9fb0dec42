//! The legality checker: every schedule and every mapping decision is
//! checked against every dependence before code is emitted. A failure is an
//! internal error naming the violated dependence, never emitted code.

use crate::deps::DependenceGraph;
use crate::diag::{Diagnostic, Result};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{
    DimType, Map, MultiUnionPwAff, Schedule, ScheduleNode, ScheduleNodeType, UnionMap, UnionSet,
};

const STAGE: &str = "valid";

/// Checks that `tree` runs the target of every dependence after its source.
///
/// A tile-level wavefront (`W = Σ ⌊φ_k/T⌋`, the tile band, then the
/// point band `φ`, below a `pencilc_wavefront` mark) is legal exactly
/// when its point band is: the tree without `W` and the tile band must
/// order every dependence, and every member `φ_k` must keep every
/// dependence among the band's instances (same outer loops) non-negative
/// — then each `⌊φ_k/T⌋`, and so `W`, is non-decreasing along it, and
/// where `W` ties, every tile coordinate ties and the point band decides.
/// That is the condition under which tiling a band is legal at all, and
/// checking it instead of the floors themselves keeps the cost of the
/// check linear and free of the floors' local variables (heat-3d's
/// wavefront took isl 0.7 s, its tiled kernel 1.6 s more).
pub fn check_schedule(isl: &Isl, deps: &DependenceGraph, tree: &str) -> Result<()> {
    check_coefficients(tree)?;
    let sched = isl.schedule(tree).isl(isl, STAGE)?;
    let (view, bands) = without_wavefronts(isl, sched)?;
    check_schedule_map(isl, deps, view.get_map().isl(isl, STAGE)?)?;
    if bands.is_empty() {
        return Ok(());
    }
    let all = deps.all(isl)?;
    for b in &bands {
        isl.check_deadline(STAGE)?;
        check_permutable(isl, &all, &b.domain, &b.prefix, &b.band, "wavefront band")?;
    }
    Ok(())
}

/// The largest coefficient of an iterator or a parameter a schedule may
/// have. Generated loops count in `int`, and isl's code for a band whose
/// members have large coefficients multiplies them again: a schedule of
/// isl's own (its Feautrier fallback does not keep to the coefficient
/// bound it is given) with coefficients near 500,000 made bounds such as
/// `2719 * c0 + 14480527` that overflowed `int` at 12 iterations, a wrong
/// result. Pluto's coefficients are at most 4, isl's asked for at most 8.
pub const MAX_COEFFICIENT: i64 = 64;

/// Refuses a schedule with a coefficient beyond `MAX_COEFFICIENT` (a
/// budget failure: the ladder falls back to a simpler schedule).
fn check_coefficients(tree: &str) -> Result<()> {
    match largest_coefficient(tree) {
        Some(c) if c > MAX_COEFFICIENT => Err(Diagnostic::error(
            crate::diag::Code::Budget,
            None,
            format!(
                "the schedule has a coefficient of {}, beyond {}, which the generated code's `int` arithmetic may overflow",
                c, MAX_COEFFICIENT
            ),
        )),
        _ => Ok(()),
    }
}

/// The largest coefficient in the band schedules of a schedule tree's
/// text: an integer that isl prints right before a name (`480300i`,
/// `2n`), in each `schedule: "..."` of the tree (not its domain or
/// filters, where constants bound the instances).
fn largest_coefficient(tree: &str) -> Option<i64> {
    const KEY: &str = "schedule: \"";
    let mut largest = None;
    let mut rest = tree;
    while let Some(at) = rest.find(KEY) {
        let body = &rest[at + KEY.len()..];
        let end = body.find('"').unwrap_or(body.len());
        let text = body[..end].as_bytes();
        let mut k = 0;
        while k < text.len() {
            let starts_number = text[k].is_ascii_digit()
                && (k == 0 || !(text[k - 1].is_ascii_alphanumeric() || text[k - 1] == b'_'));
            if !starts_number {
                k += 1;
                continue;
            }
            let first = k;
            while k < text.len() && text[k].is_ascii_digit() {
                k += 1;
            }
            let names = k < text.len() && (text[k].is_ascii_alphabetic() || text[k] == b'_');
            if names {
                // Digits beyond i64 are a coefficient too large all the same.
                let c = std::str::from_utf8(&text[first..k])
                    .ok()
                    .and_then(|d| d.parse::<i64>().ok())
                    .unwrap_or(i64::MAX);
                largest = largest.max(Some(c));
            }
        }
        rest = &body[end..];
    }
    largest
}

/// A band whose members must each be non-negative along every dependence.
struct PointBand {
    domain: UnionSet,
    prefix: MultiUnionPwAff,
    band: MultiUnionPwAff,
}

/// The tree with each wavefront's `W` band, mark and tile band removed,
/// and the point bands left in their place.
fn without_wavefronts(isl: &Isl, sched: Schedule) -> Result<(Schedule, Vec<PointBand>)> {
    let mut sched = sched;
    let mut bands = Vec::new();
    while let Some(mark) = find_mark(
        isl,
        sched.get_root().isl(isl, STAGE)?,
        crate::sched::pluto::WAVEFRONT_MARK,
    )? {
        let shape = |n: &ScheduleNode, ty: ScheduleNodeType| -> Result<()> {
            if n.get_type().isl(isl, STAGE)? != ty {
                return Err(Diagnostic::internal(
                    STAGE,
                    "a wavefront mark without its bands around it",
                ));
            }
            Ok(())
        };
        let tiles = mark.child(0).isl(isl, STAGE)?;
        shape(&tiles, ScheduleNodeType::Band)?;
        let node = tiles.delete().isl(isl, STAGE)?;
        shape(&node, ScheduleNodeType::Band)?;
        let mark = node.parent().isl(isl, STAGE)?;
        let node = mark.delete().isl(isl, STAGE)?;
        let w = node.parent().isl(isl, STAGE)?;
        shape(&w, ScheduleNodeType::Band)?;
        let point = w.delete().isl(isl, STAGE)?;
        shape(&point, ScheduleNodeType::Band)?;
        bands.push(PointBand {
            domain: point.get_domain().isl(isl, STAGE)?,
            prefix: point
                .get_prefix_schedule_multi_union_pw_aff()
                .isl(isl, STAGE)?,
            band: point.band_get_partial_schedule().isl(isl, STAGE)?,
        });
        sched = point.get_schedule().isl(isl, STAGE)?;
    }
    Ok((sched, bands))
}

/// Checks every band member `tree` marks coincident as the mappers read
/// the flag (each member its own band, below the outer ones and the
/// band's earlier members): no dependence among the instances of one
/// iteration of the loops around it moves along it. pencilc's schedulers
/// set the flags from this condition; a schedule the user loads
/// (`--load-schedule`) may claim more.
pub fn check_coincident(isl: &Isl, deps: &DependenceGraph, tree: &str) -> Result<()> {
    let all = deps.all(isl)?;
    let root = isl
        .schedule(tree)
        .isl(isl, STAGE)?
        .get_root()
        .isl(isl, STAGE)?;
    coincident_below(isl, &all, root)
}

fn coincident_below(isl: &Isl, all: &UnionMap, node: ScheduleNode) -> Result<()> {
    if node.get_type().isl(isl, STAGE)? == ScheduleNodeType::Band {
        for k in 0..node.band_n_member().isl(isl, STAGE)? {
            if !node.band_member_get_coincident(k).isl(isl, STAGE)? {
                continue;
            }
            let mut m = node.copy().isl(isl, STAGE)?;
            if k > 0 {
                m = m.band_split(k).isl(isl, STAGE)?.child(0).isl(isl, STAGE)?;
            }
            if m.band_n_member().isl(isl, STAGE)? > 1 {
                m = m.band_split(1).isl(isl, STAGE)?;
            }
            check_parallel(
                isl,
                all,
                &m.get_domain().isl(isl, STAGE)?,
                &m.get_prefix_schedule_multi_union_pw_aff().isl(isl, STAGE)?,
                &m.band_get_partial_schedule().isl(isl, STAGE)?,
                &format!("member {} of a band (`coincident`)", k),
            )?;
        }
    }
    for i in 0..node.n_children().isl(isl, STAGE)? {
        coincident_below(isl, all, node.get_child(i).isl(isl, STAGE)?)?;
    }
    Ok(())
}

/// The first mark named `name` below `node`, depth first.
fn find_mark(isl: &Isl, node: ScheduleNode, name: &str) -> Result<Option<ScheduleNode>> {
    if node.get_type().isl(isl, STAGE)? == ScheduleNodeType::Mark
        && node
            .mark_get_id()
            .isl(isl, STAGE)?
            .get_name()
            .isl(isl, STAGE)?
            == name
    {
        return Ok(Some(node));
    }
    for i in 0..node.n_children().isl(isl, STAGE)? {
        if let Some(m) = find_mark(isl, node.get_child(i).isl(isl, STAGE)?, name)? {
            return Ok(Some(m));
        }
    }
    Ok(None)
}

/// Checks a flat schedule map (statement instance → time vector).
///
/// Each dependence is carried into time (source time → target time) and
/// compared with the lexicographic order of that one space, so the cost
/// grows with the dependences, not with the square of the statements (the
/// order between every pair of statements' schedules).
pub fn check_schedule_map(isl: &Isl, deps: &DependenceGraph, map: UnionMap) -> Result<()> {
    check_order(isl, deps.all(isl)?, map)
}

/// `check_schedule_map` for the dependences `all`.
pub fn check_order(isl: &Isl, all: UnionMap, map: UnionMap) -> Result<()> {
    check_order_with(isl, all, map, false)
}

/// `check_order`, where a dependence's two instances may also share a time
/// (a time that stands for a set of instances run together whose order the
/// caller checks otherwise: one execution of a kernel launch).
pub fn check_order_or_together(isl: &Isl, all: UnionMap, map: UnionMap) -> Result<()> {
    check_order_with(isl, all, map, true)
}

fn check_order_with(isl: &Isl, all: UnionMap, map: UnionMap, together_ok: bool) -> Result<()> {
    let flat = crate::isl::time::padded_map(isl, map)?;
    if all.is_empty().isl(isl, STAGE)? {
        return Ok(());
    }
    let in_time = all
        .copy()
        .isl(isl, STAGE)?
        .apply_domain(flat.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .apply_range(flat.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    // Every instance of a dependence must have a time, or it is not ordered.
    let timed = flat.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
    let untimed = all
        .copy()
        .isl(isl, STAGE)?
        .subtract_domain(timed.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .union(
            all.copy()
                .isl(isl, STAGE)?
                .subtract_range(timed)
                .isl(isl, STAGE)?,
        )
        .isl(isl, STAGE)?;
    let mut bad = untimed;
    if !in_time.is_empty().isl(isl, STAGE)? {
        let backwards = not_later(
            isl,
            Map::from_union_map(in_time).isl(isl, STAGE)?,
            together_ok,
        )?;
        let backwards = UnionMap::from_map(backwards).isl(isl, STAGE)?;
        if !backwards.is_empty().isl(isl, STAGE)? {
            let violated = dependences_at(isl, &all, &flat, backwards.copy().isl(isl, STAGE)?)?;
            let named = if violated.is_empty().isl(isl, STAGE)? {
                backwards
            } else {
                violated
            };
            bad = bad.union(named).isl(isl, STAGE)?;
        }
    }
    if !bad.is_empty().isl(isl, STAGE)? {
        return Err(Diagnostic::internal(
            STAGE,
            format!(
                "the schedule violates the dependences {}",
                bad.text(isl, STAGE)?
            ),
        ));
    }
    Ok(())
}

/// The dependences of `all` whose instances run at the pairs of times
/// `time_pairs` under `times` (instance → time): what a failed check names,
/// instance pairs rather than their times.
pub fn dependences_at(
    isl: &Isl,
    all: &UnionMap,
    times: &UnionMap,
    time_pairs: UnionMap,
) -> Result<UnionMap> {
    let at = times
        .copy()
        .isl(isl, STAGE)?
        .apply_range(time_pairs)
        .isl(isl, STAGE)?
        .apply_range(times.copy().isl(isl, STAGE)?.reverse().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    // `all` first: the message prints the dependences as written there.
    all.copy().isl(isl, STAGE)?.intersect(at).isl(isl, STAGE)
}

/// The pairs of `in_time` (source time → target time, one space) whose
/// target does not come strictly later than the source (with
/// `together_ok`: that comes earlier).
///
/// Walked one time dimension at a time: the pairs tied on the dimensions
/// before `d` either go backwards at `d`, or stay tied, and only those
/// continue. Intersections and emptiness tests only: subtracting the
/// lexicographic order would complement it, which is costly when time is
/// a floor of a tiled or wavefront schedule, and most dependences are
/// carried, and so leave, at the first dimensions.
fn not_later(isl: &Isl, in_time: Map, together_ok: bool) -> Result<Map> {
    let space = in_time.get_space().isl(isl, STAGE)?;
    let n = in_time.dim(DimType::In).isl(isl, STAGE)?;
    let mut backwards = Map::empty(space.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let mut tied = in_time;
    for d in 0..n {
        let universe = Map::universe(space.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
        let earlier = tied
            .copy()
            .isl(isl, STAGE)?
            .intersect(
                universe
                    .copy()
                    .isl(isl, STAGE)?
                    .order_gt(DimType::In, d as i32, DimType::Out, d as i32)
                    .isl(isl, STAGE)?,
            )
            .isl(isl, STAGE)?;
        if !earlier.is_empty().isl(isl, STAGE)? {
            backwards = backwards.union(earlier).isl(isl, STAGE)?;
        }
        tied = tied
            .intersect(
                universe
                    .equate(DimType::In, d as i32, DimType::Out, d as i32)
                    .isl(isl, STAGE)?,
            )
            .isl(isl, STAGE)?;
        if tied.is_empty().isl(isl, STAGE)? {
            return Ok(backwards);
        }
    }
    // Pairs tied on every dimension run at the same time: not ordered.
    if together_ok {
        return Ok(backwards);
    }
    backwards.union(tied).isl(isl, STAGE)
}

/// Checks that the members `parallel` of a band are really parallel: every
/// dependence between instances that run in the same iteration of the outer
/// (`prefix`) loops has distance zero along them.
pub fn check_parallel(
    isl: &Isl,
    deps: &UnionMap,
    domain: &UnionSet,
    prefix: &MultiUnionPwAff,
    parallel: &MultiUnionPwAff,
    what: &str,
) -> Result<()> {
    // Only dependences between instances below the band matter here; the
    // others are ordered by the sequence and host loops around it.
    let all = deps
        .copy()
        .isl(isl, STAGE)?
        .intersect_domain(domain.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .intersect_range(domain.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let same_outer = if prefix.size().isl(isl, STAGE)? > 0 {
        all.eq_at_multi_union_pw_aff(prefix.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
    } else {
        all
    };
    // A member is parallel when no dependence among these instances goes
    // forwards or backwards along it. Emptiness of two intersections per
    // member: the subset test complemented the tied pairs, costly on the
    // floors of a tiled or wavefront prefix (heat-3d's kernel band).
    for k in 0..parallel.size().isl(isl, STAGE)? {
        let member =
            MultiUnionPwAff::from_union_pw_aff(parallel.get_union_pw_aff(k).isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
        for forward in [true, false] {
            let moving = if forward {
                same_outer
                    .copy()
                    .isl(isl, STAGE)?
                    .lex_lt_at_multi_union_pw_aff(member.copy().isl(isl, STAGE)?)
            } else {
                same_outer
                    .copy()
                    .isl(isl, STAGE)?
                    .lex_gt_at_multi_union_pw_aff(member.copy().isl(isl, STAGE)?)
            }
            .isl(isl, STAGE)?;
            if !moving.is_empty().isl(isl, STAGE)? {
                return Err(Diagnostic::internal(
                    STAGE,
                    format!(
                        "{} is marked parallel but carries the dependences {}",
                        what,
                        moving.text(isl, STAGE)?
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Checks that every member of `band` keeps every dependence between its
/// instances that run in the same iteration of the outer (`prefix`)
/// loops non-negative: the band may then be tiled, and its tiles run as
/// a wavefront.
pub fn check_permutable(
    isl: &Isl,
    deps: &UnionMap,
    domain: &UnionSet,
    prefix: &MultiUnionPwAff,
    band: &MultiUnionPwAff,
    what: &str,
) -> Result<()> {
    let all = deps
        .copy()
        .isl(isl, STAGE)?
        .intersect_domain(domain.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?
        .intersect_range(domain.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let same_outer = if prefix.size().isl(isl, STAGE)? > 0 {
        all.eq_at_multi_union_pw_aff(prefix.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
    } else {
        all
    };
    for k in 0..band.size().isl(isl, STAGE)? {
        let member = MultiUnionPwAff::from_union_pw_aff(band.get_union_pw_aff(k).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let forward = same_outer
            .copy()
            .isl(isl, STAGE)?
            .lex_le_at_multi_union_pw_aff(member)
            .isl(isl, STAGE)?;
        if !same_outer.is_subset(&forward).isl(isl, STAGE)? {
            let bad = same_outer.subtract(forward).isl(isl, STAGE)?;
            return Err(Diagnostic::internal(
                STAGE,
                format!(
                    "member {} of the {} goes backwards along the dependences {}, so it may not be tiled",
                    k,
                    what,
                    bad.text(isl, STAGE)?
                ),
            ));
        }
    }
    Ok(())
}

/// What `check_private_copies` says when a schedule interleaves two values
/// of one private copy; the driver then compiles the region again without
/// privatisation.
pub const PRIVATE_COPIES_INTERLEAVE: &str = "the schedule interleaves the values of a private copy";

/// Where the private copies of a version live.
pub enum CopyOwners<'a> {
    /// A device version: a copy per thread and launch. The time map has
    /// the block and thread ids as parameters; `launches` gives, per
    /// kernel, its instances → the host values of their launch.
    Device { launches: &'a [Option<UnionMap>] },
    /// A host version: one copy per OpenMP thread, private to each
    /// parallel loop (`parallel`: per loop, its instances → the values of
    /// the loops around it and of itself), one for the code outside them.
    Host { parallel: Vec<UnionMap> },
}

/// Checks that `time` (the final schedule of a version, instance → time
/// vector; block and thread ids, where present, as parameters, so that the
/// order holds for each thread apart) gives each live range of each
/// privatised variable one copy: all its instances run on one owner (one
/// thread of one launch, or one iteration of a parallel loop), and
/// together, without another live range of that copy in between (some
/// prefix of the time vector is the same for two of its instances exactly
/// when they belong to the same live range). One copy per thread then
/// suffices.
pub fn check_private_copies(
    isl: &Isl,
    scop: &crate::scop::Scop,
    deps: &DependenceGraph,
    time: UnionMap,
    owners: CopyOwners,
) -> Result<()> {
    if deps.privatised.is_empty() {
        return Ok(());
    }
    // Pairs of instances with one owner: what each must contain.
    let mut owner_maps: Vec<UnionMap> = Vec::new();
    match &owners {
        CopyOwners::Device { launches } => {
            // instance → [launch values] in a space per kernel.
            let mut launch: Option<UnionMap> = None;
            for (k, l) in launches.iter().enumerate() {
                let Some(l) = l else { continue };
                let list = l.get_map_list().isl(isl, STAGE)?;
                for i in 0..list.size().isl(isl, STAGE)? {
                    let id = isl.id(&format!("pencilc_launch_{}", k)).isl(isl, STAGE)?;
                    let m = list
                        .get_at(i)
                        .isl(isl, STAGE)?
                        .set_tuple_id(DimType::Out, id)
                        .isl(isl, STAGE)?;
                    let m = UnionMap::from_map(m).isl(isl, STAGE)?;
                    launch = Some(match launch {
                        None => m,
                        Some(u) => u.union(m).isl(isl, STAGE)?,
                    });
                }
            }
            if let Some(l) = launch {
                owner_maps.push(l);
            }
        }
        CopyOwners::Host { parallel } => {
            for p in parallel {
                owner_maps.push(p.copy().isl(isl, STAGE)?);
            }
        }
    }
    let same_thread = match &owners {
        CopyOwners::Device { .. } => Some(same_owner_by_params(isl, scop, &time)?),
        CopyOwners::Host { .. } => None,
    };
    let time = crate::isl::time::padded_map(isl, time)?;
    let timed = time.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
    let n = {
        let list = time.get_map_list().isl(isl, STAGE)?;
        if list.size().isl(isl, STAGE)? == 0 {
            return Ok(());
        }
        list.get_at(0)
            .isl(isl, STAGE)?
            .dim(DimType::Out)
            .isl(isl, STAGE)? as u32
    };
    for p in &deps.privatised {
        let lr_all = crate::deps::privatise::live_range_map(isl, scop, &p.stmts, p.depth)?;
        let pairs = |lr: &UnionMap| -> Result<UnionMap> {
            lr.copy()
                .isl(isl, STAGE)?
                .apply_range(lr.copy().isl(isl, STAGE)?.reverse().isl(isl, STAGE)?)
                .isl(isl, STAGE)
        };
        // One owner per live range: each live range's instances that an
        // owner map covers lie in one of its classes.
        let mut ok = true;
        for o in &owner_maps {
            let run = o.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
            let lr = lr_all
                .copy()
                .isl(isl, STAGE)?
                .intersect_domain(run)
                .isl(isl, STAGE)?;
            if !pairs(&lr)?.is_subset(&pairs(o)?).isl(isl, STAGE)? {
                ok = false;
            }
        }
        if let Some(same) = &same_thread {
            let lr = lr_all
                .copy()
                .isl(isl, STAGE)?
                .intersect_domain(timed.copy().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            // Without the thread ids: pairs of instances of any thread.
            let lr = project_out_extra_params(isl, scop, lr)?;
            if !pairs(&lr)?.is_subset(same).isl(isl, STAGE)? {
                ok = false;
            }
        }
        // One live range at a time on each owner.
        let lr = lr_all
            .intersect_domain(timed.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let same_lr = pairs(&lr)?;
        let mine = time
            .copy()
            .isl(isl, STAGE)?
            .intersect_domain(lr.domain().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let mut found = false;
        for d in 0..=n {
            isl.check_deadline(STAGE)?;
            let prefix = crate::isl::time::time_prefix(isl, &mine, d)?;
            let same = prefix
                .copy()
                .isl(isl, STAGE)?
                .apply_range(prefix.reverse().isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            // The shortest prefix that tells live ranges apart; a longer
            // one only splits them further.
            if same.is_subset(&same_lr).isl(isl, STAGE)? {
                found = same_lr.is_subset(&same).isl(isl, STAGE)?;
                break;
            }
        }
        if !(ok && found) {
            if std::env::var_os("PENCILC_DEBUG_PRIVATE").is_some() {
                eprintln!(
                    "private copy {} fails (one owner {}, one at a time {}) in {}",
                    p.name,
                    ok,
                    found,
                    time.text(isl, STAGE).unwrap_or_else(|_| "?".into())
                );
            }
            return Err(Diagnostic::internal(
                STAGE,
                format!("{} `{}`", PRIVATE_COPIES_INTERLEAVE, p.name),
            ));
        }
    }
    Ok(())
}

/// Pairs of instances that one thread runs: `time`'s domain for each
/// value of the parameters other than the region's (block and thread
/// ids), paired with itself, those parameters then dropped.
fn same_owner_by_params(isl: &Isl, scop: &crate::scop::Scop, time: &UnionMap) -> Result<UnionMap> {
    let dom = time.copy().isl(isl, STAGE)?.domain().isl(isl, STAGE)?;
    let pairs =
        UnionMap::from_domain_and_range(dom.copy().isl(isl, STAGE)?, dom).isl(isl, STAGE)?;
    project_out_extra_params(isl, scop, pairs)
}

/// `m` without the parameters that are not the region's.
fn project_out_extra_params(isl: &Isl, scop: &crate::scop::Scop, m: UnionMap) -> Result<UnionMap> {
    let mut m = m;
    loop {
        let space = m.get_space().isl(isl, STAGE)?;
        let n = space.dim(DimType::Param).isl(isl, STAGE)? as u32;
        let mut extra = None;
        for i in 0..n {
            let name = space
                .get_dim_name(DimType::Param, i)
                .isl(isl, STAGE)?
                .to_string();
            if !scop.params.contains(&name) {
                extra = Some(i);
                break;
            }
        }
        match extra {
            Some(i) => {
                m = m.project_out(DimType::Param, i, 1).isl(isl, STAGE)?;
            }
            None => return Ok(m),
        }
    }
}

/// Whether `prefix` (instance → values) tells apart the live ranges of
/// every privatised variable among the instances of `domain`: a band whose
/// first members do so can be tiled in them alone without interleaving
/// them (`check_private_copies`).
pub fn separates_live_ranges(
    isl: &Isl,
    scop: &crate::scop::Scop,
    deps: &DependenceGraph,
    domain: &UnionSet,
    prefix: &UnionMap,
) -> Result<bool> {
    for p in &deps.privatised {
        let lr = crate::deps::privatise::live_range_map(isl, scop, &p.stmts, p.depth)?
            .intersect_domain(domain.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        if lr.is_empty().isl(isl, STAGE)? {
            continue;
        }
        let same_lr = lr
            .copy()
            .isl(isl, STAGE)?
            .apply_range(lr.copy().isl(isl, STAGE)?.reverse().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let mine = prefix
            .copy()
            .isl(isl, STAGE)?
            .intersect_domain(lr.domain().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        let same = mine
            .copy()
            .isl(isl, STAGE)?
            .apply_range(mine.reverse().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        if !same.is_equal(&same_lr).isl(isl, STAGE)? {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {

    #[test]
    fn coefficients_are_read_from_band_schedules_only() {
        let tree = "{ domain: \"{ S_0[i, j] : 0 <= i <= 2000 and 0 <= j < 300 }\", child: { schedule: \"[n] -> [{ S_0[i, j] -> [(286288 + 480300i + 34200j)] }]\", child: { schedule: \"[{ S_0[i, j] -> [(2n + 3j - floor((i)/32))] }]\" } } }";
        assert_eq!(largest_coefficient(tree), Some(480300));
        assert!(check_coefficients(tree).is_err());
        let small = "{ domain: \"{ S_0[i] : 0 <= i <= 2000 }\", child: { schedule: \"[{ S_0[i] -> [(64 + 4i)]; S_1[i] -> [(i - (i) mod 32)] }]\" } }";
        assert_eq!(largest_coefficient(small), Some(4));
        assert!(check_coefficients(small).is_ok());
        // Names with digits are no coefficients (`S_1`, `c0`).
        assert_eq!(
            largest_coefficient("schedule: \"[{ S_12[c0] -> [(c0)] }]\""),
            None
        );
    }
    use super::*;
    use crate::isl::DEFAULT_MAX_OPERATIONS;

    fn deps(flow: &str) -> DependenceGraph {
        DependenceGraph {
            flow: flow.into(),
            anti: "{ }".into(),
            output: "{ }".into(),
            live_in: "{ }".into(),
            copy_in: Default::default(),
            copy_in_where: Default::default(),
            copy_out: Default::default(),
            privatised: vec![],
            reorder_condition: "{ }".into(),
            reorder_order: "{ }".into(),
        }
    }

    fn check(flow: &str, tree: &str) -> std::result::Result<(), String> {
        let isl = Isl::new(DEFAULT_MAX_OPERATIONS);
        check_schedule(&isl, &deps(flow), tree).map_err(|e| e.message)
    }

    // S writes A[t], T reads A[t] and writes B[t], S of t+1 reads B[t].
    const FLOW: &str = "{ S[t] -> T[t] : 0 <= t < 10; T[t] -> S[t + 1] : 0 <= t < 9 }";

    #[test]
    fn forward_schedules_are_accepted() {
        let tree = r#"{ domain: "{ S[t] : 0 <= t < 10; T[t] : 0 <= t < 10 }", child: { schedule: "[{ S[t] -> [(t)]; T[t] -> [(t)] }]", child: { sequence: [ { filter: "{ S[t] }" }, { filter: "{ T[t] }" } ] } } }"#;
        assert_eq!(check(FLOW, tree), Ok(()));
    }

    #[test]
    fn a_reversed_loop_is_rejected_naming_the_dependence() {
        let tree = r#"{ domain: "{ S[t] : 0 <= t < 10; T[t] : 0 <= t < 10 }", child: { schedule: "[{ S[t] -> [(-t)]; T[t] -> [(-t)] }]", child: { sequence: [ { filter: "{ S[t] }" }, { filter: "{ T[t] }" } ] } } }"#;
        let e = check(FLOW, tree).unwrap_err();
        assert!(e.contains("violates the dependences"), "{}", e);
        assert!(e.contains("T[t] -> S[1 + t]"), "{}", e);
    }

    #[test]
    fn statements_in_the_wrong_order_are_rejected() {
        let tree = r#"{ domain: "{ S[t] : 0 <= t < 10; T[t] : 0 <= t < 10 }", child: { schedule: "[{ S[t] -> [(t)]; T[t] -> [(t)] }]", child: { sequence: [ { filter: "{ T[t] }" }, { filter: "{ S[t] }" } ] } } }"#;
        let e = check(FLOW, tree).unwrap_err();
        assert!(e.contains("S[t] -> T[t]"), "{}", e);
    }
}
