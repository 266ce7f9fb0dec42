//! pencilc's own Pluto-style scheduler. Rows of an affine schedule are
//! found one at a time by an integer program per row (good_lp with the
//! pure-Rust microlp solver):
//!
//! - validity: every dependence not yet satisfied by an outer band has a
//!   non-negative distance along the row (Farkas' lemma, via isl's
//!   `coefficients`);
//! - cost: Pluto's bound `u·p + w` on the distance, minimised
//!   lexicographically, then small coefficients and shifts, outer loops
//!   preferred; a row with `u = w = 0` has zero distance and is parallel;
//! - progress: the row is linearly independent of the statement's rows so
//!   far (non-negative, non-zero projection on their orthogonal complement);
//!   coefficients may be negative within `[-B, B]`.
//!
//! Consecutive rows that keep every dependence of the band non-negative form
//! a permutable (tilable) band; parallel rows are moved to its front. When no
//! row can be found, the dependences satisfied by the band are dropped and a
//! new band starts; if no row exists at all, the statements are split into
//! strongly connected components in topological order (a sequence node) or,
//! inside one component, a Feautrier-style sequential row satisfies as many
//! dependences as possible. Fusion control (`--fuse`) decides when
//! components are split before a band is searched. Bands with no parallel
//! row get a tile-level wavefront (see `tree.rs`).

mod farkas;
mod graph;
mod ilp;
mod linalg;
mod partition;
mod rotate;
mod rows;
mod tree;

use crate::clock::Deadline;
use crate::diag::{Diagnostic, Result};
use crate::isl::{Isl, IslResultExt};
use farkas::Farkas;
use ilp::{Con, Ilp, IlpError, Lin};
use isl_rs::{DimType, Map};
use std::collections::{BTreeMap, HashMap};

pub use tree::{to_isl_tree, WAVEFRONT_MARK};

const STAGE: &str = "sched";

/// Pluto's fusion vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fuse {
    /// Split into strongly connected components only when no band exists.
    Max,
    /// Fuse components as long as fusing loses no parallel row.
    Smart,
    /// One component per loop nest (split as soon as possible).
    Min,
}

#[derive(Clone, Debug)]
pub struct PlutoOptions {
    pub fuse: Fuse,
    /// Bound on the absolute value of each loop coefficient.
    pub max_coefficient: i64,
    /// Bound on each statement's constant shift.
    pub max_shift: i64,
    /// Tile size of the wavefront applied to bands with no parallel row.
    pub wavefront_tile: i64,
    /// Whether bands with no parallel row become wavefronts; if not, and
    /// their first row leaves parallel rows inside, that row alone.
    pub wavefront: bool,
    /// Whether a band with parallel rows and sequential ones puts a
    /// sequential row alone outside, where that leaves more parallel rows
    /// inside than the band has (`partition::hoisted`): a GPU's host loop
    /// around wide kernels instead of a few threads that each run the
    /// sequential loop (trmm).
    pub hoist: bool,
    /// When scheduling must end; reaching it is a budget error.
    pub deadline: Deadline,
}

/// Why the scheduler gave up (the caller falls back to another scheduler).
#[derive(Debug)]
pub enum PlutoError {
    Budget(String),
    Failed(String),
    Isl(Diagnostic),
}

impl From<Diagnostic> for PlutoError {
    fn from(d: Diagnostic) -> Self {
        PlutoError::Isl(d)
    }
}

type PResult<T> = std::result::Result<T, PlutoError>;

/// One statement's row: `coef·i + shift`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub coef: Vec<i64>,
    pub shift: i64,
}

/// The scheduler's result: a tree of bands and sequences over statements
/// (indices into `Scop::stmts`).
#[derive(Clone, Debug)]
pub enum Node {
    Leaf,
    Band(Band),
    /// Children run one after the other; each child covers a set of statements.
    Sequence(Vec<(Vec<usize>, Node)>),
}

#[derive(Clone, Debug)]
pub struct Band {
    pub stmts: Vec<usize>,
    /// Per member, each statement's row.
    pub rows: Vec<BTreeMap<usize, Row>>,
    pub coincident: Vec<bool>,
    pub permutable: bool,
    pub child: Box<Node>,
}

