//! Embeds every lesson file under lessons/<lang>/ into the binary, so `cudatutor` works from
//! any directory without shipping data files.

use std::{env, fs, path::Path};

fn main() {
    println!("cargo:rerun-if-changed=lessons");
    // Read at run time, not with env!(): a build script compiled in one checkout and reused
    // from a copied target folder must embed this checkout's lessons, not the other one's.
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest);
    let mut entries = Vec::new();
    for lang in ["en", "zh"] {
        let dir = root.join("lessons").join(lang);
        println!("cargo:rerun-if-changed={}", dir.display());
        let Ok(read) = fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = read
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        files.sort();
        for path in files {
            println!("cargo:rerun-if-changed={}", path.display());
            let name = format!(
                "lessons/{lang}/{}",
                path.file_name().unwrap().to_string_lossy()
            );
            entries.push(format!(
                "    ({lang:?}, {name:?}, include_str!({:?})),\n",
                path.display().to_string()
            ));
        }
    }
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("builtin_lessons.rs");
    let code = format!(
        "/// (lang, file name, contents) of every built-in lesson.\npub static BUILTIN_LESSONS: &[(&str, &str, &str)] = &[\n{}];\n",
        entries.concat()
    );
    fs::write(out, code).unwrap();
}
