//! `np.load` of `.npy` and `.npz` files from a host folder the run may read
//! (`cudatutor run --allow-read DIR`): NumPy's format 1.0/2.0/3.0 header, little- and big-endian
//! bool, integer and float dtypes, C and Fortran order; `.npz` archives written by `np.savez`
//! (stored, uncompressed members). Pickled object arrays and `np.savez_compressed` archives are
//! refused with a message, never guessed at.

use super::array::{NdArray, err};
use crate::binding::row_major::step_index;
use crate::engine::dtype::DType;
use crate::script::ExcType;
use crate::script::{Interpreter, PyResult, Value};

/// One array read from a `.npy` stream.
pub(crate) struct Loaded {
    pub dtype: DType,
    pub shape: Vec<usize>,
    pub values: Vec<f64>,
}

fn bad(msg: impl Into<String>) -> crate::script::PyException {
    err(ExcType::ValueError, msg)
}

/// Parses a `.npy` file's bytes.
pub(crate) fn parse_npy(bytes: &[u8]) -> PyResult<Loaded> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("the file is not a .npy file (no \\x93NUMPY magic)"));
    }
    let major = bytes[6];
    let (len, start): (usize, usize) = match major {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        _ => return Err(bad(format!("unsupported .npy format version {major}"))),
    };
    let end = start
        .checked_add(len)
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| bad("the .npy header is cut short"))?;
    let header = String::from_utf8_lossy(&bytes[start..end]);
    let descr = dict_str(&header, "descr").ok_or_else(|| bad("the .npy header has no descr"))?;
    let fortran = header
        .split("'fortran_order':")
        .nth(1)
        .is_some_and(|r| r.trim_start().starts_with("True"));
    let shape = dict_shape(&header).ok_or_else(|| bad("the .npy header has no shape"))?;
    let (dtype, size, big, kind) = match descr_type(&descr) {
        Some(t) => t,
        None if descr.contains('O') => {
            return Err(bad(
                "Object arrays cannot be loaded when allow_pickle=False",
            ));
        }
        None => {
            return Err(err(
                ExcType::NotImplementedError,
                format!("cudatutor's numpy cannot read arrays of dtype '{descr}'"),
            ));
        }
    };
    let count = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| bad("the .npy shape is too large"))?;
    let data = &bytes[end..];
    let need = count
        .checked_mul(size)
        .ok_or_else(|| bad("the .npy shape is too large"))?;
    if data.len() < need {
        return Err(bad(format!(
            "cannot reshape array of size {} into shape {}",
            data.len() / size.max(1),
            super::array::shape_str(&shape)
        )));
    }
    let mut values = Vec::new();
    values
        .try_reserve_exact(count)
        .map_err(|_| err(ExcType::MemoryError, "the array does not fit in memory"))?;
    for i in 0..count {
        let b = &data[i * size..(i + 1) * size];
        values.push(decode(b, kind, size, big));
    }
    if fortran && shape.len() > 1 {
        values = fortran_to_c(&values, &shape);
    }
    Ok(Loaded {
        dtype,
        shape,
        values,
    })
}

#[derive(Clone, Copy)]
enum Kind {
    Bool,
    Int,
    UInt,
    Float,
}

fn descr_type(descr: &str) -> Option<(DType, usize, bool, Kind)> {
    let d = descr.trim();
    let (order, rest) = match d.chars().next()? {
        c @ ('<' | '>' | '|' | '=') => (c, &d[1..]),
        _ => ('=', d),
    };
    let big = order == '>';
    Some(match rest {
        "b1" => (DType::Bool, 1, big, Kind::Bool),
        "i1" => (DType::Int8, 1, big, Kind::Int),
        "u1" => (DType::UInt8, 1, big, Kind::UInt),
        "i2" => (DType::Int16, 2, big, Kind::Int),
        "i4" => (DType::Int32, 4, big, Kind::Int),
        "i8" => (DType::Int64, 8, big, Kind::Int),
        "f2" => (DType::Float16, 2, big, Kind::Float),
        "f4" => (DType::Float32, 4, big, Kind::Float),
        "f8" => (DType::Float64, 8, big, Kind::Float),
        _ => return None,
    })
}

fn decode(b: &[u8], kind: Kind, size: usize, big: bool) -> f64 {
    let mut buf = [0u8; 8];
    buf[..size].copy_from_slice(b);
    if big {
        buf[..size].reverse();
    }
    match (kind, size) {
        (Kind::Bool, _) => f64::from(u8::from(buf[0] != 0)),
        (Kind::UInt, _) => f64::from(buf[0]),
        (Kind::Int, 1) => f64::from(buf[0] as i8),
        (Kind::Int, 2) => f64::from(i16::from_le_bytes([buf[0], buf[1]])),
        (Kind::Int, 4) => f64::from(i32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]])),
        (Kind::Int, _) => i64::from_le_bytes(buf) as f64,
        (Kind::Float, 2) => half::f16::from_le_bytes([buf[0], buf[1]]).to_f64(),
        (Kind::Float, 4) => f64::from(f32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]])),
        (Kind::Float, _) => f64::from_le_bytes(buf),
    }
}

