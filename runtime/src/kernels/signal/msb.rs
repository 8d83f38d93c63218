//! `signal/src/msb_32.cc`, `msb_64.cc` and `square_root_32.cc`, `square_root_64.cc`.
//!
//! TFLite Micro builds the `__GNUC__` branch of the most-significant-bit functions on every
//! target it runs on here (x86 host, Arm GCC/Clang), which returns 32 (64) for zero, not 0.

/// `MostSignificantBit32`: `32 - clz(x)`, and 32 for `x == 0` (the `__builtin_clz` branch).
#[inline]
pub const fn most_significant_bit_32(x: u32) -> u32 {
    if x != 0 {
        32 - x.leading_zeros()
    } else {
        32
    }
}

/// `MostSignificantBit64`: `64 - clzll(x)`, and 64 for `x == 0`.
#[inline]
pub const fn most_significant_bit_64(x: u64) -> u32 {
    if x != 0 {
        64 - x.leading_zeros()
    } else {
        64
    }
}

/// `Sqrt32`: the bitwise integer square root, rounded up when the remainder exceeds the root
/// (and the root is not already 0xFFFF).
pub const fn sqrt32(mut num: u32) -> u16 {
    if num == 0 {
        return 0;
    }
    let mut res: u32 = 0;
    let max_bit_number = (32 - most_significant_bit_32(num)) | 1;
    let mut bit: u32 = 1u32 << (31 - max_bit_number);
    let mut iterations = (31 - max_bit_number) / 2 + 1;
    while iterations > 0 {
        iterations -= 1;
        if num >= res.wrapping_add(bit) {
            num = num.wrapping_sub(res.wrapping_add(bit));
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    if num > res && res != 0xFFFF {
        res += 1;
    }
    res as u16
}

/// `Sqrt64`: [`sqrt32`] when the upper word is clear (TFLite Micro's shortcut, off by one
/// near 2^32 as its comment says), else the 64-bit bitwise root.
pub const fn sqrt64(mut num: u64) -> u32 {
    if (num >> 32) == 0 {
        return sqrt32(num as u32) as u32;
    }
    let mut res: u64 = 0;
    let max_bit_number = (64 - most_significant_bit_64(num)) | 1;
    let mut bit: u64 = 1u64 << (63 - max_bit_number);
    let mut iterations = (63 - max_bit_number) / 2 + 1;
    while iterations > 0 {
        iterations -= 1;
        if num >= res.wrapping_add(bit) {
            num = num.wrapping_sub(res.wrapping_add(bit));
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    if num > res && res != 0xFFFF_FFFF {
        res += 1;
    }
    res as u32
}
