//! Diagnostics: every user-facing problem is a `Diagnostic` with a stable
//! code, a location in the user's own file (after mapping preprocessor line
//! markers back), a message and a hint. Internal failures are a separate kind
//! so that users can tell "my input is outside the subset" from "pencilc broke".

use std::fmt;
use std::path::PathBuf;

mod json;
mod policy;
pub use policy::{MessageFormat, WarningPolicy};

/// A location in a user's source file (1-based line and column).
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Loc {
    #[serde(with = "crate::path_serde")]
    pub file: PathBuf,
    pub line: u32,
    pub col: u32,
    /// Length of the offending text on that line, for the caret underline.
    pub len: u32,
}

impl Loc {
    pub fn unknown() -> Loc {
        Loc {
            file: PathBuf::from("<unknown>"),
            line: 0,
            col: 0,
            len: 0,
        }
    }
}

/// Why a construct is outside the accepted subset, or what else went wrong.
/// Each variant has a stable code; never renumber.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Code {
    /// The C preprocessor failed.
    Preprocess,
    /// The region does not parse as C.
    Syntax,
    /// An array subscript is not an affine function of iterators and parameters.
    NonAffineSubscript,
    /// A loop bound is not affine.
    NonAffineBound,
    /// An `if` condition is not affine.
    NonAffineCondition,
    /// Pointer arithmetic, address-of or dereference.
    PointerArithmetic,
    /// `goto`, `break`, `continue`, `return`, `switch`, `while` and similar.
    UnsupportedControl,
    /// A statement kind the polyhedral model cannot represent.
    UnsupportedStatement,
    /// A `for` loop that is not of the canonical `for (i = lb; i < ub; i += c)` form.
    NonCanonicalLoop,
    /// An identifier with no visible declaration.
    UnknownIdentifier,
    /// A call to a function that is not known to be pure.
    ImpureCall,
    /// A loop bound, condition or subscript depends on a value the region writes.
    DataDependentControl,
    /// A type outside the subset (structs, unions, pointers to pointers...).
    UnsupportedType,
    /// `#pragma scop` without matching `#pragma endscop`, or nested regions.
    UnbalancedRegion,
    /// An array whose size cannot be determined.
    UnknownArraySize,
    /// `__pencil_assume` facts that no parameter values satisfy.
    ContradictoryAssumptions,
    /// An array parameter of a PENCIL function without `pencil_array`.
    MissingPencilArray,
    /// A function that calls itself (PENCIL forbids recursion).
    Recursion,
    /// A loop iterator whose values may leave the range of its C type
    /// (wrap-around, or a loop that does not end).
    IteratorRange,
    /// An access outside its array's declared extents wherever its
    /// statement runs (a warning: C's undefined behaviour).
    OutOfBounds,
    /// A name of the user's code that starts with `pencilc_` or
    /// `PENCILC_`, the prefixes of the generated code's own names.
    ReservedName,
    /// isl ran out of its operation budget.
    Budget,
    /// A command-line or I/O problem.
    Usage,
    /// pencilc itself failed; not the user's fault.
    Internal,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Preprocess => "E0001",
            Code::Syntax => "E0002",
            Code::NonAffineSubscript => "E0101",
            Code::NonAffineBound => "E0102",
            Code::NonAffineCondition => "E0103",
            Code::PointerArithmetic => "E0104",
            Code::UnsupportedControl => "E0105",
            Code::UnsupportedStatement => "E0106",
            Code::NonCanonicalLoop => "E0107",
            Code::UnknownIdentifier => "E0108",
            Code::ImpureCall => "E0109",
            Code::DataDependentControl => "E0110",
            Code::UnsupportedType => "E0111",
            Code::UnbalancedRegion => "E0112",
            Code::UnknownArraySize => "E0113",
            Code::ContradictoryAssumptions => "E0114",
            Code::MissingPencilArray => "E0115",
            Code::Recursion => "E0116",
            Code::IteratorRange => "E0117",
            Code::OutOfBounds => "E0118",
            Code::ReservedName => "E0121",
            Code::Budget => "E0201",
            Code::Usage => "E0301",
            Code::Internal => "E0900",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    pub loc: Option<Loc>,
    pub message: String,
    pub hint: Option<String>,
    /// Why the diagnostic is what it is, when that is not the input's
    /// doing (`-Werror` made a warning an error).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(code: Code, loc: Option<Loc>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            loc,
            message: message.into(),
            hint: None,
            notes: Vec::new(),
        }
    }
    pub fn warning(code: Code, loc: Option<Loc>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            code,
            loc,
            message: message.into(),
            hint: None,
            notes: Vec::new(),
        }
    }
    pub fn internal(stage: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code: Code::Internal,
            loc: None,
            message: format!("internal error in stage `{}`: {}", stage, message.into()),
            hint: Some(format!(
                "this is a bug in pencilc {}; please report it with the input file",
                env!("CARGO_PKG_VERSION")
            )),
            notes: Vec::new(),
        }
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Renders as `file:line:col: error: message [code]`, the offending source
    /// line with a caret underline, and the hint.
    pub fn render(&self) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut out = String::new();
        match &self.loc {
            Some(l) if l.line > 0 => {
                out.push_str(&format!(
                    "{}:{}:{}: {}: {} [{}]\n",
                    l.file.display(),
                    l.line,
                    l.col,
                    sev,
                    self.message,
                    self.code.as_str()
                ));
                if let Some(text) = read_line(&l.file, l.line) {
                    let gutter = l.line.to_string();
                    let pad = " ".repeat(gutter.len());
                    out.push_str(&format!(" {} | {}\n", gutter, text.trim_end()));
                    let col = (l.col.max(1) - 1) as usize;
                    // Keep tabs so the caret lines up under the offending text.
                    let lead: String = text
                        .chars()
                        .take(col)
                        .map(|c| if c == '\t' { '\t' } else { ' ' })
                        .collect();
                    let avail = text.chars().count().saturating_sub(col).max(1);
                    let len = (l.len.max(1) as usize).min(avail);
                    out.push_str(&format!(" {} | {}{}\n", pad, lead, "^".repeat(len)));
                }
            }
            Some(l) => out.push_str(&format!(
                "{}: {}: {} [{}]\n",
                l.file.display(),
                sev,
                self.message,
                self.code.as_str()
            )),
            None => out.push_str(&format!(
                "pencilc: {}: {} [{}]\n",
                sev,
                self.message,
                self.code.as_str()
            )),
        }
        for n in &self.notes {
            out.push_str(&format!("  = note: {}\n", n));
        }
        if let Some(h) = &self.hint {
            out.push_str(&format!("  = help: {}\n", h));
        }
        out
    }

    /// The diagnostic in the form `--message-format` asks for, ending in
    /// a line break: `render`'s text, or one line of JSON (`json.rs`).
    pub fn format(&self, format: MessageFormat) -> String {
        match format {
            MessageFormat::Human => self.render(),
            MessageFormat::Json => format!("{}\n", self.to_json()),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for Diagnostic {}

fn read_line(path: &std::path::Path, line: u32) -> Option<String> {
    // Lossy: a Latin-1 comment elsewhere must not hide the snippet.
    let bytes = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    text.lines()
        .nth(line.checked_sub(1)? as usize)
        .map(|s| s.to_string())
}

pub type Result<T> = std::result::Result<T, Diagnostic>;
