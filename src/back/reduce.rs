//! Parallel reductions on a device (`#pragma pencil independent
//! reduction(op: v)`).
//!
//! Where a kernel only updates `v` through its reduction statements, `v` is
//! privatized: every thread combines its own updates into a private copy
//! (in the order the thread runs them), the copies of one work-group are
//! combined by a tree in local (shared) memory, work-item 0 writes the
//! group's result into a partial array, and a second small kernel
//! (`combine_kernel_body`, a work-group per element) combines the old
//! value of `v` with the partials in an order fixed by their number. The
//! partials live in a buffer of the region (`pencilc_scratch`), not one
//! per launch. The result is the same on every run with the same launch
//! geometry; floating-point sums
//! differ from the sequential program's only by the association of the
//! additions. Scalars of any supported type are privatized (a tree is also
//! much faster than every thread hitting one atomic); whole arrays only
//! when their elements are floating point and there are few of them
//! (`MAX_PRIVATE_ELEMS`, and all the work-group's copies fit in
//! `MAX_PRIVATE_LOCAL_BYTES` of local memory, where they are combined
//! element-wise in thread order): integer array reductions keep their atomic
//! updates, which are exact, and large floating-point arrays too, with a
//! warning that their result depends on the order of the updates.

use super::stmt::atomic_type;
use super::Target;
pub use crate::ast::reductions::{
    group_size, last_block_combines, plan, Plan, Privatized, COMBINE_THREADS,
};
use crate::ast::Launch;
use crate::front::syntax::RedOp;

/// The identity of `op` on `ty` (an `atomic_type` suffix) for `target`.
fn identity(op: RedOp, ty: &str, elem_type: &str, target: Target) -> String {
    let inf = |neg: bool| {
        let s = if neg { "-" } else { "" };
        match (ty, target) {
            // OpenCL's macros through the kernel file's own (see
            // `device_names`).
            ("float", Target::OpenCl) => format!("{}pencilc_inf_float", s),
            ("double", Target::OpenCl) => format!("{}pencilc_inf_double", s),
            ("float", _) => format!("{}__int_as_float(0x7f800000)", s),
            _ => format!("{}__longlong_as_double(0x7ff0000000000000LL)", s),
        }
    };
    let text = match (op, ty) {
        // A floating-point sum's identity is `-0.0`: a sum of negative
        // zeros is `-0.0` in the sequential program, and `+0.0 + -0.0` is
        // `+0.0`.
        (RedOp::Add, "float") => "-0.0f".to_string(),
        (RedOp::Add, "double") => "-0.0".to_string(),
        (RedOp::Add, _) => "0".to_string(),
        (RedOp::Mul, _) => "1".to_string(),
        (RedOp::Min, "int") => "2147483647".to_string(),
        (RedOp::Min, "uint") => "4294967295u".to_string(),
        (RedOp::Min, "long") => "9223372036854775807L".to_string(),
        (RedOp::Min, "ulong") => "18446744073709551615UL".to_string(),
        (RedOp::Min, _) => inf(false),
        (RedOp::Max, "int") => "(-2147483647 - 1)".to_string(),
        (RedOp::Max, "long") => "(-9223372036854775807L - 1)".to_string(),
        (RedOp::Max, "uint" | "ulong") => "0".to_string(),
        (RedOp::Max, _) => inf(true),
        (RedOp::BitAnd, "uint") => "4294967295u".to_string(),
        (RedOp::BitAnd, "ulong") => "18446744073709551615UL".to_string(),
        (RedOp::BitAnd, _) => "(-1)".to_string(),
        (RedOp::BitOr | RedOp::BitXor, _) => "0".to_string(),
    };
    format!("({}) {}", elem_type, text)
}

