//! Edges between a crate's files, and its cycles: Tarjan's strongly
//! connected components, each larger than one file named by a shortest
//! circle through it.

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

/// A set of files that import each other, and one shortest circle through
/// them, each step with the place that makes it.
#[derive(Clone, Debug)]
pub struct Cycle {
    /// Every file of the strongly connected component, sorted.
    pub files: Vec<PathBuf>,
    /// A circle through the component's first file: each edge's target is
    /// the next edge's source, the last edge's target the first's source.
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
        let mut text = format!("a cycle of {} files:", self.files.len());
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

/// Every cycle among `files` joined by `edges`: each strongly connected
/// component of two files or more.
pub fn cycles(files: &[PathBuf], edges: &[Edge]) -> Vec<Cycle> {
    let n = files.len();
    let mut out: Vec<Vec<(usize, &Site)>> = vec![Vec::new(); n];
    for edge in edges {
        out[edge.from].push((edge.to, &edge.site));
    }
    let mut cycles = Vec::new();
    for component in components(&out) {
        if component.len() < 2 {
            continue;
        }
        let members: BTreeSet<usize> = component.iter().copied().collect();
        let start = *members.iter().next().expect("a component has a member");
        let circle = shortest_circle(&out, &members, start)
            .into_iter()
            .map(|(to, site)| (files[to].clone(), site.clone()))
            .collect();
        let mut members: Vec<PathBuf> = members.iter().map(|&m| files[m].clone()).collect();
        members.sort();
        cycles.push(Cycle {
            files: members,
            circle,
        });
    }
    cycles.sort_by(|a, b| a.files.cmp(&b.files));
    cycles
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
