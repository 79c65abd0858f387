//! The checker on small crates written to a scratch directory: each way of
//! naming another file makes an edge (and a cycle when it closes one), and
//! what is not an import makes none.

use std::path::Path;

use modgraph::Crate;

/// Writes `files` (path, text) under a fresh directory and loads the crate
/// rooted at its `src/lib.rs`; returns each cycle's files, relative.
fn cycles_of(files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let dir = tempfile::tempdir().expect("a scratch directory");
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let krate = Crate::load(&dir.path().join("src/lib.rs")).expect("the crate loads");
    krate
        .cycles()
        .iter()
        .map(|cycle| {
            cycle
                .files
                .iter()
                .map(|f| f.strip_prefix(dir.path()).unwrap().display().to_string())
                .collect()
        })
        .collect()
}

fn two(a: &str, b: &str) -> Vec<Vec<String>> {
    vec![vec![a.to_string(), b.to_string()]]
}

#[test]
fn crate_paths_close_a_cycle() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        ("src/a.rs", "use crate::b::B;\npub struct A;\n"),
        ("src/b.rs", "pub struct B;\nfn f(_: crate::a::A) {}\n"),
    ]);
    assert_eq!(found, two("src/a.rs", "src/b.rs"));
}

#[test]
fn use_groups_globs_and_renames_are_edges() {
    for user in [
        "use crate::{x::{self}, b::{B as C}};\n",
        "use crate::b::*;\n",
        "use crate::b;\n",
        "use crate::{b::{self}};\n",
    ] {
        let found = cycles_of(&[
            ("src/lib.rs", "mod a;\nmod b;\nmod x;\n"),
            ("src/x.rs", ""),
            ("src/a.rs", user),
            ("src/b.rs", "pub struct B;\nuse super::a;\n"),
        ]);
        assert_eq!(found, two("src/a.rs", "src/b.rs"), "{user}");
    }
}

#[test]
fn a_parent_and_what_is_under_it_may_use_each_other() {
    // The parent uses its child by a relative path, the child the parent's
    // item through `super`; the root's item is used from below.
    let found = cycles_of(&[
        ("src/lib.rs", "mod p;\npub struct Config;\npub use p::C;\n"),
        (
            "src/p/mod.rs",
            "mod c;\npub struct Shared;\npub use c::C;\n",
        ),
        (
            "src/p/c.rs",
            "pub struct C(super::Shared, crate::Config);\n",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn siblings_in_a_folder_must_import_one_way() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod p;\n"),
        ("src/p/mod.rs", "mod a;\nmod b;\n"),
        ("src/p/a.rs", "pub struct A(super::b::B);\n"),
        ("src/p/b.rs", "pub struct B;\nfn f(_: crate::p::a::A) {}\n"),
    ]);
    assert_eq!(found, two("src/p/a.rs", "src/p/b.rs"));
}

#[test]
fn folders_must_import_one_way_whichever_files_do_it() {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in [
        ("src/lib.rs", "mod x;\nmod y;\n"),
        ("src/x/mod.rs", "mod i;\n"),
        ("src/x/i.rs", "pub struct I;\nuse crate::y::j::J;\n"),
        ("src/y/mod.rs", "pub mod j;\n"),
        ("src/y/j.rs", "pub struct J;\nfn f(_: crate::x::i::I) {}\n"),
    ] {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let krate = Crate::load(&dir.path().join("src/lib.rs")).unwrap();
    let cycles = krate.cycles();
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert_eq!(
        cycles[0].describe(dir.path()),
        "a cycle of 2 modules under src/lib.rs:\n    src/x/mod.rs\n    src/y/mod.rs\n  for example:\n    \
         src/x/i.rs:2 `crate::y::j::J` -> src/y/mod.rs\n    \
         src/y/j.rs:2 `crate::x::i::I` -> src/x/mod.rs"
    );
}

#[test]
fn paths_in_expressions_types_and_macros_are_edges() {
    for user in [
        "fn f() { let _ = crate::b::make(); }\n",
        "fn f() -> Option<crate::b::B> { None }\n",
        "fn f() { println!(\"{:?}\", crate::b::make()); }\n",
        "fn f() { assert!(matches!(crate::b::make(), crate::b::B)); }\n",
    ] {
        let found = cycles_of(&[
            ("src/lib.rs", "mod a;\nmod b;\n"),
            ("src/a.rs", user),
            (
                "src/b.rs",
                "#[derive(Debug)] pub struct B;\npub fn make() -> B { B }\nuse crate::a as _;\n",
            ),
        ]);
        assert_eq!(found, two("src/a.rs", "src/b.rs"), "{user}");
    }
}

#[test]
fn inline_modules_belong_to_their_file() {
    // `super` in an inline test module names its own file: no edge.
    let found = cycles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        (
            "src/a.rs",
            "pub struct A;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::b::B;\n}\n",
        ),
        ("src/b.rs", "pub struct B;\nuse crate::a::tests as _;\n"),
    ]);
    // ... but a path into the inline module is an edge to its file.
    assert_eq!(found, two("src/a.rs", "src/b.rs"));
}

