//! Set-up statements that run on the host, before the region's device
//! code. A region often opens with statements outside every loop that
//! compute constants for the loops (deriche's filter coefficients, adi's
//! `DX`, `B1`, `mul1`, ...). On a device each would be a kernel of one
//! thread launched once; on the host, where every value they read already
//! is when the region starts, they cost nothing, and what they write
//! reaches the kernels as arguments.
//!
//! A statement is moved where that moves no byte more between host and
//! device: each variable it writes is a scalar the rest of the region
//! does not write (the kernels then take it by value), or an array the
//! rest does not touch, or one the region copies in anyway. A scalar the
//! rest writes too (durbin's `beta = 1.0`, which its loops update) moves
//! where the device's cost model says a copy of it to the device costs
//! less than the kernel of one thread it saves (`Moves::copy_bytes`: the
//! H100's fitted copy is 1 us, its launch 5.09 us), and so does an array
//! the rest touches that is small enough (durbin's `y`, 16 kB).
//!
//! The statements keep their places and names (`S_k` stays
//! `scop.stmts[k]`, printed by the host from its body) with no instance
//! and no access: no stage after this one sees them. They must be the
//! region's first statements in the original order, one per top-level
//! position (not inside a block with loops), run whenever the region
//! runs, and touch no region-local variable. Running them twice must
//! leave what running them once leaves (none writes what it or an earlier
//! one reads), because a device version that cannot hold its buffers runs
//! the user's original code after them.

use super::Scop;
use crate::diag::Result;
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use std::collections::BTreeSet;

const STAGE: &str = "scop";

/// What a set-up statement may cost to move to the host.
#[derive(Clone, Copy, Debug, Default)]
pub struct Moves {
    /// A scalar the rest of the region also writes, or an array it
    /// touches but does not copy in, may move where its declared bytes
    /// are fewer than these: its copy to the device then costs less than
    /// the launch it saves (0: never).
    pub copy_bytes: f64,
}

/// The bytes of `a` as declared (`None` where an extent is not a
/// constant).
fn declared_bytes(a: &super::Array) -> Option<f64> {
    a.extents
        .iter()
        .try_fold(super::elem_bytes(&a.elem_type), |n, e| match e {
            super::Extent::Const(c) => Some(n * *c as f64),
            _ => None,
        })
}

