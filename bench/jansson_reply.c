/* What jansson alone costs for a sync's reply: `jansson_reply BODY N` parses the getInboxMessages
 * body in the file BODY with the server's flags, dumps each item of response.messages compact (the
 * payload texts a sync stores), frees the tree, N times, and prints the median milliseconds of the
 * three steps. No engine, store or Swift: the library's share of a sync, measured in the same run. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "body_file.h"
#include "timing.h"

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  int n = atoi(argv[2]);
  long size = 0;
  char *body = read_body(argv[1], &size);
  if (!body || n <= 0) return 1;
  double *steps[3];
  for (int step = 0; step < 3; step++) steps[step] = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    json_error_t error;
    double start = now_us() / 1e3;
    json_t *root = json_loadb(body, size, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
    if (!root) return 1;
    double parsed = now_us() / 1e3;
    json_t *messages = json_object_get(json_object_get(root, "response"), "messages");
    for (size_t item = 0; item < json_array_size(messages); item++) {
      char *text = json_dumps(json_array_get(messages, item), JSON_COMPACT | JSON_ENCODE_ANY);
      free(text);
    }
    double dumped = now_us() / 1e3;
    json_decref(root);
    double freed = now_us() / 1e3;
    steps[0][i] = parsed - start, steps[1][i] = dumped - parsed, steps[2][i] = freed - dumped;
  }
  for (int step = 0; step < 3; step++) qsort(steps[step], n, sizeof(double), compare);
  printf("%.2f %.2f %.2f\n", steps[0][n / 2], steps[1][n / 2], steps[2][n / 2]);
  return 0;
}
