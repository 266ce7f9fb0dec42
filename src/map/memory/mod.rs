//! The GPU memory hierarchy (PPCG §7.2-7.3): which array reference groups
//! of a kernel live in registers, in shared (OpenCL: local) memory, or stay
//! in global memory, with the tile each one needs.
//!
//! The planner runs in the mapper, on the device tree, and decides; `ast`
//! later generates the copies at the two places the mapper marks (inside
//! the tile loops mapped to blocks, and inside every tile loop), from the
//! same footprints in the AST builder's own space. Everything here is an
//! over-approximation that is checked: a group for which a tile cannot be
//! proved to exist stays in global memory.
//!
//! Copies out write exactly the elements written, so a group with a
//! may-write (PENCIL's dynamic control and summary functions) stays in
//! global memory, as in PPCG: its tile would write back elements the
//! kernel did not write, with values it never read.

pub mod groups;
pub mod placement;
pub mod tile;

use crate::diag::Result;
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use groups::Ref;
use isl_rs::{DimType, Map, MultiUnionPwAff, UnionMap, UnionSet};

const STAGE: &str = "map-memory";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    Global,
    Shared,
    Private,
}

/// Where a group's copies go: `Outer` inside the tile loops mapped to
/// blocks (the tile stays put while the sequential tile loops run, as
/// gemm's C), `Inner` inside every tile loop (gemm's A and B move with k).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Outer,
    Inner,
}

/// Shared memory that a kernel with `reduction` updates leaves free for
/// the reductions' work-group trees and private copies (`back::reduce`).
pub const REDUCTION_LOCAL_BYTES: i64 = 8192;

/// The user's and the device's limits.
#[derive(Clone, Debug)]
pub struct MemOptions {
    pub shared: bool,
    pub private: bool,
    /// Bytes of shared memory per block; negative: unlimited.
    pub max_shared_bytes: i64,
    /// Largest register tile, in elements.
    pub max_private_elements: i64,
    /// Register tiles of several elements in kernels with barriers
    /// (`Device::register_tiles_across_barriers`).
    pub register_tiles_across_barriers: bool,
    /// Written groups may go to shared memory (`Device::shared_write_back`,
    /// or `--shared-write-back`).
    pub shared_write_back: bool,
    /// Groups whose only reuse is a halo or within one thread may go to
    /// shared memory (`Device::shared_for_halo`).
    pub shared_for_halo: bool,
}

impl Default for MemOptions {
    fn default() -> Self {
        MemOptions {
            shared: true,
            private: true,
            max_shared_bytes: 8192,
            max_private_elements: 16,
            register_tiles_across_barriers: true,
            shared_write_back: false,
            shared_for_halo: true,
        }
    }
}

/// One reference group and its placement.
#[derive(Clone, Debug)]
pub struct Group {
    pub array: String,
    pub stmts: Vec<usize>,
    pub read: bool,
    pub written: bool,
    pub placement: Placement,
    pub level: Level,
    /// Why, for `-v`.
    pub reason: String,
    /// The local array's name (`shared_A`, `private_C`).
    pub name: String,
    pub elem_type: String,
    /// Tile sizes per array dimension.
    pub sizes: Vec<i64>,
    /// Register tiles: distance between a thread's elements per dimension.
    pub strides: Vec<i64>,
    /// instance → element, isl text.
    pub reads: String,
    pub writes: String,
    /// The array's device buffer holds only the elements from the first
    /// the region touches to the last (`scop::Layout`: pointers,
    /// delinearised subscripts), so copies read exactly what is read.
    pub buffer_is_footprint: bool,
}

#[derive(Clone, Debug, Default)]
pub struct KernelMemory {
    pub groups: Vec<Group>,
    /// The thread filter (instances of thread `t`, thread ids as parameters).
    pub thread_filter: String,
}

impl KernelMemory {
    pub fn promoted(&self) -> impl Iterator<Item = &Group> {
        self.groups
            .iter()
            .filter(|g| g.placement != Placement::Global)
    }

