//! GPU mapping, PPCG's default strategy: in the schedule tree, the
//! outermost band with leading parallel (coincident) members becomes a
//! kernel; everything above it runs on the host. The band is tiled; up to
//! two parallel tile loops are wrapped onto blocks and up to three parallel
//! point loops onto threads (the innermost on x). A subtree with no
//! parallelism at all becomes one single-thread kernel rather than host
//! loops launching tiny kernels.
//!
//! The result is the schedule tree with, per kernel, a `kernel_<k>` mark,
//! a context node introducing the block ids and a filter selecting each
//! block's tiles, and below the tile band the same for threads. isl's AST
//! generator then produces host loops around the marks and the kernel code
//! inside them in one pass.

pub mod cpu;
mod kernel;
pub mod memory;
mod origin;
mod relax;
pub mod sizes;

use crate::deps::DependenceGraph;
use crate::diag::{Diagnostic, Result};
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use crate::sched::Schedule;
use crate::scop::Scop;
use crate::valid;
use isl_rs::{
    ASTLoopType, DimType, Id, MultiUnionPwAff, MultiVal, Schedule as IslSchedule, ScheduleNode,
    ScheduleNodeType, Set, UnionMap, UnionSet, Val,
};

const STAGE: &str = "map";

/// Mark names (followed by the kernel's index in its region) where `ast`
/// puts the copies of groups at `Level::Inner` and `Level::Outer`.
pub const MEM_INNER_MARK: &str = "pencilc_mem_inner_";
pub const MEM_OUTER_MARK: &str = "pencilc_mem_outer_";

/// The user's mapping choices (PPCG's vocabulary).
#[derive(Clone, Debug)]
pub struct MapOptions {
    pub tile_size: i64,
    /// Threads per block for 1, 2 and 3 thread dimensions, outermost first.
    pub block_1d: Vec<i64>,
    pub block_2d: Vec<i64>,
    pub block_3d: Vec<i64>,
    /// Largest number of blocks the launch API allows along the outer
    /// (y) and the inner (x) grid dimension: CUDA's grid y is 65535
    /// blocks; OpenCL sizes are `size_t`. A kernel whose tile indices
    /// provably stay below it runs tile `b` on block `b`.
    pub grid_limit: [i64; 2],
    /// Otherwise (more tiles possible, or negative tile indices) tiles
    /// wrap around a grid of this many blocks (PPCG's default), each
    /// block running every tile congruent to its id. Small, so that the
    /// kernel's loop over tiles (`c0 += 32768`, and the products of the
    /// tile size with it) stays far from `int`'s limits.
    pub wrap_grid: i64,
    /// `--sizes`, per kernel (numbered in the file).
    pub sizes: Option<String>,
    /// Shared and private memory choices and limits.
    pub mem: memory::MemOptions,
    /// Whether sequential host loops of small launches run as one block
    /// (`ast::one_block`), and that block's threads.
    pub one_block_loops: OneBlockLoops,
    pub one_block_threads: i64,
    /// The device's largest block (`Device::max_threads_per_block`): a
    /// block of `--sizes` beyond it is an error, not a launch that fails
    /// when the program runs.
    pub max_block_threads: i64,
    /// Whether a loop run as one block keeps its launches beside it, for
    /// a device that may refuse the block when the program runs (OpenCL:
    /// a device or a kernel may allow fewer work-items in a group).
    pub one_block_fallback: bool,
}

/// `--one-block-loops`: host loops of small launches as one kernel of one block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OneBlockLoops {
    #[default]
    Never,
    /// Where the launches are small when the program runs.
    Auto,
    /// Whatever their size (tests, measurements).
    Always,
}