/// Values stored column-major, in row-major order.
fn fortran_to_c(values: &[f64], shape: &[usize]) -> Vec<f64> {
    let n = values.len();
    let mut out = vec![0.0; n];
    let mut idx = vec![0usize; shape.len()];
    for slot in out.iter_mut() {
        // column-major offset of idx
        let mut off = 0;
        let mut stride = 1;
        for (d, &i) in idx.iter().enumerate() {
            off += i * stride;
            stride *= shape[d];
        }
        *slot = values.get(off).copied().unwrap_or(0.0);
        step_index(&mut idx, shape);
    }
    out
}

fn dict_str(header: &str, key: &str) -> Option<String> {
    let rest = header.split(&format!("'{key}':")).nth(1)?.trim_start();
    let quote = rest.chars().next()?;
    let inner = &rest[1..];
    Some(inner[..inner.find(quote)?].to_string())
}

fn dict_shape(header: &str) -> Option<Vec<usize>> {
    let rest = header.split("'shape':").nth(1)?.trim_start();
    let inner = rest.strip_prefix('(')?;
    let inner = &inner[..inner.find(')')?];
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse().ok())
        .collect()
}

/// The members of a `.npz` (zip) archive: (name without `.npy`, bytes). Only stored members
/// (np.savez); compressed ones (np.savez_compressed) are refused.
pub(crate) fn parse_npz(bytes: &[u8]) -> PyResult<Vec<(String, Vec<u8>)>> {
    let members = zip_members(bytes)?;
    if members.is_empty() {
        return Err(bad("the file is not a .npy or .npz file"));
    }
    Ok(members
        .into_iter()
        .map(|(name, data)| (name.strip_suffix(".npy").unwrap_or(&name).to_string(), data))
        .collect())
}

/// The stored (uncompressed) members of a zip archive: what np.savez and torch.save write.
/// Sizes and offsets come from the central directory (torch.save writes its local headers
/// with the sizes after the data), zip64 included. A compressed member is refused.
pub(crate) fn zip_members(bytes: &[u8]) -> PyResult<Vec<(String, Vec<u8>)>> {
    let cut = || bad("the zip archive is damaged or cut short");
    let le = |i: usize, n: usize| -> Option<u64> {
        let s = bytes.get(i..i.checked_add(n)?)?;
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(s);
        Some(u64::from_le_bytes(b))
    };
    // the end-of-central-directory record: within the last 64 KiB + 22 bytes
    let lowest = bytes.len().saturating_sub(22 + 0xFFFF);
    let eocd = (lowest..bytes.len().saturating_sub(21))
        .rev()
        .find(|&i| bytes.get(i..i + 4) == Some(b"PK\x05\x06"))
        .ok_or_else(cut)?;
    let mut count = le(eocd + 10, 2).ok_or_else(cut)?;
    let mut cd = le(eocd + 16, 4).ok_or_else(cut)?;
    // zip64: the locator just before points at the zip64 end record
    if (count == 0xFFFF || cd == 0xFFFF_FFFF)
        && eocd >= 20
        && bytes.get(eocd - 20..eocd - 16) == Some(b"PK\x06\x07")
    {
        let rec = usize::try_from(le(eocd - 12, 8).ok_or_else(cut)?).map_err(|_| cut())?;
        if bytes.get(rec..rec + 4) != Some(b"PK\x06\x06") {
            return Err(cut());
        }
        count = le(rec + 32, 8).ok_or_else(cut)?;
        cd = le(rec + 48, 8).ok_or_else(cut)?;
    }
    let mut at = usize::try_from(cd).map_err(|_| cut())?;
    let mut out = Vec::new();
    for _ in 0..count.min(1 << 20) {
        if bytes.get(at..at + 4) != Some(b"PK\x01\x02") {
            return Err(cut());
        }
        let method = le(at + 10, 2).ok_or_else(cut)?;
        let mut csize = le(at + 20, 4).ok_or_else(cut)?;
        let mut usize_ = le(at + 24, 4).ok_or_else(cut)?;
        let name_len = le(at + 28, 2).ok_or_else(cut)? as usize;
        let extra_len = le(at + 30, 2).ok_or_else(cut)? as usize;
        let comment_len = le(at + 32, 2).ok_or_else(cut)? as usize;
        let mut local = le(at + 42, 4).ok_or_else(cut)?;
        let name = String::from_utf8_lossy(bytes.get(at + 46..at + 46 + name_len).ok_or_else(cut)?)
            .into_owned();
        let extra_at = at + 46 + name_len;
        let extra = bytes.get(extra_at..extra_at + extra_len).ok_or_else(cut)?;
        // zip64 extra field: the 0xFFFFFFFF values, in order
        let mut i = 0;
        while i + 4 <= extra.len() {
            let id = u16::from_le_bytes([extra[i], extra[i + 1]]);
            let len = usize::from(u16::from_le_bytes([extra[i + 2], extra[i + 3]]));
            if id == 1 {
                let mut f = i + 4;
                let mut next = || -> Option<u64> {
                    let s = extra.get(f..f + 8)?;
                    f += 8;
                    Some(u64::from_le_bytes(s.try_into().ok()?))
                };
                if usize_ == 0xFFFF_FFFF {
                    usize_ = next().ok_or_else(cut)?;
                }
                if csize == 0xFFFF_FFFF {
                    csize = next().ok_or_else(cut)?;
                }
                if local == 0xFFFF_FFFF {
                    local = next().ok_or_else(cut)?;
                }
            }
            i += 4 + len;
        }
        let _ = usize_;
        if method != 0 {
            return Err(err(
                ExcType::NotImplementedError,
                "cudatutor reads zip archives whose members are stored (np.savez, torch.save); this one is compressed (np.savez_compressed)",
            ));
        }
        let local = usize::try_from(local).map_err(|_| cut())?;
        if bytes.get(local..local + 4) != Some(b"PK\x03\x04") {
            return Err(cut());
        }
        let lname = le(local + 26, 2).ok_or_else(cut)? as usize;
        let lextra = le(local + 28, 2).ok_or_else(cut)? as usize;
        let start = local + 30 + lname + lextra;
        let end = start
            .checked_add(usize::try_from(csize).map_err(|_| cut())?)
            .ok_or_else(cut)?;
        let data = bytes.get(start..end).ok_or_else(cut)?;
        out.push((name, data.to_vec()));
        at = extra_at + extra_len + comment_len;
    }
    Ok(out)
}

