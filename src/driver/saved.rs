//! `--save-schedule` files: one schedule tree per region, each after the
//! region's heading, with the reductions and the private copies it was
//! made with; `--load-schedule` reads them back.

use crate::diag::Result;
use crate::scop;
use std::path::Path;

/// The trees of a `--save-schedule` file: one per region, each after a
/// `# region` comment line (a file with one bare tree also works).
pub(super) fn read_schedules(p: &Path) -> Result<Vec<SavedSchedule>> {
    let text = crate::files::read_text(p, "--load-schedule file")?;
    Ok(parse_schedules(&text))
}

/// One region's part of a `--save-schedule` file.
#[derive(Debug, PartialEq)]
pub(super) struct SavedSchedule {
    /// The region's `Scop::heading` line, without its newline; none in a
    /// file written by hand.
    pub heading: Option<String>,
    /// None for a region that was kept on the host when the file was saved.
    pub tree: Option<String>,
    /// The statements whose accumulations the schedule runs as reductions
    /// (`# pencilc: reductions S_3 S_5`), and the private copies it does
    /// without (`# pencilc: no private copy NAME`): the dependences the
    /// schedule was made for.
    pub reductions: Vec<String>,
    pub no_copies: Vec<String>,
}

/// The comment lines of a saved schedule that say what it was made for.
pub(super) const SAVED_REDUCTIONS: &str = "# pencilc: reductions";
pub(super) const SAVED_NO_COPY: &str = "# pencilc: no private copy";

/// Splits a schedule file into its regions: a heading line starts one; in
/// a file without headings, any comment line ends a schedule tree.
fn parse_schedules(text: &str) -> Vec<SavedSchedule> {
    let mut out = Vec::new();
    let mut heading: Option<String> = None;
    let mut tree = String::new();
    let mut reductions: Vec<String> = Vec::new();
    let mut no_copies: Vec<String> = Vec::new();
    let mut flush = |heading: &mut Option<String>,
                     tree: &mut String,
                     reductions: &mut Vec<String>,
                     no_copies: &mut Vec<String>| {
        if heading.is_some() || !tree.trim().is_empty() {
            out.push(SavedSchedule {
                heading: heading.take(),
                tree: (!tree.trim().is_empty()).then(|| std::mem::take(tree)),
                reductions: std::mem::take(reductions),
                no_copies: std::mem::take(no_copies),
            });
        }
        tree.clear();
    };
    for line in text.lines() {
        if line.starts_with(scop::Scop::HEADING_PREFIX) {
            flush(&mut heading, &mut tree, &mut reductions, &mut no_copies);
            heading = Some(line.trim_end().to_string());
        } else if let Some(rest) = line.strip_prefix(SAVED_REDUCTIONS) {
            reductions.extend(rest.split_whitespace().map(str::to_string));
        } else if let Some(rest) = line.strip_prefix(SAVED_NO_COPY) {
            no_copies.extend(rest.split_whitespace().map(str::to_string));
        } else if line.starts_with('#') {
            if !tree.trim().is_empty() {
                flush(&mut heading, &mut tree, &mut reductions, &mut no_copies);
            }
        } else {
            tree.push_str(line);
            tree.push('\n');
        }
    }
    flush(&mut heading, &mut tree, &mut reductions, &mut no_copies);
    out
}

/// The saved schedule of a region: the one under its heading, else the
/// one in its place (files written by hand have no headings).
pub(super) fn saved_for<'a>(
    saved: &'a [SavedSchedule],
    scop: &scop::Scop,
    index: usize,
) -> Option<&'a SavedSchedule> {
    let heading = scop.heading();
    let heading = heading.trim_end();
    saved
        .iter()
        .find(|s| s.heading.as_deref() == Some(heading))
        .or_else(|| saved.get(index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_files_split_at_headings_and_keep_host_regions() {
        let text = "# region in `f` at lines 3-9\n{ a }\n# region in `g` at lines 12-20\n# kept on the host: no schedule\n# region in `h` at lines 22-30\n{ b }\n{ c }\n";
        let s = parse_schedules(text);
        assert_eq!(s.len(), 3);
        assert_eq!(
            s[0].heading.as_deref(),
            Some("# region in `f` at lines 3-9")
        );
        assert_eq!(s[0].tree.as_deref(), Some("{ a }\n"));
        assert_eq!(s[1].tree, None);
        assert_eq!(s[2].tree.as_deref(), Some("{ b }\n{ c }\n"));
    }

    #[test]
    fn hand_written_schedule_files_split_at_comments() {
        let s = parse_schedules("# first\n{ a }\n# second\n{ b }\n");
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|x| x.heading.is_none()));
        assert_eq!(s[1].tree.as_deref(), Some("{ b }\n"));
    }
}
