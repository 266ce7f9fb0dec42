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
mod rotate;
mod tree;

use crate::diag::{Diagnostic, Result};
use crate::isl::{Isl, IslResultExt};
use farkas::Farkas;
use ilp::{Con, Ilp, IlpError, Lin};
use isl_rs::{DimType, Map};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

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
    /// When scheduling must end; reaching it is a budget error.
    pub deadline: Instant,
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

    /// A band's first row alone (typically time), sequential, around what
    /// the dependences it does not carry allow: PPCG's mapping of a stencil
    /// (a host time loop around parallel kernels), taken only if some row
    /// inside is parallel; otherwise `None` and the caller keeps the
    /// wavefront (seidel-2d has no parallelism at a fixed time step).
    fn time_loop(
        &mut self,
        group: &[usize],
        edges: &[Edge],
        first: &BTreeMap<usize, Row>,
        h: &mut Vec<Vec<Vec<i64>>>,
    ) -> PResult<Option<Node>> {
        let mut h2 = h.clone();
        for (&s, r) in first {
            h2[s].push(r.coef.clone());
        }
        let remaining = self.restrict(edges, std::slice::from_ref(first))?;
        // Whether the time loop leaves parallelism of its own inside: a
        // point wavefront there would always find some, at the cost of a
        // sequential loop per time step (seidel-2d: 3,000 launches per
        // step, against 8,000 in all for the wavefront of the whole band).
        let outer_trial = std::mem::replace(&mut self.in_time_loop_trial, true);
        let suppressed = self.suppressed_wavefronts;
        let mut h_trial = h2.clone();
        let trial = self.group(
            group,
            remaining
                .iter()
                .map(|e| e.copy(self.isl))
                .collect::<Result<_>>()?,
            &mut h_trial,
        );
        self.in_time_loop_trial = outer_trial;
        let trial = trial?;
        if !has_parallel_row(&trial) {
            return Ok(None);
        }
        // Wavefronts inside that the trial kept as tile wavefronts are
        // point wavefronts in the schedule proper.
        let child = if self.suppressed_wavefronts == suppressed {
            h2 = h_trial;
            trial
        } else {
            self.group(group, remaining, &mut h2)?
        };
        *h = h2;
        Ok(Some(Node::Band(Band {
            stmts: group.to_vec(),
            rows: vec![first.clone()],
            coincident: vec![false],
            permutable: true,
            child: Box::new(child),
        })))
    }

    /// A permutable band with no parallel row, for a device that runs no
    /// tile-level wavefront (a GPU, where one thread per tile serialises
    /// the tile): the sum of its rows, `W = Σ φ_k`, sequential, around the
    /// band `(φ_1, …, φ_m)`, all of whose members are parallel. Every
    /// dependence pair of the band has non-negative distance along each
    /// `φ_k`, so either all its distances are zero (a pair for the levels
    /// below, zero along every member) or their sum, its distance along
    /// `W`, is at least 1. The rows keep their rank (`W` and `φ_1..φ_m`
    /// span what `φ_0..φ_m` span). PPCG's isl scheduler finds the same
    /// hyperplanes for seidel-2d (one launch per `W`, 2-d blocks).
    fn point_wavefront(
        &mut self,
        group: &[usize],
        edges: Vec<Edge>,
        rows: &[(BTreeMap<usize, Row>, bool)],
        h: &mut Vec<Vec<Vec<i64>>>,
    ) -> PResult<Node> {
        let mut sum: BTreeMap<usize, Row> = BTreeMap::new();
        for (row, _) in rows {
            for (&s, r) in row {
                let acc = sum.entry(s).or_insert_with(|| Row {
                    coef: vec![0; r.coef.len()],
                    shift: 0,
                });
                for (a, c) in acc.coef.iter_mut().zip(&r.coef) {
                    *a += c;
                }
                acc.shift += r.shift;
            }
        }
        let inner: Vec<BTreeMap<usize, Row>> = rows[1..].iter().map(|(r, _)| r.clone()).collect();
        for row in std::iter::once(&sum).chain(inner.iter()) {
            for (&s, r) in row {
                h[s].push(r.coef.clone());
            }
        }
        let after_w = self.restrict(&edges, std::slice::from_ref(&sum))?;
        let remaining = self.restrict(&after_w, &inner)?;
        let child = self.group(group, remaining, h)?;
        let inner_band = Node::Band(Band {
            stmts: group.to_vec(),
            coincident: vec![true; inner.len()],
            rows: inner,
            permutable: true,
            child: Box::new(child),
        });
        Ok(Node::Band(Band {
            stmts: group.to_vec(),
            rows: vec![sum],
            coincident: vec![false],
            permutable: true,
            child: Box::new(inner_band),
        }))
    }

    /// Greedy smart fusion: walk the components in topological order and
    /// add each to the current part if the two share data (a dependence
    /// between them, or an array both touch) and the fused band keeps as
    /// many parallel rows (and as deep a band) as each of the two scheduled
    /// apart. Fusing nests that share nothing only saves a launch, and
    /// costs a kernel with each nest under its own guards (3mm's two
    /// independent products in one kernel: four times the code and the
    /// barriers, which OpenCL compilers take minutes to build).
    fn smart_partition(
        &mut self,
        sccs: &[Vec<usize>],
        edges: &[Edge],
        h: &[Vec<Vec<i64>>],
    ) -> PResult<Vec<Vec<usize>>> {
        let mut memo: HashMap<Vec<usize>, (usize, usize)> = HashMap::new();
        let mut quality = |me: &mut Self, part: &[usize]| -> PResult<(usize, usize)> {
            if let Some(q) = memo.get(part) {
                return Ok(*q);
            }
            let mine: Vec<Edge> = edges
                .iter()
                .filter(|e| part.contains(&e.src) && part.contains(&e.dst))
                .map(|e| e.copy(me.isl))
                .collect::<Result<Vec<_>>>()?;
            let mut h2 = h.to_vec();
            let rows = me.band_rows(part, &mine, &mut h2)?;
            let q = (rows.iter().filter(|(_, c)| *c).count(), rows.len());
            memo.insert(part.to_vec(), q);
            Ok(q)
        };
        let mut parts: Vec<Vec<usize>> = Vec::new();
        let mut current = sccs[0].clone();
        for next in &sccs[1..] {
            if !self.share_data(&current, next, edges) {
                parts.push(std::mem::replace(&mut current, next.clone()));
                continue;
            }
            let mut merged = current.clone();
            merged.extend(next.iter().copied());
            merged.sort();
            let (pc, dc) = quality(self, &current)?;
            let (pn, dn) = quality(self, next)?;
            let (pm, dm) = quality(self, &merged)?;
            // Fusing must not cost either part a parallel row (a parallel
            // nest fused with a sequential one becomes sequential) or band
            // depth (tilability).
            if dm > 0 && pm >= pc.max(pn) && dm >= dc.max(dn) {
                current = merged;
            } else {
                parts.push(std::mem::replace(&mut current, next.clone()));
            }
        }
        parts.push(current);
        Ok(parts)
    }

    /// Whether statements of `a` and of `b` depend on each other or touch a
    /// common array, or have the same domains.
    fn share_data(&mut self, a: &[usize], b: &[usize], edges: &[Edge]) -> bool {
        let linked = edges.iter().any(|e| {
            (a.contains(&e.src) && b.contains(&e.dst)) || (b.contains(&e.src) && a.contains(&e.dst))
        });
        let arrays = |part: &[usize]| -> Vec<&String> {
            part.iter()
                .flat_map(|&s| self.scop.arrays.get(s).into_iter().flatten())
                .collect()
        };
        let theirs = arrays(b);
        linked || arrays(a).iter().any(|x| theirs.contains(x)) || self.same_domains(a, b)
    }

    /// Whether every statement of `a` and `b` has the same iteration
    /// domain (statements of one loop nest, or outside every loop): fusing
    /// them costs no guards, and saves a launch.
    fn same_domains(&mut self, a: &[usize], b: &[usize]) -> bool {
        let all: Vec<usize> = a.iter().chain(b.iter()).copied().collect();
        let Some(first) = all.first().and_then(|&s| self.domain_of(s)) else {
            return false;
        };
        all[1..].iter().all(|&s| {
            self.domain_of(s)
                .is_some_and(|d| d.is_equal(&first).unwrap_or(false))
        })
    }

    /// Statement `s`'s iteration domain, its tuple name removed.
    fn domain_of(&mut self, s: usize) -> Option<isl_rs::Set> {
        if let Some(d) = self.domains.get(&s) {
            return d.copy().ok();
        }
        let all = self.isl.union_set(&self.scop.domain).ok()?;
        // Text: a set built from the statement's tuple as the model names it.
        let space = isl_rs::Set::read_from_str(
            &self.isl.ctx,
            &format!(
                "{}{{ {} }}",
                tree::params_arrow(self.scop),
                tree::statement_tuple(self.scop, s)
            ),
        )
        .ok()?
        .get_space()
        .ok()?;
        let d = all.extract_set(space).ok()?.reset_tuple_id().ok()?;
        self.domains.insert(s, d.copy().ok()?);
        Some(d)
    }

    /// Rows of one permutable band, with whether each is parallel; `h`
    /// receives the rows' linear parts.
    fn band_rows(
        &mut self,
        group: &[usize],
        edges: &[Edge],
        h: &mut [Vec<Vec<i64>>],
    ) -> PResult<Vec<(BTreeMap<usize, Row>, bool)>> {
        let mut key_edges: Vec<usize> = edges.iter().map(|e| e.id).collect();
        key_edges.sort();
        let key = (
            group.to_vec(),
            key_edges,
            group.iter().map(|&s| h[s].clone()).collect::<Vec<_>>(),
        );
        if let Some(rows) = self.rows_memo.get(&key) {
            for (row, _) in rows {
                for (&s, r) in row {
                    h[s].push(r.coef.clone());
                }
            }
            return Ok(rows.clone());
        }
        let mut edges: Vec<Edge> = edges
            .iter()
            .map(|e| e.copy(self.isl))
            .collect::<Result<_>>()?;
        for e in edges.iter_mut() {
            if e.farkas.is_none() {
                let f = match self.farkas_memo.get(&e.id) {
                    Some(f) => f.clone(),
                    None => {
                        let f = Farkas::of(self.isl, &e.rel)?;
                        self.farkas_memo.insert(e.id, f.clone());
                        f
                    }
                };
                e.farkas = Some(f);
            }
        }
        let mut rows = Vec::new();
        while group.iter().any(|&s| !self.full_rank(s, h)) {
            match self.find_row(group, &edges, h)? {
                Some((row, parallel)) => {
                    for (&s, r) in &row {
                        h[s].push(r.coef.clone());
                    }
                    rows.push((row, parallel));
                }
                None => break,
            }
        }
        self.rows_memo.insert(key, rows.clone());
        Ok(rows)
    }

    fn check_deadline(&self) -> PResult<()> {
        if Instant::now() >= self.opts.deadline {
            Err(PlutoError::Budget(
                "the scheduler's time budget ran out".into(),
            ))
        } else {
            Ok(())
        }
    }

    /// The unknowns of one row for the statements of `group`.
    fn row_vars(
        &self,
        ilp: &mut Ilp,
        group: &[usize],
    ) -> BTreeMap<usize, (Vec<usize>, usize, Vec<usize>)> {
        let b = self.opts.max_coefficient;
        let mut vars = BTreeMap::new();
        for &s in group {
            let c: Vec<usize> = (0..self.dims[s]).map(|_| ilp.add_var(-b, b)).collect();
            let sh = ilp.add_var(0, self.opts.max_shift);
            let abs: Vec<usize> = c
                .iter()
                .map(|&cv| {
                    let a = ilp.add_var(0, b);
                    let mut up = Lin::var(a);
                    up.add_scaled(&Lin::var(cv), -1);
                    ilp.cons.push(Con::ge0(up));
                    let mut down = Lin::var(a);
                    down.add_scaled(&Lin::var(cv), 1);
                    ilp.cons.push(Con::ge0(down));
                    a
                })
                .collect();
            vars.insert(s, (c, sh, abs));
        }
        vars
    }

    /// Validity (and, with `bound`, Pluto's bounding) constraints of every
    /// edge; `strong` adds `δ >= e_k` for Feautrier's row.
    fn edge_constraints(
        &self,
        ilp: &mut Ilp,
        vars: &BTreeMap<usize, (Vec<usize>, usize, Vec<usize>)>,
        edges: &[Edge],
        bound: Option<(&[usize], usize)>,
        strong: Option<&[usize]>,
    ) -> PResult<()> {
        for (k, e) in edges.iter().enumerate() {
            let f = match &e.farkas {
                Some(f) => f.clone(),
                None => Farkas::of(self.isl, &e.rel)?,
            };
            let (cs, shs, _) = &vars[&e.src];
            let (ct, sht, _) = &vars[&e.dst];
            let src: Vec<Lin> = cs.iter().map(|&v| Lin::var(v).scaled(-1)).collect();
            let dst: Vec<Lin> = ct.iter().map(|&v| Lin::var(v)).collect();
            let mut cst = Lin::var(*sht);
            cst.add_scaled(&Lin::var(*shs), -1);
            if let Some(ev) = strong {
                let mut strong_cst = cst.clone();
                strong_cst.add_scaled(&Lin::var(ev[k]), -1);
                let zeros = vec![Lin::constant(0); f.params.len()];
                ilp.cons
                    .extend(f.instantiate(&strong_cst, &zeros, &src, &dst));
            } else {
                let zeros = vec![Lin::constant(0); f.params.len()];
                ilp.cons.extend(f.instantiate(&cst, &zeros, &src, &dst));
            }
            if let Some((u, w)) = bound {
                // w + u·p - δ >= 0
                let mut bcst = Lin::var(w);
                bcst.add_scaled(&cst, -1);
                let us: Vec<Lin> = f
                    .params
                    .iter()
                    .map(|p| match self.params.get(p) {
                        Some(&i) => Lin::var(u[i]),
                        None => Lin::constant(0),
                    })
                    .collect();
                let bsrc: Vec<Lin> = src.iter().map(|l| l.scaled(-1)).collect();
                let bdst: Vec<Lin> = dst.iter().map(|l| l.scaled(-1)).collect();
                ilp.cons.extend(f.instantiate(&bcst, &us, &bsrc, &bdst));
            }
        }
        Ok(())
    }

    /// The cost after (u, w): small coefficients, outer loops first, then
    /// small shifts.
    fn coefficient_cost(&self, vars: &BTreeMap<usize, (Vec<usize>, usize, Vec<usize>)>) -> Lin {
        let depth = self.dims.iter().copied().max().unwrap_or(0) as i64 + 1;
        let n_shift = vars.len() as i64 * self.opts.max_shift + 1;
        let mut cost = Lin::default();
        for (_, sh, abs) in vars.values() {
            for (j, &a) in abs.iter().enumerate() {
                cost.add_scaled(&Lin::var(a), (depth + j as i64) * n_shift);
            }
            cost.add_scaled(&Lin::var(*sh), 1);
        }
        cost
    }

    /// The next row of the band, or `None` if none is valid and independent.
    fn find_row(
        &mut self,
        group: &[usize],
        edges: &[Edge],
        h: &[Vec<Vec<i64>>],
    ) -> PResult<Option<(BTreeMap<usize, Row>, bool)>> {
        for sign in [1i64, -1] {
            let mut ilp = Ilp::default();
            let vars = self.row_vars(&mut ilp, group);
            let u: Vec<usize> = (0..self.params.len()).map(|_| ilp.add_var(0, 64)).collect();
            let w = ilp.add_var(0, 1 << 20);
            self.edge_constraints(&mut ilp, &vars, edges, Some((&u, w)), None)?;
            // Linear independence from the rows found so far.
            for &s in group {
                if self.full_rank(s, h) {
                    continue;
                }
                let (c, _, _) = &vars[&s];
                let mut sum = Lin::constant(-1);
                for r in linalg::orthogonal_complement(&h[s], self.dims[s]) {
                    let mut dot = Lin::default();
                    for (j, &x) in r.iter().enumerate() {
                        dot.add_scaled(&Lin::var(c[j]), x * sign);
                    }
                    sum.add_scaled(&dot, 1);
                    ilp.cons.push(Con::ge0(dot));
                }
                ilp.cons.push(Con::ge0(sum));
            }
            let cost = self.coefficient_cost(&vars);
            // A parallel row (zero distance everywhere) if there is one.
            let mut zero = ilp.clone();
            for &v in u.iter().chain(std::iter::once(&w)) {
                zero.vars[v].hi = 0;
            }
            self.solves += 1;
            let (sol, parallel) = match self.solve(&zero, &[cost.clone()])? {
                Some(s) => (s, true),
                None => {
                    let mut su = Lin::default();
                    for &v in &u {
                        su.add_scaled(&Lin::var(v), 1);
                    }
                    self.solves += 1;
                    match self.solve(&ilp, &[su, Lin::var(w), cost])? {
                        Some(s) => {
                            let par = u.iter().all(|&v| s[v] == 0) && s[w] == 0;
                            (s, par)
                        }
                        None => continue,
                    }
                }
            };
            return Ok(Some((row_of(&vars, &sol), parallel)));
        }
        Ok(None)
    }

    fn solve(&self, ilp: &Ilp, objectives: &[Lin]) -> PResult<Option<Vec<i64>>> {
        match ilp.lexmin(objectives, self.opts.deadline) {
            Ok(Some(s)) if ilp.satisfied_by(&s) => Ok(Some(s)),
            Ok(Some(_)) => Err(PlutoError::Failed(
                "the ILP solver returned a point that violates its constraints".into(),
            )),
            Ok(None) => Ok(None),
            Err(IlpError::Budget) => Err(PlutoError::Budget(
                "the scheduler's time budget ran out in the ILP solver".into(),
            )),
            Err(IlpError::Solver(e)) => Err(PlutoError::Failed(format!("ILP solver: {}", e))),
        }
    }

    /// Feautrier's fallback: one valid row that strictly satisfies as many
    /// pending dependences as possible (at least one).
    fn feautrier_row(&mut self, group: &[usize], edges: &[Edge]) -> PResult<BTreeMap<usize, Row>> {
        let mut ilp = Ilp::default();
        let vars = self.row_vars(&mut ilp, group);
        let e: Vec<usize> = edges.iter().map(|_| ilp.add_var(0, 1)).collect();
        self.edge_constraints(&mut ilp, &vars, edges, None, None)?;
        self.edge_constraints(&mut ilp, &vars, edges, None, Some(&e))?;
        let mut satisfied = Lin::constant(-1);
        let mut neg = Lin::default();
        for &v in &e {
            satisfied.add_scaled(&Lin::var(v), 1);
            neg.add_scaled(&Lin::var(v), -1);
        }
        ilp.cons.push(Con::ge0(satisfied));
        let cost = self.coefficient_cost(&vars);
        self.solves += 1;
        let Some(sol) = self.solve(&ilp, &[neg, cost])? else {
            return Err(PlutoError::Failed(
                "no schedule row satisfies any pending dependence".into(),
            ));
        };
        Ok(row_of(&vars, &sol))
    }

    /// The part of each dependence that `rows` leave unsatisfied (distance
    /// zero along every row); empty dependences are dropped.
    fn restrict(&mut self, edges: &[Edge], rows: &[BTreeMap<usize, Row>]) -> PResult<Vec<Edge>> {
        let isl = self.isl;
        let mut out = Vec::new();
        for e in edges {
            let n_src = self.dims[e.src];
            let n_dst = self.dims[e.dst];
            let src_it: Vec<String> = (0..n_src).map(|k| format!("i{}", k)).collect();
            let dst_it: Vec<String> = (0..n_dst).map(|k| format!("j{}", k)).collect();
            let eqs: Vec<String> = rows
                .iter()
                .map(|r| {
                    format!(
                        "{} = {}",
                        tree::row_text(&r[&e.dst], &dst_it),
                        tree::row_text(&r[&e.src], &src_it)
                    )
                })
                .collect();
            let text = format!(
                "{}{{ {}[{}] -> {}[{}] : {} }}",
                tree::params_arrow(self.scop),
                self.scop.stmts[e.src].0,
                src_it.join(", "),
                self.scop.stmts[e.dst].0,
                dst_it.join(", "),
                eqs.join(" and ")
            );
            let eq = isl.map(&text).isl(isl, STAGE)?;
            let rel = e
                .rel
                .copy()
                .isl(isl, STAGE)?
                .intersect(eq)
                .isl(isl, STAGE)?
                .coalesce()
                .isl(isl, STAGE)?;
            if !rel.is_empty().isl(isl, STAGE)? {
                out.push(Edge {
                    id: self.next_edge,
                    src: e.src,
                    dst: e.dst,
                    rel,
                    farkas: None,
                });
                self.next_edge += 1;
            }
        }
        Ok(out)
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
