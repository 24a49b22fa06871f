/* Reading a reply body for the C floors in bench/: the whole file into one malloc'd buffer. */
#ifndef BENCH_BODY_FILE_H
#define BENCH_BODY_FILE_H
#include <stdio.h>
#include <stdlib.h>

/* The bytes of the file at `path` (the caller frees them) and their count in *size; NULL on failure. */
static inline char *read_body(const char *path, long *size) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  *size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *body = malloc(*size > 0 ? *size : 1);
  if (body && fread(body, 1, *size, file) != (size_t)*size) {
    free(body);
    body = NULL;
  }
  fclose(file);
  return body;
}
#endif
