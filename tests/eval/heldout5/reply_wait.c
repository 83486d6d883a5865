// ctrlsched-truth: class=lost_wakeup fails=deadlock
// ctrlsched-truth: cause g_reply_ready,g_client_waiting,g_reply_sem R1@34:g_reply_ready W2@27:g_reply_ready R2@28:g_client_waiting W1@35:g_client_waiting semwait1@36:g_reply_sem
// A request/reply hand-off between a client (main) and a server thread. The reply semaphore is
// only posted when the client has said it is asleep on it, to save a system call on the fast
// path where the reply is already there when the client asks.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>

int g_request;
long g_reply;
atomic_int g_reply_ready;
atomic_int g_client_waiting;
sem_t g_reply_sem;

static long sum_of_squares(int n) {
  long r = 0;
  for (int i = 1; i <= n; ++i) r += (long)i * i;
  return r;
}

static void *server(void *arg) {
  (void)arg;
  g_reply = sum_of_squares(g_request);
  atomic_store(&g_reply_ready, 1);
  if (atomic_load(&g_client_waiting))
    sem_post(&g_reply_sem);
  return NULL;
}

static long await_reply(void) {
  if (!atomic_load(&g_reply_ready)) {
    atomic_store(&g_client_waiting, 1);
    sem_wait(&g_reply_sem);
  }
  return g_reply;
}

int main(void) {
  sem_init(&g_reply_sem, 0, 0);
  g_request = 24;
  pthread_t t;
  pthread_create(&t, NULL, server, NULL);
  long reply = await_reply();
  pthread_join(t, NULL);
  assert(reply == sum_of_squares(24));
  sem_destroy(&g_reply_sem);
  printf("reply %ld\n", reply);
  return 0;
}
