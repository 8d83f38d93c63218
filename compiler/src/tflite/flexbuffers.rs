//! A small, fully checked reader of FlexBuffer maps: the custom options of TFLite Micro's
//! signal operators (written by `flexbuffers.Builder` in their Python op definitions).
//!
//! Our own rather than the `flexbuffers` crate: the options are one flat map of scalars, the
//! crate's reader panics on some malformed input (it is not meant for untrusted bytes), and
//! every error here must name the op. Every offset and width is bounds-checked; a value
//! tflc does not need to read (a string, a vector) is reported by its type, not decoded.
//!
//! The format (flatbuffers `flexbuffers.h`): the last byte is the root's byte width, the one
//! before it the root's packed type (`type << 2 | bit_width`), and the root value precedes
//! them. A map's value is an offset back to its values vector; before that vector are the
//! offset of its keys vector, the keys' byte width and the element count; after it, one
//! packed type byte per element. Keys are sorted (byte order), and TFLite Micro's
//! `FlexbufferWrapper::ElementAs*` reads values by their position in that order.

/// A scalar value of a map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FlexValue {
    /// A null value.
    Null,
    /// A signed integer, widened to 64 bits.
    Int(i64),
    /// An unsigned integer, widened to 64 bits.
    UInt(u64),
    /// A float, widened to 64 bits.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A value of another FlexBuffer type (its type code: string, vector, map, ...).
    Other(u8),
}

impl FlexValue {
    /// TFLite Micro's `AsInt64` (`flexbuffers::Reference::AsInt64`): integers as themselves
    /// (unsigned ones reinterpreted), floats truncated, bools 0/1, null 0; `None` for other
    /// types (which flexbuffers would read as 0 or parse from a string: tflc refuses them).
    pub fn as_i64(self) -> Option<i64> {
        match self {
            FlexValue::Null => Some(0),
            FlexValue::Int(v) => Some(v),
            FlexValue::UInt(v) => Some(v as i64),
            FlexValue::Float(f) => Some(f as i64),
            FlexValue::Bool(b) => Some(i64::from(b)),
            FlexValue::Other(_) => None,
        }
    }

    /// `AsInt32`: [`Self::as_i64`] truncated to 32 bits, as the C++ cast does.
    pub fn as_i32(self) -> Option<i32> {
        self.as_i64().map(|v| v as i32)
    }

    /// `AsBool`: non-zero numbers are true.
    pub fn as_bool(self) -> Option<bool> {
        match self {
            FlexValue::Bool(b) => Some(b),
            FlexValue::Float(f) => Some(f != 0.0),
            other => other.as_i64().map(|v| v != 0),
        }
    }
}

/// A parsed map: its keys in stored (sorted) order with their values.
#[derive(Debug, Clone, PartialEq)]
pub struct FlexMap {
    /// The entries, keys in stored (sorted) order.
    pub entries: Vec<(String, FlexValue)>,
}

const FBT_NULL: u8 = 0;
const FBT_INT: u8 = 1;
const FBT_UINT: u8 = 2;
const FBT_FLOAT: u8 = 3;
const FBT_INDIRECT_INT: u8 = 6;
const FBT_INDIRECT_UINT: u8 = 7;
const FBT_INDIRECT_FLOAT: u8 = 8;
const FBT_MAP: u8 = 9;
const FBT_BOOL: u8 = 26;

fn read_uint(b: &[u8], at: usize, width: usize) -> Result<u64, String> {
    let end = at.checked_add(width).ok_or("offset overflows")?;
    let s = b.get(at..end).ok_or_else(|| format!("{width}-byte value at {at} is past the end ({} bytes)", b.len()))?;
    Ok(match width {
        1 => s[0] as u64,
        2 => u16::from_le_bytes([s[0], s[1]]) as u64,
        4 => u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as u64,
        8 => u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]),
        w => return Err(format!("byte width {w}")),
    })
}

fn read_int(b: &[u8], at: usize, width: usize) -> Result<i64, String> {
    let u = read_uint(b, at, width)?;
    Ok(match width {
        1 => u as u8 as i8 as i64,
        2 => u as u16 as i16 as i64,
        4 => u as u32 as i32 as i64,
        _ => u as i64,
    })
}

fn read_float(b: &[u8], at: usize, width: usize) -> Result<f64, String> {
    let u = read_uint(b, at, width)?;
    match width {
        4 => Ok(f32::from_bits(u as u32) as f64),
        8 => Ok(f64::from_bits(u)),
        w => Err(format!("float of byte width {w}")),
    }
}

/// `at - offset`, checked.
fn back(at: usize, offset: u64) -> Result<usize, String> {
    usize::try_from(offset).ok().and_then(|o| at.checked_sub(o)).ok_or_else(|| format!("offset {offset} from {at} points before the buffer"))
}

