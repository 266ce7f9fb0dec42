//! When the instance holding a privatised variable's last value stores it
//! in the variable itself (`deps::privatise`): a condition on the
//! statement's iterators, printed after the statement.

use super::{convert_expr, AExpr};
use crate::deps::DependenceGraph;
use crate::diag::Result;
use crate::isl::ast_build::expr_from_params;
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use isl_rs::{DimType, Set, UnionSet};

const STAGE: &str = "ast";

/// Statement `stmt` stores its private copy of `array` into `array` where
/// `cond` holds: an expression over `iterator(k)` for its k-th iterator.
#[derive(Clone, Debug, PartialEq)]
pub struct WriteBack {
    pub array: String,
    pub stmt: usize,
    pub cond: AExpr,
}

/// How `cond` names the statement's iterators: this, then the position.
pub const ITERATOR_PREFIX: &str = "pencilc_it";

/// The name `cond` gives the statement's k-th iterator.
pub fn iterator(k: usize) -> String {
    format!("{}{}", ITERATOR_PREFIX, k)
}

/// The write-backs of every privatised variable of the region.
pub fn write_backs(isl: &Isl, scop: &Scop, deps: &DependenceGraph) -> Result<Vec<WriteBack>> {
    let mut out = Vec::new();
    if deps.privatised.is_empty() {
        return Ok(out);
    }
    isl.set_id_casts(
        scop.value_types
            .iter()
            .filter_map(|(n, _)| Some((crate::front::affine::isl_name(n), scop.bound_cast(n)?)))
            .collect(),
    );
    for p in &deps.privatised {
        let last = isl.union_set(&p.last_writers).isl(isl, STAGE)?;
        for &s in &p.stmts {
            let st = &scop.stmts[s];
            let domain = isl.set(&st.domain).isl(isl, STAGE)?;
            let mine = last
                .copy()
                .isl(isl, STAGE)?
                .intersect(UnionSet::from_set(domain.copy().isl(isl, STAGE)?).isl(isl, STAGE)?)
                .isl(isl, STAGE)?;
            if mine.is_empty().isl(isl, STAGE)? {
                continue;
            }
            let mine = Set::from_union_set(mine).isl(isl, STAGE)?;
            let names: Vec<String> = (0..st.iterators.len()).map(iterator).collect();
            let cond = expr_from_params(
                isl,
                as_params(isl, domain, &names)?,
                as_params(isl, mine, &names)?,
            )?;
            out.push(WriteBack {
                array: p.array.clone(),
                stmt: s,
                cond: convert_expr(isl, &cond)?,
            });
        }
    }
    Ok(out)
}

/// `set` with its dimensions as parameters named `names`.
fn as_params(isl: &Isl, set: Set, names: &[String]) -> Result<Set> {
    let mut m = set.reset_tuple_id().isl(isl, STAGE)?;
    for (i, name) in names.iter().enumerate() {
        let id = isl.id(name).isl(isl, STAGE)?;
        m = m.set_dim_id(DimType::Set, i as u32, id).isl(isl, STAGE)?;
    }
    let n_param = m.dim(DimType::Param).isl(isl, STAGE)? as u32;
    m.move_dims(DimType::Param, n_param, DimType::Set, 0, names.len() as u32)
        .isl(isl, STAGE)?
        .params()
        .isl(isl, STAGE)
}
