//! `--sizes` (PPCG's syntax): an isl union map from `kernel[i]` to
//! `tile[...]`, `block[...]` and `grid[...]`, outermost first, e.g.
//! `{ kernel[0] -> tile[64, 64]; kernel[i] -> block[16, 16] : i != 4 }`.
//! `--dump-sizes` prints what was used in the same syntax, so that a user
//! can edit it and pass it back.

use crate::diag::{Code, Diagnostic, Result};
use crate::isl::Isl;
use crate::isl::IslText;

/// The sizes a user chose for one kernel; `None` keeps the default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelSizes {
    pub tile: Option<Vec<i64>>,
    pub block: Option<Vec<i64>>,
    pub grid: Option<Vec<i64>>,
}

fn usage(msg: String) -> Diagnostic {
    Diagnostic::error(Code::Usage, None, msg).with_hint(
        "write e.g. --sizes '{ kernel[0] -> tile[32, 32]; kernel[i] -> block[16, 32] }' (see --dump-sizes)",
    )
}

/// Checks the whole `--sizes` value once, so that a typo is reported
/// before anything is compiled.
pub fn check(isl: &Isl, text: &str) -> Result<()> {
    isl.union_map(text)
        .map_err(|_| usage(format!("--sizes: `{}` is not an isl union map", text)))?;
    for k in 0..4 {
        sizes_for(isl, text, k)?;
    }
    Ok(())
}

/// The sizes `text` gives kernel `k` (numbered in the file, as
/// `--dump-sizes` prints them).
pub fn sizes_for(isl: &Isl, text: &str, k: usize) -> Result<KernelSizes> {
    let bad = || usage(format!("--sizes: `{}` is not an isl union map", text));
    let m = isl.union_map(text).map_err(|_| bad())?;
    let dom = isl
        .union_set(&format!("{{ kernel[{}] }}", k))
        .map_err(|_| bad())?;
    let r = m
        .intersect_domain(dom)
        .and_then(|m| m.range())
        .map_err(|_| bad())?;
    let s = r.text(isl, "map").map_err(|_| bad())?;
    parse_points(&s).map_err(|why| usage(format!("--sizes for kernel[{}]: {}", k, why)))
}

