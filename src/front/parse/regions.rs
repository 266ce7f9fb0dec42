//! Where regions are: a PENCIL function's body, or the statements between
//! `#pragma scop` and `#pragma endscop` in a function's blocks.

use super::*;

impl<'a> Cx<'a> {
    /// A PENCIL function (a parameter declared `pencil_array`, or
    /// `__attribute__((pencil))`) in the user's file is a region as a whole:
    /// array sizes come from the VLA declarations, and `restrict` says the
    /// arrays do not overlap. Every array parameter must then be declared
    /// `pencil_array`.
    pub(super) fn pencil_function_region(
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
        self.note_declared(symbols.values());
        // `return;` as the last statement is allowed (single exit).
        let stmts: Vec<Node> = match stmts.last() {
            Some(l) if l.kind() == "return_statement" && self.text(*l).trim() == "return;" => {
                stmts[..stmts.len() - 1].to_vec()
            }
            _ => stmts,
        };
        self.take_omp_outside();
        self.stmt_list(&stmts, &mut out, &mut ignored)?;
        let omp_outside = self.take_omp_outside();
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
            omp_outside,
            // The region is the whole body: nothing of the block follows.
            outlived: None,
            summaries: BTreeMap::new(),
            whole_function: true,
            inlined: Vec::new(),
            names: Arc::new(FileNames::default()),
            called: BTreeMap::new(),
            call_facts: BTreeMap::new(),
            prototypes: BTreeMap::new(),
            dead_after,
            dead_if_whole_program: BTreeSet::new(),
            span: f
                .child_by_field_name("body")
                .map_or(f.byte_range(), |b| b.byte_range()),
            call_values: BTreeMap::new(),
        }))
    }

    pub(super) fn regions_in_function(
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

    pub(super) fn regions_in_block(
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
                // Pragmas right before `#pragma scop` apply to the region's
                // first statement: they are the region's (`#pragma omp
                // parallel for` there left a pragma before the generated
                // code's `if`, which C does not allow).
                let lead = leading_pragmas(&children[..i], self.src);
                let stmts: Vec<Node> = children[lead..i]
                    .iter()
                    .chain(&children[i + 1..end])
                    .copied()
                    .collect();
                self.take_omp_outside();
                {
                    let _scope = self.enter_scope(symbols.keys().cloned());
                    self.note_declared(symbols.values());
                    self.stmt_list(&stmts, &mut body, &mut ignored)?;
                }
                let omp_outside = self.take_omp_outside();
                let line_of = |r: usize| match inclusion {
                    Some(_) => self.pp.origin.get(r).map(|o| o.1).unwrap_or(0),
                    None => self.pp.physical_line(r),
                };
                let (begin_line, end_line) = (
                    line_of(children[lead].start_position().row),
                    line_of(children[end].start_position().row),
                );
                // The generated code replaces the region's lines of the
                // file: a region that a macro's expansion brings
                // (`_Pragma("scop")` in a `#define`) has none of its own.
                // Code on a pragma's line (`_Pragma("endscop") x = 7;`)
                // would go with the lines the generated code replaces.
                let file_of = |r: usize| self.pp.origin.get(r).map(|o| o.0);
                let shares_line = |row: usize| {
                    let line = line_of(row);
                    line != 0
                        && self
                            .pp
                            .text
                            .lines()
                            .enumerate()
                            .skip(row.saturating_sub(8))
                            .take(17)
                            .any(|(r, t)| {
                                r != row
                                    && file_of(r) == file_of(row)
                                    && line_of(r) == line
                                    && !t.trim().is_empty()
                                    && !t.trim_start().starts_with('#')
                            })
                };
                // One line for both pragmas: nothing of the region has a
                // line of its own (a macro's expansion).
                let at = if shares_line(ch.start_position().row)
                    || begin_line == end_line && begin_line != 0
                {
                    Some(ch)
                } else if shares_line(children[end].start_position().row) {
                    Some(children[end])
                } else {
                    None
                };
                if let Some(at) = at {
                    return Err(self
                        .err(
                            Code::UnbalancedRegion,
                            at,
                            "code shares a line of the file with the region's `#pragma scop` or `#pragma endscop` (a macro's expansion, or `_Pragma`): the generated code replaces whole lines",
                        )
                        .with_hint("put `#pragma scop` and `#pragma endscop` on lines of their own, outside any macro"));
                }
                regions.push(Region {
                    function: function.to_string(),
                    begin_line,
                    end_line,
                    inclusion,
                    body,
                    symbols: symbols.clone(),
                    loc: self.loc(ch),
                    ignored_pragmas: ignored,
                    omp_outside,
                    outlived: self.outlived(&children[i + 1..end], &children[end + 1..]),
                    summaries: BTreeMap::new(),
                    whole_function: false,
                    inlined: Vec::new(),
                    names: Arc::new(FileNames::default()),
                    called: BTreeMap::new(),
                    call_facts: BTreeMap::new(),
                    prototypes: BTreeMap::new(),
                    dead_after: self.dead_after(within, children[end], symbols),
                    dead_if_whole_program: BTreeSet::new(),
                    span: children[lead].start_byte()..children[end].end_byte(),
                    call_values: BTreeMap::new(),
                });
                // The region's own declarations are C's for the rest of
                // the block: a later region may use them (the first then
                // keeps its code: `outlived`). One the collection cannot
                // read leaves the later region's use undeclared, as before.
                for s in &children[i + 1..end] {
                    if s.kind() == "declaration" {
                        let _ = self.collect_declaration(*s, typedefs, symbols);
                    }
                }
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
}

/// Where the pragmas (and comments) right before the end of `before`
/// start: the index of the first of them, `before.len()` where there are
/// none. Another region's `#pragma endscop` is not one of them.
fn leading_pragmas(before: &[Node], src: &[u8]) -> usize {
    let mut lead = before.len();
    while lead > 0 {
        let n = before[lead - 1];
        let pragma = n.kind() == "preproc_call"
            && !is_pragma(n, src, "endscop")
            && !is_pragma(n, src, "scop")
            && n.utf8_text(src).is_ok_and(|t| {
                t.trim_start()
                    .trim_start_matches('#')
                    .trim_start()
                    .starts_with("pragma")
            });
        if !(pragma || n.kind() == "comment") {
            break;
        }
        lead -= 1;
    }
    // Comments before the pragmas stay outside.
    while lead < before.len() && before[lead].kind() == "comment" {
        lead += 1;
    }
    lead
}
