//! The host form of the int8 element-wise ops whose output is a function of the input byte
//! alone (LOGISTIC, TANH, HARD_SWISH: per-tensor quantization, no state): for a tensor of at
//! least [`MIN_LEN`] elements, the op's scalar reference is evaluated once for each of the
//! 256 int8 codes into a table on the stack, and every element is one table read.
//!
//! Bit-exact by construction: every table entry is the scalar reference's result for that
//! code, and each element reads its own code's entry. The table costs 256 evaluations, so
//! shorter tensors (and the Cortex-M builds, which keep their instruction counts and have
//! no cache to spare) run the scalar reference directly. (TFLite's optimized kernels build
//! the same tables for int8 LOGISTIC and TANH in their `Prepare`.)

/// Shortest tensor the table is built for: twice the table's own cost in evaluations.
pub(crate) const MIN_LEN: usize = 512;

/// `f` of every int8 code, indexed by the code's byte (`x as u8`).
#[inline(always)]
fn table(f: impl Fn(i8) -> i8) -> [i8; 256] {
    core::array::from_fn(|i| f(i as u8 as i8))
}

/// `output[i] = f(input[i])` through the table (`input.len() == output.len()`).
#[inline(always)]
pub(crate) fn map(f: impl Fn(i8) -> i8, input: &[i8], output: &mut [i8]) {
    let t = table(f);
    for (o, &x) in output.iter_mut().zip(input) {
        *o = t[x as u8 as usize];
    }
}

/// `data[i] = f(data[i])` through the table.
#[inline(always)]
pub(crate) fn map_in_place(f: impl Fn(i8) -> i8, data: &mut [i8]) {
    let t = table(f);
    for v in data.iter_mut() {
        *v = t[*v as u8 as usize];
    }
}

/// `true` when the host form takes a tensor of `len` elements (never on Arm).
#[inline(always)]
pub(crate) const fn takes(len: usize) -> bool {
    !cfg!(target_arch = "arm") && len >= MIN_LEN
}
