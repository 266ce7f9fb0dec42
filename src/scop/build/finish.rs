//! The model once every statement is in: the context and its parameter
//! ranges, statements placed in the schedule, kills, arrays with their
//! extents and value types, iterators live after the region, and the
//! checks of assumptions and reduction uses.

use super::*;
use crate::isl::IslText;

impl<'r> Builder<'r> {
    pub(super) fn finish(mut self) -> Result<Built> {
        let params: Vec<String> = self.params.iter().cloned().collect();
        let prefix = format!("[{}] -> ", params.join(", "));
        let assumed: Vec<String> = self
            .assumptions
            .iter()
            .map(|(c, _)| format!("({})", c))
            .collect();
        let (context, unsigned_params) = self.context(&params, &assumed)?;
        let depth = self
            .sched_dims
            .iter()
            .chain(self.kills.iter().map(|k| &k.sched))
            .map(|d| d.len())
            .max()
            .unwrap_or(0);
        self.place_statements(&prefix, &assumed, depth);
        let (kills, whole_kills) = self.kill_statements(&prefix, depth);
        let arrays = self.arrays(&whole_kills)?;
        let may_alias = may_alias(&arrays, &params, &self.region.symbols, self.plans);
        self.check_reduction_uses()?;
        let independent = self.independent_pairs(&params);
        let param_ranges = self.param_ranges(&params);
        let value_types = self.value_types(&arrays);
        // One access may be visited as a write and as reads (`x = v < x ?
        // v : x`): say each thing once.
        let mut said = BTreeSet::new();
        let mut warnings = std::mem::take(&mut self.warnings);
        warnings.retain(|w| said.insert(format!("{:?} {}", w.loc, w.message)));
        let scop = Scop {
            function: self.region.function.clone(),
            begin_line: self.region.begin_line,
            end_line: self.region.end_line,
            inclusion: self.region.inclusion.clone(),
            loc: self.region.loc.clone(),
            context,
            params,
            arrays,
            may_alias,
            stmts: std::mem::take(&mut self.stmts),
            kills,
            independent,
            local_decls: std::mem::take(&mut self.local_decls),
            local_frees: Vec::new(),
            warnings,
            notes: Vec::new(),
            host_only: false,
            checked: None,
            param_ranges,
            live_out_iters: vec![],
            index_type: "int".into(),
            unsigned_params,
            near_int_limits: Vec::new(),
            value_types,
            frame: Vec::new(),
            searches_rewritten: false,
            file_names: self.region.names.clone(),
            called: self.region.called.clone(),
            assumed_pure: std::mem::take(&mut self.assumed_pure),
            call_values: self.region.call_values.clone(),
            host_prologue: Vec::new(),
            host_writes: Default::default(),
        };
        let mut scop = assume_in_bounds(scop)?;
        scop.notes.extend(self.dead_arrays_note(&scop));
        scop.notes.extend(self.whole_program_note(&scop));
        scop.host_only |= self.unseen_effects;
        self.keep_if_read_globals_change(&mut scop);
        self.keep_if_array_args_unused(&mut scop);
        limit_nesting(&mut scop);
        self.keep_if_extents_change(&mut scop);
        if self.needs_long_indices(&scop) {
            scop.index_type = "long".into();
        }
        self.live_out_iters(&mut scop)?;
        let ranges = match loops::check_loop_ranges(
            &self.isl,
            &scop.params,
            &scop.context,
            &scop.param_ranges,
            &self.loop_ranges,
        ) {
            Ok(r) => r,
            Err(loops::RangeError::Wraps(iter, why)) => return Ok(Built::Wraps(iter, why)),
            Err(loops::RangeError::Other(why)) => return Err(why),
        };
        if let Some(defined) = ranges.defined {
            scop.context = defined.text(&self.isl, "scop")?;
        }
        if let Some((facts, note)) = ranges.checked {
            assume_checked(&self.isl, &mut scop, facts)?;
            scop.notes.push(note);
        }
        // Delinearised shapes: proved, checked on entry, or given up.
        let validity = super::reshape::validity::check(&self.isl, &scop, self.plans)?;
        let (flat, kept): (Vec<_>, Vec<_>) = validity.never.into_iter().partition(|n| n.2);
        if !flat.is_empty() {
            return Ok(Built::Flat(
                flat.into_iter().map(|(a, d, _)| (a, d)).collect(),
            ));
        }
        // A declared shape that the code leaves everywhere (undefined in
        // C): the region keeps the user's code.
        if !kept.is_empty() {
            scop.warnings.extend(kept.into_iter().map(|(_, d, _)| d));
            scop.host_only = true;
            return Ok(Built::Scop(Box::new(scop)));
        }
        scop.notes.extend(validity.notes);
        if let Some(facts) = validity.facts {
            assume_checked(&self.isl, &mut scop, facts)?;
        }
        super::reshape::footprint::measure(&self.isl, &mut scop, self.plans)?;
        super::index_width::mark(&self.isl, &mut scop);
        Ok(Built::Scop(Box::new(scop)))
    }