impl MapOptions {
    /// Defaults for a device: block shapes from its SIMD width and thread
    /// limit, the shared-memory budget from its shared memory per block.
    pub fn for_device(d: &crate::device::Device) -> MapOptions {
        let [b1, b2, b3] = d.default_blocks();
        MapOptions {
            block_1d: b1,
            block_2d: b2,
            block_3d: b3,
            one_block_threads: d.max_threads_per_block.clamp(1, 1024),
            max_block_threads: d.max_threads_per_block.max(1),
            mem: memory::MemOptions {
                max_shared_bytes: d.shared_memory_per_block,
                // A double takes two 32-bit registers; leave room for the
                // rest of the kernel.
                max_private_elements: (d.registers_per_thread / 4).clamp(1, 64),
                register_tiles_across_barriers: d.register_tiles_across_barriers,
                shared_write_back: d.shared_write_back,
                shared_for_halo: d.shared_for_halo,
                banks: d.shared_memory_banks,
                ..memory::MemOptions::default()
            },
            ..MapOptions::default()
        }
    }
}

impl Default for MapOptions {
    fn default() -> Self {
        MapOptions {
            tile_size: 32,
            block_1d: vec![32],
            block_2d: vec![16, 32],
            block_3d: vec![4, 4, 32],
            grid_limit: [i32::MAX as i64, i32::MAX as i64],
            wrap_grid: 32768,
            sizes: None,
            mem: memory::MemOptions::default(),
            one_block_loops: OneBlockLoops::Never,
            one_block_threads: 1024,
            one_block_fallback: false,
            max_block_threads: 1024,
        }
    }
}

/// How one kernel is launched and what its block and thread ids mean.
#[derive(Clone, Debug)]
pub struct KernelPlan {
    pub id: usize,
    /// Block dimensions (0 for a single-block kernel), outermost first.
    pub n_block: usize,
    /// Thread dimensions, outermost first; the last one is x.
    pub block_sizes: Vec<i64>,
    /// The wrap-around size of each block dimension.
    pub grid_cap: Vec<i64>,
    /// A wavefront kernel (the tile band of a `pencilc_wavefront`): one
    /// tile per block, run by one thread.
    pub wavefront: bool,
    /// Per block dimension: whether tiles wrap around `grid_cap` (some
    /// tile index may reach it, or be negative); otherwise block `b` runs
    /// exactly tile `b`, and the kernel needs no loop over tiles.
    pub wraps: Vec<bool>,
    /// Per block dimension: statement instance → tile index, as isl text,
    /// from which the launch computes how many blocks it needs.
    pub tile_index: Vec<String>,
    /// Per block dimension that does not wrap: the largest tile index of
    /// any launch, a function of the parameters (isl text); the grid of a
    /// launch whose own bound the AST cannot express.
    pub tile_max: Vec<Option<String>>,
    /// Members of the kernel band and how many of them are parallel.
    pub band_members: usize,
    pub parallel_members: usize,
    /// The kernel's number in the file (`--sizes`, `--dump-sizes`).
    pub number: usize,
    /// Tile size per band member (empty: not tiled).
    pub tile_sizes: Vec<i64>,
    /// Reference groups and where they live.
    pub memory: memory::KernelMemory,
}

/// The two isl trees of a mapping, in the isl context that made them (they
/// are not re-read from text: isl would make the ids global parameters).
pub struct MappedTrees {
    /// The host tree: tiled, with `kernel_<k>` marks and no block or
    /// thread ids, each kernel's instances grouped below its mark into one
    /// instance per launch, so host code generation never descends into a
    /// kernel (its loops would be built only to be thrown away).
    pub host: IslSchedule,
    /// Per kernel, its instances → the host schedule at its mark (the
    /// launch it belongs to), as they were before grouping.
    pub launch_prefix: Vec<Option<UnionMap>>,
    /// The host tree plus the contexts and filters of block and thread ids.
    pub device: IslSchedule,
}

/// The schedule tree with kernels marked and mapped.
#[derive(Clone, Debug)]
pub struct MappedSchedule {
    pub tree: String,
    pub kernels: Vec<KernelPlan>,
    /// Names of the block ids (outermost first) and thread ids.
    pub block_ids: Vec<String>,
    pub thread_ids: Vec<String>,
}

