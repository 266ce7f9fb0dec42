//! Mutation fuzzer over the front end and the whole pipeline, on the stable
//! toolchain (no cargo-fuzz, no nightly).
//!
//! Seeds are the 30 PolyBench kernels (with their `-I`/`-D` flags, MINI
//! dataset), the PENCIL corpus in `examples/pencil/` and the small programs
//! in `tests/programs/`. A case is one seed with one to four mutations made
//! at the token or byte level: tokens deleted, duplicated, swapped, spliced
//! elsewhere; operators, identifiers, types and integer literals replaced
//! (0, -1, 2147483648, 1e9, ...); loops duplicated, their conditions and
//! steps changed, statements nested thousands deep; `#pragma pencil`
//! (before a loop, or between its header and its body), `#pragma
//! scop`/`endscop` and `__pencil_assume`/`__pencil_kill` inserted in valid
//! and invalid forms; storage classes (`static`, `static const`, `extern`,
//! `thread_local`, ...) put before declarations; bytes that are not UTF-8;
//! a region's name spelled everywhere as one the generated code, OpenCL C,
//! CUDA C++ or isl uses (`c0`, `dev_A`, `global`, `threadIdx`, `INFINITY`,
//! `pencilc_...`), a macro named like a generated name (`#define c0 0.5`),
//! and a local that hides a name of the region at the start of a block.
//! Mutations land in
//! the seed's regions (from `pencilc --emit scop` on the seed) most of the
//! time, since that is the code pencilc reads closely; the rest of the file
//! is copied through. The generator is a fixed-seed splitmix64, so a case
//! number always names the same input. Cases below the number of seeds are
//! the seeds themselves, unmutated: none may be rejected, and most must
//! translate (the largest, such as 3mm or heat-3d, may fall back to the
//! host within the 2 s budget on a loaded machine), or the fuzzer would be
//! testing the front end only.
//!
//! The oracle runs `pencilc --target opencl --schedule-timeout 2 -v` under a
//! wall-clock limit and fails a case on
//! - a crash: a signal, an exit status other than 0, 1 and 2, `panicked` in
//!   its output, or a compile worker that the watchdog saw crash;
//! - an internal error (E0900), reported apart from crashes;
//! - a hang: still running at the limit (the watchdog should stop every
//!   region after about 2 s of its CPU time: a file of many regions that
//!   each spend theirs takes longer, and more in wall-clock time beside
//!   other work, as a mutant of six regions did, 13.7 s alone and over
//!   30 s beside the suite);
//! - an exit-0 compile of invalid C: `cc -fsyntax-only` rejects the input
//!   but pencilc exits 0 having translated a region (a kernel), and either
//!   cc's error is inside a region or the generated host file compiles (the
//!   invalid code was swallowed). Errors only outside the regions, which
//!   pencilc copies through verbatim and the user's build then reports at
//!   the same place, are counted but are not failures;
//! - output that does not compile: the input is valid C, pencilc exits 0
//!   with a kernel, and `cc -fsyntax-only` rejects the generated host file;
//! - kernels that do not compile: as above, the host file compiles, and
//!   clang's strict OpenCL C 1.2 front end (where installed) rejects the
//!   kernel file for another reason than a call of the user's function,
//!   whose device code the seeds do not give.
//!
//! Environment:
//! - `PENCILC_FUZZ_SECONDS`: time for new cases (default 60; cases in
//!   flight finish);
//! - `PENCILC_FUZZ_CASES`: stop after this many cases too;
//! - `PENCILC_FUZZ_START`: the first case number (default 0; the hour-long
//!   `scripts/fuzz.sh` starts elsewhere each run and prints where);
//! - `PENCILC_FUZZ_CASE`: run only this case;
//! - `PENCILC_FUZZ_SEED`: another base seed;
//! - `PENCILC_FUZZ_JOBS`: cases run at once (default 2);
//! - `PENCILC_FUZZ_LIMIT`: wall-clock seconds per pencilc run (default 90);
//! - `PENCILC_FUZZ_SHRINK`: seconds spent shrinking failures, in all
//!   (default 30; 0: none);
//! - `PENCILC_FUZZ_STRICT`: fail on known issues too (`KNOWN_ISSUES`);
//! - `PENCILC_FUZZ_KEEP`: keep every case's files in `target/fuzz/`.
//!
//! Each distinct failure is saved, with the input, the smallest input found
//! that fails the same way, the commands and pencilc's output, under
//! `target/fuzz-failures/`.

mod common;
use common::{pencilc, root};

use pencilc::front::implicit;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

const DEFAULT_SEED: u64 = 0x6675_7a7a_7065_6e63;
const DEFAULT_SECONDS: f64 = 60.0;
const DEFAULT_LIMIT: f64 = 90.0;
const DEFAULT_SHRINK: f64 = 30.0;
/// pencilc's time per region: short, so that the watchdog's fallbacks are
/// exercised and a case stays cheap.
const SCHEDULE_TIMEOUT: &str = "2";
/// cc's check of C validity. `-std=gnu99` as PolyBench and the corpus are
/// written; implicit declarations are not C99, and pencilc rejects calls
/// to undeclared functions in regions, so they count as errors here.
const CC_CHECK: [&str; 4] = [
    "-fsyntax-only",
    "-std=gnu99",
    "-Werror=implicit-function-declaration",
    "-Werror=implicit-int",
];

// ---------------------------------------------------------------------------
// Random numbers

/// splitmix64: small, fast, and the same sequence on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64) < p * (1u64 << 53) as f64
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

