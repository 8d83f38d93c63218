//! The report line, written piece by piece without `core::fmt`: its formatting machinery
//! (`Formatter::pad`, `pad_integral`, the integer `Display` impls, `fmt::write`: about 3 KB)
//! would otherwise be a large part of a small model's non-weight flash, which `run.sh`
//! compares with TFLite Micro's. Each platform's `Out` sends the bytes (semihosting on
//! Arm, the UART on RISC-V).

use crate::platform::Out;

/// One report line: `Line::new().s("…").u(n)…`; the newline goes out when it is dropped.
pub struct Line {
    out: Out,
}

impl Line {
    pub fn new() -> Self {
        Line { out: Out::open() }
    }

    /// Writes `s`. Not inlined: the report sites stay a few calls each.
    #[inline(never)]
    pub fn s(&mut self, s: &str) -> &mut Self {
        self.out.write(s.as_bytes());
        self
    }

    /// Writes `v` in decimal, a digit at a time from the most significant.
    #[inline(never)]
    pub fn u(&mut self, v: usize) -> &mut Self {
        let mut div = 1;
        while v / div >= 10 {
            div *= 10;
        }
        loop {
            self.out.write(&[b'0' + (v / div % 10) as u8]);
            if div == 1 {
                return self;
            }
            div /= 10;
        }
    }

    /// Writes `v` in decimal, with its sign.
    pub fn i(&mut self, v: i32) -> &mut Self {
        if v < 0 {
            self.s("-");
        }
        self.u(v.unsigned_abs() as usize)
    }

    /// Writes `v` as `0x` and eight hexadecimal digits.
    #[inline(never)]
    pub fn hex(&mut self, v: u32) -> &mut Self {
        let mut digits = *b"0x00000000";
        for (i, d) in digits[2..].iter_mut().enumerate() {
            *d = b"0123456789abcdef"[((v >> (28 - 4 * i)) & 0xf) as usize];
        }
        self.out.write(&digits);
        self
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        self.out.write(b"\n");
    }
}
