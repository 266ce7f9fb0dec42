//! Prints the front end's C expressions with correct precedence, with hooks
//! for what each target does differently: iterator substitution (statement
//! bodies are printed in terms of generated loop variables), array access
//! linearisation, and function names.

use crate::front::syntax::{member_row, BinOp, Expr, ExprKind, MemberRowArgs, UnOp};

pub struct ExprPrinter<'a> {
    /// Prints a bare identifier (loop iterators become AST expressions,
    /// written scalars become buffer accesses).
    pub ident: &'a dyn Fn(&str) -> String,
    /// Prints `name[s0][s1]...` given the printed subscripts.
    pub access: &'a dyn Fn(&str, &[String]) -> String,
    /// Maps a called function's name for the target.
    pub call: &'a dyn Fn(&str) -> String,
    /// Kernel code: a struct's member array passed to a function
    /// (`syntax::MEMBER_ROW`) is a flat pointer into its buffer, as rows
    /// are; host code passes the user's own type.
    pub flat_rows: bool,
}

const PREC_COND: u8 = 3;
const PREC_UNARY: u8 = 14;
const PREC_PRIMARY: u8 = 16;

/// Whether printed text is an atom that never needs parentheses.
pub fn is_atomic(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
}

/// Whether `s` is one parenthesized group: `(a) / 2 - (b)` starts and ends
/// with parentheses but is not one, and substituting it for an iterator
/// in `2 * j` without parentheses changed a program's meaning.
pub fn fully_parenthesized(s: &str) -> bool {
    if !(s.starts_with('(') && s.ends_with(')')) {
        return false;
    }
    let mut depth = 0i64;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && i + 1 < s.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

impl ExprPrinter<'_> {
    pub fn print(&self, e: &Expr) -> String {
        self.prec(e).0
    }

    fn wrap(&self, e: &Expr, min: u8) -> String {
        let (s, p) = self.prec(e);
        if p < min {
            format!("({})", s)
        } else {
            s
        }
    }

    fn prec(&self, e: &Expr) -> (String, u8) {
        match &e.kind {
            ExprKind::Int(_, text) => (text.clone(), PREC_PRIMARY),
            ExprKind::Float(text) => (text.clone(), PREC_PRIMARY),
            ExprKind::Ident(n) => {
                let s = (self.ident)(n);
                if is_atomic(&s) || fully_parenthesized(&s) {
                    (s, PREC_PRIMARY)
                } else {
                    (format!("({})", s), PREC_PRIMARY)
                }
            }
            ExprKind::Index(..) => {
                let mut subs = Vec::new();
                let mut cur = e;
                while let ExprKind::Index(base, idx) = &cur.kind {
                    subs.push(self.print(idx));
                    cur = base;
                }
                subs.reverse();
                let name = match &cur.kind {
                    ExprKind::Ident(n) => n.clone(),
                    _ => self.wrap(cur, PREC_PRIMARY),
                };
                ((self.access)(&name, &subs), PREC_PRIMARY)
            }
            ExprKind::Unary(op, a) => {
                let sym = match op {
                    UnOp::Neg => "-",
                    UnOp::Plus => "+",
                    UnOp::Not => "!",
                    UnOp::BitNot => "~",
                    UnOp::AddrOf => "&",
                };
                let inner = self.wrap(a, PREC_UNARY);
                // Avoid `--x` or `- -1` being read as a decrement.
                let sep = if inner.starts_with(sym) { " " } else { "" };
                (format!("{}{}{}", sym, sep, inner), PREC_UNARY)
            }
            ExprKind::Binary(op, a, b) => {
                let p = op.precedence();
                let side = |x: &Expr, min: u8| match &x.kind {
                    ExprKind::Binary(inner, ..) if clarify(*op, *inner) => {
                        format!("({})", self.print(x))
                    }
                    _ => self.wrap(x, min),
                };
                (
                    format!("{} {} {}", side(a, p), op.c_text(), side(b, p + 1)),
                    p,
                )
            }
            ExprKind::Cond(c, t, f) => (
                format!(
                    "{} ? {} : {}",
                    self.wrap(c, PREC_COND + 1),
                    self.wrap(t, PREC_COND + 1),
                    self.wrap(f, PREC_COND)
                ),
                PREC_COND,
            ),
            ExprKind::Call(f, args) => {
                if let Some(row) = member_row(e) {
                    return (self.member_row(&row), PREC_UNARY);
                }
                let args: Vec<String> = args.iter().map(|a| self.print(a)).collect();
                (
                    format!("{}({})", (self.call)(f), args.join(", ")),
                    PREC_PRIMARY,
                )
            }
            ExprKind::Cast(t, a) => (format!("({}){}", t, self.wrap(a, PREC_UNARY)), PREC_UNARY),
        }
    }
}

impl ExprPrinter<'_> {
    /// A struct's member array passed to a function, as the address of its
    /// first place: where one element's address is not of the parameter's
    /// type (a multi-dimensional member, structs), host code reaches the
    /// user's type through `void *`.
    fn member_row(&self, row: &MemberRowArgs) -> String {
        let addr = format!("&{}", self.wrap(row.first, PREC_UNARY));
        let elements = !row.structs && row.extents.len() <= 1;
        if self.flat_rows || elements {
            addr
        } else {
            format!("(void *){}", addr)
        }
    }
}

