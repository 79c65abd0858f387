//! What a generated scenario is: its [`GenConfig`], its [`Step`]s (each
//! with the names it creates and uses) and the [`Scenario`] that renders
//! them as a `.dd` file; and [`without`], which drops steps with everything
//! that depends on them. The generator produces these and the shrinker cuts
//! them, so they sit in a leaf both read.

/// Sizes and weights of a generated scenario.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Steps after the tables are created.
    pub steps: usize,
    /// Tables created up front.
    pub tables: usize,
    /// Keys drawn from `0..keys`; values from `-2..=3` (so some are 0).
    pub keys: i64,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            steps: 30,
            tables: 2,
            keys: 4,
        }
    }
}

/// One step: directive blocks (each ending in its `----` line), the names
/// it creates, and the names it needs. Dropping a step drops every later
/// step that uses what it creates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub text: String,
    pub creates: Vec<String>,
    pub uses: Vec<String>,
}

/// A generated scenario: its seed and steps.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub seed: u64,
    pub steps: Vec<Step>,
}

impl Scenario {
    /// The scenario as a `.dd` file (outputs empty), after `header` lines.
    pub fn render(&self, header: &[String]) -> String {
        let mut text = String::new();
        for line in header.iter().flat_map(|h| h.lines()) {
            text.push_str(&format!("# {line}\n"));
        }
        if !header.is_empty() {
            text.push('\n');
        }
        let blocks: Vec<&str> = self.steps.iter().map(|s| s.text.as_str()).collect();
        text.push_str(&blocks.join("\n"));
        text
    }
}

/// `steps` without those at `removed` and every step that depends on what
/// they create, so the result is still valid by construction.
pub fn without(steps: &[Step], removed: &[usize]) -> Vec<Step> {
    let mut gone: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let dropped = removed.contains(&i) || step.uses.iter().any(|u| gone.contains(u));
        if dropped {
            gone.extend(step.creates.iter().cloned());
            continue;
        }
        out.push(step.clone());
    }
    out
}
