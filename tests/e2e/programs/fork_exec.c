/* The test forks a child that itself uses pthreads (creates, locks, joins) and then execs
 * /bin/true; the parent waits for it while another thread of the parent keeps running.
 * Expected under ctrlsched: passes (fork children run uncontrolled), no hang.
 * The child uses only its own mutex: the parent's `lock` may be held by T1 at the fork, and a
 * child that took it would deadlock under real pthreads too. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *bump(void *arg) {
  pthread_mutex_t *m = arg;
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(m);
    counter++;
    pthread_mutex_unlock(m);
  }
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, bump, &lock);
  pid_t child = fork();
  assert(child >= 0);
  if (child == 0) {
    /* In the child: pthreads must still work (a fresh thread, a lock, a join). */
    static pthread_mutex_t child_lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_t c;
    pthread_create(&c, NULL, bump, &child_lock);
    pthread_mutex_lock(&child_lock);
    pthread_mutex_unlock(&child_lock);
    pthread_join(c, NULL);
    execl("/bin/true", "true", (char *)NULL);
    _exit(99); /* exec failed */
  }
  pthread_mutex_lock(&lock);
  counter++;
  pthread_mutex_unlock(&lock);
  int status = 0;
  pid_t waited = waitpid(child, &status, 0);
  assert(waited == child);
  assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  pthread_join(t, NULL);
  assert(counter == 4);
  return 0;
}