/// What the scheduler works on, as plain text (it may travel to a worker
/// process): statements with their number of loop dimensions, the
/// parameters, the iteration domain and the dependences, one basic
/// relation per piece (see `deps::pieces`).
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub params: Vec<String>,
    pub stmts: Vec<(String, usize)>,
    pub domain: String,
    pub deps: Vec<String>,
    /// Per statement, the arrays (not scalars) it reads or writes: smart
    /// fusion only fuses components that share data.
    pub arrays: Vec<Vec<String>>,
    /// Privatised variables (`deps::privatise`): the number of loops
    /// whose iterations have a copy each, and the statements (indices)
    /// that use it. Fusion keeps such statements together until that many
    /// rows are found for them, so that one thread runs a live range.
    pub private: Vec<(usize, Vec<usize>)>,
    /// Per statement, the subscripts of its array accesses that are one
    /// affine function of its iterators: per access, per array dimension
    /// (outermost first), the iterators' coefficients. What a thread
    /// dimension's step moves in memory (`partition::unit_inner_rows`).
    pub subscripts: Vec<Vec<Vec<Vec<i64>>>>,
}

impl Problem {
    /// One item per line: `param`, `stmt NAME DIM [ARRAY...]`, `domain
    /// TEXT`, `dep TEXT`.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for p in &self.params {
            s.push_str(&format!("param {}\n", p));
        }
        for (k, (n, d)) in self.stmts.iter().enumerate() {
            s.push_str(&format!("stmt {} {}", n, d));
            for a in self.arrays.get(k).into_iter().flatten() {
                s.push_str(&format!(" {}", a));
            }
            s.push('\n');
        }
        s.push_str(&format!("domain {}\n", self.domain));
        for d in &self.deps {
            s.push_str(&format!("dep {}\n", d));
        }
        for (depth, stmts) in &self.private {
            s.push_str(&format!("private {}", depth));
            for st in stmts {
                s.push_str(&format!(" {}", st));
            }
            s.push('\n');
        }
        for (k, accesses) in self.subscripts.iter().enumerate() {
            for m in accesses {
                let dims: Vec<String> = m
                    .iter()
                    .map(|d| {
                        d.iter()
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .collect();
                s.push_str(&format!("access {} {}\n", k, dims.join(";")));
            }
        }
        s
    }

    pub fn from_text(text: &str) -> std::result::Result<Problem, String> {
        let mut p = Problem {
            params: vec![],
            stmts: vec![],
            domain: String::new(),
            deps: vec![],
            arrays: vec![],
            private: vec![],
            subscripts: vec![],
        };
        for line in text.lines() {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "param" => p.params.push(rest.to_string()),
                "stmt" => {
                    let mut words = rest.split_whitespace();
                    let (Some(n), Some(d)) = (words.next(), words.next()) else {
                        return Err("bad stmt line".into());
                    };
                    p.stmts
                        .push((n.to_string(), d.parse().map_err(|_| "bad stmt dimension")?));
                    p.arrays.push(words.map(|w| w.to_string()).collect());
                }
                "domain" => p.domain = rest.to_string(),
                "dep" => p.deps.push(rest.to_string()),
                "private" => {
                    let mut words = rest.split_whitespace().map(|w| w.parse::<usize>());
                    let depth = match words.next() {
                        Some(Ok(d)) => d,
                        _ => return Err("bad private line".into()),
                    };
                    let stmts = words
                        .collect::<std::result::Result<Vec<_>, _>>()
                        .map_err(|_| "bad private line")?;
                    p.private.push((depth, stmts));
                }
                "access" => {
                    let (k, dims) = rest.split_once(' ').ok_or("bad access line")?;
                    let k: usize = k.parse().map_err(|_| "bad access line")?;
                    let m = dims
                        .split(';')
                        .map(|d| {
                            d.split(',')
                                .map(|c| c.parse::<i64>())
                                .collect::<std::result::Result<Vec<_>, _>>()
                        })
                        .collect::<std::result::Result<Vec<_>, _>>()
                        .map_err(|_| "bad access line")?;
                    if p.subscripts.len() <= k {
                        p.subscripts.resize(k + 1, vec![]);
                    }
                    p.subscripts[k].push(m);
                }
                "" => {}
                _ => return Err(format!("unknown line in a scheduling problem: {}", line)),
            }
        }
        Ok(p)
    }
}

