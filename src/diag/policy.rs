//! What the user asked to be done with diagnostics: the form they are
//! printed in (`--message-format`) and what warnings count for (`-w`,
//! `-Werror`, as gcc's and clang's flags of those names).

use super::{Diagnostic, Severity};

/// `--message-format`: text for people, JSON lines for tools.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MessageFormat {
    #[default]
    Human,
    Json,
}

/// What warnings do to a file's compilation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WarningPolicy {
    /// Printed; the file compiles.
    #[default]
    Report,
    /// `-w`: not printed, not counted. As in gcc, this wins over `-Werror`.
    Ignore,
    /// `-Werror`: each warning is an error, and the file fails (exit 1,
    /// no outputs).
    Error,
}

pub const WERROR_NOTE: &str = "-Werror turns this warning into an error";

impl WarningPolicy {
    /// The warnings that remain warnings (`Ok`), or, under `-Werror`,
    /// every warning as an error (`Err`, never empty).
    pub fn apply(self, warnings: Vec<Diagnostic>) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
        match self {
            WarningPolicy::Report => Ok(warnings),
            WarningPolicy::Ignore => Ok(Vec::new()),
            WarningPolicy::Error if warnings.is_empty() => Ok(warnings),
            WarningPolicy::Error => Err(self.apply_to_failure(warnings)),
        }
    }

    /// The diagnostics of a file that failed anyway, warnings among them
    /// (the watchdog's, before the worker's errors): dropped under `-w`,
    /// errors under `-Werror`.
    pub fn apply_to_failure(self, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let warning = |d: &Diagnostic| d.severity == Severity::Warning;
        match self {
            WarningPolicy::Report => diags,
            WarningPolicy::Ignore => diags.into_iter().filter(|d| !warning(d)).collect(),
            WarningPolicy::Error => diags
                .into_iter()
                .map(|mut d| {
                    if warning(&d) {
                        d.severity = Severity::Error;
                        d.notes.push(WERROR_NOTE.to_string());
                    }
                    d
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Code;
    use super::*;

    fn w() -> Vec<Diagnostic> {
        vec![Diagnostic::warning(Code::Budget, None, "slow")]
    }

    #[test]
    fn warnings_are_kept_dropped_or_made_errors() {
        assert_eq!(WarningPolicy::Report.apply(w()).unwrap().len(), 1);
        assert!(WarningPolicy::Ignore.apply(w()).unwrap().is_empty());
        assert!(WarningPolicy::Error.apply(Vec::new()).unwrap().is_empty());
        let e = WarningPolicy::Error.apply(w()).unwrap_err();
        assert_eq!(e[0].severity, Severity::Error);
        assert_eq!(e[0].code, Code::Budget);
        assert!(e[0].render().starts_with("pencilc: error: slow [E0201]"));
        assert!(e[0].render().contains("= note: -Werror"));
        let failed = || {
            vec![
                Diagnostic::warning(Code::Budget, None, "stopped"),
                Diagnostic::error(Code::Syntax, None, "bad"),
            ]
        };
        assert_eq!(WarningPolicy::Ignore.apply_to_failure(failed()).len(), 1);
        let all = WarningPolicy::Error.apply_to_failure(failed());
        assert!(all.iter().all(|d| d.severity == Severity::Error));
        assert_eq!(all[1].notes.len(), 0);
    }
}
