//! tree-sitter-c to the region syntax of `syntax.rs`. Anything outside the
//! accepted subset is rejected here with a coded diagnostic pointing at the
//! offending text; nothing is silently dropped.

use super::names::FileNames;
use super::preprocess::Preprocessed;
use super::syntax::*;
use crate::diag::{Code, Diagnostic, Loc, Result};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tree_sitter::{Node, Parser};

mod atomic;
mod body_pragmas;
pub mod called;
mod casts;
mod dead_after;
mod enums;
mod inline;
mod loops;
mod structs;

/// How deep the syntax tree of the code pencilc translates may nest
/// (tree-sitter nodes: a level of parentheses is two, a loop with braces
/// two). Every stage after the parser recurses over it; the compile runs
/// on a thread with `driver::COMPILE_STACK_BYTES` of stack, which holds
/// this depth with room to spare (10,000 nested parentheses around a sum,
/// about 20,000 levels, need some 50 MiB).
pub const MAX_NESTING: usize = 50_000;

/// How deep loops may nest in a region. The model's sets have a dimension
/// per enclosing loop, and building them (the iterator range checks
/// included) grows about as the cube of the depth: 60 nested loops took
/// 3 s, 127 took 28 s, and this stage runs before the region's time
/// starts, so the watchdog cannot stop it (the fuzzer found 127 nested
/// loops running past 60 s). 32 loops take about half a second; no loop
/// nest that a GPU mapping could use comes near this.
pub const MAX_LOOP_DEPTH: usize = 32;

/// What the parser found: the regions, and warnings about code it leaves
/// as it is.
pub struct Parsed {
    pub regions: Vec<Region>,
    pub warnings: Vec<Diagnostic>,
}

/// The user's original file, kept verbatim for the output.
pub struct SourceFile {
    pub path: PathBuf,
    /// The file as text; a byte that is not UTF-8 (a Latin-1 comment, say)
    /// is held as the character `BYTE_ESCAPE + byte`, which `encode`
    /// turns back into that byte, so the output keeps it unchanged.
    pub text: String,
}

/// Where the characters standing for bytes that are not UTF-8 begin (the
/// last 128 code points of plane 16, private use).
const BYTE_ESCAPE: u32 = 0x10FF00;

/// A file name as text of a generated file, where `SourceFile::encode`
/// writes its bytes back unchanged (`#include "name"` takes no escapes,
/// and a name need not be UTF-8).
pub fn name_as_text(name: &std::ffi::OsStr) -> String {
    let mut text = String::new();
    for chunk in name.as_encoded_bytes().utf8_chunks() {
        text.push_str(chunk.valid());
        for &b in chunk.invalid() {
            text.push(char::from_u32(BYTE_ESCAPE + b as u32).expect("plane 16"));
        }
    }
    text
}

impl SourceFile {
    /// The last line of the directive that starts on `line` (1-based): a
    /// line ending in a backslash continues on the next (`#pragma\` then
    /// `endscop`), and the region ends with the directive, not before its
    /// continuation.
    pub fn directive_end(&self, line: u32) -> u32 {
        if line == 0 {
            return 0;
        }
        let mut end = line;
        while self
            .text
            .lines()
            .nth(end as usize - 1)
            .is_some_and(|l| l.ends_with('\\'))
        {
            end += 1;
        }
        end
    }

    /// The first line of the logical line that `line` (1-based) belongs
    /// to: a line whose predecessor ends in a backslash continues it
    /// (`#\` then `pragma scop`), and the region starts with the directive,
    /// not after its first part.
    pub fn directive_start(&self, line: u32) -> u32 {
        let lines: Vec<&str> = self.text.lines().collect();
        let mut start = line;
        while start > 1
            && lines
                .get(start as usize - 2)
                .is_some_and(|l| l.ends_with('\\'))
        {
            start -= 1;
        }
        start
    }

    pub fn from_bytes(path: &std::path::Path, bytes: &[u8]) -> Result<SourceFile> {
        let mut text = String::with_capacity(bytes.len());
        for chunk in bytes.utf8_chunks() {
            // Such a character written as UTF-8 would come back as a byte.
            if chunk
                .valid()
                .chars()
                .any(|c| c as u32 >= BYTE_ESCAPE + 0x80)
            {
                return Err(Diagnostic::error(
                    Code::Usage,
                    None,
                    format!(
                        "{} holds a character of U+10FF80..U+10FFFF, which pencilc uses for bytes that are not UTF-8",
                        path.display()
                    ),
                )
                .with_hint("write the character as an escape (`\\U0010FFxx`)"));
            }
            text.push_str(chunk.valid());
            for &b in chunk.invalid() {
                text.push(char::from_u32(BYTE_ESCAPE + b as u32).expect("plane 16"));
            }
        }
        // cpp ends a line at a carriage return not followed by a line feed,
        // and its line markers count those lines; the source must count
        // them too, or a region's lines are replaced off by one (the fuzzer
        // found a function's closing brace lost). CRLF stays as it is.
        if text.contains('\r') {
            let mut lf = String::with_capacity(text.len());
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                lf.push(if c == '\r' && chars.peek() != Some(&'\n') {
                    '\n'
                } else {
                    c
                });
            }
            text = lf;
        }
        Ok(SourceFile {
            path: path.to_path_buf(),
            text,
        })
    }

    /// Generated text as the bytes to write: the characters standing for
    /// the input's bytes that are not UTF-8 become those bytes again.
    pub fn encode(&self, generated: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(generated.len());
        for c in generated.chars() {
            let v = c as u32;
            if (BYTE_ESCAPE + 0x80..=BYTE_ESCAPE + 0xFF).contains(&v) {
                out.push((v - BYTE_ESCAPE) as u8);
            } else {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
        out
    }
}

/// A header the main file includes, as the preprocessor spelled it, and
/// the main file's line of the `#include` (one inclusion of it).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Inclusion {
    pub header: PathBuf,
    pub include_line: u32,
}

/// One `#pragma scop` ... `#pragma endscop` region.
#[derive(Clone, Debug)]
pub struct Region {
    /// The enclosing function.
    pub function: String,
    /// 1-based lines of the two pragmas in the user's file, or in the
    /// header of `inclusion`.
    pub begin_line: u32,
    pub end_line: u32,
    /// Set for a region of a header that the main file includes: the
    /// output pastes the header there with the region compiled (the same
    /// header included twice under other macros has a region each time).
    pub inclusion: Option<Inclusion>,
    pub body: Vec<Stmt>,
    /// Every variable visible in the region (parameters, locals, globals).
    pub symbols: BTreeMap<String, VarDecl>,
    pub loc: Loc,
    /// `#pragma` lines inside the region that pencilc does not act on yet.
    pub ignored_pragmas: Vec<Loc>,
    /// Summary functions, by the name of the function they describe
    /// (`__attribute__((pencil_access(summary)))`).
    pub summaries: BTreeMap<String, Summary>,
    /// A whole PENCIL function (parameters declared `pencil_array`) rather
    /// than a `#pragma scop` block: the lines are those of its body.
    pub whole_function: bool,
    /// The functions of the file inlined into the region (`parse::inline`):
    /// each one's first line (with its file) and last line.
    pub inlined: Vec<(Loc, u32)>,
    /// Every name of the file (`front::names`), which no generated name
    /// may be.
    pub names: Arc<FileNames>,
    /// The functions of the file the region calls as statements, directly
    /// or through each other, read as device code (`called`).
    pub called: BTreeMap<String, called::Called>,
    /// Functions the user's file declares, returning a number, without a
    /// body or a summary: their calls in expressions are taken as pure,
    /// as pet and PPCG take them. With each, which parameters are
    /// pointers or arrays to elements that are not `const` (the function
    /// may write through them), or `None` where the declaration does not
    /// list its parameters (`int f();`).
    pub prototypes: BTreeMap<String, Option<Vec<bool>>>,
    /// Automatic scalars of the enclosing function whose values after the
    /// region nothing reads (`dead_after`): the region need not leave
    /// their last values in them.
    pub dead_after: BTreeSet<String>,
}

/// Where in its function a block of regions is.
#[derive(Clone, Copy)]
struct Within<'t> {
    function: Node<'t>,
    /// Inside a loop of the function: code before a region may run after
    /// it.
    in_loop: bool,
}

/// A summary function: its parameters in order and its body, whose
/// `__pencil_use`/`__pencil_def` calls describe the real function's accesses.
#[derive(Clone, Debug)]
pub struct Summary {
    pub name: String,
    pub params: Vec<VarDecl>,
    pub body: Vec<Stmt>,
}

pub fn parse_regions(pp: &Preprocessed) -> Result<Vec<Region>> {
    parse_file(pp, Duration::from_secs(60)).map(|p| p.regions)
}

/// The file's regions. tree-sitter's error recovery can be quadratic or
/// worse on deeply nested broken code (60,000 nested `if`s with a stray
/// token: minutes), so the parse stops after `limit` with an error.
pub fn parse_file(pp: &Preprocessed, limit: Duration) -> Result<Parsed> {
    parse_file_with(pp, limit, Arc::new(FileNames::collect(pp, "")))
}

