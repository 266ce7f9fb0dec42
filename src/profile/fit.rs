//! Fitting a device's `[gpu_model]` constants to measured times: the
//! constants that minimise the sum of squared logarithms of estimated
//! over measured time (a factor of 2 too slow costs what a factor of 2
//! too fast does, and a 5 ms region weighs what a 5 s one does), found by
//! coordinate descent in log space within bounds (each constant in turn
//! multiplied and divided by a step, which halves when no move helps).

use super::estimate::estimate;
use super::RegionProfile;
use crate::device::GpuModel;

/// One measured region: its profile, its region time and, where measured,
/// the time of its kernels alone (ms).
pub struct Sample<'a> {
    pub name: String,
    pub profile: &'a RegionProfile,
    pub region_ms: f64,
    pub kernel_ms: Option<f64>,
}

/// The constants a fit may move, with their bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Constant {
    LaunchUs,
    BufferUs,
    CopyUs,
    TransferGbs,
    TransferOutGbs,
    FirstTouchGbs,
    ThreadInstanceNs,
    ThreadAccessNs,
    ThreadFarAccessNs,
    ThreadCopyNs,
    BarrierNs,
    ResidentThreads,
    MemoryGbs,
}

impl Constant {
    pub const ALL: [Constant; 13] = [
        Constant::LaunchUs,
        Constant::BufferUs,
        Constant::CopyUs,
        Constant::TransferGbs,
        Constant::TransferOutGbs,
        Constant::FirstTouchGbs,
        Constant::ThreadInstanceNs,
        Constant::ThreadAccessNs,
        Constant::ThreadFarAccessNs,
        Constant::ThreadCopyNs,
        Constant::BarrierNs,
        Constant::ResidentThreads,
        Constant::MemoryGbs,
    ];

    fn slot(self, m: &mut GpuModel) -> &mut f64 {
        match self {
            Constant::LaunchUs => &mut m.launch_us,
            Constant::BufferUs => &mut m.buffer_us,
            Constant::CopyUs => &mut m.copy_us,
            Constant::TransferGbs => &mut m.transfer_gbs,
            Constant::TransferOutGbs => &mut m.transfer_out_gbs,
            Constant::FirstTouchGbs => &mut m.first_touch_gbs,
            Constant::ThreadInstanceNs => &mut m.thread_instance_ns,
            Constant::ThreadAccessNs => &mut m.thread_access_ns,
            Constant::ThreadFarAccessNs => &mut m.thread_far_access_ns,
            Constant::ThreadCopyNs => &mut m.thread_copy_ns,
            Constant::BarrierNs => &mut m.barrier_ns,
            Constant::ResidentThreads => &mut m.resident_threads,
            Constant::MemoryGbs => &mut m.memory_gbs,
        }
    }

    /// Physically sensible ranges (an H100-class GPU on PCIe or NVLink-C2C).
    fn bounds(self) -> (f64, f64) {
        match self {
            Constant::LaunchUs => (1.0, 50.0),
            Constant::BufferUs => (1.0, 5000.0),
            Constant::CopyUs => (1.0, 1000.0),
            Constant::TransferGbs | Constant::TransferOutGbs => (1.0, 100.0),
            Constant::FirstTouchGbs => (0.1, 100.0),
            Constant::ThreadInstanceNs => (0.5, 200.0),
            Constant::ThreadAccessNs => (0.1, 100.0),
            Constant::ThreadFarAccessNs => (1.0, 2000.0),
            Constant::ThreadCopyNs => (1.0, 2000.0),
            Constant::BarrierNs => (1.0, 2000.0),
            Constant::ResidentThreads => (1e3, 1e6),
            Constant::MemoryGbs => (100.0, 20000.0),
        }
    }
}

/// log(estimate / measured) of each measured time of `s` under `m`.
pub fn log_errors(m: &GpuModel, s: &Sample) -> Vec<f64> {
    let e = estimate(s.profile, m);
    let mut out = vec![(e.total_ms / s.region_ms).ln()];
    if let Some(k) = s.kernel_ms {
        out.push((e.kernel_ms / k).ln());
    }
    out
}

/// Sum of squared log errors over all samples.
pub fn objective(m: &GpuModel, samples: &[Sample]) -> f64 {
    samples
        .iter()
        .flat_map(|s| log_errors(m, s))
        .map(|e| if e.is_finite() { e * e } else { 1e6 })
        .sum()
}

