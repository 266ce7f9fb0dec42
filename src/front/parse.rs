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
mod attributes;
mod body_pragmas;
mod call_values;
pub mod called;
mod casts;
mod companions;
mod dead_after;
mod dead_memory;
mod decls;
mod do_while;
mod effects;
mod enums;
mod exprs;
mod file_index;
mod initializers;
mod inline;
mod inline_flow;
mod loops;
mod mem_calls;
mod omp;
mod outlived;
pub use outlived::Outlived;
mod pragmas;
mod regions;
mod scopes;
mod sizeof;
mod stmts;
mod structs;
mod switch;
use exprs::*;
pub use exprs::{const_value, signed_const_value};
pub use loops::linear;
use pragmas::*;

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
    /// OpenMP directives in the region that bind to a team of threads
    /// outside it (`#pragma omp for` with no `parallel` of the region
    /// around it): the region keeps the user's code (`omp`).
    pub omp_outside: Vec<Loc>,
    /// A name the region declares at its top and the code after it uses
    /// (`outlived`): the region keeps the user's code.
    pub outlived: Option<Outlived>,
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
    /// What the model needs of the functions of the file that regions
    /// call as statements (`called::CallFacts`); a function missing here
    /// is one the file only declares.
    pub call_facts: BTreeMap<String, called::CallFacts>,
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
    /// The region's bytes in the preprocessed text (its pragmas, or the
    /// body of a function that is the region): what `dead_memory` looks
    /// around.
    pub span: std::ops::Range<usize>,
    /// Arrays that would be in `dead_after` if no other file called the
    /// region's function, which is not `static` (`--whole-program`): a
    /// `-v` note says so.
    pub dead_if_whole_program: BTreeSet<String>,
    /// The values every call of the region's function in the file passes
    /// for its integer parameters, where they are constants
    /// (`call_values`): what the GPU model profiles at.
    pub call_values: BTreeMap<String, i64>,
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
    parse_file_with(pp, limit, Arc::new(FileNames::collect(pp, "")), false)
}