/// `parse_file` with the names of the file (`names`, its device code's
/// included) already collected.
pub fn parse_file_with(
    pp: &Preprocessed,
    limit: Duration,
    names: Arc<FileNames>,
) -> Result<Parsed> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .map_err(|e| Diagnostic::internal("front", format!("tree-sitter: {}", e)))?;
    let deadline = Instant::now() + limit;
    // Returning true stops the parse.
    let mut out_of_time = |_: &tree_sitter::ParseState| Instant::now() > deadline;
    let (blanked, body_pragmas) = body_pragmas::blank(&pp.text);
    let text = blanked.as_bytes();
    let tree = parser
        .parse_with_options(
            &mut |at: usize, _| text.get(at..).unwrap_or(&[]),
            None,
            Some(tree_sitter::ParseOptions::new().progress_callback(&mut out_of_time)),
        )
        .ok_or_else(|| {
            Diagnostic::error(
                Code::Syntax,
                None,
                format!(
                    "{}: the C parser did not finish within {:.1} s: its recovery from syntax errors in deeply nested code is slow",
                    pp.main_file.display(),
                    limit.as_secs_f64()
                ),
            )
            .with_hint("fix the syntax errors the C compiler reports (`cc -fsyntax-only`), or raise --schedule-timeout")
        })?;
    let cx = Cx {
        pp,
        src: blanked.as_bytes(),
        scopes: RefCell::new(Vec::new()),
        names: &names,
        spelled: RefCell::new(BTreeSet::new()),
        warnings: RefCell::new(Vec::new()),
        loop_depth: Cell::new(0),
        typedefs: RefCell::new(BTreeMap::new()),
        enums: RefCell::new(BTreeMap::new()),
        structs: RefCell::new(BTreeMap::new()),
        struct_vars: RefCell::new(BTreeMap::new()),
        body_pragmas,
    };
    let root = tree.root_node();
    let implicit = super::implicit::undeclared(root, blanked.as_bytes());
    let written = std::fs::read(&pp.main_file)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let _ = names
        .implicit_host_defines
        .set(super::implicit::undeclared_as_written(&implicit, &written));
    let _ = names.implicit_builtins.set(implicit);
    let enumerators = cx.collect_enumerators(root);
    *cx.enums.borrow_mut() = enumerators;
    // Struct members may have typedef'd types, and globals struct types:
    // typedefs first, then the structs, then the declarations.
    {
        let mut typedefs = BTreeMap::new();
        let mut cursor = root.walk();
        for child in root.children(&mut cursor) {
            if child.kind() == "type_definition" {
                cx.collect_typedef(child, &mut typedefs);
            }
        }
        *cx.typedefs.borrow_mut() = typedefs;
        let structs = cx.collect_structs(root);
        *cx.structs.borrow_mut() = structs;
    }
    let mut typedefs = BTreeMap::new();
    let mut globals = BTreeMap::new();
    let mut functions: Vec<Node> = Vec::new();
    // Function name -> its summary function's name.
    let mut summary_of: BTreeMap<String, String> = BTreeMap::new();
    let mut cursor = root.walk();
    for child in root.children(&mut cursor) {
        cx.check_top_level(child)?;
        match child.kind() {
            "type_definition" => cx.collect_typedef(child, &mut typedefs),
            "declaration" => {
                cx.collect_summary_attribute(child, &mut summary_of);
                // Globals from system headers are irrelevant and may use
                // extensions; only record ones that parse cleanly.
                let scan = scan(child);
                if scan.bad.is_none() && scan.too_deep.is_none() {
                    let mut found = BTreeMap::new();
                    let _ = cx.collect_declaration(child, &typedefs, &mut found);
                    for (name, mut v) in found {
                        v.storage = Storage::Global;
                        v.automatic = false;
                        globals.insert(name, v);
                    }
                }
            }
            "function_definition" => {
                cx.collect_summary_attribute(child, &mut summary_of);
                functions.push(child);
            }
            _ => {}
        }
    }
    *cx.typedefs.borrow_mut() = typedefs.clone();
    // Summary bodies, parsed like region code.
    let mut summaries = BTreeMap::new();
    for f in &functions {
        let name = cx.function_name(*f);
        for (callee, sname) in &summary_of {
            if *sname != name {
                continue;
            }
            cx.check_translated(*f, "summary function")?;
            let params = cx.param_list(*f, &typedefs)?;
            let mut body = Vec::new();
            let mut ignored = Vec::new();
            if let Some(b) = f.child_by_field_name("body") {
                let mut c = b.walk();
                let children: Vec<Node> = b.named_children(&mut c).collect();
                let names = globals.keys().chain(params.iter().map(|p| &p.name));
                let _scope = cx.enter_scope(names.cloned());
                cx.stmt_list(&children, &mut body, &mut ignored)?;
            }
            summaries.insert(
                callee.clone(),
                Summary {
                    name: sname.clone(),
                    params,
                    body,
                },
            );
        }
    }
    let global_struct_vars = cx.struct_vars.borrow().clone();
    let mut regions = Vec::new();
    for f in &functions {
        let name = cx.function_name(*f);
        if summary_of.contains_key(&name) || summary_of.values().any(|s| *s == name) {
            continue;
        }
        *cx.struct_vars.borrow_mut() = global_struct_vars.clone();
        let before = regions.len();
        cx.regions_in_function(*f, &typedefs, &globals, &mut regions)?;
        if regions.len() == before {
            if let Some(r) = cx.pencil_function_region(*f, &typedefs, &globals)? {
                regions.push(r);
            }
        }
    }
    // Small functions of the file, inlined where regions call them.
    let inlinable: BTreeMap<String, inline::InlineFn> = functions
        .iter()
        .filter_map(|f| {
            let name = cx.function_name(*f);
            if summaries.contains_key(&name) || summary_of.values().any(|s| *s == name) {
                return None;
            }
            cx.inline_candidate(*f, &typedefs, &globals)
                .map(|i| (name, i))
        })
        .collect();
    for r in &mut regions {
        r.names = names.clone();
        r.summaries = summaries.clone();
        r.inlined = inline::inline_calls(&mut r.body, &inlinable, &r.symbols, &r.loc);
    }
    let called = cx.called_functions(&regions, &functions, &typedefs);
    let defined: BTreeSet<String> = functions.iter().map(|f| cx.function_name(*f)).collect();
    let mut prototypes = cx.prototypes(root, &typedefs);
    prototypes.retain(|p, _| !defined.contains(p) && !summary_of.contains_key(p));
    for r in &mut regions {
        r.called = called::reachable(&called, &r.body);
        r.prototypes = prototypes.clone();
    }
    Ok(Parsed {
        regions,
        warnings: cx.warnings.into_inner(),
    })
}

struct Cx<'a> {
    pp: &'a Preprocessed,
    src: &'a [u8],
    /// The names visible at each block of the code being converted,
    /// innermost last, each with the name the region's code gets for it:
    /// its own, or for a declaration that hides another of the same name,
    /// a new one (`declare`). Empty outside regions (no check there).
    scopes: RefCell<Vec<BTreeMap<String, String>>>,
    /// Every name of the file, which a new name for a hiding declaration
    /// must not be.
    names: &'a FileNames,
    /// The new names given so far.
    spelled: RefCell<BTreeSet<String>>,
    warnings: RefCell<Vec<Diagnostic>>,
    /// Loops around the statement being converted.
    loop_depth: Cell<usize>,
    /// The file's typedefs (name → resolved type), for casts: a cast keeps
    /// its type as text, and device code knows no user typedef.
    typedefs: RefCell<BTreeMap<String, String>>,
    /// The file's enumeration constants (`enums.rs`).
    enums: RefCell<BTreeMap<String, enums::Enumerator>>,
    /// The layouts of the file's struct types (`structs.rs`), by
    /// `struct TAG` or by the untagged specifier's text.
    structs: RefCell<BTreeMap<String, std::result::Result<structs::Layout, String>>>,
    /// The variables of struct type declared so far in the function being
    /// converted (globals, parameters, then locals, a later declaration
    /// of a name replacing an earlier one).
    struct_vars: RefCell<BTreeMap<String, structs::StructVar>>,
    /// `#pragma pencil` lines between a `for` header and its body,
    /// blanked in `src` (`body_pragmas`).
    body_pragmas: Vec<body_pragmas::BodyPragma>,
}

/// Leaves a loop (`Cx::enter_loop`) when dropped.
struct LoopGuard<'c> {
    depth: &'c Cell<usize>,
}

impl Drop for LoopGuard<'_> {
    fn drop(&mut self) {
        self.depth.set(self.depth.get() - 1);
    }
}

/// Pops the scope it pushed when dropped, also on an early `?` return.
struct ScopeGuard<'c> {
    scopes: &'c RefCell<Vec<BTreeMap<String, String>>>,
}

impl Drop for ScopeGuard<'_> {
    fn drop(&mut self) {
        self.scopes.borrow_mut().pop();
    }
}

/// What an iterative walk of a subtree found: the first node tree-sitter
/// could not parse (an ERROR node, or a MISSING token it made up to
/// recover), and the first node nested deeper than `MAX_NESTING` below
/// the subtree's root. The walk is iterative so that it can look at trees
/// too deep for the recursive stages.
struct Scan<'t> {
    bad: Option<Node<'t>>,
    too_deep: Option<Node<'t>>,
}

fn scan(root: Node) -> Scan {
    let mut out = Scan {
        bad: None,
        too_deep: None,
    };
    if !root.has_error() && root.child_count() == 0 {
        return out;
    }
    let mut cursor = root.walk();
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        if out.bad.is_none() && (node.is_error() || node.is_missing()) {
            out.bad = Some(node);
        }
        let descend = if depth >= MAX_NESTING {
            if out.too_deep.is_none() && node.child_count() > 0 {
                out.too_deep = Some(node);
            }
            false
        } else {
            true
        };
        if descend && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
            depth -= 1;
        }
    }
}

/// Whether the preprocessed text of a node holds a `#pragma scop` or
/// `#pragma endscop` line (also where tree-sitter could not make it a
/// pragma node).
fn has_scop_pragma(text: &str) -> bool {
    text.lines().any(|l| {
        let Some(rest) = l.trim_start().strip_prefix('#') else {
            return false;
        };
        let Some(rest) = rest.trim_start().strip_prefix("pragma") else {
            return false;
        };
        matches!(rest.split_whitespace().next(), Some("scop" | "endscop"))
    })
}

fn is_pragma(node: Node, src: &[u8], word: &str) -> bool {
    if node.kind() != "preproc_call" {
        return false;
    }
    let dir = node
        .child_by_field_name("directive")
        .and_then(|d| d.utf8_text(src).ok())
        .unwrap_or("");
    let dir = dir.trim().trim_start_matches('#').trim_start();
    if dir != "pragma" {
        return false;
    }
    let arg = node
        .child_by_field_name("argument")
        .and_then(|a| a.utf8_text(src).ok())
        .unwrap_or("");
    arg.split_whitespace().next() == Some(word)
}

impl<'a> Cx<'a> {
    /// Functions the user's own file (not a header) declares at file scope
    /// that return an arithmetic type (`int f(void);`).
    fn prototypes(
        &self,
        root: Node,
        typedefs: &BTreeMap<String, String>,
    ) -> BTreeMap<String, Option<Vec<bool>>> {
        let mut out = BTreeMap::new();
        let mut c = root.walk();
        for d in root.children(&mut c) {
            if d.kind() != "declaration" || !self.pp.is_main_file(d.start_position().row) {
                continue;
            }
            let Some(ty) = d.child_by_field_name("type") else {
                continue;
            };
            let ty = self.resolve_type(self.text(ty), typedefs);
            let ty = ty
                .split_whitespace()
                .filter(|w| !matches!(*w, "const" | "static" | "extern" | "inline"))
                .collect::<Vec<_>>()
                .join(" ");
            if integer_range(&ty).is_none() && !is_float_type(&ty) {
                continue;
            }
            let mut dc = d.walk();
            for decl in d.children_by_field_name("declarator", &mut dc) {
                if decl.kind() == "function_declarator" {
                    if let Some(name) = find_function_name(decl, self.src) {
                        out.insert(name, self.writable_pointer_params(decl));
                    }
                }
            }
        }
        out
    }

    /// Which parameters of a function declarator point to elements that
    /// are not `const` (`int *p`, `double a[]`, not `const int *p`);
    /// `None` for `f()`, which does not say.
    fn writable_pointer_params(&self, decl: Node) -> Option<Vec<bool>> {
        let params = decl.child_by_field_name("parameters")?;
        let mut c = params.walk();
        let list: Vec<Node> = params
            .named_children(&mut c)
            .filter(|p| p.kind() == "parameter_declaration")
            .collect();
        if list.is_empty() && !self.text(params).contains("void") {
            return None;
        }
        Some(
            list.iter()
                .map(|p| {
                    let t = self.text(*p);
                    match t.find(['*', '[']) {
                        Some(at) => !t[..at].split_whitespace().any(|w| w == "const"),
                        None => false,
                    }
                })
                .collect(),
        )
    }

