//! Profiles and estimates as text: lines for `pencilc -v`, and a record
//! per region and per kernel (`--emit gpu-model`, the calibration data in
//! `devices/`) that `parse` reads back. A record is tab-separated: its
//! kind, then `key=value` fields, so that a reader finds fields by name
//! and older files stay readable when fields are added.

use super::estimate::Estimate;
use super::params::{ParamValue, Source};
use super::{KernelProfile, RegionProfile, Transfers, Work};
use crate::diag::{Code, Diagnostic, Result};

/// First line of a dump.
pub const HEADER: &str = "# pencilc gpu-model 1";

fn num(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{:.6e}", v)
    }
}

fn work_fields(prefix: &str, w: &Work) -> String {
    [
        ("instances", w.instances),
        ("flops64", w.flops64),
        ("flops32", w.flops32),
        ("global_accesses", w.global_accesses),
        ("far_accesses", w.far_accesses),
        ("global_bytes", w.global_bytes),
        ("copies", w.copies),
        ("barriers", w.barriers),
        ("atomics", w.atomics),
    ]
    .iter()
    // Atomic updates only where there are some (records before them
    // read as none).
    .filter(|(k, v)| *k != "atomics" || *v != 0.0)
    .map(|(k, v)| format!("\t{}{}={}", prefix, k, num(*v)))
    .collect()
}

/// The record lines of one region, and of its estimate where given.
pub fn records(p: &RegionProfile, e: Option<&Estimate>) -> String {
    let params: Vec<String> = p
        .params
        .iter()
        .map(|v| {
            let src = match v.source {
                Source::Given => "given",
                Source::Call => "call",
                Source::Context => "context",
                Source::Assumed => "assumed",
            };
            format!("{}:{}:{}", v.name, v.value, src)
        })
        .collect();
    let t = &p.transfers;
    let mut out = format!(
        "region\tname={}\truns={}\tunknown={}\tparams={}\tbuffers={}\talloc_bytes={}\tcopies_in={}\tbytes_in={}\tcopies_out={}\tbytes_out={}\tbytes_out_fresh={}",
        p.region,
        p.runs as u8,
        p.unknown,
        params.join(","),
        t.buffers,
        num(t.alloc_bytes),
        t.copies_in,
        num(t.bytes_in),
        t.copies_out,
        num(t.bytes_out),
        num(t.bytes_out_fresh)
    );
    if let Some(e) = e {
        out.push_str(&format!(
            "\testimate_ms={:.4}\ttransfer_ms={:.4}\tkernel_ms={:.4}",
            e.total_ms, e.transfer_ms, e.kernel_ms
        ));
    }
    out.push('\n');
    for (i, k) in p.kernels.iter().enumerate() {
        let block: Vec<String> = k.block.iter().map(|b| b.to_string()).collect();
        out.push_str(&format!(
            "kernel\tname={}\tblock={}\tlaunches={}\tblocks={}\tthreads={}",
            k.name,
            block.join("x"),
            num(k.launches),
            num(k.blocks),
            num(k.threads)
        ));
        out.push_str(&work_fields("", &k.work));
        out.push_str(&work_fields("span_", &k.span));
        if let Some(ke) = e.and_then(|e| e.kernels.get(i)) {
            out.push_str(&format!(
                "\testimate_ms={:.4}\tbound={}",
                ke.ms,
                ke.bound.word()
            ));
        }
        out.push('\n');
    }
    out
}

fn bad(line: usize, why: String) -> Diagnostic {
    Diagnostic::error(
        Code::Usage,
        None,
        format!("gpu-model data, line {}: {}", line, why),
    )
}

