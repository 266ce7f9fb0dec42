//! `pencilc-harness --calibrate`: the constants of the run-time choice
//! between a region's versions (`device::Costs`), measured on this machine
//! rather than guessed. Every kernel of the suite runs at a few datasets,
//! each version forced in turn (`PENCILC_RUN`), and says what it counted
//! (`PENCILC_VERBOSE`: instances, bytes, launches, parallel loops,
//! threads); the constants are those whose estimates are closest to the
//! measured times, in ratio (least squares of the logarithms: a choice
//! goes wrong by a factor, whatever the size), one set for the whole
//! suite, never one per kernel.

use super::{build, polybench_seconds, run_program, setup_seconds, HarnessOptions, Kernel};
use crate::device::Costs;
use rayon::prelude::*;

/// What one run of one forced version said and took.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    pub kernel: String,
    pub dataset: String,
    pub version: String,
    /// What the run's `PENCILC_VERBOSE` lines counted.
    pub counts: Counts,
    /// PolyBench's time of the region, the device's one-time setup left out.
    pub seconds: f64,
    /// The device's one-time setup, where it ran.
    pub setup_seconds: f64,
}

/// What the `PENCILC_VERBOSE` lines of a run counted.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counts {
    pub instances: f64,
    pub serial: f64,
    pub bytes: f64,
    pub launches: f64,
    pub forks: f64,
    pub threads: f64,
}

/// The counts of `PENCILC_VERBOSE` lines, summed over the regions that ran.
pub fn counts(stderr: &str) -> Option<Counts> {
    let num = |text: &str, before: &str| -> Option<f64> {
        let end = text.find(before)?;
        text[..end].rsplit([' ', '(']).next()?.parse().ok()
    };
    let mut total: Option<Counts> = None;
    for line in stderr.lines() {
        if !line.starts_with("pencilc: ") || !line.contains(" instances") {
            continue;
        }
        let c = Counts {
            instances: num(line, " instances")?,
            // Programs made before the device's serial rate say nothing.
            serial: num(line, " on one work-item").unwrap_or(0.0),
            bytes: num(line, " bytes")?,
            launches: num(line, " launches")?,
            forks: num(line, " parallel loops")?,
            threads: num(line, " threads")?,
        };
        total = Some(match total {
            None => c,
            Some(t) => Counts {
                instances: t.instances + c.instances,
                serial: t.serial + c.serial,
                bytes: t.bytes + c.bytes,
                launches: t.launches + c.launches,
                forks: t.forks + c.forks,
                threads: c.threads,
            },
        });
    }
    total
}

/// The runs of each kernel: each version forced, the host version also on
/// one thread (which tells its time per instance from its threads' share).
pub const RUNS: [(&str, Option<&str>); 4] = [
    ("device", None),
    ("host", None),
    ("host", Some("1")),
    ("seq", None),
];

