//! pencilc as a step of someone's build: dependency files that Make and
//! Ninja read (odd file names included), a header edit that reruns
//! pencilc on exactly the sources that include it, the CMake module and
//! the example project built by CMake (Ninja and Makefiles) and by Make
//! with the programs run on PoCL against their sequential builds, byte-
//! identical output for the PolyBench suite compiled twice, and a failed
//! step that leaves nothing behind.

mod common;
use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// Copies the folder `from` to `to` (files and folders only).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Every file under `dir` (relative path → contents).
fn tree_contents(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

fn mtime(p: &Path) -> SystemTime {
    std::fs::metadata(p)
        .and_then(|m| m.modified())
        .unwrap_or_else(|e| panic!("{}: {}", p.display(), e))
}

/// Rewrites `header` with `from` replaced by `to`, and waits until its
/// time stamp is later than every file of `outputs` (file systems stamp
/// with a coarse clock), so that the build tools see it as newer.
fn edit_header(header: &Path, from: &str, to: &str, outputs: &[PathBuf]) {
    let newest = outputs.iter().map(|p| mtime(p)).max().unwrap();
    let text = std::fs::read_to_string(header).unwrap();
    assert!(
        text.contains(from),
        "{} has no `{}`",
        header.display(),
        from
    );
    loop {
        std::fs::write(header, text.replace(from, to)).unwrap();
        if mtime(header) > newest {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// What a program prints, run on the OpenCL CPU device.
fn run_output(exe: &Path) -> String {
    let out = run(
        Command::new(exe)
            .env("PENCILC_OPENCL_DEVICE", "cpu")
            .env("PENCILC_RUN", "device"),
        &format!("running {}", exe.display()),
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The example's program `name` built sequentially with cc from the
/// (possibly edited) sources in `example`: what the pencilc build must
/// print.
fn sequential_output(example: &Path, name: &str) -> String {
    let exe = example.join(format!("seq-{}", name));
    run(
        Command::new("cc")
            .arg("-O2")
            .arg("-I")
            .arg(example.join("include"))
            .arg(example.join("src").join(format!("{}.c", name)))
            .arg("-o")
            .arg(&exe),
        "cc (sequential)",
    );
    run_output(&exe)
}

/// Both example programs of `example`, built into `bin`, print what
/// their sequential builds print.
fn check_programs(example: &Path, bin: &Path) {
    for name in ["saxpy", "blur"] {
        let got = run_output(&bin.join(name));
        assert_eq!(got, sequential_output(example, name), "{}", name);
        assert!(got.contains("checksum="), "{}", got);
    }
}

/// The example built with its Makefile: the generated programs give the
/// sequential results; editing include/params.h reruns pencilc on
/// saxpy.c only (blur's outputs keep their time stamps), and the rebuilt
/// program gives the new sequential result; a second `make` does nothing.
#[test]
fn make_reruns_pencilc_only_for_sources_of_the_edited_header() {
    if !have("make") {
        skipped(
            "build_step: make_reruns_pencilc_only_for_sources_of_the_edited_header",
            "no make (scripts/setup-deps.sh installs it)",
        );
        return;
    }
    if !opencl_available() {
        skipped(
            "build_step: make_reruns_pencilc_only_for_sources_of_the_edited_header",
            "no OpenCL (PoCL) to run the programs",
        );
        return;
    }
    let dir = scratch("build-step-make");
    let example = dir.join("example");
    copy_tree(&root().join("examples/build-step"), &example);
    let make = || {
        let out = run(
            Command::new("make")
                .current_dir(&example)
                .arg(format!("PENCILC={}", pencilc().display())),
            "make",
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let log = make();
    assert!(
        log.contains("src/saxpy.c") && log.contains("src/blur.c"),
        "{}",
        log
    );
    let out = example.join("build-make");
    check_programs(&example, &out);
    let dep = std::fs::read_to_string(out.join("saxpy_host.d")).unwrap();
    assert_eq!(
        dep,
        "build-make/saxpy_host.c build-make/saxpy_kernel.cl: src/saxpy.c \\\n include/params.h\n\ninclude/params.h:\n"
    );

    let outputs: Vec<PathBuf> = [
        "saxpy_host.c",
        "saxpy_kernel.cl",
        "blur_host.c",
        "blur_kernel.cl",
    ]
    .iter()
    .map(|f| out.join(f))
    .collect();
    let before: Vec<SystemTime> = outputs.iter().map(|p| mtime(p)).collect();
    edit_header(
        &example.join("include/params.h"),
        "#define N 4096",
        "#define N 3000",
        &outputs,
    );
    let log = make();
    assert!(
        log.contains("src/saxpy.c"),
        "saxpy not recompiled:\n{}",
        log
    );
    assert!(!log.contains("src/blur.c"), "blur recompiled:\n{}", log);
    let after: Vec<SystemTime> = outputs.iter().map(|p| mtime(p)).collect();
    assert!(
        after[0] > before[0] && after[1] > before[1],
        "saxpy's outputs not rewritten"
    );
    assert_eq!(&after[2..], &before[2..], "blur's outputs were touched");
    check_programs(&example, &out);
    assert!(run_output(&out.join("saxpy")).contains("n=3000"));
    let log = make();
    assert!(!log.contains("pencilc"), "nothing to do, yet:\n{}", log);
}

/// cmake/PencilcConfig.cmake on the example with each generator whose
/// tool is here: the programs give the sequential results, and editing
/// include/blur.h reruns pencilc on blur.c only.
#[test]
fn cmake_module_builds_the_example_with_ninja_and_make() {
    let test = "build_step: cmake_module_builds_the_example_with_ninja_and_make";
    if !have("cmake") {
        skipped(test, "no cmake (scripts/setup-deps.sh installs it)");
        return;
    }
    if !opencl_available() {
        skipped(test, "no OpenCL (PoCL) to run the programs");
        return;
    }
    for (generator, tool) in [("Ninja", "ninja"), ("Unix Makefiles", "make")] {
        if !have(tool) {
            skipped(
                &format!("{} ({})", test, generator),
                &format!("no {} (scripts/setup-deps.sh installs it)", tool),
            );
            continue;
        }
        let dir = scratch(&format!("build-step-cmake-{}", tool));
        let example = dir.join("example");
        copy_tree(&root().join("examples/build-step"), &example);
        let build = dir.join("build");
        run(
            Command::new("cmake")
                .arg("-S")
                .arg(&example)
                .arg("-B")
                .arg(&build)
                .args(["-G", generator])
                .arg(format!("-DPencilc_DIR={}", root().join("cmake").display()))
                .arg(format!("-DPENCILC_EXECUTABLE={}", pencilc().display())),
            &format!("cmake configure ({})", generator),
        );
        let cmake_build = || {
            run(
                Command::new("cmake").arg("--build").arg(&build),
                &format!("cmake --build ({})", generator),
            )
        };
        cmake_build();
        check_programs(&example, &build);
        let gen = build.join("pencilc");
        let outputs = vec![
            gen.join("saxpy/saxpy_host.c"),
            gen.join("saxpy/saxpy_kernel.cl"),
            gen.join("blur/blur_host.c"),
            gen.join("blur/blur_kernel.cl"),
        ];
        let before: Vec<SystemTime> = outputs.iter().map(|p| mtime(p)).collect();
        edit_header(
            &example.join("include/blur.h"),
            "#define W 96",
            "#define W 80",
            &outputs,
        );
        cmake_build();
        let after: Vec<SystemTime> = outputs.iter().map(|p| mtime(p)).collect();
        assert_eq!(
            &after[..2],
            &before[..2],
            "{}: saxpy regenerated after an edit of blur.h",
            generator
        );
        assert!(
            after[2] > before[2],
            "{}: blur not regenerated after an edit of blur.h",
            generator
        );
        check_programs(&example, &build);
        assert!(run_output(&build.join("blur")).contains("blur 80x64"));
    }
}

/// The CMake module's CUDA mode: a project with the CUDA language builds
/// one of the example's programs from pencilc's `.cu` files with nvcc
/// (compiled and linked; no GPU here to run it), and an edit of its
/// header regenerates them.
#[test]
fn cmake_module_builds_cuda_sources_with_nvcc() {
    let test = "build_step: cmake_module_builds_cuda_sources_with_nvcc";
    if !have("cmake") || !have("ninja") {
        skipped(
            test,
            "no cmake or ninja (scripts/setup-deps.sh installs them)",
        );
        return;
    }
    let Some(nvcc) = nvcc() else {
        skipped(test, "nvcc could not be installed (scripts/setup-nvcc.sh)");
        return;
    };
    let dir = scratch("build-step-cmake-cuda");
    let example = dir.join("example");
    copy_tree(&root().join("examples/build-step"), &example);
    std::fs::write(
        example.join("CMakeLists.txt"),
        "cmake_minimum_required(VERSION 3.20)\n\
         project(pencilc_cuda C CUDA)\n\
         find_package(Pencilc REQUIRED)\n\
         add_executable(saxpy)\n\
         target_include_directories(saxpy PRIVATE include)\n\
         pencilc_add_sources(saxpy CUDA src/saxpy.c)\n",
    )
    .unwrap();
    let build = dir.join("build");
    run(
        Command::new("cmake")
            .arg("-S")
            .arg(&example)
            .arg("-B")
            .arg(&build)
            .args(["-G", "Ninja", "-DCMAKE_CUDA_ARCHITECTURES=90"])
            .arg(format!("-DCMAKE_CUDA_COMPILER={}", nvcc.display()))
            .arg(format!("-DPencilc_DIR={}", root().join("cmake").display()))
            .arg(format!("-DPENCILC_EXECUTABLE={}", pencilc().display())),
        "cmake configure (CUDA)",
    );
    run(
        Command::new("cmake").arg("--build").arg(&build),
        "cmake --build (CUDA)",
    );
    assert!(build.join("saxpy").exists());
    let host = build.join("pencilc/saxpy/saxpy_host.c");
    let before = mtime(&host);
    edit_header(
        &example.join("include/params.h"),
        "#define N 4096",
        "#define N 2048",
        std::slice::from_ref(&host),
    );
    run(
        Command::new("cmake").arg("--build").arg(&build),
        "cmake --build (CUDA, after the edit)",
    );
    assert!(mtime(&host) > before, "saxpy_host.c not regenerated");
}

/// File names with spaces, `$`, `#` and colons in the input, a header
/// and the output folder: the dependency file is escaped so that GNU
/// Make and Ninja both read the names back, and an edit of the header
/// reruns pencilc under each.
#[test]
fn odd_file_names_survive_make_and_ninja() {
    let dir = scratch("build-step-odd");
    let src_dir = dir.join("in c$#:l");
    std::fs::create_dir_all(&src_dir).unwrap();
    let header = src_dir.join("s p$#:.h");
    std::fs::write(&header, "#define N 64\n").unwrap();
    std::fs::write(
        src_dir.join("k e$#:y.c"),
        "#include \"s p$#:.h\"\nvoid f(double A[N]) {\n#pragma scop\n  for (int i = 0; i < N; i++)\n    A[i] = 2 * A[i];\n#pragma endscop\n}\n",
    )
    .unwrap();
    let out = run(
        Command::new(pencilc())
            .current_dir(&dir)
            .args(["-MMD", "-MP", "-MF", "deps.d", "-I", "in c$#:l"])
            .args(["--output-dir", "out d", "in c$#:l/k e$#:y.c"]),
        "pencilc",
    );
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(dir.join("deps.d")).unwrap(),
        "out\\ d/k\\ e$$\\#\\:y_host.c out\\ d/k\\ e$$\\#\\:y_kernel.cl: in\\ c$$\\#\\:l/k\\ e$$\\#\\:y.c \\\n in\\ c$$\\#\\:l/s\\ p$$\\#\\:.h\n\nin\\ c$$\\#\\:l/s\\ p$$\\#\\:.h:\n"
    );
    let host = dir.join("out d/k e$#:y_host.c");
    let header_text = std::fs::read_to_string(&host).unwrap();
    // The command names the input as given, quoted for a shell, and not
    // the dependency options.
    assert!(
        header_text
            .contains("Command: pencilc -I 'in c$#:l' --output-dir 'out d' 'in c$#:l/k e$#:y.c'"),
        "{}",
        &header_text[..300.min(header_text.len())]
    );

    if have("make") {
        std::fs::write(
            dir.join("Makefile"),
            format!(
                "out\\ d/k\\ e$$\\#\\:y_host.c: in\\ c$$\\#\\:l/k\\ e$$\\#\\:y.c\n\t'{}' -MMD -MP -MF deps.d -I 'in c$$#:l' --output-dir 'out d' 'in c$$#:l/k e$$#:y.c'\n-include deps.d\n",
                pencilc().display()
            ),
        )
        .unwrap();
        let make = || {
            let out = run(Command::new("make").current_dir(&dir), "make");
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        assert!(make().contains("is up to date"));
        edit_header(&header, "64", "65", std::slice::from_ref(&host));
        assert!(make().contains("--output-dir"), "make missed the header");
        assert!(make().contains("is up to date"));
    } else {
        skipped(
            "build_step: odd_file_names_survive_make_and_ninja (make)",
            "no make",
        );
    }
    if have("ninja") {
        std::fs::write(
            dir.join("build.ninja"),
            format!(
                "rule pencilc\n  command = '{}' -MD -MF ninja.d -I 'in c$$#:l' --output-dir 'out d' $in\n  depfile = ninja.d\n  deps = gcc\nbuild out$ d/k$ e$$#$:y_host.c: pencilc in$ c$$#$:l/k$ e$$#$:y.c\n",
                pencilc().display()
            ),
        )
        .unwrap();
        let ninja = || {
            let out = run(Command::new("ninja").current_dir(&dir), "ninja");
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        assert!(ninja().contains("--output-dir"));
        assert!(ninja().contains("no work to do"));
        edit_header(&header, "65", "66", std::slice::from_ref(&host));
        assert!(ninja().contains("--output-dir"), "ninja missed the header");
        assert!(ninja().contains("no work to do"));
    } else {
        skipped(
            "build_step: odd_file_names_survive_make_and_ninja (ninja)",
            "no ninja (scripts/setup-deps.sh installs ninja-build)",
        );
    }
}

/// What -MD and -MMD list: the input, then the headers in the order the
/// preprocessor entered them (-MMD: those `cc -MM` lists too), then
/// pencilc's own inputs; the embedded PENCIL headers never (they are part
/// of pencilc). The default file is the host output with `.d`, and the
/// default targets are every file written.
#[test]
fn dependency_files_list_every_file_read() {
    let dir = scratch("build-step-deps");
    let gemm = kernel_path("gemm");
    let rel = gemm.strip_prefix(root()).unwrap().to_path_buf();
    let inc = rel.parent().unwrap().to_path_buf();
    let schedule = dir.join("gemm.sched");
    run(
        Command::new(pencilc())
            .current_dir(root())
            .args(["-I", "polybench/utilities", "-I"])
            .arg(&inc)
            .arg("--save-schedule")
            .arg(&schedule)
            .args(["--emit", "schedule"])
            .arg(&rel),
        "pencilc --save-schedule",
    );
    let device = root().join("devices/nvidia-h100.toml");
    let mmd = run(
        Command::new(pencilc())
            .current_dir(root())
            .args(["-MMD", "-I", "polybench/utilities", "-I"])
            .arg(&inc)
            .arg("--load-schedule")
            .arg(&schedule)
            .arg("--device")
            .arg(&device)
            .arg("--output-dir")
            .arg(dir.join("mmd"))
            .arg(&rel),
        "pencilc -MMD",
    );
    assert!(mmd.status.success());
    let text = std::fs::read_to_string(dir.join("mmd/gemm_host.d")).unwrap();
    let (targets, prereqs) = text.split_once(": ").unwrap();
    assert_eq!(
        targets,
        format!(
            "{} {}",
            dir.join("mmd/gemm_host.c").display(),
            dir.join("mmd/gemm_kernel.cl").display()
        )
    );
    let listed: Vec<&str> = prereqs
        .split(" \\\n")
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    // gcc's own list for the same preprocessing.
    let cc = run(
        Command::new("cc")
            .current_dir(root())
            .args(["-MM", "-I", "polybench/utilities", "-I"])
            .arg(&inc)
            .arg(&rel),
        "cc -MM",
    );
    let gcc: Vec<String> = String::from_utf8_lossy(&cc.stdout)
        .split_once(':')
        .unwrap()
        .1
        .split_whitespace()
        .filter(|w| *w != "\\")
        .map(str::to_string)
        .collect();
    let schedule_s = schedule.display().to_string();
    let device_s = device.display().to_string();
    let mut expected: Vec<&str> = gcc.iter().map(String::as_str).collect();
    expected.push(&schedule_s);
    expected.push(&device_s);
    assert_eq!(listed, expected, "{}", text);

    // -MD adds the system headers gcc -M lists; -MF and -MQ as asked.
    run(
        Command::new(pencilc())
            .current_dir(root())
            .args(["-MD", "-MQ", "a $target", "-MF"])
            .arg(dir.join("md.d"))
            .args(["-I", "polybench/utilities", "-I"])
            .arg(&inc)
            .arg("--output-dir")
            .arg(dir.join("md"))
            .arg(&rel),
        "pencilc -MD",
    );
    let md = std::fs::read_to_string(dir.join("md.d")).unwrap();
    assert!(md.starts_with("a\\ $$target: polybench/"), "{}", md);
    assert!(md.contains(" /usr/include/stdio.h"), "{}", md);
    assert!(
        !md.contains("pencil-headers") && !md.contains("pencilc-0"),
        "{}",
        md
    );
    assert!(!dir.join("md/gemm_host.d").exists());
}

/// The 30 PolyBench kernels compiled in one batch twice, from two copies
/// of the sources at different places, with -j4 and -j1 and relative
/// paths: every output and dependency file is byte-identical, and none
/// names a folder of this machine. Then the CUDA target with a device
/// file given by a relative path (the PENCIL corpus' abf): the same.
#[test]
fn outputs_are_byte_identical_wherever_and_however_parallel() {
    let dir = scratch("build-step-repro");
    let list = std::fs::read_to_string(root().join("polybench/kernels.txt")).unwrap();
    let files: Vec<String> = list
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .map(|p| format!("polybench/{}", p))
        .collect();
    assert_eq!(files.len(), 30);
    let mut trees = Vec::new();
    for (place, jobs) in [("a", "4"), ("b/deeper/still", "1")] {
        let base = dir.join(place);
        copy_tree(&root().join("polybench"), &base.join("polybench"));
        let mut cmd = Command::new(pencilc());
        cmd.current_dir(&base)
            .args(["-j", jobs, "-MD", "--output-dir", "out"])
            // Under the load of the tests around it a region could run out
            // of the default time and take a fallback in one build only:
            // output is deterministic for the same schedule, not for the
            // same deadline.
            .args(["--schedule-timeout", "600"])
            .args(["-I", "polybench/utilities", "-DMINI_DATASET"]);
        for f in &files {
            cmd.arg("-I").arg(Path::new(f).parent().unwrap());
        }
        cmd.args(&files);
        run(&mut cmd, &format!("pencilc -j{} on the suite", jobs));
        let t = tree_contents(&base.join("out"));
        assert_eq!(t.len(), 90, "host, kernel and dependency file per kernel");
        for (p, bytes) in &t {
            let text = String::from_utf8_lossy(bytes);
            for machine in [dir.display().to_string(), root().display().to_string()] {
                assert!(
                    !text.contains(&machine),
                    "{} names {}",
                    p.display(),
                    machine
                );
            }
        }
        trees.push(t);
    }
    for (p, bytes) in &trees[0] {
        assert!(
            trees[1].get(p) == Some(bytes),
            "{} differs between the two builds",
            p.display()
        );
    }
    let gemm = String::from_utf8_lossy(&trees[0][Path::new("gemm_host.c")]).into_owned();
    assert!(
        gemm.lines().nth(1).unwrap().starts_with(
            " * Command: pencilc --output-dir out --schedule-timeout 600 -I polybench/utilities -DMINI_DATASET -I"
        ) && gemm
            .lines()
            .nth(1)
            .unwrap()
            .ends_with(" polybench/linear-algebra/blas/gemm/gemm.c"),
        "{}",
        gemm.lines().nth(1).unwrap()
    );

    let mut cuda = Vec::new();
    for place in ["c", "d/deeper"] {
        let base = dir.join(place);
        copy_tree(&root().join("examples/pencil"), &base.join("pencil"));
        copy_tree(&root().join("pencil-headers"), &base.join("headers"));
        run(
            Command::new(pencilc())
                .current_dir(&base)
                .args(["--target", "cuda", "-MMD", "-I", "headers"])
                .args(["--cuda-include-file", "pencil/abf_fft32.cu"])
                .args(["--output-dir", "out/cuda", "pencil/abf.c"]),
            "pencilc --target cuda",
        );
        cuda.push(tree_contents(&base.join("out")));
    }
    assert_eq!(cuda[0], cuda[1], "CUDA outputs differ between places");
    let kernel = String::from_utf8_lossy(&cuda[0][Path::new("cuda/abf_kernel.cu")]).into_owned();
    assert!(
        kernel.contains("#include \"../../pencil/abf_fft32.cu\""),
        "the device file is included relative to the kernel file:\n{}",
        kernel
    );
    let deps = String::from_utf8_lossy(&cuda[0][Path::new("cuda/abf_host.d")]).into_owned();
    assert!(deps.ends_with(" \\\n pencil/abf_fft32.cu\n"), "{}", deps);
}

/// A step that fails writes nothing and says why: a dependency file that
/// cannot be written (its folder would be below a regular file) is an
/// error with the path, the outputs of that run are removed, and no
/// panic; --write-if-changed leaves an unchanged output's time stamp.
#[test]
fn failed_steps_leave_nothing_and_unchanged_outputs_keep_their_stamps() {
    let dir = scratch("build-step-fail");
    let src = dir.join("k.c");
    std::fs::write(
        &src,
        "void f(int n, double A[100]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    A[i] = A[i] + 1;\n#pragma endscop\n}\n",
    )
    .unwrap();
    let blocker = dir.join("file");
    std::fs::write(&blocker, "").unwrap();
    let out = Command::new(pencilc())
        .arg("-MD")
        .arg("-MF")
        .arg(blocker.join("deps.d"))
        .arg("--output-dir")
        .arg(dir.join("out"))
        .arg(&src)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", err);
    assert!(
        err.contains("error: cannot write") && err.contains("deps.d") && err.contains("[E0301]"),
        "{}",
        err
    );
    assert!(!err.contains("panicked"), "{}", err);
    assert!(!dir.join("out/k_host.c").exists() && !dir.join("out/k_kernel.cl").exists());

    // The dependency file is an output: never over an input.
    let out = Command::new(pencilc())
        .args(["-MD", "-MF"])
        .arg(&src)
        .arg("--output-dir")
        .arg(dir.join("out"))
        .arg(&src)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("would overwrite the input"));
    // -MF without -MD, and -MF with several inputs, are usage errors.
    for args in [vec!["-MF", "x.d"], vec!["-MD", "-MF", "x.d", "a.c"]] {
        let out = Command::new(pencilc())
            .current_dir(&dir)
            .args(&args)
            .arg("k.c")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{:?}", args);
    }

    let compile = |extra: &[&str]| {
        run(
            Command::new(pencilc())
                .args(extra)
                .arg("--output-dir")
                .arg(dir.join("keep"))
                .arg(&src),
            "pencilc",
        );
        mtime(&dir.join("keep/k_host.c"))
    };
    let first = compile(&["--write-if-changed"]);
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_eq!(compile(&["--write-if-changed"]), first);
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(compile(&[]) > first);
}

/// The watchdog's warnings (a worker that crashed, compiled again one
/// rung lower) arrive after that worker wrote its files: under -Werror
/// they fail the step all the same, and those files are removed.
#[test]
fn werror_counts_the_watchdogs_warnings_and_removes_what_was_written() {
    let dir = scratch("build-step-werror-watchdog");
    let gemm = kernel_path("gemm");
    let compile = |extra: &[&str]| {
        Command::new(pencilc())
            .args(["--debug-fault", "crash:full", "-MD", "--output-dir"])
            .arg(dir.join(if extra.is_empty() { "plain" } else { "out" }))
            .args(flags(&gemm, "MINI"))
            .args(extra)
            .arg(&gemm)
            .output()
            .unwrap()
    };
    let out = compile(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}", err);
    assert!(
        err.contains("warning: region 1") && err.contains("[E0201]"),
        "{}",
        err
    );
    assert!(dir.join("plain/gemm_host.d").exists());
    // As gcc, a failed step removes what it wrote, not what earlier runs
    // left (so a fresh folder here).
    let out = compile(&["-Werror"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", err);
    assert!(
        err.contains("error: region 1") && err.contains("-Werror"),
        "{}",
        err
    );
    for f in ["gemm_host.c", "gemm_kernel.cl", "gemm_host.d"] {
        assert!(!dir.join("out").join(f).exists(), "{} left behind", f);
    }
}