/// Whether an operand with operator `inner` of one with `outer` gets
/// parentheses that precedence does not need: the mixes C compilers warn
/// about (`a + 128 >> 8`, `a & b == c`, `a && b || c`), which an OpenCL
/// implementation prints at run time when it builds the kernels.
fn clarify(outer: BinOp, inner: BinOp) -> bool {
    use BinOp::*;
    match outer {
        Shl | Shr | BitAnd | BitXor | BitOr => inner != outer,
        Or => inner == And,
        _ => false,
    }
}

/// Prints an expression as the user wrote it (modulo spacing).
pub fn plain(e: &Expr) -> String {
    let p = ExprPrinter {
        ident: &|n| n.to_string(),
        access: &|n, s| {
            format!(
                "{}{}",
                n,
                s.iter().map(|x| format!("[{}]", x)).collect::<String>()
            )
        },
        call: &|f| f.to_string(),
        flat_rows: false,
    };
    p.print(e)
}

/// Whether `e` prints (`plain`) as `text`, printing nothing where it
/// cannot: each node prints at least one character (a member row its
/// first place and `&`), so one of more nodes than `text` has characters
/// prints otherwise. Searches for a variable in every subterm of a chain
/// of 10,000 sums printed each (a cubic time) before.
pub fn prints_as(e: &Expr, text: &str) -> bool {
    fn fits(e: &Expr, budget: &mut usize) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if let Some(row) = member_row(e) {
            return fits(row.first, budget);
        }
        e.children().into_iter().all(|c| fits(c, budget))
    }
    let mut budget = text.len();
    fits(e, &mut budget) && plain(e) == text
}

/// How many subterms of `e` (itself included, none inside one that
/// matches) print as `text`: the reads of a variable printed so.
pub fn count_printed_as(e: &Expr, text: &str) -> usize {
    if prints_as(e, text) {
        return 1;
    }
    e.children()
        .into_iter()
        .map(|c| count_printed_as(c, text))
        .sum()
}

#[cfg(test)]
mod paren_tests {
    use super::fully_parenthesized;

    #[test]
    fn groups_are_recognised_by_their_matching_parenthesis() {
        assert!(fully_parenthesized("(a + b)"));
        assert!(fully_parenthesized("((a) / 2 - (b))"));
        assert!(!fully_parenthesized("(a) / 2 - (b)"));
        assert!(!fully_parenthesized(
            "(-t0 + t1) / 2 - 8 * ((-t0 + t1 + 9) / 16)"
        ));
        assert!(!fully_parenthesized("a + (b)"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::syntax::build::*;
    use crate::front::syntax::BinOp;

    #[test]
    fn precedence_and_associativity() {
        // (a - b) - c needs no parentheses; a - (b - c) does.
        let l = bin(BinOp::Sub, bin(BinOp::Sub, id("a"), id("b")), id("c"));
        assert_eq!(plain(&l), "a - b - c");
        let r = bin(BinOp::Sub, id("a"), bin(BinOp::Sub, id("b"), id("c")));
        assert_eq!(plain(&r), "a - (b - c)");
        let m = bin(BinOp::Mul, bin(BinOp::Add, id("a"), id("b")), id("c"));
        assert_eq!(plain(&m), "(a + b) * c");
    }

    #[test]
    fn mixes_that_compilers_warn_about_keep_parentheses() {
        let shift = bin(BinOp::Shr, bin(BinOp::Add, id("a"), id("b")), id("c"));
        assert_eq!(plain(&shift), "(a + b) >> c");
        let and = bin(BinOp::BitAnd, id("a"), bin(BinOp::Eq, id("b"), id("c")));
        assert_eq!(plain(&and), "a & (b == c)");
        let or = bin(BinOp::Or, bin(BinOp::And, id("a"), id("b")), id("c"));
        assert_eq!(plain(&or), "(a && b) || c");
        let same = bin(BinOp::BitOr, bin(BinOp::BitOr, id("a"), id("b")), id("c"));
        assert_eq!(plain(&same), "a | b | c");
    }

    #[test]
    fn substituted_iterators_are_parenthesised() {
        let x = bin(BinOp::Mul, id("i"), id("n"));
        let p = ExprPrinter {
            ident: &|n| if n == "i" { "c0 + c1".into() } else { n.into() },
            access: &|n, _| n.into(),
            call: &|f| f.into(),
            flat_rows: false,
        };
        assert_eq!(p.print(&x), "(c0 + c1) * n");
    }

    #[test]
    fn prints_as_skips_what_has_more_nodes_than_characters() {
        let sum = bin(BinOp::Add, id("a"), id("b"));
        assert!(prints_as(&sum, "a + b"));
        assert!(!prints_as(&sum, "a+b"));
        assert!(!prints_as(&id("a"), ""));
        // A member row prints its first place alone, whatever else it has.
        let int = |v: i64| e(ExprKind::Int(v, v.to_string()));
        let row = call(
            crate::front::syntax::MEMBER_ROW,
            vec![id("s"), int(3), int(0), int(10)],
        );
        let text = plain(&row);
        assert_eq!(text, "&s");
        assert!(prints_as(&row, &text));
        let mut deep = id("x");
        for _ in 0..5_000 {
            deep = bin(BinOp::Add, deep, id("y"));
        }
        assert!(!prints_as(&deep, "x"));
    }

    #[test]
    fn negation_of_negative() {
        let x = e(ExprKind::Unary(
            UnOp::Neg,
            Box::new(e(ExprKind::Unary(UnOp::Neg, Box::new(id("a"))))),
        ));
        assert_eq!(plain(&x), "- -a");
    }
}
