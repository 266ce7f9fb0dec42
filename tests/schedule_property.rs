//! Property test of the schedulers: random affine loop nests, each compiled
//! with pencilc's C target under every scheduler and fusion setting, built
//! and run, and compared with the original program to the last bit.
//!
//! A case is a sequence of loop nests (imperfect ones too) over up to four
//! iterators, with constant or triangular bounds, holding one to five
//! statements such as `A[i][j] = 0.5 * A[i][j] + 0.25 * B[j][i] - C[i + j]`
//! whose subscripts are random affine expressions. Arrays are sized from the
//! iterators' ranges so that every access stays in bounds. The generator is a
//! fixed-seed splitmix64, so a case number always names the same program.
//!
//! The generated program must print exactly what the original prints: a
//! legal schedule only reorders whole statement instances, each of which
//! computes the same floating-point operations in the same order, and no
//! build here contracts `a * b + c` (plain `cc -O1` on x86-64 has no FMA).
//!
//! Environment:
//! - `PENCILC_PROPTEST_CASES`: number of cases (default 100, about two
//!   minutes in release mode on 2 cores; each case is 4 pencilc runs and 5
//!   builds and runs);
//! - `PENCILC_PROPTEST_SEED`: another base seed (default fixed);
//! - `PENCILC_PROPTEST_CASE`: run only this case number;
//! - `PENCILC_PROPTEST_SHRINK`: seconds spent shrinking the first failure
//!   of each setting to a smaller program (default 60; 0: none);
//! - `PENCILC_PROPTEST_KEEP`: keep every case's files in `target/proptest/`;
//! - `PENCILC_PROPTEST_STRICT`: fail on known issues too (`KNOWN_ISSUES`).
//!
//! A failing case is saved, with the command that reproduces it, under
//! `target/proptest-failures/`.

mod common;
use common::{pencilc, root};

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The settings every case is compiled with: a name and pencilc's flags.
const SETTINGS: [(&str, &[&str]); 4] = [
    ("pluto/smart", &["--scheduler", "pluto", "--fuse", "smart"]),
    ("pluto/max", &["--scheduler", "pluto", "--fuse", "max"]),
    ("pluto/min", &["--scheduler", "pluto", "--fuse", "min"]),
    ("isl", &["--scheduler", "isl"]),
];

const DEFAULT_CASES: usize = 100;
const DEFAULT_SEED: u64 = 0x7065_6e63_696c_6301;
/// Longest pencilc or cc may run (pencilc's own scheduler timeout is 20 s).
const TOOL_LIMIT: Duration = Duration::from_secs(60);
/// Longest a generated program may run, at least: the originals take a few
/// milliseconds, so this only catches programs that do vastly more work.
const PROGRAM_LIMIT: Duration = Duration::from_secs(5);
const ITERATORS: [&str; 4] = ["i", "j", "k", "l"];
const ARRAYS: [&str; 4] = ["A", "B", "C", "D"];

// ---------------------------------------------------------------------------
// Random numbers

/// splitmix64: small, fast, and the same sequence on every platform.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64) < p * (1u64 << 53) as f64
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.range(0, xs.len() as i64 - 1) as usize]
    }
}

