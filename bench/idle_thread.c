/* bench/idle_thread.c: preloaded (LD_PRELOAD) into a server, starts one thread that only sleeps.
 * From then on glibc takes its multi-threaded paths (malloc's arena locks, the cancellation
 * bookkeeping around each system call), as it does in any process that ever started a thread;
 * bench/threaded.py compares a build so made with one that started a thread of its own. */
#include <pthread.h>
#include <unistd.h>

static void *sleep_forever(void *unused) {
  (void)unused;
  for (;;) pause();
  return NULL;
}

__attribute__((constructor)) static void start_idle_thread(void) {
  pthread_t thread;
  if (pthread_create(&thread, NULL, sleep_forever, NULL) == 0) pthread_detach(thread);
}
