/* The floor for a durable change: one UPDATE committed in its own transaction on a WAL database
 * with synchronous=NORMAL, the store's own settings. Prints the median and p99 commit latency in
 * microseconds over N commits: `sqlite_commit PATH N`. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  int n = atoi(argv[2]);
  sqlite3 *db;
  if (sqlite3_open(argv[1], &db) != SQLITE_OK) return 1;
  sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                   "CREATE TABLE IF NOT EXISTS m (id INTEGER PRIMARY KEY, status INTEGER, at INTEGER);", 0, 0, 0);
  sqlite3_exec(db, "BEGIN", 0, 0, 0);
  for (int i = 0; i < n; i++) {
    char sql[128];
    snprintf(sql, sizeof sql, "INSERT OR REPLACE INTO m VALUES (%d, 1, NULL)", i);
    sqlite3_exec(db, sql, 0, 0, 0);
  }
  sqlite3_exec(db, "COMMIT", 0, 0, 0);
  sqlite3_stmt *update;
  sqlite3_prepare_v2(db, "UPDATE m SET status = 4, at = ? WHERE id = ?", -1, &update, 0);
  double *samples = malloc(sizeof(double) * n);
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
  qsort(samples, n, sizeof(double), compare);
  printf("%.2f %.2f\n", samples[n / 2], samples[(int)(n * 0.99)]);
  sqlite3_finalize(update);
  sqlite3_close(db);
  return 0;
}
