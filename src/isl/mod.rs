//! Thin layer over isl-rs: one `Isl` session per file and thread (isl
//! contexts must not be shared across threads), error conversion with an
//! operation budget, and the AST-build functions isl-rs does not bind.

pub mod affine;
mod alarm;
pub mod ast_build;
pub mod order;
pub mod time;
pub mod tree;

use crate::clock::Deadline;
use crate::diag::{Code, Diagnostic};
use isl_rs::{Context, LibISLError, Map, Set, UnionMap, UnionSet};
use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Duration;

/// Default cap on isl operations per stage; exhausting it is reported as a
/// diagnostic instead of hanging on a pathological input.
pub const DEFAULT_MAX_OPERATIONS: u64 = 200_000_000;

extern "C" {
    fn isl_options_set_on_error(ctx: libc::uintptr_t, val: i32) -> i32;
    fn isl_options_set_schedule_outer_coincidence(ctx: libc::uintptr_t, val: i32) -> i32;
    fn isl_options_set_schedule_max_coefficient(ctx: libc::uintptr_t, val: i32) -> i32;
    fn isl_options_set_schedule_max_constant_term(ctx: libc::uintptr_t, val: i32) -> i32;
    fn isl_options_set_tile_scale_tile_loops(ctx: libc::uintptr_t, val: i32) -> i32;
    fn isl_options_set_tile_shift_point_loops(ctx: libc::uintptr_t, val: i32) -> i32;
    fn isl_options_set_ast_build_atomic_upper_bound(ctx: libc::uintptr_t, val: i32) -> i32;
    fn isl_ctx_last_error(ctx: libc::uintptr_t) -> i32;
    /// Counts one operation; -1 once the budget is spent (isl_ctx.c).
    fn isl_ctx_next_operation(ctx: libc::uintptr_t) -> i32;
    fn isl_ctx_last_error_msg(ctx: libc::uintptr_t) -> *const libc::c_char;
}

const ISL_ON_ERROR_CONTINUE: i32 = 1;
/// `isl_error_quota` in isl's `enum isl_error`.
const ISL_ERROR_QUOTA: i32 = 6;

/// One isl context with pencilc's options. Everything built from it must be
/// dropped before it; stages therefore hold it by reference only.
pub struct Isl {
    /// Aborts isl's work at the deadline (`alarm`); declared first, so
    /// that it stops before the context is freed.
    alarm: RefCell<alarm::Alarm>,
    /// Objects read from isl text, by their text. The `Scop` and the
    /// dependences are plain text that every stage reads again; parsing
    /// it was a third of a region's isl time (deriche). Declared before
    /// `ctx`, so that they are freed before it.
    parsed: RefCell<Parsed>,
    pub ctx: Context,
    max_operations: u64,
    /// When the current region's compilation must end (`check_deadline`).
    deadline: RefCell<Option<Deadline>>,
    /// Identifiers that generated expressions read through a cast, with
    /// the type: the current region's variables whose own type is not
    /// its index type (`Scop::bound_cast`).
    id_casts: RefCell<Vec<(String, &'static str)>>,
}

#[derive(Default)]
struct Parsed {
    union_maps: HashMap<String, UnionMap>,
    union_sets: HashMap<String, UnionSet>,
    maps: HashMap<String, Map>,
    sets: HashMap<String, Set>,
    /// Union maps computed from text, by a key naming the computation.
    derived: HashMap<String, UnionMap>,
}

/// A reader with a cache: `$field` of `Parsed` holds `$ty`s.
macro_rules! cached_reader {
    ($name:ident, $field:ident, $ty:ty) => {
        /// The object `text` denotes, read once per session.
        pub fn $name(&self, text: &str) -> std::result::Result<$ty, LibISLError> {
            if let Some(x) = self.parsed.borrow().$field.get(text) {
                return x.copy();
            }
            // Text: the model (`Scop`) and the dependences are plain Rust
            // values, cloned, sent to worker threads and saved, which isl
            // objects tied to one context cannot be.
            let x = <$ty>::read_from_str(&self.ctx, text)?;
            let copy = x.copy()?;
            self.parsed
                .borrow_mut()
                .$field
                .insert(text.to_string(), copy);
            Ok(x)
        }
    };
}

impl Isl {
    pub fn new(max_operations: u64) -> Isl {
        let ctx = Context::alloc();
        unsafe {
            isl_options_set_on_error(ctx.ptr, ISL_ON_ERROR_CONTINUE);
            // PPCG's GPU setting: try hard to make the outermost member of each
            // band coincident, since that is what becomes a kernel.
            isl_options_set_schedule_outer_coincidence(ctx.ptr, 1);
            // Bound schedule coefficients as Pluto does: large skewing factors
            // rarely help a GPU mapping and make generated bounds overflow-prone.
            isl_options_set_schedule_max_coefficient(ctx.ptr, 8);
            isl_options_set_schedule_max_constant_term(ctx.ptr, 64);
            isl_options_set_tile_scale_tile_loops(ctx.ptr, 1);
            isl_options_set_tile_shift_point_loops(ctx.ptr, 0);
            isl_options_set_ast_build_atomic_upper_bound(ctx.ptr, 1);
        }
        ctx.set_max_operations(max_operations);
        Isl {
            alarm: RefCell::new(alarm::Alarm::new(ctx.ptr)),
            parsed: RefCell::new(Parsed::default()),
            ctx,
            max_operations,
            deadline: RefCell::new(None),
            id_casts: RefCell::new(Vec::new()),
        }
    }

