//! `--jobs N`: checks files on N threads and hands their results over in
//! input order, so the report is the same whatever N is.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Computes `work(i)` for every `i < count` on `jobs` threads. `finished` is
/// told how many items are done and which one just did, each time one
/// finishes (in any order);
/// `emit` receives the results in index order, as soon as each one and all
/// before it are done. The first error of `emit` stops emitting and is returned.
pub fn in_order<R: Send, E>(
    count: usize,
    jobs: usize,
    work: &(dyn Fn(usize) -> R + Sync),
    finished: &mut dyn FnMut(usize, usize),
    emit: &mut dyn FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E> {
    if jobs <= 1 || count <= 1 {
        for i in 0..count {
            let r = work(i);
            finished(i + 1, i);
            emit(i, r)?;
        }
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(count) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count || tx.send((i, work(i))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut emitted = 0;
        let mut done = 0;
        let mut result = Ok(());
        for (i, r) in rx {
            done += 1;
            finished(done, i);
            pending.insert(i, r);
            while let Some(r) = pending.remove(&emitted) {
                if result.is_ok() {
                    result = emit(emitted, r);
                }
                emitted += 1;
            }
        }
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn collect(count: usize, jobs: usize) -> (Vec<(usize, usize)>, Vec<usize>) {
        let work = |i: usize| {
            // Later items finish first.
            std::thread::sleep(Duration::from_millis(((count - i) * 3) as u64));
            i * 10
        };
        let mut out = Vec::new();
        let mut progress = Vec::new();
        in_order::<_, ()>(
            count,
            jobs,
            &work,
            &mut |n, _| progress.push(n),
            &mut |i, r| {
                out.push((i, r));
                Ok(())
            },
        )
        .unwrap();
        (out, progress)
    }

    #[test]
    fn results_come_in_index_order_whatever_the_jobs() {
        let expected: Vec<(usize, usize)> = (0..9).map(|i| (i, i * 10)).collect();
        for jobs in [1, 2, 4, 20] {
            let (out, progress) = collect(9, jobs);
            assert_eq!(out, expected, "jobs={jobs}");
            assert_eq!(progress, (1..=9).collect::<Vec<_>>());
        }
        assert!(collect(0, 3).0.is_empty());
    }

    #[test]
    fn an_emit_error_stops_emitting() {
        let mut seen = Vec::new();
        let r = in_order(5, 2, &|i| i, &mut |_, _| {}, &mut |i, _| {
            seen.push(i);
            if i == 1 {
                Err("full")
            } else {
                Ok(())
            }
        });
        assert_eq!(r, Err("full"));
        assert_eq!(seen, [0, 1]);
    }
}
