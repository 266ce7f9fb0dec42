//! `pencilc-harness --gpu-model`: the GPU cost model's view of every
//! PolyBench kernel at one dataset, without a GPU. Each kernel is compiled
//! with `pencilc --target cuda --emit gpu-model` (the profile of its
//! device version, interpreted at the dataset's sizes); the estimates are
//! made here from the profiles with the `--gpu-device` description's
//! `[gpu_model]`, so one compilation serves any description. Beside each
//! estimate: a reference time where one is given (`--against`, e.g. PPCG's
//! measured region times in tests/data).

use super::{flags, model_params, selected_kernels, HarnessOptions, Kernel};
use crate::device::{Device, GpuModel};
use crate::profile::{estimate, text, RegionProfile};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::process::Command;

/// One PolyBench kernel under the model.
#[derive(Clone, Debug)]
pub struct ModelRow {
    pub name: String,
    /// Its regions' profiles (pencilc's `--emit gpu-model`), or why there
    /// are none.
    pub regions: Result<Vec<RegionProfile>, String>,
}

/// What the model says of one kernel's regions together.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSummary {
    pub region_ms: f64,
    pub transfer_ms: f64,
    pub kernel_ms: f64,
    pub kernels: usize,
    pub launches: f64,
    /// Kernels launched with one thread: name, launches, statement
    /// instances per launch (a few: a scalar step between parallel
    /// kernels; many: a loop on one GPU thread, the worst case).
    pub one_thread: Vec<(String, f64, f64)>,
    /// The kernel that takes longest, its estimate and what bounds it.
    pub slowest: Option<(String, f64, &'static str)>,
}

/// Compiles every selected kernel (in parallel, `opts.jobs` at a time)
/// for its profile at `opts.dataset`.
pub fn profiles(opts: &HarnessOptions) -> Result<Vec<ModelRow>, String> {
    let chosen = selected_kernels(opts)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    Ok(pool.install(|| {
        chosen
            .par_iter()
            .map(|k| ModelRow {
                name: k.name.clone(),
                regions: profile_of(opts, k),
            })
            .collect()
    }))
}

fn profile_of(opts: &HarnessOptions, k: &Kernel) -> Result<Vec<RegionProfile>, String> {
    let out = Command::new(&opts.pencilc)
        .args(["--target", "cuda", "--emit", "gpu-model"])
        .args(flags(opts, k))
        .args(&k.flags)
        .args(model_params(opts, k))
        .args(&opts.pencilc_args)
        .arg(&k.source)
        .output()
        .map_err(|e| format!("cannot run {}: {}", opts.pencilc.display(), e))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "pencilc failed: {}",
            err.lines().find(|l| l.contains("error")).unwrap_or("")
        ));
    }
    let records = String::from_utf8_lossy(&out.stdout);
    text::parse(&records)
        .map(|v| v.into_iter().map(|(_, r)| r).collect())
        .map_err(|e| e.message)
}

/// The description's model, or why it has none.
pub fn model_of(device: &str) -> Result<GpuModel, String> {
    let d =
        Device::lookup(device).map_err(|e| e.message.replacen("--device", "--gpu-device", 1))?;
    d.gpu_model().ok_or_else(|| {
        format!(
            "--gpu-device {}: the description has no [gpu_model] (see devices/nvidia-h100.toml)",
            device
        )
    })
}

pub fn summary(regions: &[RegionProfile], m: &GpuModel) -> ModelSummary {
    let mut s = ModelSummary {
        region_ms: 0.0,
        transfer_ms: 0.0,
        kernel_ms: 0.0,
        kernels: 0,
        launches: 0.0,
        one_thread: Vec::new(),
        slowest: None,
    };
    for r in regions {
        let e = estimate::estimate(r, m);
        s.region_ms += e.total_ms;
        s.transfer_ms += e.transfer_ms;
        s.kernel_ms += e.kernel_ms;
        for (k, ke) in r.kernels.iter().zip(&e.kernels) {
            s.kernels += 1;
            s.launches += k.launches;
            if k.one_thread() {
                s.one_thread
                    .push((k.name.clone(), k.launches, k.work.instances / k.launches));
            }
            if s.slowest.as_ref().is_none_or(|(_, ms, _)| ke.ms > *ms) {
                s.slowest = Some((k.name.clone(), ke.ms, ke.bound.word()));
            }
        }
    }
    s
}

/// Reference times: `name<TAB>ms` per line (`-` for none), `#` comments.
pub fn read_reference(text: &str) -> Result<BTreeMap<String, Option<f64>>, String> {
    let mut out = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split('\t');
        let (Some(name), Some(ms)) = (parts.next(), parts.next()) else {
            return Err(format!("line {}: expected NAME<TAB>MS", n + 1));
        };
        let ms = match ms.trim() {
            "-" => None,
            v => Some(
                v.parse::<f64>()
                    .map_err(|_| format!("line {}: `{}` is not a time in ms", n + 1, v))?,
            ),
        };
        out.insert(name.trim().to_string(), ms);
    }
    Ok(out)
}

fn ms(v: f64) -> String {
    if v >= 100.0 {
        format!("{:.0}", v)
    } else if v >= 1.0 {
        format!("{:.2}", v)
    } else {
        format!("{:.3}", v)
    }
}

