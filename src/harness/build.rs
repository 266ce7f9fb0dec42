//! Building one kernel's programs: pencilc's output for each target, the
//! sequential reference, OpenCL and CUDA (real or emulated) programs, and
//! what pencilc's `-v` says about the kernel.

use super::*;

pub(super) fn build(opts: &HarnessOptions, k: &Kernel) -> Built {
    let dir = opts.work_dir.join(&k.name);
    let _ = std::fs::remove_dir_all(&dir);
    let mut b = Built {
        result: KernelResult {
            name: k.name.clone(),
            ..KernelResult::default()
        },
        sequential: None,
        opencl: None,
        cuda: None,
        dir: dir.clone(),
        reference: None,
    };
    if let Err(e) = std::fs::create_dir_all(&dir) {
        b.result.error = Some(format!("cannot create {}: {}", dir.display(), e));
        return b;
    }
    if let Err(e) = build_programs(opts, k, &mut b) {
        b.result.error = Some(e);
    }
    b
}

pub(super) fn build_programs(
    opts: &HarnessOptions,
    k: &Kernel,
    b: &mut Built,
) -> Result<(), String> {
    let fl = flags(opts, k);
    let polybench_c = utilities(&opts.polybench).join("polybench.c");
    let host = b.dir.join(format!("{}_host.c", k.name));
    if opts.opencl {
        run_pencilc(opts, k, &fl, "opencl", &host, Some(&mut *b))?;
    }

    let seq = b.dir.join("sequential");
    check(
        Command::new(&opts.cc)
            .args(&opts.cflags)
            .args(&fl)
            .arg(&polybench_c)
            .arg(&k.source)
            .arg("-lm")
            .arg("-o")
            .arg(&seq),
        "building the sequential program",
    )?;
    b.sequential = Some(seq);

    if opts.opencl {
        let ocl = b.dir.join("opencl");
        check(
            Command::new(&opts.cc)
                .args(&opts.cflags)
                .args(&fl)
                .arg("-DPENCILC_TIME_SETUP")
                .arg("-fopenmp")
                .arg(&polybench_c)
                .arg(&host)
                .args(["-lOpenCL", "-lm", "-o"])
                .arg(&ocl),
            "building the OpenCL program",
        )?;
        b.opencl = Some(ocl);
    }

    if opts.cuda != CudaRun::Off {
        // `_cuda_host.c` beside the OpenCL program's `_host.c`; the
        // kernels go to `_cuda_kernel.cu`.
        let host_c = b.dir.join(format!("{}_cuda_host.c", k.name));
        // The report (kernels, parallel dims, compile time) comes from the
        // OpenCL run when there is one.
        let report = (!opts.opencl).then_some(&mut *b);
        let log = run_pencilc(opts, k, &fl, "cuda", &host_c, report)?;
        let mut cuda = KernelResult::default();
        read_verbose_report(&log, &mut cuda);
        b.result.cuda_reassociated = cuda.reassociated;
        let kernel_cu = b.dir.join(format!("{}_cuda_kernel.cu", k.name));
        let exe = b.dir.join("cuda");
        match &opts.cuda {
            CudaRun::Gpu { nvcc, flags } => {
                // nvcc contracts to FMA by default; --fmad=false keeps the
                // results comparable with the sequential program's, as for
                // OpenCL.
                let mut nvcc = Command::new(nvcc);
                nvcc.arg("-O3").args(flags);
                if !opts.fp_contract {
                    nvcc.arg("--fmad=false");
                }
                check(
                    nvcc.args(&fl)
                        .arg("-DPENCILC_TIME_SETUP")
                        .arg(&host_c)
                        .arg(&kernel_cu)
                        .arg(&polybench_c)
                        .arg("-o")
                        .arg(&exe),
                    "nvcc",
                )?;
            }
            CudaRun::Emulated { cxx, runtime } => {
                let pb_o = b.dir.join("polybench.o");
                check(
                    Command::new(&opts.cc)
                        .args(&opts.cflags)
                        .args(&fl)
                        .arg("-c")
                        .arg(&polybench_c)
                        .arg("-o")
                        .arg(&pb_o),
                    "building polybench.c",
                )?;
                let compilers = emulate::Compilers {
                    cc: Path::new(&opts.cc),
                    cxx,
                };
                emulate::build(&compilers, runtime, &host_c, &kernel_cu, &fl, &[pb_o], &exe)?;
            }
            CudaRun::Off => unreachable!(),
        }
        b.cuda = Some(exe);
    }
    Ok(())
}

/// Runs `pencilc -v --target TARGET` on the kernel; with `report`, times
/// it and reads what it says (kernels, parallel dimensions, warnings) into
/// that result.
pub(super) fn run_pencilc(
    opts: &HarnessOptions,
    k: &Kernel,
    fl: &[String],
    target: &str,
    out_file: &Path,
    report: Option<&mut Built>,
) -> Result<String, String> {
    let t = Instant::now();
    let out = check(
        Command::new(&opts.pencilc)
            .args(["-v", "--target", target])
            .args(&opts.pencilc_args)
            .args(&k.flags)
            .args(model_params(opts, k))
            .args(fl)
            .arg("-o")
            .arg(out_file)
            .arg(&k.source),
        &format!("pencilc --target {}", target),
    )?;
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    let Some(b) = report else {
        return Ok(log);
    };
    b.result.compile_ms = t.elapsed().as_secs_f64() * 1e3;
    if target == "opencl" {
        let name = out_file.file_name().unwrap_or_default().to_string_lossy();
        let kernel = out_file.with_file_name(name.replace("_host.c", "_kernel.cl"));
        if let Ok(text) = std::fs::read_to_string(&kernel) {
            b.result.kernel_lines = text.lines().count();
            b.result.barriers = text.matches("barrier(CLK").count();
        }
    }
    std::fs::write(b.dir.join("pencilc.log"), log.as_bytes()).ok();
    read_verbose_report(&log, &mut b.result);
    Ok(log)
}

pub(super) fn read_verbose_report(log: &str, r: &mut KernelResult) {
    for line in log.lines() {
        if let Some(i) = line.find(" kernel(s), parallel dims [") {
            let before = &line[..i];
            r.kernels = before
                .rsplit(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            let rest = &line[i + " kernel(s), parallel dims [".len()..];
            if let Some(end) = rest.find(']') {
                r.parallel_dims = rest[..end]
                    .split(',')
                    .filter_map(|d| d.trim().parse().ok())
                    .collect();
            }
        } else if line.contains(": warning: ") && !line.contains("--gpu-model-params:") {
            // The harness gives every size of the dataset's header; that a
            // kernel spells one as a macro, not a parameter, is no news.
            r.warnings.push(line.trim().to_string());
        } else if line.contains(crate::scop::reductions::REASSOCIATED)
            || line.contains(crate::scop::reductions::REORDERED_CONDITIONAL)
            || line.contains(crate::scop::reductions::REORDERED_ZERO_SIGN)
        {
            r.reassociated = true;
        }
    }
}