struct Edge {
    /// Identifies the relation: copies share it, restricted edges get new
    /// ones (the key of `Pluto::rows_memo`).
    id: usize,
    src: usize,
    dst: usize,
    rel: Map,
    farkas: Option<Farkas>,
}

impl Edge {
    fn copy(&self, isl: &Isl) -> Result<Edge> {
        Ok(Edge {
            id: self.id,
            src: self.src,
            dst: self.dst,
            rel: self.rel.copy().isl(isl, STAGE)?,
            farkas: self.farkas.clone(),
        })
    }
}

struct Pluto<'a> {
    isl: &'a Isl,
    scop: &'a Problem,
    opts: &'a PlutoOptions,
    dims: Vec<usize>,
    /// Parameter name → index of its `u` variable.
    params: HashMap<String, usize>,
    /// Integer programs solved, for the report.
    solves: usize,
    /// The next `Edge::id`.
    next_edge: usize,
    /// `band_rows` results by statements, edges and the statements' rows
    /// so far: smart fusion computes a part's band to judge it, and the
    /// part's own scheduling then needs the same band (adi: a third of
    /// its integer programs).
    rows_memo: HashMap<RowsKey, Vec<(BTreeMap<usize, Row>, bool)>>,
    /// Farkas constraints by `Edge::id`.
    farkas_memo: HashMap<usize, Farkas>,
    /// Statements' iteration domains, tuple names removed (`same_domains`).
    domains: HashMap<usize, isl_rs::Set>,
    /// Scheduling inside `time_loop`'s trial: no point wavefronts there.
    in_time_loop_trial: bool,
    /// Point wavefronts that a trial did not make.
    suppressed_wavefronts: usize,
}

type RowsKey = (Vec<usize>, Vec<usize>, Vec<Vec<Vec<i64>>>);

/// Schedules `scop` and returns the tree (not yet checked: the caller runs
/// `valid` on it).
pub fn schedule(isl: &Isl, scop: &Problem, opts: &PlutoOptions) -> PResult<(Node, usize)> {
    let mut p = Pluto {
        isl,
        scop,
        opts,
        dims: scop.stmts.iter().map(|s| s.1).collect(),
        params: scop
            .params
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect(),
        solves: 0,
        next_edge: 0,
        rows_memo: HashMap::new(),
        farkas_memo: HashMap::new(),
        domains: HashMap::new(),
        in_time_loop_trial: false,
        suppressed_wavefronts: 0,
    };
    let edges = p.edges()?;
    let all: Vec<usize> = (0..scop.stmts.len()).collect();
    let mut h = vec![Vec::new(); scop.stmts.len()];
    let node = p.group(&all, edges, &mut h)?;
    let all = p.edges()?;
    let node = rotate::rotate_steps(isl, scop, &all, node)?;
    Ok((node, p.solves))
}

impl<'a> Pluto<'a> {
    fn edges(&mut self) -> PResult<Vec<Edge>> {
        let isl = self.isl;
        let index: HashMap<&str, usize> = self
            .scop
            .stmts
            .iter()
            .enumerate()
            .map(|(i, s)| (s.0.as_str(), i))
            .collect();
        let mut edges = Vec::new();
        for text in &self.scop.deps {
            let rel = isl.map(text).isl(isl, STAGE)?;
            let src = rel.get_tuple_name(DimType::In).isl(isl, STAGE)?.to_string();
            let dst = rel
                .get_tuple_name(DimType::Out)
                .isl(isl, STAGE)?
                .to_string();
            let (Some(&s), Some(&d)) = (index.get(src.as_str()), index.get(dst.as_str())) else {
                return Err(PlutoError::Failed(format!(
                    "dependence between unknown statements {} -> {}",
                    src, dst
                )));
            };
            edges.push(Edge {
                id: self.next_edge,
                src: s,
                dst: d,
                rel,
                farkas: None,
            });
            self.next_edge += 1;
        }
        Ok(edges)
    }

