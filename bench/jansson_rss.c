/* What jansson's tree alone costs in memory for a sync's reply: `jansson_rss BODY` reads the file,
 * parses it with the server's flags and prints the KiB in use in the heap after reading the file and
 * after parsing it (mallinfo2: what the tree's nodes and strings take, malloc's headers included),
 * the floor of any reader that holds the whole tree at once. (Peak RSS from getrusage proved
 * unsteady for this on a shared machine: pages of the file read could be counted or not.) */
#include <jansson.h>

#include "body_file.h"
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>

static long heap_kib(void) { return (long)(mallinfo2().uordblks / 1024); }

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  long size = 0;
  char *body = read_body(argv[1], &size);
  if (!body) return 1;
  long read = heap_kib();
  json_error_t error;
  json_t *root = json_loadb(body, size, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
  if (!root) return 1;
  printf("%ld %ld\n", read, heap_kib());
  json_decref(root);
  free(body);
  return 0;
}
