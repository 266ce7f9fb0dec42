//! A region's estimated time on a device, from its profile and the
//! description's `[gpu_model]` (`device::GpuModel`).
//!
//! The region pays for its buffers (allocation and release), its copies
//! (a fixed cost per copy and its bytes at the host link's bandwidth, or
//! at the rate of first touch where they go to host memory that the
//! program may never have written: arrays the region reads nothing of) and
//! its kernels. A kernel pays a launch latency per launch, and then the
//! largest of four limits, each a lower bound on the time its launches
//! take:
//!
//! - **span**: the busiest thread's chain of work, one step after another
//!   (statement instances, global accesses near the previous iteration's
//!   and far from it, copied elements, barriers, each at a single thread's
//!   pace): parallelism cannot shorten it;
//! - **latency throughput**: every thread's chain, spread over the threads
//!   the GPU keeps resident (`resident_threads`), which hide each other's
//!   latencies;
//! - **memory**: the global bytes (whole sectors) at the memory's
//!   bandwidth;
//! - **arithmetic**: double- and single-precision operations at their
//!   peak rates;
//! - **atomics**: atomic updates of one address by a launch's threads,
//!   which take turns however many threads there are.
//!
//! Sums of maxima over launches are approximated by the maximum of the
//! sums over the kernel's launches (a kernel's launches are alike).

use super::{KernelProfile, RegionProfile, Work};
use crate::device::GpuModel;

/// Which limit a kernel's time comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Bound {
    Launches,
    Span,
    Throughput,
    Memory,
    Arithmetic,
    Atomics,
}

