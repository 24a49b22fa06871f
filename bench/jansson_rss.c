/* What jansson's tree alone costs in memory for a sync's reply: `jansson_rss BODY` reads the file,
 * parses it with the server's flags and prints the peak RSS in KiB after reading the file and after
 * parsing it (getrusage), the floor of any reader that holds the whole tree at once. */
#include <jansson.h>
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
  FILE *file = fopen(argv[1], "rb");
  if (!file) return 1;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *body = malloc(size);
  if (fread(body, 1, size, file) != (size_t)size) return 1;
  fclose(file);
  long read = peak_kib();
  json_error_t error;
  json_t *root = json_loadb(body, size, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
  if (!root) return 1;
  printf("%ld %ld\n", read, peak_kib());
  json_decref(root);
  free(body);
  return 0;
}