    fn full_rank(&self, s: usize, h: &[Vec<Vec<i64>>]) -> bool {
        linalg::rank(&h[s], self.dims[s]) == self.dims[s]
    }

    /// Schedules the statements `group`, whose pending dependences are `edges`.
    fn group(
        &mut self,
        group: &[usize],
        edges: Vec<Edge>,
        h: &mut Vec<Vec<Vec<i64>>>,
    ) -> PResult<Node> {
        self.check_deadline()?;
        let edges: Vec<Edge> = edges
            .into_iter()
            .filter(|e| group.contains(&e.src) && group.contains(&e.dst))
            .collect();
        let all_full = group.iter().all(|&s| self.full_rank(s, h));
        if all_full && edges.is_empty() {
            return Ok(if group.len() == 1 {
                Node::Leaf
            } else {
                Node::Sequence(group.iter().map(|&s| (vec![s], Node::Leaf)).collect())
            });
        }
        let pairs: Vec<(usize, usize)> = edges.iter().map(|e| (e.src, e.dst)).collect();
        let sccs = graph::sccs_topological(group, &pairs);
        if sccs.len() > 1 && !all_full {
            let parts = match self.opts.fuse {
                Fuse::Min => sccs.clone(),
                Fuse::Smart => self.smart_partition(&sccs, &edges, h)?,
                Fuse::Max => vec![group.to_vec()],
            };
            let parts = self.keep_live_ranges_together(parts, h);
            if parts.len() > 1 {
                return self.sequence(parts, edges, h);
            }
        }
        if !all_full {
            let mut h2 = h.clone();
            let rows = self.band_rows(group, &edges, &mut h2)?;
            let wavefront = rows.len() >= 2 && rows.iter().all(|(_, c)| !*c);
            if wavefront && !self.opts.wavefront {
                if let Some(node) = self.time_loop(group, &edges, &rows[0].0, h)? {
                    return Ok(node);
                }
                if !self.in_time_loop_trial {
                    return self.point_wavefront(group, edges, &rows, h);
                }
                self.suppressed_wavefronts += 1;
            }
            if self.opts.hoist {
                if let Some(node) = self.hoisted(group, &edges, &rows, h)? {
                    return Ok(node);
                }
            }
            if !rows.is_empty() {
                *h = h2;
                return self.finish_band(group, edges, rows, h);
            }
        }
        if sccs.len() > 1 {
            return self.sequence(sccs, edges, h);
        }
        // One component and no band: a sequential row that satisfies as
        // many dependences as possible.
        let row = self.feautrier_row(group, &edges)?;
        for (&s, r) in &row {
            h[s].push(r.coef.clone());
        }
        let remaining = self.restrict(&edges, &[row.clone()])?;
        let child = self.group(group, remaining, h)?;
        Ok(Node::Band(Band {
            stmts: group.to_vec(),
            rows: vec![row],
            coincident: vec![false],
            permutable: false,
            child: Box::new(child),
        }))
    }

    /// `parts` with those merged that share a privatised variable whose
    /// live ranges the rows so far do not yet tell apart (fewer rows than
    /// its loops): split into a sequence outside them, one live range
    /// would span several loop nests, which one thread's copy cannot hold.
    /// The merged parts keep their topological order (a part joins the
    /// first one it shares a variable with, and so do the parts between).
    fn keep_live_ranges_together(
        &self,
        parts: Vec<Vec<usize>>,
        h: &[Vec<Vec<i64>>],
    ) -> Vec<Vec<usize>> {
        let mut parts = parts;
        for (depth, stmts) in &self.scop.private {
            if stmts.iter().any(|&s| h[s].len() >= *depth) {
                continue;
            }
            let holding: Vec<usize> = (0..parts.len())
                .filter(|&k| parts[k].iter().any(|s| stmts.contains(s)))
                .collect();
            let (Some(&first), Some(&last)) = (holding.first(), holding.last()) else {
                continue;
            };
            if first == last {
                continue;
            }
            let mut merged: Vec<usize> = parts[first..=last].concat();
            merged.sort();
            parts.splice(first..=last, std::iter::once(merged));
        }
        parts
    }