/// Runs every kernel of `opts` at each of `datasets`, with each of
/// `versions` (version, `OMP_NUM_THREADS`).
pub fn measure(
    opts: &HarnessOptions,
    datasets: &[&str],
    versions: &[(&str, Option<&str>)],
    record: Option<&std::path::Path>,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Vec<Sample>, String> {
    let all = super::polybench_kernels(&opts.polybench)?;
    let chosen: Vec<Kernel> = all
        .into_iter()
        .filter(|k| opts.kernels.is_empty() || opts.kernels.contains(&k.name))
        .collect();
    let mut samples = Vec::new();
    for ds in datasets {
        let mut o = opts.clone();
        o.dataset = ds.to_string();
        o.work_dir = std::path::absolute(opts.work_dir.join(format!("calibrate-{}", ds)))
            .map_err(|e| e.to_string())?;
        std::fs::create_dir_all(&o.work_dir).map_err(|e| e.to_string())?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(o.jobs.max(1))
            .build()
            .map_err(|e| e.to_string())?;
        let built: Vec<super::Built> =
            pool.install(|| chosen.par_iter().map(|k| build(&o, k)).collect());
        for b in built {
            if let Some(e) = &b.result.error {
                progress(&format!("{} at {}: skipped ({})", b.result.name, ds, e));
                continue;
            }
            let (Some(seq), Some(ocl)) = (&b.sequential, &b.opencl) else {
                continue;
            };
            // The original program once, so that the first forced run does
            // not pay for cold caches alone.
            if let Err(e) = run_program(seq, &b.dir, &[], o.run_timeout, "warm") {
                progress(&format!("{} at {}: skipped ({})", b.result.name, ds, e));
                continue;
            }
            for &(v, threads) in versions {
                let mut envs = vec![
                    ("PENCILC_OPENCL_DEVICE", o.opencl_device.as_str()),
                    ("PENCILC_OPENCL_OPTIONS", "-DPENCILC_NO_FP_CONTRACT"),
                    ("PENCILC_RUN", v),
                ];
                envs.extend(threads.map(|t| ("OMP_NUM_THREADS", t)));
                // The counts come from a run that prints them
                // (PENCILC_VERBOSE); the timed runs are quiet, since the
                // message is printed inside the timed call.
                let mut verbose = envs.clone();
                verbose.push(("PENCILC_VERBOSE", "1"));
                let said = match run_program(
                    ocl,
                    &b.dir,
                    &verbose,
                    o.run_timeout,
                    &format!("calibrate-{}-counts", v),
                ) {
                    Ok(r) => r,
                    Err(e) => {
                        progress(&format!("{} at {}: {}: {}", b.result.name, ds, v, e));
                        continue;
                    }
                };
                let Some(c) = counts(&said.stderr) else {
                    continue;
                };
                let mut runs: Vec<Sample> = Vec::new();
                for _ in 0..o.runs.max(1) {
                    // A version that fails or outlasts --timeout gives no
                    // sample (its estimate is then free to be anything).
                    let run = match run_program(
                        ocl,
                        &b.dir,
                        &envs,
                        o.run_timeout,
                        &format!("calibrate-{}", v),
                    ) {
                        Ok(r) => r,
                        Err(e) => {
                            progress(&format!("{} at {}: {}: {}", b.result.name, ds, v, e));
                            break;
                        }
                    };
                    let setup = setup_seconds(&run.stderr);
                    let Some(t) = polybench_seconds(&run.stdout) else {
                        continue;
                    };
                    let s = Sample {
                        kernel: b.result.name.clone(),
                        dataset: ds.to_string(),
                        version: v.to_string(),
                        counts: c,
                        seconds: (t - setup).max(1e-7),
                        setup_seconds: setup,
                    };
                    runs.push(s);
                }
                // The median run, as the harness reports: the fastest of
                // a few runs of the host version on two threads had their
                // wake-ups at their luckiest (fdtd-2d at MEDIUM: 0.74x of
                // the original code in its fastest run, 1.46x in the
                // median of five).
                runs.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
                let median = (!runs.is_empty()).then(|| runs.swap_remove(runs.len() / 2));
                if let Some(s) = median {
                    progress(&format!(
                        "{} at {}: {} on {} threads {:.3} ms",
                        s.kernel,
                        ds,
                        v,
                        s.counts.threads,
                        s.seconds * 1e3
                    ));
                    if let Some(path) = record {
                        append_sample(path, &s)?;
                    }
                    samples.push(s);
                }
            }
        }
    }
    Ok(samples)
}

/// Appends `s` to the samples file at `path` (the header first if it is
/// new), so that an interrupted calibration keeps what it measured.
fn append_sample(path: &std::path::Path, s: &Sample) -> Result<(), String> {
    use std::io::Write;
    let text = samples_tsv(std::slice::from_ref(s));
    let text = if path.exists() {
        text.split_once('\n').map(|x| x.1).unwrap_or("").to_string()
    } else {
        text
    };
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {}", path.display(), e))
}

/// Samples as tab-separated lines (with a header), to keep beside the
/// description and to fit again (`read_samples`).
pub fn samples_tsv(samples: &[Sample]) -> String {
    let mut out = String::from(
        "kernel\tdataset\tversion\tinstances\tserial\tbytes\tlaunches\tforks\tthreads\tseconds\tsetup_seconds\n",
    );
    for s in samples {
        out.push_str(&format!(
            "{}\t{}\t{}\t{:e}\t{:e}\t{:e}\t{}\t{}\t{}\t{:e}\t{:e}\n",
            s.kernel,
            s.dataset,
            s.version,
            s.counts.instances,
            s.counts.serial,
            s.counts.bytes,
            s.counts.launches,
            s.counts.forks,
            s.counts.threads,
            s.seconds,
            s.setup_seconds
        ));
    }
    out
}

/// The samples of `samples_tsv`'s text, its columns found by the header
/// (files written before the `serial` column count none serial).
pub fn read_samples(text: &str) -> Result<Vec<Sample>, String> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let column = |name: &str| header.iter().position(|h| *h == name);
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let line_no = i + 2;
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != header.len() {
            return Err(format!(
                "line {}: {} fields, expected {} (the header's)",
                line_no,
                f.len(),
                header.len()
            ));
        }
        let text = |name: &str| -> Result<&str, String> {
            column(name)
                .map(|k| f[k])
                .ok_or_else(|| format!("no column `{}` in the header", name))
        };
        let num = |name: &str| -> Result<f64, String> {
            text(name)?
                .parse()
                .map_err(|_| format!("line {}: `{}` is not a number", line_no, name))
        };
        out.push(Sample {
            kernel: text("kernel")?.into(),
            dataset: text("dataset")?.into(),
            version: text("version")?.into(),
            counts: Counts {
                instances: num("instances")?,
                serial: if column("serial").is_some() {
                    num("serial")?
                } else {
                    0.0
                },
                bytes: num("bytes")?,
                launches: num("launches")?,
                forks: num("forks")?,
                threads: num("threads")?,
            },
            seconds: num("seconds")?,
            setup_seconds: num("setup_seconds")?,
        });
    }
    Ok(out)
}