    /// The model's name for a call of `name`: a builtin the file uses
    /// without declaring it is known by pencilc's name for it
    /// (`front::implicit`), any other function by its own.
    fn callee(&self, name: &str) -> String {
        let implicit = self
            .names
            .implicit_builtins
            .get()
            .is_some_and(|s| s.contains(name));
        match super::implicit::builtin(name).and_then(|b| b.model_name) {
            Some(model) if implicit => model.to_string(),
            _ => name.to_string(),
        }
    }

    fn text(&self, n: Node) -> &'a str {
        n.utf8_text(self.src).unwrap_or("")
    }

    fn loc(&self, n: Node) -> Loc {
        let s = n.start_position();
        // A construct spanning lines is underlined to the end of its first line.
        let first_line = self.text(n).lines().next().unwrap_or("").trim_end();
        let len = if n.end_position().row == s.row {
            n.end_position().column - s.column
        } else {
            first_line.len().max(1)
        };
        self.pp.loc(s.row, s.column, len)
    }

    fn err(&self, code: Code, n: Node, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(code, Some(self.loc(n)), msg)
    }

    /// Makes `names` visible until the guard is dropped.
    fn enter_scope(&self, names: impl IntoIterator<Item = String>) -> ScopeGuard<'_> {
        self.scopes
            .borrow_mut()
            .push(names.into_iter().map(|n| (n.clone(), n)).collect());
        ScopeGuard {
            scopes: &self.scopes,
        }
    }

    fn enter_loop(&self, n: Node) -> Result<LoopGuard<'_>> {
        let d = self.loop_depth.get() + 1;
        if d > MAX_LOOP_DEPTH {
            return Err(self
                .err(
                    Code::UnsupportedStatement,
                    n,
                    format!("loops nested deeper than {} in a region", MAX_LOOP_DEPTH),
                )
                .with_hint("put the inner loops in a function of their own, outside the region"));
        }
        self.loop_depth.set(d);
        Ok(LoopGuard {
            depth: &self.loop_depth,
        })
    }

    /// Declares `name` in the innermost block and returns the name the
    /// region's code gets for it. A declaration that hides a visible name
    /// (`double t` in a loop, where the region also writes an outer `t`)
    /// gets a new one, `t_1`, free of every name of the file: every later
    /// stage then sees two variables where C has two, although the parser
    /// flattens blocks and the model and back ends know variables by name.
    fn declare(&self, name: &str) -> String {
        let hides = self.scopes.borrow().iter().any(|s| s.contains_key(name));
        let spelled = if hides {
            let mut spelled = self.spelled.borrow_mut();
            let fresh = (1..)
                .map(|k| format!("{}_{}", name, k))
                .find(|n| !self.names.contains(n) && !spelled.contains(n))
                .unwrap_or_else(|| name.to_string());
            spelled.insert(fresh.clone());
            fresh
        } else {
            name.to_string()
        };
        if let Some(top) = self.scopes.borrow_mut().last_mut() {
            top.insert(name.to_string(), spelled.clone());
        }
        spelled
    }

    /// The name the region's code has for `name` where it is used: the
    /// innermost declaration's (`declare`).
    fn resolve(&self, name: &str) -> Option<String> {
        self.scopes
            .borrow()
            .iter()
            .rev()
            .find_map(|s| s.get(name).cloned())
    }

    fn is_declared(&self, name: &str) -> bool {
        let scopes = self.scopes.borrow();
        scopes.is_empty() || scopes.iter().any(|s| s.contains_key(name))
    }

    /// An enumeration constant where no variable of the region's scopes
    /// hides it: the literal it stands for.
    fn enumerator(&self, n: Node, name: &str) -> Option<Result<Expr>> {
        if self.scopes.borrow().iter().any(|s| s.contains_key(name)) {
            return None;
        }
        let loc = self.loc(n);
        let lit = |v: i64| Expr {
            kind: ExprKind::Int(v, v.to_string()),
            loc: loc.clone(),
        };
        match self.enums.borrow().get(name)? {
            enums::Enumerator::Value(v) if *v >= 0 => Some(Ok(lit(*v))),
            // A negative literal is a negated positive one in C; `int`'s
            // least value has no positive counterpart in `int`.
            enums::Enumerator::Value(v) => {
                let e = |kind| Expr {
                    kind,
                    loc: loc.clone(),
                };
                Some(Ok(if *v == i64::from(i32::MIN) {
                    e(ExprKind::Binary(
                        BinOp::Sub,
                        Box::new(e(ExprKind::Unary(
                            UnOp::Neg,
                            Box::new(lit(i64::from(i32::MAX))),
                        ))),
                        Box::new(lit(1)),
                    ))
                } else {
                    e(ExprKind::Unary(UnOp::Neg, Box::new(lit(-v))))
                }))
            }
            enums::Enumerator::Unknown(why, hint) => Some(Err(self
                .err(
                    Code::UnknownIdentifier,
                    n,
                    format!(
                        "the enumerator `{}` has no value pencilc can use: {}",
                        name, why
                    ),
                )
                .with_hint(*hint))),
        }
    }

    fn undeclared(&self, n: Node, name: &str) -> Diagnostic {
        self.err(
            Code::UnknownIdentifier,
            n,
            format!("`{}` is not declared", name),
        )
        .with_hint(
            "declare it before the region (or, for a loop iterator, in the loop: `for (int i = 0; ...)`); pencilc preprocesses the file with the -I and -D you pass",
        )
    }

    /// The diagnostic for what `scan` found in code pencilc translates.
    fn scan_error(&self, s: &Scan, what: &str) -> Option<Diagnostic> {
        if let Some(n) = s.bad {
            let msg = if n.is_missing() {
                let kind = n.kind();
                if kind.chars().all(|c| c.is_alphanumeric() || c == '_') && kind.len() > 1 {
                    format!(
                        "syntax error in the {}: expected {}",
                        what,
                        kind.replace('_', " ")
                    )
                } else {
                    format!("syntax error in the {}: expected `{}`", what, kind)
                }
            } else {
                let text = self.text(n).trim();
                let first = text.lines().next().unwrap_or("").trim();
                if first.is_empty() {
                    format!("syntax error in the {}", what)
                } else {
                    let shown: String = first.chars().take(40).collect();
                    let more = if shown.len() < first.len() { "..." } else { "" };
                    format!(
                        "syntax error in the {}: unexpected `{}{}`",
                        what, shown, more
                    )
                }
            };
            let loc = if n.is_missing() {
                let p = n.start_position();
                self.pp.loc(p.row, p.column, 1)
            } else {
                self.loc(n)
            };
            return Some(Diagnostic::error(Code::Syntax, Some(loc), msg).with_hint(
                "pencilc translates this code, so it must be valid C: fix it as your C compiler asks",
            ));
        }
        s.too_deep.map(|n| {
            self.err(
                Code::UnsupportedStatement,
                n,
                format!(
                    "nesting deeper than {} levels (parentheses, operators, statements) in the {}",
                    MAX_NESTING, what
                ),
            )
            .with_hint(
                "split the expression or the loop nest with temporary variables or functions",
            )
        })
    }

    /// The inclusion a row of a directly included header belongs to.
    fn inclusion(&self, row: usize) -> Option<Inclusion> {
        let include_line = self.pp.include_site(row)?;
        let file = self.pp.origin.get(row)?.0 as usize;
        Some(Inclusion {
            header: self.pp.files.get(file)?.clone(),
            include_line,
        })
    }

    /// Code that pencilc translates must parse as C, nest within
    /// `MAX_NESTING` and, where it becomes a region, be UTF-8.
    fn check_translated(&self, n: Node, what: &str) -> Result<()> {
        match self.scan_error(&scan(n), what) {
            Some(d) => Err(d),
            None => self.check_utf8(n.start_position().row, n.end_position().row, what),
        }
    }

    /// Bytes that are not UTF-8 between two rows (inclusive).
    fn check_utf8(&self, first: usize, last: usize, what: &str) -> Result<()> {
        match self
            .pp
            .invalid_utf8
            .iter()
            .find(|&&(r, _)| r >= first && r <= last)
        {
            Some(&(r, c)) => Err(Diagnostic::error(
                Code::Syntax,
                Some(self.pp.loc(r, c, 1)),
                format!("a byte that is not UTF-8 in the {}", what),
            )
            .with_hint(
                "write the code pencilc translates in UTF-8 (e.g. `iconv -f latin1 -t utf-8`); the rest of the file may use any encoding",
            )),
            None => Ok(()),
        }
    }

    /// Whether `row` lies between a `#pragma scop` line of `n` and the
    /// `#pragma endscop` after it (or the end of `n`).
    fn in_region_rows(&self, n: Node, row: usize) -> bool {
        let first = n.start_position().row;
        let mut open = None;
        for (k, line) in self.text(n).lines().enumerate() {
            let r = first + k;
            if has_scop_pragma(line) {
                if line.contains("endscop") {
                    if open.is_some_and(|o| o <= row && row <= r) {
                        return true;
                    }
                    open = None;
                } else {
                    open = Some(r);
                }
            }
        }
        open.is_some_and(|o| o <= row)
    }

    /// A top-level node of the user's file that tree-sitter could not
    /// parse: an error if it hides a region (the region would be lost),
    /// else a warning, since pencilc copies it unchanged.
    fn check_top_level(&self, n: Node) -> Result<()> {
        if !n.has_error() || !self.pp.is_user_code(n.start_position().row) {
            return Ok(());
        }
        let s = scan(n);
        if s.bad.is_none() {
            return Ok(());
        }
        if has_scop_pragma(self.text(n)) {
            let bad_row = s.bad.map(|b| b.start_position().row).unwrap_or(0);
            let what = if self.in_region_rows(n, bad_row) {
                "region"
            } else if n.kind() == "function_definition" {
                "function that holds the region"
            } else {
                "code around the region"
            };
            return Err(self.scan_error(&s, what).expect("scan found a bad node"));
        }
        if let Some(d) = self.scan_error(&s, "file outside the regions") {
            let mut w = d;
            w.severity = crate::diag::Severity::Warning;
            w.message = format!("{}; pencilc copies it unchanged", w.message);
            w.hint = Some("your C compiler will likely reject it".to_string());
            self.warnings.borrow_mut().push(w);
        }
        Ok(())
    }

    fn collect_typedef(&self, n: Node, typedefs: &mut BTreeMap<String, String>) {
        let Some(ty) = n.child_by_field_name("type") else {
            return;
        };
        let base = self.resolve_type(self.text(ty), typedefs);
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            // tree-sitter-c reads the <stdint.h> names (`uint8_t`,
            // `size_t`, ...) as primitive types even where a typedef
            // declares them; the typedef still says what they are.
            if d.kind() == "type_identifier" || d.kind() == "primitive_type" {
                typedefs.insert(self.text(d).to_string(), base.clone());
            }
        }
    }

    fn resolve_type(&self, t: &str, typedefs: &BTreeMap<String, String>) -> String {
        let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
        typedefs.get(&t).cloned().unwrap_or(t)
    }

    /// Records the variables a declaration introduces.
    fn collect_declaration(
        &self,
        n: Node,
        typedefs: &BTreeMap<String, String>,
        out: &mut BTreeMap<String, VarDecl>,
    ) -> Result<()> {
        let Some(ty) = n.child_by_field_name("type") else {
            return Ok(());
        };
        let base = self.resolve_type(self.text(ty), typedefs);
        let read_only = self.declares_const(n, &base);
        let volatile_or_register = self.volatile_or_register(n, &base);
        let mut c = n.walk();
        let automatic = !n.children(&mut c).any(|k| {
            k.kind() == "storage_class_specifier" && matches!(self.text(k), "static" | "extern")
        });
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            if let Some(mut v) = self.declarator(d, &base)? {
                v.read_only = read_only;
                v.volatile_or_register = volatile_or_register;
                v.automatic = automatic;
                out.insert(v.name.clone(), v);
            }
        }
        Ok(())
    }

    /// Whether the declaration or parameter `n` (of resolved type `base`)
    /// qualifies what it declares as `const`: a qualifier beside the type,
    /// or in the typedef. `double *const p` qualifies only the pointer,
    /// whose elements stay writable.
    fn declares_const(&self, n: Node, base: &str) -> bool {
        let mut c = n.walk();
        let beside = n
            .children(&mut c)
            .any(|k| k.kind() == "type_qualifier" && self.text(k) == "const");
        beside || base.split_whitespace().any(|w| w == "const")
    }

    /// Whether the declaration or parameter `n` (of resolved type `base`)
    /// says `volatile` or `register`, anywhere in it (beside the type, in
    /// the typedef, or on a pointer).
    fn volatile_or_register(&self, n: Node, base: &str) -> bool {
        let words = |t: &str| {
            t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == "volatile" || w == "register")
        };
        words(self.text(n)) || words(base)
    }

    /// Unwraps a declarator into name, extents and pointer-ness.
    fn declarator(&self, d: Node, base: &str) -> Result<Option<VarDecl>> {
        let mut dims_rev: Vec<Option<Expr>> = Vec::new();
        let mut pointer = false;
        let mut pencil_array = false;
        let mut restrict = false;
        let mut cur = d;
        loop {
            match cur.kind() {
                "identifier" => break,
                "init_declarator" | "parenthesized_declarator" => {
                    cur = match cur
                        .child_by_field_name("declarator")
                        .or_else(|| cur.named_child(0))
                    {
                        Some(x) => x,
                        None => return Ok(None),
                    };
                }
                "array_declarator" => {
                    // `[static const restrict n]`: what `pencil_array` expands to.
                    let mut c = cur.walk();
                    let quals: Vec<&str> = cur
                        .children(&mut c)
                        .filter(|k| k.kind() == "type_qualifier" || k.kind() == "static")
                        .map(|k| self.text(k))
                        .collect();
                    if ["static", "const", "restrict"]
                        .iter()
                        .all(|q| quals.contains(q))
                    {
                        pencil_array = true;
                    }
                    restrict |= quals.contains(&"restrict");
                    let size = match cur.child_by_field_name("size") {
                        Some(s) => Some(self.expr(s)?),
                        None => None,
                    };
                    dims_rev.push(size);
                    cur = match cur.child_by_field_name("declarator") {
                        Some(x) => x,
                        None => return Ok(None),
                    };
                }
                "pointer_declarator" => {
                    if pointer {
                        // Pointers to pointers are outside PENCIL.
                        return Ok(None);
                    }
                    pointer = true;
                    let mut c = cur.walk();
                    restrict |= cur
                        .children(&mut c)
                        .any(|k| k.kind() == "type_qualifier" && self.text(k) == "restrict");
                    cur = match cur.child_by_field_name("declarator") {
                        Some(x) => x,
                        None => return Ok(None),
                    };
                }
                _ => return Ok(None),
            }
        }
        // `double (*A)[N]` (a pointer to rows) indexes like `double A[][N]`.
        dims_rev.reverse();
        let mut dims = dims_rev;
        if pointer && !dims.is_empty() {
            dims.insert(0, None);
            pointer = false;
        }
        let mut v = VarDecl {
            name: self.text(cur).to_string(),
            base_type: base.to_string(),
            dims,
            pointer,
            pencil_array,
            restrict,
            read_only: false,
            volatile_or_register: false,
            storage: Storage::Local,
            automatic: false,
            members: Vec::new(),
            struct_type: None,
            loc: self.loc(cur),
        };
        self.struct_element(&mut v);
        Ok(Some(v))
    }

    fn function_name(&self, f: Node) -> String {
        f.child_by_field_name("declarator")
            .and_then(|d| find_function_name(d, self.src))
            .unwrap_or_else(|| "<function>".to_string())
    }

    /// `__attribute__((pencil_access(summary)))` on a function declaration
    /// or definition.
    fn collect_summary_attribute(&self, n: Node, out: &mut BTreeMap<String, String>) {
        let text = self.text(n);
        let head = match text.find('{') {
            Some(p) => &text[..p],
            None => text,
        };
        let Some(p) = head.find("pencil_access") else {
            return;
        };
        let rest = head[p + "pencil_access".len()..].trim_start();
        let Some(rest) = rest.strip_prefix('(') else {
            return;
        };
        let summary: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            if let Some(name) = find_function_name(d, self.src) {
                if !summary.is_empty() {
                    out.insert(name, summary.clone());
                }
            }
        }
    }

    /// The parameters of a function definition, in order.
    fn param_list(&self, f: Node, typedefs: &BTreeMap<String, String>) -> Result<Vec<VarDecl>> {
        let mut out = Vec::new();
        let Some(decl) = f.child_by_field_name("declarator") else {
            return Ok(out);
        };
        let mut stack = vec![decl];
        while let Some(n) = stack.pop() {
            if n.kind() == "parameter_list" {
                let mut c = n.walk();
                for p in n.named_children(&mut c) {
                    if p.kind() != "parameter_declaration" {
                        continue;
                    }
                    let Some(ty) = p.child_by_field_name("type") else {
                        continue;
                    };
                    let base = self.resolve_type(self.text(ty), typedefs);
                    if let Some(d) = p.child_by_field_name("declarator") {
                        if let Some(mut v) = self.declarator(d, &base)? {
                            v.storage = Storage::Param;
                            v.automatic = true;
                            v.read_only = self.declares_const(p, &base);
                            v.volatile_or_register = self.volatile_or_register(p, &base);
                            out.push(v);
                        }
                    }
                }
                return Ok(out);
            }
            let mut c = n.walk();
            for ch in n.named_children(&mut c) {
                stack.push(ch);
            }
        }
        Ok(out)
    }

    /// A PENCIL function (a parameter declared `pencil_array`, or
    /// `__attribute__((pencil))`) in the user's file is a region as a whole:
    /// array sizes come from the VLA declarations, and `restrict` says the
    /// arrays do not overlap. Every array parameter must then be declared
    /// `pencil_array`.
    fn pencil_function_region(
        &self,
        f: Node,
        typedefs: &BTreeMap<String, String>,
        globals: &BTreeMap<String, VarDecl>,
    ) -> Result<Option<Region>> {
        if !self.pp.is_main_file(f.start_position().row) {
            return Ok(None);
        }
        let Some(body) = f.child_by_field_name("body") else {
            return Ok(None);
        };
        // Reading the parameters recurses into their extents.
        let scanned = scan(f);
        if scanned.too_deep.is_some() || scanned.bad.is_some() {
            let head = &self.text(f)[..(body.start_byte() - f.start_byte())];
            let maybe_pencil =
                head.contains("pencil") || (head.contains("static") && head.contains("restrict"));
            if maybe_pencil {
                if let Some(d) = self.scan_error(&scanned, "PENCIL function") {
                    return Err(d);
                }
            }
            if scanned.too_deep.is_some() {
                return Ok(None);
            }
        }
        // A function describing accesses is a summary, even one that no
        // attribute names.
        let body_text = self.text(body);
        if body_text.contains("__pencil_use") || body_text.contains("__pencil_def") {
            return Ok(None);
        }
        let params = self.param_list(f, typedefs)?;
        let head = &self.text(f)[..(body.start_byte() - f.start_byte())];
        let marked = head.contains("__attribute__((pencil))");
        if !marked && !params.iter().any(|p| p.pencil_array) {
            return Ok(None);
        }
        for p in &params {
            if (!p.dims.is_empty() || p.pointer) && !p.pencil_array {
                return Err(Diagnostic::error(
                    Code::MissingPencilArray,
                    Some(at_in_source(&p.loc, &format!("{}[", p.name))),
                    format!("array parameter `{}` of the PENCIL function is not declared `pencil_array`", p.name),
                )
                .with_hint(format!(
                    "write `{} {}[pencil_array n]...`: PENCIL needs each array's size (static), a fixed base (const) and no aliasing (restrict)",
                    p.base_type, p.name
                )));
            }
        }
        // The body must start and end on lines of its own, so that the
        // generated code can replace whole lines.
        let open_row = body.start_position().row;
        let close_row = body.end_position().row;
        let mut c = body.walk();
        let stmts: Vec<Node> = body
            .named_children(&mut c)
            .filter(|n| n.kind() != "comment")
            .collect();
        let (Some(first), Some(last)) = (stmts.first(), stmts.last()) else {
            return Ok(None);
        };
        if first.start_position().row == open_row || last.end_position().row == close_row {
            return Ok(None);
        }
        self.check_translated(f, "PENCIL function")?;
        let mut symbols = globals.clone();
        for p in &params {
            symbols.insert(p.name.clone(), p.clone());
        }
        let mut out = Vec::new();
        let mut ignored = Vec::new();
        let _scope = self.enter_scope(symbols.keys().cloned());
        // `return;` as the last statement is allowed (single exit).
        let stmts: Vec<Node> = match stmts.last() {
            Some(l) if l.kind() == "return_statement" && self.text(*l).trim() == "return;" => {
                stmts[..stmts.len() - 1].to_vec()
            }
            _ => stmts,
        };
        self.stmt_list(&stmts, &mut out, &mut ignored)?;
        let function = self.function_name(f);
        // The region is the whole body: nothing of the call follows.
        let dead_after = symbols
            .values()
            .filter(|v| dead_after::candidate(v))
            .map(|v| v.name.clone())
            .collect();
        Ok(Some(Region {
            function,
            begin_line: self.pp.physical_line(open_row + 1),
            end_line: self.pp.physical_line(close_row.saturating_sub(1)),
            inclusion: None,
            body: out,
            symbols,
            loc: self.loc(f),
            ignored_pragmas: ignored,
            summaries: BTreeMap::new(),
            whole_function: true,
            inlined: Vec::new(),
            names: Arc::new(FileNames::default()),
            called: BTreeMap::new(),
            prototypes: BTreeMap::new(),
            dead_after,
        }))
    }

    fn regions_in_function(
        &self,
        f: Node,
        typedefs: &BTreeMap<String, String>,
        globals: &BTreeMap<String, VarDecl>,
        regions: &mut Vec<Region>,
    ) -> Result<()> {
        let Some(body) = f.child_by_field_name("body") else {
            return Ok(());
        };
        if !self.text(body).contains("scop") {
            return Ok(());
        }
        // The region's declarations come from the rest of the function,
        // and an error there may move what tree-sitter takes for the
        // region, so all of the function must be valid C.
        if has_scop_pragma(self.text(f)) && self.pp.is_user_code(f.start_position().row) {
            if let Some(d) = self.scan_error(&scan(f), "function that holds the region") {
                return Err(d);
            }
        }
        let name = f
            .child_by_field_name("declarator")
            .and_then(|d| find_function_name(d, self.src))
            .unwrap_or_else(|| "<function>".to_string());
        let mut symbols = globals.clone();
        for v in self.param_list(f, typedefs)? {
            symbols.insert(v.name.clone(), v);
        }
        let within = Within {
            function: f,
            in_loop: false,
        };
        self.regions_in_block(body, &name, within, typedefs, &mut symbols, regions)
    }

    fn regions_in_block(
        &self,
        block: Node,
        function: &str,
        within: Within,
        typedefs: &BTreeMap<String, String>,
        symbols: &mut BTreeMap<String, VarDecl>,
        regions: &mut Vec<Region>,
    ) -> Result<()> {
        let mut c = block.walk();
        let children: Vec<Node> = block.named_children(&mut c).collect();
        let mut i = 0;
        while i < children.len() {
            let ch = children[i];
            if ch.kind() == "declaration" {
                self.collect_declaration(ch, typedefs, symbols)?;
            } else if is_pragma(ch, self.src, "scop") {
                let end =
                    (i + 1..children.len()).find(|&j| is_pragma(children[j], self.src, "endscop"));
                let Some(end) = end else {
                    return Err(self
                        .err(
                            Code::UnbalancedRegion,
                            ch,
                            "`#pragma scop` without a matching `#pragma endscop`",
                        )
                        .with_hint("close the region with `#pragma endscop` in the same block"));
                };
                let row = ch.start_position().row;
                if !self.pp.is_user_code(row) {
                    self.warnings.borrow_mut().push(
                        Diagnostic::warning(
                            Code::UnbalancedRegion,
                            Some(self.loc(ch)),
                            "this region is in a header that the input includes through another header, and stays as it is",
                        )
                        .with_hint("pencilc compiles the regions of the input and of the headers it includes itself: include this header from the input file"),
                    );
                    i = end + 1;
                    continue;
                }
                let inclusion = self.inclusion(row);
                let mut body = Vec::new();
                let mut ignored = Vec::new();
                for s in &children[i + 1..end] {
                    if is_pragma(*s, self.src, "scop") {
                        return Err(self.err(Code::UnbalancedRegion, *s, "nested `#pragma scop`"));
                    }
                }
                self.check_utf8(
                    ch.start_position().row,
                    children[end].end_position().row,
                    "region",
                )?;
                {
                    let _scope = self.enter_scope(symbols.keys().cloned());
                    self.stmt_list(&children[i + 1..end], &mut body, &mut ignored)?;
                }
                let line_of = |r: usize| match inclusion {
                    Some(_) => self.pp.origin.get(r).map(|o| o.1).unwrap_or(0),
                    None => self.pp.physical_line(r),
                };
                regions.push(Region {
                    function: function.to_string(),
                    begin_line: line_of(ch.start_position().row),
                    end_line: line_of(children[end].start_position().row),
                    inclusion,
                    body,
                    symbols: symbols.clone(),
                    loc: self.loc(ch),
                    ignored_pragmas: ignored,
                    summaries: BTreeMap::new(),
                    whole_function: false,
                    inlined: Vec::new(),
                    names: Arc::new(FileNames::default()),
                    called: BTreeMap::new(),
                    prototypes: BTreeMap::new(),
                    dead_after: self.dead_after(within, children[end], symbols),
                });
                i = end + 1;
                continue;
            } else if is_pragma(ch, self.src, "endscop") {
                return Err(self.err(
                    Code::UnbalancedRegion,
                    ch,
                    "`#pragma endscop` without a preceding `#pragma scop`",
                ));
            } else if self.text(ch).contains("scop") {
                // Regions may sit inside nested blocks, and see the
                // iterator a `for (int i = ...)` around them declares.
                let mut inner = symbols.clone();
                if let Some(init) = ch.child_by_field_name("initializer") {
                    if ch.kind() == "for_statement" && init.kind() == "declaration" {
                        self.collect_declaration(init, typedefs, &mut inner)?;
                    }
                }
                let within = Within {
                    in_loop: within.in_loop
                        || matches!(
                            ch.kind(),
                            "for_statement" | "while_statement" | "do_statement"
                        ),
                    ..within
                };
                let mut c2 = ch.walk();
                for g in ch.named_children(&mut c2) {
                    if g.kind() == "compound_statement" {
                        self.regions_in_block(g, function, within, typedefs, &mut inner, regions)?;
                    }
                }
                if ch.kind() == "compound_statement" {
                    self.regions_in_block(ch, function, within, typedefs, &mut inner, regions)?;
                }
            }
            i += 1;
        }
        Ok(())
    }

    fn stmt(&self, n: Node, out: &mut Vec<Stmt>, ignored: &mut Vec<Loc>) -> Result<()> {
        match n.kind() {
            "expression_statement" => {
                let Some(e) = n.named_child(0) else {
                    return Ok(());
                };
                self.assignment(e, n, out)
            }
            "compound_statement" => {
                let mut c = n.walk();
                let children: Vec<Node> = n.named_children(&mut c).collect();
                let _scope = self.enter_scope([]);
                self.stmt_list(&children, out, ignored)
            }
            "for_statement" => self.for_loop(n, out, ignored),
            "while_statement" => self.while_loop(n, out, ignored),
            "break_statement" => {
                out.push(Stmt::Break(self.loc(n)));
                Ok(())
            }
            "continue_statement" => {
                out.push(Stmt::Continue(self.loc(n)));
                Ok(())
            }
            "declaration" => self.local_declaration(n, out),
            "if_statement" => {
                let cond = n
                    .child_by_field_name("condition")
                    .ok_or_else(|| self.syntax(n))?;
                let cond = self.expr(cond)?;
                let mut then_ = Vec::new();
                if let Some(t) = n.child_by_field_name("consequence") {
                    self.stmt(t, &mut then_, ignored)?;
                }
                let mut else_ = Vec::new();
                if let Some(e) = n.child_by_field_name("alternative") {
                    // tree-sitter-c wraps the else branch in an `else_clause`.
                    let e = if e.kind() == "else_clause" {
                        e.named_child(0).unwrap_or(e)
                    } else {
                        e
                    };
                    self.stmt(e, &mut else_, ignored)?;
                }
                out.push(Stmt::If {
                    cond,
                    then_,
                    else_,
                    loc: self.loc(n),
                });
                Ok(())
            }
            "preproc_call" => {
                ignored.push(self.loc(n));
                Ok(())
            }
            "comment" => Ok(()),
            // A label no `goto` of the function names is only a name: the
            // statement it labels is the region's (as pet reads it).
            "labeled_statement" if !self.label_is_a_target(n) => {
                let mut c = n.walk();
                let inner: Vec<Node> = n
                    .named_children(&mut c)
                    .filter(|k| k.kind() != "statement_identifier")
                    .collect();
                for k in inner {
                    self.stmt(k, out, ignored)?;
                }
                Ok(())
            }
            "do_statement" | "goto_statement" | "return_statement" | "switch_statement"
            | "labeled_statement" => {
                let what = n.kind().trim_end_matches("_statement");
                Err(self
                    .err(Code::UnsupportedControl, n, format!("`{}` is not allowed in a PENCIL region", what))
                    .with_hint("PENCIL regions are single-entry single-exit: use `for`, `while`, `if`, `break` and `continue`; `return` only as the last statement of a function"))
            }
            "ERROR" => Err(self.syntax(n)),
            other => Err(self
                .err(
                    Code::UnsupportedStatement,
                    n,
                    format!("unsupported statement ({})", other.replace('_', " ")),
                )
                .with_hint("a region may contain only for loops, if statements and assignments")),
        }
    }

    /// Whether a `goto` of the function around the labeled statement `n`
    /// names its label.
    fn label_is_a_target(&self, n: Node) -> bool {
        let Some(label) = n
            .child_by_field_name("label")
            .map(|l| self.text(l).to_string())
        else {
            return true;
        };
        let mut scope = n;
        while let Some(p) = scope.parent() {
            scope = p;
            if p.kind() == "function_definition" {
                break;
            }
        }
        let mut stack = vec![scope];
        while let Some(x) = stack.pop() {
            if x.kind() == "goto_statement"
                && x.child_by_field_name("label").map(|l| self.text(l)) == Some(label.as_str())
            {
                return true;
            }
            let mut c = x.walk();
            stack.extend(x.named_children(&mut c));
        }
        false
    }

    /// The statements of a block, attaching each `#pragma pencil
    /// independent` to the `for` loop that follows it.
    fn stmt_list(
        &self,
        children: &[Node],
        out: &mut Vec<Stmt>,
        ignored: &mut Vec<Loc>,
    ) -> Result<()> {
        let mut pending: Option<(Node, Independent)> = None;
        for &ch in children {
            if is_pragma(ch, self.src, "pencil") {
                if let Some(ind) = self.pencil_pragma(ch)? {
                    pending = Some((ch, ind));
                }
                continue;
            }
            if ch.kind() == "comment" {
                continue;
            }
            match pending.take() {
                Some((_, ind)) if ch.kind() == "for_statement" => {
                    out.push(self.for_stmt(ch, ignored, Some(ind))?);
                }
                Some((p, _)) => {
                    return Err(self
                        .err(
                            Code::UnsupportedStatement,
                            p,
                            "`#pragma pencil independent` must be followed by a `for` loop",
                        )
                        .with_hint(
                            "put the pragma on the line right before the loop it applies to",
                        ))
                }
                None => self.stmt(ch, out, ignored)?,
            }
        }
        if let Some((p, _)) = pending {
            return Err(self
                .err(
                    Code::UnsupportedStatement,
                    p,
                    "`#pragma pencil independent` must be followed by a `for` loop",
                )
                .with_hint("put the pragma on the line right before the loop it applies to"));
        }
        Ok(())
    }

    /// `#pragma pencil independent [reduction(op: v, ...)]*`; `ivdep` and
    /// `region` are accepted and carry nothing pencilc uses (None). Read
    /// as tolerantly as C compilers read pragmas: any spacing, commas
    /// between clauses, clauses in any order, trailing semicolons. A word
    /// pencilc does not know makes the whole pragma a warning and ignored
    /// (dropping `independent` only keeps dependences, which is safe;
    /// keeping it without a misspelt reduction clause would not be).
    fn pencil_pragma(&self, n: Node) -> Result<Option<Independent>> {
        let arg = n
            .child_by_field_name("argument")
            .map(|a| self.text(a))
            .unwrap_or("");
        self.pencil_pragma_text(arg, self.loc(n))
    }

    /// `pencil_pragma` of the pragma's argument `arg` (`pencil ...`) at `at`.
    fn pencil_pragma_text(&self, arg: &str, at: Loc) -> Result<Option<Independent>> {
        let arg = arg.trim();
        let rest = arg.strip_prefix("pencil").unwrap_or(arg);
        let rest = rest
            .trim()
            .trim_end_matches(|c: char| c == ';' || c.is_whitespace());
        let bad = |msg: &str| {
            Diagnostic::error(Code::UnsupportedStatement, Some(at.clone()), msg.to_string())
                .with_hint("write `#pragma pencil independent` or `#pragma pencil independent reduction(+: x, y)`; operators: + - * min max")
        };
        let ignore = |msg: String, hint: String| {
            self.warnings.borrow_mut().push(
                Diagnostic::warning(
                    Code::UnsupportedStatement,
                    Some(at.clone()),
                    format!("{}; the pragma is ignored", msg),
                )
                .with_hint(hint),
            );
            Ok(None)
        };
        let mut independent = false;
        let mut reductions: Vec<(RedOp, Vec<String>)> = Vec::new();
        let mut sections: Vec<(String, Vec<String>)> = Vec::new();
        let mut cur = rest;
        loop {
            cur = cur.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
            if cur.is_empty() {
                break;
            }
            let word_len = cur
                .char_indices()
                .find(|&(i, c)| {
                    !(c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()))
                })
                .map(|(i, _)| i)
                .unwrap_or(cur.len());
            let word = &cur[..word_len];
            cur = &cur[word_len..];
            match word {
                "independent" => independent = true,
                "ivdep" | "region" => {}
                "reduction" => {
                    let after = cur.trim_start();
                    let Some(inner_start) = after.strip_prefix('(') else {
                        return Err(bad("malformed `reduction` clause: `(` expected"));
                    };
                    let Some(close) = inner_start.find(')') else {
                        return Err(bad("malformed `reduction` clause: `)` expected"));
                    };
                    let inner = &inner_start[..close];
                    let Some((op, vars)) = inner.split_once(':') else {
                        return Err(bad("a `reduction` clause needs `op: variables`"));
                    };
                    let op = match op.trim() {
                        "+" | "-" => RedOp::Add,
                        "*" => RedOp::Mul,
                        "min" => RedOp::Min,
                        "max" => RedOp::Max,
                        "&" => RedOp::BitAnd,
                        "|" => RedOp::BitOr,
                        "^" => RedOp::BitXor,
                        other => {
                            return Err(bad(&format!("unsupported reduction operator `{}`", other)))
                        }
                    };
                    let items: Vec<&str> = vars.split(',').map(|v| v.trim()).collect();
                    if items.iter().all(|v| v.is_empty()) {
                        return Err(bad("a `reduction` clause needs at least one variable"));
                    }
                    let mut vars = Vec::new();
                    for item in items {
                        let Some((name, subs)) = reduction_item(item) else {
                            return Err(bad(&format!(
                                "`{}` in a `reduction` clause is not a variable name or a part of an array (`A[i]`, subscripts that are names or integers)",
                                item
                            )));
                        };
                        // The variables the clause names where it stands
                        // (a local may have a new name, `declare`).
                        let name = self.resolve(&name).unwrap_or(name);
                        let subs: Vec<String> = subs
                            .into_iter()
                            .map(|s| self.resolve(&s).unwrap_or(s))
                            .collect();
                        if !subs.is_empty() {
                            sections.push((name.clone(), subs));
                        }
                        vars.push(name);
                    }
                    for v in &vars {
                        if let Some((other, _)) =
                            reductions.iter().find(|(o, vs)| *o != op && vs.contains(v))
                        {
                            return Err(bad(&format!(
                                "`{}` is a reduction of two operators ({} and {})",
                                v,
                                other.name(),
                                op.name()
                            )));
                        }
                    }
                    reductions.push((op, vars));
                    cur = &inner_start[close + 1..];
                }
                "" => {
                    let shown: String = cur.chars().take(20).collect();
                    return ignore(
                        format!("unexpected `{}` in `#pragma pencil`", shown.trim()),
                        "write `#pragma pencil independent` or `#pragma pencil independent reduction(+: x, y)`".into(),
                    );
                }
                other => {
                    let hint = match nearest_pragma_word(other) {
                        Some(w) => format!("did you mean `{}`?", w),
                        None => "known words: independent, reduction, ivdep, region".into(),
                    };
                    return ignore(format!("unknown `#pragma pencil` word `{}`", other), hint);
                }
            }
        }
        if !independent {
            if !reductions.is_empty() {
                return ignore(
                    "a `reduction` clause without `independent`".into(),
                    "write `#pragma pencil independent reduction(...)`".into(),
                );
            }
            if rest.is_empty() {
                return ignore(
                    "empty `#pragma pencil`".into(),
                    "write `#pragma pencil independent` before a loop whose iterations are independent".into(),
                );
            }
            return Ok(None);
        }
        Ok(Some(Independent {
            reductions,
            sections,
            loc: Some(at),
        }))
    }

    /// The `#pragma pencil` written between the header of the loop `n`
    /// and its body (`body_pragmas`), read as one before the loop.
    fn body_pragma(&self, n: Node) -> Result<Option<(Independent, Loc)>> {
        let Some(body) = n.child_by_field_name("body") else {
            return Ok(None);
        };
        let mut out = None;
        for p in self
            .body_pragmas
            .iter()
            .filter(|p| p.start > n.start_byte() && p.end <= body.start_byte())
        {
            let at = self.loc_of_bytes(p.start, p.end);
            if let Some(ind) = self.pencil_pragma_text(&p.argument, at.clone())? {
                if out.is_some() {
                    return Err(Diagnostic::error(
                        Code::UnsupportedStatement,
                        Some(at),
                        "a second `#pragma pencil independent` on one loop",
                    )
                    .with_hint("give each loop one pragma, with all its reduction clauses"));
                }
                out = Some((ind, at));
            }
        }
        Ok(out)
    }

    /// The location of the text from byte `start` to `end` (underlined to
    /// the end of its first line).
    fn loc_of_bytes(&self, start: usize, end: usize) -> Loc {
        let before = &self.src[..start];
        let row = before.iter().filter(|&&c| c == b'\n').count();
        let col = start
            - before
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(0, |k| k + 1);
        let len = self.src[start..end]
            .iter()
            .position(|&c| c == b'\n' || c == b'\r')
            .unwrap_or(end - start);
        self.pp.loc(row, col, len.max(1))
    }

    /// `T a = e, b[n];` inside a region: one `Stmt::Decl` per declarator.
    fn local_declaration(&self, n: Node, out: &mut Vec<Stmt>) -> Result<()> {
        let Some(ty) = n.child_by_field_name("type") else {
            return Err(self.syntax(n));
        };
        let base = self
            .text(ty)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if matches!(ty.kind(), "union_specifier" | "enum_specifier") {
            return Err(self
                .err(
                    Code::UnsupportedType,
                    ty,
                    format!("`{}` variables cannot be declared in a region", base),
                )
                .with_hint("declare scalars of arithmetic types and C99 arrays of them"));
        }
        let read_only = self.declares_const(n, &base);
        self.check_storage_class(n, read_only)?;
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            // The struct variable (if any) of the name before this
            // declaration: a new name for the declared one leaves it.
            let outer_struct = declared_name(d, self.src)
                .and_then(|name| self.struct_vars.borrow().get(&name).cloned());
            let Some(mut var) = self.declarator(d, &base)? else {
                return Err(self
                    .err(
                        Code::UnsupportedType,
                        d,
                        "this declaration is outside PENCIL",
                    )
                    .with_hint("declare scalars and C99 arrays with their extents"));
            };
            if var.pointer {
                return Err(self
                    .err(
                        Code::PointerArithmetic,
                        d,
                        "pointer variables cannot be declared in a region",
                    )
                    .with_hint("declare a C99 array with its extents instead"));
            }
            if ty.kind() == "struct_specifier" && var.members.is_empty() {
                let why = match self.struct_vars.borrow().get(&var.name) {
                    Some(structs::StructVar::Unusable(why)) => format!(": {}", why),
                    _ => String::new(),
                };
                return Err(self
                    .err(
                        Code::UnsupportedType,
                        ty,
                        format!("`{}` variables cannot be declared in a region{}", base, why),
                    )
                    .with_hint("declare scalars of arithmetic types, C99 arrays of them, or structs whose members are all of one arithmetic type"));
            }
            let init = match d.child_by_field_name("value") {
                // `T (*a)[n][m] = (T (*)[n][m]) buf;`: a pointer to rows of
                // a flat buffer, which `scop::reshape` makes an array of
                // that shape. The cast itself changes no value.
                Some(v)
                    if d.kind() == "init_declarator" && matches!(var.dims.first(), Some(None)) =>
                {
                    Some(self.reshaping_cast(v)?)
                }
                Some(v) if d.kind() == "init_declarator" => {
                    if v.kind() == "initializer_list" {
                        return Err(self
                            .err(
                                Code::UnsupportedStatement,
                                v,
                                "initializer lists are not supported in a region",
                            )
                            .with_hint("assign the elements in a loop"));
                    }
                    Some(self.expr(v)?)
                }
                _ => None,
            };
            var.read_only = read_only;
            let spelled = self.declare(&var.name);
            if spelled != var.name {
                let mut vars = self.struct_vars.borrow_mut();
                if let Some(v) = vars.remove(&var.name) {
                    vars.insert(spelled.clone(), v);
                }
                if let Some(v) = outer_struct {
                    vars.insert(var.name.clone(), v);
                }
                var.name = spelled;
            }
            out.push(Stmt::Decl {
                var,
                init,
                loc: self.loc(n),
            });
        }
        Ok(())
    }

    /// A declaration in a region makes a new object each time it runs,
    /// which is what its versions do (a kernel's or thread's local). A
    /// `static` local is one object for the whole program, initialised
    /// once, that keeps its value from one iteration and one call to the
    /// next; an `extern` or `_Thread_local` one names an object outside
    /// the region. Made local, each would compute something else (a
    /// counter reset every iteration), so they are errors, except
    /// `static const` with an initialiser: never written, and always its
    /// constant initial value, it is the same as an automatic `const`.
    fn check_storage_class(&self, n: Node, read_only: bool) -> Result<()> {
        let mut c = n.walk();
        let specs: Vec<Node> = n
            .children(&mut c)
            .filter(|k| k.kind() == "storage_class_specifier")
            .collect();
        for spec in specs {
            let word = self.text(spec).trim();
            let mut c2 = n.walk();
            let initialised = n
                .children_by_field_name("declarator", &mut c2)
                .all(|d| d.kind() == "init_declarator");
            let why = match word {
                "auto" | "register" => continue,
                "static" if read_only && initialised => continue,
                "static" => "a `static` local is one object for the whole program, initialised once, that keeps its value from one iteration and one call to the next; the region's parallel versions would make it a new variable each time",
                "extern" => "an `extern` declaration names an object outside the region, which the region's versions would make a new local variable",
                _ => "a thread-local variable is one object per thread of the program, which the region's versions would make a new local variable",
            };
            return Err(self
                .err(
                    Code::UnsupportedStatement,
                    spec,
                    format!("`{}` declarations are not supported in a region: {}", word, why),
                )
                .with_hint("declare the variable before `#pragma scop` (in the function, `static` if it must keep its value between calls, or at file scope): the region then reads and updates that one object"));
        }
        Ok(())
    }

    /// The buffer a pointer-to-array declaration of the region points to:
    /// `(T (*)[n]) buf` or `buf`.
    fn reshaping_cast(&self, v: Node) -> Result<Expr> {
        let mut v = v;
        while v.kind() == "parenthesized_expression" && v.named_child_count() == 1 {
            v = v.named_child(0).ok_or_else(|| self.syntax(v))?;
        }
        if v.kind() == "cast_expression" {
            let t = v
                .child_by_field_name("type")
                .ok_or_else(|| self.syntax(v))?;
            if !self.text(t).contains('*') {
                return Err(self
                    .err(
                        Code::PointerArithmetic,
                        t,
                        "a pointer to rows must be initialised with a pointer",
                    )
                    .with_hint(
                        "write `T (*a)[n] = (T (*)[n]) buf;` with `buf` a pointer or array of `T`",
                    ));
            }
            return self.reshaping_cast(
                v.child_by_field_name("value")
                    .ok_or_else(|| self.syntax(v))?,
            );
        }
        if v.kind() != "identifier" {
            return Err(self
                .err(
                    Code::PointerArithmetic,
                    v,
                    "a pointer to rows in a region must point to the start of a buffer the region names",
                )
                .with_hint("write `T (*a)[n] = (T (*)[n]) buf;` with `buf` a pointer parameter or array, without arithmetic"));
        }
        self.expr(v)
    }

    fn syntax(&self, n: Node) -> Diagnostic {
        self.err(Code::Syntax, n, "syntax error in the region")
            .with_hint("check the C syntax of this statement")
    }

    /// Appends the statement(s) of the expression statement `e`. A chain
    /// `a = b = e;` becomes `b = e; a = b;`, innermost first: in C the value
    /// of an assignment is what its left-hand side holds afterwards.
    /// PolyBench's deriche writes `a1 = a5 = k;`.
    fn assignment(&self, e: Node, stmt: Node, out: &mut Vec<Stmt>) -> Result<()> {
        let s = self.assignment_link(e, stmt, out)?;
        out.push(s);
        Ok(())
    }

    fn assignment_link(&self, e: Node, stmt: Node, out: &mut Vec<Stmt>) -> Result<Stmt> {
        match e.kind() {
            "assignment_expression" => {
                let lhs = e
                    .child_by_field_name("left")
                    .ok_or_else(|| self.syntax(e))?;
                let rhs = e
                    .child_by_field_name("right")
                    .ok_or_else(|| self.syntax(e))?;
                let mut inner = rhs;
                while inner.kind() == "parenthesized_expression" {
                    match inner.named_child(0) {
                        Some(x) => inner = x,
                        None => break,
                    }
                }
                let chained = if inner.kind() == "assignment_expression" {
                    let link = self.assignment_link(inner, stmt, out)?;
                    let Stmt::Assign { lhs: stored, .. } = &link else {
                        return Err(self.syntax(inner));
                    };
                    let stored = stored.clone();
                    out.push(link);
                    Some(stored)
                } else {
                    None
                };
                let op_node = e
                    .child_by_field_name("operator")
                    .ok_or_else(|| self.syntax(e))?;
                // `x op= e` with an operator the model keeps no update
                // form of is `x = x op (e)`: C evaluates `x` once, and the
                // region's left-hand sides have no side effects.
                let mut spelled_out = None;
                let op = match self.text(op_node) {
                    "=" => AssignOp::Assign,
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    "*=" => AssignOp::Mul,
                    "/=" => AssignOp::Div,
                    "%=" | "&=" | "|=" | "^=" | "<<=" | ">>=" => {
                        spelled_out = Some(match self.text(op_node) {
                            "%=" => BinOp::Rem,
                            "&=" => BinOp::BitAnd,
                            "|=" => BinOp::BitOr,
                            "^=" => BinOp::BitXor,
                            "<<=" => BinOp::Shl,
                            _ => BinOp::Shr,
                        });
                        AssignOp::Assign
                    }
                    other => {
                        return Err(self
                            .err(
                                Code::UnsupportedStatement,
                                op_node,
                                format!("assignment operator `{}` is not supported", other),
                            )
                            .with_hint("write the update out, e.g. `x = x % y`"))
                    }
                };
                let lhs = self.expr(lhs)?;
                if !matches!(lhs.kind, ExprKind::Ident(_) | ExprKind::Index(..)) {
                    return Err(Diagnostic::error(
                        Code::UnsupportedStatement,
                        Some(lhs.loc.clone()),
                        "the left-hand side of an assignment must be a variable or an array element",
                    ));
                }
                let rhs = match chained {
                    Some(stored) => stored,
                    None => self.expr(rhs)?,
                };
                let rhs = match spelled_out {
                    Some(b) => Expr {
                        loc: rhs.loc.clone(),
                        kind: ExprKind::Binary(b, Box::new(lhs.clone()), Box::new(rhs)),
                    },
                    None => rhs,
                };
                Ok(Stmt::Assign {
                    lhs,
                    op,
                    rhs,
                    loc: self.loc(stmt),
                    atomic: false,
                })
            }
            "update_expression" => {
                let arg = e
                    .child_by_field_name("argument")
                    .ok_or_else(|| self.syntax(e))?;
                let op = if self.text(e).contains("++") {
                    AssignOp::Add
                } else {
                    AssignOp::Sub
                };
                let lhs = self.expr(arg)?;
                let one = Expr {
                    kind: ExprKind::Int(1, "1".into()),
                    loc: lhs.loc.clone(),
                };
                Ok(Stmt::Assign {
                    lhs,
                    op,
                    rhs: one,
                    loc: self.loc(stmt),
                    atomic: false,
                })
            }
            "call_expression" => {
                if let Some(update) = self.atomic_update(e, stmt)? {
                    return Ok(update);
                }
                let call = self.expr(e);
                let Expr {
                    kind: ExprKind::Call(name, args),
                    ..
                } = call?
                else {
                    return Err(self.syntax(e));
                };
                let loc = self.loc(stmt);
                Ok(match name.as_str() {
                    "__pencil_assume" if args.len() == 1 => Stmt::Assume { cond: args[0].clone(), loc },
                    "__pencil_kill" if !args.is_empty() => Stmt::Kill { targets: args, loc },
                    "__pencil_assume" | "__pencil_kill" => {
                        return Err(self
                            .err(Code::UnsupportedStatement, e, format!("wrong number of arguments to `{}`", name))
                            .with_hint("`__pencil_assume(e)` takes one condition, `__pencil_kill(x, ...)` one or more variables or elements"))
                    }
                    _ => Stmt::Call { name, args, loc },
                })
            }
            _ => Err(self
                .err(
                    Code::UnsupportedStatement,
                    e,
                    "this expression statement is not an assignment",
                )
                .with_hint("a region may contain only for loops, if statements and assignments")),
        }
    }

    pub fn expr(&self, n: Node) -> Result<Expr> {
        let loc = self.loc(n);
        let mk = |kind| {
            Ok(Expr {
                kind,
                loc: loc.clone(),
            })
        };
        match n.kind() {
            "number_literal" => {
                let t = self.text(n);
                match parse_int_literal(t) {
                    Some(v) => mk(ExprKind::Int(v, t.to_string())),
                    // An integer constant that no C integer type holds has
                    // no type (C11 6.4.4p2); taken for a floating-point one,
                    // conversions chosen by type would go wrong.
                    None if is_integer_literal(t) && !fits_u64(t) => {
                        return Err(self
                            .err(
                                Code::UnsupportedStatement,
                                n,
                                format!(
                                    "integer constant `{}` is beyond 64-bit integers: no C integer type holds it",
                                    t
                                ),
                            )
                            .with_hint(
                                "write a value of at most 64 bits (18446744073709551615ULL), or a floating-point constant",
                            ))
                    }
                    None => mk(ExprKind::Float(t.to_string())),
                }
            }
            "char_literal" => {
                let t = self.text(n);
                let inner = t.trim_matches('\'');
                let v = if inner.len() == 1 {
                    inner.as_bytes()[0] as i64
                } else {
                    return Err(self.unsupported_expr(n));
                };
                mk(ExprKind::Int(v, t.to_string()))
            }
            "identifier" => {
                let name = self.text(n);
                if let Some(e) = self.enumerator(n, name) {
                    return e;
                }
                if !self.is_declared(name) {
                    return Err(self.undeclared(n, name));
                }
                let name = self.resolve(name).unwrap_or_else(|| name.to_string());
                mk(ExprKind::Ident(name))
            }
            "true" => mk(ExprKind::Int(1, "1".into())),
            "false" => mk(ExprKind::Int(0, "0".into())),
            "parenthesized_expression" => {
                let inner = n.named_child(0).ok_or_else(|| self.syntax(n))?;
                if inner.kind() == "comma_expression" {
                    return Err(self.unsupported_expr(inner));
                }
                self.expr(inner)
            }
            "subscript_expression" => {
                // An element of a struct's array member, `A[i].c[k]`.
                if let Some(r) = self.member_chain(n) {
                    return r;
                }
                let a = n
                    .child_by_field_name("argument")
                    .ok_or_else(|| self.syntax(n))?;
                let i = n
                    .child_by_field_name("index")
                    .ok_or_else(|| self.syntax(n))?;
                mk(ExprKind::Index(
                    Box::new(self.expr(a)?),
                    Box::new(self.expr(i)?),
                ))
            }
            "binary_expression" => {
                let l = n
                    .child_by_field_name("left")
                    .ok_or_else(|| self.syntax(n))?;
                let r = n
                    .child_by_field_name("right")
                    .ok_or_else(|| self.syntax(n))?;
                let op = n
                    .child_by_field_name("operator")
                    .map(|o| self.text(o))
                    .unwrap_or("");
                let op = match op {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "/" => BinOp::Div,
                    "%" => BinOp::Rem,
                    "<" => BinOp::Lt,
                    "<=" => BinOp::Le,
                    ">" => BinOp::Gt,
                    ">=" => BinOp::Ge,
                    "==" => BinOp::Eq,
                    "!=" => BinOp::Ne,
                    "&&" => BinOp::And,
                    "||" => BinOp::Or,
                    "&" => BinOp::BitAnd,
                    "|" => BinOp::BitOr,
                    "^" => BinOp::BitXor,
                    "<<" => BinOp::Shl,
                    ">>" => BinOp::Shr,
                    _ => return Err(self.unsupported_expr(n)),
                };
                mk(ExprKind::Binary(
                    op,
                    Box::new(self.expr(l)?),
                    Box::new(self.expr(r)?),
                ))
            }
            "unary_expression" => {
                let a = n
                    .child_by_field_name("argument")
                    .ok_or_else(|| self.syntax(n))?;
                let op = n
                    .child_by_field_name("operator")
                    .map(|o| self.text(o))
                    .unwrap_or("");
                let op = match op {
                    "-" => UnOp::Neg,
                    "+" => UnOp::Plus,
                    "!" => UnOp::Not,
                    "~" => UnOp::BitNot,
                    _ => return Err(self.unsupported_expr(n)),
                };
                mk(ExprKind::Unary(op, Box::new(self.expr(a)?)))
            }
            "conditional_expression" => {
                let c = n
                    .child_by_field_name("condition")
                    .ok_or_else(|| self.syntax(n))?;
                let t = n
                    .child_by_field_name("consequence")
                    .ok_or_else(|| self.syntax(n))?;
                let e = n
                    .child_by_field_name("alternative")
                    .ok_or_else(|| self.syntax(n))?;
                mk(ExprKind::Cond(
                    Box::new(self.expr(c)?),
                    Box::new(self.expr(t)?),
                    Box::new(self.expr(e)?),
                ))
            }
            "call_expression" => {
                let f = n
                    .child_by_field_name("function")
                    .ok_or_else(|| self.syntax(n))?;
                if let Some(cast) = self.typedef_cast(n, f)? {
                    return Ok(cast);
                }
                if f.kind() != "identifier" {
                    return Err(self
                        .err(
                            Code::PointerArithmetic,
                            f,
                            "calls through function pointers are not allowed",
                        )
                        .with_hint("call the function by name"));
                }
                let args_node = n
                    .child_by_field_name("arguments")
                    .ok_or_else(|| self.syntax(n))?;
                // Addresses of elements are arguments of call statements,
                // and of calls in expressions of functions the file only
                // declares (the model then checks the parameter is const).
                let mut args = Vec::new();
                let mut c = args_node.walk();
                for a in args_node.named_children(&mut c) {
                    if a.kind() == "comment" {
                        continue;
                    }
                    let address = a.kind() == "pointer_expression"
                        && a.child_by_field_name("operator")
                            .is_some_and(|o| self.text(o) == "&");
                    match a.child_by_field_name("argument") {
                        Some(x) if address => args.push(Expr {
                            kind: ExprKind::Unary(UnOp::AddrOf, Box::new(self.expr(x)?)),
                            loc: self.loc(a),
                        }),
                        _ => args.push(self.expr(a)?),
                    }
                }
                mk(ExprKind::Call(self.callee(self.text(f)), args))
            }
            "cast_expression" => {
                let t = n
                    .child_by_field_name("type")
                    .ok_or_else(|| self.syntax(n))?;
                let v = n
                    .child_by_field_name("value")
                    .ok_or_else(|| self.syntax(n))?;
                let ty = self
                    .text(t)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                let ty = self.typedefs.borrow().get(&ty).cloned().unwrap_or(ty);
                if ty.contains('*') {
                    return Err(self
                        .err(
                            Code::PointerArithmetic,
                            t,
                            "casts to pointer types are not allowed",
                        )
                        .with_hint("PENCIL regions use arrays, not pointers"));
                }
                mk(ExprKind::Cast(ty, Box::new(self.expr(v)?)))
            }
            "pointer_expression" => Err(self
                .err(
                    Code::PointerArithmetic,
                    n,
                    "pointer dereference and address-of are not allowed in a region",
                )
                .with_hint("index arrays with subscripts, e.g. `A[i]` instead of `*(A + i)`")),
            "field_expression" => match self.member_chain(n) {
                Some(r) => r,
                None => Err(self.syntax(n)),
            },
            "assignment_expression" | "update_expression" => Err(self
                .err(
                    Code::UnsupportedStatement,
                    n,
                    "assignments inside expressions are not allowed",
                )
                .with_hint("write each assignment as its own statement")),
            "ERROR" => Err(self.syntax(n)),
            _ => Err(self.unsupported_expr(n)),
        }
    }

    fn unsupported_expr(&self, n: Node) -> Diagnostic {
        self.err(
            Code::UnsupportedStatement,
            n,
            format!("unsupported expression ({})", n.kind().replace('_', " ")),
        )
        .with_hint("use arithmetic on scalars and array elements, and calls to math functions")
    }
}

