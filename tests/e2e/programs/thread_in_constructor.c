/* A library whose constructor starts a thread (preloaded by the fork-server e2e test): the
 * thread exists before main(), so a fork server cannot snapshot the process (fork would copy only
 * the calling thread) and ctrlsched must fall back to one exec per seed and say why. The thread
 * only waits; the program's own threads are unaffected. */
#include <pthread.h>
#include <unistd.h>

static void* idle(void* arg) {
  (void)arg;
  for (;;) pause();
  return 0;
}

__attribute__((constructor)) static void start_idle_thread(void) {
  pthread_t thread;
  if (pthread_create(&thread, 0, idle, 0) == 0) pthread_detach(thread);
}