/// Reads the value of packed type `packed` stored at `at` in a slot of `parent_width` bytes.
fn read_value(b: &[u8], at: usize, parent_width: usize, packed: u8) -> Result<FlexValue, String> {
    let ty = packed >> 2;
    let own_width = 1usize << (packed & 3);
    Ok(match ty {
        FBT_NULL => FlexValue::Null,
        FBT_INT => FlexValue::Int(read_int(b, at, parent_width)?),
        FBT_UINT => FlexValue::UInt(read_uint(b, at, parent_width)?),
        FBT_FLOAT => FlexValue::Float(read_float(b, at, parent_width)?),
        FBT_BOOL => FlexValue::Bool(read_uint(b, at, parent_width)? != 0),
        FBT_INDIRECT_INT | FBT_INDIRECT_UINT | FBT_INDIRECT_FLOAT => {
            let target = back(at, read_uint(b, at, parent_width)?)?;
            match ty {
                FBT_INDIRECT_INT => FlexValue::Int(read_int(b, target, own_width)?),
                FBT_INDIRECT_UINT => FlexValue::UInt(read_uint(b, target, own_width)?),
                _ => FlexValue::Float(read_float(b, target, own_width)?),
            }
        }
        other => FlexValue::Other(other),
    })
}

/// The NUL-terminated key string at `at`.
fn read_key(b: &[u8], at: usize) -> Result<String, String> {
    let rest = b.get(at..).ok_or_else(|| format!("key at {at} is past the end"))?;
    let len = rest.iter().position(|&c| c == 0).ok_or_else(|| format!("key at {at} is not terminated"))?;
    String::from_utf8(rest[..len].to_vec()).map_err(|_| format!("key at {at} is not UTF-8"))
}

impl FlexMap {
    /// Parses a buffer whose root is a map of scalars.
    pub fn parse(b: &[u8]) -> Result<Self, String> {
        if b.len() < 3 {
            return Err(format!("{} bytes is too short for a FlexBuffer", b.len()));
        }
        let root_width = b[b.len() - 1] as usize;
        let root_packed = b[b.len() - 2];
        if !matches!(root_width, 1 | 2 | 4 | 8) {
            return Err(format!("root byte width {root_width}"));
        }
        if root_packed >> 2 != FBT_MAP {
            return Err(format!("the root is of FlexBuffer type {}, not a map", root_packed >> 2));
        }
        let root_at = back(b.len() - 2, root_width as u64)?;
        let values = back(root_at, read_uint(b, root_at, root_width)?)?;
        let width = 1usize << (root_packed & 3);
        let size_at = back(values, width as u64)?;
        let n = read_uint(b, size_at, width)?;
        let keys_width_at = back(size_at, width as u64)?;
        let keys_width = read_uint(b, keys_width_at, width)? as usize;
        let keys_off_at = back(keys_width_at, width as u64)?;
        let keys = back(keys_off_at, read_uint(b, keys_off_at, width)?)?;
        if !matches!(keys_width, 1 | 2 | 4 | 8) {
            return Err(format!("keys byte width {keys_width}"));
        }
        let n_keys = read_uint(b, back(keys, keys_width as u64)?, keys_width)?;
        if n_keys != n {
            return Err(format!("map has {n} values but {n_keys} keys"));
        }
        let n = usize::try_from(n).map_err(|_| "map size overflows")?;
        if n > b.len() {
            return Err(format!("map size {n} exceeds the buffer"));
        }
        let types_at = values.checked_add(n.checked_mul(width).ok_or("map size overflows")?).ok_or("map size overflows")?;
        let mut entries = Vec::with_capacity(n);
        for i in 0..n {
            let key_slot = keys + i * keys_width;
            let key = read_key(b, back(key_slot, read_uint(b, key_slot, keys_width)?)?)?;
            let packed = *b.get(types_at + i).ok_or_else(|| format!("type byte of entry {i} is past the end"))?;
            let value = read_value(b, values + i * width, width, packed)?;
            entries.push((key, value));
        }
        Ok(FlexMap { entries })
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<FlexValue> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }

    /// The value TFLite Micro's `ElementAs*(index)` reads for the option it names `key`:
    /// entry `index`, which must be `key` (a map with other keys would make TFLite Micro
    /// read another option's value in its place: refused).
    pub fn at(&self, index: usize, key: &str) -> Result<FlexValue, String> {
        match self.entries.get(index) {
            Some((k, v)) if k == key => Ok(*v),
            Some((k, _)) => Err(format!("custom option {index} is {k:?}, where TFLite Micro reads {key:?}")),
            None => Err(format!("custom option {key:?} (position {index}) is missing")),
        }
    }
}

