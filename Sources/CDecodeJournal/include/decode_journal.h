#ifndef THUMBIFY_DECODE_JOURNAL_H
#define THUMBIFY_DECODE_JOURNAL_H
#include <stddef.h>

/// Crash-loop protection's C half (docs/errors.md, "A decoder that crashes"): the lines a decode
/// journal gets around each image decode, and the line a fatal signal leaves for the decode it hit.
///
/// `thumbify_journal_begin` appends `begin_line` to the journal `fd` (one write, O_APPEND) and keeps
/// `crash_line` for the calling thread; if the thread then dies of SIGILL, SIGTRAP, SIGSEGV, SIGBUS,
/// SIGFPE or SIGABRT (a Swift trap, a C library's bad access, an abort), the handler appends
/// `crash_line` to the same journal before the signal goes on to the handler that was installed before
/// (Swift's backtracer, or the default: the process still dies as it would have).
/// `thumbify_journal_end` forgets the thread's crash line and appends `end_line`.
///
/// Lines are at most 4096 bytes (the crash line at most 128); longer ones are cut. Returns 0, or -1
/// with errno when the write failed.
int thumbify_journal_begin(int fd, const char *begin_line, size_t begin_length, const char *crash_line,
                           size_t crash_length);
int thumbify_journal_end(int fd, const char *end_line, size_t end_length);

#endif
