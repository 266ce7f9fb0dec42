//! What a generated program's `PENCILC_PROFILE=1` lines say: where the
//! device version's time went (allocation, copies each way, kernels) and
//! the bytes it moved, summed over the region executions of one run.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RegionProfile {
    /// Region executions on the device (profile lines).
    pub executions: usize,
    pub alloc_ms: f64,
    pub copy_in_ms: f64,
    pub kernels_ms: f64,
    pub copy_out_ms: f64,
    pub bytes_in: u64,
    pub bytes_out: u64,
}

impl RegionProfile {
    /// The share of the region's time spent allocating and copying.
    pub fn data_share(&self) -> Option<f64> {
        let moving = self.alloc_ms + self.copy_in_ms + self.copy_out_ms;
        let total = moving + self.kernels_ms;
        (total > 0.0).then(|| moving / total)
    }
}

/// The sum of the profile lines of `stderr`
/// (`pencilc profile: REGION: alloc A ms, copy-in B ms, kernels C ms,
/// copy-out D ms, bytes in N, bytes out M`); `None` where there are none.
pub fn parse(stderr: &str) -> Option<RegionProfile> {
    let mut p = RegionProfile::default();
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix("pencilc profile: ") else {
            continue;
        };
        // The region's name may hold ": " (a path); the fields follow the last.
        let Some((_, fields)) = rest.rsplit_once("): ") else {
            continue;
        };
        let mut one = RegionProfile {
            executions: 1,
            ..RegionProfile::default()
        };
        let mut seen = 0;
        for field in fields.split(", ") {
            let (name, value) = match field.strip_suffix(" ms") {
                Some(f) => f.rsplit_once(' ').unwrap_or(("", "")),
                None => field.rsplit_once(' ').unwrap_or(("", "")),
            };
            let ms = value.parse::<f64>().ok();
            let bytes = value.parse::<u64>().ok();
            match (name, ms, bytes) {
                ("alloc", Some(v), _) => one.alloc_ms = v,
                ("copy-in", Some(v), _) => one.copy_in_ms = v,
                ("kernels", Some(v), _) => one.kernels_ms = v,
                ("copy-out", Some(v), _) => one.copy_out_ms = v,
                ("bytes in", _, Some(v)) => one.bytes_in = v,
                ("bytes out", _, Some(v)) => one.bytes_out = v,
                _ => continue,
            }
            seen += 1;
        }
        if seen == 6 {
            p.executions += 1;
            p.alloc_ms += one.alloc_ms;
            p.copy_in_ms += one.copy_in_ms;
            p.kernels_ms += one.kernels_ms;
            p.copy_out_ms += one.copy_out_ms;
            p.bytes_in += one.bytes_in;
            p.bytes_out += one.bytes_out;
        }
    }
    (p.executions > 0).then_some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_the_lines_of_every_region_execution() {
        let err = "pencilc: OpenCL setup 0.1 s\n\
            pencilc profile: f (a: b.c:3-9): alloc 0.500 ms, copy-in 2.000 ms, kernels 10.250 ms, copy-out 1.000 ms, bytes in 800, bytes out 80\n\
            pencilc profile: g (b.c:12-20): alloc 0.000 ms, copy-in 0.000 ms, kernels 1.750 ms, copy-out 0.250 ms, bytes in 0, bytes out 8\n\
            pencilc profile: broken line\n";
        let p = parse(err).unwrap();
        assert_eq!(p.executions, 2);
        assert_eq!(
            (p.alloc_ms, p.copy_in_ms, p.kernels_ms, p.copy_out_ms),
            (0.5, 2.0, 12.0, 1.25)
        );
        assert_eq!((p.bytes_in, p.bytes_out), (800, 88));
        assert!((p.data_share().unwrap() - 3.75 / 15.75).abs() < 1e-12);
        assert_eq!(parse("pencilc: f (b.c:1-2): device\n"), None);
    }
}