/// The seed of case `n`: cases are independent of each other and of the
/// number of cases run.
fn case_seed(base: u64, n: usize) -> u64 {
    let mut r = Rng::new(base ^ (n as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
    r.next()
}

// ---------------------------------------------------------------------------
// The program model

/// `sum(coef * iterator) + constant`, iterators numbered by loop depth.
#[derive(Clone, Debug, PartialEq)]
struct Affine {
    terms: Vec<(usize, i64)>,
    constant: i64,
}

impl Affine {
    fn constant(c: i64) -> Affine {
        Affine {
            terms: Vec::new(),
            constant: c,
        }
    }

    fn iterator(d: usize, c: i64) -> Affine {
        Affine {
            terms: vec![(d, 1)],
            constant: c,
        }
    }

    /// The smallest and largest value over the iterators' ranges.
    fn interval(&self, ranges: &[(i64, i64)]) -> (i64, i64) {
        let mut lo = self.constant;
        let mut hi = self.constant;
        for &(d, a) in &self.terms {
            let (l, h) = ranges[d];
            if a >= 0 {
                lo += a * l;
                hi += a * h;
            } else {
                lo += a * h;
                hi += a * l;
            }
        }
        (lo, hi)
    }

    fn render(&self) -> String {
        let mut s = String::new();
        for &(d, a) in &self.terms {
            let name = ITERATORS[d];
            match (a, s.is_empty()) {
                (1, true) => s.push_str(name),
                (1, false) => write!(s, " + {}", name).unwrap(),
                (-1, true) => write!(s, "-{}", name).unwrap(),
                (-1, false) => write!(s, " - {}", name).unwrap(),
                (a, true) => write!(s, "{} * {}", a, name).unwrap(),
                (a, false) if a < 0 => write!(s, " - {} * {}", -a, name).unwrap(),
                (a, false) => write!(s, " + {} * {}", a, name).unwrap(),
            }
        }
        // `-i + 5` reads better as `5 - i`.
        if s.starts_with('-') && self.constant > 0 {
            return format!("{} {}", self.constant, s.replacen('-', "- ", 1));
        }
        match (self.constant, s.is_empty()) {
            (c, true) => c.to_string(),
            (0, false) => s,
            (c, false) if c < 0 => format!("{} - {}", s, -c),
            (c, false) => format!("{} + {}", s, c),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Access {
    array: usize,
    subscripts: Vec<Affine>,
}

impl Access {
    fn render(&self) -> String {
        let mut s = ARRAYS[self.array].to_string();
        for e in &self.subscripts {
            write!(s, "[{}]", e.render()).unwrap();
        }
        s
    }
}

/// One term of a right-hand side: `sign coefficient * access`.
#[derive(Clone, Debug, PartialEq)]
struct Term {
    negative: bool,
    coefficient: &'static str,
    access: Access,
}

#[derive(Clone, Debug, PartialEq)]
struct Stmt {
    write: Access,
    /// `+=` instead of `=`.
    compound: bool,
    terms: Vec<Term>,
    constant: Option<&'static str>,
}

impl Stmt {
    fn render(&self) -> String {
        let mut rhs = String::new();
        for t in &self.terms {
            let sign = match (t.negative, rhs.is_empty()) {
                (false, true) => "",
                (true, true) => "-",
                (false, false) => " + ",
                (true, false) => " - ",
            };
            let factor = if t.coefficient == "1" {
                String::new()
            } else {
                format!("{} * ", t.coefficient)
            };
            write!(rhs, "{}{}{}", sign, factor, t.access.render()).unwrap();
        }
        if let Some(c) = self.constant {
            write!(rhs, " + {}", c).unwrap();
        }
        format!(
            "{} {} {};",
            self.write.render(),
            if self.compound { "+=" } else { "=" },
            rhs
        )
    }

    fn accesses(&self) -> impl Iterator<Item = &Access> {
        std::iter::once(&self.write).chain(self.terms.iter().map(|t| &t.access))
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    /// `for (int it = lower; it <= upper; it++)`, `it` the iterator of `depth`;
    /// `strict` prints the bound as `it < upper + 1`.
    Loop {
        depth: usize,
        lower: Affine,
        upper: Affine,
        strict: bool,
        body: Vec<Node>,
    },
    Stmt(Stmt),
}

#[derive(Clone, Debug, PartialEq)]
struct Program {
    /// Rank of each array.
    ranks: Vec<usize>,
    body: Vec<Node>,
}

/// The range of the iterator of a loop with these bounds, given the outer
/// iterators' ranges; `None` when the loop never runs.
fn loop_range(lower: &Affine, upper: &Affine, outer: &[(i64, i64)]) -> Option<(i64, i64)> {
    let (lo, _) = lower.interval(outer);
    let (_, hi) = upper.interval(outer);
    (lo <= hi).then_some((lo, hi))
}

impl Program {
    /// Calls `f` on every statement with the ranges of its iterators
    /// (statements in loops that never run are skipped).
    fn walk(&self, f: &mut dyn FnMut(&Stmt, &[(i64, i64)])) {
        fn go(
            nodes: &[Node],
            ranges: &mut Vec<(i64, i64)>,
            f: &mut dyn FnMut(&Stmt, &[(i64, i64)]),
        ) {
            for n in nodes {
                match n {
                    Node::Stmt(s) => f(s, ranges),
                    Node::Loop {
                        lower, upper, body, ..
                    } => {
                        if let Some(r) = loop_range(lower, upper, ranges) {
                            ranges.push(r);
                            go(body, ranges, f);
                            ranges.pop();
                        }
                    }
                }
            }
        }
        go(&self.body, &mut Vec::new(), f)
    }

    /// Extent of every dimension of every array, or `None` if some access
    /// can go below zero.
    fn extents(&self) -> Option<Vec<Vec<i64>>> {
        let mut ext: Vec<Vec<i64>> = self.ranks.iter().map(|&r| vec![1; r]).collect();
        let mut ok = true;
        self.walk(&mut |s, ranges| {
            for a in s.accesses() {
                for (d, e) in a.subscripts.iter().enumerate() {
                    let (lo, hi) = e.interval(ranges);
                    ok &= lo >= 0;
                    ext[a.array][d] = ext[a.array][d].max(hi + 1);
                }
            }
        });
        ok.then_some(ext)
    }

    fn statements(&self) -> usize {
        let mut n = 0;
        self.walk(&mut |_, _| n += 1);
        n
    }

    fn used_arrays(&self) -> Vec<bool> {
        let mut used = vec![false; self.ranks.len()];
        fn go(nodes: &[Node], used: &mut [bool]) {
            for n in nodes {
                match n {
                    Node::Stmt(s) => s.accesses().for_each(|a| used[a.array] = true),
                    Node::Loop { body, .. } => go(body, used),
                }
            }
        }
        go(&self.body, &mut used);
        used
    }

    /// The whole C program: declarations, deterministic initialisation, the
    /// region, and a dump of every array.
    fn render(&self) -> String {
        let ext = self.extents().expect("accesses in bounds");
        let used = self.used_arrays();
        let mut s = String::from("#include <stdio.h>\n\n");
        for (a, e) in ext.iter().enumerate().filter(|(a, _)| used[*a]) {
            write!(s, "double {}", ARRAYS[a]).unwrap();
            for x in e {
                write!(s, "[{}]", x).unwrap();
            }
            s.push_str(";\n");
        }
        s.push_str("\nint main(void)\n{\n");
        for (a, e) in ext.iter().enumerate().filter(|(a, _)| used[*a]) {
            let (loops, index, value) = array_loops(ARRAYS[a], e);
            // Values with long binary expansions, so that any change in the
            // order of operations shows in the last bits.
            let mut formula = format!("{}", 3 + 2 * a);
            for (d, idx) in index.iter().enumerate() {
                write!(formula, " + {} * {}", [7, 13, 5][d], idx).unwrap();
            }
            writeln!(
                s,
                "  {}{} = (double)(({}) % 37) / 37.0 - 0.25;",
                loops, value, formula
            )
            .unwrap();
        }
        s.push_str("#pragma scop\n");
        render_nodes(&self.body, 1, &mut s);
        s.push_str("#pragma endscop\n");
        for (a, e) in ext.iter().enumerate().filter(|(a, _)| used[*a]) {
            let (loops, _, value) = array_loops(ARRAYS[a], e);
            writeln!(s, "  printf(\"{}\\n\");", ARRAYS[a]).unwrap();
            writeln!(s, "  {}printf(\"%.17g\\n\", {});", loops, value).unwrap();
        }
        s.push_str("  return 0;\n}\n");
        s
    }
}

/// Loops over every element of an array outside the region (iterators
/// `x0`, `x1`, ..., which the region never uses), the index names, and the
/// element.
fn array_loops(name: &str, ext: &[i64]) -> (String, Vec<String>, String) {
    let mut loops = String::new();
    let mut index = Vec::new();
    let mut value = name.to_string();
    for (d, e) in ext.iter().enumerate() {
        let x = format!("x{}", d);
        write!(loops, "for (int {x} = 0; {x} < {e}; {x}++) ").unwrap();
        write!(value, "[{}]", x).unwrap();
        index.push(x);
    }
    (loops, index, value)
}

fn render_nodes(nodes: &[Node], indent: usize, s: &mut String) {
    let pad = "  ".repeat(indent);
    for n in nodes {
        match n {
            Node::Stmt(st) => writeln!(s, "{}{}", pad, st.render()).unwrap(),
            Node::Loop {
                depth,
                lower,
                upper,
                strict,
                body,
            } => {
                let it = ITERATORS[*depth];
                let cond = if *strict {
                    let mut u = upper.clone();
                    u.constant += 1;
                    format!("{} < {}", it, u.render())
                } else {
                    format!("{} <= {}", it, upper.render())
                };
                writeln!(
                    s,
                    "{}for (int {} = {}; {}; {}++) {{",
                    pad,
                    it,
                    lower.render(),
                    cond,
                    it
                )
                .unwrap();
                render_nodes(body, indent + 1, s);
                writeln!(s, "{}}}", pad).unwrap();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Generation

/// Coefficients of the right-hand sides. Their absolute values sum to at
/// most 1 in every statement, so that values stay bounded however long the
/// dependence chains (an overflow to infinity would hide wrong orders).
const COEFFICIENTS: [(&str, f64); 6] = [
    ("0.5", 0.5),
    ("0.25", 0.25),
    ("0.125", 0.125),
    ("0.375", 0.375),
    ("0.3", 0.3),
    ("0.2", 0.2),
];

fn generate(seed: u64) -> Program {
    let mut rng = Rng::new(seed);
    // Few arrays, so that statements often touch the same ones.
    let arrays = rng.range(2, 3) as usize;
    let ranks = (0..arrays)
        .map(|_| match rng.range(0, 7) {
            0 | 1 => 1,
            2..=5 => 2,
            _ => 3,
        })
        .collect();
    let mut g = Gen {
        rng,
        ranks,
        left: 0,
        max_depth: 0,
    };
    g.left = g.rng.range(1, 5) as usize;
    // Mostly deep nests: depth 1 is the least interesting.
    g.max_depth = match g.rng.range(0, 19) {
        0..=2 => 1,
        3..=8 => 2,
        9..=14 => 3,
        _ => 4,
    };
    let body = g.block(&mut Vec::new());
    let p = Program {
        ranks: g.ranks,
        body,
    };
    debug_assert!(p.extents().is_some());
    p
}

struct Gen {
    rng: Rng,
    ranks: Vec<usize>,
    /// Statements still to place.
    left: usize,
    max_depth: usize,
}

impl Gen {
    /// A block at the depth `ranges.len()`: at the top, loop nests (rarely
    /// a bare statement) until every statement is placed; inside a loop, at
    /// least one item, then more with some probability.
    fn block(&mut self, ranges: &mut Vec<(i64, i64)>) -> Vec<Node> {
        let depth = ranges.len();
        let mut items = Vec::new();
        while self.left > 0 {
            let stmt_here = if depth == self.max_depth {
                true
            } else if depth == 0 {
                self.rng.chance(0.05)
            } else {
                self.rng.chance(0.25)
            };
            if stmt_here {
                self.left -= 1;
                items.push(Node::Stmt(self.stmt(ranges)));
            } else {
                items.push(self.for_loop(ranges));
            }
            if depth > 0 && self.rng.chance(0.5) {
                break;
            }
        }
        items
    }

    fn for_loop(&mut self, ranges: &mut Vec<(i64, i64)>) -> Node {
        let depth = ranges.len();
        let (lower, upper, range) = loop {
            let lower = if depth > 0 && self.rng.chance(0.25) {
                let v = self.rng.range(0, depth as i64 - 1) as usize;
                Affine::iterator(v, self.rng.range(-1, 1))
            } else {
                Affine::constant(self.rng.range(0, 2))
            };
            let upper = if depth > 0 && self.rng.chance(0.3) {
                let v = self.rng.range(0, depth as i64 - 1) as usize;
                if self.rng.chance(0.25) {
                    // Anti-triangular: `j <= 10 - i`.
                    Affine {
                        terms: vec![(v, -1)],
                        constant: self.rng.range(8, 12),
                    }
                } else {
                    Affine::iterator(v, self.rng.range(-1, 2))
                }
            } else {
                Affine::constant(self.rng.range(3, 11))
            };
            if let Some(r) = loop_range(&lower, &upper, ranges) {
                if r.1 <= 13 && r.1 - r.0 >= 1 {
                    break (lower, upper, r);
                }
            }
        };
        ranges.push(range);
        let body = self.block(ranges);
        ranges.pop();
        Node::Loop {
            depth,
            lower,
            upper,
            strict: self.rng.chance(0.5),
            body,
        }
    }

    fn stmt(&mut self, ranges: &[(i64, i64)]) -> Stmt {
        let array = self.rng.range(0, self.ranks.len() as i64 - 1) as usize;
        let write = self.access(array, ranges, true);
        let compound = self.rng.chance(0.2);
        let n = if compound {
            1
        } else {
            self.rng.range(1, 3) as usize
        };
        let mut terms = Vec::new();
        let mut budget = 1.0;
        for t in 0..n {
            // Often the written element itself, as in `A[i] = 0.5 * A[i] + ...`.
            let access = if t == 0 && !compound && self.rng.chance(0.4) {
                write.clone()
            } else {
                let a = self.rng.range(0, self.ranks.len() as i64 - 1) as usize;
                self.access(a, ranges, false)
            };
            let fits: Vec<(&'static str, f64)> = COEFFICIENTS
                .iter()
                .copied()
                .filter(|c| c.1 <= budget + 1e-9)
                .collect();
            if fits.is_empty() {
                break;
            }
            let (coefficient, v) = self.rng.pick(&fits);
            budget -= v;
            terms.push(Term {
                negative: t > 0 && self.rng.chance(0.4),
                coefficient,
                access,
            });
        }
        let constant = (!compound && self.rng.chance(0.3)).then(|| self.rng.pick(&["1.0", "0.5"]));
        Stmt {
            write,
            compound,
            terms,
            constant,
        }
    }

    /// A random affine access, shifted so that it never goes below zero.
    fn access(&mut self, array: usize, ranges: &[(i64, i64)], write: bool) -> Access {
        let depth = ranges.len();
        let rank = self.ranks[array];
        let subscripts = (0..rank)
            .map(|_| {
                if depth == 0 {
                    return Affine::constant(self.rng.range(0, 3));
                }
                let v = self.rng.range(0, depth as i64 - 1) as usize;
                let small = |r: &mut Rng| if r.chance(0.5) { 0 } else { r.range(-2, 2) };
                let roll = self.rng.range(0, 99);
                let mut e = if write && roll < 70 || roll < 55 {
                    Affine::iterator(v, small(&mut self.rng))
                } else if roll < 70 && depth > 1 {
                    let w = (v + self.rng.range(1, depth as i64 - 1) as usize) % depth;
                    Affine {
                        terms: vec![(v.min(w), 1), (v.max(w), 1)],
                        constant: small(&mut self.rng),
                    }
                } else if roll < 80 {
                    Affine {
                        terms: vec![(v, -1)],
                        constant: self.rng.range(8, 13),
                    }
                } else if roll < 90 {
                    Affine::constant(self.rng.range(0, 3))
                } else {
                    Affine {
                        terms: vec![(v, 2)],
                        constant: small(&mut self.rng),
                    }
                };
                let (lo, _) = e.interval(ranges);
                if lo < 0 {
                    e.constant -= lo;
                }
                e
            })
            .collect();
        Access { array, subscripts }
    }
}

// ---------------------------------------------------------------------------
// Running

/// A process's outcome.
struct Ran {
    ok: bool,
    /// Killed at the time limit.
    timed_out: bool,
    elapsed: Duration,
    stdout: String,
    stderr: String,
}

/// Runs `cmd` with its output in files of `dir` (no pipes to drain), killed
/// after `limit`.
fn run_limited(cmd: &mut Command, dir: &Path, tag: &str, limit: Duration) -> Ran {
    let out_path = dir.join(format!("{}.stdout", tag));
    let err_path = dir.join(format!("{}.stderr", tag));
    let out = std::fs::File::create(&out_path).expect("stdout file");
    let err = std::fs::File::create(&err_path).expect("stderr file");
    let mut child = match cmd.stdin(Stdio::null()).stdout(out).stderr(err).spawn() {
        Ok(c) => c,
        Err(e) => {
            return Ran {
                ok: false,
                timed_out: false,
                elapsed: Duration::ZERO,
                stdout: String::new(),
                stderr: format!("cannot start: {}", e),
            }
        }
    };
    let start = Instant::now();
    let mut delay = Duration::from_millis(1);
    let (ok, timed_out) = loop {
        match child.try_wait() {
            Ok(Some(status)) => break (status.success(), false),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break (false, true);
            }
            Ok(None) => {
                std::thread::sleep(delay);
                delay = (delay * 2).min(Duration::from_millis(20));
            }
            Err(_) => break (false, false),
        }
    };
    Ran {
        ok,
        timed_out,
        elapsed: start.elapsed(),
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
    }
}

/// What went wrong with one setting on one case.
#[derive(Clone, Debug, PartialEq)]
enum Failure {
    Pencilc(String),
    Build(String),
    Run(String),
    /// The generated program did not finish in far more time than the
    /// original needs.
    Hang(String),
    Mismatch(String),
}

impl Failure {
    fn kind(&self) -> &'static str {
        match self {
            Failure::Pencilc(_) => "pencilc failed",
            Failure::Build(_) => "the generated C does not build",
            Failure::Run(_) => "the generated program failed",
            Failure::Hang(_) => "the generated program does not finish",
            Failure::Mismatch(_) => "wrong output",
        }
    }

    fn detail(&self) -> &str {
        match self {
            Failure::Pencilc(s)
            | Failure::Build(s)
            | Failure::Run(s)
            | Failure::Hang(s)
            | Failure::Mismatch(s) => s,
        }
    }
}

fn cc(src: &Path, exe: &Path, dir: &Path, tag: &str) -> Result<(), String> {
    let r = run_limited(
        Command::new("cc")
            .arg("-O1")
            .arg(src)
            .arg("-lm")
            .arg("-o")
            .arg(exe),
        dir,
        tag,
        TOOL_LIMIT,
    );
    if r.ok {
        Ok(())
    } else {
        Err(tail(&r.stderr, 3000))
    }
}

/// The original program's output and run time.
struct Reference {
    output: String,
    elapsed: Duration,
}

fn tail(s: &str, n: usize) -> String {
    let mut start = s.len().saturating_sub(n);
    while !s.is_char_boundary(start) {
        start += 1;
    }
    s[start..].to_string()
}

/// The pencilc command line of a setting (for the reports, too).
fn pencilc_args(setting: usize, input: &Path, output: &Path) -> Vec<String> {
    let mut args: Vec<String> = vec!["--target".into(), "c".into()];
    args.extend(SETTINGS[setting].1.iter().map(|s| s.to_string()));
    args.push("-o".into());
    args.push(output.display().to_string());
    args.push(input.display().to_string());
    args
}

/// Builds and runs the original program in `dir` (which holds `case.c`).
fn reference_output(dir: &Path) -> Result<Reference, String> {
    let exe = dir.join("original");
    cc(&dir.join("case.c"), &exe, dir, "cc-original")
        .map_err(|e| format!("the original does not build:\n{}", e))?;
    let r = run_limited(&mut Command::new(&exe), dir, "run-original", TOOL_LIMIT);
    if r.ok {
        Ok(Reference {
            output: r.stdout,
            elapsed: r.elapsed,
        })
    } else {
        Err(format!("the original fails: {}", tail(&r.stderr, 3000)))
    }
}

/// Compiles `dir/case.c` with one setting, builds and runs the result, and
/// compares it with `expected`. Returns the warnings pencilc printed.
fn check_setting(dir: &Path, setting: usize, expected: &Reference) -> Result<Vec<String>, Failure> {
    let slug = SETTINGS[setting].0.replace('/', "-");
    let out = dir.join(format!("{}.c", slug));
    let r = run_limited(
        Command::new(pencilc()).args(pencilc_args(setting, &dir.join("case.c"), &out)),
        dir,
        &format!("pencilc-{}", slug),
        TOOL_LIMIT,
    );
    if !r.ok {
        return Err(Failure::Pencilc(if r.timed_out {
            format!("did not finish within {:?}", TOOL_LIMIT)
        } else {
            tail(&r.stderr, 4000)
        }));
    }
    let warnings: Vec<String> = r
        .stderr
        .lines()
        .filter(|l| l.contains(": warning: "))
        .map(|l| l.split(": warning: ").nth(1).unwrap_or(l).to_string())
        .collect();
    let exe = dir.join(&slug);
    cc(&out, &exe, dir, &format!("cc-{}", slug)).map_err(Failure::Build)?;
    let limit = PROGRAM_LIMIT.max(expected.elapsed * 100);
    let run = run_limited(
        &mut Command::new(&exe),
        dir,
        &format!("run-{}", slug),
        limit,
    );
    if run.timed_out {
        let generated = std::fs::read_to_string(&out).unwrap_or_default();
        return Err(Failure::Hang(format!(
            "killed after {:.1} s; the original runs in {:.1} ms{}",
            limit.as_secs_f64(),
            expected.elapsed.as_secs_f64() * 1e3,
            if generated.contains("< 32768;") {
                "; a kernel launches 32768 blocks in a dimension"
            } else {
                ""
            }
        )));
    }
    if !run.ok {
        return Err(Failure::Run(tail(&run.stderr, 3000)));
    }
    if let Some(why) = first_difference(&expected.output, &run.stdout) {
        return Err(Failure::Mismatch(why));
    }
    Ok(warnings)
}

/// Where two dumps first differ (array, element, both values), or `None`.
fn first_difference(expected: &str, got: &str) -> Option<String> {
    if expected == got {
        return None;
    }
    let (mut array, mut index, mut differ) = (String::from("?"), 0usize, 0usize);
    let mut first = None;
    for (a, b) in expected.lines().zip(got.lines()) {
        if a.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
            array = a.to_string();
            index = 0;
            continue;
        }
        if a != b {
            differ += 1;
            first.get_or_insert_with(|| {
                format!(
                    "{}[{}] (flattened): expected {}, got {}",
                    array, index, a, b
                )
            });
        }
        index += 1;
    }
    let lines = (expected.lines().count(), got.lines().count());
    Some(match first {
        Some(f) => format!("{} values differ; first: {}", differ, f),
        None => format!("{} lines expected, {} printed", lines.0, lines.1),
    })
}

// ---------------------------------------------------------------------------
// Shrinking

/// Every program one simplification away from `p`: a node removed, a
/// bound made constant or smaller, a term, constant or subscript offset
/// dropped.
fn simplifications(p: &Program) -> Vec<Program> {
    let mut out = Vec::new();
    let count = count_nodes(&p.body);
    for target in 0..count {
        for edit in 0..16 {
            let mut q = p.clone();
            let mut seen = 0;
            if edit_node(&mut q.body, target, edit, &mut seen) && q != *p {
                out.push(q);
            }
        }
    }
    out
}

fn count_nodes(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| {
            1 + match n {
                Node::Loop { body, .. } => count_nodes(body),
                Node::Stmt(_) => 0,
            }
        })
        .sum()
}

/// Applies edit number `edit` to the `target`-th node (preorder); false if
/// that edit does not apply.
fn edit_node(nodes: &mut Vec<Node>, target: usize, edit: usize, seen: &mut usize) -> bool {
    for i in 0..nodes.len() {
        if *seen == target {
            if edit == 0 {
                nodes.remove(i);
                return true;
            }
            return edit_one(&mut nodes[i], edit - 1);
        }
        *seen += 1;
        if let Node::Loop { body, .. } = &mut nodes[i] {
            if edit_node(body, target, edit, seen) {
                return true;
            }
            if *seen > target {
                return false;
            }
        }
    }
    false
}

fn edit_one(node: &mut Node, edit: usize) -> bool {
    match node {
        Node::Loop {
            lower,
            upper,
            strict,
            ..
        } => match edit {
            0 if *lower != Affine::constant(0) => {
                *lower = Affine::constant(0);
                true
            }
            1 if !upper.terms.is_empty() => {
                *upper = Affine::constant(upper.constant.clamp(1, 11));
                true
            }
            2 if upper.constant > 1 => {
                upper.constant -= 1;
                true
            }
            3 if upper.terms.is_empty() && upper.constant > 3 => {
                upper.constant = 3;
                true
            }
            4 if *strict => {
                *strict = false;
                true
            }
            _ => false,
        },
        Node::Stmt(s) => match edit {
            0 if s.constant.is_some() => {
                s.constant = None;
                true
            }
            1 if s.compound => {
                s.compound = false;
                true
            }
            e @ 2..=4 if s.terms.len() > 1 && e - 2 < s.terms.len() => {
                s.terms.remove(e - 2);
                true
            }
            e @ 5..=14 => {
                // Drop the offset of the n-th subscript of the statement.
                let mut n = e - 5;
                for a in
                    std::iter::once(&mut s.write).chain(s.terms.iter_mut().map(|t| &mut t.access))
                {
                    for sub in &mut a.subscripts {
                        if n == 0 {
                            if sub.constant != 0 && !sub.terms.is_empty() {
                                sub.constant = 0;
                                return true;
                            }
                            return false;
                        }
                        n -= 1;
                    }
                }
                false
            }
            _ => false,
        },
    }
}

/// Greedily simplifies a failing program while `setting` keeps failing the
/// same way, for at most `budget`.
fn shrink(
    p: &Program,
    setting: usize,
    failure: &Failure,
    dir: &Path,
    budget: Duration,
) -> (Program, Failure) {
    let mut best = (p.clone(), failure.clone());
    let start = Instant::now();
    'outer: loop {
        for q in simplifications(&best.0) {
            if q.statements() == 0 || q.extents().is_none() {
                continue;
            }
            if start.elapsed() > budget {
                break 'outer;
            }
            let _ = std::fs::remove_dir_all(dir);
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join("case.c"), q.render()).unwrap();
            let Ok(expected) = reference_output(dir) else {
                continue;
            };
            if let Err(f) = check_setting(dir, setting, &expected) {
                if f.kind() == failure.kind() {
                    best = (q, f);
                    continue 'outer;
                }
            }
        }
        break;
    }
    best
}

// ---------------------------------------------------------------------------
// The test

/// Failures already reported, each with its ignored reproducer at the end of
/// this file: (what the failure says, the reproducer). They are counted and
/// listed but do not fail the test unless `PENCILC_PROPTEST_STRICT` is set.
/// A wrong output is never one of them. Remove an entry when its bug is fixed.
const KNOWN_ISSUES: [(&str, &str); 0] = [];

fn known_issue(f: &Failure) -> Option<&'static str> {
    if matches!(f, Failure::Mismatch(_)) {
        return None;
    }
    KNOWN_ISSUES
        .iter()
        .find(|(text, _)| f.detail().contains(text))
        .map(|(_, test)| *test)
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    /// Failures that are known issues (also counted in `failed`).
    known: usize,
    /// Cases with at least one warning, and each distinct warning's count.
    warned: usize,
    warnings: BTreeMap<String, Vec<usize>>,
}

struct CaseFailure {
    case: usize,
    setting: usize,
    failure: Failure,
    source: String,
}

fn env_usize(name: &str) -> Option<usize> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

#[test]
fn random_affine_nests_run_like_the_original() {
    let seed = std::env::var("PENCILC_PROPTEST_SEED")
        .ok()
        .and_then(|s| {
            let s = s.trim();
            s.strip_prefix("0x")
                .map(|h| u64::from_str_radix(h, 16).ok())
                .unwrap_or_else(|| s.parse().ok())
        })
        .unwrap_or(DEFAULT_SEED);
    let cases: Vec<usize> = match env_usize("PENCILC_PROPTEST_CASE") {
        Some(c) => vec![c],
        None => (0..env_usize("PENCILC_PROPTEST_CASES").unwrap_or(DEFAULT_CASES)).collect(),
    };
    let shrink_budget =
        Duration::from_secs(env_usize("PENCILC_PROPTEST_SHRINK").unwrap_or(60) as u64);
    let keep = std::env::var_os("PENCILC_PROPTEST_KEEP").is_some();
    let work = root().join("target/proptest");
    let failures_dir = root().join("target/proptest-failures");
    let _ = std::fs::remove_dir_all(&work);
    let _ = std::fs::remove_dir_all(&failures_dir);
    std::fs::create_dir_all(&work).unwrap();

    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let tallies: Mutex<Vec<Tally>> =
        Mutex::new((0..SETTINGS.len()).map(|_| Tally::default()).collect());
    let failures: Mutex<Vec<CaseFailure>> = Mutex::new(Vec::new());
    let broken_originals = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(&case) = cases.get(k) else { break };
                let program = generate(case_seed(seed, case));
                let source = program.render();
                let dir = work.join(format!("case-{}", case));
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join("case.c"), &source).unwrap();
                let expected = match reference_output(&dir) {
                    Ok(e) => e,
                    Err(e) => {
                        // A generator bug, not a pencilc one; say so loudly.
                        eprintln!("case {}: {}\n{}", case, e, source);
                        broken_originals.fetch_add(1, Ordering::SeqCst);
                        continue;
                    }
                };
                let mut any_failed = false;
                for setting in 0..SETTINGS.len() {
                    let r = check_setting(&dir, setting, &expected);
                    let mut t = tallies.lock().unwrap();
                    let t = &mut t[setting];
                    match r {
                        Ok(w) => {
                            t.passed += 1;
                            t.warned += usize::from(!w.is_empty());
                            for w in w {
                                t.warnings.entry(w).or_default().push(case);
                            }
                        }
                        Err(failure) => {
                            t.failed += 1;
                            t.known += usize::from(known_issue(&failure).is_some());
                            any_failed = true;
                            failures.lock().unwrap().push(CaseFailure {
                                case,
                                setting,
                                failure,
                                source: source.clone(),
                            });
                        }
                    }
                }
                if !any_failed && !keep {
                    let _ = std::fs::remove_dir_all(&dir);
                }
            });
        }
    });
    let elapsed = start.elapsed();

    let tallies = tallies.into_inner().unwrap();
    let mut failures = failures.into_inner().unwrap();
    failures.sort_by_key(|f| (f.setting, f.case));
    println!(
        "schedule property test: {} cases (seed {:#x}) in {:.1} s on {} threads",
        cases.len(),
        seed,
        elapsed.as_secs_f64(),
        workers
    );
    println!("| setting | passed | failed | of which known issues | passed with a warning |");
    println!("|---|---:|---:|---:|---:|");
    for (s, t) in tallies.iter().enumerate() {
        println!(
            "| {} | {} | {} | {} | {} |",
            SETTINGS[s].0, t.passed, t.failed, t.known, t.warned
        );
    }
    for (s, t) in tallies.iter().enumerate() {
        for (w, cases) in &t.warnings {
            println!(
                "warning ({}, {} case(s), e.g. case {}): {}",
                SETTINGS[s].0,
                cases.len(),
                cases.iter().min().unwrap(),
                w
            );
        }
    }

    // Save every failure, list the known ones, and shrink the first new one
    // of each setting.
    let strict = std::env::var_os("PENCILC_PROPTEST_STRICT").is_some();
    let mut report = String::new();
    let mut shrunk_settings = Vec::new();
    let mut new_failures = 0;
    for f in &failures {
        let name = format!(
            "case-{}-{}",
            f.case,
            SETTINGS[f.setting].0.replace('/', "-")
        );
        let dir = failures_dir.join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("case.c"), &f.source).unwrap();
        let args = pencilc_args(f.setting, &dir.join("case.c"), &dir.join("out.c"));
        let command = format!("{} {}", pencilc().display(), args.join(" "));
        std::fs::write(
            dir.join("repro.sh"),
            format!(
                "#!/bin/sh\n# {}: {}\nset -e\ncd \"$(dirname \"$0\")\"\ncc -O1 case.c -o original && ./original > expected.txt\n{}\ncc -O1 out.c -o generated && ./generated > got.txt\ncmp expected.txt got.txt\n",
                SETTINGS[f.setting].0,
                f.failure.kind(),
                command
            ),
        )
        .unwrap();
        if let Some(test) = known_issue(&f.failure) {
            println!(
                "known issue (case {}, {}, reproducer: {}): {}; saved in {}",
                f.case,
                SETTINGS[f.setting].0,
                test,
                f.failure.detail().lines().next().unwrap_or(""),
                dir.display()
            );
            if !strict {
                continue;
            }
        }
        new_failures += 1;
        writeln!(
            report,
            "\n=== case {} with {}: {}\n{}\ncommand: {}\nsaved in {}\n--- source:\n{}",
            f.case,
            SETTINGS[f.setting].0,
            f.failure.kind(),
            f.failure.detail(),
            command,
            dir.display(),
            f.source
        )
        .unwrap();
        if !shrink_budget.is_zero() && !shrunk_settings.contains(&f.setting) {
            shrunk_settings.push(f.setting);
            let program = generate(case_seed(seed, f.case));
            let (small, why) = shrink(
                &program,
                f.setting,
                &f.failure,
                &work.join(format!("shrink-{}", name)),
                shrink_budget,
            );
            let source = small.render();
            std::fs::write(dir.join("shrunk.c"), &source).unwrap();
            writeln!(
                report,
                "--- shrunk (same failure: {}), saved as {}:\n{}",
                why.detail().lines().next().unwrap_or(""),
                dir.join("shrunk.c").display(),
                source
            )
            .unwrap();
        }
    }
    assert_eq!(
        broken_originals.into_inner(),
        0,
        "some generated programs do not run"
    );
    assert!(
        new_failures == 0,
        "{} failure(s) in {} case(s):{}",
        new_failures,
        cases.len(),
        report
    );
}

