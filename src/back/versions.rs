//! The versions of a region and what chooses among them: the entry check
//! that keeps the user's lines where the generated code may not run, the
//! three versions (device, host, sequential) with their run-time choice,
//! and the checks on struct layouts and overlapping pointers.

use super::*;

/// Where a device version that cannot hold its buffers goes on
/// (`{{ fallback }}` of `templates/*/region.c.tera`): a placeholder that
/// the version's placement replaces (`return 0;` in an outlined function,
/// a flag that runs the original code after it elsewhere). One left in
/// place would not compile.
pub(super) const DEVICE_FALLBACK: &str = "PENCILC_DEVICE_FALLBACK_UNPLACED;";

/// The entry check of the bounds' and the overlap's conditions, and what
/// it tests in words; `None` where there is nothing to test.
fn entry_check(
    bounds: &Option<String>,
    overlap: &Option<String>,
) -> (Option<String>, &'static str) {
    match (bounds, overlap) {
        (Some(b), Some(o)) => (
            Some(format!("({}) && ({})", b, o)),
            "what the array extents and integer types imply and that array parameters do not overlap",
        ),
        (Some(b), None) => (Some(b.clone()), "what the array extents and integer types imply"),
        (None, Some(o)) => (Some(o.clone()), "that array parameters do not overlap"),
        (None, None) => (None, ""),
    }
}

/// The region's code behind its entry check (`GpuAst::entry_check`): the
/// generated code where the check holds, else the user's own lines (with
/// their line numbers), which compute the same as the sequential program
/// by definition. A device version that cannot hold its buffers
/// (`DEVICE_FALLBACK`) runs the user's lines too.
pub(super) fn versioned(
    source: &SourceFile,
    r: &RegionCode,
    code: &str,
    bounds: Option<String>,
    overlap: Option<String>,
) -> String {
    let scop = r.scop;
    let lines: Vec<&str> = source.text.lines().collect();
    let range = scop.begin_line as usize - 1..(scop.end_line as usize).min(lines.len());
    let (cond, why) = entry_check(&bounds, &overlap);
    let cond = cond.unwrap_or_else(|| "1".to_string());
    let original = format!(
        "#line {} \"{}\"\n{}",
        scop.begin_line,
        c_path(&source.path),
        lines[range].join("\n")
    );
    if !code.contains(DEVICE_FALLBACK) {
        return format!(
            "/* pencilc: the generated code assumes {}; otherwise the original code runs */\nif ({}) {}\nelse {{\n{}\n}}",
            why,
            cond,
            code.trim_end(),
            original
        );
    }
    let assumes = if why.is_empty() {
        String::new()
    } else {
        format!("the generated code assumes {}; ", why)
    };
    format!(
        "/* pencilc: {}the original code runs otherwise, and where the device cannot hold the region's buffers */\n{{\nint pencilc_fallback = !({});\nif (!pencilc_fallback) {}\nif (pencilc_fallback) {{\n{}\n}}\n}}",
        assumes,
        cond,
        code.trim_end()
            .replace(DEVICE_FALLBACK, "pencilc_fallback = 1;"),
        original
    )
}

/// The texts of a region's three versions.
pub(super) struct ThreeVersions<'a> {
    pub(super) device: &'a str,
    pub(super) host: &'a str,
    /// Sets `pencilc_launches` and `pencilc_forks` and calls `pencilc_choose`.
    pub(super) choose: &'a str,
    /// What the loops leave in the user's iterators, after either
    /// generated version.
    pub(super) live_out: &'a str,
    /// The region as `pencilc_choose` names it.
    pub(super) region: &'a str,
}

