//! One kernel's memory plan: its references grouped (`groups`), and for
//! each group the candidate tiles (registers, shared memory), what the
//! accesses do (reuse, coalescing, rows per thread), and the placement
//! those decide, with the reason `-v` prints.

use super::groups::{self, Ref};
use super::placement::{self, Reuse};
use super::{
    declared_sizes, elem_bytes, footprint, footprint_map, merge_groups, out_dims,
    passed_to_functions, prefix_with, register_tile_at, row_padding, runs_in, tile, union, Group,
    KernelMemory, KernelShape, Level, MemOptions, Placement, STAGE,
};
use crate::diag::Result;
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, UnionMap};

/// What every group of a kernel is measured against.
struct Frame<'a, 'k> {
    isl: &'a Isl,
    k: &'a KernelShape<'k>,
    opts: &'a MemOptions,
    /// Points of the band's loops (tile and point loops), and of its tile
    /// loops only: instance → prefix values.
    inner: UnionMap,
    outer: UnionMap,
    points: UnionMap,
    /// instance → [inner prefix values, point values].
    to_points: UnionMap,
    n: usize,
    n_thread: usize,
    n_outer_inner: usize,
}

/// A group's tiles where it could have one: registers (at which level),
/// a shared tile (sizes, strides), and a shared tile too large for the
/// block's work.
struct Candidates {
    private: Option<(Level, (Vec<i64>, Vec<i64>))>,
    shared: Option<(Vec<i64>, Vec<i64>)>,
    unbounded: Option<Vec<i64>>,
}

/// What a group's accesses do.
struct Traits {
    may_write: bool,
    reuse: Reuse,
    coalesced: bool,
    /// Each thread walks its own rows (cached lines serve it).
    cached_rows: bool,
    /// Consecutive x threads touch different rows (`placement::crosses_rows`).
    crosses_rows: bool,
    /// Some access stands for a range of elements in each instance (a
    /// subscript on the data, `A[i][k]` with `k` found by a search, or an
    /// inner loop of code with dynamic control): a tile holds all of each
    /// range, which the instance may read one element of.
    ranged: bool,
}

impl Traits {
    fn reuse_text(&self) -> String {
        if self.reuse.thread_factor > 1 {
            format!("reuse across threads {}x", self.reuse.thread_factor)
        } else if self.reuse.across_threads {
            "halo reuse across threads".to_string()
        } else if self.reuse.any {
            "reuse within a thread".to_string()
        } else {
            "no reuse".to_string()
        }
    }
}