/// The seed of case `n`: cases are independent of each other and of how
/// many run.
fn case_rng(base: u64, n: usize) -> Rng {
    let mut r = Rng(base ^ (n as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
    Rng(r.next())
}

// ---------------------------------------------------------------------------
// Tokens

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Space,
    Comment,
    /// A whole preprocessor line, continuations included.
    Directive,
    Ident,
    Number,
    /// A string or character literal.
    Literal,
    Punct,
    /// A byte that starts no C token.
    Other,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    text: Vec<u8>,
    /// Inside one of the seed's regions.
    hot: bool,
}

impl Tok {
    fn new(kind: Kind, text: &[u8], hot: bool) -> Tok {
        Tok {
            kind,
            text: text.to_vec(),
            hot,
        }
    }

    fn is(&self, s: &str) -> bool {
        self.text == s.as_bytes()
    }

    fn trivia(&self) -> bool {
        matches!(self.kind, Kind::Space | Kind::Comment)
    }
}

const PUNCT3: [&str; 3] = ["<<=", ">>=", "..."];
const PUNCT2: [&str; 19] = [
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=",
    "&=", "|=", "^=",
];

/// Splits `src` into tokens whose concatenation is `src` again, whatever
/// the bytes: a lexer that never fails, not a C lexer.
fn tokenize(src: &[u8]) -> Vec<Tok> {
    let mut toks = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < src.len() {
        let c = src[i];
        let start = i;
        let kind = if c == b'#' && line_start {
            while i < src.len() && src[i] != b'\n' {
                if src[i] == b'\\' && src.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                i += 1;
            }
            Kind::Directive
        } else if c.is_ascii_whitespace() || c == 0x0b {
            while i < src.len() && (src[i].is_ascii_whitespace() || src[i] == 0x0b) {
                i += 1;
            }
            Kind::Space
        } else if src[i..].starts_with(b"/*") {
            i += 2;
            while i < src.len() && !src[i..].starts_with(b"*/") {
                i += 1;
            }
            i = (i + 2).min(src.len());
            Kind::Comment
        } else if src[i..].starts_with(b"//") {
            while i < src.len() && src[i] != b'\n' {
                i += 1;
            }
            Kind::Comment
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while i < src.len()
                && (src[i].is_ascii_alphanumeric() || src[i] == b'_' || src[i] >= 0x80)
            {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit()
            || (c == b'.' && src.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            while i < src.len() {
                let d = src[i];
                let exp = i > start && matches!(src[i - 1], b'e' | b'E' | b'p' | b'P');
                if d.is_ascii_alphanumeric()
                    || d == b'_'
                    || d == b'.'
                    || (exp && (d == b'+' || d == b'-'))
                {
                    i += 1;
                } else {
                    break;
                }
            }
            Kind::Number
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < src.len() && src[i] != c && src[i] != b'\n' {
                if src[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(src.len());
            Kind::Literal
        } else if let Some(p) = PUNCT3
            .iter()
            .chain(PUNCT2.iter())
            .find(|p| src[i..].starts_with(p.as_bytes()))
        {
            i += p.len();
            Kind::Punct
        } else if c.is_ascii_punctuation() {
            i += 1;
            Kind::Punct
        } else {
            i += 1;
            Kind::Other
        };
        let text = &src[start..i];
        if kind == Kind::Space {
            line_start = line_start || text.contains(&b'\n');
        } else if kind != Kind::Comment {
            line_start = false;
        }
        toks.push(Tok::new(kind, text, false));
    }
    toks
}

fn render(toks: &[Tok]) -> Vec<u8> {
    toks.iter().flat_map(|t| t.text.iter().copied()).collect()
}

/// Marks the tokens that start on one of `lines` (1-based, inclusive).
fn mark_hot(toks: &mut [Tok], lines: &[(usize, usize)]) {
    let mut line = 1;
    for t in toks {
        t.hot = lines.iter().any(|&(a, b)| a <= line && line <= b);
        line += t.text.iter().filter(|&&b| b == b'\n').count();
    }
}

// ---------------------------------------------------------------------------
// Seeds

struct Seed {
    name: String,
    path: PathBuf,
    /// `-I`/`-D` flags for pencilc and cc alike.
    flags: Vec<String>,
    text: Vec<u8>,
    /// The seed's region lines, from `pencilc --emit scop` (computed once,
    /// by whichever case needs them first).
    regions: OnceLock<Vec<(usize, usize)>>,
}

impl Seed {
    fn tokens(&self) -> Vec<Tok> {
        let mut toks = tokenize(&self.text);
        let regions = self.regions.get_or_init(|| {
            let dir = root().join("target/fuzz/seeds").join(&self.name);
            let lines = region_lines(&self.path, &self.flags, &dir);
            if lines.is_empty() {
                vec![(1, usize::MAX)]
            } else {
                lines
            }
        });
        mark_hot(&mut toks, regions);
        toks
    }
}

fn seeds() -> Vec<Seed> {
    let mut seeds = Vec::new();
    let utilities = root().join("polybench/utilities");
    let list = std::fs::read_to_string(root().join("polybench/kernels.txt")).expect("kernels.txt");
    for line in list.lines() {
        let mut parts = line.split_whitespace();
        let (Some(name), Some(rel)) = (parts.next(), parts.next()) else {
            continue;
        };
        let path = root().join("polybench").join(rel);
        let flags = vec![
            "-I".into(),
            utilities.display().to_string(),
            "-I".into(),
            path.parent().unwrap().display().to_string(),
            "-DMINI_DATASET".into(),
        ];
        seeds.push(seed(name, path, flags));
    }
    for dir in ["examples/pencil", "tests/programs"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect(dir)
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "c"))
            .collect();
        files.sort();
        for path in files {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            // Mutants live elsewhere: the program's own headers are found
            // through its folder.
            let flags = vec!["-I".into(), path.parent().unwrap().display().to_string()];
            seeds.push(seed(&name, path, flags));
        }
    }
    seeds
}

fn seed(name: &str, path: PathBuf, flags: Vec<String>) -> Seed {
    Seed {
        name: name.to_string(),
        text: std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {}", path.display(), e)),
        path,
        flags,
        regions: OnceLock::new(),
    }
}

/// The line ranges of the regions pencilc finds in `path` (none if it
/// rejects the file).
fn region_lines(path: &Path, flags: &[String], dir: &Path) -> Vec<(usize, usize)> {
    std::fs::create_dir_all(dir).expect("scratch directory");
    let ran = run_limited(
        Command::new(pencilc())
            .args(["--emit", "scop"])
            .args(flags)
            .arg(path),
        dir,
        "emit-scop",
        Duration::from_secs_f64(DEFAULT_LIMIT),
    );
    ran.stdout
        .lines()
        .filter_map(|l| l.strip_prefix("# region in "))
        .filter_map(|l| l.rsplit_once(" at lines "))
        // A region in an included header has its lines in the header
        // (" of H (included at line L)"); the mutants change only `path`.
        .filter(|(_, r)| !r.contains(" of "))
        .filter_map(|(_, r)| {
            let (a, b) = r.split_once('-')?;
            Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Mutations

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Op {
    DeleteToken,
    DuplicateToken,
    SwapTokens,
    ReplaceOperator,
    InsertPunct,
    ChangeLiteral,
    ReplaceIdent,
    SwapType,
    DuplicateLoop,
    ChangeCondition,
    ChangeStep,
    DeepNesting,
    InsertPragma,
    InsertPencilCall,
    InsertStorageClass,
    NonUtf8,
    Splice,
    DeleteSpan,
    RenameEverywhere,
    DefineMacro,
    ShadowLocal,
}

const OPS: [Op; 21] = [
    Op::DeleteToken,
    Op::DuplicateToken,
    Op::SwapTokens,
    Op::ReplaceOperator,
    Op::InsertPunct,
    Op::ChangeLiteral,
    Op::ReplaceIdent,
    Op::SwapType,
    Op::DuplicateLoop,
    Op::ChangeCondition,
    Op::ChangeStep,
    Op::DeepNesting,
    Op::InsertPragma,
    Op::InsertPencilCall,
    Op::InsertStorageClass,
    Op::NonUtf8,
    Op::Splice,
    Op::DeleteSpan,
    Op::RenameEverywhere,
    Op::DefineMacro,
    Op::ShadowLocal,
];

/// Storage classes put before declarations: a `static` local is one object
/// for the whole program, which a region's versions must not make a new
/// local (issue 32); `static const` with an initialiser is its constant.
const STORAGE: [&str; 8] = [
    "static",
    "static const",
    "extern",
    "register",
    "auto",
    "thread_local",
    "_Thread_local",
    "static _Thread_local",
];

/// Names a user may give that pencilc's generated code, OpenCL C, CUDA
/// C++ or isl also use (issue 32): generated iterators, ids, host values,
/// kernels, buffers, tiles and temporaries, names with pencilc's reserved
/// prefixes, OpenCL's qualifiers, types, fence flags, builtins and
/// constants, CUDA's built-in variables and types, C++'s keywords, and
/// isl's keywords in other cases.
const NAME_WORDS: [&str; 58] = [
    "c0",
    "c1",
    "c_0",
    "t0",
    "t1",
    "b0",
    "b1",
    "h0",
    "m0",
    "kernel0",
    "kernel0_launch",
    "kernel0_combine",
    "dev_A",
    "dev_n",
    "arg",
    "shared_A",
    "private_A",
    "pencilc_region_0",
    "PENCILC_VALUE_n",
    "global",
    "local",
    "constant",
    "private",
    "kernel",
    "uint",
    "uchar",
    "ulong",
    "half",
    "float2",
    "double4",
    "image2d_t",
    "sampler_t",
    "event_t",
    "read_only",
    "barrier",
    "get_local_id",
    "get_group_id",
    "CLK_LOCAL_MEM_FENCE",
    "INFINITY",
    "HUGE_VAL",
    "M_PI",
    "FLT_MAX",
    "threadIdx",
    "blockIdx",
    "gridDim",
    "warpSize",
    "dim3",
    "int2",
    "new",
    "class",
    "this",
    "template",
    "and",
    "bool",
    "Max",
    "MIN",
    "floord",
    "Infinity",
];
/// Macros named like the generated code's names (`#define c0 0.5`, a
/// stencil's coefficient), with what they expand to.
const MACRO_WORDS: [&str; 8] = ["c0", "c1", "t0", "b0", "h0", "kernel0", "arg", "global"];
const MACRO_VALUES: [&str; 4] = ["0.5", "1", "(2 + 1)", ""];

const OPERATORS: [&str; 37] = [
    "+", "-", "*", "/", "%", "<<", ">>", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^", "&&",
    "||", "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "!", "~", "++", "--",
    "?", ":", ",", "->",
];
const PUNCTUATION: [&str; 14] = [
    ";", ",", "{", "}", "(", ")", "[", "]", "#", "##", "\\", "@", "`", "...",
];
const LITERALS: [&str; 20] = [
    "0",
    "1",
    "-1",
    "2",
    "3",
    "32",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "99999999999999999999999",
    "1e9",
    "0x7fffffff",
    "0xffffffffu",
    "07",
    "1000000007",
    "0.5",
    "'a'",
];
const IDENTS: [&str; 12] = [
    "fuzz_undeclared",
    "main",
    "sizeof",
    "__pencil_assume",
    "restrict",
    "static",
    "const",
    "pencilc_c0",
    "b0",
    "c0",
    "goto",
    "return",
];
const TYPES: [&str; 16] = [
    "int",
    "double",
    "float",
    "char",
    "long",
    "long long",
    "unsigned",
    "unsigned char",
    "short",
    "void",
    "_Bool",
    "long double",
    "signed",
    "int *",
    "struct fuzz",
    "_Complex double",
];
const NON_UTF8: [&[u8]; 10] = [
    b"\x00",
    b"\x80",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xfe\xff",
    b"\x1a",
    b"\r",
    b"\x0c",
    b"\\\n",
];

/// What a mutation at a spot holds: rebuilt tokens inherit `hot` from the
/// place they go to.
fn toks_of(text: &str, hot: bool) -> Vec<Tok> {
    let mut t = tokenize(text.as_bytes());
    for x in &mut t {
        x.hot = hot;
    }
    t
}

fn next_sig(toks: &[Tok], i: usize) -> Option<usize> {
    (i + 1..toks.len()).find(|&j| !toks[j].trivia())
}

/// The index of the bracket closing the one at `open`.
fn matching(toks: &[Tok], open: usize) -> Option<usize> {
    let (o, c) = match toks[open].text.as_slice() {
        b"(" => ("(", ")"),
        b"[" => ("[", "]"),
        b"{" => ("{", "}"),
        _ => return None,
    };
    let mut depth = 0usize;
    for (j, t) in toks.iter().enumerate().skip(open) {
        if t.is(o) {
            depth += 1;
        } else if t.is(c) {
            depth -= 1;
            if depth == 0 {
                return Some(j);
            }
        }
    }
    None
}

/// The parts of the `for` statement at `at`: `(`, both `;`, `)`, and the
/// body's last token.
struct ForParts {
    lparen: usize,
    semi1: usize,
    semi2: usize,
    rparen: usize,
    end: usize,
}

fn for_parts(toks: &[Tok], at: usize, depth: usize) -> Option<ForParts> {
    if depth > 8 || !toks[at].is("for") {
        return None;
    }
    let lparen = next_sig(toks, at).filter(|&j| toks[j].is("("))?;
    let rparen = matching(toks, lparen)?;
    let mut semis = Vec::new();
    let mut d = 0i32;
    for j in lparen + 1..rparen {
        match toks[j].text.as_slice() {
            b"(" | b"[" | b"{" => d += 1,
            b")" | b"]" | b"}" => d -= 1,
            b";" if d == 0 => semis.push(j),
            _ => {}
        }
    }
    let [semi1, semi2] = semis[..] else {
        return None;
    };
    let end = statement_end(toks, next_sig(toks, rparen)?, depth)?;
    Some(ForParts {
        lparen,
        semi1,
        semi2,
        rparen,
        end,
    })
}

fn statement_end(toks: &[Tok], first: usize, depth: usize) -> Option<usize> {
    if toks[first].is("{") {
        return matching(toks, first);
    }
    if toks[first].is("for") {
        return for_parts(toks, first, depth + 1).map(|p| p.end);
    }
    let mut d = 0i32;
    for (j, t) in toks.iter().enumerate().skip(first) {
        match t.text.as_slice() {
            b"(" | b"[" | b"{" => d += 1,
            b")" | b"]" | b"}" => d -= 1,
            b";" if d <= 0 => return Some(j),
            _ => {}
        }
    }
    None
}

/// A random token satisfying `pred`, in a region most of the time.
fn pick_tok(toks: &[Tok], rng: &mut Rng, pred: impl Fn(&Tok) -> bool) -> Option<usize> {
    let all: Vec<usize> = (0..toks.len())
        .filter(|&i| !toks[i].trivia() && pred(&toks[i]))
        .collect();
    let hot: Vec<usize> = all.iter().copied().filter(|&i| toks[i].hot).collect();
    if !hot.is_empty() && rng.chance(0.85) {
        return Some(rng.pick(&hot));
    }
    (!all.is_empty()).then(|| rng.pick(&all))
}

fn pick_for(toks: &[Tok], rng: &mut Rng) -> Option<(usize, ForParts)> {
    let at = pick_tok(toks, rng, |t| t.is("for"))?;
    for_parts(toks, at, 0).map(|p| (at, p))
}

fn idents(toks: &[Tok]) -> Vec<String> {
    let mut v: Vec<String> = toks
        .iter()
        .filter(|t| t.kind == Kind::Ident && t.hot)
        .map(|t| String::from_utf8_lossy(&t.text).into_owned())
        .collect();
    v.sort();
    v.dedup();
    if v.is_empty() {
        v.push("n".into());
    }
    v
}

fn is_type(t: &Tok) -> bool {
    [
        "int", "double", "float", "char", "long", "unsigned", "short", "void", "_Bool", "signed",
    ]
    .iter()
    .any(|k| t.is(k))
}

/// Applies `op` once; `None` when the input has no place for it.
fn apply(op: Op, toks: &mut Vec<Tok>, rng: &mut Rng) -> Option<String> {
    let names = idents(toks);
    match op {
        Op::DeleteToken => {
            let i = pick_tok(toks, rng, |_| true)?;
            let t = toks.remove(i);
            Some(format!("delete `{}`", String::from_utf8_lossy(&t.text)))
        }
        Op::DuplicateToken => {
            let i = pick_tok(toks, rng, |_| true)?;
            let t = toks[i].clone();
            let d = format!("duplicate `{}`", String::from_utf8_lossy(&t.text));
            toks.insert(i, Tok::new(Kind::Space, b" ", t.hot));
            toks.insert(i, t);
            Some(d)
        }
        Op::SwapTokens => {
            let i = pick_tok(toks, rng, |_| true)?;
            let j = next_sig(toks, i)?;
            toks.swap(i, j);
            Some("swap two tokens".into())
        }
        Op::ReplaceOperator => {
            let i = pick_tok(toks, rng, |t| {
                t.kind == Kind::Punct && OPERATORS.iter().any(|o| t.is(o))
            })?;
            let new = rng.pick(&OPERATORS);
            toks[i].text = new.as_bytes().to_vec();
            Some(format!("operator -> `{}`", new))
        }
        Op::InsertPunct => {
            let i = pick_tok(toks, rng, |_| true)?;
            let p = rng.pick(&PUNCTUATION);
            let hot = toks[i].hot;
            toks.splice(i..i, toks_of(&format!("{} ", p), hot));
            Some(format!("insert `{}`", p))
        }
        Op::ChangeLiteral => {
            let i = pick_tok(toks, rng, |t| t.kind == Kind::Number)?;
            let v = rng.pick(&LITERALS);
            toks[i].text = v.as_bytes().to_vec();
            Some(format!("literal -> {}", v))
        }
        Op::ReplaceIdent => {
            let i = pick_tok(toks, rng, |t| t.kind == Kind::Ident)?;
            let new = if rng.chance(0.6) {
                rng.pick(&names.iter().map(String::as_str).collect::<Vec<_>>())
                    .to_string()
            } else {
                rng.pick(&IDENTS).to_string()
            };
            let d = format!(
                "identifier `{}` -> `{}`",
                String::from_utf8_lossy(&toks[i].text),
                new
            );
            toks[i].text = new.into_bytes();
            Some(d)
        }
        Op::SwapType => {
            let i = pick_tok(toks, rng, is_type)?;
            let new = rng.pick(&TYPES);
            toks[i].text = new.as_bytes().to_vec();
            Some(format!("type -> `{}`", new))
        }
        Op::DuplicateLoop => {
            let (at, p) = pick_for(toks, rng)?;
            let mut copy = toks[at..=p.end].to_vec();
            let hot = toks[at].hot;
            copy.insert(0, Tok::new(Kind::Space, b"\n", hot));
            toks.splice(p.end + 1..p.end + 1, copy);
            Some("duplicate a loop".into())
        }
        Op::ChangeCondition => {
            let (_, p) = pick_for(toks, rng)?;
            let cmp: Vec<usize> = (p.semi1 + 1..p.semi2)
                .filter(|&j| {
                    ["<", "<=", ">", ">=", "==", "!="]
                        .iter()
                        .any(|o| toks[j].is(o))
                })
                .collect();
            let hot = toks[p.semi1].hot;
            match rng.below(3) {
                0 if !cmp.is_empty() => {
                    let j = rng.pick(&cmp);
                    let new = rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                    toks[j].text = new.as_bytes().to_vec();
                    Some(format!("loop condition operator -> `{}`", new))
                }
                1 => {
                    toks.drain(p.semi1 + 1..p.semi2);
                    Some("loop condition deleted".into())
                }
                _ => {
                    let bound = rng.pick(&[
                        "2147483647",
                        "-1",
                        "0",
                        "n * n * n",
                        "1000000000",
                        "n / 0",
                        "9223372036854775807LL",
                        "1e9",
                        "A",
                        "i + 1",
                    ]);
                    let last = (p.semi1 + 1..p.semi2).rev().find(|&j| !toks[j].trivia())?;
                    toks.splice(last..last + 1, toks_of(bound, hot));
                    Some(format!("loop bound -> `{}`", bound))
                }
            }
        }
        Op::ChangeStep => {
            let (_, p) = pick_for(toks, rng)?;
            let it = (p.lparen + 1..p.semi1)
                .find(|&j| toks[j].kind == Kind::Ident && !is_type(&toks[j]))
                .map(|j| String::from_utf8_lossy(&toks[j].text).into_owned())
                .unwrap_or_else(|| "i".into());
            let step = rng
                .pick(&[
                    "{}++",
                    "{}--",
                    "++{}",
                    "{} += 2",
                    "{} += 0",
                    "{} -= 1",
                    "{} *= 2",
                    "{} = {} + 3",
                    "{} += n",
                    "",
                    "{}++, {}++",
                    "{} += -1",
                    "{} += 2147483647",
                    "{} = 0",
                ])
                .replace("{}", &it);
            let hot = toks[p.semi2].hot;
            toks.splice(p.semi2 + 1..p.rparen, toks_of(&format!(" {}", step), hot));
            Some(format!("loop step -> `{}`", step))
        }
        Op::DeepNesting => {
            let depth = rng.pick(&[2usize, 8, 31, 32, 33, 127, 129, 300, 2000, 60000]);
            let (at, p) = pick_for(toks, rng)?;
            let hot = toks[at].hot;
            let (open, close, what) = match rng.below(4) {
                0 => ("{ ".repeat(depth), " }".repeat(depth), "braces"),
                1 => ("if (1) ".repeat(depth), String::new(), "ifs"),
                2 => {
                    let d = depth.min(300);
                    let open: String = (0..d)
                        .map(|k| format!("for (int fz{k} = 0; fz{k} < 2; fz{k}++) "))
                        .collect();
                    (open, String::new(), "loops")
                }
                _ => {
                    // Parentheses around the loop's bound instead.
                    let last = (p.semi1 + 1..p.semi2).rev().find(|&j| !toks[j].trivia())?;
                    let mut inner = toks[last].clone();
                    let mut text = "(".repeat(depth).into_bytes();
                    text.append(&mut inner.text);
                    text.extend(")".repeat(depth).into_bytes());
                    inner.text = text;
                    toks[last] = inner;
                    return Some(format!("{} parentheses", depth));
                }
            };
            toks.splice(p.end + 1..p.end + 1, toks_of(&close, hot));
            toks.splice(at..at, toks_of(&open, hot));
            Some(format!("{} nested {}", depth, what))
        }
        Op::InsertPragma => {
            let v = rng.pick(&names.iter().map(String::as_str).collect::<Vec<_>>());
            let pragma = rng
                .pick(&[
                    "#pragma pencil independent",
                    "#pragma pencil independent reduction(+: {})",
                    "#pragma pencil independent reduction(max: {})",
                    "#pragma pencil independent reduction(*: {}, {})",
                    "#pragma pencil independent reduction(+:",
                    "#pragma pencil independent reduction(foo: {})",
                    "#pragma pencil independent reduction(+: {}[0])",
                    "#pragma pencil independent independent",
                    "#pragma pencil independent(",
                    "#pragma pencil",
                    "#pragma pencil ivdep",
                    "#pragma scop",
                    "#pragma endscop",
                    "#pragma omp parallel for",
                    "#pragma pencil independent \\\n reduction(+: {})",
                ])
                .replace("{}", v);
            let at = if rng.chance(0.55) {
                pick_tok(toks, rng, |t| t.is("for"))?
            } else if rng.chance(0.35) {
                // Between a loop's header and its body, as PENCIL writes it.
                let (_, p) = pick_for(toks, rng)?;
                p.rparen + 1
            } else {
                pick_tok(toks, rng, |t| t.is(";") || t.is("{") || t.is("}"))? + 1
            };
            let hot = toks.get(at).is_some_and(|t| t.hot);
            toks.splice(at..at, toks_of(&format!("\n{}\n", pragma), hot));
            Some(format!("insert `{}`", pragma))
        }
        Op::InsertStorageClass => {
            // A declaration's first token: a type after `;`, `{` or `}`.
            let starts: Vec<usize> = (0..toks.len())
                .filter(|&i| is_type(&toks[i]))
                .filter(|&i| {
                    (0..i)
                        .rev()
                        .find(|&j| !toks[j].trivia())
                        .is_none_or(|j| toks[j].is(";") || toks[j].is("{") || toks[j].is("}"))
                })
                .collect();
            let hot: Vec<usize> = starts.iter().copied().filter(|&i| toks[i].hot).collect();
            let i = if !hot.is_empty() && rng.chance(0.85) {
                rng.pick(&hot)
            } else if !starts.is_empty() {
                rng.pick(&starts)
            } else {
                return None;
            };
            let class = rng.pick(&STORAGE);
            let hot = toks[i].hot;
            toks.splice(i..i, toks_of(&format!("{} ", class), hot));
            Some(format!("insert `{}`", class))
        }
        Op::InsertPencilCall => {
            let v = rng.pick(&names.iter().map(String::as_str).collect::<Vec<_>>());
            let call = rng
                .pick(&[
                    "__pencil_assume({} > 0);",
                    "__pencil_assume(0);",
                    "__pencil_assume(1);",
                    "__pencil_assume({} < 0 && {} > 0);",
                    "__pencil_assume({} % 32 == 0);",
                    "__pencil_assume({} / 0 == 1);",
                    "__pencil_assume({});",
                    "__pencil_assume();",
                    "__pencil_kill({});",
                    "__pencil_kill();",
                    "__pencil_kill({}[0]);",
                    "{} = {};",
                    "{}++;",
                    "return;",
                    "break;",
                    "goto fuzz_out; fuzz_out: ;",
                ])
                .replace("{}", v);
            let at = pick_tok(toks, rng, |t| t.is(";") || t.is("{"))? + 1;
            let hot = toks[at - 1].hot;
            toks.splice(at..at, toks_of(&format!(" {} ", call), hot));
            // The builtins need their declarations (C99 has no implicit
            // ones); without them every such mutant is just rejected.
            let declared = toks
                .iter()
                .any(|t| t.text.windows(8).any(|w| w == b"pencil.h"));
            if call.starts_with("__pencil_") && !declared {
                toks.splice(0..0, toks_of("#include <pencil.h>\n", false));
            }
            Some(format!("insert `{}`", call))
        }
        Op::NonUtf8 => {
            let i = pick_tok(toks, rng, |_| true)?;
            let bytes = rng.pick(&NON_UTF8);
            let t = &mut toks[i];
            let at = rng.below(t.text.len() + 1);
            t.text.splice(at..at, bytes.iter().copied());
            Some(format!("insert bytes {:?}", bytes))
        }
        Op::Splice => {
            let from = pick_tok(toks, rng, |_| true)?;
            let len = 1 + rng.below(20);
            let span = toks[from..(from + len).min(toks.len())].to_vec();
            let to = pick_tok(toks, rng, |_| true)?;
            toks.splice(to..to, span);
            Some(format!("splice {} tokens", len))
        }
        Op::DeleteSpan => {
            let from = pick_tok(toks, rng, |_| true)?;
            let len = 2 + rng.below(30);
            toks.drain(from..(from + len).min(toks.len()));
            Some(format!("delete {} tokens", len))
        }
        Op::RenameEverywhere => {
            // A name of a region, spelled everywhere outside directives as
            // one of the generated code's or a device language's.
            let i = pick_tok(toks, rng, |t| t.kind == Kind::Ident && t.hot)?;
            let old = toks[i].text.clone();
            let new = rng.pick(&NAME_WORDS);
            for t in toks.iter_mut() {
                if t.kind == Kind::Ident && t.text == old {
                    t.text = new.as_bytes().to_vec();
                }
            }
            Some(format!(
                "rename `{}` to `{}` everywhere",
                String::from_utf8_lossy(&old),
                new
            ))
        }
        Op::DefineMacro => {
            let word = rng.pick(&MACRO_WORDS);
            let value = rng.pick(&MACRO_VALUES);
            let text = format!("#define {} {}\n", word, value);
            toks.insert(0, Tok::new(Kind::Directive, text.as_bytes(), false));
            Some(format!("#define {} {}", word, value))
        }
        Op::ShadowLocal => {
            // A local that hides a name of the region, at the start of one
            // of its blocks.
            let i = pick_tok(toks, rng, |t| t.is("{"))?;
            let name = rng.pick(&names.iter().map(String::as_str).collect::<Vec<_>>());
            let ty = rng.pick(&["double", "int", "float"]);
            let value = rng.pick(&["1", "0.5", "n"]);
            let hot = toks[i].hot;
            let decl = format!(" {} {} = {};", ty, name, value);
            toks.splice(i + 1..i + 1, toks_of(&decl, hot));
            Some(format!("hide `{}` by `{}`", name, decl.trim()))
        }
    }
}

/// Case `n`'s input and what was done to it: the seed itself for the first
/// `seeds.len()` cases, otherwise one to four mutations of a seed.
fn make_case(seeds: &[Seed], base: u64, n: usize) -> (usize, Vec<u8>, Vec<String>) {
    let s = n % seeds.len();
    if n < seeds.len() {
        return (s, seeds[s].text.clone(), Vec::new());
    }
    let mut rng = case_rng(base, n);
    let mut toks = seeds[s].tokens();
    let mut count = match rng.below(8) {
        0..=3 => 1,
        4 | 5 => 2,
        6 => 3,
        _ => 4,
    };
    let mut done = Vec::new();
    let mut tries = 0;
    loop {
        while done.len() < count && tries < 40 {
            tries += 1;
            let op = rng.pick(&OPS);
            if let Some(d) = apply(op, &mut toks, &mut rng) {
                done.push(format!("{:?}: {}", op, d));
            }
        }
        let text = render(&toks);
        // A literal replaced by itself is no mutation.
        if text != seeds[s].text || tries >= 40 {
            return (s, text, done);
        }
        count += 1;
    }
}

// ---------------------------------------------------------------------------
// Running tools

/// A process's outcome.
#[derive(Clone, Debug, Default)]
struct Ran {
    code: Option<i32>,
    signal: Option<i32>,
    /// Killed at the time limit.
    timed_out: bool,
    stdout: String,
    stderr: String,
}

/// Runs `cmd` in a process group of its own (pencilc's compile and
/// scheduler workers included), output in files of `dir`, and kills the
/// group after `limit`.
fn run_limited(cmd: &mut Command, dir: &Path, tag: &str, limit: Duration) -> Ran {
    let out_path = dir.join(format!("{}.stdout", tag));
    let err_path = dir.join(format!("{}.stderr", tag));
    let out = std::fs::File::create(&out_path).expect("stdout file");
    let err = std::fs::File::create(&err_path).expect("stderr file");
    let mut child = match cmd
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => panic!("cannot start {:?}: {}", cmd.get_program(), e),
    };
    let start = Instant::now();
    let mut delay = Duration::from_millis(1);
    let (status, timed_out) = loop {
        match child.try_wait() {
            Ok(Some(status)) => break (Some(status), false),
            Ok(None) if start.elapsed() > limit => {
                // SAFETY: kill(2) on the process group this function made.
                unsafe {
                    libc::kill(-(child.id() as i32), libc::SIGKILL);
                }
                let _ = child.wait();
                break (None, true);
            }
            Ok(None) => {
                std::thread::sleep(delay);
                delay = (delay * 2).min(Duration::from_millis(20));
            }
            Err(e) => panic!("waiting for {:?}: {}", cmd.get_program(), e),
        }
    };
    let read =
        |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    Ran {
        code: status.and_then(|s| s.code()),
        signal: status.and_then(|s| s.signal()),
        timed_out,
        stdout: read(&out_path),
        stderr: read(&err_path),
    }
}

fn pencilc_args(flags: &[String], input: &Path, output: &Path) -> Vec<String> {
    let mut a: Vec<String> = [
        "-v",
        "--target",
        "opencl",
        "--schedule-timeout",
        SCHEDULE_TIMEOUT,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(flags.iter().cloned());
    a.push("-o".into());
    a.push(output.display().to_string());
    a.push(input.display().to_string());
    a
}

fn cc_args(flags: &[String], file: &Path) -> Vec<String> {
    let mut a: Vec<String> = CC_CHECK.iter().map(|s| s.to_string()).collect();
    a.extend(flags.iter().cloned());
    a.push("-I".into());
    a.push(root().join("pencil-headers").display().to_string());
    a.push(file.display().to_string());
    a
}

/// cc's verdict on `file`: `None` if it compiles, else the lines of `file`
/// its errors are on and its first error message.
fn cc_errors(flags: &[String], file: &Path, dir: &Path, tag: &str) -> Option<(Vec<usize>, String)> {
    cc_errors_in(flags, file, dir, tag, &[])
}

/// `cc_errors`, with the first message on a line of `regions` (if any) as
/// the message: an error the mutation caused elsewhere comes first in the
/// file but is not the one pencilc should have seen.
fn cc_errors_in(
    flags: &[String],
    file: &Path,
    dir: &Path,
    tag: &str,
    regions: &[(usize, usize)],
) -> Option<(Vec<usize>, String)> {
    let ran = run_limited(
        Command::new("cc").args(cc_args(flags, file)),
        dir,
        tag,
        Duration::from_secs(60),
    );
    if ran.code == Some(0) {
        return None;
    }
    let prefix = format!("{}:", file.display());
    let mut lines = Vec::new();
    let mut first = None;
    let mut in_region = None;
    let mut builtins_only = false;
    for l in ran.stderr.lines() {
        let Some((_, msg)) = l.split_once("error: ") else {
            continue;
        };
        // PENCIL's and pet's builtins are known without their header, as
        // pet knows them (`front::implicit`): a call of `__pencil_assume`
        // whose `#include <pencil.h>` a mutation removed is still PENCIL.
        if implicit::implicitly_declared(msg).is_some_and(|f| implicit::builtin(f).is_some()) {
            builtins_only = true;
            continue;
        }
        first.get_or_insert_with(|| msg.to_string());
        if let Some(rest) = l.strip_prefix(&prefix) {
            if let Some(n) = rest.split(':').next().and_then(|n| n.parse().ok()) {
                lines.push(n);
                if in_region.is_none() && regions.iter().any(|&(a, b)| a <= n && n <= b) {
                    in_region = Some(msg.to_string());
                }
            }
        }
    }
    if builtins_only && first.is_none() {
        return None;
    }
    let first = in_region.or(first);
    let first = first.unwrap_or_else(|| {
        format!(
            "cc failed ({:?}/{:?}) without an error line",
            ran.code, ran.signal
        )
    });
    Some((lines, first))
}

/// clang, if installed: it checks OpenCL C strictly (as the OpenCL
/// implementation builds kernels only when the program runs).
fn opencl_checker() -> Option<&'static str> {
    static CLANG: OnceLock<Option<&'static str>> = OnceLock::new();
    *CLANG.get_or_init(|| {
        [
            "clang", "clang-18", "clang-17", "clang-16", "clang-15", "clang-14",
        ]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok())
    })
}

/// The first error of a strict OpenCL C 1.2 front end on `kernel`, and its
/// log; `None` where it builds (or no kernel file or clang). Calls of the
/// user's functions, whose device code the seeds do not give
/// (`--opencl-include-file`), are no error here.
fn kernel_errors(kernel: &Path, dir: &Path) -> Option<(String, String)> {
    let clang = opencl_checker()?;
    if !kernel.exists() {
        return None;
    }
    let ran = run_limited(
        Command::new(clang)
            .args(["-x", "cl", "-cl-std=CL1.2", "-target", "spir64"])
            .args(["-Xclang", "-finclude-default-header", "-fsyntax-only"])
            .arg(kernel),
        dir,
        "clang-kernel",
        Duration::from_secs(60),
    );
    if ran.code == Some(0) {
        return None;
    }
    let first = ran.stderr.lines().find_map(|l| {
        let (_, msg) = l.split_once("error: ")?;
        (!msg.contains("implicit declaration of function")).then(|| msg.to_string())
    })?;
    Some((first, ran.stderr))
}

// ---------------------------------------------------------------------------
// The oracle

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Crash,
    Internal,
    Hang,
    InvalidAccepted,
    OutputDoesNotCompile,
    /// OpenCL kernels that a strict OpenCL C 1.2 front end rejects
    /// (checked where clang is installed).
    KernelDoesNotCompile,
    /// An unmutated seed that pencilc rejects.
    Seed,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Class::Crash => "crash",
            Class::Internal => "internal-error",
            Class::Hang => "hang",
            Class::InvalidAccepted => "invalid-c-accepted",
            Class::OutputDoesNotCompile => "output-does-not-compile",
            Class::KernelDoesNotCompile => "kernel-does-not-compile",
            Class::Seed => "seed",
        }
    }
}

#[derive(Clone, Debug)]
struct Failure {
    class: Class,
    /// What identifies the bug across inputs: the panic or error message
    /// with numbers blanked out.
    signature: String,
    detail: String,
}

impl Failure {
    fn new(class: Class, signature: &str, detail: String) -> Failure {
        Failure {
            class,
            signature: blank_numbers(signature.trim()),
            detail,
        }
    }
}

fn blank_numbers(s: &str) -> String {
    let mut out = String::new();
    let mut in_num = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !in_num {
                out.push('#');
            }
            in_num = true;
        } else {
            in_num = false;
            out.push(c);
        }
    }
    out.chars().take(200).collect()
}