    /// A call of a function that reads a variable of the file the region
    /// writes: the model sees the write but not the read.
    fn keep_if_read_globals_change(&self, scop: &mut Scop) {
        if scop.host_only {
            return;
        }
        let written = |g: &str| self.array_use.get(g).is_some_and(|u| u.1);
        if let Some((callee, g, loc)) = self.global_reads.iter().find(|(_, g, _)| written(g)) {
            scop.warnings.push(
                Diagnostic::warning(
                    Code::UnsupportedStatement,
                    Some(loc.clone()),
                    format!(
                        "`{}` reads `{}`, which the region writes, and the model sees a call's arguments only; the region keeps the original code",
                        callee, g
                    ),
                )
                .with_hint(format!("pass `{}` to `{}` as an argument", g, callee)),
            );
            scop.host_only = true;
        }
    }

    /// An array passed whole to a function whose summary does not use it
    /// (PPCG's not_accessed.c): the statement has no access to it, so a
    /// kernel would get no buffer to pass on; the region keeps the user's
    /// code, which passes the array itself.
    fn keep_if_array_args_unused(&self, scop: &mut Scop) {
        for (tuple, array, callee, loc) in &self.unused_array_args {
            let stmt = tuple.split('[').next().unwrap_or_default();
            let accessed = scop.stmts.iter().any(|s| {
                s.name == stmt && s.reads.iter().chain(&s.writes).any(|a| a.array == *array)
            });
            if accessed {
                continue;
            }
            scop.warnings.push(
                Diagnostic::warning(
                    Code::UnsupportedStatement,
                    Some(loc.clone()),
                    format!(
                        "`{}`'s summary does not use `{}`, which the call passes: a kernel would have no buffer to pass for it; the region keeps the original code",
                        callee, array
                    ),
                )
                .with_hint(format!(
                    "say in the summary what `{}` reads or writes of `{}` (`__pencil_use`, `__pencil_def`), or leave it out of the call",
                    callee, array
                )),
            );
            scop.host_only = true;
            return;
        }
    }

    /// An array whose extent names a variable the region changes (`void
    /// f(int m, int A[m][m]) { ... m++; ... }`): C keeps the size the array
    /// was declared with, which no later value of `m` gives the generated
    /// code's subscripts (they read `m` itself); the region keeps the
    /// user's code.
    fn keep_if_extents_change(&self, scop: &mut Scop) {
        let mut changed = self.written.clone();
        loops::undeclared_iterators(&self.region.body, &mut changed);
        for a in &scop.arrays {
            let names = a.extents.iter().flat_map(|e| match e {
                Extent::Expr { names, .. } => names.as_slice(),
                _ => &[],
            });
            let Some(var) = names.into_iter().find(|n| changed.contains(*n)) else {
                continue;
            };
            scop.warnings.push(
                Diagnostic::warning(
                    Code::UnsupportedStatement,
                    Some(a.loc.clone()),
                    format!(
                        "the region changes `{}`, which `{}`'s declared size reads: C keeps the size `{}` had where `{}` was declared, which the generated code cannot know; the region keeps the original code",
                        var, a.name, var, a.name
                    ),
                )
                .with_hint(format!(
                    "change a copy of `{}` in the region, so that the sizes stay what they were",
                    var
                )),
            );
            scop.host_only = true;
            return;
        }
    }