#[test]
fn path_attributes_and_nested_files_are_followed() {
    let found = cycles_of(&[
        (
            "src/lib.rs",
            "mod a;\n#[path = \"other/place.rs\"]\nmod b;\n",
        ),
        ("src/a.rs", "mod inner;\n"),
        ("src/a/inner.rs", "use crate::b::B;\n"),
        (
            "src/other/place.rs",
            "pub struct B;\nuse crate::a::inner as _;\n",
        ),
    ]);
    assert_eq!(found, two("src/a.rs", "src/other/place.rs"));
}

#[test]
fn visibility_is_not_an_import() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod a;\npub struct Root;\npub use a::A;\n"),
        (
            "src/a.rs",
            "pub(crate) struct A;\npub(super) fn f() {}\npub(in crate::a) fn g() {}\n",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn other_crates_and_one_way_imports_make_no_cycle() {
    let found = cycles_of(&[
        ("src/lib.rs", "mod a;\nmod b;\nmod c;\n"),
        (
            "src/a.rs",
            "use std::collections::BTreeMap;\nuse crate::b::B;\n",
        ),
        ("src/b.rs", "pub struct B;\nuse crate::c::C;\n"),
        ("src/c.rs", "pub struct C;\nuse serde::Serialize;\n"),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_cycle_is_named_with_the_lines_that_make_it() {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("src/lib.rs", "mod a;\nmod b;\nmod c;\n");
    write("src/a.rs", "\nuse crate::b::B;\n");
    write("src/b.rs", "pub struct B;\n\n\nuse crate::c::C;\n");
    write("src/c.rs", "pub struct C;\nfn f(_: crate::a::A) {}\n");
    let krate = Crate::load(&dir.path().join("src/lib.rs")).unwrap();
    let cycles = krate.cycles();
    assert_eq!(cycles.len(), 1);
    let text = cycles[0].describe(dir.path());
    assert_eq!(
        text,
        "a cycle of 3 modules under src/lib.rs:\n    src/a.rs\n    src/b.rs\n    src/c.rs\n  for example:\n    \
         src/a.rs:2 `crate::b::B` -> src/b.rs\n    \
         src/b.rs:4 `crate::c::C` -> src/c.rs\n    \
         src/c.rs:2 `crate::a::A` -> src/a.rs"
    );
}

#[test]
fn a_missing_module_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "mod gone;\n").unwrap();
    let error = Crate::load(&dir.path().join("src/lib.rs")).unwrap_err();
    assert!(
        error.to_string().contains("module gone is declared in"),
        "{error}"
    );
    assert!(error
        .to_string()
        .contains(&Path::new("src").join("gone.rs").display().to_string()));
}
