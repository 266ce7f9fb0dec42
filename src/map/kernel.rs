//! The kernel a parallel band becomes: its dimensions (band members on
//! blocks and threads, tiles, the grid), the block and thread filters
//! inserted into the tree, its memory plan, and the marks around it.

use super::*;
use crate::isl::IslText;

impl Mapper<'_> {
    /// A kernel's band, split where only part of it is mapped, with its
    /// mapped members checked parallel, and its dimensions: members,
    /// threads, blocks, tile and block sizes, and the grid.
    pub(super) fn kernel_dims(
        &mut self,
        node: ScheduleNode,
        leading: usize,
    ) -> Result<(ScheduleNode, KernelDims)> {
        let isl = self.isl;
        let n = node.band_n_member().isl(isl, STAGE)? as usize;
        let permutable = node.band_get_permutable().isl(isl, STAGE)?;
        // Only a permutable band may be tiled as a whole; otherwise tile
        // just its parallel members, which have no dependence distance.
        let (node, n) = if !permutable && n > leading {
            let node = node.band_split(leading as i32).isl(isl, STAGE)?;
            (node, leading)
        } else {
            (node, n)
        };
        let k = self.kernels.len();
        let number = self.first_kernel + k;
        let user = match &self.opts.sizes {
            Some(text) => sizes::sizes_for(isl, text, number)?,
            None => sizes::KernelSizes::default(),
        };
        let mut n_thread = leading.min(3).min(n);
        if let Some(b) = &user.block {
            n_thread = n_thread.min(b.len());
        }
        let mut n_block = n_thread.min(2);
        if let Some(g) = &user.grid {
            n_block = n_block.min(g.len());
        }
        // A thread's private copies hold one value at a time: the members
        // past the threads' stay one loop inside each thread's points,
        // not tile loops around them, which would interleave the live
        // ranges of its points (`valid::check_private_copies`).
        let (node, n) = if n > n_thread && n_thread > 0 && self.touches_private(&node)? {
            (node.band_split(n_thread as i32).isl(isl, STAGE)?, n_thread)
        } else {
            (node, n)
        };
        let node = origin::shift_to_zero(isl, node, n_block)?;
        let partial = node.band_get_partial_schedule().isl(isl, STAGE)?;
        let prefix = node
            .get_prefix_schedule_multi_union_pw_aff()
            .isl(isl, STAGE)?;
        // Every member mapped to blocks or threads must be parallel.
        let mapped = partial
            .copy()
            .isl(isl, STAGE)?
            .drop_dims(DimType::Set, n_thread as u32, (n - n_thread) as u32)
            .isl(isl, STAGE)?;
        // Both passes build the same bands; checking the first suffices.
        if !self.with_ids {
            let domain = node.get_domain().isl(isl, STAGE)?;
            let what = format!("band of kernel {}", k);
            valid::check_parallel(isl, self.deps, &domain, &prefix, &mapped, &what)?;
            // Wavefront kernels count tiles already (unit tiles change
            // nothing); other bands are tiled below as a whole.
            if !self.unit_tiles && n > n_thread {
                valid::check_permutable(isl, self.deps, &domain, &prefix, &partial, &what)?;
            }
        }

        let mut tiles: Vec<i64> = (0..n)
            .map(|j| {
                if self.unit_tiles {
                    1
                } else {
                    user.tile
                        .as_ref()
                        .and_then(|t| t.get(j).copied())
                        .unwrap_or(self.opts.tile_size)
                }
            })
            .collect();
        // A thread member whose values lie in `0..e` for every parameter
        // value, with `e` well below the tile size, is one tile of `e`
        // rounded up to a power of two: its blocks then have that many
        // threads, not the default's (a loop over 2 columns ran in
        // blocks of 32 x 16 threads, 510 of them idle at every launch).
        // Rounding keeps warps on whole rows where the extent is near the
        // tile (29 columns of a stencil stay 32 threads wide, one memory
        // segment per warp). The innermost (x) dimension keeps a warp's
        // width: a GPU schedules whole warps, so fewer threads there
        // save nothing, and a block stays at least one full warp. The
        // user's sizes are kept as given.
        if !self.unit_tiles && user.tile.is_none() && user.block.is_none() {
            for (j, tile) in tiles.iter_mut().enumerate().take(n_thread) {
                let least = if j + 1 == n_thread { WARP } else { 1 };
                // Extents at the tile size or beyond (a `long` loop bound's
                // 2^63 - 1) change nothing, and must not be rounded.
                match self.constant_extent(&node, &partial, j)? {
                    Some(e) if e < *tile => {
                        let rounded = (e.max(1) as u64).next_power_of_two() as i64;
                        *tile = rounded.max(least).min(*tile);
                    }
                    _ => {}
                }
            }
        }
        let defaults = match n_thread {
            1 => &self.opts.block_1d,
            2 => &self.opts.block_2d,
            _ => &self.opts.block_3d,
        };
        let block_sizes: Vec<i64> = (0..n_thread)
            .map(|j| {
                let b = match &user.block {
                    Some(b) => b[j],
                    None => defaults.get(j).copied().unwrap_or(1),
                };
                b.min(tiles[j]).max(1)
            })
            .collect();
        let threads: i64 = block_sizes.iter().product();
        if let (Some(asked), true) = (&user.block, threads > self.opts.max_block_threads) {
            return Err(sizes::too_many_threads(
                number,
                asked,
                &block_sizes,
                self.opts.max_block_threads,
            ));
        }
        // Three thread dimensions: a block of 4 x 4 x 32 threads over
        // tiles of 32 along the two outer (block) dimensions would loop
        // each thread over 8 x 8 points of every tile, and a 120^3 grid
        // (heat-3d) would launch 4 x 4 = 16 blocks on a GPU of 132
        // multiprocessors. Those tiles are the block's size: one point
        // per thread along them, 64 times the blocks.
        if n_thread == 3 && !self.unit_tiles && user.tile.is_none() && user.block.is_none() {
            tiles[..n_block].copy_from_slice(&block_sizes[..n_block]);
        }
        // The grid's size per block dimension: the user's, else the API's
        // limit; the grid wraps where tiles may not fit (below).
        let mut grid_cap: Vec<i64> = (0..n_block)
            .map(|j| {
                let inner = j + 1 == n_block;
                user.grid
                    .as_ref()
                    .map(|g| g[j])
                    .unwrap_or(self.opts.grid_limit[inner as usize])
            })
            .collect();
        let depth = node.get_schedule_depth().isl(isl, STAGE)? as usize;
        let partial_map =
            UnionMap::from_multi_union_pw_aff(partial.copy().isl(isl, STAGE)?).isl(isl, STAGE)?;

        // Tile indices per block dimension, for the launch's grid size.
        let mut tile_index = Vec::new();
        let mut tile_max = Vec::new();
        let mut wraps = Vec::new();
        for j in 0..n_block {
            let upa = partial.get_union_pw_aff(j as i32).isl(isl, STAGE)?;
            let v = Val::int_from_si(&isl.ctx, tiles[j]).isl(isl, STAGE)?;
            let idx = upa
                .scale_down_val(v)
                .isl(isl, STAGE)?
                .floor()
                .isl(isl, STAGE)?;
            let m = UnionMap::from_union_pw_aff(idx).isl(isl, STAGE)?;
            let (wrap, max) = self.tiles_may_wrap(&m, &node, grid_cap[j])?;
            if wrap && user.grid.is_none() {
                grid_cap[j] = self.opts.wrap_grid.min(grid_cap[j]);
            }
            wraps.push(wrap);
            tile_max.push(max);
            tile_index.push(m.text(isl, STAGE)?);
        }
        // Generated loops step past a bound by up to a tile, or a tile
        // times the grid where the grid wraps around its tiles: within
        // the margin the entry check leaves (`scop::STEP_MARGIN`). Only
        // the user's sizes reach beyond it.
        for (j, &tile) in tiles.iter().enumerate() {
            let wrapping = wraps.get(j).copied().unwrap_or(false);
            let grid = if wrapping { grid_cap[j] } else { 1 };
            if tile.saturating_mul(grid) > crate::scop::STEP_MARGIN {
                return Err(sizes::steps_too_large(
                    number,
                    j,
                    tile,
                    wrapping.then_some(grid),
                ));
            }
        }
        let dims = KernelDims {
            k,
            number,
            n,
            n_thread,
            n_block,
            depth,
            tiles,
            block_sizes,
            grid_cap,
            wraps,
            tile_index,
            tile_max,
            partial_map,
            tuple: (0..n)
                .map(|k| format!("p{}", k))
                .collect::<Vec<_>>()
                .join(", "),
        };
        Ok((node, dims))
    }

    /// The band under the kernel's mark, filtered to the tiles of a block
    /// (`b_j` runs the tiles whose index is `b_j` modulo the grid), and
    /// tiled: the tile band.
    pub(super) fn insert_blocks(&self, node: ScheduleNode, d: &KernelDims) -> Result<ScheduleNode> {
        let isl = self.isl;
        let mut node = node;
        if d.n_block > 0 && self.with_ids {
            let ids = &self.block_ids[..d.n_block];
            let cons: Vec<String> = (0..d.n_block)
                .map(|j| {
                    if d.wraps[j] {
                        format!(
                            "(floor(p{}/{}) - {}) mod {} = 0",
                            j, d.tiles[j], ids[j], d.grid_cap[j]
                        )
                    } else {
                        format!("floor(p{}/{}) = {}", j, d.tiles[j], ids[j])
                    }
                })
                .collect();
            let filter = self.filter_on(&d.partial_map, ids, &d.tuple, &cons)?;
            node = node.insert_filter(filter).isl(isl, STAGE)?;
            let ctx = ids_context(isl, ids, d.depth, &d.grid_cap)?;
            node = node.insert_context(ctx).isl(isl, STAGE)?;
        }
        let mark = self.mark_id(d.k)?;
        node = node.insert_mark(mark).isl(isl, STAGE)?;
        // Down to the band: mark → [context → filter →] band.
        let steps = if d.n_block > 0 && self.with_ids { 3 } else { 1 };
        for _ in 0..steps {
            node = node.child(0).isl(isl, STAGE)?;
        }
        let sizes = {
            let space = node.band_get_space().isl(isl, STAGE)?;
            let mut mv = MultiVal::zero(space).isl(isl, STAGE)?;
            for (j, t) in d.tiles.iter().enumerate() {
                mv = mv
                    .set_val(j as i32, Val::int_from_si(&isl.ctx, *t).isl(isl, STAGE)?)
                    .isl(isl, STAGE)?;
            }
            mv
        };
        node.band_tile(sizes).isl(isl, STAGE)
    }

    /// The point band under `tile_band`, filtered to a thread's points
    /// (`t_j` runs those congruent to it modulo the block size), with the
    /// kernel's memory planned on it and register tiles' loops unrolled.
    pub(super) fn map_threads(
        &self,
        tile_band: ScheduleNode,
        d: &KernelDims,
    ) -> Result<(ScheduleNode, memory::KernelMemory)> {
        let isl = self.isl;
        let mut point = tile_band.copy().isl(isl, STAGE)?.child(0).isl(isl, STAGE)?;
        let mut mem = memory::KernelMemory::default();
        if d.n_thread == 0 || !self.with_ids {
            return Ok((point, mem));
        }
        let ids = &self.thread_ids[..d.n_thread];
        let cons: Vec<String> = (0..d.n_thread)
            .map(|j| {
                format!(
                    "(p{j} - {t}*floor(p{j}/{t}) - {id}) mod {b} = 0",
                    j = j,
                    t = d.tiles[j],
                    id = ids[j],
                    b = d.block_sizes[j]
                )
            })
            .collect();
        let filter = self.filter_on(&d.partial_map, ids, &d.tuple, &cons)?;
        // Wavefront tiles run one thread per block: nothing to share.
        let promote = !self.unit_tiles && (self.opts.mem.shared || self.opts.mem.private);
        if promote {
            mem = self.plan_memory(&tile_band, &point, &filter, d)?;
        }
        if mem
            .promoted()
            .any(|g| g.placement == memory::Placement::Private)
        {
            // Register tiles need constant indices: unroll the point
            // loops that a thread runs several times.
            for j in 0..d.n_thread {
                if d.tiles[j] > d.block_sizes[j] {
                    point = point
                        .band_member_set_ast_loop_type(j as i32, ASTLoopType::Unroll)
                        .isl(isl, STAGE)?;
                }
            }
        }
        point = point.insert_filter(filter).isl(isl, STAGE)?;
        let ctx = ids_context(isl, ids, d.depth + d.n, &d.block_sizes)?;
        point = point.insert_context(ctx).isl(isl, STAGE)?;
        if mem.needs(memory::Level::Inner) {
            point = point
                .insert_mark(self.named_id(&format!("{}{}", MEM_INNER_MARK, d.k))?)
                .isl(isl, STAGE)?;
        }
        Ok((point, mem))
    }

    /// The kernel's memory plan, for one thread of one block (its ids
    /// bounded), from the tile band and the point band.
    pub(super) fn plan_memory(
        &self,
        tile_band: &ScheduleNode,
        point: &ScheduleNode,
        filter: &UnionSet,
        d: &KernelDims,
    ) -> Result<memory::KernelMemory> {
        let isl = self.isl;
        let ids = &self.thread_ids[..d.n_thread];
        let bounds = id_bounds(ids, &d.block_sizes);
        let mine = filter
            .copy()
            .isl(isl, STAGE)?
            .intersect_params(
                // Text: constraints written from names made here.
                Set::read_from_str(
                    &isl.ctx,
                    &format!("[{}] -> {{ : {} }}", ids.join(", "), bounds.join(" and ")),
                )
                .isl(isl, STAGE)?,
            )
            .isl(isl, STAGE)?;
        let instances = tile_band.get_domain().isl(isl, STAGE)?;
        let shape = memory::KernelShape {
            scop: self.scop,
            instances: &instances,
            host_prefix: &tile_band.get_prefix_schedule_union_map().isl(isl, STAGE)?,
            tile: &tile_band.band_get_partial_schedule().isl(isl, STAGE)?,
            point: &point.band_get_partial_schedule().isl(isl, STAGE)?,
            n_block: d.n_block,
            block_sizes: &d.block_sizes,
            tile_sizes: &d.tiles,
            thread_filter: &mine,
            privatised: self.privatised,
        };
        let mut budget = self.opts.mem.clone();
        if budget.global_kernels.contains(&d.number) {
            budget.shared = false;
        }
        if budget.max_shared_bytes >= 0 && has_reductions(isl, self.scop, &instances)? {
            budget.max_shared_bytes =
                (budget.max_shared_bytes - memory::REDUCTION_LOCAL_BYTES).max(0);
        }
        memory::plan_kernel(isl, &shape, &budget)
    }

    /// From the point band up to the kernel's mark, marking where tiles
    /// kept across the sequential tile loops are copied.
    pub(super) fn up_to_kernel_mark(
        &self,
        point: ScheduleNode,
        d: &KernelDims,
        mem: &memory::KernelMemory,
    ) -> Result<ScheduleNode> {
        let isl = self.isl;
        // The tile band.
        let mut up = point.parent().isl(isl, STAGE)?;
        if mem.needs(memory::Level::Outer) && d.n_block < d.n {
            up = up.band_split(d.n_block as i32).isl(isl, STAGE)?;
            up = up
                .child(0)
                .isl(isl, STAGE)?
                .insert_mark(self.named_id(&format!("{}{}", MEM_OUTER_MARK, d.k))?)
                .isl(isl, STAGE)?;
        }
        loop {
            if up.get_type().isl(isl, STAGE)? == ScheduleNodeType::Mark
                && up
                    .mark_get_id()
                    .isl(isl, STAGE)?
                    .get_name()
                    .isl(isl, STAGE)?
                    == format!("kernel_{}", d.k)
            {
                return Ok(up);
            }
            if !up.has_parent().isl(isl, STAGE)? {
                return Err(Diagnostic::internal(STAGE, "lost track of the kernel mark"));
            }
            up = up.parent().isl(isl, STAGE)?;
        }
    }

    /// Whether a kernel's tiles along one block dimension must wrap
    /// around a grid smaller than their number, and otherwise their
    /// largest index over the launch as a function of the parameters
    /// alone (isl text), for launches whose exact bound the AST cannot
    /// express. They wrap where an index may be negative or reach the
    /// API's limit `cap`, and where the largest index is no function of
    /// the parameters but one constant beyond the wrap-around grid: then
    /// most blocks of a launch of that size would be empty (a loop
    /// bounded by `(int)(n - 1) + 3` with `n` unsigned has 2^26 tiles for
    /// some `n`, and PoCL cannot allocate such a launch). A parametric
    /// largest index (a time-skewed stencil's tiles grow with `tsteps`)
    /// wraps nowhere: a kernel with wrap-around tiles costs isl's AST
    /// generation more than a hundred times as much on the stencils.
    /// Answered on the instances with local variables eliminated (a
    /// superset), so "no wrap" is certain. Where tiles wrap, each launch
    /// still counts its own blocks (`ast::launch::tile_bounds`).
    pub(super) fn tiles_may_wrap(
        &self,
        index: &UnionMap,
        node: &ScheduleNode,
        cap: i64,
    ) -> Result<(bool, Option<String>)> {
        let isl = self.isl;
        let tiles = self.band_values(index.copy().isl(isl, STAGE)?, node)?;
        let within = isl
            .union_set(&format!("{{ [t] : 0 <= t < {} }}", cap))
            .isl(isl, STAGE)?;
        if !tiles.is_subset(&within).isl(isl, STAGE)? {
            return Ok((true, None));
        }
        if tiles.is_empty().isl(isl, STAGE)? {
            return Ok((false, None));
        }
        let max = Set::from_union_set(tiles)
            .isl(isl, STAGE)?
            .dim_max(0)
            .isl(isl, STAGE)?;
        if max.is_cst().isl(isl, STAGE)? {
            let constant = max.copy().isl(isl, STAGE)?.max_val().isl(isl, STAGE)?;
            if constant.is_int().isl(isl, STAGE)?
                && constant.get_num_si().isl(isl, STAGE)? >= self.opts.wrap_grid
            {
                return Ok((true, None));
            }
        }
        Ok((false, Some(max.text(isl, STAGE)?)))
    }

    /// `e` where member `j` of the band's schedule takes values in `0..e`
    /// only, for a constant `e`, at every parameter value the context
    /// allows; `None` where a value may be negative or the largest is no
    /// constant. Answered on the instances with local variables
    /// eliminated (a superset): a bound that is too large only leaves
    /// threads idle, as before.
    fn constant_extent(
        &self,
        node: &ScheduleNode,
        partial: &MultiUnionPwAff,
        j: usize,
    ) -> Result<Option<i64>> {
        let isl = self.isl;
        let member = partial.get_union_pw_aff(j as i32).isl(isl, STAGE)?;
        let values =
            self.band_values(UnionMap::from_union_pw_aff(member).isl(isl, STAGE)?, node)?;
        if values.is_empty().isl(isl, STAGE)? {
            return Ok(None);
        }
        let nonneg = isl.union_set("{ [v] : v >= 0 }").isl(isl, STAGE)?;
        if !values.is_subset(&nonneg).isl(isl, STAGE)? {
            return Ok(None);
        }
        let values = Set::from_union_set(values).isl(isl, STAGE)?;
        let Some(max) = largest_constant(isl, values)? else {
            return Ok(None);
        };
        Ok(max.checked_add(1))
    }

    /// The values `of` (instances → one value) takes over the band's
    /// instances, at the parameter values the context and the
    /// parameters' C types allow, with local variables eliminated (a
    /// superset).
    fn band_values(&self, of: UnionMap, node: &ScheduleNode) -> Result<UnionSet> {
        let isl = self.isl;
        let context = isl
            .set(&self.scop.context)
            .isl(isl, STAGE)?
            .intersect(isl.set(&self.scop.param_ranges).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        of.intersect_domain(node.get_domain().isl(isl, STAGE)?)
            .isl(isl, STAGE)?
            .range()
            .isl(isl, STAGE)?
            .intersect_params(context)
            .isl(isl, STAGE)?
            .remove_divs()
            .isl(isl, STAGE)
    }

    pub(super) fn named_id(&self, name: &str) -> Result<Id> {
        self.isl.id(name).isl(self.isl, STAGE)
    }

    /// The statement instances whose band coordinates satisfy `cons`.
    pub(super) fn filter_on(
        &self,
        partial_map: &UnionMap,
        ids: &[String],
        tuple: &str,
        cons: &[String],
    ) -> Result<UnionSet> {
        let isl = self.isl;
        // Text: constraints written from names made here.
        let set = UnionSet::read_from_str(&isl.ctx, &on_ids(ids, tuple, cons)).isl(isl, STAGE)?;
        partial_map
            .copy()
            .isl(isl, STAGE)?
            .intersect_range(set)
            .isl(isl, STAGE)?
            .domain()
            .isl(isl, STAGE)?
            .coalesce()
            .isl(isl, STAGE)
    }
}

