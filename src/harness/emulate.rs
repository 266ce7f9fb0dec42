//! Running generated CUDA without a GPU: pencilc's host file (C) is built
//! with the C compiler and its kernel file with the C++ compiler, both
//! against `tests/fakecuda`, an emulation of the CUDA runtime (its C API
//! in `cuda_runtime_api.h` and `fakecuda_runtime.cpp`; the device side in
//! `cuda_runtime.h`, where the threads of a block are fibers that switch
//! at `__syncthreads()`). C++ has no `<<<...>>>`, so each launch in the
//! kernel file's launchers is rewritten into a call of `fakecuda_launch`
//! first. What this checks is the CUDA backend's semantics (launch
//! geometry, the order of grid and block dimensions, copies in and out,
//! shared memory, barriers, atomics) and that the host file is C; its
//! timings mean nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The compilers of an emulated build: `cc` for the host file (C), `cxx`
/// for the kernel file and the emulation (C++).
pub struct Compilers<'a> {
    pub cc: &'a Path,
    pub cxx: &'a Path,
}

/// Builds pencilc's CUDA output (`host_c`, and `kernel_cu` with its
/// launches rewritten beside it) into the CPU program `exe` against the
/// emulation in `runtime`; `flags` (-I, -D) go to both compilers and
/// `objects` are linked in.
pub fn build(
    compilers: &Compilers,
    runtime: &Path,
    host_c: &Path,
    kernel_cu: &Path,
    flags: &[String],
    objects: &[PathBuf],
    exe: &Path,
) -> Result<(), String> {
    let text = std::fs::read_to_string(kernel_cu)
        .map_err(|e| format!("cannot read {}: {}", kernel_cu.display(), e))?;
    let emulated = kernel_cu.with_extension("emulated.cu");
    std::fs::write(&emulated, rewrite_launches(&text))
        .map_err(|e| format!("cannot write {}: {}", emulated.display(), e))?;
    let host_o = host_c.with_extension("emulated.o");
    super::check(
        Command::new(compilers.cc)
            .args(["-O1", "-I"])
            .arg(runtime)
            .args(flags)
            .args(["-x", "c", "-c"])
            .arg(host_c)
            .arg("-o")
            .arg(&host_o),
        "building the emulated CUDA program's host file (C)",
    )?;
    super::check(
        Command::new(compilers.cxx)
            .args(["-std=c++17", "-O1", "-I"])
            .arg(runtime)
            .args(flags)
            .args(["-x", "c++"])
            .arg(&emulated)
            .arg(runtime.join("fakecuda_runtime.cpp"))
            .args(["-x", "none"])
            .arg(&host_o)
            .args(objects)
            .args(["-lm", "-o"])
            .arg(exe),
        "building the emulated CUDA program's kernels (C++) and linking",
    )
    .map(|_| ())
}

/// Rewrites every `kernel<<<grid, block>>>(args);` statement (pencilc puts
/// each on its own line, in the launchers of the kernel file) into
/// `fakecuda_launch(grid, block, [=] { kernel(args); });`. Other lines
/// are kept as they are.
pub fn rewrite_launches(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.split_inclusive('\n') {
        out.push_str(&rewrite_line(line).unwrap_or_else(|| line.to_string()));
    }
    out
}

fn rewrite_line(line: &str) -> Option<String> {
    let (body, newline) = match line.strip_suffix('\n') {
        Some(b) => (b, "\n"),
        None => (line, ""),
    };
    let open = body.find("<<<")?;
    let close = open + body[open..].find(">>>(")?;
    let stmt = body.trim_end().strip_suffix(");")?;
    let indent_len = body.len() - body.trim_start().len();
    let kernel = body[indent_len..open].trim();
    if kernel.is_empty() || !kernel.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let config = &body[open + 3..close];
    let args = &stmt[close + 4..];
    Some(format!(
        "{}fakecuda_launch({}, [=] {{ {}({}); }});{}",
        &body[..indent_len],
        config,
        kernel,
        args,
        newline
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launches_become_calls_and_nothing_else_changes() {
        let kernels = "    dim3 pencilc_grid(pencilc_grid_x, pencilc_grid_y);\n    kernel0<<<pencilc_grid, pencilc_block>>>(A, B, alpha);\n    k_combine<<<(n > 1 ? n : 1), 1>>>(dev_x, (int) g);\nint a = b >> 2;\n";
        assert_eq!(
            rewrite_launches(kernels),
            "    dim3 pencilc_grid(pencilc_grid_x, pencilc_grid_y);\n    fakecuda_launch(pencilc_grid, pencilc_block, [=] { kernel0(A, B, alpha); });\n    fakecuda_launch((n > 1 ? n : 1), 1, [=] { k_combine(dev_x, (int) g); });\nint a = b >> 2;\n"
        );
    }
}