/// The name a declarator declares (`t` of `t[n] = ...`), if it is a
/// variable's.
fn declared_name(d: Node, src: &[u8]) -> Option<String> {
    let mut cur = d;
    loop {
        match cur.kind() {
            "identifier" => return cur.utf8_text(src).ok().map(|s| s.to_string()),
            "init_declarator"
            | "parenthesized_declarator"
            | "array_declarator"
            | "pointer_declarator" => {
                cur = cur
                    .child_by_field_name("declarator")
                    .or_else(|| cur.named_child(0))?;
            }
            _ => return None,
        }
    }
}

fn find_function_name(d: Node, src: &[u8]) -> Option<String> {
    let mut cur = d;
    loop {
        match cur.kind() {
            "function_declarator" | "pointer_declarator" | "parenthesized_declarator" => {
                cur = cur
                    .child_by_field_name("declarator")
                    .or_else(|| cur.named_child(0))?;
            }
            "identifier" => return cur.utf8_text(src).ok().map(|s| s.to_string()),
            _ => return None,
        }
    }
}

/// `loc` with its column moved to where `needle` starts in the user's
/// line: macros such as `pencil_array` change columns in the preprocessed
/// text, not lines.
fn at_in_source(loc: &Loc, needle: &str) -> Loc {
    let line = std::fs::read_to_string(&loc.file).ok().and_then(|t| {
        t.lines()
            .nth((loc.line as usize).saturating_sub(1))
            .map(|l| l.to_string())
    });
    match line.and_then(|l| l.find(needle)) {
        Some(c) => Loc {
            col: c as u32 + 1,
            len: needle.len() as u32 - 1,
            ..loc.clone()
        },
        None => loc.clone(),
    }
}

