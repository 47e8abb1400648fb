// Linux calls that Swift's Glibc module does not show (behind _GNU_SOURCE, or in headers it leaves out).
#ifndef HAUL_CLINUX_SHIM_H
#define HAUL_CLINUX_SHIM_H

// Declared under its own name, so it cannot clash with a <fcntl.h> that does declare it.
extern int haul_sync_file_range(int fd, long offset, long length, unsigned int flags) __asm__("sync_file_range");

/// Starts writing back the dirty pages of `[offset, offset + length)` and returns without waiting
/// for them (SYNC_FILE_RANGE_WRITE). 0, or -1 with errno set.
static inline int haul_start_writeback(int fd, long offset, long length) {
    return haul_sync_file_range(fd, offset, length, 2 /* SYNC_FILE_RANGE_WRITE */);
}

#include <sys/uio.h>

extern long haul_pwritev2(int fd, const struct iovec *iov, int count, long offset, int flags) __asm__("pwritev2");

/// `pwrite` asking the kernel to drop the pages from the page cache once they are written back
/// (RWF_DONTCACHE, Linux 6.14; older kernels and file systems without it fail with EOPNOTSUPP).
static inline long haul_pwrite_drop_behind(int fd, const void *buffer, unsigned long length, long offset) {
    struct iovec iov = { (void *)buffer, length };
    return haul_pwritev2(fd, &iov, 1, offset, 0x80 /* RWF_DONTCACHE */);
}

#include <sys/eventfd.h>

/// A counter other threads can wake a waiting thread with (close-on-exec); -1 with errno set.
static inline int haul_eventfd(void) { return eventfd(0, EFD_CLOEXEC); }

#include <sys/vfs.h>

/// `statfs`, which tells the file system's type (`f_type`) as well as its free space.
static inline int haul_statfs(const char *path, struct statfs *info) {
    return statfs(path, info);
}

#include <malloc.h>

/// Caps glibc's malloc arenas at one (M_ARENA_MAX): memory freed by one thread is then reused by
/// the others. 1 on success.
static inline int haul_use_one_malloc_arena(void) {
    return mallopt(M_ARENA_MAX, 1);
}

#include <pthread.h>

extern int haul_pthread_setname_np(pthread_t thread, const char *name) __asm__("pthread_setname_np");

/// Names the calling thread (at most 15 bytes), as `ps -L` and /proc/self/task/*/comm show it.
static inline int haul_name_this_thread(const char *name) {
    return haul_pthread_setname_np(pthread_self(), name);
}

#endif
