//! Every path written in a file that could name a module of its crate, with
//! the module it is written in: `use` trees flattened, paths in types and
//! expressions, and `crate`/`super`/`self` paths among a macro's tokens.

use proc_macro2::{TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// A path as written, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The module the path is written in (inline modules included).
    pub module: Vec<String>,
    /// The path's segments, without generic arguments.
    pub segments: Vec<String>,
    /// The line it starts on.
    pub line: usize,
}

/// The paths of a file whose top is module `module`.
pub fn paths_of(file: &syn::File, module: &[String]) -> Vec<Written> {
    let mut collector = Collector {
        module: module.to_vec(),
        found: Vec::new(),
    };
    collector.visit_file(file);
    collector.found
}

struct Collector {
    module: Vec<String>,
    found: Vec<Written>,
}

impl Collector {
    fn push(&mut self, segments: Vec<String>, line: usize) {
        if !segments.is_empty() {
            self.found.push(Written {
                module: self.module.clone(),
                segments,
                line,
            });
        }
    }

    /// Flattens a `use` tree into one path per leaf (`self` in a group names
    /// the group's prefix; a glob names the prefix itself).
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.use_leaf(prefix, &n.ident, n.span()),
            syn::UseTree::Rename(r) => self.use_leaf(prefix, &r.ident, r.span()),
            syn::UseTree::Glob(g) => self.push(prefix.clone(), g.span().start().line),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    fn use_leaf(&mut self, prefix: &[String], ident: &syn::Ident, span: proc_macro2::Span) {
        let mut segments = prefix.to_vec();
        if ident != "self" || segments.is_empty() {
            segments.push(ident.to_string());
        }
        self.push(segments, span.start().line);
    }

    /// `crate :: a :: b`, `super :: a` and `self :: a` runs among tokens.
    fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            if let TokenTree::Group(group) = &trees[i] {
                self.tokens(group.stream());
                i += 1;
                continue;
            }
            let starts = matches!(&trees[i], TokenTree::Ident(id) if id == "crate" || id == "super" || id == "self");
            if !starts {
                i += 1;
                continue;
            }
            let line = trees[i].span().start().line;
            let mut segments = vec![trees[i].to_string()];
            let mut j = i + 1;
            while j < trees.len() && is_path_sep(&trees[j..]) {
                match trees.get(j + 2) {
                    Some(TokenTree::Ident(id)) => {
                        segments.push(id.to_string());
                        j += 3;
                    }
                    _ => break,
                }
            }
            if segments.len() > 1 {
                self.push(segments, line);
            }
            i = j.max(i + 1);
        }
    }
}

/// Whether the tokens start with `::`.
fn is_path_sep(trees: &[TokenTree]) -> bool {
    matches!(
        (trees.first(), trees.get(1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && b.as_char() == ':'
    )
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        visit::visit_item_mod(self, item);
        self.module.pop();
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.push(segments, path.span().start().line);
        visit::visit_path(self, path);
    }

    /// `pub(crate)`, `pub(super)`, `pub(in path)`: who may see an item is
    /// not an import.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        visit::visit_macro(self, mac);
    }
}
