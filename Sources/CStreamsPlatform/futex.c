#include "CStreamsPlatform.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void streams_futex_wait(uint32_t *word, uint32_t expected, int64_t timeout_ns) {
    struct timespec timeout = {
        .tv_sec = (time_t)(timeout_ns / 1000000000),
        .tv_nsec = (long)(timeout_ns % 1000000000),
    };
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, &timeout, NULL, 0);
}

int streams_futex_wake(uint32_t *word) {
    return syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) > 0;
}
#else
// Darwin uses its own lock (`Mutex`) and never calls these. Elsewhere, without a futex, a waiter
// sleeps a short while (never longer than asked) and looks at the word again.
#include <time.h>

void streams_futex_wait(uint32_t *word, uint32_t expected, int64_t timeout_ns) {
    if (__atomic_load_n(word, __ATOMIC_RELAXED) != expected) return;
    int64_t nanoseconds = timeout_ns < 50000 ? timeout_ns : 50000;
    struct timespec pause = {.tv_sec = 0, .tv_nsec = (long)nanoseconds};
    nanosleep(&pause, NULL);
}

int streams_futex_wake(uint32_t *word) {
    (void)word;
    return 0;
}
#endif
