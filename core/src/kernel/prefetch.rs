//! Cache hints for state the event loop will read soon: with thousands of
//! links and flows in flight, what a packet touches next was written long
//! ago and is rarely cached.

/// Ask the processor to fetch into the cache the lines holding the bytes at
/// `offsets` from `value` (x86-64 only; elsewhere nothing). A pointer, not a
/// reference: nothing is read, so it may come from a choice between fields
/// of different types.
#[inline(always)]
pub fn prefetch<T>(value: *const T, offsets: &[usize]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let at = value.cast::<i8>();
        for &offset in offsets {
            // SAFETY: SSE is part of x86-64, and a prefetch never faults
            // nor changes what the program computes.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(offset)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (value, offsets);
}
