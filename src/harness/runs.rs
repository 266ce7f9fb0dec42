//! Running one kernel's programs: each version forced or chosen, timed
//! runs interleaved so that a machine's drift hits every program alike,
//! results compared with the sequential program's, and CUDA's runs.

use super::*;

pub(super) fn run_program(
    exe: &Path,
    dir: &Path,
    envs: &[(&str, &str)],
    timeout: Duration,
    what: &str,
) -> Result<Run, String> {
    // Output goes to files: a pipe could fill up while we wait.
    let out_path = dir.join(format!("{}.stdout", what));
    let err_path = dir.join(format!("{}.stderr", what));
    let io = |p: &Path| {
        std::fs::File::create(p).map_err(|e| format!("cannot create {}: {}", p.display(), e))
    };
    let mut child = Command::new(exe)
        .current_dir(dir)
        .envs(envs.iter().copied())
        .stdout(io(&out_path)?)
        .stderr(io(&err_path)?)
        .spawn()
        .map_err(|e| format!("{}: cannot run {}: {}", what, exe.display(), e))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{}: still running after {:?}; stopped",
                    what, timeout
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("{}: {}", what, e)),
        }
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr =
        String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned();
    if !status.success() {
        return Err(format!(
            "{} failed ({}): {}",
            what,
            status,
            tail(&stderr, 600)
        ));
    }
    Ok(Run {
        stdout,
        stderr,
        wall: start.elapsed(),
    })
}

/// The versions a generated program ran, from its `PENCILC_VERBOSE`
/// lines (`pencilc: REGION: VERSION (why...)`), in order, repeats left
/// out; `None` where it said nothing (no region ran, or no versions).
pub(super) fn chosen_version(stderr: &str) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix("pencilc: ") else {
            continue;
        };
        let Some((_, after)) = rest.split_once("): ") else {
            continue;
        };
        let v = after.split(' ').next().unwrap_or("");
        if VERSIONS.contains(&v) && !seen.contains(&v) {
            seen.push(v);
        }
    }
    (!seen.is_empty()).then(|| seen.join("+"))
}

/// Runs a program `runs` times; returns the first run's dump and the median
/// of `time(run)` in milliseconds.
pub(super) fn timed_runs(
    opts: &HarnessOptions,
    count: usize,
    exe: &Path,
    dir: &Path,
    envs: &[(&str, &str)],
    what: &str,
    time: fn(&Run) -> Option<f64>,
) -> Result<(String, f64, Vec<Run>), String> {
    let timed = Timed {
        exe,
        dir,
        envs,
        what,
        time,
    };
    let mut all = interleaved_runs(opts, count, &[timed])?;
    Ok(all.remove(0))
}

/// Runs each program `count` times, one run of each in turn, so that
/// whatever else the machine does in the meantime (another tenant, the
/// clock) falls on all of them alike rather than on one block of runs;
/// returns for each its first run's dump, the median of `time(run)` in
/// milliseconds, and its runs.
pub(super) fn interleaved_runs(
    opts: &HarnessOptions,
    count: usize,
    programs: &[Timed],
) -> Result<Vec<(String, f64, Vec<Run>)>, String> {
    let mut times: Vec<Vec<f64>> = programs.iter().map(|_| Vec::new()).collect();
    let mut runs: Vec<Vec<Run>> = programs.iter().map(|_| Vec::new()).collect();
    for _ in 0..count.max(1) {
        for (k, p) in programs.iter().enumerate() {
            let r = run_program(p.exe, p.dir, p.envs, opts.run_timeout, p.what)?;
            let t =
                (p.time)(&r).ok_or_else(|| format!("{}: no PolyBench time on stdout", p.what))?;
            times[k].push(t * 1e3);
            runs[k].push(r);
        }
    }
    Ok(runs
        .into_iter()
        .zip(times)
        .map(|(runs, times)| (runs[0].stderr.clone(), median(times).unwrap_or(0.0), runs))
        .collect())
}

