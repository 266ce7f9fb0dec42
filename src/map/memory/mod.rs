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
mod plan;
pub mod tile;

pub use plan::plan_kernel;

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
    /// Banks of shared memory (`Device::shared_memory_banks`; 0: none).
    pub banks: i64,
    /// Kernels (numbered in the file, as `--sizes` numbers them) whose
    /// groups stay out of shared memory: the GPU model priced their tiles'
    /// copies and barriers above the global accesses they replace
    /// (`driver::region::with_global_tiles`).
    pub global_kernels: std::collections::BTreeSet<usize>,
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
            banks: 32,
            global_kernels: Default::default(),
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
    /// Elements the declared tile adds to each row beyond `sizes` (shared
    /// tiles read by column: `row_padding`); copies and accesses keep to
    /// `sizes`.
    pub row_pad: i64,
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

/// Elements to add to each row of a shared tile of `sizes` so that the
/// threads of a warp reading one column touch distinct banks. With banks
/// of 4 bytes, an element of `w` words and rows `e` elements long, thread
/// `t` of a column read starts at word `t * e * w`; the hardware serves
/// `banks / w` threads at a time, which hit distinct banks exactly when
/// `e` is odd (for banks a power of two). Only for 4- and 8-byte scalars
/// (other element sizes are left as they are).
pub fn row_padding(sizes: &[i64], elem_type: &str, banks: i64) -> i64 {
    let scalar = matches!(
        elem_type.trim(),
        "float"
            | "int"
            | "unsigned"
            | "unsigned int"
            | "double"
            | "long"
            | "unsigned long"
            | "long long"
            | "unsigned long long"
    );
    match sizes.last() {
        Some(&e)
            if sizes.len() >= 2 && scalar && banks > 0 && banks.count_ones() == 1 && e % 2 == 0 =>
        {
            1
        }
        _ => 0,
    }
}

/// A tile's sizes as declared: `row_pad` more elements in the last
/// dimension.
pub fn declared_sizes(sizes: &[i64], row_pad: i64) -> Vec<i64> {
    let mut d = sizes.to_vec();
    if let Some(l) = d.last_mut() {
        *l += row_pad;
    }
    d
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
    let Some(e) = placement::points_to_elements(isl, &to, acc)? else {
        return Ok(None);
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_a_multiple_of_two_elements_are_padded_to_an_odd_length() {
        // 32x32 doubles: thread t of a column read starts at word 64 t,
        // all in bank 0; 33 elements a row: word 66 t, banks 2t, 2t + 1.
        assert_eq!(row_padding(&[32, 32], "double", 32), 1);
        assert_eq!(declared_sizes(&[32, 32], 1), [32, 33]);
        assert_eq!(row_padding(&[34, 32], "float", 32), 1);
        assert_eq!(row_padding(&[16, 2], "int", 32), 1);
        // Odd rows, one dimension, no banks, other element sizes: as is.
        assert_eq!(row_padding(&[32, 33], "double", 32), 0);
        assert_eq!(row_padding(&[32], "double", 32), 0);
        assert_eq!(row_padding(&[32, 32], "double", 0), 0);
        assert_eq!(row_padding(&[32, 32], "char", 32), 0);
        assert_eq!(row_padding(&[32, 32], "struct point", 32), 0);
        assert_eq!(declared_sizes(&[8], 0), [8]);
    }

    #[test]
    fn odd_rows_put_each_thread_of_a_column_read_on_its_own_banks() {
        // What `row_padding` promises, checked by counting: the threads a
        // bank serves at once (32 / words per element) reading one column.
        for (elem, words) in [("float", 1i64), ("double", 2)] {
            for e in 1..=64i64 {
                let rows = e + row_padding(&[4, e], elem, 32);
                let per_pass = 32 / words;
                let mut banks = std::collections::BTreeSet::new();
                for t in 0..per_pass {
                    for w in 0..words {
                        banks.insert((t * rows * words + w) % 32);
                    }
                }
                assert_eq!(banks.len() as i64, 32, "{} rows of {} {}s", rows, e, elem);
            }
        }
    }
}