/// `--sizes` asked kernel `k` for a block (`asked`; `block` once fitted
/// to its tiles) of more threads than the device allows in one block
/// (`most`): a launch of it would fail when the program runs.
pub fn too_many_threads(k: usize, asked: &[i64], block: &[i64], most: i64) -> Diagnostic {
    let list = |v: &[i64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let threads: i64 = block.iter().product();
    let fitted = if asked.get(..block.len()) == Some(block) {
        String::new()
    } else {
        format!(" (block[{}] within its tiles)", list(block))
    };
    Diagnostic::error(
        Code::Usage,
        None,
        format!(
            "--sizes gives kernel[{}] block[{}]{}: {} threads, more than the device allows in one block ({})",
            k,
            list(asked),
            fitted,
            threads,
            most
        ),
    )
    .with_hint(format!(
        "give kernel[{}] a block of at most {} threads (--dump-sizes shows every kernel's), or pick the device with --device",
        k, most
    ))
}

/// The user's sizes make kernel `k`'s loops along dimension `j` step
/// past their bounds by more than the entry check allows for
/// (`scop::STEP_MARGIN`): a tile of `tile`, times `grid` blocks where the
/// grid wraps around the tiles.
pub fn steps_too_large(k: usize, j: usize, tile: i64, grid: Option<i64>) -> Diagnostic {
    let margin = crate::scop::STEP_MARGIN;
    let (what, hint) = match grid {
        Some(g) => (
            format!(
                "a tile of {} times a grid of {} blocks that wraps around the tiles",
                tile, g
            ),
            "a smaller tile or grid (tile times grid at most",
        ),
        None => (format!("a tile of {}", tile), "a smaller tile (at most"),
    };
    Diagnostic::error(
        Code::Usage,
        None,
        format!(
            "kernel[{}] dimension {}: {} lets its loops step up to {} past their bounds, more than the {} generated integer arithmetic is checked for",
            k,
            j,
            what,
            tile.saturating_mul(grid.unwrap_or(1)),
            margin
        ),
    )
    .with_hint(format!(
        "give kernel[{}] {} {}) with --sizes or -S",
        k, hint, margin
    ))
}

/// Parses isl's printing of a union of single points, `{ tile[32, 32]; block[16] }`.
fn parse_points(s: &str) -> std::result::Result<KernelSizes, String> {
    let body = s
        .trim()
        .strip_prefix('{')
        .and_then(|x| x.strip_suffix('}'))
        .ok_or_else(|| format!("unexpected `{}`", s))?;
    let mut out = KernelSizes::default();
    for item in body.split(';').map(str::trim).filter(|x| !x.is_empty()) {
        if item.contains(':') {
            return Err(format!("`{}` is not a single point of sizes", item));
        }
        let (name, rest) = item
            .split_once('[')
            .ok_or_else(|| format!("`{}` has no values", item))?;
        let vals = rest.trim_end_matches(']');
        let v: Vec<i64> = if vals.trim().is_empty() {
            vec![]
        } else {
            vals.split(',')
                .map(|x| {
                    x.trim()
                        .parse::<i64>()
                        .map_err(|_| format!("`{}` is not a number", x.trim()))
                })
                .collect::<std::result::Result<_, _>>()?
        };
        if v.iter().any(|x| *x < 1) {
            return Err(format!("sizes in `{}` must be positive", item));
        }
        let slot = match name.trim() {
            "tile" => &mut out.tile,
            "block" => {
                if v.len() > 3 {
                    return Err("`block` has at most 3 dimensions".into());
                }
                &mut out.block
            }
            "grid" => {
                if v.len() > 2 {
                    return Err("`grid` has at most 2 dimensions".into());
                }
                &mut out.grid
            }
            other => {
                return Err(format!(
                    "unknown size kind `{}` (tile, block or grid)",
                    other
                ))
            }
        };
        if slot.is_some() {
            return Err(format!("several `{}` values", name.trim()));
        }
        *slot = Some(v);
    }
    Ok(out)
}

/// One kernel's entries of `--dump-sizes`.
pub fn dump_entry(k: usize, tile: &[i64], block: &[i64], grid: &[i64]) -> Vec<String> {
    let list = |v: &[i64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = Vec::new();
    if !tile.is_empty() {
        out.push(format!("kernel[{}] -> tile[{}]", k, list(tile)));
    }
    if !block.is_empty() {
        out.push(format!("kernel[{}] -> block[{}]", k, list(block)));
    }
    if !grid.is_empty() {
        out.push(format!("kernel[{}] -> grid[{}]", k, list(grid)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_kernel_sizes() {
        let isl = Isl::new(0);
        let t = "{ kernel[0] -> tile[64, 64]; kernel[i] -> block[16] : i != 4 }";
        let s0 = sizes_for(&isl, t, 0).unwrap();
        assert_eq!(s0.tile, Some(vec![64, 64]));
        assert_eq!(s0.block, Some(vec![16]));
        let s4 = sizes_for(&isl, t, 4).unwrap();
        assert_eq!(s4, KernelSizes::default());
    }

    #[test]
    fn bad_sizes_are_diagnosed() {
        let isl = Isl::new(0);
        assert!(check(&isl, "{ kernel[0] -> tile[").is_err());
        let e = check(&isl, "{ kernel[0] -> block[1,2,3,4] }").unwrap_err();
        assert!(e.message.contains("at most 3"), "{}", e.message);
        let e = check(&isl, "{ kernel[i] -> tile[j] : 0 < j < 4 }").unwrap_err();
        assert!(e.message.contains("single point"), "{}", e.message);
        let e = check(&isl, "{ kernel[0] -> foo[1] }").unwrap_err();
        assert!(e.message.contains("unknown size kind"), "{}", e.message);
    }

    #[test]
    fn dump_round_trips() {
        let isl = Isl::new(0);
        let text = format!(
            "{{ {} }}",
            dump_entry(2, &[32, 32], &[16, 32], &[256, 256]).join("; ")
        );
        let s = sizes_for(&isl, &text, 2).unwrap();
        assert_eq!(s.tile, Some(vec![32, 32]));
        assert_eq!(s.block, Some(vec![16, 32]));
        assert_eq!(s.grid, Some(vec![256, 256]));
    }
}
