//! The polyhedral model of one region: statements with iteration domains,
//! original schedules and access relations, the arrays they touch, and the
//! parameters. All isl objects are kept in isl's text notation so that a
//! `Scop` is plain, deterministic data that any stage can re-read into its
//! own isl context (and that `--emit scop` prints as it is).
//!
//! Invariant: a `Scop` is immutable once built; later stages derive new
//! artefacts from it and never edit it.

mod bounds;
mod build;
mod continues;
mod counted_whiles;
pub mod expand;
mod final_values;
pub mod forward;
pub mod frame;
mod index_values;
mod last_writes;
pub mod make_room;
pub mod nesting;
pub mod partials;
pub mod prologue;
mod reduction_uses;
pub mod reductions;
mod reshape;
pub mod split;
#[cfg(test)]
pub(crate) mod test_support;

pub use build::{
    is_pure_function, reduction_value, reduction_value_in, PENCIL_BUILTINS, PURE_FUNCTIONS,
};

pub use build::{build_scop, build_scop_as_written};
pub use reduction_uses::{only_reduction_uses, update_values_read};
pub use reductions::ReductionMode;
pub use reshape::footprint::copied_elements;

use crate::diag::{Diagnostic, Loc};
use crate::front::affine::{isl_name, IntTy};
use crate::front::syntax::{AssignOp, Expr, RedOp, Stmt};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StmtId(pub usize);

