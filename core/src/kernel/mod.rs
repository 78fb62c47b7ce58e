//! The event kernel: integer-nanosecond time, a deterministic event queue,
//! pipes for what links carry, and seeded random-number streams. It knows
//! nothing of networks.

mod events;
mod pipe;
mod prefetch;
mod rng;
mod time;

pub use events::{EventQueue, Stamp};
pub use pipe::Pipes;
pub use prefetch::prefetch;
pub use rng::Rng;
pub use time::{ms, secs_f64, to_secs, tx_time_ns, Nanos, NS_PER_MS, NS_PER_S};