    /// The identifier `name`. isl makes identifiers from their names (its
    /// `read_from_str` of an identifier parses nothing): this is where
    /// every stage gets them.
    pub fn id(&self, name: &str) -> std::result::Result<isl_rs::Id, LibISLError> {
        isl_rs::Id::read_from_str(&self.ctx, name)
    }

    /// A schedule tree from its text. Schedules cross stages as text on
    /// purpose: isl's scheduler runs in a worker process that the
    /// watchdog can kill (`sched::worker`) and returns its tree as text,
    /// `--save-schedule` and `--load-schedule` files hold trees, and each
    /// later stage (`valid`, `map`, `ast`) takes a fresh tree it may
    /// change in place, where an isl schedule could not be shared.
    pub fn schedule(&self, tree: &str) -> std::result::Result<isl_rs::Schedule, LibISLError> {
        isl_rs::Schedule::read_from_str(&self.ctx, tree)
    }

    /// Sets the identifiers that generated expressions read through a
    /// cast, with the type of each.
    pub fn set_id_casts(&self, casts: Vec<(String, &'static str)>) {
        *self.id_casts.borrow_mut() = casts;
    }

    pub fn id_cast(&self, id: &str) -> Option<&'static str> {
        self.id_casts
            .borrow()
            .iter()
            .find(|(x, _)| x == id)
            .map(|(_, t)| *t)
    }

    /// Sets (or clears) the time by which the current work must end: isl
    /// work still running then fails (`alarm`), and work after it fails
    /// until the next deadline is set.
    pub fn set_deadline(&self, deadline: Option<Deadline>) {
        self.alarm.borrow_mut().set(deadline.clone());
        *self.deadline.borrow_mut() = deadline;
        self.set_budget(self.max_operations);
    }

    /// Sets the context's operation budget, unless the alarm spent it.
    fn set_budget(&self, budget: u64) {
        self.ctx.set_max_operations(budget);
        // After the budget: an alarm that rang before it spends it again.
        if self.alarm.borrow().rang() {
            self.ctx.set_max_operations(alarm::SPENT);
        }
    }

    /// The time by which the current work must end, if any.
    pub fn deadline(&self) -> Option<Deadline> {
        self.deadline.borrow().clone()
    }

    /// The operation budget of each piece of isl work (0: none).
    pub fn max_operations(&self) -> u64 {
        self.max_operations
    }

    /// Time left before the deadline (`None`: no deadline).
    pub fn time_left(&self) -> Option<Duration> {
        self.deadline.borrow().as_ref().map(|d| d.left())
    }

    /// A budget error once the deadline has passed. Stages call it between
    /// isl computations (per kernel, per launch, per reference group), so
    /// that a region's compilation ends near its deadline; the driver then
    /// falls back to something simpler.
    pub fn check_deadline(&self, stage: &str) -> crate::diag::Result<()> {
        match self.deadline.borrow().as_ref() {
            Some(d) if d.passed() => Err(Diagnostic::error(
                Code::Budget,
                None,
                format!("the region ran out of its time in stage `{}`", stage),
            )
            .with_hint("raise --schedule-timeout (seconds per region), or simplify the region")),
            _ => Ok(()),
        }
    }

