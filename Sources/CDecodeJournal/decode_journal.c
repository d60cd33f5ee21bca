#include "decode_journal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

enum { crash_line_capacity = 128, line_capacity = 4096 };

static const int fatal_signals[] = {SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT};
enum { fatal_signal_count = sizeof(fatal_signals) / sizeof(fatal_signals[0]) };
static struct sigaction previous_actions[fatal_signal_count];
static pthread_once_t handlers_installed = PTHREAD_ONCE_INIT;

// The decode in progress on this thread, if any. Static TLS in the executable (local-exec), so the
// handler's reads touch no lazily allocated memory.
static _Thread_local int crash_fd = -1;
static _Thread_local size_t crash_length;
static _Thread_local char crash_line[crash_line_capacity];

static void on_fatal_signal(int signal_number, siginfo_t *info, void *context) {
  (void)context;
  int saved_errno = errno;
  if (crash_fd >= 0 && crash_length > 0) {
    ssize_t written = write(crash_fd, crash_line, crash_length);
    (void)written;
    crash_fd = -1;
  }
  for (int index = 0; index < fatal_signal_count; index++) {
    if (fatal_signals[index] == signal_number) {
      sigaction(signal_number, &previous_actions[index], NULL);
    }
  }
  errno = saved_errno;
  // A fault (a trap instruction, a bad access) happens again when the handler returns, now under the
  // previous handler. A sent signal (abort's raise, kill) is sent again: blocked in this handler, it is
  // delivered to the previous one as soon as this returns.
  if (info == NULL || info->si_code <= 0) raise(signal_number);
}

static void install_handlers(void) {
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_sigaction = on_fatal_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int index = 0; index < fatal_signal_count; index++) {
    sigaction(fatal_signals[index], &action, &previous_actions[index]);
  }
}

static int write_line(int fd, const char *line, size_t length) {
  if (length > line_capacity) length = line_capacity;
  while (length > 0) {
    ssize_t written = write(fd, line, length);
    if (written < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    line += written;
    length -= (size_t)written;
  }
  return 0;
}

int thumbify_journal_begin(int fd, const char *begin_line, size_t begin_length, const char *crash,
                           size_t length) {
  pthread_once(&handlers_installed, install_handlers);
  if (length > crash_line_capacity) length = crash_line_capacity;
  // The line is in place before the descriptor is: a signal between the two finds no line to write.
  crash_fd = -1;
  memcpy(crash_line, crash, length);
  crash_length = length;
  crash_fd = fd;
  return write_line(fd, begin_line, begin_length);
}

int thumbify_journal_end(int fd, const char *end_line, size_t end_length) {
  crash_fd = -1;
  crash_length = 0;
  return write_line(fd, end_line, end_length);
}
