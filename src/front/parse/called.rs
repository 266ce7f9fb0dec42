//! Functions of the file that regions call as statements (`f(n, A[i]);`,
//! with or without a summary), parsed like region code so that the back
//! ends can put a device copy of each into the kernel file: a kernel
//! calls the function itself, and OpenCL C and CUDA have no access to the
//! host's definition. A function that cannot be read as device code
//! (it returns a value, reads a global, calls itself, uses what regions
//! cannot) is recorded with the reason; the driver keeps a region that
//! calls it on the host unless the user's device code defines it.

use super::{Cx, Region};
use crate::diag::Loc;
use crate::front::syntax::{Expr, ExprKind, Stmt, VarDecl};
use std::collections::{BTreeMap, BTreeSet};
use tree_sitter::Node;

/// A function a region calls as a statement, as region code.
#[derive(Clone, Debug)]
pub struct CalledFn {
    pub name: String,
    pub params: Vec<VarDecl>,
    pub body: Vec<Stmt>,
    /// The functions of the file its body calls as statements.
    pub calls: BTreeSet<String>,
    /// The functions its expressions call (the back end checks that each
    /// is one the device knows).
    pub expr_calls: BTreeSet<String>,
    pub loc: Loc,
}

/// A called function, or why no device copy of it can be made.
pub type Called = std::result::Result<CalledFn, String>;

/// What the model needs of a function of the file that a region calls as
/// a statement, where no summary describes it (`effects`).
#[derive(Clone, Debug, Default)]
pub struct CallFacts {
    /// Per parameter, whether the body reaches only the element it points
    /// to (`*p`, `p[0]`, `p->m`): a call passing `&A[i][j]` then touches
    /// that element alone; otherwise the callee may index past it into
    /// the rest of `A`.
    pub first_element: Vec<bool>,
    /// Per parameter, whether the body only reads through it (`p[i]`
    /// read, never written, passed on or used as a value): a call then
    /// reads what it passes there and writes none of it.
    pub read_only: Vec<bool>,
    /// Why the call may have effects beyond its arguments (its body uses a
    /// variable of the file, directly or through the functions it calls,
    /// or pencilc cannot read it), if it may: the model, which sees a
    /// call's arguments only, cannot order it against the region's other
    /// statements.
    pub unseen_effects: Option<String>,
    /// Variables of the file (not constants) it reads, directly or
    /// through the functions it calls: where the region writes one, the
    /// model cannot order the call against the write.
    pub global_reads: BTreeSet<String>,
    /// The functions of the file its body calls.
    calls: BTreeSet<String>,
}

impl CallFacts {
    pub(super) fn new(
        first_element: Vec<bool>,
        read_only: Vec<bool>,
        unseen_effects: Option<String>,
        global_reads: BTreeSet<String>,
        calls: BTreeSet<String>,
    ) -> CallFacts {
        CallFacts {
            first_element,
            read_only,
            unseen_effects,
            global_reads,
            calls,
        }
    }

    pub(super) fn unseen(why: String) -> CallFacts {
        CallFacts {
            unseen_effects: Some(why),
            ..CallFacts::default()
        }
    }
}

/// PENCIL's builtins that a region calls as statements (`pencil.h`):
/// summaries and facts, which take arrays and keep no pointer. A function
/// of another name that starts with `__pencil_` is an ordinary function.
pub const PENCIL_STATEMENT_BUILTINS: [&str; 6] = [
    "__pencil_use",
    "__pencil_def",
    "__pencil_kill",
    "__pencil_assume",
    "__pencil_assert",
    "__pencil_npr_mem_tag",
];