    /// The region's context: the assumptions, and each unsigned
    /// parameter of 32 bits or more in its type's range; with those
    /// parameters.
    pub(super) fn context(
        &self,
        params: &[String],
        assumed: &[String],
    ) -> Result<(String, Vec<(String, u32)>)> {
        let context = if assumed.is_empty() {
            format!("[{}] -> {{ : }}", params.join(", "))
        } else {
            format!(
                "[{}] -> {{ : {} }}",
                params.join(", "),
                assumed.join(" and ")
            )
        };
        self.check_assumptions(&context)?;
        let unsigned_params: Vec<(String, u32)> = params
            .iter()
            .filter_map(|p| {
                let (_, d) = self
                    .region
                    .symbols
                    .iter()
                    .find(|(n, _)| isl_name(n) == *p)?;
                let t = IntTy::of(&d.base_type)?;
                (!t.signed && t.bits >= 32).then(|| (p.clone(), t.bits))
            })
            .collect();
        // Their values are in range at every run (a 64-bit one up to
        // `LONG_MAX` where the generated code runs): isl then sees that
        // `n mod 2^32` is `n`.
        let context = if unsigned_params.is_empty() {
            context
        } else {
            let ranges: Vec<String> = unsigned_params
                .iter()
                .map(|(p, bits)| {
                    let hi: i128 = if *bits == 32 {
                        (1 << 32) - 1
                    } else {
                        i64::MAX as i128
                    };
                    format!("0 <= {} <= {}", p, hi)
                })
                .chain(assumed.iter().cloned())
                .collect();
            format!(
                "[{}] -> {{ : {} }}",
                params.join(", "),
                ranges.join(" and ")
            )
        };
        Ok((context, unsigned_params))
    }

    /// Each statement's 2d+1 schedule (padded to `depth`), domain and
    /// accesses under the parameters; which arrays are read and written.
    pub(super) fn place_statements(&mut self, prefix: &str, assumed: &[String], depth: usize) {
        for ((st, dims), cons) in self
            .stmts
            .iter_mut()
            .zip(&self.sched_dims)
            .zip(&self.dom_cons)
        {
            let tuple = format!(
                "{}[{}]",
                st.name,
                st.iterators
                    .iter()
                    .map(|i| isl_name(i))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            st.schedule = format!("{}{{ {} -> [{}] }}", prefix, tuple, pad(dims, depth));
            // Assumptions hold wherever the region runs: they bound the
            // domains too, which is what the scheduler and tiler see. The
            // conditional ones stay in the context only: they quantify
            // over iterators, whose names the domain's tuple may reuse.
            let mut cons = cons.clone();
            cons.extend(
                assumed
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| !self.conditional_facts.contains(k))
                    .map(|(_, a)| a.clone()),
            );
            st.domain = if cons.is_empty() {
                format!("{}{{ {} }}", prefix, tuple)
            } else {
                format!("{}{{ {} : {} }}", prefix, tuple, cons.join(" and "))
            };
            for a in st.reads.iter_mut().chain(st.writes.iter_mut()) {
                a.relation = format!("{}{}", prefix, a.relation);
            }
            for a in &st.reads {
                self.array_use.entry(a.array.clone()).or_default().0 = true;
            }
            for a in &st.writes {
                self.array_use.entry(a.array.clone()).or_default().1 = true;
            }
        }
    }