/// The generator itself: deterministic, in bounds, and covering what it
/// claims (several statements, deep, triangular and imperfect nests).
#[test]
fn generator_is_deterministic_and_varied() {
    #[derive(Default)]
    struct Shape {
        depth: usize,
        triangular: bool,
        imperfect: bool,
        nests: usize,
    }
    fn shape(nodes: &[Node], depth: usize, s: &mut Shape) {
        for n in nodes {
            if let Node::Loop {
                lower, upper, body, ..
            } = n
            {
                s.depth = s.depth.max(depth + 1);
                s.triangular |= !lower.terms.is_empty() || !upper.terms.is_empty();
                s.imperfect |=
                    body.len() > 1 && body.iter().any(|b| matches!(b, Node::Loop { .. }));
                shape(body, depth + 1, s);
            }
        }
    }
    let mut depths = [0usize; 5];
    let (mut triangular, mut imperfect, mut sequences, mut many) = (0, 0, 0, 0);
    for case in 0..500 {
        let p = generate(case_seed(DEFAULT_SEED, case));
        assert_eq!(p, generate(case_seed(DEFAULT_SEED, case)));
        assert!(p.extents().is_some(), "case {} goes out of bounds", case);
        assert!((1..=5).contains(&p.statements()), "case {}", case);
        let mut s = Shape::default();
        shape(&p.body, 0, &mut s);
        s.nests = p.body.len();
        depths[s.depth] += 1;
        triangular += usize::from(s.triangular);
        imperfect += usize::from(s.imperfect);
        sequences += usize::from(s.nests > 1);
        many += usize::from(p.statements() >= 4);
    }
    assert!(depths[4] > 50, "few depth-4 nests: {:?}", depths);
    assert!(triangular > 100, "few triangular loops: {}", triangular);
    assert!(imperfect > 50, "few imperfect nests: {}", imperfect);
    assert!(sequences > 100, "few sequences of nests: {}", sequences);
    assert!(many > 100, "few cases with 4 or 5 statements: {}", many);
    println!(
        "depths {:?}, triangular {}, imperfect {}, sequences {}, 4+ statements {}",
        depths, triangular, imperfect, sequences, many
    );
}

