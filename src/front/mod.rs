//! Front end: C source (through the system preprocessor) to the syntax of
//! each `#pragma scop` region, with locations mapped back to the user's file.

pub mod affine;
pub mod arith;
pub mod cc_check;
pub mod cexpr;
pub mod device_words;
pub mod host_clashes;
pub mod implicit;
pub mod int_type;
pub mod names;
pub mod parse;
pub mod preprocess;
pub mod syntax;

pub use parse::{parse_file, parse_file_with, parse_regions, Parsed, Region, SourceFile};
pub use preprocess::{preprocess, CppOptions, IncludedFile, Preprocessed};
