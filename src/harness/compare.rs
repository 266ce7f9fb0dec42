//! Comparison of two PolyBench array dumps (the stderr of programs built
//! with `-DPOLYBENCH_DUMP_ARRAYS`), array by array, with a relative tolerance
//! for floating-point contraction and reassociation.

use serde::Serialize;

/// One dumped array: its name and its values in dump order.
pub type DumpedArray = (String, Vec<f64>);

/// Parses a PolyBench dump. Lines outside `begin dump:` / `end dump:` pairs
/// (the `==BEGIN DUMP_ARRAYS==` markers, messages of the program) are ignored.
pub fn parse_dump(text: &str) -> Vec<DumpedArray> {
    let mut out: Vec<DumpedArray> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let l = line.trim();
        if let Some(name) = l.strip_prefix("begin dump:") {
            out.push((name.trim().to_string(), Vec::new()));
            inside = true;
        } else if l.starts_with("end") {
            inside = false;
        } else if inside && !l.is_empty() {
            if let Some((_, v)) = out.last_mut() {
                v.extend(
                    l.split_whitespace()
                        .map(|w| w.parse::<f64>().unwrap_or(f64::NAN)),
                );
            }
        }
    }
    out
}

/// The fewest decimal places among each array's values as the dump
/// prints them (`12.50` has 2; an integer 0), by array name.
fn printed_places(text: &str) -> std::collections::BTreeMap<String, usize> {
    let mut out = std::collections::BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let l = line.trim();
        if let Some(name) = l.strip_prefix("begin dump:") {
            current = Some(name.trim().to_string());
        } else if l.starts_with("end") {
            current = None;
        } else if let Some(name) = &current {
            for w in l.split_whitespace() {
                let d = w.split_once('.').map_or(0, |(_, f)| {
                    f.bytes().take_while(|b| b.is_ascii_digit()).count()
                });
                let e = out.entry(name.clone()).or_insert(d);
                *e = (*e).min(d);
            }
        }
    }
    out
}

/// The outcome of comparing a generated program's dump with the sequential one.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Comparison {
    pub arrays: usize,
    pub values: usize,
    /// Values outside the tolerance.
    pub mismatches: usize,
    /// Why the dumps cannot be compared value by value (missing arrays,
    /// different shapes), if they cannot.
    pub error: Option<String>,
    /// The first few differing values, `array[index]: expected vs got`.
    pub examples: Vec<String>,
}

impl Comparison {
    pub fn ok(&self) -> bool {
        self.error.is_none() && self.mismatches == 0 && self.arrays > 0
    }

    /// One line: `3 arrays, 1036 values` or what went wrong.
    pub fn summary(&self) -> String {
        if let Some(e) = &self.error {
            e.clone()
        } else if self.mismatches > 0 {
            format!(
                "{} of {} values differ ({})",
                self.mismatches,
                self.values,
                self.examples.join("; ")
            )
        } else {
            format!("{} arrays, {} values", self.arrays, self.values)
        }
    }
}

/// Compares `generated` with `expected`. A value matches when it is within
/// `rel` of the expected value, relative to the larger of its magnitude and
/// the array's largest magnitude (at least 1), or when both are NaN.
pub fn compare_dumps(expected: &str, generated: &str, rel: f64) -> Comparison {
    compare_dumps_with(expected, generated, rel, false)
}

/// `compare_dumps`, where with `printed` a value also matches one unit
/// away in the last decimal place the dump prints: a reassociated sum a
/// few ulps from the sequential one, on a rounding boundary of
/// PolyBench's `%0.2lf`, prints as either neighbour (mvt at SMALL: 29.575
/// printed 29.57 and 29.58).
pub fn compare_dumps_with(expected: &str, generated: &str, rel: f64, printed: bool) -> Comparison {
    let a = parse_dump(expected);
    let b = parse_dump(generated);
    let places = printed_places(expected);
    let mut c = Comparison {
        arrays: a.len(),
        ..Comparison::default()
    };
    if a.is_empty() {
        c.error = Some("the sequential program dumped no arrays".into());
        return c;
    }
    let names_a: Vec<&str> = a.iter().map(|x| x.0.as_str()).collect();
    let names_b: Vec<&str> = b.iter().map(|x| x.0.as_str()).collect();
    if names_a != names_b {
        c.error = Some(format!(
            "different arrays dumped: expected {:?}, got {:?}",
            names_a, names_b
        ));
        return c;
    }
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        if x.len() != y.len() {
            c.error = Some(format!(
                "array {}: {} values expected, {} dumped",
                name,
                x.len(),
                y.len()
            ));
            return c;
        }
        let scale = x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let unit = places
            .get(name)
            .filter(|&&d| printed && d > 0)
            .map_or(0.0, |&d| 10f64.powi(-(d as i32)) * (1.0 + 1e-9));
        for (i, (u, v)) in x.iter().zip(y).enumerate() {
            c.values += 1;
            let same = (u - v).abs() <= rel * scale.max(u.abs())
                || (u - v).abs() <= unit
                || (u.is_nan() && v.is_nan());
            if !same {
                if c.examples.len() < 3 {
                    c.examples.push(format!("{}[{}]: {} vs {}", name, i, u, v));
                }
                c.mismatches += 1;
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = "==BEGIN DUMP_ARRAYS==\nbegin dump: C\n\n1 2 3 \nend   dump: C\nbegin dump: x\n\n0.5 \nend   dump: x\n==END   DUMP_ARRAYS==\n";

    #[test]
    fn parses_arrays_in_order() {
        let d = parse_dump(&format!("pencilc: OpenCL setup 0.1 s\n{}", DUMP));
        assert_eq!(d.len(), 2);
        assert_eq!(d[0], ("C".to_string(), vec![1.0, 2.0, 3.0]));
        assert_eq!(d[1], ("x".to_string(), vec![0.5]));
    }

    #[test]
    fn reassociated_values_may_differ_by_the_last_printed_digit() {
        let want = DUMP.replace("1 2 3", "29.57 2.00 3.00");
        let got = DUMP.replace("1 2 3", "29.58 2.00 3.00");
        assert!(!compare_dumps(&want, &got, 1e-6).ok());
        assert!(compare_dumps_with(&want, &got, 1e-6, true).ok());
        let far = DUMP.replace("1 2 3", "29.59 2.00 3.00");
        assert!(!compare_dumps_with(&want, &far, 1e-6, true).ok());
        // Integers print no decimals: a unit there is no rounding.
        let ints = DUMP.replace("1 2 3", "1 2 4");
        assert!(!compare_dumps_with(DUMP, &ints, 1e-6, true).ok());
    }

    #[test]
    fn tolerance_is_relative() {
        let close = DUMP.replace("1 2 3", "1 2 3.0000000001");
        assert!(compare_dumps(DUMP, &close, 1e-9).ok());
        let far = DUMP.replace("1 2 3", "1 2 4");
        let c = compare_dumps(DUMP, &far, 1e-9);
        assert!(!c.ok());
        assert_eq!(c.mismatches, 1);
        assert!(c.summary().contains("C[2]: 3 vs 4"), "{}", c.summary());
    }

    #[test]
    fn missing_arrays_are_errors() {
        let c = compare_dumps(DUMP, "", 1e-9);
        assert!(!c.ok());
        assert!(c.error.is_some());
        assert!(!compare_dumps("", "", 1e-9).ok());
    }
}
