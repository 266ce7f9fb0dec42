//! The parameter values a profile is computed at: those the user gives
//! (`--gpu-model-params n=2800,tsteps=500`), else the value every call of
//! the region's function in the file passes (PolyBench's `main`: `int
//! tsteps = 500;`), else the largest value the region's context allows
//! (PolyBench's arrays bound `n <= 2800`), else an assumed default.

use crate::diag::{Code, Diagnostic, Result};
use crate::front::affine::isl_name;
use crate::isl::{Isl, IslResultExt};
use crate::scop::Scop;
use isl_rs::DimType;

const STAGE: &str = "profile";

/// A parameter value assumed where neither the user nor the context
/// gives one: a size at which GPU kernels are worth launching.
pub const DEFAULT_VALUE: i64 = 1000;

/// Where a parameter's value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Source {
    /// `--gpu-model-params`.
    Given,
    /// The value every call in the file passes.
    Call,
    /// The largest value the region's context allows.
    Context,
    /// Neither: `DEFAULT_VALUE` (or the context's least value above it).
    Assumed,
}

impl Source {
    pub fn word(self) -> &'static str {
        match self {
            Source::Given => "given",
            Source::Call => "passed by every call",
            Source::Context => "context bound",
            Source::Assumed => "assumed",
        }
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ParamValue {
    /// The parameter's isl name (generated code's spelling).
    pub name: String,
    pub value: i64,
    pub source: Source,
}

/// Parses `n=2800,tsteps=500` (names as in the source, values integers).
pub fn parse_given(text: &str) -> Result<Vec<(String, i64)>> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let bad = || {
            Diagnostic::error(
                Code::Usage,
                None,
                format!("--gpu-model-params: `{}` is not NAME=INTEGER", part),
            )
            .with_hint("e.g. --gpu-model-params n=2800,tsteps=500")
        };
        let (n, v) = part.split_once('=').ok_or_else(bad)?;
        let n = n.trim();
        if n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad());
        }
        let v: i64 = v.trim().parse().map_err(|_| bad())?;
        out.push((n.to_string(), v));
    }
    Ok(out)
}

/// The values of the region's parameters.
pub fn values(isl: &Isl, scop: &Scop, given: &[(String, i64)]) -> Result<Vec<ParamValue>> {
    let mut out = Vec::new();
    for (i, p) in scop.params.iter().enumerate() {
        if let Some((_, v)) = given.iter().rev().find(|(n, _)| isl_name(n) == *p) {
            out.push(ParamValue {
                name: p.clone(),
                value: *v,
                source: Source::Given,
            });
            continue;
        }
        let called = scop
            .call_values
            .iter()
            .find(|(n, _)| isl_name(n) == *p)
            .map(|(_, v)| *v);
        let (hi, lo) = bounds(isl, scop, i)?;
        // A value the context rules out (a call the region never sees
        // run, or one outside the arrays) is not taken.
        if let Some(v) = called.filter(|v| hi.is_none_or(|h| *v <= h) && lo.is_none_or(|l| *v >= l))
        {
            out.push(ParamValue {
                name: p.clone(),
                value: v,
                source: Source::Call,
            });
            continue;
        }
        let (value, source) = match hi {
            Some(h) => (h, Source::Context),
            None => (
                lo.map_or(DEFAULT_VALUE, |l| l.max(DEFAULT_VALUE)),
                Source::Assumed,
            ),
        };
        out.push(ParamValue {
            name: p.clone(),
            value,
            source,
        });
    }
    Ok(out)
}

/// The greatest and least value of parameter `i` in the region's context
/// (`None`: unbounded, or not a 64-bit integer).
fn bounds(isl: &Isl, scop: &Scop, i: usize) -> Result<(Option<i64>, Option<i64>)> {
    let context = isl.set(&scop.context).isl(isl, STAGE)?;
    let n = context.dim(DimType::Param).isl(isl, STAGE)? as u32;
    let Some(pos) = (0..n).find(|&k| {
        context
            .get_dim_name(DimType::Param, k)
            .is_ok_and(|s| s == scop.params[i])
    }) else {
        return Ok((None, None));
    };
    // Every parameter a set dimension: the bounds are over all of them.
    let as_set = context
        .move_dims(DimType::Set, 0, DimType::Param, 0, n)
        .isl(isl, STAGE)?;
    let mut ends = [None, None];
    for (k, end) in ends.iter_mut().enumerate() {
        let v = if k == 0 {
            as_set.copy().isl(isl, STAGE)?.dim_max_val(pos as i32)
        } else {
            as_set.copy().isl(isl, STAGE)?.dim_min_val(pos as i32)
        }
        .isl(isl, STAGE)?;
        if v.is_int().isl(isl, STAGE)? {
            *end = Some(v.get_num_si().isl(isl, STAGE)?);
        }
    }
    Ok((ends[0], ends[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_values_parse_and_bad_ones_are_diagnosed() {
        assert_eq!(
            parse_given("n=2800, tsteps=500").unwrap(),
            vec![("n".to_string(), 2800), ("tsteps".to_string(), 500)]
        );
        assert!(parse_given("").unwrap().is_empty());
        for bad in ["n", "n=x", "=3", "n m=3"] {
            let e = parse_given(bad).unwrap_err();
            assert!(e.message.contains("NAME=INTEGER"), "{}", e.message);
        }
    }
}