    pub fn needs(&self, level: Level) -> bool {
        self.promoted().any(|g| g.level == level)
    }
}

/// What the mapper knows about one kernel.
pub struct KernelShape<'a> {
    pub scop: &'a Scop,
    /// Instances of the kernel, restricted to one block (block ids are
    /// parameters).
    pub instances: &'a UnionSet,
    /// instance → host schedule values.
    pub host_prefix: &'a UnionMap,
    /// The tile band (tile starts) and the point band, `n` members each.
    pub tile: &'a MultiUnionPwAff,
    pub point: &'a MultiUnionPwAff,
    pub n_block: usize,
    pub block_sizes: &'a [i64],
    /// Tile size per band member.
    pub tile_sizes: &'a [i64],
    pub thread_filter: &'a UnionSet,
    /// The region's privatised variables (`deps::privatise`).
    pub privatised: &'a [crate::deps::Privatised],
}

/// Whether statement `s` has instances in the kernel.
fn runs_in(isl: &Isl, k: &KernelShape, s: usize) -> Result<bool> {
    let st = &k.scop.stmts[s];
    let all = isl
        .union_set(&format!(
            "{{ {}[{}] }}",
            st.name,
            (0..st.iterators.len())
                .map(|j| format!("x{}", j))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .isl(isl, STAGE)?;
    Ok(!k
        .instances
        .copy()
        .isl(isl, STAGE)?
        .intersect(all)
        .isl(isl, STAGE)?
        .is_empty()
        .isl(isl, STAGE)?)
}

impl KernelShape<'_> {
    /// The largest extent, per array dimension, of a shared tile that a
    /// block's work bounds: a band tile along the dimension (twice, for
    /// subscripts such as `2 * i` or `i + j`) and a stencil's halo. A tile
    /// beyond it spans what the problem's size bounds, not the block's
    /// work (lu's pivot `A[k][k]` with the column below it: a tile of
    /// 2000x1 per block, every block copying the whole column).
    fn tile_extent_bound(&self) -> i64 {
        2 * self.tile_sizes.iter().copied().max().unwrap_or(1) + 16
    }
}

fn elem_bytes(t: &str) -> i64 {
    match t.trim() {
        "char" | "signed char" | "unsigned char" => 1,
        "short" | "unsigned short" => 2,
        "float" | "int" | "unsigned" | "unsigned int" => 4,
        _ => 8,
    }
}

/// instance → [host values, first `k` members of `band`].
fn prefix_with(isl: &Isl, host: &UnionMap, band: &MultiUnionPwAff, k: usize) -> Result<UnionMap> {
    let n = band.dim(DimType::Set).isl(isl, STAGE)? as usize;
    let part = band
        .copy()
        .isl(isl, STAGE)?
        .drop_dims(DimType::Set, k as u32, (n - k) as u32)
        .isl(isl, STAGE)?;
    if k == 0 {
        return host.copy().isl(isl, STAGE);
    }
    let m = UnionMap::from_multi_union_pw_aff(part).isl(isl, STAGE)?;
    host.copy()
        .isl(isl, STAGE)?
        .flat_range_product(m)
        .isl(isl, STAGE)
}

/// The elements `acc` touches per value of `prefix` (prefix → element).
pub fn footprint(isl: &Isl, prefix: &UnionMap, acc: &UnionMap) -> Result<UnionMap> {
    prefix
        .copy()
        .isl(isl, STAGE)?
        .reverse()
        .isl(isl, STAGE)?
        .apply_range(acc.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)
}

/// `footprint` as one map, or `None` where nothing is accessed (a union
/// map without elements has no space to make a map of).
fn footprint_map(isl: &Isl, prefix: &UnionMap, acc: &UnionMap) -> Result<Option<Map>> {
    let f = footprint(isl, prefix, acc)?;
    if f.is_empty().isl(isl, STAGE)? {
        return Ok(None);
    }
    Map::from_union_map(f).isl(isl, STAGE).map(Some)
}

fn union(isl: &Isl, a: &UnionMap, b: &UnionMap) -> Result<UnionMap> {
    a.copy()
        .isl(isl, STAGE)?
        .union(b.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)
}

/// Plans the memory of one kernel.
pub fn plan_kernel(isl: &Isl, k: &KernelShape, opts: &MemOptions) -> Result<KernelMemory> {
    let thread_filter = k.thread_filter.to_str().isl(isl, STAGE)?.to_string();
    let mut out = KernelMemory {
        groups: vec![],
        thread_filter,
    };
    // A kernel whose statements never run (`for (j = i + 1; j < i + 1; j++)`)
    // accesses nothing, and its empty maps have no space to measure.
    if k.instances.is_empty().isl(isl, STAGE)? {
        return Ok(out);
    }
    let n = k.tile.dim(DimType::Set).isl(isl, STAGE)? as usize;
    let n_thread = k.block_sizes.len();
    let inner = prefix_with(isl, k.host_prefix, k.tile, n)?;
    let outer = prefix_with(isl, k.host_prefix, k.tile, k.n_block)?;
    let inner = inner
        .intersect_domain(k.instances.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let outer = outer
        .intersect_domain(k.instances.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let points =
        UnionMap::from_multi_union_pw_aff(k.point.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let n_outer_inner = out_dims(isl, &inner)?;
    // instance → [inner outer values, point values].
    let to_points = inner
        .copy()
        .isl(isl, STAGE)?
        .flat_range_product(points.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;

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
    // References: per statement and (non-scalar) array.
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
            let footprint = footprint(isl, &inner, &all)?;
            let accesses = st
                .reads
                .iter()
                .chain(st.writes.iter())
                .filter(|x| x.array == a)
                .map(|x| {
                    isl.union_map(&x.relation)
                        .isl(isl, STAGE)?
                        .intersect_domain(k.instances.copy().isl(isl, STAGE)?)
                        .isl(isl, STAGE)
                })
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
    if refs.is_empty() {
        return Ok(out);
    }
    let mut groups = groups::initial_groups(isl, &refs)?;
    merge_groups(isl, &refs, &mut groups)?;

    let mut shared_used = 0i64;
    let mut names_used: Vec<String> = Vec::new();
    for members in &groups {
        isl.check_deadline(STAGE)?;
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
        let per_ref: Vec<UnionMap> = members
            .iter()
            .map(|&m| union(isl, &refs[m].reads, &refs[m].writes))
            .collect::<Result<_>>()?;
        let may_write = members.iter().any(|&m| refs[m].may_write);
        let alone = groups.iter().filter(|g| refs[g[0]].array == array).count() == 1;
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
            strides: vec![],
            reads: reads.to_str().isl(isl, STAGE)?.to_string(),
            writes: writes.to_str().isl(isl, STAGE)?.to_string(),
            // Whole rows hold any box of elements read in bounds.
            buffer_is_footprint: arr.layout.as_ref().is_some_and(|l| !l.whole_rows),
        };
        let reuse = placement::measure_reuse(
            isl,
            &acc,
            &per_ref,
            &to_points,
            n_outer_inner,
            k.block_sizes,
        )?;
        // Registers: each element used by one thread, and by one point of
        // the thread-mapped loops whatever the inner loops do (a bijection).
        let mut private = None;
        if opts.private && n_thread > 0 {
            let levels: &[Level] = if alone && k.n_block < n {
                &[Level::Outer, Level::Inner]
            } else {
                &[Level::Inner]
            };
            for &lv in levels {
                let prefix = if lv == Level::Outer { &outer } else { &inner };
                if let Some(t) = register_tile_at(isl, prefix, &points, n_thread, &acc, k)? {
                    private = Some((lv, t));
                    break;
                }
            }
        }
        let mut unbounded = None;
        let shared = if opts.shared {
            match footprint_map(isl, &inner, &acc)? {
                Some(f) => match tile::shared_tile(isl, &f)? {
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
        let per_access: Vec<UnionMap> = members
            .iter()
            .flat_map(|&m| refs[m].accesses.iter())
            .map(|a| a.copy().isl(isl, STAGE))
            .collect::<Result<_>>()?;
        let coalesced = n_thread == 0
            || placement::is_coalesced(
                isl,
                &per_access,
                &to_points,
                n_outer_inner + n_thread - 1,
                arr.extents.len(),
                &array,
            )?;
        let reuse_text = if reuse.thread_factor > 1 {
            format!("reuse across threads {}x", reuse.thread_factor)
        } else if reuse.across_threads {
            "halo reuse across threads".to_string()
        } else if reuse.any {
            "reuse within a thread".to_string()
        } else {
            "no reuse".to_string()
        };
        let dims = |s: &[i64]| {
            s.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("x")
        };
        // Each thread walking its own rows and reusing their elements, none
        // shared between threads: on a device that caches global loads the
        // lines serve the thread's loop, and a shared tile would only add
        // copies and barriers per tile. (Rows read once, as a matrix-vector
        // product's, keep their tile: measured no worse than PPCG's.) (adi: 2.3 s on an H100 with its sweeps' rows
        // staged through shared tiles; PPCG, in global memory, 0.66 s).
        let cached_rows = !coalesced
            && !opts.shared_for_halo
            && reuse.any
            && !reuse.across_threads
            && reuse.thread_factor <= 1
            && placement::threads_keep_to_rows(
                isl,
                &per_access,
                &to_points,
                n_outer_inner,
                n_thread,
                arr.extents.len(),
                &array,
            )?;
        match (&private, &shared) {
            (Some(_), _) | (_, Some(_)) if may_write => {
                g.reason = format!("global, may-written, {}", reuse_text);
            }
            // Written groups go to shared memory only where the device
            // allows write-back (not PoCL's: it miscompiles adi's sweeps).
            (None, Some(_)) | (Some(_), Some(_))
                if g.written && !opts.shared_write_back && !(private.is_some() && reuse.any) =>
            {
                g.reason = format!(
                    "global, {}, written (no shared-memory write-back on this device: --shared-write-back)",
                    reuse_text
                );
            }
            (Some((lv, (sizes, strides))), _) if reuse.any => {
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
            // Where global loads are cached (a GPU's L1), a stencil's halo
            // (neighbouring threads reading neighbouring elements) costs
            // little from global memory; the tile pays only for reuse of
            // the same element by several threads, or to coalesce.
            (_, Some(_)) if cached_rows => {
                g.reason = format!(
                    "global, {}, each thread on its own rows (cached lines serve its loop)",
                    reuse_text
                );
            }
            (_, Some((sizes, strides)))
                if !coalesced || reuse.thread_factor > 1 || (reuse.any && opts.shared_for_halo) =>
            {
                let bytes = sizes.iter().product::<i64>() * elem_bytes(&arr.elem_type);
                if opts.max_shared_bytes >= 0 && shared_used + bytes > opts.max_shared_bytes {
                    g.reason = format!(
                        "global, {} tile {} ({} bytes) over the shared-memory budget ({} of {} bytes used)",
                        reuse_text,
                        dims(sizes),
                        bytes,
                        shared_used,
                        opts.max_shared_memory_text()
                    );
                } else {
                    shared_used += bytes;
                    g.placement = Placement::Shared;
                    g.sizes = sizes.clone();
                    g.strides = strides.clone();
                    g.reason = format!(
                        "shared, tile {}{}, {}{}",
                        dims(sizes),
                        if strides.iter().any(|&s| s > 1) {
                            format!(" (strides {})", dims(strides))
                        } else {
                            String::new()
                        },
                        reuse_text,
                        if coalesced {
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
                    if coalesced {
                        "coalesced"
                    } else {
                        "not coalesced"
                    },
                    reuse_text
                );
            }
            (_, None) => {
                g.reason = if !opts.shared {
                    format!("global, shared memory off, {}", reuse_text)
                } else if let Some(sizes) = &unbounded {
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
        if g.placement != Placement::Global {
            let base = match g.placement {
                Placement::Shared => format!("shared_{}", array),
                _ => format!("private_{}", array),
            };
            let mut name = base.clone();
            let mut i = 1;
            // The tile and its offsets (`<tile>_o<d>`, `ast::memory`) are
            // no name of the region or its file.
            let taken = |n: &str| {
                k.scop.is_name_taken(n)
                    || (0..8).any(|d| k.scop.is_name_taken(&format!("{}_o{}", n, d)))
            };
            while names_used.contains(&name) || taken(&name) {
                name = format!("{}_{}", base, i);
                i += 1;
            }
            names_used.push(name.clone());
            g.name = name;
        }
        out.groups.push(g);
    }
    // A kernel with shared-memory copies has barriers; where the device
    // cannot keep unrolled private arrays across them, only one-element
    // register tiles stay.
    let barriers = out.groups.iter().any(|g| g.placement == Placement::Shared);
    if barriers && !opts.register_tiles_across_barriers {
        for g in out.groups.iter_mut() {
            if g.placement == Placement::Private && g.sizes.iter().product::<i64>() > 1 {
                g.placement = Placement::Global;
                g.reason = format!(
                    "global, register tile {} would live across barriers, which this device does not support",
                    g.sizes
                        .iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join("x")
                );
                g.name.clear();
            }
        }
    }
    Ok(out)
}

impl MemOptions {
    fn max_shared_memory_text(&self) -> String {
        if self.max_shared_bytes < 0 {
            "unlimited".into()
        } else {
            self.max_shared_bytes.to_string()
        }
    }
}

fn out_dims(isl: &Isl, m: &UnionMap) -> Result<usize> {
    let r = m.copy().isl(isl, STAGE)?.range().isl(isl, STAGE)?;
    let s = isl_rs::Set::from_union_set(r).isl(isl, STAGE)?;
    Ok(s.dim(DimType::Set).isl(isl, STAGE)? as usize)
}

/// The register tile of a group whose copies sit below `prefix`, if the
/// thread-mapped point loops reach each element exactly once.
#[allow(clippy::type_complexity)]
fn register_tile_at(
    isl: &Isl,
    prefix: &UnionMap,
    points: &UnionMap,
    n_thread: usize,
    acc: &UnionMap,
    k: &KernelShape,
) -> Result<Option<(Vec<i64>, Vec<i64>)>> {
    let n_pre = out_dims(isl, prefix)?;
    let n_pts = out_dims(isl, points)?;
    let mupa = MultiUnionPwAff::from_union_map(points.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
    let thr = mupa
        .drop_dims(DimType::Set, n_thread as u32, (n_pts - n_thread) as u32)
        .isl(isl, STAGE)?;
    let thr = UnionMap::from_multi_union_pw_aff(thr).isl(isl, STAGE)?;
    let to = prefix
        .copy()
        .isl(isl, STAGE)?
        .flat_range_product(thr)
        .isl(isl, STAGE)?;
    let e = placement::points_to_elements(isl, &to, acc)?;
    if !e.is_single_valued().isl(isl, STAGE)? {
        return Ok(None);
    }
    // Injective for each fixed outer value: [O, P] → [element, O].
    let xs: Vec<String> = (0..n_pre + n_thread).map(|i| format!("x{}", i)).collect();
    // Text: a projection written from dimension names made here.
    let proj = Map::read_from_str(
        &isl.ctx,
        &format!("{{ [{}] -> [{}] }}", xs.join(", "), xs[..n_pre].join(", ")),
    )
    .isl(isl, STAGE)?;
    let e2 = e.range_product(proj).isl(isl, STAGE)?;
    if !e2.is_injective().isl(isl, STAGE)? {
        return Ok(None);
    }
    let mine = acc
        .copy()
        .isl(isl, STAGE)?
        .intersect_domain(k.thread_filter.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let Some(f) = footprint_map(isl, prefix, &mine)? else {
        return Ok(None);
    };
    match tile::register_tile(isl, &f)? {
        Some(t) => Ok(Some((t.sizes, t.strides))),
        None => Ok(None),
    }
}

/// Algorithm 1's second loop: two groups of one array merge when the tile
/// of the pair is smaller than the two tiles apart, until nothing changes.
fn merge_groups(isl: &Isl, refs: &[Ref], groups: &mut Vec<Vec<usize>>) -> Result<()> {
    let size = |m: &UnionMap| -> Result<Option<i64>> {
        if m.is_empty().isl(isl, STAGE)? {
            return Ok(None);
        }
        let f = Map::from_union_map(m.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;
        Ok(tile::shared_box(isl, &f)?.map(|b| b.sizes.iter().product()))
    };
    loop {
        let mut merged = false;
        'outer: for i in 0..groups.len() {
            for j in i + 1..groups.len() {
                if refs[groups[i][0]].array != refs[groups[j][0]].array {
                    continue;
                }
                let fi = groups::group_footprint(isl, refs, &groups[i])?;
                let fj = groups::group_footprint(isl, refs, &groups[j])?;
                let both = union(isl, &fi, &fj)?;
                if let (Some(a), Some(b), Some(c)) = (size(&fi)?, size(&fj)?, size(&both)?) {
                    if c < a + b {
                        let gj = groups.remove(j);
                        groups[i].extend(gj);
                        merged = true;
                        break 'outer;
                    }
                }
            }
        }
        if !merged {
            return Ok(());
        }
    }
}

/// The arrays that the region's statements pass to functions, whole, as
/// rows or by an element's address (call statements, and calls in
/// expressions of functions without a body).
fn passed_to_functions(scop: &crate::scop::Scop) -> std::collections::BTreeSet<String> {
    use crate::front::syntax::{Expr, ExprKind, Stmt, UnOp};
    fn memory_args(e: &Expr, scop: &crate::scop::Scop, out: &mut Vec<String>) {
        if let ExprKind::Call(_, args) = &e.kind {
            for a in args {
                let mut x = a;
                let mut subs = 0;
                while let ExprKind::Unary(UnOp::AddrOf, y) | ExprKind::Index(y, _) = &x.kind {
                    subs += usize::from(matches!(x.kind, ExprKind::Index(..)));
                    x = y;
                }
                if let ExprKind::Ident(n) = &x.kind {
                    let address = matches!(a.kind, ExprKind::Unary(UnOp::AddrOf, _));
                    if scop
                        .array(n)
                        .is_some_and(|arr| address || subs < arr.extents.len())
                    {
                        out.push(n.clone());
                    }
                }
            }
        }
        for c in e.children() {
            memory_args(c, scop, out);
        }
    }
    fn in_stmts(body: &[Stmt], scop: &crate::scop::Scop, out: &mut Vec<String>) {
        for s in body {
            match s {
                Stmt::Call { name, args, loc } => {
                    let call = Expr {
                        kind: ExprKind::Call(name.clone(), args.clone()),
                        loc: loc.clone(),
                    };
                    memory_args(&call, scop, out);
                }
                Stmt::For { body, .. } | Stmt::While { body, .. } => in_stmts(body, scop, out),
                Stmt::If { then_, else_, .. } => {
                    in_stmts(then_, scop, out);
                    in_stmts(else_, scop, out);
                }
                _ => {}
            }
            // Calls in the statement's own expressions (those of the
            // statements inside it too).
            let mut s = s.clone();
            s.exprs_mut(&mut |e| memory_args(e, scop, out));
        }
    }
    let mut names = Vec::new();
    for st in &scop.stmts {
        match &st.body {
            crate::scop::StmtBody::Call { name, args } => {
                let call = Expr {
                    kind: ExprKind::Call(name.clone(), args.clone()),
                    loc: st.loc.clone(),
                };
                memory_args(&call, scop, &mut names);
            }
            crate::scop::StmtBody::Compound(b) => in_stmts(b, scop, &mut names),
            crate::scop::StmtBody::Assign { lhs, rhs, .. } => {
                memory_args(lhs, scop, &mut names);
                memory_args(rhs, scop, &mut names);
            }
        }
    }
    names.into_iter().collect()
}