/// The region's three versions (`choice`): where the entry check holds,
/// `pencilc_choose` picks the device version, the host version or the
/// original code; elsewhere the original code runs (and, with
/// PENCILC_VERBOSE, says why). The generated versions go into a function
/// of their own (`outline`, pushed onto `outlined`) where they can, so
/// that the user's function keeps its size.
pub(super) fn three_versions(
    source: &SourceFile,
    r: &RegionCode,
    v: &ThreeVersions,
    bounds: Option<String>,
    overlap: Option<String>,
    outlined: &mut Vec<outline::Outlined>,
) -> String {
    let scop = r.scop;
    let lines: Vec<&str> = source.text.lines().collect();
    let range = scop.begin_line as usize - 1..(scop.end_line as usize).min(lines.len());
    let (cond, why) = entry_check(&bounds, &overlap);
    let indented = |text: &str, depth: usize| -> String {
        text.lines()
            .map(|l| {
                if l.is_empty() {
                    String::new()
                } else {
                    format!("{}{}", indent(depth), l)
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    // Sets `pencilc_version`.
    let mut select = String::from("int pencilc_version = PENCILC_SEQ;\n");
    match &cond {
        Some(c) => {
            select.push_str(&format!("if ({}) {{\n", c));
            select.push_str(&indented(v.choose, 1));
            select.push_str(&format!(
                "\n}} else {{\n    pencilc_original(\"{}\", \"{}\");\n}}",
                c_string(v.region),
                c_string(why)
            ));
        }
        None => {
            select.push_str("{\n");
            select.push_str(&indented(v.choose, 1));
            select.push_str("\n}");
        }
    }
    let original = format!(
        "#line {} \"{}\"\n{}",
        scop.begin_line,
        c_path(&source.path),
        lines[range].join("\n")
    );
    let keeps = if cond.is_some() {
        format!(", where the arguments keep {}", why)
    } else {
        String::new()
    };
    let number = outlined.len();
    let comment = format!(
        "/* pencilc: three versions of this region, the device's, the host's (OpenMP) and the original code; pencilc_choose picks one each time it runs{}; the generated ones are pencilc_region_{}, at the end of this file */",
        keeps, number
    );
    // A device that cannot hold the buffers: the outlined function returns
    // 0, and the caller runs the original code.
    let device = v.device.replace(DEVICE_FALLBACK, "return 0;");
    let parts = outline::Versions {
        select: &select,
        device: &device,
        host: v.host,
        live_out: v.live_out,
        original: &original,
        comment: &comment,
        region: v.region,
    };
    if let Some(o) = outline::outline(scop, number, &parts) {
        let call = o.call.clone();
        outlined.push(o);
        return call;
    }
    let mut out = String::new();
    out.push_str(&format!(
        "/* pencilc: three versions of this region, the device's, the host's (OpenMP) and the original code; pencilc_choose picks one each time it runs{} */\n{{\n",
        keeps
    ));
    out.push_str(&indented(&select, 1));
    // A device that cannot hold the buffers makes it the original code's turn.
    let device = v
        .device
        .replace(DEVICE_FALLBACK, "pencilc_version = PENCILC_SEQ;");
    out.push_str("\n    if (pencilc_version == PENCILC_DEVICE)\n");
    out.push_str(&indented(device.trim_end(), 1));
    out.push_str("\n    else if (pencilc_version == PENCILC_HOST)\n");
    out.push_str(&indented(v.host.trim_end(), 1));
    out.push_str(&format!(
        "\n    if (pencilc_version == PENCILC_SEQ) {{\n{}\n    }}\n",
        original
    ));
    if !v.live_out.trim().is_empty() {
        out.push_str("    if (pencilc_version != PENCILC_SEQ) {\n");
        out.push_str(&indented(v.live_out.trim_end(), 1));
        out.push_str("\n    }\n");
    }
    out.push('}');
    out
}

/// The model lays an array of structs out as its members side by side
/// (`Array::members`); an alignment attribute would put padding between
/// elements. A compile-time check: the array's size is
/// negative where the layout differs.
pub(super) fn struct_layout_checks(scop: &Scop) -> String {
    let mut out = String::new();
    for a in scop.arrays.iter().filter(|a| !a.members.is_empty()) {
        // The struct's type where it has a name, else an element.
        let element: String = match &a.struct_type {
            Some(t) => t.clone(),
            None => std::iter::once(a.name.clone())
                .chain((1..a.extents.len()).map(|_| "[0]".to_string()))
                .collect(),
        };
        out.push_str(&format!(
            "{}/* pencilc: the structs of `{}` must be laid out member after member */\n",
            indent(1),
            a.name
        ));
        out.push_str(&format!(
            "{}typedef char pencilc_layout_{}[sizeof({}) == {} * sizeof({}) ? 1 : -1];\n{}(void)sizeof(pencilc_layout_{});\n",
            indent(1),
            a.name,
            element,
            a.members.len(),
            a.elem_type,
            indent(1),
            a.name
        ));
    }
    out
}

/// The condition that no two arrays of `Scop::may_alias` share a byte:
/// `kern(n, X + 1, X)` passes overlapping arrays, which C allows, and the
/// generated code (separate device buffers, reordered instances) would
/// compute something else. The whole declared extents of arrays are
/// compared, not the elements accessed, because their copies move whole
/// extents; a pointer's copies move the range the region touches, and
/// that range is compared (`footprint::byte_range`). Addresses are
/// compared as integers: comparing pointers into different objects is
/// undefined in C. Every target's versions sit behind this one check
/// (the OpenMP target's too: `ast::frame` measures its footprints).
pub(super) fn no_overlap_check(scop: &Scop, ast: &crate::ast::GpuAst) -> Option<OverlapCheck> {
    if scop.may_alias.is_empty() {
        return None;
    }
    // Each array's range once, in the order the pairs first name them.
    let mut arrays: Vec<String> = Vec::new();
    let mut ranges: Vec<(String, String)> = Vec::new();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (a, b) in &scop.may_alias {
        let mut index = |name: &str| -> Option<usize> {
            if let Some(i) = arrays.iter().position(|x| *x == name) {
                return Some(i);
            }
            ranges.push(footprint::byte_range(scop, ast, name)?);
            arrays.push(name.to_string());
            Some(ranges.len() - 1)
        };
        match (index(a), index(b)) {
            (Some(i), Some(j)) => pairs.push((i, j)),
            // A pair whose bytes are unknown may overlap: the generated
            // code never runs, rather than run on overlapping memory.
            _ => {
                return Some(OverlapCheck {
                    condition: "0".to_string(),
                    table: false,
                })
            }
        }
    }
    if pairs.len() <= INLINE_OVERLAP_PAIRS {
        let conds: Vec<String> = pairs
            .iter()
            .map(|&(i, j)| {
                let ((a, sa), (b, sb)) = (&ranges[i], &ranges[j]);
                format!("({a} + {sa} <= {b} || {b} + {sb} <= {a})")
            })
            .collect();
        return Some(OverlapCheck {
            condition: conds.join(" && "),
            table: false,
        });
    }
    // Many pairs (every two of 72 pointer parameters: 2,556) printed
    // each with both ranges made a condition of 888,000 characters that
    // cc took 31 s over; a table of pairs over the ranges grows with the
    // pairs by a few characters each.
    let list = |items: Vec<String>| items.join(", ");
    let condition = format!(
        "pencilc_disjoint({}, (const unsigned short[]){{{}}}, (const size_t[]){{{}}}, (const size_t[]){{{}}})",
        pairs.len(),
        list(pairs.iter().map(|(i, j)| format!("{i}, {j}")).collect()),
        list(ranges.iter().map(|r| r.0.clone()).collect()),
        list(ranges.iter().map(|r| r.1.clone()).collect()),
    );
    Some(OverlapCheck {
        condition,
        table: true,
    })
}

/// Up to this many pairs, the overlap check is one comparison per pair,
/// written out; past it, a table of pairs (`pencilc_disjoint`).
const INLINE_OVERLAP_PAIRS: usize = 8;

/// A region's overlap check: a C condition, and whether it calls
/// `pencilc_disjoint` (`DISJOINT_HELPER`), which the host file must define.
pub(super) struct OverlapCheck {
    pub(super) condition: String,
    pub(super) table: bool,
}

/// The host file's definition of the table form of the overlap check: the
/// byte ranges `[start[i], start[i] + size[i])` of each pair `(i, j)` of
/// `pairs` are disjoint. Pair indices are `unsigned short`: a region's
/// arrays number far below 65,536.
pub(super) const DISJOINT_HELPER: &str = "static int pencilc_disjoint(int pencilc_npairs, const unsigned short *pencilc_pairs, const size_t *pencilc_start, const size_t *pencilc_size)
{
    int pencilc_k;
    for (pencilc_k = 0; pencilc_k < pencilc_npairs; pencilc_k++) {
        size_t pencilc_a = pencilc_pairs[2 * pencilc_k], pencilc_b = pencilc_pairs[2 * pencilc_k + 1];
        if (!(pencilc_start[pencilc_a] + pencilc_size[pencilc_a] <= pencilc_start[pencilc_b]
              || pencilc_start[pencilc_b] + pencilc_size[pencilc_b] <= pencilc_start[pencilc_a]))
            return 0;
    }
    return 1;
}
";