/// A reduction clause's item: a variable, or a part of an array given by
/// leading subscripts that are names or integer literals (`hist[i]`, as
/// PENCIL image code writes it).
fn reduction_item(item: &str) -> Option<(String, Vec<String>)> {
    let (name, mut rest) = match item.find('[') {
        Some(p) => (item[..p].trim(), item[p..].trim()),
        None => (item, ""),
    };
    if !is_c_identifier(name) {
        return None;
    }
    let mut subs = Vec::new();
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[')?;
        let close = inner.find(']')?;
        let sub = inner[..close].trim();
        if !(is_c_identifier(sub) || parse_int_literal(sub).is_some()) {
            return None;
        }
        subs.push(sub.to_string());
        rest = inner[close + 1..].trim_start();
    }
    Some((name.to_string(), subs))
}

fn is_c_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && cs.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

/// The known `#pragma pencil` word a misspelt one most likely meant: the
/// nearest by edit distance, if within a third of its length (at least 2).
fn nearest_pragma_word(word: &str) -> Option<&'static str> {
    let w = word.to_ascii_lowercase();
    ["independent", "reduction", "ivdep", "region"]
        .into_iter()
        .map(|k| (edit_distance(&w, k), k))
        .filter(|&(d, k)| d <= (k.len() / 3).max(2))
        .min()
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut row = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            row.push(sub.min(prev[j + 1] + 1).min(row[j] + 1));
        }
        prev = row;
    }
    prev[b.len()]
}