pub(super) fn run(opts: &HarnessOptions, b: Built) -> KernelResult {
    let mut r = b.result;
    if r.error.is_some() {
        return r;
    }
    if let Some((dump, ms)) = &b.reference {
        r.sequential_ms = Some(*ms);
        // The limit is on the generated code: the program's own
        // initialisation and dump (PolyBench's cholesky, lu and ludcmp
        // initialise in O(n^3)) come on top, as long as the sequential
        // program took for them side by side with the others.
        let mut opts = opts.clone();
        opts.run_timeout += Duration::from_secs_f64(r.sequential_wall_ms.unwrap_or(0.0) / 1e3);
        if let Err(e) = run_cuda(&opts, &b.dir, &b.cuda, dump, *ms, false, &mut r) {
            r.error = Some(e);
        }
        return r;
    }
    if let Err(e) = run_programs(opts, &b.dir, &b.sequential, &b.opencl, &b.cuda, &mut r) {
        r.error = Some(e);
    }
    r
}

pub(super) fn run_programs(
    opts: &HarnessOptions,
    dir: &Path,
    sequential: &Option<PathBuf>,
    opencl: &Option<PathBuf>,
    cuda: &Option<PathBuf>,
    r: &mut KernelResult,
) -> Result<(), String> {
    let Some(seq) = sequential else {
        return Err("not built".into());
    };
    let sequential_run = Timed {
        exe: seq,
        dir,
        envs: &[],
        what: "sequential",
        time: |run| polybench_seconds(&run.stdout),
    };
    let Some(ocl) = opencl else {
        let (seq_dump, seq_ms, _) = interleaved_runs(opts, opts.runs, &[sequential_run])?.remove(0);
        r.sequential_ms = Some(seq_ms);
        return run_cuda(opts, dir, cuda, &seq_dump, seq_ms, false, r);
    };
    let cl_options = if opts.fp_contract {
        ""
    } else {
        "-DPENCILC_NO_FP_CONTRACT"
    };
    let forced = match &opts.versions {
        Versions::Chosen => None,
        Versions::Forced(v) => Some(v.as_str()),
        Versions::All => Some("device"),
    };
    let mut envs = vec![
        ("PENCILC_OPENCL_DEVICE", opts.opencl_device.as_str()),
        ("PENCILC_OPENCL_OPTIONS", cl_options),
    ];
    envs.extend(forced.map(|v| ("PENCILC_RUN", v)));
    // A cold first run: PoCL builds every kernel afresh (on the device
    // version, whatever the program would choose).
    if opts.first_run {
        let mut cold = envs.clone();
        cold.retain(|(k, _)| *k != "PENCILC_RUN");
        cold.push(("PENCILC_RUN", "device"));
        cold.push(("POCL_KERNEL_CACHE", "0"));
        let t = Instant::now();
        run_program(ocl, dir, &cold, opts.run_timeout, "opencl-first")?;
        r.opencl_first_run_ms = Some(t.elapsed().as_secs_f64() * 1e3);
    }
    let opencl_run = Timed {
        exe: ocl,
        dir,
        envs: &envs,
        what: "opencl",
        time: region_seconds,
    };
    let mut forced_device = envs.clone();
    forced_device.push(("PENCILC_RUN", "device"));
    let mut programs = vec![sequential_run, opencl_run];
    if opts.against_device && opts.versions == Versions::Chosen {
        programs.push(Timed {
            exe: ocl,
            dir,
            envs: &forced_device,
            what: "opencl-device",
            time: region_seconds,
        });
    }
    let mut timed = interleaved_runs(opts, opts.runs, &programs)?;
    if timed.len() == 3 {
        let (dump, ms, _) = timed.remove(2);
        let c = compare_dumps_with(&timed[0].0, &dump, tolerance(opts, r), r.reassociated);
        r.always_device_ms = Some(ms);
        r.always_device_speedup = (ms > 0.0).then(|| timed[0].1 / ms);
        r.versions.push(VersionRun {
            version: "device".to_string(),
            ms,
            correct: c.ok(),
        });
    }
    let (ocl_dump, ocl_ms, runs) = timed.remove(1);
    let (seq_dump, seq_ms, _) = timed.remove(0);
    r.sequential_ms = Some(seq_ms);
    // What ran, from one more run that says it (PENCILC_VERBOSE): the
    // message is printed inside the timed call (45 us on a 0.2 ms
    // kernel), so the timed runs are quiet.
    let mut verbose = envs.clone();
    verbose.push(("PENCILC_VERBOSE", "1"));
    verbose.push(("PENCILC_PROFILE", "1"));
    let said = run_program(ocl, dir, &verbose, opts.run_timeout, "opencl-verbose")?;
    r.chosen = chosen_version(&said.stderr);
    r.opencl_profile = profile::parse(&said.stderr);
    r.opencl_setup_ms = median(
        runs.iter()
            .map(|run| setup_seconds(&run.stderr) * 1e3)
            .collect(),
    );
    r.opencl_ms = Some(ocl_ms);
    r.speedup = (ocl_ms > 0.0).then(|| seq_ms / ocl_ms);
    let c = compare_dumps_with(&seq_dump, &ocl_dump, tolerance(opts, r), r.reassociated);
    r.correct = c.ok();
    r.comparison = Some(c);
    if opts.versions == Versions::All {
        for v in VERSIONS {
            let ms = if v == "device" {
                ocl_ms
            } else {
                let mut envs = envs.clone();
                envs.retain(|(k, _)| *k != "PENCILC_RUN");
                envs.push(("PENCILC_RUN", v));
                let (dump, ms, _) = timed_runs(
                    opts,
                    opts.runs,
                    ocl,
                    dir,
                    &envs,
                    &format!("opencl-{}", v),
                    region_seconds,
                )?;
                let c = compare_dumps_with(&seq_dump, &dump, tolerance(opts, r), r.reassociated);
                if !c.ok() {
                    r.correct = false;
                    r.comparison = Some(c.clone());
                }
                r.versions.push(VersionRun {
                    version: v.to_string(),
                    ms,
                    correct: c.ok(),
                });
                continue;
            };
            r.versions.push(VersionRun {
                version: v.to_string(),
                ms,
                correct: r.comparison.as_ref().is_some_and(|c| c.ok()),
            });
        }
    }

    run_cuda(opts, dir, cuda, &seq_dump, seq_ms, true, r)
}

