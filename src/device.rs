//! Device descriptions: what the mapper and the memory planner need to know
//! about the machine a kernel will run on (in the spirit of MCL's hardware
//! descriptions, reduced to the quantities pencilc decides with).
//!
//! A description is a small TOML file; pencilc has a few built in
//! (`--device nvidia-h100`, `--device generic-opencl-cpu`, ...). Defaults
//! for block sizes and the shared-memory budget come from it, so that a
//! user who names the device gets sizes that fit it.

use crate::diag::{Code, Diagnostic, Result};
use serde::Deserialize;
use std::path::Path;

/// One device. Every field is checked to be positive when read, so the
/// mapper can divide by them.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Device {
    /// Human-readable name, for `-v` and `--dump-sizes`.
    pub name: String,
    /// Threads that execute in lock step (NVIDIA warp, SIMD width on CPUs):
    /// the innermost block size is a multiple of it where possible, so that
    /// consecutive threads make coalesced (or vectorised) accesses.
    pub simd_width: i64,
    /// Largest number of threads (work-items) in one block (work-group).
    pub max_threads_per_block: i64,
    /// Shared (local) memory available to one block, in bytes; the default
    /// `--max-shared-memory` budget.
    pub shared_memory_per_block: i64,
    /// 32-bit registers available to one thread; caps register tiles.
    pub registers_per_thread: i64,
    /// Whether a thread may keep a register tile of several elements (an
    /// unrolled private array) live across the barriers of shared-memory
    /// copies. On by default; the OpenCL CPU description turns it off,
    /// because PoCL 3.1 miscompiles such kernels (3mm's fused kernel writes
    /// out of bounds on PoCL although every work-item's addresses are in
    /// bounds), and on a CPU the tile buys nothing over the cache.
    #[serde(default = "yes")]
    pub register_tiles_across_barriers: bool,
    /// Whether a time-skewed band with no parallel row runs as a wavefront
    /// of tiles, one thread per tile (locality: right for a CPU), or, where
    /// the time loop alone carries the dependences, as a sequential time
    /// loop around fully parallel kernels (PPCG's mapping: thousands of
    /// threads per launch, right for a GPU).
    #[serde(default = "yes")]
    pub wavefront: bool,
    /// Whether written arrays may use shared-memory tiles with write-back.
    /// Off in the OpenCL CPU description: PoCL 3.1 miscompiles adi's
    /// write-back kernels, which give the sequential results when their
    /// work-items run as threads with real barriers.
    #[serde(default = "yes")]
    pub shared_write_back: bool,
    /// Whether a group whose only reuse is a stencil's halo (neighbouring
    /// threads reading neighbouring elements) or within one thread goes to
    /// shared memory. Off for GPUs that cache global loads in L1: on an
    /// H200, jacobi-2d took 19.2 ms with its halos in shared memory and
    /// 14.0 ms without, fdtd-2d 19.4 and 15.5 ms. Groups read by many
    /// threads (gemm's A and B) and uncoalesced ones still go there.
    #[serde(default = "yes")]
    pub shared_for_halo: bool,
    /// Banks of shared memory, each 4 bytes wide (32 on every NVIDIA GPU
    /// since Maxwell and on AMD's LDS); 0 where local memory has no banks
    /// (a CPU). Threads of a warp that read one column of a tile whose
    /// rows are a multiple of the banks apart all wait on one bank (a
    /// 32x32 tile of doubles read by column: 16 accesses in turn); such
    /// tiles get one more element per row.
    #[serde(default = "thirty_two")]
    pub shared_memory_banks: i64,
    /// Whether the device works on the host's memory (OpenCL's
    /// `CL_DEVICE_HOST_UNIFIED_MEMORY`: PoCL, integrated GPUs). The
    /// generated code asks the device itself and, where it says so, wraps
    /// the user's arrays instead of copying them; this tells the cost
    /// models (the run-time choice's and the GPU model) that a region
    /// then moves no bytes.
    #[serde(default)]
    pub host_unified_memory: bool,
    /// Global memory bandwidth, GB/s (reported, and used by `-v`).
    pub memory_bandwidth_gbs: f64,
    /// The last-level cache in front of global memory, bytes (the GPU
    /// model serves a region whose buffers all fit in it at
    /// `[gpu_model] l2_gbs`).
    #[serde(default)]
    pub l2_cache_bytes: Option<f64>,
    /// Peak double-precision rate, GFLOP/s.
    pub peak_gflops_fp64: f64,
    /// Peak single-precision rate, GFLOP/s.
    pub peak_gflops_fp32: f64,
    /// The run-time choice between a region's versions (`back::choice`):
    /// what one launch, one byte copied and one statement instance cost on
    /// the device, and one instance and one parallel loop on the host it
    /// is attached to. Where a description lacks them, they follow from
    /// its other fields (`Costs::of`); `pencilc-harness --calibrate`
    /// measures them and writes a description with them.
    #[serde(default)]
    pub costs: Costs,
    /// The GPU cost model of `profile::estimate` (`[gpu_model]`): present
    /// in the descriptions of GPUs only, whose compilations `-v` reports
    /// a profile and an estimate for.
    #[serde(default)]
    pub gpu_model: Option<GpuModelTable>,
}

