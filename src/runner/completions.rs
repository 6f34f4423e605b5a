//! The queue through which the workers tell the calling thread what they finished.
//!
//! The calling thread retires files in corpus order, so a finished file is only useful to it
//! once every earlier file is finished too. Waking it for each file (as a channel does) costs a
//! context switch per file, which on a corpus of many tiny files (Yut: one game per file) made
//! the calling thread the bottleneck. So a worker wakes it only when the push is worth acting
//! on: a batch's worth of files (so the window is refilled before the workers run dry; fewer
//! when fewer are still running), or a journal event (a finished case, which must reach the
//! journal within the second). The calling thread also wakes on a timeout, so a finished file
//! never waits long for its rows to be written.
//!
//! No wake-up is lost: the calling thread publishes how many files it waits for and goes to
//! sleep under the same lock the workers push under.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// A message the workers push: urgent ones (a journal event) always wake the calling thread,
/// the others only a batch at a time.
pub(super) trait Urgency {
    fn urgent(&self) -> bool;
}

pub(super) struct Completions<Message> {
    queue: Mutex<Queue<Message>>,
    ready: Condvar,
    /// Queued messages that wake the calling thread.
    wake_at: AtomicUsize,
}

struct Queue<Message> {
    messages: Vec<Message>,
    /// The calling thread is asleep in [`Completions::take`] (a notification costs a system
    /// call, so it is sent only then).
    sleeping: bool,
}

impl<Message: Urgency> Completions<Message> {
    pub(super) fn new() -> Completions<Message> {
        Completions {
            queue: Mutex::new(Queue {
                messages: Vec::new(),
                sleeping: false,
            }),
            ready: Condvar::new(),
            wake_at: AtomicUsize::new(1),
        }
    }

    /// Queues `message`, waking the calling thread when it is worth it.
    pub(super) fn push(&self, message: Message) {
        let mut queue = self.queue.lock().expect("no thread panics holding it");
        let wake = queue.sleeping
            && (message.urgent()
                || queue.messages.len() + 1 >= self.wake_at.load(Ordering::Relaxed));
        queue.messages.push(message);
        if wake {
            queue.sleeping = false;
            drop(queue);
            self.ready.notify_one();
        }
    }

    /// Everything queued; when nothing is, waits (at most `timeout`) for `batch` messages
    /// or a journal event. An empty result means the time ran out with nothing queued.
    pub(super) fn take(&self, batch: usize, timeout: Duration) -> Vec<Message> {
        let mut queue = self.queue.lock().expect("no thread panics holding it");
        if queue.messages.is_empty() {
            self.wake_at.store(batch.max(1), Ordering::Relaxed);
            queue.sleeping = true;
            queue = self
                .ready
                .wait_timeout_while(queue, timeout, |q| q.sleeping)
                .expect("no thread panics holding it")
                .0;
            queue.sleeping = false;
        }
        std::mem::take(&mut queue.messages)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Quiet;

    impl Urgency for Quiet {
        fn urgent(&self) -> bool {
            false
        }
    }

    #[test]
    fn an_empty_queue_times_out_empty() {
        let completions = Completions::<Quiet>::new();
        let start = std::time::Instant::now();
        assert!(completions.take(0, Duration::from_millis(20)).is_empty());
        assert!(start.elapsed() >= Duration::from_millis(20));
    }
}
