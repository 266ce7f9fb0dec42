//! The GPU profile of a region's device version, and its estimated time.
//!
//! A stage after `ast`: it reads the mapped program (`ast::GpuAst`: host
//! code with launches, each launch's kernel body for one thread) and runs
//! it as an interpreter at concrete parameter values (`walk`), counting
//! per kernel what a GPU pays for: launches, blocks and threads, statement
//! instances and their arithmetic, global-memory accesses and the bytes
//! they move (whole 32-byte sectors per warp), elements copied to and from
//! shared memory and registers, barriers, and the span (the busiest
//! thread's chain of work, which no amount of parallelism shortens). The
//! region adds its copies between host and device (`transfers`).
//! `estimate` turns a profile into a time for a device description's
//! `[gpu_model]`; `text` prints both and reads them back (the calibration
//! data in `devices/`).
//!
//! `pencilc -v` and `--emit gpu-model` report it; the driver compares
//! index-set splits and schedules with it, and anchors the run-time
//! choice's device estimate to it (`anchor`).

pub mod anchor;
pub mod estimate;
mod eval;
pub mod fit;
pub mod params;
mod stmts;
pub mod text;
mod transfers;
mod walk;

pub use anchor::chooser_scale;
pub use estimate::{estimate, Estimate};
pub use params::{ParamValue, Source};
pub use transfers::{live_in_arrays, Transfers};
pub use walk::Sampling;

use crate::ast::{reductions, GpuAst};
use crate::front::affine::isl_name;
use crate::scop::Scop;
use eval::Env;
use std::collections::{BTreeSet, HashMap};

/// Counts of what threads do, weighted by the iterations each sampled
/// one stands for.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Work {
    pub instances: f64,
    pub flops64: f64,
    pub flops32: f64,
    /// Statements' loads and stores of global memory.
    pub global_accesses: f64,
    /// The loads among them that leave the cache line of the same access
    /// one iteration before (or are in no loop): each waits for L2 or
    /// memory (a thread does not wait for its stores).
    pub far_accesses: f64,
    /// The bytes statements and copies move in global memory: a thread's
    /// share of its warp's 32-byte sectors, less what later iterations
    /// reuse.
    pub global_bytes: f64,
    /// Elements copied between global memory and shared memory or
    /// registers.
    pub copies: f64,
    pub barriers: f64,
    /// Atomic updates that wait for each other: a launch's updates of a
    /// reduction's one element, all at one address (`serial_updates`).
    #[serde(default)]
    pub atomics: f64,
}

impl Work {
    pub fn add_scaled(&mut self, o: &Work, w: f64) {
        self.instances += w * o.instances;
        self.flops64 += w * o.flops64;
        self.flops32 += w * o.flops32;
        self.global_accesses += w * o.global_accesses;
        self.far_accesses += w * o.far_accesses;
        self.global_bytes += w * o.global_bytes;
        self.copies += w * o.copies;
        self.barriers += w * o.barriers;
        self.atomics += w * o.atomics;
    }

    /// The length of a thread's chain of work: its instances, the
    /// elements it copies and the barriers it waits at.
    pub fn chain(&self) -> f64 {
        self.instances + self.copies + self.barriers
    }
}

/// One kernel (launch site) of a region, all its launches together.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KernelProfile {
    /// The kernel's name in the generated files (`kernel3`).
    pub name: String,
    /// Threads per block dimension, outermost first.
    pub block: Vec<i64>,
    pub launches: f64,
    /// Blocks and threads over all launches.
    pub blocks: f64,
    pub threads: f64,
    /// What all threads of all launches do.
    pub work: Work,
    /// The busiest thread of each launch, summed over launches: the time
    /// no parallelism shortens.
    pub span: Work,
}

impl KernelProfile {
    /// Whether each launch runs one thread (a step the device takes at a
    /// single thread's pace).
    pub fn one_thread(&self) -> bool {
        self.launches > 0.0 && self.threads <= self.launches
    }

    pub fn blocks_per_launch(&self) -> f64 {
        if self.launches > 0.0 {
            self.blocks / self.launches
        } else {
            0.0
        }
    }
}

