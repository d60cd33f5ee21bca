#define _GNU_SOURCE  // pipe2
#include "stop_signals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

enum { signal_limit = 64 };
static struct sigaction previous_actions[signal_limit];
static int pipe_ends[2] = {-1, -1};

static void on_stop_signal(int signal_number) {
  int saved_errno = errno;
  unsigned char byte = (unsigned char)signal_number;
  // A full pipe (64 KB of unread signals) drops the byte: the reader has enough to act on.
  ssize_t written = write(pipe_ends[1], &byte, 1);
  (void)written;
  errno = saved_errno;
}

int thumbify_stop_signals_install(int signal_number) {
  if (signal_number <= 0 || signal_number >= signal_limit) {
    errno = EINVAL;
    return -1;
  }
  // The write end does not block: a handler must never wait on its reader.
  if (pipe_ends[0] < 0 && pipe2(pipe_ends, O_CLOEXEC) != 0) return -1;
  int flags = fcntl(pipe_ends[1], F_GETFL);
  if (flags < 0 || fcntl(pipe_ends[1], F_SETFL, flags | O_NONBLOCK) != 0) return -1;
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = on_stop_signal;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (sigaction(signal_number, &action, &previous_actions[signal_number]) != 0) return -1;
  return pipe_ends[0];
}

void thumbify_stop_signals_restore(int signal_number) {
  if (signal_number <= 0 || signal_number >= signal_limit) return;
  sigaction(signal_number, &previous_actions[signal_number], NULL);
}