/// C statement(s) combining `value` into `acc` (both lvalue/expression
/// texts; `value` is evaluated once).
pub fn combine(op: RedOp, elem_type: &str, acc: &str, value: &str) -> String {
    match op {
        RedOp::Add => format!("{} += {};", acc, value),
        RedOp::Mul => format!("{} *= {};", acc, value),
        RedOp::BitAnd => format!("{} &= {};", acc, value),
        RedOp::BitOr => format!("{} |= {};", acc, value),
        RedOp::BitXor => format!("{} ^= {};", acc, value),
        RedOp::Min | RedOp::Max => {
            let cmp = if op == RedOp::Min { "<" } else { ">" };
            format!(
                "{{ {} pencilc_v = {}; if (pencilc_v {} {}) {} = pencilc_v; }}",
                elem_type, value, cmp, acc, acc
            )
        }
    }
}

/// Row-major linear index of `subs` in `extents`.
pub fn linear(extents: &[i64], subs: &[String]) -> String {
    let extents: Vec<String> = extents.iter().map(i64::to_string).collect();
    linear_c(&extents, subs)
}

/// Row-major linear index of `subs` in `extents` (C expressions).
pub fn linear_c(extents: &[String], subs: &[String]) -> String {
    let mut lin = String::new();
    for (k, s) in subs.iter().enumerate() {
        if k == 0 {
            lin = format!("({})", s);
        } else {
            lin = format!("({}) * {} + ({})", lin, extents[k], s);
        }
    }
    if lin.is_empty() {
        "0".to_string()
    } else {
        lin
    }
}

/// Declarations at the top of the kernel: the private copies, set to the
/// operator's identity, and the trees.
pub fn prologue(privs: &[Privatized], group: i64, target: Target) -> String {
    let mut out = String::new();
    for p in privs {
        let ty = atomic_type(&p.elem_type).unwrap_or("int");
        let space = if target == Target::OpenCl {
            "__local"
        } else {
            "__shared__"
        };
        // Scalars: a tree of one value per thread; arrays: every thread's
        // whole copy.
        out.push_str(&format!(
            "    {} {} {}[{}];\n",
            space,
            p.elem_type,
            p.tree_name(),
            group * p.len
        ));
        out.push_str(&format!(
            "    {} {}[{}];\n",
            p.elem_type,
            p.private_name(),
            p.len
        ));
        out.push_str(&format!(
            "    for (int pencilc_e = 0; pencilc_e < {}; pencilc_e += 1)\n        {}[pencilc_e] = {};\n",
            p.len,
            p.private_name(),
            identity(p.op, ty, &p.elem_type, target)
        ));
    }
    out
}

/// The end of the kernel, reached by every thread of the work-group (the
/// kernel body has no early exit): a private scalar goes through the
/// work-group's tree and work-item 0 writes the group's result to the
/// partial array; private arrays are combined element-wise over the
/// threads in thread order.
pub fn epilogue(privs: &[Privatized], launch: &Launch, target: Target) -> String {
    if privs.is_empty() {
        return String::new();
    }
    let group = group_size(launch);
    let (lid, gid, barrier) = linear_ids(launch, target);
    let mut half = 1i64;
    while half * 2 < group {
        half *= 2;
    }
    let mut out = String::new();
    out.push_str("    {\n");
    out.push_str(&format!("        const int pencilc_lid = {};\n", lid));
    out.push_str(&format!("        const int pencilc_gid = {};\n", gid));
    epilogue_trees(privs, group, half, barrier, &mut out);
    out.push_str("    }\n");
    out
}

/// The linear ids of a thread in its block and of its block in the grid
/// (x fastest: `x + size_x * (y + size_y * z)`), and the target's barrier.
fn linear_ids(launch: &Launch, target: Target) -> (String, String, &'static str) {
    let dims = launch.plan.block_sizes.len().max(1);
    let horner = |id: &dyn Fn(usize) -> String, size: &dyn Fn(usize) -> String| {
        let mut acc = id(dims - 1);
        for d in (0..dims - 1).rev() {
            acc = format!("{} + {} * ({})", id(d), size(d), acc);
        }
        acc
    };
    let xyz = ["x", "y", "z"];
    let (lid, gid, barrier) = match target {
        Target::OpenCl => (
            horner(&|d| format!("(int) get_local_id({})", d), &|d| {
                format!("(int) get_local_size({})", d)
            }),
            horner(&|d| format!("(int) get_group_id({})", d), &|d| {
                format!("(int) get_num_groups({})", d)
            }),
            "pencilc_local_barrier();",
        ),
        _ => (
            horner(&|d| format!("(int) threadIdx.{}", xyz[d]), &|d| {
                format!("(int) blockDim.{}", xyz[d])
            }),
            horner(&|d| format!("(int) blockIdx.{}", xyz[d]), &|d| {
                format!("(int) gridDim.{}", xyz[d])
            }),
            "__syncthreads();",
        ),
    };
    (lid, gid, barrier)
}