pub fn map_to_gpu(
    isl: &Isl,
    scop: &Scop,
    deps: &DependenceGraph,
    sched: &Schedule,
    opts: &MapOptions,
    first_kernel: usize,
) -> Result<(MappedSchedule, MappedTrees)> {
    isl.reset_budget();
    let block_ids = fresh_names(scop, "b", 2);
    let thread_ids = fresh_names(scop, "t", 3);
    // Block and thread ids stay out of the tree's global parameters: the
    // context nodes introduce them, so isl keeps guards on them inside kernels.
    let original = scop.schedule_text();
    // The same mapping twice: the host tree (tiles and kernel marks) gives
    // host code and launch sizes; the device tree adds the block and thread
    // ids, and gives each launch's kernel code.
    let mut trees = Vec::new();
    let mut kernels = Vec::new();
    let all_deps = deps.all(isl)?;
    let s = isl.schedule(&sched.tree).isl(isl, STAGE)?;
    if s.get_domain().isl(isl, STAGE)?.is_empty().isl(isl, STAGE)? {
        // No statement ever runs: no kernels, and the host code is empty.
        let device = isl.schedule(&sched.tree).isl(isl, STAGE)?;
        return Ok((
            MappedSchedule {
                tree: sched.tree.clone(),
                kernels,
                block_ids,
                thread_ids,
            },
            MappedTrees {
                host: s,
                device,
                launch_prefix: vec![],
            },
        ));
    }
    for with_ids in [false, true] {
        let s = isl.schedule(&sched.tree).isl(isl, STAGE)?;
        let mut m = Mapper {
            isl,
            scop,
            first_kernel,
            original: &original,
            deps: &all_deps,
            opts,
            block_ids: &block_ids,
            thread_ids: &thread_ids,
            with_ids,
            kernels: vec![],
            unit_tiles: false,
            privatised: &deps.privatised,
        };
        let root = s.get_root().isl(isl, STAGE)?;
        let root = m.visit(root)?;
        trees.push(root.get_schedule().isl(isl, STAGE)?);
        kernels = m.kernels;
    }
    let device = trees.pop().expect("two trees");
    let host = trees.pop().expect("two trees");
    let text = device.text(isl, STAGE)?;
    // Legality: the scheduler's tree was checked against every dependence
    // (`valid::check_schedule`), and each step here keeps it legal, which
    // `visit` checks where it is not true by construction: the members
    // mapped to blocks and threads are parallel, and a band is tiled only
    // if each member keeps every dependence non-negative. The other
    // steps cannot reorder dependent instances: splitting a band, shifting
    // its members by a function of the outer loops (`origin`), marks, and
    // the original order for a sequential kernel's own instances.
    let mut launch_prefix: Vec<Option<UnionMap>> = (0..kernels.len()).map(|_| None).collect();
    let root = host.get_root().isl(isl, STAGE)?;
    let host = group_kernels(isl, root, &mut launch_prefix)?
        .get_schedule()
        .isl(isl, STAGE)?;
    let host = relax::relax_launch_domains(isl, host)?;
    Ok((
        MappedSchedule {
            tree: text,
            kernels,
            block_ids,
            thread_ids,
        },
        MappedTrees {
            host,
            device,
            launch_prefix,
        },
    ))
}

