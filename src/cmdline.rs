//! The command line as gcc's users write it, and as generated files
//! record it.
//!
//! gcc's dependency options are single-dash words (`-MD`, `-MMD`, `-MF
//! FILE`, `-MTtarget`), which clap cannot declare: `gcc_style` rewrites
//! them into the long options `main` declares (`--MD`, `--MF FILE`,
//! `--MT=target`), knowing from clap which options take a value, so that
//! an option's value is never rewritten.
//!
//! The header comment of generated files records the command that made
//! them (`recorded`), without what cannot change their contents
//! (dependency files, message format, `-j`, `-v`, the watchdog's internal
//! flags) and without other inputs of a batch, so that the same input
//! compiled the same way gives the same bytes whatever was built beside
//! it; the executable is named `pencilc`, not by the path it was run from.

use clap::Command;
use std::ffi::OsString;

/// gcc's multi-letter options and the long option each becomes. Those
/// with `true` take a value, attached (`-MFdeps.d`) or as the next word.
const GCC_OPTIONS: &[(&str, bool)] = &[
    ("MMD", false),
    ("MD", false),
    ("MP", false),
    ("MF", true),
    ("MT", true),
    ("MQ", true),
];

/// `text` (one of clap's messages) with the long options that stand for
/// gcc's spelled as the user wrote them: `-MF`, not `--MF`.
pub fn gcc_spelling(text: &str) -> String {
    let mut out = text.to_string();
    for (name, _) in GCC_OPTIONS {
        let long = format!("--{}", name);
        let mut next = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find(&long) {
            let after = &rest[at + long.len()..];
            let whole = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
            next.push_str(&rest[..at]);
            next.push_str(if whole { &long[1..] } else { &long });
            rest = after;
        }
        next.push_str(rest);
        out = next;
    }
    out
}

/// What one command-line word is.
#[derive(Clone, Debug, PartialEq)]
enum Word {
    /// An option (by clap id), and whether the next word is its value.
    Option {
        ids: Vec<String>,
        value_next: bool,
    },
    /// One of `GCC_OPTIONS`, spelled gcc's way (`-MF`, `-MFdeps.d`).
    Gcc {
        name: &'static str,
        attached: Option<String>,
    },
    /// The value of the option before it.
    Value,
    Positional,
    /// `--`: every word after it is positional.
    EndOfOptions,
}

/// `s` as one of gcc's options, if it is one.
fn gcc_option(s: &str) -> Option<Word> {
    let body = s.strip_prefix('-').filter(|b| !b.starts_with('-'))?;
    let &(name, takes) = GCC_OPTIONS.iter().find(|(n, _)| body.starts_with(n))?;
    let attached = &body[name.len()..];
    match (takes, attached.is_empty()) {
        (false, true) => Some(Word::Gcc {
            name,
            attached: None,
        }),
        (false, false) => None,
        (true, _) => Some(Word::Gcc {
            name,
            attached: (!attached.is_empty()).then(|| attached.to_string()),
        }),
    }
}

/// Classifies `args` (without the executable) as clap will parse them
/// once `gcc_style` has rewritten gcc's options.
fn classify(cmd: &Command, args: &[OsString]) -> Vec<Word> {
    let find_long = |name: &str| {
        cmd.get_arguments().find(|a| {
            a.get_long() == Some(name) || a.get_all_aliases().is_some_and(|al| al.contains(&name))
        })
    };
    let mut out = Vec::with_capacity(args.len());
    let mut value_next = false;
    let mut options_over = false;
    for a in args {
        let s = a.to_string_lossy();
        if value_next {
            value_next = false;
            out.push(Word::Value);
            continue;
        }
        if options_over || s == "-" || !s.starts_with('-') {
            out.push(Word::Positional);
            continue;
        }
        if s == "--" {
            options_over = true;
            out.push(Word::EndOfOptions);
            continue;
        }
        if let Some(w) = gcc_option(&s) {
            if let Word::Gcc { name, attached } = &w {
                value_next =
                    attached.is_none() && GCC_OPTIONS.iter().any(|(n, takes)| n == name && *takes);
            }
            out.push(w);
            continue;
        }
        let w = match s.strip_prefix("--") {
            Some(long) => {
                let (name, attached) = match long.split_once('=') {
                    Some((n, _)) => (n, true),
                    None => (long, false),
                };
                match find_long(name) {
                    Some(arg) => Word::Option {
                        ids: vec![arg.get_id().to_string()],
                        value_next: !attached && arg.get_action().takes_values(),
                    },
                    None => Word::Option {
                        ids: Vec::new(),
                        value_next: false,
                    },
                }
            }
            None => {
                // A cluster of short flags, the last of which may take a
                // value (attached, or the next word).
                let mut ids = Vec::new();
                let mut next = false;
                let chars: Vec<char> = s[1..].chars().collect();
                for (k, c) in chars.iter().enumerate() {
                    let Some(arg) = cmd.get_arguments().find(|a| a.get_short() == Some(*c)) else {
                        break;
                    };
                    ids.push(arg.get_id().to_string());
                    if arg.get_action().takes_values() {
                        next = k + 1 == chars.len();
                        break;
                    }
                }
                Word::Option {
                    ids,
                    value_next: next,
                }
            }
        };
        if let Word::Option { value_next: v, .. } = &w {
            value_next = *v;
        }
        out.push(w);
    }
    out
}

