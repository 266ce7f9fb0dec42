//! The Tera templates for the fixed host and kernel skeletons, embedded so
//! that the binary needs no data files at run time.

use crate::diag::{Diagnostic, Result};
use tera::{Context, Tera};

const TEMPLATES: &[(&str, &str)] = &[
    (
        "common_macros.h.tera",
        include_str!("../../templates/common_macros.h.tera"),
    ),
    (
        "code_alignment.h.tera",
        include_str!("../../templates/code_alignment.h.tera"),
    ),
    (
        "threads.h.tera",
        include_str!("../../templates/threads.h.tera"),
    ),
    ("pool.h.tera", include_str!("../../templates/pool.h.tera")),
    (
        "host_heap.h.tera",
        include_str!("../../templates/host_heap.h.tera"),
    ),
    (
        "profile.h.tera",
        include_str!("../../templates/profile.h.tera"),
    ),
    (
        "opencl/buffers.c.tera",
        include_str!("../../templates/opencl/buffers.c.tera"),
    ),
    (
        "cuda/buffers.c.tera",
        include_str!("../../templates/cuda/buffers.c.tera"),
    ),
    (
        "opencl/host_prelude.c.tera",
        include_str!("../../templates/opencl/host_prelude.c.tera"),
    ),
    (
        "opencl/region.c.tera",
        include_str!("../../templates/opencl/region.c.tera"),
    ),
    (
        "opencl/launch.c.tera",
        include_str!("../../templates/opencl/launch.c.tera"),
    ),
    (
        "opencl/reduce_launch.c.tera",
        include_str!("../../templates/opencl/reduce_launch.c.tera"),
    ),
    (
        "opencl/slice_launch.c.tera",
        include_str!("../../templates/opencl/slice_launch.c.tera"),
    ),
    (
        "cuda/slice_launch.c.tera",
        include_str!("../../templates/cuda/slice_launch.c.tera"),
    ),
    (
        "opencl/kernel.cl.tera",
        include_str!("../../templates/opencl/kernel.cl.tera"),
    ),
    (
        "cuda/host_prelude.c.tera",
        include_str!("../../templates/cuda/host_prelude.c.tera"),
    ),
    (
        "cuda/region.c.tera",
        include_str!("../../templates/cuda/region.c.tera"),
    ),
    (
        "cuda/launch.c.tera",
        include_str!("../../templates/cuda/launch.c.tera"),
    ),
    (
        "cuda/reduce_launch.c.tera",
        include_str!("../../templates/cuda/reduce_launch.c.tera"),
    ),
    (
        "cuda/kernel.cu.tera",
        include_str!("../../templates/cuda/kernel.cu.tera"),
    ),
    (
        "cuda/kernel.h.tera",
        include_str!("../../templates/cuda/kernel.h.tera"),
    ),
    (
        "choice.h.tera",
        include_str!("../../templates/choice.h.tera"),
    ),
    (
        "c/prelude.c.tera",
        include_str!("../../templates/c/prelude.c.tera"),
    ),
    (
        "c/region.c.tera",
        include_str!("../../templates/c/region.c.tera"),
    ),
];

pub fn load() -> Result<Tera> {
    let mut t = Tera::default();
    t.autoescape_on(vec![]);
    t.add_raw_templates(TEMPLATES.to_vec())
        .map_err(|e| Diagnostic::internal("back", format!("templates: {:?}", e)))?;
    Ok(t)
}

pub fn render(t: &Tera, name: &str, ctx: &Context) -> Result<String> {
    t.render(name, ctx).map_err(|e| {
        let mut msg = e.to_string();
        let mut src = std::error::Error::source(&e);
        while let Some(s) = src {
            msg.push_str(&format!(": {}", s));
            src = s.source();
        }
        Diagnostic::internal("back", format!("template {}: {}", name, msg))
    })
}