/// What pencilc did with a case that did not fail outright.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outcome {
    /// Exit 0 with at least one kernel.
    Translated,
    /// Exit 0, nothing translated (no region, or every region on the host).
    Kept,
    /// Exit 1 or 2: a diagnostic.
    Rejected,
}

/// The verdict on pencilc's run alone (crashes, internal errors, hangs),
/// and the number of kernels it reports when it exits 0.
fn judge_run(ran: &Ran) -> Result<(Outcome, usize), Failure> {
    let all = format!("{}\n{}", ran.stdout, ran.stderr);
    if ran.timed_out {
        return Err(Failure::new(
            Class::Hang,
            "still running at the limit",
            tail(&all, 3000),
        ));
    }
    if let Some(i) = all.find("panicked at") {
        let msg: String = all[i..].lines().take(2).collect::<Vec<_>>().join(" ");
        return Err(Failure::new(Class::Crash, &msg, tail(&all, 6000)));
    }
    if let Some(i) = all.find("pencilc crashed") {
        let msg = all[i..].lines().next().unwrap_or_default();
        let msg = msg.split(';').next().unwrap_or(msg);
        return Err(Failure::new(Class::Crash, msg, tail(&all, 6000)));
    }
    if let Some(sig) = ran.signal {
        return Err(Failure::new(
            Class::Crash,
            &format!("killed by signal {}", sig),
            tail(&all, 6000),
        ));
    }
    if let Some(l) = all.lines().find(|l| l.contains("[E0900]")) {
        let msg = l.split_once(": error: ").map_or(l, |(_, m)| m);
        return Err(Failure::new(Class::Internal, msg, tail(&all, 6000)));
    }
    match ran.code {
        Some(0) => {
            let kernels = all
                .lines()
                .filter_map(|l| l.split_once(" region(s), "))
                .filter_map(|(_, r)| r.split(' ').next()?.parse::<usize>().ok())
                .sum();
            Ok((
                if kernels > 0 {
                    Outcome::Translated
                } else {
                    Outcome::Kept
                },
                kernels,
            ))
        }
        Some(1) | Some(2) => Ok((Outcome::Rejected, 0)),
        other => Err(Failure::new(
            Class::Crash,
            &format!("exit status {:?}", other),
            tail(&all, 6000),
        )),
    }
}