/// One region's device version at given parameter values.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RegionProfile {
    /// `function:line`, as `-v` names regions.
    pub region: String,
    pub params: Vec<ParamValue>,
    /// Whether the region's entry check holds there (else the user's code
    /// runs and the profile describes what would have run).
    pub runs: bool,
    pub kernels: Vec<KernelProfile>,
    pub transfers: Transfers,
    /// Expressions the interpreter could not evaluate (a guard taken as
    /// true, a loop as empty): the profile is less exact where non-zero.
    pub unknown: usize,
}

/// What the profile needs besides the AST.
pub struct Inputs<'a> {
    pub scop: &'a Scop,
    pub ast: &'a GpuAst,
    pub copy_in: &'a BTreeSet<String>,
    pub copy_out: &'a BTreeSet<String>,
    /// Arrays the region reads values of from before it
    /// (`transfers::live_in_arrays`).
    pub live_in: &'a BTreeSet<String>,
    /// Variables each thread keeps a copy of (privatised temporaries):
    /// array → the statements whose accesses to it use the copy.
    pub private: &'a [(String, Vec<usize>)],
    /// The number of the region's first kernel in the generated files.
    pub first_kernel: usize,
    /// Whether each reduction launch's last block combines its partials
    /// (CUDA, `reductions::last_block_combines`) instead of a combining
    /// kernel launched after it.
    pub last_block: bool,
}

/// What combining the partials of a launch of `groups` work-groups
/// costs: per element of each privatised variable, `threads` threads (a
/// combining kernel's `COMBINE_THREADS`, or the launch's last block)
/// read the partials (each thread every `threads`-th, in order:
/// consecutive threads, consecutive partials), then a tree in local
/// memory (a barrier per level), and work-item 0 combines the result into
/// the variable. All its threads together, and its busiest thread.
fn combine_work(privatized: &[reductions::Privatized], groups: f64, threads: f64) -> (Work, Work) {
    let threads = threads.max(1.0);
    let levels = threads.log2().ceil() + 1.0;
    let mut work = Work::default();
    let mut span = Work::default();
    for p in privatized {
        let elems = p.len as f64;
        let bytes = stmts::elem_bytes(&p.elem_type);
        let per_thread = (groups / threads).ceil();
        work.instances += elems * (groups + 1.0);
        work.global_accesses += elems * (groups + 2.0);
        work.far_accesses += elems * groups;
        work.global_bytes += elems * (groups + 2.0) * bytes;
        work.barriers += elems * threads * levels;
        span.instances += elems * (per_thread + levels);
        span.global_accesses += elems * (per_thread + 2.0);
        span.far_accesses += elems * per_thread;
        span.global_bytes += elems * (per_thread + 2.0) * bytes;
        span.barriers += elems * levels;
    }
    (work, span)
}

