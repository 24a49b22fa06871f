/* The floors for a durable change, on a WAL database with synchronous=NORMAL (the store's own
 * settings); each prints the median and p99 latency in microseconds over N transactions.
 *
 *   sqlite_commit PATH N             one UPDATE of a one-row-per-id table, committed on its own
 *   sqlite_commit --dismiss STORE N  the statements the server runs for `message.dismiss`, prepared
 *                                    once, in one IMMEDIATE transaction per message m000000 ..
 *                                    m(N-1) of an inbox store (a copy: it is changed), with no
 *                                    protocol, engine or JSON around them: beside the one-row
 *                                    commit it tells how much of a dismissal is the pages its
 *                                    change must write. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing.h"

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql) {
  sqlite3_stmt *statement = 0;
  if (sqlite3_prepare_v2(db, sql, -1, &statement, 0) != SQLITE_OK) {
    fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
    exit(1);
  }
  return statement;
}

static void run(sqlite3_stmt *statement) {
  while (sqlite3_step(statement) == SQLITE_ROW) {}
  sqlite3_reset(statement);
}

/* One-row commits' latencies into samples[0..n). */
static void update_one_row(sqlite3 *db, int n, double *samples) {
  sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS m (id INTEGER PRIMARY KEY, status INTEGER, at INTEGER);", 0, 0, 0);
  sqlite3_exec(db, "BEGIN", 0, 0, 0);
  for (int i = 0; i < n; i++) {
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO m VALUES (%d, 1, NULL)", i);
    sqlite3_exec(db, sql, 0, 0, 0);
  }
  sqlite3_exec(db, "COMMIT", 0, 0, 0);
  sqlite3_stmt *update;
  sqlite3_prepare_v2(db, "UPDATE m SET status = 4, at = ? WHERE id = ?", -1, &update, 0);
  for (int i = 0; i < n; i++) {
    double start = now_us();
    sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
    sqlite3_bind_int64(update, 1, i);
    sqlite3_bind_int(update, 2, i);
    sqlite3_step(update);
    sqlite3_reset(update);
    sqlite3_exec(db, "COMMIT", 0, 0, 0);
    samples[i] = now_us() - start;
  }
  sqlite3_finalize(update);
}

/* The dismissals' latencies into samples[0..n). */
static void dismiss(sqlite3 *db, int n, double *samples) {
  sqlite3_stmt *begin = prepare(db, "BEGIN IMMEDIATE"), *commit = prepare(db, "COMMIT");
  sqlite3_stmt *select = prepare(db,
      "SELECT id, payload, ingested_at, source, order_code, hash, pinned, sent_at, expires_at, server_status, status, "
      "read_at, opened_at, dismissed_at FROM messages WHERE id = ?");
  sqlite3_stmt *update = prepare(db,
      "UPDATE messages SET status = max(status, 4), dismissed_at = coalesce(dismissed_at, ?) WHERE id = ?");
  sqlite3_stmt *enqueue = prepare(db,
      "INSERT INTO outbox (message_id, status, order_code, hash, queued_at) VALUES (?, 4, ?, ?, ?) "
      "ON CONFLICT(account, message_id, status) DO NOTHING");
  sqlite3_stmt *counts = prepare(db,
      "UPDATE feed_counts SET total = total + ?, unread = unread + ?, unactioned = unactioned + ?, pinned = pinned + ?");
  for (int i = 0; i < n; i++) {
    char id[16];
    snprintf(id, sizeof id, "m%06d", i);
    double start = now_us();
    run(begin);
    sqlite3_bind_text(select, 1, id, -1, SQLITE_STATIC);
    int status = 0, pinned = 0;
    if (sqlite3_step(select) == SQLITE_ROW) {
      sqlite3_bind_text(enqueue, 2, (const char *)sqlite3_column_text(select, 4), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(enqueue, 3, (const char *)sqlite3_column_text(select, 5), -1, SQLITE_TRANSIENT);
      pinned = sqlite3_column_int(select, 6);
      status = sqlite3_column_int(select, 10);
    }
    sqlite3_reset(select);
    sqlite3_bind_int64(update, 1, 1790000000);
    sqlite3_bind_text(update, 2, id, -1, SQLITE_STATIC);
    run(update);
    sqlite3_bind_text(enqueue, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(enqueue, 4, 1790000000);
    run(enqueue);
    sqlite3_bind_int(counts, 1, -1);
    sqlite3_bind_int(counts, 2, status < 2 ? -1 : 0);
    sqlite3_bind_int(counts, 3, status < 3 ? -1 : 0);
    sqlite3_bind_int(counts, 4, pinned ? -1 : 0);
    run(counts);
    run(commit);
    samples[i] = now_us() - start;
  }
  sqlite3_finalize(begin), sqlite3_finalize(commit), sqlite3_finalize(select);
  sqlite3_finalize(update), sqlite3_finalize(enqueue), sqlite3_finalize(counts);
}

int main(int argc, char **argv) {
  int dismissing = argc == 4 && strcmp(argv[1], "--dismiss") == 0;
  if (argc != 3 && !dismissing) return 2;
  int n = atoi(argv[argc - 1]);
  sqlite3 *db;
  if (n <= 0 || sqlite3_open(argv[argc - 2], &db) != SQLITE_OK) return 1;
  sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", 0, 0, 0);
  double *samples = malloc(sizeof(double) * n);
  if (dismissing) dismiss(db, n, samples);
  else update_one_row(db, n, samples);
  qsort(samples, n, sizeof(double), compare);
  printf("%.2f %.2f\n", samples[n / 2], samples[(int)(n * 0.99)]);
  free(samples);
  sqlite3_close(db);
  return 0;
}
