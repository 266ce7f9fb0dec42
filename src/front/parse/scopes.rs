//! The names a region's code sees: block scopes with the new names that
//! hiding declarations get, loops entered (with the depth limit), and
//! enumeration constants.

use super::*;

impl<'a> Cx<'a> {
    /// Makes `names` visible until the guard is dropped.
    pub(super) fn enter_scope(&self, names: impl IntoIterator<Item = String>) -> ScopeGuard<'_> {
        if self.scopes.borrow().is_empty() {
            self.flattened.borrow_mut().clear();
            self.loop_declared.borrow_mut().clear();
            self.declared.borrow_mut().clear();
        }
        self.scopes
            .borrow_mut()
            .push(names.into_iter().map(|n| (n.clone(), n)).collect());
        ScopeGuard {
            scopes: &self.scopes,
        }
    }

    pub(super) fn enter_loop(&self, n: Node) -> Result<LoopGuard<'_>> {
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
    /// A declaration statement's name also differs from every earlier
    /// one's in the region (`flattened`): `for (int i = 0; i < n;)` becomes
    /// `int i = 0; while (...)`, and a later `for (int i ...)` is another
    /// variable.
    pub(super) fn declare(&self, name: &str) -> String {
        self.declare_as(name, false)
    }

    /// `declare`; a declaration statement (`flattened`) also differs from
    /// every loop's declared iterator before it (`for (int i ...) ...;
    /// int i = k; while (...)`: the loop's `i` is no variable of the
    /// region, the statement's is).
    fn declare_as(&self, name: &str, flattened: bool) -> String {
        let hides = self.scopes.borrow().iter().any(|s| s.contains_key(name))
            || self.flattened.borrow().contains(name)
            || (flattened && self.loop_declared.borrow().contains(name));
        if !flattened {
            self.loop_declared.borrow_mut().insert(name.to_string());
        }
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

    /// `declare` for a declaration statement, which the parser flattens
    /// into its enclosing block.
    pub(super) fn declare_flattened(&self, name: &str) -> String {
        let spelled = self.declare_as(name, true);
        self.flattened.borrow_mut().insert(name.to_string());
        spelled
    }

    /// The name the region's code has for `name` where it is used: the
    /// innermost declaration's (`declare`).
    pub(super) fn resolve(&self, name: &str) -> Option<String> {
        self.scopes
            .borrow()
            .iter()
            .rev()
            .find_map(|s| s.get(name).cloned())
    }

    /// Whether a scope of the region declares `name` (a variable that
    /// hides a typedef or an enumerator of its name).
    pub(super) fn in_scope(&self, name: &str) -> bool {
        self.scopes.borrow().iter().any(|s| s.contains_key(name))
    }

    pub(super) fn is_declared(&self, name: &str) -> bool {
        let scopes = self.scopes.borrow();
        scopes.is_empty() || scopes.iter().any(|s| s.contains_key(name))
    }

    /// An enumeration constant where no variable of the region's scopes
    /// hides it: the literal it stands for.
    pub(super) fn enumerator(&self, n: Node, name: &str) -> Option<Result<Expr>> {
        if self.in_scope(name) {
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

    pub(super) fn undeclared(&self, n: Node, name: &str) -> Diagnostic {
        // Declared, with a type the region's declarations leave out.
        // A typedef's pointers count as the declarator's (`dpp a` of
        // `typedef double **dpp;`).
        let through_typedef = |ty: &str| -> (usize, Option<String>) {
            let typedefs = self.typedefs.borrow();
            match typedefs.get(ty) {
                Some(t) if t.contains('*') => {
                    let element = t.split('*').next().unwrap_or(t).trim().to_string();
                    (t.matches('*').count(), Some(element))
                }
                _ => (0, None),
            }
        };
        if let Some((d, what)) = visible_declaration(n, name, self.src, &through_typedef) {
            let text: String = self
                .text(d)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            return self
                .err(
                    Code::UnsupportedType,
                    n,
                    format!(
                        "`{}` is {} (`{}`, line {}), which a region cannot use: its elements are not laid out as one array, so the polyhedral model has no subscripts for them",
                        name,
                        what,
                        text.trim_end_matches(';'),
                        self.pp.physical_line(d.start_position().row)
                    ),
                )
                .with_hint(format!(
                    "pass the data as an array (`{1} {0}[n][m]`), a pointer to its elements (`{1} *{0}`) or to its rows (`{1} (*{0})[m]`), or keep this code outside `#pragma scop`",
                    name,
                    d.child_by_field_name("type")
                        .map(|t| through_typedef(self.text(t)).1.unwrap_or_else(|| self.text(t).to_string()))
                        .unwrap_or_else(|| "T".to_string())
                ));
        }
        self.err(
            Code::UnknownIdentifier,
            n,
            format!("`{}` is not declared", name),
        )
        .with_hint(
            "declare it before the region (or, for a loop iterator, in the loop: `for (int i = 0; ...)`); pencilc preprocesses the file with the -I and -D you pass",
        )
    }
}

/// The declaration of `name` that C sees at `n` (in the blocks around it,
/// the parameters of its function, the file), where its declarator is of
/// a kind the region's declarations leave out, with what it declares in
/// words: `int **p` is a pointer to pointers.
fn visible_declaration<'t>(
    n: Node<'t>,
    name: &str,
    src: &[u8],
    through_typedef: &dyn Fn(&str) -> (usize, Option<String>),
) -> Option<(Node<'t>, &'static str)> {
    let mut cur = n;
    while let Some(parent) = cur.parent() {
        let mut c = parent.walk();
        let children: Vec<Node> = parent.named_children(&mut c).collect();
        let mut candidates: Vec<Node> = Vec::new();
        for ch in children {
            match ch.kind() {
                "declaration" if ch.end_byte() <= cur.start_byte() => candidates.push(ch),
                // Old-style parameter declarations follow the declarator.
                "declaration" if parent.kind() == "function_definition" => candidates.push(ch),
                "function_declarator" if parent.kind() == "function_definition" => {
                    if let Some(ps) = ch.child_by_field_name("parameters") {
                        let mut c = ps.walk();
                        candidates.extend(ps.named_children(&mut c));
                    }
                }
                // `T **f(...)`: the parameters of a function returning
                // pointers.
                "pointer_declarator" if parent.kind() == "function_definition" => {
                    let mut d = Some(ch);
                    while let Some(x) = d {
                        if x.kind() == "function_declarator" {
                            if let Some(ps) = x.child_by_field_name("parameters") {
                                let mut c = ps.walk();
                                candidates.extend(ps.named_children(&mut c));
                            }
                            break;
                        }
                        d = x.child_by_field_name("declarator");
                    }
                }
                _ => {}
            }
        }
        // The last declaration before `n` is the one C sees.
        for decl in candidates.into_iter().rev() {
            let typedef_pointers = decl
                .child_by_field_name("type")
                .and_then(|t| t.utf8_text(src).ok())
                .map_or(0, |t| through_typedef(t).0);
            let mut c = decl.walk();
            for d in decl.children_by_field_name("declarator", &mut c) {
                if let Some(what) = declares(d, name, src, typedef_pointers) {
                    return Some((decl, what));
                }
            }
        }
        cur = parent;
    }
    None
}

/// Whether the declarator `d` declares `name` with a pointer to pointers
/// or to a function, or as an array of pointers, and which.
fn declares(d: Node, name: &str, src: &[u8], typedef_pointers: usize) -> Option<&'static str> {
    let (mut pointers, mut function, mut array_of_pointers) = (0, false, false);
    let mut cur = d;
    loop {
        match cur.kind() {
            "identifier" => break,
            "pointer_declarator" => pointers += 1,
            "function_declarator" => function = true,
            "array_declarator" => array_of_pointers |= pointers > 0,
            "init_declarator" | "parenthesized_declarator" => {}
            _ => return None,
        }
        cur = cur
            .child_by_field_name("declarator")
            .or_else(|| cur.named_child(0))?;
    }
    if cur.utf8_text(src).ok()? != name {
        return None;
    }
    // A pointer typedef's pointers are the innermost.
    array_of_pointers |= typedef_pointers > 0 && has_array(d);
    pointers += typedef_pointers;
    if function {
        Some("a pointer to a function")
    } else if pointers >= 2 {
        Some("a pointer to pointers")
    } else if array_of_pointers {
        Some("an array of pointers")
    } else {
        None
    }
}

/// Whether the declarator `d` has array extents (`a[4]`, `*a[4]`).
fn has_array(d: Node) -> bool {
    let mut cur = Some(d);
    while let Some(x) = cur {
        if x.kind() == "array_declarator" {
            return true;
        }
        cur = x
            .child_by_field_name("declarator")
            .or_else(|| x.named_child(0));
    }
    false
}