/// `np.load(path)`: an array for a `.npy` file, a dict of arrays for a `.npz` archive (numpy.py
/// wraps it in an NpzFile).
pub(crate) fn load(it: &mut Interpreter, path: &str) -> PyResult<Value> {
    let bytes = crate::script::read_host_file(it, path)?;
    let rt = super::runtime();
    let array = |l: Loaded| -> PyResult<Value> {
        Ok(Value::native(NdArray::from_f64(
            &rt, &l.values, l.shape, l.dtype,
        )?))
    };
    if bytes.starts_with(b"\x93NUMPY") {
        return array(parse_npy(&bytes)?);
    }
    if bytes.starts_with(b"PK\x03\x04") {
        let members = parse_npz(&bytes)?;
        let d = crate::script::Dict::new();
        let v = Value::Dict(std::rc::Rc::new(std::cell::RefCell::new(d)));
        if let Value::Dict(d) = &v {
            for (name, data) in members {
                let a = array(parse_npy(&data)?)?;
                d.borrow_mut().set_str(&name, a);
            }
        }
        return Ok(v);
    }
    Err(err(
        ExcType::ValueError,
        format!(
            "Cannot load file containing pickled data when allow_pickle=False: '{path}' is neither a .npy nor a .npz file"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npy(descr: &str, shape: &str, fortran: bool, data: &[u8]) -> Vec<u8> {
        let mut header = format!(
            "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}",
            if fortran { "True" } else { "False" }
        );
        while (10 + header.len() + 1) % 64 != 0 {
            header.push(' ');
        }
        header.push('\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend((header.len() as u16).to_le_bytes());
        out.extend(header.as_bytes());
        out.extend(data);
        out
    }

    #[test]
    fn npy_files_read_as_numpy_wrote_them() {
        let data: Vec<u8> = [1.5f32, -2.0, 3.25, 4.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let l = parse_npy(&npy("<f4", "(2, 2)", false, &data)).unwrap();
        assert_eq!(l.dtype, DType::Float32);
        assert_eq!(l.shape, vec![2, 2]);
        assert_eq!(l.values, vec![1.5, -2.0, 3.25, 4.0]);
        // the same bytes in Fortran order are the transpose
        let f = parse_npy(&npy("<f4", "(2, 2)", true, &data)).unwrap();
        assert_eq!(f.values, vec![1.5, 3.25, -2.0, 4.0]);
        let ints: Vec<u8> = [7i64, -1].iter().flat_map(|v| v.to_le_bytes()).collect();
        let l = parse_npy(&npy("<i8", "(2,)", false, &ints)).unwrap();
        assert_eq!((l.dtype, l.values), (DType::Int64, vec![7.0, -1.0]));
        let big: Vec<u8> = 258i32.to_be_bytes().to_vec();
        assert_eq!(
            parse_npy(&npy(">i4", "()", false, &big)).unwrap().values,
            vec![258.0]
        );
    }

    #[test]
    fn damaged_files_are_errors_not_panics() {
        let data = 1.0f64.to_le_bytes();
        let whole = npy("<f8", "(3,)", false, &data);
        assert!(parse_npy(&whole).is_err());
        for n in 0..whole.len() {
            let _ = parse_npy(&whole[..n]);
            let _ = parse_npz(&whole[..n]);
        }
        assert!(parse_npy(&npy("|O", "(1,)", false, &[0; 8])).is_err());
        assert!(parse_npz(b"PK\x03\x04\xff").is_err());
    }
}