/// The region without its set-up statements, which `Scop::host_prologue`
/// lists, and a note for `-v`; `None` where none can move. `copy_in`: the
/// arrays the region as it is copies to the device (the dependence
/// analysis's `copy_in`).
pub fn peel(
    isl: &Isl,
    scop: &Scop,
    copy_in: &BTreeSet<String>,
    moves: Moves,
) -> Result<Option<(Scop, Vec<String>)>> {
    let mut order: Vec<(i64, usize)> = Vec::new();
    for (k, st) in scop.stmts.iter().enumerate() {
        let Some(p) = top_position(&st.schedule) else {
            return Ok(None);
        };
        order.push((p, k));
    }
    order.sort();
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    let mut peeled: Vec<usize> = Vec::new();
    let mut read_so_far: BTreeSet<&str> = BTreeSet::new();
    for (at, &(p, k)) in order.iter().enumerate() {
        let st = &scop.stmts[k];
        let alone = order.iter().filter(|(q, _)| *q == p).count() == 1;
        if !alone || !st.iterators.is_empty() {
            break;
        }
        // Runs whenever the region runs.
        let runs = isl
            .set(&st.domain)
            .isl(isl, STAGE)?
            .params()
            .isl(isl, STAGE)?;
        if !context.is_subset(&runs).isl(isl, STAGE)? {
            break;
        }
        let rest: Vec<&super::Statement> = order[at + 1..]
            .iter()
            .map(|&(_, t)| &scop.stmts[t])
            .collect();
        let written_by_rest = |v: &str| rest.iter().any(|t| t.writes.iter().any(|a| a.array == v));
        let touched_by_rest = |v: &str| {
            rest.iter()
                .any(|t| t.reads.iter().chain(&t.writes).any(|a| a.array == v))
        };
        let reads: BTreeSet<&str> = st.reads.iter().map(|a| a.array.as_str()).collect();
        let writes: BTreeSet<&str> = st.writes.iter().map(|a| a.array.as_str()).collect();
        let local = reads
            .iter()
            .chain(&writes)
            .any(|v| scop.array(v).is_none_or(|a| a.local));
        let free = writes.iter().all(|v| {
            let scalar = scop.array(v).is_some_and(|a| a.is_scalar());
            let cheap = || {
                scop.array(v)
                    .and_then(declared_bytes)
                    .is_some_and(|b| b < moves.copy_bytes)
            };
            if scalar {
                !written_by_rest(v) || cheap()
            } else {
                !touched_by_rest(v) || copy_in.contains(*v) || cheap()
            }
        });
        let again = writes
            .iter()
            .any(|v| reads.contains(v) || read_so_far.contains(v));
        if local || !free || again || writes.is_empty() {
            break;
        }
        read_so_far.extend(reads);
        peeled.push(k);
    }
    // Something must be left to compile.
    if peeled.is_empty() || peeled.len() == scop.stmts.len() {
        return Ok(None);
    }
    let mut out = scop.clone();
    let lines: Vec<String> = peeled
        .iter()
        .map(|&k| scop.stmts[k].loc.line.to_string())
        .collect();
    // What the kernels now take from a copy instead (once each, in the
    // statements' order): scalars the rest writes too, arrays it touches
    // and did not copy in.
    let mut copied: Vec<&str> = Vec::new();
    for v in peeled
        .iter()
        .flat_map(|&k| scop.stmts[k].writes.iter().map(|a| a.array.as_str()))
    {
        let scalar = scop.array(v).is_some_and(|a| a.is_scalar());
        let left = order.iter().filter(|(_, t)| !peeled.contains(t));
        let copies = left.map(|&(_, t)| &scop.stmts[t]).any(|st| {
            if scalar {
                st.writes.iter().any(|a| a.array == v)
            } else {
                !copy_in.contains(v) && st.reads.iter().chain(&st.writes).any(|a| a.array == v)
            }
        });
        if copies && !copied.contains(&v) {
            copied.push(v);
        }
    }
    let cost = if copied.is_empty() {
        "nothing more copied".to_string()
    } else {
        format!(
            "`{}` copied to the device instead, which the cost model says costs less than a launch",
            copied.join("`, `")
        )
    };
    let notes = vec![format!(
        "set-up statement(s) at line(s) {} run on the host before the device code: no kernel of one thread, {} (`scop::prologue`)",
        lines.join(", "),
        cost
    )];
    for &k in &peeled {
        let st = &mut out.stmts[k];
        let empty = isl
            .set(&st.domain)
            .isl(isl, STAGE)?
            .subtract(isl.set(&st.domain).isl(isl, STAGE)?)
            .isl(isl, STAGE)?;
        st.domain = empty.text(isl, STAGE)?;
        out.host_writes
            .insert(k, st.writes.iter().map(|a| a.array.clone()).collect());
        st.reads.clear();
        st.writes.clear();
    }
    // What the rest reads and writes.
    for a in out.arrays.iter_mut() {
        let touches = |read: bool| {
            out.stmts.iter().any(|t| {
                let acc = if read { &t.reads } else { &t.writes };
                acc.iter().any(|x| x.array == a.name)
            })
        };
        a.read = touches(true);
        a.written = touches(false);
    }
    out.host_prologue = peeled;
    Ok(Some((out, notes)))
}

