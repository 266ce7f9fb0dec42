//! Which arrays of a region hold nothing after it that the program reads:
//! a device version need not copy them back (`scop::Array::killed_after`).
//! PolyBench's temporaries are the common case: 2mm's `tmp`, deriche's
//! `y1` and `y2` (70 MB at LARGE), covariance's `data`, which `main`
//! allocates, passes to the kernel and frees without reading.
//!
//! The proof is by the file's text and follows one memory object: an
//! automatic array of a function, or the allocation that an automatic
//! pointer gets from `malloc` and nothing else. The region either uses
//! it directly (a local of the region's function), or through a parameter
//! of a `static` function that every call of the file passes such an
//! object to, each call in no loop. Around the region, or the call, the
//! object's name may appear
//!
//! - before: where it is declared or allocated, as a whole element
//!   (`A[i][j]`, not a row, nor `&A[i][j]`), and as the argument of a
//!   function of the file that uses its parameter only as whole elements;
//! - after: only as the argument of `free`;
//!
//! and nowhere else: no copy of the pointer, no address taken, no other
//! function that could keep it. A function with `goto`, `setjmp` or `asm`
//! proves nothing (code before may run after). Anything the proof cannot
//! follow keeps the copy back, as before.

use super::call_values::argument;
use super::file_index::{
    enclosing_function, has_nested_function, param_decls, param_names, variable_visible_at,
    FileIndex,
};
use std::collections::BTreeSet;
use std::ops::Range;
use tree_sitter::Node;

/// Functions whose result is memory no other pointer reaches: trusted by
/// name where the file does not define them (PolyBench's allocation
/// calls `polybench_alloc_data`).
const ALLOCATORS: [&str; 4] = ["malloc", "calloc", "aligned_alloc", "polybench_alloc_data"];

/// Functions after whose call the memory is gone, likewise
/// (`POLYBENCH_FREE_ARRAY` calls `polybench_free_data`).
const DEALLOCATORS: [&str; 2] = ["free", "polybench_free_data"];

/// What of the region's variables the proof looks at.
pub(super) struct RegionVar<'a> {
    pub name: &'a str,
    /// A parameter of the region's function (else a local of it).
    pub param: bool,
}

