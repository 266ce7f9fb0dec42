//! The values a region's function is called with, where the file says
//! them: for the GPU model's profile, which otherwise takes a parameter's
//! largest value in the region's context, or an assumed one where nothing
//! bounds it. PolyBench's `main` passes its time-step count as a local
//! (`int tsteps = 500; ... kernel_jacobi_1d(tsteps, n, ...)`), which no
//! array bounds: the model assumed 1000 steps where 500 run.
//!
//! A parameter has a value when every call of the function passes the
//! same integer: a literal, or a local of the calling function initialised
//! with a literal and never assigned, incremented or taken the address
//! of. Only for a `static` function that the file uses in no other way
//! than calling it by name: another file, or a pointer to it, could call
//! it with anything. Otherwise the context decides.

use std::collections::BTreeMap;
use tree_sitter::Node;

/// Parameter name → the value every call of `function` passes, over the
/// file's tree `root` (source `src`); `def` is its definition, `params`
/// its parameters' names in order; `whole_program`: no other file calls
/// it (`--whole-program`).
pub fn of(
    root: Node,
    src: &[u8],
    function: &str,
    def: Node,
    params: &[String],
    whole_program: bool,
) -> BTreeMap<String, i64> {
    if !file_only(def, src, function, whole_program) {
        return BTreeMap::new();
    }
    let mut calls = Vec::new();
    collect_calls(root, src, function, &mut calls);
    // Every mention of the name is a call's, the definition's or a
    // declaration's: no pointer to the function escapes.
    let mut mentions = 0;
    count_mentions(root, src, function, &mut mentions);
    if calls.is_empty() || mentions != calls.len() {
        return BTreeMap::new();
    }
    let mut out = BTreeMap::new();
    'param: for (k, name) in params.iter().enumerate() {
        if name.is_empty() {
            continue;
        }
        let mut value = None;
        for call in &calls {
            let Some(arg) = argument(*call, k) else {
                continue 'param;
            };
            let Some(v) = constant(arg, src) else {
                continue 'param;
            };
            if value.is_some_and(|w| w != v) {
                continue 'param;
            }
            value = Some(v);
        }
        if let Some(v) = value {
            out.insert(name.clone(), v);
        }
    }
    out
}

fn text<'s>(n: Node, src: &'s [u8]) -> &'s str {
    n.utf8_text(src).unwrap_or("")
}

/// Whether only the file calls function `name` (defined as `f`): it is
/// `static`, or the file is the whole program and it is not `main`, which
/// C's start-up calls.
pub(super) fn file_only(f: Node, src: &[u8], name: &str, whole_program: bool) -> bool {
    is_static(f, src) || (whole_program && name != "main")
}

/// `static` among a definition's specifiers.
fn is_static(f: Node, src: &[u8]) -> bool {
    let mut c = f.walk();
    let found = f
        .children(&mut c)
        .any(|n| n.kind() == "storage_class_specifier" && text(n, src) == "static");
    found
}

/// Mentions of `name` as an expression (not the declarator of a
/// definition or declaration).
fn count_mentions(n: Node, src: &[u8], name: &str, out: &mut usize) {
    if n.kind() == "identifier" && text(n, src) == name {
        let declarator = n
            .parent()
            .is_some_and(|p| p.kind() == "function_declarator");
        if !declarator {
            *out += 1;
        }
    }
    let mut c = n.walk();
    for child in n.children(&mut c) {
        count_mentions(child, src, name, out);
    }
}

/// Every call of `function` under `n`.
fn collect_calls<'t>(n: Node<'t>, src: &[u8], function: &str, out: &mut Vec<Node<'t>>) {
    if n.kind() == "call_expression"
        && n.child_by_field_name("function")
            .is_some_and(|f| f.kind() == "identifier" && text(f, src) == function)
    {
        out.push(n);
    }
    let mut c = n.walk();
    for child in n.children(&mut c) {
        collect_calls(child, src, function, out);
    }
}

/// Argument `k` of a call.
pub(super) fn argument(call: Node, k: usize) -> Option<Node> {
    let args = call.child_by_field_name("arguments")?;
    let mut c = args.walk();
    let found = args
        .named_children(&mut c)
        .filter(|a| a.kind() != "comment")
        .nth(k);
    found
}

