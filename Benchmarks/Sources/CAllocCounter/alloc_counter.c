// Counts heap allocations by replacing the C allocator's entry points in the benchmark executable.
//
// glibc supports replacing malloc by ELF symbol interposition: an executable that defines malloc,
// free, calloc and realloc (and optionally the aligned family) is used by every shared library of the
// process, libswiftCore's swift_slowAlloc, Foundation and libdispatch included. Each replacement counts
// and then forwards to glibc's own allocator through its exported __libc_* entry points, so the
// allocator, its speed and its malloc_usable_size stay glibc's. Counting is off unless switched on,
// and then costs one relaxed atomic add; the harness counts in a separate pass from the timed rounds.
// It also wraps the C library calls the Swift side makes through it: malloc_trim and mallinfo2 for
// scenario 7's memory columns, and gnu_get_libc_version and sched_getaffinity (which Swift's Glibc
// module does not import) for the scaling mode's header.
#if defined(__linux__)
#define _GNU_SOURCE  // sched_getaffinity and CPU_COUNT
#endif
#include "alloc_counter.h"

#if defined(__linux__) && defined(__GLIBC__)

#include <errno.h>
#include <gnu/libc-version.h>
#include <malloc.h>
#include <sched.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static int counting;
static uint64_t allocations;
static uint64_t frees;

static inline int is_counting(void) {
    return __atomic_load_n(&counting, __ATOMIC_RELAXED);
}

static inline void note_allocation(void) {
    if (is_counting()) __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
}

static inline void note_free(void) {
    if (is_counting()) __atomic_fetch_add(&frees, 1, __ATOMIC_RELAXED);
}

int bench_alloc_counting_supported(void) { return 1; }

void bench_alloc_set_counting(int enabled) { __atomic_store_n(&counting, enabled, __ATOMIC_SEQ_CST); }

uint64_t bench_alloc_count(void) { return __atomic_load_n(&allocations, __ATOMIC_SEQ_CST); }

uint64_t bench_free_count(void) { return __atomic_load_n(&frees, __ATOMIC_SEQ_CST); }

int bench_trim_heap(void) { return malloc_trim(0); }

const char *bench_libc_version(void) { return gnu_get_libc_version(); }

int bench_available_processors(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    return CPU_COUNT(&set);
}

int64_t bench_heap_in_use(void) {
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)
    struct mallinfo2 info = mallinfo2();
    return (int64_t)(info.uordblks + info.hblkhd);
#else
    return -1;
#endif
}

void *malloc(size_t size) {
    note_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    note_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (pointer == NULL) {
        note_allocation();
    } else if (size == 0) {
        note_free();
    }
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer != NULL) note_free();
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    note_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) {
        return EINVAL;
    }
    note_allocation();
    void *memory = __libc_memalign(alignment, size);
    if (memory == NULL && size != 0) return ENOMEM;
    *result = memory;
    return 0;
}

void *valloc(size_t size) {
    note_allocation();
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    note_allocation();
    return __libc_pvalloc(size);
}

#else

int bench_alloc_counting_supported(void) { return 0; }
void bench_alloc_set_counting(int enabled) { (void)enabled; }
uint64_t bench_alloc_count(void) { return 0; }
uint64_t bench_free_count(void) { return 0; }
int bench_trim_heap(void) { return 0; }
int64_t bench_heap_in_use(void) { return -1; }
const char *bench_libc_version(void) { return NULL; }
int bench_available_processors(void) { return -1; }

#endif