    /// The kill statements under the parameters, and the whole-array
    /// kills at the top level with their positions.
    pub(super) fn kill_statements(
        &self,
        prefix: &str,
        depth: usize,
    ) -> (Vec<KillStmt>, Vec<(String, usize)>) {
        let mut kills = Vec::new();
        let mut whole_kills: Vec<(String, usize)> = Vec::new();
        for (k, pk) in self.kills.iter().enumerate() {
            let tuple_end = pk.domain.find(']').map(|p| p + 1).unwrap_or(0);
            let tuple = pk.domain[2..tuple_end].to_string();
            kills.push(KillStmt {
                name: format!("K_{}", k),
                domain: format!("{}{}", prefix, pk.domain),
                schedule: format!("{}{{ {} -> [{}] }}", prefix, tuple, pad(&pk.sched, depth)),
                kills: pk
                    .kills
                    .iter()
                    .map(|a| Access {
                        relation: format!("{}{}", prefix, a.relation),
                        ..a.clone()
                    })
                    .collect(),
            });
            whole_kills.extend(pk.whole_top.iter().cloned());
        }
        (kills, whole_kills)
    }

    /// The `-v` note for the arrays the region writes that nothing reads
    /// after it (`front::parse::dead_memory`): a device version leaves
    /// them on the device.
    fn dead_arrays_note(&self, scop: &Scop) -> Option<String> {
        let (dead, them) = written_among(scop, &self.region.dead_after)?;
        Some(format!(
            "lines {}-{}: `{}` not copied back from the device: nothing reads {} after the region (`front::parse::dead_memory`)",
            scop.begin_line, scop.end_line, dead, them
        ))
    }

    /// The `-v` note for the arrays the region writes that would stay on
    /// the device if no other file called its function
    /// (`Region::dead_if_whole_program`): what to do about it.
    fn whole_program_note(&self, scop: &Scop) -> Option<String> {
        // An explicit `__pencil_kill` keeps it on the device already.
        let copied: std::collections::BTreeSet<String> = (self.region.dead_if_whole_program.iter())
            .filter(|n| scop.array(n).is_none_or(|a| !a.killed_after))
            .cloned()
            .collect();
        let (kept, them) = written_among(scop, &copied)?;
        let f = &self.region.function;
        Some(format!(
            "lines {}-{}: `{}` copied back from the device, though nothing in this file reads {} after `{}` returns: `{}` is not `static`, so another file may call it and read {} (declare it `static`, or compile with --whole-program if no other file calls it)",
            scop.begin_line, scop.end_line, kept, them, f, f, them
        ))
    }

