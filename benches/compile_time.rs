//! Compile time per PolyBench kernel (`cargo bench`): runs the whole
//! pipeline in-process (no file writes) and reports the median of several
//! runs. Speed targets live here, not in timed tests.

use pencilc::back::Target;
use pencilc::driver::{compile_file, Emit, Options};
use pencilc::front::CppOptions;
use std::path::PathBuf;
use std::time::Instant;

mod common;

fn main() {
    let root = common::root();
    let mut total = 0.0;
    println!("{:<16} {:>10}", "kernel", "median ms");
    for (name, src) in common::polybench_kernels() {
        let opts = Options {
            target: Target::OpenCl,
            // Stop before writing files: everything up to the mapping runs.
            emit: Some(Emit::Schedule),
            cpp: CppOptions {
                cpp: None,
                include_dirs: vec![
                    root.join("polybench/utilities"),
                    src.parent().unwrap().to_path_buf(),
                ],
                defines: vec!["LARGE_DATASET".into()],
            },
            sched: pencilc::sched::SchedOptions {
                worker: Some(PathBuf::from(env!("CARGO_BIN_EXE_pencilc"))),
                ..Default::default()
            },
            ..Options::default()
        };
        let mut times = Vec::new();
        for _ in 0..3 {
            let t = Instant::now();
            let ok = compile_file(&src, &opts).is_ok();
            times.push(t.elapsed().as_secs_f64() * 1e3);
            if !ok {
                break;
            }
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let med = times[times.len() / 2];
        total += med;
        println!("{:<16} {:>10.1}", name, med);
    }
    println!("{:<16} {:>10.1}", "total", total);
}
