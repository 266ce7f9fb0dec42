//! pencilc: a polyhedral source-to-source GPU parallelizer for C99/PENCIL.
//!
//! The pipeline, one module per stage, each taking the previous stage's
//! output: `front` (C to region syntax) → `scop` (polyhedral model) → `deps`
//! (dataflow) → `sched` (schedule) → `valid` (legality check) → `map` (GPU
//! mapping) → `ast` (isl AST) → `back` (OpenCL, CUDA, C). `driver` runs them.
//! `profile` reads the AST of a device version to estimate its GPU time.

pub mod ast;
pub mod back;
pub mod batch;
pub mod build_step;
pub mod clock;
pub mod cmdline;
pub mod depfile;
pub mod deps;
pub mod device;
pub mod diag;
pub mod driver;
pub mod files;
pub mod front;
pub mod harness;
pub mod isl;
pub mod ladder;
pub mod map;
pub mod path_serde;
pub mod process;
pub mod profile;
pub mod sched;
pub mod scop;
pub mod valid;
pub mod watchdog;