impl<'t> FileIndex<'t> {
    /// The variables among `vars` whose memory is dead after the region
    /// that occupies bytes `span` of function `def` (named `function`),
    /// and the parameters that would be if no other file called the
    /// function (it is not `static`: `--whole-program` would say so).
    pub fn dead_after_region<'a>(
        &self,
        def: Node<'t>,
        function: &str,
        span: Range<usize>,
        vars: impl Iterator<Item = RegionVar<'a>>,
    ) -> (BTreeSet<String>, BTreeSet<String>) {
        let (mut dead, mut if_whole) = (BTreeSet::new(), BTreeSet::new());
        if !self.straight(def, span.start) {
            return (dead, if_whole);
        }
        let file_only = self.file_only(def, function);
        for v in vars {
            if !v.param {
                if self.local_dead_outside(def, v.name, &span) {
                    dead.insert(v.name.to_string());
                }
            } else if self.param_unused_outside(def, v.name, &span)
                && self.dead_at_every_call(function, def, v.name)
            {
                if file_only {
                    dead.insert(v.name.to_string());
                } else if function != "main" {
                    if_whole.insert(v.name.to_string());
                }
            }
        }
        (dead, if_whole)
    }

    /// Whether no code of `f` before byte `at` can run after it: `at` is
    /// in no loop, and `f` has no jumps.
    fn straight(&self, f: Node<'t>, at: usize) -> bool {
        if self.has_jumps(f) || has_nested_function(f) {
            return false;
        }
        let Some(mut n) = f.descendant_for_byte_range(at, at) else {
            return false;
        };
        while let Some(p) = n.parent() {
            if p == f {
                return true;
            }
            if matches!(
                p.kind(),
                "for_statement" | "while_statement" | "do_statement"
            ) {
                return false;
            }
            n = p;
        }
        false
    }

    /// Parameter `name` of `f` is an array of numbers that `f` outside
    /// `span` uses only as whole elements before it and frees after it:
    /// what the region leaves in it reaches the caller only.
    fn param_unused_outside(&self, f: Node<'t>, name: &str, span: &Range<usize>) -> bool {
        let Some(rank) = self.param_rank(f, name) else {
            return false;
        };
        let declared = self
            .mentions(f, name)
            .into_iter()
            .filter(|m| declaration_of(*m).is_some())
            .count();
        declared == 1 && self.mentions_allow_death(f, name, rank, span, false)
    }

    /// Local `name` of `f`, an automatic array of numbers or a pointer
    /// that only allocations give values, is dead after `span`.
    fn local_dead_outside(&self, f: Node<'t>, name: &str, span: &Range<usize>) -> bool {
        let decls: Vec<(Node, Node)> = self
            .mentions(f, name)
            .into_iter()
            .filter_map(declaration_of)
            .collect();
        let [(decl, declarator)] = decls.as_slice() else {
            return false;
        };
        if decl.kind() != "declaration" || !numbers(*decl, self.src) || storage(*decl) {
            return false;
        }
        let Some((rank, pointer)) = shape(*declarator) else {
            return false;
        };
        if pointer {
            // Its value, if it has one, comes from an allocation.
            if let Some(v) = declarator.child_by_field_name("value") {
                if !self.allocation(v) {
                    return false;
                }
            }
        }
        self.mentions_allow_death(f, name, rank, span, pointer)
    }

    /// Whether every call of `function` (defined as `def`) in the file
    /// passes, for parameter `param`, a local of the calling function that
    /// is dead after the call (other files' calls aside).
    fn dead_at_every_call(&self, function: &str, def: Node<'t>, param: &str) -> bool {
        if !self.called_by_name_only(function) {
            return false;
        }
        let calls = self.calls_of(function);
        let Some(k) = param_names(def, self.src).iter().position(|p| p == param) else {
            return false;
        };
        calls.iter().all(|call| self.dead_after_call(*call, k))
    }

    /// Argument `k` of `call` names a local of the calling function that
    /// nothing reads after the call.
    fn dead_after_call(&self, call: Node<'t>, k: usize) -> bool {
        let Some(name) = argument(call, k).and_then(|a| object(a, self.src)) else {
            return false;
        };
        let Some(caller) = enclosing_function(call) else {
            return false;
        };
        // Passed once: another parameter of the same call is another name
        // for it, which the callee may read after the region.
        let Some(args) = call.child_by_field_name("arguments") else {
            return false;
        };
        mentions(args, self.src, name).len() == 1
            && self.straight(caller, call.start_byte())
            && self.local_dead_outside(caller, name, &call.byte_range())
    }

    /// Every mention of `name` in `f` outside `span` (other than its
    /// declaration) is one that leaves the object dead after `span`.
    fn mentions_allow_death(
        &self,
        f: Node<'t>,
        name: &str,
        rank: usize,
        span: &Range<usize>,
        allocated: bool,
    ) -> bool {
        // Where `span` is a call, the rest of its full expression is
        // neither before nor after it: C leaves the order of operands and
        // arguments unspecified (`x = A[3] + f(A)` may read `A[3]` after
        // the call), so a mention there keeps the object live.
        let full = f
            .descendant_for_byte_range(span.start, span.end)
            .filter(|c| c.kind() == "call_expression" && c.byte_range() == *span)
            .and_then(full_expression)
            .map(|s| s.byte_range());
        self.mentions(f, name).into_iter().all(|m| {
            let at = m.start_byte();
            if full
                .as_ref()
                .is_some_and(|r| r.contains(&at) && !span.contains(&at))
            {
                return false;
            }
            if declaration_of(m).is_some() || in_sizeof(m, f) {
                return true;
            }
            if let Some((call, k)) = as_argument(m, self.src) {
                let Some(callee) = call
                    .child_by_field_name("function")
                    .filter(|c| c.kind() == "identifier")
                    .map(|c| self.text(c))
                else {
                    return false;
                };
                // The call that `span` is, or one in the region: a
                // function there could keep a pointer as well.
                if call.byte_range() == *span {
                    return true;
                }
                // A variable of the callee's name (a function pointer)
                // hides the function: the call goes where it points.
                if self.hidden(call, callee) {
                    return false;
                }
                if span.contains(&at) {
                    // PENCIL's summaries keep no pointer; a function the
                    // file names `__pencil_...` is the file's.
                    return (super::called::PENCIL_STATEMENT_BUILTINS.contains(&callee)
                        && !self.defined.contains_key(callee))
                        || self.elements_only(callee, k);
                }
                let freed = DEALLOCATORS.contains(&callee)
                    && !self.defined.contains_key(callee)
                    && !self.hidden(call, callee)
                    && call
                        .parent()
                        .is_some_and(|p| p.kind() == "expression_statement");
                return freed || (at < span.start && self.elements_only(callee, k));
            }
            if span.contains(&at) {
                return true;
            }
            at < span.start
                && (element_use(m, self.src, rank) || (allocated && self.allocated_here(m)))
        })
    }

    /// `m` is the left side of `name = <allocation>;`, whose value goes
    /// nowhere else (`view = T = malloc(...)` would name the memory twice).
    fn allocated_here(&self, m: Node) -> bool {
        let Some(p) = m.parent() else {
            return false;
        };
        p.kind() == "assignment_expression"
            && p.parent()
                .is_some_and(|s| s.kind() == "expression_statement")
            && p.child_by_field_name("left") == Some(m)
            && p.child_by_field_name("operator")
                .is_some_and(|o| self.text(o) == "=")
            && p.child_by_field_name("right")
                .is_some_and(|r| self.allocation(r))
    }

    /// `e` is a call of an allocator (through casts and parentheses).
    fn allocation(&self, e: Node) -> bool {
        let e = strip(e);
        e.kind() == "call_expression"
            && e.child_by_field_name("function").is_some_and(|c| {
                let name = self.text(c);
                ALLOCATORS.contains(&name)
                    && !self.defined.contains_key(name)
                    && !self.hidden(e, name)
            })
    }

    /// Whether a variable named `callee` (a function pointer) is visible
    /// where `call` is (`variable_visible_at`): the call then is no call
    /// of the function of that name.
    fn hidden(&self, call: Node, callee: &str) -> bool {
        variable_visible_at(call, callee, self.src)
    }

    /// Function `callee` of the file uses its parameter `k`, an array of
    /// numbers, only as whole elements: it keeps no pointer into it.
    fn elements_only(&self, callee: &str, k: usize) -> bool {
        let Some(g) = self.defined.get(callee) else {
            return false;
        };
        let Some(p) = param_names(*g, self.src).get(k).cloned() else {
            return false;
        };
        let Some(rank) = self.param_rank(*g, &p) else {
            return false;
        };
        self.mentions(*g, &p).into_iter().all(|m| {
            // The parameter's own declarator, and no other declaration.
            match declaration_of(m) {
                Some((d, _)) => d.kind() == "parameter_declaration",
                None => in_sizeof(m, *g) || element_use(m, self.src, rank),
            }
        })
    }

    /// The rank of parameter `name` of `f`, an array of numbers or a
    /// pointer to them.
    fn param_rank(&self, f: Node, name: &str) -> Option<usize> {
        let decl = param_decls(f).into_iter().find(|p| {
            p.child_by_field_name("declarator")
                .and_then(|d| super::declared_name(d, self.src))
                .as_deref()
                == Some(name)
        })?;
        if !numbers(decl, self.src) {
            return None;
        }
        shape(decl.child_by_field_name("declarator")?).map(|(rank, _)| rank)
    }
}