/// The statement's place among the region's top-level statements: the
/// first value of its 2d+1 schedule, `[n] -> { S_0[] -> [2, 0, 0] }`.
fn top_position(schedule: &str) -> Option<i64> {
    let at = schedule.find("-> [")? + 4;
    let rest = &schedule[at..];
    let end = rest.find([',', ']'])?;
    rest[..end].trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scop::test_support::scop_of;

    /// The statements `peel` moves to the host, by line, where the region
    /// copies in `copy_in`.
    fn peeled_with(name: &str, src: &str, copy_in: &[&str]) -> Vec<u32> {
        peeled_moving(name, src, copy_in, Moves::default())
    }

    fn peeled_moving(name: &str, src: &str, copy_in: &[&str], moves: Moves) -> Vec<u32> {
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        let scop = scop_of(name, src);
        let copy_in = copy_in.iter().map(|s| s.to_string()).collect();
        match peel(&isl, &scop, &copy_in, moves).unwrap() {
            None => vec![],
            Some((out, _)) => {
                for &k in &out.host_prologue {
                    assert!(out.stmts[k].reads.is_empty() && out.stmts[k].writes.is_empty());
                    // What it wrote stays its own (`back::stmt` prints a
                    // loop over a variable it wrote as that variable).
                    assert_eq!(
                        out.host_writes.get(&k),
                        Some(
                            &scop.stmts[k]
                                .writes
                                .iter()
                                .map(|a| a.array.clone())
                                .collect()
                        )
                    );
                    assert!(
                        out.stmts[k].domain.contains("false"),
                        "{}",
                        out.stmts[k].domain
                    );
                }
                out.host_prologue
                    .iter()
                    .map(|&k| out.stmts[k].loc.line)
                    .collect()
            }
        }
    }

    fn peeled(name: &str, src: &str) -> Vec<u32> {
        peeled_with(name, src, &[])
    }

    #[test]
    fn constants_for_the_loops_move() {
        let src = "void f(int n, float al, float x[100], float y[100]) {\n  float k, a;\n#pragma scop\n  k = al * 2.0f;\n  a = k + 1.0f;\n  for (int i = 0; i < n; i++)\n    y[i] = x[i] * k + a;\n#pragma endscop\n}\n";
        assert_eq!(peeled("pro-const", src), vec![4, 5]);
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        let (out, _) = peel(
            &isl,
            &scop_of("pro-const", src),
            &BTreeSet::new(),
            Moves::default(),
        )
        .unwrap()
        .unwrap();
        assert!(out.host_written("k") && out.host_written("a") && !out.host_written("y"));
    }

    #[test]
    fn what_the_loops_write_or_read_back_stays() {
        // durbin's shape: the loops write `b` too (a copy to the device).
        let src = "void f(int n, double x[100]) {\n  double b;\n#pragma scop\n  b = 1.0;\n  for (int i = 0; i < n; i++) {\n    b = b * 0.5 + x[i];\n    x[i] = b;\n  }\n#pragma endscop\n}\n";
        assert_eq!(peeled("pro-written", src), Vec::<u32>::new());
        // An element of an array the region does not copy in (it writes
        // it whole); one it copies in anyway (not all written) moves.
        let src = "void f(double x[100]) {\n#pragma scop\n  x[0] = 1.0;\n  for (int i = 1; i < 100; i++)\n    x[i] = x[i - 1] * 0.5;\n#pragma endscop\n}\n";
        assert_eq!(peeled("pro-array", src), Vec::<u32>::new());
        let src = "void f(int n, double x[100]) {\n#pragma scop\n  x[0] = 1.0;\n  for (int i = 1; i < n; i++)\n    x[i] = x[i - 1] * 0.5;\n#pragma endscop\n}\n";
        assert_eq!(peeled_with("pro-array-in", src, &["x"]), vec![3]);
    }

    #[test]
    fn scalars_the_loops_write_move_where_a_copy_costs_less_than_a_launch() {
        // durbin's shape, on a device whose copy is cheaper than a launch.
        let src = "void f(int n, double x[100]) {\n  double b;\n#pragma scop\n  b = 1.0;\n  for (int i = 0; i < n; i++) {\n    b = b * 0.5 + x[i];\n    x[i] = b;\n  }\n#pragma endscop\n}\n";
        let moves = Moves { copy_bytes: 100.0 };
        assert_eq!(peeled_moving("pro-copy", src, &[], moves), vec![4]);
        // Arrays still move only where they are copied in anyway, or
        // where their copy costs less than a launch: 800 bytes do where
        // a launch costs the time of 1000, not where it costs 799.
        let src = "void f(double x[100]) {\n#pragma scop\n  x[0] = 1.0;\n  for (int i = 1; i < 100; i++)\n    x[i] = x[i - 1] * 0.5;\n#pragma endscop\n}\n";
        assert_eq!(
            peeled_moving("pro-copy-array", src, &[], moves),
            Vec::<u32>::new()
        );
        for (bytes, moved) in [(1000.0, vec![3]), (799.0, vec![])] {
            let moves = Moves { copy_bytes: bytes };
            assert_eq!(peeled_moving("pro-copy-array", src, &[], moves), moved);
        }
        // Not an array whose size is known at run time only.
        let src = "void f(int n, double x[n]) {\n#pragma scop\n  x[0] = 1.0;\n  for (int i = 1; i < n; i++)\n    x[i] = x[i - 1] * 0.5;\n#pragma endscop\n}\n";
        let moves = Moves { copy_bytes: 1e12 };
        assert_eq!(
            peeled_moving("pro-copy-vla", src, &[], moves),
            Vec::<u32>::new()
        );
    }

    #[test]
    fn only_leading_unconditional_repeatable_statements_move() {
        // `s = s + 1` run twice (a device version that cannot hold its
        // buffers runs the original code after the set-up) is not run once.
        let src = "void f(int n, double s, double x[100]) {\n  double t;\n#pragma scop\n  t = 2.0;\n  s = s + 1.0;\n  for (int i = 0; i < n; i++)\n    x[i] = x[i] * t + s;\n#pragma endscop\n}\n";
        assert_eq!(peeled("pro-again", src), vec![4]);
        // Under a condition; after a loop.
        let src = "void f(int n, double s, double x[100]) {\n  double t;\n#pragma scop\n  if (n > 3)\n    t = 2.0;\n  for (int i = 0; i < n; i++)\n    x[i] = x[i] * t;\n  s = 3.0;\n#pragma endscop\n}\n";
        assert_eq!(peeled("pro-cond", src), Vec::<u32>::new());
    }

    #[test]
    fn top_positions() {
        assert_eq!(top_position("[n] -> { S_0[] -> [2, 0, 0] }"), Some(2));
        assert_eq!(top_position("{ S_3[k] -> [13, k, 0] }"), Some(13));
        assert_eq!(top_position("{ S_3[k] -> [k, 0] }"), None);
    }
}
