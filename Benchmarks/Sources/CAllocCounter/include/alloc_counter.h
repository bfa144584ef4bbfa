#ifndef ALLOC_COUNTER_H
#define ALLOC_COUNTER_H

#include <stdint.h>

/// Whether this build counts allocations at all (1 on glibc, where malloc is replaced; 0 elsewhere).
int bench_alloc_counting_supported(void);

/// Turns counting on or off for every thread. Off, the replaced functions add one relaxed load.
void bench_alloc_set_counting(int enabled);

/// Allocations made while counting was on: malloc, calloc, realloc of NULL, the aligned family.
uint64_t bench_alloc_count(void);

/// Frees of a non-NULL pointer (and realloc to size 0) made while counting was on.
uint64_t bench_free_count(void);

/// Returns the memory glibc's allocator holds free to the system (malloc_trim(0)), so that resident
/// memory measured next starts from what is in use; 1 if it released some. Does nothing elsewhere.
int bench_trim_heap(void);

/// Bytes the program has allocated and not yet freed, in all of glibc's arenas and mmapped blocks
/// (mallinfo2: uordblks + hblkhd); -1 where unavailable. Locks each arena in turn; never allocates.
int64_t bench_heap_in_use(void);

/// The version of the C library the process runs with, such as "2.39" (glibc's gnu_get_libc_version(),
/// which Swift's Glibc module does not import); NULL where the C library is not glibc.
const char *bench_libc_version(void);

/// The processors this process may run on (sched_getaffinity, what `nproc` prints), which a container
/// or a CPU set may make fewer than the processors online; -1 where unavailable.
int bench_available_processors(void);

#endif