/// The report: one row per kernel, then the one-thread kernels and, with
/// a reference, how many estimates are at or below it.
pub fn table(
    rows: &[ModelRow],
    m: &GpuModel,
    device: &str,
    dataset: &str,
    reference: Option<&BTreeMap<String, Option<f64>>>,
) -> String {
    let mut out = format!(
        "GPU model of {} at {} (estimates in ms; pencilc --target cuda --emit gpu-model)\n\n",
        device, dataset
    );
    out.push_str("| kernel | region | copies | kernels | launches | slowest kernel (bound) |");
    if reference.is_some() {
        out.push_str(" reference | estimate / reference |");
    }
    out.push('\n');
    out.push_str("|---|---|---|---|---|---|");
    if reference.is_some() {
        out.push_str("---|---|");
    }
    out.push('\n');
    let (mut below, mut compared) = (0, 0);
    let mut over = Vec::new();
    let mut serial = Vec::new();
    for r in rows {
        let regions = match &r.regions {
            Ok(v) => v,
            Err(e) => {
                out.push_str(&format!("| {} | {} |\n", r.name, e));
                continue;
            }
        };
        let s = summary(regions, m);
        let slowest = s
            .slowest
            .as_ref()
            .map(|(k, t, b)| format!("{} {} ({})", k, ms(*t), b))
            .unwrap_or_else(|| "-".into());
        out.push_str(&format!(
            "| {} | {} | {} | {} ({}) | {:.0} | {} |",
            r.name,
            ms(s.region_ms),
            ms(s.transfer_ms),
            ms(s.kernel_ms),
            s.kernels,
            s.launches,
            slowest
        ));
        if let Some(reference) = reference {
            match reference.get(&r.name).copied().flatten() {
                Some(t) => {
                    compared += 1;
                    if s.region_ms <= t {
                        below += 1;
                    } else {
                        over.push(r.name.clone());
                    }
                    out.push_str(&format!(" {} | {:.2} |", ms(t), s.region_ms / t));
                }
                None => out.push_str(" - | - |"),
            }
        }
        out.push('\n');
        for (k, launches, each) in &s.one_thread {
            serial.push(format!(
                "{} {} ({:.0} launch(es), {:.1} instances each)",
                r.name, k, launches, each
            ));
        }
    }
    out.push_str(&format!(
        "\nKernels of one thread: {}\n",
        if serial.is_empty() {
            "none".to_string()
        } else {
            serial.join(", ")
        }
    ));
    if reference.is_some() {
        out.push_str(&format!(
            "Estimates at or below the reference: {} of {}{}\n",
            below,
            compared,
            if over.is_empty() {
                String::new()
            } else {
                format!(" (above: {})", over.join(", "))
            }
        ));
    }
    out
}

/// The rows as JSON: per kernel, the summary and each kernel's estimate.
pub fn json(rows: &[ModelRow], m: &GpuModel, device: &str, dataset: &str) -> String {
    let kernels: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| match &r.regions {
            Err(e) => serde_json::json!({ "name": r.name, "error": e }),
            Ok(regions) => {
                let s = summary(regions, m);
                let per: Vec<serde_json::Value> = regions
                    .iter()
                    .flat_map(|reg| {
                        let e = estimate::estimate(reg, m);
                        reg.kernels
                            .iter()
                            .zip(e.kernels)
                            .map(|(k, ke)| {
                                serde_json::json!({
                                    "region": reg.region,
                                    "kernel": k.name,
                                    "block": k.block,
                                    "launches": k.launches,
                                    "blocks": k.blocks,
                                    "threads": k.threads,
                                    "instances": k.work.instances,
                                    "span_instances": k.span.instances,
                                    "global_bytes": k.work.global_bytes,
                                    "estimate_ms": ke.ms,
                                    "bound": ke.bound.word(),
                                })
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect();
                serde_json::json!({
                    "name": r.name,
                    "region_ms": s.region_ms,
                    "transfer_ms": s.transfer_ms,
                    "kernel_ms": s.kernel_ms,
                    "launches": s.launches,
                    "one_thread": s.one_thread,
                    "kernels": per,
                })
            }
        })
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({
        "device": device,
        "dataset": dataset,
        "kernels": kernels,
    }))
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::KernelProfile;

    #[test]
    fn reference_times_read_with_their_gaps() {
        let r = read_reference("# c\ngemm\t7.028\nludcmp\t-\n").unwrap();
        assert_eq!(r["gemm"], Some(7.028));
        assert_eq!(r["ludcmp"], None);
        assert!(read_reference("gemm 7\n").is_err());
        assert!(read_reference("gemm\tfast\n").is_err());
    }

    #[test]
    fn one_thread_kernels_are_those_launched_with_one_thread() {
        let k = |launches: f64, threads: f64, instances: f64| KernelProfile {
            name: "kernel0".into(),
            block: vec![1],
            launches,
            blocks: launches,
            threads,
            work: crate::profile::Work {
                instances,
                ..Default::default()
            },
            span: Default::default(),
        };
        assert!(k(10.0, 10.0, 1000.0).one_thread());
        assert!(!k(10.0, 320.0, 1000.0).one_thread());
        assert!(!k(0.0, 0.0, 0.0).one_thread());
    }
}