fn yes() -> bool {
    true
}

fn thirty_two() -> i64 {
    32
}

/// The cost model's constants (all optional in a description's
/// `[costs]` table). Times are those of this machine's runs, not peaks.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// One kernel launch, from the host's call to its end (an empty
    /// kernel), microseconds.
    pub launch_latency_us: Option<f64>,
    /// Copies between host and device memory, GB/s.
    pub transfer_bandwidth_gbs: Option<f64>,
    /// The one-time setup (context, queue, kernel build), milliseconds:
    /// paid by the first region that runs on the device.
    pub setup_ms: Option<f64>,
    /// One statement instance on the device, nanoseconds (all its cores).
    pub device_ns_per_instance: Option<f64>,
    /// One statement instance of a kernel that runs on one work-item (no
    /// parallel loop: a recurrence left on the device to save copies), ns.
    pub device_serial_ns_per_instance: Option<f64>,
    /// One statement instance of the original code on the host, ns.
    pub host_ns_per_instance: Option<f64>,
    /// One statement instance of the host version (tiled, its loops
    /// reordered) on one thread, ns.
    pub host_version_ns_per_instance: Option<f64>,
    /// Entering and leaving one OpenMP parallel loop, microseconds.
    pub host_fork_us: Option<f64>,
    /// Starting OpenMP's threads, milliseconds: paid by the first parallel
    /// loop of a process.
    pub host_setup_ms: Option<f64>,
    /// Running the host version, besides its instances and parallel loops
    /// (its code's first run), microseconds.
    pub host_region_us: Option<f64>,
    /// How much of each extra host thread a parallel loop gets (0..1).
    pub host_parallel_efficiency: Option<f64>,
}

/// `[gpu_model]`: the constants of a GPU's estimated region time
/// (`profile::estimate`), each optional (`GpuModel` fills in the rest).
/// `devices/nvidia-h100.toml` has them fitted to measured times, and says
/// how.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct GpuModelTable {
    /// One launch, as the host issues launches back to back, us.
    pub launch_us: Option<f64>,
    /// Allocating and freeing one device buffer, us.
    pub buffer_us: Option<f64>,
    /// One copy between host and device memory, besides its bytes, us.
    pub copy_us: Option<f64>,
    /// Copies from host (pageable) into device memory, GB/s; and back,
    /// where `transfer_out_gbs` is not given.
    pub transfer_gbs: Option<f64>,
    /// Copies from device into host memory the program has touched, GB/s
    /// (a PCIe host takes them about twice as fast as copies in: on an
    /// H200, 32 MB out in 2.2-2.5 ms pageable, in in 3.9-5.6 ms).
    pub transfer_out_gbs: Option<f64>,
    /// Copies from the device into host memory the program has not
    /// touched yet (each page faults on its first write), GB/s.
    pub first_touch_gbs: Option<f64>,
    /// One statement instance of one thread, its operands at hand, ns.
    pub thread_instance_ns: Option<f64>,
    /// One global-memory access in one thread's chain that stays in the
    /// cache line the same access used one iteration before (an L1 hit),
    /// ns.
    pub thread_access_ns: Option<f64>,
    /// One that leaves it (L2 or memory), ns: the latency that the
    /// thread's own independent accesses do not hide.
    pub thread_far_access_ns: Option<f64>,
    /// One element of a thread's copy loop between global memory and
    /// shared memory or registers, ns.
    pub thread_copy_ns: Option<f64>,
    /// One barrier, ns.
    pub barrier_ns: Option<f64>,
    /// Threads whose chains the GPU overlaps: its multiprocessors times
    /// the threads each keeps resident.
    pub resident_threads: Option<f64>,
    /// The share of `memory_bandwidth_gbs` that kernels reach (0..1].
    pub memory_efficiency: Option<f64>,
    /// The bandwidth kernels reach when every buffer of their region fits
    /// in `l2_cache_bytes` (their traffic then mostly hits the cache),
    /// GB/s; at least the memory's.
    pub l2_gbs: Option<f64>,
    /// The share of the peak rates that kernels reach (0..1].
    pub flops_efficiency: Option<f64>,
    /// One atomic update of an address that the launch's other threads
    /// update too, ns: such updates take turns.
    pub atomic_ns: Option<f64>,
}

