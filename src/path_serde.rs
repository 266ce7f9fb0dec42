//! File names through serde, without loss: a report travels from the
//! compile worker to the process the user started as JSON (`watchdog`),
//! and a name that is not UTF-8 (Linux allows any bytes but `/` and NUL)
//! made serde's `PathBuf` fail there, a panic after the outputs were
//! written. UTF-8 names stay JSON strings; others are `{"bytes": [...]}`
//! (Unix; elsewhere names are Unicode already).
//!
//! Use with `#[serde(with = "crate::path_serde")]` on a `PathBuf`, or
//! `crate::path_serde::many` on a `Vec<PathBuf>`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::{Path, PathBuf};

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Name {
    Text(String),
    Bytes { bytes: Vec<u8> },
}

fn name_of(p: &Path) -> Name {
    match p.to_str() {
        Some(s) => Name::Text(s.to_string()),
        None => Name::Bytes {
            bytes: raw_bytes(p),
        },
    }
}

#[cfg(unix)]
fn raw_bytes(p: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    p.as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
fn raw_bytes(p: &Path) -> Vec<u8> {
    p.to_string_lossy().into_owned().into_bytes()
}

fn path_of(n: Name) -> PathBuf {
    match n {
        Name::Text(s) => PathBuf::from(s),
        Name::Bytes { bytes } => from_bytes(bytes),
    }
}

#[cfg(unix)]
fn from_bytes(bytes: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(std::ffi::OsString::from_vec(bytes))
}

#[cfg(not(unix))]
fn from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

pub fn serialize<S: Serializer>(p: &Path, s: S) -> Result<S::Ok, S::Error> {
    name_of(p).serialize(s)
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
    Name::deserialize(d).map(path_of)
}

/// The same for a list of names.
pub mod many {
    use super::*;

    pub fn serialize<S: Serializer>(ps: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
        let names: Vec<Name> = ps.iter().map(|p| name_of(p)).collect();
        names.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PathBuf>, D::Error> {
        Vec::<Name>::deserialize(d).map(|v| v.into_iter().map(path_of).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct T {
        #[serde(with = "crate::path_serde")]
        one: PathBuf,
        #[serde(with = "crate::path_serde::many")]
        all: Vec<PathBuf>,
    }

    #[test]
    fn names_round_trip_whatever_their_bytes() {
        let plain = PathBuf::from("dir/a b.c");
        #[cfg(unix)]
        let odd = {
            use std::os::unix::ffi::OsStringExt;
            PathBuf::from(std::ffi::OsString::from_vec(b"caf\xe9.c".to_vec()))
        };
        #[cfg(not(unix))]
        let odd = PathBuf::from("café.c");
        let t = T {
            one: odd.clone(),
            all: vec![plain.clone(), odd],
        };
        let json = serde_json::to_string(&t).unwrap();
        assert!(json.contains("\"dir/a b.c\""), "{}", json);
        assert_eq!(serde_json::from_str::<T>(&json).unwrap(), t);
    }
}
