//! Schedulers run in a child process (this same executable) so that a
//! run-away computation can be stopped: isl's operation budget does not
//! cover Farkas' lemma or all of isl's scheduler, and some inputs make them
//! run for many minutes. The child reads its job on stdin and writes the
//! schedule tree on stdout.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The hidden command-line flag that turns pencilc into a scheduler worker;
/// the next argument names the scheduler (`isl` or `pluto`).
pub const WORKER_FLAG: &str = "--internal-schedule-worker";

/// Runs `args` in a worker with `input` on stdin, killed after
/// `timeout` of its CPU time. Programs other than pencilc that use the library run
/// `in_process` instead (they do not understand the worker flag).
pub fn run(
    args: &[String],
    input: &str,
    timeout: Duration,
    worker: Option<&std::path::Path>,
    what: &str,
    in_process: impl FnOnce() -> Result<String, String>,
) -> Result<String, String> {
    let exe = match worker {
        Some(w) => w.to_path_buf(),
        None => std::env::current_exe()
            .map_err(|e| format!("cannot find the pencilc executable: {}", e))?,
    };
    let is_pencilc = exe
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("pencilc"));
    if !is_pencilc {
        return in_process();
    }
    let mut cmd = Command::new(exe);
    cmd.arg(WORKER_FLAG)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    crate::process::die_with_parent(&mut cmd);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {}: {}", what, e))?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).map(|_| s)
    });
    let mut stderr = child.stderr.take().expect("piped");
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    // The worker's CPU time counts against `timeout` (and is charged to
    // this thread's clock when it ends: `clock`), so that a worker starved
    // by the machine's load is not stopped early; wall-clock time only as
    // the backstop, for a worker that spends none.
    let clock = crate::clock::CpuClock::current();
    let backstop = timeout.saturating_mul(crate::clock::WALL_FACTOR);
    let cpu = crate::clock::ChildCpu::new(child.id());
    let mut used = Duration::ZERO;
    loop {
        let status = child.try_wait();
        if !matches!(status, Ok(Some(_))) {
            // Read while the process is there.
            used = cpu.used();
        }
        match status {
            Ok(Some(status)) => {
                clock.charge(used);
                let _ = writer.join();
                let out = reader
                    .join()
                    .map_err(|_| "scheduler output lost".to_string())?
                    .map_err(|e| e.to_string())?;
                let err = err_reader.join().unwrap_or_default();
                return if status.success() && !out.trim().is_empty() {
                    Ok(out.trim().to_string())
                } else if err.trim().is_empty() {
                    Err(format!("{} failed ({})", what, status))
                } else {
                    Err(err.trim().to_string())
                };
            }
            Ok(None) if used >= timeout || cpu.elapsed() >= backstop => {
                let _ = child.kill();
                let _ = child.wait();
                clock.charge(used);
                return Err(format!(
                    "{} did not finish within {:.1} s",
                    what,
                    timeout.as_secs_f64()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// The worker's `main`: the job on stdin, the tree on stdout, a one-line
/// reason on stderr and exit status 1 if there is no schedule.
pub fn run_worker() -> i32 {
    let args: Vec<String> = std::env::args().skip(2).collect();
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        return 2;
    }
    let r = match args.first().map(|s| s.as_str()) {
        Some("isl") => super::isl_sched::schedule_in_process(
            &input,
            args.iter()
                .any(|a| a == super::isl_sched::SERIALIZE_SCCS_FLAG),
        ),
        Some("pluto") => super::pluto_job(&args[1..], &input),
        _ => Err("unknown scheduler worker job".to_string()),
    };
    match r {
        Ok(t) => {
            println!("{}", t);
            0
        }
        Err(e) => {
            eprintln!("{}", e);
            1
        }
    }
}