/// Whether pencilc's exit-0 translation of an input cc rejects is a bug:
/// an error on a line of a region pencilc translated, or generated output
/// that compiles (pencilc dropped or rewrote the invalid code).
/// `copied`: every line cc rejects is outside the regions and in the
/// output unchanged (pencilc copied it through; the output may compile
/// all the same, when the headers its host code includes declare what the
/// input forgot, such as `printf` without <stdio.h>).
fn invalid_accepted(
    error_lines: &[usize],
    regions: &[(usize, usize)],
    output_compiles: bool,
    copied: bool,
) -> bool {
    (output_compiles && !copied)
        || error_lines
            .iter()
            .any(|&l| regions.iter().any(|&(a, b)| a <= l && l <= b))
}

fn tail(s: &str, n: usize) -> String {
    let mut start = s.len().saturating_sub(n);
    while !s.is_char_boundary(start) {
        start += 1;
    }
    s[start..].to_string()
}

struct Checked {
    outcome: Outcome,
    /// cc rejected the input but only outside the regions.
    passed_through_invalid: bool,
    budget_fallback: bool,
}

struct Config {
    limit: Duration,
}

/// Runs the whole oracle on `input` (written as `dir/input.c`).
fn check_case(cfg: &Config, seed: &Seed, input: &[u8], dir: &Path) -> Result<Checked, Failure> {
    std::fs::create_dir_all(dir).expect("case directory");
    let src = dir.join("input.c");
    let host = dir.join("input_host.c");
    std::fs::write(&src, input).expect("write input");
    let _ = std::fs::remove_file(&host);
    let ran = run_limited(
        Command::new(pencilc()).args(pencilc_args(&seed.flags, &src, &host)),
        dir,
        "pencilc",
        cfg.limit,
    );
    let (outcome, _) = judge_run(&ran)?;
    let mut checked = Checked {
        outcome,
        passed_through_invalid: false,
        budget_fallback: ran.stderr.contains("[E0201]"),
    };
    if outcome != Outcome::Translated {
        return Ok(checked);
    }
    let regions = region_lines(&src, &seed.flags, dir);
    match cc_errors_in(&seed.flags, &src, dir, "cc-input", &regions) {
        Some((lines, msg)) => {
            let output_compiles = cc_errors(&seed.flags, &host, dir, "cc-output").is_none();
            let input_text = String::from_utf8_lossy(input);
            let input_lines: Vec<&str> = input_text.lines().collect();
            let output =
                String::from_utf8_lossy(&std::fs::read(&host).unwrap_or_default()).into_owned();
            let output_lines: std::collections::BTreeSet<&str> = output.lines().collect();
            let copied = lines.iter().all(|&l| {
                input_lines
                    .get(l.wrapping_sub(1))
                    .is_some_and(|t| output_lines.contains(t))
            });
            if invalid_accepted(&lines, &regions, output_compiles, copied) {
                return Err(Failure::new(
                    Class::InvalidAccepted,
                    &msg,
                    format!(
                        "cc rejects the input (error lines {:?}; regions {:?}; output compiles: {}): {}\n\npencilc:\n{}",
                        lines,
                        regions,
                        output_compiles,
                        msg,
                        tail(&ran.stderr, 4000)
                    ),
                ));
            }
            checked.passed_through_invalid = true;
        }
        None => {
            if let Some((_, msg)) = cc_errors(&seed.flags, &host, dir, "cc-output") {
                let cc = std::fs::read_to_string(dir.join("cc-output.stderr")).unwrap_or_default();
                return Err(Failure::new(
                    Class::OutputDoesNotCompile,
                    &msg,
                    format!("cc on the generated host file:\n{}", tail(&cc, 6000)),
                ));
            }
            if let Some((msg, log)) = kernel_errors(&dir.join("input_kernel.cl"), dir) {
                return Err(Failure::new(
                    Class::KernelDoesNotCompile,
                    &msg,
                    format!(
                        "clang (OpenCL C 1.2) on the generated kernels:\n{}",
                        tail(&log, 6000)
                    ),
                ));
            }
        }
    }
    Ok(checked)
}