/// The integer an argument is: a literal, or a local of the calling
/// function that only its initialiser writes.
fn constant(arg: Node, src: &[u8]) -> Option<i64> {
    match arg.kind() {
        "number_literal" => literal(text(arg, src)),
        "parenthesized_expression" => constant(arg.named_child(0)?, src),
        "identifier" => {
            let name = text(arg, src);
            let mut f = arg.parent()?;
            while f.kind() != "function_definition" {
                f = f.parent()?;
            }
            let body = f.child_by_field_name("body")?;
            let mut init = Vec::new();
            let mut written = false;
            scan(body, src, name, &mut init, &mut written);
            match (init.as_slice(), written) {
                ([Some(v)], false) => Some(*v),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Under `n`: the initialisers of the declarations of `name` (`None` for
/// one that is no literal, or that has none), and whether anything else
/// writes it or takes its address.
fn scan(n: Node, src: &[u8], name: &str, init: &mut Vec<Option<i64>>, written: &mut bool) {
    let is_name =
        |x: Option<Node>| x.is_some_and(|x| x.kind() == "identifier" && text(x, src) == name);
    match n.kind() {
        "init_declarator" if is_name(n.child_by_field_name("declarator")) => {
            let v = n
                .child_by_field_name("value")
                .filter(|v| v.kind() == "number_literal")
                .and_then(|v| literal(text(v, src)));
            init.push(v);
        }
        "declaration" | "parameter_declaration" => {
            // `int tsteps;` (a declarator without an initialiser).
            let mut c = n.walk();
            for d in n.children_by_field_name("declarator", &mut c) {
                if d.kind() == "identifier" && text(d, src) == name {
                    init.push(None);
                }
            }
        }
        "assignment_expression" if is_name(n.child_by_field_name("left")) => *written = true,
        "update_expression" if is_name(n.child_by_field_name("argument")) => *written = true,
        "pointer_expression"
            if n.child_by_field_name("operator")
                .is_some_and(|o| text(o, src) == "&")
                && is_name(n.child_by_field_name("argument")) =>
        {
            *written = true
        }
        _ => {}
    }
    let mut c = n.walk();
    for child in n.children(&mut c) {
        scan(child, src, name, init, written);
    }
}

/// A C integer literal's value (decimal, hex, octal; `u`/`l` suffixes).
fn literal(t: &str) -> Option<i64> {
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()
    } else if t.len() > 1 && t.starts_with('0') {
        i64::from_str_radix(&t[1..], 8).ok()
    } else {
        t.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests' stand-in for the parser's own: the definition of
    /// `function` and its parameters' names (plain identifiers only).
    fn values(code: &str, function: &str) -> BTreeMap<String, i64> {
        let tree = super::super::c_tree(code);
        let root = tree.root_node();
        let src = code.as_bytes();
        let mut c = root.walk();
        let defs: Vec<Node> = root.children(&mut c).collect();
        for def in defs
            .into_iter()
            .filter(|n| n.kind() == "function_definition")
        {
            let Some(fd) = def.child_by_field_name("declarator") else {
                continue;
            };
            let fd = if fd.kind() == "function_declarator" {
                fd
            } else {
                match fd.child_by_field_name("declarator") {
                    Some(d) => d,
                    None => continue,
                }
            };
            if fd.child_by_field_name("declarator").map(|n| text(n, src)) != Some(function) {
                continue;
            }
            let list = fd.child_by_field_name("parameters").unwrap();
            let mut c = list.walk();
            let params: Vec<String> = list
                .named_children(&mut c)
                .map(|p| {
                    p.child_by_field_name("declarator")
                        .map(|d| text(d, src).to_string())
                        .unwrap_or_default()
                })
                .collect();
            return of(root, src, function, def, &params, false);
        }
        BTreeMap::new()
    }

    #[test]
    fn polybench_mains_give_their_sizes() {
        let code = "
static void kernel_jacobi(int tsteps, int n, double A[2000]) { }
int main(int argc, char **argv) {
  int n = 2000;
  int tsteps = 500;
  double A[2000];
  kernel_jacobi(tsteps, n, A);
  return 0;
}";
        let v = values(code, "kernel_jacobi");
        assert_eq!(v.get("tsteps"), Some(&500));
        assert_eq!(v.get("n"), Some(&2000));
        assert_eq!(v.len(), 2);
    }

    #[test]
    fn only_values_every_call_agrees_on_and_nothing_changes() {
        let code = "
static void k(int a, int b, int c, int d, int e) { }
void f(int m) {
  int x = 0x10;
  int y = 7;
  int z = 3;
  int w = 4;
  y++;
  int *p = &z;
  k(x, y, z, w, 5);
  k(16, 1, 3, m, 5);
}
void g(void) { k(16, 1, 3, 4, 6); }";
        let v = values(code, "k");
        // a: 0x10 and 16 agree; b: y is incremented; c: z's address is
        // taken; d: a parameter; e: 5 and 6 differ.
        assert_eq!(v, BTreeMap::from([("a".to_string(), 16)]));
        assert!(values(code, "never_called").is_empty());
        assert!(values("static void h(int n) { }", "h").is_empty());
        // Another file may call a function that is not static; a pointer
        // to it may be called with anything.
        assert!(values("void e(int n) { } void m(void) { e(5); }", "e").is_empty());
        let escapes = "static void e(int n) { }
void (*fp)(int) = e;
void m(void) { e(5); }";
        assert!(values(escapes, "e").is_empty());
        let declared = "static void e(int n);
void m(void) { e(5); }
static void e(int n) { }";
        assert_eq!(values(declared, "e").get("n"), Some(&5));
    }
}