/// Below every `kernel_<k>` mark, replaces the kernel's subtree by one
/// statement instance per launch (isl's grouping, then a cut), recording
/// the instances → host schedule map in `prefix[k]`. Returns `node` (same
/// position) in the new tree.
fn group_kernels(
    isl: &Isl,
    node: ScheduleNode,
    prefix: &mut [Option<UnionMap>],
) -> Result<ScheduleNode> {
    let mut node = node;
    if node.get_type().isl(isl, STAGE)? == ScheduleNodeType::Mark {
        let name = node
            .mark_get_id()
            .isl(isl, STAGE)?
            .get_name()
            .isl(isl, STAGE)?
            .to_string();
        if let Some(k) = name
            .strip_prefix("kernel_")
            .and_then(|k| k.parse::<usize>().ok())
            .filter(|k| *k < prefix.len())
        {
            // The prefix map is defined on every instance of the domain's
            // statements; only the kernel's own instances count.
            prefix[k] = Some(
                node.get_prefix_schedule_union_map()
                    .isl(isl, STAGE)?
                    .intersect_domain(node.get_domain().isl(isl, STAGE)?)
                    .isl(isl, STAGE)?,
            );
            let id = isl.id(&format!("pencilc_launch_{}", k)).isl(isl, STAGE)?;
            // Grouping leaves an expansion node above the kernel's
            // subtree; cutting it leaves a leaf on the grouped instances.
            let mut grouped = node.child(0).isl(isl, STAGE)?.group(id).isl(isl, STAGE)?;
            while grouped.get_type().isl(isl, STAGE)? != ScheduleNodeType::Expansion {
                grouped = grouped.parent().isl(isl, STAGE)?;
            }
            let leaf = grouped.cut().isl(isl, STAGE)?;
            return leaf.parent().isl(isl, STAGE);
        }
    }
    let n = node.n_children().isl(isl, STAGE)?;
    for i in 0..n {
        let child = node.child(i).isl(isl, STAGE)?;
        node = group_kernels(isl, child, prefix)?
            .parent()
            .isl(isl, STAGE)?;
    }
    Ok(node)
}

/// Names like b0, b1 that are no name of the region nor of its file
/// (`Scop::all_names`).
fn fresh_names(scop: &Scop, prefix: &str, n: usize) -> Vec<String> {
    let names = scop.all_names();
    let taken = |s: &str| names.contains(&s);
    let mut base = prefix.to_string();
    while (0..n).any(|k| taken(&format!("{}{}", base, k))) {
        base.push('_');
    }
    (0..n).map(|k| format!("{}{}", base, k)).collect()
}

struct Mapper<'a> {
    isl: &'a Isl,
    scop: &'a Scop,
    /// Kernels of earlier regions of the file.
    first_kernel: usize,
    /// The original schedule, for kernels that run sequentially.
    original: &'a str,
    /// Every dependence of the region, read once.
    deps: &'a UnionMap,
    opts: &'a MapOptions,
    block_ids: &'a [String],
    thread_ids: &'a [String],
    /// Whether to add the block and thread ids (the device tree).
    with_ids: bool,
    kernels: Vec<KernelPlan>,
    /// The kernel band being mapped counts wavefront tiles.
    unit_tiles: bool,
    /// The region's privatised variables (`deps::privatise`).
    privatised: &'a [crate::deps::Privatised],
}

