//! Integer expressions of generated code (loop bounds, guards, iterator
//! values) and their C printing with correct precedence and floor division.

#[derive(Clone, Debug, PartialEq)]
pub enum AExpr {
    Int(i64),
    Id(String),
    Op(AOp, Vec<AExpr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AOp {
    And,
    Or,
    Max,
    Min,
    Neg,
    Add,
    Sub,
    Mul,
    /// Truncating division; isl only emits it where it equals floor division.
    Div,
    /// Floor division by a positive constant.
    FloorDiv,
    Rem,
    Cond,
    Eq,
    Le,
    Lt,
    Ge,
    Gt,
    Call,
}

/// Names of the helpers that generated code defines for min, max and floor
/// division (macros in every generated file).
pub struct ExprStyle {
    pub min: &'static str,
    pub max: &'static str,
    pub floord: &'static str,
}

pub const STYLE: ExprStyle = ExprStyle {
    min: "pencilc_min",
    max: "pencilc_max",
    floord: "pencilc_floord",
};

impl AExpr {
    pub fn id(name: impl Into<String>) -> AExpr {
        AExpr::Id(name.into())
    }

    /// This expression with each named identifier replaced.
    pub fn substitute(&self, values: &[(String, AExpr)]) -> AExpr {
        match self {
            AExpr::Id(n) => match values.iter().find(|(k, _)| k == n) {
                Some((_, v)) => v.clone(),
                None => self.clone(),
            },
            AExpr::Int(_) => self.clone(),
            AExpr::Op(op, args) => {
                AExpr::Op(*op, args.iter().map(|a| a.substitute(values)).collect())
            }
        }
    }

    pub fn op(op: AOp, args: Vec<AExpr>) -> AExpr {
        AExpr::Op(op, args)
    }

    /// Folds constant additions, the only simplification launches need.
    pub fn simplify(self) -> AExpr {
        match self {
            AExpr::Op(AOp::Add, args) => {
                let args: Vec<AExpr> = args.into_iter().map(|a| a.simplify()).collect();
                match args.as_slice() {
                    [AExpr::Int(a), AExpr::Int(b)] => AExpr::Int(a + b),
                    [AExpr::Op(AOp::Sub, inner), AExpr::Int(1)]
                        if inner.len() == 2 && inner[1] == AExpr::Int(1) =>
                    {
                        inner[0].clone()
                    }
                    [AExpr::Op(AOp::Add, inner), AExpr::Int(b)] if inner.len() == 2 => {
                        match &inner[1] {
                            AExpr::Int(a) if a + b == 0 => inner[0].clone(),
                            AExpr::Int(a) => {
                                AExpr::Op(AOp::Add, vec![inner[0].clone(), AExpr::Int(a + b)])
                            }
                            _ => AExpr::Op(AOp::Add, args),
                        }
                    }
                    _ => AExpr::Op(AOp::Add, args),
                }
            }
            other => other,
        }
    }

    /// Whether the identifier `name` occurs in this expression.
    pub fn mentions(&self, name: &str) -> bool {
        let mut ids = std::collections::BTreeSet::new();
        self.ids(&mut ids);
        ids.contains(name)
    }

    pub fn ids(&self, out: &mut std::collections::BTreeSet<String>) {
        match self {
            AExpr::Id(s) => {
                out.insert(s.clone());
            }
            AExpr::Op(AOp::Call, args) => args.iter().skip(1).for_each(|a| a.ids(out)),
            AExpr::Op(_, args) => args.iter().for_each(|a| a.ids(out)),
            AExpr::Int(_) => {}
        }
    }

    pub fn to_c(&self) -> String {
        self.prec().0
    }

    /// C for this expression computed in `long`: every identifier read
    /// as a `long`. For host expressions whose intermediate values may
    /// leave `int` where the result does not (isl writes a launch's
    /// first tile `floor((c0 + 1) / 32)` as `c0 - (31 * c0 + 30) / 32`).
    pub fn to_c_wide(&self) -> String {
        self.clone()
            .in_long_with(&|x| match x {
                AExpr::Id(s) => AExpr::Id(format!("((long) {})", s)),
                other => other,
            })
            .to_c()
    }

    /// This expression computed in `long`: each identifier read through a
    /// cast to `long` (a cast of the result would come after the
    /// overflow), which the read back and the GPU model see through.
    pub fn in_long(self) -> AExpr {
        self.in_long_with(&|x| AExpr::Op(AOp::Call, vec![AExpr::id("(long)"), x]))
    }

    /// `in_long` with `read` making each identifier a `long`. A cast the
    /// code already reads an identifier with (an unsigned parameter as
    /// `long`, a narrow one as `int`) gives way to it: every such type
    /// widens to `long` with its value.
    fn in_long_with(self, read: &impl Fn(AExpr) -> AExpr) -> AExpr {
        match self {
            AExpr::Id(_) => read(self),
            AExpr::Int(_) => self,
            AExpr::Op(AOp::Call, mut a)
                if a.len() == 2 && matches!(&a[0], AExpr::Id(f) if f.starts_with('(')) =>
            {
                a.remove(1).in_long_with(read)
            }
            // A call's name stays as it is.
            AExpr::Op(AOp::Call, mut a) if !a.is_empty() => {
                let name = a.remove(0);
                let mut args = vec![name];
                args.extend(a.into_iter().map(|x| x.in_long_with(read)));
                AExpr::Op(AOp::Call, args)
            }
            AExpr::Op(op, a) => {
                AExpr::Op(op, a.into_iter().map(|x| x.in_long_with(read)).collect())
            }
        }
    }

    fn wrap(&self, min: u8) -> String {
        let (s, p) = self.prec();
        if p < min {
            format!("({})", s)
        } else {
            s
        }
    }

    fn prec(&self) -> (String, u8) {
        const PRIMARY: u8 = 16;
        match self {
            AExpr::Int(v) if *v < 0 => (format!("{}", v), 14),
            AExpr::Int(v) => (v.to_string(), PRIMARY),
            AExpr::Id(s) => (s.clone(), PRIMARY),
            AExpr::Op(op, a) => {
                let bin = |sym: &str, p: u8| -> (String, u8) {
                    // Left-associative: the right operand needs a tighter level.
                    let mut s = a[0].wrap(p);
                    for x in &a[1..] {
                        s = format!("{} {} {}", s, sym, x.wrap(p + 1));
                    }
                    (s, p)
                };
                let call = |f: &str| -> (String, u8) {
                    let args: Vec<String> = a.iter().map(|x| x.to_c()).collect();
                    (pairwise(f, &args), PRIMARY)
                };
                match op {
                    AOp::And => bin("&&", 5),
                    // `a && b || c` is right but draws a warning from C
                    // and OpenCL C compilers: the `&&` gets parentheses.
                    AOp::Or => {
                        let parts: Vec<String> = a.iter().map(|x| x.wrap(6)).collect();
                        (parts.join(" || "), 4)
                    }
                    AOp::Eq => bin("==", 9),
                    AOp::Le => bin("<=", 10),
                    AOp::Lt => bin("<", 10),
                    AOp::Ge => bin(">=", 10),
                    AOp::Gt => bin(">", 10),
                    AOp::Add => bin("+", 12),
                    AOp::Sub => bin("-", 12),
                    AOp::Mul => bin("*", 13),
                    AOp::Div => bin("/", 13),
                    AOp::Rem => bin("%", 13),
                    AOp::Neg => {
                        let inner = a[0].wrap(14);
                        let sep = if inner.starts_with('-') { " " } else { "" };
                        (format!("-{}{}", sep, inner), 14)
                    }
                    AOp::Min => call(STYLE.min),
                    AOp::Max => call(STYLE.max),
                    AOp::FloorDiv => (
                        format!("{}({}, {})", STYLE.floord, a[0].to_c(), a[1].to_c()),
                        PRIMARY,
                    ),
                    AOp::Cond => (
                        format!("{} ? {} : {}", a[0].wrap(4), a[1].wrap(4), a[2].wrap(3)),
                        3,
                    ),
                    AOp::Call => {
                        let args: Vec<String> = a[1..].iter().map(|x| x.to_c()).collect();
                        (format!("{}({})", a[0].to_c(), args.join(", ")), PRIMARY)
                    }
                }
            }
        }
    }
}

/// An n-ary minimum or maximum as a balanced tree of two-argument calls.
/// The helpers are macros that copy each argument twice (they must take
/// any integer type, in C, OpenCL C and CUDA alike), so a chain
/// `min(min(min(a, b), c), d)` doubles its first argument at each level:
/// isl's bounds after a fusion can take 17 arguments, and the chain made
/// 2^16 copies, which gcc took minutes to compile. Balanced, each argument
/// is copied at most twice the number of arguments.
fn pairwise(f: &str, args: &[String]) -> String {
    match args {
        [] => unreachable!("isl's min and max have arguments"),
        [x] => x.clone(),
        _ => {
            let (l, r) = args.split_at(args.len().div_ceil(2));
            format!("{}({}, {})", f, pairwise(f, l), pairwise(f, r))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn id(s: &str) -> AExpr {
        AExpr::Id(s.into())
    }

    #[test]
    fn precedence() {
        let e = AExpr::op(
            AOp::Mul,
            vec![AExpr::op(AOp::Add, vec![id("a"), id("b")]), id("c")],
        );
        assert_eq!(e.to_c(), "(a + b) * c");
        let e = AExpr::op(
            AOp::Sub,
            vec![id("a"), AExpr::op(AOp::Sub, vec![id("b"), id("c")])],
        );
        assert_eq!(e.to_c(), "a - (b - c)");
        let e = AExpr::op(AOp::Mul, vec![AExpr::Int(-2), id("x")]);
        assert_eq!(e.to_c(), "-2 * x");
    }

    #[test]
    fn floor_division_and_min() {
        let e = AExpr::op(
            AOp::FloorDiv,
            vec![
                AExpr::op(AOp::Sub, vec![id("n"), AExpr::Int(1)]),
                AExpr::Int(32),
            ],
        );
        assert_eq!(e.to_c(), "pencilc_floord(n - 1, 32)");
        let e = AExpr::op(AOp::Min, vec![id("a"), id("b"), id("c")]);
        assert_eq!(e.to_c(), "pencilc_min(pencilc_min(a, b), c)");
        let e = AExpr::op(AOp::Max, (0..5).map(|k| id(&format!("x{k}"))).collect());
        assert_eq!(
            e.to_c(),
            "pencilc_max(pencilc_max(pencilc_max(x0, x1), x2), pencilc_max(x3, x4))"
        );
    }

    /// What the preprocessor makes of a bound: each macro level copies
    /// its arguments twice. A minimum of 17 terms (as isl writes after
    /// pluto's `--fuse min` on a generated program) must stay small.
    #[test]
    fn wide_c_reads_every_identifier_as_a_long() {
        let e = AExpr::op(
            AOp::Sub,
            vec![
                AExpr::Id("c0".into()),
                AExpr::op(
                    AOp::Div,
                    vec![
                        AExpr::op(
                            AOp::Add,
                            vec![
                                AExpr::op(AOp::Mul, vec![AExpr::Int(31), AExpr::Id("c0".into())]),
                                AExpr::Int(30),
                            ],
                        ),
                        AExpr::Int(32),
                    ],
                ),
            ],
        );
        assert_eq!(e.to_c(), "c0 - (31 * c0 + 30) / 32");
        assert_eq!(e.to_c_wide(), "((long) c0) - (31 * ((long) c0) + 30) / 32");
    }

    #[test]
    fn long_minima_expand_polynomially() {
        let e = AExpr::op(AOp::Min, (0..17).map(|k| id(&format!("x{k}"))).collect());
        let text = e.to_c();
        assert_eq!(text.matches('x').count(), 17);
        // The deepest argument sits under ceil(log2 17) = 5 calls, not 16.
        let mut depth = 0usize;
        let mut deepest = 0usize;
        for c in text.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                'x' => deepest = deepest.max(depth),
                _ => {}
            }
        }
        // Each level of macro copies its arguments twice: 2^5 copies at
        // most where the chain made 2^16.
        assert_eq!(deepest, 5, "{text}");
    }

    #[test]
    fn launch_size_folding() {
        let e = AExpr::op(
            AOp::Add,
            vec![
                AExpr::op(AOp::Sub, vec![id("n"), AExpr::Int(1)]),
                AExpr::Int(1),
            ],
        );
        assert_eq!(e.simplify(), id("n"));
    }
}
