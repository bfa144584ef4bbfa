#define _GNU_SOURCE
#include "CStreamsPlatform.h"

#include <pthread.h>
#include <stdio.h>
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

const char *streams_thread_label(void) {
    static _Thread_local char label[64];
    if (label[0] == 0 && streams_thread_name(label, sizeof label) == 0) {
        snprintf(label, sizeof label, "thread %llu", (unsigned long long)streams_thread_number());
    }
    return label;
}

static _Thread_local void *timeline_frame;

void *streams_timeline_frame(void) { return timeline_frame; }

void streams_set_timeline_frame(void *frame) { timeline_frame = frame; }
