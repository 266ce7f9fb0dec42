//! C's integer types as far as the value of an affine expression depends
//! on them: the width and signedness that decide whether arithmetic wraps
//! (unsigned, and conversions to narrower types) or is undefined on
//! overflow (signed), and the usual arithmetic conversions that pick the
//! type of `a - b` and of both sides of `a < b`.

use super::syntax::integer_range;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntTy {
    pub bits: u32,
    pub signed: bool,
}

impl IntTy {
    pub const INT: IntTy = IntTy {
        bits: 32,
        signed: true,
    };

    /// The type named by C text (`unsigned`, `size_t`, `const long`);
    /// `None` for non-integer types.
    pub fn of(ty: &str) -> Option<IntTy> {
        let (lo, hi) = integer_range(ty)?;
        let span = hi - lo + 1;
        let bits = 128 - (span - 1).leading_zeros();
        Some(IntTy {
            bits,
            signed: lo < 0,
        })
    }

    /// A C spelling of the type that C, OpenCL C and CUDA all accept
    /// (`_Bool` as `unsigned char`: its values are 0 and 1).
    pub fn c_name(self) -> &'static str {
        match (self.bits, self.signed) {
            (8, true) => "signed char",
            (1 | 8, false) => "unsigned char",
            (16, true) => "short",
            (16, false) => "unsigned short",
            (64, true) => "long",
            (64, false) => "unsigned long",
            (_, false) => "unsigned int",
            _ => "int",
        }
    }

    /// `_Bool`: a conversion to it gives 0 or 1, not a wrapped value.
    pub fn is_bool(self) -> bool {
        self.bits == 1 && !self.signed
    }

    pub fn range(self) -> (i128, i128) {
        if self.signed {
            (-(1i128 << (self.bits - 1)), (1i128 << (self.bits - 1)) - 1)
        } else {
            (0, (1i128 << self.bits) - 1)
        }
    }

    /// The integer promotions: everything narrower than `int` (whose
    /// values `int` holds) becomes `int`.
    pub fn promoted(self) -> IntTy {
        if self.bits < 32 {
            IntTy::INT
        } else {
            self
        }
    }

    /// The usual arithmetic conversions of two integer operands.
    pub fn common(a: IntTy, b: IntTy) -> IntTy {
        let (a, b) = (a.promoted(), b.promoted());
        if a.signed == b.signed {
            return IntTy {
                bits: a.bits.max(b.bits),
                signed: a.signed,
            };
        }
        let (u, s) = if a.signed { (b, a) } else { (a, b) };
        // A signed type wider than the unsigned one holds all its values.
        if u.bits >= s.bits {
            u
        } else {
            s
        }
    }

    /// The type of an integer literal from its spelling (`10`, `10u`,
    /// `0xffffffff`, `5UL`) and value (C11 6.4.4.1: the first type of its
    /// list that holds the value).
    pub fn of_literal(text: &str, value: i64) -> IntTy {
        let lower = text.to_ascii_lowercase();
        let suffix: String = lower
            .chars()
            .rev()
            .take_while(|c| *c == 'u' || *c == 'l')
            .collect();
        let unsigned = suffix.contains('u');
        let long = suffix.contains('l');
        let decimal = !(lower.starts_with('0') && lower.len() > 1);
        let fits = |t: IntTy| (value as i128) <= t.range().1;
        let mut list: Vec<IntTy> = Vec::new();
        let (int, uint, lng, ulng) = (
            IntTy::INT,
            IntTy {
                bits: 32,
                signed: false,
            },
            IntTy {
                bits: 64,
                signed: true,
            },
            IntTy {
                bits: 64,
                signed: false,
            },
        );
        if !long {
            if !unsigned {
                list.push(int);
            }
            if unsigned || !decimal {
                list.push(uint);
            }
        }
        if !unsigned {
            list.push(lng);
        }
        if unsigned || !decimal {
            list.push(ulng);
        }
        list.into_iter().find(|t| fits(*t)).unwrap_or(ulng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_from_their_names() {
        assert_eq!(IntTy::of("int"), Some(IntTy::INT));
        assert_eq!(
            IntTy::of("unsigned"),
            Some(IntTy {
                bits: 32,
                signed: false
            })
        );
        assert_eq!(
            IntTy::of("size_t").map(|t| (t.bits, t.signed)),
            Some((64, false))
        );
        assert_eq!(IntTy::of("unsigned char").map(|t| t.bits), Some(8));
        assert!(IntTy::of("_Bool").unwrap().is_bool());
        assert_eq!(IntTy::of("double"), None);
    }

    #[test]
    fn usual_arithmetic_conversions() {
        let u = IntTy::of("unsigned").unwrap();
        let l = IntTy::of("long").unwrap();
        let uc = IntTy::of("unsigned char").unwrap();
        let ul = IntTy::of("unsigned long").unwrap();
        assert_eq!(IntTy::common(IntTy::INT, u), u);
        assert_eq!(IntTy::common(u, l), l);
        assert_eq!(IntTy::common(uc, uc), IntTy::INT);
        assert_eq!(IntTy::common(l, ul), ul);
    }

    #[test]
    fn literal_types() {
        assert_eq!(IntTy::of_literal("10", 10), IntTy::INT);
        assert!(!IntTy::of_literal("10u", 10).signed);
        assert!(!IntTy::of_literal("0xffffffff", 0xffff_ffff).signed);
        assert_eq!(IntTy::of_literal("4294967295", 4294967295).bits, 64);
        assert!(IntTy::of_literal("4294967295", 4294967295).signed);
        assert_eq!(IntTy::of_literal("5UL", 5).bits, 64);
    }
}
