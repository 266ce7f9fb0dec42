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
use crate::ast::{Ast, Launch};
use crate::diag::{Code, Diagnostic};
use crate::front::syntax::RedOp;
use crate::scop::{only_reduction_uses, Extent, Scop};
use std::collections::BTreeSet;

/// The largest floating-point array (in elements) that each thread keeps a
/// private copy of; larger ones keep atomic updates.
pub const MAX_PRIVATE_ELEMS: i64 = 128;

/// Local memory for all of one launch's reductions (a scalar's tree, an
/// array's copies side by side for every thread), in bytes. The memory
/// planner keeps this much of the device's shared memory free in kernels
/// with reductions (`map::memory::REDUCTION_LOCAL_BYTES`), so the two
/// together never exceed it.
pub const MAX_PRIVATE_LOCAL_BYTES: i64 = crate::map::memory::REDUCTION_LOCAL_BYTES;

/// A reduction variable that one kernel privatizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Privatized {
    pub var: String,
    /// Element type as C text (from the scop).
    pub elem_type: String,
    pub op: RedOp,
    /// Elements: 1 for a scalar.
    pub len: i64,
    /// The declared extents (empty for a scalar), for linearising.
    pub extents: Vec<i64>,
}

impl Privatized {
    /// Each thread's copy: `T pencilc_red_v[len]`.
    pub fn private_name(&self) -> String {
        format!("pencilc_red_{}", self.var)
    }
    /// The work-group's tree in local memory.
    pub fn tree_name(&self) -> String {
        format!("pencilc_tree_{}", self.var)
    }
    /// One result per work-group and element, in global memory.
    pub fn partial_name(&self) -> String {
        format!("pencilc_partial_{}", self.var)
    }
}

/// How one launch's reductions are carried out.
#[derive(Debug, Default)]
pub struct Plan {
    pub privatized: Vec<Privatized>,
    /// `-v` lines (`kernel[k] v: ...`).
    pub notes: Vec<String>,
    pub warnings: Vec<Diagnostic>,
}

