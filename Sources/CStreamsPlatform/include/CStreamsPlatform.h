#ifndef C_STREAMS_PLATFORM_H
#define C_STREAMS_PLATFORM_H

// What Swift cannot express on its own, for Streams' lock on Linux (see
// Sources/Streams/Internal/Locking/Lock.swift): the kernel's wait queue keyed by a word of memory
// (a futex, reached through the variadic `syscall`) and the processor's spin-wait hint.

#include <stdint.h>

/// Sleeps while `*word` equals `expected`, until `streams_futex_wake` wakes the thread, `timeout_ns`
/// nanoseconds have passed, or the wait ends early for another reason: the caller looks at the word
/// again in every case. Returns at once if the word no longer holds `expected`.
void streams_futex_wait(uint32_t *_Nonnull word, uint32_t expected, int64_t timeout_ns);

/// Wakes one thread sleeping in `streams_futex_wait` on `word`; returns whether it woke one.
int streams_futex_wake(uint32_t *_Nonnull word);

/// Tells the processor that the caller is spinning, so that a sibling hardware thread may run.
static inline void streams_spin_hint(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