#[derive(Clone, Debug)]
pub struct Scop {
    pub function: String,
    /// The region's lines in the main file, or in the header of
    /// `inclusion` (`front::parse::Region`).
    pub begin_line: u32,
    pub end_line: u32,
    pub inclusion: Option<crate::front::parse::Inclusion>,
    pub loc: Loc,
    /// isl names of the parameters, sorted.
    pub params: Vec<String>,
    /// Constraints on the parameters, as an isl set (`[n] -> { : ... }`):
    /// the user's assumptions and `checked`.
    pub context: String,
    /// What the accesses imply about the parameters (`n <= 40` where
    /// `A[40]` is indexed up to `n - 1`, see `bounds`), as an isl set, or
    /// `None`. It is part of `context` and of every domain; the generated
    /// code tests it on entry and runs the original code where it fails.
    pub checked: Option<String>,
    /// The values each parameter's C type can hold, as an isl set
    /// (`[n] -> { : -2147483648 <= n <= 2147483647 }`): true of every run,
    /// but kept out of `context`, where such constants would only make
    /// isl split code at values no real run reaches. Decisions that need a
    /// bound on every parameter use it (the mapper's wrap-around grid).
    pub param_ranges: String,
    pub arrays: Vec<Array>,
    /// Pairs of arrays (names in order, at least one written) that may
    /// share memory at run time: an array parameter without `restrict`
    /// with another such parameter or a global array. The model treats
    /// every array as distinct memory, so the generated code runs only
    /// where their extents do not overlap.
    pub may_alias: Vec<(String, String)>,
    pub stmts: Vec<Statement>,
    /// `__pencil_kill` statements: they take part in dataflow only (a kill
    /// ends every value it covers), never in scheduling or code.
    pub kills: Vec<KillStmt>,
    /// Instance pairs whose dependences `#pragma pencil independent` and
    /// `reduction` clauses remove, as an isl union map (`{ }` if none).
    pub independent: String,
    /// Declarations of region-level locals (C text), for host code that
    /// keeps the user's variables (the C target).
    pub local_decls: Vec<String>,
    /// What host code runs after the region's code to give back what
    /// `local_decls` took from the heap (`expand`'s arrays).
    pub local_frees: Vec<String>,
    /// Warnings found while building (linearised subscripts, ...).
    pub warnings: Vec<Diagnostic>,
    /// The region cannot run anywhere but on the host, in the user's own
    /// code: a pointer whose reached elements are unknown has no device
    /// buffer (`reshape::footprint`; the warning says which).
    pub host_only: bool,
    /// What `-v` says about the model: arrays recovered from pointers and
    /// linearised subscripts, and how their shapes were proved or are
    /// checked at run time (`reshape`).
    pub notes: Vec<String>,
    /// Variables of the enclosing function that affine loops use as
    /// iterators, in the order of their loops: after the region each must
    /// hold the value C leaves in it.
    pub live_out_iters: Vec<LiveOutIter>,
    /// The C type of generated loop iterators, block and thread ids and
    /// the integers passed to kernels: `int`, or `long` (64 bits in
    /// OpenCL C, and on the LP64 hosts pencilc targets) where an iterator
    /// or a parameter of the region has a type wider than `int`. C computes
    /// in the widest type of the bounds; with `int` a `long` loop to
    /// 2147483650 never ended.
    pub index_type: String,
    /// Parameters of unsigned types of 32 or 64 bits (isl names, with
    /// their width). Generated loop bounds and guards compute with them as
    /// with mathematical integers, as isl does: they read them as `long`
    /// (C would turn `m - n` into unsigned arithmetic), and a 64-bit one
    /// above `LONG_MAX` runs the original code instead.
    pub unsigned_params: Vec<(String, u32)>,
    /// `int` parameters (isl names) that the context does not keep within
    /// `INT_SAFE_MAGNITUDE`, where the index type is `int`: generated
    /// loops step past their bounds by up to a tile times the wrap-around
    /// grid, which would overflow beyond it, so the entry check runs the
    /// original code for such values. With each, whether its lower and
    /// whether its upper side is open.
    pub near_int_limits: Vec<(String, bool, bool)>,
    /// The declared C type of each integer variable that the region reads
    /// and never writes (its parameters and read-only integer scalars),
    /// by C name. Kernels receive such a variable in this type where it is
    /// not `index_type`, because statements compute with it as C does
    /// (`u + n` with `int n` and `unsigned u` wraps); generated bounds and
    /// subscripts read it in the index type (`Scop::bound_cast`).
    pub value_types: Vec<(String, IntTy)>,
    /// The enclosing function's variables the region sees (not globals),
    /// as parameters of another function (`frame`).
    pub frame: Vec<frame::FrameVar>,
    /// Searches or arg-max loops were rewritten (`last_writes`): the
    /// driver may compare with `build_scop_as_written`'s model.
    pub searches_rewritten: bool,
    /// Every name of the file and of the user's device code
    /// (`front::names`): generated names are none of them.
    pub file_names: std::sync::Arc<crate::front::names::FileNames>,
    /// The functions of the file that the region calls as statements,
    /// read as device code, or why they cannot be (`front::parse::called`).
    pub called: std::collections::BTreeMap<String, crate::front::parse::called::Called>,
    /// Functions without a body whose calls in expressions the model takes
    /// as pure (`front::parse::Region::prototypes`).
    pub assumed_pure: std::collections::BTreeSet<String>,
    /// The value every call of the region's function in the file passes
    /// for a parameter, by its source name, where it is a constant
    /// (`front::parse::Region::call_values`): the sizes the GPU model
    /// profiles at when the user gives none.
    pub call_values: std::collections::BTreeMap<String, i64>,
    /// Set-up statements that the host runs, in this order, before the
    /// device code (`prologue::peel`): they keep their places in `stmts`
    /// with no instance and no access left.
    pub host_prologue: Vec<usize>,
    /// What each of them writes, by its index in `stmts`: the host hands
    /// it back to the user, and the printer runs a loop of theirs over
    /// the region's variable (`back::stmt`), though they keep no access.
    pub host_writes: std::collections::BTreeMap<usize, std::collections::BTreeSet<String>>,
}

/// The value an affine loop leaves in its iterator, a variable declared
/// outside the region.
#[derive(Clone, Debug)]
pub struct LiveOutIter {
    /// The C name.
    pub var: String,
    /// `[params] -> { [x] : ... }`: one value for the parameter values at
    /// which the loop's header runs, none where it does not (the variable
    /// then keeps what an earlier loop, or the code before, left there).
    pub value: String,
}

/// `__pencil_kill(x)` (or the implicit kill of a local): its instances
/// and the elements they kill.
#[derive(Clone, Debug)]
pub struct KillStmt {
    /// `K_<n>`.
    pub name: String,
    pub domain: String,
    pub schedule: String,
    pub kills: Vec<Access>,
}

/// The largest magnitude of an `int` parameter for which generated loops
/// run: they step past a bound by at most a tile times the wrap-around
/// grid (32 x 32768 by default), and 2^26 below `int`'s limits allows
/// tiles of 2048 (`Scop::near_int_limits`).
pub const INT_SAFE_MAGNITUDE: i64 = i32::MAX as i64 - STEP_MARGIN;

/// The largest magnitude of a 64-bit parameter for which the generated
/// code runs (`param_ranges`); the entry check's bound is this over the
/// largest factor of the region's expressions (`ast::overflow`), leaving
/// the rest of `long`'s range to iterators that step past a bound and to
/// sums of such terms.
pub const LONG_SAFE_MAGNITUDE: i64 = 1 << 59;

