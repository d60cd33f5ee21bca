#ifndef THUMBIFY_STOP_SIGNALS_H
#define THUMBIFY_STOP_SIGNALS_H

/// The stop signals' C half (SIGINT and SIGTERM during a crawl): the self-pipe trick, because the
/// handler must be async-signal-safe.
///
/// `thumbify_stop_signals_install` creates (on its first call; it is never closed) a pipe, and makes
/// `signal_number` call a handler that writes the signal's number into it as one byte, whichever
/// thread the kernel picks. Returns the pipe's read end, or -1 with errno. The earlier disposition is
/// kept; `thumbify_stop_signals_restore` puts it back. Signals 1 to 63, one installation at a time
/// per signal; calls are not thread-safe (the Swift side serializes them).
int thumbify_stop_signals_install(int signal_number);
void thumbify_stop_signals_restore(int signal_number);

#endif
