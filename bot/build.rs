//! Embeds every `locales/<language>/*.ftl` file in the binary, so that the bot needs no files
//! beside it and adding a language is adding a directory: no Rust changes, only a rebuild (this
//! script asks Cargo to rerun when anything under `locales/` changes, or under `migrations/`,
//! which `sqlx::migrate!` embeds).

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("Cargo sets CARGO_MANIFEST_DIR")).join("locales");
    println!("cargo:rerun-if-changed={}", root.display());
    // `sqlx::migrate!` reads `migrations/` when the crate compiles, but Cargo does not know it:
    // without this, a new migration alone (no Rust changed beside it) left a binary without it.
    println!("cargo:rerun-if-changed=../migrations");
    let mut languages: Vec<_> = fs::read_dir(&root)
        .expect("bot/locales exists")
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_dir())
        .collect();
    languages.sort_by_key(fs::DirEntry::file_name);
    let mut out = String::from("/// `(language, [(file name, text)])` for each directory under `bot/locales/`.\n");
    out.push_str("pub(crate) static EMBEDDED: &[(&str, &[(&str, &str)])] = &[\n");
    for language in languages {
        let mut files: Vec<_> = fs::read_dir(language.path())
            .expect("a locale directory can be read")
            .filter_map(Result::ok)
            .filter(|f| f.path().extension().is_some_and(|e| e == "ftl"))
            .collect();
        files.sort_by_key(fs::DirEntry::file_name);
        let _ = writeln!(out, "    ({:?}, &[", language.file_name().to_string_lossy());
        for file in files {
            let _ = writeln!(
                out,
                "        ({:?}, include_str!({:?})),",
                file.file_name().to_string_lossy(),
                file.path().display().to_string()
            );
        }
        out.push_str("    ]),\n");
    }
    out.push_str("];\n");
    let target = Path::new(&env::var("OUT_DIR").expect("Cargo sets OUT_DIR")).join("locales.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}
