//! Sizes on the command line: `80GiB`, `16G`, `512MiB`, `1.5GB`, or a plain byte count.

// The runner owns its limits; the command line checks against the same one.
use crate::run::MAX_GPU_MEMORY;

/// Parses a size; binary (`KiB`/`K`) and decimal (`KB`) suffixes, case-insensitive.
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size (examples: 80GiB, 512MiB, 1000000)"))?;
    let factor: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kib" => 1024.0,
        "m" | "mib" => 1024.0 * 1024.0,
        "g" | "gib" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tib" => 1024.0f64.powi(4),
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        other => {
            return Err(format!(
                "unknown size unit `{other}` in `{text}` (use B, KiB, MiB, GiB, TiB)"
            ));
        }
    };
    let bytes = value * factor;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
        return Err(format!("`{text}` is not a usable size"));
    }
    Ok(bytes as u64)
}

/// A size for `--gpu-memory` / `--gpu-mem-limit`: [`parse_size`], at most [`MAX_GPU_MEMORY`].
pub(crate) fn parse_gpu_size(text: &str) -> Result<u64, String> {
    let bytes = parse_size(text)?;
    if bytes > MAX_GPU_MEMORY {
        return Err(format!(
            "`{text}` is more GPU memory than cudatutor simulates (at most 1PiB)"
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::{parse_gpu_size, parse_size};

    #[test]
    fn gpu_sizes_are_bounded() {
        assert_eq!(parse_gpu_size("80GiB"), Ok(80 << 30));
        assert_eq!(parse_gpu_size("1TiB"), Ok(1 << 40));
        assert_eq!(parse_gpu_size("1125899906842624"), Ok(1 << 50));
        for big in [
            "18446744073709551615",
            "1125899906842625",
            "9223372036854775808",
            "2000TiB",
        ] {
            let e = parse_gpu_size(big).unwrap_err();
            assert!(e.contains("at most 1PiB"), "{big}: {e}");
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("80GiB"), Ok(80 << 30));
        assert_eq!(parse_size("16g"), Ok(16 << 30));
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GB"), Ok(1_500_000_000));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("12 parsecs").is_err());
    }
}
