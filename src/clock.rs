//! The time a compilation spends, counted so that what pencilc generates
//! does not depend on how busy the machine is.
//!
//! A region's compilation has a budget (`--schedule-timeout`), and what
//! runs out of it falls back to something simpler: a budget of wall-clock
//! time made the output depend on the machine's load (adi at LARGE, 4 s
//! of work, kept shared tiles under `make -j` that it drops on an idle
//! machine). Budgets are counted instead in CPU time: that of the thread
//! that compiles, plus that of the processes it waited for (the
//! scheduler's worker, `charge`). A starved compilation is slower, not
//! different. A wall-clock backstop (`WALL_FACTOR` times the budget) still
//! ends work that spends no CPU time at all (a hung child, a stalled read).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How many times its budget in wall-clock time a piece of work may take
/// before its deadline passes whatever its CPU time: a compilation
/// sharing its core with several others still ends within its budget of
/// CPU time long before that.
pub const WALL_FACTOR: u32 = 10;

/// The CPU-time clock of one thread, with the CPU time of the processes
/// it waited for added (`charge`).
#[derive(Clone, Debug)]
pub struct CpuClock {
    /// `pthread_getcpuclockid` of the thread; `None` where the platform
    /// has no such clock (wall-clock time then).
    id: Option<libc::clockid_t>,
    /// Nanoseconds charged: children's CPU time.
    charged: Arc<AtomicU64>,
    /// Where `id` is `None`: when the clock started.
    start: Instant,
}

thread_local! {
    static THIS_THREAD: CpuClock = CpuClock::of_this_thread();
}

impl CpuClock {
    fn of_this_thread() -> CpuClock {
        let mut id: libc::clockid_t = 0;
        // SAFETY: `pthread_self` is the calling thread, alive; `id` is a
        // valid place for the result.
        let ok = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut id) } == 0;
        let clock = CpuClock {
            id: ok.then_some(id),
            charged: Arc::new(AtomicU64::new(0)),
            start: Instant::now(),
        };
        // A clock that cannot be read is no clock.
        if clock.id.is_some() && clock.cpu().is_none() {
            return CpuClock { id: None, ..clock };
        }
        clock
    }

    /// The calling thread's clock (the same one on every call).
    pub fn current() -> CpuClock {
        THIS_THREAD.with(|c| c.clone())
    }

    /// The thread's CPU time; `None` where it cannot be read (the thread
    /// has ended).
    fn cpu(&self) -> Option<Duration> {
        let id = self.id?;
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid place for the result; a clock id of a
        // thread that has ended makes the call fail, not misbehave.
        if unsafe { libc::clock_gettime(id, &mut ts) } != 0 {
            return None;
        }
        Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }

    /// The time on this clock: CPU time and what was charged, or the
    /// wall-clock time since the clock started where there is no CPU
    /// clock.
    pub fn now(&self) -> Duration {
        let own = match self.id {
            Some(_) => self.cpu().unwrap_or(Duration::MAX / 2),
            None => self.start.elapsed(),
        };
        own.saturating_add(Duration::from_nanos(self.charged.load(Ordering::Relaxed)))
    }

    /// Adds `d`, time another process spent for this thread (it waited
    /// for it), to this clock.
    pub fn charge(&self, d: Duration) {
        let n = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.charged.fetch_add(n, Ordering::Relaxed);
    }
}

/// When a piece of work must end: its budget on the clock of the thread
/// that set it, or `WALL_FACTOR` times the budget in wall-clock time,
/// whichever comes first.
#[derive(Clone, Debug)]
pub struct Deadline {
    clock: CpuClock,
    at: Duration,
    wall: Instant,
}

impl Deadline {
    /// `budget` from now, on the calling thread's clock.
    pub fn after(budget: Duration) -> Deadline {
        let clock = CpuClock::current();
        let at = clock.now().saturating_add(budget);
        Deadline {
            clock,
            at,
            wall: wall_after(budget),
        }
    }

    /// The budget left: zero once the deadline has passed.
    pub fn left(&self) -> Duration {
        if Instant::now() >= self.wall {
            return Duration::ZERO;
        }
        self.at.saturating_sub(self.clock.now())
    }

    pub fn passed(&self) -> bool {
        self.left().is_zero()
    }

    /// A deadline on the same clock `part` of the way to this one (a rung
    /// of the ladder gets half of what is left, `ladder::Rung::deadline`).
    pub fn share(&self, part: f64) -> Deadline {
        let left = self.left().mul_f64(part.clamp(0.0, 1.0));
        Deadline {
            clock: self.clock.clone(),
            at: self.clock.now().saturating_add(left),
            wall: wall_after(left).min(self.wall),
        }
    }

    /// The clock it runs on, for charging it (`CpuClock::charge`).
    pub fn clock(&self) -> &CpuClock {
        &self.clock
    }
}

fn wall_after(budget: Duration) -> Instant {
    let wall = budget.saturating_mul(WALL_FACTOR);
    Instant::now()
        .checked_add(wall)
        .unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400 * 365))
}

/// A child process's CPU time read from outside while it runs, for
/// budgets of CPU time kept from another process (the scheduler's
/// workers, the watchdog's child); its wall-clock time where that cannot
/// be read (the process is gone, or another system).
pub struct ChildCpu {
    pid: u32,
    started: Instant,
    /// The thread whose time counts, once the child names it (its other
    /// threads have budgets of their own); the whole process's before.
    thread: Option<u32>,
}