    /// The arrays the statements access, with their extents and what
    /// kills and the rest of the function say of their values.
    pub(super) fn arrays(&self, whole_kills: &[(String, usize)]) -> Result<Vec<Array>> {
        let mut arrays = Vec::new();
        for (name, (read, written)) in &self.array_use {
            let d = self.decl(name).expect("accessed names are declared");
            let mut extents = Vec::new();
            for (k, dim) in d.dims.iter().enumerate() {
                match dim {
                    Some(e) => match const_value(e) {
                        Some(c) => extents.push(Extent::Const(c)),
                        None => {
                            let mut names = Vec::new();
                            e.idents(&mut names);
                            names.sort();
                            names.dedup();
                            extents.push(Extent::Expr {
                                c_text: plain(e),
                                names,
                            });
                        }
                    },
                    // A pointer's outermost extent is what the region
                    // accesses (`reshape`).
                    None if k == 0 && self.plans.contains_key(name) => {
                        extents.push(Extent::Accessed)
                    }
                    None => {
                        return Err(Diagnostic::error(
                            Code::UnknownArraySize,
                            Some(d.loc.clone()),
                            format!("the size of dimension {} of `{}` is not declared", k, name),
                        )
                        .with_hint("declare array parameters with all their extents, e.g. `double A[pencil_array n][m]` (C99 VLA) or `double A[N][M]`"));
                    }
                }
            }
            // Top-level positions of the statements touching the array.
            let positions: Vec<usize> = self
                .stmts
                .iter()
                .zip(&self.sched_dims)
                .filter(|(st, _)| {
                    st.reads
                        .iter()
                        .chain(st.writes.iter())
                        .any(|a| &a.array == name)
                })
                .filter_map(|(_, dims)| dims.first().and_then(|p| p.parse::<usize>().ok()))
                .collect();
            let kill_at: Vec<usize> = whole_kills
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, p)| *p)
                .collect();
            let killed_before = kill_at.iter().any(|k| positions.iter().all(|p| p > k));
            // A scalar the rest of its function never reads is as good as
            // killed after the region (`front::parse::dead_after`).
            let killed_after = kill_at.iter().any(|k| positions.iter().all(|p| p < k))
                || self.region.dead_after.contains(name);
            let local = self.locals.contains_key(name);
            arrays.push(Array {
                name: name.clone(),
                elem_type: d.base_type.clone(),
                extents,
                read: *read,
                written: *written,
                local,
                killed_before,
                killed_after,
                members: if local { Vec::new() } else { d.members.clone() },
                struct_type: d.struct_type.clone(),
                layout: None,
                no_address: d.volatile_or_register,
                wide_index: false,
                loc: d.loc.clone(),
            });
        }
        Ok(arrays)
    }

    /// The parameters' ranges by their C types; for 64-bit types, within
    /// `LONG_SAFE_MAGNITUDE`, beyond which the entry check runs the
    /// original code (`ast::overflow`): their bounds and guards then need
    /// no constants near 2^63, which the generated code cannot spell.
    pub(super) fn param_ranges(&self, params: &[String]) -> String {
        let ranges: Vec<String> = params
            .iter()
            .filter_map(|p| {
                let d = self
                    .region
                    .symbols
                    .iter()
                    .find(|(n, _)| isl_name(n) == *p)
                    .map(|(_, d)| d)?;
                let (lo, hi) = crate::front::syntax::integer_range(&d.base_type)?;
                let most = crate::scop::LONG_SAFE_MAGNITUDE as i128;
                Some(format!("{} <= {} <= {}", lo.max(-most), p, hi.min(most)))
            })
            .collect();
        format!(
            "[{}] -> {{ : {} }}",
            params.join(", "),
            if ranges.is_empty() {
                "true".to_string()
            } else {
                ranges.join(" and ")
            }
        )
    }

    /// Integer scalars the region reads and never writes, with their
    /// types.
    pub(super) fn value_types(&self, arrays: &[Array]) -> Vec<(String, IntTy)> {
        self.region
            .symbols
            .iter()
            .filter(|(n, d)| {
                d.dims.is_empty()
                    && !d.pointer
                    && !self.written.contains(*n)
                    && !arrays.iter().any(|a| a.name == **n)
            })
            .filter_map(|(n, d)| Some((n.clone(), IntTy::of(&d.base_type)?)))
            .collect()
    }

    /// Whether a loop iterator's or a parameter's type holds values
    /// outside `int`'s range: indices are then `long`.
    pub(super) fn needs_long_indices(&self, scop: &Scop) -> bool {
        let int = crate::front::syntax::integer_range("int");
        let param_types = scop.params.iter().filter_map(|p| {
            self.region
                .symbols
                .iter()
                .find(|(n, _)| isl_name(n) == *p)
                .map(|(_, d)| d.base_type.clone())
        });
        self.loop_ranges
            .iter()
            .map(|l| l.ty.clone())
            .chain(param_types)
            .filter_map(|t| crate::front::syntax::integer_range(&t))
            .any(|(lo, hi)| Some((lo.min(int.unwrap().0), hi.max(int.unwrap().1))) != int)
    }

    /// The values iterators read after their loops have after the
    /// region (`Scop::live_out_iters`).
    pub(super) fn live_out_iters(&self, scop: &mut Scop) -> Result<()> {
        let width = self
            .live_outs
            .iter()
            .map(|l| l.time.len())
            .max()
            .unwrap_or(0);
        for (n, lo) in self.live_outs.iter().enumerate() {
            let text = lo.value_set(&scop.params);
            let isl = &self.isl;
            let mut set = isl
                .set(&text)
                .and_then(|s| s.coalesce())
                .map_err(|e| isl.err("scop", e))?;
            // Several loops may leave their value in the variable: this
            // one's counts where no other loop's header runs after this
            // one's last run.
            let others: Vec<&loops::PendingLiveOut> = self
                .live_outs
                .iter()
                .enumerate()
                .filter(|(m, o)| *m != n && o.var == lo.var)
                .map(|(_, o)| o)
                .collect();
            if !others.is_empty() {
                let err = |e| isl.err("scop", e);
                // Without a maximum (an unbounded loop): the other loop's
                // runs that no run of this one follows.
                let mine = isl.set(&lo.exit_times(&scop.params, width)).map_err(err)?;
                for o in others {
                    let theirs = isl.set(&o.exit_times(&scop.params, width)).map_err(err)?;
                    let followed = theirs
                        .copy()
                        .and_then(|t| t.lex_le_set(mine.copy()?))
                        .and_then(|m| m.domain())
                        .map_err(err)?;
                    let overtaken = theirs
                        .subtract(followed)
                        .and_then(|l| l.params())
                        .map_err(err)?;
                    let keep = overtaken.complement().map_err(err)?;
                    set = set.intersect_params(keep).map_err(err)?;
                }
                set = set.coalesce().map_err(err)?;
            }
            scop.live_out_iters.push(LiveOutIter {
                var: lo.var.clone(),
                value: set.text(isl, "scop")?,
            });
        }
        Ok(())
    }

    /// Contradictory assumptions leave no parameter values at all.
    pub(super) fn check_assumptions(&self, context: &str) -> Result<()> {
        let Some((_, first)) = self.assumptions.first() else {
            return Ok(());
        };
        let isl = crate::isl::Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        let set = isl.set(context).map_err(|e| isl.err("scop", e))?;
        if set.is_empty().map_err(|e| isl.err("scop", e))? {
            return Err(Diagnostic::error(
                Code::ContradictoryAssumptions,
                Some(self.assumptions.last().map(|(_, l)| l.clone()).unwrap_or_else(|| first.clone())),
                "the `__pencil_assume` facts of this region contradict each other: no parameter values satisfy them all",
            )
            .with_hint(format!("the assumptions together say `{}`; remove or correct one", context)));
        }
        Ok(())
    }

    /// A `reduction` clause frees the order of its variable's updates, so
    /// its loop may use the variable in no other way: a read elsewhere in
    /// the loop (`if (s > 5)`, `B[i] = s`, `s += s * x`) sees whatever
    /// updates happened to run before it, and a write other than an
    /// update is lost or repeated. Either is an error at that use.
    pub(super) fn check_reduction_uses(&self) -> Result<()> {
        for (l, lp) in self.loops.iter().enumerate() {
            for (op, vars) in &lp.clauses.reductions {
                for var in vars {
                    for (s, st) in self.stmts.iter().enumerate() {
                        let touches = st
                            .reads
                            .iter()
                            .chain(st.writes.iter())
                            .any(|a| &a.array == var);
                        if !self.stmt_loops[s].contains(&l) || !touches {
                            continue;
                        }
                        let Some(u) = super::reduction_uses::first_other_use(
                            &st.body,
                            var,
                            *op,
                            Some(&st.loc),
                        ) else {
                            continue;
                        };
                        return Err(broken_reduction(var, *op, &lp.clauses, u));
                    }
                }
            }
        }
        Ok(())
    }

    /// The instance pairs whose dependences the `independent` pragmas
    /// remove: for a loop at depth d, instances of statements inside it in
    /// different iterations of it (same iterations of the loops around it);
    /// for its reduction clause, any two instances of its reduction
    /// assignments in the same iteration of the loops around it (their
    /// updates are atomic, so any order gives the same result up to the
    /// operator's associativity).
    pub(super) fn independent_pairs(&self, params: &[String]) -> String {
        let mut parts = Vec::new();
        for (l, lp) in self.loops.iter().enumerate() {
            let inside: Vec<usize> = (0..self.stmts.len())
                .filter(|&s| self.stmt_loops[s].contains(&l))
                .collect();
            for &s in &inside {
                for &t in &inside {
                    let ns = self.stmts[s].iterators.len();
                    let nt = self.stmts[t].iterators.len();
                    let a: Vec<String> = (0..ns).map(|k| format!("a{}", k)).collect();
                    let b: Vec<String> = (0..nt).map(|k| format!("b{}", k)).collect();
                    let mut same: Vec<String> =
                        (0..lp.depth).map(|k| format!("a{} = b{}", k, k)).collect();
                    let both_reduce = matches!(self.stmts[s].body, StmtBody::Assign { .. })
                        && matches!(self.stmts[t].body, StmtBody::Assign { .. })
                        && self.stmts[s].reductions.iter().any(|(v, _)| {
                            lp.clauses.reduction_of(v).is_some()
                                && self.stmts[t].reductions.iter().any(|(w, _)| w == v)
                        });
                    if !both_reduce {
                        same.push(format!("a{} != b{}", lp.depth, lp.depth));
                    }
                    let cons = if same.is_empty() {
                        String::new()
                    } else {
                        format!(" : {}", same.join(" and "))
                    };
                    parts.push(format!(
                        "S_{}[{}] -> S_{}[{}]{}",
                        s,
                        a.join(", "),
                        t,
                        b.join(", "),
                        cons
                    ));
                }
            }
        }
        // Atomic updates of one array commute, in whatever loops they are:
        // their mutual dependences are no ordering constraints. Their
        // dependences with every other statement stay.
        for &s in &self.atomics {
            for &t in &self.atomics {
                // Updates of one variable commute only with updates by
                // the same operator (`atomic_add` and `atomic_max` do not).
                let var = |k: usize| self.stmts[k].reductions.first().cloned();
                if var(s) != var(t) {
                    continue;
                }
                let a: Vec<String> = (0..self.stmts[s].iterators.len())
                    .map(|k| format!("a{}", k))
                    .collect();
                let b: Vec<String> = (0..self.stmts[t].iterators.len())
                    .map(|k| format!("b{}", k))
                    .collect();
                parts.push(format!(
                    "S_{}[{}] -> S_{}[{}]",
                    s,
                    a.join(", "),
                    t,
                    b.join(", ")
                ));
            }
        }
        format!("[{}] -> {{ {} }}", params.join(", "), parts.join("; "))
    }
}

/// The arrays among `names` that the region writes and that outlive it
/// (no locals, no scalars), as the `-v` notes list them (`` a`, `b ``),
/// with the pronoun for them; none where the region keeps the user's code,
/// which copies nothing.
fn written_among(
    scop: &Scop,
    names: &std::collections::BTreeSet<String>,
) -> Option<(String, &'static str)> {
    let found: Vec<&str> = scop
        .arrays
        .iter()
        .filter(|a| !a.is_scalar() && a.written && !a.local && names.contains(&a.name))
        .map(|a| a.name.as_str())
        .collect();
    if found.is_empty() || scop.host_only {
        return None;
    }
    Some((
        found.join("`, `"),
        if found.len() == 1 { "it" } else { "them" },
    ))
}