// ---------------------------------------------------------------------------
// Shrinking and saving failures

/// Deletes ever smaller runs of tokens from `input` while the result fails
/// with the same class and signature, until `deadline`.
fn shrink(
    cfg: &Config,
    seed: &Seed,
    input: &[u8],
    f: &Failure,
    dir: &Path,
    deadline: Instant,
) -> Vec<u8> {
    let mut toks = tokenize(input);
    let mut chunk = toks.len() / 2;
    while chunk >= 1 && Instant::now() < deadline {
        let mut i = 0;
        while i < toks.len() && Instant::now() < deadline {
            let mut cand = toks.clone();
            cand.drain(i..(i + chunk).min(cand.len()));
            let same = match check_case(cfg, seed, &render(&cand), dir) {
                Err(g) => g.class == f.class && g.signature == f.signature,
                Ok(_) => false,
            };
            if same {
                toks = cand;
            } else {
                i += chunk;
            }
        }
        chunk /= 2;
    }
    render(&toks)
}

fn shell_quote(s: &str) -> String {
    if s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_./=".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

struct CaseFailure {
    case: usize,
    seed: usize,
    input: Vec<u8>,
    mutations: Vec<String>,
    failure: Failure,
}

fn save_failure(cfg: &Config, seeds: &[Seed], f: &CaseFailure, shrink_until: Instant) -> PathBuf {
    let dir = root().join("target/fuzz-failures").join(format!(
        "{}-case{}",
        f.failure.class.name(),
        f.case
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("failure directory");
    let seed = &seeds[f.seed];
    std::fs::write(dir.join("input.c"), &f.input).unwrap();
    let minimized = if f.failure.class != Class::Hang && Instant::now() < shrink_until {
        let m = shrink(
            cfg,
            seed,
            &f.input,
            &f.failure,
            &dir.join("shrink"),
            shrink_until,
        );
        let _ = std::fs::remove_dir_all(dir.join("shrink"));
        std::fs::write(dir.join("minimized.c"), &m).unwrap();
        Some(m.len())
    } else {
        None
    };
    let q = |v: Vec<String>| {
        v.iter()
            .map(|a| shell_quote(a))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let file = Path::new("input.c");
    let mut cmd = String::from("#!/bin/sh\n# Reproduces the failure from this folder (use minimized.c in place of input.c too).\n");
    let _ = writeln!(
        cmd,
        "{} {}",
        shell_quote(&pencilc().display().to_string()),
        q(pencilc_args(&seed.flags, file, Path::new("input_host.c")))
    );
    let _ = writeln!(cmd, "# validity of the input and of the output:");
    let _ = writeln!(cmd, "cc {}", q(cc_args(&seed.flags, file)));
    let _ = writeln!(
        cmd,
        "cc {}",
        q(cc_args(&seed.flags, Path::new("input_host.c")))
    );
    std::fs::write(dir.join("command.sh"), cmd).unwrap();
    let mut report = format!(
        "class: {}\nsignature: {}\ncase: {} (seed `{}`, {})\nmutations:\n",
        f.failure.class.name(),
        f.failure.signature,
        f.case,
        seed.name,
        seed.path.display()
    );
    for m in &f.mutations {
        let _ = writeln!(report, "  - {}", m);
    }
    if let Some(n) = minimized {
        let _ = writeln!(report, "minimized: {} bytes (from {})", n, f.input.len());
    }
    let _ = write!(report, "\n{}\n", f.failure.detail);
    std::fs::write(dir.join("stderr.txt"), report).unwrap();
    dir
}

// ---------------------------------------------------------------------------
// Known issues

/// Failures already reported and not fixed yet: (class, a substring of the
/// signature, what it is). They are counted and listed but do not fail the
/// test unless `PENCILC_FUZZ_STRICT` is set. Remove an entry when its bug
/// is fixed.
const KNOWN_ISSUES: &[(Class, &str, &str)] = &[];

fn known_issue(f: &Failure) -> Option<&'static str> {
    KNOWN_ISSUES
        .iter()
        .find(|(c, s, _)| *c == f.class && f.signature.contains(s))
        .map(|(_, _, what)| *what)
}

// ---------------------------------------------------------------------------
// The tests

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

#[derive(Default)]
struct Tally {
    cases: usize,
    outcomes: BTreeMap<&'static str, usize>,
    /// (class, signature) → case numbers.
    failures: BTreeMap<(Class, String), Vec<usize>>,
    first: Vec<CaseFailure>,
    seeds_run: usize,
    seeds_translated: usize,
}

#[test]
fn mutants_never_crash_hang_or_compile_invalid_c() {
    let base = env("PENCILC_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let seconds: f64 = env("PENCILC_FUZZ_SECONDS").unwrap_or(DEFAULT_SECONDS);
    let max_cases: usize = env("PENCILC_FUZZ_CASES").unwrap_or(usize::MAX);
    let only: Option<usize> = env("PENCILC_FUZZ_CASE");
    let start: usize = only.or_else(|| env("PENCILC_FUZZ_START")).unwrap_or(0);
    let jobs: usize = env("PENCILC_FUZZ_JOBS").unwrap_or(2).max(1);
    let shrink_secs: f64 = env("PENCILC_FUZZ_SHRINK").unwrap_or(DEFAULT_SHRINK);
    let keep = std::env::var_os("PENCILC_FUZZ_KEEP").is_some();
    let strict = std::env::var_os("PENCILC_FUZZ_STRICT").is_some();
    let cfg = Config {
        limit: Duration::from_secs_f64(env("PENCILC_FUZZ_LIMIT").unwrap_or(DEFAULT_LIMIT)),
    };
    let max_cases = if only.is_some() { 1 } else { max_cases };
    let seeds = seeds();
    let work = root().join("target/fuzz");
    let begin = Instant::now();
    let deadline = begin + Duration::from_secs_f64(seconds);
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    eprintln!(
        "fuzz: {} seeds, from case {}, {} s, {} jobs (PENCILC_FUZZ_START={} reproduces the order)",
        seeds.len(),
        start,
        seconds,
        jobs,
        start
    );
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                if k >= max_cases || (k > 0 && Instant::now() >= deadline) {
                    break;
                }
                let n = start + k;
                let (si, input, mutations) = make_case(&seeds, base, n);
                let dir = work.join(format!("case{}", n));
                let result = check_case(&cfg, &seeds[si], &input, &dir);
                let seed_case = mutations.is_empty();
                let result = match result {
                    Ok(c) if seed_case && c.outcome == Outcome::Rejected => Err(Failure::new(
                        Class::Seed,
                        &format!("seed {} is rejected", seeds[si].name),
                        std::fs::read_to_string(dir.join("pencilc.stderr")).unwrap_or_default(),
                    )),
                    r => r,
                };
                if seed_case {
                    let translated = matches!(&result, Ok(c) if c.outcome == Outcome::Translated);
                    let mut t = tally.lock().unwrap();
                    t.seeds_run += 1;
                    t.seeds_translated += translated as usize;
                }
                if !keep && result.is_ok() {
                    let _ = std::fs::remove_dir_all(&dir);
                }
                let mut t = tally.lock().unwrap();
                t.cases += 1;
                match result {
                    Ok(c) => {
                        *t.outcomes
                            .entry(match c.outcome {
                                Outcome::Translated => "translated",
                                Outcome::Kept => "kept (nothing translated)",
                                Outcome::Rejected => "rejected (diagnostic)",
                            })
                            .or_default() += 1;
                        if c.passed_through_invalid {
                            *t.outcomes
                                .entry("translated, invalid C outside the regions")
                                .or_default() += 1;
                        }
                        if c.budget_fallback {
                            *t.outcomes.entry("budget fallback (E0201)").or_default() += 1;
                        }
                    }
                    Err(f) => {
                        eprintln!(
                            "fuzz: case {} ({}): {}: {}",
                            n,
                            seeds[si].name,
                            f.class.name(),
                            f.signature
                        );
                        let key = (f.class, f.signature.clone());
                        let seen = t.failures.contains_key(&key);
                        t.failures.entry(key).or_default().push(n);
                        if !seen {
                            t.first.push(CaseFailure {
                                case: n,
                                seed: si,
                                input,
                                mutations,
                                failure: f,
                            });
                        }
                    }
                }
            });
        }
    });
    let t = tally.into_inner().unwrap();
    let ran_for = begin.elapsed();
    let shrink_until = Instant::now() + Duration::from_secs_f64(shrink_secs);
    let mut report = format!(
        "fuzz: {} cases in {:.1} s ({} to {})\n",
        t.cases,
        ran_for.as_secs_f64(),
        start,
        start + t.cases.saturating_sub(1)
    );
    for (what, n) in &t.outcomes {
        let _ = writeln!(report, "  {:>6}  {}", n, what);
    }
    let mut unknown = 0;
    for f in &t.first {
        let saved = save_failure(&cfg, &seeds, f, shrink_until);
        let cases = &t.failures[&(f.failure.class, f.failure.signature.clone())];
        let known = known_issue(&f.failure);
        if known.is_none() || strict {
            unknown += 1;
        }
        let _ = writeln!(
            report,
            "  FAILED {}{}: {} (cases {:?}) -> {}",
            f.failure.class.name(),
            known
                .map(|k| format!(" [known: {}]", k))
                .unwrap_or_default(),
            f.failure.signature,
            cases,
            saved.display()
        );
    }
    let _ = writeln!(
        report,
        "  seeds: {} of {} run translate (the others fall back within --schedule-timeout {} under this load)",
        t.seeds_translated, t.seeds_run, SCHEDULE_TIMEOUT
    );
    eprintln!("{}", report);
    assert!(t.cases > 0, "no case ran");
    // Mutants of seeds that never translate would test the front end only.
    assert!(
        t.seeds_translated * 2 >= t.seeds_run,
        "most seeds do not translate:\n{}",
        report
    );
    assert_eq!(unknown, 0, "{}", report);
}

