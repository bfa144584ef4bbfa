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

#endif