/// The value of an integer constant expression made of literals.
pub fn const_value(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v, _) => Some(*v),
        ExprKind::Unary(UnOp::Neg, a) => const_value(a).map(|v| -v),
        ExprKind::Unary(UnOp::Plus, a) => const_value(a),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_value(a)?, const_value(b)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => Some(a / b),
                BinOp::Rem if b != 0 => Some(a % b),
                _ => None,
            }
        }
        // Outside the type's range the cast would wrap: not folded.
        ExprKind::Cast(t, a) => {
            let v = const_value(a)?;
            let (lo, hi) = crate::front::syntax::integer_range(t)?;
            (lo <= v as i128 && v as i128 <= hi).then_some(v)
        }
        _ => None,
    }
}

/// `t` is an integer constant of C (whatever its value), not a floating one.
fn is_integer_literal(t: &str) -> bool {
    let s = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if s.starts_with("0x") || s.starts_with("0X") {
        return !s.contains(['.', 'p', 'P']);
    }
    !s.contains(['.', 'e', 'E']) && !t.ends_with(['f', 'F'])
}

/// The integer constant `t` is at most `u64::MAX`.
fn fits_u64(t: &str) -> bool {
    let s = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).is_ok();
    }
    if s.len() > 1 && s.starts_with('0') {
        return u64::from_str_radix(&s[1..], 8).is_ok();
    }
    s.parse::<u64>().is_ok()
}