fn dims(s: &[i64]) -> String {
    s.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// Plans the memory of one kernel.
pub fn plan_kernel(isl: &Isl, k: &KernelShape, opts: &MemOptions) -> Result<KernelMemory> {
    let thread_filter = k.thread_filter.text(isl, STAGE)?;
    let mut out = KernelMemory {
        groups: vec![],
        thread_filter,
    };
    // A kernel whose statements never run (`for (j = i + 1; j < i + 1; j++)`)
    // accesses nothing, and its empty maps have no space to measure.
    if k.instances.is_empty().isl(isl, STAGE)? {
        return Ok(out);
    }
    let f = frame(isl, k, opts)?;
    let refs = references(&f)?;
    if refs.is_empty() {
        return Ok(out);
    }
    let mut groups = groups::initial_groups(isl, &refs)?;
    merge_groups(isl, &refs, &mut groups)?;

    let mut shared_used = 0i64;
    let mut names_used: Vec<String> = Vec::new();
    for members in &groups {
        isl.check_deadline(STAGE)?;
        let alone = groups
            .iter()
            .filter(|g| refs[g[0]].array == refs[members[0]].array)
            .count()
            == 1;
        let mut g = plan_group(&f, &refs, members, alone, &mut shared_used)?;
        if g.placement != Placement::Global {
            g.name = tile_name(k, &g, &mut names_used);
        }
        out.groups.push(g);
    }
    keep_register_tiles_out_of_barriers(&mut out, opts);
    Ok(out)
}

fn frame<'a, 'k>(
    isl: &'a Isl,
    k: &'a KernelShape<'k>,
    opts: &'a MemOptions,
) -> Result<Frame<'a, 'k>> {
    let n = k.tile.dim(DimType::Set).isl(isl, STAGE)? as usize;
    let on_instances = |m: UnionMap| -> Result<UnionMap> {
        m.intersect_domain(k.instances.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)
    };
    let inner = on_instances(prefix_with(isl, k.host_prefix, k.tile, n)?)?;
    let outer = on_instances(prefix_with(isl, k.host_prefix, k.tile, k.n_block)?)?;
    let points =
        UnionMap::from_multi_union_pw_aff(k.point.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let n_outer_inner = out_dims(isl, &inner)?;
    let to_points = inner
        .copy()
        .isl(isl, STAGE)?
        .flat_range_product(points.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    Ok(Frame {
        isl,
        k,
        opts,
        inner,
        outer,
        points,
        to_points,
        n,
        n_thread: k.block_sizes.len(),
        n_outer_inner,
    })
}

/// The kernel's references: per statement and array that may have a tile
/// (not a scalar, a privatised array or one passed to functions).
fn references(f: &Frame) -> Result<Vec<Ref>> {
    let (isl, k) = (f.isl, f.k);
    // Arrays with a private copy in some statement of the kernel: those
    // statements reach the copy, and their last writers store into the
    // array itself, which no tile of it may then hold.
    let private: Vec<&str> = k
        .privatised
        .iter()
        .filter(|p| p.stmts.iter().any(|&s| runs_in(isl, k, s).unwrap_or(true)))
        .map(|p| p.array.as_str())
        .collect();
    // Arrays passed to functions (`f(n, A[i])`): the callee gets a pointer
    // into the array's buffer, which no tile of it may then stand for.
    let passed = passed_to_functions(k.scop);
    let on_instances = |text: &str| -> Result<UnionMap> {
        isl.union_map(text)
            .isl(isl, STAGE)?
            .intersect_domain(k.instances.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)
    };
    let mut refs: Vec<Ref> = Vec::new();
    for st in &k.scop.stmts {
        let mut arrays: Vec<&str> = st
            .reads
            .iter()
            .chain(st.writes.iter())
            .map(|a| a.array.as_str())
            .collect();
        arrays.sort();
        arrays.dedup();
        for a in arrays {
            let Some(arr) = k.scop.array(a) else { continue };
            if arr.is_scalar() || private.contains(&a) || passed.contains(a) {
                continue;
            }
            let rel = |list: &[crate::scop::Access]| -> Result<UnionMap> {
                // Text: the model's access relations are text (a `Scop` is a plain value).
                let mut m = UnionMap::read_from_str(
                    &isl.ctx,
                    &format!("{} -> {{ }}", k.scop.param_prefix()),
                )
                .isl(isl, STAGE)?;
                for acc in list.iter().filter(|x| x.array == a) {
                    let r = isl.union_map(&acc.relation).isl(isl, STAGE)?;
                    m = m.union(r).isl(isl, STAGE)?;
                }
                m.intersect_domain(k.instances.copy().isl(isl, STAGE)?)
                    .isl(isl, STAGE)
            };
            let reads = rel(&st.reads)?;
            let writes = rel(&st.writes)?;
            let may_write = st.writes.iter().any(|w| w.array == a && w.may);
            let all = union(isl, &reads, &writes)?;
            if all.is_empty().isl(isl, STAGE)? {
                continue;
            }
            let footprint = footprint(isl, &f.inner, &all)?;
            let accesses = st
                .reads
                .iter()
                .chain(st.writes.iter())
                .filter(|x| x.array == a)
                .map(|x| on_instances(&x.relation))
                .collect::<Result<Vec<_>>>()?;
            refs.push(Ref {
                array: a.to_string(),
                stmt: st.id.0,
                reads,
                writes,
                may_write,
                footprint,
                accesses,
            });
        }
    }
    Ok(refs)
}

/// The group of references `members` (of one array), placed.
fn plan_group(
    f: &Frame,
    refs: &[Ref],
    members: &[usize],
    alone: bool,
    shared_used: &mut i64,
) -> Result<Group> {
    let (isl, k) = (f.isl, f.k);
    let array = refs[members[0]].array.clone();
    let arr = k.scop.array(&array).expect("referenced arrays exist");
    let mut reads = refs[members[0]].reads.copy().isl(isl, STAGE)?;
    let mut writes = refs[members[0]].writes.copy().isl(isl, STAGE)?;
    for &m in &members[1..] {
        reads = reads
            .union(refs[m].reads.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        writes = writes
            .union(refs[m].writes.copy().isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
    }
    let acc = union(isl, &reads, &writes)?;
    let mut g = Group {
        array: array.clone(),
        stmts: members.iter().map(|&m| refs[m].stmt).collect(),
        read: !reads.is_empty().isl(isl, STAGE)?,
        written: !writes.is_empty().isl(isl, STAGE)?,
        placement: Placement::Global,
        level: Level::Inner,
        reason: String::new(),
        name: String::new(),
        elem_type: arr.elem_type.clone(),
        sizes: vec![],
        row_pad: 0,
        strides: vec![],
        reads: reads.text(isl, STAGE)?,
        writes: writes.text(isl, STAGE)?,
        // Whole rows hold any box of elements read in bounds.
        buffer_is_footprint: arr.layout.as_ref().is_some_and(|l| !l.whole_rows),
    };
    let c = candidates(f, &acc, alone)?;
    let elem = super::elem_bytes(&arr.elem_type);
    let t = traits(f, refs, members, &acc, &array, arr.extents.len(), elem)?;
    place(f.opts, &mut g, &c, &t, shared_used);
    Ok(g)
}

/// The tiles the group could have.
fn candidates(f: &Frame, acc: &UnionMap, alone: bool) -> Result<Candidates> {
    let (isl, k, opts) = (f.isl, f.k, f.opts);
    // Registers: each element used by one thread, and by one point of
    // the thread-mapped loops whatever the inner loops do (a bijection).
    let mut private = None;
    if opts.private && f.n_thread > 0 {
        let levels: &[Level] = if alone && k.n_block < f.n {
            &[Level::Outer, Level::Inner]
        } else {
            &[Level::Inner]
        };
        for &lv in levels {
            let prefix = if lv == Level::Outer {
                &f.outer
            } else {
                &f.inner
            };
            if let Some(t) = register_tile_at(isl, prefix, &f.points, f.n_thread, acc, k)? {
                private = Some((lv, t));
                break;
            }
        }
    }
    let mut unbounded = None;
    let shared = if opts.shared {
        match footprint_map(isl, &f.inner, acc)? {
            Some(fp) => match tile::shared_tile(isl, &fp)? {
                Some(b) if b.sizes.iter().any(|&s| s > k.tile_extent_bound()) => {
                    unbounded = Some(b.sizes);
                    None
                }
                b => b.map(|b| (b.sizes, b.strides)),
            },
            None => None,
        }
    } else {
        None
    };
    Ok(Candidates {
        private,
        shared,
        unbounded,
    })
}

/// Bytes of the unit in which a GPU's global loads are served.
const SECTOR_BYTES: i64 = 32;

/// Reuse, coalescing and rows per thread of the group's accesses.
fn traits(
    f: &Frame,
    refs: &[Ref],
    members: &[usize],
    acc: &UnionMap,
    array: &str,
    rank: usize,
    elem: i64,
) -> Result<Traits> {
    let isl = f.isl;
    let per_ref: Vec<UnionMap> = members
        .iter()
        .map(|&m| union(isl, &refs[m].reads, &refs[m].writes))
        .collect::<Result<_>>()?;
    let reuse = placement::measure_reuse(
        isl,
        acc,
        &per_ref,
        f.k.host_prefix,
        &f.to_points,
        f.n_outer_inner,
        f.k.block_sizes,
    )?;
    let per_access: Vec<UnionMap> = members
        .iter()
        .flat_map(|&m| refs[m].accesses.iter())
        .map(|a| a.copy().isl(isl, STAGE))
        .collect::<Result<_>>()?;
    // The point value mapped to x, the innermost thread dimension.
    let x_pos = (f.n_outer_inner + f.n_thread).saturating_sub(1);
    // Where global loads are cached, a warp whose threads read one row a
    // few elements apart (one 32-byte sector each, the sectors in one
    // run) reads what a tile's copy would, and the group's other
    // references or the next iterations use the rest of each sector
    // from the cache (seidel-2d's wavefront: `A[i][j - 1..j + 1]` with
    // `j` 4 apart; its tile at MINI, copied in every launch, took isl
    // 38 s to generate).
    let step = if f.opts.shared_for_halo {
        1
    } else {
        (SECTOR_BYTES / elem.max(1)).max(1)
    };
    let coalesced = f.n_thread == 0
        || placement::is_coalesced(isl, &per_access, &f.to_points, x_pos, rank, array, step)?;
    // Each thread walking its own rows and reusing their elements, none
    // shared between threads: on a device that caches global loads the
    // lines serve the thread's loop, and a shared tile would only add
    // copies and barriers per tile (adi: 2.3 s on an H100 with its sweeps'
    // rows staged through shared tiles; PPCG, in global memory, 0.66 s).
    // Rows read once, as a matrix-vector product's, keep their tile here;
    // on a device with a GPU model the driver drops it where the model
    // prices the kernel lower without (`driver::region::with_global_tiles`).
    let cached_rows = !coalesced
        && !f.opts.shared_for_halo
        && reuse.any
        && !reuse.across_threads
        && reuse.thread_factor <= 1
        && placement::threads_keep_to_rows(
            isl,
            &per_access,
            &f.to_points,
            f.n_outer_inner,
            f.n_thread,
            rank,
            array,
        )?;
    let crosses_rows = !coalesced
        && rank >= 2
        && placement::crosses_rows(isl, &per_access, &f.to_points, x_pos, rank, array)?;
    let mut ranged = false;
    for a in &per_access {
        ranged |= !a.is_single_valued().isl(isl, STAGE)?;
    }
    Ok(Traits {
        may_write: members.iter().any(|&m| refs[m].may_write),
        reuse,
        coalesced,
        cached_rows,
        crosses_rows,
        ranged,
    })
}

/// Decides the group's placement from its candidate tiles and traits, and
/// says why (`Group::reason`); shared tiles count against the budget.
fn place(opts: &MemOptions, g: &mut Group, c: &Candidates, t: &Traits, shared_used: &mut i64) {
    let reuse_text = t.reuse_text();
    match (&c.private, &c.shared) {
        (Some(_), _) | (_, Some(_)) if t.may_write => {
            g.reason = format!("global, may-written, {}", reuse_text);
        }
        // Written groups go to shared memory only where the device
        // allows write-back (not PoCL's: it miscompiles adi's sweeps).
        (None, Some(_)) | (Some(_), Some(_))
            if g.written && !opts.shared_write_back && !(c.private.is_some() && t.reuse.any) =>
        {
            g.reason = format!(
                "global, {}, written (no shared-memory write-back on this device: --shared-write-back)",
                reuse_text
            );
        }
        (Some((lv, (sizes, strides))), _) if t.reuse.any => {
            g.placement = Placement::Private;
            g.level = *lv;
            g.sizes = sizes.clone();
            g.strides = strides.clone();
            g.reason = format!(
                "registers, tile {} per thread, each element used by one thread, {}{}",
                dims(sizes),
                reuse_text,
                if *lv == Level::Outer {
                    ", kept across the sequential tile loops"
                } else {
                    ""
                }
            );
        }
        // Coalescing an access that may read one element of each range
        // by copying all of it (a search's `A[i][k]`: 64 elements copied
        // per thread for one read) costs more than the scattered loads.
        (_, Some(_)) if t.ranged && t.reuse.thread_factor <= 1 && !t.reuse.across_threads => {
            g.reason = format!(
                "global, {}, each access one element of a range its subscripts leave open (a tile would copy the whole range)",
                reuse_text
            );
        }
        // Where global loads are cached (a GPU's L1), a stencil's halo
        // (neighbouring threads reading neighbouring elements) costs
        // little from global memory; the tile pays only for reuse of
        // the same element by several threads, or to coalesce.
        (_, Some(_)) if t.cached_rows => {
            g.reason = format!(
                "global, {}, each thread on its own rows (cached lines serve its loop)",
                reuse_text
            );
        }
        (_, Some((sizes, strides)))
            if !t.coalesced
                || t.reuse.thread_factor > 1
                || (t.reuse.any && opts.shared_for_halo) =>
        {
            // Threads reading one column of the tile would queue on one
            // bank where rows are a multiple of the banks apart.
            let row_pad = if t.crosses_rows {
                row_padding(sizes, &g.elem_type, opts.banks)
            } else {
                0
            };
            let declared: Vec<i64> = declared_sizes(sizes, row_pad);
            let bytes = declared.iter().product::<i64>() * elem_bytes(&g.elem_type);
            if opts.max_shared_bytes >= 0 && *shared_used + bytes > opts.max_shared_bytes {
                g.reason = format!(
                    "global, {} tile {} ({} bytes) over the shared-memory budget ({} of {} bytes used)",
                    reuse_text,
                    dims(sizes),
                    bytes,
                    shared_used,
                    opts.max_shared_memory_text()
                );
            } else {
                *shared_used += bytes;
                g.placement = Placement::Shared;
                g.sizes = sizes.clone();
                g.row_pad = row_pad;
                g.strides = strides.clone();
                g.reason = format!(
                    "shared, tile {}{}{}, {}{}",
                    dims(sizes),
                    if row_pad > 0 {
                        format!(
                            " (declared {}: read by column, rows padded against bank conflicts)",
                            dims(&declared)
                        )
                    } else {
                        String::new()
                    },
                    if strides.iter().any(|&s| s > 1) {
                        format!(" (strides {})", dims(strides))
                    } else {
                        String::new()
                    },
                    reuse_text,
                    if t.coalesced {
                        ""
                    } else {
                        ", global access not coalesced"
                    }
                );
            }
        }
        (_, Some(_)) => {
            g.reason = format!(
                "global, {} and {}",
                if t.coalesced {
                    "coalesced"
                } else {
                    "not coalesced"
                },
                reuse_text
            );
        }
        (_, None) => {
            g.reason = if !opts.shared && !opts.global_kernels.is_empty() {
                // Off for this kernel alone (`MemOptions::global_kernels`).
                format!(
                    "global, no shared tiles in this kernel (the GPU model's choice), {}",
                    reuse_text
                )
            } else if !opts.shared {
                format!("global, shared memory off, {}", reuse_text)
            } else if let Some(sizes) = &c.unbounded {
                format!(
                    "global, tile {} not bounded by the block's work, {}",
                    dims(sizes),
                    reuse_text
                )
            } else {
                format!("global, no constant-size tile, {}", reuse_text)
            };
        }
    }
}

/// A tile's name: `shared_A` or `private_A`, numbered where taken. The
/// tile and its offsets (`<tile>_o<d>`, `ast::memory`) are no name of the
/// region or its file.
fn tile_name(k: &KernelShape, g: &Group, names_used: &mut Vec<String>) -> String {
    let base = match g.placement {
        Placement::Shared => format!("shared_{}", g.array),
        _ => format!("private_{}", g.array),
    };
    let mut name = base.clone();
    let mut i = 1;
    let taken = |n: &str| {
        k.scop.is_name_taken(n) || (0..8).any(|d| k.scop.is_name_taken(&format!("{}_o{}", n, d)))
    };
    while names_used.contains(&name) || taken(&name) {
        name = format!("{}_{}", base, i);
        i += 1;
    }
    names_used.push(name.clone());
    name
}

/// A kernel with shared-memory copies has barriers; where the device
/// cannot keep unrolled private arrays across them, only one-element
/// register tiles stay.
fn keep_register_tiles_out_of_barriers(out: &mut KernelMemory, opts: &MemOptions) {
    let barriers = out.groups.iter().any(|g| g.placement == Placement::Shared);
    if !barriers || opts.register_tiles_across_barriers {
        return;
    }
    for g in out.groups.iter_mut() {
        if g.placement == Placement::Private && g.sizes.iter().product::<i64>() > 1 {
            g.placement = Placement::Global;
            g.reason = format!(
                "global, register tile {} would live across barriers, which this device does not support",
                dims(&g.sizes)
            );
            g.name.clear();
        }
    }
}