/// Squared error of log(estimate / measured) over `samples` for `model`.
fn log_error(samples: &[&Sample], model: &dyn Fn(&Sample) -> f64) -> f64 {
    samples
        .iter()
        .map(|s| {
            let e = model(s).max(1e-9);
            (e / s.seconds).ln().powi(2)
        })
        .sum()
}

/// The parameters in `ranges` (each a log-spaced range, lower and upper
/// bound) that minimise `err`: the best point of a log grid, then the
/// Nelder-Mead simplex from there (in the logarithms, bounded by the
/// ranges). Deterministic.
fn fit(ranges: &[(f64, f64)], err: &dyn Fn(&[f64]) -> f64) -> Vec<f64> {
    const STEPS: usize = 16;
    let n = ranges.len();
    let lo: Vec<f64> = ranges.iter().map(|r| r.0.ln()).collect();
    let hi: Vec<f64> = ranges.iter().map(|r| r.1.ln()).collect();
    let clamp = |p: &mut Vec<f64>| {
        for d in 0..n {
            p[d] = p[d].clamp(lo[d], hi[d]);
        }
    };
    let cost = |p: &[f64]| err(&p.iter().map(|x| x.exp()).collect::<Vec<_>>());
    let mut best = lo.clone();
    let mut best_err = f64::INFINITY;
    for idx in 0..STEPS.pow(n as u32) {
        let mut k = idx;
        let point: Vec<f64> = (0..n)
            .map(|d| {
                let i = k % STEPS;
                k /= STEPS;
                lo[d] + (hi[d] - lo[d]) * i as f64 / (STEPS - 1) as f64
            })
            .collect();
        let e = cost(&point);
        if e < best_err {
            best_err = e;
            best = point;
        }
    }
    // Nelder-Mead from the grid's best point, restarted from its result
    // (a simplex that collapses against a bound stops early).
    for restart in 0..4 {
        let step = 1.0 / (STEPS as f64 * (1 + restart) as f64);
        let mut simplex: Vec<(Vec<f64>, f64)> = vec![(best.clone(), best_err)];
        for d in 0..n {
            let mut p = best.clone();
            p[d] += (hi[d] - lo[d])
                * step
                * if p[d] + (hi[d] - lo[d]) * step > hi[d] {
                    -1.0
                } else {
                    1.0
                };
            clamp(&mut p);
            let e = cost(&p);
            simplex.push((p, e));
        }
        for _ in 0..2000 {
            simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
            let worst = simplex[n].clone();
            let centroid: Vec<f64> = (0..n)
                .map(|d| simplex[..n].iter().map(|(p, _)| p[d]).sum::<f64>() / n as f64)
                .collect();
            let towards = |t: f64| -> (Vec<f64>, f64) {
                let mut p: Vec<f64> = (0..n)
                    .map(|d| centroid[d] + t * (worst.0[d] - centroid[d]))
                    .collect();
                clamp(&mut p);
                let e = cost(&p);
                (p, e)
            };
            let reflected = towards(-1.0);
            if reflected.1 < simplex[0].1 {
                let expanded = towards(-2.0);
                simplex[n] = if expanded.1 < reflected.1 {
                    expanded
                } else {
                    reflected
                };
            } else if reflected.1 < simplex[n - 1].1 {
                simplex[n] = reflected;
            } else {
                let contracted = towards(0.5);
                if contracted.1 < worst.1 {
                    simplex[n] = contracted;
                } else {
                    let first = simplex[0].0.clone();
                    for point in simplex.iter_mut().skip(1) {
                        let mut p: Vec<f64> =
                            (0..n).map(|d| (first[d] + point.0[d]) / 2.0).collect();
                        clamp(&mut p);
                        let e = cost(&p);
                        *point = (p, e);
                    }
                }
            }
        }
        simplex.sort_by(|a, b| a.1.total_cmp(&b.1));
        best = simplex[0].0.clone();
        best_err = simplex[0].1;
    }
    best.iter().map(|p| p.exp()).collect()
}

