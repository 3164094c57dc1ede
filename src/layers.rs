//! The library's layers, lowest first, and the tests that keep them so: a module may use
//! the modules of lower layers only, and within a folder the files may not use each other
//! in a circle, so no dependency cycle can come back at either scale.

/// Each top-level module and its layer. Lower layers never import higher ones, and
/// modules of one layer do not import each other.
pub const LAYERS: &[(&str, u8)] = &[
    ("util", 0),
    ("identity", 0),
    ("puzzle", 1),
    ("heuristics", 1),
    ("engine", 2),
    ("atlas", 3),
    ("analysis", 4),
    ("solve", 4),
    ("report", 5),
    ("job", 5),
    ("hosts", 5),
    ("registry", 6),
    ("cli", 7),
    ("layers", 8),
];

#[cfg(test)]
mod tests {
    use super::LAYERS;
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::{Path, PathBuf};

    fn layer(module: &str) -> u8 {
        LAYERS
            .iter()
            .find(|(name, _)| *name == module)
            .map(|&(_, layer)| layer)
            .unwrap_or_else(|| panic!("module `{module}` is not in LAYERS"))
    }

    /// Every `.rs` file of the library (the binary's `main.rs` and `app/` are its top).
    fn library_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() && !path.ends_with("app") {
                library_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("main.rs") {
                out.push(path);
            }
        }
    }

    /// The modules `code` names as `crate::NAME` or in `crate::{A, B::c}`, comments left out.
    fn imports(code: &str) -> Vec<String> {
        let name = |text: &str| -> String {
            text.trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        };
        let code = without_comments(code);
        let mut used = Vec::new();
        for (i, _) in code.match_indices("crate::") {
            let rest = &code[i + 7..];
            match rest.strip_prefix('{') {
                Some(group) => used.extend(group.split('}').next().unwrap_or("").split(',').map(name)),
                None => used.push(name(rest)),
            }
        }
        used.retain(|m| !m.is_empty());
        used
    }

    /// `code` without its comments (doc links name modules they do not import).
    fn without_comments(code: &str) -> String {
        code.lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn lower_layers_never_import_higher_ones() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        library_files(&src, &mut files);
        let mut wrong = Vec::new();
        for file in &files {
            let relative = file.strip_prefix(&src).expect("under src/");
            let module = relative
                .components()
                .next()
                .expect("a path")
                .as_os_str()
                .to_string_lossy();
            let module = module.trim_end_matches(".rs");
            // Tests may reach up (a puzzle's tests run the engine); the code they test may not.
            if module == "lib" || file.ends_with("tests.rs") {
                continue;
            }
            let code = std::fs::read_to_string(file).expect("a source file");
            let code = code.split("#[cfg(test)]").next().unwrap_or("");
            for used in imports(code) {
                if used != module && layer(&used) >= layer(module) {
                    wrong.push(format!(
                        "{}: {module} (layer {}) uses {used} (layer {})",
                        relative.display(),
                        layer(module),
                        layer(&used)
                    ));
                }
            }
        }
        assert!(wrong.is_empty(), "imports against the layers:\n{}", wrong.join("\n"));
    }

    #[test]
    fn the_check_sees_an_upward_import() {
        assert_eq!(imports("use crate::report::thousands; // crate::cli"), ["report"]);
        assert_eq!(imports("use crate::{job::Job, util};"), ["job", "util"]);
        assert!(layer("puzzle") < layer("report"));
    }

    /// A library file as the circle check reads it: its module's path (`["engine", "bfs"]`
    /// for `src/engine/bfs.rs`, `["engine"]` for `src/engine/mod.rs`) and its code, tests
    /// and comments left out.
    struct Source {
        module: Vec<String>,
        code: String,
    }

    /// Every library file but the tests (which may reach anywhere), as [`Source`]s.
    fn library_sources() -> Vec<Source> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        library_files(&src, &mut files);
        let mut sources = Vec::new();
        for file in files {
            let relative = file.strip_prefix(&src).expect("under src/");
            let mut module: Vec<String> = relative
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module.iter().any(|m| m == "tests") {
                continue;
            }
            if module.last().is_some_and(|m| m == "mod" || m == "lib") {
                module.pop();
            }
            let code = std::fs::read_to_string(&file).expect("a source file");
            let code = code.split("#[cfg(test)]").next().unwrap_or("");
            sources.push(Source {
                module,
                code: without_comments(code),
            });
        }
        sources
    }

    /// Every path `code` names from `crate::` or `super::`, with groups expanded:
    /// `use super::{a::B, c};` names `super::a::B` and `super::c`.
    fn paths(code: &str) -> Vec<Vec<String>> {
        let mut found = Vec::new();
        for start in ["crate::", "super::"] {
            for (i, _) in code.match_indices(start) {
                // Only where a path begins: not the `super` of `super::super::`, nor `$crate`.
                let before = code[..i].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || "_$:".contains(c)) {
                    continue;
                }
                expand(&code[i..], &[], &mut found);
            }
        }
        found
    }

    /// Adds to `found` the paths `text` begins with, each after `prefix`.
    fn expand(text: &str, prefix: &[String], found: &mut Vec<Vec<String>>) {
        let text = text.trim_start();
        if let Some(group) = text.strip_prefix('{') {
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => depth -= 1,
                    ',' | '}' if depth == 0 => {
                        expand(&group[start..i], prefix, found);
                        if c == '}' {
                            return;
                        }
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let word = |text: &str| -> String { text.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
        let name = word(text);
        let rest = text[name.len()..].trim_start();
        let mut path = prefix.to_vec();
        match rest.strip_prefix("as ") {
            // A renaming keeps both names, for the re-exports: `Config as Alias`.
            Some(alias) => path.push(format!("{name} as {}", word(alias.trim_start()))),
            None if !name.is_empty() => path.push(name.clone()),
            None => {}
        }
        match rest.strip_prefix("::") {
            Some(rest) if !name.is_empty() => expand(rest, &path, found),
            _ if !path.is_empty() => found.push(path),
            _ => {}
        }
    }

    /// `path` as named from `module`, made absolute: `crate::` and `super::` resolved.
    fn absolute(module: &[String], path: &[String]) -> Vec<String> {
        let mut base = module.to_vec();
        let mut rest = path;
        while let Some((first, tail)) = rest.split_first() {
            match first.as_str() {
                "crate" => base.clear(),
                "super" => {
                    base.pop();
                }
                _ => break,
            }
            rest = tail;
        }
        base.extend(rest.iter().cloned());
        base
    }

    /// What each file re-exports (`pub use`): the name it gives, and the path of what it
    /// names, absolute.
    fn reexports(sources: &[Source]) -> BTreeMap<Vec<String>, Vec<String>> {
        let mut names = BTreeMap::new();
        for source in sources {
            for line in source.code.lines() {
                let Some(rest) = line.trim_start().strip_prefix("pub use ") else {
                    continue;
                };
                let mut named = Vec::new();
                expand(rest, &[], &mut named);
                for mut path in named {
                    let Some(last) = path.pop() else { continue };
                    let (original, name) = last.split_once(" as ").unwrap_or((&last, &last));
                    let (original, name) = (original.to_string(), name.to_string());
                    path.push(original);
                    // `pub use child::X` in a folder's `mod.rs` names its own child.
                    let from = match path[0].as_str() {
                        "crate" | "super" => absolute(&source.module, &path),
                        _ => [source.module.clone(), path].concat(),
                    };
                    names.insert([source.module.clone(), vec![name]].concat(), from);
                }
            }
        }
        names
    }

    /// The file that defines what `path` (absolute) names: the file of its longest module
    /// prefix, followed through re-exports.
    fn defining<'a>(
        modules: &BTreeSet<&'a [String]>,
        reexported: &BTreeMap<Vec<String>, Vec<String>>,
        path: &[String],
    ) -> Option<&'a [String]> {
        let mut path = path.to_vec();
        // A few steps at most: a re-export of a re-export.
        for _ in 0..8 {
            let module = (0..=path.len()).rev().find_map(|n| modules.get(&path[..n]).copied())?;
            match path
                .get(module.len()..=module.len())
                .and_then(|item| reexported.get(&[module, item].concat()))
            {
                Some(from) => path = from.clone(),
                None => return Some(module),
            }
        }
        None
    }

    /// The uses between files: `(file, file it uses)`. Uses between a folder's `mod.rs` and
    /// the files under it are left out: the `mod.rs` is the folder's face, which calls its
    /// files and whose own names they share. A name re-exported counts as a use of the file
    /// that defines it.
    fn uses(sources: &[Source]) -> BTreeSet<(Vec<String>, Vec<String>)> {
        let modules: BTreeSet<&[String]> = sources.iter().map(|s| s.module.as_slice()).collect();
        let reexported = reexports(sources);
        let mut edges = BTreeSet::new();
        for source in sources {
            for path in paths(&source.code) {
                let target = absolute(&source.module, &path);
                let Some(to) = defining(&modules, &reexported, &target) else {
                    continue;
                };
                if !to.starts_with(&source.module) && !source.module.starts_with(to) {
                    edges.insert((source.module.clone(), to.to_vec()));
                }
            }
        }
        edges
    }

    /// The circles among the files, each as the files that reach each other.
    fn circles(sources: &[Source]) -> Vec<String> {
        let mut reach: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for (from, to) in uses(sources) {
            reach.entry(from).or_default().insert(to);
        }
        // The transitive closure: a few hundred files.
        loop {
            let mut grown = false;
            let keys: Vec<_> = reach.keys().cloned().collect();
            for key in keys {
                let next: BTreeSet<Vec<String>> = reach[&key]
                    .iter()
                    .filter_map(|to| reach.get(to))
                    .flatten()
                    .cloned()
                    .collect();
                let set = reach.get_mut(&key).expect("a key of the map");
                let before = set.len();
                set.extend(next);
                grown |= set.len() > before;
            }
            if !grown {
                break;
            }
        }
        let mut found = BTreeSet::new();
        for (file, reached) in &reach {
            if reached.contains(file) {
                let circle: Vec<String> = reached
                    .iter()
                    .filter(|other| reach.get(*other).is_some_and(|r| r.contains(file)))
                    .map(|m| m.join("/"))
                    .collect();
                found.insert(circle.join(", "));
            }
        }
        found.into_iter().collect()
    }

    #[test]
    fn files_never_use_each_other_in_a_circle() {
        let found = circles(&library_sources());
        assert!(
            found.is_empty(),
            "files that use each other in a circle:\n{}",
            found.join("\n")
        );
    }

    #[test]
    fn the_check_sees_a_circle() {
        let source = |module: &str, code: &str| Source {
            module: module.split('/').map(String::from).collect(),
            code: code.into(),
        };
        let engine = [
            source("engine", "pub use api::Options;\npub fn run() {}"),
            source("engine/api", "pub struct Options(super::disk::Config);"),
            source(
                "engine/disk",
                "use super::{bitset::WORD_BITS, Options};\npub struct Config;\npub use super::bitset::WORD_BITS as BITS;",
            ),
            source(
                "engine/bitset",
                "pub const WORD_BITS: u64 = 64; fn f() { super::run() }",
            ),
        ];
        assert_eq!(circles(&engine), ["engine/api, engine/disk"]);
        // A name re-exported is its defining file's: `disk::BITS` is bitset's. And `run` is
        // the folder's own.
        let mut apart = engine;
        apart[1] = source("engine/api", "pub struct Options([u8; super::disk::BITS]);");
        assert!(circles(&apart).is_empty());
        let across = [
            source("puzzle/perm/group", "use crate::puzzle::perm::structure::Layout;"),
            source("puzzle/perm/structure", "use super::{group::{Chain, Perm}};"),
        ];
        assert_eq!(circles(&across), ["puzzle/perm/group, puzzle/perm/structure"]);
    }
}