/// The work-group's trees and its partials (`epilogue`), inside the
/// block that declares `pencilc_lid` and `pencilc_gid`.
fn epilogue_trees(privs: &[Privatized], group: i64, half: i64, barrier: &str, out: &mut String) {
    for p in privs.iter().filter(|p| p.len > 1) {
        // Arrays: all copies into local memory, then each thread combines
        // some elements over the threads in order (one barrier, not a tree
        // per element).
        let tree = p.tree_name();
        out.push_str(&format!(
            "        for (int pencilc_e = 0; pencilc_e < {len}; pencilc_e += 1)\n            {tree}[pencilc_lid * {len} + pencilc_e] = {}[pencilc_e];\n",
            p.private_name(),
            len = p.len,
            tree = tree
        ));
        out.push_str(&format!("        {}\n", barrier));
        out.push_str(&format!(
            "        for (int pencilc_e = pencilc_lid; pencilc_e < {len}; pencilc_e += {group}) {{\n            {ty} pencilc_acc = {tree}[pencilc_e];\n            for (int pencilc_t = 1; pencilc_t < {group}; pencilc_t += 1)\n                {}\n            {}[pencilc_gid * {len} + pencilc_e] = pencilc_acc;\n        }}\n",
            combine(p.op, &p.elem_type, "pencilc_acc", &format!("{}[pencilc_t * {} + pencilc_e]", tree, p.len)),
            p.partial_name(),
            len = p.len,
            group = group,
            ty = p.elem_type,
            tree = tree
        ));
        // The next array's copies go to their own local array: no barrier.
    }
    for p in privs.iter().filter(|p| p.len == 1) {
        let tree = p.tree_name();
        out.push_str(&format!(
            "        for (int pencilc_e = 0; pencilc_e < {}; pencilc_e += 1) {{\n",
            p.len
        ));
        out.push_str(&format!(
            "            {}[pencilc_lid] = {}[pencilc_e];\n",
            tree,
            p.private_name()
        ));
        out.push_str(&format!("            {}\n", barrier));
        if group > 1 {
            out.push_str(&format!(
                "            for (int pencilc_s = {}; pencilc_s > 0; pencilc_s >>= 1) {{\n",
                half
            ));
            out.push_str(&format!(
                "                if (pencilc_lid < pencilc_s && pencilc_lid + pencilc_s < {})\n                    {}\n",
                group,
                combine(
                    p.op,
                    &p.elem_type,
                    &format!("{}[pencilc_lid]", tree),
                    &format!("{}[pencilc_lid + pencilc_s]", tree)
                )
            ));
            out.push_str(&format!("                {}\n", barrier));
            out.push_str("            }\n");
        }
        out.push_str(&format!(
            "            if (pencilc_lid == 0)\n                {}[pencilc_gid * {} + pencilc_e] = {}[0];\n",
            p.partial_name(),
            p.len,
            tree
        ));
        // Work-item 0 reads the tree's root before anyone writes the next
        // element into it.
        out.push_str(&format!("            {}\n", barrier));
        out.push_str("        }\n");
    }
}