/// Reads records back: each region with the benchmark it belongs to (the
/// last `bench<TAB>name=...` line before it, if any).
pub fn parse(text: &str) -> Result<Vec<(Option<String>, RegionProfile)>> {
    let mut out: Vec<(Option<String>, RegionProfile)> = Vec::new();
    let mut bench = None;
    for (n, line) in text.lines().enumerate() {
        let n = n + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split('\t');
        let kind = parts.next().unwrap_or("");
        let mut fields = std::collections::BTreeMap::new();
        for f in parts {
            let (k, v) = f
                .split_once('=')
                .ok_or_else(|| bad(n, format!("`{}` is not key=value", f)))?;
            fields.insert(k, v);
        }
        let text_of = |k: &str| fields.get(k).copied().unwrap_or("");
        let f64_of = |k: &str| -> Result<f64> {
            match fields.get(k) {
                None => Ok(0.0),
                Some(v) => v
                    .parse::<f64>()
                    .map_err(|_| bad(n, format!("{}={} is not a number", k, v))),
            }
        };
        let work = |prefix: &str| -> Result<Work> {
            Ok(Work {
                instances: f64_of(&format!("{}instances", prefix))?,
                flops64: f64_of(&format!("{}flops64", prefix))?,
                flops32: f64_of(&format!("{}flops32", prefix))?,
                global_accesses: f64_of(&format!("{}global_accesses", prefix))?,
                far_accesses: f64_of(&format!("{}far_accesses", prefix))?,
                global_bytes: f64_of(&format!("{}global_bytes", prefix))?,
                copies: f64_of(&format!("{}copies", prefix))?,
                barriers: f64_of(&format!("{}barriers", prefix))?,
                atomics: f64_of(&format!("{}atomics", prefix))?,
            })
        };
        match kind {
            "bench" => bench = Some(text_of("name").to_string()),
            "region" => {
                let mut params = Vec::new();
                for p in text_of("params").split(',').filter(|p| !p.is_empty()) {
                    let v: Vec<&str> = p.split(':').collect();
                    let [name, value, src] = v.as_slice() else {
                        return Err(bad(n, format!("parameter `{}`", p)));
                    };
                    params.push(ParamValue {
                        name: name.to_string(),
                        value: value
                            .parse()
                            .map_err(|_| bad(n, format!("parameter `{}`", p)))?,
                        source: match *src {
                            "given" => Source::Given,
                            "call" => Source::Call,
                            "context" => Source::Context,
                            _ => Source::Assumed,
                        },
                    });
                }
                let region = RegionProfile {
                    region: text_of("name").to_string(),
                    params,
                    runs: text_of("runs") != "0",
                    kernels: Vec::new(),
                    transfers: Transfers {
                        buffers: f64_of("buffers")? as usize,
                        alloc_bytes: f64_of("alloc_bytes")?,
                        copies_in: f64_of("copies_in")? as usize,
                        bytes_in: f64_of("bytes_in")?,
                        copies_out: f64_of("copies_out")? as usize,
                        bytes_out: f64_of("bytes_out")?,
                        bytes_out_fresh: f64_of("bytes_out_fresh")?,
                    },
                    unknown: f64_of("unknown")? as usize,
                };
                out.push((bench.clone(), region));
            }
            "kernel" => {
                let Some((_, region)) = out.last_mut() else {
                    return Err(bad(n, "a kernel before any region".into()));
                };
                let block = text_of("block")
                    .split('x')
                    .filter(|b| !b.is_empty())
                    .map(|b| b.parse::<i64>())
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .map_err(|_| bad(n, format!("block `{}`", text_of("block"))))?;
                region.kernels.push(KernelProfile {
                    name: text_of("name").to_string(),
                    block,
                    launches: f64_of("launches")?,
                    blocks: f64_of("blocks")?,
                    threads: f64_of("threads")?,
                    work: work("")?,
                    span: work("span_")?,
                });
            }
            other => return Err(bad(n, format!("unknown record `{}`", other))),
        }
    }
    Ok(out)
}