/// A kernel's dimensions (`Mapper::kernel_dims`): its number among the
/// region's (`k`) and the file's, band members, threads, blocks, the
/// band's depth, tile and block sizes, the grid, and the band's partial
/// schedule with its members' names (`p0, p1, ...`).
pub(super) struct KernelDims {
    pub(super) k: usize,
    pub(super) number: usize,
    pub(super) n: usize,
    pub(super) n_thread: usize,
    pub(super) n_block: usize,
    pub(super) depth: usize,
    pub(super) tiles: Vec<i64>,
    pub(super) block_sizes: Vec<i64>,
    pub(super) grid_cap: Vec<i64>,
    pub(super) wraps: Vec<bool>,
    pub(super) tile_index: Vec<String>,
    pub(super) tile_max: Vec<Option<String>>,
    pub(super) partial_map: UnionMap,
    pub(super) tuple: String,
}

/// A warp's width: the threads a GPU schedules together.
const WARP: i64 = 32;

/// The largest value of a one-dimensional set over every parameter value,
/// where that is one constant of at most 2^30; `None` where it grows with
/// the parameters or is larger.
fn largest_constant(isl: &Isl, values: Set) -> Result<Option<i64>> {
    let max = values
        .project_out_all_params()
        .isl(isl, STAGE)?
        .dim_max_val(0)
        .isl(isl, STAGE)?;
    // Beyond 2^30 it is no small extent (and may not fit an `i64`: an
    // `unsigned long` bound's 2^64 - 1).
    if !max.is_int().isl(isl, STAGE)? || max.gt_si(1 << 30).isl(isl, STAGE)? {
        return Ok(None);
    }
    Ok(Some(max.get_num_si().isl(isl, STAGE)?))
}