/// `parse_file` with the names of the file (`names`, its device code's
/// included) already collected. With `whole_program`, no other file calls
/// the file's functions (`--whole-program`): what the file's own calls of
/// a function say holds for every call, `static` or not (`main` aside).
pub fn parse_file_with(
    pp: &Preprocessed,
    limit: Duration,
    names: Arc<FileNames>,
    whole_program: bool,
) -> Result<Parsed> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .map_err(|e| Diagnostic::internal("front", format!("tree-sitter: {}", e)))?;
    let deadline = Instant::now() + limit;
    // Returning true stops the parse.
    let mut out_of_time = |_: &tree_sitter::ParseState| Instant::now() > deadline;
    let (blanked, body_pragmas) = body_pragmas::blank(&attributes::blank_trailing(&pp.text));
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
        flattened: RefCell::new(BTreeSet::new()),
        loop_declared: RefCell::new(BTreeSet::new()),
        warnings: RefCell::new(Vec::new()),
        loop_depth: Cell::new(0),
        typedefs: RefCell::new(BTreeMap::new()),
        array_typedefs: RefCell::new(BTreeMap::new()),
        local_typedefs: RefCell::new(BTreeSet::new()),
        enums: RefCell::new(BTreeMap::new()),
        structs: RefCell::new(BTreeMap::new()),
        struct_vars: RefCell::new(BTreeMap::new()),
        declared: RefCell::new(BTreeMap::new()),
        member_rows: Cell::new(false),
        body_pragmas,
        omp_teams: Cell::new(0),
        omp_outside: RefCell::new(Vec::new()),
        omp_in_functions: RefCell::new(BTreeMap::new()),
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
        // A typedef declared inside a function may hide a file-scope one
        // of its name, in that function only: such names resolve nowhere
        // (`decls::local_typedef`), rather than to the wrong type.
        *cx.local_typedefs.borrow_mut() = cx.local_typedef_names(root);
        cx.forget_local_typedefs(&mut typedefs);
        *cx.typedefs.borrow_mut() = typedefs;
        let structs = cx.collect_structs(root);
        *cx.structs.borrow_mut() = structs;
    }
    // Again, now that `sizeof` knows the typedefs (`enum { LANES =
    // sizeof(vec4) / sizeof(float) }`); the first pass gave array
    // typedefs their extents (`typedef double row_t[K]`).
    let enumerators = cx.collect_enumerators(root);
    *cx.enums.borrow_mut() = enumerators;
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
            // `#pragma scop` outside a function (as Pluto's tests write
            // it): no region of C's, said where it is.
            "preproc_call" if is_scop_pragma(cx.text(child)) => {
                cx.warnings.borrow_mut().push(
                    Diagnostic::warning(
                        Code::UnbalancedRegion,
                        Some(cx.loc(child)),
                        "`#pragma scop` outside a function: pencilc translates regions inside function bodies, and copies this one unchanged",
                    )
                    .with_hint("put the loop nest and its pragmas in a function (`void kernel(...) { ... }`)"),
                );
            }
            _ => {}
        }
    }
    cx.forget_local_typedefs(&mut typedefs);
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
                cx.note_declared(globals.values().chain(params.iter()));
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
    let defined: BTreeSet<String> = functions.iter().map(|f| cx.function_name(*f)).collect();
    let mut prototypes = cx.prototypes(root, &typedefs);
    prototypes.retain(|p, _| !defined.contains(p) && !summary_of.contains_key(p));
    // Functions the user's file declares that get no writable pointer: a
    // call in an expression is taken as pure, in a called function's body
    // as in a region.
    let file_functions = effects::FileFunctions {
        pure_declared: prototypes
            .iter()
            .filter(|(_, w)| w.as_ref().is_some_and(|w| !w.contains(&true)))
            .map(|(n, _)| n.clone())
            .collect(),
        declared: cx
            .declared_functions(root, |row| cx.pp.is_main_file(row))
            .into_iter()
            .filter(|n| !defined.contains(n))
            .collect(),
        library: {
            let user = cx.declared_functions(root, |row| !cx.pp.is_system_header(row));
            cx.declared_functions(root, |row| cx.pp.is_system_header(row))
                .into_iter()
                .filter(|n| !user.contains(n) && !defined.contains(n))
                .filter(|n| effects::library_effects(n))
                .collect()
        },
        defined: defined.clone(),
    };
    let file = file_index::FileIndex::new(
        cx.src,
        root,
        functions
            .iter()
            .map(|f| (cx.function_name(*f), *f))
            .collect(),
        whole_program,
    );
    let (called, call_facts) =
        cx.called_functions(&regions, &functions, &typedefs, &globals, &file_functions);
    for r in &mut regions {
        r.called = called::reachable(&called, &r.body);
        for name in r.called.keys() {
            if let Some(at) = cx.omp_in_functions.borrow().get(name) {
                r.omp_outside.push(at.clone());
            }
        }
        r.call_facts = call_facts.clone();
        r.prototypes = prototypes.clone();
        if let Some(def) = functions
            .iter()
            .find(|f| cx.function_name(**f) == r.function)
        {
            let params = cx.param_names(*def);
            r.call_values = call_values::of(&file, &r.function, *def, &params);
            let vars = r
                .symbols
                .values()
                .filter(|v| v.storage != Storage::Global && v.rank() > 0 && v.members.is_empty())
                .map(|v| dead_memory::RegionVar {
                    name: &v.name,
                    param: v.storage == Storage::Param,
                });
            let (dead, if_whole) = file.dead_after_region(*def, &r.function, r.span.clone(), vars);
            r.dead_after.extend(dead);
            r.dead_if_whole_program = if_whole;
        }
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
    /// Names the region declared with a declaration statement so far,
    /// visible or not: the parser flattens blocks, so a later declaration
    /// of one of them, even where the first is out of scope, must get a
    /// name of its own (`declare`).
    flattened: RefCell<BTreeSet<String>>,
    /// Names loops declared as their iterators so far (`declare_as`).
    loop_declared: RefCell<BTreeSet<String>>,
    warnings: RefCell<Vec<Diagnostic>>,
    /// Loops around the statement being converted.
    loop_depth: Cell<usize>,
    /// The file's typedefs (name → resolved type), for casts: a cast keeps
    /// its type as text, and device code knows no user typedef.
    typedefs: RefCell<BTreeMap<String, String>>,
    /// The file's array typedefs (`typedef double row_t[50];`): name →
    /// element type and extents, outermost first (`decls::element_type`).
    array_typedefs: RefCell<BTreeMap<String, (String, Vec<Option<Expr>>)>>,
    /// Names that a typedef inside a function declares: never resolved
    /// (`decls::local_typedef`).
    local_typedefs: RefCell<BTreeSet<String>>,
    /// The file's enumeration constants (`enums.rs`).
    enums: RefCell<BTreeMap<String, enums::Enumerator>>,
    /// The layouts of the file's struct types (`structs.rs`), by
    /// `struct TAG` or by the untagged specifier's text.
    structs: RefCell<BTreeMap<String, std::result::Result<structs::Layout, String>>>,
    /// The variables of struct type declared so far in the function being
    /// converted (globals, parameters, then locals, a later declaration
    /// of a name replacing an earlier one).
    struct_vars: RefCell<BTreeMap<String, structs::StructVar>>,
    /// The types of the variables visible in the code being converted, by
    /// their region names, for casts of their addresses (`casts.rs`).
    declared: RefCell<BTreeMap<String, casts::Declared>>,
    /// Set while a call's argument is converted: an array member there is
    /// a row (`structs::MEMBER_ROW`), taken by the first member access.
    member_rows: Cell<bool>,
    /// `#pragma pencil` lines between a `for` header and its body,
    /// blanked in `src` (`body_pragmas`).
    body_pragmas: Vec<body_pragmas::BodyPragma>,
    /// `parallel` directives of the region around the statement being
    /// converted (`omp`).
    omp_teams: Cell<usize>,
    /// OpenMP directives of the region that bind to a team outside it
    /// (`omp::Cx::note_omp`).
    omp_outside: RefCell<Vec<Loc>>,
    /// Functions regions call whose bodies hold such directives, with the
    /// first one.
    omp_in_functions: RefCell<BTreeMap<String, Loc>>,
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

    /// The functions the user's own file declares at file scope (with or
    /// without a body elsewhere).
    /// The functions declared (with or without a body elsewhere) at the
    /// rows of the preprocessed text that `at` accepts, whatever they
    /// return (`void *memset(...)` too).
    fn declared_functions(&self, root: Node, at: impl Fn(usize) -> bool) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut c = root.walk();
        for d in root.children(&mut c) {
            if d.kind() != "declaration" || !at(d.start_position().row) {
                continue;
            }
            let mut dc = d.walk();
            for decl in d.children_by_field_name("declarator", &mut dc) {
                if declares_function(decl) {
                    out.extend(find_function_name(decl, self.src));
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
        match self.implicit_builtin(name).and_then(|b| b.model_name) {
            Some(model) => model.to_string(),
            None => name.to_string(),
        }
    }

    /// The builtin `name` is, where the file calls it without declaring
    /// it (`front::implicit`).
    fn implicit_builtin(&self, name: &str) -> Option<&'static super::implicit::Builtin> {
        let implicit = self
            .names
            .implicit_builtins
            .get()
            .is_some_and(|s| s.contains(name));
        implicit.then(|| super::implicit::builtin(name)).flatten()
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

    /// The diagnostic for what `scan` found in code pencilc translates.
    fn scan_error(&self, s: &Scan, what: &str) -> Option<Diagnostic> {
        if let Some(n) = s.bad {
            // `A[i, k]`: valid C (the comma operator: `A[k]`) that the C
            // grammar pencilc parses with has no subscript for.
            if !n.is_missing()
                && n.parent()
                    .is_some_and(|p| p.kind() == "subscript_expression")
                && self.text(n).trim_end().ends_with(',')
            {
                return Some(
                    self.err(
                        Code::UnsupportedStatement,
                        n,
                        "a comma operator in a subscript (`A[i, k]`, which C reads as `A[k]`) is not translated",
                    )
                    .with_hint("write the subscript you mean: `A[k]`, or `A[i][k]` for an element of a 2-d array"),
                );
            }
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
}

/// The name a declarator declares (`t` of `t[n] = ...`), if it is a
/// variable's or a typedef's (`row_t` of `typedef int row_t[3];`).
fn declared_name(d: Node, src: &[u8]) -> Option<String> {
    let mut cur = d;
    loop {
        match cur.kind() {
            // A typedef's declarator names a type.
            "identifier" | "type_identifier" | "primitive_type" => {
                return cur.utf8_text(src).ok().map(|s| s.to_string())
            }
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

/// Whether a declarator declares a function: `f(...)`, `*f(...)`,
/// `(f)(...)`, not a pointer to one (`(*f)(...)`).
fn declares_function(d: Node) -> bool {
    match d.kind() {
        "function_declarator" => d.child_by_field_name("declarator").is_some_and(|inner| {
            inner.kind() != "parenthesized_declarator" || {
                inner
                    .named_child(0)
                    .is_some_and(|n| n.kind() == "identifier")
            }
        }),
        "pointer_declarator" => d
            .child_by_field_name("declarator")
            .is_some_and(declares_function),
        _ => false,
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
            // A typedef's declarator names a type.
            "identifier" | "type_identifier" | "primitive_type" => {
                return cur.utf8_text(src).ok().map(|s| s.to_string())
            }
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

/// The tree of `code` by tree-sitter's C grammar, for the tests of the
/// parser's parts that read trees themselves.
#[cfg(test)]
fn c_tree(code: &str) -> tree_sitter::Tree {
    let mut p = Parser::new();
    p.set_language(&tree_sitter_c::LANGUAGE.into()).unwrap();
    p.parse(code, None).unwrap()
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

/// Whether a preprocessor line is `#pragma scop`.
fn is_scop_pragma(text: &str) -> bool {
    let words: Vec<&str> = text.trim_start_matches('#').split_whitespace().collect();
    words.first() == Some(&"pragma") && words.get(1) == Some(&"scop")
}
