//! The progress line: `[done/total] path` rewritten in place on stderr, only
//! when stderr is a terminal (a CI log or a redirected file gets none).

use std::io::{IsTerminal, Write};

pub struct Progress {
    enabled: bool,
    total: usize,
    /// The line last drawn, if it is on screen.
    shown: Option<String>,
}

impl Progress {
    /// A progress line for `total` items, if stderr is a terminal.
    pub fn new(total: usize) -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            total,
            shown: None,
        }
    }

    /// `done` items are finished; `last` is the one that just did.
    pub fn update(&mut self, done: usize, last: &str) {
        if !self.enabled {
            return;
        }
        self.draw(format!("[{done}/{}] {last}", self.total));
    }

    /// Runs `print` (which writes the report) with the line out of its way.
    pub fn around<R>(&mut self, print: impl FnOnce() -> R) -> R {
        let line = self.shown.clone();
        self.clear();
        let r = print();
        if let Some(line) = line {
            self.draw(line);
        }
        r
    }

    /// Clears the line for good.
    pub fn clear(&mut self) {
        if self.shown.take().is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }

    fn draw(&mut self, line: String) {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K{line}");
        let _ = err.flush();
        self.shown = Some(line);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}
