#define _GNU_SOURCE
#include "CStreamsPlatform.h"

#include <pthread.h>
#include <string.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

int streams_thread_name(char *buffer, size_t length) {
    if (length == 0) return 0;
    buffer[0] = 0;
#if defined(__linux__) || defined(__APPLE__)
    if (pthread_getname_np(pthread_self(), buffer, length) != 0) {
        buffer[0] = 0;
    }
#endif
    return (int)strlen(buffer);
}

uint64_t streams_thread_number(void) {
#if defined(__linux__)
    return (uint64_t)syscall(SYS_gettid);
#elif defined(__APPLE__)
    uint64_t id = 0;
    pthread_threadid_np(NULL, &id);
    return id;
#else
    return 0;
#endif
}
