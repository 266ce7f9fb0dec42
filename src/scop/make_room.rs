//! Room in a region's schedules for statements a derived model adds: the
//! statements after a place move on, so that the new ones can take it
//! (expansion's store after a nest, the partials' start and sum beside
//! their loop). Schedules are the front end's 2d+1 form: constants at
//! the even dimensions, loop iterators at the odd ones.

use crate::diag::Result;
use crate::isl::IslText;
use crate::isl::{Isl, IslResultExt};
use isl_rs::{DimType, Map, Set};

const STAGE: &str = "scop";

/// Schedule `text` with its constant at dimension `2 * at.len()` moved
/// `by` places on where the statement is inside the loops at positions
/// `at` (its constants at dimensions 0, 2, ... are `at`) and after
/// position `after` among their children; then padded with zeros to
/// `len` dimensions (none where it has as many).
pub fn shift_after(
    isl: &Isl,
    text: &str,
    at: &[i64],
    after: i64,
    by: i64,
    len: usize,
) -> Result<String> {
    let m = isl.map(text).isl(isl, STAGE)?;
    let n = m.dim(DimType::Out).isl(isl, STAGE)? as usize;
    let d = 2 * at.len();
    let t: Vec<String> = (0..n).map(|k| format!("t{}", k)).collect();
    let padded: Vec<String> = (0..n.max(len))
        .map(|k| t.get(k).cloned().unwrap_or_else(|| "0".to_string()))
        .collect();
    let tuple = |v: &[String]| format!("[{}]", v.join(", "));
    let same = isl
        .map(&format!("{{ {} -> {} }}", tuple(&t), tuple(&padded)))
        .isl(isl, STAGE)?;
    if d >= n {
        return m.apply_range(same).isl(isl, STAGE)?.text(isl, STAGE);
    }
    let mut moved = padded.clone();
    moved[d] = format!("t{} + {}", d, by);
    let mut cond: Vec<String> = at
        .iter()
        .enumerate()
        .map(|(k, p)| format!("t{} = {}", 2 * k, p))
        .collect();
    cond.push(format!("t{} > {}", d, after));
    let later: Set = isl
        .set(&format!(
            "{{ [{}] : {} }}",
            t.join(", "),
            cond.join(" and ")
        ))
        .isl(isl, STAGE)?;
    let shifted: Map = isl
        .map(&format!(
            "{{ [{}] -> [{}] }}",
            t.join(", "),
            moved.join(", ")
        ))
        .isl(isl, STAGE)?
        .intersect_domain(later.copy().isl(isl, STAGE)?)
        .isl(isl, STAGE)?;
    let f = same
        .subtract_domain(later)
        .isl(isl, STAGE)?
        .union(shifted)
        .isl(isl, STAGE)?;
    m.apply_range(f).isl(isl, STAGE)?.text(isl, STAGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shifted(text: &str, at: &[i64], after: i64, by: i64, len: usize) -> String {
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        shift_after(&isl, text, at, after, by, len).unwrap()
    }

    fn same(a: &str, b: &str) -> bool {
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        isl.map(a).unwrap().is_equal(&isl.map(b).unwrap()).unwrap()
    }

    #[test]
    fn later_siblings_move_and_the_rest_stay() {
        // Inside loop 0 at top level, after position 1: S_1 (position 2)
        // moves 2 on; S_0 (position 1) stays; S_2 in another top-level
        // loop stays; every one is padded to 7 dimensions.
        let s1 = shifted("{ S_1[i, j] -> [0, i, 2, j, 0] }", &[0], 1, 2, 7);
        assert!(
            same(&s1, "{ S_1[i, j] -> [0, i, 4, j, 0, 0, 0] }"),
            "{}",
            s1
        );
        let s0 = shifted("{ S_0[i, j] -> [0, i, 1, j, 0] }", &[0], 1, 2, 7);
        assert!(
            same(&s0, "{ S_0[i, j] -> [0, i, 1, j, 0, 0, 0] }"),
            "{}",
            s0
        );
        let s2 = shifted("{ S_2[i, j] -> [1, i, 2, j, 0] }", &[0], 1, 2, 7);
        assert!(
            same(&s2, "{ S_2[i, j] -> [1, i, 2, j, 0, 0, 0] }"),
            "{}",
            s2
        );
        // At the top level: later statements move one on, no padding.
        let top = shifted("{ S_3[i] -> [2, i, 0] }", &[], 0, 1, 0);
        assert!(same(&top, "{ S_3[i] -> [3, i, 0] }"), "{}", top);
        // Too short to have the dimension: padded only.
        let short = shifted("{ S_4[] -> [5] }", &[5], 0, 2, 3);
        assert!(same(&short, "{ S_4[] -> [5, 0, 0] }"), "{}", short);
    }
}
