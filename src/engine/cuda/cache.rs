//! On-disk kernel cache (PTX and CUBIN): a warm run compiles nothing.
//!
//! Key = 128-bit FNV-1a hash of (full source text, arch, NVRTC version). The file
//! `<dir>/<stem>-<arch>-nvrtc<maj>.<min>-<hash>.ptx` holds one header line with the full key
//! and then the PTX; a file whose header does not match (hash collision, truncated or foreign
//! file) is ignored and rewritten. Writes are atomic: a temporary file in the same directory,
//! then `rename`. A cache directory that cannot be read or written never fails a compile: the
//! PTX is returned anyway (and [`PtxCache::write_errors`] counts the failures).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::nvrtc::{Nvrtc, NvrtcError};

const HEADER_PREFIX: &str = "// cudatutor ptx cache v1 key=";

/// 128-bit FNV-1a (stable across Rust versions and platforms, unlike `DefaultHasher`).
pub(crate) fn fnv1a_128(parts: &[&[u8]]) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    let mut h = OFFSET;
    for part in parts {
        // Length-prefix each part so ("ab","c") and ("a","bc") differ.
        for b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
            h ^= *b as u128;
            h = h.wrapping_mul(PRIME);
        }
    }
    h
}

/// The cache key of one (source, arch, NVRTC version).
pub fn cache_key(source: &str, arch: &str, nvrtc_version: (i32, i32)) -> String {
    let v = format!("{}.{}", nvrtc_version.0, nvrtc_version.1);
    format!(
        "{:032x}",
        fnv1a_128(&[
            source.as_bytes(),
            arch.as_bytes(),
            v.as_bytes(),
            super::nvrtc::COMPILE_OPTIONS.join(" ").as_bytes(),
        ])
    )
}

/// PTX from [`PtxCache::get_or_compile`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedPtx {
    pub ptx: String,
    /// True when read from disk (NVRTC was not called).
    pub from_cache: bool,
    pub path: PathBuf,
}

/// CUBIN from [`PtxCache::get_or_compile_cubin`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedCubin {
    pub cubin: Vec<u8>,
    /// True when read from disk (NVRTC was not called).
    pub from_cache: bool,
    pub path: PathBuf,
}

/// A PTX and CUBIN cache in one directory (the caller picks it, e.g. the XDG cache dir).
#[derive(Debug)]
pub struct PtxCache {
    dir: PathBuf,
    compiles: AtomicUsize,
    hits: AtomicUsize,
    write_errors: AtomicUsize,
}

static TMP_COUNTER: AtomicUsize = AtomicUsize::new(0);

impl PtxCache {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        PtxCache {
            dir: dir.into(),
            compiles: AtomicUsize::new(0),
            hits: AtomicUsize::new(0),
            write_errors: AtomicUsize::new(0),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many times this cache called NVRTC.
    pub fn compiles(&self) -> usize {
        self.compiles.load(Ordering::Relaxed)
    }