/// The GPU model with every constant filled in (rates already scaled by
/// their efficiencies).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GpuModel {
    /// Whether copies move bytes (`Device::host_unified_memory`).
    pub moves_bytes: bool,
    pub launch_us: f64,
    pub buffer_us: f64,
    pub copy_us: f64,
    pub transfer_gbs: f64,
    /// Copies out (`transfer_gbs` where the description gives none).
    #[serde(default)]
    pub transfer_out_gbs: f64,
    pub first_touch_gbs: f64,
    pub thread_instance_ns: f64,
    pub thread_access_ns: f64,
    pub thread_far_access_ns: f64,
    pub thread_copy_ns: f64,
    pub barrier_ns: f64,
    pub resident_threads: f64,
    pub memory_gbs: f64,
    /// `l2_gbs`, for regions whose buffers fit in `l2_bytes` (0: none do).
    pub l2_gbs: f64,
    pub l2_bytes: f64,
    pub fp64_gflops: f64,
    pub fp32_gflops: f64,
    #[serde(default)]
    pub atomic_ns: f64,
}

impl GpuModelTable {
    /// The table's constants over a device's rates, each missing one a
    /// plausible value for a discrete GPU on PCIe.
    pub fn fill(&self, d: &Device) -> GpuModel {
        let flops = self.flops_efficiency.unwrap_or(0.5);
        let memory_gbs = d.memory_bandwidth_gbs * self.memory_efficiency.unwrap_or(0.7);
        GpuModel {
            moves_bytes: !d.host_unified_memory,
            launch_us: self.launch_us.unwrap_or(5.0),
            buffer_us: self.buffer_us.unwrap_or(100.0),
            copy_us: self.copy_us.unwrap_or(10.0),
            transfer_gbs: self.transfer_gbs.unwrap_or(10.0),
            transfer_out_gbs: self.transfer_out_gbs.or(self.transfer_gbs).unwrap_or(10.0),
            first_touch_gbs: self.first_touch_gbs.unwrap_or(2.0),
            thread_instance_ns: self.thread_instance_ns.unwrap_or(10.0),
            thread_access_ns: self.thread_access_ns.unwrap_or(5.0),
            thread_far_access_ns: self.thread_far_access_ns.unwrap_or(50.0),
            thread_copy_ns: self.thread_copy_ns.unwrap_or(200.0),
            barrier_ns: self.barrier_ns.unwrap_or(50.0),
            resident_threads: self.resident_threads.unwrap_or(100_000.0),
            memory_gbs,
            l2_gbs: self.l2_gbs.unwrap_or(memory_gbs).max(memory_gbs),
            l2_bytes: d.l2_cache_bytes.unwrap_or(0.0),
            fp64_gflops: d.peak_gflops_fp64 * flops,
            fp32_gflops: d.peak_gflops_fp32 * flops,
            atomic_ns: self.atomic_ns.unwrap_or(100.0),
        }
    }

