#ifndef THUMBIFY_CMICROHTTPD_SHIM_H
#define THUMBIFY_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

// MHD_start_daemon and MHD_get_connection_info are variadic C functions, which Swift cannot call.
// These typed wrappers are the only reason this shim exists.

/// MHD_start_daemon on a socket the caller bound and listens on (TCP or Unix), with the limits
/// `thumbify serve` sets. `uri_logger` sees each request's raw URI (query string included) first and
/// returns the request's context. A per-IP limit of 0 sets none (a Unix socket has no client address).
static inline struct MHD_Daemon *thumbify_mhd_start(
    unsigned int flags, int listen_fd, MHD_AccessHandlerCallback handler,
    MHD_RequestCompletedCallback completed, void *(*uri_logger)(void *, const char *, struct MHD_Connection *),
    void *cls, unsigned int threads,
    unsigned int connection_limit, unsigned int per_ip_limit, unsigned int timeout_seconds,
    size_t memory_limit) {
  return MHD_start_daemon(
      flags, 0, NULL, NULL, handler, cls,
      MHD_OPTION_LISTEN_SOCKET, listen_fd,
      MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
      MHD_OPTION_URI_LOG_CALLBACK, uri_logger, cls,
      MHD_OPTION_THREAD_POOL_SIZE, threads,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
      MHD_OPTION_END);
}

/// The client's address of a connection (NULL when MHD does not know it).
static inline const struct sockaddr *thumbify_mhd_client_address(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  return info == NULL ? NULL : info->client_addr;
}

/// A response holding a copy of `size` bytes at `buffer` (Swift does not see MHD_RESPMEM_MUST_COPY:
/// the enum's case names clash with its type's prefix rules).
static inline struct MHD_Response *thumbify_mhd_response_copying(size_t size, const void *buffer) {
  return MHD_create_response_from_buffer(size, (void *)buffer, MHD_RESPMEM_MUST_COPY);
}
#endif
