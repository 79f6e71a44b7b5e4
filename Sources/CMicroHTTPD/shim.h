#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

// The request-line callback (MHD_OPTION_URI_LOG_CALLBACK): it sees the request target as the
// client sent it, before libmicrohttpd splits off the query and percent-decodes the path, and its
// result becomes the request's state pointer.
typedef void *(*cmhd_uri_callback)(void *context, const char *uri, struct MHD_Connection *connection);

// MHD_start_daemon is variadic: this typed wrapper passes the options the server uses.
// Returns NULL when the address does not parse or the daemon cannot start (port in use).
static inline struct MHD_Daemon *cmhd_start(
    unsigned int flags,
    const char *bind_address,
    uint16_t port,
    MHD_AccessHandlerCallback handler,
    void *handler_context,
    MHD_RequestCompletedCallback completed,
    MHD_NotifyConnectionCallback notify_connection,
    cmhd_uri_callback uri_callback,
    size_t connection_memory_limit,
    unsigned int connection_timeout_seconds,
    unsigned int connection_limit,
    unsigned int per_address_connection_limit,
    unsigned int listen_backlog,
    unsigned int thread_pool_size
) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
#ifdef __APPLE__
    address.sin_len = sizeof(address);  // BSD sockets carry their length
#endif
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, bind_address, &address.sin_addr) != 1) {
        return NULL;
    }
    return MHD_start_daemon(
        flags, port, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, handler_context,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, handler_context,
        MHD_OPTION_URI_LOG_CALLBACK, uri_callback, handler_context,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_connection_limit,
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

// MHD_get_connection_info is variadic: the pointer the connection callback stored, or NULL.
static inline void *cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

// What cmhd_head_hidden_header walks: the request head as libmicrohttpd left it in its buffer.
struct cmhd_head_walk {
    const char *start;
    const char *end;
    const char *previous_end;  // just past the previous header's value
    const char *offending;     // the first header that hides bytes or holds a control byte
    const char *last_key;
};

static inline int cmhd_is_control(unsigned char byte, int allow_tab) {
    return (byte < 0x20 && !(allow_tab && byte == '\t')) || byte == 0x7f;
}

static inline int cmhd_all_zero(const char *from, const char *to) {
    for (const char *p = from; p < to; p++) {
        if (*p != 0) return 0;
    }
    return 1;
}

static inline enum MHD_Result cmhd_head_walk_header(
    void *context, enum MHD_ValueKind kind, const char *key, size_t key_size, const char *value, size_t value_size
) {
    (void)kind;
    struct cmhd_head_walk *walk = (struct cmhd_head_walk *)context;
    // Header lines lie in order in the head, each line's CR and LF and its colon zeroed. What lies
    // between the end of one value and the next name must be those zeros: anything else was cut
    // off by a NUL byte. A value outside the head was folded over lines (obs-fold), refused too.
    int misplaced = key < walk->start || key >= walk->end || value < key || value + value_size > walk->end;
    if (!misplaced && walk->previous_end != NULL
        && (key < walk->previous_end || !cmhd_all_zero(walk->previous_end, key))) {
        walk->offending = walk->last_key;  // the previous line went on past its value
        return MHD_NO;
    }
    int control = 0;
    for (size_t i = 0; i < key_size && !control; i++) control = cmhd_is_control((unsigned char)key[i], 0);
    for (size_t i = 0; i < value_size && !control; i++) control = cmhd_is_control((unsigned char)value[i], 1);
    if (misplaced || control) {
        walk->offending = key;
        return MHD_NO;
    }
    walk->previous_end = value + value_size;
    walk->last_key = key;
    return MHD_YES;
}

// The name of the first header whose line holds bytes libmicrohttpd's strings do not show (a NUL
// byte and what follows it), a control byte other than a tab, or folds over lines; NULL when
// every header is plain. `method` is the start of the request head (libmicrohttpd's buffer), and
// a head larger than `memory_limit` (the connection's whole memory) is not walked: it cannot be one.
static inline const char *cmhd_head_hidden_header(
    struct MHD_Connection *connection, const char *method, size_t memory_limit
) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (info == NULL || method == NULL || info->header_size > memory_limit) return NULL;
    struct cmhd_head_walk walk = { method, method + info->header_size, NULL, NULL, NULL };
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, &cmhd_head_walk_header, &walk);
    if (walk.offending == NULL && walk.previous_end != NULL && !cmhd_all_zero(walk.previous_end, walk.end)) {
        // Past the last header only its line end and the blank line remain.
        return walk.last_key;
    }
    return walk.offending;
}
