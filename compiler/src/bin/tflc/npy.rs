//! The NumPy `.npy` format (version 1.0/2.0/3.0 read, 1.0 written), for `tflc run`: a magic
//! string, a little-endian header length, a Python-literal header dict
//! (`{'descr': '<i2', 'fortran_order': False, 'shape': (1, 49, 40), }`) padded to a multiple of
//! 64 bytes, then the raw C-order data. Only the subset NumPy writes for plain numeric
//! arrays is accepted; anything else is refused with the reason.

use tflc::ir::DType;

const MAGIC: &[u8] = b"\x93NUMPY";

/// The `descr` NumPy writes for `dtype` (`<i2`, `|i1`, `<f4`, `|b1`), derived from the dtype
/// table's name and size; `None` for types NumPy cannot hold.
pub fn descr(dtype: DType) -> Option<String> {
    let info = dtype.info();
    let size = info.size?;
    let kind = if info.name == "bool" {
        'b'
    } else if info.name.starts_with("uint") {
        'u'
    } else if info.name.starts_with("int") {
        'i'
    } else if info.name.starts_with("float") {
        'f'
    } else {
        return None;
    };
    let order = if size == 1 { '|' } else { '<' };
    Some(format!("{order}{kind}{size}"))
}

/// A parsed `.npy` file.
#[derive(Debug, PartialEq, Eq)]
pub struct Array<'a> {
    pub descr: String,
    pub shape: Vec<usize>,
    pub data: &'a [u8],
}

/// Parses `bytes` as a `.npy` file.
pub fn read(bytes: &[u8]) -> Result<Array<'_>, String> {
    let rest = bytes.strip_prefix(MAGIC).ok_or("not a .npy file (no \\x93NUMPY magic)")?;
    let (&major, rest) = rest.split_first().ok_or("truncated .npy header")?;
    let (_minor, rest) = rest.split_first().ok_or("truncated .npy header")?;
    let (len, rest) = match major {
        1 => {
            let (l, r) = rest.split_at_checked(2).ok_or("truncated .npy header")?;
            (u16::from_le_bytes([l[0], l[1]]) as usize, r)
        }
        2 | 3 => {
            let (l, r) = rest.split_at_checked(4).ok_or("truncated .npy header")?;
            (u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize, r)
        }
        v => return Err(format!(".npy format version {v} is not supported (1, 2 or 3)")),
    };
    let (header, data) = rest.split_at_checked(len).ok_or("truncated .npy header")?;
    let header = std::str::from_utf8(header).map_err(|_| ".npy header is not text")?;
    let descr = field(header, "descr")?;
    let descr = descr.trim_matches(|c| c == '\'' || c == '"').to_string();
    match field(header, "fortran_order")? {
        "False" => {}
        "True" => return Err("Fortran-order .npy arrays are not supported (save with np.ascontiguousarray)".into()),
        other => return Err(format!(".npy header: fortran_order is `{other}`")),
    }
    let shape = field(header, "shape")?;
    let shape = shape
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<usize>().map_err(|_| format!(".npy header: bad dimension `{s}`")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Array { descr, shape, data })
}

/// The value of `'key': value` in the header dict (a tuple value runs to its `)`).
fn field<'h>(header: &'h str, key: &str) -> Result<&'h str, String> {
    let missing = || format!(".npy header has no '{key}'");
    let at = header.find(&format!("'{key}'")).ok_or_else(missing)?;
    let after = header[at + key.len() + 2..].trim_start();
    let after = after.strip_prefix(':').ok_or_else(missing)?.trim_start();
    let end = if after.starts_with('(') {
        after.find(')').map(|i| i + 1)
    } else {
        after.find([',', '}'])
    };
    Ok(after[..end.unwrap_or(after.len())].trim())
}

/// A `.npy` file (version 1.0) holding `data` as `descr` with `shape`.
pub fn write(descr: &str, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64.
    let total = (10 + header.len() + 1).div_ceil(64) * 64;
    while 10 + header.len() + 1 < total {
        header.push(' ');
    }
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + data.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reads_what_numpy_writes() {
        let bytes = write("<i2", &[1, 3], &[1, 0, 2, 0, 255, 255]);
        assert_eq!(bytes.len() % 64, 6);
        let a = read(&bytes).unwrap();
        assert_eq!(a, Array { descr: "<i2".into(), shape: vec![1, 3], data: &[1, 0, 2, 0, 255, 255] });
        // np.save of np.zeros(2, np.int8) (header as NumPy 1.x writes it).
        let mut np = b"\x93NUMPY\x01\x00v\x00{'descr': '|i1', 'fortran_order': False, 'shape': (2,), }".to_vec();
        while np.len() < 127 {
            np.push(b' ');
        }
        np.push(b'\n');
        np.extend_from_slice(&[0, 0]);
        assert_eq!(read(&np).unwrap(), Array { descr: "|i1".into(), shape: vec![2], data: &[0, 0] });
        assert_eq!(read(&write("<f4", &[], &[0; 4])).unwrap().shape, Vec::<usize>::new());
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert!(read(b"PK\x03\x04").unwrap_err().contains("magic"));
        assert!(read(b"\x93NUMPY\x09\x00").unwrap_err().contains("version 9"));
        let f = write("<i2", &[2], &[0; 4]);
        let mut fortran = f.clone();
        let at = fortran.windows(5).position(|w| w == b"False").unwrap();
        fortran[at..at + 5].copy_from_slice(b"True ");
        assert!(read(&fortran).unwrap_err().contains("Fortran"));
        assert!(read(&f[..12]).is_err());
    }

    #[test]
    fn descr_follows_the_dtype_table() {
        assert_eq!(descr(DType::I8).as_deref(), Some("|i1"));
        assert_eq!(descr(DType::U8).as_deref(), Some("|u1"));
        assert_eq!(descr(DType::I16).as_deref(), Some("<i2"));
        assert_eq!(descr(DType::F32).as_deref(), Some("<f4"));
        assert_eq!(descr(DType::Bool).as_deref(), Some("|b1"));
        assert_eq!(descr(DType::String), None);
    }
}
