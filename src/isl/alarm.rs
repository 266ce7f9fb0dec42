//! Stops isl work in progress at a deadline. `Isl::check_deadline` runs
//! between isl calls, so one long call (a dataflow analysis, a lexmin of
//! many pieces) could overrun its region's time by seconds, until the
//! watchdog killed the compiling process and everything that process had
//! compiled was lost with it. At the deadline this thread spends the
//! context's operation budget (a budget of one operation), which isl
//! checks wherever it counts an operation (`isl_ctx_next_operation`): the
//! call fails as it would on its budget, `Isl::err` reports the region
//! running out of its time, and the driver keeps what it already has.
//! (isl's own `isl_ctx_abort` leaves no error message, which isl-rs reads
//! through a null pointer.)
//!
//! isl lets another thread stop a context's work this way (its abort flag
//! is a plain field as the budget is); the alarm owns nothing of the
//! context but its address, and is stopped before the context is freed
//! (`Isl` declares it first, so it drops first).

use crate::clock::Deadline;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

extern "C" {
    fn isl_ctx_set_max_operations(ctx: libc::uintptr_t, max_operations: libc::c_ulong);
}

/// The budget a rung alarm leaves: none (0 would mean no limit).
pub(super) const SPENT: u64 = 1;

#[derive(Default)]
struct State {
    at: Option<Deadline>,
    quit: bool,
}

type Shared = Arc<(Mutex<State>, Condvar, AtomicBool)>;

/// The alarm of one isl context; its thread starts with the first deadline.
pub(super) struct Alarm {
    ctx: libc::uintptr_t,
    shared: Shared,
    thread: Option<JoinHandle<()>>,
}

impl Alarm {
    pub(super) fn new(ctx: libc::uintptr_t) -> Alarm {
        Alarm {
            ctx,
            shared: Arc::new((
                Mutex::new(State::default()),
                Condvar::new(),
                AtomicBool::new(false),
            )),
            thread: None,
        }
    }

    /// Whether the alarm rang since the last `set`: the context's budget
    /// is spent, and must stay so (`Isl::set_budget`).
    pub(super) fn rang(&self) -> bool {
        self.shared.2.load(Ordering::SeqCst)
    }

    /// Stops the context's work at `at` (none: never). The caller gives
    /// the context its budget again: an earlier alarm is over.
    pub(super) fn set(&mut self, at: Option<Deadline>) {
        if at.is_some() && self.thread.is_none() {
            let (ctx, shared) = (self.ctx, self.shared.clone());
            self.thread = std::thread::Builder::new()
                .name("pencilc-isl-alarm".into())
                .spawn(move || ring(ctx, &shared))
                .ok();
        }
        let (lock, wake, rang) = &*self.shared;
        let mut s = lock.lock().unwrap_or_else(|p| p.into_inner());
        // Under the lock: the thread cannot ring between the reset and
        // the new time.
        rang.store(false, Ordering::SeqCst);
        s.at = at;
        wake.notify_one();
    }
}

/// How long the alarm waits at most before it reads the deadline's clock
/// again.
const RECHECK: Duration = Duration::from_millis(50);

/// The thread: waits for the deadline, spends the budget, waits for the
/// next.
fn ring(ctx: libc::uintptr_t, shared: &Shared) {
    let (lock, wake, rang) = &**shared;
    let mut s = lock.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        if s.quit {
            return;
        }
        s = match s.at {
            None => wake.wait(s).unwrap_or_else(|p| p.into_inner()),
            Some(ref t) => {
                let left = t.left();
                if left.is_zero() {
                    // First the flag, then the budget: a budget set anew
                    // after this reads the flag (`Isl::set_budget`).
                    rang.store(true, Ordering::SeqCst);
                    unsafe { isl_ctx_set_max_operations(ctx, SPENT as libc::c_ulong) };
                    s.at = None;
                    s
                } else {
                    // CPU time passes no faster than wall-clock time on
                    // one thread; a charge (a child's time) can jump it,
                    // so look again at least every RECHECK.
                    wake.wait_timeout(s, left.min(RECHECK))
                        .unwrap_or_else(|p| p.into_inner())
                        .0
                }
            }
        };
    }
}

impl Drop for Alarm {
    fn drop(&mut self) {
        if let Some(t) = self.thread.take() {
            let (lock, wake, _) = &*self.shared;
            lock.lock().unwrap_or_else(|p| p.into_inner()).quit = true;
            wake.notify_one();
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::clock::{spin, Deadline};
    use crate::diag::Code;
    use crate::isl::{Isl, IslResultExt};
    use std::time::Duration;

    /// Work that needs isl's simplex (it counts operations).
    fn work(isl: &Isl) -> crate::diag::Result<bool> {
        let s = isl
            .set("[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i and 3j >= 2i + 1 }")
            .isl(isl, "test")?;
        s.lexmin().isl(isl, "test")?.is_empty().isl(isl, "test")
    }

    #[test]
    fn isl_work_fails_after_the_deadline_and_works_again_with_the_next() {
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        isl.set_deadline(Some(Deadline::after(Duration::from_millis(5))));
        spin(Duration::from_millis(10));
        // The alarm looks at the thread's clock at least every RECHECK.
        std::thread::sleep(super::RECHECK * 2);
        let e = work(&isl).unwrap_err();
        assert_eq!(e.code, Code::Budget);
        assert!(e.message.contains("ran out of its time"), "{}", e.message);
        // The stage's budget set anew (`reset_budget`) stays spent.
        isl.reset_budget();
        assert!(work(&isl).is_err());
        // A new deadline, or none, lifts it.
        isl.set_deadline(Some(Deadline::after(Duration::from_secs(60))));
        assert_eq!(work(&isl).unwrap(), false);
        isl.set_deadline(None);
        assert_eq!(work(&isl).unwrap(), false);
    }

    #[test]
    fn a_context_without_a_deadline_starts_no_alarm() {
        let isl = Isl::new(crate::isl::DEFAULT_MAX_OPERATIONS);
        assert!(isl.alarm.borrow().thread.is_none());
        assert_eq!(work(&isl).unwrap(), false);
        isl.set_deadline(Some(Deadline::after(Duration::from_secs(60))));
        assert!(isl.alarm.borrow().thread.is_some());
    }
}
