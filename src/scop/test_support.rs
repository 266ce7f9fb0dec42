//! Unit tests' way to a model: a C source through the front end.

use crate::front::parse::Region;
use crate::front::{parse_regions, preprocess, CppOptions};

/// The first region of `src`, parsed; `name` keeps concurrent tests'
/// files apart (the file goes once it is read).
pub fn region_of(name: &str, src: &str) -> Region {
    // Each call its own folder: tests run in threads of one process, and
    // two may pick one name.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "pencilc-scop-{}-{}-{}",
        name,
        std::process::id(),
        call
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p.c");
    std::fs::write(&path, src).unwrap();
    let pp = preprocess(&path, &CppOptions::default(), None);
    let _ = std::fs::remove_dir_all(&dir);
    let regions = parse_regions(&pp.unwrap()).unwrap();
    regions.into_iter().next().expect("a region")
}

/// The model of the first region of `src`.
pub fn scop_of(name: &str, src: &str) -> super::Scop {
    super::build_scop(&region_of(name, src)).unwrap()
}

/// The model of the first region of `src` as written: no search or
/// arg-max rewritten (`last_writes`).
pub fn scop_as_written_of(name: &str, src: &str) -> super::Scop {
    super::build_scop_as_written(&region_of(name, src)).unwrap()
}
