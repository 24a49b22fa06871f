/* The floor of any reader of a trace: `jansson_lines FILE` reads FILE a line at a time and parses
 * each line with jansson, with the server's flags, then frees it; prints the lines parsed. This is
 * what check-trace does before it checks anything (bench/check_trace.py). */
#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  FILE *file = fopen(argv[1], "r");
  if (!file) return 1;
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  long parsed = 0;
  while ((length = getline(&line, &capacity, file)) > 0) {
    json_error_t error;
    json_t *value = json_loadb(line, (size_t)length, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
    if (!value) return 1;
    json_decref(value);
    parsed++;
  }
  printf("%ld\n", parsed);
  free(line);
  fclose(file);
  return 0;
}