/// How far past a bound generated loops may step: a tile, or a tile
/// times the grid where the grid wraps around the tiles (`map::kernel`
/// refuses larger sizes).
pub const STEP_MARGIN: i64 = 1 << 26;

#[derive(Clone, Debug)]
pub struct Array {
    pub name: String,
    /// Element type as C text.
    pub elem_type: String,
    /// Extents, outermost first; empty for a scalar.
    pub extents: Vec<Extent>,
    pub read: bool,
    pub written: bool,
    /// Declared inside the region: dead before its declaration and after
    /// the region (the implicit kills), so never copied in or out.
    pub local: bool,
    /// `__pencil_kill` of the whole array before every access to it:
    /// elements the region does not write need not be copied in.
    pub killed_before: bool,
    /// `__pencil_kill` of the whole array after every access: its values
    /// are dead after the region, so it is not copied back.
    pub killed_after: bool,
    /// An array of structs declared outside the region (`VarDecl::members`):
    /// the struct's members, which the last subscript selects. Host code,
    /// which uses the user's declaration, prints that subscript as the
    /// member; kernels see an array of the members' type. Empty otherwise
    /// (region-local structs are declared by pencilc as such arrays).
    pub members: Vec<String>,
    /// Their struct type by a name host code can use (`VarDecl::struct_type`).
    pub struct_type: Option<String>,
    /// Where the model's elements are in the user's memory, where that is
    /// not what the declaration says (pointers, delinearised subscripts).
    pub layout: Option<Layout>,
    /// Declared `register` (or `volatile`): host code may not take its
    /// address (`&x` is an error for a `register` variable), so a scalar's
    /// copies to and from the device go through a local of pencilc's.
    pub no_address: bool,
    /// Its row-major index may exceed `int`'s range wherever the region
    /// runs (`build::index_width`): flat subscripts are computed in `long`.
    pub wide_index: bool,
    pub loc: Loc,
}

/// An array whose model is not its C declaration: a pointer (`float *p`,
/// `float (*p)[m]`), whose outermost extent is what the region accesses
/// (`Extent::Accessed`), or a flat buffer whose linearised subscripts
/// were delinearised (`p[i * m + j]` is `p[i][j]` of extents `[*, m]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The user's variable is flat (`float *p`, `float A[n * m]`, or the
    /// buffer that a pointer-to-array cast in the region reshapes) while
    /// the model has several dimensions: host code linearises subscripts
    /// with the model's extents, row-major, as the user's code did.
    pub host_flat: bool,
    /// Copies move the elements from the lexicographically first to the
    /// last that the region accesses (from `footprint_offset`, which the
    /// host computes). With `offset`, the device buffer holds just those
    /// and device subscripts subtract the offset; without, it starts at
    /// the pointer, the few elements before the first accessed allocated
    /// but never copied, and device subscripts are the host's.
    pub offset: bool,
    /// The elements the region accesses (isl set text, over the
    /// parameters), from which the host computes the buffer's range;
    /// with `whole_rows`, the rows (first subscripts) it accesses.
    pub accessed: String,
    /// A declared array whose buffer holds the rows the region touches,
    /// whole (`reshape::footprint::measure_rows`): from the first element
    /// of the first row to the last of the last, so that any box of
    /// elements read in bounds (a shared tile's copy) stays inside it.
    pub whole_rows: bool,
}

/// Bytes of one element of the C type `t` (an estimate for the cost
/// models: `long` as on LP64 targets).
pub fn elem_bytes(t: &str) -> f64 {
    let t = t.trim();
    if t.contains("char") || t.contains("bool") || t.contains("Bool") || t.contains("int8") {
        1.0
    } else if t.contains("short") || t.contains("int16") {
        2.0
    } else if t.contains("double") || t.contains("long") || t.contains("64") {
        8.0
    } else {
        4.0
    }
}

impl Array {
    pub fn is_scalar(&self) -> bool {
        self.extents.is_empty()
    }

    /// One struct of the user's (not an array of them) whose members the
    /// model holds as a 1-d array: host code takes its address.
    pub fn is_struct_object(&self) -> bool {
        !self.members.is_empty() && self.extents.len() == 1
    }

