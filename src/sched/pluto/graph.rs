//! The statement-level dependence graph: strongly connected components in
//! a topological order, ties broken by textual order so that schedules are
//! deterministic and close to the source.

/// SCCs of the graph on `nodes` with `edges` (pairs of node values),
/// ordered so that every edge between different SCCs goes forward. Each
/// SCC's nodes are sorted.
pub fn sccs_topological(nodes: &[usize], edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let pos = |v: usize| nodes.iter().position(|&n| n == v);
    let n = nodes.len();
    let mut succ = vec![Vec::new(); n];
    for &(a, b) in edges {
        if let (Some(a), Some(b)) = (pos(a), pos(b)) {
            succ[a].push(b);
        }
    }
    // Reachability closure (the graphs are small: statements of one region).
    let mut reach = vec![vec![false; n]; n];
    for s in 0..n {
        let mut stack = vec![s];
        while let Some(v) = stack.pop() {
            for &w in &succ[v] {
                if !reach[s][w] {
                    reach[s][w] = true;
                    stack.push(w);
                }
            }
        }
    }
    let mut comp = vec![usize::MAX; n];
    let mut comps: Vec<Vec<usize>> = Vec::new();
    for v in 0..n {
        if comp[v] != usize::MAX {
            continue;
        }
        let id = comps.len();
        let members: Vec<usize> = (0..n)
            .filter(|&w| w == v || (reach[v][w] && reach[w][v]))
            .collect();
        for &w in &members {
            comp[w] = id;
        }
        comps.push(members);
    }
    // Kahn's algorithm, always taking the ready component that comes first
    // in the source.
    let k = comps.len();
    let mut indeg = vec![0; k];
    let mut cedges = std::collections::BTreeSet::new();
    for a in 0..n {
        for &b in &succ[a] {
            if comp[a] != comp[b] && cedges.insert((comp[a], comp[b])) {
                indeg[comp[b]] += 1;
            }
        }
    }
    let mut done = vec![false; k];
    let mut order = Vec::new();
    for _ in 0..k {
        let next = (0..k)
            .filter(|&c| !done[c] && indeg[c] == 0)
            .min_by_key(|&c| comps[c].iter().map(|&i| nodes[i]).min())
            .expect("the condensation of a graph is acyclic");
        done[next] = true;
        for &(a, b) in &cedges {
            if a == next {
                indeg[b] -= 1;
            }
        }
        let mut members: Vec<usize> = comps[next].iter().map(|&i| nodes[i]).collect();
        members.sort();
        order.push(members);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycle_and_order() {
        // 0 -> 1 -> 2 -> 1, 3 independent, 3 -> 0
        let s = sccs_topological(&[0, 1, 2, 3], &[(0, 1), (1, 2), (2, 1), (3, 0)]);
        assert_eq!(s, vec![vec![3], vec![0], vec![1, 2]]);
    }

    #[test]
    fn independent_nodes_keep_textual_order() {
        let s = sccs_topological(&[4, 2, 7], &[]);
        assert_eq!(s, vec![vec![2], vec![4], vec![7]]);
    }
}