impl ChildCpu {
    pub fn new(pid: u32) -> Self {
        ChildCpu {
            pid,
            started: Instant::now(),
            thread: None,
        }
    }

    /// Counts thread `tid`'s time (and that of the children the process
    /// waited for) from now on.
    pub fn follow_thread(&mut self, tid: u32) {
        self.thread = Some(tid);
    }

    pub fn used(&self) -> Duration {
        self.thread
            .and_then(|t| thread_cpu(self.pid, t))
            .or_else(|| process_cpu(self.pid))
            .unwrap_or_else(|| self.started.elapsed())
    }

    /// Wall-clock time since `new`: the backstop of a child that spends
    /// no CPU time.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// The CPU time process `pid` and the children it waited for have used
/// (Linux: `/proc/PID/stat`); `None` where it cannot be read (the process
/// is gone, or another system).
pub fn process_cpu(pid: u32) -> Option<Duration> {
    stat_ticks(&format!("/proc/{}/stat", pid), 0..4)
}

/// The CPU time thread `tid` of process `pid` has used, and that of the
/// children the process waited for (a compiling thread's scheduler
/// workers): what the thread's `CpuClock` counts, read from outside
/// (Linux).
pub fn thread_cpu(pid: u32, tid: u32) -> Option<Duration> {
    let own = stat_ticks(&format!("/proc/{}/task/{}/stat", pid, tid), 0..2)?;
    let children = stat_ticks(&format!("/proc/{}/stat", pid), 2..4)?;
    Some(own + children)
}

/// The calling thread's id as `/proc` names it (Linux); `None` elsewhere.
pub fn thread_id() -> Option<u32> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid has no preconditions.
        u32::try_from(unsafe { libc::gettid() }).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The sum of fields `which` of utime, stime, cutime, cstime (fields 14
/// to 17 of a `/proc` stat file), as a duration.
fn stat_ticks(path: &str, which: std::ops::Range<usize>) -> Option<Duration> {
    let stat = std::fs::read_to_string(path).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces:
    // count the fields from after it; `rest` starts at field 3.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let times = fields.get(11..15)?;
    let ticks: u64 = times
        .get(which)?
        .iter()
        .map(|f| f.parse::<u64>().ok())
        .sum::<Option<u64>>()?;
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let per_second = if per_second > 0 {
        per_second as u64
    } else {
        100
    };
    Some(Duration::from_nanos(
        ticks.saturating_mul(1_000_000_000 / per_second),
    ))
}

/// Spends `d` of the calling thread's CPU time (tests of budgets).
#[cfg(test)]
pub(crate) fn spin(d: Duration) {
    let clock = CpuClock::current();
    let end = clock.now() + d;
    let mut x = 0u64;
    while clock.now() < end {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
    }
    std::hint::black_box(x);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sleeping spends no budget; work does; charges count as work.
    #[test]
    fn budgets_count_cpu_time_not_waiting() {
        let d = Deadline::after(Duration::from_millis(200));
        std::thread::sleep(Duration::from_millis(300));
        assert!(!d.passed(), "{:?} left", d.left());
        spin(Duration::from_millis(100));
        let left = d.left();
        assert!(
            left > Duration::ZERO && left <= Duration::from_millis(100),
            "{:?}",
            left
        );
        d.clock().charge(Duration::from_millis(150));
        assert!(d.passed());
    }

    /// Another thread reads a thread's deadline on that thread's clock,
    /// as the isl alarm does.
    #[test]
    fn another_thread_reads_the_deadline_of_the_thread_that_set_it() {
        let d = Deadline::after(Duration::from_millis(150));
        let reader = {
            let d = d.clone();
            std::thread::spawn(move || {
                // This thread's own work does not count.
                spin(Duration::from_millis(200));
                d.passed()
            })
        };
        assert!(!reader.join().unwrap());
        spin(Duration::from_millis(160));
        assert!(d.passed());
    }

    /// A share of what is left, and the wall-clock backstop.
    #[test]
    fn shares_and_the_wall_clock_backstop() {
        let d = Deadline::after(Duration::from_secs(10));
        let half = d.share(0.5);
        assert!(half.left() <= Duration::from_secs(5));
        assert!(half.left() > Duration::from_secs(4));
        let tiny = Deadline::after(Duration::from_millis(5));
        std::thread::sleep(Duration::from_millis(5 * WALL_FACTOR as u64 + 20));
        assert!(tiny.passed());
    }

    /// A thread's time read from outside follows its own clock (to the
    /// 10 ms of `/proc`'s ticks), not its process's other threads'.
    #[test]
    fn thread_and_process_cpu_time_are_readable_on_linux() {
        if !std::path::Path::new("/proc/self/stat").exists() {
            return;
        }
        let pid = std::process::id();
        let tid = thread_id().expect("a thread id on Linux");
        let before = thread_cpu(pid, tid).expect("/proc/PID/task/TID/stat");
        let other = std::thread::spawn(|| spin(Duration::from_millis(300)));
        spin(Duration::from_millis(100));
        other.join().unwrap();
        let mine = thread_cpu(pid, tid).unwrap() - before;
        assert!(mine >= Duration::from_millis(70), "{:?}", mine);
        assert!(mine < Duration::from_millis(250), "{:?}", mine);
        assert!(process_cpu(pid).unwrap() >= Duration::from_millis(350));
    }
}