    /// The fields and their values, for checks and messages.
    fn fields(&self) -> [(&'static str, Option<f64>); 16] {
        [
            ("gpu_model.launch_us", self.launch_us),
            ("gpu_model.buffer_us", self.buffer_us),
            ("gpu_model.copy_us", self.copy_us),
            ("gpu_model.transfer_gbs", self.transfer_gbs),
            ("gpu_model.transfer_out_gbs", self.transfer_out_gbs),
            ("gpu_model.first_touch_gbs", self.first_touch_gbs),
            ("gpu_model.thread_instance_ns", self.thread_instance_ns),
            ("gpu_model.thread_access_ns", self.thread_access_ns),
            ("gpu_model.thread_far_access_ns", self.thread_far_access_ns),
            ("gpu_model.thread_copy_ns", self.thread_copy_ns),
            ("gpu_model.barrier_ns", self.barrier_ns),
            ("gpu_model.resident_threads", self.resident_threads),
            ("gpu_model.memory_efficiency", self.memory_efficiency),
            ("gpu_model.flops_efficiency", self.flops_efficiency),
            ("gpu_model.l2_gbs", self.l2_gbs),
            ("gpu_model.atomic_ns", self.atomic_ns),
        ]
    }
}

/// The cost model's constants with every field filled in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostModel {
    /// Whether the device's copies move bytes (not where it works on the
    /// host's memory).
    pub moves_bytes: bool,
    pub launch_latency_us: f64,
    pub transfer_bandwidth_gbs: f64,
    pub setup_ms: f64,
    pub device_ns_per_instance: f64,
    pub device_serial_ns_per_instance: f64,
    pub host_ns_per_instance: f64,
    pub host_version_ns_per_instance: f64,
    pub host_fork_us: f64,
    pub host_setup_ms: f64,
    pub host_region_us: f64,
    pub host_parallel_efficiency: f64,
}

impl Device {
    /// Whether the run-time choice's device estimates follow the GPU model
    /// (`profile::chooser_scale`): a description with `[gpu_model]` whose
    /// device costs were not measured for the choice itself (`[costs]`,
    /// as `pencilc-harness --calibrate` writes them, which fits them to
    /// the formula as it stands).
    pub fn choice_follows_gpu_model(&self) -> bool {
        let c = &self.costs;
        self.gpu_model.is_some()
            && c.launch_latency_us.is_none()
            && c.transfer_bandwidth_gbs.is_none()
            && c.device_ns_per_instance.is_none()
            && c.device_serial_ns_per_instance.is_none()
    }

    /// The GPU model, for descriptions of GPUs (with `[gpu_model]`).
    pub fn gpu_model(&self) -> Option<GpuModel> {
        self.gpu_model.as_ref().map(|t| t.fill(self))
    }

    /// The description's costs, each missing one derived from its other
    /// fields: a launch of 10 us, copies at a tenth of the memory
    /// bandwidth (a bus, or PoCL's copies through host memory), an
    /// instance as two floating-point operations at a tenth of the peak
    /// rate on the device, ten nanoseconds on one work-item of it (a
    /// thread of a GPU or a CPU's vector lane, with no neighbours to hide
    /// its latencies) and one nanosecond on the host (in the host version
    /// too, unless it has its own); OpenMP's threads start in 0.1 ms (on
    /// bare metal; a virtual machine's idle cores wake far slower, which a
    /// calibration measures).
    ///
    /// A description with a GPU model (`[gpu_model]`) gives the device's
    /// costs from it instead: its launch latency and host link, one
    /// thread's chain per instance (an instance and a far access) on one
    /// work-item, and the resident threads sharing that chain, or the
    /// memory bandwidth moving two 8-byte accesses, whichever is slower,
    /// per instance otherwise. Each region's device estimate is then scaled
    /// to the GPU model's estimate of it at compile time
    /// (`profile::chooser_scale`).
    pub fn cost_model(&self) -> CostModel {
        let c = &self.costs;
        let gm = self.gpu_model();
        CostModel {
            moves_bytes: !self.host_unified_memory,
            launch_latency_us: c
                .launch_latency_us
                .or(gm.map(|m| m.launch_us))
                .unwrap_or(10.0),
            transfer_bandwidth_gbs: c
                .transfer_bandwidth_gbs
                .or(gm.map(|m| m.transfer_gbs))
                .unwrap_or(self.memory_bandwidth_gbs / 10.0),
            setup_ms: c.setup_ms.unwrap_or(100.0),
            device_ns_per_instance: c
                .device_ns_per_instance
                .or(gm.map(|m| {
                    let chain = m.thread_instance_ns + m.thread_far_access_ns;
                    (chain / m.resident_threads).max(16.0 / m.memory_gbs)
                }))
                .unwrap_or(2.0 / (self.peak_gflops_fp64 / 10.0)),
            device_serial_ns_per_instance: c
                .device_serial_ns_per_instance
                .or(gm.map(|m| m.thread_instance_ns + m.thread_far_access_ns))
                .unwrap_or(10.0),
            host_ns_per_instance: c.host_ns_per_instance.unwrap_or(1.0),
            host_version_ns_per_instance: c
                .host_version_ns_per_instance
                .or(c.host_ns_per_instance)
                .unwrap_or(1.0),
            host_fork_us: c.host_fork_us.unwrap_or(5.0),
            host_setup_ms: c.host_setup_ms.unwrap_or(0.1),
            host_region_us: c.host_region_us.unwrap_or(0.0),
            host_parallel_efficiency: c.host_parallel_efficiency.unwrap_or(0.8),
        }
    }
}