    /// How many lookups were served from disk.
    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::Relaxed)
    }

    /// How many cache writes failed (the PTX was still returned).
    pub fn write_errors(&self) -> usize {
        self.write_errors.load(Ordering::Relaxed)
    }

    /// The file that holds (or would hold) this entry.
    pub(crate) fn path_for(
        &self,
        file: &str,
        source: &str,
        arch: &str,
        version: (i32, i32),
    ) -> PathBuf {
        self.path_with_ext(file, source, arch, version, "ptx")
    }

    /// The file of the CUBIN entry (same key, `.cubin`).
    pub(crate) fn cubin_path_for(
        &self,
        file: &str,
        source: &str,
        arch: &str,
        version: (i32, i32),
    ) -> PathBuf {
        self.path_with_ext(file, source, arch, version, "cubin")
    }

    fn path_with_ext(
        &self,
        file: &str,
        source: &str,
        arch: &str,
        version: (i32, i32),
        ext: &str,
    ) -> PathBuf {
        let stem = file.strip_suffix(".cu").unwrap_or(file);
        let stem: String = stem
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let key = cache_key(source, arch, version);
        self.dir.join(format!(
            "{stem}-{arch}-nvrtc{}.{}-{}.{ext}",
            version.0,
            version.1,
            &key[..16]
        ))
    }

    /// Cached CUBIN if present and whole (the header names the key and the length), without
    /// compiling.
    pub(crate) fn lookup_cubin(
        &self,
        file: &str,
        source: &str,
        arch: &str,
        version: (i32, i32),
    ) -> Option<Vec<u8>> {
        let path = self.cubin_path_for(file, source, arch, version);
        let bytes = fs::read(&path).ok()?;
        let nl = bytes.iter().position(|&b| b == b'\n')?;
        let header = std::str::from_utf8(&bytes[..nl]).ok()?;
        let body = &bytes[nl + 1..];
        let want = format!(
            "{HEADER_PREFIX}{} cubin len={}",
            cache_key(source, arch, version),
            body.len()
        );
        (header == want && super::nvrtc::is_elf(body)).then(|| body.to_vec())
    }

    /// The CUBIN of `source` for `arch` (e.g. `sm_90`): from disk when cached, else compiled
    /// with `nvrtc` and stored. Keyed by source text, arch and NVRTC version, like the PTX.
    pub fn get_or_compile_cubin(
        &self,
        nvrtc: &Nvrtc,
        file: &str,
        source: &str,
        arch: &str,
    ) -> Result<CachedCubin, NvrtcError> {
        let path = self.cubin_path_for(file, source, arch, nvrtc.version);
        let cached = self.lookup_cubin(file, source, arch, nvrtc.version);
        let (cubin, from_cache) = self.cached_or_compiled(
            &path,
            cached,
            || Ok(nvrtc.compile_cubin(file, source, arch)?.cubin),
            |cubin: &Vec<u8>| {
                let key = cache_key(source, arch, nvrtc.version);
                (
                    format!("{HEADER_PREFIX}{key} cubin len={}", cubin.len()),
                    cubin.as_slice(),
                )
            },
        )?;
        Ok(CachedCubin {
            cubin,
            from_cache,
            path,
        })
    }

    /// Cached PTX if present and valid, without compiling.
    pub fn lookup(
        &self,
        file: &str,
        source: &str,
        arch: &str,
        version: (i32, i32),
    ) -> Option<String> {
        let path = self.path_for(file, source, arch, version);
        let text = fs::read_to_string(&path).ok()?;
        let (header, ptx) = text.split_once('\n')?;
        let want = format!("{HEADER_PREFIX}{}", cache_key(source, arch, version));
        (header == want && !ptx.is_empty()).then(|| ptx.to_string())
    }

    /// The PTX of `source` for `arch`: from disk when cached, else compiled with `nvrtc` and
    /// stored. Compile errors are returned (and not cached).
    pub fn get_or_compile(
        &self,
        nvrtc: &Nvrtc,
        file: &str,
        source: &str,
        arch: &str,
    ) -> Result<CachedPtx, NvrtcError> {
        let path = self.path_for(file, source, arch, nvrtc.version);
        let cached = self.lookup(file, source, arch, nvrtc.version);
        let (ptx, from_cache) = self.cached_or_compiled(
            &path,
            cached,
            || Ok(nvrtc.compile(file, source, arch)?.ptx),
            |ptx: &String| {
                let key = cache_key(source, arch, nvrtc.version);
                (format!("{HEADER_PREFIX}{key}"), ptx.as_bytes())
            },
        )?;
        Ok(CachedPtx {
            ptx,
            from_cache,
            path,
        })
    }

    /// `cached` (counted as a hit, true: from the cache) when the lookup found it; else
    /// `compile`'s artifact, counted as a compile and stored at `path` as `header_and_body`
    /// gives it (a failed write is counted in `write_errors`, never raised).
    fn cached_or_compiled<T>(
        &self,
        path: &Path,
        cached: Option<T>,
        compile: impl FnOnce() -> Result<T, NvrtcError>,
        header_and_body: impl for<'a> FnOnce(&'a T) -> (String, &'a [u8]),
    ) -> Result<(T, bool), NvrtcError> {
        if let Some(artifact) = cached {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok((artifact, true));
        }
        self.compiles.fetch_add(1, Ordering::Relaxed);
        let compiled = compile()?;
        let (header, body) = header_and_body(&compiled);
        if self.store(path, &header, body).is_err() {
            self.write_errors.fetch_add(1, Ordering::Relaxed);
        }
        Ok((compiled, false))
    }

    fn store(&self, path: &Path, header: &str, body: &[u8]) -> std::io::Result<()> {
        fs::create_dir_all(&self.dir)?;
        let tmp = self.dir.join(format!(
            ".{}.tmp.{}.{}",
            path.file_name().and_then(|n| n.to_str()).unwrap_or("ptx"),
            std::process::id(),
            TMP_COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let result = (|| {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(header.as_bytes())?;
            f.write_all(b"\n")?;
            f.write_all(body)?;
            f.sync_all()?;
            fs::rename(&tmp, path)
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_depends_on_every_part() {
        let k = cache_key("src", "sm_80", (13, 0));
        assert_eq!(k, cache_key("src", "sm_80", (13, 0)));
        assert_ne!(k, cache_key("src ", "sm_80", (13, 0)));
        assert_ne!(k, cache_key("src", "sm_90", (13, 0)));
        assert_ne!(k, cache_key("src", "sm_80", (13, 1)));
        assert_eq!(k.len(), 32);
        assert_ne!(fnv1a_128(&[b"ab", b"c"]), fnv1a_128(&[b"a", b"bc"]));
    }

    #[test]
    fn a_foreign_or_truncated_file_is_not_a_hit() {
        let dir = std::env::temp_dir().join(format!("cudatutor-cache-unit-{}", std::process::id()));
        let cache = PtxCache::new(&dir);
        let path = cache.path_for("x.cu", "src", "sm_80", (13, 0));
        fs::create_dir_all(&dir).unwrap();
        fs::write(&path, "not a cache file\n.entry x").unwrap();
        assert!(cache.lookup("x.cu", "src", "sm_80", (13, 0)).is_none());
        let header = format!("{HEADER_PREFIX}{}", cache_key("src", "sm_80", (13, 0)));
        cache
            .store(&path, &header, b".visible .entry x(\n)")
            .unwrap();
        assert_eq!(
            cache.lookup("x.cu", "src", "sm_80", (13, 0)).as_deref(),
            Some(".visible .entry x(\n)")
        );
        let _ = fs::remove_dir_all(&dir);
    }
}
