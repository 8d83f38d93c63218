//! Small formatting helpers shared by the reports (`inspect`, `plan::budget`, the CLI).

/// `1234567` -> `1,234,567`.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `[1, 25, 5, 64]` as `[1,25,5,64]`.
pub fn shape(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(","))
}

/// `t12 "name" int8[1,25,5,64]`: a tensor as the reports name it.
pub fn tensor(t: &crate::ir::Tensor<'_>) -> String {
    format!("{} \"{}\" {}{}", t.id, t.name, t.dtype, shape(&t.shape))
}

#[cfg(test)]
mod tests {
    #[test]
    fn groups_thousands() {
        assert_eq!(super::group(0), "0");
        assert_eq!(super::group(999), "999");
        assert_eq!(super::group(1000), "1,000");
        assert_eq!(super::group(49152), "49,152");
        assert_eq!(super::group(1234567), "1,234,567");
    }

    #[test]
    fn shapes() {
        assert_eq!(super::shape(&[]), "[]");
        assert_eq!(super::shape(&[1, 25, 5, 64]), "[1,25,5,64]");
    }
}