    /// `make()`, computed once per session and `key`.
    pub fn derived_union_map(
        &self,
        key: &str,
        make: impl FnOnce() -> crate::diag::Result<UnionMap>,
    ) -> crate::diag::Result<UnionMap> {
        if let Some(x) = self.parsed.borrow().derived.get(key) {
            return x.copy().isl(self, "isl");
        }
        let x = make()?;
        let copy = x.copy().isl(self, "isl")?;
        self.parsed
            .borrow_mut()
            .derived
            .insert(key.to_string(), copy);
        Ok(x)
    }

    cached_reader!(union_map, union_maps, UnionMap);
    cached_reader!(union_set, union_sets, UnionSet);
    cached_reader!(map, maps, Map);
    cached_reader!(set, sets, Set);

    /// Starts a fresh budget for the next stage.
    pub fn reset_budget(&self) {
        self.ctx.reset_operations();
        self.set_budget(self.max_operations);
    }

    /// Runs `work` within `limit` isl operations (at most the stage's own
    /// budget), with a fresh count for it and for the caller after it:
    /// `Ok(None)` where it ran out of them while the region's time had
    /// not. For work that is worth doing only where it is cheap (a check,
    /// an optimisation with a fallback); other errors stay errors.
    pub fn within_operations<T>(
        &self,
        limit: u64,
        work: impl FnOnce() -> crate::diag::Result<T>,
    ) -> crate::diag::Result<Option<T>> {
        let budget = match self.max_operations {
            0 => limit,
            m => m.min(limit),
        };
        self.ctx.reset_operations();
        self.set_budget(budget);
        let r = work();
        self.reset_budget();
        match r {
            Ok(x) => Ok(Some(x)),
            Err(e) if e.code == Code::Budget && self.time_left() != Some(Duration::ZERO) => {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Converts an isl-rs error into a diagnostic naming the stage.
    pub fn err(&self, stage: &str, e: LibISLError) -> Diagnostic {
        self.error_from_msg(stage, &e.to_string())
    }

    fn error_from_msg(&self, stage: &str, msg: &str) -> Diagnostic {
        // Where in pencilc an isl call failed, for reports of internal
        // errors: appended to the file the variable names (compile
        // workers' stderr is not the user's).
        if let Some(path) = std::env::var_os("PENCILC_DEBUG_ISL") {
            use std::io::Write;
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                let _ = writeln!(
                    f,
                    "isl error in stage `{}`: {}\n{}",
                    stage,
                    msg,
                    std::backtrace::Backtrace::force_capture()
                );
            }
        }
        let rang = self.alarm.borrow().rang();
        let quota = msg.contains("Quota") || self.ctx.aborted() != 0 || self.over_quota();
        self.ctx.reset_error();
        if rang && quota {
            // The alarm: the deadline passed inside an isl call.
            Diagnostic::error(
                Code::Budget,
                None,
                format!("the region ran out of its time in stage `{}`", stage),
            )
            .with_hint("raise --schedule-timeout (seconds per region), or simplify the region")
        } else if quota {
            Diagnostic::error(
                Code::Budget,
                None,
                format!(
                    "isl ran out of its operation budget ({} operations) in stage `{}`",
                    self.max_operations, stage
                ),
            )
            .with_hint("raise the budget with --isl-max-operations N, or simplify the region")
        } else {
            Diagnostic::internal(stage, format!("isl: {}", msg))
        }
    }

    /// Whether the budget is spent: isl's later error (a parser's "syntax
    /// error" on text printed from an object the budget cut short) replaces
    /// the quota error it started from.
    fn over_quota(&self) -> bool {
        unsafe { isl_ctx_next_operation(self.ctx.ptr) < 0 }
    }

    /// Checks the context's error state after a raw FFI call that returned null.
    pub fn last_error(&self, stage: &str) -> Diagnostic {
        let (code, msg) = unsafe {
            let code = isl_ctx_last_error(self.ctx.ptr);
            let p = isl_ctx_last_error_msg(self.ctx.ptr);
            let msg = if p.is_null() {
                "unknown error".to_string()
            } else {
                std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
            };
            (code, msg)
        };
        if code == ISL_ERROR_QUOTA {
            return self.error_from_msg(stage, "Quota");
        }
        self.error_from_msg(stage, &msg)
    }
}

/// Shorthand: map an isl-rs result into a pencilc result for `stage`.
pub trait IslResultExt<T> {
    fn isl(self, isl: &Isl, stage: &str) -> crate::diag::Result<T>;
}

impl<T> IslResultExt<T> for Result<T, LibISLError> {
    fn isl(self, isl: &Isl, stage: &str) -> crate::diag::Result<T> {
        self.map_err(|e| isl.err(stage, e))
    }
}

/// The isl version bundled with isl-rs, for `--version`.
pub fn isl_version() -> String {
    extern "C" {
        fn isl_version() -> *const libc::c_char;
    }
    unsafe {
        let p = isl_version();
        if p.is_null() {
            return "unknown".into();
        }
        let v = std::ffi::CStr::from_ptr(p)
            .to_string_lossy()
            .trim()
            .to_string();
        // isl built from a release tarball does not know its own version;
        // Cargo.toml pins isl-rs 0.3.1, which bundles isl 0.27.
        match v.strip_prefix("UNKNOWN") {
            Some(rest) => format!("0.27{} (bundled with isl-rs 0.3.1)", rest),
            None => v,
        }
    }
}

/// An isl object as isl prints it. isl-rs's `to_str` reads isl's string
/// without checking it: where isl fails to print (its operation budget
/// spent by the alarm, or an object that is already an error), that read
/// went through a null pointer and crashed the compile worker
/// (`--schedule-timeout 2` on tests/programs/forward_scalar.c). Here a
/// failure is the context's error.
pub trait IslText {
    fn text(&self, isl: &Isl, stage: &str) -> crate::diag::Result<String>;
}

macro_rules! isl_text {
    ($ty:ty, $print:ident) => {
        impl IslText for $ty {
            fn text(&self, isl: &Isl, stage: &str) -> crate::diag::Result<String> {
                extern "C" {
                    fn $print(p: libc::uintptr_t) -> *mut libc::c_char;
                }
                let p = if self.ptr == 0 {
                    std::ptr::null_mut()
                } else {
                    // SAFETY: a live isl object of this type.
                    unsafe { $print(self.ptr) }
                };
                if p.is_null() {
                    return Err(isl.last_error(stage));
                }
                // SAFETY: isl returns a NUL-terminated string it
                // allocated with malloc, which the caller frees.
                let text = unsafe { std::ffi::CStr::from_ptr(p) }
                    .to_string_lossy()
                    .into_owned();
                unsafe { libc::free(p as *mut libc::c_void) };
                Ok(text)
            }
        }
    };
}

isl_text!(isl_rs::Schedule, isl_schedule_to_str);
isl_text!(isl_rs::ScheduleConstraints, isl_schedule_constraints_to_str);
isl_text!(isl_rs::UnionMap, isl_union_map_to_str);
isl_text!(isl_rs::UnionSet, isl_union_set_to_str);
isl_text!(isl_rs::Map, isl_map_to_str);
isl_text!(isl_rs::Set, isl_set_to_str);
isl_text!(isl_rs::BasicSet, isl_basic_set_to_str);
isl_text!(isl_rs::Aff, isl_aff_to_str);
isl_text!(isl_rs::PwAff, isl_pw_aff_to_str);
isl_text!(isl_rs::MultiUnionPwAff, isl_multi_union_pw_aff_to_str);
isl_text!(isl_rs::UnionPwAff, isl_union_pw_aff_to_str);
isl_text!(isl_rs::Constraint, isl_constraint_to_str);
isl_text!(isl_rs::Val, isl_val_to_str);
isl_text!(isl_rs::BasicMap, isl_basic_map_to_str);

#[cfg(test)]
mod text_tests {
    use super::{Isl, IslText};

    /// What isl cannot print is an error, not a read through a null
    /// pointer (isl-rs's `to_str` crashed there).
    #[test]
    fn an_object_isl_cannot_print_is_an_error() {
        let isl = Isl::new(super::DEFAULT_MAX_OPERATIONS);
        let broken = isl_rs::Schedule {
            ptr: 0,
            should_free_on_drop: false,
        };
        assert!(broken.text(&isl, "test").is_err());
        let set = isl.set("{ [i] : 0 <= i < 4 }").unwrap();
        assert_eq!(set.text(&isl, "test").unwrap(), "{ [i] : 0 <= i <= 3 }");
    }
}
