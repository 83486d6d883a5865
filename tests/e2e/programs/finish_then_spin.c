/* For the Ctrl-C tests: the first N runs of this program (N = argv[2]) end at once, every other
 * one failing an assertion; every later run spins forever. Runs are counted by appending a line
 * to the file argv[1] (plain open/write: not scheduling points), so the test knows when N runs
 * have finished and the ones in flight will never end by themselves. */
#include <assert.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static volatile unsigned long spins;

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  int fd = open(argv[1], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return 2;
  if (write(fd, "r\n", 2) != 2) return 2;
  struct stat st;
  if (fstat(fd, &st) != 0) return 2;
  close(fd);
  const long run = (long)st.st_size / 2; /* 1-based: this run's place among all runs so far */
  const long finishing = atol(argv[2]);
  if (run > finishing) {
    for (;;) spins++;
  }
  assert(run % 2 == 1); /* even runs fail */
  return 0;
}