/// Writes a map of scalars as `flexbuffers.Builder` would (keys sorted, every slot 8 bytes
/// wide), for test models: `(key, value)` with `Int`, `UInt` or `Bool` values.
pub fn write_map(entries: &[(&str, FlexValue)]) -> Vec<u8> {
    let mut e: Vec<(&str, FlexValue)> = entries.to_vec();
    e.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut b = Vec::new();
    let mut key_at = Vec::new();
    for (k, _) in &e {
        key_at.push(b.len());
        b.extend_from_slice(k.as_bytes());
        b.push(0);
    }
    while b.len() % 8 != 0 {
        b.push(0);
    }
    let w = |b: &mut Vec<u8>, v: u64| b.extend_from_slice(&v.to_le_bytes());
    w(&mut b, e.len() as u64);
    let keys = b.len();
    for &k in &key_at {
        let here = b.len();
        w(&mut b, (here - k) as u64);
    }
    let prefix = b.len();
    w(&mut b, (prefix - keys) as u64);
    w(&mut b, 8);
    w(&mut b, e.len() as u64);
    let values = b.len();
    let mut types = Vec::new();
    for (_, v) in &e {
        let (ty, bits) = match *v {
            FlexValue::Int(x) => (FBT_INT, x as u64),
            FlexValue::UInt(x) => (FBT_UINT, x),
            FlexValue::Bool(x) => (FBT_BOOL, u64::from(x)),
            FlexValue::Float(x) => (FBT_FLOAT, x.to_bits()),
            FlexValue::Null | FlexValue::Other(_) => (FBT_NULL, 0),
        };
        w(&mut b, bits);
        types.push(ty << 2 | 3);
    }
    b.extend_from_slice(&types);
    while b.len() % 8 != 0 {
        b.push(0);
    }
    let root = b.len();
    w(&mut b, (root - values) as u64);
    b.push(FBT_MAP << 2 | 3);
    b.push(8);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `{"a": 7, "b": -2, "c": true}` as `flexbuffers.Builder` writes it (byte width 1):
    /// keys "a\0b\0c\0", keys vector [3, off, off, off], then [keys off, keys width, 3],
    /// values [7, -2, 1], types [INT<<2, INT<<2, BOOL<<2], root offset, root type, width.
    fn small_map() -> Vec<u8> {
        let mut b = b"a\0b\0c\0".to_vec();
        // Keys vector at 7, length 3 before it.
        b.push(3);
        let keys_at = b.len();
        for (i, k) in [0usize, 2, 4].iter().enumerate() {
            b.push((keys_at + i - k) as u8);
        }
        // Map prefix: keys offset, keys width, size.
        let prefix = b.len();
        b.push((prefix - keys_at) as u8);
        b.push(1);
        b.push(3);
        let values = b.len();
        b.extend_from_slice(&[7, (-2i8) as u8, 1]);
        b.extend_from_slice(&[FBT_INT << 2, FBT_INT << 2, FBT_BOOL << 2]);
        let root = b.len();
        b.push((root - values) as u8);
        b.push(FBT_MAP << 2);
        b.push(1);
        b
    }

    #[test]
    fn reads_a_map_of_scalars_by_key_and_position() {
        let m = FlexMap::parse(&small_map()).unwrap();
        assert_eq!(m.get("a"), Some(FlexValue::Int(7)));
        assert_eq!(m.get("b").and_then(FlexValue::as_i32), Some(-2));
        assert_eq!(m.get("c").and_then(FlexValue::as_bool), Some(true));
        assert_eq!(m.at(1, "b"), Ok(FlexValue::Int(-2)));
        assert!(m.at(1, "a").unwrap_err().contains("TFLite Micro reads"));
        assert!(m.at(3, "d").unwrap_err().contains("missing"));
    }

    #[test]
    fn written_maps_read_back_sorted() {
        let b = write_map(&[("z", FlexValue::Int(-5)), ("T", FlexValue::Int(7)), ("m", FlexValue::Bool(true)), ("big", FlexValue::UInt(1 << 40))]);
        let m = FlexMap::parse(&b).unwrap();
        let keys: Vec<&str> = m.entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["T", "big", "m", "z"]);
        assert_eq!(m.at(3, "z"), Ok(FlexValue::Int(-5)));
        assert_eq!(m.get("big"), Some(FlexValue::UInt(1 << 40)));
        assert_eq!(m.get("m"), Some(FlexValue::Bool(true)));
    }

    #[test]
    fn every_truncation_and_corruption_is_an_error() {
        let good = small_map();
        for n in 0..good.len() {
            // Never panics; a cut buffer is an error or (if what remains happens to be
            // consistent) another map.
            let _ = FlexMap::parse(&good[..n]);
        }
        for i in 0..good.len() {
            for v in [0u8, 1, 2, 0x7f, 0xff] {
                let mut b = good.clone();
                b[i] = v;
                let _ = FlexMap::parse(&b);
            }
        }
        assert!(FlexMap::parse(&[1, 2]).is_err());
        let mut not_map = good.clone();
        let l = not_map.len();
        not_map[l - 2] = FBT_INT << 2;
        assert!(FlexMap::parse(&not_map).unwrap_err().contains("not a map"));
    }
}