/// The counter of `kernel`'s blocks that have written their partials: a
/// device `int` of the region's execution (`pencilc_scratch`, set to
/// zero where the host allocates it), a parameter of the kernel; the last
/// block sets it back to zero for the next launch. Not a `__device__`
/// variable of the kernel file: the regions of several host threads may
/// run the kernel at once (on streams of their own).
pub fn done_counter(kernel: &str) -> String {
    format!("pencilc_done_{}", kernel)
}

/// The end of a CUDA kernel whose last block to finish combines the
/// partials (`last_block_combines`), after `epilogue`: every thread
/// fences its partials' writes, work-item 0 counts its block done, and
/// the block that counts last calls `kernelN_combine(pencilc_lid,
/// blocks, args...)` with all its threads (a branch every thread of the
/// block takes alike, so its barriers are the block's). `args` are the
/// names the kernel passes on, after the thread's id and the number of
/// blocks.
pub fn last_block_call(launch: &Launch, kernel: &str, args: &[String]) -> String {
    let (lid, _, _) = linear_ids(launch, Target::Cuda);
    let done = done_counter(kernel);
    let mut call_args = vec![
        "pencilc_lid".to_string(),
        "(int) pencilc_blocks".to_string(),
    ];
    call_args.extend(args.iter().cloned());
    format!(
        "    {{\n        __shared__ int pencilc_last;\n        const int pencilc_lid = {lid};\n        const unsigned int pencilc_blocks = gridDim.x * gridDim.y * gridDim.z;\n        __threadfence();\n        __syncthreads();\n        if (pencilc_lid == 0)\n            pencilc_last = atomicAdd(&{done}[0], 1) == (int) pencilc_blocks - 1;\n        __syncthreads();\n        if (pencilc_last) {{\n            __threadfence();\n            {kernel}_combine({args});\n            if (pencilc_lid == 0)\n                {done}[0] = 0;\n        }}\n    }}\n",
        lid = lid,
        done = done,
        kernel = kernel,
        args = call_args.join(", ")
    )
}

/// `kernelN_combine` as a device function that the last block of the
/// launch runs with its `threads` threads (`last_block_call`): for each
/// element of each variable, the threads stride over the blocks'
/// partials in order (read past the L1 cache: other blocks wrote them),
/// meet in the kernel's own tree in shared memory (passed in: no more
/// shared memory than the launch's reductions have), and work-item 0
/// combines the result into the variable. The order depends only on the
/// grid and block sizes: the same result on every run of the same launch.
pub fn last_block_combine_body(privs: &[Privatized], threads: i64) -> String {
    let mut half = 1i64;
    while half * 2 < threads {
        half *= 2;
    }
    let mut out = String::new();
    for p in privs {
        let ty = atomic_type(&p.elem_type).unwrap_or("int");
        let tree = p.tree_name();
        let element = match &p.at {
            Some(_) => format!("{}[{} + pencilc_e]", p.var, p.at_name()),
            None => format!("{}[pencilc_e]", p.var),
        };
        out.push_str(&format!(
            "    for (int pencilc_e = 0; pencilc_e < {len}; pencilc_e += 1) {{\n        {ty} pencilc_acc = {id};\n        for (int pencilc_g = pencilc_lid; pencilc_g < pencilc_groups; pencilc_g += {threads})\n            {acc}\n        {tree}[pencilc_lid] = pencilc_acc;\n        __syncthreads();\n",
            len = p.len,
            ty = p.elem_type,
            id = identity(p.op, ty, &p.elem_type, Target::Cuda),
            threads = threads,
            acc = combine(
                p.op,
                &p.elem_type,
                "pencilc_acc",
                &format!(
                    "((volatile {} *) {})[pencilc_g * {} + pencilc_e]",
                    p.elem_type,
                    p.partial_name(),
                    p.len
                )
            ),
            tree = tree
        ));
        if threads > 1 {
            out.push_str(&format!(
                "        for (int pencilc_s = {half}; pencilc_s > 0; pencilc_s >>= 1) {{\n            if (pencilc_lid < pencilc_s && pencilc_lid + pencilc_s < {threads})\n                {c}\n            __syncthreads();\n        }}\n",
                half = half,
                threads = threads,
                c = combine(
                    p.op,
                    &p.elem_type,
                    &format!("{}[pencilc_lid]", tree),
                    &format!("{}[pencilc_lid + pencilc_s]", tree)
                )
            ));
        }
        // Work-item 0 reads the root before the next element's values
        // overwrite the tree.
        out.push_str(&format!(
            "        if (pencilc_lid == 0)\n            {}\n        __syncthreads();\n    }}\n",
            combine(p.op, &p.elem_type, &element, &format!("{}[0]", tree))
        ));
    }
    out
}