// ---------------------------------------------------------------------------
// Reproducers of failures the property test found (ignored until fixed).

/// Compiles `source` with the C target and `flags`; returns pencilc's
/// outcome, the generated file, and its run's output when it built.
fn compile_small(name: &str, source: &str, flags: &[&str]) -> (Ran, String, Option<Ran>) {
    // Not under target/proptest: the random test empties that directory
    // when it starts, possibly while these run beside it.
    let dir = root().join("target/proptest-repro").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("case.c"), source).unwrap();
    let out = dir.join("out.c");
    let p = run_limited(
        Command::new(pencilc())
            .args(["--target", "c"])
            .args(flags)
            .arg("-o")
            .arg(&out)
            .arg(dir.join("case.c")),
        &dir,
        "pencilc",
        TOOL_LIMIT,
    );
    let generated = std::fs::read_to_string(&out).unwrap_or_default();
    let exe = dir.join("generated");
    let ran = (p.ok && cc(&out, &exe, &dir, "cc").is_ok())
        .then(|| run_limited(&mut Command::new(&exe), &dir, "run", PROGRAM_LIMIT));
    (p, generated, ran)
}

/// Found by seed 1 (cases 31, 148, 242, 451, 483): a region none of whose
/// statements ever runs (here `j` from `i` to `i - 1`) is an internal error
/// with isl's scheduler: "internal error in stage `map`: isl: [Invalid]
/// cannot extract range space from empty input [E0900]". The schedule
/// isl returns has the domain `{  }`; pluto's is fine.
#[test]
fn isl_schedule_of_a_region_that_never_runs() {
    let source = "double A[8];\nint main(void)\n{\n#pragma scop\n  for (int i = 0; i < 4; i++)\n    for (int j = i; j < i; j++)\n      A[i] = 0.5 * A[i];\n#pragma endscop\n  return 0;\n}\n";
    let (p, _, _) = compile_small("repro-empty-region", source, &["--scheduler", "isl"]);
    assert!(p.ok, "pencilc failed:\n{}", p.stderr);
}

