//! Diagnostics for tools (`--message-format json`): one JSON object per
//! diagnostic on one line, in the spirit of rustc's `--error-format=json`,
//! so that IDEs and CI read fields instead of parsing the human text.
//!
//! ```json
//! {"type":"diagnostic","level":"warning","code":"E0101","message":"...",
//!  "file":"a.c","line":7,"column":9,"end_line":7,"end_column":18,
//!  "hints":["..."],"notes":[],"rendered":"a.c:7:9: warning: ..."}
//! ```
//!
//! Lines and columns are 1-based; `end_column` is the column just after
//! the offending text (as rustc's `column_end`), equal to `column` where
//! the span is a point. `file`, `line` and the rest are `null` for a
//! diagnostic about no place in a file (a usage error); `line` and the
//! columns alone are `null` for one about a whole file.

use super::{Diagnostic, Severity};

/// The fields in the order they are written (serde keeps a struct's).
#[derive(serde::Serialize)]
struct JsonDiagnostic<'a> {
    r#type: &'static str,
    level: &'static str,
    code: &'static str,
    message: &'a str,
    file: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    end_line: Option<u32>,
    end_column: Option<u32>,
    hints: Vec<&'a str>,
    notes: &'a [String],
    rendered: String,
}

impl Diagnostic {
    /// The diagnostic as one line of JSON (no line break).
    pub fn to_json(&self) -> String {
        let place = self.loc.as_ref().filter(|l| l.line > 0);
        let j = JsonDiagnostic {
            r#type: "diagnostic",
            level: match self.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            code: self.code.as_str(),
            message: &self.message,
            file: self.loc.as_ref().map(|l| l.file.display().to_string()),
            line: place.map(|l| l.line),
            column: place.map(|l| l.col.max(1)),
            end_line: place.map(|l| l.line),
            end_column: place.map(|l| l.col.max(1) + l.len),
            hints: self.hint.iter().map(String::as_str).collect(),
            notes: &self.notes,
            rendered: self.render(),
        };
        // Plain strings and numbers: serialization cannot fail.
        serde_json::to_string(&j).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Code, Loc};
    use super::*;
    use serde_json::{json, Value};
    use std::path::PathBuf;

    #[test]
    fn fields_of_a_located_warning() {
        let d = Diagnostic::warning(
            Code::NonAffineSubscript,
            Some(Loc {
                file: PathBuf::from("dir with space/a.c"),
                line: 7,
                col: 9,
                len: 9,
            }),
            "the subscript `\"i*n\"` looks linearised",
        )
        .with_hint("write A[i][j]");
        let line = d.to_json();
        assert!(!line.contains('\n'), "{}", line);
        assert!(
            line.starts_with("{\"type\":\"diagnostic\",\"level\":\"warning\",\"code\":\"E0101\""),
            "{}",
            line
        );
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["type"], "diagnostic");
        assert_eq!(v["level"], "warning");
        assert_eq!(v["code"], "E0101");
        assert_eq!(v["message"], "the subscript `\"i*n\"` looks linearised");
        assert_eq!(v["file"], "dir with space/a.c");
        assert_eq!(
            (v["line"].as_u64(), v["column"].as_u64()),
            (Some(7), Some(9))
        );
        assert_eq!(
            (v["end_line"].as_u64(), v["end_column"].as_u64()),
            (Some(7), Some(18))
        );
        assert_eq!(v["hints"], json!(["write A[i][j]"]));
        assert_eq!(v["notes"], json!([]));
        assert!(v["rendered"]
            .as_str()
            .unwrap()
            .starts_with("dir with space/a.c:7:9: warning:"));
    }

    #[test]
    fn a_usage_error_has_no_place() {
        let v: Value =
            serde_json::from_str(&Diagnostic::error(Code::Usage, None, "bad").to_json()).unwrap();
        assert_eq!(v["level"], "error");
        assert_eq!(v["code"], "E0301");
        assert!(v["file"].is_null() && v["line"].is_null() && v["end_column"].is_null());
        assert_eq!(v["hints"], json!([]));
    }
}
