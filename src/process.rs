//! Process control shared by every stage that starts a child process (the
//! C compiler's check in `front`, the scheduler's worker in `sched`, the
//! per-file workers of `watchdog`): children never outlive pencilc.

use std::process::Command;

/// Makes the child die with this process (Linux: `PR_SET_PDEATHSIG`), so
/// that a killed pencilc leaves no worker running.
pub fn die_with_parent(cmd: &mut Command) {
    signal_at_parent_death(cmd, libc::SIGKILL);
}

/// Sends the child `signal` when this process dies (Linux), for a child
/// that must clean up after itself (`front::cc_check`'s supervisor).
pub fn signal_at_parent_death(cmd: &mut Command, signal: i32) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl and getppid are async-signal-safe; nothing is
        // allocated between fork and exec.
        unsafe {
            let parent = libc::getpid();
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, signal as libc::c_ulong) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent may have died before prctl took effect.
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (cmd, signal);
}