/// The fuzzer must vary its inputs, deterministically, and every mutation
/// must find a place in the corpus.
#[test]
fn mutator_is_deterministic_and_varied() {
    let seeds: Vec<Seed> = seeds();
    for s in &seeds {
        // Regions are not needed here: every token counts as hot.
        let _ = s.regions.set(vec![(1, usize::MAX)]);
        assert_eq!(render(&tokenize(&s.text)), s.text, "{}", s.name);
    }
    let n0 = seeds.len();
    let (_, seed_case, m) = make_case(&seeds, DEFAULT_SEED, 0);
    assert!(m.is_empty() && seed_case == seeds[0].text);
    let mut distinct = std::collections::BTreeSet::new();
    let mut used = std::collections::BTreeSet::new();
    for n in n0..n0 + 600 {
        let (s, a, ma) = make_case(&seeds, DEFAULT_SEED, n);
        let (_, b, _) = make_case(&seeds, DEFAULT_SEED, n);
        assert_eq!(a, b, "case {} is not deterministic", n);
        assert!(!ma.is_empty(), "case {} has no mutation", n);
        assert!(a != seeds[s].text, "case {} is its seed ({:?})", n, ma);
        for m in &ma {
            used.insert(m.split(':').next().unwrap().to_string());
        }
        distinct.insert(a);
    }
    assert!(
        distinct.len() > 590,
        "only {} distinct inputs",
        distinct.len()
    );
    for op in OPS {
        assert!(
            used.contains(&format!("{:?}", op)),
            "{:?} never applied",
            op
        );
    }
    // Another base seed gives other inputs.
    let (_, other, _) = make_case(&seeds, DEFAULT_SEED + 1, n0 + 1);
    assert!(other != make_case(&seeds, DEFAULT_SEED, n0 + 1).1);
}

