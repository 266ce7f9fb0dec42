//! Shared by the benchmarks: which PolyBench kernels to measure.
#![allow(dead_code)]

use std::path::PathBuf;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `name` is selected by the command line: its non-flag arguments
/// are substrings to match; none selects everything.
pub fn selected(name: &str) -> bool {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()))
}

/// The median of `v` (the upper one of an even count), `None` if empty.
pub fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    Some(v[v.len() / 2])
}

/// The selected kernels of `polybench/kernels.txt`: name and source path.
pub fn polybench_kernels() -> Vec<(String, PathBuf)> {
    let polybench = root().join("polybench");
    let list = std::fs::read_to_string(polybench.join("kernels.txt")).expect("kernels.txt");
    list.lines()
        .filter_map(|line| {
            let mut it = line.split_whitespace();
            Some((it.next()?.to_string(), polybench.join(it.next()?)))
        })
        .filter(|(name, _)| selected(name))
        .collect()
}