/// The cost model's constants that fit `samples` best, within what the
/// description `description` makes physical: copies no faster than twice its
/// memory bandwidth nor slower than a hundredth of it, an instance no
/// faster than two operations at its peak rate. (At small sizes the
/// device's time is mostly launches and copies, which grow together with
/// the instances; unbounded, the fit traded one for the other.)
pub fn fit_costs(samples: &[Sample], description: &crate::device::Device) -> Result<Costs, String> {
    let of = |v: &str| -> Vec<&Sample> {
        samples
            .iter()
            .filter(|s| s.version == v && s.counts.instances > 0.0)
            .collect()
    };
    let (seq, host, device) = (of("seq"), of("host"), of("device"));
    if seq.is_empty() || device.is_empty() {
        return Err("no run reported its counts (PENCILC_VERBOSE)".into());
    }
    // The original code: time proportional to instances.
    let host_ns = fit(&[(1e-3, 1e3)], &|p| {
        log_error(&seq, &|s| s.counts.instances * p[0] * 1e-9)
    })[0];
    // The host version: parallel loops entered, and its own time per
    // instance (tiles, reordered loops) shared among the threads; runs on
    // one thread and on all tell the two apart.
    let (fork_us, version_ns, efficiency, region_us) = if host.is_empty() {
        (5.0, host_ns, 0.8, 0.0)
    } else {
        let p = fit(
            &[(1e-2, 1e5), (1e-3, 1e3), (1e-2, 1.0), (1e-2, 1e5)],
            &|p| {
                log_error(&host, &|s| {
                    // On one thread a parallel loop is a loop: entering
                    // one costs only where threads are woken.
                    let alone = s.counts.instances * p[1] * 1e-9;
                    p[3] * 1e-6
                        + if s.counts.forks > 0.0 && s.counts.threads > 1.0 {
                            s.counts.forks * p[0] * 1e-6
                                + alone / (1.0 + (s.counts.threads - 1.0) * p[2])
                        } else {
                            alone
                        }
                })
            },
        );
        (p[0], p[1], p[2].min(1.0), p[3])
    };
    // The device version: launches, copies, instances, and apart those on
    // one work-item (where no run had any, the description's own rate),
    // fitted as a multiple of the original code's rate on the host: one
    // work-item is no faster than a host core running the user's loop
    // (a CPU's work-item is such a core; a GPU's thread is slower), and the
    // suite's few serial instances alone cannot tell (unbounded, the fit
    // put them at 0.09 ns, faster than the device's parallel rate).
    let bw = description.memory_bandwidth_gbs;
    let fastest_ns = 2.0 / description.peak_gflops_fp64;
    let any_serial = device.iter().any(|s| s.counts.serial > 0.0);
    let serial_default = description.cost_model().device_serial_ns_per_instance;
    // p[3] is the ratio to the host's rate.
    let serial_ns = |ratio: f64| {
        if any_serial {
            host_ns * ratio
        } else {
            serial_default
        }
    };
    let d = fit(
        &[
            (1e-1, 1e5),
            (bw / 100.0, bw * 2.0),
            (fastest_ns, 1e3),
            (1.0, if any_serial { 1e5 } else { 1.0 }),
        ],
        &|p| {
            log_error(&device, &|s| {
                s.counts.launches * p[0] * 1e-6
                    + s.counts.bytes / (p[1] * 1e9)
                    + (s.counts.instances - s.counts.serial) * p[2] * 1e-9
                    + s.counts.serial * serial_ns(p[3]) * 1e-9
            })
        },
    );
    // The one-time setups, as the runs reported them: the device's, and
    // the start of OpenMP's threads (the host version on more than one;
    // on one, the start the harness times is a team of one).
    let median_setup_ms = |version: &str, default: f64| {
        let mut setups: Vec<f64> = samples
            .iter()
            .filter(|s| s.version == version && s.setup_seconds > 0.0)
            .filter(|s| version != "host" || s.counts.threads > 1.0)
            .map(|s| s.setup_seconds * 1e3)
            .collect();
        setups.sort_by(|a, b| a.total_cmp(b));
        setups.get(setups.len() / 2).copied().unwrap_or(default)
    };
    let setup_ms = median_setup_ms("device", 100.0);
    let host_setup_ms = median_setup_ms("host", 0.1);
    let round = |v: f64| {
        // Four significant digits: the fit is not more precise, and the
        // file reads better.
        format!("{:.3e}", v).parse::<f64>().unwrap_or(v)
    };
    Ok(Costs {
        launch_latency_us: Some(round(d[0])),
        transfer_bandwidth_gbs: Some(round(d[1])),
        setup_ms: Some(round(setup_ms)),
        device_ns_per_instance: Some(round(d[2])),
        device_serial_ns_per_instance: Some(round(serial_ns(d[3]))),
        host_ns_per_instance: Some(round(host_ns)),
        host_version_ns_per_instance: Some(round(version_ns)),
        host_fork_us: Some(round(fork_us)),
        host_setup_ms: Some(round(host_setup_ms)),
        host_region_us: Some(round(region_us)),
        host_parallel_efficiency: Some(round(efficiency)),
    })
}