impl Bound {
    pub fn word(self) -> &'static str {
        match self {
            Bound::Launches => "launches",
            Bound::Span => "span",
            Bound::Throughput => "threads",
            Bound::Memory => "memory",
            Bound::Arithmetic => "flops",
            Bound::Atomics => "atomics",
        }
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KernelEstimate {
    pub name: String,
    /// Launch latencies and the kernel's running time, milliseconds.
    pub ms: f64,
    pub launch_ms: f64,
    pub bound: Bound,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    /// Buffers and copies, milliseconds.
    pub transfer_ms: f64,
    pub kernels: Vec<KernelEstimate>,
    /// The kernels alone (what a per-launch timer measures).
    pub kernel_ms: f64,
    /// The region: transfers and kernels.
    pub total_ms: f64,
}

/// One thread's chain of `w`, in nanoseconds.
fn chain_ns(w: &Work, m: &GpuModel) -> f64 {
    w.instances * m.thread_instance_ns
        + (w.global_accesses - w.far_accesses).max(0.0) * m.thread_access_ns
        + w.far_accesses * m.thread_far_access_ns
        + w.copies * m.thread_copy_ns
        + w.barriers * m.barrier_ns
}

/// One kernel: its launches' latency and the largest limit. `in_l2`: every
/// buffer of its region fits in the last-level cache, so that its traffic
/// goes at the cache's rate.
pub fn kernel_time(k: &KernelProfile, m: &GpuModel, in_l2: bool) -> KernelEstimate {
    let bandwidth = if in_l2 { m.l2_gbs } else { m.memory_gbs };
    let launch_ms = k.launches * m.launch_us * 1e-3;
    let limits = [
        (Bound::Span, chain_ns(&k.span, m) * 1e-6),
        (
            Bound::Throughput,
            chain_ns(&k.work, m) / m.resident_threads * 1e-6,
        ),
        (Bound::Memory, k.work.global_bytes / (bandwidth * 1e9) * 1e3),
        (
            Bound::Arithmetic,
            (k.work.flops64 / (m.fp64_gflops * 1e9) + k.work.flops32 / (m.fp32_gflops * 1e9)) * 1e3,
        ),
        (Bound::Atomics, k.work.atomics * m.atomic_ns * 1e-6),
    ];
    let (mut bound, mut run) = (Bound::Launches, 0.0);
    for (b, t) in limits {
        if t.is_finite() && t > run {
            (bound, run) = (b, t);
        }
    }
    if launch_ms > run {
        bound = Bound::Launches;
    }
    KernelEstimate {
        name: k.name.clone(),
        ms: launch_ms + run,
        launch_ms,
        bound,
    }
}

/// The share of a region's estimated transfers that its buffers'
/// allocation takes, milliseconds (what `PENCILC_PROFILE` calls alloc).
pub fn buffers_ms(p: &RegionProfile, m: &GpuModel) -> f64 {
    p.transfers.buffers as f64 * m.buffer_us * 1e-3
}

/// The region's estimated time.
pub fn estimate(p: &RegionProfile, m: &GpuModel) -> Estimate {
    let t = &p.transfers;
    // A device on the host's memory wraps the arrays: no copy, no bytes.
    let moved = if m.moves_bytes { 1.0 } else { 0.0 };
    let transfer_ms = buffers_ms(p, m)
        + moved * (t.copies_in + t.copies_out) as f64 * m.copy_us * 1e-3
        + moved * t.bytes_in / (m.transfer_gbs * 1e9) * 1e3
        + moved * (t.bytes_out - t.bytes_out_fresh) / (m.transfer_out_gbs * 1e9) * 1e3
        + moved * t.bytes_out_fresh / (m.first_touch_gbs * 1e9) * 1e3;
    let in_l2 = m.l2_bytes > 0.0 && t.alloc_bytes <= m.l2_bytes;
    let kernels: Vec<KernelEstimate> = p.kernels.iter().map(|k| kernel_time(k, m, in_l2)).collect();
    let kernel_ms: f64 = kernels.iter().map(|k| k.ms).sum();
    Estimate {
        transfer_ms,
        kernel_ms,
        total_ms: transfer_ms + kernel_ms,
        kernels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Transfers;

    fn model() -> GpuModel {
        GpuModel {
            moves_bytes: true,
            launch_us: 5.0,
            buffer_us: 100.0,
            copy_us: 10.0,
            transfer_gbs: 10.0,
            transfer_out_gbs: 10.0,
            first_touch_gbs: 1.0,
            thread_instance_ns: 10.0,
            thread_access_ns: 100.0,
            thread_far_access_ns: 100.0,
            thread_copy_ns: 100.0,
            barrier_ns: 20.0,
            resident_threads: 100_000.0,
            memory_gbs: 1000.0,
            l2_gbs: 1000.0,
            l2_bytes: 0.0,
            fp64_gflops: 1000.0,
            fp32_gflops: 2000.0,
            atomic_ns: 100.0,
        }
    }

    #[test]
    fn each_limit_can_bind() {
        let m = model();
        let mut k = KernelProfile {
            launches: 1000.0,
            ..Default::default()
        };
        // Nothing but launches: 1000 x 5 us.
        let e = kernel_time(&k, &m, false);
        assert_eq!(e.bound, Bound::Launches);
        assert!((e.ms - 5.0).abs() < 1e-9);
        // One thread of 1e6 instances: 10 ms of span.
        k.span.instances = 1e6;
        k.work.instances = 1e6;
        let e = kernel_time(&k, &m, false);
        assert_eq!(e.bound, Bound::Span);
        assert!((e.ms - 15.0).abs() < 1e-6, "{}", e.ms);
        // 1e12 bytes at 1000 GB/s: a second.
        k.work.global_bytes = 1e12;
        assert_eq!(kernel_time(&k, &m, false).bound, Bound::Memory);
        k.work.flops64 = 1e13;
        assert_eq!(kernel_time(&k, &m, false).bound, Bound::Arithmetic);
        k.work.instances = 1e15;
        assert_eq!(kernel_time(&k, &m, false).bound, Bound::Throughput);
        // 1e13 updates of one address at 100 ns: 1e6 seconds.
        k.work.atomics = 1e13;
        let e = kernel_time(&k, &m, false);
        assert_eq!(e.bound, Bound::Atomics);
        assert!((e.ms - 5.0 - 1e9).abs() < 1.0, "{}", e.ms);
    }

    #[test]
    fn regions_whose_buffers_fit_in_l2_move_bytes_at_its_rate() {
        let m = GpuModel {
            l2_gbs: 4000.0,
            l2_bytes: 50e6,
            ..model()
        };
        let k = KernelProfile {
            launches: 1.0,
            work: Work {
                global_bytes: 4e9,
                ..Default::default()
            },
            ..Default::default()
        };
        let region = |alloc_bytes: f64| RegionProfile {
            region: "f:1".into(),
            params: vec![],
            runs: true,
            kernels: vec![k.clone()],
            transfers: Transfers {
                alloc_bytes,
                ..Default::default()
            },
            unknown: 0,
        };
        // 4 GB at 1000 GB/s, or at 4000 from the cache, plus the launch.
        let far = estimate(&region(60e6), &m).kernel_ms;
        let near = estimate(&region(40e6), &m).kernel_ms;
        assert!((far - 4.005).abs() < 1e-9, "{}", far);
        assert!((near - 1.005).abs() < 1e-9, "{}", near);
        // Without a cache size, nothing fits.
        let none = GpuModel { l2_bytes: 0.0, ..m };
        assert!((estimate(&region(0.0), &none).kernel_ms - 4.005).abs() < 1e-9);
    }

    #[test]
    fn transfers_and_kernels_add_up() {
        let m = model();
        let p = RegionProfile {
            transfers: Transfers {
                buffers: 2,
                alloc_bytes: 2e7,
                copies_in: 2,
                bytes_in: 2e7,
                copies_out: 1,
                bytes_out: 1e7,
                bytes_out_fresh: 0.0,
            },
            kernels: vec![KernelProfile {
                launches: 1.0,
                ..Default::default()
            }],
            ..Default::default()
        };
        let e = estimate(&p, &m);
        // 0.2 ms of buffers, 0.03 ms of copy calls, 3 ms of bytes.
        assert!((e.transfer_ms - 3.23).abs() < 1e-9, "{}", e.transfer_ms);
        assert!((e.total_ms - 3.235).abs() < 1e-9, "{}", e.total_ms);
        // On the host's memory only the buffers cost.
        let shared = GpuModel {
            moves_bytes: false,
            ..m
        };
        let e = estimate(&p, &shared);
        assert!((e.transfer_ms - 0.2).abs() < 1e-9, "{}", e.transfer_ms);
    }
}