/// Found by seed 1 (case 62, every setting): when a parallel band member
/// takes negative values, the mapping launches the maximal grid (32768
/// blocks per dimension, tile ids wrapped modulo 32768) instead of the few
/// blocks needed. Here both schedulers make `i - j` (or `j - i`) the
/// parallel member of a nest with a diagonal dependence, so a kernel of 81
/// instances launches 32768 blocks; case 62 got 32768 x 32768 blocks, which
/// the C target cannot finish. Results stay correct; the cost is the launch.
#[test]
fn negative_parallel_member_launches_few_blocks() {
    let source = "#include <stdio.h>\ndouble A[10][10];\nint main(void)\n{\n  for (int x = 0; x < 10; x++) for (int y = 0; y < 10; y++) A[x][y] = x + 0.5 * y;\n#pragma scop\n  for (int i = 1; i < 10; i++)\n    for (int j = 1; j < 10; j++)\n      A[i][j] = 0.5 * A[i - 1][j - 1];\n#pragma endscop\n  for (int x = 0; x < 10; x++) for (int y = 0; y < 10; y++) printf(\"%.17g\\n\", A[x][y]);\n  return 0;\n}\n";
    for scheduler in ["pluto", "isl"] {
        let (p, generated, ran) = compile_small(
            &format!("repro-negative-{}", scheduler),
            source,
            &["--scheduler", scheduler],
        );
        assert!(p.ok, "pencilc failed:\n{}", p.stderr);
        assert!(ran.is_some_and(|r| r.ok), "the generated program failed");
        assert!(
            !generated.contains("< 32768"),
            "{}: the kernel launches 32768 blocks:\n{}",
            scheduler,
            generated
        );
    }
}

