//! Declarations: typedefs and their resolved types, file-scope and local
//! variables with their declarators, function parameters, and the
//! storage classes a region accepts.

use super::*;

impl<'a> Cx<'a> {
    pub(super) fn collect_typedef(&self, n: Node, typedefs: &mut BTreeMap<String, String>) {
        let Some(ty) = n.child_by_field_name("type") else {
            return;
        };
        // `typedef float v4 __attribute__((vector_size(16)));` is no
        // `float`: such a name stays unresolved, a type the model does
        // not know (it was read as `float`, and `B[i] = A[i] + A[i]`
        // computed one lane of four).
        let mut c = n.walk();
        if n.children(&mut c).any(|k| {
            k.kind() == "attribute_specifier" && !super::attributes::harmless(self.text(k))
        }) || (!matches!(ty.kind(), "struct_specifier" | "union_specifier")
            && self.text(ty).contains("__attribute"))
        {
            return;
        }
        let (base, extents) = self.element_type(ty, typedefs);
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            // tree-sitter-c reads the <stdint.h> names (`uint8_t`,
            // `size_t`, ...) as primitive types even where a typedef
            // declares them; the typedef still says what they are.
            if (d.kind() == "type_identifier" || d.kind() == "primitive_type") && extents.is_none()
            {
                typedefs.insert(self.text(d).to_string(), base.clone());
            } else if let Some((name, pointer)) = self.typedef_pointer(d, &base, extents.is_some())
            {
                typedefs.insert(name, pointer);
            } else if pointer_typedef(&base).is_some() {
                // `typedef dptr rows_t[4];` of `typedef double *dptr;`: an
                // array of pointers, which stays unresolved (it was read
                // as `double rows_t[][4]`, a pointer to rows).
            } else if let Some(own) = self.typedef_array(d, extents.as_deref().unwrap_or(&[])) {
                self.array_typedefs
                    .borrow_mut()
                    .insert(own.0, (base.clone(), own.1));
            }
        }
    }

    /// `typedef double *dptr;` (or `*restrict`, `**`): the typedef's name
    /// and the pointer type as C text (`double *restrict`), which
    /// declarations of the name declare as pointers. Not an array
    /// typedef's pointers, nor pointers to rows or functions.
    fn typedef_pointer(&self, d: Node, base: &str, array: bool) -> Option<(String, String)> {
        let mut ty = base.to_string();
        let mut cur = d;
        let mut levels = 0;
        while cur.kind() == "pointer_declarator" {
            levels += 1;
            ty.push_str(" *");
            let mut c = cur.walk();
            for q in cur
                .children(&mut c)
                .filter(|k| k.kind() == "type_qualifier")
            {
                ty.push(' ');
                ty.push_str(self.text(q));
            }
            cur = cur.child_by_field_name("declarator")?;
        }
        (levels > 0 && !array && cur.kind() == "type_identifier")
            .then(|| (self.text(cur).to_string(), ty))
    }

    /// `typedef double row_t[50];` (or `typedef row_t mat_t[40];`, or
    /// `typedef row_t row2_t;`): the typedef's name and its extents,
    /// outermost first, those of `inner` (the extents of the type it
    /// names) last. Only plain array declarators whose extents convert.
    fn typedef_array(
        &self,
        d: Node,
        inner: &[Option<Expr>],
    ) -> Option<(String, Vec<Option<Expr>>)> {
        let mut own = Vec::new();
        let mut cur = d;
        while cur.kind() == "array_declarator" {
            let size = cur.child_by_field_name("size")?;
            own.push(Some(self.expr(size).ok()?));
            cur = cur.child_by_field_name("declarator")?;
        }
        if cur.kind() != "type_identifier" || (own.is_empty() && inner.is_empty()) {
            return None;
        }
        own.reverse();
        own.extend(inner.iter().cloned());
        Some((self.text(cur).to_string(), own))
    }

    /// The names typedefs inside function bodies declare.
    pub(super) fn local_typedef_names(&self, root: Node) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut stack = vec![(root, false)];
        while let Some((n, in_function)) = stack.pop() {
            if in_function && n.kind() == "type_definition" {
                let mut c = n.walk();
                for d in n.children_by_field_name("declarator", &mut c) {
                    if let Some(name) = declared_name(d, self.src) {
                        out.insert(name);
                    }
                }
                continue;
            }
            let inside = in_function || n.kind() == "function_definition";
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c).map(|k| (k, inside)));
        }
        out
    }

    /// Takes the names of `local_typedefs` out of the file's typedefs
    /// (`typedefs`, and the array typedefs): they resolve nowhere.
    pub(super) fn forget_local_typedefs(&self, typedefs: &mut BTreeMap<String, String>) {
        let local = self.local_typedefs.borrow();
        typedefs.retain(|name, _| !local.contains(name));
        self.array_typedefs
            .borrow_mut()
            .retain(|name, _| !local.contains(name));
    }

    /// The error for a use of a type whose name a typedef inside a
    /// function declares (`typedef int real_t;` in the function, where
    /// the file may say `typedef float real_t;`): pencilc reads typedefs
    /// at file scope only, and a kernel knows none of the user's.
    pub(super) fn local_typedef(&self, at: Node, type_text: &str) -> Option<Diagnostic> {
        let local = self.local_typedefs.borrow();
        let name = type_text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .find(|w| local.contains(*w))?;
        Some(
            self.err(
                Code::UnsupportedType,
                at,
                format!(
                    "`{}` is a typedef declared inside a function, which pencilc does not read",
                    name
                ),
            )
            .with_hint("declare the typedef at file scope (under a name no other typedef has), or use the type it names"),
        )
    }

    /// The element type a declaration's type names and, for an array
    /// typedef, its extents: `row_t` of `typedef double row_t[50]` is
    /// `double` with `[50]`. An array typedef stays out of the name →
    /// type map, so that code reading only that map (casts, `sizeof`)
    /// never takes `row_t` for `double`.
    pub(super) fn element_type(
        &self,
        ty: Node,
        typedefs: &BTreeMap<String, String>,
    ) -> (String, Option<Vec<Option<Expr>>>) {
        let text = self
            .text(ty)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if let Some((base, extents)) = self.array_typedefs.borrow().get(&text) {
            return (base.clone(), Some(extents.clone()));
        }
        (self.resolve_type(&text, typedefs), None)
    }

    pub(super) fn resolve_type(&self, t: &str, typedefs: &BTreeMap<String, String>) -> String {
        let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
        typedefs.get(&t).cloned().unwrap_or(t)
    }

    /// Records the variables a declaration introduces.
    pub(super) fn collect_declaration(
        &self,
        n: Node,
        typedefs: &BTreeMap<String, String>,
        out: &mut BTreeMap<String, VarDecl>,
    ) -> Result<()> {
        let Some(ty) = n.child_by_field_name("type") else {
            return Ok(());
        };
        let (base, extents) = self.element_type(ty, typedefs);
        let read_only = self.declares_const(n, &base);
        let volatile_or_register = self.volatile_or_register(n, &base);
        let mut c = n.walk();
        let automatic = !n.children(&mut c).any(|k| {
            k.kind() == "storage_class_specifier" && matches!(self.text(k), "static" | "extern")
        });
        let mut c = n.walk();
        for d in n.children_by_field_name("declarator", &mut c) {
            if let Some(mut v) = self.declarator(d, &base)? {
                with_extents(&mut v, extents.as_deref());
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
    /// Through a pointer typedef (`typedef float *fp;`), only the
    /// typedef's pointee counts: `const fp p` is `float *const p`.
    pub(super) fn declares_const(&self, n: Node, base: &str) -> bool {
        if let Some((pointee, _)) = pointer_typedef(base) {
            return pointee.split_whitespace().any(|w| w == "const");
        }
        let mut c = n.walk();
        let beside = n
            .children(&mut c)
            .any(|k| k.kind() == "type_qualifier" && self.text(k) == "const");
        beside || base.split_whitespace().any(|w| w == "const")
    }

    /// Whether the declaration or parameter `n` (of resolved type `base`)
    /// says `volatile` or `register`, anywhere in it (beside the type, in
    /// the typedef, or on a pointer).
    pub(super) fn volatile_or_register(&self, n: Node, base: &str) -> bool {
        let words = |t: &str| {
            t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| w == "volatile" || w == "register")
        };
        words(self.text(n)) || words(base)
    }

    /// Unwraps a declarator into name, extents and pointer-ness.
    /// A type that a typedef makes a pointer (`fp p` of `typedef float
    /// *fp;`) declares what `float *p` declares.
    pub(super) fn declarator(&self, d: Node, base: &str) -> Result<Option<VarDecl>> {
        let mut dims_rev: Vec<Option<Expr>> = Vec::new();
        let (base, mut pointer, mut restrict) = match pointer_typedef(base) {
            // A pointer to pointers, outside PENCIL.
            Some((pointee, _)) if pointee.contains('*') => return Ok(None),
            Some((pointee, restrict)) => (pointee, true, restrict),
            None => (base, false, false),
        };
        let mut pencil_array = false;
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
                // `T *a[n]`: an array of pointers (the pointer's declarator
                // holds the array's), outside PENCIL; `T (*a)[n]`, a
                // pointer to rows, holds them the other way round.
                "array_declarator" if pointer => return Ok(None),
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

    pub(super) fn function_name(&self, f: Node) -> String {
        f.child_by_field_name("declarator")
            .and_then(|d| find_function_name(d, self.src))
            .unwrap_or_else(|| "<function>".to_string())
    }

    /// `__attribute__((pencil_access(summary)))` on a function declaration
    /// or definition.
    pub(super) fn collect_summary_attribute(&self, n: Node, out: &mut BTreeMap<String, String>) {
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
    pub(super) fn param_list(
        &self,
        f: Node,
        typedefs: &BTreeMap<String, String>,
    ) -> Result<Vec<VarDecl>> {
        let mut out = Vec::new();
        let Some(decl) = f.child_by_field_name("declarator") else {
            return Ok(out);
        };
        let param = |p: Node, d: Node, out: &mut Vec<VarDecl>| -> Result<()> {
            let Some(ty) = p.child_by_field_name("type") else {
                return Ok(());
            };
            let (base, extents) = self.element_type(ty, typedefs);
            if let Some(mut v) = self.declarator(d, &base)? {
                with_extents(&mut v, extents.as_deref());
                v.storage = Storage::Param;
                v.automatic = true;
                v.read_only = self.declares_const(p, &base);
                v.volatile_or_register = self.volatile_or_register(p, &base);
                out.push(v);
            }
            Ok(())
        };
        let mut stack = vec![decl];
        while let Some(n) = stack.pop() {
            if n.kind() == "parameter_list" {
                let mut c = n.walk();
                for p in n.named_children(&mut c) {
                    if p.kind() != "parameter_declaration" {
                        continue;
                    }
                    if let Some(d) = p.child_by_field_name("declarator") {
                        param(p, d, &mut out)?;
                    }
                }
                // A definition of the old style (`void f(a, n) float *a;
                // int n; { ... }`, still C99) declares its parameters
                // between the declarator and the body, in any order: the
                // list of names says which argument each one takes (a
                // call binds its arguments by position).
                let mut c = n.walk();
                let names: Vec<Node> = n
                    .named_children(&mut c)
                    .filter(|p| p.kind() == "identifier")
                    .collect();
                if names.is_empty() {
                    return Ok(out);
                }
                let mut declared = Vec::new();
                let mut c = f.walk();
                for p in f
                    .named_children(&mut c)
                    .filter(|p| p.kind() == "declaration")
                {
                    let mut c = p.walk();
                    for d in p.children_by_field_name("declarator", &mut c) {
                        param(p, d, &mut declared)?;
                    }
                }
                for name in names {
                    let text = self.text(name);
                    match declared.iter().position(|v| v.name == text) {
                        Some(at) => out.push(declared.remove(at)),
                        // C89's implicit `int`, which C compilers still
                        // accept (with a warning).
                        None => {
                            if let Some(mut v) = self.declarator(name, "int")? {
                                v.storage = Storage::Param;
                                v.automatic = true;
                                out.push(v);
                            }
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

    /// `T a = e, b[n];` inside a region: one `Stmt::Decl` per declarator.
    pub(super) fn local_declaration(&self, n: Node, out: &mut Vec<Stmt>) -> Result<()> {
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
        if let Some(e) = self.local_typedef(ty, &base) {
            return Err(e);
        }
        // Kernels know no user typedef: `real_t s;` of a region is
        // declared with the arithmetic type its typedef names (`float`),
        // `row_t t;` with its element type and extents. Struct typedefs
        // keep their names (`struct_element` reads them).
        let (element, extents) = self.element_type(ty, &self.typedefs.borrow());
        // A pointer typedef's `fp p;` is a pointer, refused below as
        // `float *p;` is.
        let base = if extents.is_some()
            || integer_range(&element).is_some()
            || is_float_type(&element)
            || element.contains('*')
        {
            element
        } else {
            base
        };
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
            with_extents(&mut var, extents.as_deref());
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
            let mut list = None;
            let init = match d.child_by_field_name("value") {
                // `T (*a)[n][m] = (T (*)[n][m]) buf;`: a pointer to rows of
                // a flat buffer, which `scop::reshape` makes an array of
                // that shape. The cast itself changes no value.
                // `int w[] = {1, 2, 3};` too: the list gives the extent.
                Some(v) if d.kind() == "init_declarator" && v.kind() == "initializer_list" => {
                    list = Some(v);
                    None
                }
                Some(v)
                    if d.kind() == "init_declarator" && matches!(var.dims.first(), Some(None)) =>
                {
                    Some(self.reshaping_cast(v)?)
                }
                Some(v) if d.kind() == "init_declarator" => Some(self.expr(v)?),
                _ => None,
            };
            // A const array's initializer list becomes stores into it
            // (`initializers`); C keeps the user's code from any other.
            var.read_only = read_only && list.is_none();
            let spelled = self.declare_flattened(&var.name);
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
            self.note_declared([&var]);
            let values = match list {
                Some(list) => self.array_initializer(&mut var, list)?,
                None => Vec::new(),
            };
            // `int u[] = {...}` has its extent now (`sizeof u`).
            self.note_declared([&var]);
            out.push(Stmt::Decl {
                var,
                init,
                loc: self.loc(n),
            });
            out.extend(values);
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
    pub(super) fn check_storage_class(&self, n: Node, read_only: bool) -> Result<()> {
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
}

/// Appends an array typedef's extents to what a declarator says:
/// `row_t m[40]` is `double m[40][50]`, `row_t *a` is `double (*a)[50]`.
fn with_extents(v: &mut VarDecl, extents: Option<&[Option<Expr>]>) {
    let Some(extents) = extents else {
        return;
    };
    if v.pointer {
        v.dims.push(None);
        v.pointer = false;
    }
    v.dims.extend(extents.iter().cloned());
}

/// The pointee of a pointer type that a typedef names, as C text, and
/// whether the pointer is `restrict`: `float` and `false` of `float *`,
/// `const double` and `true` of `const double *restrict`. `None` where
/// `t` is no pointer type.
fn pointer_typedef(t: &str) -> Option<(&str, bool)> {
    let (pointee, after) = t.rsplit_once('*')?;
    let mut restrict = false;
    for w in after.split_whitespace() {
        match w {
            "restrict" | "__restrict" | "__restrict__" => restrict = true,
            "const" | "volatile" => {}
            _ => return None,
        }
    }
    Some((pointee.trim_end(), restrict))
}
