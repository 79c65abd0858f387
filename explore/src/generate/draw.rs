//! The scenario of a seed: its tables, then each step drawn by weight from
//! the kinds in `schema.rs`, `subqueries.rs`, `functions.rs`, `sets.rs`,
//! `windows.rs`, `drops.rs`, `reads.rs` and `lag.rs`, then a finish that
//! leaves nothing outstanding. [`VERSION`] changes whenever this would
//! draw differently for the same seed.

use super::scenario::{GenConfig, Scenario};
use super::state::{block, Generator};

/// Bumped whenever the same seed would generate a different scenario.
pub const VERSION: u32 = 8;

/// Generates the scenario of `seed`.
pub fn generate(seed: u64, config: &GenConfig) -> Scenario {
    let mut g = Generator::new(seed, config);
    for _ in 0..config.tables.max(1) {
        g.create_table();
    }
    for _ in 0..config.steps {
        g.step();
    }
    g.finish();
    Scenario {
        seed,
        steps: g.steps,
    }
}

impl Generator {
    fn step(&mut self) {
        match self.rng.below(50) {
            0..=4 => {
                let (write, table) = self.write_text();
                self.push(write, vec![], vec![table]);
            }
            5..=7 => self.create_index(),
            8 | 9 => self.error_view(),
            10..=12 => self.join_view(),
            13 => self.reduce_view(),
            14 | 15 => self.read(),
            16 | 32 => self.drop_index(),
            33 | 34 => self.drop_relation(),
            35 => self.drop_under_subscribe(),
            17 => self.maintenance_lag(),
            18 => self.interactive_lag(),
            19 => self.staggered_index(),
            20 | 21 => self.error_counts(),
            22 => self.frontiers(),
            23 => self.subscribe(),
            24 => self.fetch(),
            25 => self.tick(),
            26 | 27 => self.peek(),
            28 => self.named_peek(),
            29 => self.await_peek(),
            30 => self.hold(),
            31 => self.release(),
            36 => self.allow_compaction(),
            37 | 38 => self.subquery_view(),
            39 => self.subquery_read(),
            40 => self.outer_join_view(),
            41 | 42 => self.function_view(),
            43 => self.function_read(),
            44 => self.char_table(),
            45 | 46 => self.set_view(),
            47 => self.set_read(),
            48 => self.window_view(),
            49 => self.window_read(),
            _ => unreachable!("below 50"),
        }
    }

    /// Ends the scenario with nothing outstanding: every subscribe
    /// fetched a last time and cancelled, time moved up to every named
    /// peek's, and every named peek awaited.
    fn finish(&mut self) {
        for (name, _) in std::mem::take(&mut self.subscribes) {
            let text = block(&format!("fetch name={name}"), "") + "\n";
            let text = text + &block(&format!("cancel name={name}"), "");
            self.push(text, vec![], vec![name]);
        }
        let latest = self.peeks.iter().map(|(_, at, _)| *at).max().unwrap_or(0);
        while self.now < latest {
            self.tick();
        }
        for (name, _, _) in std::mem::take(&mut self.peeks) {
            self.push(block(&format!("await name={name}"), ""), vec![], vec![name]);
        }
    }
}