fn si(v: f64) -> String {
    let a = v.abs();
    if a >= 1e12 {
        format!("{:.3}T", v / 1e12)
    } else if a >= 1e9 {
        format!("{:.3}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.3}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else {
        format!("{}", (v * 10.0).round() / 10.0)
    }
}

/// `-v`'s lines for one region.
pub fn verbose_lines(p: &RegionProfile, e: &Estimate, device: &str) -> Vec<String> {
    let params: Vec<String> = p
        .params
        .iter()
        .map(|v| format!("{}={} ({})", v.name, v.value, v.source.word()))
        .collect();
    let t = &p.transfers;
    let mut out = vec![format!(
        "gpu model: region {} at {}: estimate {:.3} ms on {} (buffers and copies {:.3} ms: {} buffer(s), {} copy in {}B, {} copy out {}B; kernels {:.3} ms){}{}",
        p.region,
        if params.is_empty() { "no parameters".to_string() } else { params.join(", ") },
        e.total_ms,
        device,
        e.transfer_ms,
        t.buffers,
        t.copies_in,
        si(t.bytes_in),
        t.copies_out,
        si(t.bytes_out),
        e.kernel_ms,
        if p.runs { "" } else { "; the entry check fails there: the user's code would run" },
        if p.unknown > 0 {
            format!("; {} expression(s) not evaluated", p.unknown)
        } else {
            String::new()
        }
    )];
    for (k, ke) in p.kernels.iter().zip(&e.kernels) {
        let block: Vec<String> = k.block.iter().map(|b| b.to_string()).collect();
        out.push(format!(
            "gpu model:   {}: {} launch(es) x {} block(s) of {} thread(s) [{}], {} instances, {} global accesses ({}B), {} copied elements, span {} (instances {}, accesses {}, copies {}, barriers {}): {:.3} ms, bound by {}",
            k.name,
            si(k.launches),
            si(k.blocks_per_launch()),
            k.block.iter().product::<i64>(),
            if block.is_empty() { "1".to_string() } else { block.join("x") },
            si(k.work.instances),
            si(k.work.global_accesses),
            si(k.work.global_bytes),
            si(k.work.copies),
            si(k.span.chain()),
            si(k.span.instances),
            si(k.span.global_accesses),
            si(k.span.copies),
            si(k.span.barriers),
            ke.ms,
            ke.bound.word()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back() {
        let p = RegionProfile {
            region: "kernel_gemm:88".into(),
            params: vec![ParamValue {
                name: "ni".into(),
                value: 1000,
                source: Source::Context,
            }],
            runs: true,
            kernels: vec![KernelProfile {
                name: "kernel0".into(),
                block: vec![16, 32],
                launches: 1.0,
                blocks: 1088.0,
                threads: 557056.0,
                work: Work {
                    instances: 1.3e9,
                    global_bytes: 123.5,
                    atomics: 2000.0,
                    ..Default::default()
                },
                span: Work {
                    instances: 2400.0,
                    barriers: 76.0,
                    ..Default::default()
                },
            }],
            transfers: Transfers {
                buffers: 3,
                alloc_bytes: 2.6e7,
                copies_in: 3,
                bytes_in: 2.6e7,
                copies_out: 1,
                bytes_out: 8.8e6,
                bytes_out_fresh: 0.0,
            },
            unknown: 2,
        };
        let text = format!("{}\nbench\tname=gemm\n{}", HEADER, records(&p, None));
        // Atomic updates are written where there are some.
        assert!(text.contains("\tatomics=2000\t"), "{}", text);
        assert!(!text.contains("span_atomics"), "{}", text);
        let back = parse(&text).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].0.as_deref(), Some("gemm"));
        assert_eq!(back[0].1, p);
    }

    #[test]
    fn bad_records_are_errors_not_panics() {
        for t in [
            "kernel\tname=k",
            "region\tbuffers=x",
            "region\tparams=n:x:given",
            "what\ta=1",
            "region\tnokey",
        ] {
            assert!(parse(t).is_err(), "{}", t);
        }
    }
}