impl Mapper<'_> {
    /// Maps the subtree at `node`; returns the node at the same position.
    fn visit(&mut self, node: ScheduleNode) -> Result<ScheduleNode> {
        let isl = self.isl;
        isl.check_deadline(STAGE)?;
        let ty = node.get_type().isl(isl, STAGE)?;
        match ty {
            ScheduleNodeType::Band => {
                let n = node.band_n_member().isl(isl, STAGE)? as usize;
                let coincident: Vec<bool> = (0..n)
                    .map(|k| node.band_member_get_coincident(k as i32))
                    .collect::<std::result::Result<_, _>>()
                    .isl(isl, STAGE)?;
                let leading = coincident.iter().take_while(|c| **c).count();
                if leading > 0 {
                    return self.make_kernel(node, leading);
                }
                if let Some(first) = coincident.iter().position(|c| *c) {
                    // Outer sequential members stay on the host; the rest may be a kernel.
                    let node = node.band_split(first as i32).isl(isl, STAGE)?;
                    return self.visit_children(node);
                }
                if subtree_has_parallelism(isl, &node)? {
                    self.visit_children(node)
                } else {
                    self.make_sequential_kernel(node)
                }
            }
            ScheduleNodeType::Leaf => self.make_sequential_kernel(node),
            // A sequence of subtrees none of which has a parallel loop runs
            // as one kernel of one thread, not one launch per subtree.
            ScheduleNodeType::Sequence | ScheduleNodeType::Set
                if !subtree_has_parallelism(isl, &node)? =>
            {
                self.make_sequential_kernel(node)
            }
            ScheduleNodeType::Mark
                if node
                    .mark_get_id()
                    .isl(isl, STAGE)?
                    .get_name()
                    .isl(isl, STAGE)?
                    == crate::sched::pluto::WAVEFRONT_MARK =>
            {
                // The band below counts tiles of a wavefront: one tile per
                // block, run by one thread (the points inside a tile depend
                // on each other).
                let node = node.delete().isl(isl, STAGE)?;
                self.unit_tiles = true;
                let r = self.visit(node);
                self.unit_tiles = false;
                r
            }
            _ => self.visit_children(node),
        }
    }

    /// Whether statements below `node` access a privatised variable.
    fn touches_private(&self, node: &ScheduleNode) -> Result<bool> {
        if self.privatised.is_empty() {
            return Ok(false);
        }
        let isl = self.isl;
        let domain = node.get_domain().isl(isl, STAGE)?;
        for p in self.privatised {
            for &s in &p.stmts {
                let name = &self.scop.stmts[s].name;
                let mine = domain
                    .copy()
                    .isl(isl, STAGE)?
                    .intersect(
                        isl.union_set(&format!(
                            "{{ {}[{}] }}",
                            name,
                            (0..self.scop.stmts[s].iterators.len())
                                .map(|k| format!("x{}", k))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                        .isl(isl, STAGE)?,
                    )
                    .isl(isl, STAGE)?;
                if !mine.is_empty().isl(isl, STAGE)? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    fn visit_children(&mut self, node: ScheduleNode) -> Result<ScheduleNode> {
        let isl = self.isl;
        let n = node.n_children().isl(isl, STAGE)?;
        let mut node = node;
        for i in 0..n {
            let child = node.child(i).isl(isl, STAGE)?;
            let child = self.visit(child)?;
            node = child.parent().isl(isl, STAGE)?;
        }
        Ok(node)
    }

    fn mark_id(&self, k: usize) -> Result<Id> {
        self.isl.id(&format!("kernel_{}", k)).isl(self.isl, STAGE)
    }

    /// A whole subtree without parallelism runs in one thread of one block.
    /// Any valid order serves a single thread, and the original one keeps the
    /// code close to what the user wrote (the scheduler's choice for code
    /// without parallelism can be huge skewing coefficients).
    fn make_sequential_kernel(&mut self, node: ScheduleNode) -> Result<ScheduleNode> {
        let isl = self.isl;
        let domain = node.get_domain().isl(isl, STAGE)?;
        if domain.is_empty().isl(isl, STAGE)? {
            // Statements that never run here (the host's set-up,
            // `scop::prologue`): no code, so no kernel.
            return Ok(node);
        }
        let original = isl
            .union_map(self.original)
            .isl(isl, STAGE)?
            .intersect_domain(domain)
            .isl(isl, STAGE)?;
        let order = MultiUnionPwAff::from_union_map(original).isl(isl, STAGE)?;
        let node = node
            .cut()
            .isl(isl, STAGE)?
            .insert_partial_schedule(order)
            .isl(isl, STAGE)?;
        let k = self.kernels.len();
        self.kernels.push(KernelPlan {
            id: k,
            n_block: 0,
            block_sizes: vec![],
            grid_cap: vec![],
            wavefront: false,
            wraps: vec![],
            tile_max: vec![],
            tile_index: vec![],
            band_members: 0,
            parallel_members: 0,
            number: self.first_kernel + k,
            tile_sizes: vec![],
            memory: memory::KernelMemory::default(),
        });
        node.insert_mark(self.mark_id(k)?).isl(self.isl, STAGE)
    }

    fn make_kernel(&mut self, node: ScheduleNode, leading: usize) -> Result<ScheduleNode> {
        let (node, d) = self.kernel_dims(node, leading)?;
        let tile_band = self.insert_blocks(node, &d)?;
        let (point, mem) = self.map_threads(tile_band, &d)?;
        let up = self.up_to_kernel_mark(point, &d, &mem)?;
        self.kernels.push(KernelPlan {
            id: d.k,
            n_block: d.n_block,
            block_sizes: d.block_sizes,
            grid_cap: d.grid_cap,
            wavefront: self.unit_tiles,
            wraps: d.wraps,
            tile_index: d.tile_index,
            tile_max: d.tile_max,
            band_members: d.n,
            parallel_members: leading,
            number: d.number,
            tile_sizes: d.tiles,
            memory: mem,
        });
        Ok(up)
    }
}

/// The context of block or thread identifiers below `depth` schedule
/// dimensions: `0 <= ids[j] < caps[j]`.
fn ids_context(isl: &Isl, ids: &[String], depth: usize, caps: &[i64]) -> Result<Set> {
    let tuple = (0..depth)
        .map(|k| format!("h{}", k))
        .collect::<Vec<_>>()
        .join(", ");
    // Text: constraints on the identifiers, written from their names.
    Set::read_from_str(&isl.ctx, &on_ids(ids, &tuple, &id_bounds(ids, caps))).isl(isl, STAGE)
}

/// `0 <= ids[j] < caps[j]`, one per identifier.
fn id_bounds(ids: &[String], caps: &[i64]) -> Vec<String> {
    ids.iter()
        .zip(caps)
        .map(|(id, cap)| format!("0 <= {} < {}", id, cap))
        .collect()
}

/// `[ids] -> { [tuple] : cons }`: constraints over the identifiers (as
/// parameters) and a tuple, as isl text.
fn on_ids(ids: &[String], tuple: &str, cons: &[String]) -> String {
    format!(
        "[{}] -> {{ [{}] : {} }}",
        ids.join(", "),
        tuple,
        cons.join(" and ")
    )
}

/// Whether a statement with `reduction` updates has instances in `domain`.
fn has_reductions(isl: &Isl, scop: &Scop, domain: &UnionSet) -> Result<bool> {
    let sets = domain.get_set_list().isl(isl, STAGE)?;
    for i in 0..sets.size().isl(isl, STAGE)? {
        let set = sets.get_at(i).isl(isl, STAGE)?;
        let name = set.get_tuple_name().isl(isl, STAGE)?;
        let reduces = scop
            .stmts
            .iter()
            .any(|s| s.name == name && !s.reductions.is_empty());
        if reduces && !set.is_empty().isl(isl, STAGE)? {
            return Ok(true);
        }
    }
    Ok(false)
}

fn subtree_has_parallelism(isl: &Isl, node: &ScheduleNode) -> Result<bool> {
    if node.get_type().isl(isl, STAGE)? == ScheduleNodeType::Band {
        let n = node.band_n_member().isl(isl, STAGE)?;
        for k in 0..n {
            if node.band_member_get_coincident(k).isl(isl, STAGE)? {
                return Ok(true);
            }
        }
    }
    let n = node.n_children().isl(isl, STAGE)?;
    for i in 0..n {
        let c = node.get_child(i).isl(isl, STAGE)?;
        if subtree_has_parallelism(isl, &c)? {
            return Ok(true);
        }
    }
    Ok(false)
}

impl MappedSchedule {
    pub fn dump(&self) -> String {
        let mut s = String::new();
        for k in &self.kernels {
            s.push_str(&format!(
                "kernel_{}: band members {}, parallel {}, block dims {}, threads {:?}\n",
                k.id, k.band_members, k.parallel_members, k.n_block, k.block_sizes
            ));
        }
        s.push_str(&crate::sched::pretty_tree(&self.tree));
        s.push('\n');
        s
    }
}