    /// Host code's pointer to the first element of an array (not a
    /// scalar): the name, or a struct object's address as its members'
    /// type (members side by side, as the generated code checks at
    /// compile time).
    pub fn host_pointer(&self) -> String {
        if self.is_struct_object() {
            format!("(({} *) &{})", self.elem_type, self.name)
        } else {
            self.name.clone()
        }
    }

    /// The device buffer starts at an offset from the user's pointer.
    pub fn has_offset(&self) -> bool {
        self.layout.as_ref().is_some_and(|l| l.offset)
    }
}

/// The kernel argument and host variable holding the offset of `array`'s
/// device buffer from the user's pointer, in elements (`Layout::offset`).
pub fn footprint_offset(array: &str) -> String {
    format!("pencilc_lo_{}", array)
}

/// The host variable holding the number of elements of `array`'s device
/// buffer (`Layout`).
pub fn footprint_len(array: &str) -> String {
    format!("pencilc_len_{}", array)
}

#[derive(Clone, Debug, PartialEq)]
pub enum Extent {
    Const(i64),
    /// A size expression over variables of the enclosing function (a VLA),
    /// kept as C text plus the names it uses.
    Expr {
        c_text: String,
        names: Vec<String>,
    },
    /// The outermost extent of a pointer: what the region accesses
    /// (`Array::layout`), known at run time only.
    Accessed,
}

#[derive(Clone, Debug)]
pub struct Statement {
    pub id: StmtId,
    /// The isl tuple name, `S_<id>`.
    pub name: String,
    /// The C names of the enclosing loop iterators, outermost first.
    pub iterators: Vec<String>,
    /// Their C types: the statement's own arithmetic with an iterator is
    /// in its type (`n - i` is unsigned for an `int i` and `unsigned n`),
    /// whatever type the generated loops use.
    pub iterator_types: Vec<crate::front::affine::IntTy>,
    /// `[params] -> { S_0[i, j] : ... }`
    pub domain: String,
    /// The original (2d+1) schedule, `[params] -> { S_0[i, j] -> [0, i, 0, j, 0] }`.
    pub schedule: String,
    pub reads: Vec<Access>,
    /// Must- and may-writes (`Access::may`).
    pub writes: Vec<Access>,
    pub body: StmtBody,
    /// Variables updated by a `reduction` clause of an enclosing
    /// independent loop: on a device, their updates are atomic.
    pub reductions: Vec<(String, RedOp)>,
    /// Names declared inside the statement (inner iterators, locals): they
    /// are private to one instance.
    pub local_names: Vec<String>,
    pub loc: Loc,
}

/// What one statement instance runs.
#[derive(Clone, Debug)]
pub enum StmtBody {
    /// An assignment with static-affine control (its accesses may still be
    /// may-accesses if a subscript is not affine).
    Assign { lhs: Expr, op: AssignOp, rhs: Expr },
    /// Code with dynamic control (data-dependent `if`, non-affine bounds,
    /// `while`, `break`, `continue`, local declarations), kept as one
    /// statement whose writes are all may-writes (PENCIL paper, Fig. 5-6).
    Compound(Vec<Stmt>),
    /// A call to a function with a summary.
    Call { name: String, args: Vec<Expr> },
}

#[derive(Clone, Debug)]
pub struct Access {
    pub array: String,
    /// `[params] -> { S_0[i, j] -> A[o0, o1] : ... }`
    pub relation: String,
    /// A may-access: some of the elements in the relation may not be
    /// accessed. Only may-writes matter: they never kill a value.
    pub may: bool,
}

impl Scop {
    /// Whether a set-up statement the host runs writes `v`.
    pub fn host_written(&self, v: &str) -> bool {
        self.host_writes.values().any(|w| w.contains(v))
    }

    pub fn array(&self, name: &str) -> Option<&Array> {
        self.arrays.iter().find(|a| a.name == name)
    }

    /// The C type of the integer variable `name` (its C or isl spelling)
    /// where it is not the index type: kernels receive it in that type.
    pub fn own_int_type(&self, name: &str) -> Option<IntTy> {
        let index = IntTy::of(&self.index_type);
        self.value_types
            .iter()
            .find(|(n, _)| n == name || isl_name(n) == name)
            .map(|(_, t)| *t)
            .filter(|t| Some(*t) != index)
    }

