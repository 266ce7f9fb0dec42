//! Running generated CUDA without a GPU: the host and kernel files are
//! built as C++ against `tests/fakecuda/cuda_runtime.h`, an emulation of
//! the CUDA runtime in which the threads of a block are fibers that switch
//! at `__syncthreads()` (see that file). C++ has no `<<<...>>>`, so each
//! launch is rewritten into a call of `fakecuda_launch` first. What this checks is
//! the CUDA backend's semantics (launch geometry, the order of grid and
//! block dimensions, copies in and out, shared memory, barriers, atomics);
//! its timings mean nothing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds pencilc's CUDA output (`host_cu` with its launches rewritten
/// beside it, `kernel_cu`) into the CPU program `exe` with the C++
/// compiler `cxx` against the emulation in `runtime`; `flags` (-I, -D) go
/// to the compiler and `objects` are linked in.
pub fn build(
    cxx: &Path,
    runtime: &Path,
    host_cu: &Path,
    kernel_cu: &Path,
    flags: &[String],
    objects: &[PathBuf],
    exe: &Path,
) -> Result<(), String> {
    let text = std::fs::read_to_string(host_cu)
        .map_err(|e| format!("cannot read {}: {}", host_cu.display(), e))?;
    let emulated = host_cu.with_extension("emulated.cu");
    std::fs::write(&emulated, rewrite_launches(&text))
        .map_err(|e| format!("cannot write {}: {}", emulated.display(), e))?;
    super::check(
        Command::new(cxx)
            .args(["-std=c++17", "-O1", "-I"])
            .arg(runtime)
            .args(flags)
            .args(["-x", "c++"])
            .arg(&emulated)
            .arg(kernel_cu)
            .args(["-x", "none"])
            .args(objects)
            .args(["-lm", "-o"])
            .arg(exe),
        "building the emulated CUDA program",
    )
    .map(|_| ())
}

/// Rewrites every `kernel<<<grid, block>>>(args);` statement (pencilc puts
/// each on its own line) into `fakecuda_launch(grid, block, [=] {
/// kernel(args); });`. Other lines are kept as they are.
pub fn rewrite_launches(host: &str) -> String {
    let mut out = String::with_capacity(host.len() + 256);
    for line in host.split_inclusive('\n') {
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
        let host = "    dim3 grid(3, 2);\n        kernel0<<<grid, block>>>(dev_A, dev_B, alpha);\n    k_combine<<<(n > 1 ? n : 1), 1>>>(dev_x, (int) g);\nint a = b >> 2;\n";
        assert_eq!(
            rewrite_launches(host),
            "    dim3 grid(3, 2);\n        fakecuda_launch(grid, block, [=] { kernel0(dev_A, dev_B, alpha); });\n    fakecuda_launch((n > 1 ? n : 1), 1, [=] { k_combine(dev_x, (int) g); });\nint a = b >> 2;\n"
        );
    }
}
