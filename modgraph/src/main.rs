//! `modgraph`: prints, for every target of the workspace, how many files and
//! import edges it has, and names every cycle among its modules. Exits 1
//! when there is one, so that `.ci/run` fails on it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use modgraph::{workspace_targets, Crate};

/// Checks that the modules of every crate of a workspace import each other
/// in one direction only (no cycles).
#[derive(Parser)]
#[command(version)]
struct Args {
    /// The workspace's directory.
    #[arg(default_value = ".")]
    workspace: PathBuf,
    /// Also print every edge (file -> file, with the path that makes it).
    #[arg(long)]
    edges: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let cargo = PathBuf::from(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    let targets = match workspace_targets(&cargo, &args.workspace) {
        Ok(targets) => targets,
        Err(e) => {
            eprintln!("modgraph: {e}");
            return ExitCode::from(2);
        }
    };
    let base = std::fs::canonicalize(&args.workspace).unwrap_or(args.workspace.clone());
    let shown = |path: &std::path::Path| {
        path.strip_prefix(&base)
            .unwrap_or(path)
            .display()
            .to_string()
    };
    let (mut files, mut edges, mut cycles) = (0, 0, 0);
    for target in &targets {
        let krate = match Crate::load(&target.root) {
            Ok(krate) => krate,
            Err(e) => {
                eprintln!("modgraph: {}: {e}", target.name);
                return ExitCode::from(2);
            }
        };
        files += krate.files.len();
        edges += krate.edges.len();
        if args.edges {
            for edge in &krate.edges {
                println!(
                    "{}: {} -> {} ({}:{} `{}`)",
                    target.name,
                    shown(&krate.files[edge.from]),
                    shown(&krate.files[edge.to]),
                    shown(&edge.site.file),
                    edge.site.line,
                    edge.site.path
                );
            }
        }
        for cycle in krate.cycles() {
            cycles += 1;
            println!("{}: {}", target.name, cycle.describe(&base));
        }
    }
    println!(
        "modgraph: {} targets, {files} files, {edges} import edges, {cycles} cycles",
        targets.len()
    );
    if cycles == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