/// The constants in `free` fitted to `samples`, from `start`.
pub fn fit(start: GpuModel, free: &[Constant], samples: &[Sample]) -> GpuModel {
    let mut m = start;
    for c in free {
        let (lo, hi) = c.bounds();
        let v = c.slot(&mut m);
        *v = v.clamp(lo, hi);
    }
    let mut best = objective(&m, samples);
    let mut step = 2.0f64.ln() * 2.0;
    while step > 1e-3 {
        let mut moved = false;
        for c in free {
            let (lo, hi) = c.bounds();
            for dir in [1.0, -1.0] {
                let mut trial = m;
                let v = c.slot(&mut trial);
                *v = (*v * (dir * step).exp()).clamp(lo, hi);
                let o = objective(&trial, samples);
                if o < best - 1e-12 {
                    (m, best, moved) = (trial, o, true);
                }
            }
        }
        if !moved {
            step /= 2.0;
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{KernelProfile, Transfers, Work};

    #[test]
    fn recovers_the_constants_that_made_the_times() {
        let truth = GpuModel {
            moves_bytes: true,
            launch_us: 4.0,
            buffer_us: 200.0,
            copy_us: 20.0,
            transfer_gbs: 8.0,
            transfer_out_gbs: 16.0,
            first_touch_gbs: 1.0,
            thread_instance_ns: 30.0,
            thread_access_ns: 5.0,
            thread_far_access_ns: 150.0,
            thread_copy_ns: 300.0,
            barrier_ns: 40.0,
            resident_threads: 200_000.0,
            memory_gbs: 2500.0,
            l2_gbs: 2500.0,
            l2_bytes: 0.0,
            fp64_gflops: 30000.0,
            fp32_gflops: 60000.0,
            atomic_ns: 100.0,
        };
        // Regions bound by copies, launches, span and memory in turn.
        let profiles: Vec<RegionProfile> = (0..8)
            .map(|i| {
                let s = (i + 1) as f64;
                RegionProfile {
                    transfers: Transfers {
                        buffers: i % 3 + 1,
                        copies_in: i % 2 + 1,
                        bytes_in: 1e7 * s * ((i % 4) as f64),
                        copies_out: 1,
                        bytes_out: 1e7 * s * ((i % 3) as f64),
                        ..Default::default()
                    },
                    kernels: vec![KernelProfile {
                        launches: [1.0, 5000.0, 1.0, 20.0][i % 4] * s,
                        work: Work {
                            instances: 1e8 * s,
                            global_accesses: 3e8 * s,
                            global_bytes: [1e9, 1e6, 1e6, 1e10][i % 4] * s,
                            ..Default::default()
                        },
                        span: Work {
                            instances: [10.0, 10.0, 1e5, 10.0][i % 4] * s,
                            global_accesses: [10.0, 10.0, 3e5, 10.0][i % 4],
                            ..Default::default()
                        },
                        ..Default::default()
                    }],
                    ..Default::default()
                }
            })
            .collect();
        let samples: Vec<Sample> = profiles
            .iter()
            .enumerate()
            .map(|(i, p)| Sample {
                name: i.to_string(),
                profile: p,
                region_ms: estimate(p, &truth).total_ms,
                kernel_ms: Some(estimate(p, &truth).kernel_ms),
            })
            .collect();
        let mut start = truth;
        start.launch_us = 20.0;
        start.transfer_gbs = 30.0;
        start.transfer_out_gbs = 3.0;
        start.memory_gbs = 800.0;
        let got = fit(
            start,
            &[
                Constant::LaunchUs,
                Constant::TransferGbs,
                Constant::TransferOutGbs,
                Constant::MemoryGbs,
            ],
            &samples,
        );
        assert!(objective(&got, &samples) < 1e-4);
        assert!((got.launch_us / 4.0 - 1.0).abs() < 0.05, "{:?}", got);
        assert!((got.memory_gbs / 2500.0 - 1.0).abs() < 0.05, "{:?}", got);
        assert!((got.transfer_gbs / 8.0 - 1.0).abs() < 0.05, "{:?}", got);
        assert!(
            (got.transfer_out_gbs / 16.0 - 1.0).abs() < 0.05,
            "{:?}",
            got
        );
    }
}
