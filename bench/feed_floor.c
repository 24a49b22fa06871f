/* The floor for feed.list: what answering it costs at the least, in C. For each request line on
 * stdin (parsed with jansson for its id) it SELECTs the page's rows with the server's own query
 * (the same columns, filter, order and so the same index, LIMIT 51) and writes the reply the server
 * writes: the cards, the next cursor and the counts, built as jansson values and dumped compactly.
 * The cards themselves are not resolved here: they are read once at start from CARDS (the items of
 * the server's own reply to the same request), keyed by id, so the floor costs the row reads and
 * the JSON the reply needs, nothing of the engine.
 *
 *   feed_floor STORE CARDS NOW    (requests on stdin, replies on stdout, one per line)
 */
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  sqlite3 *db;
  if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) return 1;
  json_error_t error;
  json_t *reference = json_load_file(argv[2], 0, &error);
  if (!reference) return 1;
  json_t *cards = json_object(), *counts = json_object_get(reference, "counts");
  json_t *next = json_object_get(reference, "nextCursor");
  size_t index;
  json_t *card;
  json_array_foreach(json_object_get(reference, "items"), index, card) {
    json_object_set(cards, json_string_value(json_object_get(card, "id")), card);
  }
  long long now = atoll(argv[3]);
  sqlite3_stmt *page;
  const char *sql =
      "SELECT id, payload, ingested_at, source, order_code, hash, pinned, sent_at, expires_at, server_status, status, "
      "read_at, opened_at, dismissed_at FROM messages WHERE status < 4 AND (expires_at IS NULL OR expires_at > ?) "
      "ORDER BY pinned DESC, sort_time DESC, id LIMIT ?";
  if (sqlite3_prepare_v2(db, sql, -1, &page, NULL) != SQLITE_OK) return 1;
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  while ((length = getline(&line, &capacity, stdin)) > 0) {
    json_t *request = json_loadb(line, (size_t)length, JSON_DECODE_ANY, &error);
    json_t *items = json_array();
    sqlite3_bind_int64(page, 1, now);
    sqlite3_bind_int(page, 2, 51);
    int rows = 0;
    while (sqlite3_step(page) == SQLITE_ROW && ++rows <= 50) {
      const char *id = (const char *)sqlite3_column_text(page, 0);
      (void)sqlite3_column_text(page, 1); /* the payload, read as the server reads it */
      json_t *found = json_object_get(cards, id);
      json_array_append(items, found ? found : json_null());
    }
    sqlite3_reset(page);
    json_t *result = json_object();
    json_object_set_new(result, "items", items);
    json_object_set(result, "nextCursor", next);
    json_object_set(result, "counts", counts);
    json_t *reply = json_object();
    json_object_set_new(reply, "jsonrpc", json_string("2.0"));
    json_object_set(reply, "id", request ? json_object_get(request, "id") : json_null());
    json_object_set_new(reply, "result", result);
    char *text = json_dumps(reply, JSON_COMPACT);
    fputs(text, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    free(text);
    json_decref(reply);
    json_decref(request);
  }
  free(line);
  sqlite3_finalize(page);
  sqlite3_close(db);
  return 0;
}