/// Decides, for the launch whose kernel function is `kernel`, which
/// reduction variables are privatized and which
/// keep atomic updates. Notes name the kernel as `-v` and `--sizes` do,
/// `kernel[<mapper's number>]`: one mapped kernel can give several launches.
pub fn plan(scop: &Scop, launch: &Launch, kernel: &str) -> Plan {
    let mut stmts = BTreeSet::new();
    let mut promoted = BTreeSet::new();
    launch.body.walk(&mut |n| match n {
        Ast::User {
            stmt, promoted: p, ..
        } => {
            stmts.insert(stmt.0);
            promoted.extend(p.iter().map(|p| p.array.clone()));
        }
        Ast::Copy { array, .. } => {
            promoted.insert(array.clone());
        }
        _ => {}
    });
    let mut vars: Vec<(String, RedOp)> = Vec::new();
    for &s in &stmts {
        for (v, op) in &scop.stmts[s].reductions {
            if !vars.iter().any(|(w, _)| w == v) {
                vars.push((v.clone(), *op));
            }
        }
    }
    vars.sort();
    let mut out = Plan::default();
    // Local memory the privatized variables take so far.
    let mut local_bytes = 0;
    for (var, op) in vars {
        let Some(array) = scop.array(&var) else {
            continue;
        };
        let Some(ty) = atomic_type(&array.elem_type) else {
            // The atomic path reports the unsupported type.
            continue;
        };
        let float = ty == "float" || ty == "double";
        let loc = stmts
            .iter()
            .map(|&s| &scop.stmts[s])
            .find(|st| st.reductions.iter().any(|(v, _)| v == &var))
            .map(|st| st.loc.clone());
        // Why the kernel cannot privatize `var`, if it cannot.
        let mut why_not: Option<String> = None;
        for &s in &stmts {
            let st = &scop.stmts[s];
            let touches = st
                .reads
                .iter()
                .chain(st.writes.iter())
                .any(|a| a.array == var);
            if !touches {
                continue;
            }
            let same_op = st.reductions.iter().any(|(v, o)| v == &var && *o == op);
            if !same_op || !only_reduction_uses(&st.body, &var, op) {
                why_not = Some(format!(
                    "the kernel also uses it outside its {} updates ({})",
                    op.name(),
                    st.name
                ));
                break;
            }
        }
        if why_not.is_none() && !array.is_scalar() && !float {
            why_not = Some(format!(
                "integer {} updates are exact as atomics",
                op.name()
            ));
        }
        if why_not.is_none() && promoted.contains(&var) {
            why_not = Some("it has a local-memory or register tile".to_string());
        }
        let mut extents = Vec::new();
        for e in &array.extents {
            match e {
                Extent::Const(c) => extents.push(*c),
                Extent::Expr { .. } | Extent::Accessed => {
                    if why_not.is_none() {
                        why_not = Some("its size is not a constant".to_string());
                    }
                }
            }
        }
        let len: i64 = extents.iter().product();
        let elem_bytes = if ty == "double" || ty == "long" || ty == "ulong" {
            8
        } else {
            4
        };
        let bytes = len.max(1) * group_size(launch) * elem_bytes;
        if why_not.is_none() && !array.is_scalar() {
            if len > MAX_PRIVATE_ELEMS {
                why_not = Some(format!(
                    "{} elements are too many for a private copy per thread (at most {})",
                    len, MAX_PRIVATE_ELEMS
                ));
            } else if len * group_size(launch) * elem_bytes > MAX_PRIVATE_LOCAL_BYTES {
                why_not = Some(format!(
                    "the work-group's {} private copies of {} elements would take more than {} bytes of local memory",
                    group_size(launch),
                    len,
                    MAX_PRIVATE_LOCAL_BYTES
                ));
            }
        }
        if why_not.is_none() && local_bytes + bytes > MAX_PRIVATE_LOCAL_BYTES {
            why_not = Some(format!(
                "with the kernel's other reductions its work-group copies would take more than {} bytes of local memory",
                MAX_PRIVATE_LOCAL_BYTES
            ));
        }
        match why_not {
            None => {
                local_bytes += bytes;
                out.notes.push(format!(
                    "kernel[{}] {}: {} reduction, private {} per thread, work-group tree in local memory, partials combined by {}_combine",
                    launch.plan.number,
                    var,
                    op.name(),
                    if array.is_scalar() { "copy".to_string() } else { format!("copy of {} elements", len) },
                    kernel
                ));
                out.privatized.push(Privatized {
                    var,
                    elem_type: array.elem_type.clone(),
                    op,
                    len: len.max(1),
                    extents,
                });
            }
            Some(why) => {
                out.notes.push(format!(
                    "kernel[{}] {}: {} reduction with atomic updates: {}",
                    launch.plan.number,
                    var,
                    op.name(),
                    why
                ));
                let inexact = float && op != RedOp::Min && op != RedOp::Max;
                if inexact {
                    out.warnings.push(
                        Diagnostic::warning(
                            Code::UnsupportedType,
                            loc,
                            format!(
                                "the `reduction({})` on `{}` is done with atomic updates in kernel[{}] ({} in the output; {}): floating-point results then depend on the order in which threads update it",
                                op.name(), var, launch.plan.number, kernel, why
                            ),
                        )
                        .with_hint("reduce into a small constant-size array or a scalar, used only by its reduction updates in the loop, to get a deterministic tree reduction"),
                    );
                }
            }
        }
    }
    out
}

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

/// The work-group size of a launch (threads per block, all dimensions).
pub fn group_size(launch: &Launch) -> i64 {
    launch.plan.block_sizes.iter().product::<i64>().max(1)
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
    let dims = launch.plan.block_sizes.len().max(1);
    // Linear ids, x fastest: `x + size_x * (y + size_y * z)`.
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
    let mut half = 1i64;
    while half * 2 < group {
        half *= 2;
    }
    let mut out = String::new();
    out.push_str("    {\n");
    out.push_str(&format!("        const int pencilc_lid = {};\n", lid));
    out.push_str(&format!("        const int pencilc_gid = {};\n", gid));
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
    out.push_str("    }\n");
    out
}

/// Threads per work-group of a combining kernel: they stride over the
/// groups' partials, then meet in a tree in local memory. A work-group per
/// element: no single thread walks all the partials (a reduction over
/// 10^7 elements leaves some 10^5 of them).
pub const COMBINE_THREADS: i64 = 128;

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
        out.push_str(&format!(
            "        {}\n",
            combine(
                p.op,
                &p.elem_type,
                &format!("{}[pencilc_e]", p.var),
                &format!("{}[0]", tree)
            )
        ));
    }
    out
}
