/* The classic dedicated signal thread: every thread blocks SIGUSR1 and SIGTERM, one thread
 * waits for them with sigwait() (a blocking system call outside ctrlsched's model), workers send
 * SIGUSR1 to the process, and main finally sends SIGTERM to stop the signal thread. Also a
 * handler installed with sigaction() runs for a SIGUSR2 that a worker raises in itself.
 * Must pass every seed. */
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

enum { kWorkers = 3 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int usr1_seen;
static volatile sig_atomic_t usr2_handled;

static void on_usr2(int sig) {
  (void)sig;
  usr2_handled++;
}

static void *signal_thread(void *arg) {
  sigset_t *set = arg;
  for (;;) {
    int sig = 0;
    int rc = sigwait(set, &sig);
    assert(rc == 0);
    if (sig == SIGTERM) return NULL;
    pthread_mutex_lock(&lock);
    usr1_seen++;
    pthread_mutex_unlock(&lock);
  }
}

static void *worker(void *arg) {
  (void)arg;
  kill(getpid(), SIGUSR1);
  raise(SIGUSR2);  // not blocked: the handler runs in this thread
  return NULL;
}

int main(void) {
  struct sigaction action = {0};
  action.sa_handler = on_usr2;
  sigemptyset(&action.sa_mask);
  sigaction(SIGUSR2, &action, NULL);

  static sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGUSR1);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, NULL);  // inherited by every thread created below

  pthread_t waiter, workers[kWorkers];
  pthread_create(&waiter, NULL, signal_thread, &set);
  for (int i = 0; i < kWorkers; i++) pthread_create(&workers[i], NULL, worker, NULL);
  for (int i = 0; i < kWorkers; i++) pthread_join(workers[i], NULL);
  assert(usr2_handled == kWorkers);
  kill(getpid(), SIGTERM);
  pthread_join(waiter, NULL);
  /* Standard signals do not queue: several SIGUSR1 pending at once are delivered once. */
  assert(usr1_seen >= 1 && usr1_seen <= kWorkers);
  printf("SIGUSR1 seen %d times, SIGUSR2 handled %d times\n", usr1_seen, (int)usr2_handled);
  return 0;
}
