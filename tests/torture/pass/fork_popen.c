/* A multi-threaded program that starts helper processes: one thread runs `sort` through
 * popen() and reads its output, another forks and execs `/bin/echo`, capturing it through a pipe,
 * while a third keeps updating a counter under a mutex. The children run uncontrolled.
 * Must pass every seed with the helpers' exact output. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int ticks;
static char sorted[64], echoed[64];

static void *run_popen(void *arg) {
  (void)arg;
  FILE *p = popen("printf 'c\\nb\\na\\n' | sort", "r");
  assert(p != NULL);
  size_t n = fread(sorted, 1, sizeof sorted - 1, p);
  sorted[n] = '\0';
  int status = pclose(p);
  assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return NULL;
}

static void *run_fork_exec(void *arg) {
  (void)arg;
  int fds[2];
  int rc = pipe(fds);
  assert(rc == 0);
  pid_t pid = fork();
  assert(pid >= 0);
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl("/bin/echo", "echo", "from the child", (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  size_t used = 0;
  ssize_t n;
  while ((n = read(fds[0], echoed + used, sizeof echoed - 1 - used)) > 0) used += (size_t)n;
  echoed[used] = '\0';
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return NULL;
}

static void *tick(void *arg) {
  (void)arg;
  for (int i = 0; i < 50; i++) {
    pthread_mutex_lock(&lock);
    ticks++;
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, NULL, run_popen, NULL);
  pthread_create(&b, NULL, run_fork_exec, NULL);
  pthread_create(&c, NULL, tick, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_join(c, NULL);
  assert(strcmp(sorted, "a\nb\nc\n") == 0);
  assert(strcmp(echoed, "from the child\n") == 0);
  assert(ticks == 50);
  printf("popen and fork+exec output as expected\n");
  return 0;
}
