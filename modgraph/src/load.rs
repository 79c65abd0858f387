//! Reading a crate: from its root file through every `mod` declaration to
//! the module tree (which module path lives in which file), then every
//! file's paths resolved into edges between files.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::graph::{cycles, Cycle, Edge, Site};
use crate::resolve::{paths_of, Written};

/// Why a crate could not be read.
#[derive(Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// One compilation target of a package: its name, kind and root file.
#[derive(Clone, Debug)]
pub struct Target {
    /// The package and the target, as `engine (lib)` or `engine (bench sharing)`.
    pub name: String,
    /// The target's root file.
    pub root: PathBuf,
}

/// Every target of the workspace at `manifest_dir`, as `cargo metadata` lists
/// them (`cargo` is the given program, `env!("CARGO")` in a test).
pub fn workspace_targets(cargo: &Path, manifest_dir: &Path) -> Result<Vec<Target>, Error> {
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(manifest_dir)
        .output()
        .map_err(|e| Error(format!("cannot run {}: {e}", cargo.display())))?;
    if !output.status.success() {
        return Err(Error(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| Error(format!("cargo metadata printed no JSON: {e}")))?;
    let mut targets = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        let package_name = package["name"].as_str().unwrap_or("?");
        for target in package["targets"].as_array().into_iter().flatten() {
            let kind = target["kind"][0].as_str().unwrap_or("?");
            let name = target["name"].as_str().unwrap_or("?");
            let label = if kind == "lib" {
                format!("{package_name} (lib)")
            } else {
                format!("{package_name} ({kind} {name})")
            };
            let root = target["src_path"].as_str().unwrap_or_default();
            targets.push(Target {
                name: label,
                root: PathBuf::from(root),
            });
        }
    }
    targets.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(targets)
}

/// A crate read from its root: its files, its module tree and its edges.
#[derive(Debug)]
pub struct Crate {
    /// Every file of the crate, the root first; a node is an index here.
    pub files: Vec<PathBuf>,
    /// The module path of each file's top (`[]` for the root).
    pub file_modules: Vec<Vec<String>>,
    /// Every module path (`[]` is the crate root) and the file it lives in.
    pub modules: BTreeMap<Vec<String>, usize>,
    /// Every edge between two distinct files, each with the first place that
    /// makes it (in file order, then line).
    pub edges: Vec<Edge>,
    /// Every path that names no module of this crate (another crate's, a
    /// local item's, a name brought in by a `use`), where it is written.
    pub outward: Vec<Site>,
}

impl Crate {
    /// Every place this crate names an item of the crate `name` (`name::...`,
    /// or `::name::...`), in file order: what it uses of that crate.
    pub fn uses_of(&self, name: &str) -> Vec<&Site> {
        let prefix = format!("{name}::");
        self.outward
            .iter()
            .filter(|site| site.path.starts_with(&prefix))
            .collect()
    }

    /// For each of the crate's top-level modules, the others it imports (by
    /// name; `lib`/`main` for the root file): the layers the first
    /// invariant keeps one way.
    pub fn layers(&self) -> BTreeMap<String, std::collections::BTreeSet<String>> {
        let top = |file: usize| {
            self.file_modules[file]
                .first()
                .cloned()
                .unwrap_or_else(|| "<root>".to_string())
        };
        let mut layers: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
        for file in 0..self.files.len() {
            layers.entry(top(file)).or_default();
        }
        for edge in &self.edges {
            let (from, to) = (top(edge.from), top(edge.to));
            if from != to {
                layers.entry(from).or_default().insert(to);
            }
        }
        layers
    }

    /// Every cycle among the crate's modules (see [`cycles`]).
    pub fn cycles(&self) -> Vec<Cycle> {
        cycles(&self.files, &self.file_modules, &self.edges)
    }

    /// Reads the crate whose root file is `root`.
    pub fn load(root: &Path) -> Result<Crate, Error> {
        let mut tree = Tree::default();
        tree.read_file(root, Vec::new(), true)?;
        let mut edges: BTreeMap<(usize, usize), Site> = BTreeMap::new();
        let mut outward = Vec::new();
        for (node, (ast, base)) in tree.asts.iter().enumerate() {
            for written in paths_of(ast, base) {
                let Some(target) = tree.resolve(&written) else {
                    outward.push(Site {
                        file: tree.files[node].clone(),
                        line: written.line,
                        path: written.segments.join("::"),
                    });
                    continue;
                };
                if target == node {
                    continue;
                }
                let site = Site {
                    file: tree.files[node].clone(),
                    line: written.line,
                    path: written.segments.join("::"),
                };
                edges
                    .entry((node, target))
                    .and_modify(|old| {
                        if site.line < old.line {
                            *old = site.clone();
                        }
                    })
                    .or_insert(site);
            }
        }
        let file_modules = tree.asts.iter().map(|(_, path)| path.clone()).collect();
        Ok(Crate {
            outward,
            file_modules,
            files: tree.files,
            modules: tree.modules,
            edges: edges
                .into_iter()
                .map(|((from, to), site)| Edge { from, to, site })
                .collect(),
        })
    }
}

/// The module tree while it is read.
#[derive(Default)]
struct Tree {
    files: Vec<PathBuf>,
    /// Each file's syntax and the module path of its top.
    asts: Vec<(syn::File, Vec<String>)>,
    modules: BTreeMap<Vec<String>, usize>,
}

impl Tree {
    /// Reads `file` as module `path`, and every module it declares.
    /// `owns_dir` is true for a root or a `mod.rs`: its children's files sit
    /// beside it, where a `name.rs`'s sit in `name/`.
    fn read_file(&mut self, file: &Path, path: Vec<String>, owns_dir: bool) -> Result<(), Error> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Error(format!("cannot read {}: {e}", file.display())))?;
        let ast = syn::parse_file(&text)
            .map_err(|e| Error(format!("cannot parse {}: {e}", file.display())))?;
        let node = self.files.len();
        self.files.push(file.to_path_buf());
        self.modules.insert(path.clone(), node);
        let here = file.parent().unwrap_or(Path::new("")).to_path_buf();
        let children_dir = if owns_dir {
            here.clone()
        } else {
            here.join(file.file_stem().unwrap_or_default())
        };
        let declared = declared_modules(&ast.items, &here, &children_dir, &path);
        self.asts.push((ast, path));
        for declared in declared {
            match declared {
                Declared::Inline(path) => {
                    self.modules.insert(path, node);
                }
                Declared::File(path, file, owns_dir) => self.read_file(&file, path, owns_dir)?,
                Declared::Missing(path, candidates) => {
                    return Err(Error(format!(
                        "module {} is declared in {} but none of {} exists",
                        path.join("::"),
                        self.files[node].display(),
                        candidates
                            .iter()
                            .map(|c| c.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )))
                }
            }
        }
        Ok(())
    }

    /// The file that a path written in a module names, if it names one of
    /// this crate's modules (or an item in one).
    fn resolve(&self, written: &Written) -> Option<usize> {
        let segments = &written.segments;
        let first = segments.first()?;
        let mut absolute: Vec<String> = match first.as_str() {
            "crate" => segments[1..].to_vec(),
            "self" => written
                .module
                .iter()
                .chain(&segments[1..])
                .cloned()
                .collect(),
            "super" => {
                let supers = segments.iter().take_while(|s| *s == "super").count();
                if supers > written.module.len() {
                    return None;
                }
                let parent = &written.module[..written.module.len() - supers];
                parent.iter().chain(&segments[supers..]).cloned().collect()
            }
            child => {
                let mut candidate = written.module.clone();
                candidate.push(child.to_string());
                if !self.modules.contains_key(&candidate) {
                    return None;
                }
                written.module.iter().chain(segments).cloned().collect()
            }
        };
        loop {
            if let Some(&node) = self.modules.get(&absolute) {
                return Some(node);
            }
            absolute.pop()?;
        }
    }
}

