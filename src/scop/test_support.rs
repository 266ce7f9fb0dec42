//! Unit tests' way to a model: a C source through the front end.

use crate::front::{parse_regions, preprocess, CppOptions};

/// The model of the first region of `src`; `name` keeps concurrent
/// tests' files apart.
pub fn scop_of(name: &str, src: &str) -> super::Scop {
    let dir = std::env::temp_dir().join(format!("pencilc-scop-{}-{}", name, std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p.c");
    std::fs::write(&path, src).unwrap();
    let pp = preprocess(&path, &CppOptions::default(), None).unwrap();
    let regions = parse_regions(&pp).unwrap();
    super::build_scop(&regions[0]).unwrap()
}
