#ifndef THUMBIFY_CLINUX_SHIM_H
#define THUMBIFY_CLINUX_SHIM_H
#include <sys/syscall.h>
#include <fcntl.h>
#include <unistd.h>
// glibc's mallopt(M_ARENA_MAX) and malloc_trim, which Swift's Glibc module does not include.
#include <malloc.h>

// Linux calls that Swift's Glibc module does not declare (Glibc declares them only under
// _GNU_SOURCE), made through syscall(2), which Swift cannot call because it is variadic.

/// sync_file_range(fd, offset, count, SYNC_FILE_RANGE_WRITE): starts writing the range's dirty pages
/// back without waiting for them, so that a later fsync has less to wait for. 64-bit ABIs only.
static inline int thumbify_start_writeback(int fd, long long offset, long long count) {
  return (int)syscall(SYS_sync_file_range, fd, offset, count, 2u /* SYNC_FILE_RANGE_WRITE */);
}

/// pipe2(fds, O_CLOEXEC): a pipe whose ends no other thread's child inherits (the DevTools pipe).
static inline int thumbify_cloexec_pipe(int fds[2]) {
  return (int)syscall(SYS_pipe2, fds, O_CLOEXEC);
}

#endif
