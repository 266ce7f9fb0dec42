//! Exact integer linear algebra on small matrices: the rank of the rows a
//! statement already has, and a basis of their orthogonal complement (the
//! directions a new, linearly independent row must reach).

/// A fraction-free row echelon form; returns the rank.
pub fn rank(rows: &[Vec<i64>], ncols: usize) -> usize {
    echelon(rows, ncols).len()
}

/// Rows of `rows` reduced to echelon form with exact i128 arithmetic
/// (fraction-free elimination, each row divided by its content).
fn echelon(rows: &[Vec<i64>], ncols: usize) -> Vec<Vec<i128>> {
    let mut m: Vec<Vec<i128>> = rows
        .iter()
        .map(|r| r.iter().map(|&x| x as i128).collect())
        .collect();
    let mut out = Vec::new();
    for col in 0..ncols {
        let Some(p) = m.iter().position(|r| r[col] != 0) else {
            continue;
        };
        let pivot = m.remove(p);
        for r in m.iter_mut() {
            if r[col] != 0 {
                let (a, b) = (pivot[col], r[col]);
                for k in 0..ncols {
                    r[k] = r[k] * a - pivot[k] * b;
                }
                normalize(r);
            }
        }
        out.push(pivot);
    }
    out
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

fn normalize(r: &mut [i128]) {
    let g = r.iter().fold(0, |g, &x| gcd(g, x));
    if g > 1 {
        r.iter_mut().for_each(|x| *x /= g);
    }
}

/// An integer basis of `{ v : h·v = 0 for every row h }`, each vector with
/// coprime entries. With no rows this is the unit basis.
pub fn orthogonal_complement(rows: &[Vec<i64>], ncols: usize) -> Vec<Vec<i64>> {
    let ech = echelon(rows, ncols);
    // Reduced form: make each pivot column zero in the other rows.
    let mut red = ech.clone();
    let pivots: Vec<usize> = red
        .iter()
        .map(|r| r.iter().position(|&x| x != 0).expect("non-zero row"))
        .collect();
    for i in 0..red.len() {
        for j in 0..red.len() {
            if i != j && red[j][pivots[i]] != 0 {
                let (a, b) = (red[i][pivots[i]], red[j][pivots[i]]);
                for k in 0..ncols {
                    red[j][k] = red[j][k] * a - red[i][k] * b;
                }
                normalize(&mut red[j]);
            }
        }
    }
    let mut basis = Vec::new();
    for free in (0..ncols).filter(|c| !pivots.contains(c)) {
        // v[free] = L (common multiple of pivots), v[pivot_i] = -L*r_i[free]/r_i[pivot_i].
        let l = red
            .iter()
            .zip(&pivots)
            .fold(1i128, |l, (r, &p)| l / gcd(l, r[p]) * r[p].abs());
        let mut v = vec![0i128; ncols];
        v[free] = l;
        for (r, &p) in red.iter().zip(&pivots) {
            v[p] = -l * r[free] / r[p];
        }
        normalize(&mut v);
        basis.push(v.into_iter().map(|x| x as i64).collect());
    }
    basis
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dot(a: &[i64], b: &[i64]) -> i64 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn complement_is_orthogonal_and_completes_the_rank() {
        let cases: Vec<Vec<Vec<i64>>> = vec![
            vec![],
            vec![vec![1, 0, 0]],
            vec![vec![1, 1, 0]],
            vec![vec![2, 1, 0], vec![0, 1, 1]],
            vec![vec![1, 2, 3], vec![2, 4, 6]],
        ];
        for rows in cases {
            let c = orthogonal_complement(&rows, 3);
            for v in &c {
                for h in &rows {
                    assert_eq!(dot(v, h), 0, "{:?} not orthogonal to {:?}", v, h);
                }
            }
            let mut all = rows.clone();
            all.extend(c.iter().cloned());
            assert_eq!(rank(&all, 3), 3, "rows {:?} complement {:?}", rows, c);
        }
    }

    #[test]
    fn rank_of_dependent_rows() {
        assert_eq!(rank(&[vec![1, 2], vec![2, 4]], 2), 1);
        assert_eq!(rank(&[vec![1, 2], vec![0, 4]], 2), 2);
        assert_eq!(rank(&[], 2), 0);
    }
}
