// Linux calls that Swift's Glibc module does not show (they sit behind _GNU_SOURCE).
#ifndef HAUL_CLINUX_SHIM_H
#define HAUL_CLINUX_SHIM_H

// Declared under its own name, so it cannot clash with a <fcntl.h> that does declare it.
extern int haul_sync_file_range(int fd, long offset, long length, unsigned int flags) __asm__("sync_file_range");

/// Starts writing back the dirty pages of `[offset, offset + length)` and returns without waiting
/// for them (SYNC_FILE_RANGE_WRITE). 0, or -1 with errno set.
static inline int haul_start_writeback(int fd, long offset, long length) {
    return haul_sync_file_range(fd, offset, length, 2 /* SYNC_FILE_RANGE_WRITE */);
}

#endif