/// The names of the functions `body` calls as statements, other than
/// PENCIL's builtins.
pub fn statement_calls(body: &[Stmt], out: &mut BTreeSet<String>) {
    for s in body {
        match s {
            Stmt::Call { name, .. } if !PENCIL_STATEMENT_BUILTINS.contains(&name.as_str()) => {
                out.insert(name.clone());
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => statement_calls(body, out),
            Stmt::If { then_, else_, .. } => {
                statement_calls(then_, out);
                statement_calls(else_, out);
            }
            _ => {}
        }
    }
}

impl Cx<'_> {
    /// Every function of the file (`functions`) that a region calls as a
    /// statement, directly or through another one, with its device
    /// reading; functions the file only declares are left out.
    pub(super) fn called_functions(
        &self,
        regions: &[Region],
        functions: &[Node],
        typedefs: &BTreeMap<String, String>,
        globals: &BTreeMap<String, VarDecl>,
        file_functions: &super::effects::FileFunctions,
    ) -> (BTreeMap<String, Called>, BTreeMap<String, CallFacts>) {
        let mut facts: BTreeMap<String, CallFacts> = BTreeMap::new();
        let mut todo = BTreeSet::new();
        for r in regions {
            statement_calls(&r.body, &mut todo);
        }
        let mut out: BTreeMap<String, Called> = BTreeMap::new();
        while let Some(name) = todo.pop_first() {
            if out.contains_key(&name) {
                continue;
            }
            let Some(f) = functions.iter().find(|f| self.function_name(**f) == name) else {
                if file_functions.library.contains(&name) {
                    facts.insert(
                        name.clone(),
                        CallFacts::unseen(
                            "a library function, declared in a system header: it may do input or output or keep state".into(),
                        ),
                    );
                }
                continue;
            };
            let called = self.called_function(*f, &name, typedefs, globals);
            let fact = self.call_facts(*f, globals, file_functions);
            todo.extend(fact.calls.iter().filter(|n| !out.contains_key(*n)).cloned());
            facts.insert(name.clone(), fact);
            out.insert(name, called);
        }
        // Reads through the functions a body calls.
        loop {
            let mut grew = false;
            let names: Vec<String> = facts.keys().cloned().collect();
            for n in &names {
                let more: BTreeSet<String> = facts[n]
                    .calls
                    .iter()
                    .filter_map(|g| facts.get(g))
                    .flat_map(|g| g.global_reads.iter().cloned())
                    .collect();
                if let Some(f) = facts.get_mut(n) {
                    let before = f.global_reads.len();
                    f.global_reads.extend(more);
                    grew |= f.global_reads.len() > before;
                }
            }
            if !grew {
                break;
            }
        }
        // Effects through the functions a body calls.
        loop {
            let unseen: Vec<(String, String)> = facts
                .iter()
                .filter(|(_, f)| f.unseen_effects.is_none())
                .filter_map(|(n, f)| {
                    let g = f
                        .calls
                        .iter()
                        .find(|g| facts.get(*g).is_some_and(|x| x.unseen_effects.is_some()))?;
                    Some((n.clone(), g.clone()))
                })
                .collect();
            if unseen.is_empty() {
                break;
            }
            for (n, g) in unseen {
                let why = format!("it calls `{}`, which may too", g);
                if let Some(f) = facts.get_mut(&n) {
                    f.unseen_effects = Some(why);
                }
            }
        }
        // A function that calls itself, directly or through others, has no
        // device copy (OpenCL C forbids recursion).
        let names: Vec<String> = out.keys().cloned().collect();
        for n in names {
            if reaches(&out, &n, &n, &mut BTreeSet::new()) {
                out.insert(n.clone(), Err(format!("`{}` calls itself", n)));
            }
        }
        (out, facts)
    }

    /// The function as device code, or why it cannot be.
    fn called_function(
        &self,
        f: Node,
        name: &str,
        typedefs: &BTreeMap<String, String>,
        globals: &BTreeMap<String, VarDecl>,
    ) -> Called {
        let ret = f
            .child_by_field_name("type")
            .map(|t| self.text(t).trim().to_string())
            .unwrap_or_default();
        if ret != "void" {
            return Err(format!("`{}` returns `{}`, not `void`", name, ret));
        }
        // Its OpenMP directives bound to a team outside it make the
        // regions that call it keep their code (`omp`), as the region's
        // own do.
        let outer = self.take_omp_outside();
        let parsed = self.parsed_function(f, typedefs, globals);
        if let Some(at) = self.take_omp_outside().into_iter().next() {
            self.omp_in_functions
                .borrow_mut()
                .insert(name.to_string(), at);
        }
        self.omp_outside.borrow_mut().extend(outer);
        self.device_function(f, name, parsed)
    }

    /// The function's parameters and body read as region code (the file's
    /// variables visible, for `not_its_own` to find).
    fn parsed_function(
        &self,
        f: Node,
        typedefs: &BTreeMap<String, String>,
        globals: &BTreeMap<String, VarDecl>,
    ) -> std::result::Result<(Vec<VarDecl>, Vec<Stmt>), String> {
        let warnings = self.warnings.borrow().len();
        let parsed = (|| -> crate::diag::Result<(Vec<VarDecl>, Vec<Stmt>)> {
            self.check_translated(f, "function")?;
            let params = self.param_list(f, typedefs)?;
            let mut body = Vec::new();
            let mut ignored = Vec::new();
            if let Some(b) = f.child_by_field_name("body") {
                let mut c = b.walk();
                let mut stmts: Vec<Node> = b
                    .named_children(&mut c)
                    .filter(|n| n.kind() != "comment")
                    .collect();
                if stmts.last().is_some_and(|l| {
                    l.kind() == "return_statement" && self.text(*l).trim() == "return;"
                }) {
                    stmts.pop();
                }
                let names = globals.keys().chain(params.iter().map(|p| &p.name));
                let _scope = self.enter_scope(names.cloned());
                self.note_declared(globals.values().chain(&params));
                self.stmt_list(&stmts, &mut body, &mut ignored)?;
            }
            Ok((params, body))
        })();
        // Whatever reading it said is not the user's concern here: the
        // region reports what it needs.
        self.warnings.borrow_mut().truncate(warnings);
        parsed.map_err(|d| match d.loc {
            // Where in the function: the region reports the call.
            Some(at) => format!("at line {}: {}", at.line, d.message),
            None => d.message,
        })
    }

    /// The parsed function as device code, or why it cannot be.
    fn device_function(
        &self,
        f: Node,
        name: &str,
        parsed: std::result::Result<(Vec<VarDecl>, Vec<Stmt>), String>,
    ) -> Called {
        let (params, body) = parsed?;
        if let Some(p) = params
            .iter()
            .find(|p| !p.members.is_empty() || p.struct_type.is_some())
        {
            return Err(format!("its parameter `{}` is a struct", p.name));
        }
        if let Some(v) = crate::front::parse::called::locals_without_constant_size(&body) {
            return Err(format!("its local `{}` has no constant size", v));
        }
        if let Some(g) = not_its_own(&params, &body).first() {
            return Err(format!("its body reads `{}`, which is not its own", g));
        }
        let mut calls = BTreeSet::new();
        statement_calls(&body, &mut calls);
        let mut called_in_exprs = BTreeSet::new();
        for s in &body {
            calls_in_exprs(s, &mut called_in_exprs);
        }
        Ok(CalledFn {
            name: name.to_string(),
            params,
            body,
            calls,
            expr_calls: called_in_exprs,
            loc: self.loc(f),
        })
    }
}