#[test]
fn tokenizer_round_trips_any_bytes() {
    let mut rng = Rng(7);
    for _ in 0..200 {
        let len = rng.below(200);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        assert_eq!(render(&tokenize(&bytes)), bytes);
    }
    let toks = tokenize(b"#pragma scop\nfor (i = 0; i <= n; i += 2) A[i] = 1e-3;\n");
    let kinds: Vec<Kind> = toks
        .iter()
        .filter(|t| !t.trivia())
        .map(|t| t.kind)
        .collect();
    assert_eq!(kinds[0], Kind::Directive);
    assert!(toks.iter().any(|t| t.is("<=")) && toks.iter().any(|t| t.is("+=")));
    assert!(toks.iter().any(|t| t.is("1e-3") && t.kind == Kind::Number));
}

fn ran(code: Option<i32>, signal: Option<i32>, stderr: &str) -> Ran {
    Ran {
        code,
        signal,
        stderr: stderr.into(),
        ..Ran::default()
    }
}

/// The oracle must tell each kind of failure from a normal run.
#[test]
fn oracle_classifies_runs() {
    let class = |r: Ran| judge_run(&r).err().map(|f| f.class);
    assert_eq!(
        class(ran(
            Some(101),
            None,
            "thread 'main' panicked at src/front/parse.rs:1:2:\nboom"
        )),
        Some(Class::Crash)
    );
    assert_eq!(class(ran(None, Some(11), "")), Some(Class::Crash));
    assert_eq!(class(ran(Some(3), None, "")), Some(Class::Crash));
    assert_eq!(
        class(ran(
            Some(0),
            None,
            "x.c:3:1: warning: region 1 (deps): pencilc crashed (signal 6: SIGABRT); pencilc stopped it [E0201]"
        )),
        Some(Class::Crash)
    );
    assert_eq!(
        class(ran(
            Some(1),
            None,
            "x.c: error: internal error in map: oops [E0900]"
        )),
        Some(Class::Internal)
    );
    assert_eq!(
        class(Ran {
            timed_out: true,
            ..Ran::default()
        }),
        Some(Class::Hang)
    );
    assert_eq!(
        judge_run(&ran(Some(1), None, "x.c:3:4: error: syntax error [E0002]")).unwrap(),
        (Outcome::Rejected, 0)
    );
    assert_eq!(
        judge_run(&ran(
            Some(0),
            None,
            "pencilc: x.c: 2 region(s), 3 kernel(s), parallel dims [1]"
        ))
        .unwrap(),
        (Outcome::Translated, 3)
    );
    assert_eq!(
        judge_run(&ran(
            Some(0),
            None,
            "pencilc: x.c: 1 region(s), 0 kernel(s)"
        ))
        .unwrap(),
        (Outcome::Kept, 0)
    );
    // Signatures ignore numbers, so one bug is one entry.
    let a = judge_run(&ran(
        Some(101),
        None,
        "panicked at src/a.rs:10:5:\nindex 7 out of range",
    ))
    .unwrap_err();
    let b = judge_run(&ran(
        Some(101),
        None,
        "panicked at src/a.rs:10:5:\nindex 9 out of range",
    ))
    .unwrap_err();
    assert_eq!(a.signature, b.signature);
}

