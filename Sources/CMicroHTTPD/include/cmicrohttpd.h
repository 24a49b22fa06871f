#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H
// GNU libmicrohttpd, loaded with dlopen by `inbox-rpc backend` alone: the server itself never
// loads it (nor GnuTLS behind it), and a machine without it loses only the backend double. Swift
// sees one request at a time, whole, and answers it with a reply these functions play out
// (a delay, a body dripped in pieces, a reset connection).
#include <stddef.h>

/// Loads `library` (e.g. "libmicrohttpd.so.12") once per process. NULL when ready, else why not.
const char *cmhd_load(const char *library);

/// The loaded library's version ("0.9.75"); NULL before a successful load.
const char *cmhd_version(void);

/// One request as it arrived, whole. Pointers stay valid during the handler's call only.
typedef struct {
  const char *method;
  const char *path;
  /// Every header as "name: value" lines, each ending in "\n", names as the client sent them.
  const char *headers;
  /// The Authorization header, or NULL.
  const char *authorization;
  const unsigned char *body;
  size_t body_length;
  /// 1 when the body was longer than `max_body_bytes` (then `body` holds none of it).
  int too_large;
} cmhd_request;

/// The reply the handler fills in (through cmhd_reply_set_body for the body, which it copies).
typedef struct cmhd_reply cmhd_reply;
void cmhd_reply_set_status(cmhd_reply *reply, int status);
void cmhd_reply_set_body(cmhd_reply *reply, const void *body, size_t length, const char *content_type);
/// Waits `milliseconds` before anything of the reply is sent.
void cmhd_reply_set_delay(cmhd_reply *reply, int milliseconds);
/// Sends the body `piece` bytes at a time, `interval_ms` apart.
void cmhd_reply_set_drip(cmhd_reply *reply, size_t piece, int interval_ms);
/// No reply: the connection is closed with a TCP reset (SO_LINGER 0).
void cmhd_reply_set_reset(cmhd_reply *reply);

typedef void (*cmhd_handler)(void *context, const cmhd_request *request, cmhd_reply *reply);

typedef struct {
  /// 0: any free port.
  unsigned short port;
  /// PEM text of the certificate and its key for https; both NULL for http.
  const char *cert_pem;
  const char *key_pem;
  size_t max_body_bytes;
  /// Bytes a connection may use for its request line and headers.
  size_t max_header_bytes;
  unsigned int max_connections;
  /// Seconds a connection may stay idle.
  unsigned int idle_timeout;
} cmhd_options;

typedef struct cmhd_server cmhd_server;

/// Listens on 127.0.0.1, each connection on a thread of its own, calling `handler` once per
/// request. NULL on failure, with libmicrohttpd's or the system's words in `why`.
cmhd_server *cmhd_start(const cmhd_options *options, cmhd_handler handler, void *context, char *why,
                        size_t why_size);
/// The port it listens on.
unsigned short cmhd_port(cmhd_server *server);
void cmhd_stop(cmhd_server *server);

#endif
