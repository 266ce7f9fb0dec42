//! The run-time choice's device estimate anchored to the GPU model.
//!
//! A program chooses between a region's versions each time the region
//! runs (`back::choice`), from counts it can afford to compute then:
//! statement instances, those on one work-item, bytes copied and launches,
//! each at a constant cost. That formula knows nothing of spans, memory
//! traffic or occupancy, which the GPU model does, but the model needs the
//! mapped program interpreted at known sizes. So the compiler evaluates
//! both at the sizes the profile uses (the context's bounds, or
//! `--gpu-model-params`) and the program scales its device estimate by
//! their ratio: equal to the model's there, and following the counts
//! elsewhere.

use super::{Estimate, RegionProfile};
use crate::device::CostModel;

/// The factor scales are kept within: beyond it the two estimates
/// disagree on what the region is, and the counts alone decide.
const MAX_SCALE: f64 = 1e3;

/// The chooser's device work (seconds, setup left out) at the profile's
/// sizes: the formula of `choice.h.tera` over the profile's counts.
pub fn chooser_device_seconds(p: &RegionProfile, costs: &CostModel) -> f64 {
    let moved = if costs.moves_bytes { 1.0 } else { 0.0 };
    let mut launches = 0.0;
    let mut instances = 0.0;
    let mut serial = 0.0;
    for k in &p.kernels {
        launches += k.launches;
        instances += k.work.instances;
        if k.one_thread() {
            serial += k.work.instances;
        }
    }
    let bytes = p.transfers.bytes_in + p.transfers.bytes_out;
    launches * costs.launch_latency_us * 1e-6
        + moved * bytes / (costs.transfer_bandwidth_gbs * 1e9)
        + (instances - serial) * costs.device_ns_per_instance * 1e-9
        + serial * costs.device_serial_ns_per_instance * 1e-9
}

/// The factor the chooser's device work is multiplied by: the GPU model's
/// estimate over the chooser's own at the profile's sizes. `None` where
/// the profile is not exact (expressions it could not evaluate), the
/// region would not run there, or either side is empty.
pub fn chooser_scale(p: &RegionProfile, e: &Estimate, costs: &CostModel) -> Option<f64> {
    if !p.runs || p.unknown > 0 {
        return None;
    }
    let own = chooser_device_seconds(p, costs);
    let model = e.total_ms * 1e-3;
    if !(own > 0.0 && model > 0.0 && own.is_finite() && model.is_finite()) {
        return None;
    }
    Some((model / own).clamp(1.0 / MAX_SCALE, MAX_SCALE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{KernelProfile, Transfers, Work};

    fn costs() -> CostModel {
        CostModel {
            moves_bytes: true,
            launch_latency_us: 10.0,
            transfer_bandwidth_gbs: 1.0,
            setup_ms: 100.0,
            device_ns_per_instance: 0.01,
            device_serial_ns_per_instance: 100.0,
            host_ns_per_instance: 1.0,
            host_version_ns_per_instance: 1.0,
            host_fork_us: 5.0,
            host_setup_ms: 0.1,
            host_region_us: 0.0,
            host_parallel_efficiency: 0.8,
        }
    }

    fn region(unknown: usize) -> RegionProfile {
        let kernel = |launches: f64, threads: f64, instances: f64| KernelProfile {
            name: "kernel0".into(),
            block: vec![32],
            launches,
            blocks: launches,
            threads,
            work: Work {
                instances,
                ..Default::default()
            },
            span: Work::default(),
        };
        RegionProfile {
            region: "f:1".into(),
            params: vec![],
            runs: true,
            // 100 launches of a parallel kernel (1e8 instances), 10 of
            // one thread (1e4 instances).
            kernels: vec![kernel(100.0, 3200.0, 1e8), kernel(10.0, 10.0, 1e4)],
            transfers: Transfers {
                bytes_in: 1e6,
                bytes_out: 1e6,
                ..Default::default()
            },
            unknown,
        }
    }

    #[test]
    fn the_chooser_formula_counts_what_the_program_counts() {
        // 110 launches x 10 us + 2 MB at 1 GB/s + 1e8 x 0.01 ns + 1e4 x 100 ns.
        let want = 110.0 * 10e-6 + 2e-3 + 1e8 * 0.01e-9 + 1e4 * 100e-9;
        let got = chooser_device_seconds(&region(0), &costs());
        assert!((got - want).abs() < 1e-12, "{} {}", got, want);
    }

    #[test]
    fn the_scale_makes_the_chooser_say_what_the_model_says() {
        let p = region(0);
        let own = chooser_device_seconds(&p, &costs());
        let e = Estimate {
            transfer_ms: 1.0,
            kernels: vec![],
            kernel_ms: 9.0,
            total_ms: 10.0,
        };
        let s = chooser_scale(&p, &e, &costs()).unwrap();
        assert!((s * own - 10e-3).abs() < 1e-12);
        // Not where the profile guessed, nor beyond the bound.
        assert_eq!(chooser_scale(&region(1), &e, &costs()), None);
        let huge = Estimate {
            total_ms: 1e9,
            ..e.clone()
        };
        assert_eq!(chooser_scale(&p, &huge, &costs()), Some(MAX_SCALE));
    }
}