/// The names a function's body (and its parameters' extents) uses that
/// are not its own: not a parameter, local or loop iterator, nor a
/// function it calls. Variables of the file, in order of use.
fn not_its_own(params: &[VarDecl], body: &[Stmt]) -> Vec<String> {
    let mut declared: BTreeSet<String> = params.iter().map(|p| p.name.clone()).collect();
    for s in body {
        let mut d = Vec::new();
        s.declared(&mut d);
        declared.extend(d);
        iterators(s, &mut declared);
    }
    let mut used = Vec::new();
    body.iter().for_each(|s| s.idents(&mut used));
    for p in params {
        p.dims.iter().flatten().for_each(|d| d.idents(&mut used));
    }
    let mut calls = BTreeSet::new();
    statement_calls(body, &mut calls);
    for s in body {
        calls_in_exprs(s, &mut calls);
    }
    let mut out: Vec<String> = Vec::new();
    for n in used {
        if !declared.contains(&n) && !calls.contains(&n) && !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

fn iterators(s: &Stmt, out: &mut BTreeSet<String>) {
    match s {
        Stmt::For { iter, body, .. } => {
            out.insert(iter.clone());
            body.iter().for_each(|s| iterators(s, out));
        }
        Stmt::While { body, .. } => body.iter().for_each(|s| iterators(s, out)),
        Stmt::If { then_, else_, .. } => {
            then_.iter().chain(else_).for_each(|s| iterators(s, out));
        }
        _ => {}
    }
}

/// Names called inside the statement's expressions (math functions).
fn calls_in_exprs(s: &Stmt, out: &mut BTreeSet<String>) {
    fn walk(e: &Expr, out: &mut BTreeSet<String>) {
        match &e.kind {
            ExprKind::Call(f, args) => {
                out.insert(f.clone());
                args.iter().for_each(|a| walk(a, out));
            }
            ExprKind::Index(a, b) | ExprKind::Binary(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => walk(a, out),
            ExprKind::Cond(c, t, f) => {
                walk(c, out);
                walk(t, out);
                walk(f, out);
            }
            _ => {}
        }
    }
    let mut s = s.clone();
    s.exprs_mut(&mut |e| walk(e, out));
}

/// A local array of the body whose extents are not integer literals (a
/// kernel's private arrays have constant sizes).
pub fn locals_without_constant_size(body: &[Stmt]) -> Option<String> {
    for s in body {
        let found = match s {
            Stmt::Decl { var, .. } => var
                .dims
                .iter()
                .any(|d| !matches!(d.as_ref().map(|e| &e.kind), Some(ExprKind::Int(..))))
                .then(|| var.name.clone()),
            Stmt::For { body, .. } | Stmt::While { body, .. } => locals_without_constant_size(body),
            Stmt::If { then_, else_, .. } => {
                locals_without_constant_size(then_).or_else(|| locals_without_constant_size(else_))
            }
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The functions of `all` that `body` calls, directly or through others.
pub fn reachable(all: &BTreeMap<String, Called>, body: &[Stmt]) -> BTreeMap<String, Called> {
    let mut todo = BTreeSet::new();
    statement_calls(body, &mut todo);
    let mut out = BTreeMap::new();
    while let Some(n) = todo.pop_first() {
        if out.contains_key(&n) {
            continue;
        }
        if let Some(c) = all.get(&n) {
            if let Ok(f) = c {
                todo.extend(f.calls.iter().cloned());
            }
            out.insert(n, c.clone());
        }
    }
    out
}

/// Whether `from` reaches `to` through the calls of `fns`.
fn reaches(
    fns: &BTreeMap<String, Called>,
    from: &str,
    to: &str,
    seen: &mut BTreeSet<String>,
) -> bool {
    let Some(Ok(f)) = fns.get(from) else {
        return false;
    };
    for c in &f.calls {
        if c == to || (seen.insert(c.clone()) && reaches(fns, c, to, seen)) {
            return true;
        }
    }
    false
}