/// `args` (the executable first) with gcc's `-MD`-style options as the
/// long options clap knows (`--MD`, `--MF=FILE`); nothing else changes.
pub fn gcc_style(cmd: &Command, args: &[OsString]) -> Vec<OsString> {
    let Some((exe, rest)) = args.split_first() else {
        return args.to_vec();
    };
    let words = classify(cmd, rest);
    let takes = |name: &str| GCC_OPTIONS.iter().any(|(n, t)| *n == name && *t);
    let mut out = vec![exe.clone()];
    let mut i = 0;
    while i < rest.len() {
        match &words[i] {
            Word::Gcc {
                name,
                attached: Some(v),
            } => out.push(format!("--{}={}", name, v).into()),
            // The value attached, so that clap takes one that starts with
            // a dash (`-MF -x.d`) as gcc does.
            Word::Gcc {
                name,
                attached: None,
            } if takes(name) && i + 1 < rest.len() => {
                let mut w = OsString::from(format!("--{}=", name));
                w.push(&rest[i + 1]);
                out.push(w);
                i += 1;
            }
            Word::Gcc { name, .. } => out.push(format!("--{}", name).into()),
            _ => out.push(rest[i].clone()),
        }
        i += 1;
    }
    out
}

/// The command recorded in generated files: `pencilc` and the options of
/// `args` (the executable first, gcc's options already rewritten), less
/// the positional inputs and the options whose clap ids are in `drop`.
/// The input a file was made from is added by the driver.
pub fn recorded(cmd: &Command, args: &[OsString], drop: &[&str]) -> String {
    let rest = args.get(1..).unwrap_or(&[]);
    let words = classify(cmd, rest);
    let mut out = vec!["pencilc".to_string()];
    let mut dropping = false;
    let id_of_long = |name: &str| {
        cmd.get_arguments()
            .find(|a| a.get_long() == Some(name))
            .map(|a| a.get_id().to_string())
    };
    for (a, w) in rest.iter().zip(&words) {
        let ids = match w {
            Word::Option { ids, .. } => Some(ids.clone()),
            Word::Gcc { name, .. } => Some(id_of_long(name).into_iter().collect()),
            _ => None,
        };
        match (w, ids) {
            (_, Some(ids)) => {
                dropping = !ids.is_empty() && ids.iter().all(|id| drop.contains(&id.as_str()));
                if !dropping {
                    out.push(shell_word(&a.to_string_lossy()));
                }
            }
            (Word::Value, None) => {
                if !dropping {
                    out.push(shell_word(&a.to_string_lossy()));
                }
            }
            _ => dropping = false,
        }
    }
    out.join(" ")
}

/// `s` as one word for a POSIX shell: as it is if it has nothing the
/// shell would read specially, else in single quotes.
pub fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, ArgAction};

    #[test]
    fn clap_messages_spell_gcc_options_as_gcc_does() {
        assert_eq!(
            gcc_spelling("a value is required for '--MF <FILE>' (not --MMD; --MDX)"),
            "a value is required for '-MF <FILE>' (not -MMD; --MDX)"
        );
    }

    fn cmd() -> Command {
        Command::new("pencilc")
            .arg(Arg::new("files").action(ArgAction::Append))
            .arg(Arg::new("output").short('o').action(ArgAction::Set))
            .arg(Arg::new("define").short('D').action(ArgAction::Append))
            .arg(Arg::new("verbose").short('v').action(ArgAction::SetTrue))
            .arg(
                Arg::new("jobs")
                    .short('j')
                    .long("jobs")
                    .action(ArgAction::Set),
            )
            .arg(Arg::new("cpp").long("cpp").action(ArgAction::Set))
            .arg(Arg::new("md").long("MD").action(ArgAction::SetTrue))
            .arg(Arg::new("mmd").long("MMD").action(ArgAction::SetTrue))
            .arg(Arg::new("mf").long("MF").action(ArgAction::Set))
            .arg(Arg::new("mt").long("MT").action(ArgAction::Append))
    }

    fn words(s: &[&str]) -> Vec<OsString> {
        s.iter().map(OsString::from).collect()
    }

    fn strings(v: Vec<OsString>) -> Vec<String> {
        v.into_iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn gcc_dependency_options_become_long_options() {
        let got = gcc_style(
            &cmd(),
            &words(&[
                "pencilc", "-MMD", "-MF", "-MD", "-MTa b", "-MT", "x", "-MD", "-D", "-MP", "a.c",
                "--", "-MD",
            ]),
        );
        assert_eq!(
            strings(got),
            [
                "pencilc", "--MMD", // -MF's value is not an option.
                "--MF=-MD", "--MT=a b", "--MT=x", "--MD", "-D", // -D's value.
                "-MP", "a.c", "--", "-MD"
            ]
        );
    }

    #[test]
    fn recorded_command_keeps_what_shapes_the_output() {
        let args = words(&[
            "/abs/path/pencilc",
            "-v",
            "-j4",
            "--jobs",
            "2",
            "--MD",
            "--MF",
            "out dir/a.d",
            "--MT=t",
            "-o",
            "out/a_host.c",
            "-DN=10",
            "--cpp",
            "gcc -E",
            "a.c",
            "b.c",
        ]);
        assert_eq!(
            recorded(&cmd(), &args, &["verbose", "jobs", "md", "mf", "mt"]),
            "pencilc -o out/a_host.c -DN=10 --cpp 'gcc -E'"
        );
    }

    #[test]
    fn shell_words_are_quoted_when_needed() {
        assert_eq!(shell_word("a/b.c"), "a/b.c");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word("$x"), "'$x'");
        assert_eq!(shell_word(""), "''");
    }
}