/// The profile of a region's device version at `params`.
pub fn profile_region(input: &Inputs, params: &[ParamValue], sampling: Sampling) -> RegionProfile {
    let scop = input.scop;
    let ast = input.ast;
    let mut env = Env::new();
    for p in params {
        env.push(&p.name, p.value);
    }
    // Statement bodies spell parameters and other integer scalars with
    // their C names, generated code with their isl names.
    for (c, _) in &scop.value_types {
        if let Some(v) = env.get(&isl_name(c)) {
            env.push(c, v);
        }
    }
    let costs = stmts::stmt_costs(scop);
    let arrays: HashMap<String, (f64, Option<Vec<i64>>)> = scop
        .arrays
        .iter()
        .map(|a| {
            (
                a.name.clone(),
                (stmts::elem_bytes(&a.elem_type), transfers::strides(a)),
            )
        })
        .collect();
    // Privatised reductions launch a combining kernel after their own,
    // which runs the kernel of one thread after it where that one is
    // fused (`ast::reductions`), as the back end prints them.
    let plans: Vec<reductions::Plan> = ast
        .launches
        .iter()
        .map(|l| reductions::plan(scop, l, ""))
        .collect();
    let mut region = walk::Region {
        serial: ast
            .launches
            .iter()
            .zip(&plans)
            .map(|(l, p)| reductions::serial_updates(scop, l, p))
            .collect(),
        costs: &costs,
        private: input.private,
        arrays,
        block_ids: &ast.block_ids,
        thread_ids: &ast.thread_ids,
        sampling,
        unknown: 0,
    };
    let mut kernels: Vec<KernelProfile> = ast
        .launches
        .iter()
        .enumerate()
        .map(|(i, l)| KernelProfile {
            name: format!("kernel{}", input.first_kernel + i),
            block: l.plan.block_sizes.clone(),
            ..Default::default()
        })
        .collect();
    let fused = reductions::fused_epilogues(
        scop,
        &ast.host,
        &ast.launches,
        &plans,
        &|_| false,
        input.last_block,
    );
    // Where the last block combines, the launch itself does that work
    // and runs the fused kernel of one thread after it.
    let mut combine_of: Vec<Option<usize>> = vec![None; ast.launches.len()];
    for (i, p) in plans.iter().enumerate() {
        if input.last_block && !p.privatized.is_empty() {
            combine_of[i] = Some(i);
        } else if !p.privatized.is_empty() {
            combine_of[i] = Some(kernels.len());
            kernels.push(KernelProfile {
                name: format!("kernel{}_combine", input.first_kernel + i),
                block: vec![reductions::COMBINE_THREADS],
                ..Default::default()
            });
        }
    }
    let mut host_env = env.clone();
    region.host(
        &ast.host,
        &ast.launches,
        &mut host_env,
        1.0,
        &mut |i, lw, w, env| {
            let in_combine = fused.iter().find(|f| f.0 == i).and_then(|(_, r, unless)| {
                // Alone where the reduction's own guard failed.
                let ran = unless
                    .as_ref()
                    .is_none_or(|c| eval::eval(c, env).is_none_or(|v| v != 0));
                ran.then_some(combine_of[*r]).flatten()
            });
            if let Some(c) = in_combine {
                // Work-item 0 of the combining kernel, after its tree.
                let k = &mut kernels[c];
                k.work.add_scaled(&lw.total, w);
                k.span.add_scaled(&lw.busiest, w);
                return;
            }
            if let Some(k) = kernels.get_mut(i) {
                k.launches += w;
                k.blocks += w * lw.blocks;
                k.threads += w * lw.blocks * lw.threads_per_block;
                k.work.add_scaled(&lw.total, w);
                k.span.add_scaled(&lw.busiest, w);
            }
            if let (true, Some(p)) = (input.last_block, plans.get(i)) {
                if !p.privatized.is_empty() {
                    // After its blocks, the last one combines: a fence and
                    // a count per block, then the combining code.
                    let (mut work, span) =
                        combine_work(&p.privatized, lw.blocks, lw.threads_per_block);
                    work.global_accesses += lw.blocks;
                    work.global_bytes += 4.0 * lw.blocks;
                    let k = &mut kernels[i];
                    k.work.add_scaled(&work, w);
                    k.span.add_scaled(&span, w);
                }
            } else if let (Some(c), Some(p)) = (combine_of.get(i).copied().flatten(), plans.get(i))
            {
                let (work, span) =
                    combine_work(&p.privatized, lw.blocks, reductions::COMBINE_THREADS as f64);
                let k = &mut kernels[c];
                k.launches += w;
                k.blocks += w * p.privatized.len() as f64;
                k.threads += w * (p.privatized.len() as i64 * reductions::COMBINE_THREADS) as f64;
                k.work.add_scaled(&work, w);
                k.span.add_scaled(&span, w);
            }
        },
    );
    // A kernel that always runs in a combining kernel has no launch of
    // its own to report.
    let mut k = 0;
    kernels.retain(|_| {
        k += 1;
        !fused.iter().any(|f| f.0 == k - 1 && f.2.is_none())
    });
    let runs = match &ast.entry_check {
        Some(c) => eval::eval(c, &env).is_none_or(|v| v != 0),
        None => true,
    };
    let (transfers, unknown_sizes) = transfers::transfers(input, &env);
    RegionProfile {
        region: format!("{}:{}", scop.function, scop.begin_line),
        params: params.to_vec(),
        runs,
        kernels,
        transfers,
        unknown: region.unknown + unknown_sizes,
    }
}