/// Found by seed 1 (case 473, every setting; shrunk by hand): both
/// schedulers fail on this two-statement nest, and pencilc keeps the
/// original order with warning E0201: "pencilc's scheduler failed: no
/// schedule row satisfies any pending dependence; isl's scheduler failed:
/// [Unknown] unable to carry dependences". The original order (`i`, `j`,
/// then S_0 before S_1) satisfies every dependence. Likely cause: some
/// dependence pieces have existentially quantified variables (`floor`s from
/// `2 * j`), and the Farkas/coefficient form of a piece describes its
/// rational relaxation, which holds points with negative distance; e.g. the
/// flow piece `S_0[i, j = i] -> S_0[i, 7 - i]` holds only i = 1..3 as
/// integers but reaches i = 4 (distance -1 on `j`) rationally. pluto only
/// falls back to isl, so this also shows where pluto is incomplete.
#[test]
#[ignore = "bug: both schedulers fail on dependences with floor divisions"]
fn schedulers_handle_dependences_with_divisions() {
    let source = "double A[16][8];\nint main(void)\n{\n#pragma scop\n  for (int i = 0; i < 8; i++)\n    for (int j = 0; j < 8; j++) {\n      A[j][j] = A[i][7 - j];\n      A[2 * j][i] = 0.0;\n    }\n#pragma endscop\n  return 0;\n}\n";
    for scheduler in ["pluto", "isl"] {
        let (p, _, _) = compile_small(
            &format!("repro-divisions-{}", scheduler),
            source,
            &["--scheduler", scheduler],
        );
        assert!(p.ok, "pencilc failed:\n{}", p.stderr);
        assert!(
            !p.stderr.contains("[E0201]"),
            "{}: a scheduler failed:\n{}",
            scheduler,
            p.stderr
        );
    }
}