const H100: &str = include_str!("../devices/nvidia-h100.toml");
const H200: &str = include_str!("../devices/nvidia-h200.toml");
const GENERIC_CPU: &str = include_str!("../devices/generic-opencl-cpu.toml");
const GENERIC_GPU: &str = include_str!("../devices/generic-gpu.toml");

/// Built-in descriptions by name.
pub const BUILTIN: &[(&str, &str)] = &[
    ("nvidia-h100", H100),
    ("nvidia-h200", H200),
    ("generic-opencl-cpu", GENERIC_CPU),
    ("generic-gpu", GENERIC_GPU),
];

impl Device {
    /// The default for a target when `--device` is not given: CUDA output
    /// is for an NVIDIA GPU; OpenCL and C output for the generic CPU, which
    /// is where pencilc's own tests run them (PoCL).
    pub fn default_for_cuda() -> Device {
        Device::parse(H100, "nvidia-h100").expect("built-in description")
    }

    pub fn default_for_opencl() -> Device {
        Device::parse(GENERIC_CPU, "generic-opencl-cpu").expect("built-in description")
    }

    /// `--device NAME|FILE`: a built-in name, else a TOML file.
    /// Whether `--device` names a built-in description (else a file).
    pub fn is_builtin(arg: &str) -> bool {
        BUILTIN.iter().any(|(n, _)| *n == arg)
    }

    pub fn lookup(arg: &str) -> Result<Device> {
        if let Some((_, text)) = BUILTIN.iter().find(|(n, _)| *n == arg) {
            return Device::parse(text, arg);
        }
        let path = Path::new(arg);
        let text = crate::files::read_text(path, "device description").map_err(|e| {
            let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
            Diagnostic::error(
                Code::Usage,
                None,
                format!(
                    "--device {}: not a built-in device and not a readable file ({})",
                    arg, e.message
                ),
            )
            .with_hint(format!("built-in devices: {}", names.join(", ")))
        })?;
        Device::parse(&text, arg)
    }

    /// Parses and checks a description; `origin` names it in messages.
    pub fn parse(text: &str, origin: &str) -> Result<Device> {
        let d: Device = toml::from_str(text).map_err(|e| {
            Diagnostic::error(
                Code::Usage,
                None,
                format!("--device {}: {}", origin, e.to_string().trim_end()),
            )
            .with_hint("see devices/*.toml in pencilc's sources for the fields")
        })?;
        let ints = [
            ("simd_width", d.simd_width),
            ("max_threads_per_block", d.max_threads_per_block),
            ("shared_memory_per_block", d.shared_memory_per_block),
            ("registers_per_thread", d.registers_per_thread),
        ];
        let floats = [
            ("memory_bandwidth_gbs", d.memory_bandwidth_gbs),
            ("peak_gflops_fp64", d.peak_gflops_fp64),
            ("peak_gflops_fp32", d.peak_gflops_fp32),
        ];
        let bad = ints
            .iter()
            .filter(|(_, v)| *v < 1)
            .map(|(f, v)| (*f, v.to_string()))
            .chain(
                floats
                    .iter()
                    .filter(|(_, v)| !(*v > 0.0 && v.is_finite()))
                    .map(|(f, v)| (*f, v.to_string())),
            )
            .next();
        let c = &d.costs;
        let costs = [
            ("costs.launch_latency_us", c.launch_latency_us),
            ("costs.transfer_bandwidth_gbs", c.transfer_bandwidth_gbs),
            ("costs.setup_ms", c.setup_ms),
            ("costs.device_ns_per_instance", c.device_ns_per_instance),
            (
                "costs.device_serial_ns_per_instance",
                c.device_serial_ns_per_instance,
            ),
            ("costs.host_ns_per_instance", c.host_ns_per_instance),
            (
                "costs.host_version_ns_per_instance",
                c.host_version_ns_per_instance,
            ),
            ("costs.host_fork_us", c.host_fork_us),
            ("costs.host_setup_ms", c.host_setup_ms),
            ("costs.host_region_us", c.host_region_us),
            ("costs.host_parallel_efficiency", c.host_parallel_efficiency),
        ];
        let bad = bad.or_else(|| {
            costs
                .iter()
                .filter_map(|(f, v)| Some((*f, (*v)?)))
                .find(|(_, v)| !(*v >= 0.0 && v.is_finite()))
                .map(|(f, v)| (f, v.to_string()))
        });
        // The GPU model divides by every one of its constants.
        let bad = bad.or_else(|| {
            d.gpu_model
                .as_ref()?
                .fields()
                .iter()
                .filter_map(|(f, v)| Some((*f, (*v)?)))
                .find(|(_, v)| !(*v > 0.0 && v.is_finite()))
                .map(|(f, v)| (f, v.to_string()))
        });
        if let Some((field, v)) = bad {
            return Err(Diagnostic::error(
                Code::Usage,
                None,
                format!(
                    "--device {}: `{}` must be positive (costs: not negative; gpu_model: positive), not {}",
                    origin, field, v
                ),
            ));
        }
        Ok(d)
    }