/// A module that a file declares.
enum Declared {
    /// Defined in the file itself (`mod name { ... }`).
    Inline(Vec<String>),
    /// In a file of its own, and whether that file owns its directory.
    File(Vec<String>, PathBuf, bool),
    /// Declared, with the files it could be in, none of which exists.
    Missing(Vec<String>, Vec<PathBuf>),
}

/// The modules declared among `items`, inline ones searched for declarations
/// of their own. `here` is the declaring file's directory (where a `#[path]`
/// is relative to), `children_dir` where its children's files are.
fn declared_modules(
    items: &[syn::Item],
    here: &Path,
    children_dir: &Path,
    path: &[String],
) -> Vec<Declared> {
    let mut declared = Vec::new();
    for item in items {
        let syn::Item::Mod(module) = item else {
            continue;
        };
        let name = module.ident.to_string();
        let mut child: Vec<String> = path.to_vec();
        child.push(name.clone());
        if let Some((_, items)) = &module.content {
            let inner = children_dir.join(&name);
            let base = path_attribute(module).map_or(inner.clone(), |p| here.join(p));
            declared.push(Declared::Inline(child.clone()));
            declared.extend(declared_modules(items, &base, &base, &child));
            continue;
        }
        if let Some(relative) = path_attribute(module) {
            let file = here.join(relative);
            if file.is_file() {
                declared.push(Declared::File(child, file, true));
            } else {
                declared.push(Declared::Missing(child, vec![file]));
            }
            continue;
        }
        let flat = children_dir.join(format!("{name}.rs"));
        let nested = children_dir.join(&name).join("mod.rs");
        if flat.is_file() {
            declared.push(Declared::File(child, flat, false));
        } else if nested.is_file() {
            declared.push(Declared::File(child, nested, true));
        } else {
            declared.push(Declared::Missing(child, vec![flat, nested]));
        }
    }
    declared
}

/// The value of a module's `#[path = "..."]`, if it has one.
fn path_attribute(module: &syn::ItemMod) -> Option<String> {
    module.attrs.iter().find_map(|attr| {
        let syn::Meta::NameValue(pair) = &attr.meta else {
            return None;
        };
        if !pair.path.is_ident("path") {
            return None;
        }
        match &pair.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        }
    })
}