/// Runs the CUDA program (on a GPU, `runs` timed runs; emulated, one run for
/// its results) and compares it with the sequential dump; without an
/// OpenCL program its result decides correctness.
pub(super) fn run_cuda(
    opts: &HarnessOptions,
    dir: &Path,
    cuda: &Option<PathBuf>,
    seq_dump: &str,
    seq_ms: f64,
    opencl_ran: bool,
    r: &mut KernelResult,
) -> Result<(), String> {
    let Some(exe) = cuda else {
        if !opencl_ran {
            return Err("neither OpenCL nor CUDA was built".into());
        }
        return Ok(());
    };
    let gpu = matches!(opts.cuda, CudaRun::Gpu { .. });
    // An emulated run's time means nothing: run it once, for its results.
    let runs = if gpu { opts.runs } else { 1 };
    // The device version unless another is forced (an emulated run
    // stands for the device).
    let version = match &opts.versions {
        Versions::Forced(v) => v.as_str(),
        Versions::Chosen if gpu => "",
        _ => "device",
    };
    // The profile's synchronisations are the region's own (its copies are
    // synchronous, its kernels waited for): timing it costs a clock read
    // per phase.
    let mut envs: Vec<(&str, &str)> = vec![("PENCILC_PROFILE", "1")];
    if !version.is_empty() {
        envs.push(("PENCILC_RUN", version));
    }
    let (dump, ms, cuda_runs) = timed_runs(opts, runs, exe, dir, &envs, "cuda", region_seconds)?;
    r.cuda_profile = cuda_runs
        .first()
        .and_then(|run| profile::parse(&run.stderr));
    r.cuda_ms = gpu.then_some(ms);
    r.cuda_speedup = r.cuda_ms.filter(|&m| m > 0.0).map(|m| seq_ms / m);
    let reassociated = r.reassociated || r.cuda_reassociated;
    let c = compare_dumps_with(
        seq_dump,
        &dump,
        tolerance_of(opts, reassociated),
        reassociated,
    );
    r.cuda_correct = Some(c.ok());
    if !opencl_ran {
        r.correct = c.ok();
        r.comparison = Some(c);
    }
    Ok(())
}
