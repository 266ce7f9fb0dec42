//! What a kernel needs from the host: its arguments, derived from the
//! statements it runs and the free variables of its code.

use crate::ast::{Ast, Launch};
use crate::scop::{Extent, Scop, StmtBody};
use std::collections::BTreeSet;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum KernelArg {
    /// A device buffer holding an array or a written scalar.
    Buffer { name: String, elem_type: String },
    /// A scalar the region only reads, passed by value.
    Value { name: String, elem_type: String },
    /// An integer: a parameter, an array extent or a host loop iterator.
    Int { name: String },
}

impl KernelArg {
    pub fn name(&self) -> &str {
        match self {
            KernelArg::Buffer { name, .. }
            | KernelArg::Value { name, .. }
            | KernelArg::Int { name } => name,
        }
    }
}

/// The statements a launch runs (indices into `Scop::stmts`).
pub fn launch_stmts(launch: &Launch) -> BTreeSet<usize> {
    let mut stmts = BTreeSet::new();
    launch.body.walk(&mut |n| {
        if let Ast::User { stmt, .. } = n {
            stmts.insert(stmt.0);
        }
    });
    stmts
}

/// The arguments of a launch, in a deterministic order: buffers, values,
/// then integers, each sorted by name.
pub fn kernel_args(
    scop: &Scop,
    launch: &Launch,
    block_ids: &[String],
    thread_ids: &[String],
    write_backs: &[crate::ast::WriteBack],
) -> Vec<KernelArg> {
    let stmts = launch_stmts(launch);
    let mut arrays = BTreeSet::new();
    let mut ints = BTreeSet::new();
    for &s in &stmts {
        let st = &scop.stmts[s];
        for a in st.reads.iter().chain(st.writes.iter()) {
            arrays.insert(a.array.clone());
        }
        // Integer variables used as values in the statement (`x = n`).
        let mut ids = Vec::new();
        match &st.body {
            StmtBody::Assign { lhs, rhs, .. } => {
                lhs.idents(&mut ids);
                rhs.idents(&mut ids);
            }
            StmtBody::Compound(body) => body.iter().for_each(|s| s.idents(&mut ids)),
            StmtBody::Call { args, .. } => args.iter().for_each(|a| a.idents(&mut ids)),
        }
        for id in ids {
            if !st.iterators.contains(&id)
                && !st.local_names.contains(&id)
                && id != "__pencil_maybe"
                && scop.array(&id).is_none()
            {
                ints.insert(id);
            }
        }
    }
    let mut used = BTreeSet::new();
    launch.body.used_ids(&mut used);
    // The conditions of write-backs of private copies (over the statement's
    // iterators, which the statement's instances give).
    for w in write_backs.iter().filter(|w| stmts.contains(&w.stmt)) {
        let mut ids = BTreeSet::new();
        w.cond.ids(&mut ids);
        used.extend(
            ids.into_iter()
                .filter(|i| !i.starts_with(crate::ast::PRIVATE_ITERATOR_PREFIX)),
        );
    }
    // The first tiles the block ids start from.
    used.extend(launch.block_offsets.iter().flatten().cloned());
    let mut declared = BTreeSet::new();
    launch.body.declared_ids(&mut declared);
    for id in used {
        if !declared.contains(&id) && !block_ids.contains(&id) && !thread_ids.contains(&id) {
            ints.insert(id);
        }
    }
    let mut buffers = Vec::new();
    let mut values = Vec::new();
    for name in &arrays {
        let a = scop.array(name).expect("accessed arrays are in the scop");
        for e in &a.extents {
            if let Extent::Expr { names, .. } = e {
                ints.extend(names.iter().cloned());
            }
        }
        if a.is_scalar() && !a.written {
            values.push(KernelArg::Value {
                name: name.clone(),
                elem_type: a.elem_type.clone(),
            });
        } else {
            buffers.push(KernelArg::Buffer {
                name: name.clone(),
                elem_type: a.elem_type.clone(),
            });
        }
    }
    let mut args = buffers;
    args.extend(values);
    // Integers whose type is not the index type keep it, since the
    // statements' own arithmetic depends on it (`u + n` wraps in
    // `unsigned`); generated bounds read them in the index type
    // (`Scop::bound_cast`).
    args.extend(
        ints.into_iter()
            .filter(|n| scop.array(n).is_none())
            .map(|name| match scop.own_int_type(&name) {
                Some(t) => KernelArg::Value {
                    name,
                    elem_type: t.c_name().into(),
                },
                None => KernelArg::Int { name },
            }),
    );
    args
}