/// The identifiers spelled `name` under `n`.
fn mentions<'t>(n: Node<'t>, src: &[u8], name: &str) -> Vec<Node<'t>> {
    let mut out = Vec::new();
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if x.kind() == "identifier" && x.utf8_text(src) == Ok(name) {
            out.push(x);
        }
        let mut c = x.walk();
        stack.extend(x.children(&mut c));
    }
    out
}

/// The declaration (or parameter declaration) whose declarator identifier
/// `m` is, with the declarator (the `init_declarator` where there is one).
fn declaration_of(m: Node) -> Option<(Node, Node)> {
    let mut n = m;
    loop {
        let p = n.parent()?;
        match p.kind() {
            "array_declarator" | "pointer_declarator" | "init_declarator"
                if p.child_by_field_name("declarator") == Some(n) =>
            {
                n = p
            }
            "parenthesized_declarator" => n = p,
            "declaration" | "parameter_declaration" => {
                let mut c = p.walk();
                let found = p
                    .children_by_field_name("declarator", &mut c)
                    .any(|d| d == n);
                return found.then_some((p, n));
            }
            _ => return None,
        }
    }
}

/// A declarator's rank, and whether its outermost dimension is a pointer,
/// where it declares an array or a pointer to elements or rows (`A[n][m]`,
/// `*p`, `(*p)[m]`): not an array of pointers, a pointer to pointers, or a
/// function.
fn shape(d: Node) -> Option<(usize, bool)> {
    // Outermost first: each array or pointer declarator around the name.
    let mut pointers = Vec::new();
    let mut d = d;
    loop {
        match d.kind() {
            "identifier" => break,
            "init_declarator" => d = d.child_by_field_name("declarator")?,
            "parenthesized_declarator" => d = d.named_child(0)?,
            "array_declarator" | "pointer_declarator" => {
                pointers.push(d.kind() == "pointer_declarator");
                d = d.child_by_field_name("declarator")?;
            }
            _ => return None,
        }
    }
    let pointer = pointers.last() == Some(&true);
    // Only the declarator right around the name may be a pointer.
    let rows = &pointers[..pointers.len().saturating_sub(1)];
    (!pointers.is_empty() && !rows.contains(&true)).then_some((pointers.len(), pointer))
}

