#ifndef C_STREAMS_PLATFORM_H
#define C_STREAMS_PLATFORM_H

// What Swift cannot express on its own, for Streams' lock on Linux (see
// Sources/Streams/Internal/Locking/Lock.swift): the kernel's wait queue keyed by a word of memory
// (a futex, reached through the variadic `syscall`) and the processor's spin-wait hint; and, for
// timelines, the calling thread's name and number, which Glibc declares only for GNU sources, and
// a word of storage of the thread's own.

#include <stddef.h>
#include <stdint.h>

/// Sleeps while `*word` equals `expected`, until `streams_futex_wake` wakes the thread, `timeout_ns`
/// nanoseconds have passed, or the wait ends early for another reason: the caller looks at the word
/// again in every case. Returns at once if the word no longer holds `expected`.
void streams_futex_wait(uint32_t *_Nonnull word, uint32_t expected, int64_t timeout_ns);

/// Wakes one thread sleeping in `streams_futex_wait` on `word`; returns whether it woke one.
int streams_futex_wake(uint32_t *_Nonnull word);

/// Writes the calling thread's name into `buffer` (at most `length` bytes, ending with a zero) and
/// returns its length: 0 when the thread has no name.
int streams_thread_name(char *_Nonnull buffer, size_t length);

/// The calling thread's number as the system shows it (on Linux, its thread id).
uint64_t streams_thread_number(void);

/// The calling thread's label for a timeline, read once per thread and kept: its name, or `thread`
/// and its number when it has none. The text stays valid for the thread's life.
const char *_Nonnull streams_thread_label(void);

/// The calling thread's innermost timeline frame (see Sources/Streams/Timeline/Internal/
/// TimelineFrame.swift): a pointer of the thread's own, null until set.
void *_Nullable streams_timeline_frame(void);

/// Sets the calling thread's innermost timeline frame.
void streams_set_timeline_frame(void *_Nullable frame);

/// Tells the processor that the caller is spinning, so that a sibling hardware thread may run.
static inline void streams_spin_hint(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
