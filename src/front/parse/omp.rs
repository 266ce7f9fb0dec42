//! OpenMP directives in and right before a region. pencilc runs a region
//! once for each time control reaches it, with its own parallelism: a
//! `parallel` construct inside the region (or on its first statement) is
//! the region's own team, which the generated code replaces. A directive
//! that binds to a team outside the region (`for`, `single`, `barrier`,
//! `critical`, ...) says that every thread of that team runs the region and
//! shares its work: the generated code would run all of it in each thread
//! (a `#pragma omp for` split over three threads ran three times).

use super::*;

/// What an OpenMP directive means for the region around it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum OmpKind {
    /// `parallel`, `parallel for`, ...: a team of the statement it
    /// applies to.
    OpensTeam,
    /// Work sharing, synchronisation and tasks of the innermost team
    /// around the directive.
    BindsToTeam,
    /// `simd`, `declare ...`, `target ...`, ...: nothing about threads
    /// that reaches outside the statement.
    Other,
}

/// The kind of the `#pragma omp` line `node`, or `None` for anything else.
pub(super) fn kind(node: Node, src: &[u8]) -> Option<OmpKind> {
    if !is_pragma(node, src, "omp") {
        return None;
    }
    let arg = node
        .child_by_field_name("argument")
        .and_then(|a| a.utf8_text(src).ok())
        .unwrap_or("");
    Some(kind_of_directive(arg))
}

/// `arg`: the pragma's text after `#pragma`, starting with `omp`.
fn kind_of_directive(arg: &str) -> OmpKind {
    let name: String = arg
        .trim_start()
        .trim_start_matches("omp")
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    match name.as_str() {
        "parallel" => OmpKind::OpensTeam,
        "for" | "do" | "sections" | "section" | "single" | "master" | "masked" | "barrier"
        | "critical" | "atomic" | "ordered" | "loop" | "task" | "taskloop" | "taskwait"
        | "taskgroup" | "taskyield" | "flush" | "cancel" | "cancellation" | "scope"
        | "distribute" | "workshare" => OmpKind::BindsToTeam,
        _ => OmpKind::Other,
    }
}

/// Inside the statement a `parallel` directive of the region applies to
/// while alive (`Cx::enter_team`).
pub(super) struct TeamGuard<'c> {
    depth: &'c Cell<usize>,
}

impl Drop for TeamGuard<'_> {
    fn drop(&mut self) {
        self.depth.set(self.depth.get() - 1);
    }
}

impl<'a> Cx<'a> {
    pub(super) fn enter_team(&self) -> TeamGuard<'_> {
        self.omp_teams.set(self.omp_teams.get() + 1);
        TeamGuard {
            depth: &self.omp_teams,
        }
    }

    /// Notes the directive `node` of kind `k`: one that binds to a team
    /// where no `parallel` of the region is around it (`team_opened`: the
    /// statement it is on is the next one of a `parallel` directive).
    pub(super) fn note_omp(&self, node: Node, k: OmpKind, team_opened: bool) {
        if k == OmpKind::BindsToTeam && self.omp_teams.get() == 0 && !team_opened {
            self.omp_outside.borrow_mut().push(self.loc(node));
        }
    }

    /// The directives noted since the last call.
    pub(super) fn take_omp_outside(&self) -> Vec<Loc> {
        std::mem::take(&mut *self.omp_outside.borrow_mut())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_read_by_their_first_word() {
        assert_eq!(kind_of_directive("omp parallel for"), OmpKind::OpensTeam);
        assert_eq!(kind_of_directive("omp parallel"), OmpKind::OpensTeam);
        assert_eq!(
            kind_of_directive("omp  for schedule(static)"),
            OmpKind::BindsToTeam
        );
        assert_eq!(kind_of_directive("omp single"), OmpKind::BindsToTeam);
        assert_eq!(kind_of_directive("omp critical(x)"), OmpKind::BindsToTeam);
        assert_eq!(kind_of_directive("omp simd"), OmpKind::Other);
        assert_eq!(kind_of_directive("omp declare simd"), OmpKind::Other);
        // `forall` is no `for`.
        assert_eq!(kind_of_directive("omp forall"), OmpKind::Other);
    }
}
