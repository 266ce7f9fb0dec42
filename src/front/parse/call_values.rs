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
//! of. Only for a `static` function (any function but `main` under
//! `--whole-program`) that the file uses in no other way than calling it
//! by name: another file, or a pointer to it, could call it with
//! anything. Otherwise the context decides.

use super::file_index::{enclosing_function, FileIndex};
use std::collections::BTreeMap;
use tree_sitter::Node;

/// Parameter name → the value every call of `function` in the file
/// passes; `def` is its definition, `params` its parameters' names in
/// order.
pub(super) fn of<'t>(
    file: &FileIndex<'t>,
    function: &str,
    def: Node<'t>,
    params: &[String],
) -> BTreeMap<String, i64> {
    // Every mention of the name is a call's, the definition's or a
    // declaration's: no pointer to the function escapes.
    if !file.file_only(def, function) {
        return BTreeMap::new();
    }
    let calls = file.calls_of(function);
    let mut out = BTreeMap::new();
    'param: for (k, name) in params.iter().enumerate() {
        if name.is_empty() {
            continue;
        }
        let mut value = None;
        for call in calls {
            let Some(arg) = argument(*call, k) else {
                continue 'param;
            };
            let Some(v) = constant(arg, file) else {
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
fn constant<'t>(arg: Node<'t>, file: &FileIndex<'t>) -> Option<i64> {
    match arg.kind() {
        "number_literal" => literal(file.text(arg)),
        "parenthesized_expression" => constant(arg.named_child(0)?, file),
        "identifier" => {
            let f = enclosing_function(arg)?;
            let mut init = Vec::new();
            let mut written = false;
            for m in file.mentions(f, file.text(arg)) {
                use_of(m, file, &mut init, &mut written);
            }
            match (init.as_slice(), written) {
                ([Some(v)], false) => Some(*v),
                _ => None,
            }
        }
        _ => None,
    }
}

/// What mention `m` of a variable says of its value: a declaration's
/// initialiser (`None` for one that is no literal, or that has none), or
/// a write or a taken address (`written`).
fn use_of(m: Node, file: &FileIndex, init: &mut Vec<Option<i64>>, written: &mut bool) {
    let Some(p) = m.parent() else {
        return;
    };
    let field_is_m = |field: &str| p.child_by_field_name(field) == Some(m);
    match p.kind() {
        "init_declarator" if field_is_m("declarator") => {
            let v = p
                .child_by_field_name("value")
                .filter(|v| v.kind() == "number_literal")
                .and_then(|v| literal(file.text(v)));
            init.push(v);
        }
        "declaration" | "parameter_declaration" => {
            // `int tsteps;` (a declarator without an initialiser).
            let mut c = p.walk();
            if p.children_by_field_name("declarator", &mut c)
                .any(|d| d == m)
            {
                init.push(None);
            }
        }
        "assignment_expression" if field_is_m("left") => *written = true,
        "update_expression" if field_is_m("argument") => *written = true,
        "pointer_expression"
            if p.child_by_field_name("operator")
                .is_some_and(|o| file.text(o) == "&")
                && field_is_m("argument") =>
        {
            *written = true
        }
        _ => {}
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

    /// The values of `function`'s parameters (plain identifiers only).
    fn values(code: &str, function: &str) -> BTreeMap<String, i64> {
        let tree = super::super::c_tree(code);
        let src = code.as_bytes();
        let defined = super::super::file_index::definitions(tree.root_node(), src);
        let Some(&def) = defined.get(function) else {
            return BTreeMap::new();
        };
        let file = FileIndex::new(src, tree.root_node(), defined.clone(), false);
        let params: Vec<String> = super::super::file_index::param_names(def, src);
        of(&file, function, def, &params)
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