/// cc must find invalid C and where it is, and an accepted invalid input
/// must count as a failure exactly when the error is in a region or pencilc
/// made it compile.
#[test]
fn oracle_finds_invalid_c() {
    let dir = root().join("target/fuzz/oracle-invalid-c");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.c");
    std::fs::write(
        &bad,
        "void f(int n, double A[n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    A[i] = undeclared_fn(i);\n#pragma endscop\n}\n",
    )
    .unwrap();
    let (lines, msg) = cc_errors(&[], &bad, &dir, "cc").expect("cc accepts an undeclared call");
    assert_eq!(lines, vec![4], "{}", msg);
    let good = dir.join("good.c");
    std::fs::write(&good, "int f(int x) { return x + 1; }\n").unwrap();
    assert!(cc_errors(&[], &good, &dir, "cc").is_none());
    assert!(invalid_accepted(&[4], &[(2, 5)], false, false));
    assert!(invalid_accepted(&[4], &[(2, 5)], true, true));
    assert!(!invalid_accepted(&[9], &[(2, 5)], false, false));
    assert!(invalid_accepted(&[9], &[(2, 5)], true, false));
    // Copied through unchanged; the output's own headers declare it.
    assert!(!invalid_accepted(&[9], &[(2, 5)], true, true));
    // PENCIL's builtins are known without `pencil.h` (fuzz case 35004097:
    // a splice had removed the `#include`); another undeclared call in
    // the same file is still an error.
    let assume = dir.join("assume.c");
    std::fs::write(
        &assume,
        "void f(int n, double A[n]) {\n#pragma scop\n  __pencil_assume(n > 0);\n  for (int i = 0; i < n; i++)\n    A[i] = i;\n#pragma endscop\n}\n",
    )
    .unwrap();
    assert!(cc_errors(&[], &assume, &dir, "cc").is_none());
    let both = dir.join("both.c");
    std::fs::write(
        &both,
        "void f(int n, double A[n]) {\n#pragma scop\n  __pencil_assume(n > 0);\n  for (int i = 0; i < n; i++)\n    A[i] = undeclared_fn(i);\n#pragma endscop\n}\n",
    )
    .unwrap();
    let (lines, _) = cc_errors(&[], &both, &dir, "cc").expect("an undeclared call");
    assert_eq!(lines, vec![5]);
}