/// A declaration's type is a number: `double`, `unsigned long`, not a
/// struct, whose members could hold pointers, or a typedef; and not
/// `volatile`, whose every store the program may observe.
fn numbers(decl: Node, src: &[u8]) -> bool {
    let mut c = decl.walk();
    let volatile = decl
        .children(&mut c)
        .any(|n| n.kind() == "type_qualifier" && n.utf8_text(src) == Ok("volatile"));
    !volatile
        && decl
            .child_by_field_name("type")
            .is_some_and(|t| matches!(t.kind(), "primitive_type" | "sized_type_specifier"))
}

/// A storage class (`static`, `extern`...): not an automatic variable.
fn storage(decl: Node) -> bool {
    let mut c = decl.walk();
    let found = decl
        .children(&mut c)
        .any(|n| n.kind() == "storage_class_specifier");
    found
}

/// `e` without the parentheses and casts around it.
fn strip(e: Node) -> Node {
    let mut e = e;
    loop {
        e = match e.kind() {
            "parenthesized_expression" => match e.named_child(0) {
                Some(x) => x,
                None => return e,
            },
            "cast_expression" => match e.child_by_field_name("value") {
                Some(x) => x,
                None => return e,
            },
            _ => return e,
        };
    }
}

/// The variable an argument passes: `v`, `*v`, `(T *) v`, PolyBench's
/// `(*(v))`.
fn object<'s>(arg: Node, src: &'s [u8]) -> Option<&'s str> {
    let mut e = strip(arg);
    while e.kind() == "pointer_expression"
        && e.child_by_field_name("operator")
            .is_some_and(|o| o.utf8_text(src) == Ok("*"))
    {
        e = strip(e.child_by_field_name("argument")?);
    }
    (e.kind() == "identifier")
        .then(|| e.utf8_text(src).ok())
        .flatten()
}

/// The call and argument position where `m` is passed whole (through
/// parentheses, casts and `*`), as `object` reads it.
fn as_argument<'t>(m: Node<'t>, src: &[u8]) -> Option<(Node<'t>, usize)> {
    let mut n = m;
    loop {
        let p = n.parent()?;
        match p.kind() {
            "parenthesized_expression" => {}
            "cast_expression" if p.child_by_field_name("value") == Some(n) => {}
            "pointer_expression"
                if p.child_by_field_name("operator")
                    .is_some_and(|o| o.utf8_text(src) == Ok("*")) => {}
            "argument_list" => {
                let mut c = p.walk();
                let k = p
                    .named_children(&mut c)
                    .filter(|a| a.kind() != "comment")
                    .position(|a| a == n)?;
                return Some((p.parent()?, k));
            }
            _ => return None,
        }
        n = p;
    }
}

/// `m` (an object of `rank` dimensions) stands for one whole element:
/// `A[i][j]`, `(*p)[i][j]`, `*p` of a pointer to numbers; not a row, and
/// not `&A[i][j]`, either of which keeps a pointer into the object.
fn element_use(m: Node, src: &[u8], rank: usize) -> bool {
    let mut level = 0;
    let mut n = m;
    while let Some(p) = n.parent() {
        let deeper = match p.kind() {
            "parenthesized_expression" => false,
            "subscript_expression" if p.child_by_field_name("argument") == Some(n) => true,
            "pointer_expression"
                if p.child_by_field_name("operator")
                    .is_some_and(|o| o.utf8_text(src) == Ok("*")) =>
            {
                true
            }
            "pointer_expression" => return false,
            _ => break,
        };
        level += usize::from(deeper);
        n = p;
    }
    level == rank
}

