//! The library's layers, lowest first, and the test that keeps them so: a module may use
//! the modules of lower layers only, so no dependency cycle can come back.

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
        let code: String = code
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
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
}
