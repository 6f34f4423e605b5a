//! The queue through which the workers tell the calling thread what they finished.
//!
//! The calling thread retires chunks in corpus order and refills the window; a finished chunk
//! is worth a wake-up when the workers are about to run out of work without it. Waking the
//! calling thread for every tiny file (as a channel does) costs a context switch per file, and
//! waking it only after a fixed batch (or a period) leaves the workers idle once fewer chunks
//! than the batch are running (big files, whose chunks fill the window's bytes; the end of every
//! file and of the run). So the calling thread says, as it goes to sleep, after how many
//! finished chunks it wants to be woken (about half of those running, so that the workers still
//! have work while it refills the window), and a message that lets it act at once (a journal
//! event, a loaded chunk whose file has more) always wakes it. No timer is on a result's path:
//! the calling thread's timeout only lets it look at the stop flag.
//!
//! No wake-up is lost: the calling thread publishes its count and goes to sleep under the same
//! lock the workers push under.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// How a message counts towards waking the calling thread.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Wake {
    /// Wakes it at once (something it must act on now).
    Now,
    /// Counts towards the number of finished chunks it waits for.
    Counted,
    /// Never wakes it by itself (read with the next batch).
    Quiet,
}

/// What decides how a message wakes the calling thread.
pub(super) trait Urgency {
    fn wake(&self) -> Wake;
}

pub(super) struct Completions<Message> {
    queue: Mutex<Queue<Message>>,
    ready: Condvar,
}

struct Queue<Message> {
    messages: Vec<Message>,
    /// Counted messages queued since the calling thread went to sleep.
    counted: usize,
    /// Counted messages that wake it.
    wake_at: usize,
    /// The calling thread is asleep in [`Completions::take`] (a notification costs a system
    /// call, so it is sent only then).
    sleeping: bool,
}

impl<Message: Urgency> Completions<Message> {
    pub(super) fn new() -> Completions<Message> {
        Completions {
            queue: Mutex::new(Queue {
                messages: Vec::new(),
                counted: 0,
                wake_at: 1,
                sleeping: false,
            }),
            ready: Condvar::new(),
        }
    }

    /// Queues `message`, waking the calling thread when it is worth it.
    pub(super) fn push(&self, message: Message) {
        let mut queue = self.queue.lock().expect("no thread panics holding it");
        let wake = match message.wake() {
            Wake::Now => true,
            Wake::Counted => {
                queue.counted += 1;
                queue.counted >= queue.wake_at
            }
            Wake::Quiet => false,
        };
        queue.messages.push(message);
        if wake && queue.sleeping {
            queue.sleeping = false;
            drop(queue);
            self.ready.notify_one();
        }
    }

    /// Everything queued; when nothing is, waits for `counted` counted messages (at least
    /// one) or one that wakes at once, or at most `timeout`. An empty result means the time
    /// ran out with nothing queued.
    pub(super) fn take(&self, counted: usize, timeout: Duration) -> Vec<Message> {
        let mut queue = self.queue.lock().expect("no thread panics holding it");
        if queue.messages.is_empty() {
            queue.counted = 0;
            queue.wake_at = counted.max(1);
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
    use std::sync::Arc;
    use std::time::Instant;

    struct Message(Wake);

    impl Urgency for Message {
        fn wake(&self) -> Wake {
            self.0
        }
    }

    /// Long enough that a wake-up by the timeout cannot pass for one by a message.
    const LONG: Duration = Duration::from_secs(30);
    /// A pause that lets the calling thread go to sleep first.
    const SETTLE: Duration = Duration::from_millis(200);

    #[test]
    fn an_empty_queue_times_out_empty() {
        let completions = Completions::<Message>::new();
        let start = Instant::now();
        assert!(completions.take(0, Duration::from_millis(20)).is_empty());
        assert!(start.elapsed() >= Duration::from_millis(20));
    }

    /// Pushes `wakes` from another thread once the caller sleeps; returns what `take(counted)`
    /// got and whether it came back well before the timeout.
    fn woken_by(counted: usize, wakes: Vec<Wake>) -> (usize, bool) {
        let completions = Arc::new(Completions::<Message>::new());
        let pusher = {
            let completions = completions.clone();
            std::thread::spawn(move || {
                std::thread::sleep(SETTLE);
                for wake in wakes {
                    completions.push(Message(wake));
                }
            })
        };
        let start = Instant::now();
        let got = completions.take(counted, LONG).len();
        let early = start.elapsed() < LONG / 2;
        pusher.join().expect("the pusher does not panic");
        (got, early)
    }

    #[test]
    fn the_counted_messages_asked_for_wake_the_calling_thread() {
        let (got, early) = woken_by(
            3,
            vec![Wake::Counted, Wake::Quiet, Wake::Counted, Wake::Counted],
        );
        assert!(early);
        assert!(got >= 3, "woken with {got} messages");
    }

    #[test]
    fn an_urgent_message_wakes_at_once() {
        let (got, early) = woken_by(100, vec![Wake::Now]);
        assert!(early);
        assert_eq!(got, 1);
    }

    #[test]
    fn quiet_messages_and_too_few_counted_ones_do_not_wake() {
        let completions = Completions::<Message>::new();
        completions.push(Message(Wake::Quiet));
        // Queued messages are taken without waiting.
        assert_eq!(completions.take(5, LONG).len(), 1);
        let short = Duration::from_secs(1);
        let completions = Arc::new(completions);
        let pusher = {
            let completions = completions.clone();
            std::thread::spawn(move || {
                std::thread::sleep(SETTLE);
                completions.push(Message(Wake::Quiet));
                completions.push(Message(Wake::Counted));
            })
        };
        let start = Instant::now();
        let got = completions.take(2, short).len();
        assert!(start.elapsed() >= short, "woken before the timeout");
        assert_eq!(got, 2);
        pusher.join().expect("the pusher does not panic");
    }
}
