//! The worker threads every pass runs on: a few of them, each with a stack deep enough for
//! syn and for the schemas a transcript brings.

use std::sync::atomic::{AtomicUsize, Ordering};

/// syn recurses once per nesting level, and jsonschema once per level of a schema from the
/// traffic; deeply nested input needs more than the default stack.
pub const WORKER_STACK_BYTES: usize = 256 << 20;

/// `work(i)` for every `i < count`, on a few worker threads; results in index order. A
/// worker that panics loses only its own results, which come back as `T::default()`.
pub fn parallel<T: Send + Default>(count: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(count)
        .max(1);
    let mut results: Vec<T> = (0..count).map(|_| T::default()).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(WORKER_STACK_BYTES)
                    .spawn_scoped(scope, || {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= count {
                                break;
                            }
                            done.push((i, work(i)));
                        }
                        done
                    })
                    .expect("spawning a worker thread")
            })
            .collect();
        for handle in handles {
            for (i, result) in handle.join().unwrap_or_default() {
                results[i] = result;
            }
        }
    });
    results
}
