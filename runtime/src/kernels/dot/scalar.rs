//! Portable reference versions of the dot micro-kernels ([`Scalar`]).

/// `acc[j] + sum_i x[i] * w[j][i]` for the four rows `w[j]` (each at least `x.len()` long),
/// wrapping.
#[inline(always)]
pub(crate) fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4] {
    let n = x.len();
    let (w0, w1, w2, w3) = (&w[0][..n], &w[1][..n], &w[2][..n], &w[3][..n]);
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    for i in 0..n {
        let xv = x[i] as i32;
        a0 = a0.wrapping_add(xv * w0[i] as i32);
        a1 = a1.wrapping_add(xv * w1[i] as i32);
        a2 = a2.wrapping_add(xv * w2[i] as i32);
        a3 = a3.wrapping_add(xv * w3[i] as i32);
    }
    [a0, a1, a2, a3]
}

/// `acc + sum_i x[i] * w[i]` (`w` at least `x.len()` long), wrapping.
#[inline(always)]
pub(crate) fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32 {
    let w = &w[..x.len()];
    x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add(x as i32 * w as i32))
}

/// Four independent lanes: `acc[j] + x[j] * w[j]`, wrapping.
#[inline(always)]
pub(crate) fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4] {
    core::array::from_fn(|j| acc[j].wrapping_add(x[j] as i32 * w[j] as i32))
}

/// [`dot4`] with `offset` added to every `x` first: `acc[j] + sum_i (x[i] + offset) * w[j][i]`
/// (`offset` is an input offset, `-128..=128`, so `x + offset` fits 9 bits).
#[inline(always)]
pub(crate) fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
    let n = x.len();
    let (w0, w1, w2, w3) = (&w[0][..n], &w[1][..n], &w[2][..n], &w[3][..n]);
    let [mut a0, mut a1, mut a2, mut a3] = acc;
    for i in 0..n {
        let xv = x[i] as i32 + offset;
        a0 = a0.wrapping_add(xv * w0[i] as i32);
        a1 = a1.wrapping_add(xv * w1[i] as i32);
        a2 = a2.wrapping_add(xv * w2[i] as i32);
        a3 = a3.wrapping_add(xv * w3[i] as i32);
    }
    [a0, a1, a2, a3]
}

/// [`dot1`] with `offset` added to every `x` first.
#[inline(always)]
pub(crate) fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
    let w = &w[..x.len()];
    x.iter().zip(w).fold(acc, |a, (&x, &w)| a.wrapping_add((x as i32 + offset) * w as i32))
}

/// [`mac4`] with `offset` added to every `x` first.
#[inline(always)]
pub(crate) fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
    core::array::from_fn(|j| acc[j].wrapping_add((x[j] as i32 + offset) * w[j] as i32))
}

/// The portable implementation, always compiled: the reference of every other one.
pub(crate) struct Scalar;

impl super::Dot for Scalar {
    const NAME: &'static str = "scalar";
    #[inline(always)]
    fn dot4(x: &[i8], w: [&[i8]; 4], acc: [i32; 4]) -> [i32; 4] {
        dot4(x, w, acc)
    }
    #[inline(always)]
    fn dot1(x: &[i8], w: &[i8], acc: i32) -> i32 {
        dot1(x, w, acc)
    }
    #[inline(always)]
    fn mac4(x: [i8; 4], w: [i8; 4], acc: [i32; 4]) -> [i32; 4] {
        mac4(x, w, acc)
    }
    #[inline(always)]
    fn dot4_offset(x: &[i8], w: [&[i8]; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        dot4_offset(x, w, offset, acc)
    }
    #[inline(always)]
    fn dot1_offset(x: &[i8], w: &[i8], offset: i32, acc: i32) -> i32 {
        dot1_offset(x, w, offset, acc)
    }
    #[inline(always)]
    fn mac4_offset(x: [i8; 4], w: [i8; 4], offset: i32, acc: [i32; 4]) -> [i32; 4] {
        mac4_offset(x, w, offset, acc)
    }
}
