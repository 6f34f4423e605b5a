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
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use super::load::Loaded;

/// What the workers tell the calling thread.
pub(super) enum Message {
    /// Every engine finished this case (0-based) of this file.
    Case(Arc<Loaded>, usize),
    /// Every slot of this file is finished.
    File(Arc<Loaded>),
}

pub(super) struct Completions {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Queued messages that wake the calling thread.
    wake_at: AtomicUsize,
}

#[derive(Default)]
struct Queue {
    messages: Vec<Message>,
    /// The calling thread is asleep in [`Completions::take`] (a notification costs a system
    /// call, so it is sent only then).
    sleeping: bool,
}

impl Completions {
    pub(super) fn new() -> Completions {
        Completions {
            queue: Mutex::new(Queue::default()),
            ready: Condvar::new(),
            wake_at: AtomicUsize::new(1),
        }
    }

    /// Queues `message`, waking the calling thread when it is worth it.
    pub(super) fn push(&self, message: Message) {
        let mut queue = self.queue.lock().expect("no thread panics holding it");
        let wake = queue.sleeping
            && match &message {
                Message::Case(..) => true,
                Message::File(_) => {
                    queue.messages.len() + 1 >= self.wake_at.load(Ordering::Relaxed)
                }
            };
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

    #[test]
    fn an_empty_queue_times_out_empty() {
        let completions = Completions::new();
        let start = std::time::Instant::now();
        assert!(completions.take(0, Duration::from_millis(20)).is_empty());
        assert!(start.elapsed() >= Duration::from_millis(20));
    }
}