fn parse_int_literal(t: &str) -> Option<i64> {
    let s = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if s.starts_with("0x") || s.starts_with("0X") {
        return i64::from_str_radix(&s[2..], 16).ok();
    }
    if s.contains(['.', 'e', 'E', 'p', 'P']) || t.ends_with(['f', 'F']) {
        return None;
    }
    if s.len() > 1 && s.starts_with('0') {
        return i64::from_str_radix(&s[1..], 8).ok();
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literals() {
        assert_eq!(parse_int_literal("42"), Some(42));
        assert_eq!(parse_int_literal("0x10"), Some(16));
        assert_eq!(parse_int_literal("010"), Some(8));
        assert_eq!(parse_int_literal("7UL"), Some(7));
        assert_eq!(parse_int_literal("1.5"), None);
        assert_eq!(parse_int_literal("1e3"), None);
        assert_eq!(parse_int_literal("2.0f"), None);
        assert_eq!(parse_int_literal("99999999999999999999999"), None);
        assert!(is_integer_literal("99999999999999999999999"));
        assert!(is_integer_literal("18446744073709551615UL"));
        assert!(fits_u64("14695981039346656037ull"));
        assert!(fits_u64("0xffffffffffffffff"));
        assert!(!fits_u64("99999999999999999999999"));
        assert!(!fits_u64("0x1ffffffffffffffff"));
        assert!(is_integer_literal("0x1e3"));
        assert!(!is_integer_literal("1e3"));
        assert!(!is_integer_literal("0x1p3"));
        assert!(!is_integer_literal("2.0f"));
    }

    #[test]
    fn misspelt_pragma_words_get_the_nearest_known_one() {
        assert_eq!(nearest_pragma_word("indepenent"), Some("independent"));
        assert_eq!(nearest_pragma_word("Independent"), Some("independent"));
        assert_eq!(nearest_pragma_word("reducton"), Some("reduction"));
        assert_eq!(nearest_pragma_word("ivdpe"), Some("ivdep"));
        assert_eq!(nearest_pragma_word("parallel"), None);
    }
}
