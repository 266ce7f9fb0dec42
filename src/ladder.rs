//! The ladder of simpler choices a region falls back to when compiling it
//! the way it was asked runs out of isl's operation budget or of its time
//! (`--schedule-timeout`, per region), or fails inside pencilc: each rung
//! gives up something and keeps the program correct, down to the region's
//! own code on the host. Never a hang, never an error where a slower
//! correct program is possible.

use crate::back::Target;
use crate::clock::Deadline;
use crate::diag::{Code, Diagnostic};
use crate::map::MapOptions;
use crate::sched::{SchedOptions, SchedulerKind};
use crate::scop::Scop;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rung {
    /// As asked.
    Full,
    /// No shared-memory or register tiles.
    NoPromotion,
    /// Besides, no tile-level wavefront: a time loop on the host around
    /// parallel kernels where the scheduler finds one.
    NoWavefront,
    /// Besides, isl's scheduler instead of pencilc's.
    IslScheduler,
    /// The region's own loop order, a kernel per parallel loop.
    OriginalOrder,
    /// The region's own code, on the host.
    Host,
}

/// What one rung compiles a region with.
#[derive(Clone)]
pub struct RungOptions {
    pub map: MapOptions,
    pub sched: SchedOptions,
    /// Use the region's own order instead of scheduling.
    pub original: bool,
    /// For the read back's test (`--debug-fault misorder:<rung>`): the
    /// device version's host code runs its first two launches in the
    /// reverse order, as isl's AST generator could print them.
    pub misorder_launches: bool,
}

impl Rung {
    pub const ALL: [Rung; 6] = [
        Rung::Full,
        Rung::NoPromotion,
        Rung::NoWavefront,
        Rung::IslScheduler,
        Rung::OriginalOrder,
        Rung::Host,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Rung::Full => "full",
            Rung::NoPromotion => "no-promotion",
            Rung::NoWavefront => "no-wavefront",
            Rung::IslScheduler => "isl-scheduler",
            Rung::OriginalOrder => "original-order",
            Rung::Host => "host",
        }
    }

    pub fn parse(s: &str) -> Option<Rung> {
        Rung::ALL.into_iter().find(|r| r.name() == s)
    }

    /// What a region compiled at this rung does without.
    pub fn description(self) -> &'static str {
        match self {
            Rung::Full => "the full compilation",
            Rung::NoPromotion => "no shared-memory or register tiles",
            Rung::NoWavefront => "no shared-memory or register tiles and no wavefront of tiles",
            Rung::IslScheduler => "isl's scheduler, without shared-memory or register tiles",
            Rung::OriginalOrder => "the region's own loop order, a kernel per parallel loop",
            Rung::Host => "the region's own code, run sequentially on the host",
        }
    }

    /// The rungs to try from `first` down, without those that would change
    /// nothing under these options (no promotion asked, no wavefront on a
    /// GPU description, isl's scheduler asked already). `Host` is always
    /// last.
    pub fn from(first: Rung, target: Target, map: &MapOptions, sched: &SchedOptions) -> Vec<Rung> {
        let promotes = target != Target::C && (map.mem.shared || map.mem.private);
        Rung::ALL
            .into_iter()
            .filter(|&r| r >= first)
            .filter(|&r| match r {
                Rung::NoPromotion => promotes,
                Rung::NoWavefront => sched.wavefront && sched.kind == SchedulerKind::Pluto,
                Rung::IslScheduler => sched.kind != SchedulerKind::Isl,
                _ => true,
            })
            .collect()
    }

    /// The options of this rung.
    pub fn options(self, sched: &SchedOptions, map: &MapOptions) -> RungOptions {
        let mut map = map.clone();
        let mut sched = sched.clone();
        if self >= Rung::NoPromotion {
            map.mem.shared = false;
            map.mem.private = false;
        }
        if self >= Rung::NoWavefront {
            sched.wavefront = false;
        }
        if self >= Rung::IslScheduler {
            sched.kind = SchedulerKind::Isl;
        }
        RungOptions {
            map,
            sched,
            original: self >= Rung::OriginalOrder,
            misorder_launches: false,
        }
    }

    /// When this rung must be done: half of the region's time left, so
    /// that the simpler rungs after it still get theirs; the region's own
    /// order, the last rung with isl work, gets all that is left.
    pub fn deadline(self, region: &Deadline) -> Deadline {
        if self >= Rung::OriginalOrder {
            return region.clone();
        }
        region.share(0.5)
    }

    /// Whether a failure at this rung lets the next one try: running out
    /// of budget or time, and pencilc's own failures (reported, but a
    /// slower correct program beats none). Errors in the input are not.
    pub fn may_fall_back(self, e: &Diagnostic) -> bool {
        self != Rung::Host && matches!(e.code, Code::Budget | Code::Internal)
    }

    /// The warning for falling back to this rung after `from` failed.
    pub fn fallback_warning(self, from: Rung, why: &Diagnostic, scop: &Scop) -> Diagnostic {
        let cause = match why.code {
            Code::Internal => format!(
                "{} (an internal error: please report it with the input file)",
                why.message
            ),
            _ => why.message.clone(),
        };
        Diagnostic::warning(
            Code::Budget,
            Some(scop.loc.clone()),
            format!(
                "{}: {} failed: {}; falling back to {}",
                scop.function,
                from.description(),
                cause,
                self.description()
            ),
        )
        .with_hint("raise --schedule-timeout (seconds per region) or --isl-max-operations, or split the region")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_order_is_the_ladder() {
        for r in Rung::ALL {
            assert_eq!(Rung::parse(r.name()), Some(r));
        }
        assert!(Rung::ALL.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn rungs_that_change_nothing_are_skipped() {
        let mut map = MapOptions::default();
        let mut sched = SchedOptions::default();
        let from =
            |r, map: &MapOptions, sched: &SchedOptions| Rung::from(r, Target::OpenCl, map, sched);
        assert_eq!(from(Rung::Full, &map, &sched), Rung::ALL.to_vec());
        sched.wavefront = false;
        map.mem.shared = false;
        map.mem.private = false;
        assert_eq!(
            from(Rung::Full, &map, &sched),
            vec![
                Rung::Full,
                Rung::IslScheduler,
                Rung::OriginalOrder,
                Rung::Host
            ]
        );
        assert_eq!(
            from(Rung::OriginalOrder, &map, &sched),
            vec![Rung::OriginalOrder, Rung::Host]
        );
    }
}
