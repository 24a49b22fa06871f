/*
 * bench/echo.c: the floor for bench/run. A bare jansson NDJSON "server" that answers every
 * line with {"jsonrpc":"2.0","id":<id>,"result":"pong"}.
 *
 * It does the least work a JSON-RPC server over stdio can do and still be honest:
 * read stdin through a 64 KiB buffer, split lines, parse each one with json_loadb, build the
 * reply as a jansson object, dump it compact, and write(2) it plus '\n' in one call per frame
 * (no stdio buffering), exactly like the server flushes each frame.
 *
 * Build: cc -O2 -o echo bench/echo.c $(pkg-config --cflags --libs jansson)
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_all(const char *data, size_t length) {
    while (length > 0) {
        ssize_t written = write(STDOUT_FILENO, data, length);
        if (written < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return -1;
        }
        data += written;
        length -= (size_t)written;
    }
    return 0;
}

/* Answers one line; returns -1 when stdout is gone. */
static int answer(const char *line, size_t length) {
    if (length > 0 && line[length - 1] == '\r') length--;
    if (length == 0) return 0;
    json_error_t error;
    json_t *request = json_loadb(line, length, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
    json_t *reply = json_object();
    json_object_set_new(reply, "jsonrpc", json_string("2.0"));
    json_t *id = request && json_is_object(request) ? json_object_get(request, "id") : NULL;
    json_object_set(reply, "id", id ? id : json_null());
    if (request) {
        json_object_set_new(reply, "result", json_string("pong"));
    } else {
        json_t *err = json_pack("{s:i,s:s}", "code", -32700, "message", "Parse error");
        json_object_set_new(reply, "error", err);
    }
    /* One write per frame: body and newline together, as the server does. */
    char stack[4096];
    size_t size = json_dumpb(reply, stack, sizeof stack - 1, JSON_COMPACT | JSON_ENCODE_ANY);
    int status = 0;
    if (size > 0 && size < sizeof stack) {
        stack[size] = '\n';
        status = write_all(stack, size + 1);
    } else if (size > 0) {
        char *frame = malloc(size + 1);
        if (frame && json_dumpb(reply, frame, size, JSON_COMPACT | JSON_ENCODE_ANY) == size) {
            frame[size] = '\n';
            status = write_all(frame, size + 1);
        }
        free(frame);
    }
    json_decref(reply);
    if (request) json_decref(request);
    return status;
}

int main(void) {
    size_t capacity = 64 * 1024, start = 0, end = 0;
    char *buffer = malloc(capacity);
    if (!buffer) return 1;
    for (;;) {
        if (end == capacity) {
            if (start > 0) {
                memmove(buffer, buffer + start, end - start);
                end -= start;
                start = 0;
            } else {
                capacity *= 2;
                char *grown = realloc(buffer, capacity);
                if (!grown) return 1;
                buffer = grown;
            }
        }
        ssize_t count = read(STDIN_FILENO, buffer + end, capacity - end);
        if (count < 0) {
            if (errno == EINTR) continue;
            return 1;
        }
        if (count == 0) break;
        size_t scan = end;
        end += (size_t)count;
        for (;;) {
            char *newline = memchr(buffer + scan, '\n', end - scan);
            if (!newline) break;
            size_t line_end = (size_t)(newline - buffer);
            if (answer(buffer + start, line_end - start) < 0) return 0;
            start = scan = line_end + 1;
        }
        if (start == end) start = end = 0;
    }
    if (end > start) answer(buffer + start, end - start);
    free(buffer);
    return 0;
}
