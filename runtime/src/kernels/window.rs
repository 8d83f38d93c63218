//! Sliding-window geometry shared by the convolution kernels.

/// The filter taps `k` in `0..taps` whose input coordinate `origin + dilation * k` lies in
/// `0..size`: TFLite's "zero padding by omitting the areas outside the image", as one range.
#[inline]
pub(crate) fn valid_taps(origin: isize, dilation: usize, taps: usize, size: usize) -> core::ops::Range<usize> {
    let d = dilation as isize;
    // First k with origin + d*k >= 0, i.e. k >= ceil(-origin / d).
    let start = if origin >= 0 { 0 } else { ((-origin + d - 1) / d) as usize }.min(taps);
    // First k with origin + d*k >= size.
    let end = if origin >= size as isize { 0 } else { ((size as isize - origin + d - 1) / d) as usize }.min(taps);
    start..end.max(start)
}

#[cfg(test)]
mod tests {
    use super::valid_taps;
    use std::vec::Vec;

    #[test]
    fn valid_taps_matches_brute_force() {
        for origin in -12isize..12 {
            for dilation in 1..4 {
                for taps in 0..5 {
                    for size in 0..8 {
                        let brute: Vec<usize> =
                            (0..taps).filter(|&k| (0..size as isize).contains(&(origin + (dilation * k) as isize))).collect();
                        let got: Vec<usize> = valid_taps(origin, dilation, taps, size).collect();
                        assert_eq!(got, brute, "origin {origin} dilation {dilation} taps {taps} size {size}");
                    }
                }
            }
        }
    }
}