/// Threads per work-group of a combining kernel: they stride over the
/// groups' partials, then meet in a tree in local memory. A work-group per
/// element: no single thread walks all the partials (a reduction over
/// 10^7 elements leaves some 10^5 of them).

/// The combining kernel, one work-group of `COMBINE_THREADS` per element:
/// each thread combines the partials `lid, lid + COMBINE_THREADS, ...` in
/// order, a tree in local memory combines the threads' values, and
/// work-item 0 combines the result into the variable's old value. The
/// order of the operations depends only on the number of groups: the
/// result is the same on every run with the same launch geometry.
pub fn combine_kernel_body(privs: &[Privatized], target: Target) -> String {
    let (e, lid, barrier, space) = match target {
        Target::OpenCl => (
            "(int) get_group_id(0)",
            "(int) get_local_id(0)",
            "pencilc_local_barrier();",
            "__local",
        ),
        _ => (
            "(int) blockIdx.x",
            "(int) threadIdx.x",
            "__syncthreads();",
            "__shared__",
        ),
    };
    let n = COMBINE_THREADS;
    let mut out = format!(
        "    const int pencilc_e = {};\n    const int pencilc_lid = {};\n",
        e, lid
    );
    for p in privs {
        let ty = atomic_type(&p.elem_type).unwrap_or("int");
        let tree = p.tree_name();
        let part = |g: &str| format!("{}[({}) * {} + pencilc_e]", p.partial_name(), g, p.len);
        out.push_str(&format!("    {} {} {}[{}];\n", space, p.elem_type, tree, n));
        // No barrier under a branch: every work-item reaches each one
        // (kernel compilers such as PoCL's need not prove a branch
        // uniform), and the work-groups beyond the variable's elements
        // combine identities.
        out.push_str(&format!(
            "    {{\n        {} pencilc_acc = {};\n",
            p.elem_type,
            identity(p.op, ty, &p.elem_type, target)
        ));
        out.push_str(&format!("        if (pencilc_e < {})\n", p.len));
        out.push_str(&format!(
            "            for (int pencilc_g = pencilc_lid; pencilc_g < pencilc_groups; pencilc_g += {})\n                {}\n",
            n,
            combine(p.op, &p.elem_type, "pencilc_acc", &part("pencilc_g"))
        ));
        out.push_str(&format!(
            "        {}[pencilc_lid] = pencilc_acc;\n    }}\n",
            tree
        ));
        out.push_str(&format!("    {}\n", barrier));
        out.push_str(&format!(
            "    for (int pencilc_s = {}; pencilc_s > 0; pencilc_s >>= 1) {{\n        if (pencilc_lid < pencilc_s)\n            {}\n        {}\n    }}\n",
            n / 2,
            combine(
                p.op,
                &p.elem_type,
                &format!("{}[pencilc_lid]", tree),
                &format!("{}[pencilc_lid + pencilc_s]", tree)
            ),
            barrier
        ));
        out.push_str(&format!(
            "    if (pencilc_e < {} && pencilc_lid == 0 && pencilc_groups > 0)\n",
            p.len
        ));
        let element = match &p.at {
            Some(_) => format!("{}[{} + pencilc_e]", p.var, p.at_name()),
            None => format!("{}[pencilc_e]", p.var),
        };
        out.push_str(&format!(
            "        {}\n",
            combine(p.op, &p.elem_type, &element, &format!("{}[0]", tree))
        ));
    }
    out
}