/// A device description: `base` (a description's TOML text, without a
/// `[costs]` table) with `costs` appended, and how they were measured.
pub fn device_file(base: &str, costs: &Costs, how: &str) -> String {
    // The description up to an earlier `[costs]` table and its comment.
    let mut kept: Vec<&str> = base
        .lines()
        .take_while(|l| !l.trim_start().starts_with("[costs]"))
        .collect();
    if kept.len() < base.lines().count() {
        while kept
            .last()
            .is_some_and(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        {
            kept.pop();
        }
    }
    let mut out = kept.join("\n");
    out.push('\n');
    out.push_str(&format!(
        "\n# The run-time choice between a region's versions, measured by\n# `pencilc-harness --calibrate` ({}).\n[costs]\n",
        how
    ));
    let f = |v: Option<f64>| v.map(|x| format!("{}", x)).unwrap_or_default();
    out.push_str(&format!(
        "launch_latency_us = {}\ntransfer_bandwidth_gbs = {}\nsetup_ms = {}\ndevice_ns_per_instance = {}\ndevice_serial_ns_per_instance = {}\nhost_ns_per_instance = {}\nhost_version_ns_per_instance = {}\nhost_fork_us = {}\nhost_setup_ms = {}\nhost_region_us = {}\nhost_parallel_efficiency = {}\n",
        f(costs.launch_latency_us),
        f(costs.transfer_bandwidth_gbs),
        f(costs.setup_ms),
        f(costs.device_ns_per_instance),
        f(costs.device_serial_ns_per_instance),
        f(costs.host_ns_per_instance),
        f(costs.host_version_ns_per_instance),
        f(costs.host_fork_us),
        f(costs.host_setup_ms),
        f(costs.host_region_us),
        f(costs.host_parallel_efficiency),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_counts_of_a_choice() {
        let err = "pencilc: OpenCL setup 0.2 s\npencilc: kernel_gemm (g.c:63-71): device (PENCILC_RUN=device): estimated seq 1.5e-05 s, host 1.36e-05 s (2 threads, 1 parallel loops), device 0.1 s (3 launches, 1.88e+04 bytes, setup); 1.55e+04 instances\n";
        let c = counts(err).unwrap();
        assert_eq!(
            (
                c.instances,
                c.serial,
                c.bytes,
                c.launches,
                c.forks,
                c.threads
            ),
            (1.55e4, 0.0, 1.88e4, 3.0, 1.0, 2.0)
        );
        let err = "pencilc: kernel_ludcmp (l.c:60-90): device (PENCILC_RUN=device): estimated seq 0.02 s, host 0.03 s (2 threads, 40 parallel loops), device 0.1 s (1 launches, 1.3e+06 bytes); 2.1e+07 instances, 2.1e+07 on one work-item\n";
        let c = counts(&format!("{}{}", err, err)).unwrap();
        assert_eq!((c.instances, c.serial, c.launches), (4.2e7, 4.2e7, 2.0));
        assert_eq!(counts("begin dump: C\n"), None);
    }

    fn sample(version: &str, instances: f64, launches: f64, bytes: f64, seconds: f64) -> Sample {
        Sample {
            version: version.into(),
            counts: Counts {
                instances,
                launches,
                bytes,
                forks: 1.0,
                threads: 2.0,
                serial: 0.0,
            },
            seconds,
            ..Sample::default()
        }
    }

    #[test]
    fn the_fit_recovers_the_constants_of_its_samples() {
        // Made from: original 2 ns per instance, host version 1 ns per
        // instance on one thread, forks 10 us, efficiency 0.5, 30 us a run;
        // device: launches 50 us, 4 GB/s, 0.5 ns per instance.
        let mut samples = Vec::new();
        let bytes = [1e8, 1e3, 1e6, 1e4, 1e7];
        let launches = [3.0, 100.0, 1.0, 10.0, 1000.0];
        for (i, n) in [1e3, 1e5, 1e7, 1e9, 1e6].into_iter().enumerate() {
            let (l, b) = (launches[i], bytes[i]);
            samples.push(sample("seq", n, l, b, n * 2e-9));
            // Its threads started in 3 ms (the harness leaves the setups
            // out of the seconds); the device set up in 200 ms.
            let mut host = sample("host", n, l, b, 30e-6 + 10e-6 + n * 1e-9 / 1.5);
            host.setup_seconds = 3e-3;
            samples.push(host);
            let mut one = sample("host", n, l, b, 30e-6 + n * 1e-9);
            one.counts.threads = 1.0;
            one.setup_seconds = 1e-5;
            samples.push(one);
            let device = l * 50e-6 + b / 4e9 + n * 0.5e-9;
            // (Counted whatever OpenMP's thread count was.)
            let mut set_up = sample("device", n, l, b, device);
            set_up.setup_seconds = 0.2;
            set_up.counts.threads = 1.0;
            samples.push(set_up);
            // A third of the instances on one work-item, at 3 ns.
            let mut serial = sample("device", n, l, b, device + n / 3.0 * 2.5e-9);
            serial.counts.serial = n / 3.0;
            samples.push(serial);
        }
        let d = crate::device::Device::default_for_opencl();
        let c = fit_costs(&samples, &d).unwrap();
        let close = |a: Option<f64>, b: f64| (a.unwrap() / b - 1.0).abs() < 0.1;
        assert!(close(c.host_ns_per_instance, 2.0), "{:?}", c);
        assert!(close(c.host_version_ns_per_instance, 1.0), "{:?}", c);
        assert!(close(c.host_fork_us, 10.0), "{:?}", c);
        assert!(close(c.host_parallel_efficiency, 0.5), "{:?}", c);
        assert!(close(c.host_setup_ms, 3.0), "{:?}", c);
        assert!(close(c.host_region_us, 30.0), "{:?}", c);
        assert!(close(c.setup_ms, 200.0), "{:?}", c);
        assert!(close(c.launch_latency_us, 50.0), "{:?}", c);
        assert!(close(c.device_ns_per_instance, 0.5), "{:?}", c);
        assert!(close(c.device_serial_ns_per_instance, 3.0), "{:?}", c);
        assert!(close(c.transfer_bandwidth_gbs, 4.0), "{:?}", c);
    }

    #[test]
    fn samples_read_back() {
        let s = vec![Sample {
            kernel: "gemm".into(),
            dataset: "MINI".into(),
            version: "host".into(),
            counts: Counts {
                instances: 15500.0,
                serial: 500.0,
                bytes: 18800.0,
                launches: 1.0,
                forks: 1.0,
                threads: 2.0,
            },
            seconds: 1.25e-5,
            setup_seconds: 0.0,
        }];
        assert_eq!(read_samples(&samples_tsv(&s)).unwrap(), s);
        // Files from before the serial column still read, with none serial.
        let old = "kernel\tdataset\tversion\tinstances\tbytes\tlaunches\tforks\tthreads\tseconds\tsetup_seconds\ngemm\tMINI\thost\t1.55e4\t1.88e4\t1\t1\t2\t1.25e-5\t0e0\n";
        let read = read_samples(old).unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(
            (read[0].counts.serial, read[0].counts.bytes),
            (0.0, 18800.0)
        );
        assert!(read_samples("kernel\tdataset\nx\n").is_err());
    }

    #[test]
    fn a_written_description_reads_back() {
        let base = include_str!("../../devices/generic-opencl-cpu.toml");
        let costs = Costs {
            launch_latency_us: Some(40.0),
            transfer_bandwidth_gbs: Some(3.5),
            setup_ms: Some(250.0),
            device_ns_per_instance: Some(0.8),
            device_serial_ns_per_instance: Some(4.0),
            host_ns_per_instance: Some(1.2),
            host_version_ns_per_instance: Some(0.9),
            host_fork_us: Some(6.0),
            host_setup_ms: Some(3.0),
            host_region_us: Some(20.0),
            host_parallel_efficiency: Some(0.7),
        };
        let text = device_file(base, &costs, "test");
        let d = crate::device::Device::parse(&text, "calibrated").unwrap();
        assert_eq!(d.costs, costs);
        // Calibrating again replaces the table.
        let again = device_file(&text, &costs, "test");
        assert_eq!(again.matches("[costs]").count(), 1);
    }
}
