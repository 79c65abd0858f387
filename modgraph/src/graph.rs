//! Edges between a crate's files, and its cycles: at each module of the
//! tree, Tarjan's strongly connected components of its children, each of
//! two or more named by a shortest circle through it.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::path::{Path, PathBuf};

/// Where an edge is made: the first path in the file that makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub file: PathBuf,
    pub line: usize,
    /// The path as written, `::`-joined.
    pub path: String,
}

/// File `from` names an item of file `to` (indexes into [`Crate::files`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub site: Site,
}

/// Modules side by side under one parent that import each other in a
/// circle, and one shortest circle through them, each step with the place
/// that makes it.
#[derive(Clone, Debug)]
pub struct Cycle {
    /// The file of the parent module the circle lies under.
    pub within: PathBuf,
    /// Each module of the strongly connected component, by its file (a
    /// folder by its `mod.rs`), sorted.
    pub files: Vec<PathBuf>,
    /// A circle through the component's first module: each step names the
    /// module it reaches and the site, in the module before, that makes it.
    pub circle: Vec<(PathBuf, Site)>,
}

impl Cycle {
    /// The cycle in words, its paths shown relative to `base` where they are
    /// under it.
    pub fn describe(&self, base: &Path) -> String {
        let shown = |path: &Path| {
            path.strip_prefix(base)
                .unwrap_or(path)
                .display()
                .to_string()
        };
        let mut text = format!(
            "a cycle of {} modules under {}:",
            self.files.len(),
            shown(&self.within)
        );
        for file in &self.files {
            text.push_str(&format!("\n    {}", shown(file)));
        }
        text.push_str("\n  for example:");
        for (to, site) in &self.circle {
            text.push_str(&format!(
                "\n    {}:{} `{}` -> {}",
                shown(&site.file),
                site.line,
                site.path,
                shown(to)
            ));
        }
        text
    }
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(Path::new("")))
    }
}

/// Every cycle of a crate whose files are `files`, file `i` being module
/// `file_modules[i]`, joined by `edges`. At each module of the tree, its
/// children (each taken with everything under it) must import each other
/// one way: an edge between two files counts at the module under which
/// their subtrees part. A parent and what is under it may use each other:
/// a folder is one concept, its `mod.rs` the face the rest of the crate
/// sees.
pub fn cycles(files: &[PathBuf], file_modules: &[Vec<String>], edges: &[Edge]) -> Vec<Cycle> {
    let mut parents: BTreeSet<&[String]> = BTreeSet::new();
    for module in file_modules {
        for len in 0..module.len() {
            parents.insert(&module[..len]);
        }
    }
    let mut found = Vec::new();
    for parent in parents {
        // The child of `parent` a file lies under, if it lies under one.
        let child_of = |file: usize| -> Option<&String> {
            let module = &file_modules[file];
            (module.len() > parent.len() && module.starts_with(parent))
                .then(|| &module[parent.len()])
        };
        let mut children: BTreeMap<&String, usize> = BTreeMap::new();
        for (file, module) in file_modules.iter().enumerate() {
            if let Some(child) = child_of(file) {
                // A child is shown by its own file, or its first file.
                let own = module.len() == parent.len() + 1;
                let entry = children.entry(child).or_insert(file);
                if own {
                    *entry = file;
                }
            }
        }
        if children.len() < 2 {
            continue;
        }
        let index: BTreeMap<&String, usize> =
            children.keys().enumerate().map(|(i, c)| (*c, i)).collect();
        let shown: Vec<usize> = children.values().copied().collect();
        let mut out: Vec<Vec<(usize, &Site)>> = vec![Vec::new(); shown.len()];
        for edge in edges {
            let (Some(from), Some(to)) = (child_of(edge.from), child_of(edge.to)) else {
                continue;
            };
            let (from, to) = (index[from], index[to]);
            if from != to && !out[from].iter().any(|(t, _)| *t == to) {
                out[from].push((to, &edge.site));
            }
        }
        let within = file_modules
            .iter()
            .position(|m| m.as_slice() == parent)
            .map_or_else(|| files[0].clone(), |f| files[f].clone());
        for component in components(&out) {
            if component.len() < 2 {
                continue;
            }
            let members: BTreeSet<usize> = component.iter().copied().collect();
            let start = *members.iter().next().expect("a component has a member");
            let circle = shortest_circle(&out, &members, start)
                .into_iter()
                .map(|(to, site)| (files[shown[to]].clone(), site.clone()))
                .collect();
            let mut member_files: Vec<PathBuf> =
                members.iter().map(|&m| files[shown[m]].clone()).collect();
            member_files.sort();
            found.push(Cycle {
                within: within.clone(),
                files: member_files,
                circle,
            });
        }
    }
    found.sort_by(|a, b| (&a.within, &a.files).cmp(&(&b.within, &b.files)));
    found
}

/// Tarjan's strongly connected components, iteratively (no recursion on
/// the graph's depth).
fn components(out: &[Vec<(usize, &Site)>]) -> Vec<Vec<usize>> {
    let n = out.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut found = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, the next of its out-edges to look at)
        let mut work = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (node, ref mut edge)) = work.last_mut() {
            if let Some(&(to, _)) = out[node].get(*edge) {
                *edge += 1;
                if index[to] == usize::MAX {
                    index[to] = next;
                    low[to] = next;
                    next += 1;
                    stack.push(to);
                    on_stack[to] = true;
                    work.push((to, 0));
                } else if on_stack[to] {
                    low[node] = low[node].min(index[to]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut component = Vec::new();
                loop {
                    let member = stack.pop().expect("the component's root is on the stack");
                    on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                found.push(component);
            }
        }
    }
    found
}

/// A shortest circle from `start` back to it inside `members`, by breadth
/// first search: the edges in order, each as (its target, its site).
fn shortest_circle<'a>(
    out: &[Vec<(usize, &'a Site)>],
    members: &BTreeSet<usize>,
    start: usize,
) -> Vec<(usize, &'a Site)> {
    let mut came_from: BTreeMap<usize, (usize, &Site)> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for &(to, site) in &out[node] {
            if !members.contains(&to) {
                continue;
            }
            if to == start {
                let mut circle = vec![(start, site)];
                let mut at = node;
                while at != start {
                    let (from, site) = came_from[&at];
                    circle.push((at, site));
                    at = from;
                }
                circle.reverse();
                return circle;
            }
            if to != start && !came_from.contains_key(&to) {
                came_from.insert(to, (node, site));
                queue.push_back(to);
            }
        }
    }
    Vec::new()
}