    /// Default threads per block for 1, 2 and 3 thread dimensions,
    /// outermost first. The innermost (x) is a whole number of SIMD groups
    /// (consecutive threads, consecutive elements); outer dimensions fill the block up
    /// to 512 threads (PPCG's default block, which leaves room for several
    /// blocks per multiprocessor), within `max_threads_per_block`.
    pub fn default_blocks(&self) -> [Vec<i64>; 3] {
        let cap = self.max_threads_per_block.min(512);
        // At least 32 consecutive threads along x (a 256-byte run of
        // doubles), rounded up to whole SIMD groups.
        let w = self.simd_width.max(1);
        let x = ((32 + w - 1) / w * w).min(cap).max(1);
        let rest = (cap / x).max(1);
        let y2 = rest.min(16).max(1);
        let y3 = ((rest as f64).sqrt() as i64).clamp(1, 4);
        let z3 = (rest / y3).clamp(1, 4);
        [vec![x], vec![y2, x], vec![z3, y3, x]]
    }

    /// Machine balance: FLOPs per byte of global memory at peak (fp64).
    pub fn balance(&self) -> f64 {
        self.peak_gflops_fp64 / self.memory_bandwidth_gbs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_parse() {
        for (name, text) in BUILTIN {
            let d = Device::parse(text, name).unwrap();
            assert!(d.shared_memory_per_block > 0, "{}", name);
        }
    }

    #[test]
    fn h100_blocks_are_warp_multiples() {
        let d = Device::lookup("nvidia-h100").unwrap();
        let [b1, b2, b3] = d.default_blocks();
        assert_eq!(b1, vec![32]);
        assert_eq!(b2, vec![16, 32]);
        assert_eq!(b3, vec![4, 4, 32]);
        assert_eq!(d.shared_memory_per_block, 49152);
    }

    #[test]
    fn bad_descriptions_are_diagnosed() {
        let e = Device::parse("name = \"x\"", "x.toml").unwrap_err();
        assert!(e.message.contains("missing field"), "{}", e.message);
        let text = H100.replace("simd_width = 32", "simd_width = 0");
        let e = Device::parse(&text, "x.toml").unwrap_err();
        assert!(e.message.contains("simd_width"), "{}", e.message);
        let without_model = GENERIC_GPU.split("[gpu_model]").next().unwrap();
        let text = format!("{}\n[gpu_model]\nlaunch_us = 0.0\n", without_model);
        let e = Device::parse(&text, "x.toml").unwrap_err();
        assert!(e.message.contains("gpu_model.launch_us"), "{}", e.message);
        let text = format!("{}\n[gpu_model]\nlaunch_ms = 1.0\n", without_model);
        assert!(Device::parse(&text, "x.toml").is_err());
        let e = Device::lookup("no-such-device").unwrap_err();
        assert!(e.hint.as_deref().unwrap_or("").contains("nvidia-h100"));
    }
}