    fn sequence(
        &mut self,
        parts: Vec<Vec<usize>>,
        edges: Vec<Edge>,
        h: &mut Vec<Vec<Vec<i64>>>,
    ) -> PResult<Node> {
        let mut children = Vec::new();
        for part in parts {
            let mine = edges
                .iter()
                .filter(|e| part.contains(&e.src) && part.contains(&e.dst))
                .map(|e| e.copy(self.isl))
                .collect::<Result<Vec<_>>>()?;
            let child = self.group(&part, mine, h)?;
            children.push((part, child));
        }
        Ok(Node::Sequence(group_sequential_runs(children)))
    }

    fn finish_band(
        &mut self,
        group: &[usize],
        edges: Vec<Edge>,
        found: Vec<(BTreeMap<usize, Row>, bool)>,
        h: &mut Vec<Vec<Vec<i64>>>,
    ) -> PResult<Node> {
        // Parallel rows first: legal because the band is permutable.
        let mut found = found;
        found.sort_by_key(|(_, c)| !*c);
        self.coalesce_innermost(group, &mut found, h);
        let rows: Vec<BTreeMap<usize, Row>> = found.iter().map(|(r, _)| r.clone()).collect();
        let coincident: Vec<bool> = found.iter().map(|(_, c)| *c).collect();
        let remaining = self.restrict(&edges, &rows)?;
        let child = self.group(group, remaining, h)?;
        Ok(Node::Band(Band {
            stmts: group.to_vec(),
            rows,
            coincident,
            permutable: true,
            child: Box::new(child),
        }))
    }
}

impl Pluto<'_> {
    /// Among a band's two or three leading parallel rows (a kernel's
    /// thread dimensions, the last on `x`), the one whose step touches
    /// the nearest elements goes last: neighbouring threads of a warp
    /// then read one row of each array, not one row each. Any order of
    /// parallel rows is legal: no dependence they do not carry has a
    /// distance along any of them. The rows keep their order where no
    /// other is strictly better (the loops' own order, which the user
    /// usually wrote for the memory).
    fn coalesce_innermost(
        &self,
        group: &[usize],
        found: &mut [(BTreeMap<usize, Row>, bool)],
        h: &[Vec<Vec<i64>>],
    ) {
        let p = found.iter().take_while(|(_, c)| *c).count();
        if !(2..=3).contains(&p) {
            return;
        }
        // What a step of row `c` alone moves, summed over the statements
        // whose rows fix every other direction.
        let cost = |c: usize| -> i64 {
            group
                .iter()
                .filter_map(|&s| {
                    let n = self.scop.stmts.get(s)?.1;
                    let subscripts = self.scop.subscripts.get(s)?;
                    let outer = h.get(s)?.len().checked_sub(found.len())?;
                    let mut fixed: Vec<Vec<i64>> = h[s][..outer].to_vec();
                    for (m, (row, _)) in found.iter().enumerate() {
                        if m != c {
                            fixed.push(row.get(&s)?.coef.clone());
                        }
                    }
                    let dirs = linalg::orthogonal_complement(&fixed, n);
                    let [v] = &dirs[..] else { return None };
                    (!subscripts.is_empty()).then(|| partition::step_cost(subscripts, v))
                })
                .sum()
        };
        let current = cost(p - 1);
        let Some((best, c)) = (0..p - 1).map(|c| (c, cost(c))).min_by_key(|&(_, k)| k) else {
            return;
        };
        if c < current {
            found[best..p].rotate_left(1);
        }
    }
}