/// `m` is under a `sizeof` that reads nothing of it: the operand is the
/// object itself, one of its rows or elements, or a member or address of
/// one (through parentheses). A `sizeof` evaluates an operand of
/// variable-length array type, so a mention in a type name
/// (`sizeof(char[(int)T[5]])`) or a subscript (`sizeof(U[(int)T[5]])`,
/// where `U` points to rows of run-time length) reads it.
fn in_sizeof(m: Node, within: Node) -> bool {
    let mut n = m;
    while let Some(p) = n.parent() {
        match p.kind() {
            "sizeof_expression" => return true,
            "parenthesized_expression" | "pointer_expression" => {}
            "subscript_expression" | "field_expression"
                if p.child_by_field_name("argument") == Some(n) => {}
            _ => return false,
        }
        if p == within {
            return false;
        }
        n = p;
    }
    false
}

/// The full expression that expression `e` belongs to: its statement
/// (expression, `return`, declaration, or the statement whose condition
/// or header it is).
fn full_expression(e: Node) -> Option<Node> {
    let mut n = e;
    while let Some(p) = n.parent() {
        if p.kind().ends_with("_statement") || p.kind() == "declaration" {
            return Some(p);
        }
        n = p;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arrays of the region of `function` (its `#pragma scop` to its
    /// `#pragma endscop`, or its body where it has none) dead after it,
    /// among its array parameters and locals.
    fn dead(code: &str, function: &str) -> Vec<String> {
        dead_in(code, function, false)
    }

    /// `dead`, the file being the whole program or not.
    fn dead_in(code: &str, function: &str, whole_program: bool) -> Vec<String> {
        analyse(code, function, whole_program).0
    }

    /// `dead_in`, and the parameters that would be dead with
    /// `--whole-program`.
    fn analyse(code: &str, function: &str, whole_program: bool) -> (Vec<String>, Vec<String>) {
        let tree = super::super::c_tree(code);
        let root = tree.root_node();
        let src = code.as_bytes();
        let defined = super::super::file_index::definitions(root, src);
        let file = FileIndex::new(src, root, defined, whole_program);
        let def = file.defined[function];
        let body = def.child_by_field_name("body").unwrap().byte_range();
        let text = &code[body.clone()];
        let span = match (text.find("#pragma scop"), text.find("#pragma endscop")) {
            (Some(a), Some(b)) => body.start + a..body.start + b + "#pragma endscop".len(),
            _ => body,
        };
        let param_names = param_names(def, src);
        let mut names = Vec::new();
        for m in ["A", "B", "t", "u", "w"] {
            if code[span.clone()].contains(m) {
                names.push(m);
            }
        }
        let vars = names.iter().map(|n| RegionVar {
            name: n,
            param: param_names.iter().any(|p| p == n),
        });
        let (dead, if_whole) = file.dead_after_region(def, function, span, vars);
        (dead.into_iter().collect(), if_whole.into_iter().collect())
    }

    const KERNEL: &str = "static void k(int n, double A[9][9], double B[9]) {
  for (int i = 0; i < n; i++) { B[i] = i; for (int j = 0; j < n; j++) A[i][j] = B[i]; }
}
";

    #[test]
    fn polybench_temporaries_die_with_free() {
        let code = format!(
            "{}static void init(int n, double A[9][9]) {{ A[1][2] = sizeof(A); }}
int main(void) {{
  double (*t)[9][9] = (double (*)[9][9]) polybench_alloc_data(81, 8);
  double u[9];
  init(9, *t);
  k(9, (*(t)), u);
  polybench_free_data((void *) (t));
  return 0;
}}",
            KERNEL
        );
        assert_eq!(dead(&code, "k"), vec!["A", "B"]);
    }

    /// The routes of the red team of 2026-12-05, each of which read an
    /// array after the call that the proof had called dead.
    #[test]
    fn reads_that_name_nothing_after_the_call_keep_it() {
        let frame = |before: &str, call: &str, after: &str| {
            format!(
                "{}static double g; static void fill(double (*p)[9]) {{ p[1][1] = 2; }}
static void look(double (*p)[9]) {{ g = p[0][0]; }}
int main(void) {{ double (*t)[9] = malloc(648); double u[9]; {}
  {} {} free(t); return 0; }}",
                KERNEL, before, call, after
            )
        };
        let plain = frame("", "k(9, t, u);", "");
        assert_eq!(dead(&plain, "k"), vec!["A", "B"]);
        for (before, call, after) in [
            // A variable-length array type is evaluated by `sizeof`.
            ("", "k(9, t, u);", "g = sizeof(char[(int) t[1][1] + 1]);"),
            (
                "double (*v)[9] = t;",
                "k(9, t, u);",
                "g = sizeof(v[(int) t[1][1]]);",
            ),
            // The value of the allocation names the memory again.
            ("double (*w)[9] = (t = malloc(648));", "k(9, t, u);", ""),
            ("double (*w)[9]; w = t = malloc(648);", "k(9, t, u);", ""),
            // Operands and arguments in no order: read after the call.
            ("", "g = t[3][3] + (k(9, t, u), 0);", ""),
            ("", "printf(\"%g %d\", t[3][3], (k(9, t, u), 0));", ""),
            // A variable hides `free`, `malloc` or a function of the file.
            ("void (*free)(void *) = look;", "k(9, t, u);", ""),
            (
                "void (*fill)(double (*)[9]) = look;",
                "fill(t); k(9, t, u);",
                "",
            ),
            // Code before the call that runs after it, or reads without
            // a name: user contexts, a nested function, `cleanup`.
            ("ucontext_t c; getcontext(&c);", "k(9, t, u);", ""),
            (
                "double peek(void) { return t[1][1]; }",
                "k(9, t, u);",
                "g = peek();",
            ),
            (
                "double (*__attribute__((cleanup(look))) v)[9] = 0;",
                "k(9, t, u);",
                "",
            ),
        ] {
            let code = frame(before, call, after);
            // (`u` too where the route makes all of `main` unprovable.)
            assert!(
                !dead(&code, "k").contains(&"A".to_string()),
                "{} | {} | {}",
                before,
                call,
                after
            );
        }
        // A variable named `malloc` gives the memory: no allocation.
        let shadow = KERNEL.to_string()
            + "static double pool[81]; static void *mine(unsigned long n) { return pool; }
int main(void) { void *(*malloc)(unsigned long) = mine; double (*t)[9] = malloc(648);
  double u[9]; k(9, t, u); return 0; }";
        assert!(!dead(&shadow, "k").contains(&"A".to_string()));
        // A function the file names `__pencil_...` is the file's own: it
        // may keep a pointer like any other.
        let own = "static double *kept;
static void __pencil_keep(double p[9]) { kept = p; }
static void k(int n, double A[9][9], double B[9]) {
#pragma scop
  for (int i = 0; i < n; i++) { B[i] = i; __pencil_keep(B); }
#pragma endscop
}
int main(void) { double (*t)[9] = malloc(648); double u[9]; k(9, t, u); free(t); return 0; }";
        assert!(!dead(own, "k").contains(&"B".to_string()));
    }

    #[test]
    fn any_later_read_keeps_it() {
        let print = KERNEL.to_string()
            + "int main(void) { double *t = malloc(648); double u[9];
  k(9, t, u); printf(\"%g\", u[1]); free(t); return 0; }";
        assert_eq!(dead(&print, "k"), vec!["A"]);
        // A pointer into it, a function that keeps one, a copy.
        for before in [
            "double *q = &t[0][1];",
            "keep(t);",
            "double (*q)[9] = t;",
            "double *r = t[2];",
        ] {
            let code = format!(
                "{}static double *kept; static void keep(double (*p)[9]) {{ kept = p[0]; }}
int main(void) {{ double (*t)[9] = malloc(648); double u[9]; {}
  k(9, t, u); free(t); return 0; }}",
                KERNEL, before
            );
            assert_eq!(dead(&code, "k"), vec!["B"], "{}", before);
        }
    }

    #[test]
    fn every_call_must_agree_and_none_may_repeat() {
        let two = KERNEL.to_string()
            + "void f(void) { double t[9][9], u[9]; k(9, t, u); }
void g(double u[9]) { double t[9][9]; k(9, t, u); }";
        assert_eq!(dead(&two, "k"), vec!["A"]);
        let looped = KERNEL.to_string()
            + "void f(void) { double t[9][9], u[9]; for (int r = 0; r < 2; r++) k(9, t, u); }";
        assert!(dead(&looped, "k").is_empty());
        let jumps = KERNEL.to_string()
            + "void f(void) { double t[9][9], u[9]; again: k(9, t, u); if (t[0][0] < 0) goto again; }";
        assert!(dead(&jumps, "k").is_empty());
        let twice = KERNEL.to_string() + "void f(void) { double t[9][9]; k(9, t, t[0]); }";
        assert!(dead(&twice, "k").is_empty());
        let not_static =
            KERNEL.replace("static ", "") + "void f(void) { double t[9][9], u[9]; k(9, t, u); }";
        assert!(dead(&not_static, "k").is_empty());
        // Unless the file is the whole program (`--whole-program`); not
        // for `main`, which C's start-up calls.
        assert_eq!(dead_in(&not_static, "k", true), vec!["A", "B"]);
        // Without it, `-v` says what the flag would do.
        assert_eq!(
            analyse(&not_static, "k", false),
            (vec![], vec!["A".to_string(), "B".to_string()])
        );
        assert_eq!(analyse(&not_static, "k", true).1, Vec::<String>::new());
        let main = "int main(int n, double A[9]) {
#pragma scop
for (int i = 0; i < n; i++) A[i] = i;
#pragma endscop
return 0; }
void g(void) { double t[9]; main(9, t); }";
        assert!(dead_in(main, "main", true).is_empty());
        let pointer = KERNEL.to_string()
            + "void (*fp)(int, double (*)[9], double *) = k;
void f(void) { double t[9][9], u[9]; k(9, t, u); }";
        assert!(dead(&pointer, "k").is_empty());
    }

    #[test]
    fn only_fresh_automatic_memory() {
        // A static local, a pointer to another object, a parameter, a
        // global, an allocator the file defines.
        for decl in [
            "static double t[9][9];",
            "double (*t)[9] = other;",
            "double (*t)[9]; t = malloc(648); t = other;",
        ] {
            let code = format!(
                "{}double other[9][9]; double u[9];
void f(void) {{ {} k(9, t, u); }}",
                KERNEL, decl
            );
            assert!(dead(&code, "k").is_empty(), "{}", decl);
        }
        let volatile = KERNEL.to_string()
            + "void f(void) { volatile double t[9][9]; double u[9]; k(9, t, u); }";
        assert_eq!(dead(&volatile, "k"), vec!["B"]);
        let setjmp = KERNEL.to_string()
            + "void f(void) { double t[9][9], u[9]; if (_setjmp (env)) return; k(9, t, u); }";
        assert!(dead(&setjmp, "k").is_empty());
        let param = KERNEL.to_string() + "void f(double t[9][9]) { double u[9]; k(9, t, u); }";
        assert_eq!(dead(&param, "k"), vec!["B"]);
        let own = KERNEL.to_string()
            + "static double pool[81]; static void *malloc(unsigned long n) { return pool; }
void f(void) { double (*t)[9] = malloc(648); double u[9]; k(9, t, u); }";
        assert_eq!(dead(&own, "k"), vec!["B"]);
    }

    #[test]
    fn a_region_of_the_function_itself() {
        let code = "int main(void) { double w[9], A[9]; int n = 9;
#pragma scop
for (int i = 0; i < n; i++) { w[i] = i; A[i] = w[i] * 2; }
#pragma endscop
printf(\"%g\", A[3]); return 0; }";
        assert_eq!(dead(code, "main"), vec!["w"]);
        // Code after the region that runs before it: nothing is dead.
        let looped = code
            .replace("int n = 9;", "int n = 9; for (int r = 0; r < 2; r++) {")
            .replace("return 0;", "} return 0;");
        assert!(dead(&looped, "main").is_empty());
        // A function the region calls that keeps a pointer.
        let kept = "static double *p; static void keep(double B[9]) { p = B; }
int main(void) { double w[9], A[9]; int n = 9;
#pragma scop
for (int i = 0; i < n; i++) w[i] = i;
keep(w);
for (int i = 0; i < n; i++) A[i] = w[i];
#pragma endscop
printf(\"%g\", p[2] + A[3]); return 0; }";
        assert!(dead(kept, "main").is_empty());
        let used = kept.replace("p = B;", "B[1] = 2;");
        assert_eq!(dead(&used, "main"), vec!["w"]);
        // A parameter of a function that reads it after the region.
        let after = "static void k(int n, double A[9]) {
#pragma scop
for (int i = 0; i < n; i++) A[i] = i;
#pragma endscop
A[0] = A[1]; }
void f(void) { double t[9]; k(9, t); }";
        assert!(dead(after, "k").is_empty());
    }
}