    /// The type in which generated bounds, guards and subscripts read the
    /// variable `name`: `long` for unsigned types of 32 bits or more (isl's
    /// integers do not wrap), the index type for narrower signed ones, and
    /// none where the variable's own type holds the computation already.
    pub fn bound_cast(&self, name: &str) -> Option<&'static str> {
        let t = self.own_int_type(name)?;
        let index = IntTy::of(&self.index_type).unwrap_or(IntTy::INT);
        if !t.signed && t.bits >= 32 {
            Some("long")
        } else if t.bits < index.bits {
            Some(index.c_name())
        } else {
            None
        }
    }

    pub fn param_prefix(&self) -> String {
        format!("[{}]", self.params.join(", "))
    }

    /// The parameter values for which a buffer's range is computed
    /// (`reshape::footprint`, `ast::footprint`): the context for pointers,
    /// as for everything else; for a declared array's rows
    /// (`whole_rows`), only what the entry check tests (`checked`), so
    /// that its buffer holds what the region touches even where a
    /// `__pencil_assume` is false (a smaller buffer would be written
    /// past its end: tests/programs/assume_context.c).
    pub fn footprint_context(&self, whole_rows: bool) -> String {
        match (&self.checked, whole_rows) {
            (_, false) => self.context.clone(),
            (Some(c), true) => c.clone(),
            (None, true) => format!("{} -> {{ : }}", self.param_prefix()),
        }
    }

    /// All statement domains as one isl union set.
    pub fn domain_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts.iter().map(|s| strip_params(&s.domain)),
        )
    }

    pub fn schedule_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts.iter().map(|s| strip_params(&s.schedule)),
        )
    }

    pub fn reads_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts
                .iter()
                .flat_map(|s| s.reads.iter().map(|a| strip_params(&a.relation))),
        )
    }

    /// All writes, must and may.
    pub fn writes_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts
                .iter()
                .flat_map(|s| s.writes.iter().map(|a| strip_params(&a.relation))),
        )
    }

    pub fn must_writes_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts.iter().flat_map(|s| {
                s.writes
                    .iter()
                    .filter(|a| !a.may)
                    .map(|a| strip_params(&a.relation))
            }),
        )
    }

    pub fn may_writes_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts.iter().flat_map(|s| {
                s.writes
                    .iter()
                    .filter(|a| a.may)
                    .map(|a| strip_params(&a.relation))
            }),
        )
    }

    pub fn kills_text(&self) -> String {
        union_text(
            &self.params,
            self.kills
                .iter()
                .flat_map(|k| k.kills.iter().map(|a| strip_params(&a.relation))),
        )
    }

    /// The original schedule of the statements and the kills.
    pub fn schedule_with_kills_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts
                .iter()
                .map(|s| strip_params(&s.schedule))
                .chain(self.kills.iter().map(|k| strip_params(&k.schedule))),
        )
    }

    pub fn domain_with_kills_text(&self) -> String {
        union_text(
            &self.params,
            self.stmts
                .iter()
                .map(|s| strip_params(&s.domain))
                .chain(self.kills.iter().map(|k| strip_params(&k.domain))),
        )
    }

    /// Every name the region's code uses or declares, every name of the
    /// file it is in (macros included) and the words OpenCL C and CUDA
    /// reserve, for choosing fresh names that never meet the user's nor
    /// the device languages' own.
    pub fn all_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        names.extend(self.params.iter().map(|s| s.as_str()));
        names.extend(self.arrays.iter().map(|a| a.name.as_str()));
        for st in &self.stmts {
            names.extend(st.iterators.iter().map(|s| s.as_str()));
            names.extend(st.local_names.iter().map(|s| s.as_str()));
        }
        names.extend(self.file_names.taken.iter().map(|s| s.as_str()));
        names.extend(
            crate::front::device_words::all_words()
                .iter()
                .map(|s| s.as_str()),
        );
        names
    }

    /// Whether `name` is a name of the region's own code (not of the rest
    /// of the file): a parameter, array or scalar, iterator or local.
    pub fn is_users_name(&self, name: &str) -> bool {
        self.array(name).is_some()
            || self.params.iter().any(|p| p == name)
            || self.frame.iter().any(|f| f.name == name)
            || self.stmts.iter().any(|st| {
                st.iterators.iter().any(|i| i == name) || st.local_names.iter().any(|l| l == name)
            })
    }

    /// Whether `name` is one of `all_names`.
    pub fn is_name_taken(&self, name: &str) -> bool {
        self.file_names.contains(name)
            || crate::front::device_words::all_words()
                .binary_search_by(|w| w.as_str().cmp(name))
                .is_ok()
            || self.array(name).is_some()
            || self.params.iter().any(|p| p == name)
            || self.stmts.iter().any(|st| {
                st.iterators.iter().any(|i| i == name) || st.local_names.iter().any(|l| l == name)
            })
    }

    /// How every `heading` starts.
    pub const HEADING_PREFIX: &'static str = "# region in ";

    /// The comment line that starts this region's part of a dump or a
    /// saved schedule: the function and the lines of its pragmas, and
    /// the header that holds them when they are not in the user's file
    /// (readers that know only the user's file must not take a header's
    /// lines for its own).
    pub fn heading(&self) -> String {
        let mut s = format!(
            "{}`{}` at lines {}-{}",
            Self::HEADING_PREFIX,
            self.function,
            self.begin_line,
            self.end_line
        );
        if let Some(inc) = &self.inclusion {
            s.push_str(&format!(
                " of {} (included at line {})",
                inc.header.display(),
                inc.include_line
            ));
        }
        s.push('\n');
        s
    }

    /// The text dump for `--emit scop`.
    pub fn dump(&self) -> String {
        let mut s = String::new();
        s.push_str(&self.heading());
        s.push_str(&format!("context: \"{}\"\n", self.context));
        s.push_str("arrays:\n");
        for a in &self.arrays {
            let ext: Vec<String> = a
                .extents
                .iter()
                .map(|e| match e {
                    Extent::Const(c) => c.to_string(),
                    Extent::Expr { c_text, .. } => c_text.clone(),
                    Extent::Accessed => "*".to_string(),
                })
                .collect();
            s.push_str(&format!(
                "  - {{ name: {}, type: {}, extents: [{}], read: {}, written: {} }}\n",
                a.name,
                a.elem_type,
                ext.join(", "),
                a.read,
                a.written
            ));
        }
        s.push_str("statements:\n");
        for st in &self.stmts {
            s.push_str(&format!("  - name: {}  # line {}\n", st.name, st.loc.line));
            s.push_str(&format!("    domain: \"{}\"\n", st.domain));
            s.push_str(&format!("    schedule: \"{}\"\n", st.schedule));
            for r in &st.reads {
                s.push_str(&format!("    read: \"{}\"\n", r.relation));
            }
            for w in &st.writes {
                let kind = if w.may { "may_write" } else { "write" };
                s.push_str(&format!("    {}: \"{}\"\n", kind, w.relation));
            }
            if matches!(st.body, StmtBody::Compound(_)) {
                s.push_str("    compound: true\n");
            }
            for (v, op) in &st.reductions {
                s.push_str(&format!(
                    "    reduction: {{ var: {}, op: {} }}\n",
                    v,
                    op.name()
                ));
            }
        }
        for k in &self.kills {
            s.push_str(&format!("  - name: {}\n", k.name));
            s.push_str(&format!("    domain: \"{}\"\n", k.domain));
            for a in &k.kills {
                s.push_str(&format!("    kill: \"{}\"\n", a.relation));
            }
        }
        if self.independent != "{ }" && !self.independent.is_empty() {
            s.push_str(&format!("independent: \"{}\"\n", self.independent));
        }
        s
    }
}

/// Removes a leading `[params] -> ` from an isl text.
fn strip_params(t: &str) -> &str {
    match t.find("->") {
        Some(p)
            if t.trim_start().starts_with('[')
                && t[..p].trim_end().ends_with(']')
                && !t[..p].contains('{') =>
        {
            t[p + 2..].trim_start()
        }
        _ => t,
    }
}

fn union_text<'a>(params: &[String], parts: impl Iterator<Item = &'a str>) -> String {
    let inner: Vec<&str> = parts
        .map(|p| {
            p.trim()
                .trim_start_matches('{')
                .trim_end_matches('}')
                .trim()
        })
        .filter(|p| !p.is_empty())
        .collect();
    format!("[{}] -> {{ {} }}", params.join(", "), inner.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn strip_and_union() {
        assert_eq!(
            strip_params("[n] -> { S_0[i] : 0 <= i < n }"),
            "{ S_0[i] : 0 <= i < n }"
        );
        assert_eq!(strip_params("{ S_0[i] -> A[i] }"), "{ S_0[i] -> A[i] }");
        let u = union_text(&["n".into()], ["{ S_0[i] }", "{ S_1[i] }"].into_iter());
        assert_eq!(u, "[n] -> { S_0[i]; S_1[i] }");
    }
}
