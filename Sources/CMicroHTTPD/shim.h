#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

// MHD_start_daemon is variadic: this typed wrapper passes the options the server uses.
// Returns NULL when the address does not parse or the daemon cannot start (port in use).
static inline struct MHD_Daemon *cmhd_start(
    unsigned int flags,
    const char *bind_address,
    uint16_t port,
    MHD_AccessHandlerCallback handler,
    void *handler_context,
    MHD_RequestCompletedCallback completed,
    size_t connection_memory_limit,
    unsigned int connection_timeout_seconds,
    unsigned int connection_limit,
    unsigned int listen_backlog,
    unsigned int thread_pool_size
) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, bind_address, &address.sin_addr) != 1) {
        return NULL;
    }
    return MHD_start_daemon(
        flags, port, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, handler_context,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, listen_backlog,
        MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
        MHD_OPTION_END);
}

// The port the daemon listens on (useful when it was started on port 0).
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// MHD_get_connection_info is variadic: the socket of a connection, or -1.
static inline int cmhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

// MHD_get_connection_info is variadic: the client's address as text (`127.0.0.2`, `::1`) into
// `buffer`, or 0 when the connection has none the library knows.
static inline int cmhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *address = info->client_addr;
    const void *bytes = NULL;
    if (address->sa_family == AF_INET) bytes = &((const struct sockaddr_in *)address)->sin_addr;
    else if (address->sa_family == AF_INET6) bytes = &((const struct sockaddr_in6 *)address)->sin6_addr;
    else return 0;
    return inet_ntop(address->sa_family, bytes, buffer, size) == NULL ? 0 : 1;
}

// The body reader of a response that breaks off: it fails at once, so libmicrohttpd sends the
// head and then closes the connection, and the client sees an answer cut short.
static inline ssize_t cmhd_failing_reader(void *context, uint64_t position, char *buffer, size_t max) {
    (void)context; (void)position; (void)buffer; (void)max;
    return MHD_CONTENT_READER_END_WITH_ERROR;
}

// A response whose status line and headers go out and whose body never comes (chunked, so the
// client knows it is incomplete).
static inline struct MHD_Response *cmhd_create_broken_response(void) {
    return MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, &cmhd_failing_reader, NULL, NULL);
}
