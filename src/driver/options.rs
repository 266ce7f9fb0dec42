//! What one compilation is asked to do: the command line, parsed.

use crate::back::Target;
use crate::diag::WarningPolicy;
use crate::front::CppOptions;
use crate::ladder::Rung;
use crate::map::MapOptions;
use crate::{sched, scop};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    Scop,
    Deps,
    Schedule,
    /// Each region's GPU profile and estimate (`profile::text::records`).
    GpuModel,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub target: Target,
    /// `--openmp`: the C target prints each region's CPU version (tiled,
    /// OpenMP `parallel for` on parallel loops) instead of the mapped
    /// program's blocks and threads as loops.
    pub openmp: bool,
    /// OpenCL and CUDA programs choose, each time a region runs, between
    /// its device version, its host version and the original code
    /// (`back::choice`); `--no-versioning` turns it off (device always).
    pub versioning: bool,
    /// The cost model of that choice, and the device it describes.
    pub costs: crate::device::CostModel,
    /// Whether the choice's device estimates are scaled to the GPU model
    /// (`Device::choice_follows_gpu_model`).
    pub choice_follows_gpu_model: bool,
    pub device_name: String,
    /// The device's GPU model (`[gpu_model]`): where set, `-v` and `--emit
    /// gpu-model` report each region's GPU profile and estimate.
    pub gpu_model: Option<crate::device::GpuModel>,
    /// `--gpu-model-params`: parameter values for that report.
    pub gpu_model_params: Vec<(String, i64)>,
    /// The host output file (single input only).
    pub output: Option<PathBuf>,
    pub output_dir: Option<PathBuf>,
    pub cpp: CppOptions,
    pub emit: Option<Emit>,
    pub verbose: bool,
    pub map: MapOptions,
    pub max_operations: u64,
    /// Scheduler, fusion, budget (`sched.worker`: the pencilc executable
    /// that runs isl's scheduler, default this one).
    pub sched: sched::SchedOptions,
    /// Write each region's schedule tree here (`--save-schedule`).
    pub save_schedule: Option<PathBuf>,
    /// Use the schedule trees in this file instead of scheduling.
    pub load_schedule: Option<PathBuf>,
    /// The command line, for the header of generated files, without the
    /// inputs (`cmdline::recorded`): the file compiled is added to it.
    pub command: String,
    /// What warnings count for (`-w`, `-Werror`).
    pub warnings: WarningPolicy,
    /// `--device FILE`: the description file read (an input, for `-MD`).
    pub device_file: Option<PathBuf>,
    /// `--write-if-changed`: leave an output whose contents would not
    /// change untouched, so that its time stamp stays (Ninja's `restat`).
    pub write_if_changed: bool,
    /// Device code for the functions regions call (`--opencl-include-file`,
    /// `--cuda-include-file`).
    pub opencl_include: Vec<PathBuf>,
    pub cuda_include: Vec<PathBuf>,
    /// How long one region's compilation may take, all its rungs together
    /// (`--schedule-timeout`).
    pub region_timeout: Duration,
    /// Where every region starts on the ladder (`--ladder-start`).
    pub first_rung: Rung,
    /// Regions (by index in the file) to start lower on the ladder.
    pub start_rungs: BTreeMap<usize, Rung>,
    /// Regions (by index) with less than `region_timeout` left (the
    /// watchdog's restarts).
    pub region_budgets: BTreeMap<usize, Duration>,
    /// Announce each rung started on stderr (`PROGRESS_PREFIX`).
    pub progress: bool,
    /// `--debug-fault` (see `debug_fault`).
    pub debug_fault: Option<String>,
    /// Which accumulations become reductions (`--reductions`).
    pub reductions: scop::ReductionMode,
    /// `--hoist`: when a schedule with sequential rows hoisted out of
    /// bands replaces the region's (`driver::region`).
    pub hoist: HoistPolicy,
    /// `--expand-private`: when privatised arrays get a copy per
    /// iteration in device memory (`driver::region::with_expansion`), by
    /// the same three policies.
    pub expand: HoistPolicy,
    /// `--split-reductions`: when accumulations with a parallel loop of
    /// their own are split in partial results (`driver::region::
    /// with_partials`), by the same three policies.
    pub split_reductions: HoistPolicy,
    /// `--whole-program`: no other file calls the input's functions
    /// (`front::parse_file_with`).
    pub whole_program: bool,
}

/// When a region takes a schedule with a sequential row hoisted out of a
/// band, around kernels of the parallel rows it was inside (`--hoist`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HoistPolicy {
    /// Where the device's GPU model estimates it well under the region's
    /// own schedule.
    #[default]
    Model,
    /// Wherever it differs from the region's schedule (for testing the
    /// transformation, which the model takes rarely on small programs).
    Always,
    Never,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target: Target::OpenCl,
            openmp: false,
            versioning: true,
            costs: crate::device::Device::default_for_opencl().cost_model(),
            choice_follows_gpu_model: false,
            device_name: crate::device::Device::default_for_opencl().name,
            gpu_model: None,
            gpu_model_params: Vec::new(),
            output: None,
            output_dir: None,
            cpp: CppOptions::default(),
            emit: None,
            verbose: false,
            map: MapOptions::default(),
            max_operations: crate::isl::DEFAULT_MAX_OPERATIONS,
            sched: sched::SchedOptions::default(),
            save_schedule: None,
            load_schedule: None,
            command: String::new(),
            warnings: WarningPolicy::default(),
            device_file: None,
            write_if_changed: false,
            opencl_include: Vec::new(),
            cuda_include: Vec::new(),
            region_timeout: Duration::from_secs(sched::DEFAULT_TIMEOUT_SECS),
            first_rung: Rung::Full,
            start_rungs: BTreeMap::new(),
            region_budgets: BTreeMap::new(),
            progress: false,
            debug_fault: None,
            reductions: scop::ReductionMode::default(),
            hoist: HoistPolicy::Model,
            expand: HoistPolicy::Model,
            split_reductions: HoistPolicy::Model,
            whole_program: false,
        }
    }
}
