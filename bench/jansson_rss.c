/* What jansson's tree alone costs in memory for a sync's reply: `jansson_rss BODY` reads the file,
 * parses it with the server's flags and prints the peak RSS in KiB after reading the file and after
 * parsing it (getrusage), the floor of any reader that holds the whole tree at once. */
#include <jansson.h>

#include "body_file.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static long peak_kib(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  long size = 0;
  char *body = read_body(argv[1], &size);
  if (!body) return 1;
  long read = peak_kib();
  json_error_t error;
  json_t *root = json_loadb(body, size, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
  if (!root) return 1;
  printf("%ld %ld\n", read, peak_kib());
  json_decref(root);
  free(body);
  return 0;
}