/// Each statement's row read off an ILP solution.
/// Whether some band of `node` has a parallel (coincident) row.
/// Consecutive children with no parallel row, nested into one child
/// (a filter over them with their sequence below): the mapper runs such a
/// subtree as one single-thread kernel, where it would launch one per
/// child (a region's scalar initialisations, deriche's sequential sweeps).
fn group_sequential_runs(children: Vec<(Vec<usize>, Node)>) -> Vec<(Vec<usize>, Node)> {
    if children.iter().all(|(_, c)| !has_parallel_row(c)) {
        return children;
    }
    let mut out: Vec<(Vec<usize>, Node)> = Vec::new();
    let mut run: Vec<(Vec<usize>, Node)> = Vec::new();
    let flush =
        |run: &mut Vec<(Vec<usize>, Node)>, out: &mut Vec<(Vec<usize>, Node)>| match run.len() {
            0 => {}
            1 => out.push(run.pop().expect("one child")),
            _ => {
                let stmts: Vec<usize> = run.iter().flat_map(|(s, _)| s.iter().copied()).collect();
                out.push((stmts, Node::Sequence(std::mem::take(run))));
            }
        };
    for (stmts, child) in children {
        if has_parallel_row(&child) {
            flush(&mut run, &mut out);
            out.push((stmts, child));
        } else {
            run.push((stmts, child));
        }
    }
    flush(&mut run, &mut out);
    out
}

fn has_parallel_row(node: &Node) -> bool {
    match node {
        Node::Leaf => false,
        Node::Sequence(children) => children.iter().any(|(_, c)| has_parallel_row(c)),
        Node::Band(b) => b.coincident.iter().any(|c| *c) || has_parallel_row(&b.child),
    }
}

fn row_of(
    vars: &BTreeMap<usize, (Vec<usize>, usize, Vec<usize>)>,
    sol: &[i64],
) -> BTreeMap<usize, Row> {
    vars.iter()
        .map(|(&s, (c, sh, _))| {
            let coef = c.iter().map(|&v| sol[v]).collect();
            (
                s,
                Row {
                    coef,
                    shift: sol[*sh],
                },
            )
        })
        .collect()
}

/// pencilc's scheduler's tree for the first region of `src` as a GPU
/// device has it (`wavefront` off: time loops around parallel bands), and
/// each statement's name. `name` keeps tests that run at once apart.
#[cfg(test)]
pub(super) fn tree_for_test(name: &str, src: &str, hoist: bool) -> (Node, Vec<String>) {
    let scop = crate::scop::test_support::scop_of(name, src);
    let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
    let deps = crate::deps::analyze(&isl, &scop).unwrap();
    let problem = crate::sched::problem_of(&isl, &scop, &deps).unwrap();
    let opts = PlutoOptions {
        fuse: Fuse::Smart,
        max_coefficient: 4,
        max_shift: 64,
        wavefront_tile: 32,
        wavefront: false,
        hoist,
        deadline: Deadline::after(std::time::Duration::from_secs(60)),
    };
    let (node, _) = schedule(&isl, &problem, &opts).unwrap();
    let names = problem.stmts.iter().map(|s| s.0.clone()).collect();
    (node, names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_reads_back_from_its_text() {
        let src = "void f(int n, double A[n][n], double x[n]) {\n#pragma scop\n  for (int i = 1; i < n; i++)\n    for (int j = 0; j < n; j++)\n      A[i][j] = A[i - 1][n - 1 - j] + x[j];\n#pragma endscop\n}\n";
        let scop = crate::scop::test_support::scop_of("problem-text", src);
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        let deps = crate::deps::analyze(&isl, &scop).unwrap();
        let problem = crate::sched::problem_of(&isl, &scop, &deps).unwrap();
        // Reads A[i - 1][n - 1 - j] and x[j], writes A[i][j].
        let mut subs = problem.subscripts[0].clone();
        subs.sort();
        assert_eq!(
            subs,
            [
                vec![vec![0, 1]],
                vec![vec![1, 0], vec![0, -1]],
                vec![vec![1, 0], vec![0, 1]]
            ]
        );
        assert_eq!(Problem::from_text(&problem.to_text()).unwrap(), problem);
    }
}
