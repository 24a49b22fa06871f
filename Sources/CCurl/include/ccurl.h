#ifndef CCURL_H
#define CCURL_H
// libcurl, loaded on first use with dlopen rather than linked: a program linking libcurl loads its
// ~30 shared libraries at every start, and a server that never syncs should not pay for that, nor
// fail to start where libcurl is missing. Swift sees only these fixed-signature functions; the
// variadic curl_easy_setopt and the option constants stay on this side.
#include <stddef.h>

/// Loads `library` (e.g. "libcurl.so.4") once per process and initialises it. NULL when libcurl
/// is ready, else why it is not (static text, the same on every later call).
const char *ccurl_load(const char *library);

/// The loaded libcurl's own version ("8.5.0"), from curl_version_info; NULL before a successful load.
const char *ccurl_version(void);

/// Parses `url` with libcurl's own URL parser (curl_url_set), as a transfer will: 0 when libcurl
/// accepts it, else its CURLUcode with libcurl's words in `why`; -1 when libcurl, or its URL API
/// (libcurl 7.62 and later), is not loaded (call ccurl_load first).
int ccurl_url_check(const char *url, char *why, size_t why_size);

/// A transfer handle and the connections it keeps alive between calls: one caller at a time.
typedef struct ccurl_session ccurl_session;

ccurl_session *ccurl_session_new(void);
void ccurl_session_free(ccurl_session *session);

/// One POST, or a GET when `body` is NULL. Strings are copied by libcurl before ccurl_start returns.
typedef struct {
  const char *url;
  /// "https" or "http": the only protocol this transfer may use.
  const char *protocol;
  const char *const *headers;
  int header_count;
  const void *body;
  size_t body_length;
  long connect_timeout_ms;
  long timeout_ms;
  long long max_reply_bytes;
  const char *user_agent;
  /// A PEM file of CAs to trust instead of the system's store; NULL: the system's.
  const char *ca_file;
  /// The proxy URL; "" for none (libcurl then reads no proxy variable itself).
  const char *proxy;
  /// `no_proxy` as written: the hosts reached directly, matched by libcurl.
  const char *no_proxy;
} ccurl_request;

/// Starts the transfer; 0, or a CURLcode when an option was refused (`ccurl_result` says which).
int ccurl_start(ccurl_session *session, const ccurl_request *request);

/// Moves the transfer on, waiting at most `wait_ms` for the network: 1 while it runs, 0 once done.
int ccurl_step(ccurl_session *session, int wait_ms);

/// Abandons a transfer in progress; its connection is closed.
void ccurl_abort(ccurl_session *session);

/// What became of a transfer, in the classes the messages need.
typedef enum {
  CCURL_REPLIED = 0,  // a reply arrived, whatever its status
  CCURL_RESOLVE,      // the host's name could not be resolved
  CCURL_RESOLVE_PROXY,
  CCURL_CONNECT,      // no connection to the host, or to the proxy
  CCURL_TIMEOUT,
  CCURL_CERTIFICATE,  // the peer's certificate was not accepted
  CCURL_TLS,          // the TLS handshake failed otherwise
  CCURL_CA_FILE,      // the CA file could not be read
  CCURL_PROXY,        // a SOCKS or https proxy failed
  CCURL_TOO_LARGE,    // the reply is larger than max_reply_bytes
  CCURL_OTHER,
} ccurl_outcome;

typedef struct {
  ccurl_outcome outcome;
  /// The CURLcode of the transfer.
  int code;
  /// libcurl's own words for a failure ("" when it has none).
  const char *error;
  long http_status;
  /// A proxy's answer to CONNECT (0: none asked).
  long connect_status;
  /// The system's errno of a failed connect.
  long os_errno;
  /// A redirect's absolute target, or NULL.
  const char *location;
  /// The reply's Content-Type as the server sent it, or NULL.
  const char *content_type;
  const unsigned char *body;
  size_t body_length;
} ccurl_result;

/// The outcome of the last transfer; pointers stay valid until the next ccurl_start.
void ccurl_result_get(ccurl_session *session, ccurl_result *result);
/// The reply's bytes received so far, and the length it announced (-1 when it announced none).
void ccurl_received(ccurl_session *session, long long *received, long long *expected);
/// Frees the last reply's body (a session kept for the next call need not hold a large one).
void ccurl_release_body(ccurl_session *session);

#endif
